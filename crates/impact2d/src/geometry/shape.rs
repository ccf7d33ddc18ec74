//! The shape enum that ties the shape kinds together.

use super::aabb::Aabb;
use super::capsule::Capsule;
use super::chain::ChainSegment;
use super::circle::Circle;
use super::mass::{MassData, capsule_mass, circle_mass, polygon_mass};
use super::polygon::Polygon;
use super::segment::Segment;
use crate::math::{Transform, Vec2};
use crate::query::{
    CastOutput, RayCastInput, ShapeProxy, ray_cast_capsule, ray_cast_chain_segment, ray_cast_circle, ray_cast_polygon,
    ray_cast_segment,
};

/// Any collision shape, in body coordinates (meters).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Shape {
    /// A solid circle.
    Circle(Circle),
    /// A solid capsule.
    Capsule(Capsule),
    /// A solid rounded convex polygon.
    Polygon(Polygon),
    /// A two-sided segment without mass.
    Segment(Segment),
    /// A one-sided chain segment without mass.
    ChainSegment(ChainSegment),
}

impl Shape {
    /// The tight AABB of the shape placed by `xf` (meters, world).
    ///
    /// A rotation farther than 1e-4 from unit length (see [`Rot`](crate::Rot): its fields
    /// can be written directly) is normalized first; one that cannot be (zero, or not
    /// finite) gives the box of the disc about `xf.p` that holds the shape at every rotation.
    /// So a finite position always gives a finite box (NaN before issue 18 for a rotation
    /// such as (3e38, 3e38)). A non-finite position gives a non-finite box.
    pub fn aabb(&self, xf: Transform) -> Aabb {
        if !xf.q.is_unit() {
            return self.aabb_normalizing(xf);
        }
        self.unit_aabb(xf)
    }

    /// [`Shape::aabb`] for a rotation that is not unit: normalized, or the box of the disc
    /// that holds the shape at every rotation. Out of line: the rotations the world makes are
    /// unit.
    #[cold]
    #[inline(never)]
    fn aabb_normalizing(&self, xf: Transform) -> Aabb {
        match xf.q.normalized() {
            Some(q) => self.unit_aabb(Transform { q, ..xf }),
            None => self.reach_aabb(xf.p),
        }
    }

    /// [`Shape::aabb`] for a unit rotation (within 1e-4, [`Rot::is_unit`](crate::Rot::is_unit)),
    /// without checking it: the world's body transforms, whose rotations come from
    /// [`Rot::from_angle`](crate::Rot::from_angle) or its lane version, take this in the
    /// step's hot loops (the check cost 1 % of a pyramid's step).
    #[inline]
    pub(crate) fn unit_aabb(&self, xf: Transform) -> Aabb {
        debug_assert!(xf.q.is_unit(), "{xf:?}");
        match self {
            Shape::Circle(c) => round_aabb([xf.apply(c.center())], c.radius()),
            Shape::Capsule(c) => round_aabb([xf.apply(c.center1()), xf.apply(c.center2())], c.radius()),
            Shape::Polygon(p) => {
                let vertices = p.vertices();
                if let Some((lower, upper)) = placed_quad_bounds(vertices, xf) {
                    return Aabb::new(lower, upper).enlarged(p.radius());
                }
                // The vertices placed one by one, without a world-space copy of the polygon.
                round_aabb(vertices.iter().map(|&v| xf.apply(v)), p.radius())
            }
            Shape::Segment(s) => round_aabb([xf.apply(s.point1()), xf.apply(s.point2())], 0.0),
            Shape::ChainSegment(c) => {
                let s = c.segment();
                round_aabb([xf.apply(s.point1()), xf.apply(s.point2())], 0.0)
            }
        }
    }

    /// The box of the disc about `center` that holds the shape (in body coordinates about
    /// its origin) at any rotation.
    fn reach_aabb(&self, center: Vec2) -> Aabb {
        let reach = ShapeProxy::from_shape(self).max_distance_from(Vec2::ZERO) + self.radius();
        Aabb::new(center - Vec2::splat(reach), center + Vec2::splat(reach))
    }

    /// Mass, center of mass and rotational inertia about the center of mass at `density`
    /// (kg/m²). Segments and chain segments have no area and no mass.
    pub fn mass(&self, density: f32) -> MassData {
        match self {
            Shape::Circle(c) => circle_mass(c, density),
            Shape::Capsule(c) => capsule_mass(c, density),
            Shape::Polygon(p) => polygon_mass(p, density),
            Shape::Segment(_) | Shape::ChainSegment(_) => MassData::default(),
        }
    }

