//! Part `toi3d`: impact3d against parry3d 0.31 on the same 3D queries (issue 20).
//!
//! * Time of impact: the seeded families of impact3d's tests (random shapes, thin rods
//!   spinning 1–3 rad per step near boxes, small spheres at 5–40 m per step against slabs
//!   5 mm thick, Catto's hovering tetrahedron), half of each 5 km from the origin, answered by
//!   impact3d's `time_of_impact`, its uncertified variant, parry3d's `sweep_time_of_impact`
//!   and its `cast_shapes_nonlinear` (what rapier's continuous collision falls back on) in
//!   both of its modes, timed in interleaved batches and checked against the f64 brute-force
//!   reference of `models.rs` under each algorithm's own motion model and band
//!   ([`Prepped::band`]).
//! * GJK distance and ray casts: `queries.rs`.
//!
//! Classification (gaps are signed surface distances; EPS = 2e-5 m + 16 f32 spacings of the
//! query's extent, EPS_T = 1e-6, as impact3d's tests/toi.rs grants):
//!
//! * **miss**: Separated (or an Overlapped claim while apart at t = 0) although the gap drops
//!   below the band's bottom lo − EPS during the step; **solid** when it also drops below
//!   −1 mm (the shapes really sink 1 mm into each other), else **glancing**.
//! * **late**: a Hit or Failed at t although the gap already dropped below lo − EPS before
//!   t − EPS_T (the caller would move the bodies into each other).
//! * **false hit**: a Hit whose gap at t is above the band's top + EPS (stopped early), or an
//!   Overlapped claim while apart with no collision to come.
//!
//! parry's directional mode lets an overlap at the start go by design (rapier's contact
//! solver deals with it): its answers on queries already within its band at t = 0 are not
//! judged.

mod algorithms;
mod cases;
mod models;
pub mod queries;
#[path = "../../../../crates/impact3d/tests/support/mod.rs"]
mod support;

pub use algorithms::Algo;
use algorithms::{ALGOS, Answer, Kind, Prepped};
use cases::{FAMILIES, Query};
use std::hint::black_box;
use std::time::Instant;

const EPS_T: f64 = 1.0e-6;
/// How deep a miss must sink to be solid (meters).
pub const SOLID_DEPTH: f64 = 0.001;
/// Queries per timed batch.
const BATCH: usize = 64;
/// Timings of each batch; the fastest is kept.
const REPEATS: usize = 3;

/// One line of the time of impact table: an algorithm on one half of a family.
#[derive(Clone, Debug, Default)]
pub struct Row {
    /// The family, where it sits, and the algorithm.
    pub family: &'static str,
    pub far: bool,
    pub algo: &'static str,
    pub queries: usize,
    /// Time per query (µs): mean, median and 99th percentile of the batches' times per query.
    pub mean_us: f64,
    pub median_us: f64,
    pub p99_us: f64,
    /// Answers of each kind and the verdicts of the module documentation.
    pub hits: usize,
    pub solid_misses: usize,
    pub glancing_misses: usize,
    pub late: usize,
    pub false_hits: usize,
    pub failed: usize,
    /// Queries whose reference search ran out of steps (not classified).
    pub unknown: usize,
    /// The first wrong answer of each kind, described (for `--explain`).
    pub problems: Vec<String>,
    /// Largest distance (m) between the algorithm's own f32 motion and its reference model.
    pub model_error: f64,
    /// The timed batches: time per query (µs) and size.
    pub samples: Vec<(f64, usize)>,
}

/// Time of impact on every family: `n` queries each, half of them 5 km out.
pub fn run(n: usize) -> Vec<Row> {
    let mut rows = Vec::new();
    for (which, &family) in FAMILIES.iter().enumerate() {
        let queries = cases::generate(which, n);
        for far in [false, true] {
            let set: Vec<&Query> = queries.iter().filter(|q| q.far == far).collect();
            let prepped: Vec<Prepped> = set.iter().map(|q| Prepped::new(q)).collect();
            let (answers, samples) = time_interleaved(&prepped, &ALGOS, |p, algo| p.run(algo));
            let verdicts = classify_set(&set, &prepped, &answers);
            for (j, &algo) in ALGOS.iter().enumerate() {
                let mut row = verdicts[j].clone();
                row.family = family;
                row.far = far;
                row.algo = algo.name();
                row.queries = set.len();
                (row.mean_us, row.median_us, row.p99_us) = summarize(&samples[j]);
                row.samples = samples[j].clone();
                rows.push(row);
            }
        }
    }
    rows
}

