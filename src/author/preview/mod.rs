//! `labforge preview LAB`: serves the lab's HTML page on 127.0.0.1 and reloads it on every save.
//!
//! The page is rendered again when the lab's *version* changes: a hash of the lab file's bytes
//! (and of the `--templates` directory's files), also served at `/__version`. The server
//! ([`server`], hyper on a one-thread tokio runtime) watches the files with `notify` and pushes
//! each new version to the page as a Server-Sent Event on `/__events`; the page never polls.
//! The served page gets one extra inline element, `<script data-version="V">` ([`RELOAD_JS`]),
//! which listens to `/__events` and reloads the page when the version differs from `V`. When
//! the lab has errors (or the renderer fails) the page is a diagnostics page: every message as
//! the one printer writes it ([`crate::cmd::rendered`]: located, in the lab, a course module or
//! an instructor's template, with its own source line, caret and hint), HTML-escaped, with the
//! same reload script, so fixing the file brings the lab back without touching the browser.
//!
//! The rendered page is meant to be opened from disk and may carry a strict
//! Content-Security-Policy `<meta>`. Only in preview, that policy is rewritten so the reload
//! script can run: its `'sha256-…'` hash is added to `script-src` and `'self'` to `connect-src`
//! (each created from `default-src` when the page does not set it), leaving every other
//! directive as it was. Files written by `labforge render` never contain the script or the
//! loosened policy.

use crate::diag::Diagnostic;
use crate::render::{OutFile, RenderOptions};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::io::Write;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Instant;

pub mod server;

/// Options of `labforge preview`.
#[derive(Debug, Clone, Default)]
pub struct PreviewOptions {
    pub lab: PathBuf,
    /// Port on 127.0.0.1; 0 picks a free one (printed on stdout).
    pub port: u16,
    /// Template overrides, as for `labforge render --templates`.
    pub templates: Option<PathBuf>,
    /// For a lab with tracks: the track shown (default: the default track).
    pub track: Option<String>,
}

/// The reload script, inlined in the page (and allowed there by its hash): listens to the
/// server's events and reloads when the lab's version is no longer the page's.
pub const RELOAD_JS: &str = r#"(function () {
  var me = document.currentScript;
  var version = me && me.getAttribute("data-version");
  var events = new EventSource("/__events");
  events.onmessage = function (e) {
    if (e.data !== version) { events.close(); location.reload(); }
  };
})();"#;

/// The CSP source that allows [`RELOAD_JS`].
pub fn reload_hash() -> String {
    format!(
        "'sha256-{}'",
        crate::render::html::sha256_base64(RELOAD_JS.as_bytes())
    )
}

/// What the server shows for one version of the lab.
#[derive(Clone)]
pub(crate) enum Page {
    /// The renderer's files; `main` indexes the HTML page.
    Rendered { files: Vec<OutFile>, main: usize },
    /// A diagnostics page (complete HTML).
    Errors(String),
}

pub(crate) struct State {
    opts: PreviewOptions,
    cache: Mutex<Option<(String, Page)>>,
}

/// A hash of the lab file's bytes and the template directory's files. The templates are read
/// as the renderer reads them ([`crate::safe_fs::read_inside`]: inside the folder, regular
/// files, bounded), and folders are walked without following links, so a link loop or a
/// `style.css` pointing at `/dev/zero` cannot hang the preview.
pub fn version(lab: &Path, templates: Option<&Path>) -> String {
    let mut h = DefaultHasher::new();
    match crate::files::read(lab) {
        Ok(b) => b.hash(&mut h),
        Err(e) => e.kind().to_string().hash(&mut h),
    }
    if let Some(dir) = templates {
        for f in crate::files::files_under(dir) {
            f.hash(&mut h);
            let name = f.to_string_lossy();
            match crate::safe_fs::read_inside(dir, &name, crate::safe_fs::MAX_TEMPLATE_BYTES) {
                Ok(b) => b.hash(&mut h),
                Err(e) => e.hash(&mut h),
            }
        }
    }
    format!("{:016x}", h.finish())
}

pub use crate::render::escape;

