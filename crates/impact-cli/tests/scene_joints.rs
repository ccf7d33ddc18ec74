//! Joints in scene files (issue 19): every type parses, builds and runs; the file round-trips;
//! a pendulum keeps its pin in the summary and the trace; bad joints are refused at a line and
//! column, at the field at fault.

use impact_cli::scene::{JOINT_TYPES, parse_scene};
use impact_cli::simulation::Simulation;

/// A ground, two boxes and a ball; `JOINTS` is replaced by the joints under test.
const SCENE: &str = r#"{
  "name": "joints",
  "bodies": [
    {"name": "ground", "type": "static", "position": [0, 0],
     "shapes": [{"type": "box", "half_width": 10, "half_height": 0.5}]},
    {"name": "a", "type": "dynamic", "position": [0, 4],
     "shapes": [{"type": "box", "half_width": 0.5, "half_height": 0.25}]},
    {"name": "b", "type": "dynamic", "position": [2, 4],
     "shapes": [{"type": "box", "half_width": 0.5, "half_height": 0.25}]},
    {"name": "ball", "type": "dynamic", "position": [4, 4],
     "shapes": [{"type": "circle", "radius": 0.3}]}
  ],
  "joints": JOINTS
}"#;

fn scene(joints: &str) -> String {
    SCENE.replace("JOINTS", joints)
}

/// One joint of each type, with their options on.
const ALL_TYPES: &str = r#"[
    {"name": "pin", "type": "revolute", "body_a": "ground", "body_b": "a", "anchor": [0, 4.5],
     "enable_limit": true, "lower": -1, "upper": 1, "enable_motor": true, "motor_speed": 1, "max_motor_torque": 10},
    {"name": "slider", "type": "prismatic", "body_a": "a", "body_b": "b", "anchor_a": [0, 4], "anchor_b": [2, 4],
     "axis": [1, 0], "enable_limit": true, "lower": -0.5, "upper": 0.5, "enable_spring": true, "hertz": 2, "damping_ratio": 0.5},
    {"name": "rope", "type": "distance", "body_a": "b", "body_b": "ball", "anchor_a": [2, 4], "anchor_b": [4, 4],
     "enable_limit": true, "lower": 0.5, "upper": 2.5},
    {"name": "glue", "type": "weld", "body_a": "ground", "body_b": "ball", "anchor": [4, 4], "enable_spring": true, "hertz": 3, "damping_ratio": 0.7},
    {"name": "wheel", "type": "wheel", "body_a": "a", "body_b": "ball", "anchor_a": [0, 4], "anchor_b": [4, 4], "axis": [0, 1],
     "enable_spring": true, "hertz": 4, "damping_ratio": 0.7, "enable_motor": true, "motor_speed": 5, "max_motor_torque": 2},
    {"name": "drag", "type": "motor", "body_a": "ground", "body_b": "b", "linear_offset": [2, 5], "max_motor_force": 100, "max_motor_torque": 10},
    {"name": "apart", "type": "filter", "body_a": "a", "body_b": "ball", "collide_connected": false, "break_force": 1e6}
  ]"#;

#[test]
fn every_joint_type_parses_builds_runs_and_round_trips() {
    let valid = parse_scene(&scene(ALL_TYPES)).unwrap();
    assert_eq!(valid.scene().joints.len(), JOINT_TYPES.len());
    let again = parse_scene(&valid.scene().to_json()).unwrap();
    assert_eq!(again.scene(), valid.scene(), "the file form reads back to the same scene");
    let mut run = Simulation::new(&valid).unwrap();
    assert_eq!(run.world().world.joint_count(), 7);
    for step in 0..120 {
        run.step().unwrap();
        assert_eq!(run.first_non_finite_body(), None, "step {step}");
    }
    let summary = run.summary();
    assert_eq!(summary.joints.len(), 7);
    assert_eq!(summary.joints[0].name, "pin");
    assert!(summary.joints.iter().all(|j| j.anchor_a.iter().chain(&j.anchor_b).all(|x| x.is_finite())));
}

