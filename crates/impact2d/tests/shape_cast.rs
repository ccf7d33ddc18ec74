//! `shape_cast` against the f64 reference (conservative advancement in f64 along the
//! translation, Lipschitz constant |translation|, which cannot step over a dip).
//!
//! Claims checked, with EPS = 2e-5 m (f32 positions up to ~10 m: about 20 ulps):
//! * a hit at fraction f > 0 has its gap in [target − tol − EPS, target + tol + EPS];
//! * never late: the gap does not drop below target − tol − EPS before f;
//! * a hit at 0 starts within target + tol + EPS;
//! * a miss (`None`) means the gap stays above target − tol − EPS up to max_fraction,
//!   and the start is not already within the band.

mod common;

use common::cases::*;
use common::reference::*;
use impact2d::settings::{LINEAR_SLOP, TOI_TOLERANCE};
use impact2d::*;
use rand::RngExt;
use std::f64::consts::PI;

const EPS: f64 = 2.0e-5;
/// Time resolution of a cast answer (f32 fractions near 1 are spaced 6e-8).
const EPS_T: f64 = 1.0e-6;

#[derive(Default, Debug)]
struct Stats {
    cases: usize,
    hits: usize,
    hits_at_zero: usize,
    misses_ok: usize,
    missed: usize,
    late: usize,
    out_of_band: usize,
    errors: usize,
    worst_band_excess: f64,
    max_iterations: u32,
    mean_iterations: f64,
    reference_capped: usize,
}

struct CastCase {
    pa: ShapeProxy,
    xa: Transform,
    pb: ShapeProxy,
    xb: Transform,
    translation: Vec2,
    max_fraction: f32,
    target: f32,
    tolerance: f32,
}

impl CastCase {
    fn input(&self) -> ShapeCastInput<'_> {
        ShapeCastInput {
            proxy_a: &self.pa,
            transform_a: self.xa,
            proxy_b: &self.pb,
            transform_b: self.xb,
            translation_b: self.translation,
            max_fraction: self.max_fraction,
            target: self.target,
            tolerance: self.tolerance,
        }
    }
    fn reference(&self) -> Cast {
        Cast {
            a: RefShape::from_proxy(&self.pa),
            pose_a: Pose::from_f32(self.xa),
            b: RefShape::from_proxy(&self.pb),
            pose_b: Pose::from_f32(self.xb),
            translation: D2::from_f32(self.translation),
        }
    }
    fn repro(&self) -> String {
        format!(
            "ShapeCastInput {{ proxy_a: &{}, transform_a: {}, proxy_b: &{}, transform_b: {}, translation_b: {}, max_fraction: {}, target: {}, tolerance: {} }}",
            proxy_src(&self.pa),
            xf_src(&self.xa),
            proxy_src(&self.pb),
            xf_src(&self.xb),
            vsrc(self.translation),
            fsrc(self.max_fraction),
            fsrc(self.target),
            fsrc(self.tolerance)
        )
    }
}

