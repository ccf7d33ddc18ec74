//! Joints after continuous collision: the jointed neighbors of a body that continuous
//! collision stopped or deflected are pulled back to it.
//!
//! Continuous collision moves each fast body on its own: a body that hits a wall at a time of
//! impact stops (or bounces) there, while its jointed neighbors go on with the motion the
//! solver gave them until they meet something themselves (jointed bodies do not collide with
//! each other, so a trailing limb flies through the stopped one). Without a correction,
//! ragdolls fired at a 1 cm wall at 60 to 150 m/s ended their impact steps with anchors up to
//! 1.7 m apart, and the next step's joints snapped them back. So after continuous collision,
//! the joints of the bodies it moved (and of their jointed neighbors, transitively) are
//! projected as the solver projects them (`joint_solver/projection.rs`, Box2D v2's position
//! solver), together with one-sided rows that keep each body's points from going deeper into
//! the static and kinematic shapes near it than they are (the manifolds of those pairs at the
//! corrected bodies' poses: the position solver of Box2D v2's time of impact, joints and
//! contacts in one Gauss-Seidel loop). Each body's corrected motion is then swept against those
//! shapes with the time of impact (its centroid when the shape already touches one) and cut at
//! the first hit, so the correction never carries a limb through a wall. Last, the component's
//! velocities are made to agree with its joints and with the shapes it touches (relax passes
//! of the joints and of one-sided rows that remove the approach into those shapes): a trailing
//! limb still flying at the wall is slowed with the limb the wall stopped, so the next step
//! does not stretch the joint again.

use super::contact_solver::{BodyState, STILL_STATE, Softness};
use super::handles::NULL;
use super::joint_solver::{
    CONVERGED_LINEAR, JointConstraint, JointStep, constraint, find, linear_error, order_for_projection, project_joints,
    solve_joints,
};
use super::solver::cap_velocity;
use super::world::World;
use crate::broad_phase::ProxyKind;
use crate::geometry::{Aabb, Shape};
use crate::math::{Rot, Sweep, Transform, Vec2};
use crate::narrow_phase::collide;
use crate::query::{ShapeProxy, ToiState, time_of_impact};
use crate::settings::{
    JOINT_CCD_ITERATIONS, JOINT_CCD_ROUNDS, JOINT_CCD_TOLERANCE, JOINT_CCD_WALL_DISTANCE, LINEAR_SLOP, TOI_TARGET,
};

/// The proxies the correction meets: static and kinematic shapes. Dynamic shapes are never
/// walls or obstacles here, and a pile's dynamic tree is where its queries spent their time
/// (`ragdoll_rain`: 1,500 queries a step, nearly all their hits dynamic and thrown away).
const OBSTACLE_KINDS: [ProxyKind; 2] = [ProxyKind::Static, ProxyKind::Kinematic];

impl World {
    /// Pulls the jointed neighbors of the bodies continuous collision moved in this step back
    /// to them (see the module's docs). Nothing happens in a world without joints.
    /// `h` is the step's sub-step (seconds), for the joints' motors and limits in the velocity
    /// passes.
    pub(crate) fn correct_joints_after_impacts(&mut self, h: f32) {
        if self.joints.count() == 0 || self.continuous.moved.is_empty() {
            return;
        }
        let (bodies, joints) = self.jointed_component();
        // Groups share no body and meet only static and kinematic shapes here, so each is
        // corrected on its own, for as many passes as it needs: a pile of ragdolls ran every
        // ragdoll's passes until the slowest one converged.
        for (bodies, joints) in self.jointed_groups(&bodies, &joints) {
            for _ in 0..JOINT_CCD_ROUNDS {
                if !self.correct_round(&bodies, &joints) {
                    break;
                }
            }
            self.settle_velocities(&bodies, &joints, h);
        }
        self.continuous.moved.sort_unstable();
        self.continuous.moved.dedup();
    }

