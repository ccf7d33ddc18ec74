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
