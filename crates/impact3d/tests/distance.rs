//! `shape_distance` (GJK in 3D) against the independent brute-force f64 reference of
//! `support/mod.rs` on seeded cases.
//!
//! Tolerance: 16 f32 spacings of the largest coordinate met, as in 2D.

#[path = "support/hostile.rs"]
mod hostile;
mod support;

use glam::DVec3;
use impact3d::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use support::{core_distance, random_unit};

fn random_proxy(rng: &mut ChaCha8Rng, size: f32) -> ShapeProxy {
    let count = match rng.random_range(0..6) {
        0 => 1,
        1 => 2,
        2 => 3,
        3 => 8,
        _ => rng.random_range(4..=8),
    };
    let points: Vec<Vec3> = if count == 8 && rng.random_bool(0.5) {
        // A box.
        let h = Vec3::new(rng.random_range(0.05..1.0), rng.random_range(0.05..1.0), rng.random_range(0.05..1.0)) * size;
        (0..8)
            .map(|i| {
                Vec3::new(
                    if i & 1 == 0 { -h.x } else { h.x },
                    if i & 2 == 0 { -h.y } else { h.y },
                    if i & 4 == 0 { -h.z } else { h.z },
                )
            })
            .collect()
    } else {
        (0..count).map(|_| random_unit(rng) * (size * rng.random_range(0.1..1.0))).collect()
    };
    let radius = if rng.random_bool(0.4) { rng.random_range(0.0..0.3) * size } else { 0.0 };
    ShapeProxy::new(&points, radius).unwrap()
}

fn spacing(xa: Transform, xb: Transform, pa: &ShapeProxy, pb: &ShapeProxy) -> f64 {
    let extent = |p: &ShapeProxy| p.points().iter().fold(0.0f64, |m, v| m.max(v.length() as f64)) + p.radius() as f64;
    f32::EPSILON as f64
        * (xa.p.length() as f64 + xb.p.length() as f64 + xa.p.distance(xb.p) as f64 + extent(pa) + extent(pb))
}

#[test]
fn random_pairs_match_the_brute_force_distance() {
    let mut rng = ChaCha8Rng::seed_from_u64(20);
    let (mut apart, mut overlapping, mut failures) = (0, 0, Vec::new());
    let mut worst = 0.0f64;
    for case in 0..10_000 {
        let size = 10f32.powf(rng.random_range(-1.5..1.0));
        let (pa, pb) = (random_proxy(&mut rng, size), random_proxy(&mut rng, size));
        let base = if case % 5 == 4 { random_unit(&mut rng) * 5000.0 } else { Vec3::ZERO };
        let xa = Transform::new(
            base + random_unit(&mut rng) * size,
            Quat::from_axis_angle(random_unit(&mut rng), rng.random_range(-3.2..3.2)),
        );
        let reach = 2.2 * size;
        let xb = Transform::new(
            xa.p + random_unit(&mut rng) * (reach * rng.random_range(0.05..1.5)),
            Quat::from_axis_angle(random_unit(&mut rng), rng.random_range(-3.2..3.2)),
        );
        let to_world = |p: &ShapeProxy, xf: Transform| -> Vec<DVec3> {
            p.points().iter().map(|v| xf.apply(*v).as_dvec3()).collect()
        };
        let (wa, wb) = (to_world(&pa, xa), to_world(&pb, xb));
        let exact = (core_distance(&wa, &wb) - pa.radius() as f64 - pb.radius() as f64).max(0.0);
        let out = shape_distance(
            &DistanceInput { proxy_a: &pa, transform_a: xa, proxy_b: &pb, transform_b: xb },
            &mut SimplexCache::default(),
        )
        .unwrap();
        let tol = 16.0 * spacing(xa, xb, &pa, &pb);
        let error = (out.distance as f64 - exact).abs();
        worst = worst.max(error / tol * 16.0);
        if exact > tol {
            apart += 1;
        } else {
            overlapping += 1;
        }
        let mut fault = None;
        if error > tol {
            fault = Some(format!("distance {} vs exact {exact}", out.distance));
        } else if out.distance > 0.0 {
            let n = out.normal.as_dvec3();
            let joined = (out.point_b.as_dvec3() - out.point_a.as_dvec3() - n * out.distance as f64).length();
            if (n.length() - 1.0).abs() > 1e-5 || joined > tol {
                fault = Some(format!("normal {n}, points joined to {joined:e}"));
            }
            // The points lie on the surfaces: within the radius of the core (brute force).
            let on = |p: Vec3, w: &[DVec3], r: f32| (core_distance(w, &[p.as_dvec3()]) - r as f64).abs();
            let (sa, sb) = (on(out.point_a, &wa, pa.radius()), on(out.point_b, &wb, pb.radius()));
            if sa.max(sb) > tol {
                fault = Some(format!("points off their surfaces by {sa:e}, {sb:e}"));
            }
        }
        if let Some(f) = fault {
            failures.push(format!("case {case}: {f}\n  a {pa:?} at {xa:?}\n  b {pb:?} at {xb:?}\n  {out:?}"));
        }
    }
    println!("{apart} apart, {overlapping} overlapping or touching; worst error {worst:.2} f32 spacings");
    assert!(apart > 4000 && overlapping > 1000, "{apart} {overlapping}");
    assert!(failures.is_empty(), "{} failures; first:\n{}", failures.len(), failures[0]);
}