/// A pendulum: a box pinned to the ground swings, and its pin holds (the summary's anchors
/// meet to a millimeter at every step's trace line).
#[test]
fn a_pinned_box_swings_and_its_pin_holds() {
    let joints = r#"[{"name": "pin", "type": "revolute", "body_a": "ground", "body_b": "b", "anchor": [0, 4]}]"#;
    let valid = parse_scene(&scene(joints)).unwrap();
    let mut run = Simulation::new(&valid).unwrap();
    let start = run.summary().bodies[2].position;
    let mut lowest = f32::INFINITY;
    for _ in 0..90 {
        run.step().unwrap();
        let line: serde_json::Value = serde_json::from_str(&run.trace_line()).unwrap();
        let j = &line["joints"][0];
        let (ax, ay, bx, by) =
            (j[0].as_f64().unwrap(), j[1].as_f64().unwrap(), j[2].as_f64().unwrap(), j[3].as_f64().unwrap());
        assert!(((ax - bx).powi(2) + (ay - by).powi(2)).sqrt() < 1e-3, "{line}");
        assert_eq!(j[4].as_f64(), Some(0.0), "not broken");
        lowest = lowest.min(run.summary().bodies[2].position[1]);
    }
    // Swung down from the pin's height (2 m arm): well below its start.
    assert!(lowest < start[1] - 1.5, "lowest {lowest}");
    let summary = serde_json::to_value(run.summary()).unwrap();
    assert_eq!(summary["joints"][0]["type"], "revolute");
    assert_eq!(summary["joints"][0]["broken"], false);
}

