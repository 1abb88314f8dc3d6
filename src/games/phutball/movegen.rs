//! Move generation. Placements are a bitboard; ball moves (jump chains) come from a depth-first
//! search that removes and restores men in place, and visits each distinct resulting state
//! (end point, removed set) once: a state's continuations depend on nothing else, so a state seen
//! before is pruned with its whole subtree. Nothing is allocated per jump; the hash set of states
//! is reused from a per-thread pool.

use super::board::{Bits, BLUE_SCORES, NONE, RED_SCORES, STEP};
use super::chain::Chain;
use super::position::Pos;
use super::stateset::{with_state_set, StateSet};
use crate::games::Side;

/// A move: place a man, or a ball move identified by where the ball ends and which men go.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    Place(u16),
    Jump { to: u16, removed: Bits },
}

/// Direction orders for the search: any order finds every state; trying the likely
/// directions first makes "can this side score?" stop sooner.
pub const ORDER_ANY: [u8; 8] = [0, 1, 2, 3, 4, 5, 6, 7];
pub const ORDER_UP: [u8; 8] = [0, 1, 7, 2, 6, 3, 5, 4];
pub const ORDER_DOWN: [u8; 8] = [4, 3, 5, 2, 6, 1, 7, 0];

/// The direction order that heads towards `side`'s scoring rows first.
pub fn order_for(side: Side) -> &'static [u8; 8] {
    match side {
        Side::P1 => &ORDER_UP,
        Side::P2 => &ORDER_DOWN,
    }
}

/// Where `side` wins if a move ends there.
pub fn scoring_rows(side: Side) -> &'static Bits {
    match side {
        Side::P1 => &RED_SCORES,
        Side::P2 => &BLUE_SCORES,
    }
}

/// What a visitor wants after seeing a new state.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Visit {
    /// Go on from this state.
    Expand,
    /// Do not search past this state (nothing useful can follow).
    Skip,
    /// Stop the whole walk.
    Stop,
}

/// How a walk over jump chains ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Walk {
    /// Every state was visited.
    Done,
    /// The visitor said stop.
    Stopped,
    /// More states than the budget; the walk was cut short.
    OutOfBudget,
}

struct Walker<'s> {
    chain: Chain,
    seen: &'s mut StateSet,
    order: &'s [u8; 8],
    budget: usize,
    out_of_budget: bool,
}

impl Walker<'_> {
    /// Visits the states reachable from the ball on `ball`; returns true to stop everything.
    fn run<F: FnMut(u16, &Bits) -> Visit>(&mut self, ball: u16, f: &mut F) -> bool {
        for &d in self.order {
            let step = &STEP[d as usize];
            let first = step[ball as usize];
            if first == NONE || !self.chain.men.get(first as usize) {
                continue;
            }
            let mut q = step[first as usize];
            let mut k = 1;
            while q != NONE && self.chain.men.get(q as usize) {
                q = step[q as usize];
                k += 1;
            }
            if q == NONE {
                continue;
            }
            self.chain.take(d as usize, ball, k);
            let key = self.chain.key(q);
            let stop = if !self.seen.insert(key, q, &self.chain.removed) {
                false
            } else if self.seen.len() > self.budget {
                self.out_of_budget = true;
                true
            } else {
                match f(q, &self.chain.removed) {
                    Visit::Expand => self.run(q, f),
                    Visit::Skip => false,
                    Visit::Stop => true,
                }
            };
            self.chain.put_back(d as usize, ball, k);
            if stop {
                return true;
            }
        }
        false
    }
}

/// True when some man is next to the ball (otherwise there is no jump at all).
#[inline]
pub fn has_jump_start(men: &Bits, ball: u16) -> bool {
    STEP.iter().any(|s| {
        let q = s[ball as usize];
        q != NONE && men.get(q as usize)
    })
}

