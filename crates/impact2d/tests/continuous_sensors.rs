//! Sensors and fast bodies (issue 17): a body that crosses a thin sensor within one step is in
//! it at neither end of the step, yet the step reports its begin and end events, for static,
//! kinematic and dynamic sensors and for sensors on fast bodies. Seeded cases; every event is
//! counted, so a crossing reported twice, or a miss reported, fails too.

mod continuous_support;

use continuous_support::*;
use impact2d::*;

/// A sensor body of `body_type` at `position`: a box `2 half_width` m thick, 4 m tall.
fn sensor(w: &mut World, body_type: BodyType, position: Vec2, half_width: f32, velocity: Vec2) -> (BodyId, ShapeId) {
    let def = BodyDef { body_type, linear_velocity: velocity, gravity_scale: 0.0, ..BodyDef::dynamic(position) };
    let body = w.create_body(&def).unwrap();
    let shape_def = ShapeDef { sensor: true, ..ShapeDef::default() };
    (body, w.create_shape(body, &shape_def, &boxed(half_width, 2.0)).unwrap())
}

/// The begin and end events of `(sensor, visitor)` over `steps` steps, and the step of the
/// first begin.
fn count_events(w: &mut World, steps: usize, sensor: ShapeId, visitor: ShapeId) -> (usize, usize, Option<usize>) {
    let (mut begins, mut ends, mut first) = (0, 0, None);
    for step in 0..steps {
        w.step(DT, SUBSTEPS).unwrap();
        let b = w.sensor_begin_events().iter().filter(|e| e.sensor == sensor && e.visitor == visitor).count();
        let e = w.sensor_end_events().iter().filter(|e| e.sensor == sensor && e.visitor == visitor).count();
        if b > 0 && first.is_none() {
            first = Some(step);
        }
        (begins, ends) = (begins + b, ends + e);
    }
    (begins, ends, first)
}

#[test]
fn bullets_crossing_thin_sensors_within_a_step_report_one_begin_and_one_end() {
    for seed in 0..60u64 {
        let mut rng = Lcg(seed * 7 + 3);
        let origin = if seed % 3 == 0 { Vec2::new(15_000.0, -8_000.0) } else { Vec2::ZERO };
        let mut w = World::new(&WorldDef { gravity: Vec2::ZERO, ..WorldDef::default() }).unwrap();
        let kind = [BodyType::Static, BodyType::Kinematic, BodyType::Dynamic][seed as usize % 3];
        let thickness = rng.range(0.0005, 0.005);
        let sensor_velocity =
            if kind == BodyType::Kinematic { Vec2::new(0.0, rng.range(-2.0, 2.0)) } else { Vec2::ZERO };
        let (_, s) = sensor(&mut w, kind, origin, thickness, sensor_velocity);
        let speed = rng.range(100.0, 400.0);
        let def = BodyDef {
            linear_velocity: Vec2::new(speed, 0.0),
            bullet: seed % 2 == 0,
            ..BodyDef::dynamic(origin + Vec2::new(-rng.range(1.0, 3.0), rng.range(-1.5, 1.5)))
        };
        let ball = body(&mut w, def, &circle(rng.range(0.01, 0.05)), 0.0, 0.0);
        let visitor = w.body_shapes(ball).unwrap()[0];
        let (begins, ends, first) = count_events(&mut w, 10, s, visitor);
        assert_eq!((begins, ends), (1, 1), "seed {seed}: {kind:?} sensor {thickness} m thick, {speed} m/s");
        // The crossing's step: when the ball reaches the sensor.
        let x = w.world_center(ball).unwrap().x;
        assert!(x > origin.x, "seed {seed}: the ball stopped at {x}");
        assert!(first.is_some_and(|f| f <= 2), "seed {seed}: first begin at step {first:?}");
    }
}

#[test]
fn a_fast_kinematic_sensor_sweeping_over_resting_bodies_reports_each_crossing() {
    for seed in 0..20u64 {
        let mut rng = Lcg(seed * 13 + 1);
        let mut w = World::new(&WorldDef { gravity: Vec2::ZERO, ..WorldDef::default() }).unwrap();
        let speed = rng.range(150.0, 300.0);
        let (_, s) = sensor(&mut w, BodyType::Kinematic, Vec2::new(-10.0, 0.0), 0.002, Vec2::new(speed, 0.0));
        let balls: Vec<ShapeId> = (0..8)
            .map(|k| {
                let position = Vec2::new(-6.0 + 1.5 * k as f32 + rng.range(0.0, 0.5), rng.range(-1.5, 1.5));
                let b = body(&mut w, BodyDef::dynamic(position), &circle(rng.range(0.02, 0.1)), 0.0, 0.5);
                w.body_shapes(b).unwrap()[0]
            })
            .collect();
        let mut begins = vec![0; balls.len()];
        let mut ends = vec![0; balls.len()];
        for _ in 0..((25.0 / (speed * DT)) as usize) {
            w.step(DT, SUBSTEPS).unwrap();
            for (k, &ball) in balls.iter().enumerate() {
                begins[k] += w.sensor_begin_events().iter().filter(|e| e.sensor == s && e.visitor == ball).count();
                ends[k] += w.sensor_end_events().iter().filter(|e| e.sensor == s && e.visitor == ball).count();
            }
        }
        assert!(begins.iter().all(|&b| b == 1), "seed {seed}: begins {begins:?}");
        assert!(ends.iter().all(|&e| e == 1), "seed {seed}: ends {ends:?}");
    }
}

