//! `time_of_impact` (bilateral advancement) and `conservative_advancement` against the f64
//! time of impact reference, on seeded random families; `circle_time_of_impact` against the
//! exact f64 root; Catto's named cases.
//!
//! The reference (tests/common/reference.rs) evaluates the exact signed surface distance
//! sd(t) by brute force in f64 and searches it by conservative advancement with the
//! Lipschitz bound |sd'| ≤ |Δc_b − Δc_a| + |Δa_a| r_a + |Δa_b| r_b, which cannot step over
//! a dip. With lo = target − tol and hi = target + tol, every answer is classified:
//!
//! * Hit at t > 0: sd(t) must lie in [lo − EPS, hi + EPS] (else **out-of-band**), and sd
//!   must not drop below lo − EPS before t − EPS_T (else **late**). A hit at t = 0 needs
//!   −EPS ≤ sd(0) ≤ hi + EPS.
//! * Separated: a **miss** when sd drops below lo − EPS in [0, t_max]; **glancing** when
//!   it never drops below lo − ¼·min(thickness_a, thickness_b) (certified by a second
//!   search), else **solid**. Also a miss: a start already inside the band.
//! * Overlapped: sd(0) must be below EPS.
//! * Failed: counted; its t must be safe (no dip below lo − EPS before it), else late.
//!
//! EPS = 2e-5 m (a few hundred times f32 resolution at the ~1–10 m coordinates used after
//! rebasing), EPS_T = 1e-6 (f32 resolution of t is 6e-8). Asserted: zero solid misses, zero
//! late answers, zero out-of-band hits, zero wrong states and errors, for both algorithms.
//! Printed: glancing misses, Failed counts, iterations and subdivisions per family.

mod common;

use common::cases::*;
use common::reference::*;
use impact2d::settings::{TOI_TARGET, TOI_TOLERANCE};
use impact2d::*;
use std::f64::consts::PI;

const EPS: f64 = 2.0e-5;
const EPS_T: f64 = 1.0e-6;
const TARGET: f32 = TOI_TARGET;
const TOL: f32 = TOI_TOLERANCE;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Algo {
    Bilateral,
    Conservative,
}

#[derive(Default, Debug)]
struct Stats {
    cases: usize,
    hits: usize,
    hits_at_zero: usize,
    separated: usize,
    overlapped: usize,
    failed: usize,
    glancing_misses: usize,
    solid_misses: usize,
    late: usize,
    out_of_band: usize,
    wrong_state: usize,
    errors: usize,
    glancing_flag: usize,
    iterations_sum: u64,
    iterations_max: u32,
    subdivisions_sum: u64,
    subdivisions_max: u32,
    root_iterations_sum: u64,
    /// How far below the band (m) the glancing misses went, at worst.
    deepest_glancing_miss: f64,
    /// Largest |sd(t) − band| excess of a hit (negative: inside the band).
    worst_hit_excess: f64,
    /// Worst hit point / normal offset (m) and the count over EPS.
    worst_geometry: f64,
    bad_geometry: usize,
    nanos: u128,
}

impl Stats {
    fn line(&self, name: &str, algo: Algo) -> String {
        let n = self.cases.max(1) as f64;
        format!(
            "{name:<28} {algo:<12?} cases {:>5}: hit {:>5} (at t=0 {:>4}), separated {:>5}, overlapped {:>4}, failed {:>4} | misses: glancing {:>3} (deepest {:.2e} m below band), solid {} | late {}, out-of-band {}, wrong state {}, errors {}, hit geometry {} (worst {:.1e} m), hits' worst excess over the band {:.1e} m | glancing flag {} | iterations mean {:.2} max {} | subdivisions mean {:.2} max {} | root iterations mean {:.2} | {:.3} µs/query",
            self.cases,
            self.hits,
            self.hits_at_zero,
            self.separated,
            self.overlapped,
            self.failed,
            self.glancing_misses,
            self.deepest_glancing_miss,
            self.solid_misses,
            self.late,
            self.out_of_band,
            self.wrong_state,
            self.errors,
            self.bad_geometry,
            self.worst_geometry,
            self.worst_hit_excess,
            self.glancing_flag,
            self.iterations_sum as f64 / n,
            self.iterations_max,
            self.subdivisions_sum as f64 / n,
            self.subdivisions_max,
            self.root_iterations_sum as f64 / n,
            self.nanos as f64 / n / 1000.0,
        )
    }
    fn violations(&self) -> usize {
        self.solid_misses + self.late + self.out_of_band + self.wrong_state + self.errors + self.bad_geometry
    }
}

