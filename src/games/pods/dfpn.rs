//! Depth-first proof-number search (df-pn, Nagai 2002, with Pawlewicz and Lew's 1 + ε
//! thresholds) for standard Pods: the long proofs towards the start. Standard Pods suits it: the
//! game always ends (every move fills a point), has no draws and no cycles, so there is no graph
//! history problem, and its branching varies a lot (a position where one side has two placements
//! left is near its end): proof numbers follow the narrow lines where `solver.rs`'s fixed order
//! searches every sibling to the bottom.
//!
//! Numbers are negamax: `pn` is the work to prove the side to move wins, `dn` to prove it loses;
//! a node's `pn` is its children's smallest `dn`, its `dn` the largest `pn` of its open
//! children plus their number less one (weak proof numbers, for the transpositions). A new child
//! starts at `pn` 1 and `dn` its mover's move count (few replies: nearly lost), the ordering
//! `solver.rs` uses. The table is bounded: a bucket keeps the entries whose subtrees cost most,
//! so a small table costs re-search, never a wrong verdict. The board has no symmetry to fold
//! positions with: at every rotation the missing lines map to other lines under each mirror and
//! the half turn (`tests/dfpn.rs` checks), and rotations never transpose into each other.

use super::movegen::PodsMove;
use super::position::Pos;
use super::solver::{Budget, Solver};
use super::tables::Tables;

/// Proof and disproof numbers at or above this are infinite (a proven verdict).
pub const INF: u32 = u32::MAX / 2;
/// Entries per bucket.
const WAYS: usize = 4;
/// The interrupt is asked once per this many nodes.
const INTERRUPT_EVERY: u64 = 256;
/// 1 + ε with ε = 1/4: a child is searched until its `dn` passes 5/4 of the second best, which
/// saves most of the switching between siblings of equal promise.
const EPS_NUM: u64 = 5;
const EPS_DEN: u64 = 4;
/// Nodes of `solver.rs`'s search tried on each position the first time df-pn expands it (PN²
/// style, with a fixed second-level budget): near the end its ordering and killers prove small
/// subtrees for a fraction of what expanding them node by node costs.
const LEAF_NODES: u64 = 2_000;

#[derive(Clone, Copy, Default)]
struct Entry {
    /// The position's hash (0 = empty slot; a position hashing to 0 is never stored).
    key: u64,
    pn: u32,
    dn: u32,
    /// Nodes spent below this entry (saturating): the replacement key.
    work: u64,
}

/// Counters of one proof.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Nodes expanded (move generation and child set-up).
    pub nodes: u64,
    /// Table lookups that found the position.
    pub tt_hits: u64,
}

/// How a proof attempt ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Proven: the side to move wins (`win`) with `best` (a winning move; for a lost position
    /// `None`).
    Proven { win: bool, best: Option<PodsMove> },
    /// The node budget ran out.
    OutOfNodes,
    /// The interrupt said stop.
    Interrupted,
}

pub struct Dfpn<'a> {
    t: &'a Tables,
    budget: Budget<'a>,
    tt: Vec<Entry>,
    /// Buckets − 1 (a power of two).
    mask: usize,
    pub stats: Stats,
    /// The root's winning move, once proven.
    best: Option<PodsMove>,
    /// The second-level solver, with its own table (a quarter of the bytes).
    leaf: Solver<'a>,
}

/// One child during a node's expansion: its numbers as last seen (kept here as well as in the
/// table, which may have dropped them).
struct Child {
    m: PodsMove,
    pos: Pos,
    pn: u32,
    dn: u32,
}

fn clamp(x: u64) -> u32 {
    x.min(u64::from(INF)) as u32
}

