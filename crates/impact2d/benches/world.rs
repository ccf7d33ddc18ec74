//! Criterion benchmarks of whole world steps on the benchmark scenes of
//! `impact2d::benchmarks` (after Box2D v3's suite), 60 Hz with 4 sub-steps. Each scene is
//! built and stepped 60 times (one second) to reach its working state; then one iteration is
//! one more step of that world. What the numbers mean: docs/performance.md ("World steps").
//! For ms per step over a scene's whole run (median, p95): `cargo run --release --example
//! world_steps`.

use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use impact2d::benchmarks::{BENCHMARKS, STEP_DT, SUBSTEPS};

fn world_steps(c: &mut Criterion) {
    let mut group = c.benchmark_group("world_step");
    group.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3));
    for bench in BENCHMARKS {
        let mut world = (bench.build)().expect("the benchmark scenes are valid");
        for _ in 0..60 {
            world.step(STEP_DT, SUBSTEPS).expect("valid step");
        }
        group.bench_function(bench.name, |b| b.iter(|| world.step(STEP_DT, SUBSTEPS).expect("valid step")));
    }
    group.finish();
}

criterion_group!(benches, world_steps);
criterion_main!(benches);
