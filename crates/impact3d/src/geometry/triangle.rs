//! Triangles: three points, no thickness (the pieces of static meshes).

use super::error::{GeometryError, check_point};
use crate::math::Vec3;
use crate::settings::LINEAR_SLOP;

/// A triangle (meters, body coordinates). It has no volume and no mass: it is for static
/// geometry and queries. Its normal follows the right-hand rule over `a`, `b`, `c`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Triangle {
    corners: [Vec3; 3],
}

impl Triangle {
    /// The triangle `a`, `b`, `c`.
    ///
    /// Errors: [`GeometryError::NonFinite`] for NaN or infinite input,
    /// [`GeometryError::TooLarge`] beyond [`crate::settings::MAX_COORDINATE`],
    /// [`GeometryError::DegenerateTriangle`] when its area is below the linear slop squared
    /// (its corners are nearly on one line, or two coincide). The area is computed in f64
    /// from differences, so a triangle far from the origin is judged as one at it.
    pub fn new(a: Vec3, b: Vec3, c: Vec3) -> Result<Triangle, GeometryError> {
        check_point(a, "triangle a")?;
        check_point(b, "triangle b")?;
        check_point(c, "triangle c")?;
        let (ab, ac) = (b.as_dvec3() - a.as_dvec3(), c.as_dvec3() - a.as_dvec3());
        let area = 0.5 * ab.cross(ac).length();
        if area < (LINEAR_SLOP * LINEAR_SLOP) as f64 {
            return Err(GeometryError::DegenerateTriangle { area: area as f32 });
        }
        Ok(Triangle { corners: [a, b, c] })
    }

    /// The corners (meters, body coordinates).
    #[inline]
    pub fn corners(&self) -> [Vec3; 3] {
        self.corners
    }

    /// The unit normal, by the right-hand rule over the corners.
    pub fn normal(&self) -> Vec3 {
        let [a, b, c] = self.corners;
        (b - a).cross(c - a).normalize()
    }
}
