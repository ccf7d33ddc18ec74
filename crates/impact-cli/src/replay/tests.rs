//! Replays: the recorder's frames, the embedded trace and the player page.

use impact2d::{BodyDef, Circle, DrawOptions, ShapeDef, Vec2, World, WorldDef, make_box};

use super::*;
use crate::build::{SceneWorld, build_world};
use crate::scene::{ValidScene, parse_scene};
use crate::scenes;

const SCENE: &str = r#"{"name": "a <b> & c", "bodies": [
    {"name": "ground", "type": "static", "position": [0, 0],
     "shapes": [{"type": "chain", "points": [[-5, 5], [-5, 0], [5, 0], [5, 5]], "loop": true}]},
    {"name": "ball", "type": "dynamic", "position": [1, 2], "bullet": true,
     "shapes": [{"type": "circle", "radius": 0.5, "sensor": true},
                {"type": "polygon", "points": [[0, 0], [1, 0], [0, 1]], "radius": 0.1}]}]}"#;

/// The trace embedded in a player page.
fn embedded(html: &str) -> serde_json::Value {
    let open = r#"<script type="application/json" id="replay">"#;
    let start = html.find(open).unwrap() + open.len();
    let end = start + html[start..].find("</script>").unwrap();
    serde_json::from_str(&html[start..end]).unwrap()
}

fn built(text: &str) -> (ValidScene, SceneWorld) {
    let scene = parse_scene(text).unwrap();
    let built = build_world(&scene).unwrap();
    (scene, built)
}

fn numbers(value: &serde_json::Value) -> Vec<f32> {
    value.as_array().unwrap().iter().map(|x| x.as_f64().unwrap() as f32).collect()
}

