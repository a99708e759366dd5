//! A part's questions in real headless Chromium from `file://` (tests/browser/questions.mjs on
//! tests/inputs/ok_questions.yaml): every kind answered, the record exported and restored after
//! a reload, hostile saved answers dropped or bounded; and the page's record of the answers is
//! the one the Rust record (`labforge::ledger`) derives from the same answers.

use crate::common;
use common::{browser_ready, node, render_html, root};
use labforge::lab::load_lab;
use labforge::ledger::Ledger;

#[test]
fn every_kind_of_question_is_answered_recorded_and_restored() {
    if !browser_ready() {
        return;
    }
    let path = root().join("tests/inputs/ok_questions.yaml");
    let out = std::env::temp_dir().join(format!("labforge-questions-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    render_html(&path, &out);
    let (ok, text) = node(
        "questions.mjs",
        &[out.join("ok_questions.html"), out.clone()],
    );
    println!("{text}");
    assert!(ok && text.contains("30 passed, 0 failed"), "{text}");
    // The page's record, read back by Rust: nothing dropped, the same correct/score/complete.
    let lab = load_lab(&path).unwrap();
    let page: Ledger =
        serde_json::from_str(&std::fs::read_to_string(out.join("before.json")).unwrap()).unwrap();
    let mut mine = page.clone();
    assert_eq!(mine.sanitize(&lab), Vec::<String>::new());
    mine.refresh(&lab);
    assert_eq!(mine.parts["a"].questions, page.parts["a"].questions);
    assert!(mine.complete);
    let _ = std::fs::remove_dir_all(&out);
}
