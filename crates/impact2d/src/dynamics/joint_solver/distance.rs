//! The distance joint: the distance between the anchors held at a rest length (rigid), or
//! pulled toward it by a spring, within a least and greatest length (a rope), with a motor on
//! its rate of change (Box2D v3's distance joint, solved as the soft step solves it).

use super::{
    JointConstraint, JointStep, Pose, apply, inverse, limit_row, motor_row, relative_velocity, rigid_row, spring_row,
};
use crate::dynamics::contact_solver::BodyState;
use crate::dynamics::joint::{DistanceDef, JointImpulses};
use glam::Vec2;

/// The accumulated impulse along the axis (N·s per sub-step), pulling B toward A when
/// negative.
pub(super) fn axial(i: &JointImpulses) -> f32 {
    i.spring + i.motor + i.lower - i.upper
}

/// Applies the accumulated impulses.
pub(super) fn warm_start(c: &mut JointConstraint, states: &mut [BodyState]) {
    let pose = Pose::of(c, states, &[]);
    let p = axial(&c.impulses) * pose.d.normalize_or_zero();
    apply(c, states, p, pose.ra.perp_dot(p), pose.rb.perp_dot(p));
}

/// An impulse along `axis` at the anchors.
fn apply_axial(c: &JointConstraint, states: &mut [BodyState], pose: &Pose, axis: Vec2, impulse: f32) {
    let p = impulse * axis;
    apply(c, states, p, pose.ra.perp_dot(p), pose.rb.perp_dot(p));
}

/// One pass: the rigid length or the spring, the limits, the motor.
pub(super) fn solve(
    c: &mut JointConstraint,
    d: &DistanceDef,
    pose: &Pose,
    states: &mut [BodyState],
    step: JointStep,
    use_bias: bool,
) {
    let length = pose.d.length();
    let axis = pose.d.normalize_or_zero();
    let (ca, cb) = (pose.ra.perp_dot(axis), pose.rb.perp_dot(axis));
    let mass = inverse(c.ma + c.mb + c.ia * ca * ca + c.ib * cb * cb);
    let rate = |c: &JointConstraint, states: &[BodyState]| axis.dot(relative_velocity(c, states, pose.ra, pose.rb));
    if !d.enable_spring {
        let r = rate(c, states);
        let impulse = rigid_row(length - c.length, r, mass, &mut c.impulses.spring, c.rigid, use_bias);
        apply_axial(c, states, pose, axis, impulse);
    } else if let Some(s) = c.spring {
        let r = rate(c, states);
        let impulse = spring_row(length - c.length, r, mass, &mut c.impulses.spring, s);
        apply_axial(c, states, pose, axis, impulse);
    }
    if d.enable_limit {
        let r = rate(c, states);
        let impulse = limit_row(length - d.min_length, r, mass, &mut c.impulses.lower, c.rigid, step, use_bias);
        apply_axial(c, states, pose, axis, impulse);
        let r = rate(c, states);
        let impulse = limit_row(d.max_length - length, -r, mass, &mut c.impulses.upper, c.rigid, step, use_bias);
        apply_axial(c, states, pose, axis, -impulse);
    }
    if d.enable_motor && d.enable_spring {
        let r = rate(c, states);
        let impulse = motor_row(r, d.motor_speed, mass, &mut c.impulses.motor, d.max_motor_force * step.h);
        apply_axial(c, states, pose, axis, impulse);
    }
}
