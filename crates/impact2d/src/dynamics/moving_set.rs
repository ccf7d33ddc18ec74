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
//! an impact sent another way) are kept in a short list and checked one by one. The sort is
//! a radix sort of keys of up to 32 bits (band, then x on a fine grid), linear in the boxes.
//! The sorted entries are kept in columns, and the sweep tests four later entries of a band
//! at once (keys, flags and boxes in SIMD lanes): which of them meet is data the processor
//! cannot predict, so one branch per four entries beats five per entry. A few boxes (up to
//! [`ALL_PAIRS_MAX_BOXES`]) are not sorted: every pair is tested, four at a time, which costs
//! less than sorting them.

use crate::geometry::Aabb;
use crate::math::Vec2;
use crate::query::{AabbToiState, aabb_time_of_impact};

/// The bit of an index in a sort key and in `MovingSet::order` that marks the box.
const MARKED: u32 = 1 << 31;

/// The bit of an index in `MovingSet::order` set in the lowest band of a box: a pair is
/// reported in the band holding the bottom of the boxes' overlap, which is the lowest band
/// of one of them.
const FIRST: u32 = 1 << 30;

/// The index bits of an entry.
const INDEX: u32 = FIRST - 1;

/// Most bands the sorted boxes span: bands grow when the boxes are spread this far apart.
const MAX_BANDS: f32 = 4096.0;

/// Bits of a sort key that two passes of the radix sort order.
const TWO_PASS_BITS: u32 = 22;

/// A box moving over (part of) the step: from `start` by `displacement` (meters).
#[derive(Clone, Copy, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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

/// How the body of a box moves over the step, for the relative-motion test.
#[derive(Clone, Copy, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Motion {
    /// The motion of the body's center (meters).
    pub translation: Vec2,
    /// How far the rotation moves the body's farthest point (meters).
    pub spin: f32,
    /// The most the body's motion may differ from another's for neither body to pass through
    /// the other (meters); negative when it may not differ at all.
    pub limit: f32,
}

impl Motion {
    /// The motion over the last `fraction` of its time (moving at a steady rate).
    pub fn last(&self, fraction: f32) -> Motion {
        Motion { translation: fraction * self.translation, spin: fraction * self.spin, limit: self.limit }
    }

    /// True when two bodies move so little relative to each other that neither can pass
    /// through the other: the fast-body test (Box2D v3's, against the smallest extent) applied
    /// to their relative motion, with the stricter of their limits.
    #[inline]
    pub fn is_slow_against(&self, other: &Motion) -> bool {
        let relative = (self.translation - other.translation).length() + self.spin + other.spin;
        relative <= if self.limit < other.limit { self.limit } else { other.limit }
    }
}

/// The sorted (box, band) entries in columns, so the sweep tests [`LANES`] entries at once;
/// followed by `LANES - 1` entries that meet nothing, so the last real entries fill lanes too.
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct Columns {
    /// The band (from the lowest) and the place of the sweep's lower x in it.
    key: Vec<u32>,
    /// The index into `MovingSet::boxes`, with [`MARKED`] set for marked boxes and [`FIRST`]
    /// in the box's lowest band.
    index: Vec<u32>,
    /// The box's sweep (meters).
    lower_x: Vec<f32>,
    lower_y: Vec<f32>,
    upper_x: Vec<f32>,
    upper_y: Vec<f32>,
    /// The motion of the box's body ([`Motion`]'s fields).
    move_x: Vec<f32>,
    move_y: Vec<f32>,
    spin: Vec<f32>,
    limit: Vec<f32>,
    /// The number of entries, not counting those that pad the lanes.
    len: usize,
}

/// Entries the sweep tests at once.
const LANES: usize = 4;

impl Columns {
    /// Forgets the entries; the columns keep their storage, which `fill` overwrites.
    fn clear(&mut self) {
        self.len = 0;
    }

