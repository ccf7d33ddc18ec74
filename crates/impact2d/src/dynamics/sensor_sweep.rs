//! Sensor events for fast bodies: a body that crosses a sensor within one step is in it at
//! neither end of the step, so the overlap test of the next step's narrow phase never sees
//! it. Box2D v3 gave up on this ("use ray and shape casts", its PR 953); here every body that
//! continuous collision swept in the step (fast, bullet, deep, hit, or a fast kinematic body)
//! has its motion tested against the sensors in its way, and a sensor a shape crossed gets a
//! begin and an end event in the step's lists. Sensors on swept bodies are tested against the
//! solid shapes in their way the same way.
//!
//! A crossing is a pair that overlaps at neither end of the step (an overlap at the start was
//! reported when it began, and one at the end begins at the next step) and whose time of
//! impact at a gap of zero finds them touching on the way ([`time_of_impact`], rotation safe).

use super::continuous::Continuous;
use super::events::{SensorBeginEvent, SensorEndEvent};
use super::handles::NULL;
use super::world::World;
use crate::broad_phase::{PairKey, ProxyKind};
use crate::geometry::Aabb;
use crate::math::Sweep;
use crate::narrow_phase::collide;
use crate::query::{DistanceInput, ShapeProxy, SimplexCache, ToiState, shape_distance, time_of_impact};
use crate::settings::TOI_TOLERANCE;

/// The band about a gap of zero in which a sensor crossing's time of impact counts as a touch
/// (meters): a shape passing a sensor closer than this is said to cross it.
const SENSOR_TOLERANCE: f32 = 0.25 * TOI_TOLERANCE;

impl World {
    /// Reports the sensors that the swept bodies' shapes crossed within the step just solved:
    /// the bodies continuous collision followed (`cc`'s tracks, their final sweeps already in
    /// the bodies) and the fast kinematic bodies. Each crossing adds a begin and an end event.
    /// A swept shape meets the shapes of bodies that were not swept through one broad-phase
    /// query with the box of its motion (their fat boxes hold their small motions), and the
    /// shapes of other swept bodies by a sort and sweep of those boxes.
    pub(crate) fn sweep_sensors(&mut self, cc: &Continuous) {
        let fast_step = self.step_count() + 1;
        let swept = |body: u32| {
            cc.track_of(body).is_some() || self.bodies[body].is_kinematic() && self.bodies[body].fast_step == fast_step
        };
        let mut moving = Vec::new();
        let mut crossings = Vec::new();
        for body in cc.swept_bodies() {
            let b = &self.bodies[body];
            let (sweep, reach) = (b.sweep, b.max_extent);
            let mut shape = b.shape_head;
            while shape != NULL {
                let c = &self.colliders[shape];
                let bounds = swept_bounds(&c.geometry, &sweep, reach);
                moving.push((bounds, shape));
                for kind in ProxyKind::ALL {
                    self.broad_phase.tree(kind).query_leaves(&bounds, |_, _, user| {
                        let other = user as u32;
                        let o = &self.colliders[other];
                        if c.sensor != o.sensor
                            && !swept(o.body)
                            && c.filter.should_pair(&o.filter)
                            && self.allows_pair(shape, other)
                        {
                            let other_sweep = self.whole_step_sweep(o.body);
                            if self.crosses(shape, &sweep, other, &other_sweep) {
                                crossings.push(if c.sensor { (shape, other) } else { (other, shape) });
                            }
                        }
                        true
                    });
                }
                shape = c.next;
            }
        }
        self.cross_swept(&mut moving, &mut crossings);
        crossings.sort_unstable();
        crossings.dedup();
        for (sensor, visitor) in crossings {
            let (sensor, visitor) = (self.shape_id(sensor), self.shape_id(visitor));
            self.pending_events.sensor_begin.push(SensorBeginEvent { sensor, visitor });
            self.pending_events.sensor_end.push(SensorEndEvent { sensor, visitor });
        }
    }

    /// The crossings among the shapes of swept bodies, `moving` (the boxes of their motions
    /// and their shape indices): a sort and sweep of the boxes along x, then the exact test.
    fn cross_swept(&self, moving: &mut [(Aabb, u32)], crossings: &mut Vec<(u32, u32)>) {
        moving.sort_unstable_by(|x, y| x.0.lower.x.total_cmp(&y.0.lower.x).then(x.1.cmp(&y.1)));
        for (i, &(bounds, a)) in moving.iter().enumerate() {
            let ca = &self.colliders[a];
            for &(other_bounds, b) in moving[i + 1..].iter().take_while(|m| m.0.lower.x <= bounds.upper.x) {
                let cb = &self.colliders[b];
                let candidate = ca.sensor != cb.sensor
                    && ca.body != cb.body
                    && bounds.overlaps(&other_bounds)
                    && ca.filter.should_pair(&cb.filter)
                    && self.allows_pair(a, b);
                if candidate {
                    let (sa, sb) = (self.bodies[ca.body].sweep, self.bodies[cb.body].sweep);
                    if self.crosses(a, &sa, b, &sb) {
                        crossings.push(if ca.sensor { (a, b) } else { (b, a) });
                    }
                }
            }
        }
    }

