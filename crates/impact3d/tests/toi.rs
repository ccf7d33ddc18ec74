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

#[path = "support/hostile.rs"]
mod hostile;
mod support;

use glam::{DQuat, DVec3};
use impact3d::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use support::toi_cases::{Case, FAMILIES, family};
use support::{core_distance, random_unit};

const TARGET: f32 = 0.005;
const TOLERANCE: f32 = 0.00125;

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

/// A time of impact query as the tests call it.
type Solver = fn(&ShapeProxy, &Sweep, &ShapeProxy, &Sweep, f32, f32, f32) -> Result<ToiOutput, QueryError>;

/// What one solver did on the seeded families: answers by state, faults found by the
/// reference, and glancing answers.
struct Tally {
    counts: [[usize; 4]; 4],
    faults: Vec<String>,
    /// Per family: separations whose contact the reference finds (misses).
    misses: [usize; 4],
    glancing: usize,
}

/// Runs `solve` on 2,500 seeded cases of each family (every other one 5 km from the origin)
/// and classifies each answer against the f64 reference.
fn tally(solve: Solver) -> Tally {
    let mut rng = ChaCha8Rng::seed_from_u64(50);
    let mut t = Tally { counts: [[0; 4]; 4], faults: Vec::new(), misses: [0; 4], glancing: 0 };
    for (which, name) in FAMILIES.iter().enumerate() {
        for case in 0..2500 {
            let base = if case % 2 == 1 { random_unit(&mut rng) * 5000.0 } else { Vec3::ZERO };
            let c = family(&mut rng, which, base);
            let out = solve(&c.a, &c.sa, &c.b, &c.sb, 1.0, TARGET, TOLERANCE).unwrap();
            t.glancing += out.glancing as usize;
            let rebased = (c.sb.c1 - c.sa.c1).length() + (c.sb.c2 - c.sb.c1).length() + 4.0;
            let e = 2e-5 + 16.0 * f32::EPSILON as f64 * rebased as f64;
            let (lo, hi) = ((TARGET - TOLERANCE) as f64, (TARGET + TOLERANCE) as f64);
            let at = out.t as f64;
            let counts = &mut t.counts[which];
            let fault = match out.state {
                ToiState::Overlapped => {
                    counts[0] += 1;
                    (c.gap(0.0) >= e).then(|| format!("Overlapped with gap {:e} at 0", c.gap(0.0)))
                }
                ToiState::Hit => {
                    counts[1] += 1;
                    let g = c.gap(at);
                    if g > hi + e || (at > 0.0 && g < lo - e) {
                        Some(format!("hit at {at} with gap {g:e}"))
                    } else if !out.normal.is_finite() || (out.normal.length() - 1.0).abs() > 1e-3 {
                        Some(format!("hit at {at} without a unit normal: {:?}", out.normal))
                    } else {
                        c.first_dip(lo - e, at * (1.0 - 1e-6))
                            .map(|tc| format!("late: hit at {at}, gap {:e} at {tc}", c.gap(tc)))
                    }
                }
                ToiState::Separated => {
                    counts[2] += 1;
                    let missed = c.first_dip(lo - e, 1.0);
                    t.misses[which] += missed.is_some() as usize;
                    // A miss the solver owned up to as glancing is reported, not a fault.
                    missed.filter(|_| !out.glancing).map(|tc| format!("missed: gap {:e} at {tc}", c.gap(tc)))
                }
                ToiState::Failed => {
                    counts[3] += 1;
                    c.first_dip(lo - e, at * (1.0 - 1e-6))
                        .map(|tc| format!("Failed late at {at}: gap {:e} at {tc}", c.gap(tc)))
                }
            };
            if let Some(f) = fault {
                t.faults.push(format!("[{name} #{case}] {f}\n  {:?} {:?}\n  {:?} {:?}", c.a, c.sa, c.b, c.sb));
            }
        }
        let k = t.counts[which];
        println!("{name}: overlapped {}, hit {}, separated {}, failed {}", k[0], k[1], k[2], k[3]);
    }
    t
}

