//! The action layer of [`GameState`] (the Python package's `legal_mask`, `action`, `move`,
//! `play_action`): decision points, the position and the move under way
//! ([`crate::games::actions`]).

use super::{AnyGame, GameState};
use crate::games::actions::{Decision, Decisions};
use crate::games::prelude::*;
use crate::games::RuleError;

impl<G: Game> GameState<G> {
    /// The legal actions here, ascending, each with what it does (none once the game is over),
    /// and how many legal moves have no action.
    pub(super) fn decisions(&self) -> (Decisions<G::Move>, usize) {
        if self.pending.is_empty() && self.result().is_some() {
            return (Vec::new(), 0);
        }
        let mut out = Vec::new();
        let left_out = self
            .game
            .decisions(&self.pos, &self.pending, &mut Vec::new(), &mut out);
        (out, left_out)
    }

    fn decision(&self, action: usize) -> Option<Decision<G::Move>> {
        let action = u32::try_from(action).ok()?;
        let (list, _) = self.decisions();
        let k = list.binary_search_by_key(&action, |&(a, _)| a).ok()?;
        Some(list[k].1)
    }

    /// Refuses a move the move under way does not lead to.
    pub(super) fn reachable(&self, mv: G::Move) -> Result<(), RuleError> {
        if self.pending.is_empty()
            || self
                .game
                .action_sequence(&self.pos, &self.pending, mv)
                .is_some()
        {
            return Ok(());
        }
        Err(RuleError::Illegal(format!(
            "{}: not a way on from the move under way ({})",
            self.game.format_move(&self.pos, mv),
            self.game.pending_text(&self.pos, &self.pending)
        )))
    }

    pub(super) fn action_sequence(&self, text: &str) -> Result<Vec<usize>, RuleError> {
        if self.pending.is_empty() && self.result().is_some() {
            return Err(RuleError::GameOver);
        }
        let mv = self.game.parse_move(&self.pos, text)?;
        self.reachable(mv)?;
        let seq = self
            .game
            .action_sequence(&self.pos, &self.pending, mv)
            .ok_or_else(|| {
                RuleError::Illegal(format!(
                    "'{}' has no action: too many moves share its squares",
                    self.game.format_move(&self.pos, mv)
                ))
            })?;
        Ok(seq.into_iter().map(|a| a as usize).collect())
    }

    pub(super) fn action_text(&self, action: usize) -> Option<String> {
        match self.decision(action)? {
            Decision::Move(m) => Some(self.game.format_move(&self.pos, m)),
            Decision::Continue => {
                let mut pending = self.pending.clone();
                pending.push(action as u32);
                Some(self.game.pending_text(&self.pos, &pending))
            }
        }
    }

    pub(super) fn take_action(&mut self, action: usize) -> Result<Option<String>, RuleError> {
        let not_legal = || RuleError::Illegal(format!("action {action} is not legal here"));
        if self.pending.is_empty() && self.result().is_some() {
            return Err(RuleError::GameOver);
        }
        match self.decision(action).ok_or_else(not_legal)? {
            Decision::Move(m) => Ok(Some(self.apply(m))),
            Decision::Continue => {
                self.pending.push(action as u32);
                Ok(None)
            }
        }
    }
}
