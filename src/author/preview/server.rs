//! The preview's HTTP server: hyper (HTTP/1.1) on a one-thread tokio runtime, so a connection is
//! a task, not a thread. Connections are capped ([`MAX_CONNECTIONS`]; more wait in the listen
//! queue), a request head must arrive within [`HEADER_TIMEOUT`] and fit in [`MAX_HEAD`] bytes,
//! a request whose `Host` is not this server's loopback address is refused (a DNS-rebinding
//! defence), and hyper answers a malformed request line (invalid UTF-8 included) with 400.
//! Rendering runs on tokio's blocking pool (at most 2 threads). `notify` watches the lab and the
//! templates; every new version goes to the open pages as a Server-Sent Event on `/__events`.
//! At most [`MAX_EVENT_STREAMS`] streams are open at once: a new one closes the oldest (and its
//! connection), so streams never take more than that many of the connection slots and pages
//! are always answered.

use super::{inject_reload, Page, PreviewOptions, State};
use http_body_util::{channel::Channel, Either, Full};
use hyper::body::{Bytes, Incoming};
use hyper::header::{
    HeaderValue, ALLOW, CACHE_CONTROL, CONNECTION, CONTENT_LENGTH, CONTENT_TYPE, HOST,
};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{oneshot, watch, Semaphore};

/// Connections served at once; more wait (in the kernel's listen queue) for a free slot.
pub const MAX_CONNECTIONS: usize = 64;
/// Time a client has to send a request's head.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(5);
/// The largest request head read (request line and headers); more is answered with a 4xx.
pub const MAX_HEAD: usize = 64 * 1024;
/// An idle event stream gets a comment this often, so a closed tab frees its slot.
const KEEPALIVE: Duration = Duration::from_secs(15);
/// Event streams open at once; a new one beyond this closes the oldest. The other
/// `MAX_CONNECTIONS - MAX_EVENT_STREAMS` slots are left to page and file requests.
pub const MAX_EVENT_STREAMS: usize = 16;

/// The open event streams, oldest first: an id and the sender whose drop closes the stream.
type Streams = std::sync::Mutex<std::collections::VecDeque<(u64, oneshot::Sender<()>)>>;

type Body = Either<Full<Bytes>, Channel<Bytes>>;

struct Server {
    state: Arc<State>,
    versions: Arc<watch::Sender<String>>,
    hosts: [String; 3],
    streams: Arc<Streams>,
    next_stream: std::sync::atomic::AtomicU64,
}

/// Serves until the process is stopped.
pub fn serve(listener: std::net::TcpListener, opts: PreviewOptions) -> std::io::Result<()> {
    let port = listener.local_addr()?.port();
    listener.set_nonblocking(true)?;
    let state = Arc::new(State::new(opts));
    // Render once up front so errors show in the terminal straight away.
    let (v, _) = state.current();
    let versions = Arc::new(watch::channel(v).0);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .max_blocking_threads(2)
        .build()?;
    let _watcher = match watch_files(&state, &versions) {
        Ok(w) => Some(w),
        Err(e) => {
            // Without file events, a check a second on the server keeps the pages current.
            eprintln!("preview: cannot watch the files ({e}); checking them every second");
            rt.spawn(check_every_second(state.clone(), versions.clone()));
            None
        }
    };
    let server = Arc::new(Server {
        state,
        versions,
        hosts: [
            format!("127.0.0.1:{port}"),
            format!("localhost:{port}"),
            format!("[::1]:{port}"),
        ],
        streams: Arc::default(),
        next_stream: Default::default(),
    });
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener)?;
        let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
        loop {
            let Ok(slot) = slots.clone().acquire_owned().await else {
                return Ok(());
            };
            let stream = match listener.accept().await {
                Ok((s, _)) => s,
                Err(_) => {
                    // Out of descriptors and the like: let the others finish first.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            };
            let server = server.clone();
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |req| {
                    let server = server.clone();
                    async move { Ok::<_, std::convert::Infallible>(server.handle(req).await) }
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .timer(TokioTimer::new())
                    .header_read_timeout(HEADER_TIMEOUT)
                    .max_buf_size(MAX_HEAD)
                    .title_case_headers(true)
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
                drop(slot);
            });
        }
    })
}

/// How long a changed file must stay quiet before its new version is rendered and pushed.
const SETTLE: Duration = Duration::from_millis(60);

/// How long an emptied lab file may wait for the write that follows its truncation.
const MID_SAVE: Duration = Duration::from_secs(2);

/// Is the file there and empty (a save in place between its truncation and its write)?
fn is_empty(path: &Path) -> bool {
    crate::files::stamp(path).is_some_and(|(len, _)| len == 0)
}

