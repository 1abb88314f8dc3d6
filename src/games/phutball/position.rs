//! The position (men, ball, side to move) with its incremental Zobrist hash.

use super::board::{Bits, N, PLACEABLE};
use crate::games::zobrist;
use crate::games::Side;

pub static MAN_KEYS: [u64; N] = zobrist::keys(0x5048_5554_0001);
pub static BALL_KEYS: [u64; N] = zobrist::keys(0x5048_5554_0002);
pub const SIDE_KEY: u64 = zobrist::splitmix64(0x5048_5554_0003).1;

/// Where the ball starts: h10.
pub const START_BALL: u16 = (10 * 15 + 7) as u16;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Pos {
    pub men: Bits,
    pub ball: u16,
    pub side: Side,
    pub hash: u64,
}

impl Pos {
    /// Builds a position and computes its hash from scratch; the caller has validated it.
    pub fn new(men: Bits, ball: u16, side: Side) -> Pos {
        let mut p = Pos {
            men,
            ball,
            side,
            hash: 0,
        };
        p.hash = p.scratch_hash();
        p
    }

    pub fn start() -> Pos {
        Pos::new(Bits::EMPTY, START_BALL, Side::P1)
    }

    pub fn scratch_hash(&self) -> u64 {
        let mut h = BALL_KEYS[self.ball as usize];
        for p in self.men.iter() {
            h ^= MAN_KEYS[p];
        }
        if self.side == Side::P2 {
            h ^= SIDE_KEY;
        }
        h
    }

    /// Empty points where a man may be placed.
    #[inline]
    pub fn empty_placeable(&self) -> Bits {
        let mut e = PLACEABLE.andnot(&self.men);
        e.clear(self.ball as usize);
        e
    }

    pub fn place(&self, p: u16) -> Pos {
        let mut n = *self;
        n.men.set(p as usize);
        n.hash ^= MAN_KEYS[p as usize] ^ SIDE_KEY;
        n.side = self.side.other();
        n
    }

    pub fn jump(&self, to: u16, removed: &Bits) -> Pos {
        let mut n = *self;
        n.men = self.men.andnot(removed);
        let mut h = self.hash ^ BALL_KEYS[self.ball as usize] ^ BALL_KEYS[to as usize] ^ SIDE_KEY;
        for p in removed.iter() {
            h ^= MAN_KEYS[p];
        }
        n.hash = h;
        n.ball = to;
        n.side = self.side.other();
        n
    }
}
