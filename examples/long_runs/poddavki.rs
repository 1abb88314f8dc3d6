//! Poddavki's 100-game matches: at 100 ms a move (the acceptance criteria of its issue) and
//! at fixed node counts (the figures of docs/strength/poddavki.md).

use crate::baselines::{movetime, node_limit, play_paired, Player};
use crate::poddavki_play::{engine, MAX_PLIES, OPENING_PLIES};

pub fn full_match_vs_random_100ms() {
    let s = play_paired(
        "poddavki",
        engine(movetime(100)),
        Player::Random,
        100,
        4026,
        MAX_PLIES,
        OPENING_PLIES,
    );
    eprintln!("poddavki 100 ms vs random, 100 games: {s}");
    assert!(s.wins >= 95, "{s}");
}

pub fn full_match_vs_greedy_100ms() {
    let s = play_paired(
        "poddavki",
        engine(movetime(100)),
        Player::Greedy,
        100,
        4027,
        MAX_PLIES,
        OPENING_PLIES,
    );
    eprintln!("poddavki 100 ms vs greedy, 100 games: {s}");
    assert!(s.wins >= 95, "{s}");
}

/// The fixed-node figures of docs/strength/poddavki.md, one match at a time: 100 games of
/// `TETRAD_PODDAVKI_PLAYER` (a node count a move, default 10000, or `greedy` for the baseline
/// itself) against `TETRAD_PODDAVKI_OPPONENT` (`greedy`, the default, or `random`), seed
/// `TETRAD_PODDAVKI_SEED` (default 1). Deterministic, so not timed.
pub fn fixed_nodes_100_games() {
    let var = |name: &str, default: &str| std::env::var(name).unwrap_or_else(|_| default.into());
    let player = var("TETRAD_PODDAVKI_PLAYER", "10000");
    let a = match player.as_str() {
        "greedy" => Player::Greedy,
        n => engine(node_limit(n.parse().expect("a node count or greedy"))),
    };
    let opponent = var("TETRAD_PODDAVKI_OPPONENT", "greedy");
    let b = match opponent.as_str() {
        "greedy" => Player::Greedy,
        "random" => Player::Random,
        other => panic!("opponent greedy or random, not {other}"),
    };
    let seed = var("TETRAD_PODDAVKI_SEED", "1").parse().expect("a seed");
    let s = play_paired("poddavki", a, b, 100, seed, MAX_PLIES, OPENING_PLIES);
    eprintln!("poddavki {player} vs {opponent}, seed {seed}, 100 games: {s}");
    assert!(s.wins >= 95, "{s}");
}