    /// Casts a ray against the shape, in the shape's body coordinates (meters): the first
    /// point of the shape along `origin + f * translation`, f ∈ [0, max_fraction].
    ///
    /// A ray starting inside a solid shape hits at fraction 0 with a zero normal; segments
    /// are two-sided, chain segments one-sided. See [`crate::query`]'s `ray_cast_*`
    /// functions for each kind's details. Non-finite input misses; never NaN.
    pub fn ray_cast(&self, input: &RayCastInput) -> Option<CastOutput> {
        match self {
            Shape::Circle(c) => ray_cast_circle(c, input),
            Shape::Capsule(c) => ray_cast_capsule(c, input),
            Shape::Polygon(p) => ray_cast_polygon(p, input),
            Shape::Segment(s) => ray_cast_segment(s, input),
            Shape::ChainSegment(c) => ray_cast_chain_segment(c, input),
        }
    }

    /// The rounding radius (meters): the circle or capsule radius, the polygon's radius,
    /// zero for segments.
    pub fn radius(&self) -> f32 {
        match self {
            Shape::Circle(c) => c.radius(),
            Shape::Capsule(c) => c.radius(),
            Shape::Polygon(p) => p.radius(),
            Shape::Segment(_) | Shape::ChainSegment(_) => 0.0,
        }
    }
}

/// The AABB of `points` grown by `radius`. `points` is never empty here (no points give the
/// origin's box).
fn round_aabb(points: impl IntoIterator<Item = Vec2>, radius: f32) -> Aabb {
    let mut points = points.into_iter();
    let first = points.next().unwrap_or_default();
    let (lower, upper) = points.fold((first, first), |(lower, upper), p| (lower.min(p), upper.max(p)));
    Aabb::new(lower, upper).enlarged(radius)
}

