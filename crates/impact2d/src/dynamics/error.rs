//! The error of every world operation.

use thiserror::Error;

use crate::broad_phase::BroadPhaseError;
use crate::geometry::GeometryError;
use crate::query::QueryError;

/// Why a world operation was refused. The world is unchanged when it is.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum WorldError {
    /// The handle names an object that was destroyed (or never made by this world).
    #[error("stale {kind} handle (index {index}, generation {generation})")]
    StaleHandle {
        /// "body" or "shape".
        kind: &'static str,
        /// The slot index of the handle.
        index: u32,
        /// The generation of the handle.
        generation: u32,
    },
    /// A number is NaN, infinite or out of its range.
    #[error("{what} must be {requirement}")]
    InvalidValue {
        /// Which input.
        what: &'static str,
        /// The accepted range, in words.
        requirement: &'static str,
    },
    /// The operation does not apply to this kind of body (forces on a static body, a
    /// kinematic body's velocity is fine but its mass is not).
    #[error("{operation} needs a {requirement} body")]
    WrongBodyType {
        /// What was asked.
        operation: &'static str,
        /// The body types it needs, in words.
        requirement: &'static str,
    },
    /// The world holds as many objects of one kind as it can address (for bodies,
    /// [`MAX_BODIES`](crate::settings::MAX_BODIES)).
    #[error("the world holds as many {what} as it can address")]
    Full {
        /// "bodies", "shapes" or "contacts".
        what: &'static str,
    },
    /// Invalid geometry (a chain given to `create_chain`).
    #[error(transparent)]
    Geometry(#[from] GeometryError),
    /// A query's input was refused.
    #[error(transparent)]
    Query(#[from] QueryError),
    /// The broad phase refused a box (a shape placed beyond the supported coordinates).
    #[error(transparent)]
    BroadPhase(#[from] BroadPhaseError),
}

/// Fails with [`WorldError::InvalidValue`] unless `value` is finite.
pub(crate) fn check_finite(value: f32, what: &'static str) -> Result<(), WorldError> {
    if value.is_finite() { Ok(()) } else { Err(WorldError::InvalidValue { what, requirement: "finite" }) }
}

/// Fails with [`WorldError::InvalidValue`] unless `value` is finite and not negative.
pub(crate) fn check_non_negative(value: f32, what: &'static str) -> Result<(), WorldError> {
    if value.is_finite() && value >= 0.0 {
        Ok(())
    } else {
        Err(WorldError::InvalidValue { what, requirement: "finite and not negative" })
    }
}

/// Fails with [`WorldError::InvalidValue`] unless `value` is finite and above zero.
pub(crate) fn check_positive(value: f32, what: &'static str) -> Result<(), WorldError> {
    if value.is_finite() && value > 0.0 {
        Ok(())
    } else {
        Err(WorldError::InvalidValue { what, requirement: "finite and positive" })
    }
}

/// Fails with [`WorldError::InvalidValue`] unless both components are finite and within
/// [`MAX_COORDINATE`](crate::settings::MAX_COORDINATE).
pub(crate) fn check_vector(v: crate::math::Vec2, what: &'static str) -> Result<(), WorldError> {
    if v.is_finite() && v.abs().max_element() <= crate::settings::MAX_COORDINATE {
        Ok(())
    } else {
        Err(WorldError::InvalidValue { what, requirement: "finite and within MAX_COORDINATE" })
    }
}
