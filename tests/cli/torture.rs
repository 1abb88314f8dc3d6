//! Protocol torture (short version): seeded random interleavings of valid and invalid commands
//! in both dialects, with garbage bytes; every answer must be well framed and the engine alive.

use crate::common;

use std::time::Duration;

use common::Engine;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Every game, from the registry.
fn games() -> &'static [&'static str] {
    tetrad::games::GameKind::names()
}

fn gtp_command(rng: &mut SmallRng, legal: &[String]) -> String {
    let pick = |rng: &mut SmallRng, xs: &[&str]| xs[rng.gen_range(0..xs.len())].to_string();
    match rng.gen_range(0..16) {
        0 => format!("set_game {}", pick(rng, games())),
        1..=3 if !legal.is_empty() => format!("play {}", legal[rng.gen_range(0..legal.len())]),
        4 => "undo".into(),
        5 => "genmove".into(),
        6 => "legal_moves".into(),
        7 => "game_result".into(),
        8 => format!("perft {}", rng.gen_range(0..3)),
        9 => "showboard".into(),
        10 => "get_position".into(),
        11 => pick(
            rng,
            &[
                "play",
                "play x9-z0",
                "set_position ???",
                "perft -1",
                "time_left q 1 1",
                "undo 3",
            ],
        ),
        12 => (0..rng.gen_range(1..40))
            // No '#': a line that is all comment rightly gets no answer.
            .map(|_| rng.gen_range(b'$'..=b'~') as char)
            .collect(),
        13 => "clear_board".into(),
        14 => format!("{} name", rng.gen_range(0..1000)),
        _ => "reg_genmove".into(),
    }
}

#[test]
fn gtp_random_sessions_stay_well_framed() {
    common::every_game();
    let mut rng = SmallRng::seed_from_u64(77);
    let mut e = Engine::start(&[]);
    e.gtp("set_option nodes 300");
    let mut legal: Vec<String> = Vec::new();
    for i in 0..600 {
        if i % 97 == 0 {
            let mut junk: Vec<u8> = (0..rng.gen_range(1..200)).map(|_| rng.gen()).collect();
            junk.retain(|&b| b != b'\n');
            junk.push(b'\n');
            e.send_bytes(&junk);
            // Junk is either ignored (blank after cleaning / comment) or answered; sync with a name.
            e.send("name");
            let mut seen = Vec::new();
            loop {
                let a = e.answer();
                let done = a.first().is_some_and(|l| l == "= tetrad");
                seen.push(a);
                if done {
                    break;
                }
            }
            assert!(seen.len() <= 2, "{seen:?}");
            continue;
        }
        let cmd = gtp_command(&mut rng, &legal);
        let before = e.gtp("get_position");
        let answer = e.gtp(&cmd);
        let first = answer.lines().next().unwrap_or_default();
        assert!(
            first.starts_with('=') || first.starts_with('?'),
            "{cmd:?} -> {answer:?}"
        );
        if first.starts_with('?') && !cmd.starts_with("set_game") {
            // A refused command changes nothing.
            assert_eq!(e.gtp("get_position"), before, "{cmd:?} -> {answer:?}");
        }
        if cmd == "legal_moves" {
            legal = answer
                .trim_start_matches('=')
                .split(' ')
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect();
        } else if cmd.starts_with("play") || cmd == "undo" || cmd.starts_with("set_game") {
            legal.clear();
        }
    }
    assert!(e.alive());
    // Memory stays bounded: the 16 MiB hash table plus a fixed margin.
    let rss = e.rss_kib().expect("rss readable");
    assert!(rss < (16 + 64) * 1024, "rss {rss} KiB");
    e.close_stdin();
    assert!(e.wait_exit(Duration::from_secs(1)).is_some());
}

#[test]
fn ugi_random_sessions_always_answer_bestmove_once() {
    common::every_game();
    let mut rng = SmallRng::seed_from_u64(78);
    let mut e = Engine::start(&[]);
    e.send("uci");
    e.until("uciok");
    for _ in 0..150 {
        match rng.gen_range(0..8) {
            0 => e.send(&format!(
                "setoption name UCI_Variant value {}",
                games()[rng.gen_range(0..games().len())]
            )),
            1 => e.send("position startpos"),
            2 => e.send("position fen garbage moves a b c"),
            3 => e.send("ucinewgame"),
            4 => e.send("blorp 1 2 3"),
            _ => {
                let go = ["go nodes 500", "go depth 2", "go movetime 5", "go infinite"];
                let g = go[rng.gen_range(0..go.len())];
                e.send(g);
                if rng.gen_bool(0.5) {
                    e.send("isready");
                }
                e.send("stop");
                let lines = e.until("bestmove");
                assert_eq!(
                    lines.iter().filter(|l| l.starts_with("bestmove")).count(),
                    1
                );
                assert_eq!(lines.last().map(|l| l.split(' ').count()), Some(2));
            }
        }
    }
    e.send("isready");
    e.until("readyok");
    assert!(e.alive());
}

