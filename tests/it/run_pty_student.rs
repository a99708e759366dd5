//! `labforge run` and the student's name on a pseudo-terminal (tests/inputs/student_term: a
//! course of two labs of one question each). The name is asked once, when the report is about
//! to be written: the typed name lands in the course record and the written report, and the
//! next lab of the course does not ask and names the student too; Enter skips and the skip is
//! kept (the course's next lab, or a lab on its own, does not ask again); `--student` sets it
//! without a question. What is typed reaches the screen only through the one filter.

use crate::common::pty;
use pty::*;
use std::path::Path;

const COURSE: &str = "tests/inputs/student_term";
const ASKED: &str = "Your name or student id (optional):";

fn lab(name: &str) -> String {
    course_lab(COURSE, name)
}

fn report(d: &Path, lab: &str) -> String {
    let f = d.join(format!("{lab}-report.md"));
    std::fs::read_to_string(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()))
}

/// `labforge run LAB --ledger D/LAB.json EXTRA` at `cols`, the one question answered, up to
/// the name question (when `asked`) or the end. Returns the session and what it showed.
fn answer(
    lab_path: &str,
    l: &Path,
    extra: &[&str],
    cols: u16,
) -> (expectrl::session::OsSession, String) {
    let mut args = vec![lab_path, "--ledger", arg(l)];
    args.extend_from_slice(extra);
    let mut s = spawn(&args, cols);
    let mut shown = expect(&mut s, "Enter choose");
    send(&mut s, "\r");
    shown += &expect(&mut s, "Press Enter to continue");
    send(&mut s, "\r");
    (s, shown)
}

/// Everything until the process ends, and its exit code ([`pty::finish`] gives only what came
/// before the end's match: here the end's text itself is needed).
fn finish(s: &mut expectrl::session::OsSession) -> (String, i32) {
    use expectrl::Expect;
    let out = match s.expect(expectrl::Eof) {
        Ok(c) => {
            let mut t = String::from_utf8_lossy(c.before()).into_owned();
            for m in c.matches() {
                t.push_str(&String::from_utf8_lossy(m));
            }
            t
        }
        Err(e) => panic!("waiting for the end: {e}"),
    };
    match s.get_process().wait().expect("wait") {
        expectrl::process::unix::WaitStatus::Exited(_, code) => (out, code),
        other => panic!("not exited: {other:?}"),
    }
}