/// What the reference knows about one case, computed once for both algorithms.
struct RefFacts {
    lo: f64,
    hi: f64,
    sd0: f64,
    /// First time sd ≤ lo − EPS (rigorous).
    cross: Crossing,
}

fn facts(case: &ToiCase) -> RefFacts {
    let (lo, hi) = ((case.target - case.tolerance) as f64, (case.target + case.tolerance) as f64);
    let sd0 = case.motion.sd_at(0.0);
    let cross = case.motion.first_below(lo - EPS, case.t_max as f64);
    RefFacts { lo, hi, sd0, cross }
}

fn run(case: &ToiCase, algo: Algo) -> (Result<ToiOutput, QueryError>, u128) {
    let f = match algo {
        Algo::Bilateral => time_of_impact,
        Algo::Conservative => conservative_advancement,
    };
    let start = std::time::Instant::now();
    let out = f(&case.proxy_a, &case.sweep_a, &case.proxy_b, &case.sweep_b, case.t_max, case.target, case.tolerance);
    (out, start.elapsed().as_nanos())
}

/// Classifies one answer; returns a violation message.
fn classify(case: &ToiCase, rf: &RefFacts, out: Result<ToiOutput, QueryError>, st: &mut Stats) -> Option<String> {
    st.cases += 1;
    let m = &case.motion;
    if rf.cross.capped {
        return Some(format!("reference capped after {} steps", rf.cross.steps));
    }
    let out = match out {
        Ok(o) => o,
        Err(e) => {
            st.errors += 1;
            return Some(format!("error on a valid query: {e}"));
        }
    };
    st.iterations_sum += out.iterations as u64;
    st.iterations_max = st.iterations_max.max(out.iterations);
    st.subdivisions_sum += out.subdivisions as u64;
    st.subdivisions_max = st.subdivisions_max.max(out.subdivisions);
    st.root_iterations_sum += out.root_iterations as u64;
    st.glancing_flag += out.glancing as usize;
    let fields = [out.t, out.point.x, out.point.y, out.normal.x, out.normal.y];
    if fields.iter().any(|v| !v.is_finite()) {
        st.wrong_state += 1;
        return Some(format!("non-finite output {out:?}"));
    }
    let t = out.t as f64;
    let lateness = |st: &mut Stats| -> Option<String> {
        match rf.cross.t {
            Some(tc) if tc < t - EPS_T => {
                st.late += 1;
                Some(format!(
                    "late: {:?} at t = {t}, but the gap is already {:e} at t = {tc} (band [{:e}, {:e}]) {out:?}",
                    out.state,
                    m.sd_at(tc),
                    rf.lo,
                    rf.hi
                ))
            }
            _ => None,
        }
    };
    match out.state {
        ToiState::Overlapped => {
            st.overlapped += 1;
            if rf.sd0 >= EPS || out.t != 0.0 {
                st.wrong_state += 1;
                return Some(format!("Overlapped but the gap at 0 is {:e}: {out:?}", rf.sd0));
            }
        }
        ToiState::Hit => {
            st.hits += 1;
            if (D2::from_f32(out.normal).len() - 1.0).abs() > 1e-5 {
                st.wrong_state += 1;
                return Some(format!("hit normal not unit: {out:?}"));
            }
            if t == 0.0 {
                st.hits_at_zero += 1;
                if rf.sd0 > rf.hi + EPS || rf.sd0 < -EPS {
                    st.out_of_band += 1;
                    return Some(format!("hit at 0 with gap {:e} at 0: {out:?}", rf.sd0));
                }
                return None;
            }
            if !(t > 0.0 && t <= case.t_max as f64) {
                st.wrong_state += 1;
                return Some(format!("hit time out of [0, t_max]: {out:?}"));
            }
            let full = m.sd_full(t);
            let gap = full.sd;
            let excess = (rf.lo - gap).max(gap - rf.hi);
            st.worst_hit_excess = if st.hits == 1 { excess } else { st.worst_hit_excess.max(excess) };
            if excess > EPS {
                st.out_of_band += 1;
                return Some(format!(
                    "out-of-band hit: gap {gap:e} at t = {t}, band [{:e}, {:e}]: {out:?}",
                    rf.lo, rf.hi
                ));
            }
            if let Some(v) = lateness(st) {
                return Some(v);
            }
            // Documented geometry: the point midway between the surfaces, the unit normal
            // from A to B (the closest-points direction, unique while the cores are apart):
            // half the gap back and forth along the normal from the point lie on A's and
            // B's surfaces (for surfaces that overlap, a negative target, the other way).
            if !full.core.overlap {
                let (pa, pb) = (m.sa.pose_at(t), m.sb.pose_at(t));
                let (ca, cb) = (m.a.placed(&pa), m.b.placed(&pb));
                let p = case.origin + D2::from_f32(out.point);
                let half = D2::from_f32(out.normal) * (0.5 * gap);
                let off_a = (point_core_distance(&ca, p - half) - m.a.radius).abs();
                let off_b = (point_core_distance(&cb, p + half) - m.b.radius).abs();
                let off_n = (D2::from_f32(out.normal) - full.normal).len() * full.core.sd;
                st.worst_geometry = st.worst_geometry.max(off_a).max(off_b).max(off_n);
                if off_a.max(off_b).max(off_n) > EPS {
                    st.bad_geometry += 1;
                    return Some(format!(
                        "hit geometry: point {:?} is {off_a:e} / {off_b:e} off the middle of the gap, normal {:?} vs {:?} (offset {off_n:e}): {out:?}",
                        out.point, out.normal, full.normal
                    ));
                }
            }
            return None;
        }
        ToiState::Separated => {
            st.separated += 1;
            if out.t != case.t_max {
                st.wrong_state += 1;
                return Some(format!("Separated with t != t_max: {out:?}"));
            }
            if rf.sd0 <= rf.hi - EPS {
                st.wrong_state += 1;
                return Some(format!("Separated, but the gap at 0 is {:e}, inside the band or below: {out:?}", rf.sd0));
            }
            if let Some(tc) = rf.cross.t {
                let glance = 0.25 * case.thickness();
                let solid = m.first_below(rf.lo - glance, case.t_max as f64);
                let (min, at) = m.min_sd(case.t_max as f64);
                if solid.t.is_some() || solid.capped {
                    st.solid_misses += 1;
                    return Some(format!(
                        "SOLID MISS: Separated, but the gap is {:e} at t = {tc} and reaches {min:e} near t = {at} (glancing depth {glance:e}): {out:?}",
                        m.sd_at(tc)
                    ));
                }
                st.glancing_misses += 1;
                st.deepest_glancing_miss = st.deepest_glancing_miss.max(rf.lo - min);
            }
        }
        ToiState::Failed => {
            st.failed += 1;
            return lateness(st);
        }
    }
    None
}

