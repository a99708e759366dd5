//! The injection corpus: every free-text field of a valid lab × a list of payloads, rendered to
//! every output format and loaded in headless Chromium. Nothing may run, nothing may load from
//! the network, no element may carry an `on*` attribute.
//!
//! The hostile labs are generated from `tests/inputs/html_demo.yaml` by walking its YAML: a
//! string is a free-text field when replacing it with a probe still passes `check` (ids,
//! formulas, references and enum values do not), so a field added to the format is covered
//! without touching this test. Each payload goes into every free-text field of one lab; the
//! labs are rendered to the page and its index, the print handout, the answer key and their
//! indexes, the SCORM packages (their manifests parsed, their pages loaded), and the Markdown
//! handout and key, which are also turned into HTML the way a site would publish them (pulldown-cmark, raw HTML allowed, no CSP). A local beacon server on
//! 127.0.0.1 counts every connection a payload could make.

use crate::common;

use common::{browser_ready, files_under, json_strings as strings, node, root};
use labforge::eval::load_source;
use labforge::load::Source;
use serde_json::Value as J;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

const BASE: &str = "tests/inputs/html_demo.yaml";

/// The payloads; `PORT` is replaced by the beacon's port, `N` by the payload's number (the
/// value a script payload would store in `window.__xss`).
const PAYLOADS: &[&str] = &[
    "<script>window.__xss=N</script>",
    "<img src=x onerror=\"window.__xss=N\">",
    "<svg onload=\"window.__xss=N\"><circle r=9></circle></svg>",
    "<a href=\"javascript:window.__xss=N\">js link</a>",
    "<iframe srcdoc=\"<script>parent.__xss=N</script>\"></iframe>",
    "<style>@import url(http://127.0.0.1:PORT/import-N);</style>",
    "<link rel=stylesheet href=http://127.0.0.1:PORT/link-N>",
    "<meta http-equiv=refresh content=\"0;url=http://127.0.0.1:PORT/refresh-N\">",
    "<img src=http://127.0.0.1:PORT/beacon-N.png>",
    "[click me](javascript:window.__xss=N)",
    "![beacon](http://127.0.0.1:PORT/md-image-N.png)",
    "x\" onmouseover=\"window.__xss=N\" y=\"",
    "x' onmouseover='window.__xss=N' y='",
    "{{ \"<img src=x onerror=window.__xss=N>\" }}",
    "<object data=http://127.0.0.1:PORT/object-N></object><embed src=http://127.0.0.1:PORT/embed-N>",
    "<body onload=\"window.__xss=N\"><details open ontoggle=\"window.__xss=N\">",
];

fn compiles(text: &str) -> bool {
    load_source(Source::new("probe.yaml", text)).is_ok()
}

fn with(base: &J, fields: &[String], text: &dyn Fn(usize) -> String) -> String {
    let mut v = base.clone();
    for (i, f) in fields.iter().enumerate() {
        *v.pointer_mut(f).unwrap() = J::String(text(i));
    }
    // JSON is YAML: the lab file is the JSON text.
    serde_json::to_string_pretty(&v).unwrap()
}

/// The free-text fields of the base lab: strings that still check when they hold markup.
fn free_text_fields(base: &J) -> Vec<String> {
    let mut all = Vec::new();
    strings(base, String::new(), &mut all);
    let probe = |_: usize| "<b>probe</b> \"q' x".to_string();
    all.into_iter()
        .filter(|f| compiles(&with(base, std::slice::from_ref(f), &probe)))
        .collect()
}

/// A hostile lab: `payload` (numbered `n`) in every field of `fields` that takes it.
fn hostile_lab(base: &J, fields: &[String], payload: &str, n: usize) -> (String, usize) {
    let text = |i: usize| format!("F{i} {payload}");
    let all = with(base, fields, &text);
    if compiles(&all) {
        return (all, fields.len());
    }
    // Some fields refuse this payload (e.g. a placeholder in a field that is not a template):
    // keep every field that takes it.
    let keep: Vec<String> = fields
        .iter()
        .filter(|f| compiles(&with(base, std::slice::from_ref(f), &text)))
        .cloned()
        .collect();
    let lab = with(base, &keep, &text);
    assert!(
        compiles(&lab),
        "payload {n} does not check in the fields that take it alone"
    );
    (lab, keep.len())
}

/// Counts connections to 127.0.0.1:port (any connection is a request a payload made).
fn beacon() -> (u16, Arc<AtomicUsize>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    let hits = Arc::new(AtomicUsize::new(0));
    let h = hits.clone();
    std::thread::spawn(move || {
        for c in l.incoming() {
            h.fetch_add(1, Ordering::SeqCst);
            drop(c);
        }
    });
    (port, hits)
}

