//! GTP dialect through the binary: framing, ids, errors, state safety, search (batch input and
//! end of input: tests/cli/batch.rs).

use crate::common;

use std::time::Duration;

use common::Engine;

const START: &str = "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8";

#[test]
fn framing_ids_and_identity() {
    let mut e = Engine::start(&[]);
    assert_eq!(e.gtp("protocol_version"), "= 2");
    assert_eq!(e.gtp("7 name"), "=7 tetrad");
    assert_eq!(
        e.gtp("8 version"),
        format!("=8 {}", env!("CARGO_PKG_VERSION"))
    );
    assert_eq!(e.gtp("known_command genmove"), "= true");
    assert_eq!(e.gtp("known_command fly"), "= false");
    let cmds = e.gtp("list_commands");
    for c in [
        "set_game",
        "legal_moves",
        "perft",
        "game_result",
        "reg_genmove",
    ] {
        assert!(cmds.lines().any(|l| l.trim_start_matches("= ") == c), "{c}");
    }
    // The registry's games, in its order (with the toy row where a test run asks for it).
    assert_eq!(
        e.gtp("list_games"),
        format!("= {}", common::every_game().join("\n"))
    );
    // Comments, blank lines and CR are ignored; an id still frames the answer.
    e.send("# a comment");
    e.send("");
    assert_eq!(e.gtp("9 side_to_move # trailing comment\r"), "=9 white");
    assert_eq!(e.gtp("10 frobnicate"), "?10 unknown command");
    assert_eq!(e.gtp("quit"), "=");
    assert_eq!(e.wait_exit(Duration::from_secs(2)).map(|r| r.0), Some(0));
}

#[test]
fn moves_undo_and_errors_leave_state_alone() {
    let mut e = Engine::start(&["--game", "poddavki"]);
    assert_eq!(e.gtp("get_position"), format!("= {START}"));
    assert_eq!(
        e.gtp("legal_moves"),
        "= a3-b4 c3-b4 c3-d4 e3-d4 e3-f4 g3-f4 g3-h4"
    );
    assert!(e.gtp("play c3-c4").starts_with("? illegal move"));
    assert!(e.gtp("play black b6-a5").starts_with("? illegal move"));
    assert!(e.gtp("play zz").starts_with("? illegal move"));
    assert!(e
        .gtp("set_position W:Wa2")
        .starts_with("? invalid position"));
    assert_eq!(e.gtp("get_position"), format!("= {START}"));
    assert_eq!(e.gtp("play w c3-d4"), "=");
    assert_eq!(e.gtp("side_to_move"), "= black");
    assert_eq!(e.gtp("undo"), "=");
    assert_eq!(e.gtp("get_position"), format!("= {START}"));
    assert_eq!(e.gtp("undo"), "? cannot undo");
    assert_eq!(e.gtp("perft 3"), "= 302");
    assert_eq!(e.gtp("game_result"), "= ongoing");
}

#[test]
fn finished_game_refuses_moves_but_allows_undo() {
    let mut e = Engine::start(&[]);
    // Black captures its last piece away... simplest: White to move with no pieces wins.
    assert_eq!(e.gtp("set_position W:W:Bc5"), "=");
    assert!(e.gtp("game_result").starts_with("= white"));
    assert_eq!(e.gtp("legal_moves"), "=");
    assert_eq!(e.gtp("genmove"), "? game is over");
    assert_eq!(e.gtp("play c3-d4"), "? game is over");
    // A one-move game: White's last man is captured, and White (to move, no pieces) wins.
    assert_eq!(e.gtp("set_position B:Wd4:Be5"), "=");
    assert_eq!(e.gtp("play e5:c3"), "=");
    assert!(e.gtp("game_result").starts_with("= white"));
    assert_eq!(e.gtp("undo"), "=");
    assert_eq!(e.gtp("game_result"), "= ongoing");
}

