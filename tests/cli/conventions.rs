//! Conventions users of GTP and UCI-family engines expect, through the binary: typed options
//! declared once, search-limit options as caps, the GTP clocks, the seed, mate scores,
//! Stockfish's `d`/`eval`/`go perft`, `help`, error wording, the command line and the bench.

use crate::common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::Engine;

fn tetrad() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tetrad"))
}

/// An engine in the UGI dialect, handshake done; returns the handshake lines too.
fn ugi(args: &[&str]) -> (Engine, Vec<String>) {
    let mut e = Engine::start(args);
    e.send("uci");
    let lines = e.until("uciok");
    (e, lines)
}

/// Sends `isready` and returns every line before `readyok` (errors of the commands before).
fn settle(e: &mut Engine) -> Vec<String> {
    e.send("isready");
    let mut lines = e.until("readyok");
    lines.pop();
    lines
}

#[test]
fn every_option_is_advertised_with_its_type_whatever_the_game() {
    for game in ["diamond", "pods", "phutball"] {
        let (mut e, lines) = ugi(&["--game", game]);
        for want in [
            "option name Threads type spin default 1 min 1 max 256",
            "option name Hash type spin default 16 min 1 max 4096",
            "option name MultiPV type spin default 1 min 1 max 256",
            "option name Seed type spin default 0 min 0 max 2147483647",
            "option name MoveOverhead type spin default 50 min 0 max 60000",
            "option name Ponder type check default false",
            "option name Depth type spin default 0 min 0 max 100",
            "option name Clear Hash type button",
            "option name draw_repetition type check default true",
            "option name draw_no_progress type check default true",
            "option name pods_data type string default builtin",
            "option name pods_rotation type combo default 0 var 0 var 90 var 180 var 270",
        ] {
            assert!(
                lines.iter().any(|l| l == want),
                "{game}: {want} in {lines:?}"
            );
        }
        let variant = lines
            .iter()
            .find(|l| l.starts_with("option name UCI_Variant "))
            .expect("UCI_Variant");
        let canonical = if game == "pods" {
            "pods-standard"
        } else {
            game
        };
        assert_eq!(
            *variant,
            format!(
                "option name UCI_Variant type combo default {canonical} var {}",
                common::every_game().join(" var ")
            )
        );
        // Another game's option is checked now and applies when that game is selected.
        e.send("setoption name draw_repetition value maybe");
        e.send("setoption name draw_repetition value false");
        e.send("setoption name UCI_Variant value poddavki");
        assert_eq!(
            settle(&mut e),
            vec!["info string error: option draw_repetition needs true or false, got 'maybe'"]
        );
        e.send("uci");
        let lines = e.until("uciok");
        assert!(lines.contains(&"option name draw_repetition type check default false".into()));
        assert!(lines
            .iter()
            .any(|l| l.contains("UCI_Variant type combo default poddavki ")));
    }
}

#[test]
fn the_seed_range_advertised_is_the_range_accepted() {
    let (mut e, _) = ugi(&[]);
    e.send("setoption name Seed value 2147483647");
    e.send("setoption name Seed value 2147483648");
    e.send("setoption name Hash value 0");
    assert_eq!(
        settle(&mut e),
        vec![
            "info string error: option Seed must be 0..2147483647, got 2147483648",
            "info string error: option Hash must be 1..4096, got 0",
        ]
    );
    let mut g = Engine::start(&[]);
    assert_eq!(
        g.gtp("set_option seed 2147483648"),
        "? option seed must be 0..2147483647, got 2147483648"
    );
    assert_eq!(g.gtp("set_option seed 2147483647"), "=");
}

#[test]
fn gtp_lists_the_same_options() {
    let mut e = Engine::start(&[]);
    let list = e.gtp("list_options");
    let games = common::every_game();
    let game = format!("game {} combo {}", games[0], games.join("|"));
    for want in [
        game.as_str(),
        "seed 0 spin 0..2147483647",
        "depth 0 spin 0..100 (0 = off)",
        "ponder false check",
        "clear_hash button",
        "draw_repetition true check",
        "pods_rotation 0 combo 0|90|180|270",
    ] {
        assert!(
            list.trim_start_matches("= ").lines().any(|l| l == want),
            "{want} in {list}"
        );
    }
    // A Pods option set during Poddavki applies when Pods is selected.
    assert_eq!(e.gtp("set_option pods_rotation 90"), "=");
    assert_eq!(e.gtp("set_option game Pods"), "=");
    assert!(e.gtp("get_position").ends_with(" 90"));
}

