//! Iterative-deepening negamax alpha-beta with principal-variation search, a transposition
//! table, move ordering (in `movepick`), late-move reductions, forced-move extension (quiescence
//! for games with compulsory captures) and mate-distance scores. Generic over [`Game`].

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use super::movepick::MoveOrder;
use super::time::{Deadlines, Limits};
use super::tt::{Bound, Table};
use crate::games::{DrawRules, DrawTracker, Game, Outcome, Terminal, EVAL_LIMIT};

/// Score of a win found at the root; a win `n` plies away scores `MATE - n`.
pub const MATE: i32 = 30_000;
const INF: i32 = MATE + 1;
/// Scores beyond this are wins/losses with a known distance.
pub const MATE_BOUND: i32 = MATE - 1_000;
const MAX_PLY: usize = 128;
/// Time is read at most every this many nodes (the stop flag every node)...
const CLOCK_CHECK_MAX: u64 = 256;
/// ...and at every node while nodes cost more than this on average: then a read is cheap next to
/// a node, and a node of some games (dense Phutball) can take tens of milliseconds, so that
/// reading every few hundred nodes would overrun the clock by seconds.
const SLOW_NODE: Duration = Duration::from_micros(5);

/// What one search is asked to do.
#[derive(Clone, Debug, Default)]
pub struct Params {
    pub limits: Limits,
    pub move_overhead_ms: u64,
    /// When the move time started (the `go` or `genmove` was read); `None`: now.
    pub started: Option<Instant>,
    /// 0: root moves are tried in the game's order. Otherwise the root moves are shuffled by
    /// this seed before the search, so that among moves the ordering ranks alike (and that then
    /// often score alike) another one may be found first and played.
    pub seed: u64,
    /// How many best root moves to find, each with its own score and PV (MultiPV); 0 or 1:
    /// only the best.
    pub multipv: usize,
    /// While this flag is set the search is pondering: no time limit applies (nodes and depth
    /// do). Clearing it (`ponderhit`) puts `limits` in force, counted from `started`.
    pub ponder: Option<Arc<AtomicBool>>,
}

/// Progress reported after each completed iteration.
#[derive(Clone, Debug)]
pub struct Info<M> {
    pub depth: u32,
    pub seldepth: u32,
    pub score: i32,
    pub nodes: u64,
    pub elapsed_ms: u64,
    pub pv: Vec<M>,
    pub hashfull: u32,
    /// Which of the best root moves this line is (1 = the best) when more than one is
    /// searched (MultiPV); `None` with a single PV.
    pub multipv: Option<u32>,
}

/// One of the best root moves: its score, the depth it was searched to and its PV (which
/// starts with the move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PvLine<M> {
    pub score: i32,
    pub depth: u32,
    pub pv: Vec<M>,
}

/// Result of [`search`].
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    pub best: Option<M>,
    pub score: i32,
    /// Last fully completed iteration.
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<M>,
    /// The best root moves of the last completed iteration, best first (as many as `multipv`
    /// asked for and the root has); when no iteration was completed, the move returned.
    pub lines: Vec<PvLine<M>>,
}

/// Formats a score the UCI way: `cp N` or `mate N` (moves, negative when losing).
pub fn uci_score(score: i32) -> String {
    if score > MATE_BOUND {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score < -MATE_BOUND {
        format!("mate -{}", (MATE + score + 1) / 2)
    } else {
        format!("cp {score}")
    }
}

struct Searcher<'a, G: Game> {
    game: &'a G,
    tt: &'a mut Table<G::Move>,
    stop: &'a AtomicBool,
    rules: DrawRules,
    search_repetition: bool,
    deadlines: Deadlines,
    node_limit: Option<u64>,
    nodes: u64,
    /// Node count at which the clock is read next, the interval, and when it was last read.
    next_check: u64,
    check_every: u64,
    last_check: Instant,
    seldepth: u32,
    aborted: bool,
    tracker: DrawTracker,
    order: MoveOrder<G::Move>,
    pv: Vec<Vec<G::Move>>,
    /// The root's moves, asked of the game once per search (it may take a while).
    root: Vec<G::Move>,
    /// Root moves left out of the current root search: the better PVs of this iteration
    /// (MultiPV). Empty with a single PV.
    excluded: Vec<G::Move>,
    /// Set while pondering: the clock does not run yet.
    ponder: Option<&'a AtomicBool>,
    buffers: Vec<Vec<G::Move>>,
}

fn terminal_score<G: Game>(game: &G, pos: &G::Pos, t: Terminal, ply: usize) -> i32 {
    match t.outcome {
        Outcome::Draw => 0,
        Outcome::Win(side) if side == game.side_to_move(pos) => MATE - ply as i32,
        Outcome::Win(_) => -(MATE - ply as i32),
    }
}

