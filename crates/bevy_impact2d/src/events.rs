//! The engine's events of a step, delivered as Bevy messages that name entities.
//!
//! After each step the plugin writes one message per engine event: contacts that began and
//! ended touching, hits faster than the world's hit threshold, sensor overlaps that began and
//! ended, impacts that continuous collision resolved, and joints that broke. Read them with a
//! `MessageReader` in any schedule (the plugin registers them). Every entity is a collider's
//! entity, which is also its body's. Units: meters, seconds.

use bevy_ecs::entity::Entity;
use bevy_ecs::message::{Message, MessageWriter};
use bevy_ecs::system::{ResMut, SystemParam};
use bevy_math::Vec2;
use impact2d::{JointEvent, ShapeId};

use crate::convert::from_engine;
use crate::world::ImpactWorld;

/// Two colliders began touching (their manifold has points, speculative ones included).
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct ContactBegin {
    /// The entity of the shape with the smaller engine handle.
    pub a: Entity,
    /// The other entity.
    pub b: Entity,
    /// The engine shapes (a chain or concave collider has several).
    pub shapes: (ShapeId, ShapeId),
    /// The contact normal from `a` to `b` (unit).
    pub normal: Vec2,
}

/// Two colliders stopped touching, or one of them was despawned or detached while touching.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContactEnd {
    /// The entity of the shape with the smaller engine handle.
    pub a: Entity,
    /// The other entity.
    pub b: Entity,
    /// The engine shapes.
    pub shapes: (ShapeId, ShapeId),
}

/// Two colliders hit each other faster than the world's `hit_event_threshold` (1 m/s by
/// default): one message per touching pair and step, at its fastest point.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct ContactHit {
    /// The entity of the shape with the smaller engine handle.
    pub a: Entity,
    /// The other entity.
    pub b: Entity,
    /// The engine shapes.
    pub shapes: (ShapeId, ShapeId),
    /// The contact point at the start of the step (m, world).
    pub point: Vec2,
    /// The contact normal from `a` to `b` (unit).
    pub normal: Vec2,
    /// How fast the surfaces approached along the normal (m/s, positive).
    pub approach_speed: f32,
}

/// A collider began overlapping a [`Sensor`](crate::Sensor).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct SensorBegin {
    /// The sensor's entity.
    pub sensor: Entity,
    /// The entity that entered it.
    pub visitor: Entity,
}

/// A collider stopped overlapping a [`Sensor`](crate::Sensor), or one of the two was
/// despawned or detached.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct SensorEnd {
    /// The sensor's entity.
    pub sensor: Entity,
    /// The entity that left it.
    pub visitor: Entity,
}

/// Continuous collision stopped two colliders where they met within the step: a fast body
/// that would otherwise have passed through the other. In time order within a step.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct Impact {
    /// The entity of the shape with the smaller engine handle.
    pub a: Entity,
    /// The other entity.
    pub b: Entity,
    /// The engine shapes.
    pub shapes: (ShapeId, ShapeId),
    /// When they met, as a fraction of the step (0 to 1).
    pub fraction: f32,
    /// Where they met (m, world); zero when the query ran out of iterations first.
    pub point: Vec2,
    /// The normal from `a` to `b` there (unit; zero with the point).
    pub normal: Vec2,
}

/// A [`PhysicsJoint`](crate::PhysicsJoint) broke: its reaction force or torque exceeded its
/// threshold. The engine joint stays (disabled) until the entity is despawned or its
/// `PhysicsJoint` removed.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct JointBroke {
    /// The joint's entity.
    pub joint: Entity,
    /// Its reaction force in the step (N).
    pub force: f32,
    /// Its reaction torque in the step (N·m).
    pub torque: f32,
}

/// The writers of every message the plugin delivers.
#[derive(SystemParam)]
pub(crate) struct Writers<'w> {
    begin: MessageWriter<'w, ContactBegin>,
    end: MessageWriter<'w, ContactEnd>,
    hit: MessageWriter<'w, ContactHit>,
    sensor_begin: MessageWriter<'w, SensorBegin>,
    sensor_end: MessageWriter<'w, SensorEnd>,
    impact: MessageWriter<'w, Impact>,
    joint: MessageWriter<'w, JointBroke>,
}

/// Delivers the last step's events, then forgets the shapes destroyed before it (their end
/// events are out).
pub(crate) fn deliver_events(mut world: ResMut<ImpactWorld>, mut out: Writers) {
    let w = &*world;
    let pair = |a: ShapeId, b: ShapeId| Some((w.shape_entity(a)?, w.shape_entity(b)?));
    let engine = w.engine();
    for e in engine.contact_begin_events() {
        if let Some((a, b)) = pair(e.shape_a, e.shape_b) {
            let (shapes, normal) = ((e.shape_a, e.shape_b), from_engine(e.manifold.normal));
            out.begin.write(ContactBegin { a, b, shapes, normal });
        }
    }
    for e in engine.contact_end_events() {
        if let Some((a, b)) = pair(e.shape_a, e.shape_b) {
            out.end.write(ContactEnd { a, b, shapes: (e.shape_a, e.shape_b) });
        }
    }
    for e in engine.contact_hit_events() {
        if let Some((a, b)) = pair(e.shape_a, e.shape_b) {
            let (point, normal) = (from_engine(e.point), from_engine(e.normal));
            let shapes = (e.shape_a, e.shape_b);
            out.hit.write(ContactHit { a, b, shapes, point, normal, approach_speed: e.approach_speed });
        }
    }
    deliver_sensor_events(w, &mut out);
    deliver_impacts_and_joints(&mut world, &mut out);
    world.forget_retired_shapes();
    world.delivered_step = world.engine().step_count();
}

fn deliver_sensor_events(w: &ImpactWorld, out: &mut Writers) {
    let engine = w.engine();
    for e in engine.sensor_begin_events() {
        if let (Some(sensor), Some(visitor)) = (w.shape_entity(e.sensor), w.shape_entity(e.visitor)) {
            out.sensor_begin.write(SensorBegin { sensor, visitor });
        }
    }
    for e in engine.sensor_end_events() {
        if let (Some(sensor), Some(visitor)) = (w.shape_entity(e.sensor), w.shape_entity(e.visitor)) {
            out.sensor_end.write(SensorEnd { sensor, visitor });
        }
    }
}

/// Impacts, broken joints, and joints destroyed with their body (forgotten: their entity's
/// handle is stale now, and despawning it later finds nothing to destroy).
fn deliver_impacts_and_joints(world: &mut ImpactWorld, out: &mut Writers) {
    let w = &*world;
    for e in w.engine().impact_events() {
        if let (Some(a), Some(b)) = (w.shape_entity(e.shape_a), w.shape_entity(e.shape_b)) {
            let (point, normal) = (from_engine(e.point), from_engine(e.normal));
            let shapes = (e.shape_a, e.shape_b);
            out.impact.write(Impact { a, b, shapes, fraction: e.fraction, point, normal });
        }
    }
    let mut gone = Vec::new();
    for e in w.engine().joint_events() {
        match *e {
            JointEvent::Broke { joint, force, torque } => {
                if let Some(entity) = w.joint_entity(joint) {
                    out.joint.write(JointBroke { joint: entity, force, torque });
                }
            }
            JointEvent::DestroyedWithBody { joint, .. } => gone.push(joint),
        }
    }
    for joint in gone {
        world.forget_joint(joint);
    }
}