/// Every family's rows of each algorithm added up (the time per query over all of them).
pub fn totals(rows: &[Row]) -> Vec<Row> {
    ALGOS
        .iter()
        .map(|algo| {
            let mut t = Row { family: "all", algo: algo.name(), ..Row::default() };
            for r in rows.iter().filter(|r| r.algo == algo.name()) {
                t.queries += r.queries;
                t.hits += r.hits;
                t.solid_misses += r.solid_misses;
                t.glancing_misses += r.glancing_misses;
                t.late += r.late;
                t.false_hits += r.false_hits;
                t.failed += r.failed;
                t.unknown += r.unknown;
                t.model_error = t.model_error.max(r.model_error);
                t.samples.extend_from_slice(&r.samples);
            }
            (t.mean_us, t.median_us, t.p99_us) = summarize(&t.samples);
            t
        })
        .collect()
}

/// Per algorithm: the answers to every item, or the timed batches (µs per item, size).
pub type PerAlgo<T> = Vec<Vec<T>>;

/// Mean time per query (weighted by batch size), and the median and 99th percentile of the
/// batches' times per query (µs).
pub fn summarize(samples: &[(f64, usize)]) -> (f64, f64, f64) {
    let count: usize = samples.iter().map(|s| s.1).sum();
    let mean = samples.iter().map(|&(t, n)| t * n as f64).sum::<f64>() / count as f64;
    let mut s: Vec<f64> = samples.iter().map(|s| s.0).collect();
    s.sort_by(f64::total_cmp);
    let at = |p: f64| s[((s.len() - 1) as f64 * p).round() as usize];
    (mean, at(0.5), at(0.99))
}

/// Runs every algorithm on every item and times them: the algorithms are interleaved batch
/// by batch (their order turning) so that they share the machine's noise, and each batch is
/// timed [`REPEATS`] times, the fastest kept (a batch that lost its core to another process
/// would otherwise make the tail). Returns the answers of the first repeat and the time per
/// item (µs) and size of every batch, per algorithm.
pub fn time_interleaved<T, A: Copy, R: Copy>(
    items: &[T],
    algos: &[A],
    run: impl Fn(&T, A) -> R,
) -> (PerAlgo<R>, PerAlgo<(f64, usize)>) {
    let mut answers: Vec<Vec<R>> = algos.iter().map(|_| Vec::with_capacity(items.len())).collect();
    let mut samples: Vec<Vec<(f64, usize)>> = algos.iter().map(|_| Vec::new()).collect();
    let mut out = Vec::with_capacity(BATCH);
    for (b, batch) in items.chunks(BATCH).enumerate() {
        let mut best = vec![f64::INFINITY; algos.len()];
        for repeat in 0..REPEATS {
            for r in 0..algos.len() {
                let j = (b + r + repeat) % algos.len();
                out.clear();
                let start = Instant::now();
                for item in batch {
                    out.push(black_box(run(black_box(item), black_box(algos[j]))));
                }
                best[j] = best[j].min(start.elapsed().as_secs_f64() * 1e6 / batch.len() as f64);
                if repeat == 0 {
                    answers[j].extend_from_slice(&out);
                }
            }
        }
        for (s, t) in samples.iter_mut().zip(best) {
            s.push((t, batch.len()));
        }
    }
    (answers, samples)
}

/// What went wrong with one answer, if anything.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Verdict {
    Fine,
    SolidMiss,
    GlancingMiss,
    Late,
    FalseHit,
    Unknown,
}

