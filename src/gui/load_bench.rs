//! A load benchmark, not a timed test (ignored unless asked for): eight tabs play engine games
//! while a hundred hostile clients (the kinds of issue 44's evidence) connect and go for a minute;
//! `GET /` is timed throughout. Figures go to docs/reliability.md. Run with
//! `cargo test --release --test unit gui::load_bench -- --ignored --nocapture`
//! (`TETRAD_LOAD_SECONDS` for another length).

use std::io::Write;
use std::net::{Shutdown, SocketAddr};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::wire_tests::{answer, call, config, connect, get_page, start};

const HOSTILE: usize = 100;
const KINDS: usize = 8;

/// One hostile connection of kind `kind`; its answer's status (0: none).
fn hostile(addr: SocketAddr, kind: usize) -> u16 {
    let mut s = connect(addr);
    let head = |extra: &str| format!("POST /api/open HTTP/1.1\r\nHost: {addr}\r\n{extra}");
    let request = match kind {
        0 => head("Content-Type: application/json\r\nContent-Length: 1000000000000000\r\n\r\n{}"),
        1 => head("Content-Length: 18446744073709551615\r\n\r\n{}"),
        // A slow body: the server's deadline ends it.
        2 => head("Content-Type: application/json\r\nContent-Length: 2000\r\n\r\n{"),
        3 => format!("GET / HTTP/1.1\r\nX-Long: {}", "a".repeat(64 * 1024)),
        4 => "POST /api/open HTTP/1.1\r\nHost: evil.example\r\nOrigin: http://evil.example\r\n\
              Content-Type: text/plain\r\nContent-Length: 2\r\n\r\n{}"
            .to_string(),
        5 => head("Content-Type: text/plain\r\nContent-Length: 2\r\n\r\n{}"),
        6 => head("Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"),
        _ => "GARBAGE \u{0}\r\n\r\n".to_string(),
    };
    let _ = s.write_all(request.as_bytes());
    if kind == 0 || kind == 1 {
        let _ = s.shutdown(Shutdown::Write);
    }
    answer(&mut s).0
}

/// One tab playing engine against engine, games one after another; checks after every move
/// that the tab's game is the one played. Returns (moves, games).
fn play(addr: SocketAddr, index: usize, stop: &AtomicBool) -> (u64, u64) {
    let (status, state) = call(addr, "open", json!({}));
    assert_eq!(status, 200, "{state}");
    let tab = state["tab"].as_str().expect("an id").to_string();
    let games = state["games"].as_array().cloned().unwrap_or_default();
    let game = games[index % games.len()].clone();
    let (mut moves, mut played, mut in_game) = (0u64, 0u64, usize::MAX);
    while !stop.load(Ordering::SeqCst) {
        let over = |v: &Value| !v["layout"]["result"].is_null() || v["legal"] == json!([]);
        if in_game == usize::MAX {
            let (status, v) = call(addr, "new", json!({"tab": tab, "game": game}));
            assert_eq!(status, 200, "{v}");
            in_game = 0;
            played += 1;
        }
        let (status, v) = call(addr, "engine", json!({"tab": tab, "movetime": 20}));
        assert_eq!(status, 200, "tab {index}: {v}");
        in_game += 1;
        moves += 1;
        assert_eq!(
            v["moves"].as_array().map(Vec::len),
            Some(in_game),
            "tab {index}"
        );
        assert_eq!(v["game"], game);
        if over(&v) || in_game >= 200 {
            in_game = usize::MAX;
        }
    }
    let (status, _) = call(addr, "close", json!({"tab": tab}));
    assert_eq!(status, 200);
    (moves, played)
}

fn status_kib(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            let line = s.lines().find(|l| l.starts_with(field))?.to_string();
            line.split_whitespace().nth(1)?.parse().ok()
        })
        .unwrap_or(0)
}

#[test]
#[ignore = "a benchmark: a minute of load"]
fn load_benchmark() {
    let seconds: u64 = std::env::var("TETRAD_LOAD_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let server = start(config(8));
    let addr = server.addr;
    let stop = Arc::new(AtomicBool::new(false));
    let tabs: Vec<_> = (0..8)
        .map(|i| {
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || play(addr, i, &stop))
        })
        .collect();
    let counts: Arc<Vec<AtomicU64>> = Arc::new((0..KINDS * 2).map(|_| AtomicU64::new(0)).collect());
    let hostiles: Vec<_> = (0..HOSTILE)
        .map(|i| {
            let (stop, counts) = (Arc::clone(&stop), Arc::clone(&counts));
            std::thread::spawn(move || {
                let mut n = i;
                while !stop.load(Ordering::SeqCst) {
                    let kind = n % KINDS;
                    let status = hostile(addr, kind);
                    counts[kind].fetch_add(1, Ordering::SeqCst);
                    // An answer in 2xx to a hostile request would be a hole.
                    assert!(!(200..300).contains(&status), "kind {kind}: {status}");
                    if status == 0 {
                        counts[KINDS + kind].fetch_add(1, Ordering::SeqCst);
                    }
                    n += 1;
                }
            })
        })
        .collect();
    let start = Instant::now();
    let mut times = Vec::new();
    let mut failed = 0;
    let mut most_engines = 0;
    while start.elapsed() < Duration::from_secs(seconds) {
        let t = Instant::now();
        if get_page(addr) != 200 {
            failed += 1;
        }
        times.push(t.elapsed());
        most_engines = most_engines.max(server.tabs.engines());
        std::thread::sleep(Duration::from_millis(100));
    }
    stop.store(true, Ordering::SeqCst);
    let played: Vec<(u64, u64)> = tabs.into_iter().map(|t| t.join().expect("a tab")).collect();
    for h in hostiles {
        h.join().expect("a hostile client");
    }
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
    println!("{seconds} s, 8 tabs, {HOSTILE} hostile clients");
    println!(
        "tabs: {} engine moves, {} games started, every move's game checked",
        played.iter().map(|p| p.0).sum::<u64>(),
        played.iter().map(|p| p.1).sum::<u64>()
    );
    let kinds = [
        "huge length",
        "overflowing length",
        "slow body",
        "endless header",
        "other site",
        "text/plain",
        "no token",
        "garbage",
    ];
    for (k, name) in kinds.iter().enumerate() {
        println!(
            "hostile {name}: {} connections ({} without an answer)",
            counts[k].load(Ordering::SeqCst),
            counts[KINDS + k].load(Ordering::SeqCst)
        );
    }
    println!(
        "GET /: {} requests, {failed} failed; median {:?}, p99 {:?}, max {:?}",
        times.len(),
        at(0.5),
        at(0.99),
        at(1.0)
    );
    println!(
        "engines at most {most_engines}; this process's peak RSS {} MiB, threads now {}",
        status_kib("VmHWM:") / 1024,
        status_kib("Threads:")
    );
    assert_eq!(failed, 0);
    assert!(most_engines <= 8);
}
