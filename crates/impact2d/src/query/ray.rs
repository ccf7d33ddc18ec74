//! Ray cast input and the output shared by ray and shape casts.

use crate::math::Vec2;

/// A ray `origin + f * translation`, f ∈ [0, max_fraction] (meters).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayCastInput {
    /// Start of the ray (meters).
    pub origin: Vec2,
    /// The ray's full translation (meters).
    pub translation: Vec2,
    /// The largest fraction of the translation to consider.
    pub max_fraction: f32,
}

/// Where a ray or a moving shape first hits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CastOutput {
    /// The hit point (meters).
    pub point: Vec2,
    /// The unit surface normal at the hit.
    pub normal: Vec2,
    /// The fraction of the translation at the hit.
    pub fraction: f32,
    /// Iterations of the algorithm (0 for closed forms).
    pub iterations: u32,
}
