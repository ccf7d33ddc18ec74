//! Joints in the soft step (Catto, "Solver2D" 2024, and Box2D v3's joint solver): each step
//! the joints with an awake dynamic body are prepared (anchors relative to the centers of mass
//! at the start of the step, softness coefficients); each sub-step they are warm started,
//! solved with bias, and relaxed (solved again without bias), before the contacts. Rigid rows
//! (points, axes, limits) are soft constraints of [`JOINT_HERTZ`] (capped at a quarter of the
//! sub-step rate) and [`JOINT_DAMPING_RATIO`]; springs are soft constraints of the user's
//! frequency and damping ratio, applied in both passes; motors are rows bounded by the
//! greatest force or torque times the sub-step; limits are one-sided rows whose accumulated
//! impulse stays on one side of zero (speculative while the limit is not reached).
//!
//! Revolute joints are solved four at a time, in colors of their own in which no two share a
//! moving body (`plan.rs`, `revolute_lanes.rs`); the other kinds one at a time after them, in
//! joint index order: see `docs/architecture.md`. Every row keeps its accumulated impulse
//! finite, so no joint can put a NaN into a body's velocity.
//!
//! | file | kind |
//! |---|---|
//! | `revolute.rs` | revolute: point, angle limits, motor, rotational spring |
//! | `prismatic.rs` | prismatic: line and angle, translation limits, motor, spring |
//! | `wheel.rs` | wheel: line, suspension spring and limits, rotational motor |
//! | `distance.rs` | distance: rigid length or spring, min and max length, motor |
//! | `weld.rs` | weld: point and angle, rigid or soft |
//! | `motor.rs` | motor joint: bounded drive toward an offset |
//! | `plan.rs` | the joints' colors and bundles, and the passes over them |
//! | `revolute_lanes.rs` | revolute joints' velocity passes four at a time |
//! | `projection.rs` | position projection of the rigid rows after the sub-steps (Box2D v2's position solver) |

mod distance;
mod motor;
mod plan;
mod prismatic;
mod projection;
mod revolute;
mod revolute_lanes;
mod weld;
mod wheel;

pub(crate) use plan::JointPlan;

pub(crate) use projection::{CONVERGED_LINEAR, LOOP_SLOP, linear_error, project_joints, sync_rotations};

use super::body::Body;
use super::contact_solver::{BodyState, Softness};
use super::joint::{Joint, JointEvent, JointImpulses, JointKind};
use super::world::World;
use crate::math::Vec2;
use crate::settings::{JOINT_DAMPING_RATIO, JOINT_HERTZ};

/// One joint prepared for a step.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct JointConstraint {
    /// The joint's index in the world.
    pub joint: u32,
    /// The bodies' solver states (0: the still state of a static or sleeping body).
    pub a: usize,
    pub b: usize,
    /// Inverse masses (1/kg) and inverse rotational inertias (1/(kg·m²)).
    pub ma: f32,
    pub mb: f32,
    pub ia: f32,
    pub ib: f32,
    /// The anchors relative to the centers of mass at the start of the step (meters, world).
    pub frame_a: Vec2,
    pub frame_b: Vec2,
    /// B's center minus A's at the start of the step (meters).
    pub delta_center: Vec2,
    /// B's angle minus A's minus the reference angle at the start of the step (radians,
    /// within [-π, π)).
    pub delta_angle: f32,
    /// The unit axis at the start of the step (world; prismatic and wheel joints).
    pub axis: Vec2,
    /// The distance joint's rest length (meters).
    pub length: f32,
    pub kind: JointKind,
    /// The rigid rows' softness, and the springs' (`angular_spring` for the weld's angle).
    pub rigid: Softness,
    pub spring: Option<Softness>,
    pub angular_spring: Option<Softness>,
    pub impulses: JointImpulses,
    /// For the position projection: which body holds the joint (the one nearer, in joints, to
    /// a body without mass), and how near.
    pub held: Held,
    pub level: u32,
}

