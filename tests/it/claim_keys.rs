//! A key left to the claims (issue 25), a prediction's or a choice question's: with no option
//! marked `correct:` and every option claiming the words of a text output, the option whose
//! claim holds at the scenario is the key, on each track at that track's values (what the page,
//! SCORM, the handouts, the terminal and grading read).

use labforge::lab::diagnose;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn key(lab: &labforge::eval::CompiledLab) -> Vec<String> {
    let p = lab.lab.parts[0].prediction.as_ref().unwrap();
    p.options
        .iter()
        .filter(|o| o.correct)
        .map(|o| o.id.as_ref().unwrap().value.clone())
        .collect()
}

#[test]
fn the_claims_pick_each_tracks_key() {
    let (_, diags, lab) = diagnose(Path::new("tests/inputs/ok_claim_key.yaml"));
    assert!(diags.is_empty(), "{diags:?}");
    let lab = lab.expect("compiles");
    let mut keys: Vec<(String, Vec<String>)> = Vec::new();
    for t in ["phone", "cloud"] {
        let on = lab
            .on_track(t)
            .unwrap_or_else(|_| panic!("track {t} compiles"));
        keys.push((t.to_string(), key(&on)));
    }
    assert_eq!(
        keys,
        vec![
            ("phone".to_string(), vec!["comm".to_string()]),
            ("cloud".to_string(), vec!["compute".to_string()]),
        ]
    );
}

/// A choice question's key left to its claims, as a prediction's: on each track the option
/// whose claim holds at the part's scenario is marked correct, and the question is graded (no
/// opinion), for `check`'s tests as for the front ends below.
#[test]
fn the_claims_pick_each_tracks_key_of_a_choice_question() {
    let (_, diags, lab) = diagnose(Path::new(QUESTION_LAB));
    assert!(diags.is_empty(), "{diags:?}");
    let lab = lab.expect("compiles");
    let mut keys: Vec<(&str, Vec<String>)> = Vec::new();
    for t in ["phone", "cloud"] {
        let on = lab.on_track(t).expect("compiles on the track");
        let q = &on.lab.parts[0].questions[0];
        assert!(q.is_graded() && !q.is_opinion(), "{t}");
        let key = q.spec.options.iter().filter(|o| o.correct);
        keys.push((
            t,
            key.map(|o| o.id.as_ref().unwrap().value.clone()).collect(),
        ));
    }
    assert_eq!(
        keys,
        [
            ("phone", vec!["comm".to_string()]),
            ("cloud", vec!["compute".to_string()])
        ]
    );
}

const QUESTION_LAB: &str = "tests/inputs/ok_question_claim_key.yaml";
const PREDICTION_LAB: &str = "tests/inputs/ok_claim_key.yaml";

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_labforge"));
    c.env("NO_COLOR", "1")
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

fn succeeds(c: &mut Command) -> String {
    let o = c.stdin(Stdio::null()).output().unwrap();
    assert!(
        o.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// `labforge run LAB --track TRACK --answers` with `answers` (YAML), its record at `ledger`;
/// the terminal's transcript.
fn run(lab: &str, track: &str, answers: &str, ledger: &Path) -> String {
    std::fs::create_dir_all(ledger.parent().unwrap()).unwrap();
    let a = ledger.with_extension("answers.yaml");
    std::fs::write(&a, answers).unwrap();
    let out = succeeds(
        bin()
            .args(["run", lab, "--restart", "--track", track, "--answers"])
            .arg(&a)
            .arg("--ledger")
            .arg(ledger),
    );
    std::fs::remove_file(&a).unwrap();
    out
}

/// `labforge grade LAB RECORDS`: the CSV's rows, each column by its header's name.
fn grade(lab: &str, records: &Path, out: &Path) -> Vec<BTreeMap<String, String>> {
    succeeds(bin().args(["grade", lab]).arg(records).arg("-o").arg(out));
    let csv = std::fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "csv"))
        .expect("a CSV");
    let mut rows = csv::Reader::from_path(csv).unwrap();
    let head: Vec<String> = rows.headers().unwrap().iter().map(String::from).collect();
    rows.records()
        .map(|r| {
            head.iter()
                .cloned()
                .zip(r.unwrap().iter().map(String::from))
                .collect()
        })
        .collect()
}

/// The columns `cols` of each row, with the student's name first.
fn columns(rows: &[BTreeMap<String, String>], cols: &[&str]) -> Vec<Vec<String>> {
    rows.iter()
        .map(|r| {
            std::iter::once("student")
                .chain(cols.iter().copied())
                .map(|c| {
                    r.get(c)
                        .unwrap_or_else(|| panic!("no column {c}: {r:?}"))
                        .clone()
                })
                .collect()
        })
        .collect()
}

fn rows(want: &[&[&str]]) -> Vec<Vec<String>> {
    want.iter()
        .map(|r| r.iter().map(|s| s.to_string()).collect())
        .collect()
}

