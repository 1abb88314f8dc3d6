//! The exact solver for standard Pods against plain minimax on a suite of endgames, and the
//! root restriction the search sees.

use std::collections::HashMap;

use rand::{Rng, SeedableRng};

use super::{at, env_or, game, searched_line};
use crate::games::pods::naive::{self, Naive};
use crate::games::pods::*;
use crate::games::prelude::*;
use crate::testkit::negamax_with;

const SUITE: &str = include_str!("endgames.txt");

/// (position, claimed verdict) pairs of the suite file.
fn suite() -> Vec<(String, bool)> {
    SUITE
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (pos, note) = l.split_once('#').unwrap_or((l, ""));
            (pos.trim().to_string(), note.trim().starts_with("win"))
        })
        .collect()
}

/// Longest game from `pos`, memoised; `None` past `limit` distinct positions.
fn longest(g: &Pods, pos: &Pos, memo: &mut HashMap<u64, u32>, limit: usize) -> Option<u32> {
    if let Some(&v) = memo.get(&pos.hash) {
        return Some(v);
    }
    if memo.len() > limit {
        return None;
    }
    let mut moves = vec![];
    g.legal_moves(pos, &mut moves);
    let mut v = 0;
    for &m in &moves {
        v = v.max(1 + longest(g, &g.make(pos, m), memo, limit)?);
    }
    memo.insert(pos.hash, v);
    Some(v)
}

/// Plain minimax, no table, no ordering: does the side to move win?
fn brute_wins(g: &Pods, pos: &Pos, nodes: &mut u64) -> bool {
    *nodes += 1;
    let mut moves = vec![];
    g.legal_moves(pos, &mut moves);
    moves
        .iter()
        .any(|&m| !brute_wins(g, &g.make(pos, m), nodes))
}

/// The positions of one game of uniformly random moves from a randomly rotated start, to the
/// position with no move. Lazy: each move is drawn when the next position is asked for, so a
/// caller that stops early leaves `rng` where it stopped.
fn random_game<'a>(g: &'a Pods, rng: &'a mut SmallRng) -> impl Iterator<Item = Pos> + 'a {
    let mut pos = Pos::start(rng.gen_range(0..4));
    let mut first = true;
    std::iter::from_fn(move || {
        if !first {
            let mut mv = vec![];
            g.legal_moves(&pos, &mut mv);
            if mv.is_empty() {
                return None;
            }
            pos = g.make(&pos, mv[rng.gen_range(0..mv.len())]);
        }
        first = false;
        Some(pos)
    })
}

#[test]
fn endgame_suite_solver_matches_plain_minimax() {
    let g = game(false);
    let cases = suite();
    assert!(cases.len() >= 20);
    let wins = cases.iter().filter(|c| c.1).count();
    assert!(wins >= 5 && cases.len() - wins >= 5);
    for (text, claimed) in &cases {
        let pos = at(&g, text);
        let mut memo = HashMap::new();
        let len = longest(&g, &pos, &mut memo, 1 << 20);
        assert!(len.is_some_and(|l| l <= 10), "{text}: longest {len:?}");
        let mut nodes = 0;
        let truth = brute_wins(&g, &pos, &mut nodes);
        assert_eq!(truth, *claimed, "{text}");
        let Some(sol) = g.solve(&pos, 10_000_000) else {
            panic!("{text}: solver ran out of budget");
        };
        assert_eq!(sol.win, truth, "{text}");
        let mut legal = Vec::new();
        g.legal_moves(&pos, &mut legal);
        // What the search gets at the root: only a winning move when there is one.
        let mut root = Vec::new();
        g.root_moves(&pos, &mut root);
        if truth {
            let Some(best) = sol.best else {
                panic!("{text}: no winning move given");
            };
            assert!(!brute_wins(&g, &g.make(&pos, best), &mut nodes), "{text}");
            assert_eq!(root.len(), 1, "{text}");
            assert!(
                !brute_wins(&g, &g.make(&pos, root[0]), &mut nodes),
                "{text}"
            );
            // And some move loses, so the choice matters.
            assert!(legal
                .iter()
                .any(|&m| brute_wins(&g, &g.make(&pos, m), &mut nodes)));
        } else {
            assert_eq!(root, legal, "{text}");
        }
    }
}

