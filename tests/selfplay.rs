//! Strength sanity checks: the engine at a fixed depth against a uniformly random mover,
//! alternating colours, seeded (deterministic and quick; real time controls go through the arena).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tetrad::engine::{new_game, AnyGame};
use tetrad::games::{Outcome, Side};
use tetrad::search::{Limits, Params};

fn engine_move(g: &dyn AnyGame, depth: u32) -> String {
    let params = Params {
        limits: Limits {
            depth: Some(depth),
            ..Limits::default()
        },
        move_overhead_ms: 0,
    };
    let job = g.search_job(params, Arc::new(AtomicBool::new(false)), Box::new(|_| {}));
    job().best.expect("a move in a running game")
}

/// Plays `games` games; returns (engine wins, draws, losses).
fn match_vs_random(
    name: &str,
    depth: u32,
    games: u32,
    seed: u64,
    max_plies: u32,
) -> (u32, u32, u32) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let (mut w, mut d, mut l) = (0, 0, 0);
    for i in 0..games {
        let engine_side = if i % 2 == 0 { Side::P1 } else { Side::P2 };
        let mut g = new_game(name).expect("game exists");
        let mut plies = 0;
        let result = loop {
            if let Some(t) = g.result() {
                break t.outcome;
            }
            if plies >= max_plies {
                break Outcome::Draw;
            }
            let mv = if g.side_to_move() == engine_side {
                engine_move(g.as_ref(), depth)
            } else {
                let moves = g.legal_moves();
                moves[rng.gen_range(0..moves.len())].clone()
            };
            g.play(&mv)
                .expect("engine and random mover play legal moves");
            plies += 1;
        };
        match result {
            Outcome::Win(s) if s == engine_side => w += 1,
            Outcome::Draw => d += 1,
            Outcome::Win(_) => l += 1,
        }
    }
    (w, d, l)
}

#[test]
fn poddavki_depth4_beats_random() {
    let (w, d, l) = match_vs_random("poddavki", 4, 100, 2026, 400);
    eprintln!("poddavki depth 4 vs random: +{w} ={d} -{l}");
    assert!(w >= 95, "+{w} ={d} -{l}");
}
