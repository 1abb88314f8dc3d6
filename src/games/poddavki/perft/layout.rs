//! The perft board: the 32 squares in a 36-bit word with a ghost bit after every odd rank, and
//! the side to move as a type (see the module above).

use super::super::board::Bits;

pub(super) type B = u64;

/// Every real square (ghost bits 4, 13, 22 and 31 and bits from 36 up left out).
pub(super) const BOARD: B = 0xF_7FBF_DFEF;
pub(super) const RANK_1: B = 0xF;
pub(super) const RANK_8: B = 0xF << 32;
/// Steps: up-right, up-left, down-right, down-left.
pub(super) const DIRS: [i32; 4] = [5, 4, -4, -5];

/// A square set moved one step along `d` (a negative step shifts down).
#[inline(always)]
pub(super) fn sh(x: B, d: i32) -> B {
    if d > 0 {
        x << d
    } else {
        x >> -d
    }
}

/// The layout above from [`Position`]'s: ranks 1-2 move up one bit, 3-4 two, and so on.
pub(super) fn spread(x: Bits) -> B {
    let x = x as B;
    (x & 0xF)
        | (x & 0xFF0) << 1
        | (x & 0xF_F000) << 2
        | (x & 0x0FF0_0000) << 3
        | (x & 0xF000_0000) << 4
}

#[derive(Clone, Copy)]
pub(super) struct Board {
    pub(super) white: B,
    pub(super) black: B,
    pub(super) kings: B,
}

/// The side to move, as a type.
pub(super) trait Side {
    type Other: Side;
    const IS_WHITE: bool;
    /// Quiet steps of a man.
    const FORWARD: [i32; 2];
    const PROMO: B;
}

pub(super) struct White;
pub(super) struct Black;

impl Side for White {
    type Other = Black;
    const IS_WHITE: bool = true;
    const FORWARD: [i32; 2] = [5, 4];
    const PROMO: B = RANK_8;
}

impl Side for Black {
    type Other = White;
    const IS_WHITE: bool = false;
    const FORWARD: [i32; 2] = [-4, -5];
    const PROMO: B = RANK_1;
}

impl Board {
    #[inline(always)]
    pub(super) fn mine<S: Side>(&self) -> B {
        if S::IS_WHITE {
            self.white
        } else {
            self.black
        }
    }

    #[inline(always)]
    pub(super) fn theirs<S: Side>(&self) -> B {
        self.mine::<S::Other>()
    }

    #[inline(always)]
    pub(super) fn empty(&self) -> B {
        BOARD & !(self.white | self.black)
    }

    /// The board after the side to move takes its piece from `from` to `to` (one bit each, the
    /// same bit for a capture that ends where it began), removing `captured`.
    #[inline(always)]
    pub(super) fn after<S: Side>(&self, from: B, to: B, captured: B, king: bool) -> Board {
        let mine = (self.mine::<S>() & !from) | to;
        let theirs = self.theirs::<S>() & !captured;
        let kings = (self.kings & !from & !captured) | if king { to } else { 0 };
        if S::IS_WHITE {
            Board {
                white: mine,
                black: theirs,
                kings,
            }
        } else {
            Board {
                white: theirs,
                black: mine,
                kings,
            }
        }
    }
}
