//! Shared helpers of the manifold tests: shape makers, the f64 reference of a placed shape,
//! and the checks of a manifold against the reference.

#![allow(dead_code)]

pub mod reference;

use impact2d::settings::SPECULATIVE_DISTANCE;
use impact2d::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use reference::*;

pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

pub fn uni(rng: &mut ChaCha8Rng, lo: f32, hi: f32) -> f32 {
    rng.random_range(lo..hi)
}

pub fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

pub fn xf(x: f32, y: f32, angle: f32) -> Transform {
    Transform::new(Vec2::new(x, y), angle)
}

pub fn boxed(hw: f32, hh: f32) -> Shape {
    Shape::Polygon(make_box(hw, hh).unwrap())
}

pub fn rounded_box(hw: f32, hh: f32, r: f32) -> Shape {
    Shape::Polygon(make_rounded_box(hw, hh, r).unwrap())
}

pub fn circle(r: f32) -> Shape {
    Shape::Circle(Circle::new(Vec2::ZERO, r).unwrap())
}

pub fn capsule(p1: Vec2, p2: Vec2, r: f32) -> Shape {
    Shape::Capsule(Capsule::new(p1, p2, r).unwrap())
}

pub fn segment(p1: Vec2, p2: Vec2) -> Shape {
    Shape::Segment(Segment::new(p1, p2).unwrap())
}

/// The f64 reference of `shape` placed by `xf` (the transform's own f32 numbers, exactly).
pub fn reference_shape(shape: &Shape, xf: Transform) -> RefShape {
    let place = |p: Vec2| {
        let (c, s) = (xf.q.c as f64, xf.q.s as f64);
        let (x, y) = (p.x as f64, p.y as f64);
        d2(c * x - s * y + xf.p.x as f64, s * x + c * y + xf.p.y as f64)
    };
    let (core, radius): (Vec<Vec2>, f32) = match shape {
        Shape::Circle(c) => (vec![c.center()], c.radius()),
        Shape::Capsule(c) => (vec![c.center1(), c.center2()], c.radius()),
        Shape::Polygon(p) => (p.vertices().to_vec(), p.radius()),
        Shape::Segment(s) => (vec![s.point1(), s.point2()], 0.0),
        Shape::ChainSegment(c) => (vec![c.segment().point1(), c.segment().point2()], 0.0),
    };
    RefShape { core: core.into_iter().map(place).collect(), radius: radius as f64 }
}

pub fn to_d2(p: Vec2) -> D2 {
    d2(p.x as f64, p.y as f64)
}

/// A rough bounding radius of a shape about its body origin (meters).
pub fn bounding_radius(shape: &Shape) -> f32 {
    let aabb = shape.aabb(Transform::IDENTITY);
    aabb.lower.length().max(aabb.upper.length()).max(aabb.lower.abs().max(aabb.upper.abs()).length())
}

