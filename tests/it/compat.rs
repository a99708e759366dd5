//! Backward compatibility as a test: `tests/compat/` holds labs as they were written against
//! each earlier format (the shipped labs at the first commit of a format change, and small labs
//! in last term's style; see its README). Every folder there checks clean, passes its own tests
//! and renders, forever; a folder dropped in is covered. When one fails, the code regressed:
//! fix the code, not the copy. Also here: `test DIR` reads the labs `check DIR` reads.

use crate::common;
use common::root;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn labforge(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_labforge"))
        .args(args)
        .env("NO_COLOR", "1")
        .current_dir(root())
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The folders of `tests/compat/`, sorted.
fn frozen() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("tests/compat"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    v.sort();
    v
}

/// The lab files of a folder (not its course.yaml, not lib/).
fn labs_in(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension().is_some_and(|x| x == "yaml")
                && p.file_name().is_some_and(|n| n != "course.yaml")
        })
        .collect();
    v.sort();
    v
}

#[test]
fn every_frozen_lab_checks_clean_passes_its_tests_and_renders() {
    let dirs = frozen();
    assert!(dirs.len() >= 6, "tests/compat/ has only {dirs:?}");
    let out = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for dir in &dirs {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let labs = labs_in(dir);
        assert!(!labs.is_empty(), "{name}: no labs");
        let d = dir.as_os_str();
        let o = labforge(&["check".as_ref(), d]);
        let t = text(&o);
        if !o.status.success() || !t.contains(&format!("checked {} lab(s): 0 error(s)", labs.len()))
        {
            failures.push(format!("{name}: check\n{t}"));
        }
        let o = labforge(&["test".as_ref(), d]);
        let t = text(&o);
        let last = t.lines().rfind(|l| l.ends_with(" failed")).unwrap_or("");
        if !o.status.success() || !last.ends_with(" 0 failed") || last.starts_with("0 passed") {
            failures.push(format!("{name}: test\n{t}"));
        }
        for to in ["html", "markdown", "handout-html"] {
            let o = labforge(&[
                "render".as_ref(),
                d,
                "--to".as_ref(),
                to.as_ref(),
                "-o".as_ref(),
                out.path().join(&name).join(to).as_os_str(),
            ]);
            if !o.status.success() {
                failures.push(format!("{name}: render --to {to}\n{}", text(&o)));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// `labforge run` on last term's lab with an answers file (part B's prediction `b`), the
/// ledger in `dir`: the output and the ledger's path.
fn run_last_term(dir: &Path, b: &str) -> (Output, PathBuf) {
    let lab = root().join("tests/compat/older-styles/last-term-queue.yaml");
    let answers = dir.join(format!("a{b}.yaml"));
    std::fs::write(
        &answers,
        format!("predictions: {{a: 10x, b: {b}}}\nreflections: {{a: 1st}}\n"),
    )
    .unwrap();
    let ledger = dir.join(format!("l{b}.json"));
    let o = labforge(&[
        "run".as_ref(),
        lab.as_os_str(),
        "--answers".as_ref(),
        answers.as_os_str(),
        "--ledger".as_ref(),
        ledger.as_os_str(),
    ]);
    (o, ledger)
}

/// Last term's lab in the terminal: option ids that start with a digit are chosen by id, and a
/// numeric band's feedback computes its `{{ }}` (it failed with "internal: expression … was not
/// compiled" in `run` and `render`, while `check` and `test` passed).
#[test]
fn last_terms_lab_runs_with_digit_ids_and_computed_band_feedback() {
    let dir = tempfile::tempdir().unwrap();
    let (o, ledger) = run_last_term(dir.path(), "20");
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("Yes: 3.0x at this load."), "{t}");
    assert!(t.contains("Too low: the queue at 75% is not idle."), "{t}");
    let l: serde_json::Value = serde_json::from_slice(&std::fs::read(&ledger).unwrap()).unwrap();
    assert_eq!(l["parts"]["a"]["prediction"], "10x", "{l}");
    assert_eq!(l["parts"]["a"]["prediction_correct"], true, "{l}");
    assert_eq!(l["parts"]["a"]["reflection"], "1st", "{l}");
}

/// The numeric box's step is one rule for the page and the terminal (the format: `step` is the
/// box's granularity, any number only without one): off-step answers are refused in an answers
/// file as at the prompt, naming the nearest steps. (`tests/chromium/compat_browser.rs` is the page's
/// side, `tests/it/compat_terminal.rs` the prompt's.)
#[test]
fn an_answers_file_off_the_boxs_step_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for (typed, ok) in [("52", false), ("52.5", false), ("7", false), ("55", true)] {
        let (o, _) = run_last_term(dir.path(), typed);
        let t = text(&o);
        assert_eq!(o.status.success(), ok, "{typed}: {t}");
        if !ok {
            assert!(
                t.contains("in steps of 5 from 0: the nearest are"),
                "{typed}: {t}"
            );
        }
    }
}

/// `test DIR` runs the labs `check DIR` checks: in a course folder, the labs its course.yaml
/// lists (it used to run every `.yaml` there, a stray draft's failing test included).
#[test]
fn test_reads_the_labs_check_reads() {
    let dir = tempfile::tempdir().unwrap();
    let base = std::fs::read_to_string(root().join("tests/inputs/ok_minimal.yaml")).unwrap();
    std::fs::write(dir.path().join("listed.yaml"), &base).unwrap();
    let draft = base
        .replace("id: queue-demo", "id: draft")
        .replace("expect: { double: 6 }", "expect: { double: 7 }");
    std::fs::write(dir.path().join("draft.yaml"), draft).unwrap();
    std::fs::write(
        dir.path().join("course.yaml"),
        "title: One Lab\nlabs: [listed.yaml]\n",
    )
    .unwrap();
    let d = dir.path().as_os_str();
    let check = labforge(&["check".as_ref(), d]);
    assert!(check.status.success(), "{}", text(&check));
    assert!(
        text(&check).contains("checked 1 lab(s)"),
        "{}",
        text(&check)
    );
    let test = labforge(&["test".as_ref(), d]);
    let t = text(&test);
    assert!(test.status.success(), "{t}");
    assert!(!t.contains("draft"), "{t}");
    assert!(t.contains("listed.yaml :: "), "{t}");
    assert!(t.ends_with("2 passed, 0 failed\n"), "{t}");
}
