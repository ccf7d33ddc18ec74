//! General convex polygons (3 to 8 vertices, sharp and rounded) against each other and against
//! segment cores, compared with the independent f64 reference of the integration tests, on the
//! cores directly (the integration tests go through `Polygon::new` and `collide`).

#[path = "../../tests/manifold_support/reference.rs"]
mod reference;

use super::core::{Core, Lanes};
use super::manifold::LocalManifold;
use super::polygons::collide_cores;
use crate::math::{Transform, Vec2};
use crate::settings::{MANIFOLD_REFERENCE_TOLERANCE, MAX_POLYGON_VERTICES, SPECULATIVE_DISTANCE};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use reference::{D2, RefShape, d2, point_distance, signed_distance};

/// A random convex polygon: `count` points at sorted angles on a random ellipse (convex
/// position, counter-clockwise), at least 0.12 rad apart.
fn random_polygon(rng: &mut ChaCha8Rng, count: usize) -> Vec<Vec2> {
    let (rx, ry) = (rng.random_range(0.1f32..1.2), rng.random_range(0.1f32..1.2));
    let tilt = rng.random_range(0.0f32..std::f32::consts::TAU);
    let mut angles: Vec<f32> = loop {
        let mut a: Vec<f32> = (0..count).map(|_| rng.random_range(0.0f32..std::f32::consts::TAU)).collect();
        a.sort_by(f32::total_cmp);
        let gaps_ok = a.windows(2).all(|w| w[1] - w[0] > 0.12) && a[0] + std::f32::consts::TAU - a[count - 1] > 0.12;
        if gaps_ok {
            break a;
        }
    };
    angles.iter_mut().for_each(|a| *a += tilt);
    let center = Vec2::new(rng.random_range(-0.3f32..0.3), rng.random_range(-0.3f32..0.3));
    angles.iter().map(|&a| center + Vec2::from_angle(tilt).rotate(Vec2::new(rx * a.cos(), ry * a.sin()))).collect()
}

fn core_of(points: &[Vec2], radius: f32, xf: Transform) -> Core {
    let count = points.len();
    let mut core = Core {
        vertices: [Vec2::ZERO; MAX_POLYGON_VERTICES],
        normals: [Vec2::ZERO; MAX_POLYGON_VERTICES],
        count,
        radius,
        centroid: Vec2::ZERO,
        lanes: Lanes::ZERO,
    };
    for (i, &p) in points.iter().enumerate() {
        core.vertices[i] = xf.apply(p);
    }
    for i in 0..count {
        let e = core.vertices[(i + 1) % count] - core.vertices[i];
        core.normals[i] = Vec2::new(e.y, -e.x).normalize();
    }
    core.with_lanes()
}

fn reference_of(core: &Core) -> RefShape {
    RefShape {
        core: core.vertices[..core.count].iter().map(|v| d2(v.x as f64, v.y as f64)).collect(),
        radius: core.radius as f64,
    }
}

fn to_d2(v: Vec2) -> D2 {
    d2(v.x as f64, v.y as f64)
}

/// B's core placed at `angle`, along `dir` from A's, at exact signed distance `target`.
fn place(a: &Core, b_points: &[Vec2], radius: f32, angle: f32, dir: Vec2, target: f64) -> Option<Core> {
    let ra = reference_of(a);
    let at = |t: f32| core_of(b_points, radius, Transform::new(dir * t, angle));
    let f = |t: f32| signed_distance(&ra, &reference_of(&at(t))).0;
    let (mut lo, mut hi) = (0.0f32, 5.0f32);
    if f(lo) > target || f(hi) < target {
        return None;
    }
    for _ in 0..32 {
        let mid = 0.5 * (lo + hi);
        if f(mid) < target { lo = mid } else { hi = mid }
    }
    Some(at(0.5 * (lo + hi)))
}

#[derive(Default, Debug)]
struct Worst {
    apart: f64,
    overlap: f64,
    normal: f64,
    witness: f64,
    near: usize,
    two: usize,
}

