//! Vectors, rotations, rigid transforms and sweeps.
//!
//! Units: meters for positions, radians for angles. Vectors are glam's `Vec2` (f32).
//! Rotations are kept as (cos, sin) pairs; angles only appear in [`Sweep`], where a body's
//! rotation over a step is linear in time (constant angular velocity) and may exceed a turn.

pub use glam::Vec2;
use glam::Vec4;
pub use impact_core::cos_sin;
use impact_core::trig::{PIO2_1, PIO2_2, PIO2_3};

/// A rotation in the plane, stored as the cosine and sine of its angle.
///
/// Invariant: `c * c + s * s = 1` to float precision. [`Rot::from_angle`] (for a finite
/// angle), [`Rot::new`] and [`Rot::normalized`] produce unit rotations; the fields are public
/// for reading and for literal rotations, and a rotation written field by field is trusted
/// only as far as its readers check it: the queries refuse one farther than 1e-4 from unit
/// length ([`crate::QueryError::OutOfRange`]), and [`crate::Shape::aabb`] normalizes it.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Rot {
    /// Cosine of the angle.
    pub c: f32,
    /// Sine of the angle.
    pub s: f32,
}

impl Rot {
    /// The identity rotation (angle 0).
    pub const IDENTITY: Rot = Rot { c: 1.0, s: 0.0 };

    /// The rotation by `angle` radians (counter-clockwise), computed with [`cos_sin`]. Unit
    /// for every finite angle; NaN for a NaN or infinite one.
    #[inline]
    pub fn from_angle(angle: f32) -> Rot {
        let (c, s) = cos_sin(angle);
        Rot { c, s }
    }

    /// This rotation turned further by `turn` radians, reaching `angle` (the angle this rotation
    /// is of, plus `turn`). A small turn (at most 0.05 rad) is composed from Taylor series of
    /// its cosine and sine, exact to f32 there (the first terms left out are below 1e-10),
    /// instead of a [`cos_sin`] of `angle`: the position projection turns bodies by many small
    /// amounts. A larger turn is [`Rot::from_angle`] of `angle`. Both agree with
    /// `Rot::from_angle(angle)` to rounding.
    #[inline]
    pub(crate) fn turned(self, turn: f32, angle: f32) -> Rot {
        if turn.abs() > 0.05 {
            return Rot::from_angle(angle);
        }
        let t2 = turn * turn;
        let c = 1.0 - 0.5 * t2 * (1.0 - t2 / 12.0);
        let s = turn * (1.0 - t2 / 6.0 * (1.0 - t2 / 20.0));
        Rot { c: self.c * c - self.s * s, s: self.s * c + self.c * s }
    }

    /// The rotation whose cosine and sine are proportional to `c` and `s`: the pair scaled to
    /// unit length (a unit pair is kept as given). `None` when the pair is zero or not finite,
    /// which gives no direction.
    pub fn new(c: f32, s: f32) -> Option<Rot> {
        Rot { c, s }.checked_unit()
    }

    /// True when `c² + s²` is within 1e-4 of 1: the rotations the queries accept.
    #[inline]
    pub fn is_unit(self) -> bool {
        let norm = self.c * self.c + self.s * self.s;
        (norm - 1.0).abs() <= 1.0e-4
    }

    /// This rotation scaled to unit length, or `None` for a zero or non-finite pair (see
    /// [`Rot::new`]). A rotation already unit within 1e-4 ([`Rot::is_unit`]) is returned
    /// unchanged, bit for bit.
    pub fn normalized(self) -> Option<Rot> {
        self.checked_unit()
    }

    fn checked_unit(self) -> Option<Rot> {
        if self.is_unit() {
            return Some(self);
        }
        // Scaled by the larger component first, so that neither tiny nor huge pairs under- or
        // overflow when squared.
        let largest = self.c.abs().max(self.s.abs());
        if !(self.c.is_finite() && self.s.is_finite() && largest > 0.0) {
            return None;
        }
        let (c, s) = (self.c / largest, self.s / largest);
        let length = (c * c + s * s).sqrt();
        Some(Rot { c: c / length, s: s / length })
    }

    /// The angle of this rotation in radians, in [-pi, pi].
    #[inline]
    pub fn angle(self) -> f32 {
        self.s.atan2(self.c)
    }

    /// Rotates vector `v`.
    #[inline]
    pub fn rotate(self, v: Vec2) -> Vec2 {
        Vec2::new(self.c * v.x - self.s * v.y, self.s * v.x + self.c * v.y)
    }

