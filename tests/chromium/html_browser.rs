//! The HTML page in real headless Chromium (Debian's `/usr/bin/chromium`, driven by node +
//! playwright-core from `tests/browser/`): the differential test against `labforge eval`, the
//! end-to-end behaviour (gating, reveal, live update, persistence, export, keyboard) and an XSS
//! corpus. Without Chromium or node the tests print `SKIPPED` and pass, except under `CI`, where
//! they fail.

use crate::common;
use common::{browser_ready, node, root};
use labforge::lab::load_lab;
use labforge::model::Control;
use serde_json::{json, Value as J};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The `labforge` binary (`LABFORGE_BIN` overrides it where several checkouts share a target
/// directory and overwrite each other's binary).
fn bin() -> PathBuf {
    std::env::var_os("LABFORGE_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_labforge")))
}

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("labforge-html-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn render(lab: &Path, out: &Path) -> PathBuf {
    common::render_html(lab, out);
    out.join(format!(
        "{}.html",
        lab.file_stem().unwrap().to_str().unwrap()
    ))
}

/// Deterministic pseudo-random numbers (64-bit LCG).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn round10(x: f64) -> f64 {
    let r = (x * 1e10).round() / 1e10;
    if r == 0.0 {
        0.0
    } else {
        r
    }
}

/// One random position of a control: what the page's input gets, and the CLI's `--set` value.
fn random_setting(c: &Control, rng: &mut Rng) -> (J, String) {
    let id = c.id().value.clone();
    match c {
        Control::Slider(s) => {
            if let Some(vals) = &s.values {
                let i = rng.below(vals.value.len());
                return (
                    json!({"id": id, "kind": "slider", "value": i.to_string()}),
                    format!("{}", vals.value[i]),
                );
            }
            let min = s.min.as_ref().map(|m| m.value).unwrap_or(0.0);
            let max = s.max.as_ref().map(|m| m.value).unwrap_or(100.0);
            let step = s.step.as_ref().map(|m| m.value).unwrap_or(1.0);
            let n = ((max - min) / step + 1e-9).floor() as usize;
            let pos = round10(min + step * rng.below(n + 1) as f64);
            let cli = match s.exponent_base {
                Some(b) => format!("{:?}", b.powf(pos)),
                None => format!("{pos}"),
            };
            (
                json!({"id": id, "kind": "slider", "value": format!("{pos}")}),
                cli,
            )
        }
        Control::Number(n) => {
            let min = n.min.unwrap_or(0.0);
            let max = n.max.unwrap_or(min + 100.0);
            let v = match n.step {
                Some(st) => {
                    let k = ((max - min) / st + 1e-9).floor() as usize;
                    round10(min + st * rng.below(k + 1) as f64)
                }
                None => round10(min + (max - min) * rng.below(1001) as f64 / 1000.0),
            };
            (
                json!({"id": id, "kind": "number", "value": format!("{v}")}),
                format!("{v}"),
            )
        }
        Control::Switch(_) => {
            let b = rng.below(2) == 1;
            (
                json!({"id": id, "kind": "switch", "checked": b}),
                b.to_string(),
            )
        }
        Control::Select(s) | Control::Radio(s) => {
            let i = rng.below(s.options.value.len());
            let (label, _) = s.options.value.get_index(i).unwrap();
            (
                json!({"id": id, "kind": c.kind(), "index": i}),
                label.clone(),
            )
        }
        Control::Checkboxes(cb) => {
            let mut boxes = serde_json::Map::new();
            for k in cb.options.keys() {
                boxes.insert(k.clone(), J::Bool(rng.below(2) == 1));
            }
            let cli = J::Object(boxes.clone()).to_string();
            (json!({"id": id, "kind": "checkboxes", "boxes": boxes}), cli)
        }
    }
}

