//! `penetration` (EPA in 3D) against the brute-force f64 reference of `support/mod.rs` on
//! seeded overlapping and nearly touching pairs: `None` exactly for pairs apart, the exact
//! depth (cores' depth plus the radii, or the radii minus the cores' distance), a unit normal,
//! and B moved out by depth × normal left touching. Tolerance: 16 f32 spacings of the largest
//! coordinate met, and as much again of the depth (the support points' round-off).

mod support;

use glam::DVec3;
use impact3d::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use support::{core_depth, core_distance, random_unit};

fn random_proxy(rng: &mut ChaCha8Rng, size: f32) -> ShapeProxy {
    let count = [1, 2, 3, 4, 6, 8][rng.random_range(0..6)];
    let points: Vec<Vec3> = if count == 8 && rng.random_bool(0.5) {
        let h = Vec3::new(rng.random_range(0.1..1.0), rng.random_range(0.1..1.0), rng.random_range(0.1..1.0)) * size;
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
        (0..count).map(|_| random_unit(rng) * (size * rng.random_range(0.2..1.0))).collect()
    };
    let radius = if count <= 2 || rng.random_bool(0.3) { rng.random_range(0.05..0.4) * size } else { 0.0 };
    ShapeProxy::new(&points, radius).unwrap()
}

/// The exact signed gap (negative: depth) between the surfaces.
fn signed_gap(a: &[DVec3], ra: f64, b: &[DVec3], rb: f64) -> f64 {
    let d = core_distance(a, b);
    if d > 0.0 { d - ra - rb } else { -core_depth(a, b) - ra - rb }
}

#[test]
fn random_overlaps_match_the_brute_force_depth() {
    let mut rng = ChaCha8Rng::seed_from_u64(40);
    let (mut overlapping, mut apart, mut failures) = (0, 0, Vec::new());
    for case in 0..10_000 {
        let size = 10f32.powf(rng.random_range(-1.0..0.7));
        let (pa, pb) = (random_proxy(&mut rng, size), random_proxy(&mut rng, size));
        let base = if case % 5 == 4 { random_unit(&mut rng) * 5000.0 } else { Vec3::ZERO };
        let xa = Transform::new(base, Quat::from_axis_angle(random_unit(&mut rng), rng.random_range(-3.2..3.2)));
        let xb = Transform::new(
            base + random_unit(&mut rng) * size * rng.random_range(0.0..0.9),
            Quat::from_axis_angle(random_unit(&mut rng), rng.random_range(-3.2..3.2)),
        );
        let world = |p: &ShapeProxy, xf: Transform| -> Vec<DVec3> {
            p.points().iter().map(|v| xf.apply(*v).as_dvec3()).collect()
        };
        let (wa, wb) = (world(&pa, xa), world(&pb, xb));
        let (ra, rb) = (pa.radius() as f64, pb.radius() as f64);
        let exact = signed_gap(&wa, ra, &wb, rb);
        let spacing = f32::EPSILON as f64 * (2.0 * base.length() as f64 + 6.0 * size as f64);
        let tol = 16.0 * spacing + 16.0 * f32::EPSILON as f64 * exact.abs();
        let out = penetration(&DistanceInput { proxy_a: &pa, transform_a: xa, proxy_b: &pb, transform_b: xb }).unwrap();
        let fault = match out {
            None => {
                apart += 1;
                (exact < -tol).then(|| format!("None, exact depth {:e}", -exact))
            }
            Some(p) => {
                overlapping += 1;
                let moved: Vec<DVec3> = wb.iter().map(|v| *v + (p.normal * p.depth).as_dvec3()).collect();
                let after = signed_gap(&wa, ra, &moved, rb);
                if exact > tol {
                    Some(format!("{p:?} for shapes {exact:e} apart"))
                } else if (p.depth as f64 + exact).abs() > tol {
                    Some(format!("depth {} vs exact {:e}", p.depth, -exact))
                } else if (p.normal.length() - 1.0).abs() > 1e-4 || after.abs() > tol {
                    Some(format!("{p:?}: moved out, the gap is {after:e}"))
                } else {
                    None
                }
            }
        };
        if let Some(f) = fault {
            failures.push(format!("case {case}: {f}\n  a {pa:?} at {xa:?}\n  b {pb:?} at {xb:?}"));
        }
    }
    println!("{overlapping} overlapping, {apart} apart");
    assert!(overlapping > 5000 && apart > 500, "{overlapping} {apart}");
    assert!(failures.is_empty(), "{} failures; first:\n{}", failures.len(), failures[0]);
}

/// Found while building: a capsule barely overlapping a six-point hull had only three
/// distinct supports along the axes, no first tetrahedron, and got `None` for a depth of
/// 3.7 cm. Plus hostile transforms: an error or a finite answer.
#[test]
fn few_supports_and_hostile_input() {
    let pa = ShapeProxy::new(
        &[Vec3::new(-0.045194723, -0.042243786, -0.030930119), Vec3::new(-0.025685776, -0.030601056, 0.022926431)],
        0.01391153,
    )
    .unwrap();
    let pb = ShapeProxy::new(
        &[
            Vec3::new(-0.09087202, -0.09743118, 0.05909126),
            Vec3::new(0.03513623, 0.02385279, 0.0243915),
            Vec3::new(-0.024751823, -0.04478122, -0.0031116207),
            Vec3::new(0.0032592735, 0.0919025, -0.064444125),
            Vec3::new(0.049577087, 0.1094159, 0.092744894),
            Vec3::new(0.08746372, 0.057878148, 0.016187023),
        ],
        0.023103002,
    )
    .unwrap();
    let xa = Transform::new(
        Vec3::new(4537.244, 668.8765, 1991.486),
        Quat::from_xyzw(0.6665842, 0.02716633, 0.6005267, 0.4407893),
    );
    let xb = Transform::new(
        Vec3::new(4537.2544, 668.86945, 1991.4736),
        Quat::from_xyzw(-0.28137922, -0.39324623, 0.76456654, 0.42617026),
    );
    let p =
        penetration(&DistanceInput { proxy_a: &pa, transform_a: xa, proxy_b: &pb, transform_b: xb }).unwrap().unwrap();
    assert!((p.depth - 0.0372).abs() < 2e-3, "{p:?}");
    for bad in [f32::NAN, f32::INFINITY, 2e9] {
        let xb = Transform::new(Vec3::new(bad, 0.0, 0.0), Quat::IDENTITY);
        assert!(penetration(&DistanceInput { proxy_a: &pa, transform_a: xa, proxy_b: &pb, transform_b: xb }).is_err());
    }
}
