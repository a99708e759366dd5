//! `labforge render LAB --to report --record RECORD` (issue 23 item 2): the report a student
//! hands in, made from their record — the terminal's ledger, the page's download or a course
//! record — with the student's text unable to become markup. The page's report is compared with
//! this one byte for byte in `tests/chromium/report_browser.rs`, the terminal's in
//! `run_report_file_is_the_clis`.

use crate::common;
use common::run::{run_answers, text, tmp};
use std::path::{Path, PathBuf};
use std::process::Command;

pub const LAB: &str = "tests/inputs/ok_report.yaml";

/// A written answer and a decision log that try every Markdown and HTML construct.
pub const HOSTILE: &str = "# Heading\\n<script>alert(1)</script> *bold* _it_ `code` [x](javascript:alert(1)) ![i](http://x/i.png)\\n- item\\n  + nested\\n12. twelve\\n> quoted\\n===\\n    indented code\\n<img src=x onerror=alert(2)> &amp; | a | b | ~~gone~~";

/// The answers file: every part answered, hostile text where the student writes.
pub fn answers(dir: &Path) -> PathBuf {
    let a = dir.join("answers.yaml");
    std::fs::write(
        &a,
        format!(
            "predictions: {{a: B}}\ncontrols: {{a: {{utilization: 0.9, cs: \"ML (C_s=3)\", priority: true}}, b: {{jobs: 120, causes: {{gpu: true}}}}}}\nreflections: {{a: A}}\nquestions: {{a: {{why: \"{HOSTILE}\"}}, b: {{levers: [A, C]}}}}\ndecision_log: \"Lower the <b>variance</b> first.\\n\\n1. then the rest\"\n"
        ),
    )
    .unwrap();
    a
}

/// `labforge render ARGS`.
pub fn render(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_labforge"))
        .arg("render")
        .args(args)
        .output()
        .unwrap()
}

