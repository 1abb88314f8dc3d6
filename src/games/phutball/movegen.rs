//! Move generation. Placements are a bitboard; ball moves (jump chains) come from a depth-first
//! search that removes and restores men in place, and visits each distinct resulting state
//! (end point, removed set) once: a state's continuations depend on nothing else, so a state seen
//! before is pruned with its whole subtree. Nothing is allocated per jump; the hash set of states
//! is reused from a per-thread pool.

use std::cell::RefCell;

use super::board::{
    name_rank, Bits, BLUE_LAST_MEN, BLUE_SCORES, COLS, DIRS, N, NONE, RED_LAST_MEN, RED_SCORES,
    STEP,
};
use super::position::{Pos, BALL_KEYS, MAN_KEYS};
use crate::games::Side;

/// A move: place a man, or a ball move identified by where the ball ends and which men go.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    Place(u16),
    Jump { to: u16, removed: Bits },
}

/// Direction orders for the search: any order finds every state; trying the likely
/// directions first makes "can this side score?" stop sooner.
pub const ORDER_ANY: [u8; 8] = [0, 1, 2, 3, 4, 5, 6, 7];
pub const ORDER_UP: [u8; 8] = [0, 1, 7, 2, 6, 3, 5, 4];
pub const ORDER_DOWN: [u8; 8] = [4, 3, 5, 2, 6, 1, 7, 0];

/// The direction order that heads towards `side`'s scoring rows first.
pub fn order_for(side: Side) -> &'static [u8; 8] {
    match side {
        Side::P1 => &ORDER_UP,
        Side::P2 => &ORDER_DOWN,
    }
}

/// Where `side` wins if a move ends there.
pub fn scoring_rows(side: Side) -> &'static Bits {
    match side {
        Side::P1 => &RED_SCORES,
        Side::P2 => &BLUE_SCORES,
    }
}

#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    gen: u32,
    idx: u32,
}

/// Open-addressing set of (ball, removed) states, cleared in O(1) by bumping a generation.
pub struct StateSet {
    slots: Vec<Slot>,
    entries: Vec<(u64, u16, Bits)>,
    gen: u32,
}

impl StateSet {
    fn new() -> StateSet {
        StateSet {
            slots: vec![Slot::default(); 1024],
            entries: Vec::with_capacity(512),
            gen: 1,
        }
    }

    fn reset(&mut self) {
        self.entries.clear();
        self.gen = self.gen.wrapping_add(1);
        if self.gen == 0 {
            self.slots.fill(Slot::default());
            self.gen = 1;
        }
    }

    fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when the state is new (and records it).
    #[inline]
    fn insert(&mut self, key: u64, ball: u16, removed: &Bits) -> bool {
        if (self.entries.len() + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = (key as usize) & mask;
        loop {
            let s = self.slots[i];
            if s.gen != self.gen {
                self.slots[i] = Slot {
                    key,
                    gen: self.gen,
                    idx: self.entries.len() as u32,
                };
                self.entries.push((key, ball, *removed));
                return true;
            }
            if s.key == key {
                let e = &self.entries[s.idx as usize];
                if e.1 == ball && e.2 == *removed {
                    return false;
                }
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let n = self.slots.len() * 2;
        self.slots = vec![Slot::default(); n];
        self.gen = 1;
        let mask = n - 1;
        for (idx, e) in self.entries.iter().enumerate() {
            let mut i = (e.0 as usize) & mask;
            while self.slots[i].gen == 1 {
                i = (i + 1) & mask;
            }
            self.slots[i] = Slot {
                key: e.0,
                gen: 1,
                idx: idx as u32,
            };
        }
    }
}

thread_local! {
    static POOL: RefCell<Vec<StateSet>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` with a cleared state set from this thread's pool (nesting takes another set).
pub fn with_state_set<R>(f: impl FnOnce(&mut StateSet) -> R) -> R {
    let mut set = POOL
        .with(|p| p.borrow_mut().pop())
        .unwrap_or_else(StateSet::new);
    set.reset();
    let r = f(&mut set);
    // Keep small sets for reuse; a huge one (a dense position) is not worth holding on to.
    if set.slots.len() <= 1 << 16 {
        POOL.with(|p| p.borrow_mut().push(set));
    }
    r
}

/// What a visitor wants after seeing a new state.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Visit {
    /// Go on from this state.
    Expand,
    /// Do not search past this state (nothing useful can follow).
    Skip,
    /// Stop the whole walk.
    Stop,
}

/// How a walk over jump chains ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Walk {
    /// Every state was visited.
    Done,
    /// The visitor said stop.
    Stopped,
    /// More states than the budget; the walk was cut short.
    OutOfBudget,
}

struct Walker<'s> {
    men: Bits,
    removed: Bits,
    rhash: u64,
    seen: &'s mut StateSet,
    order: &'s [u8; 8],
    budget: usize,
    out_of_budget: bool,
}

impl Walker<'_> {
    /// Visits the states reachable from the ball on `ball`; returns true to stop everything.
    fn run<F: FnMut(u16, &Bits) -> Visit>(&mut self, ball: u16, f: &mut F) -> bool {
        for &d in self.order {
            let step = &STEP[d as usize];
            let first = step[ball as usize];
            if first == NONE || !self.men.get(first as usize) {
                continue;
            }
            let mut q = step[first as usize];
            let mut k = 1;
            while q != NONE && self.men.get(q as usize) {
                q = step[q as usize];
                k += 1;
            }
            if q == NONE {
                continue;
            }
            let mut r = first;
            for _ in 0..k {
                self.men.clear(r as usize);
                self.removed.set(r as usize);
                self.rhash ^= MAN_KEYS[r as usize];
                r = step[r as usize];
            }
            let key = self.rhash ^ BALL_KEYS[q as usize];
            let stop = if !self.seen.insert(key, q, &self.removed) {
                false
            } else if self.seen.len() > self.budget {
                self.out_of_budget = true;
                true
            } else {
                match f(q, &self.removed) {
                    Visit::Expand => self.run(q, f),
                    Visit::Skip => false,
                    Visit::Stop => true,
                }
            };
            let mut r = first;
            for _ in 0..k {
                self.men.set(r as usize);
                self.removed.clear(r as usize);
                self.rhash ^= MAN_KEYS[r as usize];
                r = step[r as usize];
            }
            if stop {
                return true;
            }
        }
        false
    }
}

/// True when some man is next to the ball (otherwise there is no jump at all).
#[inline]
pub fn has_jump_start(men: &Bits, ball: u16) -> bool {
    STEP.iter().any(|s| {
        let q = s[ball as usize];
        q != NONE && men.get(q as usize)
    })
}

/// Calls `f(end, removed)` once per distinct ball move (state) until it says stop or more than
/// `budget` states have been seen.
pub fn walk_jumps<F: FnMut(u16, &Bits) -> Visit>(
    men: &Bits,
    ball: u16,
    order: &[u8; 8],
    budget: usize,
    mut f: F,
) -> Walk {
    if !has_jump_start(men, ball) {
        return Walk::Done;
    }
    with_state_set(|seen| {
        let mut w = Walker {
            men: *men,
            removed: Bits::EMPTY,
            rhash: 0,
            seen,
            order,
            budget,
            out_of_budget: false,
        };
        match (w.run(ball, &mut f), w.out_of_budget) {
            (false, _) => Walk::Done,
            (true, false) => Walk::Stopped,
            (true, true) => Walk::OutOfBudget,
        }
    })
}

/// Calls `f(end, removed)` once per distinct ball move.
pub fn for_each_jump<F: FnMut(u16, &Bits)>(men: &Bits, ball: u16, mut f: F) {
    walk_jumps(men, ball, &ORDER_ANY, usize::MAX, |to, removed| {
        f(to, removed);
        Visit::Expand
    });
}

pub fn push_placements(pos: &Pos, out: &mut Vec<Move>) {
    out.extend(pos.empty_placeable().iter().map(|p| Move::Place(p as u16)));
}

/// Appends the ball moves, at most about `budget` of them; returns false when cut short.
pub fn push_jumps_limited(pos: &Pos, budget: usize, out: &mut Vec<Move>) -> bool {
    let w = walk_jumps(&pos.men, pos.ball, &ORDER_ANY, budget, |to, removed| {
        out.push(Move::Jump {
            to,
            removed: *removed,
        });
        Visit::Expand
    });
    w != Walk::OutOfBudget
}

pub fn push_jumps(pos: &Pos, out: &mut Vec<Move>) {
    push_jumps_limited(pos, usize::MAX, out);
}

pub fn count_jumps(pos: &Pos) -> u64 {
    let mut n = 0u64;
    for_each_jump(&pos.men, pos.ball, |_, _| n += 1);
    n
}

pub fn count_moves(pos: &Pos) -> u64 {
    pos.empty_placeable().count() as u64 + count_jumps(pos)
}

/// Answer of the "can this side score with one ball move?" solver.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Scan {
    Scores(Move),
    /// Proven: no chain ends in the scoring rows.
    Cannot,
    /// The budget ran out first (no scoring chain among the states seen).
    Unknown,
}

/// Whether `side` could score with one ball move from `pos` if it were `side`'s turn: exhaustive
/// over jump chains (within `budget` states). Deciding this is NP-hard in general, hence the
/// cheap sound filters first: a scoring jump's last man stands next to the goal rows, and the
/// ball can only ever reach points of [`reach_bound`].
pub fn scan_scoring(pos: &Pos, side: Side, budget: usize) -> Scan {
    let last_men = match side {
        Side::P1 => &RED_LAST_MEN,
        Side::P2 => &BLUE_LAST_MEN,
    };
    if !pos.men.intersects(last_men) || !has_jump_start(&pos.men, pos.ball) {
        return Scan::Cannot;
    }
    let target = scoring_rows(side);
    if !reach_bound(&pos.men, pos.ball).intersects(target) {
        return Scan::Cannot;
    }
    let mut found = None;
    let w = walk_jumps(
        &pos.men,
        pos.ball,
        order_for(side),
        budget,
        |to, removed| {
            if target.get(to as usize) {
                found = Some(Move::Jump {
                    to,
                    removed: *removed,
                });
                Visit::Stop
            } else if pos.men.andnot(removed).intersects(last_men) {
                Visit::Expand
            } else {
                // Every man that could be jumped last is gone.
                Visit::Skip
            }
        },
    );
    match (found, w) {
        (Some(m), _) => Scan::Scores(m),
        (None, Walk::OutOfBudget) => Scan::Unknown,
        (None, _) => Scan::Cannot,
    }
}

/// Exhaustive version of [`scan_scoring`].
pub fn scoring_jump(pos: &Pos, side: Side) -> Option<Move> {
    match scan_scoring(pos, side, usize::MAX) {
        Scan::Scores(m) => Some(m),
        _ => None,
    }
}

/// A superset of the points the ball can reach by jumps: landing on any point that follows a
/// run of (original) men, whether it is empty or a man that an earlier jump may have removed.
pub fn reach_bound(men: &Bits, ball: u16) -> Bits {
    let mut reach = Bits::EMPTY;
    reach.set(ball as usize);
    let mut frontier = reach;
    loop {
        let mut new = Bits::EMPTY;
        for d in 0..8 {
            let mut run = shift(&frontier, d).and(men);
            while !run.is_empty() {
                let next = shift(&run, d);
                new = new.or(&next);
                run = next.and(men);
            }
        }
        let new = new.andnot(&reach);
        if new.is_empty() {
            return reach;
        }
        reach = reach.or(&new);
        frontier = new;
    }
}

const fn col_mask(c: usize) -> Bits {
    let mut b = [0u64; 5];
    let mut p = c;
    while p < N {
        b[p >> 6] |= 1u64 << (p & 63);
        p += COLS;
    }
    Bits(b)
}

const NOT_COL_A: Bits = {
    let a = col_mask(0);
    let mut b = [0u64; 5];
    let mut i = 0;
    while i < 5 {
        b[i] = !a.0[i];
        i += 1;
    }
    Bits(b)
};
const NOT_COL_O: Bits = {
    let o = col_mask(COLS - 1);
    let mut b = [0u64; 5];
    let mut i = 0;
    while i < 5 {
        b[i] = !o.0[i];
        i += 1;
    }
    Bits(b)
};
/// The 315 board bits.
const BOARD: Bits = Bits([!0, !0, !0, !0, (1u64 << (N - 256)) - 1]);

/// Every point of `b` moved one step in direction `d` (points leaving the board vanish).
pub fn shift(b: &Bits, d: usize) -> Bits {
    let (dc, dr) = DIRS[d];
    let off = dr * COLS as i32 + dc;
    let w = &b.0;
    let mut r = [0u64; 5];
    if off > 0 {
        let (q, s) = ((off / 64) as usize, (off % 64) as u32);
        for i in (q..5).rev() {
            let lo = w[i - q] << s;
            let carry = if s > 0 && i > q {
                w[i - q - 1] >> (64 - s)
            } else {
                0
            };
            r[i] = lo | carry;
        }
    } else {
        let off = -off;
        let (q, s) = ((off / 64) as usize, (off % 64) as u32);
        for i in 0..5 - q {
            let hi = w[i + q] >> s;
            let carry = if s > 0 && i + q + 1 < 5 {
                w[i + q + 1] << (64 - s)
            } else {
                0
            };
            r[i] = hi | carry;
        }
    }
    let mut out = Bits(r).and(&BOARD);
    if dc > 0 {
        out = out.and(&NOT_COL_A);
    } else if dc < 0 {
        out = out.and(&NOT_COL_O);
    }
    out
}

pub fn make(pos: &Pos, mv: Move) -> Pos {
    match mv {
        Move::Place(p) => pos.place(p),
        Move::Jump { to, removed } => pos.jump(to, &removed),
    }
}

/// The men a single jump from `from` to `to` passes over, if that is a legal jump with `men` on
/// the board.
pub fn single_jump(men: &Bits, from: u16, to: u16) -> Option<Bits> {
    let d = STEP.iter().position(|s| {
        let mut q = s[from as usize];
        if q == NONE || !men.get(q as usize) {
            return false;
        }
        while q != NONE && men.get(q as usize) {
            q = s[q as usize];
        }
        q == to
    })?;
    let s = &STEP[d];
    let mut over = Bits::EMPTY;
    let mut q = s[from as usize];
    while q != to {
        over.set(q as usize);
        q = s[q as usize];
    }
    Some(over)
}

/// The byte-order smallest path (landing points after the start) realising the ball move
/// (`to`, `removed`) from `ball`. Depth-first in name order, so the first success is the smallest;
/// states that failed once are remembered and skipped.
pub fn canonical_path(men: &Bits, ball: u16, to: u16, removed: &Bits) -> Option<Vec<u16>> {
    with_state_set(|dead| {
        let mut c = Canon {
            men: *men,
            removed: Bits::EMPTY,
            rhash: 0,
            to,
            target: *removed,
            dead,
            path: Vec::new(),
        };
        if c.run(ball) {
            Some(c.path)
        } else {
            None
        }
    })
}

struct Canon<'s> {
    men: Bits,
    removed: Bits,
    rhash: u64,
    to: u16,
    target: Bits,
    dead: &'s mut StateSet,
    path: Vec<u16>,
}

impl Canon<'_> {
    fn run(&mut self, ball: u16) -> bool {
        // (name rank of landing, direction, landing, run length)
        let mut cands = [(0u16, 0usize, 0u16, 0u32); 8];
        let mut n = 0;
        for (d, step) in STEP.iter().enumerate() {
            let mut q = step[ball as usize];
            let mut k = 0;
            while q != NONE && self.men.get(q as usize) {
                if !self.target.get(q as usize) {
                    k = 0;
                    break;
                }
                q = step[q as usize];
                k += 1;
            }
            if k == 0 || q == NONE || self.men.get(q as usize) {
                continue;
            }
            cands[n] = (name_rank(q as usize), d, q, k);
            n += 1;
        }
        let cands = &mut cands[..n];
        cands.sort_unstable();
        for &(_, d, q, k) in cands.iter() {
            let step = &STEP[d];
            let first = step[ball as usize];
            let mut r = first;
            for _ in 0..k {
                self.men.clear(r as usize);
                self.removed.set(r as usize);
                self.rhash ^= MAN_KEYS[r as usize];
                r = step[r as usize];
            }
            self.path.push(q);
            let done = if self.removed == self.target {
                q == self.to
            } else {
                let key = self.rhash ^ BALL_KEYS[q as usize];
                self.dead.insert(key, q, &self.removed) && self.run(q)
            };
            if done {
                return true;
            }
            self.path.pop();
            let mut r = first;
            for _ in 0..k {
                self.men.set(r as usize);
                self.removed.clear(r as usize);
                self.rhash ^= MAN_KEYS[r as usize];
                r = step[r as usize];
            }
        }
        false
    }
}
