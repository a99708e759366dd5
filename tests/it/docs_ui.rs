//! Every page string the docs quote exists in the page. The guides and the README name what a
//! student sees — buttons, links, boxes — as `<kbd>…</kbd>`; this renders the shipped course
//! site (`labforge render labs --to html`) and fails for a quoted string that none of its pages
//! (markup or script) holds, so a renamed button cannot leave the docs behind.

use std::path::Path;
use std::process::Command;

/// The docs that quote page strings.
const DOCS: &[&str] = &[
    "README.md",
    "docs/authoring.md",
    "docs/questions.md",
    "docs/courses.md",
    "docs/tools.md",
    "docs/instructors.md",
    "docs/formats.md",
    "docs/report.md",
];

/// `(file, line, text)` of every `<kbd>text</kbd>` in the docs.
fn quoted() -> Vec<(String, usize, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for doc in DOCS {
        let text = std::fs::read_to_string(root.join(doc)).unwrap();
        for (i, line) in text.lines().enumerate() {
            let mut rest = line;
            while let Some(start) = rest.find("<kbd>") {
                let after = &rest[start + 5..];
                let end = after.find("</kbd>").unwrap_or_else(|| {
                    panic!("{doc}:{}: <kbd> without </kbd> on the same line", i + 1)
                });
                out.push((doc.to_string(), i + 1, after[..end].to_string()));
                rest = &after[end + 6..];
            }
        }
    }
    out
}

/// A page's text with entities for the characters minijinja escapes decoded.
fn decoded(html: &str) -> String {
    html.replace("&#x27;", "'")
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

#[test]
fn every_page_string_the_docs_quote_is_on_the_page() {
    let quotes = quoted();
    assert!(
        quotes.len() >= 8,
        "the docs quote page strings as <kbd>…</kbd>; found only {quotes:?}"
    );
    let out = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let st = Command::new(env!("CARGO_BIN_EXE_labforge"))
        .args(["render", "labs", "--to", "html", "-o"])
        .arg(out.path())
        .current_dir(root)
        .status()
        .unwrap();
    assert!(st.success());
    let mut pages = String::new();
    for e in std::fs::read_dir(out.path()).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "html") {
            pages.push_str(&decoded(&std::fs::read_to_string(&p).unwrap()));
        }
    }
    let missing: Vec<String> = quotes
        .iter()
        .filter(|(_, _, q)| !pages.contains(q.as_str()))
        .map(|(f, l, q)| format!("{f}:{l}: `{q}`"))
        .collect();
    assert!(
        missing.is_empty(),
        "the docs quote strings no page of the course holds:\n{}",
        missing.join("\n")
    );
}
