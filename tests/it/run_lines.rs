//! `labforge run` without a terminal, typed at the line prompter (stdin a pipe): a whole run with
//! bad input rejected, end of input and resume, Ctrl-C, SIGTERM and `q` saving, and the output's
//! width and colour. Runs from an answers file are `run_answers.rs`; what the ledger file holds
//! and which ones load is `run_record.rs`.

use crate::common;
use common::run::{cmd, ledger, run_answers, run_with, text, tmp, FIXTURE};
use std::io::Write;
use std::path::Path;
use std::process::Command;

#[test]
fn line_prompter_full_run_rejects_bad_input_and_records_everything() {
    let d = tmp("full");
    let l = d.join("l.json");
    let ls = l.to_str().unwrap();
    // prediction: `9` (no such option), `B`; explore: 1 -> utilization: `abc`, `1.5` (out of
    // range), `0.555` (between steps), `50%` (a percentage of a 0-to-1 slider: 0.5); 2 -> workload 1 (uniform); 4 -> math; 5 -> continue;
    // 5 -> look at another answer's feedback: A (a look, not an answer); 6 -> continue;
    // reflection 2; part B: `lots` then 25; 2 -> causes: only the first (waiting); 3 -> batch:
    // `3` (not a power of 2), `16`; continue; reflection 1; decision log.
    let input = "9\nB\n1\nabc\n1.5\n0.555\n50%\n2\n1\n4\n5\n1\n6\n2\nlots\n25\n2\n1\n3\n3\n16\n4\n1\nLower the variability.\n";
    let o = run_with(&[FIXTURE, "--ledger", ls], input);
    let (out, err) = text(&o);
    assert!(o.status.success(), "stdout:\n{out}\nstderr:\n{err}");
    for want in [
        "`9` is not an option: type a number from 1 to 3",
        "  → B) ~600 minutes",
        "✓ Correct. Right: amplification 5x.",
        "type a number, not `abc`",
        "Utilization must be between 0.10 and 0.99, not 1.5",
        "moves in steps of 0.01",
        "Pollaczek-Khinchine",
        "5) Look at another answer's feedback (yours stays locked in)",
        "A look at A; your locked-in answer stays B.",
        "✗ Not quite.",
        "type a number, e.g. 42 (not `lots`)",
        "Wait           30.0 min  [✗ bad]",
        "QUEUING WALL",
        "Hours lost            25.0 h  [✓ good]",
        "Batch size [1 to 64, ×2 per step] — now 8, Enter keeps it:",
        "Batch size moves in powers of 2: 3 is not one of its values;",
        "are 2 and 4",
        "Controls: Jobs per day = 10 jobs · Causes counted = Waiting · Batch size = 16",
        "Hours lost            15.0 h  [✓ good]",
        "Hours per batch item  0.94 h",
        "TIER     OPTIMAL",
    ] {
        assert!(out.contains(want), "missing {want:?} in:\n{out}");
    }
    // Outputs updated after the change: 0.5 utilization with the uniform workload.
    assert!(out.contains("Controls: Utilization = 0.50 · Workload = Uniform (C_s=1)"));
    let v = ledger(&l);
    let dsn = &v["design"];
    assert_eq!(dsn["partA_prediction"], "B");
    assert_eq!(dsn["partA_correct"], true);
    // The look after locking in is an attempt, not an answer.
    assert_eq!(
        v["parts"]["a"]["prediction_attempts"],
        serde_json::json!(["A"])
    );
    assert_eq!(v["hud"]["parts"]["a"], "correct");
    assert_eq!(dsn["partA_reflection"], "B");
    assert_eq!(dsn["partB_prediction"], "25");
    assert_eq!(dsn["partB_correct"], true);
    assert_eq!(dsn["partB_reflection"], "A");
    assert_eq!(dsn["student_justification"], "Lower the variability.");
    assert_eq!(v["hud"]["tier"], "Optimal");
    assert_eq!(v["hud"]["parts"]["a"], "correct");
    assert_eq!(v["parts"]["a"]["controls"]["utilization"], 0.5);
    assert_eq!(v["parts"]["a"]["controls"]["cs"], 1.0);
    assert_eq!(
        v["parts"]["b"]["controls"]["causes"],
        serde_json::json!({"waiting": true, "failures": false})
    );
    assert_eq!(v["parts"]["b"]["controls"]["batch"], 16.0);
    assert_eq!(v["complete"], true);
    assert_eq!(v["position"], "done");

    // Running again: complete, nothing asked.
    let o = run_with(&[FIXTURE, "--ledger", ls], "");
    let (out, _) = text(&o);
    assert!(o.status.success());
    assert!(out.contains("You have completed this lab"), "{out}");
    assert!(!out.contains("What next?"));
}

