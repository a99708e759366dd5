//! `labforge run` and tracks, on a pseudo-terminal (tests/inputs/tracks_term: three tracks,
//! two labs whose right answers differ per track): the first run of a course asks the track
//! once, the course record keeps it, the next lab does not ask, the header shows it; `--track`
//! changes it and says what that changes; a locked prediction keeps the track it was locked in
//! on, and is judged there. Without a terminal: `--answers` never asks, an unknown `--track`
//! names the tracks, the course listing shows the track.

use crate::common::pty;
use pty::*;
use std::path::{Path, PathBuf};

const COURSE: &str = "tests/inputs/tracks_term";

fn lab(name: &str) -> String {
    course_lab(COURSE, name)
}

/// Lab 1 asks the track (the default highlighted), the choice lands in the course record and
/// the header; the prediction locked in on it keeps it. Lab 2 does not ask and shows the same
/// track. `--track cloud` then changes it, says so (naming the prediction that keeps Phone),
/// and the locked prediction is still shown, and judged, on Phone: `yes` is right on Cloud
/// Fleet and wrong on Phone.
#[test]
fn the_course_asks_once_keeps_the_track_and_a_change_keeps_locked_predictions() {
    let d = tmp("tracks-course");
    let l1 = d.join("batching.json");
    let l2 = d.join("memory.json");
    let mut s = spawn(&[&lab("batching"), "--ledger", arg(&l1)], 100);
    expect(&mut s, "pick yours");
    expect(&mut s, "Your track?");
    // The three tracks, numbered, with icon, label and summary; Cloud Fleet (the default)
    // highlighted.
    expect(&mut s, "Enter choose");
    expect(&mut s, "1) 📱 Phone — One user, one small chip");
    expect(
        &mut s,
        "❯ 2) ☁ Cloud Fleet — A thousand GPUs behind a load balancer",
    );
    expect(&mut s, "3) 💍 Smart Ring — A microcontroller on a finger");
    send(&mut s, "1");
    expect(&mut s, "Batching on Phone");
    expect(&mut s, "Track: 📱 Phone — One user, one small chip");
    expect(&mut s, "Does a batch of 2 finish within the budget?");
    expect(&mut s, "Enter choose");
    // Locks in `yes`: wrong on Phone (30 ms × 2 > 33 ms).
    send(&mut s, "\r");
    expect(&mut s, "Not quite.");
    expect(&mut s, "Press Enter to continue");
    send(&mut s, "\x04");
    finish(&mut s);
    let r = record(&d);
    assert_eq!(r["track"], "phone", "{r}");
    let a = &ledger(&l1)["parts"]["a"];
    assert_eq!(
        (&a["prediction"], &a["track"], &a["prediction_correct"]),
        (&"yes".into(), &"phone".into(), &false.into()),
        "{a}"
    );
    assert_eq!(r["labs"]["batching"]["parts"]["a"]["track"], "phone", "{r}");

    // Lab 2: no question; the header shows the course's track.
    let mut s = spawn(&[&lab("memory"), "--ledger", arg(&l2)], 100);
    let before = expect(&mut s, "Track: 📱 Phone");
    assert!(!before.contains("Your track?"), "{before}");
    expect(&mut s, "A 500 MB model on the Phone track. Does it fit?");
    expect(&mut s, "Enter choose");
    send(&mut s, "q");
    finish(&mut s);

    // --track cloud: changed, said, and the locked prediction keeps Phone.
    let mut s = spawn(
        &[&lab("batching"), "--ledger", arg(&l1), "--track", "cloud"],
        100,
    );
    expect(&mut s, "Track changed from 📱 Phone to ☁ Cloud Fleet");
    expect(&mut s, "now show Cloud Fleet's numbers,");
    expect(&mut s, "Part A (📱 Phone)");
    expect(&mut s, "Batching on Cloud Fleet");
    expect(&mut s, "Track: ☁ Cloud Fleet");
    expect(&mut s, "Your prediction: ");
    expect(&mut s, "→ yes) Yes, it fits");
    expect(
        &mut s,
        "(locked in on the 📱 Phone track, and judged on it)",
    );
    // The verdict and its feedback are Phone's (60 ms of a 33 ms budget), not Cloud Fleet's.
    expect(&mut s, "Not quite. 60 ms against a budget of 33 ms.");
    // A look at the other answer: `no` is right on Phone, where the prediction was locked.
    expect(&mut s, "2) Look at another answer's feedback");
    expect(&mut s, "Continue →");
    send(&mut s, "2");
    expect(&mut s, "Whose feedback?");
    expect(&mut s, "no) No, it does not");
    send(&mut s, "\r");
    expect(&mut s, "A look at no; your locked-in answer stays yes.");
    expect(&mut s, "✓ Correct. 60 ms against a budget of 33 ms.");
    expect(&mut s, "What next?");
    expect(&mut s, "Continue →");
    send(&mut s, "q");
    finish(&mut s);
    let r = record(&d);
    assert_eq!(r["track"], "cloud", "{r}");
    let a = &ledger(&l1)["parts"]["a"];
    assert_eq!(
        (&a["prediction"], &a["track"], &a["prediction_correct"]),
        (&"yes".into(), &"phone".into(), &false.into()),
        "the locked prediction keeps its track and its verdict: {a}"
    );
    assert_eq!(ledger(&l1)["track"], "cloud");
}

