//! A growable set of small integers as bits, visited in increasing order.

/// A set of `u32` as a bit vector: insert and remove in constant time, and iteration in
/// increasing order that skips 64 absent values per word.
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct BitSet {
    words: Vec<u64>,
}

impl BitSet {
    /// Adds `i`, growing the set as needed.
    #[inline]
    pub fn insert(&mut self, i: u32) {
        let w = (i / 64) as usize;
        if w >= self.words.len() {
            self.words.resize(w + 1, 0);
        }
        self.words[w] |= 1 << (i % 64);
    }

    /// Removes `i` (absent values are fine).
    #[inline]
    pub fn remove(&mut self, i: u32) {
        if let Some(word) = self.words.get_mut((i / 64) as usize) {
            *word &= !(1 << (i % 64));
        }
    }

    /// The members, in increasing order.
    pub fn ones(&self) -> impl Iterator<Item = u32> + '_ {
        self.words.iter().enumerate().flat_map(|(w, &word)| Ones { word, base: (w * 64) as u32 })
    }
}

/// The set bits of one word.
struct Ones {
    word: u64,
    base: u32,
}

impl Iterator for Ones {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.word == 0 {
            return None;
        }
        let bit = self.word.trailing_zeros();
        self.word &= self.word - 1;
        Some(self.base + bit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_come_out_in_order() {
        let mut set = BitSet::default();
        for i in [200, 3, 64, 63, 0, 129] {
            set.insert(i);
        }
        set.remove(129);
        set.remove(5000);
        assert_eq!(set.ones().collect::<Vec<_>>(), [0, 3, 63, 64, 200]);
    }
}
