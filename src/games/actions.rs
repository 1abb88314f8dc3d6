//! Fixed-size action and observation encodings, for learning (the Python package's
//! `legal_mask`, `action`, `move`, `observation` and `VecEnv`).
//!
//! Each game maps a legal move to a *key* in `0..keys` (the squares or points it names: from
//! and to, a placement point, a ball's landing point). A move's action is `rank * keys + key`,
//! where `rank` is its place, in the canonical notation's byte order, among the legal moves
//! with the same key. So the action of a move depends on the position only through the other
//! moves sharing its key, which a game keeps rare (two capture routes between the same two
//! squares). A game whose keys never collide has one slot. Rank-major order keeps the actions a
//! position uses (nearly all of rank 0) within the first `keys` of a mask row, which batched
//! play rewrites every step. A move ranked `slots` or later has no action: the mask leaves it
//! out and [`encode`] says so; each game's `actions.rs` says when that can happen
//! (python/README.md lists the encodings).
//!
//! A game whose moves cannot all have an action of their own (Phutball: the number of jump
//! chains has no useful bound) takes a move as several *decisions* instead: it overrides
//! [`Actions::decisions`] and the hooks beside it, and an action either completes a move
//! ([`Decision::Move`]) or is one step of a move under way ([`Decision::Continue`]: the same
//! player decides again). The actions taken so far in the move under way, `pending`, are all
//! the decision point adds to the position; they are empty between moves, and always empty
//! for a game with one decision per move.

use super::{Moves, Notation};

/// What a legal action does at its decision point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision<M> {
    /// It completes this move: the turn passes.
    Move(M),
    /// It is one step of a move under way: the same player decides again, with the action
    /// added to the pending ones.
    Continue,
}

/// The legal actions at a decision point, ascending, each with what it does.
pub type Decisions<M> = Vec<(u32, Decision<M>)>;

/// The size of a game's action space: `keys * slots` actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActionSpace {
    pub keys: usize,
    pub slots: usize,
}

impl ActionSpace {
    pub fn actions(self) -> usize {
        self.keys * self.slots
    }
}

/// The game's action and observation encodings.
pub trait Actions: Notation {
    fn action_space(&self) -> ActionSpace;
    /// The key of a legal move, below `action_space().keys`.
    fn action_key(&self, pos: &Self::Pos, mv: Self::Move) -> usize;
    /// Planes, rows, columns of [`Actions::observe`]'s output.
    fn observation_shape(&self) -> [usize; 3];
    /// Writes the position's planes into `out` (exactly the shape's product long, every value
    /// written).
    fn observe(&self, pos: &Self::Pos, out: &mut [f32]);

    // A game with one decision per move keeps the defaults below; `pending` is then always
    // empty. A game that overrides them offers [`Decision::Continue`] actions, and `pending`
    // holds only actions it offered as such, in order, since the position `pos`.

    /// The legal actions of the decision point (`pos` and the move under way), ascending, each
    /// with what it does, appended to `out`; `moves` is scratch space. Returns how many legal
    /// moves have no action (see [`encode`]). Empty when the game is over is the caller's
    /// business: this lists what the rules allow in `pos`.
    fn decisions(
        &self,
        pos: &Self::Pos,
        pending: &[u32],
        moves: &mut Vec<Self::Move>,
        out: &mut Decisions<Self::Move>,
    ) -> usize {
        debug_assert!(pending.is_empty(), "one decision per move");
        moves.clear();
        self.legal_moves(pos, moves);
        encode(self, pos, moves, out)
    }
    /// The actions that play the legal move `mv` from the decision point, the last one
    /// completing it; `None` when the move cannot be reached from there (it has no action, or
    /// the move under way does not lead to it).
    fn action_sequence(
        &self,
        pos: &Self::Pos,
        pending: &[u32],
        mv: Self::Move,
    ) -> Option<Vec<u32>> {
        if !pending.is_empty() {
            return None;
        }
        action_of(self, pos, mv).map(|a| vec![a as u32])
    }
    /// The move under way in the game's notation (what it would be if it ended there); empty
    /// between moves.
    fn pending_text(&self, _pos: &Self::Pos, _pending: &[u32]) -> String {
        String::new()
    }
    /// The legal moves that complete the move under way, in notation (sorted), or `None` when
    /// there are more than `cap`. Only asked with `pending` not empty.
    fn pending_moves(
        &self,
        _pos: &Self::Pos,
        _pending: &[u32],
        _cap: usize,
    ) -> Option<Vec<String>> {
        Some(Vec::new())
    }
    /// Rewrites `out`, which holds [`Actions::observe`]'s planes of `before`, into those of
    /// `after` (both between moves). A game may write only the cells that differ: batched play
    /// observes every game every step, and the whole planes cost more than the move.
    fn observe_change(&self, _before: &Self::Pos, after: &Self::Pos, out: &mut [f32]) {
        self.observe(after, out)
    }
    /// [`Actions::observe`] at a decision point: the planes must show the move under way.
    fn observe_decision(&self, pos: &Self::Pos, _pending: &[u32], out: &mut [f32]) {
        self.observe(pos, out)
    }
}

