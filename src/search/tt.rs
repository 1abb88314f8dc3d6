//! Transposition table: one entry per bucket, depth-preferred with ageing, sized in MiB, shared
//! by every thread of a search without a lock.
//!
//! An entry is two `AtomicU64` words, `key ^ data` and `data` (Hyatt's lockless scheme): two
//! threads writing one slot at once may leave the words of different entries side by side, and
//! then the key no longer checks out, so a torn entry reads as a miss. A move is kept as a
//! 30-bit code (a hash of the move), not the move: a game's moves need not fit in a word
//! (Phutball jumps carry their path). The search only ever plays the move of the node's own
//! list whose code matches, so a table move is legal in the position it is used in.

use std::hash::{Hash, Hasher};
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

/// The code a move is stored under: never 0 (0 says "no move").
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct MoveCode(u32);

const CODE_BITS: u32 = 30;
const CODE_MASK: u64 = (1 << CODE_BITS) - 1;

impl MoveCode {
    pub fn of<M: Hash>(mv: &M) -> MoveCode {
        move_hashes(mv).1
    }
}

/// Two fast hashes of a move in one pass: the first for move ordering's history slots, the
/// second for the table's move code. The first starts from 0, where an input of 0 leaves the
/// state at 0 (a unit variant numbered 3 and a variant 0 holding 3 hash alike), which slots can
/// live with; the code's hash starts elsewhere, so that it tells such moves apart.
pub fn move_hashes<M: Hash>(mv: &M) -> (u64, MoveCode) {
    let mut h = FoldHasher(0, CODE_SEED);
    mv.hash(&mut h);
    let c = (h.1 >> (64 - CODE_BITS)) as u32;
    (h.0, MoveCode(c.max(1)))
}

const CODE_SEED: u64 = 0x9e37_79b9_7f4a_7c15;
const MIX: u64 = 0x51_7c_c1_b7_27_22_0a_95;

/// A tiny multiplicative hasher, two lanes: speed matters more than quality here.
struct FoldHasher(u64, u64);

impl Hasher for FoldHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.write_u64(u64::from(i));
    }
    fn write_u16(&mut self, i: u16) {
        self.write_u64(u64::from(i));
    }
    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(MIX);
        self.1 = (self.1.rotate_left(5) ^ i).wrapping_mul(MIX);
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub key: u64,
    pub mv: Option<MoveCode>,
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
    pub age: u8,
}

// Data word: move code (30 bits) | score (16) | depth (8) | bound (2, 0 = empty) | age (8).
const SCORE_SHIFT: u32 = CODE_BITS;
const DEPTH_SHIFT: u32 = SCORE_SHIFT + 16;
const BOUND_SHIFT: u32 = DEPTH_SHIFT + 8;
const AGE_SHIFT: u32 = BOUND_SHIFT + 2;

impl Entry {
    fn pack(&self) -> u64 {
        let code = self.mv.map_or(0, |c| u64::from(c.0));
        let score = u64::from(self.score.clamp(-32_768, 32_767) as i16 as u16);
        let depth = u64::from(self.depth.clamp(0, 255) as u8);
        let bound: u64 = match self.bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        code | score << SCORE_SHIFT
            | depth << DEPTH_SHIFT
            | bound << BOUND_SHIFT
            | u64::from(self.age) << AGE_SHIFT
    }

    fn unpack(key: u64, data: u64) -> Option<Entry> {
        let bound = match (data >> BOUND_SHIFT) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        let code = (data & CODE_MASK) as u32;
        Some(Entry {
            key,
            mv: (code != 0).then_some(MoveCode(code)),
            score: i32::from((data >> SCORE_SHIFT) as u16 as i16),
            depth: i16::from((data >> DEPTH_SHIFT) as u8),
            bound,
            age: (data >> AGE_SHIFT) as u8,
        })
    }
}

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    fn load(&self) -> Option<Entry> {
        let data = self.data.load(Ordering::Relaxed);
        let key = self.check.load(Ordering::Relaxed) ^ data;
        Entry::unpack(key, data)
    }

    fn clear(&self) {
        self.data.store(0, Ordering::Relaxed);
        self.check.store(0, Ordering::Relaxed);
    }
}

/// A table that could not be allocated, with its size in MiB.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot allocate a {0} MiB hash table")]
pub struct AllocError(pub usize);

