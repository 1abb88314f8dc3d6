//! Ball paths as written in notation: checking one jump, and finding the canonical (byte-order
//! smallest) path of a ball move.

use super::board::{name_rank, Bits, NONE, STEP};
use super::position::{BALL_KEYS, MAN_KEYS};
use super::stateset::with_state_set;
use super::stateset::StateSet;

/// The men a single jump from `from` to `to` passes over, if that is a legal jump with `men` on
/// the board.
pub fn single_jump(men: &Bits, from: u16, to: u16) -> Option<Bits> {
    let d = STEP.iter().position(|s| {
        let mut q = s[from as usize];
        if q == NONE || !men.get(q as usize) {
            return false;
        }
        while q != NONE && men.get(q as usize) {
            q = s[q as usize];
        }
        q == to
    })?;
    let s = &STEP[d];
    let mut over = Bits::EMPTY;
    let mut q = s[from as usize];
    while q != to {
        over.set(q as usize);
        q = s[q as usize];
    }
    Some(over)
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
/// only men of `removed` are ever jumped, and states that failed once are remembered and
/// skipped.
pub fn canonical_path(men: &Bits, ball: u16, to: u16, removed: &Bits, budget: usize) -> Canonical {
    with_state_set(|dead| {
        let mut c = Canon {
            men: *men,
            removed: Bits::EMPTY,
            rhash: 0,
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

struct Canon<'s> {
    men: Bits,
    removed: Bits,
    rhash: u64,
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
            while q != NONE && self.men.get(q as usize) {
                if !self.target.get(q as usize) {
                    k = 0;
                    break;
                }
                q = step[q as usize];
                k += 1;
            }
            if k == 0 || q == NONE || self.men.get(q as usize) {
                continue;
            }
            cands[n] = (name_rank(q as usize), d, q, k);
            n += 1;
        }
        let cands = &mut cands[..n];
        cands.sort_unstable();
        for &(_, d, q, k) in cands.iter() {
            let step = &STEP[d];
            let first = step[ball as usize];
            let mut r = first;
            for _ in 0..k {
                self.men.clear(r as usize);
                self.removed.set(r as usize);
                self.rhash ^= MAN_KEYS[r as usize];
                r = step[r as usize];
            }
            self.path.push(q);
            let done = if self.removed == self.target {
                Some(q == self.to)
            } else {
                let key = self.rhash ^ BALL_KEYS[q as usize];
                if !self.dead.insert(key, q, &self.removed) {
                    Some(false)
                } else if self.dead.len() > self.budget {
                    None
                } else {
                    self.run(q)
                }
            };
            if done != Some(false) {
                return done;
            }
            self.path.pop();
            let mut r = first;
            for _ in 0..k {
                self.men.set(r as usize);
                self.removed.clear(r as usize);
                self.rhash ^= MAN_KEYS[r as usize];
                r = step[r as usize];
            }
        }
        Some(false)
    }
}
