//! Convex hulls of point sets by quickhull.

use super::error::GeometryError;
use crate::math::Vec2;
use crate::settings::MAX_POLYGON_VERTICES;

/// A convex hull: 3 to 8 points, counter-clockwise, no three collinear, no two closer than
/// the linear slop (meters).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hull {
    points: [Vec2; MAX_POLYGON_VERTICES],
    count: usize,
}

impl Hull {
    /// The hull's points, counter-clockwise.
    #[inline]
    pub fn points(&self) -> &[Vec2] {
        &self.points[..self.count]
    }
}

/// The convex hull of `points` (any order).
pub fn compute_hull(points: &[Vec2]) -> Result<Hull, GeometryError> {
    let _ = points;
    todo!("quickhull: assigned to the geometry helper")
}
