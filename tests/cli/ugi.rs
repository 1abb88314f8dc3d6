//! UGI dialect through the binary: handshake, position/go/stop, queries, errors, clocks, EOF.

use crate::common;

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
    // A refused position is the exception: then there is none (see below).
    e.send("position startpos moves c3-d4 c3-d4");
    assert!(e.line().starts_with("info string error: illegal move"));
    e.send("position fen nonsense");
    assert!(e.line().starts_with("info string error: invalid position"));
    e.send("query p1turn");
    assert!(e
        .line()
        .starts_with("info string error: no position (invalid position"));
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
    assert!(t.elapsed() < Duration::from_secs(10));
    e.send("stop");
    let lines = e.until("bestmove");
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove")).count(),
        1
    );
    // Generous bound: this checks liveness; the 50 ms figure is measured by the bench notes.
    assert!(t.elapsed() < Duration::from_secs(10));
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
    let (code, _) = e.wait_exit(Duration::from_secs(10)).expect("exits");
    assert_eq!(code, 0);
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

#[test]
fn a_refused_position_leaves_no_position_until_a_valid_one() {
    let mut e = Engine::start(&[]);
    e.send("uci");
    e.until("uciok");
    e.send("position startpos moves c3-d4");
    e.send("go depth 2");
    assert_ne!(
        e.until("bestmove").last().map(String::as_str),
        Some("bestmove (none)")
    );
    // UCI_Variant forgotten: a Diamond move in Poddavki.
    e.send("position startpos moves e4");
    let why = e.line();
    assert!(why.starts_with("info string error: illegal move"), "{why}");
    let why = why.trim_start_matches("info string error: ").to_string();
    e.send("go depth 2");
    assert_eq!(e.line(), format!("info string error: no position ({why})"));
    assert_eq!(e.line(), "bestmove (none)");
    e.send("query gameover");
    assert_eq!(e.line(), "response true");
    e.send("query result");
    assert_eq!(e.line(), "response none");
    e.send("position fen nonsense");
    assert!(e.line().starts_with("info string error: invalid position"));
    e.send("go movetime 50");
    assert!(e
        .line()
        .starts_with("info string error: no position (invalid position"));
    assert_eq!(e.line(), "bestmove (none)");
    e.send("position startpos");
    e.send("query gameover");
    assert_eq!(e.line(), "response false");
    e.send("go depth 1");
    assert_ne!(
        e.until("bestmove").last().map(String::as_str),
        Some("bestmove (none)")
    );
}

/// `info` lines without their `time` and `nps` figures.
fn searched(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .map(|l| {
            let mut words = l.split(' ').collect::<Vec<_>>();
            for key in ["time", "nps"] {
                if let Some(i) = words.iter().position(|w| *w == key) {
                    words.drain(i..(i + 2).min(words.len()));
                }
            }
            words.join(" ")
        })
        .collect()
}

#[test]
fn the_hash_table_is_ready_before_the_first_search() {
    let mut e = Engine::start(&[]);
    e.send("uci");
    e.until("uciok");
    e.send("isready");
    e.until("readyok");
    let before = e.rss_kib().expect("rss readable");
    e.send("go nodes 30000");
    let first = searched(&e.until("bestmove"));
    let after = e.rss_kib().expect("rss readable");
    // The 16 MiB table (12 MiB of entries) was there already: the search allocated no table.
    assert!(
        before > 10 * 1024,
        "rss {before} KiB before the first search"
    );
    assert!(after < before + 4 * 1024, "rss {before} -> {after} KiB");
    // Allocated, cleared and timed alike, the first search and the next are the same search.
    e.send("ucinewgame");
    e.send("go nodes 30000");
    assert_eq!(searched(&e.until("bestmove")), first);
    // A new size is allocated when it is set.
    e.send("setoption name Hash value 64");
    e.send("isready");
    e.until("readyok");
    let resized = e.rss_kib().expect("rss readable");
    assert!(resized > 40 * 1024, "rss {resized} KiB with Hash 64");
}

