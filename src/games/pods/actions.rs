//! Actions and observations for learning (see `games::actions`); the same for both rule sets.
//!
//! Points are numbered `y * 6 + x` (a1 = 0, f6 = 35), pods by letter (A = 0 .. N = 13).
//! Actions: `pod * 36 + p` places that pod from hand on `p` (0..504); `504 + from * 36 + to`
//! moves the pod on `from` to `to` (advanced rules). Every move has its own action (one slot).
//!
//! Observation: 61 planes of 6 × 6: 28 planes of pods on the board (colour × 14 + letter,
//! White = 0), 28 planes of ones for the pods still in hand (same order), a plane of ones when
//! Black is to move, and 4 planes giving the quarter turns of the line pattern (one-hot).

use super::board::POINTS;
use super::data::POD_COUNT;
use super::movegen::PodsMove;
use super::position::Pos;
use super::Pods;
use crate::games::actions::{fill_plane, ActionSpace, Actions};

const PLACES: usize = POD_COUNT * POINTS;

impl Actions for Pods {
    fn action_space(&self) -> ActionSpace {
        ActionSpace {
            keys: PLACES + POINTS * POINTS,
            slots: 1,
        }
    }
    fn action_key(&self, _pos: &Pos, mv: PodsMove) -> usize {
        match mv {
            PodsMove::Place { pod, to } => usize::from(pod) * POINTS + usize::from(to),
            PodsMove::Step { from, to } => PLACES + usize::from(from) * POINTS + usize::from(to),
        }
    }
    fn observation_shape(&self) -> [usize; 3] {
        [4 * POD_COUNT + 5, 6, 6]
    }
    fn observe(&self, pos: &Pos, out: &mut [f32]) {
        out.fill(0.0);
        for (p, &c) in pos.cell.iter().enumerate() {
            if c != 0 {
                out[usize::from(c - 1) * POINTS + p] = 1.0;
            }
        }
        for colour in 0..2 {
            for letter in 0..POD_COUNT {
                if pos.hand[colour] >> letter & 1 != 0 {
                    fill_plane(
                        out,
                        2 * POD_COUNT + colour * POD_COUNT + letter,
                        POINTS,
                        1.0,
                    );
                }
            }
        }
        let planes = 4 * POD_COUNT;
        if pos.side == 1 {
            fill_plane(out, planes, POINTS, 1.0);
        }
        fill_plane(out, planes + 1 + usize::from(pos.rot & 3), POINTS, 1.0);
    }
}
