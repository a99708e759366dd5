//! A later part reads an earlier part's locked prediction (`prediction.a`): the terminal shows it
//! in part C's prose and banner once part A is locked in (through a pty), and the handouts print
//! what a reader on paper needs (the student's: "(Part A not answered yet)", the banner left
//! out; the key's: at the key's answers). Both as the files and screens a user gets.

use expectrl::process::unix::Signal;
use expectrl::session::OsSession;
use expectrl::{Eof, Expect, Session};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const FIXTURE: &str = "tests/inputs/ok_prediction_xpart.yaml";
const END: &str = "\x1b[F";
const DOWN: &str = "\x1b[B";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("labforge-xpart-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
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

#[test]
fn the_terminal_shows_an_earlier_locked_prediction_in_a_later_part() {
    let d = tmp("run");
    let l = d.join("l.json");
    let mut c = Command::new(env!("CARGO_BIN_EXE_labforge"));
    c.arg("run")
        .arg(root().join(FIXTURE))
        .args(["--ledger", l.to_str().unwrap()])
        .env("COLUMNS", "120")
        .env("TERM", "xterm")
        .env("NO_COLOR", "1");
    let mut s = Session::spawn(c).expect("spawn on a pty");
    s.set_expect_timeout(Some(Duration::from_secs(30)));
    // Part A: lock in B.
    expect(&mut s, "Make your prediction");
    expect(&mut s, "Enter choose");
    send(&mut s, DOWN);
    expect(&mut s, "❯ B) It explodes near 100%");
    send(&mut s, "\r");
    expect(&mut s, "Press Enter to continue");
    send(&mut s, "\r");
    expect(&mut s, "What next?");
    expect(&mut s, "Enter choose");
    send(&mut s, END);
    expect(&mut s, "❯ ");
    send(&mut s, "\r");
    // Part B: type 300.
    expect(&mut s, "Part B: Guess the number");
    expect(&mut s, "Your estimate (min):");
    send(&mut s, "300\r");
    expect(&mut s, "Press Enter to continue");
    send(&mut s, "\r");
    expect(&mut s, "What next?");
    expect(&mut s, "Enter choose");
    send(&mut s, END);
    expect(&mut s, "❯ ");
    send(&mut s, "\r");
    // Part C reads both, in its prose and its banner.
    expect(&mut s, "Part C: Look back");
    let shown = expect(&mut s, "What next?");
    assert!(
        shown.contains("In part A you chose B; in part B you typed 300 min."),
        "{shown}"
    );
    assert!(
        shown.contains("You predicted B in part A: at 90% load the wait is 270 min."),
        "{shown}"
    );
    assert!(!shown.contains("not answered yet"), "{shown}");
    assert!(!shown.contains("A straight line"), "{shown}");
    // Done looking: end the run this test started.
    s.get_process_mut()
        .kill(Signal::SIGKILL)
        .expect("kill the run");
    let _ = s.expect(Eof);
}

fn render(args: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_labforge"))
        .current_dir(root())
        .args(args)
        .output()
        .expect("run labforge");
    assert!(
        out.status.success(),
        "labforge {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Part C of a Markdown handout.
fn part_c(md: &str) -> &str {
    let at = md.find("## Part C").expect("a part C");
    &md[at..]
}

#[test]
fn handouts_print_a_later_part_reading_a_prediction_as_a_reader_on_paper_needs() {
    let d = tmp("md");
    let (stu, key) = (d.join("student"), d.join("key"));
    render(&[
        "render",
        FIXTURE,
        "--to",
        "markdown",
        "-o",
        stu.to_str().unwrap(),
    ]);
    render(&[
        "render",
        FIXTURE,
        "--to",
        "markdown",
        "--answer-key",
        "-o",
        key.to_str().unwrap(),
    ]);
    let s = read(&stu.join("ok_prediction_xpart.md"));
    let k = read(&key.join("ok_prediction_xpart-key.md"));
    // The student's handout: nothing is answered on paper yet; the banner is left out.
    let sc = part_c(&s);
    assert!(
        sc.contains("In part A you chose (Part A not answered yet); in part B you typed (Part B not answered yet) min."),
        "{sc}"
    );
    assert!(!sc.contains("You predicted"), "{sc}");
    // The key: at the key's answers (part A's correct option, part B's worked number).
    let kc = part_c(&k);
    assert!(
        kc.contains("In part A you chose B; in part B you typed 120 min."),
        "{kc}"
    );
    assert!(
        kc.contains("You predicted B in part A: at 90% load the wait is 270 min."),
        "{kc}"
    );
    insta::assert_snapshot!("student_part_c", sc);
    insta::assert_snapshot!("key_part_c", kc);
}
