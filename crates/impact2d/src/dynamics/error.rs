//! The error of every world operation.

use thiserror::Error;

use crate::broad_phase::BroadPhaseError;
use crate::geometry::GeometryError;
use crate::query::QueryError;

/// Why a world operation was refused. The world is unchanged when it is.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum WorldError {
    /// The handle names an object that was destroyed.
    #[error("stale {kind} handle (index {index}, generation {generation})")]
    StaleHandle {
        /// "body", "shape" or "joint".
        kind: &'static str,
        /// The slot index of the handle.
        index: u32,
        /// The generation of the handle.
        generation: u32,
    },
    /// The handle was made by another world (every world has its own identity, which its
    /// handles carry; a clone of a world shares it).
    #[error("{kind} handle (index {index}, generation {generation}) belongs to another world")]
    ForeignHandle {
        /// "body", "shape" or "joint".
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
    /// A joint cannot be made as asked (a body jointed to itself).
    #[error("invalid joint: {reason}")]
    InvalidJoint {
        /// Why, in words.
        reason: &'static str,
    },
    /// The operation does not apply to this kind of joint (a motor speed for a weld joint).
    #[error("{operation} needs a {requirement} joint")]
    WrongJointKind {
        /// What was asked.
        operation: &'static str,
        /// The joint kinds it needs, in words.
        requirement: &'static str,
    },
    /// The world holds as many objects of one kind as it can address (for bodies,
    /// [`MAX_BODIES`](crate::settings::MAX_BODIES)).
    #[error("the world holds as many {what} as it can address")]
    Full {
        /// "bodies", "shapes", "joints" or "contacts".
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

/// Fails with [`WorldError::InvalidValue`] unless `value` is finite and within `min..=max`
/// (`requirement` says so in words, with the bounds' names and values).
pub(crate) fn check_range(
    value: f32,
    (min, max): (f32, f32),
    what: &'static str,
    requirement: &'static str,
) -> Result<(), WorldError> {
    // NaN fails both comparisons; infinities fail one.
    if value >= min && value <= max { Ok(()) } else { Err(WorldError::InvalidValue { what, requirement }) }
}

/// Fails with [`WorldError::InvalidValue`] unless both components of `v` are finite and at
/// most `max` in magnitude.
pub(crate) fn check_components(
    v: crate::math::Vec2,
    max: f32,
    what: &'static str,
    requirement: &'static str,
) -> Result<(), WorldError> {
    if v.x.abs() <= max && v.y.abs() <= max { Ok(()) } else { Err(WorldError::InvalidValue { what, requirement }) }
}

/// Fails with [`WorldError::InvalidValue`] unless `v` is finite and its length is at most
/// [`MAX_LINEAR_SPEED`](crate::settings::MAX_LINEAR_SPEED).
pub(crate) fn check_velocity(v: crate::math::Vec2, what: &'static str) -> Result<(), WorldError> {
    // A finite vector whose squared length overflows has an infinite length: beyond the bound.
    if v.is_finite() && v.length() <= crate::settings::MAX_LINEAR_SPEED {
        Ok(())
    } else {
        Err(WorldError::InvalidValue { what, requirement: "finite, its length at most MAX_LINEAR_SPEED (1e6 m/s)" })
    }
}

/// Fails with [`WorldError::InvalidValue`] unless `w` is finite and at most
/// [`MAX_ANGULAR_SPEED`](crate::settings::MAX_ANGULAR_SPEED) in magnitude.
pub(crate) fn check_angular_velocity(w: f32, what: &'static str) -> Result<(), WorldError> {
    let max = crate::settings::MAX_ANGULAR_SPEED;
    check_range(w, (-max, max), what, "finite, at most MAX_ANGULAR_SPEED (1e5 rad/s) in magnitude")
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