fn to_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

impl<G: Game> Searcher<'_, G> {
    fn out_of_time(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.stop.load(Ordering::Relaxed) || self.node_limit.is_some_and(|n| self.nodes >= n) {
            self.aborted = true;
        } else if self.nodes >= self.next_check {
            let now = Instant::now();
            if self.deadlines.hard.is_some_and(|hard| now >= hard) && !self.pondering() {
                self.aborted = true;
            }
            let per_node = now.duration_since(self.last_check) / self.check_every as u32;
            self.check_every = if per_node > SLOW_NODE {
                1
            } else {
                (self.check_every * 2).min(CLOCK_CHECK_MAX)
            };
            self.last_check = now;
            self.next_check = self.nodes + self.check_every;
        }
        self.aborted
    }

    fn pondering(&self) -> bool {
        self.ponder.is_some_and(|p| p.load(Ordering::Relaxed))
    }

    fn negamax(&mut self, pos: &G::Pos, depth: i32, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if ply > 0 && self.out_of_time() {
            return 0;
        }
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply as u32);
        let game = self.game;
        let is_pv = beta - alpha > 1;

        if ply > 0 {
            if let Some(t) = game.terminal(pos) {
                return terminal_score(game, pos, t, ply);
            }
            if self.search_repetition && self.tracker.repeated() {
                return 0;
            }
            if let Some(n) = self.rules.no_progress_plies {
                if self.tracker.quiet_plies() >= n as usize && !self.no_legal_move(pos) {
                    return 0;
                }
            }
            // Mate-distance pruning: no line from here beats a mate already found nearer.
            let a = alpha.max(-(MATE - ply as i32));
            let b = beta.min(MATE - ply as i32 - 1);
            if a >= b {
                return a;
            }
        }
        if ply >= MAX_PLY - 1 {
            return game.evaluate(pos);
        }

        let key = game.hash(pos);
        let mut tt_move = None;
        if let Some(e) = self.tt.probe(key) {
            tt_move = e.mv;
            if ply > 0 && !is_pv && i32::from(e.depth) >= depth {
                let s = from_tt(e.score, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
        }

        let forcing = depth <= 0 && game.is_forcing(pos);
        if depth <= 0 && !forcing {
            return game.evaluate(pos).clamp(-EVAL_LIMIT, EVAL_LIMIT);
        }

        let mut moves = std::mem::take(&mut self.buffers[ply]);
        moves.clear();
        if ply == 0 {
            let excluded = &self.excluded;
            moves.extend(self.root.iter().filter(|m| !excluded.contains(m)));
        } else {
            game.search_moves(pos, &mut moves);
        }
        if moves.is_empty() {
            self.buffers[ply] = moves;
            if self.no_legal_move(pos) {
                return terminal_score(game, pos, game.no_moves(pos), ply);
            }
            return game.evaluate(pos);
        }

        let mut picker = self.order.picker(game, pos, ply, &moves, tt_move);
        self.buffers[ply] = moves;

        let orig_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        let n = picker.len();
        while let Some(pick) = picker.next() {
            let (i, m) = (pick.index, pick.mv);
            let child = game.make(pos, m);
            let progress = game.is_progress(pos, m);
            self.tracker.push(game.hash(&child), progress);
            // A forced capture sequence is not counted as depth (quiescence); a single reply is
            // searched one ply deeper for free.
            // (A root with the better PVs left out is not a single reply.)
            let single = n == 1 && (ply > 0 || self.excluded.is_empty());
            let new_depth = if forcing || single { depth } else { depth - 1 };
            let quiet = pick.quiet && !forcing;
            let mut score;
            if i == 0 {
                score = -self.negamax(&child, new_depth, ply + 1, -beta, -alpha);
            } else {
                let r = if depth >= 3 && i >= 3 && quiet && !is_pv {
                    1 + i32::from(i >= 10)
                } else {
                    0
                };
                score = -self.negamax(&child, new_depth - r, ply + 1, -alpha - 1, -alpha);
                if score > alpha && (r > 0 || score < beta) {
                    score = -self.negamax(&child, new_depth, ply + 1, -beta, -alpha);
                }
            }
            self.tracker.pop();
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(m);
                    head[ply].extend_from_slice(&tail[0]);
                    if alpha >= beta {
                        if quiet {
                            self.order.cutoff(ply, m, depth);
                        }
                        break;
                    }
                }
            }
        }
        self.order.give_back(ply, picker);
        if self.aborted {
            return best.max(-INF + 1);
        }
        if ply == 0 && !self.excluded.is_empty() {
            // The best of some root moves only, not the position's value: not for the table.
            return best;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, best_move, to_tt(best, ply), depth.max(0) as i16, bound);
        best
    }

    fn no_legal_move(&self, pos: &G::Pos) -> bool {
        !self.game.has_legal_move(pos)
    }
}

