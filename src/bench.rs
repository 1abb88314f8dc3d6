//! `tetrad bench`: a fixed workload per game (perft, fixed-depth searches, random playouts)
//! printing nodes, time and rates. Like Stockfish's bench, the total search node count is a
//! signature of the search: it changes only when search or evaluation behaviour changes.
//!
//! `--threads N` (N > 1) runs only the fixed-depth searches, each with one thread and then with
//! N threads on a fresh table, and prints the time to the depth of both and their ratio (the
//! Lazy SMP speed-up), with the geometric mean over the items at the end; `--repeat R` takes
//! the median of R runs of each, as times with several threads vary from run to run.

use std::io::Write;
use std::time::Instant;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::games::prelude::*;
pub use crate::games::{Workload, Workloads};
use crate::search::{self, Limits, Params, Root, Table};

/// What the bench is asked to do.
#[derive(Debug, Clone, Copy, Default)]
pub struct Settings {
    /// The smaller workload.
    pub quick: bool,
    /// Search threads; above 1, only the searches run, with 1 and with this many threads.
    pub threads: usize,
    /// Search depth of every search item instead of the game's workload depth.
    pub depth: Option<u32>,
    /// With `threads` above 1: how many times each search runs with each thread count (the
    /// median time counts); 0 and 1 both mean once.
    pub repeat: usize,
}

#[derive(Default, Debug, Clone)]
pub struct Totals {
    pub perft_leaves: u64,
    pub search_nodes: u64,
    pub playouts: u64,
    pub seconds: f64,
    /// Time to depth with one thread over time with N threads, per search item (`--threads`).
    pub speedups: Vec<f64>,
}

fn rate(n: u64, secs: f64) -> u64 {
    (n as f64 / secs.max(1e-9)) as u64
}

/// A position `plies` random moves from the start (seeded, so the same every run).
fn midgame<G: Game>(game: &G, seed: u64, plies: u32) -> G::Pos {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut pos = game.start();
    let mut moves = Vec::new();
    for _ in 0..plies {
        moves.clear();
        game.legal_moves(&pos, &mut moves);
        if moves.is_empty() || game.terminal(&pos).is_some() {
            break;
        }
        let next = game.make(&pos, moves[rng.gen_range(0..moves.len())]);
        if game.terminal(&next).is_some() || game.perft(&next, 3) == 0 {
            break; // keep a position with play left in it (perft and search have work)
        }
        pos = next;
    }
    pos
}

/// One fixed-depth search on a fresh 16 MiB table: the result and its time in seconds.
fn timed_search<G: Game>(
    game: &G,
    pos: &G::Pos,
    depth: u32,
    threads: usize,
) -> (search::SearchResult<G::Move>, f64) {
    let mut tt = Table::new(16);
    tt.allocate(); // not on the clock
    let params = Params {
        limits: Limits {
            depth: Some(depth),
            ..Limits::default()
        },
        move_overhead_ms: 0,
        started: None,
        seed: 0,
        threads,
        ..Params::default()
    };
    let clock = Instant::now();
    let r = search::run(game, Root::new(pos).table(&mut tt), &params);
    (r, clock.elapsed().as_secs_f64())
}

