//! The search's oracle hook on the kit's toy game (one-pile Nim: the mover loses exactly on a
//! multiple of 4), whose values are known by hand: covered positions are scored from the
//! oracle and never searched further, and a covered root is decided without a search.

use std::sync::atomic::{AtomicU64, Ordering};

use tetrad::games::Side;
use tetrad::search::{run, Info, Limits, Oracle, Params, Root, Verdict, TB_BOUND, TB_WIN};
use tetrad::testkit::nim::{Nim, NimPos};

/// Knows every pile up to `upto` stones (every Nim move is a progress move: distance 1), or
/// (`draws`) says each of them is a draw, which no search would find: what the search then
/// reports comes from the oracle alone.
struct Piles {
    upto: u32,
    draws: bool,
    asked: AtomicU64,
}

impl Oracle<Nim> for Piles {
    fn probe(&self, pos: &NimPos) -> Option<Verdict> {
        if pos.stones == 0 || pos.stones > self.upto {
            return None;
        }
        self.asked.fetch_add(1, Ordering::Relaxed);
        Some(if self.draws {
            Verdict::Draw
        } else if pos.stones.is_multiple_of(4) {
            Verdict::Loss(1)
        } else {
            Verdict::Win(1)
        })
    }
}

fn piles(upto: u32, draws: bool) -> Piles {
    Piles {
        upto,
        draws,
        asked: AtomicU64::new(0),
    }
}

fn pile(stones: u32) -> NimPos {
    NimPos {
        stones,
        side: Side::P1,
    }
}

/// A search to `depth` with the oracle; its result and its last report.
fn search(
    stones: u32,
    oracle: &Piles,
    depth: u32,
) -> (tetrad::search::SearchResult<u32>, Info<u32>) {
    let pos = pile(stones);
    let mut last = None;
    let mut on_info = |i: &Info<u32>| last = Some(i.clone());
    let params = Params {
        limits: Limits {
            depth: Some(depth),
            ..Limits::default()
        },
        ..Params::default()
    };
    let r = run(
        &Nim,
        Root::new(&pos).oracle(oracle).on_info(&mut on_info),
        &params,
    );
    (r, last.expect("a report"))
}

#[test]
fn covered_positions_are_scored_from_the_oracle() {
    for stones in 9..=15 {
        let oracle = piles(7, false);
        let (r, info) = search(stones, &oracle, 6);
        let asked = oracle.asked.load(Ordering::Relaxed);
        // Won unless a multiple of 4, by the take that leaves one; scored in the database band,
        // not as a mate, though 6 plies reach the end of some lines.
        if stones.is_multiple_of(4) {
            assert!(
                r.score < -TB_BOUND && r.score > -TB_WIN,
                "{stones}: {}",
                r.score
            );
        } else {
            assert_eq!(r.best, Some(stones % 4), "{stones}");
            assert!(
                r.score > TB_BOUND && r.score < TB_WIN,
                "{stones}: {}",
                r.score
            );
        }
        assert!(
            asked > 0 && info.tbhits == Some(asked),
            "{stones}: {info:?}"
        );
    }
    // An oracle that calls every small pile drawn: its word is taken, the piles below it are
    // never searched.
    let oracle = piles(7, true);
    let (r, _) = search(9, &oracle, 20);
    assert_eq!(r.score, 0);
}

#[test]
fn a_covered_root_is_decided_without_a_search() {
    for stones in 1..=7 {
        let oracle = piles(7, false);
        let (r, info) = search(stones, &oracle, 20);
        if stones.is_multiple_of(4) {
            assert_eq!(r.score, -TB_WIN);
        } else {
            assert_eq!((r.best, r.score), (Some(stones % 4), TB_WIN), "{stones}");
        }
        // One report: depth 1, the positions probed as its nodes.
        assert_eq!((info.depth, r.depth), (1, 1));
        assert_eq!(Some(info.nodes), info.tbhits);
        assert!(info.nodes <= 4, "{info:?}");
    }
    // Without an oracle the same root is searched: a mate score, and no tbhits.
    let pos = pile(6);
    let mut tbhits = Some(0);
    let mut on_info = |i: &Info<u32>| tbhits = i.tbhits;
    let params = Params {
        limits: Limits {
            depth: Some(4),
            ..Limits::default()
        },
        ..Params::default()
    };
    let r = run(&Nim, Root::new(&pos).on_info(&mut on_info), &params);
    assert!(r.score > TB_WIN && tbhits.is_none());
}
