//! Charts people can read, in real headless Chromium (tests/browser/charts.mjs): at 390 and
//! 1366 px every chart of the feature lab and the seed labs fills its figure with text of at
//! least 11 px, redraws on resize, is named and described from the lab's words, has a Data
//! table, reads out points by pointer and keyboard, and keeps its labels inside the plot
//! without overlaps.

use crate::common;
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
        "tests/inputs/ok_histogram.yaml",
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

/// A chart in a hidden tab is drawn only when shown (its tab, "Show all parts") or printed, and
/// then equals the handout's drawing at the settings made while it was hidden
/// (tests/browser/lazy.mjs): for each later part of fault-tolerance, a slider moved to its
/// minimum while another tab is shown.
#[test]
fn hidden_tab_charts_are_drawn_when_shown_or_printed() {
    use labforge::model::Control;
    if !browser_ready() {
        return;
    }
    let out = std::env::temp_dir().join(format!("labforge-lazy-charts-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let lab_path = root().join("labs/fault-tolerance.yaml");
    render_html(&lab_path, &out);
    let lab = labforge::lab::load_lab(&lab_path).unwrap_or_else(|_| panic!("the lab loads"));
    let mut cases = Vec::new();
    for part in lab.lab.parts.iter().skip(1) {
        let slider = part.controls.iter().find_map(|c| match c {
            Control::Slider(s) if s.values.is_none() && s.exponent_base.is_none() => {
                s.min.as_ref().map(|m| (s.id.value.clone(), m.value))
            }
            _ => None,
        });
        let Some((id, min)) = slider else { continue };
        let set: indexmap::IndexMap<String, rhai::Dynamic> =
            [(id.clone(), rhai::Dynamic::from_float(min))]
                .into_iter()
                .collect();
        let ev = lab.evaluate_with(&part.id.value, &set).unwrap();
        let charts: serde_json::Map<String, serde_json::Value> = lab
            .charts(&ev)
            .unwrap()
            .iter()
            .map(|c| {
                let uid = format!("p-{}-{}", part.id.value, c.id);
                let svg = labforge::render::svg::chart_svg_with_id(c, &uid);
                (uid, serde_json::Value::String(svg))
            })
            .collect();
        if charts.is_empty() {
            continue;
        }
        cases.push(serde_json::json!({
            "part": part.id.value, "control": id, "value": format!("{min}"), "charts": charts,
        }));
    }
    assert!(
        cases.len() >= 2,
        "only {} parts with a chart and a slider",
        cases.len()
    );
    let spec = out.join("lazy.json");
    let page = out.join("fault-tolerance.html");
    let body = serde_json::json!({ "page": page, "cases": cases });
    std::fs::write(&spec, serde_json::to_vec(&body).unwrap()).unwrap();
    let (ok, text) = node("lazy.mjs", &[&spec]);
    println!("{text}");
    assert!(ok && text.contains("all passed"), "{text}");
    let _ = std::fs::remove_dir_all(&out);
}

/// A chart's colours for a quantity a card shows follow the card's level in the page as in Rust
/// (tests/browser/levels.mjs on tests/inputs/ok_chart_levels.yaml): at utilizations where the
/// Wait card is good, warn and bad, the bar showing it is the card's colour and every bar of
/// both charts is the colour Rust draws.
#[test]
fn bar_colours_follow_the_cards_levels_in_the_page() {
    if !browser_ready() {
        return;
    }
    let out = std::env::temp_dir().join(format!("labforge-levels-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let lab_path = root().join("tests/inputs/ok_chart_levels.yaml");
    render_html(&lab_path, &out);
    let lab = labforge::lab::load_lab(&lab_path).unwrap_or_else(|_| panic!("the lab loads"));
    let part = lab.part("a").unwrap();
    let mut rust = serde_json::Map::new();
    for u in ["0.5", "0.7", "0.8"] {
        let set: indexmap::IndexMap<String, rhai::Dynamic> = [(
            "utilization".to_string(),
            rhai::Dynamic::from_float(u.parse().unwrap()),
        )]
        .into();
        let ev = lab
            .evaluate(part, &lab.inputs(part, &set).unwrap())
            .unwrap();
        let level = lab.output_view(&ev, "wait_min").unwrap().level;
        let rects: Vec<Vec<String>> = lab
            .charts(&ev)
            .unwrap()
            .iter()
            .map(|c| {
                let svg = labforge::render::svg::chart_svg(c);
                svg.split("<rect class=\"")
                    .skip(1)
                    .map(|t| t[..t.find('"').unwrap()].to_string())
                    .filter(|c| c.starts_with("fi-"))
                    .collect()
            })
            .collect();
        rust.insert(
            u.into(),
            serde_json::json!({"level": level, "rects": rects}),
        );
    }
    let json = out.join("rust.json");
    std::fs::write(&json, serde_json::to_vec(&rust).unwrap()).unwrap();
    let (ok, text) = node("levels.mjs", &[&out.join("ok_chart_levels.html"), &json]);
    println!("{text}");
    assert!(ok && text.contains(" 0 failed"), "{text}");
    let _ = std::fs::remove_dir_all(&out);
}
