//! Perft on a board layout of its own, for speed: counting needs no moves, hashes or notation.
//!
//! The 32 squares sit in a 36-bit word with a ghost bit after every odd rank (square index
//! `s = rank * 4 + file / 2` goes to bit `s + (rank + 1) / 2`), so a diagonal step is a shift by
//! 4 or 5 on every rank and a step off the side lands on a ghost bit, which is never empty nor a
//! piece. The side to move is a type ([`White`], [`Black`]), so each side's code has its
//! directions and promotion rank as constants.
//!
//! Captures are split in two: a man's single jump after which it can neither jump on nor crown
//! is one move, distinct from every other (no other capture takes exactly that piece from that
//! square to that square), so such jumps are counted for all men at once with shifts and
//! popcounts. Every other capture is walked piece by piece and de-duplicated (two paths taking
//! the same pieces from the same square to the same square are one move, see the rules), except
//! at a leaf's parent, where most are counted without a list ([`count`]'s module).

use super::board::{Position, WHITE};

mod count;
mod layout;

use count::count;
use layout::{sh, spread, Black, Board, Side, White, B, DIRS};

/// A capture found by the walk: the piece's squares as bits, what it takes, and whether it ends
/// as a king.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Capture {
    from: B,
    to: B,
    captured: B,
    king: bool,
}

/// Depth-first walk of one piece's captures. `empty` counts the piece's start square as empty
/// and every captured piece as present (Turkish strike), so it never changes during the move.
struct Walk<'a> {
    from: B,
    empty: B,
    opp: B,
    promo: B,
    out: &'a mut Vec<Capture>,
    /// First entry of `out` belonging to this piece: only those can be duplicates.
    base: usize,
}

impl<'a> Walk<'a> {
    /// The walk of the piece on `from`, its captures appended to `out`.
    #[inline(always)]
    fn new<S: Side>(from: B, empty: B, opp: B, out: &'a mut Vec<Capture>) -> Self {
        let base = out.len();
        Walk {
            from,
            empty: empty | from,
            opp,
            promo: S::PROMO,
            out,
            base,
        }
    }

    fn emit(&mut self, to: B, captured: B, king: bool) {
        let c = Capture {
            from: self.from,
            to,
            captured,
            king,
        };
        if !self.out[self.base..].contains(&c) {
            self.out.push(c);
        }
    }

    /// Jumps of a man on `cur`; returns whether there was any.
    fn man(&mut self, cur: B, captured: B) -> bool {
        let avail = self.opp & !captured;
        let lands = DIRS.map(|d| sh(sh(cur, d) & avail, d) & self.empty);
        if lands[0] | lands[1] | lands[2] | lands[3] == 0 {
            return false;
        }
        for (&land, &d) in lands.iter().zip(&DIRS) {
            if land == 0 {
                continue;
            }
            let cap = captured | sh(land, -d);
            // Crowned mid-capture: it goes on as a king in the same move.
            if land & self.promo != 0 {
                if !self.king(land, cap) {
                    self.emit(land, cap, true);
                }
            } else if !self.man(land, cap) {
                self.emit(land, cap, false);
            }
        }
        true
    }

    /// Jumps of a king on `cur`; returns whether there was any.
    fn king(&mut self, cur: B, captured: B) -> bool {
        let avail = self.opp & !captured;
        let mut any = false;
        for d in DIRS {
            let mut hit = sh(cur, d);
            while hit & self.empty != 0 {
                hit = sh(hit, d);
            }
            let mut land = sh(hit, d);
            if hit & avail == 0 || land & self.empty == 0 {
                continue;
            }
            any = true;
            let cap = captured | hit;
            let mut lands = 0;
            while land & self.empty != 0 {
                lands |= land;
                land = sh(land, d);
            }
            // Landing rule: only squares the capture goes on from, if there are any.
            let mut goes_on = false;
            let mut rest = lands;
            while rest != 0 {
                let l = rest & rest.wrapping_neg();
                rest ^= l;
                goes_on |= self.king(l, cap);
            }
            if !goes_on {
                let mut rest = lands;
                while rest != 0 {
                    let l = rest & rest.wrapping_neg();
                    rest ^= l;
                    self.emit(l, cap, true);
                }
            }
        }
        any
    }
}

/// The capture picture of a position for the side to move.
struct Jumps {
    /// Per direction, the squares a man lands on after a first jump that ends the move there.
    simple: [B; 4],
    /// Per direction, the landing squares of first jumps that go on or crown.
    complex: [B; 4],
    /// Whether anything can capture (the kings too).
    any: bool,
}

