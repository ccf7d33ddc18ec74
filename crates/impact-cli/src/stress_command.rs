//! `impact stress`: generated adversarial scenes run seed by seed with pass-through checks at
//! every step (`docs/stress.md`); failing seeds written as scene files to replay.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Args;
use impact_cli::stress::{DEFAULT_STEPS, Family, RunOptions, SeedOutcome, run_seed};

use crate::scene_command::FileError;

/// The arguments of `impact stress`.
#[derive(Debug, Args)]
pub struct StressArgs {
    /// The family to run: plates, head_on, kinematic, pile, spinners, rain, sensors, or all
    #[arg(long, value_name = "NAME|all", default_value = "all", value_parser = families)]
    pub family: Families,
    /// Seeds to run per family
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub seeds: u64,
    /// The first seed
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub first: u64,
    /// Steps per seed (at 60 steps per second)
    #[arg(long, value_name = "K", default_value_t = DEFAULT_STEPS, value_parser = clap::value_parser!(u32).range(1..))]
    pub steps: u32,
    /// Where the scene files of failing seeds go (FAMILY-SEED.json)
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub out: PathBuf,
    /// Switch continuous collision off (the checks should then fail: a test of the checks)
    #[arg(long)]
    pub no_continuous: bool,
}

/// The families `--family` chose, in report order.
#[derive(Clone, Debug)]
pub struct Families(pub Vec<Family>);

/// The families `--family` names.
fn families(name: &str) -> Result<Families, String> {
    if name == "all" {
        return Ok(Families(Family::ALL.to_vec()));
    }
    let known = Family::ALL.map(Family::name).join(", ");
    let family = Family::from_name(name).ok_or_else(|| format!("unknown family `{name}`; expected {known} or all"))?;
    Ok(Families(vec![family]))
}

/// What the seeds of one family came to.
#[derive(Clone, Copy, Debug, Default)]
struct Totals {
    seeds: u64,
    failures: u64,
    steps: u64,
    toi_calls: u64,
    impacts: u64,
    wall: Duration,
}

impl Totals {
    fn add(&mut self, other: &Totals) {
        self.seeds += other.seeds;
        self.failures += other.failures;
        self.steps += other.steps;
        self.toi_calls += other.toi_calls;
        self.impacts += other.impacts;
        self.wall += other.wall;
    }
}

/// `impact stress`: runs the seeds of each family, prints a line per failing seed (and
/// writes its scene file) and a line of totals per family.
///
/// Returns exit code 1 when any seed failed, 0 otherwise.
/// Errors: [`FileError`] when a scene file or stdout cannot be written.
pub fn stress(args: &StressArgs) -> Result<ExitCode, FileError> {
    let options = RunOptions { steps: args.steps, continuous: !args.no_continuous };
    let mut out = io::stdout().lock();
    let header = format!(
        "{:<10} {:>6} {:>8} {:>9} {:>11} {:>9} {:>9}\n",
        "family", "seeds", "failed", "steps", "toi calls", "impacts", "time (s)"
    );
    let mut lines = Vec::new();
    let mut all = Totals::default();
    for &family in &args.family.0 {
        let totals = run_family(family, args, options, &mut out)?;
        all.add(&totals);
        lines.push(totals_line(family.name(), &totals));
    }
    let mut text = header + &lines.concat();
    if lines.len() > 1 {
        text += &totals_line("all", &all);
    }
    write_out(&mut out, &text)?;
    Ok(if all.failures > 0 { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}

/// Runs the seeds of `family`, printing each failure as it comes.
fn run_family(
    family: Family,
    args: &StressArgs,
    options: RunOptions,
    out: &mut impl Write,
) -> Result<Totals, FileError> {
    let mut totals = Totals::default();
    let started = Instant::now();
    for seed in args.first..args.first.saturating_add(args.seeds) {
        totals.seeds += 1;
        match run_seed(family, seed, options) {
            Ok(outcome) => {
                totals.steps += u64::from(outcome.steps);
                totals.toi_calls += outcome.toi_calls;
                totals.impacts += outcome.impacts;
                if !outcome.passed() {
                    totals.failures += 1;
                    let path = write_scene(&args.out, &outcome)?;
                    write_out(out, &failure_line(&outcome, &path))?;
                }
            }
            Err(error) => {
                totals.failures += 1;
                write_out(out, &format!("{error}\n"))?;
            }
        }
    }
    totals.wall = started.elapsed();
    Ok(totals)
}

/// Writes the scene of a failing seed into `dir` (made if missing); returns its path.
fn write_scene(dir: &Path, outcome: &SeedOutcome) -> Result<PathBuf, FileError> {
    let path = dir.join(outcome.file_name());
    let write_error = |source| FileError::Write { name: path.display().to_string(), source };
    fs::create_dir_all(dir).map_err(write_error)?;
    fs::write(&path, outcome.scene.to_json()).map_err(write_error)?;
    Ok(path)
}

/// `plates seed 17 failed at step 43: pass-through check: ... (and 2 more) -> plates-17.json`
fn failure_line(outcome: &SeedOutcome, path: &Path) -> String {
    let first = &outcome.violations[0];
    let more = match outcome.violations.len() {
        1 => String::new(),
        n => format!(" (and {} more in that step)", n - 1),
    };
    format!(
        "{} seed {} FAILED at {first}{more}\n  replay: impact run {}\n",
        outcome.family.name(),
        outcome.seed,
        path.display()
    )
}

fn totals_line(name: &str, t: &Totals) -> String {
    format!(
        "{name:<10} {:>6} {:>8} {:>9} {:>11} {:>9} {:>9.2}\n",
        t.seeds,
        t.failures,
        t.steps,
        t.toi_calls,
        t.impacts,
        t.wall.as_secs_f64()
    )
}

fn write_out(out: &mut impl Write, text: &str) -> Result<(), FileError> {
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|source| FileError::Write { name: "<stdout>".into(), source })
}
