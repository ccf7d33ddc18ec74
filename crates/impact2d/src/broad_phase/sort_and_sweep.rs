//! Sort and sweep (sweep and prune) over one axis, chosen anew every update.
//!
//! The fat AABBs live in one array sorted by their lower bound along the current axis, so two
//! boxes can only overlap when the second starts before the first ends: a sweep down the
//! array tests only those. The axis is the one along which the box centers vary most, picked
//! before each update; between updates the boxes move a little, so insertion sort puts the
//! nearly sorted array back in order in close to linear time, and a full sort takes over
//! when it has too much to do (many new proxies, a change of axis).
//!
//! Source: Ericson, Real-Time Collision Detection, 7.5.2 ("Sort and sweep" on an array of
//! AABBs, with the axis of greatest variance); Baraff's thesis for the sweep over intervals.
//! The switching hysteresis and the moved-only sweep are this crate's.

use super::dynamic_tree::NULL;
use super::pairs::{PairChanges, PairKey, PairSet};
use super::{BroadPhaseError, Pair, ProxyId, check_aabb, check_margin, needs_refit};
use crate::geometry::Aabb;
use crate::settings::AABB_MARGIN;

/// The axis changes only when the other axis's variance of centers is this many times the
/// current one's: a change costs a full sort, so near-ties must not flip it every update.
const AXIS_SWITCH_RATIO: f64 = 1.25;

/// A proxy slot: generation for stale handles, and where the proxy sits in `entries`.
#[derive(Clone, Copy, Debug)]
struct Slot {
    generation: u32,
    /// Index into `entries`, or `NULL` when the slot is free.
    position: u32,
    next_free: u32,
    user_data: u64,
}

/// A proxy in the sorted array.
#[derive(Clone, Copy, Debug)]
struct Entry {
    aabb: Aabb,
    /// The proxy's slot, or `NULL` for a removed proxy not yet swept out.
    slot: u32,
    /// Its fat AABB changed since the last update.
    moved: bool,
}

/// Sort and sweep over fat AABBs (meters) with user data: the simple broad phase the
/// [`super::DynamicTree`] is measured against, and a fine choice for a few thousand proxies
/// spread along one direction.
///
/// Proxies have fat AABBs, a move buffer and live pairs with the same meaning as in
/// [`super::BroadPhase`] (all proxies pair with each other; there are no kinds or filters),
/// so [`SortAndSweep::update_pairs`] reports the same changes a broad phase of dynamic
/// proxies does. Raw keys are slot indices ([`ProxyId::index`]).
#[derive(Clone, Debug)]
pub struct SortAndSweep {
    slots: Vec<Slot>,
    entries: Vec<Entry>,
    free_list: u32,
    proxy_count: u32,
    /// Entries of removed proxies still in `entries`.
    dead: usize,
    axis: usize,
    /// The axis `entries` is sorted on, `None` when it must be fully sorted.
    sorted_on: Option<usize>,
    margin: f32,
    /// Running maximum of the upper bounds along the axis, for the backward scans.
    reach: Vec<f32>,
    pair_set: PairSet<0>,
    found: Vec<u64>,
    begun: Vec<Pair<ProxyId>>,
    all: Vec<PairKey>,
}

impl Default for SortAndSweep {
    fn default() -> Self {
        Self::new()
    }
}

impl SortAndSweep {
    /// An empty structure whose fat AABBs extend [`AABB_MARGIN`] beyond the boxes given.
    pub fn new() -> SortAndSweep {
        SortAndSweep {
            slots: Vec::new(),
            entries: Vec::new(),
            free_list: NULL,
            proxy_count: 0,
            dead: 0,
            axis: 0,
            sorted_on: None,
            margin: AABB_MARGIN,
            reach: Vec::new(),
            pair_set: PairSet::default(),
            found: Vec::new(),
            begun: Vec::new(),
            all: Vec::new(),
        }
    }

    /// An empty structure whose fat AABBs extend `margin` (meters) beyond the boxes given.
    ///
    /// Errors: [`BroadPhaseError::InvalidValue`] when `margin` is negative, NaN or infinite.
    pub fn with_margin(margin: f32) -> Result<SortAndSweep, BroadPhaseError> {
        check_margin(margin)?;
        Ok(SortAndSweep { margin, ..SortAndSweep::new() })
    }

