//! The broad phase the world runs every step: three dynamic trees, a move buffer, filtering,
//! and the set of overlapping pairs with the pairs that began and ended at each update.
//!
//! Proxies are split by the kind of body they belong to, one tree each (as in Box2D v3), so
//! static proxies never pair with static ones and a proxy only queries the trees it can pair
//! with: at least one proxy of every pair is dynamic. A move that stays inside the fat AABB
//! touches one 32-byte record. Only proxies that left their fat AABB (or were created or
//! touched) since the last update query the trees, in the order of a space-filling curve so
//! that consecutive queries share cached nodes; the pair of two moved proxies is taken from
//! the query of the one with the smaller key. The keys found then update the live pairs (see
//! `pairs.rs`).

use super::dynamic_tree::{DynamicTree, NULL};
use super::pairs::{PairChanges, PairKey, PairSet, morton};
use super::radix;
use super::swept::FastProxy;
use super::tree_query::{check_ray, swept_aabb};
use super::{BroadPhaseError, Pair, ProxyId, RayControl, SweptPair, check_aabb, check_margin, needs_refit, stretched};
use crate::geometry::Aabb;
use crate::math::Vec2;
use crate::query::{AabbToi, RayCastInput};
use crate::settings::AABB_PREDICTION;

/// The kind of body a proxy belongs to; each kind has its own tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ProxyKind {
    /// Never moves on its own; fat AABBs have no margin. Pairs with dynamic proxies only.
    Static = 0,
    /// Moves by a prescribed velocity. Pairs with dynamic proxies only.
    Kinematic = 1,
    /// Moves by forces and contacts. Pairs with proxies of every kind.
    Dynamic = 2,
}

impl ProxyKind {
    /// Every kind, in tree order.
    pub const ALL: [ProxyKind; 3] = [ProxyKind::Static, ProxyKind::Kinematic, ProxyKind::Dynamic];

    /// The kinds of proxies a proxy of this kind pairs with.
    pub fn partners(self) -> &'static [ProxyKind] {
        match self {
            ProxyKind::Static | ProxyKind::Kinematic => &[ProxyKind::Dynamic],
            ProxyKind::Dynamic => &ProxyKind::ALL,
        }
    }

    /// True when proxies of these kinds pair (at least one is dynamic).
    pub fn pairs_with(self, other: ProxyKind) -> bool {
        self == ProxyKind::Dynamic || other == ProxyKind::Dynamic
    }

    pub(crate) fn from_bits(bits: u32) -> Option<ProxyKind> {
        ProxyKind::ALL.get(bits as usize).copied()
    }
}

/// Which proxies may pair, after Box2D's filter: a group index first, then categories.
///
/// - Two proxies with the same **positive** `group_index` always pair, whatever their bits.
/// - Two proxies with the same **negative** `group_index` never pair, whatever their bits.
/// - Otherwise (a zero group, or different groups) `a` and `b` pair when
///   `a.category_bits & b.mask_bits != 0` and `b.category_bits & a.mask_bits != 0`.
///
/// The default is category 1, every mask bit set, group 0 (every proxy pairs with every
/// other). Queries test their filter with [`Filter::should_pair`] too, so a query filter
/// with a group index sees or skips the shapes of its group by the same rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Filter {
    /// The categories this proxy belongs to.
    pub category_bits: u64,
    /// The categories this proxy pairs with.
    pub mask_bits: u64,
    /// The collision group: proxies sharing a positive group always pair, proxies sharing a
    /// negative group never do, and group 0 (the default) leaves the decision to the bits.
    pub group_index: i32,
}

impl Default for Filter {
    fn default() -> Self {
        Filter { category_bits: 1, mask_bits: u64::MAX, group_index: 0 }
    }
}

impl Filter {
    /// A filter of categories and mask, in group 0 (no group).
    pub const fn new(category_bits: u64, mask_bits: u64) -> Filter {
        Filter { category_bits, mask_bits, group_index: 0 }
    }

