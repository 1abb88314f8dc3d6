//! Proven standard games as the root plays and reports them: the distance the proof finds
//! against plain minimax over every line, and the move it plays.

use std::collections::HashMap;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::{env_or, game, searched_line};
use crate::games::pods::proof::{self, Proof, RootVerdict};
use crate::games::pods::*;

/// Exact result by plain minimax, memoised: (side to move wins, plies to the end), the winner
/// ending soonest and the loser holding out longest.
fn exact(g: &Pods, pos: &Pos, memo: &mut HashMap<u64, (bool, u32)>) -> (bool, u32) {
    if let Some(&v) = memo.get(&pos.hash) {
        return v;
    }
    let mut moves = vec![];
    g.legal_moves(pos, &mut moves);
    let mut best: Option<(bool, u32)> = None;
    for &m in &moves {
        let (w, n) = exact(g, &g.make(pos, m), memo);
        let mine = (!w, n + 1);
        best = Some(match best {
            None => mine,
            Some(b) => better(mine, b),
        });
    }
    let v = best.unwrap_or((false, 0));
    memo.insert(pos.hash, v);
    v
}

fn better(a: (bool, u32), b: (bool, u32)) -> (bool, u32) {
    match (a.0, b.0) {
        (true, false) => a,
        (false, true) => b,
        (true, true) => (true, a.1.min(b.1)),
        (false, false) => (false, a.1.max(b.1)),
    }
}

/// Positions of random games with at most `empty` points left (and still a move to make).
fn late_positions(g: &Pods, seed: u64, games: usize, empty: u32) -> Vec<Pos> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Pos::start(rng.gen_range(0..4));
        loop {
            let mut mv = vec![];
            g.legal_moves(&pos, &mut mv);
            if mv.is_empty() {
                break;
            }
            if 36 - pos.all().count_ones() <= empty {
                out.push(pos);
            }
            pos = g.make(&pos, mv[rng.gen_range(0..mv.len())]);
        }
    }
    out
}

fn proven(g: &Pods, pos: &Pos) -> Proof {
    match proof::prove(g, pos, 10_000_000, &|| false) {
        (RootVerdict::Proven(p), false) => p,
        other => panic!("{}: {other:?}", g.format_position(pos)),
    }
}

#[test]
fn distances_and_lines_match_plain_minimax() {
    let g = game(false);
    let mut memo = HashMap::new();
    let (mut wins, mut losses, mut shorter) = (0, 0, 0);
    for pos in late_positions(&g, 31, 300, 14) {
        let want = exact(&g, &pos, &mut memo);
        let p = proven(&g, &pos);
        let fen = g.format_position(&pos);
        assert_eq!((p.win, p.plies), want, "{fen}");
        assert_eq!(p.pv.len() as u32, p.plies, "{fen}: {:?}", p.pv);
        // Every move of the line keeps the result: the line is the game best play makes.
        let mut at = pos;
        for (i, &m) in p.pv.iter().enumerate() {
            at = g.make(&at, m);
            let left = p.plies - i as u32 - 1;
            let win = p.win == (i % 2 == 1);
            assert_eq!(exact(&g, &at, &mut memo), (win, left), "{fen} after {i}");
        }
        if p.win {
            wins += 1;
            if let Some(s) = g.solve(&pos, 10_000_000) {
                let first = exact(&g, &g.make(&pos, s.best.expect("a move")), &mut memo);
                shorter += u32::from(first.1 + 1 > p.plies);
            }
        } else {
            losses += 1;
        }
    }
    eprintln!("{wins} wins ({shorter} quicker than the solver's move), {losses} losses");
    assert!(wins >= 20 && losses >= 20, "{wins} wins, {losses} losses");
    // The solver's first winning move is often not the quickest: the proof's move is.
    assert!(shorter >= 1, "{wins} wins");
}

#[test]
fn the_root_plays_the_quickest_win_and_reports_it() {
    let g = game(false);
    let pos = g
        .parse_position("2NH1B/m1LJKE/j1CDA1/h2I1f/1k1a1i/b1c2e b FGM dgln 0")
        .expect("position");
    let root = g.root_until(&pos, &|| false);
    let p = root.proven.expect("proven");
    assert_eq!((p.win, p.plies), (true, 1));
    assert_eq!(g.format_move(&pos, p.pv[0]), "G@e2");
    assert!(!root.search.contains(&p.pv[0]));
    let mut all = vec![];
    g.legal_moves(&pos, &mut all);
    assert_eq!(root.search.len() + 1, all.len());
}

/// How far back from the end of the engine's own line from each start a proof with its
/// distance gets (as `prove_from_the_start` in `solver.rs` for the verdict alone): each
/// position solved with what is left of the time, the latest first, until one does not finish.
#[test]
#[ignore = "a measurement: minutes"]
fn prove_distances_from_the_start() {
    let g = game(false);
    let secs: u64 = env_or("TETRAD_PODS_PROOF_SECS", 60);
    let entries: u64 = env_or("TETRAD_PODS_PROOF_TABLE", 1 << 26);
    for degrees in [0, 90, 180, 270] {
        let Some(pos) = g.start_rotated(degrees) else {
            continue;
        };
        let line = searched_line(&g, pos);
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
        let interrupt = || std::time::Instant::now() >= deadline;
        for (ply, p) in line.iter().enumerate().rev().skip(1) {
            let t0 = std::time::Instant::now();
            let (v, _, [proof, distance]) =
                proof::prove_with_table(&g, p, u64::MAX / 4, entries, &interrupt);
            let took = t0.elapsed().as_secs_f64();
            let fen = g.format_position(p);
            match v {
                RootVerdict::Proven(Proof { win, plies, .. }) => println!(
                    "rotation {degrees} ply {ply}: {} in {plies} plies, {proof} + {distance} \
                     nodes, {took:.1} s  {fen}",
                    if win { "wins" } else { "loses" },
                ),
                other => {
                    println!(
                        "rotation {degrees} ply {ply}: {other:?} after {proof} + {distance} \
                         nodes, {took:.1} s  {fen}"
                    );
                    break;
                }
            }
        }
    }
}
