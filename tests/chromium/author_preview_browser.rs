//! `labforge preview` in a real browser: headless Chromium (driven by playwright-core from
//! `tests/browser/preview.mjs`) opens the page, the lab file changes, and the page reloads
//! itself within 500 ms, told by the server's event stream, with no polling request in its
//! network log; the reload script runs under the page's Content-Security-Policy as loosened for
//! preview. Without Chromium or node the test says so and passes, except under `CI`.

use crate::common;
use common::{browser_ready, node};
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

struct Guard(Child);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn temp_dir(tag: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let d = std::env::temp_dir().join(format!("labforge-{tag}-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn lab(title: &str) -> String {
    format!(
        "id: browser-test\ntitle: {title}\nparts:\n  - id: a\n    title: Only part\n    controls:\n      \
- slider: {{ id: n, label: N, min: 1, max: 9, step: 1, default: 3 }}\n    formulas:\n      \
twice: n * 2\n    outputs:\n      twice: {{ label: Twice }}\n    instruments:\n      \
- metrics: [ {{ output: twice }} ]\n"
    )
}

#[test]
fn the_page_reloads_itself_when_the_lab_changes() {
    if !browser_ready() {
        return;
    }
    let dir = temp_dir("preview-browser");
    let path = dir.join("lab.yaml");
    std::fs::write(&path, lab("Browser Alpha")).unwrap();

    let mut server = Command::new(env!("CARGO_BIN_EXE_labforge"))
        .args(["preview", path.to_str().unwrap(), "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let _server = Guard(server);
    let url = line.trim().strip_prefix("preview: ").unwrap().to_string();

    let (ok, out) = node("preview.mjs", &[url.as_str(), path.to_str().unwrap()]);
    println!("{out}");
    assert!(ok, "{out}");
    assert!(out.contains("0 failed"), "{out}");
    drop(_server);
    let _ = std::fs::remove_dir_all(&dir);
}
