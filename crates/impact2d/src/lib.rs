//! # impact2d
//!
//! A 2D rigid-body collision library whose promise is that nothing tunnels: every collision
//! within a time step is found at the right time, including fast-rotating thin shapes.
//!
//! The modules follow the pipeline: [`math`] → [`geometry`] → [`query`] → [`broad_phase`] →
//! [`narrow_phase`] → [`dynamics`] (the [`World`] that steps rigid bodies).
//! Units are meters, kilograms, seconds and radians; y is up; polygons are counter-clockwise.

#![warn(missing_docs)]

pub mod benchmarks;
pub mod broad_phase;
pub mod dynamics;
mod encoding;
pub mod geometry;
pub mod math;
pub mod narrow_phase;
pub mod query;
pub mod settings;

pub use broad_phase::{BroadPhase, DynamicTree, Filter, SortAndSweep};
pub use dynamics::*;
pub use geometry::*;
pub use math::{Rot, Sweep, Transform, Vec2};
pub use narrow_phase::{FeatureId, Manifold, ManifoldPoint, collide};
pub use query::*;
