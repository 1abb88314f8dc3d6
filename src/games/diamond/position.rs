//! The position, its Zobrist hash, the position string and the text diagram.

use super::board::{exists, has_square, Bits, VALID};
use crate::games::zobrist;
use crate::games::RuleError;

pub const BLACK: usize = 0;
pub const WHITE: usize = 1;
pub const PIECES_PER_SIDE: u8 = 12;

/// Keys: 64 per black, white and neutral point, then the side to move, then 13 hand sizes per side.
const KEYS: [u64; 64 * 3 + 1 + 26] = zobrist::keys(0xD1A4_0ED5_0000_0003);
const SIDE_KEY: u64 = KEYS[192];

#[inline]
pub fn piece_key(kind: usize, p: usize) -> u64 {
    KEYS[(kind % 3) * 64 + (p & 63)]
}

#[inline]
pub fn hand_key(side: usize, n: u8) -> u64 {
    KEYS[193 + (side & 1) * 13 + (n as usize).min(12)]
}

#[inline]
pub fn side_key() -> u64 {
    SIDE_KEY
}

/// A Diamond position. The counter is part of the position string but not of the hash
/// (repetition compares board, side to move and hands only).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Pos {
    /// Black and White pieces on the board.
    pub pieces: [u64; 2],
    pub neutral: u64,
    pub hand: [u8; 2],
    /// 0 = Black to move, 1 = White.
    pub stm: usize,
    /// Plies since the last placement, swap, capture or neutral removal.
    pub counter: u16,
    pub hash: u64,
}

impl Pos {
    pub fn start() -> Pos {
        let mut p = Pos {
            pieces: [0, 0],
            neutral: 0,
            hand: [PIECES_PER_SIDE, PIECES_PER_SIDE],
            stm: BLACK,
            counter: 0,
            hash: 0,
        };
        p.hash = p.compute_hash();
        p
    }

    #[inline]
    pub fn occupied(&self) -> u64 {
        self.pieces[0] | self.pieces[1] | self.neutral
    }

    #[inline]
    pub fn empty(&self) -> u64 {
        VALID & !self.occupied()
    }

