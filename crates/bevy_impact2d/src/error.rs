//! What went wrong: the plugin's error type, and the resource that keeps the errors its
//! systems met.
//!
//! Systems never panic on an engine error: a refused body, shape, joint or step is logged
//! with the `log` crate (`warn!`; Bevy's `LogPlugin` shows it) and kept in [`PhysicsErrors`],
//! which an app or a test reads.

use std::collections::VecDeque;

use bevy_ecs::entity::Entity;
use bevy_ecs::resource::Resource;
use impact2d::{GeometryError, WorldError};

/// Why the plugin or a [`SpatialQuery`](crate::SpatialQuery) refused something.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ImpactError {
    /// The engine refused the operation (a stale handle, a number out of range, a full world).
    #[error(transparent)]
    World(#[from] WorldError),
    /// A collider's geometry is invalid (a radius that is not positive, a degenerate polygon).
    #[error(transparent)]
    Geometry(#[from] GeometryError),
    /// A shape cast was asked with a collider made of several engine shapes (a chain or a
    /// concave polygon): only single convex shapes can be cast.
    #[error("only a single convex collider can be cast (not a chain or a concave polygon)")]
    NotCastable,
    /// A joint names an entity that has no rigid body in the engine (no [`RigidBody`](crate::RigidBody),
    /// refused, or despawned).
    #[error("joint body {0} has no rigid body")]
    MissingBody(Entity),
}

/// How many errors [`PhysicsErrors`] keeps (the oldest go first).
pub const KEPT_ERRORS: usize = 64;

/// An error a plugin system met, with the entity it was about.
#[derive(Clone, Debug, PartialEq)]
pub struct PhysicsErrorRecord {
    /// The entity whose body, collider or joint was refused; `None` for the world (a step).
    pub entity: Option<Entity>,
    /// What the plugin was doing: "create body", "attach collider", "step", ...
    pub operation: &'static str,
    /// The error.
    pub error: ImpactError,
}

/// The errors the plugin's systems met, newest last: the last [`KEPT_ERRORS`] of them, and
/// how many there were in all. Each is also logged (`log::warn!`) when it happens.
#[derive(Resource, Clone, Debug, Default)]
pub struct PhysicsErrors {
    total: u64,
    recent: VecDeque<PhysicsErrorRecord>,
}

impl PhysicsErrors {
    /// How many errors the plugin met since the app started (or since [`PhysicsErrors::clear`]).
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The last [`KEPT_ERRORS`] errors, oldest first.
    pub fn recent(&self) -> impl Iterator<Item = &PhysicsErrorRecord> {
        self.recent.iter()
    }

    /// Forgets every error and resets the count.
    pub fn clear(&mut self) {
        self.total = 0;
        self.recent.clear();
    }

    /// Logs an error and keeps it.
    pub(crate) fn record(&mut self, entity: Option<Entity>, operation: &'static str, error: impl Into<ImpactError>) {
        let error = error.into();
        match entity {
            Some(e) => log::warn!("impact2d: {operation} for entity {e}: {error}"),
            None => log::warn!("impact2d: {operation}: {error}"),
        }
        self.total += 1;
        if self.recent.len() == KEPT_ERRORS {
            self.recent.pop_front();
        }
        self.recent.push_back(PhysicsErrorRecord { entity, operation, error });
    }
}
