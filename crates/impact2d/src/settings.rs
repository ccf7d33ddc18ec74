//! The engine's tunables, in one place, with their meaning.
//!
//! Lengths are in meters and tuned for objects between 0.1 m and 10 m.

/// The collision and constraint tolerance (meters): contacts may overlap by this much
/// without being pushed apart, points closer than this are welded in hulls, and time of
/// impact aims to leave gaps of this size.
pub const LINEAR_SLOP: f32 = 0.005;

/// The gap (meters) under which a separated pair of shapes gets speculative contact points,
/// so the solver stops an approach before it becomes a penetration.
pub const SPECULATIVE_DISTANCE: f32 = 4.0 * LINEAR_SLOP;

/// How far (meters) a fat AABB extends beyond the tight AABB of a shape, so that small
/// motions need no broad-phase update.
pub const AABB_MARGIN: f32 = 0.1;

/// The most vertices a polygon or a shape proxy can have.
pub const MAX_POLYGON_VERTICES: usize = 8;

/// The default half-width (meters) of the band around the target gap in which a time of
/// impact is accepted.
pub const TOI_TOLERANCE: f32 = 0.25 * LINEAR_SLOP;

/// The default surface gap (meters) at which the time of impact stops: a little more than
/// the tolerance, so the shapes are never found overlapping at the time of impact.
pub const TOI_TARGET: f32 = LINEAR_SLOP;

/// The most outer iterations (closest-feature updates and horizon changes) of one time
/// of impact query before it reports `Failed` with the last safe time.
pub const TOI_MAX_ITERATIONS: u32 = 64;

/// The most iterations of the bracketed root finder inside one time of impact step.
pub const TOI_MAX_ROOT_ITERATIONS: u32 = 50;

/// The most iterations of the GJK distance loop (each one is a support point query).
pub const GJK_MAX_ITERATIONS: u32 = 30;

/// A fat AABB that has grown beyond its shape's tight AABB enlarged by this many
/// [`AABB_MARGIN`]s (after the shape moved fast, then slowed down) is shrunk back to the tight
/// AABB plus one margin, so that slow proxies do not keep oversized boxes in the broad phase.
pub const AABB_SHRINK_FACTOR: f32 = 4.0;

/// How many steps of motion a fat AABB looks ahead when the broad phase is told a proxy's
/// displacement (`BroadPhase::move_proxy_predicted`): the box is stretched by this many
/// displacements in the direction of motion, so a steadily moving shape keeps its fat AABB
/// for several steps instead of leaving it every step. Source: Box2D 2.4's `b2_aabbMultiplier`.
pub const AABB_PREDICTION: f32 = 4.0;
