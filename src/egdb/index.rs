//! Position ↔ index within a slice: men and kings ranked as combinations (colex order), white
//! men on their 28 squares, black men on theirs, white kings among the squares the men leave,
//! black kings among the rest; the side to move last. Also the slices' order and the board
//! geometry the builder walks backwards.

use std::fmt;

use super::probe::bare;
use crate::games::poddavki::Position;

/// The 28 squares a white man can stand on (below rank 8); a black man's are these shifted up a
/// rank (`<< 4`).
const MAN_SQUARES: usize = 28;

const fn binomials() -> [[u64; 33]; 33] {
    let mut c = [[0u64; 33]; 33];
    let mut n = 0;
    while n <= 32 {
        c[n][0] = 1;
        let mut k = 1;
        while k <= n {
            c[n][k] = c[n - 1][k - 1] + if k < n { c[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    c
}

static BINOM: [[u64; 33]; 33] = binomials();

fn binom(n: usize, k: usize) -> u64 {
    if k > n {
        0
    } else {
        BINOM[n][k]
    }
}

/// Colex rank of a set of item numbers (bits of `set`, below 32).
fn rank(set: u32) -> u64 {
    let mut r = 0;
    for (i, p) in Bits(set).enumerate() {
        r += binom(p, i + 1);
    }
    r
}

/// The `k`-item set of colex rank `r`.
fn unrank(mut r: u64, k: usize) -> u32 {
    let mut set = 0;
    let mut p = 32;
    for i in (1..=k).rev() {
        p -= 1;
        while binom(p, i) > r {
            p -= 1;
        }
        r -= binom(p, i);
        set |= 1 << p;
    }
    set
}

/// The items of `set` renumbered by their place among the bits of `within`.
fn compress(set: u32, within: u32) -> u32 {
    let mut out = 0;
    for s in Bits(set) {
        out |= 1 << (within & ((1u32 << s) - 1)).count_ones();
    }
    out
}

/// The inverse of [`compress`]: item i goes to the i-th bit of `within`.
#[cfg(test)]
fn expand(set: u32, within: u32) -> u32 {
    let mut out = 0;
    let mut w = within;
    let mut i = 0;
    while w != 0 {
        let low = w & w.wrapping_neg();
        if set >> i & 1 != 0 {
            out |= low;
        }
        w ^= low;
        i += 1;
    }
    out
}

/// Squares of a set, lowest first.
pub(crate) struct Bits(pub u32);

impl Iterator for Bits {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let s = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(s)
    }
}

/// A slice: how many men and kings each side has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    pub white_men: u8,
    pub white_kings: u8,
    pub black_men: u8,
    pub black_kings: u8,
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}{}{}",
            self.white_men, self.white_kings, self.black_men, self.black_kings
        )
    }
}

impl Material {
    pub fn new(white_men: u8, white_kings: u8, black_men: u8, black_kings: u8) -> Material {
        Material {
            white_men,
            white_kings,
            black_men,
            black_kings,
        }
    }

    pub fn of(pos: &Position) -> Material {
        let count = |b: u32| b.count_ones() as u8;
        Material::new(
            count(pos.pieces[0] & !pos.kings),
            count(pos.pieces[0] & pos.kings),
            count(pos.pieces[1] & !pos.kings),
            count(pos.pieces[1] & pos.kings),
        )
    }

    pub fn pieces(&self) -> u32 {
        self.men() + u32::from(self.white_kings + self.black_kings)
    }

    pub fn men(&self) -> u32 {
        u32::from(self.white_men + self.black_men)
    }

    /// Both sides have a piece (the slices stored).
    pub fn is_stored(&self) -> bool {
        self.white_men + self.white_kings > 0 && self.black_men + self.black_kings > 0
    }

    /// The slice of the colour mirror (the board turned round, the colours swapped): black's
    /// pieces become white's.
    pub fn mirror(&self) -> Material {
        Material::new(
            self.black_men,
            self.black_kings,
            self.white_men,
            self.white_kings,
        )
    }

    /// The one of the slice and its mirror that is stored (and built): the lesser.
    pub fn canonical(&self) -> Material {
        (*self).min(self.mirror())
    }

    /// Its own mirror: only white to move is stored.
    pub(crate) fn is_symmetric(&self) -> bool {
        *self == self.mirror()
    }

    /// Values a canonical slice stores: both sides to move, or white's only when the slice is
    /// its own mirror (black to move is then white to move turned round).
    pub(crate) fn stored_len(&self) -> u64 {
        if self.is_symmetric() {
            self.size() / 2
        } else {
            self.size()
        }
    }

    /// From a file name's four digits (`1011`).
    pub fn parse(digits: &str) -> Option<Material> {
        let d: Vec<u8> = digits
            .chars()
            .map(|c| c.to_digit(10).map(|v| v as u8))
            .collect::<Option<_>>()?;
        match d[..] {
            [a, b, c, e] => Some(Material::new(a, b, c, e)),
            _ => None,
        }
    }

    fn men_blocks(&self) -> (u64, u64) {
        (
            binom(MAN_SQUARES, self.white_men.into()),
            binom(MAN_SQUARES, self.black_men.into()),
        )
    }

