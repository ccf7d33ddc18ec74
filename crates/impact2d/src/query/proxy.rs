//! Shape proxies: the convex hull of up to 8 points, inflated by a radius.
//!
//! Every pairwise query (distance, penetration, shape cast, time of impact) works on
//! proxies, so one algorithm serves every pair of shape kinds.

use crate::geometry::{GeometryError, Shape, check_point, check_radius};
use crate::math::{Transform, Vec2};
use crate::settings::MAX_POLYGON_VERTICES;

/// The convex hull of 1 to 8 points (meters) inflated by `radius` (meters): one point is a
/// circle, two a capsule (a segment when the radius is zero), more a rounded polygon.
///
/// The points need not be in convex position or any order for distance queries; a
/// polygon's proxy lists its vertices counter-clockwise.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeProxy {
    points: [Vec2; MAX_POLYGON_VERTICES],
    count: usize,
    radius: f32,
}

impl ShapeProxy {
    /// A proxy of `points` and `radius`.
    ///
    /// Errors: [`GeometryError::InvalidPointCount`] unless 1 to 8 points are given,
    /// [`GeometryError::NonFinite`] for NaN or infinite input,
    /// [`GeometryError::TooLarge`] beyond [`crate::settings::MAX_COORDINATE`],
    /// [`GeometryError::InvalidRadius`] for a negative radius.
    pub fn new(points: &[Vec2], radius: f32) -> Result<ShapeProxy, GeometryError> {
        let count = points.len();
        if count == 0 || count > MAX_POLYGON_VERTICES {
            return Err(GeometryError::InvalidPointCount { count, max: MAX_POLYGON_VERTICES });
        }
        for &p in points {
            check_point(p, "proxy point")?;
        }
        check_radius(radius, "proxy radius", true)?;
        Ok(Self::from_valid(points, radius))
    }

    /// The proxy of a shape (in the shape's body coordinates).
    pub fn from_shape(shape: &Shape) -> ShapeProxy {
        match shape {
            Shape::Circle(c) => Self::from_valid(&[c.center()], c.radius()),
            Shape::Capsule(c) => Self::from_valid(&[c.center1(), c.center2()], c.radius()),
            Shape::Polygon(p) => Self::from_valid(p.vertices(), p.radius()),
            Shape::Segment(s) => Self::from_valid(&[s.point1(), s.point2()], 0.0),
            Shape::ChainSegment(c) => Self::from_valid(&[c.segment().point1(), c.segment().point2()], 0.0),
        }
    }

    /// Builds from input that is known to be valid (1 to 8 finite points, radius ≥ 0).
    fn from_valid(points: &[Vec2], radius: f32) -> ShapeProxy {
        let mut proxy = ShapeProxy { points: [Vec2::ZERO; MAX_POLYGON_VERTICES], count: points.len(), radius };
        proxy.points[..points.len()].copy_from_slice(points);
        proxy
    }

    /// The core points (meters).
    #[inline]
    pub fn points(&self) -> &[Vec2] {
        &self.points[..self.count]
    }

    /// All point slots, the core points first and zeros after them.
    #[inline]
    pub(crate) fn padded_points(&self) -> &[Vec2; MAX_POLYGON_VERTICES] {
        &self.points
    }

    /// The number of core points, 1 to 8.
    #[inline]
    pub fn count(&self) -> usize {
        self.count
    }

    /// The rounding radius (meters).
    #[inline]
    pub fn radius(&self) -> f32 {
        self.radius
    }

    /// This proxy with its points mapped by `xf`.
    pub fn transformed(&self, xf: Transform) -> ShapeProxy {
        let mut out = *self;
        for p in &mut out.points[..self.count] {
            *p = xf.apply(*p);
        }
        out
    }

    /// The index of the point farthest along `direction` (the support point); the first
    /// such point on ties.
    #[inline]
    pub fn support(&self, direction: Vec2) -> usize {
        let mut best = 0;
        let mut best_value = self.points[0].dot(direction);
        for i in 1..self.count {
            let value = self.points[i].dot(direction);
            if value > best_value {
                best = i;
                best_value = value;
            }
        }
        best
    }

