//! Iterative deepening, one depth after another, for the main thread (which reports, decides
//! when to stop and gives the result) and for the helper threads (which only search, each on
//! the depth after the deepest one any thread completed, unless the game has its threads deepen
//! independently).

use std::sync::atomic::Ordering;
use std::time::Instant;

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use super::node::{Searcher, INF, MATE, MATE_BOUND, MAX_PLY};
use super::oracle;
use super::threads::Shared;
use super::time::TimeUse;
use super::tt::{MoveCode, Table};
use super::{Info, Params, PvLine, SearchResult};
use crate::games::prelude::*;
use crate::games::RootMoves;

/// The deepest iteration a search goes to without a depth limit: a few plies short of the
/// node search's stack, which forced-move extensions go past the nominal depth into.
pub(super) const DEPTH_LIMIT: u32 = MAX_PLY as u32 - 8;

/// Whether every line's score is a win or loss within the depth searched: no deeper search can
/// change it.
fn proven_lines<M>(lines: &[PvLine<M>], depth: u32) -> bool {
    lines
        .iter()
        .all(|l| l.score.abs() > MATE_BOUND && (MATE - l.score.abs()) as u32 <= depth)
}

/// What a helper thread hands back when it ends.
pub(super) struct HelperResult<M> {
    pub(super) nodes: u64,
    /// Its last completed iteration and that iteration's selective depth.
    pub(super) completed: Option<(PvLine<M>, u32)>,
}

/// The counts an iteration's report gives, read once for all its lines (MultiPV) so that they
/// agree.
struct Progress {
    nodes: u64,
    elapsed_ms: u64,
    hashfull: u32,
}

impl<G: Game> Searcher<'_, G> {
    /// A helper thread's iterative deepening. Every thread works on the depth after the
    /// deepest one completed, and leaves it as soon as another thread completes it: their root
    /// orders differ, so they cover the root moves in different orders, each finds the other's
    /// subtrees in the table, and a depth is done when the first of them is done. (A
    /// Stockfish-9 schedule that skipped depths measured weaker at 2 threads in Pods advanced,
    /// docs/strength/engine.md.) Without the race (`ThreadTuning::independent`) it searches every
    /// depth in turn. No reports; it runs until the main thread halts it, its result is proven
    /// (as the main thread, which takes its depth over, would stop there) or the last depth is
    /// done. Returns its nodes and its last completed iteration.
    pub(super) fn helper(&mut self, pos: &G::Pos, max_depth: u32) -> HelperResult<G::Move> {
        let mut completed = None;
        let mut depth = 1;
        while depth <= max_depth {
            self.iteration = depth;
            self.seldepth = 0;
            let score = self.negamax(pos, depth as i32, 0, -INF, INF);
            if self.superseded {
                self.aborted = false;
                self.superseded = false;
                depth = self.frontier.load(Ordering::Relaxed) + 1;
                continue;
            }
            if self.aborted {
                break;
            }
            let mut done = false;
            if !self.pv[0].is_empty() {
                let line = PvLine {
                    score,
                    depth,
                    pv: self.pv[0].clone(),
                };
                done = proven_lines(std::slice::from_ref(&line), depth);
                let line = (line, self.seldepth);
                if let Ok(mut slot) = self.finished.lock() {
                    if slot.as_ref().is_none_or(|(l, _)| l.depth < depth) {
                        *slot = Some(line.clone());
                    }
                }
                completed = Some(line);
            }
            let deepest = self.frontier.fetch_max(depth, Ordering::Relaxed).max(depth);
            if done {
                break;
            }
            depth = if self.race { deepest + 1 } else { depth + 1 };
        }
        self.counters[self.id].store(self.nodes, Ordering::Relaxed);
        HelperResult {
            nodes: self.nodes,
            completed,
        }
    }

    fn progress(&self, start: Instant) -> Progress {
        Progress {
            nodes: self.nodes + self.helper_nodes(),
            elapsed_ms: start.elapsed().as_millis() as u64,
            hashfull: self.tt.hashfull(),
        }
    }

    /// The report of a line of this (main) thread's search at `depth`; `multipv`: which line
    /// of a MultiPV search it is.
    fn info(
        &self,
        at: &Progress,
        depth: u32,
        line: (i32, &[G::Move]),
        multipv: Option<u32>,
    ) -> Info<G::Move> {
        Info {
            depth,
            seldepth: self.seldepth,
            score: line.0,
            nodes: at.nodes,
            elapsed_ms: at.elapsed_ms,
            pv: line.1.to_vec(),
            hashfull: at.hashfull,
            multipv,
            tbhits: self.oracle.map(|_| self.tbhits.load(Ordering::Relaxed)),
        }
    }
}