struct FamilyResult {
    lines: Vec<String>,
    violations: Vec<String>,
}

fn run_family(name: &str, cases: impl Iterator<Item = ToiCase>) -> FamilyResult {
    let mut ba = Stats::default();
    let mut ca = Stats::default();
    let mut violations = vec![];
    let mut ref_steps = (0u64, 0u32);
    let mut ba_failed_ca_hit = 0;
    let mut n = 0;
    for case in cases {
        n += 1;
        let rf = facts(&case);
        ref_steps.0 += rf.cross.steps as u64;
        ref_steps.1 = ref_steps.1.max(rf.cross.steps);
        let mut states = [None, None];
        for (k, (algo, st)) in [(Algo::Bilateral, &mut ba), (Algo::Conservative, &mut ca)].into_iter().enumerate() {
            let (out, nanos) = run(&case, algo);
            st.nanos += nanos;
            states[k] = out.as_ref().ok().map(|o| (o.state, o.t, o.iterations, o.subdivisions));
            if let Some(v) = classify(&case, &rf, out, st) {
                violations.push(format!("[{name} / {algo:?}] {v}\n{}", case.repro()));
            }
        }
        // Not a violation (Failed is allowed and safe), but worth knowing: BA gave up where
        // CA found the hit.
        if let [Some((ToiState::Failed, tb, ib, sb)), Some((ToiState::Hit, tc, ic, _))] = states {
            ba_failed_ca_hit += 1;
            if ba_failed_ca_hit == 1 {
                println!(
                    "[{name}] first BA Failed (t {tb}, {ib} iterations, {sb} subdivisions) where CA hit (t {tc}, {ic} iterations):\n{}",
                    case.repro()
                );
            }
        }
    }
    let lines = vec![
        ba.line(name, Algo::Bilateral),
        ca.line(name, Algo::Conservative),
        format!(
            "{name:<28} reference CA steps mean {:.1} max {}; BA Failed where CA hit: {ba_failed_ca_hit}",
            ref_steps.0 as f64 / n as f64,
            ref_steps.1
        ),
    ];
    for l in &lines {
        println!("{l}");
    }
    let counted = ba.violations() + ca.violations();
    assert!(counted <= violations.len());
    FamilyResult { lines, violations }
}

