//! A number carried between labs of the shipped course (`reads:` in fleet-orchestration,
//! `records:` in fault-tolerance), in real headless Chromium from file://
//! (`tests/browser/carried.mjs`): the later lab shows the default until the earlier lab is done,
//! then the interval the student set there, saying where it came from, and computes with it —
//! the same number Rust computes at that value; a record holding a number outside the range is
//! refused; and the two kinds that need nothing from the earlier lab's author, `control:` and
//! `prediction:`, on a fixture course (`tests/browser/carried-kinds.mjs`).

use crate::common;
use common::{browser_ready, node, root};
use labforge::lab::load_lab;

/// Rust's `rework_ft_gpu_h` (part c of fleet-orchestration) with the carried interval at `s`.
fn rework(s: f64) -> f64 {
    let mut lab = load_lab(&root().join("labs/fleet-orchestration.yaml")).unwrap();
    lab.set_carried("ft_interval_s", s);
    let cp = lab.part("c").unwrap();
    let ev = lab
        .evaluate(cp, &lab.inputs(cp, &Default::default()).unwrap())
        .unwrap();
    ev.values["rework_ft_gpu_h"].as_float().unwrap()
}

#[test]
fn a_number_recorded_in_an_earlier_lab_appears_in_the_later_one() {
    if !browser_ready() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    common::render_html(&root().join("labs"), out.path());
    let (ok, text) = node(
        "carried.mjs",
        &[
            out.path().to_str().unwrap(),
            "fault-tolerance",
            "fleet-orchestration",
            "interval_s",
            "1800",
            "ft_interval_s",
            "rework_ft_gpu_h",
        ],
    );
    println!("{text}");
    assert!(ok, "{text}");
    assert!(text.contains("8 passed, 0 failed"), "{text}");
    // The page's numbers are Rust's at the default and at the student's 1800 s.
    let line = |tag: &str| {
        let l = text.lines().find(|l| l.starts_with(tag)).unwrap();
        let v: serde_json::Value = serde_json::from_str(&l[tag.len() + 1..]).unwrap();
        v["output"].as_str().unwrap().parse::<f64>().unwrap()
    };
    assert_eq!(line("BEFORE"), rework(600.0));
    assert_eq!(line("AFTER"), rework(1800.0));
    assert_eq!(line("REFUSED"), rework(600.0));
}

/// The plan lab's `load_share` and `guess_share` (tests/inputs/carried_kinds) as Rust computes
/// them with the carried slider `their_load` and prediction `their_guess`.
fn plan_outputs(load: f64, guess: f64) -> (f64, f64) {
    let mut lab = load_lab(&root().join("tests/inputs/carried_kinds/labs/plan.yaml")).unwrap();
    lab.set_carried("their_load", load);
    lab.set_carried("their_guess", guess);
    let p = lab.part("a").unwrap();
    let ev = lab
        .evaluate(p, &lab.inputs(p, &Default::default()).unwrap())
        .unwrap();
    let f = |k: &str| ev.values[k].as_float().unwrap();
    (f("load_share"), f("guess_share"))
}

/// `control:` and `prediction:` reads end to end (tests/browser/carried-kinds.mjs): the later
/// lab shows the earlier lab's slider and locked numeric prediction once they are set, says
/// where each came from, follows the slider when it moves again, and computes Rust's numbers.
#[test]
fn a_later_lab_reads_an_earlier_labs_slider_and_locked_prediction() {
    if !browser_ready() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    common::render_html(&root().join("tests/inputs/carried_kinds"), out.path());
    let (ok, text) = node("carried-kinds.mjs", &[out.path().to_str().unwrap()]);
    println!("{text}");
    assert!(ok && text.contains("10 passed, 0 failed"), "{text}");
    let line = |tag: &str| {
        let l = text.lines().find(|l| l.starts_with(tag)).unwrap();
        let v: serde_json::Value = serde_json::from_str(&l[tag.len() + 1..]).unwrap();
        let n = |k: &str| v[k].as_str().unwrap().parse::<f64>().unwrap();
        (n("loadShare"), n("guessShare"))
    };
    assert_eq!(line("BEFORE"), plan_outputs(0.5, 100.0));
    assert_eq!(line("AFTER"), plan_outputs(0.8, 150.0));
    assert_eq!(line("AGAIN"), plan_outputs(0.6, 150.0));
}
