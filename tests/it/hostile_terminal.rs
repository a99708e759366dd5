//! Lab text never reaches a terminal as an escape sequence: `check`, `eval`, `test` and `run`
//! on labs whose text or formulas carry OSC 52 (clipboard) and OSC 0 (window title) print no
//! ESC, BEL or C1 character, and refuse the lab with a located error.

use crate::common;
use std::process::Command;

fn labforge(args: &[&str]) -> (bool, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_labforge"))
        .args(args)
        .env("NO_COLOR", "1")
        .current_dir(common::root())
        .output()
        .unwrap();
    let mut all = String::from_utf8_lossy(&o.stdout).into_owned();
    all.push_str(&String::from_utf8_lossy(&o.stderr));
    (o.status.success(), all)
}

fn assert_no_controls(what: &str, out: &str) {
    let bad: Vec<char> = out
        .chars()
        .filter(|c| c.is_control() && !matches!(c, '\n' | '\t'))
        .collect();
    assert!(bad.is_empty(), "{what} printed {bad:?}:\n{out:?}");
}

fn hostile_labs() -> Vec<(String, std::path::PathBuf)> {
    let dir = tempfile::tempdir().unwrap().keep();
    let base =
        std::fs::read_to_string(common::root().join("tests/inputs/ok_minimal.yaml")).unwrap();
    let mut labs = Vec::new();
    let mut add = |name: &str, text: String| {
        assert_ne!(text, base, "{name}: the payload was not placed");
        let p = dir.join(format!("{name}.yaml"));
        std::fs::write(&p, text).unwrap();
        labs.push((name.to_string(), p));
    };
    // A YAML escape in a label, a title and an option; a raw ESC byte; a Rhai string escape.
    add(
        "label",
        base.replace("label: Wait,", r#"label: "Wait\e]52;c;cm0gLXJmIH4=\a","#),
    );
    add(
        "title",
        base.replace(
            "title: Queue demo",
            "title: \"Queue \\x1b]0;pwned\\x07demo\"",
        ),
    );
    add(
        "option",
        base.replace("\"~120 minutes\"", "\"~120 \\u009b2J minutes\""),
    );
    add(
        "raw",
        base.replace(
            "title: Second part",
            "title: \"Second \u{1b}]0;raw\u{7} part\"",
        ),
    );
    add(
        "formula",
        base.replace(
            "double: n * 2\n",
            "double: n * 2\n      t: '\"\\x1b]0;pwned\\x07\" + n'\n",
        ),
    );
    labs
}

#[test]
fn hostile_lab_text_prints_no_escape_sequences() {
    for (name, lab) in hostile_labs() {
        let lab = lab.to_str().unwrap();
        for args in [
            vec!["check", lab],
            vec!["eval", lab, "--part", "b"],
            vec!["test", lab],
            vec!["run", lab, "--restart", "--ledger", "/dev/null/none"],
        ] {
            let (ok, out) = labforge(&args);
            assert!(!ok, "{name}: `{}` accepted the lab:\n{out}", args[0]);
            assert_no_controls(&format!("{name}: {}", args[0]), &out);
        }
        // Located: `file:line:col: error: ...`; the YAML parser itself refuses a raw ESC byte.
        let (_, out) = labforge(&["check", lab]);
        let why = if name == "raw" {
            "unexpected character"
        } else {
            "control character"
        };
        assert!(
            out.contains(".yaml:") && out.contains(why),
            "{name}:\n{out}"
        );
    }
}
