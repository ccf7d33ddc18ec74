//! Rows of separate tiles that should act as one surface.
//!
//! A floor made of boxes side by side has seams: a shape sliding across one can meet the next
//! tile's side face or corner and catch on it (the ghost collision rapier and avian users
//! report on tile maps). The cleanest fix is to describe such static geometry by its outline
//! as a chain ([`make_chain`](crate::geometry::make_chain)), which handles it fully. For a
//! world that keeps its tiles, this module is the polygon counterpart of the chain rules:
//!
//! 1. [`internal_edges`] marks the edges of a tile that its neighbors cover: edges facing a
//!    neighbor's edge, on the same line (surfaces within the linear slop, rounding included)
//!    and covered along their whole length, up to gaps of the linear slop.
//! 2. [`collide_tile`] collides the tile like any polygon, then looks at the normal in the
//!    tile's frame. The normal of an exposed edge, or one in the fan of a corner between two
//!    exposed edges, is kept: real corners are untouched. The normal of an internal edge, or
//!    one in the fan of a seam vertex (a corner touching an internal edge), is snapped to the
//!    best aligned exposed face, and the contact is recomputed against that face alone, as a
//!    chain does at a flat joint (a rounded tile's face is extended by its radius towards a
//!    seam, so the faces of two rounded neighbors meet: the row acts flat, without the groove
//!    their rounded corners would make).
//!
//! Limits: coverage is decided per edge, so a seam whose tiles differ in height by more than
//! the linear slop is a real step (and catches, as it should); tiles that touch only at a
//! corner share no edge; the world has to call [`internal_edges`] again when tiles change.

use super::chains::{ChainFrame, snap_to_face};
use super::collide::collide;
use super::core::{Convex, Core};
use super::manifold::{Frame, LocalManifold, Manifold, feature_id};
use crate::geometry::{Polygon, Shape};
use crate::math::{Transform, Vec2};
use crate::settings::{CHAIN_ANGLE_TOLERANCE, LINEAR_SLOP};

/// The edges of a tile that neighbors cover: bit `i` stands for the edge from vertex `i` to
/// vertex `i + 1`.
pub type TileEdges = u8;

/// The sine of the angle within which a contact normal is an edge normal: float noise only.
const FACE_NORMAL_TOLERANCE: f32 = 1.0e-5;

/// The edges of `tile` (placed by `xf`) covered by the edges of `neighbors` (each placed by
/// its transform): anti-parallel within [`CHAIN_ANGLE_TOLERANCE`], their rounded surfaces on
/// one line within [`LINEAR_SLOP`], and covered end to end up to gaps of [`LINEAR_SLOP`]
/// (so several small neighbors can cover one long edge; at most 64 facing neighbor edges count
/// per edge). Meters, world coordinates. Allocation-free.
pub fn internal_edges(tile: &Polygon, xf: Transform, neighbors: &[(Polygon, Transform)]) -> TileEdges {
    let mut mask = 0;
    let count = tile.vertices().len();
    for i in 0..count {
        let a1 = xf.apply(tile.vertices()[i]);
        let a2 = xf.apply(tile.vertices()[(i + 1) % count]);
        let normal = xf.q.rotate(tile.normals()[i]);
        if edge_is_covered(a1, a2, normal, tile.radius(), neighbors) {
            mask |= 1 << i;
        }
    }
    mask
}

/// True when the neighbors' facing edges cover the edge `a1 → a2` (outward `normal`, rounded
/// by `radius`) up to gaps of the linear slop.
fn edge_is_covered(a1: Vec2, a2: Vec2, normal: Vec2, radius: f32, neighbors: &[(Polygon, Transform)]) -> bool {
    let tangent = normal.perp();
    let length = tangent.dot(a2 - a1);
    let anti_parallel = -(1.0 - CHAIN_ANGLE_TOLERANCE * CHAIN_ANGLE_TOLERANCE).sqrt();
    // Covered intervals along the edge, in meters from a1.
    let mut intervals = [(0.0f32, 0.0f32); 64];
    let mut n = 0;
    for (polygon, xf) in neighbors {
        let vertices = polygon.vertices();
        for j in 0..vertices.len() {
            let (b1, b2) = (xf.apply(vertices[j]), xf.apply(vertices[(j + 1) % vertices.len()]));
            let facing = xf.q.rotate(polygon.normals()[j]).dot(normal) <= anti_parallel;
            let gap = radius + polygon.radius();
            let on_line = |b: Vec2| (normal.dot(b - a1) - gap).abs() <= LINEAR_SLOP;
            if facing && on_line(b1) && on_line(b2) && n < intervals.len() {
                let (t1, t2) = (tangent.dot(b1 - a1), tangent.dot(b2 - a1));
                intervals[n] = (t1.min(t2), t1.max(t2));
                n += 1;
            }
        }
    }
    let intervals = &mut intervals[..n];
    intervals.sort_by(|p, q| p.0.total_cmp(&q.0));
    let mut reached = 0.0f32;
    for &(start, end) in intervals.iter() {
        if start > reached + LINEAR_SLOP {
            return false;
        }
        reached = reached.max(end);
    }
    reached >= length - LINEAR_SLOP
}

