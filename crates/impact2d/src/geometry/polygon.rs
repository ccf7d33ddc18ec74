//! Rounded convex polygons and the box constructors.

use super::error::{GeometryError, check_finite, check_point, check_radius};
use super::hull::{Hull, compute_hull};
use crate::math::{Rot, Transform, Vec2};
use crate::settings::{LINEAR_SLOP, MAX_POLYGON_VERTICES};

/// A solid convex polygon of 3 to 8 vertices, optionally rounded: the points within
/// `radius` of the core polygon (meters, body coordinates).
///
/// Invariants: vertices are counter-clockwise, no three are collinear, `normals[i]` is the
/// outward unit normal of the edge from `vertices[i]` to `vertices[i + 1]`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Polygon {
    vertices: [Vec2; MAX_POLYGON_VERTICES],
    normals: [Vec2; MAX_POLYGON_VERTICES],
    count: usize,
    radius: f32,
    centroid: Vec2,
}

impl Polygon {
    /// The convex hull of `points` (any order; points closer than the linear slop are
    /// welded), rounded by `radius` (meters, zero for sharp corners).
    ///
    /// Errors: those of [`compute_hull`] (non-finite or too large coordinates, fewer than 3
    /// distinct points, collinear, more than 8 hull vertices) and
    /// [`GeometryError::InvalidRadius`] for a negative radius.
    pub fn new(points: &[Vec2], radius: f32) -> Result<Polygon, GeometryError> {
        check_radius(radius, "polygon radius", true)?;
        Ok(Polygon::from_hull(&compute_hull(points)?, radius))
    }

    /// The convex polygon whose outline is `points` (meters, any order), rounded by `radius`
    /// (meters): as [`Polygon::new`], but an outline that is not convex is refused rather than
    /// replaced by its hull. Points within the linear slop of the hull's boundary count as on
    /// it (they are welded or dropped as in [`Polygon::new`]).
    ///
    /// Errors: those of [`Polygon::new`], and [`GeometryError::NotConvex`] for a point deeper
    /// than the linear slop inside the hull of the others (a concave outline; see
    /// [`decompose_polygon`](super::decompose_polygon) for those).
    pub fn from_outline(points: &[Vec2], radius: f32) -> Result<Polygon, GeometryError> {
        let polygon = Polygon::new(points, radius)?;
        for (index, &p) in points.iter().enumerate() {
            let depth = polygon
                .vertices()
                .iter()
                .zip(polygon.normals())
                .map(|(&v, &n)| n.dot(v - p))
                .fold(f32::INFINITY, f32::min);
            if depth > LINEAR_SLOP {
                return Err(GeometryError::NotConvex { index, depth });
            }
        }
        Ok(polygon)
    }

    /// The polygon of `vertices` exactly as given, when they are 3 to 8 points (meters)
    /// turning strictly left at every vertex (tested in f64 on the f32 values): the pieces of
    /// a convex decomposition keep their shared edges this way, where [`Polygon::new`] would
    /// weld or drop vertices within the linear slop and open gaps between pieces. `None`
    /// otherwise. `radius` must be valid (checked by the caller).
    pub(crate) fn from_convex_ccw(vertices: &[Vec2], radius: f32) -> Option<Polygon> {
        let n = vertices.len();
        if !(3..=MAX_POLYGON_VERTICES).contains(&n) {
            return None;
        }
        let p = |i: usize| vertices[i % n].as_dvec2();
        let convex = (0..n).all(|i| (p(i + 1) - p(i)).perp_dot(p(i + 2) - p(i + 1)) > 0.0);
        if !convex {
            return None;
        }
        let mut fixed = [Vec2::ZERO; MAX_POLYGON_VERTICES];
        fixed[..n].copy_from_slice(vertices);
        Some(Polygon::from_vertices(fixed, n, radius))
    }

    /// The polygon of a hull, rounded by `radius` (meters). The hull is already validated;
    /// `radius` must be finite and non-negative (it is clamped to zero otherwise).
    pub fn from_hull(hull: &Hull, radius: f32) -> Polygon {
        let points = hull.points();
        let count = points.len();
        let mut vertices = [Vec2::ZERO; MAX_POLYGON_VERTICES];
        vertices[..count].copy_from_slice(points);
        let radius = if radius.is_finite() && radius > 0.0 { radius } else { 0.0 };
        Polygon::from_vertices(vertices, count, radius)
    }