/// The CLI's report of `record` for `lab`, written into `out`.
pub fn cli_report(lab: &str, record: &Path, out: &Path) -> String {
    let o = render(&[
        lab,
        "--to",
        "report",
        "--record",
        record.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    let (so, se) = text(&o);
    assert!(o.status.success(), "{so}\n{se}");
    let id = serde_json::from_str::<serde_json::Value>(&std::fs::read_to_string(record).unwrap())
        .ok()
        .and_then(|v| v["lab"].as_str().map(str::to_string))
        .unwrap_or_default();
    let file = if id.is_empty() {
        std::fs::read_dir(out)
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path()
    } else {
        out.join(format!("{id}-report.md"))
    };
    assert!(se.contains(&file.display().to_string()), "says where: {se}");
    std::fs::read_to_string(file).unwrap()
}

/// The terminal's record of [`answers`] with its times fixed (for a snapshot).
fn terminal_record(d: &Path) -> PathBuf {
    let l = d.join("ledger.json");
    let o = run_answers(LAB, &l, &answers(d));
    assert!(o.status.success(), "{:?}", text(&o));
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&l).unwrap()).unwrap();
    v["parts"]["a"]["prediction_locked_at"] = "2026-06-01T10:00:00Z".into();
    for (_, p) in v["parts"].as_object_mut().unwrap() {
        if let Some(qs) = p.get_mut("questions").and_then(|q| q.as_object_mut()) {
            for (_, q) in qs {
                q["answered_at"] = "2026-06-01T10:05:00Z".into();
            }
        }
    }
    std::fs::write(&l, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    l
}

#[test]
fn the_report_of_a_terminal_record_holds_every_answer_and_no_markup_of_the_students() {
    let d = tmp("report-cli");
    let l = terminal_record(&d);
    let md = cli_report(LAB, &l, &d.join("out"));
    insta::assert_snapshot!(md);
    // The lab's words and the student's numbers.
    assert!(md.starts_with("# Queue diagnosis memo\n"), "{md}");
    assert!(
        !md.contains("- Track:"),
        "a lab without tracks names none: {md}"
    );
    assert!(
        md.contains("- Utilization: 0.90\n- Workload: ML (C_s=3)\n- Priority lane: on"),
        "{md}"
    );
    assert!(md.contains("- Wait: 675.0 min"), "{md}");
    assert!(!md.contains("Amplification"), "only the key outputs: {md}");
    assert!(md.contains("- Cost a day: $420/day"), "{md}");
    assert!(md.contains("- Costs counted: GPU hours"), "{md}");
    assert!(
        md.contains(
            "- Answer: **B** — ~600 minutes\n- Held: yes\n- Locked in: 2026-06-01T10:00:00Z"
        ),
        "{md}"
    );
    assert!(
        !md.contains("### Reflection"),
        "the lab's sections leave it out: {md}"
    );
    assert!(
        md.contains("- Answer: **A** — Fewer jobs; **C** — Shorter waits\n- Correct: yes"),
        "{md}"
    );
    // The student's text: every line quoted, nothing that opens markup.
    let quoted: Vec<&str> = md.lines().filter(|l| l.starts_with('>')).collect();
    assert!(quoted.len() >= 12, "{md}");
    for l in &quoted {
        let body = l.trim_start_matches('>').strip_prefix(' ').unwrap_or("");
        let cs: Vec<char> = body.chars().collect();
        for (i, c) in cs.iter().enumerate() {
            if "<>[]*_`~|&#".contains(*c) {
                assert!(
                    i > 0 && cs[i - 1] == '\\',
                    "`{c}` unescaped in `{l}`:\n{md}"
                );
            }
        }
        assert!(
            !body.starts_with([' ', '-', '+', '=', '>']),
            "`{l}` opens a block:\n{md}"
        );
    }
    assert!(
        md.contains("> \\# Heading\n> \\<script\\>alert(1)\\</script\\>"),
        "{md}"
    );
    assert!(md.contains("> 12\\. twelve"), "{md}");
    assert!(md.contains("## Decision log\n\n> Lower the \\<b\\>variance\\</b\\> first.\n>\n> 1\\. then the rest\n"), "{md}");
}

#[test]
fn a_lab_without_report_gets_every_section_and_output() {
    let d = tmp("report-default");
    let l = d.join("l.json");
    let a = d.join("a.yaml");
    std::fs::write(
        &a,
        "predictions: {a: B, b: 25}\nreflections: {a: B, b: A}\ndecision_log: \"x\"\n",
    )
    .unwrap();
    let o = run_answers(common::run::FIXTURE, &l, &a);
    assert!(o.status.success(), "{:?}", text(&o));
    let md = cli_report(common::run::FIXTURE, &l, &d.join("out"));
    assert!(
        md.starts_with(
            "# Queue walk-through — report\n\n- Lab: `run-fixture` v2\n- Complete: yes\n"
        ),
        "{md}"
    );
    for want in [
        "### Settings",
        "### At these settings",
        "### Prediction",
        "### Reflection",
        "## Decision log\n\n> x\n",
    ] {
        assert!(md.contains(want), "no `{want}`:\n{md}");
    }
}

#[test]
fn a_course_record_gives_the_same_report_as_the_labs_ledger() {
    let d = tmp("report-course");
    let l = d.join("ft.json");
    let a = d.join("a.yaml");
    std::fs::write(&a, "predictions: { a: C, b: B, c: C, d: A }\nreflections: { a: A, b: B, c: A, d: B }\ndecision_log: \"Checkpoint every half hour.\"\n").unwrap();
    let o = run_answers("labs/fault-tolerance.yaml", &l, &a);
    assert!(o.status.success(), "{:?}", text(&o));
    let from_ledger = cli_report("labs/fault-tolerance.yaml", &l, &d.join("out1"));
    let ledger: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&l).unwrap()).unwrap();
    let rec = serde_json::json!({
        "format": labforge::record::FORMAT, "course": "whatever", "labs": { "fault-tolerance": ledger }
    });
    let r = d.join("course.json");
    std::fs::write(&r, rec.to_string()).unwrap();
    let from_course = cli_report("labs/fault-tolerance.yaml", &r, &d.join("out2"));
    assert_eq!(from_ledger, from_course);
    assert!(
        from_ledger.contains("> Checkpoint every half hour.\n"),
        "{from_ledger}"
    );
}

