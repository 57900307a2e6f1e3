//! `eudify view --serve`: the live loop. The page `eudify view` writes is served from
//! 127.0.0.1 and built again whenever a file of the rule folder or an input changes; the page
//! learns of the new version by a long poll and reloads itself where it was scrolled, with a
//! banner of what changed ([`eudify::ViewChanges`]: edges gained and lost, ELAS before and after,
//! per rule). A build that fails (a rule with an error, an input with an error) keeps the last
//! good drawing and shows the diagnostic over it until a build succeeds again.
//!
//! Why these pieces: tiny_http is a small blocking HTTP/1.1 server (no async runtime for one
//! local user); a long poll is a plain GET answered when there is news, so it needs no
//! websocket or event-stream framing; notify watches the files (the events of an editor's save
//! gathered for a moment into one build). Only loopback is
//! bound, and only requests naming it in `Host` are answered (a page of another site that
//! rebinds its own name to 127.0.0.1 gets nothing); the only paths are the page, the live
//! status, and the files named on the command line: no path is ever looked up on disk.

use anyhow::{Context, Result};
use eudify::{View, ViewChanges};
use notify::event::{AccessKind, AccessMode, EventKind, ModifyKind};
use notify::{RecursiveMode, Watcher};
use serde_json::json;
use std::collections::BTreeMap;
use std::io::Write;
use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc, Condvar, Mutex};
use std::time::{Duration, Instant};
use tiny_http::{Header, Method, Request, Response, Server};

/// The port `--serve` listens on without `--port`.
pub const DEFAULT_PORT: u16 = 8040;

/// How long a long poll waits for a new version before it answers with the current one.
const POLL_WAIT: Duration = Duration::from_secs(20);

/// How long the watcher gathers events before a rebuild: an editor's save is a burst of
/// writes and renames.
const SETTLE: Duration = Duration::from_millis(60);

/// The start of the static page's content security policy, and the served page's, which
/// lets the live script ask its own server for news.
const CLOSED_POLICY: &str = "default-src 'none';";
const LIVE_POLICY: &str = "default-src 'none'; connect-src 'self';";

/// What the server watches and serves.
pub struct Site {
    /// The port to listen on (0: a free one).
    pub port: u16,
    /// The rule folder, watched with everything below it.
    pub rules: Option<PathBuf>,
    /// The input files (FILE, GOLD): watched, and served at `/files/NAME`.
    pub inputs: Vec<PathBuf>,
}

/// Builds the view again from the files as they are now.
pub type Build = dyn FnMut() -> Result<View> + Send;

/// Serves the page of `build` until the process is ended.
pub fn serve(site: Site, mut build: Box<Build>) -> Result<u8> {
    let address = SocketAddr::from((Ipv4Addr::LOCALHOST, site.port));
    let server = Server::http(address)
        .map_err(|e| anyhow::anyhow!("{e}"))
        .with_context(|| format!("cannot listen on {address}"))?;
    let port = server
        .server_addr()
        .to_ip()
        .context("the server has no IP address")?
        .port();
    let live = Arc::new(Live::default());
    live.rebuild(&mut build);
    let files = served_files(&site.inputs);
    // The watcher lives as long as this function: dropping it stops it.
    let (sender, events) = mpsc::channel();
    let mut watcher = notify::recommended_watcher(sender).context("cannot watch the files")?;
    for (path, mode) in watch_list(&site)? {
        watcher
            .watch(&path, mode)
            .with_context(|| format!("{}: cannot watch", path.display()))?;
    }
    let relevant = Relevant::new(&site)?;
    {
        let live = Arc::clone(&live);
        std::thread::spawn(move || {
            while let Ok(first) = events.recv() {
                let mut touched = relevant.changed_by(first);
                // An editor's save is a burst of writes and renames: one build for all of it.
                let settled = Instant::now() + SETTLE;
                while let Ok(next) =
                    events.recv_timeout(settled.saturating_duration_since(Instant::now()))
                {
                    touched |= relevant.changed_by(next);
                }
                if touched {
                    live.rebuild(&mut build);
                }
            }
        });
    }
    let origin = format!("http://127.0.0.1:{port}/");
    println!("eudify: serving {origin} (Ctrl-C stops)");
    std::io::stdout().flush()?;
    let hosts = [format!("127.0.0.1:{port}"), format!("localhost:{port}")];
    let files = Arc::new(files);
    for request in server.incoming_requests() {
        let (live, files, hosts) = (Arc::clone(&live), Arc::clone(&files), hosts.clone());
        // A long poll holds its request for seconds: each request gets its own thread.
        std::thread::spawn(move || {
            let answer = route(&request, &live, &files, &hosts);
            // The browser may have gone away (a reload cancels its long poll): nothing to do.
            let _ = request.respond(answer);
        });
    }
    drop(watcher);
    Ok(super::EXIT_SUCCESS)
}

