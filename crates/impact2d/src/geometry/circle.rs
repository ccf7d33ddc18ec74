//! Circles.

use super::error::{GeometryError, check_point, check_radius};
use crate::math::Vec2;

/// A solid circle: a center (meters, in body coordinates) and a positive radius (meters).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Circle {
    center: Vec2,
    radius: f32,
}

impl Circle {
    /// A circle centered at `center` with `radius`.
    ///
    /// Errors: [`GeometryError::NonFinite`] for NaN or infinite input,
    /// [`GeometryError::TooLarge`] beyond [`crate::settings::MAX_COORDINATE`],
    /// [`GeometryError::InvalidRadius`] unless `radius > 0`.
    pub fn new(center: Vec2, radius: f32) -> Result<Circle, GeometryError> {
        check_point(center, "circle center")?;
        check_radius(radius, "circle radius", false)?;
        Ok(Circle { center, radius })
    }

    /// The center in body coordinates (meters).
    #[inline]
    pub fn center(&self) -> Vec2 {
        self.center
    }

    /// The radius (meters).
    #[inline]
    pub fn radius(&self) -> f32 {
        self.radius
    }
}
