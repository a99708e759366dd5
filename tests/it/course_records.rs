//! The course record against hostile and concurrent input, with the real binary: an import with
//! invented parts changes nothing and names them; one that would replace the student's answers
//! asks first (a y/N question on a terminal, refused without one unless `--replace`); an oversized
//! file is refused before it is read; two labs of one course run at the same time both stay in
//! the shared record, every time.

use crate::common;
use crate::common::pty;
use common::root;
use serde_json::{json, Value as J};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_labforge"))
}

fn labforge(data: &Path, args: &[&str]) -> Output {
    Command::new(bin())
        .args(args)
        .env("XDG_DATA_HOME", data)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .current_dir(root())
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

const DECISION: &str = "Checkpoint every 30 minutes, asynchronously.";

fn lab1_answers() -> String {
    format!("predictions: {{a: C, b: D, c: A, d: B}}\nreflections: {{a: B, b: A, c: B, d: B}}\ndecision_log: \"{DECISION}\"\n")
}

const LAB2_ANSWERS: &str =
    "predictions: {a: D, b: A, c: C, d: B}\nreflections: {a: A, b: B, c: B, d: A}\n";

/// A folder with lab 1 (fault-tolerance) done by `labforge run --ledger DIR/...`: the course
/// record is `DIR/course-ID.json`. Returns (dir, the record's path).
fn lab1_done(tmp: &Path) -> (PathBuf, PathBuf) {
    let dir = tmp.join("rec");
    std::fs::create_dir_all(&dir).unwrap();
    let a1 = tmp.join("a1.yaml");
    std::fs::write(&a1, lab1_answers()).unwrap();
    let led = dir.join("fault-tolerance-v2.json");
    let o = labforge(
        &tmp.join("data"),
        &[
            "run",
            "labs/fault-tolerance.yaml",
            "--ledger",
            led.to_str().unwrap(),
            "--answers",
            a1.to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    let id = labforge::course::course_id("Machine Learning Systems");
    let rec = dir.join(format!("course-{id}.json"));
    assert!(rec.exists());
    (dir, rec)
}

fn import(tmp: &Path, dir: &Path, file: &Path, extra: &[&str]) -> Output {
    let led = dir.join("fault-tolerance-v2.json");
    let mut args = vec![
        "run",
        "labs",
        "--ledger",
        led.to_str().unwrap(),
        "--import",
        file.to_str().unwrap(),
    ];
    args.extend(extra);
    labforge(&tmp.join("data"), &args)
}

fn course_id() -> String {
    labforge::course::course_id("Machine Learning Systems")
}

/// The student's record with lab 1's decision log changed to `log`.
fn other_log(rec: &Path, log: &str) -> J {
    let mut r: J = serde_json::from_slice(&std::fs::read(rec).unwrap()).unwrap();
    r["labs"]["fault-tolerance"]["decision_log"] = J::from(log);
    r
}

#[test]
fn an_import_with_invented_parts_changes_nothing_and_names_them() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, rec) = lab1_done(tmp.path());
    let before = std::fs::read(&rec).unwrap();
    // The 492-byte wipe: ten invented parts (and prototype keys) with more "answers" than the
    // student's four answered parts.
    let mut parts = serde_json::Map::new();
    for k in [
        "x0",
        "x1",
        "x2",
        "x3",
        "x4",
        "x5",
        "x6",
        "x7",
        "__proto__",
        "constructor",
    ] {
        parts.insert(k.into(), json!({"prediction": "A", "reflection": "A"}));
    }
    let wipe = json!({"format": "labforge-course/1", "course": course_id(), "labs": {"fault-tolerance":
        {"format": "labforge-ledger/2", "lab": "fault-tolerance", "version": 2, "parts": parts}}});
    let f = tmp.path().join("wipe.json");
    std::fs::write(&f, wipe.to_string()).unwrap();
    let o = import(tmp.path(), &dir, &f, &[]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("Nothing imported"), "{t}");
    for k in ["x0", "x7", "__proto__", "constructor"] {
        assert!(
            t.contains(&format!("a part `{k}` the lab does not have")),
            "{k}: {t}"
        );
    }
    assert_eq!(std::fs::read(&rec).unwrap(), before, "the record changed");
    assert!(
        t.contains("When Failure is Routine (35-40 min) — done"),
        "{t}"
    );
}

#[test]
fn an_import_that_would_replace_answers_is_refused_without_a_terminal_and_taken_with_replace() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, rec) = lab1_done(tmp.path());
    let before = std::fs::read(&rec).unwrap();
    let f = tmp.path().join("other.json");
    std::fs::write(&f, other_log(&rec, "Never checkpoint.").to_string()).unwrap();
    let o = import(tmp.path(), &dir, &f, &[]);
    let t = text(&o);
    assert!(!o.status.success(), "{t}");
    assert!(
        t.contains("When Failure is Routine: the decision log"),
        "{t}"
    );
    assert!(t.contains("pass --replace"), "{t}");
    assert_eq!(std::fs::read(&rec).unwrap(), before, "the record changed");
    // The same file again: nothing new is said as such.
    let same = tmp.path().join("same.json");
    std::fs::write(&same, &before).unwrap();
    let t = text(&import(tmp.path(), &dir, &same, &[]));
    assert!(t.contains("Nothing imported"), "{t}");
    // Forced.
    let o = import(tmp.path(), &dir, &f, &["--replace"]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("replaced the decision log"), "{t}");
    let r: J = serde_json::from_slice(&std::fs::read(&rec).unwrap()).unwrap();
    assert_eq!(
        r["labs"]["fault-tolerance"]["decision_log"],
        "Never checkpoint."
    );
}