/// A `go perft` no one could wait for (hours even at full speed, so it is still running when
/// the next line arrives) ends at `stop` with an error and the engine reads on; at `quit` the
/// engine exits.
#[test]
fn go_perft_stops_at_stop_and_at_quit() {
    for variant in ["poddavki", "diamond", "pods-standard"] {
        let mut e = Engine::start(&[]);
        e.send("uci");
        e.until("uciok");
        e.send(&format!("setoption name UCI_Variant value {variant}"));
        e.send("position startpos");
        e.send("go perft 20");
        e.send("stop");
        let lines = e.until("info string error: perft interrupted");
        assert!(
            !lines.iter().any(|l| l.starts_with("Nodes searched")),
            "{lines:?}"
        );
        e.send("isready");
        assert_eq!(
            e.until("readyok").last().map(String::as_str),
            Some("readyok")
        );

        e.send("go perft 20");
        e.send("quit");
        let exit = e.wait_exit(common::TIMEOUT).map(|r| r.0);
        assert_eq!(exit, Some(0), "{variant}");
    }
}

fn ugi_engine(game: &str) -> Engine {
    let mut e = Engine::start(&[]);
    e.send("uci");
    e.until("uciok");
    e.send(&format!("setoption name UCI_Variant value {game}"));
    e
}

/// The legal moves after `moves` from the start, asked of a GTP engine.
fn legal_after(game: &str, moves: &[&str]) -> Vec<String> {
    let mut g = Engine::start(&["--game", game]);
    for m in moves {
        assert_eq!(g.gtp(&format!("play {m}")), "=", "{game}: play {m}");
    }
    let list = g.gtp("legal_moves");
    list.trim_start_matches('=')
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// The word after `key` in an `info` line.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let words: Vec<&str> = line.split(' ').collect();
    let i = words.iter().position(|w| *w == key)?;
    words.get(i + 1).copied()
}

/// A score as one comparable number: mates beyond every centipawn score, nearer ones higher.
fn score_value(line: &str) -> i64 {
    let score: Vec<&str> = line
        .split(" score ")
        .nth(1)
        .expect("a score")
        .split(' ')
        .take(2)
        .collect();
    let n: i64 = score[1].parse().expect("a number");
    match score[0] {
        "mate" if n > 0 => 1_000_000 - n,
        "mate" => -1_000_000 - n,
        _ => n,
    }
}

fn pv_of(line: &str) -> Vec<&str> {
    line.split(" pv ")
        .nth(1)
        .map(|pv| pv.split(' ').collect())
        .unwrap_or_default()
}

#[test]
fn multipv_3_gives_three_distinct_moves_per_depth_best_first() {
    for game in common::game_names() {
        let game = game.as_str();
        let legal = legal_after(game, &[]);
        let mut e = ugi_engine(game);
        e.send("setoption name MultiPV value 3");
        e.send("position startpos");
        e.send("go depth 3");
        let lines = e.until("bestmove");
        let best = lines.last().expect("bestmove").clone();
        for depth in 1..=3 {
            let at: Vec<&String> = lines
                .iter()
                .filter(|l| l.starts_with(&format!("info depth {depth} ")))
                .collect();
            assert_eq!(at.len(), 3, "{game} depth {depth}: {lines:?}");
            for (k, l) in at.iter().enumerate() {
                assert_eq!(field(l, "multipv"), Some((k + 1).to_string().as_str()));
            }
            let moves: Vec<&str> = at.iter().map(|l| pv_of(l)[0]).collect();
            assert!(
                moves.iter().all(|m| legal.iter().any(|x| x == m)),
                "{game}: {moves:?}"
            );
            assert!(
                moves[0] != moves[1] && moves[1] != moves[2] && moves[0] != moves[2],
                "{game} depth {depth}: {moves:?}"
            );
            let scores: Vec<i64> = at.iter().map(|l| score_value(l)).collect();
            assert!(
                scores.windows(2).all(|w| w[0] >= w[1]),
                "{game} depth {depth}: {at:?}"
            );
            if depth == 3 {
                assert_eq!(best, format!("bestmove {}", moves[0]), "{game}");
            }
        }
    }
}

