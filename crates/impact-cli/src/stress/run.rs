//! One seed of a family run and checked step by step, with the command's own
//! [`Simulation`] (the world built from the scene as `impact run` builds it).

use impact2d::WorldError;
use thiserror::Error;

use super::check::{Checker, Rule, StepView, Violation};
use super::observe::{BodyInfo, StepEvents, take_poses};
use super::{Family, Stress};
use crate::build::BuildError;
use crate::scene::{Scene, ValidationError};
use crate::simulation::Simulation;

/// The steps a seed runs by default: two seconds at 60 steps per second.
pub const DEFAULT_STEPS: u32 = 120;

/// How seeds are run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunOptions {
    /// Steps per seed (a seed stops at its first failing step).
    pub steps: u32,
    /// Continuous collision on (the default) or off (to see the checks fail).
    pub continuous: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions { steps: DEFAULT_STEPS, continuous: true }
    }
}

/// What running one seed found.
#[derive(Clone, Debug, PartialEq)]
pub struct SeedOutcome {
    /// The family.
    pub family: Family,
    /// The seed.
    pub seed: u64,
    /// The steps taken (up to the first failing step).
    pub steps: u32,
    /// Time-of-impact queries of continuous collision over the steps.
    pub toi_calls: u64,
    /// Impacts continuous collision resolved over the steps.
    pub impacts: u64,
    /// What the first failing step broke; empty when the seed passed.
    pub violations: Vec<Violation>,
    /// The scene as run; when the seed failed, its description says what failed and when.
    pub scene: Scene,
}

impl SeedOutcome {
    /// Whether every check held at every step.
    pub fn passed(&self) -> bool {
        self.violations.is_empty()
    }

    /// The scene file name of the seed: `FAMILY-SEED.json`.
    pub fn file_name(&self) -> String {
        format!("{}-{}.json", self.family.name(), self.seed)
    }
}

/// A seed that could not be run: a generator made a scene the library refuses (a bug of
/// the generator, reported rather than panicking).
#[derive(Debug, Error)]
pub enum StressError {
    /// The scene does not validate.
    #[error("{family} seed {seed}: the generated scene is invalid: {source}")]
    Invalid {
        /// The family.
        family: &'static str,
        /// The seed.
        seed: u64,
        /// Why.
        source: ValidationError,
    },
    /// The world refused a body or shape.
    #[error("{family} seed {seed}: the world refused the generated scene: {source}")]
    Build {
        /// The family.
        family: &'static str,
        /// The seed.
        seed: u64,
        /// Why.
        source: BuildError,
    },
    /// The world refused a step.
    #[error("{family} seed {seed}: step {step}: {source}")]
    Step {
        /// The family.
        family: &'static str,
        /// The seed.
        seed: u64,
        /// The step (from 1).
        step: u32,
        /// Why.
        source: WorldError,
    },
}

/// Generates the scene of `family` and `seed` and runs it with `options`, checking its rules
/// after every step; stops at the first failing step.
///
/// Errors: [`StressError`] when the generated scene is refused.
pub fn run_seed(family: Family, seed: u64, options: RunOptions) -> Result<SeedOutcome, StressError> {
    let Stress { mut scene, rules } = family.generate(seed);
    scene.steps = options.steps;
    scene.enable_continuous = options.continuous;
    check_scene(family, seed, scene, rules)
}

/// Runs `scene` for its own number of steps, checking `rules` after every step; stops at the
/// first failing step, and then says in the scene's description what failed. `family` and
/// `seed` only label the outcome. This is how a scene file written by a failing seed is
/// checked again.
///
/// Errors: [`StressError`] when the scene is refused.
pub fn check_scene(family: Family, seed: u64, scene: Scene, rules: Vec<Rule>) -> Result<SeedOutcome, StressError> {
    let name = family.name();
    let valid = scene.validate().map_err(|source| StressError::Invalid { family: name, seed, source })?;
    let mut sim = Simulation::new(&valid).map_err(|source| StressError::Build { family: name, seed, source })?;
    let built = sim.world();
    let bodies = scene.bodies.iter().zip(&built.bodies);
    let infos = bodies.map(|(def, &id)| BodyInfo::of(&built.world, id, &def.name, def.body_type)).collect();
    let mut checker = Checker::new(infos, rules, scene.time_step);
    let mut before = take_poses(&built.world, &built.bodies, None);
    let mut outcome =
        SeedOutcome { family, seed, steps: 0, toi_calls: 0, impacts: 0, violations: Vec::new(), scene: scene.clone() };
    for step in 1..=scene.steps {
        sim.step().map_err(|source| StressError::Step { family: name, seed, step, source })?;
        let built = sim.world();
        let stats = built.world.continuous_stats();
        outcome.steps = step;
        outcome.toi_calls += u64::from(stats.toi_calls);
        outcome.impacts += u64::from(stats.impacts);
        let after = take_poses(&built.world, &built.bodies, Some(&before));
        let events = StepEvents::of(&built.world);
        outcome.violations = checker.check(&StepView { step, before: &before, after: &after, events: &events });
        if !outcome.violations.is_empty() {
            outcome.scene.description = failure_description(&scene.description, &outcome.violations);
            break;
        }
        before = after;
    }
    Ok(outcome)
}

/// The description of a failing seed's scene: what it was, and what failed at which step.
fn failure_description(description: &str, violations: &[Violation]) -> String {
    let more = match violations.len() {
        1 => String::new(),
        n => format!(" (and {} more in that step)", n - 1),
    };
    format!("{description}. FAILED at {}{more}", violations[0])
}