/// The table of a game whose moves are `M` (moves are stored as [`MoveCode`]s).
pub struct Table<M> {
    /// Allocated by [`Table::allocate`] (the session calls it at start-up, when the size is set
    /// and at `isready`) or else by the first search: games are created (and option names looked
    /// up) far more often than they are searched.
    slots: Vec<Slot>,
    capacity: usize,
    age: u8,
    moves: PhantomData<fn(M)>,
}

impl<M> Table<M> {
    /// The same slots for another game's moves: the engine keeps one table, which a game
    /// switch hands on rather than allocating a second (nothing is copied).
    pub fn retype<N>(self) -> Table<N> {
        Table {
            slots: self.slots,
            capacity: self.capacity,
            age: self.age,
            moves: PhantomData,
        }
    }
}

impl<M: Hash> Table<M> {
    /// A table using at most about `mib` MiB (at least one slot).
    pub fn new(mib: usize) -> Table<M> {
        Table::with_kib(mib.saturating_mul(1024))
    }

    /// A table using at most about `kib` KiB (at least one slot): below the `Hash` option's
    /// 1 MiB only for a harness whose searches are a few hundred nodes (the fuzz caps), where
    /// making a MiB per input cost more than the search.
    pub fn with_kib(kib: usize) -> Table<M> {
        let entry = std::mem::size_of::<Slot>();
        let wanted = kib.max(1).saturating_mul(1024) / entry;
        // Power of two so the index is a mask.
        let mut n = 1usize;
        while n * 2 <= wanted {
            n *= 2;
        }
        Table {
            slots: Vec::new(),
            capacity: n,
            age: 0,
            moves: PhantomData,
        }
    }

    pub fn clear(&mut self) {
        self.slots.iter().for_each(Slot::clear);
        self.age = 0;
    }

    /// Allocates the slots, all empty, unless they are already; refused, not aborted, when the
    /// memory cannot be had. Every slot is written here, so that under overcommit the pages are
    /// claimed now (at the command that sized the table) rather than by a search.
    pub fn try_allocate(&mut self) -> Result<(), AllocError> {
        if self.slots.is_empty() {
            let mut slots = Vec::new();
            slots
                .try_reserve_exact(self.capacity)
                .map_err(|_| AllocError(self.mib()))?;
            slots.resize_with(self.capacity, Slot::default);
            self.slots = slots;
        }
        Ok(())
    }

    /// [`Table::try_allocate`] for a search, which goes on without a table if it fails.
    pub fn allocate(&mut self) {
        if let Err(e) = self.try_allocate() {
            log::warn!("{e}: searching without one");
        }
    }

