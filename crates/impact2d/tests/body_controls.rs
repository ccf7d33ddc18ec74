//! Body controls at run time (issue 21, item 1): type changes, enabling and disabling,
//! sleep, continuous flags, gravity scale, damping, fixed rotation, mass data, user data and
//! a kinematic body's target pose. Named cases assert what each control does; seeded
//! scripts of random control calls in a walled pile check every step that the world stays
//! finite, that nothing leaves the box, that refused calls change nothing, and that the
//! same script gives the same bits.

use impact2d::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

const DT: f32 = 1.0 / 60.0;

fn world() -> World {
    World::new(&WorldDef::default()).unwrap()
}

fn boxed(hw: f32, hh: f32) -> Shape {
    Shape::Polygon(make_box(hw, hh).unwrap())
}

fn add(w: &mut World, def: BodyDef, shape: &Shape) -> BodyId {
    let b = w.create_body(&def).unwrap();
    w.create_shape(b, &ShapeDef::default(), shape).unwrap();
    b
}

fn run(w: &mut World, steps: usize) {
    for _ in 0..steps {
        w.step(DT, 4).unwrap();
    }
}

/// A ground 1 cm thick with its top at y = 0, 40 m wide.
fn ground(w: &mut World) -> BodyId {
    add(w, BodyDef::fixed(Vec2::new(0.0, -0.005)), &boxed(20.0, 0.005))
}

#[test]
fn a_static_shelf_made_dynamic_falls_and_a_falling_box_made_static_stops() {
    let mut w = world();
    ground(&mut w);
    let shelf = add(&mut w, BodyDef::fixed(Vec2::new(0.0, 3.0)), &boxed(1.0, 0.1));
    let crate_ = add(&mut w, BodyDef::dynamic(Vec2::new(0.0, 3.6)), &boxed(0.25, 0.25));
    run(&mut w, 60);
    assert!((w.position(crate_).unwrap().y - 3.35).abs() < 0.02, "the crate rests on the shelf");
    w.set_body_type(shelf, BodyType::Dynamic).unwrap();
    assert!(w.mass(shelf).unwrap() > 0.0 && w.is_awake(shelf).unwrap());
    run(&mut w, 120);
    let (shelf_y, crate_y) = (w.position(shelf).unwrap().y, w.position(crate_).unwrap().y);
    assert!((shelf_y - 0.1).abs() < 0.02 && (crate_y - 0.45).abs() < 0.03, "{shelf_y} {crate_y}");
    // Made static in mid-fall, a body stops where it is and holds what lands on it.
    let faller = add(&mut w, BodyDef::dynamic(Vec2::new(5.0, 6.0)), &boxed(0.5, 0.1));
    run(&mut w, 20);
    w.set_body_type(faller, BodyType::Static).unwrap();
    let held = w.position(faller).unwrap();
    assert_eq!((w.mass(faller).unwrap(), w.linear_velocity(faller).unwrap()), (0.0, Vec2::ZERO));
    let ball = w.create_body(&BodyDef::dynamic(held + Vec2::new(0.0, 2.0))).unwrap();
    w.create_shape(ball, &ShapeDef::default(), &Shape::Circle(Circle::new(Vec2::ZERO, 0.2).unwrap())).unwrap();
    run(&mut w, 120);
    assert_eq!(w.position(faller).unwrap(), held);
    assert!((w.position(ball).unwrap().y - (held.y + 0.3)).abs() < 0.02, "the ball rests on the frozen body");
}

#[test]
fn a_kinematic_body_made_dynamic_gets_mass_and_falls() {
    let mut w = world();
    ground(&mut w);
    let k = add(&mut w, BodyDef::kinematic(Vec2::new(0.0, 2.0)), &boxed(0.5, 0.5));
    w.set_linear_velocity(k, Vec2::new(1.0, 0.0)).unwrap();
    run(&mut w, 30);
    assert!((w.position(k).unwrap() - Vec2::new(0.5, 2.0)).length() < 1e-3);
    w.set_body_type(k, BodyType::Dynamic).unwrap();
    assert!((w.mass(k).unwrap() - 1.0).abs() < 1e-5);
    run(&mut w, 120);
    assert!((w.position(k).unwrap().y - 0.5).abs() < 0.02);
}

