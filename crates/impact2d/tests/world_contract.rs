//! The input contract of `World` (issue 18): every number that enters a world has a finite
//! range, a value outside it is refused with `WorldError::InvalidValue` and changes nothing,
//! and every call the world accepts leaves every body's state finite, its origin within
//! `settings::MAX_COORDINATE` and, after a step, each dynamic body within the world's speed
//! caps. Handles of another world are refused.
//!
//! Each test starts from a case of issue 18 that panicked, ended in NaN or infinity, broke a
//! cap or reached a wrong body, and goes on with seeded cases around it: values across the
//! accepted range and just outside it, with the state checked after every call. Random
//! scripts of every kind of call are the `world_script` fuzzing target (`crates/impact-fuzz`).
//!
//! The limits are written here as numbers (the documented values), so that the tests read the
//! contract as a user does; `world_settings.rs` checks they are the library's constants.

mod world_common;

use impact2d::settings::MAX_COORDINATE;
use impact2d::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use world_common::*;

/// `settings::MAX_TIME_STEP` (s).
const TIME_STEP_LIMIT: f32 = 1.0;
/// `settings::MAX_LINEAR_SPEED` (m/s).
const SPEED_LIMIT: f32 = 1.0e6;
/// `settings::MAX_ANGULAR_SPEED` (rad/s).
const SPIN_LIMIT: f32 = 1.0e5;
/// `settings::MAX_FRICTION`.
const FRICTION_LIMIT: f32 = 1000.0;
/// `settings::MAX_RESTITUTION`.
const RESTITUTION_LIMIT: f32 = 10.0;
/// `settings::MAX_DENSITY` (kg/m²).
const DENSITY_LIMIT: f32 = 1.0e9;
/// `settings::MAX_BODY_MASS` (kg).
const BODY_MASS_LIMIT: f32 = 1.0e18;
/// `settings::MAX_GRAVITY_SCALE`.
const GRAVITY_SCALE_LIMIT: f32 = 1000.0;
/// `settings::MAX_GRAVITY` (m/s²).
const GRAVITY_LIMIT: f32 = 1.0e6;
/// `settings::MAX_FORCE` (N) and `settings::MAX_IMPULSE` (N·s).
const FORCE_LIMIT: f32 = 1.0e20;
/// `settings::MAX_TORQUE` (N·m) and `settings::MAX_ANGULAR_IMPULSE` (N·m·s).
const TORQUE_LIMIT: f32 = 1.0e30;

/// Just beyond `limit` (the next f32 up, for a positive limit).
fn beyond(limit: f32) -> f32 {
    f32::from_bits(limit.to_bits() + 1)
}

fn is_invalid<T: std::fmt::Debug>(result: &Result<T, WorldError>, name: &str) -> bool {
    matches!(result, Err(WorldError::InvalidValue { what, .. }) if *what == name)
}

/// Everything a refused call must leave as it was.
fn fingerprint(world: &World) -> (u64, usize, usize, WorldDef) {
    (world.state_checksum(), world.body_count(), world.shape_count(), *world.def())
}

/// The contract after any accepted call: every listed live body's state is finite, its origin
/// within `MAX_COORDINATE`, and its velocities within the speed limits.
fn assert_sound(world: &World, bodies: &[BodyId], what: &str) {
    for &b in bodies {
        let Ok(p) = world.position(b) else { continue };
        let (a, c) = (world.angle(b).unwrap(), world.world_center(b).unwrap());
        let (v, w) = (world.linear_velocity(b).unwrap(), world.angular_velocity(b).unwrap());
        let state = format!("{what}: {b}: position {p}, angle {a}, center {c}, velocity {v}, angular velocity {w}");
        assert!(p.is_finite() && a.is_finite() && c.is_finite() && v.is_finite() && w.is_finite(), "{state}");
        assert!(p.x.abs() <= MAX_COORDINATE && p.y.abs() <= MAX_COORDINATE, "{state}: beyond the coordinate limit");
        assert!(v.length() <= SPEED_LIMIT * (1.0 + 1e-6), "{state}: beyond the speed limit");
        assert!(w.abs() <= SPIN_LIMIT, "{state}: beyond the angular speed limit");
        let xf = world.transform(b).unwrap();
        assert!(xf.q.c.is_finite() && xf.q.s.is_finite(), "{state}: rotation {:?}", xf.q);
    }
}

