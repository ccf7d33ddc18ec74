//! Vectors, rotations, rigid transforms and sweeps in 3D.
//!
//! Units: meters for positions, radians for angles. Vectors are glam's `Vec3` and rotations
//! unit quaternions (`Quat`, f32). A [`Sweep`] moves a body over a step with constant linear
//! and angular velocity; its rotation vector may hold any number of turns.

use impact_core::cos_sin;

pub use glam::{Mat3, Quat, Vec3};

/// A rigid transform: a rotation `q` (unit quaternion) then a translation `p` (meters).
/// A body point `v` is at `p + q * v` in the world.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transform {
    /// Translation (meters).
    pub p: Vec3,
    /// Rotation (a unit quaternion).
    pub q: Quat,
}

impl Default for Transform {
    fn default() -> Transform {
        Transform::IDENTITY
    }
}

impl Transform {
    /// No rotation, no translation.
    pub const IDENTITY: Transform = Transform { p: Vec3::ZERO, q: Quat::IDENTITY };

    /// The transform at `p` (meters) turned by `q`.
    #[inline]
    pub fn new(p: Vec3, q: Quat) -> Transform {
        Transform { p, q }
    }

    /// The world position of body point `v` (meters).
    #[inline]
    pub fn apply(self, v: Vec3) -> Vec3 {
        self.p + self.q * v
    }

    /// The body point at world position `v` (meters).
    #[inline]
    pub fn inv_apply(self, v: Vec3) -> Vec3 {
        self.q.inverse() * (v - self.p)
    }

    /// This transform's inverse applied after `b`: the pose of `b` in this transform's frame.
    #[inline]
    pub fn inv_mul(self, b: Transform) -> Transform {
        let inverse = self.q.inverse();
        Transform { p: inverse * (b.p - self.p), q: inverse * b.q }
    }

    /// Whether every number is finite and the rotation is unit to f32 rounding.
    pub fn is_valid(&self) -> bool {
        // A quaternion with an infinite or NaN part has no finite length: the unit test
        // rejects it too.
        self.p.is_finite() && (self.q.length_squared() - 1.0).abs() <= 1.0e-5
    }
}

/// The quaternion of a turn by the rotation vector `v` (axis times angle, radians): the
/// exponential map, with a deterministic cosine and sine so that a sweep's poses are the
/// same bits on every platform. Any angle, including many turns.
#[inline]
pub fn quat_from_rotation_vector(v: Vec3) -> Quat {
    let angle = v.length();
    if angle == 0.0 || !angle.is_finite() {
        return Quat::IDENTITY;
    }
    let (c, s) = cos_sin(0.5 * angle);
    let axis = v / angle;
    Quat::from_xyzw(axis.x * s, axis.y * s, axis.z * s, c)
}

/// A body's motion over a step: its center of mass moves on a line and it turns at constant
/// angular velocity.
///
/// At normalized time `t` in [0, 1] the center is `c1 + t (c2 - c1)` and the orientation
/// `exp(t · rotation) ⊗ q1`, with `rotation` the turn over the whole step (axis times angle,
/// radians, in world axes). A body point `v` is then at `c(t) + R(q(t)) (v - local_center)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sweep {
    /// The center of mass in body coordinates (meters).
    pub local_center: Vec3,
    /// The world center of mass at t = 0 (meters).
    pub c1: Vec3,
    /// The world center of mass at t = 1 (meters).
    pub c2: Vec3,
    /// The orientation at t = 0 (a unit quaternion).
    pub q1: Quat,
    /// The turn over the step: axis times angle (radians, world axes).
    pub rotation: Vec3,
}

impl Sweep {
    /// A body that does not move, at `transform`.
    pub fn fixed(transform: Transform) -> Sweep {
        Sweep { local_center: Vec3::ZERO, c1: transform.p, c2: transform.p, q1: transform.q, rotation: Vec3::ZERO }
    }

    /// The orientation at normalized time `t`.
    #[inline]
    pub fn rotation_at(&self, t: f32) -> Quat {
        // Without a turn the exponential is the identity, and the identity times q1 is q1
        // exactly: skipping both gives the same bits.
        if self.rotation == Vec3::ZERO {
            return self.q1.normalize();
        }
        (quat_from_rotation_vector(self.rotation * t) * self.q1).normalize()
    }

    /// The body's transform at normalized time `t`.
    // Always inlined: the time of impact calls it at every step of its root finder, where a
    // call (its transform returned through memory) costs a good part of it.
    #[inline(always)]
    pub fn transform_at(&self, t: f32) -> Transform {
        let q = self.rotation_at(t);
        let c = self.c1 + (self.c2 - self.c1) * t;
        // A center of mass at the body's origin needs no turn (c - q * 0 is c, up to the sign
        // of a zero).
        let p = if self.local_center == Vec3::ZERO { c } else { c - q * self.local_center };
        Transform { p, q }
    }

    /// Whether every number is finite and `q1` is a unit quaternion.
    pub fn is_valid(&self) -> bool {
        // x - x is 0 for a finite x and NaN for an infinite or NaN one: one sum checks all
        // twelve numbers without a branch each (time of impact checks two sweeps a query).
        #[allow(clippy::eq_op)]
        let probe = (self.local_center - self.local_center)
            + (self.c1 - self.c1)
            + (self.c2 - self.c2)
            + (self.rotation - self.rotation);
        probe == Vec3::ZERO && Transform::new(Vec3::ZERO, self.q1).is_valid()
    }
}
