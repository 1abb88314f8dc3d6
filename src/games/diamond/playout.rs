//! Fast perft and random playouts.

use rand::rngs::SmallRng;
use rand::Rng;

use super::board::{adj, square_through, Bits, NEIGHBOURS};
use super::movegen::{count_moves, legal_moves, make, placing, Move};
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

/// A uniformly random step or removal (movement phase), or `None` when there is none.
/// Lists the moves into a small array: the target CPU may lack a popcount instruction, so
/// counting bits is dearer than walking them.
#[inline]
fn random_movement(pos: &Pos, rng: &mut SmallRng) -> Option<Move> {
    let empty = pos.empty();
    let mut list = [(0u8, 0u8); 96];
    let mut n = 0;
    // Branch-free filling: every neighbour slot is written, and kept only if it is empty.
    for from in Bits(pos.pieces[pos.stm]).take(12) {
        for &to in &NEIGHBOURS[from] {
            list[n] = (from as u8, to);
            n += ((empty >> to) & 1) as usize;
        }
    }
    let colored = pos.pieces[0] | pos.pieces[1];
    for q in Bits(pos.neutral).take(24) {
        // A removal is marked by from == to.
        list[n] = (q as u8, q as u8);
        n += (adj(q) & colored == 0) as usize;
    }
    if n == 0 {
        return None;
    }
    let (from, to) = list[rng.gen_range(0..n)];
    Some(if from == to {
        Move::Remove(from)
    } else {
        Move::Step(from, to)
    })
}

/// Empty points kept as a list while placing, so a random placement costs O(1).
struct Empties {
    list: [u8; 64],
    len: usize,
    /// The bitboard the list was built from; rebuilt when the board changed otherwise.
    of: u64,
}

impl Empties {
    fn of(empty: u64) -> Empties {
        let mut e = Empties {
            list: [0; 64],
            len: 0,
            of: empty,
        };
        for p in Bits(empty) {
            e.list[e.len] = p as u8;
            e.len += 1;
        }
        e
    }

    /// A random placement (or the swap), removing the point from the list.
    #[inline]
    fn pick(&mut self, pos: &Pos, rng: &mut SmallRng) -> Option<Move> {
        let empty = pos.empty();
        if empty != self.of {
            *self = Empties::of(empty);
        }
        let swap = pos.is_swap_turn() as usize;
        if self.len + swap == 0 {
            return None;
        }
        let k = rng.gen_range(0..self.len + swap);
        if k == self.len {
            return Some(Move::Swap);
        }
        let p = self.list[k];
        self.len -= 1;
        self.list[k] = self.list[self.len];
        self.of &= !(1u64 << p);
        Some(Move::Place(p))
    }
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
    let mut empties = Empties::of(pos.empty());
    for _ in 0..max_plies {
        let choice = if placing(&pos) {
            empties.pick(&pos, rng)
        } else {
            random_movement(&pos, rng)
        };
        let Some(mv) = choice else {
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
