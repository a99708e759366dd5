//! The ledger file `labforge run` keeps: where it lives by default, the records it refuses
//! (unreadable, another lab's, an unknown format) and the older ones it still reads, the
//! prediction locked in with its time, estimates as typed, and that it means the same as the
//! page's export (which the terminal resumes from).

use crate::common;
use common::run::{cmd, ledger, run_with, text, tmp, FIXTURE};
use std::process::Stdio;

#[test]
fn unreadable_or_foreign_ledgers_are_refused_without_a_crash() {
    let d = tmp("corrupt");
    let l = d.join("l.json");
    std::fs::write(&l, "{ not json").unwrap();
    let o = run_with(&[FIXTURE, "--ledger", l.to_str().unwrap()], "");
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(1));
    // Located where the parser stopped, through the one printer (it was `error: PATH: …`).
    assert!(
        err.starts_with(&format!(
            "{}:1:3: error: not a labforge ledger: key must be a string at line 1 column 3\n  |\n1 | {{ not json\n  |   ^\n  = hint: pass --restart to start over",
            l.display()
        )),
        "{err}"
    );
    assert!(!err.contains("panicked"));
    // A line too long to show (a page's download is one line) is not printed.
    std::fs::write(&l, format!("{{{} x", " ".repeat(400))).unwrap();
    let (_, err) = text(&run_with(&[FIXTURE, "--ledger", l.to_str().unwrap()], ""));
    assert!(
        err.contains(":1:403: error: not a labforge ledger"),
        "{err}"
    );
    assert!(!err.contains("1 | "), "{err}");

    std::fs::write(
        &l,
        r#"{"format":"labforge-ledger/1","lab":"other","version":1,"chapter":"x","design":{},"parts":{},"hud":{"parts":{},"tier":null}}"#,
    )
    .unwrap();
    let o = run_with(&[FIXTURE, "--ledger", l.to_str().unwrap()], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o)
        .1
        .contains("holds progress for lab `other` v1, not `run-fixture` v2"));

    // --restart replaces it.
    let o = run_with(
        &[FIXTURE, "--ledger", l.to_str().unwrap(), "--restart"],
        "2\n",
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(ledger(&l)["design"]["partA_prediction"], "B");
}

#[test]
fn default_ledger_lives_under_the_data_directory() {
    let d = tmp("xdg");
    let o = cmd(&[FIXTURE])
        .env("XDG_DATA_HOME", &d)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let p = d.join("labforge/run-fixture-v2.json");
    assert!(p.exists(), "{:?}", text(&o));
    assert!(text(&o).1.contains(p.to_str().unwrap()));

    let home = tmp("home");
    let o = cmd(&[FIXTURE])
        .env_remove("XDG_DATA_HOME")
        .env("HOME", &home)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(home
        .join(".local/share/labforge/run-fixture-v2.json")
        .exists());
}

#[test]
fn numeric_estimates_are_recorded_as_typed_not_rounded() {
    let d = tmp("typed");
    let l = d.join("l.json");
    let ls = l.to_str().unwrap();
    // Part A: B, continue (6), reflection B; part B's estimate `1,234.5678`; input ends in explore.
    let o = run_with(&[FIXTURE, "--ledger", ls], "B\n6\n2\n1,234.5678\n");
    assert_eq!(o.status.code(), Some(1), "{:?}", text(&o));
    let v = ledger(&l);
    // Not `1235` (the display rounding): what the student typed, separators removed.
    assert_eq!(v["parts"]["b"]["prediction"], "1234.5678");
    assert_eq!(v["parts"]["b"]["prediction_correct"], false);
}