    /// Makes the columns the entries `sorted` ((key, index) pairs as one integer each) of
    /// `boxes`, padded with `LANES - 1` entries whose NaN sweeps overlap nothing.
    fn fill(&mut self, sorted: &[u64], boxes: &[SweptBox], motions: &[Motion]) {
        let n = sorted.len();
        self.len = n;
        // Each column cut to `n` and padded; the entries below `n` are overwritten next.
        let padded = n + LANES - 1;
        for (column, pad) in [(&mut self.key, u32::MAX), (&mut self.index, 0)] {
            column.truncate(n);
            column.resize(padded, pad);
        }
        let floats = [&mut self.lower_x, &mut self.lower_y, &mut self.upper_x, &mut self.upper_y];
        for column in floats.into_iter().chain([&mut self.move_x, &mut self.move_y, &mut self.spin, &mut self.limit]) {
            column.truncate(n);
            column.resize(padded, f32::NAN);
        }
        let (key, index) = (&mut self.key[..n], &mut self.index[..n]);
        let (lower_x, lower_y) = (&mut self.lower_x[..n], &mut self.lower_y[..n]);
        let (upper_x, upper_y) = (&mut self.upper_x[..n], &mut self.upper_y[..n]);
        let (move_x, move_y) = (&mut self.move_x[..n], &mut self.move_y[..n]);
        let (spin, limit) = (&mut self.spin[..n], &mut self.limit[..n]);
        for k in 0..n {
            let (entry, i) = ((sorted[k] >> 32) as u32, sorted[k] as u32);
            let (sweep, m) = (&boxes[(i & INDEX) as usize].sweep, &motions[(i & INDEX) as usize]);
            (key[k], index[k]) = (entry, i);
            (lower_x[k], lower_y[k], upper_x[k], upper_y[k]) =
                (sweep.lower.x, sweep.lower.y, sweep.upper.x, sweep.upper.y);
            (move_x[k], move_y[k], spin[k], limit[k]) = (m.translation.x, m.translation.y, m.spin, m.limit);
        }
    }

    fn sweep(&self, k: usize) -> Aabb {
        Aabb::new(Vec2::new(self.lower_x[k], self.lower_y[k]), Vec2::new(self.upper_x[k], self.upper_y[k]))
    }

    fn motion(&self, k: usize) -> Motion {
        Motion { translation: Vec2::new(self.move_x[k], self.move_y[k]), spin: self.spin[k], limit: self.limit[k] }
    }
}

/// What the sweep tests later entries of a band against: an entry's sweep, the last key that
/// can start within it along x, and the flags a partner must have.
struct Probe {
    sweep: Aabb,
    last: u32,
    need: u32,
}

/// Bit `l` set when entry `j + l` (of the padded columns) has a key up to `probe.last`, the
/// flags `probe.need`, and a sweep overlapping the probe's (touching counts); and whether
/// some entry's key is past `probe.last`, which ends the band's sweep (keys are sorted).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn meet_lanes(c: &Columns, j: usize, probe: &Probe) -> (u32, bool) {
    use std::arch::x86_64::*;
    let a = &probe.sweep;
    debug_assert!(
        j < c.len
            && [c.index.len(), c.lower_x.len(), c.lower_y.len(), c.upper_x.len(), c.upper_y.len()]
                .iter()
                .all(|&n| n == c.key.len() && n == c.len + LANES - 1)
    );
    // SAFETY: SSE2 is part of every x86-64 target. Each load reads the entries `j..j + 4`
    // of a column: `j < len` and `Columns::fill` gives every column `len + 3` entries.
    // Keys compare unsigned by flipping their sign bits.
    unsafe {
        let lanes = |column: &Vec<f32>| _mm_loadu_ps(column.as_ptr().add(j));
        let overlap = _mm_and_ps(
            _mm_and_ps(
                _mm_cmple_ps(lanes(&c.lower_y), _mm_set1_ps(a.upper.y)),
                _mm_cmple_ps(_mm_set1_ps(a.lower.y), lanes(&c.upper_y)),
            ),
            _mm_and_ps(
                _mm_cmple_ps(lanes(&c.lower_x), _mm_set1_ps(a.upper.x)),
                _mm_cmple_ps(_mm_set1_ps(a.lower.x), lanes(&c.upper_x)),
            ),
        );
        let flip = _mm_set1_epi32(i32::MIN);
        let keys = _mm_xor_si128(_mm_loadu_si128(c.key.as_ptr().add(j).cast()), flip);
        let past = _mm_cmpgt_epi32(keys, _mm_xor_si128(_mm_set1_epi32(probe.last as i32), flip));
        let need = _mm_set1_epi32(probe.need as i32);
        let flags = _mm_cmpeq_epi32(_mm_and_si128(_mm_loadu_si128(c.index.as_ptr().add(j).cast()), need), need);
        let meet = _mm_andnot_si128(past, _mm_and_si128(flags, _mm_castps_si128(overlap)));
        (_mm_movemask_ps(_mm_castsi128_ps(meet)) as u32, _mm_movemask_ps(_mm_castsi128_ps(past)) != 0)
    }
}

