//! The solver stages of a step and the integration of bodies.
//!
//! A step of `dt` seconds with `n` sub-steps of `h = dt / n` (Box2D v3's soft step):
//! 1. the awake bodies' velocities are copied into flat solver arrays (angles first reduced
//!    to [-π, π));
//! 2. the contacts of the constraint graph (the touching solid contacts whose dynamic bodies
//!    are awake, kept in colors from step to step) become bundles, color by color
//!    (`prepare`);
//! 3. per sub-step: integrate velocities (gravity, forces, damping), warm start, solve with
//!    bias, hold the dynamic bodies to the world's speed caps, integrate positions, relax
//!    (solve without bias);
//! 4. restitution, then the impulses are stored in the contacts for the next step;
//! 5. the bodies take their new velocities (dynamic ones held to the caps) and poses, record
//!    their sweep for continuous collision, and their shapes' AABBs move in the broad phase.
//!
//! The caps are applied by [`cap_velocity`], which returns a velocity within them bit for bit
//! and holds any other one to them (an infinite one in its direction, a NaN one at rest), so
//! no non-finite number reaches a body's motion; a body whose motion still overflowed (see
//! "The input contract" in [`World`]) ends the step where it began it, at rest.

use super::body::reduce_angle;
use super::contact_solver::{
    BodyState, ContactSolver, STILL_STATE, Softness, StepConstants, rows, store_motion_row, store_velocity_row,
    transpose,
};
use super::events::ContactHitEvent;
use super::handles::NULL;
use super::joint_solver::{
    Held, JointConstraint, JointOrderKey, JointPlan, JointStep, LOOP_SLOP, project_joints, sync_rotations,
};
use super::world::World;
use crate::encoding::Encoding;
use crate::math::{Rot, Sweep, Vec2, cos_sin_lanes};
use crate::settings::{
    JOINT_POSITION_ITERATIONS, MAX_ANGULAR_SPEED, MAX_COORDINATE, MAX_LINEAR_SPEED, STATIC_CONTACT_STIFFNESS,
};
use glam::{DVec2, Vec4};

/// What velocity integration needs of a body, per step, as rows that line up with the
/// first half of its [`BodyState`] (v, w, padding).
#[derive(Clone, Copy, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct BodySim {
    /// The velocity gained per sub-step of `h` seconds from gravity and the applied force and
    /// torque: `h (s g + f / m)` (m/s), `h τ / I` (rad/s), then 0 (the padding stays zero).
    pub push: Vec4,
    /// The damping factors `1 / (1 + h c)` for the linear (twice) and angular damping `c`,
    /// then 0.
    pub damping: Vec4,
    pub dynamic: bool,
}

/// The solver's arrays, kept between steps.
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Solver {
    /// Index 0 is the still state of static bodies; awake body `i` is at `i + 1`.
    pub states: Vec<BodyState>,
    /// The angle each state's body turned since the start of the step (radians), beside the
    /// states so that the contact solver does not carry it.
    pub angles: Vec<f32>,
    /// Each state's body angle at the start of the step (radians, reduced to [-π, π)).
    pub start_angles: Vec<f32>,
    /// Scratch for `finalize_bodies`: each awake body's rotation at the end of the step.
    pub rotations: Vec<Rot>,
    pub sims: Vec<BodySim>,
    pub contacts: ContactSolver,
    /// The joints prepared for the step, in joint index order (solved in the plan's order).
    pub joints: Vec<JointConstraint>,
    /// The joints' order in the position projection, and scratch for finding it.
    pub joint_order: Vec<u32>,
    pub joint_scratch: [Vec<u32>; 5],
    /// What the last projection order was found for, and what it gave each joint (see
    /// `World::order_joints`): reused while the joints to solve stay the same.
    pub joint_order_key: Vec<JointOrderKey>,
    pub joint_order_found: Vec<(Held, u32)>,
    /// Which joints the velocity passes solve four at a time, and their lanes: derived from
    /// the prepared joints, found again after a load.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub joint_plan: JointPlan,
    pub hits: Vec<ContactHitEvent>,
    /// Milliseconds the last step spent in `finalize_bodies` (a timing: not in snapshots).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub finalize_ms: f64,
    /// Whether a body ended the last solve beyond [`crate::settings::MAX_COORDINATE`] (then
    /// every awake body is held within it after continuous collision, else only the swept ones).
    pub beyond_limit: bool,
}

