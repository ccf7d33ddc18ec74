//! Two-sided line segments.

use super::error::{GeometryError, check_point};
use crate::math::Vec2;
use crate::settings::LINEAR_SLOP;

/// A line segment from `point1` to `point2` (meters, body coordinates). It has no area and
/// no mass; it collides on both sides.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Segment {
    point1: Vec2,
    point2: Vec2,
}

impl Segment {
    /// The segment from `point1` to `point2`.
    ///
    /// Errors: [`GeometryError::NonFinite`] for NaN or infinite input,
    /// [`GeometryError::TooLarge`] beyond [`crate::settings::MAX_COORDINATE`],
    /// [`GeometryError::DegenerateSegment`] when the points are closer than the linear slop.
    pub fn new(point1: Vec2, point2: Vec2) -> Result<Segment, GeometryError> {
        check_point(point1, "segment point1")?;
        check_point(point2, "segment point2")?;
        let distance = point1.distance(point2);
        if distance < LINEAR_SLOP {
            return Err(GeometryError::DegenerateSegment { what: "segment", distance });
        }
        Ok(Segment { point1, point2 })
    }

    /// The first end (meters, body coordinates).
    #[inline]
    pub fn point1(&self) -> Vec2 {
        self.point1
    }

    /// The second end (meters, body coordinates).
    #[inline]
    pub fn point2(&self) -> Vec2 {
        self.point2
    }
}
