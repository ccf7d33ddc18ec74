//! Segments: two points, no thickness.

use super::error::{GeometryError, check_point};
use crate::math::Vec3;
use crate::settings::LINEAR_SLOP;

/// A line segment between two points (meters, body coordinates). It has no volume and no
/// mass: it is for static geometry and queries.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment {
    point1: Vec3,
    point2: Vec3,
}

impl Segment {
    /// The segment `point1`–`point2`.
    ///
    /// Errors: [`GeometryError::NonFinite`] for NaN or infinite input,
    /// [`GeometryError::TooLarge`] beyond [`crate::settings::MAX_COORDINATE`],
    /// [`GeometryError::DegenerateSegment`] when the points are closer than the linear slop.
    pub fn new(point1: Vec3, point2: Vec3) -> Result<Segment, GeometryError> {
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
    pub fn point1(&self) -> Vec3 {
        self.point1
    }

    /// The second end (meters, body coordinates).
    #[inline]
    pub fn point2(&self) -> Vec3 {
        self.point2
    }
}