/// What the projection order of one joint depends on (see `World::order_joints`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct JointOrderKey {
    joint: u32,
    a: u32,
    b: u32,
    /// Bit 0: body A holds still (no mass, no inertia); bit 1: body B; bit 2: a revolute
    /// joint (solved in lanes).
    bits: u8,
}

/// Which body of a joint holds it for the position projection: that body is not moved, the
/// other follows it (shock propagation, Guendelman, Bridson and Fedkiw 2003).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) enum Held {
    /// Neither: both move, shared by inverse mass (a group hung from nothing: a ragdoll in
    /// the air).
    Neither,
    /// Neither, in a group hung from two places or more (a bridge, a grid pinned along its
    /// top): both move, and the joints close loops, along which the projection converges
    /// slowly.
    Shared,
    A,
    B,
}

/// Orders the joints for the position projection, outward from the bodies that hold them:
/// each body's level is its distance in joints from a root (a body without mass); joints go by
/// the level of their nearer body (then by index), and the nearer body holds the joint, unless
/// its group of bodies hangs from more than one joint to a root (see [`anchored_twice`]).
/// `order` receives the joints' positions in `joints`; `scratch` is reused from step to step.
pub(crate) fn order_for_projection(
    joints: &mut [JointConstraint],
    state_count: usize,
    order: &mut Vec<u32>,
    scratch: &mut [Vec<u32>; 5],
) {
    let [level, offsets, edges, fill, queue] = scratch;
    level.clear();
    level.resize(state_count, u32::MAX);
    offsets.clear();
    offsets.resize(state_count + 1, 0);
    for c in joints.iter() {
        offsets[c.a + 1] += 1;
        offsets[c.b + 1] += 1;
    }
    for i in 0..state_count {
        offsets[i + 1] += offsets[i];
    }
    edges.clear();
    edges.resize(2 * joints.len(), 0);
    fill.clear();
    fill.extend_from_slice(&offsets[..state_count]);
    queue.clear();
    for c in joints.iter() {
        for (x, y) in [(c.a, c.b), (c.b, c.a)] {
            edges[fill[x] as usize] = y as u32;
            fill[x] += 1;
        }
        for (s, m, i) in [(c.a, c.ma, c.ia), (c.b, c.mb, c.ib)] {
            if level[s] != 0 && m == 0.0 && i == 0.0 {
                level[s] = 0;
                queue.push(s as u32);
            }
        }
    }
    let mut head = 0;
    while head < queue.len() {
        let s = queue[head] as usize;
        head += 1;
        for e in offsets[s]..offsets[s + 1] {
            let t = edges[e as usize] as usize;
            if level[t] == u32::MAX {
                level[t] = level[s] + 1;
                queue.push(t as u32);
            }
        }
    }
    // `fill` and `queue` are free again: the groups' parents and their anchorages.
    anchored_twice(joints, level, fill, queue);
    for c in joints.iter_mut() {
        let (la, lb) = (level[c.a], level[c.b]);
        c.level = la.min(lb);
        let free = if la == 0 { c.b } else { c.a };
        c.held = if queue[find(fill, free)] > 1 {
            Held::Shared
        } else if la < lb {
            Held::A
        } else if lb < la {
            Held::B
        } else {
            Held::Neither
        };
    }
    order.clear();
    order.extend(0..joints.len() as u32);
    order.sort_by_key(|&k| joints[k as usize].level);
}

/// Shock propagation holds the body nearer a root; in a group of bodies hung from more than
/// one joint to a root (a bridge pinned at both ends) that pushes every joint's error to where
/// the levels meet (a bridge of 30 planks opened 10 cm in its middle), so such a group is
/// projected plainly, both bodies of each joint moving by their masses.
///
/// Groups are the bodies with mass linked by joints (roots, which all static bodies share,
/// do not link them: two pendulums on one ground are two groups); `parent` receives each
/// state's union-find parent (see [`find`]), `anchorages` at each group's representative the
/// number of its joints to a root.
fn anchored_twice(joints: &[JointConstraint], level: &[u32], parent: &mut Vec<u32>, anchorages: &mut Vec<u32>) {
    parent.clear();
    parent.extend(0..level.len() as u32);
    for c in joints {
        if level[c.a] != 0 && level[c.b] != 0 {
            let (ra, rb) = (find(parent, c.a), find(parent, c.b));
            parent[ra.max(rb)] = ra.min(rb) as u32;
        }
    }
    anchorages.clear();
    anchorages.resize(level.len(), 0);
    for c in joints {
        let free = match (level[c.a] == 0, level[c.b] == 0) {
            (true, false) => c.b,
            (false, true) => c.a,
            _ => continue,
        };
        let r = find(parent, free);
        anchorages[r] += 1;
    }
}