    /// The number of proxies.
    pub fn proxy_count(&self) -> usize {
        self.proxy_count as usize
    }

    /// The axis of the last sort: 0 for x, 1 for y.
    pub fn axis(&self) -> usize {
        self.axis
    }

    /// Adds a proxy for the tight box `aabb` (meters); it is stored enlarged by the margin
    /// and counts as moved.
    ///
    /// Errors: [`BroadPhaseError::InvalidAabb`] when `aabb` or its enlargement is not finite
    /// and ordered; [`BroadPhaseError::Full`] at 2²⁹ proxies.
    pub fn create_proxy(&mut self, aabb: Aabb, user_data: u64) -> Result<ProxyId, BroadPhaseError> {
        let fat = self.fatten(&aabb)?;
        if self.proxy_count >= super::dynamic_tree::MAX_PROXIES {
            return Err(BroadPhaseError::Full);
        }
        let index = if self.free_list != NULL {
            let index = self.free_list;
            self.free_list = self.slots[index as usize].next_free;
            index
        } else {
            self.slots.push(Slot { generation: 0, position: NULL, next_free: NULL, user_data: 0 });
            (self.slots.len() - 1) as u32
        };
        let slot = &mut self.slots[index as usize];
        slot.position = self.entries.len() as u32;
        slot.user_data = user_data;
        self.entries.push(Entry { aabb: fat, slot: index, moved: true });
        self.proxy_count += 1;
        self.pair_set.reserve_slots(self.slots.len());
        // The slot may have held a proxy removed since the last update: its pairs must end.
        self.pair_set.mark_reset(index);
        let slot = &self.slots[index as usize];
        Ok(ProxyId::new(index, slot.generation))
    }

    /// Removes a proxy and returns its user data; the handle becomes stale.
    ///
    /// Errors: [`BroadPhaseError::InvalidProxy`] for a stale handle.
    pub fn remove_proxy(&mut self, id: ProxyId) -> Result<u64, BroadPhaseError> {
        let position = self.position_of(id)?;
        self.entries[position].slot = NULL;
        self.dead += 1;
        let slot = &mut self.slots[id.index() as usize];
        slot.generation = slot.generation.wrapping_add(1);
        slot.position = NULL;
        slot.next_free = self.free_list;
        self.free_list = id.index();
        self.proxy_count -= 1;
        let user_data = slot.user_data;
        self.pair_set.mark_reset(id.index());
        Ok(user_data)
    }

    /// Tells the structure the proxy's tight box is now `aabb` (meters); as
    /// [`super::DynamicTree::move_proxy`], returns `true` when the fat AABB was replaced (the
    /// proxy then counts as moved).
    ///
    /// Errors: [`BroadPhaseError::InvalidProxy`] for a stale handle,
    /// [`BroadPhaseError::InvalidAabb`] when `aabb` is not finite and ordered.
    pub fn move_proxy(&mut self, id: ProxyId, aabb: Aabb) -> Result<bool, BroadPhaseError> {
        let position = self.position_of(id)?;
        let fat = self.fatten(&aabb)?;
        let entry = &mut self.entries[position];
        if !needs_refit(&entry.aabb, &aabb, self.margin, crate::math::Vec2::ZERO) {
            return Ok(false);
        }
        entry.aabb = fat;
        entry.moved = true;
        Ok(true)
    }

    /// The fat AABB of a proxy (meters).
    ///
    /// Errors: [`BroadPhaseError::InvalidProxy`] for a stale handle.
    pub fn fat_aabb(&self, id: ProxyId) -> Result<Aabb, BroadPhaseError> {
        Ok(self.entries[self.position_of(id)?].aabb)
    }

    /// The user data of a proxy.
    ///
    /// Errors: [`BroadPhaseError::InvalidProxy`] for a stale handle.
    pub fn user_data(&self, id: ProxyId) -> Result<u64, BroadPhaseError> {
        self.position_of(id)?;
        Ok(self.slots[id.index() as usize].user_data)
    }

    /// True when `id` is a live proxy of this structure.
    pub fn contains(&self, id: ProxyId) -> bool {
        self.position_of(id).is_ok()
    }

