//! Handles and the life of objects: stale handles are refused even after their slot is
//! reused, destroying a body takes its shapes and contacts with it and wakes what it touched;
//! sleeping islands wake by contact, by the user's pushes and by `wake_body`, and a body that
//! may not sleep keeps its island awake.

mod world_common;

use impact2d::*;
use world_common::*;

fn is_stale<T: std::fmt::Debug>(result: Result<T, WorldError>, kind: &str) -> bool {
    matches!(result, Err(WorldError::StaleHandle { kind: k, .. }) if k == kind)
}

#[test]
fn destroyed_handles_are_refused_and_recycled_slots_never_answer_them() {
    let mut world = world();
    let old = world.create_body(&BodyDef::dynamic(Vec2::new(1.0, 2.0))).unwrap();
    let old_shape = world.create_shape(old, &ShapeDef::default(), &circle(0.5)).unwrap();
    world.destroy_body(old).unwrap();
    assert!(is_stale(world.position(old), "body"));
    assert!(is_stale(world.shape_body(old_shape), "shape"), "the body's shapes went with it");
    assert_eq!((world.body_count(), world.shape_count()), (0, 0));
    // The slots are reused with new generations.
    let new = world.create_body(&BodyDef::dynamic(Vec2::new(7.0, 8.0))).unwrap();
    let new_shape = world.create_shape(new, &ShapeDef::default(), &boxed(0.5, 0.5)).unwrap();
    assert_eq!((new.index(), new_shape.index()), (old.index(), old_shape.index()));
    assert_ne!(new, old);
    assert_ne!(new_shape, old_shape);
    assert_eq!(world.position(new).unwrap(), Vec2::new(7.0, 8.0));
    assert_eq!(world.shape_body(new_shape).unwrap(), new);
    // Every kind of call with an old handle fails and changes nothing.
    assert!(is_stale(world.position(old), "body"));
    assert!(is_stale(world.set_linear_velocity(old, Vec2::X), "body"));
    assert!(is_stale(world.set_transform(old, Vec2::ZERO, 0.0), "body"));
    assert!(is_stale(world.apply_linear_impulse_to_center(old, Vec2::X), "body"));
    assert!(is_stale(world.wake_body(old), "body"));
    assert!(is_stale(world.create_shape(old, &ShapeDef::default(), &circle(1.0)), "body"));
    assert!(is_stale(world.destroy_body(old), "body"));
    assert!(is_stale(world.shape_geometry(old_shape), "shape"));
    assert!(is_stale(world.set_shape_friction(old_shape, 0.1), "shape"));
    assert!(is_stale(world.destroy_shape(old_shape), "shape"));
    assert_eq!(world.linear_velocity(new).unwrap(), Vec2::ZERO);
    assert_eq!(world.shape_friction(new_shape).unwrap(), 0.6);
    assert!(matches!(world.shape_geometry(new_shape).unwrap(), Shape::Polygon(_)));
    // The error names what was wrong.
    let message = world.position(old).unwrap_err().to_string();
    assert_eq!(message, format!("stale body handle (index {}, generation {})", old.index(), old.generation()));
    // A destroyed shape of a live body: its handle is stale, the body lives on.
    world.destroy_shape(new_shape).unwrap();
    assert!(is_stale(world.shape_friction(new_shape), "shape"));
    assert_eq!(world.body_shapes(new).unwrap(), vec![]);
    let again = world.create_shape(new, &ShapeDef::default(), &circle(0.25)).unwrap();
    assert_eq!(again.index(), new_shape.index());
    assert!(is_stale(world.shape_friction(new_shape), "shape"));
    assert_eq!(world.body_shapes(new).unwrap(), vec![again]);
}

/// Two boxes stacked on the ground, stepped until asleep: (ground shape, bottom, top).
fn sleeping_stack(world: &mut World) -> (ShapeId, BodyId, BodyId) {
    let ground = ground(world);
    let ground_shape = world.body_shapes(ground).unwrap()[0];
    let bottom = dynamic(world, Vec2::new(0.0, 0.5), &boxed(0.5, 0.5), &ShapeDef::default());
    let top = dynamic(world, Vec2::new(0.0, 1.5), &boxed(0.5, 0.5), &ShapeDef::default());
    run(world, 120);
    assert!(!world.is_awake(bottom).unwrap() && !world.is_awake(top).unwrap(), "the stack sleeps");
    (ground_shape, bottom, top)
}