#[test]
fn a_disabled_body_is_out_of_the_world_until_enabled() {
    let mut w = world();
    ground(&mut w);
    let shelf = add(&mut w, BodyDef::fixed(Vec2::new(0.0, 3.0)), &boxed(1.0, 0.1));
    w.set_body_enabled(shelf, false).unwrap();
    // Queries do not see it; a ball falls through where it is.
    let down = w.cast_ray_closest(Vec2::new(0.0, 5.0), Vec2::new(0.0, -4.0), Filter::default()).unwrap();
    assert!(down.is_none(), "{down:?}");
    let ball =
        add(&mut w, BodyDef::dynamic(Vec2::new(0.0, 4.0)), &Shape::Circle(Circle::new(Vec2::ZERO, 0.2).unwrap()));
    run(&mut w, 90);
    assert!(w.position(ball).unwrap().y < 0.3);
    // Setters and shapes work on it meanwhile; enabled, it is back (and a ball lands on it).
    w.set_transform(shelf, Vec2::new(3.0, 2.0), 0.0).unwrap();
    w.create_shape(shelf, &ShapeDef::default(), &boxed(0.2, 0.5)).unwrap();
    assert!(!w.is_body_enabled(shelf).unwrap());
    w.set_body_enabled(shelf, true).unwrap();
    let hit = w.cast_ray_closest(Vec2::new(3.0, 5.0), Vec2::new(0.0, -4.0), Filter::default()).unwrap();
    assert!(hit.is_some_and(|h| (h.point.y - 2.5).abs() < 1e-3), "{hit:?}");
    let second =
        add(&mut w, BodyDef::dynamic(Vec2::new(3.5, 4.0)), &Shape::Circle(Circle::new(Vec2::ZERO, 0.2).unwrap()));
    run(&mut w, 90);
    assert!((w.position(second).unwrap().y - 2.3).abs() < 0.02, "{}", w.position(second).unwrap());
    // A disabled body can be destroyed, its handles stale afterwards.
    w.set_body_enabled(shelf, false).unwrap();
    w.destroy_body(shelf).unwrap();
    assert!(w.is_body_enabled(shelf).is_err());
}

#[test]
fn a_disabled_dynamic_body_keeps_its_state_and_its_joints_wait() {
    let mut w = world();
    ground(&mut w);
    let pivot = add(&mut w, BodyDef::fixed(Vec2::new(0.0, 5.0)), &boxed(0.1, 0.1));
    let bob = add(&mut w, BodyDef::dynamic(Vec2::new(1.0, 5.0)), &boxed(0.1, 0.1));
    w.create_joint(&JointDef::new(pivot, bob, JointKind::Revolute(RevoluteDef::new(Vec2::new(0.0, 5.0))))).unwrap();
    run(&mut w, 10);
    let (p, v) = (w.position(bob).unwrap(), w.linear_velocity(bob).unwrap());
    w.set_body_enabled(bob, false).unwrap();
    run(&mut w, 30);
    assert_eq!((w.position(bob).unwrap(), w.linear_velocity(bob).unwrap()), (p, v), "frozen while disabled");
    assert!(!w.is_awake(bob).unwrap());
    w.set_body_enabled(bob, true).unwrap();
    run(&mut w, 60);
    let anchors = w.joint_world_anchors(w.body_joints(bob).unwrap()[0]).unwrap();
    assert!(anchors.0.distance(anchors.1) < 0.01, "the pendulum swings on its pin again: {anchors:?}");
    let from_pin = w.position(bob).unwrap() - Vec2::new(0.0, 5.0);
    assert!(w.position(bob).unwrap().distance(p) > 0.1 && (from_pin.length() - 1.0).abs() < 0.05, "{from_pin}");
}

