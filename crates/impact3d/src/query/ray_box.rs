//! Ray casts against boxes by their three slabs.
//!
//! Source: the slab test (Kay and Kajiya 1986; Ericson, Real-Time Collision Detection,
//! 5.3.3): in the box's frame the box is three slabs `|x_i| <= h_i`, and the ray is inside
//! all three between the latest entry and the earliest exit. Three pairs of planes in the box's
//! own axes, where the general hull cast clips against six face planes found through the
//! face list.

use super::shape_cast::{CastOutput, RayCastInput};
use crate::geometry::BoxFrame;
use crate::math::{Quat, Vec3};

/// The ray cast of [`super::ray_cast`] against a sharp box (in the frame of the hull that
/// holds it). A ray that starts inside or on the surface hits at 0 with a zero normal.
pub(super) fn ray_box(frame: &BoxFrame, input: &RayCastInput) -> Option<CastOutput> {
    // Into the box's frame: most boxes are axis-aligned in their body, with no turn to undo.
    let turned = frame.rotation != Quat::IDENTITY;
    let (origin, translation) = if turned {
        let back = frame.rotation.inverse();
        (back * (input.origin - frame.center), back * input.translation)
    } else {
        (input.origin - frame.center, input.translation)
    };
    // Each slab's entry and exit, without a branch per axis: a zero component of the
    // translation divides to an infinity (−∞ inside the slab, +∞ outside it), and the NaN
    // of a ray lying exactly in a face's plane is dropped by `max` and `min`.
    let near = -frame.half_extents.copysign(translation);
    let (enter, exit) = ((near - origin) / translation, (-near - origin) / translation);
    let lo = 0.0f32.max(enter.x).max(enter.y).max(enter.z);
    let hi = input.max_fraction.min(exit.x).min(exit.y).min(exit.z);
    if lo > hi {
        return None;
    }
    // Entered through the first face reached last; none beyond 0: the ray starts inside.
    if lo == 0.0 {
        return Some(CastOutput { point: input.origin, normal: Vec3::ZERO, fraction: 0.0, iterations: 0 });
    }
    let axis = if enter.x == lo {
        0
    } else if enter.y == lo {
        1
    } else {
        2
    };
    // A translation of a few subnormals reaches the box only at an enormous fraction: a
    // point beyond f32 is no hit (never NaN or infinite outputs).
    let point = input.origin + input.translation * lo;
    if !point.is_finite() {
        return None;
    }
    let mut normal = Vec3::ZERO;
    normal[axis] = -translation[axis].signum();
    let normal = if turned { frame.rotation * normal } else { normal };
    Some(CastOutput { point, normal, fraction: lo, iterations: 0 })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::make_offset_box;

    fn cast(frame: &BoxFrame, origin: Vec3, translation: Vec3) -> Option<CastOutput> {
        ray_box(frame, &RayCastInput { origin, translation, max_fraction: 1.0 })
    }

    #[test]
    fn named_rays_enter_faces_edges_and_start_inside() {
        let b = make_offset_box(Vec3::new(1.0, 0.5, 0.25), Vec3::ZERO, Quat::IDENTITY, 0.0).unwrap();
        let frame = *b.box_frame().unwrap();
        let top = cast(&frame, Vec3::new(0.3, 2.5, 0.1), Vec3::new(0.0, -4.0, 0.0)).unwrap();
        assert_eq!((top.fraction, top.normal), (0.5, Vec3::Y));
        // Parallel to the top face, inside its slab: enters the side; outside it: a miss.
        let side = cast(&frame, Vec3::new(-3.0, 0.2, 0.0), Vec3::new(4.0, 0.0, 0.0)).unwrap();
        assert_eq!((side.fraction, side.normal), (0.5, -Vec3::X));
        assert!(cast(&frame, Vec3::new(-3.0, 0.6, 0.0), Vec3::new(6.0, 0.0, 0.0)).is_none());
        // Sliding along the top face itself touches it: inside the closed slab.
        assert!(cast(&frame, Vec3::new(-3.0, 0.5, 0.0), Vec3::new(6.0, 0.0, 0.0)).is_some());
        // On the surface or inside, moving anywhere (or not at all): hit at 0, zero normal.
        for start in [Vec3::new(1.0, 0.0, 0.0), Vec3::new(0.2, -0.1, 0.0)] {
            for translation in [Vec3::X, Vec3::ZERO] {
                let out = cast(&frame, start, translation).unwrap();
                assert_eq!((out.fraction, out.normal, out.point), (0.0, Vec3::ZERO, start));
            }
        }
        // No length, short, pointing away.
        assert!(cast(&frame, Vec3::new(3.0, 0.0, 0.0), Vec3::ZERO).is_none());
        assert!(cast(&frame, Vec3::new(3.0, 0.0, 0.0), Vec3::new(-1.5, 0.0, 0.0)).is_none());
        assert!(cast(&frame, Vec3::new(3.0, 0.0, 0.0), Vec3::X).is_none());
    }

    #[test]
    fn a_turned_box_5_km_out_keeps_its_digits() {
        let far = Vec3::new(5000.0, -5000.0, 5000.0);
        let q = Quat::from_rotation_z(std::f32::consts::FRAC_PI_4);
        let b = make_offset_box(Vec3::splat(0.5), far, q, 0.0).unwrap();
        let frame = *b.box_frame().unwrap();
        // Down the y axis onto the top edge, which stands 0.5 √2 above the center.
        let out = cast(&frame, far + Vec3::new(0.0, 2.0, 0.0), Vec3::new(0.0, -4.0, 0.0)).unwrap();
        assert!((out.fraction - (2.0 - 0.5 * 2f32.sqrt()) / 4.0).abs() < 2e-4, "{out:?}");
        assert!(out.normal.is_finite() && (out.normal.length() - 1.0).abs() < 1e-5, "{out:?}");
    }
}