/// Bit `l` set when the body of entry `j + l` (of the padded columns) does not move slowly
/// against `motion` ([`Motion::is_slow_against`], `motion` first, the same operations).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn not_slow_lanes(c: &Columns, j: usize, motion: &Motion) -> u32 {
    use std::arch::x86_64::*;
    debug_assert!(j < c.len && [c.move_x.len(), c.move_y.len(), c.spin.len(), c.limit.len()] == [c.len + LANES - 1; 4]);
    // SAFETY: SSE is part of every x86-64 target. Each load reads the entries `j..j + 4` of
    // a column: `j < len` and `Columns::fill` gives every column `len + 3` entries.
    unsafe {
        let lanes = |column: &Vec<f32>| _mm_loadu_ps(column.as_ptr().add(j));
        let dx = _mm_sub_ps(_mm_set1_ps(motion.translation.x), lanes(&c.move_x));
        let dy = _mm_sub_ps(_mm_set1_ps(motion.translation.y), lanes(&c.move_y));
        let length = _mm_sqrt_ps(_mm_add_ps(_mm_mul_ps(dx, dx), _mm_mul_ps(dy, dy)));
        let relative = _mm_add_ps(_mm_add_ps(length, _mm_set1_ps(motion.spin)), lanes(&c.spin));
        // `limit < other ? limit : other`: the stricter limit, as the scalar test takes it.
        let limit = _mm_min_ps(_mm_set1_ps(motion.limit), lanes(&c.limit));
        _mm_movemask_ps(_mm_cmpnle_ps(relative, limit)) as u32
    }
}

/// See the x86-64 version: the same test, one entry at a time.
#[cfg(not(target_arch = "x86_64"))]
fn not_slow_lanes(c: &Columns, j: usize, motion: &Motion) -> u32 {
    (0..LANES).fold(0, |bits, l| bits | u32::from(!motion.is_slow_against(&c.motion(j + l))) << l)
}

/// See the x86-64 version: the same tests, one entry at a time.
#[cfg(not(target_arch = "x86_64"))]
fn meet_lanes(c: &Columns, j: usize, probe: &Probe) -> (u32, bool) {
    let (mut meet, mut past) = (0, false);
    for l in 0..LANES {
        let k = j + l;
        let beyond = c.key[k] > probe.last;
        let ok = !beyond && c.index[k] & probe.need == probe.need && c.sweep(k).overlaps(&probe.sweep);
        (meet, past) = (meet | u32::from(ok) << l, past | beyond);
    }
    (meet, past)
}

/// The moving boxes of a step, sorted into bands for pair and box queries.
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct MovingSet {
    /// The boxes in the order they were added, and their motions.
    pub boxes: Vec<SweptBox>,
    motions: Vec<Motion>,
    /// How many of `boxes` were there at the sort (in the bands, or kept in their order: see
    /// `all_pairs`); the others, added after it, are checked one by one.
    sorted: usize,
    /// How many of `boxes` are kept in their order and paired by testing every pair (a few
    /// boxes, see [`ALL_PAIRS_MAX_BOXES`]); zero when they are sorted into bands.
    all_pairs: usize,
    band_height: f32,
    /// The lowest band of the sorted boxes.
    first_band: i32,
    /// The place along x in a key is `(x - x_origin) * x_scale`, cut to [0, `x_steps`]:
    /// never decreasing with x, so keys in order mean lower x in order, up to ties.
    x_origin: f32,
    x_scale: f32,
    x_steps: u32,
    /// Bits of a key for the place along x; the band (counted from the lowest) takes those
    /// above them.
    x_bits: u32,
    /// The (box, band) entries, sorted by key, ties by index.
    order: Columns,
    /// (key, index) pairs as one integer each, and the radix sort's working space.
    keys: Vec<u64>,
    scratch: Vec<u64>,
    /// The bands in `order`: (band, first position, widest sweep in x).
    runs: Vec<(i32, u32, f32)>,
}

impl MovingSet {
    pub fn clear(&mut self) {
        self.boxes.clear();
        self.motions.clear();
        self.order.clear();
        self.runs.clear();
        self.sorted = 0;
        self.all_pairs = 0;
    }

    /// Adds a box moving with `motion`.
    pub fn push(&mut self, swept: SweptBox, motion: Motion) {
        self.boxes.push(swept);
        self.motions.push(motion);
    }

    /// The motion box `i` was added with.
    pub fn motion(&self, i: usize) -> &Motion {
        &self.motions[i]
    }

    /// Keeps the first `len` boxes (none of them sorted yet).
    pub fn truncate(&mut self, len: usize) {
        debug_assert!(self.order.len == 0);
        self.boxes.truncate(len);
        self.motions.truncate(len);
    }

