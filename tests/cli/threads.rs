//! `Threads` through the binary: one thread stays deterministic, several threads answer a legal
//! move in every game, in both dialects.

use crate::common;

use common::Engine;

const GAMES: &[&str] = tetrad::games::GameKind::NAMES;

/// The `info depth` lines of a search, without the figures that depend on the clock.
fn depth_lines(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .map(|l| {
            let mut words = l.split(' ').peekable();
            let mut kept = Vec::new();
            while let Some(w) = words.next() {
                if w == "time" || w == "nps" {
                    words.next();
                } else {
                    kept.push(w);
                }
            }
            kept.join(" ")
        })
        .collect()
}

#[test]
fn one_thread_searches_the_same_nodes_every_time() {
    for game in ["poddavki", "diamond"] {
        let mut runs = Vec::new();
        for _ in 0..2 {
            let mut e = Engine::start(&[]);
            e.send("ugi");
            e.until("ugiok");
            e.send("setoption name Threads value 1");
            e.send(&format!("setoption name UCI_Variant value {game}"));
            e.send("position startpos");
            e.send("go depth 5");
            runs.push(depth_lines(&e.until("bestmove")));
        }
        assert_eq!(runs[0].len(), 5, "{game}: {:?}", runs[0]);
        assert_eq!(runs[0], runs[1], "{game}");
    }
}

#[test]
fn two_to_four_threads_answer_a_legal_move_in_every_game() {
    let mut e = Engine::start(&[]);
    e.gtp("set_option depth 3");
    for game in GAMES {
        assert_eq!(e.gtp(&format!("set_game {game}")), "=");
        for threads in 2..=4 {
            assert_eq!(e.gtp(&format!("set_option threads {threads}")), "=");
            let legal = e.gtp("legal_moves");
            let mv = e.gtp("genmove");
            let mv = mv
                .strip_prefix("= ")
                .unwrap_or_else(|| panic!("{game}: {mv:?}"));
            assert!(
                legal.split(' ').any(|m| m == mv),
                "{game}, {threads} threads: {mv} not in {legal}"
            );
            // The last move is kept: the game's next search starts from another position.
            if threads < 4 {
                assert_eq!(e.gtp("undo"), "=");
            }
        }
    }
    // UGI: the info lines are the main thread's, the bestmove one of the legal moves.
    let mut e = Engine::start(&[]);
    e.send("ugi");
    e.until("ugiok");
    e.send("setoption name Threads value 3");
    for game in GAMES {
        e.send(&format!("setoption name UCI_Variant value {game}"));
        e.send("position startpos");
        e.send("go depth 3");
        let lines = e.until("bestmove");
        let depths: Vec<&str> = lines
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .filter_map(|l| l.split(' ').nth(2))
            .collect();
        // Completed depths in rising order, ending at the one asked for (or sooner at a proven
        // result). A depth a helper completed first is reported as the main thread takes it
        // over, so a depth may be passed over when a helper was two ahead.
        let depths: Vec<u32> = depths.iter().filter_map(|d| d.parse().ok()).collect();
        assert!(!depths.is_empty(), "{game}: {lines:?}");
        assert!(depths.windows(2).all(|w| w[0] < w[1]), "{game}: {lines:?}");
        let proven = lines.iter().any(|l| l.contains(" score mate "));
        assert!(proven || depths.last() == Some(&3), "{game}: {lines:?}");
        assert_eq!(
            lines.iter().filter(|l| l.starts_with("bestmove")).count(),
            1
        );
    }
}

#[test]
fn bench_threads_compares_each_search_with_one_thread() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tetrad"))
        .args([
            "bench",
            "--quick",
            "--game",
            "poddavki",
            "--threads",
            "2",
            "--repeat",
            "3",
        ])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    for label in ["start", "mid-a", "mid-b"] {
        for threads in ["threads   1", "threads   2"] {
            assert!(
                text.lines()
                    .any(|l| l.contains(&format!("search {label}")) && l.contains(threads)),
                "{label} {threads}: {text}"
            );
        }
        let ratio = text
            .lines()
            .find(|l| l.contains(&format!("search {label} time to depth 7: 1 thread")));
        assert!(
            ratio.is_some_and(|l| l.ends_with("(medians of 3 runs)")),
            "{text}"
        );
        // One line per thread count (its median run), however many runs.
        assert_eq!(
            text.lines()
                .filter(|l| l.contains(&format!("search {label} depth")))
                .count(),
            2,
            "{text}"
        );
    }
    assert!(text.contains("Speed-up           : "), "{text}");
    // Node counts of several threads vary: no signature, and no perft or playouts.
    assert!(
        !text.contains("signature") && !text.contains("perft"),
        "{text}"
    );
    let refused = std::process::Command::new(env!("CARGO_BIN_EXE_tetrad"))
        .args(["bench", "--threads", "0"])
        .output()
        .expect("runs");
    assert_eq!(refused.status.code(), Some(2));
}

/// Whichever thread's iteration is taken, the last `info` line before the move is the move's
/// line: its PV starts with the move, and no depth goes back.
#[test]
fn the_last_info_line_is_the_moves_line_with_threads() {
    let mut e = Engine::start(&[]);
    e.send("ugi");
    e.until("ugiok");
    e.send("setoption name Threads value 2");
    for game in GAMES {
        e.send(&format!("setoption name UCI_Variant value {game}"));
        e.send("position startpos");
        e.send("go nodes 30000");
        let lines = e.until("bestmove");
        let infos: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .collect();
        let best = lines.last().and_then(|l| l.split(' ').nth(1));
        let last_pv = infos
            .last()
            .and_then(|l| l.split(" pv ").nth(1))
            .and_then(|pv| pv.split(' ').next());
        assert!(best.is_some() && best == last_pv, "{game}: {lines:?}");
        let depths: Vec<u32> = infos
            .iter()
            .filter_map(|l| l.split(' ').nth(2)?.parse().ok())
            .collect();
        assert!(depths.windows(2).all(|w| w[0] < w[1]), "{game}: {lines:?}");
    }
}