fn finish(r: FamilyResult) {
    for v in r.violations.iter().take(3) {
        println!("VIOLATION {v}");
    }
    assert!(
        r.violations.is_empty(),
        "{} violations; first:\n{}\n{}",
        r.violations.len(),
        r.violations[0],
        r.lines.join("\n")
    );
}

const N: usize = 10_000;

fn direct(raw: Raw) -> ToiCase {
    let (pa, sa, pb, sb) = raw;
    ToiCase::direct(pa, sa, pb, sb)
}

#[test]
fn family_i_random_convex_shapes() {
    let mut rng = rng(0x701_0001);
    finish(run_family("(i) random convex", (0..N).map(|_| direct(family_random(&mut rng)))));
}

#[test]
fn family_ii_thin_rods_near_boxes() {
    let mut rng = rng(0x701_0002);
    finish(run_family("(ii) thin rods", (0..N).map(|_| direct(family_rod(&mut rng)))));
}

/// Adversarial variants: each case shifted so that its least gap over the step sits around
/// the band (from 6 mm below to 3 mm above target − tolerance): near misses and glancing
/// contacts, where certificates and the relaxed (glancing) path are exercised.
#[test]
fn grazing_rods_and_random_shapes() {
    let mut rng = rng(0x701_0007);
    let lo = (TARGET - TOL) as f64;
    let mut lines = vec![];
    let mut violations = vec![];
    for (k, name) in ["grazing rods", "grazing random convex", "grazing 5 km rods"].into_iter().enumerate() {
        let cases: Vec<ToiCase> = (0..2500)
            .map(|_| {
                let raw = if k == 1 { family_random(&mut rng) } else { family_rod(&mut rng) };
                let (pa, sa, pb, sb) = graze(raw, lo + uni(&mut rng, -0.006, 0.003));
                if k == 2 {
                    let offset = d2(5000.0 + uni(&mut rng, -100.0, 100.0), -5000.0 + uni(&mut rng, -100.0, 100.0));
                    ToiCase::far(pa, sa, pb, sb, offset)
                } else {
                    ToiCase::direct(pa, sa, pb, sb)
                }
            })
            .collect();
        let r = run_family(name, cases.into_iter());
        lines.extend(r.lines);
        violations.extend(r.violations);
    }
    finish(FamilyResult { lines, violations });
}

/// Beyond the brief: shapes far from their body's center of rotation (compound bodies), with
/// random t_max in (0, 1], target in [0, 2 cm] and tolerance in [0.1 mm, 5 mm].
#[test]
fn family_vii_off_center_random_parameters() {
    use rand::RngExt;
    let mut rng = rng(0x701_0009);
    let cases: Vec<ToiCase> = (0..5000)
        .map(|_| {
            let raw = family_off_center(&mut rng);
            // Half of them shifted to pass near the band (about target − 6 mm to + 3 mm).
            let raw = if rng.random_bool(0.5) {
                graze(raw, (TARGET - TOL) as f64 + uni(&mut rng, -0.006, 0.003))
            } else {
                raw
            };
            let mut c = direct(raw);
            if rng.random_bool(0.7) {
                c.t_max = uni(&mut rng, 0.05, 1.0) as f32;
                c.target = uni(&mut rng, 0.0, 0.02) as f32;
                c.tolerance = uni(&mut rng, 1e-4, 5e-3) as f32;
            }
            c
        })
        .collect();
    finish(run_family("(vii) off-center, params", cases.into_iter()));
}

/// Beyond the brief: up to ±12 rad (nearly two turns) per step.
#[test]
fn family_vi_multi_turn() {
    let mut rng = rng(0x701_0008);
    finish(run_family("(vi) multi-turn", (0..5000).map(|_| direct(family_multi_turn(&mut rng)))));
}

#[test]
fn family_iii_bullets_against_thin_walls() {
    let mut rng = rng(0x701_0003);
    finish(run_family("(iii) bullets", (0..N).map(|_| direct(family_bullet(&mut rng)))));
}

#[test]
fn family_iv_pivoting_triangle() {
    let mut rng = rng(0x701_0004);
    finish(run_family("(iv) pivot", (0..N).map(|_| direct(family_pivot(&mut rng, TARGET as f64, TOL as f64)))));
}

