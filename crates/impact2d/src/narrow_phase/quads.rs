//! Four-vertex polygons (boxes) against each other: the polygon path of `polygons.rs` on
//! cores kept in four SIMD lanes, with the same operations in the same order, so the manifold
//! is the same bit for bit; only the work around it is less: no eight-slot cores, no dispatch
//! over core sizes, and face contacts (of touching pairs, and of pairs that are apart by less
//! than the speculative distance) clipped and written to the world in one function (no local
//! manifold in between). The closest features of pairs that are apart, the one-point
//! contacts, and the rare touching pair whose clip keeps no point go through the general
//! functions (on the lanes, through `Corners`).
//!
//! Source: as `polygons.rs` (Catto's `b2CollidePolygons` in Box2D v3).

use super::clip::{rounded_reach, tilt};
use super::core::{Corners, Lanes};
use super::manifold::{Frame, LocalPoint, Manifold, ManifoldPoint, feature_id, is_within};
use super::polygons::{Apart, apart_features, touching_cores};
use crate::geometry::Polygon;
use crate::math::{Transform, Vec2};
use crate::settings::{MANIFOLD_MERGE_DISTANCE, MANIFOLD_REFERENCE_TOLERANCE, MANIFOLD_TOUCHING_GAP};

/// A four-vertex polygon core in the local frame of a pair: vertices and edge normals in
/// lanes, and the rounding radius (meters).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Quad {
    pub lanes: Lanes,
    pub radius: f32,
}

impl Quad {
    /// Polygon `p` (four vertices) mapped by `xf`.
    #[inline]
    fn new(p: &Polygon, xf: Transform) -> Quad {
        Quad { lanes: Lanes::quad(p, xf), radius: p.radius() }
    }
}

impl Corners for Quad {
    #[inline]
    fn vertex(&self, i: usize) -> Vec2 {
        // Read through the lanes' memory (`Vec4`'s own indexing is a jump over the lanes).
        Vec2::new(self.lanes.vx.as_ref()[i & 3], self.lanes.vy.as_ref()[i & 3])
    }

    #[inline]
    fn normal(&self, i: usize) -> Vec2 {
        Vec2::new(self.lanes.nx.as_ref()[i & 3], self.lanes.ny.as_ref()[i & 3])
    }

    #[inline]
    fn next(&self, i: usize) -> usize {
        (i + 1) & 3
    }

    #[inline]
    fn radius(&self) -> f32 {
        self.radius
    }

    #[inline]
    fn incident_edge(&self, normal: Vec2) -> usize {
        self.lanes.incident_edge(normal)
    }

    fn deepest(&self, normal: Vec2, origin: Vec2) -> (usize, f32) {
        let mut best = (0, f32::INFINITY);
        for i in 0..4 {
            let s = normal.dot(self.vertex(i) - origin);
            if s < best.1 {
                best = (i, s);
            }
        }
        best
    }

    /// A four-vertex core is no segment: it keeps `edge`.
    #[inline]
    fn edge_facing(&self, edge: usize, _direction: Vec2) -> usize {
        edge
    }
}

