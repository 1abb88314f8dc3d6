//! Pods' 100-game matches at 100 ms a move, each rule set against each baseline (the
//! acceptance criteria of its issue), and the generator of the standard endgames the tests use.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tetrad::games::prelude::*;
use tetrad::games::Side;

use crate::baselines::movetime;
use crate::pods_baselines::{
    play_seated, plies_left_bound, rotation_of, start_string, Player, Solver, ROTATIONS,
};
use crate::pods_play::{engine_vs, report, MAX_PLIES};

pub fn full_standard_vs_random_100ms() {
    let s = report(
        "pods standard 100 ms vs random, 100 games",
        engine_vs(false, Player::Random, movetime(100), 100, 4031),
    );
    assert!(s.wins >= 95, "{s}");
}

pub fn full_standard_vs_greedy_100ms() {
    let s = report(
        "pods standard 100 ms vs greedy, 100 games",
        engine_vs(false, Player::Greedy, movetime(100), 100, 4032),
    );
    assert!(s.wins >= 95, "{s}");
}

/// The second-mover criterion: Black in every game, the rotation turning each game.
pub fn full_standard_second_vs_greedy_100ms() {
    let s = report(
        "pods standard 100 ms as Black vs greedy, 100 games",
        play_seated(
            false,
            Player::Engine(movetime(100)),
            Player::Greedy,
            100,
            4035,
            MAX_PLIES,
            Some(Side::P2),
        ),
    );
    assert!(s.wins >= 95, "{s}");
}

pub fn full_advanced_vs_random_100ms() {
    let s = report(
        "pods advanced 100 ms vs random, 100 games",
        engine_vs(true, Player::Random, movetime(100), 100, 4033),
    );
    assert!(s.wins >= 95, "{s}");
}

pub fn full_advanced_vs_greedy_100ms() {
    let s = report(
        "pods advanced 100 ms vs greedy, 100 games",
        engine_vs(true, Player::Greedy, movetime(100), 100, 4034),
    );
    assert!(s.wins >= 95, "{s}");
}

/// Prints fresh endgame positions for `ENDGAMES` (run by hand, see there): seeded random games
/// from randomly rotated starts, each cut at its first position with at most 10 (or 9) pods in hand; winning positions are
/// kept when at least half of the moves throw the win away.
pub fn generate_endgames() {
    let mut solver = Solver::new();
    let game = solver.game().clone();
    let mut rng = SmallRng::seed_from_u64(2026);
    let (mut won, mut lost) = (Vec::new(), Vec::new());
    let mut tries = 0;
    while (won.len() < 24 || lost.len() < 8) && tries < 2000 {
        tries += 1;
        let rotation = ROTATIONS[rng.gen_range(0..4)];
        let mut pos = game.parse_position(&start_string(rotation)).expect("start");
        // White or Black to move: 10 or 9 pods left.
        let cut = rng.gen_range(9..=10);
        while plies_left_bound(&game.format_position(&pos)) > cut {
            let moves = solver.moves(&pos);
            if moves.is_empty() {
                break;
            }
            pos = game.make(&pos, moves[rng.gen_range(0..moves.len())]);
        }
        let moves = solver.moves(&pos);
        if moves.is_empty() {
            continue;
        }
        let fen = game.format_position(&pos);
        if solver.wins(&pos) {
            let losing = moves
                .iter()
                .filter(|&&m| !solver.move_wins(&pos, m))
                .count();
            if 2 * losing >= moves.len() && won.len() < 24 && !won.contains(&fen) {
                eprintln!("win, {losing}/{} moves lose: {fen}", moves.len());
                won.push(fen);
            }
        } else if lost.len() < 8 && !lost.contains(&fen) {
            eprintln!("loss, {} moves: {fen}", moves.len());
            lost.push(fen);
        }
    }
    for fen in won.iter().chain(&lost) {
        println!("    \"{fen}\",");
    }
    eprintln!("{tries} games, {} positions solved", solver.solved());
    assert!(won.iter().chain(&lost).all(|f| rotation_of(f).is_some()));
}
