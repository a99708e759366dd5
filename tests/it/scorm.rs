//! `render --to scorm`: the SCORM 1.2 packages as the files a user uploads (the zip, its
//! `imsmanifest.xml`, the page inside), and the page reporting to a real SCORM 1.2 run-time
//! (scorm-again from npm) in headless Chromium (`tests/browser/scorm.mjs`). Without Chromium or
//! node the browser test prints `SKIPPED` and passes, except under `CI`, where it fails.

use crate::common;
use common::root;
use serde_json::Value as J;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn bin() -> PathBuf {
    std::env::var_os("LABFORGE_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_labforge")))
}

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("labforge-scorm-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `labforge render PATHS --to scorm EXTRA... -o OUT`: (success, stderr).
fn render_with(paths: &[&Path], extra: &[&std::ffi::OsStr], out: &Path) -> (bool, String) {
    let o = Command::new(bin())
        .arg("render")
        .args(paths)
        .args(["--to", "scorm"])
        .args(extra)
        .arg("-o")
        .arg(out)
        .output()
        .unwrap();
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stderr).to_string(),
    )
}

fn render(paths: &[&Path], out: &Path) -> String {
    let (ok, err) = render_with(paths, &[], out);
    assert!(ok, "render failed: {err}");
    err
}

/// [`common::browser_ready`], one test at a time: it may run `npm ci` in tests/browser, which
/// two tests must not do at once.
fn browser_ready() -> bool {
    static ONE: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _one = ONE.lock().unwrap_or_else(|e| e.into_inner());
    common::browser_ready()
}

const DEMO: &str = "tests/inputs/scorm_demo.yaml";

/// The entries of a zip, by name.
fn entries(zip: &Path) -> BTreeMap<String, Vec<u8>> {
    use std::io::Read;
    let mut z = zip::ZipArchive::new(std::fs::File::open(zip).unwrap()).unwrap();
    let mut out = BTreeMap::new();
    for i in 0..z.len() {
        let mut f = z.by_index(i).unwrap();
        let mut b = Vec::new();
        f.read_to_end(&mut b).unwrap();
        out.insert(f.name().to_string(), b);
    }
    out
}

const IMSCP: &str = "http://www.imsproject.org/xsd/imscp_rootv1p1p2";
const ADLCP: &str = "http://www.adlnet.org/xsd/adlcp_rootv1p2";

/// An XML `ID`/`NCName` as the SCORM 1.2 XSDs require for identifiers.
fn ncname(s: &str) -> bool {
    let mut c = s.chars();
    c.next()
        .is_some_and(|f| f.is_ascii_alphabetic() || f == '_')
        && c.all(|x| x.is_ascii_alphanumeric() || "-_.".contains(x))
}

type Node<'a> = roxmltree::Node<'a, 'a>;

/// The element children of `n` called `name`.
fn kids<'a>(n: Node<'a>, name: &str) -> Vec<Node<'a>> {
    n.children()
        .filter(|c| c.is_element() && c.tag_name().name() == name)
        .collect()
}

/// The one element child of `n` called `name`, in the IMS content packaging namespace.
fn one<'a>(n: Node<'a>, name: &str) -> Node<'a> {
    let v = kids(n, name);
    assert_eq!(v.len(), 1, "one <{name}> in <{}>", n.tag_name().name());
    assert_eq!(v[0].tag_name().namespace(), Some(IMSCP), "<{name}>");
    v[0]
}

