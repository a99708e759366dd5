//! A course that stops a command is a located diagnostic, printed by the one printer (issue 21
//! item 4): a lab of the course that does not compile on one of the course's tracks is named in
//! its file at the line and column of the error, saying which track, with a hint — for `run
//! COURSE` (which printed `error: the lab does not compile on track …`, no file) and for `render
//! COURSE` (`error: COURSE/course.yaml: …`, neither the lab nor the line) — and a course record
//! that cannot be read is a diagnostic of the record's file with a hint, not `error: PATH: …`.

use crate::common;
use common::run::{text, tmp};
use std::path::Path;
use std::process::Command;

/// `labforge ARGS` with its data folder in `data`: (status ok, standard error).
fn labforge(data: &Path, args: &[&std::ffi::OsStr]) -> (bool, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_labforge"))
        .args(args)
        .env("XDG_DATA_HOME", data)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    (o.status.success(), text(&o).1)
}

/// A copy of the tracks demo course in which `labs/memory.yaml` compiles on its default track
/// and not on track `ring` (a slider's bounds the ring's variant turns round).
fn course_broken_on_ring(d: &Path) -> std::path::PathBuf {
    let c = d.join("course");
    std::fs::create_dir_all(c.join("labs")).unwrap();
    for f in ["course.yaml", "labs/batching.yaml", "labs/memory.yaml"] {
        let text = std::fs::read_to_string(Path::new("tests/inputs/tracks_course").join(f))
            .unwrap()
            .replace(
                "ring: { memory_mb: 1, start_params_m: 0.5 }",
                "ring: { memory_mb: 1, start_params_m: -5 }",
            );
        std::fs::write(c.join(f), text).unwrap();
    }
    c
}

/// What both commands print for the course of [`course_broken_on_ring`].
fn on_ring(c: &Path) -> String {
    let lab = c.join("labs/memory.yaml").display().to_string();
    format!(
        "{lab}:21:78: error: the lab does not compile on track `ring`: slider max -20 is not above min 0.1\n   |\n21 |       - slider: {{ id: params_m,"
    )
}

#[test]
fn run_of_a_course_with_a_lab_broken_on_one_track_names_the_lab_and_line() {
    let d = tmp("course-diag-run");
    let c = course_broken_on_ring(&d);
    let (ok, err) = labforge(&d, &["run".as_ref(), c.as_os_str()]);
    assert!(!ok, "{err}");
    assert!(err.contains(&on_ring(&c)), "{err}");
    assert!(err.contains("  = hint: swap or fix the bounds\n"), "{err}");
    assert!(!err.starts_with("error: "), "not the old message: {err}");
}

#[test]
fn render_of_a_course_with_a_lab_broken_on_one_track_names_the_lab_and_line() {
    let d = tmp("course-diag-render");
    let c = course_broken_on_ring(&d);
    let out = d.join("out");
    let (ok, err) = labforge(
        &d,
        &[
            "render".as_ref(),
            c.as_os_str(),
            "-o".as_ref(),
            out.as_os_str(),
        ],
    );
    assert!(!ok, "{err}");
    assert!(err.contains(&on_ring(&c)), "{err}");
    assert!(!err.contains("course.yaml"), "not the old message: {err}");
}

#[test]
fn a_course_record_that_cannot_be_read_is_a_diagnostic_of_its_file() {
    let d = tmp("course-diag-record");
    let id = labforge::course::course_id("Tracks demo course");
    let record = d.join(format!("labforge/course-{id}.json"));
    std::fs::create_dir_all(record.parent().unwrap()).unwrap();
    std::fs::write(&record, "{\"format\": \"labforge-cour").unwrap();
    let (ok, err) = labforge(&d, &["run".as_ref(), "tests/inputs/tracks_course".as_ref()]);
    assert!(!ok, "{err}");
    assert!(
        err.starts_with(&format!(
            "{}: error: not a JSON file (EOF while parsing a string at line 1 column 25)\n  = hint: this is the course's record of progress; move the file away yourself",
            record.display()
        )),
        "{err}"
    );
}
