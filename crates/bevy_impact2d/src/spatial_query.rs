//! Ray casts, shape casts and overlap queries against the world, answering with entities.
//!
//! They see the world as the last step left it (and bodies made, moved or destroyed since
//! through the plugin's systems or observers). Casts do not see sensors; overlaps do.

use std::collections::HashSet;

use bevy_ecs::entity::Entity;
use bevy_ecs::system::{Res, SystemParam};
use bevy_math::{Dir2, Vec2};
use impact2d::{Aabb, CastHit, Filter, ShapeId, Transform};

use crate::collider::Collider;
use crate::convert::{from_engine, to_engine};
use crate::error::ImpactError;
use crate::world::ImpactWorld;

/// Where a ray or a cast shape met a collider.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit {
    /// The collider's entity.
    pub entity: Entity,
    /// The engine shape hit.
    pub shape: ShapeId,
    /// How far along the cast the hit is (m): from the origin to the point for a ray, the
    /// distance the shape travelled for a shape cast.
    pub distance: f32,
    /// The contact point (m, world); for a shape cast, midway between the two surfaces.
    pub point: Vec2,
    /// The hit collider's outward normal there (unit; zero when the cast starts inside it).
    pub normal: Vec2,
}

/// Queries of the physics world for systems: `fn aim(query: SpatialQuery) { ... }`.
///
/// Each takes a [`Filter`] (`Filter::default()` sees every collider with a default
/// [`CollisionFilter`](crate::CollisionFilter)). Errors: [`ImpactError::World`] for
/// non-finite or out-of-range input (a distance that is not finite and positive, a point
/// beyond 1e9 m).
#[derive(SystemParam)]
pub struct SpatialQuery<'w> {
    world: Res<'w, ImpactWorld>,
}

impl SpatialQuery<'_> {
    /// The first collider along the ray from `origin` (m) in `direction`, within
    /// `max_distance` (m), if any.
    pub fn cast_ray(
        &self,
        origin: Vec2,
        direction: Dir2,
        max_distance: f32,
        filter: Filter,
    ) -> Result<Option<RayHit>, ImpactError> {
        let translation = to_engine(*direction * max_distance);
        let hit = self.world.engine().cast_ray_closest(to_engine(origin), translation, filter)?;
        Ok(hit.and_then(|h| self.ray_hit(h, max_distance)))
    }

    /// Every collider along the ray from `origin` (m) in `direction` within `max_distance`
    /// (m), each with its first hit, nearest first.
    pub fn cast_ray_all(
        &self,
        origin: Vec2,
        direction: Dir2,
        max_distance: f32,
        filter: Filter,
    ) -> Result<Vec<RayHit>, ImpactError> {
        let translation = to_engine(*direction * max_distance);
        let hits = self.world.engine().cast_ray_all(to_engine(origin), translation, filter)?;
        Ok(hits.into_iter().filter_map(|h| self.ray_hit(h, max_distance)).collect())
    }

    /// The first collider that `shape`, placed at `position` (m) turned by `angle` (radians),
    /// touches when it moves in `direction` up to `max_distance` (m), if any.
    ///
    /// Errors: also [`ImpactError::NotCastable`] for a chain or concave collider, and
    /// [`ImpactError::Geometry`] for an invalid one.
    pub fn cast_shape(
        &self,
        shape: &Collider,
        position: Vec2,
        angle: f32,
        direction: Dir2,
        max_distance: f32,
        filter: Filter,
    ) -> Result<Option<RayHit>, ImpactError> {
        let shape = shape.to_engine_shape()?;
        let transform = Transform::new(to_engine(position), angle);
        let translation = to_engine(*direction * max_distance);
        let hit = self.world.engine().cast_shape(&shape, transform, translation, filter)?;
        Ok(hit.and_then(|h| self.ray_hit(h, max_distance)))
    }

    /// The entities whose colliders contain `point` (m; the boundary counts), in engine
    /// handle order; an entity with several shapes there is listed once.
    pub fn point_intersections(&self, point: Vec2, filter: Filter) -> Result<Vec<Entity>, ImpactError> {
        let shapes = self.world.engine().overlap_point(to_engine(point), filter)?;
        Ok(self.entities(&shapes))
    }

    /// The entities whose colliders' bounding boxes overlap the box from `min` to `max` (m),
    /// in engine handle order, each once.
    pub fn aabb_intersections(&self, min: Vec2, max: Vec2, filter: Filter) -> Result<Vec<Entity>, ImpactError> {
        let aabb = Aabb { lower: to_engine(min), upper: to_engine(max) };
        let shapes = self.world.engine().overlap_aabb(aabb, filter)?;
        Ok(self.entities(&shapes))
    }

    fn ray_hit(&self, hit: CastHit, max_distance: f32) -> Option<RayHit> {
        Some(RayHit {
            entity: self.world.shape_entity(hit.shape)?,
            shape: hit.shape,
            distance: hit.fraction * max_distance,
            point: from_engine(hit.point),
            normal: from_engine(hit.normal),
        })
    }

    fn entities(&self, shapes: &[ShapeId]) -> Vec<Entity> {
        let mut seen = HashSet::with_capacity(shapes.len());
        let entities = shapes.iter().filter_map(|&s| self.world.shape_entity(s));
        entities.filter(|&e| seen.insert(e)).collect()
    }
}
