//! Diamond tests: board tables, every rule on hand-built positions, cross-checks against an
//! independent model, round-trips, the suites, evaluation and playouts.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::board::{adj, parse_point, point_name, Bits, PointSet, TABLES, VALID};
use super::eval::{evaluate, order_hint, side_view, swap_worth, COMPLETES_HINT, WIN_NEXT};
use super::movegen::{legal_moves, Move};
use super::position::Pos;
use super::suites::{self, BLOCK_ONE, WIN_IN_ONE};
use super::Diamond;
use crate::games::prelude::*;
use crate::games::{outcome, DrawTracker, Outcome, RuleError, Side, EVAL_LIMIT};

mod board;
mod crosscheck;
mod horizon;
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

/// Fuzz finding: with a single enemy threat, no step onto it and no enemy piece next to it at
/// all, `can_stop` computed `feeders - 1` on zero (a panic in builds with overflow checks, as
/// the fuzzers and `.ci/run`'s debug replay use). Such positions must occur in the sample, and
/// with nothing capturable the threat cannot be stopped.
#[test]
fn can_stop_with_no_feeder_at_all() {
    use super::eval::can_stop;
    let mut seen = 0;
    for p in random_positions(11, 300, 3000) {
        let s = p.stm;
        let me = side_view(&p, s);
        let them = side_view(&p, s ^ 1);
        if them.threats.count_ones() != 1 || me.threats != 0 {
            continue;
        }
        let e = them.threats.trailing_zeros() as usize;
        let opp = p.pieces[s ^ 1];
        let corners = TABLES.squares_of[e]
            .iter()
            .take(TABLES.squares_of_len[e] as usize)
            .filter(|&&q| q & opp == q & !them.threats)
            .fold(0, |c, &q| c | (q & opp));
        if adj(e) & p.pieces[s] != 0 || adj(e) & opp & !corners != 0 {
            continue;
        }
        seen += 1;
        let stops = can_stop(&p, them.threats, me.capturable);
        if me.capturable == 0 {
            assert!(!stops, "nothing to step onto or capture, yet stoppable");
        }
        assert_eq!(
            stops,
            can_stop(&p, them.threats, me.capturable | p.pieces[s ^ 1]) && stops
        );
        let _ = evaluate(&p);
    }
    assert!(
        seen > 0,
        "no position with an unfed single threat in the sample"
    );
}

/// The hints the search asks for a node at once are each move's own hint, in every phase;
/// the sample holds placements that complete a square and that block one.
#[test]
fn a_nodes_hints_are_its_moves_hints() {
    let g = Diamond;
    let (mut wins, mut blocks, mut placing) = (0, 0, 0);
    let mut moves = Vec::new();
    for p in random_positions(31, 300, 200) {
        moves.clear();
        g.legal_moves(&p, &mut moves);
        let mut hints = vec![7];
        g.order_hints(&p, &moves, &mut hints);
        assert_eq!(hints.len(), moves.len() + 1, "{}", p.to_fen());
        assert_eq!(hints[0], 7, "appended, not replaced");
        for (&m, &h) in moves.iter().zip(&hints[1..]) {
            assert_eq!(h, order_hint(&p, m), "{} {m:?}", p.to_fen());
            if p.hand[p.stm] > 0 {
                placing += 1;
                wins += usize::from(h == COMPLETES_HINT);
                blocks += usize::from((200_000..COMPLETES_HINT).contains(&h));
            }
        }
    }
    assert!(
        placing > 100_000 && wins > 50 && blocks > 50,
        "{placing} {wins} {blocks}"
    );
}
