//! The broad phase: finds the pairs of shapes whose bounding boxes overlap, among many,
//! without testing every pair.
//!
//! The structures, one file each:
//! - [`DynamicTree`] (`dynamic_tree.rs`, queries in `tree_query.rs`, rebuild in
//!   `rebuild.rs`): a bounding volume hierarchy of fat AABBs with surface-area-heuristic
//!   insertion, tree rotations, a binned-SAH rebuild and queries by box, point, ray and sweep;
//! - [`SortAndSweep`] (`sort_and_sweep.rs`): sweep and prune along the axis of greatest
//!   variance, the simple structure the tree is measured against;
//! - [`BroadPhase`] (`phase.rs`): three trees (static, kinematic, dynamic proxies) with a move
//!   buffer and filters, what the world runs every step;
//! - the live pairs (`pairs.rs`): kept up to date from what the moved proxies find, with the
//!   pairs that began and ended reported in a deterministic order ([`PairChanges`]);
//! - swept pairs for continuous collision (`swept.rs`): what a fast proxy may hit during the
//!   step, culled by the swept-AABB time of impact ([`SweptPair`]).
//!
//! A pair is a pair of proxies whose fat AABBs overlap (touching counts); it is named by a
//! [`PairKey`] made of the two proxies' raw keys, which also gives the order in which pairs
//! are reported: the same calls give the same output, bit for bit, on every run.
//!
//! Units are meters. Every box given to these structures must be finite and ordered
//! (`lower <= upper`); anything else is refused with [`BroadPhaseError::InvalidAabb`], and
//! the structure is left as it was.

mod dynamic_tree;
mod pairs;
mod phase;
mod radix;
mod rebuild;
mod sort_and_sweep;
mod swept;
mod tree_query;

use glam::Vec4;
use thiserror::Error;

use crate::geometry::Aabb;
use crate::math::Vec2;

pub use dynamic_tree::{DynamicTree, TreeStats};
pub use pairs::{PairChanges, PairKey};
pub use phase::{BroadPhase, Filter, ProxyKey, ProxyKind, ProxyPair};
pub use sort_and_sweep::SortAndSweep;
pub use swept::SweptPair;
pub use tree_query::RayControl;

/// A handle to one proxy of a [`DynamicTree`] or a [`SortAndSweep`].
///
/// The handle is a slot index plus the generation of the slot when the proxy was made. When
/// a proxy is removed its slot's generation changes, so a stale handle is refused with
/// [`BroadPhaseError::InvalidProxy`] even after the slot holds a new proxy. (The generation
/// is 32 bits and wraps only after 2³² reuses of one slot.) A handle belongs to the structure
/// that made it; giving it to another one is a logic error that may address a wrong proxy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProxyId {
    index: u32,
    generation: u32,
}

impl ProxyId {
    pub(crate) fn new(index: u32, generation: u32) -> ProxyId {
        ProxyId { index, generation }
    }

    /// The slot index: small, dense, and unique among the live proxies of one structure.
    #[inline]
    pub fn index(self) -> u32 {
        self.index
    }

    /// The generation of the slot when this proxy was made.
    #[inline]
    pub fn generation(self) -> u32 {
        self.generation
    }
}

/// Two proxies whose fat AABBs overlap, with their user data.
///
/// `a` sorts before `b` (by the key the structure orders pairs with), so a pair is reported
/// once and the same pair always has the same orientation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Pair<K> {
    /// The proxy with the smaller key.
    pub a: K,
    /// The proxy with the larger key.
    pub b: K,
    /// The user data of `a`.
    pub user_a: u64,
    /// The user data of `b`.
    pub user_b: u64,
}

/// Why a broad-phase operation was refused. The structure is unchanged when it is.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum BroadPhaseError {
    /// A box is NaN, infinite, or has `lower > upper` on an axis.
    #[error("{what} is not a finite, ordered AABB")]
    InvalidAabb {
        /// Which box.
        what: &'static str,
    },
    /// A number other than a box is NaN or infinite, or out of its range.
    #[error("{what} must be {requirement}")]
    InvalidValue {
        /// Which input.
        what: &'static str,
        /// The accepted range, in words.
        requirement: &'static str,
    },
    /// The proxy handle was removed, is stale, or was never made by this structure.
    #[error("proxy {index} (generation {generation}) does not exist")]
    InvalidProxy {
        /// The slot index of the handle.
        index: u32,
        /// The generation of the handle.
        generation: u32,
    },
    /// The structure holds as many proxies as its handles can address (2²⁹).
    #[error("the broad phase is full")]
    Full,
    /// [`DynamicTree::validate`] found a broken invariant: a bug, please report it.
    #[error("tree invariant broken at node {node}: {what}")]
    Corrupt {
        /// The node where the check failed.
        node: u32,
        /// The invariant that failed.
        what: &'static str,
    },
}

impl BroadPhaseError {
    pub(crate) fn invalid_proxy(id: ProxyId) -> BroadPhaseError {
        BroadPhaseError::InvalidProxy { index: id.index, generation: id.generation }
    }
}

