//! The 62-point board and its fixed tables, built at compile time from the rule file's formulas.
//!
//! A point (file f, rank r, both from 0) is bit `8 * r + f` of a `u64`; the two missing corners
//! (a8 = bit 56, h1 = bit 7) are never set, so one `u64` holds any set of points.

/// Every point that exists: the 8×8 grid without a8 and h1.
pub const VALID: u64 = !((1u64 << 56) | (1u64 << 7));

pub const fn exists(f: i32, r: i32) -> bool {
    f >= 0 && f < 8 && r >= 0 && r < 8 && !(f == 0 && r == 7) && !(f == 7 && r == 0)
}

const fn bit(f: i32, r: i32) -> u64 {
    1u64 << (r * 8 + f)
}

/// A grid cell (lower-left corner f, r) has a diagonal exactly when f and r have the same parity.
const fn has_diagonal(f: i32, r: i32) -> bool {
    (f + r) % 2 == 0
}

/// The end points of the diagonal in cell (f, r): `/` when both are even, `\` when both are odd.
const fn diagonal(f: i32, r: i32) -> ((i32, i32), (i32, i32)) {
    if f % 2 == 0 {
        ((f, r), (f + 1, r + 1))
    } else {
        ((f, r + 1), (f + 1, r))
    }
}

pub struct Tables {
    /// Points joined to each point by a line.
    pub adj: [u64; 64],
    /// The four corners of each square.
    pub squares: [u64; 24],
    /// The three points of each triangle.
    pub triangles: [[u8; 3]; 48],
    /// For each point, the squares it is a corner of (`squares_of_len` entries are used).
    pub squares_of: [[u64; 2]; 64],
    pub squares_of_len: [u8; 64],
    /// For each point p, the other two points of every triangle holding p (`tri_len` used).
    pub tri_pairs: [[(u8, u8); 4]; 64],
    pub tri_len: [u8; 64],
    /// For each point, the union of the other points of its triangles.
    pub tri_mates: [u64; 64],
    /// Lower-left corners of the squares: a full square has bits s, s+1, s+8, s+9 set.
    pub square_ll: u64,
}

const fn build() -> Tables {
    let mut t = Tables {
        adj: [0; 64],
        squares: [0; 24],
        triangles: [[0; 3]; 48],
        squares_of: [[0; 2]; 64],
        squares_of_len: [0; 64],
        tri_pairs: [[(0, 0); 4]; 64],
        tri_len: [0; 64],
        tri_mates: [0; 64],
        square_ll: 0,
    };
    // Orthogonal lines.
    let mut r = 0;
    while r < 8 {
        let mut f = 0;
        while f < 8 {
            if exists(f, r) {
                let me = (r * 8 + f) as usize;
                if exists(f + 1, r) {
                    t.adj[me] |= bit(f + 1, r);
                    t.adj[me + 1] |= bit(f, r);
                }
                if exists(f, r + 1) {
                    t.adj[me] |= bit(f, r + 1);
                    t.adj[me + 8] |= bit(f, r);
                }
            }
            f += 1;
        }
        r += 1;
    }
    // Cells: diagonals and triangles, or squares.
    let mut nsq = 0;
    let mut ntri = 0;
    let mut r = 0;
    while r < 7 {
        let mut f = 0;
        while f < 7 {
            if has_diagonal(f, r) {
                let ((af, ar), (bf, br)) = diagonal(f, r);
                if exists(af, ar) && exists(bf, br) {
                    t.adj[(ar * 8 + af) as usize] |= bit(bf, br);
                    t.adj[(br * 8 + bf) as usize] |= bit(af, ar);
                }
                // The two corners off the diagonal each close one triangle.
                let corners = [(f, r), (f + 1, r), (f, r + 1), (f + 1, r + 1)];
                let mut k = 0;
                while k < 4 {
                    let (cf, cr) = corners[k];
                    let on_diag = (cf == af && cr == ar) || (cf == bf && cr == br);
                    if !on_diag && exists(cf, cr) && exists(af, ar) && exists(bf, br) {
                        t.triangles[ntri] = [
                            (ar * 8 + af) as u8,
                            (br * 8 + bf) as u8,
                            (cr * 8 + cf) as u8,
                        ];
                        ntri += 1;
                    }
                    k += 1;
                }
            } else if exists(f, r) && exists(f + 1, r) && exists(f, r + 1) && exists(f + 1, r + 1) {
                t.squares[nsq] = bit(f, r) | bit(f + 1, r) | bit(f, r + 1) | bit(f + 1, r + 1);
                t.square_ll |= bit(f, r);
                nsq += 1;
            }
            f += 1;
        }
        r += 1;
    }
    // Per-point views of squares and triangles.
    let mut i = 0;
    while i < nsq {
        let mut p = 0;
        while p < 64 {
            if t.squares[i] & (1u64 << p) != 0 {
                let n = t.squares_of_len[p] as usize;
                t.squares_of[p][n] = t.squares[i];
                t.squares_of_len[p] += 1;
            }
            p += 1;
        }
        i += 1;
    }
    let mut i = 0;
    while i < ntri {
        let tri = t.triangles[i];
        let mut k = 0;
        while k < 3 {
            let p = tri[k] as usize;
            let x = tri[(k + 1) % 3];
            let y = tri[(k + 2) % 3];
            let n = t.tri_len[p] as usize;
            t.tri_pairs[p][n] = (x, y);
            t.tri_len[p] += 1;
            t.tri_mates[p] |= (1u64 << x) | (1u64 << y);
            k += 1;
        }
        i += 1;
    }
    t
}

