//! Last term's lab (`tests/compat/older-styles/last-term-queue.yaml`) in headless Chromium: an
//! option whose id starts with a digit (`10x`, and `1st` in the reflection) is selected, locked in
//! and still locked after a reload; the numeric box with `step: 5` refuses 52 as the terminal
//! does (`tests/it/compat_terminal.rs`) and takes 55; and a HUD without tiers never shows a
//! standing ("Standing: not started" stayed for ever).

use crate::common;
use common::{browser_ready, node, render_html, root};
use serde_json::{json, Value};

#[test]
fn last_terms_page_locks_digit_ids_keeps_the_step_rule_and_shows_no_standing() {
    if !browser_ready() {
        return;
    }
    let lab = root().join("tests/compat/older-styles/last-term-queue.yaml");
    let out = tempfile::tempdir().unwrap();
    render_html(&lab, out.path());
    let a = "[data-part=\"a\"]";
    let b = "[data-part=\"b\"]";
    let num = format!("{b} input[name=\"prediction-b\"]");
    let submit = format!("{b} [data-numeric-form] button");
    let spec = json!({
        "page": out.path().join("last-term-queue.html"),
        "steps": [
            {"read": ["standing", ".hud-tier"]},
            {"click": format!("{a} input[name=\"prediction-a\"][value=\"10x\"]")},
            {"click": format!("{a} [data-lock]")},
            {"read": ["a_locked", format!("{a} [data-locked-in]")]},
            {"read": ["a_feedback", format!("{a} [data-prediction-feedback=\"10x\"]")]},
            {"click": format!("{a} input[name=\"reflection-a\"][value=\"1st\"]")},
            {"read": ["a_reflection", format!("{a} [data-reflection-feedback=\"1st\"]")]},
            {"fill": [num, "52"]},
            {"click": submit},
            {"read": ["b_after_52", format!("{b} [data-locked-in]")]},
            {"fill": [num, "55"]},
            {"click": submit},
            {"read": ["b_after_55", format!("{b} [data-locked-in]")]},
            {"read": ["b_band", format!("{b} [data-numeric-band=\"1\"]")]},
            {"read": ["standing_answered", ".hud-tier"]},
            {"reload": true},
            {"read": ["a_locked_reloaded", format!("{a} [data-locked-in]")]},
            {"read": ["standing_reloaded", ".hud-tier"]},
        ],
    });
    let file = out.path().join("steps.json");
    std::fs::write(&file, serde_json::to_vec(&spec).unwrap()).unwrap();
    let (ok, text) = node("steps.mjs", &[&file]);
    assert!(ok, "{text}");
    let got: Value = serde_json::from_str(text.lines().last().unwrap()).expect(&text);
    let r = &got["reads"];
    let shown = |k: &str| {
        r[k].as_str()
            .unwrap_or_else(|| panic!("{k} not shown: {got}"))
    };
    assert_eq!(got["errors"], json!([]), "{got}");
    // The digit-first option: locked in, its feedback shown, still locked after a reload.
    assert!(shown("a_locked").contains("Locked in"), "{got}");
    assert_eq!(shown("a_feedback"), "Yes: 3.0x at this load.", "{got}");
    assert!(
        shown("a_reflection").contains("the wait falls fastest"),
        "{got}"
    );
    assert!(shown("a_locked_reloaded").contains("Locked in"), "{got}");
    // The step rule: 52 is refused (nothing locked), 55 is taken, its band computes.
    assert_eq!(r["b_after_52"], Value::Null, "52 was taken: {got}");
    assert!(shown("b_after_55").contains("Locked in"), "{got}");
    assert_eq!(shown("b_band"), "Close to 60 min.", "{got}");
    // No tiers: no standing, before, after answering, after a reload.
    for k in ["standing", "standing_answered", "standing_reloaded"] {
        assert_eq!(r[k], Value::Null, "{k}: {got}");
    }
}
