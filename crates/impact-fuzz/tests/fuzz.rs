//! The fuzzing targets' bounded run in the test suite (issue 18), and checks of the checks.
//!
//! Each target runs a fixed range of seeds on the stable toolchain (about ten seconds in all
//! in release): zero panics and NaNs anywhere, zero wrong answers in the ordinary tier and on
//! hostile input. Large-tier wrong answers are printed (docs/fuzzing.md reports a long run's).
//! A long run: `cargo run --release -p impact-fuzz -- --cases 1000000`.
//!
//! The checks of the checks feed the judges answers made wrong on purpose (a distance 1 mm
//! off, a time of impact pulled early, a manifold emptied) and require them to be caught, so
//! the clean runs above cannot come from judges that accept anything.

use impact_fuzz::queries::case::Pair;
use impact_fuzz::queries::{casts, distance, manifold, toi};
use impact_fuzz::source::{Source, seeded_bytes};
use impact_fuzz::{Fault, TARGETS, Tally, Target, Tier, Verdict, runner, target};
use impact2d::settings::{SPECULATIVE_DISTANCE, TOI_TARGET, TOI_TOLERANCE};
use impact2d::*;

/// Runs `cases` seeds of `name` and asserts no defect; returns the tally.
fn run_clean(name: &str, cases: u64) -> Tally {
    let t = target(name).unwrap();
    let mut defects = vec![];
    let tally = runner::run(&t, 0, cases, |seed, v| defects.push(format!("seed {seed}: {:?}", v.fault)));
    println!("{tally}");
    for (name, seed, message) in &tally.examples {
        println!("{name} seed {seed}: {message}");
    }
    assert!(defects.is_empty(), "{} defects; first: {}", defects.len(), defects[0]);
    tally
}

#[test]
fn queries_match_the_reference_in_the_ordinary_tier_and_never_panic_or_nan() {
    let tally = run_clean("queries", 150_000);
    let ordinary = tally.counts("queries", Tier::Ordinary);
    assert!(ordinary.cases > 80_000 && ordinary.wrong == 0, "{ordinary:?}");
    assert!(tally.counts("queries", Tier::Large).cases > 30_000);
    assert!(tally.counts("queries", Tier::Hostile).cases > 15_000);
}

#[test]
fn world_scripts_keep_the_contract() {
    let tally = run_clean("world_script", 1500);
    for tier in Tier::ALL {
        assert!(tally.counts("world_script", tier).cases > 200, "{tier:?}");
    }
}

#[test]
fn mutated_scene_files_are_refused_located_or_run_finitely() {
    let tally = run_clean("scene_file", 10_000);
    assert_eq!(tally.counts("scene_file", Tier::Hostile).cases, 10_000);
}

/// A panic in a target is caught, counted in the tier the case noted, and is a defect.
#[test]
fn the_runner_counts_panics() {
    fn panics(bytes: &[u8]) -> Verdict {
        runner::note_tier(Tier::Large);
        assert!(bytes.len() < 4, "a target that panics");
        Verdict::clean(Tier::Large)
    }
    let t = Target { name: "panics", check: panics, case_bytes: 8 };
    let mut seen = 0;
    let tally = runner::run(&t, 0, 10, |_, v| {
        seen += 1;
        assert!(matches!(v.fault, Some((Fault::Panic, ref m)) if m.contains("a target that panics")));
    });
    assert_eq!((seen, tally.counts("panics", Tier::Large).panics), (10, 10));
}

/// The same seed gives the same verdict: the stable runner's cases are reproducible.
#[test]
fn cases_are_deterministic() {
    for t in TARGETS {
        for seed in 0..20 {
            let (a, b) = (runner::case_bytes(&t, seed), runner::case_bytes(&t, seed));
            assert_eq!(a, b);
            let (va, vb) = (runner::run_case(&t, &a), runner::run_case(&t, &b));
            assert_eq!((va.tier, format!("{:?}", va.fault)), (vb.tier, format!("{:?}", vb.fault)));
        }
    }
}

/// Pairs of the ordinary tier from seeded bytes.
fn pairs(count: u64) -> impl Iterator<Item = Pair> {
    (0..count).filter_map(|seed| {
        let bytes = seeded_bytes(seed ^ 0x5eed, 512);
        let pair = Pair::draw(&mut Source::new(&bytes));
        (pair.tier == Tier::Ordinary).then_some(pair)
    })
}

/// The translation that takes B's core center through A's and as far again beyond.
fn through(pair: &Pair) -> Vec2 {
    let center = |p: &ShapeProxy, xf: Transform| xf.apply(p.points().iter().sum::<Vec2>() / p.count() as f32);
    (center(&pair.proxy_a, pair.xf_a) - center(&pair.proxy_b, pair.xf_b)) * 2.0
}

fn is_wrong(v: &Verdict) -> bool {
    matches!(v.fault, Some((Fault::Wrong, _)))
}

