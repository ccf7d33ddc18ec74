//! The swept boxes of the shapes that move in a step, for continuous collision's candidate
//! search.
//!
//! In a flying pile thousands of moving shapes sit next to each other. Their broad-phase
//! boxes do not hold their motion, and one tree query per fast shape visits many fat boxes
//! for the few that matter, so the moving shapes are paired here instead: their swept boxes
//! are sorted into horizontal bands (about twice the mean box height) and swept along x in
//! each band (sort and sweep, Baraff 1992; banding as a one-axis grid), so a box meets only
//! the boxes of its own neighborhood. A pair overlapping in several bands is reported once,
//! in the band holding the bottom of the boxes' overlap. Boxes added after the sort (bodies
//! an impact sent another way) are kept in a short list and checked one by one. Each sort
//! starts from the last one's order (by shape), which an insertion sort finishes: the boxes
//! move little from one step to the next.

use crate::geometry::Aabb;
use crate::math::Vec2;
use crate::query::{AabbToiState, aabb_time_of_impact};

/// The bit of an index in `MovingSet::order` that marks the box.
const MARKED: u32 = 1 << 31;

/// Most bands the sorted boxes span: bands grow when the boxes are spread this far apart.
const MAX_BANDS: f32 = 4096.0;

/// A sort key ordering by band, then by `x` as [`f32::total_cmp`] does.
fn sort_key(band: i32, x: f32) -> u64 {
    let bits = x.to_bits();
    let x = if bits >> 31 == 1 { !bits } else { bits | 1 << 31 };
    (u64::from((band ^ i32::MIN) as u32) << 32) | u64::from(x)
}

/// A box moving over (part of) the step: from `start` by `displacement` (meters).
#[derive(Clone, Copy, Debug)]
pub(crate) struct SweptBox {
    pub start: Aabb,
    pub displacement: Vec2,
    /// The box holding the whole motion.
    pub sweep: Aabb,
}

impl SweptBox {
    pub fn new(start: Aabb, displacement: Vec2) -> SweptBox {
        SweptBox { start, displacement, sweep: start.union(&start.translated(displacement)) }
    }

    /// Whether two moving boxes touch at some time of the step (swept-AABB time of impact).
    pub fn may_meet(&self, other: &SweptBox) -> bool {
        aabb_time_of_impact(&self.start, self.displacement, &other.start, other.displacement)
            .is_ok_and(|toi| toi.state != AabbToiState::Separated)
    }
}

/// The moving boxes of a step, sorted into bands for pair and box queries.
#[derive(Clone, Debug, Default)]
pub(crate) struct MovingSet {
    /// The boxes in the order they were added.
    pub boxes: Vec<SweptBox>,
    /// How many of `boxes` are sorted into the bands; the others are checked one by one.
    sorted: usize,
    band_height: f32,
    /// (band and lower x of the sweep as one sort key, index into `boxes` with
    /// [`MARKED`] set for marked boxes, sweep), sorted.
    order: Vec<(u64, u32, Aabb)>,
    /// The sort keys and indices (with the mark) before sorting.
    keys: Vec<u128>,
    /// The bands in `order`: (band, first position, widest sweep in x).
    runs: Vec<(i32, u32, f32)>,
    /// The last sort's order as (id, band), the start of the next sort.
    last: Vec<(u32, i32)>,
    /// By id: the index of its box in this sort, or `u32::MAX` (scratch, all `u32::MAX`
    /// between sorts).
    index_of: Vec<u32>,
    /// By box: the bands it spans, and of those the ones `last` put in order.
    spans: Vec<(i32, i32, i32, i32)>,
    /// Keys of (box, band) entries `last` does not hold, sorted apart and merged.
    tail: Vec<u128>,
}

impl MovingSet {
    pub fn clear(&mut self) {
        self.boxes.clear();
        self.order.clear();
        self.runs.clear();
        self.sorted = 0;
    }

