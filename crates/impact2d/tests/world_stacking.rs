//! Resting contact: settling height, a pyramid, a ball in a concave corner, friction on a
//! slope.

mod world_common;

use impact2d::*;
use world_common::*;

#[test]
fn dropped_box_settles_at_the_right_height_and_sleeps() {
    let mut world = world();
    ground(&mut world);
    let b = dynamic(&mut world, Vec2::new(0.0, 4.0), &boxed(0.5, 0.5), &ShapeDef::default());
    let mut slept_at = None;
    for step in 0..600 {
        world.step(DT, SUBSTEPS).unwrap();
        if !world.is_awake(b).unwrap() {
            slept_at = Some(step);
            break;
        }
    }
    let y = world.position(b).unwrap().y;
    let error = (y - 0.5).abs();
    println!("settled at y = {y} (error {error} m), asleep after {slept_at:?} steps");
    assert!(error < 0.01, "rests at {y}, want 0.5 within 1 cm");
    assert!(slept_at.is_some(), "the box never slept");
    assert!(world.angle(b).unwrap().abs() < 1e-3);
}

#[test]
fn pyramid_of_20_stands_for_10_seconds_and_sleeps() {
    let mut world = world();
    ground(&mut world);
    let bodies = pyramid(&mut world, 20);
    assert_eq!(bodies.len(), 210);
    let top = *bodies.last().unwrap();
    let start = world.position(top).unwrap();
    let (drift, worst) = drift(&mut world, top, 600);
    println!("top box moved by {}", world.position(top).unwrap() - start);
    let awake = bodies.iter().filter(|&&b| world.is_awake(b).unwrap()).count();
    println!("top box drift {drift} m (worst {worst} m), {awake} bodies awake");
    assert!(drift < 0.05, "the top box moved {drift} m");
    assert!(worst < 0.05, "the top box moved up to {worst} m");
    assert_eq!(awake, 0, "{awake} bodies still awake after 10 s");
}

/// Touching manifold points of a body, over its contacts.
fn point_count(world: &World, body: BodyId) -> usize {
    world.body_contacts(body).unwrap().iter().map(|c| c.manifold.count).sum()
}

#[test]
fn ball_in_a_concave_corner_keeps_a_steady_contact_count() {
    // Two static boxes tilted ±45° meet in a V; a ball drops into it (the jitter case of the
    // speculative contacts article: a ball in a corner must not flicker between contacts).
    let mut world = world();
    let wall = boxed(2.0, 0.25);
    let body = world.create_body(&BodyDef::fixed(Vec2::ZERO)).unwrap();
    let r = std::f32::consts::FRAC_1_SQRT_2;
    for (sign, angle) in [(-1.0f32, -std::f32::consts::FRAC_PI_4), (1.0, std::f32::consts::FRAC_PI_4)] {
        // Centers placed so that the inner faces meet at the origin.
        let center = Vec2::new(sign * 2.0 * r + sign * 0.25 * r, 2.0 * r - 0.25 * r);
        let poly = make_offset_box(2.0, 0.25, center, angle).unwrap();
        world.create_shape(body, &ShapeDef::default(), &Shape::Polygon(poly)).unwrap();
    }
    let _ = wall;
    let ball = dynamic(&mut world, Vec2::new(0.3, 3.0), &circle(0.5), &ShapeDef::default());
    world.set_sleep_enabled(false);
    run(&mut world, 120);
    let mut counts = Vec::new();
    for _ in 0..300 {
        world.step(DT, SUBSTEPS).unwrap();
        counts.push(point_count(&world, ball));
    }
    let p = world.position(ball).unwrap();
    println!("ball at {p}, point counts min {} max {}", counts.iter().min().unwrap(), counts.iter().max().unwrap());
    assert!(counts.iter().all(|&c| c == 2), "contact count flickers: {counts:?}");
    // At rest in the V: on the axis, its center √2 r above the corner.
    assert!(p.x.abs() < 1e-3 && (p.y - 0.5 * std::f32::consts::SQRT_2).abs() < 0.01, "{p}");
    assert!(world.linear_velocity(ball).unwrap().length() < 1e-3);
}