    fn king_blocks(&self) -> (u64, u64) {
        let free = 32 - self.men() as usize;
        let wk = usize::from(self.white_kings);
        (binom(free, wk), binom(free - wk, self.black_kings.into()))
    }

    /// Positions (with invalid ones) under one men configuration, both sides to move.
    pub(crate) fn block_len(&self) -> u64 {
        let (kw, kb) = self.king_blocks();
        kw * kb * 2
    }

    /// Men configurations (index / [`Material::block_len`]).
    pub(crate) fn blocks(&self) -> u64 {
        let (w, b) = self.men_blocks();
        w * b
    }

    /// Indices in the slice.
    pub fn size(&self) -> u64 {
        self.blocks() * self.block_len()
    }

    /// The men configurations by advancement level, each level's in ascending order (the order
    /// the builder solves, holds and records them in).
    pub(crate) fn levels(&self) -> Vec<Vec<u64>> {
        let mut levels: Vec<Vec<u64>> = Vec::new();
        for block in 0..self.blocks() {
            if let Some(men) = self.men_of(block) {
                let a = advancement(men) as usize;
                levels.resize(levels.len().max(a + 1), Vec::new());
                levels[a].push(block);
            }
        }
        levels
    }

    /// White and black men of a men configuration, `None` if they share a square.
    pub(crate) fn men_of(&self, block: u64) -> Option<(u32, u32)> {
        let (_, nb) = self.men_blocks();
        let white = unrank(block / nb, self.white_men.into());
        let black = unrank(block % nb, self.black_men.into()) << 4;
        (white & black == 0).then_some((white, black))
    }

    /// The position at an index of a valid men configuration, plainly (the definition
    /// [`Block::position`] is tested against).
    #[cfg(test)]
    pub(crate) fn position_in(&self, men: (u32, u32), offset: u64) -> Position {
        let (white, black) = men;
        let (_, kb) = self.king_blocks();
        let stm = (offset % 2) as usize;
        let kings = offset / 2;
        let free = !(white | black);
        let wk = expand(unrank(kings / kb, self.white_kings.into()), free);
        let bk = expand(unrank(kings % kb, self.black_kings.into()), free & !wk);
        bare(white | wk, black | bk, wk | bk, stm)
    }

    /// A position's offset within its men configuration `men` (the kings and the side to move).
    pub(crate) fn offset_in(&self, men: (u32, u32), pos: &Position) -> u64 {
        let (_, kb) = self.king_blocks();
        let free = !(men.0 | men.1);
        let wk = pos.pieces[0] & pos.kings;
        let bk = pos.pieces[1] & pos.kings;
        (rank(compress(wk, free)) * kb + rank(compress(bk, free & !wk))) * 2 + pos.stm as u64
    }

    /// The index of a position of this material.
    pub fn index(&self, pos: &Position) -> u64 {
        let (_, nb) = self.men_blocks();
        let white = pos.pieces[0] & !pos.kings;
        let black = pos.pieces[1] & !pos.kings;
        let block = rank(white) * nb + rank(black >> 4);
        block * self.block_len() + self.offset_in((white, black), pos)
    }
}

/// The colour mirror of a position: the board turned round (square s to 31 - s), white and
/// black swapped, the other side to move. Its value for its side to move is the same.
pub(crate) fn mirror(pos: &Position) -> Position {
    bare(
        pos.pieces[1].reverse_bits(),
        pos.pieces[0].reverse_bits(),
        pos.kings.reverse_bits(),
        pos.stm ^ 1,
    )
}

/// Where a position's value is stored: its canonical slice and the value's place there (the
/// position or its mirror, whichever the slice stores).
pub(crate) fn locate(pos: &Position) -> (Material, u64) {
    let m = Material::of(pos);
    let c = m.canonical();
    if m != c || (c.is_symmetric() && pos.stm == 1) {
        let i = c.index(&mirror(pos));
        (c, if c.is_symmetric() { i / 2 } else { i })
    } else {
        let i = c.index(pos);
        (c, if c.is_symmetric() { i / 2 } else { i })
    }
}

/// A slice's king placements by rank (each set numbered among the squares it may use), unranked
/// once: the builder and `verify` walk every index, and unranking each was half their time.
pub(crate) struct Kings {
    white: Vec<u32>,
    black: Vec<u32>,
}

impl Kings {
    pub(crate) fn of(m: Material) -> Kings {
        let (kw, kb) = m.king_blocks();
        Kings {
            white: (0..kw).map(|r| unrank(r, m.white_kings.into())).collect(),
            black: (0..kb).map(|r| unrank(r, m.black_kings.into())).collect(),
        }
    }
}

/// One men configuration, ready to place kings: its free squares in order.
pub(crate) struct Block<'a> {
    men: (u32, u32),
    free: [u8; 32],
    kings: &'a Kings,
}

