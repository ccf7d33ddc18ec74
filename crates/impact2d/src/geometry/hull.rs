//! Convex hulls of point sets by quickhull, with welding and removal of collinear points.
//!
//! Source: quickhull as described by Ericson, Real-Time Collision Detection, 3.9.2 (and
//! Barber, Dobkin and Huhdanpaa, "The Quickhull Algorithm for Convex Hulls", 1996); welding
//! as in Ericson 12.1. The clean-up of nearly collinear points follows the idea of Box2D's
//! `b2ComputeHull`, with the flattest vertex removed first.
//!
//! The predicates run in f64 on coordinates taken relative to the lexicographically lowest
//! point. Differences of f32 inputs are then exact (or nearly so) and their cross products
//! keep every significant digit, so hulls far from the origin are as accurate as hulls at
//! it. The output points are input points, bit for bit.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use glam::DVec2;

use super::error::{GeometryError, check_point};
use crate::math::Vec2;
use crate::settings::{LINEAR_SLOP, MAX_POLYGON_VERTICES};

/// A convex hull: 3 to 8 points, counter-clockwise, no three collinear, no two closer than
/// the linear slop (meters).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hull {
    points: [Vec2; MAX_POLYGON_VERTICES],
    count: usize,
}

impl Hull {
    /// The hull's points, counter-clockwise.
    #[inline]
    pub fn points(&self) -> &[Vec2] {
        &self.points[..self.count]
    }
}

/// The convex hull of `points` (meters, any number, any order) by quickhull.
///
/// Points closer than [`LINEAR_SLOP`] count as one. The hull's vertices are input points,
/// counter-clockwise; a vertex within `LINEAR_SLOP` of the line through its two neighbors
/// is removed (the flattest first, until none is left), which also guarantees that no two
/// vertices are closer than `LINEAR_SLOP`. The result deviates from the exact hull by less
/// than about `LINEAR_SLOP`.
///
/// Degeneracy criterion: the hull is rejected as [`GeometryError::Collinear`] when fewer
/// than 3 vertices survive that clean-up, or when its thickness (smallest width over all
/// directions) is below `LINEAR_SLOP`.
///
/// Errors, checked in this order:
/// - [`GeometryError::NonFinite`] when a coordinate is NaN or infinite;
/// - [`GeometryError::TooLarge`] when a coordinate exceeds 1e9 m in magnitude;
/// - [`GeometryError::TooFewPoints`] when fewer than 3 points remain after welding points
///   closer than `LINEAR_SLOP` (greedily, in input order; `count` is that number, 0 to 2);
/// - [`GeometryError::Collinear`] for a degenerate hull, as above;
/// - [`GeometryError::TooManyVertices`] for more than [`MAX_POLYGON_VERTICES`] vertices.
///
/// Cost: O(n log n) expected, O(n h) worst case for h hull vertices. Never panics.
pub fn compute_hull(points: &[Vec2]) -> Result<Hull, GeometryError> {
    check_points(points)?;
    let distinct = count_distinct_up_to_three(points);
    if distinct < 3 {
        return Err(GeometryError::TooFewPoints { count: distinct });
    }
    let reference = lowest_point(points);
    let relative: Vec<DVec2> = points.iter().map(|&p| DVec2::from(p) - DVec2::from(reference)).collect();
    let ring = remove_collinear(&relative, quickhull(&relative));
    if ring.len() < 3 {
        return Err(GeometryError::Collinear);
    }
    if ring.len() > MAX_POLYGON_VERTICES {
        return Err(GeometryError::TooManyVertices { count: ring.len(), max: MAX_POLYGON_VERTICES });
    }
    if thickness(&relative, &ring) < f64::from(LINEAR_SLOP) {
        return Err(GeometryError::Collinear);
    }
    let mut hull = Hull { points: [Vec2::ZERO; MAX_POLYGON_VERTICES], count: ring.len() };
    for (out, &i) in hull.points.iter_mut().zip(&ring) {
        *out = points[i];
    }
    Ok(hull)
}

/// Every coordinate must be finite and within [`crate::settings::MAX_COORDINATE`].
fn check_points(points: &[Vec2]) -> Result<(), GeometryError> {
    points.iter().try_for_each(|&p| check_point(p, "hull point"))
}

