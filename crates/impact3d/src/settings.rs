//! The tunables of the 3D crate, in one place, with their meaning.
//!
//! Lengths are in meters and tuned for objects between 0.1 m and 10 m, as in 2D.

/// The collision tolerance (meters): points of a hull closer than this are welded, and a
/// hull thinner than this in some direction is refused as flat.
pub const LINEAR_SLOP: f32 = 0.005;

/// The largest coordinate or size magnitude (meters) a shape accepts: beyond it the
/// products that volumes and moments need could overflow f32.
pub const MAX_COORDINATE: f32 = 1.0e9;

/// The most points a convex hull may be built from.
pub const MAX_HULL_POINTS: usize = 256;

/// The most vertices a convex hull may keep (after welding and merging coplanar faces).
pub const MAX_HULL_VERTICES: usize = 64;

/// Two adjacent hull triangles whose planes differ by less than this angle (radians, as
/// `1 - cos`) and whose vertices lie within [`LINEAR_SLOP`] of each other's plane are one
/// face.
pub const HULL_COPLANAR_TOLERANCE: f32 = 1.0e-3;

/// The gap (meters) a time of impact aims to leave between the surfaces: the linear slop,
/// as in 2D, so that a body stopped there is touching for the contact solver without
/// overlapping.
pub const TOI_TARGET: f32 = LINEAR_SLOP;

/// How far (meters) a time of impact's gap may land from [`TOI_TARGET`].
pub const TOI_TOLERANCE: f32 = 0.25 * LINEAR_SLOP;

/// Closest-feature (GJK) evaluations after which a time of impact gives up with `Failed`
/// at its last safe time.
pub const TOI_MAX_ITERATIONS: u32 = 64;

/// Iterations of the bracketed root finder on one separation function.
pub const TOI_MAX_ROOT_ITERATIONS: u32 = 50;

/// How many times bilateral advancement may push the end of a look-ahead interval back to
/// the root of a new deepest point pair before it halves the interval instead.
pub const TOI_MAX_PUSH_BACKS: usize = 16;
