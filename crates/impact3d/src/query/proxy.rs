//! Shape proxies: what the pairwise queries see of a shape (its core points and a radius).

use crate::geometry::{GeometryError, Shape};
use crate::math::Vec3;
use crate::settings::{MAX_COORDINATE, MAX_HULL_VERTICES};

/// A convex shape as the queries see it: the convex hull of 1 to
/// [`MAX_HULL_VERTICES`] core points (meters, body coordinates), rounded by `radius`
/// (meters). A sphere is one point, a capsule or segment two, a triangle three, a hull its
/// vertices.
#[derive(Clone, Debug, PartialEq)]
pub struct ShapeProxy {
    points: Vec<Vec3>,
    radius: f32,
}

impl ShapeProxy {
    /// A proxy of `points` rounded by `radius`.
    ///
    /// Errors: [`GeometryError::TooFewPoints`] without points,
    /// [`GeometryError::TooManyVertices`] beyond [`MAX_HULL_VERTICES`],
    /// [`GeometryError::NonFinite`] or [`GeometryError::TooLarge`] for a coordinate or radius
    /// that is not finite or beyond [`MAX_COORDINATE`], [`GeometryError::InvalidRadius`] for
    /// a negative radius.
    pub fn new(points: &[Vec3], radius: f32) -> Result<ShapeProxy, GeometryError> {
        if points.is_empty() {
            return Err(GeometryError::TooFewPoints { count: 0 });
        }
        if points.len() > MAX_HULL_VERTICES {
            return Err(GeometryError::TooManyVertices { count: points.len(), max: MAX_HULL_VERTICES });
        }
        for p in points {
            if !p.is_finite() {
                return Err(GeometryError::NonFinite { what: "proxy point" });
            }
            if p.abs().max_element() > MAX_COORDINATE {
                return Err(GeometryError::TooLarge {
                    what: "proxy point",
                    value: p.abs().max_element(),
                    max: MAX_COORDINATE,
                });
            }
        }
        if !radius.is_finite() || radius > MAX_COORDINATE {
            return Err(GeometryError::NonFinite { what: "proxy radius" });
        }
        if radius < 0.0 {
            return Err(GeometryError::InvalidRadius {
                what: "proxy radius",
                requirement: "zero or positive",
                value: radius,
            });
        }
        Ok(ShapeProxy { points: points.to_vec(), radius })
    }

    /// The proxy of a shape (in the shape's body coordinates).
    pub fn from_shape(shape: &Shape) -> ShapeProxy {
        ShapeProxy { points: shape.core_points(), radius: shape.radius() }
    }

    /// The proxy of a single point (meters, body coordinates), radius 0.
    pub fn point(p: Vec3) -> ShapeProxy {
        ShapeProxy { points: vec![p], radius: 0.0 }
    }

    /// The core points (meters, body coordinates).
    #[inline]
    pub fn points(&self) -> &[Vec3] {
        &self.points
    }

    /// The rounding radius (meters).
    #[inline]
    pub fn radius(&self) -> f32 {
        self.radius
    }

    /// The index of the core point farthest along `direction` (the first of equals).
    pub fn support(&self, direction: Vec3) -> usize {
        let mut best = (0, f32::NEG_INFINITY);
        for (i, p) in self.points.iter().enumerate() {
            let d = p.dot(direction);
            if d > best.1 {
                best = (i, d);
            }
        }
        best.0
    }
}
