//! The speed caps (`WorldDef::max_linear_speed`, `WorldDef::max_angular_speed`,
//! `World::set_max_speeds`) and the per-body safety factor of continuous collision
//! (`BodyDef::safety_factor`, `World::set_body_safety_factor`): bad values are refused and
//! change nothing; the caps hold after every step, in the solver and after an impact of
//! continuous collision, over seeded values; the safety factor decides which bodies are fast.

mod world_common;

use impact2d::settings::{
    CONTINUOUS_SAFETY_FACTOR, DEFAULT_MAX_ANGULAR_SPEED, DEFAULT_MAX_LINEAR_SPEED, MAX_ANGULAR_SPEED,
    MAX_CONTINUOUS_SAFETY_FACTOR, MAX_LINEAR_SPEED,
};
use impact2d::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use world_common::*;

/// NaN, infinities, negative and zero: refused by every setting here.
const NOT_POSITIVE: [f32; 6] = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -1.0, 0.0, -0.0];

fn is_invalid<T: std::fmt::Debug>(result: Result<T, WorldError>, name: &str) -> bool {
    matches!(result, Err(WorldError::InvalidValue { what, .. }) if what == name)
}

#[test]
fn the_defaults_are_the_documented_constants() {
    let def = WorldDef::default();
    assert_eq!((def.max_linear_speed, def.max_angular_speed), (400.0, 10_000.0));
    assert_eq!((DEFAULT_MAX_LINEAR_SPEED, DEFAULT_MAX_ANGULAR_SPEED), (400.0, 10_000.0));
    assert_eq!(BodyDef::default().safety_factor, CONTINUOUS_SAFETY_FACTOR);
    assert_eq!((CONTINUOUS_SAFETY_FACTOR, MAX_CONTINUOUS_SAFETY_FACTOR), (0.5, 1.0));
    let mut world = world();
    let body = world.create_body(&BodyDef::dynamic(Vec2::ZERO)).unwrap();
    assert_eq!(world.body_safety_factor(body).unwrap(), 0.5);
}

#[test]
fn speed_caps_that_are_not_finite_and_positive_are_refused() {
    for bad in NOT_POSITIVE {
        let linear = WorldDef { max_linear_speed: bad, ..WorldDef::default() };
        assert!(is_invalid(World::new(&linear), "max linear speed"), "{bad}");
        let angular = WorldDef { max_angular_speed: bad, ..WorldDef::default() };
        assert!(is_invalid(World::new(&angular), "max angular speed"), "{bad}");

        // The setter refuses either one bad, and then changes neither.
        let mut world = world();
        assert!(is_invalid(world.set_max_speeds(bad, 50.0), "max linear speed"), "{bad}");
        assert!(is_invalid(world.set_max_speeds(50.0, bad), "max angular speed"), "{bad}");
        assert_eq!(world.def(), &WorldDef::default());
    }
    let message = World::new(&WorldDef { max_angular_speed: 0.0, ..WorldDef::default() }).unwrap_err().to_string();
    assert_eq!(message, "max angular speed must be finite, from MIN_SPEED_CAP (1e-6) to MAX_ANGULAR_SPEED (1e5 rad/s)");
    // Beyond the speed limits they are refused too: the caps are part of the input contract.
    for (linear, angular, name) in [
        (MAX_LINEAR_SPEED * (1.0 + f32::EPSILON), 50.0, "max linear speed"),
        (f32::MAX, 50.0, "max linear speed"),
        (50.0, MAX_ANGULAR_SPEED * (1.0 + f32::EPSILON), "max angular speed"),
        (50.0, f32::MAX, "max angular speed"),
        (0.999e-6, 50.0, "max linear speed"),
        (1e-30, 50.0, "max linear speed"),
        (50.0, 0.999e-6, "max angular speed"),
    ] {
        let mut world = world();
        assert!(is_invalid(world.set_max_speeds(linear, angular), name), "{linear} {angular}");
        assert_eq!(world.def(), &WorldDef::default());
        let def = WorldDef { max_linear_speed: linear, max_angular_speed: angular, ..WorldDef::default() };
        assert!(is_invalid(World::new(&def), name), "{linear} {angular}");
    }
    // Any pair within the limits is taken, as small or as large as allowed.
    let mut world = world();
    for (linear, angular) in [(1e-6, 1e-6), (MAX_LINEAR_SPEED, MAX_ANGULAR_SPEED), (1000.0, 20.0)] {
        world.set_max_speeds(linear, angular).unwrap();
        assert_eq!((world.def().max_linear_speed, world.def().max_angular_speed), (linear, angular));
        assert!(
            World::new(&WorldDef { max_linear_speed: linear, max_angular_speed: angular, ..WorldDef::default() })
                .is_ok()
        );
    }
}