#[test]
fn genmove_plays_a_legal_move_with_limits() {
    let mut e = Engine::start(&[]);
    assert_eq!(e.gtp("set_option depth 4"), "=");
    let legal = e.gtp("legal_moves");
    let mv = e.gtp("genmove white");
    let mv = mv.strip_prefix("= ").expect("a move").to_string();
    assert!(legal.split(' ').any(|m| m == mv), "{mv} not in {legal}");
    assert_eq!(e.gtp("side_to_move"), "= black");
    assert_eq!(e.gtp("genmove white"), "? illegal move: it is black's turn");
    let reg = e.gtp("reg_genmove");
    assert!(reg.starts_with("= "));
    assert_eq!(e.gtp("side_to_move"), "= black");
    assert!(e.gtp("set_option bogus 1").starts_with("? unknown option"));
    assert!(e.gtp("set_option hash lots").starts_with("? option hash"));
    assert_eq!(e.gtp("time_settings 10 0 0"), "=");
    assert_eq!(e.gtp("time_left black 5 0"), "=");
    assert!(e.gtp("time_left purple 5 0").starts_with("? invalid side"));
    assert_eq!(e.gtp("boardsize 8"), "? unacceptable size");
    assert_eq!(e.gtp("komi 0"), "=");
}

#[test]
fn deterministic_with_node_limit() {
    let run = || {
        let mut e = Engine::start(&["--seed", "3"]);
        e.gtp("set_option nodes 20000");
        (0..4).map(|_| e.gtp("genmove")).collect::<Vec<_>>()
    };
    assert_eq!(run(), run());
}

#[test]
fn garbage_input_gets_errors_and_the_engine_survives() {
    let mut e = Engine::start(&[]);
    e.send_bytes(b"\xff\xfe\xfd\n");
    assert_eq!(e.answer(), vec!["? input is not valid UTF-8"]);
    e.send_bytes(b"na\x00me\n");
    assert_eq!(e.answer(), vec!["= tetrad"]);
    let mut big = vec![b'x'; 3 << 20];
    big.push(b'\n');
    e.send_bytes(&big);
    assert!(e.answer()[0].starts_with("? line too long"));
    e.send("12 play");
    assert!(e.answer()[0].starts_with("?12 syntax error"));
    e.send("perft 99");
    assert!(e.answer()[0].starts_with("? perft depth"));
    assert_eq!(e.gtp("name"), "= tetrad");
}

#[test]
fn set_game_switches_rules() {
    let mut e = Engine::start(&[]);
    let mut games = common::game_names();
    games.extend(["pods".to_string(), "poddavki".to_string()]);
    for g in &games {
        assert_eq!(e.gtp(&format!("set_game {g}")), "=", "{g}");
        assert!(!e.gtp("get_position").is_empty());
    }
    assert!(e.gtp("set_game chess").starts_with("? unknown game"));
    assert_eq!(e.gtp("get_position"), format!("= {START}"));
}

/// `analyze`'s lines as (move, score, depth, pv), checked for form.
fn analysis(answer: &str) -> Vec<(String, i64, u32, Vec<String>)> {
    let body = answer.strip_prefix("= ").expect("a result");
    body.lines()
        .map(|l| {
            let w: Vec<&str> = l.split(' ').collect();
            assert_eq!(
                (w[0], w[2], w[5], w[7]),
                ("move", "score", "depth", "pv"),
                "{l}"
            );
            let n: i64 = w[4].parse().expect("a score");
            let score = match w[3] {
                "cp" => n,
                "mate" if n > 0 => 1_000_000 - n,
                "mate" => -1_000_000 - n,
                other => panic!("score {other} in {l}"),
            };
            assert_eq!(w[1], w[8], "the PV starts with the move: {l}");
            let pv = w[8..].iter().map(|m| m.to_string()).collect();
            (w[1].to_string(), score, w[6].parse().expect("a depth"), pv)
        })
        .collect()
}

