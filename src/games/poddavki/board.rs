//! Board geometry over the 32 dark squares, the position value type and `make`.
//!
//! Square index `s = rank * 4 + file / 2` (rank 0 = White's first rank). Rank parity decides
//! which files a row holds, so a diagonal step is a shift of 3, 4 or 5 depending on the row; the
//! shift helpers mask by row parity once instead of testing per square.

use crate::games::zobrist;

/// Bit set over the 32 dark squares.
pub type Bits = u32;

pub const WHITE: usize = 0;
pub const BLACK: usize = 1;

/// Direction indices. The first two go up the board (square index grows along the ray).
pub const NE: usize = 0;
pub const NW: usize = 1;
pub const SE: usize = 2;
pub const SW: usize = 3;
const DELTAS: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

/// Marks "off the board" in [`NB`].
pub const NONE: u8 = 32;

pub const EVEN_RANKS: Bits = 0x0F0F_0F0F;
pub const ODD_RANKS: Bits = 0xF0F0_F0F0;
pub const FILE_A: Bits = 0x0101_0101;
pub const FILE_H: Bits = 0x8080_8080;
pub const RANK_1: Bits = 0x0000_000F;
pub const RANK_8: Bits = 0xF000_0000;
/// The rank where each side's men promote.
pub const PROMO_RANK: [Bits; 2] = [RANK_8, RANK_1];

pub const fn file_of(s: usize) -> usize {
    2 * (s % 4) + (s / 4) % 2
}
pub const fn rank_of(s: usize) -> usize {
    s / 4
}

/// The dark square at (file, rank), if it is one.
pub const fn square_at(file: i32, rank: i32) -> Option<usize> {
    if file < 0 || file > 7 || rank < 0 || rank > 7 || (file + rank) % 2 != 0 {
        return None;
    }
    Some((rank * 4 + file / 2) as usize)
}

const fn build_nb() -> [[u8; 4]; 32] {
    let mut t = [[NONE; 4]; 32];
    let mut s = 0;
    while s < 32 {
        let mut d = 0;
        while d < 4 {
            let f = file_of(s) as i32 + DELTAS[d].0;
            let r = rank_of(s) as i32 + DELTAS[d].1;
            if let Some(n) = square_at(f, r) {
                t[s][d] = n as u8;
            }
            d += 1;
        }
        s += 1;
    }
    t
}

/// Diagonal neighbour of a square in a direction, or [`NONE`].
pub const NB: [[u8; 4]; 32] = build_nb();

const fn build_rays() -> [[Bits; 4]; 32] {
    let mut t = [[0; 4]; 32];
    let mut s = 0;
    while s < 32 {
        let mut d = 0;
        while d < 4 {
            let mut cur = NB[s][d];
            while cur != NONE {
                t[s][d] |= 1 << cur;
                cur = NB[cur as usize][d];
            }
            d += 1;
        }
        s += 1;
    }
    t
}

/// Diagonal neighbour of `s` in direction `d`, or [`NONE`].
#[inline(always)]
pub fn step(s: usize, d: usize) -> u8 {
    NB[s][d]
}

/// All squares along a diagonal from a square (the square itself excluded).
pub const RAY: [[Bits; 4]; 32] = build_rays();

/// One diagonal step of every square in a set, squares falling off the board dropped.
#[inline(always)]
pub fn shift(x: Bits, d: usize) -> Bits {
    match d {
        NE => ((x & EVEN_RANKS) << 4) | ((x & ODD_RANKS & !FILE_H) << 5),
        NW => ((x & EVEN_RANKS & !FILE_A) << 3) | ((x & ODD_RANKS) << 4),
        SE => ((x & EVEN_RANKS) >> 4) | ((x & ODD_RANKS & !FILE_H) >> 3),
        _ => ((x & EVEN_RANKS & !FILE_A) >> 5) | ((x & ODD_RANKS) >> 4),
    }
}

/// The direction pointing back along `d`.
pub const fn opposite(d: usize) -> usize {
    d ^ 3
}

/// The nearest square of a non-empty set along direction `d` (lowest index going up).
#[inline(always)]
pub fn nearest(set: Bits, d: usize) -> usize {
    if d < 2 {
        set.trailing_zeros() as usize
    } else {
        31 - set.leading_zeros() as usize
    }
}

