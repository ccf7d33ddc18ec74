//! The prismatic joint: anchor B held on the line through anchor A along an axis fixed in A,
//! and B's angle on A's (a 2×2 block), with translation limits, a motor and a spring along
//! the axis (Box2D v3's prismatic joint, solved as the soft step solves it).

use super::{JointConstraint, JointStep, Pose, apply, inverse, limit_row, motor_row, solve22, spring_row};
use crate::dynamics::contact_solver::BodyState;
use crate::dynamics::joint::{JointImpulses, PrismaticDef};
use glam::Vec2;

/// The accumulated impulse along the axis (N·s per sub-step): spring, motor and limits.
pub(super) fn axial(i: &JointImpulses) -> f32 {
    i.spring + i.motor + i.lower - i.upper
}

/// The axis now and the lever arms of an impulse along a direction `u` at the joint:
/// `((d + ra) × u, rb × u)`.
pub(super) fn arms(pose: &Pose, u: Vec2) -> (f32, f32) {
    ((pose.d + pose.ra).perp_dot(u), pose.rb.perp_dot(u))
}

/// Applies the accumulated impulses.
pub(super) fn warm_start(c: &mut JointConstraint, states: &mut [BodyState]) {
    let pose = super::Pose::of(c, states, &[]);
    let axis = states[c.a].dq.rotate(c.axis);
    let perp = axis.perp();
    let i = c.impulses;
    let (a1, a2) = arms(&pose, axis);
    let (s1, s2) = arms(&pose, perp);
    let axial = axial(&i);
    let p = axial * axis + i.linear.x * perp;
    apply(c, states, p, axial * a1 + i.linear.x * s1 + i.linear.y, axial * a2 + i.linear.x * s2 + i.linear.y);
}

/// The rate of the translation along `u` with arms `(a1, a2)` (m/s).
pub(super) fn rate_along(c: &JointConstraint, states: &[BodyState], u: Vec2, (a1, a2): (f32, f32)) -> f32 {
    let (sa, sb) = (&states[c.a], &states[c.b]);
    u.dot(sb.v - sa.v) + a2 * sb.w - a1 * sa.w
}

/// The effective mass along `u` with arms `(a1, a2)` (kg).
pub(super) fn mass_along(c: &JointConstraint, (a1, a2): (f32, f32)) -> f32 {
    inverse(c.ma + c.mb + c.ia * a1 * a1 + c.ib * a2 * a2)
}

/// Applies an impulse `impulse` along `u` with arms `(a1, a2)`.
pub(super) fn apply_along(c: &JointConstraint, states: &mut [BodyState], u: Vec2, (a1, a2): (f32, f32), impulse: f32) {
    apply(c, states, impulse * u, impulse * a1, impulse * a2);
}

/// The rows along the axis shared with the wheel joint: spring (if any), motor, limits.
pub(super) struct AxisRows {
    pub enable_motor: bool,
    pub motor_speed: f32,
    pub max_motor_force: f32,
    pub enable_limit: bool,
    pub lower: f32,
    pub upper: f32,
}

/// One pass of the rows along the axis (`AxisRows`), then nothing else.
pub(super) fn solve_axis(
    c: &mut JointConstraint,
    rows: &AxisRows,
    pose: &Pose,
    states: &mut [BodyState],
    step: JointStep,
    use_bias: bool,
) {
    let axis = states[c.a].dq.rotate(c.axis);
    let arms = arms(pose, axis);
    let mass = mass_along(c, arms);
    let translation = axis.dot(pose.d);
    if let Some(s) = c.spring {
        let impulse = spring_row(translation, rate_along(c, states, axis, arms), mass, &mut c.impulses.spring, s);
        apply_along(c, states, axis, arms, impulse);
    }
    if rows.enable_motor {
        let max = rows.max_motor_force * step.h;
        let rate = rate_along(c, states, axis, arms);
        let impulse = motor_row(rate, rows.motor_speed, mass, &mut c.impulses.motor, max);
        apply_along(c, states, axis, arms, impulse);
    }
    if rows.enable_limit {
        let rate = rate_along(c, states, axis, arms);
        let impulse = limit_row(translation - rows.lower, rate, mass, &mut c.impulses.lower, c.rigid, step, use_bias);
        apply_along(c, states, axis, arms, impulse);
        let rate = rate_along(c, states, axis, arms);
        let impulse = limit_row(rows.upper - translation, -rate, mass, &mut c.impulses.upper, c.rigid, step, use_bias);
        apply_along(c, states, axis, arms, -impulse);
    }
}

/// One pass: the rows along the axis, then the line and the angle together.
pub(super) fn solve(
    c: &mut JointConstraint,
    d: &PrismaticDef,
    pose: &Pose,
    states: &mut [BodyState],
    step: JointStep,
    use_bias: bool,
) {
    let rows = AxisRows {
        enable_motor: d.enable_motor,
        motor_speed: d.motor_speed,
        max_motor_force: d.max_motor_force,
        enable_limit: d.enable_limit,
        lower: d.lower,
        upper: d.upper,
    };
    solve_axis(c, &rows, pose, states, step, use_bias);
    let perp = states[c.a].dq.rotate(c.axis).perp();
    let (s1, s2) = arms(pose, perp);
    let cdot = Vec2::new(rate_along(c, states, perp, (s1, s2)), states[c.b].w - states[c.a].w);
    let (bias, mass_scale, impulse_scale) = if use_bias {
        let error = Vec2::new(perp.dot(pose.d), pose.angle);
        (c.rigid.bias_rate * error, c.rigid.mass_scale, c.rigid.impulse_scale)
    } else {
        (Vec2::ZERO, 1.0, 0.0)
    };
    let k11 = c.ma + c.mb + c.ia * s1 * s1 + c.ib * s2 * s2;
    let k12 = c.ia * s1 + c.ib * s2;
    let k22 = if c.ia + c.ib > 0.0 { c.ia + c.ib } else { 1.0 };
    let impulse = -mass_scale * solve22(k11, k12, k22, cdot + bias) - impulse_scale * c.impulses.linear;
    let total = c.impulses.linear + impulse;
    if !total.is_finite() {
        return;
    }
    c.impulses.linear = total;
    apply(c, states, impulse.x * perp, impulse.x * s1 + impulse.y, impulse.x * s2 + impulse.y);
}