impl<'a> Block<'a> {
    pub(crate) fn new(men: (u32, u32), kings: &'a Kings) -> Block<'a> {
        let mut free = [0u8; 32];
        for (i, s) in Bits(!(men.0 | men.1)).enumerate() {
            free[i] = s as u8;
        }
        Block { men, free, kings }
    }

    pub(crate) fn men(&self) -> (u32, u32) {
        self.men
    }

    /// The position at an offset within the men configuration (tested against the plain
    /// unranking, `Material::position_in`).
    pub(crate) fn position(&self, offset: u64) -> Position {
        let k = (offset / 2) as usize;
        let kb = self.kings.black.len();
        let white_set = self.kings.white[k / kb];
        let mut wk = 0;
        for i in Bits(white_set) {
            wk |= 1 << self.free[i];
        }
        // The black kings' items count the free squares the white kings leave.
        let mut bk = 0;
        for j in Bits(self.kings.black[k % kb]) {
            let mut at = j;
            for w in Bits(white_set) {
                if w <= at {
                    at += 1;
                }
            }
            bk |= 1 << self.free[at];
        }
        let (white, black) = self.men;
        bare(white | wk, black | bk, wk | bk, (offset % 2) as usize)
    }
}

/// How far the men of a configuration have walked: every man move adds one.
pub(crate) fn advancement(men: (u32, u32)) -> u32 {
    let white: u32 = Bits(men.0).map(|s| (s / 4) as u32).sum();
    let black: u32 = Bits(men.1).map(|s| 7 - (s / 4) as u32).sum();
    white + black
}

/// Every stored slice with 2 to `pieces` pieces, in build order: fewer pieces first, then fewer
/// men (a capture removes a piece, a promotion a man).
pub fn slices_upto(pieces: u32) -> Vec<Material> {
    let mut out = Vec::new();
    for n in 2..=pieces.min(32) as u8 {
        for wm in 0..=n {
            for wk in 0..=n - wm {
                for bm in 0..=n - wm - wk {
                    let m = Material::new(wm, wk, bm, n - wm - wk - bm);
                    if m.is_stored() && wm <= 12 && bm <= 12 {
                        out.push(m);
                    }
                }
            }
        }
    }
    out.sort_by_key(|m| (m.pieces(), m.men(), *m));
    out
}

/// Direction steps in (file, rank).
const DIRS: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

const fn neighbours() -> [[u8; 4]; 32] {
    let mut t = [[NO_SQUARE; 4]; 32];
    let mut s = 0;
    while s < 32 {
        let file = (2 * (s % 4) + (s / 4) % 2) as i32;
        let rank = (s / 4) as i32;
        let mut d = 0;
        while d < 4 {
            let f = file + DIRS[d].0;
            let r = rank + DIRS[d].1;
            if f >= 0 && f < 8 && r >= 0 && r < 8 {
                t[s][d] = (r * 4 + f / 2) as u8;
            }
            d += 1;
        }
        s += 1;
    }
    t
}

pub(crate) const NO_SQUARE: u8 = 32;
/// The diagonal neighbour of each square in each direction, or [`NO_SQUARE`].
pub(crate) static NEIGHBOUR: [[u8; 4]; 32] = neighbours();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_index_of_a_slice_round_trips() {
        for m in slices_upto(3) {
            let mut valid = 0;
            for block in 0..m.blocks() {
                let Some(men) = m.men_of(block) else { continue };
                for off in 0..m.block_len() {
                    let pos = m.position_in(men, off);
                    assert_eq!(Material::of(&pos), m);
                    assert_eq!(m.index(&pos), block * m.block_len() + off, "{m}");
                    valid += 1;
                }
            }
            assert!(valid > 0);
        }
    }

    #[test]
    fn slices_come_after_what_their_moves_lead_to() {
        let order = slices_upto(5);
        let at = |m: Material| order.iter().position(|&x| x == m);
        for (i, m) in order.iter().enumerate() {
            if m.white_men > 0 {
                let promoted = Material::new(
                    m.white_men - 1,
                    m.white_kings + 1,
                    m.black_men,
                    m.black_kings,
                );
                assert!(at(promoted).is_some_and(|j| j < i), "{m}");
            }
        }
        // C(n + 3, 3) splits of n pieces, less the 2(n + 1) where a side has none.
        assert_eq!(order.len(), 4 + 12 + 25 + 44);
    }

    #[test]
    fn a_block_places_kings_as_the_index_does() {
        for m in slices_upto(4) {
            let kings = Kings::of(m);
            for block in (0..m.blocks()).step_by(7) {
                let Some(men) = m.men_of(block) else { continue };
                let b = Block::new(men, &kings);
                for off in 0..m.block_len() {
                    assert_eq!(
                        b.position(off),
                        m.position_in(men, off),
                        "{m} {block} {off}"
                    );
                }
            }
        }
    }

    #[test]
    fn ranks_and_sets_invert() {
        for set in [0u32, 1, 0b1011, 0x8000_0001, 0x0F0F_0000] {
            let k = set.count_ones() as usize;
            assert_eq!(unrank(rank(set), k), set);
            let within = 0xFFF0_FF0F;
            if set & !within == 0 {
                assert_eq!(expand(compress(set, within), within), set);
            }
        }
    }
}
