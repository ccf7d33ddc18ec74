//! Events: contact begin and end exactly once per touch, hit events only above the approach
//! speed threshold, sensor begin and end once per entry and exit, all in a sorted order.

mod world_common;

use impact2d::*;
use world_common::*;

/// Every event list of the last step, checked sorted and free of duplicates.
fn checked_counts(world: &World) -> (usize, usize, usize) {
    let begins = world.contact_begin_events();
    let ends = world.contact_end_events();
    let hits = world.contact_hit_events();
    for w in begins.windows(2) {
        assert!((w[0].shape_a, w[0].shape_b) < (w[1].shape_a, w[1].shape_b), "begin events out of order");
    }
    for w in ends.windows(2) {
        assert!((w[0].shape_a, w[0].shape_b) < (w[1].shape_a, w[1].shape_b), "end events out of order");
    }
    for w in hits.windows(2) {
        assert!((w[0].shape_a, w[0].shape_b) < (w[1].shape_a, w[1].shape_b), "hit events out of order");
    }
    for e in begins {
        assert!(e.shape_a < e.shape_b);
    }
    (begins.len(), ends.len(), hits.len())
}

#[test]
fn a_box_dropped_lifted_and_destroyed_begins_and_ends_once_each_time() {
    let mut world = world();
    let ground = ground(&mut world);
    let ground_shape = world.body_shapes(ground).unwrap()[0];
    let body = dynamic(&mut world, Vec2::new(0.0, 2.0), &boxed(0.5, 0.5), &ShapeDef::default());
    let shape = world.body_shapes(body).unwrap()[0];
    let (mut begins, mut ends) = (0, 0);
    let mut count = |world: &World| {
        let (b, e, _) = checked_counts(world);
        for ev in world.contact_begin_events() {
            assert_eq!((ev.shape_a, ev.shape_b), (ground_shape.min(shape), ground_shape.max(shape)));
        }
        begins += b;
        ends += e;
    };
    // Falls 1.5 m, lands, rests and sleeps.
    for _ in 0..150 {
        world.step(DT, SUBSTEPS).unwrap();
        count(&world);
    }
    assert!(!world.is_awake(body).unwrap(), "the box rests and sleeps");
    // Lifted 10 m up: the touch ends once; it falls back and touches once more.
    world.set_transform(body, Vec2::new(0.0, 10.0), 0.0).unwrap();
    world.step(DT, SUBSTEPS).unwrap();
    count(&world);
    assert_eq!(world.contact_end_events().len(), 1, "the lift ends the touch in the next step");
    for _ in 0..150 {
        world.step(DT, SUBSTEPS).unwrap();
        count(&world);
    }
    // Destroyed while resting: one end event at the next step.
    world.destroy_body(body).unwrap();
    world.step(DT, SUBSTEPS).unwrap();
    count(&world);
    assert_eq!(world.contact_end_events(), &[ContactEndEvent { shape_a: ground_shape, shape_b: shape }]);
    for _ in 0..10 {
        world.step(DT, SUBSTEPS).unwrap();
        count(&world);
    }
    assert_eq!((begins, ends), (2, 2));
}

#[test]
fn a_bouncing_ball_reports_one_begin_one_end_and_one_hit_per_bounce() {
    let mut world = world();
    ground(&mut world);
    let r = 0.25;
    let def = ShapeDef { restitution: 1.0, friction: 0.0, ..ShapeDef::default() };
    let ball = dynamic(&mut world, Vec2::new(0.0, 2.0 + r), &circle(r), &def);
    let expected_speed = (2.0f32 * 10.0 * 2.0).sqrt();
    let (mut begins, mut ends, mut hits, mut bounces) = (0, 0, 0, 0);
    let mut vy_before = 0.0f32;
    for _ in 0..600 {
        world.step(DT, SUBSTEPS).unwrap();
        let (b, e, h) = checked_counts(&world);
        begins += b;
        ends += e;
        hits += h;
        for hit in world.contact_hit_events() {
            assert!(
                (hit.approach_speed - expected_speed).abs() < 0.05 * expected_speed,
                "hit at {} m/s, a fall from 2 m gives {expected_speed}",
                hit.approach_speed
            );
            assert!((hit.normal - Vec2::Y).length() < 1e-4, "normal {}", hit.normal);
            // The point is midway between the surfaces at the start of the step; at 6.3 m/s
            // the ball moves 10.5 cm per step, more than the speculative distance, so it may
            // have sunk in by up to that much (continuous collision is a separate stage).
            assert!(hit.point.y.abs() < 0.06 && hit.point.x.abs() < 1e-4, "hit point {}", hit.point);
        }
        let vy = world.linear_velocity(ball).unwrap().y;
        if vy_before < 0.0 && vy > 0.0 {
            bounces += 1;
        }
        vy_before = vy;
    }
    // A fall from 2 m takes 0.632 s: about 8 bounces in 10 s. The ball is in the air at the
    // end (a touch lasts one step), so every begin has had its end.
    println!("{bounces} bounces, {begins} begins, {ends} ends, {hits} hits");
    assert!(bounces >= 7, "{bounces} bounces");
    let open = usize::from(world.touching_contact_count() > 0);
    assert_eq!((begins, ends + open, hits), (bounces + open, bounces + open, bounces));
}

