//! The file system is hostile too (the real `labforge` binary, real symbolic links): every file
//! labforge writes stays inside the output folder, whatever links are already in it (every
//! render format, the course site, `grade`'s report and CSVs); every file of a course it reads
//! stays inside the course folder; `--templates` reads only regular files inside its folder,
//! bounded; and one render never silently replaces another format's output.
#![cfg(unix)]

use crate::common;

use common::root;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn labforge(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_labforge"))
        .current_dir(root())
        .env("NO_COLOR", "1")
        .args(args)
        .output()
        .expect("run labforge")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A folder outside every output folder, with a file whose bytes must never change.
struct Outside {
    dir: PathBuf,
    victim: PathBuf,
}

impl Outside {
    fn new(tmp: &Path) -> Outside {
        let dir = tmp.join("outside");
        std::fs::create_dir_all(&dir).unwrap();
        let victim = dir.join("victim.txt");
        std::fs::write(&victim, "precious").unwrap();
        Outside { dir, victim }
    }

    /// Nothing outside was written: the victim is as it was and no file was added.
    fn untouched(&self, what: &str) {
        assert_eq!(
            std::fs::read_to_string(&self.victim).unwrap(),
            "precious",
            "{what}: written through a link"
        );
        let names: Vec<_> = std::fs::read_dir(&self.dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1, "{what}: files appeared outside: {names:?}");
    }
}

/// `labforge ARGS` failed, naming the link `link` as a symbolic link, without panicking.
fn refused_naming(o: &Output, link: &Path, what: &str) {
    let err = stderr(o);
    assert!(!o.status.success(), "{what}: succeeded\n{err}");
    assert!(!err.contains("panicked"), "{what}: {err}");
    assert!(
        err.contains(&link.display().to_string()) && err.contains("symbolic link"),
        "{what}: the message does not name the link {}:\n{err}",
        link.display()
    );
}

const LAB: &str = "tests/inputs/md_checkpoint.yaml";

/// `labforge render LAB --to TO -o OUT EXTRA...`.
fn render_to(to: &str, out: &Path, extra: &[&str]) -> Output {
    labforge(
        &[
            &["render", LAB, "--to", to, "-o", out.to_str().unwrap()],
            extra,
        ]
        .concat(),
    )
}

/// `labforge grade` of the run fixture with the records in `records`, to `out`.
fn grade(records: &Path, out: &Path) -> Output {
    let (r, o) = (records.to_str().unwrap(), out.to_str().unwrap());
    labforge(&["grade", "tests/inputs/run_fixture.yaml", r, "-o", o])
}

/// Every format, a link at the file it writes, at the folder it writes into and at the
/// output mark: refused with the link named, and the outside untouched.
#[test]
fn renders_never_write_through_a_link_in_the_output_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let outside = Outside::new(tmp.path());
    let cases: [(&str, &[&str], &str); 7] = [
        ("html", &[], "md_checkpoint.html"),
        ("handout-html", &[], "md_checkpoint.html"),
        ("handout-html", &["--answer-key"], "md_checkpoint-key.html"),
        ("markdown", &[], "md_checkpoint.md"),
        // The charts folder: a link to a folder outside.
        ("markdown", &[], "md_checkpoint-charts"),
        ("scorm", &[], "md_checkpoint.zip"),
        ("html", &[], ".labforge-output"),
    ];
    for (i, (to, extra, name)) in cases.iter().enumerate() {
        let out = tmp.path().join(format!("out{i}"));
        std::fs::create_dir_all(&out).unwrap();
        let link = out.join(name);
        if name.ends_with("-charts") {
            symlink(&outside.dir, &link).unwrap();
        } else {
            symlink(&outside.victim, &link).unwrap();
        }
        let args = [
            &["render", LAB, "--to", to, "-o", out.to_str().unwrap()],
            *extra,
        ]
        .concat();
        let o = labforge(&args);
        let what = format!("--to {to} {extra:?} with {name} a link");
        refused_naming(&o, &link, &what);
        outside.untouched(&what);
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink(),
            "{what}: the link itself was replaced"
        );
    }
}