fn default_setting(c: &Control) -> (J, String) {
    let id = c.id().value.clone();
    match c {
        Control::Slider(s) => {
            let v = s.default.value;
            if let Some(vals) = &s.values {
                let i = vals.value.iter().position(|x| *x == v).unwrap_or(0);
                return (
                    json!({"id": id, "kind": "slider", "value": i.to_string()}),
                    format!("{v}"),
                );
            }
            let pos = match s.exponent_base {
                Some(b) => round10(v.log(b)),
                None => v,
            };
            (
                json!({"id": id, "kind": "slider", "value": format!("{pos}")}),
                format!("{v:?}"),
            )
        }
        Control::Number(n) => (
            json!({"id": id, "kind": "number", "value": format!("{}", n.default.value)}),
            format!("{}", n.default.value),
        ),
        Control::Switch(s) => (
            json!({"id": id, "kind": "switch", "checked": s.default}),
            s.default.to_string(),
        ),
        Control::Select(s) | Control::Radio(s) => {
            let i = s.options.value.get_index_of(&s.default.value).unwrap_or(0);
            (
                json!({"id": id, "kind": c.kind(), "index": i}),
                s.default.value.clone(),
            )
        }
        Control::Checkboxes(cb) => {
            let mut boxes = serde_json::Map::new();
            for k in cb.options.keys() {
                boxes.insert(k.clone(), J::Bool(cb.default.iter().any(|d| &d.value == k)));
            }
            let cli = J::Object(boxes.clone()).to_string();
            (json!({"id": id, "kind": "checkboxes", "boxes": boxes}), cli)
        }
    }
}

