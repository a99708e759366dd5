//! One filter for every text that reaches a terminal (`src/print.rs`, `load::text::visible`),
//! whoever wrote it. A student's decision log in a course record, carried forward into a later
//! lab, holds OSC 52 (writes the clipboard), OSC 0 (the window title), `ESC[2J` (clears the
//! screen), a one-character CSI and bidirectional overrides: `labforge run` on a pty shows the
//! decision with none of them, and so do the handouts printed with `--record`. A file name
//! holding an escape is shown the same way in messages. And no file of `src/` but `print.rs`
//! writes to stdout or stderr itself, so a new output path cannot skip the filter.

use crate::common;
#[allow(dead_code)]
use crate::common::pty;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The sequences no terminal output may hold, by name.
const PAYLOADS: &[(&str, &str)] = &[
    ("OSC52", "\u{1b}]52;c;cm0gLXJmIH4=\u{7}"),
    ("OSC0", "\u{1b}]0;pwned\u{1b}\\"),
    ("CLEAR", "\u{1b}[2J"),
    ("C1CSI", "\u{9b}3J"),
    ("RLO", "\u{202e}"),
    ("LRI", "\u{2066}"),
    ("CONCEAL", "\u{1b}[8m"),
];

/// What must not appear on a screen: any OSC (ESC `]`), the clears and the conceal style the
/// payloads hold, a C1 CSI, the bidi overrides. (The widgets' own `ESC[2K`, `ESC[J`, cursor
/// up and hide/show are not among them.)
fn assert_clean(what: &str, screen: &str) {
    for bad in [
        "\u{1b}]",
        "\u{1b}[2J",
        "\u{1b}[3J",
        "\u{1b}[8m",
        "\u{9b}",
        "\u{202e}",
        "\u{2066}",
    ] {
        assert!(
            !screen.contains(bad),
            "{what}: {bad:?} reached the terminal:\n{screen:?}"
        );
    }
}

/// The decision log: words around every payload.
fn decision() -> String {
    let mut d = String::from("Checkpoint often");
    for (name, p) in PAYLOADS {
        d.push_str(&format!(" {name}:{p}end"));
    }
    d.push_str(" at scale.");
    d
}

/// A course of two small labs (`first`, then `second`, which carries `first`'s decision
/// forward under its header), a record beside `ledger.json` holding the hostile decision.
fn course(dir: &Path) -> (PathBuf, PathBuf) {
    let base =
        std::fs::read_to_string(common::root().join("tests/inputs/ok_minimal.yaml")).unwrap();
    std::fs::write(
        dir.join("course.yaml"),
        "title: Hostile Records\nlabs: [first.yaml, second.yaml]\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("first.yaml"),
        base.replace("id: queue-demo", "id: first"),
    )
    .unwrap();
    let second = base
        .replace("id: queue-demo", "id: second")
        .replace("\nparts:\n", "\ncarry_forward:\n  - from: first\nparts:\n");
    assert!(second.contains("carry_forward"), "placed");
    std::fs::write(dir.join("second.yaml"), second).unwrap();
    let id = labforge::course::course_id("Hostile Records");
    let rec = serde_json::json!({
        "format": "labforge-course/1",
        "course": id,
        "labs": { "first": {
            "format": "labforge-ledger/2", "lab": "first", "version": 1,
            "parts": {}, "decision_log": decision(),
        } },
    });
    let rec_path = dir.join(labforge::record::CourseRecord::file_name(&id));
    std::fs::write(&rec_path, rec.to_string()).unwrap();
    (dir.join("second.yaml"), rec_path)
}

#[test]
fn a_carried_decision_reaches_the_pty_without_its_escapes() {
    let dir = tempfile::tempdir().unwrap();
    let (lab, _) = course(dir.path());
    let ledger = dir.path().join("ledger.json");
    let mut s = pty::spawn(
        &[lab.to_str().unwrap(), "--ledger", ledger.to_str().unwrap()],
        100,
    );
    // The header, the carried decision under it, then part A's question in its widget.
    let mut screen = pty::expect(&mut s, "Enter choose");
    pty::send(&mut s, "q");
    let (rest, code) = pty::finish(&mut s);
    screen.push_str(&rest);
    assert_eq!(code, 0, "{screen}");
    assert!(screen.contains("Your decision in Queue demo"), "{screen}");
    assert!(screen.contains("┃ Checkpoint often"), "{screen}");
    for (name, _) in PAYLOADS {
        assert!(
            screen.contains(&format!("{name}:")),
            "{name} dropped the text: {screen}"
        );
    }
    assert_clean("run", &screen);
}

