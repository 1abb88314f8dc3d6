//! Geometry: points, directions, rotations of the line pattern, and the per-rotation tables
//! (neighbours, line rays); the pods' leg masks are in `tables.rs`.
//!
//! Point index `y * 6 + x` with a1 = 0, f6 = 35, so a point set is a `u64` bitboard.

pub const SIZE: i32 = 6;
pub const POINTS: usize = 36;

/// Direction order used everywhere (data file, masks): N NE E SE S SW W NW.
pub const DIR_NAMES: [&str; 8] = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];
pub const DIR_VEC: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];
/// Directions whose step raises the point index, so the nearest point of a ray is its lowest bit.
pub const ASCENDING: u8 = 0b1000_0111;

pub fn xy(p: usize) -> (i32, i32) {
    ((p % 6) as i32, (p / 6) as i32)
}

pub fn at(x: i32, y: i32) -> Option<usize> {
    if (0..SIZE).contains(&x) && (0..SIZE).contains(&y) {
        Some((y * SIZE + x) as usize)
    } else {
        None
    }
}

pub fn point_name(p: usize) -> String {
    let (x, y) = xy(p);
    format!("{}{}", char::from(b'a' + x as u8), y + 1)
}

/// `c3` → index; either case for the file letter.
pub fn parse_point(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let x = i32::from(b[0].to_ascii_lowercase()) - i32::from(b'a');
    let y = i32::from(b[1]) - i32::from(b'1');
    at(x, y)
}

/// `Some(diagonal?)` when the points are neighbours, `None` otherwise.
pub fn adjacency(p: usize, q: usize) -> Option<bool> {
    let (px, py) = xy(p);
    let (qx, qy) = xy(q);
    let (dx, dy) = ((px - qx).abs(), (py - qy).abs());
    match (dx, dy) {
        (0, 1) | (1, 0) => Some(false),
        (1, 1) => Some(true),
        _ => None,
    }
}

/// The line pattern turned counter-clockwise by `quarter` × 90°: (x, y) → (5 − y, x) per turn.
pub fn rotate_point(p: usize, quarter: u8) -> usize {
    let (mut x, mut y) = xy(p);
    for _ in 0..quarter % 4 {
        (x, y) = (SIZE - 1 - y, x);
    }
    (y * SIZE + x) as usize
}

/// Lines of one rotation of the pattern.
#[derive(Clone, Debug)]
pub struct Geometry {
    /// Directions from each point along which a line leads to a neighbour.
    pub conn: [u8; POINTS],
    /// The neighbour in each direction (meaningful only where `conn` has the bit).
    pub nbr: [[u8; 8]; POINTS],
    /// Points reachable by walking along lines in each direction, ignoring pods.
    pub ray: [[u64; 8]; POINTS],
}

impl Geometry {
    pub fn new(missing: &[(usize, usize)], quarter: u8) -> Geometry {
        let rotated: Vec<(usize, usize)> = missing
            .iter()
            .map(|&(p, q)| {
                let (a, b) = (rotate_point(p, quarter), rotate_point(q, quarter));
                (a.min(b), a.max(b))
            })
            .collect();
        let mut g = Geometry {
            conn: [0; POINTS],
            nbr: [[0; 8]; POINTS],
            ray: [[0; 8]; POINTS],
        };
        for p in 0..POINTS {
            let (x, y) = xy(p);
            for (d, &(dx, dy)) in DIR_VEC.iter().enumerate() {
                if let Some(q) = at(x + dx, y + dy) {
                    if !rotated.contains(&(p.min(q), p.max(q))) {
                        g.conn[p] |= 1 << d;
                        g.nbr[p][d] = q as u8;
                    }
                }
            }
        }
        for p in 0..POINTS {
            for d in 0..8 {
                let mut ray = 0u64;
                let mut cur = p;
                while g.conn[cur] & (1 << d) != 0 {
                    cur = usize::from(g.nbr[cur][d]);
                    ray |= 1 << cur;
                }
                g.ray[p][d] = ray;
            }
        }
        g
    }

    /// Points a long leg from `p` towards `d` reaches: along the line up to and including the
    /// first occupied point.
    #[inline]
    pub fn long_reach(&self, p: usize, d: usize, occ: u64) -> u64 {
        let ray = self.ray[p][d];
        let blockers = ray & occ;
        if blockers == 0 {
            ray
        } else if ASCENDING & (1 << d) != 0 {
            let first = blockers & blockers.wrapping_neg();
            ray & (first | (first - 1))
        } else {
            let first = 1u64 << (63 - blockers.leading_zeros());
            ray & !(first - 1)
        }
    }

    /// The first occupied point along the line from `p` towards `d`, if any.
    #[inline]
    pub fn first_hit(&self, p: usize, d: usize, occ: u64) -> u64 {
        let blockers = self.ray[p][d] & occ;
        if blockers == 0 {
            0
        } else if ASCENDING & (1 << d) != 0 {
            blockers & blockers.wrapping_neg()
        } else {
            1u64 << (63 - blockers.leading_zeros())
        }
    }

    /// Directions from `p` whose neighbour exists, is joined by a line and is empty.
    #[inline]
    pub fn free_dirs(&self, p: usize, occ: u64) -> u8 {
        let mut free = 0u8;
        let mut c = self.conn[p];
        while c != 0 {
            let d = c.trailing_zeros() as usize;
            c &= c - 1;
            if occ & (1u64 << self.nbr[p][d]) == 0 {
                free |= 1 << d;
            }
        }
        free
    }
}