/// The representative of `x`'s group (union-find with path halving).
pub(crate) fn find(parent: &mut [u32], mut x: usize) -> usize {
    while parent[x] as usize != x {
        parent[x] = parent[parent[x] as usize];
        x = parent[x] as usize;
    }
    x
}

/// What the passes need of the step: the sub-step (seconds) and its inverse.
#[derive(Clone, Copy, Debug)]
pub(crate) struct JointStep {
    pub h: f32,
    pub inv_h: f32,
}

/// The softness of a spring of `hertz` and `zeta` at sub-step `h`; `None` for no spring
/// force (0 Hz) or coefficients that do not fit f32 (a frequency too small to act).
pub(crate) fn spring_softness(hertz: f32, zeta: f32, h: f32) -> Option<Softness> {
    if hertz <= 0.0 {
        return None;
    }
    let s = Softness::new(hertz, zeta, h);
    (s.bias_rate.is_finite() && s.mass_scale.is_finite() && s.impulse_scale.is_finite()).then_some(s)
}

impl World {
    /// Prepares the joints to solve this step: enabled joints that constrain, with a dynamic
    /// body that is awake (none asleep), in joint index order. `h` is the sub-step.
    pub(crate) fn prepare_joints(&mut self, h: f32) {
        let solver = &mut self.solver;
        solver.joints.clear();
        if self.joints.count() == 0 {
            // The order indexes `joints`: a stale one after the last joint went would index
            // an empty list (found by fuzzing). With joints, `order_joints` finds it or keeps
            // the last one only when it fits the joints prepared.
            solver.joint_order.clear();
            solver.joint_order_key.clear();
            solver.joint_plan.clear();
            return;
        }
        let rigid = Softness::new(JOINT_HERTZ.min(0.25 / h), JOINT_DAMPING_RATIO, h);
        for index in self.joints.live_indices() {
            let j = &self.joints[index];
            if !j.constrains() {
                continue;
            }
            let (ba, bb) = (&self.bodies[j.body_a], &self.bodies[j.body_b]);
            let sleeping = |b: &super::body::Body| b.is_dynamic() && !b.is_awake();
            let awake_dynamic = |b: &super::body::Body| b.is_dynamic() && b.is_awake();
            // A disabled body's joints wait for it.
            let off = !ba.enabled || !bb.enabled;
            if off || sleeping(ba) || sleeping(bb) || !(awake_dynamic(ba) || awake_dynamic(bb)) {
                continue;
            }
            let state = |b: &super::body::Body| if b.is_awake() { b.awake_index as usize + 1 } else { 0 };
            let mut c = constraint(index, j, (ba, state(ba)), (bb, state(bb)), rigid, h);
            if !self.def.enable_warm_starting {
                c.impulses = JointImpulses::default();
            }
            solver.joints.push(c);
        }
        self.order_joints();
        self.solver.joint_plan.begin(&self.solver.joints, rigid);
    }

