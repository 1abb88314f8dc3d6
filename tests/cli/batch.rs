//! Batch input through the binary: a command file piped in at once gets exactly the answers it
//! gets when each line is typed after the previous answer, and the end of input cuts nothing
//! short. Time is only ever bounded from below here, except for generous liveness bounds.

use crate::common;

use std::time::{Duration, Instant};

use common::Engine;

/// Every game, from the registry.
fn games() -> &'static [&'static str] {
    common::every_game()
}

/// Generous: these bound liveness under any load, not speed.
const LIVENESS: Duration = Duration::from_secs(10);

/// The whole output of `input` written at once, then end of input; with the time from writing
/// to the engine's exit.
fn piped(input: &str) -> (Vec<String>, Duration) {
    let mut e = Engine::start(&[]);
    let t = Instant::now();
    e.send_bytes(input.as_bytes());
    e.close_stdin();
    let out = e.rest();
    let (code, _) = e.wait_exit(LIVENESS).expect("the engine exits");
    assert_eq!(code, 0, "exit status after {input:?}");
    (out, t.elapsed())
}

/// The same GTP session typed: each line sent once the previous answer is complete.
fn typed_gtp(input: &str) -> Vec<String> {
    let mut e = Engine::start(&[]);
    let mut out = Vec::new();
    for line in input.lines() {
        e.send(line);
        out.extend(e.answer());
        out.push(String::new());
        if line == "quit" {
            assert!(e.wait_exit(LIVENESS).is_some(), "exit after quit");
        }
    }
    out
}

fn gtp_file(game: &str) -> String {
    [
        &format!("set_game {game}"),
        "set_option depth 3",
        "genmove",
        "perft 2",
        "legal_moves",
        "showboard",
        "undo",
        "get_position",
        "genmove",
        "reg_genmove",
        "showboard",
        "undo",
        "undo",
        "legal_moves",
        "game_result",
        "quit",
    ]
    .map(|l| format!("{l}\n"))
    .concat()
}

#[test]
fn piped_and_typed_gtp_sessions_answer_the_same_in_every_game() {
    for game in games() {
        let file = gtp_file(game);
        let typed = typed_gtp(&file);
        let (piped, _) = piped(&file);
        assert_eq!(piped, typed, "{game}");
        // The genmove searched: its answer is a move, the perft a count.
        assert!(typed[4].starts_with("= "), "{game}: {typed:?}");
        assert!(typed[6].starts_with("= ") && typed[6][2..].parse::<u64>().is_ok());
    }
}

#[test]
fn a_piped_genmove_uses_its_whole_move_time() {
    let (out, took) = piped("set_option movetime 700\ngenmove\n");
    assert_eq!(out.len(), 4, "{out:?}");
    assert!(out[2].starts_with("= "), "{out:?}");
    assert!(took >= Duration::from_millis(600), "took {took:?}");
}

#[test]
fn gtp_quit_waits_for_the_perft_and_genmove_before_it() {
    // Typed, each answer comes before the next line is sent; piped, `quit` is read while the
    // perft runs and still waits its turn.
    let file = "set_game diamond\n7 perft 3\nset_option depth 4\n8 genmove\n9 quit\nname\n";
    let (out, _) = piped(file);
    let typed = typed_gtp("set_game diamond\n7 perft 3\nset_option depth 4\n8 genmove\n9 quit\n");
    assert_eq!(out, typed);
    assert!(out[2].starts_with("=7 "), "{out:?}");
    assert_eq!(out.last().map(String::as_str), Some(""));
    assert_eq!(out[out.len() - 2], "=9", "nothing after quit: {out:?}");
}

fn bestmoves(lines: &[String]) -> Vec<&String> {
    lines.iter().filter(|l| l.starts_with("bestmove")).collect()
}

#[test]
fn piped_ugi_go_depth_finds_the_typed_move() {
    let setup = "uci\nsetoption name UCI_Variant value diamond\nposition startpos moves e4\n";
    let mut e = Engine::start(&[]);
    for l in setup.lines() {
        e.send(l);
    }
    e.send("go depth 6");
    let typed: Vec<String> = e.until("bestmove");
    let (out, _) = piped(&format!("{setup}go depth 6\n"));
    assert_eq!(bestmoves(&out), bestmoves(&typed));
    assert_eq!(bestmoves(&out).len(), 1);
    assert!(
        out.iter().any(|l| l.starts_with("info depth 6 ")),
        "{out:?}"
    );
}

#[test]
fn piped_ugi_go_movetime_answers_once_after_its_time() {
    let (out, took) = piped("uci\nposition startpos\ngo movetime 700\n");
    assert_eq!(bestmoves(&out).len(), 1, "{out:?}");
    assert!(out.last().is_some_and(|l| l.starts_with("bestmove")));
    assert!(took >= Duration::from_millis(600), "took {took:?}");
}