/// Runs a search from `pos`. `history` is the game so far (for repetition and no-progress
/// draws). `on_info` is called after every completed iteration. Always returns a move when the
/// position has one, even if stopped at once.
pub fn search<G: Game>(
    game: &G,
    pos: &G::Pos,
    history: &DrawTracker,
    tt: &mut Table<G::Move>,
    stop: &AtomicBool,
    params: &Params,
    mut on_info: impl FnMut(&Info<G::Move>),
) -> SearchResult<G::Move> {
    let start = params.started.unwrap_or_else(Instant::now);
    let deadlines = params.limits.deadlines(start, params.move_overhead_ms);
    let rules = game.draw_rules();
    tt.new_search();
    let mut s = Searcher {
        game,
        tt,
        stop,
        rules,
        search_repetition: rules.repetition.is_some() || rules.search_repetition,
        deadlines,
        node_limit: params.limits.nodes,
        nodes: 0,
        next_check: 0,
        check_every: 1,
        last_check: start,
        seldepth: 0,
        aborted: false,
        tracker: history.clone(),
        order: MoveOrder::new(MAX_PLY),
        pv: vec![Vec::new(); MAX_PLY + 1],
        root: Vec::new(),
        excluded: Vec::new(),
        ponder: params.ponder.as_deref(),
        buffers: vec![Vec::new(); MAX_PLY],
    };
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
    let mut root = Vec::new();
    game.root_moves_until(pos, &mut root, &interrupt);
    s.root = root;
    if params.seed != 0 {
        s.root.shuffle(&mut SmallRng::seed_from_u64(params.seed));
    }
    let root = s.root.clone();
    let mut result = SearchResult {
        best: root.first().copied(),
        score: 0,
        depth: 0,
        nodes: 0,
        pv: root.first().copied().into_iter().collect(),
        lines: Vec::new(),
    };
    if root.is_empty() {
        return result;
    }
    let max_depth = params
        .limits
        .depth
        .map_or(MAX_PLY as u32 - 8, |d| d.clamp(1, MAX_PLY as u32 - 8));
    let wanted = params.multipv.clamp(1, root.len());
    for depth in 1..=max_depth {
        s.seldepth = 0;
        s.excluded.clear();
        // MultiPV as in Stockfish: the k-th line is the best of the root moves that are not
        // among the k-1 better ones of this iteration.
        let mut lines: Vec<PvLine<G::Move>> = Vec::with_capacity(wanted);
        for k in 0..wanted {
            let score = s.negamax(pos, depth as i32, 0, -INF, INF);
            let pv = s.pv[0].clone();
            if s.aborted {
                // Root moves searched to the end in the cut-short iteration (previous best
                // first) are better informed than the previous iteration.
                if let Some(&m) = pv.first().filter(|_| k == 0) {
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
        if s.aborted {
            if let Some(best) = lines.first() {
                // The best line of the cut-short iteration saw every root move.
                result.best = best.pv.first().copied();
                result.pv = best.pv.clone();
                result.score = best.score;
            }
            break;
        }
        // Later lines may come out better than earlier ones (the table changed meanwhile).
        lines.sort_by_key(|l| std::cmp::Reverse(l.score));
        let best = &lines[0];
        if let Some(&m) = best.pv.first() {
            result.best = Some(m);
        }
        result.pv = best.pv.clone();
        result.score = best.score;
        result.depth = depth;
        result.nodes = s.nodes;
        let elapsed_ms = start.elapsed().as_millis() as u64;
        for (k, line) in lines.iter().enumerate() {
            on_info(&Info {
                depth,
                seldepth: s.seldepth,
                score: line.score,
                nodes: s.nodes,
                elapsed_ms,
                pv: line.pv.clone(),
                hashfull: s.tt.hashfull(),
                multipv: (params.multipv > 1).then_some(k as u32 + 1),
            });
        }
        let proven = lines
            .iter()
            .all(|l| l.score.abs() > MATE_BOUND && (MATE - l.score.abs()) as u32 <= depth);
        result.lines = lines;
        if proven {
            break; // a proven result cannot change with more depth
        }
        if root.len() == 1 && !params.limits.infinite && params.limits.depth.is_none() {
            break; // only move: no need to think
        }
        if let Some(soft) = s.deadlines.soft {
            if Instant::now() >= soft && !s.pondering() {
                break;
            }
        }
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

#[cfg(test)]
mod tests;