#[test]
fn multipv_1_is_the_single_pv_search() {
    let run = |multipv: Option<&str>| {
        let mut e = ugi_engine("diamond");
        if let Some(k) = multipv {
            e.send("setoption name MultiPV value 2");
            e.send(&format!("setoption name MultiPV value {k}"));
        }
        e.send("position startpos moves e4");
        e.send("go depth 5");
        searched(&e.until("bestmove"))
    };
    let plain = run(None);
    assert!(plain.iter().all(|l| !l.contains(" multipv ")), "{plain:?}");
    assert_eq!(run(Some("1")), plain);
    // More lines than moves: as many as there are (here White's one capture).
    let mut e = ugi_engine("poddavki");
    e.send("setoption name MultiPV value 256");
    e.send("position startpos moves c3-d4 f6-e5");
    e.send("go depth 2");
    let lines = e.until("bestmove");
    let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info ")).collect();
    assert_eq!(infos.len(), 2, "{lines:?}");
    assert!(
        infos
            .iter()
            .all(|l| field(l, "multipv") == Some("1") && pv_of(l)[0] == "d4:f6"),
        "{lines:?}"
    );
    e.send("setoption name MultiPV value 0");
    assert_eq!(
        e.line(),
        "info string error: option MultiPV must be 1..256, got 0"
    );
}

/// `bestmove M [ponder P]`: M is legal after `moves`, and P after M. `ponder`: whether the
/// `ponder P` must be there (`None`: it may, the search may have been stopped before it had a
/// reply).
fn check_bestmove(game: &str, moves: &[&str], line: &str, ponder: Option<bool>) {
    let words: Vec<&str> = line.split(' ').collect();
    assert_eq!(words[0], "bestmove", "{game}: {line}");
    assert!(
        legal_after(game, moves).iter().any(|m| m == words[1]),
        "{game}: {line}"
    );
    let with_ponder = words.len() > 2;
    if let Some(want) = ponder {
        assert_eq!(with_ponder, want, "{game}: {line}");
    }
    if with_ponder {
        assert_eq!(words.len(), 4, "{game}: {line}");
        assert_eq!(words[2], "ponder", "{game}: {line}");
        let mut after = moves.to_vec();
        after.push(words[1]);
        assert!(
            legal_after(game, &after).iter().any(|m| m == words[3]),
            "{game}: {line}"
        );
    } else {
        assert_eq!(words.len(), 2, "{game}: {line}");
    }
}

/// Reads up to the `bestmove`, then checks that no second one follows.
fn one_bestmove(e: &mut Engine) -> String {
    let best = e.until("bestmove").pop().expect("bestmove");
    e.send("isready");
    let rest = e.until("readyok");
    assert!(rest.iter().all(|l| !l.starts_with("bestmove")), "{rest:?}");
    best
}

#[test]
fn ponder_sessions_end_with_one_legal_bestmove_in_every_game() {
    for game in common::game_names() {
        let game = game.as_str();
        let mut e = ugi_engine(game);
        e.send("setoption name Ponder value true");
        e.send("position startpos");
        e.send("go depth 3");
        let first = one_bestmove(&mut e);
        check_bestmove(game, &[], &first, Some(true));
        let words: Vec<&str> = first.split(' ').collect();
        let (m, p) = (words[1], words[3]);
        let pos = format!("position startpos moves {m} {p}");

        // The expected reply came: ponderhit, then a small clock decides.
        e.send(&pos);
        e.send("go ponder wtime 300 btime 300");
        e.send("ponderhit");
        let best = one_bestmove(&mut e);
        check_bestmove(game, &[m, p], &best, None);

        // Another reply came: stop, and the bestmove is printed all the same.
        e.send(&pos);
        e.send("go ponder wtime 60000 btime 60000");
        e.send("stop");
        let best = one_bestmove(&mut e);
        check_bestmove(game, &[m, p], &best, None);

        // Without Ponder, bestmove keeps its two tokens.
        e.send("setoption name Ponder value false");
        e.send(&pos);
        e.send("go ponder");
        e.send("stop");
        let best = one_bestmove(&mut e);
        check_bestmove(game, &[m, p], &best, Some(false));
    }
}

