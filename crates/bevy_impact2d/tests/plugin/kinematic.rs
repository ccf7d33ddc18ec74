//! A kinematic platform moved by its `Transform` carries a crate resting on it: the plugin
//! gives the move to the engine as a target pose, so the platform moves through the step.

use bevy_impact2d::prelude::*;
use bevy_math::prelude::*;
use bevy_transform::prelude::*;

use super::{DT, app, assert_no_errors, pose, spawn_crate};

/// The platform's path: to the right from rest, `2 (1 - cos t)` m (at most 2 m/s and 2 m/s²,
/// within what friction 0.6 holds), and up and down by 0.3 m once every 2 s (at most 3 m/s²,
/// under gravity, so the crate stays on).
fn platform_at(t: f32) -> Vec2 {
    Vec2::new(2.0 * (1.0 - t.cos()), 1.0 + 0.3 * (std::f32::consts::PI * t).sin())
}

#[test]
fn kinematic_platform_moved_by_transform_carries_a_crate() {
    let mut app = app();
    let platform = app
        .world_mut()
        .spawn((
            RigidBody::Kinematic,
            Collider::cuboid(2.0, 0.25),
            Transform::from_translation(platform_at(0.0).extend(0.0)),
        ))
        .id();
    let crate_ = spawn_crate(&mut app, 0.5, Vec2::new(0.0, 1.75));
    for _ in 0..60 {
        app.update();
    }
    let rest = pose(&app, crate_).0 - pose(&app, platform).0;
    assert!((rest - Vec2::new(0.0, 0.75)).length() < 0.01, "the crate rests on the platform: offset {rest}");

    for step in 1..=256 {
        let target = platform_at(step as f32 * DT);
        app.world_mut().get_mut::<Transform>(platform).unwrap().translation = target.extend(0.0);
        app.update();
        let (p, angle) = pose(&app, platform);
        assert!((p - target).length() < 1e-4 && angle.abs() < 1e-6, "step {step}: platform at {p}, asked {target}");
        let offset = pose(&app, crate_).0 - p;
        assert!((offset - rest).length() < 0.005, "step {step}: the crate slid to offset {offset} (was {rest})");
    }
    let (p, _) = pose(&app, platform);
    assert!(p.x > 3.0, "the platform travelled 3.3 m: at {p}");
    // Its Velocity stays the user's (zero): the platform stops when the Transform stops.
    assert_eq!(*app.world().get::<Velocity>(platform).unwrap(), Velocity::default());
    for _ in 0..10 {
        app.update();
    }
    assert!((pose(&app, platform).0 - p).length() < 1e-5, "the platform stopped");
    assert_no_errors(&app);
}
