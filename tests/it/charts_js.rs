//! The page's `renderers/html/charts.js` is a port of `crates/render/src/render/svg.rs`: for every chart of the
//! test labs and the real labs, at each part's defaults and prediction scenario, the chart model
//! drawn by charts.js in Node must be the same SVG text, byte for byte, as the Rust drawing.
//!
//! Node: `node` on PATH (or `LABFORGE_NODE`). Without it the test prints a SKIPPED line, or
//! fails when the `CI` environment variable is set.

use crate::common;
use labforge::eval::chart::ChartData;
use labforge::lab::load_lab;
use labforge::render::svg::{chart_svg_sized, chart_table};
use serde_json::{json, Value as J};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Charts with hostile text and colours a colour formula could produce.
fn synthetic() -> Vec<ChartData> {
    let base: J = json!({
        "id": "syn", "kind": "line", "title": "<b>\"t\" & 'q'</b>", "x_label": "x <i>", "y_label": null,
        "x_log": false, "y_log": false, "x_min": null, "x_max": null, "y_min": null, "y_max": null,
        "x_prefix": "<", "x_suffix": "&", "y_prefix": "$", "y_suffix": "\"", "legend": true, "axes": [],
        "series": [
            {"name": "a</title><script>", "color": "constructor", "dashed": false, "fill": false, "emphasis": true,
             "points": [{"x": 1.0, "y": 2.0, "color": "__proto__", "text": null},
                        {"x": 2.0, "y": 3.5, "color": null, "text": null}]},
            {"name": "b", "color": "toString", "dashed": true, "fill": false, "emphasis": false,
             "points": [{"x": 1.5, "y": 1.0, "color": null, "text": null},
                        {"x": 0.125, "y": 12.125, "color": null, "text": null},
                        {"x": -2.5, "y": 0.0625, "color": null, "text": null},
                        {"x": 3.0, "y": -1.0e21, "color": null, "text": null}]}
        ],
        "markers": [{"name": "m<", "x": 1.5, "y": 2.5, "symbol": "star", "color": "hasOwnProperty"},
                    {"name": "far", "x": 1.0e300, "y": 2.5, "symbol": "circle", "color": "red"}],
        "hlines": [{"at": 2.0, "label": "h&", "color": "valueOf", "dashed": true}],
        "vlines": [{"at": 1.2, "label": null, "color": "red", "dashed": false}]
    });
    let mut bar = base.clone();
    bar["id"] = json!("bar");
    bar["kind"] = json!("bar");
    bar["series"] = json!([{"name": "", "color": "blue", "dashed": false, "fill": false, "emphasis": false,
        "points": [{"x": "<k>", "y": 3.0, "color": "constructor", "text": "t<"},
                   {"x": "two", "y": -1.0, "color": "good", "text": null}]}]);
    let mut radar = base.clone();
    radar["id"] = json!("radar");
    radar["kind"] = json!("radar");
    radar["axes"] = json!(["a<", "b", "c"]);
    radar["series"] = json!([{"name": "r", "color": "__defineGetter__", "dashed": false, "fill": true, "emphasis": false,
        "points": [{"x": 0.0, "y": 1.0, "color": null, "text": null}, {"x": 1.0, "y": 2.0, "color": null, "text": null},
                   {"x": 2.0, "y": 0.5, "color": null, "text": null}]}]);
    // Every newer feature, with hostile text: styles, widths, point shapes, a band, legend
    // positions, stacked and multi-line bars, marker text, labels that collide, off-scale marks.
    let mut feat = base.clone();
    feat["id"] = json!("feat");
    feat["title"] = json!(null);
    feat["y_label"] = json!("Cost <$>");
    feat["legend"] = json!("right");
    feat["height"] = json!(300.0);
    feat["y_max"] = json!(10.0);
    feat["description"] = json!("Two lines & a band");
    feat["series"][0]["style"] = json!("dotted");
    feat["series"][0]["width"] = json!(3.25);
    feat["series"][0]["marker"] = json!("triangle");
    feat["series"][1]["style"] = json!("solid");
    feat["series"][1]["marker"] = json!("none");
    feat["bands"] = json!([{"name": "range <", "color": "green", "lower": 0, "upper": 1}]);
    feat["markers"] = json!([
        {"name": "over", "x": 1.5, "y": 500.0, "symbol": "triangle", "color": "red", "text": "way\nup <"},
        {"name": "left", "x": -100.0, "y": 2.0, "symbol": "square", "color": "blue", "text": "a long marker text that runs past the right edge"}]);
    feat["hlines"] = json!([
        {"at": 2.0, "label": "first target", "color": "red", "dashed": true},
        {"at": 2.05, "label": "second target\nsame place", "color": "blue", "dashed": false},
        {"at": 99.0, "label": "off the top", "color": "gray", "dashed": true}]);
    feat["vlines"] = json!([{"at": 1.2, "label": "a very long vertical line label", "color": "red", "dashed": false}]);
    let mut top = feat.clone();
    top["id"] = json!("top");
    top["legend"] = json!("top");
    top["title"] =
        json!("A long title that has to wrap on a phone because it names many things at once");
    let mut stack = bar.clone();
    stack["id"] = json!("stack");
    stack["stacked"] = json!(true);
    stack["legend"] = json!("bottom");
    stack["series"] = json!([
        {"name": "compute", "color": "blue", "dashed": false, "fill": false, "emphasis": false,
         "points": [{"x": "A\nlong", "y": 3.0, "color": null, "text": "3\nms"}, {"x": "B", "y": 2.0, "color": null, "text": null}]},
        {"name": "comm", "color": "orange", "dashed": false, "fill": false, "emphasis": false,
         "points": [{"x": "A\nlong", "y": 1.5, "color": null, "text": "1.5"}, {"x": "B", "y": -1.0, "color": null, "text": null}]}]);
    let (tall, dense) = on_data();
    // A histogram with hostile text, a zero and a NaN bin, and labels on its bins.
    let mut hist = base.clone();
    hist["id"] = json!("hist");
    hist["kind"] = json!("histogram");
    hist["bin_width"] = json!(2.5);
    hist["series"] = json!([{"name": "n <i>", "color": "constructor", "dashed": false, "fill": false, "emphasis": false,
        "points": [{"x": -5.0, "y": 3.0, "color": null, "text": null}, {"x": -2.5, "y": 0.0, "color": null, "text": null},
                   {"x": 0.0, "y": null, "color": null, "text": null}, {"x": 2.5, "y": 9.0, "color": null, "text": null}]}]);
    hist["vlines"] = json!([{"at": 3.5, "label": "p99 <", "color": "red", "dashed": true}]);
    hist["hlines"] =
        json!([{"at": 8.0, "label": "SLO & target", "color": "green", "dashed": true}]);
    let mut out = Vec::new();
    for j in [base, bar, radar, feat, top, stack, tall, dense, hist] {
        out.push(from_json(&j));
    }
    out
}

