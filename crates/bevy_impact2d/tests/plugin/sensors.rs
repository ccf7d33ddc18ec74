//! A sensor reports the colliders entering and leaving it, by entity, and never stops them.

use bevy_impact2d::prelude::*;
use bevy_transform::prelude::*;

use super::{app, assert_no_errors, drain, pose};

/// A ball falls through a sensor 1 m tall: one begin as it enters, one end as it leaves,
/// in that order, at the heights where its surface crosses the sensor's edges.
#[test]
fn sensor_reports_begin_then_end() {
    let mut app = app();
    let sensor = app.world_mut().spawn((Collider::cuboid(1.0, 0.5), Sensor, Transform::from_xyz(0.0, 5.0, 0.0))).id();
    let ball =
        app.world_mut().spawn((RigidBody::Dynamic, Collider::circle(0.1), Transform::from_xyz(0.0, 7.0, 0.0))).id();
    let bystander =
        app.world_mut().spawn((RigidBody::Dynamic, Collider::circle(0.1), Transform::from_xyz(5.0, 7.0, 0.0))).id();
    let (mut began_at, mut ended_at) = (None, None);
    for step in 1..=120 {
        app.update();
        let y = pose(&app, ball).0.y;
        for b in drain::<SensorBegin>(&mut app) {
            assert_eq!((b.sensor, b.visitor), (sensor, ball), "step {step}");
            assert!(began_at.is_none(), "a second begin at step {step}");
            began_at = Some((step, y));
        }
        for e in drain::<SensorEnd>(&mut app) {
            assert_eq!((e.sensor, e.visitor), (sensor, ball), "step {step}");
            assert!(ended_at.is_none(), "a second end at step {step}");
            ended_at = Some((step, y));
        }
    }
    let (began, y_in) = began_at.expect("a begin message");
    let (ended, y_out) = ended_at.expect("an end message");
    assert!(began < ended, "begin at step {began}, end at step {ended}");
    // The ball's bottom reaches the sensor's top (y = 5.5) in the step of the begin, and its
    // top leaves the bottom (y = 4.5) in the step of the end (a step moves it < 0.3 m here).
    assert!(y_in < 5.6 && y_in > 5.2, "entered with its center at {y_in}");
    assert!(y_out < 4.4 && y_out > 4.0, "left with its center at {y_out}");
    assert!(pose(&app, ball).0.y < 0.0, "the sensor did not stop the ball");
    assert!(pose(&app, bystander).0.y < 0.0);
    assert_no_errors(&app);
}