fn check(a: &Core, b: &Core, m: &LocalManifold, worst: &mut Worst) -> Result<(), String> {
    let (ra, rb) = (reference_of(a), reference_of(b));
    let (exact, direction) = signed_distance(&ra, &rb);
    let spec = SPECULATIVE_DISTANCE as f64;
    if m.count == 0 {
        return if exact > spec - 1e-5 { Ok(()) } else { Err(format!("empty at {exact:e}")) };
    }
    if exact > spec + 1e-5 {
        return Err(format!("points at {exact:e}"));
    }
    worst.near += 1;
    worst.two += (m.count == 2) as usize;
    let min = m.points[..m.count].iter().map(|p| p.separation as f64).fold(f64::INFINITY, f64::min);
    let err = (min - exact).abs();
    if exact > 0.0 {
        worst.apart = worst.apart.max(err);
        if err > 2e-5 {
            return Err(format!("min separation {min:e} vs exact {exact:e}"));
        }
    } else {
        worst.overlap = worst.overlap.max(err);
        if err > 2e-5 + MANIFOLD_REFERENCE_TOLERANCE as f64 {
            return Err(format!("min separation {min:e} vs exact {exact:e}"));
        }
    }
    let n = to_d2(m.normal);
    if exact >= 0.25 * spec
        && let Some(dir) = direction
    {
        let angle = n.cross(dir).atan2(n.dot(dir)).abs();
        worst.normal = worst.normal.max(angle);
        if angle > 2e-3 {
            return Err(format!("normal {n:?} vs {dir:?}"));
        }
    }
    for p in &m.points[..m.count] {
        let half = 0.5 * p.separation as f64;
        let (wa, wb) = (to_d2(p.point) - n * half, to_d2(p.point) + n * half);
        let e = point_distance(&ra, wa).abs().max(point_distance(&rb, wb).abs());
        worst.witness = worst.witness.max(e);
        if e > 2e-5 {
            return Err(format!("witnesses of {p:?} off by {e:e}"));
        }
    }
    Ok(())
}

fn run(seed: u64, b_is_segment: bool) -> Worst {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut worst = Worst::default();
    let mut failures = Vec::new();
    let mut placed = 0;
    while placed < 10_000 {
        let count_a = rng.random_range(3..=8usize);
        let a_points = random_polygon(&mut rng, count_a);
        let rounded = |rng: &mut ChaCha8Rng| {
            if rng.random_range(0.0f32..1.0) < 0.5 { 0.0 } else { rng.random_range(0.01f32..0.2) }
        };
        let ra = rounded(&mut rng);
        let a = core_of(&a_points, ra, Transform::new(Vec2::ZERO, rng.random_range(0.0f32..std::f32::consts::TAU)));
        let (b_points, rb) = if b_is_segment {
            let h = rng.random_range(0.05f32..1.5);
            (vec![Vec2::new(-h, 0.0), Vec2::new(h, 0.0)], rounded(&mut rng))
        } else {
            let count_b = rng.random_range(3..=8usize);
            (random_polygon(&mut rng, count_b), rounded(&mut rng))
        };
        let spec = SPECULATIVE_DISTANCE as f64;
        let u = rng.random_range(0.0f64..1.0);
        let target = if u < 0.5 {
            rng.random_range(0.0..1.5) * spec
        } else if u < 0.8 {
            -rng.random_range(0.0..0.05)
        } else {
            -rng.random_range(0.05..0.3)
        };
        let angle = rng.random_range(0.0f32..std::f32::consts::TAU);
        let dir = Vec2::from_angle(rng.random_range(0.0f32..std::f32::consts::TAU));
        let Some(b) = place(&a, &b_points, rb, angle, dir, target) else { continue };
        placed += 1;
        let m = collide_cores(&a, &b, SPECULATIVE_DISTANCE);
        if let Err(e) = check(&a, &b, &m, &mut worst) {
            failures.push(format!("#{placed}: {e}\n a = {a:?}\n b = {b:?}\n m = {m:?}"));
        }
    }
    println!("{worst:?}");
    assert!(failures.is_empty(), "{} failures; first: {}", failures.len(), failures[0]);
    worst
}

#[test]
fn random_polygons_match_the_reference() {
    let w = run(0x9017, false);
    assert!(w.near > 7000 && w.two > 500, "{w:?}");
}

#[test]
fn random_polygons_and_segment_cores_match_the_reference() {
    let w = run(0x5e9, true);
    assert!(w.near > 7000 && w.two > 500, "{w:?}");
}
