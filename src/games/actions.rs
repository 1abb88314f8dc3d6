//! Fixed-size action and observation encodings, for learning (the Python package's
//! `legal_mask`, `action`, `move`, `observation` and `VecEnv`).
//!
//! Each game maps a legal move to a *key* in `0..keys` (the squares or points it names: from
//! and to, a placement point, a ball's landing point). A move's action is `key * slots + rank`,
//! where `rank` is its place, in the canonical notation's byte order, among the legal moves
//! with the same key. So the action of a move depends on the position only through the other
//! moves sharing its key, which a game keeps rare (two capture routes between the same two
//! squares). A game whose keys never collide has one slot. A move ranked `slots` or later has
//! no action: the mask leaves it out and [`encode`] says so; each game's `actions.rs` says when
//! that can happen (python/README.md lists the encodings).

use super::Notation;

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
}

/// The actions of `moves` (a position's legal moves, in any order), appended to `out` as
/// `(action, move)` sorted by action. Returns how many moves have no action (ranked past the
/// slots) and were left out.
pub fn encode<G: Actions>(
    game: &G,
    pos: &G::Pos,
    moves: &[G::Move],
    out: &mut Vec<(u32, G::Move)>,
) -> usize {
    let space = game.action_space();
    let start = out.len();
    out.extend(
        moves
            .iter()
            .map(|&m| ((game.action_key(pos, m) * space.slots) as u32, m)),
    );
    let list = &mut out[start..];
    list.sort_unstable_by_key(|&(a, _)| a);
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
            run.sort_by_cached_key(|&(_, m)| game.format_move(pos, m));
            for (rank, item) in run.iter_mut().enumerate() {
                item.0 += rank as u32;
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
    left_out
}

/// The legal move whose action is `action`, if any.
pub fn decode<G: Actions>(game: &G, pos: &G::Pos, action: usize) -> Option<G::Move> {
    let space = game.action_space();
    if action >= space.actions() {
        return None;
    }
    let key = action / space.slots;
    let mut same = Vec::new();
    let _ = game.for_each_move(pos, |m| {
        if game.action_key(pos, m) == key {
            same.push(m);
        }
        std::ops::ControlFlow::Continue(())
    });
    if same.len() > 1 {
        same.sort_by_cached_key(|&m| game.format_move(pos, m));
    }
    same.get(action % space.slots).copied()
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
    (rank < space.slots).then_some(key * space.slots + rank)
}

/// Fills a plane (`rows * cols` values) with `value`: side to move and hand planes.
pub fn fill_plane(out: &mut [f32], plane: usize, cells: usize, value: f32) {
    out[plane * cells..(plane + 1) * cells].fill(value);
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    use crate::registry::Registry;

    /// Along random games of every registered game: the set mask bits and the legal moves are
    /// a bijection (each legal move has one action, each action of the mask one legal move,
    /// and actions outside it none), and the observation has the declared shape. Phutball
    /// leaves out the chains past its slots (see its `actions.rs`): there the bijection is
    /// between the mask and the moves with an action, and the others are counted.
    #[test]
    fn legal_moves_and_mask_bits_are_a_bijection() {
        let mut rng = SmallRng::seed_from_u64(40);
        for &kind in Registry::builtin().kinds() {
            let name = kind.name();
            for _ in 0..6 {
                let mut state = kind.new_state();
                let space = state.action_space();
                let obs_len: usize = state.observation_shape().iter().product();
                for _ in 0..150 {
                    // Crowded Phutball boards have millions of ball moves: the game stops there.
                    let Some(listed) = state.legal_moves_upto(3_000) else {
                        break;
                    };
                    let legal: BTreeSet<String> = listed.into_iter().collect();
                    let (actions, left_out) = state.legal_actions();
                    if name != "phutball" {
                        assert_eq!(left_out, 0, "{}: {}", name, state.position());
                    }
                    assert_eq!(
                        actions.len() + left_out,
                        legal.len(),
                        "{}",
                        state.position()
                    );
                    assert!(actions.windows(2).all(|w| w[0] < w[1]));
                    assert!(actions.iter().all(|&a| a < space.actions()));
                    let decoded: BTreeSet<String> = actions
                        .iter()
                        .map(|&a| state.move_of(a).expect("a mask bit has a move"))
                        .collect();
                    assert!(decoded.is_subset(&legal), "{}", state.position());
                    for m in legal.iter().step_by(legal.len() / 40 + 1) {
                        match state.action_of(m) {
                            Ok(a) => assert_eq!(state.move_of(a).as_deref(), Some(m.as_str())),
                            Err(_) => assert!(!decoded.contains(m), "{m} is in the mask"),
                        }
                    }
                    for _ in 0..8 {
                        let a = rng.gen_range(0..space.actions());
                        if actions.binary_search(&a).is_err() {
                            assert_eq!(state.move_of(a), None, "{} action {a}", name);
                        }
                    }
                    let mut obs = vec![f32::NAN; obs_len];
                    state.observe(&mut obs);
                    assert!(obs.iter().all(|v| v.is_finite()), "{}", name);
                    if legal.is_empty() {
                        break;
                    }
                    let pick = legal.iter().nth(rng.gen_range(0..legal.len())).unwrap();
                    state.play(pick).expect("legal");
                }
            }
        }
    }
}
