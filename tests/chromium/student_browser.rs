//! The student's name for the reports, typed once for the course (issue 23 item 6), in real
//! headless Chromium from file:// (`tests/browser/student.mjs`, the course of
//! tests/inputs/student_term): typed in the course index's box, it shows in a lab's name box and
//! its report; changed in the lab, the index shows the new name.

use crate::common;
use common::{browser_ready, node, root};

#[test]
fn the_name_typed_on_the_index_is_every_labs_and_back() {
    if !browser_ready() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    common::render_html(&root().join("tests/inputs/student_term"), out.path());
    let (ok, text) = node("student.mjs", &[out.path().to_str().unwrap(), "first"]);
    println!("{text}");
    assert!(ok && text.contains(" 0 failed"), "{text}");
}
