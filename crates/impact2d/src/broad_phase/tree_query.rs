//! Queries of the dynamic tree: by box, by point, by ray and by swept box.
//!
//! Every query walks the tree depth first with a small stack on the call stack (spilling to
//! the heap only for trees over 64 levels tall), so a query needs only `&self` and allocates
//! nothing.

use super::dynamic_tree::{DynamicTree, LEAF, NULL, is_leaf};
use super::{BroadPhaseError, ProxyId, check_aabb};
use crate::geometry::Aabb;
use crate::math::Vec2;
use crate::query::{AabbToi, AabbToiState, RayCastInput, aabb_time_of_impact};
use glam::Vec4;

/// What a ray-cast callback tells the tree after it tested a proxy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RayControl {
    /// Ignore this proxy and keep the ray as it is.
    Continue,
    /// The proxy's shape was hit at this fraction of the translation: clip the ray there,
    /// so only proxies that the shorter ray reaches are reported from now on. A fraction
    /// that is NaN, negative or beyond the current end is ignored (the ray never grows).
    Clip(f32),
    /// End the query.
    Stop,
}

/// What the walk does after visiting a child record.
pub(crate) enum Step {
    /// Visit the node's children (the same as `Skip` on a leaf).
    Descend,
    /// Go on with the next node that is not below this one.
    Skip,
    /// End the walk.
    Stop,
}

impl DynamicTree {
    /// Calls `callback(id, user_data)` for every proxy whose fat AABB overlaps `aabb`
    /// (meters; touching counts) until it returns `false`.
    ///
    /// Errors: [`BroadPhaseError::InvalidAabb`] when `aabb` is not finite and ordered.
    pub fn query(&self, aabb: Aabb, mut callback: impl FnMut(ProxyId, u64) -> bool) -> Result<(), BroadPhaseError> {
        check_aabb(&aabb, "query AABB")?;
        self.query_leaves(&aabb, |slot, _, user_data| callback(self.id_at(slot), user_data));
        Ok(())
    }

    /// Calls `callback(id, user_data)` for every proxy whose fat AABB contains `point`
    /// (meters; the boundary counts) until it returns `false`.
    ///
    /// Errors: [`BroadPhaseError::InvalidValue`] when `point` is not finite.
    pub fn query_point(
        &self,
        point: Vec2,
        mut callback: impl FnMut(ProxyId, u64) -> bool,
    ) -> Result<(), BroadPhaseError> {
        if !point.is_finite() {
            return Err(BroadPhaseError::InvalidValue { what: "query point", requirement: "finite" });
        }
        self.walk(|aabb, leaf| match leaf {
            _ if !aabb.contains_point(point) => Step::Skip,
            None => Step::Descend,
            Some((slot, user_data)) if callback(self.id_at(slot), user_data) => Step::Skip,
            Some(_) => Step::Stop,
        });
        Ok(())
    }

    /// Casts a ray against the fat AABBs: calls `callback(ray, id, user_data)` for every
    /// proxy whose box the ray reaches (as [`Aabb::ray_cast`] decides), where `ray` is the
    /// input clipped by the callback's earlier [`RayControl::Clip`] answers. Returns the
    /// final end fraction of the ray: `input.max_fraction` unless clipped.
    ///
    /// Proxies come in tree order, not by distance; clipping prunes every box beyond the
    /// nearest hit so far, which is what makes a closest-hit cast fast.
    ///
    /// Errors: [`BroadPhaseError::InvalidValue`] when a number of `input` is not finite or
    /// `max_fraction` is negative.
    pub fn ray_cast(
        &self,
        input: &RayCastInput,
        mut callback: impl FnMut(&RayCastInput, ProxyId, u64) -> RayControl,
    ) -> Result<f32, BroadPhaseError> {
        check_ray(input)?;
        let mut ray = *input;
        self.walk(|aabb, leaf| {
            if aabb.ray_cast(ray.origin, ray.translation, ray.max_fraction).is_none() {
                return Step::Skip;
            }
            let Some((slot, user_data)) = leaf else {
                return Step::Descend;
            };
            match callback(&ray, self.id_at(slot), user_data) {
                RayControl::Continue => Step::Skip,
                RayControl::Clip(f) => {
                    if f >= 0.0 && f < ray.max_fraction {
                        ray.max_fraction = f;
                    }
                    Step::Skip
                }
                RayControl::Stop => Step::Stop,
            }
        });
        Ok(ray.max_fraction)
    }