#[test]
fn the_reference_first_crossing_agrees_with_dense_sampling() {
    // The reference's conservative advancement on the exact f64 gap against 1,000 samples of
    // it: never after a sampled dip, and where it reports a dip, the gap is there.
    let mut rng = ChaCha8Rng::seed_from_u64(52);
    let threshold = (TARGET - TOLERANCE) as f64;
    let mut dips = 0;
    for case in 0..100 {
        let c = family(&mut rng, case % 4, Vec3::ZERO);
        let first = c.first_dip(threshold, 1.0);
        let sampled = (0..=1000).map(|k| k as f64 / 1000.0).find(|&t| c.gap(t) < threshold);
        if let Some(ts) = sampled {
            let tc = first.unwrap_or_else(|| panic!("case {case}: sampled dip at {ts}, none found"));
            assert!(tc <= ts + 1e-9, "case {case}: reference {tc} after sampled dip {ts}");
        }
        if let Some(tc) = first {
            dips += 1;
            assert!(c.gap(tc) <= threshold + 1e-9, "case {case}: gap {} at {tc}", c.gap(tc));
        }
    }
    assert!(dips > 25, "{dips}");
}

#[test]
fn conservative_advancement_never_misses_and_is_never_late() {
    let t = tally(conservative_advancement);
    for (which, k) in t.counts.iter().enumerate() {
        assert!(k[1] > 300 && k[2] > 100, "{}: {k:?}", FAMILIES[which]);
    }
    assert!(t.faults.is_empty(), "{} faults; first:\n{}", t.faults.len(), t.faults[0]);
}

#[test]
fn time_of_impact_never_misses_and_is_never_late() {
    let t = tally(time_of_impact);
    println!("glancing answers: {}, glancing misses per family: {:?}", t.glancing, t.misses);
    for (which, k) in t.counts.iter().enumerate() {
        assert!(k[1] > 300 && k[2] > 100, "{}: {k:?}", FAMILIES[which]);
        // Bilateral advancement converges where conservative advancement crawls.
        assert!(k[3] <= 2, "{}: {} failed", FAMILIES[which], k[3]);
    }
    assert!(t.faults.is_empty(), "{} faults; first:\n{}", t.faults.len(), t.faults[0]);
}

#[test]
fn without_the_certificate_turning_shapes_are_missed() {
    // The same cases, the peers' way: the misses are what the certificate prevents.
    let t = tally(time_of_impact_uncertified);
    println!("uncertified misses per family: {:?}", t.misses);
    assert!(t.misses[1] > 20 && t.misses[3] > 20, "{:?}", t.misses);
    assert_eq!(t.misses[2], 0, "spheres do not turn: nothing to hide");
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
        assert!(time_of_impact(&p, &bad, &p, &good, 1.0, TARGET, TOLERANCE).is_err());
        assert!(time_of_impact(&p, &good, &p, &bad, 1.0, TARGET, TOLERANCE).is_err());
    }
    for (t_max, target, tolerance) in
        [(1.5, TARGET, TOLERANCE), (1.0, -1.0, TOLERANCE), (1.0, TARGET, 0.0), (f32::NAN, TARGET, TOLERANCE)]
    {
        assert!(conservative_advancement(&p, &good, &p, &good, t_max, target, tolerance).is_err());
        assert!(time_of_impact(&p, &good, &p, &good, t_max, target, tolerance).is_err());
    }
}

