//! Colliders: the shape of a body and its material, filter and sensor flag.
//!
//! A [`Collider`] goes on the entity of its [`RigidBody`]; alone it makes that entity a static
//! body. Its geometry is in the body's frame (meters). Constructors do not check their
//! numbers: an invalid shape (a radius that is not positive, fewer than three distinct
//! polygon points) is refused when the collider is attached, and the error is logged and kept
//! in [`PhysicsErrors`](crate::PhysicsErrors).

use bevy_ecs::component::Component;
use bevy_math::Vec2;
use impact2d::{Capsule, Circle, Filter, GeometryError, Polygon, Segment, Shape, ShapeDef, make_offset_rounded_box};

use crate::components::RigidBody;
use crate::convert::to_engine;
use crate::error::ImpactError;

/// The shape of a body, in its frame (meters). Requires a [`ColliderMaterial`] and a
/// [`CollisionFilter`] (their defaults unless given) and a [`RigidBody`] (static unless
/// given). Changing it replaces the body's engine shapes; removing it detaches them.
#[derive(Component, Clone, Debug, PartialEq)]
#[require(ColliderMaterial, CollisionFilter, RigidBody = RigidBody::Static)]
pub struct Collider {
    shape: ColliderShape,
}

/// The kinds of [`Collider`]: every shape kind impact2d has.
#[derive(Clone, Debug, PartialEq)]
pub enum ColliderShape {
    /// A circle of `radius` (m) about the body origin.
    Circle {
        /// Radius (m; finite, positive).
        radius: f32,
    },
    /// A capsule: the segment from `a` to `b` (m) grown by `radius` (m).
    Capsule {
        /// One end of the core segment (m, body frame).
        a: Vec2,
        /// The other end (m, body frame).
        b: Vec2,
        /// Radius (m; finite, positive).
        radius: f32,
    },
    /// A box of half extents (m) about `center` (m), turned by `angle` (radians), its corners
    /// rounded by `radius` (m; 0 for sharp).
    Box {
        /// Half width and half height (m; finite, positive).
        half_extents: Vec2,
        /// The box center in the body frame (m).
        center: Vec2,
        /// The box's turn in the body frame (radians).
        angle: f32,
        /// Rounding radius (m; finite, not negative).
        radius: f32,
    },
    /// The convex hull of `points` (m, body frame; at least 3 distinct, at most 8 on the
    /// hull), rounded by `radius` (m).
    Polygon {
        /// The points (m, body frame).
        points: Vec<Vec2>,
        /// Rounding radius (m; finite, not negative).
        radius: f32,
    },
    /// A two-sided segment from `a` to `b` (m): ground lines, thin walls.
    Segment {
        /// One end (m, body frame).
        a: Vec2,
        /// The other end (m, body frame).
        b: Vec2,
    },
    /// A chain of one-sided segments through `points` (m, body frame), closed when `is_loop`:
    /// terrain. Each segment collides on its right side, walking from its first point to its
    /// second (a clockwise loop keeps bodies inside it, a counter-clockwise one outside).
    Chain {
        /// The points (m, body frame).
        points: Vec<Vec2>,
        /// Whether the last point joins the first.
        is_loop: bool,
    },
    /// A simple (possibly concave) polygon through `points` (m, body frame, either winding),
    /// split into convex pieces of at most 8 vertices, each rounded by `radius` (m).
    Concave {
        /// The outline (m, body frame).
        points: Vec<Vec2>,
        /// Rounding radius (m; finite, not negative).
        radius: f32,
    },
    /// Any engine shape as it is (body frame, meters).
    Engine(Shape),
}

impl Collider {
    /// A collider of any kind.
    pub fn new(shape: ColliderShape) -> Collider {
        Collider { shape }
    }

    /// A circle of `radius` (m) about the body origin.
    pub fn circle(radius: f32) -> Collider {
        Collider::new(ColliderShape::Circle { radius })
    }

    /// A capsule: the segment from `a` to `b` (m, body frame) grown by `radius` (m).
    pub fn capsule(a: Vec2, b: Vec2, radius: f32) -> Collider {
        Collider::new(ColliderShape::Capsule { a, b, radius })
    }

    /// A box `2 half_width` by `2 half_height` (m) centered on the body origin.
    pub fn cuboid(half_width: f32, half_height: f32) -> Collider {
        let half_extents = Vec2::new(half_width, half_height);
        Collider::new(ColliderShape::Box { half_extents, center: Vec2::ZERO, angle: 0.0, radius: 0.0 })
    }

    /// A box of `half_extents` (m) about `center` (m, body frame) turned by `angle` (radians)
    /// and rounded by `radius` (m).
    pub fn offset_cuboid(half_extents: Vec2, center: Vec2, angle: f32, radius: f32) -> Collider {
        Collider::new(ColliderShape::Box { half_extents, center, angle, radius })
    }

