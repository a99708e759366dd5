//! A render error is a located diagnostic, printed by the one printer as `check` prints a lab's
//! (issue 21 item 4): an instructor's template (`--templates DIR`) that fails is named with the
//! line and column minijinja gives, its line shown with a caret, and a hint saying whose file
//! it is — not `error: LAB: part.html.j2: ...` with minijinja's own box of the template.

use crate::common;
use common::run::{text, tmp};
use std::path::Path;
use std::process::Command;

/// `labforge render LAB --to TO --templates DIR -o OUT`: (status ok, standard error).
fn render(to: &str, templates: &Path, out: &Path) -> (bool, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_labforge"))
        .args([
            "render",
            "tests/inputs/ok_minimal.yaml",
            "--to",
            to,
            "--templates",
        ])
        .arg(templates)
        .arg("-o")
        .arg(out)
        .output()
        .unwrap();
    (o.status.success(), text(&o).1)
}

#[test]
fn a_broken_page_template_is_a_located_diagnostic() {
    let d = tmp("render-diag-html");
    let tpl = d.join("tpl");
    std::fs::create_dir_all(&tpl).unwrap();
    std::fs::write(
        tpl.join("part.html.j2"),
        "<section>\n  {% if %}\n</section>\n",
    )
    .unwrap();
    let (ok, err) = render("html", &tpl, &d.join("out"));
    assert!(!ok, "{err}");
    let file = tpl.join("part.html.j2").display().to_string();
    assert!(
        err.contains(&format!(
            "{file}:2:9: error: syntax error: unexpected end of block\n"
        )),
        "{err}"
    );
    // The line, a caret under the column, and the hint, as the printer writes them.
    assert!(err.contains("2 |   {% if %}\n  |         ^\n"), "{err}");
    assert!(
        err.contains(&format!(
            "= hint: this is your template (--templates {})",
            tpl.display()
        )),
        "{err}"
    );
    assert!(
        !err.contains("error: tests/inputs"),
        "not the old message: {err}"
    );
    assert!(!d.join("out/ok_minimal.html").exists(), "no page written");
}

#[test]
fn a_broken_handout_template_is_a_located_diagnostic() {
    let d = tmp("render-diag-md");
    let tpl = d.join("tpl");
    std::fs::create_dir_all(&tpl).unwrap();
    std::fs::write(tpl.join("handout.md.j2"), "# {{ lab.title }\n").unwrap();
    let (ok, err) = render("markdown", &tpl, &d.join("out"));
    assert!(!ok, "{err}");
    let file = tpl.join("handout.md.j2").display().to_string();
    assert!(
        err.contains(&format!(
            "{file}:1:16: error: syntax error: unexpected `}}`, expected end of variable block\n"
        )),
        "{err}"
    );
    assert!(err.contains("1 | # {{ lab.title }\n"), "{err}");
}