#[test]
fn analyze_answers_the_best_moves_best_first() {
    for game in common::game_names() {
        let game = game.as_str();
        let mut e = Engine::start(&["--game", game]);
        let legal = e.gtp("legal_moves");
        let position = e.gtp("get_position");
        let lines = analysis(&e.gtp("analyze depth 3 multipv 3"));
        assert_eq!(lines.len(), 3, "{game}: {lines:?}");
        for (mv, _, depth, _) in &lines {
            assert!(legal.split(' ').any(|m| m == mv), "{game}: {mv}");
            assert_eq!(*depth, 3, "{game}");
        }
        assert!(
            lines[0].0 != lines[1].0 && lines[1].0 != lines[2].0 && lines[0].0 != lines[2].0,
            "{game}: {lines:?}"
        );
        assert!(
            lines.windows(2).all(|w| w[0].1 >= w[1].1),
            "{game}: {lines:?}"
        );
        // Nothing is played.
        assert_eq!(e.gtp("get_position"), position, "{game}");
        // One line, the move `reg_genmove` finds with the same limit and a cleared table.
        assert_eq!(e.gtp("clear_board"), "=");
        let single = analysis(&e.gtp("7 analyze depth 3").replacen("=7 ", "= ", 1));
        assert_eq!(single.len(), 1, "{game}");
        assert_eq!(e.gtp("clear_board"), "=");
        assert_eq!(e.gtp("set_option depth 3"), "=");
        assert_eq!(e.gtp("reg_genmove"), format!("= {}", single[0].0), "{game}");
        // The search-limit options bound it when it names no limit.
        let capped = analysis(&e.gtp("analyze multipv 2"));
        assert_eq!(capped.len(), 2, "{game}");
        assert!(capped.iter().all(|l| l.2 == 3), "{game}: {capped:?}");
    }
}

#[test]
fn analyze_errors_change_nothing() {
    let mut e = Engine::start(&[]);
    assert_eq!(e.gtp("play c3-d4"), "=");
    let position = e.gtp("get_position");
    for (cmd, why) in [
        ("analyze depth", "? syntax error: analyze depth needs a number"),
        ("analyze depth x", "? syntax error: analyze depth needs a number"),
        ("analyze depth -2", "? syntax error: analyze depth needs a number"),
        ("analyze depth 0", "? analyze depth must be 1..100, got 0"),
        ("analyze depth 101", "? analyze depth must be 1..100, got 101"),
        ("analyze multipv 257", "? analyze multipv must be 1..256, got 257"),
        ("analyze nodes 0", "? analyze nodes must be 1..2147483647, got 0"),
        (
            "analyze depth 2 depth 3",
            "? syntax error: analyze depth given twice",
        ),
        (
            "analyze sideways 3",
            "? syntax error: unknown analyze parameter 'sideways' (movetime, depth, nodes, multipv)",
        ),
    ] {
        assert_eq!(e.gtp(cmd), why, "{cmd}");
    }
    assert_eq!(e.gtp("get_position"), position);
    assert_eq!(e.gtp("known_command analyze"), "= true");
    assert!(e.gtp("help").contains("\nanalyze - analyze [movetime N]"));
    // A bounded search: `nodes` ends it, and it answers even when input ends right after.
    e.send("analyze nodes 3000 multipv 2");
    e.close_stdin();
    let answer = e.answer().join("\n");
    assert_eq!(analysis(&answer).len(), 2, "{answer}");
    assert_eq!(e.wait_exit(common::TIMEOUT).map(|r| r.0), Some(0));

    let mut e = Engine::start(&[]);
    assert_eq!(e.gtp("set_position W:W:Bc5"), "=");
    assert_eq!(e.gtp("analyze depth 2"), "? game is over");
}

#[test]
fn a_move_in_another_games_notation_names_the_forms_this_game_takes() {
    let mut e = Engine::start(&[]);
    assert_eq!(
        e.gtp("play e4"),
        "? illegal move: cannot parse 'e4': expected a move like c3-d4 or c3:e5"
    );
    // Every game's sample moves played in every game: each refusal of a move this game cannot
    // read says what it can read.
    let samples = [
        "e4",
        "c3-d4",
        "c5:e3",
        "h11",
        "h10-h12-j14",
        "e3-e4*",
        "(b3)",
        "swap",
        "A@c3",
        "c3-c5",
    ];
    let games = e.gtp("list_games");
    for game in games.trim_start_matches("= ").lines() {
        let mut named = 0;
        for mv in samples {
            assert_eq!(e.gtp(&format!("set_game {game}")), "=");
            let answer = e.gtp(&format!("play {mv}"));
            if answer.starts_with("? illegal move: cannot parse") {
                assert!(
                    answer.contains("': expected a move like "),
                    "{game} {mv}: {answer}"
                );
                named += 1;
            }
        }
        assert!(named > 0, "{game}: no sample was another game's form");
    }
}

