//! Contact materials: conveyor belts (tangent speed), rolling resistance, and the friction and
//! restitution mixing rules.

use impact2d::{
    BodyDef, BodyId, Circle, MixingRule, Shape, ShapeDef, ShapeId, Vec2, World, WorldDef, WorldError, make_box,
};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

const DT: f32 = 1.0 / 60.0;

fn fixed_box(world: &mut World, p: Vec2, angle: f32, hw: f32, hh: f32, def: &ShapeDef) -> ShapeId {
    let body = world.create_body(&BodyDef { angle, ..BodyDef::fixed(p) }).unwrap();
    world.create_shape(body, def, &Shape::Polygon(make_box(hw, hh).unwrap())).unwrap()
}

fn dynamic(world: &mut World, p: Vec2, shape: Shape, def: &ShapeDef) -> (BodyId, ShapeId) {
    let body = world.create_body(&BodyDef::dynamic(p)).unwrap();
    let s = world.create_shape(body, def, &shape).unwrap();
    (body, s)
}

#[test]
fn a_conveyor_belt_carries_a_box_at_its_speed() {
    for seed in 0..24u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let sign = if seed % 2 == 0 { 1.0 } else { -1.0 };
        let speed = sign * rng.random_range(0.5f32..6.0);
        let friction = rng.random_range(0.3f32..1.0);
        let belt_def = ShapeDef { tangent_speed: speed, friction, ..ShapeDef::default() };
        let mut world = World::new(&WorldDef::default()).unwrap();
        // The belt made before or after the box: its shape is A or B of the contact.
        let belt_first = seed % 4 < 2;
        let belt = belt_first.then(|| fixed_box(&mut world, Vec2::ZERO, 0.0, 60.0, 0.5, &belt_def));
        let half = rng.random_range(0.2f32..0.8);
        let (body, shape) = dynamic(
            &mut world,
            Vec2::new(0.0, 0.5 + half),
            Shape::Polygon(make_box(half, half).unwrap()),
            &ShapeDef::default(),
        );
        let belt = belt.unwrap_or_else(|| fixed_box(&mut world, Vec2::ZERO, 0.0, 60.0, 0.5, &belt_def));
        assert_eq!(belt < shape, belt_first);
        assert_eq!(world.shape_tangent_speed(belt).unwrap(), speed);
        for _ in 0..240 {
            world.step(DT, 4).unwrap();
        }
        let v = world.linear_velocity(body).unwrap();
        assert!((v.x - speed).abs() <= 0.02 * speed.abs(), "seed {seed}: {v} on a belt at {speed} m/s");
        assert!(v.y.abs() < 0.02 && world.angular_velocity(body).unwrap().abs() < 0.05, "seed {seed}: {v}");
        assert!(world.is_awake(body).unwrap());
        // Stopping the belt stops the box.
        world.set_shape_tangent_speed(belt, 0.0).unwrap();
        for _ in 0..120 {
            world.step(DT, 4).unwrap();
        }
        assert!(world.linear_velocity(body).unwrap().length() < 0.01, "seed {seed}");
    }
}

#[test]
fn a_turned_belt_drives_along_its_surface() {
    // A belt turned by 90°: its top face looks toward -x; clockwise along it (its local +x)
    // is +y (up).
    // A box pressed against it by gravity along +x is carried up the face.
    let mut world = World::new(&WorldDef { gravity: Vec2::new(10.0, 0.0), ..WorldDef::default() }).unwrap();
    let def = ShapeDef { tangent_speed: 2.0, ..ShapeDef::default() };
    fixed_box(&mut world, Vec2::new(0.0, 0.0), std::f32::consts::FRAC_PI_2, 60.0, 0.5, &def);
    let (body, _) =
        dynamic(&mut world, Vec2::new(-0.9, 0.0), Shape::Polygon(make_box(0.4, 0.4).unwrap()), &ShapeDef::default());
    for _ in 0..180 {
        world.step(DT, 4).unwrap();
    }
    let v = world.linear_velocity(body).unwrap();
    assert!((v.y - 2.0).abs() < 0.04 && v.x.abs() < 0.02, "{v}");
}

