//! Hostile or broken progress records: a save never replaces anything but a regular file (a
//! symbolic link is followed, a device or FIFO refused), a byte-order mark is read, values the lab
//! cannot have are dropped with a message, and the file as it was is always kept.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const FIXTURE: &str = "tests/inputs/run_fixture.yaml";

fn run(ledger: &Path, extra: &[&str], input: &str) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_labforge"));
    c.args(["run", FIXTURE, "--ledger", ledger.to_str().unwrap()])
        .args(extra)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    use std::io::Write;
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    child.wait_with_output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A real record: part a predicted (option 2), then input ends.
fn a_record(dir: &Path) -> PathBuf {
    let p = dir.join("real.json");
    run(&p, &[], "2\n");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
    assert_eq!(v["parts"]["a"]["prediction"], "B");
    p
}

#[test]
fn a_symlinked_ledger_is_followed_and_stays_a_link() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("store/target.json");
    std::fs::create_dir_all(target.parent().unwrap()).unwrap();
    std::fs::write(&target, std::fs::read(a_record(dir.path())).unwrap()).unwrap();
    let link = dir.path().join("link.json");
    std::os::unix::fs::symlink("store/target.json", &link).unwrap();
    // A temporary left by a killed save sits beside the target, where saves write.
    let stale = dir.path().join("store/.target.json.4242.tmp");
    std::fs::write(&stale, "half a record").unwrap();
    // Resume and move a control: the save goes through the link.
    let o = run(&link, &[], "1\n0.5\n");
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink(),
        "the link was replaced by a file: {}",
        stderr(&o)
    );
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&target).unwrap()).unwrap();
    assert_eq!(
        v["parts"]["a"]["controls"]["utilization"],
        0.5,
        "{}",
        stderr(&o)
    );
    assert!(
        !stale.exists(),
        "the killed save's temporary beside the target was left"
    );
}

#[test]
fn a_fifo_or_directory_is_never_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo.json");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let folder = dir.path().join("folder.json");
    std::fs::create_dir(&folder).unwrap();
    for (path, restart) in [
        (&fifo, false),
        (&fifo, true),
        (&folder, false),
        (&folder, true),
    ] {
        let args: &[&str] = if restart { &["--restart"] } else { &[] };
        let o = run(path, args, "2\n");
        assert!(!o.status.success());
        assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
    }
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
    assert!(std::fs::symlink_metadata(&folder).unwrap().is_dir());
}

#[test]
fn a_byte_order_mark_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let p = a_record(dir.path());
    let mut bytes = "\u{FEFF}".as_bytes().to_vec();
    bytes.extend(std::fs::read(&p).unwrap());
    std::fs::write(&p, bytes).unwrap();
    let o = run(&p, &[], "");
    assert!(
        !stderr(&o).contains("not a labforge ledger"),
        "{}",
        stderr(&o)
    );
    // Resumed past the answered prediction: the explore step's menu is shown.
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(!out.contains("What is the average wait"), "{out}");
}

#[test]
fn values_the_lab_cannot_have_are_dropped_and_the_old_file_kept() {
    let dir = tempfile::tempdir().unwrap();
    let p = a_record(dir.path());
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
    v["parts"]["a"]["prediction"] = "ZZZ".into();
    v["parts"]["a"]["controls"]["utilization"] = "abc".into();
    v["parts"]["a"]["controls"]["cs"] = 7.into();
    v["parts"]["b"]["reflection"] = "Q".into();
    v["parts"]["zz"] = serde_json::json!({"prediction": "A"});
    let hostile = serde_json::to_string_pretty(&v).unwrap();
    std::fs::write(&p, &hostile).unwrap();
    let o = run(&p, &[], "");
    let err = stderr(&o);
    for said in ["`ZZZ`", "Utilization", "Workload", "`Q`", "`zz`"] {
        assert!(err.contains(said), "no word on {said}:\n{err}");
    }
    let bak = dir.path().join("real.json.bak");
    assert_eq!(std::fs::read_to_string(&bak).unwrap(), hostile);
    let now = std::fs::read_to_string(&p).unwrap();
    for gone in ["ZZZ", "\"abc\"", "\"zz\"", "\"Q\""] {
        assert!(!now.contains(gone), "{gone} re-saved:\n{now}");
    }
    let v: Value = serde_json::from_str(&now).unwrap();
    assert_eq!(v["parts"]["a"]["controls"]["utilization"], 0.8);
    assert_eq!(v["parts"]["a"]["controls"]["cs"], 3);
}

/// Looks after locking in are kept when they answer the question, dropped (with a word) when
/// they do not; a prediction dropped as no answer takes its lock time and looks with it.
#[test]
fn looks_that_answer_nothing_are_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let p = a_record(dir.path());
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
    v["parts"]["a"]["prediction_attempts"] = serde_json::json!(["A", "YYY", "C"]);
    v["parts"]["b"]["prediction_attempts"] = serde_json::json!(["12"]);
    std::fs::write(&p, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    let o = run(&p, &[], "");
    let err = stderr(&o);
    assert!(err.contains("`YYY`") && err.contains("`12`"), "{err}");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
    assert_eq!(v["parts"]["a"]["prediction"], "B");
    assert_eq!(
        v["parts"]["a"]["prediction_attempts"],
        serde_json::json!(["A", "C"])
    );
    // Part b has no locked prediction: no looks.
    assert!(v["parts"]["b"].get("prediction_attempts").is_none(), "{v}");
}

#[test]
fn restart_keeps_the_old_file() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("broken.json");
    std::fs::write(&p, "{ not json").unwrap();
    let o = run(&p, &[], "");
    assert!(!o.status.success());
    assert!(stderr(&o).contains("broken.json.bak"), "{}", stderr(&o));
    run(&p, &["--restart"], "2\n");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("broken.json.bak")).unwrap(),
        "{ not json"
    );
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
    assert_eq!(v["parts"]["a"]["prediction"], "B");
}
