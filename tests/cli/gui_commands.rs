//! The commands a GUI drives the engine with beyond playing: GTP `analyze_stream` (the lines
//! of every depth while the search deepens, ended by its limit or, without one, by the next
//! line or the end of input) and UGI `legalmovesjson`. (`game_record`: record.rs.)

use crate::common;

use std::time::Duration;

use common::Engine;

/// `(depth, multipv, first move)` of a stream line.
fn parse(line: &str) -> (u32, u32, String) {
    let w: Vec<&str> = line.split(' ').collect();
    let at = |k: &str| w.iter().position(|x| *x == k).expect(k) + 1;
    assert_eq!(w[0], "move", "{line}");
    assert_eq!(w[at("pv")], w[1], "the PV starts with the move: {line}");
    (
        w[at("depth")].parse().expect("depth"),
        w[at("multipv")].parse().expect("multipv"),
        w[1].to_string(),
    )
}

#[test]
fn a_bounded_stream_gives_every_depth_and_runs_to_its_limit() {
    let mut e = Engine::start(&["--protocol", "gtp"]);
    // Sent at once: the command behind a bounded stream waits for it, as after any search.
    e.send("1 analyze_stream depth 4 multipv 2\n2 name");
    assert_eq!(e.line(), "=1");
    let lines = e.answer();
    let seen: Vec<(u32, u32, String)> = lines.iter().map(|l| parse(l)).collect();
    let depths: Vec<u32> = seen.iter().map(|s| s.0).collect();
    assert!(depths.windows(2).all(|w| w[0] <= w[1]), "{lines:?}");
    for d in 1..=4 {
        let ranks: Vec<u32> = seen.iter().filter(|s| s.0 == d).map(|s| s.1).collect();
        assert_eq!(ranks, [1, 2], "depth {d}: {lines:?}");
    }
    assert_eq!(e.gtp(""), "=2 tetrad");
}

#[test]
fn an_unbounded_stream_ends_with_the_next_line() {
    let mut e = Engine::start(&["--protocol", "gtp"]);
    for stopper in ["name", ""] {
        e.send("analyze_stream");
        assert_eq!(e.line(), "=");
        // Deepens on its own until told: depth 3 comes without any further input.
        loop {
            let (depth, _, _) = parse(&e.line());
            if depth >= 3 {
                break;
            }
        }
        e.send(stopper);
        let rest = e.answer();
        assert!(rest.iter().all(|l| l.starts_with("move ")), "{rest:?}");
        if stopper == "name" {
            assert_eq!(e.gtp(""), "= tetrad");
        }
    }
    // The game goes on as before: nothing was played.
    assert_eq!(e.gtp("undo"), "? cannot undo");
    // The end of input ends it too, and the engine exits.
    e.send("analyze_stream multipv 3");
    assert_eq!(e.line(), "=");
    e.line();
    e.close_stdin();
    let rest = e.rest();
    assert_eq!(rest.last().map(String::as_str), Some(""), "{rest:?}");
    assert_eq!(e.wait_exit(Duration::from_secs(10)).map(|r| r.0), Some(0));
}

#[test]
fn a_finished_game_or_a_bad_limit_is_refused() {
    let mut e = Engine::start(&["--protocol", "gtp"]);
    assert_eq!(e.gtp("set_position W:Wa1:Bb2,c3"), "=");
    assert_eq!(e.gtp("analyze_stream"), "? game is over");
    assert_eq!(
        e.gtp("analyze_stream depth 0"),
        "? analyze depth must be 1..100, got 0"
    );
    assert_eq!(e.gtp("name"), "= tetrad");
}

#[test]
fn ugi_lists_the_moves_as_gtp_does_on_one_line() {
    let mut gtp = Engine::start(&["--protocol", "gtp"]);
    let mut ugi = Engine::start(&["--protocol", "ugi"]);
    for (game, moves) in [("poddavki", "c3-d4 f6-e5"), ("pods-standard", "A@c3")] {
        assert_eq!(gtp.gtp(&format!("set_game {game}")), "=");
        for mv in moves.split(' ') {
            assert_eq!(gtp.gtp(&format!("play {mv}")), "=");
        }
        let doc = gtp.gtp("legal_moves_json");
        let want: serde_json::Value =
            serde_json::from_str(doc.trim_start_matches('=')).expect("GTP's JSON");
        ugi.send(&format!("setoption name UCI_Variant value {game}"));
        ugi.send(&format!("position startpos moves {moves}"));
        ugi.send("legalmovesjson");
        let line = ugi.line();
        let got: serde_json::Value = serde_json::from_str(&line).expect("one line of JSON");
        assert_eq!(got, want, "{game}");
        assert!(!want["moves"].as_array().expect("moves").is_empty());
    }
    // No position: the error, and a one-line document saying so.
    ugi.send("position fen nonsense");
    assert!(ugi.line().starts_with("info string error:"));
    ugi.send("legalmovesjson");
    assert!(ugi.line().starts_with("info string error: no position"));
    let doc: serde_json::Value = serde_json::from_str(&ugi.line()).expect("JSON");
    assert!(doc["error"]
        .as_str()
        .expect("an error")
        .starts_with("no position"));
}

#[test]
fn list_options_game_gives_the_current_games_own_only() {
    let mut e = Engine::start(&["--protocol", "gtp"]);
    let names = |text: &str| -> Vec<String> {
        text.trim_start_matches('=')
            .lines()
            .filter_map(|l| l.split_whitespace().next().map(String::from))
            .collect()
    };
    let all = names(&e.gtp("list_options"));
    assert!(
        all.contains(&"draw_repetition".to_string()) && all.contains(&"pods_rotation".to_string())
    );
    let own = names(&e.gtp("list_options game"));
    assert!(own.contains(&"draw_repetition".to_string()), "{own:?}");
    assert_eq!(e.gtp("set_game pods"), "=");
    let own = names(&e.gtp("list_options game"));
    assert!(own.contains(&"pods_rotation".to_string()), "{own:?}");
    assert!(own
        .iter()
        .all(|n| all.contains(n) && n != "draw_repetition" && n != "hash"));
    assert_eq!(
        e.gtp("list_options all"),
        "? syntax error: list_options takes no argument or 'game'"
    );
}