    /// This filter with its group index set to `group_index`.
    pub const fn with_group(self, group_index: i32) -> Filter {
        Filter { group_index, ..self }
    }

    /// True when the filters let the two proxies pair (a symmetric test): the group rule
    /// when both share a non-zero group, the category and mask bits otherwise.
    #[inline]
    pub fn should_pair(&self, other: &Filter) -> bool {
        if self.group_index == other.group_index && self.group_index != 0 {
            return self.group_index > 0;
        }
        (self.category_bits & other.mask_bits) != 0 && (other.category_bits & self.mask_bits) != 0
    }
}

/// A handle to a proxy of a [`BroadPhase`]: its kind and its handle in that kind's tree.
///
/// Stale handles are refused with [`BroadPhaseError::InvalidProxy`] (see [`ProxyId`]).
/// Handles order by [`ProxyKey::raw`], the order pairs are reported in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ProxyKey {
    raw: u32,
    generation: u32,
}

impl ProxyKey {
    pub(crate) fn new(kind: ProxyKind, id: ProxyId) -> ProxyKey {
        ProxyKey { raw: (id.index() << 2) | kind as u32, generation: id.generation() }
    }

    /// The kind of the proxy's body (which tree it lives in).
    pub fn kind(self) -> ProxyKind {
        ProxyKind::from_bits(self.raw & 3).unwrap_or(ProxyKind::Dynamic)
    }

    /// The proxy's handle in the tree of its kind.
    pub fn id(self) -> ProxyId {
        ProxyId::new(self.raw >> 2, self.generation)
    }

    /// The tree slot times 4 plus the kind: unique among live proxies, and the number pairs
    /// are ordered by. A removed proxy's raw key may be reused by a new proxy.
    pub fn raw(self) -> u32 {
        self.raw
    }

    pub(crate) fn slot(self) -> u32 {
        self.raw >> 2
    }
}

/// A pair of proxies with their user data: `a.raw() < b.raw()`.
pub type ProxyPair = Pair<ProxyKey>;

impl ProxyPair {
    /// The pair's key.
    pub fn key(&self) -> PairKey {
        PairKey::new(self.a.raw, self.b.raw)
    }
}

/// What a move reads and writes, by tree slot: kept apart from the rest of a proxy's state
/// so that the common move, which stays inside the fat AABB, touches 32 bytes and nothing
/// else (not even the tree).
#[derive(Clone, Copy, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct Hot {
    /// A copy of the fat AABB in the tree.
    fat: Aabb,
    /// A copy of the tree's generation of the slot, valid when `live`.
    generation: u32,
    /// `move_index` indexes the move buffer when `move_epoch` is the current epoch.
    move_epoch: u32,
    move_index: u32,
    live: bool,
}

const FREE_HOT: Hot = Hot {
    fat: Aabb { lower: Vec2::ZERO, upper: Vec2::ZERO },
    generation: 0,
    move_epoch: 0,
    move_index: NULL,
    live: false,
};

/// The rest of a proxy's state, by tree slot.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct ProxyState {
    pub(crate) filter: Filter,
    /// Index into the fast list while flagged fast, else `NULL`.
    pub(crate) fast: u32,
}

const UNUSED: ProxyState = ProxyState { filter: Filter::new(0, 0), fast: NULL };

/// The fewest queries per thread for [`BroadPhase::set_threads`] to use another thread.
const MIN_QUERIES_PER_THREAD: usize = 1024;

/// A proxy waiting to query: its raw key and fat AABB; `raw == NULL` once it was removed.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct MoveEntry {
    raw: u32,
    fat: Aabb,
}