/// Reference-line labels whose first place is on data: a target line crossing a tall last bar
/// (the label at its right end sat on the bar) and one through a dense rising line (the label
/// above its right end sat on the line's points), with a vertical line at the top of a point.
fn on_data() -> (J, J) {
    let line = |name: &str, pts: Vec<(f64, f64)>| {
        json!({"name": name, "color": "blue", "dashed": false, "fill": false, "emphasis": false,
            "points": pts.iter().map(|(x, y)| json!({"x": x, "y": y, "color": null, "text": null})).collect::<Vec<_>>()})
    };
    let base = json!({
        "id": "tall", "kind": "bar", "title": "On data", "x_label": null, "y_label": "ms",
        "x_log": false, "y_log": false, "x_min": null, "x_max": null, "y_min": 0.0, "y_max": 100.0,
        "x_prefix": "", "x_suffix": "", "y_prefix": "", "y_suffix": "", "legend": false, "axes": [],
        "series": [{"name": "", "color": "blue", "dashed": false, "fill": false, "emphasis": false,
            "points": [{"x": "a", "y": 20.0, "color": null, "text": null},
                       {"x": "b", "y": 30.0, "color": null, "text": null},
                       {"x": "c", "y": 95.0, "color": null, "text": null}]}],
        "markers": [], "hlines": [{"at": 50.0, "label": "SLO 50 ms", "color": "red", "dashed": true}],
        "vlines": []
    });
    let mut dense = base.clone();
    dense["id"] = json!("dense");
    dense["kind"] = json!("line");
    dense["series"] = json!([line(
        "rise",
        (0..60).map(|i| (i as f64, 40.0 + i as f64)).collect()
    )]);
    dense["vlines"] = json!([{"at": 58.0, "label": "here", "color": "gray", "dashed": false}]);
    (base, dense)
}