#[test]
fn handouts_printed_with_the_record_hold_none_of_the_escapes() {
    let dir = tempfile::tempdir().unwrap();
    let (lab, rec) = course(dir.path());
    for (to, file) in [("markdown", "second.md"), ("handout-html", "second.html")] {
        let out = dir.path().join(format!("out-{to}"));
        let o = Command::new(env!("CARGO_BIN_EXE_labforge"))
            .args(["render", lab.to_str().unwrap(), "--to", to, "--record"])
            .arg(&rec)
            .arg("-o")
            .arg(&out)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let text = std::fs::read_to_string(out.join(file)).unwrap();
        assert!(
            text.contains("Checkpoint often"),
            "{to}: the decision is printed\n{text}"
        );
        assert!(text.contains("OSC52:"), "{to}\n{text}");
        assert_clean(to, &text);
        assert!(
            !text.chars().any(labforge::load::text::forbidden),
            "{to}: a control character in the handout"
        );
    }
}

#[test]
fn a_file_name_with_an_escape_is_shown_without_it() {
    let dir = tempfile::tempdir().unwrap();
    let (lab, _) = course(dir.path());
    let name = "lab\u{1b}]0;pwned\u{7}\u{1b}[2J\u{202e}.yaml";
    let hostile = dir.path().join(name);
    std::fs::copy(&lab, &hostile).unwrap();
    let missing = dir.path().join(format!("missing-{name}"));
    let import = dir.path().join(format!("import-{name}"));
    std::fs::write(&import, "{not json").unwrap();
    let cases: Vec<Vec<std::ffi::OsString>> = vec![
        vec!["check".into(), hostile.clone().into()],
        vec!["check".into(), missing.clone().into()],
        vec!["test".into(), missing.clone().into()],
        vec!["eval".into(), missing.clone().into()],
        vec![
            "render".into(),
            hostile.clone().into(),
            "--to".into(),
            "html".into(),
            "-o".into(),
            dir.path().join("o").into(),
        ],
        vec![
            "render".into(),
            missing.clone().into(),
            "--to".into(),
            "html".into(),
            "-o".into(),
            dir.path().join("o").into(),
        ],
        vec!["run".into(), missing.clone().into()],
        vec![
            "run".into(),
            dir.path().into(),
            "--import".into(),
            import.clone().into(),
            "--ledger".into(),
            dir.path().join("l.json").into(),
        ],
    ];
    // clap's own usage error quotes the argument (it strips the escape sequences itself; the
    // bidi override is the filter's).
    let clap: Vec<std::ffi::OsString> = vec![
        "render".into(),
        hostile.clone().into(),
        "--to".into(),
        "html".into(),
        format!("--{name}").into(),
    ];
    for args in cases.into_iter().chain([clap]) {
        let by_clap = args.len() == 5 && args[4].to_string_lossy().starts_with("--lab");
        let o = Command::new(env!("CARGO_BIN_EXE_labforge"))
            .args(&args)
            .env("NO_COLOR", "1")
            .env("XDG_DATA_HOME", dir.path().join("data"))
            .output()
            .unwrap();
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        let shown = if by_clap {
            "'--lab"
        } else {
            "lab\u{FFFD}]0;pwned"
        };
        assert!(
            all.contains(shown),
            "{args:?}: the name is shown, marked:\n{all}"
        );
        assert_clean(&format!("{args:?}"), &all);
    }
}

/// Files of `src/` that write to stdout or stderr without `print.rs`: `std::io::stdout()` or
/// `stderr()` used for anything but `is_terminal()` and `flush()`, `std::println!`-style paths
/// that bypass the crate's macros, crossterm's `execute!`/`queue!` (they write to a stream).
#[test]
fn no_file_but_print_rs_writes_to_the_terminal() {
    let mut bad = Vec::new();
    for f in common::files_under(&common::root().join("src")) {
        if f.extension().is_none_or(|x| x != "rs") || f.ends_with("src/print.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            let squeezed: String = code.chars().filter(|c| !c.is_whitespace()).collect();
            let writes = ["stdout()", "stderr()"].iter().any(|s| {
                squeezed.match_indices(s).any(|(k, _)| {
                    let own_name = squeezed[..k]
                        .chars()
                        .next_back()
                        .is_some_and(|c| c.is_alphanumeric() || c == '_');
                    if own_name {
                        return false; // `use_stderr()`, not the stream
                    }
                    let after = &squeezed[k + s.len()..];
                    !(after.starts_with(".is_terminal()") || after.starts_with(".flush()"))
                })
            });
            // main.rs is its own crate: the library's macros do not reach it.
            let own_crate = f.ends_with("src/main.rs")
                && ["print!(", "println!(", "eprint!(", "eprintln!("]
                    .iter()
                    .any(|m| squeezed.contains(m));
            let bypass = own_crate
                || [
                    "std::println!",
                    "std::print!",
                    "std::eprintln!",
                    "std::eprint!",
                    "execute!(",
                    "queue!(",
                ]
                .iter()
                .any(|m| squeezed.contains(m));
            if writes || bypass {
                bad.push(format!("{}:{}: {}", f.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "terminal writes outside src/print.rs:\n{}",
        bad.join("\n")
    );
}