fn reload_tag(version: &str) -> String {
    format!(
        "<script data-version=\"{}\">{RELOAD_JS}</script>",
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

/// Rewrites the page's Content-Security-Policy `<meta>` (if any) so that the reload script may
/// run and listen to `'self'`, and inserts the reload script before `</body>`.
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

/// Loosens every CSP `<meta>` in the page as [`loosen_policy`] does.
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

/// One policy with the reload script's hash added to `script-src` and `'self'` to
/// `connect-src` (each created from `default-src` when absent; left absent when nothing restricts
/// it). A `script-src` that allows every inline script (`'unsafe-inline'` without hashes or
/// nonces) gets no hash: a hash would turn its `'unsafe-inline'` off.
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
    let hash = reload_hash();
    for (name, add) in [("script-src", hash.as_str()), ("connect-src", "'self'")] {
        let sources = match dirs.iter_mut().position(|(n, _)| n == name) {
            Some(i) => &mut dirs[i].1,
            // Without a default-src nothing restricts this directive: leave it absent.
            None => match &default {
                Some(d) => {
                    dirs.push((name.to_string(), d.clone()));
                    &mut dirs.last_mut().expect("just pushed").1
                }
                None => continue,
            },
        };
        sources.retain(|s| s != "'none'");
        let lower: Vec<String> = sources.iter().map(|s| s.to_ascii_lowercase()).collect();
        let all_inline = lower.iter().any(|s| s == "'unsafe-inline'")
            && !lower
                .iter()
                .any(|s| s.starts_with("'sha") || s.starts_with("'nonce-"));
        let skip = name == "script-src" && all_inline;
        if !skip && !sources.iter().any(|s| s == add) {
            sources.push(add.to_string());
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
    let (src, diags, lab) = crate::lab::diagnose(&opts.lab);
    let errors: Vec<&Diagnostic> = diags.iter().filter(|d| d.is_error()).collect();
    let page_text = |d: &[Diagnostic]| -> String {
        d.iter()
            .map(|d| crate::cmd::rendered(d, src.as_ref()))
            .collect()
    };
    let lab = match lab {
        Some(l) if errors.is_empty() => l,
        _ => {
            let body = page_text(&diags);
            let n = errors.len().max(1);
            let warnings = diags.len().saturating_sub(errors.len());
            crate::cmd::report(&diags, src.as_ref());
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
    let lab = match opts.track.as_deref().filter(|_| !lab.tracks.is_empty()) {
        None => lab,
        Some(t) => match lab.on_track(t) {
            Ok(l) => l,
            Err(d) => {
                let body = page_text(&d);
                crate::cmd::report(&d, src.as_ref());
                return Page::Errors(error_page(
                    &format!("{name} has errors on track {t}"),
                    "Fix the file and save: this page reloads.",
                    &body,
                    version,
                ));
            }
        },
    };
    let stem = opts
        .lab
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("lab")
        .to_string();
    // One page is served: no links to other tracks' pages, which the server does not have.
    let ropts = RenderOptions {
        answer_key: false,
        templates: opts
            .templates
            .clone()
            .map(crate::safe_fs::template_overrides),
        one_track: true,
        ..RenderOptions::default()
    };
    // Warnings do not stop the page; they go to the terminal, as `check` prints them.
    crate::cmd::report(&diags, src.as_ref());
    let start = Instant::now();
    let rendered = crate::render::renderer("html")
        .ok_or_else(|| Diagnostic::from("no html renderer"))
        .and_then(|r| r.render(&lab, &stem, &ropts))
        .map_err(|d| d.in_file(&lab.source.name));
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
        // Located (in the lab, or in an instructor's template) and printed as the printer
        // prints it, on the terminal and on the page.
        Err(d) => {
            crate::cmd::report(std::slice::from_ref(&d), src.as_ref());
            eprintln!("preview: {name}: rendering failed");
            let mut body = page_text(std::slice::from_ref(&d));
            body.push_str(&page_text(&diags));
            Page::Errors(error_page(
                &format!("{title}: rendering failed"),
                &format!("{name} has no errors, but the HTML renderer failed."),
                &body,
                version,
            ))
        }
    }
}

impl State {
    pub(crate) fn new(opts: PreviewOptions) -> State {
        State {
            opts,
            cache: Mutex::new(None),
        }
    }

    /// The lab's current version.
    pub(crate) fn version(&self) -> String {
        version(&self.opts.lab, self.opts.templates.as_deref())
    }

    /// The version and the page for it, rendered when the version changed.
    pub(crate) fn current(&self) -> (String, Page) {
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

/// `labforge preview LAB [--port N] [--templates DIR]`.
pub fn preview(opts: PreviewOptions) -> ExitCode {
    if !crate::files::is_file(&opts.lab) {
        crate::cmd::error(format_args!("{}: no such lab file", opts.lab.display()));
        return ExitCode::FAILURE;
    }
    let listener = match TcpListener::bind(("127.0.0.1", opts.port)) {
        Ok(l) => l,
        Err(e) => {
            crate::cmd::error(format_args!(
                "cannot listen on 127.0.0.1:{}: {e} (try another --port, or 0 for any free one)",
                opts.port
            ));
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
    match server::serve(listener, opts) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            crate::cmd::error(format_args!("preview server: {e}"));
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csp_gets_the_script_hash_and_self_for_events() {
        let h = reload_hash();
        assert_eq!(
            loosen_policy("default-src 'none'; script-src 'sha256-abc'; style-src 'unsafe-inline'"),
            format!("default-src 'none'; script-src 'sha256-abc' {h}; style-src 'unsafe-inline'; connect-src 'self'")
        );
        assert_eq!(
            loosen_policy("default-src 'self' data:; connect-src 'none'"),
            format!("default-src 'self' data:; connect-src 'self'; script-src 'self' data: {h}")
        );
        assert_eq!(
            loosen_policy("default-src 'none'; script-src 'none'"),
            format!("default-src 'none'; script-src {h}; connect-src 'self'")
        );
        // All inline scripts allowed already: a hash would disallow the page's own.
        assert_eq!(
            loosen_policy("script-src 'unsafe-inline'; connect-src 'none'"),
            "script-src 'unsafe-inline'; connect-src 'self'"
        );
        assert_eq!(loosen_policy("img-src data:"), "img-src data:");
    }

    #[test]
    fn meta_is_rewritten_and_script_injected() {
        let page = "<html><head><META http-equiv=\"Content-Security-Policy\" \
content=\"default-src 'none'; script-src 'sha256-x'\"><meta charset=utf-8></head>\
<body><p>x</p></BODY></html>";
        let out = inject_reload(page, "v1");
        let h = reload_hash();
        assert!(
            out.contains(&format!(
                "content=\"default-src 'none'; script-src 'sha256-x' {h}; connect-src 'self'\""
            )),
            "{out}"
        );
        assert!(out.contains(&format!(
            "<p>x</p><script data-version=\"v1\">{RELOAD_JS}</script>\n</BODY>"
        )));
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
            format!(
                "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
script-src 'sha256-uA/B=' {}; connect-src 'self'\"><body></body>",
                reload_hash()
            )
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
}