/// `labforge grade` on records of a prediction keyed by its claims (ok_claim_key: `comm` is
/// the key on Phone, `compute` on Cloud Fleet): each record is scored by the key its track's
/// claims pick, whatever the record's own `correct` flags say.
#[test]
fn grade_scores_a_claim_keyed_prediction_by_each_tracks_key() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records");
    for (who, track, answer) in [
        ("alice", "phone", "comm"),
        ("bob", "cloud", "compute"),
        ("carol", "phone", "compute"),
        ("dave", "cloud", "comm"),
    ] {
        let ledger = records.join(format!("{who}.json"));
        run(
            PREDICTION_LAB,
            track,
            &format!("predictions: {{ a: {answer} }}\n"),
            &ledger,
        );
        // A flag edited by hand is never read: every record claims to be right.
        let mut v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&ledger).unwrap()).unwrap();
        v["parts"]["a"]["prediction_correct"] = true.into();
        std::fs::write(&ledger, v.to_string()).unwrap();
    }
    let got = grade(PREDICTION_LAB, &records, &dir.path().join("out"));
    assert_eq!(
        columns(
            &got,
            &["track", "A prediction", "A correct", "score", "asked"]
        ),
        rows(&[
            &["alice", "phone", "comm", "yes", "1", "1"],
            &["bob", "cloud", "compute", "yes", "1", "1"],
            &["carol", "phone", "compute", "no", "0", "1"],
            &["dave", "cloud", "comm", "no", "0", "1"],
        ])
    );
}

/// The page's data of `page` (the JSON in `#lf-data`): the question's options with their key.
fn page_key(page: &str) -> serde_json::Value {
    let start = page.find("id=\"lf-data\"").expect("page data");
    let json = &page[page[start..].find('>').unwrap() + start + 1..];
    let json = &json[..json.find("</script>").unwrap()];
    let v: serde_json::Value = serde_json::from_str(json).unwrap();
    let q = &v["parts"][0]["questions"][0];
    assert_eq!(q["opinion"], serde_json::Value::Null, "not an opinion: {q}");
    q["options"].clone()
}

/// The page inside a SCORM package.
fn scorm_page(zip: &Path) -> String {
    use std::io::Read;
    let mut z = zip::ZipArchive::new(std::fs::File::open(zip).unwrap()).unwrap();
    let mut s = String::new();
    z.by_name("index.html")
        .unwrap()
        .read_to_string(&mut s)
        .unwrap();
    s
}

/// Every front end reads a choice question's key from its claims, per track: the page and the
/// SCORM package grade by it (their data), the answer key marks it, the terminal judges the
/// answer by it, and `labforge grade` scores records by their track's key.
#[test]
fn every_front_end_reads_a_choice_questions_key_from_its_claims() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let render = |to: &str, key: bool, out: &str| {
        let mut c = bin();
        c.args(["render", QUESTION_LAB, "--to", to, "-o"])
            .arg(d.join(out));
        if key {
            c.arg("--answer-key");
        }
        succeeds(&mut c);
    };
    render("html", false, "html");
    render("scorm", false, "scorm");
    render("markdown", true, "key");
    let stem = "ok_question_claim_key";
    let read = |p: PathBuf| std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p:?}: {e}"));
    for (track, key) in [("phone", "comm"), ("cloud", "compute")] {
        let want = serde_json::json!([["comm", key == "comm"], ["compute", key == "compute"]]);
        let page = read(d.join(format!("html/{stem}.{track}.html")));
        assert_eq!(page_key(&page), want, "page on {track}");
        let scorm = scorm_page(&d.join(format!("scorm/{stem}.{track}.zip")));
        assert_eq!(page_key(&scorm), want, "SCORM on {track}");
        let md = read(d.join(format!("key/{stem}.{track}-key.md")));
        let text = if key == "comm" {
            "Communication"
        } else {
            "Compute"
        };
        assert!(
            md.contains(&format!("- [x] {key}) {text} **(correct)**"))
                && md.contains(&format!("**Answer:** {key}\n")),
            "answer key on {track}:\n{md}"
        );
    }
    // The terminal, both students answering `comm`: right on Phone, wrong on Cloud Fleet.
    let answers = "predictions: { a: grows }\nquestions: { a: { binds: comm } }\n";
    let records = d.join("records");
    for (who, track, verdict) in [
        ("alice", "phone", "✓ Correct."),
        ("bob", "cloud", "✗ Not quite."),
    ] {
        let ledger = records.join(format!("{who}.json"));
        let said = run(QUESTION_LAB, track, answers, &ledger);
        let asked = said
            .find("what binds the step?")
            .expect("the question asked");
        assert!(said[asked..].contains(verdict), "{track}: {said}");
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&ledger).unwrap()).unwrap();
        let q = &v["parts"]["a"]["questions"]["binds"];
        assert_eq!(q["correct"], verdict.contains("Correct"), "{track}: {q}");
    }
    let got = grade(QUESTION_LAB, &records, &d.join("out"));
    assert_eq!(
        columns(&got, &["track", "A binds", "A binds correct"]),
        rows(&[
            &["alice", "phone", "comm", "yes"],
            &["bob", "cloud", "comm", "no"]
        ])
    );
}
