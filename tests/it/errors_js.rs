//! An error at live values reads the same in the page as in Rust (the terminal, `labforge
//! eval`): one lab of a course, a part per kind of error, each evaluated by Rust at a control
//! value where it fails and set to that value in the rendered page in real headless Chromium
//! (tests/browser/errors.mjs). The page's error box must hold Rust's message word for word, and
//! clear again at the control's default.

use crate::common;
use common::{browser_ready, node, root};
use indexmap::IndexMap;
use rhai::Dynamic;
use serde_json::{json, Value as J};
use std::path::{Path, PathBuf};

const COURSE: &str = "title: Errors\nlabs:\n  - labs/errors.yaml\n";

/// A course module whose function fails at some arguments.
const MODULE: &str = r#"
namespace: m
title: Errors module
doc: A function that fails past the end of its list.
constants:
  TWO: { value: 2, unit: "1", source: "example" }
functions:
  - name: nth
    args: [xs, i]
    doc: The i-th item
    body: |
      let j = i * m::TWO / 2;
      at(xs, j)
"#;

/// One part per kind of error; each control's default evaluates cleanly (the lab checks).
const LAB: &str = r#"
id: errors
title: Errors at live values
functions:
  - name: pick
    args: [xs, i]
    body: |
      let n = len(xs);

      at(xs, i)
  - { name: spin, args: [rounds], body: "let t = 0; for i in range(0, rounds) { for j in range(0, 10000) { t += 1; } } t" }
parts:
  - id: a
    title: A lab function
    controls:
      - slider: { id: k1, label: Index, min: 0, max: 5, step: 1, default: 0 }
    formulas:
      v1: pick([1, 2, 3], k1)
    outputs:
      v1: { label: Picked }
    instruments:
      - metrics: [ { output: v1 } ]
  - id: b
    title: A course module's function
    controls:
      - slider: { id: k2, label: Index, min: 0, max: 5, step: 1, default: 1 }
    formulas:
      v2: m::nth([4, 5], k2)
    outputs:
      v2: { label: Item }
    instruments:
      - metrics: [ { output: v2 } ]
  - id: c
    title: A log sweep whose bound a slider sets
    controls:
      - slider: { id: lo, label: Lower bound, min: -2, max: 4, step: 1, default: 1 }
    formulas:
      v3: lo * 2
    outputs:
      v3: { label: Double }
    instruments:
      - metrics: [ { output: v3 } ]
      - chart:
          id: sweep
          kind: line
          sweep: { var: g, from: lo, to: 10, points: 5, log: true }
          series:
            - { name: Twice, x: g, y: g * 2 }
  - id: d
    title: The work budget
    controls:
      - slider: { id: k4, label: Rounds, min: 1, max: 100, step: 1, default: 1 }
    formulas:
      v4: spin(k4)
    outputs:
      v4: { label: Count }
    instruments:
      - metrics: [ { output: v4 } ]
  - id: e
    title: Type errors
    controls:
      - slider: { id: k5, label: Level, min: 0, max: 5, step: 1, default: 0 }
    formulas:
      flag: if k5 == 3 { k5 } else { true }
      v5: flag && true
      root: sqrt(if k5 == 5 { "four" } else { 4 })
    outputs:
      v5: { label: Both }
      root: { label: Root }
    instruments:
      - metrics: [ { output: v5 } ]
  - id: f
    title: Sizes and devices
    controls:
      - slider: { id: k6, label: Size, min: 1, max: 5, step: 1, default: 1 }
    formulas:
      v6: len(range(0, if k6 == 4 { 12000 } else { 10 }))
      dev: hw(if k6 == 5 { "NoSuchGPU" } else { "H100" }).name
    outputs:
      v6: { label: Items }
      dev: { label: Device }
    instruments:
      - metrics: [ { output: v6 } ]
  - id: g
    title: Charts, banners and placeholders
    controls:
      - slider: { id: k7, label: Case, min: 0, max: 5, step: 1, default: 0 }
    formulas:
      v7: k7 + 1
    outputs:
      v7: { label: Case }
    instruments:
      - metrics: [ { output: v7 } ]
      - chart:
          id: cond
          kind: line
          sweep: { var: x, from: 1, to: 3, points: 3 }
          series:
            - { name: Shown, x: x, y: "if k7 == 4 { at([1], k7) } else { x }", when: "if k7 == 1 { 1 } else { true }" }
    feedback:
      - when: k7 < 5 || at([1], k7) > 0
        info: "Case {{ v7 }}."
  - id: h
    title: A chart and a banner failing at once
    controls:
      - slider: { id: k8, label: Case, min: 0, max: 3, step: 1, default: 0 }
    formulas:
      v8: k8 * 3
    outputs:
      v8: { label: Triple }
    instruments:
      - panel: { title: "Third item", lines: ["Item {{ at([1, 2, 3], k8 * 2) }}"] }
      - metrics: [ { output: v8 } ]
      - chart:
          id: first
          kind: line
          sweep: { var: x, from: 1, to: 3, points: 3 }
          series:
            - { name: Item, x: x, y: "if k8 >= 2 { at([1], k8) } else { x }" }
    feedback:
      - when: k8 < 2 || at([1, 2], k8) > 0
        info: "Case {{ v8 }}."
  - id: i
    title: A histogram's bins
    controls:
      - slider: { id: k9, label: Case, min: 0, max: 3, step: 1, default: 0 }
    formulas:
      v9: k9 + 1
    outputs:
      v9: { label: Case }
    instruments:
      - metrics: [ { output: v9 } ]
      - chart:
          id: bins
          kind: histogram
          bins:
            counts: "if k9 == 1 { k9 } else if k9 == 2 { [1.0, 2.0 - k9 * 2.0] } else { [1.0, 2.0] }"
            from: "if k9 == 3 { 9 } else { 0 }"
            to: 5
