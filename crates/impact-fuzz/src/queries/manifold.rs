//! `collide` (contact manifolds) against the f64 reference.

use super::case::Pair;
use super::{SPACINGS, finite};
use crate::reference::{D2, Pose, signed_distance};
use crate::tally::{Fault, Verdict};
use impact2d::settings::{MANIFOLD_REFERENCE_TOLERANCE, MANIFOLD_TOUCHING_GAP, SPECULATIVE_DISTANCE};
use impact2d::{Manifold, collide};

/// Angle (radians) within which a normal must match the exact separating direction, beyond
/// the round-off of the direction itself.
const ANGLE: f64 = 2.0e-3;

/// The manifold of the pair, as `tests/manifold_random.rs` checks it: empty exactly beyond
/// the speculative distance; the least point separation is the exact signed distance (the
/// reference face may be kept while the other is better by `MANIFOLD_REFERENCE_TOLERANCE`
/// when overlapping; cores closer than `MANIFOLD_TOUCHING_GAP` count as touching and get the
/// separating axis's lower bound, up to that gap off); a unit normal along the exact direction
/// for pairs a quarter of the speculative distance apart or more; each point's separation the
/// gap between the surfaces along the normal through it; anchors that match the points.
pub fn check_collide(pair: &Pair) -> Verdict {
    judge_collide(pair, &collide(&pair.a, pair.xf_a, &pair.b, pair.xf_b, SPECULATIVE_DISTANCE))
}

/// The verdict on `m`, a manifold of the pair (see [`check_collide`]).
pub fn judge_collide(pair: &Pair, m: &Manifold) -> Verdict {
    let fields: Vec<f32> = m
        .points()
        .iter()
        .flat_map(|p| [p.point.x, p.point.y, p.anchor_a.x, p.anchor_a.y, p.anchor_b.x, p.anchor_b.y, p.separation])
        .chain([m.normal.x, m.normal.y])
        .collect();
    if !finite(&fields) {
        return Verdict::fault(pair.tier, Fault::NonFinite, format!("collide: {m:?}"));
    }
    let tol = SPACINGS * pair.spacing();
    let (ra, rb) = pair.reference();
    let (pa, pb) = (Pose::from_f32(pair.xf_a), Pose::from_f32(pair.xf_b));
    let exact = signed_distance(&ra, &pa, &rb, &pb);
    let spec = SPECULATIVE_DISTANCE as f64;
    let fault = if m.count == 0 {
        (exact.sd <= spec - tol).then(|| format!("empty at exact distance {:e}", exact.sd))
    } else if exact.sd > spec + tol {
        Some(format!("points at exact distance {:e}, beyond the speculative distance", exact.sd))
    } else {
        check_points(pair, m, exact.sd, exact.normal, exact.core.sd, tol)
    };
    match fault {
        Some(f) => Verdict::fault(pair.tier, Fault::Wrong, format!("collide {m:?}: {f} (tolerance {tol:e})")),
        None => Verdict::clean(pair.tier),
    }
}

fn check_points(pair: &Pair, m: &Manifold, exact: f64, direction: D2, core_gap: f64, tol: f64) -> Option<String> {
    let n = D2::from_f32(m.normal);
    if (n.len() - 1.0).abs() > 1e-5 {
        return Some("normal not unit".to_owned());
    }
    let least = m.points().iter().map(|p| p.separation as f64).fold(f64::INFINITY, f64::min);
    // Cores closer than the touching gap are taken as touching (documented at
    // `MANIFOLD_TOUCHING_GAP`): the separation is then the separating axes' lower bound, with
    // A's face kept unless B's is better by the reference tolerance, as for overlapping
    // cores, and a point may sit up to that gap aside.
    let touching = exact > 0.0 && core_gap <= MANIFOLD_TOUCHING_GAP as f64 + tol;
    let tol = if touching { tol + MANIFOLD_TOUCHING_GAP as f64 } else { tol };
    let slack = if exact < 0.0 || touching { tol + MANIFOLD_REFERENCE_TOLERANCE as f64 } else { tol };
    if (least - exact).abs() > slack {
        return Some(format!("least separation {least:e}, exact {exact:e}"));
    }
    // The direction between cores `core_gap` apart is known to `tol / core_gap` radians.
    if exact >= 0.25 * SPECULATIVE_DISTANCE as f64 && core_gap > 0.0 {
        let angle = n.cross(direction).atan2(n.dot(direction)).abs();
        if angle > ANGLE + tol / core_gap {
            return Some(format!("normal {n:?}, exact direction {direction:?}: {angle:e} rad"));
        }
    }
    let (ra, rb) = pair.reference();
    let (ca, cb) = (ra.placed(&Pose::from_f32(pair.xf_a)), rb.placed(&Pose::from_f32(pair.xf_b)));
    for p in m.points() {
        let (point, half) = (D2::from_f32(p.point), 0.5 * p.separation as f64);
        let anchored = (D2::from_f32(p.point - pair.xf_a.p - p.anchor_a).len())
            .max(D2::from_f32(p.point - pair.xf_b.p - p.anchor_b).len());
        let on_a = crate::reference::point_core_distance(&ca, point - n * half) - ra.radius;
        let on_b = crate::reference::point_core_distance(&cb, point + n * half) - rb.radius;
        if anchored > tol.max(1e-4) || on_a.abs().max(on_b.abs()) > tol {
            return Some(format!("point {p:?}: witnesses off the surfaces by {on_a:e} (A), {on_b:e} (B)"));
        }
    }
    None
}
