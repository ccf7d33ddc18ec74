//! The motor joint (Box2D v3's): B's center of mass driven toward a point fixed in A's frame
//! and B's angle toward A's plus an offset, by velocity rows that ask for a fraction of the
//! error per sub-step (the correction factor) with the force and torque bounded. With A
//! static, the mouse joint's job.

use super::{JointConstraint, JointStep, Pose, apply, finite, inverse, point_matrix, relative_velocity, solve22};
use crate::dynamics::body::reduce_angle;
use crate::dynamics::contact_solver::BodyState;
use crate::dynamics::joint::MotorDef;

/// Applies the accumulated impulses.
pub(super) fn warm_start(c: &mut JointConstraint, states: &mut [BodyState]) {
    let (sa, sb) = (&states[c.a], &states[c.b]);
    let (ra, rb) = (sa.dq.rotate(c.frame_a), sb.dq.rotate(c.frame_b));
    let i = c.impulses;
    apply(c, states, i.linear, ra.perp_dot(i.linear) + i.angular, rb.perp_dot(i.linear) + i.angular);
}

/// One pass: the angle, then the point, each within its bound.
pub(super) fn solve(c: &mut JointConstraint, d: &MotorDef, pose: &Pose, states: &mut [BodyState], step: JointStep) {
    let factor = d.correction_factor * step.inv_h;
    let rate = states[c.b].w - states[c.a].w;
    let impulse = -inverse(c.ia + c.ib) * (rate + factor * reduce_angle(pose.angle));
    let max = d.max_torque * step.h;
    let old = c.impulses.angular;
    c.impulses.angular = finite((old + impulse).clamp(-max, max));
    let impulse = c.impulses.angular - old;
    apply(c, states, glam::Vec2::ZERO, impulse, impulse);

    let (ra, rb) = (pose.ra, pose.rb);
    let cdot = relative_velocity(c, states, ra, rb);
    let (k11, k12, k22) = point_matrix(c, ra, rb);
    let impulse = -solve22(k11, k12, k22, cdot + factor * pose.d);
    let old = c.impulses.linear;
    let mut total = old + impulse;
    let max = d.max_force * step.h;
    if total.length_squared() > max * max {
        total = total.normalize_or_zero() * max;
    }
    if !total.is_finite() {
        return;
    }
    c.impulses.linear = total;
    let impulse = total - old;
    apply(c, states, impulse, ra.perp_dot(impulse), rb.perp_dot(impulse));
}