#[test]
fn destroying_a_body_removes_its_shapes_and_contacts_and_wakes_what_it_touched() {
    let mut world = world();
    let (ground_shape, bottom, top) = sleeping_stack(&mut world);
    let (bottom_shape, top_shape) = (world.body_shapes(bottom).unwrap()[0], world.body_shapes(top).unwrap()[0]);
    assert_eq!((world.shape_count(), world.touching_contact_count()), (3, 2));
    world.destroy_body(bottom).unwrap();
    assert!(world.is_awake(top).unwrap(), "the box on top wakes at once");
    assert_eq!(world.shape_count(), 2);
    assert_eq!(world.touching_contact_count(), 0);
    assert!(world.body_contacts(top).unwrap().is_empty());
    world.step(DT, SUBSTEPS).unwrap();
    let mut ends = [
        ContactEndEvent { shape_a: ground_shape.min(bottom_shape), shape_b: ground_shape.max(bottom_shape) },
        ContactEndEvent { shape_a: bottom_shape.min(top_shape), shape_b: bottom_shape.max(top_shape) },
    ];
    ends.sort_by_key(|e| (e.shape_a, e.shape_b));
    assert_eq!(world.contact_end_events(), &ends[..]);
    // The top box falls a meter onto the ground and rests there.
    run(&mut world, 90);
    assert!((world.position(top).unwrap().y - 0.5).abs() < 0.01);
    assert_eq!(world.touching_contact_count(), 1);
    // Destroying a shape does the same for its contacts.
    world.run_until_asleep(top);
    world.destroy_shape(ground_shape).unwrap();
    assert!(world.is_awake(top).unwrap());
    world.step(DT, SUBSTEPS).unwrap();
    assert_eq!(world.contact_end_events().len(), 1);
    // Free fall for 61 steps of 4 sub-steps: symplectic Euler drops g h² n (n + 1) / 2.
    run(&mut world, 60);
    let (h, n) = (DT / SUBSTEPS as f32, 61.0 * SUBSTEPS as f32);
    let want = 0.5 - 10.0 * h * h * n * (n + 1.0) / 2.0;
    let y = world.position(top).unwrap().y;
    assert!((y - want).abs() < 0.01, "nothing holds the box up: y {y}, want {want}");
}

trait RunUntilAsleep {
    fn run_until_asleep(&mut self, body: BodyId);
}

impl RunUntilAsleep for World {
    fn run_until_asleep(&mut self, body: BodyId) {
        for _ in 0..600 {
            if !self.is_awake(body).unwrap() {
                return;
            }
            self.step(DT, SUBSTEPS).unwrap();
        }
        panic!("{body} never slept");
    }
}

#[test]
fn a_moving_body_wakes_a_sleeping_island_by_touching_it() {
    let mut world = world();
    let (_, bottom, top) = sleeping_stack(&mut world);
    let bullet = world
        .create_body(&BodyDef { linear_velocity: Vec2::new(8.0, 0.0), ..BodyDef::dynamic(Vec2::new(-4.0, 0.4)) })
        .unwrap();
    // Frictionless, so it slides at 8 m/s instead of slowing as it starts to roll.
    world.create_shape(bullet, &ShapeDef { friction: 0.0, ..ShapeDef::default() }, &circle(0.3)).unwrap();
    let mut woke_at = None;
    for step in 0..60 {
        world.step(DT, SUBSTEPS).unwrap();
        if woke_at.is_none() && world.is_awake(bottom).unwrap() {
            woke_at = Some(step);
            assert!(world.is_awake(top).unwrap(), "the whole island wakes");
        }
    }
    // The ball reaches the box after about 3.2 m / 8 m/s = 0.4 s = 24 steps.
    let step = woke_at.expect("the stack woke");
    assert!((20..=26).contains(&step), "woke at step {step}");
    assert!(world.position(bottom).unwrap().x > 0.05, "the hit pushed the box");
}

