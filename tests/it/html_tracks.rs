//! A lab with tracks as pages (crates/render/src/render/html/tracks.rs): one page per track and `STEM.html`,
//! each carrying its track; track texts from `tracks:` reach the page only as text (labels,
//! icons) or sanitised Markdown (summaries); each page stays within the page budget; and the
//! course site checks records against a tracked lab's shape on every track.

use crate::common;
use common::root;
use labforge::lab::load_lab;

fn rendered(path: &std::path::Path) -> tempfile::TempDir {
    let out = tempfile::tempdir().unwrap();
    common::render_html(path, out.path());
    out
}

/// The page's `lf-data` JSON.
fn data(html: &str) -> serde_json::Value {
    let start = html.find("id=\"lf-data\">").unwrap() + 13;
    let end = start + html[start..].find("</script>").unwrap();
    serde_json::from_str(&html[start..end]).unwrap()
}

#[test]
fn every_track_has_its_page_knowing_its_track_and_its_siblings() {
    let out = rendered(&root().join("tests/inputs/tracks_course"));
    for (file, now, home) in [
        ("batching.html", "cloud", true),
        ("batching.phone.html", "phone", false),
        ("batching.ring.html", "ring", false),
        ("batching.cloud.html", "cloud", false),
    ] {
        let raw = std::fs::read_to_string(out.path().join(file)).unwrap();
        let html = crate::common::unpacked(&raw);
        let d = data(&html);
        assert_eq!(d["track"]["now"], now, "{file}");
        assert_eq!(d["track"]["home"], home, "{file}");
        let files: Vec<&str> = d["track"]["list"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t[2].as_str().unwrap())
            .collect();
        assert_eq!(
            files,
            [
                "batching.phone.html",
                "batching.ring.html",
                "batching.cloud.html"
            ]
        );
        assert_eq!(
            d["course"]["tracks"],
            serde_json::json!(["phone", "ring", "cloud"])
        );
        // The page runs the track code; a page without tracks carries none of it.
        assert!(
            html.contains("data-track-now=\"") && html.contains("[data-track-ask]"),
            "{file}"
        );
        assert!(
            raw.len() < 150 * 1024,
            "{file}: {} B over the page budget",
            raw.len()
        );
    }
    let plain = rendered(&root().join("tests/inputs/html_demo.yaml"));
    let html = crate::common::unpacked(
        &std::fs::read_to_string(plain.path().join("html_demo.html")).unwrap(),
    );
    assert!(
        !html.contains("[data-track-ask]")
            && !html.contains("track-line")
            && data(&html).get("track").is_none()
    );
}

#[test]
fn a_page_rendered_for_one_track_has_no_siblings_to_lead_to() {
    let out = tempfile::tempdir().unwrap();
    let st = std::process::Command::new(env!("CARGO_BIN_EXE_labforge"))
        .args([
            "render",
            "tests/inputs/ok_tracks.yaml",
            "--to",
            "html",
            "--track",
            "phone",
            "-o",
        ])
        .arg(out.path())
        .current_dir(root())
        .status()
        .unwrap();
    assert!(st.success());
    let html = std::fs::read_to_string(out.path().join("ok_tracks.html")).unwrap();
    let d = data(&html);
    assert_eq!(
        (&d["track"]["now"], &d["track"]["one"], &d["track"]["home"]),
        (&"phone".into(), &true.into(), &false.into())
    );
    assert!(!html.contains("id=\"h-track-ask\"") && !html.contains("Other tracks:"));
    assert!(html.contains("Track: <b>Phone</b>"));
}

#[test]
fn track_texts_reach_the_page_as_text_or_sanitised_markdown() {
    let dir = tempfile::tempdir().unwrap();
    let lab = std::fs::read_to_string(root().join("tests/inputs/ok_tracks.yaml"))
        .unwrap()
        .replace(
            "label: Phone, icon: \"📱\", device: A17Pro, summary: \"One user, one chip\"",
            "label: \"<img src=x onerror=alert(1)>\", icon: \"<b>i</b>\", device: A17Pro, summary: \"<script>alert(2)</script> [go](javascript:alert(3)) *ok*\"",
        );
    assert!(lab.contains("onerror"), "the fixture changed");
    let f = dir.path().join("hostile.yaml");
    std::fs::write(&f, lab).unwrap();
    let out = rendered(&f);
    for name in ["hostile.html", "hostile.phone.html", "hostile.cloud.html"] {
        let html = std::fs::read_to_string(out.path().join(name)).unwrap();
        assert!(!html.contains("<img src=x"), "{name}: a label as markup");
        assert!(!html.contains("<b>i</b>"), "{name}: an icon as markup");
        assert!(
            !html.contains("<script>alert"),
            "{name}: a summary's script"
        );
        assert!(
            !html.contains("href=\"javascript:"),
            "{name}: a javascript: link"
        );
        assert!(
            html.contains("&lt;img src=x onerror=alert(1)&gt;"),
            "{name}: the label shown as text"
        );
        if name == "hostile.html" {
            assert!(
                html.contains("&lt;script&gt;alert(2)&lt;/script&gt;"),
                "{name}: the summary shown as text"
            );
        }
    }
}

