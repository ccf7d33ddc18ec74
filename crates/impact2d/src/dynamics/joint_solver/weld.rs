//! The weld joint: B's anchor held on A's and B's angle on A's, each rigid (a soft
//! constraint of the joint stiffness, with bias only in the solve pass) or soft (the user's
//! spring, in both passes), as Box2D v3's weld joint.

use super::{JointConstraint, Pose, apply, inverse, solve_point, spring_row};
use crate::dynamics::contact_solver::{BodyState, Softness};

/// Applies the accumulated impulses.
pub(super) fn warm_start(c: &mut JointConstraint, states: &mut [BodyState]) {
    let (sa, sb) = (&states[c.a], &states[c.b]);
    let (ra, rb) = (sa.dq.rotate(c.frame_a), sb.dq.rotate(c.frame_b));
    let i = c.impulses;
    apply(c, states, i.linear, ra.perp_dot(i.linear) + i.angular, rb.perp_dot(i.linear) + i.angular);
}

/// One pass: the angle, then the point.
pub(super) fn solve(c: &mut JointConstraint, pose: &Pose, states: &mut [BodyState], use_bias: bool) {
    let none = Softness { bias_rate: 0.0, mass_scale: 1.0, impulse_scale: 0.0 };
    let angular = c.angular_spring.or(use_bias.then_some(c.rigid)).unwrap_or(none);
    let rate = states[c.b].w - states[c.a].w;
    let impulse = spring_row(pose.angle, rate, inverse(c.ia + c.ib), &mut c.impulses.angular, angular);
    apply(c, states, glam::Vec2::ZERO, impulse, impulse);
    let linear = c.spring.or(use_bias.then_some(c.rigid));
    solve_point(c, pose, states, linear);
}