#[test]
fn family_v_far_from_origin() {
    let mut rng = rng(0x701_0005);
    let mut lines = vec![];
    let mut violations = vec![];
    for k in 0..4 {
        let name = ["(v) 5 km random convex", "(v) 5 km thin rods", "(v) 5 km bullets", "(v) 5 km pivot"][k];
        let cases: Vec<ToiCase> = (0..N / 4)
            .map(|_| {
                let raw = match k {
                    0 => family_random(&mut rng),
                    1 => family_rod(&mut rng),
                    2 => family_bullet(&mut rng),
                    _ => family_pivot(&mut rng, TARGET as f64, TOL as f64),
                };
                let offset = d2(5000.0 + uni(&mut rng, -100.0, 100.0), -5000.0 + uni(&mut rng, -100.0, 100.0));
                let (pa, sa, pb, sb) = raw;
                ToiCase::far(pa, sa, pb, sb, offset)
            })
            .collect();
        let r = run_family(name, cases.into_iter());
        lines.extend(r.lines);
        violations.extend(r.violations);
    }
    finish(FamilyResult { lines, violations });
}

// ---------------------------------------------------------------------------------------
// Analytic circles
// ---------------------------------------------------------------------------------------

#[test]
fn circle_toi_matches_exact_root() {
    let mut rng = rng(0x701_0006);
    let (mut hits, mut separated, mut overlapped, mut misses_within_eps) = (0, 0, 0, 0);
    let mut worst_gap = 0.0f64;
    let mut worst_t = 0.0f64;
    let mut failures = vec![];
    for i in 0..20_000 {
        let far = if i % 2 == 0 { d2(0.0, 0.0) } else { d2(5000.0 + uni(&mut rng, -100.0, 100.0), -5000.0) };
        let (ra, rb) = (uni(&mut rng, 0.0, 1.0), uni(&mut rng, 0.0, 1.0));
        let a1 = far + d2(uni(&mut rng, -1.0, 1.0), uni(&mut rng, -1.0, 1.0));
        let a2 = a1 + unit_dir(&mut rng) * uni(&mut rng, 0.0, 5.0);
        let b1 = a1 + unit_dir(&mut rng) * uni(&mut rng, 0.0, 10.0);
        let aim = a2 + unit_dir(&mut rng) * uni(&mut rng, 0.0, ra + rb + 0.5);
        let b2 = b1 + (aim - b1) * uni(&mut rng, 0.5, 2.5);
        let target = if i % 3 == 0 { TARGET } else { uni(&mut rng, 0.0, 0.05) as f32 };
        let t_max = if i % 5 == 0 { uni(&mut rng, 0.0, 1.0) as f32 } else { 1.0 };
        let a = MovingCircle { center1: a1.to_f32(), center2: a2.to_f32(), radius: ra as f32 };
        let b = MovingCircle { center1: b1.to_f32(), center2: b2.to_f32(), radius: rb as f32 };
        let out = match circle_time_of_impact(&a, &b, t_max, target) {
            Ok(o) => o,
            Err(e) => {
                failures.push(format!("error {e}: {a:?} {b:?}"));
                continue;
            }
        };
        // Exact, from the f32 inputs.
        let w = |v: Vec2| D2::from_f32(v);
        let p0 = w(b.center1) - w(a.center1);
        let v = (w(b.center2) - w(b.center1)) - (w(a.center2) - w(a.center1));
        let radius = a.radius as f64 + b.radius as f64;
        let contact = radius + target as f64;
        let gap = |t: f64| (p0 + v * t).len() - radius;
        let root = circle_root(p0, v, contact).filter(|&t| t <= t_max as f64);
        // The least gap over [0, t_max] (convex function of t: closed form).
        let t_min = if v.len2() > 0.0 { (-p0.dot(v) / v.len2()).clamp(0.0, t_max as f64) } else { 0.0 };
        let min_gap = gap(t_min).min(gap(0.0)).min(gap(t_max as f64));
        let msg = |what: &str| {
            format!(
                "{what}: {out:?}; |v| = {:.3} m, exact root {root:?}, gap at 0 {:e}, least gap {min_gap:e}, gap at the answer {:e}\nlet a = {a:?};\nlet b = {b:?};\n// t_max {t_max:?} target {target:?}",
                v.len(),
                gap(0.0),
                gap(out.t as f64)
            )
        };
        match out.state {
            ToiState::Overlapped => {
                overlapped += 1;
                if gap(0.0) > EPS {
                    failures.push(msg("Overlapped while apart"));
                }
            }
            ToiState::Hit => {
                hits += 1;
                let g = gap(out.t as f64);
                let tol = if out.t == 0.0 { f64::INFINITY } else { EPS };
                if out.t > 0.0 {
                    worst_gap = worst_gap.max((g - target as f64).abs());
                }
                if let Some(r) = root {
                    worst_t = worst_t.max((out.t as f64 - r).abs());
                }
                let upper = target as f64 + EPS;
                if out.t == 0.0 && (gap(0.0) > upper || gap(0.0) < -EPS) {
                    failures.push(msg("hit at 0 out of band"));
                } else if (g - target as f64).abs() > tol {
                    failures.push(msg("hit gap off the target"));
                }
            }
            ToiState::Separated => {
                separated += 1;
                if min_gap < target as f64 - EPS {
                    failures.push(msg("missed"));
                } else if root.is_some() {
                    misses_within_eps += 1;
                }
            }
            ToiState::Failed => failures.push(msg("Failed")),
        }
    }
    println!(
        "circle_time_of_impact: hits {hits}, separated {separated}, overlapped {overlapped}; worst |gap - target| at a hit {worst_gap:e} m, worst |t - exact root| {worst_t:e}; tangencies within EPS called separated {misses_within_eps}"
    );
    for f in failures.iter().take(4) {
        println!("failure: {f}");
    }
    assert!(hits > 3000 && separated > 3000);
    assert!(failures.is_empty(), "{} failures; first:\n{}", failures.len(), failures[0]);
}

