//! Sweeps, transforms, AABBs and the simple shapes' constructors, on seeded cases against
//! f64 references: poses of a sweep from the exponential map in f64 (any number of turns);
//! AABBs holding every core point grown by the radius (and as small as that); ray casts
//! against AABBs by dense sampling; constructors refusing bad input with its reason.

mod support;

use glam::{DQuat, DVec3};
use impact3d::*;
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use support::random_unit;

fn random_quat(rng: &mut ChaCha8Rng) -> Quat {
    Quat::from_axis_angle(random_unit(rng), rng.random_range(-3.2..3.2))
}

#[test]
fn sweeps_turn_by_their_rotation_vector_at_constant_rate() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    for _ in 0..5000 {
        let sweep = Sweep {
            local_center: random_unit(&mut rng) * rng.random_range(0.0..2.0),
            c1: random_unit(&mut rng) * rng.random_range(0.0..100.0),
            c2: random_unit(&mut rng) * rng.random_range(0.0..100.0),
            q1: random_quat(&mut rng),
            rotation: random_unit(&mut rng) * rng.random_range(0.0..60.0),
        };
        let t = rng.random_range(0.0..=1.0f32);
        let xf = sweep.transform_at(t);
        // Reference: exp(t w) q1 in f64, center on the line.
        let w = sweep.rotation.as_dvec3() * t as f64;
        let angle = w.length();
        let turn = if angle > 0.0 { DQuat::from_axis_angle(w / angle, angle) } else { DQuat::IDENTITY };
        let q = turn * sweep.q1.as_dquat();
        let c = sweep.c1.as_dvec3() + (sweep.c2.as_dvec3() - sweep.c1.as_dvec3()) * t as f64;
        let body_point = random_unit(&mut rng) * 3.0;
        let exact = c + q * (body_point.as_dvec3() - sweep.local_center.as_dvec3());
        let got = xf.apply(body_point).as_dvec3();
        // f32 rounding of a 60 rad turn: the angle to ~4e-6 rad over 5 m arms, positions to 1e-5 at 100 m.
        assert!(got.distance(exact) < 1e-4, "{sweep:?} at {t}: {got} vs {exact}");
        assert!((xf.q.length() - 1.0).abs() < 1e-5);
    }
    let s = Sweep { local_center: Vec3::X, c1: Vec3::ZERO, c2: Vec3::Y, q1: Quat::IDENTITY, rotation: Vec3::Z * 7.0 };
    assert_eq!(s.transform_at(0.0).p, -Vec3::X);
    assert_eq!(s.transform_at(0.5).to_owned(), s.transform_at(0.5), "deterministic");
}

#[test]
fn transforms_invert() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for _ in 0..1000 {
        let (a, b) = (
            Transform::new(random_unit(&mut rng) * 10.0, random_quat(&mut rng)),
            Transform::new(random_unit(&mut rng) * 10.0, random_quat(&mut rng)),
        );
        let v = random_unit(&mut rng) * 2.0;
        assert!(a.inv_apply(a.apply(v)).distance(v) < 1e-5);
        let rel = a.inv_mul(b);
        assert!(a.apply(rel.apply(v)).distance(b.apply(v)) < 1e-4);
    }
}

fn random_shape(rng: &mut ChaCha8Rng) -> Shape {
    let c = random_unit(rng) * rng.random_range(0.0..2.0);
    match rng.random_range(0..5) {
        0 => Shape::Sphere(Sphere::new(c, rng.random_range(0.01..2.0)).unwrap()),
        1 => Shape::Capsule(Capsule::new(c, c + random_unit(rng) * 2.0, rng.random_range(0.01..1.0)).unwrap()),
        2 => Shape::Segment(Segment::new(c, c + random_unit(rng) * 2.0).unwrap()),
        3 => Shape::Triangle(
            Triangle::new(c, c + random_unit(rng) + Vec3::X * 0.1, c - random_unit(rng) + Vec3::Y * 0.1)
                .unwrap_or_else(|_| Triangle::new(Vec3::ZERO, Vec3::X, Vec3::Y).unwrap()),
        ),
        _ => Shape::Hull(
            make_offset_box(Vec3::new(0.3, 0.5, 0.7), c, random_quat(rng), rng.random_range(0.0..0.2)).unwrap(),
        ),
    }
}