#[test]
fn thousands_of_genmove_undo_cycles_restore_every_position() {
    common::every_game();
    let mut rng = SmallRng::seed_from_u64(79);
    let mut e = Engine::start(&[]);
    e.gtp("set_option nodes 60");
    let mut cycles = 0;
    for game in games() {
        assert_eq!(e.gtp(&format!("set_game {game}")), "=");
        for _ in 0..400 {
            let before = e.gtp("get_position");
            let mv = e.gtp("genmove");
            if mv.starts_with("? game is over") {
                e.gtp("clear_board");
                continue;
            }
            assert!(mv.starts_with("= "), "{game}: genmove -> {mv:?}");
            // Mostly undo (the position must come back exactly); sometimes keep the move so
            // that the cycles reach deeper positions.
            if rng.gen_bool(0.7) {
                assert_eq!(e.gtp("undo"), "=");
                assert_eq!(e.gtp("get_position"), before, "{game}: undo after {mv}");
                cycles += 1;
            }
        }
    }
    assert!(cycles > 1000, "{cycles}");
    let rss = e.rss_kib().expect("rss readable");
    assert!(rss < (16 + 64) * 1024, "rss {rss} KiB");
}

#[test]
fn quit_and_end_of_input_at_random_times_during_searches() {
    common::every_game();
    let mut rng = SmallRng::seed_from_u64(80);
    for round in 0..12 {
        let mut e = Engine::start(&[]);
        let game = games()[round % games().len()];
        let ugi = round % 2 == 0;
        if ugi {
            // Unbounded: `quit` or the end of input stops it.
            e.send("ugi");
            e.until("ugiok");
            e.send(&format!("setoption name UCI_Variant value {game}"));
            e.send("position startpos");
            e.send("go infinite");
        } else {
            // Bounded: `quit` and the end of input wait for its answer.
            e.gtp(&format!("set_game {game}"));
            e.gtp("set_option movetime 150");
            e.send("genmove");
        }
        std::thread::sleep(Duration::from_millis(rng.gen_range(0..80)));
        let quit = rng.gen_bool(0.5);
        if quit {
            e.send("quit");
        } else {
            e.close_stdin();
        }
        let out = e.rest();
        if ugi {
            assert_eq!(
                out.iter().filter(|l| l.starts_with("bestmove")).count(),
                1,
                "round {round}: {out:?}"
            );
        } else {
            assert!(out[0].starts_with("= "), "round {round}: {out:?}");
            let end: &[&str] = if quit { &["", "=", ""] } else { &[""] };
            assert_eq!(&out[1..], end, "round {round}");
        }
        // Generous: a liveness bound, not a speed figure.
        let exit = e.wait_exit(Duration::from_secs(10));
        assert_eq!(exit.map(|x| x.0), Some(0), "round {round}: {game}");
    }
}

#[test]
fn threads_two_to_four_survive_random_stop_setoption_quit_and_end_of_input() {
    common::every_game();
    let mut rng = SmallRng::seed_from_u64(81);
    for round in 0..10 {
        let game = games()[round % games().len()];
        let mut e = Engine::start(&[]);
        e.send("ugi");
        e.until("ugiok");
        e.send(&format!(
            "setoption name Threads value {}",
            rng.gen_range(2..=4)
        ));
        e.send(&format!("setoption name UCI_Variant value {game}"));
        e.send("position startpos");
        for _ in 0..rng.gen_range(3..8) {
            let go = [
                "go nodes 3000",
                "go depth 3",
                "go movetime 20",
                "go infinite",
            ];
            e.send(go[rng.gen_range(0..go.len())]);
            // Sent while the search runs: it must apply to the next one, not disturb this one.
            if rng.gen_bool(0.5) {
                e.send(&format!(
                    "setoption name Threads value {}",
                    rng.gen_range(1..=4)
                ));
            }
            if rng.gen_bool(0.3) {
                e.send("isready");
            }
            std::thread::sleep(Duration::from_millis(rng.gen_range(0..20)));
            e.send("stop");
            let lines = e.until("bestmove");
            assert_eq!(
                lines.iter().filter(|l| l.starts_with("bestmove")).count(),
                1,
                "round {round} ({game}): {lines:?}"
            );
            assert_eq!(lines.last().map(|l| l.split(' ').count()), Some(2));
        }
        // Threads' stacks and tables are given back after every search.
        let rss = e.rss_kib().expect("rss readable");
        assert!(rss < (16 + 64) * 1024, "round {round}: rss {rss} KiB");
        e.send("go infinite");
        std::thread::sleep(Duration::from_millis(rng.gen_range(0..40)));
        let quit = rng.gen_bool(0.5);
        if quit {
            e.send("quit");
        } else {
            e.close_stdin();
        }
        let out = e.rest();
        assert_eq!(
            out.iter().filter(|l| l.starts_with("bestmove")).count(),
            1,
            "round {round} ({game}, quit {quit}): {out:?}"
        );
        let exit = e.wait_exit(Duration::from_secs(10));
        assert_eq!(exit.map(|x| x.0), Some(0), "round {round}: {game}");
    }
}