    /// The projection order and the velocity passes' plan (`JointPlan`) of the joints just
    /// prepared: found again only when the joints to solve changed since the last step (which
    /// joints, their bodies' places among the states, which of those bodies hold still, which
    /// are revolute), else the last ones, which they would equal.
    /// Finding it (a breadth-first search, a union-find and a sort) was 2 % of `joint_grid`'s
    /// step, whose joints never change.
    fn order_joints(&mut self) {
        let solver = &mut self.solver;
        let key = |c: &JointConstraint| JointOrderKey {
            joint: c.joint,
            a: c.a as u32,
            b: c.b as u32,
            bits: u8::from(c.ma == 0.0 && c.ia == 0.0)
                | (u8::from(c.mb == 0.0 && c.ib == 0.0) << 1)
                | (u8::from(matches!(c.kind, JointKind::Revolute(_))) << 2),
        };
        let same = solver.joint_order_key.len() == solver.joints.len()
            && solver.joints.iter().zip(&solver.joint_order_key).all(|(c, k)| key(c) == *k);
        let count = solver.states.len();
        if same {
            for (c, &(held, level)) in solver.joints.iter_mut().zip(&solver.joint_order_found) {
                (c.held, c.level) = (held, level);
            }
            if !solver.joint_plan.valid {
                // A loaded world: the plan is derived state, found again (the same one).
                solver.joint_plan.find(&solver.joints, count);
            }
            return;
        }
        solver.joint_plan.find(&solver.joints, count);
        order_for_projection(&mut solver.joints, count, &mut solver.joint_order, &mut solver.joint_scratch);
        solver.joint_order_key.clear();
        solver.joint_order_key.extend(solver.joints.iter().map(key));
        solver.joint_order_found.clear();
        solver.joint_order_found.extend(solver.joints.iter().map(|c| (c.held, c.level)));
    }

    /// Stores each solved joint's impulses and reaction, and breaks the joints whose
    /// reaction exceeded a threshold (disabled, with a [`JointEvent::Broke`]). `inv_h` is
    /// the inverse sub-step (1/s).
    pub(crate) fn store_joints(&mut self, inv_h: f32) {
        for k in 0..self.solver.joints.len() {
            let c = &self.solver.joints[k];
            let (force, torque) = reaction(c, &self.solver.states);
            let (force, torque) = (force * inv_h, torque * inv_h);
            let index = c.joint;
            let impulses = c.impulses;
            let j = &mut self.joints[index];
            j.impulses = impulses;
            (j.force, j.torque) = (force, torque);
            let broke = j.def.break_force.is_some_and(|max| force.length() > max)
                || j.def.break_torque.is_some_and(|max| torque.abs() > max);
            if broke {
                j.enabled = false;
                j.impulses = JointImpulses::default();
                let (a, b) = (j.body_a, j.body_b);
                if self.bodies[a].is_dynamic() && self.bodies[b].is_dynamic() {
                    self.islands.mark_split(self.bodies[a].island);
                }
                let joint = self.joint_id(index);
                self.pending_events.joint.push(JointEvent::Broke { joint, force: force.length(), torque });
            }
        }
    }
}

/// Joint `index` prepared with bodies `a` and `b` at their current poses, in solver states
/// `a.1` and `b.1`, with the rigid rows' softness `rigid` and sub-step `h`.
pub(crate) fn constraint(
    index: u32,
    j: &Joint,
    (ba, sa): (&Body, usize),
    (bb, sb): (&Body, usize),
    rigid: Softness,
    h: f32,
) -> JointConstraint {
    let (qa, qb) = (ba.transform.q, bb.transform.q);
    let mut frame_a = qa.rotate(j.local_anchor_a - ba.local_center);
    let mut frame_b = qb.rotate(j.local_anchor_b - bb.local_center);
    if let JointKind::Motor(d) = j.def.kind {
        // The target point in A's frame, and B's center of mass.
        frame_a = qa.rotate(d.linear_offset - ba.local_center);
        frame_b = Vec2::ZERO;
    }
    let (spring, angular_spring) = springs(&j.def.kind, h);
    JointConstraint {
        joint: index,
        a: sa,
        b: sb,
        ma: ba.inv_mass,
        mb: bb.inv_mass,
        ia: ba.inv_inertia,
        ib: bb.inv_inertia,
        frame_a,
        frame_b,
        delta_center: bb.center - ba.center,
        delta_angle: super::body::reduce_angle(bb.angle - ba.angle - j.reference_angle),
        axis: qa.rotate(j.local_axis_a),
        length: j.length,
        kind: j.def.kind,
        rigid,
        spring,
        angular_spring,
        impulses: j.impulses,
        held: Held::Neither,
        level: 0,
    }
}

