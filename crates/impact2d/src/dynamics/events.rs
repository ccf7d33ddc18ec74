//! Events: what happened during a step, buffered and read after it.
//!
//! Each step clears the buffers and fills them; events caused by calls between steps
//! (destroying a touching shape or body) are reported with the next step's. Every list is
//! sorted by its shape handles, so the same world stepped the same way reports the same
//! events in the same order.

use super::handles::{BodyId, ShapeId};
use super::joint::JointEvent;
use crate::math::{Transform, Vec2};
use crate::narrow_phase::Manifold;

/// Two shapes began touching: their manifold has points (speculative points count, as the
/// solver acts on them).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ContactBeginEvent {
    /// The shape with the smaller handle.
    pub shape_a: ShapeId,
    /// The other shape.
    pub shape_b: ShapeId,
    /// The manifold at the start of the touch (normal from A to B).
    pub manifold: Manifold,
}

/// Two shapes stopped touching (or one of them was destroyed while touching).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ContactEndEvent {
    /// The shape with the smaller handle.
    pub shape_a: ShapeId,
    /// The other shape.
    pub shape_b: ShapeId,
}

/// Two shapes hit each other faster than the world's hit event threshold: a touching
/// contact point that took an impulse this step and whose approach speed before the step
/// exceeded the threshold. One event per contact per step, at its fastest point.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ContactHitEvent {
    /// The shape with the smaller handle.
    pub shape_a: ShapeId,
    /// The other shape.
    pub shape_b: ShapeId,
    /// The contact point (meters, world) at the start of the step.
    pub point: Vec2,
    /// The contact normal from A to B.
    pub normal: Vec2,
    /// How fast the surfaces approached along the normal before the step (m/s, positive).
    pub approach_speed: f32,
}

/// A shape began overlapping a sensor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SensorBeginEvent {
    /// The sensor shape.
    pub sensor: ShapeId,
    /// The shape that entered it.
    pub visitor: ShapeId,
}

/// A shape stopped overlapping a sensor (or one of the two was destroyed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SensorEndEvent {
    /// The sensor shape.
    pub sensor: ShapeId,
    /// The shape that left it.
    pub visitor: ShapeId,
}

/// A body that moved in the last step: every body the step moved (awake kinematic and
/// dynamic bodies, those that fell asleep at its end included), with its new pose, so that a
/// game syncs its objects without reading every body. Bodies asleep or disabled for the whole
/// step, and static bodies, are not reported. Listed by [`World::body_move_events`](super::World::body_move_events)
/// in body handle order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyMoveEvent {
    /// The body.
    pub body: BodyId,
    /// Its transform at the end of the step (origin in meters, rotation).
    pub transform: Transform,
    /// Whether it fell asleep at the end of the step (it will not move again until woken).
    pub fell_asleep: bool,
    /// The body's user data.
    pub user_data: u64,
}

/// The event lists of one step.
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Events {
    pub contact_begin: Vec<ContactBeginEvent>,
    pub contact_end: Vec<ContactEndEvent>,
    pub contact_hit: Vec<ContactHitEvent>,
    pub sensor_begin: Vec<SensorBeginEvent>,
    pub sensor_end: Vec<SensorEndEvent>,
    pub joint: Vec<JointEvent>,
}

impl Events {
    pub fn clear(&mut self) {
        self.contact_begin.clear();
        self.contact_end.clear();
        self.contact_hit.clear();
        self.sensor_begin.clear();
        self.sensor_end.clear();
        self.joint.clear();
    }

    /// Moves every event of `other` to the end of these lists.
    pub fn append(&mut self, other: &mut Events) {
        self.contact_begin.append(&mut other.contact_begin);
        self.contact_end.append(&mut other.contact_end);
        self.contact_hit.append(&mut other.contact_hit);
        self.sensor_begin.append(&mut other.sensor_begin);
        self.sensor_end.append(&mut other.sensor_end);
        self.joint.append(&mut other.joint);
    }

    /// Sorts every list by its shape handles (stable, so a pair that begins and ends in one
    /// step keeps its order), and keeps one hit event per pair, the fastest.
    pub fn sort(&mut self) {
        self.contact_begin.sort_by_key(|e| (e.shape_a, e.shape_b));
        self.contact_end.sort_by_key(|e| (e.shape_a, e.shape_b));
        self.contact_hit.sort_by_key(|e| (e.shape_a, e.shape_b));
        // One hit per pair and step, the fastest (continuous collision may resolve a pair's
        // impacts more than once in a step; the contact solver reports once per contact).
        self.contact_hit.dedup_by(|later, kept| {
            let same = (later.shape_a, later.shape_b) == (kept.shape_a, kept.shape_b);
            if same && later.approach_speed > kept.approach_speed {
                *kept = *later;
            }
            same
        });
        self.sensor_begin.sort();
        self.sensor_end.sort();
    }
}
