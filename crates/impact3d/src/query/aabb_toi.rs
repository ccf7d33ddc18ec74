//! Time of impact between two translating AABBs by interval algebra.
//!
//! Source: the swept-AABB time of impact of Ericson, Real-Time Collision Detection, 5.5.8,
//! as dissected in "Time of Impact between two moving AABBs" (the reference's 3D code); the
//! per-axis interval algebra is shared with 2D (`impact_core::interval`).

use super::error::QueryError;
use crate::geometry::Aabb;
use crate::math::Vec3;

pub use impact_core::interval::{AabbToi, AabbToiState};

/// When do box `a` moving by `delta_a` and box `b` moving by `delta_b` (meters, over
/// t ∈ [0, 1]) first touch? Boxes are closed: touching counts.
///
/// Errors: [`QueryError::NonFinite`] when any input is NaN or infinite.
pub fn aabb_time_of_impact(a: &Aabb, delta_a: Vec3, b: &Aabb, delta_b: Vec3) -> Result<AabbToi, QueryError> {
    let finite = a.min.is_finite() && a.max.is_finite() && b.min.is_finite() && b.max.is_finite();
    if !finite || !delta_a.is_finite() || !delta_b.is_finite() {
        return Err(QueryError::NonFinite { what: "aabb time of impact input" });
    }
    if a.overlaps(b) {
        return Ok(AabbToi { state: AabbToiState::Overlapped, t: 0.0 });
    }
    let d = delta_b - delta_a;
    let bounds = |x: &Aabb| [[x.min.x, x.max.x], [x.min.y, x.max.y], [x.min.z, x.max.z]];
    Ok(match impact_core::interval::first_touch(bounds(a), bounds(b), d.to_array()) {
        Some(t) => AabbToi { state: AabbToiState::Hit, t },
        None => AabbToi { state: AabbToiState::Separated, t: 1.0 },
    })
}