/// Classifies every algorithm's answers on one set; one row (counts only) per algorithm.
fn classify_set(set: &[&Query], prepped: &[Prepped], answers: &[Vec<Answer>]) -> Vec<Row> {
    let mut rows = vec![Row::default(); ALGOS.len()];
    for (i, (q, p)) in set.iter().zip(prepped).enumerate() {
        let eps = 2e-5 + 16.0 * f32::EPSILON as f64 * p.extent();
        // Algorithms of one model share a band: one reference search for each model.
        let mut first: [Option<models::Crossing>; 3] = [None; 3];
        for (j, &algo) in ALGOS.iter().enumerate() {
            let a = answers[j][i];
            let row = &mut rows[j];
            let pair = p.pair(algo);
            let (lo, hi, core_overlap) = p.band(algo);
            let cross = *first[algo.model()].get_or_insert_with(|| pair.first_below(lo - eps));
            let verdict = classify(&pair, cross, a, algo, (lo, hi, core_overlap), eps);
            row.hits += usize::from(matches!(a.kind, Kind::Hit | Kind::Overlapped));
            row.failed += usize::from(a.kind == Kind::Failed);
            row.model_error = row.model_error.max(p.model_error(algo));
            let seen = row.problems.iter().any(|d| d.starts_with(&format!("{verdict:?}:")));
            if !matches!(verdict, Verdict::Fine | Verdict::GlancingMiss) && !seen {
                row.problems.push(format!(
                    "{verdict:?}: answer {a:?}; band [{lo:e}, {hi:e}] m; the gap is {:e} m at 0, first below the band at t = {:?}, {:e} m at the answer\n  {}",
                    pair.gap(0.0),
                    cross.t,
                    pair.gap(a.t),
                    cases::describe(q)
                ));
            }
            match verdict {
                Verdict::Fine => {}
                Verdict::SolidMiss => row.solid_misses += 1,
                Verdict::GlancingMiss => row.glancing_misses += 1,
                Verdict::Late => row.late += 1,
                Verdict::FalseHit => row.false_hits += 1,
                Verdict::Unknown => row.unknown += 1,
            }
        }
    }
    rows
}

fn classify(
    pair: &models::Pair,
    cross: models::Crossing,
    a: Answer,
    algo: Algo,
    (lo, hi, core_overlap): (f64, f64, bool),
    eps: f64,
) -> Verdict {
    if cross.capped {
        return Verdict::Unknown;
    }
    let late = |t: f64| matches!(cross.t, Some(tc) if tc < t - EPS_T);
    let miss = || {
        let solid = pair.first_below((lo - eps).min(-SOLID_DEPTH));
        if solid.t.is_some() || solid.capped { Verdict::SolidMiss } else { Verdict::GlancingMiss }
    };
    let gap0 = || pair.gap(0.0);
    if algo == Algo::ParryDirectional && gap0() <= hi + eps {
        return Verdict::Fine;
    }
    match a.kind {
        Kind::Hit if a.t == 0.0 => {
            if gap0() > hi + eps {
                Verdict::FalseHit
            } else {
                Verdict::Fine
            }
        }
        Kind::Hit => {
            if late(a.t) {
                Verdict::Late
            } else if pair.gap(a.t) > hi + eps {
                Verdict::FalseHit
            } else {
                Verdict::Fine
            }
        }
        Kind::Overlapped => {
            let radii = if core_overlap { pair.a.radius + pair.b.radius } else { 0.0 };
            let limit = if algo.is_nonlinear() { hi + eps } else { eps };
            if gap0() + radii <= limit {
                Verdict::Fine
            } else if cross.t.is_some() {
                miss()
            } else {
                Verdict::FalseHit
            }
        }
        Kind::Separated => {
            if cross.t.is_some() {
                miss()
            } else {
                Verdict::Fine
            }
        }
        Kind::Failed => {
            if late(a.t) {
                Verdict::Late
            } else {
                Verdict::Fine
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// parry's `NonlinearRigidMotion` built from a sweep (start pose on c1, linvel c2 − c1,
    /// angvel the step's rotation) poses every core point where impact's sweep does, and
    /// both follow the f64 model of the reference.
    #[test]
    fn the_motion_models_agree() {
        for which in 0..FAMILIES.len() {
            for q in cases::generate(which, 64).iter().filter(|q| !q.far) {
                let p = Prepped::new(q);
                assert!(p.library_disagreement() < 1e-5, "{}", cases::describe(q));
                for algo in ALGOS {
                    assert!(p.model_error(algo) < 1e-5, "{algo:?}: {}", cases::describe(q));
                }
            }
        }
    }

    /// On a small set, impact's answers are never missed, late or false, and plain bilateral
    /// advancement misses some turning shapes.
    #[test]
    fn impact_is_exact_on_a_small_set() {
        let rows = run(64);
        for r in &rows {
            assert_eq!(r.unknown, 0, "{r:?}");
            if r.algo == Algo::Impact.name() {
                assert_eq!((r.solid_misses, r.glancing_misses, r.late, r.false_hits), (0, 0, 0, 0), "{r:?}");
            }
        }
        let impact_hits: usize = rows.iter().filter(|r| r.algo == Algo::Impact.name()).map(|r| r.hits).sum();
        assert!(impact_hits > 120, "{impact_hits}");
        let plain =
            rows.iter().filter(|r| r.algo == Algo::ImpactUncertified.name()).map(|r| r.solid_misses).sum::<usize>();
        assert!(plain > 0);
    }
}
