//! The narrow phase: contact manifolds for every pair of shape kinds.
//!
//! [`collide`] gives the [`Manifold`] of two placed shapes: a normal from A to B and up to
//! two points, each with its separation (negative when overlapping, positive up to the
//! speculative distance for a speculative point, so the solver can stop an approach before it
//! becomes a penetration) and a [`FeatureId`] that stays the same while the same features
//! touch, so the solver can warm start. Manifolds are pure geometry: the world keeps each
//! point's impulses beside the manifold and matches the next step's points by id
//! ([`Manifold::find_id`]).
//!
//! Accuracy (measured against an independent f64 reference on 10,000 random pairs per family,
//! `tests/manifold_random.rs`): for separated shapes within the speculative distance, the least
//! separation is the exact distance to f32 precision and the normal is the exact separating
//! direction; overlapping polygons report the depth of the reference face, which favors A and
//! may be deeper than the exact depth by up to
//! [`MANIFOLD_REFERENCE_TOLERANCE`](crate::settings::MANIFOLD_REFERENCE_TOLERANCE); each point's
//! separation is the gap between the two surfaces along the normal through it.
//!
//! Chain segments are one-sided and use their ghost vertices so that shapes slide across
//! joints without catching; [`collide_tile`] does the same for rows of separate tiles whose
//! shared edges [`internal_edges`] finds.
//!
//! | file | job |
//! |---|---|
//! | `manifold.rs` | the manifold types, feature ids, the local frame of a pair |
//! | `collide.rs` | the dispatch over every pair of kinds |
//! | `core.rs` | shapes as circles or polygon cores with a radius (capsules and segments have two vertices) |
//! | `circles.rs` | circle against circle, capsule, segment, polygon |
//! | `polygons.rs` | polygon, capsule and segment against each other (SAT, closest features, clipping) |
//! | `quads.rs` | four-vertex polygons (boxes) against each other: the polygon path in lanes, bit for bit |
//! | `clip.rs` | reference/incident face clipping |
//! | `chains.rs` | one-sided chain segments with ghost vertices, against everything |
//! | `tiles.rs` | rows of separate tiles that should act as one surface |
//!
//! Sources: Catto, Box2D v3 `manifold.c` (one manifold function per pair, `b2ClipPolygons`,
//! the chain segment Gauss-map rules) and "Ghost Collisions" (box2d.org, 2020); Ericson,
//! Real-Time Collision Detection (2005), chapters 4 and 5; Firth, "Speculative Contacts"
//! (2011) for keeping separated points.

mod chains;
mod circles;
mod clip;
mod collide;
mod core;
mod manifold;
mod polygons;
mod quads;
#[cfg(test)]
mod quads_tests;
#[cfg(test)]
mod tests;
mod tiles;

pub use collide::collide;
pub(crate) use collide::collide_into;
#[cfg(target_arch = "x86_64")]
pub(crate) use collide::collide_into_avx;
pub use manifold::{FeatureId, Manifold, ManifoldPoint, feature_id};
pub use tiles::{TileEdges, collide_tile, internal_edges};
