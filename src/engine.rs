//! The object-safe face of a game for the session: one game's position, history and hash table,
//! driven through strings. Front ends and the session never see a game's types.

use std::any::Any;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use crate::batch::{Chunk, EnvChunk, Opponent};
use crate::games::prelude::*;
use crate::games::{self, DrawTracker, GameKind, MoveInput, RuleError, Side};
use crate::games::{Outcome, Terminal};
use crate::options::GameOption;
use crate::render::{self, Picture};
use crate::search::{self, AllocError, Oracle, Params, Root, Table, Verdict};

mod actions;
mod report;
pub use report::{
    DivideJob, FoundMove, InfoReport, InfoSink, LineReport, PerftJob, SearchFailed, SearchJob,
    SearchReport,
};

/// A game in progress, seen through strings.
pub trait AnyGame: Send {
    fn name(&self) -> &'static str;
    fn side_names(&self) -> [&'static str; 2];
    fn side_to_move(&self) -> Side;
    /// Back to the start position with an empty history.
    fn new_game(&mut self);
    /// Replaces the position (history cleared); on error nothing changes.
    fn set_position(&mut self, text: &str) -> Result<(), RuleError>;
    fn position(&self) -> String;
    /// Start position (or `fen`) plus `moves`, all or nothing: on error nothing changes.
    fn setup(&mut self, fen: Option<&str>, moves: &[String]) -> Result<(), RuleError>;
    /// Plays a move given in (lenient) notation; returns its canonical notation. In the middle
    /// of a move under way, only a move it leads to (see [`AnyGame::actions_of`]).
    fn play(&mut self, text: &str) -> Result<String, RuleError>;
    /// Plays the move a search of the current position found; refused if the position has
    /// changed since. Returns its canonical notation.
    fn play_found(&mut self, found: &FoundMove) -> Result<String, RuleError>;
    /// Takes back the last move (or the last step of a move under way); false when there is
    /// none.
    fn undo(&mut self) -> bool;
    /// Canonical notation of every legal move, sorted in byte order; empty once the game is over.
    /// `None` when there are more than `cap` (counted at a cost bounded by `cap`, nothing built).
    fn legal_moves_upto(&self, cap: usize) -> Option<Vec<String>>;
    /// [`AnyGame::legal_moves_upto`] without a cap: for tests and tools, not for the protocol.
    /// Like [`AnyGame::legal_moves_upto`], each move with how a person enters it.
    fn legal_move_inputs_upto(&self, cap: usize) -> Option<Vec<(String, MoveInput)>>;
    fn legal_moves(&self) -> Vec<String> {
        self.legal_moves_upto(usize::MAX).unwrap_or_default()
    }
    fn result(&self) -> Option<Terminal>;
    /// What a game record needs: where the history starts and its moves, each with its mover.
    fn history(&self) -> History;
    /// Perft from the current position, interruptible through `stop`.
    fn perft_job(&self, depth: u32, stop: Arc<AtomicBool>) -> PerftJob;
    /// [`AnyGame::perft_job`] split by root move.
    fn divide_job(&self, depth: u32, stop: Arc<AtomicBool>) -> DivideJob;
    fn render(&self) -> String;
    /// The position as a picture (board, pieces, last move, result) for `showboard svg` and
    /// `board_layout`.
    fn picture(&self) -> Picture;
    /// The pieces in hand as their buttons draw them (`hand_svg`).
    fn hand(&self) -> Vec<render::HandPiece>;
    /// The static evaluation (side to move's view) and its terms, if the game lists them.
    fn evaluation(&self) -> (i32, Vec<(&'static str, i32)>);
    /// The canonical notation of a move in the current position, without playing it.
    fn check_move(&self, text: &str) -> Result<String, RuleError>;
    fn set_option(&mut self, name: &str, value: &str) -> Result<bool, RuleError>;
    fn options(&self) -> Vec<GameOption>;
    /// Frees the table, then makes a new, empty one of that size, allocated when
    /// [`AnyGame::prepare_hash`] is called (or by the first search): old and new never overlap.
    fn set_hash_kib(&mut self, kib: usize);
    /// Allocates the table now if it is not yet (a search should not pay for it).
    fn prepare_hash(&mut self) -> Result<(), AllocError>;
    fn hash_ready(&self) -> bool;
    /// Hands the table over, for the next game (the engine has one table, not one per game);
    /// this game is left an unallocated one.
    fn take_table(&mut self) -> Table<()>;
    /// Takes over a table [`AnyGame::take_table`] gave, in place of this game's own.
    fn put_table(&mut self, table: Table<()>);
    fn clear_hash(&mut self);
    /// A search of the current position, to run on another thread.
    fn search_job(&self, params: Params, stop: Arc<AtomicBool>, info: InfoSink) -> SearchJob;
    /// Hands the game an oracle for its searches (an `Arc<dyn Oracle<G>>` of this game's type
    /// `G`; `None` takes it away). False when it is not one for this game.
    fn set_oracle(&mut self, oracle: Option<&(dyn Any + Send + Sync)>) -> bool;
    /// The oracle's value of the current position, as stored (no history applied); `None`
    /// without an oracle or when the position is not covered.
    fn oracle_probe(&self) -> Option<Verdict>;
    /// The game's action encoding ([`games::Actions`]).
    fn action_space(&self) -> games::ActionSpace;
    fn observation_shape(&self) -> [usize; 3];
    /// The legal actions of the decision point (the position and the move under way, if a
    /// game takes its moves in several decisions: [`games::actions::Decision`]), ascending
    /// (none once the game is over), and how many legal moves have no action.
    fn legal_actions(&self) -> (Vec<usize>, usize);
    /// The actions that play a move given in notation from the decision point, the last one
    /// completing it (one action for a move of one decision).
    fn actions_of(&self, text: &str) -> Result<Vec<usize>, RuleError>;
    /// The first of [`AnyGame::actions_of`].
    fn action_of(&self, text: &str) -> Result<usize, RuleError> {
        Ok(self.actions_of(text)?[0])
    }
    /// What a legal action plays: the canonical notation of the move it completes, or, for a
    /// step of a move under way, that move so far with the step; `None` when not legal.
    fn move_of(&self, action: usize) -> Option<String>;
    /// Plays a legal action: `Some(notation)` of the move it completed, or `None` when the move
    /// goes on (the same player decides again).
    fn play_action(&mut self, action: usize) -> Result<Option<String>, RuleError>;
    /// The actions of the move under way (empty between moves).
    fn pending(&self) -> Vec<usize>;
    /// The move under way so far, in notation; `None` between moves.
    fn pending_move(&self) -> Option<String>;
    /// The observation planes of the decision point ([`games::Actions::observe_decision`]).
    fn observe(&self, out: &mut [f32]);
    /// A copy of this game (position, history, options, oracle) with a table of its own.
    fn fork(&self) -> Box<dyn AnyGame>;
    /// `n` games of this kind (its options) at the start, for batched play.
    fn env_chunk(&self, n: usize, seeds: u64, opponent: Option<Opponent>) -> Box<dyn EnvChunk>;
}

/// The game played so far, for its record (`game_record`).
#[derive(Clone, Debug, PartialEq)]
pub struct History {
    /// The position string the moves start from.
    pub start: String,
    /// Whether that is the game's own start position (under its current options).
    pub from_start: bool,
    /// Each move in canonical notation, with the side that played it.
    pub moves: Vec<(Side, String)>,
    pub format: games::RecordFormat,
}

pub struct GameState<G: Game> {
    game: G,
    pos: G::Pos,
    /// Positions before each move played, for undo.
    undo: Vec<G::Pos>,
    /// Canonical notation of each move played, parallel to `undo` (for the last-move mark).
    played: Vec<String>,
    tracker: DrawTracker,
    tt: Arc<Mutex<Table<G::Move>>>,
    oracle: Option<Arc<dyn Oracle<G>>>,
    /// The actions of the move under way, for a game that takes a move in several decisions
    /// (the action layer's; the protocol never starts one).
    pending: Vec<u32>,
    /// The move under way when each move played was made, parallel to `undo` (what undo gives
    /// back: the decision point before the last action).
    pending_before: Vec<Vec<u32>>,
}

pub const DEFAULT_HASH_MIB: usize = 16;

impl<G: Game> GameState<G> {
    pub fn new(game: G) -> GameState<G> {
        let pos = game.start();
        let tracker = DrawTracker::new(game.hash(&pos));
        GameState {
            game,
            pos,
            undo: Vec::new(),
            played: Vec::new(),
            tracker,
            tt: Arc::new(Mutex::new(Table::new(DEFAULT_HASH_MIB))),
            oracle: None,
            pending: Vec::new(),
            pending_before: Vec::new(),
        }
    }

    fn reset_to(&mut self, pos: G::Pos) {
        self.tracker = DrawTracker::new(self.game.hash(&pos));
        self.pos = pos;
        self.undo.clear();
        self.played.clear();
        self.pending.clear();
        self.pending_before.clear();
    }

    /// Plays `mv`, legal in the current position; returns its canonical notation.
    fn apply(&mut self, mv: G::Move) -> String {
        let canonical = self.game.format_move(&self.pos, mv);
        let progress = self.game.is_progress(&self.pos, mv);
        let next = self.game.make(&self.pos, mv);
        self.tracker.push(self.game.hash(&next), progress);
        self.undo.push(std::mem::replace(&mut self.pos, next));
        self.played.push(canonical.clone());
        self.pending_before.push(std::mem::take(&mut self.pending));
        canonical
    }

    /// Every legal move as `item(move, its notation)`, sorted by notation; none once the game
    /// is over, and `None` when there are more than `cap`.
    fn listed_upto<T>(
        &self,
        cap: usize,
        item: impl Fn(G::Move, String) -> T,
        notation: impl Fn(&T) -> &String,
    ) -> Option<Vec<T>> {
        if cap != usize::MAX {
            if self.result().is_some() {
                return Some(Vec::new());
            }
            self.game.count_moves_upto(&self.pos, cap)?;
        }
        let mut moves = Vec::new();
        // Uncapped, the list itself answers the game-over check's "any legal move?".
        let over = games::ending(
            &self.game,
            &self.pos,
            || {
                self.game.legal_moves(&self.pos, &mut moves);
                !moves.is_empty()
            },
            || self.tracker.draw(&self.game.draw_rules()),
        );
        if over.is_some() {
            return Some(Vec::new());
        }
        let mut out: Vec<T> = moves
            .into_iter()
            .map(|m| item(m, self.game.format_move(&self.pos, m)))
            .collect();
        out.sort_unstable_by(|a, b| notation(a).cmp(notation(b)));
        Some(out)
    }

    fn table(&self) -> std::sync::MutexGuard<'_, Table<G::Move>> {
        // A panicked search thread cannot leave the table half-written in a way that matters
        // (entries are checked by key), so a poisoned lock is still usable.
        self.tt.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn format_line<G: Game>(game: &G, pos: &G::Pos, moves: &[G::Move]) -> Vec<String> {
    let mut p = pos.clone();
    let mut out = Vec::with_capacity(moves.len());
    for &m in moves {
        if !game.is_legal(&p, m) {
            break; // a PV from the table may go stale; never print an illegal move
        }
        out.push(game.format_move(&p, m));
        p = game.make(&p, m);
    }
    out
}

impl<G: Game> AnyGame for GameState<G> {
    fn name(&self) -> &'static str {
        self.game.name()
    }
    fn side_names(&self) -> [&'static str; 2] {
        self.game.side_names()
    }
    fn side_to_move(&self) -> Side {
        self.game.side_to_move(&self.pos)
    }
    fn new_game(&mut self) {
        let start = self.game.start();
        self.reset_to(start);
    }
    fn set_position(&mut self, text: &str) -> Result<(), RuleError> {
        let pos = self.game.parse_position(text)?;
        self.reset_to(pos);
        Ok(())
    }
    fn position(&self) -> String {
        self.game.format_position(&self.pos)
    }
    fn setup(&mut self, fen: Option<&str>, moves: &[String]) -> Result<(), RuleError> {
        let saved = (self.pos.clone(), self.undo.clone(), self.tracker.clone());
        let played = (
            self.played.clone(),
            self.pending.clone(),
            self.pending_before.clone(),
        );
        let result = (|| {
            match fen {
                Some(text) => self.set_position(text)?,
                None => self.new_game(),
            }
            moves.iter().try_for_each(|m| self.play(m).map(|_| ()))
        })();
        if result.is_err() {
            (self.pos, self.undo, self.tracker) = saved;
            (self.played, self.pending, self.pending_before) = played;
        }
        result
    }
    fn play(&mut self, text: &str) -> Result<String, RuleError> {
        if self.result().is_some() {
            return Err(RuleError::GameOver);
        }
        let mv = self.game.parse_move(&self.pos, text)?;
        self.reachable(mv)?;
        Ok(self.apply(mv))
    }
    fn play_found(&mut self, found: &FoundMove) -> Result<String, RuleError> {
        let here = self.game.hash(&self.pos);
        match found.0.downcast_ref::<(u64, G::Move)>() {
            Some(&(at, mv)) if at == here => Ok(self.apply(mv)),
            _ => Err(RuleError::Illegal(
                "the move was found in another position".into(),
            )),
        }
    }
    fn undo(&mut self) -> bool {
        if self.pending.pop().is_some() {
            return true;
        }
        match self.undo.pop() {
            Some(prev) => {
                self.pos = prev;
                self.played.pop();
                self.tracker.pop();
                self.pending = self.pending_before.pop().unwrap_or_default();
                true
            }
            None => false,
        }
    }
    fn legal_moves_upto(&self, cap: usize) -> Option<Vec<String>> {
        if !self.pending.is_empty() {
            return self.game.pending_moves(&self.pos, &self.pending, cap);
        }
        self.listed_upto(cap, |_, text| text, |t| t)
    }
    fn legal_move_inputs_upto(&self, cap: usize) -> Option<Vec<(String, MoveInput)>> {
        self.listed_upto(
            cap,
            |m, text| (text, self.game.move_input(&self.pos, m)),
            |(text, _)| text,
        )
    }
    fn result(&self) -> Option<Terminal> {
        games::outcome(&self.game, &self.pos, &self.tracker)
    }
    fn history(&self) -> History {
        let first = self.undo.first().unwrap_or(&self.pos);
        let start = self.game.format_position(first);
        History {
            from_start: start == self.game.format_position(&self.game.start()),
            start,
            moves: self
                .undo
                .iter()
                .zip(&self.played)
                .map(|(before, mv)| (self.game.side_to_move(before), mv.clone()))
                .collect(),
            format: self.game.record_format(),
        }
    }
    fn perft_job(&self, depth: u32, stop: Arc<AtomicBool>) -> PerftJob {
        let game = self.game.clone();
        let pos = self.pos.clone();
        Box::new(move || games::stoppable_perft(&game, &pos, depth, &stop))
    }
    fn divide_job(&self, depth: u32, stop: Arc<AtomicBool>) -> DivideJob {
        let game = self.game.clone();
        let pos = self.pos.clone();
        Box::new(move || {
            if depth == 0 || game.terminal(&pos).is_some() {
                return Ok(Vec::new());
            }
            game.count_moves_upto(&pos, games::PERFT_MOVE_CAP)
                .ok_or(games::PerftStop::TooManyMoves)?;
            let mut moves = Vec::new();
            game.legal_moves(&pos, &mut moves);
            let mut split = moves
                .into_iter()
                .map(|m| {
                    let child = game.make(&pos, m);
                    let n = games::stoppable_perft(&game, &child, depth - 1, &stop)?;
                    Ok((game.format_move(&pos, m), n))
                })
                .collect::<Result<Vec<_>, games::PerftStop>>()?;
            split.sort_unstable();
            Ok(split)
        })
    }
    fn render(&self) -> String {
        self.game.render(&self.pos)
    }
    fn picture(&self) -> Picture {
        let mut pic = self.game.picture(&self.pos);
        pic.last_move = self
            .played
            .last()
            .map(|m| (m.clone(), render::move_points(m)));
        pic.result = self.result().map(|t| {
            let word = result_word(self.game.side_names(), Some(t));
            (word.to_string(), t.reason.to_string())
        });
        pic
    }
    fn hand(&self) -> Vec<render::HandPiece> {
        self.game.hand(&self.pos)
    }
    fn evaluation(&self) -> (i32, Vec<(&'static str, i32)>) {
        (
            self.game.evaluate(&self.pos),
            self.game.eval_terms(&self.pos),
        )
    }
    fn check_move(&self, text: &str) -> Result<String, RuleError> {
        let mv = self.game.parse_move(&self.pos, text)?;
        Ok(self.game.format_move(&self.pos, mv))
    }
    fn set_option(&mut self, name: &str, value: &str) -> Result<bool, RuleError> {
        let known = self.game.set_option(name, value)?;
        if known {
            // Rules may have changed (Pods data): the position must still be valid under them.
            // History made under the old rules is dropped.
            let text = self.game.format_position(&self.pos);
            match self.game.parse_position(&text) {
                Ok(pos) => self.reset_to(pos),
                Err(_) => self.new_game(),
            }
            self.clear_hash();
        }
        Ok(known)
    }
    fn options(&self) -> Vec<GameOption> {
        self.game.options()
    }
    fn set_hash_kib(&mut self, kib: usize) {
        // Dropped before the new one is made; a search holding it has ended (commands that
        // set options wait for searches).
        *self.table() = Table::with_kib(kib);
    }
    fn prepare_hash(&mut self) -> Result<(), AllocError> {
        self.table().try_allocate()
    }
    fn take_table(&mut self) -> Table<()> {
        std::mem::replace(&mut *self.table(), Table::new(1)).retype()
    }
    fn put_table(&mut self, table: Table<()>) {
        *self.table() = table.retype();
    }
    fn hash_ready(&self) -> bool {
        self.table().is_allocated()
    }
    fn clear_hash(&mut self) {
        self.table().clear();
    }
    fn search_job(&self, params: Params, stop: Arc<AtomicBool>, mut info: InfoSink) -> SearchJob {
        let game = self.game.clone();
        let pos = self.pos.clone();
        let tracker = self.tracker.clone();
        let tt = Arc::clone(&self.tt);
        let oracle = self.oracle.clone();
        Box::new(move || {
            let mut table = tt.lock().unwrap_or_else(|e| e.into_inner());
            let mut report = |i: &search::Info<_>| {
                info(InfoReport {
                    depth: i.depth,
                    seldepth: i.seldepth,
                    score: i.score,
                    nodes: i.nodes,
                    elapsed_ms: i.elapsed_ms,
                    pv: format_line(&game, &pos, &i.pv),
                    hashfull: i.hashfull,
                    multipv: i.multipv,
                    tbhits: i.tbhits,
                })
            };
            let mut root = Root::new(&pos)
                .after(&tracker)
                .table(&mut table)
                .stop(&stop)
                .on_info(&mut report);
            if let Some(o) = &oracle {
                root = root.oracle(o.as_ref());
            }
            let r = search::run(&game, root, &params);
            SearchReport {
                error: None,
                best: r.best.map(|m| game.format_move(&pos, m)),
                found: r.best.map(|m| FoundMove(Arc::new((game.hash(&pos), m)))),
                score: r.score,
                depth: r.depth,
                nodes: r.nodes,
                pv: format_line(&game, &pos, &r.pv),
                lines: r
                    .lines
                    .iter()
                    .map(|l| LineReport {
                        score: l.score,
                        depth: l.depth,
                        pv: format_line(&game, &pos, &l.pv),
                    })
                    .collect(),
            }
        })
    }
    fn set_oracle(&mut self, oracle: Option<&(dyn Any + Send + Sync)>) -> bool {
        match oracle.map(|o| o.downcast_ref::<Arc<dyn Oracle<G>>>()) {
            None => {
                self.oracle = None;
                true
            }
            Some(Some(o)) => {
                self.oracle = Some(Arc::clone(o));
                true
            }
            Some(None) => false,
        }
    }
    fn oracle_probe(&self) -> Option<Verdict> {
        self.oracle.as_ref()?.probe(&self.pos)
    }
    fn action_space(&self) -> games::ActionSpace {
        self.game.action_space()
    }
    fn observation_shape(&self) -> [usize; 3] {
        self.game.observation_shape()
    }
    fn legal_actions(&self) -> (Vec<usize>, usize) {
        let (decisions, left_out) = self.decisions();
        (
            decisions.iter().map(|&(a, _)| a as usize).collect(),
            left_out,
        )
    }
    fn actions_of(&self, text: &str) -> Result<Vec<usize>, RuleError> {
        self.action_sequence(text)
    }
    fn move_of(&self, action: usize) -> Option<String> {
        self.action_text(action)
    }
    fn play_action(&mut self, action: usize) -> Result<Option<String>, RuleError> {
        self.take_action(action)
    }
    fn pending(&self) -> Vec<usize> {
        self.pending.iter().map(|&a| a as usize).collect()
    }
    fn pending_move(&self) -> Option<String> {
        (!self.pending.is_empty()).then(|| self.game.pending_text(&self.pos, &self.pending))
    }
    fn observe(&self, out: &mut [f32]) {
        self.game.observe_decision(&self.pos, &self.pending, out)
    }
    fn fork(&self) -> Box<dyn AnyGame> {
        Box::new(GameState {
            game: self.game.clone(),
            pos: self.pos.clone(),
            undo: self.undo.clone(),
            played: self.played.clone(),
            tracker: self.tracker.clone(),
            tt: Arc::new(Mutex::new(Table::new(DEFAULT_HASH_MIB))),
            oracle: self.oracle.clone(),
            pending: self.pending.clone(),
            pending_before: self.pending_before.clone(),
        })
    }
    fn env_chunk(&self, n: usize, seeds: u64, opponent: Option<Opponent>) -> Box<dyn EnvChunk> {
        Box::new(Chunk::new(self.game.clone(), n, seeds, opponent))
    }
}

struct NewState;

impl games::GameVisitor for NewState {
    type Output = Box<dyn AnyGame>;
    fn visit<G: Game>(self, game: G) -> Box<dyn AnyGame> {
        Box::new(GameState::new(game))
    }
}

impl GameKind {
    /// A game of this kind at its start position, type-erased for the session.
    pub fn new_state(self) -> Box<dyn AnyGame> {
        self.visit(NewState)
    }
}

/// The protocol word for a result: `ongoing`, `draw` or the winner's side name.
pub fn result_word(names: [&'static str; 2], result: Option<Terminal>) -> &'static str {
    match result.map(|t| t.outcome) {
        None => "ongoing",
        Some(Outcome::Draw) => "draw",
        Some(Outcome::Win(side)) => names[side.index()],
    }
}
