//! A part's `questions:` (tests/inputs/ok_questions.yaml) outside the browser: the record Rust
//! writes (answers admitted by kind, hostile ones dropped and named, texts bounded, the
//! select-all rule, `complete`), and what a page pays for them (nothing without questions).

use crate::common;
use common::root;
use labforge::lab::load_lab;
use labforge::ledger::questions::{Answer, QuestionAnswer};
use labforge::ledger::Ledger;
use labforge::store::LedgerFile as _;

fn one(s: &str) -> QuestionAnswer {
    QuestionAnswer::now(Answer::One(s.into()))
}

#[test]
fn the_record_admits_answers_by_kind_and_judges_them() {
    let lab = load_lab(&root().join("tests/inputs/ok_questions.yaml")).unwrap();
    let mut l = Ledger::new(&lab);
    assert!(!l.complete);
    l.parts.get_mut("a").unwrap().prediction = Some("B".into());
    let q = &mut l.parts.get_mut("a").unwrap().questions;
    q.insert("lever".into(), one("A"));
    q.insert(
        "levers".into(),
        QuestionAnswer::now(Answer::Set(vec!["B".into(), "A".into()])),
    );
    q.insert("amp".into(), one(" 4,8 "));
    q.insert("worry".into(), one("B"));
    q.insert("why".into(), one(&"word ".repeat(2_500)));
    q.insert("q6".into(), one("Keep it below 70%."));
    // Hostile: a question the part does not ask, an option it does not have, a text of spaces.
    q.insert("nope".into(), one("A"));
    let mut bad = l.clone();
    assert!(l.sanitize(&lab).iter().any(|d| d.contains("`nope`")));
    l.refresh(&lab);
    let q = &l.parts["a"].questions;
    assert_eq!(q["lever"].correct, Some(true));
    assert_eq!(
        q["levers"].answer,
        Answer::Set(vec!["A".into(), "B".into()]),
        "in the options' order"
    );
    assert_eq!(
        (q["levers"].score, q["levers"].correct),
        (Some(1.0), Some(true))
    );
    assert_eq!(
        q["amp"].answer,
        Answer::One("48".into()),
        "separators dropped, as a numeric prediction's"
    );
    assert_eq!(q["amp"].correct, Some(false));
    assert_eq!(q["worry"].correct, None, "an opinion is never graded");
    assert_eq!(q["why"].correct, None, "a written answer is never graded");
    assert_eq!(q["why"].text().chars().count(), 10_000, "bounded");
    assert!(q
        .keys()
        .eq(["lever", "levers", "amp", "worry", "why", "q6"]));
    assert!(l.complete);
    let json = serde_json::to_value(&l).unwrap();
    assert_eq!(
        json["parts"]["a"]["questions"]["levers"]["score"].to_string(),
        "1",
        "written as the page writes it"
    );
    // Answers that are none of the question's are dropped, each named.
    let b = &mut bad.parts.get_mut("a").unwrap().questions;
    b.insert("lever".into(), one("Z"));
    b.insert(
        "levers".into(),
        QuestionAnswer::now(Answer::Set(vec!["A".into(), "A".into()])),
    );
    b.insert("amp".into(), one("five"));
    b.insert("why".into(), one("  \n "));
    b.insert(
        "worry".into(),
        QuestionAnswer::now(Answer::Set(vec!["A".into()])),
    );
    b.insert(
        "q6".into(),
        QuestionAnswer::now(Answer::Other(serde_json::json!({"x": 1}))),
    );
    let dropped = bad.sanitize(&lab);
    for id in ["lever", "levers", "amp", "why", "worry", "q6", "nope"] {
        assert!(
            dropped.iter().any(|d| d.contains(&format!("`{id}`"))),
            "{id}: {dropped:?}"
        );
    }
    bad.refresh(&lab);
    assert!(!bad.complete);
    // A record read back with an answer of no kind at all still loads; the answer is dropped.
    let f = std::env::temp_dir().join(format!("labforge-qodd-{}.json", std::process::id()));
    let mut v = serde_json::to_value(&l).unwrap();
    v["parts"]["a"]["questions"]["amp"]["answer"] = serde_json::json!(5);
    v["parts"]["a"]["questions"]["lever"]["answer"] = serde_json::json!({"__proto__": 1});
    std::fs::write(&f, v.to_string()).unwrap();
    let mut back = Ledger::load(&f).unwrap().unwrap();
    let d = back.sanitize(&lab);
    assert_eq!(d.len(), 2, "{d:?}");
    assert!(back.parts["a"].questions.contains_key("why"));
    let _ = std::fs::remove_file(&f);
}

