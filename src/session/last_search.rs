//! The moves that change the position, and the last search, kept until they do.
//!
//! A finished search's final line (depth, score, principal variation) is kept for GTP
//! `last_search`. It holds while the position is the one the search left: the engine's own move
//! (genmove) keeps it, since the score is that search's; `play`, `undo`, a position set up
//! (GTP `set_position`, UGI `position`) or a new game (`clear_board`, `set_game`, `load_record`)
//! drops it. A refused command changes nothing, so it keeps it too.

use super::{Session, SessionError};
use crate::engine::{FoundMove, SearchReport};
use crate::games::{RuleError, Side};

/// The final line of the last finished search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LastSearch {
    pub depth: u32,
    /// The side to move's score, in the engine's units (see `uci_score`).
    pub score: i32,
    pub pv: Vec<String>,
    /// The game it belongs to ([`Session::serial`]): a new game drops it without a word here.
    serial: u64,
}

impl Session {
    /// Keeps a finished search's final line; a failed search, or one that found no move, drops
    /// the one kept before.
    pub fn keep_search(&mut self, report: &SearchReport) {
        self.last_search = (report.error.is_none() && report.best.is_some()).then(|| LastSearch {
            depth: report.depth,
            score: report.score,
            pv: report.pv.clone(),
            serial: self.serial,
        });
    }

    /// The last finished search, if nothing has changed the position since (but its own move).
    pub fn last_search(&self) -> Option<&LastSearch> {
        self.last_search
            .as_ref()
            .filter(|l| l.serial == self.serial)
    }

    /// `position [fen POS] moves ...`, GTP `set_position POS`: the start position (or `fen`)
    /// then `moves`, all or nothing.
    pub fn setup(&mut self, fen: Option<&str>, moves: &[String]) -> Result<(), RuleError> {
        self.game.setup(fen, moves)?;
        self.last_search = None;
        Ok(())
    }

    /// Plays a move for the side to move (`side`, if given, must be it); the game must still
    /// be on. Returns the move's canonical notation.
    pub fn play(&mut self, side: Option<Side>, mv: &str) -> Result<String, SessionError> {
        if let Err(e) = self.check_side(side) {
            // A game that is over says so first (the game checks that once a move is made).
            if self.game.result().is_some() {
                return Err(RuleError::GameOver.into());
            }
            return Err(e);
        }
        let played = self.game.play(mv)?;
        self.last_search = None;
        Ok(played)
    }

    /// Plays the move a search found, as found (not through its notation). Returns its
    /// canonical notation. The search stays the last one: this is its move.
    pub fn play_found(&mut self, found: &FoundMove) -> Result<String, SessionError> {
        Ok(self.game.play_found(found)?)
    }

    /// Takes back the last move; false when there is none.
    pub fn undo(&mut self) -> bool {
        let undone = self.game.undo();
        if undone {
            self.last_search = None;
        }
        undone
    }
}
