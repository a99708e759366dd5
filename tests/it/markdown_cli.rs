//! Handouts as the files a user gets: the real `labforge render` binary into a temp directory.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const FIXTURE: &str = "tests/inputs/md_checkpoint.yaml";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn labforge(args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_labforge"))
        .current_dir(root())
        .args(args)
        .output()
        .expect("run labforge");
    assert!(
        out.status.success(),
        "labforge {args:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Image links of a Markdown file.
fn images(md: &str) -> Vec<String> {
    use pulldown_cmark::{Event, Options, Parser, Tag};
    Parser::new_ext(md, Options::ENABLE_TABLES | Options::ENABLE_TASKLISTS)
        .filter_map(|e| match e {
            Event::Start(Tag::Image { dest_url, .. }) => Some(dest_url.to_string()),
            _ => None,
        })
        .collect()
}

#[test]
fn render_markdown_writes_the_handout_and_its_charts() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    labforge(&[
        "render",
        FIXTURE,
        "--to",
        "markdown",
        "-o",
        out.to_str().unwrap(),
    ]);
    let md = read(&out.join("md_checkpoint.md"));
    assert!(md.starts_with("# Checkpoint | Restart\n"));
    let imgs = images(&md);
    assert_eq!(
        imgs,
        [
            "md_checkpoint-charts/a-ucurve.svg",
            "md_checkpoint-charts/b-storage.svg"
        ]
    );
    for i in &imgs {
        // Relative to the Markdown file, as a viewer resolves them.
        let svg = read(&out.join(i));
        roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{i}: {e}"));
    }
    // Only the handout, its charts and the mark saying the folder is for students: no key,
    // no stray files.
    assert_eq!(read(&out.join(".labforge-output")), "student markdown\n");
    let mut names: Vec<String> = common::files_under(&out)
        .iter()
        .map(|p| {
            p.strip_prefix(&out)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/")
        })
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            ".labforge-output",
            "md_checkpoint-charts/a-ucurve.svg",
            "md_checkpoint-charts/b-storage.svg",
            "md_checkpoint.md"
        ]
    );
}

#[test]
fn answer_key_matches_the_handout() {
    let tmp = tempfile::tempdir().unwrap();
    let (s, k) = (tmp.path().join("s"), tmp.path().join("k"));
    labforge(&[
        "render",
        FIXTURE,
        "--to",
        "markdown",
        "-o",
        s.to_str().unwrap(),
    ]);
    labforge(&[
        "render",
        FIXTURE,
        "--to",
        "markdown",
        "--answer-key",
        "-o",
        k.to_str().unwrap(),
    ]);
    let handout = read(&s.join("md_checkpoint.md"));
    let key = read(&k.join("md_checkpoint-key.md"));
    assert!(
        key.contains("- [x] B) About 108 minutes **(correct)**"),
        "{key}"
    );
    assert!(key.contains("*Feedback:* Too frequent: the write overhead dominates."));
    assert!(key.contains("**Expected answer:** 40.8 min (accepted within ±15%)"));
    assert!(key.contains("**Answer:** par"));
    // Each prediction worked out at its scenario: the claimed output, in words, with its unit.
    assert!(
        key.contains("**Worked answer:** Optimal interval = **108.3 min** at Cluster size = 1,024 GPUs; Checkpoint write time = 2.0 min."),
        "{key}"
    );
    assert!(
        key.contains("**Worked answer:** Write time = **40.8 min** at Storage = NFS 1 GB/s."),
        "{key}"
    );
    // Not the lab's own test fixtures: they mean nothing to a grader.
    for fixture in [
        "write_eff",
        "Async at 4,096 GPUs",
        "NVMe RAID 100 GB/s**",
        "test point",
    ] {
        assert!(
            !key.contains(fixture),
            "the key shows the test fixture `{fixture}`"
        );
    }
    assert!(!handout.contains("Worked answer"));
    assert!(!handout.contains("[x]") && !handout.contains("Too frequent"));
    // Both link the same chart files.
    assert_eq!(images(&handout), images(&key));
}

