//! Joint position projection: after the sub-steps, a few passes of nonlinear Gauss-Seidel on
//! the rigid parts of the joints move the bodies' positions (not their velocities) until the
//! anchors meet and the limits hold (Catto's position solver of Box2D v2,
//! `SolvePositionConstraints`).
//!
//! Why: a rigid row of the soft step is a stiff spring of the joint frequency, so a joint
//! under load sags by the load over its effective mass times the frequency squared. Hanging
//! 50-link chains stretched 1.8 % at rest and 8 % swinging from horizontal without it; the
//! projection takes that back each step. Springs, motors and motor joints are left alone
//! (they are meant to give). Also used after continuous collision (`joint_ccd.rs`).

use super::{Held, JointConstraint, Pose, finite, inverse, point_matrix, solve22};
use crate::dynamics::contact_solver::BodyState;
use crate::dynamics::joint::JointKind;
use crate::math::{Rot, Vec2};

/// The largest linear correction of one row in one pass (meters; Box2D v2's).
const MAX_LINEAR_CORRECTION: f32 = 0.2;

/// The largest angular correction of one row in one pass (radians, 8°; Box2D v2's).
const MAX_ANGULAR_CORRECTION: f32 = 8.0 * std::f32::consts::PI / 180.0;

/// A pass that found every error within these (meters, radians) is the last (see
/// [`Errors::converged`]).
pub(crate) const CONVERGED_LINEAR: f32 = 1.0e-4;
const CONVERGED_ANGULAR: f32 = 1.0e-3;

/// The joints of groups hung from two places or more ([`Held::Shared`]) close loops, along
/// which the projection's Gauss-Seidel passes take back only 1–3 % of the error each (the
/// joint_grid benchmark went from 7.02 to 6.80 mm in 8 passes, at 38 % of its step): once a
/// pass leaves their largest error above this fraction of the last pass's, they have stalled
/// and are left out of the passes that follow. The other joints, ordered outward from what
/// holds them (chains, ragdolls), lose half their error or more a pass and run until they
/// converge.
const STALL_RATIO: f32 = 0.99;

/// The step's projection leaves the loop groups' joints to the velocity passes while none is
/// open wider than this (meters): there their passes gain 1–3 % a pass (an error spread over
/// the whole group, as a grid's sag under its own weight, which the velocity passes hold as
/// Box2D v3 holds all its joints), and the first two passes, one to find the errors and one to
/// find that they stalled, cost a third of `joint_grid`'s step. Wider, the error is a load's
/// (a ball on a bridge: 16 mm with the passes against 23 mm without) and the passes take it
/// back. The correction after continuous collision projects them at any width.
pub(crate) const LOOP_SLOP: f32 = 0.01;

/// Projects the joints' positions up to `iterations` times, in `order` (positions in
/// `joints`), each joint moving only its free body when one body holds it; the passes end
/// early once every joint converged or stalled (see [`STALL_RATIO`]). The joints of groups
/// hung from two places or more ([`Held::Shared`]) are projected only when one of them is open
/// wider than `loop_slop` (meters; see [`LOOP_SLOP`]). `angles` are the states' angles turned
/// since the start of the step; each state's rotation follows its angle. Returns the largest
/// errors the last pass found before its corrections.
pub(crate) fn project_joints(
    joints: &[JointConstraint],
    order: &[u32],
    (states, angles): (&mut [BodyState], &mut [f32]),
    iterations: u32,
    loop_slop: f32,
) -> Errors {
    // A slop of zero projects the loops at any width: no need to measure them.
    let mut loops_done = loop_slop > 0.0 && loops_open(joints, order, (states, angles)) <= loop_slop;
    let (mut found, mut last_loop) = (Errors::default(), f32::INFINITY);
    for _ in 0..iterations {
        let (tree, looped) = project_pass(joints, order, (states, angles), loops_done);
        found = tree.max(looped);
        loops_done |= looped.converged() || looped.linear > STALL_RATIO * last_loop;
        last_loop = looped.linear;
        if loops_done && tree.converged() {
            break;
        }
    }
    found
}

