//! `shape_cast` and `ray_cast` in 3D against the brute-force f64 reference of
//! `support/mod.rs`, on seeded cases: the gap along the motion is the exact distance of the
//! cores (minus the radii), searched by conservative advancement in f64 (it cannot step over
//! a dip: the gap changes at most as fast as B moves). A hit's gap lies in the band to the
//! documented precision (16 f32 spacings of the largest coordinate met, the motion included),
//! with no dip below the band before it; a miss leaves no dip below the band.

mod support;

use glam::DVec3;
use impact3d::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use support::{core_distance, random_unit};

fn random_shape(rng: &mut ChaCha8Rng, size: f32) -> Shape {
    let c = random_unit(rng) * size * rng.random_range(0.0..0.5);
    match rng.random_range(0..6) {
        0 => Shape::Sphere(Sphere::new(c, size * rng.random_range(0.1..1.0)).unwrap()),
        1 => Shape::Capsule(Capsule::new(c, c + random_unit(rng) * size, size * rng.random_range(0.05..0.5)).unwrap()),
        2 => Shape::Hull(
            make_offset_box(Vec3::new(0.5, 0.3, 0.2) * size, c, Quat::from_axis_angle(random_unit(rng), 1.0), 0.0)
                .unwrap(),
        ),
        3 => Shape::Hull(
            make_offset_box(Vec3::new(0.4, 0.4, 0.1) * size, c, Quat::IDENTITY, size * rng.random_range(0.02..0.3))
                .unwrap(),
        ),
        4 => {
            let points: Vec<Vec3> = (0..8).map(|_| c + random_unit(rng) * size * rng.random_range(0.3..1.0)).collect();
            Shape::Hull(Hull::new(&points).unwrap_or_else(|_| make_box(Vec3::splat(size * 0.3)).unwrap()))
        }
        _ => Shape::Triangle(Triangle::new(c, c + Vec3::X * size, c + Vec3::new(0.2, 0.9, 0.3) * size).unwrap()),
    }
}

/// The exact gap (f64) between the surfaces of A at `xa` and B at `xb`.
fn gap(a: &Shape, xa: Transform, b: &Shape, xb: Transform) -> f64 {
    let world =
        |s: &Shape, xf: Transform| -> Vec<DVec3> { s.core_points().iter().map(|p| xf.apply(*p).as_dvec3()).collect() };
    core_distance(&world(a, xa), &world(b, xb)) - a.radius() as f64 - b.radius() as f64
}

/// The first fraction in [0, end) with the gap at or below `below` (conservative advancement:
/// the gap changes at most |translation| per unit fraction), or None.
fn first_dip(f: impl Fn(f64) -> f64, speed: f64, below: f64, end: f64) -> Option<f64> {
    let mut t = 0.0;
    for _ in 0..200_000 {
        let g = f(t);
        if g <= below {
            return (t < end).then_some(t);
        }
        if speed <= 0.0 {
            return None;
        }
        t += (g - below).max(1e-9 * speed) / speed;
        if t >= end {
            return None;
        }
    }
    None
}

/// The hits, misses and faults of a seeded test.
#[derive(Default)]
struct Tally {
    hits: usize,
    misses: usize,
    failures: Vec<String>,
}

impl Tally {
    fn count(&mut self, hit: bool) {
        if hit {
            self.hits += 1;
        } else {
            self.misses += 1;
        }
    }

    fn fault(&mut self, fault: Option<String>) {
        self.failures.extend(fault);
    }

    /// Prints the counts; asserts more than `hits` hits and `misses` misses (the cases cover
    /// both) and no fault.
    fn check(&self, hits: usize, misses: usize) {
        println!("{} hits, {} misses", self.hits, self.misses);
        assert!(self.hits > hits && self.misses > misses, "{} {}", self.hits, self.misses);
        assert!(self.failures.is_empty(), "{} failures; first:\n{}", self.failures.len(), self.failures[0]);
    }
}