#[test]
fn handout_html_is_one_printable_file_with_inline_charts() {
    let tmp = tempfile::tempdir().unwrap();
    let (s, k) = (tmp.path().join("s"), tmp.path().join("k"));
    labforge(&[
        "render",
        FIXTURE,
        "--to",
        "handout-html",
        "-o",
        s.to_str().unwrap(),
    ]);
    labforge(&[
        "render",
        FIXTURE,
        "--to",
        "handout-html",
        "--answer-key",
        "-o",
        k.to_str().unwrap(),
    ]);
    let names: Vec<String> = common::files_under(tmp.path())
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().to_string())
        .filter(|n| !n.starts_with('.'))
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    let html = read(&s.join("md_checkpoint.html"));
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert_eq!(
        html.matches("<svg xmlns=\"http://www.w3.org/2000/svg\"")
            .count(),
        2
    );
    // Each chart is named and described, with its values in a Data table beside it, open: a
    // printed `<details>` would show only "Data".
    assert_eq!(
        html.matches("<details class=\"chart-data\" open><summary>Data</summary><table>")
            .count(),
        2
    );
    assert_eq!(html.matches("aria-describedby=\"d-").count(), 2);
    assert!(html.contains("@media print"));
    assert!(html.contains("<span class=\"box\"></span> <strong>A)</strong> About 10 minutes"));
    let key = read(&k.join("md_checkpoint-key.html"));
    // The check is drawn (an SVG), not a character that needs a symbol font.
    assert!(
        key.contains("<li class=\"correct\"><span class=\"box\"><svg class=\"mark mark-check\"")
    );
    assert!(key.contains("</svg></span> <strong>B)</strong>"));
    assert!(key
        .contains("<strong>Worked answer:</strong> Optimal interval = <strong>108.3 min</strong>"));
    assert!(!key.contains("test point") && !key.contains("write_eff"));
    assert!(!html.contains("Worked answer"));
}

#[test]
fn templates_dir_overrides_the_embedded_templates() {
    let tmp = tempfile::tempdir().unwrap();
    let tpl = tmp.path().join("tpl");
    std::fs::create_dir(&tpl).unwrap();
    std::fs::write(
        tpl.join("handout.md.j2"),
        "# {{ header.title }} (custom)\n\n{% for p in parts %}- Part {{ p.letter }}: {{ p.title }}\n{% endfor %}",
    )
    .unwrap();
    std::fs::write(tpl.join("print.css"), "body { color: rebeccapurple; }\n").unwrap();
    let out = tmp.path().join("out");
    let (o, t) = (out.to_str().unwrap(), tpl.to_str().unwrap());
    labforge(&[
        "render",
        FIXTURE,
        "--to",
        "markdown",
        "-o",
        o,
        "--templates",
        t,
    ]);
    assert_eq!(
        read(&out.join("md_checkpoint.md")),
        "# Checkpoint | Restart (custom)\n\n- Part A: The Young-Daly Sweet Spot\n- Part B: The Checkpoint Storm\n"
    );
    // Files not overridden stay embedded: the HTML handout takes only the custom stylesheet.
    // (In a folder of its own: one folder holds one format's output.)
    let out_html = tmp.path().join("out-html");
    labforge(&[
        "render",
        FIXTURE,
        "--to",
        "handout-html",
        "-o",
        out_html.to_str().unwrap(),
        "--templates",
        t,
    ]);
    let html = read(&out_html.join("md_checkpoint.html"));
    assert!(html.contains("body { color: rebeccapurple; }"));
    assert!(!html.contains("@media print"));
    assert!(html.contains("<h2>Part A — The Young-Daly Sweet Spot</h2>"));
    // A broken override is reported with the template's name, and nothing is written.
    std::fs::write(tpl.join("handout.md.j2"), "{% for p in parts %}oops").unwrap();
    let out2 = tmp.path().join("out2");
    let r = Command::new(env!("CARGO_BIN_EXE_labforge"))
        .current_dir(root())
        .args([
            "render",
            FIXTURE,
            "--to",
            "markdown",
            "-o",
            out2.to_str().unwrap(),
            "--templates",
            t,
        ])
        .output()
        .unwrap();
    assert!(!r.status.success());
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("handout.md.j2"), "{err}");
    assert!(!out2.join("md_checkpoint.md").exists());
}

