//! `impact`, the command line of the impact physics library.
//!
//! `impact toi` answers time-of-impact queries in batch (see `docs/toi-format.md`); `impact
//! list`, `impact export` and `impact check` show, write and check scene files (see
//! `docs/scene-format.md`).

mod scene_command;
mod showcase;
mod toi_batch;
mod toi_command;

use std::fmt::Display;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// impact: 2D rigid-body collision where nothing tunnels
#[derive(Debug, Parser)]
#[command(name = "impact", version, arg_required_else_help = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Answer time-of-impact queries: one JSON object per line in, one per line out
    Toi(toi_command::ToiArgs),
    /// List the built-in scenes: name, family, description
    List,
    /// Write a built-in scene as a scene file (JSON)
    Export(scene_command::ExportArgs),
    /// Check a scene file: report its first problem as FILE:LINE:COLUMN: field: problem
    Check(scene_command::CheckArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match &cli.command {
        Command::Toi(args) => finish(toi_command::run(args), toi_command::CommandError::is_broken_pipe),
        Command::List => finish(scene_command::list(), scene_command::FileError::is_broken_pipe),
        Command::Export(args) => finish(scene_command::export(args), scene_command::FileError::is_broken_pipe),
        Command::Check(args) => finish(scene_command::check(args), scene_command::FileError::is_broken_pipe),
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