#[test]
fn sleep_on_demand_and_waking_by_touch() {
    // Eight stacks of two boxes put to sleep on demand, one call each; balls dropped on the
    // even ones wake those (and only those) islands.
    let mut w = world();
    ground(&mut w);
    let stacks: Vec<(BodyId, BodyId)> = (0..8)
        .map(|k| {
            let x = 3.0 * k as f32;
            let a = add(&mut w, BodyDef::dynamic(Vec2::new(x, 0.5)), &boxed(0.5, 0.5));
            (a, add(&mut w, BodyDef::dynamic(Vec2::new(x, 1.5)), &boxed(0.5, 0.5)))
        })
        .collect();
    run(&mut w, 5);
    for &(a, b) in &stacks {
        w.set_awake(a, false).unwrap();
        assert!(!w.is_awake(a).unwrap() && !w.is_awake(b).unwrap(), "the stack sleeps as one island");
    }
    run(&mut w, 10);
    for (k, _) in stacks.iter().enumerate().filter(|(k, _)| k % 2 == 0) {
        let ball = Shape::Circle(Circle::new(Vec2::ZERO, 0.2).unwrap());
        add(&mut w, BodyDef::dynamic(Vec2::new(3.0 * k as f32, 4.0)), &ball);
    }
    let mut woke = [false; 8];
    for _ in 0..60 {
        run(&mut w, 1);
        for (k, &(_, b)) in stacks.iter().enumerate() {
            woke[k] |= w.is_awake(b).unwrap();
        }
    }
    for (k, &woken) in woke.iter().enumerate() {
        assert_eq!(woken, k % 2 == 0, "stack {k}: woken {woken}");
    }
    let (a, _) = stacks[1];
    w.set_awake(a, true).unwrap();
    assert!(w.is_awake(a).unwrap());
}

#[test]
fn gravity_scale_damping_fixed_rotation_and_flags() {
    let mut w = world();
    let floating = add(&mut w, BodyDef::dynamic(Vec2::ZERO), &boxed(0.5, 0.5));
    let rising = add(&mut w, BodyDef::dynamic(Vec2::new(5.0, 0.0)), &boxed(0.5, 0.5));
    w.set_gravity_scale(floating, 0.0).unwrap();
    w.set_gravity_scale(rising, -1.0).unwrap();
    run(&mut w, 60);
    assert_eq!(w.position(floating).unwrap(), Vec2::ZERO);
    assert!((w.position(rising).unwrap().y - 5.0).abs() < 0.2, "{}", w.position(rising).unwrap());
    assert_eq!(w.gravity_scale(rising).unwrap(), -1.0);
    // Damping: v / (1 + h c) per sub-step.
    w.set_linear_velocity(floating, Vec2::new(10.0, 0.0)).unwrap();
    w.set_damping(floating, 2.0, 0.0).unwrap();
    run(&mut w, 60);
    let expected = 10.0 * (1.0f32 / (1.0 + DT / 4.0 * 2.0)).powi(240);
    assert!(
        (w.linear_velocity(floating).unwrap().x - expected).abs() < 1e-3,
        "{}",
        w.linear_velocity(floating).unwrap()
    );
    assert_eq!(w.damping(floating).unwrap(), (2.0, 0.0));
    // Fixed rotation: a torque does nothing, until released.
    w.set_fixed_rotation(floating, true).unwrap();
    w.apply_torque(floating, 100.0).unwrap();
    run(&mut w, 1);
    assert_eq!(w.angular_velocity(floating).unwrap(), 0.0);
    w.set_fixed_rotation(floating, false).unwrap();
    w.apply_torque(floating, 100.0).unwrap();
    run(&mut w, 1);
    assert!(w.angular_velocity(floating).unwrap() > 0.5);
    w.set_bullet(floating, true).unwrap();
    w.set_continuous(floating, false).unwrap();
    assert_eq!(w.continuous_flags(floating).unwrap(), (true, false));
    w.set_body_user_data(floating, 42).unwrap();
    let shape = w.body_shapes(floating).unwrap()[0];
    w.set_shape_user_data(shape, 7).unwrap();
    assert_eq!((w.body_user_data(floating).unwrap(), w.shape_user_data(shape).unwrap()), (42, 7));
}

