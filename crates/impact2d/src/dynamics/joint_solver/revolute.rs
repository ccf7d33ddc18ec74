//! The revolute joint: anchor B held on anchor A (a 2×2 point constraint), with an angle
//! limit, a motor and a rotational spring on B's angle relative to A (Box2D v3's revolute
//! joint, solved as the soft step solves it).

use super::{JointConstraint, JointStep, Pose, apply, inverse, limit_row, motor_row, solve_point, spring_row};
use crate::dynamics::contact_solver::BodyState;
use crate::dynamics::joint::RevoluteDef;

/// Applies the accumulated impulses.
pub(super) fn warm_start(c: &mut JointConstraint, states: &mut [BodyState]) {
    let (sa, sb) = (&states[c.a], &states[c.b]);
    let (ra, rb) = (sa.dq.rotate(c.frame_a), sb.dq.rotate(c.frame_b));
    let i = c.impulses;
    let axial = i.spring + i.motor + i.lower - i.upper;
    apply(c, states, i.linear, ra.perp_dot(i.linear) + axial, rb.perp_dot(i.linear) + axial);
}

/// One pass: spring, motor, limits, then the point (the point last, so it wins).
pub(super) fn solve(
    c: &mut JointConstraint,
    d: &RevoluteDef,
    pose: &Pose,
    states: &mut [BodyState],
    step: JointStep,
    use_bias: bool,
) {
    let mass = inverse(c.ia + c.ib);
    let (a, b) = (c.a, c.b);
    let rate = |states: &[BodyState]| states[b].w - states[a].w;
    if let Some(s) = c.spring {
        let impulse = spring_row(pose.angle, rate(states), mass, &mut c.impulses.spring, s);
        apply(c, states, glam::Vec2::ZERO, impulse, impulse);
    }
    if d.enable_motor {
        let max = d.max_motor_torque * step.h;
        let impulse = motor_row(rate(states), d.motor_speed, mass, &mut c.impulses.motor, max);
        apply(c, states, glam::Vec2::ZERO, impulse, impulse);
    }
    if d.enable_limit {
        let impulse =
            limit_row(pose.angle - d.lower, rate(states), mass, &mut c.impulses.lower, c.rigid, step, use_bias);
        apply(c, states, glam::Vec2::ZERO, impulse, impulse);
        let impulse =
            limit_row(d.upper - pose.angle, -rate(states), mass, &mut c.impulses.upper, c.rigid, step, use_bias);
        apply(c, states, glam::Vec2::ZERO, -impulse, -impulse);
    }
    let soft = use_bias.then_some(c.rigid);
    solve_point(c, pose, states, soft);
}