    /// One round of the correction from the bodies' current poses: projection with the walls'
    /// rows, then each body's motion swept and cut at its first hit. True when a cut left
    /// work for another round.
    fn correct_round(&mut self, bodies: &[u32], joints: &[u32]) -> bool {
        let state_of = |body: u32| bodies.binary_search(&body).map_or(0, |k| k + 1);
        let none = Softness { bias_rate: 0.0, mass_scale: 1.0, impulse_scale: 0.0 };
        let mut constraints: Vec<JointConstraint> = joints
            .iter()
            .map(|&index| {
                let j = &self.joints[index];
                let (a, b) = (j.body_a, j.body_b);
                constraint(index, j, (&self.bodies[a], state_of(a)), (&self.bodies[b], state_of(b)), none, 1.0)
            })
            .collect();
        let count = bodies.len() + 1;
        let mut states = vec![STILL_STATE; count];
        let mut angles = vec![0.0; count];
        let error = constraints.iter().map(|c| linear_error(c, &states, &angles)).fold(0.0, f32::max);
        if error <= JOINT_CCD_TOLERANCE {
            return false;
        }
        let walls = self.nearby_walls(bodies);
        let (mut order, mut scratch) = (Vec::new(), Default::default());
        order_for_projection(&mut constraints, count, &mut order, &mut scratch);
        for _ in 0..JOINT_CCD_ITERATIONS {
            let joints_found = project_joints(&constraints, &order, (&mut states, &mut angles), 1, 0.0);
            let walls_found = walls.iter().fold(0.0f32, |worst, w| worst.max(keep_out(w, &mut states, &mut angles)));
            // A pass that found nothing to correct is the last: the rest would change nothing.
            if joints_found.converged() && walls_found <= CONVERGED_LINEAR {
                break;
            }
        }
        // Only the motion (dp, angles) is read from here on: the rotations need no sync.
        let mut cut = false;
        for (k, &body) in bodies.iter().enumerate() {
            let (dp, turn) = (states[k + 1].dp, angles[k + 1]);
            if (dp == Vec2::ZERO && turn == 0.0) || !(dp.is_finite() && turn.is_finite()) {
                continue;
            }
            let t = self.free_fraction(body, dp, turn, bodies);
            cut |= t < 1.0;
            if t > 0.0 {
                self.shift_body(body, t * dp, t * turn);
                // The coordinate limit and the speed caps are checked for it at the end.
                self.continuous.moved.push(body);
            }
        }
        cut
    }

    /// Makes the component's velocities agree with its joints and with the static and
    /// kinematic shapes it touches: a few relax passes (rigid rows without bias) of the joints
    /// and of one-sided rows that remove the approach into those shapes (an inelastic impact
    /// of the whole component). Momentum moves along the joints: a trailing limb still flying at
    /// the wall is slowed with the limb the wall stopped, instead of stretching its joint at
    /// the next step.
    fn settle_velocities(&mut self, bodies: &[u32], joints: &[u32], h: f32) {
        let state_of = |body: u32| bodies.binary_search(&body).map_or(0, |k| k + 1);
        let none = Softness { bias_rate: 0.0, mass_scale: 1.0, impulse_scale: 0.0 };
        let mut constraints: Vec<JointConstraint> = joints
            .iter()
            .map(|&index| {
                let j = &self.joints[index];
                let (a, b) = (j.body_a, j.body_b);
                let mut c =
                    constraint(index, j, (&self.bodies[a], state_of(a)), (&self.bodies[b], state_of(b)), none, h);
                c.impulses = Default::default();
                c
            })
            .collect();
        let mut states: Vec<BodyState> = std::iter::once(STILL_STATE)
            .chain(bodies.iter().map(|&b| {
                let b = &self.bodies[b];
                BodyState { v: b.linear_velocity, w: b.angular_velocity, ..STILL_STATE }
            }))
            .collect();
        let angles = vec![0.0; states.len()];
        let walls: Vec<WallRow> =
            self.nearby_walls(bodies).into_iter().filter(|w| w.separation <= LINEAR_SLOP).collect();
        let mut pushes = vec![0.0f32; walls.len()];
        let step = JointStep { h, inv_h: 1.0 / h };
        let mut last = states.clone();
        for pass in 0..JOINT_CCD_ITERATIONS {
            // A pass that changed no velocity by more than the tolerances is the last.
            if pass > 0 && settled(&states, &last) {
                break;
            }
            last.copy_from_slice(&states);
            solve_joints(&mut constraints, &mut states, &angles, step, false);
            for (w, push) in walls.iter().zip(&mut pushes) {
                let s = &mut states[w.state];
                let approach = w.normal.dot(s.v + s.w * w.arm.perp() - w.wall_velocity);
                let lever = w.arm.perp_dot(w.normal);
                let k = w.inv_mass + w.inv_inertia * lever * lever;
                if k <= 0.0 {
                    continue;
                }
                let total = (*push + approach / k).max(0.0);
                let impulse = total - *push;
                *push = total;
                s.v -= w.inv_mass * impulse * w.normal;
                s.w -= w.inv_inertia * lever * impulse;
            }
        }
        let caps = (self.def.max_linear_speed, self.def.max_angular_speed);
        for (k, &body) in bodies.iter().enumerate() {
            let s = states[k + 1];
            if (s.v.x + s.v.y + s.w).is_finite() {
                let b = &mut self.bodies[body];
                (b.linear_velocity, b.angular_velocity) = cap_velocity(s.v, s.w, caps);
            }
        }
    }

