//! `impact run`: a scene run to the end, with the reports asked for (summary, trace, replay,
//! PNG frames), a progress bar on a terminal and a short summary for people.

use std::fs::{self, File};
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Args;
use impact_cli::build::BuildError;
use impact_cli::render::{self, Layers, RenderError};
use impact_cli::replay::{CONTACT_BUDGET, Recorder, frame_stride};
use impact_cli::run_snapshot::ResumeError;
use impact_cli::scene::ValidScene;
use impact_cli::simulation::{Simulation, Summary};
use impact_cli::{scenes, simulation};
use impact2d::{Aabb, WorldError};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use thiserror::Error;

use crate::scene_command::{EXIT_INVALID, FileError, load, read_input};

/// The width of PNG frames (pixels); the height follows the scene's shape.
const PNG_WIDTH: u32 = 1600;

/// The arguments of `impact run`.
#[derive(Debug, Args, Default)]
pub struct RunArgs {
    /// A scene file (docs/scene-format.md) or a built-in scene's name (`impact list`);
    /// the showcase without it
    #[arg(value_name = "SCENE.json | NAME")]
    pub scene: Option<String>,
    /// Steps to take instead of the scene's own count
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub steps: Option<u32>,
    #[command(flatten)]
    pub outputs: OutputArgs,
}

/// `impact resume`: a run saved by `impact run --save-at`, continued.
#[derive(Debug, Default, Args)]
pub struct ResumeArgs {
    /// A run snapshot written by `impact run --save-at STEP FILE`
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Steps to take; the rest of the scene's own count by default
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub steps: Option<u32>,
    #[command(flatten)]
    pub outputs: OutputArgs,
}

/// What `impact run` and `impact resume` write (of a resumed run: its resumed steps).
#[derive(Debug, Default, Args)]
pub struct OutputArgs {
    /// Write the end state and statistics as JSON
    #[arg(long, value_name = "FILE")]
    pub summary: Option<PathBuf>,
    /// Write every body's position and angle after each step, one JSON line per step
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    /// Write a replay: one HTML file with a player, to open in a browser
    #[arg(long, value_name = "FILE.html")]
    pub replay: Option<PathBuf>,
    /// Write the last frame as a PNG image
    #[arg(long, value_name = "FILE.png")]
    pub png: Option<PathBuf>,
    /// Write a PNG frame every K steps (and of the start) into DIR as step-NNNNNN.png
    #[arg(long, num_args = 2, value_names = ["K", "DIR"])]
    pub png_every: Option<Vec<String>>,
    /// Save the run after STEP steps (0: before the first; a resumed run counts the saved
    /// ones) as a run snapshot FILE, which `impact resume FILE` goes on from, bit for bit
    #[arg(long, num_args = 2, value_names = ["STEP", "FILE"])]
    pub save_at: Option<Vec<String>>,
}