#[test]
fn mass_data_overrides_and_densities() {
    let mut w = World::new(&WorldDef { gravity: Vec2::ZERO, ..WorldDef::default() }).unwrap();
    let b = add(&mut w, BodyDef::dynamic(Vec2::ZERO), &boxed(0.5, 0.5));
    let shape = w.body_shapes(b).unwrap()[0];
    let from_shapes = w.mass_data(b).unwrap();
    assert!((from_shapes.mass - 1.0).abs() < 1e-6 && (from_shapes.rotational_inertia - 1.0 / 6.0).abs() < 1e-6);
    w.set_shape_density(shape, 3.0).unwrap();
    assert!((w.mass(b).unwrap() - 3.0).abs() < 1e-5 && w.shape_density(shape).unwrap() == 3.0);
    // An override: a torque of 1 N·m for one step turns a body of inertia 2 at 0.5 rad/s².
    let data = BodyMassData { mass: 5.0, local_center: Vec2::new(0.1, 0.0), rotational_inertia: 2.0 };
    w.set_mass_data(b, data).unwrap();
    assert_eq!(w.mass_data(b).unwrap(), data);
    assert!((w.world_center(b).unwrap() - Vec2::new(0.1, 0.0)).length() < 1e-6);
    w.apply_torque(b, 1.0).unwrap();
    run(&mut w, 1);
    assert!((w.angular_velocity(b).unwrap() - 0.5 * DT).abs() < 1e-6, "{}", w.angular_velocity(b).unwrap());
    w.reset_mass_data(b).unwrap();
    assert!((w.mass(b).unwrap() - 3.0).abs() < 1e-5);
    // Refused values change nothing.
    for bad in [0.0, -1.0, f32::NAN, 1e30] {
        assert!(w.set_mass_data(b, BodyMassData { mass: bad, ..data }).is_err());
    }
    assert!(w.set_mass_data(b, BodyMassData { rotational_inertia: -1.0, ..data }).is_err());
    assert!(w.set_shape_density(shape, f32::INFINITY).is_err() && w.set_shape_density(shape, -1.0).is_err());
    assert!((w.mass(b).unwrap() - 3.0).abs() < 1e-5 && w.shape_density(shape).unwrap() == 3.0);
}

/// A platform 4 m wide moved along a path by `mover`, with a crate on it: where the crate ends
/// relative to the platform (meters).
fn ride(mover: fn(&mut World, BodyId, Vec2)) -> Vec2 {
    let mut w = world();
    let platform = add(&mut w, BodyDef::kinematic(Vec2::new(0.0, 1.0)), &boxed(2.0, 0.1));
    let crate_ = add(&mut w, BodyDef::dynamic(Vec2::new(0.0, 1.35)), &boxed(0.25, 0.25));
    run(&mut w, 30);
    for step in 0..180 {
        let t = (step + 1) as f32 * DT;
        // Sideways at most 3.4 m/s², within what friction (0.6 g) holds.
        let target = Vec2::new(1.5 * (1.5 * t).sin(), 1.0 + 0.5 * t);
        mover(&mut w, platform, target);
        w.step(DT, 4).unwrap();
    }
    w.position(crate_).unwrap() - w.position(platform).unwrap()
}

#[test]
fn a_platform_moved_by_target_transforms_carries_its_crate() {
    let carried = ride(|w, p, target| w.set_target_transform(p, target, 0.0, DT).unwrap());
    assert!(carried.x.abs() < 0.3 && (carried.y - 0.35).abs() < 0.02, "{carried}");
    // Teleported by set_transform instead, the platform leaves the crate behind.
    let left = ride(|w, p, target| w.set_transform(p, target, 0.0).unwrap());
    assert!(left.length() > 1.0, "{left}");
}

#[test]
fn target_transforms_turn_the_short_way_and_refuse_the_impossible() {
    let mut w = world();
    let k = add(&mut w, BodyDef { angle: 3.1, ..BodyDef::kinematic(Vec2::ZERO) }, &boxed(1.0, 0.1));
    w.set_target_transform(k, Vec2::new(1.0, 0.0), -3.1, 0.5).unwrap();
    let turn = 2.0 * std::f32::consts::PI - 6.2;
    assert!((w.angular_velocity(k).unwrap() - turn / 0.5).abs() < 1e-4, "{}", w.angular_velocity(k).unwrap());
    assert_eq!(w.linear_velocity(k).unwrap(), Vec2::new(2.0, 0.0));
    let before = w.state_checksum();
    assert!(w.set_target_transform(k, Vec2::NAN, 0.0, DT).is_err());
    assert!(w.set_target_transform(k, Vec2::ZERO, 0.0, 0.0).is_err());
    assert!(w.set_target_transform(k, Vec2::new(1e9, 0.0), 0.0, 1e-6).is_err());
    assert_eq!(w.state_checksum(), before);
}