/// The boxes (x0, y0, x1, y1) of an SVG's `<rect>`s inside the plot, its points' circles and
/// its labels' text, as drawn: a label is 7 px per character and 13 px per line, its baseline
/// 11 px under its top, placed by its `text-anchor`.
pub(crate) type Box = [f64; 4];

pub(crate) fn boxes(svg: &str) -> (Vec<Box>, Vec<(String, Box)>) {
    let attr = |tag: &str, name: &str| -> Option<f64> {
        let k = format!(" {name}=\"");
        let at = tag.find(&k)? + k.len();
        tag[at..at + tag[at..].find('"')?].parse().ok()
    };
    let mut data = Vec::new();
    for t in svg.split("<rect").skip(1) {
        let t = &t[..t.find('>').unwrap()];
        if t.contains("class=\"fi-") {
            let (x, y, w, h) = (
                attr(t, "x").unwrap(),
                attr(t, "y").unwrap(),
                attr(t, "width").unwrap(),
                attr(t, "height").unwrap(),
            );
            data.push([x, y, x + w, y + h]);
        }
    }
    for t in svg.split("<circle").skip(1) {
        let t = &t[..t.find('>').unwrap()];
        if let (Some(x), Some(y)) = (attr(t, "cx"), attr(t, "cy")) {
            data.push([x - 2.0, y - 2.0, x + 2.0, y + 2.0]);
        }
    }
    // A line's points, from its path.
    for t in svg.split("<path class=\"st-").skip(1) {
        let t = &t[..t.find('>').unwrap()];
        let Some(at) = t.find(" d=\"") else { continue };
        let d = &t[at + 4..];
        let d = &d[..d.find('"').unwrap()];
        for pt in d.split(['M', 'L']).filter(|p| !p.is_empty()) {
            let mut xy = pt.split(' ').filter_map(|v| v.parse::<f64>().ok());
            if let (Some(x), Some(y)) = (xy.next(), xy.next()) {
                data.push([x - 2.0, y - 2.0, x + 2.0, y + 2.0]);
            }
        }
    }
    let mut labels = Vec::new();
    for t in svg.split("<text").skip(1) {
        let (head, rest) = t.split_once('>').unwrap();
        if !head.contains(" mk\"") {
            continue;
        }
        let text = rest[..rest.find("</text>").unwrap()].to_string();
        // A label of several lines: a tspan per line.
        let lines: Vec<String> = if text.contains("<tspan") {
            text.split("<tspan")
                .skip(1)
                .map(|t| {
                    t.split_once('>')
                        .unwrap()
                        .1
                        .split("</tspan>")
                        .next()
                        .unwrap()
                        .to_string()
                })
                .collect()
        } else {
            vec![text.clone()]
        };
        let text = lines.join("\n");
        let (x, y) = (attr(head, "x").unwrap(), attr(head, "y").unwrap());
        // 7 px a character at 11 px, in proportion at a smaller size (a bar's values).
        let size = attr(head, "font-size").unwrap_or(11.0);
        let w =
            7.0 * size / 11.0 * lines.iter().map(|l| l.chars().count()).max().unwrap_or(0) as f64;
        let h = 13.0 * lines.len() as f64;
        let left = if head.contains("text-anchor=\"end\"") {
            x - w
        } else if head.contains("text-anchor=\"middle\"") {
            x - w / 2.0
        } else {
            x
        };
        labels.push((text, [left, y - 11.0, left + w, y - 11.0 + h]));
    }
    (data, labels)
}

#[test]
fn a_reference_lines_label_never_sits_on_a_bar_or_a_point() {
    let (tall, dense) = on_data();
    for j in [tall, dense] {
        let ch = from_json(&j);
        let svg = chart_svg_sized(&ch, "t", 640.0);
        let (data, labels) = boxes(&svg);
        assert!(!data.is_empty() && !labels.is_empty(), "{svg}");
        for (text, b) in &labels {
            for q in &data {
                assert!(
                    !(b[0] < q[2] && q[0] < b[2] && b[1] < q[3] && q[1] < b[3]),
                    "{}: label {text:?} at {b:?} covers data at {q:?}",
                    j["id"]
                );
            }
        }
    }
}