/// The springs of a joint kind at sub-step `h`: the spring along its axis or angle, and the
/// weld's angular spring.
fn springs(kind: &JointKind, h: f32) -> (Option<Softness>, Option<Softness>) {
    match *kind {
        JointKind::Revolute(d) if d.enable_spring => (spring_softness(d.hertz, d.damping_ratio, h), None),
        JointKind::Prismatic(d) if d.enable_spring => (spring_softness(d.hertz, d.damping_ratio, h), None),
        JointKind::Wheel(d) if d.enable_spring => (spring_softness(d.hertz, d.damping_ratio, h), None),
        JointKind::Distance(d) if d.enable_spring => (spring_softness(d.hertz, d.damping_ratio, h), None),
        JointKind::Weld(d) => (
            spring_softness(d.linear_hertz, d.linear_damping_ratio, h),
            spring_softness(d.angular_hertz, d.angular_damping_ratio, h),
        ),
        _ => (None, None),
    }
}

/// Applies one joint's accumulated impulses (warm start).
pub(crate) fn warm_start_one(c: &mut JointConstraint, states: &mut [BodyState]) {
    match c.kind {
        JointKind::Revolute(_) => revolute::warm_start(c, states),
        JointKind::Prismatic(_) => prismatic::warm_start(c, states),
        JointKind::Wheel(_) => wheel::warm_start(c, states),
        JointKind::Distance(_) => distance::warm_start(c, states),
        JointKind::Weld(_) => weld::warm_start(c, states),
        JointKind::Motor(_) => motor::warm_start(c, states),
        JointKind::Filter => {}
    }
}

/// Solves one joint once: with the rigid rows' bias (`use_bias`) or without it (the relax
/// pass). `angles` are the states' angles turned since the start of the step.
pub(crate) fn solve_one(
    c: &mut JointConstraint,
    states: &mut [BodyState],
    angles: &[f32],
    step: JointStep,
    use_bias: bool,
) {
    let pose = Pose::of(c, states, angles);
    match c.kind {
        JointKind::Revolute(d) => revolute::solve(c, &d, &pose, states, step, use_bias),
        JointKind::Prismatic(d) => prismatic::solve(c, &d, &pose, states, step, use_bias),
        JointKind::Wheel(d) => wheel::solve(c, &d, &pose, states, step, use_bias),
        JointKind::Distance(d) => distance::solve(c, &d, &pose, states, step, use_bias),
        JointKind::Weld(_) => weld::solve(c, &pose, states, use_bias),
        JointKind::Motor(d) => motor::solve(c, &d, &pose, states, step),
        JointKind::Filter => {}
    }
}

/// Solves every joint once, in order (see [`solve_one`]).
pub(crate) fn solve_joints(
    joints: &mut [JointConstraint],
    states: &mut [BodyState],
    angles: &[f32],
    step: JointStep,
    use_bias: bool,
) {
    for c in joints {
        solve_one(c, states, angles, step, use_bias);
    }
}

/// The reaction of a solved joint: the linear impulse on B (N·s, world) and the angular one
/// (N·m·s), per sub-step.
fn reaction(c: &JointConstraint, states: &[BodyState]) -> (Vec2, f32) {
    let i = &c.impulses;
    let axis = states[c.a].dq.rotate(c.axis);
    match c.kind {
        JointKind::Revolute(_) => (i.linear, i.spring + i.motor + i.lower - i.upper),
        JointKind::Prismatic(_) => (prismatic::axial(i) * axis + i.linear.x * axis.perp(), i.linear.y),
        JointKind::Wheel(_) => (wheel::axial(i) * axis + i.linear.x * axis.perp(), i.motor),
        JointKind::Distance(_) => {
            let pose = Pose::of(c, states, &[]);
            (distance::axial(i) * pose.d.normalize_or_zero(), 0.0)
        }
        JointKind::Weld(_) | JointKind::Motor(_) => (i.linear, i.angular),
        JointKind::Filter => (Vec2::ZERO, 0.0),
    }
}

