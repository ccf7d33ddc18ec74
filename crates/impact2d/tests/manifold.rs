//! Contact manifolds: hand cases per pair of shape kinds, with exact expected numbers.

mod manifold_support;

use impact2d::narrow_phase::feature_id;
use impact2d::settings::SPECULATIVE_DISTANCE;
use impact2d::*;
use manifold_support::*;
use std::f32::consts::{FRAC_PI_2, FRAC_PI_4, SQRT_2};

const SPEC: f32 = SPECULATIVE_DISTANCE;

fn close(a: f32, b: f32, tol: f32) -> bool {
    (a - b).abs() <= tol
}

fn near(a: Vec2, b: Vec2, tol: f32) -> bool {
    (a - b).length() <= tol
}

fn sorted_x(m: &Manifold) -> Vec<ManifoldPoint> {
    let mut p = m.points().to_vec();
    p.sort_by(|a, b| a.point.x.total_cmp(&b.point.x));
    p
}

/// The ground: a 10 m × 1 m box with its top face at y = 0.5.
fn ground() -> Shape {
    boxed(5.0, 0.5)
}

#[test]
fn box_resting_on_box_has_two_points_with_ids() {
    let m = collide(&ground(), Transform::IDENTITY, &boxed(0.5, 0.5), xf(0.0, 1.0, 0.0), SPEC);
    assert_eq!(m.count, 2, "{m:?}");
    assert!(near(m.normal, Vec2::Y, 1e-6));
    let p = sorted_x(&m);
    assert!(near(p[0].point, v(-0.5, 0.5), 1e-6) && near(p[1].point, v(0.5, 0.5), 1e-6), "{m:?}");
    for q in &p {
        assert!(close(q.separation, 0.0, 1e-6));
    }
    // Ground top edge runs from vertex 2 (right) to 3 (left); the box's bottom edge from
    // vertex 0 (left) to 1 (right). Each point pairs the vertices at its end.
    assert_eq!(p[0].id, feature_id(3, 0));
    assert_eq!(p[1].id, feature_id(2, 1));
    // Anchors: relative to each body origin, world orientation.
    assert!(near(p[0].anchor_a, v(-0.5, 0.5), 1e-6) && near(p[0].anchor_b, v(-0.5, -0.5), 1e-6));
}

#[test]
fn swapping_the_shapes_flips_the_manifold() {
    let (a, b) = (ground(), boxed(0.5, 0.5));
    let xa = xf(0.2, -0.1, 0.1);
    let xb = xa * xf(0.1, 0.995, 0.0);
    let ab = collide(&a, xa, &b, xb, SPEC);
    let ba = collide(&b, xb, &a, xa, SPEC);
    assert_eq!(ab.count, 2);
    assert_eq!(ba.count, ab.count);
    assert!(near(ba.normal, -ab.normal, 1e-5), "{ab:?} {ba:?}");
    let mut s1: Vec<f32> = ab.points().iter().map(|p| p.separation).collect();
    let mut s2: Vec<f32> = ba.points().iter().map(|p| p.separation).collect();
    s1.sort_by(f32::total_cmp);
    s2.sort_by(f32::total_cmp);
    for (x, y) in s1.iter().zip(&s2) {
        assert!(close(*x, *y, 1e-5), "{s1:?} {s2:?}");
    }
}

#[test]
fn box_on_its_corner_has_one_point() {
    let gap = 0.001;
    let b = xf(0.3, 0.5 + 0.5 * SQRT_2 + gap, FRAC_PI_4);
    let m = collide(&ground(), Transform::IDENTITY, &boxed(0.5, 0.5), b, SPEC);
    assert_eq!(m.count, 1, "{m:?}");
    assert!(near(m.normal, Vec2::Y, 1e-6));
    assert!(close(m.points[0].separation, gap, 2e-6), "{m:?}");
    assert!(near(m.points[0].point, v(0.3, 0.5 + 0.5 * gap), 2e-6));
}

