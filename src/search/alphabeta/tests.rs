//! Search checked on small games whose values are known exactly.

use std::sync::atomic::AtomicBool;

use super::*;
use crate::games::Side;
use crate::testkit::nim::{Nim, NimPos};
use crate::testkit::{self, negamax};

fn run(stones: u32, limits: Limits) -> SearchResult<u32> {
    let game = Nim;
    let pos = NimPos {
        stones,
        side: Side::P1,
    };
    let mut tt = Table::new(1);
    let stop = AtomicBool::new(false);
    let params = Params {
        limits,
        ..Params::default()
    };
    search(
        &game,
        &pos,
        &DrawTracker::new(game.hash(&pos)),
        &mut tt,
        &stop,
        &params,
        |_| {},
    )
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
        let r = run(stones, depth(20));
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
        assert_eq!(run(stones, depth(13)).score, v, "stones {stones}");
        testkit::check_search(&Nim, &pos, 13);
    }
}

#[test]
fn node_limited_search_is_deterministic() {
    let limits = Limits {
        nodes: Some(500),
        ..Limits::default()
    };
    let a = run(21, limits);
    let b = run(21, limits);
    assert_eq!((a.best, a.nodes), (b.best, b.nodes));
    assert!(a.nodes <= 500 + 1);
}

#[test]
fn stop_flag_still_yields_a_move() {
    let game = Nim;
    let pos = game.start();
    let mut tt = Table::new(1);
    let stop = AtomicBool::new(true);
    let r = search(
        &game,
        &pos,
        &DrawTracker::new(game.hash(&pos)),
        &mut tt,
        &stop,
        &Params::default(),
        |_| {},
    );
    assert!(r.best.is_some());
}

#[test]
fn uci_scores() {
    assert_eq!(uci_score(35), "cp 35");
    assert_eq!(uci_score(MATE - 1), "mate 1");
    assert_eq!(uci_score(MATE - 3), "mate 2");
    assert_eq!(uci_score(-(MATE - 2)), "mate -1");
}