// ---------------------------------------------------------------------------------------
// Catto's named cases ("Continuous Collision", GDC 2013)
// ---------------------------------------------------------------------------------------

/// Targets from 0 down to minus the sum of the radii (rounded shapes allowed to sink into
/// each other), and bands of 5 to 50 mm around targets near minus the radii (the cores may
/// overlap within the band): every `Hit` of both algorithms and of the uncertified variant
/// has a unit normal, and both algorithms pass the reference's checks. Before issue 18, a
/// hit whose cores touched or overlapped in the band had a zero normal (GJK has none there):
/// 36 of 20,000 such queries of the certified algorithm.
#[test]
fn negative_targets_hit_with_a_unit_normal() {
    let mut rng = rng(0x701_0012);
    let mut uncertified = (0, 0);
    let cases: Vec<ToiCase> = (0..2 * N)
        .map(|i| {
            let raw = if i % 4 == 1 { family_rod(&mut rng) } else { family_random(&mut rng) };
            let mut case = direct(raw);
            let radii = (case.proxy_a.radius() + case.proxy_b.radius()) as f64;
            if i < N {
                case.target = if i % 4 == 0 { 0.0 } else { -(uni(&mut rng, 0.0, 1.0) * radii) as f32 };
            } else {
                case.tolerance = uni(&mut rng, 0.005, 0.05) as f32;
                case.target = (uni(&mut rng, -0.9, 0.9) * case.tolerance as f64 - radii) as f32;
            }
            case
        })
        .collect();
    for case in &cases {
        let out = time_of_impact_uncertified(
            &case.proxy_a,
            &case.sweep_a,
            &case.proxy_b,
            &case.sweep_b,
            case.t_max,
            case.target,
            case.tolerance,
        )
        .unwrap();
        if out.state == ToiState::Hit {
            uncertified.0 += 1;
            uncertified.1 += usize::from((out.normal.length() - 1.0).abs() > 1e-5);
        }
    }
    println!("uncertified: {} hits, {} without a unit normal", uncertified.0, uncertified.1);
    assert_eq!(uncertified.1, 0);
    finish(run_family("negative targets", cases.into_iter()));
}