impl<'a> Dfpn<'a> {
    /// A prover with a table of about `table_bytes` (24 bytes an entry, rounded down to a power
    /// of two buckets; at least 1,024 entries).
    pub fn new(
        t: &'a Tables,
        node_limit: u64,
        table_bytes: u64,
        interrupt: &'a dyn Fn() -> bool,
    ) -> Self {
        let leaf = Solver::new(t, 0, table_bytes / 32, interrupt);
        let table_bytes = table_bytes - table_bytes / 4;
        let entries = (table_bytes / std::mem::size_of::<Entry>() as u64).max(1 << 10);
        let entries = 1u64 << (63 - entries.leading_zeros());
        let buckets = entries as usize / WAYS;
        Dfpn {
            t,
            budget: Budget::new(node_limit, INTERRUPT_EVERY, interrupt),
            tt: vec![Entry::default(); buckets * WAYS],
            mask: buckets - 1,
            stats: Stats::default(),
            best: None,
            leaf,
        }
    }

    #[inline]
    fn bucket(&self, hash: u64) -> usize {
        (hash as usize & self.mask) * WAYS
    }

    fn lookup(&mut self, hash: u64) -> Option<(u32, u32)> {
        let b = self.bucket(hash);
        let hit = self.tt[b..b + WAYS]
            .iter()
            .find(|e| e.key == hash && hash != 0)
            .map(|e| (e.pn, e.dn));
        if hit.is_some() {
            self.stats.tt_hits += 1;
        }
        hit
    }

    fn store(&mut self, hash: u64, pn: u32, dn: u32, work: u64) {
        if hash == 0 {
            return;
        }
        let b = self.bucket(hash);
        let slots = &mut self.tt[b..b + WAYS];
        let i = slots.iter().position(|e| e.key == hash).unwrap_or_else(|| {
            let mut cheapest = 0;
            for (i, e) in slots.iter().enumerate() {
                if e.key == 0 {
                    return i;
                }
                if e.work < slots[cheapest].work {
                    cheapest = i;
                }
            }
            cheapest
        });
        slots[i] = Entry {
            key: hash,
            pn,
            dn,
            work,
        };
    }

    /// The verdict the table holds for `pos`, if proven.
    pub fn known(&mut self, pos: &Pos) -> Option<bool> {
        match self.lookup(pos.hash)? {
            (0, _) => Some(true),
            (_, 0) => Some(false),
            _ => None,
        }
    }

    fn count_node(&mut self) -> bool {
        self.budget.spend(&mut self.stats.nodes)
    }

    /// Numbers of a child not searched yet: from the table, else 1 to prove its mover wins and
    /// its mover's move count to prove it loses (0 moves: lost now).
    fn first_numbers(&mut self, pos: &Pos) -> (u32, u32) {
        if let Some(v) = self.lookup(pos.hash) {
            return v;
        }
        match self.t.count_moves(pos, usize::from(pos.side), false) {
            0 => (INF, 0),
            n => (1, n),
        }
    }

