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

/// The live pairs and the per-update marks of moved and reset proxies.
#[derive(Clone, Debug, Default)]
pub(crate) struct PairSet {
    live: Vec<PairKey>,
    next: Vec<PairKey>,
    ended: Vec<PairKey>,
    /// Bit sets by raw key: proxies that query at this update, proxies whose pairs all end at
    /// this update, and the union of both (one test in the common case of the merge).
    moved: Vec<u64>,
    reset: Vec<u64>,
    touched: Vec<u64>,
}

impl PairSet {
    /// Makes room for raw keys below `raws`.
    pub(crate) fn reserve_raws(&mut self, raws: usize) {
        let words = raws.div_ceil(64);
        if self.moved.len() < words {
            self.moved.resize(words, 0);
            self.reset.resize(words, 0);
            self.touched.resize(words, 0);
        }
    }

    /// Marks a proxy that queries at this update.
    #[inline]
    pub(crate) fn mark_moved(&mut self, raw: u32) {
        set_bit(&mut self.moved, raw);
        set_bit(&mut self.touched, raw);
    }

    /// True when a proxy queries at this update.
    #[inline]
    pub(crate) fn is_moved(&self, raw: u32) -> bool {
        get_bit(&self.moved, raw)
    }

    /// Marks a proxy whose live pairs all end at this update.
    #[inline]
    pub(crate) fn mark_reset(&mut self, raw: u32) {
        set_bit(&mut self.reset, raw);
        set_bit(&mut self.touched, raw);
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
    pub(crate) fn update(&mut self, found: &[u64], mut begin: impl FnMut(PairKey) -> bool) {
        self.next.clear();
        self.next.reserve(self.live.len() + found.len());
        self.ended.clear();
        let mut j = 0;
        for &key in &self.live {
            while j < found.len() && found[j] < key.0 {
                if begin(PairKey(found[j])) {
                    self.next.push(PairKey(found[j]));
                }
                j += 1;
            }
            let (a, b) = key.raws();
            if !get_bit(&self.touched, a) && !get_bit(&self.touched, b) {
                self.next.push(key);
                continue;
            }
            let still_found = j < found.len() && found[j] == key.0;
            j += still_found as usize;
            if get_bit(&self.reset, a) || get_bit(&self.reset, b) {
                self.ended.push(key);
                if still_found && begin(key) {
                    self.next.push(key);
                }
            } else if still_found {
                self.next.push(key);
            } else {
                self.ended.push(key);
            }
        }
        for &key in &found[j..] {
            if begin(PairKey(key)) {
                self.next.push(PairKey(key));
            }
        }
        std::mem::swap(&mut self.live, &mut self.next);
        self.moved.fill(0);
        self.reset.fill(0);
        self.touched.fill(0);
    }
}

#[inline]
fn set_bit(bits: &mut [u64], i: u32) {
    bits[(i >> 6) as usize] |= 1 << (i & 63);
}

#[inline]
fn get_bit(bits: &[u64], i: u32) -> bool {
    bits[(i >> 6) as usize] & (1 << (i & 63)) != 0
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
        let mut set = PairSet::default();
        set.reserve_raws(16);
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
