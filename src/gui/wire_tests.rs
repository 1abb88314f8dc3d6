//! The server under hostile and faulty clients, through real sockets (issue 44's evidence, one
//! test each). Every wait has a generous bound that only a failure reaches; nothing depends on
//! how fast the machine is.

use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};

use super::tests::{binary, relay_engine};
use super::{serve, Config, Site, Tabs};

pub(super) const TOKEN: &str = "0123456789abcdef0123456789abcdef";
/// Longest wait for any answer: reached only when the server is broken.
const GUARD: Duration = Duration::from_secs(60);

pub(super) struct Server {
    pub addr: SocketAddr,
    pub tabs: Arc<Tabs>,
}

pub(super) fn config(max_tabs: usize) -> Config {
    Config {
        engine: vec![binary().to_string_lossy().into_owned()],
        max_tabs,
        idle: Duration::from_secs(3600),
        ..Config::default()
    }
}

pub(super) fn start(config: Config) -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a port");
    let addr = listener.local_addr().expect("an address");
    let site = Site::new("127.0.0.1", addr.port(), TOKEN);
    let tabs = Arc::new(Tabs::new(config).expect("tabs"));
    let served = Arc::clone(&tabs);
    std::thread::spawn(move || serve(listener, served, site));
    Server { addr, tabs }
}

pub(super) fn connect(addr: SocketAddr) -> TcpStream {
    let s = TcpStream::connect(addr).expect("connects");
    s.set_read_timeout(Some(GUARD)).expect("timeout");
    s.set_write_timeout(Some(GUARD)).expect("timeout");
    s
}

/// The whole answer (the server closes after one): status and body.
pub(super) fn answer(s: &mut TcpStream) -> (u16, String) {
    let mut bytes = Vec::new();
    let _ = s.read_to_end(&mut bytes);
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    (status, body)
}

pub(super) fn raw(addr: SocketAddr, request: &[u8]) -> (u16, String) {
    let mut s = connect(addr);
    let _ = s.write_all(request);
    answer(&mut s)
}

pub(super) fn get_page(addr: SocketAddr) -> u16 {
    let host = format!("GET / HTTP/1.1\r\nHost: {addr}\r\n\r\n");
    raw(addr, host.as_bytes()).0
}

