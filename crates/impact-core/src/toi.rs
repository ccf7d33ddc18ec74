//! What a time of impact query can find, in 2D and in 3D.

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