#[test]
fn eof_saves_and_the_next_run_resumes_where_it_stopped() {
    let d = tmp("eof");
    let l = d.join("l.json");
    let ls = l.to_str().unwrap();
    // Predict A (wrong), move utilization to 0.9, then input ends in the explore loop.
    let o = run_with(&[FIXTURE, "--ledger", ls], "1\n1\n0.9\n");
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}\n{err}");
    assert!(err.contains("Input ended. Progress saved to"), "{err}");
    assert!(
        out.contains("✗ Not quite. That is the uniform case."),
        "{out}"
    );
    let v = ledger(&l);
    assert_eq!(v["position"], "a.explore");
    assert_eq!(v["design"]["partA_prediction"], "A");
    assert_eq!(v["design"]["partA_correct"], false);
    assert_eq!(v["parts"]["a"]["controls"]["utilization"], 0.9);

    // Resume: the prediction is not asked again and the control is where it was left.
    let o = run_with(&[FIXTURE, "--ledger", ls], "6\n1\n");
    let (out, _) = text(&o);
    assert!(out.contains("Resuming at part A (explore)"), "{out}");
    assert!(out.contains("Your prediction: At 80% with C_s = 3, what is the wait?"));
    assert!(out.contains("Change Utilization (now 0.90)"), "{out}");
    assert!(!out.contains("Make your prediction\n? At 80%"));
    let v = ledger(&l);
    assert_eq!(v["design"]["partA_reflection"], "A");
    assert_eq!(v["position"], "b.prediction");

    // --restart starts over.
    let o = run_with(&[FIXTURE, "--ledger", ls, "--restart"], "");
    let (out, _) = text(&o);
    assert!(out.contains("Make your prediction"), "{out}");
    let v = ledger(&l);
    assert_eq!(v["design"]["partA_prediction"], "no_selection");
    assert!(v.get("position").is_none() || v["position"].is_null());
}

#[test]
fn output_respects_columns_and_no_color() {
    let d = tmp("cols");
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join(FIXTURE);
    let o = cmd(&[fixture.to_str().unwrap(), "--ledger", "l.json"])
        .current_dir(&d)
        .env("COLUMNS", "50")
        .spawn()
        .and_then(|mut c| {
            c.stdin.take().unwrap().write_all(b"2\n1\n0.97\n")?;
            c.wait_with_output()
        })
        .unwrap();
    let (out, _) = text(&o);
    assert!(!out.contains('\x1b'), "NO_COLOR output has escapes");
    for line in out.lines() {
        assert!(
            console::measure_text_width(line) <= 50,
            "{} columns: {line:?}",
            console::measure_text_width(line)
        );
    }
    assert!(out.contains("◆ Current (97%"), "{out}");
}

#[test]
fn sigint_in_line_mode_saves_and_exits_130() {
    interrupted_run_saves(libc::SIGINT, "sigint");
}

#[test]
fn sigterm_saves_like_ctrl_c() {
    interrupted_run_saves(libc::SIGTERM, "sigterm");
}

fn interrupted_run_saves(signal: i32, name: &str) {
    let d = tmp(name);
    let l = d.join("l.json");
    let mut child = cmd(&[FIXTURE, "--ledger", l.to_str().unwrap()])
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"2\n").unwrap();
    // Wait until the prediction is on disk, then interrupt while the explore menu waits.
    let start = std::time::Instant::now();
    while !std::fs::read_to_string(&l).is_ok_and(|s| s.contains("\"prediction\": \"B\"")) {
        assert!(
            start.elapsed().as_secs() < 20,
            "the prediction was never saved"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(100));
    unsafe { libc::kill(child.id() as i32, signal) };
    let o = child.wait_with_output().unwrap();
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert!(err.contains("Interrupted. Progress saved to"), "{err}");
    assert_eq!(ledger(&l)["position"], "a.explore");
    drop(stdin);
}

