//! Polygon cores against polygon cores: polygons, capsules and segments, each as a rounded
//! convex polygon (a capsule or segment has two vertices).
//!
//! Algorithm (after Catto's `b2CollidePolygons` in Box2D v3; Ericson, Real-Time Collision
//! Detection, 4.4 and 5.1.9):
//! 1. Separating axis test on the edge normals of both cores. A separation beyond the radii
//!    plus the speculative distance is an early out (the SAT separation is a lower bound on
//!    the distance).
//! 2. Cores apart (by more than [`MANIFOLD_TOUCHING_GAP`]): the closest features are found
//!    exactly. The face whose line is farthest from the other core is adjacent to the
//!    closest vertex of the cores' Minkowski difference, so the closest features lie on the
//!    edge of greatest separation of one core and the incident edge (the most anti-parallel
//!    one) of the other; both such pairs are measured with segment distance and the closer
//!    one kept. Two vertices closest: one point along the line between them. A vertex closest
//!    to an edge's interior: that edge is the reference face and the other core's incident
//!    edge is clipped against it (two points when the faces are parallel, one at a corner).
//!    Two segment cores (capsules, segments) skip the SAT: parallel segments have no area
//!    between them and their normals miss the axis that separates collinear ones, so their
//!    closest points are computed directly; whether they cross is decided exactly, not from
//!    the distance of their closest points, whose round-off passes the touching gap from
//!    about 1 km out.
//! 3. Cores touching or overlapping: the SAT separation is the exact depth. The reference
//!    face is A's best edge unless B's is better by [`MANIFOLD_REFERENCE_TOLERANCE`] (so the
//!    normal does not flip between nearly equal faces); the incident edge is clipped
//!    against it.
//!
//! Rounded shapes are their cores plus radius: separations subtract both radii and points
//! sit midway between the rounded surfaces.

use super::clip::clip_faces;
use super::core::{Core, Corners, max_separation};
use super::manifold::{LocalManifold, LocalPoint, feature_id, is_within};
use crate::query::{SegmentDistance, segment_distance, segment_distance_lanes, segments_cross};
use crate::settings::{MANIFOLD_REFERENCE_TOLERANCE, MANIFOLD_TOUCHING_GAP};

/// The manifold of two cores in the same local frame (the normal from `a` to `b`); points
/// farther apart than `speculative` (meters) are dropped.
pub(crate) fn collide_cores(a: &Core, b: &Core, speculative: f32) -> LocalManifold {
    if a.is_segment() && b.is_segment() {
        return collide_segment_cores(a, b, speculative);
    }
    let (edge_a, separation_a) = max_separation(a, b);
    let (edge_b, separation_b) = max_separation(b, a);
    let limit = a.radius + b.radius + speculative;
    if !(is_within(separation_a, limit) && is_within(separation_b, limit)) {
        return LocalManifold::EMPTY;
    }
    if separation_a.max(separation_b) > MANIFOLD_TOUCHING_GAP {
        apart_cores(a, edge_a, b, edge_b, speculative)
    } else {
        touching_cores(a, edge_a, separation_a, b, edge_b, separation_b, speculative)
    }
}

/// Cores apart (their SAT separation beyond [`MANIFOLD_TOUCHING_GAP`]): the manifold from
/// their closest features, which lie on edge `edge_a` of `a` (its edge of greatest separation)
/// and its incident edge of `b`, or on edge `edge_b` of `b` and its incident edge of `a`.
pub(crate) fn apart_cores<C: Corners>(a: &C, edge_a: usize, b: &C, edge_b: usize, speculative: f32) -> LocalManifold {
    apart_manifold(apart_features(a, edge_a, b, edge_b, speculative), speculative)
}

/// The manifold of what two cores that are apart make: a face contact clipped (one point
/// between the closest features when clipping keeps none), or the one point.
fn apart_manifold<C: Corners>(apart: Apart<'_, C>, speculative: f32) -> LocalManifold {
    match apart {
        Apart::Nothing => LocalManifold::EMPTY,
        Apart::Face(face) => {
            let manifold = clip_faces(face.face, face.edge, face.other, face.other_edge(), face.flip, speculative);
            if manifold.count > 0 { manifold } else { face.closest.point(speculative) }
        }
        Apart::Point(closest) => closest.point(speculative),
    }
}

