//! Mass properties against closed forms (boxes, spheres, capsules) and against an
//! independent Monte Carlo integration in f64 (random hulls, rounded hulls, capsules), on
//! seeded cases. The Monte Carlo reference classifies points by brute force: inside a sharp
//! hull when below every face plane; inside a rounded hull when within the radius of the
//! polyhedron (the distance to it computed face by face and edge by edge).

use glam::{DMat3, DVec3};
use impact3d::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn close(a: f64, b: f64, relative: f64) -> bool {
    (a - b).abs() <= relative * b.abs().max(1e-12)
}

#[test]
fn boxes_spheres_and_capsules_match_their_closed_forms() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for _ in 0..200 {
        let h = Vec3::new(rng.random_range(0.1..3.0), rng.random_range(0.1..3.0), rng.random_range(0.1..3.0));
        let density = rng.random_range(0.1..1000.0f32);
        let m = Shape::Hull(make_box(h).unwrap()).mass(density);
        let mass = 8.0 * (h.x * h.y * h.z) as f64 * density as f64;
        assert!(close(m.mass as f64, mass, 1e-6), "{m:?}");
        let (x2, y2, z2) = ((h.x * h.x) as f64, (h.y * h.y) as f64, (h.z * h.z) as f64);
        let expected = DVec3::new(y2 + z2, x2 + z2, x2 + y2) * (mass / 3.0);
        let i = m.inertia.as_dmat3();
        assert!(
            close(i.x_axis.x, expected.x, 1e-5)
                && close(i.y_axis.y, expected.y, 1e-5)
                && close(i.z_axis.z, expected.z, 1e-5),
            "{i:?} vs {expected:?}"
        );
        assert!(i.x_axis.y.abs() < 1e-5 * expected.max_element() && m.center.length() < 1e-5);

        let r = rng.random_range(0.05..2.0f32);
        let c = Vec3::new(rng.random_range(-5.0..5.0), 1.0, -2.0);
        let s = Shape::Sphere(Sphere::new(c, r).unwrap()).mass(density);
        let mass = 4.0 / 3.0 * std::f64::consts::PI * (r as f64).powi(3) * density as f64;
        assert!(close(s.mass as f64, mass, 1e-6) && s.center == c);
        assert!(close(s.inertia.x_axis.x as f64, 0.4 * mass * (r * r) as f64, 1e-5));

        // A capsule along z: cylinder plus ball, the textbook formulas.
        let (l, r) = (rng.random_range(0.1..3.0f32), rng.random_range(0.05..1.0f32));
        let cap = Shape::Capsule(Capsule::new(Vec3::new(0.0, 0.0, -l / 2.0), Vec3::new(0.0, 0.0, l / 2.0), r).unwrap());
        let m = cap.mass(density);
        let (l, r, rho) = (l as f64, r as f64, density as f64);
        let (mc, ms) = (std::f64::consts::PI * r * r * l * rho, 4.0 / 3.0 * std::f64::consts::PI * r.powi(3) * rho);
        let axial = mc * r * r / 2.0 + ms * 0.4 * r * r;
        let hemi = ms / 2.0;
        let across = mc * (3.0 * r * r + l * l) / 12.0
            + 2.0 * (hemi * (83.0 / 320.0) * r * r + hemi * (l / 2.0 + 3.0 * r / 8.0).powi(2));
        assert!(close(m.mass as f64, mc + ms, 1e-6));
        assert!(close(m.inertia.z_axis.z as f64, axial, 1e-5), "{} vs {axial}", m.inertia.z_axis.z);
        assert!(close(m.inertia.x_axis.x as f64, across, 1e-5), "{} vs {across}", m.inertia.x_axis.x);
    }
}

