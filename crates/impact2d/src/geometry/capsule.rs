//! Capsules: a segment inflated by a radius.

use super::error::{GeometryError, check_point, check_radius};
use crate::math::Vec2;
use crate::settings::LINEAR_SLOP;

/// A solid capsule: the points within `radius` of the segment from `center1` to `center2`
/// (meters, body coordinates).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Capsule {
    center1: Vec2,
    center2: Vec2,
    radius: f32,
}

impl Capsule {
    /// A capsule around the segment `center1`–`center2` with `radius`.
    ///
    /// Errors: [`GeometryError::NonFinite`] for NaN or infinite input,
    /// [`GeometryError::TooLarge`] beyond [`crate::settings::MAX_COORDINATE`],
    /// [`GeometryError::InvalidRadius`] unless `radius > 0`,
    /// [`GeometryError::DegenerateSegment`] when the centers are closer than the linear
    /// slop (use a circle).
    pub fn new(center1: Vec2, center2: Vec2, radius: f32) -> Result<Capsule, GeometryError> {
        check_point(center1, "capsule center1")?;
        check_point(center2, "capsule center2")?;
        check_radius(radius, "capsule radius", false)?;
        let distance = center1.distance(center2);
        if distance < LINEAR_SLOP {
            return Err(GeometryError::DegenerateSegment { what: "capsule", distance });
        }
        Ok(Capsule { center1, center2, radius })
    }

    /// The first end of the core segment (meters, body coordinates).
    #[inline]
    pub fn center1(&self) -> Vec2 {
        self.center1
    }

    /// The second end of the core segment (meters, body coordinates).
    #[inline]
    pub fn center2(&self) -> Vec2 {
        self.center2
    }

    /// The radius (meters).
    #[inline]
    pub fn radius(&self) -> f32 {
        self.radius
    }
}