#[test]
fn the_page_embeds_bodies_shapes_and_frames() {
    let (scene, mut built) = built(SCENE);
    let mut recorder = Recorder::for_scene(&scene, &built);
    recorder.record(&built.world);
    let ball = built.bodies[1];
    built.world.set_transform(ball, Vec2::new(1.23456, -0.5), 0.25).unwrap();
    built.world.set_awake(ball, false).unwrap();
    recorder.record_at(&built.world, 0.5);

    let html = recorder.to_html();
    // The name is escaped in the title, and nothing is loaded from elsewhere.
    assert!(html.contains("<title>a &lt;b&gt; &amp; c · impact replay</title>"));
    assert!(!html.contains("http://") && !html.contains("https://") && !html.contains(" src="));
    let trace = embedded(&html);
    assert_eq!(trace["name"], "a <b> & c");
    assert_eq!(trace["bodies"][0]["name"], "ground");
    assert_eq!(trace["bodies"][1]["name"], "ball");
    // The chain's four links come back as one closed chain.
    assert_eq!(trace["bodies"][0]["shapes"].as_array().unwrap().len(), 1);
    assert_eq!(trace["bodies"][0]["shapes"][0]["kind"], "chain");
    assert_eq!(trace["bodies"][0]["shapes"][0]["loop"], true);
    assert_eq!(trace["bodies"][0]["shapes"][0]["points"].as_array().unwrap().len(), 4);
    assert_eq!(trace["bodies"][1]["shapes"][0]["kind"], "circle");
    assert_eq!(trace["bodies"][1]["shapes"][0]["sensor"], true);
    // The hull of four points, one inside: a triangle, rounded.
    assert_eq!(trace["bodies"][1]["shapes"][1]["points"].as_array().unwrap().len(), 3);
    assert!((trace["bodies"][1]["shapes"][1]["radius"].as_f64().unwrap() - 0.1).abs() < 1e-7);
    assert!(trace["bodies"][0].get("from").is_none() && trace["bodies"][0].get("to").is_none());
    let frames = trace["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 2);
    // Static ground, awake bullet; then the bullet asleep.
    assert_eq!(frames[0]["s"], "gb");
    assert_eq!(frames[1]["s"], "gs");
    assert_eq!(frames[1]["t"], 0.5);
    // Positions to 0.1 mm, angles to 10 µrad, printed short.
    assert_eq!(numbers(&frames[1]["p"]), [0.0, 0.0, 0.0, 1.2346, -0.5, 0.25]);
    assert!(html.contains("[0.0,0.0,0.0,1.2346,-0.5,0.25]"), "f32s print short");
    assert!(frames[0].get("c").is_none() && frames[0].get("m").is_none());
    // The colors are impact2d's.
    assert_eq!(trace["colors"]["states"]["k"], hex(Color::KINEMATIC));
    assert_eq!(trace["colors"]["sensor"], hex(Color::SENSOR));
    assert!((trace["style"]["sensor_alpha"].as_f64().unwrap() as f32 - Color::SENSOR.alpha()).abs() < 1e-6);
}

/// The thin-plane ball: its impact is in the frame after its step, with its normal; then it
/// rests on the plane with contact points.
#[test]
fn frames_carry_impacts_and_contacts() {
    let scene = scenes::find("thin_plane").unwrap().scene().validate().unwrap();
    let mut built = build_world(&scene).unwrap();
    let mut recorder = Recorder::for_scene(&scene, &built);
    recorder.record(&built.world);
    let mut impacts = 0;
    for _ in 0..120 {
        built.world.step(scene.scene().time_step, scene.scene().substeps).unwrap();
        impacts += built.world.impact_events().iter().filter(|e| e.normal != Vec2::ZERO).count();
        recorder.record(&built.world);
    }
    let frames = recorder.replay().frames();
    assert_eq!(frames.len(), 121);
    assert_eq!(frames.iter().map(|f| f.tois.len()).sum::<usize>(), impacts);
    let first = frames.iter().position(|f| !f.tois.is_empty()).expect("an impact");
    assert_eq!(first, 2, "the ball meets the plane in the second step");
    let toi = frames[first].tois[0];
    assert!(toi.point.y.abs() < 0.03 && (toi.normal.y.abs() - 1.0).abs() < 1e-3, "{toi:?}");
    let last = frames.last().unwrap();
    assert!(!last.contacts.is_empty());
    for c in &last.contacts {
        assert!((c.normal.length() - 1.0).abs() < 1e-4 && c.point.y.abs() < 0.05, "{c:?}");
    }
    let trace = embedded(&recorder.to_html());
    assert_eq!(trace["frames"][first]["i"].as_array().unwrap().len(), 4 * frames[first].tois.len());
    assert_eq!(trace["frames"][120]["c"].as_array().unwrap().len(), 4 * last.contacts.len());
}

/// With a stride, frames are taken every few steps and the impacts of the skipped steps go
/// to the next frame; `finish` adds the last step.
#[test]
fn strides_keep_every_impact() {
    let scene = scenes::find("bounce_house").unwrap().scene().validate().unwrap();
    let mut built = build_world(&scene).unwrap();
    let mut recorder = Recorder::for_scene(&scene, &built);
    recorder.set_stride(7);
    recorder.record(&built.world);
    recorder.record(&built.world);
    let mut impacts = 0;
    for _ in 0..100 {
        built.world.step(scene.scene().time_step, scene.scene().substeps).unwrap();
        impacts += built.world.impact_events().iter().filter(|e| e.normal != Vec2::ZERO).count();
        recorder.record(&built.world);
    }
    recorder.finish(&built.world);
    recorder.finish(&built.world);
    let frames = recorder.replay().frames();
    // Steps 0, 7, ..., 98 and 100.
    assert_eq!(frames.len(), 15 + 1);
    assert!(impacts > 0);
    assert_eq!(frames.iter().map(|f| f.tois.len()).sum::<usize>(), impacts);
    let dt = scene.scene().time_step;
    assert!((frames[1].time - 7.0 * dt).abs() < 1e-6 && (frames[15].time - 100.0 * dt).abs() < 1e-5);
}

/// Bodies created and destroyed between frames appear and disappear; a body whose shapes
/// change is a new entry from then on.
#[test]
fn bodies_come_and_go_by_handle() {
    let mut world = World::new(&WorldDef::default()).unwrap();
    let ground = world.create_body(&BodyDef::fixed(Vec2::ZERO)).unwrap();
    world.create_shape(ground, &ShapeDef::default(), &Shape::Polygon(make_box(5.0, 0.5).unwrap())).unwrap();
    let a = world.create_body(&BodyDef::dynamic(Vec2::new(0.0, 2.0))).unwrap();
    world.create_shape(a, &ShapeDef::default(), &Shape::Polygon(make_box(0.5, 0.5).unwrap())).unwrap();
    let mut recorder = Recorder::new("comings", 1.0 / 60.0);
    recorder.set_body_name(a, "a");
    recorder.record(&world); // frame 0: ground, a
    world.step(1.0 / 60.0, 4).unwrap();
    let b = world.create_body(&BodyDef::dynamic(Vec2::new(2.0, 2.0))).unwrap();
    world.create_shape(b, &ShapeDef::default(), &Shape::Circle(Circle::new(Vec2::ZERO, 0.3).unwrap())).unwrap();
    recorder.record(&world); // frame 1: ground, a, b
    world.step(1.0 / 60.0, 4).unwrap();
    world.destroy_body(a).unwrap();
    recorder.record(&world); // frame 2: ground, b
    world.step(1.0 / 60.0, 4).unwrap();
    world.create_shape(b, &ShapeDef::default(), &Shape::Polygon(make_box(0.1, 0.1).unwrap())).unwrap();
    recorder.record(&world); // frame 3: ground, b with two shapes
    // A new body in a's slot is another body.
    world.step(1.0 / 60.0, 4).unwrap();
    let c = world.create_body(&BodyDef::kinematic(Vec2::new(-2.0, 2.0))).unwrap();
    assert_eq!(c.index(), a.index());
    world.create_shape(c, &ShapeDef::default(), &Shape::Polygon(make_box(0.5, 0.5).unwrap())).unwrap();
    recorder.record(&world); // frame 4: ground, b, c

    let replay = recorder.replay();
    let entries: Vec<(BodyId, usize, Option<usize>, usize)> =
        replay.bodies().iter().map(|e| (e.id, e.first_frame, e.end_frame, e.shapes.len())).collect();
    assert_eq!(
        entries,
        [(ground, 0, None, 1), (a, 0, Some(2), 1), (b, 1, Some(3), 1), (b, 3, None, 2), (c, 4, None, 1)]
    );
    assert_eq!(replay.bodies()[1].name, "a");
    let bodies: Vec<Vec<usize>> = replay.frames().iter().map(|f| f.bodies.clone()).collect();
    assert_eq!(bodies, [vec![0, 1], vec![0, 1, 2], vec![0, 2], vec![0, 3], vec![0, 3, 4]]);
    assert_eq!(replay.frames()[4].poses[2].state, DrawState::Kinematic);

    let trace = embedded(&recorder.to_html());
    let tb = trace["bodies"].as_array().unwrap();
    assert_eq!((tb[1]["from"].as_u64(), tb[1]["to"].as_u64()), (None, Some(2)));
    assert_eq!((tb[2]["from"].as_u64(), tb[2]["to"].as_u64()), (Some(1), Some(3)));
    assert_eq!((tb[3]["from"].as_u64(), tb[3].get("to")), (Some(3), None));
    // Each frame has a pose and a state per body alive in it, as the player finds them.
    for (k, frame) in trace["frames"].as_array().unwrap().iter().enumerate() {
        let alive = tb
            .iter()
            .filter(|b| {
                let from = b["from"].as_u64().unwrap_or(0) as usize;
                from <= k && b["to"].as_u64().is_none_or(|to| k < to as usize)
            })
            .count();
        assert_eq!(frame["p"].as_array().unwrap().len(), 3 * alive, "frame {k}");
        assert_eq!(frame["s"].as_str().unwrap().len(), alive, "frame {k}");
    }
}

#[test]
fn aabbs_and_transforms_are_recorded_as_marks() {
    let (scene, built) = built(SCENE);
    let mut recorder = Recorder::for_scene(&scene, &built);
    recorder.set_options(DrawOptions { aabbs: true, transforms: true, ..DrawOptions::default() });
    recorder.record(&built.world);
    let frame = &recorder.replay().frames()[0];
    let boxes = frame.marks.iter().filter(|m| matches!(m, Mark::Polygon { color: Color::AABB, .. })).count();
    let axes = frame.marks.iter().filter(|m| matches!(m, Mark::Transform(_))).count();
    assert_eq!((boxes, axes), (built.world.shape_count(), 2));
    let trace = embedded(&recorder.to_html());
    let marks = trace["frames"][0]["m"].as_array().unwrap();
    assert_eq!(marks.len(), boxes + axes);
    // The first link of the chain: from (-5, 5) to (-5, 0), its box as four corners.
    assert_eq!(marks[0][0], "polygon");
    assert_eq!(marks[0][1], hex(Color::AABB));
    assert_eq!(marks[0].as_array().unwrap().len(), 2 + 8);
    let last = marks.last().unwrap();
    assert_eq!((last[0].as_str(), last[1].is_null()), (Some("axes"), true));
    assert_eq!(numbers(&serde_json::Value::Array(last.as_array().unwrap()[2..].to_vec())), [1.0, 2.0, 0.0]);
}

#[test]
fn a_script_end_tag_in_a_name_cannot_close_the_data() {
    let text = SCENE.replace("a <b> & c", "</script><script>alert(1)</script>");
    let (scene, built) = built(&text);
    let mut recorder = Recorder::for_scene(&scene, &built);
    recorder.record(&built.world);
    let html = recorder.to_html();
    assert_eq!(html.matches("</script>").count(), 2);
    assert_eq!(embedded(&html)["name"], "</script><script>alert(1)</script>");
    let mut written = Vec::new();
    recorder.write_to(&mut written).unwrap();
    assert_eq!(written, html.as_bytes());
}

#[test]
fn view_bounds_hold_every_shape_with_a_margin() {
    let (scene, built) = built(SCENE);
    let mut recorder = Recorder::for_scene(&scene, &built);
    assert_eq!(recorder.replay().view_bounds().upper, Vec2::splat(10.0));
    recorder.record(&built.world);
    let b = recorder.replay().view_bounds();
    // The chain spans [-5, 5] by [0, 5]; 5 % of the larger extent (10 m) on each side.
    assert_eq!((b.lower, b.upper), (Vec2::new(-5.5, -0.5), Vec2::new(5.5, 5.5)));
}

#[test]
fn chain_points_come_back_from_the_links() {
    let scene = scenes::find("concave_corner").unwrap().scene();
    let valid = scene.validate().unwrap();
    for (def, body) in scene.bodies.iter().zip(valid.bodies()) {
        for (shape_def, shape) in def.shapes.iter().zip(body.shapes()) {
            if let crate::scene::Geometry::Chain { points, is_loop } = &shape_def.geometry {
                assert_eq!(chain_points(shape.parts), (points.clone(), *is_loop));
            }
        }
    }
}

#[test]
fn strides_keep_replays_within_the_budget() {
    assert_eq!(frame_stride(600, 26), 1);
    assert_eq!(frame_stride(600, 5050), 28);
    for (steps, bodies) in [(600, 5050), (600, 22_000), (1, 1_000_000), (1000, 300)] {
        let stride = frame_stride(steps, bodies) as usize;
        let frames = (steps as usize).div_ceil(stride) + 1;
        assert!(frames * bodies <= POSE_BUDGET || frames <= 2, "{steps} steps, {bodies} bodies: stride {stride}");
    }
}

#[test]
fn frames_over_the_contact_budget_leave_their_contacts_out() {
    let scene = scenes::find("box_pile").unwrap().scene().validate().unwrap();
    let mut built = build_world(&scene).unwrap();
    for _ in 0..240 {
        built.world.step(scene.scene().time_step, scene.scene().substeps).unwrap();
    }
    let mut recorder = Recorder::for_scene(&scene, &built);
    recorder.record(&built.world);
    let all = recorder.replay().frames()[0].contacts.len();
    assert!(all >= 80, "{all}");
    recorder.set_contact_budget(all);
    recorder.record_at(&built.world, 1.0);
    recorder.set_contact_budget(all - 1);
    recorder.record_at(&built.world, 2.0);
    let frames = recorder.replay().frames();
    assert_eq!((frames[1].contacts.len(), frames[1].contacts_left_out), (all, false));
    assert_eq!((frames[2].contacts.len(), frames[2].contacts_left_out), (0, true));
    let trace = embedded(&recorder.to_html());
    assert!(trace["frames"][1].get("x").is_none());
    assert_eq!(trace["frames"][2]["x"], true);
}

#[test]
fn thickness_is_the_width_at_the_thinnest() {
    use impact2d::{Capsule, Polygon, Segment, make_offset_rounded_box};
    let plank = make_offset_rounded_box(1.5, 0.01, Vec2::new(3.0, 1.0), 0.7, 0.0).unwrap();
    assert!((thickness(&Shape::Polygon(plank)) - 0.02).abs() < 1e-5);
    let rounded =
        Polygon::new(&[Vec2::ZERO, Vec2::new(2.0, 0.0), Vec2::new(0.0, 2.0), Vec2::new(2.0, 2.0)], 0.1).unwrap();
    assert!((thickness(&Shape::Polygon(rounded)) - 2.2).abs() < 1e-5);
    assert_eq!(thickness(&Shape::Circle(Circle::new(Vec2::ONE, 0.25).unwrap())), 0.5);
    assert_eq!(thickness(&Shape::Capsule(Capsule::new(Vec2::ZERO, Vec2::X, 0.1).unwrap())), 0.2);
    assert_eq!(thickness(&Shape::Segment(Segment::new(Vec2::ZERO, Vec2::X).unwrap())), 0.0);
    assert_eq!(hull_thickness(&[Vec2::ZERO, Vec2::X], 0.1), 0.2);
}