    /// The greatest distance (meters) from `center` to a core point: the radius of the
    /// circle about `center` that holds the core.
    ///
    /// Finite for every finite `center`: where the f32 difference or its square would
    /// overflow (a center beyond about 1.8e19 m), the distance is computed in f64 and rounded
    /// up, to at most `f32::MAX` (reached only by a center within 1e9 m of ±`f32::MAX`, whose
    /// distance f32 cannot hold). A non-finite center gives infinity.
    pub fn max_distance_from(&self, center: Vec2) -> f32 {
        if !center.is_finite() {
            return f32::INFINITY;
        }
        let distance = self.points().iter().map(|p| p.distance(center)).fold(0.0, f32::max);
        if distance.is_finite() {
            return distance;
        }
        let (cx, cy) = (center.x as f64, center.y as f64);
        let far = self.points().iter().map(|p| (p.x as f64 - cx).hypot(p.y as f64 - cy)).fold(0.0, f64::max);
        let rounded = far as f32;
        let rounded = if (rounded as f64) < far { rounded.next_up() } else { rounded };
        rounded.min(f32::MAX)
    }

    /// The thickness of the shape (meters): its smallest width over all directions,
    /// `2 * radius` plus the smallest width of the core hull (zero for one or two points).
    pub fn thickness(&self) -> f32 {
        let pts = self.points();
        let mut core = if pts.len() < 3 { 0.0 } else { f32::MAX };
        if pts.len() >= 3 {
            // The minimum width of a convex set is attained across one of its hull edges;
            // testing every pair of points as an edge candidate covers any point order.
            for i in 0..pts.len() {
                for j in (i + 1)..pts.len() {
                    let e = pts[j] - pts[i];
                    let len = e.length();
                    if len <= 0.0 {
                        continue;
                    }
                    let n = Vec2::new(e.y, -e.x) / len;
                    let (mut lo, mut hi) = (f32::MAX, f32::MIN);
                    for p in pts {
                        let d = n.dot(*p - pts[i]);
                        lo = lo.min(d);
                        hi = hi.max(d);
                    }
                    // Only a hull edge has every point on one side.
                    if lo >= -1e-6 * len || hi <= 1e-6 * len {
                        core = core.min(hi - lo);
                    }
                }
            }
            if core == f32::MAX {
                core = 0.0;
            }
        }
        core + 2.0 * self.radius
    }
}

impl From<&Shape> for ShapeProxy {
    fn from(shape: &Shape) -> ShapeProxy {
        ShapeProxy::from_shape(shape)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_proxies_are_errors() {
        assert!(ShapeProxy::new(&[], 0.0).is_err());
        assert!(ShapeProxy::new(&[Vec2::ZERO; 9], 0.0).is_err());
        assert!(ShapeProxy::new(&[Vec2::new(f32::NAN, 0.0)], 0.0).is_err());
        assert!(ShapeProxy::new(&[Vec2::ZERO], -1.0).is_err());
        assert!(ShapeProxy::new(&[Vec2::ZERO], f32::INFINITY).is_err());
        assert!(ShapeProxy::new(&[Vec2::ZERO], 0.5).is_ok());
    }

    #[test]
    fn thickness_of_a_box_and_a_capsule() {
        let rect = [Vec2::new(-1.5, -0.01), Vec2::new(1.5, -0.01), Vec2::new(1.5, 0.01), Vec2::new(-1.5, 0.01)];
        let p = ShapeProxy::new(&rect, 0.0).unwrap();
        assert!((p.thickness() - 0.02).abs() < 1e-6);
        let capsule = ShapeProxy::new(&[Vec2::ZERO, Vec2::X], 0.25).unwrap();
        assert_eq!(capsule.thickness(), 0.5);
    }
}
