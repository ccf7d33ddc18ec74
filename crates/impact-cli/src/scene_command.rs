//! `impact list`, `impact export` and `impact check`: the built-in scenes and scene files.

use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use impact_cli::scene::{BodyType, SceneError, ValidScene, parse_scene, utf8_error_pos};
use impact_cli::{scenes, simulation};
use thiserror::Error;

/// The exit code of a scene file that does not pass, or of an unknown scene name.
pub const EXIT_INVALID: u8 = 2;

/// The arguments of `impact export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The built-in scene (`impact list` shows them)
    pub name: String,
    /// Where to write the scene file; stdout without it or with `-`
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
}

/// The arguments of `impact check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The scene file (format: docs/scene-format.md); `-` reads stdin
    #[arg(value_name = "SCENE.json")]
    pub file: PathBuf,
}

/// A file that could not be read or written.
#[derive(Debug, Error)]
pub enum FileError {
    /// The input could not be read.
    #[error("cannot read {name}: {source}")]
    Read {
        /// The file name or `<stdin>`.
        name: String,
        /// Why.
        source: io::Error,
    },
    /// The output could not be written.
    #[error("cannot write {name}: {source}")]
    Write {
        /// The file name or `<stdout>`.
        name: String,
        /// Why.
        source: io::Error,
    },
}

impl FileError {
    /// True when the reader of stdout went away, as `impact export showcase | head` does.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, FileError::Write { source, .. } if source.kind() == io::ErrorKind::BrokenPipe)
    }
}

/// `impact list`: one line per built-in scene: name, family, description.
///
/// Errors: [`FileError::Write`] when stdout cannot be written.
pub fn list() -> Result<ExitCode, FileError> {
    let width = scenes::ALL.iter().map(|b| b.name.len()).max().unwrap_or(0);
    let mut text = String::new();
    for built_in in scenes::ALL {
        text += &format!("{:<width$}  {:<10}  {}\n", built_in.name, built_in.family, built_in.description);
    }
    write_stdout(text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}

/// `impact export NAME [FILE]`: writes the built-in scene as a scene file.
///
/// Returns exit code 2 for an unknown name (with the message on stderr), 0 otherwise.
/// Errors: [`FileError::Write`] when the file or stdout cannot be written.
pub fn export(args: &ExportArgs) -> Result<ExitCode, FileError> {
    let Some(built_in) = scenes::find(&args.name) else {
        eprintln!("impact: no built-in scene named `{}` (`impact list` shows them)", args.name);
        return Ok(ExitCode::from(EXIT_INVALID));
    };
    let text = built_in.scene().to_json();
    match args.file.as_deref() {
        None => write_stdout(text.as_bytes())?,
        Some(path) if path == Path::new("-") => write_stdout(text.as_bytes())?,
        Some(path) => {
            fs::write(path, text).map_err(|source| FileError::Write { name: path.display().to_string(), source })?
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `impact check SCENE.json`: reads and validates a scene file. On success prints a summary
/// on stdout; otherwise prints the first problem on stderr as `FILE:LINE:COLUMN: field: problem`.
///
/// Returns exit code 2 when the file is not a valid scene, 0 otherwise.
/// Errors: [`FileError`] when the file cannot be read or stdout cannot be written.
pub fn check(args: &CheckArgs) -> Result<ExitCode, FileError> {
    let (name, bytes) = read_input(&args.file)?;
    match load(&bytes) {
        Ok(scene) => {
            write_stdout(format!("{name}: {}\n", summary(&scene)).as_bytes())?;
            Ok(ExitCode::SUCCESS)
        }
        Err(error) => {
            eprintln!("{name}:{error}");
            Ok(ExitCode::from(EXIT_INVALID))
        }
    }
}

/// Reads a scene file's bytes: UTF-8 text, then [`parse_scene`].
pub fn load(bytes: &[u8]) -> Result<ValidScene, SceneError> {
    let text = std::str::from_utf8(bytes).map_err(|error| SceneError {
        pos: utf8_error_pos(bytes, &error),
        path: String::new(),
        message: "not UTF-8 text".into(),
    })?;
    parse_scene(text)
}

/// The file's name for messages and its bytes; `-` is stdin.
pub fn read_input(path: &Path) -> Result<(String, Vec<u8>), FileError> {
    if path == Path::new("-") {
        let mut bytes = Vec::new();
        let name = "<stdin>".to_owned();
        match io::stdin().lock().read_to_end(&mut bytes) {
            Ok(_) => Ok((name, bytes)),
            Err(source) => Err(FileError::Read { name, source }),
        }
    } else {
        let name = path.display().to_string();
        match fs::read(path) {
            Ok(bytes) => Ok((name, bytes)),
            Err(source) => Err(FileError::Read { name, source }),
        }
    }
}

/// One line about a valid scene: name, bodies by type, shapes, steps and duration.
fn summary(valid: &ValidScene) -> String {
    let scene = valid.scene();
    let count = |t: BodyType| scene.bodies.iter().filter(|b| b.body_type == t).count();
    let name = if scene.name.is_empty() { "unnamed scene".to_owned() } else { format!("scene {:?}", scene.name) };
    let plural = |n: usize, one: &str| format!("{n} {one}{}", if n == 1 { "" } else { "s" });
    format!(
        "{name}, {} ({} static, {} kinematic, {} dynamic), {}; {} of {} s ({} s), {} per step",
        plural(scene.bodies.len(), "body").replace("bodys", "bodies"),
        count(BodyType::Static),
        count(BodyType::Kinematic),
        count(BodyType::Dynamic),
        plural(valid.shape_count(), "shape"),
        plural(scene.steps as usize, "step"),
        scene.time_step,
        simulation::round_seconds(scene.steps as f64 * scene.time_step as f64),
        plural(scene.substeps as usize, "substep"),
    )
}

fn write_stdout(bytes: &[u8]) -> Result<(), FileError> {
    let mut out = io::stdout().lock();
    out.write_all(bytes)
        .and_then(|()| out.flush())
        .map_err(|source| FileError::Write { name: "<stdout>".into(), source })
}
