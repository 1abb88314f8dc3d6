//! Game-independent search: alpha-beta, transposition table, time management, threads.
//!
//! [`run`] is the entry. `threads` starts and joins the threads (Lazy SMP); `deepen` is the
//! iterative deepening of the main thread and of the helpers; `node` the node search (one
//! `Searcher` per thread); `abdada` the table the threads put off each other's moves with;
//! `movepick` the move ordering; `tt` the shared table; `time` the clock.

mod abdada;
mod deepen;
mod movepick;
mod node;
mod oracle;
mod threads;
pub mod time;
pub mod tt;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use crate::games::prelude::*;
use crate::games::DrawTracker;

pub use node::{MATE, MATE_BOUND};
pub use oracle::{in_play, Oracle, Verdict, TB_BOUND, TB_WIN};
pub use threads::MAX_THREADS;
pub use time::{Clock, Limits};
pub use tt::{AllocError, Table};

/// What one search is asked to do.
#[derive(Clone, Debug, Default)]
pub struct Params {
    pub limits: Limits,
    pub move_overhead_ms: u64,
    /// When the move time started (the `go` or `genmove` was read); `None`: now.
    pub started: Option<Instant>,
    /// 0: root moves are tried in the game's order. Otherwise the root moves are shuffled by
    /// this seed before the search, so that among moves the ordering ranks alike (and that then
    /// often score alike) another one may be found first and played.
    pub seed: u64,
    /// Search threads; 0 and 1 both mean one (the calling thread, no helper).
    pub threads: usize,
    /// How many best root moves to find, each with its own score and PV (MultiPV); 0 or 1:
    /// only the best.
    pub multipv: usize,
    /// While this flag is set the search is pondering: no time limit applies (nodes and depth
    /// do). Clearing it (`ponderhit`) puts `limits` in force, counted from `started`.
    pub ponder: Option<Arc<AtomicBool>>,
}

/// Progress reported after each completed iteration.
#[derive(Clone, Debug)]
pub struct Info<M> {
    pub depth: u32,
    pub seldepth: u32,
    pub score: i32,
    pub nodes: u64,
    pub elapsed_ms: u64,
    pub pv: Vec<M>,
    pub hashfull: u32,
    /// Which of the best root moves this line is (1 = the best) when more than one is
    /// searched (MultiPV); `None` with a single PV.
    pub multipv: Option<u32>,
    /// The positions whose value the oracle gave (`None`: the search has no oracle).
    pub tbhits: Option<u64>,
}

/// One of the best root moves: its score, the depth it was searched to and its PV (which
/// starts with the move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PvLine<M> {
    pub score: i32,
    pub depth: u32,
    pub pv: Vec<M>,
}

/// Result of [`run`].
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    pub best: Option<M>,
    pub score: i32,
    /// Last fully completed iteration.
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<M>,
    /// The best root moves of the last completed iteration, best first (as many as `multipv`
    /// asked for and the root has); when no iteration was completed, the move returned.
    pub lines: Vec<PvLine<M>>,
}

/// Where a search starts, and what it works with: the position (all a search needs), and
/// optionally the game that led to it (repetition and no-progress draws; default: none, the
/// position starts the game), the table (default: a fresh one of 1 MiB), a stop flag (default:
/// only the limits stop it), who gets the reports (default: no one) and the game's oracle
/// (default: none).
pub struct Root<'a, G: Game> {
    pos: &'a G::Pos,
    history: Option<&'a DrawTracker>,
    table: Option<&'a mut Table<G::Move>>,
    stop: Option<&'a AtomicBool>,
    on_info: Option<&'a mut OnInfo<'a, G::Move>>,
    oracle: Option<&'a dyn Oracle<G>>,
}

/// Who gets a search's reports.
pub type OnInfo<'a, M> = dyn FnMut(&Info<M>) + 'a;

impl<'a, G: Game> Root<'a, G> {
    pub fn new(pos: &'a G::Pos) -> Self {
        Root {
            pos,
            history: None,
            table: None,
            stop: None,
            on_info: None,
            oracle: None,
        }
    }

    /// The game so far, the position included.
    pub fn after(self, history: &'a DrawTracker) -> Self {
        Root {
            history: Some(history),
            ..self
        }
    }

    /// The table to search with (kept from one search to the next).
    pub fn table(self, table: &'a mut Table<G::Move>) -> Self {
        Root {
            table: Some(table),
            ..self
        }
    }

    /// A flag that ends the search when set (from another thread).
    pub fn stop(self, stop: &'a AtomicBool) -> Self {
        Root {
            stop: Some(stop),
            ..self
        }
    }

    /// The game's oracle: positions it covers are not searched (docs/egdb.md, "In play").
    pub fn oracle(self, oracle: &'a dyn Oracle<G>) -> Self {
        Root {
            oracle: Some(oracle),
            ..self
        }
    }

    /// Called by the calling thread after every completed iteration (and when a cut-short one
    /// changes the move).
    pub fn on_info(self, on_info: &'a mut OnInfo<'a, G::Move>) -> Self {
        Root {
            on_info: Some(on_info),
            ..self
        }
    }
}

/// Runs a search. Always returns a move when the position has one, even if stopped at once.
///
/// With `params.threads` above 1, helper threads search too (Lazy SMP) and are joined before
/// this returns; reports come from the calling thread only, and the result is the main
/// thread's (or a helper's deeper, better-scoring iteration), with every thread's nodes. A
/// panic in any thread stops them all and is resumed here, after every thread has ended.
pub fn run<G: Game>(game: &G, root: Root<'_, G>, params: &Params) -> SearchResult<G::Move> {
    let start_of_game;
    let history = match root.history {
        Some(h) => h,
        None => {
            start_of_game = DrawTracker::new(game.hash(root.pos));
            &start_of_game
        }
    };
    let mut fresh;
    let table = match root.table {
        Some(t) => t,
        None => {
            fresh = Table::new(1);
            &mut fresh
        }
    };
    let unset = AtomicBool::new(false);
    let stop = root.stop.unwrap_or(&unset);
    let mut quiet = |_: &Info<G::Move>| {};
    let on_info = match root.on_info {
        Some(f) => f,
        None => &mut quiet,
    };
    let oracle = root.oracle;
    threads::search(
        game, root.pos, history, table, stop, oracle, params, on_info,
    )
}

#[cfg(test)]
mod tests;