/// Squares of a ray lying before `b` when walking along `d`.
#[inline(always)]
pub fn before(b: usize, d: usize) -> Bits {
    if d < 2 {
        !(u32::MAX << b)
    } else {
        (u32::MAX << b) << 1
    }
}

/// The empty squares a slider at `s` reaches along `d`, and the first occupied square if any.
#[inline(always)]
pub fn slide(s: usize, d: usize, occ: Bits) -> (Bits, Option<usize>) {
    let ray = RAY[s][d];
    let blk = ray & occ;
    if blk == 0 {
        (ray, None)
    } else {
        let b = nearest(blk, d);
        (ray & before(b, d), Some(b))
    }
}

/// Every square a flying king at `s` reaches or hits first, per direction, unioned.
#[inline(always)]
pub fn king_reach(s: usize, occ: Bits) -> Bits {
    let mut r = 0;
    for d in 0..4 {
        r |= slide(s, d, occ).0;
    }
    r
}

/// Iterator over the squares of a set, lowest first.
pub struct Squares(pub Bits);

impl Iterator for Squares {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            None
        } else {
            let s = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            Some(s)
        }
    }
}

/// A move: identity is (from, to, captured set, promotion), as the rules define it. The path of a
/// capture is recovered when formatting.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    pub captured: Bits,
    pub from: u8,
    pub to: u8,
    /// The moving man becomes a king (also set for a quiet move onto the far rank).
    pub promo: bool,
}

impl Move {
    pub fn is_capture(self) -> bool {
        self.captured != 0
    }
}

/// Zobrist keys: `[kind * 32 + square]`, kinds white man, white king, black man, black king; the
/// last key marks Black to move.
static KEYS: [u64; 129] = zobrist::keys(0x90DD_A7C1_0000_0001);

#[inline(always)]
pub fn piece_key(side: usize, king: bool, s: usize) -> u64 {
    KEYS[(side * 2 + king as usize) * 32 + s]
}
pub fn side_key() -> u64 {
    KEYS[128]
}

/// A position: pieces per side, which of them are kings, side to move, and its Zobrist hash.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    pub pieces: [Bits; 2],
    pub kings: Bits,
    /// `WHITE` or `BLACK`.
    pub stm: usize,
    pub hash: u64,
}

impl Position {
    /// Builds a position and computes its hash from scratch.
    pub fn new(white: Bits, black: Bits, kings: Bits, stm: usize) -> Position {
        let mut p = Position {
            pieces: [white, black],
            kings,
            stm,
            hash: 0,
        };
        p.hash = p.compute_hash();
        p
    }

    pub fn start() -> Position {
        Position::new(0x0000_0FFF, 0xFFF0_0000, 0, WHITE)
    }

    pub fn compute_hash(&self) -> u64 {
        let mut h = if self.stm == BLACK { side_key() } else { 0 };
        for side in [WHITE, BLACK] {
            for s in Squares(self.pieces[side]) {
                h ^= piece_key(side, self.kings >> s & 1 != 0, s);
            }
        }
        h
    }

    #[inline(always)]
    pub fn occupied(&self) -> Bits {
        self.pieces[0] | self.pieces[1]
    }

    /// The position after a legal move; `HASH = false` skips the hash update (perft).
    #[inline(always)]
    pub fn make_with<const HASH: bool>(&self, m: Move) -> Position {
        let us = self.stm;
        let them = us ^ 1;
        let fb: Bits = 1 << m.from;
        let tb: Bits = 1 << m.to;
        let was_king = self.kings & fb != 0;
        let is_king = was_king || m.promo;
        let mut n = *self;
        n.pieces[us] = (self.pieces[us] & !fb) | tb;
        n.pieces[them] &= !m.captured;
        n.kings = (self.kings & !fb & !m.captured) | if is_king { tb } else { 0 };
        n.stm = them;
        if HASH {
            let mut h = self.hash ^ side_key();
            h ^= piece_key(us, was_king, m.from as usize);
            h ^= piece_key(us, is_king, m.to as usize);
            for s in Squares(m.captured) {
                h ^= piece_key(them, self.kings >> s & 1 != 0, s);
            }
            n.hash = h;
        }
        n
    }

    pub fn make(&self, m: Move) -> Position {
        self.make_with::<true>(m)
    }
}
