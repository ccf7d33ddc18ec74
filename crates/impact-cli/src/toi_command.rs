//! The `impact toi` command: answers time-of-impact queries line by line, in order.

use std::fs::File;
use std::hint::black_box;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Args;
use serde_json::Value;
use thiserror::Error;

use crate::showcase;
use crate::toi_batch::{Answer, LineError, Query, answer, parse_query, write_answer};

/// How long `--time` answers the queries, at least, without `--repeat`.
const TIMING_DURATION: Duration = Duration::from_secs(1);

/// The exit code when some lines got no answer.
const EXIT_MALFORMED: u8 = 2;

/// The arguments of `impact toi`.
#[derive(Debug, Args)]
pub struct ToiArgs {
    /// Queries in JSON Lines, one per line (format: docs/toi-format.md); `-` reads stdin.
    /// Without it, the built-in showcase is answered and a table is printed on stderr
    #[arg(value_name = "QUERIES.jsonl")]
    pub queries: Option<PathBuf>,
    /// After answering, time the queries: answer them all repeatedly for about a second
    /// (parsing excluded) and print the mean microseconds per query on stderr
    #[arg(long)]
    pub time: bool,
    /// With --time: answer all queries N times instead of for about a second
    #[arg(long, value_name = "N", requires = "time", value_parser = clap::value_parser!(u64).range(1..))]
    pub repeat: Option<u64>,
}

/// A failure that stops the command (a malformed line does not).
#[derive(Debug, Error)]
pub enum CommandError {
    /// The queries could not be read.
    #[error("cannot read {name}: {source}")]
    Read {
        /// The file name, `<stdin>` or `showcase`.
        name: String,
        /// Why.
        source: io::Error,
    },
    /// The answers or the report could not be written.
    #[error("cannot write: {0}")]
    Write(#[from] io::Error),
}

impl CommandError {
    /// True when the reader of stdout went away, as `impact toi | head` does.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, CommandError::Write(error) if error.kind() == io::ErrorKind::BrokenPipe)
    }
}

/// Runs `impact toi`: answers every query on stdout, reports every malformed line on
/// stderr as `FILE:LINE: FIELD: problem`, then prints the showcase table or the timing.
///
/// Returns exit code 2 when some line got no answer, 0 otherwise.
/// Errors: [`CommandError`] when the input cannot be read or stdout cannot be written.
pub fn run(args: &ToiArgs) -> Result<ExitCode, CommandError> {
    let source = Source::of(args.queries.as_deref());
    let batch = answer_lines(&source, args.time)?;
    if source == Source::Showcase {
        showcase::write_table(&mut io::stderr().lock(), &batch.answers)?;
    }
    if args.time {
        report_timing(&batch.queries, args.repeat);
    }
    Ok(if batch.malformed > 0 { ExitCode::from(EXIT_MALFORMED) } else { ExitCode::SUCCESS })
}

/// Where the queries come from.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Source<'a> {
    Showcase,
    Stdin,
    File(&'a Path),
}

impl<'a> Source<'a> {
    fn of(path: Option<&'a Path>) -> Source<'a> {
        match path {
            None => Source::Showcase,
            Some(path) if path == Path::new("-") => Source::Stdin,
            Some(path) => Source::File(path),
        }
    }

    /// The name that prefixes error messages.
    fn name(&self) -> String {
        match self {
            Source::Showcase => "showcase".into(),
            Source::Stdin => "<stdin>".into(),
            Source::File(path) => path.display().to_string(),
        }
    }

    fn open(&self) -> Result<Box<dyn BufRead>, CommandError> {
        Ok(match self {
            Source::Showcase => Box::new(showcase::QUERIES.as_bytes()),
            Source::Stdin => Box::new(io::stdin().lock()),
            Source::File(path) => Box::new(BufReader::new(File::open(path).map_err(|source| self.read_error(source))?)),
        })
    }

    fn read_error(&self, source: io::Error) -> CommandError {
        CommandError::Read { name: self.name(), source }
    }
}

/// What answering the lines leaves for the reports.
#[derive(Default)]
struct Batch {
    /// The number of lines that got no answer.
    malformed: usize,
    /// The showcase's answers, for its table.
    answers: Vec<(Value, Answer)>,
    /// The answered queries, kept for `--time`.
    queries: Vec<Query>,
}

/// Answers every line of `source` on stdout and reports malformed ones on stderr.
fn answer_lines(source: &Source, keep_queries: bool) -> Result<Batch, CommandError> {
    let name = source.name();
    let mut out = BufWriter::new(io::stdout().lock());
    let mut batch = Batch::default();
    for_each_line(source, |number, parsed| {
        match parsed.and_then(|query| Ok((answer(&query)?, query))) {
            Ok((output, query)) => {
                write_answer(&mut out, &query.id, &output)?;
                if *source == Source::Showcase {
                    batch.answers.push((query.id.clone(), output));
                }
                if keep_queries {
                    batch.queries.push(query);
                }
            }
            Err(error) => {
                batch.malformed += 1;
                eprintln!("{name}:{number}: {error}");
            }
        }
        Ok(())
    })?;
    out.flush()?;
    Ok(batch)
}

/// Calls `each` with the number (from 1) and the parsed query of every line of `source`
/// that is not blank.
fn for_each_line(
    source: &Source,
    mut each: impl FnMut(usize, Result<Query, LineError>) -> io::Result<()>,
) -> Result<(), CommandError> {
    let mut input = source.open()?;
    let mut bytes = Vec::new();
    for number in 1.. {
        bytes.clear();
        if input.read_until(b'\n', &mut bytes).map_err(|error| source.read_error(error))? == 0 {
            break;
        }
        let parsed = match std::str::from_utf8(&bytes) {
            Ok(text) if text.trim().is_empty() => continue,
            Ok(text) => parse_query(text.trim_end_matches(['\n', '\r'])),
            Err(_) => Err(LineError::NotUtf8),
        };
        each(number, parsed)?;
    }
    Ok(())
}

/// Answers `queries` in rounds, `repeat` times or for [`TIMING_DURATION`], and prints the
/// mean time per query on stderr.
fn report_timing(queries: &[Query], repeat: Option<u64>) {
    if queries.is_empty() {
        eprintln!("no answered queries to time");
        return;
    }
    let start = Instant::now();
    let mut rounds = 0u64;
    let elapsed = loop {
        for query in queries {
            let _ = black_box(answer(black_box(query)));
        }
        rounds += 1;
        let elapsed = start.elapsed();
        if repeat.map_or(elapsed >= TIMING_DURATION, |n| rounds >= n) {
            break elapsed;
        }
    };
    let micros = elapsed.as_secs_f64() * 1e6 / (queries.len() as u64 * rounds) as f64;
    eprintln!("mean {micros:.3} us per query over {} queries x {rounds} rounds", queries.len());
}
