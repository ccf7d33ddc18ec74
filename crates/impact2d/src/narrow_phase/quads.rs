//! Four-vertex polygons (boxes) against each other: the polygon path of `polygons.rs` on
//! cores kept in four SIMD lanes, with the same operations in the same order, so the manifold
//! is the same bit for bit; only the work around it is less (no eight-slot cores built for
//! pairs that touch, no dispatch over core sizes).
//!
//! Source: as `polygons.rs` (Catto's `b2CollidePolygons` in Box2D v3).

use super::core::{Core, Corners, Lanes};
use super::manifold::{Frame, Manifold, is_within};
use super::polygons::{apart_cores, touching_cores};
use crate::geometry::Polygon;
use crate::math::{Transform, Vec2};
use crate::settings::MANIFOLD_TOUCHING_GAP;

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
        Vec2::new(self.lanes.vx[i & 3], self.lanes.vy[i & 3])
    }

    #[inline]
    fn normal(&self, i: usize) -> Vec2 {
        Vec2::new(self.lanes.nx[i & 3], self.lanes.ny[i & 3])
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
}

/// The manifold of polygons `pa` placed by `xf_a` and `pb` placed by `xf_b`, both of four
/// vertices, in `frame` (A's pair frame, made from `xf_a`, A's first vertex and `xf_b`):
/// the same manifold as `collide_cores` on their cores, bit for bit.
#[inline]
pub(crate) fn collide_quads(pa: &Polygon, frame: &Frame, pb: &Polygon, xf_b: Transform, speculative: f32) -> Manifold {
    let (local_a, local_b) = (frame.local_a(), frame.local(xf_b));
    let (a, b) = (Quad::new(pa, local_a), Quad::new(pb, local_b));
    let (edge_a, separation_a) = a.lanes.max_separation(&b.lanes);
    let (edge_b, separation_b) = b.lanes.max_separation(&a.lanes);
    let limit = a.radius + b.radius + speculative;
    if !(is_within(separation_a, limit) && is_within(separation_b, limit)) {
        return Manifold::EMPTY;
    }
    let local = if separation_a.max(separation_b) > MANIFOLD_TOUCHING_GAP {
        // Apart (about one pair in ten in a pyramid): the closest features of the full cores.
        let core_a = Core::from_lanes(a.lanes, a.radius, local_a.apply(pa.centroid()));
        let core_b = Core::from_lanes(b.lanes, b.radius, local_b.apply(pb.centroid()));
        apart_cores(&core_a, edge_a, &core_b, edge_b, speculative)
    } else {
        touching_cores(&a, edge_a, separation_a, &b, edge_b, separation_b, speculative)
    };
    frame.finish(&local)
}
