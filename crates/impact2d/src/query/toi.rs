//! Time of impact by bilateral advancement, certified against rotation.

use super::error::QueryError;
use super::proxy::ShapeProxy;
use crate::math::{Sweep, Vec2};

/// How a time of impact query ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToiState {
    /// The gap reaches the target band at `t`, and was never below it before.
    Hit,
    /// The gap stays above the target band over [0, t_max].
    Separated,
    /// The shapes overlap (gap below zero) at t = 0.
    Overlapped,
    /// The iteration budget ran out; `t` is the last time known to be safe.
    Failed,
}

/// The result of a time of impact query.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ToiOutput {
    /// How the query ended.
    pub state: ToiState,
    /// The normalized time: of impact for `Hit`, `t_max` for `Separated`, 0 for
    /// `Overlapped`, the last safe time for `Failed`.
    pub t: f32,
    /// Outer iterations: closest-feature (GJK) evaluations.
    pub iterations: u32,
    /// Iterations of the bracketed root finder, summed.
    pub root_iterations: u32,
    /// For `Hit`: the contact point at `t`, midway between the surfaces (meters, world).
    /// Zero otherwise.
    pub point: Vec2,
    /// For `Hit`: the unit normal at `t`, pointing from A to B. Zero otherwise.
    pub normal: Vec2,
    /// How many times the look-ahead interval was halved because rotation could hide a
    /// collision inside it.
    pub subdivisions: u32,
    /// True when the answer relied on a relaxed certificate: a contact shallower than a
    /// quarter of the thinner shape (a glancing contact) may have been missed.
    pub glancing: bool,
}

/// The first time in [0, t_max] at which the surface gap between two moving shapes comes
/// within `tolerance` of `target` (meters).
pub fn time_of_impact(
    proxy_a: &ShapeProxy,
    sweep_a: &Sweep,
    proxy_b: &ShapeProxy,
    sweep_b: &Sweep,
    t_max: f32,
    target: f32,
    tolerance: f32,
) -> Result<ToiOutput, QueryError> {
    let _ = (proxy_a, sweep_a, proxy_b, sweep_b, t_max, target, tolerance);
    todo!("in progress")
}