/// A control's value reads the same in the terminal, the handout and the page: the slider's step
/// sets the decimals (`2.0`, `2.5`), the unit follows after a space (the page's `controlText`).
#[test]
fn control_values_read_as_on_the_page_and_the_handout() {
    let d = tmp("ctltext");
    let lab = d.join("half.yaml");
    let yaml = std::fs::read_to_string("tests/inputs/ok_minimal.yaml")
        .unwrap()
        .replace(
            "      - number: { id: n, label: Count, min: 1, max: 10, default: 2 }\n",
            "      - number: { id: n, label: Count, min: 1, max: 10, default: 2 }\n      - slider: { id: h, label: Hours, min: 0.5, max: 8, step: 0.5, default: 2.0, unit: \"%\" }\n",
        )
        .replace("double: n * 2\n", "double: n * 2 + h\n")
        .replace("expect: { double: 6 }", "expect: { double: 8 }");
    std::fs::write(&lab, yaml).unwrap();
    let a = d.join("a.yaml");
    std::fs::write(
        &a,
        "predictions: {a: B}\nreflections: {a: A}\ncontrols: {b: {h: 2.5}}\n",
    )
    .unwrap();
    let l = d.join("l.json");
    let o = run_answers(lab.to_str().unwrap(), &l, &a);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert!(out.contains("Controls: Count = 2 · Hours = 2.0%"), "{out}");
    assert!(out.contains("Set Hours = 2.5%"), "{out}");
    // The prompt for a new value: prediction B, continue, reflection 1, part B: change Hours.
    let l2 = d.join("l2.json");
    let o = run_with(
        &[lab.to_str().unwrap(), "--ledger", l2.to_str().unwrap()],
        "B\n4\n1\n2\n",
    );
    let (out, _) = text(&o);
    assert!(
        out.contains("Hours [0.5 to 8.0, step 0.5] — now 2.0%"),
        "{out}"
    );

    let md = Command::new(env!("CARGO_BIN_EXE_labforge"))
        .args(["render", "--to", "markdown", "--out"])
        .arg(d.join("md"))
        .arg(&lab)
        .output()
        .unwrap();
    assert!(md.status.success(), "{md:?}");
    let handout = std::fs::read_to_string(d.join("md/half.md")).unwrap();
    assert!(
        handout.contains("0.5 to 8.0% in steps of 0.5; default **2.0%**"),
        "{handout}"
    );
}

/// Every mode keeps to the screen width, the echo of a chosen option included (answers files and
/// typed numbers echo the whole option text).
#[test]
fn chosen_options_wrap_at_the_screen_width_in_every_mode() {
    let d = tmp("cols2");
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join(FIXTURE);
    let a = d.join("a.yaml");
    std::fs::write(
        &a,
        "predictions: {a: B, b: 25}\nreflections: {a: B, b: A}\n",
    )
    .unwrap();
    for args in [vec!["--answers", a.to_str().unwrap()], vec![]] {
        let mut all = vec![fixture.to_str().unwrap(), "--ledger", "l.json", "--restart"];
        all.extend(args.iter().copied());
        let o = cmd(&all)
            .current_dir(&d)
            .env("COLUMNS", "30")
            .spawn()
            .and_then(|mut c| {
                c.stdin.take().unwrap().write_all(b"2\n6\n2\n")?;
                c.wait_with_output()
            })
            .unwrap();
        let (out, _) = text(&o);
        assert!(out.contains("→ B) ~600 minutes"), "{out}");
        for line in out.lines() {
            assert!(
                console::measure_text_width(line) <= 30,
                "{args:?}: {} columns: {line:?}\n{out}",
                console::measure_text_width(line)
            );
        }
    }
}

/// The real lab at 40 columns: panels, chart titles, metric rows with captions, rules and the
/// header all wrap instead of running past the edge.
#[test]
fn the_fault_tolerance_lab_fits_forty_columns() {
    let d = tmp("cols40");
    let a = d.join("a.yaml");
    std::fs::write(
        &a,
        "predictions: {a: C, b: D, c: B, d: B}\nreflections: {a: B, b: C, c: B, d: B}\ndecision_log: \"Async checkpoints to local NVMe, N+1 replicas.\"\n",
    )
    .unwrap();
    let lab = Path::new(env!("CARGO_MANIFEST_DIR")).join("labs/fault-tolerance.yaml");
    let o = cmd(&[
        lab.to_str().unwrap(),
        "--ledger",
        "l.json",
        "--answers",
        a.to_str().unwrap(),
    ])
    .current_dir(&d)
    .env("COLUMNS", "40")
    .output()
    .unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    let wide: Vec<&str> = out
        .lines()
        .filter(|l| console::measure_text_width(l) > 40)
        .collect();
    assert!(wide.is_empty(), "{wide:#?}");
    assert!(out.contains("Lab complete."));
}

