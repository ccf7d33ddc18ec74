//! `shape_distance`, `penetration` and `segment_distance` against the f64 reference.

use super::case::Pair;
use super::{SPACINGS, finite};
use crate::reference::{D2, Pose, RefShape, point_core_distance, sd_placed, segment_segment, signed_distance};
use crate::tally::{Fault, Verdict};
use impact2d::{
    DistanceInput, DistanceOutput, SimplexCache, Transform, Vec2, penetration, segment_distance, shape_distance,
};

/// The distance (meters): the exact distance of the f32 shapes to `SPACINGS` f32 spacings
/// of the largest coordinate met (shape_distance's documented precision), zero only within
/// that of touching, and the closest points on their surfaces, joined by distance × normal.
pub fn check_distance(pair: &Pair, cache: &mut SimplexCache) -> Verdict {
    let input = DistanceInput {
        proxy_a: &pair.proxy_a,
        transform_a: pair.xf_a,
        proxy_b: &pair.proxy_b,
        transform_b: pair.xf_b,
    };
    match shape_distance(&input, cache) {
        Ok(out) => judge_distance(pair, &out),
        Err(e) => Verdict::fault(pair.tier, Fault::Wrong, format!("shape_distance refused a valid pair: {e}")),
    }
}

/// The verdict on `out`, an answer of `shape_distance` for the pair (see [`check_distance`]).
pub fn judge_distance(pair: &Pair, out: &DistanceOutput) -> Verdict {
    if !finite(&[out.point_a.x, out.point_a.y, out.point_b.x, out.point_b.y, out.normal.x, out.normal.y, out.distance])
    {
        return Verdict::fault(pair.tier, Fault::NonFinite, format!("shape_distance: {out:?}"));
    }
    let tol = SPACINGS * pair.spacing();
    let (ra, rb) = pair.reference();
    let (ca, cb) = (ra.placed(&Pose::from_f32(pair.xf_a)), rb.placed(&Pose::from_f32(pair.xf_b)));
    let exact = sd_placed(&ca, ra.radius, &cb, rb.radius).sd;
    let d = out.distance as f64;
    let error = (d - exact.max(0.0)).abs();
    if error > tol {
        let m = format!("shape_distance {d:e}, exact {exact:e} (tolerance {tol:e})");
        return Verdict::fault(pair.tier, Fault::Wrong, m);
    }
    if d > 0.0 {
        let (qa, qb, n) = (D2::from_f32(out.point_a), D2::from_f32(out.point_b), D2::from_f32(out.normal));
        let on_a = (point_core_distance(&ca, qa) - ra.radius).abs();
        let on_b = (point_core_distance(&cb, qb) - rb.radius).abs();
        let joined = ((qb - qa) - n * d).len();
        if (n.len() - 1.0).abs() > 1e-5 || on_a.max(on_b).max(joined) > tol {
            let m = format!(
                "shape_distance {out:?}: points off their surfaces by {on_a:e}, {on_b:e}; joined to {joined:e}"
            );
            return Verdict::fault(pair.tier, Fault::Wrong, m);
        }
    }
    Verdict::clean(pair.tier)
}