/// Watches the lab's folder (editors save by renaming over the file) and the templates; on a
/// change renders the new version, then tells the pages.
fn watch_files(
    state: &Arc<State>,
    versions: &Arc<watch::Sender<String>>,
) -> notify::Result<notify::RecommendedWatcher> {
    use notify::{RecursiveMode, Watcher};
    let lab = &state.opts.lab;
    let dir = lab
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let dir = crate::files::canonical(dir)?;
    let name = lab.file_name().map(|n| n.to_os_string());
    let templates: Option<PathBuf> = match &state.opts.templates {
        Some(t) => Some(crate::files::canonical(t)?),
        None => None,
    };
    let (st, tx) = (state.clone(), versions.clone());
    let tpl = templates.clone();
    let lab_dir = dir.clone();
    // A save is often several events (truncate, write, rename): the version is rendered once
    // the file has been quiet for SETTLE, so a half-written file is never pushed to the pages.
    // A save in place truncates the file before writing it: an empty file is never a lab, so
    // it waits (up to MID_SAVE) for the write rather than pushing "unexpected end of input"
    // and then the lab, two reloads for one save (seen on a loaded machine).
    let (changed, settle) = std::sync::mpsc::channel::<()>();
    std::thread::spawn(move || {
        while settle.recv().is_ok() {
            loop {
                while settle.recv_timeout(SETTLE).is_ok() {}
                if !is_empty(&st.opts.lab) || settle.recv_timeout(MID_SAVE).is_err() {
                    break;
                }
            }
            publish(&st, &tx);
        }
    });
    let mut w = notify::recommended_watcher(move |ev: notify::Result<notify::Event>| {
        let Ok(ev) = ev else { return };
        let ours = ev.paths.iter().any(|p| {
            (p.parent() == Some(lab_dir.as_path()) && p.file_name() == name.as_deref())
                || tpl.as_ref().is_some_and(|t| p.starts_with(t))
        });
        if ours {
            let _ = changed.send(());
        }
    })?;
    w.watch(&dir, RecursiveMode::NonRecursive)?;
    if let Some(t) = &templates {
        w.watch(t, RecursiveMode::Recursive)?;
    }
    Ok(w)
}

/// Renders the current version (so the reload finds it ready) and announces it if it is new.
fn publish(state: &State, versions: &watch::Sender<String>) {
    let (v, _) = state.current();
    versions.send_if_modified(|old| {
        let new = *old != v;
        if new {
            *old = v;
        }
        new
    });
}

async fn check_every_second(state: Arc<State>, versions: Arc<watch::Sender<String>>) {
    loop {
        tokio::time::sleep(Duration::from_secs(1)).await;
        // A file written a moment ago may be half written: the watcher publishes it once it
        // has settled.
        let fresh = crate::files::stamp(&state.opts.lab)
            .and_then(|(_, t)| t.elapsed().ok())
            .is_some_and(|age| age < SETTLE * 2 || (age < MID_SAVE && is_empty(&state.opts.lab)));
        if fresh {
            continue;
        }
        let (st, tx) = (state.clone(), versions.clone());
        let _ = tokio::task::spawn_blocking(move || publish(&st, &tx)).await;
    }
}

fn plain(status: StatusCode, text: &'static str) -> Response<Body> {
    full(
        status,
        "text/plain; charset=utf-8",
        Bytes::from_static(text.as_bytes()),
    )
}

