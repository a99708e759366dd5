//! The page on any screen (issue 10 items 5 and 6), in real headless Chromium at 1366×900 and
//! 390×844, light and dark, for the five shipped labs (`tests/browser/viewport.mjs`): sticky bar
//! ≤ 56 px, no horizontal overflow, charts filling their column with their text inside and axis labels apart, touch targets ≥ 44 px on a
//! phone, `aria-valuetext` after input, the first prediction near the top, headings below the
//! sticky bar after a jump, keyboard tabs, metric-number contrast ≥ 4.5, no console errors.
//! Without Chromium or node the test prints `SKIPPED` and passes, except under `CI`.

use crate::common;
use common::{browser_ready, node, root};

/// Where the first prediction may start at most, in CSS pixels from the top of the page (it
/// was ~1,800 on a desktop and ~3,200 on a phone before the designed page). The phone's limit
/// was 2,100 until labs gained tracks (2026-12-02): the header's track line and
/// compute-infrastructure's per-track layer sentence put its first prediction at 2,204.
const MAX_FIRST_PREDICTION_Y: [(u32, u32); 2] = [(1366, 1600), (390, 2250)];

#[test]
fn the_page_fits_desktop_and_phone_in_light_and_dark() {
    if !browser_ready() {
        return;
    }
    let out = std::env::temp_dir().join(format!("labforge-viewport-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    common::render_html(&root().join("labs"), &out);
    let mut failures = Vec::new();
    // ml-intro was left out until its four HUD parts fitted one row at 1,366 px (the sticky
    // bar was 72 px and its first prediction at 1,607 px; the buttons now read "Download
    // (JSON)" below 1,500 px: 45 px and 1,580 px).
    for lab in [
        "ml-intro",
        "fault-tolerance",
        "fleet-orchestration",
        "compute-infrastructure",
        "distributed-training",
    ] {
        let page = out.join(format!("{lab}.html"));
        for (w, h) in [(1366, 900), (390, 844)] {
            for scheme in ["light", "dark"] {
                let max_y = MAX_FIRST_PREDICTION_Y.iter().find(|m| m.0 == w).unwrap().1;
                let args = [
                    page.display().to_string(),
                    w.to_string(),
                    h.to_string(),
                    scheme.to_string(),
                    max_y.to_string(),
                ];
                let (ok, text) = node("viewport.mjs", &args);
                println!("{lab} {w}x{h} {scheme}:\n{text}");
                if !ok {
                    failures.push(format!("{lab} {w}x{h} {scheme}:\n{text}"));
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&out);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
