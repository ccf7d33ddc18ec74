//! The motion model of each algorithm, evaluated in f64 from exactly the f32 values that
//! algorithm receives, for the brute-force reference (signed distance by enumeration, first
//! crossing by Lipschitz conservative advancement: see reference.rs in impact2d's tests).
//!
//! * impact's `time_of_impact`: the center moves linearly from c1 to c2 and the angle turns
//!   at a constant rate from a1 to a2 (any number of turns).
//! * parry's `sweep_time_of_impact` (Box2D v3's model): the center moves linearly, the
//!   rotation is the normalized linear interpolation (nlerp) of the end rotations q1 and q2,
//!   which takes the short way round and turns fastest mid-step.
//! * parry's `cast_shapes_nonlinear`: constant linear and angular velocity about the world
//!   center of mass of the start pose: the same motion as impact's, expressed as a start
//!   pose plus velocities.

use super::cases::Body;
use super::reference::{D2, Pose, RefShape, d2};

/// A point moves at most `center_speed` plus `turn_rate` × its distance from the center of
/// mass (per unit of normalized time).
#[derive(Clone, Copy, Debug)]
pub enum Model {
    /// impact's: linear center, constant angular rate.
    Constant { lc: D2, c1: D2, c2: D2, a1: f64, a2: f64 },
    /// parry's sweep: linear center, nlerp of (cos, sin) pairs.
    Nlerp { lc: D2, c1: D2, c2: D2, q1: D2, q2: D2 },
    /// parry's nonlinear cast: start pose (origin p0, rotation q0 as (cos, sin)), local center,
    /// linear velocity v and angular velocity w (per unit time).
    Velocity { p0: D2, q0: D2, lc: D2, v: D2, w: f64 },
}

fn mul(q: D2, r: D2) -> D2 {
    d2(q.x * r.x - q.y * r.y, q.x * r.y + q.y * r.x)
}

fn rot(q: D2, v: D2) -> D2 {
    v.rotate(q.x, q.y)
}

impl Model {
    /// The pose of the shape frame at normalized time t.
    pub fn pose_at(&self, t: f64) -> Pose {
        match *self {
            Model::Constant { lc, c1, c2, a1, a2 } => {
                let (s, c) = (a1 + t * (a2 - a1)).sin_cos();
                Pose { p: c1 + (c2 - c1) * t - lc.rotate(c, s), c, s }
            }
            Model::Nlerp { lc, c1, c2, q1, q2 } => {
                let q = (q1 * (1.0 - t) + q2 * t).normalized();
                Pose { p: c1 + (c2 - c1) * t - rot(q, lc), c: q.x, s: q.y }
            }
            Model::Velocity { p0, q0, lc, v, w } => {
                let center = p0 + rot(q0, lc);
                let r = d2((w * t).cos(), (w * t).sin());
                let q = mul(r, q0);
                Pose { p: center + v * t + rot(r, p0 - center), c: q.x, s: q.y }
            }
        }
    }

    /// The velocity of the center of mass (constant, per unit time).
    pub fn center_velocity(&self) -> D2 {
        match *self {
            Model::Constant { c1, c2, .. } | Model::Nlerp { c1, c2, .. } => c2 - c1,
            Model::Velocity { v, .. } => v,
        }
    }

    /// An upper bound of the angular speed over the step (radians per unit time).
    ///
    /// For nlerp, q(t) = p(t)/|p(t)| with p(t) = (1 − t) q1 + t q2 a point of the chord: its
    /// angle turns at |q1 × q2| / |p(t)|², largest where p is nearest the origin, so the bound
    /// is |q1 × q2| / d² with d the distance from the origin to the chord (2 tan(θ/2) for unit
    /// q1, q2 θ apart: 3.1 rad for θ = 2 rad, 28 rad for θ = 3 rad). Infinite when the chord
    /// passes through the origin (half-turns, which the families never draw).
    pub fn turn_rate(&self) -> f64 {
        match *self {
            Model::Constant { a1, a2, .. } => (a2 - a1).abs(),
            Model::Nlerp { q1, q2, .. } => {
                let e = q2 - q1;
                let s = if e.len2() > 0.0 { (-q1.dot(e) / e.len2()).clamp(0.0, 1.0) } else { 0.0 };
                let d = (q1 + e * s).len();
                if d > 0.0 { q1.cross(q2).abs() / (d * d) } else { f64::INFINITY }
            }
            Model::Velocity { w, q0, .. } => w.abs() * q0.len(),
        }
    }

    /// The farthest hull point from the center of mass (meters): the arm of `turn_rate`.
    pub fn arm(&self, shape: &RefShape) -> f64 {
        match *self {
            Model::Constant { lc, .. } | Model::Nlerp { lc, .. } | Model::Velocity { lc, .. } => {
                shape.max_dist_from(lc)
            }
        }
    }
}

