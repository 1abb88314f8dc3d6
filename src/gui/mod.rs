//! `tetrad gui`: a web page for playing and analysing any game the engine plays, served on a
//! loopback address. The server knows no game: it starts an engine process per browser tab and
//! speaks the protocol to it (`list_games`, `board_layout`, `legal_moves_json`, `showboard svg`,
//! `genmove`, `analyze`), as any outside GUI would. The page talks to the server through a
//! small JSON API (docs/gui.md), never in protocol text.

mod api;
mod engine;
pub mod http;
mod options;
mod tab;

use std::collections::HashMap;
use std::net::{IpAddr, TcpListener};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

pub use api::Reply;
use engine::Control;
use http::{Request, Response, Slots};
use options::Policy;
use tab::Tab;

/// Where to listen, which engine to start, and what the page may ask of it.
#[derive(Clone, Debug)]
pub struct Config {
    pub host: String,
    pub port: u16,
    /// The engine command, program first; empty: this binary.
    pub engine: Vec<String>,
    /// Most tabs (engine processes) at once.
    pub max_tabs: usize,
    /// A tab not heard from this long is closed with its engine, searching or not.
    pub idle: Duration,
    /// The key every API request carries (`X-Tetrad-Token`); none: a random one per launch.
    pub token: Option<String>,
    /// The directory whose files the page may name in options; none: no file.
    pub files: Option<PathBuf>,
    /// Largest `hash` (MiB) a tab may set.
    pub max_hash: u64,
    /// Most search `threads` a tab may set.
    pub max_threads: u64,
    /// Bounds on each connection.
    pub http: http::Limits,
    /// How long an engine may take over an ordinary command (a search: its time on top) before
    /// it is started again.
    pub answer: Duration,
}

/// Total memory in MiB, where the system says.
fn memory_mib() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

impl Default for Config {
    fn default() -> Config {
        let max_tabs = 8;
        // Every tab at its limit takes at most a quarter of the memory.
        let max_hash = memory_mib().map_or(256, |m| (m / 4 / max_tabs as u64).clamp(16, 4096));
        let max_threads = std::thread::available_parallelism().map_or(1, |n| n.get() as u64);
        Config {
            host: "127.0.0.1".into(),
            port: 8080,
            engine: Vec::new(),
            max_tabs,
            idle: Duration::from_secs(600),
            token: None,
            files: None,
            max_hash,
            max_threads,
            http: http::Limits::default(),
            answer: Duration::from_secs(20),
        }
    }
}

/// An open tab: its game (locked while a request works on it), its engine process (reachable
/// without that lock), and when the page last asked for it.
struct Entry {
    tab: Arc<Mutex<Tab>>,
    control: Arc<Control>,
    seen: Mutex<Instant>,
}

