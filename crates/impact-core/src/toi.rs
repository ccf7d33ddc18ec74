//! What a time of impact query can find, and the band it stops in, in 2D and in 3D.

use crate::QueryError;

/// How a time of impact query ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToiState {
    /// The gap reaches the target band at `t`, and was never below it before.
    Hit,
    /// The gap stays above the target band over [0, t_max].
    Separated,
    /// The shapes overlap (gap below zero) at t = 0.
    Overlapped,
    /// The iteration budget ran out; `t` is the last time known to be safe.
    Failed,
}

/// The band of core distances (meters) in which a cast or a time of impact stops, from its
/// parameters: `target ± tolerance` on the surfaces, plus the radii `radii` (meters) of the
/// two shapes. `end` is the name and value of the search's end (`t_max` or `max_fraction`).
/// Returns `(lo, hi)`; `lo` may be negative (a band reaching below the radii).
///
/// Errors: [`QueryError::NonFinite`] for a non-finite parameter; [`QueryError::OutOfRange`]
/// unless the end is in [0, 1], `tolerance > 0` and `target + tolerance > -radii` (the band
/// reaches positive core distances).
pub fn core_band(
    (end_name, end): (&'static str, f32),
    target: f32,
    tolerance: f32,
    radii: f32,
) -> Result<(f32, f32), QueryError> {
    for (what, value) in [(end_name, end), ("target", target), ("tolerance", tolerance)] {
        if !value.is_finite() {
            return Err(QueryError::NonFinite { what });
        }
    }
    if !(0.0..=1.0).contains(&end) {
        return Err(QueryError::OutOfRange { what: end_name, requirement: "in [0, 1]", value: end });
    }
    if tolerance <= 0.0 {
        return Err(QueryError::OutOfRange { what: "tolerance", requirement: "positive", value: tolerance });
    }
    let hi = target + tolerance + radii;
    if hi <= 0.0 {
        let requirement = "greater than -(radius_a + radius_b + tolerance)";
        return Err(QueryError::OutOfRange { what: "target", requirement, value: target });
    }
    Ok((target - tolerance + radii, hi))
}

/// The band of a time of impact in core distances (meters, the radii added back): a hit
/// lands in `[floor, hi]`, and the gap must never drop below `lo`. Root finding aims at
/// `aim`, the upper part of the band, within `aim_tolerance`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Band {
    /// The lowest core distance allowed before a hit (may be negative).
    pub lo: f32,
    /// The band's bottom within reach of GJK, which cannot see below zero.
    pub floor: f32,
    /// The core distance at or below which the query hits.
    pub hi: f32,
    /// Where root finding aims, and how far from it it may stop.
    pub aim: f32,
    /// Half-width of the aim.
    pub aim_tolerance: f32,
}

impl Band {
    /// The band of a time of impact over `[0, t_max]` stopping at the surface gap `target ±
    /// tolerance` (meters) between shapes whose radii add to `radii` (meters).
    ///
    /// Errors: those of [`core_band`] (with `t_max` as the end).
    pub fn new(t_max: f32, target: f32, tolerance: f32, radii: f32) -> Result<Band, QueryError> {
        let (lo, hi) = core_band(("t_max", t_max), target, tolerance, radii)?;
        let floor = lo.max(0.0);
        Ok(Band { lo, floor, hi, aim: floor + 0.75 * (hi - floor), aim_tolerance: 0.25 * (hi - floor) })
    }
}

/// Consecutive halvings of one step of a certified time of impact after which a glancing
/// contact may be skipped.
pub const RELAX_AFTER_HALVINGS: u32 = 12;
/// How many times the rotation certificate may halve an interval before the step itself is
/// halved.
pub const CERTIFY_DEPTH: u32 = 4;
/// Halvings allowed in one time of impact query before it gives up with `Failed`.
pub const MAX_SUBDIVISIONS: u32 = 256;
/// Root-finder iterations allowed in one time of impact query before it gives up with
/// `Failed`, so that a hopeless sweep (thousands of turns per step) costs a bounded amount.
pub const MAX_TOTAL_ROOT_ITERATIONS: u32 = 1000;

