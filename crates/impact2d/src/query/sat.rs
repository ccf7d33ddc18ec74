//! Separating axis test for convex polygons.
//!
//! Source: Gottschalk, Lin and Manocha, "OBBTree", 1996 (the separating axis theorem); in 2D
//! the axes of two convex polygons are their edge normals (Ericson, Real-Time Collision
//! Detection, 4.4 and 5.2.1).

use super::error::{QueryError, check_transform};
use crate::geometry::Polygon;
use crate::math::{Transform, Vec2, columns, mean};
use crate::settings::MAX_POLYGON_VERTICES;
use glam::Vec4;

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

/// The separation of two polygons' cores along the edge normal of either that separates them
/// most ([`core_separation`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct CoreSeparation {
    /// Meters: negative when the cores overlap, else a lower bound on their distance.
    pub separation: f32,
    /// The axis (unit, world), from A towards B.
    pub axis: Vec2,
    /// Meters: an upper bound on the cores' distance when they are apart (whole polygons
    /// only, else infinite): the distance from the other polygon's nearest vertex along the
    /// axis to the reference edge, which is `separation` itself when that vertex lies in front
    /// of the edge (then the separation is the distance).
    pub upper: f32,
}

/// The core separation of two polygons (meters) along the edge normal of either that
/// separates them most, and that normal in world coordinates, from A towards B: negative
/// when every edge normal finds a vertex of the other polygon behind its edge, that is when
/// the cores overlap (and so the surfaces, whatever the radii). A lower bound on the cores'
/// distance otherwise (separating axis theorem; Ericson, "Real-Time Collision Detection",
/// 5.2.1), without the reference-face bookkeeping of [`sat_query`]; it is the distance when
/// the vertex found lies in front of the reference edge (then it is that far from the edge),
/// and that vertex's distance to the edge bounds the distance from above in any case.
///
/// Each polygon is first shrunk about the mean of its vertices by its scale (in (0, 1]; 1
/// keeps it whole): shrinking by `s` about `c` moves the polygon's extent along any axis to
/// `c + s (extent - c)`, so the shrunk pair costs no more than the whole one.
#[inline]
pub(crate) fn core_separation(
    poly_a: &Polygon,
    xf_a: Transform,
    scale_a: f32,
    poly_b: &Polygon,
    xf_b: Transform,
    scale_b: f32,
) -> CoreSeparation {
    let from_a = edge_separation(poly_a, scale_a, poly_b, scale_b, xf_a.inv_mul(xf_b));
    let from_b = edge_separation(poly_b, scale_b, poly_a, scale_a, xf_b.inv_mul(xf_a));
    if from_b.separation > from_a.separation {
        CoreSeparation { axis: -xf_b.q.rotate(from_b.axis), ..from_b }
    } else {
        CoreSeparation { axis: xf_a.q.rotate(from_a.axis), ..from_a }
    }
}

/// The greatest separation over the edge normals of `reference` of `other` placed by `xf`
/// in the frame of `reference`, and that normal (in that frame), the two shrunk about their
/// vertex means by `reference_scale` and `other_scale`.
fn edge_separation(
    reference: &Polygon,
    reference_scale: f32,
    other: &Polygon,
    other_scale: f32,
    xf: Transform,
) -> CoreSeparation {
    let (others, count) = (other.vertices(), other.vertices().len());
    let mut placed = [Vec2::ZERO; MAX_POLYGON_VERTICES];
    for j in 0..count {
        placed[j] = xf.apply(others[j]);
    }
    let (references, normals) = (reference.vertices(), reference.normals());
    let shrink = reference_scale != 1.0 || other_scale != 1.0;
    let shrunk = shrink.then(|| Shrunk {
        reference_center: mean(references),
        other_center: mean(&placed[..count]),
        reference_scale,
        other_scale,
    });
    let separations = if references.len() == 4 && count == 4 {
        let mut four = [f32::NEG_INFINITY; MAX_POLYGON_VERTICES];
        four[..4].copy_from_slice(&quad_separations(references, normals, &placed[..4], shrunk).to_array());
        four
    } else {
        separations(references, normals, &placed[..count], shrunk)
    };
    let (mut best, mut edge) = (f32::NEG_INFINITY, 0);
    for (i, &separation) in separations[..references.len()].iter().enumerate() {
        if separation > best {
            (best, edge) = (separation, i);
        }
    }
    let (n, v) = (normals[edge], references[edge]);
    let upper = if shrink || best < 0.0 {
        f32::INFINITY
    } else {
        let along = references[(edge + 1) % references.len()] - v;
        let nearest = placed[..count].iter().copied().find(|&p| n.dot(p - v) == best).unwrap_or(v);
        let (at, length) = ((nearest - v).dot(along), along.length_squared());
        match at {
            _ if (0.0..=length).contains(&at) => best,
            _ if at < 0.0 => nearest.distance(v),
            _ => nearest.distance(v + along),
        }
    };
    CoreSeparation { separation: best, axis: n, upper }
}

