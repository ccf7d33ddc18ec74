//! Analytic time of impact of two translating circles.
//!
//! Source: the quadratic of the collision-detection tutorial in shared references
//! ("Continuous Collision Detection": |x_b(t) - x_a(t)| = r_a + r_b), solved in the
//! cancellation-free form of Press et al., Numerical Recipes, 5.6
//! ([`impact_core::toi::closing_time`], shared with the 3D spheres).

use super::error::QueryError;
use super::toi::{ToiOutput, ToiState};
use crate::math::Vec2;
use impact_core::toi::closing_time;

/// A circle whose center moves in a straight line over normalized time t ∈ [0, 1].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MovingCircle {
    /// Center at t = 0 (meters, world).
    pub center1: Vec2,
    /// Center at t = 1 (meters, world).
    pub center2: Vec2,
    /// Radius (meters, zero or positive).
    pub radius: f32,
}

/// The first time in [0, `t_max`] at which the gap between two translating circles is
/// exactly `target` (meters), in closed form: `|p0 + t v| = r_a + r_b + target` with `p0`
/// the initial offset and `v` the relative displacement.
///
/// States as in [`time_of_impact`](super::time_of_impact): `Overlapped` when the circles
/// overlap at t = 0, `Hit` at 0 when the gap starts within `target`, otherwise `Hit` at
/// the root or `Separated`. `iterations` is 0.
///
/// Errors: [`QueryError::NonFinite`] for non-finite input; [`QueryError::OutOfRange`] for
/// a coordinate or radius beyond [`crate::settings::MAX_COORDINATE`], a negative radius,
/// `t_max` outside [0, 1], or `target <= -(r_a + r_b)`.
pub fn circle_time_of_impact(
    a: &MovingCircle,
    b: &MovingCircle,
    t_max: f32,
    target: f32,
) -> Result<ToiOutput, QueryError> {
    validate(a, b, t_max, target)?;
    // Relative to A's start, for precision far from the origin.
    let origin = a.center1;
    let p0 = b.center1 - origin;
    let v = (b.center2 - b.center1) - (a.center2 - a.center1);
    let radius = a.radius + b.radius;
    let contact = radius + target;
    let out = ToiOutput::start();
    let distance = p0.length();
    if distance < radius {
        return Ok(out.ended(ToiState::Overlapped, 0.0));
    }
    let hit = |t: f32| {
        let center_a = a.center1 + t * (a.center2 - a.center1) - origin;
        let offset = p0 + t * v;
        let normal = offset.normalize_or_zero();
        let mut out = out.ended(ToiState::Hit, t);
        out.normal = normal;
        out.point = origin + center_a + (a.radius + 0.5 * (offset.length() - radius)) * normal;
        out
    };
    if distance <= contact {
        return Ok(hit(0.0));
    }
    // |p0 + t v| = contact, in closed form (the perpendicular part of v is p0 ⟂ v).
    let Some(t) = closing_time(distance, contact, p0.dot(v), contact * v.length(), p0.perp_dot(v).abs()) else {
        return Ok(out.ended(ToiState::Separated, t_max));
    };
    if t > t_max { Ok(out.ended(ToiState::Separated, t_max)) } else { Ok(hit(t)) }
}

fn validate(a: &MovingCircle, b: &MovingCircle, t_max: f32, target: f32) -> Result<(), QueryError> {
    let max = crate::settings::MAX_COORDINATE;
    for (what, c) in [("circle a", a), ("circle b", b)] {
        if !(c.center1.is_finite() && c.center2.is_finite() && c.radius.is_finite()) {
            return Err(QueryError::NonFinite { what });
        }
        let largest = c.center1.abs().max_element().max(c.center2.abs().max_element()).max(c.radius);
        if largest > max {
            return Err(QueryError::OutOfRange {
                what,
                requirement: "coordinates within MAX_COORDINATE",
                value: largest,
            });
        }
        if c.radius < 0.0 {
            return Err(QueryError::OutOfRange { what, requirement: "a radius zero or positive", value: c.radius });
        }
    }
    if !t_max.is_finite() || !target.is_finite() {
        return Err(QueryError::NonFinite { what: "t_max or target" });
    }
    if !(0.0..=1.0).contains(&t_max) {
        return Err(QueryError::OutOfRange { what: "t_max", requirement: "in [0, 1]", value: t_max });
    }
    if target <= -(a.radius + b.radius) {
        return Err(QueryError::OutOfRange { what: "target", requirement: "greater than -(r_a + r_b)", value: target });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn circle(c1: Vec2, c2: Vec2, radius: f32) -> MovingCircle {
        MovingCircle { center1: c1, center2: c2, radius }
    }

    #[test]
    fn head_on() {
        let a = circle(Vec2::ZERO, Vec2::ZERO, 1.0);
        let b = circle(Vec2::new(10.0, 0.0), Vec2::new(0.0, 0.0), 1.0);
        let out = circle_time_of_impact(&a, &b, 1.0, 0.0).unwrap();
        assert_eq!(out.state, ToiState::Hit);
        assert!((out.t - 0.8).abs() < 1e-6);
        assert!((out.point - Vec2::new(1.0, 0.0)).length() < 1e-5);
        assert!((out.normal - Vec2::X).length() < 1e-6);
    }

    #[test]
    fn miss_overlap_and_start_within_target() {
        let a = circle(Vec2::ZERO, Vec2::ZERO, 1.0);
        let passing = circle(Vec2::new(-5.0, 2.5), Vec2::new(5.0, 2.5), 0.4);
        assert_eq!(circle_time_of_impact(&a, &passing, 1.0, 0.0).unwrap().state, ToiState::Separated);
        let inside = circle(Vec2::new(1.5, 0.0), Vec2::new(9.0, 0.0), 1.0);
        assert_eq!(circle_time_of_impact(&a, &inside, 1.0, 0.0).unwrap().state, ToiState::Overlapped);
        let close = circle(Vec2::new(2.004, 0.0), Vec2::new(9.0, 0.0), 1.0);
        let out = circle_time_of_impact(&a, &close, 1.0, 0.005).unwrap();
        assert_eq!((out.state, out.t), (ToiState::Hit, 0.0));
        assert!(circle_time_of_impact(&a, &close, 1.0, -2.5).is_err());
    }

    /// Found by the f64 reference: the discriminant's terms are 14866 and the result 21.
    #[test]
    fn discriminant_does_not_cancel() {
        let a = circle(Vec2::new(-0.41746512, 0.1231555), Vec2::new(-0.4147671, 0.13217784), 0.23861653);
        let b = circle(Vec2::new(-3.0338926, 8.675871), Vec2::new(0.85873085, -4.381176), 0.08011724);
        let out = circle_time_of_impact(&a, &b, 1.0, 0.0249475).unwrap();
        assert!((out.t as f64 - 0.6313210713749597).abs() < 2e-7, "{out:?}");
        let huge = circle(Vec2::new(1e30, 0.0), Vec2::new(-1e30, 0.0), 1.0);
        assert!(circle_time_of_impact(&a, &huge, 1.0, 0.0).is_err());
    }

    #[test]
    fn far_from_origin_keeps_precision() {
        let far = Vec2::new(5000.0, -5000.0);
        let a = circle(far, far, 0.05);
        let b = circle(far + Vec2::new(1.0, 0.0), far + Vec2::new(-1.0, 0.0), 0.05);
        let out = circle_time_of_impact(&a, &b, 1.0, 0.0).unwrap();
        assert!((out.t - 0.45).abs() < 1e-4, "{out:?}");
    }
}
