//! Analytic time of impact of two translating spheres.
//!
//! Source: the quadratic of the collision-detection tutorial in shared references
//! ("Continuous Collision Detection": |x_b(t) - x_a(t)| = r_a + r_b), solved without
//! cancellation by [`impact_core::toi::closing_time`], which the 2D circles share.

use super::error::QueryError;
use super::toi::{ToiOutput, ToiState};
use crate::math::Vec3;
use crate::settings::MAX_COORDINATE;
use impact_core::toi::closing_time;

/// A sphere whose center moves in a straight line over normalized time t ∈ [0, 1].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MovingSphere {
    /// Center at t = 0 (meters, world).
    pub center1: Vec3,
    /// Center at t = 1 (meters, world).
    pub center2: Vec3,
    /// Radius (meters, zero or positive).
    pub radius: f32,
}

/// The first time in [0, `t_max`] at which the gap between two translating spheres is
/// exactly `target` (meters), in closed form: `|p0 + t v| = r_a + r_b + target` with `p0` the
/// initial offset and `v` the relative displacement. A sphere's turn does not matter.
///
/// States as in [`time_of_impact`](super::time_of_impact): `Overlapped` when the spheres
/// overlap at t = 0, `Hit` at 0 when the gap starts within `target`, otherwise `Hit` at the
/// root (with the contact point midway between the surfaces and the unit normal from A to
/// B) or `Separated`. `iterations` is 0.
///
/// Errors: [`QueryError::NonFinite`] for non-finite input; [`QueryError::OutOfRange`] for a
/// coordinate or radius beyond [`MAX_COORDINATE`], a negative radius, `t_max` outside
/// [0, 1], or `target <= -(r_a + r_b)`.
pub fn sphere_time_of_impact(
    a: &MovingSphere,
    b: &MovingSphere,
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
        let center_a = (a.center2 - a.center1) * t;
        let offset = p0 + v * t;
        let normal = offset.normalize_or_zero();
        let mut out = out.ended(ToiState::Hit, t);
        out.normal = normal;
        out.point = origin + center_a + normal * (a.radius + 0.5 * (offset.length() - radius));
        out
    };
    if distance <= contact {
        return Ok(hit(0.0));
    }
    let Some(t) = closing_time(distance, contact, p0.dot(v), contact * v.length(), p0.cross(v).length()) else {
        return Ok(out.ended(ToiState::Separated, t_max));
    };
    if t > t_max { Ok(out.ended(ToiState::Separated, t_max)) } else { Ok(hit(t)) }
}

fn validate(a: &MovingSphere, b: &MovingSphere, t_max: f32, target: f32) -> Result<(), QueryError> {
    for (what, s) in [("sphere a", a), ("sphere b", b)] {
        if !(s.center1.is_finite() && s.center2.is_finite() && s.radius.is_finite()) {
            return Err(QueryError::NonFinite { what });
        }
        let largest = s.center1.abs().max_element().max(s.center2.abs().max_element()).max(s.radius);
        if largest > MAX_COORDINATE {
            let requirement = "coordinates within MAX_COORDINATE";
            return Err(QueryError::OutOfRange { what, requirement, value: largest });
        }
        if s.radius < 0.0 {
            return Err(QueryError::OutOfRange { what, requirement: "a radius zero or positive", value: s.radius });
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

    fn sphere(c1: Vec3, c2: Vec3, radius: f32) -> MovingSphere {
        MovingSphere { center1: c1, center2: c2, radius }
    }

    #[test]
    fn head_on_miss_overlap_and_start_within_target() {
        let a = sphere(Vec3::ZERO, Vec3::ZERO, 1.0);
        let b = sphere(Vec3::new(0.0, 0.0, 10.0), Vec3::ZERO, 1.0);
        let out = sphere_time_of_impact(&a, &b, 1.0, 0.0).unwrap();
        assert_eq!(out.state, ToiState::Hit);
        assert!(
            (out.t - 0.8).abs() < 1e-6
                && (out.point - Vec3::Z).length() < 1e-5
                && (out.normal - Vec3::Z).length() < 1e-6
        );
        let passing = sphere(Vec3::new(-5.0, 1.0, 2.3), Vec3::new(5.0, 1.0, 2.3), 0.4);
        assert_eq!(sphere_time_of_impact(&a, &passing, 1.0, 0.0).unwrap().state, ToiState::Separated);
        let inside = sphere(Vec3::new(0.0, 1.5, 0.0), Vec3::new(9.0, 0.0, 0.0), 1.0);
        assert_eq!(sphere_time_of_impact(&a, &inside, 1.0, 0.0).unwrap().state, ToiState::Overlapped);
        let close = sphere(Vec3::new(0.0, 0.0, 2.004), Vec3::new(0.0, 0.0, 9.0), 1.0);
        let out = sphere_time_of_impact(&a, &close, 1.0, 0.005).unwrap();
        assert_eq!((out.state, out.t), (ToiState::Hit, 0.0));
        assert!(sphere_time_of_impact(&a, &close, 1.0, -2.5).is_err());
        assert!(sphere_time_of_impact(&a, &sphere(Vec3::NAN, Vec3::ZERO, 1.0), 1.0, 0.0).is_err());
        assert!(sphere_time_of_impact(&a, &sphere(Vec3::splat(2e9), Vec3::ZERO, 1.0), 1.0, 0.0).is_err());
    }

    #[test]
    fn far_from_origin_keeps_precision() {
        let far = Vec3::new(5000.0, -5000.0, 5000.0);
        let a = sphere(far, far, 0.05);
        let b = sphere(far + Vec3::new(0.0, 1.0, 0.0), far + Vec3::new(0.0, -1.0, 0.0), 0.05);
        let out = sphere_time_of_impact(&a, &b, 1.0, 0.0).unwrap();
        assert!((out.t - 0.45).abs() < 1e-4, "{out:?}");
    }
}
