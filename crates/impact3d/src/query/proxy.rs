//! Shape proxies: what the pairwise queries see of a shape (its core points and a radius).

use super::point_lanes::PointLanes;
use crate::geometry::{GeometryError, Shape};
use crate::math::Vec3;
use crate::settings::{MAX_COORDINATE, MAX_HULL_VERTICES};

/// A convex shape as the queries see it: the convex hull of 1 to
/// [`MAX_HULL_VERTICES`] core points (meters, body coordinates), rounded by `radius`
/// (meters). A sphere is one point, a capsule or segment two, a triangle three, a hull its
/// vertices.
#[derive(Clone, PartialEq)]
pub struct ShapeProxy {
    points: Vec<Vec3>,
    radius: f32,
    /// The points in lanes of four, for [`Self::support`].
    lanes: PointLanes,
}

impl std::fmt::Debug for ShapeProxy {
    /// The points and the radius (the lanes repeat the points).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ShapeProxy").field("points", &self.points).field("radius", &self.radius).finish()
    }
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
        Ok(ShapeProxy::of(points.to_vec(), radius))
    }

    /// The proxy of a shape (in the shape's body coordinates).
    pub fn from_shape(shape: &Shape) -> ShapeProxy {
        ShapeProxy::of(shape.core_points(), shape.radius())
    }

    /// The proxy of a single point (meters, body coordinates), radius 0.
    pub fn point(p: Vec3) -> ShapeProxy {
        ShapeProxy::of(vec![p], 0.0)
    }

    /// The proxy of checked points (at least one) and radius.
    fn of(points: Vec<Vec3>, radius: f32) -> ShapeProxy {
        let lanes = PointLanes::new(&points);
        ShapeProxy { points, radius, lanes }
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
    #[inline]
    pub fn support(&self, direction: Vec3) -> usize {
        // One or two points: a plain scan is as quick as the lanes.
        match self.points.len() {
            1 => 0,
            // `max` with −∞ turns a NaN first dot into −∞, as the scan's starting value.
            2 => usize::from(self.points[1].dot(direction) > self.points[0].dot(direction).max(f32::NEG_INFINITY)),
            _ => self.lanes.support(direction),
        }
    }
}
