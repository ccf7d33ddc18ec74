//! Reference and incident face clipping: the two-point contact of two faces.
//!
//! Source: the reference/incident face clipping of Catto's Box2D (`b2ClipPolygons` in
//! v3, "Contact Manifolds", GDC 2007) and Ericson, Real-Time Collision Detection, 5.2 and
//! 8.3.

use super::core::Corners;
use super::manifold::{LocalManifold, LocalPoint, feature_id};
use crate::math::Vec2;
use crate::settings::MANIFOLD_MERGE_DISTANCE;

/// The contact of the incident edge `incident_edge` of `incident` with the reference edge
/// `reference_edge` of `reference`: the incident edge is clipped to the slab between the
/// reference edge's side planes, and each end becomes a point whose separation is the gap
/// between the rounded reference face and the rounded incident surface along the normal
/// through it. Points farther apart than `speculative` are dropped; two points closer than
/// [`MANIFOLD_MERGE_DISTANCE`] along the face merge into the deeper one.
///
/// The normal is the reference face normal; `flip` says the reference core is B, in which
/// case the manifold is returned from A to B. Returns an empty manifold when the incident
/// edge lies outside the slab or every point is too far.
pub(crate) fn clip_faces<R: Corners, I: Corners>(
    reference: &R,
    reference_edge: usize,
    incident: &I,
    incident_edge: usize,
    flip: bool,
    speculative: f32,
) -> LocalManifold {
    let Some(ends) = clip_to_slab(reference, reference_edge, incident, incident_edge) else {
        return LocalManifold::EMPTY;
    };
    let normal = reference.normal(reference_edge);
    let r1 = reference.vertex(reference_edge);
    let (cos_tilt, sin_tilt) = tilt(normal, incident.normal(incident_edge));
    let mut manifold = LocalManifold { normal, ..LocalManifold::EMPTY };
    for end in [ends.lower, ends.upper] {
        let s = normal.dot(end.point - r1);
        let reach = rounded_reach(incident.radius(), end.point.distance(ends.deep), cos_tilt, sin_tilt);
        let separation = s - reference.radius() - reach;
        if separation <= speculative {
            // Midway between the reference surface and the incident surface.
            let point = end.point + normal * (0.5 * (reference.radius() - reach - s));
            manifold.push(LocalPoint { point, separation, id: feature_id(end.reference_vertex, end.incident_vertex) });
        }
    }
    merge_close_points(&mut manifold, normal.perp());
    if flip { manifold.flipped() } else { manifold }
}

/// One end of a clipped incident edge.
#[derive(Clone, Copy)]
struct ClippedEnd {
    /// On the incident core's edge (local frame).
    point: Vec2,
    /// The reference vertex at this end of the contact, and the incident one.
    reference_vertex: usize,
    incident_vertex: usize,
}

/// The incident edge clipped to the reference edge's slab.
struct ClippedEdge {
    /// The end towards the reference edge's first vertex, and the other.
    lower: ClippedEnd,
    upper: ClippedEnd,
    /// The deeper of the incident edge's own vertices (before clipping).
    deep: Vec2,
}

/// Clips the incident edge to the slab between the side planes of the reference edge;
/// `None` when it lies outside (or the input is not finite).
fn clip_to_slab<R: Corners, I: Corners>(
    reference: &R,
    reference_edge: usize,
    incident: &I,
    incident_edge: usize,
) -> Option<ClippedEdge> {
    let (i1, i2) = (reference_edge, reference.next(reference_edge));
    let (r1, r2) = (reference.vertex(i1), reference.vertex(i2));
    let normal = reference.normal(reference_edge);
    // Along the reference edge, from r1 to r2 (the left perpendicular of the normal).
    let tangent = normal.perp();
    let length = tangent.dot(r2 - r1);
    // The incident edge's ends, ordered along the tangent.
    let (j1, j2) = (incident_edge, incident.next(incident_edge));
    let (w1, w2) = (incident.vertex(j1), incident.vertex(j2));
    let (u1, u2) = (tangent.dot(w1 - r1), tangent.dot(w2 - r1));
    let ((lo, u_lo, j_lo), (hi, u_hi, j_hi)) =
        if u1 <= u2 { ((w1, u1, j1), (w2, u2, j2)) } else { ((w2, u2, j2), (w1, u1, j1)) };
    if !(u_hi >= 0.0 && u_lo <= length) {
        return None;
    }
    let span = u_hi - u_lo;
    let lower = if u_lo < 0.0 && span > 0.0 { lo + (hi - lo) * (-u_lo / span) } else { lo };
    let upper = if u_hi > length && span > 0.0 { lo + (hi - lo) * ((length - u_lo) / span) } else { hi };
    Some(ClippedEdge {
        lower: ClippedEnd { point: lower, reference_vertex: i1, incident_vertex: j_lo },
        upper: ClippedEnd { point: upper, reference_vertex: i2, incident_vertex: j_hi },
        deep: if normal.dot(lo - r1) <= normal.dot(hi - r1) { lo } else { hi },
    })
}

/// Keeps only the deeper of two points closer than [`MANIFOLD_MERGE_DISTANCE`] along
/// `tangent`: a sliver of overlap makes one contact, not two coincident ones.
fn merge_close_points(manifold: &mut LocalManifold, tangent: Vec2) {
    if manifold.count == 2 {
        let [a, b] = manifold.points;
        if tangent.dot(b.point - a.point).abs() < MANIFOLD_MERGE_DISTANCE {
            manifold.points[0] = if b.separation < a.separation { b } else { a };
            manifold.count = 1;
        }
    }
}

/// The cosine and sine of the angle between the incident edge and the reference face: the
/// angle between `-normal` and the incident edge's normal `incident_normal`.
pub(crate) fn tilt(normal: Vec2, incident_normal: Vec2) -> (f32, f32) {
    let cos = (-normal.dot(incident_normal)).clamp(0.0, 1.0);
    (cos, (1.0 - cos * cos).max(0.0).sqrt())
}

/// How far below a point of a rounded incident edge (along `-normal`) its surface lies:
/// the point is `along` (meters) from the edge's deeper end on an edge tilted by the angle
/// of cosine `cos` and sine `sin`, rounded by `radius`. Near the deeper end the line meets
/// that end's round cap (`radius` right below the end itself); farther up it meets the
/// rounded flat side, `radius / cos` below.
pub(crate) fn rounded_reach(radius: f32, along: f32, cos: f32, sin: f32) -> f32 {
    if radius == 0.0 {
        0.0
    } else if along * cos >= radius * sin {
        radius / cos
    } else {
        along * sin + (radius * radius - along * along * cos * cos).max(0.0).sqrt()
    }
}