/// The manifold of tile `tile` (A, placed by `xf_a`, with `internal` edges covered by its
/// neighbors) and any shape B, smoothed across the tile's seams (see the module notes).
/// Without internal edges it is [`collide`]. Never panics; non-finite input gives an empty
/// manifold.
pub fn collide_tile(
    tile: &Polygon,
    internal: TileEdges,
    xf_a: Transform,
    shape_b: &Shape,
    xf_b: Transform,
    speculative_distance: f32,
) -> Manifold {
    let manifold = collide(&Shape::Polygon(*tile), xf_a, shape_b, xf_b, speculative_distance);
    let count = tile.vertices().len();
    let internal = internal & ((1u16 << count) - 1) as u8;
    if manifold.is_empty() || internal == 0 {
        return manifold;
    }
    match snap_edge(tile, internal, xf_a.q.inv_rotate(manifold.normal)) {
        None => manifold,
        Some(edge) => snapped(tile, internal, edge, xf_a, shape_b, xf_b, speculative_distance.max(0.0)),
    }
}

/// The exposed edge a contact with tile-local `normal` must be snapped to, or `None` when the
/// normal belongs to the tile's exposed surface (an exposed face, a real corner's fan).
fn snap_edge(tile: &Polygon, internal: TileEdges, normal: Vec2) -> Option<usize> {
    let normals = tile.normals();
    let count = normals.len();
    let is_internal = |i: usize| internal & (1 << i) != 0;
    let on_face =
        normals.iter().position(|&m| normal.dot(m) > 0.0 && normal.perp_dot(m).abs() <= FACE_NORMAL_TOLERANCE);
    let needs_snap = match on_face {
        Some(i) => is_internal(i),
        None => (0..count).any(|k| {
            // The fan of vertex k, between the normals of edges k - 1 and k.
            let (before, after) = ((k + count - 1) % count, k);
            let in_fan = normals[before].perp_dot(normal) >= 0.0 && normal.perp_dot(normals[after]) >= 0.0;
            in_fan && (is_internal(before) || is_internal(after))
        }),
    };
    if !needs_snap {
        return None;
    }
    (0..count).filter(|&i| !is_internal(i)).max_by(|&i, &j| normal.dot(normals[i]).total_cmp(&normal.dot(normals[j])))
}

/// The contact of B with exposed edge `edge` of the tile alone, as a chain segment whose
/// joints are flat where they touch an internal edge and corners where they touch an exposed
/// one.
fn snapped(
    tile: &Polygon,
    internal: TileEdges,
    edge: usize,
    xf_a: Transform,
    shape_b: &Shape,
    xf_b: Transform,
    speculative: f32,
) -> Manifold {
    let vertices = tile.vertices();
    let count = vertices.len();
    let (i0, i1, i2, i3) = ((edge + count - 1) % count, edge, (edge + 1) % count, (edge + 2) % count);
    let frame = Frame::new(xf_a, vertices[i1], xf_b);
    let local = frame.local_a();
    let straight_before = internal & (1 << i0) != 0;
    let straight_after = internal & (1 << i2) != 0;
    // A rounded tile's flat face stops a radius short of a seam: reach the seam, so that the
    // faces of two neighbors meet.
    let (mut p1, mut p2) = (local.apply(vertices[i1]), local.apply(vertices[i2]));
    let along = (p2 - p1).normalize() * tile.radius();
    if straight_before {
        p1 -= along;
    }
    if straight_after {
        p2 += along;
    }
    let ghost1 = if straight_before { 2.0 * p1 - p2 } else { local.apply(vertices[i0]) };
    let ghost2 = if straight_after { 2.0 * p2 - p1 } else { local.apply(vertices[i3]) };
    let chain = ChainFrame::new(ghost1, p1, p2, ghost2);
    let segment = Core::segment(p1, p2, tile.radius(), Transform::IDENTITY);
    let other = Convex::of(shape_b, frame.local(xf_b));
    let mut manifold: LocalManifold = snap_to_face(&chain, &segment, &other, speculative);
    // Feature ids name the tile's own vertices, not the segment's ends.
    for p in &mut manifold.points[..manifold.count] {
        let end = if p.id >> 8 == 0 { i1 } else { i2 };
        p.id = feature_id(end, (p.id & 0xff) as usize);
    }
    frame.finish(&manifold)
}