/// A lab that asks nothing (explore-only parts) is walked from the start on a fresh run, not
/// taken for finished.
#[test]
fn a_lab_without_questions_is_walked_not_skipped() {
    let d = tmp("noq");
    let lab = d.join("noq.yaml");
    std::fs::write(
        &lab,
        "id: noq\ntitle: No questions\nparts:\n  - id: a\n    title: Only part\n    controls:\n      - number: { id: n, label: N, min: 1, max: 10, default: 2 }\n    formulas:\n      y: n * 2\n    outputs:\n      y: { label: Twice }\n    instruments:\n      - metrics: [ { output: y } ]\n",
    )
    .unwrap();
    let l = d.join("l.json");
    let o = run_with(
        &[lab.to_str().unwrap(), "--ledger", l.to_str().unwrap()],
        "2\n",
    );
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert!(!out.contains("Resuming"), "{out}");
    assert!(out.contains("Part A: Only part"), "{out}");
    assert!(out.contains("Twice  4"), "{out}");
    let v = ledger(&l);
    assert_eq!(v["complete"], true);
    assert_eq!(v["position"], "done");
}

/// `q` at a numbered menu saves and quits (exit 0, saying where); the record keeps what was
/// answered before.
#[test]
fn q_at_a_menu_saves_and_quits() {
    let d = tmp("quit");
    let l = d.join("l.json");
    let ls = l.to_str().unwrap();
    let o = run_with(&[FIXTURE, "--ledger", ls], "B\nq\n");
    let (out, err) = text(&o);
    assert!(o.status.success(), "stdout:\n{out}\nstderr:\n{err}");
    assert!(err.contains("Saved to"), "{err}");
    assert!(!err.contains("Input ended"), "{err}");
    let v = ledger(&l);
    assert_eq!(v["design"]["partA_prediction"], "B");
    assert_eq!(v["position"], "a.explore");
}

/// The roofline chart's vertical "Ridge point" line is drawn with `|`, and its legend shows
/// that glyph (it said `-`, the horizontal lines' glyph).
#[test]
fn a_vertical_lines_legend_shows_its_glyph() {
    let d = tmp("vline");
    let l = d.join("l.json");
    let o = run_with(
        &[
            "labs/compute-infrastructure.yaml",
            "--ledger",
            l.to_str().unwrap(),
            "--track",
            "cloud-fleet",
        ],
        "A\n",
    );
    let (out, _) = text(&o);
    assert!(out.contains("\n  | Ridge point\n"), "{out}");
    assert!(!out.contains("- Ridge point"), "{out}");
}

/// The lines from the one containing `start` on while they are indented by `cont` (its wrapped
/// continuation), each at most `width` columns unless it is one word (a long path); joined with
/// spaces, trimmed.
fn wrapped(text: &str, start: &str, cont: &str, width: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let i = lines
        .iter()
        .position(|l| l.contains(start))
        .unwrap_or_else(|| panic!("no {start:?} in:\n{text}"));
    let mut got = vec![lines[i]];
    got.extend(lines[i + 1..].iter().take_while(|l| l.starts_with(cont)));
    for l in &got {
        let one_word = !l.trim().contains(' ');
        assert!(
            l.chars().count() <= width || one_word,
            "{l:?} is wider than {width}:\n{text}"
        );
    }
    got.iter().map(|l| l.trim()).collect::<Vec<_>>().join(" ")
}

/// At 40 columns an error, a math (code) line and the closing "Saved to" wrap at spaces, never
/// in a word, and say the same as on one line.
#[test]
fn narrow_terminal_wraps_errors_math_and_the_saved_note_at_spaces() {
    let d = tmp("narrow");
    let l = d.join("a-rather-long-ledger-file-name.json");
    let mut c = cmd(&[FIXTURE, "--ledger", l.to_str().unwrap()]);
    let mut child = c.env("COLUMNS", "40").spawn().unwrap();
    let _ = child.stdin.take().unwrap().write_all(b"B\n1\n5\n\n4\nq\n");
    let (out, err) = text(&child.wait_with_output().unwrap());
    assert_eq!(
        wrapped(&out, "✗ Utilization", "    ", 40),
        "✗ Utilization must be between 0.10 and 0.99, not 5"
    );
    assert_eq!(
        wrapped(&out, "W = rho", "      ", 40),
        "W = rho / (1 - rho) * (1 + cs^2) / 2 * S"
    );
    assert_eq!(
        wrapped(&err, "Saved to", "", 40),
        format!(
            "Saved to {}; run the same command again to resume.",
            l.display()
        )
    );
}
