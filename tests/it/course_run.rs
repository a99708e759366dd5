//! A course from the command line: `check DIR` reports course.yaml mistakes located (snapshots of
//! tests/inputs/courses/err_*), `render DIR` writes the course site (and nothing changes without
//! a course.yaml), and `labforge run` keeps the course record the page exports: an earlier
//! lab's decision shown in a later lab, `run COURSE_DIR` listing progress, `--import` merging.

use crate::common;
use common::root;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> PathBuf {
    std::env::var_os("LABFORGE_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_labforge")))
}

fn labforge(data: &Path, args: &[&str]) -> Output {
    Command::new(bin())
        .args(args)
        .env("XDG_DATA_HOME", data)
        .env("NO_COLOR", "1")
        .current_dir(root())
        .output()
        .unwrap()
}

/// `labforge render SRC --to TO -o OUT`.
fn render_to(src: &Path, to: &str, out: &Path) -> Output {
    labforge(
        out.parent().unwrap(),
        &[
            "render",
            src.to_str().unwrap(),
            "--to",
            to,
            "-o",
            out.to_str().unwrap(),
        ],
    )
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn course_yaml_mistakes_are_located_with_hints() {
    let data = tempfile::tempdir().unwrap();
    let mut n = 0;
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root().join("tests/inputs/courses"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("err_"))
        .collect();
    dirs.sort();
    for d in dirs {
        let name = d.file_name().unwrap().to_string_lossy().into_owned();
        let rel = format!("tests/inputs/courses/{name}");
        let o = labforge(data.path(), &["check", &rel]);
        assert!(!o.status.success(), "{name} checked clean");
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(err.contains("= hint: "), "{name}: no hint\n{err}");
        assert!(
            err.lines().next().unwrap().starts_with(&format!("{rel}/")),
            "{name}: not located\n{err}"
        );
        insta::assert_snapshot!(name.clone(), err);
        n += 1;
    }
    assert!(n >= 6, "only {n} course error cases");
}

/// A copy of the seed course (labs/: its course.yaml, every lab and its modules under lib/) in
/// a temporary folder.
fn seed_course(dir: &Path) -> PathBuf {
    let c = dir.join("course");
    for sub in ["", "lib"] {
        std::fs::create_dir_all(c.join(sub)).unwrap();
        for e in std::fs::read_dir(root().join("labs").join(sub)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "yaml") {
                std::fs::copy(&p, c.join(sub).join(p.file_name().unwrap())).unwrap();
            }
        }
    }
    c
}

/// The seed course titled `title` in the other order (course.yaml's order, not the file names');
/// fleet-orchestration, now first, carries nothing forward and reads nothing.
fn fleet_first(c: &Path, title: &str) {
    std::fs::write(
        c.join("course.yaml"),
        format!("title: {title}\nlabs: [fleet-orchestration.yaml, fault-tolerance.yaml]\n"),
    )
    .unwrap();
    let fleet = std::fs::read_to_string(c.join("fleet-orchestration.yaml")).unwrap();
    let cut = fleet.find("\ncarry_forward:").unwrap();
    let end = fleet[cut..].find("\nsynthesis:").unwrap();
    // Its `reads:` (between the two) go too: the number it read from fault-tolerance is a
    // constant at the read's default.
    let rest = format!("{}{}", &fleet[..cut], &fleet[cut + end..]);
    assert!(!rest.contains("\nreads:"));
    let rest = rest.replacen("\nconstants:\n", "\nconstants:\n  ft_interval_s: 600\n", 1);
    std::fs::write(c.join("fleet-orchestration.yaml"), rest).unwrap();
}

const DECISION: &str = "Checkpoint every 30 minutes, asynchronously.";

/// Every answer of fault-tolerance, with the decision log.
fn lab1_answers() -> String {
    format!("predictions: {{a: C, b: D, c: A, d: B}}\nreflections: {{a: B, b: A, c: B, d: B}}\ndecision_log: \"{DECISION}\"\n")
}