/// Bad joints: refused at the line and column of the field at fault, with what is wrong.
#[test]
fn bad_joints_are_refused_where_they_are_wrong() {
    let cases = [
        (
            r#"[{"type": "revolute", "body_a": "ground", "body_b": "nobody", "anchor": [0, 4]}]"#,
            "joints[0].body_b",
            "no body is named",
        ),
        (
            r#"[{"type": "revolute", "body_a": "a", "body_b": "a", "anchor": [0, 4]}]"#,
            "joints[0].body_b",
            "jointed to itself",
        ),
        (r#"[{"type": "revolute", "body_a": "ground", "body_b": "a"}]"#, "joints[0]", "needs `anchor`"),
        (
            r#"[{"type": "prismatic", "body_a": "a", "body_b": "b", "anchor_a": [0, 4], "anchor_b": [2, 4]}]"#,
            "joints[0]",
            "needs `axis`",
        ),
        (
            r#"[{"type": "revolute", "body_a": "ground", "body_b": "a", "anchor": [0, 4], "enable_limit": true, "lower": 1, "upper": -1}]"#,
            "joints[0].lower",
            "lower",
        ),
        (
            r#"[{"type": "revolute", "body_a": "ground", "body_b": "a", "anchor": [2e9, 4]}]"#,
            "joints[0].anchor",
            "anchor",
        ),
        (
            r#"[{"type": "prismatic", "body_a": "a", "body_b": "b", "anchor_a": [0, 4], "anchor_b": [2, 4], "axis": [0, 0]}]"#,
            "joints[0].axis",
            "axis",
        ),
        (r#"[{"type": "hinge", "body_a": "a", "body_b": "b"}]"#, "joints[0].type", "unknown joint type"),
        (
            r#"[{"type": "revolute", "body_a": "ground", "body_b": "a", "ancor": [0, 4]}]"#,
            "joints[0]",
            "did you mean `anchor`",
        ),
        (
            r#"[{"type": "revolute", "body_a": "ground", "body_b": "a", "anchor": [0, 4], "hertz": -1, "enable_spring": true}]"#,
            "joints[0].hertz",
            "hertz",
        ),
    ];
    for (joints, path, words) in cases {
        let text = scene(joints);
        let error = parse_scene(&text).unwrap_err();
        assert!(error.path.starts_with(path), "{joints}: {error}");
        assert!(error.message.contains(words) || error.to_string().contains(words), "{joints}: {error}");
        assert!(error.pos.line >= 1 && error.pos.column >= 1, "{joints}: {error}");
        // The line named is the joints' (they start on the file's last lines).
        assert!(error.pos.line > text.lines().position(|l| l.contains("\"joints\"")).unwrap(), "{joints}: {error}");
    }
    // Two bodies of one name: a joint naming it is ambiguous.
    let twice = scene(r#"[{"type": "weld", "body_a": "a", "body_b": "b", "anchor": [1, 4]}]"#)
        .replace(r#""name": "ball""#, r#""name": "a""#);
    let error = parse_scene(&twice).unwrap_err();
    assert!(error.path == "joints[0].body_a" && error.message.contains("2 bodies are named"), "{error}");
}

/// Replays and PNG frames draw joints: the trace of a jointed scene carries each frame's
/// anchors (`"j"`), and a world drawn with its joints differs from the same world drawn without
/// them only by pixels of the joint color, along the lines between the anchors.
#[test]
fn replays_and_pictures_draw_joints() {
    use impact_cli::Recorder;
    use impact_cli::render::{Layers, Painter, world_bounds};
    use impact2d::{DebugDraw, DrawOptions, JointDraw};
    let joints = r#"[{"name": "rope", "type": "distance", "body_a": "a", "body_b": "ball", "anchor_a": [0.5, 4], "anchor_b": [4, 4]}]"#;
    let valid = parse_scene(&scene(joints)).unwrap();
    let mut run = Simulation::new(&valid).unwrap();
    let mut recorder = Recorder::for_scene(&valid, run.world());
    for _ in 0..10 {
        run.step().unwrap();
        recorder.record(&run.world().world);
    }
    assert!(recorder.to_html().contains(r#""j":["#));
    let last = recorder.replay().frames().last().unwrap();
    let anchors: Vec<_> = run
        .joint_states()
        .iter()
        .map(|j| (impact2d::Vec2::from(j.anchor_a), impact2d::Vec2::from(j.anchor_b)))
        .collect();
    assert_eq!(last.joints, anchors);
    let world = &run.world().world;
    let bounds = world_bounds(world);
    let draw = |options: DrawOptions| {
        let mut painter = Painter::new(bounds, 400, 300).unwrap();
        world.draw(&mut painter, &options);
        painter.into_pixmap()
    };
    let (a, b) =
        (draw(Layers::default().options()), draw(DrawOptions { joints: false, ..Layers::default().options() }));
    let joint = [0x7a, 0x5c, 0x2e];
    let (mut changed, mut joint_colored) = (0, 0);
    for (p, q) in a.pixels().iter().zip(b.pixels()) {
        if p != q {
            changed += 1;
            let c = p.demultiply();
            if [c.red(), c.green(), c.blue()].iter().zip(joint).all(|(x, y)| (*x as i32 - y).abs() < 40) {
                joint_colored += 1;
            }
        }
    }
    assert!(
        changed > 100 && joint_colored * 10 > changed * 7,
        "{changed} pixels changed, {joint_colored} of the joint's color"
    );
    // The painter draws what the world hands it: a joint with the anchors given.
    let mut painter = Painter::new(bounds, 400, 300).unwrap();
    let (id, ids) = (run.world().joints[0], run.world().bodies.clone());
    let (p, q) = (impact2d::Vec2::new(1.0, 4.0), impact2d::Vec2::new(3.0, 4.0));
    painter.draw_joint(&JointDraw { joint: id, body_a: ids[0], body_b: ids[1], anchor_a: p, anchor_b: q });
    let mid = painter.to_screen((p + q) / 2.0);
    let image = painter.into_pixmap();
    let c = image.pixel(mid.x as u32, mid.y as u32).unwrap();
    assert_eq!([c.red(), c.green(), c.blue()], [0x7a, 0x5c, 0x2e]);
}
