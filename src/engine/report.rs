//! What a search reports to the session, in notation: its progress (`info`), its result and
//! the move it found as the game's own move.

use std::any::Any;
use std::sync::Arc;

use crate::games;

/// One `info` report of a running search, with the PV already in notation.
#[derive(Clone, Debug, PartialEq)]
pub struct InfoReport {
    pub depth: u32,
    pub seldepth: u32,
    pub score: i32,
    pub nodes: u64,
    pub elapsed_ms: u64,
    pub pv: Vec<String>,
    pub hashfull: u32,
    /// Which of the best root moves (1 = the best) when several are searched (MultiPV).
    pub multipv: Option<u32>,
    /// Positions valued by the endgame database (`None`: no database in use).
    pub tbhits: Option<u64>,
}

/// One of the best root moves found, in notation: its PV starts with the move.
#[derive(Clone, Debug, PartialEq)]
pub struct LineReport {
    pub score: i32,
    pub depth: u32,
    pub pv: Vec<String>,
}

/// The move a search found as the game's own move, with the position it was found in, so that
/// playing it goes through no notation.
#[derive(Clone)]
pub struct FoundMove(pub(super) Arc<dyn Any + Send + Sync>);

impl PartialEq for FoundMove {
    fn eq(&self, other: &FoundMove) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl std::fmt::Debug for FoundMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FoundMove")
    }
}

/// What a finished search found, in notation.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchReport {
    /// Set when the search failed (a bug: it panicked); the front ends report it as an error.
    pub error: Option<SearchFailed>,
    pub best: Option<String>,
    /// `best` as the game's move, for [`AnyGame::play_found`].
    pub found: Option<FoundMove>,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<String>,
    /// The best root moves, best first (one unless MultiPV asked for more).
    pub lines: Vec<LineReport>,
}

/// A search that panicked (a bug), with the panic's text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("internal error: search failed: {0}")]
pub struct SearchFailed(pub String);

pub type InfoSink = Box<dyn FnMut(InfoReport) + Send>;
pub type SearchJob = Box<dyn FnOnce() -> SearchReport + Send>;
/// A perft to run on the search thread.
pub type PerftJob = Box<dyn FnOnce() -> Result<u64, games::PerftStop> + Send>;
/// A perft split by root move (canonical notation, byte order), to run on the search thread.
pub type DivideJob = Box<dyn FnOnce() -> Result<Vec<(String, u64)>, games::PerftStop> + Send>;
