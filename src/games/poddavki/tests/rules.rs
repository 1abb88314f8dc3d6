//! Hashing, the end of the game, the house draw rules and their switches, playouts.

use std::collections::HashSet;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::pos;
use crate::games::poddavki::board::{Move, Position};
use crate::games::poddavki::Poddavki;
use crate::games::prelude::*;
use crate::games::{generic_playout, outcome, DrawTracker, Outcome, RuleError, Side};

fn moves(g: &Poddavki, p: &Position) -> Vec<Move> {
    let mut v = Vec::new();
    g.legal_moves(p, &mut v);
    v
}

#[test]
fn incremental_hash_matches_a_fresh_computation_along_random_games() {
    let g = Poddavki::default();
    let mut rng = SmallRng::seed_from_u64(5);
    let mut seen = HashSet::new();
    for _ in 0..300 {
        let mut p = g.start();
        for _ in 0..200 {
            let ms = moves(&g, &p);
            if ms.is_empty() {
                break;
            }
            let next = g.make(&p, ms[rng.gen_range(0..ms.len())]);
            assert_eq!(g.hash(&next), next.compute_hash());
            let reparsed = g.parse_position(&g.format_position(&next));
            assert_eq!(reparsed.map(|r| r.hash), Ok(next.hash));
            seen.insert((next.pieces, next.kings, next.stm, next.hash));
            p = next;
        }
    }
    // Distinct positions got distinct hashes.
    let hashes: HashSet<u64> = seen.iter().map(|s| s.3).collect();
    assert_eq!(hashes.len(), seen.len());
}

#[test]
fn side_to_move_changes_the_hash() {
    let w = pos("W:Wc3:Bf6");
    let b = pos("B:Wc3:Bf6");
    assert_ne!(w.hash, b.hash);
}

#[test]
fn a_side_without_pieces_or_moves_wins() {
    let g = Poddavki::default();
    for (fen, winner) in [
        ("W:W:Bc5", Side::P1),
        ("B:Wc3:B", Side::P2),
        // White's only man is blocked: b4 taken, and c5 behind it is occupied.
        ("W:Wa3:Bb4,c5", Side::P1),
        ("B:Wg5,f4:Bh6", Side::P2),
    ] {
        let p = pos(fen);
        assert!(moves(&g, &p).is_empty(), "{fen}");
        let t = outcome(&g, &p, &DrawTracker::new(p.hash));
        assert_eq!(
            t.map(|t| (t.outcome, t.reason)),
            Some((Outcome::Win(winner), "no-moves"))
        );
    }
    assert_eq!(g.terminal(&pos("W:W:Bc5")), None);
    let p = g.start();
    assert_eq!(outcome(&g, &p, &DrawTracker::new(p.hash)), None);
}

/// Plays `texts` from `p`, returning the final position, the tracker, and the outcome after
/// every ply.
fn play_line(
    g: &Poddavki,
    p: &Position,
    texts: &[&str],
) -> (Position, DrawTracker, Vec<Option<&'static str>>) {
    let mut p = *p;
    let mut tracker = DrawTracker::new(p.hash);
    let mut results = Vec::new();
    for t in texts {
        let m = match g.parse_move(&p, t) {
            Ok(m) => m,
            Err(e) => panic!("{t}: {e}"),
        };
        let progress = g.is_progress(&p, m);
        p = g.make(&p, m);
        tracker.push(p.hash, progress);
        results.push(outcome(g, &p, &tracker).map(|t| t.reason));
    }
    (p, tracker, results)
}

const SHUFFLE: [&str; 4] = ["c1-d2", "h8-g7", "d2-c1", "g7-h8"];

#[test]
fn third_repetition_draws() {
    let g = Poddavki::default();
    let line: Vec<&str> = SHUFFLE.iter().cycle().take(8).copied().collect();
    let (_, tracker, results) = play_line(&g, &pos("W:WKc1:BKh8"), &line);
    assert_eq!(results[..7], [None; 7]);
    assert_eq!(results[7], Some("repetition"));
    assert_eq!(tracker.occurrences(), 3);
    let t = outcome(&g, &pos("W:WKc1:BKh8"), &tracker);
    assert_eq!(t.map(|t| t.outcome), Some(Outcome::Draw));
}

#[test]
fn repetition_switch() {
    let mut g = Poddavki::default();
    assert_eq!(g.set_option("draw_repetition", "off"), Ok(true));
    let line: Vec<&str> = SHUFFLE.iter().cycle().take(29).copied().collect();
    let (_, _, results) = play_line(&g, &pos("W:WKc1:BKh8"), &line);
    assert!(results.iter().all(|r| r.is_none()), "{results:?}");
}

#[test]
fn thirty_quiet_plies_draw() {
    let mut g = Poddavki::default();
    assert_eq!(g.set_option("draw_repetition", "false"), Ok(true));
    let line: Vec<&str> = SHUFFLE.iter().cycle().take(30).copied().collect();
    let (_, tracker, results) = play_line(&g, &pos("W:WKc1:BKh8"), &line);
    assert_eq!(results[..29], [None; 29]);
    assert_eq!(results[29], Some("no-progress"));
    assert_eq!(tracker.quiet_plies(), 30);
    assert_eq!(g.set_option("draw_no_progress", "0"), Ok(true));
    let (_, _, results) = play_line(&g, &pos("W:WKc1:BKh8"), &line);
    assert_eq!(results[29], None);
}

