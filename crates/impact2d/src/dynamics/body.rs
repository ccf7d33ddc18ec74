//! Bodies: their types, the settings they are made from, and the world's record of each.

use super::error::{WorldError, check_angular_velocity, check_range, check_vector, check_velocity};
use super::handles::NULL;
use crate::math::{Rot, Sweep, Transform, Vec2};
use crate::settings::{CONTINUOUS_SAFETY_FACTOR, MAX_CONTINUOUS_SAFETY_FACTOR, MAX_DAMPING, MAX_GRAVITY_SCALE};

/// How a body moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum BodyType {
    /// Never moves; infinite mass. Collides with dynamic bodies only.
    #[default]
    Static,
    /// Moves by its velocity, which only the user changes; infinite mass, so it pushes
    /// dynamic bodies and nothing pushes it. Collides with dynamic bodies only.
    Kinematic,
    /// Moves by gravity, forces and contacts; its mass comes from its shapes.
    Dynamic,
}

/// The settings a body is made from. `BodyDef::default()` is a static body at the origin;
/// [`BodyDef::dynamic`] starts a dynamic one.
///
/// Units: meters, radians, seconds. Every number has a finite range, given with its field;
/// [`World::create_body`](super::World::create_body) refuses a definition with a value
/// outside it with [`WorldError::InvalidValue`] (naming the field: `"body linear velocity"`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyDef {
    /// Static, kinematic or dynamic.
    pub body_type: BodyType,
    /// The world position of the body origin (meters): finite, each component within
    /// [`MAX_COORDINATE`](crate::settings::MAX_COORDINATE) (1e9 m).
    pub position: Vec2,
    /// The body angle (radians, counter-clockwise): finite, within 1e6 rad.
    pub angle: f32,
    /// The linear velocity of the center of mass (m/s): finite, its length at most
    /// [`MAX_LINEAR_SPEED`](crate::settings::MAX_LINEAR_SPEED) (1e6 m/s).
    pub linear_velocity: Vec2,
    /// The angular velocity (rad/s): finite, at most
    /// [`MAX_ANGULAR_SPEED`](crate::settings::MAX_ANGULAR_SPEED) (1e5 rad/s) in magnitude.
    pub angular_velocity: f32,
    /// Linear damping (1/s): the velocity decays as `v / (1 + h c)` per sub-step of `h` seconds.
    /// Finite, from 0 to [`MAX_DAMPING`] (1e6 1/s).
    pub linear_damping: f32,
    /// Angular damping (1/s), as the linear damping: finite, from 0 to [`MAX_DAMPING`].
    pub angular_damping: f32,
    /// Multiplies the world's gravity for this body (1 is normal, 0 floats, negative rises):
    /// finite, at most [`MAX_GRAVITY_SCALE`] (1000) in magnitude.
    pub gravity_scale: f32,
    /// A body with fixed rotation never turns (its inverse rotational inertia is zero).
    pub fixed_rotation: bool,
    /// A bullet is swept by continuous collision whenever it moves more than
    /// [`BULLET_MIN_MOTION`](crate::settings::BULLET_MIN_MOTION) in a step, not only when it
    /// is fast for its size (see [`BodyDef::continuous`]). For small, fast, important bodies.
    pub bullet: bool,
    /// Continuous collision: when the body moves more than [`BodyDef::safety_factor`] times
    /// its smallest extent in a step, its motion is swept against every other shape (static,
    /// kinematic and dynamic, fast or not) so it cannot pass through any. Default true;
    /// ignored for bullets.
    pub continuous: bool,
    /// How far a dynamic body may move in a step before continuous collision sweeps it, as a
    /// fraction of its smallest extent (about half its thickness; a turn counts as its angle
    /// times the body's largest extent). Finite, above 0 and at most
    /// [`MAX_CONTINUOUS_SAFETY_FACTOR`] (1: beyond it the body's middle could pass a thin wall
    /// unswept). Default [`CONTINUOUS_SAFETY_FACTOR`] (0.5).
    ///
    /// The trade: a smaller factor sweeps the body at lower speeds, so it sinks less deep into
    /// what it hits before continuous collision stops it (fewer visible overlaps), at the cost
    /// of more time-of-impact queries; a larger one sweeps it less often and lets it sink
    /// deeper into other bodies (up to the factor times its smallest extent in a step) before
    /// continuous collision acts, leaving more to the contact solver's push-out. Also the
    /// limit of the relative-motion test that leaves two dynamic bodies moving together (a
    /// flying pile) to the contact solver: the smaller of the two bodies' limits counts.
    /// Ignored for bullets (swept whenever they move more than
    /// [`BULLET_MIN_MOTION`](crate::settings::BULLET_MIN_MOTION)) and for bodies that are not
    /// dynamic or not continuous.
    pub safety_factor: f32,
    /// Whether the body starts awake. A sleeping body wakes when touched.
    pub awake: bool,
    /// Whether the body may fall asleep. A body that may not keeps its whole island awake.
    pub sleep_allowed: bool,
    /// Anything the user wants to keep with the body.
    pub user_data: u64,
}

