//! Mass properties: mass, center of mass and rotational inertia.

use super::capsule::Capsule;
use super::circle::Circle;
use super::polygon::Polygon;
use crate::math::Vec2;

/// The mass properties of a shape at some density.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MassData {
    /// Mass (kilograms).
    pub mass: f32,
    /// Center of mass (meters, body coordinates).
    pub center: Vec2,
    /// Rotational inertia about the center of mass (kg·m²).
    pub rotational_inertia: f32,
}

/// Mass properties of a circle at `density` (kg/m²).
pub fn circle_mass(circle: &Circle, density: f32) -> MassData {
    let _ = (circle, density);
    todo!("assigned to the geometry helper")
}

/// Mass properties of a capsule at `density` (kg/m²).
pub fn capsule_mass(capsule: &Capsule, density: f32) -> MassData {
    let _ = (capsule, density);
    todo!("assigned to the geometry helper")
}

/// Mass properties of a rounded polygon at `density` (kg/m²).
pub fn polygon_mass(polygon: &Polygon, density: f32) -> MassData {
    let _ = (polygon, density);
    todo!("assigned to the geometry helper")
}
