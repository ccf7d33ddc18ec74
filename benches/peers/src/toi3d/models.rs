//! The motion model of each algorithm in f64, from exactly the f32 values that algorithm
//! receives, and the brute-force reference over a step: the signed gap between the posed
//! shapes by enumeration (`support/mod.rs` of impact3d's tests: exact distance of the cores,
//! exact depth when they overlap) and its first crossing of a threshold by Lipschitz
//! conservative advancement, which cannot step over a dip.
//!
//! * impact's `time_of_impact` (`Sweep`): the center of mass moves from c1 to c2 on a line,
//!   the orientation is exp(t · rotation) ⊗ q1 (constant angular velocity in world axes), and
//!   body point v sits at c(t) + R(q(t)) (v − local_center).
//! * parry3d's `cast_shapes_nonlinear` (`NonlinearRigidMotion`): a start pose (p0, q0), a
//!   local center, linear velocity v and angular velocity w (per unit time). Its
//!   `position_at_time` composes shift(center) · (v t, exp(w t)) · shift(center)⁻¹ · start,
//!   with center = start · local_center: body point x sits at center + v t + exp(w t)
//!   (p0 + q0 x − center). With p0 = c1 − q1 local_center, v = c2 − c1 and w = rotation this
//!   is impact's model; the peers' tests check that both libraries' f32 poses agree with it.
//! * parry3d's `sweep_time_of_impact` (`Sweep`, the Box2D v3 port): the center moves on a
//!   line, the orientation is the normalized linear interpolation (nlerp) of the end
//!   quaternions q1 and q2, q1 negated first when q1·q2 < 0 (the short way round): a turn of
//!   more than π per step is taken the other way, and the rate is fastest mid-step.

use super::support::{core_depth, core_distance};
use glam::{DQuat, DVec3};
use impact3d::{Quat, ShapeProxy, Sweep, Vec3};

/// A body's motion over the step (f64).
#[derive(Clone, Copy, Debug)]
pub enum Model {
    /// impact's sweep.
    Sweep { lc: DVec3, c1: DVec3, c2: DVec3, q1: DQuat, rotation: DVec3 },
    /// parry's constant velocities from a start pose.
    Velocity { p0: DVec3, q0: DQuat, lc: DVec3, v: DVec3, w: DVec3 },
    /// parry's sweep: nlerp from q1 (already on q2's side) to q2.
    Nlerp { lc: DVec3, c1: DVec3, c2: DVec3, q1: DQuat, q2: DQuat },
}

fn w(v: Vec3) -> DVec3 {
    v.as_dvec3()
}

fn wq(q: Quat) -> DQuat {
    q.as_dquat().normalize()
}

impl Model {
    /// impact's model of a sweep.
    pub fn sweep(s: &Sweep) -> Model {
        Model::Sweep { lc: w(s.local_center), c1: w(s.c1), c2: w(s.c2), q1: wq(s.q1), rotation: w(s.rotation) }
    }

    /// parry's model of a motion given as f32 values (glam 0.34 vectors; parry's own glam
    /// differs, the numbers are the same).
    pub fn velocity(p0: Vec3, q0: Quat, lc: Vec3, v: Vec3, angvel: Vec3) -> Model {
        Model::Velocity { p0: w(p0), q0: wq(q0), lc: w(lc), v: w(v), w: w(angvel) }
    }

    /// parry's sweep model, from the f32 values its `Sweep` holds (q1 negated as parry's
    /// nlerp does when q1·q2 < 0; the quaternions as given, not renormalized).
    pub fn nlerp(lc: Vec3, c1: Vec3, c2: Vec3, q1: Quat, q2: Quat) -> Model {
        let (q1, q2) = (q1.as_dquat(), q2.as_dquat());
        let q1 = if q1.dot(q2) < 0.0 { -q1 } else { q1 };
        Model::Nlerp { lc: w(lc), c1: w(c1), c2: w(c2), q1, q2 }
    }

    /// Where body point `x` is at time t.
    pub fn place(&self, t: f64, x: DVec3) -> DVec3 {
        match *self {
            Model::Sweep { lc, c1, c2, q1, rotation } => {
                let q = DQuat::from_scaled_axis(rotation * t) * q1;
                c1 + (c2 - c1) * t + q * (x - lc)
            }
            Model::Velocity { p0, q0, lc, v, w } => {
                let center = p0 + q0 * lc;
                center + v * t + DQuat::from_scaled_axis(w * t) * (p0 + q0 * x - center)
            }
            Model::Nlerp { lc, c1, c2, q1, q2 } => {
                let q = (q1 * (1.0 - t) + q2 * t).normalize();
                c1 + (c2 - c1) * t + q * (x - lc)
            }
        }
    }

    /// The velocity of the center of mass (per unit time).
    fn center_velocity(&self) -> DVec3 {
        match *self {
            Model::Sweep { c1, c2, .. } | Model::Nlerp { c1, c2, .. } => c2 - c1,
            Model::Velocity { v, .. } => v,
        }
    }

