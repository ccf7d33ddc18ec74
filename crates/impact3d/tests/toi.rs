//! `conservative_advancement` in 3D against the brute-force f64 reference of
//! `support/mod.rs`, on seeded families (2,500 cases each): random shapes on random sweeps,
//! thin rods spinning 1 to 3 rad per step near boxes, small spheres at 5 to 40 m per step
//! against slabs 5 mm thick, Catto's worst case in 3D (a tetrahedron turning about a vertex
//! that hovers just above a box), and each of these 5 km from the origin.
//!
//! The reference poses the shapes in f64 from the sweeps (the exponential map by glam's f64
//! quaternions) and searches the exact gap by conservative advancement with its own Lipschitz
//! bound, which cannot step over a dip. Classified as the 2D tests do: a hit's gap in the band
//! (to E = 2e-5 m plus 16 f32 spacings of the rebased coordinates) and no dip below the band
//! before it (never late); `Separated` with no dip below the band (no miss); `Overlapped`
//! only with a gap below E at 0; `Failed` safe.

mod support;

use glam::{DQuat, DVec3};
use impact3d::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use support::{core_distance, random_unit};

const TARGET: f32 = 0.005;
const TOLERANCE: f32 = 0.00125;

struct Case {
    a: ShapeProxy,
    sa: Sweep,
    b: ShapeProxy,
    sb: Sweep,
}

/// The pose of body point `v` at `t` in f64.
fn at(s: &Sweep, t: f64, v: Vec3) -> DVec3 {
    let w = s.rotation.as_dvec3() * t;
    let angle = w.length();
    let turn = if angle > 0.0 { DQuat::from_axis_angle(w / angle, angle) } else { DQuat::IDENTITY };
    let q = turn * s.q1.as_dquat();
    let c = s.c1.as_dvec3() + (s.c2.as_dvec3() - s.c1.as_dvec3()) * t;
    c + q * (v.as_dvec3() - s.local_center.as_dvec3())
}

impl Case {
    fn gap(&self, t: f64) -> f64 {
        let pa: Vec<DVec3> = self.a.points().iter().map(|v| at(&self.sa, t, *v)).collect();
        let pb: Vec<DVec3> = self.b.points().iter().map(|v| at(&self.sb, t, *v)).collect();
        core_distance(&pa, &pb) - self.a.radius() as f64 - self.b.radius() as f64
    }

    fn lipschitz(&self) -> f64 {
        let reach = |p: &ShapeProxy, s: &Sweep| {
            p.points().iter().fold(0.0f64, |m, v| m.max(v.as_dvec3().distance(s.local_center.as_dvec3())))
        };
        ((self.sb.c2 - self.sb.c1).as_dvec3() - (self.sa.c2 - self.sa.c1).as_dvec3()).length()
            + self.sa.rotation.as_dvec3().length() * reach(&self.a, &self.sa)
            + self.sb.rotation.as_dvec3().length() * reach(&self.b, &self.sb)
    }

    /// The first time below `threshold` in [0, end), or None (also when the search runs out).
    fn first_dip(&self, threshold: f64, end: f64) -> Option<f64> {
        let l = self.lipschitz().max(1e-12);
        let mut t = 0.0;
        for _ in 0..100_000 {
            let g = self.gap(t);
            if g <= threshold {
                return (t < end).then_some(t);
            }
            t += (g - threshold).max(1e-7) / l;
            if t >= end {
                return None;
            }
        }
        None
    }
}

fn sweep(at: Vec3, q: Quat, push: Vec3, rotation: Vec3, local_center: Vec3) -> Sweep {
    let c1 = at + q * local_center;
    Sweep { local_center, c1, c2: c1 + push, q1: q, rotation }
}

fn box_proxy(h: Vec3) -> ShapeProxy {
    let corners: Vec<Vec3> = (0..8)
        .map(|i| {
            Vec3::new(
                if i & 1 == 0 { -h.x } else { h.x },
                if i & 2 == 0 { -h.y } else { h.y },
                if i & 4 == 0 { -h.z } else { h.z },
            )
        })
        .collect();
    ShapeProxy::new(&corners, 0.0).unwrap()
}

