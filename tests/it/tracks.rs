//! Tracks from the command line, on the shipped course (labs/: its course.yaml declares four
//! tracks; ml-intro reads them, the volume-2 labs do not): `render` writes one page per track
//! for a lab that varies and one page for a lab that does not, `--track` one track under the
//! plain name; `test` runs a varying lab's tests on every track and says which; `eval --track`
//! says the track and refuses an unknown one, naming the tracks.

use crate::common::root;
use std::path::PathBuf;
use std::process::{Command, Output};

fn bin() -> PathBuf {
    std::env::var_os("LABFORGE_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_labforge")))
}

fn labforge(args: &[&str]) -> Output {
    Command::new(bin())
        .args(args)
        .env("NO_COLOR", "1")
        .current_dir(root())
        .output()
        .unwrap()
}

fn files(dir: &std::path::Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn course_tracks() -> Vec<String> {
    let c = labforge::course::load(&root().join("labs/course.yaml")).unwrap();
    c.file.tracks.tracks.iter().map(|t| t.id.clone()).collect()
}

#[test]
fn a_lab_that_varies_renders_per_track_and_one_that_does_not_renders_once() {
    let tracks = course_tracks();
    assert!(tracks.len() >= 2, "the shipped course declares tracks");
    let out = tempfile::tempdir().unwrap();
    let md = out.path().join("md");
    let o = labforge(&[
        "render",
        "labs",
        "--to",
        "markdown",
        "-o",
        md.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let got = files(&md);
    for t in &tracks {
        assert!(got.contains(&format!("ml-intro.{t}.md")), "{got:?}");
        let text = std::fs::read_to_string(md.join(format!("ml-intro.{t}.md"))).unwrap();
        let c = labforge::course::load(&root().join("labs/course.yaml")).unwrap();
        let label = &c.file.tracks.get(t).unwrap().label;
        assert!(
            text.contains("**Track:**") && text.contains(label.as_str()),
            "{t}: no track line"
        );
    }
    // Handouts per track only; the volume-2 labs read no track: one file each, no track line.
    assert!(!got.contains(&"ml-intro.md".to_string()), "{got:?}");
    assert!(got.contains(&"fault-tolerance.md".to_string()), "{got:?}");
    assert!(
        !got.iter()
            .any(|f| f.starts_with("fault-tolerance.") && f != "fault-tolerance.md"),
        "{got:?}"
    );
    let ft = std::fs::read_to_string(md.join("fault-tolerance.md")).unwrap();
    assert!(!ft.contains("**Track:**"));

    // The page: STEM.html (the default track's) beside each track's.
    let html = out.path().join("html");
    let o = labforge(&["render", "labs", "-o", html.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let got = files(&html);
    assert!(got.contains(&"ml-intro.html".to_string()));
    for t in &tracks {
        assert!(got.contains(&format!("ml-intro.{t}.html")), "{got:?}");
    }

    // `--track`: that track only, under the plain name, with its numbers.
    let one = out.path().join("one");
    let t = tracks.last().unwrap();
    let o = labforge(&[
        "render",
        "labs/ml-intro.yaml",
        "--to",
        "markdown",
        "--track",
        t,
        "-o",
        one.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mds: Vec<String> = files(&one)
        .into_iter()
        .filter(|f| f.ends_with(".md"))
        .collect();
    assert_eq!(mds, vec!["ml-intro.md".to_string()]);
    // The same handout; its charts folder is named after the file.
    assert_eq!(
        std::fs::read_to_string(one.join("ml-intro.md")).unwrap(),
        std::fs::read_to_string(md.join(format!("ml-intro.{t}.md")))
            .unwrap()
            .replace(&format!("ml-intro.{t}-charts/"), "ml-intro-charts/")
    );
}

#[test]
fn test_runs_a_varying_lab_on_every_track_and_says_which() {
    let tracks = course_tracks();
    let o = labforge(&["test", "labs"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}");
    for t in &tracks {
        assert!(out.lines().any(|l| l.starts_with("ok   labs/ml-intro.yaml") && l.ends_with(&format!("[{t}]"))), "no test on {t}:\n{out}");
    }
    // A lab that reads no track runs its tests once, without a track.
    let ft: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("labs/fault-tolerance.yaml"))
        .collect();
    assert!(
        !ft.is_empty() && ft.iter().all(|l| !l.ends_with(']')),
        "{ft:?}"
    );
}

#[test]
fn eval_names_the_track_and_refuses_an_unknown_one() {
    let tracks = course_tracks();
    let t = &tracks[1];
    let o = labforge(&["eval", "labs/ml-intro.yaml", "--track", t]);
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).contains(&format!("on track {t} (")));
    let typo = format!("{}x", &t[..t.len() - 1]);
    let o = labforge(&["eval", "labs/ml-intro.yaml", "--track", &typo]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!("no track `{typo}`"))
            && err.contains(&format!("did you mean `{t}`?")),
        "{err}"
    );
}

/// A lab whose only read of the track is in one part formula still varies: its test runs on
/// both tracks (and fails on the one where the formula differs). Before, only `{{ }}` and
/// lab-level reads counted, and the test ran once.
#[test]
fn a_track_read_in_a_part_formula_makes_the_lab_vary() {
    let dir = tempfile::tempdir().unwrap();
    let lab = dir.path().join("solo.yaml");
    std::fs::write(
        &lab,
        r#"id: solo
title: Reads the track in a formula only
tracks:
  - { id: one, label: One }
  - { id: two, label: Two }
parts:
  - id: a
    title: A
    formulas:
      x: 'if track.id == "one" { 1 } else { 2 }'
    outputs:
      x: { label: X }
    instruments:
      - metrics: [ { output: x } ]
tests:
  - { part: a, expect: { x: 1 } }
"#,
    )
    .unwrap();
    let o = labforge(&["test", lab.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(!o.status.success(), "{out}");
    assert!(out.contains("ok   ") && out.contains("[one]"), "{out}");
    assert!(out.contains("FAIL ") && out.contains("[two]"), "{out}");
}

/// The handouts' index links every file it names (a lab with tracks: one link per track, to
/// files that exist), and an LMS gets one course package per track, titled with it, beside the
/// default one.
#[test]
fn the_index_links_each_tracks_handout_and_scorm_gets_a_course_per_track() {
    let tracks = course_tracks();
    let out = tempfile::tempdir().unwrap();
    let md = out.path().join("md");
    assert!(labforge(&[
        "render",
        "labs",
        "--to",
        "markdown",
        "-o",
        md.to_str().unwrap()
    ])
    .status
    .success());
    let index = std::fs::read_to_string(md.join("index.md")).unwrap();
    let links: Vec<&str> = index
        .split("](")
        .skip(1)
        .map(|r| r.split(')').next().unwrap())
        .collect();
    assert!(links.len() >= 4 + tracks.len(), "{index}");
    for l in &links {
        assert!(
            md.join(l).is_file(),
            "index.md links {l}, which was not written:\n{index}"
        );
    }
    for t in &tracks {
        assert!(
            links.contains(&format!("ml-intro.{t}.md").as_str()),
            "{index}"
        );
    }
    let scorm = out.path().join("scorm");
    let o = labforge(&[
        "render",
        "labs",
        "--to",
        "scorm",
        "-o",
        scorm.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let c = labforge::course::load(&root().join("labs/course.yaml")).unwrap();
    for t in &c.file.tracks.tracks {
        let zip = scorm.join(format!("course.{}.zip", t.id));
        let mut a = zip::ZipArchive::new(std::fs::File::open(&zip).unwrap()).unwrap();
        let mut manifest = String::new();
        std::io::Read::read_to_string(&mut a.by_name("imsmanifest.xml").unwrap(), &mut manifest)
            .unwrap();
        assert!(
            manifest.contains(&format!("({})</title>", t.label)),
            "{}: {manifest}",
            zip.display()
        );
    }
    assert!(scorm.join("course.zip").is_file());
}

/// Two reads of the track that `test` missed: a lab formula reading the track beside a constant
/// (it was compiled knowing only `track` and `variant`, failed, and counted as no read), and a
/// test with `track:` in a lab that reads no track (filtered out: it never ran, a wrong
/// expectation passed unseen).
#[test]
fn a_lab_formula_with_a_constant_varies_and_a_tracked_test_of_a_plain_lab_runs() {
    let dir = tempfile::tempdir().unwrap();
    let lab = dir.path().join("lf.yaml");
    std::fs::write(
        &lab,
        r#"id: lf
title: A lab formula reads the track with a constant
tracks:
  - { id: one, label: One }
  - { id: two, label: Two }
constants:
  k: 10
formulas:
  base: 'if track.id == "one" { k } else { 2 * k }'
parts:
  - id: a
    title: A
    formulas:
      x: base + 1
    outputs:
      x: { label: X }
    instruments:
      - metrics: [ { output: x } ]
tests:
  - { part: a, expect: { x: 11 } }
"#,
    )
    .unwrap();
    let o = labforge(&["test", lab.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("ok   ") && out.contains("[one]"), "{out}");
    assert!(out.contains("FAIL ") && out.contains("[two]"), "{out}");

    let c = dir.path().join("c");
    std::fs::create_dir_all(&c).unwrap();
    std::fs::write(
        c.join("course.yaml"),
        "title: C\nlabs: [plain.yaml]\ntracks:\n  - { id: one, label: One }\n  - { id: two, label: Two }\n",
    )
    .unwrap();
    std::fs::write(
        c.join("plain.yaml"),
        "id: plain\ntitle: Reads no track\nparts:\n  - id: a\n    title: A\n    formulas:\n      x: 3\n    outputs:\n      x: { label: X }\n    instruments:\n      - metrics: [ { output: x } ]\ntests:\n  - { part: a, track: two, expect: { x: 4 } }\n",
    )
    .unwrap();
    let o = labforge(&["test", c.join("plain.yaml").to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        !o.status.success() && out.contains("0 passed, 1 failed"),
        "{out}"
    );
}