impl Default for BodyDef {
    fn default() -> Self {
        BodyDef {
            body_type: BodyType::Static,
            position: Vec2::ZERO,
            angle: 0.0,
            linear_velocity: Vec2::ZERO,
            angular_velocity: 0.0,
            linear_damping: 0.0,
            angular_damping: 0.0,
            gravity_scale: 1.0,
            fixed_rotation: false,
            bullet: false,
            continuous: true,
            safety_factor: CONTINUOUS_SAFETY_FACTOR,
            awake: true,
            sleep_allowed: true,
            user_data: 0,
        }
    }
}

impl BodyDef {
    /// A dynamic body at `position` (meters), otherwise the defaults.
    pub fn dynamic(position: Vec2) -> BodyDef {
        BodyDef { body_type: BodyType::Dynamic, position, ..BodyDef::default() }
    }

    /// A kinematic body at `position` (meters), otherwise the defaults.
    pub fn kinematic(position: Vec2) -> BodyDef {
        BodyDef { body_type: BodyType::Kinematic, position, ..BodyDef::default() }
    }

    /// A static body at `position` (meters), otherwise the defaults.
    pub fn fixed(position: Vec2) -> BodyDef {
        BodyDef { position, ..BodyDef::default() }
    }

    /// Checks every number against its range (see the fields).
    pub(crate) fn validate(&self) -> Result<(), WorldError> {
        check_vector(self.position, "body position")?;
        check_angle(self.angle)?;
        check_velocity(self.linear_velocity, "body linear velocity")?;
        check_angular_velocity(self.angular_velocity, "body angular velocity")?;
        let requirement = "finite, from 0 to MAX_DAMPING (1e6 1/s)";
        check_range(self.linear_damping, (0.0, MAX_DAMPING), "body linear damping", requirement)?;
        check_range(self.angular_damping, (0.0, MAX_DAMPING), "body angular damping", requirement)?;
        let requirement = "finite, at most MAX_GRAVITY_SCALE (1000) in magnitude";
        check_range(self.gravity_scale, (-MAX_GRAVITY_SCALE, MAX_GRAVITY_SCALE), "body gravity scale", requirement)?;
        check_safety_factor(self.safety_factor)
    }
}

/// Fails unless `factor` is a valid [`BodyDef::safety_factor`]: finite, above 0 and at most
/// [`MAX_CONTINUOUS_SAFETY_FACTOR`].
pub(crate) fn check_safety_factor(factor: f32) -> Result<(), WorldError> {
    // NaN fails both comparisons; infinity fails the upper bound.
    if factor > 0.0 && factor <= MAX_CONTINUOUS_SAFETY_FACTOR {
        Ok(())
    } else {
        Err(WorldError::InvalidValue {
            what: "body safety factor",
            requirement: "above 0 and at most MAX_CONTINUOUS_SAFETY_FACTOR (1)",
        })
    }
}

/// Fails unless `angle` is finite and within a million radians (where f32 angles are still
/// a fraction of a degree apart).
pub(crate) fn check_angle(angle: f32) -> Result<(), WorldError> {
    if angle.is_finite() && angle.abs() <= 1.0e6 {
        Ok(())
    } else {
        Err(WorldError::InvalidValue { what: "body angle", requirement: "finite and within 1e6 radians" })
    }
}

/// The angle reduced to [-π, π) (radians); angles already there are returned as they are.
#[inline]
pub(crate) fn reduce_angle(angle: f32) -> f32 {
    use std::f32::consts::{PI, TAU};
    if (-PI..PI).contains(&angle) {
        return angle;
    }
    // f64 keeps the reduction exact to f32 precision for every accepted angle.
    let r = (f64::from(angle) + std::f64::consts::PI).rem_euclid(std::f64::consts::TAU) - std::f64::consts::PI;
    let r = r as f32;
    if r >= PI { r - TAU } else { r.max(-PI) }
}

