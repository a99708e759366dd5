//! `labforge preview LAB`: serves the lab's HTML page on 127.0.0.1 and reloads it on every save.
//!
//! Every request for the page re-reads the lab when its *version* changed. The version is a hash
//! of the lab file's bytes (and of the `--templates` directory's files), served at `/__version`.
//! The served page gets one extra element, `<script src="/__reload.js" data-version="V">`,
//! which polls `/__version` twice a second and reloads the page when the answer differs from
//! `V`. When the lab has errors (or the renderer fails) the page is a diagnostics page: every
//! message with its source line and caret, HTML-escaped, with the same reload script, so fixing
//! the file brings the lab back without touching the browser.
//!
//! The rendered page is meant to be opened from disk and may carry a strict
//! Content-Security-Policy `<meta>`. Only in preview, that policy is rewritten so the reload
//! script can run: `'self'` is added to `script-src` and `connect-src` (each created from
//! `default-src` when the page does not set it), leaving every other directive as it was. Files
//! written by `labforge render` never contain the script or the loosened policy.

use crate::diag::Diagnostic;
use crate::render::{OutFile, RenderOptions};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Options of `labforge preview`.
#[derive(Debug, Clone, Default)]
pub struct PreviewOptions {
    pub lab: PathBuf,
    /// Port on 127.0.0.1; 0 picks a free one (printed on stdout).
    pub port: u16,
    /// Template overrides, as for `labforge render --templates`.
    pub templates: Option<PathBuf>,
}

/// The reload script served at `/__reload.js`.
pub const RELOAD_JS: &str = r#"(function () {
  var me = document.currentScript;
  var version = me && me.getAttribute("data-version");
  function poll() {
    fetch("/__version", { cache: "no-store" })
      .then(function (r) { return r.ok ? r.text() : version; })
      .then(function (v) {
        if (v !== version) { location.reload(); } else { setTimeout(poll, 500); }
      })
      .catch(function () { setTimeout(poll, 1000); });
  }
  setTimeout(poll, 500);
})();
"#;

/// What the server shows for one version of the lab.
#[derive(Clone)]
enum Page {
    /// The renderer's files; `main` indexes the HTML page.
    Rendered { files: Vec<OutFile>, main: usize },
    /// A diagnostics page (complete HTML).
    Errors(String),
}

struct State {
    opts: PreviewOptions,
    cache: Mutex<Option<(String, Page)>>,
}

/// A hash of the lab file's bytes and the template directory's files.
pub fn version(lab: &Path, templates: Option<&Path>) -> String {
    let mut h = DefaultHasher::new();
    match std::fs::read(lab) {
        Ok(b) => b.hash(&mut h),
        Err(e) => e.kind().to_string().hash(&mut h),
    }
    if let Some(dir) = templates {
        let mut files = Vec::new();
        collect_files(dir, &mut files);
        files.sort();
        for f in files {
            f.hash(&mut h);
            std::fs::read(&f).unwrap_or_default().hash(&mut h);
        }
    }
    format!("{:016x}", h.finish())
}

fn collect_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect_files(&p, out);
        } else {
            out.push(p);
        }
    }
}

pub use crate::render::escape;

fn reload_tag(version: &str) -> String {
    format!(
        "<script src=\"/__reload.js\" data-version=\"{}\"></script>",
        escape(version)
    )
}