/// A sweep whose turn `a2 - a1` overflows f32 (angles ±3e38 rad) is an error for every
/// variant (before issue 18, conservative advancement returned t = NaN: the rebased end
/// angle was infinite); huge turns that f32 holds still give finite answers. Seeded: 2,000
/// random sweeps with angles of both signs between 1e37 and f32::MAX.
#[test]
fn turns_beyond_f32_are_errors() {
    let a = proxy(&rect_points(1.0, 1.0), 0.0);
    let still = Sweep::fixed(Transform::IDENTITY);
    let mut rng = rng(0x701_0013);
    let (mut errors, mut answers) = (0, 0);
    for i in 0..2_000 {
        let huge = |rng: &mut Rng| (10f64.powf(uni(rng, 37.0, 38.53)).min(f32::MAX as f64) * sign(rng)) as f32;
        let (a1, a2) = if i == 0 { (3.0e38, -3.0e38) } else { (huge(&mut rng), huge(&mut rng)) };
        let turning = Sweep { local_center: Vec2::ZERO, c1: Vec2::new(0.0, 5.0), c2: Vec2::new(0.0, 1.0), a1, a2 };
        let overflows = !(a2 - a1).is_finite();
        for (name, sa, sb) in [("B turns", still, turning), ("A turns", turning, still)] {
            let outs = [
                time_of_impact(&a, &sa, &a, &sb, 1.0, TARGET, TOL),
                time_of_impact_uncertified(&a, &sa, &a, &sb, 1.0, TARGET, TOL),
                conservative_advancement(&a, &sa, &a, &sb, 1.0, TARGET, TOL),
            ];
            for out in outs {
                match out {
                    Err(QueryError::OutOfRange { .. }) if overflows => errors += 1,
                    Ok(o) if !overflows => {
                        answers += 1;
                        let finite = [o.t, o.point.x, o.point.y, o.normal.x, o.normal.y].iter().all(|v| v.is_finite());
                        assert!(finite && (0.0..=1.0).contains(&o.t), "{name}, angles {a1} {a2}: {o:?}");
                    }
                    other => panic!("{name}, angles {a1} {a2} (turn overflows: {overflows}): {other:?}"),
                }
            }
        }
    }
    println!("turns beyond f32: {errors} errors, {answers} finite answers");
    assert!(errors > 500 && answers > 1_000, "{errors} {answers}");
}

/// Issue 18: a 0.1 m polygon and a 1,000 km capsule 408 km apart (and 300 seeded poses
/// around, the polygon moving 1 m, turning or not) are `Separated` for both algorithms and
/// the uncertified variant; before, a wrongly refined distance of zero made them
/// `Overlapped`.
#[test]
fn polygon_far_from_a_huge_capsule_is_not_overlapped() {
    let mut rng = rng(0x701_0014);
    for i in 0..300 {
        let polygon = proxy(&random_convex(&mut rng, 6, 0.05, d2(0.0, 0.0)), 0.0);
        let capsule = proxy(&to_f32(&[d2(-5.0e5, 0.0), d2(5.0e5, 0.0)]), uni(&mut rng, 0.0, 10.0));
        let start = d2(uni(&mut rng, -1e3, 1e3), uni(&mut rng, -1e3, 1e3));
        let angle = uni(&mut rng, -PI, PI);
        let turn = if i % 2 == 0 { 0.0 } else { uni(&mut rng, -3.0, 3.0) };
        let sa =
            RefSweep { lc: d2(0.0, 0.0), c1: start, c2: start + unit_dir(&mut rng) * 1.0, a1: angle, a2: angle + turn };
        let normal_angle = uni(&mut rng, -PI, PI);
        let (along, normal) =
            (d2(normal_angle.cos(), normal_angle.sin()).perp(), d2(normal_angle.cos(), normal_angle.sin()));
        let center = start + normal * (408.0e3 + capsule.radius() as f64) + along * uni(&mut rng, -3.0e5, 3.0e5);
        let sb = RefSweep::fixed(center, normal_angle + std::f64::consts::FRAC_PI_2);
        let case = ToiCase::direct(polygon, sa, capsule, sb);
        assert!(case.motion.sd_at(0.0) > 4.0e5);
        let (ba, ca) = both(&case);
        let peers =
            time_of_impact_uncertified(&polygon, &case.sweep_a, &capsule, &case.sweep_b, 1.0, TARGET, TOL).unwrap();
        for o in [ba, ca, peers] {
            assert_eq!(o.state, ToiState::Separated, "{o:?}\n{}", case.repro());
        }
    }
}

fn both(case: &ToiCase) -> (ToiOutput, ToiOutput) {
    let rf = facts(case);
    let mut st = Stats::default();
    let mut outs = vec![];
    for algo in [Algo::Bilateral, Algo::Conservative] {
        let (out, _) = run(case, algo);
        if let Some(v) = classify(case, &rf, out.clone(), &mut st) {
            panic!("{algo:?}: {v}");
        }
        outs.push(out.unwrap());
    }
    (outs[0], outs[1])
}

#[test]
fn catto_ball_against_a_thin_plane() {
    // A 0.25 m ball falling 4 m in one step onto a 1 cm plane: would step over it.
    let plane = proxy(&rect_points(10.0, 0.005), 0.0);
    let ball = proxy(&[Vec2::ZERO], 0.25);
    let case = ToiCase::direct(
        plane,
        RefSweep::fixed(d2(0.0, 0.0), 0.0),
        ball,
        RefSweep { lc: d2(0.0, 0.0), c1: d2(0.0, 2.0), c2: d2(0.0, -2.0), a1: 0.0, a2: 0.0 },
    );
    let (ba, ca) = both(&case);
    assert_eq!((ba.state, ca.state), (ToiState::Hit, ToiState::Hit));
    // Gap 2 − 4t − 0.255 = target at t = 0.435.
    for o in [ba, ca] {
        assert!((o.t - 0.435).abs() <= TOL / 4.0 + 1e-6, "{o:?}");
        assert!((o.normal - Vec2::Y).length() < 1e-5);
    }
    println!("ball vs thin plane: BA {} iterations, CA {}", ba.iterations, ca.iterations);
}