/// Why a run stopped.
#[derive(Debug, Error)]
pub enum RunError {
    /// A file could not be read or written.
    #[error(transparent)]
    File(#[from] FileError),
    /// A PNG frame could not be drawn or written.
    #[error(transparent)]
    Render(#[from] RenderError),
    /// The world refused a step (it should not, for a validated scene).
    #[error("step {step}: {source}")]
    Step {
        /// The step that failed (from 1).
        step: u32,
        /// Why.
        source: WorldError,
    },
    /// A body's state stopped being finite (the world's input contract says it cannot for a
    /// validated scene): the run stops rather than report `null`s.
    #[error("step {step}: bodies[{body}] is no longer finite (a defect of impact2d: please report it with the scene)")]
    NonFinite {
        /// The step after which it was found (from 1).
        step: u32,
        /// The body's index in the scene.
        body: usize,
    },
    /// `--png-every K DIR` with a K that is not a positive whole number.
    #[error("--png-every: K must be a whole number of steps, at least 1; got `{0}`")]
    PngEvery(String),
    /// `--save-at STEP FILE` with a STEP the run does not reach.
    #[error("--save-at: STEP must be a whole number of steps from {first} to {last} for this run; got `{got}`")]
    SaveAt {
        /// The argument given.
        got: String,
        /// The run's first and last step.
        first: u32,
        /// The last step the run takes.
        last: u32,
    },
    /// `impact resume` on a file that is not a run snapshot this build can resume.
    #[error("{name}: {source}")]
    Resume {
        /// The file.
        name: String,
        /// What is wrong with it.
        source: ResumeError,
    },
    /// `impact resume` on a run saved at its scene's last step, without `--steps`.
    #[error("{0}: the run was saved after its last step ({1}); give --steps N to go on")]
    NothingLeft(String, u32),
}

impl RunError {
    /// True when the reader of stdout went away.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, RunError::File(e) if e.is_broken_pipe())
    }
}

/// What `impact` does without a subcommand: the showcase, with its replay written to this
/// file in the current directory.
pub const DEFAULT_REPLAY: &str = "showcase.html";

/// `impact` alone: runs the showcase and writes its replay to [`DEFAULT_REPLAY`].
///
/// Errors: as [`run`].
pub fn showcase() -> Result<ExitCode, RunError> {
    let outputs = OutputArgs { replay: Some(PathBuf::from(DEFAULT_REPLAY)), ..OutputArgs::default() };
    run(&RunArgs { outputs, ..RunArgs::default() })
}

/// `impact run`: loads the scene (exit code 2 and `FILE:LINE:COLUMN: field: problem` on
/// stderr when it is not valid, before any step), opens every output, runs the steps and
/// writes the reports.
///
/// Errors: [`RunError`] for files that cannot be read or written and frames that cannot be
/// drawn.
pub fn run(args: &RunArgs) -> Result<ExitCode, RunError> {
    png_every(&args.outputs)?;
    let (label, scene) = match resolve(args.scene.as_deref())? {
        Ok(found) => found,
        Err(message) => {
            eprintln!("{message}");
            return Ok(ExitCode::from(EXIT_INVALID));
        }
    };
    let sim = match Simulation::new(&scene) {
        Ok(sim) => sim,
        Err(BuildError { path, source }) => {
            eprintln!("{label}: {path}: {source}");
            return Ok(ExitCode::from(EXIT_INVALID));
        }
    };
    let steps = args.steps.unwrap_or(scene.scene().steps);
    drive(&args.outputs, &scene, sim, steps)
}

/// `impact resume`: loads the run snapshot (exit code 2 and the file's problem on stderr when
/// it cannot be resumed), then goes on as `impact run` does.
///
/// Errors: [`RunError`] for files that cannot be read or written and frames that cannot be
/// drawn.
pub fn resume(args: &ResumeArgs) -> Result<ExitCode, RunError> {
    let (name, bytes) = read_input(&args.file)?;
    let (scene, sim) = match Simulation::resume(&bytes) {
        Ok(found) => found,
        Err(source) => {
            eprintln!("impact: {}", RunError::Resume { name, source });
            return Ok(ExitCode::from(EXIT_INVALID));
        }
    };
    let steps = match args.steps {
        Some(n) => n,
        None => match scene.scene().steps.checked_sub(sim.steps()).filter(|&n| n > 0) {
            Some(n) => n,
            None => return Err(RunError::NothingLeft(name, sim.steps())),
        },
    };
    drive(&args.outputs, &scene, sim, steps)
}

/// Runs `steps` steps of `sim` (built from `scene`), writing what `args` asks.
fn drive(args: &OutputArgs, scene: &ValidScene, mut sim: Simulation, steps: u32) -> Result<ExitCode, RunError> {
    let every = png_every(args)?;
    let first = sim.steps();
    let save_at = save_at(args, first, first + steps)?;
    let mut outputs = Outputs::open(args, every, scene, &sim, steps)?;
    let started = Instant::now();
    let progress = Progress::new(u64::from(steps));
    save_if_due(&save_at, scene, &sim)?;
    for _ in 0..steps {
        let step = sim.steps() + 1;
        sim.step().map_err(|source| RunError::Step { step, source })?;
        if let Some(body) = sim.first_non_finite_body() {
            return Err(RunError::NonFinite { step, body });
        }
        outputs.after_step(&sim, step == first + steps)?;
        save_if_due(&save_at, scene, &sim)?;
        progress.advance(started);
    }
    progress.finish();
    let wall = started.elapsed();
    let summary = sim.summary();
    let mut written = outputs.finish(&summary)?;
    if let Some((step, path)) = &save_at {
        written.push(format!("run snapshot: {} (after step {step}); `impact resume` goes on from it", path.display()));
    }
    print_summary(&summary, wall, &written).map_err(|source| FileError::Write { name: "<stdout>".into(), source })?;
    Ok(ExitCode::SUCCESS)
}

/// `--save-at STEP FILE`, checked against the run's steps `first..=last`.
fn save_at(args: &OutputArgs, first: u32, last: u32) -> Result<Option<(u32, PathBuf)>, RunError> {
    let Some(values) = &args.save_at else { return Ok(None) };
    let [step, file] = values.as_slice() else { unreachable!("clap takes exactly two values") };
    match step.parse::<u32>() {
        Ok(step) if (first..=last).contains(&step) => Ok(Some((step, PathBuf::from(file)))),
        _ => Err(RunError::SaveAt { got: step.clone(), first, last }),
    }
}

/// Writes the run snapshot when the run has taken the steps it is due at.
fn save_if_due(save_at: &Option<(u32, PathBuf)>, scene: &ValidScene, sim: &Simulation) -> Result<(), RunError> {
    match save_at {
        Some((step, path)) if *step == sim.steps() => {
            fs::write(path, sim.save(scene)).map_err(write_error(path))?;
            Ok(())
        }
        _ => Ok(()),
    }
}

/// The scene to run and the name its messages start with; `Ok(Err(message))` when the
/// argument names neither a valid scene file nor a built-in scene.
pub fn resolve(arg: Option<&str>) -> Result<Result<(String, ValidScene), String>, FileError> {
    let arg = arg.unwrap_or("showcase");
    let is_file = arg == "-" || Path::new(arg).exists() || arg.ends_with(".json") || arg.contains('/');
    if !is_file {
        return Ok(match scenes::find(arg) {
            Some(built_in) => Ok((arg.to_owned(), built_in.scene().validate().expect("the built-in scenes are valid"))),
            None => Err(format!("impact: no scene file or built-in scene named `{arg}` (`impact list` shows them)")),
        });
    }
    let (name, bytes) = read_input(Path::new(arg))?;
    Ok(match load(&bytes) {
        Ok(scene) => Ok((name, scene)),
        Err(error) => Err(format!("{name}:{error}")),
    })
}

fn png_every(args: &OutputArgs) -> Result<Option<(u32, PathBuf)>, RunError> {
    let Some(values) = &args.png_every else { return Ok(None) };
    let [k, dir] = values.as_slice() else { unreachable!("clap takes exactly two values") };
    match k.parse::<u32>() {
        Ok(k) if k >= 1 => Ok(Some((k, PathBuf::from(dir)))),
        _ => Err(RunError::PngEvery(k.clone())),
    }
}

/// The files a run writes, open from before the first step.
struct Outputs {
    trace: Option<(PathBuf, BufWriter<File>)>,
    /// The replay's recorder, with `--replay`: it draws the world through `World::draw`.
    replay: Option<(PathBuf, Recorder)>,
    stride: u32,
    png: Option<PathBuf>,
    every: Option<(u32, PathBuf)>,
    summary: Option<PathBuf>,
    /// What PNG frames fit: the scene as it starts.
    bounds: Aabb,
    png_height: u32,
    step: u32,
    frames_written: u32,
}

impl Outputs {
    fn open(
        args: &OutputArgs,
        every: Option<(u32, PathBuf)>,
        scene: &ValidScene,
        sim: &Simulation,
        steps: u32,
    ) -> Result<Outputs, RunError> {
        let create = |path: &Path| {
            File::create(path).map_err(|source| FileError::Write { name: path.display().to_string(), source })
        };
        // Every output is created now, so that a path that cannot be written fails the run
        // before its first step rather than after its last.
        for path in [&args.summary, &args.replay, &args.png].into_iter().flatten() {
            create(path)?;
        }
        let trace = match &args.trace {
            Some(path) => Some((path.clone(), BufWriter::new(create(path)?))),
            None => None,
        };
        if let Some((_, dir)) = &every {
            fs::create_dir_all(dir).map_err(|source| FileError::Write { name: dir.display().to_string(), source })?;
        }
        let stride = frame_stride(steps, scene.scene().bodies.len());
        let replay = args.replay.as_ref().map(|path| {
            let mut recorder = Recorder::for_scene(scene, sim.world());
            recorder.set_stride(stride);
            recorder.set_contact_budget(CONTACT_BUDGET / (steps / stride + 2) as usize);
            recorder.record(&sim.world().world);
            (path.clone(), recorder)
        });
        let bounds = render::world_bounds(&sim.world().world);
        let size = bounds.upper - bounds.lower;
        let png_height = ((PNG_WIDTH as f32 * size.y / size.x).round() as u32).clamp(200, 2 * PNG_WIDTH);
        let mut outputs = Outputs {
            trace,
            replay,
            stride,
            png: args.png.clone(),
            every,
            summary: args.summary.clone(),
            bounds,
            png_height,
            step: sim.steps(),
            frames_written: 0,
        };
        outputs.write_every_frame(sim)?;
        Ok(outputs)
    }

