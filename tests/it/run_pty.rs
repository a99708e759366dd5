//! `labforge run` on a pseudo-terminal: the interactive widgets driven by key presses (arrow
//! keys, digits, typed values), resume after SIGKILL, Ctrl-C, colour.

use expectrl::process::unix::{Signal, WaitStatus};
use expectrl::session::OsSession;
use expectrl::{Eof, Expect, Regex, Session};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const UP: &str = "\x1b[A";
const DOWN: &str = "\x1b[B";
const END: &str = "\x1b[F";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fixture() -> String {
    root()
        .join("tests/inputs/run_fixture.yaml")
        .to_string_lossy()
        .into_owned()
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("labforge-run-pty-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn spawn(args: &[&str], color: bool) -> OsSession {
    let mut c = Command::new(env!("CARGO_BIN_EXE_labforge"));
    c.arg("run")
        .args(args)
        .env("COLUMNS", "100")
        .env("TERM", "xterm");
    if color {
        c.env_remove("NO_COLOR");
    } else {
        c.env("NO_COLOR", "1");
    }
    let mut s = Session::spawn(c).expect("spawn on a pty");
    s.set_expect_timeout(Some(Duration::from_secs(30)));
    s
}

/// `labforge run` of the fixture on a terminal `cols` columns by 40 rows, with `COLUMNS` unset
/// (the width comes from the terminal). The size is read at start-up: the shell waits until
/// the size set here has arrived before it starts the program.
fn spawn_sized(cols: u16, ledger: &Path) -> OsSession {
    let mut c = Command::new("sh");
    c.args([
        "-c",
        &format!(
            "while [ \"$(stty size)\" != '40 {cols}' ]; do sleep 0.02; done; exec '{}' run '{}' --ledger '{}'",
            env!("CARGO_BIN_EXE_labforge"),
            fixture(),
            ledger.display()
        ),
    ])
    .env_remove("COLUMNS")
    .env("NO_COLOR", "1")
    .env("TERM", "xterm");
    let mut s = Session::spawn(c).expect("spawn on a pty");
    s.get_process_mut().set_window_size(cols, 40).unwrap();
    s.set_expect_timeout(Some(Duration::from_secs(30)));
    s
}

fn expect(s: &mut OsSession, what: &str) -> String {
    match s.expect(what) {
        Ok(c) => String::from_utf8_lossy(c.before()).into_owned(),
        Err(e) => panic!("waiting for {what:?}: {e}"),
    }
}

fn send(s: &mut OsSession, keys: &str) {
    s.send(keys).expect("send keys");
}

/// Waits for a list widget to be drawn (raw mode is on from then).
fn list(s: &mut OsSession) {
    expect(s, "Enter choose");
}

fn exit_code(s: &mut OsSession) -> i32 {
    let _ = s.expect(Eof);
    match s.get_process().wait().expect("wait") {
        WaitStatus::Exited(_, code) => code,
        other => panic!("not exited: {other:?}"),
    }
}

fn ledger(p: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

#[test]
fn full_run_with_arrow_keys_and_a_rejected_value() {
    let d = tmp("full");
    let l = d.join("l.json");
    let mut s = spawn(&[&fixture(), "--ledger", l.to_str().unwrap()], false);
    expect(&mut s, "Make your prediction");
    list(&mut s);
    // Down, a letter, up: the pointer moves (a prediction's letter only moves it: nothing is
    // locked in before Enter); Enter locks in B.
    send(&mut s, DOWN);
    expect(&mut s, "❯ B) ~600 minutes");
    send(&mut s, "c");
    expect(&mut s, "❯ C) ~30 minutes");
    send(&mut s, UP);
    expect(&mut s, "❯ B) ~600 minutes");
    send(&mut s, "\r");
    expect(&mut s, "  → B) ~600 minutes");
    expect(&mut s, "✓ Correct. Right: amplification 5x.");
    // The feedback stays until Enter: nothing follows the pause before it.
    let shown = expect(&mut s, "Press Enter to continue");
    assert!(!shown.contains("Wait "), "{shown}");
    send(&mut s, "\r");
    // Instruments unlocked.
    expect(&mut s, "Wait           600.0 min  [✗ bad]");
    expect(&mut s, "▸ Wait vs utilization");
    expect(&mut s, "What next?");
    list(&mut s);
    send(&mut s, "1");
    expect(&mut s, "Enter keeps it:");
    send(&mut s, "1.5\r");
    expect(
        &mut s,
        "✗ Utilization must be between 0.10 and 0.99, not 1.5",
    );
    expect(&mut s, "Enter keeps it:");
    // Ctrl-U clears what was typed; Backspace edits the typed value.
    send(&mut s, "0.3\x15");
    send(&mut s, "0.77\x7f5\r");
    expect(&mut s, "Controls: Utilization = 0.75");
    expect(&mut s, "Wait           450.0 min  [✗ bad]");
    expect(&mut s, "What next?");
    list(&mut s);
    send(&mut s, "2");
    expect(&mut s, "Workload");
    list(&mut s);
    send(&mut s, UP);
    expect(&mut s, "❯ 1) Uniform (C_s=1)");
    send(&mut s, "\r");
    expect(&mut s, "  → 1) Uniform (C_s=1)");
    expect(&mut s, "Wait           90.0 min  [✗ bad]");
    expect(&mut s, "What next?");
    list(&mut s);
    send(&mut s, "4");
    expect(&mut s, "Pollaczek-Khinchine");
    expect(&mut s, "What next?");
    list(&mut s);
    // After locking in, another answer's feedback is a look (recorded), not a new answer.
    send(&mut s, "5");
    expect(&mut s, "Whose feedback?");
    list(&mut s);
    send(&mut s, "\r");
    expect(&mut s, "A look at A; your locked-in answer stays B.");
    expect(&mut s, "What next?");
    list(&mut s);
    send(&mut s, END);
    expect(&mut s, "❯ 6) Continue →");
    send(&mut s, "\r");
    expect(&mut s, "What is the cheapest lever?");
    list(&mut s);
    send(&mut s, &format!("{DOWN}\r"));
    expect(&mut s, "✓ Correct. Yes: variability is the lever.");
    let shown = expect(&mut s, "Press Enter to continue");
    assert!(!shown.contains("Part B"), "{shown}");
    send(&mut s, "\r");
    expect(&mut s, "Part B: Bars and numbers");
    expect(&mut s, "Your estimate (h):");
    send(&mut s, "2x\r");
    expect(&mut s, "type a number");
    expect(&mut s, "Your estimate (h):");
    send(&mut s, "25\r");
    expect(&mut s, "✓ Correct. Spot on.");
    expect(&mut s, "Press Enter to continue");
    send(&mut s, "\r");
    expect(&mut s, "Waiting  │");
    expect(&mut s, "What next?");
    list(&mut s);
    // Checkboxes: move down, Space unchecks "Failures", Enter.
    send(&mut s, "2");
    expect(&mut s, "Space toggle");
    send(&mut s, DOWN);
    expect(&mut s, "❯ [x] 2) Failures");
    send(&mut s, " ");
    expect(&mut s, "❯ [ ] 2) Failures");
    send(&mut s, "\r");
    expect(&mut s, "  → Waiting");
    expect(&mut s, "Hours lost            15.0 h  [✓ good]");
    expect(&mut s, "What next?");
    list(&mut s);
    send(&mut s, "4");
    expect(&mut s, "Which cause dominates?");
    list(&mut s);
    send(&mut s, "\r");
    expect(&mut s, "Press Enter to continue");
    send(&mut s, "\r");
    expect(&mut s, "Your decision (I would...):");
    send(&mut s, "Lower the variability.\r");
    // The name for the report, asked once (a lab on its own: this record); Enter skips.
    expect(&mut s, "Your name or student id (optional):");
    send(&mut s, "\r");
    expect(&mut s, "TIER     OPTIMAL");
    expect(&mut s, "Lab complete.");
    assert_eq!(exit_code(&mut s), 0);
    let v = ledger(&l);
    assert_eq!(v["design"]["partA_prediction"], "B");
    assert_eq!(v["design"]["partA_correct"], true);
    assert_eq!(
        v["parts"]["a"]["prediction_attempts"],
        serde_json::json!(["A"])
    );
    assert_eq!(v["design"]["partA_reflection"], "B");
    assert_eq!(v["design"]["partB_prediction"], "25");
    assert_eq!(v["design"]["partB_reflection"], "A");
    assert_eq!(
        v["design"]["student_justification"],
        "Lower the variability."
    );
    assert_eq!(v["parts"]["a"]["controls"]["utilization"], 0.75);
    assert_eq!(v["parts"]["b"]["controls"]["causes"]["failures"], false);
    assert_eq!(v["hud"]["tier"], "Optimal");
}

#[test]
fn resume_after_sigkill_and_ctrl_c_saves() {
    let d = tmp("resume");
    let l = d.join("l.json");
    let ls = l.to_str().unwrap();
    let mut s = spawn(&[&fixture(), "--ledger", ls], false);
    list(&mut s);
    send(&mut s, "\r");
    expect(&mut s, "✗ Not quite. That is the uniform case.");
    expect(&mut s, "Press Enter to continue");
    send(&mut s, "\r");
    expect(&mut s, "What next?");
    list(&mut s);
    send(&mut s, "1");
    expect(&mut s, "Enter keeps it:");
    send(&mut s, "0.9\r");
    expect(&mut s, "Controls: Utilization = 0.90");
    expect(&mut s, "What next?");
    list(&mut s);
    // Killed mid-lab, in raw mode.
    s.get_process_mut().kill(Signal::SIGKILL).unwrap();
    let st = s.get_process().wait().unwrap();
    assert!(
        matches!(st, WaitStatus::Signaled(_, Signal::SIGKILL, _)),
        "{st:?}"
    );
    let v = ledger(&l);
    assert_eq!(v["position"], "a.explore");
    assert_eq!(v["parts"]["a"]["controls"]["utilization"], 0.9);

    let mut s = spawn(&[&fixture(), "--ledger", ls], false);
    expect(&mut s, "Resuming at part A (explore)");
    expect(&mut s, "Your prediction: At 80% with C_s = 3");
    expect(&mut s, "  → A) ~120 minutes");
    expect(&mut s, "Controls: Utilization = 0.90");
    expect(&mut s, "Change Utilization (now 0.90)");
    send(&mut s, "6");
    expect(&mut s, "What is the cheapest lever?");
    list(&mut s);
    // Ctrl-C in a widget: saved, message, exit 130.
    send(&mut s, "\x03");
    expect(&mut s, "Interrupted. Progress saved to");
    assert_eq!(exit_code(&mut s), 130);
    let v = ledger(&l);
    assert_eq!(v["position"], "a.reflection");

    // Resumes at the reflection; Ctrl-C while typing a value also saves.
    let mut s = spawn(&[&fixture(), "--ledger", ls], false);
    expect(&mut s, "Resuming at part A (reflection)");
    list(&mut s);
    // A reflection's number moves the pointer; Enter chooses.
    send(&mut s, "2");
    expect(&mut s, "❯ B) Lower variability");
    send(&mut s, "\r");
    expect(&mut s, "Press Enter to continue");
    send(&mut s, "\r");
    expect(&mut s, "Your estimate (h):");
    send(&mut s, "12\x03");
    expect(&mut s, "Interrupted. Progress saved to");
    assert_eq!(exit_code(&mut s), 130);
    let v = ledger(&l);
    assert_eq!(v["design"]["partA_reflection"], "B");
    assert_eq!(v["position"], "b.prediction");
}

/// Feedback waits for Enter; `q` in a menu and Ctrl-D save and quit (exit 0, saying where);
/// the next run resumes where the student left.
#[test]
fn pause_quit_and_resume() {
    let d = tmp("quit");
    let l = d.join("l.json");
    let ls = l.to_str().unwrap();
    let mut s = spawn(&[&fixture(), "--ledger", ls], false);
    expect(&mut s, "q save and quit");
    send(&mut s, &format!("{DOWN}\r"));
    expect(&mut s, "✓ Correct. Right: amplification 5x.");
    expect(&mut s, "Press Enter to continue");
    // Other keys do not move on.
    send(&mut s, "x ");
    send(&mut s, "\r");
    expect(&mut s, "What next?");
    let hint = expect(&mut s, "Enter choose");
    assert!(!hint.contains("Press Enter to continue"), "{hint}");
    expect(&mut s, "q save and quit");
    send(&mut s, "q");
    expect(&mut s, "Saved to");
    assert_eq!(exit_code(&mut s), 0);
    let v = ledger(&l);
    assert_eq!(v["design"]["partA_prediction"], "B");
    assert_eq!(v["position"], "a.explore");

    // Resumes in the instruments; Ctrl-D in a menu also saves and quits.
    let mut s = spawn(&[&fixture(), "--ledger", ls], false);
    expect(&mut s, "Resuming at part A (explore)");
    expect(&mut s, "What next?");
    list(&mut s);
    send(&mut s, "6");
    expect(&mut s, "What is the cheapest lever?");
    list(&mut s);
    send(&mut s, &format!("{DOWN}\r"));
    expect(&mut s, "✓ Correct. Yes: variability is the lever.");
    expect(&mut s, "Press Enter to continue");
    send(&mut s, "\x04");
    expect(&mut s, "Saved to");
    assert_eq!(exit_code(&mut s), 0);
    let v = ledger(&l);
    assert_eq!(v["design"]["partA_reflection"], "B");
    assert_eq!(v["position"], "b.prediction");

    // Resumes at part B.
    let mut s = spawn(&[&fixture(), "--ledger", ls], false);
    expect(&mut s, "Your estimate (h):");
    s.get_process_mut().kill(Signal::SIGKILL).unwrap();
    let _ = s.get_process().wait();
}

#[test]
fn levels_are_coloured_when_colour_is_allowed() {
    let d = tmp("color");
    let l = d.join("l.json");
    let mut s = spawn(&[&fixture(), "--ledger", l.to_str().unwrap()], true);
    list(&mut s);
    // The option's number moves the pointer; Enter locks the prediction in.
    send(&mut s, "2\r");
    expect(&mut s, "Press Enter to continue");
    send(&mut s, "\r");
    // Red value and marker for a bad level; the marker text is there too.
    expect(&mut s, "\x1b[31m600.0 min\x1b[0m  \x1b[31m[✗ bad]\x1b[0m");
    s.get_process_mut().kill(Signal::SIGKILL).unwrap();
    let _ = s.get_process().wait();
}

/// Answers whatever is asked with defaults: Enter on lists (End then Enter to leave an explore
/// loop), 1 for numbers, a sentence for the decision log.
fn drive_with_defaults(lab: &Path, ledger: &Path) -> String {
    let mut s = spawn(
        &[
            lab.to_str().unwrap(),
            "--ledger",
            ledger.to_str().unwrap(),
            "--restart",
        ],
        false,
    );
    let mut transcript = String::new();
    // One needle at a time: a regex match consumes up to its right-most hit, and every prompt
    // waits for input, so at most one is pending.
    let re = Regex(
        r"Enter choose|Your estimate|Your decision|Your name or student id|Press Enter to continue|Lab complete",
    );
    for _ in 0..500 {
        let c = s
            .expect(&re)
            .unwrap_or_else(|e| panic!("{}: {e}\n{transcript}", lab.display()));
        let before = String::from_utf8_lossy(c.before()).into_owned();
        let m = String::from_utf8_lossy(c.get(0).unwrap()).into_owned();
        transcript.push_str(&before);
        transcript.push_str(&m);
        if m == "Enter choose" {
            // The explore menu: End goes to "Continue".
            let keys = if before.contains("What next?") {
                END
            } else {
                ""
            };
            send(&mut s, &format!("{keys}\r"));
            expect(&mut s, "  → ");
        } else if m.starts_with("Press Enter") {
            send(&mut s, "\r");
        } else if m.starts_with("Your estimate") {
            send(&mut s, "1\r");
        } else if m.starts_with("Your decision") {
            send(&mut s, "Decided.\r");
        } else if m.starts_with("Your name") {
            // Asked once for the course (labs/), then skipped.
            send(&mut s, "\r");
        } else {
            assert_eq!(exit_code(&mut s), 0, "{}", lab.display());
            return transcript;
        }
    }
    panic!("{}: did not finish\n{transcript}", lab.display());
}

#[test]
fn every_lab_runs_to_the_end_on_a_terminal() {
    let d = tmp("labs");
    let mut labs = vec![PathBuf::from(fixture())];
    if let Ok(rd) = std::fs::read_dir(root().join("labs")) {
        let mut found: Vec<PathBuf> = rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.extension().is_some_and(|x| x == "yaml")
                    && p.file_name()
                        .is_some_and(|n| n != labforge::course::FILE_NAME)
            })
            .collect();
        found.sort();
        labs.extend(found);
    }
    for lab in &labs {
        let l = d.join(format!(
            "{}.json",
            lab.file_stem().unwrap().to_string_lossy()
        ));
        let t = drive_with_defaults(lab, &l);
        assert!(!t.contains("panicked"), "{t}");
        let v = ledger(&l);
        assert_eq!(v["complete"], true, "{}", lab.display());
        assert!(v["hud"]["tier"].is_string(), "{}: {v}", lab.display());
        let design = v["design"].as_object().unwrap();
        assert!(
            design.keys().any(|k| k.ends_with("_prediction")),
            "{}: {v}",
            lab.display()
        );
        for (k, x) in design {
            if k.ends_with("_prediction") || k.ends_with("_reflection") {
                assert_ne!(x, "no_selection", "{}: {k} unanswered", lab.display());
            }
        }
    }
}

