//! Hostile course records in the page, in real headless Chromium from file://
//! (`tests/browser/records.mjs`): the seed course rendered, a student's progress in lab 1, then
//! links and imports that invent parts, replace the decision log, are 1.5 MB or damaged.

use crate::common;
use common::{browser_ready, node, root};

#[test]
fn links_and_imports_cannot_wipe_progress_in_the_page() {
    if !browser_ready() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    common::render_html(&root().join("labs"), out.path());
    let (ok, text) = node(
        "records.mjs",
        &[out.path().to_str().unwrap(), "fault-tolerance"],
    );
    println!("{text}");
    assert!(ok, "records walk failed:\n{text}");
}