#[test]
fn safety_factors_outside_zero_to_one_are_refused() {
    let too_large = [1.0 + f32::EPSILON, 1.5, 2.0, f32::MAX];
    let mut world = world();
    let body = world.create_body(&BodyDef::dynamic(Vec2::ZERO)).unwrap();
    for bad in NOT_POSITIVE.into_iter().chain(too_large) {
        let def = BodyDef { safety_factor: bad, ..BodyDef::dynamic(Vec2::ZERO) };
        assert!(is_invalid(world.create_body(&def), "body safety factor"), "{bad}");
        assert!(is_invalid(world.set_body_safety_factor(body, bad), "body safety factor"), "{bad}");
        assert_eq!(world.body_safety_factor(body).unwrap(), CONTINUOUS_SAFETY_FACTOR, "{bad} changed nothing");
    }
    assert_eq!(world.body_count(), 1, "no refused body was made");
    let message = world.set_body_safety_factor(body, 2.0).unwrap_err().to_string();
    assert_eq!(message, "body safety factor must be above 0 and at most MAX_CONTINUOUS_SAFETY_FACTOR (1)");
    // The whole range is taken, for every kind of body.
    for (i, factor) in [1e-6, 0.25, 1.0].into_iter().enumerate() {
        let kind = [BodyDef::dynamic(Vec2::ZERO), BodyDef::kinematic(Vec2::ZERO), BodyDef::fixed(Vec2::ZERO)][i];
        let made = world.create_body(&BodyDef { safety_factor: factor, ..kind }).unwrap();
        assert_eq!(world.body_safety_factor(made).unwrap(), factor);
        world.set_body_safety_factor(body, factor).unwrap();
        assert_eq!(world.body_safety_factor(body).unwrap(), factor);
    }
    // Stale handles, as every body accessor.
    world.destroy_body(body).unwrap();
    assert!(matches!(world.body_safety_factor(body), Err(WorldError::StaleHandle { kind: "body", .. })));
    assert!(matches!(world.set_body_safety_factor(body, 0.5), Err(WorldError::StaleHandle { kind: "body", .. })));
}