    /// The polygon of valid counter-clockwise vertices: normals from the edges themselves,
    /// so each normal is exactly consistent with the f32 vertices it belongs to.
    fn from_vertices(vertices: [Vec2; MAX_POLYGON_VERTICES], count: usize, radius: f32) -> Polygon {
        let mut normals = [Vec2::ZERO; MAX_POLYGON_VERTICES];
        for i in 0..count {
            // Scaled to unit max component first, so tiny edges do not underflow.
            let edge = vertices[(i + 1) % count] - vertices[i];
            let edge = edge / edge.abs().max_element();
            normals[i] = Vec2::new(edge.y, -edge.x).normalize();
        }
        Polygon { vertices, normals, count, radius, centroid: polygon_centroid(&vertices[..count]) }
    }

    /// The vertices, counter-clockwise (meters, body coordinates).
    #[inline]
    pub fn vertices(&self) -> &[Vec2] {
        &self.vertices[..self.count]
    }

    /// The outward unit normal of each edge `vertices[i] → vertices[i + 1]`.
    #[inline]
    pub fn normals(&self) -> &[Vec2] {
        &self.normals[..self.count]
    }

    /// The rounding radius (meters).
    #[inline]
    pub fn radius(&self) -> f32 {
        self.radius
    }

    /// The area centroid of the core polygon (meters, body coordinates).
    #[inline]
    pub fn centroid(&self) -> Vec2 {
        self.centroid
    }

    /// This polygon moved by `xf` (its vertices, normals and centroid mapped to the parent
    /// frame). Normals are rotated, not recomputed: exact for the transform, though far from
    /// the origin the rounded vertices may sit off their edge lines by float spacing.
    pub fn transformed(&self, xf: Transform) -> Polygon {
        let mut out = *self;
        for i in 0..self.count {
            out.vertices[i] = xf.apply(self.vertices[i]);
            out.normals[i] = xf.q.rotate(self.normals[i]);
        }
        out.centroid = xf.apply(self.centroid);
        out
    }
}

/// An axis-aligned box centered on the origin with half-width `half_width` and half-height
/// `half_height` (meters).
///
/// Errors: [`GeometryError::NonFinite`], [`GeometryError::TooLarge`] beyond
/// [`crate::settings::MAX_COORDINATE`], [`GeometryError::InvalidSize`] unless both half sizes
/// are positive, and [`GeometryError::Collinear`] for a box too thin to have area in f32.
pub fn make_box(half_width: f32, half_height: f32) -> Result<Polygon, GeometryError> {
    make_offset_rounded_box(half_width, half_height, Vec2::ZERO, 0.0, 0.0)
}

/// A box as [`make_box`] with its corners rounded by `radius` (meters, non-negative). The
/// core box keeps the given half sizes, so the rounded box is `radius` larger on each side.
///
/// Errors: those of [`make_box`] and [`GeometryError::InvalidRadius`] for a negative radius.
pub fn make_rounded_box(half_width: f32, half_height: f32, radius: f32) -> Result<Polygon, GeometryError> {
    make_offset_rounded_box(half_width, half_height, Vec2::ZERO, 0.0, radius)
}

/// A box as [`make_box`], rotated by `angle` (radians) and centered at `center` (meters,
/// body coordinates).
///
/// Errors: those of [`make_box`], and [`GeometryError::NonFinite`] for the center or angle.
pub fn make_offset_box(half_width: f32, half_height: f32, center: Vec2, angle: f32) -> Result<Polygon, GeometryError> {
    make_offset_rounded_box(half_width, half_height, center, angle, 0.0)
}

