//! Circles against circles and against polygon cores (polygons, capsules, segments).
//!
//! A circle meets any convex core at one point: the closest point of the core to the center
//! gives the normal (Ericson, Real-Time Collision Detection, 5.1.1 and 5.1.2). A center
//! inside the core is pushed out through the face of least penetration. After Catto's
//! `b2CollideCircles`, `b2CollideCapsuleAndCircle` and `b2CollidePolygonAndCircle`
//! (Box2D v3).

use super::core::Core;
use super::manifold::{LocalManifold, LocalPoint, is_within};
use crate::math::Vec2;
use crate::settings::MANIFOLD_TOUCHING_GAP;

/// Circle A (center `center_a`, radius `radius_a`) against circle B, in one local frame.
pub(crate) fn circles(center_a: Vec2, radius_a: f32, center_b: Vec2, radius_b: f32, speculative: f32) -> LocalManifold {
    let d = center_b - center_a;
    let distance = d.length();
    // Concentric circles: any direction is a least-penetration direction; take local +y.
    let normal = if distance > 0.0 { d / distance } else { Vec2::Y };
    contact(center_a, radius_a, center_b, radius_b, normal, distance, speculative)
}

/// Core A against circle B (center `center` in the same frame, radius `radius`).
pub(crate) fn core_and_circle(a: &Core, center: Vec2, radius: f32, speculative: f32) -> LocalManifold {
    if a.is_segment() {
        segment_and_circle(a, center, radius, speculative)
    } else {
        polygon_and_circle(a, center, radius, speculative)
    }
}

/// A segment core (capsule or segment) against a circle.
fn segment_and_circle(a: &Core, center: Vec2, radius: f32, speculative: f32) -> LocalManifold {
    let (p1, p2) = (a.vertices[0], a.vertices[1]);
    let e = p2 - p1;
    let t = (center - p1).dot(e);
    if t > 0.0 && t < e.length_squared() {
        // Facing the segment's interior: the exact segment normal, on the center's side.
        let s = a.normals[0].dot(center - p1);
        let normal = if s >= 0.0 { a.normals[0] } else { -a.normals[0] };
        return contact(center - s * a.normals[0], a.radius, center, radius, normal, s.abs(), speculative);
    }
    let end = if t <= 0.0 { p1 } else { p2 };
    let distance = center.distance(end);
    // A center on the end leaves through the segment's first side.
    let normal = if distance > 0.0 { (center - end) / distance } else { a.normals[0] };
    contact(end, a.radius, center, radius, normal, distance, speculative)
}

/// A polygon core (three or more vertices) against a circle.
fn polygon_and_circle(a: &Core, center: Vec2, radius: f32, speculative: f32) -> LocalManifold {
    // The face of greatest separation of the center.
    let mut edge = 0;
    let mut separation = f32::NEG_INFINITY;
    for i in 0..a.count {
        let s = a.normals[i].dot(center - a.vertices[i]);
        if s > separation {
            edge = i;
            separation = s;
        }
    }
    if !is_within(separation - a.radius - radius, speculative) {
        return LocalManifold::EMPTY;
    }
    let normal = a.normals[edge];
    if separation > MANIFOLD_TOUCHING_GAP {
        // Outside the core: the closest core point is this edge's interior or one of its ends.
        let (v1, v2) = (a.vertices[edge], a.vertices[a.next(edge)]);
        let t = (center - v1).dot(v2 - v1);
        let vertex = if t <= 0.0 {
            Some(v1)
        } else if t >= (v2 - v1).length_squared() {
            Some(v2)
        } else {
            None
        };
        if let Some(v) = vertex {
            // At least `separation` away, so the direction is well defined.
            let distance = center.distance(v);
            return contact(v, a.radius, center, radius, (center - v) / distance, distance, speculative);
        }
    }
    // Inside the core, or outside facing this edge: through the face.
    contact(center - separation * normal, a.radius, center, radius, normal, separation, speculative)
}

/// The one-point manifold between core point `core_a` (rounded by `radius_a`) and core point
/// `core_b` (rounded by `radius_b`), `distance` apart along the unit `normal` (from A to B).
fn contact(
    core_a: Vec2,
    radius_a: f32,
    core_b: Vec2,
    radius_b: f32,
    normal: Vec2,
    distance: f32,
    speculative: f32,
) -> LocalManifold {
    let separation = distance - radius_a - radius_b;
    if !is_within(separation, speculative) {
        return LocalManifold::EMPTY;
    }
    let point = 0.5 * ((core_a + radius_a * normal) + (core_b - radius_b * normal));
    LocalManifold::single(normal, LocalPoint { point, separation, id: 0 })
}