/// The actions of `moves` (a position's legal moves, in any order), appended to `out` as
/// `(action, Decision::Move(move))` sorted by action. Returns how many moves have no action
/// (ranked past the slots) and were left out.
pub fn encode<G: Actions>(
    game: &G,
    pos: &G::Pos,
    moves: &[G::Move],
    out: &mut Decisions<G::Move>,
) -> usize {
    let space = game.action_space();
    let start = out.len();
    out.extend(
        moves
            .iter()
            .map(|&m| (game.action_key(pos, m) as u32, Decision::Move(m))),
    );
    let list = &mut out[start..];
    list.sort_unstable_by_key(|&(a, _)| a);
    if list.windows(2).all(|w| w[0].0 != w[1].0) {
        return 0; // the usual case: no two moves share a key
    }
    // Moves sharing a key: ranked by notation.
    let mut left_out = 0;
    let mut i = 0;
    let mut keep = start;
    while start + i < out.len() {
        let a = out[start + i].0;
        let mut j = i + 1;
        while start + j < out.len() && out[start + j].0 == a {
            j += 1;
        }
        if j - i > 1 {
            let run = &mut out[start + i..start + j];
            run.sort_by_cached_key(|&(_, d)| match d {
                Decision::Move(m) => game.format_move(pos, m),
                Decision::Continue => String::new(),
            });
            for (rank, item) in run.iter_mut().enumerate() {
                item.0 += (rank * space.keys) as u32;
            }
        }
        for k in i..j {
            if k - i < space.slots {
                out[keep] = out[start + k];
                keep += 1;
            } else {
                left_out += 1;
            }
        }
        i = j;
    }
    out.truncate(keep);
    // The ranked actions lie past every key: sorted again.
    out[start..].sort_unstable_by_key(|&(a, _)| a);
    left_out
}

/// The action of a legal move, or `None` when it has none (ranked past the slots).
pub fn action_of<G: Actions>(game: &G, pos: &G::Pos, mv: G::Move) -> Option<usize> {
    let space = game.action_space();
    let key = game.action_key(pos, mv);
    if space.slots == 1 {
        return Some(key);
    }
    let text = game.format_move(pos, mv);
    let mut rank = 0;
    let _ = game.for_each_move(pos, |m| {
        if m != mv && game.action_key(pos, m) == key && game.format_move(pos, m) < text {
            rank += 1;
        }
        std::ops::ControlFlow::Continue(())
    });
    (rank < space.slots).then_some(rank * space.keys + key)
}