    /// The size in MiB the table has (or will have, once allocated).
    pub fn mib(&self) -> usize {
        self.capacity
            .saturating_mul(std::mem::size_of::<Slot>())
            .div_ceil(1024 * 1024)
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

    pub fn probe(&self, key: u64) -> Option<Entry> {
        if self.slots.is_empty() {
            return None;
        }
        self.slots[self.index(key)].load().filter(|e| e.key == key)
    }

    pub fn store(&self, key: u64, mv: Option<&M>, score: i32, depth: i16, bound: Bound) {
        self.store_code(key, mv.map(MoveCode::of), score, depth, bound);
    }

    /// [`Table::store`] with the move's code already worked out.
    pub fn store_code(&self, key: u64, mv: Option<MoveCode>, score: i32, depth: i16, bound: Bound) {
        if self.slots.is_empty() {
            return;
        }
        let age = self.age;
        let slot = &self.slots[self.index(key)];
        let old = slot.load();
        let replace = match old {
            None => true,
            Some(old) => {
                old.key == key || old.age != age || depth >= old.depth || bound == Bound::Exact
            }
        };
        if replace {
            // Keep the old best move when the new result has none for the same position.
            let mv = match (mv, old) {
                (None, Some(old)) if old.key == key => old.mv,
                _ => mv,
            };
            let data = Entry {
                key,
                mv,
                score,
                depth,
                bound,
                age,
            }
            .pack();
            slot.check.store(key ^ data, Ordering::Relaxed);
            slot.data.store(data, Ordering::Relaxed);
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
            .filter(|s| s.load().is_some_and(|e| e.age == self.age))
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
        assert_eq!(t.capacity, 1 << 16, "16-byte entries");
        t.store(1, Some(&1), 0, 0, Bound::Exact);
        assert!(
            t.probe(1).is_none(),
            "nothing is kept before the first search"
        );
        t.new_search();
        t.store(42, Some(&7), 10, 3, Bound::Exact);
        let e = t.probe(42).expect("stored");
        assert_eq!(
            (e.mv, e.score, e.depth, e.bound),
            (Some(MoveCode::of(&7u16)), 10, 3, Bound::Exact)
        );
        assert!(t.probe(43).is_none());
        t.store(42, None, 11, 4, Bound::Lower);
        assert_eq!(t.probe(42).and_then(|e| e.mv), Some(MoveCode::of(&7u16)));
        t.clear();
        assert!(t.probe(42).is_none());
    }

    #[test]
    fn a_table_can_be_sized_in_kib() {
        let mut t: Table<u16> = Table::with_kib(16);
        assert_eq!((t.capacity, t.mib()), (1024, 1));
        t.new_search();
        t.store(42, Some(&7), 10, 3, Bound::Exact);
        assert_eq!(t.probe(42).map(|e| e.score), Some(10));
        assert_eq!(Table::<u16>::with_kib(0).capacity, 64, "at least a KiB");
    }

    #[test]
    fn a_table_goes_to_another_game_whole_and_a_size_out_of_reach_is_an_error() {
        let mut t: Table<u16> = Table::new(1);
        t.new_search();
        t.store(42, Some(&7), 10, 3, Bound::Exact);
        let t: Table<u32> = t.retype();
        assert_eq!(t.probe(42).map(|e| e.score), Some(10));
        let mut huge: Table<u16> = Table {
            capacity: usize::MAX / 2,
            ..Table::new(1)
        };
        assert_eq!(huge.try_allocate(), Err(AllocError(huge.mib())));
        assert!(!huge.is_allocated());
        huge.new_search();
        huge.store(42, Some(&7), 10, 3, Bound::Exact);
        assert!(huge.probe(42).is_none(), "a search goes on without a table");
    }

    #[test]
    fn entries_pack_every_field_losslessly() {
        for (score, depth, bound, age) in [
            (-30_000, 0, Bound::Upper, 0u8),
            (30_000, 120, Bound::Lower, 255),
            (-1, 7, Bound::Exact, 128),
        ] {
            for mv in [None, Some(MoveCode(1)), Some(MoveCode(CODE_MASK as u32))] {
                let e = Entry {
                    key: 0xdead_beef_0123_4567,
                    mv,
                    score,
                    depth,
                    bound,
                    age,
                };
                assert_eq!(Entry::unpack(e.key, e.pack()), Some(e));
            }
        }
        assert_eq!(Entry::unpack(5, 0), None, "an empty slot");
    }

    #[test]
    fn a_torn_entry_reads_as_a_miss() {
        let mut t: Table<u16> = Table::new(1);
        t.new_search();
        let a = 7u64;
        t.store(a, Some(&1), 5, 2, Bound::Exact);
        let slot = &t.slots[t.index(a)];
        let check_a = slot.check.load(Ordering::Relaxed);
        // Another thread's write of a different entry, interrupted between its two words.
        let other = Entry {
            key: a,
            mv: Some(MoveCode::of(&2u16)),
            score: -9,
            depth: 4,
            bound: Bound::Lower,
            age: t.age,
        };
        slot.data.store(other.pack(), Ordering::Relaxed);
        assert_eq!(slot.check.load(Ordering::Relaxed), check_a);
        assert!(t.probe(a).is_none(), "old key word, new data word");
    }

    #[test]
    fn move_codes_are_never_zero_and_tell_moves_apart() {
        let codes: std::collections::HashSet<MoveCode> =
            (0u32..10_000).map(|m| MoveCode::of(&m)).collect();
        assert_eq!(codes.len(), 10_000);
        #[allow(dead_code)]
        #[derive(Hash)]
        enum Move {
            Place(u8),
            Step(u8, u8),
            Remove(u8),
            Swap,
        }
        let (place, swap) = (move_hashes(&Move::Place(3)), move_hashes(&Move::Swap));
        assert_eq!(place.0, swap.0, "the slot hash cannot tell them apart");
        assert_ne!(place.1, swap.1, "the code does");
    }
}
