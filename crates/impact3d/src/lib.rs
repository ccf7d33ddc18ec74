//! impact3d: the 3D foundation of impact — shapes, their geometry and (to come) every
//! pairwise query and a rotation-safe time of impact.
//!
//! Units are meters, kilograms, seconds and radians; y is up. Vectors and rotations are
//! glam's `Vec3` and `Quat` (f32). Every constructor checks its input and returns a
//! [`GeometryError`] naming the problem; nothing panics on user input.
//!
//! Modules follow the pipeline of the 2D crate: [`math`] → [`geometry`] → [`query`] (→ broad
//! phase → narrow phase → dynamics, in later rounds).

pub mod geometry;
pub mod math;
pub mod query;
pub mod settings;

pub use geometry::*;
pub use math::{Mat3, Quat, Sweep, Transform, Vec3};
pub use query::*;
