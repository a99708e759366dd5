//! Handouts as the files a user gets: the real `labforge render` binary into a temp directory.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

const FIXTURE: &str = "tests/inputs/md_checkpoint.yaml";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn labforge(args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_labforge"))
        .current_dir(root())
        .args(args)
        .output()
        .expect("run labforge");
    assert!(
        out.status.success(),
        "labforge {args:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Image links of a Markdown file.
fn images(md: &str) -> Vec<String> {
    use pulldown_cmark::{Event, Options, Parser, Tag};
    Parser::new_ext(md, Options::ENABLE_TABLES | Options::ENABLE_TASKLISTS)
        .filter_map(|e| match e {
            Event::Start(Tag::Image { dest_url, .. }) => Some(dest_url.to_string()),
            _ => None,
        })
        .collect()
}

#[test]
fn render_markdown_writes_the_handout_and_its_charts() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    labforge(&[
        "render",
        FIXTURE,
        "--to",
        "markdown",
        "-o",
        out.to_str().unwrap(),
    ]);
    let md = read(&out.join("md_checkpoint.md"));
    assert!(md.starts_with("# Checkpoint | Restart\n"));
    let imgs = images(&md);
    assert_eq!(
        imgs,
        [
            "md_checkpoint-charts/a-ucurve.svg",
            "md_checkpoint-charts/b-storage.svg"
        ]
    );
    for i in &imgs {
        // Relative to the Markdown file, as a viewer resolves them.
        let svg = read(&out.join(i));
        roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{i}: {e}"));
    }
    // Only the handout and its charts: no key, no stray files.
    let mut names: Vec<String> = common::files_under(&out)
        .iter()
        .map(|p| {
            p.strip_prefix(&out)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/")
        })
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "md_checkpoint-charts/a-ucurve.svg",
            "md_checkpoint-charts/b-storage.svg",
            "md_checkpoint.md"
        ]
    );
}

#[test]
fn answer_key_is_written_next_to_the_handout() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path();
    let o = out.to_str().unwrap();
    labforge(&["render", FIXTURE, "--to", "markdown", "-o", o]);
    labforge(&[
        "render",
        FIXTURE,
        "--to",
        "markdown",
        "--answer-key",
        "-o",
        o,
    ]);
    let handout = read(&out.join("md_checkpoint.md"));
    let key = read(&out.join("md_checkpoint-key.md"));
    assert!(
        key.contains("- [x] B) About 108 minutes **(correct)**"),
        "{key}"
    );
    assert!(key.contains("*Feedback:* Too frequent: the write overhead dominates."));
    assert!(key.contains("**Expected answer:** 40.8 min (accepted within ±15%)"));
    assert!(key.contains("**Answer:** par"));
    // The test point "NVMe": the set values and the outputs, with what the test expects.
    assert!(
        key.contains("Settings: Storage = **NVMe RAID 100 GB/s**."),
        "{key}"
    );
    assert!(key.contains("| Write time | 0.4 | min | 0.4 |"), "{key}");
    assert!(key.contains("| `write_eff` | 0.20 |  | 0.20 |"), "{key}");
    assert!(!handout.contains("[x]") && !handout.contains("Too frequent"));
    // Both link the same chart files.
    assert_eq!(images(&handout), images(&key));
}

#[test]
fn handout_html_is_one_printable_file_with_inline_charts() {
    let tmp = tempfile::tempdir().unwrap();
    let o = tmp.path().to_str().unwrap();
    labforge(&["render", FIXTURE, "--to", "handout-html", "-o", o]);
    labforge(&[
        "render",
        FIXTURE,
        "--to",
        "handout-html",
        "--answer-key",
        "-o",
        o,
    ]);
    let names: Vec<String> = common::files_under(tmp.path())
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().to_string())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    let html = read(&tmp.path().join("md_checkpoint.html"));
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert_eq!(
        html.matches("<svg xmlns=\"http://www.w3.org/2000/svg\"")
            .count(),
        2
    );
    assert!(html.contains("@media print"));
    assert!(html.contains("<span class=\"box\"></span> <strong>A)</strong> About 10 minutes"));
    let key = read(&tmp.path().join("md_checkpoint-key.html"));
    assert!(key.contains("<li class=\"correct\"><span class=\"box\">✓</span> <strong>B)</strong>"));
    assert!(key.contains("Worked outputs at the test points"));
}

