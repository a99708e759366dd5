//! Hostile labs against the files a user gets (the real `labforge` binary): lab text is never
//! markup in any output, every HTML file carries a Content-Security-Policy, output files stay
//! inside `-o`, and oversized values are located errors, never panics.
//! (The browser-side counterpart, with every field × every payload, is tests/chromium/injection_browser.rs.)

use crate::common;

use common::{files_under, root};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn labforge(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_labforge"))
        .current_dir(root())
        .args(args)
        .output()
        .expect("run labforge")
}

fn ok(args: &[&str]) -> Output {
    let out = labforge(args);
    assert!(
        out.status.success(),
        "labforge {args:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Markdown rendered as a site would: CommonMark with raw HTML passed through.
fn site_html(md: &str) -> String {
    let mut out = String::new();
    let opts = pulldown_cmark::Options::ENABLE_TABLES | pulldown_cmark::Options::ENABLE_TASKLISTS;
    pulldown_cmark::html::push_html(&mut out, pulldown_cmark::Parser::new_ext(md, opts));
    out
}

/// Markup the hostile fixture's payloads would create if any got through.
const MARKUP: &[&str] = &[
    "<img",
    "<script",
    "<svg onload",
    "<b onmouseover",
    "href=\"javascript",
];

/// Renders `lab` twice (two stems, so the indexes are written too) to every format.
fn render_all(lab: &Path, out: &Path) -> Vec<PathBuf> {
    let src = out.join("src");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::copy(lab, src.join("one.yaml")).unwrap();
    std::fs::copy(lab, src.join("two.yaml")).unwrap();
    let s = src.to_str().unwrap();
    for (to, key) in [
        ("html", false),
        ("markdown", false),
        ("markdown", true),
        ("handout-html", false),
        ("handout-html", true),
    ] {
        let dir = out.join(format!("{to}{}", if key { "-key" } else { "" }));
        let mut args = vec!["render", s, "--to", to, "-o", dir.to_str().unwrap()];
        if key {
            args.push("--answer-key");
        }
        ok(&args);
    }
    files_under(out)
        .into_iter()
        .filter(|p| !p.starts_with(&src))
        .collect()
}

/// The page without its own five `<script>` elements (its data, its packed scripts and three
/// scripts allowed by hash in its CSP: the head's first-paint script, the tabs and boot.js, which
/// runs the packed library, charts, formulas and runtime): a lab payload that opened a script
/// would make a sixth.
fn without_own_scripts(html: &str) -> String {
    let n = html.matches("<script").count();
    assert!(n == 0 || n == 5, "{n} script elements");
    let mut out = String::new();
    let mut rest = html;
    while let Some(i) = rest.find("<script") {
        out.push_str(&rest[..i]);
        let j = rest[i..].find("</script>").expect("closed script");
        rest = &rest[i + j + "</script>".len()..];
    }
    out.push_str(rest);
    out
}

#[test]
fn lab_text_is_never_markup_and_every_html_file_has_a_csp() {
    let tmp = tempfile::tempdir().unwrap();
    let written = render_all(&root().join("tests/inputs/hostile_text.yaml"), tmp.path());
    let mut html_files = 0;
    let mut md_files = 0;
    for p in &written {
        let text = std::fs::read_to_string(p).unwrap();
        let name = p.strip_prefix(tmp.path()).unwrap().display().to_string();
        let html = match p.extension().and_then(|e| e.to_str()) {
            Some("html") => {
                html_files += 1;
                let csp = text
                    .find("<meta http-equiv=\"Content-Security-Policy\" content=\"")
                    .unwrap_or_else(|| panic!("{name} has no CSP"));
                assert!(
                    csp < text.find("<style").unwrap_or(usize::MAX)
                        && csp < text.find("</head>").unwrap(),
                    "{name}: the CSP must come before anything it governs"
                );
                let policy = &text[csp..text[csp..].find("\">").unwrap() + csp];
                for d in [
                    "default-src 'none'",
                    "base-uri 'none'",
                    "form-action 'none'",
                ] {
                    assert!(policy.contains(d), "{name}: {policy} lacks {d}");
                }
                assert!(!policy.contains("unsafe-eval"), "{name}: {policy}");
                without_own_scripts(&text)
            }
            Some("md") => {
                md_files += 1;
                site_html(&text)
            }
            _ => continue,
        };
        for m in MARKUP {
            assert!(!html.contains(m), "{name} carries `{m}`:\n{html}");
        }
    }
    // Pages and their index; handouts, keys and their indexes in HTML and Markdown.
    assert_eq!((html_files, md_files), (3 + 3 + 3, 3 + 3), "{written:?}");
}

#[test]
fn print_handouts_forbid_scripts() {
    let tmp = tempfile::tempdir().unwrap();
    let written = render_all(&root().join("tests/inputs/ok_minimal.yaml"), tmp.path());
    for p in written
        .iter()
        .filter(|p| !p.starts_with(tmp.path().join("html")))
    {
        if p.extension().is_some_and(|e| e == "html") {
            let text = std::fs::read_to_string(p).unwrap();
            assert!(
                text.contains("script-src 'none'") && !text.contains("<script"),
                "{}",
                p.display()
            );
        }
    }
}

/// `ok_minimal.yaml` with `old` replaced by `new`, written to `dir/name`.
fn variant(dir: &Path, name: &str, old: &str, new: &str) -> PathBuf {
    let base = std::fs::read_to_string(root().join("tests/inputs/ok_minimal.yaml")).unwrap();
    assert!(base.contains(old), "{old}");
    let p = dir.join(name);
    std::fs::write(&p, base.replacen(old, new, 1)).unwrap();
    p
}

/// A located error (`FILE:LINE:COL: error:`), exit code 1, and no panic.
fn assert_located_failure(out: &Output, file: &Path) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let prefix = format!("{}:", file.display());
    assert!(
        err.lines()
            .any(|l| l.starts_with(&prefix) && l.contains(": error: ")),
        "{err}"
    );
}

#[test]
fn a_chart_id_cannot_write_outside_the_output_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let lab = variant(
        tmp.path(),
        "trav.yaml",
        "          id: wait\n",
        "          id: /../../../escaped/pwned\n",
    );
    let out_dir = tmp.path().join("a/b/c/out");
    for to in ["markdown", "handout-html", "html"] {
        let out = labforge(&[
            "render",
            lab.to_str().unwrap(),
            "--to",
            to,
            "-o",
            out_dir.to_str().unwrap(),
        ]);
        assert_located_failure(&out, &lab);
    }
    let written: Vec<PathBuf> = files_under(tmp.path())
        .into_iter()
        .filter(|p| p != &lab)
        .collect();
    assert!(written.is_empty(), "{written:?}");
}