/// One random control call on a random body of `bodies`; says what it called.
fn random_call(w: &mut World, rng: &mut ChaCha8Rng, bodies: &[BodyId]) -> String {
    let k = rng.random_range(0..bodies.len());
    let b = bodies[k];
    let types = [BodyType::Static, BodyType::Kinematic, BodyType::Dynamic];
    let call = rng.random_range(0..9);
    let result = match call {
        0 => w.set_body_type(b, types[rng.random_range(0..3)]),
        1 => w.set_body_enabled(b, rng.random_bool(0.6)),
        2 => w.set_awake(b, rng.random_bool(0.5)),
        3 => w.set_gravity_scale(b, rng.random_range(-1.0..2.0)),
        4 => w.set_fixed_rotation(b, rng.random_bool(0.3)),
        5 => w.set_damping(b, rng.random_range(0.0..1.0), rng.random_range(0.0..1.0)),
        6 => {
            let data = BodyMassData {
                mass: rng.random_range(0.1..5.0),
                local_center: Vec2::new(rng.random_range(-0.2..0.2), 0.0),
                rotational_inertia: rng.random_range(0.01..1.0),
            };
            w.set_mass_data(b, data)
        }
        // Kinematic bodies go where they are told, through walls too: they are moved slowly
        // (a few m/s), and fast velocities go to dynamic bodies only.
        7 => {
            let at = w.position(b).unwrap() + Vec2::new(rng.random_range(-0.05..0.05), rng.random_range(-0.05..0.05));
            w.set_target_transform(b, at, rng.random_range(-3.0..3.0), DT)
        }
        _ if w.body_type(b).unwrap() == BodyType::Dynamic => {
            w.set_linear_velocity(b, Vec2::new(rng.random_range(-30.0..30.0), rng.random_range(-30.0..30.0)))
        }
        _ => w.set_linear_velocity(b, Vec2::ZERO),
    };
    format!("body {k}: call {call} -> {result:?}, now {:?} at {}", w.body_type(b).unwrap(), w.position(b).unwrap())
}

/// A box of four static walls 1 m thick around [-5, 5] x [0, 10] with 12 bodies in it, run
/// for 300 steps with a random control call before most steps. Returns the checksums.
fn script(seed: u64) -> Vec<u64> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut w = World::new(&WorldDef { max_linear_speed: 200.0, ..WorldDef::default() }).unwrap();
    for (at, half) in [
        (Vec2::new(0.0, -0.5), Vec2::new(5.5, 0.5)),
        (Vec2::new(0.0, 10.5), Vec2::new(5.5, 0.5)),
        (Vec2::new(-5.5, 5.0), Vec2::new(0.5, 5.5)),
        (Vec2::new(5.5, 5.0), Vec2::new(0.5, 5.5)),
    ] {
        add(&mut w, BodyDef::fixed(at), &boxed(half.x, half.y));
    }
    let bodies: Vec<BodyId> = (0..12)
        .map(|k| {
            let at = Vec2::new(-4.0 + (k % 6) as f32 * 1.5, 1.0 + (k / 6) as f32 * 2.0);
            let shape =
                if k % 2 == 0 { boxed(0.3, 0.2) } else { Shape::Circle(Circle::new(Vec2::ZERO, 0.25).unwrap()) };
            add(&mut w, BodyDef::dynamic(at), &shape)
        })
        .collect();
    let (mut sums, mut log, mut inside) = (Vec::new(), Vec::new(), vec![true; bodies.len()]);
    for step in 0..300 {
        if rng.random_bool(0.7) {
            log.push(format!("step {step}: {}", random_call(&mut w, &mut rng, &bodies)));
        }
        w.step(DT, 4).unwrap();
        for (k, &b) in bodies.iter().enumerate() {
            let (p, v) = (w.position(b).unwrap(), w.linear_velocity(b).unwrap());
            assert!(p.is_finite() && v.is_finite(), "seed {seed} step {step}: {p} {v}");
            // Kinematic bodies go anywhere, and a body made dynamic inside a wall is pushed out
            // to either side; but a dynamic body inside the box never gets through a wall.
            let dynamic = w.body_type(b).unwrap() == BodyType::Dynamic;
            let through = p.x.abs() >= 6.0 || p.y <= -1.0 || p.y >= 11.0;
            let recent = &log[log.len().saturating_sub(12)..];
            assert!(
                !(dynamic && inside[k] && through),
                "seed {seed} step {step}: body {k} went through a wall to {p}; last calls:\n{}",
                recent.join("\n")
            );
            inside[k] = dynamic && p.x.abs() < 5.0 && p.y > 0.0 && p.y < 10.0;
        }
        sums.push(w.state_checksum());
    }
    sums
}