#[test]
fn a_button_is_pressed_without_a_value() {
    let mut e = Engine::start(&[]);
    assert!(e.gtp("list_options").contains("\nclear_hash button"));
    assert_eq!(e.gtp("set_option clear_hash"), "=");
    assert_eq!(e.gtp("set_option Clear_Hash"), "=");
    // Other options still need their value, and say so in their own words.
    assert_eq!(
        e.gtp("set_option threads"),
        "? option threads needs a non-negative integer, got ''"
    );
    assert_eq!(e.gtp("set_option"), "? syntax error: expected NAME [VALUE]");
    assert_eq!(e.gtp("set_option depth 3"), "=");
    assert!(e.gtp("list_options").contains("\ndepth 3 spin"));
}

#[test]
fn a_ugi_handshake_after_gtp_was_chosen_names_protocol_ugi() {
    let mut e = Engine::start(&[]);
    assert_eq!(e.gtp("name"), "= tetrad");
    for word in ["uci", "ugi", "uai"] {
        let answer = e.gtp(word);
        assert!(answer.starts_with("? unknown command: "), "{answer}");
        assert!(answer.contains("--protocol ugi"), "{answer}");
    }
    assert_eq!(e.gtp("known_command uci"), "= false");
}

#[test]
fn negative_and_zero_limits_are_refused() {
    let mut e = Engine::start(&[]);
    for (cmd, why) in [
        (
            "set_option depth -3",
            "? option depth needs a non-negative integer, got '-3'",
        ),
        (
            "set_option movetime -100",
            "? option movetime needs a non-negative integer, got '-100'",
        ),
        (
            "set_option nodes -1",
            "? option nodes needs a non-negative integer, got '-1'",
        ),
        (
            "analyze movetime 0",
            "? analyze movetime must be 1..86400000, got 0",
        ),
        ("analyze depth 0", "? analyze depth must be 1..100, got 0"),
        (
            "time_settings -1 0 0",
            "? time_settings: the time must not be negative",
        ),
        (
            "time_left white -100 0",
            "? time_left: the time must not be negative",
        ),
        (
            "kgs-time_settings absolute -5",
            "? kgs-time_settings: the time must not be negative",
        ),
        ("perft -1", "? syntax error: expected a depth"),
    ] {
        assert_eq!(e.gtp(cmd), why, "{cmd}");
    }
    // 0 switches a search-limit option off, as documented.
    assert_eq!(e.gtp("set_option depth 0"), "=");
    assert!(e.gtp("list_options").contains("\ndepth 0 spin"));
}

#[test]
fn last_search_holds_the_engines_own_move_and_is_dropped_by_any_other() {
    let mut e = Engine::start(&["--game", "poddavki"]);
    assert_eq!(e.gtp("last_search"), "=");
    assert_eq!(e.gtp("set_option depth 3"), "=");
    let mv = e.gtp("genmove");
    let mv = mv.strip_prefix("= ").expect("a move").to_string();
    // The search that chose the move, its PV starting with it, after the move is played.
    let last = e.gtp("last_search");
    let prefix = "= depth 3 score ";
    assert!(last.starts_with(prefix), "{last}");
    let (score, pv) = last[prefix.len()..].split_once(" pv ").expect("a pv");
    assert!(
        score.starts_with("cp ") || score.starts_with("mate "),
        "{score}"
    );
    assert_eq!(pv.split(' ').next(), Some(mv.as_str()), "{last}");
    // Refused commands change nothing; it is asked again as often as wanted.
    assert_eq!(
        e.gtp("last_search 3"),
        "? syntax error: this command takes no arguments"
    );
    assert!(e.gtp("play zz").starts_with("? illegal move"));
    assert_eq!(e.gtp("last_search"), last);
    // A move, an undo, a new position or game drops it.
    let reply = e.gtp("legal_moves");
    let reply = reply[2..].split(' ').next().expect("a reply").to_string();
    assert_eq!(e.gtp(&format!("play {reply}")), "=");
    assert_eq!(e.gtp("last_search"), "=");
    for drop in ["undo", &format!("set_position {START}"), "clear_board"] {
        assert!(e.gtp("reg_genmove").starts_with("= "));
        assert!(e.gtp("last_search").starts_with("= depth 3 "));
        assert_eq!(e.gtp(drop), "=", "{drop}");
        assert_eq!(e.gtp("last_search"), "=", "after {drop}");
    }
}