/// What the closest features of two cores that are apart make (see [`apart_cores`]), before
/// any clipping: so the box pairs' own clip serves their face contacts.
pub(crate) enum Apart<'a, C> {
    /// Farther apart than the speculative distance, or coordinates not finite.
    Nothing,
    /// A face contact: clip, and if no point is kept, the one point of `closest`.
    Face(ApartFace<'a, C>),
    /// One point between the closest features.
    Point(Closest<'a, C>),
}

/// The face of a face contact between cores that are apart.
pub(crate) struct ApartFace<'a, C> {
    /// The core whose edge `edge` is the reference face; `flip`: that core is B.
    pub face: &'a C,
    pub edge: usize,
    pub other: &'a C,
    pub flip: bool,
    /// The closest features, for the one-point fallback.
    pub closest: Closest<'a, C>,
}

impl<C: Corners> ApartFace<'_, C> {
    /// The incident edge of `other` for the face's normal.
    pub fn other_edge(&self) -> usize {
        self.other.incident_edge(self.face.normal(self.edge))
    }
}

/// The edge pair holding the closest features of two cores, `distance` (meters) apart.
pub(crate) struct Closest<'a, C> {
    pair: EdgePair<'a, C>,
    distance: f32,
}

impl<C: Corners> Closest<'_, C> {
    /// The one point between the closest features (see [`closest_point`]).
    pub fn point(&self, speculative: f32) -> LocalManifold {
        closest_point(&self.pair, self.distance, speculative)
    }
}

/// The closest features of cores `a` and `b` that are apart (see [`apart_cores`]).
#[inline(always)]
pub(crate) fn apart_features<'a, C: Corners>(
    a: &'a C,
    edge_a: usize,
    b: &'a C,
    edge_b: usize,
    speculative: f32,
) -> Apart<'a, C> {
    let Some(pair_a) = edge_pair(a, edge_a, b, false) else { return Apart::Nothing };
    // Faces lying on each other make the same pair both ways: measure it once.
    let same = pair_a.incident_edge == edge_b && a.incident_edge(b.normal(edge_b)) == edge_a;
    let pair = if same {
        pair_a
    } else {
        match edge_pair(b, edge_b, a, true) {
            Some(pair_b) if pair_b.closest.distance_squared < pair_a.closest.distance_squared => pair_b,
            _ => pair_a,
        }
    };
    closest_features(pair, speculative)
}

/// Two segment cores (capsules, segments): their closest points are found directly, since
/// their edge normals miss the axis that separates collinear segments.
fn collide_segment_cores(a: &Core, b: &Core, speculative: f32) -> LocalManifold {
    let (a0, a1, b0, b1) = (a.vertices[0], a.vertices[1], b.vertices[0], b.vertices[1]);
    let Ok(closest) = segment_distance(a0, a1, b0, b1) else {
        return LocalManifold::EMPTY;
    };
    // Crossing cores overlap whatever the round-off of their closest points, which grows
    // with the coordinates (about 1e-3 m at 10 km, beyond the touching gap): taken for apart,
    // they would get a normal along that round-off, in any direction.
    let crossing = segments_cross(a0, a1, b0, b1);
    let pair = EdgePair { reference: a, reference_edge: 0, incident: b, incident_edge: 0, flip: false, closest };
    if closest.distance_squared > MANIFOLD_TOUCHING_GAP * MANIFOLD_TOUCHING_GAP && !crossing {
        return apart_manifold(closest_features(pair, speculative), speculative);
    }
    // Crossing or touching: the two normals are the separating axes (a parallelogram).
    let ((edge_a, separation_a), (edge_b, separation_b)) = (max_separation(a, b), max_separation(b, a));
    let faces = Faces { a, edge_a, separation_a, b, edge_b, separation_b };
    if let Some(manifold) = faces.touching(speculative) {
        return manifold;
    }
    // Neither face reaches the other segment: two segments meeting end to end, nearly in
    // line. Their closest points are the contact (the deepest vertex below a face would be
    // the far end of the other segment; found by fuzzing: a point 3 cm from a 5 mm capsule).
    if !crossing && closest.distance_squared > 0.0 {
        return apart_manifold(closest_features(pair, speculative), speculative);
    }
    faces.lone_vertex(speculative)
}

