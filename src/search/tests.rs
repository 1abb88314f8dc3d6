//! Search checked on small games whose values are known exactly.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::AtomicBool;

use super::*;
use crate::games::Side;
use crate::testkit::faulty::{Fault, Faulty};
use crate::testkit::nim::{Nim, NimPos};
use crate::testkit::{self, negamax};

/// One search of `pos` on a fresh small table, never stopped from outside.
fn search_with<G: Game>(game: &G, pos: &G::Pos, params: Params) -> SearchResult<G::Move> {
    run(game, Root::new(pos), &params)
}

fn nim(stones: u32) -> NimPos {
    NimPos {
        stones,
        side: Side::P1,
    }
}

fn nim_search(stones: u32, limits: Limits) -> SearchResult<u32> {
    let params = Params {
        limits,
        ..Params::default()
    };
    search_with(&Nim, &nim(stones), params)
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

#[test]
fn finds_the_winning_take_and_its_distance() {
    for stones in 1..=15u32 {
        let r = nim_search(stones, depth(20));
        if stones % 4 == 0 {
            assert!(r.score < -MATE_BOUND, "{stones}: {}", r.score);
        } else {
            assert_eq!(r.best, Some(stones % 4), "stones {stones}");
            assert!(r.score > MATE_BOUND);
            // The winner makes ceil(stones / 4) moves, the loser one fewer, then has none.
            let plies = 2 * stones.div_ceil(4) as i32 - 1;
            assert_eq!(r.score, MATE - plies, "stones {stones}");
        }
    }
}

/// The engine's search against the kit's reference negamax on the toy game, whose every value
/// at this depth is a result.
#[test]
fn search_scores_the_toy_game_as_the_reference_negamax() {
    for stones in 1..=12u32 {
        let pos = NimPos {
            stones,
            side: Side::P1,
        };
        let (v, _) = negamax(&Nim, &pos, 13);
        assert_eq!(nim_search(stones, depth(13)).score, v, "stones {stones}");
        testkit::check_search(&Nim, &pos, 13);
    }
}

#[test]
fn node_limited_search_is_deterministic() {
    let limits = Limits {
        nodes: Some(500),
        ..Limits::default()
    };
    let a = nim_search(21, limits);
    let b = nim_search(21, limits);
    assert_eq!((a.best, a.nodes), (b.best, b.nodes));
    assert!(a.nodes <= 500 + 1);
}

#[test]
fn stop_flag_still_yields_a_move() {
    let game = Nim;
    let pos = game.start();
    let stop = AtomicBool::new(true);
    let r = run(&game, Root::new(&pos).stop(&stop), &Params::default());
    assert!(r.best.is_some());
}

fn run_threads<G: Game>(
    game: &G,
    pos: &G::Pos,
    limits: Limits,
    threads: usize,
) -> SearchResult<G::Move> {
    let params = Params {
        limits,
        threads,
        ..Params::default()
    };
    search_with(game, pos, params)
}

#[test]
fn helper_threads_change_no_proven_value() {
    for threads in 2..=4 {
        for stones in 1..=15u32 {
            let pos = NimPos {
                stones,
                side: Side::P1,
            };
            let one = nim_search(stones, depth(20));
            let many = run_threads(&Nim, &pos, depth(20), threads);
            assert_eq!(many.score, one.score, "{threads} threads, {stones} stones");
            if stones % 4 != 0 {
                assert_eq!(many.best, one.best, "{threads} threads, {stones} stones");
            }
        }
    }
}

#[test]
fn threads_sharing_moves_out_complete_every_depth_with_a_legal_move() {
    use crate::games::pods::{Pods, PodsRules};
    let game = Pods::new(PodsRules::Advanced);
    assert!(game.search_tuning().threads.share_moves);
    let mut pos = game.start();
    let mut moves = Vec::new();
    for ply in 0..12 {
        for threads in [2, 3] {
            let r = run_threads(&game, &pos, depth(5), threads);
            moves.clear();
            game.legal_moves(&pos, &mut moves);
            let best = r.best.expect("a move");
            assert!(moves.contains(&best), "ply {ply}, {threads} threads");
            let proven = r.score.abs() > MATE_BOUND;
            assert!(r.depth == 5 || proven, "ply {ply}, {threads} threads");
            assert_eq!(r.pv.first(), Some(&best));
        }
        moves.clear();
        game.legal_moves(&pos, &mut moves);
        pos = game.make(&pos, moves[ply * 7 % moves.len()]);
        if game.terminal(&pos).is_some() {
            break;
        }
    }
}

#[test]
fn a_stopped_search_with_helpers_still_yields_a_move() {
    let game = Nim;
    let pos = game.start();
    let stop = AtomicBool::new(true);
    let params = Params {
        threads: 4,
        ..Params::default()
    };
    let r = run(&game, Root::new(&pos).stop(&stop), &params);
    assert!(r.best.is_some());
}

#[test]
fn a_panic_in_a_helper_ends_every_thread_and_comes_back_to_the_caller() {
    // A pile too big to search to its end, so that the helpers evaluate (and fail).
    let game = Faulty {
        fault: Fault::HelperEvaluation,
        start: 200,
    };
    let pos = game.start();
    // Unbounded: without the panic stopping the main thread this would not end.
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let r = catch_unwind(AssertUnwindSafe(|| run_threads(&game, &pos, limits, 3)));
    let panic = r.expect_err("the helper's panic reaches the caller");
    let text = panic.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(text.contains("helper bug"), "{text}");
    // The same game searches normally on one thread.
    let one = run_threads(&game, &pos, depth(4), 1);
    assert!(one.best.is_some());
}

fn run_lines(stones: u32, multipv: usize) -> SearchResult<u32> {
    let params = Params {
        limits: depth(20),
        multipv,
        ..Params::default()
    };
    search_with(&Nim, &nim(stones), params)
}

#[test]
fn multipv_scores_every_root_move_exactly() {
    // Five stones: taking one wins in three plies; taking two or three lets the opponent win
    // with its next move.
    let r = run_lines(5, 3);
    let firsts: Vec<u32> = r.lines.iter().map(|l| l.pv[0]).collect();
    let scores: Vec<i32> = r.lines.iter().map(|l| l.score).collect();
    assert_eq!(firsts[0], 1);
    assert_eq!(scores, [MATE - 3, -(MATE - 2), -(MATE - 2)]);
    let mut rest = firsts[1..].to_vec();
    rest.sort_unstable();
    assert_eq!(rest, [2, 3]);
    assert_eq!((r.best, r.score), (Some(1), MATE - 3));
    // More lines than moves: one per move.
    assert_eq!(run_lines(5, 10).lines.len(), 3);
    // One line is the single-PV search.
    let (one, plain) = (run_lines(21, 1), nim_search(21, depth(20)));
    assert_eq!((one.best, one.nodes), (plain.best, plain.nodes));
    assert_eq!(one.lines.len(), 1);
}

/// A helper that proves a mate stops deepening there, as the main thread does. It used to go on
/// to the last depth (120, each one cut at once by the mate's distance), and the main thread,
/// which takes a helper's completed depth over as its own, then reported `info depth 120` for
/// a mate in one, deeper than any `depth` a GUI may ask for.
#[test]
fn a_helper_stops_deepening_at_the_depth_that_proves_its_mate() {
    use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
    use std::sync::Mutex;
    use std::time::Instant;

    use super::deepen::DEPTH_LIMIT;
    use super::node::Searcher;
    use super::threads::Shared;

    // One stone: taking it wins at once.
    let (game, pos) = (Nim, nim(1));
    let mut tt = Table::new(1);
    tt.new_search();
    let tracker = DrawTracker::new(game.hash(&pos));
    let (stop, halt) = (AtomicBool::new(false), AtomicBool::new(false));
    let counters = [AtomicU64::new(0), AtomicU64::new(0)];
    let frontier = AtomicU32::new(0);
    let finished = Mutex::new(None);
    let shared = Shared {
        game: &game,
        pos: &pos,
        history: &tracker,
        tt: &tt,
        stop: &stop,
        halt: &halt,
        counters: &counters,
        ponder: None,
        frontier: &frontier,
        finished: &finished,
        busy: None,
        oracle: None,
        tbhits: &AtomicU64::new(0),
    };
    let params = Params::default();
    // Thread 1 of two, alone here: no main thread halts it, so it ends on its own.
    let mut helper = Searcher::new(&shared, 1, &params, Instant::now());
    game.legal_moves(&pos, &mut helper.root);
    let r = helper.helper(&pos, DEPTH_LIMIT);
    let (line, _) = r.completed.expect("a completed iteration");
    assert_eq!((line.score, line.depth), (MATE - 1, 1));
    assert_eq!(
        frontier.load(Ordering::Relaxed),
        1,
        "the depth the main thread takes over"
    );
}

/// All the lines of one depth (MultiPV) report one reading of the clock and of the counters,
/// as protocol.md says: a slow receiver (here 2 ms a report) must not show in the next line's
/// `time` (nor, with helpers running, its `nodes`).
#[test]
fn the_lines_of_one_depth_report_one_time_node_count_and_table_fill() {
    use std::time::Duration;

    let params = Params {
        limits: depth(4),
        multipv: 3,
        ..Params::default()
    };
    let mut infos = Vec::new();
    let mut report = |i: &Info<u32>| {
        infos.push(i.clone());
        std::thread::sleep(Duration::from_millis(2));
    };
    run(&Nim, Root::new(&nim(21)).on_info(&mut report), &params);
    let depths: Vec<(u32, Option<u32>)> = infos.iter().map(|i| (i.depth, i.multipv)).collect();
    let expected: Vec<(u32, Option<u32>)> = (1..=4)
        .flat_map(|d| (1..=3).map(move |k| (d, Some(k))))
        .collect();
    assert_eq!(depths, expected, "three lines at each of the four depths");
    for lines in infos.chunks(3) {
        let first = &lines[0];
        for l in &lines[1..] {
            assert_eq!(
                (l.elapsed_ms, l.nodes, l.hashfull),
                (first.elapsed_ms, first.nodes, first.hashfull),
                "depth {}, line {:?}",
                l.depth,
                l.multipv
            );
        }
    }
}