    fn after_step(&mut self, sim: &Simulation, last: bool) -> Result<(), RunError> {
        self.step += 1;
        if let Some((path, out)) = &mut self.trace {
            writeln!(out, "{}", sim.trace_line())
                .map_err(|source| FileError::Write { name: path.display().to_string(), source })?;
        }
        // The recorder takes every stride-th step and keeps the impacts of the others for
        // its next frame, so a stride loses none; a picture shows those of its own step.
        if let Some((_, recorder)) = &mut self.replay {
            recorder.record(&sim.world().world);
            if last {
                recorder.finish(&sim.world().world);
            }
        }
        self.write_every_frame(sim)?;
        if let (true, Some(path)) = (last, &self.png) {
            let image = render::render(&sim.world().world, self.bounds, PNG_WIDTH, self.png_height, Layers::default())?;
            render::write_png(&image, path)?;
        }
        Ok(())
    }

    fn write_every_frame(&mut self, sim: &Simulation) -> Result<(), RunError> {
        let Some((k, dir)) = &self.every else { return Ok(()) };
        if !self.step.is_multiple_of(*k) {
            return Ok(());
        }
        let image = render::render(&sim.world().world, self.bounds, PNG_WIDTH, self.png_height, Layers::default())?;
        render::write_png(&image, &dir.join(format!("step-{:06}.png", self.step)))?;
        self.frames_written += 1;
        Ok(())
    }