#[test]
fn report_refuses_what_it_cannot_make() {
    let d = tmp("report-refuse");
    let l = d.join("l.json");
    let o = run_answers(common::run::FIXTURE, &l, &{
        let a = d.join("a.yaml");
        std::fs::write(
            &a,
            "predictions: {a: B, b: 25}\nreflections: {a: B, b: A}\n",
        )
        .unwrap();
        a
    });
    assert!(o.status.success());
    let lp = l.to_str().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (
            &[LAB, "--to", "report", "--record", lp],
            // A diagnostic of the record with a hint, through the one printer.
            ": error: a record of lab `run-fixture`, not of `report-demo`\n  = hint: --record takes the record the student handed in",
        ),
        (
            &[LAB, "--to", "report"],
            "give one lab file and --record RECORD",
        ),
        (
            &[
                LAB,
                "labs/fault-tolerance.yaml",
                "--to",
                "report",
                "--record",
                lp,
            ],
            "give one lab file",
        ),
        (
            &[LAB, "--to", "report", "--record", "/nonexistent/x.json"],
            "no such file",
        ),
        (
            &[LAB, "--to", "report", "--record", lp, "--answer-key"],
            "--to report takes a lab, --record and -o only",
        ),
        (
            &[LAB, "--to", "report", "--record", LAB],
            ":1:1: error: not a labforge ledger: expected value at line 1 column 1\n  |\n1 | ",
        ),
    ];
    for (args, want) in cases {
        let o = render(args);
        let (_, e) = text(&o);
        assert!(!o.status.success(), "{args:?} succeeded");
        assert!(e.contains(want), "{args:?}: {e}");
    }
}

