//! Actions and observations for learning (see `games::actions`).
//!
//! Points are numbered `row * 15 + column` (row 0 = the row of `a1`): 315 of them. Action
//! `p * 8` places a man on `p`; `p * 8 + 4 + rank` is a ball move (a jump chain) ending on
//! `p`, `rank` (0..4) telling apart, in notation order, the chains that end there removing
//! different men (`p * 8 + 1..4` are never used). A fifth chain to the same point has no
//! action and is left out of the mask. That is not rare: on the crowded boards of random
//! play hundreds of chains can end on one point (931 in one position of the bijection test);
//! no fixed action space holds every move of every position, since the number of chains grows
//! without a useful bound. A learner that must reach every ball move needs a chain taken hop
//! by hop, which this encoding does not offer yet.
//!
//! Observation: 3 planes of 21 × 15: men, the ball, and a plane of ones when the second
//! player (Blue) is to move.

use super::board::{COLS, N, ROWS};
use super::movegen::Move;
use super::position::Pos;
use super::Phutball;
use crate::games::actions::{fill_plane, ActionSpace, Actions};
use crate::games::Side;

/// Keys are `point * 2 + kind` (placement 0, jump 1); the slots only matter for jumps, so
/// placements use slot 0 of their key (their other slots stay unused).
impl Actions for Phutball {
    fn action_space(&self) -> ActionSpace {
        ActionSpace {
            keys: N * 2,
            slots: 4,
        }
    }
    fn action_key(&self, _pos: &Pos, mv: Move) -> usize {
        match mv {
            Move::Place(p) => usize::from(p) * 2,
            Move::Jump { to, .. } => usize::from(to) * 2 + 1,
        }
    }
    fn observation_shape(&self) -> [usize; 3] {
        [3, ROWS, COLS]
    }
    fn observe(&self, pos: &Pos, out: &mut [f32]) {
        out.fill(0.0);
        for p in pos.men.iter() {
            out[p] = 1.0;
        }
        out[N + usize::from(pos.ball)] = 1.0;
        if pos.side == Side::P2 {
            fill_plane(out, 2, N, 1.0);
        }
    }
}