/// A search whose PV is one move long still names the expected reply when the table knows the
/// position after its move: here the earlier, deeper search left it there.
#[test]
fn a_one_move_pv_takes_the_expected_reply_from_the_table() {
    for game in common::game_names() {
        let game = game.as_str();
        let mut e = ugi_engine(game);
        e.send("setoption name Ponder value true");
        e.send("position startpos");
        e.send("go depth 4");
        one_bestmove(&mut e);
        e.send("go depth 1");
        let lines = e.until("bestmove");
        let pv_len = lines
            .iter()
            .rfind(|l| l.starts_with("info depth 1 "))
            .map(|l| pv_of(l).len());
        assert_eq!(pv_len, Some(1), "{game}: {lines:?}");
        let best = lines.last().expect("bestmove");
        check_bestmove(game, &[], best, Some(true));
    }
}

#[test]
fn a_pondering_search_holds_its_bestmove_until_ponderhit() {
    let mut e = ugi_engine("poddavki");
    e.send("position startpos moves c3-d4 f6-e5");
    e.send("go ponder depth 3");
    e.until("info depth 3 ");
    // The search has ended; its move waits for the reply to be confirmed.
    e.send("isready");
    let lines = e.until("readyok");
    assert!(
        lines.iter().all(|l| !l.starts_with("bestmove")),
        "{lines:?}"
    );
    e.send("ponderhit");
    let best = one_bestmove(&mut e);
    check_bestmove("poddavki", &["c3-d4", "f6-e5"], &best, Some(false));
    // `ponderhit` with nothing pondering is ignored.
    e.send("ponderhit");
    e.send("isready");
    assert_eq!(e.line(), "readyok");
}

#[test]
fn quit_and_end_of_input_end_a_pondering_search() {
    let mut e = ugi_engine("diamond");
    e.send("position startpos moves e4");
    e.send("go ponder wtime 60000 btime 60000");
    e.send("quit");
    let rest = e.rest();
    assert_eq!(
        rest.iter().filter(|l| l.starts_with("bestmove ")).count(),
        1,
        "{rest:?}"
    );
    assert_eq!(e.wait_exit(common::TIMEOUT).map(|r| r.0), Some(0));

    let mut e = ugi_engine("diamond");
    e.send("position startpos moves e4");
    e.send("go ponder wtime 60000 btime 60000");
    e.close_stdin();
    let rest = e.rest();
    assert_eq!(
        rest.iter().filter(|l| l.starts_with("bestmove ")).count(),
        1,
        "{rest:?}"
    );
    assert_eq!(e.wait_exit(common::TIMEOUT).map(|r| r.0), Some(0));
}

#[test]
fn comments_a_byte_order_mark_and_isready_leave_the_dialect_to_the_handshake() {
    // A comment first, a byte-order mark (an editor's, before a command file's first line),
    // an `isready` before the handshake: the handshake that follows still chooses UGI.
    for first in [
        &b"# set up by a script\n"[..],
        b"\xef\xbb\xbf",
        b"isready\n",
    ] {
        let mut e = Engine::start(&[]);
        e.send_bytes(first);
        e.send("uci");
        let lines = e.until("uciok");
        let readyok = usize::from(first == b"isready\n");
        assert!(lines[..readyok].iter().all(|l| l == "readyok"), "{lines:?}");
        assert_eq!(lines[readyok], "id name tetrad", "{first:?}: {lines:?}");
        e.send("isready");
        assert_eq!(e.line(), "readyok");
    }
    // And GTP after them is GTP.
    for first in [&b"# a comment\n"[..], b"\xef\xbb\xbf", b"isready\n"] {
        let mut e = Engine::start(&[]);
        e.send_bytes(first);
        if first == b"isready\n" {
            assert_eq!(e.line(), "readyok");
        }
        assert_eq!(e.gtp("name"), "= tetrad", "{first:?}");
        assert_eq!(e.gtp("protocol_version"), "= 2");
    }
}

