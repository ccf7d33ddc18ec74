//! Joints built with components: a revolute pendulum keeps its anchors together.

use bevy_impact2d::JointHandle;
use bevy_impact2d::prelude::*;
use bevy_math::prelude::*;
use bevy_transform::prelude::*;

use super::{app, assert_no_errors, pose};

/// A 1 m pendulum released horizontally: over 300 steps the joint's two world anchors stay
/// within half a millimeter, the bob stays 1 m from the pivot, and it swings through the
/// bottom to the other side.
#[test]
fn revolute_pendulum_keeps_its_anchors_together() {
    let mut app = app();
    let pivot = Vec2::new(0.0, 5.0);
    let ground = app.world_mut().spawn((RigidBody::Static, Transform::from_translation(pivot.extend(0.0)))).id();
    let bob =
        app.world_mut().spawn((RigidBody::Dynamic, Collider::circle(0.1), Transform::from_xyz(1.0, 5.0, 0.0))).id();
    let joint = app.world_mut().spawn(PhysicsJoint::revolute(ground, bob, pivot)).id();
    let (mut min_x, mut lowest) = (f32::MAX, f32::MAX);
    for step in 1..=300 {
        app.update();
        let id = app.world().get::<JointHandle>(joint).expect("the joint was made").id();
        let engine = app.world().resource::<ImpactWorld>().engine();
        let (a, b) = engine.joint_world_anchors(id).unwrap();
        assert!((b - a).length() < 5e-4, "step {step}: anchors {} mm apart", 1e3 * (b - a).length());
        let (p, _) = pose(&app, bob);
        assert!(
            ((p - pivot).length() - 1.0).abs() < 2e-3,
            "step {step}: bob {} m from the pivot",
            (p - pivot).length()
        );
        (min_x, lowest) = (min_x.min(p.x), lowest.min(p.y));
    }
    assert!(min_x < -0.9, "the bob swung to the other side (x down to {min_x})");
    assert!((lowest - 4.0).abs() < 0.01, "it passed under the pivot (lowest y {lowest})");
    assert_eq!(
        app.world().resource::<ImpactWorld>().joint_entity(app.world().get::<JointHandle>(joint).unwrap().id()),
        Some(joint)
    );
    assert_no_errors(&app);
}

/// A joint naming an entity without a body is refused once, reported with its entity.
#[test]
fn joint_without_body_is_reported() {
    let mut app = app();
    let body = app.world_mut().spawn((RigidBody::Dynamic, Collider::circle(0.1))).id();
    let nobody = app.world_mut().spawn(Transform::default()).id();
    let joint = app.world_mut().spawn(PhysicsJoint::weld(body, nobody, Vec2::ZERO)).id();
    for _ in 0..5 {
        app.update();
    }
    let errors = app.world().resource::<PhysicsErrors>();
    assert_eq!(errors.total(), 1);
    let record = errors.recent().next().unwrap();
    assert_eq!(record.entity, Some(joint));
    assert_eq!(record.error, bevy_impact2d::ImpactError::MissingBody(nobody));
    assert!(app.world().get::<bevy_impact2d::Rejected>(joint).is_some());
}
