//! Pairwise queries: distance (GJK), penetration (EPA, SAT), ray and shape casts, and time
//! of impact (bilateral advancement, conservative advancement, analytic circles, swept AABBs).

mod aabb_toi;
mod circle_toi;
mod conservative;
mod distance;
mod epa;
pub(crate) mod error;
mod motion_bound;
mod proxy;
mod ray;
mod sat;
mod separation;
mod shape_cast;
mod simplex;
mod toi;

pub use aabb_toi::{AabbToi, AabbToiState, aabb_time_of_impact};
pub use circle_toi::{MovingCircle, circle_time_of_impact};
pub use conservative::conservative_advancement;
pub use distance::{DistanceInput, DistanceOutput, SegmentDistance, SimplexCache, segment_distance, shape_distance};
pub(crate) use distance::{segment_distance_lanes, segments_cross};
pub use epa::{Penetration, penetration};
pub use error::QueryError;
pub use proxy::ShapeProxy;
pub use ray::{
    CastOutput, RayCastInput, ray_cast_capsule, ray_cast_chain_segment, ray_cast_circle, ray_cast_polygon,
    ray_cast_segment,
};
pub(crate) use sat::{CoreSeparation, core_separation};
pub use sat::{SatQuery, polygon_sat};
pub use shape_cast::{ShapeCastInput, shape_cast};
pub use toi::{ToiOutput, ToiState, time_of_impact, time_of_impact_uncertified};
