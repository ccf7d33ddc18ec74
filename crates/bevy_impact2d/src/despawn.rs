//! Destroying engine objects when their entity is despawned or their component removed.
//!
//! Observers of `Remove` run while the removed components can still be read (also on
//! despawn), and at once: the engine object goes before the next step, whichever schedule
//! despawned the entity. Removing a user component ([`RigidBody`], [`Collider`],
//! [`PhysicsJoint`]) removes the plugin's handle, whose own observer destroys the object.

use bevy_ecs::lifecycle::Remove;
use bevy_ecs::observer::On;
use bevy_ecs::system::{Commands, Query, ResMut};
use impact2d::WorldError;

use crate::collider::Collider;
use crate::components::{BodyHandle, ColliderHandle, Rejected, RigidBody};
use crate::error::PhysicsErrors;
use crate::joints::{JointHandle, PhysicsJoint};
use crate::spawn::detach;
use crate::world::ImpactWorld;

/// A body's handle is going: destroy the body (with its shapes and joints). Its shapes'
/// entities are kept until the next step reports the end of their contacts.
pub(crate) fn destroy_body(
    removed: On<Remove, BodyHandle>,
    handles: Query<&BodyHandle>,
    mut world: ResMut<ImpactWorld>,
    mut errors: ResMut<PhysicsErrors>,
) {
    let Ok(handle) = handles.get(removed.entity) else { return };
    let shapes = world.engine().body_shapes(handle.id).unwrap_or_default();
    world.retire_shapes(shapes);
    match world.engine_mut().destroy_body(handle.id) {
        Ok(()) | Err(WorldError::StaleHandle { .. }) => {}
        Err(e) => errors.record(Some(removed.entity), "destroy body", e),
    }
}

/// A collider's handle is going: destroy its shapes (unless its body went first).
pub(crate) fn destroy_shapes(
    removed: On<Remove, ColliderHandle>,
    handles: Query<&ColliderHandle>,
    mut world: ResMut<ImpactWorld>,
) {
    if let Ok(handle) = handles.get(removed.entity) {
        detach(&mut world, &handle.shapes);
    }
}

/// A joint's handle is going: destroy the joint (unless a body took it already).
pub(crate) fn destroy_joint(
    removed: On<Remove, JointHandle>,
    handles: Query<&JointHandle>,
    mut world: ResMut<ImpactWorld>,
    mut errors: ResMut<PhysicsErrors>,
) {
    let Ok(handle) = handles.get(removed.entity) else { return };
    world.forget_joint(handle.id);
    match world.engine_mut().destroy_joint(handle.id) {
        Ok(()) | Err(WorldError::StaleHandle { .. }) => {}
        Err(e) => errors.record(Some(removed.entity), "destroy joint", e),
    }
}

/// The user removed a `RigidBody`: drop the plugin's handles, which destroys the body (and
/// with it the collider's shapes). On despawn the command finds no entity and does nothing.
pub(crate) fn unlink_body(removed: On<Remove, RigidBody>, mut commands: Commands) {
    commands.entity(removed.entity).try_remove::<(BodyHandle, ColliderHandle, Rejected)>();
}

/// The user removed a `Collider`: drop its handle, which detaches its shapes.
pub(crate) fn unlink_collider(removed: On<Remove, Collider>, mut commands: Commands) {
    commands.entity(removed.entity).try_remove::<ColliderHandle>();
}

/// The user removed a `PhysicsJoint`: drop its handle, which destroys the joint.
pub(crate) fn unlink_joint(removed: On<Remove, PhysicsJoint>, mut commands: Commands) {
    commands.entity(removed.entity).try_remove::<(JointHandle, Rejected)>();
}
