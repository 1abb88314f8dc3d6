//! The exact "can this side score with one ball move?" solver, with cheap sound filters first.

use super::board::{shift, Bits, BLUE_LAST_MEN, RED_LAST_MEN};
use super::movegen::{has_jump_start, order_for, scoring_rows, walk_jumps, Move, Visit, Walk};
use super::position::Pos;
use crate::games::Side;

/// Answer of the "can this side score with one ball move?" solver.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Scan {
    Scores(Move),
    /// Proven: no chain ends in the scoring rows.
    Cannot,
    /// The budget ran out first (no scoring chain among the states seen).
    Unknown,
}

/// Whether `side` could score with one ball move from `pos` if it were `side`'s turn: exhaustive
/// over jump chains (within `budget` states). Deciding this is NP-hard in general, hence the
/// cheap sound filters first: a scoring jump's last man stands next to the goal rows, and the
/// ball can only ever reach points of [`reach_bound`].
pub fn scan_scoring(pos: &Pos, side: Side, budget: usize) -> Scan {
    let last_men = match side {
        Side::P1 => &RED_LAST_MEN,
        Side::P2 => &BLUE_LAST_MEN,
    };
    if !pos.men.intersects(last_men) || !has_jump_start(&pos.men, pos.ball) {
        return Scan::Cannot;
    }
    let target = scoring_rows(side);
    if !reach_bound(&pos.men, pos.ball).intersects(target) {
        return Scan::Cannot;
    }
    let mut found = None;
    let w = walk_jumps(
        &pos.men,
        pos.ball,
        order_for(side),
        budget,
        |to, removed| {
            if target.get(to as usize) {
                found = Some(Move::Jump {
                    to,
                    removed: *removed,
                });
                Visit::Stop
            } else if pos.men.andnot(removed).intersects(last_men) {
                Visit::Expand
            } else {
                // Every man that could be jumped last is gone.
                Visit::Skip
            }
        },
    );
    match (found, w) {
        (Some(m), _) => Scan::Scores(m),
        (None, Walk::OutOfBudget) => Scan::Unknown,
        (None, _) => Scan::Cannot,
    }
}

/// Exhaustive version of [`scan_scoring`].
pub fn scoring_jump(pos: &Pos, side: Side) -> Option<Move> {
    match scan_scoring(pos, side, usize::MAX) {
        Scan::Scores(m) => Some(m),
        _ => None,
    }
}

/// A superset of the points the ball can reach by jumps: landing on any point that follows a
/// run of (original) men, whether it is empty or a man that an earlier jump may have removed.
pub fn reach_bound(men: &Bits, ball: u16) -> Bits {
    let mut reach = Bits::EMPTY;
    reach.set(ball as usize);
    let mut frontier = reach;
    loop {
        let mut new = Bits::EMPTY;
        for d in 0..8 {
            let mut run = shift(&frontier, d).and(men);
            while !run.is_empty() {
                let next = shift(&run, d);
                new = new.or(&next);
                run = next.and(men);
            }
        }
        let new = new.andnot(&reach);
        if new.is_empty() {
            return reach;
        }
        reach = reach.or(&new);
        frontier = new;
    }
}
