//! Actions and observations for learning (see `games::actions`): a ball move is taken hop by
//! hop, so every legal move is reachable with a fixed, small action space.
//!
//! Points are numbered `row * 15 + column` (row 0 = the row of `a1`): 315 of them. Actions:
//! - `p` (0..315) places a man on point `p`: a whole move;
//! - `315 + d` jumps the ball once in direction `d` (0 up, towards row 20, then clockwise: 1
//!   up-right, 2 right, 3 down-right, 4 down, 5 down-left, 6 left, 7 up-left): the jumped men
//!   leave the board at once and the same player decides again;
//! - `323` ends the ball move where the ball stands (offered after at least one jump).
//!
//! So between moves the legal actions are the placements and the jumps the ball has, and in
//! the middle of a ball move (the *move under way*: the jumps so far, `pending`) the jumps it
//! has from where it stands and the stop. Nothing is decided in the middle of a move: the
//! goal rows count only where the ball stops (the rules' end of the game), and jumping on from
//! rows 0 or 20 is allowed like any jump. Two orders of jumps over the same men to the same
//! point are one move (the rules' move identity) and meet in the same decision point (the ball
//! where it stands, the men jumped), so the legal moves are in bijection with the decision
//! points at which the stop is taken, and [`Actions::action_sequence`] gives each move its
//! canonical path (from a move under way, the canonical rest of it).
//!
//! Observation: 5 planes of 21 × 15: the men on the board (the men jumped in the move under way
//! already gone), the ball where it stands, the men jumped in the move under way, a plane of
//! ones when the second player (Blue) is to move, and a plane of ones while a ball move is
//! under way.

use super::board::{Bits, COLS, N, ROWS, STEP};
use super::movegen::{hop, Move};
use super::notation::{self, point_name};
use super::paths::{canonical_path, Canonical};
use super::position::Pos;
use super::tree;
use super::Phutball;
use crate::games::actions::{fill_plane, ActionSpace, Actions, Decision, Decisions};
use crate::games::Side;
use std::ops::ControlFlow;

/// The first jump action (direction 0); `HOP + d` jumps in direction `d`.
const HOP: u32 = N as u32;
/// Ends the ball move under way.
const STOP: u32 = HOP + 8;

/// A ball move under way: the ball where it stands, the men still on the board, the men jumped
/// so far and the points the ball landed on.
struct UnderWay {
    men: Bits,
    ball: u16,
    removed: Bits,
    landings: Vec<u16>,
}

/// Replays the pending jumps (each offered as a decision, so each has its jump; anything else
/// is skipped, which only a caller's bug could send).
fn under_way(pos: &Pos, pending: &[u32]) -> UnderWay {
    let mut u = UnderWay {
        men: pos.men,
        ball: pos.ball,
        removed: Bits::EMPTY,
        landings: Vec::with_capacity(pending.len()),
    };
    for &a in pending {
        let Some(d) = a.checked_sub(HOP).filter(|&d| d < 8) else {
            continue;
        };
        if let Some((q, over)) = hop(&u.men, u.ball, d as usize) {
            u.men = u.men.andnot(&over);
            u.removed = u.removed.or(&over);
            u.ball = q;
            u.landings.push(q);
        }
    }
    u
}

/// `start-landing-landing...`.
fn path_text(start: u16, landings: &[u16]) -> String {
    let mut s = point_name(start as usize);
    for &q in landings {
        s.push('-');
        s.push_str(&point_name(q as usize));
    }
    s
}