#[test]
fn byo_yomi_without_time_left_thinks_for_its_period() {
    let mut e = Engine::start(&[]);
    // 0.4 s per move: a search that ignored the period would answer in a millisecond.
    assert_eq!(e.gtp("time_settings 0 0.4 1"), "=");
    let t = Instant::now();
    assert!(e.gtp("genmove").starts_with("= "));
    let took = t.elapsed();
    assert!(took >= Duration::from_millis(250), "took {took:?}");
    assert_eq!(
        e.gtp("time_left white -5 0"),
        "? time_left: the time must not be negative"
    );
    assert_eq!(
        e.gtp("time_settings -1 0 0"),
        "? time_settings: the time must not be negative"
    );
    assert_eq!(
        e.gtp("kgs-time_settings byoyomi 10 -2 3"),
        "? kgs-time_settings: the time must not be negative"
    );
    assert_eq!(e.gtp("kgs-time_settings canadian 0 0.4 1"), "=");
    assert_eq!(e.gtp("time_left black 0.4 1"), "=");
    assert!(e.gtp("reg_genmove").starts_with("= "));
}

#[test]
fn search_limit_options_cap_the_clock() {
    let (mut e, _) = ugi(&[]);
    e.send("setoption name depth value 3");
    e.send("position startpos");
    e.send("go p1time 60000 p2time 60000");
    let lines = e.until("bestmove");
    let depths: Vec<u32> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("info depth "))
        .filter_map(|l| l.split(' ').next()?.parse().ok())
        .collect();
    assert_eq!(depths.last(), Some(&3), "{lines:?}");
    // The smaller limit wins either way.
    e.send("go depth 2");
    let lines = e.until("bestmove");
    assert!(lines.iter().any(|l| l.starts_with("info depth 2 ")));
    assert!(!lines.iter().any(|l| l.starts_with("info depth 3 ")));
    e.send("setoption name depth value 0");
    e.send("setoption name nodes value 1");
    e.send("go depth 20");
    let lines = e.until("bestmove");
    assert!(
        !lines.iter().any(|l| l.starts_with("info depth 2 ")),
        "{lines:?}"
    );
}

fn bestmove_and_nodes(e: &mut Engine, seed: u64) -> (String, u64) {
    e.send(&format!("setoption name Seed value {seed}"));
    e.send("ucinewgame");
    e.send("position startpos");
    e.send("go depth 3");
    let lines = e.until("bestmove");
    let nodes = lines
        .iter()
        .rev()
        .find_map(|l| l.split(" nodes ").nth(1)?.split(' ').next()?.parse().ok())
        .expect("an info line");
    (lines.last().cloned().unwrap_or_default(), nodes)
}

#[test]
fn the_seed_changes_the_choice_among_equal_moves_and_nothing_else() {
    let (mut e, _) = ugi(&["--game", "diamond"]);
    // The hand-written evaluation scores many first placements alike; the learned one finds
    // one best at depth 3.
    e.send("setoption name eval value classic");
    let runs: Vec<(String, u64)> = (0..6).map(|s| bestmove_and_nodes(&mut e, s)).collect();
    let mut moves: Vec<&str> = runs.iter().map(|r| r.0.as_str()).collect();
    moves.sort_unstable();
    moves.dedup();
    assert!(moves.len() > 1, "{runs:?}");
    // Seed 0 is the game's own order; any seed is repeatable.
    assert_eq!(bestmove_and_nodes(&mut e, 0), runs[0]);
    assert_eq!(bestmove_and_nodes(&mut e, 3), runs[3]);
}

#[test]
fn proven_wins_are_reported_as_mate_in_moves() {
    for (game, fen) in [
        (
            "phutball",
            "15/15/7X7/7X7/15/7X7/15/7X7/15/7X7/7O7/15/15/15/15/15/15/15/15/15/15 r",
        ),
        ("diamond", "7/8/1B6/1BB1W3/3WW3/8/8/7 b 9 9 0"),
    ] {
        let (mut e, _) = ugi(&[]);
        e.send(&format!("setoption name UCI_Variant value {game}"));
        e.send(&format!("position fen {fen}"));
        e.send("go depth 4");
        let lines = e.until("bestmove");
        let last = &lines[lines.len() - 2];
        assert!(last.starts_with("info depth "), "{game}: {lines:?}");
        assert!(last.contains(" score mate 1 "), "{game}: {last}");
        assert!(last.contains(" seldepth "), "{last}");
        assert!(last.contains(" hashfull "), "{last}");
    }
}

#[test]
fn d_eval_and_go_perft_as_in_stockfish() {
    let (mut e, _) = ugi(&[]);
    e.send("position startpos moves c3-d4");
    e.send("d");
    let lines = e.until("Side to move:");
    assert!(lines.contains(
        &"Position: B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,d4:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
            .to_string()
    ));
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Side to move: black")
    );
    e.send("eval");
    let lines = e.until("Total evaluation:");
    let terms: i32 = lines[..lines.len() - 2]
        .iter()
        .filter_map(|l| l.rsplit(' ').next()?.parse::<i32>().ok())
        .sum();
    assert!(lines.iter().any(|l| l.starts_with("man mobility ")));
    assert_eq!(
        lines.last().cloned().unwrap_or_default(),
        format!("Total evaluation: {terms} (for black, the side to move)")
    );
    e.send("position startpos");
    e.send("go perft 3");
    let lines = e.until("Nodes searched:");
    assert_eq!(lines.len(), 9, "{lines:?}");
    assert_eq!(lines[7], "");
    assert_eq!(lines[8], "Nodes searched: 302");
    let split: u64 = lines[..7]
        .iter()
        .map(|l| {
            let (_, n) = l.split_once(": ").expect("move: count");
            n.parse::<u64>().expect("count")
        })
        .sum();
    assert_eq!(split, 302);
    assert!(lines[0].starts_with("a3-b4: "));
    assert_eq!(e.line(), "");
    // A game without listed terms prints its total only.
    e.send("setoption name UCI_Variant value diamond");
    e.send("eval");
    let total = e.line();
    assert!(
        total.starts_with("Total evaluation: ")
            && total.ends_with(" (for black, the side to move)"),
        "{total}"
    );
}

