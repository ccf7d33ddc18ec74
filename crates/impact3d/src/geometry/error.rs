//! The error of every 3D geometry constructor.

use crate::math::Vec3;
use crate::settings::MAX_COORDINATE;
use thiserror::Error;

/// Why a shape or hull could not be built. Each variant names the problem.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum GeometryError {
    /// An input number is NaN or infinite.
    #[error("{what} is not a finite number")]
    NonFinite {
        /// Which input.
        what: &'static str,
    },
    /// A coordinate or size beyond [`MAX_COORDINATE`] in magnitude.
    #[error("{what} has magnitude {value}, above the supported {max} m")]
    TooLarge {
        /// Which input.
        what: &'static str,
        /// The offending number (meters).
        value: f32,
        /// The largest accepted magnitude (meters).
        max: f32,
    },
    /// A radius is negative (or zero where a positive radius is required).
    #[error("{what} must be {requirement}, got {value}")]
    InvalidRadius {
        /// Which radius.
        what: &'static str,
        /// What was required ("positive" or "zero or positive").
        requirement: &'static str,
        /// The value given (meters).
        value: f32,
    },
    /// A size such as a box half-extent is not positive.
    #[error("{what} must be positive, got {value}")]
    InvalidSize {
        /// Which size.
        what: &'static str,
        /// The value given (meters).
        value: f32,
    },
    /// Two points that must differ (segment or capsule ends) are closer than the linear slop.
    #[error("{what}: points are closer than the linear slop ({distance} m)")]
    DegenerateSegment {
        /// Which shape.
        what: &'static str,
        /// The distance between the points (meters).
        distance: f32,
    },
    /// A triangle whose corners are (nearly) on one line: its area is below the linear slop
    /// squared.
    #[error("triangle corners are collinear (area {area} m²)")]
    DegenerateTriangle {
        /// The triangle's area (m²).
        area: f32,
    },
    /// Fewer than 4 distinct points remain after welding points closer than the linear slop.
    #[error("a convex hull needs at least 4 distinct points, got {count}")]
    TooFewPoints {
        /// The number of distinct points.
        count: usize,
    },
    /// More points than a hull is built from.
    #[error("a convex hull is built from at most {max} points, got {count}")]
    TooManyPoints {
        /// The number of points given.
        count: usize,
        /// The limit, [`crate::settings::MAX_HULL_POINTS`].
        max: usize,
    },
    /// All points lie on one plane (or a line), or within the linear slop of one: they
    /// enclose no usable volume.
    #[error("hull points are coplanar (their hull is thinner than the linear slop)")]
    Coplanar,
    /// The hull keeps more vertices than a hull may have.
    #[error("convex hull has {count} vertices, at most {max} are allowed")]
    TooManyVertices {
        /// The number of hull vertices.
        count: usize,
        /// The limit, [`crate::settings::MAX_HULL_VERTICES`].
        max: usize,
    },
}

/// Checks a number: finite and at most [`MAX_COORDINATE`] in magnitude.
pub(crate) fn check_number(x: f32, what: &'static str) -> Result<(), GeometryError> {
    if !x.is_finite() {
        return Err(GeometryError::NonFinite { what });
    }
    if x.abs() > MAX_COORDINATE {
        return Err(GeometryError::TooLarge { what, value: x, max: MAX_COORDINATE });
    }
    Ok(())
}

/// Checks a point: each coordinate as [`check_number`].
pub(crate) fn check_point(v: Vec3, what: &'static str) -> Result<(), GeometryError> {
    check_number(v.x, what)?;
    check_number(v.y, what)?;
    check_number(v.z, what)
}

/// Checks a radius: as [`check_number`], and positive (`allow_zero` false) or not negative.
pub(crate) fn check_radius(radius: f32, what: &'static str, allow_zero: bool) -> Result<(), GeometryError> {
    check_number(radius, what)?;
    let ok = if allow_zero { radius >= 0.0 } else { radius > 0.0 };
    if ok {
        Ok(())
    } else {
        let requirement = if allow_zero { "zero or positive" } else { "positive" };
        Err(GeometryError::InvalidRadius { what, requirement, value: radius })
    }
}
