//! The layering. Between layers the compiler holds it: each layer is a crate (`crates/`) whose
//! manifest names only the crates below it, which [`the_crates_depend_only_downwards`] checks.
//! Inside a crate this test holds what the compiler cannot: no renderer imports another (the
//! page, the handouts), and the terminal imports no renderer. Below the commands nothing
//! prints and only the driver touches the disk. (That every Rust file the page's scripts name
//! as their twin exists is `js_twins`.)

use std::path::{Path, PathBuf};

use crate::common;

/// The layers, by source directory (or file), and the module paths they must not name.
fn rules() -> Vec<(&'static str, Vec<&'static str>)> {
    vec![
        (
            "crates/render/src/render/html",
            vec!["crate::render::markdown", "super::markdown", "crate::run"],
        ),
        (
            "crates/render/src/render/markdown",
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
        "layering broken (shared helpers belong in crates/view/src/view):\n{}",
        bad.join("\n")
    );
}

/// The layers, lowest first: each crate may name only crates before it in this list.
const CRATES: [&str; 6] = [
    "labforge-core",
    "labforge-engine",
    "labforge-view",
    "labforge-render",
    "labforge-driver",
    "labforge",
];

/// The `labforge-*` crates a manifest names in any dependency table, and its own name.
fn manifest(text: &str) -> (String, Vec<String>) {
    let (mut name, mut deps, mut section) = (String::new(), Vec::new(), String::new());
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            section = line.trim_matches(|c| c == '[' || c == ']').to_string();
            continue;
        }
        let key = line
            .split('=')
            .next()
            .unwrap_or("")
            .trim()
            .trim_matches('"');
        if section == "package" && key == "name" {
            name = line
                .split('=')
                .nth(1)
                .unwrap_or("")
                .trim()
                .trim_matches('"')
                .to_string();
        }
        if section.ends_with("dependencies") && key.starts_with("labforge") {
            deps.push(key.to_string());
        }
    }
    (name, deps)
}

#[test]
fn the_crates_depend_only_downwards() {
    let root = common::root();
    let mut found = Vec::new();
    let mut bad = Vec::new();
    let mut manifests = vec![root.join("Cargo.toml")];
    for e in std::fs::read_dir(root.join("crates")).unwrap().flatten() {
        manifests.push(e.path().join("Cargo.toml"));
    }
    for m in manifests {
        let (name, deps) = manifest(&std::fs::read_to_string(&m).unwrap());
        let Some(me) = CRATES.iter().position(|c| *c == name) else {
            panic!("{}: crate `{name}` is in no layer of CRATES", m.display());
        };
        for d in deps {
            match CRATES.iter().position(|c| *c == d) {
                Some(k) if k < me => {}
                _ => bad.push(format!("{name} names {d}, which is not below it")),
            }
        }
        found.push(name);
    }
    found.sort();
    let mut want: Vec<String> = CRATES.iter().map(|c| c.to_string()).collect();
    want.sort();
    assert_eq!(found, want, "every layer is one crate");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_manifest_reader_sees_every_dependency_table() {
    let text = "[package]\nname = \"labforge-view\"\n[dependencies]\nlabforge-engine = { workspace = true }\n\
                [target.'cfg(unix)'.dependencies]\nlabforge-driver = \"1\"\n[dev-dependencies]\nlabforge = \"1\"\n";
    let (name, deps) = manifest(text);
    assert_eq!(name, "labforge-view");
    assert_eq!(deps, ["labforge-engine", "labforge-driver", "labforge"]);
}

/// The code of each `.rs` file under `dirs` (relative to the root) without its unit tests
/// (what follows `#[cfg(test)]`; a file that is only a test module, `#[cfg(test)] #[path =
/// "NAME"] mod tests;` beside it, is all test), with the file's path from the root.
fn non_test_code(dirs: &[&str]) -> Vec<(String, String)> {
    let root = common::root();
    let all: Vec<PathBuf> = dirs.iter().flat_map(|d| files(&root.join(d))).collect();
    let test_module = |f: &Path| {
        let name = f.file_name().unwrap().to_string_lossy();
        let include = format!("#[cfg(test)]\n#[path = \"{name}\"]");
        all.iter()
            .filter(|g| g.parent() == f.parent())
            .any(|g| std::fs::read_to_string(g).is_ok_and(|s| s.contains(&include)))
    };
    all.iter()
        .map(|f| {
            let src = std::fs::read_to_string(f).unwrap();
            let code = if test_module(f) {
                String::new()
            } else {
                src.split("#[cfg(test)]").next().unwrap_or("").to_string()
            };
            (f.strip_prefix(&root).unwrap().display().to_string(), code)
        })
        .collect()
}

/// `file:line` of each line of `code` (outside `//` comments) containing one of `marks`.
fn lines_with(file: &str, code: &str, marks: &[&str]) -> Vec<String> {
    code.lines()
        .enumerate()
        .filter(|(_, l)| {
            let l = l.split("//").next().unwrap_or("");
            marks.iter().any(|m| l.contains(m))
        })
        .map(|(i, _)| format!("{file}:{}", i + 1))
        .collect()
}

#[test]
fn nothing_below_the_commands_prints() {
    // The commands (`src/`) hold the one printer; a layer below returns what it found. Unit
    // tests may print what they compare.
    let marks = ["print!(", "println!(", "eprint!(", "eprintln!(", "dbg!("];
    let bad: Vec<String> = non_test_code(&["crates"])
        .iter()
        .flat_map(|(f, code)| lines_with(f, code, &marks))
        .collect();
    assert!(
        bad.is_empty(),
        "prints below the commands:\n{}",
        bad.join("\n")
    );
}

/// Issue 21 item 2: the driver owns the disk. Above it (the commands: run, new, preview,
/// grade) every file is read, written, listed or looked at through the driver
/// (`labforge_driver::files`, `store`, `safe_fs`, `project`); below it nothing touches the
/// disk but the one read of a named lab file (`Source::read` in the core's loader).
#[test]
fn only_the_driver_touches_the_disk() {
    let marks = [
        "std::fs",
        "fs::",
        "File::",
        "OpenOptions",
        "read_dir",
        ".exists()",
        ".is_dir()",
        ".is_file()",
        ".canonicalize()",
        ".metadata()",
        "symlink_metadata",
        "dirs::",
    ];
    let allowed = ["crates/core/src/load/mod.rs"];
    let mut bad = Vec::new();
    let layers = [
        "src",
        "crates/core/src",
        "crates/engine/src",
        "crates/view/src",
        "crates/render/src",
    ];
    for (f, code) in non_test_code(&layers) {
        // The driver's own modules (`safe_fs::…`) are how the commands reach the disk.
        let code = code.replace("safe_fs::", "safe::");
        let hits = lines_with(&f, &code, &marks);
        if allowed.contains(&f.as_str()) {
            // The loader's one read of the lab file it is given.
            assert_eq!(hits.len(), 1, "{f}: {hits:?}");
            assert!(code.contains("match std::fs::read_to_string(path)"), "{f}");
            continue;
        }
        bad.extend(hits);
    }
    assert!(
        bad.is_empty(),
        "disk access outside the driver:\n{}",
        bad.join("\n")
    );
}