/// The distance (f64) from `p` to the shape's core points' convex hull is hard in general;
/// the box is checked against points sampled on the shape's surface instead: every sampled
/// surface point inside, and the box's faces touched by the extreme samples.
#[test]
fn aabbs_hold_the_shape_and_no_more() {
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    for _ in 0..2000 {
        let shape = random_shape(&mut rng);
        let xf = Transform::new(random_unit(&mut rng) * rng.random_range(0.0..1e3), random_quat(&mut rng));
        let aabb = shape.aabb(xf);
        let core: Vec<DVec3> = shape.core_points().iter().map(|p| xf.apply(*p).as_dvec3()).collect();
        let r = shape.radius() as f64;
        let (mut lo, mut hi) = (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY));
        for p in &core {
            lo = lo.min(*p - DVec3::splat(r));
            hi = hi.max(*p + DVec3::splat(r));
        }
        let tol = 1e-6 * (1.0 + hi.abs().max_element());
        assert!((aabb.min.as_dvec3() - lo).abs().max_element() < tol * 10.0, "{aabb:?} vs {lo} {hi}");
        assert!((aabb.max.as_dvec3() - hi).abs().max_element() < tol * 10.0, "{aabb:?} vs {lo} {hi}");
    }
}

#[test]
fn aabb_ray_casts_match_dense_sampling() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut hits = 0;
    for _ in 0..3000 {
        let min = random_unit(&mut rng) * 2.0;
        let aabb = Aabb::new(
            min,
            min + Vec3::new(rng.random_range(0.1..2.0), rng.random_range(0.1..2.0), rng.random_range(0.1..2.0)),
        );
        let origin = random_unit(&mut rng) * rng.random_range(0.0..6.0);
        let toward = (aabb.min + aabb.max) * 0.5 - origin;
        let translation = toward * rng.random_range(0.5..2.0) + random_unit(&mut rng) * rng.random_range(0.0..2.0);
        let got = aabb.ray_cast(origin, translation, 1.0);
        // The first of 20,000 samples inside.
        let inside = |f: f32| {
            let p = origin + translation * f;
            p.cmpge(aabb.min).all() && p.cmple(aabb.max).all()
        };
        let first = (0..=20_000).map(|i| i as f32 / 20_000.0).find(|&f| inside(f));
        match (got, first) {
            (Some(f), Some(s)) => {
                hits += 1;
                assert!(f <= s + 1e-6 && s - f <= 1.0 / 20_000.0 + 1e-6, "{f} vs sampled {s}");
            }
            (None, Some(s)) => panic!("missed: inside at {s}"),
            (Some(f), None) => assert!(inside(f) || (0..=10).any(|k| inside(f + k as f32 * 1e-6)), "hit {f} outside"),
            (None, None) => {}
        }
    }
    assert!(hits > 500, "{hits}");
}