#[test]
fn tangent_speed_and_rolling_resistance_are_checked() {
    let mut world = World::new(&WorldDef::default()).unwrap();
    let body = world.create_body(&BodyDef::dynamic(Vec2::ZERO)).unwrap();
    let shape = Shape::Circle(Circle::new(Vec2::ZERO, 0.5).unwrap());
    for def in [
        ShapeDef { tangent_speed: f32::NAN, ..ShapeDef::default() },
        ShapeDef { tangent_speed: 2e6, ..ShapeDef::default() },
        ShapeDef { rolling_resistance: -0.1, ..ShapeDef::default() },
        ShapeDef { rolling_resistance: f32::INFINITY, ..ShapeDef::default() },
    ] {
        assert!(matches!(world.create_shape(body, &def, &shape), Err(WorldError::InvalidValue { .. })), "{def:?}");
    }
    let s = world.create_shape(body, &ShapeDef::default(), &shape).unwrap();
    assert!(world.set_shape_rolling_resistance(s, f32::NAN).is_err());
    assert!(world.set_shape_tangent_speed(s, f32::INFINITY).is_err());
    world.set_shape_rolling_resistance(s, 0.3).unwrap();
    assert_eq!(world.shape_rolling_resistance(s).unwrap(), 0.3);
}

/// A ball rolling on the ground, the resistance on the ball or (`on_ground`) on the ground
/// (a contact takes the larger of its shapes'): (final speed, whether it ever rolled
/// backward).
fn roll(resistance: f32, radius: f32, speed: f32, on_ground: bool, seconds: f32) -> (f32, bool) {
    let mut world = World::new(&WorldDef::default()).unwrap();
    let (ground_rr, ball_rr) = if on_ground { (resistance, 0.0) } else { (0.0, resistance) };
    fixed_box(
        &mut world,
        Vec2::ZERO,
        0.0,
        200.0,
        0.5,
        &ShapeDef { rolling_resistance: ground_rr, ..ShapeDef::default() },
    );
    let shape = Shape::Circle(Circle::new(Vec2::ZERO, radius).unwrap());
    let def = ShapeDef { rolling_resistance: ball_rr, ..ShapeDef::default() };
    let (body, _) = dynamic(&mut world, Vec2::new(-150.0, 0.5 + radius), shape, &def);
    world.set_linear_velocity(body, Vec2::new(speed, 0.0)).unwrap();
    world.set_angular_velocity(body, -speed / radius).unwrap();
    let mut backward = false;
    for _ in 0..(seconds / DT) as usize {
        world.step(DT, 4).unwrap();
        // The step it stops in may leave a few mm/s backward (friction and the rolling row
        // settle over a step); more than 1 cm/s would be rolling back.
        backward |= world.linear_velocity(body).unwrap().x < -0.01;
    }
    (world.linear_velocity(body).unwrap().length(), backward)
}

#[test]
fn rolling_resistance_stops_a_rolling_ball() {
    for seed in 0..16u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(50 + seed);
        let (resistance, radius, speed) =
            (rng.random_range(0.2f32..0.5), rng.random_range(0.2f32..1.0), rng.random_range(2.0f32..6.0));
        let on_ground = seed % 4 == 3;
        // Deceleration of a rolling disk: resistance · g / 1.5.
        let stop = speed / (resistance * 10.0 / 1.5);
        let (v, backward) = roll(resistance, radius, speed, on_ground, stop + 2.0);
        assert!(v < 0.02 && !backward, "seed {seed}: still rolling at {v} m/s (backward: {backward})");
        let (free, _) = roll(0.0, radius, speed, on_ground, stop + 2.0);
        assert!(free > 0.95 * speed, "seed {seed}: without resistance it rolls on: {free} of {speed}");
        // It slows as predicted, halfway.
        let (half, _) = roll(resistance, radius, speed, on_ground, 0.5 * stop);
        assert!((half - 0.5 * speed).abs() < 0.1 * speed, "seed {seed}: {half} m/s at half time, {speed} at start");
    }
}

fn rules() -> [MixingRule; 5] {
    [MixingRule::Average, MixingRule::GeometricMean, MixingRule::Multiply, MixingRule::Min, MixingRule::Max]
}

fn expected(rule: MixingRule, a: f32, b: f32) -> f32 {
    match rule {
        MixingRule::Average => 0.5 * (a + b),
        MixingRule::GeometricMean => (a * b).sqrt(),
        MixingRule::Multiply => a * b,
        MixingRule::Min => a.min(b),
        MixingRule::Max => a.max(b),
    }
}

