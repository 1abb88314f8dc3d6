//! The moves the threads of one search are working on, for them to put off each other's moves
//! at a node (Kerrigan's simplified ABDADA): two threads at one node then split its moves
//! instead of both searching each. Used by the games whose [`crate::games::ThreadTuning`] sets
//! `share_moves`.

use std::sync::atomic::{AtomicU64, Ordering};

use super::tt::move_hashes;

/// Nodes with at least this depth left take part in [`Busy`]: nearer the horizon a node is
/// cheaper than a deferral. (Time to depth 7 over Pods-advanced game positions measured alike for
/// 3 to 6.)
pub(super) const DEFER_DEPTH: i32 = 4;
/// Slots of [`Busy`]; collisions only cost a move deferred or searched twice.
const BUSY_SLOTS: usize = 1 << 14;

/// Which (node, move) pairs some thread is searching right now, one per slot. A slot holds a
/// mix of the node's key and the move's hash, or 0.
pub(super) struct Busy(Vec<AtomicU64>);

impl Busy {
    pub(super) fn new() -> Self {
        Busy((0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect())
    }

    /// The slot and tag of move `m` at the node with key `key`, worked out once per move of a
    /// node (the move's hash is not free) and used for each of the calls below.
    pub(super) fn tag<M: std::hash::Hash>(key: u64, m: &M) -> BusyTag {
        let tag = (key ^ move_hashes(m).0.wrapping_mul(0x9e37_79b9_7f4a_7c15)) | 1;
        BusyTag((tag >> 40) as usize % BUSY_SLOTS, tag)
    }

    pub(super) fn taken(&self, t: BusyTag) -> bool {
        self.0[t.0].load(Ordering::Relaxed) == t.1
    }

    pub(super) fn enter(&self, t: BusyTag) {
        self.0[t.0].store(t.1, Ordering::Relaxed);
    }

    /// Frees the slot unless another pair has taken it since.
    pub(super) fn leave(&self, t: BusyTag) {
        let _ = self.0[t.0].compare_exchange(t.1, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

/// A (node, move) pair's slot in [`Busy`] and the tag it leaves there.
#[derive(Clone, Copy)]
pub(super) struct BusyTag(usize, u64);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_busy_pair_is_taken_until_it_leaves_and_leaving_frees_only_its_own_slot() {
        let busy = Busy::new();
        let pair = Busy::tag(7, &3u32);
        assert!(!busy.taken(pair));
        busy.enter(pair);
        assert!(busy.taken(pair));
        assert!(!busy.taken(Busy::tag(7, &4u32)), "another move of the node");
        assert!(!busy.taken(Busy::tag(8, &3u32)), "the move at another node");
        // A pair of another node that falls in the same slot takes it over; the first pair's
        // leaving then leaves the second pair's tag in place.
        let other = (8..1u64 << 24)
            .map(|k| Busy::tag(k, &3u32))
            .find(|t| t.0 == pair.0)
            .expect("a key in the same slot");
        busy.enter(other);
        assert!(!busy.taken(pair));
        busy.leave(pair);
        assert!(busy.taken(other));
        busy.leave(other);
        assert!(!busy.taken(other));
    }
}
