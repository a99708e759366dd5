//! `labforge run --answers FILE` (YAML or JSON): a whole lab run from the file, and the answers
//! it refuses with a message (out of range, not a finite number, no such option, part or control,
//! nowhere to go), keeping the progress made. Checked through the ledger file it leaves. A file
//! that is not one, or an answer with nowhere to go, is a diagnostic of the file (located where
//! the parser stopped) with a hint.

use crate::common;
use common::run::{ledger, run_answers, run_with, text, tmp, FIXTURE};

#[test]
fn answers_file_runs_the_whole_lab() {
    let d = tmp("answers");
    let l = d.join("l.json");
    let a = d.join("answers.yaml");
    std::fs::write(
        &a,
        "predictions: {a: b, b: 25}\ncontrols: {a: {utilization: 0.5, cs: \"Uniform (C_s=1)\", priority: true}, b: {causes: {failures: true}, batch: 32}}\nreflections: {a: B, b: A}\ndecision_log: \"Pull the variability lever.\"\n",
    )
    .unwrap();
    let o = run_answers(FIXTURE, &l, &a);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert!(out.contains("Set Priority lane = on"), "{out}");
    assert!(out.contains("Wait           15.0 min  [! warn]"), "{out}");
    let v = ledger(&l);
    assert_eq!(v["design"]["partA_prediction"], "B");
    assert_eq!(v["design"]["partA_correct"], true);
    assert_eq!(v["design"]["partB_prediction"], "25");
    assert_eq!(
        v["design"]["student_justification"],
        "Pull the variability lever."
    );
    assert_eq!(v["hud"]["tier"], "Optimal");
    assert_eq!(v["parts"]["a"]["controls"]["priority"], true);
    assert_eq!(v["parts"]["b"]["controls"]["batch"], 32.0);
    assert_eq!(v["parts"]["b"]["controls"]["causes"]["waiting"], false);
    assert!(out.contains("Set Causes counted = Failures"), "{out}");

    // JSON works too; wrong answers give the lowest tier.
    let j = d.join("answers.json");
    std::fs::write(
        &j,
        r#"{"predictions": {"a": "C", "b": 3}, "reflections": {"a": "A", "b": "B"}, "decision_log": "x"}"#,
    )
    .unwrap();
    let l2 = d.join("l2.json");
    let o = run_answers(FIXTURE, &l2, &j);
    assert!(o.status.success(), "{:?}", text(&o));
    let v = ledger(&l2);
    assert_eq!(v["design"]["partA_correct"], false);
    assert_eq!(v["design"]["partB_correct"], false);
    assert_eq!(v["design"]["partA_reflection"], "A");
    assert_eq!(v["hud"]["tier"], "Review");
    assert_eq!(v["hud"]["parts"]["b"], "review");
}

#[test]
fn bad_answers_stop_with_a_message_and_keep_progress() {
    let d = tmp("bad");
    let a = d.join("a.yaml");
    let l = d.join("l.json");
    std::fs::write(&a, "predictions: {a: B}\ncontrols: {a: {utilization: 2}}\n").unwrap();
    let o = run_answers(FIXTURE, &l, &a);
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(1));
    // A diagnostic of the answers file, with the hint the printer prints (it was a bare
    // `error: ...` line of the session's own).
    assert!(
        err.contains(&format!(
            "{}: error: answers: part `a`: `utilization` must be between 0.10 and 0.99, not 2",
            a.display()
        )),
        "{err}"
    );
    assert!(err.contains("= hint: an answers file is YAML"), "{err}");
    assert_eq!(ledger(&l)["design"]["partA_prediction"], "B");

    // A missing reflection stops before part B (gated on a.reflection) is opened.
    std::fs::write(&a, "predictions: {a: B, b: 25}\n").unwrap();
    let l2 = d.join("l2.json");
    let o = run_answers(FIXTURE, &l2, &a);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        err.contains(&format!(
            "{}: error: the answers file has no reflection for part `a`",
            a.display()
        )),
        "{err}"
    );
    assert!(!out.contains("Part B"), "{out}");
    assert_eq!(ledger(&l2)["design"]["partB_prediction"], "no_selection");

    // An option that does not exist, and a key the format does not know.
    std::fs::write(&a, "predictions: {a: Z}\n").unwrap();
    let o = run_with(
        &[
            FIXTURE,
            "--ledger",
            l2.to_str().unwrap(),
            "--restart",
            "--answers",
            a.to_str().unwrap(),
        ],
        "",
    );
    assert!(
        text(&o)
            .1
            .contains("no prediction option `Z` (options: A, B, C)"),
        "{:?}",
        text(&o)
    );
    // Located in the answers file (with its line, a caret and the parser's hint where it stopped)
    // through the one printer (issue 21 item 4; it was `error: FILE: not an answers file: …`),
    // and an answer with nowhere to go as a diagnostic of the file, saying what the file holds.
    for (file, want) in [
        (
            "prediction: {a: B}\n",
            "1:1: error: not an answers file: `prediction` is not a key this mapping takes\n  |\n1 | prediction: {a: B}\n  | ^\n  = hint: did you mean `predictions`?\n",
        ),
        (
            "predictions: {zz: B}\n",
            " error: predictions: no part `zz` in this lab (parts: a, b)\n  = hint: an answers file is YAML",
        ),
    ] {
        std::fs::write(&a, file).unwrap();
        let o = run_with(&[FIXTURE, "--answers", a.to_str().unwrap()], "");
        assert_eq!(o.status.code(), Some(1));
        let err = text(&o).1;
        assert!(err.starts_with(&format!("{}:{want}", a.display())), "{err:?}");
    }
}