/// Cores touching or overlapping: the face of least penetration (A's unless B's is better by
/// the reference tolerance) is the reference, and the other core's incident edge is clipped.
pub(crate) fn touching_cores<C: Corners>(
    a: &C,
    edge_a: usize,
    separation_a: f32,
    b: &C,
    edge_b: usize,
    separation_b: f32,
    speculative: f32,
) -> LocalManifold {
    let faces = Faces { a, edge_a, separation_a, b, edge_b, separation_b };
    faces.touching(speculative).unwrap_or_else(|| faces.lone_vertex(speculative))
}

/// The separating axis test's best face of each of two touching cores: the candidates for
/// the reference face.
struct Faces<'a, C> {
    a: &'a C,
    edge_a: usize,
    separation_a: f32,
    b: &'a C,
    edge_b: usize,
    separation_b: f32,
}

impl<'a, C: Corners> Faces<'a, C> {
    /// Whether B's face is the reference: better than A's by the reference tolerance.
    fn flip(&self) -> bool {
        self.separation_b > self.separation_a + MANIFOLD_REFERENCE_TOLERANCE
    }

    /// The reference core and edge and the incident core, with B's face the reference when
    /// `flip`.
    fn reference(&self, flip: bool) -> (&'a C, usize, &'a C) {
        if flip { (self.b, self.edge_b, self.a) } else { (self.a, self.edge_a, self.b) }
    }

    /// The reference face's contact, or the other face's when the reference misses the
    /// incident edge and the other face is the better axis; `None` when neither face's slab
    /// holds a point of the other core's incident edge within reach.
    fn touching(&self, speculative: f32) -> Option<LocalManifold> {
        let flip = self.flip();
        let manifold = self.clip(flip, speculative);
        if manifold.count > 0 {
            return Some(manifold);
        }
        // The face kept by the tolerance may miss the other core's incident edge altogether
        // (two thin cores crossing, shorter than the tolerance is deep): the other face, the
        // axis of least penetration, gives the contact before a lone vertex does (found by
        // fuzzing: plates 2 mm by 8 µm crossing, whose lone vertex lay 0.19 mm beyond the
        // reference face).
        let better = if flip { self.separation_a > self.separation_b } else { self.separation_b > self.separation_a };
        if better {
            let manifold = self.clip(!flip, speculative);
            if manifold.count > 0 {
                return Some(manifold);
            }
        }
        None
    }

    /// The incident edge clipped against the reference face (B's when `flip`).
    fn clip(&self, flip: bool, speculative: f32) -> LocalManifold {
        let (reference, edge, incident) = self.reference(flip);
        let incident_edge = incident.incident_edge(reference.normal(edge));
        clip_faces(reference, edge, incident, incident_edge, flip, speculative)
    }

    /// The last resort of touching cores whose faces make no contact: the incident core's
    /// deepest vertex below the reference face.
    fn lone_vertex(&self, speculative: f32) -> LocalManifold {
        let flip = self.flip();
        let (reference, edge, incident) = self.reference(flip);
        deepest_point(reference, edge, incident, flip, speculative)
    }
}

/// Which edges of two cores hold their closest features, and how they relate.
struct EdgePair<'a, C> {
    reference: &'a C,
    reference_edge: usize,
    incident: &'a C,
    incident_edge: usize,
    /// True when `reference` is B.
    flip: bool,
    closest: SegmentDistance,
}

