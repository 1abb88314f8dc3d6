//! The node search: negamax alpha-beta with principal-variation search, a transposition table,
//! move ordering (in `movepick`), late-move reductions, internal iterative reduction, reverse
//! futility and late-move pruning where the game allows them ([`SearchTuning`]), forced-move
//! extension (quiescence for games with compulsory captures) and mate-distance scores. One
//! [`Searcher`] per thread; `deepen` drives it depth by depth, `threads` starts the threads.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::abdada::{Busy, DEFER_DEPTH};
use super::movepick::{MoveOrder, Pick};
use super::oracle::{self, Oracle, TB_BOUND};
use super::threads::{Finished, Shared};
use super::time::Deadlines;
use super::tt::{Bound, Table};
use super::Params;
use crate::games::prelude::*;
use crate::games::{
    self, DrawRules, DrawTracker, Outcome, Reductions, SearchTuning, Terminal, EVAL_LIMIT,
};

/// Score of a win found at the root; a win `n` plies away scores `MATE - n`.
pub const MATE: i32 = 30_000;
pub(super) const INF: i32 = MATE + 1;
/// Scores beyond this are wins/losses with a known distance.
pub const MATE_BOUND: i32 = MATE - 1_000;
pub(super) const MAX_PLY: usize = 128;
/// Time is read at most every this many nodes (the stop flag every node)...
const CLOCK_CHECK_MAX: u64 = 256;
/// ...and at every node while nodes cost more than this on average: then a read is cheap next to
/// a node, and a node of some games (dense Phutball) can take tens of milliseconds, so that
/// reading every few hundred nodes would overrun the clock by seconds.
const SLOW_NODE: Duration = Duration::from_micros(5);
/// Depths and move indices beyond these share the last entry of the reduction table.
const LMR_DEPTHS: usize = 64;
const LMR_MOVES: usize = 64;
/// The reduction table's unit, a 1024th of a ply: integer arithmetic keeps the fractions the
/// game's percentage scales before the rounding to whole plies.
const LMR_UNIT: i64 = 1024;
/// Reverse futility and late-move pruning act only this near the horizon, where a static
/// margin or a move count can stand in for the few plies left; higher up one wrong cut hides a
/// whole subtree. The games' settings were measured with this depth (docs/strength/engine.md).
const PRUNE_DEPTH: i32 = 3;
/// Late-move pruning keeps `LATE_MOVES_BASE + depth²` quiet moves (times the game's
/// percentage): the count grows fast with the depth left, as a deeper cut costs more (the
/// Stockfish shape; measured with these values, docs/strength/engine.md).
const LATE_MOVES_BASE: i32 = 3;
/// Internal iterative reduction from this depth on: nearer the horizon a node without a table
/// move is cheap enough to search in its untried order.
const IIR_DEPTH: i32 = 4;
/// [`Reductions::Fixed`], the search's first reductions (kept by the games where the log
/// shape measured no gain): quiet moves of non-PV nodes at least `FIXED_LMR_DEPTH` deep lose a
/// ply from index `FIXED_LMR_ONE` (0-based), two from `FIXED_LMR_TWO`; below that depth a
/// reduction would leave nothing to search.
const FIXED_LMR_DEPTH: i32 = 3;
const FIXED_LMR_ONE: usize = 3;
const FIXED_LMR_TWO: usize = 10;
/// [`Reductions::Log`]: nodes shallower than this are not reduced (the reduced search keeps
/// a ply), nor the first `LOG_LMR_FROM` moves, the ordering's best guesses.
const LOG_LMR_DEPTH: i32 = 3;
const LOG_LMR_FROM: usize = 2;

/// `ln(depth)·ln(index)` in [`LMR_UNIT`]s, the shape of the late-move reductions.
fn lmr_table() -> &'static [[i32; LMR_MOVES]; LMR_DEPTHS] {
    static TABLE: std::sync::OnceLock<[[i32; LMR_MOVES]; LMR_DEPTHS]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [[0; LMR_MOVES]; LMR_DEPTHS];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (i, r) in row.iter_mut().enumerate().skip(1) {
                *r = ((d as f64).ln() * (i as f64).ln() * LMR_UNIT as f64) as i32;
            }
        }
        t
    })
}