/// Drops a unit box from `height` (meters, its bottom above the ground) and returns the hit
/// events of the whole fall and rest.
fn hits_of_drop(height: f32) -> Vec<ContactHitEvent> {
    let mut world = world();
    ground(&mut world);
    dynamic(&mut world, Vec2::new(0.0, 0.5 + height), &boxed(0.5, 0.5), &ShapeDef::default());
    let mut hits = Vec::new();
    for _ in 0..120 {
        world.step(DT, SUBSTEPS).unwrap();
        hits.extend_from_slice(world.contact_hit_events());
    }
    hits
}

#[test]
fn hit_events_fire_only_above_the_approach_speed_threshold() {
    // The default threshold is 1 m/s: a fall of 2 cm lands at 0.63 m/s, a fall of 1 m at 4.5.
    let threshold = impact2d::settings::DEFAULT_HIT_EVENT_THRESHOLD;
    assert_eq!(threshold, 1.0);
    assert!(hits_of_drop(0.02).is_empty(), "a slow landing is not a hit");
    let hits = hits_of_drop(1.0);
    assert_eq!(hits.len(), 1, "{hits:?}");
    let want = (2.0f32 * 10.0 * 1.0).sqrt();
    assert!((hits[0].approach_speed - want).abs() < 0.05 * want, "{hits:?}");
    // A higher threshold in the world definition silences the 4.5 m/s landing.
    let mut world = World::new(&WorldDef { hit_event_threshold: 5.0, ..WorldDef::default() }).unwrap();
    ground(&mut world);
    dynamic(&mut world, Vec2::new(0.0, 1.5), &boxed(0.5, 0.5), &ShapeDef::default());
    for _ in 0..120 {
        world.step(DT, SUBSTEPS).unwrap();
        assert!(world.contact_hit_events().is_empty());
    }
    // Shapes may turn events off (a contact reports when either shape asks).
    let mut world = world_common::world();
    let quiet = ShapeDef { enable_hit_events: false, enable_contact_events: false, ..ShapeDef::default() };
    let floor = world.create_body(&BodyDef::fixed(Vec2::new(0.0, -1.0))).unwrap();
    world.create_shape(floor, &quiet, &boxed(100.0, 1.0)).unwrap();
    let body = dynamic(&mut world, Vec2::new(0.0, 1.5), &boxed(0.5, 0.5), &quiet);
    for _ in 0..120 {
        world.step(DT, SUBSTEPS).unwrap();
        assert_eq!(checked_counts(&world), (0, 0, 0), "events are off for the box's contacts");
    }
    assert_eq!(world.touching_contact_count(), 1);
    assert!((world.position(body).unwrap().y - 0.5).abs() < 0.01);
}

