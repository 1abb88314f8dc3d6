//! A jump chain under way, shared by the move generator and the canonical-path search: both
//! remove a run of men, key the state reached, and put the men back. Kept in one place because
//! the state key must be computed exactly the same way by both (a mismatch would make one of
//! them prune states the other needs).

use super::board::{Bits, STEP};
use super::position::{BALL_KEYS, MAN_KEYS};

/// The men still on the board, the men jumped so far, and a hash of the jumped set.
pub struct Chain {
    pub men: Bits,
    pub removed: Bits,
    rhash: u64,
}

impl Chain {
    #[inline]
    pub fn new(men: &Bits) -> Chain {
        Chain {
            men: *men,
            removed: Bits::EMPTY,
            rhash: 0,
        }
    }

    /// Jumps the `k` men in a row from `ball` in direction `dir`.
    #[inline(always)]
    pub fn take(&mut self, dir: usize, ball: u16, k: u32) {
        let step = &STEP[dir];
        let mut r = step[ball as usize];
        for _ in 0..k {
            self.men.clear(r as usize);
            self.removed.set(r as usize);
            self.rhash ^= MAN_KEYS[r as usize];
            r = step[r as usize];
        }
    }

    /// Undoes [`Chain::take`] with the same arguments.
    #[inline(always)]
    pub fn put_back(&mut self, dir: usize, ball: u16, k: u32) {
        let step = &STEP[dir];
        let mut r = step[ball as usize];
        for _ in 0..k {
            self.men.set(r as usize);
            self.removed.clear(r as usize);
            self.rhash ^= MAN_KEYS[r as usize];
            r = step[r as usize];
        }
    }

    /// The key of the state (ball on `ball`, the men jumped so far).
    #[inline]
    pub fn key(&self, ball: u16) -> u64 {
        self.rhash ^ BALL_KEYS[ball as usize]
    }
}
