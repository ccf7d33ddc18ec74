//! The set of live pairs, kept up to date from the pairs the moved proxies find, with the
//! pairs that began and ended reported in a deterministic order.
//!
//! Proxies are named by 32-bit raw keys and a pair by the 64-bit key of its two raw keys
//! ([`PairKey`]). The live pairs are one sorted array of pair keys. An update takes the keys
//! the moved proxies found (sorted, distinct) and merges them with the live array in one
//! sequential pass:
//! - a found key that is not live begins, if the owner accepts it (filters, callback);
//! - a live key with a moved proxy that was not found ended: the moved proxy queried and no
//!   longer overlaps the other;
//! - a live key with a reset proxy (removed, or refiltered) ended, and begins again if found;
//! - every other live key stays.
//!
//! So after every update the live set is exactly the set of overlapping, accepted pairs, and
//! both lists of changes come out sorted by pair key: the same input gives the same output,
//! run after run. A sorted array, unlike a hash set, is walked sequentially, which matters
//! more than the O(live pairs) pass: a random memory access costs as much as a hundred keys.

/// The key of a pair of proxies: the raw keys of both, the smaller in the high 32 bits.
/// Unique per pair of live proxies and the order pairs are reported in; a natural key for a
/// table of contacts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PairKey(pub u64);

impl PairKey {
    /// The key of the pair of two raw proxy keys, in either order.
    #[inline]
    pub fn new(x: u32, y: u32) -> PairKey {
        let (lo, hi) = if x < y { (x, y) } else { (y, x) };
        PairKey(((lo as u64) << 32) | hi as u64)
    }

    /// The raw keys of the two proxies, smaller first.
    #[inline]
    pub fn raws(self) -> (u32, u32) {
        ((self.0 >> 32) as u32, self.0 as u32)
    }
}

/// What one update changed in the set of live pairs, each list sorted by pair key.
#[derive(Clone, Copy, Debug)]
pub struct PairChanges<'a, P> {
    /// Pairs whose fat AABBs began to overlap (or that the filters newly allow).
    pub begun: &'a [P],
    /// Pairs whose fat AABBs stopped overlapping, whose filters no longer allow them, or one
    /// of whose proxies was removed (a removed proxy's raw key may already name a new one).
    pub ended: &'a [PairKey],
}

/// The live pairs and the per-update marks of moved and reset proxies, for raw keys whose
/// low `K` bits (0 or 2) name a kind.
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct PairSet<const K: u32> {
    live: Vec<PairKey>,
    next: Vec<PairKey>,
    ended: Vec<PairKey>,
    /// Bit sets by raw key (dense and small: 100,000 proxies of one kind take 50 KB for the
    /// four kinds of a raw key with `K` = 2): proxies that query at this update, proxies whose
    /// pairs all end at this update, and the union of both (one test in the common case).
    moved: Marks,
    reset: Marks,
    touched: Marks,
}

impl<const K: u32> PairSet<K> {
    /// Makes room for the marks of slots below `slots` in every kind.
    pub(crate) fn reserve_slots(&mut self, slots: usize) {
        let raws = slots << K;
        for marks in [&mut self.moved, &mut self.reset, &mut self.touched] {
            marks.reserve(raws);
        }
    }

    /// Marks a proxy that queries at this update.
    #[inline]
    pub(crate) fn mark_moved(&mut self, raw: u32) {
        self.moved.set(raw);
        self.touched.set(raw);
    }

    /// True when a proxy queries at this update.
    #[inline]
    pub(crate) fn is_moved(&self, raw: u32) -> bool {
        self.moved.get(raw)
    }

    /// Marks a proxy whose live pairs all end at this update.
    #[inline]
    pub(crate) fn mark_reset(&mut self, raw: u32) {
        self.reset.set(raw);
        self.touched.set(raw);
    }

    /// The live pairs, sorted.
    pub(crate) fn live(&self) -> &[PairKey] {
        &self.live
    }

    /// The pairs that ended at the last update, sorted.
    pub(crate) fn ended(&self) -> &[PairKey] {
        &self.ended
    }