fn w(p: [f32; 2]) -> D2 {
    d2(p[0] as f64, p[1] as f64)
}

/// impact's model of a body: the f32 sweep widened.
pub fn constant(b: &Body) -> Model {
    Model::Constant { lc: w(b.local_center), c1: w(b.c1), c2: w(b.c2), a1: b.a1 as f64, a2: b.a2 as f64 }
}

/// parry's sweep model of a body, from the f32 rotations it is given.
pub fn nlerp(b: &Body, q1: [f32; 2], q2: [f32; 2]) -> Model {
    Model::Nlerp { lc: w(b.local_center), c1: w(b.c1), c2: w(b.c2), q1: w(q1), q2: w(q2) }
}

/// parry's nonlinear model of a body, from the f32 start pose and velocities it is given.
pub fn velocity(p0: [f32; 2], q0: [f32; 2], lc: [f32; 2], v: [f32; 2], angvel: f32) -> Model {
    Model::Velocity { p0: w(p0), q0: w(q0), lc: w(lc), v: w(v), w: angvel as f64 }
}

/// A moving pair under one model: signed surface distance over time and its Lipschitz bound.
pub struct Pair {
    /// The shapes of A and B (f64).
    pub a: RefShape,
    pub b: RefShape,
    /// Their motions.
    pub ma: Model,
    pub mb: Model,
}

impl Pair {
    /// Signed surface distance at t (meters; negative: depth).
    pub fn sd_at(&self, t: f64) -> f64 {
        super::reference::signed_distance(&self.a, &self.ma.pose_at(t), &self.b, &self.mb.pose_at(t)).sd
    }

    /// |sd'(t)| ≤ this over the step: relative center speed plus each turn rate times its arm.
    pub fn lipschitz(&self) -> f64 {
        (self.mb.center_velocity() - self.ma.center_velocity()).len()
            + self.ma.turn_rate() * self.ma.arm(&self.a)
            + self.mb.turn_rate() * self.mb.arm(&self.b)
    }

    /// The first time in [0, 1] at which sd ≤ threshold (rigorous).
    pub fn first_below(&self, threshold: f64) -> super::reference::Crossing {
        super::reference::first_below(|t| self.sd_at(t), self.lipschitz(), threshold, 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// The nlerp rate bound holds: the angle of q(t), sampled finely, never turns faster.
    #[test]
    fn nlerp_turn_rate_bounds_the_sampled_rate() {
        let mut rng = Rng::new(1);
        for _ in 0..2000 {
            let (a1, turn) = (rng.angle(), rng.range(-3.0, 3.0));
            let q = |a: f64| d2(a.cos() as f32 as f64, a.sin() as f32 as f64);
            let m = Model::Nlerp { lc: d2(0.0, 0.0), c1: d2(0.0, 0.0), c2: d2(0.0, 0.0), q1: q(a1), q2: q(a1 + turn) };
            let bound = m.turn_rate();
            let n = 2000;
            let angle = |t: f64| {
                let p = m.pose_at(t);
                p.s.atan2(p.c)
            };
            for k in 0..n {
                let (t0, t1) = (k as f64 / n as f64, (k + 1) as f64 / n as f64);
                let mut d = angle(t1) - angle(t0);
                d -= std::f64::consts::TAU * (d / std::f64::consts::TAU).round();
                assert!(
                    d.abs() / (t1 - t0) <= bound * (1.0 + 1e-9) + 1e-9,
                    "turn {turn}: {} > {bound}",
                    d.abs() * n as f64
                );
            }
            // Tight: mid-step it turns at nearly the bound.
            assert!((angle(0.5 + 1e-6) - angle(0.5 - 1e-6)).abs() / 2e-6 > 0.99 * bound);
        }
    }

    /// The velocity model is the constant-rate model written from a pose.
    #[test]
    fn velocity_model_matches_constant_rate() {
        let c = Model::Constant { lc: d2(0.3, -0.2), c1: d2(1.0, 2.0), c2: d2(-1.0, 0.5), a1: 0.4, a2: 2.9 };
        let q0 = d2(0.4f64.cos(), 0.4f64.sin());
        let p0 = d2(1.0, 2.0) - rot(q0, d2(0.3, -0.2));
        let v = Model::Velocity { p0, q0, lc: d2(0.3, -0.2), v: d2(-2.0, -1.5), w: 2.5 };
        for k in 0..=10 {
            let t = k as f64 / 10.0;
            let (a, b) = (c.pose_at(t), v.pose_at(t));
            assert!(a.p.dist(b.p) < 1e-12 && (a.c - b.c).abs() < 1e-12 && (a.s - b.s).abs() < 1e-12);
        }
    }
}
