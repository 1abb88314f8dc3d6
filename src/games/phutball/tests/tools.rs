//! Ignored: figures for the report and design aids for the suites.

use super::brute::{brute_jumps, grid_of, middle_positions};
use super::*;

#[test]
#[ignore]
fn stats_jump_counts() {
    let mut rng = SmallRng::seed_from_u64(7);
    for &d in &[0.05, 0.1, 0.15, 0.2, 0.25, 0.3] {
        let mut mx = 0;
        let mut tot = 0u64;
        let t = std::time::Instant::now();
        for _ in 0..20 {
            let p = random_pos(&mut rng, d);
            let n = crate::games::phutball::movegen::count_jumps(&p);
            mx = mx.max(n);
            tot += n;
        }
        let e = t.elapsed().as_secs_f64();
        eprintln!(
            "density {d}: max {mx} avg {} time {e:.4}s ({:.2} M distinct moves/s)",
            tot / 20,
            tot as f64 / e / 1e6
        );
    }
}

/// Design aid: `PHUT_POS='h14|h15 i17|b;...' cargo test --release explore -- --ignored --nocapture`.
#[test]
#[ignore]
fn explore() {
    let game = g();
    let spec = std::env::var("PHUT_POS").unwrap_or_default();
    for item in spec.split(';').filter(|s| !s.trim().is_empty()) {
        let f: Vec<&str> = item.split('|').collect();
        let p = pos(f[0].trim(), f[1], f[2].trim().chars().next().unwrap());
        let fm = |m: Move| game.format_move(&p, m);
        let stoppers: Vec<String> = game.threat_stoppers(&p).into_iter().map(fm).collect();
        let own: Vec<String> = jump_strings(&p)
            .into_iter()
            .filter(|s| {
                let m = game.parse_move(&p, s).unwrap();
                crate::games::phutball::tactics::is_own_goal(&p, m)
            })
            .collect();
        let (grid, _) = grid_of(&game.format_position(&p));
        let red = p.side == Side::P1;
        let min_win = brute_jumps(&grid)
            .iter()
            .filter(|((to, _), _)| if red { to.0 >= 19 } else { to.0 <= 1 })
            .flat_map(|(_, paths)| paths.iter().map(|s| s.matches('-').count()))
            .min();
        eprintln!("  min scoring jumps {min_win:?}");
        eprintln!(
            "{}\n  win {:?}\n  threat {:?}\n  stoppers {:?}\n  jumps {} own-goals {:?}",
            game.format_position(&p),
            game.winning_move(&p).map(fm),
            game.threat(&p).map(fm),
            stoppers,
            jump_strings(&p).len(),
            own
        );
    }
}

/// Figures for the report: `cargo test --release phutball_figures -- --ignored --nocapture`.
#[test]
#[ignore]
fn phutball_figures() {
    use std::time::Instant;
    let game = g();
    let s = game.start();
    for d in 1..=4 {
        let t = Instant::now();
        let n = game.perft(&s, d);
        let e = t.elapsed().as_secs_f64();
        eprintln!(
            "perft({d}) = {n} in {e:.3}s ({:.1} M leaves/s)",
            n as f64 / e / 1e6
        );
    }
    let t = Instant::now();
    let mut n = 0u64;
    for p in middle_positions() {
        n += game.perft(&p, 3);
    }
    eprintln!(
        "middle perft(3) sum {n} in {:.3}s",
        t.elapsed().as_secs_f64()
    );
    let mut rng = SmallRng::seed_from_u64(1);
    let t = Instant::now();
    let mut res = [0u32; 3];
    let games = 2000;
    for _ in 0..games {
        match game.playout(&s, &mut rng, 1000) {
            Outcome::Win(Side::P1) => res[0] += 1,
            Outcome::Win(Side::P2) => res[1] += 1,
            Outcome::Draw => res[2] += 1,
        }
    }
    let e = t.elapsed().as_secs_f64();
    eprintln!(
        "{games} playouts in {e:.3}s ({:.0}/s): red {} blue {} draw {}",
        games as f64 / e,
        res[0],
        res[1],
        res[2]
    );
    // Search hooks on positions from random play.
    let mut positions = Vec::new();
    let mut p = s;
    let mut v = Vec::new();
    while positions.len() < 2000 {
        if game.terminal(&p).is_some() {
            p = s;
        }
        v.clear();
        crate::games::phutball::movegen::push_placements(&p, &mut v);
        crate::games::phutball::movegen::push_jumps_limited(&p, 2000, &mut v);
        p = game.make(&p, v[rng.gen_range(0..v.len())]);
        if game.terminal(&p).is_none() {
            positions.push(p);
        }
    }
    let t = Instant::now();
    let mut sum = 0i64;
    for p in &positions {
        sum += game.evaluate(p) as i64;
    }
    eprintln!(
        "evaluate: {:.1} us/pos (sum {sum})",
        t.elapsed().as_secs_f64() * 1e6 / positions.len() as f64
    );
    let t = Instant::now();
    let mut cnt = 0;
    for p in &positions {
        v.clear();
        game.search_moves(p, &mut v);
        cnt += v.len();
    }
    eprintln!(
        "search_moves: {:.1} us/pos, {:.1} moves avg",
        t.elapsed().as_secs_f64() * 1e6 / positions.len() as f64,
        cnt as f64 / positions.len() as f64
    );
    let t = Instant::now();
    for p in &positions {
        let _ = game.winning_move(p);
    }
    eprintln!(
        "winning_move: {:.2} us/pos",
        t.elapsed().as_secs_f64() * 1e6 / positions.len() as f64
    );
}

