//! When two translating boxes first touch, by interval algebra, in any number of dimensions.
//!
//! Source: the swept-AABB time of impact of Ericson, Real-Time Collision Detection, 5.5.8,
//! as dissected in "Time of Impact between two moving AABBs" (the interval form used here
//! handles zero displacement on an axis).

/// What happens to two translating boxes over the motion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AabbToiState {
    /// The boxes overlap or touch at t = 0.
    Overlapped,
    /// The boxes first touch at `t`.
    Hit,
    /// The boxes never touch for t ∈ [0, 1].
    Separated,
}

/// The result of a swept-AABB time of impact (`aabb_time_of_impact` in `impact2d` and
/// `impact3d`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AabbToi {
    /// What happens.
    pub state: AabbToiState,
    /// The fraction of the displacements at which the boxes first touch: 0 when
    /// overlapped, 1 when separated.
    pub t: f32,
}

/// The first time t in [0, 1] at which box B, moving by `velocity` relative to box A,
/// touches A (boxes are closed: touching counts), or `None` when it does not. Boxes are
/// given per axis as `[lower, upper]` bounds (meters); the caller checks finiteness and
/// handles boxes that already overlap (this returns 0 for them).
///
/// Per axis, the times during which the projections overlap form an interval (all of time
/// when the relative displacement on that axis is zero and the projections overlap, none
/// when they don't); the boxes touch during the intersection of the intervals.
pub fn first_touch<const N: usize>(a: [[f32; 2]; N], b: [[f32; 2]; N], velocity: [f32; N]) -> Option<f32> {
    let (mut first, mut last) = (0.0f32, 1.0f32);
    for axis in 0..N {
        let ([a_lo, a_hi], [b_lo, b_hi], v) = (a[axis], b[axis], velocity[axis]);
        if v == 0.0 {
            if b_lo > a_hi || b_hi < a_lo {
                return None;
            }
            continue;
        }
        // Times at which B's leading face reaches A's near face, and its trailing face
        // leaves A's far face.
        let (enter, exit) =
            if v > 0.0 { ((a_lo - b_hi) / v, (a_hi - b_lo) / v) } else { ((a_hi - b_lo) / v, (a_lo - b_hi) / v) };
        first = first.max(enter);
        last = last.min(exit);
        if first > last {
            return None;
        }
    }
    Some(first)
}