/// The bounds (lower, upper) of four-vertex polygon `vertices` placed by `xf`, for boxes, the
/// common shape: the four vertices are placed in SIMD lanes with [`Transform::apply`]'s
/// operations per lane, and the bounds folded in the scalar fold's order with its ties
/// (`a.min(b)` keeps `a` unless `b < a`, which is `_mm_min_ps(b, a)`; the upper bound is the
/// lower bound of the negated points, `a.max(b) = -(-a).min(-b)` exactly). About 45 instead of
/// 113 instructions per box. `None` (the caller folds in scalar) for other vertex counts, when
/// a placed coordinate is NaN (the scalar `min` skips NaN, the lane one does not), and off
/// x86-64.
#[inline]
fn placed_quad_bounds(vertices: &[Vec2], xf: Transform) -> Option<(Vec2, Vec2)> {
    #[cfg(target_arch = "x86_64")]
    {
        use glam::Vec4;
        use std::arch::x86_64::{__m128, _mm_min_ps, _mm_movehl_ps, _mm_movelh_ps, _mm_unpackhi_ps, _mm_unpacklo_ps};
        if vertices.len() != 4 {
            return None;
        }
        let (x, y) = crate::math::columns(vertices);
        let (c, s) = (Vec4::splat(xf.q.c), Vec4::splat(xf.q.s));
        let wx = (c * x - s * y) + Vec4::splat(xf.p.x);
        let wy = (s * x + c * y) + Vec4::splat(xf.p.y);
        if (wx.is_nan_mask() | wy.is_nan_mask()).any() {
            return None;
        }
        let (wx, wy) = (__m128::from(wx), __m128::from(wy));
        // SAFETY: SSE is part of every x86-64 target; register operations only.
        let bounds = unsafe {
            // Rows (x_i, y_i, -x_i, -y_i) of the four points, folded as the scalar loop folds.
            let (lo, hi) = (_mm_unpacklo_ps(wx, wy), _mm_unpackhi_ps(wx, wy));
            let (neg_lo, neg_hi) = (__m128::from(-Vec4::from(lo)), __m128::from(-Vec4::from(hi)));
            let mut fold = _mm_movelh_ps(lo, neg_lo);
            fold = _mm_min_ps(_mm_movehl_ps(neg_lo, lo), fold);
            fold = _mm_min_ps(_mm_movelh_ps(hi, neg_hi), fold);
            fold = _mm_min_ps(_mm_movehl_ps(neg_hi, hi), fold);
            Vec4::from(fold)
        };
        Some((Vec2::new(bounds.x, bounds.y), Vec2::new(-bounds.z, -bounds.w)))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (vertices, xf);
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Capsule, ChainSegment, Circle, Segment, make_box, make_offset_rounded_box};
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The scalar fold `Shape::aabb` used for every polygon before the lane version.
    fn folded_bounds(vertices: &[Vec2], xf: Transform) -> (Vec2, Vec2) {
        let first = xf.apply(vertices[0]);
        vertices[1..].iter().map(|&v| xf.apply(v)).fold((first, first), |(lo, hi), w| (lo.min(w), hi.max(w)))
    }

    #[test]
    fn box_aabb_in_lanes_is_the_scalar_fold() {
        // Seeded boxes (some off their body origin, turned, rounded) at seeded poses, some far
        // from the origin, some placing a vertex exactly on an axis (a zero bound).
        let mut rng = ChaCha8Rng::seed_from_u64(41);
        let mut checked = 0;
        for i in 0..20_000 {
            let half = Vec2::new(rng.random_range(0.05f32..2.0), rng.random_range(0.05f32..2.0));
            let center = Vec2::new(rng.random_range(-1.0f32..1.0), rng.random_range(-1.0f32..1.0));
            let p = make_offset_rounded_box(half.x, half.y, center, rng.random_range(0.0f32..6.3), 0.0).unwrap();
            let radius = if i % 3 == 0 { 0.1 } else { 0.0 };
            let rounded = make_offset_rounded_box(half.x, half.y, center, 0.0, radius).unwrap();
            let far = if i % 5 == 0 { 1000.0 } else { 3.0 };
            let mut xf = Transform::new(
                Vec2::new(rng.random_range(-far..far), rng.random_range(-far..far)),
                if i % 4 == 0 { 0.0 } else { rng.random_range(-7.0f32..7.0) },
            );
            if i % 7 == 0 {
                // Put the first vertex on both axes.
                xf.p = -xf.q.rotate(p.vertices()[0]);
            }
            for polygon in [p, rounded] {
                let shape = Shape::Polygon(polygon);
                let (lo, hi) = folded_bounds(polygon.vertices(), xf);
                let lanes = placed_quad_bounds(polygon.vertices(), xf).expect("a finite box on x86-64");
                // Bit for bit, zero bounds included.
                let bits = |(a, b): (Vec2, Vec2)| [a.x.to_bits(), a.y.to_bits(), b.x.to_bits(), b.y.to_bits()];
                assert_eq!(bits(lanes), bits((lo, hi)), "{polygon:?} at {xf:?}");
                let aabb = shape.aabb(xf);
                assert_eq!((aabb.lower, aabb.upper), (lo - polygon.radius(), hi + polygon.radius()));
                // Independently: the bounds of the vertices placed in f64.
                let (c, s) = (f64::from(xf.q.c), f64::from(xf.q.s));
                let placed: Vec<(f64, f64)> = polygon
                    .vertices()
                    .iter()
                    .map(|v| {
                        let (x, y) = (f64::from(v.x), f64::from(v.y));
                        (c * x - s * y + f64::from(xf.p.x), s * x + c * y + f64::from(xf.p.y))
                    })
                    .collect();
                let fold =
                    |f: fn(f64, f64) -> f64, pick: fn(&(f64, f64)) -> f64| placed.iter().map(pick).reduce(f).unwrap();
                let reference = [
                    fold(f64::min, |p| p.0),
                    fold(f64::min, |p| p.1),
                    fold(f64::max, |p| p.0),
                    fold(f64::max, |p| p.1),
                ];
                for (got, want) in [lo.x, lo.y, hi.x, hi.y].into_iter().zip(reference) {
                    assert!((f64::from(got) - want).abs() <= 1e-6 * (1.0 + want.abs()), "{got} against {want}");
                }
                checked += 1;
            }
        }
        assert_eq!(checked, 40_000);
    }

    #[test]
    fn box_aabb_with_nan_pose_folds_in_scalar() {
        let p = make_box(0.5, 0.5).unwrap();
        let xf = Transform { p: Vec2::new(f32::NAN, 1.0), q: crate::math::Rot::IDENTITY };
        assert_eq!(placed_quad_bounds(p.vertices(), xf), None);
        let aabb = Shape::Polygon(p).aabb(xf);
        let (lo, hi) = folded_bounds(p.vertices(), xf);
        assert_eq!((aabb.lower.y, aabb.upper.y), (lo.y, hi.y));
        assert_eq!((aabb.lower.y, aabb.upper.y), (0.5, 1.5));
    }

    #[test]
    fn ray_cast_dispatches_to_every_kind() {
        // A ray down the y axis from y = 3, against shapes whose top is at y = 1.
        let input = RayCastInput { origin: Vec2::new(0.0, 3.0), translation: Vec2::new(0.0, -4.0), max_fraction: 1.0 };
        let (a, b) = (Vec2::new(1.0, 1.0), Vec2::new(-1.0, 1.0));
        let shapes = [
            Shape::Circle(Circle::new(Vec2::ZERO, 1.0).unwrap()),
            Shape::Capsule(Capsule::new(Vec2::new(-1.0, 0.5), Vec2::new(1.0, 0.5), 0.5).unwrap()),
            Shape::Polygon(make_box(1.0, 1.0).unwrap()),
            Shape::Segment(Segment::new(a, b).unwrap()),
            // Walking from (1, 1) to (-1, 1), the colliding right side is up.
            Shape::ChainSegment(ChainSegment::new(Vec2::new(2.0, 1.0), a, b, Vec2::new(-2.0, 1.0)).unwrap()),
        ];
        for shape in &shapes {
            let out = shape.ray_cast(&input).unwrap();
            assert!((out.fraction - 0.5).abs() < 1e-6, "{shape:?}: {out:?}");
            assert!((out.normal - Vec2::Y).length() < 1e-6 && (out.point - Vec2::Y).length() < 1e-6);
        }
    }
}
