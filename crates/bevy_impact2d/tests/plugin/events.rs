//! Contact begin, hit and end messages, and continuous collision's impact messages, name the
//! right entities.

use bevy_ecs::prelude::*;
use bevy_impact2d::prelude::*;
use bevy_math::prelude::*;
use bevy_transform::prelude::*;

use super::{app, assert_no_errors, drain, spawn_crate, spawn_floor};

fn is_pair(a: Entity, b: Entity, x: Entity, y: Entity) -> bool {
    (a, b) == (x, y) || (a, b) == (y, x)
}

/// A crate dropped from 3 m begins touching the floor once, hits it at about √(2 g h) m/s,
/// and ends touching when lifted away; a second crate elsewhere reports nothing with it.
#[test]
fn contact_begin_hit_and_end_name_the_entities() {
    let mut app = app();
    let floor = spawn_floor(&mut app);
    let crate_ = spawn_crate(&mut app, 0.5, Vec2::new(0.0, 3.5));
    let other = spawn_crate(&mut app, 0.5, Vec2::new(10.0, 0.5));
    let (mut begins, mut hits) = (Vec::new(), Vec::new());
    for _ in 0..120 {
        app.update();
        begins.extend(drain::<ContactBegin>(&mut app));
        hits.extend(drain::<ContactHit>(&mut app));
    }
    let crate_begins: Vec<_> = begins.iter().filter(|c| is_pair(c.a, c.b, crate_, floor)).collect();
    assert_eq!(crate_begins.len(), 1, "one begin for the crate on the floor: {begins:?}");
    assert!(begins.iter().any(|c| is_pair(c.a, c.b, other, floor)), "the other crate rests on the floor too");
    assert!(!begins.iter().any(|c| is_pair(c.a, c.b, crate_, other)), "the crates never touch");
    // The normal points from a to b: up when a is the floor.
    let begin = crate_begins[0];
    let up = if begin.a == floor { begin.normal.y } else { -begin.normal.y };
    assert!(up > 0.99, "normal {} from {} to {}", begin.normal, begin.a, begin.b);

    let hit = hits.iter().find(|h| is_pair(h.a, h.b, crate_, floor)).expect("a hit event for the landing");
    let expected = (2.0f32 * 10.0 * 3.0).sqrt();
    assert!((hit.approach_speed - expected).abs() < 0.5, "approach {} m/s, expected {expected}", hit.approach_speed);
    assert!(hit.point.y.abs() < 0.05, "hit point {} on the floor's top", hit.point);

    // Lifted 5 m: the contact ends, naming the same two entities.
    app.world_mut().get_mut::<Transform>(crate_).unwrap().translation.y = 6.0;
    app.update();
    let ends = drain::<ContactEnd>(&mut app);
    assert_eq!(ends.len(), 1, "{ends:?}");
    assert!(is_pair(ends[0].a, ends[0].b, crate_, floor));
    assert_no_errors(&app);
}

/// A ball at 200 m/s straight down at a thin plate: continuous collision stops it there, and
/// the impact message names the ball and the plate, with the point on the plate's top.
#[test]
fn impact_messages_name_the_swept_pair() {
    let mut app = app();
    let plate = app.world_mut().spawn((Collider::cuboid(2.0, 0.005), Transform::default())).id();
    let ball = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::circle(0.05),
            Velocity::linear(Vec2::new(0.0, -200.0)),
            Transform::from_xyz(0.3, 2.0, 0.0),
        ))
        .id();
    let mut impacts = Vec::new();
    for _ in 0..20 {
        app.update();
        impacts.extend(drain::<Impact>(&mut app));
        assert!(super::pose(&app, ball).0.y > 0.0, "the ball's center stays above the plate");
    }
    let impact = impacts.first().expect("an impact message");
    assert!(is_pair(impact.a, impact.b, ball, plate), "{impact:?}");
    assert!((impact.point.y - 0.005).abs() < 0.01 && (impact.point.x - 0.3).abs() < 0.01, "point {}", impact.point);
    assert!(impact.fraction > 0.0 && impact.fraction < 1.0, "fraction {}", impact.fraction);
    assert_no_errors(&app);
}
