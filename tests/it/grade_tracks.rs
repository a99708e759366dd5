//! `labforge grade` and tracks (tests/inputs/tracks_term): records made by real runs on two
//! tracks, where the same option (`yes`: a batch fits) is right on Cloud Fleet and wrong on
//! Phone. Each answer is judged on the track it was given on (the part's `track`, else the
//! record's, else the default); the CSV has the student's track and, per part, the track
//! where it differs; the report tallies per track.

use std::path::Path;
use std::process::{Command, Stdio};

const COURSE: &str = "tests/inputs/tracks_term";

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_labforge"));
    c.env("NO_COLOR", "1")
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

/// `labforge run ARGS` with nothing on stdin; it must succeed.
fn run(args: &[&str]) {
    let o = bin()
        .arg("run")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}

/// A student's answers to lab 1 (`batching`) on `track`, in their folder under `records`.
fn answer(records: &Path, student: &str, track: Option<&str>, prediction: &str) {
    let d = records.join(student);
    std::fs::create_dir_all(&d).unwrap();
    let a = d.join("answers.yaml");
    std::fs::write(
        &a,
        format!("predictions: {{a: \"{prediction}\"}}\nreflections: {{a: smaller}}\n"),
    )
    .unwrap();
    let ledger = d.join("batching.json");
    let mut args = vec![
        "tests/inputs/tracks_term/labs/batching.yaml",
        "--ledger",
        ledger.to_str().unwrap(),
        "--answers",
        a.to_str().unwrap(),
    ];
    if let Some(t) = track {
        args.extend(["--track", t]);
    }
    run(&args);
    std::fs::remove_file(&a).unwrap();
    // Only the course record is handed in.
    std::fs::remove_file(&ledger).unwrap();
}

fn course_record(dir: &Path) -> std::path::PathBuf {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "json"))
        .expect("a course record")
}

#[test]
fn answers_are_judged_on_the_track_they_were_given_on_and_tallied_per_track() {
    let root = std::env::temp_dir().join(format!("labforge-grade-tracks-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let records = root.join("records");
    // alice on Phone: `yes` is wrong there. bob on Cloud Fleet: `yes` is right. carol locks
    // `yes` in on Phone, then moves to Cloud Fleet: her answer stays judged on Phone.
    answer(&records, "alice", Some("phone"), "yes");
    answer(&records, "bob", Some("cloud"), "yes");
    answer(&records, "carol", Some("phone"), "yes");
    let carol = records.join("carol");
    run(&[
        COURSE,
        "--ledger",
        carol.join("x.json").to_str().unwrap(),
        "--track",
        "cloud",
    ]);
    // dave on no track recorded (a page export before tracks): the default, Cloud Fleet.
    answer(&records, "dave", None, "no");
    let dave = course_record(&records.join("dave"));
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&dave).unwrap()).unwrap();
    v.as_object_mut().unwrap().remove("track");
    v["labs"]["batching"]["parts"]["a"]
        .as_object_mut()
        .unwrap()
        .remove("track");
    // A flag edited by hand is never read.
    v["labs"]["batching"]["parts"]["a"]["prediction_correct"] = true.into();
    std::fs::write(&dave, v.to_string()).unwrap();
    let alice = course_record(&records.join("alice"));
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&alice).unwrap()).unwrap();
    v["labs"]["batching"]["parts"]["a"]["prediction_correct"] = true.into();
    std::fs::write(&alice, v.to_string()).unwrap();

    let out = root.join("grades");
    let o = bin()
        .args(["grade", "tests/inputs/tracks_term/labs"])
        .arg(&records)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let csv = std::fs::read_to_string(out.join("batching.csv")).unwrap();
    let mut rows = csv::Reader::from_reader(csv.as_bytes());
    let head: Vec<String> = rows.headers().unwrap().iter().map(String::from).collect();
    let col = |name: &str| {
        head.iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("no column {name}: {head:?}"))
    };
    let (track, a_track, a_ok, r_ok) = (
        col("track"),
        col("A track"),
        col("A correct"),
        col("A reflection correct"),
    );
    let got: Vec<[String; 5]> = rows
        .records()
        .map(|r| {
            let r = r.unwrap();
            [
                r[0].to_string(),
                r[track].to_string(),
                r[a_track].to_string(),
                r[a_ok].to_string(),
                r[r_ok].to_string(),
            ]
        })
        .collect();
    let want = [
        ["alice", "phone", "", "no", "yes"],
        ["bob", "cloud", "", "yes", "no"],
        ["carol", "cloud", "phone", "no", "yes"],
        ["dave", "cloud", "", "no", "no"],
    ];
    assert_eq!(
        got.iter()
            .map(|r| r.iter().map(String::as_str).collect::<Vec<_>>())
            .collect::<Vec<_>>(),
        want.iter().map(|r| r.to_vec()).collect::<Vec<_>>(),
        "{csv}"
    );

    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    let tracks = &html[html.find("<h3>By track</h3>").expect("a per-track table")..];
    let tracks = &tracks[..tracks.find("</table>").unwrap()];
    // Students per track, and right predictions out of those answered on the track (carol's
    // counts on Phone, where she locked it in).
    for row in [
        "Phone <span class=\"muted\">(phone)</span></th><td class=\"n\">1</td><td class=\"n\">0 / 2</td><td class=\"n\">2 / 2</td>",
        "Cloud Fleet <span class=\"muted\">(cloud)</span></th><td class=\"n\">3</td><td class=\"n\">1 / 2</td><td class=\"n\">0 / 2</td>",
        "Smart Ring <span class=\"muted\">(ring)</span></th><td class=\"n\">0</td><td class=\"n\">0 / 0</td>",
    ] {
        assert!(tracks.contains(row), "{row}\n{tracks}");
    }
    // The tally: `yes` chosen twice on Phone (wrong there), once on Cloud Fleet (right there).
    let tally = &html[html.find("Part A · prediction").unwrap()..];
    let yes = &tally[tally.find("<td>yes</td>").unwrap()..];
    let yes = &yes[..yes.find("</tr>").unwrap()];
    assert!(
        yes.contains("<td class=\"n\">2</td><td class=\"n\">1 ✓ right</td><td class=\"n\">0</td>"),
        "{yes}"
    );
    let _ = std::fs::remove_dir_all(&root);
}
