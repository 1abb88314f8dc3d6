//! Fast perft and random playouts.

use rand::rngs::SmallRng;
use rand::Rng;

use super::board::{adj, square_through, Bits};
use super::movegen::{count_moves, legal_moves, make, placing, removable, Move};
use super::position::Pos;
use crate::games::{Outcome, Side, Terminal};

pub const FIFTY: u16 = 50;

pub fn side_of(i: usize) -> Side {
    if i == 0 {
        Side::P1
    } else {
        Side::P2
    }
}

/// Game end by the position alone: a full square (the side that just moved first), then the
/// 50-ply counter.
#[inline]
pub fn terminal(pos: &Pos) -> Option<Terminal> {
    if let Some(w) = pos.square_winner() {
        return Some(Terminal::new(Outcome::Win(side_of(w)), "square"));
    }
    if pos.counter >= FIFTY {
        return Some(Terminal::new(Outcome::Draw, "fifty-plies"));
    }
    None
}

pub fn perft(pos: &Pos, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if terminal(pos).is_some() {
        return 0;
    }
    if depth == 1 {
        return count_moves(pos);
    }
    let mut moves = Vec::with_capacity(96);
    legal_moves(pos, &mut moves);
    moves.iter().map(|&m| perft(&make(pos, m), depth - 1)).sum()
}

/// The `k`-th (from 0) set bit of `b`; `k` must be below `b.count_ones()`.
#[inline]
fn select_bit(mut b: u64, mut k: u32) -> usize {
    let mut base = 0;
    while base < 56 {
        let c = (b & 0xFF).count_ones();
        if k < c {
            break;
        }
        k -= c;
        b >>= 8;
        base += 8;
    }
    for _ in 0..k {
        b &= b.wrapping_sub(1);
    }
    base + b.trailing_zeros() as usize
}

/// A uniformly random legal move, or `None` when there is none.
#[inline]
fn random_move(pos: &Pos, rng: &mut SmallRng) -> Option<Move> {
    let empty = pos.empty();
    if placing(pos) {
        let n = empty.count_ones();
        let swap = pos.is_swap_turn() as u32;
        if n + swap == 0 {
            return None;
        }
        let k = rng.gen_range(0..n + swap);
        return Some(if k == n {
            Move::Swap
        } else {
            Move::Place(select_bit(empty, k) as u8)
        });
    }
    let own = pos.pieces[pos.stm];
    let mut targets = [0u64; 12];
    let mut froms = [0u8; 12];
    let mut len = 0;
    let mut n = 0;
    for from in Bits(own) {
        let t = adj(from) & empty;
        if t != 0 && len < 12 {
            targets[len] = t;
            froms[len] = from as u8;
            len += 1;
            n += t.count_ones();
        }
    }
    let rem = if pos.neutral != 0 { removable(pos) } else { 0 };
    let total = n + rem.count_ones();
    if total == 0 {
        return None;
    }
    let mut k = rng.gen_range(0..total);
    for i in 0..len {
        let c = targets[i].count_ones();
        if k < c {
            return Some(Move::Step(froms[i], select_bit(targets[i], k) as u8));
        }
        k -= c;
    }
    Some(Move::Remove(select_bit(rem, k) as u8))
}

/// Random legal moves to the end, with the rules' draws: the 50-ply counter, threefold
/// repetition over the playout's own history, and no legal move.
pub fn playout(start: &Pos, rng: &mut SmallRng, max_plies: u32) -> Outcome {
    if let Some(t) = terminal(start) {
        return t.outcome;
    }
    let mut pos = *start;
    // Hashes since the last irreversible move; the counter keeps this stretch under 52 plies.
    let mut hist = [0u64; 64];
    hist[0] = pos.hash;
    let mut len = 1usize;
    for _ in 0..max_plies {
        let Some(mv) = random_move(&pos, rng) else {
            return Outcome::Draw;
        };
        let mover = pos.stm;
        let next = make(&pos, mv);
        let to = match mv {
            Move::Place(t) | Move::Step(_, t) => Some(t as usize),
            _ => None,
        };
        if let Some(t) = to {
            if square_through(next.pieces[mover], t) {
                return Outcome::Win(side_of(mover));
            }
        }
        if next.counter >= FIFTY {
            return Outcome::Draw;
        }
        let progress = next.counter == 0;
        pos = next;
        if progress || len >= hist.len() {
            len = 0;
        }
        hist[len] = pos.hash;
        len += 1;
        if len >= 5 {
            let mut seen = 1;
            let mut i = len - 1;
            while i >= 2 {
                i -= 2;
                if hist[i] == pos.hash {
                    seen += 1;
                    if seen >= 3 {
                        return Outcome::Draw;
                    }
                }
            }
        }
    }
    Outcome::Draw
}
