//! The set of jump-chain states (end point, removed men) a walk has seen: open addressing,
//! cleared in O(1) by bumping a generation, and reused from a per-thread pool so that walks do
//! not allocate. Each state may also record the state it was first reached from, which turns a
//! walk in name order into the tree of canonical paths (see `tree.rs`).

use std::cell::RefCell;

use super::board::Bits;

/// "No parent": the state was reached by the first jump of the chain.
pub const ROOT: u32 = u32::MAX;

#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    gen: u32,
    idx: u32,
}

#[derive(Clone, Copy)]
struct Entry {
    key: u64,
    removed: Bits,
    parent: u32,
    ball: u16,
}

/// Open-addressing set of (ball, removed) states, cleared in O(1) by bumping a generation.
pub struct StateSet {
    slots: Vec<Slot>,
    entries: Vec<Entry>,
    gen: u32,
}

impl StateSet {
    pub(super) fn new() -> StateSet {
        StateSet {
            slots: vec![Slot::default(); 1024],
            entries: Vec::with_capacity(512),
            gen: 1,
        }
    }

    pub(super) fn reset(&mut self) {
        self.entries.clear();
        self.gen = self.gen.wrapping_add(1);
        if self.gen == 0 {
            self.slots.fill(Slot::default());
            self.gen = 1;
        }
    }

    pub(super) fn len(&self) -> usize {
        self.entries.len()
    }

    /// Bytes held (slots and entries, by capacity).
    pub(super) fn bytes(&self) -> usize {
        self.slots.capacity() * std::mem::size_of::<Slot>()
            + self.entries.capacity() * std::mem::size_of::<Entry>()
    }

    /// True when the state is new (and records it).
    #[inline]
    pub(super) fn insert(&mut self, key: u64, ball: u16, removed: &Bits) -> bool {
        self.insert_child(key, ball, removed, ROOT).is_some()
    }

    /// Records the state, first reached from state `parent`, and returns its index; `None` when
    /// it was already there.
    #[inline]
    pub(super) fn insert_child(
        &mut self,
        key: u64,
        ball: u16,
        removed: &Bits,
        parent: u32,
    ) -> Option<u32> {
        if (self.entries.len() + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = (key as usize) & mask;
        loop {
            let s = self.slots[i];
            if s.gen != self.gen {
                let idx = self.entries.len() as u32;
                self.slots[i] = Slot {
                    key,
                    gen: self.gen,
                    idx,
                };
                self.entries.push(Entry {
                    key,
                    removed: *removed,
                    parent,
                    ball,
                });
                return Some(idx);
            }
            if s.key == key && self.matches(s.idx, ball, removed) {
                return None;
            }
            i = (i + 1) & mask;
        }
    }

    /// The index of the state, if recorded.
    pub(super) fn find(&self, key: u64, ball: u16, removed: &Bits) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let mut i = (key as usize) & mask;
        loop {
            let s = self.slots[i];
            if s.gen != self.gen {
                return None;
            }
            if s.key == key && self.matches(s.idx, ball, removed) {
                return Some(s.idx);
            }
            i = (i + 1) & mask;
        }
    }

    /// True when state `idx` exists and is (`ball`, `removed`).
    #[inline]
    pub(super) fn matches(&self, idx: u32, ball: u16, removed: &Bits) -> bool {
        self.entries
            .get(idx as usize)
            .is_some_and(|e| e.ball == ball && e.removed == *removed)
    }

    /// State `idx`: (end point, parent index), if there is such a state.
    pub(super) fn link(&self, idx: u32) -> Option<(u16, u32)> {
        self.entries.get(idx as usize).map(|e| (e.ball, e.parent))
    }

    /// Every state in the order it was first reached: (end point, removed men).
    pub(super) fn states(&self) -> impl Iterator<Item = (u16, &Bits)> + '_ {
        self.entries.iter().map(|e| (e.ball, &e.removed))
    }

    fn grow(&mut self) {
        let n = self.slots.len() * 2;
        self.slots = vec![Slot::default(); n];
        self.gen = 1;
        let mask = n - 1;
        for (idx, e) in self.entries.iter().enumerate() {
            let mut i = (e.key as usize) & mask;
            while self.slots[i].gen == 1 {
                i = (i + 1) & mask;
            }
            self.slots[i] = Slot {
                key: e.key,
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
