//! `Threads` through the binary: one thread stays deterministic, several threads answer a legal
//! move in every game, in both dialects.

use crate::common;

use common::Engine;

fn games() -> &'static [&'static str] {
    common::every_game()
}

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
    for game in games() {
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
    for game in games() {
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
    for game in games() {
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

/// A field's value in an `info` line (`field(l, "depth")`).
fn field<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let mut words = line.split(' ');
    words.find(|w| *w == name)?;
    words.next()
}

fn ugi_with_threads(game: &str, threads: u32) -> Engine {
    let mut e = Engine::start(&[]);
    e.send("ugi");
    e.until("ugiok");
    e.send(&format!("setoption name UCI_Variant value {game}"));
    e.send(&format!("setoption name Threads value {threads}"));
    e
}

/// The move lists of a game's last positions, where a side has a short forced win: one
/// thread at depth 2 plays the game from the start (deterministic), and the positions in which
/// it saw a mate, with the last few before the end, are kept. Where a depth-2 game sees no mate
/// within its 200 plies (Diamond's learned evaluation steps to and fro at depth 2), a depth-4
/// game is played instead.
fn positions_near_the_end(game: &str) -> Vec<String> {
    const MAX_PLIES: usize = 200;
    let mut e = ugi_with_threads(game, 1);
    let mut moves: Vec<String> = Vec::new();
    let mut kept = Vec::new();
    for depth in [2, 4] {
        moves.clear();
        kept.clear();
        while moves.len() < MAX_PLIES {
            e.send(&format!("position startpos moves {}", moves.join(" ")));
            e.send(&format!("go depth {depth}"));
            let lines = e.until("bestmove");
            let best = lines
                .last()
                .and_then(|l| field(l, "bestmove"))
                .unwrap_or("(none)");
            if best == "(none)" {
                break;
            }
            if lines.iter().any(|l| l.contains(" score mate ")) {
                kept.push(moves.join(" "));
            }
            moves.push(best.to_string());
        }
        if !kept.is_empty() {
            break;
        }
    }
    let tail = moves.len().saturating_sub(8)..=moves.len();
    kept.extend(tail.map(|n| moves[..n].join(" ")));
    kept.sort();
    kept.dedup();
    kept
}

/// With two threads the main thread reports as its own the deepest depth a helper completed;
/// that must be a depth the search was allowed to reach. v0.2.0's helpers, once they had
/// proven a mate, went on to the last depth (each one cut at once by the mate's distance), and
/// a search with no depth limit then reported `info depth 120 seldepth 120 score mate 1`,
/// deeper than the `Depth` option allows. Many short searches near each game's end (where
/// wins are forced), since which thread completes what first varies: with `go depth D`, no
/// depth above D; with `go nodes N`, none above the `Depth` option's maximum.
#[test]
fn two_threads_never_report_a_depth_beyond_the_limit() {
    for game in common::game_names() {
        let positions = positions_near_the_end(&game);
        assert!(positions.len() >= 8, "{game}: {positions:?}");
        let mut e = Engine::start(&[]);
        e.send("ugi");
        let options = e.until("ugiok");
        let most: u32 = options
            .iter()
            .find(|l| l.starts_with("option name Depth "))
            .and_then(|l| field(l, "max"))
            .and_then(|m| m.parse().ok())
            .expect("the Depth option and its maximum");
        e.send(&format!("setoption name UCI_Variant value {game}"));
        e.send("setoption name Threads value 2");
        let mut mates = 0;
        for moves in &positions {
            for (go, limit) in [
                ("go depth 1", 1),
                ("go depth 2", 2),
                ("go depth 3", 3),
                ("go depth 4", 4),
                ("go nodes 20000", most),
            ] {
                e.send(&format!("position startpos moves {moves}"));
                e.send(go);
                for l in e.until("bestmove") {
                    let Some(depth) = field(&l, "depth") else {
                        continue;
                    };
                    let depth: u32 = depth.parse().expect("a depth");
                    assert!(depth <= limit, "{game}, {go} after `{moves}`: {l}");
                    mates += usize::from(l.contains(" score mate "));
                }
            }
        }
        assert!(mates > 0, "{game}: no search found a forced win");
    }
}

/// MultiPV lines of one depth report one iteration: the same `time`, `nps`, `nodes` and
/// `hashfull` (protocol.md). With two threads the helpers' nodes keep counting while the lines
/// are written, so lines that each read the counters and the clock anew would differ.
#[test]
fn multipv_lines_of_one_depth_share_time_nodes_and_nps() {
    const DEPTH: u32 = 3;
    for game in common::game_names() {
        let mut e = ugi_with_threads(&game, 2);
        e.send("setoption name MultiPV value 3");
        let first = first_move(&mut e);
        for position in [
            "position startpos".to_string(),
            format!("position startpos moves {first}"),
        ] {
            e.send(&position);
            e.send(&format!("go depth {DEPTH}"));
            let lines = e.until("bestmove");
            let mut groups = 0;
            for depth in 1..=DEPTH {
                let at: Vec<&String> = lines
                    .iter()
                    .filter(|l| l.starts_with("info depth"))
                    .filter(|l| field(l, "depth") == Some(depth.to_string().as_str()))
                    .collect();
                let Some(one) = at.first() else { continue };
                groups += usize::from(at.len() > 1);
                for l in &at[1..] {
                    for name in ["time", "nps", "nodes", "hashfull"] {
                        assert_eq!(
                            field(l, name),
                            field(one, name),
                            "{game}, {position}, depth {depth}, {name}: {at:?}"
                        );
                    }
                }
            }
            assert!(
                groups > 0,
                "{game}, {position}: no depth with several lines: {lines:?}"
            );
        }
    }
}

/// The first legal move at the start (`go perft 1` lists them, one `move: count` a line).
fn first_move(e: &mut Engine) -> String {
    e.send("position startpos");
    e.send("go perft 1");
    let lines = e.until("Nodes searched");
    let first = lines.first().expect("a move line");
    first.split(':').next().expect("a move").to_string()
}
