//! Bullets at 300 to 600 m/s into a wall 1 cm thick: continuous collision stops every one
//! at the wall, checked at every step, over 50 seeded speeds, heights and angles.

use bevy_ecs::prelude::*;
use bevy_impact2d::prelude::*;
use bevy_math::prelude::*;
use bevy_transform::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{app_with, drain};

/// The wall's half thickness (m): the wall spans x from -5 mm to +5 mm.
const WALL_HALF: f32 = 0.005;
/// The bullet's radius (m).
const RADIUS: f32 = 0.02;

struct Shot {
    speed: f32,
    angle: f32,
    height: f32,
}

impl Shot {
    fn seeded(seed: u64) -> Shot {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        Shot {
            speed: rng.random_range(300.0..600.0),
            angle: rng.random_range(-0.5..0.5),
            height: rng.random_range(-1.0..1.0),
        }
    }
}

/// A world whose speed cap lets 600 m/s bullets fly (the default caps at 400 m/s).
fn def(continuous: bool) -> WorldDef {
    WorldDef { max_linear_speed: 1000.0, enable_continuous: continuous, ..WorldDef::default() }
}

/// Fires `shot` from 3 m left of the wall; returns the largest x the bullet's center reached
/// at any step, and the impacts delivered, after 200 steps.
fn fire(shot: &Shot, continuous: bool) -> (f32, Vec<Impact>, Entity, Entity) {
    let mut app = app_with(def(continuous));
    let wall = app.world_mut().spawn(Collider::cuboid(WALL_HALF, 4.0)).id();
    let direction = Vec2::from_angle(shot.angle);
    let bullet = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::circle(RADIUS),
            if continuous { Ccd::bullet() } else { Ccd { bullet: false, continuous: false } },
            Velocity::linear(shot.speed * direction),
            Transform::from_xyz(-3.0, shot.height, 0.0),
        ))
        .id();
    let (mut max_x, mut impacts) = (f32::MIN, Vec::new());
    for _ in 0..200 {
        app.update();
        max_x = max_x.max(app.world().get::<Transform>(bullet).unwrap().translation.x);
        impacts.extend(drain::<Impact>(&mut app));
    }
    (max_x, impacts, bullet, wall)
}

#[test]
fn bullets_never_pass_a_one_centimeter_wall() {
    for seed in 0..50 {
        let shot = Shot::seeded(seed);
        let (max_x, impacts, bullet, wall) = fire(&shot, true);
        let (speed, angle) = (shot.speed, shot.angle);
        // The bullet's front never reaches the wall's middle: it sinks at most half the wall.
        assert!(max_x + RADIUS < 0.0, "seed {seed} ({speed} m/s, {angle} rad): the bullet reached x = {max_x}");
        // It did reach the wall (within a few mm of its face), stopped by continuous collision.
        assert!(max_x + RADIUS > -WALL_HALF - 0.01, "seed {seed}: the bullet stopped short at x = {max_x}");
        let hit = impacts.iter().find(|i| (i.a, i.b) == (bullet, wall) || (i.a, i.b) == (wall, bullet));
        let hit = hit.unwrap_or_else(|| panic!("seed {seed}: no impact between bullet and wall in {impacts:?}"));
        assert!((0.0..=1.0).contains(&hit.fraction), "seed {seed}: fraction {}", hit.fraction);
        assert!((hit.point.x + WALL_HALF).abs() < 0.01, "seed {seed}: impact at {} off the wall's face", hit.point);
    }
}

/// The control: without continuous collision, the same shots pass through the wall (so the
/// test above measures the plugin, not a wall too thick to pass). The bullet moves 4.7 to 9.4
/// m per step, and is 3 m from the wall: its first step ends beyond it.
#[test]
fn without_continuous_collision_bullets_pass_the_wall() {
    let passed = (0..10).filter(|&seed| fire(&Shot::seeded(seed), false).0 > 1.0).count();
    assert_eq!(passed, 10, "every discrete bullet tunnels");
}
