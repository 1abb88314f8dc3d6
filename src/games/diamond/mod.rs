//! Diamond (Larry Back): make a square of four on the 62-point snub-square board.
//! Rules: `docs/rules/diamond.md`. Black (P1) moves first; White (P2) may `swap` once.

mod actions;
mod board;
mod eval;
mod learned;
mod movegen;
mod notation;
mod picture;
mod playout;
mod position;
/// Win-in-one and block-one positions and their brute-force checkers: test fixtures, for the
/// unit tests and (feature `testkit`) the integration tests.
#[cfg(any(test, feature = "testkit"))]
#[path = "tests/suites.rs"]
pub mod suites;

#[cfg(test)]
mod tests;
mod weights;

use rand::rngs::SmallRng;

use std::ops::ControlFlow;

use super::learned::{eval_options, parse_eval_choice};
use super::{
    DrawRules, FastPaths, GameOptions, Notation, Outcome, Reductions, RuleError, Rules,
    SearchHooks, SearchTuning, Side, Terminal,
};
use crate::options::GameOption;

pub use movegen::Move;
pub use position::Pos;

/// The game with its evaluation (`eval`: the hand-written one or the learned one, whose
/// weights `eval_file` may load from a file).
#[derive(Clone, Debug)]
pub struct Diamond {
    learned: bool,
    /// Loaded from the file `eval_file` names; `None`: the shipped ones (`builtin`).
    weights: Option<(String, learned::LearnedWeights)>,
}

/// The game with its default options, usable as a value as when the game had none.
#[allow(non_upper_case_globals)]
pub const Diamond: Diamond = Diamond {
    learned: true,
    weights: None,
};

impl Default for Diamond {
    fn default() -> Self {
        Diamond
    }
}

impl Rules for Diamond {
    type Pos = Pos;
    type Move = Move;

    fn name(&self) -> &'static str {
        "diamond"
    }
    fn side_names(&self) -> [&'static str; 2] {
        ["black", "white"]
    }
    fn start(&self) -> Pos {
        Pos::start()
    }
    fn side_to_move(&self, pos: &Pos) -> Side {
        playout::side_of(pos.stm)
    }
    fn for_each_move<F: FnMut(Move) -> ControlFlow<()>>(&self, pos: &Pos, f: F) -> ControlFlow<()> {
        movegen::for_each_move(pos, f)
    }
    fn make(&self, pos: &Pos, mv: Move) -> Pos {
        movegen::make(pos, mv)
    }
    fn hash(&self, pos: &Pos) -> u64 {
        pos.hash
    }
    fn terminal(&self, pos: &Pos) -> Option<Terminal> {
        playout::terminal(pos)
    }
    fn no_moves(&self, _pos: &Pos) -> Terminal {
        Terminal::new(Outcome::Draw, "no-moves")
    }
    fn draw_rules(&self) -> DrawRules {
        // The 50-ply rule lives in the position's counter (see `terminal`).
        DrawRules {
            repetition: Some(3),
            no_progress_plies: None,
            search_repetition: false,
        }
    }
    fn is_progress(&self, pos: &Pos, mv: Move) -> bool {
        movegen::is_progress(pos, mv)
    }
}

impl Notation for Diamond {
    fn format_move(&self, pos: &Pos, mv: Move) -> String {
        notation::format_move(pos, mv)
    }
    fn parse_move(&self, pos: &Pos, text: &str) -> Result<Move, RuleError> {
        notation::parse_move(pos, text)
    }
    fn format_position(&self, pos: &Pos) -> String {
        pos.to_fen()
    }
    fn parse_position(&self, text: &str) -> Result<Pos, RuleError> {
        Pos::from_fen(text)
    }
    fn render(&self, pos: &Pos) -> String {
        pos.render()
    }
}

/// The clock's estimate of a side's steps once its hand is empty.
const MOVES_AFTER_PLACING: u32 = 10;

impl SearchHooks for Diamond {
    fn evaluate(&self, pos: &Pos) -> i32 {
        if self.learned {
            let w = match &self.weights {
                Some((_, w)) => w,
                None => learned::WEIGHT_FILE.built_in(),
            };
            learned::evaluate(pos, w)
        } else {
            eval::evaluate(pos)
        }
    }
    fn order_hint(&self, pos: &Pos, mv: Move) -> i32 {
        eval::order_hint(pos, mv)
    }
    fn order_hints(&self, pos: &Pos, moves: &[Move], hints: &mut Vec<i32>) {
        eval::order_hints(pos, moves, hints)
    }
    fn is_forcing(&self, pos: &Pos) -> bool {
        eval::is_forcing(pos)
    }
    /// Games last about 22 moves a side: the pieces still to place, then some ten steps (at the
    /// default 30 the clock's last second was never used).
    fn moves_left(&self, pos: &Pos) -> Option<u32> {
        Some(u32::from(pos.hand[pos.stm]) + MOVES_AFTER_PLACING)
    }
    // Measured at fixed work against the plain search (docs/strength/engine.md). A move the ordering
    // hint scores as making a three-corner square (20,000 a square, more for blocking or
    // completing one) is a threat: pruning it, or the reply to it, hides mates of squares built
    // move by move.
    fn search_tuning(&self) -> SearchTuning {
        SearchTuning {
            futility_margin: Some(80),
            late_move_percent: Some(100),
            threat_hint: Some(20_000),
            reductions: Reductions::Log { percent: 100 },
            ..SearchTuning::DEFAULT
        }
    }
}

impl FastPaths for Diamond {
    // About fifty moves a ply: a 3-ply subtree is around 10^5 leaves.
    const PERFT_SUBTREE_DEPTH: u32 = 3;
    fn perft(&self, pos: &Pos, depth: u32) -> u64 {
        playout::perft(pos, depth)
    }
    fn playout(&self, pos: &Pos, rng: &mut SmallRng, max_plies: u32) -> Outcome {
        playout::playout(pos, rng, max_plies)
    }
}

impl GameOptions for Diamond {
    fn set_option(&mut self, name: &str, value: &str) -> Result<bool, RuleError> {
        match name.trim().to_ascii_lowercase().as_str() {
            "eval" => {
                self.learned = parse_eval_choice(value)?;
            }
            "eval_file" => {
                let path = value.trim();
                self.weights = match path {
                    "builtin" => None,
                    _ => Some((path.to_string(), learned::WEIGHT_FILE.load(path)?)),
                };
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
    fn options(&self) -> Vec<GameOption> {
        let file = self.weights.as_ref().map_or("builtin", |(f, _)| f.as_str());
        eval_options(self.learned, file).to_vec()
    }
}

impl super::Tunable for Diamond {
    fn weight_names(&self) -> &'static [&'static str] {
        eval::Weights::NAMES
    }
    fn weights(&self) -> Vec<i32> {
        eval::WEIGHTS.to_array().to_vec()
    }
    fn features(&self, pos: &Pos) -> Option<Vec<i32>> {
        match eval::terms(pos) {
            eval::Terms::Weighted(f) => Some(f.to_vec()),
            eval::Terms::Fixed(_) => None,
        }
    }
    fn learned_size(&self) -> usize {
        learned::SIZE
    }
    fn learned_inputs(&self, pos: &Pos, out: &mut Vec<(u32, i32)>) {
        learned::inputs(pos, out)
    }
    fn learned_network(&self) -> bool {
        true
    }
    fn learned_start(&self) -> Vec<i32> {
        learned::start()
    }
}
