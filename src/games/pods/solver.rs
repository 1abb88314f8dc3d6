//! Exact solver for standard Pods: the game always ends (every move fills a point) and has no
//! draws, so a win/loss negamax with a transposition table proves the endgame. The search uses
//! it at the root (`proof.rs`, which also finds how long the proven game lasts).

use super::board::POINTS;
use super::movegen::PodsMove;
use super::position::Pos;
use super::tables::Tables;
use super::Pods;

/// Nodes the root solver may spend per position by default (about a tenth of a second on an idle
/// machine; the search's clock stops it sooner). Option `pods_solver_nodes` changes it.
pub const ROOT_NODE_LIMIT: u64 = 100_000;
/// The largest `pods_solver_nodes` accepted (a GUI reads a spin's bounds as 32-bit integers).
pub const MAX_ROOT_NODES: u64 = 2_147_483_647;
/// The root solver is tried only when both sides together have at most this many points left
/// to place on (about a dozen plies before the end); earlier it would only burn its budget.
pub(super) const ROOT_GATE_POINTS: u32 = 20;
const CACHE_SIZE: usize = 64;
/// The interrupt is asked once per this many solver nodes (a node costs about a microsecond).
const INTERRUPT_EVERY: u64 = 64;

/// How a bounded solve ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Verdict {
    Solved(Solution),
    /// The node budget ran out: more of the same budget would not help.
    OutOfNodes,
    /// The caller's interrupt (the search's clock or stop flag) said stop.
    Interrupted,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Solution {
    /// The side to move wins with perfect play.
    pub win: bool,
    /// A winning move when `win`; for a lost position just the first legal move (`None` when
    /// there is none): all moves lose.
    pub best: Option<PodsMove>,
    /// Nodes searched.
    pub nodes: u64,
}

/// Recent root verdicts, keyed by position hash.
#[derive(Debug)]
pub struct SolveCache<T> {
    entries: Vec<(u64, T)>,
}

impl<T> Default for SolveCache<T> {
    fn default() -> Self {
        SolveCache {
            entries: Vec::new(),
        }
    }
}

impl<T: Clone> SolveCache<T> {
    pub fn get(&self, hash: u64) -> Option<T> {
        self.entries
            .iter()
            .find(|e| e.0 == hash)
            .map(|e| e.1.clone())
    }
    pub fn put(&mut self, hash: u64, value: T) {
        if self.entries.len() >= CACHE_SIZE {
            self.entries.remove(0);
        }
        self.entries.push((hash, value));
    }
}

/// A transposition entry: the hash with its low byte replaced by the verdict (bit 0) and the
/// work that proved it (bits 1-7, the bit length of the subtree's node count, at least 1), so an
/// all-zero entry is empty.
const EMPTY: u64 = 0;
const KEY_MASK: u64 = !0xff;
/// Entries per bucket: a new verdict replaces the one that cost less to prove, so the few
/// expensive proofs near the root survive the flood of cheap ones near the leaves.
const WAYS: usize = 2;
/// Below this many empty points the exact reply count is not worth its cost as an ordering key.
const COUNT_ORDER_EMPTY: u32 = 16;
/// The largest transposition table [`solve_until`] allocates for the root solver (32 MiB).
const ROOT_TABLE_ENTRIES: u64 = 1 << 22;

/// Counters of one solve.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub nodes: u64,
    /// Verdicts taken from the transposition table (the position itself or a child).
    pub tt_hits: u64,
}

pub(super) struct Solver<'a> {
    pub(super) t: &'a Tables,
    pub(super) budget: Budget<'a>,
    tt: Vec<u64>,
    /// Buckets − 1 (a power of two).
    mask: usize,
    pub(super) stats: Stats,
    /// Last refutation found at each ply: siblings are often refuted by the same move, and
    /// trying it first saves the cost of ordering.
    killers: [Option<PodsMove>; MAX_PLIES],
}

/// Deeper than any game: every standard move fills one of 36 points.
const MAX_PLIES: usize = 40;

impl<'a> Solver<'a> {
    /// A solver with a table of at most `table_entries` entries (see [`solve_with_table`]).
    pub(super) fn new(
        t: &'a Tables,
        node_limit: u64,
        table_entries: u64,
        interrupt: &'a dyn Fn() -> bool,
    ) -> Self {
        let entries = table_entries.max(1 << 10);
        let entries = 1u64 << (63 - entries.leading_zeros());
        let buckets = (entries as usize) / WAYS;
        Solver {
            t,
            budget: Budget::new(node_limit, INTERRUPT_EVERY, interrupt),
            tt: vec![EMPTY; buckets * WAYS],
            mask: buckets - 1,
            stats: Stats::default(),
            killers: [None; MAX_PLIES],
        }
    }