#[test]
fn small_endgames_agree_with_the_plain_rules() {
    let g = game(false);
    let mut checked = 0;
    for (text, _) in suite() {
        let pos = at(&g, &text);
        let mut nodes = 0;
        let fast = brute_wins(&g, &pos, &mut nodes);
        if nodes > 2_500 {
            continue;
        }
        let n = Naive::new(g.data(), false, u32::from(pos.rot) * 90);
        let plain = naive::parse(&text);
        let mut plain_nodes = 0;
        assert_eq!(n.wins(&plain, &mut plain_nodes), fast, "{text}");
        checked += 1;
    }
    assert!(checked >= 8, "only {checked} small positions");
}

#[test]
fn solver_is_exact_on_random_late_positions() {
    let g = game(false);
    let mut rng = SmallRng::seed_from_u64(99);
    let mut checked = 0;
    for _ in 0..30 {
        let hist: Vec<Pos> = random_game(&g, &mut rng).collect();
        let p = hist[hist.len().saturating_sub(6)];
        let mut memo = HashMap::new();
        if longest(&g, &p, &mut memo, 20_000).is_none_or(|l| l > 8) {
            continue;
        }
        let mut nodes = 0;
        let truth = brute_wins(&g, &p, &mut nodes);
        assert_eq!(g.solve(&p, 1_000_000).map(|s| s.win), Some(truth));
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} positions");
}

#[test]
fn evaluation_is_exact_when_almost_nothing_is_left() {
    let g = game(false);
    let mut rng = SmallRng::seed_from_u64(5);
    let mut checked = 0;
    for _ in 0..40 {
        let game: Vec<Pos> = random_game(&g, &mut rng).collect();
        // Every position but the last, which has no move.
        for pos in &game[..game.len() - 1] {
            if solver::points_left(&g.tables, pos) <= 4 {
                let mut nodes = 0;
                let want = if brute_wins(&g, pos, &mut nodes) {
                    1
                } else {
                    -1
                };
                assert_eq!(g.evaluate(pos), want * eval::PROVEN);
                checked += 1;
            }
        }
    }
    assert!(checked >= 20, "only {checked}");
}

#[test]
fn solver_declines_advanced_and_respects_its_budget() {
    assert!(game(true).solve(&game(true).start(), 1000).is_none());
    let g = game(false);
    assert!(g.solve(&g.start(), 500).is_none());
    // Early in the game the root is left alone.
    let mut root = Vec::new();
    g.root_moves(&g.start(), &mut root);
    assert_eq!(root.len(), 70);
    // With the solver switched off, a won suite position keeps all its moves.
    let (text, _) = suite().into_iter().find(|c| c.1).unwrap_or_default();
    let pos = at(&g, &text);
    let mut all = Vec::new();
    g.legal_moves(&pos, &mut all);
    let mut g = g;
    assert_eq!(g.set_option("pods_solver_nodes", "0"), Ok(true));
    let mut root = Vec::new();
    g.root_moves(&pos, &mut root);
    assert_eq!(root, all);
    assert!(matches!(
        g.set_option("pods_solver_nodes", "x"),
        Err(RuleError::Option(_))
    ));
    assert_eq!(g.set_option("pods_solver_nodes", "1000"), Ok(true));
    root.clear();
    g.root_moves(&pos, &mut root);
    assert_eq!(root.len(), 1);
}

/// How the suite file was made (seeded; prints candidate lines to stderr).
#[test]
#[ignore]
fn generate_endgame_suite() {
    let g = game(false);
    let mut rng = SmallRng::seed_from_u64(2024);
    let (mut wins, mut losses) = (0, 0);
    let mut games = 0;
    while wins + losses < 40 && games < 400 {
        games += 1;
        let hist: Vec<Pos> = random_game(&g, &mut rng).collect();
        let back = rng.gen_range(6..=10usize);
        if back >= hist.len() {
            continue;
        }
        let p = hist[hist.len() - 1 - back];
        let mut memo = HashMap::new();
        let Some(len) = longest(&g, &p, &mut memo, 300_000) else {
            continue;
        };
        if !(7..=10).contains(&len) {
            continue;
        }
        let mut moves = vec![];
        g.legal_moves(&p, &mut moves);
        if moves.len() < 3 {
            continue;
        }
        let mut nodes = 0;
        let results: Vec<bool> = moves
            .iter()
            .map(|&m| !brute_wins(&g, &g.make(&p, m), &mut nodes))
            .collect();
        if nodes > 300_000 {
            continue;
        }
        let winning = results.iter().filter(|&&r| r).count();
        let win = winning > 0;
        if (win && (winning == moves.len() || wins >= 22)) || (!win && losses >= 18) {
            continue;
        }
        if win {
            wins += 1;
        } else {
            losses += 1;
        }
        eprintln!(
            "{} # {} longest {len} moves {} winning {winning}",
            g.format_position(&p),
            if win { "win" } else { "loss" },
            moves.len()
        );
    }
}

