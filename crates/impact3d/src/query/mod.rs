//! Pairwise queries in 3D. This round: the swept-AABB time of impact; GJK distance, EPA,
//! SAT, casts and the rotation-safe time of impact come next (issue 20).

mod aabb_toi;
mod error;

pub use aabb_toi::{AabbToi, AabbToiState, aabb_time_of_impact};
pub use error::QueryError;