    #[inline]
    fn bucket(&self, hash: u64) -> usize {
        ((hash >> 8) as usize & self.mask) * WAYS
    }

    /// The verdict for the side to move in the table, if any.
    pub(super) fn probe(&mut self, hash: u64) -> Option<bool> {
        let b = self.bucket(hash);
        let hit = self.tt[b..b + WAYS]
            .iter()
            .find(|&&e| e != EMPTY && (e & KEY_MASK) == (hash & KEY_MASK))
            .map(|&e| e & 1 == 1);
        if hit.is_some() {
            self.stats.tt_hits += 1;
        }
        hit
    }

    fn store(&mut self, hash: u64, win: bool, work: u64) {
        let b = self.bucket(hash);
        let work = u64::from(64 - work.leading_zeros()).clamp(1, 127);
        let entry = (hash & KEY_MASK) | (work << 1) | u64::from(win);
        let slots = &mut self.tt[b..b + WAYS];
        let i = slots
            .iter()
            .position(|&e| e == EMPTY || (e & KEY_MASK) == (hash & KEY_MASK))
            .unwrap_or_else(|| {
                if slots[0] & 0xfe <= slots[1] & 0xfe {
                    0
                } else {
                    1
                }
            });
        slots[i] = entry;
    }

    fn won(
        &mut self,
        pos: &Pos,
        ply: usize,
        m: PodsMove,
        work: u64,
        best: Option<&mut Option<PodsMove>>,
    ) {
        self.store(pos.hash, true, work);
        if let Some(k) = self.killers.get_mut(ply) {
            *k = Some(m);
        }
        if let Some(b) = best {
            *b = Some(m);
        }
    }

    /// Ordering keys of the moves (larger first) when counting replies is too dear: the
    /// opponent's placements the move takes away (the point itself and the points the new pod
    /// attacks). Ties keep the generation order (the sorts are stable).
    fn cheap_keys(&self, pos: &Pos, moves: &[PodsMove], keys: &mut Vec<(u64, PodsMove)>) {
        let me = usize::from(pos.side);
        let mut theirs = [0u8; POINTS];
        let mut their_pts = 0u64;
        self.t.for_each_placement(pos, me ^ 1, false, |q, pods| {
            theirs[q] = pods.count_ones() as u8;
            their_pts |= 1 << q;
        });
        let g = self.t.geo(pos);
        let occ = pos.all();
        for &m in moves {
            let PodsMove::Place { pod, to } = m else {
                continue;
            };
            let (pod, to) = (usize::from(pod), usize::from(to));
            let att = self.t.attacks_from(g, me, pod, to, occ | 1 << to);
            let mut gone = (att | 1 << to) & their_pts;
            let mut taken = 0u64;
            while gone != 0 {
                let q = gone.trailing_zeros() as usize;
                gone &= gone - 1;
                taken += u64::from(theirs[q]);
            }
            keys.push((taken, m));
        }
    }

    /// Counts a node; false once the budget is spent or the interrupt said stop.
    pub(super) fn count_node(&mut self) -> bool {
        self.budget.spend(&mut self.stats.nodes)
    }

    /// `Some(win?)` for the side to move; `None` once the node budget is spent. `best` (root
    /// only) receives a winning move.
    pub(super) fn solve(
        &mut self,
        pos: &Pos,
        ply: usize,
        best: Option<&mut Option<PodsMove>>,
    ) -> Option<bool> {
        if best.is_none() {
            if let Some(v) = self.probe(pos.hash) {
                return Some(v);
            }
        }
        if !self.count_node() {
            return None;
        }
        let start = self.stats.nodes;
        let me = usize::from(pos.side);
        let mut moves = Vec::with_capacity(64);
        self.t.gen_moves(pos, false, &mut moves);
        let killer = self.killers.get(ply).copied().flatten();
        if let Some(k) = killer.filter(|k| moves.contains(k)) {
            let child = self.t.make(pos, k, false);
            if !self.solve(&child, ply + 1, None)? {
                self.won(pos, ply, k, self.stats.nodes - start + 1, best);
                return Some(true);
            }
        }
        // Many points left: fewest replies first (the game is lost by whoever runs out of
        // placements), worth a move generation per child. Few left: the cheap estimate.
        let count = POINTS as u32 - pos.all().count_ones() >= COUNT_ORDER_EMPTY;
        let mut order = Vec::with_capacity(moves.len());
        if count {
            order.extend(moves.iter().map(|&m| (0, m)));
        } else {
            self.cheap_keys(pos, &moves, &mut order);
            order.sort_by_key(|k| std::cmp::Reverse(k.0));
        }
        let mut kids: Vec<(u64, PodsMove, Pos)> = Vec::with_capacity(moves.len());
        for &(key, m) in &order {
            if Some(m) == killer {
                continue;
            }
            let child = self.t.make(pos, m, false);
            if self.probe(child.hash) == Some(false) {
                self.won(pos, ply, m, 1, best);
                return Some(true);
            }
            let key = if count {
                let replies = self.t.count_moves(&child, me ^ 1, false);
                if replies == 0 {
                    self.won(pos, ply, m, 1, best);
                    return Some(true);
                }
                u64::from(replies)
            } else {
                key
            };
            kids.push((key, m, child));
        }
        if count {
            kids.sort_by_key(|k| k.0);
        }
        for (_, m, child) in &kids {
            if !self.solve(child, ply + 1, None)? {
                self.won(pos, ply, *m, self.stats.nodes - start + 1, best);
                return Some(true);
            }
        }
        self.store(pos.hash, false, self.stats.nodes - start + 1);
        if let Some(b) = best {
            *b = moves.first().copied();
        }
        Some(false)
    }
}