#[test]
fn circle_on_box_face_and_corner() {
    let m = collide(&ground(), Transform::IDENTITY, &circle(0.5), xf(1.0, 1.002, 0.0), SPEC);
    assert_eq!(m.count, 1);
    assert!(near(m.normal, Vec2::Y, 1e-6));
    assert!(close(m.points[0].separation, 0.002, 1e-6));
    assert!(near(m.points[0].point, v(1.0, 0.501), 1e-6));
    // Off the corner at 45°: the normal points from the corner to the center.
    let c = v(5.0, 0.5) + Vec2::splat(FRAC_PI_4.cos()) * 0.51;
    let m = collide(&ground(), Transform::IDENTITY, &circle(0.5), xf(c.x, c.y, 0.0), SPEC);
    assert_eq!(m.count, 1);
    assert!(near(m.normal, Vec2::splat(FRAC_PI_4.cos()), 1e-5), "{m:?}");
    assert!(close(m.points[0].separation, 0.01, 1e-5));
    // The circle first: the same contact, flipped.
    let f = collide(&circle(0.5), xf(c.x, c.y, 0.0), &ground(), Transform::IDENTITY, SPEC);
    assert!(near(f.normal, -m.normal, 1e-6) && close(f.points[0].separation, 0.01, 1e-5));
}

#[test]
fn circle_inside_a_box_leaves_through_the_nearest_face() {
    let m = collide(&boxed(1.0, 1.0), Transform::IDENTITY, &circle(0.25), xf(0.7, 0.1, 0.0), SPEC);
    assert_eq!(m.count, 1);
    assert!(near(m.normal, Vec2::X, 1e-6));
    assert!(close(m.points[0].separation, -0.55, 1e-6), "{m:?}");
}

#[test]
fn capsule_lying_on_a_box_has_two_points() {
    let cap = capsule(v(-1.0, 0.0), v(1.0, 0.0), 0.25);
    let m = collide(&ground(), Transform::IDENTITY, &cap, xf(0.5, 0.75, 0.0), SPEC);
    assert_eq!(m.count, 2, "{m:?}");
    assert!(near(m.normal, Vec2::Y, 1e-6));
    let p = sorted_x(&m);
    assert!(near(p[0].point, v(-0.5, 0.5), 1e-6) && near(p[1].point, v(1.5, 0.5), 1e-6), "{m:?}");
    assert!(close(p[0].separation, 0.0, 1e-6) && close(p[1].separation, 0.0, 1e-6));
    // Capsule first.
    let f = collide(&cap, xf(0.5, 0.75, 0.0), &ground(), Transform::IDENTITY, SPEC);
    assert_eq!(f.count, 2);
    assert!(near(f.normal, -Vec2::Y, 1e-6));
}

#[test]
fn capsule_on_its_end_has_one_point() {
    let cap = capsule(v(0.0, -1.0), v(0.0, 1.0), 0.25);
    let m = collide(&ground(), Transform::IDENTITY, &cap, xf(-2.0, 1.75 + 0.003, 0.0), SPEC);
    assert_eq!(m.count, 1, "{m:?}");
    assert!(near(m.normal, Vec2::Y, 1e-6));
    assert!(close(m.points[0].separation, 0.003, 1e-6));
    assert!(near(m.points[0].point, v(-2.0, 0.5015), 1e-6));
    // Tilted 30° on its end: still one point, the lower cap.
    let m = collide(
        &ground(),
        Transform::IDENTITY,
        &cap,
        xf(-2.0, 0.5 + 0.25 + 30f32.to_radians().cos(), 30f32.to_radians()),
        SPEC,
    );
    assert_eq!(m.count, 1, "{m:?}");
    assert!(near(m.normal, Vec2::Y, 1e-5) && close(m.points[0].separation, 0.0, 1e-5), "{m:?}");
}

