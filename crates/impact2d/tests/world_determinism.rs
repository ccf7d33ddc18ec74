//! Determinism: the same scene built and stepped the same way gives bit-identical bodies and
//! events every step, also with bodies destroyed and made along the way, and a cloned world
//! goes on exactly as the original.

mod world_common;

use impact2d::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use world_common::*;

/// A closed bin with a pile of mixed shapes (boxes, circles, capsules, hexagons, rounded
/// boxes) dropped into it, some bouncy, one sensor.
fn pile(seed: u64) -> (World, Vec<BodyId>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut world = world();
    let bin = world.create_body(&BodyDef::fixed(Vec2::ZERO)).unwrap();
    for (center, hx, hy) in
        [(Vec2::new(0.0, -0.5), 8.0, 0.5), (Vec2::new(-7.5, 6.0), 0.5, 7.0), (Vec2::new(7.5, 6.0), 0.5, 7.0)]
    {
        world
            .create_shape(bin, &ShapeDef::default(), &Shape::Polygon(make_offset_box(hx, hy, center, 0.0).unwrap()))
            .unwrap();
    }
    world.create_shape(bin, &ShapeDef { sensor: true, ..ShapeDef::default() }, &boxed(3.0, 1.0)).unwrap();
    let mut bodies = Vec::new();
    for i in 0..120 {
        bodies.push(add_random_body(
            &mut world,
            &mut rng,
            Vec2::new(-6.0 + (i % 12) as f32, 1.0 + (i / 12) as f32 * 1.2),
        ));
    }
    (world, bodies)
}

fn add_random_body(world: &mut World, rng: &mut ChaCha8Rng, position: Vec2) -> BodyId {
    let def = BodyDef { angle: rng.random_range(-1.0..1.0), ..BodyDef::dynamic(position) };
    let body = world.create_body(&def).unwrap();
    let shape = match rng.random_range(0..5) {
        0 => boxed(rng.random_range(0.2..0.5), rng.random_range(0.2..0.5)),
        1 => circle(rng.random_range(0.2..0.5)),
        2 => Shape::Capsule(Capsule::new(Vec2::new(-0.3, 0.0), Vec2::new(0.3, 0.0), 0.2).unwrap()),
        3 => {
            let hexagon: Vec<Vec2> =
                (0..6).map(|k| 0.4 * Vec2::from_angle(k as f32 * std::f32::consts::PI / 3.0)).collect();
            Shape::Polygon(Polygon::new(&hexagon, 0.0).unwrap())
        }
        _ => Shape::Polygon(make_rounded_box(0.3, 0.2, 0.1).unwrap()),
    };
    let shape_def = ShapeDef { restitution: rng.random_range(0.0..0.5), friction: 0.6, ..ShapeDef::default() };
    world.create_shape(body, &shape_def, &shape).unwrap();
    body
}

/// Everything observable of a step: every body's pose and velocities as bits, and the
/// events in their order, written out (`{:?}` of an f32 round-trips, so equal text is equal
/// bits).
fn snapshot(world: &World, bodies: &[BodyId]) -> (Vec<u32>, String) {
    let mut bits = Vec::new();
    for &b in bodies {
        let (p, v) = (world.position(b).unwrap(), world.linear_velocity(b).unwrap());
        bits.extend(
            [p.x, p.y, world.angle(b).unwrap(), v.x, v.y, world.angular_velocity(b).unwrap()].map(f32::to_bits),
        );
    }
    let events = format!(
        "{:?}{:?}{:?}{:?}{:?}",
        world.contact_begin_events(),
        world.contact_end_events(),
        world.contact_hit_events(),
        world.sensor_begin_events(),
        world.sensor_end_events()
    );
    (bits, events)
}

/// Steps a pile for `steps` steps, destroying and making bodies from `churn_seed` when
/// given, and returns the snapshot of every step.
fn history(steps: usize, churn_seed: Option<u64>) -> Vec<(Vec<u32>, String)> {
    let (mut world, mut bodies) = pile(7);
    let mut churn = churn_seed.map(ChaCha8Rng::seed_from_u64);
    let mut out = Vec::new();
    for step in 0..steps {
        if let Some(rng) = churn.as_mut()
            && step % 20 == 10
        {
            for _ in 0..5 {
                let i = rng.random_range(0..bodies.len());
                world.destroy_body(bodies.swap_remove(i)).unwrap();
            }
            for k in 0..5 {
                let body = add_random_body(&mut world, rng, Vec2::new(-5.0 + 2.5 * k as f32, 16.0));
                bodies.push(body);
            }
        }
        world.step(DT, SUBSTEPS).unwrap();
        out.push(snapshot(&world, &bodies));
    }
    out
}

fn assert_same(a: &[(Vec<u32>, String)], b: &[(Vec<u32>, String)]) {
    assert_eq!(a.len(), b.len());
    for (step, (x, y)) in a.iter().zip(b).enumerate() {
        assert!(x.0 == y.0, "bodies differ at step {step}");
        assert!(x.1 == y.1, "events differ at step {step}:\n{}\n{}", x.1, y.1);
    }
}

#[test]
fn the_same_pile_steps_bit_identically() {
    let (a, b) = (history(300, None), history(300, None));
    assert_same(&a, &b);
    // The pile did something worth comparing: bodies moved, touches began, some ended.
    let events: String = a.iter().map(|s| s.1.as_str()).collect();
    assert!(events.matches("ContactBeginEvent").count() > 200);
    assert!(events.matches("ContactEndEvent").count() > 10);
    assert!(events.matches("ContactHitEvent").count() > 50);
    assert!(events.matches("SensorBeginEvent").count() > 0);
    assert_ne!(a[0].0, a[299].0);
}

#[test]
fn churn_of_destroyed_and_new_bodies_steps_bit_identically() {
    let (a, b) = (history(300, Some(3)), history(300, Some(3)));
    assert_same(&a, &b);
    // A different churn gives a different history: the comparison sees differences.
    let c = history(300, Some(4));
    assert!(a.iter().zip(&c).any(|(x, y)| x != y));
}

#[test]
fn a_cloned_world_goes_on_exactly_as_the_original() {
    let (mut world, bodies) = pile(11);
    run(&mut world, 100);
    let mut copy = world.clone();
    for step in 0..150 {
        world.step(DT, SUBSTEPS).unwrap();
        copy.step(DT, SUBSTEPS).unwrap();
        assert!(snapshot(&world, &bodies) == snapshot(&copy, &bodies), "step {step}");
        assert_eq!(world.state_checksum(), copy.state_checksum(), "step {step}");
    }
    // One bit of one body's velocity changes the checksum.
    let v = copy.linear_velocity(bodies[3]).unwrap();
    copy.set_linear_velocity(bodies[3], Vec2::new(f32::from_bits(v.x.to_bits() ^ 1), v.y)).unwrap();
    assert_ne!(world.state_checksum(), copy.state_checksum());
}