/// The separations along the edge normals of `references` (normals `normals`) of the
/// `placed` vertices, the polygons shrunk as `shrunk` says.
fn separations(
    references: &[Vec2],
    normals: &[Vec2],
    placed: &[Vec2],
    shrunk: Option<Shrunk>,
) -> [f32; MAX_POLYGON_VERTICES] {
    let mut separations = [f32::NEG_INFINITY; MAX_POLYGON_VERTICES];
    for (i, (&n, &v)) in normals.iter().zip(references).enumerate() {
        let mut separation = n.dot(placed[0] - v);
        for &p in &placed[1..] {
            let d = n.dot(p - v);
            separation = if d < separation { d } else { separation };
        }
        separations[i] = shrunk.map_or(separation, |s| s.separation(n, v, separation));
    }
    separations
}

/// How two polygons are shrunk: each by its scale about the mean of its vertices (the
/// reference's frame).
#[derive(Clone, Copy, Debug)]
struct Shrunk {
    reference_center: Vec2,
    other_center: Vec2,
    reference_scale: f32,
    other_scale: f32,
}

impl Shrunk {
    /// The separation along the reference edge normal `n` through vertex `v` of the shrunk
    /// polygons, from that of the whole ones: the other's least extent along `n` moves toward
    /// its center, and the edge toward the reference's center (both measured from `v`).
    fn separation(&self, n: Vec2, v: Vec2, whole: f32) -> f32 {
        let (to_other, to_reference) = (n.dot(self.other_center - v), n.dot(self.reference_center - v));
        to_other * (1.0 - self.other_scale) + self.other_scale * whole - to_reference * (1.0 - self.reference_scale)
    }
}