/// How many points remain after greedy welding (a point joins the first kept point closer
/// than the linear slop), counting no further than 3: that is all the error needs, and it
/// keeps this O(n).
fn count_distinct_up_to_three(points: &[Vec2]) -> usize {
    let slop_sq = f64::from(LINEAR_SLOP) * f64::from(LINEAR_SLOP);
    let mut kept: [DVec2; 3] = [DVec2::ZERO; 3];
    let mut count = 0;
    for &p in points {
        let p = DVec2::from(p);
        if kept[..count].iter().all(|&k| (p - k).length_squared() >= slop_sq) {
            kept[count] = p;
            count += 1;
            if count == 3 {
                break;
            }
        }
    }
    count
}

/// The lexicographically smallest point (smallest x, then smallest y): always a hull vertex.
fn lowest_point(points: &[Vec2]) -> Vec2 {
    points.iter().copied().fold(points[0], |a, b| if (b.x, b.y) < (a.x, a.y) { b } else { a })
}

/// Twice the signed area of the triangle (a, b, p): positive when p is left of a → b.
#[inline]
fn orient(a: DVec2, b: DVec2, p: DVec2) -> f64 {
    (b - a).perp_dot(p - a)
}

/// The indices of the extreme points of `p` (at least 3 distinct points), counter-clockwise.
///
/// The lexicographic extremes `lo` and `hi` split the points into those right of lo → hi
/// (the lower chain) and those left of it (the upper chain); each chain is refined by
/// quickhull. Points on a hull edge are not extreme and are dropped.
fn quickhull(p: &[DVec2]) -> Vec<usize> {
    let key = |i: &usize| (p[*i].x, p[*i].y);
    let cmp = |a: &usize, b: &usize| key(a).partial_cmp(&key(b)).unwrap_or(Ordering::Equal);
    let lo = (0..p.len()).min_by(cmp).unwrap_or(0);
    let hi = (0..p.len()).max_by(cmp).unwrap_or(0);
    let (mut below, mut above) = (Vec::new(), Vec::new());
    for i in 0..p.len() {
        let side = orient(p[lo], p[hi], p[i]);
        if side < 0.0 {
            below.push(i);
        } else if side > 0.0 {
            above.push(i);
        }
    }
    let mut ring = vec![lo];
    hull_chain(p, lo, hi, below, &mut ring);
    ring.push(hi);
    hull_chain(p, hi, lo, above, &mut ring);
    ring
}

/// One pending step of [`hull_chain`].
enum Step {
    /// Find the hull vertices strictly between `a` and `b` among `candidates`, which all lie
    /// right of a → b.
    Chain { a: usize, b: usize, candidates: Vec<usize> },
    /// Append this vertex to the output.
    Emit(usize),
}

/// Appends, in order, the hull vertices strictly between `a` and `b` to `out`.
///
/// The farthest candidate right of a → b is a hull vertex; candidates inside the triangle
/// it forms with a and b are discarded and the two outer groups are refined the same way.
/// An explicit stack replaces recursion so that adversarial input cannot overflow the call
/// stack; every step removes its farthest point, so the loop terminates.
fn hull_chain(p: &[DVec2], a: usize, b: usize, candidates: Vec<usize>, out: &mut Vec<usize>) {
    let mut stack = vec![Step::Chain { a, b, candidates }];
    while let Some(step) = stack.pop() {
        let (a, b, candidates) = match step {
            Step::Emit(i) => {
                out.push(i);
                continue;
            }
            Step::Chain { a, b, candidates } => (a, b, candidates),
        };
        let Some(&far) =
            candidates.iter().min_by(|&&i, &&j| orient(p[a], p[b], p[i]).total_cmp(&orient(p[a], p[b], p[j])))
        else {
            continue;
        };
        let right_of = |s: usize, e: usize| -> Vec<usize> {
            candidates.iter().copied().filter(|&i| orient(p[s], p[e], p[i]) < 0.0).collect()
        };
        let (first, second) = (right_of(a, far), right_of(far, b));
        stack.push(Step::Chain { a: far, b, candidates: second });
        stack.push(Step::Emit(far));
        stack.push(Step::Chain { a, b: far, candidates: first });
    }
}