fn family(rng: &mut ChaCha8Rng, which: usize, base: Vec3) -> Case {
    let q = |rng: &mut ChaCha8Rng| Quat::from_axis_angle(random_unit(rng), rng.random_range(-3.2..3.2));
    match which {
        // Random shapes: a box or hull against anything, B thrown at A and turning.
        0 => {
            let a = box_proxy(Vec3::new(
                rng.random_range(0.1..1.0),
                rng.random_range(0.1..1.0),
                rng.random_range(0.1..1.0),
            ));
            let count = rng.random_range(1..=6);
            let points: Vec<Vec3> = (0..count).map(|_| random_unit(rng) * rng.random_range(0.05..0.6)).collect();
            let b = ShapeProxy::new(&points, if count <= 2 { 0.05 } else { 0.0 }).unwrap();
            let start = base + random_unit(rng) * rng.random_range(1.5..4.0);
            let push = (base - start) * rng.random_range(0.5..2.0) + random_unit(rng) * rng.random_range(0.0..0.5);
            let sa = sweep(base, q(rng), Vec3::ZERO, random_unit(rng) * rng.random_range(0.0..1.0), Vec3::ZERO);
            let sb = sweep(start, q(rng), push, random_unit(rng) * rng.random_range(0.0..3.0), Vec3::ZERO);
            Case { a, sa, b, sb }
        }
        // Thin rods spinning 1 to 3 rad per step near a box.
        1 => {
            let a = box_proxy(Vec3::new(0.5, 0.5, 0.5));
            let half = rng.random_range(0.5..1.5);
            let b = ShapeProxy::new(
                &[Vec3::new(-half, 0.0, 0.0), Vec3::new(half, 0.0, 0.0)],
                rng.random_range(0.005..0.02),
            )
            .unwrap();
            let start = base + random_unit(rng) * rng.random_range(0.6..2.0);
            let sa = Sweep::fixed(Transform::new(base, Quat::IDENTITY));
            let sb = sweep(
                start,
                q(rng),
                random_unit(rng) * rng.random_range(0.0..0.5),
                random_unit(rng) * rng.random_range(1.0..3.0),
                Vec3::ZERO,
            );
            Case { a, sa, b, sb }
        }
        // Small spheres at 5 to 40 m per step against a slab 5 mm thick.
        2 => {
            let a = box_proxy(Vec3::new(1.0, 0.0025, 1.0));
            let b = ShapeProxy::new(&[Vec3::ZERO], rng.random_range(0.005..0.05)).unwrap();
            let start =
                base + Vec3::new(rng.random_range(-0.8..0.8), rng.random_range(0.1..2.0), rng.random_range(-0.8..0.8));
            let speed = rng.random_range(5.0..40.0);
            let aim = base + Vec3::new(rng.random_range(-1.2..1.2), 0.0, rng.random_range(-1.2..1.2));
            let push = (aim - start).normalize() * speed;
            let sa = Sweep::fixed(Transform::new(base, Quat::IDENTITY));
            let sb = sweep(start, Quat::IDENTITY, push, Vec3::ZERO, Vec3::ZERO);
            Case { a, sa, b, sb }
        }
        // Catto's worst case: a tetrahedron turning about a vertex that hovers just above a
        // box, its far corners swinging down through the box's top and up again.
        _ => {
            let a = box_proxy(Vec3::new(2.0, 0.5, 2.0));
            let s = rng.random_range(0.3..1.0);
            let tetra = [
                Vec3::ZERO,
                Vec3::new(s, 0.1 * s, 0.0),
                Vec3::new(0.0, 0.1 * s, s),
                Vec3::new(0.3 * s, 0.6 * s, 0.3 * s),
            ];
            let b = ShapeProxy::new(&tetra, 0.0).unwrap();
            let hover = rng.random_range(0.001..0.05);
            let pivot = base + Vec3::new(rng.random_range(-1.0..1.0), 0.5 + hover, rng.random_range(-1.0..1.0));
            let sa = Sweep::fixed(Transform::new(base, Quat::IDENTITY));
            let axis = Vec3::new(rng.random_range(-1.0..1.0), rng.random_range(-0.3..0.3), rng.random_range(-1.0..1.0))
                .normalize_or(Vec3::X);
            let sb = Sweep {
                local_center: Vec3::ZERO,
                c1: pivot,
                c2: pivot,
                q1: Quat::IDENTITY,
                rotation: axis * rng.random_range(0.05..6.0),
            };
            Case { a, sa, b, sb }
        }
    }
}