pub static TABLES: Tables = build();

/// A point that never exists (h1): pads neighbour lists so that loops need no data-dependent
/// branch (no set of points ever contains it).
pub const NO_POINT: u8 = 7;

const fn build_neighbours() -> [[u8; 5]; 64] {
    let t = build();
    let mut out = [[NO_POINT; 5]; 64];
    let mut p = 0;
    while p < 64 {
        let mut m = t.adj[p];
        let mut k = 0;
        while m != 0 && k < 5 {
            out[p][k] = m.trailing_zeros() as u8;
            m &= m - 1;
            k += 1;
        }
        p += 1;
    }
    out
}

/// Each point's neighbours (at most five: four grid lines and one diagonal), padded.
pub static NEIGHBOURS: [[u8; 5]; 64] = build_neighbours();

#[inline]
pub fn adj(p: usize) -> u64 {
    TABLES.adj[p & 63]
}

/// True when `bb` holds all four corners of some square.
#[inline]
pub fn has_square(bb: u64) -> bool {
    bb & (bb >> 1) & (bb >> 8) & (bb >> 9) & TABLES.square_ll != 0
}

/// True when `bb` holds all four corners of a square that has `p` as a corner.
#[inline]
pub fn square_through(bb: u64, p: usize) -> bool {
    let p = p & 63;
    let n = TABLES.squares_of_len[p] as usize;
    TABLES.squares_of[p].iter().take(n).any(|&q| bb & q == q)
}

/// The enemy pieces a step onto `to` corners (see the rules: a triangle whose other two points
/// hold one of `own` and one of `enemy`). `own` is the mover's set after the step.
#[inline]
pub fn cornered(own: u64, enemy: u64, to: usize) -> u64 {
    let to = to & 63;
    let mut out = 0u64;
    let n = TABLES.tri_len[to] as usize;
    for &(x, y) in TABLES.tri_pairs[to].iter().take(n) {
        let bx = 1u64 << x;
        let by = 1u64 << y;
        if own & bx != 0 && enemy & by != 0 {
            out |= by;
        } else if own & by != 0 && enemy & bx != 0 {
            out |= bx;
        }
    }
    out
}

/// The single enemy piece a step onto `to` captures, if it corners exactly one.
#[inline]
pub fn capture_of(own: u64, enemy: u64, to: usize) -> Option<usize> {
    // Cheap reject: no enemy among the triangle mates means nothing can be cornered.
    if TABLES.tri_mates[to & 63] & enemy == 0 {
        return None;
    }
    let c = cornered(own, enemy, to);
    // Exactly one bit (no popcount: the target CPU may lack the instruction).
    if c != 0 && c & (c - 1) == 0 {
        Some(c.trailing_zeros() as usize)
    } else {
        None
    }
}

pub fn point_name(p: usize) -> String {
    let f = (p % 8) as u8;
    let r = (p / 8 % 8) as u8;
    format!("{}{}", char::from(b'a' + f), char::from(b'1' + r))
}

/// Parses `a1`…`h8` (case-insensitive) to an existing point.
pub fn parse_point(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let f = b[0].to_ascii_lowercase().wrapping_sub(b'a');
    let r = b[1].wrapping_sub(b'1');
    if f < 8 && r < 8 && exists(f as i32, r as i32) {
        Some(r as usize * 8 + f as usize)
    } else {
        None
    }
}

/// Iterates the set bits of a mask as point indices.
#[derive(Clone, Copy)]
pub struct Bits(pub u64);

impl Iterator for Bits {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            None
        } else {
            let p = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            Some(p)
        }
    }
}

/// Membership test on a point set that never panics, whatever the index.
pub trait PointSet {
    fn has(self, p: usize) -> bool;
}

impl PointSet for u64 {
    #[inline]
    fn has(self, p: usize) -> bool {
        p < 64 && (self >> p) & 1 != 0
    }
}