/// The tabs open, by id.
pub struct Tabs {
    config: Config,
    engine: Vec<String>,
    policy: Arc<Policy>,
    /// One per tab, taken before its engine process starts.
    engines: Arc<Slots>,
    open: Mutex<HashMap<String, Arc<Entry>>>,
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
        let files = match &config.files {
            Some(dir) => Some(
                dir.canonicalize()
                    .map_err(|e| anyhow::anyhow!("--files {}: {e}", dir.display()))?,
            ),
            None => None,
        };
        let policy = Arc::new(Policy {
            max_hash: config.max_hash,
            max_threads: config.max_threads,
            files,
            answer: config.answer,
        });
        Ok(Tabs {
            engines: Slots::new(config.max_tabs),
            config,
            engine,
            policy,
            open: Mutex::new(HashMap::new()),
        })
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, Arc<Entry>>> {
        // A panic while holding the map leaves it whole (inserts and removes only).
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Closes the tabs idle for longer than the configured time (in the middle of a search or
    /// not) and those whose engine has died, each engine stopped and its slot given back.
    pub fn reap(&self) {
        let idle = self.config.idle;
        let mut gone = Vec::new();
        self.lock().retain(|_, entry| {
            let seen = *entry.seen.lock().unwrap_or_else(|e| e.into_inner());
            let keep = seen.elapsed() < idle && !entry.control.dead();
            if !keep {
                gone.push(Arc::clone(entry));
            }
            keep
        });
        for entry in gone {
            entry.control.stop();
        }
    }

    /// Closes a tab: its engine is stopped now, even mid-search.
    fn close(&self, id: &str) {
        let entry = self.lock().remove(id);
        if let Some(entry) = entry {
            entry.control.stop();
        }
    }

    /// The tab `id`, marked as just used.
    fn get(&self, id: &str) -> Option<Arc<Mutex<Tab>>> {
        let entry = self.lock().get(id).cloned()?;
        *entry.seen.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
        Some(Arc::clone(&entry.tab))
    }

    pub fn count(&self) -> usize {
        self.lock().len()
    }

    /// Engine processes counted now (one per open or opening tab).
    pub fn engines(&self) -> usize {
        self.engines.used()
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

/// Whom the server answers: requests addressed to it (Host), from its own page (Origin, fetch
/// metadata) and, for the API, with JSON and the launch's token.
#[derive(Clone, Debug)]
pub struct Site {
    /// Host names accepted (lower case; IPv6 in brackets).
    names: Vec<String>,
    port: u16,
    /// Bound to every address (`0.0.0.0`): any name may reach it; the token still guards the API.
    any_host: bool,
    token: String,
}

impl Site {
    pub fn new(host: &str, port: u16, token: &str) -> Site {
        let bare = host.trim_matches(['[', ']']).to_ascii_lowercase();
        let ip = bare.parse::<IpAddr>().ok();
        let mut names = vec![match ip {
            Some(IpAddr::V6(_)) => format!("[{bare}]"),
            _ => bare.clone(),
        }];
        if is_loopback(host) {
            names.extend(["localhost", "127.0.0.1", "[::1]"].map(String::from));
        }
        Site {
            names,
            port,
            any_host: ip.is_some_and(|ip| ip.is_unspecified()),
            token: token.to_string(),
        }
    }

    /// `name:port` (as in Host, or an Origin after `http://`) names this server.
    fn addressed(&self, authority: &str) -> bool {
        let (name, port) = match authority.rfind(':') {
            Some(i) if !authority[i..].contains(']') => {
                (&authority[..i], Some(&authority[i + 1..]))
            }
            _ => (authority, None),
        };
        let port_ok = match port {
            Some(p) => p.parse::<u16>().ok() == Some(self.port),
            None => self.port == 80,
        };
        let name = name.to_ascii_lowercase();
        port_ok && !name.is_empty() && (self.any_host || self.names.contains(&name))
    }

    /// Why a request is refused, if it is.
    pub fn refuse(&self, request: &Request) -> Option<Response> {
        let forbid = |why: &str| Some(Response::error(403, why));
        match request.header("host") {
            None => return Some(Response::error(400, "a Host header is required")),
            Some(host) if !self.addressed(host) => {
                return forbid("this server answers only requests addressed to it (Host)")
            }
            _ => {}
        }
        if let Some(origin) = request.header("origin") {
            let own = origin
                .strip_prefix("http://")
                .is_some_and(|a| self.addressed(a));
            if !own {
                return forbid("this server answers only its own page (Origin)");
            }
        }
        if request.header("sec-fetch-site") == Some("cross-site") {
            return forbid("this server answers only its own page (Sec-Fetch-Site)");
        }
        if request.method == "POST" && request.target.starts_with("/api/") {
            let json = request.header("content-type").is_some_and(|t| {
                t.split(';')
                    .next()
                    .is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"))
            });
            if !json {
                return Some(Response::error(
                    415,
                    "the API takes Content-Type: application/json",
                ));
            }
            let token = request.header("x-tetrad-token").unwrap_or_default();
            if !same(token.as_bytes(), self.token.as_bytes()) {
                return forbid(
                    "missing or wrong X-Tetrad-Token: open the page at the address the server printed",
                );
            }
        }
        None
    }
}

/// Equal, in a time that does not depend on where they differ.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

/// A random token for one launch (128 bits).
pub fn new_token() -> String {
    use rand::Rng;
    let mut rng = rand::thread_rng();
    format!("{:016x}{:016x}", rng.gen::<u64>(), rng.gen::<u64>())
}

/// Serves until the process is ended.
pub fn run(config: Config) -> anyhow::Result<()> {
    if !is_loopback(&config.host) {
        eprintln!(
            "warning: serving on {}, not a loopback address: anyone who can reach it and has the \
             printed address can start engine processes on this machine",
            config.host
        );
    }
    let listener = TcpListener::bind((config.host.as_str(), config.port))
        .map_err(|e| anyhow::anyhow!("cannot listen on {}:{}: {e}", config.host, config.port))?;
    let addr = listener.local_addr()?;
    let token = config.token.clone().unwrap_or_else(new_token);
    let site = Site::new(&config.host, addr.port(), &token);
    println!("tetrad gui: http://{addr}/?token={token}");
    serve(listener, Arc::new(Tabs::new(config)?), site);
    Ok(())
}

/// Serves on `listener`, the idle and dead tabs reaped every few seconds.
pub fn serve(listener: TcpListener, tabs: Arc<Tabs>, site: Site) {
    let reaper = Arc::downgrade(&tabs);
    std::thread::spawn(move || loop {
        std::thread::sleep(Duration::from_secs(2));
        match reaper.upgrade() {
            Some(tabs) => tabs.reap(),
            None => break,
        }
    });
    let limits = tabs.config.http;
    let handler = move |request: &Request| -> Response {
        if let Some(refusal) = site.refuse(request) {
            return refusal;
        }
        let method = match request.method.as_str() {
            m @ ("GET" | "POST") => m,
            _ => "OTHER",
        };
        let reply = api::handle(&tabs, method, &request.target, &request.body);
        Response {
            status: reply.status,
            content_type: reply.content_type,
            body: reply.body,
        }
    };
    http::serve(listener, limits, Arc::new(handler));
}

#[cfg(test)]
mod load_bench;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod wire_tests;
