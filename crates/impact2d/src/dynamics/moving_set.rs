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
//! an impact sent another way) are kept in a short list and checked one by one.

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
}

impl MovingSet {
    pub fn clear(&mut self) {
        self.boxes.clear();
        self.order.clear();
        self.runs.clear();
        self.sorted = 0;
    }

    /// Sorts the boxes added so far into the bands; `marked(i)` tells whether box `i` is one
    /// of those every reported pair has (see [`MovingSet::overlapping_pairs`]).
    pub fn sort(&mut self, marked: impl Fn(usize) -> bool) {
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
        for (i, b) in self.boxes.iter().enumerate() {
            let index = if marked(i) { i as u32 | MARKED } else { i as u32 };
            for band in self.band(b.sweep.lower.y)..=self.band(b.sweep.upper.y) {
                self.keys.push(u128::from(sort_key(band, b.sweep.lower.x)) << 32 | u128::from(index));
            }
        }
        // Sorting plain integers is about twice as fast as sorting the records.
        self.keys.sort_unstable();
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

    fn band(&self, y: f32) -> i32 {
        // `as` saturates: bands far out merge, which only costs comparisons.
        (y / self.band_height).floor() as i32
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
            set.sort(|i| i % 3 != 0);
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