/// One thread's search: its counters, stacks and move ordering, and what it shares with the
/// others.
pub(super) struct Searcher<'a, G: Game> {
    pub(super) game: &'a G,
    pub(super) tt: &'a Table<G::Move>,
    pub(super) stop: &'a AtomicBool,
    /// Set when the main thread is done (or a thread failed): every thread stops.
    pub(super) halt: &'a AtomicBool,
    /// Node counts of every thread of the search, published at each clock check.
    pub(super) counters: &'a [AtomicU64],
    /// This thread's index in `counters`; 0 is the main thread.
    pub(super) id: usize,
    /// The helpers' published node counts (main thread only), for the node limit.
    pub(super) others: u64,
    /// The deepest iteration any thread has completed, and the deepest line a helper completed.
    pub(super) frontier: &'a AtomicU32,
    pub(super) finished: &'a Finished<G::Move>,
    /// Whether this thread leaves an iteration as soon as another thread has completed it
    /// (several threads, not the main thread of a MultiPV search, and not a game whose threads
    /// deepen independently).
    pub(super) race: bool,
    /// The depth of the iteration under way, and whether it was left for another thread's.
    pub(super) iteration: u32,
    pub(super) superseded: bool,
    pub(super) rules: DrawRules,
    pub(super) tuning: SearchTuning,
    /// Whether the game needs [`Searcher::forcing`] at every node (something may be cut).
    pub(super) track_forcing: bool,
    /// Per ply: the node's position is forcing (known at every node when `track_forcing`, else
    /// only at the horizon).
    pub(super) forcing: Vec<bool>,
    /// Per ply: the move that led to the node makes a threat ([`SearchTuning::threat_hint`]).
    pub(super) threat: Vec<bool>,
    pub(super) search_repetition: bool,
    pub(super) deadlines: Deadlines,
    pub(super) node_limit: Option<u64>,
    /// The first iteration runs to its end whatever the clock and the node limit say (only
    /// `stop` ends it): a MultiPV search lists every line it gives at depth 1 at least.
    pub(super) finish_first: bool,
    pub(super) nodes: u64,
    /// Node count at which the clock is read next, the interval, and when it was last read.
    pub(super) next_check: u64,
    pub(super) check_every: u64,
    pub(super) last_check: Instant,
    pub(super) seldepth: u32,
    pub(super) aborted: bool,
    pub(super) tracker: DrawTracker,
    pub(super) order: MoveOrder<G::Move>,
    pub(super) pv: Vec<Vec<G::Move>>,
    /// The root's moves, asked of the game once per search (it may take a while).
    pub(super) root: Vec<G::Move>,
    /// Root moves left out of the current root search: the better PVs of this iteration
    /// (MultiPV). Empty with a single PV.
    pub(super) excluded: Vec<G::Move>,
    /// Set while pondering: the clock does not run yet.
    pub(super) ponder: Option<&'a AtomicBool>,
    pub(super) buffers: Vec<Vec<G::Move>>,
    /// The moves the threads are searching (several threads and
    /// [`crate::games::ThreadTuning::share_moves`]).
    pub(super) busy: Option<&'a Busy>,
    /// The game's oracle; positions it covers are scored, not searched.
    pub(super) oracle: Option<&'a dyn Oracle<G>>,
    pub(super) tbhits: &'a AtomicU64,
    /// A position before the root, since the last progress move, occurred twice
    /// (`oracle::score`).
    pub(super) stale: bool,
}

fn terminal_score<G: Game>(game: &G, pos: &G::Pos, t: Terminal, ply: usize) -> i32 {
    match t.outcome {
        Outcome::Draw => 0,
        Outcome::Win(side) if side == game.side_to_move(pos) => MATE - ply as i32,
        Outcome::Win(_) => -(MATE - ply as i32),
    }
}

