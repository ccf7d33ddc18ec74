//! Pairwise queries: distance (GJK), penetration (EPA, SAT), ray and shape casts, and time
//! of impact (bilateral advancement, conservative advancement, analytic circles, swept AABBs).

mod aabb_toi;
mod error;
mod proxy;
mod ray;
mod toi;

pub use aabb_toi::{AabbToi, AabbToiState, aabb_time_of_impact};
pub use error::QueryError;
pub use proxy::ShapeProxy;
pub use ray::{
    CastOutput, RayCastInput, ray_cast_capsule, ray_cast_chain_segment, ray_cast_circle, ray_cast_polygon,
    ray_cast_segment,
};
pub use toi::{ToiOutput, ToiState, time_of_impact};
