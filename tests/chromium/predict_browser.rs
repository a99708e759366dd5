//! Feedback that sees the student, in real headless Chromium: after locking in an answer and
//! moving a control, the page's option feedback, numeric feedback (verdict and band) and banners
//! read exactly what the Rust view computes at those values with that answer (the terminal's
//! words), and name the answer.

use crate::common;
use common::{browser_ready, node, render_html, root};
use indexmap::IndexMap;
use labforge::eval::CompiledLab;
use labforge::lab::load_lab;
use labforge::view;
use rhai::Dynamic;
use serde_json::json;

/// The feedback and banner texts of part `pid` with `answer` locked in and `set` on the controls.
fn expected(
    lab: &CompiledLab,
    pid: &str,
    set: &[(&str, f64)],
    answer: &str,
) -> (String, Vec<String>) {
    let cp = lab.part(pid).unwrap();
    let set: IndexMap<String, Dynamic> = set
        .iter()
        .map(|(k, v)| (k.to_string(), Dynamic::from_float(*v)))
        .collect();
    let locked: IndexMap<String, String> = [(pid.to_string(), answer.to_string())].into();
    let inputs = lab.with_answers(cp, lab.inputs(cp, &set).unwrap(), &locked);
    let ev = lab.evaluate(cp, &inputs).unwrap();
    let model = &lab.lab.parts[cp.index];
    let correct = labforge::ledger::prediction_correct(
        lab,
        model,
        model.prediction.as_ref().unwrap(),
        answer,
    );
    let fb = view::answer_feedback(lab, cp, &ev, answer, correct)
        .unwrap()
        .unwrap();
    let banners = view::explore(lab, cp, &ev)
        .unwrap()
        .callouts
        .iter()
        // As the page writes a banner: its icon, its kind for screen readers, its text.
        .map(|c| format!("{}{}: {}", c.icon, c.kind_label, c.text.plain()))
        .collect();
    (fb.plain(), banners)
}

#[test]
fn live_feedback_follows_the_controls_and_names_the_answer() {
    if !browser_ready() {
        return;
    }
    let path = root().join("tests/inputs/html_predict.yaml");
    let lab = load_lab(&path).unwrap();
    let out = std::env::temp_dir().join(format!("labforge-live-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    render_html(&path, &out);
    // Part a: choose B, then move the node count twice.
    let (fb_a1, ban_a1) = expected(&lab, "a", &[("nodes", 1024.0)], "B");
    let (fb_a2, ban_a2) = expected(&lab, "a", &[("nodes", 2048.0)], "B");
    assert!(
        fb_a2.contains("You chose B") && fb_a2.contains("2,048"),
        "{fb_a2}"
    );
    assert_ne!(fb_a1, fb_a2);
    // Part b: type 300; at load 0.9 the wait is 270 (no banner), at 0.6 it is 45 (a banner).
    let (fb_b1, ban_b1) = expected(&lab, "b", &[("rho", 0.9)], "300");
    let (fb_b2, ban_b2) = expected(&lab, "b", &[("rho", 0.6)], "300");
    assert!(
        ban_b1.is_empty() && ban_b2.len() == 1,
        "{ban_b1:?} {ban_b2:?}"
    );
    assert!(
        fb_b2.contains("you typed 300") && fb_b2.ends_with("Too high."),
        "{fb_b2}"
    );
    let verdict = |fb: &str| fb.split("\n\n").next().unwrap().to_string();
    let spec = json!({
        "page": out.join("html_predict.html"),
        "steps": [
            {"part": "a", "pick": "B", "want": [
                ["[data-prediction-feedback=\"B\"]", fb_a1],
                ["[data-feedback-area] .callout", ban_a1[0]],
            ]},
            {"part": "a", "set": [["nodes", 2048]], "want": [
                ["[data-prediction-feedback=\"B\"]", fb_a2],
                ["[data-feedback-area] .callout", ban_a2[0]],
            ]},
            {"part": "b", "type": "300", "set": [["rho", 0.9]], "want": [
                ["[data-numeric-feedback=\"other\"]", verdict(&fb_b1)],
                ["[data-numeric-band=\"2\"]", "Too high."],
                ["[data-numeric-band=\"1\"]", null],
                ["[data-feedback-area] .callout", null],
            ]},
            {"part": "b", "set": [["rho", 0.6]], "want": [
                ["[data-numeric-feedback=\"other\"]", verdict(&fb_b2)],
                ["[data-feedback-area] .callout", ban_b2[0]],
            ]},
        ],
    });
    let file = out.join("live.json");
    std::fs::write(&file, serde_json::to_vec(&spec).unwrap()).unwrap();
    let (ok, text) = node("live.mjs", &[&file]);
    println!("{text}");
    assert!(ok, "live feedback in the page:\n{text}");
    assert!(text.contains("10 passed, 0 failed"), "{text}");
}