/// The manifold of polygons `pa` placed by `xf_a` and `pb` placed by `xf_b`, both of four
/// vertices, in `frame` (A's pair frame, made from `xf_a`, A's first vertex and `xf_b`),
/// written into `out`: the same manifold as `collide_cores` on their cores, bit for bit. True
/// when it has points; a pair beyond reach leaves `out` as it was (see `collide_into`). With
/// `AVX` (only inside the AVX version of `collide_convex`) the clip runs in AVX's encodings.
#[inline]
pub(crate) fn collide_quads<const AVX: bool>(
    out: &mut Manifold,
    pa: &Polygon,
    frame: &Frame,
    pb: &Polygon,
    xf_b: Transform,
    speculative: f32,
) -> bool {
    let (local_a, local_b) = (frame.local_a(), frame.local(xf_b));
    let (a, b) = (Quad::new(pa, local_a), Quad::new(pb, local_b));
    // Beyond the radii and the speculative distance along either core's normals: no contact
    // (B's SAT is skipped when A's already says so).
    let limit = a.radius + b.radius + speculative;
    let (edge_a, separation_a) = a.lanes.max_separation(&b.lanes);
    if !is_within(separation_a, limit) {
        return false;
    }
    let (edge_b, separation_b) = b.lanes.max_separation(&a.lanes);
    if !is_within(separation_b, limit) {
        return false;
    }
    if separation_a.max(separation_b) > MANIFOLD_TOUCHING_GAP {
        // Apart (one pair in ten to one in four in a pyramid): the closest features, read
        // from the lanes (no eight-slot cores); a face contact is clipped as a touching pair's.
        match apart_features(&a, edge_a, &b, edge_b, speculative) {
            Apart::Nothing => return false,
            Apart::Face(f) => {
                if !touching::<AVX>(out, frame, f.face, f.edge, f.other, f.flip, speculative) {
                    *out = frame.finish(&f.closest.point(speculative));
                }
            }
            Apart::Point(closest) => *out = frame.finish(&closest.point(speculative)),
        }
        return out.count > 0;
    }
    let flip = separation_b > separation_a + MANIFOLD_REFERENCE_TOLERANCE;
    let (reference, edge, incident) = if flip { (&b, edge_b, &a) } else { (&a, edge_a, &b) };
    if !touching::<AVX>(out, frame, reference, edge, incident, flip, speculative) {
        // The incident edge misses the reference face's slab, or no end is near: the general
        // path's fallback (the incident core's deepest vertex).
        *out = frame.finish(&touching_cores(&a, edge_a, separation_a, &b, edge_b, separation_b, speculative));
    }
    out.count > 0
}

/// `clip_faces` (as `touching_cores` and the face contacts of `apart_cores` call it) then
/// `Frame::finish` for two quads, reference edge `edge` of `reference` against the incident
/// edge of `incident` (`flip`: the reference is B): the incident edge clipped to the reference
/// face's slab (with `clip_faces`'s operations in its order) and the points written to the
/// world as they come, into `out` (written in place: returning it by value cost a copy).
/// False, with `out` untouched, when the clip leaves no point.
// Not inlined: in its own function the clip spills fewer registers (measured: about 13
// instructions fewer per pair).
#[inline(never)]
fn touching_quads(
    out: &mut Manifold,
    frame: &Frame,
    reference: &Quad,
    edge: usize,
    incident: &Quad,
    flip: bool,
    speculative: f32,
) -> bool {
    touching_quads_in(out, frame, reference, edge, incident, flip, speculative)
}

/// [`touching_quads`] compiled with AVX's encodings.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
#[inline(never)]
fn touching_quads_avx(
    out: &mut Manifold,
    frame: &Frame,
    reference: &Quad,
    edge: usize,
    incident: &Quad,
    flip: bool,
    speculative: f32,
) -> bool {
    touching_quads_in(out, frame, reference, edge, incident, flip, speculative)
}

/// [`touching_quads`], or its AVX version when `AVX` (only inside the AVX version of
/// `collide_convex`).
#[inline(always)]
fn touching<const AVX: bool>(
    out: &mut Manifold,
    frame: &Frame,
    reference: &Quad,
    edge: usize,
    incident: &Quad,
    flip: bool,
    speculative: f32,
) -> bool {
    #[cfg(target_arch = "x86_64")]
    if AVX {
        // SAFETY: `AVX` is true only inside `collide_convex_avx`, which runs only where AVX
        // was detected on this machine.
        return unsafe { touching_quads_avx(out, frame, reference, edge, incident, flip, speculative) };
    }
    touching_quads(out, frame, reference, edge, incident, flip, speculative)
}