/// After a step: every listed awake dynamic body moves within the world's caps.
fn assert_capped(world: &World, bodies: &[BodyId], what: &str) {
    let (max_linear, max_angular) = (world.def().max_linear_speed, world.def().max_angular_speed);
    for &b in bodies {
        if world.body_type(b) != Ok(BodyType::Dynamic) || !world.is_awake(b).unwrap() {
            continue;
        }
        let (v, w) = (world.linear_velocity(b).unwrap(), world.angular_velocity(b).unwrap());
        assert!(v.length() <= max_linear * (1.0 + 1e-6), "{what}: {b} moves at {} m/s, cap {max_linear}", v.length());
        assert!(w.abs() <= max_angular, "{what}: {b} turns at {w} rad/s, cap {max_angular}");
    }
}

/// Steps and checks the contract after the step.
fn step_checked(world: &mut World, dt: f32, substeps: u32, bodies: &[BodyId], what: &str) {
    world.step(dt, substeps).unwrap();
    assert_sound(world, bodies, what);
    assert_capped(world, bodies, what);
}

/// A static box (half sizes `hx`, `hy`) whose top is at y = 0.
fn ground_box(world: &mut World, hx: f32, hy: f32, def: &ShapeDef) -> BodyId {
    let body = world.create_body(&BodyDef::fixed(Vec2::new(0.0, -hy))).unwrap();
    world.create_shape(body, def, &boxed(hx, hy)).unwrap();
    body
}

// ---- Panics ----

