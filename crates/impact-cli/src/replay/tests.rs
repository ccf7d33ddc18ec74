//! Replays: frames, their checks, the embedded trace and the player page.

use impact2d::Vec2;

use super::*;
use crate::scene::parse_scene;
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

fn replay_of(text: &str) -> (ValidScene, Replay) {
    let scene = parse_scene(text).unwrap();
    let replay = Replay::new(&scene);
    (scene, replay)
}

#[test]
fn the_page_embeds_bodies_shapes_and_frames() {
    let (scene, mut replay) = replay_of(SCENE);
    let mut poses = BodyPose::initial(&scene);
    assert_eq!(poses[1].state, BodyState::Bullet);
    replay.push_frame(0.0, &poses, &[], &[]).unwrap();
    poses[1] = BodyPose { position: Vec2::new(1.23456, -0.5), angle: 0.25, state: BodyState::Asleep };
    let contact = ContactPoint { point: Vec2::new(1.0, 0.0), normal: Vec2::new(0.0, 1.0) };
    let toi = ToiEvent { point: Vec2::new(2.0, 0.5), normal: Vec2::new(-1.0, 0.0) };
    replay.push_frame(1.0 / 60.0, &poses, &[contact], &[toi]).unwrap();

    let html = replay.to_html();
    // The name is escaped in the title, and nothing is loaded from elsewhere.
    assert!(html.contains("<title>a &lt;b&gt; &amp; c · impact replay</title>"));
    assert!(!html.contains("http://") && !html.contains("https://") && !html.contains(" src="));
    let trace = embedded(&html);
    assert_eq!(trace["name"], "a <b> & c");
    assert_eq!(trace["bodies"][0]["shapes"][0]["kind"], "chain");
    assert_eq!(trace["bodies"][0]["shapes"][0]["loop"], true);
    assert_eq!(trace["bodies"][0]["shapes"][0]["points"].as_array().unwrap().len(), 4);
    assert_eq!(trace["bodies"][1]["shapes"][0]["kind"], "circle");
    assert_eq!(trace["bodies"][1]["shapes"][0]["sensor"], true);
    // The hull of four points, one inside: a triangle, rounded.
    assert_eq!(trace["bodies"][1]["shapes"][1]["points"].as_array().unwrap().len(), 3);
    assert!((trace["bodies"][1]["shapes"][1]["radius"].as_f64().unwrap() - 0.1).abs() < 1e-7);
    let frames = trace["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 2);
    assert_eq!(frames[0]["s"], "sb");
    assert_eq!(frames[1]["s"], "ss");
    // Positions to 0.1 mm.
    assert_eq!(frames[1]["p"].as_array().unwrap()[3].as_f64().unwrap() as f32, 1.2346);
    assert_eq!(frames[1]["c"].as_array().unwrap().len(), 4);
    assert_eq!(frames[1]["i"].as_array().unwrap().len(), 4);
    assert!(frames[0].get("c").is_none());
}

#[test]
fn frames_are_checked() {
    let (scene, mut replay) = replay_of(SCENE);
    let poses = BodyPose::initial(&scene);
    assert_eq!(
        replay.push_frame(0.0, &poses[..1], &[], &[]),
        Err(ReplayError::PoseCount { frame: 0, poses: 1, bodies: 2 })
    );
    let mut bad = poses.clone();
    bad[1].angle = f32::NAN;
    assert!(matches!(replay.push_frame(0.0, &bad, &[], &[]), Err(ReplayError::NonFinite { .. })));
    let nan_contact = ContactPoint { point: Vec2::new(f32::INFINITY, 0.0), normal: Vec2::X };
    assert!(matches!(replay.push_frame(0.0, &poses, &[nan_contact], &[]), Err(ReplayError::NonFinite { .. })));
    assert!(replay.frames().is_empty());
}

#[test]
fn a_script_end_tag_in_a_name_cannot_close_the_data() {
    let text = SCENE.replace("a <b> & c", "</script><script>alert(1)</script>");
    let (scene, mut replay) = replay_of(&text);
    replay.push_frame(0.0, &BodyPose::initial(&scene), &[], &[]).unwrap();
    let html = replay.to_html();
    assert_eq!(html.matches("</script>").count(), 2);
    assert_eq!(embedded(&html)["name"], "</script><script>alert(1)</script>");
}

#[test]
fn view_bounds_hold_every_shape_with_a_margin() {
    let (scene, mut replay) = replay_of(SCENE);
    replay.push_frame(0.0, &BodyPose::initial(&scene), &[], &[]).unwrap();
    let b = replay.view_bounds();
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
    let (scene, mut replay) = replay_of(SCENE);
    replay.set_contact_budget(2);
    let poses = BodyPose::initial(&scene);
    let c = ContactPoint { point: Vec2::ZERO, normal: Vec2::Y };
    replay.push_frame(0.0, &poses, &[c, c], &[]).unwrap();
    replay.push_frame(0.1, &poses, &[c, c, c], &[]).unwrap();
    let frames = replay.frames();
    assert_eq!((frames[0].contacts.len(), frames[0].contacts_left_out), (2, false));
    assert_eq!((frames[1].contacts.len(), frames[1].contacts_left_out), (0, true));
    let trace = embedded(&replay.to_html());
    assert!(trace["frames"][0].get("x").is_none());
    assert_eq!(trace["frames"][1]["x"], true);
}

#[test]
fn thickness_is_the_width_at_the_thinnest() {
    use impact2d::{Capsule, Circle, Polygon, Segment, make_offset_rounded_box};
    let plank = make_offset_rounded_box(1.5, 0.01, Vec2::new(3.0, 1.0), 0.7, 0.0).unwrap();
    assert!((thickness(&Shape::Polygon(plank)) - 0.02).abs() < 1e-5);
    let rounded =
        Polygon::new(&[Vec2::ZERO, Vec2::new(2.0, 0.0), Vec2::new(0.0, 2.0), Vec2::new(2.0, 2.0)], 0.1).unwrap();
    assert!((thickness(&Shape::Polygon(rounded)) - 2.2).abs() < 1e-5);
    assert_eq!(thickness(&Shape::Circle(Circle::new(Vec2::ONE, 0.25).unwrap())), 0.5);
    assert_eq!(thickness(&Shape::Capsule(Capsule::new(Vec2::ZERO, Vec2::X, 0.1).unwrap())), 0.2);
    assert_eq!(thickness(&Shape::Segment(Segment::new(Vec2::ZERO, Vec2::X).unwrap())), 0.0);
}