    /// Rotates vector `v` by the inverse of this rotation.
    #[inline]
    pub fn inv_rotate(self, v: Vec2) -> Vec2 {
        Vec2::new(self.c * v.x + self.s * v.y, -self.s * v.x + self.c * v.y)
    }

    /// The composition `self⁻¹ * q`.
    #[inline]
    pub fn inv_mul(self, q: Rot) -> Rot {
        Rot { c: self.c * q.c + self.s * q.s, s: self.c * q.s - self.s * q.c }
    }
}

/// A rigid transform: rotate by `q`, then translate by `p` (meters).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Transform {
    /// Translation in meters.
    pub p: Vec2,
    /// Rotation.
    pub q: Rot,
}

impl Transform {
    /// The identity transform.
    pub const IDENTITY: Transform = Transform { p: Vec2::ZERO, q: Rot::IDENTITY };

    /// A transform from a position (meters) and an angle (radians).
    #[inline]
    pub fn new(p: Vec2, angle: f32) -> Transform {
        Transform { p, q: Rot::from_angle(angle) }
    }

    /// Maps a local point to the parent frame.
    #[inline]
    pub fn apply(self, v: Vec2) -> Vec2 {
        self.q.rotate(v) + self.p
    }

    /// Maps a parent-frame point to the local frame.
    #[inline]
    pub fn inv_apply(self, v: Vec2) -> Vec2 {
        self.q.inv_rotate(v - self.p)
    }

    /// The composition `self⁻¹ * b`: `b` expressed in the frame of `self`.
    #[inline]
    pub fn inv_mul(self, b: Transform) -> Transform {
        Transform { p: self.q.inv_rotate(b.p - self.p), q: self.q.inv_mul(b.q) }
    }
}

impl std::ops::Mul for Rot {
    type Output = Rot;

    /// The composition `self * q`: rotate by `q`, then by `self`.
    #[inline]
    fn mul(self, q: Rot) -> Rot {
        Rot { c: self.c * q.c - self.s * q.s, s: self.s * q.c + self.c * q.s }
    }
}

impl std::ops::Mul for Transform {
    type Output = Transform;

    /// The composition `self * b`: apply `b`, then `self`.
    #[inline]
    fn mul(self, b: Transform) -> Transform {
        Transform { p: self.q.rotate(b.p) + self.p, q: self.q * b.q }
    }
}

/// The motion of a body over one step, for continuous collision.
///
/// The center of rotation (usually the center of mass) sits at `local_center` in body
/// coordinates and moves from `c1` to `c2` (world, meters) while the angle goes from `a1`
/// to `a2` (radians), both linearly in the normalized time t ∈ [0, 1]. Any amount of
/// rotation is valid, including several turns. A local point `p` sits at
/// `c(t) + R(a(t)) (p - local_center)` with `c(t) = c1 + t (c2 - c1)` and
/// `a(t) = a1 + t (a2 - a1)`.
///
/// Source: the sweep of Catto, "Continuous Collision", GDC 2013.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Sweep {
    /// Center of rotation in body coordinates (meters).
    pub local_center: Vec2,
    /// World position of the center of rotation at t = 0 (meters).
    pub c1: Vec2,
    /// World position of the center of rotation at t = 1 (meters).
    pub c2: Vec2,
    /// Angle at t = 0 (radians).
    pub a1: f32,
    /// Angle at t = 1 (radians).
    pub a2: f32,
}

impl Sweep {
    /// A sweep that does not move: the body stays at `transform`, rotating about its origin.
    pub fn fixed(transform: Transform) -> Sweep {
        let a = transform.q.angle();
        Sweep { local_center: Vec2::ZERO, c1: transform.p, c2: transform.p, a1: a, a2: a }
    }

    /// The body transform at normalized time `t` (0 = start of the step, 1 = end).
    #[inline]
    pub fn transform_at(&self, t: f32) -> Transform {
        self.placed(t, Rot::from_angle(self.angle_at(t)))
    }

    /// The angle at normalized time `t` (radians).
    #[inline]
    pub(crate) fn angle_at(&self, t: f32) -> f32 {
        self.a1 + t * (self.a2 - self.a1)
    }

    /// The body transform at normalized time `t` given its rotation `q` there.
    #[inline]
    pub(crate) fn placed(&self, t: f32, q: Rot) -> Transform {
        Transform { p: self.center_at(t) - q.rotate(self.local_center), q }
    }

