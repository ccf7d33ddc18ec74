//! Pairwise queries in 3D on shape proxies: GJK distance, EPA penetration, linear shape
//! casts, ray casts, the separating axis test, the swept-AABB time of impact, and the time of
//! impact by certified bilateral advancement (with conservative advancement as a reference)
//! and in closed form for translating spheres.
//! Contact manifolds come with the 3D world.

mod aabb_toi;
mod conservative;
mod distance;
mod epa;
mod error;
mod motion_bound;
mod point_lanes;
mod proxy;
mod ray_box;
mod ray_capsule;
mod sat;
mod separation;
mod shape_cast;
mod sphere_toi;
mod toi;

pub use aabb_toi::{AabbToi, AabbToiState, aabb_time_of_impact};
pub use conservative::{CA_MAX_ITERATIONS, conservative_advancement};
pub use distance::{DistanceInput, DistanceOutput, SimplexCache, shape_distance};
pub use epa::{Penetration, penetration};
pub use error::QueryError;
pub use proxy::ShapeProxy;
pub use sat::{SatFeature, SatQuery, polytope_sat};
pub use shape_cast::{CastOutput, RayCastInput, ShapeCastInput, ray_cast, shape_cast};
pub use sphere_toi::{MovingSphere, sphere_time_of_impact};
pub use toi::{ToiOutput, ToiState, time_of_impact, time_of_impact_uncertified};
