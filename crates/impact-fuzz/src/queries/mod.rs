//! The query target: one pairwise query per case, checked against the f64 reference.
//!
//! A case draws a tier, a pair of shapes of any kinds placed at a drawn gap
//! ([`case::Pair`]), and one of the queries: `shape_distance` (cold cache, or warm from a
//! nearby pose), `penetration`, `segment_distance`, `shape_cast`, a ray cast,
//! `time_of_impact`, `conservative_advancement` or `collide`. Hostile cases corrupt the
//! numbers of every query instead ([`hostile`]).
//!
//! The tolerance of every check is the documented precision: `SPACINGS` f32 spacings of the
//! largest coordinate the query meets (both positions, their difference, the shapes'
//! extents, the motion), as `shape_distance`'s docs state it.

pub mod case;
pub mod casts;
pub mod distance;
pub mod hostile;
pub mod manifold;
pub mod toi;

use crate::reference::{ETA, first_below_within};
use crate::source::Source;
use crate::tally::{Tier, Verdict};
use case::Pair;
use impact2d::{DistanceInput, SimplexCache, Transform, Vec2, shape_distance};

/// The documented precision of the queries, in f32 spacings of the largest coordinate met.
pub const SPACINGS: f64 = 16.0;

/// Steps the reference's conservative advancement may take before a case is left undecided
/// (counted clean): a near miss can need millions, and a case must stay cheap.
pub const MAX_REFERENCE_STEPS: u32 = 100_000;

/// Runs one query case from `bytes`.
pub fn check(bytes: &[u8]) -> Verdict {
    let mut src = Source::new(bytes);
    let pair = Pair::draw(&mut src);
    crate::runner::note_tier(pair.tier);
    if pair.tier == Tier::Hostile {
        return hostile::check_hostile(&mut src, &pair);
    }
    let mut verdict = match src.below(9) {
        0 => distance::check_distance(&pair, &mut SimplexCache::default()),
        1 => {
            let mut cache = warm_cache(&mut src, &pair);
            distance::check_distance(&pair, &mut cache)
        }
        2 => distance::check_penetration(&pair),
        3 => distance::check_segment_distance(&pair),
        4 => casts::check_shape_cast(&mut src, &pair),
        5 => casts::check_ray_cast(&mut src, &pair),
        6 => toi::check_toi(&mut src, &pair, toi::Algorithm::Bilateral),
        7 => toi::check_toi(&mut src, &pair, toi::Algorithm::Conservative),
        _ => manifold::check_collide(&pair),
    };
    if let Some((_, message)) = &mut verdict.fault {
        let (a, b) = (&pair.a, &pair.b);
        message.push_str(&format!("\n  A: {a:?} at {:?}\n  B: {b:?} at {:?}", pair.xf_a, pair.xf_b));
    }
    verdict
}

/// The cache a query of the same pair leaves when B was a little elsewhere and turned.
fn warm_cache(src: &mut Source, pair: &Pair) -> SimplexCache {
    let (x, y) = src.direction();
    let shift = Vec2::new(x as f32, y as f32) * (src.unit() as f32 * 0.1 * (pair.xf_b.p - pair.xf_a.p).length());
    let before = Transform::new(pair.xf_b.p + shift, src.uniform(-3.2, 3.2) as f32);
    let input =
        DistanceInput { proxy_a: &pair.proxy_a, transform_a: pair.xf_a, proxy_b: &pair.proxy_b, transform_b: before };
    let mut cache = SimplexCache::default();
    // A refused query leaves the cache cold, which is a case too.
    let _ = shape_distance(&input, &mut cache);
    cache
}

/// The first time in [0, `t_end`) (short of `t_end` by more than a millionth) at which
/// `f`, whose rate of change is at most `lipschitz`, is at or below `below`; `None` when
/// there is none or the reference ran out of steps (the case is then left undecided).
pub fn first_dip(f: impl Fn(f64) -> f64, lipschitz: f64, below: f64, t_end: f64) -> Option<f64> {
    // The search stops within ETA above its threshold: aim ETA lower so that a dip found is
    // a dip below `below`.
    let c = first_below_within(f, lipschitz, below - ETA, t_end, MAX_REFERENCE_STEPS);
    c.t.filter(|&tc| tc < t_end * (1.0 - 1.0e-6))
}

/// Whether every number is finite.
pub fn finite(values: &[f32]) -> bool {
    values.iter().all(|v| v.is_finite())
}
