//! The built-in showcase of `impact toi`: the hard cases of Erin Catto's "Continuous
//! Collision" (GDC 2013), answered when no query file is given.

use std::io::{self, Write};

use serde_json::Value;

use crate::toi_batch::{Answer, reported_t, state_name};

/// The showcase queries in the input format, one per line, each with its case name as id.
/// `docs/toi-format.md` describes the cases and their exact times of impact.
pub const QUERIES: &str = include_str!("../data/showcase_toi.jsonl");

/// Writes a table of answers for people, one row per case: name, state, t, iterations.
///
/// Errors: those of `out`.
pub fn write_table(out: &mut impl Write, answers: &[(Value, Answer)]) -> io::Result<()> {
    writeln!(out, "{:<32} {:<10} {:>8} {:>10}", "case", "state", "t", "iterations")?;
    for (id, output) in answers {
        let name = id.as_str().map_or_else(|| id.to_string(), str::to_owned);
        let state = state_name(output.state);
        let t = reported_t(output).map_or_else(|| "-".to_owned(), |t| format!("{t:.6}"));
        writeln!(out, "{name:<32} {state:<10} {t:>8} {:>10}", output.iterations)?;
    }
    Ok(())
}
