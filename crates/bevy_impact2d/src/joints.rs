//! Joints: a component on an entity of its own (or on one of the bodies) tying two body
//! entities, and the system that makes its engine joint.
//!
//! The engine takes anchors and axes in world coordinates when the joint is made (at the
//! physics step after the component is added, once both bodies exist) and keeps them in the
//! bodies' frames from then on, so a joint holds its bodies as they were placed. Units:
//! meters, radians, newtons, newton-meters.

use bevy_ecs::component::Component;
use bevy_ecs::entity::Entity;
use bevy_ecs::query::Without;
use bevy_ecs::system::{Commands, Query, ResMut};
use bevy_math::Vec2;
use impact2d::{DistanceDef, JointDef, JointId, JointKind, MotorDef, PrismaticDef, RevoluteDef, WeldDef, WheelDef};

use crate::components::{BodyHandle, Rejected};
use crate::convert::to_engine;
use crate::error::{ImpactError, PhysicsErrors};
use crate::world::ImpactWorld;

/// A joint between the bodies of two entities (each with a [`RigidBody`](crate::RigidBody)):
/// revolute, prismatic, distance, weld, wheel, motor or filter, with the engine's options
/// ([`JointKind`]; anchors in world coordinates at creation, meters).
///
/// Made at the first physics step where both bodies exist; a joint whose entity names no
/// body is refused ([`ImpactError::MissingBody`], kept in [`PhysicsErrors`] and marked
/// [`Rejected`]). Removing the component or despawning its entity destroys the joint;
/// despawning either body destroys it too. Changes to the component after the joint is made
/// are not read: use the engine's setters through [`ImpactWorld::engine_mut`] with the
/// [`JointHandle`], or insert the component again after removing it.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct PhysicsJoint {
    /// Body A's entity (the reference of angles, axes and offsets).
    pub body_a: Entity,
    /// Body B's entity.
    pub body_b: Entity,
    /// The kind and its options.
    pub kind: JointKind,
    /// Whether the two bodies' colliders collide with each other. Default false.
    pub collide_connected: bool,
    /// The reaction force (N) above which the joint breaks ([`JointBroke`](crate::JointBroke));
    /// `None` never.
    pub break_force: Option<f32>,
    /// The reaction torque (N·m) above which the joint breaks; `None` never.
    pub break_torque: Option<f32>,
}

impl PhysicsJoint {
    /// A joint of `kind` between the bodies of `body_a` and `body_b`, not colliding, unbreakable.
    pub fn new(body_a: Entity, body_b: Entity, kind: JointKind) -> PhysicsJoint {
        PhysicsJoint { body_a, body_b, kind, collide_connected: false, break_force: None, break_torque: None }
    }

    /// A pin at `anchor` (m, world at creation): B turns about it relative to A.
    pub fn revolute(body_a: Entity, body_b: Entity, anchor: Vec2) -> PhysicsJoint {
        PhysicsJoint::new(body_a, body_b, JointKind::Revolute(RevoluteDef::new(to_engine(anchor))))
    }

    /// A slider: B's `anchor_b` moves along `axis` through A's `anchor_a` (m, world at
    /// creation), without turning relative to A.
    pub fn prismatic(body_a: Entity, body_b: Entity, anchor_a: Vec2, anchor_b: Vec2, axis: Vec2) -> PhysicsJoint {
        let def = PrismaticDef::new(to_engine(anchor_a), to_engine(anchor_b), to_engine(axis));
        PhysicsJoint::new(body_a, body_b, JointKind::Prismatic(def))
    }

    /// A rod between `anchor_a` on A and `anchor_b` on B (m, world at creation), as long as
    /// they are apart at creation.
    pub fn distance(body_a: Entity, body_b: Entity, anchor_a: Vec2, anchor_b: Vec2) -> PhysicsJoint {
        let def = DistanceDef::new(to_engine(anchor_a), to_engine(anchor_b));
        PhysicsJoint::new(body_a, body_b, JointKind::Distance(def))
    }