/// An API call as the page makes it, with `extra` header lines.
fn call_with(addr: SocketAddr, action: &str, body: &Value, extra: &str) -> (u16, Value) {
    let body = body.to_string();
    let request = format!(
        "POST /api/{action} HTTP/1.1\r\nHost: {addr}\r\nOrigin: http://{addr}\r\n{extra}\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let (status, text) = raw(addr, request.as_bytes());
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

pub(super) fn call(addr: SocketAddr, action: &str, body: Value) -> (u16, Value) {
    let headers = format!("Content-Type: application/json\r\nX-Tetrad-Token: {TOKEN}\r\n");
    call_with(addr, action, &body, &headers)
}

fn open(addr: SocketAddr) -> String {
    let (status, state) = call(addr, "open", json!({}));
    assert_eq!(status, 200, "{state}");
    state["tab"].as_str().expect("a tab id").to_string()
}

/// What a refused request must leave as it was.
fn game_of(addr: SocketAddr, tab: &str) -> Value {
    let (status, s) = call(addr, "state", json!({ "tab": tab }));
    assert_eq!(status, 200, "{s}");
    json!([s["game"], s["moves"], s["position"], s["legal"]])
}

fn first_legal(addr: SocketAddr, tab: &str) -> String {
    let (_, s) = call(addr, "state", json!({ "tab": tab }));
    s["legal"][0]["move"]
        .as_str()
        .expect("a legal move")
        .to_string()
}

/// Evidence 1: a body declared a petabyte long is refused unread; the server lives on.
#[test]
fn a_huge_declared_body_is_refused_unread() {
    let server = start(config(1));
    let mut s = connect(server.addr);
    let head = format!(
        "POST /api/state HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
         Content-Length: 1000000000000000\r\n\r\n{{}}",
        server.addr
    );
    s.write_all(head.as_bytes()).expect("sent");
    s.shutdown(Shutdown::Write).expect("half-closed");
    assert_eq!(answer(&mut s).0, 413);
    assert_eq!(get_page(server.addr), 200);
}

/// Evidence 2: requests whose length overflows take no slot for good.
#[test]
fn overflowing_lengths_leave_no_slot_taken() {
    let server = start(config(1));
    for _ in 0..40 {
        let head = format!(
            "POST /api/state HTTP/1.1\r\nHost: {}\r\nContent-Length: 18446744073709551615\r\n\r\n{{}}",
            server.addr
        );
        let mut s = connect(server.addr);
        s.write_all(head.as_bytes()).expect("sent");
        let _ = s.shutdown(Shutdown::Write);
        assert_eq!(answer(&mut s).0, 413);
    }
    assert_eq!(get_page(server.addr), 200);
}

/// Evidence 3: slow bodies neither shut others out nor hold their connection past the deadline.
#[test]
fn slow_bodies_time_out_and_shut_no_one_out() {
    let mut config = config(1);
    config.http.read = Duration::from_millis(500);
    config.http.deadline = Duration::from_secs(1);
    // Fewer readers than slow clients: the newest still get in.
    config.http.connections = 8;
    let server = start(config);
    let slow: Vec<TcpStream> = (0..40)
        .map(|_| {
            let mut s = connect(server.addr);
            let head = format!(
                "POST /api/open HTTP/1.1\r\nHost: {}\r\nContent-Length: 2000\r\n\r\n{{",
                server.addr
            );
            s.write_all(head.as_bytes()).expect("sent");
            s
        })
        .collect();
    // More slow connections than the old server had slots, all still open.
    assert_eq!(get_page(server.addr), 200);
    let ends: Vec<u16> = slow.into_iter().map(|mut s| answer(&mut s).0).collect();
    // Each ended by the deadline (408), or dropped for a newer reader (no answer).
    assert!(ends.iter().all(|e| *e == 408 || *e == 0), "{ends:?}");
    assert!(ends.contains(&408), "{ends:?}");
    assert_eq!(get_page(server.addr), 200);
}

/// Evidence 4: a header line without end is cut off at the head limit.
#[test]
fn an_endless_header_line_is_cut_off() {
    let server = start(config(1));
    let mut s = connect(server.addr);
    s.write_all(b"GET / HTTP/1.1\r\nX-Long: ").expect("sent");
    let line = vec![b'a'; 64 * 1024];
    let _ = s.write_all(&line);
    assert_eq!(answer(&mut s).0, 431);
    assert_eq!(get_page(server.addr), 200);
}

/// Evidence 5: engines are counted before they start, stopped with their tab, and capped.
#[test]
fn engines_are_bounded_by_the_tab_cap() {
    let mut config = config(2);
    config.max_hash = 64;
    config.max_threads = 2;
    let server = start(config);
    let addr = server.addr;
    // Six opens at once: two tabs, never more than two engines.
    let opens: Vec<_> = (0..6)
        .map(|_| std::thread::spawn(move || call(addr, "open", json!({}))))
        .collect();
    let results: Vec<(u16, Value)> = opens
        .into_iter()
        .map(|t| t.join().expect("joined"))
        .collect();
    let opened: Vec<String> = results
        .iter()
        .filter(|(s, _)| *s == 200)
        .map(|(_, v)| v["tab"].as_str().expect("an id").to_string())
        .collect();
    assert_eq!(opened.len(), 2, "{results:?}");
    assert!(results.iter().all(|(s, _)| *s == 200 || *s == 503));
    assert_eq!(server.tabs.engines(), 2);
    // A day-long clock: closing the tab stops the search at once.
    let tab = opened[0].clone();
    let search = std::thread::spawn(move || {
        let clock = json!({"left": 86_400_000u64, "base": 86_400_000u64});
        call(addr, "engine", json!({"tab": tab, "clock": clock}))
    });
    let (status, _) = call(addr, "close", json!({"tab": opened[0]}));
    assert_eq!(status, 200);
    assert_ne!(search.join().expect("joined").0, 200);
    assert_eq!(server.tabs.engines(), 1);
    let again = open(addr);
    assert_eq!(call(addr, "open", json!({})).0, 503);
    assert_eq!(server.tabs.engines(), 2);
    // Resources over the command line's limits, refused naming the flag.
    let (_, s) = call(addr, "state", json!({"tab": again}));
    for (option, value, flag) in [
        ("hash", 1024, "--max-hash"),
        ("threads", 256, "--max-threads"),
    ] {
        let (status, v) = call(
            addr,
            "new",
            json!({"tab": again, "game": s["game"], "options": {option: value}}),
        );
        assert_eq!(status, 403, "{v}");
        assert!(v["error"].as_str().is_some_and(|e| e.contains(flag)), "{v}");
    }
}

/// A GTP engine that answers its first `genmove` `delay` seconds late (then never again: a
/// marker file says it has), in front of this build's engine.
fn late_engine(dir: &std::path::Path, delay: u32) -> Vec<String> {
    let marker = dir.join("late.done").to_string_lossy().into_owned();
    let after = format!(
        "if line.startswith('genmove') and not os.path.exists({marker:?}):\n\
         \x20   open({marker:?}, 'w').close(); time.sleep({delay})"
    );
    relay_engine(dir, "late", "", &after)
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tetrad-gui-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// Evidence 6: an answer later than the tab waits restarts the engine at the game's position;
/// the next commands read their own answers.
#[test]
fn a_late_answer_restarts_the_engine_in_step() {
    let dir = scratch("late");
    let mut config = config(1);
    // The wait is long enough for any command of a loaded machine (the restart's included),
    // the late answer far later (its sleep ends with the process, costing nothing).
    config.engine = late_engine(&dir, 120);
    config.answer = Duration::from_secs(8);
    let server = start(config);
    let tab = open(server.addr);
    let mv = first_legal(server.addr, &tab);
    assert_eq!(
        call(server.addr, "play", json!({"tab": tab, "move": mv})).0,
        200
    );
    let before = game_of(server.addr, &tab);
    let (status, v) = call(server.addr, "engine", json!({"tab": tab, "movetime": 1}));
    assert_eq!(status, 502, "{v}");
    assert!(
        v["error"].as_str().is_some_and(|e| e.contains("restarted")),
        "{v}"
    );
    assert_eq!(game_of(server.addr, &tab), before);
    // In step: a listed move is played, the engine moves, a new game starts.
    let mv = first_legal(server.addr, &tab);
    let (status, v) = call(server.addr, "play", json!({"tab": tab, "move": mv}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["moves"].as_array().map(Vec::len), Some(2), "{v}");
    let (status, v) = call(server.addr, "engine", json!({"tab": tab, "movetime": 1}));
    assert_eq!(status, 200, "{v}");
    let (status, v) = call(server.addr, "new", json!({"tab": tab, "game": v["game"]}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(server.tabs.engines(), 1);
    let _ = std::fs::remove_dir_all(dir);
}

/// Evidence 7 and a refusal of each action: a refused request leaves the game as it was.
#[test]
fn a_refused_request_changes_nothing() {
    let dir = scratch("refusals");
    std::fs::write(dir.join("garbage.txt"), "not weights\n").expect("a file");
    let mut config = config(1);
    config.files = Some(dir.clone());
    config.max_hash = 64;
    let server = start(config);
    let addr = server.addr;
    let tab = open(addr);
    let mv = first_legal(addr, &tab);
    assert_eq!(call(addr, "play", json!({"tab": tab, "move": mv})).0, 200);
    let before = game_of(addr, &tab);
    let (_, s) = call(addr, "state", json!({"tab": tab}));
    let games: Vec<String> = s["games"]
        .as_array()
        .expect("games")
        .iter()
        .filter_map(|g| g.as_str().map(String::from))
        .collect();
    let other = games
        .iter()
        .find(|g| **g != s["game"])
        .expect("a second game");
    let file = dir.join("garbage.txt").to_string_lossy().into_owned();
    let refused = [
        (
            "new",
            json!({"tab": tab, "game": other, "options": {"eval_file": "/nonexistent-file"}}),
        ),
        // Allowed by name, refused by the engine: undone by starting the engine again.
        (
            "new",
            json!({"tab": tab, "game": other, "options": {"eval_file": file}}),
        ),
        (
            "new",
            json!({"tab": tab, "game": other, "options": {"hash": 65}}),
        ),
        ("new", json!({"tab": tab, "game": "no-such-game"})),
        ("play", json!({"tab": tab, "move": "zz99"})),
        ("engine", json!({"tab": tab, "movetime": 0})),
        (
            "position",
            json!({"tab": tab, "position": "not a position"}),
        ),
        ("analyse", json!({"tab": tab, "depth": 0})),
        ("view", json!({"tab": tab, "ply": 99})),
        ("stream_start", json!({"tab": tab, "multipv": 99})),
        ("record", json!({"tab": tab, "players": ["a"]})),
        ("close", json!({"tab": "no-such-tab"})),
        ("open", json!({})),
        ("frobnicate", json!({"tab": tab})),
    ];
    for (action, body) in refused {
        let (status, v) = call(addr, action, body.clone());
        // `close` of an unknown tab is answered as done: it is closed.
        if action != "close" {
            assert!(
                (400..600).contains(&status),
                "{action} {body}: {status} {v}"
            );
        }
        assert_eq!(game_of(addr, &tab), before, "{action} {body}");
    }
    // Undo is refused on a game without moves.
    let (status, v) = call(addr, "new", json!({"tab": tab, "game": other}));
    assert_eq!(status, 200, "{v}");
    let fresh = game_of(addr, &tab);
    assert_eq!(call(addr, "undo", json!({"tab": tab})).0, 422);
    assert_eq!(game_of(addr, &tab), fresh);
    let mv = first_legal(addr, &tab);
    assert_eq!(call(addr, "play", json!({"tab": tab, "move": mv})).0, 200);
    let _ = std::fs::remove_dir_all(dir);
}

/// Evidence 8: only the server's own page drives it, and files outside the allowed directory
/// are refused unread.
#[test]
fn only_its_own_page_drives_it() {
    let dir = scratch("files");
    let server = start(config(1));
    let addr = server.addr;
    let json = "Content-Type: application/json\r\n";
    let token = format!("X-Tetrad-Token: {TOKEN}\r\n");
    let evil = |extra: &str| {
        let request = format!("POST /api/open HTTP/1.1\r\n{extra}Content-Length: 2\r\n\r\n{{}}");
        raw(addr, request.as_bytes()).0
    };
    let good = format!("Host: {addr}\r\n{json}{token}");
    assert_eq!(evil(&format!("Host: evil.example\r\n{json}{token}")), 403);
    assert_eq!(
        evil(&format!(
            "Host: evil.example:{}\r\n{json}{token}",
            addr.port()
        )),
        403
    );
    assert_eq!(evil(&format!("{good}Origin: http://evil.example\r\n")), 403);
    assert_eq!(evil(&format!("{good}Origin: null\r\n")), 403);
    assert_eq!(evil(&format!("{good}Sec-Fetch-Site: cross-site\r\n")), 403);
    assert_eq!(
        evil(&format!(
            "Host: {addr}\r\nContent-Type: text/plain\r\n{token}"
        )),
        415
    );
    assert_eq!(evil(&format!("Host: {addr}\r\n{json}")), 403);
    assert_eq!(
        evil(&format!(
            "Host: {addr}\r\n{json}X-Tetrad-Token: {}\r\n",
            &TOKEN[1..]
        )),
        403
    );
    assert_eq!(evil(json), 400);
    assert_eq!(server.tabs.engines(), 0);
    // A page on another name (DNS rebinding) cannot read the page either.
    let page = raw(addr, b"GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n").0;
    assert_eq!(page, 403);
    for host in ["localhost", "127.0.0.1"] {
        let request = format!("GET / HTTP/1.1\r\nHost: {host}:{}\r\n\r\n", addr.port());
        assert_eq!(raw(addr, request.as_bytes()).0, 200, "{host}");
    }
    let tab = open(addr);
    let (_, s) = call(addr, "state", json!({"tab": tab}));
    let game = s["game"].clone();
    for path in ["/etc/passwd", "../../../etc/passwd", "/nonexistent-file"] {
        let (status, v) = call(
            addr,
            "new",
            json!({"tab": tab, "game": game, "options": {"eval_file": path}}),
        );
        assert_eq!(status, 403, "{path}: {v}");
        assert!(
            v["error"].as_str().is_some_and(|e| e.contains("--files")),
            "{v}"
        );
    }
    // With a directory allowed: only inside it, whatever is outside.
    let mut config = config(1);
    config.files = Some(dir.clone());
    let server = start(config);
    let tab = open(server.addr);
    for path in ["/etc/passwd", "../../../etc/passwd", "/nonexistent-file"] {
        let body = json!({"tab": tab, "game": game, "options": {"eval_file": path}});
        let (status, v) = call(server.addr, "new", body);
        assert_eq!(status, 403, "{path}: {v}");
        assert!(
            !v["error"].as_str().unwrap_or_default().contains("GAME"),
            "{v}"
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// Evidence 10: a dead engine's tab is reaped and frees its slot; `#` in a record field is text.
#[test]
fn dead_engines_are_reaped_and_hashes_are_text() {
    let server = start(config(1));
    let addr = server.addr;
    let tab = open(addr);
    let (status, v) = call(addr, "record", json!({"tab": tab, "players": ["a#b", "c"]}));
    assert_eq!(status, 200, "{v}");
    assert!(v["text"].as_str().is_some_and(|t| t.contains("a#b")), "{v}");
    // The engine process ends (as if it crashed): reaped, its slot free for a new tab.
    let entry = server.tabs.lock().get(&tab).cloned().expect("the tab");
    entry.control.end_process();
    assert!(entry.control.dead());
    server.tabs.reap();
    assert_eq!(server.tabs.engines(), 0);
    assert_eq!(call(addr, "state", json!({"tab": tab})).0, 404);
    open(addr);
}

/// Malformed HTTP gets 4xx (from the HTTP layer or the API), and the server goes on serving.
#[test]
fn malformed_http_gets_4xx_over_the_wire() {
    let server = start(config(1));
    let addr = server.addr;
    let host = format!("Host: {addr}");
    for (request, want) in [
        ("GARBAGE\r\n\r\n".to_string(), 400..500),
        ("GET / HTTP/9.9\r\n\r\n".to_string(), 400..600),
        (format!("POST /api/x HTTP/1.1\r\n{host}\r\nTransfer-Encoding: chunked\r\n\r\n"), 400..500),
        (format!("POST /api/x HTTP/1.1\r\n{host}\r\nContent-Length: -1\r\n\r\n"), 400..500),
        (format!("POST /api/x HTTP/1.1\r\n{host}\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n{{"), 400..500),
        (format!("DELETE /api/state HTTP/1.1\r\n{host}\r\nContent-Length: 0\r\n\r\n"), 400..500),
        (format!("GET /%%% HTTP/1.1\r\n{host}\r\n\r\n"), 400..500),
    ] {
        let (status, body) = raw(addr, request.as_bytes());
        assert!(want.contains(&status), "{request}: {status} {body}");
    }
    let token = format!("Content-Type: application/json\r\nX-Tetrad-Token: {TOKEN}\r\n");
    for (body, want) in [("{", 400), ("[]", 400)] {
        let request = format!(
            "POST /api/open HTTP/1.1\r\n{host}\r\n{token}Content-Length: {}\r\n\r\n{body}",
            body.len()
        );
        assert_eq!(raw(addr, request.as_bytes()).0, want, "{body}");
    }
    assert_eq!(get_page(addr), 200);
}

/// Seeded random mutations of a valid API request over the wire: each is answered (or the
/// connection closed) within the guard, none is worked on without the token, and the server
/// goes on serving.
#[test]
fn fuzzed_raw_requests_are_answered() {
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    let mut config = config(1);
    // A request cut short waits out these: short, as there are many.
    config.http.read = Duration::from_millis(100);
    config.http.deadline = Duration::from_millis(200);
    let server = start(config);
    let addr = server.addr;
    let valid = format!(
        "POST /api/open HTTP/1.1\r\nHost: {addr}\r\nOrigin: http://{addr}\r\n\
         Content-Type: application/json\r\nX-Tetrad-Token: wrong\r\nContent-Length: 2\r\n\r\n{{}}"
    );
    let pieces: [&[u8]; 10] = [
        b"\r\n",
        b"\n",
        b"\0",
        b":",
        b" ",
        b"Content-Length: 99999999999999999999\r\n",
        b"Transfer-Encoding: chunked\r\n",
        b"\xff\xfe",
        b"Host: evil\r\n",
        b"\r\n\r\n",
    ];
    let mut rng = SmallRng::seed_from_u64(44);
    for _ in 0..200 {
        let mut bytes = valid.as_bytes().to_vec();
        for _ in 0..rng.gen_range(1..5) {
            let at = rng.gen_range(0..bytes.len());
            match rng.gen_range(0..4) {
                0 => bytes[at] ^= 1 << rng.gen_range(0..8),
                1 => bytes.truncate(at),
                2 => {
                    let piece = pieces[rng.gen_range(0..pieces.len())];
                    bytes.splice(at..at, piece.iter().copied());
                }
                _ => {
                    bytes.remove(at);
                }
            }
            if bytes.is_empty() {
                bytes.push(b'G');
            }
        }
        let (status, body) = raw(addr, &bytes);
        assert!(
            status == 0 || (400..600).contains(&status),
            "{}: {status} {body}",
            String::from_utf8_lossy(&bytes)
        );
    }
    assert_eq!(server.tabs.engines(), 0);
    assert_eq!(get_page(addr), 200);
}