#[test]
fn oversized_values_are_located_errors_not_panics() {
    let tmp = tempfile::tempdir().unwrap();
    let long = "L".repeat(65_536);
    let cases = [
        (
            "digits.yaml",
            "wait_min: { label: Wait, unit: min, digits: 1,",
            "wait_min: { label: Wait, unit: min, digits: 65536,".to_string(),
        ),
        (
            "slider.yaml",
            "step: 0.01, default: 0.80 }",
            "step: 0.01, default: 0.80, digits: 65536 }".to_string(),
        ),
        (
            "digits21.yaml",
            "wait_min: { label: Wait, unit: min, digits: 1,",
            "wait_min: { label: Wait, unit: min, digits: 21,".to_string(),
        ),
        (
            "label.yaml",
            "wait_min: { label: Wait,",
            format!("wait_min: {{ label: {long},"),
        ),
        (
            "block_label.yaml",
            "      amplification: { label: Amplification, unit: \"×\", digits: 0 }\n",
            format!(
                "      amplification:\n        label: |\n{}\n",
                format!("          {}\n", "M".repeat(9_000)).repeat(8)
            ),
        ),
    ];
    for (name, old, new) in cases {
        let lab = variant(tmp.path(), name, old, &new);
        let p = lab.to_str().unwrap();
        for args in [
            vec!["check", p],
            vec!["eval", p, "--part", "a"],
            vec!["render", p, "--to", "handout-html", "-o", "/dev/null/x"],
        ] {
            let out = labforge(&args);
            assert_located_failure(&out, &lab);
        }
    }
}