#[test]
fn width_comes_from_the_terminal_when_columns_is_unset() {
    let d = tmp("width");
    // A 60-column terminal.
    let mut s = spawn_sized(60, &d.join("l.json"));
    let before = expect(&mut s, "Enter choose");
    let text = console::strip_ansi_codes(&before).into_owned();
    let mut widest = 0;
    for line in text.lines() {
        widest = widest.max(console::measure_text_width(line));
    }
    assert!(widest <= 60, "a line is {widest} columns wide:\n{text}");
    assert!(widest > 50, "the text did not use the width:\n{text}");
    // The window grows to 90 columns: what is drawn next uses the new width.
    s.get_process_mut().set_window_size(90, 40).unwrap();
    send(&mut s, "\r");
    expect(&mut s, "Press Enter to continue");
    send(&mut s, "\r");
    let after = expect(&mut s, "Enter choose");
    let text = console::strip_ansi_codes(&after).into_owned();
    let widest = text
        .lines()
        .map(console::measure_text_width)
        .max()
        .unwrap_or(0);
    assert!(
        widest > 60 && widest <= 90,
        "after the resize a line is {widest} columns wide:\n{text}"
    );
    s.get_process_mut().kill(Signal::SIGKILL).unwrap();
}

macro_rules! step {
    ($s:expr, $what:expr) => {{
        eprintln!("step: {:?}", $what);
        expect($s, $what)
    }};
}

