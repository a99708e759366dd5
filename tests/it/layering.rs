//! The layering of the front ends: one view (`src/view`), thin renderers over it. No renderer
//! imports another (the page, the handouts, the terminal), and the view imports none of them.

use std::path::{Path, PathBuf};

use crate::common;

/// The layers, by source directory (or file), and the module paths they must not name.
fn rules() -> Vec<(&'static str, Vec<&'static str>)> {
    vec![
        (
            "src/view",
            vec!["crate::render", "crate::run", "crate::author", "crate::cli"],
        ),
        (
            "src/render/html",
            vec!["crate::render::markdown", "super::markdown", "crate::run"],
        ),
        (
            "src/render/markdown",
            vec!["crate::render::html", "super::html", "crate::run"],
        ),
        ("src/run", vec!["crate::render", "crate::author"]),
    ]
}

/// `.rs` files of a layer: the directory's files and `DIR.rs` beside it.
fn files(layer: &Path) -> Vec<PathBuf> {
    let mut v = Vec::new();
    let file = layer.with_extension("rs");
    if file.is_file() {
        v.push(file);
    }
    let mut stack = vec![layer.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                v.push(p);
            }
        }
    }
    v.sort();
    v
}

/// Lines of `src` naming one of `banned` (outside `//` comments), as `line: text`.
fn violations(src: &str, banned: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for (i, line) in src.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        let squeezed: String = code.chars().filter(|c| !c.is_whitespace()).collect();
        for b in banned {
            // `crate::render` must not match `crate::renderer`; `crate::render::{html, ..}` and
            // `use crate::{render, ..}` count.
            let hit = squeezed.match_indices(b).any(|(k, _)| {
                let next = squeezed[k + b.len()..].chars().next();
                !next.is_some_and(|c| c.is_alphanumeric() || c == '_')
            });
            let (root, last) = b.rsplit_once("::").unwrap_or(("", b));
            let grouped = squeezed.contains(&format!("{root}::{{"))
                && squeezed.split(&format!("{root}::{{")).skip(1).any(|rest| {
                    rest.split('}')
                        .next()
                        .unwrap_or("")
                        .split(',')
                        .any(|item| item == last || item.starts_with(&format!("{last}::")))
                });
            if hit || grouped {
                out.push(format!("{}: {}", i + 1, line.trim()));
            }
        }
    }
    out
}

#[test]
fn the_scanner_catches_every_form_of_import() {
    let banned = ["crate::render", "super::html"];
    for bad in [
        "use crate::render::html::{control_text, slider_digits};",
        "        Ok(val) => crate::render::markdown::view::setting_text(ctl, &val),",
        "use crate::{eval, render};",
        "use crate::render;",
        "use super::html::md_inline;",
        "use super::{html, svg};",
    ] {
        assert_eq!(violations(bad, &banned).len(), 1, "missed: {bad}");
    }
    for ok in [
        "use crate::renderers_list;",
        "// crate::render::html is another layer",
        "use super::htmlish;",
        "use crate::view::format::control_text;",
    ] {
        assert!(violations(ok, &banned).is_empty(), "false alarm: {ok}");
    }
}

#[test]
fn no_front_end_imports_another_and_the_view_imports_none() {
    let root = common::root();
    let mut bad = Vec::new();
    for (layer, banned) in rules() {
        let fs = files(&root.join(layer));
        assert!(!fs.is_empty(), "{layer}: no sources found");
        for f in fs {
            let src = std::fs::read_to_string(&f).unwrap();
            for v in violations(&src, &banned) {
                bad.push(format!(
                    "{}:{v}",
                    f.strip_prefix(&root).unwrap_or(&f).display()
                ));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "layering broken (shared helpers belong in src/view):\n{}",
        bad.join("\n")
    );
}
