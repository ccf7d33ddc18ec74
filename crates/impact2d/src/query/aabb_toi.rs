//! Time of impact between two translating AABBs by interval algebra.
//!
//! Source: the swept-AABB time of impact of Ericson, Real-Time Collision Detection, 5.5.8,
//! as dissected in "Time of Impact between two moving AABBs" (the interval form used here
//! handles zero displacement on an axis).

use super::error::QueryError;
use crate::geometry::Aabb;
use crate::math::Vec2;

pub use impact_core::interval::{AabbToi, AabbToiState};

/// When do box `a` moving by `delta_a` and box `b` moving by `delta_b` (meters, over
/// t ∈ [0, 1]) first touch? Boxes are closed: touching counts.
///
/// Per axis, the times during which the projections overlap form an interval (all of time
/// when the relative displacement on that axis is zero and the projections overlap, none
/// when they don't); the boxes touch during the intersection of the two intervals
/// (`impact_core::interval::first_touch`).
///
/// Errors: [`QueryError::NonFinite`] when any input is NaN or infinite.
pub fn aabb_time_of_impact(a: &Aabb, delta_a: Vec2, b: &Aabb, delta_b: Vec2) -> Result<AabbToi, QueryError> {
    let finite = a.lower.is_finite() && a.upper.is_finite() && b.lower.is_finite() && b.upper.is_finite();
    if !finite || !delta_a.is_finite() || !delta_b.is_finite() {
        return Err(QueryError::NonFinite { what: "aabb time of impact input" });
    }
    if a.overlaps(b) {
        return Ok(AabbToi { state: AabbToiState::Overlapped, t: 0.0 });
    }
    // B's motion relative to A, through the dimension-free interval algebra.
    let d = delta_b - delta_a;
    let bounds = |x: &Aabb| [[x.lower.x, x.upper.x], [x.lower.y, x.upper.y]];
    Ok(match impact_core::interval::first_touch(bounds(a), bounds(b), [d.x, d.y]) {
        Some(t) => AabbToi { state: AabbToiState::Hit, t },
        None => AabbToi { state: AabbToiState::Separated, t: 1.0 },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boxed(x: f32, y: f32, hw: f32, hh: f32) -> Aabb {
        Aabb::new(Vec2::new(x - hw, y - hh), Vec2::new(x + hw, y + hh))
    }

    #[test]
    fn head_on_hit() {
        let a = boxed(0.0, 0.0, 1.0, 1.0);
        let b = boxed(5.0, 0.0, 1.0, 1.0);
        let r = aabb_time_of_impact(&a, Vec2::ZERO, &b, Vec2::new(-6.0, 0.0)).unwrap();
        assert_eq!(r.state, AabbToiState::Hit);
        assert!((r.t - 0.5).abs() < 1e-6);
        // Both moving towards each other: relative displacement is what counts.
        let r = aabb_time_of_impact(&a, Vec2::new(1.5, 0.0), &b, Vec2::new(-1.5, 0.0)).unwrap();
        assert!((r.t - 1.0).abs() < 1e-6 && r.state == AabbToiState::Hit);
    }

    #[test]
    fn zero_displacement_axis() {
        let a = boxed(0.0, 0.0, 1.0, 1.0);
        // Same height band, moving only in x: hits.
        let b = boxed(4.0, 1.5, 1.0, 1.0);
        let r = aabb_time_of_impact(&a, Vec2::ZERO, &b, Vec2::new(-4.0, 0.0)).unwrap();
        assert_eq!(r.state, AabbToiState::Hit);
        assert!((r.t - 0.5).abs() < 1e-6);
        // Out of the band on the still axis: never touches.
        let c = boxed(4.0, 3.5, 1.0, 1.0);
        let r = aabb_time_of_impact(&a, Vec2::ZERO, &c, Vec2::new(-8.0, 0.0)).unwrap();
        assert_eq!(r.state, AabbToiState::Separated);
    }

    #[test]
    fn touching_overlapped_and_missing() {
        let a = boxed(0.0, 0.0, 1.0, 1.0);
        let touching = boxed(2.0, 0.0, 1.0, 1.0);
        assert_eq!(aabb_time_of_impact(&a, Vec2::ZERO, &touching, Vec2::X).unwrap().state, AabbToiState::Overlapped);
        // Reaches A exactly at t = 1.
        let b = boxed(4.0, 0.0, 1.0, 1.0);
        let r = aabb_time_of_impact(&a, Vec2::ZERO, &b, Vec2::new(-2.0, 0.0)).unwrap();
        assert_eq!((r.state, r.t), (AabbToiState::Hit, 1.0));
        // Falls short.
        let r = aabb_time_of_impact(&a, Vec2::ZERO, &b, Vec2::new(-1.9, 0.0)).unwrap();
        assert_eq!(r.state, AabbToiState::Separated);
        // Moving away.
        let r = aabb_time_of_impact(&a, Vec2::ZERO, &b, Vec2::new(3.0, 0.0)).unwrap();
        assert_eq!(r.state, AabbToiState::Separated);
        // Diagonal pass that clears the corner: x overlap starts after y overlap ends.
        let c = boxed(3.5, -3.0, 0.5, 0.5);
        let r = aabb_time_of_impact(&a, Vec2::ZERO, &c, Vec2::new(-2.0, 6.0)).unwrap();
        assert_eq!(r.state, AabbToiState::Separated);
    }

    #[test]
    fn non_finite_is_an_error() {
        let a = boxed(0.0, 0.0, 1.0, 1.0);
        assert!(aabb_time_of_impact(&a, Vec2::new(f32::NAN, 0.0), &a, Vec2::ZERO).is_err());
        let inf = Aabb::new(Vec2::splat(f32::NEG_INFINITY), Vec2::ZERO);
        assert!(aabb_time_of_impact(&a, Vec2::ZERO, &inf, Vec2::ZERO).is_err());
    }
}