    /// Flushes the trace and writes the summary and the replay; returns what was written,
    /// for people.
    fn finish(mut self, summary: &Summary) -> Result<Vec<String>, RunError> {
        let mut written = Vec::new();
        if let Some((path, mut out)) = self.trace.take() {
            out.flush().map_err(write_error(&path))?;
            written.push(format!("trace: {} ({} lines)", path.display(), summary.steps));
        }
        if let Some(path) = &self.summary {
            let text = serde_json::to_string_pretty(summary).expect("summaries always serialize") + "\n";
            fs::write(path, text).map_err(write_error(path))?;
            written.push(format!("summary: {}", path.display()));
        }
        if let Some((path, recorder)) = &self.replay {
            let html = recorder.to_html();
            fs::write(path, &html).map_err(write_error(path))?;
            let stride = if self.stride > 1 { format!(", every {} steps", self.stride) } else { String::new() };
            written.push(format!(
                "replay: {} ({}, {} frames{stride}); open it in a browser",
                path.display(),
                human_bytes(html.len()),
                recorder.replay().frames().len()
            ));
        }
        if let Some(path) = &self.png {
            written.push(format!("last frame: {}", path.display()));
        }
        if let Some((_, dir)) = &self.every {
            written.push(format!("frames: {} PNG images in {}", self.frames_written, dir.display()));
        }
        Ok(written)
    }
}

/// A progress bar on stderr, shown only on a terminal and only once a run has taken more
/// than a second.
pub struct Progress {
    bar: ProgressBar,
    terminal: bool,
}

impl Progress {
    /// A hidden bar for `steps` steps.
    pub fn new(steps: u64) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(steps), ProgressDrawTarget::hidden());
        if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} steps ({eta} left)") {
            bar.set_style(style);
        }
        Progress { bar, terminal: io::stderr().is_terminal() }
    }

    /// One more step; the bar appears on a terminal once `started` is a second ago.
    pub fn advance(&self, started: Instant) {
        self.bar.inc(1);
        if self.terminal && self.bar.is_hidden() && started.elapsed() > Duration::from_secs(1) {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }

    /// Clears the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// A few lines for people: steps and time, speed, bodies and contacts, files written.
fn print_summary(summary: &Summary, wall: Duration, written: &[String]) -> io::Result<()> {
    let s = &summary.statistics;
    let awake = summary.bodies.iter().filter(|b| b.awake).count();
    let mut out = io::stdout().lock();
    let name = if summary.scene.is_empty() { "unnamed scene" } else { summary.scene.as_str() };
    writeln!(
        out,
        "{name}: {} steps, {} s simulated in {:.2} s of wall time",
        summary.steps,
        simulation::round_seconds(summary.simulated_time),
        wall.as_secs_f64()
    )?;
    writeln!(
        out,
        "  {:.0} steps/s: {:.3} ms per step on average, {:.3} ms at worst",
        s.steps_per_second, s.mean_step_ms, s.worst_step_ms
    )?;
    writeln!(
        out,
        "  {} bodies, {awake} awake at the end; {:.1} touching contacts per step on average, {} at most",
        summary.bodies.len(),
        s.mean_touching_contacts,
        s.max_touching_contacts
    )?;
    writeln!(
        out,
        "  continuous collision: {} time-of-impact queries, {} impacts; {} dynamic bodies ended outside the box \
         the scene started in",
        s.toi_calls, s.impacts, s.outside_start_bounds
    )?;
    for line in written {
        writeln!(out, "  {line}")?;
    }
    out.flush()
}

/// The error of writing `path`.
fn write_error(path: &Path) -> impl FnOnce(io::Error) -> FileError + use<> {
    let name = path.display().to_string();
    move |source| FileError::Write { name, source }
}

fn human_bytes(n: usize) -> String {
    if n >= 1 << 20 { format!("{:.1} MB", n as f64 / f64::from(1 << 20)) } else { format!("{} KB", n.div_ceil(1024)) }
}