impl Actions for Phutball {
    fn action_space(&self) -> ActionSpace {
        ActionSpace {
            keys: STOP as usize + 1,
            slots: 1,
        }
    }
    /// A placement's point; a ball move's first jump (not used by the encoding itself, which
    /// is [`Actions::decisions`]).
    fn action_key(&self, pos: &Pos, mv: Move) -> usize {
        self.action_sequence(pos, &[], mv)
            .map_or(STOP as usize, |s| s[0] as usize)
    }
    fn observation_shape(&self) -> [usize; 3] {
        [5, ROWS, COLS]
    }
    fn observe(&self, pos: &Pos, out: &mut [f32]) {
        self.observe_decision(pos, &[], out)
    }
    fn observe_decision(&self, pos: &Pos, pending: &[u32], out: &mut [f32]) {
        out.fill(0.0);
        let u = under_way(pos, pending);
        for p in u.men.iter() {
            out[p] = 1.0;
        }
        out[N + usize::from(u.ball)] = 1.0;
        for p in u.removed.iter() {
            out[2 * N + p] = 1.0;
        }
        if pos.side == Side::P2 {
            fill_plane(out, 3, N, 1.0);
        }
        if !pending.is_empty() {
            fill_plane(out, 4, N, 1.0);
        }
    }
    fn decisions(
        &self,
        pos: &Pos,
        pending: &[u32],
        _moves: &mut Vec<Move>,
        out: &mut Decisions<Move>,
    ) -> usize {
        let u = under_way(pos, pending);
        if pending.is_empty() {
            out.extend(
                pos.empty_placeable()
                    .iter()
                    .map(|p| (p as u32, Decision::Move(Move::Place(p as u16)))),
            );
        }
        for d in 0..STEP.len() {
            if hop(&u.men, u.ball, d).is_some() {
                out.push((HOP + d as u32, Decision::Continue));
            }
        }
        if !pending.is_empty() {
            out.push((
                STOP,
                Decision::Move(Move::Jump {
                    to: u.ball,
                    removed: u.removed,
                }),
            ));
        }
        0
    }
    fn action_sequence(&self, pos: &Pos, pending: &[u32], mv: Move) -> Option<Vec<u32>> {
        let (to, removed) = match mv {
            Move::Place(p) => {
                return (pending.is_empty() && notation::is_legal(pos, mv)).then(|| vec![p.into()])
            }
            Move::Jump { to, removed } => (to, removed),
        };
        let u = under_way(pos, pending);
        if !u.removed.is_subset(&removed) || !removed.is_subset(&pos.men) {
            return None;
        }
        let rest = removed.andnot(&u.removed);
        let path = if rest.is_empty() {
            // Stop here: only in the middle of a ball move, where the ball stands.
            if pending.is_empty() || to != u.ball {
                return None;
            }
            Vec::new()
        } else if pending.is_empty() {
            notation::jump_path(pos, to, &removed)?
        } else {
            match canonical_path(&u.men, u.ball, to, &rest, usize::MAX) {
                Canonical::Path(p) => p,
                Canonical::Illegal | Canonical::OutOfBudget => return None,
            }
        };
        let (mut men, mut at) = (u.men, u.ball);
        let mut out = Vec::with_capacity(path.len() + 1);
        for q in path {
            let (d, over) = (0..STEP.len()).find_map(|d| match hop(&men, at, d) {
                Some((l, over)) if l == q => Some((d, over)),
                _ => None,
            })?;
            men = men.andnot(&over);
            at = q;
            out.push(HOP + d as u32);
        }
        out.push(STOP);
        Some(out)
    }
    fn pending_text(&self, pos: &Pos, pending: &[u32]) -> String {
        if pending.is_empty() {
            return String::new();
        }
        path_text(pos.ball, &under_way(pos, pending).landings)
    }
    /// Stopping where the ball stands, and every way on: the moves of the position the move
    /// under way has reached (its men, the ball where it stands), each written after the jumps
    /// so far.
    fn pending_moves(&self, pos: &Pos, pending: &[u32], cap: usize) -> Option<Vec<String>> {
        let u = under_way(pos, pending);
        let so_far = path_text(pos.ball, &u.landings);
        let here = Pos::new(u.men, u.ball, pos.side);
        let mut rest = Vec::new();
        let flow = tree::for_each_jump(&here, |m| {
            rest.push(m);
            if rest.len() >= cap {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        if flow.is_break() {
            return None;
        }
        let mut out = Vec::with_capacity(rest.len() + 1);
        out.push(so_far.clone());
        let skip = point_name(u.ball as usize).len();
        for m in rest {
            out.push(format!(
                "{so_far}{}",
                &notation::format_move(&here, m)[skip..]
            ));
        }
        out.sort_unstable();
        Some(out)
    }
}