/// The paths to watch: the rule folder recursively, and the folder of each input (an editor
/// saves by writing a new file and renaming it over the old one, which ends a watch on the
/// file itself).
fn watch_list(site: &Site) -> Result<Vec<(PathBuf, RecursiveMode)>> {
    let mut list = Vec::new();
    if let Some(rules) = &site.rules {
        list.push((canonical(rules)?, RecursiveMode::Recursive));
    }
    for input in &site.inputs {
        let folder = canonical(input)?
            .parent()
            .map(Path::to_path_buf)
            .context("an input file has no folder")?;
        if !list.iter().any(|(p, _)| *p == folder) {
            list.push((folder, RecursiveMode::NonRecursive));
        }
    }
    Ok(list)
}

fn canonical(path: &Path) -> Result<PathBuf> {
    path.canonicalize()
        .with_context(|| format!("{}: cannot read", path.display()))
}

/// Which changed paths call for a rebuild: anything under the rule folder, and the inputs.
struct Relevant {
    rules: Option<PathBuf>,
    inputs: Vec<PathBuf>,
}

impl Relevant {
    fn new(site: &Site) -> Result<Relevant> {
        Ok(Relevant {
            rules: site.rules.as_deref().map(canonical).transpose()?,
            inputs: site
                .inputs
                .iter()
                .map(|p| canonical(p))
                .collect::<Result<_>>()?,
        })
    }

    /// Whether `event` changed a file that the page is built from. Opening and reading a
    /// file is an event too (the build itself reads them all), and so is a change of its
    /// times alone: neither calls for a build.
    fn changed_by(&self, event: notify::Result<notify::Event>) -> bool {
        let event = match event {
            Ok(event) => event,
            Err(error) => {
                eprintln!("eudify: watching the files: {error}");
                return false;
            }
        };
        let changes = match event.kind {
            EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
            EventKind::Access(_) | EventKind::Modify(ModifyKind::Metadata(_)) => false,
            _ => true,
        };
        changes
            && event.paths.iter().any(|path| {
                self.rules.as_ref().is_some_and(|r| path.starts_with(r))
                    || self.inputs.iter().any(|i| i == path)
            })
    }
}

/// Each input under the name it is served at: its file name (`/files/dev.conllu`), with a
/// number added when two inputs share one.
fn served_files(inputs: &[PathBuf]) -> BTreeMap<String, PathBuf> {
    let mut files = BTreeMap::new();
    for (i, path) in inputs.iter().enumerate() {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| format!("input-{}", i + 1));
        let name = match files.contains_key(&name) {
            true => format!("{}-{name}", i + 1),
            false => name,
        };
        files.insert(name, path.clone());
    }
    files
}

/// The versions the server has built, and what the page is told of them.
#[derive(Default)]
struct Live {
    state: Mutex<State>,
    /// Woken at each new version: the long polls wait on it.
    news: Condvar,
}

#[derive(Default)]
struct State {
    /// Counts every change the page is told of: a new page or a new error.
    version: u64,
    /// The version whose build made `page`.
    page_version: u64,
    /// The last view built and its page, with the live script.
    good: Option<(View, String)>,
    /// Why the last build failed (caret diagnostics, or `FILE:LINE: message`).
    error: Option<String>,
    /// What changed from the good version before `good` to `good`.
    changes: Option<ViewChanges>,
    /// How long the build of `page` took.
    build_ms: u64,
}

impl State {
    /// The status the page reads: what it shows besides the drawing.
    fn status(&self) -> serde_json::Value {
        json!({
            "version": self.version,
            "page_version": self.page_version,
            "error": self.error,
            "changes": self.changes,
            "build_ms": self.build_ms,
        })
    }
}

impl Live {
    /// Builds the view again; a new page or a new error is a new version, and the waiting
    /// long polls are answered.
    fn rebuild(&self, build: &mut Box<Build>) {
        let start = Instant::now();
        let built = build().map(|view| {
            let page = view.page_html();
            (view, page)
        });
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        match built {
            Ok((view, page)) => {
                let unchanged = state.good.as_ref().is_some_and(|(_, old)| *old == page);
                if !unchanged {
                    state.changes = state
                        .good
                        .as_ref()
                        .map(|(old, _)| ViewChanges::between(old, &view));
                    // From the files as saved to the page and its changes, ready to serve.
                    state.build_ms = start.elapsed().as_millis() as u64;
                }
                eprintln!(
                    "eudify: built {} sentences in {} ms{}",
                    view.sentences.len(),
                    start.elapsed().as_millis(),
                    if unchanged { " (no change)" } else { "" }
                );
                if unchanged && state.error.is_none() {
                    return;
                }
                state.version += 1;
                state.error = None;
                if !unchanged {
                    state.page_version = state.version;
                    state.good = Some((view, page));
                }
            }
            Err(error) => {
                let message = super::message(&error);
                eprintln!("{message}");
                if state.error.as_ref() == Some(&message) {
                    return;
                }
                state.version += 1;
                state.error = Some(message);
            }
        }
        self.news.notify_all();
    }