/// Fills a plane (`rows * cols` values) with `value`: side to move and hand planes.
pub fn fill_plane(out: &mut [f32], plane: usize, cells: usize, value: f32) {
    out[plane * cells..(plane + 1) * cells].fill(value);
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeSet, HashSet};

    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    use crate::engine::AnyGame;
    use crate::registry::Registry;

    /// Past this many legal moves the complete enumerations are skipped (crowded Phutball
    /// boards have millions of ball moves); the per-decision checks still run.
    const LIST_CAP: usize = 3_000;

    fn observation(state: &dyn AnyGame) -> Vec<u32> {
        let mut obs = vec![f32::NAN; state.observation_shape().iter().product()];
        state.observe(&mut obs);
        assert!(obs.iter().all(|v| v.is_finite()), "{}", state.name());
        obs.into_iter().map(f32::to_bits).collect()
    }

    /// Every complete decision sequence from here, walked through `play_action` and `undo`:
    /// the moves they complete (canonical notation). Decision points met again by another order
    /// of steps (the same observation) are walked once.
    fn complete_sequences(state: &mut dyn AnyGame, seen: &mut HashSet<Vec<u32>>) -> Vec<String> {
        let mut moves = Vec::new();
        let (actions, _) = state.legal_actions();
        for a in actions {
            match state.play_action(a).expect("a mask bit is legal") {
                Some(mv) => moves.push(mv),
                None => {
                    if seen.insert(observation(state)) {
                        moves.extend(complete_sequences(state, seen));
                    }
                }
            }
            assert!(state.undo());
        }
        moves
    }

    /// The checks of one decision point: the set bits are distinct, in range and each decodes
    /// (actions outside them do not); and, where the moves are few enough to list, the complete
    /// decision sequences from here reach exactly the legal moves (each move once: two orders
    /// of steps that reach the same decision point are one move), and each legal move's own
    /// sequence (`actions_of`) plays that move.
    fn check_decision_point(state: &mut dyn AnyGame, rng: &mut SmallRng) {
        let name = state.name();
        let space = state.action_space();
        let (actions, left_out) = state.legal_actions();
        assert!(actions.windows(2).all(|w| w[0] < w[1]));
        assert!(actions.iter().all(|&a| a < space.actions()));
        let texts: HashSet<String> = actions
            .iter()
            .map(|&a| state.move_of(a).expect("a mask bit has a move"))
            .collect();
        assert_eq!(texts.len(), actions.len(), "{name}: {}", state.position());
        for _ in 0..8 {
            let a = rng.gen_range(0..space.actions() + 5);
            if actions.binary_search(&a).is_err() {
                assert_eq!(state.move_of(a), None, "{name} action {a}");
            }
        }
        let before = (state.position(), state.pending(), observation(state));
        let Some(listed) = state.legal_moves_upto(LIST_CAP) else {
            return;
        };
        // Mid-move, the moves that finish the move under way, each in notation from its start:
        // compared by their canonical notation.
        let legal: BTreeSet<String> = listed
            .iter()
            .map(|m| state.check_move(m).expect("listed moves are legal"))
            .collect();
        assert_eq!(legal.len(), listed.len());
        let mut seen = HashSet::new();
        let reached = complete_sequences(state, &mut seen);
        let reached_set: BTreeSet<String> = reached.iter().cloned().collect();
        assert_eq!(
            reached.len(),
            reached_set.len(),
            "{name}: a move reached twice"
        );
        assert_eq!(
            reached.len() + left_out,
            legal.len(),
            "{name}: {}",
            state.position()
        );
        assert!(
            reached_set.is_subset(&legal),
            "{name}: {}",
            state.position()
        );
        for m in listed.iter().step_by(listed.len() / 30 + 1) {
            let Ok(seq) = state.actions_of(m) else {
                assert!(left_out > 0, "{name}: {m} has no actions");
                continue;
            };
            assert_eq!(state.action_of(m).ok(), seq.first().copied());
            let canonical = state.check_move(m).expect("legal");
            let (last, steps) = seq.split_last().unwrap();
            for &a in steps {
                assert_eq!(state.play_action(a), Ok(None), "{name}: {m} {seq:?}");
            }
            let played = state.play_action(*last).expect("legal");
            assert_eq!(played, Some(canonical), "{name}: {seq:?}");
            for _ in 0..seq.len() {
                assert!(state.undo());
            }
            assert_eq!(state.pending(), before.1);
        }
        assert_eq!(
            (state.position(), state.pending(), observation(state)),
            before
        );
    }

    /// Along random games of every registered game, played action by action (half the time
    /// the highest legal action, which for Phutball is a jump or the stop, so ball moves are
    /// taken hop by hop): every decision point passes [`check_decision_point`].
    #[test]
    fn decision_sequences_and_legal_moves_are_a_bijection() {
        let mut rng = SmallRng::seed_from_u64(40);
        for &kind in Registry::builtin().kinds() {
            let mut chained = 0;
            for _ in 0..4 {
                let mut state = kind.new_state();
                for _ in 0..120 {
                    check_decision_point(state.as_mut(), &mut rng);
                    let (actions, _) = state.legal_actions();
                    if actions.is_empty() {
                        break;
                    }
                    let a = if rng.gen_bool(0.5) {
                        *actions.last().unwrap()
                    } else {
                        actions[rng.gen_range(0..actions.len())]
                    };
                    if state.play_action(a).expect("legal").is_none() {
                        chained += 1;
                    }
                }
            }
            if kind.name() == "phutball" {
                assert!(chained > 20, "only {chained} steps of ball moves");
            }
        }
    }
}
