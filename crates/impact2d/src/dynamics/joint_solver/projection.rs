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

/// Projects the joints' positions `iterations` times, in `order` (positions in `joints`), each
/// joint moving only its free body when one body holds it. `angles` are the states'
/// angles turned since the start of the step; each state's rotation follows its angle.
pub(crate) fn project_joints(
    joints: &[JointConstraint],
    order: &[u32],
    states: &mut [BodyState],
    angles: &mut [f32],
    iterations: u32,
) {
    for _ in 0..iterations {
        for &k in order {
            let c = &joints[k as usize];
            // The holding body does not move: as if its mass were infinite, in a copy with its
            // masses zeroed. A joint held by neither body (every joint of a group hung from
            // two places or more, or from none, such as a ragdoll's) is projected as it is:
            // copying the whole constraint (216 bytes) for every joint and pass was 8 % of
            // the step of the joint_grid benchmark, whose joints are all held by neither.
            if c.held == Held::Neither {
                project(c, states, angles);
                continue;
            }
            let mut c = *c;
            match c.held {
                Held::A => (c.ma, c.ia) = (0.0, 0.0),
                Held::B => (c.mb, c.ib) = (0.0, 0.0),
                Held::Neither => {}
            }
            project(&c, states, angles);
        }
    }
}

/// One pass over one joint.
fn project(c: &JointConstraint, states: &mut [BodyState], angles: &mut [f32]) {
    let angular_mass = inverse(c.ia + c.ib);
    match c.kind {
        JointKind::Revolute(d) => {
            if d.enable_limit {
                let angle = Pose::of(c, states, angles).angle;
                let error = if angle < d.lower { angle - d.lower } else { (angle - d.upper).max(0.0) };
                turn(c, states, angles, -angular_mass * clamp_angle(error));
            }
            point(c, states, angles);
        }
        JointKind::Weld(d) => {
            if d.angular_hertz == 0.0 {
                let angle = Pose::of(c, states, angles).angle;
                turn(c, states, angles, -angular_mass * clamp_angle(angle));
            }
            if d.linear_hertz == 0.0 {
                point(c, states, angles);
            }
        }
        JointKind::Prismatic(d) => {
            if d.enable_limit {
                axis_limit(c, states, angles, d.lower, d.upper);
            }
            line_and_angle(c, states, angles);
        }
        JointKind::Wheel(d) => {
            if d.enable_limit {
                axis_limit(c, states, angles, d.lower, d.upper);
            }
            line(c, states, angles);
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
        }
        JointKind::Motor(_) | JointKind::Filter => {}
    }
}

/// The linear error (meters) of the joint's rigid parts that the projection corrects: the
/// anchors' distance, the distance off the axis line, a length beyond its limits or a
/// translation beyond them (angles are not counted).
pub(crate) fn linear_error(c: &JointConstraint, states: &[BodyState], angles: &[f32]) -> f32 {
    let pose = Pose::of(c, states, angles);
    let axis = states[c.a].dq.rotate(c.axis);
    let translation = axis.dot(pose.d);
    let beyond = |x: f32, on: bool, lower: f32, upper: f32| if on { (lower - x).max(x - upper).max(0.0) } else { 0.0 };
    match c.kind {
        JointKind::Revolute(_) => pose.d.length(),
        JointKind::Weld(d) if d.linear_hertz == 0.0 => pose.d.length(),
        JointKind::Prismatic(d) => {
            axis.perp_dot(pose.d).abs().max(beyond(translation, d.enable_limit, d.lower, d.upper))
        }
        JointKind::Wheel(d) => axis.perp_dot(pose.d).abs().max(beyond(translation, d.enable_limit, d.lower, d.upper)),
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
            states[i].dq = Rot::from_angle(angles[i]);
        }
    }
}

/// Turns B against A by an angular position impulse.
fn turn(c: &JointConstraint, states: &mut [BodyState], angles: &mut [f32], impulse: f32) {
    if impulse != 0.0 {
        shift(c, states, angles, Vec2::ZERO, impulse, impulse);
    }
}

/// Brings anchor B onto anchor A.
fn point(c: &JointConstraint, states: &mut [BodyState], angles: &mut [f32]) {
    let pose = Pose::of(c, states, angles);
    let mut error = pose.d;
    let length = error.length();
    if length > MAX_LINEAR_CORRECTION {
        error *= MAX_LINEAR_CORRECTION / length;
    }
    let (k11, k12, k22) = point_matrix(c, pose.ra, pose.rb);
    let p = -solve22(k11, k12, k22, error);
    shift(c, states, angles, p, pose.ra.perp_dot(p), pose.rb.perp_dot(p));
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

/// Holds the translation along the axis within `lower..=upper`.
fn axis_limit(c: &JointConstraint, states: &mut [BodyState], angles: &mut [f32], lower: f32, upper: f32) {
    let pose = Pose::of(c, states, angles);
    let axis = states[c.a].dq.rotate(c.axis);
    let translation = axis.dot(pose.d);
    let error = if translation < lower { translation - lower } else { (translation - upper).max(0.0) };
    if error == 0.0 {
        return;
    }
    let (a1, a2) = arms(&pose, axis);
    let mass = inverse(c.ma + c.mb + c.ia * a1 * a1 + c.ib * a2 * a2);
    let impulse = finite(-mass * clamp_linear(error));
    shift(c, states, angles, impulse * axis, impulse * a1, impulse * a2);
}

/// Brings anchor B onto the axis line (wheel).
fn line(c: &JointConstraint, states: &mut [BodyState], angles: &mut [f32]) {
    let pose = Pose::of(c, states, angles);
    let perp = states[c.a].dq.rotate(c.axis).perp();
    let (s1, s2) = arms(&pose, perp);
    let mass = inverse(c.ma + c.mb + c.ia * s1 * s1 + c.ib * s2 * s2);
    let impulse = finite(-mass * clamp_linear(perp.dot(pose.d)));
    shift(c, states, angles, impulse * perp, impulse * s1, impulse * s2);
}

/// Brings anchor B onto the axis line and B's angle onto A's (prismatic), together.
fn line_and_angle(c: &JointConstraint, states: &mut [BodyState], angles: &mut [f32]) {
    let pose = Pose::of(c, states, angles);
    let perp = states[c.a].dq.rotate(c.axis).perp();
    let (s1, s2) = arms(&pose, perp);
    let error = Vec2::new(clamp_linear(perp.dot(pose.d)), clamp_angle(pose.angle));
    let k11 = c.ma + c.mb + c.ia * s1 * s1 + c.ib * s2 * s2;
    let k12 = c.ia * s1 + c.ib * s2;
    let k22 = if c.ia + c.ib > 0.0 { c.ia + c.ib } else { 1.0 };
    let impulse = -solve22(k11, k12, k22, error);
    shift(c, states, angles, impulse.x * perp, impulse.x * s1 + impulse.y, impulse.x * s2 + impulse.y);
}
