//! Separating axis test for convex polygons.
//!
//! Source: Gottschalk, Lin and Manocha, "OBBTree", 1996 (the separating axis theorem); in 2D
//! the axes of two convex polygons are their edge normals (Ericson, Real-Time Collision
//! Detection, 4.4 and 5.2.1).

use super::error::{QueryError, check_transform};
use crate::geometry::Polygon;
use crate::math::{Transform, Vec2};
use crate::settings::MAX_POLYGON_VERTICES;

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

/// The core separation of two polygons (meters) along the edge normal of either that
/// separates them most, and that normal in world coordinates, from A towards B: negative
/// when every edge normal finds a vertex of the other polygon behind its edge, that is when
/// the cores overlap (and so the surfaces, whatever the radii). A lower bound on the cores'
/// distance otherwise (separating axis theorem; Ericson, "Real-Time Collision Detection",
/// 5.2.1), without the reference-face bookkeeping of [`sat_query`].
pub(crate) fn core_separation(poly_a: &Polygon, xf_a: Transform, poly_b: &Polygon, xf_b: Transform) -> (f32, Vec2) {
    let (sa, na) = edge_separation(poly_a, poly_b, xf_a.inv_mul(xf_b));
    let (sb, nb) = edge_separation(poly_b, poly_a, xf_b.inv_mul(xf_a));
    if sb > sa { (sb, -xf_b.q.rotate(nb)) } else { (sa, xf_a.q.rotate(na)) }
}

/// The greatest separation over the edge normals of `reference` of `other` placed by `xf`
/// in the frame of `reference`, and that normal (in that frame).
fn edge_separation(reference: &Polygon, other: &Polygon, xf: Transform) -> (f32, Vec2) {
    let (others, count) = (other.vertices(), other.vertices().len());
    let mut placed = [Vec2::ZERO; MAX_POLYGON_VERTICES];
    for j in 0..count {
        placed[j] = xf.apply(others[j]);
    }
    let mut best = (f32::NEG_INFINITY, Vec2::ZERO);
    for (&n, &v) in reference.normals().iter().zip(reference.vertices()) {
        let mut separation = n.dot(placed[0] - v);
        for &p in &placed[1..count] {
            let d = n.dot(p - v);
            separation = if d < separation { d } else { separation };
        }
        if separation > best.0 {
            best = (separation, n);
        }
    }
    best
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Rot;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// `core_separation` agrees with the core separation of the full separating axis test on
    /// seeded random polygons (boxes and hulls, rounded or not), overlapping, touching and
    /// apart, its sign with a brute-force check (some vertex of one core inside the other, or
    /// two edges crossing), and its axis separates the placed vertices by that much.
    #[test]
    fn core_separation_agrees_with_the_full_test_and_brute_force() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut next = move || rng.random_range(0.0f32..1.0);
        let (mut overlapping, mut apart) = (0, 0);
        for k in 0..4000 {
            let polygon = |next: &mut dyn FnMut() -> f32| {
                let radius = if k % 3 == 0 { 0.1 * next() } else { 0.0 };
                if k % 2 == 0 {
                    let box_ = crate::geometry::make_box(0.1 + next(), 0.1 + next()).unwrap();
                    Polygon::new(box_.vertices(), radius).unwrap()
                } else {
                    let points: Vec<Vec2> =
                        (0..3 + (k % 6)).map(|_| Vec2::new(2.0 * next() - 1.0, 2.0 * next() - 1.0)).collect();
                    Polygon::new(&points, radius).unwrap_or_else(|_| crate::geometry::make_box(0.5, 0.2).unwrap())
                }
            };
            let (a, b) = (polygon(&mut next), polygon(&mut next));
            let place = |next: &mut dyn FnMut() -> f32, spread: f32| Transform {
                p: Vec2::new(spread * (2.0 * next() - 1.0), spread * (2.0 * next() - 1.0)),
                q: Rot::from_angle(7.0 * next()),
            };
            let (xf_a, xf_b) = (place(&mut next, 1.5), place(&mut next, 1.5));
            let (separation, axis) = super::core_separation(&a, xf_a, &b, xf_b);
            let overlap = separation < 0.0;
            let core_separation = sat_query(&a, xf_a, &b, xf_b).separation + a.radius() + b.radius();
            assert_eq!(overlap, core_separation < 0.0, "case {k}: separation {core_separation}");
            assert!((separation - core_separation).abs() < 1e-5, "case {k}: {separation} vs {core_separation}");
            let (wa, wb): (Vec<Vec2>, Vec<Vec2>) = (
                a.vertices().iter().map(|&v| xf_a.apply(v)).collect(),
                b.vertices().iter().map(|&v| xf_b.apply(v)).collect(),
            );
            // Along the axis, every vertex of B lies `separation` beyond every vertex of A.
            let gap = wb.iter().map(|&p| axis.dot(p)).fold(f32::INFINITY, f32::min)
                - wa.iter().map(|&p| axis.dot(p)).fold(f32::NEG_INFINITY, f32::max);
            assert!((gap - separation).abs() < 1e-4 && (axis.length() - 1.0).abs() < 1e-5, "case {k}: gap {gap}");
            if core_separation.abs() > 1e-4 {
                assert_eq!(overlap, brute_force_overlap(&wa, &wb), "case {k}");
            }
            if overlap { overlapping += 1 } else { apart += 1 }
        }
        assert!(overlapping > 800 && apart > 800, "{overlapping} overlapping, {apart} apart");
    }

    /// Two convex polygons (world vertices, counter-clockwise) overlap when a vertex of one
    /// lies inside the other or two of their edges cross.
    fn brute_force_overlap(a: &[Vec2], b: &[Vec2]) -> bool {
        let inside = |p: Vec2, poly: &[Vec2]| {
            (0..poly.len()).all(|i| (poly[(i + 1) % poly.len()] - poly[i]).perp_dot(p - poly[i]) > 0.0)
        };
        let cross = |p1: Vec2, q1: Vec2, p2: Vec2, q2: Vec2| {
            let side = |o: Vec2, d: Vec2, p: Vec2| d.perp_dot(p - o);
            side(p1, q1 - p1, p2) * side(p1, q1 - p1, q2) < 0.0 && side(p2, q2 - p2, p1) * side(p2, q2 - p2, q1) < 0.0
        };
        let edges = |p: &[Vec2]| (0..p.len()).map(|i| (p[i], p[(i + 1) % p.len()])).collect::<Vec<_>>();
        a.iter().any(|&p| inside(p, b))
            || b.iter().any(|&p| inside(p, a))
            || edges(a).iter().any(|&(p1, q1)| edges(b).iter().any(|&(p2, q2)| cross(p1, q1, p2, q2)))
    }
}