    /// The points of the component's bodies near static and kinematic shapes (within
    /// [`JOINT_CCD_WALL_DISTANCE`]), as one-sided rows for the correction.
    fn nearby_walls(&self, bodies: &[u32]) -> Vec<WallRow> {
        let mut rows = Vec::new();
        for (k, &body) in bodies.iter().enumerate() {
            let b = &self.bodies[body];
            let mut shape = b.shape_head;
            while shape != NULL {
                let c = &self.colliders[shape];
                let grow = Vec2::splat(JOINT_CCD_WALL_DISTANCE);
                let reach = Aabb::new(c.aabb.lower - grow, c.aabb.upper + grow);
                let radius = ShapeProxy::from_shape(&c.geometry).radius();
                let _ = self.broad_phase.query_kinds(reach, &OBSTACLE_KINDS, |_, user| {
                    let o = &self.colliders[user as u32];
                    let other = &self.bodies[o.body];
                    if other.is_dynamic()
                        || o.sensor
                        || !c.filter.should_pair(&o.filter)
                        || !self.collides_after_impacts(shape, user as u32)
                    {
                        return true;
                    }
                    let m = collide(&c.geometry, b.transform, &o.geometry, other.transform, JOINT_CCD_WALL_DISTANCE);
                    for p in m.points() {
                        // The point of the shape's core under the contact: the rounded part
                        // of the surface stays along the normal whatever the body turns.
                        let core = p.point - (0.5 * p.separation + radius) * m.normal;
                        rows.push(WallRow {
                            state: k + 1,
                            inv_mass: b.inv_mass,
                            inv_inertia: b.inv_inertia,
                            arm: core - b.center,
                            normal: m.normal,
                            separation: p.separation,
                            wall_velocity: other.linear_velocity
                                + other.angular_velocity * (p.point - other.center).perp(),
                        });
                    }
                    true
                });
                shape = c.next;
            }
        }
        rows
    }

    /// The awake dynamic bodies jointed (transitively) to the bodies continuous collision
    /// moved, sorted, and the constraining joints among them, sorted.
    fn jointed_component(&self) -> (Vec<u32>, Vec<u32>) {
        let mut bodies: Vec<u32> = Vec::new();
        let mut joints = Vec::new();
        let mut stack: Vec<u32> =
            self.continuous.moved.iter().copied().filter(|&b| self.bodies[b].joint_head != NULL).collect();
        let mut seen = std::collections::BTreeSet::new();
        while let Some(body) = stack.pop() {
            if !seen.insert(body) {
                continue;
            }
            if self.bodies[body].is_dynamic() && self.bodies[body].is_awake() {
                bodies.push(body);
            }
            let mut link = self.bodies[body].joint_head;
            while link != NULL {
                let j = &self.joints[link >> 1];
                let other = j.other(link & 1);
                if j.constrains() && self.bodies[other].enabled {
                    joints.push(link >> 1);
                    if self.bodies[other].is_dynamic() && self.bodies[other].is_awake() {
                        stack.push(other);
                    }
                }
                link = j.next[(link & 1) as usize];
            }
        }
        bodies.sort_unstable();
        joints.sort_unstable();
        joints.dedup();
        (bodies, joints)
    }