#[test]
fn ball_in_a_box_corner_keeps_a_steady_contact_count() {
    // The floor and a wall meet at a right angle; the ball is pushed into the corner.
    let mut world = world();
    ground(&mut world);
    let wall = world.create_body(&BodyDef::fixed(Vec2::new(-1.0, 2.0))).unwrap();
    world.create_shape(wall, &ShapeDef::default(), &boxed(1.0, 2.0)).unwrap();
    let ball = dynamic(&mut world, Vec2::new(0.6, 0.5), &circle(0.5), &ShapeDef::default());
    world.set_sleep_enabled(false);
    let mut counts = Vec::new();
    for step in 0..300 {
        world.apply_force_to_center(ball, Vec2::new(-5.0, 0.0)).unwrap();
        world.step(DT, SUBSTEPS).unwrap();
        if step >= 60 {
            counts.push(point_count(&world, ball));
        }
    }
    let p = world.position(ball).unwrap();
    println!("ball at {p}, counts min {} max {}", counts.iter().min().unwrap(), counts.iter().max().unwrap());
    assert!(counts.iter().all(|&c| c == 2), "contact count flickers: {counts:?}");
    assert!((p - Vec2::new(0.5, 0.5)).length() < 0.01, "{p}");
}

/// A box on a 20° slope: returns its speed along the slope after 2 seconds and how far it
/// moved.
fn slope(friction: f32) -> (f32, f32) {
    let mut world = world();
    // Awake throughout: a sleeping box would hold trivially.
    world.set_sleep_enabled(false);
    let angle = 20f32.to_radians();
    let ramp = world.create_body(&BodyDef { angle, ..BodyDef::default() }).unwrap();
    let def = ShapeDef { friction, ..ShapeDef::default() };
    world.create_shape(ramp, &def, &boxed(20.0, 0.5)).unwrap();
    // On the ramp's top face, 0.5 above it.
    let up = Vec2::new(-angle.sin(), angle.cos());
    let start = up * 1.0;
    let b = world.create_body(&BodyDef { angle, ..BodyDef::dynamic(start) }).unwrap();
    world.create_shape(b, &def, &boxed(0.5, 0.5)).unwrap();
    run(&mut world, 30); // settle
    let p0 = world.position(b).unwrap();
    run(&mut world, 120);
    let down = Vec2::new(-angle.cos(), -angle.sin());
    (world.linear_velocity(b).unwrap().dot(down), (world.position(b).unwrap() - p0).dot(down))
}

#[test]
fn friction_holds_a_box_on_a_20_degree_slope() {
    let (speed, moved) = slope(0.6);
    println!("friction 0.6: speed {speed} m/s, moved {moved} m in 2 s");
    assert!(speed.abs() < 1e-3 && moved.abs() < 5e-3, "slides: {speed} m/s, {moved} m");
}

#[test]
fn low_friction_lets_a_box_slide_down_a_20_degree_slope() {
    let (speed, moved) = slope(0.1);
    let angle = 20f32.to_radians();
    let a = 10.0 * (angle.sin() - 0.1 * angle.cos());
    // Measured from a start that already slid for half a second: v(2.5) − v(0.5) = 2 a.
    println!("friction 0.1: speed {speed} m/s, moved {moved} m in 2 s (a = {a} m/s²)");
    let expected_speed = a * 2.5;
    assert!((speed - expected_speed).abs() < 0.02 * expected_speed, "speed {speed}, want {expected_speed}");
    let expected_distance = 0.5 * a * (2.5f32 * 2.5 - 0.5 * 0.5);
    assert!((moved - expected_distance).abs() < 0.03 * expected_distance, "moved {moved}, want {expected_distance}");
}
