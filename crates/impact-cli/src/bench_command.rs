//! `impact bench`: scenes run headless, with the cost of a step and where it went.

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use impact_cli::scenes;
use impact_cli::simulation::Simulation;
use impact2d::StepProfile;

use crate::run_command::{Progress, RunError, resolve};
use crate::scene_command::{EXIT_INVALID, FileError};

/// The arguments of `impact bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Built-in scenes or scene files; the benchmark scenes without any
    #[arg(value_name = "SCENE.json | NAME")]
    pub scenes: Vec<String>,
    /// Steps to take in each scene instead of its own count
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub steps: Option<u32>,
}

/// The cost of a scene's steps: the median and 95th percentile of the step time, and the
/// shares of the phases in the total over all steps.
#[derive(Clone, Debug, PartialEq)]
pub struct Costs {
    /// Median step time (ms).
    pub median_ms: f64,
    /// 95th percentile of the step time (ms): the step 95 % of steps are not slower than.
    pub p95_ms: f64,
    /// Broad phase: the pair update ([`StepProfile::pairs`]), as a fraction of the total.
    pub broad: f64,
    /// Narrow phase: manifolds ([`StepProfile::collide`]).
    pub narrow: f64,
    /// Solver: [`StepProfile::solve`] and [`StepProfile::finalize`].
    pub solver: f64,
    /// Continuous collision ([`StepProfile::continuous`]).
    pub continuous: f64,
    /// Sleep and the rest of the step.
    pub other: f64,
}

impl Costs {
    /// The costs of `profiles` (one per step; at least one).
    pub fn of(profiles: &[StepProfile]) -> Costs {
        let mut totals: Vec<f64> = profiles.iter().map(|p| p.total).collect();
        totals.sort_by(f64::total_cmp);
        let percentile = |q: f64| totals[((q * (totals.len() - 1) as f64).round() as usize).min(totals.len() - 1)];
        let sum = |f: fn(&StepProfile) -> f64| profiles.iter().map(f).sum::<f64>();
        let total = sum(|p| p.total).max(f64::MIN_POSITIVE);
        let (broad, narrow, solver) = (sum(|p| p.pairs), sum(|p| p.collide), sum(|p| p.solve + p.finalize));
        let continuous = sum(|p| p.continuous);
        Costs {
            median_ms: percentile(0.5),
            p95_ms: percentile(0.95),
            broad: broad / total,
            narrow: narrow / total,
            solver: solver / total,
            continuous: continuous / total,
            other: (total - broad - narrow - solver - continuous).max(0.0) / total,
        }
    }
}

/// `impact bench`: runs each scene headless and prints one line per scene.
///
/// Returns exit code 2, before running anything, when a name is neither a valid scene file nor
/// a built-in scene.
/// Errors: [`RunError`] for unreadable files, failed steps and stdout that cannot be written.
pub fn bench(args: &BenchArgs) -> Result<ExitCode, RunError> {
    let names: Vec<String> = if args.scenes.is_empty() {
        scenes::ALL.iter().filter(|b| b.family == "benchmark").map(|b| b.name.to_owned()).collect()
    } else {
        args.scenes.clone()
    };
    let mut loaded = Vec::new();
    for name in &names {
        match resolve(Some(name))? {
            Ok(found) => loaded.push(found),
            Err(message) => {
                eprintln!("{message}");
                return Ok(ExitCode::from(EXIT_INVALID));
            }
        }
    }
    let write = |text: String| {
        let mut out = io::stdout().lock();
        out.write_all(text.as_bytes())
            .and_then(|()| out.flush())
            .map_err(|source| RunError::File(FileError::Write { name: "<stdout>".into(), source }))
    };
    write(format!(
        "{:<20} {:>7} {:>6} {:>10} {:>9} {:>7} {:>7} {:>7} {:>7} {:>11}\n",
        "scene", "bodies", "steps", "median ms", "p95 ms", "broad", "narrow", "solver", "other", "continuous"
    ))?;
    for (label, scene) in loaded {
        let mut sim = match Simulation::new(&scene) {
            Ok(sim) => sim,
            Err(error) => {
                eprintln!("{label}: {error}");
                return Ok(ExitCode::from(EXIT_INVALID));
            }
        };
        let steps = args.steps.unwrap_or(scene.scene().steps);
        let (progress, started) = (Progress::new(u64::from(steps)), Instant::now());
        for step in 1..=steps {
            sim.step().map_err(|source| RunError::Step { step, source })?;
            progress.advance(started);
        }
        progress.finish();
        let c = Costs::of(sim.profiles());
        let pct = |x: f64| format!("{:.1}%", 100.0 * x);
        write(format!(
            "{:<20} {:>7} {:>6} {:>10.3} {:>9.3} {:>7} {:>7} {:>7} {:>7} {:>11}\n",
            label,
            scene.scene().bodies.len(),
            steps,
            c.median_ms,
            c.p95_ms,
            pct(c.broad),
            pct(c.narrow),
            pct(c.solver),
            pct(c.other),
            pct(c.continuous)
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn profile(pairs: f64, collide: f64, solve: f64, total: f64) -> StepProfile {
        StepProfile { pairs, collide, solve, finalize: 0.0, continuous: 0.05 * total, sleep: 0.0, total }
    }

    #[test]
    fn percentiles_and_shares() {
        // Totals 1 to 20 ms: median of 20 values by nearest rank at 9.5 -> the 11th (11 ms).
        let profiles: Vec<_> =
            (1..=20).map(|t| profile(0.1 * t as f64, 0.2 * t as f64, 0.5 * t as f64, t as f64)).collect();
        let c = Costs::of(&profiles);
        assert_eq!((c.median_ms, c.p95_ms), (11.0, 19.0));
        assert!((c.broad - 0.1).abs() < 1e-12 && (c.narrow - 0.2).abs() < 1e-12 && (c.solver - 0.5).abs() < 1e-12);
        assert!((c.continuous - 0.05).abs() < 1e-12 && (c.other - 0.15).abs() < 1e-12);
    }
}
