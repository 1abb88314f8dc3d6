//! The position value, its Zobrist keys, and the position string.

use super::board::{point_name, Geometry, POINTS};
use super::data::POD_COUNT;
use crate::games::zobrist;
use crate::games::RuleError;

pub const WHITE: usize = 0;
pub const BLACK: usize = 1;
pub const FULL_HAND: u16 = (1 << POD_COUNT) - 1;

/// A Pods position. Copy-made; the hash is kept up to date by every change.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Pos {
    /// 0 = empty, otherwise `1 + colour * 14 + letter`.
    pub cell: [u8; POINTS],
    pub occ: [u64; 2],
    /// Bit `letter` set = that pod is in hand.
    pub hand: [u16; 2],
    /// 0 = White, 1 = Black.
    pub side: u8,
    /// Quarter turns of the line pattern (0..4).
    pub rot: u8,
    pub hash: u64,
}

const PIECE_KEYS: usize = 2 * POD_COUNT * POINTS;
const HAND_BASE: usize = PIECE_KEYS;
const SIDE_KEY: usize = HAND_BASE + 2 * POD_COUNT;
const ROT_BASE: usize = SIDE_KEY + 1;
const KEY_COUNT: usize = ROT_BASE + 4;
static KEYS: [u64; KEY_COUNT] = zobrist::keys(0x0005_eed0_f9d5);

#[inline]
pub fn piece_key(colour: usize, letter: usize, p: usize) -> u64 {
    KEYS[(colour * POD_COUNT + letter) * POINTS + p]
}
#[inline]
pub fn hand_key(colour: usize, letter: usize) -> u64 {
    KEYS[HAND_BASE + colour * POD_COUNT + letter]
}
#[inline]
pub fn side_key() -> u64 {
    KEYS[SIDE_KEY]
}
#[inline]
pub fn rot_key(rot: u8) -> u64 {
    KEYS[ROT_BASE + usize::from(rot % 4)]
}

impl Pos {
    pub fn start(rot: u8) -> Pos {
        let mut pos = Pos {
            cell: [0; POINTS],
            occ: [0; 2],
            hand: [FULL_HAND; 2],
            side: 0,
            rot: rot % 4,
            hash: 0,
        };
        pos.hash = pos.compute_hash();
        pos
    }

    pub fn compute_hash(&self) -> u64 {
        let mut h = rot_key(self.rot);
        if self.side == 1 {
            h ^= side_key();
        }
        for colour in 0..2 {
            for letter in 0..POD_COUNT {
                if self.hand[colour] & (1 << letter) != 0 {
                    h ^= hand_key(colour, letter);
                }
            }
        }
        for (p, &c) in self.cell.iter().enumerate() {
            if let Some((colour, letter)) = decode(c) {
                h ^= piece_key(colour, letter, p);
            }
        }
        h
    }

    #[inline]
    pub fn all(&self) -> u64 {
        self.occ[0] | self.occ[1]
    }

    #[inline]
    pub fn pod_at(&self, p: usize) -> Option<(usize, usize)> {
        self.cell.get(p).and_then(|&c| decode(c))
    }

    pub fn put(&mut self, colour: usize, letter: usize, p: usize) {
        self.cell[p] = encode(colour, letter);
        self.occ[colour] |= 1 << p;
        self.hash ^= piece_key(colour, letter, p);
    }

    pub fn lift(&mut self, colour: usize, letter: usize, p: usize) {
        self.cell[p] = 0;
        self.occ[colour] &= !(1 << p);
        self.hash ^= piece_key(colour, letter, p);
    }

    pub fn hand_take(&mut self, colour: usize, letter: usize) {
        self.hand[colour] &= !(1 << letter);
        self.hash ^= hand_key(colour, letter);
    }

    pub fn hand_give(&mut self, colour: usize, letter: usize) {
        self.hand[colour] |= 1 << letter;
        self.hash ^= hand_key(colour, letter);
    }

    pub fn flip_side(&mut self) {
        self.side ^= 1;
        self.hash ^= side_key();
    }

