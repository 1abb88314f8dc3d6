//! Pods acceptance: standard endgames through the binary (GTP `genmove` at 100 ms) checked
//! against an exhaustive solver written here (not the engine's), and matches of both rule sets
//! against a random mover and the greedy baselines, alternating colours and rotations.
//!
//! Full 100-game matches at 100 ms per move (minutes each) are a program, examples/long_runs,
//! which plays them one at a time:
//! `cargo run --release --features long-runs --example long_runs -- pods_play::full_`
//! (the second-mover match alone: `... pods_play::full_standard_second_vs_greedy_100ms`)

use crate::baselines;
use crate::common;
use crate::pods_baselines;

use baselines::{node_limit, Score};
use common::Engine;
use pods_baselines::{
    advanced_greedy_move, in_hand, in_play, play_between, play_seated, plies_left_bound,
    rotation_of, schedule, standard_greedy_move, start_string, Player, Solver, ROTATIONS,
};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tetrad::games::pods::{Pods, PodsRules};
use tetrad::games::prelude::*;
use tetrad::games::{Outcome, Side};
use tetrad::search::Limits;

/// Standard endgames in which the side to move wins, and in each of which at least half of
/// the legal moves throw the win away. "At most 10 plies left" means at most 10 pods in the two
/// hands together: every standard move places a pod from a hand, so no continuation is longer.
/// Made by `generate_endgames` (seeded random games from randomly rotated starts, cut at 10 or
/// 9 pods in hand); the properties are checked again below, not trusted.
const WINNING: [&str; 24] = [
    "3a1l/M2e2/JB1LC1/j1DKEi/g1GF1d/c4b b AHIN fhkmn 90",
    "Ff1LK1/1iB2E/G1h2H/N1c1AM/2l3/1k1amn b CDIJ bdegj 90",
    "1LE2F/C2A2/g2i1I/d1nh1B/1k3K/j1la1H w DGJMN bcefm 0",
    "EDH1G1/2CLNB/j4M/ni1k1J/h1m3/1c1f1d b AFIK abegl 0",
    "hfk1IL/m1g1M1/e3E1/1i2B1/3DCN/1al2K w AFGHJ bcdjn 180",
    "EG1L1K/1cMB2/1D2f1/1IJ1dF/1hg3/m2lkj b ACHN abein 90",
    "b5/a2KEJ/gcM1N1/1D2GH/lm1F1A/n2e1j b BCIL dfhik 180",
    "1K1L2/D2CFl/GHB2k/2J1eg/1h2mb/2j1n1 w AEIMN acdfi 180",
    "A2J1j/2NG2/EF2e1/BKL1l1/5a/1gnfdb w CDHIM chikm 270",
    "1k2ad/3c1m/G2J1j/MBE2e/H1n1C1/N1f1I1 w ADFKL bghil 270",
    "2FJKL/f2AH1/1Ddje1/3b2/mC3B/1akg1G b EIMN chiln 0",
    "K2N1G/1fLFD1/A2E2/ie2Hl/mn1d1c/3B1b b CIJM aghjk 90",
    "KLAJ1n/3b1g/ck1fa1/3iB1/1ED2e/1GIC2 b FHMN dhjlm 180",
    "1N1JC1/1KD3/A1F2B/2E1fh/2nge1/kbi2c w GHILM adjlm 90",
    "2ih2/1bmc1F/Edg2C/4LJ/1af1IH/A2GB1 b DKMN ejkln 270",
    "H2h1b/j4f/lLDN1i/a4e/m1GEA1/2CJB1 b FIKM cdgkn 270",
    "1Dd1i1/4b1/n1f1FG/cj2CA/g2J2/h1MBHI b EKLN aeklm 0",
    "L2E2/D1fhbd/1Minc1/A5/N2e1a/HF1B1C b GIJK gjklm 180",
    "1H1J1D/1K1LF1/1A1MC1/G4a/b1jk2/fil1ne b BEIN cdghm 180",
    "L1K2n/H1h1M1/NEd3/A3C1/4B1/lmaejc w DFGIJ bfgik 0",
    "B1AH2/DE1J1G/3C2/3Ial/g3ki/n1jfd1 w FKLMN bcehm 0",
    "K1E1hn/1GB2j/FND3/H2C1m/1J1b2/la1dg1 b AILM cefik 180",
    "1EN2D/C2AM1/5B/g1ljLH/1nf2I/1ebc1a b FGJK dhikm 0",
    "D1h1M1/BE3I/1Lem1G/d2b1A/ij4/1g1cCH b FJKN afkln 0",
];

