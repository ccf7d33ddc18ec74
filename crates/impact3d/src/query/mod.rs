//! Pairwise queries in 3D on shape proxies. This round: GJK distance and the swept-AABB time
//! of impact; EPA, SAT, casts and the rotation-safe time of impact come next (issue 20).

mod aabb_toi;
mod distance;
mod error;
mod proxy;

pub use aabb_toi::{AabbToi, AabbToiState, aabb_time_of_impact};
pub use distance::{DistanceInput, DistanceOutput, SimplexCache, shape_distance};
pub use error::QueryError;
pub use proxy::ShapeProxy;