/// `shown` with its line breaks and runs of spaces as one space (a narrow screen wraps).
fn flat(shown: &str) -> String {
    shown.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// No line of `shown` is wider than `cols` (the prompt and its note wrap).
fn fits(shown: &str, cols: usize) {
    for l in shown.lines() {
        let w = l.trim_end_matches('\r').chars().count();
        assert!(w <= cols, "{w} > {cols}: {l:?}\n{shown}");
    }
}

/// Lab 1 asks once, rejects a name past 100 characters, takes one with an escape and a bidi
/// override typed in (neither reaches the screen or the record); the course record and the
/// report carry it. Lab 2 does not ask and its report names the student too.
#[test]
fn the_course_asks_once_and_every_report_names_the_student() {
    let d = tmp("student-course");
    let (mut s, _) = answer(&lab("first"), &d.join("first.json"), &[], 100);
    let shown = expect(&mut s, ASKED);
    assert!(
        flat(&shown).contains("Your report is written next."),
        "{shown}"
    );
    assert!(
        flat(&shown).contains("no lab of the course asks again"),
        "{shown}"
    );
    fits(&shown, 100);
    send(&mut s, &format!("{}\r", "x".repeat(101)));
    expect(&mut s, "at most 100 characters, not 101");
    expect(&mut s, ASKED);
    // ESC [ 2 J (clear the screen) and U+202E typed in: dropped by the widget.
    send(&mut s, "Ada \u{202e}Love\x1b[2Jlace\r");
    let (rest, code) = finish(&mut s);
    assert_eq!(code, 0, "{rest}");
    assert!(rest.contains("Lab complete."), "{rest}");
    assert!(rest.contains("Your report is written to"), "{rest}");
    assert!(
        !rest.contains('\u{202e}') && !rest.contains("\x1b[2J"),
        "{rest:?}"
    );
    let name = record(&d)["student"].as_str().unwrap().to_string();
    assert!(
        name.starts_with("Ada ") && name.ends_with("lace"),
        "{name:?}"
    );
    assert!(
        !name.contains('\u{202e}') && !name.contains('\x1b'),
        "{name:?}"
    );
    assert!(report(&d, "first").contains(&format!("- Student: {name}")));

    let (s2, shown) = answer(&lab("second"), &d.join("second.json"), &[], 100);
    let mut s2 = s2;
    let (rest, code) = finish(&mut s2);
    assert_eq!(code, 0, "{rest}");
    assert!(!format!("{shown}{rest}").contains(ASKED), "{shown}{rest}");
    assert!(report(&d, "second").contains(&format!("- Student: {name}")));
}

/// At 60 columns: Enter on the empty line skips, says so, and the course record keeps the skip;
/// the report has no `Student:` line and the course's next lab does not ask.
#[test]
fn enter_skips_and_the_course_remembers_it() {
    let d = tmp("student-skip");
    let (mut s, _) = answer(&lab("first"), &d.join("first.json"), &[], 60);
    let shown = expect(&mut s, ASKED);
    fits(&shown, 60);
    send(&mut s, "\r");
    let said = expect(&mut s, "Lab complete.");
    assert!(
        flat(&said).contains("No name on the reports; the course's other labs do not ask again."),
        "{said}"
    );
    let (rest, code) = finish(&mut s);
    assert_eq!(code, 0, "{rest}");
    let r = record(&d);
    assert_eq!(r["student_skipped"], true, "{r}");
    assert!(r.get("student").is_none(), "{r}");
    assert!(!report(&d, "first").contains("Student:"));

    let (mut s2, shown) = answer(&lab("second"), &d.join("second.json"), &[], 60);
    let (rest, code) = finish(&mut s2);
    assert_eq!(code, 0, "{rest}");
    assert!(!format!("{shown}{rest}").contains(ASKED), "{shown}{rest}");
    assert!(!report(&d, "second").contains("Student:"));
}

/// `--student NAME` sets the name without a question; the report names the student, and the
/// run's last lines say the name, through the one filter (an OSC title sequence and a bidi
/// override in it reach the screen as U+FFFD).
#[test]
fn student_flag_sets_the_name_without_asking() {
    let d = tmp("student-flag");
    let (mut s, shown) = answer(
        &lab("first"),
        &d.join("first.json"),
        &["--student", "Grace Hopper"],
        100,
    );
    let (rest, code) = finish(&mut s);
    assert_eq!(code, 0, "{rest}");
    assert!(!format!("{shown}{rest}").contains(ASKED), "{shown}{rest}");
    assert!(
        rest.contains("Student on the report: Grace Hopper"),
        "{rest}"
    );
    assert_eq!(record(&d)["student"], "Grace Hopper");
    assert!(report(&d, "first").contains("- Student: Grace Hopper"));

    let hostile = "Eve \u{1b}]0;pwned\u{7} \u{202e}Mallory";
    let (mut s, shown) = answer(
        &lab("second"),
        &d.join("second.json"),
        &["--student", hostile],
        100,
    );
    let (rest, code) = finish(&mut s);
    assert_eq!(code, 0, "{rest}");
    assert!(!format!("{shown}{rest}").contains(ASKED), "{shown}{rest}");
    assert!(
        rest.contains("Student on the report: Eve \u{fffd}]0;pwned\u{fffd} \u{fffd}Mallory"),
        "{rest:?}"
    );
    assert!(
        !rest.contains("\u{1b}]0;") && !rest.contains('\u{202e}'),
        "{rest:?}"
    );
}

/// A lab on its own (no course.yaml above it) asks once per record: the skip is kept in its
/// ledger, and a run on that record does not ask again.
#[test]
fn a_lab_on_its_own_keeps_the_skip_in_its_ledger() {
    let d = tmp("student-alone");
    let src = d.join("alone.yaml");
    std::fs::copy(lab("first"), &src).unwrap();
    let l = d.join("alone.json");
    let (mut s, _) = answer(arg(&src), &l, &[], 60);
    let shown = expect(&mut s, ASKED);
    assert!(
        flat(&shown).contains("this lab does not ask again"),
        "{shown}"
    );
    fits(&shown, 60);
    send(&mut s, "\r");
    let said = expect(&mut s, "Lab complete.");
    assert!(
        flat(&said).contains("No name on the report; this lab does not ask again."),
        "{said}"
    );
    let (_, code) = finish(&mut s);
    assert_eq!(code, 0);
    let v = ledger(&l);
    assert_eq!(v["student_skipped"], true, "{v}");

    // The same record, its answer taken back to the question (the page's export has no
    // position): asked again only if the skip were lost.
    let mut v = v;
    v.as_object_mut().unwrap().remove("position");
    v["parts"]["a"] = serde_json::json!({});
    std::fs::write(&l, serde_json::to_string(&v).unwrap()).unwrap();
    let (mut s, shown) = answer(arg(&src), &l, &[], 60);
    let (rest, code) = finish(&mut s);
    assert_eq!(code, 0, "{rest}");
    assert!(!format!("{shown}{rest}").contains(ASKED), "{shown}{rest}");
    assert_eq!(ledger(&l)["student_skipped"], true);
}