/// The widest any joint of a loop group ([`Held::Shared`]) at `order` is open (meters).
fn loops_open(joints: &[JointConstraint], order: &[u32], (states, angles): (&[BodyState], &[f32])) -> f32 {
    let loops = order.iter().map(|&k| &joints[k as usize]).filter(|c| c.held == Held::Shared);
    loops.map(|c| linear_error(c, states, angles)).fold(0.0f32, f32::max)
}

/// One pass over the joints at `order`, the loop groups' joints only while `!loops_done`;
/// returns the largest errors found before correcting them, of the tree joints and of the
/// loop groups' joints.
fn project_pass(
    joints: &[JointConstraint],
    order: &[u32],
    (states, angles): (&mut [BodyState], &mut [f32]),
    loops_done: bool,
) -> (Errors, Errors) {
    let (mut tree, mut looped) = (Errors::default(), Errors::default());
    for &k in order {
        let c = &joints[k as usize];
        match c.held {
            // A joint held by neither body is projected as it is: copying the whole
            // constraint (216 bytes) for every joint and pass was 8 % of the step of the
            // joint_grid benchmark.
            Held::Neither => tree = tree.max(project(c, states, angles)),
            Held::Shared if !loops_done => looped = looped.max(project(c, states, angles)),
            Held::Shared => {}
            // The holding body does not move: as if its mass were infinite, in a copy
            // with its masses zeroed.
            Held::A | Held::B => {
                let mut c = *c;
                if c.held == Held::A {
                    (c.ma, c.ia) = (0.0, 0.0);
                } else {
                    (c.mb, c.ib) = (0.0, 0.0);
                }
                tree = tree.max(project(&c, states, angles));
            }
        }
    }
    (tree, looped)
}

/// Sets each state's rotation from its angle: after the projection, whose small turns update
/// the rotations by composition ([`Rot::turned`]), exact to rounding, so that every rotation
/// leaving it is bit for bit the one of its angle, as everywhere else in the solver.
pub(crate) fn sync_rotations(states: &mut [BodyState], angles: &[f32]) {
    for (s, &angle) in states.iter_mut().zip(angles).skip(1) {
        s.dq = Rot::from_angle(angle);
    }
}

/// The largest errors a pass found before correcting them: meters and radians.
#[derive(Clone, Copy, Default)]
pub(crate) struct Errors {
    pub linear: f32,
    pub angular: f32,
}

impl Errors {
    /// Small enough to stop: the anchors within 0.1 mm, the angles within 0.06°. A 50-link
    /// chain still holds its 10 m to 0.04 mm; against 20 µm and 0.006°, `ragdoll_rain` ran
    /// 3 % more instructions (its ragdolls ran more passes).
    pub(crate) fn converged(self) -> bool {
        self.linear <= CONVERGED_LINEAR && self.angular <= CONVERGED_ANGULAR
    }

    fn max(self, other: Errors) -> Errors {
        Errors { linear: self.linear.max(other.linear), angular: self.angular.max(other.angular) }
    }
}