    /// White's first turn, on which `swap` is legal.
    #[inline]
    pub fn is_swap_turn(&self) -> bool {
        self.stm == WHITE
            && self.hand == [PIECES_PER_SIDE - 1, PIECES_PER_SIDE]
            && self.pieces[WHITE] == 0
            && self.neutral == 0
            && self.pieces[BLACK].count_ones() == 1
    }

    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for (kind, bb) in [self.pieces[0], self.pieces[1], self.neutral]
            .into_iter()
            .enumerate()
        {
            for p in Bits(bb) {
                h ^= piece_key(kind, p);
            }
        }
        if self.stm == WHITE {
            h ^= SIDE_KEY;
        }
        h ^ hand_key(BLACK, self.hand[0]) ^ hand_key(WHITE, self.hand[1])
    }

    /// The side that holds a full square, the side that just moved checked first.
    pub fn square_winner(&self) -> Option<usize> {
        let mover = self.stm ^ 1;
        if has_square(self.pieces[mover]) {
            Some(mover)
        } else if has_square(self.pieces[self.stm]) {
            // Unreachable in play (the side would have won on its own move); kept so that a
            // set-up position with such a square still reads as finished.
            Some(self.stm)
        } else {
            None
        }
    }

    pub fn to_fen(&self) -> String {
        let mut out = String::new();
        for r in (0..8).rev() {
            let mut run = 0;
            for f in 0..8 {
                if !exists(f, r) {
                    continue;
                }
                let b = 1u64 << (r * 8 + f);
                let c = if self.pieces[0] & b != 0 {
                    'B'
                } else if self.pieces[1] & b != 0 {
                    'W'
                } else if self.neutral & b != 0 {
                    'N'
                } else {
                    run += 1;
                    continue;
                };
                if run > 0 {
                    out.push_str(&run.to_string());
                    run = 0;
                }
                out.push(c);
            }
            if run > 0 {
                out.push_str(&run.to_string());
            }
            if r > 0 {
                out.push('/');
            }
        }
        format!(
            "{} {} {} {} {}",
            out,
            if self.stm == BLACK { 'b' } else { 'w' },
            self.hand[0],
            self.hand[1],
            self.counter
        )
    }

    pub fn from_fen(text: &str) -> Result<Pos, RuleError> {
        let bad = |why: String| RuleError::InvalidPosition(format!("'{}': {why}", text.trim()));
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 4 && fields.len() != 5 {
            return Err(bad(format!(
                "expected '<ranks> <side> <black hand> <white hand> <counter>', got {} fields",
                fields.len()
            )));
        }
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 8 {
            return Err(bad(format!("expected 8 ranks, got {}", ranks.len())));
        }
        let mut pos = Pos {
            pieces: [0, 0],
            neutral: 0,
            hand: [0, 0],
            stm: BLACK,
            counter: 0,
            hash: 0,
        };
        for (i, rank_text) in ranks.iter().enumerate() {
            let r = 7 - i as i32;
            let points: Vec<i32> = (0..8).filter(|&f| exists(f, r)).collect();
            let mut k = 0usize;
            for c in rank_text.chars() {
                if let Some(d) = c.to_digit(10) {
                    if d == 0 {
                        return Err(bad(format!("rank {}: '0' is not a run length", r + 1)));
                    }
                    k += d as usize;
                    continue;
                }
                let Some(&f) = points.get(k) else {
                    return Err(bad(format!("rank {} has too many points", r + 1)));
                };
                let b = 1u64 << (r * 8 + f);
                match c.to_ascii_uppercase() {
                    'B' => pos.pieces[0] |= b,
                    'W' => pos.pieces[1] |= b,
                    'N' => pos.neutral |= b,
                    _ => return Err(bad(format!("unknown character '{c}' in rank {}", r + 1))),
                }
                k += 1;
            }
            if k != points.len() {
                return Err(bad(format!(
                    "rank {} must describe {} points, got {}",
                    r + 1,
                    points.len(),
                    k
                )));
            }
        }
        pos.stm = match fields[1].to_ascii_lowercase().as_str() {
            "b" | "black" => BLACK,
            "w" | "white" => WHITE,
            s => return Err(bad(format!("side to move must be 'b' or 'w', got '{s}'"))),
        };
        for (side, field) in fields[2..4].iter().enumerate() {
            match field.parse::<u8>() {
                Ok(n) if n <= PIECES_PER_SIDE => pos.hand[side] = n,
                _ => return Err(bad(format!("hand '{field}' must be 0 to 12"))),
            }
        }
        if let Some(c) = fields.get(4) {
            pos.counter = c
                .parse::<u16>()
                .map_err(|_| bad(format!("counter '{c}' must be a number of plies")))?;
        }
        let mut captured = 0;
        for (name, bb, hand) in [
            ("black", pos.pieces[0], pos.hand[0]),
            ("white", pos.pieces[1], pos.hand[1]),
        ] {
            let total = bb.count_ones() + hand as u32;
            if total > PIECES_PER_SIDE as u32 {
                return Err(bad(format!(
                    "{name} has {total} pieces on the board and in hand, at most 12"
                )));
            }
            captured += PIECES_PER_SIDE as u32 - total;
        }
        if pos.neutral.count_ones() > captured {
            return Err(bad(format!(
                "{} neutral pieces but only {captured} captured",
                pos.neutral.count_ones()
            )));
        }
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    /// Points joined by lines: `-` and `|` for grid lines, `/` and `\` for diagonals.
    pub fn render(&self) -> String {
        let mut lines = Vec::new();
        for r in (0..8).rev() {
            let mut s = format!("{} ", r + 1);
            for f in 0..8 {
                let b = 1u64 << (r * 8 + f);
                s.push(if !exists(f, r) {
                    ' '
                } else if self.pieces[0] & b != 0 {
                    'B'
                } else if self.pieces[1] & b != 0 {
                    'W'
                } else if self.neutral & b != 0 {
                    'N'
                } else {
                    '.'
                });
                if f < 7 {
                    s.push(if exists(f, r) && exists(f + 1, r) {
                        '-'
                    } else {
                        ' '
                    });
                }
            }
            lines.push(s.trim_end().to_string());
            if r > 0 {
                let below = r - 1;
                let mut s = String::from("  ");
                for f in 0..8 {
                    s.push(if exists(f, below) && exists(f, r) {
                        '|'
                    } else {
                        ' '
                    });
                    if f < 7 {
                        s.push(if (f + below) % 2 != 0 {
                            ' '
                        } else if f % 2 == 0 {
                            '/'
                        } else {
                            '\\'
                        });
                    }
                }
                lines.push(s.trim_end().to_string());
            }
        }
        lines.push("  a b c d e f g h".to_string());
        lines.push(format!(
            "{} to move; in hand: black {}, white {}; counter {}",
            if self.stm == BLACK { "black" } else { "white" },
            self.hand[0],
            self.hand[1],
            self.counter
        ));
        lines.push(
            "legend: B black, W white, N neutral, . empty; - | / \\ lines (cells without a diagonal are the squares)"
                .to_string(),
        );
        lines.join("\n")
    }
}