#[test]
fn mixing_rules_give_the_contacts_friction_and_restitution() {
    let defaults = WorldDef::default();
    assert_eq!((defaults.friction_mixing, defaults.restitution_mixing), (MixingRule::GeometricMean, MixingRule::Max));
    let mut rng = ChaCha8Rng::seed_from_u64(77);
    for case in 0..50 {
        let (fa, fb) = (rng.random_range(0.0f32..2.0), rng.random_range(0.0f32..2.0));
        let (ea, eb) = (rng.random_range(0.0f32..1.0), rng.random_range(0.0f32..1.0));
        for (fr, er) in rules().into_iter().zip(rules().into_iter().rev()) {
            let def = WorldDef { friction_mixing: fr, restitution_mixing: er, ..WorldDef::default() };
            let mut world = World::new(&def).unwrap();
            fixed_box(
                &mut world,
                Vec2::ZERO,
                0.0,
                5.0,
                0.5,
                &ShapeDef { friction: fa, restitution: ea, ..ShapeDef::default() },
            );
            let (body, _) = dynamic(
                &mut world,
                Vec2::new(0.0, 1.0),
                Shape::Polygon(make_box(0.5, 0.5).unwrap()),
                &ShapeDef { friction: fb, restitution: eb, ..ShapeDef::default() },
            );
            world.step(DT, 4).unwrap();
            let c = world.body_contacts(body).unwrap()[0];
            assert_eq!(c.friction.to_bits(), expected(fr, fa, fb).to_bits(), "case {case} {fr:?}");
            assert_eq!(c.restitution.to_bits(), expected(er, ea, eb).to_bits(), "case {case} {er:?}");
            // Changing the rules remixes the contacts at once.
            world.set_mixing_rules(er, fr);
            let c = world.body_contacts(body).unwrap()[0];
            assert_eq!(c.friction.to_bits(), expected(er, fa, fb).to_bits(), "case {case} {er:?}");
            assert_eq!(c.restitution.to_bits(), expected(fr, ea, eb).to_bits(), "case {case} {fr:?}");
        }
    }
}

#[test]
fn mixing_rules_change_how_things_move() {
    // A bouncy ball (e = 0.8) dropped on a dead floor (e = 0): it bounces with max, not with min
    // or multiply; its rebound with average is about half of max's.
    let bounce = |rule: MixingRule| {
        let mut world = World::new(&WorldDef { restitution_mixing: rule, ..WorldDef::default() }).unwrap();
        fixed_box(&mut world, Vec2::ZERO, 0.0, 5.0, 0.5, &ShapeDef::default());
        let def = ShapeDef { restitution: 0.8, ..ShapeDef::default() };
        let (body, _) =
            dynamic(&mut world, Vec2::new(0.0, 5.0), Shape::Circle(Circle::new(Vec2::ZERO, 0.25).unwrap()), &def);
        let mut up = 0.0f32;
        for _ in 0..120 {
            world.step(DT, 4).unwrap();
            up = up.max(world.linear_velocity(body).unwrap().y);
        }
        up
    };
    let (max, average, min, multiply) =
        (bounce(MixingRule::Max), bounce(MixingRule::Average), bounce(MixingRule::Min), bounce(MixingRule::Multiply));
    assert!(max > 6.0 && min < 0.5 && multiply < 0.5, "{max} {min} {multiply}");
    assert!((average / max - 0.5).abs() < 0.1, "{average} {max}");
    // Friction: a box sliding on a frictionless floor with friction 1 slides on with the
    // geometric mean, min and multiply, and stops with max and average.
    let slide = |rule: MixingRule| {
        let mut world = World::new(&WorldDef { friction_mixing: rule, ..WorldDef::default() }).unwrap();
        fixed_box(&mut world, Vec2::ZERO, 0.0, 50.0, 0.5, &ShapeDef { friction: 0.0, ..ShapeDef::default() });
        let def = ShapeDef { friction: 1.0, ..ShapeDef::default() };
        let (body, _) = dynamic(&mut world, Vec2::new(-40.0, 1.0), Shape::Polygon(make_box(0.5, 0.5).unwrap()), &def);
        world.set_linear_velocity(body, Vec2::new(5.0, 0.0)).unwrap();
        for _ in 0..120 {
            world.step(DT, 4).unwrap();
        }
        world.linear_velocity(body).unwrap().x
    };
    for rule in [MixingRule::GeometricMean, MixingRule::Min, MixingRule::Multiply] {
        assert!((slide(rule) - 5.0).abs() < 1e-3, "{rule:?}");
    }
    for rule in [MixingRule::Max, MixingRule::Average] {
        assert!(slide(rule).abs() < 1e-3, "{rule:?}");
    }
}