#[test]
fn end_of_input_stops_go_infinite_with_a_bestmove() {
    let (out, took) = piped("uci\nposition startpos\ngo infinite\n");
    assert_eq!(bestmoves(&out).len(), 1, "{out:?}");
    assert!(took < LIVENESS, "took {took:?}");
    eprintln!("go infinite, then end of input: exit after {took:?}");
}

#[test]
fn ugi_quit_stops_the_search_it_reaches_and_prints_its_bestmove() {
    // The first search runs in full (reading ahead shortens nothing); `quit` stops the second,
    // which would otherwise run for ages, once it has started.
    let (out, took) = piped("uci\nposition startpos\ngo depth 4\ngo depth 60\nquit\nisready\n");
    assert!(
        out.iter().any(|l| l.starts_with("info depth 4 ")),
        "{out:?}"
    );
    assert_eq!(bestmoves(&out).len(), 2, "{out:?}");
    assert!(out.last().is_some_and(|l| l.starts_with("bestmove")));
    assert!(took < LIVENESS, "took {took:?}");
}

#[test]
fn a_search_read_ahead_is_timed_from_when_it_starts() {
    // The second `go` is read while the first runs; its 400 ms start when the first ends.
    let mut e = Engine::start(&[]);
    e.send("uci");
    e.until("uciok");
    e.send("position startpos\ngo movetime 600\ngo movetime 400");
    e.until("bestmove");
    let first = Instant::now();
    e.until("bestmove");
    let gap = first.elapsed();
    assert!(gap >= Duration::from_millis(300), "gap {gap:?}");
}

#[test]
fn a_fixed_move_time_is_not_eaten_by_the_move_overhead() {
    let mut e = Engine::start(&[]);
    e.send("uci");
    e.until("uciok");
    // The clock's 1 s overhead would leave nothing of 300 ms; a tenth of it is kept instead.
    e.send("setoption name MoveOverhead value 1000");
    e.send("isready");
    e.until("readyok");
    let t = Instant::now();
    e.send("go movetime 300");
    e.until("bestmove");
    let took = t.elapsed();
    assert!(took >= Duration::from_millis(250), "took {took:?}");
}

/// Option changes that allocate a table take as long as they take; a `go movetime` piped in
/// behind them still gets its whole time, counted from when they have finished. The chain of
/// changes is made several times longer than the move time on this machine, so a clock started
/// when `go` was read has run out before the search begins (no `info` line at all).
#[test]
fn a_move_time_starts_when_slow_option_changes_before_it_have_finished() {
    const MOVETIME: u128 = 200;
    // 511 MiB is a 256 MiB table, 512 MiB a 512 MiB one: each change allocates a new table.
    let pair = |gtp: bool| {
        if gtp {
            "set_option hash 511\nset_option hash 512\n"
        } else {
            "setoption name Hash value 511\nsetoption name Hash value 512\n"
        }
    };
    for gtp in [false, true] {
        let mut e = Engine::start(&[]);
        let t = Instant::now();
        if gtp {
            e.send_bytes(pair(gtp).as_bytes());
            e.answer();
            e.answer();
        } else {
            e.send("uci");
            e.until("uciok");
            e.send_bytes(pair(gtp).as_bytes());
            e.send("isready");
            e.until("readyok");
        }
        let pairs = (4 * MOVETIME / t.elapsed().as_millis().max(1) + 1).min(32) as usize;
        let chain = pair(gtp).repeat(pairs);
        if gtp {
            e.send_bytes(format!("{chain}analyze movetime {MOVETIME}\n").as_bytes());
            for _ in 0..2 * pairs {
                assert_eq!(e.answer(), ["="]);
            }
            let ready = Instant::now();
            let answer = e.answer().join(" ");
            let depth = answer
                .split(' ')
                .skip_while(|w| *w != "depth")
                .nth(1)
                .and_then(|d| d.parse::<u32>().ok());
            assert!(depth.is_some_and(|d| d >= 1), "{pairs} pairs: {answer}");
            assert!(ready.elapsed() < LIVENESS);
        } else {
            e.send_bytes(format!("{chain}isready\ngo movetime {MOVETIME}\n").as_bytes());
            e.until("readyok");
            let ready = Instant::now();
            let lines = e.until("bestmove");
            assert!(
                lines.iter().any(|l| l.starts_with("info depth ")),
                "{pairs} pairs: {lines:?}"
            );
            assert!(ready.elapsed() < LIVENESS);
        }
    }
}