#[test]
fn the_distance_judge_catches_a_distance_a_millimeter_off() {
    let (mut tried, mut caught) = (0, 0);
    for pair in pairs(6000) {
        let input = DistanceInput {
            proxy_a: &pair.proxy_a,
            transform_a: pair.xf_a,
            proxy_b: &pair.proxy_b,
            transform_b: pair.xf_b,
        };
        let mut out = shape_distance(&input, &mut SimplexCache::default()).unwrap();
        assert!(!is_wrong(&distance::judge_distance(&pair, &out)));
        if out.distance > 0.0 && 16.0 * pair.spacing() < 1e-4 {
            out.distance += 1e-3;
            tried += 1;
            caught += is_wrong(&distance::judge_distance(&pair, &out)) as u32;
        }
    }
    assert!(tried > 400 && caught == tried, "{caught} of {tried}");
}

#[test]
fn the_manifold_judge_catches_emptied_and_shifted_manifolds() {
    let (mut tried, mut caught) = (0, 0);
    for pair in pairs(6000) {
        let m = collide(&pair.a, pair.xf_a, &pair.b, pair.xf_b, SPECULATIVE_DISTANCE);
        assert!(!is_wrong(&manifold::judge_collide(&pair, &m)));
        if m.count > 0 && 16.0 * pair.spacing() < 1e-4 {
            tried += 2;
            caught += is_wrong(&manifold::judge_collide(&pair, &Manifold::EMPTY)) as u32;
            let mut shifted = m;
            shifted.points.iter_mut().for_each(|p| p.separation += 0.01);
            caught += is_wrong(&manifold::judge_collide(&pair, &shifted)) as u32;
        }
    }
    assert!(tried > 400 && caught == tried, "{caught} of {tried}");
}

#[test]
fn the_time_of_impact_judge_catches_missed_and_early_hits() {
    let (mut tried, mut caught) = (0, 0);
    for pair in pairs(6000) {
        // B driven through A, no turn: a solid hit.
        let sweep = |xf: Transform, push: Vec2| Sweep {
            local_center: Vec2::ZERO,
            c1: xf.p,
            c2: xf.p + push,
            a1: xf.q.angle(),
            a2: xf.q.angle(),
        };
        let case = toi::ToiCase {
            sweep_a: sweep(pair.xf_a, Vec2::ZERO),
            sweep_b: sweep(pair.xf_b, through(&pair)),
            t_max: 1.0,
            target: TOI_TARGET,
            tolerance: TOI_TOLERANCE,
        };
        let out =
            time_of_impact(&pair.proxy_a, &case.sweep_a, &pair.proxy_b, &case.sweep_b, 1.0, TOI_TARGET, TOI_TOLERANCE)
                .unwrap();
        assert!(!is_wrong(&toi::judge_toi(&pair, &case, &out)));
        let solid = 0.25 * pair.proxy_a.thickness().min(pair.proxy_b.thickness());
        if out.state == ToiState::Hit && out.t > 0.05 && solid > 1e-3 && 16.0 * pair.spacing() < 1e-4 {
            tried += 2;
            let missed = ToiOutput { state: ToiState::Separated, t: 1.0, ..out };
            caught += is_wrong(&toi::judge_toi(&pair, &case, &missed)) as u32;
            let early = ToiOutput { t: out.t * 0.5, ..out };
            caught += is_wrong(&toi::judge_toi(&pair, &case, &early)) as u32;
        }
    }
    assert!(tried > 400 && caught == tried, "{caught} of {tried}");
}

#[test]
fn the_shape_cast_judge_catches_missed_and_early_hits() {
    let (mut tried, mut caught) = (0, 0);
    for pair in pairs(6000) {
        let input = ShapeCastInput {
            proxy_a: &pair.proxy_a,
            transform_a: pair.xf_a,
            proxy_b: &pair.proxy_b,
            transform_b: pair.xf_b,
            translation_b: through(&pair),
            max_fraction: 1.0,
            target: TOI_TARGET,
            tolerance: TOI_TOLERANCE,
        };
        let out = shape_cast(&input).unwrap();
        assert!(!is_wrong(&casts::judge_shape_cast(&pair, &input, out.as_ref())));
        let solid = 0.25 * pair.proxy_a.thickness().min(pair.proxy_b.thickness());
        if let Some(hit) = out
            && hit.fraction > 0.05
            && solid > 1e-3
            && 16.0 * pair.spacing() < 1e-4
        {
            tried += 2;
            caught += is_wrong(&casts::judge_shape_cast(&pair, &input, None)) as u32;
            let early = CastOutput { fraction: hit.fraction * 0.5, iterations: 0, ..hit };
            caught += is_wrong(&casts::judge_shape_cast(&pair, &input, Some(&early))) as u32;
        }
    }
    assert!(tried > 400 && caught == tried, "{caught} of {tried}");
}

/// Every saved input of `regressions/TARGET/` runs clean (see its README).
#[test]
fn saved_regression_inputs_stay_clean() {
    let mut ran = 0;
    for t in TARGETS {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("regressions").join(t.name);
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let verdict = runner::run_case(&t, &std::fs::read(&path).unwrap());
            assert!(verdict.fault.is_none(), "{}: {:?}", path.display(), verdict.fault);
            ran += 1;
        }
    }
    assert!(ran >= 3, "{ran}");
}