#[test]
fn page_numbers_equal_cli_at_defaults_and_random_positions() {
    if !browser_ready() {
        return;
    }
    let out = tmpdir("diff");
    let mut cases = Vec::new();
    let mut rng = Rng(0x5eed_1abf_0e6e);
    // Cases asked for (positions per part, track by track).
    let mut asked = 0;
    let mut tracked = 0;
    let ok_tracks = common::tracked_test_labs()
        .into_iter()
        .filter(|p| !common::html_test_labs().contains(p));
    // And a lab with lab-level controls, whose lab formula reading one is computed in the parts.
    let shared = std::iter::once(common::root().join("tests/inputs/ok_lab_controls.yaml"));
    for lab_path in common::html_test_labs()
        .into_iter()
        .chain(ok_tracks)
        .chain(shared)
    {
        let page = render(&lab_path, &out);
        let lab = load_lab(&lab_path).unwrap_or_else(|_| panic!("{} loads", lab_path.display()));
        // A lab with tracks: every track, on its own page (`STEM.TRACK.html`) against `eval
        // --track TRACK`.
        let mut on = vec![(page.clone(), None)];
        if lab.track.is_some() {
            let stem = lab_path.file_stem().unwrap().to_str().unwrap();
            on = lab
                .tracks
                .tracks
                .iter()
                .map(|t| {
                    (
                        out.join(format!("{stem}.{}.html", t.id)),
                        Some(t.id.clone()),
                    )
                })
                .collect();
            tracked += on.len();
        }
        for (page, track) in on {
            let lab = match &track {
                Some(t) => lab
                    .on_track(t)
                    .unwrap_or_else(|_| panic!("{} compiles on {t}", lab_path.display())),
                None => load_lab(&lab_path).ok().unwrap(),
            };
            // 50 random positions per part; a lab with tracks 20 per part and track (each
            // track is its own page, so a part gets 20 × tracks: at least as many in all).
            let randoms = if track.is_some() { 20 } else { 50 };
            for part in &lab.lab.parts {
                asked += randoms + 1;
                for case in 0..=randoms {
                    let mut sets = Vec::new();
                    let mut args: Vec<String> = vec![
                        "eval".into(),
                        lab_path.display().to_string(),
                        "--part".into(),
                        part.id.value.clone(),
                        "--format".into(),
                        "json".into(),
                    ];
                    if let Some(t) = &track {
                        args.push("--track".into());
                        args.push(t.clone());
                    }
                    for c in &part.controls {
                        let (s, cli) = if case == 0 {
                            default_setting(c)
                        } else {
                            random_setting(c, &mut rng)
                        };
                        sets.push(s);
                        args.push("--set".into());
                        args.push(format!("{}={cli}", c.id().value));
                    }
                    // The CLI's numbers, computed in this process by the code `labforge eval`
                    // runs (load, `inputs`, `evaluate`); at each part's defaults the command
                    // itself runs too and must print the same. (A process per random position
                    // was 2,000 processes and most of this test's two minutes.)
                    let set: indexmap::IndexMap<String, rhai::Dynamic> = args
                        .iter()
                        .filter_map(|a| a.split_once('='))
                        .map(|(k, v)| (k.to_string(), labforge::eval::parse_cli_value(v)))
                        .collect();
                    let ev = match lab.evaluate_with(&part.id.value, &set) {
                        Ok(ev) => ev,
                        Err(e) => {
                            // A position where the formulas fail: the page must show an error.
                            eprintln!("note: evaluation failed at {args:?}: {e}");
                            continue;
                        }
                    };
                    let expected = J::Object(
                        ev.values
                            .iter()
                            .map(|(k, v)| (k.clone(), labforge::formula::to_json(v)))
                            .collect(),
                    );
                    if case == 0 {
                        let o = Command::new(bin()).args(&args).output().unwrap();
                        assert!(
                            o.status.success(),
                            "{args:?}: {}",
                            String::from_utf8_lossy(&o.stderr)
                        );
                        // As text: serde_json's parser may land a float one ulp away.
                        let cli = String::from_utf8(o.stdout).unwrap();
                        let ours = serde_json::to_string_pretty(&expected).unwrap();
                        assert_eq!(cli.trim_end(), ours, "labforge eval {args:?}");
                    }
                    // The charts as the handout draws them (render/svg) at the same settings: the
                    // page (chart model in runtime.js, drawing in charts.js) must produce the same
                    // SVG and the same Data table.
                    let charts: serde_json::Map<String, J> = match lab.charts(&ev) {
                        Ok(cs) => cs
                            .iter()
                            .flat_map(|c| {
                                let uid = format!("p-{}-{}", part.id.value, c.id);
                                let svg = labforge::render::svg::chart_svg_with_id(c, &uid);
                                let table = labforge::render::svg::chart_table(c, false);
                                [
                                    (format!("{uid} table"), J::String(table)),
                                    (uid, J::String(svg)),
                                ]
                            })
                            .collect(),
                        Err(_) => Default::default(),
                    };
                    // Each output's text and level as the terminal and handouts show them.
                    let shown: serde_json::Map<String, J> = lab
                        .outputs(&ev)
                        .unwrap()
                        .into_iter()
                        .map(|o| (o.name, json!([o.display, o.level])))
                        .collect();
                    cases.push(json!({
                        "page": page, "part": part.id.value,
                        "name": match (&track, case) {
                            (None, 0) => "defaults".to_string(),
                            (None, _) => format!("random {case}"),
                            (Some(t), 0) => format!("{t}: defaults"),
                            (Some(t), _) => format!("{t}: random {case}"),
                        },
                        "sets": sets, "expected": expected, "charts": charts, "shown": shown,
                    }));
                }
            }
        }
    }
    // ok_tracks (2 tracks) and the tracks course's two labs (3 tracks each).
    assert!(tracked >= 8, "only {tracked} tracks of labs with tracks");
    assert!(cases.len() >= asked * 9 / 10, "only {} cases", cases.len());
    let spec = out.join("cases.json");
    std::fs::write(&spec, serde_json::to_vec(&json!({"cases": cases})).unwrap()).unwrap();
    let (ok, text) = node("diff.mjs", &[&spec]);
    println!("{text}");
    assert!(ok, "page and CLI disagree:\n{text}");
    assert!(text.contains(&format!("{} passed, 0 failed", cases.len())));
}

