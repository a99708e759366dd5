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

/// Keys left to the claims on each track's page (tests/browser/claim_key.mjs): a choice
/// question keyed by its claims is graded by its track's key (`comm` right on Phone, wrong on
/// Cloud Fleet), never recorded as an opinion, and a prediction keyed by its claims likewise.
#[test]
fn each_tracks_page_grades_by_the_key_its_claims_pick() {
    if !browser_ready() {
        return;
    }
    let out = std::env::temp_dir().join(format!("labforge-claim-key-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let (q, p) = (out.join("question"), out.join("prediction"));
    render_html(&root().join("tests/inputs/ok_question_claim_key.yaml"), &q);
    render_html(&root().join("tests/inputs/ok_claim_key.yaml"), &p);
    let (ok, text) = node("claim_key.mjs", &[q, p]);
    println!("{text}");
    assert!(ok && text.contains("10 passed, 0 failed"), "{text}");
    let _ = std::fs::remove_dir_all(&out);
}