#[test]
fn templates_dir_overrides_the_embedded_templates() {
    let tmp = tempfile::tempdir().unwrap();
    let tpl = tmp.path().join("tpl");
    std::fs::create_dir(&tpl).unwrap();
    std::fs::write(
        tpl.join("handout.md.j2"),
        "# {{ header.title }} (custom)\n\n{% for p in parts %}- Part {{ p.letter }}: {{ p.title }}\n{% endfor %}",
    )
    .unwrap();
    std::fs::write(tpl.join("print.css"), "body { color: rebeccapurple; }\n").unwrap();
    let out = tmp.path().join("out");
    let (o, t) = (out.to_str().unwrap(), tpl.to_str().unwrap());
    labforge(&[
        "render",
        FIXTURE,
        "--to",
        "markdown",
        "-o",
        o,
        "--templates",
        t,
    ]);
    assert_eq!(
        read(&out.join("md_checkpoint.md")),
        "# Checkpoint | Restart (custom)\n\n- Part A: The Young-Daly Sweet Spot\n- Part B: The Checkpoint Storm\n"
    );
    // Files not overridden stay embedded: the HTML handout takes only the custom stylesheet.
    labforge(&[
        "render",
        FIXTURE,
        "--to",
        "handout-html",
        "-o",
        o,
        "--templates",
        t,
    ]);
    let html = read(&out.join("md_checkpoint.html"));
    assert!(html.contains("body { color: rebeccapurple; }"));
    assert!(!html.contains("@media print"));
    assert!(html.contains("<h2>Part A — The Young-Daly Sweet Spot</h2>"));
    // A broken override is reported with the template's name, and nothing is written.
    std::fs::write(tpl.join("handout.md.j2"), "{% for p in parts %}oops").unwrap();
    let out2 = tmp.path().join("out2");
    let r = Command::new(env!("CARGO_BIN_EXE_labforge"))
        .current_dir(root())
        .args([
            "render",
            FIXTURE,
            "--to",
            "markdown",
            "-o",
            out2.to_str().unwrap(),
            "--templates",
            t,
        ])
        .output()
        .unwrap();
    assert!(!r.status.success());
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("handout.md.j2"), "{err}");
    assert!(!out2.join("md_checkpoint.md").exists());
}

#[test]
fn rendering_a_directory_shows_progress_and_writes_an_index() {
    let tmp = tempfile::tempdir().unwrap();
    let labs = tmp.path().join("labs");
    std::fs::create_dir(&labs).unwrap();
    std::fs::copy(root().join(FIXTURE), labs.join("one.yaml")).unwrap();
    std::fs::copy(root().join(FIXTURE), labs.join("two.yaml")).unwrap();
    let out = tmp.path().join("out");
    let start = Instant::now();
    let r = labforge(&[
        "render",
        labs.to_str().unwrap(),
        "--to",
        "markdown",
        "-o",
        out.to_str().unwrap(),
    ]);
    let took = start.elapsed();
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("[1/2]") && err.contains("one.yaml"), "{err}");
    assert!(err.contains("[2/2]") && err.contains("two.yaml"), "{err}");
    assert!(err.contains("rendered 2 lab(s)"), "{err}");
    for f in [
        "one.md",
        "two.md",
        "one-charts/a-ucurve.svg",
        "two-charts/b-storage.svg",
    ] {
        assert!(out.join(f).exists(), "{f}");
    }
    let index = read(&out.join("index.md"));
    assert_eq!(
        index,
        "# Handouts\n\n- [Checkpoint \\| Restart](one.md)\n- [Checkpoint \\| Restart](two.md)\n"
    );
    // A debug build on a loaded machine; the release figure is in the report.
    assert!(took.as_secs_f64() < 5.0, "took {took:?}");
}

#[test]
fn both_seed_labs_render_from_the_labs_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("x");
    let start = Instant::now();
    let r = labforge(&[
        "render",
        "labs",
        "--to",
        "markdown",
        "-o",
        out.to_str().unwrap(),
    ]);
    let took = start.elapsed();
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(
        err.contains("[1/2]") && err.contains("[2/2]") && err.contains("rendered 2 lab(s)"),
        "{err}"
    );
    for stem in ["fault-tolerance", "fleet-orchestration"] {
        let md = read(&out.join(format!("{stem}.md")));
        let imgs = images(&md);
        assert!(!imgs.is_empty(), "{stem}: no charts");
        for i in imgs {
            let svg = read(&out.join(&i));
            roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{i}: {e}"));
        }
    }
    assert!(read(&out.join("index.md")).contains("(fault-tolerance.md)"));
    assert!(took.as_secs_f64() < 5.0, "took {took:?}");
}
