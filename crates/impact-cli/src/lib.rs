//! The library behind the `impact` command: scene files and built-in scenes.
//!
//! - [`scene`]: the scene file format, its validation with located errors, and the
//!   [`scene::ValidScene`] a world is built from.
//! - [`scenes`]: the built-in scenes.

#![warn(missing_docs)]

mod json;
pub mod scene;
pub mod scenes;