#[inline(always)]
fn jumps<S: Side>(b: &Board) -> Jumps {
    let empty = b.empty();
    let opp = b.theirs::<S>();
    let mine = b.mine::<S>();
    let men = mine & !b.kings;
    // Per direction, the squares a man could jump from, were it there (its own start square
    // is never a landing square of a later jump, so this is exact for continuations too).
    let from: [B; 4] = DIRS.map(|d| sh(sh(empty, -d) & opp, -d));
    let can = from[0] | from[1] | from[2] | from[3];
    let mut j = Jumps {
        simple: [0; 4],
        complex: [0; 4],
        any: false,
    };
    if men & can != 0 {
        j.any = true;
        for (i, &d) in DIRS.iter().enumerate() {
            let land = sh(sh(men & from[i], d), d);
            let goes_on = land & (can | S::PROMO);
            j.simple[i] = land & !goes_on;
            j.complex[i] = goes_on;
        }
    }
    if !j.any && mine & b.kings != 0 {
        j.any = kings_capture::<S>(b, empty, opp);
    }
    j
}

/// Whether a king of the side to move can capture.
#[cold]
fn kings_capture<S: Side>(b: &Board, empty: B, opp: B) -> bool {
    let mut kings = b.mine::<S>() & b.kings;
    while kings != 0 {
        let k = kings & kings.wrapping_neg();
        kings ^= k;
        for d in DIRS {
            let mut hit = sh(k, d);
            while hit & empty != 0 {
                hit = sh(hit, d);
            }
            if hit & opp != 0 && sh(hit, d) & empty != 0 {
                return true;
            }
        }
    }
    false
}

/// Appends the captures [`Jumps::complex`] stands for and every king's, each piece's
/// de-duplicated.
fn walk_captures<S: Side>(b: &Board, j: &Jumps, out: &mut Vec<Capture>) {
    let empty = b.empty();
    let opp = b.theirs::<S>();
    let mut starts = 0;
    for (&c, &d) in j.complex.iter().zip(&DIRS) {
        starts |= sh(sh(c, -d), -d);
    }
    while starts != 0 {
        let from = starts & starts.wrapping_neg();
        starts ^= from;
        let mut w = Walk::new::<S>(from, empty, opp, out);
        // Only the first jumps that go on: the others were counted as simple.
        for (i, &d) in DIRS.iter().enumerate() {
            let mid = sh(from, d);
            let land = sh(mid, d);
            if land & j.complex[i] == 0 {
                continue;
            }
            if land & S::PROMO != 0 {
                if !w.king(land, mid) {
                    w.emit(land, mid, true);
                }
            } else if !w.man(land, mid) {
                w.emit(land, mid, false);
            }
        }
    }
    let mut kings = b.mine::<S>() & b.kings;
    while kings != 0 {
        let from = kings & kings.wrapping_neg();
        kings ^= from;
        Walk::new::<S>(from, empty, opp, out).king(from, 0);
    }
}

/// The squares a king on `k` can move to quietly.
#[inline(always)]
fn king_reach(k: B, empty: B) -> B {
    let mut r = 0;
    for d in DIRS {
        let mut x = sh(k, d);
        while x & empty != 0 {
            r |= x;
            x = sh(x, d);
        }
    }
    r
}

/// Leaf count below a child, `depth` (≥ 1) plies ahead of it.
#[inline(always)]
fn child<S: Side>(b: &Board, depth: u32, scratch: &mut Vec<Capture>) -> u64 {
    // The last ply is counted in line: a call per child costs as much as counting it.
    if depth == 1 {
        count::<S>(b, scratch)
    } else {
        node::<S>(b, depth, scratch)
    }
}

/// Leaf count `depth` (≥ 2) plies ahead.
fn node<S: Side>(b: &Board, depth: u32, scratch: &mut Vec<Capture>) -> u64 {
    let next = |c: &Board, scratch: &mut Vec<Capture>| child::<S::Other>(c, depth - 1, scratch);
    let mut n = 0;
    let j = jumps::<S>(b);
    if j.any {
        for (i, &d) in DIRS.iter().enumerate() {
            let mut lands = j.simple[i];
            while lands != 0 {
                let to = lands & lands.wrapping_neg();
                lands ^= to;
                let mid = sh(to, -d);
                n += next(&b.after::<S>(sh(mid, -d), to, mid, false), scratch);
            }
        }
        if j.complex.iter().any(|&c| c != 0) || b.mine::<S>() & b.kings != 0 {
            let base = scratch.len();
            walk_captures::<S>(b, &j, scratch);
            let end = scratch.len();
            for i in base..end {
                let c = scratch[i];
                n += next(&b.after::<S>(c.from, c.to, c.captured, c.king), scratch);
            }
            scratch.truncate(base);
        }
        return n;
    }
    let empty = b.empty();
    if depth == 2 && b.kings == 0 {
        return quiet_men_children::<S>(b, empty, scratch);
    }
    quiet_children::<S>(b, depth, empty, scratch)
}

