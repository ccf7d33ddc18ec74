//! Keeping entities and engine bodies in step, both ways: what the user changed goes to the
//! engine before a step, the poses and velocities the step computed come back after it.
//!
//! A user change is told from the plugin's own writes by value, not by Bevy's change ticks
//! (the plugin writes `Transform` and `Velocity` too): each [`BodyHandle`] keeps the pose and
//! velocity last synced, and a component that differs from them was changed by the user.

use bevy_ecs::entity::Entity;
use bevy_ecs::lifecycle::RemovedComponents;
use bevy_ecs::query::{Added, Changed, Has, Or};
use bevy_ecs::system::{Query, Res, ResMut};
use bevy_time::Time;
use bevy_transform::components::Transform;
use impact2d::{BodyId, World, WorldError};

use crate::collider::{ColliderMaterial, CollisionFilter};
use crate::components::{BodyHandle, Ccd, ColliderHandle, Damping, GravityScale, LockRotation, RigidBody, Velocity};
use crate::convert::{from_engine, pose_of, to_engine, write_pose};
use crate::error::PhysicsErrors;
use crate::world::ImpactWorld;

/// Gives the engine what the user changed: a body's kind, its `Transform` (a kinematic body
/// is moved there over the coming step, other bodies are teleported) and its [`Velocity`].
pub(crate) fn push_user_changes(
    time: Res<Time>,
    mut world: ResMut<ImpactWorld>,
    mut errors: ResMut<PhysicsErrors>,
    mut bodies: Query<(Entity, &RigidBody, &Transform, &Velocity, &mut BodyHandle)>,
) {
    let dt = time.delta_secs();
    if dt <= 0.0 {
        return; // No step follows: the changes wait for the next one.
    }
    let engine = world.engine_mut();
    for (entity, kind, transform, velocity, mut handle) in &mut bodies {
        if let Err(e) = push_body(engine, dt, (*kind, transform, velocity), &mut handle) {
            errors.record(Some(entity), "update body", e);
        }
    }
}

/// Pushes one body's changes and marks them synced.
fn push_body(
    engine: &mut World,
    dt: f32,
    (kind, transform, velocity): (RigidBody, &Transform, &Velocity),
    handle: &mut BodyHandle,
) -> Result<(), WorldError> {
    let id = handle.id;
    if kind != handle.kind {
        engine.set_body_type(id, kind.body_type())?;
        handle.kind = kind;
    }
    let moved = transform.translation.truncate() != handle.translation || transform.rotation != handle.rotation;
    let (position, angle) = pose_of(transform);
    // Synced now whatever happens: a refused pose is reported once, not at every step.
    (handle.translation, handle.rotation) = (transform.translation.truncate(), transform.rotation);
    match kind {
        // Moved by velocity to the new pose, so the step sweeps it and carries its riders.
        RigidBody::Kinematic if moved => return engine.set_target_transform(id, position, angle, dt),
        RigidBody::Kinematic => push_kinematic_velocity(engine, id, velocity)?,
        _ if moved => engine.set_transform(id, position, angle)?,
        _ => {}
    }
    if kind == RigidBody::Dynamic && *velocity != handle.velocity {
        handle.velocity = *velocity;
        engine.set_linear_velocity(id, to_engine(velocity.linear))?;
        engine.set_angular_velocity(id, velocity.angular)?;
    }
    Ok(())
}

/// A kinematic body moves by its [`Velocity`]: set it whenever the engine's differs (the
/// user changed it, or a move to a new `Transform` set the engine's for one step).
fn push_kinematic_velocity(engine: &mut World, id: BodyId, velocity: &Velocity) -> Result<(), WorldError> {
    let linear = to_engine(velocity.linear);
    if engine.linear_velocity(id)? != linear {
        engine.set_linear_velocity(id, linear)?;
    }
    if engine.angular_velocity(id)? != velocity.angular {
        engine.set_angular_velocity(id, velocity.angular)?;
    }
    Ok(())
}

/// The body options a user may change at run time.
pub(crate) type BodyOptions<'a> =
    (Entity, &'a BodyHandle, Option<&'a Damping>, Option<&'a GravityScale>, Option<&'a Ccd>, Has<LockRotation>);

