//! A render error is a located diagnostic, printed by the one printer as `check` prints a lab's
//! (issue 21 item 4): an instructor's template (`--templates DIR`) that fails is named with the
//! line and column minijinja gives, its line shown with a caret, and a hint saying whose file
//! it is — not `error: LAB: part.html.j2: ...` with minijinja's own box of the template. So is
//! what stops an LMS package of one track (`course.TRACK.zip`): a lab that does not compile on
//! it, in the lab's file, or a package the output folder refuses.

use crate::common;
use common::run::{text, tmp};
use std::path::Path;
use std::process::Command;

/// `labforge ARGS`: (status ok, standard error).
fn labforge(args: &[&std::ffi::OsStr]) -> (bool, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_labforge"))
        .args(args)
        .output()
        .unwrap();
    (o.status.success(), text(&o).1)
}

/// `labforge render INPUT --to TO [--templates DIR] -o OUT`: (status ok, standard error).
fn render_to(input: &Path, to: &str, templates: Option<&Path>, out: &Path) -> (bool, String) {
    let mut args = vec![
        "render".as_ref(),
        input.as_os_str(),
        "--to".as_ref(),
        to.as_ref(),
    ];
    if let Some(t) = templates {
        args.extend(["--templates".as_ref(), t.as_os_str()]);
    }
    args.extend(["-o".as_ref(), out.as_os_str()]);
    labforge(&args)
}

/// The standard error of a command that failed, which has `line`.
fn failed_with((ok, err): (bool, String), line: &str) -> String {
    assert!(!ok && err.contains(line), "want {line:?}:\n{err}");
    err
}

/// `labforge render LAB --to TO --templates DIR -o OUT`: (status ok, standard error).
fn render(to: &str, templates: &Path, out: &Path) -> (bool, String) {
    render_to(
        Path::new("tests/inputs/ok_minimal.yaml"),
        to,
        Some(templates),
        out,
    )
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

/// An LMS gets one package per track (`course.TRACK.zip`); a lab that does not compile on one of
/// them (here: it has no such track) is a diagnostic in that lab's file saying which package it
/// stopped, with a hint — not `error: index: b on track phone: …` with the first message only —
/// and the other tracks' packages are written all the same.
#[test]
fn a_lab_that_fails_on_one_lms_track_is_a_diagnostic_of_that_lab() {
    let d = tmp("render-diag-scorm-track");
    let labs = d.join("labs");
    std::fs::create_dir_all(&labs).unwrap();
    let src = std::fs::read_to_string("tests/inputs/ok_tracks.yaml").unwrap();
    std::fs::write(labs.join("a.yaml"), &src).unwrap();
    let other = src
        .replace("phone", "tablet")
        .replace("id: ok-tracks", "id: ok-tracks-two");
    std::fs::write(labs.join("b.yaml"), other).unwrap();
    let out = d.join("out");
    let b = labs.join("b.yaml").display().to_string();
    let err = failed_with(
        render_to(&labs, "scorm", None, &out),
        &format!("{b}: error: on track `phone` (course.phone.zip not written): no track `phone` (tracks: tablet, cloud)\n  = hint: "),
    );
    assert!(!err.contains("error: index"), "not the old message: {err}");
    assert!(!out.join("course.phone.zip").exists());
    assert!(out.join("course.cloud.zip").is_file(), "{err}");
}

/// A package the output folder refuses (a folder where `course.phone.zip` goes) is a diagnostic
/// of that package with a hint, printed by the one printer; the other tracks' are written.
#[test]
fn an_lms_package_the_output_folder_refuses_is_a_diagnostic_of_the_package() {
    let d = tmp("render-diag-scorm-write");
    let out = d.join("out");
    std::fs::create_dir_all(out.join("course.phone.zip")).unwrap();
    let refused = out.join("course.phone.zip").display().to_string();
    let err = failed_with(
        render_to(Path::new("tests/inputs/tracks_course"), "scorm", None, &out),
        &format!("course.phone.zip: error: not written: refusing to write {refused}: it is not a regular file"),
    );
    let hint = format!(
        "  = hint: rendered, but the output folder {} did not take it",
        out.display()
    );
    assert!(err.contains(&hint), "{err}");
    assert!(out.join("course.ring.zip").is_file(), "{err}");
}