    /// Searches `pos` until its `pn` reaches `th_pn` or its `dn` reaches `th_dn`; its numbers
    /// then (stored), or `None` once the budget is spent.
    fn mid(&mut self, pos: &Pos, th_pn: u32, th_dn: u32, root: bool) -> Option<(u32, u32)> {
        if !self.count_node() {
            return None;
        }
        let start = self.stats.nodes;
        if !root && self.lookup(pos.hash).is_none() {
            // First visit: the second-level search, within its budget.
            let before = self.leaf.stats.nodes;
            self.leaf.budget.limit =
                before + LEAF_NODES.min(self.budget.limit.saturating_sub(start));
            let verdict = self.leaf.solve(pos, 0, None);
            self.stats.nodes += self.leaf.stats.nodes - before;
            if self.leaf.budget.interrupted {
                self.budget.interrupted = true;
                return None;
            }
            if let Some(win) = verdict {
                let (pn, dn) = if win { (0, INF) } else { (INF, 0) };
                self.store(pos.hash, pn, dn, self.stats.nodes - start + 1);
                return Some((pn, dn));
            }
        }
        let mut moves = Vec::with_capacity(64);
        self.t.gen_moves(pos, false, &mut moves);
        if moves.is_empty() {
            self.store(pos.hash, INF, 0, 1);
            return Some((INF, 0));
        }
        let mut kids: Vec<Child> = Vec::with_capacity(moves.len());
        for m in moves {
            let child = self.t.make(pos, m, false);
            let (pn, dn) = self.first_numbers(&child);
            if dn == 0 {
                // A move that leaves the opponent lost: won, no need to look further.
                if root {
                    self.best = Some(m);
                }
                self.store(pos.hash, 0, INF, self.stats.nodes - start + 1);
                return Some((0, INF));
            }
            kids.push(Child {
                m,
                pos: child,
                pn,
                dn,
            });
        }
        loop {
            // pn = min dn of the children; dn, weakly (Ueda et al. 2008): the largest pn of the
            // children not yet won for their mover, plus one for each other such child. The
            // sum of the plain rule counts a child once per path to it, and in a game where
            // placements in any order transpose that grows as the branching to the power of
            // the depth and saturates within a dozen plies.
            let (mut best, mut dn1, mut dn2) = (0, u32::MAX, u32::MAX);
            let (mut max_pn, mut open) = (0u32, 0u64);
            for (i, c) in kids.iter_mut().enumerate() {
                if let Some((pn, dn)) = self.lookup(c.pos.hash) {
                    c.pn = pn;
                    c.dn = dn;
                }
                if c.pn > 0 {
                    open += 1;
                    max_pn = max_pn.max(c.pn);
                }
                if c.dn < dn1 {
                    dn2 = dn1;
                    dn1 = c.dn;
                    best = i;
                } else if c.dn < dn2 {
                    dn2 = c.dn;
                }
            }
            let pn = dn1;
            let dn = if max_pn >= INF {
                INF
            } else if open == 0 {
                0
            } else {
                clamp(u64::from(max_pn) + open - 1).min(INF - 1)
            };
            if pn >= th_pn || dn >= th_dn || pn == 0 || dn == 0 {
                if root && pn == 0 {
                    self.best = Some(kids[best].m);
                }
                self.store(pos.hash, pn, dn, self.stats.nodes - start + 1);
                return Some((pn, dn));
            }
            // The best child's pn reaches our dn's threshold once it passes it less the other
            // open children (dn < th_dn, so this is above its pn); its dn is our pn.
            let th_child_pn = clamp(u64::from(th_dn) - (open - 1));
            let second = u64::from(dn2.min(INF));
            let th_child_dn =
                clamp((second * EPS_NUM).div_ceil(EPS_DEN).max(second + 1)).min(th_pn);
            let child = kids[best].pos;
            let (cpn, cdn) = self.mid(&child, th_child_pn, th_child_dn, false)?;
            kids[best].pn = cpn;
            kids[best].dn = cdn;
        }
    }

    /// Proves `pos`: who wins, and a winning move.
    pub fn prove(&mut self, pos: &Pos) -> Outcome {
        self.best = None;
        match self.mid(pos, INF, INF, true) {
            Some((0, _)) => Outcome::Proven {
                win: true,
                best: self.best,
            },
            Some(_) => Outcome::Proven {
                win: false,
                best: None,
            },
            None if self.budget.interrupted => Outcome::Interrupted,
            None => Outcome::OutOfNodes,
        }
    }
}

/// Proves `pos` within `node_limit` nodes and a table of about `table_bytes`: the outcome and
/// the counters.
pub fn prove(
    t: &Tables,
    pos: &Pos,
    node_limit: u64,
    table_bytes: u64,
    interrupt: &dyn Fn() -> bool,
) -> (Outcome, Stats) {
    let mut d = Dfpn::new(t, node_limit, table_bytes, interrupt);
    let outcome = d.prove(pos);
    (outcome, d.stats)
}
