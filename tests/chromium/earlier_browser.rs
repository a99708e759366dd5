//! A later part reads an earlier part's values (`parts.a.x`, tests/inputs/ok_part_reads.yaml)
//! in real headless Chromium: moving part a's slider moves part b's numbers at once (its metric
//! and its panel line), and a reload keeps them. The numbers are Rust's at the same settings.

use crate::common;
use common::{browser_ready, node, render_html, root};
use indexmap::IndexMap;
use labforge::lab::load_lab;
use serde_json::json;

/// Part b's energy cost as Rust computes it with part a at `nodes` nodes.
fn cost(nodes: f64) -> f64 {
    let lab = load_lab(&root().join("tests/inputs/ok_part_reads.yaml")).unwrap();
    let mut set = IndexMap::new();
    set.insert("nodes".to_string(), rhai::Dynamic::from_float(nodes));
    lab.set_settings("a", set);
    let cp = lab.part("b").unwrap();
    let ev = lab
        .evaluate(cp, &lab.inputs(cp, &Default::default()).unwrap())
        .unwrap();
    ev.values["cost_day"].as_float().unwrap()
}

fn want(nodes: f64) -> serde_json::Value {
    let gpus = nodes * 8.0;
    json!([
        [
            "b",
            "[data-output=\"cost_day\"]",
            format!("${:.2}", cost(nodes))
        ],
        [
            "b",
            ".panel",
            format!("From part A{gpus} GPUs × 0.7 kW = {:.1} kW", gpus * 0.7)
        ],
    ])
}

#[test]
fn a_later_part_follows_an_earlier_parts_settings() {
    if !browser_ready() {
        return;
    }
    assert_eq!(cost(10.0), 134.4);
    let path = root().join("tests/inputs/ok_part_reads.yaml");
    let out = std::env::temp_dir().join(format!("labforge-earlier-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    render_html(&path, &out);
    let spec = json!({
        "page": out.join("ok_part_reads.html"),
        "steps": [
            {"want": want(10.0)},
            {"part": "a", "set": [["nodes", 20]], "want": want(20.0)},
            {"reload": true, "want": want(20.0)},
        ],
    });
    let file = out.join("earlier.json");
    std::fs::write(&file, serde_json::to_vec(&spec).unwrap()).unwrap();
    let (ok, text) = node("live.mjs", &[&file]);
    println!("{text}");
    assert!(ok, "parts.a.x in the page:\n{text}");
    assert!(text.contains("6 passed, 0 failed"), "{text}");
}
