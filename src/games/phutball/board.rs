//! Geometry of the 15×21 board: point indices, a 320-bit set, and precomputed neighbour steps.
//!
//! Point index = `row * 15 + col`, row 0 at the bottom (behind Red's goal), col 0 = `a`.

pub const COLS: usize = 15;
pub const ROWS: usize = 21;
/// Number of points.
pub const N: usize = COLS * ROWS;
/// "No point" in the step tables (off the board).
pub const NONE: u16 = u16::MAX;

/// A set of points (315 used bits out of 320).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
pub struct Bits(pub [u64; 5]);

impl Bits {
    pub const EMPTY: Bits = Bits([0; 5]);

    #[inline]
    pub fn get(&self, i: usize) -> bool {
        (self.0[i >> 6] >> (i & 63)) & 1 != 0
    }
    #[inline]
    pub fn set(&mut self, i: usize) {
        self.0[i >> 6] |= 1u64 << (i & 63);
    }
    #[inline]
    pub fn clear(&mut self, i: usize) {
        self.0[i >> 6] &= !(1u64 << (i & 63));
    }
    #[inline]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    #[inline]
    pub fn and(&self, o: &Bits) -> Bits {
        let mut r = *self;
        for (a, b) in r.0.iter_mut().zip(o.0.iter()) {
            *a &= b;
        }
        r
    }
    #[inline]
    pub fn or(&self, o: &Bits) -> Bits {
        let mut r = *self;
        for (a, b) in r.0.iter_mut().zip(o.0.iter()) {
            *a |= b;
        }
        r
    }
    #[inline]
    pub fn andnot(&self, o: &Bits) -> Bits {
        let mut r = *self;
        for (a, b) in r.0.iter_mut().zip(o.0.iter()) {
            *a &= !b;
        }
        r
    }
    #[inline]
    pub fn intersects(&self, o: &Bits) -> bool {
        self.0.iter().zip(o.0.iter()).any(|(a, b)| a & b != 0)
    }
    #[inline]
    pub fn is_subset(&self, o: &Bits) -> bool {
        self.0.iter().zip(o.0.iter()).all(|(a, b)| a & !b == 0)
    }
    /// The `k`-th set point in index order (0-based), if any.
    pub fn nth(&self, mut k: u32) -> Option<usize> {
        for (wi, &w) in self.0.iter().enumerate() {
            let c = w.count_ones();
            if k < c {
                let mut w = w;
                for _ in 0..k {
                    w &= w - 1;
                }
                return Some(wi * 64 + w.trailing_zeros() as usize);
            }
            k -= c;
        }
        None
    }
    /// The highest set point, if any.
    #[inline]
    pub fn last(&self) -> Option<usize> {
        (0..5)
            .rev()
            .find(|&i| self.0[i] != 0)
            .map(|i| i * 64 + 63 - self.0[i].leading_zeros() as usize)
    }
    pub fn iter(&self) -> BitIter {
        BitIter {
            words: self.0,
            wi: 0,
        }
    }
}

pub struct BitIter {
    words: [u64; 5],
    wi: usize,
}

impl Iterator for BitIter {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.wi < 5 {
            let w = self.words[self.wi];
            if w != 0 {
                self.words[self.wi] = w & (w - 1);
                return Some(self.wi * 64 + w.trailing_zeros() as usize);
            }
            self.wi += 1;
        }
        None
    }
}

#[inline]
pub const fn row(p: usize) -> usize {
    p / COLS
}
#[inline]
pub const fn col(p: usize) -> usize {
    p % COLS
}
#[inline]
pub const fn point(col: usize, row: usize) -> usize {
    row * COLS + col
}

/// The 8 directions as (dcol, drow).
pub const DIRS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

const fn build_steps() -> [[u16; N]; 8] {
    let mut t = [[NONE; N]; 8];
    let mut d = 0;
    while d < 8 {
        let (dc, dr) = DIRS[d];
        let mut p = 0;
        while p < N {
            let c = (p % COLS) as i32 + dc;
            let r = (p / COLS) as i32 + dr;
            if c >= 0 && c < COLS as i32 && r >= 0 && r < ROWS as i32 {
                t[d][p] = (r as usize * COLS + c as usize) as u16;
            }
            p += 1;
        }
        d += 1;
    }
    t
}

/// `STEP[d][p]`: the neighbour of `p` in direction `d`, or [`NONE`] off the board.
pub static STEP: [[u16; N]; 8] = build_steps();

const fn rows_mask(lo: usize, hi: usize) -> Bits {
    let mut b = [0u64; 5];
    let mut p = lo * COLS;
    while p < (hi + 1) * COLS {
        b[p >> 6] |= 1u64 << (p & 63);
        p += 1;
    }
    Bits(b)
}

/// Points where men may stand (rows 1–19).
pub const PLACEABLE: Bits = rows_mask(1, 19);
/// Where the ball ending a move makes Red win (rows 19–20) …
pub const RED_SCORES: Bits = rows_mask(19, 20);
/// … and Blue win (rows 0–1).
pub const BLUE_SCORES: Bits = rows_mask(0, 1);
/// The only rows a man must occupy for a jump to land in Red's scoring rows (the last man jumped
/// is next to the landing point).
pub const RED_LAST_MEN: Bits = rows_mask(18, 19);
pub const BLUE_LAST_MEN: Bits = rows_mask(1, 2);