    /// Sorts the boxes added so far into the bands; `marked(i)` tells whether box `i` is one
    /// of those every reported pair has (see [`MovingSet::overlapping_pairs`]).
    ///
    /// Each (box, band) entry gets a key, its band above its lower x placed on a grid across
    /// the boxes: 22 bits in all when there are up to 256 bands (two passes of the radix
    /// sort), else 32 (three passes); x gets at least 14 bits. Ties keep the order of the
    /// boxes. The grid makes the order along x exact only up to ties, so the sweeps stop at a
    /// key past the box, and test x themselves.
    pub fn sort(&mut self, marked: impl Fn(usize) -> bool) {
        self.order.clear();
        self.keys.clear();
        self.runs.clear();
        (self.sorted, self.all_pairs) = (self.boxes.len(), 0);
        if self.boxes.is_empty() {
            return;
        }
        let (mut bottom, mut top, mut left, mut right, mut heights) = (f32::MAX, f32::MIN, f32::MAX, f32::MIN, 0.0f64);
        // Plain comparisons: the boxes are finite, so `min` and `max` need not handle NaN.
        for b in &self.boxes {
            let (lower, upper) = (b.sweep.lower, b.sweep.upper);
            bottom = if lower.y < bottom { lower.y } else { bottom };
            top = if upper.y > top { upper.y } else { top };
            left = if lower.x < left { lower.x } else { left };
            right = if lower.x > right { lower.x } else { right };
            heights += f64::from(upper.y - lower.y);
        }
        let mean = (heights / self.boxes.len() as f64) as f32;
        self.band_height = (2.0 * mean).max((top - bottom) / MAX_BANDS).max(f32::MIN_POSITIVE);
        self.first_band = self.band(bottom);
        // The bands take the bits they need and x the rest of 22 bits (two radix passes) when
        // that leaves x at least 14 (up to 256 bands), else the rest of 32 (three passes).
        let band_bits = u32::BITS - (self.band(top).wrapping_sub(self.first_band) as u32).leading_zeros();
        self.x_bits = if band_bits <= 8 { TWO_PASS_BITS } else { u32::BITS } - band_bits;
        self.x_steps = (1 << self.x_bits) - 1;
        self.x_origin = left;
        self.x_scale = if right > left { (self.x_steps as f32 / (right - left)).min(f32::MAX) } else { 0.0 };
        debug_assert!(self.boxes.len() <= INDEX as usize);
        self.keys.reserve(2 * self.boxes.len());
        if self.boxes.len() <= ALL_PAIRS_MAX_BOXES {
            self.keep_order(marked);
            return;
        }
        for (i, b) in self.boxes.iter().enumerate() {
            let index = if marked(i) { i as u32 | MARKED } else { i as u32 };
            let (x, low) = (self.x_place(b.sweep.lower.x), self.band(b.sweep.lower.y));
            self.keys.push(u64::from(self.band_key(low) | x) << 32 | u64::from(index | FIRST));
            for band in (low..=self.band(b.sweep.upper.y)).skip(1) {
                self.keys.push(u64::from(self.band_key(band) | x) << 32 | u64::from(index));
            }
        }
        radix_sort(&mut self.keys, &mut self.scratch);
        self.order.fill(&self.keys, &self.boxes, &self.motions);
        let order = &self.order;
        for k in 0..order.len {
            let (band, width) =
                (self.first_band + (order.key[k] >> self.x_bits) as i32, order.upper_x[k] - order.lower_x[k]);
            match self.runs.last_mut() {
                Some(run) if run.0 == band => run.2 = if width > run.2 { width } else { run.2 },
                _ => self.runs.push((band, k as u32, width)),
            }
        }
    }

    /// The entries of a few boxes, one per box in the boxes' order, keyed by their place
    /// along x (see [`MovingSet::all_overlapping_pairs`]).
    fn keep_order(&mut self, marked: impl Fn(usize) -> bool) {
        for (i, b) in self.boxes.iter().enumerate() {
            let index = if marked(i) { i as u32 | MARKED } else { i as u32 };
            self.keys.push(u64::from(self.x_place(b.sweep.lower.x)) << 32 | u64::from(index));
        }
        self.order.fill(&self.keys, &self.boxes, &self.motions);
        self.all_pairs = self.boxes.len();
    }

    fn band(&self, y: f32) -> i32 {
        // `as` saturates: bands far out merge, which only costs comparisons. Truncating and
        // stepping down below zero is `floor` without its library call on plain x86-64.
        let q = y / self.band_height;
        let band = q as i32;
        if band as f32 > q { band.saturating_sub(1) } else { band }
    }

    /// The band part of the keys of a sorted band.
    fn band_key(&self, band: i32) -> u32 {
        (band.wrapping_sub(self.first_band) as u32).min(u32::MAX >> self.x_bits) << self.x_bits
    }