#[test]
fn user_pushes_and_wake_body_wake_a_sleeping_island() {
    type Push = fn(&mut World, BodyId);
    let pushes: [(&str, Push); 8] = [
        ("set_linear_velocity", |w, b| w.set_linear_velocity(b, Vec2::new(1.0, 0.0)).unwrap()),
        ("set_angular_velocity", |w, b| w.set_angular_velocity(b, 1.0).unwrap()),
        ("apply_force", |w, b| w.apply_force(b, Vec2::new(100.0, 0.0), Vec2::new(0.0, 1.0)).unwrap()),
        ("apply_torque", |w, b| w.apply_torque(b, 50.0).unwrap()),
        ("apply_linear_impulse", |w, b| w.apply_linear_impulse_to_center(b, Vec2::new(2.0, 0.0)).unwrap()),
        ("apply_angular_impulse", |w, b| w.apply_angular_impulse(b, 1.0).unwrap()),
        ("set_transform", |w, b| w.set_transform(b, Vec2::new(0.3, 1.5), 0.0).unwrap()),
        ("wake_body", |w, b| w.wake_body(b).unwrap()),
    ];
    for (name, push) in pushes {
        let mut world = world();
        let (_, bottom, top) = sleeping_stack(&mut world);
        let (p0, a0) = (world.position(top).unwrap(), world.angle(top).unwrap());
        push(&mut world, top);
        assert!(world.is_awake(top).unwrap() && world.is_awake(bottom).unwrap(), "{name} wakes the island");
        assert_eq!(world.awake_body_count(), 2, "{name}");
        world.step(DT, SUBSTEPS).unwrap();
        let (p1, a1) = (world.position(top).unwrap(), world.angle(top).unwrap());
        if name == "wake_body" {
            assert!((p1 - p0).length() < 1e-3 && (a1 - a0).abs() < 1e-3, "{name} alone does not move it");
        } else {
            assert!((p1 - p0).length() > 1e-3 || (a1 - a0).abs() > 1e-3, "{name} moved it: {p0} -> {p1}");
        }
        // Left alone it falls asleep again.
        world.run_until_asleep(top);
        assert!(!world.is_awake(bottom).unwrap(), "{name}");
    }
}

#[test]
fn a_body_that_may_not_sleep_keeps_its_island_awake() {
    let mut world = world();
    ground(&mut world);
    let bottom = world.create_body(&BodyDef { sleep_allowed: false, ..BodyDef::dynamic(Vec2::new(0.0, 0.5)) }).unwrap();
    world.create_shape(bottom, &ShapeDef::default(), &boxed(0.5, 0.5)).unwrap();
    let top = dynamic(&mut world, Vec2::new(0.0, 1.5), &boxed(0.5, 0.5), &ShapeDef::default());
    let apart = dynamic(&mut world, Vec2::new(5.0, 0.5), &boxed(0.5, 0.5), &ShapeDef::default());
    run(&mut world, 300);
    assert!(world.is_awake(bottom).unwrap() && world.is_awake(top).unwrap(), "5 s at rest, still awake");
    assert!(!world.is_awake(apart).unwrap(), "a box of another island sleeps");
    // Allowed again, the island sleeps after its rest time (0.5 s).
    world.set_sleep_allowed(bottom, true).unwrap();
    run(&mut world, 40);
    assert!(!world.is_awake(bottom).unwrap() && !world.is_awake(top).unwrap());
    // Forbidden again, it wakes at once.
    world.set_sleep_allowed(bottom, false).unwrap();
    assert!(world.is_awake(top).unwrap());
    // A world without sleep keeps everything awake.
    world.set_sleep_enabled(false);
    assert!(world.is_awake(apart).unwrap());
    run(&mut world, 120);
    assert_eq!(world.awake_body_count(), 3);
}

#[test]
fn a_body_made_asleep_stays_asleep_with_its_shapes_until_touched() {
    let mut world = world();
    ground(&mut world);
    // Made asleep in mid air: it hangs there, not solved, until something touches it.
    let sleeper = world.create_body(&BodyDef { awake: false, ..BodyDef::dynamic(Vec2::new(0.0, 3.0)) }).unwrap();
    world.create_shape(sleeper, &ShapeDef::default(), &boxed(0.5, 0.5)).unwrap();
    assert!(!world.is_awake(sleeper).unwrap(), "attaching a shape does not wake it");
    assert_eq!(world.awake_body_count(), 0);
    run(&mut world, 60);
    assert_eq!(world.position(sleeper).unwrap(), Vec2::new(0.0, 3.0));
    // A ball dropped from above lands on it and wakes it; both fall to the ground.
    let ball = dynamic(&mut world, Vec2::new(0.0, 5.0), &circle(0.3), &ShapeDef::default());
    let mut woke = None;
    for step in 0..120 {
        world.step(DT, SUBSTEPS).unwrap();
        if woke.is_none() && world.is_awake(sleeper).unwrap() {
            woke = Some(step);
        }
    }
    // The ball's bottom falls 1.2 m to the box's top: 0.49 s, about 30 steps.
    let step = woke.expect("the ball woke the box");
    assert!((26..=32).contains(&step), "woke at step {step}");
    assert!((world.position(sleeper).unwrap().y - 0.5).abs() < 0.02, "the box fell to the ground");
    assert!(world.position(ball).unwrap().y > 1.0);
}
