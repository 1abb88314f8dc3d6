//! Rule, notation and position tests for Poddavki.

mod movegen;
mod notation;
mod paths;
mod perft;
mod position;
mod rules;
mod search_hooks;
mod selfplay;
mod speed;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::board::{Position, PROMO_RANK};
use super::Poddavki;
use crate::games::prelude::*;

fn pos(fen: &str) -> Position {
    match Poddavki::default().parse_position(fen) {
        Ok(p) => p,
        Err(e) => panic!("{fen}: {e}"),
    }
}

/// Canonical strings of all legal moves, sorted.
fn legal_strings(p: &Position) -> Vec<String> {
    let g = Poddavki::default();
    let mut moves = Vec::new();
    g.legal_moves(p, &mut moves);
    let mut v: Vec<String> = moves.iter().map(|&m| g.format_move(p, m)).collect();
    v.sort();
    v
}

/// Pieces scattered at random (kings about a third of the time; a man drawn on its own far rank
/// is made a king, as the rules require).
fn scattered_position(rng: &mut SmallRng) -> Position {
    let mut pieces = [0u32; 2];
    let mut kings = 0u32;
    for side in 0..2 {
        let n = rng.gen_range(0..=12);
        for _ in 0..n {
            let s = rng.gen_range(0..32);
            if (pieces[0] | pieces[1]) >> s & 1 != 0 {
                continue;
            }
            pieces[side] |= 1 << s;
            if rng.gen_bool(0.3) || PROMO_RANK[side] >> s & 1 != 0 {
                kings |= 1 << s;
            }
        }
    }
    Position::new(pieces[0], pieces[1], kings, rng.gen_range(0..2))
}

/// A position reached by random legal moves from the start.
fn played_position(rng: &mut SmallRng) -> Position {
    let g = Poddavki::default();
    let mut p = g.start();
    let plies = rng.gen_range(0..80);
    let mut moves = Vec::new();
    for _ in 0..plies {
        moves.clear();
        g.legal_moves(&p, &mut moves);
        if moves.is_empty() {
            break;
        }
        p = g.make(&p, moves[rng.gen_range(0..moves.len())]);
    }
    p
}

/// `n` seeded random positions, half scattered, half from random games.
pub(super) fn random_positions(seed: u64, n: usize) -> Vec<Position> {
    let mut rng = SmallRng::seed_from_u64(seed);
    (0..n)
        .map(|i| {
            if i % 2 == 0 {
                scattered_position(&mut rng)
            } else {
                played_position(&mut rng)
            }
        })
        .collect()
}