/// The same render into a folder holding no link works, and writes the same files again.
#[test]
fn a_plain_output_folder_is_written_and_rewritten() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    for _ in 0..2 {
        let o = render_to("markdown", &out, &[]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    assert!(out.join("md_checkpoint-charts/a-ucurve.svg").is_file());
    // `-o` itself may be a link: it is the user's own choice of folder.
    let real = tmp.path().join("real");
    std::fs::create_dir_all(&real).unwrap();
    let via = tmp.path().join("via");
    symlink(&real, &via).unwrap();
    let o = labforge(&["render", LAB, "--to", "html", "-o", via.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(real.join("md_checkpoint.html").is_file());
}

/// A course site's index, a course's SCORM package, grade's report and CSV: the same.
#[test]
fn the_course_site_scorm_course_and_grade_never_write_through_a_link() {
    let tmp = tempfile::tempdir().unwrap();
    let outside = Outside::new(tmp.path());
    let course = root().join("tests/inputs/course_modules");
    let c = course.to_str().unwrap();
    for (to, name) in [("html", "index.html"), ("scorm", "course.zip")] {
        let out = tmp.path().join(format!("site-{to}"));
        std::fs::create_dir_all(&out).unwrap();
        let link = out.join(name);
        symlink(&outside.victim, &link).unwrap();
        let o = labforge(&["render", c, "--to", to, "-o", out.to_str().unwrap()]);
        refused_naming(&o, &link, &format!("course --to {to}"));
        outside.untouched(&format!("course --to {to}"));
    }
    let records = tmp.path().join("records");
    std::fs::create_dir_all(&records).unwrap();
    for name in ["report.html", "run-fixture.csv"] {
        let out = tmp.path().join(format!("grades-{name}"));
        std::fs::create_dir_all(&out).unwrap();
        let link = out.join(name);
        symlink(&outside.victim, &link).unwrap();
        let o = grade(&records, &out);
        refused_naming(&o, &link, &format!("grade with {name} a link"));
        outside.untouched(&format!("grade with {name} a link"));
    }
    // Without links, grade writes both.
    let out = tmp.path().join("grades");
    let o = grade(&records, &out);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(out.join("report.html").is_file() && out.join("run-fixture.csv").is_file());
}

/// A copy of the course fixture (course.yaml, labs/allreduce.yaml, lib/comm.yaml) in `dir`.
fn course_copy(dir: &Path) -> PathBuf {
    let from = root().join("tests/inputs/course_modules");
    let to = dir.join("course");
    for f in ["course.yaml", "labs/allreduce.yaml", "lib/comm.yaml"] {
        std::fs::create_dir_all(to.join(f).parent().unwrap()).unwrap();
        std::fs::copy(from.join(f), to.join(f)).unwrap();
    }
    to
}

/// `labforge check COURSE`: fails with a located error in course.yaml saying which entry leads
/// outside.
fn refused_outside(course: &Path, entry: &str, what: &str) {
    let o = labforge(&["check", course.to_str().unwrap()]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{what}: {err}");
    let yaml = course.join("course.yaml").display().to_string();
    assert!(
        err.lines().any(|l| l.starts_with(&format!("{yaml}:"))
            && l.contains(": error: ")
            && l.contains(&format!("`{entry}` leads outside the course folder"))),
        "{what}: {err}"
    );
    assert!(err.contains("copy the file into it"), "{what}: {err}");
}

/// Labs, modules and a `lib/` folder that are links out of the course folder are refused and
/// never read; a link that stays inside the folder is fine.
#[test]
fn course_files_are_read_only_from_inside_the_course_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let elsewhere = tmp.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let lab = root().join("tests/inputs/course_modules/labs/allreduce.yaml");
    let module = root().join("tests/inputs/course_modules/lib/comm.yaml");
    std::fs::copy(&lab, elsewhere.join("allreduce.yaml")).unwrap();
    std::fs::copy(&module, elsewhere.join("comm.yaml")).unwrap();

    // As shipped, the copy checks clean.
    let clean = course_copy(&tmp.path().join("clean"));
    let o = labforge(&["check", clean.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));

    // A lab that is a link to a file outside.
    let c = course_copy(&tmp.path().join("lab"));
    std::fs::remove_file(c.join("labs/allreduce.yaml")).unwrap();
    symlink(
        elsewhere.join("allreduce.yaml"),
        c.join("labs/allreduce.yaml"),
    )
    .unwrap();
    refused_outside(&c, "labs/allreduce.yaml", "a linked lab");
    let o = labforge(&[
        "render",
        c.to_str().unwrap(),
        "--to",
        "html",
        "-o",
        tmp.path().join("o1").to_str().unwrap(),
    ]);
    assert!(!o.status.success() && !tmp.path().join("o1/allreduce.html").exists());

    // A module (found in lib/ by default) that is a link outside.
    let c = course_copy(&tmp.path().join("module"));
    std::fs::remove_file(c.join("lib/comm.yaml")).unwrap();
    symlink(elsewhere.join("comm.yaml"), c.join("lib/comm.yaml")).unwrap();
    refused_outside(&c, "lib/comm.yaml", "a linked module");
    // ... and listed under `lib:`.
    let yaml = std::fs::read_to_string(c.join("course.yaml")).unwrap();
    std::fs::write(
        c.join("course.yaml"),
        format!("{yaml}lib: [lib/comm.yaml]\n"),
    )
    .unwrap();
    refused_outside(&c, "lib/comm.yaml", "a listed linked module");

    // The whole lib/ folder a link outside.
    let c = course_copy(&tmp.path().join("libdir"));
    std::fs::remove_dir_all(c.join("lib")).unwrap();
    symlink(&elsewhere, c.join("lib")).unwrap();
    refused_outside(&c, "lib/allreduce.yaml", "a linked lib/ folder");

    // A link inside the course folder is the course's own file.
    let c = course_copy(&tmp.path().join("inside"));
    std::fs::create_dir_all(c.join("shared")).unwrap();
    std::fs::rename(c.join("lib/comm.yaml"), c.join("shared/comm.yaml")).unwrap();
    symlink("../shared/comm.yaml", c.join("lib/comm.yaml")).unwrap();
    let o = labforge(&["check", c.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// `--templates DIR`: includes by absolute name or `..` are errors, a link leading out of DIR
/// (to a file, or to `/dev/zero`) is refused, a file over the limit is refused while reading
/// (no memory grows with it), and nothing is written.
#[test]
fn templates_are_read_only_from_regular_files_inside_their_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let secret = tmp.path().join("secret.txt");
    std::fs::write(&secret, "SECRET-BYTES").unwrap();
    /// What a case is, how it fills the templates folder, what the error says.
    type Case<'a> = (&'a str, Box<dyn Fn(&Path) + 'a>, &'a str);
    let cases: Vec<Case> = vec![
        (
            "absolute include",
            Box::new(|d: &Path| {
                let s = format!("{{% include \"{}\" %}}\n", secret.display());
                std::fs::write(d.join("handout.md.j2"), s).unwrap()
            }),
            "only files inside the templates folder",
        ),
        (
            "`..` include",
            Box::new(|d: &Path| {
                std::fs::write(d.join("handout.md.j2"), "{% include \"../secret.txt\" %}\n")
                    .unwrap()
            }),
            "only files inside the templates folder",
        ),
        (
            "a template linked outside",
            Box::new(|d: &Path| symlink(&secret, d.join("handout.md.j2")).unwrap()),
            "leads outside the templates folder",
        ),
        (
            "a style linked to /dev/zero",
            Box::new(|d: &Path| symlink("/dev/zero", d.join("print.css")).unwrap()),
            "leads outside the templates folder",
        ),
        (
            "an oversized template",
            Box::new(|d: &Path| {
                let big = format!("{}\n", "x".repeat(1024 * 1024 + 1));
                std::fs::write(d.join("handout.md.j2"), big).unwrap()
            }),
            "larger than 1024 KiB",
        ),
        (
            "a folder in a template's place",
            Box::new(|d: &Path| std::fs::create_dir(d.join("handout.md.j2")).unwrap()),
            "not a regular file",
        ),
        // A FIFO inside the folder: opened, it would block the render for ever.
        (
            "a FIFO in a template's place",
            Box::new(|d: &Path| {
                let st = Command::new("mkfifo")
                    .arg(d.join("handout.md.j2"))
                    .status()
                    .unwrap();
                assert!(st.success(), "mkfifo");
            }),
            "not a regular file",
        ),
    ];
    for (i, (what, make, says)) in cases.iter().enumerate() {
        let tpl = tmp.path().join(format!("tpl{i}"));
        std::fs::create_dir_all(&tpl).unwrap();
        make(&tpl);
        let out = tmp.path().join(format!("out{i}"));
        // The print stylesheet is the handout page's; the rest are the Markdown handout's.
        let to = if what.contains("/dev/zero") {
            "handout-html"
        } else {
            "markdown"
        };
        let o = render_to(to, &out, &["--templates", tpl.to_str().unwrap()]);
        let err = stderr(&o);
        assert!(!o.status.success(), "{what}: rendered");
        assert!(err.contains(says), "{what}: {err}");
        assert!(
            !err.contains("SECRET-BYTES") && !err.contains("panicked"),
            "{what}: {err}"
        );
        for f in ["md_checkpoint.md", "md_checkpoint.html"] {
            assert!(!out.join(f).exists(), "{what}: {f} written");
        }
    }
    // A template including another one inside the folder, through a link that stays inside.
    let tpl = tmp.path().join("good");
    std::fs::create_dir_all(tpl.join("parts")).unwrap();
    std::fs::write(
        tpl.join("parts/title.j2"),
        "# {{ header.title }} (included)\n",
    )
    .unwrap();
    symlink("parts/title.j2", tpl.join("title.j2")).unwrap();
    std::fs::write(tpl.join("handout.md.j2"), "{% include \"title.j2\" %}").unwrap();
    let out = tmp.path().join("good-out");
    let o = render_to("markdown", &out, &["--templates", tpl.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let md = std::fs::read_to_string(out.join("md_checkpoint.md")).unwrap();
    assert!(md.starts_with("# Checkpoint | Restart (included)"), "{md}");
}

/// Every file under `dir` with its bytes.
fn contents(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    common::files_under(dir)
        .into_iter()
        .map(|f| {
            let b = std::fs::read(&f).unwrap();
            (f, b)
        })
        .collect()
}

/// `labforge ARGS` succeeded.
fn ok(args: &[&str]) {
    let o = labforge(args);
    assert!(o.status.success(), "labforge {args:?}: {}", stderr(&o));
}

/// `render --to handout-html -o build` after the README's `render labs --to html -o build`: refused,
/// saying what is there, and the site is as it was; the README's command itself runs again and
/// again; each format's default folder is its own.
#[test]
fn one_format_never_silently_replaces_another() {
    let tmp = tempfile::tempdir().unwrap();
    let build = tmp.path().join("build");
    let b = build.to_str().unwrap();
    let labs = root().join("labs");
    let l = labs.to_str().unwrap();
    ok(&["render", l, "--to", "html", "-o", b]);
    let before = contents(&build);
    assert!(before.iter().any(|(f, _)| f.ends_with("index.html")));
    for (to, extra) in [
        ("handout-html", &[][..]),
        ("markdown", &[][..]),
        ("scorm", &[][..]),
    ] {
        let o = labforge(&[&["render", l, "--to", to, "-o", b], extra].concat());
        let err = stderr(&o);
        assert!(!o.status.success(), "--to {to} over the pages: {err}");
        assert!(
            err.contains(&format!(
                "{b}: error: holds the interactive pages (--to html)"
            )) && err.contains(&format!("--to {to} would write over them"))
                && err.contains(&format!(
                    "  = hint: render each format to a folder of its own (without -o, build/{to})"
                )),
            "{err}"
        );
        let after = contents(&build);
        assert_eq!(before, after, "--to {to} changed the site");
    }
    // The same command again: fine (the README's main job, run every time a lab changes).
    ok(&["render", l, "--to", "html", "-o", b]);
    assert_eq!(
        std::fs::read_to_string(build.join(".labforge-output")).unwrap(),
        "student html\n"
    );
    // Handouts first, then the pages: refused the other way round too.
    let h = tmp.path().join("handouts");
    let hs = h.to_str().unwrap();
    ok(&["render", LAB, "--to", "handout-html", "-o", hs]);
    let o = labforge(&["render", LAB, "--to", "html", "-o", hs]);
    assert!(
        stderr(&o).contains("holds the print handouts (--to handout-html)"),
        "{}",
        stderr(&o)
    );
    // A folder an older labforge marked without a format: what it holds is looked at.
    let old = tmp.path().join("old");
    let os = old.to_str().unwrap();
    ok(&["render", LAB, "--to", "html", "-o", os]);
    std::fs::write(old.join(".labforge-output"), "student\n").unwrap();
    let o = labforge(&["render", LAB, "--to", "handout-html", "-o", os]);
    assert!(
        stderr(&o).contains("holds the interactive pages"),
        "{}",
        stderr(&o)
    );
    ok(&["render", LAB, "--to", "html", "-o", os]);
    assert_eq!(
        std::fs::read_to_string(old.join(".labforge-output")).unwrap(),
        "student html\n"
    );
    // Without -o each format has its own folder, so all of them side by side are fine.
    let work = tmp.path().join("work");
    std::fs::create_dir_all(&work).unwrap();
    for to in ["html", "handout-html", "markdown"] {
        let o = Command::new(env!("CARGO_BIN_EXE_labforge"))
            .current_dir(&work)
            .args(["render", root().join(LAB).to_str().unwrap(), "--to", to])
            .output()
            .unwrap();
        assert!(o.status.success(), "{to}: {}", stderr(&o));
        assert!(work
            .join("build")
            .join(to)
            .join(".labforge-output")
            .is_file());
    }
}

/// A folder of labs without a `course.yaml` reads only the labs inside it: an entry that is a link
/// to a lab elsewhere is refused by `check`, `test` and `render` (it names the link and where it
/// leads); a link to another lab of the same folder is a lab like any other.
#[test]
fn a_folder_of_labs_reads_no_lab_through_a_link_leading_out() {
    let tmp = tempfile::tempdir().unwrap();
    let elsewhere = tmp.path().join("elsewhere");
    let labs = tmp.path().join("labs");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::create_dir_all(&labs).unwrap();
    let fixture = root().join("tests/inputs/ok_minimal.yaml");
    std::fs::copy(&fixture, elsewhere.join("secret.yaml")).unwrap();
    std::fs::copy(&fixture, labs.join("one.yaml")).unwrap();
    symlink(labs.join("one.yaml"), labs.join("same.yaml")).unwrap();
    let clean = labforge(&["check", labs.to_str().unwrap()]);
    assert!(clean.status.success(), "{}", stderr(&clean));

    symlink(elsewhere.join("secret.yaml"), labs.join("linked.yaml")).unwrap();
    for args in [
        vec!["check", labs.to_str().unwrap()],
        vec!["test", labs.to_str().unwrap()],
        vec![
            "render",
            labs.to_str().unwrap(),
            "--to",
            "html",
            "-o",
            tmp.path().join("out").to_str().unwrap(),
        ],
    ] {
        let o = labforge(&args);
        let err = stderr(&o);
        assert!(!o.status.success(), "{args:?} accepted the link: {err}");
        assert!(
            err.contains("linked.yaml") && err.contains("leads outside"),
            "{args:?}: {err}"
        );
    }
    assert!(!tmp.path().join("out/linked.html").exists());
}