#[test]
fn thirty_quiet_plies_draw_without_any_repetition() {
    // Wander with two kings a side, never visiting a position twice and never allowing a
    // capture, so only the no-progress count can end it.
    let g = Poddavki::default();
    let mut p = pos("W:WKc1,Ka3:BKh8,Kf8");
    let mut tracker = DrawTracker::new(p.hash);
    let mut seen = HashSet::from([p.hash]);
    for ply in 1..=30 {
        let m = moves(&g, &p)
            .into_iter()
            .find(|&m| {
                let n = g.make(&p, m);
                !m.is_capture()
                    && !seen.contains(&n.hash)
                    && moves(&g, &n).iter().all(|x| !x.is_capture())
            })
            .unwrap_or_else(|| panic!("stuck at ply {ply}"));
        assert!(!g.is_progress(&p, m));
        p = g.make(&p, m);
        seen.insert(p.hash);
        tracker.push(p.hash, false);
        let r = outcome(&g, &p, &tracker).map(|t| t.reason);
        assert_eq!(
            r,
            if ply == 30 { Some("no-progress") } else { None },
            "ply {ply}"
        );
    }
}

#[test]
fn man_moves_and_captures_are_progress() {
    let g0 = Poddavki::default();
    let p = pos("W:Wc3,Ke1:Bh8");
    let ms = moves(&g0, &p);
    for m in &ms {
        assert_eq!(
            g0.is_progress(&p, *m),
            m.from == 9,
            "{}",
            g0.format_move(&p, *m)
        );
    }
    let p = pos("W:WKa1:Bc3");
    assert!(moves(&g0, &p).iter().all(|&m| g0.is_progress(&p, m)));
    // A man move after 28 quiet plies restarts the count (repetitions switched off).
    let mut g = Poddavki::default();
    g.set_option("draw_repetition", "off").ok();
    let mut line: Vec<&str> = SHUFFLE.iter().cycle().take(28).copied().collect();
    line.extend(["a5-b6", "h8-g7", "c1-d2"]);
    let (_, tracker, results) = play_line(&g, &pos("W:WKc1,a5:BKh8"), &line);
    assert!(results.iter().all(|r| r.is_none()), "{results:?}");
    assert_eq!(tracker.quiet_plies(), 2);
}

#[test]
fn no_legal_move_wins_even_when_a_draw_rule_applies() {
    let g = Poddavki::default();
    let blocked = pos("W:Wa3:Bb4,c5");
    let free = pos("W:Wa3:Bb4,d6");
    for p in [blocked, free] {
        // 30 quiet plies ending in `p`, with `p` also seen twice before.
        let mut tracker = DrawTracker::new(p.hash);
        for i in 0..28u64 {
            tracker.push(if i % 2 == 1 { p.hash } else { 1000 + i }, false);
        }
        tracker.push(7, false);
        tracker.push(p.hash, false);
        assert_eq!(tracker.quiet_plies(), 30);
        assert!(tracker.occurrences() >= 3);
        let t = outcome(&g, &p, &tracker).map(|t| (t.outcome, t.reason));
        if p == blocked {
            assert_eq!(t, Some((Outcome::Win(Side::P1), "no-moves")));
        } else {
            assert_eq!(t.map(|t| t.0), Some(Outcome::Draw));
        }
    }
}

#[test]
fn options_switch_the_draw_rules() {
    let mut g = Poddavki::default();
    assert_eq!(g.draw_rules().repetition, Some(3));
    assert_eq!(g.draw_rules().no_progress_plies, Some(30));
    let values = |g: &Poddavki| {
        g.options()
            .into_iter()
            .map(|o| (o.name, o.value))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        values(&g),
        vec![
            ("draw_repetition", "true".to_string()),
            ("draw_no_progress", "true".to_string()),
            ("eval", "learned".to_string()),
            ("eval_file", "builtin".to_string())
        ]
    );
    for (value, on) in [
        ("off", false),
        ("ON", true),
        ("0", false),
        ("1", true),
        ("False", false),
        ("true", true),
    ] {
        assert_eq!(g.set_option("draw_repetition", value), Ok(true));
        assert_eq!(g.draw_rules().repetition.is_some(), on, "{value}");
        assert_eq!(g.set_option("draw_no_progress", value), Ok(true));
        assert_eq!(g.draw_rules().no_progress_plies.is_some(), on, "{value}");
    }
    assert!(matches!(
        g.set_option("draw_repetition", "maybe"),
        Err(RuleError::Option(_))
    ));
    assert_eq!(g.set_option("movetime", "100"), Ok(false));
    g.set_option("draw_no_progress", "off").ok();
    assert_eq!(values(&g)[1], ("draw_no_progress", "false".to_string()));
}

#[test]
fn fast_playout_matches_the_generic_playout() {
    let start = Poddavki::default().start();
    let mut draws = 0;
    for (rep, nop) in [("on", "on"), ("off", "on"), ("on", "off"), ("off", "off")] {
        let mut g = Poddavki::default();
        g.set_option("draw_repetition", rep).ok();
        g.set_option("draw_no_progress", nop).ok();
        for seed in 0..300u64 {
            let p = if seed % 3 == 0 {
                pos("W:WKc1,Ka3,e3:BKh8,Kf8,d6")
            } else {
                start
            };
            let max = [1000, 40, 5][seed as usize % 3];
            let mut r1 = SmallRng::seed_from_u64(seed);
            let mut r2 = SmallRng::seed_from_u64(seed);
            let fast = g.playout(&p, &mut r1, max);
            assert_eq!(
                fast,
                generic_playout(&g, &p, &mut r2, max),
                "seed {seed} {rep} {nop}"
            );
            draws += (fast == Outcome::Draw) as u32;
        }
    }
    assert!(draws > 0);
}
