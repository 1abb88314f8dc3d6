//! Actions and observations for learning (see `games::actions`).
//!
//! Points are numbered `rank * 8 + file` (a1 = 0, h8 = 63; a8 and h1 do not exist). Actions:
//! `p` places on `p` (0..64), `64 + from * 64 + to` steps, `4160 + p` removes the neutral
//! piece on `p`, `4224` is the swap. Every move has its own action (one slot).
//!
//! Observation: 6 planes of 8 × 8: black pieces, white pieces, neutral pieces, Black's hand
//! and White's hand (each as a plane of pieces in hand / 12), and a plane of ones when White is
//! to move.

use super::movegen::Move;
use super::position::{Pos, PIECES_PER_SIDE, WHITE};
use super::Diamond;
use crate::games::actions::{fill_plane, ActionSpace, Actions};

impl Actions for Diamond {
    fn action_space(&self) -> ActionSpace {
        ActionSpace {
            keys: 64 + 64 * 64 + 64 + 1,
            slots: 1,
        }
    }
    fn action_key(&self, _pos: &Pos, mv: Move) -> usize {
        match mv {
            Move::Place(p) => usize::from(p),
            Move::Step(a, b) => 64 + usize::from(a) * 64 + usize::from(b),
            Move::Remove(p) => 64 + 64 * 64 + usize::from(p),
            Move::Swap => 64 + 64 * 64 + 64,
        }
    }
    fn observation_shape(&self) -> [usize; 3] {
        [6, 8, 8]
    }
    fn observe(&self, pos: &Pos, out: &mut [f32]) {
        out.fill(0.0);
        for (plane, set) in [pos.pieces[0], pos.pieces[1], pos.neutral]
            .into_iter()
            .enumerate()
        {
            let mut bits = set;
            while bits != 0 {
                out[plane * 64 + bits.trailing_zeros() as usize] = 1.0;
                bits &= bits - 1;
            }
        }
        for side in 0..2 {
            let share = f32::from(pos.hand[side]) / f32::from(PIECES_PER_SIDE);
            fill_plane(out, 3 + side, 64, share);
        }
        if pos.stm == WHITE {
            fill_plane(out, 5, 64, 1.0);
        }
    }
}
