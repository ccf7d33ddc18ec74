//! Recording a world stepped by a program of its own (not a scene): bodies spawned and
//! destroyed mid-run, every step recorded, the HTML written to a file and read back.

use std::collections::BTreeMap;

use impact_cli::Recorder;
use impact2d::{BodyDef, BodyId, Capsule, Circle, DrawState, Shape, ShapeDef, Vec2, World, WorldDef, make_box};

/// The trace embedded in a player page.
fn embedded(html: &str) -> serde_json::Value {
    let open = r#"<script type="application/json" id="replay">"#;
    let start = html.find(open).unwrap() + open.len();
    let end = start + html[start..].find("</script>").unwrap();
    serde_json::from_str(&html[start..end]).unwrap()
}

#[test]
fn a_program_records_its_world_with_bodies_coming_and_going() {
    let mut world = World::new(&WorldDef::default()).unwrap();
    let ground = world.create_body(&BodyDef::fixed(Vec2::ZERO)).unwrap();
    world.create_shape(ground, &ShapeDef::default(), &Shape::Polygon(make_box(20.0, 0.5).unwrap())).unwrap();
    let wall = world.create_body(&BodyDef::fixed(Vec2::new(15.0, 3.0))).unwrap();
    world.create_shape(wall, &ShapeDef::default(), &Shape::Polygon(make_box(0.005, 2.5).unwrap())).unwrap();
    let mut recorder = Recorder::new("spawner", 1.0 / 60.0);
    recorder.set_description("boxes, balls and bullets, spawned and destroyed");
    recorder.set_body_name(ground, "ground");
    recorder.record(&world);

    // Which frames each body should be in: spawned before step s, it is in frames s..; destroyed
    // before step d, it is not in frame d.
    let mut expected: BTreeMap<(u32, u32), (usize, Option<usize>)> = BTreeMap::new();
    let mut alive: Vec<(BodyId, usize)> = Vec::new();
    let steps = 240;
    for step in 1..=steps {
        if step % 20 == 0 {
            let x = -5.0 + (step / 20) as f32;
            let body = world.create_body(&BodyDef::dynamic(Vec2::new(x, 4.0))).unwrap();
            let shape = match step / 20 % 3 {
                0 => Shape::Polygon(make_box(0.3, 0.3).unwrap()),
                1 => Shape::Circle(Circle::new(Vec2::ZERO, 0.25).unwrap()),
                _ => Shape::Capsule(Capsule::new(Vec2::new(-0.3, 0.0), Vec2::new(0.3, 0.0), 0.1).unwrap()),
            };
            world.create_shape(body, &ShapeDef::default(), &shape).unwrap();
            recorder.set_body_name(body, &format!("spawn {step}"));
            expected.insert((body.index(), body.generation()), (step as usize, None));
            alive.push((body, step as usize));
        }
        if step % 50 == 0 {
            // A bullet at the thin wall.
            let bullet = world.create_body(&BodyDef { bullet: true, ..BodyDef::dynamic(Vec2::new(5.0, 3.0)) }).unwrap();
            world
                .create_shape(bullet, &ShapeDef::default(), &Shape::Circle(Circle::new(Vec2::ZERO, 0.05).unwrap()))
                .unwrap();
            world.set_linear_velocity(bullet, Vec2::new(300.0, 0.0)).unwrap();
            expected.insert((bullet.index(), bullet.generation()), (step as usize, None));
            alive.push((bullet, step as usize));
        }
        if step % 45 == 0 && !alive.is_empty() {
            let (body, _) = alive.remove(0);
            world.destroy_body(body).unwrap();
            expected.get_mut(&(body.index(), body.generation())).unwrap().1 = Some(step as usize);
        }
        world.step(1.0 / 60.0, 4).unwrap();
        recorder.record(&world);
    }

    let path = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("recorder_spawner.html");
    recorder.write_html(&path).unwrap();
    let html = std::fs::read_to_string(&path).unwrap();
    let trace = embedded(&html);
    assert_eq!(trace["name"], "spawner");
    assert_eq!(trace["description"], "boxes, balls and bullets, spawned and destroyed");
    let frames = trace["frames"].as_array().unwrap();
    assert_eq!(frames.len(), steps as usize + 1);
    assert!((frames[60]["t"].as_f64().unwrap() - 1.0).abs() < 1e-5);

    // Every body is one entry, in the frames it lived in.
    let replay = recorder.replay();
    let bodies = trace["bodies"].as_array().unwrap();
    assert_eq!(bodies.len(), 2 + expected.len());
    assert_eq!(bodies[0]["name"], "ground");
    assert_eq!((replay.bodies()[0].id, replay.bodies()[1].id), (ground, wall));
    for (entry, body) in replay.bodies().iter().enumerate().skip(2) {
        let span = expected[&(body.id.index(), body.id.generation())];
        assert_eq!((body.first_frame, body.end_frame), span, "entry {entry}");
        assert_eq!(bodies[entry]["from"].as_u64(), Some(span.0 as u64));
        assert_eq!(bodies[entry]["to"].as_u64(), span.1.map(|x| x as u64));
    }
    assert!(replay.bodies().iter().any(|b| b.end_frame.is_some()), "some bodies were destroyed");
    // Each frame: a pose and a state for each body alive in it, static ones lettered `g`.
    for (k, frame) in frames.iter().enumerate() {
        let alive: Vec<usize> = (0..bodies.len())
            .filter(|&i| {
                let from = bodies[i]["from"].as_u64().unwrap_or(0) as usize;
                from <= k && bodies[i]["to"].as_u64().is_none_or(|to| k < to as usize)
            })
            .collect();
        assert_eq!(alive, replay.frames()[k].bodies, "frame {k}");
        assert_eq!(frame["p"].as_array().unwrap().len(), 3 * alive.len(), "frame {k}");
        let states = frame["s"].as_str().unwrap();
        assert_eq!(states.len(), alive.len());
        assert!(states.starts_with("gg"), "frame {k}: {states}");
    }
    // The bullets met the thin wall: impacts recorded, and no bullet beyond it.
    let impacts: usize = replay.frames().iter().map(|f| f.tois.len()).sum();
    assert!(impacts >= 4, "{impacts}");
    for frame in replay.frames() {
        for (&entry, pose) in frame.bodies.iter().zip(&frame.poses).skip(2) {
            assert!(pose.position.x < 14.995, "body {entry} passed the wall: {}", pose.position);
            assert_ne!(pose.state, DrawState::Static);
        }
    }
}