/// Places B at angle `angle_b`, along direction `dir` from A's origin, at the distance
/// where the exact signed distance is `target` (bisection: the signed distance of convex
/// shapes is convex along a line of translations; 32 halvings reach f32 precision, and the
/// checks use the exact distance of the final placement). `None` when the target is deeper
/// than the overlap with the origins on top of each other.
pub fn place_at_gap(a: &Shape, xf_a: Transform, b: &Shape, angle_b: f32, dir: Vec2, target: f64) -> Option<Transform> {
    let ra = reference_shape(a, xf_a);
    let at = |t: f32| Transform::new(xf_a.p + dir * t, angle_b);
    let f = |t: f32| signed_distance(&ra, &reference_shape(b, at(t))).0;
    let (mut lo, mut hi) = (0.0f32, bounding_radius(a) + bounding_radius(b) + 1.0);
    if f(lo) > target || f(hi) < target {
        return None;
    }
    for _ in 0..32 {
        let mid = 0.5 * (lo + hi);
        if f(mid) < target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(at(0.5 * (lo + hi)))
}

/// The worst errors of manifolds against the reference.
#[derive(Default, Debug, Clone, Copy)]
pub struct Worst {
    /// |min separation − exact signed distance| (m).
    pub distance: f64,
    /// Normal angle error (rad) for pairs apart by at least `CLEAR`.
    pub normal: f64,
    /// Distance of a point's witnesses `point ∓ separation / 2 · normal` to the surfaces of
    /// A and B (m): how far the separation is from the gap along the normal through it.
    pub point_gap: f64,
    /// Pairs checked, pairs within the speculative distance, points checked.
    pub pairs: usize,
    pub near: usize,
    pub points: usize,
    /// Manifolds with two points.
    pub two_points: usize,
}

/// Pairs apart by at least this much (meters) get their normal checked against the exact
/// separating direction.
pub const CLEAR: f64 = 0.25 * SPECULATIVE_DISTANCE as f64;

/// Checks `m` (the manifold of A and B) against the reference; returns a failure message.
///
/// * `tol_distance`: the manifold's least separation equals the exact signed distance when
///   the shapes are within the speculative distance; empty beyond it (meters).
/// * `tol_angle`: the normal matches the exact direction when apart by at least [`CLEAR`].
/// * `tol_point`: each point's separation is the gap between the surfaces along the normal
///   through it: its witnesses `point ∓ separation / 2 · normal` lie on A's and B's surfaces.
#[allow(clippy::too_many_arguments)]
pub fn check(
    a: &Shape,
    xf_a: Transform,
    b: &Shape,
    xf_b: Transform,
    m: &Manifold,
    tol_distance: f64,
    tol_angle: f64,
    tol_point: f64,
    worst: &mut Worst,
) -> Result<(), String> {
    let (ra, rb) = (reference_shape(a, xf_a), reference_shape(b, xf_b));
    let (exact, direction) = signed_distance(&ra, &rb);
    let spec = SPECULATIVE_DISTANCE as f64;
    worst.pairs += 1;
    if m.count == 0 {
        // Empty only when farther than the speculative distance (up to the tolerance).
        return if exact > spec - tol_distance {
            Ok(())
        } else {
            Err(format!("empty manifold at exact distance {exact:e}"))
        };
    }
    if exact > spec + tol_distance {
        return Err(format!("{} points at exact distance {exact:e} > speculative", m.count));
    }
    worst.near += 1;
    if m.count == 2 {
        worst.two_points += 1;
    }
    let n = m.normal;
    if (n.length() - 1.0).abs() >= 1e-5 || !n.is_finite() {
        return Err(format!("normal {n:?} not unit"));
    }
    let min = m.points().iter().map(|p| p.separation as f64).fold(f64::INFINITY, f64::min);
    let err = (min - exact).abs();
    worst.distance = worst.distance.max(err);
    if err > tol_distance {
        return Err(format!("min separation {min:e} vs exact {exact:e} (error {err:e})"));
    }
    if exact >= CLEAR
        && let Some(dir) = direction
    {
        let angle = to_d2(n).cross(dir).atan2(to_d2(n).dot(dir)).abs();
        worst.normal = worst.normal.max(angle);
        if angle > tol_angle {
            return Err(format!("normal {n:?} vs exact {dir:?}: {angle:e} rad"));
        }
    }
    for p in m.points() {
        if (p.point - xf_a.p - p.anchor_a).length() > 1e-4 || (p.point - xf_b.p - p.anchor_b).length() > 1e-4 {
            return Err(format!("anchors do not match the point: {p:?}"));
        }
        worst.points += 1;
        // The witnesses: where the normal through the point meets each surface.
        let half = 0.5 * p.separation as f64;
        let (wa, wb) = (to_d2(p.point) - to_d2(n) * half, to_d2(p.point) + to_d2(n) * half);
        let e = point_distance(&ra, wa).abs().max(point_distance(&rb, wb).abs());
        worst.point_gap = worst.point_gap.max(e);
        if e > tol_point {
            return Err(format!(
                "point {p:?}: witnesses off the surfaces by {:e} (A) and {:e} (B)",
                point_distance(&ra, wa),
                point_distance(&rb, wb)
            ));
        }
    }
    Ok(())
}