    /// The groups of `bodies` (sorted) linked by `joints` (sorted): each group's bodies and the
    /// joints on them, both sorted, the groups in the order of their first body.
    fn jointed_groups(&self, bodies: &[u32], joints: &[u32]) -> Vec<(Vec<u32>, Vec<u32>)> {
        let place = |body: u32| bodies.binary_search(&body).ok();
        let mut parent: Vec<u32> = (0..bodies.len() as u32).collect();
        for &index in joints {
            let j = &self.joints[index];
            if let (Some(a), Some(b)) = (place(j.body_a), place(j.body_b)) {
                let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
                parent[ra.max(rb)] = ra.min(rb) as u32;
            }
        }
        let mut group_of = vec![usize::MAX; bodies.len()];
        let mut groups: Vec<(Vec<u32>, Vec<u32>)> = Vec::new();
        for (k, &body) in bodies.iter().enumerate() {
            let r = find(&mut parent, k);
            if group_of[r] == usize::MAX {
                group_of[r] = groups.len();
                groups.push((Vec::new(), Vec::new()));
            }
            groups[group_of[r]].0.push(body);
        }
        for &index in joints {
            let j = &self.joints[index];
            if let Some(k) = place(j.body_a).or(place(j.body_b)) {
                groups[group_of[find(&mut parent, k)]].1.push(index);
            }
        }
        groups.retain(|(_, joints)| !joints.is_empty());
        groups
    }

    /// The fraction (0 to 1) of the motion `dp` (meters) and `turn` (radians) that body
    /// `body` can make from where it is before one of its shapes comes within the TOI target
    /// of a static or kinematic shape; for a shape already that close, before its centroid
    /// does. Bodies of `component` are not obstacles.
    fn free_fraction(&self, body: u32, dp: Vec2, turn: f32, component: &[u32]) -> f32 {
        let b = &self.bodies[body];
        let sweep =
            Sweep { local_center: b.local_center, c1: b.center, c2: b.center + dp, a1: b.angle, a2: b.angle + turn };
        let end = sweep.transform_at(1.0);
        let grow = Vec2::splat(turn.abs() * b.max_extent);
        let mut fraction = 1.0f32;
        let mut shape = b.shape_head;
        while shape != NULL {
            let c = &self.colliders[shape];
            let reach = c.aabb.union(&c.geometry.aabb(end));
            let reach = Aabb::new(reach.lower - grow, reach.upper + grow);
            let _ = self.broad_phase.query_kinds(reach, &OBSTACLE_KINDS, |_, user| {
                let o = &self.colliders[user as u32];
                let other = &self.bodies[o.body];
                let obstacle = !other.is_dynamic()
                    && !o.sensor
                    && c.filter.should_pair(&o.filter)
                    && self.collides_after_impacts(shape, user as u32)
                    && component.binary_search(&o.body).is_err();
                if obstacle {
                    let t = first_touch(&c.geometry, &sweep, (&o.geometry, other.transform), b.local_center);
                    fraction = fraction.min(t);
                }
                fraction > 0.0
            });
            shape = c.next;
        }
        fraction
    }

    /// Moves a body by `dp` (meters) and `turn` (radians): its pose, the end of its sweep, its
    /// shapes' boxes in the broad phase.
    fn shift_body(&mut self, body: u32, dp: Vec2, turn: f32) {
        let b = &mut self.bodies[body];
        let angle = b.angle + turn;
        b.set_pose(b.center + dp, angle, Rot::from_angle(angle));
        (b.sweep.c2, b.sweep.a2) = (b.center, b.angle);
        let xf = b.transform;
        let mut shape = b.shape_head;
        while shape != NULL {
            let c = &mut self.colliders[shape];
            c.aabb = c.geometry.aabb(xf);
            let moved = self.broad_phase.move_proxy(c.proxy, c.aabb);
            debug_assert!(moved.is_ok(), "{moved:?}");
            shape = c.next;
        }
    }
}