/// A vertex that may be removed, keyed by its distance to the line through its neighbors.
struct Flat {
    offset: f64,
    slot: usize,
    stamp: u32,
}

impl PartialEq for Flat {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Flat {}

impl PartialOrd for Flat {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Flat {
    /// Reversed so that `BinaryHeap` pops the flattest vertex first; ties by slot keep the
    /// result deterministic.
    fn cmp(&self, other: &Self) -> Ordering {
        other.offset.total_cmp(&self.offset).then(other.slot.cmp(&self.slot))
    }
}

/// Removes, flattest first, every vertex of the convex ring closer than the linear slop to
/// the line through its two neighbors, stopping at 2 vertices. Returns the survivors in
/// order.
///
/// Removing a vertex changes only its neighbors' offsets, so a heap with stamps for stale
/// entries makes this O(h log h). Two vertices closer than the slop always leave one of
/// them (or a vertex between them) within the slop of its neighbors' line, so the result
/// has no such pair either.
fn remove_collinear(p: &[DVec2], ring: Vec<usize>) -> Vec<usize> {
    let n = ring.len();
    let mut prev: Vec<usize> = (0..n).map(|k| (k + n - 1) % n).collect();
    let mut next: Vec<usize> = (0..n).map(|k| (k + 1) % n).collect();
    let mut stamp = vec![0u32; n];
    let mut removed = vec![false; n];
    let offset = |k: usize, prev: &[usize], next: &[usize]| {
        let (u, v, w) = (p[ring[prev[k]]], p[ring[k]], p[ring[next[k]]]);
        let base = (w - u).length();
        if base > 0.0 { orient(u, w, v).abs() / base } else { (v - u).length() }
    };
    let mut heap: BinaryHeap<Flat> =
        (0..n).map(|k| Flat { offset: offset(k, &prev, &next), slot: k, stamp: 0 }).collect();
    let mut alive = n;
    let slop = f64::from(LINEAR_SLOP);
    while alive > 2 {
        let Some(flat) = heap.pop() else { break };
        if removed[flat.slot] || flat.stamp != stamp[flat.slot] {
            continue;
        }
        if flat.offset >= slop {
            break;
        }
        let (k, before, after) = (flat.slot, prev[flat.slot], next[flat.slot]);
        removed[k] = true;
        alive -= 1;
        next[before] = after;
        prev[after] = before;
        for j in [before, after] {
            stamp[j] += 1;
            heap.push(Flat { offset: offset(j, &prev, &next), slot: j, stamp: stamp[j] });
        }
    }
    let Some(start) = (0..n).find(|&k| !removed[k]) else { return Vec::new() };
    let mut out = vec![ring[start]];
    let mut k = next[start];
    while k != start && out.len() < alive {
        out.push(ring[k]);
        k = next[k];
    }
    out
}

/// The smallest width of the convex ring over all directions: for a convex polygon it is
/// attained across an edge, so it is the least, over edges, of the farthest vertex's
/// distance from the edge's line.
fn thickness(p: &[DVec2], ring: &[usize]) -> f64 {
    let n = ring.len();
    (0..n)
        .map(|k| {
            let (a, b) = (p[ring[k]], p[ring[(k + 1) % n]]);
            let length = (b - a).length();
            let farthest = ring.iter().map(|&i| orient(a, b, p[i])).fold(0.0, f64::max);
            if length > 0.0 { farthest / length } else { 0.0 }
        })
        .fold(f64::INFINITY, f64::min)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f32, y: f32) -> Vec2 {
        Vec2::new(x, y)
    }

    fn is_ccw_convex(points: &[Vec2]) -> bool {
        let n = points.len();
        (0..n).all(|i| {
            let (a, b, c) = (points[i], points[(i + 1) % n], points[(i + 2) % n]);
            (b - a).perp_dot(c - b) > 0.0
        })
    }

    #[test]
    fn square_with_inner_and_edge_points() {
        let pts = [v(1.0, 1.0), v(0.0, 0.0), v(0.5, 0.5), v(1.0, 0.0), v(0.5, 0.0), v(0.0, 1.0), v(0.2, 0.9)];
        let hull = compute_hull(&pts).unwrap();
        assert_eq!(hull.points(), &[v(0.0, 0.0), v(1.0, 0.0), v(1.0, 1.0), v(0.0, 1.0)]);
    }