impl World {
    /// Steps the awake bodies by `dt` seconds in `substeps` sub-steps (both checked).
    pub(crate) fn solve(&mut self, dt: f32, substeps: u32) {
        let h = dt / substeps as f32;
        let contact_hertz = self.def.contact_hertz.min(0.25 / h);
        let zeta = self.def.contact_damping_ratio;
        let k = StepConstants {
            inv_h: 1.0 / h,
            contact_softness: Softness::new(contact_hertz, zeta, h),
            static_softness: Softness::new(STATIC_CONTACT_STIFFNESS * contact_hertz, zeta, h),
            push_max_speed: self.def.contact_push_max_speed,
            restitution_threshold: self.def.restitution_threshold,
            hit_event_threshold: self.def.hit_event_threshold,
            warm_starting: self.def.enable_warm_starting,
        };
        self.build_solver_bodies(h, self.def.gravity);
        let world_id = self.id();
        self.prepare_joints(h);
        let joint_step = JointStep { h, inv_h: 1.0 / h };
        let solver = &mut self.solver;
        solver.contacts.prepare(&self.graph, &self.contacts, &self.bodies, &solver.states, &k);
        let caps = (self.def.max_linear_speed, self.def.max_angular_speed);
        let encoding = solver.contacts.encoding;
        for _ in 0..substeps {
            integrate_velocities(&mut solver.states, &solver.sims, caps);
            solver.joint_plan.warm_start(&mut solver.joints, &mut solver.states, encoding);
            solver.contacts.warm_start(&mut solver.states);
            let (plan, joints) = (&mut solver.joint_plan, &mut solver.joints);
            plan.solve(joints, (&mut solver.states, &solver.angles), joint_step, true, encoding);
            solver.contacts.solve(&mut solver.states, &k, true);
            let motion = (&solver.sims[..], h, caps);
            integrate_positions(&mut solver.states, &mut solver.angles, motion, encoding);
            let (plan, joints) = (&mut solver.joint_plan, &mut solver.joints);
            plan.solve(joints, (&mut solver.states, &solver.angles), joint_step, false, encoding);
            solver.contacts.solve(&mut solver.states, &k, false);
        }
        solver.joint_plan.end(&mut solver.joints);
        let (joints, order) = (&solver.joints, &solver.joint_order);
        project_joints(joints, order, (&mut solver.states, &mut solver.angles), JOINT_POSITION_ITERATIONS, LOOP_SLOP);
        if !joints.is_empty() {
            sync_rotations(&mut solver.states, &solver.angles);
        }
        solver.contacts.restitution(&mut solver.states, &k);
        self.store_joints(joint_step.inv_h);
        let solver = &mut self.solver;
        solver.hits.clear();
        solver.contacts.store(
            &mut self.contacts,
            (world_id, &self.colliders.generations),
            &mut solver.hits,
            k.hit_event_threshold,
        );
        let start = self.def.enable_profiling.then(std::time::Instant::now);
        self.finalize_bodies();
        self.solver.finalize_ms = start.map_or(0.0, |t| t.elapsed().as_secs_f64() * 1e3);
    }

    /// Copies the awake bodies into the solver arrays.
    fn build_solver_bodies(&mut self, h: f32, gravity: Vec2) {
        let solver = &mut self.solver;
        solver.states.clear();
        solver.angles.clear();
        solver.start_angles.clear();
        solver.sims.clear();
        solver.states.push(STILL_STATE);
        solver.angles.push(0.0);
        solver.start_angles.push(0.0);
        solver.sims.push(BodySim::default());
        for &index in &self.awake {
            let b = &mut self.bodies[index];
            let reduced = reduce_angle(b.angle);
            if reduced != b.angle {
                b.set_center_and_angle(b.center, reduced);
            }
            solver.states.push(BodyState { v: b.linear_velocity, w: b.angular_velocity, ..STILL_STATE });
            solver.angles.push(0.0);
            solver.start_angles.push(reduced);
            let (mut dv, mut dw) =
                (h * (b.gravity_scale * gravity + b.inv_mass * b.force), h * b.inv_inertia * b.torque);
            if !(dv.is_finite() && dw.is_finite()) {
                // A force on a very light body: the same in f64, held to the speed limits (the
                // world's caps then hold the velocity it makes).
                let dh = f64::from(h);
                let exact =
                    dh * (f64::from(b.gravity_scale) * gravity.as_dvec2() + f64::from(b.inv_mass) * b.force.as_dvec2());
                dv = hold_to(dv, || exact, MAX_LINEAR_SPEED);
                dw = hold_angular(dw, || dh * f64::from(b.inv_inertia) * f64::from(b.torque));
            }
            let (linear, angular) = (1.0 / (1.0 + h * b.linear_damping), 1.0 / (1.0 + h * b.angular_damping));
            solver.sims.push(BodySim {
                push: Vec4::new(dv.x, dv.y, dw, 0.0),
                damping: Vec4::new(linear, linear, angular, 0.0),
                dynamic: b.is_dynamic(),
            });
        }
    }

