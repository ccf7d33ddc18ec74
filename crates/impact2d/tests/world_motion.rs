//! Motion without loss: a bouncing ball that keeps its speed, a fast circle sliding along a
//! chain without catching; body types and mass properties.

mod world_common;

use impact2d::*;
use world_common::*;

#[test]
fn restitution_one_ball_in_a_closed_box_keeps_its_speed_for_20_seconds() {
    let mut world = world_without_gravity();
    let walls = world.create_body(&BodyDef::fixed(Vec2::ZERO)).unwrap();
    let wall_def = ShapeDef { friction: 0.0, restitution: 1.0, ..ShapeDef::default() };
    for (center, hx, hy) in [
        (Vec2::new(0.0, -5.5), 6.0, 0.5),
        (Vec2::new(0.0, 5.5), 6.0, 0.5),
        (Vec2::new(-5.5, 0.0), 0.5, 6.0),
        (Vec2::new(5.5, 0.0), 0.5, 6.0),
    ] {
        let poly = make_offset_box(hx, hy, center, 0.0).unwrap();
        world.create_shape(walls, &wall_def, &Shape::Polygon(poly)).unwrap();
    }
    let ball =
        world.create_body(&BodyDef { linear_velocity: Vec2::new(7.0, 5.0), ..BodyDef::dynamic(Vec2::ZERO) }).unwrap();
    world
        .create_shape(ball, &ShapeDef { friction: 0.0, restitution: 1.0, ..ShapeDef::default() }, &circle(0.25))
        .unwrap();
    let speed0 = Vec2::new(7.0, 5.0).length();
    let (mut lo, mut hi, mut bounces) = (speed0, speed0, 0);
    let mut last = Vec2::new(7.0, 5.0);
    for _ in 0..1200 {
        world.step(DT, SUBSTEPS).unwrap();
        let v = world.linear_velocity(ball).unwrap();
        let speed = v.length();
        lo = lo.min(speed);
        hi = hi.max(speed);
        // A bounce flips a velocity component (whether the solver or continuous collision
        // resolved it).
        bounces += usize::from(v.x * last.x < 0.0) + usize::from(v.y * last.y < 0.0);
        last = v;
        let p = world.position(ball).unwrap();
        assert!(p.x.abs() < 5.0 && p.y.abs() < 5.0, "escaped to {p}");
    }
    println!(
        "speed {speed0} m/s: min {lo}, max {hi} ({:.4} % / {:.4} %), {bounces} bounces",
        100.0 * (lo / speed0 - 1.0),
        100.0 * (hi / speed0 - 1.0)
    );
    // 20 s at 7 and 5 m/s across 9.5 m: about 14 + 10 bounces.
    assert!(bounces >= 23, "only {bounces} bounces");
    assert!(lo > 0.99 * speed0 && hi < 1.01 * speed0, "speed left [{lo}, {hi}]");
}

/// A circle of radius 0.25 sliding along a flat chain of 80 two-meter segments at 100 m/s:
/// returns the lowest and highest speed and the highest the ball got off the chain.
fn slide(friction: f32, spin: bool) -> (f32, f32, f32) {
    let mut world = world();
    let ground = world.create_body(&BodyDef::fixed(Vec2::ZERO)).unwrap();
    // Walking right to left, the right side of each segment is up.
    let points: Vec<Vec2> = (0..=80).rev().map(|i| Vec2::new(-80.0 + 2.0 * i as f32, 0.0)).collect();
    let def = ShapeDef { friction, ..ShapeDef::default() };
    let segments = world.create_chain(ground, &def, &points, false).unwrap();
    assert_eq!(segments.len(), 80);
    let r = 0.25;
    let v = Vec2::new(100.0, 0.0);
    let w = if spin { -v.x / r } else { 0.0 };
    let ball = world
        .create_body(&BodyDef { linear_velocity: v, angular_velocity: w, ..BodyDef::dynamic(Vec2::new(-78.0, r)) })
        .unwrap();
    world.create_shape(ball, &def, &circle(r)).unwrap();
    let (mut lo, mut hi, mut top) = (f32::MAX, 0.0f32, 0.0f32);
    let mut steps = 0;
    while world.position(ball).unwrap().x < 76.0 {
        world.step(DT, SUBSTEPS).unwrap();
        steps += 1;
        let speed = world.linear_velocity(ball).unwrap().x;
        lo = lo.min(speed);
        hi = hi.max(speed);
        top = top.max(world.position(ball).unwrap().y - r);
        assert!(steps < 200, "the ball stopped at {}", world.position(ball).unwrap());
    }
    (lo, hi, top)
}