    /// A body's motion over the whole step: its sweep when awake, else standing still.
    fn whole_step_sweep(&self, body: u32) -> Sweep {
        let b = &self.bodies[body];
        if b.is_awake() { b.sweep } else { b.still_sweep() }
    }

    /// Whether shapes `a` and `b`, moving over their sweeps, touch during the step but
    /// overlap at neither end of it, each end judged as the narrow phase judges it (it reports
    /// the overlaps at the ends: one at the start began at this step's update, one at the end
    /// begins at the next): at the start, by the pair's sensor contact; at the end, by the
    /// narrow phase's own test on the final poses. Far from the origin, a test of the rebased
    /// sweeps can disagree with those by a rounding, and the crossing would go unreported.
    fn crosses(&self, a: u32, sweep_a: &Sweep, b: u32, sweep_b: &Sweep) -> bool {
        let (ca, cb) = (&self.colliders[a], &self.colliders[b]);
        if self.sensor_touching(a, b) || self.overlap_now(a, b) {
            return false;
        }
        // Rebased on A, so f32 keeps its precision far from the origin.
        let origin = sweep_a.c1;
        let (sa, sb) = (sweep_a.rebased(origin), sweep_b.rebased(origin));
        let (pa, pb) = (ShapeProxy::from_shape(&ca.geometry), ShapeProxy::from_shape(&cb.geometry));
        let out = time_of_impact(&pa, &sa, &pb, &sb, 1.0, 0.0, SENSOR_TOLERANCE);
        // Overlapped: touching at the start by the rebased test though the narrow phase saw a
        // gap there (a rounding far out): it crossed all the same.
        let touched = out.is_ok_and(|out| matches!(out.state, ToiState::Hit | ToiState::Failed | ToiState::Overlapped));
        // Touching at the end (within the tolerance, yet no overlap for the narrow phase): the
        // next step's sweep starts there and reports the crossing once, if it comes.
        let end = DistanceInput {
            proxy_a: &pa,
            transform_a: sa.transform_at(1.0),
            proxy_b: &pb,
            transform_b: sb.transform_at(1.0),
        };
        touched && shape_distance(&end, &mut SimplexCache::default()).is_ok_and(|d| d.distance > SENSOR_TOLERANCE)
    }

    /// Whether the sensor contact of shapes `a` and `b` touched at this step's start.
    fn sensor_touching(&self, a: u32, b: u32) -> bool {
        let key = PairKey::new(self.colliders[a].proxy.raw(), self.colliders[b].proxy.raw());
        self.pair_map.get(&key.0).is_some_and(|&index| self.contacts[index].is_touching())
    }

    /// Whether shapes `a` and `b` overlap where their bodies are now, by the narrow phase's
    /// sensor test (see `World::update_contacts`).
    fn overlap_now(&self, a: u32, b: u32) -> bool {
        let (ca, cb) = (&self.colliders[a], &self.colliders[b]);
        let (xf_a, xf_b) = (self.bodies[ca.body].transform, self.bodies[cb.body].transform);
        ca.aabb.overlaps(&cb.aabb) && collide(&ca.geometry, xf_a, &cb.geometry, xf_b, 0.0).count > 0
    }
}

/// A box (world, meters) holding a shape all along a sweep: its boxes at both ends grown by
/// the turn times `reach`, the body's largest extent (a point strays no farther than that
/// from where the translation alone takes it, and the translation's path lies in the union
/// of the two end boxes).
fn swept_bounds(shape: &crate::geometry::Shape, sweep: &Sweep, reach: f32) -> Aabb {
    let (start, end) = (shape.aabb(sweep.transform_at(0.0)), shape.aabb(sweep.transform_at(1.0)));
    start.union(&end).enlarged((sweep.a2 - sweep.a1).abs() * reach + SENSOR_TOLERANCE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec2;

    #[test]
    fn the_swept_bounds_hold_a_turning_box_all_along_its_sweep() {
        let shape = crate::geometry::Shape::Polygon(crate::geometry::make_box(1.0, 0.1).unwrap());
        for k in 0..200 {
            let f = k as f32;
            let sweep = Sweep {
                local_center: Vec2::new(0.3, 0.0),
                c1: Vec2::new(f.sin() * 3.0, f.cos()),
                c2: Vec2::new(f.cos() * 5.0, (2.0 * f).sin() * 4.0),
                a1: f * 0.37,
                a2: f * 0.37 + (f * 1.3).sin() * 3.0,
            };
            let reach = 1.0f32.hypot(0.1) + 0.3;
            let bounds = swept_bounds(&shape, &sweep, reach);
            for i in 0..=100 {
                let inside = shape.aabb(sweep.transform_at(i as f32 / 100.0));
                assert!(bounds.contains(&inside), "case {k} at {i}: {inside:?} outside {bounds:?}");
            }
        }
    }
}
