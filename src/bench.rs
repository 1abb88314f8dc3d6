//! `tetrad bench`: a fixed workload per game (perft, fixed-depth searches, random playouts)
//! printing nodes, time and rates. Like Stockfish's bench, the total search node count is a
//! signature of the search: it changes only when search or evaluation behaviour changes.

use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::games::{DrawTracker, Game, GameKind, GameVisitor};
use crate::render::Draw;
use crate::search::{self, Limits, Params, Table};

/// How much work one game's part of the bench does.
#[derive(Clone, Copy, Debug)]
pub struct Workload {
    pub perft_start: u32,
    pub perft_mid: u32,
    pub search_depth: u32,
    pub playouts: u32,
}

/// Per-game workloads: full, and `--quick` (for tests and CI smoke runs). A game without its
/// own line gets the last one.
fn workload(kind: Option<GameKind>, quick: bool) -> Workload {
    let (full, small) = match kind {
        Some(GameKind::Poddavki) => ((11, 6, 10, 200_000), (8, 7, 7, 2_000)),
        // Phutball and Diamond count the last two plies without making moves, so their perft
        // goes deeper to measure anything.
        Some(GameKind::Phutball) => ((4, 3, 4, 2_000), (3, 3, 2, 50)),
        Some(GameKind::Diamond) => ((5, 4, 6, 50_000), (4, 4, 4, 500)),
        _ => ((3, 3, 5, 20_000), (3, 4, 3, 500)),
    };
    let (p, m, d, n) = if quick { small } else { full };
    Workload {
        perft_start: p,
        perft_mid: m,
        search_depth: d,
        playouts: n,
    }
}

#[derive(Default, Debug, Clone, Copy)]
pub struct Totals {
    pub perft_leaves: u64,
    pub search_nodes: u64,
    pub playouts: u64,
    pub seconds: f64,
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

pub fn bench_game<G: Game>(game: &G, quick: bool, out: &mut dyn Write) -> std::io::Result<Totals> {
    let kind = game.name().parse::<GameKind>().ok();
    let w = workload(kind, quick);
    let mut t = Totals::default();
    let name = game.name();
    let positions = [
        ("start", game.start()),
        ("mid-a", midgame(game, 1, 12)),
        // A standard Pods game is over after at most 28 placements: 24 random plies leave
        // nothing to search.
        (
            "mid-b",
            midgame(
                game,
                2,
                if kind == Some(GameKind::PodsStandard) {
                    14
                } else {
                    24
                },
            ),
        ),
    ];
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
        let mut tt = Table::new(16);
        let stop = AtomicBool::new(false);
        let params = Params {
            limits: Limits {
                depth: Some(w.search_depth),
                ..Limits::default()
            },
            move_overhead_ms: 0,
            started: None,
            seed: 0,
            ..Params::default()
        };
        let clock = Instant::now();
        let r = search::search(
            game,
            pos,
            &DrawTracker::new(game.hash(pos)),
            &mut tt,
            &stop,
            &params,
            |_| {},
        );
        let secs = clock.elapsed().as_secs_f64();
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

struct BenchOne<'a> {
    quick: bool,
    out: &'a mut dyn Write,
}

impl GameVisitor for BenchOne<'_> {
    type Output = std::io::Result<Totals>;
    fn visit<G: Game + Draw>(self, game: G) -> std::io::Result<Totals> {
        bench_game(&game, self.quick, self.out)
    }
}

/// Runs the bench for every game (or only `only`), then prints the totals.
pub fn run(quick: bool, only: Option<GameKind>, out: &mut dyn Write) -> anyhow::Result<Totals> {
    let mut total = Totals::default();
    for &kind in GameKind::ALL {
        if only.is_some_and(|o| o != kind) {
            continue;
        }
        let t = kind.visit(BenchOne {
            quick,
            out: &mut *out,
        })?;
        total.perft_leaves += t.perft_leaves;
        total.search_nodes += t.search_nodes;
        total.playouts += t.playouts;
        total.seconds += t.seconds;
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
    Ok(total)
}