    /// Finds what a box `aabb` (meters) translating by `displacement` over the step may hit:
    /// calls `callback(id, user_data, toi)` until it returns `false` for every proxy whose
    /// fat AABB overlaps the box enclosing the sweep and whose swept-AABB time of impact
    /// ([`aabb_time_of_impact`], the proxy standing still) is not
    /// [`AabbToiState::Separated`]. `toi.t` is the fraction of the step at which the boxes
    /// first touch (0 when they overlap at the start), a lower bound for any exact time of
    /// impact, so candidates can be processed in time order.
    ///
    /// Errors: [`BroadPhaseError::InvalidAabb`] when `aabb` or the swept box is not finite
    /// and ordered; [`BroadPhaseError::InvalidValue`] when `displacement` is not finite.
    pub fn query_swept(
        &self,
        aabb: Aabb,
        displacement: Vec2,
        mut callback: impl FnMut(ProxyId, u64, AabbToi) -> bool,
    ) -> Result<(), BroadPhaseError> {
        let sweep = swept_aabb(&aabb, displacement)?;
        self.query_leaves(&sweep, |slot, leaf, user_data| match swept_toi(&aabb, displacement, leaf, Vec2::ZERO) {
            Some(toi) => callback(self.id_at(slot), user_data, toi),
            None => true,
        });
        Ok(())
    }

    /// Calls `visit(slot, fat_aabb, user_data)` for every proxy whose box overlaps `aabb`
    /// until it returns `false`. No input checks: for callers that validated `aabb`.
    ///
    /// The hot loop of the broad phase: both children of a node are tested from the node's
    /// own record, and the walk goes straight on into an overlapping child, touching the
    /// stack only when both overlap. Each overlap test is one comparison in SIMD lanes
    /// ([`Overlap`]).
    #[inline]
    pub(crate) fn query_leaves(&self, aabb: &Aabb, mut visit: impl FnMut(u32, &Aabb, u64) -> bool) {
        let query = Overlap::new(aabb);
        if self.root == NULL || !query.overlaps(&self.root_aabb) {
            return;
        }
        if is_leaf(self.root) {
            visit(self.root & !LEAF, &self.root_aabb, self.root_user_data);
            return;
        }
        let nodes = &self.nodes[..];
        let mut stack = Stack::new();
        let mut index = self.root;
        loop {
            let node = &nodes[index as usize];
            let mut next = NULL;
            for k in 0..2 {
                if query.overlaps(&node.boxes[k]) {
                    let child = node.children[k];
                    if is_leaf(child) {
                        if !visit(child & !LEAF, &node.boxes[k], node.user_data[k]) {
                            return;
                        }
                    } else if next == NULL {
                        next = child;
                    } else {
                        stack.push(child);
                    }
                }
            }
            if next != NULL {
                index = next;
            } else if let Some(popped) = stack.pop() {
                index = popped;
            } else {
                return;
            }
        }
    }

    /// Calls `visit(slot, fat_aabb, user_data)` for every proxy whose box overlaps `aabb`
    /// until it returns `false`, like [`DynamicTree::query_leaves`] but in the order of the
    /// proxy slots rather than the tree's: every proxy's copy of its record (24 bytes) is read
    /// once, front to back, with no load waiting on another. For a box that covers much of the
    /// tree, where the walk would visit most nodes anyway, each in a cache miss it cannot
    /// hide. No input checks.
    pub(crate) fn scan_leaves(&self, aabb: &Aabb, mut visit: impl FnMut(u32, &Aabb, u64) -> bool) {
        let query = Overlap::new(aabb);
        for (slot, leaf) in self.leaves.iter().enumerate() {
            // A free slot's box is inside out and overlaps nothing.
            if query.overlaps(&leaf.fat) && !visit(slot as u32, &leaf.fat, leaf.user_data) {
                return;
            }
        }
    }