#[test]
fn analytic_spheres_agree_with_the_f64_quadratic_and_with_bilateral_advancement() {
    use rand::RngExt;
    let mut rng = ChaCha8Rng::seed_from_u64(51);
    let (mut hits, mut worst) = (0, 0.0f64);
    for case in 0..10_000 {
        let base = if case % 2 == 1 { random_unit(&mut rng) * 5000.0 } else { Vec3::ZERO };
        // B aims at where A ends, give or take a meter and a half: hits, misses and grazes.
        let sphere = |rng: &mut ChaCha8Rng, aim: Vec3| {
            let c1 = base + random_unit(rng) * rng.random_range(0.0..4.0);
            let c2 = aim + random_unit(rng) * rng.random_range(0.0..1.5);
            MovingSphere { center1: c1, center2: c2, radius: rng.random_range(0.01..0.8) }
        };
        let a = sphere(&mut rng, base);
        let b = sphere(&mut rng, a.center2);
        let out = sphere_time_of_impact(&a, &b, 1.0, TARGET).unwrap();
        // The f64 reference: the first t with |p0 + t v| = r_a + r_b + target.
        let p0 = (b.center1.as_dvec3() - a.center1.as_dvec3()).as_vec3().as_dvec3();
        let v = (b.center2 - b.center1).as_dvec3() - (a.center2 - a.center1).as_dvec3();
        let (radius, contact) = ((a.radius + b.radius) as f64, (a.radius + b.radius + TARGET) as f64);
        let (qa, qb, qc) = (v.dot(v), 2.0 * p0.dot(v), p0.dot(p0) - contact * contact);
        let disc = qb * qb - 4.0 * qa * qc;
        let expected = if p0.length() < radius {
            (ToiState::Overlapped, 0.0)
        } else if qc <= 0.0 {
            (ToiState::Hit, 0.0)
        } else if qb < 0.0 && disc >= 0.0 && (-qb - disc.sqrt()) / (2.0 * qa) <= 1.0 {
            (ToiState::Hit, (-qb - disc.sqrt()) / (2.0 * qa))
        } else {
            (ToiState::Separated, 1.0)
        };
        // Grazing passes within round-off of the contact sphere may go either way.
        let grazing = disc.abs() < 1e-4 * qb * qb || (expected.1 - 1.0).abs() < 1e-5;
        if grazing {
            continue;
        }
        assert_eq!(out.state, expected.0, "case {case}: {a:?} {b:?} {out:?}");
        if out.state == ToiState::Hit {
            hits += 1;
            worst = worst.max((out.t as f64 - expected.1).abs());
            assert!((out.t as f64 - expected.1).abs() < 1e-5, "case {case}: {out:?} against {expected:?}");
            // Bilateral advancement on the same spheres lands in the band.
            let proxy = |s: &MovingSphere| ShapeProxy::new(&[Vec3::ZERO], s.radius).unwrap();
            let moving =
                |s: &MovingSphere| Sweep { c2: s.center2, ..Sweep::fixed(Transform::new(s.center1, Quat::IDENTITY)) };
            let ba = time_of_impact(&proxy(&a), &moving(&a), &proxy(&b), &moving(&b), 1.0, TARGET, TOLERANCE).unwrap();
            assert_eq!(ba.state, ToiState::Hit, "case {case}");
            let gap = (p0 + v * ba.t as f64).length() - radius;
            let band = if ba.t > 0.0 { TOLERANCE as f64 } else { f64::INFINITY };
            let within = gap - (TARGET as f64) <= TOLERANCE as f64 + 2e-5 && TARGET as f64 - gap <= band + 2e-5;
            assert!(within, "case {case}: gap {gap} at {ba:?}");
        }
    }
    println!("{hits} hits, worst time error {worst:e}");
    assert!(hits > 2000, "{hits}");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
    /// Any sweeps and parameters: an error, or a finite answer within [0, t_max], from every
    /// time of impact, in bounded work.
    #[test]
    fn hostile_sweeps_give_an_error_or_a_finite_answer(v in proptest::collection::vec(hostile::hostile(), 22)) {
        let rod = ShapeProxy::new(&[Vec3::new(-1.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0)], 0.01).unwrap();
        let cube = support::toi_cases::box_proxy(Vec3::splat(0.5));
        let q1 = Quat::from_xyzw(v[6], v[7], v[8], v[9]);
        let q1 = if q1.is_finite() && q1.length() > 0.5 { q1.normalize() } else { q1 };
        let sa = Sweep { local_center: Vec3::ZERO, c1: Vec3::new(v[0], v[1], v[2]), c2: Vec3::new(v[3], v[4], v[5]), q1, rotation: Vec3::new(v[10], v[11], v[12]) };
        let sb = Sweep { local_center: Vec3::new(v[13], 0.0, 0.0), c1: Vec3::new(v[14], v[15], 0.0), c2: Vec3::new(v[16], v[17], 1.0), q1: Quat::IDENTITY, rotation: Vec3::new(0.0, v[18], 0.0) };
        let (t_max, target, tolerance) = (v[19], v[20], v[21]);
        let solvers: [Solver; 3] = [time_of_impact, time_of_impact_uncertified, conservative_advancement];
        for solve in solvers {
            if let Ok(out) = solve(&cube, &sa, &rod, &sb, t_max, target, tolerance) {
                proptest::prop_assert!(out.t.is_finite() && (0.0..=t_max).contains(&out.t), "{:?}", out);
                proptest::prop_assert!(out.point.is_finite() && out.normal.is_finite(), "{:?}", out);
                proptest::prop_assert!(out.iterations <= 1000, "{:?}", out);
            }
        }
        let sphere = |c1: Vec3, c2: Vec3, radius: f32| MovingSphere { center1: c1, center2: c2, radius };
        let (a, b) = (sphere(sa.c1, sa.c2, v[13]), sphere(sb.c1, sb.c2, v[6]));
        if let Ok(out) = sphere_time_of_impact(&a, &b, t_max, target) {
            proptest::prop_assert!(out.t.is_finite() && out.point.is_finite() && out.normal.is_finite(), "{:?}", out);
        }
    }
}
