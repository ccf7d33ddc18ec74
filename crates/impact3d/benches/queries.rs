//! 3D pairwise query benchmarks: GJK distance (cold and warm-started), and the time of impact
//! by certified bilateral advancement, its uncertified variant and conservative advancement,
//! on the seeded families of `tests/support/toi_cases.rs` (the cases the tests check against
//! the f64 reference).
//!
//! Every benchmark runs a whole pre-generated set per iteration (seeded, so every run
//! measures the same work); criterion reports the time per set and the throughput in queries
//! per second. The iteration counts of each set are printed once at start-up.
//!
//! Run: `cargo bench -p impact3d --bench queries`.

#[path = "../tests/support/mod.rs"]
mod support;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use impact3d::settings::{TOI_TARGET, TOI_TOLERANCE};
use impact3d::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;
use support::random_unit;
use support::toi_cases::{Case, FAMILIES, family};

/// Queries per set.
const SET: usize = 1000;

/// A time of impact query as the benchmarks call it.
type Solver = fn(&ShapeProxy, &Sweep, &ShapeProxy, &Sweep, f32, f32, f32) -> Result<ToiOutput, QueryError>;

/// `SET` cases of family `which`, every other one 5 km from the origin.
fn cases(which: usize) -> Vec<Case> {
    let mut rng = ChaCha8Rng::seed_from_u64(77 + which as u64);
    (0..SET)
        .map(|k| {
            let base = if k % 2 == 1 { random_unit(&mut rng) * 5000.0 } else { Vec3::ZERO };
            family(&mut rng, which, base)
        })
        .collect()
}

fn run(set: &[Case], solve: Solver) -> (u32, u32) {
    let mut totals = (0, 0);
    for c in set {
        let out = solve(&c.a, &c.sa, &c.b, &c.sb, 1.0, TOI_TARGET, TOI_TOLERANCE).unwrap();
        totals.0 += out.iterations;
        totals.1 += out.root_iterations;
    }
    totals
}

fn time_of_impact_families(c: &mut Criterion) {
    let solvers: [(&str, Solver); 3] = [
        ("certified", time_of_impact),
        ("uncertified", time_of_impact_uncertified),
        ("conservative", conservative_advancement),
    ];
    let mut group = c.benchmark_group("toi3d");
    group.throughput(Throughput::Elements(SET as u64));
    for (which, name) in FAMILIES.iter().enumerate() {
        let set = cases(which);
        for (solver, solve) in solvers {
            let (gjk, roots) = run(&set, solve);
            println!("{name}, {solver}: {gjk} GJK calls, {roots} root iterations per {SET} queries");
            group.bench_function(format!("{name}/{solver}"), |b| b.iter(|| black_box(run(&set, solve))));
        }
    }
    group.finish();
}

fn distance(c: &mut Criterion) {
    let set = cases(0);
    let mut group = c.benchmark_group("distance3d");
    group.throughput(Throughput::Elements(SET as u64));
    let inputs: Vec<DistanceInput> = set
        .iter()
        .map(|c| DistanceInput {
            proxy_a: &c.a,
            transform_a: c.sa.transform_at(0.5),
            proxy_b: &c.b,
            transform_b: c.sb.transform_at(0.5),
        })
        .collect();
    group.bench_function("cold", |b| {
        b.iter(|| {
            let mut sum = 0.0;
            for input in &inputs {
                sum += shape_distance(input, &mut SimplexCache::default()).unwrap().distance;
            }
            black_box(sum)
        })
    });
    let mut caches = vec![SimplexCache::default(); SET];
    for (input, cache) in inputs.iter().zip(&mut caches) {
        shape_distance(input, cache).unwrap();
    }
    group.bench_function("warm", |b| {
        b.iter(|| {
            let mut sum = 0.0;
            for (input, cache) in inputs.iter().zip(&caches) {
                sum += shape_distance(input, &mut cache.clone()).unwrap().distance;
            }
            black_box(sum)
        })
    });
    group.finish();
}

criterion_group!(benches, time_of_impact_families, distance);
criterion_main!(benches);