/// The site of the fixture course with tracks (tests/inputs/tracks_course).
fn fixture_site() -> labforge::site::Site {
    let course =
        labforge::course::load(&root().join("tests/inputs/tracks_course/course.yaml")).unwrap();
    let labs: Vec<_> = course
        .file
        .labs
        .iter()
        .map(|f| {
            (
                f.file_stem().unwrap().to_string_lossy().to_string(),
                load_lab(f).ok().unwrap(),
            )
        })
        .collect();
    let refs: Vec<_> = labs.iter().map(|(s, l)| (s.clone(), l)).collect();
    labforge::site::Site::new(&course, &refs).unwrap()
}

#[test]
fn a_tracked_labs_record_shape_takes_a_value_of_any_track() {
    let site = fixture_site();
    let batching = &site.labs[0];
    assert_eq!(batching.tracks, ["phone", "ring", "cloud"]);
    assert_eq!(
        batching.track_titles,
        [
            "Batching on Phone",
            "Batching on Smart Ring",
            "Batching on Cloud Fleet"
        ]
    );
    // The slider `batch` runs 1..8 on phone, 1..4 on ring, 1..64 on cloud: the shape takes 1..64.
    let spec = &batching.shape[0][3][0];
    assert_eq!(spec[0], "batch");
    let (lo, hi) = (spec[1][1].as_f64().unwrap(), spec[1][2].as_f64().unwrap());
    assert!(
        (lo - 1.0).abs() < 1e-6 && (hi - 64.0).abs() < 1e-6,
        "{spec}"
    );
    // A ring record (batch 3) and a cloud one (batch 40) are both kept on every track's page.
    for batch in [3, 40] {
        let ledger = serde_json::json!({"format": "labforge-ledger/2", "lab": "tracks-batching", "version": 1,
            "parts": {"a": {"prediction": "A", "track": "cloud", "controls": {"batch": batch}}}, "decision_log": ""});
        let (clean, dropped) = labforge::record::merge::clean(&ledger, &batching.shape);
        assert!(dropped.is_empty(), "{dropped:?}");
        assert_eq!(clean["parts"]["a"]["controls"]["batch"], batch);
        assert_eq!(clean["parts"]["a"]["track"], "cloud");
    }
}

#[test]
fn a_course_record_keeps_a_track_of_the_course_only() {
    let site = fixture_site();
    use labforge::record::CourseRecord;
    let text = |t: &str| {
        format!("{{\"format\": \"labforge-course/1\", \"course\": \"{}\", \"labs\": {{}}, \"track\": {t}}}", site.id)
    };
    let (r, _) = CourseRecord::parse(&text("\"ring\""), &site.id, &site.labs).unwrap();
    assert_eq!(r.track.as_deref(), Some("ring"));
    let (r, _) = CourseRecord::parse(&text("\"boat\""), &site.id, &site.labs).unwrap();
    assert_eq!(r.track, None);
    let mut mine = CourseRecord::new(&site.id);
    let (theirs, _) = CourseRecord::parse(&text("\"phone\""), &site.id, &site.labs).unwrap();
    mine.merge(&theirs, &site.labs, false);
    assert_eq!(
        mine.track.as_deref(),
        Some("phone"),
        "a copy without a track takes theirs"
    );
    let (other, _) = CourseRecord::parse(&text("\"cloud\""), &site.id, &site.labs).unwrap();
    mine.merge(&other, &site.labs, true);
    assert_eq!(mine.track.as_deref(), Some("phone"), "mine is kept");
}

#[test]
fn a_scorm_package_of_a_lab_with_tracks_links_no_other_tracks_page() {
    let out = tempfile::tempdir().unwrap();
    let st = std::process::Command::new(env!("CARGO_BIN_EXE_labforge"))
        .args([
            "render",
            "tests/inputs/ok_tracks.yaml",
            "--to",
            "scorm",
            "-o",
        ])
        .arg(out.path())
        .current_dir(root())
        .status()
        .unwrap();
    assert!(st.success());
    let zips: Vec<_> = std::fs::read_dir(out.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "zip"))
        .collect();
    assert_eq!(zips.len(), 2, "one package per track: {zips:?}");
    for z in zips {
        let mut a = zip::ZipArchive::new(std::fs::File::open(&z).unwrap()).unwrap();
        let mut html = String::new();
        for i in 0..a.len() {
            let mut f = a.by_index(i).unwrap();
            if f.name().ends_with(".html") {
                std::io::Read::read_to_string(&mut f, &mut html).unwrap();
            }
        }
        assert!(html.contains("Track: <b>"), "{}", z.display());
        assert!(
            !html.contains("Other tracks:") && !html.contains("id=\"h-track-ask\""),
            "{}",
            z.display()
        );
    }
}
