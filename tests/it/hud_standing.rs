//! The HUD's standing (its tier) is empty until a listed prediction is answered, in the record
//! the terminal writes as in the page (which shows "not started"): a student who has not begun
//! is not "Review" or "Developing".

use labforge::lab::load_lab;
use labforge::ledger::{hud, Ledger};
use std::path::Path;

#[test]
fn no_standing_before_the_first_answer() {
    let lab = load_lab(Path::new("tests/inputs/html_demo.yaml")).unwrap();
    let mut l = Ledger::new(&lab);
    assert_eq!(hud(&lab, &l).tier, None);
    // A wrong answer to part a: the last tier (no `when`) now applies.
    let a = l.parts.get_mut("a").unwrap();
    a.prediction = Some("A".into());
    a.prediction_correct = Some(false);
    assert_eq!(hud(&lab, &l).tier.as_deref(), Some("Review"));
    let a = l.parts.get_mut("a").unwrap();
    a.prediction_correct = Some(true);
    assert_eq!(hud(&lab, &l).tier.as_deref(), Some("Partial"));
}

/// A part not answered yet is `pending` in `hud.parts`, not `review` (which an instructor reads
/// as answered wrong); answered parts are `correct` or `review`.
#[test]
fn unanswered_parts_are_pending() {
    let lab = load_lab(Path::new("tests/inputs/html_demo.yaml")).unwrap();
    let mut l = Ledger::new(&lab);
    let parts = hud(&lab, &l).parts;
    assert!(!parts.is_empty());
    assert!(parts.values().all(|s| s == "pending"), "{parts:?}");
    let a = l.parts.get_mut("a").unwrap();
    a.prediction = Some("A".into());
    a.prediction_correct = Some(false);
    let parts = hud(&lab, &l).parts;
    assert_eq!(parts["a"], "review");
    assert!(
        parts
            .iter()
            .filter(|(k, _)| *k != "a")
            .all(|(_, s)| s == "pending"),
        "{parts:?}"
    );
    let a = l.parts.get_mut("a").unwrap();
    a.prediction_correct = Some(true);
    assert_eq!(hud(&lab, &l).parts["a"], "correct");
}