/// The main thread's iterative deepening; `start_helpers` is called with the root moves, the
/// last depth and the start time once the game's root work is done (it is done once, here, for
/// every thread).
pub(super) fn iterate<'a, G: Game>(
    shared: &Shared<'a, G>,
    params: &Params,
    on_info: &mut dyn FnMut(&Info<G::Move>),
    start_helpers: impl FnOnce(&[G::Move], u32, Instant),
) -> SearchResult<G::Move> {
    let (game, pos) = (shared.game, shared.pos);
    let start = params.started.unwrap_or_else(Instant::now);
    let stop = shared.stop;
    let mut s = Searcher::new(shared, 0, params, start);
    s.finish_first = params.multipv > 1;
    let deadlines = s.deadlines;
    // Root work of the game (a solver) may take at most half the time before the soft deadline,
    // so that at least the first iteration is searched; the stop flag interrupts it too.
    let root_deadline = deadlines.soft.map(|soft| start + (soft - start) / 2);
    let pondering = || {
        params
            .ponder
            .as_ref()
            .is_some_and(|p| p.load(Ordering::Relaxed))
    };
    let interrupt = || {
        stop.load(Ordering::Relaxed)
            || (root_deadline.is_some_and(|t| Instant::now() >= t) && !pondering())
    };
    if let Some(done) = oracle::decided(shared, params, start, on_info) {
        return done;
    }
    let RootMoves { search, proven } = game.root_until(pos, &interrupt);
    s.root = search;
    if params.seed != 0 {
        s.root.shuffle(&mut SmallRng::seed_from_u64(params.seed));
    }
    let root = s.root.clone();
    // A move the game proved best is the first line of every iteration, as it is.
    let proof_nodes = proven.as_ref().map_or(0, |p| p.nodes);
    let proven = proven.map(|p| PvLine {
        score: if p.win {
            MATE - p.plies as i32
        } else {
            p.plies as i32 - MATE
        },
        depth: p.plies,
        pv: p.pv,
    });
    let first = proven.as_ref().map_or(&root[..], |p| &p.pv[..1]);
    let mut result = SearchResult {
        best: first.first().copied(),
        score: proven.as_ref().map_or(0, |p| p.score),
        depth: 0,
        nodes: 0,
        pv: proven
            .as_ref()
            .map_or_else(|| first.iter().take(1).copied().collect(), |p| p.pv.clone()),
        lines: Vec::new(),
    };
    let wanted = params
        .multipv
        .clamp(1, root.len() + usize::from(proven.is_some()))
        - usize::from(proven.is_some());
    if let Some(line) = proven.clone().filter(|_| wanted == 0) {
        // Nothing left to search: the proof is the answer, reported at the depth it reached,
        // but never past the depth asked for (a `go depth 1` answers depth 1).
        let depth = params
            .limits
            .depth
            .map_or(line.depth, |d| line.depth.min(d.max(1)));
        let info = Info {
            nodes: proof_nodes,
            depth,
            seldepth: line.pv.len() as u32,
            multipv: (params.multipv > 1).then_some(1),
            ..s.info(&s.progress(start), depth, (line.score, &line.pv), None)
        };
        on_info(&info);
        result.depth = depth;
        result.nodes = proof_nodes;
        result.lines = vec![line];
        return result;
    }
    if root.is_empty() {
        return result;
    }
    let max_depth = params
        .limits
        .depth
        .map_or(DEPTH_LIMIT, |d| d.clamp(1, DEPTH_LIMIT));
    start_helpers(&root, max_depth, start);
    let mut time_use = TimeUse::new(start, deadlines, s.tuning.time_scaling);
    let mut depth = 1;
    while depth <= max_depth {
        s.iteration = depth;
        s.seldepth = 0;
        s.excluded.clear();
        // MultiPV as in Stockfish: the k-th line is the best of the root moves that are not
        // among the k-1 better ones of this iteration.
        let mut lines: Vec<PvLine<G::Move>> = Vec::with_capacity(wanted);
        for k in 0..wanted {
            let score = s.negamax(pos, depth as i32, 0, -INF, INF);
            let pv = s.pv[0].clone();
            if s.superseded {
                break;
            }
            if s.aborted {
                // Root moves searched to the end in the cut-short iteration (previous best
                // first) are better informed than the previous iteration.
                if let Some(&m) = pv.first().filter(|_| k == 0 && proven.is_none()) {
                    if result.best != Some(m) {
                        // The move changed since the last report: the GUI sees its line.
                        let multipv = (params.multipv > 1).then_some(1);
                        on_info(&s.info(&s.progress(start), depth, (score, &pv), multipv));
                    }
                    result.best = Some(m);
                    result.pv = pv;
                    result.score = score;
                }
                break;
            }
            match pv.first() {
                Some(&m) => s.excluded.push(m),
                None if k > 0 => break,
                None => {}
            }
            let pv = if pv.is_empty() { result.pv.clone() } else { pv };
            lines.push(PvLine { score, depth, pv });
        }
        if s.superseded {
            // A helper completed this depth (or a deeper one) first: its line is this
            // iteration's, and the search goes on after it.
            s.aborted = false;
            s.superseded = false;
            let Some((line, seldepth)) = s.finished.lock().ok().and_then(|l| l.clone()) else {
                depth = s.frontier.load(Ordering::Relaxed) + 1;
                continue;
            };
            depth = line.depth;
            s.seldepth = seldepth;
            lines = vec![line];
        } else if s.aborted {
            if let Some(best) = lines.first().filter(|_| proven.is_none()) {
                // The best line of the cut-short iteration saw every root move.
                if result.best != best.pv.first().copied() {
                    let line = (best.score, &best.pv[..]);
                    on_info(&s.info(&s.progress(start), depth, line, Some(1)));
                }
                result.best = best.pv.first().copied();
                result.pv = best.pv.clone();
                result.score = best.score;
            }
            break;
        }
        // Later lines may come out better than earlier ones (the table changed meanwhile).
        lines.sort_by_key(|l| std::cmp::Reverse(l.score));
        let searched_proven = proven_lines(&lines, depth);
        if let Some(p) = &proven {
            lines.insert(0, PvLine { depth, ..p.clone() });
        }
        let best = &lines[0];
        let previous = result.best;
        if let Some(&m) = best.pv.first() {
            result.best = Some(m);
        }
        result.pv = best.pv.clone();
        result.score = best.score;
        result.depth = depth;
        result.nodes = s.nodes;
        time_use.iteration_done(result.best != previous, result.score);
        // One reading for all the lines: they report one iteration (protocol.md).
        let at = s.progress(start);
        for (k, line) in lines.iter().enumerate() {
            let multipv = (params.multipv > 1).then_some(k as u32 + 1);
            on_info(&s.info(&at, depth, (line.score, &line.pv), multipv));
        }
        result.lines = lines;
        if searched_proven {
            break; // a proven result cannot change with more depth
        }
        if root.len() == 1 && !params.limits.infinite && params.limits.depth.is_none() {
            break; // only move: no need to think
        }
        if let Some(soft) = time_use.soft() {
            if Instant::now() >= soft && !s.pondering() {
                break;
            }
        }
        s.frontier.fetch_max(depth, Ordering::Relaxed);
        depth += 1;
    }
    if result.lines.is_empty() {
        result.lines.push(PvLine {
            score: result.score,
            depth: result.depth,
            pv: result.pv.clone(),
        });
    }
    result.nodes = s.nodes;
    // `infinite` must not return before `stop` (UCI rule); the caller waits for the flag.
    result
}

/// A one-move PV (the search stopped before the reply's line was searched) gets the table's
/// move for the position after it, when that move is legal there, so that the expected reply
/// (`bestmove M ponder P`) is known as often as it can be.
pub(super) fn extend_from_table<G: Game>(
    game: &G,
    pos: &G::Pos,
    tt: &Table<G::Move>,
    pv: &mut Vec<G::Move>,
) {
    let child = game.make(pos, pv[0]);
    if game.terminal(&child).is_some() {
        return;
    }
    let Some(code) = tt.probe(game.hash(&child)).and_then(|e| e.mv) else {
        return;
    };
    let mut moves = Vec::new();
    game.legal_moves(&child, &mut moves);
    if let Some(&m) = moves.iter().find(|m| MoveCode::of(*m) == code) {
        pv.push(m);
    }
}
