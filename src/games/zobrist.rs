//! Deterministic Zobrist keys: every run and every build gets the same keys, so hashes (and
//! therefore search node counts) are reproducible.

/// SplitMix64 step; good enough to fill key tables, and usable in `const` context.
pub const fn splitmix64(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// `N` keys derived from `seed` (use a different seed per game and per table).
pub const fn keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let (s, k) = splitmix64(state);
        state = s;
        out[i] = k;
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn keys_are_distinct_and_stable() {
        let a: [u64; 64] = super::keys(1);
        let b: [u64; 64] = super::keys(1);
        assert_eq!(a, b);
        let mut sorted = a.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 64);
        let c: [u64; 4] = super::keys(2);
        assert_ne!(a[0], c[0]);
    }
}
