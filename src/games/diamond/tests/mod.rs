//! Diamond tests: board tables, every rule on hand-built positions, cross-checks against an
//! independent model, round-trips, the suites, evaluation and playouts.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::board::{adj, parse_point, point_name, Bits, PointSet, TABLES, VALID};
use super::eval::{evaluate, order_hint, side_view, swap_worth, WIN_NEXT};
use super::movegen::{legal_moves, Move};
use super::position::Pos;
use super::suites::{self, BLOCK_ONE, WIN_IN_ONE};
use super::Diamond;
use crate::games::{outcome, DrawTracker, Game, Outcome, RuleError, Side, EVAL_LIMIT};

mod board;
mod crosscheck;
mod play;
mod reference;
mod rules;

fn fen(s: &str) -> Pos {
    Pos::from_fen(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn pts(list: &str) -> u64 {
    list.split_whitespace()
        .map(|s| 1u64 << parse_point(s).unwrap_or_else(|| panic!("bad point {s}")))
        .fold(0, |a, b| a | b)
}

/// A movement-phase (or any) position from point lists.
fn setup(black: &str, white: &str, neutral: &str, side: char, hands: [u8; 2], counter: u16) -> Pos {
    let mut p = Pos::start();
    p.pieces = [pts(black), pts(white)];
    p.neutral = pts(neutral);
    p.hand = hands;
    p.stm = (side == 'w') as usize;
    p.counter = counter;
    p.hash = p.compute_hash();
    // Go through the string form so that every hand-built position is also a valid string.
    fen(&p.to_fen())
}

fn play(pos: &Pos, text: &str) -> Pos {
    let g = Diamond;
    let m = g
        .parse_move(pos, text)
        .unwrap_or_else(|e| panic!("{text} in {}: {e}", pos.to_fen()));
    g.make(pos, m)
}

fn move_strings(pos: &Pos) -> Vec<String> {
    let g = Diamond;
    let mut v = Vec::new();
    g.legal_moves(pos, &mut v);
    let mut s: Vec<String> = v.iter().map(|&m| g.format_move(pos, m)).collect();
    s.sort();
    s
}

fn adjacent(a: &str, b: &str) -> bool {
    let (a, b) = (parse_point(a).unwrap(), parse_point(b).unwrap());
    adj(a).has(b)
}

/// Positions from random games (placement and movement) and random movement-phase set-ups.
fn random_positions(seed: u64, games: usize, setups: usize) -> Vec<Pos> {
    let g = Diamond;
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut p = g.start();
        for _ in 0..300 {
            if g.terminal(&p).is_some() {
                break;
            }
            moves.clear();
            g.legal_moves(&p, &mut moves);
            if moves.is_empty() {
                break;
            }
            out.push(p);
            p = g.make(&p, moves[rng.gen_range(0..moves.len())]);
        }
    }
    for _ in 0..setups {
        let nb = rng.gen_range(1..=12u32);
        let nw = rng.gen_range(1..=12u32);
        let nn = rng.gen_range(0..=(24 - nb - nw).min(12));
        let mut free: Vec<usize> = Bits(VALID).collect();
        let mut p = Pos::start();
        p.hand = [0, 0];
        for (kind, n) in [(0, nb), (1, nw), (2, nn)] {
            for _ in 0..n {
                let q = free.swap_remove(rng.gen_range(0..free.len()));
                match kind {
                    0 => p.pieces[0] |= 1 << q,
                    1 => p.pieces[1] |= 1 << q,
                    _ => p.neutral |= 1 << q,
                }
            }
        }
        p.stm = rng.gen_range(0..2);
        p.counter = rng.gen_range(0..50);
        p.hash = p.compute_hash();
        if g.terminal(&p).is_none() {
            out.push(p);
        }
    }
    out
}