/// Standard endgames (same making) that the side to move loses whatever it plays.
const LOSING: [&str; 8] = [
    "D1L2E/G1FC2/KB3m/1H1gib/1d2f1/h3nc w AIJMN aejkl 180",
    "3HNE/c1l3/m1a1IK/f1D2F/1BA1G1/1dh1jk b CJLM begin 90",
    "1JGA2/1B1L1n/INFK1k/4i1/eh2l1/1afd2 w CDEHM bcgjm 270",
    "CDB1I1/1A1LM1/K1b3/F3el/1c2gi/1kn1a1 w EGHJN dfhjm 270",
    "1fkd1j/2ab1n/2C3/A1DB1g/L2G1e/JH1FE1 b IKMN chilm 180",
    "hidk2/a3IH/4DB/1n2M1/g3GK/ml2CF w AEJLN bcefj 0",
    "1k1HCN/3BK1/IMGA1g/4m1/1lc2b/1a1fi1 w DEFJL dehjn 270",
    "MKL1e1/1BD3/1EN1nd/h3m1/1g3b/kf1F1A w CGHIJ acijl 270",
];

/// Plies after which an advanced game counts as a draw (repetition is no rule there; decided
/// games are far shorter). Standard games end within 28 plies anyway.
pub(crate) const MAX_PLIES: u32 = 400;

fn engine() -> Engine {
    let mut e = Engine::start(&["--game", "pods"]);
    assert_eq!(e.gtp("set_game pods"), "=");
    e
}

/// The move `genmove` plays in `fen` at depth 4 (not a time: the answer must not depend on
/// the machine's load), and the position the engine reports after it.
fn genmove(e: &mut Engine, fen: &str) -> (String, String) {
    assert_eq!(e.gtp(&format!("set_position {fen}")), "=");
    assert_eq!(e.gtp("set_option depth 4"), "=");
    let answer = e.gtp("genmove");
    let mv = answer
        .strip_prefix("= ")
        .unwrap_or_else(|| panic!("no move for {fen}: {answer}"))
        .to_string();
    let after = e.gtp("get_position");
    let after = after.strip_prefix("= ").unwrap_or(&after).to_string();
    (mv, after)
}

#[test]
fn endgames_are_what_they_claim() {
    let mut solver = Solver::new();
    let game = solver.game().clone();
    let mut rotations = Vec::new();
    let mut sides = Vec::new();
    for (fen, wins) in WINNING
        .iter()
        .map(|f| (f, true))
        .chain(LOSING.iter().map(|f| (f, false)))
    {
        let pos = game.parse_position(fen).expect("endgame parses");
        assert_eq!(&game.format_position(&pos), fen, "canonical");
        assert!(plies_left_bound(fen) <= 10, "{fen}: too many pods in hand");
        let moves = solver.moves(&pos);
        assert!(
            !moves.is_empty() && game.terminal(&pos).is_none(),
            "{fen}: over"
        );
        assert_eq!(solver.wins(&pos), wins, "{fen}");
        if wins {
            let losing = moves
                .iter()
                .filter(|&&m| !solver.move_wins(&pos, m))
                .count();
            assert!(
                2 * losing >= moves.len(),
                "{fen}: {losing}/{} lose",
                moves.len()
            );
        }
        rotations.push(rotation_of(fen).expect("rotation"));
        sides.push(game.side_to_move(&pos));
    }
    for r in ROTATIONS {
        assert!(rotations.contains(&r), "no endgame with rotation {r}");
    }
    assert!(sides.contains(&Side::P1) && sides.contains(&Side::P2));
    eprintln!("pods endgames: {} positions solved", solver.solved());
}

/// The solver against positions whose value the rules give directly.
#[test]
fn solver_scores_game_ends_by_the_rules() {
    let mut solver = Solver::new();
    let game = solver.game().clone();
    let mut rng = SmallRng::seed_from_u64(5);
    for i in 0..20 {
        let mut pos = game
            .parse_position(&start_string(ROTATIONS[i % 4]))
            .expect("start");
        let mut before = None;
        while !solver.moves(&pos).is_empty() {
            let moves = solver.moves(&pos);
            before = Some(pos);
            pos = game.make(&pos, moves[rng.gen_range(0..moves.len())]);
        }
        // No placement: the side to move has lost ...
        assert!(!solver.wins(&pos));
        // ... so the position before it was won for the player who made the last move.
        let before = before.expect("a game has moves");
        assert!(solver.wins(&before));
    }
}