impl Pods {
    /// Exact verdict for the side to move in standard Pods, within `node_limit` nodes.
    /// `None` for advanced Pods (it can cycle) or when the budget runs out.
    pub fn solve(&self, pos: &Pos, node_limit: u64) -> Option<Solution> {
        if self.advanced() {
            return None;
        }
        solve_standard(&self.tables, pos, node_limit)
    }
}

/// [`Pods::solve`] on the tables alone (the evaluation uses it too).
pub fn solve_standard(t: &Tables, pos: &Pos, node_limit: u64) -> Option<Solution> {
    match solve_until(t, pos, node_limit, &|| false) {
        Verdict::Solved(s) => Some(s),
        _ => None,
    }
}

/// [`solve_standard`] that also gives up as soon as `interrupt` returns true (asked every
/// [`INTERRUPT_EVERY`] nodes).
pub fn solve_until(
    t: &Tables,
    pos: &Pos,
    node_limit: u64,
    interrupt: &dyn Fn() -> bool,
) -> Verdict {
    solve_with_table(
        t,
        pos,
        node_limit,
        root_table_entries(node_limit),
        interrupt,
    )
    .0
}

/// Room for every node the budget allows, within 32 MiB.
pub(super) fn root_table_entries(node_limit: u64) -> u64 {
    node_limit
        .saturating_mul(4)
        .clamp(1 << 10, ROOT_TABLE_ENTRIES)
}

/// The solver with a transposition table of at most `table_entries` entries (8 bytes each,
/// rounded down to a power of two; at least 1024), and its counters. For long proofs.
pub fn solve_with_table(
    t: &Tables,
    pos: &Pos,
    node_limit: u64,
    table_entries: u64,
    interrupt: &dyn Fn() -> bool,
) -> (Verdict, Stats) {
    let mut s = Solver::new(t, node_limit, table_entries, interrupt);
    let mut best = None;
    let verdict = match s.solve(pos, 0, Some(&mut best)) {
        Some(win) => Verdict::Solved(Solution {
            win,
            best,
            nodes: s.stats.nodes,
        }),
        None if s.budget.interrupted => Verdict::Interrupted,
        None => Verdict::OutOfNodes,
    };
    (verdict, s.stats)
}

/// Both sides' placement points together, a cheap measure of how much game is left.
pub fn points_left(t: &Tables, pos: &Pos) -> u32 {
    let mut pts = 0u64;
    for colour in 0..2 {
        t.for_each_placement(pos, colour, false, |q, _| pts |= 1 << q);
    }
    pts.count_ones()
}

/// A search's node budget: how many nodes it may count, and the interrupt (the caller's clock
/// or stop flag) it asks every `every` nodes.
pub(super) struct Budget<'a> {
    pub(super) limit: u64,
    every: u64,
    interrupt: &'a dyn Fn() -> bool,
    /// The interrupt said stop.
    pub(super) interrupted: bool,
}

impl<'a> Budget<'a> {
    pub(super) fn new(limit: u64, every: u64, interrupt: &'a dyn Fn() -> bool) -> Self {
        Budget {
            limit,
            every,
            interrupt,
            interrupted: false,
        }
    }

    /// Counts a node in `nodes`: false once the budget is spent or the interrupt said stop.
    pub(super) fn spend(&mut self, nodes: &mut u64) -> bool {
        *nodes += 1;
        if *nodes > self.limit {
            return false;
        }
        if nodes.is_multiple_of(self.every) && (self.interrupt)() {
            self.interrupted = true;
            return false;
        }
        true
    }
}