/// The penetration: `Some` exactly for shapes overlapping by more than the tolerance, `None`
/// for shapes apart by more than it; the depth is the exact one, the normal unit, and moving
/// B by depth × normal leaves the shapes touching.
pub fn check_penetration(pair: &Pair) -> Verdict {
    let input = DistanceInput {
        proxy_a: &pair.proxy_a,
        transform_a: pair.xf_a,
        proxy_b: &pair.proxy_b,
        transform_b: pair.xf_b,
    };
    let out = match penetration(&input) {
        Ok(out) => out,
        Err(e) => return Verdict::fault(pair.tier, Fault::Wrong, format!("penetration refused a valid pair: {e}")),
    };
    let tol = SPACINGS * pair.spacing();
    let (ra, rb) = pair.reference();
    let exact = signed_distance(&ra, &Pose::from_f32(pair.xf_a), &rb, &Pose::from_f32(pair.xf_b)).sd;
    let Some(p) = out else {
        if exact < -tol {
            return Verdict::fault(pair.tier, Fault::Wrong, format!("penetration None, exact depth {:e}", -exact));
        }
        return Verdict::clean(pair.tier);
    };
    if !finite(&[p.depth, p.normal.x, p.normal.y, p.point_a.x, p.point_a.y, p.point_b.x, p.point_b.y]) {
        return Verdict::fault(pair.tier, Fault::NonFinite, format!("penetration: {p:?}"));
    }
    if exact > tol {
        return Verdict::fault(pair.tier, Fault::Wrong, format!("penetration {p:?} for shapes {exact:e} apart"));
    }
    let depth_error = (p.depth as f64 + exact).abs();
    let n = D2::from_f32(p.normal);
    // B moved out along the normal by the depth: touching, to the tolerance (the depth is
    // the least such translation, so any direction less good would leave an overlap).
    let moved = Transform { p: pair.xf_b.p + p.normal * p.depth, q: pair.xf_b.q };
    let after = signed_distance(&ra, &Pose::from_f32(pair.xf_a), &rb, &Pose::from_f32(moved)).sd;
    let tol_moved = tol + SPACINGS * f32::EPSILON as f64 * p.depth as f64;
    if depth_error > tol || (n.len() - 1.0).abs() > 1e-5 || after.abs() > tol_moved {
        let m = format!(
            "penetration {p:?}: exact depth {:e}, after moving B out the gap is {after:e} (tolerance {tol:e})",
            -exact
        );
        return Verdict::fault(pair.tier, Fault::Wrong, m);
    }
    Verdict::clean(pair.tier)
}

/// The distance between two segments (the pair's cores when both are segments or capsules,
/// else each shape's first two core points) against the exact f64 segment distance.
pub fn check_segment_distance(pair: &Pair) -> Verdict {
    let ends = |proxy: &impact2d::ShapeProxy, xf: Transform| -> (Vec2, Vec2) {
        let pts = proxy.points();
        let p = xf.apply(pts[0]);
        (p, pts.get(1).map_or(p, |&q| xf.apply(q)))
    };
    let (p1, q1) = ends(&pair.proxy_a, pair.xf_a);
    let (p2, q2) = ends(&pair.proxy_b, pair.xf_b);
    let out = match segment_distance(p1, q1, p2, q2) {
        Ok(out) => out,
        Err(e) => return Verdict::fault(pair.tier, Fault::Wrong, format!("segment_distance refused: {e}")),
    };
    let fields = [out.closest1.x, out.closest1.y, out.closest2.x, out.closest2.y, out.fraction1, out.fraction2];
    if !finite(&fields) || !out.distance_squared.is_finite() {
        return Verdict::fault(pair.tier, Fault::NonFinite, format!("segment_distance: {out:?}"));
    }
    let [p1, q1, p2, q2] = [p1, q1, p2, q2].map(D2::from_f32);
    let (exact, _, _) = segment_segment(p1, q1, p2, q2);
    let scale = [p1, q1, p2, q2].iter().fold(0.0f64, |m, p| m.max(p.len())) + p1.dist(q1) + p2.dist(q2);
    let tol = SPACINGS * f32::EPSILON as f64 * scale;
    let d = (out.distance_squared as f64).sqrt();
    let (c1, c2) = (D2::from_f32(out.closest1), D2::from_f32(out.closest2));
    let on_1 = point_core_distance(&RefShape::new(&[p1, q1], 0.0).placed(&Pose::new(D2::default(), 0.0)), c1);
    let on_2 = point_core_distance(&RefShape::new(&[p2, q2], 0.0).placed(&Pose::new(D2::default(), 0.0)), c2);
    // The squared distance is reported in f32: its square root carries the round-off of the
    // closest points, and squaring a tiny distance may underflow to zero.
    if (d - exact).abs() > tol || on_1 > tol || on_2 > tol || (c1.dist(c2) - exact).abs() > tol {
        let m = format!("segment_distance {out:?}: exact {exact:e}, points off their segments by {on_1:e}, {on_2:e}");
        return Verdict::fault(pair.tier, Fault::Wrong, m);
    }
    Verdict::clean(pair.tier)
}
