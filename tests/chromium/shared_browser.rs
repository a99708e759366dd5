//! Lab-level controls in real headless Chromium (tests/inputs/ok_lab_controls.yaml): `batch`
//! is shown in parts b and c; moving it in one part moves it in the other (its read-out and the
//! outputs that read it), either way round, and a reload keeps the one value.

use crate::common;
use common::{browser_ready, node, render_html, root};
use serde_json::json;

/// Part b's step time and part c's read-out of `batch` and throughput at `batch` (gpus = 1).
fn want(batch: u32) -> serde_json::Value {
    let step = 10 + 2 * batch;
    let tput = (f64::from(batch) / f64::from(step) * 1000.0).round();
    json!([
        ["b", "[data-control-display=\"batch\"]", batch.to_string()],
        ["b", "[data-output=\"step_ms\"]", format!("{step} ms")],
        ["c", "[data-control-display=\"batch\"]", batch.to_string()],
        [
            "c",
            "[data-output=\"samples_per_s\"]",
            format!("{tput} samples/s")
        ],
    ])
}

#[test]
fn a_lab_control_moves_in_every_part_that_shows_it() {
    if !browser_ready() {
        return;
    }
    let path = root().join("tests/inputs/ok_lab_controls.yaml");
    let out = std::env::temp_dir().join(format!("labforge-shared-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    render_html(&path, &out);
    let spec = json!({
        "page": out.join("ok_lab_controls.html"),
        "steps": [
            {"want": want(8)},
            {"part": "b", "set": [["batch", 16]], "want": want(16)},
            {"part": "c", "set": [["batch", 4]], "want": want(4)},
            {"reload": true, "want": want(4)},
        ],
    });
    let file = out.join("shared.json");
    std::fs::write(&file, serde_json::to_vec(&spec).unwrap()).unwrap();
    let (ok, text) = node("live.mjs", &[&file]);
    println!("{text}");
    assert!(ok, "a lab-level control in the page:\n{text}");
    assert!(text.contains("16 passed, 0 failed"), "{text}");
}
