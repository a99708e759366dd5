//! What a page load computes, and when, in real headless Chromium (tests/browser/load.mjs), for
//! every shipped lab as a course: the part on screen by the first computed output (LF_READY),
//! the others after the first frame, a part at once when its tab is shown, every part when
//! printing; a chart on screen is drawn after the first layout instead of forcing one.

use crate::common;

#[test]
fn a_load_computes_the_part_on_screen_first() {
    common::on_shipped_pages("load.mjs", "load-browser");
}

/// The page's packed scripts (boot.js, html/pack.rs) run in Chromium with no script refused by
/// the page's Content-Security-Policy; without DecompressionStream (a browser from before 2023)
/// the page keeps its text and values, says why, and a held return visit is shown
/// (tests/browser/boot.mjs), on a lab with tracks and one without.
#[test]
fn packed_scripts_run_and_an_old_browser_keeps_the_text_with_a_notice() {
    if !common::browser_ready() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    common::render_html(&common::root().join("labs"), out.path());
    for name in ["ml-intro.iphone.html", "fleet-orchestration.html"] {
        let page = out.path().join(name);
        let (ok, text) = common::node("boot.mjs", &[page.to_str().unwrap()]);
        assert!(ok && text.contains(" 0 failed"), "{name}:\n{text}");
    }
}
