//! The set of jump-chain states (end point, removed men) a walk has seen: open addressing,
//! cleared in O(1) by bumping a generation, and reused from a per-thread pool so that walks do
//! not allocate.

use std::cell::RefCell;

use super::board::Bits;

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

    pub(super) fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when the state is new (and records it).
    #[inline]
    pub(super) fn insert(&mut self, key: u64, ball: u16, removed: &Bits) -> bool {
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
