//! What a student feels of the page's speed, in real headless Chromium, for every shipped lab as
//! a course: the first paint (tests/browser/paint.mjs: a first visit paints the server-rendered
//! markup before the page's scripts run, a return visit's first frame already shows the saved
//! settings) and input coalesced to animation frames (tests/browser/burst.mjs: a burst of 50
//! input events, at most one recompute per frame, none for settings already computed).

use crate::common;

#[test]
fn a_first_visit_paints_at_once_and_a_return_visit_paints_its_saved_settings() {
    common::on_shipped_pages("paint.mjs", "paint-browser");
}

#[test]
fn a_burst_of_input_recomputes_at_most_once_per_frame() {
    common::on_shipped_pages("burst.mjs", "burst-browser");
}