#[test]
fn shape_casts_stop_in_the_band_and_never_late() {
    let mut rng = ChaCha8Rng::seed_from_u64(30);
    let mut tally = Tally::default();
    for case in 0..10_000 {
        let size = 10f32.powf(rng.random_range(-1.0..0.7));
        let (a, b) = (random_shape(&mut rng, size), random_shape(&mut rng, size));
        let base = if case % 5 == 4 { random_unit(&mut rng) * 5000.0 } else { Vec3::ZERO };
        let xa = Transform::new(base, Quat::from_axis_angle(random_unit(&mut rng), rng.random_range(-3.2..3.2)));
        let start = base + random_unit(&mut rng) * size * rng.random_range(2.0..8.0);
        let xb = Transform::new(start, Quat::from_axis_angle(random_unit(&mut rng), rng.random_range(-3.2..3.2)));
        let translation =
            (base - start) * rng.random_range(0.3..2.5) + random_unit(&mut rng) * size * rng.random_range(0.0..1.5);
        let (pa, pb) = (ShapeProxy::from_shape(&a), ShapeProxy::from_shape(&b));
        let (target, tolerance) = (0.005, 0.00125);
        let input = ShapeCastInput {
            proxy_a: &pa,
            transform_a: xa,
            proxy_b: &pb,
            transform_b: xb,
            translation_b: translation,
            max_fraction: 1.0,
            target,
            tolerance,
        };
        let out = shape_cast(&input).unwrap();
        let at =
            |f: f64| gap(&a, xa, &b, Transform::new((start.as_dvec3() + translation.as_dvec3() * f).as_vec3(), xb.q));
        let extent = size as f64 * 3.0;
        let tol = 16.0
            * f32::EPSILON as f64
            * (2.0 * base.length() as f64 + translation.length() as f64 + (start - base).length() as f64 + extent);
        let (lo, hi) = ((target - tolerance) as f64, (target + tolerance) as f64);
        let speed = translation.length() as f64;
        let fault = match out {
            None => {
                tally.count(false);
                first_dip(at, speed, lo - tol, 1.0).map(|t| format!("missed: gap {:e} at {t}", at(t)))
            }
            Some(hit) => {
                tally.count(true);
                let f = hit.fraction as f64;
                let g = at(f);
                if g > hi + tol && hit.iterations < 32 {
                    Some(format!("hit {hit:?} with gap {g:e} above the band"))
                } else if f > 0.0 && g < lo - tol {
                    Some(format!("hit {hit:?} with gap {g:e} below the band"))
                } else {
                    first_dip(at, speed, lo - tol, f * (1.0 - 1e-6))
                        .map(|t| format!("late: {hit:?}, gap {:e} at {t}", at(t)))
                }
            }
        };
        tally.fault(
            fault.map(|f| format!("case {case}: {f}\n  a {a:?} at {xa:?}\n  b {b:?} at {xb:?} by {translation}")),
        );
    }
    tally.check(4000, 1000);
}

#[test]
fn ray_casts_hit_the_surface_first() {
    let mut rng = ChaCha8Rng::seed_from_u64(31);
    let mut tally = Tally::default();
    for case in 0..10_000 {
        let size = 10f32.powf(rng.random_range(-1.0..0.7));
        let shape = random_shape(&mut rng, size);
        let origin = random_unit(&mut rng) * size * rng.random_range(0.0..20.0);
        let aim = random_unit(&mut rng) * size * rng.random_range(0.0..1.2);
        let translation = (aim - origin) * rng.random_range(0.5..3.0);
        let input = RayCastInput {
            origin,
            translation,
            max_fraction: if case % 4 == 0 { rng.random_range(0.0..1.0) } else { 1.0 },
        };
        let (hit, fault) = judge_ray(&shape, &input, size);
        tally.count(hit);
        tally.fault(fault.map(|f| format!("case {case}: {f}\n  {shape:?}\n  {input:?}")));
    }
    tally.check(3000, 1000);
}

