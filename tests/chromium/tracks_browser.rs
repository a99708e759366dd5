//! Tracks in real headless Chromium from file:// (`tests/browser/tracks.mjs`): the course of
//! `tests/inputs/tracks_course` (three tracks, two labs with variants) and the lab on its own
//! `tests/inputs/ok_tracks.yaml`, each rendered with `labforge render --to html` (one page per
//! track, `STEM.TRACK.html`, and `STEM.html`).

use crate::common;
use common::{browser_ready, node, root};

#[test]
fn a_track_picked_on_the_index_leads_every_lab_and_a_locked_prediction_keeps_its_track() {
    if !browser_ready() {
        return;
    }
    let site = tempfile::tempdir().unwrap();
    common::render_html(&root().join("tests/inputs/tracks_course"), site.path());
    for f in [
        "index.html",
        "batching.html",
        "batching.phone.html",
        "batching.ring.html",
        "batching.cloud.html",
        "memory.html",
        "memory.cloud.html",
    ] {
        assert!(site.path().join(f).is_file(), "{f} not rendered");
    }
    let alone = tempfile::tempdir().unwrap();
    common::render_html(&root().join("tests/inputs/ok_tracks.yaml"), alone.path());
    let (ok, text) = node(
        "tracks.mjs",
        &[
            site.path().to_str().unwrap(),
            alone.path().to_str().unwrap(),
        ],
    );
    println!("{text}");
    assert!(ok, "tracks walk failed:\n{text}");
}