    /// The status once its version is past `after`, or after [`POLL_WAIT`] as it is.
    fn wait_past(&self, after: u64) -> serde_json::Value {
        let state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let (state, _) = self
            .news
            .wait_timeout_while(state, POLL_WAIT, |s| s.version <= after)
            .unwrap_or_else(|e| e.into_inner());
        state.status()
    }

    /// The page with the live script and its status, or a page of the error alone while no
    /// build has succeeded.
    fn page(&self) -> String {
        let state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let script = live_script(&state.status());
        match &state.good {
            Some((_, page)) => {
                // The page's own policy lets it fetch nothing; the live script asks this server.
                let page = page.replacen(CLOSED_POLICY, LIVE_POLICY, 1);
                match page.rfind("</body>") {
                    Some(end) => format!("{}{script}{}", &page[..end], &page[end..]),
                    None => format!("{page}{script}"),
                }
            }
            None => format!(
                "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>eudify view</title></head><body>{script}</body></html>\n"
            ),
        }
    }
}

/// The script and style that keep the page live, with the status it was served with.
fn live_script(status: &serde_json::Value) -> String {
    // `<` escaped so no text of the status can close the script element.
    let status = status.to_string().replace('<', "\\u003c");
    format!(
        "<style>{}</style><script type=\"application/json\" id=\"eudify-live-status\">{status}</script><script>{}</script>",
        include_str!("serve/live.css"),
        include_str!("serve/live.js")
    )
}

/// The answer to one request.
fn route(
    request: &Request,
    live: &Live,
    files: &BTreeMap<String, PathBuf>,
    hosts: &[String],
) -> tiny_http::ResponseBox {
    let host = request
        .headers()
        .iter()
        .find(|h| h.field.equiv("Host"))
        .map(|h| h.value.as_str());
    if !host.is_some_and(|h| hosts.iter().any(|allowed| allowed == h)) {
        return text(
            403,
            "eudify serves only its own address (Host: 127.0.0.1:PORT)\n",
        );
    }
    if !matches!(request.method(), Method::Get | Method::Head) {
        return text(405, "only GET\n");
    }
    let (path, query) = request.url().split_once('?').unwrap_or((request.url(), ""));
    match path {
        "/" => with_type(
            Response::from_string(live.page()),
            "text/html; charset=utf-8",
        ),
        "/live/status" => {
            let status = live
                .state
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .status();
            json_response(&status)
        }
        "/live/wait" => {
            let after = query
                .split('&')
                .find_map(|pair| pair.strip_prefix("after="))
                .and_then(|n| n.parse().ok())
                .unwrap_or(0);
            json_response(&live.wait_past(after))
        }
        _ => match path
            .strip_prefix("/files/")
            .and_then(|name| files.get(name))
        {
            Some(file) => match std::fs::File::open(file) {
                Ok(file) => with_type(Response::from_file(file), "text/plain; charset=utf-8"),
                Err(error) => text(500, &format!("{}: {error}\n", file.display())),
            },
            None => text(404, "not found\n"),
        },
    }
}

fn text(code: u16, body: &str) -> tiny_http::ResponseBox {
    with_type(
        Response::from_string(body).with_status_code(code),
        "text/plain; charset=utf-8",
    )
}

fn json_response(value: &serde_json::Value) -> tiny_http::ResponseBox {
    with_type(Response::from_string(value.to_string()), "application/json")
}

fn with_type<R: std::io::Read + Send + 'static>(
    response: Response<R>,
    content_type: &str,
) -> tiny_http::ResponseBox {
    let header = |name: &str, value: &str| {
        Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("a valid header")
    };
    response
        .with_header(header("Content-Type", content_type))
        // Every answer is of the moment: a cached page would hide the next version.
        .with_header(header("Cache-Control", "no-store"))
        .with_header(header("X-Content-Type-Options", "nosniff"))
        .boxed()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_are_served_by_file_name_and_two_of_one_name_stay_apart() {
        let files = served_files(&["a/dev.conllu".into(), "b/dev.conllu".into()]);
        let names: Vec<&str> = files.keys().map(String::as_str).collect();
        assert_eq!(names, ["2-dev.conllu", "dev.conllu"]);
        assert_eq!(files["dev.conllu"], PathBuf::from("a/dev.conllu"));
    }

    #[test]
    fn the_status_cannot_close_its_script_element() {
        let script = live_script(&json!({"error": "</script><script>alert(1)</script>"}));
        assert_eq!(script.matches("</script>").count(), 2, "{script}");
    }
}