    /// The place of `x` (meters) along x in a key; never decreasing with `x`.
    fn x_place(&self, x: f32) -> u32 {
        // `as` saturates below zero (and takes NaN to zero).
        (((x - self.x_origin) * self.x_scale) as u32).min(self.x_steps)
    }

    /// The positions in `order` of run `r`.
    fn run(&self, r: usize) -> std::ops::Range<usize> {
        let end = self.runs.get(r + 1).map_or(self.order.len, |next| next.1 as usize);
        self.runs[r].1 as usize..end
    }

    /// Calls `f(i, j)` (indices into `boxes`, each pair once, in a fixed order) for every two
    /// sorted boxes whose sweeps overlap, at least one of them marked, whose bodies do not
    /// move too slowly relative to each other ([`Motion::is_slow_against`]).
    pub fn overlapping_pairs(&self, mut f: impl FnMut(u32, u32)) {
        if self.all_pairs > 0 {
            self.all_overlapping_pairs(f);
            return;
        }
        let order = &self.order;
        for k in 0..order.len {
            let (key, index) = (order.key[k], order.index[k]);
            // Every entry past this key starts right of the sweep (the places never decrease),
            // or lies in a later band.
            let band_key = key >> self.x_bits << self.x_bits;
            let (sweep, motion) = (order.sweep(k), order.motion(k));
            // The flags a partner must bring: one of the two is marked, and one is in its lowest band.
            let probe = Probe { last: band_key | self.x_place(sweep.upper.x), need: !index & (MARKED | FIRST), sweep };
            let mut j = k + 1;
            while j < order.len {
                let (mut meet, past) = meet_lanes(order, j, &probe);
                if meet != 0 {
                    meet &= not_slow_lanes(order, j, &motion);
                }
                while meet != 0 {
                    f(index & INDEX, order.index[j + meet.trailing_zeros() as usize] & INDEX);
                    meet &= meet - 1;
                }
                if past {
                    break;
                }
                j += LANES;
            }
        }
    }

    /// [`MovingSet::overlapping_pairs`] of a few boxes kept in their order: each entry against
    /// every later one, four at a time. The relative motion test takes first the entry with
    /// the lower place along x (then the lower index), as the sweep of a band does, so both
    /// report the same pairs to the last rounding.
    fn all_overlapping_pairs(&self, mut f: impl FnMut(u32, u32)) {
        let order = &self.order;
        for k in 0..order.len {
            let index = order.index[k];
            // A partner must be marked when this entry is not; no key ends the search.
            let probe = Probe { sweep: order.sweep(k), last: u32::MAX, need: !index & MARKED };
            let mut j = k + 1;
            while j < order.len {
                let (mut meet, _) = meet_lanes(order, j, &probe);
                while meet != 0 {
                    let m = j + meet.trailing_zeros() as usize;
                    let (first, second) = if order.key[m] < order.key[k] { (m, k) } else { (k, m) };
                    if !order.motion(first).is_slow_against(&order.motion(second)) {
                        f(order.index[first] & INDEX, order.index[second] & INDEX);
                    }
                    meet &= meet - 1;
                }
                j += LANES;
            }
        }
    }

    /// Calls `f(i)` (an index into `boxes`, each once) for every box whose sweep overlaps
    /// `aabb`, sorted or added later.
    pub fn overlapping(&self, aabb: &Aabb, mut f: impl FnMut(u32)) {
        if self.all_pairs > 0 {
            self.overlapping_in_order(aabb, |e| f(e & INDEX));
        } else {
            self.overlapping_in_bands(aabb, |e| f(e & INDEX));
        }
        for (i, b) in self.boxes.iter().enumerate().skip(self.sorted) {
            if b.sweep.overlaps(aabb) {
                f(i as u32);
            }
        }
    }

    /// Calls `f(i)` (an entry's index with its flags) for every entry of a few boxes kept in
    /// their order whose sweep overlaps `aabb`, four at a time.
    fn overlapping_in_order(&self, aabb: &Aabb, mut f: impl FnMut(u32)) {
        let (order, probe) = (&self.order, Probe { sweep: *aabb, last: u32::MAX, need: 0 });
        for j in (0..order.len).step_by(LANES) {
            let (mut meet, _) = meet_lanes(order, j, &probe);
            while meet != 0 {
                f(order.index[j + meet.trailing_zeros() as usize]);
                meet &= meet - 1;
            }
        }
    }

