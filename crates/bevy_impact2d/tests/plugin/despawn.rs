//! Despawning an entity (or removing its components) destroys its engine objects: counts
//! drop, later steps meet no stale handle, and the end of its contacts is still reported.

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_impact2d::prelude::*;
use bevy_math::prelude::*;

use super::{app, assert_no_errors, drain, spawn_crate, spawn_floor};

fn counts(app: &App) -> (usize, usize, usize) {
    let engine = app.world().resource::<ImpactWorld>().engine();
    (engine.body_count(), engine.shape_count(), engine.joint_count())
}

#[test]
fn despawned_bodies_leave_the_engine() {
    let mut app = app();
    let floor = spawn_floor(&mut app);
    let crates: Vec<Entity> = (0..3).map(|i| spawn_crate(&mut app, 0.5, Vec2::new(3.0 * i as f32, 0.5))).collect();
    let chain = app
        .world_mut()
        .spawn(Collider::chain(vec![Vec2::new(-9.0, 3.0), Vec2::new(-8.0, 2.0), Vec2::new(-7.0, 3.0)], false))
        .id();
    let joint = app
        .world_mut()
        .spawn(PhysicsJoint::distance(crates[0], crates[1], Vec2::new(0.0, 0.5), Vec2::new(3.0, 0.5)))
        .id();
    for _ in 0..30 {
        app.update();
    }
    drain::<ContactEnd>(&mut app);
    assert_eq!(counts(&app), (5, 6, 1), "floor, 3 crates, chain of 2 segments; one joint");

    // A resting crate despawned: its body and shape go at once, and the next step reports
    // the end of its contact with the floor, naming the despawned entity.
    app.world_mut().despawn(crates[2]);
    assert_eq!(counts(&app), (4, 5, 1));
    app.update();
    let ends = drain::<ContactEnd>(&mut app);
    assert!(ends.iter().any(|e| (e.a, e.b) == (floor, crates[2]) || (e.a, e.b) == (crates[2], floor)), "{ends:?}");

    // A jointed crate despawned: its joint goes with it, and despawning the joint's entity
    // afterwards finds nothing left to destroy (no error).
    app.world_mut().despawn(crates[0]);
    assert_eq!(counts(&app), (3, 4, 0));
    app.world_mut().despawn(joint);
    // Removing the components (not despawning) destroys the objects too.
    app.world_mut().entity_mut(chain).remove::<Collider>();
    app.update();
    assert_eq!(counts(&app), (3, 2, 0), "the chain's body stays, without its segments");
    app.world_mut().entity_mut(crates[1]).remove::<RigidBody>();
    app.update();
    assert_eq!(counts(&app), (2, 1, 0));
    assert!(app.world().get::<bevy_impact2d::BodyHandle>(crates[1]).is_none());
    for _ in 0..60 {
        app.update();
    }
    assert_no_errors(&app);
    // Every body left is a live entity's.
    let world = app.world().resource::<ImpactWorld>();
    for entity in [floor, chain] {
        let id = app.world().get::<bevy_impact2d::BodyHandle>(entity).unwrap().id();
        assert_eq!(world.body_entity(id), Some(entity));
    }
}
