//! The error of queries given invalid parameters.

pub use impact_core::QueryError;

/// Checks a transform: finite ([`QueryError::NonFinite`]), a position within
/// [`MAX_COORDINATE`](crate::settings::MAX_COORDINATE) and a unit rotation
/// ([`QueryError::OutOfRange`]).
pub(crate) fn check_transform(xf: &crate::math::Transform, what: &'static str) -> Result<(), QueryError> {
    check_vector(xf.p, what)?;
    if !(xf.q.c.is_finite() && xf.q.s.is_finite()) {
        return Err(QueryError::NonFinite { what });
    }
    let norm = xf.q.c * xf.q.c + xf.q.s * xf.q.s;
    if (norm - 1.0).abs() > 1.0e-4 {
        return Err(QueryError::OutOfRange { what, requirement: "a unit rotation (cos² + sin² = 1)", value: norm });
    }
    Ok(())
}

/// Checks a point or vector: finite ([`QueryError::NonFinite`]) and within
/// [`MAX_COORDINATE`](crate::settings::MAX_COORDINATE) ([`QueryError::OutOfRange`]).
pub(crate) fn check_vector(v: crate::math::Vec2, what: &'static str) -> Result<(), QueryError> {
    if !v.is_finite() {
        return Err(QueryError::NonFinite { what });
    }
    let largest = v.abs().max_element();
    if largest > crate::settings::MAX_COORDINATE {
        return Err(QueryError::OutOfRange {
            what,
            requirement: "within MAX_COORDINATE of the origin",
            value: largest,
        });
    }
    Ok(())
}