    /// The bodies take the solver's velocities and motion: new poses, sweeps, AABBs. A
    /// dynamic body's velocity is held to the world's caps. A body whose motion is not finite (an overflow, see
    /// "The input contract" in [`World`]) stays where it began the step, at rest, and its
    /// contacts' impulses start again from zero.
    fn finalize_bodies(&mut self) {
        let solver = &mut self.solver;
        end_rotations(&solver.start_angles[1..], &solver.angles[1..], &mut solver.rotations);
        let caps = (self.def.max_linear_speed, self.def.max_angular_speed);
        let (bodies, colliders, broad_phase) = (&mut self.bodies, &mut self.colliders, &mut self.broad_phase);
        let mut beyond = false;
        for (i, &index) in self.awake.iter().enumerate() {
            let (s, mut angle_delta) = (self.solver.states[i + 1], self.solver.angles[i + 1]);
            let b = &mut bodies[index];
            let (c1, a1) = (b.center, b.angle);
            debug_assert_eq!(a1, self.solver.start_angles[i + 1]);
            let mut s = s;
            // One test for the six numbers: a NaN or an infinity in any makes the sum one.
            if !(s.dp.x + s.dp.y + angle_delta + s.v.x + s.v.y + s.w).is_finite() {
                (s.dp, angle_delta, s.v, s.w) = (Vec2::ZERO, 0.0, Vec2::ZERO, 0.0);
                if !b.is_dynamic() {
                    (s.v, s.w) = (b.linear_velocity, b.angular_velocity);
                }
                let mut key = b.contact_head;
                while key != NULL {
                    let c = &mut self.contacts[key >> 1];
                    c.impulses = Default::default();
                    key = c.edges[(key & 1) as usize].next;
                }
            }
            let within = s.v.length_squared() <= caps.0 * caps.0 && s.w.abs() <= caps.1;
            (b.linear_velocity, b.angular_velocity) =
                if b.is_dynamic() && !within { cap_velocity(s.v, s.w, caps) } else { (s.v, s.w) };
            b.force = Vec2::ZERO;
            b.torque = 0.0;
            let moved = s.dp != Vec2::ZERO || angle_delta != 0.0;
            if moved {
                // The angle is not reduced here: the sweep keeps the whole rotation.
                b.set_pose(c1 + s.dp, a1 + angle_delta, self.solver.rotations[i]);
            }
            b.sweep = Sweep { local_center: b.local_center, c1, c2: b.center, a1, a2: b.angle };
            if !moved {
                continue;
            }
            let p = b.transform.p;
            beyond |= !(p.x.abs() <= MAX_COORDINATE && p.y.abs() <= MAX_COORDINATE);
            let xf = b.transform;
            let mut shape = b.shape_head;
            while shape != NULL {
                let c = &mut colliders[shape];
                c.aabb = c.geometry.unit_aabb(xf);
                let moved_proxy = broad_phase.move_proxy_predicted(c.proxy, c.aabb, s.dp);
                debug_assert!(moved_proxy.is_ok(), "{moved_proxy:?}");
                shape = c.next;
            }
        }
        self.solver.beyond_limit = beyond;
    }
}

/// The rotations `Rot::from_angle(start + turned)` of the bodies, four at a time in lanes
/// (bit for bit the scalar ones; a four whose angles are beyond the lane version's range
/// takes the scalar one), into `out`.
fn end_rotations(start: &[f32], turned: &[f32], out: &mut Vec<Rot>) {
    out.clear();
    let (fours, turned_fours) = (start.chunks_exact(4), turned.chunks_exact(4));
    let rest = fours.remainder().iter().zip(turned_fours.remainder());
    for (four, turned_four) in fours.zip(turned_fours) {
        let angle = Vec4::from_slice(four) + Vec4::from_slice(turned_four);
        match cos_sin_lanes(angle) {
            Some((c, s)) => out.extend((0..4).map(|l| Rot { c: c[l], s: s[l] })),
            None => out.extend(angle.to_array().map(Rot::from_angle)),
        }
    }
    out.extend(rest.map(|(&a, &t)| Rot::from_angle(a + t)));
}