/// The body of [`touching_quads`], inlined into each encoding's version.
#[inline(always)]
fn touching_quads_in(
    out: &mut Manifold,
    frame: &Frame,
    reference: &Quad,
    edge: usize,
    incident: &Quad,
    flip: bool,
    speculative: f32,
) -> bool {
    let normal = reference.normal(edge);
    let incident_edge = incident.lanes.incident_edge(normal);
    // The incident edge clipped to the slab between the reference edge's side planes: the
    // operations of `clip::clip_to_slab`, written out (calling it costs about 0.8 M
    // instructions per large_pyramid step, +1.8 %, for the same bits).
    let (r1, r2) = (reference.vertex(edge), reference.vertex(edge + 1));
    let tangent = normal.perp();
    let length = tangent.dot(r2 - r1);
    let (j1, j2) = (incident_edge, (incident_edge + 1) & 3);
    let (w1, w2) = (incident.vertex(j1), incident.vertex(j2));
    let (u1, u2) = (tangent.dot(w1 - r1), tangent.dot(w2 - r1));
    let ((lo, u_lo, j_lo), (hi, u_hi, j_hi)) =
        if u1 <= u2 { ((w1, u1, j1), (w2, u2, j2)) } else { ((w2, u2, j2), (w1, u1, j1)) };
    if !(u_hi >= 0.0 && u_lo <= length) {
        return false;
    }
    let span = u_hi - u_lo;
    let lower = if u_lo < 0.0 && span > 0.0 { lo + (hi - lo) * (-u_lo / span) } else { lo };
    let upper = if u_hi > length && span > 0.0 { lo + (hi - lo) * ((length - u_lo) / span) } else { hi };
    let deep = if normal.dot(lo - r1) <= normal.dot(hi - r1) { lo } else { hi };
    // Each end's separation and midpoint between the rounded surfaces. A sharp incident core
    // reaches nowhere below its edge (`rounded_reach` is zero): no tilt, no distances.
    let sharp = incident.radius == 0.0;
    let (cos_tilt, sin_tilt) = if sharp { (1.0, 0.0) } else { tilt(normal, incident.normal(incident_edge)) };
    let end = |p: Vec2, i: usize, j: usize| {
        let s = normal.dot(p - r1);
        let reach = if sharp { 0.0 } else { rounded_reach(incident.radius, p.distance(deep), cos_tilt, sin_tilt) };
        let separation = s - reference.radius - reach;
        let point = p + normal * (0.5 * (reference.radius - reach - s));
        let id = if flip { feature_id(j, i) } else { feature_id(i, j) };
        (separation <= speculative, LocalPoint { point, separation, id })
    };
    let (keep_lower, lower) = end(lower, edge & 3, j_lo);
    let (keep_upper, upper) = end(upper, (edge + 1) & 3, j_hi);
    let (first, second) = match (keep_lower, keep_upper) {
        // Closer than the merge distance along the face: the deeper one.
        (true, true) if tangent.dot(upper.point - lower.point).abs() < MANIFOLD_MERGE_DISTANCE => {
            (if upper.separation < lower.separation { upper } else { lower }, None)
        }
        (true, true) => (lower, Some(upper)),
        (true, false) => (lower, None),
        (false, true) => (upper, None),
        (false, false) => return false,
    };
    *out = Manifold { normal: frame.world_vector(if flip { -normal } else { normal }), count: 1, ..Manifold::EMPTY };
    out.points[0] = frame.world_point(&first);
    let mut finite = out.normal.is_finite() && is_finite(&out.points[0]);
    if let Some(second) = second {
        out.points[1] = frame.world_point(&second);
        out.count = 2;
        finite &= is_finite(&out.points[1]);
    }
    if !finite {
        *out = Manifold::EMPTY;
    }
    true
}

/// The finiteness test of [`Frame::finish`] for one point.
#[inline]
fn is_finite(p: &ManifoldPoint) -> bool {
    p.point.is_finite() && p.anchor_b.is_finite() && p.separation.is_finite()
}