/// The separations along the four edge normals of a four-vertex reference of four placed
/// vertices, one edge per SIMD lane: each lane does the scalar loop's operations in its
/// order, so the values are the same.
fn quad_separations(references: &[Vec2], normals: &[Vec2], placed: &[Vec2], shrunk: Option<Shrunk>) -> Vec4 {
    let ((vx, vy), (nx, ny)) = (columns(references), columns(normals));
    let along = |p: Vec2| nx * (Vec4::splat(p.x) - vx) + ny * (Vec4::splat(p.y) - vy);
    let mut least = along(placed[0]);
    for &p in &placed[1..4] {
        let d = along(p);
        least = Vec4::select(d.cmplt(least), d, least);
    }
    let Some(s) = shrunk else { return least };
    let (to_other, to_reference) = (along(s.other_center), along(s.reference_center));
    to_other * Vec4::splat(1.0 - s.other_scale) + Vec4::splat(s.other_scale) * least
        - to_reference * Vec4::splat(1.0 - s.reference_scale)
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
    /// two edges crossing), and its axis separates the placed vertices by that much; apart, it
    /// is at most the brute-force distance, and that distance when its upper bound is itself,
    /// which is never below that distance; its
    /// shrunk separation is the whole separation of the polygons shrunk by the same scales.
    #[test]
    fn core_separation_agrees_with_the_full_test_and_brute_force() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut next = move || rng.random_range(0.0f32..1.0);
        let (mut overlapping, mut apart, mut shrunk_checked, mut exact, mut near) = (0, 0, 0, 0, 0);
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
            let whole = super::core_separation(&a, xf_a, 1.0, &b, xf_b, 1.0);
            let (separation, axis) = (whole.separation, whole.axis);
            // Shrunk, the separation is the whole separation of the shrunk polygons.
            let (scale_a, scale_b) = (if k % 4 < 2 { 0.5 } else { 1.0 }, 0.3 + 0.7 * next());
            let shrunk = super::core_separation(&a, xf_a, scale_a, &b, xf_b, scale_b);
            let shrink = |p: &Polygon, s: f32| {
                let c = p.vertices().iter().copied().sum::<Vec2>() / p.vertices().len() as f32;
                let points: Vec<Vec2> = p.vertices().iter().map(|&v| c + s * (v - c)).collect();
                Polygon::new(&points, 0.0).ok().filter(|q| q.vertices().len() == points.len())
            };
            if let (Some(sa), Some(sb)) = (shrink(&a, scale_a), shrink(&b, scale_b)) {
                let expected = super::core_separation(&sa, xf_a, 1.0, &sb, xf_b, 1.0);
                let (got, axis) = (shrunk.separation, shrunk.axis);
                assert!((got - expected.separation).abs() < 1e-5, "case {k}: shrunk {got} vs {expected:?}");
                assert!(axis.dot(expected.axis) > 0.9999 || (got - expected.separation).abs() < 1e-6, "case {k}");
                shrunk_checked += 1;
            }
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
            if !overlap {
                // A lower bound on the cores' distance, and the distance when the upper bound
                // is the separation; the upper bound is one.
                let distance = brute_force_distance(&wa, &wb);
                assert!(separation <= distance + 1e-4, "case {k}: {separation} beyond the distance {distance}");
                assert!(
                    whole.upper >= distance - 1e-4,
                    "case {k}: upper {} below the distance {distance}",
                    whole.upper
                );
                if whole.upper == separation {
                    assert!((separation - distance).abs() < 1e-4, "case {k}: {separation}, distance {distance}");
                    exact += 1;
                } else if whole.upper < separation + 0.05 {
                    near += 1;
                }
            }
            if overlap { overlapping += 1 } else { apart += 1 }
        }
        assert!(overlapping > 800 && apart > 800, "{overlapping} overlapping, {apart} apart");
        assert!(shrunk_checked > 3000, "{shrunk_checked} shrunk pairs checked");
        assert!(exact > 500 && near > 50, "{exact} exact and {near} near of {apart} apart");
    }

    /// The four-lane separations of two quads are the scalar loop's, bit for bit: seeded boxes
    /// and quads at any pose, whole and shrunk.
    #[test]
    fn quad_separations_are_the_scalar_ones() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let mut next = move || rng.random_range(0.0f32..1.0);
        let mut checked = 0;
        for k in 0..5000 {
            let quad = |next: &mut dyn FnMut() -> f32| {
                let points: Vec<Vec2> = (0..4).map(|_| Vec2::new(2.0 * next() - 1.0, 2.0 * next() - 1.0)).collect();
                let box_ = crate::geometry::make_box(0.1 + next(), 0.1 + next()).unwrap();
                Polygon::new(&points, 0.0).ok().filter(|p| p.vertices().len() == 4 && k % 2 == 0).unwrap_or(box_)
            };
            let (a, b) = (quad(&mut next), quad(&mut next));
            let xf =
                Transform { p: Vec2::new(4.0 * next() - 2.0, 4.0 * next() - 2.0), q: Rot::from_angle(7.0 * next()) };
            let placed: Vec<Vec2> = b.vertices().iter().map(|&v| xf.apply(v)).collect();
            let shrunk = (k % 3 != 0).then(|| Shrunk {
                reference_center: a.vertices().iter().copied().sum::<Vec2>() / 4.0,
                other_center: placed.iter().copied().sum::<Vec2>() / 4.0,
                reference_scale: if k % 3 == 1 { 0.5 } else { 1.0 },
                other_scale: 0.3 + 0.7 * next(),
            });
            let lanes = quad_separations(a.vertices(), a.normals(), &placed, shrunk).to_array();
            let scalar = separations(a.vertices(), a.normals(), &placed, shrunk);
            assert_eq!(lanes.map(f32::to_bits), [0, 1, 2, 3].map(|i| scalar[i].to_bits()), "case {k}");
            checked += 1;
        }
        assert_eq!(checked, 5000);
    }

    /// The distance between two convex polygons that do not overlap (world vertices): the
    /// least distance of a vertex of either to an edge of the other.
    fn brute_force_distance(a: &[Vec2], b: &[Vec2]) -> f32 {
        let to_edge = |p: Vec2, u: Vec2, v: Vec2| {
            let t = ((p - u).dot(v - u) / (v - u).length_squared()).clamp(0.0, 1.0);
            p.distance(u + t * (v - u))
        };
        let one_way = |a: &[Vec2], b: &[Vec2]| {
            let edges = (0..b.len()).map(|i| (b[i], b[(i + 1) % b.len()]));
            edges.flat_map(|(u, v)| a.iter().map(move |&p| to_edge(p, u, v))).fold(f32::INFINITY, f32::min)
        };
        one_way(a, b).min(one_way(b, a))
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
