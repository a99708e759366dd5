//! Numbers carried between the labs of the shipped course: fault-tolerance keeps the checkpoint
//! interval of part A (`records: ckpt_interval_s`) beside the settings in its ledger;
//! fleet-orchestration reads it (`reads:` as `ft_interval_s`, default 600 s, range 60-10800 s)
//! and prices a preemption's rework at it. Checked: the ledger keeps the value, evaluation at
//! the default and at a carried value, the terminal and the handout (`--record`) fill it from
//! the course record and say where it came from, and a record holding a number outside the
//! range (or not a number) is refused with the default.

use labforge::lab::load_lab;
use labforge::ledger::Ledger;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn course_id() -> String {
    labforge::course::load(&root().join("labs/course.yaml"))
        .map_err(|_| "labs/course.yaml loads")
        .unwrap()
        .id
}

/// A course record whose fault-tolerance ledger keeps `kept` as the carried value.
fn record(dir: &Path, kept: serde_json::Value) -> PathBuf {
    let p = dir.join(format!("course-{}.json", course_id()));
    let rec = serde_json::json!({
        "format": "labforge-course/1",
        "course": course_id(),
        "labs": { "fault-tolerance": {
            "format": "labforge-ledger/2", "lab": "fault-tolerance", "version": 2,
            "parts": { "a": { "controls": { "interval_s": 1800, "@ckpt_interval_s": kept } } },
            "decision_log": "",
        } },
    });
    std::fs::write(&p, rec.to_string()).unwrap();
    p
}

fn rework(lab: &labforge::eval::CompiledLab) -> f64 {
    let cp = lab.part("c").unwrap();
    let ev = lab
        .evaluate(cp, &lab.inputs(cp, &Default::default()).unwrap())
        .unwrap();
    ev.values["rework_ft_gpu_h"].as_float().unwrap()
}

#[test]
fn the_earlier_lab_keeps_the_value_beside_its_settings() {
    let lab = load_lab(&root().join("labs/fault-tolerance.yaml")).unwrap();
    let mut l = Ledger::new(&lab);
    l.refresh(&lab);
    assert_eq!(l.parts["a"].controls["@ckpt_interval_s"], 600);
    l.parts.get_mut("a").unwrap().controls["interval_s"] = serde_json::json!(1800);
    l.refresh(&lab);
    assert_eq!(l.parts["a"].controls["@ckpt_interval_s"], 1800);
    // A kept value is derived: a sanitized record drops a stale one without a word, and the
    // refresh computes it again.
    l.parts.get_mut("a").unwrap().controls["@ckpt_interval_s"] = serde_json::json!("x");
    assert!(l.sanitize(&lab).is_empty());
    l.refresh(&lab);
    assert_eq!(l.parts["a"].controls["@ckpt_interval_s"], 1800);
}

#[test]
fn the_later_lab_computes_at_the_default_and_at_the_carried_number() {
    let mut lab = load_lab(&root().join("labs/fleet-orchestration.yaml")).unwrap();
    // 64 GPUs × half of 600 s.
    assert!((rework(&lab) - 64.0 * 600.0 / 7200.0).abs() < 1e-12);
    let rec = serde_json::json!({"parts": {"a": {"controls": {"@ckpt_interval_s": 1800}}}});
    let got = lab.carry_from(&|_| Some(rec.clone()), &|_| "Fault".into());
    assert_eq!(got[0].value, 1800.0);
    assert_eq!(got[0].how, "from “Fault”, your recorded value");
    assert_eq!(rework(&lab), 16.0);
    // Student data is not trusted: out of range, not a number, absent.
    for (bad, how) in [
        (
            serde_json::json!(1e12),
            "default: the record of “Fault” holds no number from 60 to 10800 for it",
        ),
        (
            serde_json::json!("1800"),
            "default: the record of “Fault” holds no number from 60 to 10800 for it",
        ),
        (
            serde_json::json!(null),
            "default: the record of “Fault” holds no number from 60 to 10800 for it",
        ),
    ] {
        let rec = serde_json::json!({"parts": {"a": {"controls": {"@ckpt_interval_s": bad}}}});
        let got = lab.carry_from(&|_| Some(rec.clone()), &|_| "Fault".into());
        assert_eq!((got[0].value, got[0].how.as_str()), (600.0, how));
    }
    let got = lab.carry_from(&|_| None, &|_| "Fault".into());
    assert_eq!(got[0].how, "default: “Fault” not done yet");
    assert!((rework(&lab) - 64.0 * 600.0 / 7200.0).abs() < 1e-12);
}

