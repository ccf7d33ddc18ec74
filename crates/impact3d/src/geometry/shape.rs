//! Every 3D shape kind behind one type.

use super::aabb::Aabb;
use super::capsule::Capsule;
use super::hull::Hull;
use super::mass::{MassData, capsule_mass, hull_mass, sphere_mass};
use super::segment::Segment;
use super::sphere::Sphere;
use super::triangle::Triangle;
use crate::math::{Mat3, Transform, Vec3};

/// A shape of any kind, in body coordinates (meters).
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// A solid sphere.
    Sphere(Sphere),
    /// A solid capsule.
    Capsule(Capsule),
    /// A convex polyhedron, sharp or rounded (boxes among them).
    Hull(Hull),
    /// A segment (no volume, no mass).
    Segment(Segment),
    /// A triangle (no volume, no mass).
    Triangle(Triangle),
}

impl Shape {
    /// The rounding radius (meters): the sphere's and capsule's radius, the hull's, 0 for
    /// segments and triangles.
    pub fn radius(&self) -> f32 {
        match self {
            Shape::Sphere(s) => s.radius(),
            Shape::Capsule(c) => c.radius(),
            Shape::Hull(h) => h.radius(),
            Shape::Segment(_) | Shape::Triangle(_) => 0.0,
        }
    }

    /// The core points: the sphere's center, the capsule's or segment's two ends, the
    /// triangle's corners, the hull's vertices (meters, body coordinates). The shape is the
    /// points within [`Shape::radius`] of their convex hull.
    pub fn core_points(&self) -> Vec<Vec3> {
        match self {
            Shape::Sphere(s) => vec![s.center()],
            Shape::Capsule(c) => vec![c.center1(), c.center2()],
            Shape::Hull(h) => h.vertices().to_vec(),
            Shape::Segment(s) => vec![s.point1(), s.point2()],
            Shape::Triangle(t) => t.corners().to_vec(),
        }
    }

    /// The tight box around the shape placed by `xf` (meters, world).
    pub fn aabb(&self, xf: Transform) -> Aabb {
        let core = Aabb::of_points(self.core_points().into_iter().map(|p| xf.apply(p)));
        core.expanded(self.radius())
    }

    /// The mass properties at `density` (kg/m³); segments and triangles are massless (their
    /// center is their centroid). See [`MassData`] for the density rule.
    pub fn mass(&self, density: f32) -> MassData {
        match self {
            Shape::Sphere(s) => sphere_mass(s, density),
            Shape::Capsule(c) => capsule_mass(c, density),
            Shape::Hull(h) => hull_mass(h, density),
            Shape::Segment(_) | Shape::Triangle(_) => {
                let points = self.core_points();
                let center = points.iter().copied().sum::<Vec3>() / points.len() as f32;
                MassData { mass: 0.0, center, inertia: Mat3::ZERO }
            }
        }
    }
}