/// ChartData has no Deserialize: rebuild it through the public fields.
fn from_json(j: &J) -> ChartData {
    use labforge::eval::chart::{BandData, LineData, MarkerData, PointData, SeriesData, XValue};
    let s = |v: &J| v.as_str().map(str::to_string);
    let f = |v: &J| v.as_f64().unwrap_or(f64::NAN);
    let line = |l: &J| LineData {
        at: f(&l["at"]),
        label: s(&l["label"]),
        color: s(&l["color"]).unwrap(),
        dashed: l["dashed"].as_bool().unwrap(),
    };
    ChartData {
        id: s(&j["id"]).unwrap(),
        kind: serde_json::from_value(j["kind"].clone()).unwrap(),
        title: s(&j["title"]),
        x_label: s(&j["x_label"]),
        y_label: s(&j["y_label"]),
        x_log: false,
        y_log: false,
        x_min: None,
        x_max: None,
        y_min: None,
        y_max: j.get("y_max").and_then(J::as_f64),
        x_prefix: s(&j["x_prefix"]).unwrap(),
        x_suffix: s(&j["x_suffix"]).unwrap(),
        y_prefix: s(&j["y_prefix"]).unwrap(),
        y_suffix: s(&j["y_suffix"]).unwrap(),
        legend: serde_json::from_value(j.get("legend").cloned().unwrap_or(json!("bottom")))
            .unwrap(),
        description: j.get("description").and_then(s),
        height: j.get("height").and_then(J::as_f64).unwrap_or(360.0),
        stacked: j.get("stacked").and_then(J::as_bool).unwrap_or(false),
        bin_width: j.get("bin_width").and_then(J::as_f64),
        bands: j
            .get("bands")
            .and_then(J::as_array)
            .map(|bs| {
                bs.iter()
                    .map(|b| BandData {
                        name: s(&b["name"]).unwrap(),
                        color: s(&b["color"]).unwrap(),
                        lower: b["lower"].as_u64().unwrap() as usize,
                        upper: b["upper"].as_u64().unwrap() as usize,
                    })
                    .collect()
            })
            .unwrap_or_default(),
        axes: j["axes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| s(a).unwrap())
            .collect(),
        series: j["series"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| SeriesData {
                name: s(&x["name"]).unwrap(),
                color: s(&x["color"]).unwrap(),
                dashed: x["dashed"].as_bool().unwrap(),
                fill: x["fill"].as_bool().unwrap(),
                emphasis: x["emphasis"].as_bool().unwrap(),
                style: x
                    .get("style")
                    .and_then(|v| serde_json::from_value(v.clone()).ok()),
                width: x.get("width").and_then(J::as_f64),
                marker: x
                    .get("marker")
                    .and_then(|v| serde_json::from_value(v.clone()).ok()),
                points: x["points"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| PointData {
                        x: match &p["x"] {
                            J::String(c) => XValue::Category(c.clone()),
                            v => XValue::Number(f(v)),
                        },
                        y: f(&p["y"]),
                        color: s(&p["color"]),
                        text: s(&p["text"]),
                    })
                    .collect(),
            })
            .collect(),
        markers: j["markers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| MarkerData {
                name: s(&m["name"]).unwrap(),
                x: f(&m["x"]),
                y: f(&m["y"]),
                symbol: serde_json::from_value(m["symbol"].clone()).unwrap(),
                color: s(&m["color"]).unwrap(),
                text: m.get("text").and_then(s),
            })
            .collect(),
        hlines: j["hlines"].as_array().unwrap().iter().map(line).collect(),
        vlines: j["vlines"].as_array().unwrap().iter().map(line).collect(),
    }
}

