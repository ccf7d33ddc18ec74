//! `time_of_impact` and `conservative_advancement` against the f64 reference.

use super::case::{Pair, extent, keep_within};
use super::{SPACINGS, finite, first_dip};
use crate::reference::{D2, Motion, RefSweep};
use crate::source::Source;
use crate::tally::{Fault, Tier, Verdict};
use impact2d::settings::{TOI_TARGET, TOI_TOLERANCE};
use impact2d::{ShapeProxy, Sweep, ToiOutput, ToiState, Transform, conservative_advancement, time_of_impact};

/// Which time of impact to run.
#[derive(Clone, Copy, Debug)]
pub enum Algorithm {
    /// `time_of_impact`: certified bilateral advancement.
    Bilateral,
    /// `conservative_advancement`.
    Conservative,
}

/// The time of impact of the pair moved by drawn sweeps (B mostly toward A, both turning up
/// to 20 rad in the step), classified against the reference as `tests/toi.rs` does, with the
/// documented precision as the tolerance E: a `Hit` has its gap within the band ± E and no
/// dip below the band − E before it; `Separated` has no dip below the band deeper than a
/// glancing contact (a quarter of the thinner shape); `Overlapped` starts with a gap below E;
/// `Failed` is safe (no dip before its time).
pub fn check_toi(src: &mut Source, pair: &Pair, algorithm: Algorithm) -> Verdict {
    let (sweep_a, sweep_b) = sweeps(src, pair);
    let t_max = if src.chance(3, 4) { 1.0 } else { src.unit() as f32 };
    let (target, tolerance) = if src.chance(3, 4) {
        (TOI_TARGET, TOI_TOLERANCE)
    } else {
        let tolerance = src.log_uniform(1.0e-5, 1.0e-2) as f32;
        let radii = pair.proxy_a.radius() + pair.proxy_b.radius();
        (src.uniform(-(radii as f64), 0.05) as f32, tolerance)
    };
    let case = ToiCase { sweep_a, sweep_b, t_max, target, tolerance };
    let run = match algorithm {
        Algorithm::Bilateral => time_of_impact,
        Algorithm::Conservative => conservative_advancement,
    };
    match run(&pair.proxy_a, &sweep_a, &pair.proxy_b, &sweep_b, t_max, target, tolerance) {
        Ok(out) => judge_toi(pair, &case, &out),
        Err(_) if target + tolerance <= -(pair.proxy_a.radius() + pair.proxy_b.radius()) => Verdict::clean(pair.tier),
        Err(e) => Verdict::fault(pair.tier, Fault::Wrong, format!("{algorithm:?} refused a valid sweep: {e}")),
    }
}

/// The motion and parameters of a time of impact query.
#[derive(Clone, Copy, Debug)]
pub struct ToiCase {
    /// A's sweep over the step.
    pub sweep_a: Sweep,
    /// B's sweep over the step.
    pub sweep_b: Sweep,
    /// The end of the search (normalized time).
    pub t_max: f32,
    /// The gap sought (meters).
    pub target: f32,
    /// The half width of the band around it (meters).
    pub tolerance: f32,
}

/// The verdict on `out`, an answer for `case` (see [`check_toi`]).
pub fn judge_toi(pair: &Pair, case: &ToiCase, out: &ToiOutput) -> Verdict {
    if !finite(&[out.t, out.point.x, out.point.y, out.normal.x, out.normal.y]) {
        return Verdict::fault(pair.tier, Fault::NonFinite, format!("time of impact: {out:?}"));
    }
    let (ra, rb) = pair.reference();
    let (sweep_a, sweep_b) = (case.sweep_a, case.sweep_b);
    let motion = Motion { a: ra, sa: RefSweep::from_f32(&sweep_a), b: rb, sb: RefSweep::from_f32(&sweep_b) };
    let tol = SPACINGS * rebased_spacing(pair, &sweep_a, &sweep_b);
    let band = ((case.target - case.tolerance) as f64, (case.target + case.tolerance) as f64);
    match classify(&motion, out, case.t_max as f64, band, tol) {
        Some(m) => {
            let m = format!(
                "time of impact {out:?}: {m} (band [{:e}, {:e}], E = {tol:e}); sweeps {sweep_a:?} {sweep_b:?}",
                band.0, band.1
            );
            Verdict::fault(pair.tier, Fault::Wrong, m)
        }
        None => Verdict::clean(pair.tier),
    }
}

