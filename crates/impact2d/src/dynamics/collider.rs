//! Shapes attached to bodies: the settings they are made from and the world's record of
//! each (its geometry, material, filter, broad-phase proxy and tight AABB).

use super::error::{WorldError, check_non_negative};
use crate::broad_phase::{Filter, ProxyKey};
use crate::geometry::{Aabb, Shape};

/// The settings a shape is attached with. Units: density in kg/m², friction and restitution
/// dimensionless.
///
/// Contacts mix the settings of their two shapes: friction `sqrt(fa fb)` (so a frictionless
/// shape slides on anything), restitution `max(ea, eb)` (so a bouncy ball bounces on
/// anything).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeDef {
    /// Mass per unit area (kg/m²), at least 0. Default 1.
    pub density: f32,
    /// Coulomb friction coefficient, at least 0. Default 0.6.
    pub friction: f32,
    /// Coefficient of restitution, at least 0 (1 bounces back at the approach speed).
    /// Default 0.
    pub restitution: f32,
    /// Which shapes this one collides with (and which queries see it).
    pub filter: Filter,
    /// A sensor detects overlaps (sensor events) but never collides. Sensors do not detect
    /// other sensors.
    pub sensor: bool,
    /// Whether contacts of this shape report begin and end events. Default true.
    pub enable_contact_events: bool,
    /// Whether contacts of this shape report hit events. Default true.
    pub enable_hit_events: bool,
    /// Anything the user wants to keep with the shape.
    pub user_data: u64,
}

impl Default for ShapeDef {
    fn default() -> Self {
        ShapeDef {
            density: 1.0,
            friction: 0.6,
            restitution: 0.0,
            filter: Filter::default(),
            sensor: false,
            enable_contact_events: true,
            enable_hit_events: true,
            user_data: 0,
        }
    }
}

impl ShapeDef {
    pub(crate) fn validate(&self) -> Result<(), WorldError> {
        check_non_negative(self.density, "shape density")?;
        check_non_negative(self.friction, "shape friction")?;
        check_non_negative(self.restitution, "shape restitution")
    }
}

/// The world's record of a shape.
#[derive(Clone, Debug)]
pub(crate) struct Collider {
    pub body: u32,
    pub geometry: Shape,
    pub density: f32,
    pub friction: f32,
    pub restitution: f32,
    pub filter: Filter,
    pub sensor: bool,
    pub enable_contact_events: bool,
    pub enable_hit_events: bool,
    pub proxy: ProxyKey,
    /// The tight AABB at the body's current transform (meters).
    pub aabb: Aabb,
    /// The next shape of the same body, or `NULL`.
    pub next: u32,
    pub user_data: u64,
}