#[test]
fn a_page_pays_for_questions_only_when_its_lab_asks_some() {
    let out = std::env::temp_dir().join(format!("labforge-qpage-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    common::render_html(&root().join("tests/inputs/ok_questions.yaml"), &out);
    common::render_html(
        &root().join("tests/inputs/ok_giveaway_in_feedback.yaml"),
        &out,
    );
    let read = |f: &str| common::unpacked(&std::fs::read_to_string(out.join(f)).unwrap());
    let with = read("ok_questions.html");
    let without = read("ok_giveaway_in_feedback.html");
    assert!(with.contains("labforgeQuestions") && with.contains("data-question=\"why\""));
    assert!(
        !with.contains("rho/(1-rho)"),
        "the model answer is for the key only"
    );
    for needle in ["labforgeQuestions", "data-question", "questions"] {
        assert!(
            !without.contains(needle),
            "a page without questions carries `{needle}`"
        );
    }
    // In a course, a lab page's course script cleans only its own lab's answers (the others
    // pass through to their own page and the index): a lab without questions pays nothing, and
    // the index, which cleans every lab's, carries the question rule.
    let course = out.join("course");
    std::fs::create_dir_all(&course).unwrap();
    for f in ["ok_questions.yaml", "ok_giveaway_in_feedback.yaml"] {
        std::fs::copy(root().join("tests/inputs").join(f), course.join(f)).unwrap();
    }
    std::fs::write(
        course.join("course.yaml"),
        "title: Demo course\nlabs: [ok_giveaway_in_feedback.yaml, ok_questions.yaml]\n",
    )
    .unwrap();
    let site = out.join("site");
    common::render_html(&course, &site);
    let plain = std::fs::read_to_string(site.join("ok_giveaway_in_feedback.html")).unwrap();
    assert!(
        !plain.contains("an answer to a question"),
        "a page without questions carries the course merge's question rule"
    );
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(
        index.contains("an answer to a question"),
        "the index cleans every lab's record and needs the question rule"
    );
    assert!(
        !plain.contains("labforgeQuestions"),
        "the page's own question script"
    );
    let _ = std::fs::remove_dir_all(&out);
}

fn handout(key: bool) -> String {
    use labforge::render::markdown::MarkdownRenderer;
    use labforge::render::{RenderOptions, Renderer};
    let lab = load_lab(&root().join("tests/inputs/ok_questions.yaml")).unwrap();
    let opts = RenderOptions {
        answer_key: key,
        ..RenderOptions::default()
    };
    let files = MarkdownRenderer.render(&lab, "q", &opts).unwrap();
    let name = if key { "q-key.md" } else { "q.md" };
    let f = files
        .iter()
        .find(|f| f.path == std::path::Path::new(name))
        .unwrap();
    String::from_utf8(f.bytes.clone()).unwrap()
}

/// The text between `### Question N` and the next heading.
fn question(doc: &str, n: usize) -> String {
    let start = doc.find(&format!("### Question {n}")).unwrap();
    let rest = &doc[start + 4..];
    rest[..rest.find("\n#").unwrap_or(rest.len())].to_string()
}

#[test]
fn handouts_leave_writing_lines_and_keys_print_the_model_answer_and_the_rule() {
    let (h, k) = (handout(false), handout(true));
    let lines = |s: &str| s.lines().filter(|l| l.starts_with("_____")).count();
    // 12 words: two lines of about ten; no minimum: three.
    assert_eq!(lines(&question(&h, 5)), 2, "{}", question(&h, 5));
    assert!(question(&h, 5).contains("At least 12 words."));
    assert_eq!(lines(&question(&h, 6)), 3);
    assert!(
        !h.contains("rho/(1-rho)") && !h.contains("(correct)") && !h.contains("graded as a set")
    );
    assert!(question(&k, 5).contains("**Model answer:** The utilization term rho/(1-rho)"));
    assert_eq!(lines(&question(&k, 5)), 0, "the key has no writing lines");
    let select = question(&k, 2);
    assert!(
        select.contains("**Answer:** A, B — graded as a set: each correct option picked counts +1"),
        "{select}"
    );
    assert!(question(&k, 4).contains("an opinion question"));
    assert!(
        question(&k, 3).contains("**Expected answer:** 5×"),
        "{}",
        question(&k, 3)
    );
}

/// `labforge run` on a pty: every kind answered with real keys; a written answer of two lines
/// ended with Ctrl-D; Ctrl-D on an empty written answer saves and quits, and the next run
/// resumes at that question.
#[test]
fn the_terminal_asks_every_kind_and_resumes_at_an_unanswered_written_answer() {
    use common::pty::{expect, finish, ledger, send, spawn, tmp, to_explore, END};
    let lab = root().join("tests/inputs/ok_questions.yaml");
    let l = tmp("questions").join("l.json");
    let mut s = to_explore(&lab, &l);
    send(&mut s, END);
    send(&mut s, "\r");
    expect(&mut s, "Question 1");
    expect(&mut s, "Enter choose");
    send(&mut s, "\r");
    expect(&mut s, "✓ Correct.");
    expect(&mut s, "Press Enter to continue");
    send(&mut s, "\r");
    expect(&mut s, "Question 2 (select all that apply)");
    expect(&mut s, "Enter done");
    send(&mut s, " ");
    send(&mut s, "\r");
    expect(&mut s, "Partly right: 50% credit.");
    expect(&mut s, "Press Enter to continue");
    send(&mut s, "\r");
    expect(&mut s, "What is the amplification at C_s = 3? (×)");
    send(&mut s, "5\r");
    expect(&mut s, "✓ Correct.");
    expect(&mut s, "Press Enter to continue");
    send(&mut s, "\r");
    expect(&mut s, "Question 4");
    expect(&mut s, "Enter choose");
    send(&mut s, "\r");
    expect(&mut s, "Recorded.");
    expect(&mut s, "Press Enter to continue");
    send(&mut s, "\r");
    expect(&mut s, "Name the binding term");
    expect(
        &mut s,
        "Ctrl-D when done; e.g. The term that grows fastest is ...)",
    );
    send(&mut s, "Utilization binds:\rthe queue grows.");
    send(&mut s, "\x04");
    expect(&mut s, "Saved (5 words; at least 12 were asked).");
    expect(&mut s, "Press Enter to continue");
    send(&mut s, "\r");
    expect(&mut s, "Question 6");
    expect(&mut s, "Ctrl-D when done)");
    send(&mut s, "\x04");
    let (_, code) = finish(&mut s);
    assert_eq!(code, 0, "Ctrl-D on an empty answer saves and quits");
    let r = ledger(&l);
    let q = &r["parts"]["a"]["questions"];
    assert_eq!(
        q["why"]["answer"], "Utilization binds:\nthe queue grows.",
        "{q}"
    );
    assert_eq!(q["levers"]["answer"], serde_json::json!(["A"]));
    assert_eq!(q["amp"]["correct"], true);
    assert!(q.get("q6").is_none() && r["complete"] == false, "{r}");
    // Resumed: straight to the unanswered question.
    let mut s = spawn(
        &[lab.to_str().unwrap(), "--ledger", l.to_str().unwrap()],
        100,
    );
    let before = expect(&mut s, "Question 6");
    assert!(!before.contains("Question 5"), "{before}");
    expect(&mut s, "Ctrl-D when done)");
    send(&mut s, "Keep the cluster below 70%.\x04");
    expect(&mut s, "Saved (5 words).");
    expect(&mut s, "Press Enter to continue");
    send(&mut s, "\r");
    // The last question answered: the name for the report, asked once; Enter skips.
    expect(&mut s, "Your name or student id (optional):");
    send(&mut s, "\r");
    let _ = finish(&mut s);
    let r = ledger(&l);
    assert_eq!(
        r["parts"]["a"]["questions"]["q6"]["answer"],
        "Keep the cluster below 70%."
    );
    assert_eq!(r["complete"], true);
}

/// `labforge grade` on three students' records with written answers: alice answers everything,
/// bob writes too little and half the select-all, carol's written answer is empty (a record
/// edited by hand: dropped and named) and one is missing. The CSV has a column per question;
/// the report reads each question student by student. Both are golden.
#[test]
fn grading_reads_every_question_student_by_student() {
    use std::process::{Command, Stdio};
    // A fixed folder, and paths relative to it: the CSV names each record's file.
    let dir = std::env::temp_dir().join("labforge-qgrade");
    let _ = std::fs::remove_dir_all(&dir);
    let records = dir.join("records");
    std::fs::create_dir_all(&records).unwrap();
    let lab = root().join("tests/inputs/ok_questions.yaml");
    let run = |who: &str, answers: &str| {
        let a = dir.join(format!("{who}.answers.yaml"));
        std::fs::write(&a, answers).unwrap();
        let st = Command::new(env!("CARGO_BIN_EXE_labforge"))
            .args([
                "run",
                lab.to_str().unwrap(),
                "--answers",
                a.to_str().unwrap(),
                "--ledger",
            ])
            .arg(records.join(format!("{who}.json")))
            .env("NO_COLOR", "1")
            .stdout(Stdio::null())
            .status()
            .unwrap();
        assert!(st.success());
    };
    run("alice", "predictions: { a: B }\nquestions: { a: { lever: A, levers: [A, B], amp: 5, worry: A, why: \"The utilization term binds: rho/(1-rho) grows without bound as the cluster nears full, whatever the variance.\", q6: \"Keep the cluster below 70% busy.\" } }\n");
    run("bob", "predictions: { a: A }\nquestions: { a: { lever: B, levers: [A, C], amp: 12, worry: B, why: \"Variance, mostly.\", q6: \"Buy GPUs.\" } }\n");
    run("carol", "predictions: { a: B }\nquestions: { a: { lever: A, levers: [B], amp: 5.4, worry: B, why: \"placeholder\", q6: \"=HYPERLINK(\\\"x\\\")\" } }\n");
    let path = records.join("carol.json");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    v["parts"]["a"]["questions"]["why"]["answer"] = serde_json::json!("   ");
    std::fs::write(&path, v.to_string()).unwrap();
    let out = dir.join("out");
    let o = Command::new(env!("CARGO_BIN_EXE_labforge"))
        .args(["grade", lab.to_str().unwrap(), "records", "-o", "out"])
        .current_dir(&dir)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let csv = std::fs::read_to_string(out.join("questions-demo.csv")).unwrap();
    insta::assert_snapshot!("questions_grade_csv", csv);
    let report = std::fs::read_to_string(out.join("report.html")).unwrap();
    let start = report.find("<h3 id=\"reading-").expect("a reading view");
    let end = report[start..]
        .find("<h3>Decision logs")
        .map_or(report.len(), |e| start + e);
    let end = report[start..end]
        .rfind("</section>")
        .map_or(end, |e| start + e + 10);
    insta::assert_snapshot!("questions_grade_reading", &report[start..end]);
    assert!(report.contains("not answered") && report.contains("too short: 2 of 12 words"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A question whose right option differs per track: each track's page grades it by that
/// track's answer (the `correct` expression computed per track).
#[test]
fn each_tracks_page_grades_a_question_by_its_own_right_answer() {
    let out = std::env::temp_dir().join(format!("labforge-qtracks-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    common::render_html(&root().join("tests/inputs/ok_questions_tracks.yaml"), &out);
    let data = |track: &str| {
        let page =
            std::fs::read_to_string(out.join(format!("ok_questions_tracks.{track}.html"))).unwrap();
        let start = page.find("id=\"lf-data\"").unwrap();
        let json = &page[page[start..].find('>').unwrap() + start + 1..];
        let json = &json[..json.find("</script>").unwrap()];
        let v: serde_json::Value = serde_json::from_str(json).unwrap();
        v["parts"][0]["questions"][0]["options"].clone()
    };
    assert_eq!(
        data("cloud"),
        serde_json::json!([["yes", true], ["no", false]])
    );
    assert_eq!(
        data("phone"),
        serde_json::json!([["yes", false], ["no", true]])
    );
    let _ = std::fs::remove_dir_all(&out);
}

/// An answers file names questions the part asks, with answers they take: anything else fails
/// the run with the section and the question named (nothing skipped silently).
#[test]
fn an_answers_file_with_a_wrong_question_answer_fails_naming_it() {
    use std::process::Command;
    let dir = common::pty::tmp("qanswers");
    let lab = root().join("tests/inputs/ok_questions.yaml");
    let run = |answers: &str| {
        let a = dir.join("a.yaml");
        std::fs::write(&a, answers).unwrap();
        let o = Command::new(env!("CARGO_BIN_EXE_labforge"))
            .args([
                "run",
                lab.to_str().unwrap(),
                "--restart",
                "--answers",
                a.to_str().unwrap(),
                "--ledger",
            ])
            .arg(dir.join("l.json"))
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        (
            o.status.success(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let (ok, err) = run("predictions: { a: B }\nquestions: { a: { nope: A } }\n");
    assert!(
        !ok && err.contains("questions: part `a` asks no question `nope`"),
        "{err}"
    );
    let (ok, err) = run("predictions: { a: B }\nquestions: { a: { lever: Z } }\n");
    assert!(
        !ok && err.contains("question `lever`") && err.contains("`Z` is not an answer"),
        "{err}"
    );
    let (ok, err) = run("predictions: { a: B }\nquestions: { a: { lever: A } }\n");
    assert!(
        !ok && err.contains("no answer to question `levers` of part `a`"),
        "{err}"
    );
}