    /// Depth-first walk over the child records, driven by `visit(box, leaf)`, where `leaf` is
    /// `Some((slot, user_data))` for a proxy and `None` for an internal node.
    #[inline]
    pub(crate) fn walk(&self, mut visit: impl FnMut(&Aabb, Option<(u32, u64)>) -> Step) {
        if self.root == NULL {
            return;
        }
        if is_leaf(self.root) {
            visit(&self.root_aabb, Some((self.root & !LEAF, self.root_user_data)));
            return;
        }
        if let Step::Skip | Step::Stop = visit(&self.root_aabb, None) {
            return;
        }
        let mut stack = Stack::new();
        stack.push(self.root);
        while let Some(index) = stack.pop() {
            let node = &self.nodes[index as usize];
            for k in 0..2 {
                let child = node.children[k];
                let leaf = is_leaf(child).then(|| (child & !LEAF, node.user_data[k]));
                match visit(&node.boxes[k], leaf) {
                    Step::Stop => return,
                    Step::Descend if leaf.is_none() => stack.push(child),
                    _ => {}
                }
            }
        }
    }
}

/// The traversal stack: a fixed array on the call stack, spilling to the heap only for trees
/// taller than it (a depth-first walk never holds more than one entry per level).
struct Stack {
    inline: [u32; 64],
    len: usize,
    spill: Vec<u32>,
}

impl Stack {
    #[inline]
    fn new() -> Stack {
        Stack { inline: [0; 64], len: 0, spill: Vec::new() }
    }

    #[inline]
    fn push(&mut self, index: u32) {
        if self.len < self.inline.len() {
            self.inline[self.len] = index;
            self.len += 1;
        } else {
            self.spill.push(index);
        }
    }

    #[inline]
    fn pop(&mut self) -> Option<u32> {
        if let Some(index) = self.spill.pop() {
            return Some(index);
        }
        self.len = self.len.checked_sub(1)?;
        Some(self.inline[self.len])
    }
}

/// Fails unless the ray's numbers are finite and its end fraction is not negative.
pub(crate) fn check_ray(input: &RayCastInput) -> Result<(), BroadPhaseError> {
    let finite = input.origin.is_finite() && input.translation.is_finite() && input.max_fraction.is_finite();
    if finite && input.max_fraction >= 0.0 {
        Ok(())
    } else {
        Err(BroadPhaseError::InvalidValue { what: "ray", requirement: "finite with a max fraction of at least 0" })
    }
}

/// The box enclosing `aabb` over its translation by `displacement`, checked.
pub(crate) fn swept_aabb(aabb: &Aabb, displacement: Vec2) -> Result<Aabb, BroadPhaseError> {
    check_aabb(aabb, "swept AABB start")?;
    if !displacement.is_finite() {
        return Err(BroadPhaseError::InvalidValue { what: "sweep displacement", requirement: "finite" });
    }
    let sweep = aabb.union(&aabb.translated(displacement));
    check_aabb(&sweep, "swept AABB")?;
    Ok(sweep)
}

/// The swept-AABB time of impact, `None` when the boxes never touch (or, for input the
/// callers already checked, never: on non-finite numbers).
#[inline]
pub(crate) fn swept_toi(a: &Aabb, delta_a: Vec2, b: &Aabb, delta_b: Vec2) -> Option<AabbToi> {
    aabb_time_of_impact(a, delta_a, b, delta_b).ok().filter(|toi| toi.state != AabbToiState::Separated)
}

/// A query box ready for [`Aabb::overlaps`] tests in four SIMD lanes: its bounds as (upper x,
/// upper y, −lower x, −lower y), against a box's (lower x, lower y, −upper x, −upper y). A
/// lane is greater exactly when one of `Aabb::overlaps`'s four separating comparisons holds
/// (the negated lanes compare `query.lower > box.upper`, as `−a > −b` is `b > a`), so the
/// answer is `Aabb::overlaps`'s, NaN included (no comparison holds).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Overlap(Vec4);

impl Overlap {
    const SIGN: Vec4 = Vec4::new(1.0, 1.0, -1.0, -1.0);

    #[inline]
    pub(crate) fn new(query: &Aabb) -> Overlap {
        Overlap(Vec4::new(query.upper.x, query.upper.y, query.lower.x, query.lower.y) * Self::SIGN)
    }

