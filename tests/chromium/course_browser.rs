//! A course site in real headless Chromium (`tests/browser/course.mjs`): the seed course under
//! `labs/` rendered with `labforge render labs --to html`, walked in order from file://.

use crate::common;
use common::{browser_ready, node, root};
use std::path::PathBuf;
use std::process::Command;

fn bin() -> PathBuf {
    std::env::var_os("LABFORGE_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_labforge")))
}

#[test]
fn a_course_walked_in_order_carries_the_first_labs_decision_and_shows_progress() {
    if !browser_ready() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    common::render_html(&root().join("labs"), out.path());
    let (ok, text) = node(
        "course.mjs",
        &[
            out.path().to_str().unwrap(),
            "fault-tolerance",
            "fleet-orchestration",
        ],
    );
    println!("{text}");
    assert!(ok, "course walk failed:\n{text}");

    // The record the page exported, imported by the terminal: the same course, the same progress.
    let data = tempfile::tempdir().unwrap();
    let exported = out.path().join("exported-course.json");
    let o = Command::new(bin())
        .arg("run")
        .arg(root().join("labs"))
        .arg("--import")
        .arg(&exported)
        .env("XDG_DATA_HOME", data.path())
        .output()
        .unwrap();
    let t = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{t}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // Numbered in the course's order.
    let course = labforge::course::load(&root().join("labs/course.yaml")).unwrap();
    let n = |stem: &str| 1 + course.stems().iter().position(|s| s == stem).unwrap();
    let progress = [
        format!(
            "{}. When Failure is Routine (35-40 min) — done",
            n("fault-tolerance")
        ),
        format!(
            "{}. The Scheduling Trap (35-40 min) — in progress",
            n("fleet-orchestration")
        ),
    ];
    assert!(progress.iter().all(|p| t.contains(p)), "{t}");
}
