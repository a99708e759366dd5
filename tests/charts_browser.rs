//! Charts people can read, in real headless Chromium (tests/browser/charts.mjs): at 390 and
//! 1366 px every chart of the feature lab and the seed labs fills its figure with text of at
//! least 11 px, redraws on resize, is named and described from the lab's words, has a Data
//! table, reads out points by pointer and keyboard, and keeps its labels inside the plot
//! without overlaps.

mod common;
use common::{browser_ready, node, render_html, root};

#[test]
fn charts_are_readable_at_any_width() {
    if !browser_ready() {
        return;
    }
    let out = std::env::temp_dir().join(format!("labforge-charts-browser-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    for lab in [
        "tests/inputs/ok_chart_features.yaml",
        "labs/fault-tolerance.yaml",
        "labs/fleet-orchestration.yaml",
    ] {
        render_html(&root().join(lab), &out);
        let page = out.join(format!(
            "{}.html",
            std::path::Path::new(lab)
                .file_stem()
                .unwrap()
                .to_str()
                .unwrap()
        ));
        let (ok, text) = node("charts.mjs", &[&page]);
        println!("{lab}:\n{text}");
        assert!(ok && text.contains("all passed"), "{lab}:\n{text}");
    }
    let _ = std::fs::remove_dir_all(&out);
}