/// Leaf count of a node without captures, its quiet moves made one by one.
fn quiet_children<S: Side>(b: &Board, depth: u32, empty: B, scratch: &mut Vec<Capture>) -> u64 {
    let next = |c: &Board, scratch: &mut Vec<Capture>| child::<S::Other>(c, depth - 1, scratch);
    let mut n = 0;
    let mine = b.mine::<S>();
    let men = mine & !b.kings;
    for d in S::FORWARD {
        let mut targets = sh(men, d) & empty;
        while targets != 0 {
            let to = targets & targets.wrapping_neg();
            targets ^= to;
            n += next(
                &b.after::<S>(sh(to, -d), to, 0, to & S::PROMO != 0),
                scratch,
            );
        }
    }
    let mut kings = mine & b.kings;
    while kings != 0 {
        let k = kings & kings.wrapping_neg();
        kings ^= k;
        let mut targets = king_reach(k, empty);
        while targets != 0 {
            let to = targets & targets.wrapping_neg();
            targets ^= to;
            n += next(&b.after::<S>(k, to, 0, true), scratch);
        }
    }
    n
}

/// Leaf count two plies ahead of a node without captures nor kings, most children counted without
/// being made.
///
/// A man's quiet step from `f` to `t` changes the opponent's quiet moves only around those two
/// squares: it has the parent's count, plus its men that can step to `f`, less those that could
/// step to `t`. Where the opponent cannot capture in the parent, the step gives it a capture
/// only over `t` or onto `f`: such children (and all of them, where it can already capture) are
/// made and counted one by one.
#[inline(always)]
fn quiet_men_children<S: Side>(b: &Board, empty: B, scratch: &mut Vec<Capture>) -> u64 {
    let mine = b.mine::<S>();
    let theirs = b.theirs::<S>();
    let mut threats = 0;
    for d in DIRS {
        threats |= sh(sh(empty, -d) & mine, -d) & theirs;
    }
    if threats != 0 {
        return quiet_children::<S>(b, 2, empty, scratch);
    }
    let [g1, g2] = <S::Other as Side>::FORWARD;
    let steppers = |x: B| (sh(x, -g1) & theirs).count_ones() + (sh(x, -g2) & theirs).count_ones();
    let base =
        ((sh(theirs, g1) & empty).count_ones() + (sh(theirs, g2) & empty).count_ones()) as u64;
    // Squares where a piece of ours could be taken (theirs on one side, empty on the other), and
    // squares that, once emptied, a man of theirs could land on over one of ours.
    let mut over = 0;
    let mut onto = 0;
    for d in DIRS {
        over |= sh(theirs, -d) & sh(empty, d);
        onto |= sh(mine, -d) & sh(theirs, -2 * d);
    }
    let mut n = 0;
    for d in S::FORWARD {
        let to = sh(mine, d) & empty;
        // A man of theirs just ahead of `t` takes it, landing on `f`.
        let made = to & (over | sh(theirs, -d) | sh(onto, d));
        let counted = to & !made;
        n += counted.count_ones() as u64 * base + steppers(sh(counted, -d)) as u64
            - steppers(counted) as u64;
        let mut rest = made;
        while rest != 0 {
            let t = rest & rest.wrapping_neg();
            rest ^= t;
            n += count::<S::Other>(&b.after::<S>(sh(t, -d), t, 0, t & S::PROMO != 0), scratch);
        }
    }
    n
}

/// Leaf count `depth` plies ahead of `p`, the last ply counted in bulk.
pub fn perft(p: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let b = Board {
        white: spread(p.pieces[0]),
        black: spread(p.pieces[1]),
        kings: spread(p.kings),
    };
    let mut scratch = Vec::with_capacity(256);
    if p.stm == WHITE {
        child::<White>(&b, depth, &mut scratch)
    } else {
        child::<Black>(&b, depth, &mut scratch)
    }
}