    /// The convex hull of `points` (m, body frame), rounded by `radius` (m; 0 for sharp).
    pub fn polygon(points: impl Into<Vec<Vec2>>, radius: f32) -> Collider {
        Collider::new(ColliderShape::Polygon { points: points.into(), radius })
    }

    /// A two-sided segment from `a` to `b` (m, body frame).
    pub fn segment(a: Vec2, b: Vec2) -> Collider {
        Collider::new(ColliderShape::Segment { a, b })
    }

    /// A chain of one-sided segments through `points` (m, body frame), closed when `is_loop`.
    pub fn chain(points: impl Into<Vec<Vec2>>, is_loop: bool) -> Collider {
        Collider::new(ColliderShape::Chain { points: points.into(), is_loop })
    }

    /// A simple, possibly concave polygon through `points` (m, body frame), split into convex
    /// pieces rounded by `radius` (m).
    pub fn concave(points: impl Into<Vec<Vec2>>, radius: f32) -> Collider {
        Collider::new(ColliderShape::Concave { points: points.into(), radius })
    }

    /// The shape description.
    pub fn shape(&self) -> &ColliderShape {
        &self.shape
    }

    /// The collider as one engine shape, for casts: every kind but chains and concave
    /// polygons. Errors: [`ImpactError::Geometry`] for invalid numbers,
    /// [`ImpactError::NotCastable`] for a chain or a concave polygon.
    pub fn to_engine_shape(&self) -> Result<Shape, ImpactError> {
        convex_shape(&self.shape)?.ok_or(ImpactError::NotCastable)
    }
}

/// The engine shape of a single-shape kind; `None` for chains and concave polygons, which
/// the world builds itself (it keeps their pieces together).
pub(crate) fn convex_shape(shape: &ColliderShape) -> Result<Option<Shape>, GeometryError> {
    let shape = match shape {
        ColliderShape::Circle { radius } => Shape::Circle(Circle::new(impact2d::Vec2::ZERO, *radius)?),
        ColliderShape::Capsule { a, b, radius } => Shape::Capsule(Capsule::new(to_engine(*a), to_engine(*b), *radius)?),
        ColliderShape::Box { half_extents, center, angle, radius } => Shape::Polygon(make_offset_rounded_box(
            half_extents.x,
            half_extents.y,
            to_engine(*center),
            *angle,
            *radius,
        )?),
        ColliderShape::Polygon { points, radius } => {
            let points: Vec<impact2d::Vec2> = points.iter().map(|&p| to_engine(p)).collect();
            Shape::Polygon(Polygon::new(&points, *radius)?)
        }
        ColliderShape::Segment { a, b } => Shape::Segment(Segment::new(to_engine(*a), to_engine(*b))?),
        ColliderShape::Engine(shape) => *shape,
        ColliderShape::Chain { .. } | ColliderShape::Concave { .. } => return Ok(None),
    };
    Ok(Some(shape))
}

/// A collider's material. Default: density 1 kg/m², friction 0.6, restitution 0 (the
/// engine's). Read when the collider is attached and when it changes.
///
/// Ranges (the engine refuses others; see [`PhysicsErrors`](crate::PhysicsErrors)): density
/// from 0 to 1e9 kg/m², friction from 0 to 1000, restitution from 0 to 10. Contacts mix two
/// materials by the world's rules: friction `sqrt(fa fb)`, restitution `max(ea, eb)`.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct ColliderMaterial {
    /// Mass per unit area (kg/m²).
    pub density: f32,
    /// Coulomb friction coefficient (dimensionless).
    pub friction: f32,
    /// Coefficient of restitution (1 bounces back at the approach speed).
    pub restitution: f32,
}

impl Default for ColliderMaterial {
    fn default() -> Self {
        let def = ShapeDef::default();
        ColliderMaterial { density: def.density, friction: def.friction, restitution: def.restitution }
    }
}

/// Which colliders this one collides with (and which queries see it): impact2d's [`Filter`]
/// of category bits, mask bits and group. Default: category 1, every mask bit, no group.
/// Read when the collider is attached and when it changes.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CollisionFilter(pub Filter);

/// Makes a collider a sensor: it reports [`SensorBegin`](crate::SensorBegin) and
/// [`SensorEnd`](crate::SensorEnd) when other colliders enter and leave it, and never
/// collides. Sensors do not detect other sensors. Read when the collider is attached (add it
/// with the collider; to change it, insert the `Collider` again).
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sensor;

/// The engine shape settings of a collider entity.
pub(crate) fn shape_def(
    material: &ColliderMaterial,
    filter: &CollisionFilter,
    sensor: bool,
    user_data: u64,
) -> ShapeDef {
    ShapeDef {
        density: material.density,
        friction: material.friction,
        restitution: material.restitution,
        filter: filter.0,
        sensor,
        user_data,
        ..ShapeDef::default()
    }
}