fn render(src: &Path, to: &str, key: bool, out: &Path) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_labforge"));
    cmd.arg("render").arg(src).args(["--to", to, "-o"]).arg(out);
    if key {
        cmd.arg("--answer-key");
    }
    let o = cmd.output().unwrap();
    assert!(
        o.status.success(),
        "render --to {to}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Renders the labs to SCORM packages, checks that every `imsmanifest.xml` is well-formed XML
/// made of the manifest's own elements only (lab text stays text), and unpacks each lab's page
/// to `out/scorm-pages/STEM.html`. Returns the number of manifests.
fn scorm_pages(src: &Path, out: &Path) -> usize {
    use std::io::Read;
    let dir = out.join("scorm");
    render(src, "scorm", false, &dir);
    let pages = out.join("scorm-pages");
    std::fs::create_dir_all(&pages).unwrap();
    let mut manifests = 0;
    for p in files_under(&dir) {
        if p.extension().is_none_or(|e| e != "zip") {
            continue;
        }
        let mut z = zip::ZipArchive::new(std::fs::File::open(&p).unwrap()).unwrap();
        let mut xml = String::new();
        z.by_name("imsmanifest.xml")
            .unwrap()
            .read_to_string(&mut xml)
            .unwrap();
        let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{p:?}: {e}"));
        for n in doc.descendants().filter(|n| n.is_element()) {
            assert!(
                [
                    "manifest",
                    "metadata",
                    "schema",
                    "schemaversion",
                    "organizations",
                    "organization",
                    "title",
                    "item",
                    "resources",
                    "resource",
                    "file",
                ]
                .contains(&n.tag_name().name()),
                "{p:?}: <{}>",
                n.tag_name().name()
            );
        }
        manifests += 1;
        let mut page = Vec::new();
        if let Ok(mut f) = z.by_name("index.html") {
            f.read_to_end(&mut page).unwrap();
        }
        if !page.is_empty() {
            let stem = p.file_stem().unwrap().to_str().unwrap();
            std::fs::write(pages.join(format!("{stem}.html")), page).unwrap();
        }
    }
    manifests
}

/// A Markdown file published the way a site would: CommonMark with raw HTML, no CSP.
fn publish_markdown(md: &Path) -> PathBuf {
    let text = std::fs::read_to_string(md).unwrap();
    let opts = pulldown_cmark::Options::ENABLE_TABLES
        | pulldown_cmark::Options::ENABLE_STRIKETHROUGH
        | pulldown_cmark::Options::ENABLE_TASKLISTS;
    let mut body = String::new();
    pulldown_cmark::html::push_html(&mut body, pulldown_cmark::Parser::new_ext(&text, opts));
    let out = md.with_extension("md.html");
    std::fs::write(
        &out,
        format!("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>site</title></head><body>\n{body}</body></html>\n"),
    )
    .unwrap();
    out
}

#[test]
fn every_text_field_times_every_payload_runs_and_loads_nothing_in_any_output() {
    // Through the lab model (a YAML-to-JSON conversion would read `var: n` as `false`).
    let source = Source::read(&root().join(BASE)).unwrap();
    let base = serde_json::to_value(labforge::load::parse(&source).unwrap()).unwrap();
    assert!(
        compiles(&with(&base, &[], &|_| String::new())),
        "the base lab round-trips"
    );
    let fields = free_text_fields(&base);
    // html_demo has some 80 free-text fields; far fewer means the probe broke.
    assert!(
        fields.len() >= 60,
        "only {} free-text fields: {fields:?}",
        fields.len()
    );
    for must in [
        "/title",
        "/parts/0/title",
        "/parts/0/prediction/options/0/text",
        "/synthesis/self_assessment/1/answer",
    ] {
        assert!(fields.iter().any(|f| f == must), "{must} not probed");
    }

    let (port, hits) = beacon();
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("labs");
    std::fs::create_dir_all(&src).unwrap();
    let mut placements = 0;
    for (i, p) in PAYLOADS.iter().enumerate() {
        let n = i + 1;
        let payload = p
            .replace("PORT", &port.to_string())
            .replace('N', &n.to_string());
        let (lab, used) = hostile_lab(&base, &fields, &payload, n);
        placements += used;
        std::fs::write(src.join(format!("p{n:02}.yaml")), lab).unwrap();
    }
    let out = tmp.path().join("out");
    for (to, key, dir) in [
        ("html", false, "page"),
        ("handout-html", false, "handout"),
        ("handout-html", true, "key"),
        ("markdown", false, "md"),
        ("markdown", true, "md-key"),
    ] {
        render(&src, to, key, &out.join(dir));
    }
    let manifests = scorm_pages(&src, &out);
    assert_eq!(
        manifests,
        PAYLOADS.len() + 1,
        "a manifest per lab and the course's"
    );
    let mut published = Vec::new();
    for dir in ["md", "md-key"] {
        for e in std::fs::read_dir(out.join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|e| e == "md") {
                published.push(publish_markdown(&p));
            }
        }
    }
    let pages: Vec<PathBuf> = files_under(&out)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    // Per format: one file per payload and an index (Markdown indexes included); the SCORM
    // packages' pages.
    let n = PAYLOADS.len();
    assert_eq!(pages.len(), 5 * (n + 1) + n, "{pages:?}");
    println!(
        "{} placements ({} fields × {} payloads, less refusals) in {} HTML files",
        placements,
        fields.len(),
        n,
        pages.len()
    );
    assert_eq!(hits.load(Ordering::SeqCst), 0, "rendering made requests");

    if !browser_ready() {
        return;
    }
    let list = tmp.path().join("pages.txt");
    std::fs::write(
        &list,
        pages
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join("\n"),
    )
    .unwrap();
    let (ok, text) = node("injection.mjs", &[&list]);
    println!("{text}");
    assert!(ok, "injection corpus:\n{text}");
    assert!(
        text.contains(&format!("{} pages loaded", pages.len())),
        "{text}"
    );
    assert_eq!(
        hits.load(Ordering::SeqCst),
        0,
        "a payload reached the beacon on 127.0.0.1:{port}"
    );
}