    /// Brings the live pairs up to date as [`super::BroadPhase::update_pairs`] does: the
    /// moved proxies find their overlaps by a sweep, and the pairs found are merged with the
    /// live ones. A new pair begins only if `accept(&pair)` returns `true`. Clears the move
    /// flags. The changes come sorted by pair key.
    pub fn update_pairs(&mut self, mut accept: impl FnMut(&Pair<ProxyId>) -> bool) -> PairChanges<'_, Pair<ProxyId>> {
        self.prepare();
        self.found.clear();
        // Scans from the moved boxes cost twice a forward scan each: when most boxes moved,
        // one forward sweep over all of them is cheaper.
        let moved = self.entries.iter().filter(|e| e.moved).count();
        if 2 * moved > self.entries.len() {
            self.sweep_all_moved();
        } else {
            self.sweep_moved();
        }
        self.found.sort_unstable();
        self.found.dedup();
        for entry in self.entries.iter_mut().filter(|e| e.moved) {
            self.pair_set.mark_moved(entry.slot);
            entry.moved = false;
        }
        self.begun.clear();
        let (slots, begun) = (&self.slots, &mut self.begun);
        self.pair_set.update(&self.found, |key| {
            let (a, b) = key.raws();
            let (sa, sb) = (&slots[a as usize], &slots[b as usize]);
            let pair = Pair {
                a: ProxyId::new(a, sa.generation),
                b: ProxyId::new(b, sb.generation),
                user_a: sa.user_data,
                user_b: sb.user_data,
            };
            let accepted = accept(&pair);
            if accepted {
                begun.push(pair);
            }
            accepted
        });
        PairChanges { begun: &self.begun, ended: self.pair_set.ended() }
    }

    /// The live pairs after the last update, sorted.
    pub fn live_pairs(&self) -> &[PairKey] {
        self.pair_set.live()
    }

    /// Every pair of overlapping fat AABBs (touching counts) by a full sweep, sorted: the
    /// classic sort and sweep, independent of the move flags and the live pairs.
    pub fn all_pairs(&mut self) -> &[PairKey] {
        self.prepare();
        self.all.clear();
        self.sweep_all();
        self.all.sort_unstable();
        &self.all
    }

    // ---- internals ----

    fn fatten(&self, aabb: &Aabb) -> Result<Aabb, BroadPhaseError> {
        check_aabb(aabb, "proxy AABB")?;
        let fat = aabb.enlarged(self.margin);
        check_aabb(&fat, "fat AABB")?;
        Ok(fat)
    }

    /// Where a live proxy sits in `entries`.
    fn position_of(&self, id: ProxyId) -> Result<usize, BroadPhaseError> {
        match self.slots.get(id.index() as usize) {
            Some(slot) if slot.generation == id.generation() && slot.position != NULL => Ok(slot.position as usize),
            _ => Err(BroadPhaseError::invalid_proxy(id)),
        }
    }

    /// Drops removed entries, picks the axis and sorts the array on it.
    fn prepare(&mut self) {
        self.sweep_out_dead();
        let variance = self.variance();
        self.choose_axis(variance);
        self.sort();
    }

    /// Drops the entries of removed proxies, keeping the order.
    fn sweep_out_dead(&mut self) {
        if self.dead == 0 {
            return;
        }
        self.entries.retain(|e| e.slot != NULL);
        for (position, entry) in self.entries.iter().enumerate() {
            self.slots[entry.slot as usize].position = position as u32;
        }
        self.dead = 0;
    }

    /// The variance of the box centers along each axis.
    fn variance(&self) -> [f64; 2] {
        let (mut sum, mut sum2) = ([0.0f64; 2], [0.0f64; 2]);
        for entry in &self.entries {
            let c = entry.aabb.center();
            for axis in 0..2 {
                sum[axis] += c[axis] as f64;
                sum2[axis] += (c[axis] as f64) * (c[axis] as f64);
            }
        }
        let n = self.entries.len().max(1) as f64;
        [sum2[0] / n - (sum[0] / n).powi(2), sum2[1] / n - (sum[1] / n).powi(2)]
    }

    /// Switches to the other axis when its centers vary clearly more.
    fn choose_axis(&mut self, variance: [f64; 2]) {
        let other = 1 - self.axis;
        if variance[other] > AXIS_SWITCH_RATIO * variance[self.axis] {
            self.axis = other;
        }
    }

    /// Sorts `entries` by lower bound on the axis: insertion sort when it was sorted on this
    /// axis before, a full sort otherwise or when insertion sort has too much to do.
    fn sort(&mut self) {
        let axis = self.axis;
        if self.sorted_on != Some(axis) || !self.insertion_sort() {
            self.entries
                .sort_unstable_by(|a, b| a.aabb.lower[axis].total_cmp(&b.aabb.lower[axis]).then(a.slot.cmp(&b.slot)));
            for (position, entry) in self.entries.iter().enumerate() {
                self.slots[entry.slot as usize].position = position as u32;
            }
        }
        self.sorted_on = Some(axis);
    }

    /// Insertion sort that keeps the slots' positions current; gives up (returning `false`,
    /// leaving a permutation) after a few shifts per entry, when a full sort is cheaper.
    fn insertion_sort(&mut self) -> bool {
        let axis = self.axis;
        let mut budget = 4 * self.entries.len() + 64;
        for i in 1..self.entries.len() {
            let entry = self.entries[i];
            let key = entry.aabb.lower[axis];
            let mut j = i;
            while j > 0 && self.entries[j - 1].aabb.lower[axis] > key {
                self.entries[j] = self.entries[j - 1];
                self.slots[self.entries[j].slot as usize].position = j as u32;
                j -= 1;
                budget -= 1;
                if budget == 0 {
                    self.entries[j] = entry;
                    return false;
                }
            }
            self.entries[j] = entry;
            self.slots[entry.slot as usize].position = j as u32;
        }
        true
    }

    /// Every overlapping pair: for each box, the boxes after it that start before it ends.
    fn sweep_all(&mut self) {
        let (axis, other) = (self.axis, 1 - self.axis);
        for (i, a) in self.entries.iter().enumerate() {
            for b in &self.entries[i + 1..] {
                if b.aabb.lower[axis] > a.aabb.upper[axis] {
                    break;
                }
                if b.aabb.lower[other] <= a.aabb.upper[other] && a.aabb.lower[other] <= b.aabb.upper[other] {
                    self.all.push(PairKey::new(a.slot, b.slot));
                }
            }
        }
    }

    /// The overlapping pairs with a moved box by a full forward sweep.
    fn sweep_all_moved(&mut self) {
        let (axis, other) = (self.axis, 1 - self.axis);
        for (i, a) in self.entries.iter().enumerate() {
            for b in &self.entries[i + 1..] {
                if b.aabb.lower[axis] > a.aabb.upper[axis] {
                    break;
                }
                let overlap = b.aabb.lower[other] <= a.aabb.upper[other] && a.aabb.lower[other] <= b.aabb.upper[other];
                if overlap && (a.moved || b.moved) {
                    self.found.push(PairKey::new(a.slot, b.slot).0);
                }
            }
        }
    }

    /// The overlapping pairs with a moved box, found from the moved boxes only: forward as
    /// in the full sweep, and backward while some earlier box still reaches this one (by the
    /// running maximum of the upper bounds). A pair of two moved boxes is taken from the
    /// forward scan of the first.
    fn sweep_moved(&mut self) {
        let (axis, other) = (self.axis, 1 - self.axis);
        self.reach.clear();
        let mut reach = f32::NEG_INFINITY;
        self.reach.extend(self.entries.iter().map(|e| {
            reach = reach.max(e.aabb.upper[axis]);
            reach
        }));
        let entries = &self.entries;
        for (i, a) in entries.iter().enumerate().filter(|(_, e)| e.moved) {
            let overlaps_other =
                |b: &Entry| b.aabb.lower[other] <= a.aabb.upper[other] && a.aabb.lower[other] <= b.aabb.upper[other];
            for b in &entries[i + 1..] {
                if b.aabb.lower[axis] > a.aabb.upper[axis] {
                    break;
                }
                if overlaps_other(b) {
                    self.found.push(PairKey::new(a.slot, b.slot).0);
                }
            }
            for j in (0..i).rev() {
                if self.reach[j] < a.aabb.lower[axis] {
                    break;
                }
                let b = &entries[j];
                if !b.moved && b.aabb.upper[axis] >= a.aabb.lower[axis] && overlaps_other(b) {
                    self.found.push(PairKey::new(a.slot, b.slot).0);
                }
            }
        }
    }
}