/// Bodies whose options changed (a new body's options went into its definition).
type OptionsChanged = Or<(Changed<Damping>, Changed<GravityScale>, Changed<Ccd>, Added<LockRotation>)>;

/// Gives the engine the body options that changed ([`Damping`], [`GravityScale`], [`Ccd`],
/// [`LockRotation`]). Removing `Damping`, `GravityScale` or `Ccd` keeps the last values (put
/// back the default to undo them); removing `LockRotation` lets the body turn again.
pub(crate) fn push_body_options(
    mut world: ResMut<ImpactWorld>,
    mut errors: ResMut<PhysicsErrors>,
    mut unlocked: RemovedComponents<LockRotation>,
    handles: Query<&BodyHandle>,
    changed: Query<BodyOptions, OptionsChanged>,
) {
    let engine = world.engine_mut();
    for entity in unlocked.read() {
        if let Ok(handle) = handles.get(entity)
            && let Err(e) = engine.set_fixed_rotation(handle.id, false)
        {
            errors.record(Some(entity), "update body options", e);
        }
    }
    for (entity, handle, damping, gravity, ccd, locked) in &changed {
        let result = (|| {
            if let Some(d) = damping {
                engine.set_damping(handle.id, d.linear, d.angular)?;
            }
            if let Some(g) = gravity {
                engine.set_gravity_scale(handle.id, g.0)?;
            }
            if let Some(c) = ccd {
                engine.set_bullet(handle.id, c.bullet)?;
                engine.set_continuous(handle.id, c.continuous)?;
            }
            if engine.fixed_rotation(handle.id)? != locked {
                engine.set_fixed_rotation(handle.id, locked)?;
            }
            Ok::<(), WorldError>(())
        })();
        if let Err(e) = result {
            errors.record(Some(entity), "update body options", e);
        }
    }
}

/// Colliders whose material or filter changed.
type MaterialChanged = Or<(Changed<ColliderMaterial>, Changed<CollisionFilter>)>;

/// Gives the engine the collider materials and filters that changed.
pub(crate) fn push_collider_options(
    mut world: ResMut<ImpactWorld>,
    mut errors: ResMut<PhysicsErrors>,
    changed: Query<(Entity, &ColliderHandle, &ColliderMaterial, &CollisionFilter), MaterialChanged>,
) {
    let engine = world.engine_mut();
    for (entity, handle, material, filter) in &changed {
        for &shape in &handle.shapes {
            let result = (|| {
                // Setting the density recomputes the body's mass: only when it changed.
                if engine.shape_density(shape)? != material.density {
                    engine.set_shape_density(shape, material.density)?;
                }
                engine.set_shape_friction(shape, material.friction)?;
                engine.set_shape_restitution(shape, material.restitution)?;
                if engine.shape_filter(shape)? != filter.0 {
                    engine.set_shape_filter(shape, filter.0)?;
                }
                Ok::<(), WorldError>(())
            })();
            if let Err(e) = result {
                errors.record(Some(entity), "update collider", e);
            }
        }
    }
}

/// Writes the poses of the bodies the last step moved into their `Transform`, and the
/// velocities of dynamic bodies into their [`Velocity`]; marks both synced.
pub(crate) fn pull_poses(world: Res<ImpactWorld>, mut bodies: Query<(&mut Transform, &mut Velocity, &mut BodyHandle)>) {
    let engine = world.engine();
    for moved in engine.body_move_events() {
        let Some(entity) = Entity::try_from_bits(moved.user_data) else { continue };
        let Ok((mut transform, mut velocity, mut handle)) = bodies.get_mut(entity) else { continue };
        if handle.id != moved.body {
            continue; // A body made through `engine_mut` whose user data looks like an entity.
        }
        write_pose(&mut transform, moved.transform.p, moved.transform.q.angle());
        (handle.translation, handle.rotation) = (transform.translation.truncate(), transform.rotation);
        if handle.kind == RigidBody::Dynamic {
            let (Ok(linear), Ok(angular)) = (engine.linear_velocity(moved.body), engine.angular_velocity(moved.body))
            else {
                continue;
            };
            *velocity = Velocity { linear: from_engine(linear), angular };
            handle.velocity = *velocity;
        }
    }
}