/// The jump from `ball` in direction `d` (an index of [`super::board::DIRS`]) over the men of
/// `men`: where it lands and the men it passes over. `None` when no man is next to the ball
/// that way or the landing would be off the board. (The walks below inline the same steps.)
pub fn hop(men: &Bits, ball: u16, d: usize) -> Option<(u16, Bits)> {
    let step = &STEP[d];
    let mut q = step[ball as usize];
    let mut over = Bits::EMPTY;
    while q != NONE && men.get(q as usize) {
        over.set(q as usize);
        q = step[q as usize];
    }
    (q != NONE && !over.is_empty()).then_some((q, over))
}

/// True when the ball has a move: some first jump lands on the board (every chain starts
/// with one, and one jump is a move).
pub fn has_jump(men: &Bits, ball: u16) -> bool {
    STEP.iter().any(|s| {
        let mut q = s[ball as usize];
        if q == NONE || !men.get(q as usize) {
            return false;
        }
        while q != NONE && men.get(q as usize) {
            q = s[q as usize];
        }
        q != NONE
    })
}

/// The number of legal moves when at most `cap`, else `None`; walks at most about `cap` states.
pub fn count_moves_upto(pos: &Pos, cap: usize) -> Option<usize> {
    let placements = pos.empty_placeable().count() as usize;
    let budget = cap.checked_sub(placements)?;
    let mut jumps = 0usize;
    let walk = walk_jumps(&pos.men, pos.ball, &ORDER_ANY, budget, |_, _| {
        jumps += 1;
        Visit::Expand
    });
    (walk != Walk::OutOfBudget).then_some(placements + jumps)
}

/// Calls `f(end, removed)` once per distinct ball move (state) until it says stop or more than
/// `budget` states have been seen.
pub fn walk_jumps<F: FnMut(u16, &Bits) -> Visit>(
    men: &Bits,
    ball: u16,
    order: &[u8; 8],
    budget: usize,
    mut f: F,
) -> Walk {
    if !has_jump_start(men, ball) {
        return Walk::Done;
    }
    with_state_set(|seen| {
        let mut w = Walker {
            chain: Chain::new(men),
            seen,
            order,
            budget,
            out_of_budget: false,
        };
        match (w.run(ball, &mut f), w.out_of_budget) {
            (false, _) => Walk::Done,
            (true, false) => Walk::Stopped,
            (true, true) => Walk::OutOfBudget,
        }
    })
}

/// Calls `f(end, removed)` once per distinct ball move.
pub fn for_each_jump<F: FnMut(u16, &Bits)>(men: &Bits, ball: u16, mut f: F) {
    walk_jumps(men, ball, &ORDER_ANY, usize::MAX, |to, removed| {
        f(to, removed);
        Visit::Expand
    });
}

pub fn push_placements(pos: &Pos, out: &mut Vec<Move>) {
    out.extend(pos.empty_placeable().iter().map(|p| Move::Place(p as u16)));
}

/// Appends the ball moves, at most about `budget` of them; returns false when cut short.
pub fn push_jumps_limited(pos: &Pos, budget: usize, out: &mut Vec<Move>) -> bool {
    let w = walk_jumps(&pos.men, pos.ball, &ORDER_ANY, budget, |to, removed| {
        out.push(Move::Jump {
            to,
            removed: *removed,
        });
        Visit::Expand
    });
    w != Walk::OutOfBudget
}

pub fn push_jumps(pos: &Pos, out: &mut Vec<Move>) {
    push_jumps_limited(pos, usize::MAX, out);
}

pub fn count_jumps(pos: &Pos) -> u64 {
    let mut n = 0u64;
    for_each_jump(&pos.men, pos.ball, |_, _| n += 1);
    n
}

pub fn count_moves(pos: &Pos) -> u64 {
    pos.empty_placeable().count() as u64 + count_jumps(pos)
}

pub fn make(pos: &Pos, mv: Move) -> Pos {
    match mv {
        Move::Place(p) => pos.place(p),
        Move::Jump { to, removed } => pos.jump(to, &removed),
    }
}
