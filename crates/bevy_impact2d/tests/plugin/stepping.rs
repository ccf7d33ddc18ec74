//! The fixed step and the sync of poses and velocities, both ways.

use bevy_app::prelude::*;
use bevy_impact2d::prelude::*;
use bevy_math::prelude::*;
use bevy_time::prelude::*;
use bevy_transform::prelude::*;

use super::{DT, app, assert_no_errors, body, pose, spawn_crate, spawn_floor};

/// With `TimeUpdateStrategy::ManualDuration` of one timestep, every update runs exactly one
/// fixed step: the engine's step count and `Time<Fixed>` advance by one each time.
#[test]
fn each_update_is_one_fixed_step() {
    let mut app = app();
    let world = |app: &App| app.world().resource::<ImpactWorld>().engine().step_count();
    assert_eq!(world(&app), 0, "the clock-starting update steps nothing");
    for n in 1..=300u64 {
        app.update();
        assert_eq!(world(&app), n, "update {n}");
        let elapsed = app.world().resource::<Time<Fixed>>().elapsed_secs_f64();
        assert!((elapsed - n as f64 * f64::from(DT)).abs() < 1e-9, "fixed clock at {elapsed} s after {n} updates");
    }
}

/// A body falls freely by the engine's integration, and its `Transform` and `Velocity` are
/// the engine's pose and velocity after every step.
#[test]
fn transforms_follow_the_engine() {
    let mut app = app();
    let ball =
        app.world_mut().spawn((RigidBody::Dynamic, Collider::circle(0.1), Transform::from_xyz(1.0, 50.0, 3.0))).id();
    for n in 1..=64 {
        app.update();
        let id = body(&app, ball);
        let engine = app.world().resource::<ImpactWorld>().engine();
        let (p, v) = (engine.position(id).unwrap(), engine.linear_velocity(id).unwrap());
        let (position, _) = pose(&app, ball);
        assert_eq!((position.x, position.y), (p.x, p.y), "step {n}");
        assert_eq!(app.world().get::<Velocity>(ball).unwrap().linear, Vec2::new(v.x, v.y));
        assert_eq!(app.world().get::<Transform>(ball).unwrap().translation.z, 3.0, "z is the user's");
    }
    // One second of free fall from rest: v = -g t, and the drop close to g t² / 2 = 5 m.
    let velocity = app.world().get::<Velocity>(ball).unwrap().linear;
    assert!((velocity.y + 10.0).abs() < 1e-3, "velocity {velocity}");
    let drop = 50.0 - pose(&app, ball).0.y;
    assert!((drop - 5.0).abs() < 0.1, "dropped {drop} m in 1 s");
    assert_no_errors(&app);
}

/// A `Transform` or `Velocity` the user sets goes to the engine before the next step: a
/// teleported crate lands where it was put, a thrown one flies.
#[test]
fn user_transform_and_velocity_reach_the_engine() {
    let mut app = app();
    spawn_floor(&mut app);
    let crate_ = spawn_crate(&mut app, 0.5, Vec2::new(0.0, 0.5));
    for _ in 0..30 {
        app.update();
    }
    app.world_mut().get_mut::<Transform>(crate_).unwrap().translation = Vec3::new(7.0, 3.0, 0.0);
    app.update();
    let (p, _) = pose(&app, crate_);
    assert!((p.x - 7.0).abs() < 1e-4 && p.y < 3.0 && p.y > 2.9, "teleported to (7, 3) then fell a step: {p}");
    app.world_mut().get_mut::<Velocity>(crate_).unwrap().linear = Vec2::new(-4.0, 6.0);
    app.update();
    let (q, _) = pose(&app, crate_);
    assert!((q.x - (p.x - 4.0 * DT)).abs() < 1e-3, "moved by the new velocity: {p} -> {q}");
    assert!(q.y > p.y, "thrown up: {p} -> {q}");
    assert_no_errors(&app);
}

/// An invalid collider is refused without a panic: the error names the entity, the app goes
/// on, and the body has no shape.
#[test]
fn invalid_collider_is_reported_not_panicked() {
    let mut app = app();
    let bad = app.world_mut().spawn((RigidBody::Dynamic, Collider::circle(-1.0))).id();
    for _ in 0..10 {
        app.update();
    }
    let errors = app.world().resource::<PhysicsErrors>();
    assert_eq!(errors.total(), 1, "reported once, not at every step");
    let record = errors.recent().next().unwrap();
    assert_eq!((record.entity, record.operation), (Some(bad), "attach collider"));
    let handle = app.world().get::<bevy_impact2d::ColliderHandle>(bad).unwrap();
    assert!(handle.shapes().is_empty());
    // Fixing the collider attaches it.
    app.world_mut().entity_mut(bad).insert(Collider::circle(1.0));
    app.update();
    assert_eq!(app.world().get::<bevy_impact2d::ColliderHandle>(bad).unwrap().shapes().len(), 1);
    assert_eq!(app.world().resource::<PhysicsErrors>().total(), 1);
}

/// Changing `RigidBody` changes the engine body's type: a dynamic crate made static stops
/// in mid-air.
#[test]
fn changing_the_kind_changes_the_body_type() {
    let mut app = app();
    let crate_ = spawn_crate(&mut app, 0.5, Vec2::new(0.0, 10.0));
    for _ in 0..10 {
        app.update();
    }
    *app.world_mut().get_mut::<RigidBody>(crate_).unwrap() = RigidBody::Static;
    app.update();
    let y = pose(&app, crate_).0.y;
    for _ in 0..20 {
        app.update();
    }
    assert_eq!(pose(&app, crate_).0.y, y, "a static body does not fall");
    let engine = app.world().resource::<ImpactWorld>().engine();
    assert_eq!(engine.body_type(body(&app, crate_)).unwrap(), bevy_impact2d::impact2d::BodyType::Static);
    assert_no_errors(&app);
}

/// Inserting a new `Collider` replaces the body's engine shapes (and its mass): a 1 m box
/// crate becomes a ball of radius 0.5 m, resting 0.5 m up all the same, lighter by π/4.
#[test]
fn replacing_the_collider_replaces_the_shapes() {
    let mut app = app();
    spawn_floor(&mut app);
    let crate_ = spawn_crate(&mut app, 0.5, Vec2::new(0.0, 0.5));
    app.update();
    let id = body(&app, crate_);
    let mass = |app: &App| app.world().resource::<ImpactWorld>().engine().mass(id).unwrap();
    assert!((mass(&app) - 1.0).abs() < 1e-5, "a 1 m² box of density 1: {} kg", mass(&app));
    app.world_mut().entity_mut(crate_).insert(Collider::circle(0.5));
    for _ in 0..60 {
        app.update();
    }
    let engine = app.world().resource::<ImpactWorld>().engine();
    assert_eq!(engine.shape_count(), 2, "the floor's and the ball's");
    let shapes = engine.body_shapes(id).unwrap();
    assert!(matches!(engine.shape_geometry(shapes[0]).unwrap(), bevy_impact2d::impact2d::Shape::Circle(_)));
    assert!((mass(&app) - std::f32::consts::FRAC_PI_4).abs() < 1e-4, "{} kg", mass(&app));
    assert!((pose(&app, crate_).0.y - 0.5).abs() < 0.01);
    assert_no_errors(&app);
}