#[test]
fn bestmove_names_a_ponder_move_only_when_asked() {
    let (mut e, _) = ugi(&[]);
    e.send("position startpos");
    e.send("go depth 4");
    let plain = e.until("bestmove").pop().unwrap_or_default();
    assert_eq!(plain.split(' ').count(), 2, "{plain}");
    e.send("setoption name Ponder value true");
    e.send("go depth 4");
    let lines = e.until("bestmove");
    let best: Vec<&str> = lines[lines.len() - 1].split(' ').collect();
    let pv: Vec<&str> = lines[lines.len() - 2]
        .split(" pv ")
        .nth(1)
        .unwrap_or_default()
        .split(' ')
        .collect();
    assert_eq!(best, ["bestmove", pv[0], "ponder", pv[1]], "{lines:?}");
}

#[test]
fn gtp_help_and_errors_that_say_what_was_wrong() {
    let mut e = Engine::start(&[]);
    let names = e.gtp("list_commands");
    let help = e.gtp("help");
    let names: Vec<&str> = names.trim_start_matches("= ").lines().collect();
    let described: Vec<&str> = help
        .trim_start_matches("= ")
        .lines()
        .map(|l| l.split_once(" - ").expect("name - description").0)
        .collect();
    assert_eq!(names, described);
    assert_eq!(e.gtp("known_command help"), "= true");
    assert_eq!(
        e.gtp("play a3-b4 extra"),
        "? unexpected text after the move: 'extra'"
    );
    assert_eq!(
        e.gtp("play w a3-b4 x y"),
        "? unexpected text after the move: 'x y'"
    );
    assert_eq!(e.gtp("play purple a3-b4"), "? invalid side 'purple'");
    assert_eq!(
        e.gtp("play black b6-a5"),
        "? illegal move: it is white's turn"
    );
    assert_eq!(
        e.gtp("set_position W:Wb1"),
        "? invalid position: b1 is a light square"
    );
    assert_eq!(
        e.gtp("set_game chess"),
        format!(
            "? unknown game 'chess' (valid: {})",
            common::every_game().join(", ")
        )
    );
}

#[test]
fn command_line_names_are_case_insensitive_and_every_flag_is_explained() {
    let mut e = Engine::start(&["--game", "Diamond", "--protocol", "UGI"]);
    e.send("d");
    assert_eq!(
        e.until("Position:").pop().as_deref(),
        Some("Position: 7/8/8/8/8/8/8/7 b 12 12 0")
    );

    let help = tetrad().arg("--help").output().expect("tetrad --help");
    let help = String::from_utf8_lossy(&help.stdout).to_string();
    for flag in [
        "--game",
        "--protocol",
        "--seed",
        "--threads",
        "--hash",
        "--pods-data",
        "--after-eof",
    ] {
        let line = help
            .lines()
            .find(|l| l.trim_start().starts_with(flag))
            .unwrap_or_else(|| panic!("{flag} in {help}"));
        let text = line.split_once('>').map_or("", |(_, t)| t).trim();
        assert!(text.len() > 10, "{flag} has no description: {line}");
    }

    let out = tetrad().args(["--game", "chess"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("unknown game 'chess' (valid: poddavki, phutball,"),
        "{err}"
    );
}

#[test]
fn bench_refuses_an_unknown_game_and_ends_quietly_when_its_reader_stops() {
    let out = tetrad()
        .args(["bench", "--game", "xx"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown game 'xx' (valid: poddavki,"), "{err}");

    // `tetrad bench | head -1`.
    let mut child = tetrad()
        .args(["bench", "--quick", "--game", "poddavki"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let mut first = String::new();
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    stdout.read_line(&mut first).expect("a line");
    assert!(first.starts_with("poddavki"));
    drop(stdout);
    let out = child.wait_with_output().expect("exits");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");

    // Every quick item does some work; the signature says what it is.
    let out = tetrad()
        .args(["bench", "--quick", "--game", "pods"])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    for line in text.lines().filter(|l| l.starts_with("pods-standard")) {
        let count: u64 = line
            .split_whitespace()
            .skip_while(|w| *w != "leaves" && *w != "nodes")
            .nth(1)
            .and_then(|n| n.parse().ok())
            .unwrap_or(u64::MAX);
        assert!(count >= 200, "{line}");
    }
    assert!(text.contains("Search signature   : "));
    assert!(text.contains("(total nodes of the fixed-depth searches)"));
}