#[test]
fn on_a_terminal_the_import_asks_before_replacing() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, rec) = lab1_done(tmp.path());
    let f = tmp.path().join("other.json");
    std::fs::write(&f, other_log(&rec, "Never checkpoint.").to_string()).unwrap();
    let led = dir.join("fault-tolerance-v2.json");
    let run = |answer: &str| {
        let mut s = pty::spawn(
            &[
                "labs",
                "--ledger",
                led.to_str().unwrap(),
                "--import",
                f.to_str().unwrap(),
            ],
            100,
        );
        let asked = pty::expect(&mut s, "[y/N]");
        assert!(asked.contains("the decision log"), "{asked}");
        pty::send(&mut s, answer);
        let out = pty::expect(&mut s, "Course record:");
        let (rest, code) = pty::finish(&mut s);
        assert_eq!(code, 0, "{out}{rest}");
        out
    };
    let out = run("\r");
    assert!(out.contains("kept yours for the decision log"), "{out}");
    let r: J = serde_json::from_slice(&std::fs::read(&rec).unwrap()).unwrap();
    assert_eq!(r["labs"]["fault-tolerance"]["decision_log"], DECISION);
    let out = run("y\r");
    assert!(out.contains("replaced the decision log"), "{out}");
    let r: J = serde_json::from_slice(&std::fs::read(&rec).unwrap()).unwrap();
    assert_eq!(
        r["labs"]["fault-tolerance"]["decision_log"],
        "Never checkpoint."
    );
}

/// Runs `labforge ARGS`, its output in files, and returns (exit code, stderr, its peak RSS in KiB).
fn run_measured(data: &Path, args: &[&str]) -> (i32, String, i64) {
    let err = data.join("stderr.txt");
    std::fs::create_dir_all(data).unwrap();
    // Reaped by wait4 below (for its rusage), not by `wait`.
    #[allow(clippy::zombie_processes)]
    let child = Command::new(bin())
        .args(args)
        .env("XDG_DATA_HOME", data)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&err).unwrap())
        .current_dir(root())
        .spawn()
        .unwrap();
    let mut status = 0;
    // SAFETY: a zeroed rusage is valid; wait4 reaps only this child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as i32);
    (
        libc::WEXITSTATUS(status),
        std::fs::read_to_string(&err).unwrap(),
        usage.ru_maxrss,
    )
}

#[test]
fn an_oversized_import_is_refused_before_it_is_read() {
    let tmp = tempfile::tempdir().unwrap();
    let big = tmp.path().join("big.json");
    // 100 MB (sparse: nothing is written to disk).
    std::fs::File::create(&big)
        .unwrap()
        .set_len(100 * 1024 * 1024)
        .unwrap();
    let (code, err, rss) = run_measured(
        &tmp.path().join("data"),
        &["run", "labs", "--import", big.to_str().unwrap()],
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("too large for a course record"), "{err}");
    // Reading it whole took over 100 MB; the refusal needs no more than the program itself. The
    // child's peak counts what it had when forked from this (large, many-threaded) test process,
    // so it is compared with the same program refusing a one-byte file.
    let small = tmp.path().join("small.json");
    std::fs::write(&small, "x").unwrap();
    let (_, _, base) = run_measured(
        &tmp.path().join("data"),
        &["run", "labs", "--import", small.to_str().unwrap()],
    );
    assert!(
        rss < base + 40 * 1024,
        "peak {rss} KiB, against {base} KiB for a one-byte file"
    );
}

#[test]
fn two_labs_of_one_course_run_at_once_both_stay_in_the_record() {
    let tmp = tempfile::tempdir().unwrap();
    let a1 = tmp.path().join("a1.yaml");
    let a2 = tmp.path().join("a2.yaml");
    std::fs::write(&a1, lab1_answers()).unwrap();
    std::fs::write(&a2, LAB2_ANSWERS).unwrap();
    let rounds = 20;
    let mut lost = Vec::new();
    for i in 0..rounds {
        let data = tmp.path().join(format!("data{i}"));
        let spawn = |lab: &str, answers: &Path| {
            Command::new(bin())
                .args(["run", lab, "--answers", answers.to_str().unwrap()])
                .env("XDG_DATA_HOME", &data)
                .env("NO_COLOR", "1")
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .current_dir(root())
                .spawn()
                .unwrap()
        };
        let p1 = spawn("labs/fault-tolerance.yaml", &a1);
        let p2 = spawn("labs/fleet-orchestration.yaml", &a2);
        for p in [p1, p2] {
            let o = p.wait_with_output().unwrap();
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        }
        let rec = data.join(format!("labforge/course-{}.json", course_id()));
        let r: J = serde_json::from_slice(&std::fs::read(&rec).unwrap()).unwrap();
        let labs: Vec<&String> = r["labs"].as_object().unwrap().keys().collect();
        if labs.len() != 2 {
            lost.push(format!("round {i}: {labs:?}"));
        }
    }
    assert!(
        lost.is_empty(),
        "a lab lost in {} of {rounds} rounds: {lost:?}",
        lost.len()
    );
}