    /// The world position of the center of rotation at normalized time `t` (meters).
    #[inline]
    pub fn center_at(&self, t: f32) -> Vec2 {
        self.c1 + t * (self.c2 - self.c1)
    }

    /// The first fraction `t` of this sweep (0 < t <= 1) as a sweep of its own: the same start,
    /// ending where this one is at `t`.
    pub(crate) fn part(&self, t: f32) -> Sweep {
        Sweep { c2: self.center_at(t), a2: self.angle_at(t), ..*self }
    }

    /// True when every field is a finite number.
    pub fn is_finite(&self) -> bool {
        self.local_center.is_finite()
            && self.c1.is_finite()
            && self.c2.is_finite()
            && self.a1.is_finite()
            && self.a2.is_finite()
    }

    /// The same motion with every world position shifted by `-origin`.
    ///
    /// Queries rebase both sweeps on one body so that f32 keeps its precision far from the
    /// world origin.
    pub fn rebased(&self, origin: Vec2) -> Sweep {
        Sweep { c1: self.c1 - origin, c2: self.c2 - origin, ..*self }
    }
}

/// A sweep prepared for evaluation at many times: one that does not turn keeps its rotation
/// and its rotated center of rotation instead of recomputing them (the common case of a
/// static or sliding body in a time of impact query).
#[derive(Clone, Copy, Debug)]
pub(crate) struct SweepEval {
    pub sweep: Sweep,
    /// For a sweep that does not turn: its rotation and `rotation * local_center`.
    still: Option<(Rot, Vec2)>,
}

impl SweepEval {
    pub fn new(sweep: Sweep) -> SweepEval {
        if sweep.a1 == sweep.a2 {
            SweepEval::still(sweep, Rot::from_angle(sweep.a1))
        } else {
            SweepEval { sweep, still: None }
        }
    }

    /// A sweep that does not turn, at rotation `q`.
    fn still(sweep: Sweep, q: Rot) -> SweepEval {
        SweepEval { sweep, still: Some((q, q.rotate(sweep.local_center))) }
    }

    /// [`Self::new`] of two sweeps, with the rotations of those that do not turn from one
    /// [`cos_sin_lanes`] call when both are still (bit for bit the same).
    pub fn pair(a: Sweep, b: Sweep) -> (SweepEval, SweepEval) {
        if a.a1 == a.a2
            && b.a1 == b.a2
            && let Some((c, s)) = cos_sin_lanes(Vec4::new(a.a1, b.a1, 0.0, 0.0))
        {
            return (SweepEval::still(a, Rot { c: c.x, s: s.x }), SweepEval::still(b, Rot { c: c.y, s: s.y }));
        }
        (SweepEval::new(a), SweepEval::new(b))
    }

    /// True when the sweep turns (its angles differ).
    #[inline]
    pub fn turns(&self) -> bool {
        self.still.is_none()
    }

    /// [`Sweep::transform_at`], bit for bit.
    #[inline]
    pub fn transform_at(&self, t: f32) -> Transform {
        match self.still {
            Some((q, offset)) => Transform { p: self.sweep.center_at(t) - offset, q },
            None => self.sweep.transform_at(t),
        }
    }

    /// The transforms of two sweeps at the same time `t`, bit for bit [`Self::transform_at`]
    /// of each: when both turn, their rotations come from one [`cos_sin_lanes`] call.
    #[inline]
    pub fn pair_at(a: &SweepEval, b: &SweepEval, t: f32) -> (Transform, Transform) {
        if a.turns() && b.turns() {
            let (sa, sb) = (&a.sweep, &b.sweep);
            if let Some((c, s)) = cos_sin_lanes(Vec4::new(sa.angle_at(t), sb.angle_at(t), 0.0, 0.0)) {
                return (sa.placed(t, Rot { c: c.x, s: s.x }), sb.placed(t, Rot { c: c.y, s: s.y }));
            }
        }
        (a.transform_at(t), b.transform_at(t))
    }
}

/// The mean of `points` (not empty): the center continuous collision shrinks a polygon's
/// core about, which the separating axis test of shrunk polygons must share.
#[inline]
pub(crate) fn mean(points: &[Vec2]) -> Vec2 {
    points.iter().copied().sum::<Vec2>() / points.len() as f32
}

