//! Swept pairs for continuous collision: what a fast proxy may hit during the step.
//!
//! A fast proxy queries the trees by the box enclosing its whole sweep, and each candidate is
//! culled by the swept-AABB time of impact before any exact time of impact is computed. Fast
//! proxies are few, so pairs of two fast proxies come from a small sort and sweep over their
//! swept boxes, with both boxes moving in the time of impact.

use super::BroadPhaseError;
use super::dynamic_tree::NULL;
use super::pairs::PairKey;
use super::phase::{BroadPhase, ProxyKey, ProxyPair};
use super::tree_query::{swept_aabb, swept_toi};
use crate::geometry::Aabb;
use crate::math::Vec2;

/// A pair found by [`BroadPhase::update_swept_pairs`], with the fraction of the step at which
/// the swept boxes first touch.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SweptPair {
    /// The two proxies, at least one of them flagged fast; `pair.a.raw() < pair.b.raw()`.
    pub pair: ProxyPair,
    /// When the boxes first touch, as a fraction of the step in [0, 1]: 0 when they overlap
    /// at the start. A lower bound for the exact time of impact of the shapes inside.
    pub t: f32,
}

/// A fast proxy's motion over the step.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct FastProxy {
    key: ProxyKey,
    start: Aabb,
    displacement: Vec2,
    sweep: Aabb,
}

impl BroadPhase {
    /// Flags a proxy as fast for the next [`BroadPhase::update_swept_pairs`]: over the step
    /// its box moves from `start` (meters; the tight box at the start of the step, grown by
    /// whatever gap the exact time of impact aims for) by `displacement` (meters). Flagging a
    /// proxy again before the update replaces its sweep.
    ///
    /// For the regular pairs to see the whole motion too, move the proxy with the box
    /// enclosing its sweep ([`BroadPhase::move_proxy`]).
    ///
    /// Errors: [`BroadPhaseError::InvalidProxy`] for a stale handle;
    /// [`BroadPhaseError::InvalidAabb`] or [`BroadPhaseError::InvalidValue`] for a box that is
    /// not finite and ordered or a displacement that is not finite.
    pub fn flag_fast(&mut self, key: ProxyKey, start: Aabb, displacement: Vec2) -> Result<(), BroadPhaseError> {
        let (tree, slot) = self.locate(key)?;
        let sweep = swept_aabb(&start, displacement)?;
        let fast = FastProxy { key, start, displacement, sweep };
        let state = &mut self.states[tree][slot as usize];
        if state.fast == NULL {
            state.fast = self.fast.len() as u32;
            self.fast.push(fast);
        } else {
            self.fast[state.fast as usize] = fast;
        }
        Ok(())
    }

    /// Finds what the fast proxies may hit during the step and clears their flags.
    ///
    /// A fast proxy queries the trees it pairs with by the box enclosing its sweep; each
    /// candidate (kinds and filters pairing, `accept` returning `true`) is culled by the
    /// swept-AABB time of impact: the fast box moving from its start by its displacement
    /// against the candidate's fat AABB standing still, or, when both are fast, against the
    /// other's sweep. Survivors are returned sorted by pair key with the time at which their
    /// boxes first touch; the same until the next call as [`BroadPhase::swept_pairs`].
    pub fn update_swept_pairs(&mut self, mut accept: impl FnMut(&ProxyPair) -> bool) -> &[SweptPair] {
        self.swept_keys.clear();
        for i in 0..self.fast.len() {
            if self.is_flagged(i) {
                self.find_swept_pairs_of(i);
            }
        }
        self.find_fast_fast_pairs();
        for i in 0..self.fast.len() {
            if self.is_flagged(i) {
                let key = self.fast[i].key;
                self.states[key.kind() as usize][key.slot() as usize].fast = NULL;
            }
        }
        self.fast.clear();
        self.swept_keys.sort_unstable_by_key(|&(key, _)| key);
        self.swept_pairs.clear();
        for i in 0..self.swept_keys.len() {
            let (key, t) = self.swept_keys[i];
            let pair = self.pair_of(PairKey(key));
            if accept(&pair) {
                self.swept_pairs.push(SweptPair { pair, t });
            }
        }
        &self.swept_pairs
    }

    /// The pairs of the last [`BroadPhase::update_swept_pairs`].
    pub fn swept_pairs(&self) -> &[SweptPair] {
        &self.swept_pairs
    }

    /// True when fast entry `i` still belongs to a live proxy flagged fast.
    fn is_flagged(&self, i: usize) -> bool {
        let key = self.fast[i].key;
        matches!(self.locate(key), Ok((tree, slot)) if self.states[tree][slot as usize].fast == i as u32)
    }

    /// Swept pairs of fast entry `i` with the proxies that are not fast.
    fn find_swept_pairs_of(&mut self, i: usize) {
        let fast = self.fast[i];
        let (kind, raw) = (fast.key.kind(), fast.key.raw());
        let own = *self.filter_of_raw(raw);
        for &partner in kind.partners() {
            let (tree, states, out) =
                (&self.trees[partner as usize], &self.states[partner as usize], &mut self.swept_keys);
            tree.query_leaves(&fast.sweep, |slot, aabb, _| {
                let other = &states[slot as usize];
                // Fast partners (and the proxy itself) are paired sweep against sweep below.
                if other.fast == NULL
                    && own.should_pair(&other.filter)
                    && let Some(toi) = swept_toi(&fast.start, fast.displacement, aabb, Vec2::ZERO)
                {
                    out.push((PairKey::new(raw, (slot << 2) | partner as u32).0, toi.t));
                }
                true
            });
        }
    }

    /// Swept pairs among the fast proxies: sort and sweep over their swept boxes along x,
    /// then the time of impact with both boxes moving.
    fn find_fast_fast_pairs(&mut self) {
        self.fast_order.clear();
        for i in 0..self.fast.len() {
            if self.is_flagged(i) {
                self.fast_order.push(i as u32);
            }
        }
        let fast = &self.fast;
        self.fast_order.sort_unstable_by(|&i, &j| {
            let (a, b) = (&fast[i as usize], &fast[j as usize]);
            a.sweep.lower.x.total_cmp(&b.sweep.lower.x).then(a.key.raw().cmp(&b.key.raw()))
        });
        for (n, &i) in self.fast_order.iter().enumerate() {
            let a = &fast[i as usize];
            for &j in &self.fast_order[n + 1..] {
                let b = &fast[j as usize];
                if b.sweep.lower.x > a.sweep.upper.x {
                    break;
                }
                let pairs = a.key.kind().pairs_with(b.key.kind())
                    && a.sweep.overlaps(&b.sweep)
                    && self.filter_of_raw(a.key.raw()).should_pair(self.filter_of_raw(b.key.raw()));
                if !pairs {
                    continue;
                }
                if let Some(toi) = swept_toi(&a.start, a.displacement, &b.start, b.displacement) {
                    self.swept_keys.push((PairKey::new(a.key.raw(), b.key.raw()).0, toi.t));
                }
            }
        }
    }
}