#[test]
fn catto_pivoting_triangle_ba_few_ca_many() {
    // The triangle turns about P1, which hovers above the ground, while P2 swings down.
    let ground = proxy(&to_f32(&[d2(-5.0, -0.5), d2(5.0, -0.5), d2(5.0, 0.0), d2(-5.0, 0.0)]), 0.0);
    let tri = proxy(&[Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.6), Vec2::new(0.2, 1.0)], 0.0);
    let mut rows = vec![];
    for hover_above_band in [2e-3, 1e-3, 5e-4, 2.5e-4, 1.25e-4] {
        let h = (TARGET + TOL) as f64 + hover_above_band;
        let case = ToiCase::direct(
            ground,
            RefSweep::fixed(d2(0.0, 0.0), 0.0),
            tri,
            RefSweep { lc: d2(0.0, 0.0), c1: d2(0.0, h), c2: d2(0.0, h), a1: 0.0, a2: -1.2 },
        );
        let (ba, ca) = both(&case);
        assert_eq!(ba.state, ToiState::Hit, "{ba:?}");
        rows.push((hover_above_band, ba.iterations, ba.root_iterations, ca.iterations, ca.state));
        assert!(ba.iterations <= 6, "BA should need few iterations: {ba:?}");
        assert!(ca.iterations > 4 * ba.iterations, "CA should need many: CA {ca:?}, BA {ba:?}");
    }
    for (h, bi, br, ci, cs) in &rows {
        println!("pivot {h:e} m above the band: BA {bi} iterations ({br} root), CA {ci} iterations ({cs:?})");
    }
    // Catto: CA's step is the gap over the worst-case speed, so its iteration count grows
    // as the pivot comes down (here bounded by the band: the aim is mid-band, so the gap
    // it divides never falls below the tolerance).
    assert!(rows.windows(2).all(|w| w[1].3 >= w[0].3) && rows[4].3 > 2 * rows[0].3, "{rows:?}");
}

#[test]
fn catto_oblong_box_falling_with_rotation() {
    // A 2 m × 0.2 m box falls 3 m onto the ground while turning 2 rad in one step.
    let ground = proxy(&to_f32(&[d2(-10.0, -1.0), d2(10.0, -1.0), d2(10.0, 0.0), d2(-10.0, 0.0)]), 0.0);
    let oblong = proxy(&rect_points(1.0, 0.1), 0.0);
    for (k, turn) in [0.5, 1.0, 2.0, -2.0, 3.0].into_iter().enumerate() {
        let case = ToiCase::direct(
            ground,
            RefSweep::fixed(d2(0.0, 0.0), 0.0),
            oblong,
            RefSweep { lc: d2(0.0, 0.0), c1: d2(0.3, 2.5), c2: d2(0.1 * k as f64, -0.5), a1: 0.2, a2: 0.2 + turn },
        );
        let (ba, ca) = both(&case);
        assert_eq!(ba.state, ToiState::Hit, "{ba:?}");
        println!(
            "oblong box turning {turn} rad: BA t {} ({} iterations, {} subdivisions), CA t {} ({} iterations)",
            ba.t, ba.iterations, ba.subdivisions, ca.t, ca.iterations
        );
    }
}

#[test]
fn spinning_rod_through_a_box_corner() {
    // The rod's tip passes through the box at mid-step and is clear at both ends.
    let block = proxy(&rect_points(0.5, 0.5), 0.0);
    let rod = proxy(&rect_points(1.5, 0.01), 0.0);
    let case = ToiCase::direct(
        block,
        RefSweep::fixed(d2(0.0, 0.0), 0.0),
        rod,
        RefSweep { lc: d2(0.0, 0.0), c1: d2(0.0, 1.2), c2: d2(0.0, 1.2), a1: 0.0, a2: PI },
    );
    let (ba, ca) = both(&case);
    assert_eq!((ba.state, ca.state), (ToiState::Hit, ToiState::Hit), "{ba:?} {ca:?}");
}
