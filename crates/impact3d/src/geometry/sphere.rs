//! Spheres.

use super::error::{GeometryError, check_point, check_radius};
use crate::math::Vec3;

/// A solid sphere (meters, body coordinates).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sphere {
    center: Vec3,
    radius: f32,
}

impl Sphere {
    /// A sphere of `radius` around `center`.
    ///
    /// Errors: [`GeometryError::NonFinite`] for NaN or infinite input,
    /// [`GeometryError::TooLarge`] beyond [`crate::settings::MAX_COORDINATE`],
    /// [`GeometryError::InvalidRadius`] unless `radius > 0`.
    pub fn new(center: Vec3, radius: f32) -> Result<Sphere, GeometryError> {
        check_point(center, "sphere center")?;
        check_radius(radius, "sphere radius", false)?;
        Ok(Sphere { center, radius })
    }

    /// The center (meters, body coordinates).
    #[inline]
    pub fn center(&self) -> Vec3 {
        self.center
    }

    /// The radius (meters).
    #[inline]
    pub fn radius(&self) -> f32 {
        self.radius
    }
}