/// One pass over one joint; returns the errors it found (before correcting them).
fn project(c: &JointConstraint, states: &mut [BodyState], angles: &mut [f32]) -> Errors {
    let angular_mass = inverse(c.ia + c.ib);
    let mut angular = 0.0f32;
    let mut turn_by = |error: f32, states: &mut [BodyState], angles: &mut [f32]| {
        angular = angular.max(error.abs());
        turn(c, states, angles, -angular_mass * clamp_angle(error));
    };
    let linear = match c.kind {
        JointKind::Revolute(d) => {
            if d.enable_limit {
                let angle = Pose::angle_of(c, angles);
                turn_by(if angle < d.lower { angle - d.lower } else { (angle - d.upper).max(0.0) }, states, angles);
            }
            point(c, states, angles)
        }
        JointKind::Weld(d) => {
            if d.angular_hertz == 0.0 {
                turn_by(Pose::angle_of(c, angles), states, angles);
            }
            if d.linear_hertz == 0.0 { point(c, states, angles) } else { 0.0 }
        }
        JointKind::Prismatic(d) => {
            let limit = if d.enable_limit { axis_limit(c, states, angles, d.lower, d.upper) } else { 0.0 };
            let (line, angle) = line_and_angle(c, states, angles);
            angular = angular.max(angle);
            limit.max(line)
        }
        JointKind::Wheel(d) => {
            let limit = if d.enable_limit { axis_limit(c, states, angles, d.lower, d.upper) } else { 0.0 };
            limit.max(line(c, states, angles))
        }
        JointKind::Distance(d) => {
            let pose = Pose::of(c, states, angles);
            let length = pose.d.length();
            let error = if !d.enable_spring {
                length - c.length
            } else if d.enable_limit && length < d.min_length {
                length - d.min_length
            } else if d.enable_limit && length > d.max_length {
                length - d.max_length
            } else {
                0.0
            };
            along(c, states, angles, &pose, pose.d.normalize_or_zero(), clamp_linear(error));
            error.abs()
        }
        JointKind::Motor(_) | JointKind::Filter => 0.0,
    };
    Errors { linear, angular }
}

/// The linear error (meters) of the joint's rigid parts that the projection corrects: the
/// anchors' distance, the distance off the axis line, a length beyond its limits or a
/// translation beyond them (angles are not counted).
pub(crate) fn linear_error(c: &JointConstraint, states: &[BodyState], angles: &[f32]) -> f32 {
    let pose = Pose::of(c, states, angles);
    let beyond = |x: f32, on: bool, lower: f32, upper: f32| if on { (lower - x).max(x - upper).max(0.0) } else { 0.0 };
    // Off the axis line, or beyond the limits along it.
    let off_axis = |on: bool, lower: f32, upper: f32| {
        let axis = states[c.a].dq.rotate(c.axis);
        axis.perp_dot(pose.d).abs().max(beyond(axis.dot(pose.d), on, lower, upper))
    };
    match c.kind {
        JointKind::Revolute(_) => pose.d.length(),
        JointKind::Weld(d) if d.linear_hertz == 0.0 => pose.d.length(),
        JointKind::Prismatic(d) => off_axis(d.enable_limit, d.lower, d.upper),
        JointKind::Wheel(d) => off_axis(d.enable_limit, d.lower, d.upper),
        JointKind::Distance(d) => {
            let length = pose.d.length();
            if d.enable_spring {
                beyond(length, d.enable_limit, d.min_length, d.max_length)
            } else {
                (length - c.length).abs()
            }
        }
        _ => 0.0,
    }
}

fn clamp_linear(error: f32) -> f32 {
    error.clamp(-MAX_LINEAR_CORRECTION, MAX_LINEAR_CORRECTION)
}

fn clamp_angle(error: f32) -> f32 {
    error.clamp(-MAX_ANGULAR_CORRECTION, MAX_ANGULAR_CORRECTION)
}

/// Moves the bodies by a position impulse `p` (kg·m) at B (its opposite at A) with the angular
/// ones `la` taken from A and `lb` given to B (kg·m²·rad). Non-finite impulses are dropped.
fn shift(c: &JointConstraint, states: &mut [BodyState], angles: &mut [f32], p: Vec2, la: f32, lb: f32) {
    if !(p.x + p.y + la + lb).is_finite() {
        return;
    }
    for (i, m, inertia, sign, l) in [(c.a, c.ma, c.ia, -1.0f32, la), (c.b, c.mb, c.ib, 1.0, lb)] {
        if i == 0 {
            continue;
        }
        states[i].dp += sign * m * p;
        let turn = sign * inertia * l;
        if turn != 0.0 {
            angles[i] += turn;
            states[i].dq = states[i].dq.turned(turn, angles[i]);
        }
    }
}

/// Turns B against A by an angular position impulse.
fn turn(c: &JointConstraint, states: &mut [BodyState], angles: &mut [f32], impulse: f32) {
    if impulse != 0.0 {
        shift(c, states, angles, Vec2::ZERO, impulse, impulse);
    }
}