/// Rank of each row's decimal string in byte order ("0" < "1" < "10" < … < "19" < "2" < "20" < "3").
const fn row_lex_rank() -> [u8; ROWS] {
    let mut rank = [0u8; ROWS];
    let mut r = 0;
    while r < ROWS {
        let mut n = 0;
        let mut o = 0;
        while o < ROWS {
            if row_str_less(o, r) {
                n += 1;
            }
            o += 1;
        }
        rank[r] = n;
        r += 1;
    }
    rank
}

const fn row_str_less(a: usize, b: usize) -> bool {
    let (a0, a1) = digits(a);
    let (b0, b1) = digits(b);
    if a0 != b0 {
        return a0 < b0;
    }
    // An absent second digit sorts first; in a path it is followed by '-' or nothing, both
    // below any digit.
    a1 < b1
}

const fn digits(n: usize) -> (i32, i32) {
    if n < 10 {
        (n as i32, -1)
    } else {
        ((n / 10) as i32, (n % 10) as i32)
    }
}

const ROW_LEX: [u8; ROWS] = row_lex_rank();

/// Byte order of point names: comparing ranks compares the names as strings, and, because a
/// name is always followed by `-` or the end, comparing paths point by point compares them as
/// strings too.
#[inline]
pub fn name_rank(p: usize) -> u16 {
    (col(p) * ROWS) as u16 + ROW_LEX[row(p)] as u16
}

const fn col_mask(c: usize) -> Bits {
    let mut b = [0u64; 5];
    let mut p = c;
    while p < N {
        b[p >> 6] |= 1u64 << (p & 63);
        p += COLS;
    }
    Bits(b)
}

const NOT_COL_A: Bits = {
    let a = col_mask(0);
    let mut b = [0u64; 5];
    let mut i = 0;
    while i < 5 {
        b[i] = !a.0[i];
        i += 1;
    }
    Bits(b)
};
const NOT_COL_O: Bits = {
    let o = col_mask(COLS - 1);
    let mut b = [0u64; 5];
    let mut i = 0;
    while i < 5 {
        b[i] = !o.0[i];
        i += 1;
    }
    Bits(b)
};
/// The 315 board bits.
const BOARD: Bits = Bits([!0, !0, !0, !0, (1u64 << (N - 256)) - 1]);

/// Every point of `b` moved one step in direction `d` (points leaving the board vanish).
#[inline]
pub fn shift(b: &Bits, d: usize) -> Bits {
    match d {
        0 => shift_to::<0>(b),
        1 => shift_to::<1>(b),
        2 => shift_to::<2>(b),
        3 => shift_to::<3>(b),
        4 => shift_to::<4>(b),
        5 => shift_to::<5>(b),
        6 => shift_to::<6>(b),
        _ => shift_to::<7>(b),
    }
}

/// [`shift`] for a direction known at compile time (the word offsets become constants).
#[inline(always)]
pub fn shift_to<const D: usize>(b: &Bits) -> Bits {
    let (dc, dr) = DIRS[D];
    let off = dr * COLS as i32 + dc;
    let w = &b.0;
    let mut r = [0u64; 5];
    if off > 0 {
        let (q, s) = ((off / 64) as usize, (off % 64) as u32);
        for i in (q..5).rev() {
            let lo = w[i - q] << s;
            let carry = if s > 0 && i > q {
                w[i - q - 1] >> (64 - s)
            } else {
                0
            };
            r[i] = lo | carry;
        }
    } else {
        let off = -off;
        let (q, s) = ((off / 64) as usize, (off % 64) as u32);
        for i in 0..5 - q {
            let hi = w[i + q] >> s;
            let carry = if s > 0 && i + q + 1 < 5 {
                w[i + q + 1] << (64 - s)
            } else {
                0
            };
            r[i] = hi | carry;
        }
    }
    let mut out = Bits(r).and(&BOARD);
    if dc > 0 {
        out = out.and(&NOT_COL_A);
    } else if dc < 0 {
        out = out.and(&NOT_COL_O);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_and_steps() {
        assert_eq!(PLACEABLE.count(), 15 * 19);
        assert_eq!(RED_SCORES.count(), 30);
        assert_eq!(STEP[0][point(7, 20)], NONE);
        assert_eq!(STEP[2][point(14, 5)], NONE);
        assert_eq!(STEP[1][point(3, 3)] as usize, point(4, 4));
        let mut b = Bits::EMPTY;
        b.set(314);
        b.set(64);
        b.set(3);
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![3, 64, 314]);
        assert_eq!(b.nth(2), Some(314));
        assert_eq!(b.nth(3), None);
    }

    #[test]
    fn name_rank_is_string_order() {
        let name = |p: usize| format!("{}{}", (b'a' + col(p) as u8) as char, row(p));
        for a in 0..N {
            for b in 0..N {
                let by_rank = name_rank(a).cmp(&name_rank(b));
                assert_eq!(by_rank, name(a).cmp(&name(b)), "{} {}", name(a), name(b));
            }
        }
    }
}