#[test]
fn rendering_a_directory_shows_progress_and_writes_an_index() {
    let tmp = tempfile::tempdir().unwrap();
    let labs = tmp.path().join("labs");
    std::fs::create_dir(&labs).unwrap();
    std::fs::copy(root().join(FIXTURE), labs.join("one.yaml")).unwrap();
    std::fs::copy(root().join(FIXTURE), labs.join("two.yaml")).unwrap();
    let out = tmp.path().join("out");
    let r = labforge(&[
        "render",
        labs.to_str().unwrap(),
        "--to",
        "markdown",
        "-o",
        out.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("[1/2]") && err.contains("one.yaml"), "{err}");
    assert!(err.contains("[2/2]") && err.contains("two.yaml"), "{err}");
    assert!(err.contains("rendered 2 lab(s)"), "{err}");
    for f in [
        "one.md",
        "two.md",
        "one-charts/a-ucurve.svg",
        "two-charts/b-storage.svg",
    ] {
        assert!(out.join(f).exists(), "{f}");
    }
    let index = read(&out.join("index.md"));
    assert_eq!(
        index,
        "# Handouts\n\n- [Checkpoint \\| Restart](one.md)\n- [Checkpoint \\| Restart](two.md)\n"
    );
}

#[test]
fn every_lab_renders_from_the_labs_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("x");
    let r = labforge(&[
        "render",
        "labs",
        "--to",
        "markdown",
        "-o",
        out.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&r.stderr);
    let course = labforge::course::load(&root().join("labs/course.yaml")).unwrap();
    let n = course.file.labs.len();
    assert!(
        err.contains("[1/")
            && err.contains(&format!("[{n}/{n}]"))
            && err.contains(&format!("rendered {n} lab(s)")),
        "{err}"
    );
    // Every lab's handout; a lab with tracks has one per track.
    let mut stems = Vec::new();
    for (stem, f) in course.stems().into_iter().zip(&course.file.labs) {
        match labforge::lab::load_lab(f).unwrap().track {
            None => stems.push(stem),
            Some(_) => stems.extend(
                course
                    .file
                    .tracks
                    .tracks
                    .iter()
                    .map(|t| format!("{stem}.{}", t.id)),
            ),
        }
    }
    assert!(
        stems.len() > n,
        "the course has a lab with tracks: {stems:?}"
    );
    for stem in stems {
        let md = read(&out.join(format!("{stem}.md")));
        let imgs = images(&md);
        assert!(!imgs.is_empty(), "{stem}: no charts");
        for i in imgs {
            let svg = read(&out.join(&i));
            roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{i}: {e}"));
        }
    }
    assert!(read(&out.join("index.md")).contains("(fault-tolerance.md)"));
}

/// Student output never sits beside a key, names one or links to one, whatever order the two
/// renders run in; the defaults are `build/FORMAT` and `build/key/FORMAT`.
#[test]
fn keys_and_student_output_never_share_a_folder() {
    for to in ["markdown", "handout-html"] {
        for key_first in [false, true] {
            let tmp = tempfile::tempdir().unwrap();
            let lab = common::root().join(FIXTURE);
            let run = |key: bool| {
                let mut args = vec!["render", lab.to_str().unwrap(), "--to", to];
                if key {
                    args.push("--answer-key");
                }
                std::process::Command::new(env!("CARGO_BIN_EXE_labforge"))
                    .args(&args)
                    .current_dir(tmp.path())
                    .output()
                    .unwrap()
            };
            let order = if key_first {
                [true, false]
            } else {
                [false, true]
            };
            for k in order {
                assert!(run(k).status.success(), "{to} key={k}");
            }
            let student = tmp.path().join("build").join(to);
            let keys = tmp.path().join("build/key").join(to);
            assert!(keys
                .join(format!(
                    "md_checkpoint-key.{}",
                    if to == "markdown" { "md" } else { "html" }
                ))
                .exists());
            for f in common::files_under(&student) {
                let name = f.file_name().unwrap().to_string_lossy().into_owned();
                assert!(!name.contains("-key"), "{to}: {name} in the student folder");
                let text = std::fs::read_to_string(&f).unwrap_or_default();
                for leak in ["-key.", "(correct)", "Answer key", "ANSWER KEY", "key/"] {
                    assert!(!text.contains(leak), "{to}: {name} mentions `{leak}`");
                }
            }
            // The same -o for both: the second render is refused and writes nothing.
            let same = tmp.path().join("same");
            let o = same.to_str().unwrap();
            let with = |key: bool| {
                let mut args = vec!["render", lab.to_str().unwrap(), "--to", to, "-o", o];
                if key {
                    args.push("--answer-key");
                }
                std::process::Command::new(env!("CARGO_BIN_EXE_labforge"))
                    .args(&args)
                    .output()
                    .unwrap()
            };
            assert!(with(key_first).status.success());
            let before = common::files_under(&same).len();
            let second = with(!key_first);
            assert!(!second.status.success(), "{to}: mixed into one folder");
            assert!(String::from_utf8_lossy(&second.stderr).contains("never written beside it"));
            assert_eq!(common::files_under(&same).len(), before);
        }
    }
}

#[test]
fn an_old_mixed_folder_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("lab-key.md"), "# key").unwrap();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_labforge"))
        .args([
            "render",
            FIXTURE,
            "--to",
            "markdown",
            "-o",
            tmp.path().to_str().unwrap(),
        ])
        .current_dir(common::root())
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("already holds an answer key (lab-key.md)"));
}

