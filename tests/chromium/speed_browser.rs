//! What a student feels of the page's speed, in real headless Chromium, for every shipped lab as
//! a course: the first paint (tests/browser/paint.mjs: a first visit paints the server-rendered
//! markup before the page's scripts run, a return visit's first frame already shows the saved
//! settings) and input coalesced to animation frames (tests/browser/burst.mjs: a burst of 50
//! input events, at most one recompute per frame, none for settings already computed) and a
//! looping formula reused while what it reads is unchanged (tests/browser/memo.mjs); a redraw
//! writes only what changed (tests/browser/morph.mjs).

use crate::common;

#[test]
fn a_first_visit_paints_at_once_and_a_return_visit_paints_its_saved_settings() {
    common::on_shipped_pages("paint.mjs", "paint-browser");
}

#[test]
fn a_burst_of_input_recomputes_at_most_once_per_frame() {
    common::on_shipped_pages("burst.mjs", "burst-browser");
    // A page without a part with a chart and two sliders skips; most shipped labs have one.
    if common::browser_ready() {
        let (_, pages) = common::shipped_pages("burst-count");
        let with = pages
            .iter()
            .filter(|p| {
                let t = std::fs::read_to_string(p).unwrap();
                t.split("data-part=").skip(1).any(|sec| {
                    let sec = sec.split("</section>").next().unwrap_or("");
                    sec.contains("<figure class=\"chart")
                        && sec.matches("type=\"range\"").count() >= 2
                })
            })
            .count();
        assert!(
            with >= 2,
            "only {with} shipped pages have a part with a chart and two sliders"
        );
    }
}

/// Dragging a slider that a looping formula does not read reuses the formula's value
/// (tests/browser/memo.mjs, on tests/inputs/ok_memo_search.yaml's search); the differential
/// test (html_browser) shows the numbers stay the CLI's.
#[test]
fn a_looping_formula_is_not_run_again_for_a_slider_it_does_not_read() {
    if !common::browser_ready() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    common::render_html(
        &common::root().join("tests/inputs/ok_memo_search.yaml"),
        out.path(),
    );
    let page = out.path().join("ok_memo_search.html");
    let (ok, text) = common::node("memo.mjs", &[page.to_str().unwrap()]);
    println!("{text}");
    assert!(ok, "memo.mjs failed:\n{text}");
}

/// Runs a page script on the shipped fleet-orchestration page (rendered with the course).
fn on_fleet_page(script: &str) {
    if !common::browser_ready() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    common::render_html(&common::root().join("labs"), out.path());
    let page = out.path().join("fleet-orchestration.html");
    let (ok, text) = common::node(script, &[page.to_str().unwrap()]);
    println!("{text}");
    assert!(ok, "{script} failed:\n{text}");
}

/// A chart redrawn, a live template or a banner written again, keeps the nodes its new markup
/// keeps and holds what `innerHTML` would give (tests/browser/morph.mjs: charts.js `morph`, on
/// markup pairs and on fleet-orchestration's first part with a chart, a slider moved); a chart
/// parses only its groups of nodes that changed, and an output's text node is kept.
#[test]
fn a_redraw_writes_only_what_changed() {
    on_fleet_page("morph.mjs");
}