/// Brings anchor B onto anchor A; returns how far apart they were (meters).
fn point(c: &JointConstraint, states: &mut [BodyState], angles: &mut [f32]) -> f32 {
    let pose = Pose::of(c, states, angles);
    let mut error = pose.d;
    let length = error.length();
    if length > MAX_LINEAR_CORRECTION {
        error *= MAX_LINEAR_CORRECTION / length;
    }
    let (k11, k12, k22) = point_matrix(c, pose.ra, pose.rb);
    let p = -solve22(k11, k12, k22, error);
    shift(c, states, angles, p, pose.ra.perp_dot(p), pose.rb.perp_dot(p));
    length
}

/// Removes `error` (meters) along the unit direction `u` at the anchors of `pose`.
fn along(c: &JointConstraint, states: &mut [BodyState], angles: &mut [f32], pose: &Pose, u: Vec2, error: f32) {
    if error == 0.0 {
        return;
    }
    let (ca, cb) = (pose.ra.perp_dot(u), pose.rb.perp_dot(u));
    let mass = inverse(c.ma + c.mb + c.ia * ca * ca + c.ib * cb * cb);
    let p = finite(-mass * error) * u;
    shift(c, states, angles, p, pose.ra.perp_dot(p), pose.rb.perp_dot(p));
}

/// The axis now and the lever arms of a push along `u` at the joint.
fn arms(pose: &Pose, u: Vec2) -> (f32, f32) {
    ((pose.d + pose.ra).perp_dot(u), pose.rb.perp_dot(u))
}

/// Holds the translation along the axis within `lower..=upper`; returns how far beyond it
/// was (meters).
fn axis_limit(c: &JointConstraint, states: &mut [BodyState], angles: &mut [f32], lower: f32, upper: f32) -> f32 {
    let pose = Pose::of(c, states, angles);
    let axis = states[c.a].dq.rotate(c.axis);
    let translation = axis.dot(pose.d);
    let error = if translation < lower { translation - lower } else { (translation - upper).max(0.0) };
    if error == 0.0 {
        return 0.0;
    }
    let (a1, a2) = arms(&pose, axis);
    let mass = inverse(c.ma + c.mb + c.ia * a1 * a1 + c.ib * a2 * a2);
    let impulse = finite(-mass * clamp_linear(error));
    shift(c, states, angles, impulse * axis, impulse * a1, impulse * a2);
    error.abs()
}

/// Brings anchor B onto the axis line (wheel); returns how far off it was (meters).
fn line(c: &JointConstraint, states: &mut [BodyState], angles: &mut [f32]) -> f32 {
    let pose = Pose::of(c, states, angles);
    let perp = states[c.a].dq.rotate(c.axis).perp();
    let (s1, s2) = arms(&pose, perp);
    let mass = inverse(c.ma + c.mb + c.ia * s1 * s1 + c.ib * s2 * s2);
    let off = perp.dot(pose.d);
    let impulse = finite(-mass * clamp_linear(off));
    shift(c, states, angles, impulse * perp, impulse * s1, impulse * s2);
    off.abs()
}

/// Brings anchor B onto the axis line and B's angle onto A's (prismatic), together; returns
/// how far off the line (meters) and the angle (radians) were.
fn line_and_angle(c: &JointConstraint, states: &mut [BodyState], angles: &mut [f32]) -> (f32, f32) {
    let pose = Pose::of(c, states, angles);
    let perp = states[c.a].dq.rotate(c.axis).perp();
    let (s1, s2) = arms(&pose, perp);
    let error = Vec2::new(clamp_linear(perp.dot(pose.d)), clamp_angle(pose.angle));
    let k11 = c.ma + c.mb + c.ia * s1 * s1 + c.ib * s2 * s2;
    let k12 = c.ia * s1 + c.ib * s2;
    let k22 = if c.ia + c.ib > 0.0 { c.ia + c.ib } else { 1.0 };
    let impulse = -solve22(k11, k12, k22, error);
    shift(c, states, angles, impulse.x * perp, impulse.x * s1 + impulse.y, impulse.x * s2 + impulse.y);
    (perp.dot(pose.d).abs(), pose.angle.abs())
}
