//! Poddavki acceptance: the greedy baseline's choices in positions with a known answer, and
//! matches of the engine against a random mover and the greedy baseline, from paired random
//! openings (each opening played once with each colour).
//!
//! Full 100-game matches at 100 ms per move (minutes each) are a program, examples/long_runs:
//! `cargo run --release --features long-runs --example long_runs -- poddavki_play::full_`

use crate::baselines;

use baselines::{node_limit, play_paired, poddavki_greedy_move, Player};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use tetrad::games::poddavki::Poddavki;
use tetrad::games::prelude::*;
use tetrad::search::Limits;

/// Plies after which a game counts as a draw: far beyond the repetition and 30-ply no-progress
/// rules, which end real games much sooner.
pub(crate) const MAX_PLIES: u32 = 400;

/// Random plies before each pair of games.
pub(crate) const OPENING_PLIES: u32 = 2;

/// Every move greedy plays in `fen` over 20 seeded tries.
fn greedy_choices(fen: &str) -> Vec<String> {
    let game = Poddavki::default();
    let pos = game.parse_position(fen).expect("test position");
    let mut rng = SmallRng::seed_from_u64(5);
    let mut seen: Vec<String> = (0..20)
        .map(|_| game.format_move(&pos, poddavki_greedy_move(&game, &pos, &mut rng)))
        .collect();
    seen.sort();
    seen.dedup();
    seen
}

#[test]
fn greedy_baseline_gives_material_away() {
    // c3-d4 forces e5:c3, after which White has nothing left and wins; c3-b4 keeps the man.
    assert_eq!(greedy_choices("W:Wc3:Be5,h8"), ["c3-d4"]);
    // a1-b2 leaves Black's a3 man blocked (b2 and c1 taken): Black to move with no move wins.
    // c1-b2 hands the man over (a3:c1); g3-f4, g3-h4 and c1-d2 give nothing.
    assert_eq!(greedy_choices("W:Wa1,c1,g3:Ba3"), ["c1-b2"]);
    // A capture is compulsory: c3:e5 stands where f6 must take it (f6:d4), c3:a5 is not taken.
    assert_eq!(greedy_choices("W:Wc3,h2:Bb4,d4,f6,g7"), ["c3:e5"]);
    // Nothing to gain anywhere: a random move, not always the same one.
    let start = Poddavki::default().start();
    let fen = Poddavki::default().format_position(&start);
    assert!(greedy_choices(&fen).len() > 3, "{:?}", greedy_choices(&fen));
}

#[test]
fn greedy_baseline_beats_random() {
    // The greedy baseline is a real opponent, not a random mover in disguise.
    let s = play_paired(
        "poddavki",
        Player::Greedy,
        Player::Random,
        40,
        33,
        MAX_PLIES,
        OPENING_PLIES,
    );
    eprintln!("poddavki greedy vs random, 40 games: {s}");
    assert!(s.wins >= 30 && s.wins >= 5 * s.losses, "{s}");
}

pub(crate) fn engine(limits: Limits) -> Player {
    Player::Engine(limits)
}

// Quick versions: node-limited (deterministic), 20 games each.

#[test]
fn quick_match_vs_random() {
    let s = play_paired(
        "poddavki",
        engine(node_limit(10_000)),
        Player::Random,
        20,
        31,
        MAX_PLIES,
        OPENING_PLIES,
    );
    eprintln!("poddavki 10000 nodes vs random, 20 games: {s}");
    assert!(s.wins >= 19, "{s}");
}

#[test]
fn quick_match_vs_greedy() {
    let s = play_paired(
        "poddavki",
        engine(node_limit(10_000)),
        Player::Greedy,
        20,
        32,
        MAX_PLIES,
        OPENING_PLIES,
    );
    eprintln!("poddavki 10000 nodes vs greedy, 20 games: {s}");
    assert!(s.wins >= 19, "{s}");
}
