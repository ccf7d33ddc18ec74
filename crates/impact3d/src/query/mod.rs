//! Pairwise queries in 3D on shape proxies. This round: GJK distance, EPA penetration, linear
//! shape casts, ray casts, the separating axis test, the swept-AABB time of impact and the
//! time of impact by conservative advancement; contact manifolds and the certified bilateral
//! advancement come next (issue 20).

mod aabb_toi;
mod conservative;
mod distance;
mod epa;
mod error;
mod proxy;
mod sat;
mod shape_cast;

pub use aabb_toi::{AabbToi, AabbToiState, aabb_time_of_impact};
pub use conservative::{CA_MAX_ITERATIONS, ToiOutput, ToiState, conservative_advancement};
pub use distance::{DistanceInput, DistanceOutput, SimplexCache, shape_distance};
pub use epa::{Penetration, penetration};
pub use error::QueryError;
pub use proxy::ShapeProxy;
pub use sat::{SatFeature, SatQuery, polytope_sat};
pub use shape_cast::{CastOutput, RayCastInput, ShapeCastInput, ray_cast, shape_cast};