    /// Sorts the boxes added so far into the bands; `marked(i)` tells whether box `i` is one
    /// of those every reported pair has (see [`MovingSet::overlapping_pairs`]), `id(i)` who
    /// box `i` is from one sort to the next (unique, small: a shape index).
    ///
    /// The boxes move little from one step to the next, so the sort starts from the last
    /// sort's order of ids: nearly sorted, an insertion sort finishes it in about linear
    /// time; new entries are sorted apart and merged in. The result is the same as a full
    /// sort (every key is unique), only faster.
    pub fn sort(&mut self, marked: impl Fn(usize) -> bool, id: impl Fn(usize) -> u32) {
        self.order.clear();
        self.keys.clear();
        self.runs.clear();
        self.sorted = self.boxes.len();
        if self.boxes.is_empty() {
            return;
        }
        let (mut bottom, mut top, mut heights) = (f32::MAX, f32::MIN, 0.0f64);
        for b in &self.boxes {
            (bottom, top) = (bottom.min(b.sweep.lower.y), top.max(b.sweep.upper.y));
            heights += f64::from(b.sweep.upper.y - b.sweep.lower.y);
        }
        let mean = (heights / self.boxes.len() as f64) as f32;
        self.band_height = (2.0 * mean).max((top - bottom) / MAX_BANDS).max(f32::MIN_POSITIVE);
        self.sort_keys(marked, id);
        let boxes = &self.boxes;
        self.order.extend(self.keys.iter().map(|&k| {
            let index = k as u32;
            ((k >> 32) as u64, index, boxes[(index & !MARKED) as usize].sweep)
        }));
        for (k, &(key, _, sweep)) in self.order.iter().enumerate() {
            let (band, width) = ((key >> 32) as u32 as i32 ^ i32::MIN, sweep.upper.x - sweep.lower.x);
            match self.runs.last_mut() {
                Some(run) if run.0 == band => run.2 = run.2.max(width),
                _ => self.runs.push((band, k as u32, width)),
            }
        }
    }

    /// Fills `keys` with the sorted keys of every (box, band) entry, starting from the order
    /// of `last`, and keeps their order in `last` for the next sort.
    fn sort_keys(&mut self, marked: impl Fn(usize) -> bool, id: impl Fn(usize) -> u32) {
        let key =
            |band: i32, b: &SweptBox, index: u32| u128::from(sort_key(band, b.sweep.lower.x)) << 32 | u128::from(index);
        let index = |i: usize| if marked(i) { i as u32 | MARKED } else { i as u32 };
        self.spans.clear();
        for (i, b) in self.boxes.iter().enumerate() {
            let (low, high) = (self.band(b.sweep.lower.y), self.band(b.sweep.upper.y));
            self.spans.push((low, high, i32::MAX, i32::MIN));
            let slot = id(i) as usize;
            if slot >= self.index_of.len() {
                self.index_of.resize(slot + 1, u32::MAX);
            }
            self.index_of[slot] = i as u32;
        }
        // The entries of the last order still there, in that order.
        for &(who, band) in &self.last {
            let Some(&i) = self.index_of.get(who as usize).filter(|&&i| i != u32::MAX) else { continue };
            let span = &mut self.spans[i as usize];
            if (span.0..=span.1).contains(&band) {
                (span.2, span.3) = (span.2.min(band), span.3.max(band));
                self.keys.push(key(band, &self.boxes[i as usize], index(i as usize)));
            }
        }
        // The rest (new boxes, bands new to a box): the bands of a box not from `last` lie
        // outside the run of those that were (both are runs of consecutive bands).
        self.tail.clear();
        for (i, (b, span)) in self.boxes.iter().zip(&self.spans).enumerate() {
            for band in span.0..=span.1 {
                if !(span.2..=span.3).contains(&band) {
                    self.tail.push(key(band, b, index(i)));
                }
            }
        }
        for i in 0..self.boxes.len() {
            self.index_of[id(i) as usize] = u32::MAX;
        }
        if !insertion_sort(&mut self.keys, 4) {
            self.keys.sort_unstable();
        }
        // Sorting plain integers is about twice as fast as sorting the records.
        self.tail.sort_unstable();
        if !self.tail.is_empty() {
            merge_into(&mut self.keys, &self.tail);
        }
        self.last.clear();
        let boxes = self.boxes.len();
        self.last.extend(self.keys.iter().map(|&k| {
            let i = (k as u32 & !MARKED) as usize;
            debug_assert!(i < boxes);
            (id(i), ((k >> 64) as u32 ^ MARKED) as i32)
        }));
    }

    fn band(&self, y: f32) -> i32 {
        // `as` saturates: bands far out merge, which only costs comparisons. Truncating and
        // stepping down below zero is `floor` without its library call on plain x86-64.
        let q = y / self.band_height;
        let band = q as i32;
        if band as f32 > q { band.saturating_sub(1) } else { band }
    }

