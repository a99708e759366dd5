//! Lab-level controls (tests/inputs/ok_lab_controls.yaml): `batch` is declared once beside the
//! lab's formulas and shown in parts b and c. Each part evaluates with it (and with the lab
//! formula `step_ms` that reads it), the record keeps one value for it, the terminal moves it in
//! every part that shows it, and a lab without lab controls renders as before.

use crate::common;
use common::run::{ledger, run_answers, text, tmp};
use indexmap::IndexMap;
use labforge::lab::load_lab;
use labforge::ledger::Ledger;

const LAB: &str = "tests/inputs/ok_lab_controls.yaml";

#[test]
fn a_lab_control_and_the_lab_formula_reading_it_are_in_each_part_that_shows_it() {
    let lab = load_lab(std::path::Path::new(LAB)).unwrap();
    let ids = |pid: &str| -> Vec<String> {
        let cp = lab.part(pid).unwrap();
        cp.controls.iter().map(|c| c.id.clone()).collect()
    };
    assert_eq!(ids("a"), ["n"]);
    assert_eq!(ids("b"), ["batch"]);
    assert_eq!(ids("c"), ["batch", "gpus"]);
    // `step_ms` moved into b and c; `fixed_ms` (constants only) stays lab-wide.
    assert!(lab.constants.iter().any(|(k, _)| k == "fixed_ms"));
    assert!(!lab.constants.iter().any(|(k, _)| k == "step_ms"));
    let cp = lab.part("c").unwrap();
    let mut set = IndexMap::new();
    set.insert("batch".to_string(), rhai::Dynamic::from_float(16.0));
    let ev = lab.evaluate(cp, &lab.inputs(cp, &set).unwrap()).unwrap();
    let x = |k: &str| ev.values[k].as_float().unwrap();
    assert_eq!(x("step_ms"), 42.0);
    assert!((x("samples_per_s") - 16.0 / 42.0 * 1000.0).abs() < 1e-9);
}

#[test]
fn the_record_keeps_one_value_for_a_lab_control() {
    let lab = load_lab(std::path::Path::new(LAB)).unwrap();
    let mut l = Ledger::new(&lab);
    // A record whose parts disagree (edited by hand): the first part showing it wins.
    l.parts.get_mut("b").unwrap().controls["batch"] = serde_json::json!(16);
    l.parts.get_mut("c").unwrap().controls["batch"] = serde_json::json!(4);
    l.refresh(&lab);
    assert_eq!(l.parts["b"].controls["batch"], serde_json::json!(16));
    assert_eq!(l.parts["c"].controls["batch"], serde_json::json!(16));
    assert!(!l.parts["a"].controls.contains_key("batch"));
}

#[test]
fn the_terminal_moves_a_lab_control_in_every_part_that_shows_it() {
    let d = tmp("shared-controls");
    let l = d.join("l.json");
    let a = d.join("answers.yaml");
    std::fs::write(&a, "controls: {b: {batch: 16}}\n").unwrap();
    let o = run_answers(LAB, &l, &a);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    let v = ledger(&l);
    assert_eq!(v["parts"]["b"]["controls"]["batch"], 16);
    assert_eq!(v["parts"]["c"]["controls"]["batch"], 16);
    // Part c opens at the value set in part b: 16 / 42 ms × 1000 = 381 samples/s.
    let c = out.split("Part C").last().unwrap();
    assert!(c.contains("381 samples/s"), "{out}");
}

/// tests/inputs/ok_part_reads.yaml: part b reads part a's values (`parts.a.power_kw`).
const READS: &str = "tests/inputs/ok_part_reads.yaml";

#[test]
fn a_later_part_reads_an_earlier_part_at_its_settings() {
    let lab = load_lab(std::path::Path::new(READS)).unwrap();
    let cp = lab.part("b").unwrap();
    assert_eq!(cp.reads_parts, ["a"]);
    let cost = |lab: &labforge::eval::CompiledLab| {
        let ev = lab
            .evaluate(cp, &lab.inputs(cp, &IndexMap::new()).unwrap())
            .unwrap();
        ev.values["cost_day"].as_float().unwrap()
    };
    // Part a at its defaults: 10 nodes × 8 GPUs × 0.7 kW × 24 h × $0.1.
    assert!((cost(&lab) - 134.4).abs() < 1e-9);
    let mut set = IndexMap::new();
    set.insert("nodes".to_string(), rhai::Dynamic::from_float(20.0));
    lab.set_settings("a", set);
    assert!((cost(&lab) - 268.8).abs() < 1e-9);
}

#[test]
fn the_terminal_reads_an_earlier_part_at_the_students_settings() {
    let d = tmp("part-reads");
    let l = d.join("l.json");
    let a = d.join("answers.yaml");
    std::fs::write(&a, "controls: {a: {nodes: 20}}\n").unwrap();
    let o = run_answers(READS, &l, &a);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    let b = out.split("Part B").last().unwrap();
    assert!(b.contains("$268.80"), "{out}");
}