#[test]
fn limits_that_leave_nothing_to_search_are_refused() {
    let mut e = Engine::start(&[]);
    e.send("uci");
    e.until("uciok");
    e.send("position startpos");
    for (go, why) in [
        ("go depth -3", "go depth must be at least 1, got -3"),
        ("go depth 0", "go depth must be at least 1, got 0"),
        ("go nodes 0", "go nodes must be at least 1, got 0"),
        ("go movetime 0", "go movetime must be at least 1, got 0"),
        (
            "go movetime -100",
            "go movetime must be at least 1, got -100",
        ),
        ("go movestogo 0", "go movestogo must be at least 1, got 0"),
        ("go mate 0", "go mate must be at least 1, got 0"),
        (
            "go wtime 1000 winc -10",
            "go winc must not be negative, got -10",
        ),
        (
            "go p1time 1000 p1inc -1",
            "go p1inc must not be negative, got -1",
        ),
    ] {
        e.send(go);
        assert_eq!(e.line(), format!("info string error: {why}"), "{go}");
        // Refused, so nothing searched and no `bestmove`.
        e.send("isready");
        assert_eq!(e.line(), "readyok", "{go}");
    }
    // A clock that has run past zero is said to be wrong, and a move still comes.
    e.send("go wtime -100 btime 1000 depth 1");
    assert_eq!(
        e.line(),
        "info string error: go wtime -100: a clock below zero counts as 0"
    );
    let lines = e.until("bestmove");
    assert_ne!(lines.last().map(String::as_str), Some("bestmove (none)"));
}

#[test]
fn with_no_position_every_command_that_reads_it_says_so() {
    let mut e = Engine::start(&[]);
    e.send("uci");
    e.until("uciok");
    e.send("position startpos moves c3-d4 f6-e5");
    e.send("position startpos moves zz");
    let why = e.line();
    assert!(why.starts_with("info string error: illegal move"), "{why}");
    let none = format!(
        "info string error: no position ({})",
        why.trim_start_matches("info string error: ")
    );
    e.send("go depth 1");
    assert_eq!(e.line(), none);
    assert_eq!(e.line(), "bestmove (none)");
    for cmd in ["go perft 1", "d", "eval"] {
        e.send(cmd);
        assert_eq!(e.line(), none, "{cmd}");
    }
    // An arbiter waits for its `response`: every query gets one.
    e.send("query p1turn");
    assert_eq!(e.line(), none);
    assert_eq!(e.line(), "response false");
    e.send("query gameover");
    assert_eq!(e.line(), "response true");
    e.send("query result");
    assert_eq!(e.line(), "response none");
    e.send("query sideways");
    assert_eq!(e.line(), "info string error: unknown query 'sideways'");
    assert_eq!(e.line(), "response none");
    e.send("isready");
    assert_eq!(e.line(), "readyok");
    // A valid position ends it.
    e.send("position startpos moves c3-d4 f6-e5");
    e.send("go perft 1");
    assert_eq!(e.line(), "d4:f6: 1");
}

#[test]
fn a_query_without_a_known_word_still_gets_its_response() {
    let mut e = Engine::start(&[]);
    e.send("uci");
    e.until("uciok");
    e.send("position startpos");
    let needs = "info string error: query needs one of gameover, p1turn, result";
    for (cmd, error) in [
        ("query", needs.to_string()),
        ("query   ", needs.to_string()),
        (
            "query gameover now",
            "info string error: unknown query 'gameover now'".to_string(),
        ),
    ] {
        e.send(cmd);
        assert_eq!(e.line(), error, "{cmd:?}");
        assert_eq!(e.line(), "response none", "{cmd:?}");
    }
    e.send("query gameover");
    assert_eq!(e.line(), "response false");
}
