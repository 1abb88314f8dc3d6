//! Legal moves and making them.

use std::ops::ControlFlow;

use super::board::{adj, capture_of, Bits, PointSet};
use super::position::{hand_key, piece_key, side_key, Pos, BLACK, PIECES_PER_SIDE};

/// One move. Whether a step captures is decided by the position, so it is not part of the move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    Place(u8),
    Step(u8, u8),
    /// Take a neutral piece off the board.
    Remove(u8),
    /// The pie rule (see the rules: colour-stable).
    Swap,
}

const NEUTRAL: usize = 2;

/// Neutral pieces that may be removed: no Black or White piece is adjacent.
#[inline]
pub fn removable(pos: &Pos) -> u64 {
    let colored = pos.pieces[0] | pos.pieces[1];
    let mut out = 0;
    for n in Bits(pos.neutral) {
        if adj(n) & colored == 0 {
            out |= 1u64 << n;
        }
    }
    out
}

#[inline]
pub fn placing(pos: &Pos) -> bool {
    pos.hand[pos.stm] > 0
}

pub fn legal_moves(pos: &Pos, out: &mut Vec<Move>) {
    let _ = for_each_move(pos, |m| {
        out.push(m);
        ControlFlow::Continue(())
    });
}

/// Calls `f` with every legal move (placements and the swap, or steps and removals) until it
/// breaks.
#[inline]
pub fn for_each_move(pos: &Pos, mut f: impl FnMut(Move) -> ControlFlow<()>) -> ControlFlow<()> {
    let empty = pos.empty();
    if placing(pos) {
        for p in Bits(empty) {
            f(Move::Place(p as u8))?;
        }
        if pos.is_swap_turn() {
            f(Move::Swap)?;
        }
        return ControlFlow::Continue(());
    }
    for from in Bits(pos.pieces[pos.stm]) {
        for to in Bits(adj(from) & empty) {
            f(Move::Step(from as u8, to as u8))?;
        }
    }
    for n in Bits(removable(pos)) {
        f(Move::Remove(n as u8))?;
    }
    ControlFlow::Continue(())
}

/// Number of legal moves, without listing them (perft's last ply, playouts).
#[inline]
pub fn count_moves(pos: &Pos) -> u64 {
    let empty = pos.empty();
    if placing(pos) {
        return empty.count_ones() as u64 + pos.is_swap_turn() as u64;
    }
    let mut n = removable(pos).count_ones() as u64;
    for from in Bits(pos.pieces[pos.stm]) {
        n += (adj(from) & empty).count_ones() as u64;
    }
    n
}

/// The enemy point a step captures on, if any (judged with the origin already empty).
#[inline]
pub fn step_capture(pos: &Pos, from: usize, to: usize) -> Option<usize> {
    let own = (pos.pieces[pos.stm] & !(1u64 << from)) | (1u64 << to);
    capture_of(own, pos.pieces[pos.stm ^ 1], to)
}

#[inline]
pub fn is_legal(pos: &Pos, mv: Move) -> bool {
    let empty = pos.empty();
    match mv {
        Move::Place(p) => placing(pos) && empty.has(p as usize),
        Move::Swap => pos.is_swap_turn(),
        Move::Step(from, to) => {
            !placing(pos)
                && pos.pieces[pos.stm].has(from as usize)
                && (adj(from as usize) & empty).has(to as usize)
        }
        Move::Remove(n) => !placing(pos) && removable(pos).has(n as usize),
    }
}

/// The position after a legal move.
#[inline]
pub fn make(pos: &Pos, mv: Move) -> Pos {
    let mut p = *pos;
    let s = pos.stm;
    match mv {
        Move::Place(to) => {
            let to = to as usize & 63;
            p.pieces[s] |= 1u64 << to;
            p.hash ^= piece_key(s, to) ^ hand_key(s, p.hand[s]);
            p.hand[s] -= 1;
            p.hash ^= hand_key(s, p.hand[s]);
            p.counter = 0;
        }
        Move::Swap => {
            // The lone Black piece turns White; Black (the former White player) moves again.
            p.pieces = [0, pos.pieces[BLACK]];
            p.hand = [PIECES_PER_SIDE, PIECES_PER_SIDE - 1];
            p.counter = 0;
            p.stm = BLACK;
            p.hash = p.compute_hash();
            return p;
        }
        Move::Step(from, to) => {
            let (from, to) = (from as usize & 63, to as usize & 63);
            p.pieces[s] ^= (1u64 << from) | (1u64 << to);
            p.hash ^= piece_key(s, from) ^ piece_key(s, to);
            match capture_of(p.pieces[s], p.pieces[s ^ 1], to) {
                Some(c) => {
                    p.pieces[s ^ 1] &= !(1u64 << c);
                    p.neutral |= 1u64 << c;
                    p.hash ^= piece_key(s ^ 1, c) ^ piece_key(NEUTRAL, c);
                    p.counter = 0;
                }
                None => p.counter = p.counter.saturating_add(1),
            }
        }
        Move::Remove(n) => {
            let n = n as usize & 63;
            p.neutral &= !(1u64 << n);
            p.hash ^= piece_key(NEUTRAL, n);
            p.counter = 0;
        }
    }
    p.stm ^= 1;
    p.hash ^= side_key();
    p
}

/// Irreversible moves: placement, swap, capture and neutral removal.
pub fn is_progress(pos: &Pos, mv: Move) -> bool {
    match mv {
        Move::Step(from, to) => step_capture(pos, from as usize, to as usize).is_some(),
        _ => true,
    }
}