fn check(case: &CastCase, st: &mut Stats) -> Result<(), String> {
    st.cases += 1;
    let r = case.reference();
    let (lo, hi) = ((case.target - case.tolerance) as f64, (case.target + case.tolerance) as f64);
    let max_f = case.max_fraction as f64;
    let out = match shape_cast(&case.input()) {
        Ok(o) => o,
        Err(e) => {
            st.errors += 1;
            return Err(format!("error on valid input: {e}"));
        }
    };
    match out {
        Some(hit) => {
            st.max_iterations = st.max_iterations.max(hit.iterations);
            st.mean_iterations += hit.iterations as f64;
            if !(hit.fraction.is_finite() && hit.point.is_finite() && hit.normal.is_finite()) {
                return Err(format!("non-finite output {hit:?}"));
            }
            let f = hit.fraction as f64;
            if !(0.0..=max_f).contains(&f) {
                return Err(format!("fraction out of [0, max_fraction]: {hit:?}"));
            }
            let gap = r.sd_at(f);
            if f == 0.0 {
                st.hits_at_zero += 1;
                if gap > hi + EPS {
                    st.out_of_band += 1;
                    return Err(format!("hit at 0 with gap {gap:e} above the band: {hit:?}"));
                }
                return Ok(());
            }
            st.hits += 1;
            let excess = (lo - gap).max(gap - hi);
            st.worst_band_excess = st.worst_band_excess.max(excess);
            if excess > EPS {
                st.out_of_band += 1;
                return Err(format!("out-of-band hit: gap {gap:e} at fraction {f}, band [{lo:e}, {hi:e}]: {hit:?}"));
            }
            let c = r.first_below(lo - EPS, f);
            st.reference_capped += c.capped as usize;
            if let Some(tc) = c.t {
                if tc < f - EPS_T {
                    st.late += 1;
                    return Err(format!(
                        "late hit at {f}: the gap is already {:e} (< {:e}) at fraction {tc}: {hit:?}",
                        r.sd_at(tc),
                        lo - EPS
                    ));
                }
            }
        }
        None => {
            let c = r.first_below(lo - EPS, max_f);
            st.reference_capped += c.capped as usize;
            if let Some(tc) = c.t {
                st.missed += 1;
                let (min, at) = r.min_sd(max_f);
                return Err(format!(
                    "missed: the gap reaches {:e} at fraction {tc} (minimum {min:e} at {at}), band [{lo:e}, {hi:e}]",
                    r.sd_at(tc)
                ));
            }
            let start = r.sd_at(0.0);
            if start < hi - EPS {
                st.missed += 1;
                return Err(format!("missed a start within the band: gap at 0 is {start:e}"));
            }
            st.misses_ok += 1;
        }
    }
    Ok(())
}

fn random_case(rng: &mut Rng) -> CastCase {
    let size = uni(rng, 0.05, 1.0);
    let (pa, _) = random_shape(rng, size);
    let size = uni(rng, 0.05, 1.0);
    let (pb, _) = random_shape(rng, size);
    let pos_a = d2(uni(rng, -1.0, 1.0), uni(rng, -1.0, 1.0));
    let (xa, _) = pose_pair(pos_a, uni(rng, -PI, PI));
    let start = pos_a + unit_dir(rng) * uni(rng, 0.3, 5.0);
    let (xb, _) = pose_pair(start, uni(rng, -PI, PI));
    let aim = pos_a + unit_dir(rng) * uni(rng, 0.0, 1.5);
    let translation = ((aim - start) * uni(rng, 0.3, 2.0)).to_f32();
    let max_fraction = if rng.random_bool(0.8) { 1.0 } else { uni(rng, 0.0, 1.0) as f32 };
    let (target, tolerance) = match rng.random_range(0..4u32) {
        0 => (0.0, TOI_TOLERANCE),
        1 => (LINEAR_SLOP, TOI_TOLERANCE),
        2 => (uni(rng, 0.0, 0.1) as f32, TOI_TOLERANCE),
        _ => (uni(rng, 0.0, 0.05) as f32, uni(rng, 1e-4, 1e-2) as f32),
    };
    CastCase { pa, xa, pb, xb, translation, max_fraction, target, tolerance }
}

#[test]
fn shape_cast_matches_reference() {
    let mut rng = rng(0xca57_0001);
    let mut st = Stats::default();
    let mut failures = vec![];
    for _ in 0..20_000 {
        let case = random_case(&mut rng);
        if let Err(e) = check(&case, &mut st) {
            let msg = format!("{e}\n{}", case.repro());
            if failures.is_empty() {
                println!("first failure: {msg}");
            }
            failures.push(msg);
        }
    }
    st.mean_iterations /= (st.hits + st.hits_at_zero).max(1) as f64;
    println!("shape_cast random: {st:?}");
    assert!(st.hits > 5000 && st.misses_ok > 3000, "{st:?}");
    assert_eq!(st.reference_capped, 0);
    assert!(failures.is_empty(), "{} failures; first:\n{}", failures.len(), failures[0]);
}