#[test]
fn capsules_parallel_crossed_and_end_to_end() {
    let cap = capsule(v(-1.0, 0.0), v(1.0, 0.0), 0.25);
    // Parallel, overlapping by half: two points at the overlap's ends.
    let m = collide(&cap, Transform::IDENTITY, &cap, xf(1.0, 0.5, 0.0), SPEC);
    assert_eq!(m.count, 2, "{m:?}");
    let p = sorted_x(&m);
    assert!(near(p[0].point, v(0.0, 0.25), 1e-6) && near(p[1].point, v(1.0, 0.25), 1e-6), "{m:?}");
    assert!(near(m.normal, Vec2::Y, 1e-6) && close(p[0].separation, 0.0, 1e-6));
    // Crossed at 90°, the top one 0.01 above: one point.
    let m = collide(&cap, Transform::IDENTITY, &cap, xf(0.2, 1.51, FRAC_PI_2), SPEC);
    assert_eq!(m.count, 1, "{m:?}");
    assert!(near(m.normal, Vec2::Y, 1e-6) && close(m.points[0].separation, 0.01, 1e-6));
    // Collinear end to end, 0.01 apart: one point along the axis.
    let m = collide(&cap, Transform::IDENTITY, &cap, xf(2.51, 0.0, 0.0), SPEC);
    assert_eq!(m.count, 1, "{m:?}");
    assert!(near(m.normal, Vec2::X, 1e-6) && close(m.points[0].separation, 0.01, 1e-6));
    assert!(near(m.points[0].point, v(1.255, 0.0), 1e-6));
    // Collinear overlapping cores: depth is the sum of the radii.
    let m = collide(&cap, Transform::IDENTITY, &cap, xf(1.0, 0.0, 0.0), SPEC);
    assert!(m.count >= 1 && close(m.min_separation().unwrap(), -0.5, 1e-6), "{m:?}");
}

#[test]
fn segments_against_shapes() {
    let seg = segment(v(-2.0, 0.0), v(2.0, 0.0));
    // A box resting on a segment: two points, normal up.
    let m = collide(&seg, Transform::IDENTITY, &boxed(0.5, 0.5), xf(1.0, 0.5, 0.0), SPEC);
    assert_eq!(m.count, 2, "{m:?}");
    assert!(near(m.normal, Vec2::Y, 1e-6));
    // Two-sided: the same box below gets the downward normal.
    let m = collide(&seg, Transform::IDENTITY, &boxed(0.5, 0.5), xf(1.0, -0.51, 0.0), SPEC);
    assert_eq!(m.count, 2);
    assert!(near(m.normal, -Vec2::Y, 1e-6) && close(m.points[0].separation, 0.01, 1e-6));
    // Circle and capsule.
    let m = collide(&seg, Transform::IDENTITY, &circle(0.3), xf(-1.0, 0.31, 0.0), SPEC);
    assert!(m.count == 1 && close(m.points[0].separation, 0.01, 1e-6));
    let m = collide(&seg, Transform::IDENTITY, &capsule(v(-0.5, 0.0), v(0.5, 0.0), 0.1), xf(0.0, 0.1, 0.0), SPEC);
    assert_eq!(m.count, 2);
    // Two crossing segments: depth of the parallelogram, sin(60°) for unit half-lengths.
    let s = segment(v(-1.0, 0.0), v(1.0, 0.0));
    let m = collide(&s, Transform::IDENTITY, &s, xf(0.0, 0.0, 60f32.to_radians()), SPEC);
    assert!(m.count >= 1 && close(m.min_separation().unwrap(), -(60f32.to_radians().sin()), 1e-5), "{m:?}");
}

