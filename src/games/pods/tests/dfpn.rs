//! The proof-number prover (`dfpn.rs`) against the exact solver near the end: the same verdict
//! on every position, a winning move the solver agrees wins, with a roomy table and with a small
//! one (entries replaced all the time).

use rand::{Rng, SeedableRng};

use super::{at, game};
use crate::games::pods::board::{xy, POINTS};
use crate::games::pods::dfpn::{self, Outcome};
use crate::games::pods::*;

/// Late positions of seeded random games: 6 to 13 plies before the end.
fn late_positions(g: &Pods, seed: u64, games: usize) -> Vec<Pos> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Pos::start(rng.gen_range(0..4));
        let mut hist = vec![pos];
        loop {
            let mut mv = vec![];
            g.legal_moves(&pos, &mut mv);
            if mv.is_empty() {
                break;
            }
            pos = g.make(&pos, mv[rng.gen_range(0..mv.len())]);
            hist.push(pos);
        }
        let back = rng.gen_range(6..=13usize);
        out.push(hist[hist.len().saturating_sub(1 + back)]);
    }
    out
}

/// The verdict of both on `pos`, `None` when the solver needs more than 100,000 nodes (kept out
/// of the suite's time).
fn check(g: &Pods, pos: &Pos, table_bytes: u64) -> Option<bool> {
    let text = g.format_position(pos);
    let truth = g.solve(pos, 100_000)?;
    let (outcome, stats) = dfpn::prove(&g.tables, pos, 5_000_000, table_bytes, &|| false);
    let Outcome::Proven { win, best } = outcome else {
        panic!("{text}: df-pn did not finish ({outcome:?}, {stats:?})");
    };
    assert_eq!(win, truth.win, "{text}");
    if win {
        let Some(m) = best else {
            panic!("{text}: won without a move");
        };
        let mut legal = vec![];
        g.legal_moves(pos, &mut legal);
        assert!(legal.contains(&m), "{text}");
        let after = g.make(pos, m);
        assert_eq!(
            g.solve(&after, 20_000_000).map(|s| s.win),
            Some(false),
            "{text}"
        );
    } else {
        assert_eq!(best, None, "{text}");
    }
    Some(win)
}

#[test]
fn dfpn_agrees_with_the_solver_near_the_end() {
    let g = game(false);
    let mut positions: Vec<Pos> = include_str!("endgames.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| at(&g, l.split('#').next().unwrap_or(l).trim()))
        .collect();
    positions.extend(late_positions(&g, 42, 80));
    let (mut wins, mut losses) = (0, 0);
    for (i, pos) in positions.iter().enumerate() {
        // Every third position with a 1 MiB table (43,690 entries), the rest with 16 MiB.
        let bytes = if i % 3 == 0 { 1 << 20 } else { 16 << 20 };
        match check(&g, pos, bytes) {
            Some(true) => wins += 1,
            Some(false) => losses += 1,
            None => {}
        }
    }
    assert!(wins >= 20 && losses >= 20, "{wins} wins, {losses} losses");
}

#[test]
fn dfpn_respects_its_budget_and_interrupt() {
    let g = game(false);
    let start = g.start();
    let (outcome, stats) = dfpn::prove(&g.tables, &start, 1_000, 1 << 20, &|| false);
    assert_eq!(outcome, Outcome::OutOfNodes);
    assert!((1_000..=1_002).contains(&stats.nodes), "{stats:?}");
    let asked = std::cell::Cell::new(0u32);
    let interrupt = || {
        asked.set(asked.get() + 1);
        asked.get() >= 2
    };
    let (outcome, stats) = dfpn::prove(&g.tables, &start, u64::MAX, 1 << 20, &interrupt);
    assert_eq!(outcome, Outcome::Interrupted);
    assert_eq!(asked.get(), 2, "{stats:?}");
}

/// The board has no symmetry the prover could fold positions with: at every rotation, each of
/// the left-right mirror, the top-bottom mirror and the half turn maps some line onto a point
/// pair with no line.
#[test]
fn the_lines_have_no_symmetry() {
    let g = game(false);
    type Map = fn(i32, i32) -> (i32, i32);
    let maps: [Map; 3] = [|x, y| (5 - x, y), |x, y| (x, 5 - y), |x, y| (5 - x, 5 - y)];
    for geo in &g.tables.geo {
        let lines = |f: &dyn Fn(i32, i32) -> (i32, i32)| {
            let mut set = std::collections::BTreeSet::new();
            for p in 0..POINTS {
                for d in 0..8 {
                    if geo.conn[p] & (1 << d) != 0 {
                        let q = usize::from(geo.nbr[p][d]);
                        let (a, b) = (xy(p), xy(q));
                        let (a, b) = (f(a.0, a.1), f(b.0, b.1));
                        set.insert((a.min(b), a.max(b)));
                    }
                }
            }
            set
        };
        let same = lines(&|x, y| (x, y));
        assert!(same.len() > 60);
        for f in maps {
            assert_ne!(lines(&f), same);
        }
    }
}

/// One job of a proof of the start split by subtree (docs/strength/pods.md, "Proving the
/// start"): `TETRAD_PODS_SUBTREES=N` with `TETRAD_PODS_PROOF_ROTATIONS=R` prints every position
/// N plies from rotation R's start, one a line (the job list); `TETRAD_PODS_PROVE=POSITION`
/// proves one of them with `TETRAD_PODS_PROOF_NODES` and `TETRAD_PODS_PROOF_TABLE` (bytes) and
/// prints its verdict. Run with --ignored --nocapture.
#[test]
#[ignore = "a job of a long proof"]
fn pods_subtree_job() {
    use super::env_or;
    let g = game(false);
    let depth: usize = env_or("TETRAD_PODS_SUBTREES", 0);
    if depth > 0 {
        let rot: u32 = env_or("TETRAD_PODS_PROOF_ROTATIONS", 0);
        let mut layer = vec![g.start_rotated(rot).unwrap_or_else(|| g.start())];
        for _ in 0..depth {
            let mut next = Vec::new();
            let mut seen = std::collections::HashSet::new();
            for p in &layer {
                let mut mv = vec![];
                g.legal_moves(p, &mut mv);
                for m in mv {
                    let c = g.make(p, m);
                    if seen.insert(c.hash) {
                        next.push(c);
                    }
                }
            }
            layer = next;
        }
        for p in &layer {
            println!("{}", g.format_position(p));
        }
    }
    let text: String = env_or("TETRAD_PODS_PROVE", String::new());
    if !text.is_empty() {
        let pos = at(&g, &text);
        let nodes: u64 = env_or("TETRAD_PODS_PROOF_NODES", u64::MAX);
        let bytes: u64 = env_or("TETRAD_PODS_PROOF_TABLE", 1 << 29);
        let (outcome, stats) = dfpn::prove(&g.tables, &pos, nodes, bytes, &|| false);
        let verdict = match outcome {
            Outcome::Proven { win: true, .. } => "win",
            Outcome::Proven { win: false, .. } => "loss",
            _ => "unknown",
        };
        println!("{text}\t{verdict}\t{} nodes", stats.nodes);
    }
}