    /// The positions in `order` of run `r`.
    fn run(&self, r: usize) -> std::ops::Range<usize> {
        let end = self.runs.get(r + 1).map_or(self.order.len(), |next| next.1 as usize);
        self.runs[r].1 as usize..end
    }

    /// Calls `f(i, j)` (indices into `boxes`, each pair once, in a fixed order) for every two
    /// sorted boxes whose sweeps overlap, at least one of them marked.
    pub fn overlapping_pairs(&self, mut f: impl FnMut(u32, u32)) {
        for r in 0..self.runs.len() {
            let band = self.runs[r].0;
            let run = &self.order[self.run(r)];
            for (k, &(_, i, a)) in run.iter().enumerate() {
                for &(_, j, b) in &run[k + 1..] {
                    if b.lower.x > a.upper.x {
                        break;
                    }
                    if (i | j) & MARKED != 0
                        && b.lower.y <= a.upper.y
                        && a.lower.y <= b.upper.y
                        && self.band(a.lower.y.max(b.lower.y)) == band
                    {
                        f(i & !MARKED, j & !MARKED);
                    }
                }
            }
        }
    }

    /// Calls `f(i)` (an index into `boxes`, each once) for every box whose sweep overlaps
    /// `aabb`, sorted or added later.
    pub fn overlapping(&self, aabb: &Aabb, mut f: impl FnMut(u32)) {
        if !self.runs.is_empty() {
            let (low, high) = (self.band(aabb.lower.y), self.band(aabb.upper.y));
            let first = self.runs.partition_point(|run| run.0 < low);
            for r in first..self.runs.len() {
                let (band, _, widest) = self.runs[r];
                if band > high {
                    break;
                }
                let run = &self.order[self.run(r)];
                let from = run.partition_point(|e| e.2.lower.x < aabb.lower.x - widest);
                for &(_, i, b) in &run[from..] {
                    if b.lower.x > aabb.upper.x {
                        break;
                    }
                    if b.overlaps(aabb) && self.band(aabb.lower.y.max(b.lower.y)) == band {
                        f(i & !MARKED);
                    }
                }
            }
        }
        for (i, b) in self.boxes.iter().enumerate().skip(self.sorted) {
            if b.sweep.overlaps(aabb) {
                f(i as u32);
            }
        }
    }
}

/// Sorts a nearly sorted slice by insertion; gives up (false, the slice permuted) after
/// `budget` moves per element, where a full sort is faster.
fn insertion_sort(keys: &mut [u128], budget: usize) -> bool {
    let mut moves = budget.saturating_mul(keys.len());
    for k in 1..keys.len() {
        let x = keys[k];
        let mut j = k;
        while j > 0 && keys[j - 1] > x {
            if moves == 0 {
                return false;
            }
            moves -= 1;
            keys[j] = keys[j - 1];
            j -= 1;
        }
        keys[j] = x;
    }
    true
}

