//! Iterative-deepening negamax alpha-beta with principal-variation search, a transposition
//! table, move ordering (in `movepick`), late-move reductions, internal iterative reduction,
//! reverse futility and late-move pruning where the game allows them ([`SearchTuning`]),
//! forced-move extension (quiescence for games with compulsory captures) and mate-distance
//! scores. Generic over [`Game`].
//!
//! With more than one thread the search is Lazy SMP: helper threads search the same root in
//! other orders on the shared, lock-free table, every thread on the depth after the deepest one
//! completed, so that each finds more of its tree already searched and a depth is done when the
//! first thread is done with it. The main thread alone decides when to stop and reports (a
//! helper's completed depth as its own, and a helper's last iteration when it went deeper and
//! scored higher). A game may have its threads deepen independently instead
//! ([`SearchTuning::independent_threads`]), and may have them share the moves of a node out
//! ([`SearchTuning::share_moves`]): at nodes deep enough, each thread puts off the moves after
//! the first that another thread is searching at that moment, and comes back to them after the
//! others (Kerrigan's simplified ABDADA), so that two threads at one node split its moves
//! instead of both searching each. At the root only the helpers do.

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use super::movepick::MoveOrder;
use super::time::{Deadlines, Limits, TimeUse};
use super::tt::{move_hashes, Bound, MoveCode, Table};
use crate::games::prelude::*;
use crate::games::{self, DrawRules, DrawTracker, Outcome, SearchTuning, Terminal, EVAL_LIMIT};

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
/// Depths and move indices beyond these share the last entry of the reduction table.
const LMR_DEPTHS: usize = 64;
const LMR_MOVES: usize = 64;
/// Nodes with at least this depth left take part in [`Busy`]: nearer the horizon a node is
/// cheaper than a deferral. (Time to depth 7 over Pods-advanced game positions measured alike for
/// 3 to 6.)
const DEFER_DEPTH: i32 = 4;
/// Slots of [`Busy`]; collisions only cost a move deferred or searched twice.
const BUSY_SLOTS: usize = 1 << 14;

/// `ln(depth)·ln(index)` in 1/1024ths, the shape of the late-move reductions.
fn lmr_table() -> &'static [[i32; LMR_MOVES]; LMR_DEPTHS] {
    static TABLE: std::sync::OnceLock<[[i32; LMR_MOVES]; LMR_DEPTHS]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [[0; LMR_MOVES]; LMR_DEPTHS];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (i, r) in row.iter_mut().enumerate().skip(1) {
                *r = ((d as f64).ln() * (i as f64).ln() * 1024.0) as i32;
            }
        }
        t
    })
}

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
    /// Search threads; 0 and 1 both mean one (the calling thread, no helper).
    pub threads: usize,
    /// How many best root moves to find, each with its own score and PV (MultiPV); 0 or 1:
    /// only the best.
    pub multipv: usize,
    /// While this flag is set the search is pondering: no time limit applies (nodes and depth
    /// do). Clearing it (`ponderhit`) puts `limits` in force, counted from `started`.
    pub ponder: Option<Arc<AtomicBool>>,
}

/// The most threads one search uses, whatever it is asked for.
pub const MAX_THREADS: usize = 256;

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
    tt: &'a Table<G::Move>,
    stop: &'a AtomicBool,
    /// Set when the main thread is done (or a thread failed): every thread stops.
    halt: &'a AtomicBool,
    /// Node counts of every thread of the search, published at each clock check.
    counters: &'a [AtomicU64],
    /// This thread's index in `counters`; 0 is the main thread.
    id: usize,
    /// The helpers' published node counts (main thread only), for the node limit.
    others: u64,
    /// The deepest iteration any thread has completed, and the deepest line a helper completed.
    frontier: &'a AtomicU32,
    finished: &'a Finished<G::Move>,
    /// Whether this thread leaves an iteration as soon as another thread has completed it
    /// (several threads, not the main thread of a MultiPV search, and not a game whose threads
    /// deepen independently).
    race: bool,
    /// The depth of the iteration under way, and whether it was left for another thread's.
    iteration: u32,
    superseded: bool,
    rules: DrawRules,
    tuning: SearchTuning,
    /// Whether the game needs [`Searcher::forcing`] at every node (something may be cut).
    track_forcing: bool,
    /// Per ply: the node's position is forcing (known at every node when `track_forcing`, else
    /// only at the horizon).
    forcing: Vec<bool>,
    /// Per ply: the move that led to the node makes a threat ([`SearchTuning::threat_hint`]).
    threat: Vec<bool>,
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
    /// The moves the threads are searching (several threads, [`SearchTuning::share_moves`]).
    busy: Option<&'a Busy>,
}

