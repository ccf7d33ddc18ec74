//! Ray casts against capsules in closed form.
//!
//! A capsule is the union of the cylinder around its core segment (between the end planes)
//! and the balls at both ends. From outside, the ray enters the union where it first enters
//! one of the three convex pieces, so the hit is the earliest of three closed forms: the
//! cylinder's quadratic in the plane across the axis, checked against the segment's span
//! (when it holds, nothing enters earlier), else the earlier of two ray–sphere casts. Each quadratic is solved through the closest approach of the
//! line (as the sphere cast of `shape_cast.rs`, Ericson, Real-Time Collision Detection,
//! 5.3.2 and 5.3.7), in f64 relative to the first end, so that nothing cancels from afar.

use glam::DVec3;

use super::shape_cast::{CastOutput, RayCastInput};
use crate::geometry::Capsule;
use crate::math::Vec3;

/// The ray cast of [`super::ray_cast`] against a capsule (in its frame). A ray that starts
/// inside or on the surface hits at 0 with a zero normal.
pub(super) fn ray_capsule(capsule: &Capsule, input: &RayCastInput) -> Option<CastOutput> {
    let a = capsule.center1().as_dvec3();
    let axis = capsule.center2().as_dvec3() - a;
    let r = capsule.radius() as f64;
    // The ray relative to the first end.
    let (m, d) = (input.origin.as_dvec3() - a, input.translation.as_dvec3());
    // The capsule checked its ends apart (at least the linear slop): a non-zero axis.
    let axis_sq = axis.length_squared();
    let nearest = axis * (m.dot(axis) / axis_sq).clamp(0.0, 1.0);
    if (m - nearest).length_squared() <= r * r {
        return Some(CastOutput { point: input.origin, normal: Vec3::ZERO, fraction: 0.0, iterations: 0 });
    }
    // An entry through the side is the entry into the capsule (just before it the ray is
    // outside the whole cylinder): the balls are needed only when it misses the side.
    let balls = || {
        let (first, second) = (ball_entry(m, d, r), ball_entry(m - axis, d, r));
        [first, second].into_iter().flatten().min_by(|x, y| x.0.total_cmp(&y.0))
    };
    let (fraction, normal) = side_entry(m, d, axis, r).or_else(balls)?;
    let fraction = fraction as f32;
    if fraction > input.max_fraction {
        return None;
    }
    let point = input.origin + input.translation * fraction;
    // A translation of a few subnormals meets the capsule only at an enormous fraction: a
    // point beyond f32 is no hit (never NaN or infinite outputs).
    if !point.is_finite() {
        return None;
    }
    Some(CastOutput { point, normal: normal.as_vec3(), fraction, iterations: 0 })
}

/// Where the line `s + f d` (f ≥ 0, relative to a center) first meets the circle or sphere of
/// radius `r` about that center, in the space of `s` and `d` (3D, or the plane across an
/// axis): the fraction and the unit normal there. `None` when the line misses, has no
/// length, or met the sphere only before its start.
fn circle_entry(s: DVec3, d: DVec3, r: f64) -> Option<(f64, DVec3)> {
    let length = d.length();
    if length == 0.0 {
        return None;
    }
    let dir = d / length;
    // The closest approach, then back along the line by the half chord.
    let tc = -s.dot(dir);
    let closest = s + dir * tc;
    let h2 = r * r - closest.length_squared();
    if h2 < 0.0 {
        return None;
    }
    let half_chord = h2.sqrt();
    let t = tc - half_chord;
    if t < 0.0 {
        return None;
    }
    Some((t / length, (closest - dir * half_chord) / r))
}

/// The ray `m + f d` (relative to a ball's center) entering the ball of radius `r`.
fn ball_entry(m: DVec3, d: DVec3, r: f64) -> Option<(f64, DVec3)> {
    circle_entry(m, d, r)
}

/// The ray `m + f d` (relative to the first end) entering the side of the cylinder of radius
/// `r` around `axis`, between the end planes: the circle cast in the plane across the axis,
/// kept only where the entry lies along the segment.
fn side_entry(m: DVec3, d: DVec3, axis: DVec3, r: f64) -> Option<(f64, DVec3)> {
    let axis_sq = axis.length_squared();
    let across = |v: DVec3| v - axis * (v.dot(axis) / axis_sq);
    let (fraction, normal) = circle_entry(across(m), across(d), r)?;
    let along = (m + d * fraction).dot(axis) / axis_sq;
    (0.0..=1.0).contains(&along).then_some((fraction, normal))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cast(c: &Capsule, origin: Vec3, translation: Vec3) -> Option<CastOutput> {
        ray_capsule(c, &RayCastInput { origin, translation, max_fraction: 1.0 })
    }

    #[test]
    fn named_rays_hit_the_side_the_caps_and_start_inside() {
        let c = Capsule::new(Vec3::new(0.0, -1.0, 0.0), Vec3::new(0.0, 1.0, 0.0), 0.5).unwrap();
        // Across the side: enters at x = 0.5.
        let side = cast(&c, Vec3::new(3.0, 0.2, 0.0), Vec3::new(-6.0, 0.0, 0.0)).unwrap();
        assert!((side.fraction - 2.5 / 6.0).abs() < 1e-6 && (side.normal - Vec3::X).length() < 1e-6, "{side:?}");
        // Along the axis (parallel to the side): enters the top cap at y = 1.5.
        let cap = cast(&c, Vec3::new(0.0, 4.0, 0.0), Vec3::new(0.0, -4.0, 0.0)).unwrap();
        assert!((cap.fraction - 2.5 / 4.0).abs() < 1e-6 && (cap.normal - Vec3::Y).length() < 1e-6, "{cap:?}");
        // Parallel to the axis just outside the radius: a miss.
        assert!(cast(&c, Vec3::new(0.5001, 4.0, 0.0), Vec3::new(0.0, -8.0, 0.0)).is_none());
        // Starting inside and on the surface: hit at 0, zero normal.
        for inside in [Vec3::new(0.1, 1.2, 0.0), Vec3::new(0.5, 0.0, 0.0)] {
            let out = cast(&c, inside, Vec3::X).unwrap();
            assert_eq!((out.fraction, out.normal, out.point), (0.0, Vec3::ZERO, inside));
        }
        // No length, pointing away, short of the capsule.
        assert!(cast(&c, Vec3::new(3.0, 0.0, 0.0), Vec3::ZERO).is_none());
        assert!(cast(&c, Vec3::new(3.0, 0.0, 0.0), Vec3::X).is_none());
        assert!(cast(&c, Vec3::new(3.0, 0.0, 0.0), Vec3::new(-2.0, 0.0, 0.0)).is_none());
    }

    #[test]
    fn a_capsule_5_km_out_keeps_its_digits() {
        let far = Vec3::new(5000.0, -5000.0, 5000.0);
        let c = Capsule::new(far + Vec3::new(-0.3, 0.0, 0.0), far + Vec3::new(0.3, 0.0, 0.0), 0.02).unwrap();
        // Down onto the middle of the side from 2 m above: the surface is 1.98 m away.
        let out = cast(&c, far + Vec3::new(0.1, 2.0, 0.0), Vec3::new(0.0, -4.0, 0.0)).unwrap();
        assert!((out.fraction - 1.98 / 4.0).abs() < 2e-6, "{out:?}");
        assert!((out.normal - Vec3::Y).length() < 1e-5, "{out:?}");
    }
}