/// The fraction of `sweep` that `shape` makes before it comes within the TOI target of
/// `other` standing at `xf`. A shape already that close is tried again with a target of a
/// tenth of the linear slop (it may slide along the other or leave it, not sink into it), and
/// a shape that overlaps the other is tried as its centroid (`center`, body coordinates) at
/// both targets: its center never passes the other's surface. 0 when even the centroid
/// touches.
fn first_touch(shape: &Shape, sweep: &Sweep, (other, xf): (&Shape, Transform), center: Vec2) -> f32 {
    let (proxy, other_proxy, still) = (ShapeProxy::from_shape(shape), ShapeProxy::from_shape(other), Sweep::fixed(xf));
    let fraction = |p: &ShapeProxy, target: f32| match time_of_impact(
        p,
        sweep,
        &other_proxy,
        &still,
        1.0,
        target,
        0.25 * target,
    ) {
        Ok(out) if out.state == ToiState::Separated => Some(1.0),
        Ok(out) if out.t > 0.0 => Some(out.t),
        Ok(_) => None,
        Err(_) => Some(0.0),
    };
    let point = ShapeProxy::new(&[center], 0.0).unwrap_or(proxy);
    let near = 0.1 * LINEAR_SLOP;
    fraction(&proxy, TOI_TARGET)
        .or_else(|| fraction(&proxy, near))
        .or_else(|| fraction(&point, TOI_TARGET))
        .or_else(|| fraction(&point, near))
        .unwrap_or(0.0)
}

/// A point of a body near a static or kinematic shape: a one-sided row of the correction.
struct WallRow {
    state: usize,
    inv_mass: f32,
    inv_inertia: f32,
    /// The point of the shape's core under the contact (its surface point less the radius
    /// along the normal), relative to the body's center of mass (meters, world). Turning the
    /// body turns this point; the radius stays along the normal. (With the surface point
    /// turned instead, a head, a circle, seemed to leave a wall by turning: the correction
    /// carried one 5 cm into a 1 cm wall, and its neck opened 90 mm at the next step, seed 10
    /// of `tests/joints_continuous.rs`.) The lever of a push along the normal is the same from
    /// either point.
    arm: Vec2,
    /// The normal from the body toward the shape.
    normal: Vec2,
    /// The separation at the start of the correction (meters; negative when overlapping).
    separation: f32,
    /// The velocity of the shape's body at the point (m/s; zero for a static body).
    wall_velocity: Vec2,
}

/// Whether no state's velocity differs from its last by more than 0.1 mm/s or its angular
/// velocity by more than 0.001 rad/s: in a step of 1/60 s, 2 µm and 0.001°.
fn settled(states: &[BodyState], last: &[BodyState]) -> bool {
    states.iter().zip(last).all(|(s, l)| (s.v - l.v).length_squared() <= 1.0e-8 && (s.w - l.w).abs() <= 1.0e-3)
}

/// Moves the row's body out along the normal so that the point is no deeper in the shape
/// than it was at the start (or touching, when it was apart); returns how deep it was (meters).
fn keep_out(w: &WallRow, states: &mut [BodyState], angles: &mut [f32]) -> f32 {
    let s = &states[w.state];
    let arm = s.dq.rotate(w.arm);
    let separation = w.separation - w.normal.dot(s.dp + arm - w.arm);
    let error = separation - w.separation.min(0.0);
    if error >= 0.0 {
        return 0.0;
    }
    let lever = arm.perp_dot(w.normal);
    let k = w.inv_mass + w.inv_inertia * lever * lever;
    if k <= 0.0 {
        return 0.0;
    }
    let push = -error / k;
    let s = &mut states[w.state];
    s.dp -= w.inv_mass * push * w.normal;
    let turn = w.inv_inertia * lever * push;
    if turn != 0.0 && turn.is_finite() {
        angles[w.state] -= turn;
        s.dq = s.dq.turned(-turn, angles[w.state]);
    }
    -error
}

impl World {
    /// Whether shapes `a` and `b` (indices) are obstacles to each other in the correction:
    /// the custom filter lets them collide and pre-solve did not disable them in this step.
    fn collides_after_impacts(&self, a: u32, b: u32) -> bool {
        self.hooks.0.is_none()
            || (self.continuous.disabled.binary_search(&super::continuous::shape_pair_key(a, b)).is_err()
                && self.allows_pair(a, b))
    }
}