/// The least value over s ∈ [0, 1] of `y0 + (y1 - y0) s - k s (1 - s)` (k ≥ 0): the floor
/// of a function through y0 and y1 whose second derivative is at least -2k (the rotation
/// certificate's bound of a turning point's projection, in 2D and 3D).
#[inline]
pub fn chord_min(y0: f32, y1: f32, k: f32) -> f32 {
    let rise = y1 - y0;
    if rise.abs() < k {
        let lack = k - rise;
        y0 - lack * lack / (4.0 * k)
    } else if y0 < y1 {
        y0
    } else {
        y1
    }
}

/// The first time t > 0 at which a point moving from `p0` by `v` per unit time comes within
/// `contact` of the origin (`|p0 + t v| = contact`, meters), for a point that starts outside
/// (`distance = |p0| > contact`): the analytic time of impact of two translating circles or
/// spheres, whose offset is `p0` and relative displacement `v`. Takes the dimension's
/// quantities `half_b = p0 · v` and `miss = |p0 × v|` (the perpendicular part), with
/// `reach = contact |v|`. `None` when the point moves away or passes wide.
///
/// Source: the quadratic of the collision-detection tutorial in shared references
/// ("Continuous Collision Detection"), solved without cancellation as in Press et al.,
/// Numerical Recipes, 5.6: the quarter discriminant `half_b² - |v|² (|p0|² - contact²)` is, by
/// Lagrange's identity, `(reach - miss)(reach + miss)`, and the smaller root is taken as
/// `c / q` with `q = -half_b + sqrt(discriminant)`.
pub fn closing_time(distance: f32, contact: f32, half_b: f32, reach: f32, miss: f32) -> Option<f32> {
    let c = (distance - contact) * (distance + contact);
    let discriminant = (reach - miss) * (reach + miss);
    if half_b >= 0.0 || discriminant < 0.0 {
        return None;
    }
    Some(c / (discriminant.sqrt() - half_b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chord_min_is_the_parabola_minimum() {
        assert_eq!(chord_min(1.0, 2.0, 0.0), 1.0);
        // Symmetric: minimum at s = 1/2, k/4 below the chord.
        assert!((chord_min(1.0, 1.0, 2.0) - 0.5).abs() < 1e-6);
        // Steep chord: the end is the minimum.
        assert_eq!(chord_min(3.0, 0.0, 1.0), 0.0);
    }

    #[test]
    fn closing_time_solves_the_quadratic() {
        // From (10, 0) towards the origin at 10 per unit: within 2 at t = 0.8.
        assert_eq!(closing_time(10.0, 2.0, -100.0, 20.0, 0.0), Some(0.8));
        // Moving away, or passing 3 wide of a contact radius of 2: no time.
        assert_eq!(closing_time(10.0, 2.0, 100.0, 20.0, 0.0), None);
        assert_eq!(closing_time(10.0, 2.0, -50.0, 20.0, 30.0), None);
    }

    #[test]
    fn the_band_adds_the_radii_and_refuses_what_cannot_stop() {
        assert_eq!(core_band(("t_max", 1.0), 0.25, 0.125, 0.5), Ok((0.625, 0.875)));
        // A band reaching below the radii is fine while it reaches positive core distances.
        assert_eq!(core_band(("t_max", 0.5), -0.375, 0.125, 0.5), Ok((0.0, 0.25)));
        let refused =
            |end: f32, target: f32, tolerance: f32| core_band(("t_max", end), target, tolerance, 0.5).is_err();
        assert!(refused(1.5, 0.0, 0.1) && refused(-0.1, 0.0, 0.1) && refused(f32::NAN, 0.0, 0.1));
        assert!(refused(1.0, 0.0, 0.0) && refused(1.0, f32::INFINITY, 0.1) && refused(1.0, -0.6, 0.1));
        assert!(matches!(
            core_band(("max_fraction", 2.0), 0.0, 0.1, 0.0),
            Err(QueryError::OutOfRange { what: "max_fraction", .. })
        ));
    }
}
