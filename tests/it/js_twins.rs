//! The page's scripts name the Rust files they mirror ("twin of crates/engine/src/library/llm.rs",
//! "the page data of crates/render/src/render/html/tracks.rs", "as html/pack.rs does"): every
//! such name must lead to a file that exists, or a reader is sent to the wrong place (issue 21:
//! `format.js` and `library.js` once named Rust files that were gone). Every file under
//! `renderers/` is read: a path from the repository's root (`crates/…`, `src/…`, `tests/…`,
//! `docs/…`, `renderers/…`) must exist; a shorter Rust name (`html/pack.rs`, `report.rs`) must
//! be the end of some `.rs` file's path. Each script of `renderers/html/library/` says in its
//! header which Rust file it is the twin of.

use crate::common;
use std::path::{Path, PathBuf};

/// Where a rooted path starts.
const ROOTS: &[&str] = &["crates/", "src/", "tests/", "docs/", "renderers/"];

/// The file names a text gives, as written: rooted paths and names ending in `.rs`. A URL's
/// host (`https://docs.rs/x`) is none.
fn named(text: &str) -> Vec<String> {
    let part = |c: char| c.is_ascii_alphanumeric() || "/_-.".contains(c);
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find(part) {
        let before = rest[..i].chars().next_back();
        let len = rest[i..].find(|c: char| !part(c)).unwrap_or(rest.len() - i);
        let tok = rest[i..i + len].trim_end_matches(['.', '/']);
        rest = &rest[i + len..];
        if tok.starts_with('/') || before == Some(':') {
            continue;
        }
        if ROOTS.iter().any(|r| tok.starts_with(r)) || tok.ends_with(".rs") {
            out.push(tok.to_string());
        }
    }
    out
}

/// Every `.rs` file of the repository (outside `target/` and `node_modules/`), from the root.
fn rust_files(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            let name = e.file_name().to_string_lossy().into_owned();
            if p.is_dir() {
                if !["target", "node_modules", ".git"].contains(&name.as_str()) {
                    stack.push(p);
                }
            } else if name.ends_with(".rs") {
                let rel = p.strip_prefix(root).unwrap();
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    out
}

/// Whether `name` (as [`named`] gives it) leads to a file: a rooted path that exists (a
/// segment in capitals, `NS.js`, stands for any file of that folder with its extension), or the
/// end of one of `rs` (`html/pack.rs` → `crates/render/src/render/html/pack.rs`).
fn leads_somewhere(root: &Path, rs: &[String], name: &str) -> bool {
    if ROOTS.iter().any(|r| name.starts_with(r)) {
        let p = root.join(name);
        if p.exists() {
            return true;
        }
        let file = p.file_name().map(|f| f.to_string_lossy().into_owned());
        let Some((stem, ext)) = file.as_deref().and_then(|f| f.rsplit_once('.')) else {
            return false;
        };
        let placeholder = !stem.is_empty() && stem.chars().all(|c| c.is_ascii_uppercase());
        return placeholder
            && std::fs::read_dir(p.parent().unwrap())
                .into_iter()
                .flatten()
                .flatten()
                .any(|e| {
                    e.file_name()
                        .to_string_lossy()
                        .ends_with(&format!(".{ext}"))
                });
    }
    rs.iter()
        .any(|f| f == name || f.ends_with(&format!("/{name}")))
}

/// The files under `dir`, recursively.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn the_scanner_finds_stale_names() {
    // A header naming a file that is gone is caught, however it names it.
    let root = common::root();
    let rs = rust_files(&root);
    let header = "/* format:: twin of crates/engine/src/library/format_gone.rs, as gone.rs and \
                  html/gone.rs say; see https://docs.rs/minijinja and crates/render/src/render/html/pack.rs. */";
    let names = named(header);
    let stale: Vec<&String> = names
        .iter()
        .filter(|n| !leads_somewhere(&root, &rs, n))
        .collect();
    assert_eq!(
        stale,
        [
            "crates/engine/src/library/format_gone.rs",
            "gone.rs",
            "html/gone.rs"
        ],
        "{names:?}"
    );
    assert!(names.contains(&"crates/render/src/render/html/pack.rs".to_string()));
    // A placeholder names a kind of file, not one file.
    assert!(leads_somewhere(&root, &rs, "renderers/html/library/NS.js"));
    assert!(!leads_somewhere(&root, &rs, "renderers/html/library/NS.py"));
}

#[test]
fn every_rust_file_the_page_scripts_name_exists() {
    let root = common::root();
    let rs = rust_files(&root);
    let (mut count, mut bad) = (0, Vec::new());
    for p in files_under(&root.join("renderers")) {
        let Ok(text) = std::fs::read_to_string(&p) else {
            continue;
        };
        for name in named(&text) {
            count += 1;
            if !leads_somewhere(&root, &rs, &name) {
                bad.push(format!(
                    "{}: {name}",
                    p.strip_prefix(&root).unwrap().display()
                ));
            }
        }
    }
    assert!(
        count >= 40,
        "only {count} names found: the scanner is broken"
    );
    assert!(bad.is_empty(), "named but missing:\n{}", bad.join("\n"));
}

#[test]
fn every_library_script_names_its_rust_twin() {
    let root = common::root();
    let mut scripts = 0;
    for p in files_under(&root.join("renderers/html/library")) {
        if p.extension().is_none_or(|x| x != "js") {
            continue;
        }
        scripts += 1;
        let text = std::fs::read_to_string(&p).unwrap();
        let header = &text[..text.find("*/").expect("a header comment")];
        let twins: Vec<String> = named(header)
            .into_iter()
            .filter(|n| n.starts_with("crates/engine/src/library/") && n.ends_with(".rs"))
            .collect();
        assert!(
            header.contains("twin") && !twins.is_empty(),
            "{}: its header names no Rust twin (crates/engine/src/library/*.rs)",
            p.display()
        );
    }
    assert!(scripts >= 10, "only {scripts} library scripts");
}

#[test]
fn the_page_data_names_script_functions_that_exist() {
    // `crates/render/src/render/html/data.rs` says which script reads each field of the page
    // data, as "runtime.js `scopeFor`": each such function is defined in that script.
    let root = common::root();
    let data = std::fs::read_to_string(root.join("crates/render/src/render/html/data.rs")).unwrap();
    let (mut count, mut bad) = (0, Vec::new());
    for line in data.lines().filter(|l| l.trim_start().starts_with("///")) {
        let mut rest = line;
        while let Some(i) = rest.find(".js `") {
            let script = rest[..i]
                .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                .next()
                .unwrap_or_default();
            let after = &rest[i + ".js `".len()..];
            let name = after.split('`').next().unwrap_or_default();
            rest = after;
            let src = std::fs::read_to_string(root.join(format!("renderers/html/{script}.js")))
                .unwrap_or_default();
            count += 1;
            if !src.contains(&format!("function {name}(")) {
                bad.push(format!("{script}.js `{name}`"));
            }
        }
    }
    assert!(count >= 15, "only {count} script functions named");
    assert!(
        bad.is_empty(),
        "named in data.rs but not defined:\n{}",
        bad.join("\n")
    );
}
