//! A later part reads an earlier part's locked prediction (`prediction.a`), in real headless
//! Chromium: before part A is answered part C's prose says so and its banner is absent; locking
//! part A in as "B" fills the prose (concept, explore heading, math peek title, reflection) and
//! shows the banner at once, locking part B's number fills in the rest, and a reload keeps it
//! all. Every expected text is Rust's view at the same state.

use crate::common;
use common::{browser_ready, node, render_html, root};
use indexmap::IndexMap;
use labforge::eval::CompiledLab;
use labforge::lab::load_lab;
use labforge::view;
use serde_json::{json, Value as J};

/// Part `pid`'s concept and first banner (as the page writes it) with `locked` answers, and
/// the page's checks of its other texts that read predictions: the explore heading, the math
/// peek's title and the reflection's question.
fn expected(lab: &CompiledLab, pid: &str, locked: &[(&str, &str)]) -> (String, J, Vec<J>) {
    let locked: IndexMap<String, String> = locked
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let v = view::lab_with(lab, true, &locked).unwrap();
    let pv = v.parts.iter().find(|p| p.id == pid).unwrap();
    let concept = pv.concept.as_ref().unwrap().plain();
    let banner = pv
        .explore
        .callouts
        .first()
        .map(|c| J::from(format!("{}{}: {}", c.icon, c.kind_label, c.text.plain())))
        .unwrap_or(J::Null);
    let texts = vec![
        json!([
            pid,
            ".explore h3",
            pv.explore_title.as_ref().unwrap().plain()
        ]),
        json!([
            pid,
            ".math-peek summary",
            pv.math_peek.as_ref().unwrap().title.plain()
        ]),
        json!([
            pid,
            ".reflection legend",
            format!(
                "Reflection: {}",
                pv.reflection.as_ref().unwrap().question.plain()
            )
        ]),
    ];
    (concept, banner, texts)
}

/// A step's checks: part C's concept and banner, then its other texts.
fn want(c: &str, b: &J, texts: &[J]) -> J {
    let mut w = vec![
        json!(["c", ".concept", c]),
        json!(["c", "[data-feedback-area] .callout", b]),
    ];
    w.extend(texts.iter().cloned());
    J::from(w)
}

#[test]
fn a_later_part_shows_an_earlier_locked_prediction_at_once_and_after_a_reload() {
    if !browser_ready() {
        return;
    }
    let path = root().join("tests/inputs/ok_prediction_xpart.yaml");
    let lab = load_lab(&path).unwrap();
    let out = std::env::temp_dir().join(format!("labforge-xpart-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    render_html(&path, &out);
    let (c0, b0, t0) = expected(&lab, "c", &[]);
    let (c1, b1, t1) = expected(&lab, "c", &[("a", "B")]);
    let (c2, b2, t2) = expected(&lab, "c", &[("a", "B"), ("b", "300")]);
    // What the view says, so the page is compared with the right thing.
    assert_eq!(
        c0,
        "In part A you chose (Part A not answered yet); in part B you typed (Part B not answered yet) min."
    );
    assert_eq!(b0, J::Null);
    assert_eq!(
        c1,
        "In part A you chose B; in part B you typed (Part B not answered yet) min."
    );
    assert_eq!(c2, "In part A you chose B; in part B you typed 300 min.");
    assert_eq!(
        b1,
        "✓Success: You predicted B in part A: at 90% load the wait is 270 min."
    );
    assert_eq!(b1, b2);
    assert_eq!(
        t0[0][2],
        "Your part A answer, (Part A not answered yet), against the queue"
    );
    assert_eq!(
        t1[2][2],
        "Reflection: Having chosen B in part A, what drives the wait?"
    );
    let spec = json!({
        "page": out.join("ok_prediction_xpart.html"),
        "steps": [
            {"want": want(&c0, &b0, &t0)},
            {"part": "a", "pick": "B", "want": want(&c1, &b1, &t1)},
            {"part": "b", "type": "300", "want": want(&c2, &b2, &t2)},
            {"reload": true, "want": want(&c2, &b2, &t2)},
        ],
    });
    let file = out.join("xpart.json");
    std::fs::write(&file, serde_json::to_vec(&spec).unwrap()).unwrap();
    let (ok, text) = node("live.mjs", &[&file]);
    println!("{text}");
    assert!(ok, "predictions read across parts in the page:\n{text}");
    assert!(text.contains("20 passed, 0 failed"), "{text}");
}
