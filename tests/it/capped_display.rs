//! One number per quantity (issue 10 item 4): an output past its `cap:` reads `≥ cap` on the
//! page's card and panel, in the view, the handout and the terminal; a time under a minute reads
//! in seconds; a negative amount reads `−$`.

use labforge::lab::load_lab;
use std::path::Path;
use std::process::{Command, Stdio};

const LAB: &str = "tests/inputs/ok_capped_output.yaml";

fn tmp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("labforge-capped-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn render(to: &str) -> String {
    let d = tmp(to);
    let o = Command::new(env!("CARGO_BIN_EXE_labforge"))
        .args(["render", LAB, "--to", to, "-o"])
        .arg(&d)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut all = String::new();
    for e in std::fs::read_dir(&d).unwrap() {
        all += &std::fs::read_to_string(e.unwrap().path()).unwrap_or_default();
    }
    let _ = std::fs::remove_dir_all(&d);
    all
}

#[test]
fn the_view_marks_a_capped_output() {
    let lab = load_lab(Path::new(LAB)).unwrap();
    let v = labforge::view::lab(&lab, false).unwrap();
    let j = serde_json::to_value(&v).unwrap();
    let outs = j["parts"][0]["outputs"].as_array().unwrap();
    let wait = outs.iter().find(|r| r["name"] == "wait_min").unwrap();
    assert_eq!(wait["capped"], true);
    assert_eq!(wait["display"], "≥ 999.0 min");
    assert_eq!(wait["value"], "≥ 999.0");
    let write = outs.iter().find(|r| r["name"] == "write_min").unwrap();
    assert_eq!(write["capped"], false);
    assert_eq!(write["display"], "24.5 s");
    assert_eq!(write["unit"], "s");
}

#[test]
fn the_page_card_and_panel_agree() {
    let html = render("html");
    // The card and the panel line, first paint.
    assert!(
        html.contains(r#"<span data-text>≥ 999.0 min</span>"#),
        "card"
    );
    assert!(
        html.contains("W_q = <strong><span data-level=\"bad\">≥ 999.0 min"),
        "panel"
    );
    assert!(
        !html.contains("38,610"),
        "the uncapped value is shown somewhere"
    );
    assert!(html.contains("24.5 s") && !html.contains(">0 min<"));
    assert!(html.contains("−$1,545") && !html.contains("$-1,545"));
}

#[test]
fn the_handout_says_capped_too() {
    let md = render("markdown");
    assert!(md.contains("≥ 999.0"), "{md}");
    assert!(!md.contains("38,610"), "{md}");
    assert!(md.contains("−$1,545"), "{md}");
}

#[test]
fn the_terminal_says_capped_too() {
    let d = tmp("run");
    let l = d.join("l.json");
    let mut child = Command::new(env!("CARGO_BIN_EXE_labforge"))
        .args(["run", LAB, "--ledger"])
        .arg(&l)
        .env("NO_COLOR", "1")
        .env("COLUMNS", "80")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdin.take());
    let o = child.wait_with_output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    let _ = std::fs::remove_dir_all(&d);
    assert!(out.contains("≥ 999.0 min"), "{out}");
    assert!(!out.contains("38,610"), "{out}");
    assert!(out.contains("24.5 s"), "{out}");
}
