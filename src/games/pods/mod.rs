//! Pods ("Pod Cave", Vincent Everaert 2010), standard and advanced rules
//! (rules: `docs/rules/pods.md`).
//!
//! The board's missing lines and the pod table are data (`pods.dat`, replaceable at run time);
//! the `Pods` value carries them with tables precomputed for the four rotations.

use std::ops::ControlFlow;
use std::sync::{Arc, Mutex};

use rand::rngs::SmallRng;

use super::learned::{eval_options, parse_eval_choice};
use super::{
    DrawRules, FastPaths, GameOptions, MoveInput, Moves, Notation, Outcome, ProvenMove, Reductions,
    RootMoves, RuleError, Rules, SearchHooks, SearchTuning, Side, Terminal, ThreadTuning,
};
use crate::options::{GameOption, Kind};

mod actions;
pub mod board;
pub mod data;
pub mod dfpn;
pub mod eval;
mod learned;
pub mod movegen;
#[cfg(test)]
mod naive;
mod notation;
mod picture;
pub mod position;
pub mod proof;
pub mod solver;
pub mod tables;
#[cfg(test)]
mod tests;
mod weights;

pub use data::{DataError, PodsData};
pub use movegen::PodsMove;
pub use position::Pos;
use proof::RootVerdict;
use solver::SolveCache;
use tables::Tables;

/// Which rules a Pods game is played under (`docs/rules/pods.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PodsRules {
    Standard,
    Advanced,
}