/// Solver speed on late positions of random games (run with --ignored --nocapture).
#[test]
#[ignore]
fn solver_bench() {
    let g = game(false);
    let mut rng = SmallRng::seed_from_u64(1);
    let mut set = vec![];
    for _ in 0..20 {
        let hist: Vec<Pos> = random_game(&g, &mut rng).collect();
        for back in [4usize, 6, 8, 10, 12] {
            if back < hist.len() {
                set.push(hist[hist.len() - 1 - back]);
            }
        }
    }
    let t0 = std::time::Instant::now();
    let (mut nodes, mut worst, mut hits, mut unsolved) = (0, 0, 0, 0);
    for p in &set {
        let (v, stats) = solver::solve_with_table(&g.tables, p, 50_000_000, 1 << 22, &|| false);
        if !matches!(v, solver::Verdict::Solved(_)) {
            unsolved += 1;
        }
        nodes += stats.nodes;
        hits += stats.tt_hits;
        worst = worst.max(stats.nodes);
    }
    let secs = t0.elapsed().as_secs_f64();
    println!(
        "solver: {} positions ({unsolved} unsolved), {nodes} nodes (worst {worst}), {hits} table \
         hits, {secs:.1} s, {:.0} nodes/s",
        set.len(),
        nodes as f64 / secs.max(1e-9)
    );
}

/// How far an exact proof gets from the start of each rotation (run by hand, see
/// docs/strength.md). The engine's own line from the start (fixed-depth search, so the same
/// line every run) is solved backwards from its end, each position with what is left of the
/// time, until one does not finish: every position from there to the end is proven.
/// `TETRAD_PODS_PROOF_SECS` (per rotation, default 60), `TETRAD_PODS_PROOF_NODES` (per
/// rotation, default unlimited: node counts compare provers on a loaded machine),
/// `TETRAD_PODS_PROOF_ROTATIONS` (e.g. `0,180`), `TETRAD_PODS_PROOF_TABLE` (entries of 8 bytes,
/// default 2^26 = 512 MiB; the proof-number prover's entries take 24 bytes, so it gets as many
/// bytes), `TETRAD_PODS_PROVER` (`solver`, the default, or `dfpn`, the proof-number prover,
/// which gets less far: docs/strength/pods.md).
#[test]
#[ignore]
fn prove_from_the_start() {
    let g = game(false);
    let secs: u64 = env_or("TETRAD_PODS_PROOF_SECS", 60);
    let budget: u64 = env_or("TETRAD_PODS_PROOF_NODES", u64::MAX);
    let entries: u64 = env_or("TETRAD_PODS_PROOF_TABLE", 1 << 26);
    let dfpn = env_or("TETRAD_PODS_PROVER", "solver".to_string()) == "dfpn";
    let rotations: String = env_or("TETRAD_PODS_PROOF_ROTATIONS", "0,90,180,270".to_string());
    for degrees in rotations
        .split(',')
        .filter_map(|r| r.trim().parse::<u32>().ok())
    {
        let Some(pos) = g.start_rotated(degrees) else {
            continue;
        };
        let line = searched_line(&g, pos);
        let text: Vec<String> = line
            .windows(2)
            .filter_map(|w| {
                let mut mv = vec![];
                g.legal_moves(&w[0], &mut mv);
                mv.into_iter()
                    .find(|&m| g.make(&w[0], m) == w[1])
                    .map(|m| g.format_move(&w[0], m))
            })
            .collect();
        println!(
            "rotation {degrees}: line of {} plies: {}",
            line.len() - 1,
            text.join(" ")
        );
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
        let interrupt = || std::time::Instant::now() >= deadline;
        let mut spent = 0u64;
        for (ply, p) in line.iter().enumerate().rev() {
            let t0 = std::time::Instant::now();
            let left = budget.saturating_sub(spent);
            let (win, nodes, hits) = if dfpn {
                let (v, stats) = dfpn::prove(&g.tables, p, left, entries * 8, &interrupt);
                let win = match v {
                    dfpn::Outcome::Proven { win, .. } => Some(win),
                    _ => None,
                };
                (win, stats.nodes, stats.tt_hits)
            } else {
                let (v, stats) = solver::solve_with_table(&g.tables, p, left, entries, &interrupt);
                let win = match v {
                    solver::Verdict::Solved(s) => Some(s.win),
                    _ => None,
                };
                (win, stats.nodes, stats.tt_hits)
            };
            spent = spent.saturating_add(nodes);
            let took = t0.elapsed().as_secs_f64();
            let rate = nodes as f64 / took.max(1e-9);
            let side = if p.side == 0 { "White" } else { "Black" };
            match win {
                Some(win) => println!(
                    "rotation {degrees} ply {ply}: {side} to move {}, {nodes} nodes, {hits} table \
                     hits, {took:.1} s, {rate:.0} nodes/s  {}",
                    if win { "wins" } else { "loses" },
                    g.format_position(p)
                ),
                None => {
                    println!(
                        "rotation {degrees} ply {ply}: unfinished after {nodes} nodes, {took:.1} \
                         s, {rate:.0} nodes/s  {}",
                        g.format_position(p)
                    );
                    break;
                }
            }
        }
    }
}