#[test]
fn sensor_reports_each_entry_and_exit_once() {
    let mut world = world_without_gravity();
    let gate = world.create_body(&BodyDef::fixed(Vec2::ZERO)).unwrap();
    let sensor = world.create_shape(gate, &ShapeDef { sensor: true, ..ShapeDef::default() }, &boxed(1.0, 1.0)).unwrap();
    let r = 0.25;
    let ball = world
        .create_body(&BodyDef { linear_velocity: Vec2::new(3.0, 0.0), ..BodyDef::dynamic(Vec2::new(-3.0, 0.0)) })
        .unwrap();
    let visitor = world.create_shape(ball, &ShapeDef::default(), &circle(r)).unwrap();
    let overlaps = |x: f32| x + r >= -1.0 && x - r <= 1.0;
    let (mut begins, mut ends) = (0, 0);
    let mut inside = false;
    for step in 0..240 {
        if step == 120 {
            // Back the other way.
            world.set_linear_velocity(ball, Vec2::new(-3.0, 0.0)).unwrap();
        }
        // Sensor events come from the poses at the start of the step.
        let x = world.position(ball).unwrap().x;
        world.step(DT, SUBSTEPS).unwrap();
        let event = SensorBeginEvent { sensor, visitor };
        let now = overlaps(x);
        let want: Vec<_> = if now && !inside { vec![event] } else { vec![] };
        assert_eq!(world.sensor_begin_events(), &want[..], "x {x}");
        let end = SensorEndEvent { sensor, visitor };
        let want: Vec<_> = if !now && inside { vec![end] } else { vec![] };
        assert_eq!(world.sensor_end_events(), &want[..], "x {x}");
        begins += world.sensor_begin_events().len();
        ends += world.sensor_end_events().len();
        inside = now;
        // The sensor does not collide: the ball keeps its speed.
        assert!((world.linear_velocity(ball).unwrap().x.abs() - 3.0).abs() < 1e-6);
        assert!(world.contact_begin_events().is_empty());
    }
    assert_eq!((begins, ends), (2, 2));
}

#[test]
fn many_simultaneous_landings_report_sorted_events_once_each() {
    let mut world = world();
    let ground = ground(&mut world);
    let ground_shape = world.body_shapes(ground).unwrap()[0];
    // Created right to left so that creation order is not handle order along x.
    let mut shapes = Vec::new();
    for i in (0..40).rev() {
        let body = dynamic(&mut world, Vec2::new(-40.0 + 2.0 * i as f32, 1.0), &boxed(0.5, 0.5), &ShapeDef::default());
        shapes.push(world.body_shapes(body).unwrap()[0]);
    }
    shapes.sort();
    let mut landed = Vec::new();
    for _ in 0..60 {
        world.step(DT, SUBSTEPS).unwrap();
        checked_counts(&world);
        landed.extend(world.contact_begin_events().iter().map(|e| (e.shape_a, e.shape_b)));
        assert!(world.contact_end_events().is_empty());
    }
    let want: Vec<_> = shapes.iter().map(|&s| (ground_shape.min(s), ground_shape.max(s))).collect();
    assert_eq!(landed, want, "one begin per box, all in one step, in handle order");
}

#[test]
fn begins_and_ends_alternate_per_pair_through_destroy_and_create_churn() {
    use std::collections::BTreeSet;
    let mut world = world();
    ground(&mut world);
    let mut bodies = Vec::new();
    let mut touching: BTreeSet<(ShapeId, ShapeId)> = BTreeSet::new();
    let (mut begins, mut ends, mut apart) = (0, 0, 0);
    for step in 0..400 {
        if step % 8 == 0 && step < 320 {
            let x = -3.0 + (step % 7) as f32;
            let shape = if step % 16 == 0 { boxed(0.4, 0.3) } else { circle(0.35) };
            let def = ShapeDef { restitution: 0.3, ..ShapeDef::default() };
            bodies.push(dynamic(&mut world, Vec2::new(x, 6.0), &shape, &def));
        }
        if step % 24 == 23 {
            // The oldest body still around goes.
            world.destroy_body(bodies.remove(0)).unwrap();
        }
        world.step(DT, SUBSTEPS).unwrap();
        checked_counts(&world);
        for e in world.contact_end_events() {
            assert!(touching.remove(&(e.shape_a, e.shape_b)), "step {step}: end without begin {e:?}");
            ends += 1;
        }
        for e in world.contact_begin_events() {
            assert!(touching.insert((e.shape_a, e.shape_b)), "step {step}: second begin {e:?}");
            begins += 1;
        }
        // The events add up to what touches now; a contact that does not touch holds exactly
        // the empty manifold (the narrow phase leaves it unwritten while it stays apart); Debug
        // prints -0.0 for a negative zero, so the text compares the signs of zeros too.
        let mut now = BTreeSet::new();
        for &b in &bodies {
            for c in world.body_contacts(b).unwrap() {
                if c.manifold.count > 0 {
                    now.insert((c.shape_a, c.shape_b));
                } else {
                    assert_eq!(format!("{:?}", c.manifold), format!("{:?}", Manifold::EMPTY), "step {step}");
                    apart += 1;
                }
            }
        }
        assert_eq!(touching, now, "step {step}");
    }
    println!("{begins} begins, {ends} ends, {apart} contacts apart");
    assert!(begins > 100 && ends > 50 && apart > 1000, "{begins} begins, {ends} ends, {apart} apart");
}
