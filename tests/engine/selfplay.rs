//! Strength sanity checks: the engine at a fixed depth against a uniformly random mover,
//! alternating colours, seeded (deterministic and quick; real time controls go through the arena).

use crate::baselines;

use baselines::{play_between, Player};
use tetrad::search::Limits;

#[test]
fn poddavki_depth4_beats_random() {
    let depth4 = Player::Engine(Limits {
        depth: Some(4),
        ..Limits::default()
    });
    let score = play_between("poddavki", depth4, Player::Random, 100, 2026, 400);
    eprintln!("poddavki depth 4 vs random: {score}");
    assert!(score.wins >= 95, "{score}");
}