#[test]
fn fast_circle_slides_along_a_chain_without_catching() {
    for (friction, spin) in [(0.0, false), (0.6, true)] {
        let (lo, hi, top) = slide(friction, spin);
        println!("friction {friction}, rolling {spin}: speed in [{lo}, {hi}] m/s, highest {top} m above the chain");
        assert!(lo > 99.0 && hi < 101.0, "speed left [{lo}, {hi}]");
        assert!(top < 0.01, "hopped {top} m off the chain");
    }
}

#[test]
fn static_bodies_never_move_and_kinematic_bodies_follow_their_velocity() {
    let mut world = world();
    let ground = ground(&mut world);
    let platform = world
        .create_body(&BodyDef {
            linear_velocity: Vec2::new(1.0, 0.0),
            angular_velocity: 0.0,
            ..BodyDef::kinematic(Vec2::new(0.0, 2.0))
        })
        .unwrap();
    world.create_shape(platform, &ShapeDef::default(), &boxed(2.0, 0.25)).unwrap();
    let spinner =
        world.create_body(&BodyDef { angular_velocity: 1.0, ..BodyDef::kinematic(Vec2::new(10.0, 5.0)) }).unwrap();
    world.create_shape(spinner, &ShapeDef::default(), &boxed(1.0, 0.1)).unwrap();
    // A box riding on the platform is pushed along by friction.
    let rider = dynamic(&mut world, Vec2::new(0.0, 2.75), &boxed(0.5, 0.5), &ShapeDef::default());
    run(&mut world, 120);
    assert_eq!(world.position(ground).unwrap(), Vec2::new(0.0, -1.0));
    assert_eq!(world.angle(ground).unwrap(), 0.0);
    let p = world.position(platform).unwrap();
    println!("platform at {p}, rider at {}", world.position(rider).unwrap());
    assert!((p - Vec2::new(2.0, 2.0)).length() < 1e-4, "platform at {p}");
    assert!((world.angle(spinner).unwrap() - 2.0).abs() < 1e-4);
    assert_eq!(world.linear_velocity(platform).unwrap(), Vec2::new(1.0, 0.0));
    // Kinematic bodies have no mass and are not pushed back.
    assert_eq!(world.mass(platform).unwrap(), 0.0);
    let rider_v = world.linear_velocity(rider).unwrap();
    assert!((rider_v.x - 1.0).abs() < 1e-3 && rider_v.y.abs() < 1e-3, "rider at {rider_v}");
    // Friction (μ g = 6 m/s²) brings the rider up to speed in 1/6 s, over which it lags
    // v² / (2 μ g) = 1/12 m behind the platform.
    let lag = 2.0 - world.position(rider).unwrap().x;
    assert!((lag - 1.0 / 12.0).abs() < 0.01, "lag {lag}");
}

#[test]
fn kinematic_body_pushes_dynamic_bodies() {
    let mut world = world();
    ground(&mut world);
    let pusher = world
        .create_body(&BodyDef { linear_velocity: Vec2::new(2.0, 0.0), ..BodyDef::kinematic(Vec2::new(-3.0, 1.0)) })
        .unwrap();
    world.create_shape(pusher, &ShapeDef::default(), &boxed(0.5, 1.0)).unwrap();
    let b = dynamic(&mut world, Vec2::new(0.0, 0.5), &boxed(0.5, 0.5), &ShapeDef::default());
    run(&mut world, 180);
    let (pp, bp) = (world.position(pusher).unwrap(), world.position(b).unwrap());
    println!("pusher at {pp}, box at {bp}");
    // After 3 s the pusher is at x = 3 and the box in front of it, moving at its speed.
    assert!((pp.x - 3.0).abs() < 1e-4);
    assert!((bp.x - (pp.x + 1.0)).abs() < 0.02, "box at {bp}, pusher at {pp}");
    assert!((world.linear_velocity(b).unwrap().x - 2.0).abs() < 0.05);
}

