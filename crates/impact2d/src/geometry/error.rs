//! The error of every geometry constructor.

use thiserror::Error;

/// Why a shape, hull or proxy could not be built. Each variant names the problem.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum GeometryError {
    /// An input number is NaN or infinite.
    #[error("{what} is not a finite number")]
    NonFinite {
        /// Which input.
        what: &'static str,
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
    /// A size such as a box half-width is zero or negative.
    #[error("{what} must be positive, got {value}")]
    InvalidSize {
        /// Which size.
        what: &'static str,
        /// The value given (meters).
        value: f32,
    },
    /// After welding points closer than the linear slop, fewer than 3 distinct points remain.
    #[error("polygon needs at least 3 distinct points, got {count}")]
    TooFewPoints {
        /// The number of distinct points.
        count: usize,
    },
    /// All points lie on one line, or so close to one that their hull is thinner than the
    /// linear slop: they enclose no usable area.
    #[error("polygon points are collinear (their hull is thinner than the linear slop)")]
    Collinear,
    /// The convex hull has more vertices than a polygon can hold.
    #[error("convex hull has {count} vertices, at most {max} are allowed")]
    TooManyVertices {
        /// The number of hull vertices (or proxy points).
        count: usize,
        /// The limit, [`crate::settings::MAX_POLYGON_VERTICES`].
        max: usize,
    },
    /// A coordinate is so large that lengths, areas and moments computed from it in f32
    /// would overflow or keep no meaningful digits.
    #[error("{what} has magnitude {value}, above the supported {max} m")]
    TooLarge {
        /// Which input.
        what: &'static str,
        /// The offending coordinate (meters).
        value: f32,
        /// The largest accepted magnitude (meters).
        max: f32,
    },
    /// A proxy needs between 1 and 8 points.
    #[error("a shape proxy needs 1 to {max} points, got {count}")]
    InvalidPointCount {
        /// The number of points given.
        count: usize,
        /// The limit, [`crate::settings::MAX_POLYGON_VERTICES`].
        max: usize,
    },
    /// Two points that must differ (segment or capsule ends, chain neighbors) are closer
    /// than the linear slop.
    #[error("{what}: points are closer than the linear slop ({distance} m)")]
    DegenerateSegment {
        /// Which shape.
        what: &'static str,
        /// The distance between the points (meters).
        distance: f32,
    },
    /// A concave polygon has more points than [`decompose_polygon`](super::decompose_polygon)
    /// accepts.
    #[error("concave polygon has {count} points, at most {max} are allowed")]
    TooManyPoints {
        /// The number of points given.
        count: usize,
        /// The limit, [`crate::settings::MAX_CONCAVE_POINTS`].
        max: usize,
    },
    /// Two edges of a polygon cross or touch (after welding): it is not simple.
    #[error("polygon edges {first} and {second} cross or touch (a concave polygon must be simple)")]
    SelfIntersecting {
        /// The first edge: from point `first` to the next (indices after welding).
        first: usize,
        /// The second edge, from point `second` to the next.
        second: usize,
    },
    /// A polygon given as convex is not: a point lies inside the hull of the others.
    #[error(
        "polygon is not convex: point {index} lies {depth} m inside the hull of the others (use a concave polygon, which is split into convex pieces)"
    )]
    NotConvex {
        /// The index of the first point inside the hull.
        index: usize,
        /// How far inside (meters).
        depth: f32,
    },
    /// A chain needs at least 2 points (at least 3 for a loop).
    #[error("chain needs at least {min} points, got {count}")]
    ChainTooShort {
        /// The number of points given.
        count: usize,
        /// The minimum for this kind of chain.
        min: usize,
    },
}

/// Checks a point: finite ([`GeometryError::NonFinite`]) and within
/// [`MAX_COORDINATE`](crate::settings::MAX_COORDINATE) of the origin
/// ([`GeometryError::TooLarge`]).
pub(crate) fn check_point(v: crate::math::Vec2, what: &'static str) -> Result<(), GeometryError> {
    if !v.is_finite() {
        return Err(GeometryError::NonFinite { what });
    }
    check_magnitude(v.x, what)?;
    check_magnitude(v.y, what)
}

/// Checks a number: finite ([`GeometryError::NonFinite`]) and at most
/// [`MAX_COORDINATE`](crate::settings::MAX_COORDINATE) in magnitude ([`GeometryError::TooLarge`]).
pub(crate) fn check_finite(x: f32, what: &'static str) -> Result<(), GeometryError> {
    if !x.is_finite() {
        return Err(GeometryError::NonFinite { what });
    }
    check_magnitude(x, what)
}

fn check_magnitude(x: f32, what: &'static str) -> Result<(), GeometryError> {
    let max = crate::settings::MAX_COORDINATE;
    if x.abs() > max { Err(GeometryError::TooLarge { what, value: x, max }) } else { Ok(()) }
}

/// Checks a radius: finite and bounded (see [`check_finite`]), and positive (`allow_zero`
/// false) or non-negative.
pub(crate) fn check_radius(radius: f32, what: &'static str, allow_zero: bool) -> Result<(), GeometryError> {
    check_finite(radius, what)?;
    let ok = if allow_zero { radius >= 0.0 } else { radius > 0.0 };
    if ok {
        Ok(())
    } else {
        let requirement = if allow_zero { "zero or positive" } else { "positive" };
        Err(GeometryError::InvalidRadius { what, requirement, value: radius })
    }
}
