//! Pairwise queries in 3D on shape proxies. This round: GJK distance, EPA penetration, linear
//! shape casts, ray casts and the swept-AABB time of impact; SAT and the rotation-safe time of
//! impact come next (issue 20).

mod aabb_toi;
mod distance;
mod epa;
mod error;
mod proxy;
mod shape_cast;

pub use aabb_toi::{AabbToi, AabbToiState, aabb_time_of_impact};
pub use distance::{DistanceInput, DistanceOutput, SimplexCache, shape_distance};
pub use epa::{Penetration, penetration};
pub use error::QueryError;
pub use proxy::ShapeProxy;
pub use shape_cast::{CastOutput, RayCastInput, ShapeCastInput, ray_cast, shape_cast};