#[test]
fn page_end_to_end_gating_reveal_live_persistence_export_keyboard() {
    if !browser_ready() {
        return;
    }
    let out = tmpdir("e2e");
    let page = render(&root().join("tests/inputs/html_demo.yaml"), &out);
    let (ok, text) = node("e2e.mjs", &[&page, &out]);
    println!("{text}");
    assert!(ok, "end-to-end failed:\n{text}");
    // The exported ledger is the same record the Rust side builds for the same answers.
    let exported: labforge::ledger::Ledger =
        serde_json::from_slice(&std::fs::read(out.join("ledger.json")).unwrap())
            .expect("the page's export parses as a labforge ledger");
    let lab = load_lab(&root().join("tests/inputs/html_demo.yaml"))
        .ok()
        .unwrap();
    let mut want = labforge::ledger::Ledger::new(&lab);
    for (pid, a) in &exported.parts {
        let w = want.parts.get_mut(pid).unwrap();
        w.prediction = a.prediction.clone();
        w.prediction_locked_at = a.prediction_locked_at.clone();
        w.prediction_attempts = a.prediction_attempts.clone();
        w.reflection = a.reflection.clone();
        w.controls = a.controls.clone();
    }
    want.decision_log = exported.decision_log.clone();
    want.refresh(&lab);
    assert_eq!(exported.design, want.design);
    assert_eq!(exported.hud, want.hud);
    assert_eq!(exported.parts, want.parts);
    assert_eq!(exported.format, want.format);
    assert_eq!(exported.chapter, want.chapter);
    assert_eq!(
        (exported.lab.as_str(), exported.version),
        (want.lab.as_str(), want.version)
    );
    // `complete` means the same on both sides (every question answered), and a part the page
    // never touched records the same default positions the terminal's record starts with.
    assert_eq!(exported.complete, want.complete);
    let fresh = labforge::ledger::Ledger::new(&lab);
    assert_eq!(exported.parts["b"].controls, fresh.parts["b"].controls);
    assert_eq!(
        serde_json::to_string(&exported.parts["b"].controls).unwrap(),
        serde_json::to_string(&fresh.parts["b"].controls).unwrap()
    );
    assert_eq!(exported.design["partA_prediction"], J::from("B"));
    assert!(exported.decision_log.contains("<script>"));
}

/// A prediction is a commitment on every page: after the first option is locked in, clicking
/// through every option keeps it in the HUD, the export, the report and after a reload; the
/// others are recorded as attempts.
#[test]
fn clicking_through_every_option_keeps_the_first_locked_answer() {
    if !browser_ready() {
        return;
    }
    for lab in common::html_test_labs() {
        let stem = lab.file_stem().unwrap().to_string_lossy().to_string();
        let out = tmpdir(&format!("commit-{stem}"));
        let page = render(&lab, &out);
        let (ok, text) = node("commit.mjs", &[&page, &out]);
        println!("{stem}: {text}");
        assert!(ok, "{stem}: commitment broken:\n{text}");
        // The export is a ledger the Rust side reads, with the same first answers.
        let exported: labforge::ledger::Ledger =
            serde_json::from_slice(&std::fs::read(out.join("commit-ledger.json")).unwrap())
                .expect("the export parses as a labforge ledger");
        assert_eq!(exported.format, labforge::ledger::FORMAT);
    }
}

/// Finishing a seed lab: `aria-valuetext` follows every slider, a visible "lab complete" state
/// with the one file to hand in, and a report with part titles, option texts and no escapes.
#[test]
fn finishing_shows_complete_with_one_hand_in_download_and_a_clean_report() {
    if !browser_ready() {
        return;
    }
    for name in ["fault-tolerance", "fleet-orchestration"] {
        let out = tmpdir(&format!("finish-{name}"));
        let page = render(&root().join(format!("labs/{name}.yaml")), &out);
        let (ok, text) = node("finish.mjs", &[&page, &out]);
        println!("{name}: {text}");
        assert!(ok, "{name}: finishing broken:\n{text}");
        let handed: labforge::ledger::Ledger =
            serde_json::from_slice(&std::fs::read(out.join("finish-ledger.json")).unwrap())
                .expect("the handed-in file is a labforge ledger");
        assert!(handed.complete);
    }
}