/// Boxes (by their slabs) and capsules (closed forms) against the f64 reference: boxes
/// axis-aligned and turned, capsules of every slant, near the origin and 5 km out, with rays
/// aimed at them, parallel to a box's faces or a capsule's axis, along its axis, grazing and
/// of zero length.
#[test]
fn box_and_capsule_rays_match_the_reference() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xb0c5);
    let mut tally = Tally::default();
    for case in 0..12_000 {
        let size = 10f32.powf(rng.random_range(-1.0..0.5));
        let far = if case % 2 == 1 { random_unit(&mut rng) * 5000.0 } else { Vec3::ZERO };
        let c = far + random_unit(&mut rng) * size * rng.random_range(0.0..0.5);
        let axis = random_unit(&mut rng) * size;
        let (shape, along) = match case % 4 {
            0 => (
                Shape::Hull(make_offset_box(Vec3::new(0.5, 0.3, 0.2) * size, c, Quat::IDENTITY, 0.0).unwrap()),
                Vec3::X,
            ),
            1 => {
                let q = Quat::from_axis_angle(random_unit(&mut rng), rng.random_range(-3.0..3.0));
                (Shape::Hull(make_offset_box(Vec3::new(0.2, 0.6, 0.4) * size, c, q, 0.0).unwrap()), q * Vec3::Z)
            }
            _ => (Shape::Capsule(Capsule::new(c - axis, c + axis, size * rng.random_range(0.05..0.5)).unwrap()), axis),
        };
        let origin = c + random_unit(&mut rng) * size * rng.random_range(0.0..6.0);
        let aim = c + random_unit(&mut rng) * size * rng.random_range(0.0..1.0);
        let translation = match (case / 4) % 8 {
            // Parallel to a face (or along a capsule's axis), through the shape's span.
            0 => along * rng.random_range(-4.0..4.0),
            1 => (aim - origin).reject_from(along) * 2.0,
            2 => Vec3::ZERO,
            _ => (aim - origin) * rng.random_range(0.5..3.0),
        };
        let input = RayCastInput { origin, translation, max_fraction: if case % 5 == 0 { 0.5 } else { 1.0 } };
        let (hit, fault) = judge_ray(&shape, &input, size);
        tally.count(hit);
        tally.fault(fault.map(|f| format!("case {case}: {f}\n  {shape:?}\n  {input:?}")));
    }
    tally.check(3000, 3000);
}

/// One ray cast judged against the f64 reference: whether it hit, and what is wrong with
/// its answer (a miss where the ray dips inside, a hit off the surface, late, with a bad
/// normal or fraction, or a start inside from outside), if anything.
fn judge_ray(shape: &Shape, input: &RayCastInput, size: f32) -> (bool, Option<String>) {
    let (origin, translation) = (input.origin, input.translation);
    let out = ray_cast(shape, input);
    let core: Vec<DVec3> = shape.core_points().iter().map(|p| p.as_dvec3()).collect();
    let sd = |p: DVec3| core_distance(&core, &[p]) - shape.radius() as f64;
    let at = |f: f64| sd(origin.as_dvec3() + translation.as_dvec3() * f);
    // A hull's merged faces lie within half the linear slop of their planes (documented):
    // the ray meets the plane, up to that far outside the vertices' exact hull.
    let flatness = match shape {
        Shape::Hull(h) => (0..h.faces().len())
            .map(|i| {
                let f = h.faces()[i];
                h.face_loop(i).iter().map(|&k| (f.offset - f.normal.dot(h.vertices()[k])) as f64).fold(0.0, f64::max)
            })
            .fold(0.0, f64::max),
        _ => 0.0,
    };
    let tol = 16.0 * f32::EPSILON as f64 * (origin.length() as f64 + translation.length() as f64 + 3.0 * size as f64)
        + flatness;
    let speed = translation.length() as f64;
    let thin = matches!(shape, Shape::Triangle(_));
    let end = input.max_fraction as f64;
    let Some(hit) = out else {
        // A flat triangle has no inside: a miss is wrong only where the ray clearly pierces
        // it, which the dip test cannot see; judged by the hit side instead.
        let fault = if thin { None } else { first_dip(at, speed, -tol, end).map(|t| format!("missed: inside at {t}")) };
        return (false, fault);
    };
    let p = hit.point.as_dvec3();
    let fault = if !(hit.point.is_finite() && hit.normal.is_finite() && hit.fraction.is_finite()) {
        Some(format!("{hit:?}: not finite"))
    } else if hit.fraction == 0.0 && hit.normal == Vec3::ZERO {
        (sd(origin.as_dvec3()) > tol)
            .then(|| format!("started inside, but the origin is {:e} out", sd(origin.as_dvec3())))
    } else if sd(p).abs() > tol || p.distance(origin.as_dvec3() + translation.as_dvec3() * hit.fraction as f64) > tol {
        Some(format!("{hit:?}: point {:e} off the surface", sd(p)))
    } else if (hit.normal.length() - 1.0).abs() > 1e-4 || !(0.0..=end as f32).contains(&hit.fraction) {
        Some(format!("{hit:?}: bad normal or fraction"))
    } else if thin {
        None
    } else {
        first_dip(at, speed, -tol, hit.fraction as f64 * (1.0 - 1e-6)).map(|t| format!("late {hit:?}: inside at {t}"))
    };
    (true, fault)
}