fn full(status: StatusCode, ctype: &'static str, body: Bytes) -> Response<Body> {
    let mut r = Response::new(Either::Left(Full::new(body.clone())));
    *r.status_mut() = status;
    let h = r.headers_mut();
    h.insert(CONTENT_TYPE, HeaderValue::from_static(ctype));
    h.insert(CONTENT_LENGTH, HeaderValue::from(body.len()));
    h.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
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

/// One Server-Sent Event carrying a version.
fn event(version: &str) -> Bytes {
    Bytes::from(format!("data: {version}\n\n"))
}

impl Server {
    /// Is the request addressed to this server by its loopback name? (`Host`, and the authority
    /// of an absolute-form target when there is one.)
    fn host_ok(&self, req: &Request<Incoming>) -> bool {
        let ok = |h: &str| self.hosts.iter().any(|a| a.eq_ignore_ascii_case(h));
        let host = req.headers().get(HOST).and_then(|h| h.to_str().ok());
        host.is_some_and(ok) && req.uri().authority().is_none_or(|a| ok(a.as_str()))
    }

    async fn handle(&self, req: Request<Incoming>) -> Response<Body> {
        if !self.host_ok(&req) {
            return plain(
                StatusCode::FORBIDDEN,
                "preview answers requests for 127.0.0.1, localhost or [::1] at its port only\n",
            );
        }
        if req.method() != Method::GET && req.method() != Method::HEAD {
            let mut r = plain(StatusCode::METHOD_NOT_ALLOWED, "only GET and HEAD\n");
            r.headers_mut()
                .insert(ALLOW, HeaderValue::from_static("GET, HEAD"));
            return r;
        }
        let path = percent_encoding::percent_decode_str(req.uri().path())
            .decode_utf8_lossy()
            .into_owned();
        match path.as_str() {
            "/__version" => full(
                StatusCode::OK,
                "text/plain; charset=utf-8",
                Bytes::from(self.state.version()),
            ),
            "/__events" => self.events(),
            // Browsers ask for it; the page has none.
            "/favicon.ico" => full(StatusCode::NO_CONTENT, "image/x-icon", Bytes::new()),
            _ => self.file(path.trim_start_matches('/')).await,
        }
    }

    /// The event stream: the current version at once, then each new one. It is registered
    /// among the open streams; beyond [`MAX_EVENT_STREAMS`] the oldest is closed, its
    /// connection with it (`Connection: close`), and a closed stream unregisters itself.
    fn events(&self) -> Response<Body> {
        let (mut tx, body) = Channel::<Bytes>::new(4);
        let mut rx = self.versions.subscribe();
        let first = self.state.version();
        let id = self
            .next_stream
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let (close, mut closed) = oneshot::channel::<()>();
        {
            let mut open = self.streams.lock().unwrap_or_else(|e| e.into_inner());
            open.push_back((id, close));
            while open.len() > MAX_EVENT_STREAMS {
                // Dropping its sender ends that stream's task, so its body and connection end.
                open.pop_front();
            }
        }
        let streams = self.streams.clone();
        tokio::spawn(async move {
            // A server restarted under the page: reconnect after a second, not three.
            let hello = Bytes::from(format!("retry: 1000\ndata: {first}\n\n"));
            // The channel is empty: the current version goes out even to a stream closed at once.
            let mut sent = tx.send_data(hello).await;
            // Closing is watched while sending too: a client that stops reading is still closed.
            while sent.is_ok() {
                let data = tokio::select! {
                    _ = &mut closed => break,
                    changed = rx.changed() => match changed {
                        Ok(()) => event(&rx.borrow_and_update().clone()),
                        Err(_) => break,
                    },
                    _ = tokio::time::sleep(KEEPALIVE) => Bytes::from_static(b": keep-alive\n\n"),
                };
                sent = tokio::select! {
                    _ = &mut closed => break,
                    sent = tx.send_data(data) => sent,
                };
            }
            let mut open = streams.lock().unwrap_or_else(|e| e.into_inner());
            open.retain(|(i, _)| *i != id);
        });
        let mut r = Response::new(Either::Right(body));
        let h = r.headers_mut();
        h.insert(CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
        h.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
        // A stream closed as the oldest takes its connection (and slot) with it.
        h.insert(CONNECTION, HeaderValue::from_static("close"));
        r
    }

    /// The page (with the reload script) or another rendered file, or the diagnostics page.
    async fn file(&self, rel: &str) -> Response<Body> {
        let state = self.state.clone();
        let Ok((v, page)) = tokio::task::spawn_blocking(move || state.current()).await else {
            return plain(StatusCode::INTERNAL_SERVER_ERROR, "rendering failed\n");
        };
        let html = "text/html; charset=utf-8";
        match page {
            Page::Errors(body) if rel.is_empty() || rel.ends_with(".html") => {
                full(StatusCode::OK, html, Bytes::from(body))
            }
            Page::Errors(_) => plain(StatusCode::NOT_FOUND, "not found\n"),
            Page::Rendered { files, main } => {
                let idx = if rel.is_empty() || rel == "index.html" {
                    Some(main)
                } else {
                    files.iter().position(|f| f.path == Path::new(rel))
                };
                match idx {
                    Some(i) if i == main => {
                        let page = String::from_utf8_lossy(&files[i].bytes);
                        full(StatusCode::OK, html, Bytes::from(inject_reload(&page, &v)))
                    }
                    Some(i) => {
                        let p = files[i].path.to_string_lossy().into_owned();
                        full(
                            StatusCode::OK,
                            content_type(&p),
                            Bytes::from(files[i].bytes.clone()),
                        )
                    }
                    None => plain(StatusCode::NOT_FOUND, "not found\n"),
                }
            }
        }
    }
}