/// What two cores that are apart make, from the closest points of the edges that hold their
/// closest features.
fn closest_features<C: Corners>(pair: EdgePair<'_, C>, speculative: f32) -> Apart<'_, C> {
    let distance = pair.closest.distance_squared.sqrt();
    let radius = pair.reference.radius() + pair.incident.radius();
    if !is_within(distance - radius, speculative) {
        return Apart::Nothing;
    }
    let at_end = |f: f32| f == 0.0 || f == 1.0;
    let c = pair.closest;
    let (reference, incident, flip) = (pair.reference, pair.incident, pair.flip);
    let (face, edge, other, toward, flip) = match (at_end(c.fraction1), at_end(c.fraction2)) {
        // Two vertices are closest: one point.
        (true, true) => return Apart::Point(Closest { pair, distance }),
        // The reference edge's interior is closest: its face meets the other core.
        (false, _) => (reference, pair.reference_edge, incident, c.closest2 - c.closest1, flip),
        // The incident edge's interior is closest to a reference vertex: its face is the reference.
        (true, false) => (incident, pair.incident_edge, reference, c.closest1 - c.closest2, !flip),
    };
    // The edge facing `toward` (of a segment core; any other keeps its edge).
    let edge = face.edge_facing(edge, toward);
    Apart::Face(ApartFace { face, edge, other, flip, closest: Closest { pair, distance } })
}

/// Edge `edge` of `reference` and the incident edge of `incident` for its normal, with the
/// closest points of the two edges; `None` for coordinates that are not finite or beyond
/// [`MAX_COORDINATE`](crate::settings::MAX_COORDINATE).
fn edge_pair<'a, C: Corners>(reference: &'a C, edge: usize, incident: &'a C, flip: bool) -> Option<EdgePair<'a, C>> {
    let incident_edge = incident.incident_edge(reference.normal(edge));
    let (r1, r2) = (reference.vertex(edge), reference.vertex(reference.next(edge)));
    let (i1, i2) = (incident.vertex(incident_edge), incident.vertex(incident.next(incident_edge)));
    let closest = segment_distance_lanes(r1, r2, i1, i2)?;
    Some(EdgePair { reference, reference_edge: edge, incident, incident_edge, flip, closest })
}

/// One point between the closest features of an edge pair (`distance` apart, meters): for
/// two closest vertices, or when clipping found nothing within the speculative distance.
fn closest_point<C: Corners>(pair: &EdgePair<C>, distance: f32, speculative: f32) -> LocalManifold {
    let (r, i, c) = (pair.reference, pair.incident, &pair.closest);
    let separation = distance - r.radius() - i.radius();
    if !is_within(separation, speculative) || !is_within(f32::MIN_POSITIVE, distance) {
        return LocalManifold::EMPTY;
    }
    let normal = (c.closest2 - c.closest1) / distance;
    let point = 0.5 * ((c.closest1 + normal * r.radius()) + (c.closest2 - normal * i.radius()));
    let vertex_r = if c.fraction1 < 0.5 { pair.reference_edge } else { r.next(pair.reference_edge) };
    let vertex_i = if c.fraction2 < 0.5 { pair.incident_edge } else { i.next(pair.incident_edge) };
    let manifold = LocalManifold::single(normal, LocalPoint { point, separation, id: feature_id(vertex_r, vertex_i) });
    if pair.flip { manifold.flipped() } else { manifold }
}

/// One point at the incident core's deepest vertex below reference edge `edge`: the
/// contact of overlapping cores whose incident edge misses the reference face's slab.
fn deepest_point<C: Corners>(reference: &C, edge: usize, incident: &C, flip: bool, speculative: f32) -> LocalManifold {
    let normal = reference.normal(edge);
    let (vertex, s) = incident.deepest(normal, reference.vertex(edge));
    let separation = s - reference.radius() - incident.radius();
    if !is_within(separation, speculative) {
        return LocalManifold::EMPTY;
    }
    let p = incident.vertex(vertex);
    let point = p + normal * (0.5 * (reference.radius() - incident.radius() - s));
    let manifold = LocalManifold::single(normal, LocalPoint { point, separation, id: feature_id(edge, vertex) });
    if flip { manifold.flipped() } else { manifold }
}
