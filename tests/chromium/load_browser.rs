//! What a page load computes, and when, in real headless Chromium (tests/browser/load.mjs), for
//! every shipped lab as a course: the part on screen by the first computed output (LF_READY),
//! the others after the first frame, a part at once when its tab is shown, every part when
//! printing; a chart on screen is drawn after the first layout instead of forcing one.

use crate::common;

#[test]
fn a_load_computes_the_part_on_screen_first() {
    common::on_shipped_pages("load.mjs", "load-browser");
}
