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