/// Checks the structure the SCORM 1.2 Content Aggregation Model requires of a manifest and
/// returns the `(title, launch href)` of its SCOs in order. Every file the manifest names is in
/// the package, and every file of the package is named.
fn check_manifest(xml: &str, files: &BTreeMap<String, Vec<u8>>) -> Vec<(String, String)> {
    let doc = roxmltree::Document::parse(xml).expect("imsmanifest.xml is well-formed XML");
    let m = doc.root_element();
    assert_eq!(m.tag_name().name(), "manifest");
    assert_eq!(m.tag_name().namespace(), Some(IMSCP));
    assert!(ncname(m.attribute("identifier").unwrap()));
    // Children in the order the XSD's sequence requires.
    let order: Vec<&str> = m
        .children()
        .filter(|c| c.is_element())
        .map(|c| c.tag_name().name())
        .collect();
    assert_eq!(order, ["metadata", "organizations", "resources"]);
    let md = one(m, "metadata");
    assert_eq!(one(md, "schema").text(), Some("ADL SCORM"));
    assert_eq!(one(md, "schemaversion").text(), Some("1.2"));

    let orgs = one(m, "organizations");
    let org_list = kids(orgs, "organization");
    assert_eq!(org_list.len(), 1, "one organization");
    let org = org_list[0];
    assert_eq!(orgs.attribute("default"), org.attribute("identifier"));
    assert!(ncname(org.attribute("identifier").unwrap()));
    assert!(!one(org, "title").text().unwrap_or("").trim().is_empty());

    let resources = one(m, "resources");
    let mut by_id = BTreeMap::new();
    let mut listed = std::collections::BTreeSet::new();
    for r in kids(resources, "resource") {
        let id = r.attribute("identifier").unwrap();
        assert!(ncname(id), "{id}");
        assert_eq!(r.attribute("type"), Some("webcontent"));
        assert_eq!(r.attribute((ADLCP, "scormtype")), Some("sco"), "{id}");
        let href = r.attribute("href").unwrap();
        assert!(files.contains_key(href), "{href} is not in the package");
        let fl: Vec<&str> = kids(r, "file")
            .iter()
            .map(|f| f.attribute("href").unwrap())
            .collect();
        assert!(
            fl.contains(&href),
            "the launch page is listed among the files"
        );
        for f in fl {
            assert!(files.contains_key(f), "{f} is not in the package");
            listed.insert(f.to_string());
        }
        assert!(by_id.insert(id.to_string(), href.to_string()).is_none());
    }
    let in_zip: std::collections::BTreeSet<String> = files
        .keys()
        .filter(|k| *k != "imsmanifest.xml")
        .cloned()
        .collect();
    assert_eq!(listed, in_zip, "every file of the package is listed");

    let mut scos = Vec::new();
    let mut ids = std::collections::BTreeSet::new();
    for item in kids(org, "item") {
        let id = item.attribute("identifier").unwrap();
        assert!(ncname(id) && ids.insert(id.to_string()), "{id}");
        let r = item.attribute("identifierref").unwrap();
        let href = by_id.get(r).unwrap_or_else(|| panic!("no resource {r}"));
        let title = one(item, "title").text().unwrap_or("").to_string();
        assert!(!title.trim().is_empty());
        scos.push((title, href.clone()));
    }
    assert_eq!(scos.len(), by_id.len(), "one item per resource");
    scos
}

#[test]
fn a_lab_is_one_deterministic_package_with_a_valid_manifest() {
    let (a, b) = (tmpdir("det-a"), tmpdir("det-b"));
    let lab = root().join(DEMO);
    render(&[&lab], &a);
    render(&[&lab], &b);
    let zip = a.join("scorm_demo.zip");
    let bytes = std::fs::read(&zip).unwrap();
    assert_eq!(bytes, std::fs::read(b.join("scorm_demo.zip")).unwrap());
    // One lab: no course package, nothing else.
    let written: Vec<_> = std::fs::read_dir(&a)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| !n.starts_with('.'))
        .collect();
    assert_eq!(written, ["scorm_demo.zip"]);

    let files = entries(&zip);
    assert_eq!(
        files.keys().collect::<Vec<_>>(),
        ["imsmanifest.xml", "index.html"]
    );
    let xml = std::str::from_utf8(&files["imsmanifest.xml"]).unwrap();
    let scos = check_manifest(xml, &files);
    assert_eq!(
        scos,
        [("SCORM demo lab".to_string(), "index.html".to_string())]
    );

    // The page is the HTML page plus the adapter, under the same policy: no network, no eval.
    let page = std::str::from_utf8(&files["index.html"]).unwrap();
    let html = tmpdir("det-html");
    let o = Command::new(bin())
        .arg("render")
        .arg(&lab)
        .args(["--to", "html", "-o"])
        .arg(&html)
        .output()
        .unwrap();
    assert!(o.status.success());
    let plain = std::fs::read_to_string(html.join("scorm_demo.html")).unwrap();
    let policy = |p: &str| {
        let key = "Content-Security-Policy\" content=\"";
        let rest = &p[p.find(key).unwrap() + key.len()..];
        rest[..rest.find('"').unwrap()].to_string()
    };
    let (ps, pp) = (policy(page), policy(&plain));
    assert!(ps.contains("connect-src 'none'") && !ps.contains("unsafe-eval"));
    let script_src = ps
        .split(';')
        .find(|d| d.trim().starts_with("script-src"))
        .unwrap();
    assert!(!script_src.contains("unsafe"), "{script_src}");
    assert_eq!(
        ps.matches("'sha256-").count(),
        pp.matches("'sha256-").count() + 1,
        "one more script hash: the adapter's"
    );
    assert_eq!(
        page.matches("<script>").count(),
        plain.matches("<script>").count()
    );
    assert_eq!(page.matches("<script data-lf-scorm>").count(), 1);
    assert!(page.contains("LMSInitialize"));
    assert!(
        !plain.contains("LMSInitialize"),
        "the HTML page has no SCORM adapter"
    );
    for d in [a, b, html] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