/// The broad phase: proxies (fat AABBs in meters, with a kind, a filter and user data) in
/// three dynamic trees, and the set of pairs whose fat AABBs overlap.
///
/// Each step the world moves proxies with [`BroadPhase::move_proxy`], then calls
/// [`BroadPhase::update_pairs`], which reports the pairs that began and ended. After every
/// update, [`BroadPhase::live_pairs`] is exactly the set of pairs whose fat AABBs overlap
/// (touching counts), whose kinds pair ([`ProxyKind::pairs_with`]), whose filters pair
/// ([`Filter::should_pair`]) and that the update's callback accepted when they began. For
/// continuous collision, fast proxies are flagged with their sweep ([`BroadPhase::flag_fast`])
/// and [`BroadPhase::update_swept_pairs`] reports what they may hit during the step.
///
/// Nothing allocates per step once the buffers have grown to their working size.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BroadPhase {
    pub(crate) trees: [DynamicTree; 3],
    hot: [Vec<Hot>; 3],
    pub(crate) states: [Vec<ProxyState>; 3],
    move_buffer: Vec<MoveEntry>,
    epoch: u32,
    /// Raw keys hold the kind in their 2 low bits.
    pair_set: PairSet<2>,
    found: Vec<u64>,
    /// The keys found by the helper threads of an update.
    found_parts: Vec<Vec<u64>>,
    threads: usize,
    order: Vec<u64>,
    /// The second buffer of the radix sort of `found`.
    sort_scratch: Vec<u64>,
    begun: Vec<ProxyPair>,
    pub(crate) fast: Vec<FastProxy>,
    pub(crate) fast_order: Vec<u32>,
    pub(crate) swept_keys: Vec<(u64, f32)>,
    pub(crate) swept_pairs: Vec<SweptPair>,
}

impl Default for BroadPhase {
    fn default() -> Self {
        Self::new()
    }
}

impl BroadPhase {
    /// An empty broad phase: static proxies get no margin, kinematic and dynamic ones
    /// [`crate::settings::AABB_MARGIN`].
    pub fn new() -> BroadPhase {
        let mut trees = [DynamicTree::new(), DynamicTree::new(), DynamicTree::new()];
        trees[ProxyKind::Static as usize] = DynamicTree::with_margin(0.0).unwrap_or_default();
        BroadPhase {
            trees,
            hot: [Vec::new(), Vec::new(), Vec::new()],
            states: [Vec::new(), Vec::new(), Vec::new()],
            move_buffer: Vec::new(),
            epoch: 1,
            pair_set: PairSet::default(),
            found: Vec::new(),
            found_parts: Vec::new(),
            threads: 1,
            order: Vec::new(),
            sort_scratch: Vec::new(),
            begun: Vec::new(),
            fast: Vec::new(),
            fast_order: Vec::new(),
            swept_keys: Vec::new(),
            swept_pairs: Vec::new(),
        }
    }

    /// An empty broad phase whose kinematic and dynamic proxies get fat AABBs `margin`
    /// (meters) beyond their boxes; static proxies get none.
    ///
    /// Errors: [`BroadPhaseError::InvalidValue`] when `margin` is negative, NaN or infinite.
    pub fn with_margin(margin: f32) -> Result<BroadPhase, BroadPhaseError> {
        check_margin(margin)?;
        let mut bp = BroadPhase::new();
        bp.trees[ProxyKind::Kinematic as usize] = DynamicTree::with_margin(margin)?;
        bp.trees[ProxyKind::Dynamic as usize] = DynamicTree::with_margin(margin)?;
        Ok(bp)
    }