#[test]
fn box_and_capsule_rays_never_answer_nan() {
    let shapes = [
        Shape::Hull(make_box(Vec3::new(1.0, 0.5, 0.25)).unwrap()),
        Shape::Hull(make_offset_box(Vec3::ONE, Vec3::splat(3.0), Quat::from_rotation_x(0.7), 0.0).unwrap()),
        Shape::Capsule(Capsule::new(Vec3::new(-1.0, 0.0, 0.0), Vec3::new(1.0, 0.2, 0.0), 0.3).unwrap()),
    ];
    let tiny = f32::from_bits(1);
    let translations = [
        Vec3::new(tiny, 0.0, 0.0),
        Vec3::new(-tiny, tiny, -tiny),
        Vec3::new(-1e9, 1e9, 0.0),
        Vec3::new(0.0, -0.0, 0.0),
        Vec3::new(-6.0, 0.0, 0.0),
    ];
    for shape in &shapes {
        for origin in [Vec3::new(5.0, 0.1, 0.0), Vec3::new(-1e9, 0.0, 1e9), Vec3::new(0.5, 0.0, 0.0)] {
            for translation in translations {
                for max_fraction in [0.0, 1.0, 1e30, f32::INFINITY] {
                    let input = RayCastInput { origin, translation, max_fraction };
                    if let Some(hit) = ray_cast(shape, &input) {
                        assert!(
                            hit.point.is_finite() && hit.normal.is_finite() && hit.fraction.is_finite(),
                            "{hit:?} for {input:?} against {shape:?}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn hostile_casts_refuse_or_answer_finitely() {
    let shape = Shape::Hull(make_box(Vec3::ONE).unwrap());
    for bad in [f32::NAN, f32::INFINITY, -1.0, 2e9] {
        let input = RayCastInput {
            origin: Vec3::new(bad, 0.0, 5.0),
            translation: Vec3::new(0.0, 0.0, -10.0),
            max_fraction: 1.0,
        };
        if let Some(hit) = ray_cast(&shape, &input) {
            assert!(hit.point.is_finite() && hit.normal.is_finite() && hit.fraction.is_finite());
        }
        let p = ShapeProxy::from_shape(&shape);
        let cast = ShapeCastInput {
            proxy_a: &p,
            transform_a: Transform::IDENTITY,
            proxy_b: &p,
            transform_b: Transform::new(Vec3::new(5.0, 0.0, 0.0), Quat::IDENTITY),
            translation_b: Vec3::new(bad, 0.0, 0.0),
            max_fraction: 1.0,
            target: 0.01,
            tolerance: 0.001,
        };
        if let Ok(Some(hit)) = shape_cast(&cast) {
            assert!(hit.point.is_finite() && hit.normal.is_finite() && hit.fraction.is_finite());
        }
    }
}
