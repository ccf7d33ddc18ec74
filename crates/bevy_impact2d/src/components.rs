//! The components a user puts on entities: rigid bodies, their velocity and options.
//! Colliders are in `collider.rs`, joints in `joints.rs`.
//!
//! Units: meters, kilograms, seconds, radians. A body's pose is its entity's `Transform`:
//! translation x and y are the body origin (meters), the rotation about z its angle (radians).
//! Physics entities are expected at the top of the hierarchy (their `Transform` is their pose
//! in the world).

use bevy_ecs::component::Component;
use bevy_math::{Quat, Vec2};
use bevy_transform::components::Transform;
use impact2d::{BodyId, BodyType, ShapeId};

/// A rigid body: how it moves. Requires a `Transform` (its pose) and a [`Velocity`].
///
/// Read when the body is made (at the next physics step after the component is added) and
/// whenever it changes: changing the kind changes the engine body's type, keeping its
/// shapes and joints. Removing it (or despawning the entity) destroys the engine body, its
/// shapes and its joints.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[require(Transform, Velocity)]
pub enum RigidBody {
    /// Moved by gravity, forces and contacts; its mass comes from its colliders' density
    /// (kg/m² times area). The plugin writes its `Transform` and [`Velocity`] after every step.
    #[default]
    Dynamic,
    /// Moved only by the user, with infinite mass: by its [`Velocity`], or to a new
    /// `Transform`: a change to its `Transform` moves it there over the next step (by
    /// velocity, so continuous collision sweeps it and it carries what stands on it). The
    /// plugin writes its `Transform` after every step; its [`Velocity`] stays the user's.
    Kinematic,
    /// Never moves by itself (a changed `Transform` teleports it). The ground, walls.
    Static,
}

impl RigidBody {
    /// The engine's body type.
    pub fn body_type(self) -> BodyType {
        match self {
            RigidBody::Dynamic => BodyType::Dynamic,
            RigidBody::Kinematic => BodyType::Kinematic,
            RigidBody::Static => BodyType::Static,
        }
    }
}

/// A body's velocity: of its center of mass (`linear`, m/s) and its turn (`angular`, rad/s,
/// counter-clockwise).
///
/// Dynamic bodies: the plugin writes it after every step, and a value the user sets is given
/// to the engine before the next step. Kinematic bodies: the user's (the body moves by it;
/// the plugin never writes it). Static bodies: ignored. The engine refuses a speed above 1e6
/// m/s or 1e5 rad/s (see [`PhysicsErrors`](crate::PhysicsErrors)); dynamic bodies are also
/// capped by the world's `max_linear_speed` (400 m/s by default: raise it in the plugin's
/// `WorldDef` for faster bullets).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
pub struct Velocity {
    /// Velocity of the center of mass (m/s).
    pub linear: Vec2,
    /// Angular velocity (rad/s, counter-clockwise).
    pub angular: f32,
}

impl Velocity {
    /// A velocity of `linear` m/s without turning.
    pub fn linear(linear: Vec2) -> Velocity {
        Velocity { linear, angular: 0.0 }
    }

    /// A turn of `angular` rad/s without moving.
    pub fn angular(angular: f32) -> Velocity {
        Velocity { linear: Vec2::ZERO, angular }
    }
}

/// Linear and angular damping (1/s): each sub-step of `h` seconds divides the velocity by
/// `1 + h × damping`. Each finite, from 0 to 1e6; the engine refuses others (see
/// [`PhysicsErrors`](crate::PhysicsErrors)). Default none. Read when the body is made and
/// when it changes.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
pub struct Damping {
    /// Linear damping (1/s).
    pub linear: f32,
    /// Angular damping (1/s).
    pub angular: f32,
}

/// Multiplies the world's gravity for this body (1 normal, 0 floats, negative rises): finite,
/// at most 1000 in magnitude. Read when the body is made and when it changes.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct GravityScale(pub f32);

impl Default for GravityScale {
    fn default() -> Self {
        GravityScale(1.0)
    }
}

/// Continuous collision options of a dynamic body. Without this component a body is
/// continuous and not a bullet (the engine's defaults): it is swept whenever it moves more
/// than half its thickness in a step, so it passes through nothing.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct Ccd {
    /// A bullet is swept whenever it moves at all noticeably in a step, not only when it is
    /// fast for its size: for small, fast, important bodies.
    pub bullet: bool,
    /// Whether continuous collision sweeps the body when it is fast. Off, a fast body may
    /// pass through thin ones (ignored for bullets).
    pub continuous: bool,
}

impl Default for Ccd {
    fn default() -> Self {
        Ccd { bullet: false, continuous: true }
    }
}

impl Ccd {
    /// A bullet (continuous, and swept whenever it moves).
    pub fn bullet() -> Ccd {
        Ccd { bullet: true, continuous: true }
    }
}

/// A dynamic body that never turns (its rotational inertia is infinite): characters. Read
/// when the body is made and when the component is added; removing it lets the body turn
/// again.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LockRotation;

/// Keeps an entity out of the plugin: put on an entity whose body or joint the engine
/// refused (the error is in [`PhysicsErrors`](crate::PhysicsErrors)), so it is not tried again
/// at every step. Remove it to try again.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rejected;

/// The engine body of an entity, put on it by the plugin when the body is made. Read it to
/// call the engine directly through [`ImpactWorld`](crate::ImpactWorld).
#[derive(Component, Clone, Copy, Debug)]
pub struct BodyHandle {
    pub(crate) id: BodyId,
    /// The kind the engine body has, to notice when the user changes [`RigidBody`].
    pub(crate) kind: RigidBody,
    /// The pose the plugin last wrote to (or read from) the `Transform`: a `Transform` that
    /// differs was moved by the user.
    pub(crate) translation: Vec2,
    pub(crate) rotation: Quat,
    /// The velocity the plugin last wrote (dynamic bodies): a [`Velocity`] that differs was
    /// set by the user.
    pub(crate) velocity: Velocity,
}

impl BodyHandle {
    /// The engine body.
    pub fn id(&self) -> BodyId {
        self.id
    }
}

/// The engine shapes of an entity's [`Collider`](crate::Collider), put on it by the plugin
/// when they are attached (several for a chain or a concave polygon; none when the engine
/// refused the collider: see [`PhysicsErrors`](crate::PhysicsErrors)).
#[derive(Component, Clone, Debug, Default)]
pub struct ColliderHandle {
    pub(crate) shapes: Vec<ShapeId>,
}

impl ColliderHandle {
    /// The engine shapes, in the order they were attached.
    pub fn shapes(&self) -> &[ShapeId] {
        &self.shapes
    }
}