/// Feedback that sees the student: the lock text before the question, the live feedback and a
/// banner naming the locked-in answer, redrawn at the new value after a control moves; a numeric
/// answer outside the box is refused, Enter takes the box's default.
#[test]
fn live_feedback_names_the_answer_and_follows_a_control() {
    let d = tmp("live");
    let l = d.join("l.json");
    let lab = root().join("tests/inputs/html_predict.yaml");
    let mut s = spawn(
        &[lab.to_str().unwrap(), "--ledger", l.to_str().unwrap()],
        false,
    );
    step!(&mut s, "🔒 Commit to a number of steps first");
    list(&mut s);
    send(&mut s, DOWN);
    step!(&mut s, "❯ B) About 1,000");
    send(&mut s, "\r");
    step!(
        &mut s,
        "You chose B, a ring: at 1,024 nodes a tree takes only 10.0 steps."
    );
    step!(&mut s, "Press Enter to continue");
    send(&mut s, "\r");
    step!(&mut s, "Your prediction (B): You chose B");
    step!(
        &mut s,
        "INFO: You predicted B: a ring would take 1,023 steps here."
    );
    step!(&mut s, "What next?");
    list(&mut s);
    send(&mut s, "1");
    step!(&mut s, "Enter keeps it:");
    send(&mut s, "2048\r");
    step!(&mut s, "Controls: Nodes = 2,048");
    step!(&mut s, "at 2,048 nodes a tree takes only 11.0 steps.");
    step!(
        &mut s,
        "INFO: You predicted B: a ring would take 2,047 steps here."
    );
    step!(&mut s, "What next?");
    list(&mut s);
    send(&mut s, "5");
    // The reflection, then part b's numeric prediction.
    step!(&mut s, "Why does a tree need so few steps?");
    list(&mut s);
    send(&mut s, "\r");
    step!(&mut s, "Press Enter to continue");
    send(&mut s, "\r");
    step!(&mut s, "Your estimate (min) [Enter: 10]:");
    send(&mut s, "900\r");
    step!(&mut s, "type a number from 0 to 500");
    send(&mut s, "\r");
    // Live: at the current load (0.5, a 30 min wait), not the question's scenario.
    step!(
        &mut s,
        "✗ Not quite. The wait here is 30 min; you typed 10."
    );
    step!(&mut s, "Too low: the queue amplifies the wait.");
    let _ = s.send("\x03");
    let _ = exit_code(&mut s);
    let rec = ledger(&l);
    assert_eq!(rec["parts"]["a"]["prediction"], "B");
    assert_eq!(rec["parts"]["b"]["prediction"], "10");
}

