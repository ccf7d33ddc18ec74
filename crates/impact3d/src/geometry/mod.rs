//! 3D shapes and their geometry: spheres, capsules, convex hulls (sharp or rounded, boxes
//! among them), segments and triangles; quickhull, mass properties and AABBs.

mod aabb;
mod capsule;
mod error;
mod hull;
mod mass;
mod quickhull;
mod segment;
mod shape;
mod sphere;
mod triangle;

pub use aabb::Aabb;
pub use capsule::Capsule;
pub use error::GeometryError;
pub(crate) use hull::BoxFrame;
pub use hull::{Hull, HullEdge, HullFace, make_box, make_offset_box};
pub use mass::{MassData, capsule_mass, hull_mass, sphere_mass};
pub use segment::Segment;
pub use shape::Shape;
pub use sphere::Sphere;
pub use triangle::Triangle;