#[test]
fn rounded_boxes_resting_have_two_points() {
    let a = rounded_box(5.0, 0.4, 0.1);
    let b = rounded_box(0.4, 0.4, 0.1);
    for gap in [0.0, 0.003, -0.004] {
        let m = collide(&a, Transform::IDENTITY, &b, xf(0.7, 1.0 + gap, 0.0), SPEC);
        assert_eq!(m.count, 2, "gap {gap}: {m:?}");
        assert!(near(m.normal, Vec2::Y, 1e-6));
        let p = sorted_x(&m);
        // The points sit under the core's corners, midway between the rounded surfaces.
        assert!(
            near(p[0].point, v(0.3, 0.5 + 0.5 * gap), 1e-5) && near(p[1].point, v(1.1, 0.5 + 0.5 * gap), 1e-5),
            "{m:?}"
        );
        assert!(close(p[0].separation, gap, 1e-5) && close(p[1].separation, gap, 1e-5), "{m:?}");
    }
    // Corner to corner, cores apart diagonally: one point along the diagonal.
    let offset = 0.8 + 0.21 / SQRT_2;
    let m = collide(&b, Transform::IDENTITY, &b, xf(offset, offset, 0.0), SPEC);
    assert_eq!(m.count, 1, "{m:?}");
    let expected = 0.01;
    assert!(
        near(m.normal, Vec2::splat(FRAC_PI_4.cos()), 1e-5) && close(m.points[0].separation, expected, 1e-5),
        "{m:?}"
    );
}

#[test]
fn overlap_depth_is_the_exact_penetration() {
    let a = boxed(1.0, 1.0);
    let pa = ShapeProxy::from_shape(&a);
    let cases = [
        (xf(0.2, 1.9, 0.0), 0.1),
        (xf(1.7, 0.3, 0.0), 0.3),
        (xf(0.0, 1.0 + SQRT_2 - 0.05, FRAC_PI_4), 0.05),
        (xf(1.3, 1.35, 0.3), -1.0), // depth from EPA
    ];
    for (b, expected) in cases {
        let m = collide(&a, Transform::IDENTITY, &a, b, SPEC);
        let epa = penetration(&DistanceInput {
            proxy_a: &pa,
            transform_a: Transform::IDENTITY,
            proxy_b: &pa,
            transform_b: b,
        })
        .expect("valid input")
        .expect("overlap");
        let depth = -m.min_separation().unwrap();
        assert!(close(depth, epa.depth, 1e-5), "{b:?}: manifold depth {depth}, EPA {}", epa.depth);
        if expected > 0.0 {
            assert!(close(depth, expected, 1e-5), "{b:?}: {depth} vs {expected}");
        }
        assert!(m.normal.dot(epa.normal) > 0.9999, "{m:?} vs {epa:?}");
    }
}

#[test]
fn speculative_points_are_kept_up_to_the_speculative_distance() {
    let cap = capsule(v(-0.5, 0.0), v(0.5, 0.0), 0.2);
    let shapes: [(Shape, f32); 4] =
        [(boxed(0.5, 0.5), 1.0), (circle(0.5), 1.0), (cap, 0.7), (rounded_box(0.4, 0.4, 0.1), 1.0)];
    for (shape, rest_y) in shapes {
        let inside = collide(&ground(), Transform::IDENTITY, &shape, xf(0.0, rest_y + 0.5 * SPEC, 0.0), SPEC);
        assert!(inside.count >= 1, "{shape:?}");
        for p in inside.points() {
            assert!(close(p.separation, 0.5 * SPEC, 1e-6), "{shape:?}: {inside:?}");
        }
        let outside = collide(&ground(), Transform::IDENTITY, &shape, xf(0.0, rest_y + 1.5 * SPEC, 0.0), SPEC);
        assert!(outside.is_empty(), "{shape:?}: {outside:?}");
        // A larger speculative distance keeps it.
        let wide = collide(&ground(), Transform::IDENTITY, &shape, xf(0.0, rest_y + 1.5 * SPEC, 0.0), 2.0 * SPEC);
        assert!(!wide.is_empty());
    }
}