/// A folder with two labs (`a-first.yaml`: html_demo, `b-second.yaml`: the SCORM demo)
/// rendered to SCORM; returns the folder and the output.
fn two_labs_rendered(tag: &str) -> (PathBuf, PathBuf) {
    let src = tmpdir(&format!("{tag}-src"));
    std::fs::copy(root().join(DEMO), src.join("b-second.yaml")).unwrap();
    std::fs::copy(
        root().join("tests/inputs/html_demo.yaml"),
        src.join("a-first.yaml"),
    )
    .unwrap();
    let out = tmpdir(&format!("{tag}-out"));
    render(&[&src], &out);
    (src, out)
}

#[test]
fn a_directory_gives_a_package_per_lab_and_a_course_package_in_order() {
    let (src, out) = two_labs_rendered("course");
    let mut written: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| !n.starts_with('.'))
        .collect();
    written.sort();
    assert_eq!(written, ["a-first.zip", "b-second.zip", "course.zip"]);
    let files = entries(&out.join("course.zip"));
    let xml = std::str::from_utf8(&files["imsmanifest.xml"]).unwrap();
    let scos = check_manifest(xml, &files);
    assert_eq!(
        scos,
        [
            (
                "Queue demo lab".to_string(),
                "01-a-first/index.html".to_string()
            ),
            (
                "SCORM demo lab".to_string(),
                "02-b-second/index.html".to_string()
            ),
        ]
    );
    // Each SCO of the course is the lab's own package page.
    let single = entries(&out.join("b-second.zip"));
    assert_eq!(files["02-b-second/index.html"], single["index.html"]);
    // Deterministic too.
    let again = tmpdir("course-again");
    render(&[&src], &again);
    assert_eq!(
        std::fs::read(out.join("course.zip")).unwrap(),
        std::fs::read(again.join("course.zip")).unwrap()
    );
    for d in [src, out, again] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

/// Runs `tests/browser/SCRIPT ARGS...` and reads the JSON line it prints.
fn node_json(script: &str, args: &[PathBuf]) -> J {
    let (ok, text) = common::node(script, args);
    assert!(ok, "{script}: {text}");
    let line = text
        .lines()
        .find(|l| l.starts_with('{') || l.starts_with('['))
        .unwrap_or_else(|| panic!("{script} printed no JSON: {text}"));
    serde_json::from_str(line).unwrap_or_else(|e| panic!("{script}: {e}: {text}"))
}

fn calls(log: &J) -> Vec<Vec<String>> {
    log.as_array()
        .unwrap()
        .iter()
        .map(|e| {
            e.as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_str().unwrap().to_string())
                .collect()
        })
        .collect()
}

/// The values set for `key`, in order.
fn set_values(log: &[Vec<String>], key: &str) -> Vec<String> {
    log.iter()
        .filter(|e| e[0] == "LMSSetValue" && e[1] == key)
        .map(|e| e[2].clone())
        .collect()
}