#[test]
fn answers_file_refuses_estimates_that_are_not_finite_numbers() {
    let d = tmp("nan");
    let a = d.join("a.yaml");
    let l = d.join("l.json");
    for bad in ["NaN", "\"inf\"", "\"1e400\"", "\"-infinity\""] {
        std::fs::write(
            &a,
            format!("predictions: {{a: B, b: {bad}}}\nreflections: {{a: B, b: A}}\n"),
        )
        .unwrap();
        let o = run_with(
            &[
                FIXTURE,
                "--ledger",
                l.to_str().unwrap(),
                "--restart",
                "--answers",
                a.to_str().unwrap(),
            ],
            "",
        );
        let (_, err) = text(&o);
        assert_eq!(o.status.code(), Some(1), "{bad}: {err}");
        assert!(
            err.contains("the prediction of part `b` is a number, not"),
            "{bad}: {err}"
        );
        assert_eq!(ledger(&l)["design"]["partB_prediction"], "no_selection");
    }
}

/// `run LAB --answers` with this answers file: refused with exit 1; its error text.
fn refused_answers(name: &str, lab: &str, yaml: &str) -> String {
    let d = tmp(name);
    let (a, l) = (d.join("a.yaml"), d.join("l.json"));
    std::fs::write(&a, yaml).unwrap();
    let args = [
        lab,
        "--ledger",
        l.to_str().unwrap(),
        "--restart",
        "--answers",
        a.to_str().unwrap(),
    ];
    let o = run_with(&args, "");
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{yaml}: {err}");
    err
}

#[test]
fn answers_for_parts_the_lab_does_not_have_are_refused() {
    for (yaml, what) in [
        ("predictions: {a: B, c: A}\n", "predictions: no part `c`"),
        (
            "predictions: {a: B}\ncontrols: {x: {utilization: 0.5}}\n",
            "controls: no part `x`",
        ),
        ("reflections: {bb: A}\n", "reflections: no part `bb`"),
    ] {
        let err = refused_answers("unknownpart", FIXTURE, yaml);
        assert!(err.contains(what), "{yaml}: {err}");
        assert!(err.contains("parts: a, b"), "{err}");
    }
}

#[test]
fn answers_with_nowhere_to_go_are_refused() {
    for (lab, yaml, what) in [
        (
            "tests/inputs/ok_minimal.yaml",
            "predictions: {a: B}\nreflections: {a: A}\ndecision_log: I would.\n",
            "decision_log: this lab keeps no decision log",
        ),
        (
            "tests/inputs/ok_minimal.yaml",
            "predictions: {a: B, b: 3}\n",
            "predictions: part `b` asks no prediction",
        ),
        (
            "tests/inputs/ok_minimal.yaml",
            "reflections: {b: A}\n",
            "reflections: part `b` asks no reflection",
        ),
        (
            FIXTURE,
            "predictions: {a: B}\ncontrols: {a: {utilisation: 0.5}}\n",
            "controls: part `a` has no control `utilisation` (controls: utilization, cs, priority)",
        ),
    ] {
        let err = refused_answers("nowhere", lab, yaml);
        assert!(err.contains(what), "{yaml}: {err}");
    }
}