/// The distance from `p` to the sharp polyhedron `hull` (0 inside), brute force.
fn distance_to_polyhedron(hull: &Hull, p: DVec3) -> f64 {
    let v: Vec<DVec3> = hull.vertices().iter().map(|v| v.as_dvec3()).collect();
    let above =
        hull.faces().iter().map(|f| f.normal.as_dvec3().dot(p) - f.offset as f64).fold(f64::NEG_INFINITY, f64::max);
    if above <= 0.0 {
        return 0.0;
    }
    let mut best = f64::INFINITY;
    for (i, f) in hull.faces().iter().enumerate() {
        let n = f.normal.as_dvec3();
        let corners = hull.face_loop(i);
        // Foot on the plane inside the polygon: the plane distance.
        let foot = p - n * (n.dot(p) - f.offset as f64);
        let inside = (0..corners.len()).all(|k| {
            let (a, b) = (v[corners[k]], v[corners[(k + 1) % corners.len()]]);
            (b - a).cross(foot - a).dot(n) >= 0.0
        });
        if inside {
            best = best.min((n.dot(p) - f.offset as f64).abs());
        }
        for k in 0..corners.len() {
            let (a, b) = (v[corners[k]], v[corners[(k + 1) % corners.len()]]);
            let t = ((p - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
            best = best.min(p.distance(a + (b - a) * t));
        }
    }
    best
}

/// Monte Carlo mass properties (unit density) of the set `inside` within `bounds`.
fn monte_carlo(
    rng: &mut ChaCha8Rng,
    bounds: (DVec3, DVec3),
    samples: usize,
    inside: impl Fn(DVec3) -> bool,
) -> (f64, DVec3, DMat3) {
    let (lo, hi) = bounds;
    let box_volume = (hi - lo).x * (hi - lo).y * (hi - lo).z;
    let (mut count, mut first, mut second) = (0usize, DVec3::ZERO, DMat3::ZERO);
    for _ in 0..samples {
        let p = lo
            + (hi - lo)
                * DVec3::new(rng.random_range(0.0..1.0), rng.random_range(0.0..1.0), rng.random_range(0.0..1.0));
        if inside(p) {
            count += 1;
            first += p;
            second += DMat3::from_cols(p * p.x, p * p.y, p * p.z);
        }
    }
    let volume = box_volume * count as f64 / samples as f64;
    let center = first / count as f64;
    let central = second * (volume / count as f64)
        - DMat3::from_cols(center * center.x, center * center.y, center * center.z) * volume;
    let trace = central.x_axis.x + central.y_axis.y + central.z_axis.z;
    (volume, center, DMat3::from_diagonal(DVec3::splat(trace)) - central)
}

fn random_hull(rng: &mut ChaCha8Rng, radius: f32) -> Hull {
    loop {
        let count = rng.random_range(5..30);
        let scale = Vec3::new(rng.random_range(0.3..2.0), rng.random_range(0.3..2.0), rng.random_range(0.3..2.0));
        let offset = Vec3::new(rng.random_range(-3.0..3.0), rng.random_range(-3.0..3.0), rng.random_range(-3.0..3.0));
        let points: Vec<Vec3> = (0..count)
            .map(|_| {
                offset
                    + Vec3::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0))
                        * scale
            })
            .collect();
        if let Ok(h) = Hull::rounded(&points, radius) {
            return h;
        }
    }
}

/// Mass, center and inertia against Monte Carlo (400,000 samples: about 0.3 % on the
/// volume): sharp hulls within 1.5 %, rounded hulls (radius up to a fifth of the size) within
/// 1.5 % for mass and center and 3 % for inertia (the vertex sectors' approximation).
#[test]
fn hulls_sharp_and_rounded_match_monte_carlo() {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    for case in 0..12 {
        let radius = if case % 2 == 0 { 0.0 } else { rng.random_range(0.05..0.3) };
        let hull = random_hull(&mut rng, radius);
        let m = Shape::Hull(hull.clone()).mass(1.0);
        let aabb = Shape::Hull(hull.clone()).aabb(Transform::IDENTITY);
        let bounds = (aabb.min.as_dvec3(), aabb.max.as_dvec3());
        let r = radius as f64;
        let (volume, center, inertia) =
            monte_carlo(&mut rng, bounds, 400_000, |p| distance_to_polyhedron(&hull, p) <= r);
        let size = (bounds.1 - bounds.0).length();
        let inertia_tolerance = if radius > 0.0 { 0.03 } else { 0.015 };
        assert!(close(m.mass as f64, volume, 0.015), "case {case}: mass {} vs {volume}", m.mass);
        assert!(m.center.as_dvec3().distance(center) < 0.01 * size, "case {case}: center {} vs {center}", m.center);
        let i = m.inertia.as_dmat3();
        let scale = inertia.x_axis.x.max(inertia.y_axis.y).max(inertia.z_axis.z);
        for (a, b) in [(i.x_axis, inertia.x_axis), (i.y_axis, inertia.y_axis), (i.z_axis, inertia.z_axis)] {
            assert!(
                (a - b).abs().max_element() < inertia_tolerance * scale,
                "case {case}: inertia {i:?} vs {inertia:?}"
            );
        }
    }
}

#[test]
fn bad_densities_give_massless_shapes_at_their_centroid() {
    let b = Shape::Hull(make_offset_box(Vec3::ONE, Vec3::new(1.0, 2.0, 3.0), Quat::IDENTITY, 0.0).unwrap());
    for density in [0.0, -1.0, f32::NAN, f32::INFINITY] {
        let m = b.mass(density);
        assert_eq!((m.mass, m.inertia), (0.0, Mat3::ZERO));
        assert!(m.center.distance(Vec3::new(1.0, 2.0, 3.0)) < 1e-5);
    }
}