/// Gravity, forces and damping for one sub-step (`push + damping * velocity`, one row per
/// body); speeds capped at `caps`, the world's (linear m/s, angular rad/s). The caps are tested
/// four bodies at a time in lanes on the rows just computed (a body beyond one is rare), and a
/// four with one beyond takes [`cap_velocity`] body by body, which returns a velocity within
/// the caps bit for bit: the same results as capping every body, for a third of the cost.
fn integrate_velocities(states: &mut [BodyState], sims: &[BodySim], caps: (f32, f32)) {
    let (Some(states), Some(sims)) = (states.get_mut(1..), sims.get(1..)) else { return };
    let (mut fours, mut sim_fours) = (states.chunks_exact_mut(4), sims.chunks_exact(4));
    let (max_linear_squared, max_angular) = (Vec4::splat(caps.0 * caps.0), Vec4::splat(caps.1));
    for (four, sim_four) in (&mut fours).zip(&mut sim_fours) {
        let mut r = [Vec4::ZERO; 4];
        for ((row, s), sim) in r.iter_mut().zip(four.iter_mut()).zip(sim_four) {
            *row = rows(s).0;
            if sim.dynamic {
                *row = sim.push + sim.damping * *row;
                store_velocity_row(s, *row);
            }
        }
        // NaN or infinite velocities are not within the (finite) caps either.
        let [vx, vy, w, _] = transpose(r);
        let within = (vx * vx + vy * vy).cmple(max_linear_squared) & w.abs().cmple(max_angular);
        if !within.all() {
            four.iter_mut().zip(sim_four).for_each(|(s, sim)| cap_dynamic(s, sim, caps));
        }
    }
    let rest = fours.into_remainder().iter_mut().zip(sim_fours.remainder());
    for (s, sim) in rest {
        if sim.dynamic {
            store_velocity_row(s, sim.push + sim.damping * rows(s).0);
            cap_dynamic(s, sim, caps);
        }
    }
}

/// A dynamic body's velocity held to the world's `caps` ([`cap_velocity`]).
#[inline]
fn cap_dynamic(s: &mut BodyState, sim: &BodySim, caps: (f32, f32)) {
    if sim.dynamic {
        (s.v, s.w) = cap_velocity(s.v, s.w, caps);
    }
}

/// A dynamic body's velocity with the world's caps `(max_linear, max_angular)` applied: the
/// linear velocity (m/s) scaled down to `max_linear` if faster, its direction kept, and the
/// angular velocity (rad/s) set to `max_angular` if faster, its sign kept. A velocity within
/// both caps comes back bit for bit. An infinite velocity is held in its direction (the
/// directions of its infinite components), and a NaN one becomes zero, so the result is
/// always finite (for finite caps).
#[inline]
pub(crate) fn cap_velocity(v: Vec2, w: f32, (max_linear, max_angular): (f32, f32)) -> (Vec2, f32) {
    let speed_squared = v.length_squared();
    let v = if speed_squared <= max_linear * max_linear {
        v
    } else if speed_squared.is_finite() {
        v * (max_linear / speed_squared.sqrt())
    } else {
        held(v.as_dvec2(), max_linear)
    };
    let w = if w.abs() <= max_angular {
        w
    } else if w.is_nan() {
        0.0
    } else {
        max_angular.copysign(w)
    };
    (v, w)
}

/// `v` (f64) scaled down to at most `max` long, its direction kept; an infinite `v` points
/// along its infinite components, and a NaN one is zero.
fn held(v: DVec2, max: f32) -> Vec2 {
    let max = f64::from(max);
    let v = if v.is_nan() {
        DVec2::ZERO
    } else if !v.is_finite() {
        // The infinite components give the direction; the finite ones are nothing beside them.
        DVec2::new(infinite_sign(v.x), infinite_sign(v.y))
    } else {
        v
    };
    let length = v.length();
    if length <= max { v.as_vec2() } else { (v * (max / length)).as_vec2() }
}

