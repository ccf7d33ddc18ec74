//! Shapes and their geometry: circles, capsules, rounded convex polygons, segments and
//! one-sided chain segments; convex hulls (quickhull), convex decomposition of concave
//! polygons, mass properties and AABBs.

mod aabb;
mod capsule;
mod chain;
mod circle;
mod decompose;
mod error;
mod hull;
mod mass;
mod polygon;
mod segment;
mod shape;

pub use aabb::{Aabb, AabbRayHit};
pub use capsule::Capsule;
pub use chain::{ChainSegment, make_chain};
pub use circle::Circle;
pub use decompose::decompose_polygon;
pub use error::GeometryError;
pub(crate) use error::{check_point, check_radius};
pub use hull::{Hull, compute_hull};
pub use mass::{MassData, capsule_mass, circle_mass, polygon_mass};
pub use polygon::{Polygon, make_box, make_offset_box, make_offset_rounded_box, make_rounded_box};
pub use segment::Segment;
pub use shape::Shape;