/// `labforge run` writes the report beside the record at the end of the lab, and says where;
/// the CLI's report of that record is the same bytes (a lab with a text question, and a lab
/// with tracks run on its non-default track).
#[test]
fn run_report_file_is_the_clis() {
    let d = tmp("report-run");
    let cases: [(&str, PathBuf, &[&str]); 2] = [
        (LAB, answers(&d), &[]),
        (
            "tests/inputs/ok_questions_tracks.yaml",
            {
                let a = d.join("tracks.yaml");
                std::fs::write(&a, "predictions: {a: \"no\"}\ncontrols: {a: {batch: 3}}\nquestions: {a: {room: \"no\"}}\n").unwrap();
                a
            },
            &["--track", "phone"],
        ),
    ];
    for (i, (lab, a, extra)) in cases.iter().enumerate() {
        let sub = d.join(format!("case{i}"));
        std::fs::create_dir_all(&sub).unwrap();
        let l = sub.join("ledger.json");
        let mut args = vec![
            *lab,
            "--ledger",
            l.to_str().unwrap(),
            "--answers",
            a.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let o = common::run::run_with(&args, "");
        let (out, err) = text(&o);
        assert!(o.status.success(), "{out}\n{err}");
        let id = serde_json::from_str::<serde_json::Value>(&std::fs::read_to_string(&l).unwrap())
            .unwrap()["lab"]
            .as_str()
            .unwrap()
            .to_string();
        let file = sub.join(format!("{id}-report.md"));
        assert!(out.contains("Your report is written to"), "{out}");
        assert!(out.contains(&format!("{id}-report.md")), "{out}");
        let terminal = std::fs::read_to_string(&file).unwrap();
        let cli = cli_report(lab, &l, &sub.join("out"));
        assert_eq!(
            terminal, cli,
            "{lab}: the terminal's report differs from the CLI's"
        );
        if i == 1 {
            assert!(cli.contains("- Track: Phone\n"), "{cli}");
            assert!(cli.starts_with("# A budget on Phone — report\n"), "{cli}");
            assert!(
                cli.contains("- Latency: 90 ms"),
                "on the phone's formulas: {cli}"
            );
            assert!(cli.contains("- Answer: **no** — No\n- Held: yes"), "{cli}");
        }
    }
}

/// The student identifier (issue 23 item 6): `run --student` puts it in the report; in a course
/// it is the course record's, so a later run without `--student` (another record of the
/// course) still names the student; a blank or overlong one is refused.
#[test]
fn the_student_is_named_once_for_the_course_and_shown_in_the_report() {
    let d = tmp("report-student");
    let a = d.join("a.yaml");
    std::fs::write(&a, "predictions: { a: C, b: B, c: C, d: A }\nreflections: { a: A, b: B, c: A, d: B }\ndecision_log: \"x\"\n").unwrap();
    let lab = "labs/fault-tolerance.yaml";
    let first = d.join("first.json");
    let args = |l: &Path, extra: &[&str]| {
        let mut v = vec![
            lab.to_string(),
            "--ledger".into(),
            l.to_str().unwrap().into(),
            "--answers".into(),
            a.to_str().unwrap().into(),
        ];
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let run = |v: Vec<String>| {
        let r: Vec<&str> = v.iter().map(String::as_str).collect();
        common::run::run_with(&r, "")
    };
    let o = run(args(&first, &["--student", "Ada <b>L.</b>"]));
    assert!(o.status.success(), "{:?}", text(&o));
    let md = std::fs::read_to_string(d.join("fault-tolerance-report.md")).unwrap();
    assert!(md.contains("\n- Student: Ada \\<b\\>L.\\</b\\>\n"), "{md}");
    let rec: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            std::fs::read_dir(&d)
                .unwrap()
                .map(|e| e.unwrap().path())
                .find(|p| {
                    p.file_name()
                        .unwrap()
                        .to_string_lossy()
                        .starts_with("course-")
                })
                .unwrap(),
        )
        .unwrap(),
    )
    .unwrap();
    assert_eq!(rec["student"], "Ada <b>L.</b>", "kept in the course record");
    // Another record of the same course, no --student: the course's name.
    let second = d.join("second.json");
    let o = run(args(&second, &[]));
    assert!(o.status.success(), "{:?}", text(&o));
    let md2 = std::fs::read_to_string(d.join("fault-tolerance-report.md")).unwrap();
    assert!(
        md2.contains("\n- Student: Ada \\<b\\>L.\\</b\\>\n"),
        "{md2}"
    );
    assert_eq!(md2, cli_report(lab, &second, &d.join("out")));
    for bad in ["   ", &"x".repeat(101)] {
        let o = run(args(&d.join("bad.json"), &["--student", bad]));
        assert!(!o.status.success());
        assert!(
            text(&o)
                .1
                .contains("--student takes a name or id of 1 to 100 characters"),
            "{:?}",
            text(&o)
        );
    }
}

/// Records written before the report and the student identifier (a format-1 ledger, a course
/// record without `student`) still make a report.
#[test]
fn old_records_without_a_student_still_make_a_report() {
    let d = tmp("report-old");
    let old = d.join("old.json");
    std::fs::write(
        &old,
        r#"{"format": "labforge-ledger/1", "lab": "run-fixture", "version": 2, "chapter": "v9_01",
            "parts": {"a": {"prediction": "B", "prediction_correct": true, "controls": {"utilization": 0.9}}},
            "decision_log": "Old answer.", "complete": false}"#,
    )
    .unwrap();
    let md = cli_report(common::run::FIXTURE, &old, &d.join("out"));
    assert!(!md.contains("Student"), "{md}");
    assert!(
        md.contains("- Answer: **B**")
            && md.contains("- Held: yes")
            && md.contains("> Old answer.\n"),
        "{md}"
    );
    let course = d.join("course.json");
    std::fs::write(&course, r#"{"format": "labforge-course/1", "course": "x", "labs": {"run-fixture": {"format": "labforge-ledger/2", "lab": "run-fixture", "version": 2, "chapter": "v9_01", "parts": {}}}}"#).unwrap();
    let md = cli_report(common::run::FIXTURE, &course, &d.join("out2"));
    assert!(
        md.contains("- Answer: _not answered_") && !md.contains("Student"),
        "{md}"
    );
}

