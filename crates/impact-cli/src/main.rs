//! `impact`, the command line of the impact physics library.
//!
//! `impact` alone runs the showcase and writes its replay; `impact run` runs a scene and
//! writes what is asked (summary, trace, replay, PNG frames, a run snapshot); `impact resume`
//! goes on from a run snapshot; `impact bench` times scenes;
//! `impact list`, `impact export` and `impact check` show, write and check scene files (see
//! `docs/scene-format.md`); `impact toi` answers time-of-impact queries in batch (see
//! `docs/toi-format.md`); `impact stress` runs generated adversarial scenes with
//! pass-through checks at every step (see `docs/stress.md`).

mod bench_command;
mod run_command;
mod scene_command;
mod showcase;
mod stress_command;
mod toi_batch;
mod toi_command;

use std::fmt::Display;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// impact: 2D rigid-body collision where nothing tunnels.
///
/// Without a command, runs the built-in showcase and writes its replay to showcase.html.
#[derive(Debug, Parser)]
#[command(name = "impact", version)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run a scene file or a built-in scene; write a summary, a trace, a replay, PNG frames
    Run(run_command::RunArgs),
    /// Go on with a run saved by `impact run --save-at STEP FILE`, bit for bit
    Resume(run_command::ResumeArgs),
    /// Time scenes headless (the benchmark scenes by default): ms per step and phase shares
    Bench(bench_command::BenchArgs),
    /// Answer time-of-impact queries, 2D or 3D: one JSON object per line in, one per line out
    Toi(toi_command::ToiArgs),
    /// List the built-in scenes: name, family, description
    List,
    /// Write a built-in scene as a scene file (JSON)
    Export(scene_command::ExportArgs),
    /// Check a scene file: report its first problem as FILE:LINE:COLUMN: field: problem
    Check(scene_command::CheckArgs),
    /// Run generated adversarial scenes, checking at every step that nothing passes through
    Stress(stress_command::StressArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match &cli.command {
        None => finish(run_command::showcase(), run_command::RunError::is_broken_pipe),
        Some(Command::Run(args)) => finish(run_command::run(args), run_command::RunError::is_broken_pipe),
        Some(Command::Resume(args)) => finish(run_command::resume(args), run_command::RunError::is_broken_pipe),
        Some(Command::Bench(args)) => finish(bench_command::bench(args), run_command::RunError::is_broken_pipe),
        Some(Command::Toi(args)) => finish(toi_command::run(args), toi_command::CommandError::is_broken_pipe),
        Some(Command::List) => finish(scene_command::list(), scene_command::FileError::is_broken_pipe),
        Some(Command::Export(args)) => finish(scene_command::export(args), scene_command::FileError::is_broken_pipe),
        Some(Command::Check(args)) => finish(scene_command::check(args), scene_command::FileError::is_broken_pipe),
        Some(Command::Stress(args)) => finish(stress_command::stress(args), scene_command::FileError::is_broken_pipe),
    }
}

/// The exit code of a command: its own, success when the reader of stdout went away, and
/// failure (with the error on stderr) otherwise.
fn finish<E: Display>(result: Result<ExitCode, E>, is_broken_pipe: impl Fn(&E) -> bool) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(error) if is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("impact: {error}");
            ExitCode::FAILURE
        }
    }
}