/// A joint's geometry at the current sub-step.
pub(crate) struct Pose {
    /// The anchors relative to the centers of mass now (meters, world).
    pub ra: Vec2,
    pub rb: Vec2,
    /// Anchor B minus anchor A (meters).
    pub d: Vec2,
    /// B's angle relative to A, from the reference (radians).
    pub angle: f32,
}

impl Pose {
    /// The pose of `c` from the states' motion since the start of the step (`angles` may be
    /// empty when the angle is not needed).
    #[inline]
    fn of(c: &JointConstraint, states: &[BodyState], angles: &[f32]) -> Pose {
        let (sa, sb) = (&states[c.a], &states[c.b]);
        let (ra, rb) = (sa.dq.rotate(c.frame_a), sb.dq.rotate(c.frame_b));
        let d = (sb.dp - sa.dp) + c.delta_center + (rb - ra);
        Pose { ra, rb, d, angle: Pose::angle_of(c, angles) }
    }

    /// B's angle relative to A (radians), as in [`Pose::of`], without the anchors: a limit
    /// reads only the angle, and rotating the anchors for it was a tenth of the position
    /// projection's instructions in `ragdoll_rain` (its ragdolls' joints all have limits).
    pub(crate) fn angle_of(c: &JointConstraint, angles: &[f32]) -> f32 {
        let turned = |i: usize| angles.get(i).copied().unwrap_or(0.0);
        c.delta_angle + turned(c.b) - turned(c.a)
    }
}

/// Adds an impulse to the two bodies: `p` (N·s) at B and its opposite at A, with the angular
/// impulses `la` taken from A and `lb` given to B (N·m·s). The still state (index 0) is never
/// written. A non-finite impulse is dropped.
#[inline]
pub(crate) fn apply(c: &JointConstraint, states: &mut [BodyState], p: Vec2, la: f32, lb: f32) {
    if !(p.x + p.y + la + lb).is_finite() {
        return;
    }
    if c.a != 0 {
        let s = &mut states[c.a];
        s.v -= c.ma * p;
        s.w -= c.ia * la;
    }
    if c.b != 0 {
        let s = &mut states[c.b];
        s.v += c.mb * p;
        s.w += c.ib * lb;
    }
}

/// The velocity of anchor B relative to anchor A (m/s).
#[inline]
pub(crate) fn relative_velocity(c: &JointConstraint, states: &[BodyState], ra: Vec2, rb: Vec2) -> Vec2 {
    let (sa, sb) = (&states[c.a], &states[c.b]);
    (sb.v + sb.w * rb.perp()) - (sa.v + sa.w * ra.perp())
}

/// `x` when finite, else 0: an accumulated impulse never turns into an infinity or a NaN.
#[inline]
pub(crate) fn finite(x: f32) -> f32 {
    if x.is_finite() { x } else { 0.0 }
}

/// The inverse of an effective mass `k` (1/kg or 1/(kg·m²)), 0 when `k` is 0 or the
/// inverse overflows.
#[inline]
pub(crate) fn inverse(k: f32) -> f32 {
    let m = if k > 0.0 { 1.0 / k } else { 0.0 };
    finite(m)
}

/// The solution `x` of `K x = b` for the symmetric 2×2 matrix `K = [[k11, k12], [k12, k22]]`
/// (Cramer's rule); zero when `K` is singular or the solution overflows.
#[inline]
pub(crate) fn solve22(k11: f32, k12: f32, k22: f32, b: Vec2) -> Vec2 {
    let det = k11 * k22 - k12 * k12;
    let inv = if det != 0.0 { 1.0 / det } else { 0.0 };
    let x = Vec2::new(inv * (k22 * b.x - k12 * b.y), inv * (k11 * b.y - k12 * b.x));
    if x.is_finite() { x } else { Vec2::ZERO }
}

/// The point constraint's matrix `K` for anchors `ra`, `rb` (the effective mass's inverse):
/// `(k11, k12, k22)`.
#[inline]
pub(crate) fn point_matrix(c: &JointConstraint, ra: Vec2, rb: Vec2) -> (f32, f32, f32) {
    let m = c.ma + c.mb;
    let k11 = m + c.ia * ra.y * ra.y + c.ib * rb.y * rb.y;
    let k12 = -c.ia * ra.y * ra.x - c.ib * rb.y * rb.x;
    let k22 = m + c.ia * ra.x * ra.x + c.ib * rb.x * rb.x;
    (k11, k12, k22)
}

