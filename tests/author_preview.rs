//! `labforge preview` end to end: start the binary on a free port, fetch the page, change the
//! file, see the new content; a broken file shows its diagnostic, escaped, with its source line.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

struct Server {
    child: Child,
    addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
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

fn start(lab: &std::path::Path) -> Server {
    start_with(lab, &[])
}

fn start_with(lab: &std::path::Path, extra: &[&str]) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_labforge"))
        .args(["preview", lab.to_str().unwrap(), "--port", "0"])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .strip_prefix("preview: http://")
        .and_then(|s| s.strip_suffix('/'))
        .unwrap_or_else(|| panic!("unexpected first line: {line:?}"))
        .to_string();
    Server { child, addr }
}

/// GET `path`: (status code, body).
fn get(s: &Server, path: &str) -> (u16, String) {
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut stream = TcpStream::connect(&s.addr).unwrap();
    stream
        .set_read_timeout(Some(deadline - Instant::now()))
        .unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        s.addr
    )
    .unwrap();
    let mut raw = String::new();
    stream.read_to_string(&mut raw).unwrap();
    let (head, body) = raw.split_once("\r\n\r\n").expect("a full response");
    let code = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (code, body.to_string())
}

fn lab(title: &str, formula: &str) -> String {
    format!(
        r#"id: preview-test
title: {title}
parts:
  - id: a
    title: Only part
    controls:
      - slider: {{ id: utilization, label: Utilization, min: 0.1, max: 0.9, step: 0.1, default: 0.5 }}
    formulas:
      wait: {formula}
    outputs:
      wait: {{ label: Wait }}
"#
    )
}

#[test]
fn preview_serves_reloads_and_shows_diagnostics() {
    let dir = temp_dir("preview");
    let path = dir.join("lab.yaml");
    std::fs::write(
        &path,
        lab("Preview Alpha", "utilization / (1 - utilization)"),
    )
    .unwrap();
    let server = start(&path);

    let (code, page) = get(&server, "/");
    assert_eq!(code, 200);
    assert!(page.contains("Preview Alpha"), "{page}");
    // The reload hook, with the version the page was built from.
    let (_, v1) = get(&server, "/__version");
    assert!(
        page.contains(&format!(
            "<script src=\"/__reload.js\" data-version=\"{v1}\">"
        )),
        "{page}"
    );
    // A page with a Content-Security-Policy gets 'self' for the reload script and its fetch.
    if let Some(i) = page.find("http-equiv=\"Content-Security-Policy\"") {
        let meta = &page[i..i + page[i..].find('>').unwrap()];
        assert!(meta.contains("connect-src 'self'"), "{meta}");
        assert!(meta.contains("'self'"), "{meta}");
    }
    let (code, js) = get(&server, "/__reload.js");
    assert_eq!(code, 200);
    assert!(js.contains("/__version") && js.contains("location.reload()"));
    assert_eq!(get(&server, "/__version").1, v1, "the version is stable");

    // Change the file: a new version and the new content.
    std::fs::write(
        &path,
        lab("Preview Beta", "utilization / (1 - utilization)"),
    )
    .unwrap();
    let (_, v2) = get(&server, "/__version");
    assert_ne!(v1, v2);
    let (_, page) = get(&server, "/");
    assert!(page.contains("Preview Beta"), "{page}");
    assert!(!page.contains("Preview Alpha"), "a stale page: {page}");

    // Break it: the page shows the diagnostic with its source line, escaped.
    std::fs::write(
        &path,
        lab("Preview Beta", "if utilisation < 0.5 { 1 } else { 2 }"),
    )
    .unwrap();
    let (_, page) = get(&server, "/");
    assert!(page.contains("lab.yaml has errors"), "{page}");
    assert!(page.contains("unknown name `utilisation`"), "{page}");
    assert!(page.contains("did you mean `utilization`?"), "{page}");
    assert!(
        page.contains("9 |       wait: if utilisation &lt; 0.5 { 1 } else { 2 }"),
        "{page}"
    );
    assert!(
        page.contains("data-version=\""),
        "the error page reloads too"
    );
    assert_ne!(get(&server, "/__version").1, v2);

    // Fixed again: the lab is back.
    std::fs::write(&path, lab("Preview Gamma", "utilization * 2")).unwrap();
    let (_, page) = get(&server, "/");
    assert!(page.contains("Preview Gamma"), "{page}");
    assert!(!page.contains("has errors"), "{page}");

    assert_eq!(get(&server, "/no-such-file.css").0, 404);
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn preview_refuses_a_missing_file() {
    let o = Command::new(env!("CARGO_BIN_EXE_labforge"))
        .args(["preview", "/nonexistent/lab.yaml", "--port", "0"])
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("no such lab file"));
}

#[test]
fn editing_a_template_is_a_new_version() {
    let dir = temp_dir("preview-templates");
    let path = dir.join("lab.yaml");
    std::fs::write(&path, lab("Themed", "utilization * 2")).unwrap();
    let theme = dir.join("theme");
    std::fs::create_dir_all(&theme).unwrap();
    std::fs::write(theme.join("style.css"), "body { color: black }\n").unwrap();
    let server = start_with(&path, &["--templates", theme.to_str().unwrap()]);
    let (_, v1) = get(&server, "/__version");
    assert_eq!(get(&server, "/__version").1, v1);
    std::fs::write(theme.join("style.css"), "body { color: navy }\n").unwrap();
    let (_, v2) = get(&server, "/__version");
    assert_ne!(v1, v2);
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

/// HEAD gets the headers of GET (its length included) and no body.
#[test]
fn head_requests_get_no_body() {
    let dir = temp_dir("head");
    let f = dir.join("lab.yaml");
    std::fs::write(&f, lab("Head", "utilization * 2")).unwrap();
    let s = start(&f);
    let (code, body) = get(&s, "/");
    assert_eq!(code, 200);
    let mut stream = TcpStream::connect(&s.addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    write!(
        stream,
        "HEAD / HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        s.addr
    )
    .unwrap();
    let mut raw = String::new();
    std::io::Read::read_to_string(&mut stream, &mut raw).unwrap();
    let (head, rest) = raw.split_once("\r\n\r\n").unwrap();
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(
        head.contains(&format!("Content-Length: {}", body.len())),
        "{head}"
    );
    assert_eq!(rest, "");
}

/// A request line that never ends is cut off and answered at once, not buffered without bound.
#[test]
fn an_endless_request_line_is_answered_not_buffered() {
    let dir = temp_dir("endless");
    let f = dir.join("lab.yaml");
    std::fs::write(&f, lab("Endless", "utilization * 2")).unwrap();
    let s = start(&f);
    let mut stream = TcpStream::connect(&s.addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(4)))
        .unwrap();
    let start = Instant::now();
    // No newline, and the connection stays open for writing.
    let _ = stream.write_all(&vec![b'A'; 200 * 1024]);
    let mut first = [0u8; 12];
    std::io::Read::read_exact(&mut stream, &mut first).expect("an answer before the timeout");
    assert!(
        first.starts_with(b"HTTP/1.1 4"),
        "{:?}",
        String::from_utf8_lossy(&first)
    );
    assert!(start.elapsed() < Duration::from_secs(3));
}
