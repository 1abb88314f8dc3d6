//! UGI dialect through the binary: handshake, position/go/stop, queries, errors, clocks, EOF.

mod common;

use std::time::{Duration, Instant};

use common::Engine;

#[test]
fn handshakes_match_their_word() {
    for word in ["ugi", "uci", "uai"] {
        let mut e = Engine::start(&[]);
        e.send(word);
        let lines = e.until(&format!("{word}ok"));
        assert_eq!(lines[0], "id name tetrad");
        for opt in ["Threads", "Hash", "Seed", "MoveOverhead", "UCI_Variant"] {
            assert!(
                lines
                    .iter()
                    .any(|l| l.starts_with(&format!("option name {opt} type"))),
                "{opt}"
            );
        }
        assert!(lines.iter().any(|l| l.contains("var pods-advanced")));
    }
}

#[test]
fn position_go_and_queries() {
    let mut e = Engine::start(&[]);
    e.send("uci");
    e.until("uciok");
    e.send("isready");
    assert_eq!(e.line(), "readyok");
    e.send("position startpos moves c3-d4");
    e.send("query p1turn");
    assert_eq!(e.line(), "response false");
    e.send("query gameover");
    assert_eq!(e.line(), "response false");
    e.send("query result");
    assert_eq!(e.line(), "response none");
    e.send("go depth 4");
    let lines = e.until("bestmove");
    assert!(lines
        .iter()
        .any(|l| l.starts_with("info depth 4 seldepth ") && l.contains(" score cp ")));
    let best: Vec<&str> = lines.last().expect("bestmove").split(' ').collect();
    assert_eq!(best.len(), 2);
    // Nothing after the single bestmove.
    e.send("isready");
    assert_eq!(e.line(), "readyok");
}

#[test]
fn errors_leave_the_position_alone() {
    let mut e = Engine::start(&[]);
    e.send("ugi");
    e.until("ugiok");
    e.send("position startpos moves c3-d4");
    e.send("position startpos moves c3-d4 c3-d4");
    assert!(e.line().starts_with("info string error: illegal move"));
    e.send("position fen nonsense");
    assert!(e.line().starts_with("info string error: invalid position"));
    e.send("flurb");
    assert!(e.line().starts_with("info string error: unknown command"));
    e.send("go sideways");
    assert!(e.line().starts_with("info string error:"));
    e.send("setoption name Nope value 1");
    assert!(e.line().starts_with("info string error: unknown option"));
    e.send_bytes(b"\xc3\x28\n");
    assert!(e
        .line()
        .starts_with("info string error: input is not valid UTF-8"));
    e.send("query p1turn");
    assert_eq!(e.line(), "response false");
}

#[test]
fn stop_and_isready_during_infinite_search() {
    let mut e = Engine::start(&[]);
    e.send("uci");
    e.until("uciok");
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    e.send("isready");
    let lines = e.until("readyok");
    assert!(lines.iter().all(|l| !l.starts_with("bestmove")));
    assert!(t.elapsed() < Duration::from_secs(2));
    e.send("stop");
    let lines = e.until("bestmove");
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove")).count(),
        1
    );
    // Generous bound: this checks liveness; the 50 ms figure is measured by the bench notes.
    assert!(t.elapsed() < Duration::from_secs(2));
}

#[test]
fn clock_is_respected() {
    let mut e = Engine::start(&[]);
    e.send("uci");
    e.until("uciok");
    e.send("position startpos");
    let t = Instant::now();
    e.send("go wtime 1000 btime 1000 winc 10 binc 10");
    e.until("bestmove");
    assert!(
        t.elapsed() < Duration::from_millis(1000),
        "{:?}",
        t.elapsed()
    );
}

#[test]
fn a_new_go_stops_the_old_search() {
    let mut e = Engine::start(&[]);
    e.send("uci");
    e.until("uciok");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(50));
    e.send("position startpos moves c3-d4");
    e.send("go depth 2");
    let first = e.until("bestmove");
    assert!(first.last().is_some());
    let second = e.until("bestmove");
    assert!(second.last().is_some());
}

#[test]
fn eof_during_search_exits_quickly() {
    let mut e = Engine::start(&[]);
    e.send("uci");
    e.until("uciok");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.close_stdin();
    let (code, took) = e.wait_exit(Duration::from_secs(5)).expect("exits");
    assert_eq!(code, 0);
    assert!(took < Duration::from_secs(1));
}

#[test]
fn variant_switch_and_game_over() {
    let mut e = Engine::start(&[]);
    e.send("uci");
    e.until("uciok");
    e.send("setoption name UCI_Variant value poddavki");
    e.send("position fen W:W:Bc5");
    e.send("query gameover");
    assert_eq!(e.line(), "response true");
    e.send("query result");
    assert_eq!(e.line(), "response p1win");
    e.send("go depth 3");
    assert_eq!(e.line(), "bestmove (none)");
    e.send("quit");
    assert_eq!(e.wait_exit(Duration::from_secs(2)).map(|r| r.0), Some(0));
}
