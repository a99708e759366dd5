//! Helpers for the tests of `labforge run` without a terminal (`run_lines.rs`, `run_answers.rs`,
//! `run_record.rs`): the fixture lab, a fresh folder per test, the command with stdin piped,
//! `NO_COLOR` and 80 columns, and the ledger file it leaves.

use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The lab these tests run (`run-fixture` v2): two parts, each with a prediction and a
/// reflection, then a decision log.
pub const FIXTURE: &str = "tests/inputs/run_fixture.yaml";

/// A fresh, empty folder for the test `name`.
pub fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("labforge-run-lines-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `labforge run ARGS` with stdin, stdout and stderr piped, `NO_COLOR` and 80 columns.
pub fn cmd(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_labforge"));
    c.arg("run")
        .args(args)
        .env("NO_COLOR", "1")
        .env("COLUMNS", "80")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

/// Runs with `input` on stdin (then EOF).
pub fn run_with(args: &[&str], input: &str) -> Output {
    let mut child = cmd(args).spawn().unwrap();
    // The program may stop reading early (that is what some tests check).
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    child.wait_with_output().unwrap()
}

/// `labforge run LAB --ledger LEDGER --answers ANSWERS`, with nothing on stdin.
pub fn run_answers(lab: &str, ledger: &Path, answers: &Path) -> Output {
    run_with(
        &[
            lab,
            "--ledger",
            ledger.to_str().unwrap(),
            "--answers",
            answers.to_str().unwrap(),
        ],
        "",
    )
}

/// The ledger (record) file at `p`, parsed.
pub fn ledger(p: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

/// Standard output and standard error as text.
pub fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}
