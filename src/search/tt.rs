//! Transposition table: one entry per bucket, depth-preferred with ageing, sized in MiB.

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy, Debug)]
pub struct Entry<M: Copy> {
    pub key: u64,
    pub mv: Option<M>,
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
    pub age: u8,
}

pub struct Table<M: Copy> {
    /// Allocated by [`Table::allocate`] (the session calls it at start-up, when the size is set
    /// and at `isready`) or else by the first search: games are created (and option names looked
    /// up) far more often than they are searched.
    slots: Vec<Option<Entry<M>>>,
    capacity: usize,
    age: u8,
}

impl<M: Copy> Table<M> {
    /// A table using at most about `mib` MiB (at least one slot).
    pub fn new(mib: usize) -> Table<M> {
        let entry = std::mem::size_of::<Option<Entry<M>>>().max(1);
        let wanted = (mib.max(1) * 1024 * 1024) / entry;
        // Power of two so the index is a mask.
        let mut n = 1usize;
        while n * 2 <= wanted {
            n *= 2;
        }
        Table {
            slots: Vec::new(),
            capacity: n,
            age: 0,
        }
    }

    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = None);
        self.age = 0;
    }

    /// Allocates the slots, all empty, unless they are already.
    pub fn allocate(&mut self) {
        if self.slots.is_empty() {
            self.slots = vec![None; self.capacity];
        }
    }

    pub fn is_allocated(&self) -> bool {
        !self.slots.is_empty()
    }

    /// Called once per search so entries from earlier searches give way first.
    pub fn new_search(&mut self) {
        self.allocate();
        self.age = self.age.wrapping_add(1);
    }

    fn index(&self, key: u64) -> usize {
        // High bits for the index: the low bits of Zobrist keys are as good, but the key check
        // below then tests independent bits.
        ((key >> 32) as usize ^ key as usize) & (self.slots.len() - 1)
    }

    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        if self.slots.is_empty() {
            return None;
        }
        match self.slots[self.index(key)] {
            Some(e) if e.key == key => Some(e),
            _ => None,
        }
    }

    pub fn store(&mut self, key: u64, mv: Option<M>, score: i32, depth: i16, bound: Bound) {
        if self.slots.is_empty() {
            return;
        }
        let age = self.age;
        let i = self.index(key);
        let slot = &mut self.slots[i];
        let replace = match slot {
            None => true,
            Some(old) => {
                old.key == key || old.age != age || depth >= old.depth || bound == Bound::Exact
            }
        };
        if replace {
            // Keep the old best move when the new result has none for the same position.
            let mv = match (mv, *slot) {
                (None, Some(old)) if old.key == key => old.mv,
                _ => mv,
            };
            *slot = Some(Entry {
                key,
                mv,
                score,
                depth,
                bound,
                age,
            });
        }
    }

    /// Permille of slots filled by the current search (UCI `hashfull`), sampled.
    pub fn hashfull(&self) -> u32 {
        let n = self.slots.len().min(1000);
        if n == 0 {
            return 0;
        }
        let used = self.slots[..n]
            .iter()
            .filter(|s| matches!(s, Some(e) if e.age == self.age))
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe() {
        let mut t: Table<u16> = Table::new(1);
        assert!(t.capacity.is_power_of_two());
        t.store(1, Some(1), 0, 0, Bound::Exact);
        assert!(
            t.probe(1).is_none(),
            "nothing is kept before the first search"
        );
        t.new_search();
        t.store(42, Some(7), 10, 3, Bound::Exact);
        let e = t.probe(42).expect("stored");
        assert_eq!(
            (e.mv, e.score, e.depth, e.bound),
            (Some(7), 10, 3, Bound::Exact)
        );
        assert!(t.probe(43).is_none());
        t.store(42, None, 11, 4, Bound::Lower);
        assert_eq!(t.probe(42).and_then(|e| e.mv), Some(7));
        t.clear();
        assert!(t.probe(42).is_none());
    }
}