#[test]
fn random_control_scripts_keep_the_world_sound_and_deterministic() {
    for seed in 0..40 {
        let first = script(seed);
        if seed % 8 == 0 {
            assert_eq!(first, script(seed), "seed {seed}: bit-identical reruns");
        }
    }
}

/// The touching contacts between `body` and `other`'s shapes.
fn touching(w: &World, body: BodyId, other: BodyId) -> usize {
    let theirs = w.body_shapes(other).unwrap();
    w.body_contacts(body)
        .unwrap()
        .iter()
        .filter(|c| c.manifold.count > 0 && (theirs.contains(&c.shape_a) || theirs.contains(&c.shape_b)))
        .count()
}

#[test]
fn a_body_changed_from_dynamic_to_static_and_back_keeps_its_shapes_and_contacts() {
    let mut w = world();
    let floor = ground(&mut w);
    let crate_ = add(&mut w, BodyDef::dynamic(Vec2::new(1.0, 0.5)), &boxed(0.5, 0.5));
    w.create_shape(crate_, &ShapeDef::default(), &Shape::Circle(Circle::new(Vec2::new(0.0, 0.3), 0.2).unwrap()))
        .unwrap();
    run(&mut w, 60);
    let shapes = w.body_shapes(crate_).unwrap();
    let rest = w.position(crate_).unwrap();
    assert_eq!(shapes.len(), 2);
    assert_eq!(touching(&w, crate_, floor), 1, "resting on the ground");
    for round in 0..3 {
        w.set_body_type(crate_, BodyType::Static).unwrap();
        assert_eq!(w.body_shapes(crate_).unwrap(), shapes, "round {round}: the same shape handles");
        let held = w.position(crate_).unwrap();
        run(&mut w, 10);
        // Static against static: no contact, and it does not move.
        assert_eq!(touching(&w, crate_, floor), 0);
        assert_eq!(w.position(crate_).unwrap(), held);
        w.set_body_type(crate_, BodyType::Dynamic).unwrap();
        assert_eq!(w.body_shapes(crate_).unwrap(), shapes, "round {round}: the same shape handles");
        assert!((w.mass(crate_).unwrap() - (1.0 + std::f32::consts::PI * 0.04)).abs() < 1e-4);
        w.step(DT, 4).unwrap();
        assert_eq!(touching(&w, crate_, floor), 1, "round {round}: touching the ground again after one step");
        for step in 0..120 {
            w.step(DT, 4).unwrap();
            let p = w.position(crate_).unwrap();
            // It rests where it rested: not a fall, not a jump (to 0.1 mm).
            assert!((p - rest).length() < 1e-4, "round {round} step {step}: at {p}, rested at {rest}");
            assert_eq!(touching(&w, crate_, floor), 1);
        }
    }
    // Still a dynamic body: a shove moves it along the ground.
    w.set_linear_velocity(crate_, Vec2::new(2.0, 0.0)).unwrap();
    run(&mut w, 60);
    let p = w.position(crate_).unwrap();
    assert!(p.x > rest.x + 0.1 && (p.y - rest.y).abs() < 1e-3, "{p}");
}