/// At 60 columns the menu and the header wrap at spaces under their own indent: no line of
/// the track menu runs past the screen.
#[test]
fn the_track_menu_wraps_in_a_narrow_terminal() {
    let d = tmp("tracks-narrow");
    let l1 = d.join("batching.json");
    let mut s = spawn(&[&lab("batching"), "--ledger", arg(&l1)], 60);
    s.get_process_mut().set_window_size(60, 20).unwrap();
    let shown = expect(&mut s, "finger");
    println!("{shown}");
    for line in shown.split(['\n', '\r']) {
        let plain = strip(line);
        assert!(
            plain.chars().count() <= 60,
            "a line wider than 60 columns: {plain:?}\n{shown}"
        );
    }
    send(&mut s, "3");
    expect(&mut s, "Track: 💍 Smart Ring — A microcontroller on a");
    expect(&mut s, "Enter choose");
    send(&mut s, "q");
    finish(&mut s);
    assert_eq!(record(&d)["track"], "ring");
}

/// Text without escape sequences (the widgets' cursor movement).
fn strip(s: &str) -> String {
    let mut out = String::new();
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        if c == '\x1b' {
            if it.peek() == Some(&'[') {
                it.next();
                for d in it.by_ref() {
                    if d.is_ascii_alphabetic() {
                        break;
                    }
                }
            }
            continue;
        }
        out.push(c);
    }
    out
}

fn piped(args: &[&str]) -> std::process::Output {
    crate::common::run::run_with(args, "")
}

fn ledger_in(d: &Path, name: &str) -> PathBuf {
    d.join(name)
}

/// `--answers` never asks: `--track`, else the record's, else the default. An unknown
/// `--track` is an error naming the tracks, with a did-you-mean. The listing shows the track.
#[test]
fn answers_never_ask_and_an_unknown_track_names_the_tracks() {
    let d = tmp("tracks-answers");
    let l1 = ledger_in(&d, "batching.json");
    let answers = d.join("a.yaml");
    std::fs::write(
        &answers,
        "predictions: {a: \"yes\"}\nreflections: {a: bigger}\n",
    )
    .unwrap();
    // Nothing saved and no --track: the default (Cloud Fleet), where `yes` is right.
    let o = piped(&[
        &lab("batching"),
        "--ledger",
        arg(&l1),
        "--answers",
        arg(&answers),
    ]);
    let (out, err) = crate::common::run::text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert!(!out.contains("Your track?"), "{out}");
    assert!(out.contains("Track: ☁ Cloud Fleet"), "{out}");
    let a = &ledger(&l1)["parts"]["a"];
    assert_eq!(a["prediction_correct"], true, "{a}");
    assert_eq!(a["reflection_correct"], true, "{a}");
    assert_eq!(record(&d)["track"], "cloud");

    // A typo: an error that names the tracks and the nearest one; nothing changes.
    let o = piped(&[
        &lab("memory"),
        "--ledger",
        arg(&d.join("m.json")),
        "--track",
        "clod",
    ]);
    let (_, err) = crate::common::run::text(&o);
    assert!(!o.status.success());
    assert!(
        err.contains("no track `clod` (tracks: phone, cloud, ring)") && err.contains("cloud"),
        "{err}"
    );
    assert!(err.contains("did you mean"), "{err}");
    assert_eq!(record(&d)["track"], "cloud");

    // The listing shows the track, and sets another with --track (saying what it changes).
    let course = root().join(COURSE);
    let o = piped(&[arg(&course), "--ledger", arg(&l1)]);
    let (out, _) = crate::common::run::text(&o);
    assert!(
        out.contains("Track: ☁ Cloud Fleet (--track ID changes it"),
        "{out}"
    );
    let o = piped(&[arg(&course), "--ledger", arg(&l1), "--track", "ring"]);
    let (out, _) = crate::common::run::text(&o);
    assert!(
        out.contains("Track changed from ☁ Cloud Fleet to 💍 Smart Ring"),
        "{out}"
    );
    assert!(out.contains("Part A (☁ Cloud Fleet)"), "{out}");
    assert!(out.contains("Track: 💍 Smart Ring"), "{out}");
    // The listing's titles are on the student's track.
    assert!(out.contains("1. Batching on Smart Ring — done"), "{out}");
    let r = record(&d);
    assert_eq!(r["track"], "ring");
    assert_eq!(r["labs"]["batching"]["parts"]["a"]["track"], "cloud", "{r}");
}