/// Issue 18: a static box with friction 1e30 and a circle with friction 1e30 dropped at
/// 200 m/s made `World::step` panic in continuous collision (`f32::clamp` with a NaN bound:
/// the mixed friction was infinite, times an impulse of zero). Friction beyond 1000 is
/// refused now, by the definition and by the setter; at 1000 on both shapes the same drop, and
/// seeded drops around it, step without panic and end resting on the box.
#[test]
fn friction_far_beyond_any_material_is_refused_and_the_largest_accepted_holds() {
    for bad in [1e30, 1e20, f32::MAX, beyond(FRICTION_LIMIT), -1.0, f32::NAN, f32::INFINITY] {
        let mut world = world_common::world();
        let def = ShapeDef { friction: bad, ..ShapeDef::default() };
        let body = world.create_body(&BodyDef::fixed(Vec2::ZERO)).unwrap();
        let before = fingerprint(&world);
        assert!(is_invalid(&world.create_shape(body, &def, &boxed(10.0, 1.0)), "shape friction"), "{bad}");
        let shape = world.create_shape(body, &ShapeDef::default(), &boxed(10.0, 1.0)).unwrap();
        let before_set = fingerprint(&world);
        assert!(is_invalid(&world.set_shape_friction(shape, bad), "shape friction"), "{bad}");
        assert_eq!(world.shape_friction(shape).unwrap(), 0.6);
        assert_eq!(fingerprint(&world), before_set);
        assert_ne!(before, before_set);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(18);
    for case in 0..60 {
        let mut world = World::new(&WorldDef { max_linear_speed: 1000.0, ..WorldDef::default() }).unwrap();
        let (friction_a, friction_b) = if case == 0 {
            (FRICTION_LIMIT, FRICTION_LIMIT)
        } else {
            (rng.random_range(100.0..=FRICTION_LIMIT), rng.random_range(100.0..=FRICTION_LIMIT))
        };
        let speed = if case == 0 { 200.0 } else { rng.random_range(50.0..900.0) };
        let radius = if case == 0 { 0.25 } else { rng.random_range(0.02..1.0) };
        let restitution = if case % 3 == 0 { 0.0 } else { rng.random_range(0.0..=RESTITUTION_LIMIT) };
        let density = if case % 4 == 0 { DENSITY_LIMIT } else { rng.random_range(0.01..100.0) };
        let ground = ground_box(&mut world, 10.0, 1.0, &ShapeDef { friction: friction_a, ..ShapeDef::default() });
        let def = BodyDef {
            linear_velocity: Vec2::new(rng.random_range(-20.0..20.0), -speed),
            angular_velocity: rng.random_range(-50.0..50.0),
            ..BodyDef::dynamic(Vec2::new(0.0, 3.0))
        };
        let ball = world.create_body(&def).unwrap();
        let shape = ShapeDef { friction: friction_b, restitution, density, ..ShapeDef::default() };
        world.create_shape(ball, &shape, &circle(radius)).unwrap();
        let bodies = [ground, ball];
        let what = format!("case {case}: friction {friction_a} and {friction_b}, {speed} m/s, radius {radius}");
        for step in 0..90 {
            step_checked(&mut world, DT, SUBSTEPS, &bodies, &format!("{what}, step {step}"));
        }
        // Over the box, it is on it: it did not pass through (it may have bounced off the side).
        let p = world.position(ball).unwrap();
        if p.x.abs() < 10.0 {
            assert!(p.y > -0.01, "{what}: the ball passed the box: {p}");
        }
    }
}

// ---- Accepted input that ended in NaN or infinity ----

/// Issue 18: a gravity scale of f32::MAX or f32::MIN was accepted and the body's position
/// became NaN. Scales beyond 1000 are refused; seeded scales across the accepted range fall
/// (or rise) finitely, held at the cap.
#[test]
fn gravity_scales_beyond_a_thousand_are_refused() {
    let mut world = world();
    for bad in [f32::MAX, f32::MIN, beyond(GRAVITY_SCALE_LIMIT), -beyond(GRAVITY_SCALE_LIMIT), 1e30, f32::NAN] {
        let def = BodyDef { gravity_scale: bad, ..BodyDef::dynamic(Vec2::ZERO) };
        assert!(is_invalid(&world.create_body(&def), "body gravity scale"), "{bad}");
    }
    assert_eq!(world.body_count(), 0);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for case in 0..40 {
        let mut world = World::new(&WorldDef {
            gravity: Vec2::new(rng.random_range(-1.0..1.0), -1.0) * rng.random_range(0.0..=GRAVITY_LIMIT),
            ..WorldDef::default()
        })
        .unwrap();
        let ground = ground_box(&mut world, 50.0, 1.0, &ShapeDef::default());
        let mut bodies = vec![ground];
        for k in 0..4 {
            let scale = match k {
                0 => GRAVITY_SCALE_LIMIT,
                1 => -GRAVITY_SCALE_LIMIT,
                _ => rng.random_range(-GRAVITY_SCALE_LIMIT..=GRAVITY_SCALE_LIMIT),
            };
            let def = BodyDef { gravity_scale: scale, ..BodyDef::dynamic(Vec2::new(3.0 * k as f32, 2.0)) };
            let body = world.create_body(&def).unwrap();
            world.create_shape(body, &ShapeDef::default(), &boxed(0.5, 0.5)).unwrap();
            bodies.push(body);
        }
        for step in 0..30 {
            step_checked(&mut world, DT, SUBSTEPS, &bodies, &format!("case {case}, step {step}"));
        }
    }
}

/// Issue 18: `apply_angular_impulse(b, 1e38)` made the angular velocity infinite, and
/// `apply_torque(b, 3e38)` for two steps overflowed the accumulated torque. Both are refused
/// beyond 1e30; within, the velocity they give is held to the speed limits at once, and the
/// caps hold after the step. Seeded shapes from 1 cm to 10 m, impulses and torques up to the
/// limits, applied several times.
#[test]
fn angular_impulses_and_torques_beyond_their_limits_are_refused_and_within_them_are_held() {
    let mut world = world();
    let body = dynamic(&mut world, Vec2::ZERO, &circle(0.01), &ShapeDef::default());
    let before = fingerprint(&world);
    for bad in [1e38, 3e38, f32::MAX, -f32::MAX, beyond(TORQUE_LIMIT), f32::NAN, f32::NEG_INFINITY] {
        assert!(is_invalid(&world.apply_angular_impulse(body, bad), "angular impulse"), "{bad}");
        assert!(is_invalid(&world.apply_torque(body, bad), "torque"), "{bad}");
    }
    assert_eq!(fingerprint(&world), before);
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    for case in 0..80 {
        let mut world = world_common::world();
        let ground = ground_box(&mut world, 50.0, 1.0, &ShapeDef::default());
        let size = 10f32.powf(rng.random_range(-2.0..1.0));
        let shape = if case % 2 == 0 { circle(size) } else { boxed(size, 0.1 * size) };
        let body = dynamic(&mut world, Vec2::new(0.0, 1.5 * size), &shape, &ShapeDef::default());
        let bodies = [ground, body];
        let sign = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
        for _ in 0..rng.random_range(1..4) {
            let impulse = sign * if case < 4 { TORQUE_LIMIT } else { 10f32.powf(rng.random_range(0.0..30.0)) };
            world.apply_angular_impulse(body, impulse).unwrap();
            assert_sound(&world, &bodies, &format!("case {case}: angular impulse {impulse}"));
            let torque = sign * if case < 4 { TORQUE_LIMIT } else { 10f32.powf(rng.random_range(0.0..30.0)) };
            world.apply_torque(body, torque).unwrap();
            world.apply_force(body, Vec2::splat(FORCE_LIMIT), Vec2::splat(MAX_COORDINATE)).unwrap();
            assert_sound(&world, &bodies, &format!("case {case}: torque {torque}"));
        }
        for step in 0..3 {
            step_checked(&mut world, DT, SUBSTEPS, &bodies, &format!("case {case}, step {step}"));
            world.apply_torque(body, sign * TORQUE_LIMIT).unwrap();
            world.apply_torque(body, sign * TORQUE_LIMIT).unwrap();
        }
    }
}

/// Issue 18: `step(1e38, 4)` with a spinning kinematic body and `step(f32::MAX, 1)` ended in
/// NaN. Time steps beyond a second are refused and change nothing; a step of a second with a
/// kinematic body at the speed limits, and dynamic bodies on it, stays finite.
#[test]
fn time_steps_beyond_a_second_are_refused() {
    let mut world = world();
    let rotor = world.create_body(&BodyDef { angular_velocity: 5.0, ..BodyDef::kinematic(Vec2::ZERO) }).unwrap();
    world.create_shape(rotor, &ShapeDef::default(), &boxed(2.0, 0.1)).unwrap();
    let ball = dynamic(&mut world, Vec2::new(0.5, 1.0), &circle(0.25), &ShapeDef::default());
    world.step(DT, SUBSTEPS).unwrap();
    let before = fingerprint(&world);
    for (dt, substeps) in
        [(1e38, 4), (f32::MAX, 1), (1000.0, 4), (10.0, 4), (beyond(TIME_STEP_LIMIT), 1), (f32::INFINITY, 4)]
    {
        assert!(is_invalid(&world.step(dt, substeps), "time step"), "{dt}");
        assert_eq!(fingerprint(&world), before, "{dt}: the refused step changed the world");
    }
    assert_sound(&world, &[rotor, ball], "after the refused steps");
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for case in 0..30 {
        let mut world = world_common::world();
        let spin = if case == 0 { SPIN_LIMIT } else { rng.random_range(-SPIN_LIMIT..=SPIN_LIMIT) };
        let direction = Vec2::from_angle(rng.random_range(0.0..std::f32::consts::TAU));
        // At the limit (a unit vector times the limit may round a little over it).
        let speed = if case == 0 { SPEED_LIMIT * (1.0 - 1e-6) } else { rng.random_range(0.0..=SPEED_LIMIT * 0.999) };
        let def =
            BodyDef { angular_velocity: spin, linear_velocity: speed * direction, ..BodyDef::kinematic(Vec2::ZERO) };
        let rotor = world.create_body(&def).unwrap();
        world.create_shape(rotor, &ShapeDef::default(), &boxed(rng.random_range(0.1..20.0), 0.1)).unwrap();
        let mut bodies = vec![rotor];
        for k in 0..3 {
            let position = Vec2::new(rng.random_range(-3.0..3.0), 0.3 + k as f32);
            bodies.push(dynamic(&mut world, position, &circle(rng.random_range(0.05..0.5)), &ShapeDef::default()));
        }
        let dt = if case < 10 { TIME_STEP_LIMIT } else { rng.random_range(1e-9..=TIME_STEP_LIMIT) };
        for step in 0..5 {
            let substeps = rng.random_range(1..=256);
            step_checked(&mut world, dt, substeps, &bodies, &format!("case {case}, dt {dt}, step {step}"));
        }
    }
}

/// Issue 18: a 1 m box of density 3e38 dropped onto the ground ended in NaN. Densities beyond
/// 1e9 kg/m² are refused, and so is a shape that makes a dynamic body heavier than 1e18 kg (or
/// alone overflows f32). A 1 m box at the largest density lands and rests; seeded densities
/// and sizes around the body mass limit are refused exactly when they pass it.
#[test]
fn densities_and_masses_beyond_their_limits_are_refused() {
    let mut world = world();
    ground(&mut world);
    let body = world.create_body(&BodyDef::dynamic(Vec2::new(0.0, 2.0))).unwrap();
    for bad in [3e38, f32::MAX, beyond(DENSITY_LIMIT), -1.0, f32::NAN] {
        let def = ShapeDef { density: bad, ..ShapeDef::default() };
        assert!(is_invalid(&world.create_shape(body, &def, &boxed(0.5, 0.5)), "shape density"), "{bad}");
    }
    let heavy = ShapeDef { density: DENSITY_LIMIT, ..ShapeDef::default() };
    world.create_shape(body, &heavy, &boxed(0.5, 0.5)).unwrap();
    assert_eq!(world.mass(body).unwrap(), DENSITY_LIMIT);
    let ball = dynamic(&mut world, Vec2::new(0.0, 4.0), &circle(0.3), &ShapeDef::default());
    let bodies = world_bodies(&world, &[body, ball]);
    for step in 0..180 {
        step_checked(&mut world, DT, SUBSTEPS, &bodies, &format!("step {step}"));
    }
    let y = world.position(body).unwrap().y;
    assert!((y - 0.5).abs() < 0.05, "the heavy box rests on the ground: y = {y}");

    // Around the body mass limit: one shape, then a second that tips the sum over.
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let (mut refused, mut accepted) = (0, 0);
    for case in 0..200 {
        let mut world = world_without_gravity();
        let body = world.create_body(&BodyDef::dynamic(Vec2::ZERO)).unwrap();
        let density = 10f32.powf(rng.random_range(0.0..9.0));
        // Half sizes whose box mass (4 h² ρ) lands within a factor of 4 of the limit.
        let half = (BODY_MASS_LIMIT / (4.0 * density) * rng.random_range(0.25..4.0)).sqrt().min(MAX_COORDINATE);
        let shape = boxed(half, half);
        let def = ShapeDef { density, ..ShapeDef::default() };
        let mass = 4.0 * f64::from(half) * f64::from(half) * f64::from(density);
        let result = world.create_shape(body, &def, &shape);
        let within = mass <= f64::from(BODY_MASS_LIMIT) * (1.0 - 1e-6);
        let beyond_limit = mass >= f64::from(BODY_MASS_LIMIT) * (1.0 + 1e-6);
        if within {
            assert!(result.is_ok(), "case {case}: {mass} kg refused: {result:?}");
            accepted += 1;
        } else if beyond_limit {
            assert!(is_invalid(&result, "body mass"), "case {case}: {mass} kg: {result:?}");
            refused += 1;
        }
        if result.is_ok() {
            // A second shape that alone fits but together may not.
            let second = world.create_shape(body, &def, &shape);
            if 2.0 * mass >= f64::from(BODY_MASS_LIMIT) * (1.0 + 1e-6) {
                assert!(is_invalid(&second, "body mass"), "case {case}: twice {mass} kg: {second:?}");
            }
            assert!(world.mass(body).unwrap() <= BODY_MASS_LIMIT);
            world.apply_linear_impulse(body, Vec2::splat(FORCE_LIMIT), Vec2::new(half, half)).unwrap();
            let bodies = [body];
            for step in 0..3 {
                step_checked(&mut world, DT, SUBSTEPS, &bodies, &format!("case {case}, step {step}"));
            }
        }
    }
    assert!(refused > 40 && accepted > 40, "both sides of the limit: {refused} refused, {accepted} accepted");
}

/// The bodies of `world` among `candidates` that are live.
fn world_bodies(world: &World, candidates: &[BodyId]) -> Vec<BodyId> {
    candidates.iter().copied().filter(|&b| world.position(b).is_ok()).collect()
}

/// Issue 18: `set_angular_velocity(f32::MAX)` then `step(1000, 4)` was accepted. Angular
/// velocities beyond 1e5 rad/s are refused, by the setter and the definition; at the limit, on
/// dynamic and kinematic bodies of seeded sizes, steps of up to a second stay finite.
#[test]
fn angular_velocities_beyond_the_limit_are_refused() {
    let mut world = world();
    let body = dynamic(&mut world, Vec2::new(0.0, 2.0), &boxed(0.5, 0.5), &ShapeDef::default());
    let before = fingerprint(&world);
    for bad in [f32::MAX, -f32::MAX, beyond(SPIN_LIMIT), 1e10, f32::NAN, f32::INFINITY] {
        assert!(is_invalid(&world.set_angular_velocity(body, bad), "angular velocity"), "{bad}");
        let def = BodyDef { angular_velocity: bad, ..BodyDef::kinematic(Vec2::ZERO) };
        assert!(is_invalid(&world.create_body(&def), "body angular velocity"), "{bad}");
    }
    assert!(is_invalid(&world.step(1000.0, 4), "time step"));
    assert_eq!(fingerprint(&world), before);
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for case in 0..40 {
        let mut world = world_common::world();
        let ground = ground_box(&mut world, 30.0, 1.0, &ShapeDef::default());
        let mut bodies = vec![ground];
        for k in 0..3 {
            let spin = if k == 0 { SPIN_LIMIT } else { rng.random_range(-SPIN_LIMIT..=SPIN_LIMIT) };
            let kind = if k == 2 { BodyDef::kinematic } else { BodyDef::dynamic };
            let body = world.create_body(&kind(Vec2::new(4.0 * k as f32, 1.0))).unwrap();
            let size = rng.random_range(0.05..3.0);
            world.create_shape(body, &ShapeDef::default(), &boxed(size, 0.2 * size)).unwrap();
            world.set_angular_velocity(body, spin).unwrap();
            bodies.push(body);
        }
        let dt = if case % 2 == 0 { TIME_STEP_LIMIT } else { DT };
        for step in 0..4 {
            step_checked(&mut world, dt, rng.random_range(1..=8), &bodies, &format!("case {case}, step {step}"));
        }
    }
}

// ---- Contracts that did not hold ----

/// Issue 18: a 2 m × 0.2 m box spinning at 1e4 rad/s on the ground moved at 2,610 m/s after
/// one step with the cap at 400. The caps hold after every step, and the motion of the step is
/// within them too (the contact impulses of a sub-step are capped before the body moves by
/// them): seeded plates, spins up to the limit, caps, materials and sub-steps.
#[test]
fn the_speed_caps_hold_after_every_step_on_every_path() {
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    for case in 0..300 {
        let (max_linear, max_angular) = if case == 0 {
            (400.0, 10_000.0)
        } else {
            (10f32.powf(rng.random_range(0.5..3.5)), 10f32.powf(rng.random_range(1.0..5.0)))
        };
        let def = WorldDef { max_linear_speed: max_linear, max_angular_speed: max_angular, ..WorldDef::default() };
        let mut world = World::new(&def).unwrap();
        let material = ShapeDef {
            friction: if case == 0 { 0.6 } else { rng.random_range(0.0..=FRICTION_LIMIT) },
            restitution: if case == 0 { 0.0 } else { rng.random_range(0.0..=RESTITUTION_LIMIT) },
            ..ShapeDef::default()
        };
        let ground = ground_box(&mut world, 100.0, 1.0, &material);
        let (hx, hy) = if case == 0 { (1.0, 0.1) } else { (rng.random_range(0.05..3.0), rng.random_range(0.01..0.5)) };
        let spin = if case == 0 { 1.0e4 } else { rng.random_range(-SPIN_LIMIT..=SPIN_LIMIT) };
        let height = if case == 0 { hy } else { rng.random_range(0.0..hx) };
        let plate = world.create_body(&BodyDef { angular_velocity: spin, ..BodyDef::dynamic(Vec2::new(0.0, height)) });
        let plate = plate.unwrap();
        world.create_shape(plate, &material, &boxed(hx, hy)).unwrap();
        let bodies = [ground, plate];
        let substeps = if case == 0 { SUBSTEPS } else { rng.random_range(1..=8) };
        for step in 0..6 {
            let what =
                format!("case {case}, step {step}: {hx} × {hy} at {spin} rad/s, caps {max_linear} {max_angular}");
            step_checked(&mut world, DT, substeps, &bodies, &what);
            let s = world.sweep(plate).unwrap();
            let (moved, turned) = ((s.c2 - s.c1).length(), (s.a2 - s.a1).abs());
            assert!(moved <= max_linear * DT * (1.0 + 1e-5) + 0.01, "{what}: moved {moved} m in a step");
            assert!(turned <= max_angular * DT * (1.0 + 1e-5), "{what}: turned {turned} rad in a step");
        }
    }
}

/// Issue 18: a kinematic body at 1e9 m/s stepped with dt = 10 ended at 1e10 m, beyond the
/// coordinate limit. Both are refused now (speed limit, time step limit); and a body that
/// reaches the limit at accepted speeds stops there: its origin is moved back to the limit
/// along each axis it crossed and the velocity out along that axis is removed. Seeded
/// kinematic and dynamic bodies at the speed limit, flying out in every direction, spinning
/// with their center of mass away from their origin.
#[test]
fn no_body_leaves_the_coordinate_limit() {
    let mut world = world_without_gravity();
    let fast = BodyDef { linear_velocity: Vec2::new(1e9, 0.0), ..BodyDef::kinematic(Vec2::ZERO) };
    assert!(is_invalid(&world.create_body(&fast), "body linear velocity"));
    let rotor = world.create_body(&BodyDef::kinematic(Vec2::ZERO)).unwrap();
    world.create_shape(rotor, &ShapeDef::default(), &boxed(0.5, 0.5)).unwrap();
    for bad in [Vec2::new(1e9, 0.0), Vec2::new(0.0, beyond(SPEED_LIMIT)), Vec2::new(8e5, 8e5), Vec2::splat(f32::NAN)] {
        assert!(is_invalid(&world.set_linear_velocity(rotor, bad), "linear velocity"), "{bad}");
    }
    assert!(is_invalid(&world.step(10.0, 4), "time step"));

    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for case in 0..60 {
        let mut world = World::new(&WorldDef {
            gravity: Vec2::ZERO,
            max_linear_speed: SPEED_LIMIT,
            max_angular_speed: SPIN_LIMIT,
            ..WorldDef::default()
        })
        .unwrap();
        let direction =
            if case == 0 { Vec2::X } else { Vec2::from_angle(rng.random_range(0.0..std::f32::consts::TAU)) };
        // On the way out, 0 to 2 steps from the edge of the square the direction leads to.
        let start = direction / direction.abs().max_element() * (MAX_COORDINATE - rng.random_range(0.0..2.0e6));
        let kind = if case % 2 == 0 { BodyDef::kinematic } else { BodyDef::dynamic };
        let def = BodyDef {
            angular_velocity: rng.random_range(-SPIN_LIMIT..=SPIN_LIMIT),
            ..kind(start.clamp(Vec2::splat(-MAX_COORDINATE), Vec2::splat(MAX_COORDINATE)))
        };
        let body = world.create_body(&def).unwrap();
        // The center of mass away from the origin: turning moves the origin.
        let offset = Vec2::new(rng.random_range(-1e3..1e3), rng.random_range(-1e3..1e3));
        let shape = Shape::Polygon(make_offset_box(0.5, 0.5, offset, 0.0).unwrap());
        world.create_shape(body, &ShapeDef::default(), &shape).unwrap();
        world.set_linear_velocity(body, SPEED_LIMIT * (1.0 - 1e-6) * direction).unwrap();
        let what = format!("case {case}: from {start} toward {direction}");
        for step in 0..6 {
            step_checked(&mut world, TIME_STEP_LIMIT, 4, &[body], &format!("{what}, step {step}"));
        }
        let (p, v) = (world.position(body).unwrap(), world.linear_velocity(body).unwrap());
        // Pressed against the edges it reached: nothing left of the velocity out of them.
        for (x, vx) in [(p.x, v.x), (p.y, v.y)] {
            if x.abs() == MAX_COORDINATE {
                assert!(vx * x <= 0.0, "{what}: still moving out at the edge: {p} {v}");
            }
        }
        // It reached the edge (a spinning body's origin circles its center, up to twice the
        // offset of its shape away).
        let reach = MAX_COORDINATE - 2.0 * offset.length() - 128.0;
        assert!(p.x.abs() >= reach || p.y.abs() >= reach, "{what}: reached the edge: {p}");
    }
}

/// Issue 18: an impulse far from the center of a 5-gram circle, then a large box attached to
/// that body, threw it billions of meters in one step (attaching the box moved the center of
/// mass, and the velocity of the new center took the whole spin). The velocity a change of
/// mass gives is held to the speed limit at once, and the caps hold after the step: seeded
/// impulses, arms, boxes and offsets.
#[test]
fn attaching_a_shape_to_a_spinning_body_cannot_throw_it() {
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    for case in 0..100 {
        let mut world = world_common::world();
        let ground = ground_box(&mut world, 100.0, 1.0, &ShapeDef::default());
        let body = world.create_body(&BodyDef::dynamic(Vec2::new(0.0, 5.0))).unwrap();
        world.create_shape(body, &ShapeDef { density: 0.16, ..ShapeDef::default() }, &circle(0.1)).unwrap();
        let (impulse, arm) = if case == 0 {
            (8.6, 1000.0)
        } else {
            (10f32.powf(rng.random_range(-1.0..20.0)), 10f32.powf(rng.random_range(-1.0..8.0)))
        };
        let point = world.world_center(body).unwrap() + Vec2::new(arm, 0.0);
        world.apply_linear_impulse(body, Vec2::new(0.0, impulse), point).unwrap();
        let bodies = [ground, body];
        assert_sound(&world, &bodies, &format!("case {case}: after the impulse"));
        let half = rng.random_range(1.0..100.0);
        let offset = Vec2::new(rng.random_range(-1e4..1e4), rng.random_range(-1e4..1e4));
        let big = Shape::Polygon(make_offset_box(half, half, offset, 0.0).unwrap());
        world.create_shape(body, &ShapeDef::default(), &big).unwrap();
        assert_sound(&world, &bodies, &format!("case {case}: after attaching the box"));
        for step in 0..3 {
            step_checked(&mut world, DT, SUBSTEPS, &bodies, &format!("case {case}, step {step}"));
            let s = world.sweep(body).unwrap();
            assert!((s.c2 - s.c1).length() <= 400.0 * DT * (1.0 + 1e-5) + 0.01, "case {case}: moved {s:?}");
        }
    }
}

/// Issue 18: a handle from another world was accepted: it read, or destroyed, whatever body
/// had the same slot. Every kind of call (read, set, destroy, attach) with a handle of another
/// world is refused with `WorldError::ForeignHandle`, whose message says so, and changes
/// nothing; the handles of a world work in its clones. Over seeded pairs of worlds of a few
/// bodies each, every handle of one tried on the other.
#[test]
fn handles_of_another_world_are_refused() {
    let foreign = |result: Result<(), WorldError>| match result {
        Err(e) => e.to_string().contains("belongs to another world"),
        Ok(()) => false,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    for case in 0..30 {
        let (mut a, mut b) = (world(), world());
        let make = |world: &mut World, rng: &mut ChaCha8Rng| {
            let n = rng.random_range(1..5);
            (0..n)
                .map(|k| {
                    let body = dynamic(world, Vec2::new(2.0 * k as f32, 1.0), &circle(0.5), &ShapeDef::default());
                    (body, world.body_shapes(body).unwrap()[0])
                })
                .collect::<Vec<_>>()
        };
        let (in_a, in_b) = (make(&mut a, &mut rng), make(&mut b, &mut rng));
        run(&mut a, 2);
        run(&mut b, 2);
        let before = fingerprint(&b);
        for &(body, shape) in &in_a {
            let what = format!("case {case}: {body} of world A in world B");
            assert!(foreign(b.position(body).map(drop)), "{what}: position");
            assert!(foreign(b.linear_velocity(body).map(drop)), "{what}: velocity");
            assert!(foreign(b.body_shapes(body).map(drop)), "{what}: shapes");
            assert!(foreign(b.is_awake(body).map(drop)), "{what}: awake");
            assert!(foreign(b.set_linear_velocity(body, Vec2::X)), "{what}: set velocity");
            assert!(foreign(b.set_transform(body, Vec2::ZERO, 0.0)), "{what}: set transform");
            assert!(foreign(b.apply_linear_impulse_to_center(body, Vec2::X)), "{what}: impulse");
            assert!(foreign(b.apply_torque(body, 1.0)), "{what}: torque");
            assert!(foreign(b.wake_body(body)), "{what}: wake");
            assert!(foreign(b.create_shape(body, &ShapeDef::default(), &circle(1.0)).map(drop)), "{what}: attach");
            assert!(foreign(b.destroy_body(body)), "{what}: destroy");
            assert!(foreign(b.shape_body(shape).map(drop)), "{what}: shape's body");
            assert!(foreign(b.shape_friction(shape).map(drop)), "{what}: shape friction");
            assert!(foreign(b.set_shape_friction(shape, 0.1)), "{what}: set shape friction");
            assert!(foreign(b.set_shape_filter(shape, Filter::default())), "{what}: set filter");
            assert!(foreign(b.destroy_shape(shape)), "{what}: destroy shape");
        }
        assert_eq!(fingerprint(&b), before, "case {case}: world B unchanged");
        assert_eq!(b.body_count(), in_b.len());
        // The same handles in their own world, and in its clone, work.
        let copy = a.clone();
        for &(body, shape) in &in_a {
            assert_eq!(a.position(body).unwrap(), copy.position(body).unwrap());
            assert_eq!(copy.shape_body(shape).unwrap(), body);
        }
        a.destroy_body(in_a[0].0).unwrap();
        assert_eq!(b.body_count(), in_b.len(), "case {case}: destroying in A leaves B whole");
    }
}