/// The solver's verdict on every move of small positions against plain minimax, with the
/// smallest table (so entries are replaced all the time) and with a large one.
#[test]
fn solver_verdicts_per_move_match_plain_minimax() {
    let g = game(false);
    let mut rng = SmallRng::seed_from_u64(31);
    let (mut checked, mut wins) = (0, 0);
    for _ in 0..40 {
        let hist: Vec<Pos> = random_game(&g, &mut rng).collect();
        let p = hist[hist.len().saturating_sub(7)];
        let mut memo = HashMap::new();
        if longest(&g, &p, &mut memo, 20_000).is_none_or(|l| l > 8) {
            continue;
        }
        let mut moves = vec![];
        g.legal_moves(&p, &mut moves);
        for &m in &moves {
            let child = g.make(&p, m);
            let mut nodes = 0;
            let truth = brute_wins(&g, &child, &mut nodes);
            for entries in [0, 1 << 20] {
                let (v, _) =
                    solver::solve_with_table(&g.tables, &child, 10_000_000, entries, &|| false);
                let solver::Verdict::Solved(s) = v else {
                    panic!("{}: not solved", g.format_position(&child));
                };
                assert_eq!(s.win, truth, "{}", g.format_position(&child));
                if s.win {
                    let Some(best) = s.best else {
                        panic!("{}: no winning move", g.format_position(&child));
                    };
                    assert!(!brute_wins(&g, &g.make(&child, best), &mut nodes));
                }
            }
            checked += 1;
            wins += usize::from(truth);
        }
    }
    assert!(
        checked >= 100 && wins >= 20 && checked - wins >= 20,
        "{checked} {wins}"
    );
}

/// Plays `a` (with `eval_a`) against `b`; returns a's wins out of `games`.
fn duel(
    g: &Pods,
    games: u32,
    depth: u32,
    eval_a: &dyn Fn(&Pos) -> i32,
    eval_b: &dyn Fn(&Pos) -> i32,
) -> u32 {
    let mut rng = SmallRng::seed_from_u64(77);
    let mut a_wins = 0;
    for i in 0..games {
        let a_side = (i % 2) as u8;
        let mut pos = Pos::start(rng.gen_range(0..4));
        // A few random opening moves for variety.
        for _ in 0..2 {
            let mut mv = vec![];
            g.legal_moves(&pos, &mut mv);
            pos = g.make(&pos, mv[rng.gen_range(0..mv.len())]);
        }
        for _ in 0..200 {
            if let Some(t) = g.terminal(&pos) {
                if t.outcome
                    == crate::games::Outcome::Win(if a_side == 0 { Side::P1 } else { Side::P2 })
                {
                    a_wins += 1;
                }
                break;
            }
            let mut mv = vec![];
            g.legal_moves(&pos, &mut mv);
            if mv.is_empty() {
                if pos.side != a_side {
                    a_wins += 1;
                }
                break;
            }
            let eval: &dyn Fn(&Pos) -> i32 = if pos.side == a_side { eval_a } else { eval_b };
            let mut best = (i32::MIN, mv[0]);
            for &m in &mv {
                let v = -negamax_with(g, &g.make(&pos, m), depth - 1, eval).0 * 16
                    + rng.gen_range(0..16);
                if v > best.0 {
                    best = (v, m);
                }
            }
            pos = g.make(&pos, best.1);
        }
    }
    a_wins
}

