//! Making engine bodies and shapes for new entities (and new shapes for changed colliders).

use bevy_ecs::entity::Entity;
use bevy_ecs::query::{Changed, Has, Or, Without};
use bevy_ecs::system::{Commands, Query, ResMut};
use bevy_transform::components::Transform;
use impact2d::{BodyDef, BodyId, ShapeId, WorldError};

use crate::collider::{Collider, ColliderMaterial, ColliderShape, CollisionFilter, Sensor, convex_shape, shape_def};
use crate::components::{
    BodyHandle, Ccd, ColliderHandle, Damping, GravityScale, LockRotation, Rejected, RigidBody, Velocity,
};
use crate::convert::{pose_of, to_engine};
use crate::error::{ImpactError, PhysicsErrors};
use crate::world::ImpactWorld;

/// What a new body is made from: its entity's components.
pub(crate) type NewBody<'a> = (
    Entity,
    &'a RigidBody,
    &'a Transform,
    &'a Velocity,
    Option<&'a Damping>,
    Option<&'a GravityScale>,
    Option<&'a Ccd>,
    Has<LockRotation>,
);

/// Makes an engine body for every entity with a [`RigidBody`] and no body yet. The entity is
/// kept in the body's user data, so events and queries find it.
pub(crate) fn create_bodies(
    mut commands: Commands,
    mut world: ResMut<ImpactWorld>,
    mut errors: ResMut<PhysicsErrors>,
    new: Query<NewBody, (Without<BodyHandle>, Without<Rejected>)>,
) {
    for (entity, kind, transform, velocity, damping, gravity, ccd, locked) in &new {
        let def = body_def(entity, *kind, transform, velocity, (damping, gravity, ccd, locked));
        match world.engine_mut().create_body(&def) {
            Ok(id) => insert_body_handle(&mut commands, entity, new_handle(id, *kind, transform, velocity)),
            Err(e) => {
                errors.record(Some(entity), "create body", e);
                commands.entity(entity).try_insert(Rejected);
            }
        }
    }
}

/// The engine definition of an entity's body.
fn body_def(
    entity: Entity,
    kind: RigidBody,
    transform: &Transform,
    velocity: &Velocity,
    (damping, gravity, ccd, locked): (Option<&Damping>, Option<&GravityScale>, Option<&Ccd>, bool),
) -> BodyDef {
    let (position, angle) = pose_of(transform);
    let (damping, ccd) = (damping.copied().unwrap_or_default(), ccd.copied().unwrap_or_default());
    BodyDef {
        body_type: kind.body_type(),
        position,
        angle,
        linear_velocity: to_engine(velocity.linear),
        angular_velocity: velocity.angular,
        linear_damping: damping.linear,
        angular_damping: damping.angular,
        gravity_scale: gravity.copied().unwrap_or_default().0,
        fixed_rotation: locked,
        bullet: ccd.bullet,
        continuous: ccd.continuous,
        user_data: entity.to_bits(),
        ..BodyDef::default()
    }
}

/// Puts a new body's handle on its entity; should the entity be gone by then (despawned by a
/// command applied first), destroys the body instead, so that no body outlives its entity.
fn insert_body_handle(commands: &mut Commands, entity: Entity, handle: BodyHandle) {
    commands.queue(move |world: &mut bevy_ecs::world::World| match world.get_entity_mut(entity) {
        Ok(mut e) => {
            e.insert(handle);
        }
        Err(_) => {
            let _ = world.resource_mut::<ImpactWorld>().engine_mut().destroy_body(handle.id);
        }
    });
}

/// The handle of a new body, synced with the components it was made from.
fn new_handle(id: BodyId, kind: RigidBody, transform: &Transform, velocity: &Velocity) -> BodyHandle {
    BodyHandle {
        id,
        kind,
        translation: transform.translation.truncate(),
        rotation: transform.rotation,
        velocity: *velocity,
    }
}

/// What a collider is attached from.
pub(crate) type ColliderParts<'a> = (
    Entity,
    &'a BodyHandle,
    &'a Collider,
    &'a ColliderMaterial,
    &'a CollisionFilter,
    Has<Sensor>,
    Option<&'a mut ColliderHandle>,
);

/// Colliders without shapes yet, or whose `Collider` changed.
type ToAttach = Or<(Without<ColliderHandle>, Changed<Collider>)>;

/// Attaches the shapes of every collider whose body exists and which has no shapes yet, or
/// whose `Collider` changed (the old shapes are destroyed first). A refused collider gets a
/// handle without shapes: it is tried again when the `Collider` changes.
pub(crate) fn attach_colliders(
    mut commands: Commands,
    mut world: ResMut<ImpactWorld>,
    mut errors: ResMut<PhysicsErrors>,
    mut colliders: Query<ColliderParts, ToAttach>,
) {
    for (entity, body, collider, material, filter, sensor, handle) in &mut colliders {
        if let Some(handle) = &handle {
            detach(&mut world, &handle.shapes);
        }
        let def = shape_def(material, filter, sensor, entity.to_bits());
        let shapes = match attach(world.engine_mut(), body.id, &def, collider.shape()) {
            Ok(shapes) => shapes,
            Err(e) => {
                errors.record(Some(entity), "attach collider", e);
                Vec::new()
            }
        };
        world.add_shapes(&shapes, entity);
        match handle {
            Some(mut handle) => handle.shapes = shapes,
            None => {
                commands.entity(entity).try_insert(ColliderHandle { shapes });
            }
        }
    }
}

/// Attaches a collider's shapes to a body: one shape, or a chain's segments or a concave
/// polygon's pieces (which the world attaches all or none of).
fn attach(
    world: &mut impact2d::World,
    body: BodyId,
    def: &impact2d::ShapeDef,
    shape: &ColliderShape,
) -> Result<Vec<ShapeId>, ImpactError> {
    let engine_points = |points: &[bevy_math::Vec2]| points.iter().map(|&p| to_engine(p)).collect::<Vec<_>>();
    match shape {
        ColliderShape::Chain { points, is_loop } => {
            Ok(world.create_chain(body, def, &engine_points(points), *is_loop)?)
        }
        ColliderShape::Concave { points, radius } => {
            Ok(world.create_concave(body, def, &engine_points(points), *radius)?)
        }
        other => {
            let shape = convex_shape(other)?.ok_or(ImpactError::NotCastable)?;
            Ok(vec![world.create_shape(body, def, &shape)?])
        }
    }
}

/// Destroys the shapes of a collider that are still in the world (a destroyed body took its
/// shapes with it), keeping their entities until the next step's events are out.
pub(crate) fn detach(world: &mut ImpactWorld, shapes: &[ShapeId]) {
    for &shape in shapes {
        match world.engine_mut().destroy_shape(shape) {
            // Stale: destroyed with its body already; nothing is left to do.
            Ok(()) | Err(WorldError::StaleHandle { .. }) => {}
            Err(e) => log::warn!("impact2d: destroy shape {shape:?}: {e}"),
        }
    }
    world.retire_shapes(shapes.iter().copied());
}