    /// Adds a proxy for the tight box `aabb` (meters) of a shape on a body of kind `kind`.
    /// It goes into the move buffer, so the next update reports its pairs.
    ///
    /// Errors: [`BroadPhaseError::InvalidAabb`] when `aabb` is not finite and ordered;
    /// [`BroadPhaseError::Full`] when its tree holds 2²⁹ proxies.
    pub fn create_proxy(
        &mut self,
        aabb: Aabb,
        kind: ProxyKind,
        filter: Filter,
        user_data: u64,
    ) -> Result<ProxyKey, BroadPhaseError> {
        let k = kind as usize;
        let key = ProxyKey::new(kind, self.trees[k].create_proxy(aabb, user_data)?);
        let capacity = self.trees[k].proxy_capacity();
        if self.states[k].len() < capacity {
            self.states[k].resize(capacity, UNUSED);
            self.hot[k].resize(capacity, FREE_HOT);
            self.pair_set.reserve_slots(capacity);
        }
        let fat = self.trees[k].leaf_aabb(key.slot());
        self.states[k][key.slot() as usize] = ProxyState { filter, ..UNUSED };
        self.hot[k][key.slot() as usize] = Hot { fat, generation: key.generation, live: true, ..FREE_HOT };
        // The slot may have held a proxy removed since the last update: its pairs must end.
        self.pair_set.mark_reset(key.raw);
        self.buffer_move(key.raw, fat);
        Ok(key)
    }

    /// Removes a proxy and returns its user data; its pairs end at the next update and the
    /// handle becomes stale.
    ///
    /// Errors: [`BroadPhaseError::InvalidProxy`] for a stale handle.
    pub fn remove_proxy(&mut self, key: ProxyKey) -> Result<u64, BroadPhaseError> {
        let (tree, slot) = self.locate(key)?;
        let user_data = self.trees[tree].remove_proxy(key.id())?;
        let hot = &mut self.hot[tree][slot as usize];
        if hot.move_epoch == self.epoch {
            self.move_buffer[hot.move_index as usize].raw = NULL;
        }
        *hot = FREE_HOT;
        self.states[tree][slot as usize] = UNUSED;
        self.pair_set.mark_reset(key.raw);
        // An entry in the fast list goes stale and is skipped.
        Ok(user_data)
    }

    /// Tells the broad phase that the proxy's tight box is now `aabb` (meters). Returns `true`
    /// when the box left the fat AABB (or the fat AABB was oversized): the proxy then gets a
    /// new fat AABB and goes into the move buffer. Returns `false` when nothing changed.
    ///
    /// Errors: [`BroadPhaseError::InvalidProxy`] for a stale handle,
    /// [`BroadPhaseError::InvalidAabb`] when `aabb` is not finite and ordered.
    pub fn move_proxy(&mut self, key: ProxyKey, aabb: Aabb) -> Result<bool, BroadPhaseError> {
        self.move_stretched(key, aabb, Vec2::ZERO)
    }

    /// As [`BroadPhase::move_proxy`], for a proxy whose box moved by `displacement` (meters)
    /// over the last step and is expected to go on so: a new fat AABB is also stretched by
    /// [`AABB_PREDICTION`] displacements in the direction of motion, so a steadily moving
    /// proxy keeps it for several steps instead of leaving it every step (fewer reinsertions
    /// and queries, at the price of longer fat AABBs and so more pairs).
    ///
    /// Errors: as [`BroadPhase::move_proxy`], and [`BroadPhaseError::InvalidValue`] when
    /// `displacement` is not finite.
    pub fn move_proxy_predicted(
        &mut self,
        key: ProxyKey,
        aabb: Aabb,
        displacement: Vec2,
    ) -> Result<bool, BroadPhaseError> {
        if !displacement.is_finite() {
            return Err(BroadPhaseError::InvalidValue { what: "proxy displacement", requirement: "finite" });
        }
        self.move_stretched(key, aabb, AABB_PREDICTION * displacement)
    }

    /// Moves a proxy whose new fat AABB looks `stretch` (meters) ahead.
    fn move_stretched(&mut self, key: ProxyKey, aabb: Aabb, stretch: Vec2) -> Result<bool, BroadPhaseError> {
        let (tree, slot) = ((key.raw & 3) as usize, key.slot());
        let hot = match self.hot.get(tree).and_then(|h| h.get(slot as usize)) {
            Some(hot) if hot.live && hot.generation == key.generation => hot,
            _ => return Err(BroadPhaseError::invalid_proxy(key.id())),
        };
        check_aabb(&aabb, "proxy AABB")?;
        let margin = self.trees[tree].margin();
        if !needs_refit(&hot.fat, &aabb, margin, stretch) {
            return Ok(false);
        }
        let fat = stretched(&self.trees[tree].fatten(&aabb)?, stretch);
        check_aabb(&fat, "fat AABB")?;
        self.hot[tree][slot as usize].fat = fat;
        self.trees[tree].move_slot(slot, fat);
        self.buffer_move(key.raw, fat);
        Ok(true)
    }