/// ±1 for an infinite `x` (its sign), 0 for a finite one.
fn infinite_sign(x: f64) -> f64 {
    if x.is_infinite() { x.signum() } else { 0.0 }
}

/// `fast` (a velocity or velocity change, m/s, computed in f32) when it is finite and at most
/// `max` long; otherwise `exact()`, the same computation in f64, scaled down to `max`, its
/// direction kept (zero when NaN). For ordinary values the f32 result comes back bit for bit.
#[inline]
pub(crate) fn hold_to(fast: Vec2, exact: impl FnOnce() -> DVec2, max: f32) -> Vec2 {
    if fast.length_squared() <= max * max { fast } else { held(exact(), max) }
}

/// [`hold_to`] at [`MAX_LINEAR_SPEED`]: a velocity that an impulse or a change of mass gives.
#[inline]
pub(crate) fn hold_linear(fast: Vec2, exact: impl FnOnce() -> DVec2) -> Vec2 {
    hold_to(fast, exact, MAX_LINEAR_SPEED)
}

/// An angular velocity (rad/s) held to [`MAX_ANGULAR_SPEED`] as [`hold_to`] holds a velocity:
/// `fast` when it is within, else `exact()` (f64) held to it, its sign kept (zero when NaN).
#[inline]
pub(crate) fn hold_angular(fast: f32, exact: impl FnOnce() -> f64) -> f32 {
    if fast.abs() <= MAX_ANGULAR_SPEED {
        fast
    } else {
        let exact = exact();
        if exact.is_nan() {
            0.0
        } else {
            exact.clamp(-f64::from(MAX_ANGULAR_SPEED), f64::from(MAX_ANGULAR_SPEED)) as f32
        }
    }
}

/// Moves every awake body by its velocity for one sub-step of `h` seconds; `angles` are the
/// states' angles turned since the start of the step. Four bodies at a time in lanes (their
/// rotations with [`cos_sin_lanes`]), each lane bit for bit the scalar [`integrate_position`];
/// in AVX's encodings when `encoding` says so.
fn integrate_positions(states: &mut [BodyState], angles: &mut [f32], motion: Motion, encoding: Encoding) {
    #[cfg(target_arch = "x86_64")]
    if encoding.avx() {
        // SAFETY: `avx()` is true only where AVX was detected on this machine.
        return unsafe { integrate_positions_avx(states, angles, motion) };
    }
    let _ = encoding;
    integrate_positions_in(states, angles, motion)
}

/// What moving the bodies by a sub-step needs: the bodies' sims (which are dynamic), the
/// sub-step `h` (seconds) and the world's caps (linear m/s, angular rad/s).
type Motion<'a> = (&'a [BodySim], f32, (f32, f32));

/// [`integrate_positions`] compiled with AVX's encodings.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
fn integrate_positions_avx(states: &mut [BodyState], angles: &mut [f32], motion: Motion) {
    integrate_positions_in(states, angles, motion)
}

/// The body of [`integrate_positions`], inlined into each encoding's version. Four bodies at a
/// time in lanes; one at a time for a four where a body is beyond a cap (the contact impulses
/// of the sub-step sped it up: a dynamic one is held to the caps before it moves) or a
/// rotation cannot be computed in lanes.
#[inline(always)]
fn integrate_positions_in(states: &mut [BodyState], angles: &mut [f32], (sims, h, caps): Motion) {
    let (Some(moving), Some(turned), Some(sims)) = (states.get_mut(1..), angles.get_mut(1..), sims.get(1..)) else {
        return;
    };
    let (mut fours, mut angle_fours) = (moving.chunks_exact_mut(4), turned.chunks_exact_mut(4));
    let mut sim_fours = sims.chunks_exact(4);
    for ((four, angle_four), sim_four) in (&mut fours).zip(&mut angle_fours).zip(&mut sim_fours) {
        if !integrate_four(four, angle_four, h, caps) {
            let bodies = four.iter_mut().zip(angle_four).zip(sim_four);
            bodies.for_each(|((s, angle), sim)| integrate_position(s, sim, angle, h, caps));
        }
    }
    let rest = fours.into_remainder().iter_mut().zip(angle_fours.into_remainder()).zip(sim_fours.remainder());
    rest.for_each(|((s, angle), sim)| integrate_position(s, sim, angle, h, caps));
}