/// `labforge ARGS...` expected to fail; its stderr.
fn labforge_fails(args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_labforge"))
        .current_dir(root())
        .args(args)
        .output()
        .unwrap();
    assert!(!o.status.success(), "labforge {args:?} succeeded");
    String::from_utf8_lossy(&o.stderr).to_string()
}

#[test]
fn paper_defaults_to_letter_and_only_sizes_the_print_handout() {
    let tmp = tempfile::tempdir().unwrap();
    let size = |extra: &[&str]| {
        let out = tmp.path().join(extra.join("-"));
        let o = out.to_str().unwrap();
        labforge(&[&["render", FIXTURE, "--to", "handout-html", "-o", o], extra].concat());
        let html = read(&out.join("md_checkpoint.html"));
        let at = html.find("@page {\n  size: ").expect("an @page size");
        html[at + "@page {\n  ".len()..]
            .split(';')
            .next()
            .unwrap()
            .to_string()
    };
    assert_eq!(size(&[]), "size: letter");
    assert_eq!(size(&["--paper", "letter"]), "size: letter");
    assert_eq!(size(&["--paper", "a4"]), "size: A4");
    // Markdown and the page have no paper: asking for one is an error, and nothing is written.
    for to in ["markdown", "html"] {
        let out = tmp.path().join(to);
        let o = out.to_str().unwrap();
        let err = labforge_fails(&["render", FIXTURE, "--to", to, "--paper", "a4", "-o", o]);
        assert!(err.contains("--paper") && !out.exists(), "{err}");
    }
    labforge_fails(&[
        "render",
        FIXTURE,
        "--to",
        "handout-html",
        "--paper",
        "legal",
    ]);
}

