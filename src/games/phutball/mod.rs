//! Phutball (Philosopher's Football), per `docs/rules/phutball.md`: Red (first mover) scores on rows
//! 19–20, Blue on rows 0–1; men are shared, the ball moves by chains of jumps.
//!
//! Search support: an exact "score now" solver ([`Phutball::winning_move`]), threat detection and
//! the exact set of moves that stop a threat ([`Phutball::threat_stoppers`]), and a selective
//! candidate list for quiet nodes, since ~300 placements make full width hopeless.

pub mod board;
mod chain;
pub mod eval;
mod learned;
pub mod movegen;
pub mod notation;
pub mod paths;
mod picture;
pub mod position;
pub mod scoring;
pub mod stateset;
/// Tactical suites (score in one, stop the threat) and their brute-force checkers: test
/// fixtures, for the unit tests and (feature `testkit`) the integration tests.
#[cfg(any(test, feature = "testkit"))]
#[path = "tests/suites.rs"]
pub mod suites;
pub mod tactics;
#[cfg(test)]
mod tests;
/// Canonical names of all of a position's ball moves from one walk.
pub mod tree;

use std::ops::ControlFlow;

use rand::rngs::SmallRng;
use rand::Rng;

use super::learned::{eval_options, parse_eval_choice};
use super::{
    ending, DrawRules, DrawTracker, FastPaths, GameOptions, Notation, Outcome, Reductions,
    RuleError, Rules, SearchHooks, SearchTuning, Side, Terminal,
};
use crate::options::GameOption;
use board::{BLUE_SCORES, RED_SCORES};
pub use movegen::Move;
pub use position::Pos;
use tactics::Urgency;

/// Score for "the side to move scores with this move": below [`super::EVAL_LIMIT`], above any
/// positional score.
pub const WIN_NOW: i32 = 19_000;

/// Ball moves a playout collects per ply. Dense positions have millions of distinct chains; past
/// this many the playout picks among the ones found (so it is uniform only below the cap).
const PLAYOUT_JUMPS: usize = 2_000;

/// The game, with its evaluation (`eval`: the hand-written race measure or the learned one,
/// whose weights `eval_file` may load from a file).
#[derive(Clone, Debug)]
pub struct Phutball {
    learned: bool,
    /// Where `weights` came from: a file, or `builtin` (the shipped ones).
    eval_file: String,
    weights: learned::LearnedWeights,
}

impl Default for Phutball {
    fn default() -> Self {
        Phutball {
            learned: true,
            eval_file: "builtin".to_string(),
            weights: learned::WEIGHT_FILE.built_in().clone(),
        }
    }
}

impl Phutball {
    /// A ball move that scores for the side to move now, if there is one (exhaustive).
    pub fn winning_move(&self, pos: &Pos) -> Option<Move> {
        tactics::winning_move(pos)
    }
    /// A chain with which the opponent would score if it were his turn.
    pub fn threat(&self, pos: &Pos) -> Option<Move> {
        tactics::threat(pos)
    }
    /// The moves after which the opponent cannot score next move; empty when there is no threat
    /// (see [`Self::threat`]) or nothing stops it.
    pub fn threat_stoppers(&self, pos: &Pos) -> Vec<Move> {
        tactics::threat_stoppers(pos)
    }
}

impl Rules for Phutball {
    type Pos = Pos;
    type Move = Move;

    fn name(&self) -> &'static str {
        "phutball"
    }
    fn side_names(&self) -> [&'static str; 2] {
        ["red", "blue"]
    }
    fn start(&self) -> Pos {
        Pos::start()
    }
    fn side_to_move(&self, pos: &Pos) -> Side {
        pos.side
    }
    /// Placements, then the ball moves as the walk finds them: a dense board has millions of
    /// ball moves, and "is there a move", a capped count or a perft's capped list stop early.
    fn for_each_move<F: FnMut(Move) -> ControlFlow<()>>(
        &self,
        pos: &Pos,
        mut f: F,
    ) -> ControlFlow<()> {
        for p in pos.empty_placeable().iter() {
            f(Move::Place(p as u16))?;
        }
        tree::for_each_jump(pos, f)
    }
    fn make(&self, pos: &Pos, mv: Move) -> Pos {
        movegen::make(pos, mv)
    }
    fn hash(&self, pos: &Pos) -> u64 {
        pos.hash
    }
    fn terminal(&self, pos: &Pos) -> Option<Terminal> {
        let b = pos.ball as usize;
        if RED_SCORES.get(b) {
            Some(Terminal::new(Outcome::Win(Side::P1), "goal"))
        } else if BLUE_SCORES.get(b) {
            Some(Terminal::new(Outcome::Win(Side::P2), "goal"))
        } else {
            None
        }
    }
    fn no_moves(&self, _pos: &Pos) -> Terminal {
        // Unreachable in practice: a free point or a jump always exists.
        Terminal::new(Outcome::Draw, "no-moves")
    }
    fn draw_rules(&self) -> DrawRules {
        DrawRules {
            repetition: Some(3),
            no_progress_plies: None,
            search_repetition: false,
        }
    }
}

impl Notation for Phutball {
    fn format_move(&self, pos: &Pos, mv: Move) -> String {
        notation::format_move(pos, mv)
    }
    fn parse_move(&self, pos: &Pos, text: &str) -> Result<Move, RuleError> {
        notation::parse_move(pos, text)
    }
    fn format_position(&self, pos: &Pos) -> String {
        notation::format_position(pos)
    }
    fn parse_position(&self, text: &str) -> Result<Pos, RuleError> {
        notation::parse_position(text)
    }
    fn render(&self, pos: &Pos) -> String {
        notation::render(pos)
    }
}