/// Fails with [`BroadPhaseError::InvalidAabb`] unless `aabb` is finite and ordered.
pub(crate) fn check_aabb(aabb: &Aabb, what: &'static str) -> Result<(), BroadPhaseError> {
    if aabb.is_valid() { Ok(()) } else { Err(BroadPhaseError::InvalidAabb { what }) }
}

/// Fails with [`BroadPhaseError::InvalidValue`] unless `margin` is finite and not negative.
pub(crate) fn check_margin(margin: f32) -> Result<(), BroadPhaseError> {
    if margin.is_finite() && margin >= 0.0 {
        Ok(())
    } else {
        Err(BroadPhaseError::InvalidValue { what: "AABB margin", requirement: "finite and not negative" })
    }
}

/// Whether a fat AABB must be replaced for the tight box `aabb`: when `aabb` leaves it, or
/// when it has grown far larger than needed (a proxy that moved fast, then slowed down).
/// `stretch` is the look-ahead a new fat AABB would get (zero without prediction); a fat AABB
/// may reach that far beyond the shrink limit on either side, ahead where it was stretched
/// and behind where the proxy has since moved on.
///
/// Both containment tests run in four SIMD lanes (lower x, lower y, −upper x, −upper y), where
/// each is `<=`: negating the upper bounds turns `b <= a` into `−a <= −b`, and
/// `−((u + e) + r) = ((−u) − e) − r` exactly (rounding is symmetric), so the answer is the
/// scalar test's (`fat.contains(aabb)` and the shrink limit, grown by the reach, containing
/// `fat`) bit for bit, NaN included (every comparison with NaN fails). About half the
/// instructions of the scalar form, on every moved body's every step.
#[inline]
pub(crate) fn needs_refit(fat: &Aabb, aabb: &Aabb, margin: f32, stretch: Vec2) -> bool {
    let sign = Vec4::new(1.0, 1.0, -1.0, -1.0);
    let lanes = |b: &Aabb| Vec4::new(b.lower.x, b.lower.y, b.upper.x, b.upper.y) * sign;
    let (f, a) = (lanes(fat), lanes(aabb));
    let reach = stretch.abs();
    let limit = a - Vec4::splat(crate::settings::AABB_SHRINK_FACTOR * margin);
    let bound = limit - Vec4::new(reach.x, reach.y, reach.x, reach.y);
    !(f.cmple(a) & bound.cmple(f)).all()
}

/// `aabb` extended by `d` (meters) on the side each component of `d` points to.
#[inline]
pub(crate) fn stretched(aabb: &Aabb, d: Vec2) -> Aabb {
    Aabb { lower: aabb.lower + d.min(Vec2::ZERO), upper: aabb.upper + d.max(Vec2::ZERO) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The scalar form of [`needs_refit`], as it was written before the lanes.
    fn needs_refit_scalar(fat: &Aabb, aabb: &Aabb, margin: f32, stretch: Vec2) -> bool {
        let limit = aabb.enlarged(crate::settings::AABB_SHRINK_FACTOR * margin);
        let reach = stretch.abs();
        !fat.contains(aabb) || !Aabb::new(limit.lower - reach, limit.upper + reach).contains(fat)
    }

    #[test]
    fn needs_refit_in_lanes_is_the_scalar_test() {
        let mut rng = ChaCha8Rng::seed_from_u64(0x9e37_79b9_7f4a_7c15);
        let mut next = move || rng.random_range(0..u64::MAX);
        // Coordinates from a small grid (so that ties and equal bounds are common), with
        // signed zeros, tiny and huge values, infinities and NaN now and then.
        let special = [0.0, -0.0, 1e-40, -1e-40, 3.0e38, -3.0e38, f32::INFINITY, f32::NEG_INFINITY, f32::NAN];
        let coordinate = move |r: u64| match r % 16 {
            0 => special[(r >> 8) as usize % special.len()],
            _ => ((r >> 8) % 64) as f32 * 0.125 - 4.0,
        };
        let (mut refits, mut keeps) = (0, 0);
        for _ in 0..200_000 {
            let mut c = [0.0f32; 10];
            for v in &mut c {
                *v = coordinate(next());
            }
            let aabb = Aabb::new(Vec2::new(c[0], c[1]), Vec2::new(c[0].max(c[2]), c[1].max(c[3])));
            let fat = Aabb::new(aabb.lower - Vec2::new(c[4].abs(), c[5].abs()), aabb.upper + Vec2::new(c[6], c[7]));
            let margin = [0.0, 0.1, 0.5, 2.0][(next() % 4) as usize];
            let stretch = Vec2::new(c[8], c[9]) * 0.25;
            let expected = needs_refit_scalar(&fat, &aabb, margin, stretch);
            assert_eq!(needs_refit(&fat, &aabb, margin, stretch), expected, "{fat:?} {aabb:?} {margin} {stretch:?}");
            if expected { refits += 1 } else { keeps += 1 }
        }
        // Both answers are well represented.
        assert!(refits > 20_000 && keeps > 10_000, "refits {refits}, keeps {keeps}");
    }
}