    /// Calls `f(i)` (an entry's index with its flags, each box once) for every box in the
    /// bands whose sweep overlaps `aabb`.
    fn overlapping_in_bands(&self, aabb: &Aabb, mut f: impl FnMut(u32)) {
        if self.runs.is_empty() {
            return;
        }
        let (low, high) = (self.band(aabb.lower.y), self.band(aabb.upper.y));
        let first = self.runs.partition_point(|run| run.0 < low);
        for r in first..self.runs.len() {
            let (band, _, widest) = self.runs[r];
            if band > high {
                break;
            }
            let (run, order) = (self.run(r), &self.order);
            let band_key = self.band_key(band);
            // Entries before this key end left of `aabb`: no sweep is wider than `widest`.
            let from_key = band_key | self.x_place(aabb.lower.x - widest);
            let last = band_key | self.x_place(aabb.upper.x);
            let mut j = run.start + order.key[run.clone()].partition_point(|&key| key < from_key);
            // In the query's lowest band every box counts; above it, only in the box's own
            // lowest band (each box once).
            let probe = Probe { sweep: *aabb, last, need: if band == low { 0 } else { FIRST } };
            while j < run.end {
                let (mut meet, past) = meet_lanes(order, j, &probe);
                while meet != 0 {
                    f(order.index[j + meet.trailing_zeros() as usize]);
                    meet &= meet - 1;
                }
                if past {
                    break;
                }
                j += LANES;
            }
        }
    }
}

/// Boxes up to which [`MovingSet::sort`] keeps them in their order and tests every pair, four
/// at a time (about 500 tests at 64 boxes), and box queries check every box: setting up and
/// sorting the bands costs more for so few. A kinematic paddle among 40 boxes
/// (`benchmarks::paddle`) spent about a tenth of its step sorting, sweeping and querying its
/// bands.
const ALL_PAIRS_MAX_BOXES: usize = 64;

/// Keys below which [`radix_sort`] compares instead: its fixed cost (three histograms of 2048
/// buckets to clear, scan and sum, about 60,000 instructions) is more than a comparison sort
/// of this many keys. A kinematic paddle among 40 boxes (`benchmarks::paddle`) sorts about a
/// hundred keys a step: a fifth of its step's instructions went to the histograms.
const RADIX_MIN_KEYS: usize = 256;