"#;

/// (part, control, failing value, default, output shown by the part).
const CASES: &[(&str, &str, f64, f64, &str)] = &[
    ("a", "k1", 4.0, 0.0, "v1"),
    ("b", "k2", 3.0, 1.0, "v2"),
    ("c", "lo", 0.0, 1.0, "v3"),
    ("c", "lo", -2.0, 1.0, "v3"),
    ("d", "k4", 100.0, 1.0, "v4"),
    ("e", "k5", 3.0, 0.0, "v5"),
    ("e", "k5", 5.0, 0.0, "v5"),
    ("f", "k6", 4.0, 1.0, "v6"),
    ("f", "k6", 5.0, 1.0, "v6"),
    ("g", "k7", 1.0, 0.0, "v7"),
    ("g", "k7", 4.0, 0.0, "v7"),
    ("g", "k7", 5.0, 0.0, "v7"),
    // The chart, the panel and the banner all fail: each side reports the chart's error first.
    ("h", "k8", 2.0, 0.0, "v8"),
    // A histogram's counts not a list, a negative count, `from` above `to`.
    ("i", "k9", 1.0, 0.0, "v9"),
    ("i", "k9", 2.0, 0.0, "v9"),
    ("i", "k9", 3.0, 0.0, "v9"),
];

/// Rust's message for the part at `control = value`: what the terminal and `labforge eval`
/// report (the diagnostic's message, without its location).
fn rust_message(lab: &labforge::eval::CompiledLab, part: &str, control: &str, v: f64) -> String {
    let cp = lab.part(part).expect("the part");
    let set: IndexMap<String, Dynamic> = [(control.to_string(), Dynamic::from_float(v))].into();
    let inputs = lab.inputs(cp, &set).expect("a valid control value");
    lab.start_update();
    let ev = match lab.evaluate(cp, &inputs) {
        Ok(ev) => ev,
        Err(e) => return e.0.message,
    };
    match labforge::view::explore(lab, cp, &ev) {
        Ok(_) => panic!("part {part} at {control} = {v} does not fail in Rust"),
        // The diagnostic, located at the expression that failed.
        Err(d) => {
            assert!(d.line > 0, "not located: {d}");
            d.message
        }
    }
}