    /// Puts a proxy into the move buffer without moving it, so the next update queries it
    /// (its live pairs stay as they are).
    ///
    /// Errors: [`BroadPhaseError::InvalidProxy`] for a stale handle.
    pub fn touch_proxy(&mut self, key: ProxyKey) -> Result<(), BroadPhaseError> {
        let (tree, slot) = self.locate(key)?;
        self.buffer_move(key.raw, self.hot[tree][slot as usize].fat);
        Ok(())
    }

    /// Replaces a proxy's filter. At the next update all its pairs end and those the new
    /// filter allows begin again.
    ///
    /// Errors: [`BroadPhaseError::InvalidProxy`] for a stale handle.
    pub fn set_filter(&mut self, key: ProxyKey, filter: Filter) -> Result<(), BroadPhaseError> {
        let (tree, slot) = self.locate(key)?;
        self.states[tree][slot as usize].filter = filter;
        let fat = self.hot[tree][slot as usize].fat;
        self.pair_set.mark_reset(key.raw);
        self.buffer_move(key.raw, fat);
        Ok(())
    }

    /// The fat AABB of a proxy (meters).
    ///
    /// Errors: [`BroadPhaseError::InvalidProxy`] for a stale handle.
    pub fn fat_aabb(&self, key: ProxyKey) -> Result<Aabb, BroadPhaseError> {
        let (tree, slot) = self.locate(key)?;
        Ok(self.hot[tree][slot as usize].fat)
    }

    /// The user data of a proxy.
    ///
    /// Errors: [`BroadPhaseError::InvalidProxy`] for a stale handle.
    pub fn user_data(&self, key: ProxyKey) -> Result<u64, BroadPhaseError> {
        let (tree, slot) = self.locate(key)?;
        Ok(self.trees[tree].leaf_user_data(slot))
    }

    /// The filter of a proxy.
    ///
    /// Errors: [`BroadPhaseError::InvalidProxy`] for a stale handle.
    pub fn filter(&self, key: ProxyKey) -> Result<Filter, BroadPhaseError> {
        let (tree, slot) = self.locate(key)?;
        Ok(self.states[tree][slot as usize].filter)
    }

    /// True when `key` is a live proxy.
    pub fn contains(&self, key: ProxyKey) -> bool {
        self.locate(key).is_ok()
    }

    /// True when the fat AABBs of two proxies overlap (touching counts).
    ///
    /// Errors: [`BroadPhaseError::InvalidProxy`] when either handle is stale.
    pub fn test_overlap(&self, a: ProxyKey, b: ProxyKey) -> Result<bool, BroadPhaseError> {
        Ok(self.fat_aabb(a)?.overlaps(&self.fat_aabb(b)?))
    }

    /// The number of proxies of every kind.
    pub fn proxy_count(&self) -> usize {
        self.trees.iter().map(DynamicTree::proxy_count).sum()
    }

    /// The number of entries in the move buffer (proxies that will query at the next update).
    pub fn move_count(&self) -> usize {
        self.move_buffer.len()
    }

    /// The live pairs after the last update, sorted.
    pub fn live_pairs(&self) -> &[PairKey] {
        self.pair_set.live()
    }

    /// The tree of one kind of proxy, for its queries and statistics.
    pub fn tree(&self, kind: ProxyKind) -> &DynamicTree {
        &self.trees[kind as usize]
    }

