//! `labforge preview` in a real browser: headless Chromium opens the page, the lab file changes,
//! and the page reloads itself (the reload script runs under the page's Content-Security-Policy
//! as loosened for preview). The tab's title is read from Chromium's DevTools HTTP endpoint.
//! Needs `chromium` (installed by .ci/run); without it the test says so and passes.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

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

/// A GET that reads exactly Content-Length bytes (Chromium keeps connections open).
fn http_get(addr: &str, path: &str) -> Option<String> {
    let mut s = TcpStream::connect(addr).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    let mut r = BufReader::new(s);
    let mut len = None;
    loop {
        let mut h = String::new();
        if r.read_line(&mut h).ok()? == 0 {
            return None;
        }
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            if k.eq_ignore_ascii_case("content-length") {
                len = v.trim().parse::<usize>().ok();
            }
        }
    }
    let mut body = vec![0; len?];
    r.read_exact(&mut body).ok()?;
    String::from_utf8(body).ok()
}

fn lab(title: &str) -> String {
    format!(
        "id: browser-test\ntitle: {title}\nparts:\n  - id: a\n    title: Only part\n    controls:\n      \
- slider: {{ id: n, label: N, min: 1, max: 9, step: 1, default: 3 }}\n    formulas:\n      \
twice: n * 2\n    outputs:\n      twice: {{ label: Twice }}\n    instruments:\n      \
- metrics: [ {{ output: twice }} ]\n"
    )
}

/// The title of the tab showing `url`, from the DevTools endpoint.
fn tab_title(devtools: &str, url: &str) -> Option<String> {
    let body = http_get(devtools, "/json/list")?;
    let tabs: serde_json::Value = serde_json::from_str(&body).ok()?;
    tabs.as_array()?
        .iter()
        .find(|t| t["type"] == "page" && t["url"].as_str().is_some_and(|u| u.starts_with(url)))
        .and_then(|t| t["title"].as_str().map(str::to_string))
}

fn wait_for(what: &str, timeout: Duration, mut f: impl FnMut() -> bool) {
    let end = Instant::now() + timeout;
    while Instant::now() < end {
        if f() {
            return;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    panic!("timed out waiting for {what}");
}

fn devtools_port(profile: &Path) -> Option<String> {
    let text = std::fs::read_to_string(profile.join("DevToolsActivePort")).ok()?;
    text.lines().next().map(str::to_string)
}

#[test]
fn the_page_reloads_itself_when_the_lab_changes() {
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

    let profile = dir.join("chromium-profile");
    let browser = Command::new("chromium")
        .args([
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--remote-debugging-port=0",
            &format!("--user-data-dir={}", profile.display()),
            &url,
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    let Ok(browser) = browser else {
        eprintln!("chromium is not installed: skipping the browser reload test");
        return;
    };
    let _browser = Guard(browser);

    let mut port = None;
    wait_for("Chromium's DevTools port", Duration::from_secs(30), || {
        port = devtools_port(&profile);
        port.is_some()
    });
    let devtools = format!("127.0.0.1:{}", port.unwrap());
    let title_has = |want: &str| tab_title(&devtools, &url).is_some_and(|t| t.contains(want));
    wait_for(
        "the page titled Browser Alpha",
        Duration::from_secs(30),
        || title_has("Browser Alpha"),
    );

    std::fs::write(&path, lab("Browser Beta")).unwrap();
    wait_for(
        "the page to reload as Browser Beta",
        Duration::from_secs(15),
        || title_has("Browser Beta"),
    );

    std::fs::write(&path, lab("Browser Beta").replace("n * 2", "m * 2")).unwrap();
    wait_for("the diagnostics page", Duration::from_secs(15), || {
        title_has("has errors")
    });
    drop(_browser);
    drop(_server);
    let _ = std::fs::remove_dir_all(&dir);
}