const DRIVER: &str = r#"
const fs = require('fs'), vm = require('vm');
const [charts, data] = process.argv.slice(2).map((p) => fs.readFileSync(p, 'utf8'));
const cx = {};
cx.window = cx;
vm.createContext(cx);
vm.runInContext(charts, cx);
// serde writes a non-finite number as null; the page's chart model has NaN there.
const NUM = new Set(['y', 'at']);
function revive(v, key) {
  if (v === null && NUM.has(key)) return NaN;
  if (Array.isArray(v)) return v.map((x) => revive(x, key));
  if (v && typeof v === 'object') { const o = {}; for (const k of Object.keys(v)) o[k] = revive(v[k], k); return o; }
  return v;
}
const out = JSON.parse(data).map((c) => {
  const ch = revive(c.chart, '');
  for (const m of ch.markers) { if (m.x === null) m.x = NaN; if (m.y === null) m.y = NaN; }
  for (const s of ch.series) for (const p of s.points) if (p.x === null) p.x = NaN;
  return [360, 640, 1000].map((w) => cx.LFCharts.svg(ch, c.uid, w)).concat([cx.LFCharts.table(ch)]);
});
process.stdout.write(JSON.stringify(out));
"#;

#[test]
fn charts_js_draws_what_svg_rs_draws() {
    let Some(node) = common::node_binary() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "chart parity needs node under CI"
        );
        println!("SKIPPED chart parity: `node` not found (set LABFORGE_NODE)");
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut labs = vec![
        root.join("tests/inputs/html_demo.yaml"),
        root.join("tests/inputs/ok_chart_features.yaml"),
        root.join("tests/inputs/ok_histogram.yaml"),
    ];
    let mut real: Vec<PathBuf> = std::fs::read_dir(root.join("labs"))
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    real.sort();
    labs.extend(
        real.into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
            .filter(|p| {
                p.file_name()
                    .is_some_and(|n| n != labforge::course::FILE_NAME)
            }),
    );
    let mut cases: Vec<(String, ChartData)> = Vec::new();
    for path in &labs {
        let lab = load_lab(path)
            .ok()
            .unwrap_or_else(|| panic!("{} loads", path.display()));
        for part in &lab.parts {
            let defaults = lab.evaluate_with(&part.id, &Default::default()).unwrap();
            let Ok(scenario) = lab.evaluate(part, &lab.scenario(part)) else {
                panic!("{}: the scenario of part {} fails", path.display(), part.id)
            };
            for ev in [defaults, scenario] {
                let Ok(charts) = lab.charts(&ev) else {
                    panic!("{}: the charts of part {} fail", path.display(), part.id)
                };
                for ch in charts {
                    cases.push((format!("p-{}-{}", part.id, ch.id), ch));
                }
            }
        }
    }
    for ch in synthetic() {
        cases.push((format!("syn {}", ch.id), ch));
    }
    assert!(cases.len() > 10, "only {} charts", cases.len());
    let dir = std::env::temp_dir().join(format!("labforge-charts-js-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("charts.json");
    let list: Vec<J> = cases
        .iter()
        .map(|(uid, ch)| json!({"uid": uid, "chart": ch}))
        .collect();
    std::fs::write(&data, serde_json::to_vec(&list).unwrap()).unwrap();
    let driver = dir.join("driver.js");
    std::fs::write(&driver, DRIVER).unwrap();
    let out = Command::new(node)
        .arg(&driver)
        .arg(root.join("renderers/html/charts.js"))
        .arg(&data)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "node failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let js: Vec<Vec<String>> = serde_json::from_slice(&out.stdout).unwrap();
    let mut bad = Vec::new();
    let drawn = cases.iter().zip(&js).flat_map(|((uid, ch), pages)| {
        let rust =
            [360.0, 640.0, 1000.0].map(|w| (format!("{uid} at {w}"), chart_svg_sized(ch, uid, w)));
        let table = (format!("{uid} table"), chart_table(ch, false));
        rust.into_iter().chain([table]).zip(pages)
    });
    for ((uid, rust), page) in drawn {
        if &rust != page {
            let at = rust
                .bytes()
                .zip(page.bytes())
                .position(|(a, b)| a != b)
                .unwrap_or(rust.len().min(page.len()));
            let from = at.saturating_sub(80);
            bad.push(format!(
                "{uid}: first difference at byte {at}\n    rust …{}…\n    page …{}…",
                &rust[from..(at + 80).min(rust.len())],
                &page[from..(at + 80).min(page.len())]
            ));
        }
        assert!(!page.contains("<script"), "{uid}: unescaped text");
    }
    assert!(
        bad.is_empty(),
        "{} of {} charts differ:\n  {}",
        bad.len(),
        cases.len() * 4,
        bad.join("\n  ")
    );
}