#[test]
fn a_disabled_body_comes_back_where_it_was() {
    let mut w = world();
    let floor = ground(&mut w);
    let resting = add(&mut w, BodyDef::dynamic(Vec2::new(-3.0, 0.5)), &boxed(0.5, 0.5));
    let flying = add(
        &mut w,
        BodyDef {
            angle: 0.3,
            linear_velocity: Vec2::new(1.0, 4.0),
            angular_velocity: 2.0,
            ..BodyDef::dynamic(Vec2::new(3.0, 4.0))
        },
        &boxed(0.4, 0.2),
    );
    run(&mut w, 60);
    w.set_linear_velocity(flying, Vec2::new(1.0, 4.0)).unwrap();
    w.set_angular_velocity(flying, 2.0).unwrap();
    let rest = w.position(resting).unwrap();
    let before =
        [resting, flying].map(|b| (w.transform(b).unwrap(), w.angle(b).unwrap(), w.linear_velocity(b).unwrap()));
    for b in [resting, flying] {
        w.set_body_enabled(b, false).unwrap();
    }
    // A ball dropped meanwhile lands on the ground, through where the resting box was.
    let ball =
        add(&mut w, BodyDef::dynamic(Vec2::new(-3.0, 3.0)), &Shape::Circle(Circle::new(Vec2::ZERO, 0.2).unwrap()));
    run(&mut w, 90);
    assert!(w.position(ball).unwrap().y < 0.25);
    w.destroy_body(ball).unwrap();
    for b in [resting, flying] {
        w.set_body_enabled(b, true).unwrap();
    }
    let after =
        [resting, flying].map(|b| (w.transform(b).unwrap(), w.angle(b).unwrap(), w.linear_velocity(b).unwrap()));
    // Bit for bit: position, rotation, angle and velocity.
    for (k, (a, b)) in before.iter().zip(&after).enumerate() {
        assert_eq!(a.0.p.to_array().map(f32::to_bits), b.0.p.to_array().map(f32::to_bits), "body {k}");
        assert_eq!(
            [a.0.q.c.to_bits(), a.0.q.s.to_bits(), a.1.to_bits()],
            [b.0.q.c.to_bits(), b.0.q.s.to_bits(), b.1.to_bits()]
        );
        assert_eq!(a.2, b.2, "body {k}");
    }
    // Then it behaves normally: the resting box touches the ground again and stays, the
    // flying one flies on, lands and settles on the ground.
    w.step(DT, 4).unwrap();
    assert_eq!(touching(&w, resting, floor), 1);
    assert!(w.position(flying).unwrap().y > before[1].0.p.y, "it goes on rising");
    run(&mut w, 240);
    assert!((w.position(resting).unwrap() - rest).length() < 1e-4, "{}", w.position(resting).unwrap());
    let landed = w.position(flying).unwrap();
    assert!(touching(&w, flying, floor) == 1 && landed.y < 0.45 && landed.x > 3.0, "{landed}");
    assert!(w.linear_velocity(flying).unwrap().length() < 0.01);
}

/// A smooth path for a platform: at time `t` (s), the offset from its start (meters), a sum of
/// three sines per axis with seeded frequencies and phases, scaled so that the sideways
/// acceleration stays within `side` m/s² and the vertical within `up` m/s² (each sine's
/// amplitude times its frequency squared adds up to at most the bound).
struct Path {
    x: [(f32, f32, f32); 3],
    y: [(f32, f32, f32); 3],
}

impl Path {
    fn new(rng: &mut ChaCha8Rng, side: f32, up: f32) -> Path {
        let mut axis = |bound: f32| {
            let mut terms = [(0.0, 0.0, 0.0); 3];
            for term in &mut terms {
                let omega = rng.random_range(0.5f32..3.0);
                let phase = rng.random_range(0.0f32..std::f32::consts::TAU);
                // A third of the bound each: amplitude * omega² = bound / 3.
                *term = (bound / 3.0 / (omega * omega), omega, phase);
            }
            terms
        };
        Path { x: axis(side), y: axis(up) }
    }

    /// The offset at time t, minus its value at t = 0 (the platform starts where it is).
    fn at(&self, t: f32) -> Vec2 {
        let f =
            |terms: &[(f32, f32, f32); 3], t: f32| terms.iter().map(|&(a, w, p)| a * (w * t + p).sin()).sum::<f32>();
        Vec2::new(f(&self.x, t) - f(&self.x, 0.0), f(&self.y, t) - f(&self.y, 0.0))
    }

