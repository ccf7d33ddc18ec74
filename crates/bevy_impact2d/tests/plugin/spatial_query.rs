//! `SpatialQuery` in a system: ray casts, shape casts and overlaps answer entities and
//! distances in meters.

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_ecs::system::RunSystemOnce;
use bevy_impact2d::impact2d::Filter;
use bevy_impact2d::prelude::*;
use bevy_impact2d::{ImpactError, RayHit};
use bevy_math::prelude::*;
use bevy_transform::prelude::*;

use super::{app, assert_no_errors};

/// Two boxes on the x axis, 1 m wide, centered at x = 5 and x = 8; a third, on its own
/// collision category, at x = 2. No gravity, so nothing moves.
fn scene(app: &mut App) -> (Entity, Entity, Entity) {
    let mut spawn = |x: f32| app.world_mut().spawn((Collider::cuboid(0.5, 0.5), Transform::from_xyz(x, 0.0, 0.0))).id();
    let (near, far, hidden) = (spawn(5.0), spawn(8.0), spawn(2.0));
    app.world_mut().entity_mut(hidden).insert(CollisionFilter(Filter::new(2, u64::MAX)));
    (near, far, hidden)
}

fn run<T: 'static>(app: &mut App, query: impl Fn(SpatialQuery) -> Result<T, ImpactError> + Send + Sync + 'static) -> T {
    app.world_mut().run_system_once(query).expect("the system runs").expect("the query succeeds")
}

#[test]
fn ray_cast_returns_the_nearest_entity_and_distance() {
    let mut app = app();
    let (near, far, hidden) = scene(&mut app);
    app.update();
    // Category 1 only: the hidden box (category 2) at x = 2 is skipped.
    let only_one = Filter::new(1, 1);
    let hit: Option<RayHit> = run(&mut app, move |q| q.cast_ray(Vec2::ZERO, Dir2::X, 100.0, only_one));
    let hit = hit.expect("the ray hits");
    assert_eq!(hit.entity, near);
    assert!((hit.distance - 4.5).abs() < 1e-4, "distance {}", hit.distance);
    assert!((hit.point - Vec2::new(4.5, 0.0)).length() < 1e-4 && (hit.normal - Vec2::NEG_X).length() < 1e-5);

    // The default filter sees every category: the hidden box first, at 1.5 m.
    let all: Vec<RayHit> = run(&mut app, |q| q.cast_ray_all(Vec2::ZERO, Dir2::X, 100.0, Filter::default()));
    let order: Vec<Entity> = all.iter().map(|h| h.entity).collect();
    assert_eq!(order, vec![hidden, near, far]);
    assert!((all[0].distance - 1.5).abs() < 1e-4 && (all[2].distance - 7.5).abs() < 1e-4);

    // Too short, or pointing away: no hit.
    assert!(run(&mut app, |q| q.cast_ray(Vec2::ZERO, Dir2::X, 1.0, Filter::default())).is_none());
    assert!(run(&mut app, |q| q.cast_ray(Vec2::ZERO, Dir2::NEG_X, 100.0, Filter::default())).is_none());
    assert_no_errors(&app);
}

#[test]
fn shape_cast_and_overlaps_return_entities() {
    let mut app = app();
    let (near, far, hidden) = scene(&mut app);
    app.update();
    // A ball of radius 0.25 m from (3, 0.2) along +x moves until its surface meets the near
    // box's face x = 4.5 (the hidden box, on category 2, is not seen).
    let ball = Collider::circle(0.25);
    let only_one = Filter::new(1, 1);
    let hit = run(&mut app, move |q| q.cast_shape(&ball, Vec2::new(3.0, 0.2), 0.0, Dir2::X, 10.0, only_one));
    let hit = hit.expect("the ball hits");
    assert_eq!(hit.entity, near);
    assert!((hit.distance - 1.25).abs() < 0.01, "travelled {}", hit.distance);

    let inside = run(&mut app, |q| q.point_intersections(Vec2::new(8.2, 0.3), Filter::default()));
    assert_eq!(inside, vec![far]);
    let boxed = run(&mut app, |q| q.aabb_intersections(Vec2::new(1.0, -1.0), Vec2::new(5.0, 1.0), Filter::default()));
    assert_eq!(boxed.len(), 2);
    assert!(boxed.contains(&near) && boxed.contains(&hidden));

    // A chain cannot be cast: an error, not a panic.
    let chain = Collider::chain(vec![Vec2::ZERO, Vec2::X], false);
    let refused = app
        .world_mut()
        .run_system_once(move |q: SpatialQuery| q.cast_shape(&chain, Vec2::ZERO, 0.0, Dir2::X, 1.0, Filter::default()))
        .unwrap();
    assert_eq!(refused, Err(ImpactError::NotCastable));
    assert_no_errors(&app);
}