/// The three positions of a game's bench: the start and two seeded middlegames.
fn positions<G: Game>(game: &G, w: &Workload) -> [(&'static str, G::Pos); 3] {
    [
        ("start", game.start()),
        ("mid-a", midgame(game, 1, 12)),
        ("mid-b", midgame(game, 2, w.mid_b_plies)),
    ]
}

/// `--threads N`: every search item with 1 thread, then with N, and the time-to-depth ratio.
fn bench_threads<G: Game>(
    game: &G,
    w: &Workload,
    settings: &Settings,
    out: &mut dyn Write,
) -> std::io::Result<Totals> {
    let depth = settings.depth.unwrap_or(w.search_depth);
    let name = game.name();
    let mut t = Totals::default();
    for (label, pos) in &positions(game, w) {
        let mut secs = [0.0; 2];
        for (i, threads) in [1, settings.threads].into_iter().enumerate() {
            let mut runs: Vec<_> = (0..settings.repeat.max(1))
                .map(|_| timed_search(game, pos, depth, threads))
                .collect();
            runs.sort_by(|a, b| a.1.total_cmp(&b.1));
            let (r, s) = runs.swap_remove(runs.len() / 2);
            secs[i] = s;
            t.search_nodes += r.nodes;
            t.seconds += s;
            let best = r.best.map_or("-".to_string(), |m| game.format_move(pos, m));
            writeln!(
                out,
                "{name:<14} search {label:<5} depth {depth:>2}  threads {threads:>3}  nodes {:>12}  {s:>9.3} s  {:>12} nodes/s  best {best}",
                r.nodes,
                rate(r.nodes, s)
            )?;
        }
        let speedup = secs[0] / secs[1].max(1e-9);
        t.speedups.push(speedup);
        let median = match settings.repeat {
            0 | 1 => String::new(),
            n => format!(" (medians of {n} runs)"),
        };
        writeln!(
            out,
            "{name:<14} search {label:<5} time to depth {depth}: 1 thread {:.3} s, {} threads {:.3} s, speed-up {speedup:.2}{median}",
            secs[0], settings.threads, secs[1]
        )?;
    }
    Ok(t)
}

/// One game's part of the bench with `workloads` (see [`Settings`]).
pub fn bench_game<G: Game>(
    game: &G,
    workloads: Workloads,
    settings: &Settings,
    out: &mut dyn Write,
) -> std::io::Result<Totals> {
    let mut w = workloads.pick(settings.quick);
    if settings.threads > 1 {
        return bench_threads(game, &w, settings, out);
    }
    if let Some(d) = settings.depth {
        w.search_depth = d;
    }
    let mut t = Totals::default();
    let name = game.name();
    let positions = positions(game, &w);
    for (label, pos) in &positions {
        let depth = if *label == "start" {
            w.perft_start
        } else {
            w.perft_mid
        };
        let clock = Instant::now();
        let n = game.perft(pos, depth);
        let secs = clock.elapsed().as_secs_f64();
        t.perft_leaves += n;
        t.seconds += secs;
        writeln!(
            out,
            "{name:<14} perft {label:<6} depth {depth:>2}  leaves {n:>12}  {:>9.3} s  {:>12} leaves/s",
            secs,
            rate(n, secs)
        )?;
    }
    for (label, pos) in &positions {
        let (r, secs) = timed_search(game, pos, w.search_depth, 1);
        t.search_nodes += r.nodes;
        t.seconds += secs;
        let best = r.best.map_or("-".to_string(), |m| game.format_move(pos, m));
        writeln!(
            out,
            "{name:<14} search {label:<5} depth {:>2}  nodes  {:>12}  {:>9.3} s  {:>12} nodes/s  best {best}",
            w.search_depth,
            r.nodes,
            secs,
            rate(r.nodes, secs)
        )?;
    }
    let mut rng = SmallRng::seed_from_u64(0x7e7_7ad);
    let start = game.start();
    let clock = Instant::now();
    let mut decided = 0u64;
    for _ in 0..w.playouts {
        if game.playout(&start, &mut rng, 10_000) != crate::games::Outcome::Draw {
            decided += 1;
        }
    }
    let secs = clock.elapsed().as_secs_f64();
    t.playouts += u64::from(w.playouts);
    t.seconds += secs;
    writeln!(
        out,
        "{name:<14} playouts        count {:>9}  decided {decided:>9}  {:>9.3} s  {:>12} playouts/s",
        w.playouts,
        secs,
        rate(u64::from(w.playouts), secs)
    )?;
    Ok(t)
}

impl Totals {
    /// Adds one game's part.
    pub fn add(&mut self, t: Totals) {
        self.perft_leaves += t.perft_leaves;
        self.search_nodes += t.search_nodes;
        self.playouts += t.playouts;
        self.seconds += t.seconds;
        self.speedups.extend(t.speedups);
    }
}

/// The closing lines of the bench over the games' summed `total` (with one thread, the node
/// signature).
pub fn report(total: &Totals, settings: &Settings, out: &mut dyn Write) -> std::io::Result<()> {
    if settings.threads > 1 {
        // Node counts with several threads depend on timing: no signature.
        let n = total.speedups.len().max(1);
        let mean = (total.speedups.iter().map(|s| s.ln()).sum::<f64>() / n as f64).exp();
        writeln!(out, "===========================")?;
        writeln!(out, "Total time (s)     : {:.3}", total.seconds)?;
        writeln!(out, "Search nodes       : {}", total.search_nodes)?;
        writeln!(
            out,
            "Speed-up           : {mean:.2} (geometric mean of {} times to depth, {} threads vs 1)",
            total.speedups.len(),
            settings.threads
        )?;
        return Ok(());
    }
    writeln!(out, "===========================")?;
    writeln!(out, "Total time (s)     : {:.3}", total.seconds)?;
    writeln!(out, "Perft leaves       : {}", total.perft_leaves)?;
    writeln!(out, "Search nodes       : {}", total.search_nodes)?;
    // As in Stockfish: the signature is the node count of the fixed-depth searches, which
    // changes only when search or evaluation behaviour does.
    writeln!(
        out,
        "Search signature   : {} (total nodes of the fixed-depth searches)",
        total.search_nodes
    )?;
    writeln!(out, "Playouts           : {}", total.playouts)?;
    Ok(())
}