    /// Merges the keys `found` (sorted, distinct) into the live set as the module explains;
    /// `begin(key)` decides whether a pair begins (and records it). Clears the marks.
    ///
    /// The inner loop skips over live keys that nothing touched (most of them), which are
    /// then copied as one run; it stops at keys with a touched proxy and at found keys.
    pub(crate) fn update(&mut self, found: &[u64], mut begin: impl FnMut(PairKey) -> bool) {
        let mut next = std::mem::take(&mut self.next);
        next.clear();
        next.reserve(self.live.len() + found.len());
        self.ended.clear();
        let live = std::mem::take(&mut self.live);
        let (touched, reset) = (&self.touched, &self.reset);
        let (mut i, mut j) = (0, 0);
        // Keys sort by their first raw key: cache its mark across the run.
        let (mut last_a, mut a_touched) = (u32::MAX, false);
        loop {
            let stop = found.get(j).copied().unwrap_or(u64::MAX);
            let start = i;
            while let Some(&key) = live.get(i) {
                if key.0 >= stop {
                    break;
                }
                let (a, b) = key.raws();
                if a != last_a {
                    (last_a, a_touched) = (a, touched.get(a));
                }
                if a_touched || touched.get(b) {
                    break;
                }
                i += 1;
            }
            next.extend_from_slice(&live[start..i]);
            // Here the live keys are exhausted, or live[i] is at or after the next found key,
            // or has a touched proxy.
            let key = live.get(i).copied();
            if key.is_none() && j == found.len() {
                break;
            }
            if key.is_none_or(|k| stop < k.0) {
                // Found and not live: a candidate to begin.
                if begin(PairKey(stop)) {
                    next.push(PairKey(stop));
                }
                j += 1;
                continue;
            }
            let key = live[i];
            i += 1;
            let still_found = key.0 == stop;
            j += still_found as usize;
            let (a, b) = key.raws();
            if reset.get(a) || reset.get(b) {
                // Removed or refiltered: the pair ends, and begins anew if it still overlaps.
                self.ended.push(key);
                if still_found && begin(key) {
                    next.push(key);
                }
            } else if still_found {
                next.push(key);
            } else {
                // A proxy of the pair queried and no longer overlaps the other.
                self.ended.push(key);
            }
        }
        self.live = next;
        self.next = live;
        for marks in [&mut self.moved, &mut self.reset, &mut self.touched] {
            marks.clear();
        }
    }
}

/// A bit set of raw keys. One flat set for all kinds, indexed by the raw key itself, so a
/// test in the merge's inner loop is one load and one bit test (per-kind sets took three
/// more loads to find the kind's words).
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct Marks(Vec<u64>);

impl Marks {
    /// Makes room for raw keys below `raws`.
    fn reserve(&mut self, raws: usize) {
        let words = raws.div_ceil(64);
        if self.0.len() < words {
            self.0.resize(words, 0);
        }
    }

    /// Marks a raw key (below the reserved size).
    #[inline]
    fn set(&mut self, raw: u32) {
        self.0[(raw >> 6) as usize] |= 1 << (raw & 63);
    }

    /// The mark of a raw key (false beyond the reserved size).
    #[inline]
    fn get(&self, raw: u32) -> bool {
        self.0.get((raw >> 6) as usize).is_some_and(|w| w & (1 << (raw & 63)) != 0)
    }

    /// Clears every mark.
    fn clear(&mut self) {
        self.0.fill(0);
    }
}

/// The Morton (Z-order) code of a cell: the bits of `x` and `y` (16 each) interleaved. Moved
/// proxies query in this order so that consecutive queries walk nearby parts of a tree.
pub(crate) fn morton(x: u32, y: u32) -> u32 {
    fn spread(v: u32) -> u32 {
        let mut v = v & 0xffff;
        v = (v | (v << 8)) & 0x00ff_00ff;
        v = (v | (v << 4)) & 0x0f0f_0f0f;
        v = (v | (v << 2)) & 0x3333_3333;
        (v | (v << 1)) & 0x5555_5555
    }
    spread(x) | (spread(y) << 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_begins_keeps_and_ends() {
        let mut set = PairSet::<0>::default();
        set.reserve_slots(16);
        // Proxies 1..=4 moved: (1,2) (1,3) (2,4) begin.
        for raw in 1..=4 {
            set.mark_moved(raw);
        }
        let found: Vec<u64> = [(1, 2), (1, 3), (2, 4)].iter().map(|&(a, b)| PairKey::new(a, b).0).collect();
        set.update(&found, |_| true);
        assert_eq!(set.live(), &[PairKey::new(1, 2), PairKey::new(1, 3), PairKey::new(2, 4)]);
        assert!(set.ended().is_empty());
        // Proxy 3 moved away from 1; proxy 4 was removed; (5, 6) begins but is refused.
        set.mark_moved(3);
        set.mark_reset(4);
        set.mark_moved(5);
        let found = [PairKey::new(5, 6).0];
        let mut offered = Vec::new();
        set.update(&found, |k| {
            offered.push(k);
            false
        });
        assert_eq!(offered, [PairKey::new(5, 6)]);
        assert_eq!(set.live(), &[PairKey::new(1, 2)]);
        assert_eq!(set.ended(), &[PairKey::new(1, 3), PairKey::new(2, 4)]);
    }

    #[test]
    fn morton_interleaves() {
        assert_eq!(morton(0b11, 0b00), 0b0101);
        assert_eq!(morton(0b00, 0b11), 0b1010);
        assert_eq!(morton(0xffff, 0xffff), u32::MAX);
    }
}
