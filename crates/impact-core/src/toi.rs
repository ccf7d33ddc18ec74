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

#[cfg(test)]
mod tests {
    use super::*;

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