/// The x and y columns of the first four of `points` (which has at least four), loaded as two
/// rows and shuffled (exact moves).
#[inline(always)]
pub(crate) fn columns(points: &[Vec2]) -> (Vec4, Vec4) {
    let p = &points[..4];
    let (lo, hi) = (Vec4::new(p[0].x, p[0].y, p[1].x, p[1].y), Vec4::new(p[2].x, p[2].y, p[3].x, p[3].y));
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{__m128, _mm_shuffle_ps};
        let (lo, hi) = (__m128::from(lo), __m128::from(hi));
        // SAFETY: SSE is part of every x86-64 target; these are register shuffles only.
        let (x, y) = unsafe { (_mm_shuffle_ps::<0b10_00_10_00>(lo, hi), _mm_shuffle_ps::<0b11_01_11_01>(lo, hi)) };
        (Vec4::from(x), Vec4::from(y))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        (Vec4::new(lo.x, lo.z, hi.x, hi.z), Vec4::new(lo.y, lo.w, hi.y, hi.w))
    }
}

/// [`cos_sin`] of four angles in lanes, bit for bit the same: the reduction and both
/// polynomials run with the same operations in the same order per lane. `None` when an angle
/// is beyond 1e4 rad (rare: the caller uses [`cos_sin`]), or off x86-64.
#[inline]
pub(crate) fn cos_sin_lanes(angle: Vec4) -> Option<(Vec4, Vec4)> {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        if angle.abs().cmpgt(Vec4::splat(1.0e4)).any() {
            return None;
        }
        let x = angle * std::f32::consts::FRAC_2_PI;
        let sign_bit = Vec4::splat(-0.0);
        let half = Vec4::splat(0.5).copysign(x);
        // SAFETY: SSE2 is part of every x86-64 target; conversions and bit operations on
        // registers only. |x + 0.5| < 2^31, so truncation matches the scalar `as i32` cast
        // (NaN lanes become i32::MIN, whose low two bits select like 0, and stay NaN).
        unsafe {
            let quadrant = _mm_cvttps_epi32((x + half).into());
            let k = Vec4::from(_mm_cvtepi32_ps(quadrant));
            let r = ((angle - k * PIO2_1) - k * PIO2_2) - k * PIO2_3;
            let z = r * r;
            let sin_r = ((Vec4::splat(-1.951_529_6e-4) * z + 8.332_161e-3) * z - 1.666_665_5e-1) * z * r + r;
            let cos_r =
                ((Vec4::splat(2.443_315_7e-5) * z - 1.388_731_6e-3) * z + 4.166_664_6e-2) * z * z - 0.5 * z + 1.0;
            // An odd quadrant swaps the functions (negating the new cosine); quadrants 2 and 3
            // negate both.
            let bit = |b: i32| {
                _mm_castsi128_ps(_mm_cmpeq_epi32(_mm_and_si128(quadrant, _mm_set1_epi32(b)), _mm_set1_epi32(b)))
            };
            let (odd, flip) = (bit(1), bit(2));
            let neg_sin = _mm_xor_ps(sin_r.into(), sign_bit.into());
            let c = _mm_or_ps(_mm_and_ps(odd, neg_sin), _mm_andnot_ps(odd, cos_r.into()));
            let s = _mm_or_ps(_mm_and_ps(odd, cos_r.into()), _mm_andnot_ps(odd, sin_r.into()));
            let negate = _mm_and_ps(flip, sign_bit.into());
            Some((Vec4::from(_mm_xor_ps(c, negate)), Vec4::from(_mm_xor_ps(s, negate))))
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = angle;
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cos_sin_matches_f64_within_2e7() {
        let mut worst = 0.0f64;
        for i in -2_000_000..=2_000_000 {
            let a = i as f32 * 5.0e-3; // [-1e4, 1e4]
            let (c, s) = cos_sin(a);
            let (s64, c64) = (a as f64).sin_cos();
            worst = worst.max((c as f64 - c64).abs()).max((s as f64 - s64).abs());
        }
        assert!(worst < 2.0e-7, "worst error {worst}");
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn cos_sin_lanes_is_cos_sin_bit_for_bit() {
        use std::f32::consts::{FRAC_PI_2, FRAC_PI_4};
        let mut angles = (-399_000..=399_000).map(|i| i as f32 * 2.5e-2 + 1.0e-3 * (i % 7) as f32).collect::<Vec<_>>();
        let edges = [0.0, -0.0, 1.0e4, -1.0e4, FRAC_PI_4, -FRAC_PI_4, 3.0 * FRAC_PI_4, FRAC_PI_2, 1.0e-30, -1.0e-38];
        angles.extend(edges.iter().flat_map(|&a| [a, a.next_up(), a.next_down()]).filter(|a| a.abs() <= 1.0e4));
        for chunk in angles.chunks(4) {
            let mut four = [0.0; 4];
            four[..chunk.len()].copy_from_slice(chunk);
            let (c, s) = cos_sin_lanes(Vec4::from_array(four)).expect("angles within 1e4 rad");
            for (l, &a) in four.iter().enumerate() {
                let (c1, s1) = cos_sin(a);
                assert_eq!((c[l].to_bits(), s[l].to_bits()), (c1.to_bits(), s1.to_bits()), "angle {a}");
            }
        }
        assert!(cos_sin_lanes(Vec4::new(0.0, 1.0, 2.0e4, 3.0)).is_none());
    }

    #[test]
    fn cos_sin_of_huge_angles_stays_on_the_unit_circle() {
        // Up to 1e9 rad the f64 reduction is exact to f32 precision.
        for a in [1.0e5f32, -3.7e7, 1.0e8, -1.0e9] {
            let (c, s) = cos_sin(a);
            let (s64, c64) = (a as f64).sin_cos();
            assert!((c as f64 - c64).abs() < 2e-7 && (s as f64 - s64).abs() < 2e-7, "{a}: {c} {s}");
        }
        // Beyond, f32 angles are 64 rad or more apart and carry no phase: finite, unit.
        for a in [1.0e15f32, 1.0e30, f32::MAX, -f32::MAX] {
            let (c, s) = cos_sin(a);
            assert!((c * c + s * s - 1.0).abs() < 1e-6, "{a}: {c} {s}");
        }
        for a in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            let (c, s) = cos_sin(a);
            assert!(c.is_nan() && s.is_nan());
        }
    }

    #[test]
    fn sweep_eval_pairs_are_sweep_transforms_bit_for_bit() {
        let bits = |x: Transform| [x.p.x, x.p.y, x.q.c, x.q.s].map(f32::to_bits);
        let sweep = |a1: f32, a2: f32, lc: Vec2| Sweep {
            local_center: lc,
            c1: Vec2::new(0.3, -2.0),
            c2: Vec2::new(5.0, 1.0),
            a1,
            a2,
        };
        let sweeps = [
            sweep(0.4, 0.4, Vec2::new(0.1, -0.2)),
            sweep(-2.9, -2.9, Vec2::ZERO),
            sweep(0.0, 7.0, Vec2::new(-0.3, 0.05)),
            sweep(3.1, -1.0, Vec2::ZERO),
            sweep(2.0e4, 2.0e4 + 1.0, Vec2::X),
        ];
        for a in sweeps {
            for b in sweeps {
                let (ea, eb) = SweepEval::pair(a, b);
                for t in [0.0, 0.137, 0.5, 0.999, 1.0] {
                    let (xa, xb) = SweepEval::pair_at(&ea, &eb, t);
                    assert_eq!((bits(xa), bits(xb)), (bits(a.transform_at(t)), bits(b.transform_at(t))), "{a:?} {b:?}");
                }
            }
        }
    }

    #[test]
    fn transform_round_trip() {
        let xf = Transform::new(Vec2::new(3.0, -2.0), 0.7);
        let p = Vec2::new(0.25, 1.5);
        assert!((xf.inv_apply(xf.apply(p)) - p).length() < 1e-6);
        let b = Transform::new(Vec2::new(-1.0, 4.0), -2.1);
        let rel = xf.inv_mul(b);
        assert!(((xf * rel).apply(p) - b.apply(p)).length() < 1e-5);
    }

    #[test]
    fn sweep_interpolates_center_and_angle() {
        let sweep = Sweep {
            local_center: Vec2::new(0.5, 0.0),
            c1: Vec2::new(0.0, 0.0),
            c2: Vec2::new(2.0, 0.0),
            a1: 0.0,
            a2: 4.0 * std::f32::consts::PI, // two full turns
        };
        let xf = sweep.transform_at(0.5);
        // Center of rotation at (1, 0); two turns in the whole step, one at t = 0.5.
        assert!((xf.apply(Vec2::new(0.5, 0.0)) - Vec2::new(1.0, 0.0)).length() < 1e-6);
        assert!((xf.q.c - 1.0).abs() < 1e-6 && xf.q.s.abs() < 1e-5);
        let half_turn = sweep.transform_at(0.25);
        assert!((half_turn.q.c - (-1.0)).abs() < 1e-6);
    }
}
