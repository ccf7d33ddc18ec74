//! Shapes attached to bodies: the settings they are made from and the world's record of
//! each (its geometry, material, filter, broad-phase proxy and tight AABB).

use super::error::{WorldError, check_range};
use crate::broad_phase::{Filter, ProxyKey};
use crate::geometry::{Aabb, Shape};
use crate::settings::{MAX_DENSITY, MAX_FRICTION, MAX_RESTITUTION, MAX_ROLLING_RESISTANCE, MAX_TANGENT_SPEED};

/// The settings a shape is attached with. Units: density in kg/m², friction and restitution
/// dimensionless. Each number has a finite range, given with its field;
/// [`World::create_shape`](super::World::create_shape) refuses a definition with a value
/// outside it with [`WorldError::InvalidValue`] (`"shape density"`, `"shape friction"`,
/// `"shape restitution"`, `"shape tangent speed"`, `"shape rolling resistance"`).
///
/// Contacts mix the settings of their two shapes by the world's rules
/// ([`WorldDef::friction_mixing`](super::WorldDef::friction_mixing) and
/// [`WorldDef::restitution_mixing`](super::WorldDef::restitution_mixing)), by default friction
/// `sqrt(fa fb)` (so a frictionless shape slides on anything) and restitution `max(ea, eb)`
/// (so a bouncy ball bounces on anything). A contact's tangent speed is the sum of its shapes'
/// and its rolling resistance the larger of theirs (times the larger rounding radius).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeDef {
    /// Mass per unit area (kg/m²): finite, from 0 to [`MAX_DENSITY`] (1e9 kg/m²). Default 1.
    /// On a dynamic body, the body's mass must also stay within
    /// [`MAX_BODY_MASS`](crate::settings::MAX_BODY_MASS) (1e18 kg).
    pub density: f32,
    /// Coulomb friction coefficient: finite, from 0 to [`MAX_FRICTION`] (1000). Default 0.6.
    pub friction: f32,
    /// Coefficient of restitution (1 bounces back at the approach speed): finite, from 0 to
    /// [`MAX_RESTITUTION`] (10). Default 0.
    pub restitution: f32,
    /// The speed of the shape's surface along itself (m/s; finite, at most
    /// [`MAX_TANGENT_SPEED`] in magnitude): a conveyor belt. Friction drives the bodies the
    /// shape touches toward this speed relative to the shape's body, along the surface:
    /// positive moves them clockwise around the shape (on the top face of a belt, toward +x
    /// when the body is not turned), negative counter-clockwise. A contact's target is the sum
    /// of its two shapes' speeds; friction still bounds the force that drives it (a belt
    /// without friction carries nothing). Default 0.
    pub tangent_speed: f32,
    /// Rolling resistance (dimensionless; finite, from 0 to [`MAX_ROLLING_RESISTANCE`]), after
    /// Box2D v3.1: each contact's relative turning is resisted by an angular impulse of at most
    /// `rolling_resistance × total normal impulse × radius`, with the larger of the two
    /// shapes' coefficients and the larger of their rounding radii (a circle's or capsule's
    /// radius, a rounded polygon's rounding; zero for sharp polygons, segments and chains,
    /// which do not roll). A ball rolling on the ground slows and stops; 0 (the default)
    /// rolls on.
    pub rolling_resistance: f32,
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
            tangent_speed: 0.0,
            rolling_resistance: 0.0,
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
        check_density(self.density)?;
        check_friction(self.friction)?;
        check_restitution(self.restitution)?;
        check_tangent_speed(self.tangent_speed)?;
        check_rolling_resistance(self.rolling_resistance)
    }
}

/// Fails unless `density` is finite and from 0 to [`MAX_DENSITY`].
pub(crate) fn check_density(density: f32) -> Result<(), WorldError> {
    check_range(density, (0.0, MAX_DENSITY), "shape density", "finite, from 0 to MAX_DENSITY (1e9 kg/m²)")
}

/// Fails unless `friction` is finite and from 0 to [`MAX_FRICTION`].
pub(crate) fn check_friction(friction: f32) -> Result<(), WorldError> {
    check_range(friction, (0.0, MAX_FRICTION), "shape friction", "finite, from 0 to MAX_FRICTION (1000)")
}

/// Fails unless `restitution` is finite and from 0 to [`MAX_RESTITUTION`].
pub(crate) fn check_restitution(restitution: f32) -> Result<(), WorldError> {
    check_range(restitution, (0.0, MAX_RESTITUTION), "shape restitution", "finite, from 0 to MAX_RESTITUTION (10)")
}

/// Fails unless `speed` is finite and at most [`MAX_TANGENT_SPEED`] in magnitude.
pub(crate) fn check_tangent_speed(speed: f32) -> Result<(), WorldError> {
    let requirement = "finite, at most MAX_TANGENT_SPEED (1e6 m/s) in magnitude";
    check_range(speed, (-MAX_TANGENT_SPEED, MAX_TANGENT_SPEED), "shape tangent speed", requirement)
}

/// Fails unless `resistance` is finite and from 0 to [`MAX_ROLLING_RESISTANCE`].
pub(crate) fn check_rolling_resistance(resistance: f32) -> Result<(), WorldError> {
    let requirement = "finite, from 0 to MAX_ROLLING_RESISTANCE (1000)";
    check_range(resistance, (0.0, MAX_ROLLING_RESISTANCE), "shape rolling resistance", requirement)
}

/// The world's record of a shape.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Collider {
    pub body: u32,
    pub geometry: Shape,
    pub density: f32,
    pub friction: f32,
    pub restitution: f32,
    pub tangent_speed: f32,
    pub rolling_resistance: f32,
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
