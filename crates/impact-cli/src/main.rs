//! `impact`, the command line of the impact physics library.
//!
//! `impact toi` answers time-of-impact queries in batch (see `docs/toi-format.md`).

mod showcase;
mod toi_batch;
mod toi_command;

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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Toi(args) => toi_command::run(args),
    };
    match result {
        Ok(code) => code,
        Err(error) if error.is_broken_pipe() => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("impact: {error}");
            ExitCode::FAILURE
        }
    }
}
