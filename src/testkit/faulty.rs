//! The toy game with one hook broken, standing in for a bug there. Everything the fault leaves
//! alone is Nim's own, so a test shows what the search, the session or the protocol loop does
//! with that one panic and nothing else.

use std::ops::ControlFlow;

use super::nim::{Nim, NimPos};
use crate::games::prelude::*;
use crate::games::{ActionSpace, RuleError, Side, Terminal};
use crate::games::{Draw, Tunable};

/// Which hook panics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// `evaluate`, on the search's helper threads only (named "search"; test threads are not):
    /// a bug only a helper meets.
    HelperEvaluation,
    /// `root_moves_until` and `perft`, everywhere.
    RootMovesAndPerft,
}

/// Nim with a [`Fault`], from a pile of `start` stones.
#[derive(Clone, Copy, Debug)]
pub struct Faulty {
    pub fault: Fault,
    pub start: u32,
}

impl Faulty {
    pub fn new(fault: Fault) -> Faulty {
        Faulty {
            fault,
            start: Nim::START,
        }
    }
}

impl Rules for Faulty {
    type Pos = NimPos;
    type Move = u32;
    fn name(&self) -> &'static str {
        "faulty"
    }
    fn side_names(&self) -> [&'static str; 2] {
        Nim.side_names()
    }
    fn start(&self) -> NimPos {
        NimPos {
            stones: self.start,
            side: Side::P1,
        }
    }
    fn side_to_move(&self, pos: &NimPos) -> Side {
        Nim.side_to_move(pos)
    }
    fn for_each_move<F: FnMut(u32) -> ControlFlow<()>>(
        &self,
        pos: &NimPos,
        f: F,
    ) -> ControlFlow<()> {
        Nim.for_each_move(pos, f)
    }
    fn make(&self, pos: &NimPos, mv: u32) -> NimPos {
        Nim.make(pos, mv)
    }
    fn hash(&self, pos: &NimPos) -> u64 {
        Nim.hash(pos)
    }
    fn terminal(&self, pos: &NimPos) -> Option<Terminal> {
        Nim.terminal(pos)
    }
    fn no_moves(&self, pos: &NimPos) -> Terminal {
        Nim.no_moves(pos)
    }
    fn is_progress(&self, pos: &NimPos, mv: u32) -> bool {
        Nim.is_progress(pos, mv)
    }
}

impl Notation for Faulty {
    fn format_move(&self, pos: &NimPos, mv: u32) -> String {
        Nim.format_move(pos, mv)
    }
    fn parse_move(&self, pos: &NimPos, text: &str) -> Result<u32, RuleError> {
        Nim.parse_move(pos, text)
    }
    fn format_position(&self, pos: &NimPos) -> String {
        Nim.format_position(pos)
    }
    fn parse_position(&self, text: &str) -> Result<NimPos, RuleError> {
        Nim.parse_position(text)
    }
    fn render(&self, pos: &NimPos) -> String {
        Nim.render(pos)
    }
}

impl SearchHooks for Faulty {
    fn evaluate(&self, pos: &NimPos) -> i32 {
        if self.fault == Fault::HelperEvaluation {
            assert_ne!(std::thread::current().name(), Some("search"), "helper bug");
        }
        Nim.evaluate(pos)
    }
    fn root_moves_until(&self, pos: &NimPos, out: &mut Vec<u32>, stop: &dyn Fn() -> bool) {
        if self.fault == Fault::RootMovesAndPerft {
            panic!("root_moves bug");
        }
        Nim.root_moves_until(pos, out, stop);
    }
}

impl FastPaths for Faulty {
    // Every perft goes to the game's own, where the fault is.
    const PERFT_SUBTREE_DEPTH: u32 = u32::MAX;
    fn perft(&self, pos: &NimPos, depth: u32) -> u64 {
        if self.fault == Fault::RootMovesAndPerft {
            panic!("perft bug");
        }
        Nim.perft(pos, depth)
    }
}

impl GameOptions for Faulty {}
impl Draw for Faulty {}
impl Tunable for Faulty {}

impl Actions for Faulty {
    fn action_space(&self) -> ActionSpace {
        Nim.action_space()
    }
    fn action_key(&self, pos: &NimPos, mv: u32) -> usize {
        Nim.action_key(pos, mv)
    }
    fn observation_shape(&self) -> [usize; 3] {
        Nim.observation_shape()
    }
    fn observe(&self, pos: &NimPos, out: &mut [f32]) {
        Nim.observe(pos, out)
    }
}
