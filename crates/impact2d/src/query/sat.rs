//! Separating axis test for convex polygons.
//!
//! Source: Gottschalk, Lin and Manocha, "OBBTree", 1996 (the separating axis theorem); in 2D
//! the axes of two convex polygons are their edge normals (Ericson, Real-Time Collision
//! Detection, 4.4 and 5.2.1).

use super::error::{QueryError, check_transform};
use crate::geometry::Polygon;
use crate::math::{Transform, Vec2};

/// The best separating axis of two polygons among their edge normals.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SatQuery {
    /// Separation of the surfaces along the axis (meters): positive when apart (a lower
    /// bound on the distance), negative when overlapping (minus the exact overlap depth).
    pub separation: f32,
    /// The axis: unit normal of the reference edge, pointing from A to B (world).
    pub normal: Vec2,
    /// Index of the reference edge in its polygon's vertex list.
    pub edge: usize,
    /// True when the reference edge belongs to A, false when it belongs to B.
    pub on_a: bool,
}

/// The edge normal of either polygon along which they are most separated.
///
/// For overlapping polygons this is the exact penetration depth and direction. Radii are
/// subtracted, so rounded polygons are handled as their cores plus radius. Ties go to A.
///
/// Errors: [`QueryError::NonFinite`] or [`QueryError::OutOfRange`] for a transform that is
/// not finite, not within [`crate::settings::MAX_COORDINATE`], or not a unit rotation.
pub fn polygon_sat(
    poly_a: &Polygon,
    xf_a: Transform,
    poly_b: &Polygon,
    xf_b: Transform,
) -> Result<SatQuery, QueryError> {
    check_transform(&xf_a, "xf_a")?;
    check_transform(&xf_b, "xf_b")?;
    Ok(sat_query(poly_a, xf_a, poly_b, xf_b))
}

/// [`polygon_sat`] for valid transforms.
pub(crate) fn sat_query(poly_a: &Polygon, xf_a: Transform, poly_b: &Polygon, xf_b: Transform) -> SatQuery {
    // Work in A's frame; B's edges are tested with A moved into B's frame.
    let b_in_a = poly_b.transformed(xf_a.inv_mul(xf_b));
    let a_in_b = poly_a.transformed(xf_b.inv_mul(xf_a));
    let (edge_a, sep_a) = max_separation(poly_a, &b_in_a);
    let (edge_b, sep_b) = max_separation(poly_b, &a_in_b);
    let radius = poly_a.radius() + poly_b.radius();
    if sep_b > sep_a {
        let normal = xf_b.q.rotate(-poly_b.normals()[edge_b]);
        SatQuery { separation: sep_b - radius, normal, edge: edge_b, on_a: false }
    } else {
        let normal = xf_a.q.rotate(poly_a.normals()[edge_a]);
        SatQuery { separation: sep_a - radius, normal, edge: edge_a, on_a: true }
    }
}

/// The edge of `reference` with the greatest core separation from `incident` (both in the
/// same frame): for each edge, the least signed distance of an incident vertex to the
/// edge's line.
pub(crate) fn max_separation(reference: &Polygon, incident: &Polygon) -> (usize, f32) {
    let mut best = (0, f32::NEG_INFINITY);
    for (i, (&n, &v)) in reference.normals().iter().zip(reference.vertices()).enumerate() {
        let separation = incident.vertices().iter().map(|&p| n.dot(p - v)).fold(f32::INFINITY, f32::min);
        if separation > best.1 {
            best = (i, separation);
        }
    }
    best
}