/// A course's `report:` is the default of its labs: a lab without its own prints the course's
/// heading, paragraph and sections; a lab's own `report:` wins.
#[test]
fn a_courses_report_is_its_labs_default() {
    let d = tmp("report-course-default");
    let c = d.join("course");
    std::fs::create_dir_all(c.join("labs")).unwrap();
    std::fs::copy(
        "tests/inputs/courses/err_unknown_key/labs/one.yaml",
        c.join("labs/one.yaml"),
    )
    .unwrap();
    std::fs::copy(LAB, c.join("labs/two.yaml")).unwrap();
    std::fs::write(
        c.join("course.yaml"),
        "title: Demo course\nlabs: [labs/one.yaml, labs/two.yaml]\nreport:\n  title: Course memo\n  intro: One memo for every lab.\n  sections: [prediction]\n",
    )
    .unwrap();
    let o = render(&[
        "--to",
        "html",
        "-o",
        d.join("html").to_str().unwrap(),
        c.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{:?}", text(&o));
    let l = d.join("l.json");
    let a = d.join("a.yaml");
    std::fs::write(&a, "predictions: {a: B}\nreflections: {a: A}\n").unwrap();
    let one = c.join("labs/one.yaml");
    let o = run_answers(one.to_str().unwrap(), &l, &a);
    assert!(o.status.success(), "{:?}", text(&o));
    let md = cli_report(one.to_str().unwrap(), &l, &d.join("out"));
    assert!(md.starts_with("# Course memo\n"), "{md}");
    assert!(md.contains("\nOne memo for every lab.\n"), "{md}");
    assert!(
        md.contains("### Prediction")
            && !md.contains("### Settings")
            && !md.contains("### Reflection"),
        "{md}"
    );
    // The lab with its own report keeps it.
    let l2 = d.join("l2.json");
    let o = run_answers(c.join("labs/two.yaml").to_str().unwrap(), &l2, &answers(&d));
    assert!(o.status.success(), "{:?}", text(&o));
    let md2 = std::fs::read_to_string(d.join("report-demo-report.md")).unwrap();
    assert!(md2.starts_with("# Queue diagnosis memo\n"), "{md2}");
}

/// A record whose student name, written answer, decision log and lock time carry OSC 52 (writes
/// the clipboard), OSC 0 (the window title), `ESC[2J`, a one-character CSI and an RLO (issue
/// 20.2, for the report as for the handouts printed with `--record`): the report file holds none
/// of them, each shown as `U+FFFD` with the words around it, so `cat` of a handed-in report in
/// a terminal runs nothing. The page's report.js filters the same way (the differential test in
/// tests/chromium/report_browser.rs types the same kind of text).
#[test]
fn a_records_escapes_never_reach_the_report() {
    let d = tmp("report-escapes");
    let l = terminal_record(&d);
    let bad = "\u{1b}]52;c;QQ==\u{7} \u{1b}]0;pwned\u{7} \u{1b}[2J \u{9b}31m \u{202e}evil";
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&l).unwrap()).unwrap();
    v["student"] = format!("Eve {bad}").into();
    v["decision_log"] = format!("Decide {bad} now").into();
    v["parts"]["a"]["questions"]["why"]["answer"] = format!("Because {bad} so").into();
    v["parts"]["a"]["prediction_locked_at"] = format!("2026 {bad}").into();
    std::fs::write(&l, v.to_string()).unwrap();
    let md = cli_report(LAB, &l, &d.join("out"));
    let left: Vec<char> = md
        .chars()
        .filter(|&c| (c.is_control() && c != '\n') || ('\u{202a}'..='\u{202e}').contains(&c))
        .collect();
    assert!(left.is_empty(), "control characters {left:?} in\n{md}");
    let shown = "\u{fffd}\\]52;c;QQ==\u{fffd} \u{fffd}\\]0;pwned\u{fffd} \u{fffd}\\[2J \u{fffd}31m \u{fffd}evil";
    for w in [
        format!("- Student: Eve {shown}\n"),
        format!("> Decide {shown} now\n"),
        format!("> Because {shown} so\n"),
    ] {
        assert!(md.contains(&w), "no `{w}` in\n{md}");
    }
}