/// Sorts `keys` by their high 32 bits, stable (ties keep their order): a least significant
/// digit radix sort in three passes of 11 bits, skipping a pass where every key has the same
/// digit; `scratch` is working space. Fewer than [`RADIX_MIN_KEYS`] keys get the standard
/// library's stable sort instead (the same order; its scratch for so few keys is on the stack).
fn radix_sort(keys: &mut Vec<u64>, scratch: &mut Vec<u64>) {
    if keys.len() < RADIX_MIN_KEYS {
        keys.sort_by_key(|&k| k >> 32);
        return;
    }
    const DIGIT: u32 = 11;
    const BUCKETS: usize = 1 << DIGIT;
    let digit = |k: u64, pass: u32| (k >> (32 + DIGIT * pass)) as usize & (BUCKETS - 1);
    let mut counts = [[0u32; BUCKETS]; 3];
    for &k in keys.iter() {
        for (pass, count) in counts.iter_mut().enumerate() {
            count[digit(k, pass as u32)] += 1;
        }
    }
    scratch.resize(keys.len(), 0);
    for (pass, count) in counts.iter_mut().enumerate() {
        if count.iter().any(|&c| c as usize == keys.len()) {
            continue;
        }
        let mut sum = 0;
        for c in count.iter_mut() {
            (*c, sum) = (sum, sum + *c);
        }
        for &k in keys.iter() {
            let slot = &mut count[digit(k, pass as u32)];
            scratch[*slot as usize] = k;
            *slot += 1;
        }
        std::mem::swap(keys, scratch);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn boxes(n: usize, seed: u64) -> Vec<SweptBox> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut next = move || rng.random_range(0.0f32..1.0);
        (0..n)
            .map(|_| {
                let lower = Vec2::new(20.0 * next(), 20.0 * next());
                let size = Vec2::new(0.1 + 2.0 * next(), 0.1 + 2.0 * next());
                let d = Vec2::new(4.0 * next() - 2.0, 4.0 * next() - 2.0);
                SweptBox::new(Aabb::new(lower, lower + size), d)
            })
            .collect()
    }

    /// Motions for `boxes`: moving with the box, some turning, limits from none to large.
    fn motions(all: &[SweptBox]) -> Vec<Motion> {
        let limits = [-1.0, 0.0, 0.5, 1.0, 2.0, 4.0];
        let spin = |k: usize| if k.is_multiple_of(5) { 0.3 } else { 0.0 };
        all.iter()
            .enumerate()
            .map(|(k, b)| Motion { translation: b.displacement, spin: spin(k), limit: limits[k % limits.len()] })
            .collect()
    }

    /// A set of `all` with `motions`, the first `sorted` of them sorted with `marked`.
    fn set_of(all: &[SweptBox], motions: &[Motion], sorted: usize, marked: fn(u32) -> bool) -> MovingSet {
        let mut set = MovingSet::default();
        for (b, m) in all.iter().zip(motions).take(sorted) {
            set.push(*b, *m);
        }
        set.sort(|i| marked(i as u32));
        for (b, m) in all.iter().zip(motions).skip(sorted) {
            set.push(*b, *m);
        }
        set
    }

    /// Asserts that `set` (the first `sorted` of `all` sorted with `marked`, the rest added
    /// after) reports exactly the overlapping sorted pairs with a marked box whose motions
    /// are not slow against each other that a test of every pair finds, each once, and that
    /// box queries find every box of `all` overlapping them; returns how many pairs there
    /// are, and how many of the overlapping pairs were slow.
    fn assert_as_brute_force(
        set: &MovingSet,
        all: &[SweptBox],
        sorted: u32,
        marked: fn(u32) -> bool,
    ) -> (usize, usize) {
        let mut found = Vec::new();
        set.overlapping_pairs(|i, j| found.push((i.min(j), i.max(j))));
        found.sort_unstable();
        let overlap = |i: u32, j: u32| all[i as usize].sweep.overlaps(&all[j as usize].sweep);
        let slow = |i: u32, j: u32| set.motions[i as usize].is_slow_against(&set.motions[j as usize]);
        let meeting: Vec<(u32, u32)> = (0..sorted)
            .flat_map(|i| (i + 1..sorted).map(move |j| (i, j)))
            .filter(|&(i, j)| (marked(i) || marked(j)) && overlap(i, j))
            .collect();
        let expected: Vec<(u32, u32)> = meeting.iter().copied().filter(|&(i, j)| !slow(i, j)).collect();
        assert_eq!(found, expected);
        for q in all.iter().step_by(7) {
            let mut hits = Vec::new();
            set.overlapping(&q.sweep, |i| hits.push(i));
            hits.sort_unstable();
            let brute: Vec<u32> = (0..all.len() as u32).filter(|&i| all[i as usize].sweep.overlaps(&q.sweep)).collect();
            assert_eq!(hits, brute);
        }
        (expected.len(), meeting.len() - expected.len())
    }

    /// The banded sort and sweep finds what a test of every pair finds, also for boxes added
    /// after the sort.
    #[test]
    fn finds_what_brute_force_finds() {
        for seed in 1..6 {
            let all = boxes(300, seed);
            let set = set_of(&all, &motions(&all), 250, |i| i % 3 != 0);
            let (pairs, slow) = assert_as_brute_force(&set, &all, 250, |i| i % 3 != 0);
            assert!(pairs > 300 && slow > 50, "seed {seed}: {pairs} pairs, {slow} slow");
        }
    }

    /// A few boxes, kept in their order with every pair tested, are paired as by brute force
    /// too, also with boxes added after the sort, and near or far from the origin.
    #[test]
    fn a_few_boxes_are_paired_as_by_brute_force() {
        let (mut pairs, mut slow) = (0, 0);
        for seed in 11..21 {
            let mut all = boxes(ALL_PAIRS_MAX_BOXES + 10, seed);
            let shift = Vec2::splat(if seed % 2 == 0 { 0.0 } else { 20_000.0 });
            for b in &mut all {
                *b = SweptBox::new(b.start.translated(shift), b.displacement);
            }
            // The last seeds sort a handful and add most boxes after the sort.
            let sorted = if seed > 18 { 5 } else { ALL_PAIRS_MAX_BOXES };
            let set = set_of(&all, &motions(&all), sorted, |i| i % 3 != 0);
            assert_eq!(set.all_pairs, sorted, "seed {seed}: the boxes are not sorted into bands");
            let (p, s) = assert_as_brute_force(&set, &all, sorted as u32, |i| i % 3 != 0);
            (pairs, slow) = (pairs + p, slow + s);
        }
        assert!(pairs > 100 && slow > 20, "{pairs} pairs, {slow} slow");
    }

    /// Boxes spread over kilometers (the grid along x is then meters wide, many keys tie)
    /// and boxes far from the origin are still paired exactly as by brute force.
    #[test]
    fn spread_and_far_boxes_are_paired_as_by_brute_force() {
        // The last case spreads the boxes along y too: over 256 bands, keys of 32 bits.
        for (seed, spread, offset, up) in
            [(7, 4000.0, 0.0, 0.0), (8, 20.0, 20_000.0, 0.0), (9, 1.0e6, -3.0e5, 0.0), (10, 4000.0, 0.0, 1.0)]
        {
            let mut all = boxes(400, seed);
            for (k, b) in all.iter_mut().enumerate() {
                // Half the boxes in a cluster, half spread far along x (and y).
                let far = if k % 2 == 0 { spread * (k as f32 / 400.0) } else { 0.0 };
                let shift = Vec2::new(offset + far, offset + up * far);
                *b = SweptBox::new(b.start.translated(shift), b.displacement);
            }
            let set = set_of(&all, &motions(&all), 400, |i| i % 4 != 1);
            let (pairs, slow) = assert_as_brute_force(&set, &all, 400, |i| i % 4 != 1);
            assert!(pairs > 200 && slow > 50, "seed {seed}: {pairs} pairs, {slow} slow");
            let two_pass = set.order.key[..set.order.len].iter().all(|&key| key < 1 << TWO_PASS_BITS);
            assert_eq!(two_pass, up == 0.0, "seed {seed}: {} bits of x", set.x_bits);
        }
    }

    #[test]
    fn relative_motion_is_slow_within_the_stricter_limit() {
        let m = |x: f32, spin: f32, limit: f32| Motion { translation: Vec2::new(x, 0.0), spin, limit };
        // 0.25 apart plus 0.125 of turning: slow within 0.375, not within 0.37.
        assert!(m(0.0, 0.0625, 0.375).is_slow_against(&m(0.25, 0.0625, 1.0)));
        assert!(m(0.25, 0.0625, 1.0).is_slow_against(&m(0.0, 0.0625, 0.375)));
        assert!(!m(0.0, 0.0625, 1.0).is_slow_against(&m(0.25, 0.0625, 0.37)));
        // No limit (a body that is not dynamic): never slow, even moving together.
        assert!(!m(1.0, 0.0, -1.0).is_slow_against(&m(1.0, 0.0, 5.0)));
        assert!(m(1.0, 0.0, 0.0).is_slow_against(&m(1.0, 0.0, 5.0)));
    }

    /// The rest of a motion at a steady rate: translation and turning scaled, the limit kept;
    /// two bodies too fast against each other over the step may be slow over its last part.
    #[test]
    fn the_last_part_of_a_motion_scales_its_travel_and_keeps_its_limit() {
        let m = Motion { translation: Vec2::new(0.8, -0.4), spin: 0.2, limit: 0.3 };
        let rest = m.last(0.25);
        assert_eq!((rest.translation, rest.spin, rest.limit), (Vec2::new(0.2, -0.1), 0.05, 0.3));
        let still = Motion { translation: Vec2::ZERO, spin: 0.0, limit: 0.3 };
        // Over the step: 0.894 + 0.2 > 0.3; over its last quarter: 0.224 + 0.05 <= 0.3.
        assert!(!m.is_slow_against(&still));
        assert!(rest.is_slow_against(&still.last(0.25)));
        assert!(!m.last(0.3).is_slow_against(&still));
    }

    #[test]
    fn radix_sort_orders_by_the_high_bits_and_keeps_ties_in_order() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut keys: Vec<u64> = (0..5000u64)
            .map(|i| {
                let s: u64 = rng.random();
                // Few distinct high halves, so many ties; the low half numbers the keys.
                ((s >> 61) << 61 | (s >> 40) & 0xff << 32) | i
            })
            .collect();
        let mut expected = keys.clone();
        expected.sort_by_key(|k| k >> 32);
        radix_sort(&mut keys, &mut Vec::new());
        assert_eq!(keys, expected);
        // One distinct high half: every pass is skipped, the order kept.
        let mut same: Vec<u64> = (0..5000u64).rev().map(|i| 5 << 32 | i).collect();
        let kept = same.clone();
        radix_sort(&mut same, &mut Vec::new());
        assert_eq!(same, kept);
        // Fewer keys than the radix sort is worth (sorted by comparisons): ordered by the high
        // halves, ties in their first order (the low halves count down), the same keys.
        for n in [0, 1, 7, 100, RADIX_MIN_KEYS - 1] {
            let mut keys: Vec<u64> =
                (0..n as u64).map(|i| (rng.random::<u64>() >> 62) << 32 | (n as u64 - i)).collect();
            let mut before = keys.clone();
            radix_sort(&mut keys, &mut Vec::new());
            let in_order = |w: &[u64]| w[0] >> 32 < w[1] >> 32 || w[0] >> 32 == w[1] >> 32 && w[0] > w[1];
            assert!(keys.windows(2).all(in_order), "{n} keys");
            let mut after = keys.clone();
            before.sort_unstable();
            after.sort_unstable();
            assert_eq!(before, after);
        }
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