#[test]
fn the_terminal_fills_it_from_the_course_record_and_says_where_it_came_from() {
    let d = tempfile::tempdir().unwrap();
    let run = |answers: &Path| {
        let o = Command::new(env!("CARGO_BIN_EXE_labforge"))
            .current_dir(root())
            .env("XDG_DATA_HOME", d.path())
            .env("NO_COLOR", "1")
            .args(["run", "labs/fleet-orchestration.yaml", "--ledger"])
            .arg(d.path().join("l.json"))
            .arg("--answers")
            .arg(answers)
            .output()
            .unwrap();
        // Words as the terminal wraps them, joined.
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        out.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    let a = d.path().join("a.yaml");
    std::fs::write(&a, "predictions: {}\n").unwrap();
    let out = run(&a);
    assert!(
        out.contains("Your checkpoint interval (Fault Tolerance, Part A): 600 s (default: “When Failure is Routine” not done yet)"),
        "{out}"
    );
    record(d.path(), serde_json::json!(1800));
    let out = run(&a);
    assert!(
        out.contains("Your checkpoint interval (Fault Tolerance, Part A): 1800 s (from “When Failure is Routine”, your recorded value)"),
        "{out}"
    );
    record(d.path(), serde_json::json!(-5));
    let out = run(&a);
    assert!(out.contains("600 s (default: the record of “When Failure is Routine” holds no number from 60 to 10800 for it)"), "{out}");
}

#[test]
fn the_handout_fills_it_from_record() {
    let d = tempfile::tempdir().unwrap();
    let rec = record(d.path(), serde_json::json!(1800));
    let out = d.path().join("out");
    let o = Command::new(env!("CARGO_BIN_EXE_labforge"))
        .current_dir(root())
        .args([
            "render",
            "labs/fleet-orchestration.yaml",
            "--to",
            "markdown",
            "-o",
        ])
        .arg(&out)
        .arg("--record")
        .arg(&rec)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let md = std::fs::read_to_string(out.join("fleet-orchestration.md")).unwrap();
    assert!(
        md.contains("- Your checkpoint interval (Fault Tolerance, Part A): 1800 s (from “When Failure is Routine”, your recorded value)"),
        "{md}"
    );
    // Part C's panel computes with it: half of 1800 s is 0.25 h.
    assert!(md.contains("(30 min)"), "{md}");
    assert!(md.contains("64 GPUs × 0.25 h"), "{md}");
}

#[test]
fn a_read_or_record_name_that_is_not_a_name_is_refused() {
    let base = std::fs::read_to_string(root().join("tests/inputs/ok_minimal.yaml")).unwrap();
    let lab = base.replacen(
        "title: Queue demo\n",
        "title: Queue demo\nreads:\n  - { from: x, control: a.u, as: 'q\"]', default: 1, range: [0, 2] }\nrecords:\n  'a b': a.wait_min\n",
        1,
    );
    let Err((_, d)) = labforge::eval::load_source(labforge::load::Source::new("t.yaml", lab))
    else {
        panic!("compiled");
    };
    let msgs: Vec<&str> = d.iter().map(|d| d.message.as_str()).collect();
    assert!(
        msgs.iter()
            .any(|m| m.contains("is not a valid name") && m.contains("as: q")),
        "{msgs:?}"
    );
    assert!(
        msgs.iter().any(|m| m.contains("`records:` name `a b`")),
        "{msgs:?}"
    );
}
