//! Time of impact by conservative advancement in 3D: rotation-safe by construction, slow near
//! misses; the reference the certified bilateral advancement (`toi.rs`) is compared with.
//!
//! Sources: Mirtich, "Impulse-based Dynamic Simulation of Rigid Body Systems", 1996, 2.3.2;
//! Catto, "Continuous Collision", GDC 2013 (the motion bound). Each step advances time by the
//! gap over the fastest the gap can shrink, so it never passes the first contact whatever
//! the shapes do in between (any number of turns); near misses take many steps.

use super::distance::{DistanceInput, DistanceOutput, SimplexCache, core_distance};
use super::error::QueryError;
use super::proxy::ShapeProxy;
use crate::math::{Sweep, Vec3};

/// Steps after which conservative advancement gives up with `Failed` (and the last safe time).
pub const CA_MAX_ITERATIONS: u32 = 1000;

use super::toi::{ToiOutput, ToiState, check_sweep};
use impact_core::toi::core_band;

/// The first time in [0, `t_max`] at which the gap between the surfaces of two moving shapes
/// (meters) comes within `tolerance` of `target`, by conservative advancement.
///
/// The gap shrinks at most as fast as the centers close plus each body's angular speed
/// (radians per step, the length of its sweep's rotation vector) times its core's reach from
/// its center of mass, so each advance of gap over that bound is safe. Positions are rebased
/// on A's start, so shapes far from the origin are searched as near it. A `Hit` at t has its
/// gap in `[target - tolerance, target + tolerance]` to the distance's precision, and no
/// contact before; `Separated` means the gap stays above `target - tolerance`; `Failed`
/// (after [`CA_MAX_ITERATIONS`] steps) returns the last safe time.
///
/// Errors: [`QueryError::NonFinite`] for a sweep that is not finite, whose `q1` is not a unit
/// quaternion, or whose centers are beyond
/// [`MAX_COORDINATE`](crate::settings::MAX_COORDINATE); [`QueryError::OutOfRange`]
/// unless `0 <= t_max <= 1`, `tolerance > 0` and `target + tolerance > -(radius_a + radius_b)`.
pub fn conservative_advancement(
    proxy_a: &ShapeProxy,
    sweep_a: &Sweep,
    proxy_b: &ShapeProxy,
    sweep_b: &Sweep,
    t_max: f32,
    target: f32,
    tolerance: f32,
) -> Result<ToiOutput, QueryError> {
    check_sweep(sweep_a, "sweep_a")?;
    check_sweep(sweep_b, "sweep_b")?;
    let radii = proxy_a.radius() + proxy_b.radius();
    // The band in core distances: the radii added to the surfaces' target.
    let (_, hi) = core_band(("t_max", t_max), target, tolerance, radii)?;
    let aim = target + radii;
    // Rebased on A's start: the offsets between the bodies keep their digits.
    let origin = sweep_a.c1;
    let rebase = |s: &Sweep| Sweep { c1: s.c1 - origin, c2: s.c2 - origin, ..*s };
    let (sa, sb) = (rebase(sweep_a), rebase(sweep_b));
    let reach = |p: &ShapeProxy, s: &Sweep| p.points().iter().fold(0.0f32, |m, v| m.max(v.distance(s.local_center)));
    let bound = ((sb.c2 - sb.c1) - (sa.c2 - sa.c1)).length()
        + sa.rotation.length() * reach(proxy_a, &sa)
        + sb.rotation.length() * reach(proxy_b, &sb);
    let mut cache = SimplexCache::default();
    let mut t = 0.0f32;
    for iteration in 1..=CA_MAX_ITERATIONS {
        let (xa, xb) = (sa.transform_at(t), sb.transform_at(t));
        let placed = DistanceInput { proxy_a, transform_a: xa, proxy_b, transform_b: xb };
        // The cores' distance: surfaces closer than the radii overlap.
        let d = core_distance(&placed, &mut cache)?;
        let cores_overlap = d.normal == Vec3::ZERO;
        if t == 0.0 && (d.distance < radii || cores_overlap) {
            return Ok(output(ToiState::Overlapped, 0.0, iteration, None, origin));
        }
        if d.distance <= hi || cores_overlap {
            return Ok(output(ToiState::Hit, t, iteration, Some((&d, proxy_a.radius(), proxy_b.radius())), origin));
        }
        // Aim at the target: the gap cannot fall below it by then.
        let next = if bound > 0.0 { t + (d.distance - aim) / bound } else { f32::INFINITY };
        if next >= t_max {
            return Ok(output(ToiState::Separated, t_max, iteration, None, origin));
        }
        if next <= t {
            return Ok(output(ToiState::Failed, t, iteration, None, origin));
        }
        t = next;
    }
    Ok(output(ToiState::Failed, t, CA_MAX_ITERATIONS, None, origin))
}

/// The output at `t`; at a hit, the point midway between the surfaces from the cores'
/// closest points (moved back from the rebased frame) and their normal.
fn output(
    state: ToiState,
    t: f32,
    iterations: u32,
    hit: Option<(&DistanceOutput, f32, f32)>,
    origin: Vec3,
) -> ToiOutput {
    let (point, normal) = match hit {
        Some((d, ra, rb)) => (0.5 * ((d.point_a + d.normal * ra) + (d.point_b - d.normal * rb)) + origin, d.normal),
        None => (origin, Vec3::ZERO),
    };
    ToiOutput { state, t, iterations, point, normal, ..ToiOutput::start() }
}