/// Merges the sorted `tail` into the sorted `keys`.
fn merge_into(keys: &mut Vec<u128>, tail: &[u128]) {
    let head = keys.len();
    keys.extend_from_slice(tail);
    // From the back: the tail's slots free up as the largest keys take their places.
    let (mut i, mut j, mut out) = (head, tail.len(), keys.len());
    while j > 0 {
        out -= 1;
        if i > 0 && keys[i - 1] > tail[j - 1] {
            keys[out] = keys[i - 1];
            i -= 1;
        } else {
            keys[out] = tail[j - 1];
            j -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boxes(n: usize, seed: u64) -> Vec<SweptBox> {
        let mut s = seed;
        let mut next = move || {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (s >> 40) as f32 / (1u64 << 24) as f32
        };
        (0..n)
            .map(|_| {
                let lower = Vec2::new(20.0 * next(), 20.0 * next());
                let size = Vec2::new(0.1 + 2.0 * next(), 0.1 + 2.0 * next());
                let d = Vec2::new(4.0 * next() - 2.0, 4.0 * next() - 2.0);
                SweptBox::new(Aabb::new(lower, lower + size), d)
            })
            .collect()
    }

    /// The banded sort and sweep finds exactly the overlapping pairs with a marked box that a
    /// test of every pair finds, each once, and box queries (also of boxes added after the
    /// sort) likewise.
    #[test]
    fn finds_what_brute_force_finds() {
        for seed in 1..6 {
            let all = boxes(300, seed);
            let mut set = MovingSet::default();
            set.boxes.extend_from_slice(&all[..250]);
            set.sort(|i| i % 3 != 0, |i| i as u32);
            set.boxes.extend_from_slice(&all[250..]);
            let mut found = Vec::new();
            set.overlapping_pairs(|i, j| found.push((i.min(j), i.max(j))));
            let mut expected = Vec::new();
            for i in 0..250u32 {
                for j in i + 1..250u32 {
                    if (i % 3 != 0 || j % 3 != 0) && all[i as usize].sweep.overlaps(&all[j as usize].sweep) {
                        expected.push((i, j));
                    }
                }
            }
            found.sort_unstable();
            assert_eq!(found, expected, "seed {seed}");
            assert!(expected.len() > 300, "{} pairs", expected.len());
            for q in &all[..40] {
                let mut hits = Vec::new();
                set.overlapping(&q.sweep, |i| hits.push(i));
                hits.sort_unstable();
                let brute: Vec<u32> = (0..300u32).filter(|&i| all[i as usize].sweep.overlaps(&q.sweep)).collect();
                assert_eq!(hits, brute, "seed {seed}");
            }
        }
    }

    /// A sort started from the last sort's order (boxes moved, gone, new, ids shuffled) gives
    /// the same order as a sort from scratch, whether the insertion sort finishes or gives up.
    #[test]
    fn warm_started_sort_equals_a_fresh_sort() {
        for (seed, step) in [(1, 0.05), (2, 0.3), (3, 5.0)] {
            let all = boxes(400, seed);
            let mut warm = MovingSet::default();
            warm.boxes.extend_from_slice(&all[..300]);
            warm.sort(|i| i % 2 == 0, |i| i as u32);
            // Next step: every box moved by up to `step`, the first 50 gone, 100 new ones,
            // and the boxes added in another order.
            let moved = boxes(400, seed + 100);
            let next: Vec<(u32, SweptBox)> = (50..400u32)
                .rev()
                .map(|id| {
                    let (b, d) = (all[id as usize], moved[id as usize].displacement * step);
                    (id, SweptBox::new(b.start.translated(d), b.displacement))
                })
                .collect();
            warm.clear();
            let mut fresh = MovingSet::default();
            for set in [&mut warm, &mut fresh] {
                set.boxes.extend(next.iter().map(|e| e.1));
                set.sort(|i| i % 3 == 0, |i| next[i].0);
            }
            assert_eq!(warm.keys, fresh.keys, "seed {seed}");
            assert!(warm.keys.len() > next.len(), "{} keys", warm.keys.len());
        }
    }

    #[test]
    fn insertion_sort_gives_up_on_a_shuffled_slice_and_merge_keeps_the_order() {
        let mut nearly = [1u128, 2, 4, 3, 5, 7, 6];
        assert!(insertion_sort(&mut nearly, 1));
        assert_eq!(nearly, [1, 2, 3, 4, 5, 6, 7]);
        let mut reversed = [7u128, 6, 5, 4, 3, 2, 1];
        assert!(!insertion_sort(&mut reversed, 1));
        let mut keys = vec![1u128, 4, 6, 9];
        merge_into(&mut keys, &[0, 5, 10]);
        assert_eq!(keys, [0, 1, 4, 5, 6, 9, 10]);
    }

    #[test]
    fn bands_are_the_floor_of_height_over_band_height() {
        let set = MovingSet { band_height: 0.75, ..MovingSet::default() };
        for y in [0.0, -0.0, 0.74, 0.75, -0.1, -0.75, -0.76, 1.0e9, -1.0e9, 3.0e38, -3.0e38, f32::NAN] {
            assert_eq!(set.band(y), (y / 0.75).floor() as i32, "y = {y}");
        }
    }

    #[test]
    fn moving_boxes_meet_only_when_their_paths_cross_in_time() {
        let a = SweptBox::new(Aabb::new(Vec2::ZERO, Vec2::ONE), Vec2::new(4.0, 0.0));
        let towards = SweptBox::new(Aabb::new(Vec2::new(3.0, 0.0), Vec2::new(4.0, 1.0)), Vec2::ZERO);
        let fleeing = SweptBox::new(Aabb::new(Vec2::new(3.0, 0.0), Vec2::new(4.0, 1.0)), Vec2::new(4.0, 0.0));
        assert!(a.sweep.overlaps(&fleeing.sweep));
        assert!(a.may_meet(&towards));
        assert!(!a.may_meet(&fleeing));
    }
}