    /// The velocity at time t (to start the platform moving as the path does).
    fn velocity(&self, t: f32) -> Vec2 {
        let f = |terms: &[(f32, f32, f32); 3]| terms.iter().map(|&(a, w, p)| a * w * (w * t + p).cos()).sum::<f32>();
        Vec2::new(f(&self.x), f(&self.y))
    }
}

/// A crate on a 4 m platform moved by `set_target_transform` along a seeded path for `seconds`:
/// the largest distance (meters) between where the crate is on the platform and where it was
/// when the ride began, over every step.
fn creep(seed: u64, side: f32, up: f32, seconds: f32) -> f32 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let path = Path::new(&mut rng, side, up);
    let mut w = world();
    let start = Vec2::new(0.0, 1.0);
    let platform = add(&mut w, BodyDef::kinematic(start), &boxed(2.0, 0.1));
    let crate_ = add(&mut w, BodyDef::dynamic(Vec2::new(rng.random_range(-1.0f32..1.0), 1.35)), &boxed(0.25, 0.25));
    // The crate settles on the platform, which then moves off at the path's velocity (the
    // ride starts smoothly: no jolt at the first step).
    run(&mut w, 60);
    let v0 = path.velocity(0.0);
    w.set_linear_velocity(platform, v0).unwrap();
    w.set_linear_velocity(crate_, v0).unwrap();
    let on = w.position(crate_).unwrap() - w.position(platform).unwrap();
    let mut worst = 0.0f32;
    let steps = (seconds / DT) as usize;
    for step in 0..steps {
        let t = (step + 1) as f32 * DT;
        w.set_target_transform(platform, start + path.at(t), 0.0, DT).unwrap();
        w.step(DT, 4).unwrap();
        let p = w.position(platform).unwrap();
        assert!((p - (start + path.at(t))).length() < 1e-4, "seed {seed}: the platform is off its path");
        let drift = (w.position(crate_).unwrap() - p) - on;
        worst = worst.max(drift.length());
    }
    worst
}

/// The largest creep (meters) over 40 seeded 6 s rides with these acceleration bounds, and
/// its seed.
fn worst_creep(side: f32, up: f32) -> (f32, u64) {
    let mut worst = (0.0f32, 0);
    for seed in 0..40u64 {
        let drift = creep(seed, side, up, 6.0);
        if drift > worst.0 {
            worst = (drift, seed);
        }
    }
    eprintln!("{side} m/s² sideways, {up} m/s² vertical: worst {:.3} mm (seed {})", worst.0 * 1e3, worst.1);
    worst
}

#[test]
fn a_platform_moved_by_target_transforms_carries_its_crate_within_1_mm() {
    // Friction (0.6) holds the crate while the platform accelerates sideways at most
    // 0.6 * (10 - vertical) m/s²: 4.2 m/s² at the largest vertical acceleration here. Every
    // step checked, 40 seeded paths of 6 s each; measured worst 0.61 mm at 2 m/s² sideways
    // with 1 m/s² up and down, 0.16 mm at 1 m/s² sideways with 3 m/s².
    for (side, up) in [(2.0, 1.0), (1.0, 3.0), (2.0, 0.0)] {
        let (worst, seed) = worst_creep(side, up);
        assert!(worst < 1e-3, "{side} m/s² sideways, {up} vertical: the crate moved {} mm (seed {seed})", worst * 1e3);
    }
    // Known limit: with both 2 m/s² sideways and 3 m/s² up and down the crate creeps up to
    // about 3 mm in 6 s (2.8 mm at seed 7, 3.1 mm at seed 13), more with more sub-steps (7 mm
    // at 8, 11 mm at 16 on seed 7), none at 2. The platform's velocity changes once a step:
    // when it drops faster, the crate is left a little above it for the first sub-steps of
    // the step, until gravity closes the gap, and a contact without load has no friction, so
    // the crate slips by the step's change of sideways velocity for those sub-steps.
    // Friction has no anchor that would take the slip back. Bounded here so that it does not
    // grow unnoticed.
    let (worst, seed) = worst_creep(2.0, 3.0);
    assert!(worst < 5e-3, "2 m/s² sideways, 3 vertical: the crate moved {} mm (seed {seed})", worst * 1e3);
}