    /// Letters of `colour` on the board, as a hand-style mask.
    pub fn on_board(&self, colour: usize) -> u16 {
        let mut m = 0u16;
        let mut bits = self.occ[colour];
        while bits != 0 {
            let p = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if let Some((_, letter)) = self.pod_at(p) {
                m |= 1 << letter;
            }
        }
        m
    }

    /// White to move on an empty board with both hands full: only a bipod may be placed.
    pub fn first_move(&self) -> bool {
        self.side == 0 && self.all() == 0 && self.hand == [FULL_HAND; 2]
    }
}

#[inline]
pub fn encode(colour: usize, letter: usize) -> u8 {
    (1 + colour * POD_COUNT + letter) as u8
}

#[inline]
pub fn decode(c: u8) -> Option<(usize, usize)> {
    match c {
        0 => None,
        _ => {
            let i = usize::from(c - 1);
            Some((i / POD_COUNT, i % POD_COUNT))
        }
    }
}

pub fn pod_char(colour: usize, letter: usize) -> char {
    let c = char::from(b'A' + letter as u8);
    if colour == WHITE {
        c
    } else {
        c.to_ascii_lowercase()
    }
}

fn hand_string(hand: u16, colour: usize) -> String {
    if hand == 0 {
        return String::from("-");
    }
    (0..POD_COUNT)
        .filter(|l| hand & (1 << l) != 0)
        .map(|l| pod_char(colour, l))
        .collect()
}

pub fn format(pos: &Pos) -> String {
    let mut rows = Vec::with_capacity(6);
    for y in (0..6).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for x in 0..6 {
            match pos.pod_at(y * 6 + x) {
                None => empty += 1,
                Some((colour, letter)) => {
                    if empty > 0 {
                        row.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    row.push(pod_char(colour, letter));
                }
            }
        }
        if empty > 0 {
            row.push(char::from(b'0' + empty));
        }
        rows.push(row);
    }
    format!(
        "{} {} {} {} {}",
        rows.join("/"),
        if pos.side == 0 { 'w' } else { 'b' },
        hand_string(pos.hand[0], WHITE),
        hand_string(pos.hand[1], BLACK),
        u32::from(pos.rot) * 90
    )
}

fn invalid(why: impl Into<String>) -> RuleError {
    RuleError::InvalidPosition(why.into())
}

pub fn parse(text: &str) -> Result<Pos, RuleError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() != 5 {
        return Err(invalid(format!(
            "expected 5 fields (rows side white-hand black-hand rotation), found {}",
            fields.len()
        )));
    }
    let mut pos = Pos::start(0);
    pos.hand = [0, 0];
    let mut seen = [0u16; 2];
    let rows: Vec<&str> = fields[0].split('/').collect();
    if rows.len() != 6 {
        return Err(invalid(format!("expected 6 rows, found {}", rows.len())));
    }
    for (i, row) in rows.iter().enumerate() {
        let y = 5 - i;
        let mut x = 0usize;
        for c in row.chars() {
            match c {
                '1'..='6' => x += usize::from(c as u8 - b'0'),
                'A'..='N' | 'a'..='n' => {
                    let colour = if c.is_ascii_uppercase() { WHITE } else { BLACK };
                    let letter = usize::from(c.to_ascii_uppercase() as u8 - b'A');
                    if x >= 6 {
                        return Err(invalid(format!("row {} is longer than 6 points", y + 1)));
                    }
                    if seen[colour] & (1 << letter) != 0 {
                        return Err(invalid(format!("pod '{c}' appears twice")));
                    }
                    seen[colour] |= 1 << letter;
                    pos.cell[y * 6 + x] = encode(colour, letter);
                    pos.occ[colour] |= 1 << (y * 6 + x);
                    x += 1;
                }
                _ => return Err(invalid(format!("unexpected '{c}' in row {}", y + 1))),
            }
            if x > 6 {
                return Err(invalid(format!("row {} is longer than 6 points", y + 1)));
            }
        }
        if x != 6 {
            return Err(invalid(format!("row {} has {x} points, not 6", y + 1)));
        }
    }
    pos.side = match fields[1] {
        "w" | "W" | "white" => 0,
        "b" | "B" | "black" => 1,
        other => return Err(invalid(format!("side '{other}' is not w or b"))),
    };
    for (colour, field) in [(WHITE, fields[2]), (BLACK, fields[3])] {
        if field == "-" {
            continue;
        }
        for c in field.chars() {
            let letter = match c.to_ascii_uppercase() {
                u @ 'A'..='N' => usize::from(u as u8 - b'A'),
                _ => {
                    return Err(invalid(format!(
                        "'{c}' in a hand is not a pod letter A-N (or '-' for an empty hand)"
                    )))
                }
            };
            let want_upper = colour == WHITE;
            if c.is_ascii_uppercase() != want_upper {
                return Err(invalid(format!(
                    "hand pod '{c}': White's hand is upper case, Black's lower case"
                )));
            }
            if seen[colour] & (1 << letter) != 0 {
                return Err(invalid(format!("pod '{c}' appears twice")));
            }
            seen[colour] |= 1 << letter;
            pos.hand[colour] |= 1 << letter;
        }
    }
    pos.rot = match fields[4] {
        "0" => 0,
        "90" => 1,
        "180" => 2,
        "270" => 3,
        other => {
            return Err(invalid(format!(
                "rotation '{other}' is not 0, 90, 180 or 270"
            )))
        }
    };
    pos.hash = pos.compute_hash();
    Ok(pos)
}