/// `render --record R --to markdown` without `--track` renders the record's track, under the
/// labs' plain file names (as `--track` does): the handout of a student on Phone is Phone's.
#[test]
fn a_handout_with_a_record_is_on_the_records_track() {
    let d = tmp("tracks-handout");
    let answers = d.join("a.yaml");
    std::fs::write(
        &answers,
        "predictions: {a: \"no\"}\nreflections: {a: smaller}\n",
    )
    .unwrap();
    let o = piped(&[
        &lab("batching"),
        "--ledger",
        arg(&d.join("b.json")),
        "--answers",
        arg(&answers),
        "--track",
        "phone",
    ]);
    assert!(o.status.success(), "{:?}", crate::common::run::text(&o));
    let rec = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .starts_with("course-")
        })
        .unwrap();
    let out = d.join("md");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_labforge"))
        .args(["render", &lab("batching"), "--to", "markdown", "--record"])
        .arg(&rec)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let md = std::fs::read_to_string(out.join("batching.md")).expect("the plain file name");
    assert!(md.contains("Batching on Phone"), "{md}");
    assert!(md.contains("Phone"), "{md}");
    assert!(!md.contains("Cloud Fleet"), "{md}");
    assert!(!out.join("batching.cloud.md").exists());
}

/// A lab on its own with its own `tracks:` asks the same (without a terminal, as numbered
/// lines), keeps the choice in its ledger (`track`), and does not ask again.
#[test]
fn a_lab_on_its_own_asks_and_keeps_the_track_in_its_ledger() {
    let d = tmp("tracks-alone");
    let l = d.join("l.json");
    let alone = root().join("tests/inputs/ok_tracks.yaml");
    // 1: Phone; then the prediction's first option (yes: wrong on Phone), then input ends.
    let o = crate::common::run::run_with(&[alone.to_str().unwrap(), "--ledger", arg(&l)], "1\n1\n");
    let (out, _) = crate::common::run::text(&o);
    assert!(
        out.contains("This lab plays out on one of 2 tracks"),
        "{out}"
    );
    assert!(
        out.contains("Choose 1-2 [2]"),
        "the default, Cloud Fleet: {out}"
    );
    assert!(
        out.contains("Track: 📱 Phone — One user, one chip"),
        "{out}"
    );
    let v = ledger(&l);
    assert_eq!(v["track"], "phone", "{v}");
    assert_eq!(v["parts"]["a"]["track"], "phone", "{v}");
    assert_eq!(v["parts"]["a"]["prediction_correct"], false, "{v}");
    let o = crate::common::run::run_with(&[alone.to_str().unwrap(), "--ledger", arg(&l)], "");
    let (out, _) = crate::common::run::text(&o);
    assert!(!out.contains("Your track?"), "{out}");
    assert!(out.contains("Track: 📱 Phone"), "{out}");
}

/// Track labels and summaries are course.yaml's text: an escape sequence in one (OSC 52 writes
/// the clipboard) reaches the terminal as a visible mark, in the menu, the header and the
/// listing. `--track` on a lab without tracks is an error that says so.
#[test]
fn hostile_track_texts_are_shown_as_text_and_a_lab_without_tracks_refuses_track() {
    let d = tmp("tracks-hostile");
    let c = d.join("course");
    std::fs::create_dir_all(c.join("labs")).unwrap();
    std::fs::write(
        c.join("course.yaml"),
        "title: Hostile\nlabs: [labs/batching.yaml]\ntracks:\n  - { id: phone, label: \"Ph\\e]52;c;aGk=\\aone\", summary: \"x\\e[2Jy\" }\n  - { id: cloud, label: Cloud }\n  - { id: ring, label: Ring }\n",
    )
    .unwrap();
    std::fs::copy(lab("batching"), c.join("labs/batching.yaml")).unwrap();
    let l = d.join("b.json");
    let o = crate::common::run::run_with(
        &[
            c.join("labs/batching.yaml").to_str().unwrap(),
            "--ledger",
            arg(&l),
        ],
        "1\n",
    );
    let (out, err) = crate::common::run::text(&o);
    assert!(
        out.contains("Track: Ph\u{FFFD}]52;c;aGk=\u{FFFD}one"),
        "{out}\n{err}"
    );
    let o = crate::common::run::run_with(&[c.to_str().unwrap(), "--ledger", arg(&l)], "");
    let (list, _) = crate::common::run::text(&o);
    assert!(list.contains("Track: Ph\u{FFFD}]52"), "{list}");
    for t in [&out, &err, &list] {
        assert!(!t.contains('\u{1b}') && !t.contains('\u{7}'), "{t:?}");
    }
    let o = crate::common::run::run_with(
        &[
            root()
                .join("tests/inputs/run_fixture.yaml")
                .to_str()
                .unwrap(),
            "--ledger",
            arg(&d.join("f.json")),
            "--track",
            "phone",
        ],
        "",
    );
    let (_, err) = crate::common::run::text(&o);
    assert!(!o.status.success());
    assert!(
        err.contains("--track phone: this lab has no tracks"),
        "{err}"
    );
}
