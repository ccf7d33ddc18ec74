//! The separating axis test for two convex polyhedra (sharp hulls), in 3D.
//!
//! Source: Gottschalk's separating axis theorem for polytopes as Ericson, Real-Time Collision
//! Detection, 5.2.1, states it (face normals of both and cross products of their edges), and
//! Dirk Gregorius, "The Separating Axis Test between Convex Polyhedra", GDC 2013: an edge pair
//! is a candidate only when its arcs on the Gauss map intersect (the edges then build a face
//! of the Minkowski difference); the others can never give the least penetration. All work
//! happens in A's frame.

use super::error::QueryError;
use crate::geometry::Hull;
use crate::math::{Transform, Vec3};
use crate::settings::MAX_COORDINATE;

/// The axis of greatest separation of two polyhedra.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SatFeature {
    /// A face of A (its index).
    FaceA(usize),
    /// A face of B (its index).
    FaceB(usize),
    /// An edge of A and an edge of B (their indices in [`Hull::edges`]).
    Edges(usize, usize),
}

/// The answer of [`polytope_sat`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SatQuery {
    /// The greatest separation along a candidate axis (meters): positive when the polyhedra
    /// are apart (a lower bound of their distance), minus the penetration depth when they
    /// overlap.
    pub separation: f32,
    /// The unit axis, from A toward B (world).
    pub axis: Vec3,
    /// The features that give it.
    pub feature: SatFeature,
}

/// The separating axis test of the cores of `a` placed by `xf_a` and `b` placed by `xf_b`
/// (their radii are not counted): the greatest separation over A's face normals, B's face
/// normals and the cross products of the edge pairs whose Gauss-map arcs intersect. When the
/// cores overlap, minus that separation is their penetration depth.
///
/// Errors: [`QueryError::NonFinite`] for a transform that is not finite, not a unit rotation,
/// or beyond [`MAX_COORDINATE`].
pub fn polytope_sat(a: &Hull, xf_a: Transform, b: &Hull, xf_b: Transform) -> Result<SatQuery, QueryError> {
    for (xf, what) in [(xf_a, "transform_a"), (xf_b, "transform_b")] {
        if !xf.is_valid() || xf.p.abs().max_element() > MAX_COORDINATE {
            return Err(QueryError::NonFinite { what });
        }
    }
    // B in A's frame.
    let rel = xf_a.inv_mul(xf_b);
    let vb: Vec<Vec3> = b.vertices().iter().map(|&v| rel.apply(v)).collect();
    let mut best = SatQuery { separation: f32::NEG_INFINITY, axis: Vec3::X, feature: SatFeature::FaceA(0) };
    let mut consider = |separation: f32, axis: Vec3, feature: SatFeature| {
        if separation > best.separation {
            best = SatQuery { separation, axis, feature };
        }
    };
    // Along a face normal, the separation is measured from the hull's support in that
    // direction (a merged face's own vertices may lie a little below its plane).
    let support = |points: &[Vec3], n: Vec3| points.iter().map(|&v| n.dot(v)).fold(f32::NEG_INFINITY, f32::max);
    let lowest = |points: &[Vec3], n: Vec3| points.iter().map(|&v| n.dot(v)).fold(f32::INFINITY, f32::min);
    for (i, f) in a.faces().iter().enumerate() {
        let low = lowest(&vb, f.normal) - support(a.vertices(), f.normal);
        consider(low, f.normal, SatFeature::FaceA(i));
    }
    for (i, f) in b.faces().iter().enumerate() {
        let n = rel.q * f.normal;
        let low = lowest(a.vertices(), n) - support(&vb, n);
        consider(low, -n, SatFeature::FaceB(i));
    }
    let center_a = a.vertices().iter().copied().sum::<Vec3>() / a.vertices().len() as f32;
    for (i, ea) in a.edges().iter().enumerate() {
        let (pa, qa) = (a.vertices()[ea.vertices[0]], a.vertices()[ea.vertices[1]]);
        let (na1, na2) = (a.faces()[ea.faces[0]].normal, a.faces()[ea.faces[1]].normal);
        for (j, eb) in b.edges().iter().enumerate() {
            let (pb, qb) = (vb[eb.vertices[0]], vb[eb.vertices[1]]);
            // B's normals negated: the Minkowski difference A − B's Gauss map.
            let (nb1, nb2) = (-(rel.q * b.faces()[eb.faces[0]].normal), -(rel.q * b.faces()[eb.faces[1]].normal));
            if !arcs_intersect(na1, na2, nb1, nb2) {
                continue;
            }
            let mut axis = (qa - pa).cross(qb - pb);
            let length = axis.length();
            // Parallel edges build no face of the Minkowski difference of their own.
            if length <= 1.0e-6 * (qa - pa).length() * (qb - pb).length() {
                continue;
            }
            axis /= length;
            // Oriented away from A.
            if axis.dot(pa - center_a) < 0.0 {
                axis = -axis;
            }
            consider(axis.dot(pb - pa), axis, SatFeature::Edges(i, j));
        }
    }
    best.axis = xf_a.q * best.axis;
    Ok(best)
}

/// Whether the Gauss-map arcs a–b and c–d (unit normals) intersect: each arc's ends lie on
/// opposite sides of the other arc's plane, and the arcs on one hemisphere (Gregorius's test;
/// the planes' normals are b × a and d × c).
fn arcs_intersect(a: Vec3, b: Vec3, c: Vec3, d: Vec3) -> bool {
    let (bxa, dxc) = (b.cross(a), d.cross(c));
    let (cba, dba) = (c.dot(bxa), d.dot(bxa));
    let (adc, bdc) = (a.dot(dxc), b.dot(dxc));
    cba * dba < 0.0 && adc * bdc < 0.0 && cba * bdc > 0.0
}