const PAYLOADS: &[&str] = &[
    "<script>window.__xss=1</script>",
    "<img src=x onerror=\"window.__xss=2\">",
    "\"><svg onload=window.__xss=3>",
    "[click](javascript:window.__xss=4)",
    "<a href=\"javascript:window.__xss=5\">a</a>",
    "</script><script>window.__xss=6</script>",
    "<iframe srcdoc=\"<script>parent.__xss=7</script>\"></iframe>",
    "![x](https://example.invalid/x.png)",
    "<style>body{display:none}</style>",
    "' onmouseover='window.__xss=8",
];

/// YAML single-quoted scalar.
fn q(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

fn xss_lab() -> String {
    let template = r#"id: xss-corpus
title: @@
subtitle: @@
topic: @@
badges: [ { text: @@ }, { text: @@, kind: warn } ]
duration: { total: @@, breakdown: @@ }
objectives: [ { title: @@, text: @@ } ]
prerequisites: [ @@ ]
core_question: @@
reading: @@
constants:
  evil: { value: @@ }
parts:
  - id: a
    title: @@
    duration: @@
    stakeholder: { role: @@, message: @@ }
    concept: @@
    prediction:
      question: @@
      options:
        - { text: @@, correct: true, feedback: @@ }
        - { text: @@, feedback: @@ }
    explore_title: @@
    controls:
      - slider: { id: x, label: @@, min: 0, max: 10, step: 1, default: 5, unit: @@ }
      - select: { id: s, label: @@, options: { @@: 1, '<b>two</b> "<i>': 2 }, default: '<b>two</b> "<i>' }
      - checkboxes: { id: cb, label: @@, options: { o1: @@ } }
      - switch: { id: sw, label: @@ }
      - number: { id: nb, label: @@, default: 1, unit: @@ }
    formulas:
      y: x * s + if sw { 1 } else { 0 } + nb + if cb.o1 { 1 } else { 0 }
      word: evil + " " + x
    outputs:
      y: { label: @@, unit: @@, prefix: @@, bands: { good_below: 20 } }
      word: { label: @@ }
    instruments:
      - panel: { title: @@, lines: [ @@, "{{ word }}" ] }
      - metrics: [ { output: y, label: @@, caption: @@ } ]
      - table: { title: @@, outputs: [y, word] }
      - chart:
          id: c
          kind: line
          title: @@
          x: { label: @@, suffix: @@ }
          y: { label: @@, prefix: @@ }
          sweep: { var: t, from: 0, to: 10, points: 5 }
          series: [ { name: @@, y: t * s } ]
          markers: [ { name: @@, x: x, y: y } ]
          hlines: [ { at: 5, label: @@ } ]
      - chart:
          id: b
          kind: bar
          bars: [ { label: @@, value: x, text: @@ } ]
    feedback:
      - { when: "x >= 0", title: @@, warn: @@ }
    math_peek: { title: @@, body: @@ }
    reflection:
      question: @@
      options: [ { text: @@, correct: true, feedback: @@ }, { text: @@ } ]
synthesis:
  takeaways: [ { title: @@, text: @@ } ]
  cards: [ { title: @@, body: @@ } ]
  self_assessment: [ @@ ]
  self_assessment_note: @@
  decision_log: { prompt: @@, placeholder: @@ }
hud:
  label: @@
  chapter_label: @@
  parts: [a]
  tiers: [ { name: @@ } ]
"#;
    let mut out = String::new();
    for (i, piece) in template.split("@@").enumerate() {
        if i > 0 {
            out.push_str(&q(&format!("T{i} {}", PAYLOADS[i % PAYLOADS.len()])));
        }
        out.push_str(piece);
    }
    out
}

#[test]
fn xss_corpus_in_every_text_field_executes_nothing() {
    let out = tmpdir("xss");
    let lab = out.join("xss.yaml");
    std::fs::write(&lab, xss_lab()).unwrap();
    let chk = Command::new(bin()).arg("check").arg(&lab).output().unwrap();
    assert!(
        chk.status.success(),
        "the XSS lab must be valid: {}",
        String::from_utf8_lossy(&chk.stderr)
    );
    let page = render(&lab, &out);
    let html = std::fs::read_to_string(&page).unwrap();
    // Statically: no payload survives as markup.
    for bad in [
        "<img",
        "<iframe",
        "<svg onload",
        "<a href=\"javascript",
        "<style>body",
    ] {
        assert!(!html.contains(bad), "`{bad}` reached the page unescaped");
    }
    assert_eq!(
        html.matches("<script").count(),
        5,
        "only the page's own scripts (its data, the head's, the tabs', the packed library, charts, formulas and runtime, and boot.js, which runs them)"
    );
    if !browser_ready() {
        return;
    }
    let (ok, text) = node("xss.mjs", &[&page]);
    println!("{text}");
    assert!(ok, "XSS corpus:\n{text}");
}

#[test]
fn page_enforces_the_operation_budget() {
    let lab = root().join("tests/inputs/html_budget.yaml");
    // The CLI: a short loop runs, a long one stops at the budget.
    let short = Command::new(bin())
        .args(["eval"])
        .arg(&lab)
        .args(["--set", "reps=20", "--format", "json"])
        .output()
        .unwrap();
    assert!(short.status.success());
    let long = Command::new(bin())
        .args(["eval"])
        .arg(&lab)
        .args(["--set", "reps=2000"])
        .output()
        .unwrap();
    assert!(!long.status.success());
    assert!(String::from_utf8_lossy(&long.stderr).contains("operations"));
    if !browser_ready() {
        return;
    }
    let out = tmpdir("budget");
    let page = render(&lab, &out);
    let (ok, text) = node("budget.mjs", &[&page]);
    println!("{text}");
    assert!(ok, "budget:\n{text}");
}

#[test]
fn hostile_saved_state_is_discarded_with_a_notice_and_reset_always_works() {
    if !browser_ready() {
        return;
    }
    let out = tmpdir("state");
    let page = render(&root().join("tests/inputs/html_demo.yaml"), &out);
    let (ok, text) = node("state.mjs", &[&page]);
    println!("{text}");
    assert!(ok, "saved state:\n{text}");
    assert!(text.contains("6 passed, 0 failed"), "{text}");
}

#[test]
fn heavy_update_stops_at_the_update_budget() {
    let lab = root().join("tests/inputs/html_heavy.yaml");
    // The lab checks clean: at its defaults the chart is light.
    let check = Command::new(bin()).arg("check").arg(&lab).output().unwrap();
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
    // In Rust, the chart at `reps = 50` stops at the same budget the page's update has.
    let Ok(compiled) = labforge::lab::load_lab(&lab) else {
        panic!("the lab compiles")
    };
    let mut set = indexmap::IndexMap::new();
    set.insert("reps".to_string(), rhai::Dynamic::from_float(50.0));
    let part = &compiled.parts[0];
    let inputs = compiled.inputs(part, &set).unwrap();
    let ev = compiled.evaluate(part, &inputs).unwrap();
    let Err(err) = compiled.charts(&ev) else {
        panic!("the heavy chart overruns")
    };
    assert!(
        err.0.message.contains("operations in total"),
        "{}",
        err.0.message
    );
    if !browser_ready() {
        return;
    }
    let out = tmpdir("heavy");
    let page = render(&lab, &out);
    let (ok, text) = node("heavy.mjs", &[&page]);
    println!("{text}");
    assert!(ok, "heavy:\n{text}");
}