/// The world's record of a body.
///
/// The state is the center of mass `center` and the `angle`; `transform` (the body origin
/// and rotation) is derived from them after every change.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Body {
    pub body_type: BodyType,
    /// Body origin and rotation (`rot` = `Rot::from_angle(angle)`).
    pub transform: Transform,
    /// Radians; reduced to [-π, π) at the start of each step.
    pub angle: f32,
    /// World center of mass (meters).
    pub center: Vec2,
    /// Center of mass in body coordinates (meters).
    pub local_center: Vec2,
    /// The motion of the last step.
    pub sweep: Sweep,
    pub linear_velocity: Vec2,
    pub angular_velocity: f32,
    /// Accumulated force (N) and torque (N·m) for the next step.
    pub force: Vec2,
    pub torque: f32,
    pub mass: f32,
    pub inv_mass: f32,
    /// Rotational inertia about the center of mass (kg·m²).
    pub inertia: f32,
    pub inv_inertia: f32,
    pub linear_damping: f32,
    pub angular_damping: f32,
    pub gravity_scale: f32,
    pub fixed_rotation: bool,
    pub bullet: bool,
    pub continuous: bool,
    /// [`BodyDef::safety_factor`]: the fast-body test's limit, as a fraction of `min_extent`.
    pub safety_factor: f32,
    /// The smallest and largest extent of the body's shapes about the center of mass
    /// (meters), for the fast-body test of continuous collision.
    pub min_extent: f32,
    pub max_extent: f32,
    /// The step (counted from 1) in which continuous collision last swept the body as fast.
    pub fast_step: u64,
    pub sleep_allowed: bool,
    /// Position in the world's awake set; `NULL` when asleep (and always for static bodies).
    pub awake_index: u32,
    /// How long (s) the body has rested.
    pub sleep_time: f32,
    /// The island of a dynamic body; `NULL` otherwise. Doubly linked list of its bodies.
    pub island: u32,
    pub island_prev: u32,
    pub island_next: u32,
    /// Singly linked list of the body's shapes.
    pub shape_head: u32,
    pub shape_count: u32,
    /// Doubly linked list of the body's contacts (contact keys: index × 2 + end).
    pub contact_head: u32,
    pub contact_count: u32,
    /// Singly linked list of the body's joints (joint keys: index × 2 + end).
    pub joint_head: u32,
    pub user_data: u64,
    /// False while the body is out of the simulation (`World::set_body_enabled`): no proxies,
    /// contacts, island or awake slot; its shapes' proxy keys are stale.
    pub enabled: bool,
}

impl Body {
    /// The record of a new body without shapes.
    pub fn new(def: &BodyDef) -> Body {
        let angle = reduce_angle(def.angle);
        let transform = Transform { p: def.position, q: Rot::from_angle(angle) };
        let moving = def.body_type != BodyType::Static;
        let (linear_velocity, angular_velocity) =
            if moving { (def.linear_velocity, def.angular_velocity) } else { (Vec2::ZERO, 0.0) };
        let (mass, inv_mass) = if def.body_type == BodyType::Dynamic { (1.0, 1.0) } else { (0.0, 0.0) };
        Body {
            body_type: def.body_type,
            transform,
            angle,
            center: def.position,
            local_center: Vec2::ZERO,
            sweep: Sweep { local_center: Vec2::ZERO, c1: def.position, c2: def.position, a1: angle, a2: angle },
            linear_velocity,
            angular_velocity,
            force: Vec2::ZERO,
            torque: 0.0,
            mass,
            inv_mass,
            inertia: 0.0,
            inv_inertia: 0.0,
            linear_damping: def.linear_damping,
            angular_damping: def.angular_damping,
            gravity_scale: def.gravity_scale,
            fixed_rotation: def.fixed_rotation,
            bullet: def.bullet,
            continuous: def.continuous,
            safety_factor: def.safety_factor,
            min_extent: 0.0,
            max_extent: 0.0,
            fast_step: 0,
            sleep_allowed: def.sleep_allowed,
            awake_index: NULL,
            sleep_time: 0.0,
            island: NULL,
            island_prev: NULL,
            island_next: NULL,
            shape_head: NULL,
            shape_count: 0,
            contact_head: NULL,
            contact_count: 0,
            joint_head: NULL,
            user_data: def.user_data,
            enabled: true,
        }
    }

    #[inline]
    pub fn is_awake(&self) -> bool {
        self.awake_index != NULL
    }

    #[inline]
    pub fn is_dynamic(&self) -> bool {
        self.body_type == BodyType::Dynamic
    }

    /// Whether the body is kinematic (moved by its velocity only).
    pub fn is_kinematic(&self) -> bool {
        self.body_type == BodyType::Kinematic
    }

    /// Places the body by its center of mass and angle, deriving the origin and rotation.
    pub fn set_center_and_angle(&mut self, center: Vec2, angle: f32) {
        self.set_pose(center, angle, Rot::from_angle(angle));
    }

    /// [`Self::set_center_and_angle`] with the rotation already computed (the solver computes
    /// four at a time): `q` must be `Rot::from_angle(angle)`.
    pub(crate) fn set_pose(&mut self, center: Vec2, angle: f32, q: Rot) {
        debug_assert_eq!(q, Rot::from_angle(angle));
        self.center = center;
        self.angle = angle;
        self.transform = Transform { p: center - q.rotate(self.local_center), q };
    }

    /// The sweep of a body standing still where it is.
    pub fn still_sweep(&self) -> Sweep {
        Sweep { local_center: self.local_center, c1: self.center, c2: self.center, a1: self.angle, a2: self.angle }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f32::consts::PI;

    #[test]
    fn angles_reduce_to_minus_pi_to_pi() {
        for (a, want) in [(0.0f32, 0.0f32), (PI, -PI), (-PI, -PI), (3.0 * PI + 0.5, -PI + 0.5), (-7.0, -7.0 + 2.0 * PI)]
        {
            let r = reduce_angle(a);
            assert!((-PI..PI).contains(&r), "{a} -> {r}");
            assert!((r - want).abs() < 2e-6, "{a} -> {r}, want {want}");
        }
        assert_eq!(reduce_angle(1.0e6).to_bits(), reduce_angle(1.0e6).to_bits());
        assert!((-PI..PI).contains(&reduce_angle(1.0e6)));
    }
}