/// One pass of a point constraint (anchors A and B together) with softness `soft` when
/// `soft` is given (else rigid, no bias): the impulse into `linear`.
pub(crate) fn solve_point(c: &mut JointConstraint, pose: &Pose, states: &mut [BodyState], soft: Option<Softness>) {
    let (ra, rb) = (pose.ra, pose.rb);
    let cdot = relative_velocity(c, states, ra, rb);
    let (bias, mass_scale, impulse_scale) = match soft {
        Some(s) => (s.bias_rate * pose.d, s.mass_scale, s.impulse_scale),
        None => (Vec2::ZERO, 1.0, 0.0),
    };
    let (k11, k12, k22) = point_matrix(c, ra, rb);
    let b = solve22(k11, k12, k22, cdot + bias);
    let impulse = -mass_scale * b - impulse_scale * c.impulses.linear;
    let total = c.impulses.linear + impulse;
    if !total.is_finite() {
        return;
    }
    c.impulses.linear = total;
    apply(c, states, impulse, ra.perp_dot(impulse), rb.perp_dot(impulse));
}

/// One pass of a one-sided limit row: `position` is how far the limit is from being reached
/// (meters or radians, positive when within), `cdot` the velocity that closes it, `mass` the
/// effective mass; the accumulated impulse `acc` stays at or above zero. Speculative while
/// within (only the approach that would cross the limit in the sub-step is removed), soft
/// with `rigid` when beyond and `use_bias`. Returns the impulse to apply.
#[inline]
pub(crate) fn limit_row(
    position: f32,
    cdot: f32,
    mass: f32,
    acc: &mut f32,
    rigid: Softness,
    step: JointStep,
    use_bias: bool,
) -> f32 {
    let (mut bias, mut mass_scale, mut impulse_scale) = (0.0, 1.0, 0.0);
    if position > 0.0 {
        bias = position * step.inv_h;
    } else if use_bias {
        (bias, mass_scale, impulse_scale) = (rigid.bias_rate * position, rigid.mass_scale, rigid.impulse_scale);
    }
    let impulse = -mass * mass_scale * (cdot + bias) - impulse_scale * *acc;
    let total = finite((*acc + impulse).max(0.0));
    let applied = total - *acc;
    *acc = total;
    applied
}

/// One pass of a spring row: `position` the spring's stretch (meters or radians), `cdot` its
/// rate, `mass` the effective mass; returns the impulse to apply, accumulated in `acc`.
#[inline]
pub(crate) fn spring_row(position: f32, cdot: f32, mass: f32, acc: &mut f32, s: Softness) -> f32 {
    let impulse = -mass * s.mass_scale * (cdot + s.bias_rate * position) - s.impulse_scale * *acc;
    let total = finite(*acc + impulse);
    let applied = total - *acc;
    *acc = total;
    applied
}

/// One pass of a rigid row (a soft constraint of `rigid` with `use_bias`, else no bias).
#[inline]
pub(crate) fn rigid_row(position: f32, cdot: f32, mass: f32, acc: &mut f32, rigid: Softness, use_bias: bool) -> f32 {
    if use_bias {
        spring_row(position, cdot, mass, acc, rigid)
    } else {
        spring_row(0.0, cdot, mass, acc, Softness { bias_rate: 0.0, mass_scale: 1.0, impulse_scale: 0.0 })
    }
}

/// One pass of a motor row: drives `cdot` (the rate) toward `speed` with at most `max_impulse`
/// (N·s or N·m·s per sub-step) accumulated either way. Returns the impulse to apply.
#[inline]
pub(crate) fn motor_row(cdot: f32, speed: f32, mass: f32, acc: &mut f32, max_impulse: f32) -> f32 {
    let impulse = -mass * (cdot - speed);
    let total = finite((*acc + impulse).clamp(-max_impulse, max_impulse));
    let applied = total - *acc;
    *acc = total;
    applied
}