/// A warm cache from a nearby pose gives the cold answer.
#[test]
fn warm_starts_give_the_cold_answer() {
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    for _ in 0..3000 {
        let (pa, pb) = (random_proxy(&mut rng, 1.0), random_proxy(&mut rng, 1.0));
        let xa = Transform::new(Vec3::ZERO, Quat::from_axis_angle(random_unit(&mut rng), rng.random_range(-3.2..3.2)));
        let xb = Transform::new(
            random_unit(&mut rng) * rng.random_range(1.0..4.0),
            Quat::from_axis_angle(random_unit(&mut rng), 1.0),
        );
        let moved = Transform::new(xb.p + random_unit(&mut rng) * 0.1, xb.q * Quat::from_axis_angle(Vec3::Z, 0.2));
        let mut cache = SimplexCache::default();
        shape_distance(&DistanceInput { proxy_a: &pa, transform_a: xa, proxy_b: &pb, transform_b: moved }, &mut cache)
            .unwrap();
        let input = DistanceInput { proxy_a: &pa, transform_a: xa, proxy_b: &pb, transform_b: xb };
        let warm = shape_distance(&input, &mut cache).unwrap();
        let cold = shape_distance(&input, &mut SimplexCache::default()).unwrap();
        assert!((warm.distance - cold.distance).abs() < 1e-5, "{warm:?} vs {cold:?}");
    }
}

#[test]
fn invalid_transforms_are_refused() {
    let p = ShapeProxy::new(&[Vec3::ZERO], 1.0).unwrap();
    let bad = Transform::new(Vec3::NAN, Quat::IDENTITY);
    let input = DistanceInput { proxy_a: &p, transform_a: bad, proxy_b: &p, transform_b: Transform::IDENTITY };
    assert!(shape_distance(&input, &mut SimplexCache::default()).is_err());
    let skew = Transform::new(Vec3::ZERO, Quat::from_xyzw(0.0, 0.0, 0.0, 2.0));
    let input = DistanceInput { proxy_a: &p, transform_a: skew, proxy_b: &p, transform_b: Transform::IDENTITY };
    assert!(shape_distance(&input, &mut SimplexCache::default()).is_err());
    assert!(ShapeProxy::new(&[], 0.0).is_err() && ShapeProxy::new(&[Vec3::INFINITY], 0.0).is_err());
    assert!(ShapeProxy::new(&[Vec3::ZERO], -1.0).is_err());
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(3000))]
    /// Any transforms: an error, or a finite answer.
    #[test]
    fn hostile_transforms_give_an_error_or_a_finite_answer(v in proptest::collection::vec(hostile::hostile(), 14)) {
        let p = ShapeProxy::new(&[Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z], 0.1).unwrap();
        let q = ShapeProxy::new(&[Vec3::new(v[0], v[1], v[2]).clamp(Vec3::splat(-1e9), Vec3::splat(1e9))], 0.0);
        let q = q.unwrap_or_else(|_| p.clone());
        let xa = Transform::new(Vec3::new(v[3], v[4], v[5]), Quat::from_xyzw(v[6], v[7], v[8], v[9]));
        let xb = Transform::new(Vec3::new(v[10], v[11], v[12]), Quat::from_axis_angle(Vec3::Z, v[13]));
        if let Ok(out) = shape_distance(&DistanceInput { proxy_a: &p, transform_a: xa, proxy_b: &q, transform_b: xb }, &mut SimplexCache::default()) {
            proptest::prop_assert!(out.distance.is_finite() && out.point_a.is_finite() && out.point_b.is_finite() && out.normal.is_finite());
        }
    }
}
