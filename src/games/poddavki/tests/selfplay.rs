//! Evaluation sanity by play (ignored; run with
//! `cargo test --release -- --ignored --nocapture poddavki_selfplay`): a small fixed-depth
//! alpha-beta with the given weights against other weights, from seeded random openings.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::games::poddavki::board::{Move, Position};
use crate::games::poddavki::eval::{evaluate_with, order_hint, Weights, WEIGHTS};
use crate::games::poddavki::movegen::{has_capture, legal_moves};
use crate::games::poddavki::Poddavki;
use crate::games::prelude::*;
use crate::games::{outcome, DrawTracker, Outcome, Side};

const WIN: i32 = 30_000;

fn search(p: &Position, depth: i32, mut alpha: i32, beta: i32, ply: i32, w: &Weights) -> i32 {
    let mut moves = Vec::new();
    legal_moves(p, &mut moves);
    if moves.is_empty() {
        return WIN - ply;
    }
    if (depth <= 0 && !has_capture(p)) || ply > 30 {
        return evaluate_with(p, w);
    }
    moves.sort_by_key(|&m| -order_hint(p, m));
    for m in moves {
        let v = -search(&p.make(m), depth - 1, -beta, -alpha, ply + 1, w);
        if v > alpha {
            alpha = v;
            if alpha >= beta {
                break;
            }
        }
    }
    alpha
}

fn best_move(p: &Position, depth: i32, w: Option<&Weights>, rng: &mut SmallRng) -> Move {
    let mut moves = Vec::new();
    legal_moves(p, &mut moves);
    let Some(w) = w else {
        return moves[rng.gen_range(0..moves.len())];
    };
    moves.sort_by_key(|&m| -order_hint(p, m));
    let mut best = (i32::MIN, moves[0]);
    for m in moves {
        let v = -search(&p.make(m), depth - 1, -WIN, -best.0.max(-WIN), 1, w);
        if v > best.0 {
            best = (v, m);
        }
    }
    best.1
}

/// Points (win 2, draw 1) of `a` against `b` over `pairs` openings, each played with both colours.
fn match_points(a: Option<&Weights>, b: Option<&Weights>, depth: i32, pairs: u64) -> (u32, u32) {
    let g = Poddavki::default();
    let mut points = (0, 0);
    for seed in 0..pairs {
        for a_white in [true, false] {
            let mut rng = SmallRng::seed_from_u64(seed);
            let mut p = g.start();
            for _ in 0..4 {
                let mut ms = Vec::new();
                g.legal_moves(&p, &mut ms);
                p = g.make(&p, ms[rng.gen_range(0..ms.len())]);
            }
            let mut tracker = DrawTracker::new(p.hash);
            let mut result = Outcome::Draw;
            for _ in 0..300 {
                if let Some(t) = outcome(&g, &p, &tracker) {
                    result = t.outcome;
                    break;
                }
                let white = p.stm == 0;
                let w = if white == a_white { a } else { b };
                let m = best_move(&p, depth, w, &mut rng);
                let prog = g.is_progress(&p, m);
                p = g.make(&p, m);
                tracker.push(p.hash, prog);
            }
            let a_side = if a_white { Side::P1 } else { Side::P2 };
            match result {
                Outcome::Win(s) if s == a_side => points.0 += 2,
                Outcome::Win(_) => points.1 += 2,
                Outcome::Draw => {
                    points.0 += 1;
                    points.1 += 1;
                }
            }
        }
    }
    points
}

#[test]
#[ignore]
fn poddavki_selfplay() {
    let material = Weights {
        man: -100,
        king: -100,
        man_mobility: 0,
        king_mobility: 0,
        jammed: 0,
        en_prise: 0,
        advance: 0,
        crown_risk: 0,
        safe_move: 0,
    };
    let depth = std::env::var("PODDAVKI_DEPTH")
        .ok()
        .and_then(|d| d.parse().ok())
        .unwrap_or(4);
    let pairs = std::env::var("PODDAVKI_PAIRS")
        .ok()
        .and_then(|d| d.parse().ok())
        .unwrap_or(40);
    let variants: Vec<(&str, Option<Weights>)> = vec![
        ("random", None),
        ("material only", Some(material)),
        (
            "first guess (few own moves good, men forward)",
            Some(Weights {
                man: -100,
                king: -260,
                man_mobility: -6,
                king_mobility: -2,
                jammed: 10,
                en_prise: 18,
                advance: 3,
                crown_risk: -25,
                safe_move: 0,
            }),
        ),
        (
            "mobility halved",
            Some(Weights {
                man_mobility: 12,
                king_mobility: 6,
                ..WEIGHTS
            }),
        ),
        (
            "men held back less",
            Some(Weights {
                advance: -5,
                ..WEIGHTS
            }),
        ),
    ];
    for (name, w) in &variants {
        let (a, b) = match_points(Some(&WEIGHTS), w.as_ref(), depth, pairs);
        println!("default vs {name}: {a} - {b}");
    }
}