/// Continues from a part's explore menu to the next part ("Continue →", the last entry).
fn continue_on(s: &mut OsSession) {
    expect(s, "What next?");
    list(s);
    send(s, END);
    expect(s, "❯ ");
    send(s, "\r");
}

#[test]
fn a_later_part_shows_an_earlier_locked_prediction() {
    let d = tmp("xpart");
    let l = d.join("l.json");
    let lab = root().join("tests/inputs/ok_prediction_xpart.yaml");
    let mut s = spawn(
        &[lab.to_str().unwrap(), "--ledger", l.to_str().unwrap()],
        false,
    );
    // Part A: lock in B; part B: type 300.
    expect(&mut s, "Make your prediction");
    list(&mut s);
    send(&mut s, DOWN);
    expect(&mut s, "❯ B) It explodes near 100%");
    send(&mut s, "\r");
    expect(&mut s, "Press Enter to continue");
    send(&mut s, "\r");
    continue_on(&mut s);
    expect(&mut s, "Part B: Guess the number");
    expect(&mut s, "Your estimate (min):");
    send(&mut s, "300\r");
    expect(&mut s, "Press Enter to continue");
    send(&mut s, "\r");
    continue_on(&mut s);
    // Part C reads both, in its prose and its banner (`prediction.a`, `prediction.b`).
    expect(&mut s, "Part C: Look back");
    let shown = expect(&mut s, "What next?");
    for want in [
        "In part A you chose B; in part B you typed 300 min.",
        "You predicted B in part A: at 90% load the wait is 270 min.",
    ] {
        assert!(shown.contains(want), "{want:?} in {shown}");
    }
    assert!(!shown.contains("not answered yet"), "{shown}");
    assert!(!shown.contains("A straight line"), "{shown}");
    s.get_process_mut().kill(Signal::SIGKILL).unwrap();
    let _ = s.expect(Eof);
}