#[test]
fn genmove_keeps_the_win_in_standard_endgames() {
    let mut solver = Solver::new();
    let game = solver.game().clone();
    let mut e = engine();
    let mut failures = Vec::new();
    for (fen, wins) in WINNING
        .iter()
        .map(|f| (f, true))
        .chain(LOSING.iter().map(|f| (f, false)))
    {
        let pos = game.parse_position(fen).expect("endgame parses");
        let (text, reported) = genmove(&mut e, fen);
        let mv = match game.parse_move(&pos, &text) {
            Ok(mv) => mv,
            Err(err) => {
                failures.push(format!("{fen}: {text}: {err}"));
                continue;
            }
        };
        let after = game.make(&pos, mv);
        if reported != game.format_position(&after) {
            failures.push(format!("{fen}: after {text} the engine reports {reported}"));
        }
        if wins && !solver.move_wins(&pos, mv) {
            failures.push(format!("{fen}: {text} throws the win away"));
        }
    }
    eprintln!(
        "pods standard endgames at 100 ms: {} positions, {} failures",
        WINNING.len() + LOSING.len(),
        failures.len()
    );
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The engine with `limits` against `opp` over `games` games (colours and rotations by
/// `schedule`); the score is the engine's.
pub(crate) fn engine_vs(
    advanced: bool,
    opp: Player,
    limits: Limits,
    games: u32,
    seed: u64,
) -> Score {
    play_between(
        advanced,
        Player::Engine(limits),
        opp,
        games,
        seed,
        MAX_PLIES,
    )
}

pub(crate) fn report(what: &str, s: Score) -> Score {
    eprintln!("{what}: {s}");
    s
}

#[test]
fn schedule_alternates_colours_and_rotations() {
    let firsts: Vec<(Side, u32)> = (0..8).map(schedule).collect();
    for side in [Side::P1, Side::P2] {
        for r in ROTATIONS {
            assert!(firsts.contains(&(side, r)), "{side:?} {r}");
        }
    }
}

#[test]
fn standard_greedy_leaves_fewest_replies() {
    let game = Pods::new(PodsRules::Standard);
    let mut rng = SmallRng::seed_from_u64(3);
    for fen in WINNING.iter().chain(&LOSING) {
        let pos = game.parse_position(fen).expect("endgame parses");
        let replies = |m| {
            let mut r = Vec::new();
            game.legal_moves(&game.make(&pos, m), &mut r);
            r.len()
        };
        let mut moves = Vec::new();
        game.legal_moves(&pos, &mut moves);
        let fewest = moves.iter().map(|&m| replies(m)).min();
        let m = standard_greedy_move(&game, &pos, &mut rng);
        assert!(moves.contains(&m));
        assert_eq!(Some(replies(m)), fewest, "{fen}");
    }
}

#[test]
fn advanced_greedy_empties_its_hand_then_removes() {
    let game = Pods::new(PodsRules::Advanced);
    let mut rng = SmallRng::seed_from_u64(4);
    let mut checked = 0;
    for i in 0..20 {
        let mut pos = game
            .parse_position(&start_string(ROTATIONS[i % 4]))
            .expect("start");
        for _ in 0..60 {
            let mut moves = Vec::new();
            game.legal_moves(&pos, &mut moves);
            if moves.is_empty() || game.terminal(&pos).is_some() {
                break;
            }
            let me = game.side_to_move(&pos);
            let key = |m| {
                let after = game.make(&pos, m);
                let won = game.terminal(&after).map(|t| t.outcome) == Some(Outcome::Win(me));
                let fen = game.format_position(&after);
                (!won, in_hand(&fen, me), in_play(&fen, me.other()))
            };
            let best = moves.iter().map(|&m| key(m)).min();
            let m = advanced_greedy_move(&game, &pos, &mut rng);
            assert!(moves.contains(&m));
            assert_eq!(Some(key(m)), best);
            checked += 1;
            pos = game.make(&pos, moves[rng.gen_range(0..moves.len())]);
        }
    }
    assert!(checked > 200);
}

/// The baselines are real opponents: both beat a random mover clearly.
#[test]
fn greedy_baselines_beat_random() {
    for advanced in [false, true] {
        let s = report(
            &format!("pods advanced={advanced} greedy vs random, 20 games"),
            play_between(advanced, Player::Greedy, Player::Random, 20, 9, MAX_PLIES),
        );
        assert!(s.wins >= 16, "{s}");
    }
}

// Quick deterministic matches (node limits; thresholds scaled from the 95% / 75%).

#[test]
fn quick_standard_vs_random() {
    let s = report(
        "pods standard 2000 nodes vs random, 20 games",
        engine_vs(false, Player::Random, node_limit(2_000), 20, 11),
    );
    assert!(s.wins >= 19, "{s}");
}

#[test]
fn quick_standard_vs_greedy() {
    let s = report(
        "pods standard 2000 nodes vs greedy, 20 games",
        engine_vs(false, Player::Greedy, node_limit(2_000), 20, 12),
    );
    assert!(s.wins >= 15, "{s}");
}

/// The second mover (Black) alone: the first mover seems to win by force, so this is the
/// harder half of the match above.
#[test]
fn quick_standard_second_vs_greedy() {
    let s = report(
        "pods standard 2000 nodes as Black vs greedy, 20 games",
        play_seated(
            false,
            Player::Engine(node_limit(2_000)),
            Player::Greedy,
            20,
            15,
            MAX_PLIES,
            Some(Side::P2),
        ),
    );
    assert!(s.wins >= 19, "{s}");
}

#[test]
fn quick_advanced_vs_random() {
    let s = report(
        "pods advanced 2000 nodes vs random, 20 games",
        engine_vs(true, Player::Random, node_limit(2_000), 20, 13),
    );
    assert!(s.wins >= 19, "{s}");
}

#[test]
fn quick_advanced_vs_greedy() {
    let s = report(
        "pods advanced 2000 nodes vs greedy, 20 games",
        engine_vs(true, Player::Greedy, node_limit(2_000), 20, 14),
    );
    assert!(s.wins >= 15, "{s}");
}
