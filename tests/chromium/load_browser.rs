//! What a page load computes, and when, in real headless Chromium (tests/browser/load.mjs), for
//! every shipped lab as a course: the part on screen by the first computed output (LF_READY),
//! the others after the first frame, a part at once when its tab is shown, every part when
//! printing; a chart on screen is drawn after the first layout instead of forcing one.

use crate::common;
use common::{browser_ready, node, render_html, root};

#[test]
fn a_load_computes_the_part_on_screen_first() {
    if !browser_ready() {
        return;
    }
    let out = std::env::temp_dir().join(format!("labforge-load-browser-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    render_html(&root().join("labs"), &out);
    let mut pages: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "html") && !p.ends_with("index.html"))
        .collect();
    pages.sort();
    assert_eq!(pages.len(), 4, "{pages:?}");
    for page in pages {
        let (ok, text) = node("load.mjs", &[&page]);
        println!("{}:\n{text}", page.display());
        assert!(
            ok && text.contains(" 0 failed"),
            "{}:\n{text}",
            page.display()
        );
    }
    let _ = std::fs::remove_dir_all(&out);
}