/// Sweeps that start at the pair's poses: A still or drifting, B moving toward A (or past
/// it), each turning by up to 20 rad (ordinary tier) about a center somewhere in the shape.
fn sweeps(src: &mut Source, pair: &Pair) -> (Sweep, Sweep) {
    let max_turn = if pair.tier == Tier::Large { 5.0 } else { 20.0 };
    let toward = D2::from_f32(pair.xf_a.p) - D2::from_f32(pair.xf_b.p);
    let drift = if src.chance(1, 2) {
        D2::default()
    } else {
        let (x, y) = src.direction();
        D2 { x, y } * (src.unit() * toward.len().min(10.0))
    };
    let sweep_a = sweep(src, (&pair.proxy_a, pair.xf_a), drift, max_turn);
    let (x, y) = src.direction();
    let push = toward * src.uniform(0.0, 2.5) + D2 { x, y } * (src.unit() * 0.5 * toward.len());
    let sweep_b = sweep(src, (&pair.proxy_b, pair.xf_b), push, max_turn);
    (sweep_a, sweep_b)
}

/// A sweep from `xf` moved by `push` and turned by up to `max_turn` (radians) about a
/// center drawn within half the shape's extent.
fn sweep(src: &mut Source, (proxy, xf): (&ShapeProxy, Transform), push: D2, max_turn: f64) -> Sweep {
    let (x, y) = src.direction();
    let local_center = (D2 { x, y } * (0.5 * extent(proxy) * src.unit())).to_f32();
    let c1 = xf.apply(local_center);
    let turn = if src.chance(1, 3) { 0.0 } else { src.uniform(-max_turn, max_turn) as f32 };
    let a1 = xf.q.angle();
    Sweep { local_center, c1, c2: c1 + keep_within(c1, push).to_f32(), a1, a2: a1 + turn }
}

/// The f32 spacing of the largest coordinate after rebasing on A's start: the shapes'
/// extents grown by how far their angles reach (an angle's round-off turns the whole shape),
/// how far apart they start and how far they move.
fn rebased_spacing(pair: &Pair, a: &Sweep, b: &Sweep) -> f64 {
    let angle = |s: &Sweep| 1.0 + s.a1.abs().max(s.a2.abs()) as f64;
    let length = |v: impact2d::Vec2| D2::from_f32(v).len();
    let reach = extent(&pair.proxy_a) * angle(a) + extent(&pair.proxy_b) * angle(b);
    let travel = length(a.c2 - a.c1) + length(b.c2 - b.c1) + length(b.c1 - a.c1);
    f32::EPSILON as f64 * (reach + travel + length(a.local_center) + length(b.local_center))
}

/// The classification of `tests/toi.rs`; a description of what is wrong, if anything.
fn classify(m: &Motion, out: &ToiOutput, t_max: f64, (lo, hi): (f64, f64), tol: f64) -> Option<String> {
    let t = out.t as f64;
    let dip = |threshold: f64, t_end: f64| first_dip(|t| m.sd_at(t), m.lipschitz(), threshold, t_end);
    let sd0 = m.sd_at(0.0);
    match out.state {
        ToiState::Overlapped => (sd0 >= tol).then(|| format!("Overlapped, but the gap at 0 is {sd0:e}")),
        ToiState::Hit if !(0.0..=t_max).contains(&t) => Some("hit time outside [0, t_max]".to_owned()),
        ToiState::Hit if (D2::from_f32(out.normal).len() - 1.0).abs() > 1e-5 => Some("hit normal not unit".to_owned()),
        ToiState::Hit if t == 0.0 => (sd0 > hi + tol).then(|| format!("hit at 0 with the gap {sd0:e} above the band")),
        ToiState::Hit => {
            let gap = m.sd_at(t);
            if gap < lo - tol || gap > hi + tol {
                return Some(format!("out-of-band hit: gap {gap:e} at t = {t}"));
            }
            dip(lo - tol, t).map(|tc| format!("late: the gap is {:e} at t = {tc}", m.sd_at(tc)))
        }
        ToiState::Separated => {
            if sd0 <= hi - tol {
                return Some(format!("Separated, but the gap at 0 is {sd0:e}"));
            }
            let glance = 0.25 * m.a.thickness().min(m.b.thickness());
            dip(lo - tol - glance, t_max).map(|tc| format!("solid miss: the gap is {:e} at t = {tc}", m.sd_at(tc)))
        }
        ToiState::Failed => dip(lo - tol, t).map(|tc| format!("Failed late: the gap is {:e} at t = {tc}", m.sd_at(tc))),
    }
}