/// The course (its module and the lab) written to a fresh folder: (folder, lab file, lab).
fn course(name: &str) -> (PathBuf, PathBuf, labforge::eval::CompiledLab) {
    let dir = std::env::temp_dir().join(format!("labforge-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("labs")).unwrap();
    std::fs::create_dir_all(dir.join("lib")).unwrap();
    std::fs::write(dir.join("course.yaml"), COURSE).unwrap();
    std::fs::write(dir.join("lib/m.yaml"), MODULE).unwrap();
    let lab_path = dir.join("labs/errors.yaml");
    std::fs::write(&lab_path, LAB).unwrap();
    let lab = labforge::lab::load_lab(&lab_path)
        .unwrap_or_else(|e| panic!("the lab compiles: {:?}", e.1));
    (dir, lab_path, lab)
}

#[test]
fn errors_at_live_values_read_the_same_in_the_page() {
    let (dir, lab_path, lab) = course("errors-js");
    let want: Vec<String> = CASES
        .iter()
        .map(|(p, c, v, _, _)| rust_message(&lab, p, c, *v))
        .collect();
    // Each kind reads as Rust words it (and the terminal shows it).
    let expected = [
        "formula `v1` failed: in `pick` (line 3 of its body): index 4 is outside the list (length 3)",
        "formula `v2` failed: in `m::nth` (line 2 of its body): index 3 is outside the list (length 2)",
        "a `log: true` sweep needs a positive `from` and `to`, not 0 and 10",
        "a `log: true` sweep needs a positive `from` and `to`, not -2 and 10",
        "formula `v4` failed: the formula ran more than 500000 operations",
        "formula `v5` failed: boolean expected, found f64",
        "formula `root` failed: no function matches `sqrt (string)`",
        "formula `v6` failed: Size of array grew too large",
        "formula `dev` failed: hw: unknown device id 'NoSuchGPU'; known ids: H100, ",
        "`when` must be true or false, not `1`",
        "expression failed: index 4 is outside the list (length 1)",
        "expression failed: index 5 is outside the list (length 1)",
        "expression failed: index 2 is outside the list (length 1)",
    ];
    for (w, e) in want.iter().zip(expected) {
        assert!(w.starts_with(e), "Rust's message {w:?}, not {e:?}");
    }
    if !browser_ready() {
        let _ = std::fs::remove_dir_all(&dir);
        return;
    }
    let out = dir.join("out");
    common::render_html(&lab_path, &out);
    let page = out.join("errors.html");
    let spec = json!({
        "page": page,
        "cases": CASES.iter().map(|(p, c, v, back, o)| json!({
            "part": p, "control": c, "value": v, "back": back, "output": o
        })).collect::<Vec<_>>(),
    });
    let spec_path = dir.join("spec.json");
    std::fs::write(&spec_path, spec.to_string()).unwrap();
    let (ok, text) = node("errors.mjs", &[&spec_path]);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(ok, "errors.mjs failed:\n{text}");
    let got: Vec<J> = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    let mut problems = Vec::new();
    for (i, ((p, c, v, _, _), w)) in CASES.iter().zip(&want).enumerate() {
        let shown = got[i]["error"].as_str().map(|s| s.trim_start_matches("⚠ "));
        println!("part {p} at {c} = {v}: rust {w:?} / page {shown:?}");
        if shown != Some(w.as_str()) {
            problems.push(format!(
                "part {p} at {c} = {v}:\n    rust {w:?}\n    page {shown:?}"
            ));
        }
        let all = |k: &str, o: &str| {
            got[i][k]
                .as_array()
                .is_some_and(|v| !v.is_empty() && v.iter().all(|x| x == o))
        };
        if !all("dimmed", "0.4") || !all("clear", "1") {
            problems.push(format!(
                "part {p}: instruments not dimmed while the error shows ({}), or still after ({})",
                got[i]["dimmed"], got[i]["clear"]
            ));
        }
        let said = format!("{v}");
        if got[i]["readout"] != json!([said, said]) {
            problems.push(format!(
                "part {p}: the read-out and aria-valuetext of {c} are {}, not {said:?}",
                got[i]["readout"]
            ));
        }
        if !got[i]["after"].is_null() {
            problems.push(format!(
                "part {p}: the error stays at the default: {}",
                got[i]["after"]
            ));
        }
    }
    let tail = &got[CASES.len()];
    assert_eq!(tail["pageErrors"], json!([]), "the page's own errors");
    assert_eq!(tail["requests"], json!([]), "requests");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_page_data_carries_only_the_error_words_its_lab_can_raise() {
    let out = std::env::temp_dir().join(format!("labforge-errors-msg-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let data = |lab: &str| -> J {
        common::render_html(&root().join(lab), &out);
        let stem = Path::new(lab).file_stem().unwrap().to_str().unwrap();
        let html = std::fs::read_to_string(out.join(format!("{stem}.html"))).unwrap();
        let start = html.find("id=\"lf-data\"").expect("the page data");
        let start = start + html[start..].find('>').unwrap() + 1;
        let end = start + html[start..].find("</script>").unwrap();
        serde_json::from_str(&html[start..end]).unwrap()
    };
    let with = data("labs/distributed-training.yaml");
    let keys = |d: &J| -> Vec<String> { d["msg"].as_object().unwrap().keys().cloned().collect() };
    // distributed-training calls lab functions and sweeps on a log scale.
    assert!(keys(&with).contains(&"in_function".to_string()), "{with}");
    assert!(keys(&with).contains(&"log_sweep".to_string()));
    let without = data("tests/inputs/html_demo.yaml");
    assert!(!keys(&without).contains(&"in_function".to_string()));
    assert!(!keys(&without).contains(&"log_sweep".to_string()));
    assert_eq!(
        without["msg"]["formula"],
        json!(labforge::formula::messages::TEMPLATES[0].1)
    );
    let _ = std::fs::remove_dir_all(&out);
}

/// The terminal (`labforge run`) shows the same words where its explore view would be, and the
/// run goes on (it used to stop the session on the first error).
#[test]
fn errors_at_live_values_read_the_same_in_the_terminal() {
    let (dir, lab_path, lab) = course("errors-run");
    // Each control set to a failing value, then back to its default.
    let answers = dir.join("answers.yaml");
    std::fs::write(
        &answers,
        "controls: {a: {k1: 4}, b: {k2: 3}, c: {lo: 0}, e: {k5: 5}, g: {k7: 1}}\n",
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_labforge"))
        .arg("run")
        .arg(&lab_path)
        .arg("--ledger")
        .arg(dir.join("ledger.json"))
        .arg("--answers")
        .arg(&answers)
        .env("NO_COLOR", "1")
        .env("COLUMNS", "400")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(out.status.success(), "{text}\n{err}");
    for (p, c, v) in [
        ("a", "k1", 4.0),
        ("b", "k2", 3.0),
        ("c", "lo", 0.0),
        ("e", "k5", 5.0),
        ("g", "k7", 1.0),
    ] {
        let want = format!("⚠ {}", rust_message(&lab, p, c, v));
        assert!(
            text.lines().any(|l| l.trim() == want),
            "part {p}: {want:?} not in:\n{text}"
        );
    }
}

/// The same on a terminal, driven by keys: the slider set to a failing value shows the error,
/// and the explore menu comes back so that the student can move it again.
#[test]
fn a_student_on_a_terminal_sees_the_error_and_goes_on() {
    use expectrl::{Expect, Session};
    let (dir, lab_path, lab) = course("errors-pty");
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_labforge"));
    c.arg("run")
        .arg(&lab_path)
        .arg("--ledger")
        .arg(dir.join("ledger.json"))
        .env("COLUMNS", "400")
        .env("TERM", "xterm")
        .env("NO_COLOR", "1");
    let mut s = Session::spawn(c).expect("spawn on a pty");
    s.set_expect_timeout(Some(std::time::Duration::from_secs(30)));
    let expect = |s: &mut expectrl::session::OsSession, what: &str| match s.expect(what) {
        Ok(c) => String::from_utf8_lossy(c.before()).into_owned(),
        Err(e) => panic!("waiting for {what:?}: {e}"),
    };
    expect(&mut s, "What next?");
    expect(&mut s, "Enter choose");
    s.send("1").unwrap();
    expect(&mut s, "Enter keeps it:");
    s.send("4\r").unwrap();
    let want = format!("⚠ {}", rust_message(&lab, "a", "k1", 4.0));
    expect(&mut s, &want);
    // The run goes on: the menu again, and the control back at a good value recomputes.
    expect(&mut s, "What next?");
    expect(&mut s, "Enter choose");
    s.send("1").unwrap();
    expect(&mut s, "Enter keeps it:");
    s.send("2\r").unwrap();
    let shown = expect(&mut s, "What next?");
    assert!(shown.contains("Picked") && !shown.contains("⚠"), "{shown}");
    let _ = s.send("\x03");
    let _ = std::fs::remove_dir_all(&dir);
}
