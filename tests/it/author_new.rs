//! `labforge new`: the scaffold passes `check` and `test` as written, never overwrites a lab,
//! and writes the schema its modeline names.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_labforge"))
}

fn temp_dir(tag: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let d = std::env::temp_dir().join(format!("labforge-{tag}-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run(dir: &Path, args: &[&str]) -> Output {
    bin().args(args).current_dir(dir).output().unwrap()
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn new_lab_passes_check_and_test() {
    let dir = temp_dir("new");
    let o = run(&dir, &["new", "queue-wall", "--dir", "labs"]);
    let (_, err) = text(&o);
    assert!(o.status.success(), "{err}");
    let lab = dir.join("labs/queue-wall.yaml");
    let src = std::fs::read_to_string(&lab).unwrap();
    assert!(
        src.starts_with("# yaml-language-server: $schema=./lab.schema.json\n"),
        "{src}"
    );
    assert!(src.contains("\nid: \"queue-wall\"\n"));
    // The schema the modeline names is `labforge schema`'s output.
    let schema = std::fs::read_to_string(dir.join("labs/lab.schema.json")).unwrap();
    let printed = run(&dir, &["schema"]);
    assert_eq!(schema, String::from_utf8_lossy(&printed.stdout));

    let o = run(&dir, &["check", "labs/queue-wall.yaml"]);
    let (_, err) = text(&o);
    assert!(o.status.success(), "check failed:\n{err}");
    assert!(err.contains("0 error(s), 0 warning(s)"), "{err}");

    let o = run(&dir, &["test", "labs/queue-wall.yaml"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "test failed:\n{out}\n{err}");
    assert!(out.trim_end().ends_with("2 passed, 0 failed"), "{out}");

    // The scaffold shows every feature it promises.
    for key in [
        "prediction:",
        "scenario:",
        "claim: wait_min",
        "- slider:",
        "- select:",
        "queue::pk_wait",
        "bands:",
        "- metrics:",
        "- panel:",
        "kind: line",
        "sweep:",
        "markers:",
        "feedback:",
        "math_peek:",
        "reflection:",
        "synthesis:",
        "decision_log:",
        "hud:",
        "tests:",
    ] {
        assert!(src.contains(key), "the scaffold lacks `{key}`");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn new_in_a_repository_labs_dir_points_at_its_schemas() {
    let dir = temp_dir("new-repo");
    std::fs::create_dir_all(dir.join("schemas")).unwrap();
    std::fs::write(dir.join("schemas/lab.schema.json"), "{}\n").unwrap();
    let o = run(&dir, &["new", "wall", "--dir", "labs"]);
    assert!(o.status.success(), "{}", text(&o).1);
    let src = std::fs::read_to_string(dir.join("labs/wall.yaml")).unwrap();
    assert!(src.starts_with("# yaml-language-server: $schema=../schemas/lab.schema.json\n"));
    assert!(!dir.join("labs/lab.schema.json").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn new_refuses_to_overwrite_and_keeps_an_existing_schema() {
    let dir = temp_dir("new-twice");
    std::fs::write(dir.join("lab.schema.json"), "{\"mine\": true}\n").unwrap();
    let o = run(&dir, &["new", "demo"]);
    assert!(o.status.success(), "{}", text(&o).1);
    assert_eq!(
        std::fs::read_to_string(dir.join("lab.schema.json")).unwrap(),
        "{\"mine\": true}\n"
    );
    assert!(
        text(&o).1.contains("names the existing ./lab.schema.json"),
        "{}",
        text(&o).1
    );
    assert!(std::fs::read_to_string(dir.join("demo.yaml"))
        .unwrap()
        .starts_with("# yaml-language-server: $schema=./lab.schema.json\n"));

    std::fs::write(dir.join("demo.yaml"), "edited by hand\n").unwrap();
    let o = run(&dir, &["new", "demo"]);
    let (_, err) = text(&o);
    assert!(!o.status.success());
    // A diagnostic of the file with a hint, through the one printer (issue 21 item 4).
    assert!(
        err.contains("demo.yaml: error: already exists; labforge new never overwrites a lab\n  = hint: choose another name, or delete the file first"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("demo.yaml")).unwrap(),
        "edited by hand\n"
    );

    let o = run(&dir, &["new", "../escape"]);
    assert!(!o.status.success());
    assert!(text(&o).1.contains("is not a lab name"), "{}", text(&o).1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_dir_that_is_a_file_is_named_as_such() {
    let dir = temp_dir("newfile");
    std::fs::write(dir.join("notes"), "x").unwrap();
    let o = run(&dir, &["new", "wall", "--dir", "notes"]);
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        err.contains("notes: error: is not a directory (--dir names where the lab goes)\n  = hint: give --dir a folder"),
        "{err}"
    );
}