    /// `b.overlaps(query)` (touching counts).
    #[inline]
    pub(crate) fn overlaps(&self, b: &Aabb) -> bool {
        !(Vec4::new(b.lower.x, b.lower.y, b.upper.x, b.upper.y) * Self::SIGN).cmpgt(self.0).any()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn lane_overlap_is_aabb_overlaps() {
        let mut rng = ChaCha8Rng::seed_from_u64(0x2545_f491_4f6c_dd1d);
        let mut next = move || rng.random_range(0..u64::MAX);
        // Coordinates from a small grid (touching and equal bounds are common), with signed
        // zeros, infinities and NaN now and then; boxes need not be ordered.
        let special = [0.0, -0.0, f32::INFINITY, f32::NEG_INFINITY, f32::NAN, 1e-40];
        let mut coordinate = move || {
            let r = next();
            if r % 16 == 0 { special[(r >> 8) as usize % special.len()] } else { ((r >> 8) % 16) as f32 * 0.5 - 4.0 }
        };
        let (mut hits, mut misses) = (0, 0);
        for _ in 0..200_000 {
            let mut c = [0.0f32; 8];
            for v in &mut c {
                *v = coordinate();
            }
            let a = Aabb::new(Vec2::new(c[0], c[1]), Vec2::new(c[0] + c[2].abs(), c[1] + c[3].abs()));
            let b = Aabb::new(Vec2::new(c[4], c[5]), Vec2::new(c[6], c[7]));
            let expected = b.overlaps(&a);
            assert_eq!(Overlap::new(&a).overlaps(&b), expected, "{a:?} {b:?}");
            if expected { hits += 1 } else { misses += 1 }
        }
        assert!(hits > 20_000 && misses > 20_000, "hits {hits}, misses {misses}");
    }

    /// The scan in memory order visits exactly the leaves the walk visits, each once, with the
    /// same boxes and user data, on trees whose records have been freed and reused; and stops
    /// when told to.
    #[test]
    fn scan_visits_what_the_walk_visits() {
        let mut rng = ChaCha8Rng::seed_from_u64(0x5ca7_1ea5);
        let random_box = |rng: &mut ChaCha8Rng, size: f32| {
            let p = Vec2::new(rng.random_range(-50.0..50.0), rng.random_range(-50.0..50.0));
            Aabb::new(p, p + Vec2::new(rng.random_range(0.1..size), rng.random_range(0.1..size)))
        };
        let (mut found, mut empty) = (0usize, 0usize);
        for round in 0..40 {
            let mut tree = DynamicTree::new();
            let mut ids = Vec::new();
            for i in 0..rng.random_range(1..400) {
                ids.push(tree.create_proxy(random_box(&mut rng, 3.0), 1000 + i).unwrap());
            }
            // Removals and moves leave free records among the used ones.
            for _ in 0..ids.len() / 3 {
                let k = rng.random_range(0..ids.len());
                if rng.random_bool(0.5) {
                    tree.remove_proxy(ids.swap_remove(k)).unwrap();
                    if ids.is_empty() {
                        break;
                    }
                } else {
                    tree.move_proxy(ids[k], random_box(&mut rng, 3.0)).unwrap();
                }
            }
            for _ in 0..20 {
                let query = random_box(&mut rng, if round % 2 == 0 { 20.0 } else { 120.0 });
                let (mut walked, mut scanned) = (Vec::new(), Vec::new());
                tree.query_leaves(&query, |slot, fat, user| {
                    walked.push((slot, *fat, user));
                    true
                });
                tree.scan_leaves(&query, |slot, fat, user| {
                    scanned.push((slot, *fat, user));
                    true
                });
                let key = |v: &(u32, Aabb, u64)| v.0;
                walked.sort_by_key(key);
                scanned.sort_by_key(key);
                assert_eq!(walked, scanned);
                if walked.is_empty() {
                    empty += 1
                } else {
                    found += walked.len()
                }
                let mut visits = 0;
                tree.scan_leaves(&query, |_, _, _| {
                    visits += 1;
                    visits < 2
                });
                assert_eq!(visits, walked.len().min(2));
            }
        }
        assert!(found > 2000 && empty > 50, "found {found}, empty queries {empty}");
    }
}