impl PodsRules {
    /// The game's protocol name under these rules: the one place it is spelled (the registry,
    /// the picture and the learned weight file ask here).
    pub const fn name(self) -> &'static str {
        match self {
            PodsRules::Standard => "pods-standard",
            PodsRules::Advanced => "pods-advanced",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Pods {
    pub rules: PodsRules,
    data: Arc<PodsData>,
    tables: Arc<Tables>,
    /// Rotation (quarter turns) of the start position `clear_board` gives.
    start_rot: u8,
    /// Root solutions already proven, so repeated root calls of one search do not re-solve.
    cache: Arc<Mutex<SolveCache<RootVerdict>>>,
    /// Node budget of the standard root solver (0 = off).
    solver_nodes: u64,
    /// Advanced only: the learned evaluation (`eval learned`, the default) rather than the
    /// hand-written one.
    learned: bool,
    /// Where `weights` came from: a file, or `builtin` (the shipped ones).
    eval_file: String,
    weights: learned::LearnedWeights,
}

impl Default for Pods {
    fn default() -> Pods {
        Pods::new(PodsRules::Standard)
    }
}

impl Pods {
    pub fn new(rules: PodsRules) -> Pods {
        Pods::with_data(rules, PodsData::builtin())
    }

    pub fn with_data(rules: PodsRules, data: PodsData) -> Pods {
        let tables = Tables::new(&data);
        Pods {
            rules,
            data: Arc::new(data),
            tables: Arc::new(tables),
            start_rot: 0,
            cache: Arc::default(),
            solver_nodes: solver::ROOT_NODE_LIMIT,
            learned: true,
            eval_file: "builtin".to_string(),
            weights: learned::WEIGHT_FILE.built_in().clone(),
        }
    }

    /// Game with data parsed from `text` (same shape as the built-in file).
    pub fn from_data_str(rules: PodsRules, text: &str) -> Result<Pods, DataError> {
        Ok(Pods::with_data(rules, PodsData::parse(text, "string")?))
    }

    /// Whether the advanced rules are in force (the move generator's switch).
    pub fn advanced(&self) -> bool {
        self.rules == PodsRules::Advanced
    }

    /// Replaces the data by the file's; on any error the current data stays.
    pub fn load_data_file(&mut self, path: &str) -> anyhow::Result<()> {
        let data = PodsData::load(path).map_err(|e| anyhow::anyhow!("pods data {path}: {e}"))?;
        self.set_data(data);
        Ok(())
    }

    pub fn set_data(&mut self, data: PodsData) {
        self.tables = Arc::new(Tables::new(&data));
        self.data = Arc::new(data);
        self.cache = Arc::default();
    }

    pub fn data(&self) -> &PodsData {
        &self.data
    }

    /// Start position with the line pattern turned by `degrees` (0, 90, 180 or 270).
    pub fn start_rotated(&self, degrees: u32) -> Option<Pos> {
        match degrees {
            0 | 90 | 180 | 270 => Some(Pos::start((degrees / 90) as u8)),
            _ => None,
        }
    }

    /// Start position string for a rotation, e.g. for randomly rotated games.
    pub fn start_string(degrees: u32) -> Option<String> {
        match degrees {
            0 | 90 | 180 | 270 => Some(position::format(&Pos::start((degrees / 90) as u8))),
            _ => None,
        }
    }

    fn side_of(colour: usize) -> Side {
        if colour == 0 {
            Side::P1
        } else {
            Side::P2
        }
    }
}

impl Rules for Pods {
    type Pos = Pos;
    type Move = PodsMove;

    fn name(&self) -> &'static str {
        self.rules.name()
    }
    fn side_names(&self) -> [&'static str; 2] {
        ["white", "black"]
    }
    fn start(&self) -> Pos {
        Pos::start(self.start_rot)
    }
    fn side_to_move(&self, pos: &Pos) -> Side {
        Pods::side_of(usize::from(pos.side))
    }
    fn for_each_move<F: FnMut(PodsMove) -> ControlFlow<()>>(
        &self,
        pos: &Pos,
        f: F,
    ) -> ControlFlow<()> {
        self.tables.for_each_move(pos, self.advanced(), f)
    }
    fn make(&self, pos: &Pos, mv: PodsMove) -> Pos {
        self.tables.make(pos, mv, self.advanced())
    }
    fn hash(&self, pos: &Pos) -> u64 {
        pos.hash
    }
    fn terminal(&self, pos: &Pos) -> Option<Terminal> {
        if self.advanced() && self.tables.hand_emptied(pos) {
            let winner = Pods::side_of(usize::from(pos.side ^ 1));
            return Some(Terminal::new(Outcome::Win(winner), "hand-empty"));
        }
        None
    }
    fn no_moves(&self, pos: &Pos) -> Terminal {
        let winner = Pods::side_of(usize::from(pos.side ^ 1));
        Terminal::new(Outcome::Win(winner), "no-moves")
    }
    fn draw_rules(&self) -> DrawRules {
        DrawRules {
            repetition: None,
            no_progress_plies: None,
            search_repetition: self.advanced(),
        }
    }
    fn is_progress(&self, pos: &Pos, mv: PodsMove) -> bool {
        if !self.advanced() {
            // Every standard move fills a point for good.
            return true;
        }
        // Only a pod leaving the game is certainly irreversible: hands refill on removal.
        let in_play = |p: &Pos| {
            (p.occ[0] | p.occ[1]).count_ones() + p.hand[0].count_ones() + p.hand[1].count_ones()
        };
        in_play(&self.make(pos, mv)) < in_play(pos)
    }
}

impl Notation for Pods {
    fn format_move(&self, _pos: &Pos, mv: PodsMove) -> String {
        notation::format(mv)
    }
    fn parse_move(&self, pos: &Pos, text: &str) -> Result<PodsMove, RuleError> {
        notation::parse(self, pos, text)
    }
    fn format_position(&self, pos: &Pos) -> String {
        position::format(pos)
    }
    fn parse_position(&self, text: &str) -> Result<Pos, RuleError> {
        position::parse(text)
    }
    fn render(&self, pos: &Pos) -> String {
        position::render(pos, self.tables.geo(pos))
    }
    fn move_input(&self, _pos: &Pos, mv: PodsMove) -> MoveInput {
        notation::input(mv)
    }
}

impl SearchHooks for Pods {
    fn evaluate(&self, pos: &Pos) -> i32 {
        if self.advanced() {
            if self.learned {
                learned::evaluate(&self.tables, pos, &self.weights)
            } else {
                eval::advanced(&self.tables, pos)
            }
        } else {
            eval::standard(&self.tables, pos)
        }
    }
    fn order_hint(&self, pos: &Pos, mv: PodsMove) -> i32 {
        eval::order_hint(&self.tables, pos, mv, self.advanced())
    }
    /// Late in a standard game, only a proven winning move.
    fn root_moves_until(&self, pos: &Pos, out: &mut Vec<PodsMove>, interrupt: &dyn Fn() -> bool) {
        let start = out.len();
        self.legal_moves(pos, out);
        let win = match proof::root_verdict(self, pos, interrupt) {
            RootVerdict::Won(m) => Some(m),
            RootVerdict::Proven(p) if p.win => p.pv.first().copied(),
            _ => None,
        };
        if let Some(m) = win.filter(|m| out[start..].contains(m)) {
            out.truncate(start);
            out.push(m);
        }
    }
    fn root_until(&self, pos: &Pos, interrupt: &dyn Fn() -> bool) -> RootMoves<PodsMove> {
        let mut search = Vec::new();
        self.legal_moves(pos, &mut search);
        let proven = match proof::root_verdict(self, pos, interrupt) {
            RootVerdict::Proven(p) => p.pv.first().copied().map(|m| (m, p)),
            RootVerdict::Won(m) => {
                // Proven won, distance unknown: the winning move, searched alone.
                search.retain(|&x| x == m);
                None
            }
            _ => None,
        };
        let proven = proven.map(|(m, p)| {
            search.retain(|&x| x != m);
            ProvenMove {
                win: p.win,
                plies: p.plies,
                pv: p.pv,
                nodes: p.nodes,
            }
        });
        RootMoves { search, proven }
    }
    // Measured in Pods advanced at fixed work (docs/strength/engine.md); Pods standard keeps the
    // plain search. With a hundred or more moves a ply, late-move pruning near the horizon
    // buys the most depth. No node is guarded as forcing: the evaluation already scores a
    // last-pod threat nobody can stop, and searching threatened nodes in full measured worse.
    fn search_tuning(&self) -> SearchTuning {
        if !self.advanced() {
            return SearchTuning::DEFAULT;
        }
        SearchTuning {
            reductions: Reductions::Log { percent: 100 },
            history_malus: true,
            iir: true,
            futility_margin: Some(100),
            late_move_percent: Some(100),
            threads: ThreadTuning {
                independent: true,
                share_moves: true,
            },
            ..SearchTuning::DEFAULT
        }
    }
}

impl FastPaths for Pods {
    // Hundreds of moves a ply: a 2-ply subtree is around 10^5 leaves.
    const PERFT_SUBTREE_DEPTH: u32 = 2;
    fn perft(&self, pos: &Pos, depth: u32) -> u64 {
        self.tables.perft(pos, depth, self.advanced())
    }
    fn playout(&self, pos: &Pos, rng: &mut SmallRng, max_plies: u32) -> Outcome {
        match self.tables.playout(pos, self.advanced(), rng, max_plies) {
            Some(colour) => Outcome::Win(Pods::side_of(colour)),
            None => Outcome::Draw,
        }
    }
}

impl GameOptions for Pods {
    fn set_option(&mut self, name: &str, value: &str) -> Result<bool, RuleError> {
        match name {
            "pods_data" => {
                let value = value.trim();
                if value == "builtin" {
                    self.set_data(PodsData::builtin());
                    return Ok(true);
                }
                let data = PodsData::load(value)
                    .map_err(|e| RuleError::Option(format!("pods_data {value}: {e}")))?;
                self.set_data(data);
                Ok(true)
            }
            "pods_rotation" => {
                let degrees = value.trim().parse::<u32>().ok();
                match degrees.and_then(|d| self.start_rotated(d)) {
                    Some(pos) => {
                        self.start_rot = pos.rot;
                        Ok(true)
                    }
                    None => Err(RuleError::Option(format!(
                        "pods_rotation '{value}': expected 0, 90, 180 or 270"
                    ))),
                }
            }
            "pods_solver_nodes" => match value.trim().parse::<u64>() {
                Ok(n) => {
                    self.solver_nodes = n;
                    self.cache = Arc::default();
                    Ok(true)
                }
                Err(_) => Err(RuleError::Option(format!(
                    "pods_solver_nodes '{value}': expected a node count (0 = off)"
                ))),
            },
            // The evaluation's options are advanced's: standard's leans on its solver.
            "eval" if self.advanced() => {
                self.learned = parse_eval_choice(value)?;
                Ok(true)
            }
            "eval_file" if self.advanced() => {
                let path = value.trim();
                self.weights = learned::WEIGHT_FILE.load(path)?;
                self.eval_file = path.to_string();
                Ok(true)
            }
            _ => Ok(false),
        }
    }
    fn options(&self) -> Vec<GameOption> {
        let mut options = vec![
            GameOption::new("pods_data", Kind::Path, &self.data.source),
            GameOption::new(
                "pods_rotation",
                Kind::Combo(&["0", "90", "180", "270"]),
                u32::from(self.start_rot) * 90,
            ),
            GameOption::new(
                "pods_solver_nodes",
                Kind::Spin {
                    min: 0,
                    max: solver::MAX_ROOT_NODES,
                },
                self.solver_nodes,
            ),
        ];
        if self.advanced() {
            options.extend(eval_options(self.learned, &self.eval_file));
        }
        options
    }
}

/// Advanced Pods only: the standard evaluation leans on the solver.
impl super::Tunable for Pods {
    fn weight_names(&self) -> &'static [&'static str] {
        if self.advanced() {
            eval::Weights::NAMES
        } else {
            &[]
        }
    }
    fn weights(&self) -> Vec<i32> {
        if self.advanced() {
            eval::WEIGHTS.to_array().to_vec()
        } else {
            Vec::new()
        }
    }
    fn features(&self, pos: &Pos) -> Option<Vec<i32>> {
        if !self.advanced() {
            return None;
        }
        match eval::advanced_terms(&self.tables, pos) {
            eval::Terms::Weighted(f) => Some(f.to_vec()),
            eval::Terms::Fixed(_) => None,
        }
    }
    fn learned_size(&self) -> usize {
        if self.advanced() {
            learned::SIZE
        } else {
            0
        }
    }
    fn learned_inputs(&self, pos: &Pos, out: &mut Vec<(u32, i32)>) {
        if self.advanced() {
            learned::inputs(&self.tables, pos, out);
        }
    }
    fn learned_network(&self) -> bool {
        self.advanced()
    }
    fn learned_start(&self) -> Vec<i32> {
        if self.advanced() {
            learned::start()
        } else {
            Vec::new()
        }
    }
    fn learned_fixed(&self, pos: &Pos) -> bool {
        self.advanced() && learned::is_fixed(&self.tables, pos)
    }
}