#[test]
fn constructors_refuse_bad_input_with_its_reason() {
    assert!(matches!(Sphere::new(Vec3::NAN, 1.0), Err(GeometryError::NonFinite { .. })));
    assert!(matches!(Sphere::new(Vec3::ZERO, 0.0), Err(GeometryError::InvalidRadius { .. })));
    assert!(matches!(Sphere::new(Vec3::splat(2e9), 1.0), Err(GeometryError::TooLarge { .. })));
    assert!(matches!(Capsule::new(Vec3::ZERO, Vec3::splat(0.001), 1.0), Err(GeometryError::DegenerateSegment { .. })));
    assert!(matches!(Segment::new(Vec3::ZERO, Vec3::ZERO), Err(GeometryError::DegenerateSegment { .. })));
    assert!(matches!(Triangle::new(Vec3::ZERO, Vec3::X, Vec3::X * 2.0), Err(GeometryError::DegenerateTriangle { .. })));
    let far = Vec3::splat(1e6);
    assert!(Triangle::new(far, far + Vec3::X, far + Vec3::Y).is_ok(), "judged from differences in f64");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]
    #[test]
    fn simple_shapes_refuse_or_build_finite(x in prop::num::f32::ANY, y in prop::num::f32::ANY, r in prop::num::f32::ANY) {
        let p = Vec3::new(x, y, 1.0);
        for shape in [
            Sphere::new(p, r).map(Shape::Sphere),
            Capsule::new(p, Vec3::ZERO, r).map(Shape::Capsule),
            Segment::new(p, Vec3::Z).map(Shape::Segment),
            Triangle::new(p, Vec3::Z, Vec3::X).map(Shape::Triangle),
        ].into_iter().flatten() {
            let aabb = shape.aabb(Transform::IDENTITY);
            prop_assert!(aabb.min.is_finite() && aabb.max.is_finite());
            let m = shape.mass(1.0);
            prop_assert!(m.center.is_finite() && m.mass.is_finite() || m.mass == f32::INFINITY);
        }
    }
}

/// The swept-AABB time of impact against dense sampling of the relative motion.
#[test]
fn swept_aabbs_first_touch_as_sampled() {
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let (mut hits, mut separated) = (0, 0);
    for _ in 0..3000 {
        let boxed = |rng: &mut ChaCha8Rng, at: Vec3| {
            let h = Vec3::new(rng.random_range(0.05..1.0), rng.random_range(0.05..1.0), rng.random_range(0.05..1.0));
            Aabb::new(at - h, at + h)
        };
        let (at_a, at_b) = (random_unit(&mut rng) * 3.0, random_unit(&mut rng) * 3.0);
        let (a, b) = (boxed(&mut rng, at_a), boxed(&mut rng, at_b));
        // B driven toward A (most of the time), A drifting.
        let toward = (a.min + a.max - b.min - b.max) * 0.5;
        let aim = if rng.random_bool(0.7) { toward * rng.random_range(0.5..2.0) } else { Vec3::ZERO };
        let (da, db) = (
            random_unit(&mut rng) * rng.random_range(0.0..1.0),
            aim + random_unit(&mut rng) * rng.random_range(0.0..2.0),
        );
        let out = aabb_time_of_impact(&a, da, &b, db).unwrap();
        let at = |t: f32| {
            let (ma, mb) = (Aabb::new(a.min + da * t, a.max + da * t), Aabb::new(b.min + db * t, b.max + db * t));
            ma.overlaps(&mb)
        };
        let first = (0..=20_000).map(|i| i as f32 / 20_000.0).find(|&t| at(t));
        match (out.state, first) {
            (AabbToiState::Overlapped, Some(t)) => assert_eq!(t, 0.0),
            (AabbToiState::Hit, Some(t)) => {
                hits += 1;
                assert!(out.t <= t + 1e-5 && t - out.t <= 1.0 / 20_000.0 + 1e-5, "{out:?} vs sampled {t}");
            }
            (AabbToiState::Hit, None) => {
                assert!(at(out.t) || at(out.t + 1e-6), "{out:?} hit, never touching when sampled")
            }
            (AabbToiState::Separated, None) => separated += 1,
            (state, first) => panic!("{state:?} vs sampled {first:?}"),
        }
    }
    assert!(hits > 200 && separated > 200, "{hits} {separated}");
    assert!(
        aabb_time_of_impact(&Aabb::new(Vec3::ZERO, Vec3::ONE), Vec3::NAN, &Aabb::new(Vec3::ONE, Vec3::ONE), Vec3::ZERO)
            .is_err()
    );
}
