//! A lab's `carry_forward:` in the printed handouts (the files `labforge render --to markdown`
//! and `--to handout-html` write, student handout and answer key): at the top of the part it
//! names, the earlier lab's title and the prompt, then the student's decision log from the
//! course record given with `--record` — or, without one, a space to copy it into. A record of
//! another course, `--record` on the page, and labs in no course are errors, not a panic.

use std::path::{Path, PathBuf};
use std::process::Command;

const LAB: &str = "labs/fleet-orchestration.yaml";
const DECISION: &str =
    "Checkpoint every 20 min: <script>alert(1)</script> *MTBF* at scale.\nSecond line.";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn render(to: &str, out: &Path, extra: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_labforge"))
        .current_dir(root())
        .args(["render", LAB, "--to", to, "-o", out.to_str().unwrap()])
        .args(extra)
        .output()
        .unwrap()
}

/// Part `c`'s section of a handout: from its heading to the next part's.
fn part_c(text: &str, html: bool) -> String {
    let (start, end) = if html {
        (
            "<section class=\"part\" id=\"part-c\">",
            "<section class=\"part\" id=\"part-d\">",
        )
    } else {
        ("## Part C", "## Part D")
    };
    let from = text.find(start).expect("part c");
    let to = text[from..].find(end).map_or(text.len(), |i| from + i);
    text[from..to].to_string()
}

fn record(dir: &Path, course: &str) -> PathBuf {
    let p = dir.join("course-record.json");
    let rec = serde_json::json!({
        "format": "labforge-course/1",
        "course": course,
        "labs": { "fault-tolerance": {
            "format": "labforge-ledger/2", "lab": "fault-tolerance", "version": 2,
            "parts": {}, "decision_log": DECISION,
        } },
    });
    std::fs::write(&p, rec.to_string()).unwrap();
    p
}

fn course_id() -> String {
    labforge::course::load(&root().join("labs/course.yaml"))
        .map_err(|_| "labs/course.yaml loads")
        .unwrap()
        .id
}

#[test]
fn handouts_print_the_carried_decision_or_a_space_for_it() {
    let dir = tempfile::tempdir().unwrap();
    let rec = record(dir.path(), &course_id());
    for (to, ext) in [("markdown", "md"), ("handout-html", "html")] {
        let html = ext == "html";
        for key in [false, true] {
            let file = if key {
                format!("fleet-orchestration-key.{ext}")
            } else {
                format!("fleet-orchestration.{ext}")
            };
            let key_arg: &[&str] = if key { &["--answer-key"] } else { &[] };
            let blank = dir.path().join(format!("{to}-{key}-blank"));
            let o = render(to, &blank, key_arg);
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            let c = part_c(&std::fs::read_to_string(blank.join(&file)).unwrap(), html);
            assert!(c.contains("When Failure is Routine"), "{to} {key}: {c}");
            assert!(
                c.contains("Preemption is a checkpoint and a restart"),
                "{c}"
            );
            assert!(c.contains("copy it here"), "{to} {key}: {c}");
            let space = if html {
                "<div class=\"answer-space\">"
            } else {
                "```text"
            };
            assert!(c.contains(space), "{to} {key}: {c}");
            assert!(!c.contains("Checkpoint every 20 min"), "{c}");

            let filled = dir.path().join(format!("{to}-{key}-filled"));
            let o = render(
                to,
                &filled,
                &[key_arg, &["--record", rec.to_str().unwrap()]].concat(),
            );
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            let c = part_c(&std::fs::read_to_string(filled.join(&file)).unwrap(), html);
            assert!(c.contains("Checkpoint every 20 min"), "{to} {key}: {c}");
            assert!(!c.contains("copy it here"), "{to} {key}: {c}");
            assert!(!c.contains("<script>"), "the student's text is inert: {c}");
            if html {
                assert!(
                    c.contains(
                        "<blockquote class=\"decision\">Checkpoint every 20 min: &lt;script&gt;"
                    ),
                    "{c}"
                );
            } else {
                assert!(c.contains("> Checkpoint every 20 min"), "{c}");
                assert!(c.contains("> Second line."), "{c}");
            }
        }
    }
}

/// `labforge render LAB --to TO -o OUT --record RECORD` fails: its error output.
fn refused(lab: &str, to: &str, out: &Path, record: &Path) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_labforge"))
        .current_dir(root())
        .args(["render", lab, "--to", to, "-o"])
        .arg(out)
        .arg("--record")
        .arg(record)
        .output()
        .unwrap();
    assert!(!o.status.success(), "{to} with {}", record.display());
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn a_wrong_record_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = |n: &str| dir.path().join(n);
    let other = record(dir.path(), "another-course-0000");
    let err = refused(LAB, "markdown", &out("a"), &other);
    assert!(err.contains("another-course-0000"), "{err}");
    let err = refused(LAB, "html", &out("b"), &other);
    assert!(err.contains("--to markdown"), "{err}");
    let junk = out("junk.json");
    std::fs::write(&junk, "{\"format\": \"labforge-ledger/2\"}").unwrap();
    let err = refused(LAB, "markdown", &out("c"), &junk);
    // A diagnostic of the record with a hint, through the one printer (it was `error: FILE: …`).
    assert!(
        err.contains(&format!(
            "{}: error: not a labforge course record (`format: labforge-course/1`)\n  = hint: --record takes a course record",
            junk.display()
        )),
        "{err}"
    );
    let err = refused(
        "tests/inputs/ok_minimal.yaml",
        "markdown",
        &out("d"),
        &other,
    );
    assert!(err.contains("in no course"), "{err}");
}
