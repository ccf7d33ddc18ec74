//! `polytope_sat` against the brute-force f64 reference of `support/mod.rs` on seeded pairs of
//! sharp hulls (boxes and random hulls of 4 to 8 points), 10,000 of them: for overlapping
//! cores minus the separation is the exact penetration depth (so the Gauss-map pruning never
//! drops the axis of least penetration); for cores apart the separation is positive and at
//! most their distance (a separating axis is always found, and it is a lower bound). The
//! tolerance adds how far the hulls' merged faces stray from their planes.

mod support;

use glam::DVec3;
use impact3d::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use support::{core_depth, core_distance, random_unit};

fn random_hull(rng: &mut ChaCha8Rng) -> Hull {
    if rng.random_bool(0.4) {
        return make_box(Vec3::new(rng.random_range(0.1..1.0), rng.random_range(0.1..1.0), rng.random_range(0.1..1.0)))
            .unwrap();
    }
    loop {
        let points: Vec<Vec3> =
            (0..rng.random_range(4..=8)).map(|_| random_unit(rng) * rng.random_range(0.2..1.0)).collect();
        if let Ok(h) = Hull::new(&points) {
            return h;
        }
    }
}

#[test]
fn sat_gives_the_exact_depth_and_a_lower_bound_of_the_distance() {
    let mut rng = ChaCha8Rng::seed_from_u64(60);
    let (mut overlapping, mut apart, mut failures) = (0, 0, Vec::new());
    for case in 0..10_000 {
        let (a, b) = (random_hull(&mut rng), random_hull(&mut rng));
        let base = if case % 5 == 4 { random_unit(&mut rng) * 5000.0 } else { Vec3::ZERO };
        let xa = Transform::new(base, Quat::from_axis_angle(random_unit(&mut rng), rng.random_range(-3.2..3.2)));
        let xb = Transform::new(
            base + random_unit(&mut rng) * rng.random_range(0.0..2.5),
            Quat::from_axis_angle(random_unit(&mut rng), rng.random_range(-3.2..3.2)),
        );
        let world =
            |h: &Hull, xf: Transform| -> Vec<DVec3> { h.vertices().iter().map(|v| xf.apply(*v).as_dvec3()).collect() };
        let (wa, wb) = (world(&a, xa), world(&b, xb));
        let (distance, depth) = (core_distance(&wa, &wb), core_depth(&wa, &wb));
        // Merged faces lie within half the linear slop of their planes (documented): their
        // normals stand for the exact triangles' to within that.
        let flatness = |h: &Hull| {
            (0..h.faces().len())
                .map(|i| {
                    let f = h.faces()[i];
                    h.face_loop(i)
                        .iter()
                        .map(|&k| (f.offset - f.normal.dot(h.vertices()[k])) as f64)
                        .fold(0.0, f64::max)
                })
                .fold(0.0, f64::max)
        };
        let tol = 16.0 * f32::EPSILON as f64 * (2.0 * base.length() as f64 + 6.0) + flatness(&a) + flatness(&b);
        let out = polytope_sat(&a, xa, &b, xb).unwrap();
        let s = out.separation as f64;
        let fault = if (out.axis.length() - 1.0).abs() > 1e-4 {
            Some("axis not unit".to_owned())
        } else if depth > tol {
            overlapping += 1;
            ((s + depth).abs() > tol).then(|| format!("separation {s:e}, exact depth {depth:e}"))
        } else if distance > tol {
            apart += 1;
            (s <= 0.0 || s > distance + tol).then(|| format!("separation {s:e}, distance {distance:e}"))
        } else {
            None
        };
        if let Some(f) = fault {
            failures.push(format!(
                "case {case}: {f} ({:?})\n  a {:?}\n  b {:?} at {xb:?}",
                out.feature,
                a.vertices(),
                b.vertices()
            ));
        }
    }
    println!("{overlapping} overlapping, {apart} apart");
    assert!(overlapping > 3000 && apart > 3000, "{overlapping} {apart}");
    assert!(failures.is_empty(), "{} failures; first:\n{}", failures.len(), failures[0]);
}

#[test]
fn bad_transforms_are_refused() {
    let b = make_box(Vec3::ONE).unwrap();
    assert!(polytope_sat(&b, Transform::new(Vec3::NAN, Quat::IDENTITY), &b, Transform::IDENTITY).is_err());
    assert!(
        polytope_sat(&b, Transform::IDENTITY, &b, Transform::new(Vec3::ZERO, Quat::from_xyzw(0.0, 0.0, 0.0, 2.0)))
            .is_err()
    );
}