/// Diagram: pods (White upper, Black lower case, `.` empty) joined by the lines of the rotated
/// pattern (`-`, `|`, `/`, `\`, `X`), then the hands, side to move and rotation.
pub fn render(pos: &Pos, geo: &Geometry) -> String {
    const N: usize = 0;
    const NE: usize = 1;
    const E: usize = 2;
    const NW: usize = 7;
    let has = |p: usize, d: usize| geo.conn[p] & (1 << d) != 0;
    let mut out = String::from("   a   b   c   d   e   f\n");
    for y in (0..6).rev() {
        let mut line = format!("{}  ", y + 1);
        for x in 0..6 {
            let p = y * 6 + x;
            line.push(match pos.pod_at(p) {
                Some((colour, letter)) => pod_char(colour, letter),
                None => '.',
            });
            if x < 5 {
                line.push_str(if has(p, E) { " - " } else { "   " });
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
        if y > 0 {
            let mut link = String::from("   ");
            for x in 0..6 {
                let below = (y - 1) * 6 + x;
                link.push(if has(below, N) { '|' } else { ' ' });
                if x < 5 {
                    let rising = has(below, NE);
                    let falling = has(below + 1, NW);
                    link.push(' ');
                    link.push(match (rising, falling) {
                        (true, true) => 'X',
                        (true, false) => '/',
                        (false, true) => '\\',
                        (false, false) => ' ',
                    });
                    link.push(' ');
                }
            }
            // A row with no vertical or diagonal line at all would be blank; leave it out.
            if !link.trim().is_empty() {
                out.push_str(link.trim_end());
                out.push('\n');
            }
        }
    }
    let hands = format!(
        "white hand: {}  black hand: {}",
        hand_string(pos.hand[0], WHITE),
        hand_string(pos.hand[1], BLACK)
    );
    out.push_str(&hands);
    out.push('\n');
    out.push_str(&format!(
        "{} to move, rotation {}",
        if pos.side == 0 { "white" } else { "black" },
        u32::from(pos.rot) * 90
    ));
    out.push_str(
        "\nlegend: A-N white pods, a-n black pods, . empty; - | / \\ lines, X both diagonals",
    );
    out
}

/// For error messages: `A on c3`.
pub fn describe(pos: &Pos, p: usize) -> String {
    match pos.pod_at(p) {
        Some((colour, letter)) => format!("{} on {}", pod_char(colour, letter), point_name(p)),
        None => point_name(p),
    }
}