#[test]
fn mass_properties_come_from_the_shapes() {
    let mut world = world();
    let b = world.create_body(&BodyDef::dynamic(Vec2::new(1.0, 2.0))).unwrap();
    // No shape: 1 kg, no rotation.
    assert_eq!(world.mass(b).unwrap(), 1.0);
    assert_eq!(world.rotational_inertia(b).unwrap(), 0.0);
    // A 2 × 1 box of density 3 centered at (1, 0), and a circle of radius 0.5, density 2, at
    // (-1, 0).
    let boxy = make_offset_box(1.0, 0.5, Vec2::new(1.0, 0.0), 0.0).unwrap();
    world.create_shape(b, &ShapeDef { density: 3.0, ..ShapeDef::default() }, &Shape::Polygon(boxy)).unwrap();
    let disc = Circle::new(Vec2::new(-1.0, 0.0), 0.5).unwrap();
    world.create_shape(b, &ShapeDef { density: 2.0, ..ShapeDef::default() }, &Shape::Circle(disc)).unwrap();
    let (m_box, m_disc) = (6.0f32, 2.0 * std::f32::consts::PI * 0.25);
    let mass = m_box + m_disc;
    let cx = (m_box - m_disc) / mass;
    let i_box = m_box * (4.0 + 1.0) / 12.0 + m_box * (1.0 - cx) * (1.0 - cx);
    let i_disc = 0.5 * m_disc * 0.25 + m_disc * (1.0 + cx) * (1.0 + cx);
    assert!((world.mass(b).unwrap() - mass).abs() < 1e-5);
    assert!((world.local_center(b).unwrap() - Vec2::new(cx, 0.0)).length() < 1e-5);
    assert!((world.world_center(b).unwrap() - Vec2::new(1.0 + cx, 2.0)).length() < 1e-5);
    assert!((world.rotational_inertia(b).unwrap() - (i_box + i_disc)).abs() < 1e-4);
    // Sensors and zero density add no mass; fixed rotation removes rotation.
    let f = world.create_body(&BodyDef { fixed_rotation: true, ..BodyDef::dynamic(Vec2::ZERO) }).unwrap();
    world.create_shape(f, &ShapeDef::default(), &boxed(0.5, 0.5)).unwrap();
    world.create_shape(f, &ShapeDef { density: 0.0, ..ShapeDef::default() }, &boxed(5.0, 5.0)).unwrap();
    assert_eq!(world.mass(f).unwrap(), 1.0);
    world.apply_angular_impulse(f, 10.0).unwrap();
    assert_eq!(world.angular_velocity(f).unwrap(), 0.0);
    // Destroying a shape updates the mass.
    let shapes = world.body_shapes(b).unwrap();
    world.destroy_shape(shapes[0]).unwrap(); // the circle, attached last
    assert!((world.mass(b).unwrap() - m_box).abs() < 1e-5);
    assert!((world.local_center(b).unwrap() - Vec2::new(1.0, 0.0)).length() < 1e-5);
}

#[test]
fn a_spinning_body_records_its_whole_rotation_in_its_sweep() {
    let mut world = world_without_gravity();
    let b = world.create_body(&BodyDef { angular_velocity: 300.0, ..BodyDef::dynamic(Vec2::ZERO) }).unwrap();
    world.create_shape(b, &ShapeDef::default(), &boxed(1.0, 0.1)).unwrap();
    for _ in 0..10 {
        world.step(DT, SUBSTEPS).unwrap();
        let s = world.sweep(b).unwrap();
        // 300 rad/s for 1/60 s: 5 rad per step, more than π, not reduced.
        assert!((s.a2 - s.a1 - 5.0).abs() < 1e-4, "{s:?}");
        assert!((-std::f32::consts::PI..std::f32::consts::PI).contains(&s.a1));
        assert_eq!(world.angle(b).unwrap(), s.a2);
    }
}
