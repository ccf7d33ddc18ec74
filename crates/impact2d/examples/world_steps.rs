//! Times whole world steps of the benchmark scenes (see `impact2d::benchmarks`) and prints
//! milliseconds per step (median, p95, mean) with where the time went (median of each stage).
//!
//! `cargo run --release --example world_steps [scene ...] [--steps N] [--checksum] [--no-recycle]`; every
//! scene when none is named, each for its own step count unless `--steps` is given.
//! `--checksum` also prints `World::state_checksum` (a hash of every body's pose and velocity
//! bits) after the run, to check that a change meant to be exact left the simulation bit for
//! bit the same. `--no-recycle` turns contact recycling off (`World::set_contact_recycling`), so
//! every manifold is computed afresh as before it existed. A scene in which continuous
//! collision did anything also gets a line of its statistics summed over the run
//! (`World::continuous_stats`: time of impact queries, impacts, bodies carried by a kinematic
//! body, bodies capped).

use std::time::Instant;

use impact2d::benchmarks::{BENCHMARKS, STEP_DT, SUBSTEPS};

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn median_of(values: impl Iterator<Item = f64>) -> f64 {
    let mut v: Vec<f64> = values.collect();
    v.sort_by(f64::total_cmp);
    percentile(&v, 0.5)
}

/// `ContinuousStats` summed over the steps of a run.
#[derive(Default)]
struct ContinuousTotals {
    toi_calls: u64,
    impacts: u64,
    carried: u64,
    capped: u64,
    swept_pairs: u64,
}

impl ContinuousTotals {
    fn add(&mut self, s: &impact2d::ContinuousStats) {
        self.toi_calls += u64::from(s.toi_calls);
        self.impacts += u64::from(s.impacts);
        self.carried += u64::from(s.carried);
        self.capped += u64::from(s.capped);
        self.swept_pairs += u64::from(s.swept_pairs);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut steps_override = None;
    let mut with_checksum = false;
    let mut no_recycle = false;
    let mut names = Vec::new();
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--checksum" {
            with_checksum = true;
            i += 1;
        } else if args[i] == "--no-recycle" {
            no_recycle = true;
            i += 1;
        } else if args[i] == "--steps" {
            steps_override = args.get(i + 1).and_then(|s| s.parse::<usize>().ok());
            if steps_override.is_none() {
                eprintln!("--steps needs a positive whole number");
                std::process::exit(2);
            }
            i += 2;
        } else {
            names.push(args[i].clone());
            i += 1;
        }
    }
    for name in &names {
        if !BENCHMARKS.iter().any(|b| b.name == name) {
            let known: Vec<_> = BENCHMARKS.iter().map(|b| b.name).collect();
            eprintln!("unknown scene {name:?}; the scenes are {}", known.join(", "));
            std::process::exit(2);
        }
    }
    println!("scene            steps  median ms   p95 ms  mean ms |  pairs collide   solve finalize continuous  sleep");
    for bench in BENCHMARKS.iter().filter(|b| names.is_empty() || names.iter().any(|n| n == b.name)) {
        let mut world = match (bench.build)() {
            Ok(world) => world,
            Err(e) => {
                eprintln!("{}: {e}", bench.name);
                std::process::exit(1);
            }
        };
        if no_recycle {
            world.set_contact_recycling(false);
        }
        let steps = steps_override.unwrap_or(bench.steps);
        let mut times = Vec::with_capacity(steps);
        let mut profiles = Vec::with_capacity(steps);
        let mut continuous = ContinuousTotals::default();
        for _ in 0..steps {
            let start = Instant::now();
            if let Err(e) = world.step(STEP_DT, SUBSTEPS) {
                eprintln!("{}: {e}", bench.name);
                std::process::exit(1);
            }
            times.push(start.elapsed().as_secs_f64() * 1e3);
            profiles.push(world.profile());
            continuous.add(&world.continuous_stats());
        }
        let mean = times.iter().sum::<f64>() / steps as f64;
        times.sort_by(f64::total_cmp);
        let stage = |f: fn(&impact2d::StepProfile) -> f64| median_of(profiles.iter().map(f));
        println!(
            "{:<16} {steps:>6} {:>10.3} {:>8.3} {:>8.3} | {:>6.3} {:>7.3} {:>7.3} {:>8.3} {:>10.3} {:>6.3}",
            bench.name,
            percentile(&times, 0.5),
            percentile(&times, 0.95),
            mean,
            stage(|p| p.pairs),
            stage(|p| p.collide),
            stage(|p| p.solve),
            stage(|p| p.finalize),
            stage(|p| p.continuous),
            stage(|p| p.sleep),
        );
        if continuous.toi_calls + continuous.impacts > 0 {
            println!(
                "{:<16} continuous over the run: {} TOI calls, {} impacts, {} carried, {} capped, {} swept pairs",
                bench.name,
                continuous.toi_calls,
                continuous.impacts,
                continuous.carried,
                continuous.capped,
                continuous.swept_pairs
            );
        }
        if with_checksum {
            println!("{:<16} checksum {:016x}", bench.name, world.state_checksum());
        }
    }
}
