//! Ball paths as written in notation: checking one jump, and finding the canonical (byte-order
//! smallest) path of a ball move.

use super::board::{name_rank, shift_to, Bits, NONE, STEP};
use super::chain::Chain;
use super::movegen::hop;
use super::stateset::with_state_set;
use super::stateset::StateSet;

/// The men a single jump from `from` to `to` passes over, if that is a legal jump with `men` on
/// the board.
pub fn single_jump(men: &Bits, from: u16, to: u16) -> Option<Bits> {
    (0..STEP.len()).find_map(|d| {
        hop(men, from, d)
            .filter(|&(q, _)| q == to)
            .map(|(_, over)| over)
    })
}

/// What a search for a move's canonical path found.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Canonical {
    /// The smallest path: the landing points after the start.
    Path(Vec<u16>),
    /// No path realises the move: it is not legal here.
    Illegal,
    /// More than the budget of states were visited first.
    OutOfBudget,
}

/// The byte-order smallest path realising the ball move (`to`, `removed`) from `ball`, visiting
/// at most `budget` states. Depth-first in name order, so the first success is the smallest;
/// only men of `removed` are ever jumped, states that failed once are remembered and skipped,
/// and states from which a sound test shows the move cannot be completed are cut.
///
/// Finding whether a chain realises a given move is a hard search problem in general, so this
/// is not polynomial; but it only visits states that remove part of this move's men, each once,
/// so it never costs more states than listing all the position's ball moves.
pub fn canonical_path(men: &Bits, ball: u16, to: u16, removed: &Bits, budget: usize) -> Canonical {
    with_state_set(|dead| {
        let mut c = Canon {
            chain: Chain::new(men),
            to,
            target: *removed,
            dead,
            path: Vec::new(),
            budget,
        };
        match c.run(ball) {
            Some(true) => Canonical::Path(c.path),
            Some(false) => Canonical::Illegal,
            None => Canonical::OutOfBudget,
        }
    })
}

/// The sound test of [`Canon::may_finish`] costs a few plain steps; run at every second depth it
/// still cuts nearly as many dead subtrees (measured on long chains of dense positions).
const TEST_EVERY: usize = 2;

struct Canon<'s> {
    chain: Chain,
    to: u16,
    target: Bits,
    dead: &'s mut StateSet,
    path: Vec<u16>,
    budget: usize,
}

impl Canon<'_> {
    /// `Some(true)`: found (the path is in `self.path`); `None`: out of budget.
    fn run(&mut self, ball: u16) -> Option<bool> {
        // (name rank of landing, direction, landing, run length)
        let mut cands = [(0u16, 0usize, 0u16, 0u32); 8];
        let mut n = 0;
        for (d, step) in STEP.iter().enumerate() {
            let mut q = step[ball as usize];
            let mut k = 0;
            while q != NONE && self.chain.men.get(q as usize) {
                if !self.target.get(q as usize) {
                    k = 0;
                    break;
                }
                q = step[q as usize];
                k += 1;
            }
            if k == 0 || q == NONE || self.chain.men.get(q as usize) {
                continue;
            }
            cands[n] = (name_rank(q as usize), d, q, k);
            n += 1;
        }
        let cands = &mut cands[..n];
        cands.sort_unstable();
        for &(_, d, q, k) in cands.iter() {
            self.chain.take(d, ball, k);
            self.path.push(q);
            let done = if self.chain.removed == self.target {
                Some(q == self.to)
            } else {
                let key = self.chain.key(q);
                if !self.dead.insert(key, q, &self.chain.removed) {
                    Some(false)
                } else if self.dead.len() > self.budget {
                    None
                } else if self.path.len().is_multiple_of(TEST_EVERY) && !self.may_finish(q) {
                    Some(false)
                } else {
                    self.run(q)
                }
            };
            if done != Some(false) {
                return done;
            }
            self.path.pop();
            self.chain.put_back(d, ball, k);
        }
        Some(false)
    }

    /// False when no continuation from the ball on `ball` can remove exactly the men still to
    /// go and end on the target point. Sound relaxation: the ball only ever lands on points that
    /// are not men it must keep, and every later jump passes over men still to go only; so it
    /// must reach the end point, and pass over each man still to go, in the graph of such jumps
    /// where men still to go count both as men and as possible landings.
    fn may_finish(&self, ball: u16) -> bool {
        let to_go = self.target.andnot(&self.chain.removed);
        let keep = self.chain.men.andnot(&self.target);
        let mut reach = Bits::EMPTY;
        reach.set(ball as usize);
        let mut frontier = reach;
        let mut passed = Bits::EMPTY;
        loop {
            let mut new = Bits::EMPTY;
            let mut g = Spread {
                to_go: &to_go,
                keep: &keep,
                passed: &mut passed,
                new: &mut new,
            };
            g.dir::<0, 4>(&frontier);
            g.dir::<1, 5>(&frontier);
            g.dir::<2, 6>(&frontier);
            g.dir::<3, 7>(&frontier);
            g.dir::<4, 0>(&frontier);
            g.dir::<5, 1>(&frontier);
            g.dir::<6, 2>(&frontier);
            g.dir::<7, 3>(&frontier);
            let new = new.andnot(&reach);
            if new.is_empty() {
                break;
            }
            reach = reach.or(&new);
            frontier = new;
        }
        reach.get(self.to as usize) && to_go.is_subset(&passed)
    }
}

/// One round of [`Canon::may_finish`]'s search, direction by direction.
struct Spread<'a> {
    to_go: &'a Bits,
    keep: &'a Bits,
    passed: &'a mut Bits,
    new: &'a mut Bits,
}

impl Spread<'_> {
    /// Jumps in direction `D` (`B` is its opposite) from the points of `from`.
    #[inline(always)]
    fn dir<const D: usize, const B: usize>(&mut self, from: &Bits) {
        let mut run = shift_to::<D>(from).and(self.to_go);
        while !run.is_empty() {
            let next = shift_to::<D>(&run);
            let land = next.andnot(self.keep);
            *self.passed = self.passed.or(&shift_to::<B>(&land));
            *self.new = self.new.or(&land);
            run = next.and(self.to_go);
        }
    }
}