/// One body's motion for one sub-step of `h` seconds; `angle` is the angle it turned since the
/// start of the step. A dynamic body beyond the world's `caps` is held to them first.
fn integrate_position(s: &mut BodyState, sim: &BodySim, angle: &mut f32, h: f32, caps: (f32, f32)) {
    let within = s.v.length_squared() <= caps.0 * caps.0 && s.w.abs() <= caps.1;
    if !within && sim.dynamic {
        (s.v, s.w) = cap_velocity(s.v, s.w, caps);
    }
    s.dp += h * s.v;
    if s.w != 0.0 {
        *angle += h * s.w;
        s.dq = Rot::from_angle(*angle);
    }
}

/// [`integrate_position`] of four bodies in lanes; false (nothing written) when a body is
/// beyond a cap or a rotation cannot be computed in lanes.
#[inline(always)]
fn integrate_four(four: &mut [BodyState], angles: &mut [f32], h: f32, (max_linear, max_angular): (f32, f32)) -> bool {
    let r = [0, 1, 2, 3].map(|i| rows(&four[i]));
    let [vx, vy, w, _] = transpose(r.map(|r| r.0));
    // One mask for both: a NaN or an infinite velocity is not within the (finite) caps either
    // (NaN compares false, an infinity or an overflowing square exceeds them), and the scalar
    // path (`cap_velocity`) takes it.
    let within =
        (vx * vx + vy * vy).cmple(Vec4::splat(max_linear * max_linear)) & w.abs().cmple(Vec4::splat(max_angular));
    if !within.all() {
        return false;
    }
    let [dpx, dpy, qc, qs] = transpose(r.map(|r| r.1));
    let hv = Vec4::splat(h);
    let turning = w.cmpne(Vec4::ZERO);
    let angle = Vec4::from_slice(angles);
    let angle = Vec4::select(turning, angle + hv * w, angle);
    let Some((c, s)) = cos_sin_lanes(angle) else { return false };
    let motion = transpose([dpx + hv * vx, dpy + hv * vy, Vec4::select(turning, c, qc), Vec4::select(turning, s, qs)]);
    for (state, row) in four.iter_mut().zip(motion) {
        store_motion_row(state, row);
    }
    angle.write_to_slice(angles);
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::benchmarks::{STEP_DT, SUBSTEPS, large_pyramid, smash, tumbler};
    use crate::dynamics::{BodyDef, ShapeDef, WorldDef};
    use crate::geometry::{Circle, Shape, make_box};

    /// A scene to step: its name, how it is built and how many steps.
    type Scene = (&'static str, fn() -> World, usize);

    /// Bouncy boxes and balls (restitution 0.6) thrown down onto a ground box: restitution,
    /// hit events and circles, which the benchmark scenes do not have.
    fn bouncy_pile() -> World {
        let mut world = World::new(&WorldDef::default()).unwrap();
        let ground = world.create_body(&BodyDef::fixed(Vec2::new(0.0, -1.0))).unwrap();
        let shape = |s| Shape::Polygon(make_box(s, s).unwrap());
        world.create_shape(ground, &ShapeDef::default(), &Shape::Polygon(make_box(20.0, 1.0).unwrap())).unwrap();
        let def = ShapeDef { restitution: 0.6, friction: 0.4, ..ShapeDef::default() };
        for i in 0..12 {
            for j in 0..8 {
                let position = Vec2::new(-6.0 + 1.1 * i as f32 + 0.05 * j as f32, 21.0 + 1.2 * j as f32);
                let velocity = Vec2::new(0.3 * (j as f32 - 4.0), -8.0 - i as f32);
                let body = BodyDef {
                    linear_velocity: velocity,
                    angular_velocity: 0.5 * i as f32 - 3.0,
                    ..BodyDef::dynamic(position)
                };
                let body = world.create_body(&body).unwrap();
                let geometry = if (i + j) % 3 == 0 {
                    Shape::Circle(Circle::new(Vec2::ZERO, 0.45).unwrap())
                } else {
                    shape(0.25 + 0.02 * j as f32)
                };
                world.create_shape(body, &def, &geometry).unwrap();
            }
        }
        world
    }

    #[test]
    fn avx_encodings_step_the_same_bits_as_the_plain_ones() {
        if !Encoding::detected().avx() {
            eprintln!("skipped: this machine has no AVX, so there is no AVX path to compare");
            return;
        }
        let scenes: [Scene; 4] = [
            ("large_pyramid", || large_pyramid().unwrap(), 20),
            ("tumbler", || tumbler().unwrap(), 60),
            ("smash", || smash().unwrap(), 80),
            ("bouncy pile", bouncy_pile, 150),
        ];
        for (name, build, steps) in scenes {
            let (mut avx, mut plain) = (build(), build());
            assert!(avx.solver.contacts.encoding.avx());
            plain.solver.contacts.encoding = Encoding::PLAIN;
            let mut hits = 0;
            for step in 1..=steps {
                avx.step(STEP_DT, SUBSTEPS).unwrap();
                plain.step(STEP_DT, SUBSTEPS).unwrap();
                hits += avx.events.contact_hit.len();
                if step % 10 == 0 || step == steps {
                    assert_eq!(avx.state_checksum(), plain.state_checksum(), "{name} after {step} steps");
                }
            }
            if name == "bouncy pile" {
                assert!(hits > 0, "the bouncy pile reports hits");
            }
        }
    }

    #[test]
    fn end_rotations_are_from_angle_bit_for_bit() {
        // Eleven bodies (two fours and a rest of three); the second four holds an angle past
        // the lane version's range, so it takes the scalar path.
        let start = [0.0, -0.0, 3.1, -3.125, 1.0e-30, 0.7, 2.0e4, -1.5, 0.25, -2.9, 1.0];
        let turned = [0.0, 0.5, 0.3, -0.2, -1.0e-30, 12.0, 1.0, -0.75, 0.0, 0.01, -40.0];
        let mut out = Vec::new();
        end_rotations(&start, &turned, &mut out);
        assert_eq!(out.len(), start.len());
        for ((&a, &t), q) in start.iter().zip(&turned).zip(&out) {
            let expected = Rot::from_angle(a + t);
            assert_eq!((q.c.to_bits(), q.s.to_bits()), (expected.c.to_bits(), expected.s.to_bits()), "{a} + {t}");
        }
    }
}

/// Timing, not a check: `cargo test --release -p impact2d --lib time_encodings -- --ignored
/// --nocapture`. The two encodings step two copies of each benchmark scene in lockstep,
/// taking turns to go first, so that the machine's load falls on both alike (separate runs of
/// `world_steps` spread by more than the difference). The two worlds share the caches, so
/// both run slower than one world alone.
#[cfg(test)]
mod encoding_timing {
    use super::*;
    use crate::benchmarks::{STEP_DT, SUBSTEPS, large_pyramid, smash, tumbler};
    use crate::dynamics::WorldError;

    /// How a benchmark scene is built.
    type Build = fn() -> Result<World, WorldError>;

    /// The median of `values` (sorted in place).
    fn median(values: &mut [f64]) -> f64 {
        values.sort_by(f64::total_cmp);
        values[values.len() / 2]
    }

    #[test]
    #[ignore = "timing: run by hand with --ignored --nocapture"]
    fn time_encodings() {
        if !Encoding::detected().avx() {
            eprintln!("skipped: this machine has no AVX");
            return;
        }
        let scenes: [(&str, Build, usize); 3] =
            [("large_pyramid", large_pyramid, 300), ("tumbler", tumbler, 300), ("smash", smash, 200)];
        for (name, build, steps) in scenes {
            let mut worlds = [build().unwrap(), build().unwrap()];
            worlds[1].solver.contacts.encoding = Encoding::PLAIN;
            // Per world: step, collide and solve milliseconds of every step.
            let mut times = [[(); 3].map(|_| Vec::new()), [(); 3].map(|_| Vec::new())];
            for step in 0..steps {
                for which in [step % 2, 1 - step % 2] {
                    let start = std::time::Instant::now();
                    worlds[which].step(STEP_DT, SUBSTEPS).unwrap();
                    let p = worlds[which].profile();
                    for (list, ms) in
                        times[which].iter_mut().zip([start.elapsed().as_secs_f64() * 1e3, p.collide, p.solve])
                    {
                        list.push(ms);
                    }
                }
            }
            assert_eq!(worlds[0].state_checksum(), worlds[1].state_checksum(), "{name}");
            let [avx, plain] = times.map(|t| t.map(|mut list| median(&mut list)));
            eprintln!(
                "{name}: median ms per step (collide, solve) avx {:.3} ({:.3}, {:.3}), plain {:.3} ({:.3}, {:.3})",
                avx[0], avx[1], avx[2], plain[0], plain[1], plain[2]
            );
        }
    }
}
