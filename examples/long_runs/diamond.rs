//! Diamond's 100-game matches at 100 ms a move, the acceptance criteria of its issue.

use crate::baselines::{movetime, play_match, Opponent};
use crate::diamond_play::MAX_PLIES;

pub fn full_match_vs_random_100ms() {
    let s = play_match(
        "diamond",
        Opponent::Random,
        movetime(100),
        100,
        3026,
        MAX_PLIES,
    );
    eprintln!("diamond 100 ms vs random, 100 games: {s}");
    assert!(s.wins >= 95, "{s}");
}

pub fn full_match_vs_greedy_100ms() {
    let s = play_match(
        "diamond",
        Opponent::Greedy,
        movetime(100),
        100,
        3027,
        MAX_PLIES,
    );
    eprintln!("diamond 100 ms vs greedy, 100 games: {s}");
    assert!(s.wins >= 95, "{s}");
}