/// Which (node, move) pairs some thread is searching right now, one per slot, for the threads
/// of one search to put off each other's moves (simplified ABDADA). A slot holds a mix of the
/// node's key and the move's hash, or 0.
struct Busy(Vec<AtomicU64>);

impl Busy {
    fn new() -> Self {
        Busy((0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect())
    }

    /// The slot and tag of move `m` at the node with key `key`, worked out once per move of a
    /// node (the move's hash is not free) and used for each of the calls below.
    fn tag<M: std::hash::Hash>(key: u64, m: &M) -> BusyTag {
        let tag = (key ^ move_hashes(m).0.wrapping_mul(0x9e37_79b9_7f4a_7c15)) | 1;
        BusyTag((tag >> 40) as usize % BUSY_SLOTS, tag)
    }

    fn taken(&self, t: BusyTag) -> bool {
        self.0[t.0].load(Ordering::Relaxed) == t.1
    }

    fn enter(&self, t: BusyTag) {
        self.0[t.0].store(t.1, Ordering::Relaxed);
    }

    /// Frees the slot unless another pair has taken it since.
    fn leave(&self, t: BusyTag) {
        let _ = self.0[t.0].compare_exchange(t.1, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

/// A (node, move) pair's slot in [`Busy`] and the tag it leaves there.
#[derive(Clone, Copy)]
struct BusyTag(usize, u64);

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
        if self.stop.load(Ordering::Relaxed)
            || self.halt.load(Ordering::Relaxed)
            || self
                .node_limit
                .is_some_and(|n| self.nodes + self.others >= n)
        {
            self.aborted = true;
        } else if self.race && self.frontier.load(Ordering::Relaxed) >= self.iteration {
            self.aborted = true;
            self.superseded = true;
        } else if self.nodes >= self.next_check {
            self.publish();
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

    /// Makes this thread's node count visible to the others (and, for the main thread, reads
    /// theirs).
    fn publish(&mut self) {
        self.counters[self.id].store(self.nodes, Ordering::Relaxed);
        if self.id == 0 && self.counters.len() > 1 {
            self.others = self.helper_nodes();
        }
    }

    fn helper_nodes(&self) -> u64 {
        self.counters[1..]
            .iter()
            .map(|c| c.load(Ordering::Relaxed))
            .sum()
    }

    /// A helper thread's iterative deepening. Every thread works on the depth after the
    /// deepest one completed, and leaves it as soon as another thread completes it: their root
    /// orders differ, so they cover the root moves in different orders, each finds the other's
    /// subtrees in the table, and a depth is done when the first of them is done. (A
    /// Stockfish-9 schedule that skipped depths measured weaker at 2 threads in Pods advanced,
    /// docs/strength.md.) Without the race (`independent_threads`) it searches every depth in
    /// turn. No reports; it runs until the main thread halts it or the last depth
    /// is done. Returns its nodes and its last completed iteration.
    fn helper(&mut self, pos: &G::Pos, max_depth: u32) -> HelperResult<G::Move> {
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
            if !self.pv[0].is_empty() {
                let line = (
                    PvLine {
                        score,
                        depth,
                        pv: self.pv[0].clone(),
                    },
                    self.seldepth,
                );
                if let Ok(mut slot) = self.finished.lock() {
                    if slot.as_ref().is_none_or(|(l, _)| l.depth < depth) {
                        *slot = Some(line.clone());
                    }
                }
                completed = Some(line);
            }
            let deepest = self.frontier.fetch_max(depth, Ordering::Relaxed).max(depth);
            depth = if self.race { deepest + 1 } else { depth + 1 };
        }
        self.counters[self.id].store(self.nodes, Ordering::Relaxed);
        HelperResult {
            nodes: self.nodes,
            completed,
        }
    }

    /// The report of a line of this (main) thread's search at `depth`; `first_of_many`: the
    /// line is MultiPV's first.
    fn info(
        &self,
        depth: u32,
        score: i32,
        pv: &[G::Move],
        start: Instant,
        first_of_many: bool,
    ) -> Info<G::Move> {
        Info {
            depth,
            seldepth: self.seldepth,
            score,
            nodes: self.nodes + self.helper_nodes(),
            elapsed_ms: start.elapsed().as_millis() as u64,
            pv: pv.to_vec(),
            hashfull: self.tt.hashfull(),
            multipv: first_of_many.then_some(1),
        }
    }

    fn pondering(&self) -> bool {
        self.ponder.is_some_and(|p| p.load(Ordering::Relaxed))
    }

    /// Plies a quiet move at `index` (0-based) of a node `depth` deep is reduced by.
    fn reduction(&self, depth: i32, index: usize, is_pv: bool) -> i32 {
        if self.tuning.lmr_percent == 0 {
            return if depth >= 3 && index >= 3 && !is_pv {
                1 + i32::from(index >= 10)
            } else {
                0
            };
        }
        if depth < 3 || index < 2 {
            return 0;
        }
        let d = (depth as usize).min(LMR_DEPTHS - 1);
        let i = (index + 1).min(LMR_MOVES - 1);
        let r = i64::from(lmr_table()[d][i]) * i64::from(self.tuning.lmr_percent) / 100;
        // Rounded to the nearest ply, one less at PV nodes; the reduced search keeps a ply.
        (((r + 1024) / 2048) as i32 - i32::from(is_pv)).clamp(0, depth - 2)
    }

    fn negamax(
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
        if may_cut && depth <= 3 && tuning.futility_margin > 0 && beta.abs() < MATE_BOUND {
            let eval = game.evaluate(pos).clamp(-EVAL_LIMIT, EVAL_LIMIT);
            if eval - tuning.futility_margin * depth >= beta {
                return eval;
            }
        }
        // No table move this deep: the node was never searched, so a shallower search first is
        // cheaper than a full one in an untried order (internal iterative reduction).
        if tuning.iir && depth >= 4 && ply > 0 && tt_move.is_none() && !guarded {
            depth -= 1;
        }
        let late_moves = if may_cut && depth <= 3 && tuning.late_move_percent > 0 {
            (3 + depth * depth) as usize * tuning.late_move_percent as usize / 100
        } else {
            usize::MAX
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
        let tag_of = |p: &super::movepick::Pick<G::Move>| {
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
                let r = if quiet && !((guarded || pick.threat) && tuning.lmr_percent > 0) {
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

/// Runs a search from `pos`. `history` is the game so far (for repetition and no-progress
/// draws). `on_info` is called after every completed iteration. Always returns a move when the
/// position has one, even if stopped at once.
///
/// With `params.threads` above 1, helper threads search too (Lazy SMP) and are joined before
/// this returns; `on_info` is only called by the calling thread, and the result is the main
/// thread's, with every thread's nodes. A panic in any thread stops them all and is resumed
/// here, after every thread has ended.
pub fn search<G: Game>(
    game: &G,
    pos: &G::Pos,
    history: &DrawTracker,
    tt: &mut Table<G::Move>,
    stop: &AtomicBool,
    params: &Params,
    mut on_info: impl FnMut(&Info<G::Move>),
) -> SearchResult<G::Move> {
    let started = params.started.unwrap_or_else(Instant::now);
    tt.new_search();
    let tt: &Table<G::Move> = tt;
    let threads = params.threads.clamp(1, MAX_THREADS);
    let halt = AtomicBool::new(false);
    let counters: Vec<AtomicU64> = (0..threads).map(|_| AtomicU64::new(0)).collect();
    let frontier = AtomicU32::new(0);
    let finished = Mutex::new(None);
    let busy = (threads > 1 && game.search_tuning().share_moves).then(Busy::new);
    let shared = Shared {
        stop,
        halt: &halt,
        counters: &counters,
        ponder: params.ponder.as_deref(),
        frontier: &frontier,
        finished: &finished,
        busy: busy.as_ref(),
    };
    thread::scope(|scope| {
        let mut helpers = Vec::new();
        let mut result = {
            // Halts the helpers however the main thread's search ends, a panic included: the
            // scope waits for them before it lets the panic go on.
            let _halt = HaltOnDrop(&halt, false);
            let start_helpers = |root: &[G::Move], max_depth: u32, start: Instant| {
                for id in 1..threads {
                    let mut h = Searcher::new(game, tt, &shared, id, params, history, start);
                    h.node_limit = None; // the main thread counts every thread's nodes
                    h.root = root.to_vec();
                    // Another order of equal-looking root moves than the main thread's.
                    h.root
                        .shuffle(&mut SmallRng::seed_from_u64(params.seed ^ id as u64));
                    let failed = &halt;
                    let spawned = thread::Builder::new().name("search".into()).spawn_scoped(
                        scope,
                        move || {
                            let _halt = HaltOnDrop(failed, true);
                            h.helper(pos, max_depth)
                        },
                    );
                    match spawned {
                        Ok(handle) => helpers.push(handle),
                        Err(e) => log::warn!("search thread {id} not started: {e}"),
                    }
                }
            };
            catch_unwind(AssertUnwindSafe(|| {
                iterate(
                    game,
                    pos,
                    history,
                    tt,
                    &shared,
                    params,
                    &mut on_info,
                    start_helpers,
                )
            }))
        };
        let mut failure = None;
        let mut deeper: Option<(PvLine<G::Move>, u32)> = None;
        for h in helpers {
            match h.join() {
                Ok(h) => {
                    if let Ok(r) = &mut result {
                        r.nodes += h.nodes;
                    }
                    // Stockfish's rule (before voting): a helper's iteration is taken over the
                    // main thread's only when it went deeper and scored higher.
                    if let (Ok(r), Some((line, seldepth))) = (&result, h.completed) {
                        let best = deeper
                            .as_ref()
                            .map_or((r.depth, r.score), |(l, _)| (l.depth, l.score));
                        if line.depth > best.0 && line.score > best.1 {
                            deeper = Some((line, seldepth));
                        }
                    }
                }
                Err(panic) => failure = failure.or(Some(panic)),
            }
        }
        match (result, failure) {
            (Err(panic), _) | (Ok(_), Some(panic)) => resume_unwind(panic),
            (Ok(mut r), None) => {
                if let Some((line, seldepth)) = deeper.filter(|_| params.multipv <= 1) {
                    on_info(&Info {
                        depth: line.depth,
                        seldepth,
                        score: line.score,
                        nodes: r.nodes,
                        elapsed_ms: started.elapsed().as_millis() as u64,
                        pv: line.pv.clone(),
                        hashfull: tt.hashfull(),
                        multipv: None,
                    });
                    r.best = line.pv.first().copied();
                    r.pv = line.pv.clone();
                    r.score = line.score;
                    r.depth = line.depth;
                    r.lines = vec![line];
                }
                if r.pv.len() == 1 {
                    extend_from_table(game, pos, tt, &mut r.pv);
                }
                r
            }
        }
    })
}

/// A one-move PV (the search stopped before the reply's line was searched) gets the table's
/// move for the position after it, when that move is legal there, so that the expected reply
/// (`bestmove M ponder P`) is known as often as it can be.
fn extend_from_table<G: Game>(game: &G, pos: &G::Pos, tt: &Table<G::Move>, pv: &mut Vec<G::Move>) {
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

/// What a helper thread hands back when it ends.
struct HelperResult<M> {
    nodes: u64,
    /// Its last completed iteration and that iteration's selective depth.
    completed: Option<(PvLine<M>, u32)>,
}

/// What the threads of one search share besides the game and the table.
struct Shared<'a, M> {
    stop: &'a AtomicBool,
    halt: &'a AtomicBool,
    counters: &'a [AtomicU64],
    /// Set while pondering (see [`Params::ponder`]).
    ponder: Option<&'a AtomicBool>,
    /// See [`Searcher::frontier`].
    frontier: &'a AtomicU32,
    finished: &'a Finished<M>,
    /// See [`Searcher::busy`].
    busy: Option<&'a Busy>,
}

/// The deepest iteration a helper completed: its line and selective depth.
type Finished<M> = Mutex<Option<(PvLine<M>, u32)>>;

/// Sets the flag when dropped: always, or (`only_on_panic`) only when unwinding.
struct HaltOnDrop<'a>(&'a AtomicBool, bool);

impl Drop for HaltOnDrop<'_> {
    fn drop(&mut self) {
        if !self.1 || thread::panicking() {
            self.0.store(true, Ordering::Relaxed);
        }
    }
}

impl<'a, G: Game> Searcher<'a, G> {
    fn new(
        game: &'a G,
        tt: &'a Table<G::Move>,
        shared: &Shared<'a, G::Move>,
        id: usize,
        params: &Params,
        history: &DrawTracker,
        start: Instant,
    ) -> Self {
        let rules = game.draw_rules();
        let tuning = game.search_tuning();
        Searcher {
            game,
            tt,
            stop: shared.stop,
            halt: shared.halt,
            counters: shared.counters,
            id,
            others: 0,
            frontier: shared.frontier,
            finished: shared.finished,
            race: shared.counters.len() > 1
                && (id > 0 || params.multipv <= 1)
                && !tuning.independent_threads,
            iteration: 0,
            superseded: false,
            rules,
            tuning,
            track_forcing: tuning.futility_margin > 0
                || tuning.late_move_percent > 0
                || tuning.iir
                || tuning.lmr_percent > 0,
            forcing: vec![false; MAX_PLY + 1],
            threat: vec![false; MAX_PLY + 1],
            search_repetition: rules.repetition.is_some() || rules.search_repetition,
            deadlines: params.limits.deadlines(start, params.move_overhead_ms),
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
            ponder: shared.ponder,
            buffers: vec![Vec::new(); MAX_PLY],
            busy: shared.busy,
        }
    }
}

/// The main thread's iterative deepening; `start_helpers` is called with the root moves, the
/// last depth and the start time once the game's root work is done (it is done once, here, for
/// every thread).
#[allow(clippy::too_many_arguments)]
fn iterate<'a, G: Game>(
    game: &'a G,
    pos: &G::Pos,
    history: &DrawTracker,
    tt: &'a Table<G::Move>,
    shared: &Shared<'a, G::Move>,
    params: &Params,
    on_info: &mut impl FnMut(&Info<G::Move>),
    start_helpers: impl FnOnce(&[G::Move], u32, Instant),
) -> SearchResult<G::Move> {
    let start = params.started.unwrap_or_else(Instant::now);
    let stop = shared.stop;
    let mut s = Searcher::new(game, tt, shared, 0, params, history, start);
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
    start_helpers(&root, max_depth, start);
    let mut time_use = TimeUse::new(start, deadlines, s.tuning.time_scaling);
    let wanted = params.multipv.clamp(1, root.len());
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
                if let Some(&m) = pv.first().filter(|_| k == 0) {
                    if result.best != Some(m) {
                        // The move changed since the last report: the GUI sees its line.
                        on_info(&s.info(depth, score, &pv, start, params.multipv > 1));
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
            if let Some(best) = lines.first() {
                // The best line of the cut-short iteration saw every root move.
                if result.best != best.pv.first().copied() {
                    on_info(&s.info(depth, best.score, &best.pv, start, true));
                }
                result.best = best.pv.first().copied();
                result.pv = best.pv.clone();
                result.score = best.score;
            }
            break;
        }
        // Later lines may come out better than earlier ones (the table changed meanwhile).
        lines.sort_by_key(|l| std::cmp::Reverse(l.score));
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
        for (k, line) in lines.iter().enumerate() {
            on_info(&Info {
                multipv: (params.multipv > 1).then_some(k as u32 + 1),
                ..s.info(depth, line.score, &line.pv, start, false)
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

#[cfg(test)]
mod tests;