/// Glancing passes: B slides past a corner of A with clearances around the band, where the
/// gap along the translation has a shallow minimum (the slow case of linear casting).
#[test]
fn shape_cast_grazing_corners() {
    let mut rng = rng(0xca57_0002);
    let mut st = Stats::default();
    let mut failures = vec![];
    for _ in 0..10_000 {
        let size = uni(&mut rng, 0.1, 1.0);
        let (pa, _) = random_shape(&mut rng, size);
        let size = uni(&mut rng, 0.1, 1.0);
        let (pb, _) = random_shape(&mut rng, size);
        let (xa, posa) = pose_pair(d2(0.0, 0.0), uni(&mut rng, -PI, PI));
        let angle_b = uni(&mut rng, -PI, PI);
        let dir = unit_dir(&mut rng);
        let side = dir.perp();
        let (ra, rb) = (RefShape::from_proxy(&pa), RefShape::from_proxy(&pb));
        // The least gap along an (unbounded) straight path is the gap between the
        // projections of A and B on the path's perpendicular: choose the lateral offset so
        // that it is the clearance; the 8 m path covers the closest approach.
        let clearance = (LINEAR_SLOP as f64) + uni(&mut rng, -0.004, 0.004);
        let ca = ra.placed(&posa);
        let cb = rb.placed(&Pose::new(d2(0.0, 0.0), angle_b));
        let max_a = ca.pts().iter().map(|p| p.dot(side)).fold(f64::NEG_INFINITY, f64::max);
        let min_b = cb.pts().iter().map(|p| p.dot(side)).fold(f64::INFINITY, f64::min);
        let hi = clearance + ra.radius + rb.radius + max_a - min_b;
        let (xb, _) = pose_pair(side * hi - dir * 4.0, angle_b);
        let case = CastCase {
            pa,
            xa,
            pb,
            xb,
            translation: (dir * 8.0).to_f32(),
            max_fraction: 1.0,
            target: LINEAR_SLOP,
            tolerance: TOI_TOLERANCE,
        };
        if let Err(e) = check(&case, &mut st) {
            let msg = format!("{e}\n{}", case.repro());
            if failures.is_empty() {
                println!("first failure: {msg}");
            }
            failures.push(msg);
        }
    }
    st.mean_iterations /= (st.hits + st.hits_at_zero).max(1) as f64;
    println!("shape_cast grazing: {st:?}");
    assert_eq!(st.reference_capped, 0);
    assert!(failures.is_empty(), "{} failures; first:\n{}", failures.len(), failures[0]);
}

#[test]
fn shape_cast_hand_cases() {
    let ground = proxy(&rect_points(5.0, 0.5), 0.0);
    let ball = proxy(&[Vec2::ZERO], 0.5);
    let b = proxy(&rect_points(0.25, 0.25), 0.0);
    let mut st = Stats::default();
    let mk = |pb: ShapeProxy, start: Vec2, angle: f32, translation: Vec2, target: f32| CastCase {
        pa: ground,
        xa: Transform::IDENTITY,
        pb,
        xb: Transform::new(start, angle),
        translation,
        max_fraction: 1.0,
        target,
        tolerance: TOI_TOLERANCE,
    };
    let cases = [
        ("ball down onto the ground", mk(ball, Vec2::new(1.0, 3.0), 0.0, Vec2::new(0.0, -4.0), 0.0), Some(0.5)),
        ("ball with a 0.1 m skin", mk(ball, Vec2::new(1.0, 3.0), 0.0, Vec2::new(0.0, -4.0), 0.1), Some(0.475)),
        ("ball moving away", mk(ball, Vec2::new(1.0, 3.0), 0.0, Vec2::new(0.0, 4.0), 0.0), None),
        ("box sliding above", mk(b, Vec2::new(-8.0, 1.5), 0.3, Vec2::new(16.0, 0.0), 0.0), None),
        ("box into the side", mk(b, Vec2::new(-8.0, 0.6), 0.3, Vec2::new(16.0, 0.0), 0.0), Some(-1.0)),
        // A box turned 45° whose corner slides 2 mm above the ground's top corner (band top 1.25 mm).
        (
            "corner over corner",
            mk(
                b,
                Vec2::new(-8.0, 0.5 + 0.002 + 0.25 * std::f32::consts::SQRT_2),
                std::f32::consts::FRAC_PI_4,
                Vec2::new(16.0, 0.0),
                0.0,
            ),
            None,
        ),
    ];
    for (name, case, expected) in cases {
        check(&case, &mut st).unwrap_or_else(|e| panic!("{name}: {e}"));
        let out = shape_cast(&case.input()).unwrap();
        match expected {
            None => assert!(out.is_none(), "{name}: {out:?}"),
            Some(f) if f >= 0.0 => assert!((out.unwrap().fraction - f).abs() < TOI_TOLERANCE / 4.0, "{name}: {out:?}"),
            Some(_) => assert!(out.is_some(), "{name}"),
        }
    }
}
