//! `impact-fuzz`: the fuzzing targets' long mode on the stable toolchain.
//!
//! ```text
//! impact-fuzz [--target NAME|all] [--cases N] [--first S] [--out DIR]
//! impact-fuzz --target NAME --replay FILE
//! ```
//! Runs N seeded cases per target from seed S and prints a Markdown table of cases, panics,
//! NaNs and wrong answers by tier; each defect's bytes go to `DIR/TARGET-SEED.bin`, which
//! `--replay` runs again (as it runs a libFuzzer artifact). Exit code 1 when a defect was
//! found (a panic or NaN anywhere, a wrong answer in the ordinary tier).

use clap::Parser;
use impact_fuzz::{TARGETS, Tally, Target, runner, target};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser)]
#[command(name = "impact-fuzz", about = "Fuzzing targets of impact on seeded bytes (stable toolchain)")]
struct Args {
    /// Target: queries, world_script, scene_file or all.
    #[arg(long, default_value = "all")]
    target: String,
    /// Cases per target.
    #[arg(long, default_value_t = 10_000)]
    cases: u64,
    /// First seed.
    #[arg(long, default_value_t = 0)]
    first: u64,
    /// Where defects' bytes are written.
    #[arg(long, default_value = ".")]
    out: PathBuf,
    /// Runs the bytes of this file (a defect written by a run, or a libFuzzer artifact).
    #[arg(long)]
    replay: Option<PathBuf>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let targets: Vec<Target> = match args.target.as_str() {
        "all" => TARGETS.to_vec(),
        name => match target(name) {
            Some(t) => vec![t],
            None => {
                eprintln!("error: unknown target `{name}` (queries, world_script, scene_file, all)");
                return ExitCode::from(2);
            }
        },
    };
    if let Some(path) = &args.replay {
        return replay(&targets, path);
    }
    let mut tally = Tally::default();
    let mut defects = 0u64;
    for t in &targets {
        let started = Instant::now();
        let part = runner::run(t, args.first, args.cases, |seed, verdict| {
            defects += 1;
            let path = args.out.join(format!("{}-{seed}.bin", t.name));
            if let Err(e) = std::fs::write(&path, runner::case_bytes(t, seed)) {
                eprintln!("error: cannot write {}: {e}", path.display());
            }
            if let Some((fault, message)) = &verdict.fault {
                eprintln!(
                    "{} seed {seed} [{}] {fault:?}: {message}\n  replay: {}",
                    t.name,
                    verdict.tier.name(),
                    path.display()
                );
            }
        });
        eprintln!("{}: {} cases in {:.1} s", t.name, args.cases, started.elapsed().as_secs_f64());
        tally.merge(&part);
    }
    for (name, seed, message) in &tally.examples {
        eprintln!("example: {name} seed {seed}: {message}");
    }
    print!("{tally}");
    if defects > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS }
}

fn replay(targets: &[Target], path: &PathBuf) -> ExitCode {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", path.display());
            return ExitCode::from(2);
        }
    };
    let mut code = ExitCode::SUCCESS;
    for t in targets {
        let verdict = runner::run_case(t, &bytes);
        match &verdict.fault {
            Some((fault, message)) => println!("{} [{}] {fault:?}: {message}", t.name, verdict.tier.name()),
            None => println!("{} [{}] clean", t.name, verdict.tier.name()),
        }
        if verdict.is_defect() {
            code = ExitCode::from(1);
        }
    }
    code
}