/// A key pressed while the window is being resized is not lost. crossterm's default (mio,
/// edge-triggered) reader returned the resize and dropped the readiness of the key that arrived
/// with it, so the widget waited for a key already typed (the flaky failure of
/// `width_comes_from_the_terminal_when_columns_is_unset` in CI); its level-triggered `/dev/tty`
/// reader does not. A key, a resize and a key sent together arrive in one wake-up.
#[test]
fn a_key_pressed_during_a_resize_is_not_lost() {
    let d = tmp("resize-keys");
    let l = d.join("l.json");
    let mut s = spawn(&[&fixture(), "--ledger", l.to_str().unwrap()], false);
    list(&mut s);
    for i in 0..40u16 {
        let (key, lands) = if i % 2 == 0 {
            (DOWN, "❯ C) ~30 minutes")
        } else {
            (UP, "❯ A) ~120 minutes")
        };
        send(&mut s, key);
        s.get_process_mut()
            .set_window_size(if i % 2 == 0 { 90 } else { 100 }, 40)
            .unwrap();
        send(&mut s, key);
        expect(&mut s, lands);
    }
    s.get_process_mut().kill(Signal::SIGKILL).unwrap();
}

/// The rows `frame` (the widget's lines as drawn: `\r\x1b[2K` LINE `\r\n` each) takes on a
/// terminal `width` columns wide, and its widest line.
fn frame_rows(frame: &str, width: usize) -> (usize, usize) {
    let lines: Vec<usize> = frame
        .split("\r\n")
        .filter_map(|l| {
            l.rsplit("\r\x1b[2K")
                .next()
                .filter(|_| l.contains("\x1b[2K"))
        })
        .map(|l| console::measure_text_width(&console::strip_ansi_codes(l)))
        .collect();
    let rows = lines.iter().map(|w| w.max(&1).div_ceil(width)).sum();
    (rows, lines.into_iter().max().unwrap_or(0))
}

