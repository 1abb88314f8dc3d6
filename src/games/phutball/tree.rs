//! The tree of canonical paths of every ball move of one position, kept per thread for the last
//! position whose moves were all listed.
//!
//! A depth-first walk that tries the landings of each state in name order and visits each state
//! (end point, removed men) once reaches every state first along its canonical (byte-order
//! smallest) path: no path to a state is a prefix of another path to the same state (the removed
//! set only grows), so the smallest path's prefixes are the smallest paths of their own states
//! and none of them is pruned. Recording, for each state, the state it was first reached from
//! gives every move's canonical notation by following parents, so listing all moves and then
//! formatting each (what `legal_moves` does) costs one walk, not one search per move.

use std::cell::{Cell, RefCell};
use std::ops::ControlFlow;

use super::board::{name_rank, Bits, NONE, STEP};
use super::movegen::{has_jump_start, Move};
use super::position::{Pos, BALL_KEYS, MAN_KEYS};
use super::stateset::{StateSet, ROOT};

/// A set this big is dropped rather than kept for the next position.
const KEEP_BYTES: usize = 64 << 20;

struct Tree {
    men: Bits,
    ball: u16,
    /// False until a walk has finished for (`men`, `ball`).
    valid: bool,
    set: StateSet,
    /// The state found by the last lookup: callers format the listed moves in order, so the
    /// next state is tried before hashing.
    last: Cell<u32>,
}

thread_local! {
    static TREE: RefCell<Option<Tree>> = const { RefCell::new(None) };
}

/// Calls `f` with every ball move of `pos` (each distinct state once, in canonical-tree order)
/// until it breaks. A walk that runs to the end stays as this thread's tree for `pos`, so naming
/// the moves just listed costs no search, and listing them again no walk. The tree is out of its
/// slot while `f` runs: `f` may list or name moves itself.
pub fn for_each_jump(pos: &Pos, mut f: impl FnMut(Move) -> ControlFlow<()>) -> ControlFlow<()> {
    let taken = TREE.with(|cell| cell.borrow_mut().take());
    let (tree, flow) = match taken {
        Some(t) if t.valid && t.men == pos.men && t.ball == pos.ball => {
            let flow = t.set.states().try_for_each(|(to, removed)| {
                f(Move::Jump {
                    to,
                    removed: *removed,
                })
            });
            (t, flow)
        }
        old => {
            let set = match old {
                Some(t) if t.set.bytes() <= KEEP_BYTES => t.set,
                _ => StateSet::new(),
            };
            let mut tree = Tree {
                men: pos.men,
                ball: pos.ball,
                valid: false,
                set,
                last: Cell::new(ROOT),
            };
            tree.set.reset();
            let mut w = LexWalker {
                men: pos.men,
                removed: Bits::EMPTY,
                rhash: 0,
                set: &mut tree.set,
            };
            // Even without a ball move the (empty) tree is this position's now.
            let flow = if has_jump_start(&pos.men, pos.ball) {
                w.run(pos.ball, ROOT, &mut f)
            } else {
                ControlFlow::Continue(())
            };
            tree.valid = flow.is_continue();
            (tree, flow)
        }
    };
    // A cut-short walk of a dense board is of no further use: not worth its memory.
    let keep = tree.valid || tree.set.bytes() <= KEEP_BYTES;
    TREE.with(|cell| *cell.borrow_mut() = keep.then_some(tree));
    flow
}

/// The canonical path (landing points after the start) of the ball move (`to`, `removed`) if
/// this thread's last full walk was for `pos`: `Some(None)` when the move is not legal there,
/// `None` when there is no such walk.
pub fn cached_path(pos: &Pos, to: u16, removed: &Bits) -> Option<Option<Vec<u16>>> {
    TREE.with(|cell| {
        let slot = cell.borrow();
        match slot.as_ref() {
            Some(t) if t.valid && t.men == pos.men && t.ball == pos.ball => {
                let next = t.last.get().wrapping_add(1);
                let idx = if t.set.matches(next, to, removed) {
                    Some(next)
                } else {
                    find(&t.set, to, removed)
                };
                if let Some(i) = idx {
                    t.last.set(i);
                }
                Some(idx.and_then(|i| path_from(&t.set, i)))
            }
            _ => None,
        }
    })
}

fn find(set: &StateSet, to: u16, removed: &Bits) -> Option<u32> {
    let key = removed
        .iter()
        .fold(BALL_KEYS[to as usize], |h, p| h ^ MAN_KEYS[p]);
    set.find(key, to, removed)
}

/// The path of state `idx`, by following parents back to the first jump.
fn path_from(set: &StateSet, mut idx: u32) -> Option<Vec<u16>> {
    let mut path = Vec::new();
    // Each step goes to an earlier state, so this ends; the bound only guards a broken set.
    for _ in 0..=set.len() {
        let (ball, parent) = set.link(idx)?;
        path.push(ball);
        if parent == ROOT {
            path.reverse();
            return Some(path);
        }
        idx = parent;
    }
    None
}

struct LexWalker<'s> {
    men: Bits,
    removed: Bits,
    rhash: u64,
    set: &'s mut StateSet,
}

impl LexWalker<'_> {
    /// Visits the states reachable from `ball` (reached from state `parent`), telling `f` of
    /// each new one, until `f` breaks.
    fn run<F: FnMut(Move) -> ControlFlow<()>>(
        &mut self,
        ball: u16,
        parent: u32,
        f: &mut F,
    ) -> ControlFlow<()> {
        // (name rank of the landing, direction, landing, men jumped)
        let mut cands = [(0u16, 0u8, 0u16, 0u8); 8];
        let mut n = 0;
        for (d, step) in STEP.iter().enumerate() {
            let first = step[ball as usize];
            if first == NONE || !self.men.get(first as usize) {
                continue;
            }
            let mut q = step[first as usize];
            let mut k = 1u8;
            while q != NONE && self.men.get(q as usize) {
                q = step[q as usize];
                k += 1;
            }
            if q != NONE {
                cands[n] = (name_rank(q as usize), d as u8, q, k);
                n += 1;
            }
        }
        let cands = &mut cands[..n];
        cands.sort_unstable();
        for &(_, d, q, k) in cands.iter() {
            let step = &STEP[d as usize];
            let first = step[ball as usize];
            self.flip(step, first, k);
            let key = self.rhash ^ BALL_KEYS[q as usize];
            if let Some(idx) = self.set.insert_child(key, q, &self.removed, parent) {
                f(Move::Jump {
                    to: q,
                    removed: self.removed,
                })?;
                self.run(q, idx, f)?;
            }
            self.flip(step, first, k);
        }
        ControlFlow::Continue(())
    }

    /// Removes the `k` men from `first` on along `step`, or puts them back.
    #[inline]
    fn flip(&mut self, step: &[u16], first: u16, k: u8) {
        let mut r = first;
        for _ in 0..k {
            let i = r as usize;
            if self.men.get(i) {
                self.men.clear(i);
                self.removed.set(i);
            } else {
                self.men.set(i);
                self.removed.clear(i);
            }
            self.rhash ^= MAN_KEYS[i];
            r = step[i];
        }
    }
}