#[test]
fn a_sensor_on_a_fast_body_reports_what_it_crosses_and_a_near_miss_reports_nothing() {
    for seed in 0..30u64 {
        let mut rng = Lcg(seed * 5 + 2);
        let mut w = World::new(&WorldDef { gravity: Vec2::ZERO, ..WorldDef::default() }).unwrap();
        let wall = fixed(&mut w, Vec2::ZERO, &boxed(0.01, 1.0));
        let wall_shape = w.body_shapes(wall).unwrap()[0];
        // A bullet with a thin sensor "antenna" reaching 3 cm beside its solid ball: the ball
        // flies past the wall's end, the antenna crosses it.
        let y = 1.0 + rng.range(0.06, 0.09);
        let def = BodyDef {
            linear_velocity: Vec2::new(rng.range(150.0, 400.0), 0.0),
            bullet: true,
            ..BodyDef::dynamic(Vec2::new(-3.0, y))
        };
        let probe = body(&mut w, def, &circle(0.05), 0.0, 0.0);
        let antenna = Shape::Polygon(make_offset_box(0.005, 0.05, Vec2::new(0.0, -0.1), 0.0).unwrap());
        let a = w.create_shape(probe, &ShapeDef { sensor: true, ..ShapeDef::default() }, &antenna).unwrap();
        let solid = w.body_shapes(probe).unwrap().into_iter().find(|&s| s != a).unwrap();
        let (begins, ends, _) = count_events(&mut w, 10, a, wall_shape);
        assert_eq!((begins, ends), (1, 1), "seed {seed}: the antenna's crossing");
        let contacts = w.contact_begin_events().iter().filter(|e| e.shape_a == solid || e.shape_b == solid).count();
        assert_eq!(contacts, 0, "seed {seed}: the ball touched nothing");
        // The same probe 3 cm higher misses the wall with its antenna too: no events.
        let mut w = World::new(&WorldDef { gravity: Vec2::ZERO, ..WorldDef::default() }).unwrap();
        let wall = fixed(&mut w, Vec2::ZERO, &boxed(0.01, 1.0));
        let wall_shape = w.body_shapes(wall).unwrap()[0];
        let def = BodyDef {
            linear_velocity: Vec2::new(300.0, 0.0),
            bullet: true,
            ..BodyDef::dynamic(Vec2::new(-3.0, y + 0.1))
        };
        let probe = body(&mut w, def, &circle(0.05), 0.0, 0.0);
        let a = w.create_shape(probe, &ShapeDef { sensor: true, ..ShapeDef::default() }, &antenna).unwrap();
        assert_eq!(count_events(&mut w, 10, a, wall_shape), (0, 0, None), "seed {seed}: a miss");
    }
}

#[test]
fn a_slow_body_entering_a_sensor_and_staying_reports_one_begin_and_no_end() {
    let mut w = World::new(&WorldDef { gravity: Vec2::ZERO, ..WorldDef::default() }).unwrap();
    let (_, s) = sensor(&mut w, BodyType::Static, Vec2::ZERO, 0.5, Vec2::ZERO);
    let def =
        BodyDef { linear_velocity: Vec2::new(2.0, 0.0), linear_damping: 2.0, ..BodyDef::dynamic(Vec2::new(-1.0, 0.0)) };
    let ball = body(&mut w, def, &circle(0.1), 0.0, 0.0);
    let visitor = w.body_shapes(ball).unwrap()[0];
    let (begins, ends, _) = count_events(&mut w, 120, s, visitor);
    assert_eq!((begins, ends), (1, 0), "ball at {}", w.world_center(ball).unwrap());
}

#[test]
fn a_bullet_grazing_a_sensor_at_a_step_boundary_far_from_the_origin_still_reports_its_crossing() {
    // The step boundary leaves the bullet's surface 0 to 2 mm short of the sensor, 10 to 20 km
    // from the origin, where f32 resolves a millimeter: the narrow phase may see a gap there
    // where a test of the rebased sweeps sees an overlap. The crossing was then reported by
    // neither (two seeds of 1000 of `impact stress --family sensors`).
    let mut missed = Vec::new();
    for seed in 0..300u64 {
        let mut rng = Lcg(seed * 131 + 7);
        let origin = Vec2::new(rng.range(10_000.0, 20_000.0), rng.range(-20_000.0, 20_000.0));
        let mut w = World::new(&WorldDef { gravity: Vec2::ZERO, ..WorldDef::default() }).unwrap();
        let kind = [BodyType::Static, BodyType::Kinematic, BodyType::Dynamic][seed as usize % 3];
        let half = rng.range(0.0005, 0.005);
        let (_, s) = sensor(&mut w, kind, origin, half, Vec2::ZERO);
        let (speed, radius, gap) = (rng.range(100.0, 400.0), rng.range(0.01, 0.03), rng.range(0.0, 0.002));
        let start = origin.x - half - radius - gap - 3.0 * speed * DT;
        let def = BodyDef {
            linear_velocity: Vec2::new(speed, 0.0),
            bullet: true,
            ..BodyDef::dynamic(Vec2::new(start, origin.y + rng.range(-1.5, 1.5)))
        };
        let ball = body(&mut w, def, &circle(radius), 0.0, 0.0);
        let visitor = w.body_shapes(ball).unwrap()[0];
        let (begins, ends, _) = count_events(&mut w, 10, s, visitor);
        if (begins, ends) != (1, 1) {
            missed.push(format!("seed {seed}: {kind:?}, {begins} begins and {ends} ends"));
        }
    }
    assert!(missed.is_empty(), "{}", missed.join("\n"));
}