/// The diagnostics page: a heading, then each diagnostic rendered as `labforge check` prints it.
pub fn error_page(title: &str, summary: &str, body: &str, version: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<title>{t} — labforge preview</title>\
<style>body{{font:15px/1.45 system-ui,sans-serif;margin:2rem;max-width:70rem;color:#222}}\
h1{{font-size:1.3rem;color:#b3261e}}pre{{background:#f6f6f6;border-left:4px solid #b3261e;\
padding:1rem;overflow-x:auto;font:13px/1.4 ui-monospace,monospace}}\
p.note{{color:#666}}</style></head>\n<body>\n<h1>{t}</h1>\n<p>{s}</p>\n<pre id=\"diagnostics\">{b}</pre>\n\
<p class=\"note\">This page reloads when the file changes.</p>\n{r}\n</body></html>\n",
        t = escape(title),
        s = escape(summary),
        b = escape(body),
        r = reload_tag(version),
    )
}

/// Rewrites the page's Content-Security-Policy `<meta>` (if any) so that a script from `'self'`
/// may run and fetch from `'self'`, and inserts the reload script before `</body>`.
pub fn inject_reload(html: &str, version: &str) -> String {
    let html = loosen_csp(html);
    let tag = reload_tag(version);
    match find_ci_last(&html, "</body>") {
        Some(i) => format!("{}{tag}\n{}", &html[..i], &html[i..]),
        None => format!("{html}\n{tag}\n"),
    }
}

fn find_ci_last(hay: &str, needle: &str) -> Option<usize> {
    hay.to_ascii_lowercase().rfind(needle)
}

/// Adds `'self'` to `script-src` and `connect-src` of every CSP `<meta>` in the page.
pub fn loosen_csp(html: &str) -> String {
    let lower = html.to_ascii_lowercase();
    let mut out = String::with_capacity(html.len() + 64);
    let mut rest = 0;
    let mut search = 0;
    while let Some(i) = lower[search..].find("<meta") {
        let start = search + i;
        let Some(len) = lower[start..].find('>') else {
            break;
        };
        let end = start + len;
        search = end;
        let tag_l = &lower[start..end];
        if !tag_l.contains("content-security-policy") {
            continue;
        }
        // The content attribute, quoted with " or '.
        let Some(ci) = tag_l.find("content=") else {
            continue;
        };
        let vstart = start + ci + "content=".len();
        let quote = html[vstart..].chars().next();
        let Some(q) = quote.filter(|c| *c == '"' || *c == '\'') else {
            continue;
        };
        let Some(vlen) = html[vstart + 1..end].find(q) else {
            continue;
        };
        // Templates escape attribute values (`&#x27;none&#x27;`): decode, rewrite, re-escape.
        let value = decode_entities(&html[vstart + 1..vstart + 1 + vlen]);
        out.push_str(&html[rest..vstart + 1]);
        out.push_str(&encode_attr(&loosen_policy(&value), q));
        rest = vstart + 1 + vlen;
    }
    out.push_str(&html[rest..]);
    out
}

/// Decodes the character references an attribute value may contain (`&#x27;`, `&#39;`,
/// `&quot;`, `&amp;`, `&lt;`, `&gt;`, and any numeric one).
pub fn decode_entities(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        let decoded = tail.find(';').filter(|&j| j <= 10).and_then(|j| {
            let ent = &tail[1..j];
            let c = match ent {
                "amp" => Some('&'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                "lt" => Some('<'),
                "gt" => Some('>'),
                _ => {
                    let n = if let Some(h) = ent.strip_prefix("#x").or(ent.strip_prefix("#X")) {
                        u32::from_str_radix(h, 16).ok()
                    } else {
                        ent.strip_prefix('#').and_then(|d| d.parse().ok())
                    };
                    n.and_then(char::from_u32)
                }
            };
            c.map(|c| (c, j + 1))
        });
        match decoded {
            Some((c, len)) => {
                out.push(c);
                rest = &tail[len..];
            }
            None => {
                out.push('&');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Escapes an attribute value quoted with `quote`.
fn encode_attr(s: &str, quote: char) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '"' if quote == '"' => o.push_str("&quot;"),
            '\'' if quote == '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
    o
}

/// `'self'` added to `script-src` and `connect-src` of one policy string.
pub fn loosen_policy(policy: &str) -> String {
    let mut dirs: Vec<(String, Vec<String>)> = policy
        .split(';')
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(|d| {
            let mut w = d.split_whitespace().map(str::to_string);
            let name = w.next().unwrap_or_default().to_ascii_lowercase();
            (name, w.collect())
        })
        .collect();
    let default = dirs
        .iter()
        .find(|(n, _)| n == "default-src")
        .map(|(_, v)| v.clone());
    for name in ["script-src", "connect-src"] {
        match dirs.iter_mut().find(|(n, _)| n == name) {
            Some((_, v)) => {
                v.retain(|s| s != "'none'");
                if !v.iter().any(|s| s == "'self'") {
                    v.push("'self'".into());
                }
            }
            None => {
                // Without a default-src nothing restricts this directive: leave it absent.
                if let Some(d) = &default {
                    let mut v: Vec<String> = d.iter().filter(|s| *s != "'none'").cloned().collect();
                    if !v.iter().any(|s| s == "'self'") {
                        v.push("'self'".into());
                    }
                    dirs.push((name.to_string(), v));
                }
            }
        }
    }
    dirs.iter()
        .map(|(n, v)| {
            if v.is_empty() {
                n.clone()
            } else {
                format!("{n} {}", v.join(" "))
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

fn build_page(opts: &PreviewOptions, version: &str) -> Page {
    let name = opts.lab.display().to_string();
    let (src, diags, lab) = crate::cli::diagnose(&opts.lab);
    let errors: Vec<&Diagnostic> = diags.iter().filter(|d| d.is_error()).collect();
    let text = src.as_ref().map(|s| s.text.as_str());
    let lab = match lab {
        Some(l) if errors.is_empty() => l,
        _ => {
            let body: String = diags.iter().map(|d| d.render(text)).collect();
            let n = errors.len().max(1);
            let warnings = diags.len().saturating_sub(errors.len());
            crate::cli::report(&diags, src.as_ref());
            eprintln!("preview: {name}: {n} error(s)");
            return Page::Errors(error_page(
                &format!("{name} has errors"),
                &format!(
                    "{n} error(s), {warnings} warning(s). Fix the file and save: this page reloads."
                ),
                &body,
                version,
            ));
        }
    };
    let stem = opts
        .lab
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("lab")
        .to_string();
    let ropts = RenderOptions {
        answer_key: false,
        templates: opts.templates.clone(),
        ..RenderOptions::default()
    };
    // Warnings do not stop the page; they go to the terminal, as `check` prints them.
    crate::cli::report(&diags, src.as_ref());
    let start = Instant::now();
    let rendered = crate::render::renderer("html")
        .ok_or_else(|| "no html renderer".to_string())
        .and_then(|r| r.render(&lab, &stem, &ropts));
    let title = lab.lab.title.value.clone();
    match rendered {
        Ok(files) => {
            let wanted = PathBuf::from(format!("{stem}.html"));
            let main = files.iter().position(|f| f.path == wanted).or_else(|| {
                files
                    .iter()
                    .position(|f| f.path.extension().is_some_and(|e| e == "html"))
            });
            match main {
                Some(main) => {
                    eprintln!(
                        "preview: rendered {name} in {} ms",
                        start.elapsed().as_millis()
                    );
                    Page::Rendered { files, main }
                }
                None => Page::Errors(error_page(
                    &format!("{title}: no page"),
                    "The HTML renderer produced no .html file.",
                    "",
                    version,
                )),
            }
        }
        Err(e) => {
            eprintln!("preview: {name}: rendering failed: {e}");
            let warnings: String = diags.iter().map(|d| d.render(text)).collect();
            Page::Errors(error_page(
                &format!("{title}: rendering failed"),
                &format!("{name} has no errors, but the HTML renderer failed."),
                &format!("error: {e}\n{warnings}"),
                version,
            ))
        }
    }
}

impl State {
    fn current(&self) -> (String, Page) {
        let v = version(&self.opts.lab, self.opts.templates.as_deref());
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        match &*cache {
            Some((cv, page)) if *cv == v => (v, page.clone()),
            _ => {
                let page = build_page(&self.opts, &v);
                *cache = Some((v.clone(), page.clone()));
                (v, page)
            }
        }
    }
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "md" | "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// Sends a response; `head` (a HEAD request) sends the headers only, length included.
fn respond(stream: &mut TcpStream, head: bool, status: &str, ctype: &str, body: &[u8]) {
    let head_text = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\n\
Cache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head_text.as_bytes());
    if !head {
        let _ = stream.write_all(body);
    }
    let _ = stream.flush();
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 3 <= b.len() && b[i + 1..i + 3].iter().all(u8::is_ascii_hexdigit) {
            let hex = std::str::from_utf8(&b[i + 1..i + 3]).unwrap_or("00");
            out.push(u8::from_str_radix(hex, 16).unwrap_or(0));
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn handle(state: &State, mut stream: TcpStream) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    // The request line and headers are read from the first 64 KiB only: a line that never ends
    // is cut there and answered (405), not buffered without bound.
    let mut reader = BufReader::new(match stream.try_clone() {
        Ok(s) => std::io::Read::take(s, 64 * 1024),
        Err(_) => return,
    });
    let mut first = String::new();
    if reader.read_line(&mut first).is_err() {
        return;
    }
    // Drain the headers (bounded).
    for _ in 0..100 {
        let mut line = String::new();
        match reader.read_line(&mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) if line == "\r\n" || line == "\n" => break,
            Ok(_) => {}
        }
    }
    let mut parts = first.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or("/"));
    let head = method == "HEAD";
    if method != "GET" && method != "HEAD" {
        respond(
            &mut stream,
            head,
            "405 Method Not Allowed",
            "text/plain",
            b"only GET\n",
        );
        return;
    }
    let path = percent_decode(target.split(['?', '#']).next().unwrap_or("/"));
    let html = "text/html; charset=utf-8";
    match path.as_str() {
        "/__version" => {
            let v = version(&state.opts.lab, state.opts.templates.as_deref());
            respond(&mut stream, head, "200 OK", "text/plain", v.as_bytes());
        }
        "/__reload.js" => respond(
            &mut stream,
            head,
            "200 OK",
            "text/javascript; charset=utf-8",
            RELOAD_JS.as_bytes(),
        ),
        _ => {
            let (v, page) = state.current();
            let rel = path.trim_start_matches('/');
            match page {
                Page::Errors(body) => {
                    if rel.is_empty() || rel.ends_with(".html") {
                        respond(&mut stream, head, "200 OK", html, body.as_bytes())
                    } else {
                        respond(
                            &mut stream,
                            head,
                            "404 Not Found",
                            "text/plain",
                            b"not found\n",
                        )
                    }
                }
                Page::Rendered { files, main } => {
                    let idx = if rel.is_empty() || rel == "index.html" {
                        Some(main)
                    } else {
                        files.iter().position(|f| f.path == Path::new(rel))
                    };
                    match idx {
                        Some(i) if i == main => {
                            let page = String::from_utf8_lossy(&files[i].bytes);
                            respond(
                                &mut stream,
                                head,
                                "200 OK",
                                html,
                                inject_reload(&page, &v).as_bytes(),
                            )
                        }
                        Some(i) => {
                            let p = files[i].path.to_string_lossy().into_owned();
                            respond(
                                &mut stream,
                                head,
                                "200 OK",
                                content_type(&p),
                                &files[i].bytes,
                            )
                        }
                        None => respond(
                            &mut stream,
                            head,
                            "404 Not Found",
                            "text/plain",
                            b"not found\n",
                        ),
                    }
                }
            }
        }
    }
}

/// Serves until the process is stopped. Prints `preview: http://127.0.0.1:PORT/` on stdout.
pub fn serve(listener: TcpListener, opts: PreviewOptions) {
    let state = Arc::new(State {
        opts,
        cache: Mutex::new(None),
    });
    // Render once up front so errors show in the terminal straight away.
    let _ = state.current();
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let state = Arc::clone(&state);
        std::thread::spawn(move || handle(&state, stream));
    }
}

/// `labforge preview LAB [--port N] [--templates DIR]`.
pub fn preview(opts: PreviewOptions) -> ExitCode {
    if !opts.lab.is_file() {
        eprintln!("error: {}: no such lab file", opts.lab.display());
        return ExitCode::FAILURE;
    }
    let listener = match TcpListener::bind(("127.0.0.1", opts.port)) {
        Ok(l) => l,
        Err(e) => {
            eprintln!(
                "error: cannot listen on 127.0.0.1:{}: {e} (try another --port, or 0 for any free one)",
                opts.port
            );
            return ExitCode::FAILURE;
        }
    };
    let port = listener.local_addr().map(|a| a.port()).unwrap_or(opts.port);
    println!("preview: http://127.0.0.1:{port}/");
    eprintln!(
        "serving {} — the page reloads when the file changes; Ctrl-C stops",
        opts.lab.display()
    );
    let _ = std::io::stdout().flush();
    serve(listener, opts);
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csp_gets_self_for_scripts_and_fetch() {
        assert_eq!(
            loosen_policy("default-src 'none'; script-src 'sha256-abc'; style-src 'unsafe-inline'"),
            "default-src 'none'; script-src 'sha256-abc' 'self'; style-src 'unsafe-inline'; connect-src 'self'"
        );
        assert_eq!(
            loosen_policy("default-src 'self' data:; connect-src 'none'"),
            "default-src 'self' data:; connect-src 'self'; script-src 'self' data:"
        );
        assert_eq!(loosen_policy("img-src data:"), "img-src data:");
    }

    #[test]
    fn meta_is_rewritten_and_script_injected() {
        let page = "<html><head><META http-equiv=\"Content-Security-Policy\" \
content=\"default-src 'none'; script-src 'unsafe-inline'\"><meta charset=utf-8></head>\
<body><p>x</p></BODY></html>";
        let out = inject_reload(page, "v1");
        assert!(out.contains(
            "content=\"default-src 'none'; script-src 'unsafe-inline' 'self'; connect-src 'self'\""
        ), "{out}");
        assert!(out.contains(
            "<p>x</p><script src=\"/__reload.js\" data-version=\"v1\"></script>\n</BODY>"
        ));
        assert!(out.contains("<meta charset=utf-8>"));
    }

    #[test]
    fn escaped_policies_are_decoded_and_reescaped() {
        let page =
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src &#x27;none&#x27;; \
script-src &#x27;sha256-uA&#x2f;B=&#x27;; connect-src &#x27;none&#x27;\"><body></body>";
        let out = loosen_csp(page);
        assert_eq!(
            out,
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
script-src 'sha256-uA/B=' 'self'; connect-src 'self'\"><body></body>"
        );
        assert_eq!(
            decode_entities("a &amp; b &#39;c&#39; &bogus; &"),
            "a & b 'c' &bogus; &"
        );
        assert_eq!(encode_attr("'x' \"y\" &", '\''), "&#39;x&#39; \"y\" &amp;");
    }

    #[test]
    fn error_page_escapes() {
        let p = error_page("a<b", "s", "x: '<script>'", "v");
        assert!(p.contains("a&lt;b"));
        assert!(p.contains("x: &#39;&lt;script&gt;&#39;"));
        assert!(!p.contains("<script>'"));
    }

    #[test]
    fn decodes_percent_escapes() {
        assert_eq!(percent_decode("/a%20b.svg"), "/a b.svg");
        assert_eq!(percent_decode("/100%"), "/100%");
        assert_eq!(percent_decode("/%zz"), "/%zz");
    }
}