/// The prediction features on paper: badge marks, the radio control listed like a select, the
/// numeric box's range in the handout; in the key what is accepted, each band's feedback frozen
/// at the scenario (an example answer in the band), live option feedback naming its option.
#[test]
fn handout_and_key_show_badges_numeric_boxes_and_bands() {
    let dir = std::env::temp_dir().join(format!("labforge-md-predict-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    labforge(&[
        "render",
        "tests/inputs/html_predict.yaml",
        "--to",
        "markdown",
        "-o",
        d,
    ]);
    let md = read(&dir.join("html_predict.md"));
    assert!(
        md.contains("`Info` · `✓ Done` · `⚠ Careful` · `✗ Hazard`"),
        "{md}"
    );
    assert!(
        md.contains("**GPU price** (`price`): one of: Spot ($1/h); On demand ($3/h)"),
        "{md}"
    );
    assert!(
        md.contains("**Your estimate:** ____________ min (a number from 0 to 500)"),
        "{md}"
    );
    assert!(
        !md.contains("Too high"),
        "the student handout holds no feedback:\n{md}"
    );
    // A magnitude after a currency prefix joins its number.
    assert!(md.contains("- Daily cost = $73.7K"), "{md}");
    let key_dir = dir.join("key");
    let k = key_dir.to_str().unwrap();
    labforge(&[
        "render",
        "tests/inputs/html_predict.yaml",
        "--to",
        "markdown",
        "--answer-key",
        "-o",
        k,
    ]);
    let key = read(&key_dir.join("html_predict-key.md"));
    for want in [
        "**Expected answer:** 120 min (accepted within ±5 min); the box takes 0 to 500",
        "- *Answers below 60 min:* Too low: the queue amplifies the wait.",
        "- *Answers 60 min to 180 min:* Close: 120 is near 120.",
        "- *Answers 180 min and above:* Too high.",
        "You chose B, a ring: at 1,024 nodes",
        "**Worked answer:** Wait = **120 min** at Load = 0.80.",
    ] {
        assert!(key.contains(want), "missing {want:?} in the key:\n{key}");
    }
}

/// Part C of a Markdown handout.
fn part_c(md: &str) -> &str {
    &md[md.find("## Part C").expect("a part C")..]
}

/// A later part reading an earlier part's locked prediction (`prediction.a`): the student's
/// handout says it is not answered yet and leaves the banner out (nothing is answered on
/// paper); the key shows both at the key's answers (part A's correct option, part B's worked
/// number).
#[test]
fn handouts_print_a_later_part_reading_a_prediction() {
    let tmp = tempfile::tempdir().unwrap();
    let (stu, key) = (tmp.path().join("student"), tmp.path().join("key"));
    let lab = "tests/inputs/ok_prediction_xpart.yaml";
    labforge(&[
        "render",
        lab,
        "--to",
        "markdown",
        "-o",
        stu.to_str().unwrap(),
    ]);
    labforge(&[
        "render",
        lab,
        "--to",
        "markdown",
        "--answer-key",
        "-o",
        key.to_str().unwrap(),
    ]);
    let s = read(&stu.join("ok_prediction_xpart.md"));
    let k = read(&key.join("ok_prediction_xpart-key.md"));
    let (sc, kc) = (part_c(&s), part_c(&k));
    assert!(
        sc.contains("In part A you chose (Part A not answered yet); in part B you typed (Part B not answered yet) min."),
        "{sc}"
    );
    assert!(!sc.contains("You predicted"), "{sc}");
    assert!(
        kc.contains("In part A you chose B; in part B you typed 120 min."),
        "{kc}"
    );
    assert!(
        kc.contains("You predicted B in part A: at 90% load the wait is 270 min."),
        "{kc}"
    );
    insta::assert_snapshot!("xpart_student_part_c", sc);
    insta::assert_snapshot!("xpart_key_part_c", kc);
}
