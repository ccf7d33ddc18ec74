//! The narrow phase: contact manifolds for every pair of shape kinds.
//!
//! [`collide`] gives the [`Manifold`] of two placed shapes: a normal from A to B and up to
//! two points, each with its separation (negative when overlapping, positive up to the
//! speculative distance for a speculative point) and a [`FeatureId`] that stays the same
//! while the same features touch, so the solver can warm start.
//!
//! | file | pairs |
//! |---|---|
//! | `circles.rs` | circle against circle, capsule, segment, polygon |
//! | `polygons.rs` | polygon, capsule and segment against each other (SAT, closest features, clipping) |
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
#[cfg(test)]
mod tests;
mod tiles;

pub use collide::collide;
pub use manifold::{FeatureId, Manifold, ManifoldPoint, feature_id};
pub use tiles::{TileEdges, collide_tile, internal_edges};