    #[test]
    fn order_does_not_matter() {
        let mut pts = vec![v(0.0, 0.0), v(2.0, -1.0), v(3.0, 1.0), v(1.0, 2.5), v(-1.0, 1.0), v(1.0, 0.5)];
        let first = compute_hull(&pts).unwrap();
        pts.reverse();
        let second = compute_hull(&pts).unwrap();
        assert_eq!(first, second);
        assert!(is_ccw_convex(first.points()));
    }

    #[test]
    fn welding_and_too_few_points() {
        assert_eq!(compute_hull(&[]), Err(GeometryError::TooFewPoints { count: 0 }));
        let clustered = [v(0.0, 0.0), v(0.001, 0.0), v(1.0, 0.0), v(1.0, 0.004), v(0.0, 0.002)];
        assert_eq!(compute_hull(&clustered), Err(GeometryError::TooFewPoints { count: 2 }));
        // A triangle whose corners are each a tight cluster is still that triangle.
        let blobs = [v(0.0, 0.0), v(0.001, 0.001), v(1.0, 0.0), v(1.002, 0.0), v(0.0, 1.0), v(0.0, 1.003)];
        assert_eq!(compute_hull(&blobs).unwrap().points().len(), 3);
    }

    #[test]
    fn collinear_and_nearly_collinear() {
        let line: Vec<Vec2> = (0..10).map(|i| v(i as f32, 2.0 * i as f32)).collect();
        assert_eq!(compute_hull(&line), Err(GeometryError::Collinear));
        // 4 mm off the line over 1 m: thinner than the slop.
        let sliver = [v(0.0, 0.0), v(1.0, 0.0), v(0.5, 0.004)];
        assert_eq!(compute_hull(&sliver), Err(GeometryError::Collinear));
        let thin_but_ok = [v(0.0, 0.0), v(1.0, 0.0), v(0.5, 0.02)];
        assert!(compute_hull(&thin_but_ok).is_ok());
    }

    #[test]
    fn nearly_collinear_vertex_is_removed() {
        let pts = [v(0.0, 0.0), v(1.0, -0.002), v(2.0, 0.0), v(2.0, 1.0), v(0.0, 1.0)];
        let hull = compute_hull(&pts).unwrap();
        assert_eq!(hull.points(), &[v(0.0, 0.0), v(2.0, 0.0), v(2.0, 1.0), v(0.0, 1.0)]);
    }

    #[test]
    fn too_many_vertices() {
        let circle: Vec<Vec2> = (0..12)
            .map(|i| {
                let a = i as f32 * std::f32::consts::TAU / 12.0;
                v(a.cos(), a.sin())
            })
            .collect();
        assert_eq!(compute_hull(&circle), Err(GeometryError::TooManyVertices { count: 12, max: 8 }));
        assert_eq!(compute_hull(&circle[..8]).unwrap().points().len(), 8);
    }

    #[test]
    fn far_from_the_origin() {
        let offset = v(5000.0, -5000.0);
        let local = [v(0.0, 0.0), v(0.05, 0.0), v(0.05, 0.05), v(0.0, 0.05), v(0.025, 0.025)];
        let pts: Vec<Vec2> = local.iter().map(|&p| p + offset).collect();
        let hull = compute_hull(&pts).unwrap();
        assert_eq!(hull.points().len(), 4);
        assert!(is_ccw_convex(hull.points()));
    }

    #[test]
    fn bad_numbers() {
        assert!(matches!(compute_hull(&[v(0.0, 0.0), v(1.0, f32::NAN)]), Err(GeometryError::NonFinite { .. })));
        assert!(matches!(compute_hull(&[v(0.0, f32::INFINITY)]), Err(GeometryError::NonFinite { .. })));
        let huge = [v(0.0, 0.0), v(1e30, 0.0), v(0.0, 1e30)];
        assert!(matches!(compute_hull(&huge), Err(GeometryError::TooLarge { .. })));
        let big = [v(0.0, 0.0), v(1e9, 0.0), v(0.0, 1e9)];
        assert_eq!(compute_hull(&big).unwrap().points().len(), 3);
    }
}
