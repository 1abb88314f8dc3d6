//! Phutball acceptance: tactical suites through the binary (GTP `genmove`), and matches
//! against a random mover and a greedy baseline. Every engine move is checked with the rules
//! library by brute force, never by what the engine says about it.
//!
//! Full 100-game matches at 100 ms per move (minutes each) are a program, examples/long_runs:
//! `cargo run --release --features long-runs --example long_runs -- phutball_play::full_`

use crate::baselines;
use crate::common;

use baselines::{node_limit, phutball_greedy_move, play_between, play_match, Opponent, Player};
use common::Engine;
use rand::rngs::SmallRng;
use rand::SeedableRng;
use tetrad::games::phutball::suites::{side_of, stops_threat, SCORE_IN_ONE, STOP_THE_THREAT};
use tetrad::games::phutball::{Move, Phutball};
use tetrad::games::prelude::*;
use tetrad::games::{Outcome, Side};

/// Plies after which a game counts as a draw: far beyond how long a decided game lasts.
pub(crate) const MAX_PLIES: u32 = 300;

fn engine() -> Engine {
    let mut e = Engine::start(&["--game", "phutball"]);
    assert_eq!(e.gtp("set_game phutball"), "=");
    e
}

/// The move `genmove` plays in `position` with the option `limit` (`depth 1`, ...).
fn suggest(e: &mut Engine, position: &str, limit: &str) -> String {
    assert_eq!(e.gtp(&format!("set_position {position}")), "=");
    for opt in ["depth", "movetime", "nodes"] {
        assert_eq!(e.gtp(&format!("set_option {opt} 0")), "=", "{opt}");
    }
    assert_eq!(e.gtp(&format!("set_option {limit}")), "=", "{limit}");
    let answer = e.gtp("genmove");
    answer
        .strip_prefix("= ")
        .unwrap_or_else(|| panic!("no move for {position}: {answer}"))
        .to_string()
}

fn scores_now(game: &Phutball, position: &str, text: &str) -> Result<(), String> {
    let pos = game.parse_position(position).map_err(|e| e.to_string())?;
    let mv = game.parse_move(&pos, text).map_err(|e| e.to_string())?;
    let after = game.make(&pos, mv);
    match game.terminal(&after).map(|t| t.outcome) {
        Some(Outcome::Win(s)) if s == pos.side => Ok(()),
        other => Err(format!("{text} does not score (result {other:?})")),
    }
}

