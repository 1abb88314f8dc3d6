//! Actions and observations for learning (see `games::actions`).
//!
//! Action: `(from * 32 + to) * 2 + rank`, squares numbered `rank * 4 + file / 2` (a1 = 0,
//! h8 = 31); `rank` tells apart two captures between the same two squares (different routes,
//! different men taken), in notation order. A third such capture has no action; random games
//! never met one (the bijection test).
//!
//! Observation: 5 planes of 8 × 8 (row 0 = rank 1, column 0 = file a): white men, white
//! kings, black men, black kings, and a plane of ones when Black is to move.

use super::board::{file_of, rank_of, Move, Position, Squares, BLACK, WHITE};
use super::Poddavki;
use crate::games::actions::{fill_plane, ActionSpace, Actions};

impl Actions for Poddavki {
    fn action_space(&self) -> ActionSpace {
        ActionSpace {
            keys: 32 * 32,
            slots: 2,
        }
    }
    fn action_key(&self, _pos: &Position, mv: Move) -> usize {
        usize::from(mv.from) * 32 + usize::from(mv.to)
    }
    fn observation_shape(&self) -> [usize; 3] {
        [5, 8, 8]
    }
    fn observe(&self, pos: &Position, out: &mut [f32]) {
        out.fill(0.0);
        for (side, base) in [(WHITE, 0), (BLACK, 2)] {
            for s in Squares(pos.pieces[side]) {
                let king = pos.kings >> s & 1;
                out[(base + king as usize) * 64 + rank_of(s) * 8 + file_of(s)] = 1.0;
            }
        }
        if pos.stm == BLACK {
            fill_plane(out, 4, 64, 1.0);
        }
    }
}