impl SearchHooks for Phutball {
    fn evaluate(&self, pos: &Pos) -> i32 {
        match tactics::eval_facts(pos) {
            (true, _, _) => WIN_NOW,
            (false, true, false) => -WIN_NOW,
            (false, threatened, _) if self.learned => {
                learned::evaluate(pos, threatened, &self.weights)
            }
            (false, threatened, _) => eval::race_eval(pos, false, threatened),
        }
    }
    fn order_hint(&self, pos: &Pos, mv: Move) -> i32 {
        tactics::order_hint(pos, mv)
    }
    fn search_moves(&self, pos: &Pos, out: &mut Vec<Move>) {
        match tactics::urgency(pos, tactics::SEARCH_BUDGET) {
            Urgency::Win(m) => out.push(m),
            Urgency::Threatened(moves) if moves.is_empty() => {
                // Lost whatever we do: one move is enough for search to see it.
                let start = out.len();
                movegen::push_placements(pos, out);
                out.truncate(start + 1);
                if out.len() == start {
                    movegen::push_jumps_limited(pos, 1, out);
                }
            }
            Urgency::Threatened(moves) => out.extend(moves),
            Urgency::Quiet => tactics::quiet_candidates(pos, out),
        }
    }
    fn root_moves_until(&self, pos: &Pos, out: &mut Vec<Move>, _interrupt: &dyn Fn() -> bool) {
        match tactics::root_urgency(pos) {
            Urgency::Win(m) => out.push(m),
            Urgency::Threatened(moves) if !moves.is_empty() => out.extend(moves),
            _ => tactics::root_candidates(pos, out),
        }
    } // Measured at fixed work against the plain search (docs/strength/engine.md).
    fn search_tuning(&self) -> SearchTuning {
        SearchTuning {
            reductions: Reductions::Log { percent: 100 },
            history_malus: true,
            iir: true,
            ..SearchTuning::DEFAULT
        }
    }
}

impl FastPaths for Phutball {
    fn perft(&self, pos: &Pos, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.terminal(pos).is_some() {
            return 0;
        }
        if depth == 1 {
            return movegen::count_moves(pos);
        }
        // Not `legal_moves`: perft needs no canonical paths.
        let mut moves = Vec::new();
        movegen::push_placements(pos, &mut moves);
        movegen::push_jumps(pos, &mut moves);
        moves
            .iter()
            .map(|&m| self.perft(&movegen::make(pos, m), depth - 1))
            .sum()
    }

    /// Placements by bitboard count, ball moves by a walk that only counts: visiting each move
    /// costs ten times more at perft's last ply.
    fn count_moves_upto(&self, pos: &Pos, cap: usize) -> Option<usize> {
        movegen::count_moves_upto(pos, cap)
    }
    /// One ball move is checked by finding its own chain, which walks only the states over its
    /// men: listing the moves up to it could take millions of states.
    fn is_legal(&self, pos: &Pos, mv: Move) -> bool {
        notation::is_legal(pos, mv)
    }

    // No `PERFT_SUBTREE_DEPTH`: the stoppable walk (capped count and capped move list from
    // `for_each_move`) is this perft with the move cap, and a dense board can be one placement
    // away, so every position is checked against the cap.

    fn playout(&self, pos: &Pos, rng: &mut SmallRng, max_plies: u32) -> Outcome {
        let rules = self.draw_rules();
        let mut tracker = DrawTracker::new(pos.hash);
        let mut pos = *pos;
        let mut jumps = Vec::new();
        for _ in 0..max_plies {
            let free = pos.empty_placeable();
            let listed = || {
                jumps.clear();
                movegen::push_jumps_limited(&pos, PLAYOUT_JUMPS, &mut jumps);
                free.count() as usize + jumps.len() > 0
            };
            if let Some(t) = ending(self, &pos, listed, || tracker.draw(&rules)) {
                return t.outcome;
            }
            let n = free.count() as usize + jumps.len();
            let k = rng.gen_range(0..n);
            let mv = match free.nth(k as u32) {
                Some(p) => Move::Place(p as u16),
                None => jumps[k - free.count() as usize],
            };
            pos = movegen::make(&pos, mv);
            tracker.push(pos.hash, false);
        }
        Outcome::Draw
    }
}

impl GameOptions for Phutball {
    fn set_option(&mut self, name: &str, value: &str) -> Result<bool, RuleError> {
        match name.trim().to_ascii_lowercase().as_str() {
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
        eval_options(self.learned, &self.eval_file).to_vec()
    }
}

/// Not tunable by `tetrad features` (the hand-written evaluation is not a weighted sum of
/// terms), but it has a learned evaluation.
impl super::Tunable for Phutball {
    fn learned_size(&self) -> usize {
        learned::SIZE
    }
    /// None where the evaluation is a fixed score (the side to move scores now, or is
    /// threatened with nothing to stop it).
    fn learned_inputs(&self, pos: &Pos, out: &mut Vec<(u32, i32)>) {
        if let (false, threatened, stoppable) = tactics::eval_facts(pos) {
            if !threatened || stoppable {
                learned::inputs(pos, threatened, out);
            }
        }
    }
    fn learned_start(&self) -> Vec<i32> {
        learned::start()
    }
}
