//! Phutball's 100-game matches at 100 ms a move, the acceptance criteria of its issue.

use crate::baselines::{movetime, play_match, Opponent};
use crate::phutball_play::MAX_PLIES;

pub fn full_match_vs_random_100ms() {
    let s = play_match(
        "phutball",
        Opponent::Random,
        movetime(100),
        100,
        2026,
        MAX_PLIES,
    );
    eprintln!("phutball 100 ms vs random, 100 games: {s}");
    assert!(s.wins >= 95, "{s}");
}

pub fn full_match_vs_greedy_100ms() {
    let s = play_match(
        "phutball",
        Opponent::Greedy,
        movetime(100),
        100,
        2027,
        MAX_PLIES,
    );
    eprintln!("phutball 100 ms vs greedy, 100 games: {s}");
    assert!(s.wins >= 95, "{s}");
}