#[test]
fn sliding_box_keeps_its_feature_ids() {
    let b = boxed(0.5, 0.5);
    let first = collide(&ground(), Transform::IDENTITY, &b, xf(-4.0, 0.999, 0.0), SPEC);
    assert_eq!(first.count, 2);
    let ids: Vec<u16> = first.points().iter().map(|p| p.id).collect();
    for step in 1..=100 {
        let x = -4.0 + 0.08 * step as f32;
        // A little wobble in height and angle, as in a resting contact.
        let y = 0.999 + 0.002 * ((step % 3) as f32 - 1.0);
        let angle = 1e-4 * ((step % 5) as f32 - 2.0);
        let m = collide(&ground(), Transform::IDENTITY, &b, xf(x, y, angle), SPEC);
        assert_eq!(m.count, 2, "step {step}: {m:?}");
        for id in &ids {
            assert!(m.find_id(*id).is_some(), "step {step}: id {id:#x} lost: {m:?}");
        }
    }
    // Box over box of the same size, sliding across the other's end: the ids persist while
    // the overlap shrinks.
    let mut last = None;
    for step in 0..100 {
        let x = 0.9 * step as f32 / 100.0;
        let m = collide(&b, Transform::IDENTITY, &b, xf(x, 0.998, 0.0), SPEC);
        assert_eq!(m.count, 2, "{m:?}");
        let mut now: Vec<u16> = m.points().iter().map(|p| p.id).collect();
        now.sort();
        if let Some(prev) = &last {
            assert_eq!(prev, &now, "step {step}");
        }
        last = Some(now);
    }
}

#[test]
fn circles_and_capsule_circle() {
    let m = collide(&circle(0.5), xf(1.0, 1.0, 0.0), &circle(0.25), xf(1.0 + 0.76 * 0.6, 1.0 + 0.76 * 0.8, 0.0), SPEC);
    assert_eq!(m.count, 1);
    assert!(near(m.normal, v(0.6, 0.8), 1e-6) && close(m.points[0].separation, 0.01, 1e-6));
    assert!(near(m.points[0].point, v(1.0, 1.0) + v(0.6, 0.8) * 0.505, 1e-6));
    // Concentric: a unit normal, full depth.
    let m = collide(&circle(0.5), Transform::IDENTITY, &circle(0.25), Transform::IDENTITY, SPEC);
    assert!(close(m.normal.length(), 1.0, 1e-6) && close(m.points[0].separation, -0.75, 1e-6));
    let cap = capsule(v(-1.0, 0.0), v(1.0, 0.0), 0.2);
    let m = collide(&cap, xf(0.0, 0.0, FRAC_PI_2), &circle(0.3), xf(0.51, 0.5, 0.0), SPEC);
    assert!(near(m.normal, Vec2::X, 1e-6) && close(m.points[0].separation, 0.01, 1e-6), "{m:?}");
    // Beyond the cap: from the end point.
    let m = collide(&cap, Transform::IDENTITY, &circle(0.3), xf(1.0 + 0.51 * 0.6, 0.51 * 0.8, 0.0), SPEC);
    assert!(near(m.normal, v(0.6, 0.8), 1e-5) && close(m.points[0].separation, 0.01, 1e-5), "{m:?}");
}

#[test]
fn far_from_the_origin_keeps_precision() {
    // Two boxes resting 1e5 m from the origin: the anchors are exact, the gap too.
    let far = v(1.0e5, -3.0e4);
    let m = collide(&ground(), xf(far.x, far.y, 0.0), &boxed(0.5, 0.5), xf(far.x + 1.0, far.y + 1.0025, 0.0), SPEC);
    assert_eq!(m.count, 2);
    for p in m.points() {
        assert!(close(p.separation, 0.0025, 2e-3 * 0.0025 + 4e-3), "{m:?}");
    }
    let p = sorted_x(&m);
    assert!(near(p[0].anchor_a, v(0.5, 0.50125), 1e-3) && near(p[0].anchor_b, v(-0.5, -0.50125), 1e-3), "{m:?}");
}