#[test]
fn conservative_advancement_never_misses_and_is_never_late() {
    let mut rng = ChaCha8Rng::seed_from_u64(50);
    let names = ["random", "spinning rods", "fast spheres at slabs", "Catto's hovering tetrahedron"];
    let mut failures = Vec::new();
    for (which, name) in names.iter().enumerate() {
        let mut counts = [0usize; 4];
        for case in 0..2500 {
            let base = if case % 2 == 1 { random_unit(&mut rng) * 5000.0 } else { Vec3::ZERO };
            let c = family(&mut rng, which, base);
            let out = conservative_advancement(&c.a, &c.sa, &c.b, &c.sb, 1.0, TARGET, TOLERANCE).unwrap();
            let rebased = (c.sb.c1 - c.sa.c1).length() + (c.sb.c2 - c.sb.c1).length() + 4.0;
            let e = 2e-5 + 16.0 * f32::EPSILON as f64 * rebased as f64;
            let (lo, hi) = ((TARGET - TOLERANCE) as f64, (TARGET + TOLERANCE) as f64);
            let t = out.t as f64;
            let fault = match out.state {
                ToiState::Overlapped => {
                    counts[0] += 1;
                    (c.gap(0.0) >= e).then(|| format!("Overlapped with gap {:e} at 0", c.gap(0.0)))
                }
                ToiState::Hit => {
                    counts[1] += 1;
                    let g = c.gap(t);
                    if g > hi + e || (t > 0.0 && g < lo - e) {
                        Some(format!("hit at {t} with gap {g:e}"))
                    } else {
                        c.first_dip(lo - e, t * (1.0 - 1e-6))
                            .map(|tc| format!("late: hit at {t}, gap {:e} at {tc}", c.gap(tc)))
                    }
                }
                ToiState::Separated => {
                    counts[2] += 1;
                    c.first_dip(lo - e, 1.0).map(|tc| format!("missed: gap {:e} at {tc}", c.gap(tc)))
                }
                ToiState::Failed => {
                    counts[3] += 1;
                    c.first_dip(lo - e, t * (1.0 - 1e-6))
                        .map(|tc| format!("Failed late at {t}: gap {:e} at {tc}", c.gap(tc)))
                }
            };
            if let Some(f) = fault {
                failures.push(format!("[{name} #{case}] {f}\n  {:?} {:?}\n  {:?} {:?}", c.a, c.sa, c.b, c.sb));
            }
        }
        println!("{name}: overlapped {}, hit {}, separated {}, failed {}", counts[0], counts[1], counts[2], counts[3]);
        assert!(counts[1] > 300 && counts[2] > 100, "{name}: {counts:?}");
    }
    assert!(failures.is_empty(), "{} failures; first:\n{}", failures.len(), failures[0]);
}

#[test]
fn hostile_sweeps_are_refused() {
    let p = ShapeProxy::new(&[Vec3::ZERO], 0.1).unwrap();
    let good = Sweep::fixed(Transform::IDENTITY);
    for bad in [
        Sweep { c2: Vec3::NAN, ..good },
        Sweep { rotation: Vec3::INFINITY, ..good },
        Sweep { q1: Quat::from_xyzw(0.0, 0.0, 0.0, 3.0), ..good },
        Sweep { c1: Vec3::splat(2e9), ..good },
    ] {
        assert!(conservative_advancement(&p, &bad, &p, &good, 1.0, TARGET, TOLERANCE).is_err());
    }
    for (t_max, target, tolerance) in
        [(1.5, TARGET, TOLERANCE), (1.0, -1.0, TOLERANCE), (1.0, TARGET, 0.0), (f32::NAN, TARGET, TOLERANCE)]
    {
        assert!(conservative_advancement(&p, &good, &p, &good, t_max, target, tolerance).is_err());
    }
}