    /// B glued rigidly to A at `anchor` (m, world at creation).
    pub fn weld(body_a: Entity, body_b: Entity, anchor: Vec2) -> PhysicsJoint {
        PhysicsJoint::new(body_a, body_b, JointKind::Weld(WeldDef::new(to_engine(anchor))))
    }

    /// A wheel: B's `anchor_b` moves along `axis` of A through `anchor_a` (m, world at
    /// creation), B turning freely.
    pub fn wheel(body_a: Entity, body_b: Entity, anchor_a: Vec2, anchor_b: Vec2, axis: Vec2) -> PhysicsJoint {
        let def = WheelDef::new(to_engine(anchor_a), to_engine(anchor_b), to_engine(axis));
        PhysicsJoint::new(body_a, body_b, JointKind::Wheel(def))
    }

    /// Drives B toward the pose `def` gives relative to A, with bounded force and torque.
    pub fn motor(body_a: Entity, body_b: Entity, def: MotorDef) -> PhysicsJoint {
        PhysicsJoint::new(body_a, body_b, JointKind::Motor(def))
    }

    /// No constraint: the two bodies only stop colliding with each other.
    pub fn filter(body_a: Entity, body_b: Entity) -> PhysicsJoint {
        PhysicsJoint::new(body_a, body_b, JointKind::Filter)
    }

    /// The same joint with its bodies' colliders colliding (`true`) or not.
    pub fn with_collide_connected(self, collide: bool) -> PhysicsJoint {
        PhysicsJoint { collide_connected: collide, ..self }
    }
}

/// The engine joint of a [`PhysicsJoint`], put on its entity by the plugin.
#[derive(Component, Clone, Copy, Debug)]
pub struct JointHandle {
    pub(crate) id: JointId,
}

impl JointHandle {
    /// The engine joint (stale once either body is despawned).
    pub fn id(&self) -> JointId {
        self.id
    }
}

/// Joints not made yet (and not refused).
type NewJoint = (Without<JointHandle>, Without<Rejected>);

/// Makes the engine joint of every [`PhysicsJoint`] without one.
pub(crate) fn create_joints(
    mut commands: Commands,
    mut world: ResMut<ImpactWorld>,
    mut errors: ResMut<PhysicsErrors>,
    joints: Query<(Entity, &PhysicsJoint), NewJoint>,
    bodies: Query<&BodyHandle>,
) {
    for (entity, joint) in &joints {
        match make_joint(&mut world, joint, &bodies) {
            Ok(id) => {
                world.add_joint(id, entity);
                insert_joint_handle(&mut commands, entity, id);
            }
            Err(e) => {
                errors.record(Some(entity), "create joint", e);
                commands.entity(entity).try_insert(Rejected);
            }
        }
    }
}

/// Puts a new joint's handle on its entity; should the entity be gone by then, destroys the
/// joint instead, so that no joint outlives its entity.
fn insert_joint_handle(commands: &mut Commands, entity: Entity, id: JointId) {
    commands.queue(move |world: &mut bevy_ecs::world::World| match world.get_entity_mut(entity) {
        Ok(mut e) => {
            e.insert(JointHandle { id });
        }
        Err(_) => {
            let mut physics = world.resource_mut::<ImpactWorld>();
            physics.forget_joint(id);
            let _ = physics.engine_mut().destroy_joint(id);
        }
    });
}

fn make_joint(
    world: &mut ImpactWorld,
    joint: &PhysicsJoint,
    bodies: &Query<&BodyHandle>,
) -> Result<JointId, ImpactError> {
    let body = |e: Entity| bodies.get(e).map(|h| h.id).map_err(|_| ImpactError::MissingBody(e));
    let def = JointDef {
        collide_connected: joint.collide_connected,
        break_force: joint.break_force,
        break_torque: joint.break_torque,
        ..JointDef::new(body(joint.body_a)?, body(joint.body_b)?, joint.kind)
    };
    Ok(world.engine_mut().create_joint(&def)?)
}
