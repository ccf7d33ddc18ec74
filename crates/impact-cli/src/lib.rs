//! The library behind the `impact` command: scene files, built-in scenes, runs and replays.
//!
//! - [`scene`]: the scene file format, its validation with located errors, and the
//!   [`scene::ValidScene`] a world is built from.
//! - [`scenes`]: the built-in scenes.
//! - [`build`]: a valid scene made into an impact2d world.
//! - [`one_way`]: one-way platforms, the pre-solve hook of scenes' `one_way` shapes.
//! - [`simulation`]: a scene run step by step, with its trace, summary and statistics.
//! - [`replay`]: the [`Recorder`] of any world (the command's runs, or a game's), its frames
//!   and the self-contained HTML player.
//! - [`render`]: PNG frames of a world, drawn through impact2d's debug drawing.
//! - [`stress`]: adversarial scene families with pass-through checks at every step.

#![warn(missing_docs)]

pub mod build;
mod json;
pub mod one_way;
pub mod render;
pub mod replay;
pub mod run_snapshot;
pub mod scene;
pub mod scenes;
pub mod simulation;
pub mod stress;

pub use replay::Recorder;
