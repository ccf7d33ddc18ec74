//! The wheel joint: anchor B held on the line through anchor A along a suspension axis fixed
//! in A (one row), with a spring and limits along the axis and a motor on B's rotation
//! relative to A; B turns freely (Box2D v3's wheel joint, solved as the soft step solves it).

use super::prismatic::{AxisRows, arms, rate_along, solve_axis};
use super::{JointConstraint, JointStep, Pose, apply, inverse, motor_row, rigid_row};
use crate::dynamics::contact_solver::BodyState;
use crate::dynamics::joint::{JointImpulses, WheelDef};

/// The accumulated impulse along the axis (N·s per sub-step): spring and limits.
pub(super) fn axial(i: &JointImpulses) -> f32 {
    i.spring + i.lower - i.upper
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
    apply(c, states, p, axial * a1 + i.linear.x * s1 + i.motor, axial * a2 + i.linear.x * s2 + i.motor);
}

/// One pass: the motor, the rows along the axis (spring, limits), then the line.
pub(super) fn solve(
    c: &mut JointConstraint,
    d: &WheelDef,
    pose: &Pose,
    states: &mut [BodyState],
    step: JointStep,
    use_bias: bool,
) {
    if d.enable_motor {
        let rate = states[c.b].w - states[c.a].w;
        let max = d.max_motor_torque * step.h;
        let impulse = motor_row(rate, d.motor_speed, inverse(c.ia + c.ib), &mut c.impulses.motor, max);
        apply(c, states, glam::Vec2::ZERO, impulse, impulse);
    }
    let rows = AxisRows {
        enable_motor: false,
        motor_speed: 0.0,
        max_motor_force: 0.0,
        enable_limit: d.enable_limit,
        lower: d.lower,
        upper: d.upper,
    };
    solve_axis(c, &rows, pose, states, step, use_bias);
    let perp = states[c.a].dq.rotate(c.axis).perp();
    let arms = arms(pose, perp);
    let mass = super::prismatic::mass_along(c, arms);
    let rate = rate_along(c, states, perp, arms);
    let impulse = rigid_row(perp.dot(pose.d), rate, mass, &mut c.impulses.linear.x, c.rigid, use_bias);
    super::prismatic::apply_along(c, states, perp, arms, impulse);
}