// Database scores count from the root as mates do, so they are stored from the node too.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score > TB_BOUND {
        score + ply as i32
    } else if score < -TB_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score > TB_BOUND {
        score - ply as i32
    } else if score < -TB_BOUND {
        score + ply as i32
    } else {
        score
    }
}

impl<G: Game> Searcher<'_, G> {
    pub(super) fn out_of_time(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        let bounded = !(self.finish_first && self.iteration == 1);
        if self.stop.load(Ordering::Relaxed)
            || self.halt.load(Ordering::Relaxed)
            || (bounded
                && self
                    .node_limit
                    .is_some_and(|n| self.nodes + self.others >= n))
        {
            self.aborted = true;
        } else if self.race && self.frontier.load(Ordering::Relaxed) >= self.iteration {
            self.aborted = true;
            self.superseded = true;
        } else if self.nodes >= self.next_check {
            self.publish();
            // With no deadline the clock is not read: spacing the checks by the time nodes took
            // would make the path the search takes depend on the machine's speed. The spacing
            // grows as it does for fast nodes.
            let Some(hard) = self.deadlines.hard else {
                self.check_every = (self.check_every * 2).min(CLOCK_CHECK_MAX);
                self.next_check = self.nodes + self.check_every;
                return self.aborted;
            };
            let now = Instant::now();
            if bounded && now >= hard && !self.pondering() {
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

    /// Makes this thread's node count visible to the others (and, for the main thread, reads
    /// theirs).
    fn publish(&mut self) {
        self.counters[self.id].store(self.nodes, Ordering::Relaxed);
        if self.id == 0 && self.counters.len() > 1 {
            self.others = self.helper_nodes();
        }
    }

    pub(super) fn helper_nodes(&self) -> u64 {
        self.counters[1..]
            .iter()
            .map(|c| c.load(Ordering::Relaxed))
            .sum()
    }

    pub(super) fn pondering(&self) -> bool {
        self.ponder.is_some_and(|p| p.load(Ordering::Relaxed))
    }

    /// Plies a quiet move at `index` (0-based) of a node `depth` deep is reduced by.
    fn reduction(&self, depth: i32, index: usize, is_pv: bool) -> i32 {
        let percent = match self.tuning.reductions {
            Reductions::Fixed => {
                return if depth >= FIXED_LMR_DEPTH && index >= FIXED_LMR_ONE && !is_pv {
                    1 + i32::from(index >= FIXED_LMR_TWO)
                } else {
                    0
                };
            }
            Reductions::Log { percent } => percent,
        };
        if depth < LOG_LMR_DEPTH || index < LOG_LMR_FROM {
            return 0;
        }
        let d = (depth as usize).min(LMR_DEPTHS - 1);
        let i = (index + 1).min(LMR_MOVES - 1);
        let r = i64::from(lmr_table()[d][i]) * i64::from(percent) / 100;
        // Halved (`ln·ln·percent/200` plies) and rounded to the nearest ply, one less at PV
        // nodes; the reduced search keeps a ply.
        (((r + LMR_UNIT) / (2 * LMR_UNIT)) as i32 - i32::from(is_pv)).clamp(0, depth - 2)
    }

    pub(super) fn negamax(
        &mut self,
        pos: &G::Pos,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if ply > 0 && self.out_of_time() {
            return 0;
        }
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply as u32);
        let game = self.game;
        let is_pv = beta - alpha > 1;

        if ply > 0 {
            // Whether a move exists is asked here only to confirm a draw; otherwise an empty
            // move list below tells.
            let draw = self.draw_now();
            let has_move = || draw.is_none() || game.has_legal_move(pos);
            if let Some(t) = games::ending(game, pos, has_move, || draw) {
                return terminal_score(game, pos, t, ply);
            }
            // Mate-distance pruning: no line from here beats a mate already found nearer.
            let a = alpha.max(-(MATE - ply as i32));
            let b = beta.min(MATE - ply as i32 - 1);
            if a >= b {
                return a;
            }
            if let Some(v) = self.oracle.and_then(|o| o.probe(pos)) {
                self.tbhits.fetch_add(1, Ordering::Relaxed);
                if let Some(s) = oracle::score(v, &self.tracker, &self.rules, self.stale, ply) {
                    return s;
                }
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
        let tuning = self.tuning;
        // A threat here or one the parent had (a square ready, a capture due) may decide the
        // game within a ply or two: such a node is searched in full.
        let threatened = if depth <= 0 {
            forcing
        } else {
            self.track_forcing && game.is_forcing(pos)
        };
        self.forcing[ply] = threatened;
        let guarded = threatened || (ply > 0 && (self.forcing[ply - 1] || self.threat[ply]));
        let may_cut = !is_pv && ply > 0 && depth > 0 && !guarded;
        // Reverse futility: so far above beta near the horizon that a few plies will not undo it.
        if let Some(margin) = tuning.futility_margin {
            if may_cut && depth <= PRUNE_DEPTH && beta.abs() < MATE_BOUND {
                let eval = game.evaluate(pos).clamp(-EVAL_LIMIT, EVAL_LIMIT);
                if eval - margin * depth >= beta {
                    return eval;
                }
            }
        }
        // No table move this deep: the node was never searched, so a shallower search first is
        // cheaper than a full one in an untried order (internal iterative reduction).
        if tuning.iir && depth >= IIR_DEPTH && ply > 0 && tt_move.is_none() && !guarded {
            depth -= 1;
        }
        let late_moves = match tuning.late_move_percent {
            Some(percent) if may_cut && depth <= PRUNE_DEPTH => {
                (LATE_MOVES_BASE + depth * depth) as usize * percent as usize / 100
            }
            _ => usize::MAX,
        };

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
            return match games::ending(game, pos, || game.has_legal_move(pos), || None) {
                Some(t) => terminal_score(game, pos, t, ply),
                None => game.evaluate(pos),
            };
        }

        let mut picker = self
            .order
            .picker(game, pos, ply, &moves, tt_move, tuning.threat_hint);
        self.buffers[ply] = moves;

        let orig_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        let n = picker.len();
        let busy = self.busy.filter(|_| depth >= DEFER_DEPTH);
        // The main thread does not put off root moves: its cut-short last iteration, which
        // often decides the move, would miss them. A helper does, and so searches ahead of it.
        let may_defer = ply > 0 || self.id > 0;
        // Moves another thread was searching when they came up, in the order they came.
        let mut deferred = Vec::new();
        let mut next_deferred = 0;
        // The first move is everybody's (young brothers wait); the others are shared out.
        let tag_of = |p: &Pick<G::Move>| {
            busy.filter(|_| p.index > 0)
                .map(|b| (b, Busy::tag(key, &p.mv)))
        };
        loop {
            let (pick, share) = match picker.next() {
                Some(p) => {
                    let share = tag_of(&p);
                    if may_defer && share.is_some_and(|(b, t)| b.taken(t)) {
                        deferred.push((p, share));
                        continue;
                    }
                    (p, share)
                }
                None if next_deferred < deferred.len() => {
                    next_deferred += 1;
                    deferred[next_deferred - 1]
                }
                None => break,
            };
            let (i, m) = (pick.index, pick.mv);
            let quiet = pick.quiet && !forcing;
            if quiet && !pick.threat && i >= late_moves && best > -MATE_BOUND {
                // With history malus the moves passed over count as tried before a later
                // cutoff, so they stay in the picker.
                if !tuning.history_malus {
                    picker.keep_threats();
                }
                continue;
            }
            if let Some((b, t)) = share {
                b.enter(t);
            }
            self.threat[ply + 1] = pick.threat;
            let child = game.make(pos, m);
            let progress = game.is_progress(pos, m);
            self.tracker.push(game.hash(&child), progress);
            // A forced capture sequence is not counted as depth (quiescence); a single reply is
            // searched one ply deeper for free.
            // (A root with the better PVs left out is not a single reply.)
            let single = n == 1 && (ply > 0 || self.excluded.is_empty());
            let new_depth = if forcing || single { depth } else { depth - 1 };
            let mut score;
            if i == 0 {
                score = -self.negamax(&child, new_depth, ply + 1, -beta, -alpha);
            } else {
                // The log reductions spare threats; the fixed ones predate threat hints.
                let log = matches!(tuning.reductions, Reductions::Log { .. });
                let r = if quiet && !((guarded || pick.threat) && log) {
                    self.reduction(depth, i, is_pv)
                } else {
                    0
                };
                score = -self.negamax(&child, new_depth - r, ply + 1, -alpha - 1, -alpha);
                if score > alpha && (r > 0 || score < beta) {
                    score = -self.negamax(&child, new_depth, ply + 1, -beta, -alpha);
                }
            }
            self.tracker.pop();
            if let Some((b, t)) = share {
                b.leave(t);
            }
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
                            self.order.cutoff(
                                ply,
                                m,
                                depth,
                                tuning.history_malus.then_some(&picker),
                            );
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
        self.tt.store(
            key,
            best_move.as_ref(),
            to_tt(best, ply),
            depth.max(0) as i16,
            bound,
        );
        best
    }

    /// The draw search scores at the current node: a repetition (when the game has repetition
    /// draws, already the second occurrence), or the no-progress count run out.
    fn draw_now(&self) -> Option<Terminal> {
        if self.search_repetition && self.tracker.repeated() {
            return Some(Terminal::new(Outcome::Draw, "repetition"));
        }
        let n = self.rules.no_progress_plies?;
        (self.tracker.quiet_plies() >= n as usize)
            .then(|| Terminal::new(Outcome::Draw, "no-progress"))
    }
}

impl<'a, G: Game> Searcher<'a, G> {
    /// The searcher of thread `id` (0: the main thread) of a search started at `start`.
    pub(super) fn new(shared: &Shared<'a, G>, id: usize, params: &Params, start: Instant) -> Self {
        let game = shared.game;
        let rules = game.draw_rules();
        let tuning = game.search_tuning();
        Searcher {
            game,
            tt: shared.tt,
            stop: shared.stop,
            halt: shared.halt,
            counters: shared.counters,
            id,
            others: 0,
            frontier: shared.frontier,
            finished: shared.finished,
            race: shared.counters.len() > 1
                && (id > 0 || params.multipv <= 1)
                && !tuning.threads.independent,
            iteration: 0,
            superseded: false,
            rules,
            tuning,
            track_forcing: tuning.futility_margin.is_some()
                || tuning.late_move_percent.is_some()
                || tuning.iir
                || tuning.reductions != Reductions::Fixed,
            forcing: vec![false; MAX_PLY + 1],
            threat: vec![false; MAX_PLY + 1],
            search_repetition: rules.repetition.is_some() || rules.search_repetition,
            deadlines: params.limits.deadlines_for(
                start,
                params.move_overhead_ms,
                game.moves_left(shared.pos),
            ),
            node_limit: params.limits.nodes,
            finish_first: false,
            nodes: 0,
            next_check: 0,
            check_every: 1,
            last_check: start,
            seldepth: 0,
            aborted: false,
            tracker: shared.history.clone(),
            order: MoveOrder::new(MAX_PLY),
            pv: vec![Vec::new(); MAX_PLY + 1],
            root: Vec::new(),
            excluded: Vec::new(),
            ponder: shared.ponder,
            buffers: vec![Vec::new(); MAX_PLY],
            busy: shared.busy,
            oracle: shared.oracle,
            tbhits: shared.tbhits,
            stale: shared.oracle.is_some() && oracle::repeats(shared.history),
        }
    }
}