    /// Sets how many threads [`BroadPhase::update_pairs`] may use for the queries of the
    /// moved proxies (at least 1; the default is 1). With more than one, an update with at
    /// least 1,024 queries per thread splits them among scoped threads started for the update.
    /// The output is the same whatever the number: the keys found are sorted afterwards.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// Rebuilds the tree of one kind by the binned SAH (see [`DynamicTree::rebuild`]); handles
    /// and pairs stay as they are. Worth doing after loading a level, for every kind.
    pub fn rebuild(&mut self, kind: ProxyKind) {
        self.trees[kind as usize].rebuild();
    }

    /// Brings the set of live pairs up to date: the proxies in the move buffer query the trees
    /// they pair with, and the pairs found are merged with the live ones. A new pair begins
    /// only if the filters allow it and `accept(&pair)` returns `true`; a refused pair is
    /// offered again whenever one of its proxies moves. Empties the move buffer.
    ///
    /// Returns the changes, sorted by pair key, so the same sequence of calls gives the same
    /// output on every run.
    pub fn update_pairs(&mut self, mut accept: impl FnMut(&ProxyPair) -> bool) -> PairChanges<'_, ProxyPair> {
        self.find_pairs();
        self.begun.clear();
        let (trees, states, begun) = (&self.trees, &self.states, &mut self.begun);
        self.pair_set.update(&self.found, |key| {
            let (a, b) = key.raws();
            let filter = |raw: u32| &states[(raw & 3) as usize][(raw >> 2) as usize].filter;
            if !filter(a).should_pair(filter(b)) {
                return false;
            }
            let pair = pair_of(trees, key);
            let accepted = accept(&pair);
            if accepted {
                begun.push(pair);
            }
            accepted
        });
        self.move_buffer.clear();
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            // After 2³² updates: forget old epochs rather than confuse them with new ones.
            self.hot.iter_mut().flatten().for_each(|hot| hot.move_epoch = 0);
            self.epoch = 1;
        }
        PairChanges { begun: &self.begun, ended: self.pair_set.ended() }
    }

    /// Calls `callback(key, user_data)` for every proxy (static, then kinematic, then
    /// dynamic) whose fat AABB overlaps `aabb` (meters) until it returns `false`.
    ///
    /// Errors: [`BroadPhaseError::InvalidAabb`] when `aabb` is not finite and ordered.
    pub fn query(&self, aabb: Aabb, callback: impl FnMut(ProxyKey, u64) -> bool) -> Result<(), BroadPhaseError> {
        self.query_kinds(aabb, &ProxyKind::ALL, callback)
    }

    /// [`BroadPhase::query`] over the trees of `kinds` only, in that order: a caller that
    /// wants static and kinematic shapes skips the walk of the dynamic tree, which in a pile
    /// holds nearly every proxy the box overlaps.
    ///
    /// Errors: [`BroadPhaseError::InvalidAabb`] when `aabb` is not finite and ordered.
    pub fn query_kinds(
        &self,
        aabb: Aabb,
        kinds: &[ProxyKind],
        mut callback: impl FnMut(ProxyKey, u64) -> bool,
    ) -> Result<(), BroadPhaseError> {
        let mut go_on = true;
        for &kind in kinds {
            if !go_on {
                break;
            }
            self.trees[kind as usize].query(aabb, |id, user| {
                go_on = callback(ProxyKey::new(kind, id), user);
                go_on
            })?;
        }
        Ok(())
    }

    /// Calls `callback(key, user_data)` for every proxy whose fat AABB contains `point`
    /// (meters) until it returns `false`.
    ///
    /// Errors: [`BroadPhaseError::InvalidValue`] when `point` is not finite.
    pub fn query_point(
        &self,
        point: Vec2,
        mut callback: impl FnMut(ProxyKey, u64) -> bool,
    ) -> Result<(), BroadPhaseError> {
        let mut go_on = true;
        for kind in ProxyKind::ALL {
            if !go_on {
                break;
            }
            self.trees[kind as usize].query_point(point, |id, user| {
                go_on = callback(ProxyKey::new(kind, id), user);
                go_on
            })?;
        }
        Ok(())
    }

    /// Casts a ray through every tree, as [`DynamicTree::ray_cast`] does through one: a clip
    /// in one tree shortens the ray for the others. Returns the final end fraction.
    ///
    /// Errors: [`BroadPhaseError::InvalidValue`] for a ray with a non-finite number or a
    /// negative `max_fraction`.
    pub fn ray_cast(
        &self,
        input: &RayCastInput,
        mut callback: impl FnMut(&RayCastInput, ProxyKey, u64) -> RayControl,
    ) -> Result<f32, BroadPhaseError> {
        check_ray(input)?;
        let (mut ray, mut stopped) = (*input, false);
        for kind in ProxyKind::ALL {
            if stopped {
                break;
            }
            ray.max_fraction = self.trees[kind as usize].ray_cast(&ray, |sub, id, user| {
                let control = callback(sub, ProxyKey::new(kind, id), user);
                stopped = control == RayControl::Stop;
                control
            })?;
        }
        Ok(ray.max_fraction)
    }

    /// Calls `callback(key, user_data, toi)` for every proxy that the box `aabb` moving by
    /// `displacement` (meters) may touch, as [`DynamicTree::query_swept`] does for one tree,
    /// until it returns `false`. No kinds or filters apply.
    ///
    /// Errors: as [`DynamicTree::query_swept`].
    pub fn query_swept(
        &self,
        aabb: Aabb,
        displacement: Vec2,
        mut callback: impl FnMut(ProxyKey, u64, AabbToi) -> bool,
    ) -> Result<(), BroadPhaseError> {
        swept_aabb(&aabb, displacement)?;
        let mut go_on = true;
        for kind in ProxyKind::ALL {
            if !go_on {
                break;
            }
            self.trees[kind as usize].query_swept(aabb, displacement, |id, user, toi| {
                go_on = callback(ProxyKey::new(kind, id), user, toi);
                go_on
            })?;
        }
        Ok(())
    }

    // ---- internals ----

    /// The tree index and slot of a live proxy.
    pub(crate) fn locate(&self, key: ProxyKey) -> Result<(usize, u32), BroadPhaseError> {
        let invalid = || BroadPhaseError::invalid_proxy(key.id());
        let kind = ProxyKind::from_bits(key.raw & 3).ok_or_else(invalid)?;
        let slot = self.trees[kind as usize].slot_of_id(key.id()).map_err(|_| invalid())?;
        Ok((kind as usize, slot))
    }

    /// The filter of the live proxy with this raw key.
    #[inline]
    pub(crate) fn filter_of_raw(&self, raw: u32) -> &Filter {
        &self.states[(raw & 3) as usize][(raw >> 2) as usize].filter
    }

    /// Adds a live proxy to the move buffer, or updates its entry if it is there already.
    fn buffer_move(&mut self, raw: u32, fat: Aabb) {
        let hot = &mut self.hot[(raw & 3) as usize][(raw >> 2) as usize];
        if hot.move_epoch == self.epoch {
            self.move_buffer[hot.move_index as usize].fat = fat;
        } else {
            hot.move_epoch = self.epoch;
            hot.move_index = self.move_buffer.len() as u32;
            self.move_buffer.push(MoveEntry { raw, fat });
        }
    }

    /// Queries the trees for every live entry of the move buffer and leaves the keys of the
    /// overlapping pairs in `found`, sorted and distinct.
    fn find_pairs(&mut self) {
        for entry in self.move_buffer.iter().filter(|e| e.raw != NULL) {
            self.pair_set.mark_moved(entry.raw);
        }
        self.sort_moves_along_curve();
        self.found.clear();
        // Threads pay off only for enough queries to outweigh starting them.
        let threads = self.threads.min(self.order.len() / MIN_QUERIES_PER_THREAD).max(1);
        let (trees, entries, pair_set) = (&self.trees, &self.move_buffer, &self.pair_set);
        if threads == 1 {
            query_moves(trees, entries, &self.order, pair_set, &mut self.found);
        } else {
            if self.found_parts.len() < threads - 1 {
                self.found_parts.resize_with(threads - 1, Vec::new);
            }
            let chunk = self.order.len().div_ceil(threads);
            let mut chunks = self.order.chunks(chunk);
            let first = chunks.next().unwrap_or(&[]);
            std::thread::scope(|scope| {
                for (part, out) in chunks.zip(self.found_parts.iter_mut()) {
                    scope.spawn(move || {
                        out.clear();
                        query_moves(trees, entries, part, pair_set, out);
                    });
                }
                query_moves(trees, entries, first, pair_set, &mut self.found);
            });
            for part in &self.found_parts[..threads - 1] {
                self.found.extend_from_slice(part);
            }
        }
        radix::sort_keys(&mut self.found, &mut self.sort_scratch);
        self.found.dedup();
    }

    /// Orders the live move entries along a Morton (Z-order) curve of their box centers, so
    /// that consecutive queries walk nearby parts of the trees and find them in cache. The
    /// order changes only speed: the found keys are sorted afterwards.
    fn sort_moves_along_curve(&mut self) {
        let mut bounds: Option<Aabb> = None;
        for tree in &self.trees {
            if let Some(b) = tree.root_aabb() {
                bounds = Some(bounds.map_or(b, |u| u.union(&b)));
            }
        }
        let bounds = bounds.unwrap_or(Aabb::new(Vec2::ZERO, Vec2::ONE));
        let scale = Vec2::splat(65535.0) / (bounds.upper - bounds.lower).max(Vec2::splat(f32::MIN_POSITIVE));
        self.order.clear();
        for (i, entry) in self.move_buffer.iter().enumerate().filter(|(_, e)| e.raw != NULL) {
            let cell = ((entry.fat.center() - bounds.lower) * scale).clamp(Vec2::ZERO, Vec2::splat(65535.0));
            self.order.push(((morton(cell.x as u32, cell.y as u32) as u64) << 32) | i as u64);
        }
        // A comparison sort: Morton codes and indices vary in six of their eight bytes, where
        // the radix passes measured no cheaper.
        self.order.sort_unstable();
    }

    /// The pair of a key of two live proxies, with handles and user data.
    pub(crate) fn pair_of(&self, key: PairKey) -> ProxyPair {
        pair_of(&self.trees, key)
    }
}

