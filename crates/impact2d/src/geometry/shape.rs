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
    CastOutput, RayCastInput, ray_cast_capsule, ray_cast_chain_segment, ray_cast_circle, ray_cast_polygon,
    ray_cast_segment,
};

/// Any collision shape, in body coordinates (meters).
#[derive(Clone, Copy, Debug, PartialEq)]
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
    pub fn aabb(&self, xf: Transform) -> Aabb {
        match self {
            Shape::Circle(c) => round_aabb(&[xf.apply(c.center())], c.radius()),
            Shape::Capsule(c) => round_aabb(&[xf.apply(c.center1()), xf.apply(c.center2())], c.radius()),
            Shape::Polygon(p) => {
                // The vertices placed one by one (as `round_aabb` takes them), without a
                // world-space copy of the polygon: 113 instead of 137 instructions per box.
                let vertices = p.vertices();
                let first = xf.apply(vertices[0]);
                let (lower, upper) = vertices[1..]
                    .iter()
                    .map(|&v| xf.apply(v))
                    .fold((first, first), |(lower, upper), w| (lower.min(w), upper.max(w)));
                Aabb::new(lower, upper).enlarged(p.radius())
            }
            Shape::Segment(s) => round_aabb(&[xf.apply(s.point1()), xf.apply(s.point2())], 0.0),
            Shape::ChainSegment(c) => {
                let s = c.segment();
                round_aabb(&[xf.apply(s.point1()), xf.apply(s.point2())], 0.0)
            }
        }
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

/// The AABB of `points` grown by `radius`. `points` is never empty here.
fn round_aabb(points: &[Vec2], radius: f32) -> Aabb {
    let mut lower = points[0];
    let mut upper = points[0];
    for &p in &points[1..] {
        lower = lower.min(p);
        upper = upper.max(p);
    }
    Aabb::new(lower, upper).enlarged(radius)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Capsule, ChainSegment, Circle, Segment, make_box};

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