/// A box as [`make_offset_box`] with corners rounded by `radius` (meters).
///
/// Errors: those of [`make_offset_box`] and [`make_rounded_box`].
pub fn make_offset_rounded_box(
    half_width: f32,
    half_height: f32,
    center: Vec2,
    angle: f32,
    radius: f32,
) -> Result<Polygon, GeometryError> {
    check_finite(half_width, "box half_width")?;
    check_finite(half_height, "box half_height")?;
    check_point(center, "box center")?;
    check_finite(angle, "box angle")?;
    check_radius(radius, "box radius", true)?;
    for (what, value) in [("box half_width", half_width), ("box half_height", half_height)] {
        if value <= 0.0 {
            return Err(GeometryError::InvalidSize { what, value });
        }
    }
    let (hw, hh) = (half_width, half_height);
    let xf = Transform { p: center, q: Rot::from_angle(angle) };
    let corners = [Vec2::new(-hw, -hh), Vec2::new(hw, -hh), Vec2::new(hw, hh), Vec2::new(-hw, hh)];
    let mut vertices = [Vec2::ZERO; MAX_POLYGON_VERTICES];
    for (v, c) in vertices.iter_mut().zip(corners) {
        *v = xf.apply(c);
        check_point(*v, "box corner")?;
    }
    // A box so thin that float spacing at its position flattens it, or merges two of its
    // corners, is no polygon.
    let area2 = (vertices[1] - vertices[0]).perp_dot(vertices[3] - vertices[0]);
    let merged = (0..4).any(|i| vertices[i] == vertices[(i + 1) % 4]);
    if merged || area2.is_nan() || area2 <= 0.0 {
        return Err(GeometryError::Collinear);
    }
    Ok(Polygon::from_vertices(vertices, 4, radius))
}

/// The area centroid of a convex counter-clockwise polygon, in f64 relative to its first
/// vertex so that slivers and far-away polygons keep their precision.
fn polygon_centroid(vertices: &[Vec2]) -> Vec2 {
    let origin = vertices[0].as_dvec2();
    let mut center = glam::DVec2::ZERO;
    let mut area = 0.0;
    for i in 1..vertices.len() - 1 {
        let e1 = vertices[i].as_dvec2() - origin;
        let e2 = vertices[i + 1].as_dvec2() - origin;
        let a = 0.5 * e1.perp_dot(e2);
        center += a * (e1 + e2) / 3.0;
        area += a;
    }
    if area > 0.0 { (origin + center / area).as_vec2() } else { vertices[0] }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn far_boxes_have_normals_that_agree_with_their_edges() {
        let b = make_offset_box(0.25, 0.1, Vec2::new(5000.0, -5000.0), 0.3).unwrap();
        for i in 0..4 {
            let edge = b.vertices()[(i + 1) % 4] - b.vertices()[i];
            assert!(b.normals()[i].dot(edge).abs() < 1e-6 * edge.length(), "edge {i}");
        }
    }

    #[test]
    fn boxes_that_are_not_shapes_are_errors() {
        assert!(matches!(make_box(2e9, 1.0), Err(GeometryError::TooLarge { .. })));
        assert!(matches!(make_offset_box(200.0, 1.0, Vec2::new(1e9, 0.0), 0.0), Err(GeometryError::TooLarge { .. })));
        // At 1e9 m the f32 spacing is 64 m: a 2 m box there has no width left.
        assert!(matches!(make_offset_box(1.0, 1.0, Vec2::new(1e9, 0.0), 0.0), Err(GeometryError::Collinear)));
        assert!(matches!(make_offset_box(1e-30, 1.0, Vec2::new(1e6, 0.0), 0.0), Err(GeometryError::Collinear)));
        assert!(matches!(make_box(0.0, 1.0), Err(GeometryError::InvalidSize { .. })));
    }

    #[test]
    fn tiny_boxes_have_unit_normals() {
        for hw in [1e-30f32, 1e-45, 1e-3] {
            let b = make_box(hw, 2.8).unwrap();
            assert!(b.normals().iter().all(|n| (n.length() - 1.0).abs() < 1e-6), "{hw}: {b:?}");
        }
    }

    #[test]
    fn sliver_centroid_is_finite() {
        let sliver = [Vec2::new(-1e9, 1e9), Vec2::new(0.0, 0.0), Vec2::new(0.0, 2.11)];
        let c = polygon_centroid(&sliver);
        assert!(c.is_finite(), "{c}");
    }
}