/// A list open while the window is resized is drawn again at the new width: what was drawn is
/// erased by the rows it takes there (the terminal rewraps it), and the hint is wrapped again.
/// Before, the list ignored the resize and erased the rows it had taken before: the next key
/// left a stale hint line behind it (seen at 100 -> 60 columns in tmux).
#[test]
fn a_list_open_during_a_resize_is_drawn_again_at_the_new_width() {
    let d = tmp("resize-redraw");
    let mut s = spawn_sized(100, &d.join("l.json"));
    expect(&mut s, "\x1b[?25l");
    let first = expect(&mut s, "~30 minutes") + "~30 minutes\r\n";
    let (at40, widest) = frame_rows(&first, 40);
    assert!(widest > 40, "the frame fits 40 columns already:\n{first:?}");
    s.get_process_mut().set_window_size(40, 40).unwrap();
    let erased = match s.expect(Regex(r"\x1b\[(\d+)A\r\x1b\[J")) {
        Ok(c) => String::from_utf8_lossy(c.get(1).unwrap())
            .parse::<usize>()
            .unwrap(),
        Err(e) => panic!("no redraw after the resize: {e}"),
    };
    assert_eq!(
        erased, at40,
        "erased {erased} rows, the frame takes {at40} at 40 columns"
    );
    let again = expect(&mut s, "~30 minutes") + "~30 minutes\r\n";
    let (rows, widest) = frame_rows(&again, 40);
    assert!(widest <= 40, "a line is {widest} columns wide:\n{again:?}");
    // A key now erases what the resized frame took, and moves the highlight.
    send(&mut s, DOWN);
    let c = s.expect(Regex(r"\x1b\[(\d+)A\r\x1b\[J")).unwrap();
    let n: usize = String::from_utf8_lossy(c.get(1).unwrap()).parse().unwrap();
    assert_eq!(n, rows);
    expect(&mut s, "❯ B)");
    s.get_process_mut().kill(Signal::SIGKILL).unwrap();
}