    /// The largest speed of a body point `reach` meters from the center of mass.
    ///
    /// For nlerp, q = p/|p| with p(t) = (1 − t) q1 + t q2 on the chord: |q̇| ≤ |ṗ|/|p| =
    /// |q2 − q1|/|p|, and the angular speed of a unit quaternion's rotation is 2|q̇|, so the
    /// bound is 2|q2 − q1|/d with d the distance from the origin to the chord (4 tan(θ/4) for
    /// a turn of θ).
    fn speed(&self, reach: f64) -> f64 {
        let turn = match *self {
            Model::Sweep { rotation, .. } => rotation.length(),
            Model::Velocity { w, .. } => w.length(),
            Model::Nlerp { q1, q2, .. } => {
                let (a, e) = (glam::DVec4::from(q1), glam::DVec4::from(q2) - glam::DVec4::from(q1));
                let s = if e.length_squared() > 0.0 { (-a.dot(e) / e.length_squared()).clamp(0.0, 1.0) } else { 0.0 };
                let d = (a + e * s).length();
                if d > 0.0 { 2.0 * e.length() / d } else { f64::INFINITY }
            }
        };
        turn * reach
    }

    fn local_center(&self) -> DVec3 {
        match *self {
            Model::Sweep { lc, .. } | Model::Velocity { lc, .. } | Model::Nlerp { lc, .. } => lc,
        }
    }
}

/// One shape of the reference: core points (f64, body frame) and radius.
#[derive(Clone, Debug)]
pub struct RefShape {
    pub points: Vec<DVec3>,
    pub radius: f64,
}

impl RefShape {
    pub fn new(p: &ShapeProxy) -> RefShape {
        RefShape { points: p.points().iter().map(|v| v.as_dvec3()).collect(), radius: p.radius() as f64 }
    }
}

/// A crossing search's result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Crossing {
    /// The first time at which the gap is at or below the threshold (within [`ETA`]); None
    /// when it stays above over the whole step.
    pub t: Option<f64>,
    /// The search ran out of steps: the answer is unknown.
    pub capped: bool,
}

/// How close to the threshold the search must come to call it a crossing (meters).
const ETA: f64 = 1.0e-8;
/// Step cap of the search.
const MAX_STEPS: u32 = 200_000;

/// Signed gap between two sets of posed core points, less the radii (negative: depth).
pub fn signed_gap(a: &[DVec3], b: &[DVec3], radii: f64) -> f64 {
    let d = core_distance(a, b);
    if d > 0.0 { d - radii } else { -core_depth(a, b) - radii }
}

/// A moving pair under one model.
pub struct Pair<'a> {
    pub a: &'a RefShape,
    pub b: &'a RefShape,
    pub ma: Model,
    pub mb: Model,
}

impl Pair<'_> {
    /// The signed surface gap at t (meters).
    pub fn gap(&self, t: f64) -> f64 {
        let pa: Vec<DVec3> = self.a.points.iter().map(|x| self.ma.place(t, *x)).collect();
        let pb: Vec<DVec3> = self.b.points.iter().map(|x| self.mb.place(t, *x)).collect();
        signed_gap(&pa, &pb, self.a.radius + self.b.radius)
    }

    /// |gap'(t)| ≤ this over the step: the relative center speed plus each body's turn rate
    /// times its farthest core point from its center of mass.
    pub fn lipschitz(&self) -> f64 {
        let reach = |s: &RefShape, m: &Model| s.points.iter().fold(0.0f64, |r, p| r.max(p.distance(m.local_center())));
        (self.mb.center_velocity() - self.ma.center_velocity()).length()
            + self.ma.speed(reach(self.a, &self.ma))
            + self.mb.speed(reach(self.b, &self.mb))
    }

    /// The first time in [0, 1] at which the gap is at or below `threshold` (rigorous).
    pub fn first_below(&self, threshold: f64) -> Crossing {
        let l = self.lipschitz();
        let mut t = 0.0;
        for _ in 0..MAX_STEPS {
            let g = self.gap(t);
            if g <= threshold + ETA {
                return Crossing { t: Some(t), capped: false };
            }
            if l <= 0.0 {
                return Crossing { t: None, capped: false };
            }
            t += (g - threshold) / l;
            if t > 1.0 {
                return Crossing { t: None, capped: false };
            }
        }
        Crossing { t: None, capped: true }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The nlerp rate bound holds: the rotation between finely sampled orientations never
    /// turns faster, and mid-step it is nearly reached.
    #[test]
    fn nlerp_turn_rate_bounds_the_sampled_rate() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..500 {
            let mut unit = || {
                Vec3::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0))
                    .normalize_or(Vec3::X)
            };
            let (a, b) = (unit(), unit());
            let q1 = Quat::from_axis_angle(a, 2.0);
            let turn = 3.0 * b.x.abs();
            let q2 = (Quat::from_axis_angle(b, turn) * q1).normalize();
            let m = Model::nlerp(Vec3::ZERO, Vec3::ZERO, Vec3::ZERO, q1, q2);
            let bound = m.speed(1.0);
            let Model::Nlerp { q1, q2, .. } = m else { unreachable!() };
            let q = |t: f64| (q1 * (1.0 - t) + q2 * t).normalize();
            // The angle of the rotation from q(s) to q(t), well conditioned when small.
            let angle = |s: f64, t: f64| {
                let d = q(s).conjugate() * q(t);
                2.0 * d.xyz().length().atan2(d.w.abs())
            };
            let n = 1000;
            for k in 0..n {
                let (t0, t1) = (k as f64 / n as f64, (k + 1) as f64 / n as f64);
                let a = angle(t0, t1);
                assert!(a / (t1 - t0) <= bound * (1.0 + 1e-9) + 1e-12, "{} > {bound}", a * n as f64);
            }
            let mid = angle(0.5 - 1e-6, 0.5 + 1e-6) / 2e-6;
            assert!(mid > 0.99 * bound || bound < 1e-6, "{mid} vs {bound}");
        }
    }
}