fn mini_negamax(
    game: &Phutball,
    p: &Pos,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    if let Some(t) = game.terminal(p) {
        return match t.outcome {
            Outcome::Win(s) if s == p.side => 30_000,
            Outcome::Win(_) => -30_000,
            Outcome::Draw => 0,
        };
    }
    if depth == 0 {
        return game.evaluate(p);
    }
    let mut v = Vec::new();
    game.search_moves(p, &mut v);
    v.sort_by_key(|&m| -game.order_hint(p, m));
    let mut best = -40_000;
    for m in v {
        let s = -mini_negamax(game, &game.make(p, m), depth - 1, -beta, -alpha, nodes);
        if s > best {
            best = s;
        }
        alpha = alpha.max(s);
        if alpha >= beta {
            break;
        }
    }
    best
}

fn mini_best(game: &Phutball, p: &Pos, depth: u32, nodes: &mut u64) -> Move {
    let mut v = Vec::new();
    game.root_moves(p, &mut v);
    v.sort_by_key(|&m| -game.order_hint(p, m));
    let mut best = (v[0], -50_000);
    for m in v {
        let s = -mini_negamax(game, &game.make(p, m), depth - 1, -50_000, -best.1, nodes);
        if s > best.1 {
            best = (m, s);
        }
    }
    best.0
}

/// Sanity of the search hooks with a throwaway alpha-beta: `phutball_selfplay` (ignored).
#[test]
#[ignore]
fn phutball_selfplay() {
    use std::time::Instant;
    let game = g();
    let depth: u32 = std::env::var("PHUT_DEPTH")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2);
    let opp_depth: u32 = std::env::var("PHUT_OPP")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let games: usize = std::env::var("PHUT_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10);
    let mut rng = SmallRng::seed_from_u64(9);
    let mut wins = 0;
    let t = Instant::now();
    let mut nodes = 0u64;
    for i in 0..games {
        let engine_side = if i % 2 == 0 { Side::P1 } else { Side::P2 };
        let mut p = game.start();
        let mut plies = 0;
        let mut result = None;
        while plies < 300 {
            if let Some(t) = game.terminal(&p) {
                result = Some(t.outcome);
                break;
            }
            let m = if p.side == engine_side {
                mini_best(&game, &p, depth, &mut nodes)
            } else if opp_depth > 0 {
                mini_best(&game, &p, opp_depth, &mut nodes)
            } else {
                let mut v = Vec::new();
                crate::games::phutball::movegen::push_placements(&p, &mut v);
                crate::games::phutball::movegen::push_jumps_limited(&p, 2000, &mut v);
                v[rng.gen_range(0..v.len())]
            };
            p = game.make(&p, m);
            plies += 1;
        }
        if result == Some(Outcome::Win(engine_side)) {
            wins += 1;
        }
        eprintln!("game {i}: engine {engine_side:?} result {result:?} after {plies} plies");
    }
    eprintln!(
        "engine won {wins}/{games}; {nodes} nodes in {:.2}s",
        t.elapsed().as_secs_f64()
    );
}

/// Worst cases of the search hooks on dense random positions (ignored; prints figures).
#[test]
#[ignore]
fn phutball_dense_hooks() {
    use std::time::Instant;
    let game = g();
    let mut rng = SmallRng::seed_from_u64(21);
    for &d in &[0.2, 0.25, 0.3, 0.35, 0.45] {
        let (mut worst_e, mut worst_s, mut worst_r) = (0f64, 0f64, 0f64);
        for _ in 0..20 {
            let p = random_pos(&mut rng, d);
            let t = Instant::now();
            game.evaluate(&p);
            worst_e = worst_e.max(t.elapsed().as_secs_f64());
            let t = Instant::now();
            let mut v = Vec::new();
            game.search_moves(&p, &mut v);
            worst_s = worst_s.max(t.elapsed().as_secs_f64());
            let t = Instant::now();
            v.clear();
            game.root_moves(&p, &mut v);
            worst_r = worst_r.max(t.elapsed().as_secs_f64());
        }
        eprintln!("density {d}: worst evaluate {worst_e:.4}s search_moves {worst_s:.4}s root_moves {worst_r:.4}s");
    }
}
