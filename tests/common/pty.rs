//! Helpers for the tests of `labforge run` on a pseudo-terminal (`run_keys.rs`): spawn it at
//! 100 columns (or `cols`) without colour, wait for text, send keys, read the ledger.

use expectrl::process::unix::WaitStatus;
use expectrl::session::OsSession;
use expectrl::{Eof, Expect, Session};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

pub const END: &str = "\x1b[F";

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh, empty folder for the test `name`.
/// The file of lab `name` in the fixture course `course` (`tests/inputs/…/labs/NAME.yaml`).
pub fn course_lab(course: &str, name: &str) -> String {
    root()
        .join(course)
        .join("labs")
        .join(format!("{name}.yaml"))
        .to_string_lossy()
        .into_owned()
}

/// A path as a command-line argument.
pub fn arg(p: &Path) -> &str {
    p.to_str().unwrap()
}

pub fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("labforge-run-keys-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `labforge run ARGS` on a pty `cols` wide, `NO_COLOR`.
pub fn spawn(args: &[&str], cols: u16) -> OsSession {
    let mut c = Command::new(env!("CARGO_BIN_EXE_labforge"));
    c.arg("run")
        .args(args)
        .env("COLUMNS", cols.to_string())
        .env("TERM", "xterm")
        .env("NO_COLOR", "1");
    let mut s = Session::spawn(c).expect("spawn on a pty");
    s.set_expect_timeout(Some(Duration::from_secs(20)));
    s
}

/// Waits for `what`; what came before it.
pub fn expect(s: &mut OsSession, what: &str) -> String {
    match s.expect(what) {
        Ok(c) => String::from_utf8_lossy(c.before()).into_owned(),
        Err(e) => panic!("waiting for {what:?}: {e}"),
    }
}

pub fn send(s: &mut OsSession, keys: &str) {
    s.send(keys).expect("send keys");
}

/// Everything until the process ends, and its exit code.
pub fn finish(s: &mut OsSession) -> (String, i32) {
    let out = match s.expect(Eof) {
        Ok(c) => String::from_utf8_lossy(c.before()).into_owned(),
        Err(e) => panic!("waiting for the end: {e}"),
    };
    match s.get_process().wait().expect("wait") {
        WaitStatus::Exited(_, code) => (out, code),
        other => panic!("not exited: {other:?}"),
    }
}

pub fn ledger(p: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

/// The course record the runs keep beside their ledgers in `d` (`course-*.json`).
pub fn record(d: &Path) -> Value {
    let f = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("course-") && n.ends_with(".json"))
        })
        .expect("a course record beside the ledgers");
    ledger(&f)
}

/// `labforge run LAB --ledger L` at 100 columns, through part A's prediction (the first option
/// locked in, its feedback passed) to the explore menu.
pub fn to_explore(lab: &Path, l: &Path) -> OsSession {
    to_explore_with(lab, l, &[])
}

/// [`to_explore`] with more arguments (`--track ID` for a lab with tracks: no track menu).
pub fn to_explore_with(lab: &Path, l: &Path, extra: &[&str]) -> OsSession {
    let mut args = vec![lab.to_str().unwrap(), "--ledger", l.to_str().unwrap()];
    args.extend_from_slice(extra);
    let mut s = spawn(&args, 100);
    expect(&mut s, "Enter choose");
    send(&mut s, "\r");
    expect(&mut s, "Press Enter to continue");
    send(&mut s, "\r");
    expect(&mut s, "What next?");
    expect(&mut s, "Enter choose");
    s
}