#[test]
fn record_means_the_same_as_the_pages_export() {
    let d = tmp("agree");
    let l = d.join("l.json");
    let ls = l.to_str().unwrap();
    // Every question answered (batch moved to 16 on the way); input ends at the decision log.
    let o = run_with(&[FIXTURE, "--ledger", ls], "B\n6\n2\n25\n3\n16\n4\n1\n");
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}\n{err}");
    let v = ledger(&l);
    // `complete`: every prediction and reflection answered (the page's definition); where the
    // terminal stands is `position`.
    assert_eq!(v["complete"], true, "{v}");
    assert_eq!(v["position"], "synthesis");
    // Whole numbers as the page's JSON.stringify writes them: `16`, not `16.0`.
    let raw = std::fs::read_to_string(&l).unwrap();
    assert!(raw.contains("\"batch\": 16\n"), "{raw}");
    assert!(!raw.contains(".0\n") && !raw.contains(".0,"), "{raw}");

    // Every control of every part at the position it was left, the default where untouched, in
    // the lab's order: the page records its controls that way from the moment it loads.
    let keys = |pid: &str| -> Vec<String> {
        v["parts"][pid]["controls"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect()
    };
    assert_eq!(keys("a"), ["utilization", "cs", "priority"], "{v}");
    assert_eq!(keys("b"), ["jobs", "causes", "batch"], "{v}");
    assert_eq!(v["parts"]["a"]["controls"]["utilization"], 0.8);
    assert_eq!(v["parts"]["a"]["controls"]["cs"], 3);
    assert_eq!(v["parts"]["a"]["controls"]["priority"], false);
    assert_eq!(
        v["parts"]["b"]["controls"]["causes"],
        serde_json::json!({"waiting": true, "failures": true})
    );

    // A page export (no `position`) with every question answered resumes at the synthesis:
    // no part is walked again and nothing answered is asked again.
    let mut page = v.clone();
    page.as_object_mut().unwrap().remove("position");
    std::fs::write(&l, serde_json::to_string_pretty(&page).unwrap()).unwrap();
    let o = run_with(&[FIXTURE, "--ledger", ls], "From the page.\n");
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert!(out.contains("Resuming at the synthesis"), "{out}");
    assert!(!out.contains("What next?"), "{out}");
    assert!(!out.contains("Reflection"), "{out}");
    let v = ledger(&l);
    assert_eq!(v["decision_log"], "From the page.");
    assert_eq!(v["position"], "done");

    // A page export halfway (part A answered) resumes at part B's prediction.
    let mut half = page.clone();
    half["parts"]["b"] = serde_json::json!({});
    half["complete"] = false.into();
    std::fs::write(&l, serde_json::to_string_pretty(&half).unwrap()).unwrap();
    let o = run_with(&[FIXTURE, "--ledger", ls], "");
    let (out, _) = text(&o);
    assert!(out.contains("Resuming at part B (prediction)"), "{out}");
    assert!(!out.contains("Queue explorer"), "{out}");

    // Part B's prediction answered on the page: the terminal resumes at its exploration.
    half["parts"]["b"] = serde_json::json!({"prediction": "25"});
    std::fs::write(&l, serde_json::to_string_pretty(&half).unwrap()).unwrap();
    let o = run_with(&[FIXTURE, "--ledger", ls], "");
    let (out, _) = text(&o);
    assert!(out.contains("Resuming at part B (explore)"), "{out}");
    assert!(out.contains("Your prediction: How many hours"), "{out}");
}

#[test]
fn a_record_of_another_format_is_refused() {
    let d = tmp("format");
    let l = d.join("l.json");
    std::fs::write(
        &l,
        r#"{"format":"labforge-ledger/3","lab":"run-fixture","version":2,"chapter":"x","design":{},"parts":{},"hud":{"parts":{},"tier":null}}"#,
    )
    .unwrap();
    let o = run_with(&[FIXTURE, "--ledger", l.to_str().unwrap()], "");
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("is a `labforge-ledger/3` record; this labforge reads `labforge-ledger/2` (and labforge-ledger/1)"),
        "{err}"
    );
}

/// A prediction is locked in with its time (UTC, RFC 3339); the first answer is the record's.
#[test]
fn the_terminal_locks_the_prediction_in_with_its_time() {
    let d = tmp("lock");
    let l = d.join("l.json");
    let ls = l.to_str().unwrap();
    let o = run_with(
        &[FIXTURE, "--ledger", ls],
        "B
",
    );
    assert_eq!(o.status.code(), Some(1), "{:?}", text(&o));
    let v = ledger(&l);
    assert_eq!(v["format"], "labforge-ledger/2");
    assert_eq!(v["parts"]["a"]["prediction"], "B");
    let at = v["parts"]["a"]["prediction_locked_at"]
        .as_str()
        .unwrap_or_default();
    let shape: String = at
        .chars()
        .map(|c| if c.is_ascii_digit() { '9' } else { c })
        .collect();
    assert_eq!(shape, "9999-99-99T99:99:99Z", "{at}");
    assert!(v["parts"]["a"].get("prediction_attempts").is_none());
    // Resuming never asks again: the locked answer stays, with its time.
    let o = run_with(&[FIXTURE, "--ledger", ls], "");
    assert_eq!(o.status.code(), Some(1), "{:?}", text(&o));
    let w = ledger(&l);
    assert_eq!(w["parts"]["a"]["prediction"], "B");
    assert_eq!(w["parts"]["a"]["prediction_locked_at"], at);
}

/// Records written before commitment existed (format 1) still load and resume, answers kept;
/// the next save writes the current format.
#[test]
fn a_format_1_record_still_loads_and_resumes() {
    let d = tmp("v1");
    let l = d.join("l.json");
    std::fs::write(
        &l,
        r#"{"format":"labforge-ledger/1","lab":"run-fixture","version":2,"chapter":"x","design":{},"parts":{"a":{"prediction":"B"}},"hud":{"parts":{},"tier":null},"position":"a.explore"}"#,
    )
    .unwrap();
    let o = run_with(&[FIXTURE, "--ledger", l.to_str().unwrap()], "");
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}\n{err}");
    assert!(out.contains("Resuming at part A (explore)"), "{out}");
    assert!(!err.contains("record; this labforge reads"), "{err}");
    let v = ledger(&l);
    assert_eq!(v["format"], "labforge-ledger/2");
    assert_eq!(v["parts"]["a"]["prediction"], "B");
    assert_eq!(v["parts"]["a"]["prediction_correct"], true);
    // No lock time is invented for an answer given before there were any.
    assert!(v["parts"]["a"].get("prediction_locked_at").is_none());
}