#[test]
fn the_terminal_keeps_the_course_record_and_shows_an_earlier_decision() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let c = seed_course(tmp.path());
    let cs = c.to_str().unwrap();
    let a1 = tmp.path().join("a1.yaml");
    std::fs::write(&a1, lab1_answers()).unwrap();
    // Nothing yet.
    let o = labforge(&data, &["run", cs]);
    assert!(o.status.success(), "{}", text(&o));
    let t = text(&o);
    assert!(t.starts_with("Machine Learning Systems\n"), "{t}");
    let labs = labforge::course::load(&c.join("course.yaml"))
        .unwrap()
        .file
        .labs
        .len();
    assert_eq!(t.matches("— not started").count(), labs, "{t}");

    // Lab 1 done: its ledger and the course record, in the page's export shape.
    let lab1 = format!("{cs}/fault-tolerance.yaml");
    let o = labforge(&data, &["run", &lab1, "--answers", a1.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let id = labforge::course::course_id("Machine Learning Systems");
    let rec_path = data.join(format!("labforge/course-{id}.json"));
    let rec: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&rec_path).unwrap()).unwrap();
    assert_eq!(rec["format"], "labforge-course/1");
    assert_eq!(rec["course"], id.as_str());
    assert_eq!(rec["labs"]["fault-tolerance"]["decision_log"], DECISION);
    assert_eq!(rec["labs"]["fault-tolerance"]["complete"], true);
    let lab_ledger: serde_json::Value = serde_json::from_slice(
        &std::fs::read(data.join("labforge/fault-tolerance-v2.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(rec["labs"]["fault-tolerance"], lab_ledger);

    // Lab 2 shows it at the top of part C.
    let a2 = tmp.path().join("a2.yaml");
    std::fs::write(
        &a2,
        "predictions: {a: D, b: A, c: C}\nreflections: {a: A, b: B}\n",
    )
    .unwrap();
    let lab2 = format!("{cs}/fleet-orchestration.yaml");
    let o = labforge(&data, &["run", &lab2, "--answers", a2.to_str().unwrap()]);
    let t = text(&o);
    let part_c = t.find("Part C: Preemption Cost").expect(&t);
    let shown = t[part_c..].find(&format!("┃ {DECISION}")).expect(&t);
    assert!(
        shown < t[part_c..].find("Scheduling Policy Engineer").unwrap(),
        "{t}"
    );
    let o = labforge(&data, &["run", cs]);
    let t = text(&o);
    assert!(
        t.contains("When Failure is Routine (35-40 min) — done"),
        "{t}"
    );
    assert!(
        t.contains("The Scheduling Trap (35-40 min) — in progress"),
        "{t}"
    );
}

#[test]
fn without_the_earlier_decision_the_terminal_says_it_is_not_recorded() {
    let tmp = tempfile::tempdir().unwrap();
    let c = seed_course(tmp.path());
    let a2 = tmp.path().join("a2.yaml");
    std::fs::write(
        &a2,
        "predictions: {a: D, b: A, c: C}\nreflections: {a: A, b: B}\n",
    )
    .unwrap();
    let lab2 = format!("{}/fleet-orchestration.yaml", c.display());
    let o = labforge(
        &tmp.path().join("data"),
        &["run", &lab2, "--answers", a2.to_str().unwrap()],
    );
    let t = text(&o);
    assert!(
        t.contains("Not recorded yet: write it in the decision log of When Failure is Routine."),
        "{t}"
    );
}

#[test]
fn import_validates_merges_and_seeds_the_lab() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let c = seed_course(tmp.path());
    let cs = c.to_str().unwrap();
    // A record made elsewhere (here: by the terminal with another data dir).
    let other = tmp.path().join("other");
    let a1 = tmp.path().join("a1.yaml");
    std::fs::write(&a1, lab1_answers()).unwrap();
    let lab1 = format!("{cs}/fault-tolerance.yaml");
    assert!(
        labforge(&other, &["run", &lab1, "--answers", a1.to_str().unwrap()])
            .status
            .success()
    );
    let id = labforge::course::course_id("Machine Learning Systems");
    let exported = other.join(format!("labforge/course-{id}.json"));

    // Another course's record is refused, saying why, and nothing is written.
    let foreign = tmp.path().join("foreign.json");
    std::fs::write(
        &foreign,
        r#"{"format": "labforge-course/1", "course": "another-00000000", "labs": {}}"#,
    )
    .unwrap();
    let o = labforge(&data, &["run", cs, "--import", foreign.to_str().unwrap()]);
    assert!(!o.status.success());
    // A diagnostic of the file with a hint, through the one printer (it was `error: not
    // imported: FILE: …`).
    assert!(
        text(&o).contains(&format!(
            "{}: error: not imported: this record is for another course (`another-00000000`",
            foreign.display()
        )) && text(&o).contains("  = hint: --import takes this course's record"),
        "{}",
        text(&o)
    );
    assert!(!data.join(format!("labforge/course-{id}.json")).exists());
    let broken = tmp.path().join("broken.json");
    std::fs::write(&broken, "{\"format\": \"labforge-cour").unwrap();
    let o = labforge(&data, &["run", cs, "--import", broken.to_str().unwrap()]);
    assert!(
        !o.status.success()
            && text(&o).contains(&format!(
                "{}: error: not imported: not a JSON file",
                broken.display()
            )),
        "{}",
        text(&o)
    );

    let o = labforge(&data, &["run", cs, "--import", exported.to_str().unwrap()]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(
        t.contains(
            "When Failure is Routine: took Part A, Part B, Part C, Part D, the decision log"
        ),
        "{t}"
    );
    assert!(t.contains("— done"), "{t}");
    // Importing it again changes nothing, and says so.
    let t = text(&labforge(
        &data,
        &["run", cs, "--import", exported.to_str().unwrap()],
    ));
    assert!(t.contains("Nothing imported"), "{t}");
    // The lab run afterwards starts from the imported progress.
    let o = labforge(&data, &["run", &lab1]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(
        t.contains("taking Part A, Part B, Part C, Part D, the decision log of this lab from the course record"),
        "{t}"
    );
    assert!(t.contains("You have completed this lab"), "{t}");
}

#[test]
fn render_dir_with_a_course_writes_the_site_and_without_one_as_before() {
    let tmp = tempfile::tempdir().unwrap();
    let c = seed_course(tmp.path());
    let out = tmp.path().join("site");
    let o = render_to(&c, "html", &out);
    assert!(o.status.success(), "{}", text(&o));
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(index.contains("<title>Machine Learning Systems</title>"));
    // Numbered in the course's order.
    let course = labforge::course::load(&c.join("course.yaml")).unwrap();
    let n = |stem: &str| 1 + course.stems().iter().position(|s| s == stem).unwrap();
    let (a, b) = (
        index
            .find(&format!(
                "{}. When Failure is Routine",
                n("fault-tolerance")
            ))
            .unwrap(),
        index
            .find(&format!(
                "{}. The Scheduling Trap",
                n("fleet-orchestration")
            ))
            .unwrap(),
    );
    assert!(a < b);
    assert!(index.contains("href=\"fault-tolerance.html\" data-course-link"));
    assert_eq!(index.matches("35-40 min").count(), 2);
    let p1 = std::fs::read_to_string(out.join("fault-tolerance.html")).unwrap();
    assert!(p1.contains("<a href=\"fleet-orchestration.html\" rel=\"next\""));
    assert!(p1.contains("<a href=\"distributed-training.html\" rel=\"prev\""));
    let p2 = std::fs::read_to_string(out.join("fleet-orchestration.html")).unwrap();
    assert!(p2.contains("<a href=\"fault-tolerance.html\" rel=\"prev\""));
    assert!(p2.contains("data-earlier=\"fault-tolerance\""));
    // Same course, same bytes.
    let again = tmp.path().join("again");
    render_to(&c, "html", &again);
    for f in [
        "index.html",
        "fault-tolerance.html",
        "fleet-orchestration.html",
    ] {
        assert_eq!(
            std::fs::read(out.join(f)).unwrap(),
            std::fs::read(again.join(f)).unwrap(),
            "{f}"
        );
    }
    // A folder without course.yaml (and labs that need no course: no carry_forward, no course
    // module, no course tracks): as before.
    for f in [
        "course.yaml",
        "ml-intro.yaml",
        "fleet-orchestration.yaml",
        "compute-infrastructure.yaml",
        "distributed-training.yaml",
    ] {
        std::fs::remove_file(c.join(f)).unwrap();
    }
    let plain = tmp.path().join("plain");
    let o = render_to(&c, "html", &plain);
    assert!(o.status.success(), "{}", text(&o));
    let index = std::fs::read_to_string(plain.join("index.html")).unwrap();
    assert!(index.contains("<title>Labs</title>") && !index.contains("data-course-link"));
    let p = std::fs::read_to_string(plain.join("fault-tolerance.html")).unwrap();
    // No course links (the stylesheet names the class either way).
    assert!(!p.contains("<nav class=\"course-nav\"") && !p.contains("labforge-course"));
}

#[test]
fn the_scorm_course_package_is_named_after_the_course_and_ordered_by_it() {
    let tmp = tempfile::tempdir().unwrap();
    let c = seed_course(tmp.path());
    fleet_first(&c, "Systems & Scale");
    let out = tmp.path().join("scorm");
    let o = render_to(&c, "scorm", &out);
    assert!(o.status.success(), "{}", text(&o));
    let mut z = zip::ZipArchive::new(std::fs::File::open(out.join("course.zip")).unwrap()).unwrap();
    let mut xml = String::new();
    std::io::Read::read_to_string(&mut z.by_name("imsmanifest.xml").unwrap(), &mut xml).unwrap();
    let org = xml.find("<organization ").unwrap();
    assert!(
        xml[org..].contains("<title>Systems &amp; Scale</title>"),
        "{xml}"
    );
    let (a, b) = (
        xml.find("01-fleet-orchestration&#x2f;index.html").unwrap(),
        xml.find("02-fault-tolerance&#x2f;index.html").unwrap(),
    );
    assert!(a < b);
    // The packaged pages have no links to sibling pages the package does not hold.
    let mut page = String::new();
    std::io::Read::read_to_string(
        &mut z.by_name("02-fault-tolerance/index.html").unwrap(),
        &mut page,
    )
    .unwrap();
    assert!(!page.contains("<nav class=\"course-nav\""));
}

#[test]
fn with_ledger_the_course_record_sits_beside_it() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let c = seed_course(tmp.path());
    let a = tmp.path().join("a.yaml");
    std::fs::write(&a, "predictions: {a: C}\n").unwrap();
    let ledger = tmp.path().join("mine/ft.json");
    let lab1 = format!("{}/fault-tolerance.yaml", c.display());
    labforge(
        &data,
        &[
            "run",
            &lab1,
            "--ledger",
            ledger.to_str().unwrap(),
            "--answers",
            a.to_str().unwrap(),
        ],
    );
    let id = labforge::course::course_id("Machine Learning Systems");
    assert!(tmp.path().join(format!("mine/course-{id}.json")).is_file());
    assert!(!data.join("labforge").exists());
    // A ledger named without a folder: the current folder, never the data directory.
    let here = tmp.path().join("here");
    std::fs::create_dir_all(&here).unwrap();
    let o = Command::new(bin())
        .args([
            "run",
            &lab1,
            "--ledger",
            "l.json",
            "--answers",
            a.to_str().unwrap(),
        ])
        .env("XDG_DATA_HOME", &data)
        .current_dir(&here)
        .output()
        .unwrap();
    assert!(here.join("l.json").is_file(), "{}", text(&o));
    assert!(here.join(format!("course-{id}.json")).is_file());
    assert!(!data.join("labforge").exists());
}

/// `run COURSE_DIR --ledger FILE` lists the record that the labs' runs with `--ledger FILE` kept
/// (beside FILE, not the data directory), and its suggested commands keep `--ledger`: FILE for
/// the lab it holds, the lab's default file name in FILE's folder for the others.
#[test]
fn the_course_listing_with_ledger_reads_the_record_beside_it() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let c = seed_course(tmp.path());
    let a = tmp.path().join("a.yaml");
    std::fs::write(&a, lab1_answers()).unwrap();
    let ledger = tmp.path().join("mine/L.json");
    let l = ledger.to_str().unwrap();
    let lab1 = format!("{}/fault-tolerance.yaml", c.display());
    let o = labforge(
        &data,
        &[
            "run",
            &lab1,
            "--ledger",
            l,
            "--answers",
            a.to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    let o = labforge(&data, &["run", c.to_str().unwrap(), "--ledger", l]);
    assert!(o.status.success(), "{}", text(&o));
    let t = text(&o);
    assert!(
        t.contains(&format!(
            "When Failure is Routine (35-40 min) — done\n     labforge run {lab1} --ledger {l}\n"
        )),
        "{t}"
    );
    let mine = tmp.path().join("mine");
    let ci = format!("{}/compute-infrastructure.yaml", c.display());
    let ci_ledger = mine.join("compute-infrastructure-v2.json");
    assert!(
        t.contains(&format!(
            "Feeding the Beast (30 min) — not started\n     labforge run {ci} --ledger {}\n",
            ci_ledger.display()
        )),
        "{t}"
    );
    let id = labforge::course::course_id("Machine Learning Systems");
    let rec = mine.join(format!("course-{id}.json"));
    assert!(
        t.contains(&format!("Course record: {} (", rec.display())),
        "{t}"
    );
    assert!(!data.join("labforge").exists(), "{t}");
}

#[test]
fn the_handout_index_is_titled_by_the_course_and_in_its_order() {
    let tmp = tempfile::tempdir().unwrap();
    let c = seed_course(tmp.path());
    fleet_first(&c, "Systems at Scale");
    let out = tmp.path().join("md");
    let o = render_to(&c, "markdown", &out);
    assert!(o.status.success(), "{}", text(&o));
    let index = std::fs::read_to_string(out.join("index.md")).unwrap();
    assert!(
        index.starts_with("# Systems at Scale: Handouts\n"),
        "{index}"
    );
    assert!(
        index.find("fleet-orchestration.md").unwrap() < index.find("fault-tolerance.md").unwrap()
    );
}

#[test]
fn a_hostile_course_title_is_text_everywhere() {
    let tmp = tempfile::tempdir().unwrap();
    let c = seed_course(tmp.path());
    fleet_first(&c, "'</script><script>alert(1)</script> <b>x</b> & \"q\"'");
    let out = tmp.path().join("site");
    let o = render_to(&c, "html", &out);
    assert!(o.status.success(), "{}", text(&o));
    for f in ["index.html", "fleet-orchestration.html"] {
        let html = std::fs::read_to_string(out.join(f)).unwrap();
        assert!(
            !html.contains("<script>alert") && !html.contains("<b>x</b>"),
            "{f}"
        );
        assert!(
            html.contains("&lt;b&gt;x&lt;&#x2f;b&gt;") || html.contains("&lt;b&gt;x&lt;/b&gt;"),
            "{f}"
        );
    }
}

/// A lab's own number and its place in the course are stated apart, never as two lab numbers:
/// the index lists "4." beside "Vol 2 · Lab 6", the lab's page says "4 of 5 labs" under a
/// header and a HUD that both read "Vol 2 · Lab 6" (the HUD from `volume:` and `number:`: the
/// shipped labs no longer type "Vol2 · Lab 06" a second time).
#[test]
fn a_labs_number_and_its_place_in_the_course_are_stated_apart() {
    let out = tempfile::tempdir().unwrap();
    let o = render_to(&root().join("labs"), "html", &out.path().join("site"));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let site = out.path().join("site");
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    let card = index
        .split("<li class=\"lab-card\">")
        .find(|c| c.contains("When Failure is Routine"))
        .unwrap();
    assert!(card.contains(">4. When Failure is Routine<"), "{card}");
    assert!(card.contains("Vol 2 · Lab 6 · "), "{card}");
    let page = std::fs::read_to_string(site.join("fault-tolerance.html")).unwrap();
    let nav = &page[page.find("<nav class=\"course-nav\"").unwrap()..];
    let nav = &nav[..nav.find("</nav>").unwrap()];
    assert!(nav.contains(": 4 of 5 labs"), "{nav}");
    assert!(!nav.contains("lab 4"), "{nav}");
    assert!(page.contains("<span class=\"hud-label\">Vol 2 · Lab 6</span>"));
    assert!(page.contains("Vol 2 · Lab 6 · Fault Tolerance"));
    assert!(!page.contains("Vol2 · Lab 06"));
}