/// The interactions a launch reported, in journal order: for each `cmi.interactions.N.`, its
/// fields as `name=value`, sorted.
fn interactions(log: &[Vec<String>]) -> Vec<Vec<String>> {
    let mut by: std::collections::BTreeMap<usize, Vec<String>> = Default::default();
    for e in log.iter().filter(|e| e[0] == "LMSSetValue") {
        if let Some(rest) = e[1].strip_prefix("cmi.interactions.") {
            let (n, field) = rest.split_once('.').unwrap();
            by.entry(n.parse().unwrap())
                .or_default()
                .push(format!("{field}={}", e[2]));
        }
    }
    by.into_values()
        .map(|mut f| {
            f.retain(|x| !x.starts_with("time="));
            f.sort();
            f
        })
        .collect()
}

fn position(log: &[Vec<String>], e: &[&str]) -> usize {
    log.iter()
        .position(|x| x == e)
        .unwrap_or_else(|| panic!("no {e:?} in {log:#?}"))
}

#[test]
fn the_package_reports_to_scorm_again_and_resumes_from_suspend_data() {
    if !browser_ready() {
        return;
    }
    let out = tmpdir("lms");
    render(&[&root().join(DEMO)], &out);
    let dir = out.join("sco");
    std::fs::create_dir_all(&dir).unwrap();
    for (name, bytes) in entries(&out.join("scorm_demo.zip")) {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
    let r = node_json("scorm.mjs", &[dir]);
    assert_eq!(r["errors"], J::Array(vec![]), "{r:#}");

    // Without an LMS, from disk: works as before, no request, no resume hook.
    assert_eq!(r["offline"]["errors"], J::Array(vec![]));
    assert_eq!(r["offline"]["requests"], J::Array(vec![]));
    assert_eq!(r["offline"]["resumeHook"], true);
    assert_eq!(r["offline"]["unlocked"], true);
    assert_eq!(r["offline"]["resetShown"], true);
    // In the LMS, the LMS keeps the attempt: no Reset.
    assert_eq!(r["resetShownInLms"], false);

    // Launch 1: a right, b wrong, c right (numeric), d right: 3 of 4 asked = 75.
    let log = calls(&r["launch1"]["log"]);
    assert!(
        !log.iter().any(|e| e[0] == "LOG"),
        "scorm-again logged errors: {log:#?}"
    );
    assert_eq!(log[0], ["LMSInitialize"]);
    // A new attempt starts blank, whatever the browser kept from outside the LMS.
    let first: J = serde_json::from_str(&set_values(&log, "cmi.suspend_data")[0]).unwrap();
    assert!(first["parts"]["a"].get("prediction").is_none(), "{first}");
    assert_eq!(first["decision_log"], "");
    assert_eq!(log.iter().filter(|e| e[0] == "LMSInitialize").count(), 1);
    assert_eq!(
        set_values(&log, "cmi.core.lesson_status"),
        ["incomplete", "completed"]
    );
    assert_eq!(
        set_values(&log, "cmi.core.score.raw"),
        ["0", "25", "50", "75"]
    );
    assert_eq!(set_values(&log, "cmi.core.score.min"), ["0"]);
    assert_eq!(set_values(&log, "cmi.core.score.max"), ["100"]);
    // Each answer is committed before the next action; b's wrong answer moves no score.
    let loaded = position(&log, &["MARK", "loaded"]);
    let selected = position(&log, &["MARK", "a-selected"]);
    let a = position(&log, &["MARK", "a-right"]);
    assert!(
        !log[loaded..selected].iter().any(|e| e[0] == "LMSSetValue"),
        "selecting is not answering: {:#?}",
        &log[loaded..selected]
    );
    let b = position(&log, &["MARK", "b-wrong"]);
    let c = position(&log, &["MARK", "c-right"]);
    let refl = position(&log, &["MARK", "reflected"]);
    let logged = position(&log, &["MARK", "logged"]);
    for (from, to) in [(0, loaded), (loaded, a), (a, b), (b, c), (c, refl)] {
        assert!(
            log[from..to].iter().any(|e| e == &["LMSCommit"]),
            "no commit in {:#?}",
            &log[from..to]
        );
    }
    let finish = position(&log, &["LMSFinish"]);
    assert!(finish > logged, "LMSFinish only when the frame is left");
    assert_eq!(finish, log.len() - 1);
    assert_eq!(log[finish - 1], ["LMSCommit"], "committed before finishing");
    assert_eq!(set_values(&log, "cmi.core.exit"), ["suspend"]);
    assert_eq!(set_values(&log, "cmi.core.session_time").len(), 1);
    // Every answer an interaction, in the order given: choices by the option's place (a, b…),
    // a select-all half right (one right, one wrong: 0 credit), a written answer as fill-in on
    // one line. b's look at the right answer after locking in is not an answer.
    let f = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert_eq!(
        interactions(&log),
        [
            f(&[
                "correct_responses.0.pattern=a",
                "id=a.prediction",
                "result=correct",
                "student_response=a",
                "type=choice"
            ]),
            f(&[
                "correct_responses.0.pattern=b",
                "id=b.prediction",
                "result=wrong",
                "student_response=a",
                "type=choice"
            ]),
            f(&[
                "correct_responses.0.pattern=5",
                "id=c.prediction",
                "result=correct",
                "student_response=5",
                "type=numeric"
            ]),
            f(&[
                "correct_responses.0.pattern=b",
                "id=d.prediction",
                "result=correct",
                "student_response=b",
                "type=choice"
            ]),
            f(&[
                "correct_responses.0.pattern=a",
                "id=a.reflection",
                "result=correct",
                "student_response=a",
                "type=choice"
            ]),
            f(&[
                "correct_responses.0.pattern=b",
                "id=e.q.pick",
                "result=correct",
                "student_response=b",
                "type=choice"
            ]),
            f(&[
                "correct_responses.0.pattern=a,c",
                "id=e.q.both",
                "result=0",
                "student_response=a,b",
                "type=choice"
            ]),
            f(&[
                "id=e.q.third",
                "result=correct",
                "student_response=3",
                "type=numeric"
            ]),
            f(&[
                "id=e.q.essay",
                "result=neutral",
                "student_response=Twice as much in, twice as much out.",
                "type=fill-in"
            ]),
        ]
    );
    // Each with the clock time it was answered (SCORM 1.2's CMITime).
    let times: Vec<String> = log
        .iter()
        .filter(|e| {
            e[0] == "LMSSetValue"
                && e[1].starts_with("cmi.interactions.")
                && e[1].ends_with(".time")
        })
        .map(|e| e[2].clone())
        .collect();
    assert_eq!(times.len(), 9);
    assert!(
        times.iter().all(|t| {
            let b = t.as_bytes();
            b.len() == 8 && b[2] == b':' && b[5] == b':'
        }),
        "{times:?}"
    );
    // Answering a question commits at once, like a prediction.
    let questioned = position(&log, &["MARK", "questioned"]);
    assert!(log[refl..questioned].iter().any(|e| e == &["LMSCommit"]));
    // What scorm-again holds at the end.
    let cmi = &r["launch1"]["cmi"];
    assert_eq!(cmi["status"], "completed");
    assert_eq!(cmi["raw"], "75");
    assert_eq!(
        (cmi["min"].as_str(), cmi["max"].as_str()),
        (Some("0"), Some("100"))
    );
    assert_eq!(cmi["lastError"], "0");
    let suspend: J = serde_json::from_str(cmi["suspend"].as_str().unwrap()).unwrap();
    assert_eq!(
        suspend["decision_log"],
        "Doubling is linear; I chose x = 3."
    );
    assert_eq!(suspend["parts"]["c"]["prediction"], "5");
    // b: locked in wrong, then looked at the right answer: an attempt, the score stays.
    assert_eq!(
        suspend["parts"]["b"]["prediction_attempts"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    assert!(suspend["parts"]["b"]["prediction_locked_at"].is_string());
    assert!(cmi["suspend"].as_str().unwrap().len() <= 4096);

    // Launch 2, without the browser's own copy: resumed from suspend_data.
    let re = &r["launch2"]["restored"];
    assert_eq!(re["a"], re["aFirst"]);
    assert_eq!(re["b"], re["bFirst"]);
    assert_eq!(re["c"], "5");
    assert_eq!(re["log"], "Doubling is linear; I chose x = 3.");
    assert_eq!(re["complete"], true);
    assert_eq!(re["essay"], "Twice as much in,\ntwice as much out.");
    let log2 = calls(&r["launch2"]["log"]);
    // Resumed answers were reported by launch 1; the changed written answer is a new entry.
    assert_eq!(
        interactions(&log2),
        [f(&[
            "id=e.q.essay",
            "result=neutral",
            "student_response=Output is proportional to input.",
            "type=fill-in"
        ])]
    );
    assert_eq!(log2[0], ["LMSInitialize"]);
    assert!(log2.contains(&vec!["LMSGetValue".into(), "cmi.suspend_data".into()]));
    assert_eq!(set_values(&log2, "cmi.core.lesson_status"), ["completed"]);
    assert_eq!(set_values(&log2, "cmi.core.score.raw"), ["75"]);
    // The resumed record is the saved one: when b was locked in, and the answer looked at since.
    let first: J = serde_json::from_str(&set_values(&log2, "cmi.suspend_data")[0]).unwrap();
    for k in ["prediction", "prediction_locked_at", "prediction_attempts"] {
        assert_eq!(first["parts"]["b"][k], suspend["parts"]["b"][k], "{k}");
    }
    assert_eq!(
        log2.last().unwrap(),
        &["LMSFinish"],
        "leaving the LMS page finishes"
    );
    // Too long for suspend_data: the answers kept, the instruments dropped, the decision log
    // cut to what fits (never inside a character).
    let long = r["longLog"].as_str().unwrap();
    assert!(long.chars().count() > 4096);
    let last = set_values(&log2, "cmi.suspend_data").pop().unwrap();
    assert!(last.encode_utf16().count() <= 4096, "{}", last.len());
    let s: J = serde_json::from_str(&last).unwrap();
    assert_eq!(s["parts"]["a"]["prediction"], re["aFirst"]);
    assert_eq!(
        s["parts"]["a"]["reflection"],
        suspend["parts"]["a"]["reflection"]
    );
    assert_eq!(s["parts"]["c"]["prediction"], "5");
    assert!(s["parts"]["a"].get("controls").is_none());
    // The questions' answers are what resuming needs too: kept whole beside the cut log.
    let qs = &s["parts"]["e"]["questions"];
    assert_eq!(qs["pick"]["answer"], "B");
    assert_eq!(qs["both"]["answer"], serde_json::json!(["A", "B"]));
    assert_eq!(qs["third"]["answer"], "3");
    assert_eq!(qs["essay"]["answer"], "Output is proportional to input.");
    assert!(s["parts"]["b"].get("prediction_attempts").is_none());
    assert_eq!(
        s["parts"]["b"]["prediction_locked_at"],
        suspend["parts"]["b"]["prediction_locked_at"]
    );
    let cut = s["decision_log"].as_str().unwrap();
    assert!(long.starts_with(cut) && cut.len() > 3000, "{cut}");
    assert!(!log2.iter().any(|e| e[0] == "LOG"), "{log2:#?}");

    // Review mode: the record shown, nothing set.
    assert_eq!(r["review"]["shown"], "5");
    let log3 = calls(&r["review"]["log"]);
    assert_eq!(log3.first().unwrap(), &["LMSInitialize"]);
    assert_eq!(log3.last().unwrap(), &["LMSFinish"]);
    assert!(
        !log3.iter().any(|e| e[0] == "LMSSetValue" || e[0] == "LOG"),
        "{log3:#?}"
    );
    std::fs::remove_dir_all(out).unwrap();
}

#[test]
fn manifests_are_valid_against_the_scorm_1_2_xsds() {
    if !browser_ready() {
        return;
    }
    let (src, out) = two_labs_rendered("xsd");
    let mut files = Vec::new();
    for z in ["a-first.zip", "b-second.zip", "course.zip"] {
        let xml = entries(&out.join(z)).remove("imsmanifest.xml").unwrap();
        let p = out.join(format!("{z}.xml"));
        std::fs::write(&p, &xml).unwrap();
        files.push(p);
    }
    // The validator sees mistakes: a wrong SCO type, an element out of place.
    let good = std::fs::read_to_string(&files[0]).unwrap();
    for (name, bad) in [
        (
            "bad-type.xml",
            good.replace("adlcp:scormtype=\"sco\"", "adlcp:scormtype=\"lesson\""),
        ),
        (
            "bad-order.xml",
            good.replace(
                "<schemaversion>1.2</schemaversion>",
                "<schemaversion>1.2</schemaversion><title>x</title>",
            ),
        ),
    ] {
        assert_ne!(bad, good);
        let p = out.join(name);
        std::fs::write(&p, bad).unwrap();
        files.push(p);
    }
    let r = node_json("manifest.mjs", &files);
    let valid: Vec<bool> = r
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["valid"].as_bool().unwrap())
        .collect();
    assert_eq!(valid, [true, true, true, false, false], "{r:#}");
    for d in [src, out] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn there_is_no_answer_key_package() {
    let out = tmpdir("key");
    let (ok, err) = render_with(
        &[&root().join(DEMO)],
        &["--answer-key".as_ref()],
        &out.join("k"),
    );
    assert!(!ok);
    assert!(err.contains("no answer key"), "{err}");
    assert!(!out.join("k").exists(), "nothing written");
    std::fs::remove_dir_all(out).unwrap();
}

#[test]
fn the_adapter_and_manifest_can_be_overridden_and_a_broken_adapter_is_refused() {
    let dir = tmpdir("templates");
    let t = dir.join("t");
    std::fs::create_dir_all(&t).unwrap();
    std::fs::write(t.join("scorm.js"), "window.__customAdapter = 1;\n").unwrap();
    let manifest = std::fs::read_to_string(root().join("renderers/scorm/imsmanifest.xml.j2"))
        .unwrap()
        .replace(
            "<title>{{ title }}</title>",
            "<title>Custom: {{ title }}</title>",
        );
    std::fs::write(t.join("imsmanifest.xml.j2"), manifest).unwrap();
    let lab = root().join(DEMO);
    let with_t = ["--templates".as_ref(), t.as_os_str()];
    let (ok, err) = render_with(&[&lab], &with_t, &dir.join("out"));
    assert!(ok, "{err}");
    let files = entries(&dir.join("out/scorm_demo.zip"));
    let page = std::str::from_utf8(&files["index.html"]).unwrap();
    let adapter = &page[page.find("<script data-lf-scorm>").unwrap()..];
    let adapter = &adapter[..adapter.find("</script>").unwrap()];
    assert!(adapter.contains("__customAdapter"), "{adapter}");
    let xml = std::str::from_utf8(&files["imsmanifest.xml"]).unwrap();
    assert!(
        xml.contains("<title>Custom: SCORM demo lab</title>"),
        "{xml}"
    );

    // A script the minifier can read has `</script` escaped in its strings; one it cannot
    // read stays as written, and then `</script` in it is refused.
    std::fs::write(t.join("scorm.js"), "x = '</script>';\n").unwrap();
    let (ok, err) = render_with(&[&lab], &with_t, &dir.join("escaped"));
    assert!(ok, "{err}");
    let files = entries(&dir.join("escaped/scorm_demo.zip"));
    let page = std::str::from_utf8(&files["index.html"]).unwrap();
    assert_eq!(
        page.matches("</script>").count(),
        page.matches("<script").count()
    );
    std::fs::write(t.join("scorm.js"), "x = '</script>' +;\n").unwrap();
    let (ok, err) = render_with(&[&lab], &with_t, &dir.join("bad"));
    assert!(!ok);
    assert!(
        err.contains("the SCORM adapter contains `</script`"),
        "{err}"
    );
    assert!(!dir.join("bad/scorm_demo.zip").exists());
    std::fs::remove_dir_all(dir).unwrap();
}
