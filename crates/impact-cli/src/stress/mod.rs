//! Adversarial scenes with pass-through checks at every step (`impact stress`,
//! `docs/stress.md`).
//!
//! A [`Family`] and a seed give a [`Stress`]: a [`Scene`] (so any of them can be written as a
//! scene file and replayed with `impact run`) and the [`check::Rule`]s it must keep.
//! [`run_seed`] steps it with the command's own [`Simulation`](crate::simulation::Simulation)
//! and checks the rules after every step ([`check::Checker`], reading the world through
//! [`observe`]).
//!
//! | file | job |
//! |---|---|
//! | `mod.rs` | the families, by name; a seed's scene and rules |
//! | `families/` | the generators, one file per family, and what they share (placing a layout, random materials and shapes, keeping bodies apart) |
//! | `rng.rs` | a small deterministic random number generator |
//! | `check.rs` | the rules and the checks of a step |
//! | `sensors.rs` | sensor crossings matched with sensor events |
//! | `observe.rs` | what the checks read of the world: poses, body radii, events |
//! | `geometry.rs` | crossings, order flips, detours and X crossings, in f64 |
//! | `run.rs` | a seed run and checked step by step |

pub mod check;
mod families;
mod geometry;
pub mod observe;
mod rng;
mod run;
mod sensors;

pub use run::{DEFAULT_STEPS, RunOptions, SeedOutcome, StressError, check_scene, run_seed};

use crate::scene::Scene;
use check::Rule;
use rng::Rng;

/// A family of generated scenes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Family {
    /// Bullets fired at thin heavy plates held in slots, one behind another.
    Plates,
    /// Pairs of fast bodies fired at each other, meeting inside a step.
    HeadOn,
    /// Fast kinematic pushers and rotors through resting bodies and thin dynamic walls.
    Kinematic,
    /// Bullets fired down into a pile of small boxes in a thin-walled closed box.
    Pile,
    /// Thin plates spinning among fast balls in a thin-walled closed box.
    Spinners,
    /// Hundreds of mixed bodies raining onto a thin static plate.
    Rain,
    /// Bullets crossing thin static, kinematic and dynamic sensors.
    Sensors,
}

impl Family {
    /// Every family, in the order reports list them.
    pub const ALL: [Family; 7] = [
        Family::Plates,
        Family::HeadOn,
        Family::Kinematic,
        Family::Pile,
        Family::Spinners,
        Family::Rain,
        Family::Sensors,
    ];

    /// The family's name on the command line and in file names.
    pub fn name(self) -> &'static str {
        match self {
            Family::Plates => "plates",
            Family::HeadOn => "head_on",
            Family::Kinematic => "kinematic",
            Family::Pile => "pile",
            Family::Spinners => "spinners",
            Family::Rain => "rain",
            Family::Sensors => "sensors",
        }
    }

    /// The family named `name`.
    pub fn from_name(name: &str) -> Option<Family> {
        Family::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The scene of `seed` and its rules. The same family and seed give the same scene, bit
    /// for bit, on every platform.
    pub fn generate(self, seed: u64) -> Stress {
        let rng = Rng::new(self as u64 + 1, seed);
        let mut build = families::Build::new(&format!("{}-{seed}", self.name()), rng);
        match self {
            Family::Plates => families::plates(&mut build),
            Family::HeadOn => families::head_on(&mut build),
            Family::Kinematic => families::kinematic(&mut build),
            Family::Pile => families::pile(&mut build),
            Family::Spinners => families::spinners(&mut build),
            Family::Rain => families::rain(&mut build),
            Family::Sensors => families::sensors(&mut build),
        }
        let place = build.frame.origin;
        build.scene.description = format!(
            "impact stress {} seed {seed} at ({}, {}): {}",
            self.name(),
            place.x,
            place.y,
            build.scene.description
        );
        Stress { scene: build.scene, rules: build.rules }
    }
}

/// A generated scene and the rules it must keep at every step.
#[derive(Clone, Debug, PartialEq)]
pub struct Stress {
    /// The scene.
    pub scene: Scene,
    /// Its rules, over the scene's body indices.
    pub rules: Vec<Rule>,
}
