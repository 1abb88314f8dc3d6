//! Poddavki: giveaway Russian draughts (rules: `docs/rules/poddavki.md`). Russian draughts move
//! rules (flying kings, Turkish strike, compulsory capture without majority rule); the side to
//! move without a legal move wins.

mod actions;
mod board;
mod eval;
mod learned;
mod movegen;
mod notation;
mod perft;
mod picture;
mod playout;
mod position;
#[cfg(test)]
mod tests;
mod weights;

use rand::rngs::SmallRng;

use std::ops::ControlFlow;

use super::learned::{eval_options, parse_eval_choice};
use super::{
    DrawRules, FastPaths, GameOptions, Notation, Outcome, RecordFormat, RuleError, Rules,
    SearchHooks, Side, Terminal,
};
use crate::options::{GameOption, Kind};
pub use board::{Move, Position};

/// The game with its two house draw rules, each switchable (`draw_repetition`,
/// `draw_no_progress`), and its evaluation (`eval`: the hand-written one or the learned one,
/// whose weights `eval_file` may load from a file).
#[derive(Clone, Debug)]
pub struct Poddavki {
    draw_repetition: bool,
    draw_no_progress: bool,
    learned: bool,
    /// Where `weights` came from: a file, or `builtin` (the shipped ones).
    eval_file: String,
    weights: learned::LearnedWeights,
}

impl Default for Poddavki {
    fn default() -> Self {
        Poddavki {
            draw_repetition: true,
            draw_no_progress: true,
            learned: true,
            eval_file: "builtin".to_string(),
            weights: learned::WEIGHT_FILE.built_in().clone(),
        }
    }
}

fn side_of(index: usize) -> Side {
    if index == board::WHITE {
        Side::P1
    } else {
        Side::P2
    }
}

fn parse_switch(name: &str, value: &str) -> Result<bool, RuleError> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" | "on" | "1" => Ok(true),
        "false" | "off" | "0" => Ok(false),
        _ => Err(RuleError::Option(format!(
            "{name} takes true or false, not '{}'",
            value.trim()
        ))),
    }
}

impl Rules for Poddavki {
    type Pos = Position;
    type Move = Move;

    fn name(&self) -> &'static str {
        "poddavki"
    }
    fn side_names(&self) -> [&'static str; 2] {
        ["white", "black"]
    }
    fn start(&self) -> Position {
        Position::start()
    }
    fn side_to_move(&self, pos: &Position) -> Side {
        side_of(pos.stm)
    }
    fn for_each_move<F: FnMut(Move) -> ControlFlow<()>>(
        &self,
        pos: &Position,
        f: F,
    ) -> ControlFlow<()> {
        movegen::for_each_move(pos, f)
    }
    fn make(&self, pos: &Position, mv: Move) -> Position {
        pos.make(mv)
    }
    fn hash(&self, pos: &Position) -> u64 {
        pos.hash
    }
    fn terminal(&self, _pos: &Position) -> Option<Terminal> {
        None
    }
    fn no_moves(&self, pos: &Position) -> Terminal {
        Terminal::new(Outcome::Win(side_of(pos.stm)), "no-moves")
    }
    fn draw_rules(&self) -> DrawRules {
        DrawRules {
            repetition: self.draw_repetition.then_some(playout::REPETITIONS),
            no_progress_plies: self
                .draw_no_progress
                .then_some(playout::NO_PROGRESS_PLIES as u32),
            search_repetition: false,
        }
    }
    fn is_progress(&self, pos: &Position, mv: Move) -> bool {
        mv.is_capture() || pos.kings >> mv.from & 1 == 0
    }
}

impl Notation for Poddavki {
    fn format_move(&self, pos: &Position, mv: Move) -> String {
        notation::format_move(pos, mv)
    }
    fn parse_move(&self, pos: &Position, text: &str) -> Result<Move, RuleError> {
        notation::parse_move(pos, text)
    }
    fn format_position(&self, pos: &Position) -> String {
        position::format_position(pos)
    }
    fn parse_position(&self, text: &str) -> Result<Position, RuleError> {
        position::parse_position(text)
    }
    fn render(&self, pos: &Position) -> String {
        position::render(pos)
    }
    /// PDN as draughts programs read it: Russian draughts (GameType 25, White first, 8x8,
    /// algebraic squares from White's lower left), giveaway rules, captures with `x`.
    fn record_format(&self) -> RecordFormat {
        RecordFormat {
            extension: "pdn",
            tags: &[("GameType", "25,W,8,8,A0,0"), ("Rules", "giveaway")],
            spelling: &[(':', 'x')],
        }
    }
}

impl SearchHooks for Poddavki {
    fn evaluate(&self, pos: &Position) -> i32 {
        if self.learned {
            learned::evaluate(pos, &self.weights)
        } else {
            eval::evaluate(pos)
        }
    }
    fn eval_terms(&self, pos: &Position) -> Vec<(&'static str, i32)> {
        if self.learned {
            learned::terms(pos, &self.weights)
        } else {
            eval::terms(pos)
        }
    }
    fn order_hint(&self, pos: &Position, mv: Move) -> i32 {
        eval::order_hint(pos, mv)
    }
    fn is_forcing(&self, pos: &Position) -> bool {
        movegen::has_capture(pos)
    }
}

impl FastPaths for Poddavki {
    // A 6-ply subtree is thousands to a few million leaves: well under 0.1 s at the fast perft.
    const PERFT_SUBTREE_DEPTH: u32 = 6;
    fn perft(&self, pos: &Position, depth: u32) -> u64 {
        perft::perft(pos, depth)
    }
    fn playout(&self, pos: &Position, rng: &mut SmallRng, max_plies: u32) -> Outcome {
        playout::playout(self, pos, rng, max_plies)
    }
}

impl GameOptions for Poddavki {
    fn set_option(&mut self, name: &str, value: &str) -> Result<bool, RuleError> {
        match name.trim().to_ascii_lowercase().as_str() {
            "draw_repetition" => self.draw_repetition = parse_switch(name, value)?,
            "draw_no_progress" => self.draw_no_progress = parse_switch(name, value)?,
            "eval" => {
                self.learned = parse_eval_choice(value)?;
            }
            "eval_file" => {
                self.weights = learned::WEIGHT_FILE.load(value.trim())?;
                self.eval_file = value.trim().to_string();
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
    fn options(&self) -> Vec<GameOption> {
        let mut options = vec![
            GameOption::new("draw_repetition", Kind::Check, self.draw_repetition),
            GameOption::new("draw_no_progress", Kind::Check, self.draw_no_progress),
        ];
        options.extend(eval_options(self.learned, &self.eval_file));
        options
    }
}

impl super::Tunable for Poddavki {
    fn weight_names(&self) -> &'static [&'static str] {
        eval::Weights::NAMES
    }
    fn weights(&self) -> Vec<i32> {
        eval::WEIGHTS.to_array().to_vec()
    }
    fn features(&self, pos: &Position) -> Option<Vec<i32>> {
        Some(eval::features(pos).to_vec())
    }
    fn learned_size(&self) -> usize {
        learned::SIZE
    }
    fn learned_inputs(&self, pos: &Position, out: &mut Vec<(u32, i32)>) {
        learned::inputs(pos, out)
    }
    fn learned_network(&self) -> bool {
        true
    }
    fn learned_start(&self) -> Vec<i32> {
        learned::start()
    }
}