#[test]
fn score_in_one_at_depth_1_and_3() {
    let game = Phutball::default();
    let long = SCORE_IN_ONE.iter().filter(|s| s.min_jumps >= 4).count();
    let traps = SCORE_IN_ONE.iter().filter(|s| s.own_goal_trap).count();
    assert!(SCORE_IN_ONE.len() >= 30 && long >= 4 && traps >= 4);
    let mut e = engine();
    let mut failures = Vec::new();
    for s in SCORE_IN_ONE.iter() {
        let winner = if side_of(&game, s.position) == Some(Side::P1) {
            "red"
        } else {
            "blue"
        };
        for limit in ["depth 1", "depth 3"] {
            let mv = suggest(&mut e, s.position, limit);
            if let Err(why) = scores_now(&game, s.position, &mv) {
                failures.push(format!("{} ({limit}): {why}", s.name));
            }
            // The engine's own referee agrees.
            let result = e.gtp("game_result");
            if !result.starts_with(&format!("= {winner}")) {
                failures.push(format!("{} ({limit}): game_result {result}", s.name));
            }
        }
    }
    eprintln!(
        "phutball score in one: {long} positions need 4+ jumps, {traps} have an own-goal trap"
    );
    eprintln!(
        "phutball score in one: {}/{} searches scored ({} positions, depth 1 and 3)",
        2 * SCORE_IN_ONE.len() - failures.len(),
        2 * SCORE_IN_ONE.len(),
        SCORE_IN_ONE.len()
    );
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn stop_the_threat_at_depth_2() {
    let game = Phutball::default();
    assert!(STOP_THE_THREAT.len() >= 30);
    let mut e = engine();
    let mut failures = Vec::new();
    for s in STOP_THE_THREAT.iter() {
        let pos = game.parse_position(s.position).expect("suite position");
        // The position is what it claims: the opponent could score if it were his move.
        let mut flipped = pos;
        flipped.side = pos.side.other();
        flipped.hash = flipped.scratch_hash();
        assert!(
            game.winning_move(&flipped).is_some(),
            "{}: no threat",
            s.name
        );
        let stopper = game.parse_move(&pos, s.stopper).expect("stopper parses");
        assert!(matches!(stopper, Move::Place(_)), "{}", s.name);
        assert!(stops_threat(&game, &pos, stopper), "{}", s.name);
        // ... and not every move does (the check below can fail).
        let mut moves = Vec::new();
        game.legal_moves(&pos, &mut moves);
        assert!(
            moves.iter().any(|&m| !stops_threat(&game, &pos, m)),
            "{}: every move stops the threat",
            s.name
        );

        let text = suggest(&mut e, s.position, "depth 2");
        match game.parse_move(&pos, &text) {
            Ok(mv) if stops_threat(&game, &pos, mv) => {}
            Ok(_) => failures.push(format!("{}: {text} lets the opponent score", s.name)),
            Err(err) => failures.push(format!("{}: {text}: {err}", s.name)),
        }
    }
    eprintln!(
        "phutball stop the threat: {}/{} stopped",
        STOP_THE_THREAT.len() - failures.len(),
        STOP_THE_THREAT.len()
    );
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn greedy_baseline_scores_when_it_can() {
    let game = Phutball::default();
    let mut rng = SmallRng::seed_from_u64(1);
    for s in SCORE_IN_ONE.iter() {
        let pos = game.parse_position(s.position).expect("suite position");
        let mv = phutball_greedy_move(&game, &pos, &mut rng);
        assert!(
            scores_now(&game, s.position, &game.format_move(&pos, mv)).is_ok(),
            "{}",
            s.name
        );
    }
    // Nothing to jump: a placement next to the ball.
    let start = game.start();
    for _ in 0..20 {
        let mv = phutball_greedy_move(&game, &start, &mut rng);
        let text = game.format_move(&start, mv);
        assert!(
            ["g9", "h9", "i9", "g10", "i10", "g11", "h11", "i11"].contains(&text.as_str()),
            "{text}"
        );
    }
    // Red to move, ball h10 with a man on h11 (jump to h12) and one on h9 (jump back to h8):
    // greedy goes forward.
    let pos = game
        .parse_position("15/15/15/15/15/15/15/15/15/7X7/7O7/7X7/15/15/15/15/15/15/15/15/15 r")
        .expect("position");
    let mv = phutball_greedy_move(&game, &pos, &mut rng);
    assert_eq!(game.format_move(&pos, mv), "h10-h12");
}

#[test]
fn greedy_baseline_beats_random() {
    // The greedy baseline is a real opponent, not a random mover in disguise.
    let s = play_between(
        "phutball",
        Player::Greedy,
        Player::Random,
        40,
        13,
        MAX_PLIES,
    );
    eprintln!("phutball greedy vs random, 40 games: {s}");
    assert!(s.wins >= 30, "{s}");
}

// Quick versions: node-limited (deterministic), 20 games each, alternating colours.

#[test]
fn quick_match_vs_random() {
    let s = play_match(
        "phutball",
        Opponent::Random,
        node_limit(3_000),
        20,
        11,
        MAX_PLIES,
    );
    eprintln!("phutball 3000 nodes vs random, 20 games: {s}");
    assert!(s.wins >= 19, "{s}");
}

#[test]
fn quick_match_vs_greedy() {
    let s = play_match(
        "phutball",
        Opponent::Greedy,
        node_limit(3_000),
        20,
        12,
        MAX_PLIES,
    );
    eprintln!("phutball 3000 nodes vs greedy, 20 games: {s}");
    assert!(s.wins >= 15, "{s}");
}
