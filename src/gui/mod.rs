//! `tetrad gui`: a web page for playing and analysing any game the engine plays, served on a
//! loopback address. The server knows no game: it starts an engine process per browser tab and
//! speaks the protocol to it (`list_games`, `board_layout`, `legal_moves_json`, `showboard svg`,
//! `genmove`, `analyze`), as any outside GUI would. The page talks to the server through a
//! small JSON API (docs/gui.md), never in protocol text.

mod api;
mod engine;
mod review;
mod tab;

use std::collections::HashMap;
use std::io::Read;
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tiny_http::{Header, Method, Request, Response, Server};

pub use api::Reply;
use tab::Tab;

/// Where to listen and which engine to start.
#[derive(Clone, Debug)]
pub struct Config {
    pub host: String,
    pub port: u16,
    /// The engine command, program first; empty: this binary.
    pub engine: Vec<String>,
    /// Most tabs (engine processes) at once.
    pub max_tabs: usize,
    /// A tab not heard from this long is closed with its engine.
    pub idle: Duration,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            host: "127.0.0.1".into(),
            port: 8080,
            engine: Vec::new(),
            max_tabs: 8,
            idle: Duration::from_secs(600),
        }
    }
}

/// Requests handled at once; more get 503 rather than a thread each.
const MAX_IN_FLIGHT: usize = 32;

/// The tabs open, by id.
pub struct Tabs {
    config: Config,
    engine: Vec<String>,
    open: Mutex<HashMap<String, Arc<Mutex<Tab>>>>,
}

impl Tabs {
    pub fn new(config: Config) -> anyhow::Result<Tabs> {
        let engine = if config.engine.is_empty() {
            let exe = std::env::current_exe()?;
            vec![
                exe.to_string_lossy().into_owned(),
                "--protocol".into(),
                "gtp".into(),
            ]
        } else {
            config.engine.clone()
        };
        Ok(Tabs {
            config,
            engine,
            open: Mutex::new(HashMap::new()),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Mutex<Tab>>>> {
        // A panic while holding the map leaves it whole (inserts and removes only).
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Closes the tabs idle for longer than the configured time.
    pub fn reap(&self) {
        let idle = self.config.idle;
        self.lock().retain(|_, tab| match tab.try_lock() {
            Ok(t) => t.last_used.elapsed() < idle,
            // Busy: in use right now.
            Err(_) => true,
        });
    }

    pub fn count(&self) -> usize {
        self.lock().len()
    }
}

/// True when `host` is a loopback address (or `localhost`).
pub fn is_loopback(host: &str) -> bool {
    host.eq_ignore_ascii_case("localhost")
        || host
            .trim_matches(['[', ']'])
            .parse::<IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// Serves until the process is ended.
pub fn run(config: Config) -> anyhow::Result<()> {
    if !is_loopback(&config.host) {
        eprintln!(
            "warning: serving on {}, not a loopback address: anyone who can reach it can start \
             engine processes on this machine",
            config.host
        );
    }
    let server = Server::http((config.host.as_str(), config.port))
        .map_err(|e| anyhow::anyhow!("cannot listen on {}:{}: {e}", config.host, config.port))?;
    let addr = server.server_addr().to_ip().map_or_else(
        || format!("{}:{}", config.host, config.port),
        |a| a.to_string(),
    );
    println!("tetrad gui: http://{addr}/");
    serve(server, Arc::new(Tabs::new(config)?));
    Ok(())
}

/// The request loop: a thread per request (bounded), and the idle tabs reaped between them.
pub fn serve(server: Server, tabs: Arc<Tabs>) {
    let reaper = Arc::clone(&tabs);
    std::thread::spawn(move || loop {
        std::thread::sleep(Duration::from_secs(5));
        reaper.reap();
    });
    let busy = Arc::new(AtomicUsize::new(0));
    for request in server.incoming_requests() {
        if busy.fetch_add(1, Ordering::SeqCst) >= MAX_IN_FLIGHT {
            busy.fetch_sub(1, Ordering::SeqCst);
            let _ = request.respond(to_response(Reply::error(503, "server busy, try again")));
            continue;
        }
        let (tabs, busy) = (Arc::clone(&tabs), Arc::clone(&busy));
        std::thread::spawn(move || {
            respond(&tabs, request);
            busy.fetch_sub(1, Ordering::SeqCst);
        });
    }
}

/// Largest request body read.
const MAX_BODY: usize = 64 * 1024;

fn respond(tabs: &Tabs, mut request: Request) {
    let method = match request.method() {
        Method::Get => "GET",
        Method::Post => "POST",
        _ => "OTHER",
    };
    let url = request.url().to_string();
    let mut body = Vec::new();
    let read = request
        .as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut body);
    let reply = if read.is_err() {
        Reply::error(400, "unreadable request body")
    } else if body.len() > MAX_BODY {
        Reply::error(413, "request body too large")
    } else {
        api::handle(tabs, method, &url, &body)
    };
    let _ = request.respond(to_response(reply));
}

fn to_response(reply: Reply) -> Response<std::io::Cursor<Vec<u8>>> {
    let mut response = Response::from_data(reply.body).with_status_code(reply.status);
    let headers = [
        ("Content-Type", reply.content_type),
        ("Cache-Control", "no-store"),
        ("X-Content-Type-Options", "nosniff"),
        (
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'",
        ),
    ];
    for (k, v) in headers {
        if let Ok(h) = Header::from_bytes(k.as_bytes(), v.as_bytes()) {
            response.add_header(h);
        }
    }
    response
}

#[cfg(test)]
mod tests;