/// The evaluations against simpler ones at equal depth (run with --ignored --nocapture).
#[test]
#[ignore]
fn evaluation_duels() {
    let g = game(false);
    let mobility = |p: &Pos| {
        g.tables.count_moves(p, usize::from(p.side), false) as i32
            - g.tables.count_moves(p, usize::from(p.side ^ 1), false) as i32
    };
    let full = |p: &Pos| g.evaluate(p);
    let zero = |_: &Pos| 0;
    println!(
        "standard depth 2: eval vs mobility {} / 60",
        duel(&g, 60, 2, &full, &mobility)
    );
    println!(
        "standard depth 2: eval vs zero {} / 60",
        duel(&g, 60, 2, &full, &zero)
    );
    let ga = game(true);
    let full_a = |p: &Pos| ga.evaluate(p);
    let hand = |p: &Pos| {
        100 * (p.hand[usize::from(p.side ^ 1)].count_ones() as i32
            - p.hand[usize::from(p.side)].count_ones() as i32)
    };
    println!(
        "advanced depth 2: eval vs hand-only {} / 40",
        duel(&ga, 40, 2, &full_a, &hand)
    );
    println!(
        "advanced depth 2: eval vs zero {} / 40",
        duel(&ga, 40, 2, &full_a, &zero)
    );
}

/// A won standard position, late enough for the root solver, whose proof takes thousands of
/// nodes (seeded random play from the start).
fn long_won_root(g: &Pods) -> (Pos, u64) {
    let mut rng = SmallRng::seed_from_u64(7);
    for _ in 0..200 {
        for pos in random_game(g, &mut rng) {
            let mut mv = vec![];
            g.legal_moves(&pos, &mut mv);
            if mv.len() <= 1 {
                break;
            }
            if solver::points_left(&g.tables, &pos) <= 20 {
                if let Some(s) = g.solve(&pos, 50_000) {
                    if s.win && s.nodes >= 2_000 {
                        return (pos, s.nodes);
                    }
                }
                break;
            }
        }
    }
    panic!("no long won root in 200 games");
}

#[test]
fn root_solver_stops_when_interrupted_and_tries_again_later() {
    let g = game(false);
    let (pos, nodes) = long_won_root(&g);
    let mut all = Vec::new();
    g.legal_moves(&pos, &mut all);
    // The interrupt is asked every 64 nodes; it says stop on its third question.
    let asked = std::cell::Cell::new(0u64);
    let interrupt = || {
        asked.set(asked.get() + 1);
        asked.get() >= 3
    };
    assert_eq!(
        solver::solve_until(&g.tables, &pos, 1_000_000, &interrupt),
        solver::Verdict::Interrupted
    );
    assert_eq!(asked.get(), 3, "the solver stops at the first 'stop'");
    asked.set(0);
    let mut root = Vec::new();
    g.root_moves_until(&pos, &mut root, &interrupt);
    assert_eq!(root, all, "an interrupted proof restricts nothing");
    assert_eq!(asked.get(), 3);
    // Not remembered as unprovable: without the interrupt the proof is made and used.
    let mut root = Vec::new();
    g.root_moves_until(&pos, &mut root, &|| false);
    assert_eq!(root.len(), 1, "proof in {nodes} nodes");
    assert!(!g.solve(&g.make(&pos, root[0]), 1_000_000).unwrap().win);
    // A budget that runs out is a different answer from an interrupt.
    assert_eq!(
        solver::solve_until(&g.tables, &pos, nodes / 2, &|| false),
        solver::Verdict::OutOfNodes
    );
}