/// One way to make a body turn fast: (name, how).
type Spin = (&'static str, fn(&mut World, BodyId, f32));

/// A dynamic body given a huge angular velocity, angular impulse, torque or off-center impulse
/// turns at most at the cap in the next step and leaves it at the cap with its sign; the same
/// for the linear cap with impulses, the direction kept. Over seeded caps, sizes and pushes,
/// most of them far beyond the caps.
#[test]
fn the_caps_bound_every_dynamic_body_after_a_step() {
    let spins: [Spin; 4] = [
        ("set_angular_velocity", |w, b, x| {
            w.set_angular_velocity(b, x.clamp(-MAX_ANGULAR_SPEED, MAX_ANGULAR_SPEED)).unwrap()
        }),
        ("apply_angular_impulse", |w, b, x| w.apply_angular_impulse(b, x).unwrap()),
        ("apply_torque", |w, b, x| w.apply_torque(b, x * 60.0).unwrap()),
        ("apply_linear_impulse (off center)", |w, b, x| {
            let c = w.world_center(b).unwrap();
            w.apply_linear_impulse(b, Vec2::new(0.0, x), c + Vec2::new(1.0, 0.0)).unwrap()
        }),
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    let mut capped = (0, 0);
    for case in 0..200 {
        let (max_linear, max_angular) = (rng.random_range(1.0..2000.0), rng.random_range(0.5..20_000.0));
        let def = WorldDef {
            gravity: Vec2::ZERO,
            max_linear_speed: max_linear,
            max_angular_speed: max_angular,
            ..WorldDef::default()
        };
        let mut world = World::new(&def).unwrap();
        let (hx, hy) = (rng.random_range(0.01..2.0), rng.random_range(0.01..2.0));
        let body = dynamic(&mut world, Vec2::ZERO, &boxed(hx, hy), &ShapeDef::default());
        let (name, spin) = spins[case % spins.len()];
        let sign = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
        // From a third of the cap's worth to 10⁶ times it, per unit inertia; at most 10⁷ N·m·s,
        // so an off-center impulse stays within the 10⁹ a world vector may be.
        let inertia = world.rotational_inertia(body).unwrap().max(world.mass(body).unwrap());
        let push = sign * (inertia * max_angular * 10f32.powf(rng.random_range(-0.5..6.0))).min(1e7);
        spin(&mut world, body, push);
        let direction = Vec2::from_angle(rng.random_range(0.0..std::f32::consts::TAU));
        let speed = max_linear * 10f32.powf(rng.random_range(-0.5..4.0));
        world.apply_linear_impulse_to_center(body, world.mass(body).unwrap() * speed * direction).unwrap();
        let (before, v_before) = (world.angular_velocity(body).unwrap(), world.linear_velocity(body).unwrap());
        world.step(DT, SUBSTEPS).unwrap();

        let (w, v, s) =
            (world.angular_velocity(body).unwrap(), world.linear_velocity(body).unwrap(), world.sweep(body).unwrap());
        let what = format!("case {case} ({name}): caps {max_linear} m/s, {max_angular} rad/s");
        assert!(w.abs() <= max_angular, "{what}: turns at {w} rad/s");
        assert!((s.a2 - s.a1).abs() <= max_angular * DT * (1.0 + 1e-5), "{what}: turned {} rad", s.a2 - s.a1);
        assert!(w == 0.0 || w.signum() == sign, "{what}: the turn keeps its sense ({w})");
        capped.0 += usize::from(w.abs() == max_angular);
        capped.1 += usize::from(v_before.length() > max_linear);
        if before.abs() > max_angular {
            assert_eq!(w.abs(), max_angular, "{what}: slowed to the cap, not below");
        }
        assert!(v.length() <= max_linear * (1.0 + 1e-5), "{what}: moves at {} m/s", v.length());
        assert!((s.c2 - s.c1).length() <= max_linear * DT * (1.0 + 1e-5), "{what}");
        assert!(v.normalize().dot(v_before.normalize()) > 0.9999, "{what}: the direction is kept ({v_before} -> {v})");
        if v_before.length() > max_linear {
            assert!((v.length() / max_linear - 1.0).abs() < 1e-5, "{what}: slowed to the cap, not below");
        }
    }
    assert!(capped.0 >= 150 && capped.1 >= 150, "cases at the angular and the linear cap: {capped:?}");
}

/// Kinematic bodies move as they are told: the caps are for dynamic bodies.
#[test]
fn kinematic_bodies_are_not_capped() {
    let mut world =
        World::new(&WorldDef { max_linear_speed: 10.0, max_angular_speed: 1.0, ..WorldDef::default() }).unwrap();
    let rotor = world.create_body(&BodyDef::kinematic(Vec2::ZERO)).unwrap();
    world.create_shape(rotor, &ShapeDef::default(), &boxed(1.0, 0.1)).unwrap();
    world.set_linear_velocity(rotor, Vec2::new(50.0, 0.0)).unwrap();
    world.set_angular_velocity(rotor, 30.0).unwrap();
    world.step(DT, SUBSTEPS).unwrap();
    assert_eq!(
        (world.linear_velocity(rotor).unwrap(), world.angular_velocity(rotor).unwrap()),
        (Vec2::new(50.0, 0.0), 30.0)
    );
}

/// A raised cap lets a body fly faster than the default; set_max_speeds acts from the next step.
#[test]
fn set_max_speeds_acts_at_the_next_step() {
    let mut world = world_without_gravity();
    let ball = world
        .create_body(&BodyDef {
            linear_velocity: Vec2::new(600.0, 0.0),
            angular_velocity: 20_000.0,
            ..BodyDef::dynamic(Vec2::ZERO)
        })
        .unwrap();
    world.create_shape(ball, &ShapeDef::default(), &circle(0.02)).unwrap();
    world.step(DT, SUBSTEPS).unwrap();
    assert_eq!(world.linear_velocity(ball).unwrap(), Vec2::new(DEFAULT_MAX_LINEAR_SPEED, 0.0));
    assert_eq!(world.angular_velocity(ball).unwrap(), DEFAULT_MAX_ANGULAR_SPEED);
    world.set_max_speeds(1000.0, 30_000.0).unwrap();
    world.set_linear_velocity(ball, Vec2::new(600.0, 0.0)).unwrap();
    world.set_angular_velocity(ball, 20_000.0).unwrap();
    world.step(DT, SUBSTEPS).unwrap();
    assert_eq!(
        (world.linear_velocity(ball).unwrap(), world.angular_velocity(ball).unwrap()),
        (Vec2::new(600.0, 0.0), 20_000.0)
    );
    // Lowered, it slows the body at the next step, not before.
    world.set_max_speeds(100.0, 50.0).unwrap();
    assert_eq!(world.linear_velocity(ball).unwrap(), Vec2::new(600.0, 0.0));
    world.step(DT, SUBSTEPS).unwrap();
    assert_eq!(
        (world.linear_velocity(ball).unwrap(), world.angular_velocity(ball).unwrap()),
        (Vec2::new(100.0, 0.0), 50.0)
    );
}

/// The impulse solve of continuous collision can speed a body up (restitution above 1): the
/// velocities it leaves are capped too. A box at 300 m/s, turned so a corner hits first,
/// bounces off a 1 cm wall with restitution 3 (900 m/s and a fast spin uncapped) in worlds
/// capped at 400 m/s and at a few rad/s; after the step of the impact (whose velocities
/// continuous collision wrote last) both caps hold and the body has not gone through.
#[test]
fn the_caps_hold_after_an_impact_of_continuous_collision() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut met = 0;
    for case in 0..40 {
        let max_angular = rng.random_range(1.0..20.0);
        let def = WorldDef { gravity: Vec2::ZERO, max_angular_speed: max_angular, ..WorldDef::default() };
        let mut world = World::new(&def).unwrap();
        let wall = world.create_body(&BodyDef::fixed(Vec2::new(5.0, 0.0))).unwrap();
        world.create_shape(wall, &ShapeDef { restitution: 3.0, ..ShapeDef::default() }, &boxed(0.005, 5.0)).unwrap();
        let angle = rng.random_range(0.2..0.6);
        let speed = rng.random_range(250.0..350.0);
        let def = BodyDef { angle, linear_velocity: Vec2::new(speed, 0.0), ..BodyDef::dynamic(Vec2::ZERO) };
        let body = world.create_body(&def).unwrap();
        world.create_shape(body, &ShapeDef::default(), &boxed(0.1, 0.1)).unwrap();
        let mut impacts = 0;
        for step in 0..8 {
            world.step(DT, SUBSTEPS).unwrap();
            impacts += world.continuous_stats().impacts;
            let (v, w) = (world.linear_velocity(body).unwrap(), world.angular_velocity(body).unwrap());
            let what = format!("case {case}, step {step}: {speed} m/s at {angle} rad, cap {max_angular} rad/s");
            assert!(v.length() <= DEFAULT_MAX_LINEAR_SPEED * (1.0 + 1e-5), "{what}: {} m/s", v.length());
            assert!(w.abs() <= max_angular, "{what}: {w} rad/s");
            assert!(world.world_center(body).unwrap().x < 5.0, "{what}: through the wall");
        }
        // A box that ends a step within the speculative distance of the wall bounces off it
        // in the contact solver instead: most cases go through continuous collision.
        met += u32::from(impacts >= 1);
    }
    assert!(met >= 35, "continuous collision met the wall in {met} cases of 40");
}

/// A body moving 0.3 times its smallest extent in a step is fast with a safety factor of 0.25
/// and not with 0.5 (the default), whether it translates or turns; over seeded sizes and
/// speeds of boxes and circles. The setter changes it from the next step.
#[test]
fn the_safety_factor_decides_which_bodies_are_fast() {
    let mut rng = ChaCha8Rng::seed_from_u64(23);
    for case in 0..100 {
        let mut world = world_without_gravity();
        let (hx, hy) = (rng.random_range(0.02..2.0), rng.random_range(0.02..2.0));
        let (shape, min_extent, max_extent) =
            if case % 2 == 0 { (boxed(hx, hy), hx.min(hy), hx.hypot(hy)) } else { (circle(hx), hx, hx) };
        // Turning only boxes, every fourth case: a turn counts as its angle times the largest extent.
        let turning = case % 4 == 0;
        let motion = 0.3 * min_extent;
        let direction = Vec2::from_angle(rng.random_range(0.0..std::f32::consts::TAU));
        let (v, w) = if turning { (Vec2::ZERO, motion / max_extent / DT) } else { (motion / DT * direction, 0.0) };
        let mut bodies = Vec::new();
        for (k, factor) in [Some(0.25), Some(0.5), None].into_iter().enumerate() {
            let mut def = BodyDef {
                linear_velocity: v,
                angular_velocity: w,
                ..BodyDef::dynamic(Vec2::new(10.0 * k as f32, 0.0))
            };
            if let Some(factor) = factor {
                def.safety_factor = factor;
            }
            let body = world.create_body(&def).unwrap();
            world.create_shape(body, &ShapeDef::default(), &shape).unwrap();
            bodies.push(body);
        }
        world.step(DT, SUBSTEPS).unwrap();
        let what = format!(
            "case {case}: {} extent {min_extent}, moving {motion} per step",
            if turning { "turning" } else { "moving" }
        );
        let fast: Vec<bool> = bodies.iter().map(|&b| world.is_fast(b).unwrap()).collect();
        assert_eq!(fast, [true, false, false], "{what}");
        // Swapped by the setter, they swap at the next step.
        world.set_body_safety_factor(bodies[0], 0.5).unwrap();
        world.set_body_safety_factor(bodies[1], 0.25).unwrap();
        world.step(DT, SUBSTEPS).unwrap();
        let fast: Vec<bool> = bodies.iter().map(|&b| world.is_fast(b).unwrap()).collect();
        assert_eq!(fast, [false, true, false], "{what}, swapped");
    }
}

/// The limits of the input contract are the documented values (`world_contract.rs` writes them
/// as numbers, as a user reads them).
#[test]
fn the_input_limits_are_the_documented_values() {
    use impact2d::settings::*;
    assert_eq!((MAX_TIME_STEP, MAX_LINEAR_SPEED, MAX_ANGULAR_SPEED, MIN_SPEED_CAP), (1.0, 1.0e6, 1.0e5, 1.0e-6));
    assert_eq!((MAX_FRICTION, MAX_RESTITUTION, MAX_DENSITY, MAX_BODY_MASS), (1000.0, 10.0, 1.0e9, 1.0e18));
    assert_eq!((MAX_GRAVITY_SCALE, MAX_GRAVITY, MAX_DAMPING, MAX_CONTACT_DAMPING_RATIO), (1000.0, 1.0e6, 1.0e6, 1.0e6));
    assert_eq!((MAX_FORCE, MAX_IMPULSE, MAX_TORQUE, MAX_ANGULAR_IMPULSE), (1.0e20, 1.0e20, 1.0e30, 1.0e30));
    // The budget of MAX_BODY_MASS: an impulse on the heaviest body at the largest relative
    // speed of bodies up to 1e4 m, times its arm, stays a millionth of f32's range.
    let speed = 2.0 * (f64::from(MAX_LINEAR_SPEED) + f64::from(MAX_ANGULAR_SPEED) * 1e4);
    let moment = f64::from(MAX_BODY_MASS) * speed * (1.0 + f64::from(MAX_RESTITUTION)) * 1e4;
    assert!(moment <= f64::from(f32::MAX) * 1e-6, "{moment:e}");
}
