//! Conversions between Bevy's math types and impact2d's.
//!
//! Bevy 0.19 and impact2d depend on different versions of glam, so their `Vec2` are distinct
//! types: every value crosses by its components. A body's pose in Bevy is a `Transform`
//! whose translation's x and y are the body origin (meters) and whose rotation is a turn about
//! z by the body angle (radians); z, scale and any tilt out of the plane are the user's.

use bevy_math::{Quat, Vec2, Vec3};
use bevy_transform::components::Transform;

/// A Bevy vector as an impact2d vector (same components).
pub(crate) fn to_engine(v: Vec2) -> impact2d::Vec2 {
    impact2d::Vec2::new(v.x, v.y)
}

/// An impact2d vector as a Bevy vector (same components).
pub(crate) fn from_engine(v: impact2d::Vec2) -> Vec2 {
    Vec2::new(v.x, v.y)
}

/// The angle (radians, counter-clockwise) of a rotation about z: the twist of `rotation`
/// about the z axis, so a rotation with some tilt still gives its turn in the plane.
pub(crate) fn angle_of(rotation: Quat) -> f32 {
    2.0 * rotation.z.atan2(rotation.w)
}

/// The body pose a `Transform` stands for: origin (meters) and angle (radians).
pub(crate) fn pose_of(transform: &Transform) -> (impact2d::Vec2, f32) {
    let p = transform.translation;
    (impact2d::Vec2::new(p.x, p.y), angle_of(transform.rotation))
}

/// Writes an engine pose into a `Transform`, keeping its z and scale.
pub(crate) fn write_pose(transform: &mut Transform, position: impact2d::Vec2, angle: f32) {
    transform.translation = Vec3::new(position.x, position.y, transform.translation.z);
    transform.rotation = Quat::from_rotation_z(angle);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn angle_round_trips_through_a_quaternion() {
        for &a in &[0.0f32, 0.3, -1.2, 3.0, -3.1] {
            let q = Quat::from_rotation_z(a);
            assert!((angle_of(q) - a).abs() < 1e-5, "{a} -> {}", angle_of(q));
        }
    }

    #[test]
    fn pose_keeps_z_and_scale() {
        let mut t = Transform::from_xyz(1.0, 2.0, 5.0).with_scale(Vec3::splat(2.0));
        write_pose(&mut t, impact2d::Vec2::new(-3.0, 4.0), 0.5);
        assert_eq!(t.translation, Vec3::new(-3.0, 4.0, 5.0));
        assert_eq!(t.scale, Vec3::splat(2.0));
        let (p, a) = pose_of(&t);
        assert_eq!((p.x, p.y), (-3.0, 4.0));
        assert!((a - 0.5).abs() < 1e-6);
    }
}