/// Queries the partner trees for the move entries at `order` (the low 32 bits of each
/// element index `entries`) and pushes the keys of the pairs found onto `out`.
fn query_moves(
    trees: &[DynamicTree; 3],
    entries: &[MoveEntry],
    order: &[u64],
    pair_set: &PairSet<2>,
    out: &mut Vec<u64>,
) {
    for &o in order {
        let entry = entries[(o & 0xffff_ffff) as usize];
        let kind = ProxyKind::from_bits(entry.raw & 3).unwrap_or(ProxyKind::Dynamic);
        for &partner in kind.partners() {
            trees[partner as usize].query_leaves(&entry.fat, |slot, _, _| {
                let other = (slot << 2) | partner as u32;
                // A moved partner with a smaller key finds the pair from its own query.
                if other > entry.raw || (other < entry.raw && !pair_set.is_moved(other)) {
                    out.push(PairKey::new(entry.raw, other).0);
                }
                true
            });
        }
    }
}

/// The pair of a key of two live proxies of the trees, with handles and user data.
fn pair_of(trees: &[DynamicTree; 3], key: PairKey) -> ProxyPair {
    let handle = |raw: u32| {
        let tree = &trees[(raw & 3) as usize];
        (ProxyKey { raw, generation: tree.id_at(raw >> 2).generation() }, tree.leaf_user_data(raw >> 2))
    };
    let ((a, user_a), (b, user_b)) = (handle(key.raws().0), handle(key.raws().1));
    Pair { a, b, user_a, user_b }
}
