//! Scene files: reading, defaults, validation, located errors, and the round trip of every
//! built-in scene.

use impact2d::{Shape, Vec2};

use super::*;
use crate::scenes;

/// The example of `docs/scene-format.md`, one body per line.
const EXAMPLE: &str = r#"{"name": "bullet_wall", "gravity": [0, -10], "time_step": 0.016666667, "substeps": 4, "steps": 600,
 "max_linear_speed": 1000, "max_angular_speed": 10000,
 "bodies": [
   {"name": "ground", "type": "static", "position": [0, 0], "angle": 0,
    "shapes": [{"type": "box", "half_width": 20, "half_height": 0.5, "center": [0, 0], "angle": 0, "radius": 0}]},
   {"name": "ball", "type": "dynamic", "position": [0, 10], "angle": 0, "linear_velocity": [0, -500], "angular_velocity": 0,
    "bullet": false, "continuous": true, "safety_factor": 0.5, "linear_damping": 0, "angular_damping": 0, "gravity_scale": 1,
    "fixed_rotation": false,
    "shapes": [{"type": "circle", "center": [0, 0], "radius": 0.1, "density": 1, "friction": 0.6, "restitution": 0, "sensor": false}]}]}"#;

/// A small scene to break in the error tests, one thing per line:
/// the settings on line 1, a static box on lines 3-4, a dynamic ball on lines 5-6.
const BASE: &str = r#"{"name": "t", "time_step": 0.02, "substeps": 4, "steps": 10,
 "bodies": [
  {"type": "static", "position": [0, 0],
   "shapes": [{"type": "box", "half_width": 20, "half_height": 0.5}]},
  {"type": "dynamic", "position": [0, 10],
   "shapes": [{"type": "circle", "radius": 0.1}]}]}"#;

fn error_text(text: &str) -> String {
    match parse_scene(text) {
        Ok(scene) => panic!("expected an error, parsed {:?}", scene.scene()),
        Err(error) => error.to_string(),
    }
}

/// `BASE` with `from` replaced by `to` (which must occur once).
fn broken(from: &str, to: &str) -> String {
    assert_eq!(BASE.matches(from).count(), 1, "{from}");
    BASE.replacen(from, to, 1)
}

#[test]
fn the_documented_example_reads_as_written() {
    let valid = parse_scene(EXAMPLE).unwrap();
    let scene = valid.scene();
    assert_eq!(scene.name, "bullet_wall");
    assert_eq!(
        (scene.gravity, scene.time_step, scene.substeps, scene.steps),
        (Vec2::new(0.0, -10.0), 0.016666667, 4, 600)
    );
    assert_eq!((scene.max_linear_speed, scene.max_angular_speed), (1000.0, 10000.0));
    let ball = &scene.bodies[1];
    assert_eq!((ball.name.as_str(), ball.body_type, ball.position), ("ball", BodyType::Dynamic, Vec2::new(0.0, 10.0)));
    assert_eq!(ball.linear_velocity, Vec2::new(0.0, -500.0));
    assert_eq!(ball.shapes[0].geometry, Geometry::Circle { center: Vec2::ZERO, radius: 0.1 });
    let bodies: Vec<_> = valid.bodies().collect();
    let [ground, ball] = bodies.as_slice() else { panic!() };
    let ground_shapes: Vec<_> = ground.shapes().collect();
    let Shape::Polygon(slab) = ground_shapes[0].parts[0] else { panic!() };
    assert_eq!(slab.vertices().len(), 4);
    assert!(matches!(ball.shapes().next().unwrap().parts, [Shape::Circle(_)]));
    assert_eq!(valid.shape_count(), 2);
}

#[test]
fn absent_fields_take_their_defaults() {
    let text =
        r#"{"bodies": [{"type": "dynamic", "position": [1, 2], "shapes": [{"type": "circle", "radius": 0.5}]}]}"#;
    let scene = parse_scene(text).unwrap().scene().clone();
    let mut expected = Scene::new("", "");
    expected
        .bodies
        .push(BodyDef::new(BodyType::Dynamic, Vec2::new(1.0, 2.0)).with(ShapeDef::new(Geometry::circle(0.5))));
    assert_eq!(scene, expected);
    assert_eq!(
        (scene.gravity, scene.time_step, scene.substeps, scene.steps),
        (Vec2::new(0.0, -10.0), 1.0 / 60.0, 4, 600)
    );
    let body = &scene.bodies[0];
    assert_eq!(
        (body.angle, body.gravity_scale, body.bullet, body.continuous, body.awake, body.enable_sleep),
        (0.0, 1.0, false, true, true, true)
    );
    // The speed caps and the safety factor are the world's own defaults.
    let world = impact2d::WorldDef::default();
    assert_eq!((scene.max_linear_speed, scene.max_angular_speed), (world.max_linear_speed, world.max_angular_speed));
    assert_eq!(body.safety_factor, impact2d::BodyDef::default().safety_factor);
    let shape = &body.shapes[0];
    assert_eq!((shape.density, shape.friction, shape.restitution, shape.sensor), (1.0, 0.6, 0.0, false));
    assert_eq!(shape.filter(), impact2d::broad_phase::Filter::default());
    // null is the same as absent for optional fields.
    let nulls = text.replace(r#""radius": 0.5"#, r#""radius": 0.5, "density": null, "center": null"#);
    assert_eq!(parse_scene(&nulls).unwrap().scene(), &scene);
    assert_eq!(parse_scene("{}").unwrap().scene(), &Scene::new("", ""));
}

#[test]
fn every_shape_type_builds_with_the_library() {
    let text = r#"{"bodies": [{"type": "kinematic", "position": [0, 0], "shapes": [
        {"type": "circle", "center": [1, 2], "radius": 0.5},
        {"type": "capsule", "center1": [-1, 0], "center2": [1, 0], "radius": 0.25},
        {"type": "box", "half_width": 2, "half_height": 1, "center": [3, 0], "angle": 0.5, "radius": 0.1},
        {"type": "polygon", "points": [[1, 1], [0, 0], [0.5, 0], [1, 0], [0, 1]], "radius": 0.05},
        {"type": "segment", "point1": [0, 0], "point2": [5, 0]},
        {"type": "chain", "points": [[0, 0], [0, 4], [4, 4], [4, 0]], "loop": true},
        {"type": "chain", "points": [[0, 0], [1, 0], [2, 1]]},
        {"type": "concave", "points": [[0, 0], [3, 0], [3, 2], [2, 2], [2, 1], [1, 1], [1, 2], [0, 2]]}]}]}"#;
    let valid = parse_scene(text).unwrap();
    let body = valid.bodies().next().unwrap();
    let parts: Vec<&[Shape]> = body.shapes().map(|s| s.parts).collect();
    assert!(matches!(parts[0], [Shape::Circle(c)] if c.center() == Vec2::new(1.0, 2.0) && c.radius() == 0.5));
    assert!(matches!(parts[1], [Shape::Capsule(c)] if c.radius() == 0.25));
    assert!(matches!(parts[2], [Shape::Polygon(p)] if p.vertices().len() == 4 && p.radius() == 0.1));
    // The corners in any order: the point on an edge is dropped.
    assert!(matches!(parts[3], [Shape::Polygon(p)] if p.vertices().len() == 4 && p.radius() == 0.05));
    assert!(matches!(parts[4], [Shape::Segment(_)]));
    // A loop of 4 points is 4 one-sided segments; listed clockwise, the first faces inward (+x).
    assert_eq!(parts[5].len(), 4);
    let Shape::ChainSegment(first) = parts[5][0] else { panic!() };
    assert!((first.normal() - Vec2::X).length() < 1e-6);
    assert_eq!(parts[6].len(), 2);
    // A U: convex pieces of the same area.
    assert!(parts[7].len() >= 3 && parts[7].iter().all(|p| matches!(p, Shape::Polygon(_))));
    let area: f32 = parts[7].iter().map(|p| p.mass(1.0).mass).sum();
    assert!((area - 5.0).abs() < 1e-4, "{area}");
    assert_eq!(valid.shape_count(), 8);
}

#[test]
fn collision_bits_take_the_whole_u64_range() {
    let text =
        BASE.replace(r#""radius": 0.1"#, r#""radius": 0.1, "category_bits": 6, "mask_bits": 18446744073709551615"#);
    let scene = parse_scene(&text).unwrap();
    let shape = &scene.scene().bodies[1].shapes[0];
    assert_eq!((shape.category_bits, shape.mask_bits), (6, u64::MAX));
    let too_big = BASE.replace(r#""radius": 0.1"#, r#""radius": 0.1, "mask_bits": 18446744073709551616"#);
    assert_eq!(
        error_text(&too_big),
        "6:62: bodies[1].shapes[0].mask_bits: expected a whole number from 0 to 18446744073709551615, got 18446744073709551616"
    );
}

#[test]
fn contact_fields_are_read_and_checked() {
    let text = BASE.replace(
        r#""radius": 0.1"#,
        r#""radius": 0.1, "group_index": -3, "tangent_speed": -2.5, "rolling_resistance": 0.2, "one_way": true, "one_way_normal": [1, 0]"#,
    );
    let scene = parse_scene(&text).unwrap();
    let shape = &scene.scene().bodies[1].shapes[0];
    assert_eq!((shape.group_index, shape.tangent_speed, shape.rolling_resistance), (-3, -2.5, 0.2));
    assert_eq!((shape.one_way, shape.one_way_normal), (true, Vec2::new(1.0, 0.0)));
    assert_eq!(shape.filter().group_index, -3);
    let defaults = &parse_scene(BASE).unwrap().scene().bodies[1].shapes[0].clone();
    assert_eq!((defaults.group_index, defaults.one_way, defaults.one_way_normal), (0, false, Vec2::new(0.0, 1.0)));
    let bad = |field: &str| error_text(&BASE.replace(r#""radius": 0.1"#, &format!(r#""radius": 0.1, {field}"#)));
    assert!(bad(r#""group_index": 2147483648"#).contains("group_index: expected a whole number from -2147483648"));
    assert!(bad(r#""group_index": 1.5"#).contains("group_index"));
    assert!(bad(r#""one_way_normal": [0, 0]"#).contains("one_way_normal: expected a direction"));
    assert!(bad(r#""rolling_resistance": -1"#).contains("rolling_resistance"));
    assert!(bad(r#""rolling_resistance": 5000"#).contains("rolling_resistance"));
    assert!(bad(r#""tangent_speed": -2e6"#).contains("tangent_speed"));
    assert!(bad(r#""one_way": 1"#).contains("one_way: expected true or false"));
}

/// One case of each class of malformed file, with its exact error.
#[test]
fn malformed_files_are_located_and_named() {
    let cases = [
        // Not JSON.
        (
            broken(r#""steps": 10,"#, r#""steps": 10"#),
            "2:2: invalid JSON: expected `,` or `}` after a field, found `\"`",
        ),
        (broken(r#"[0, 10]"#, r#"[0, 10"#), "6:12: invalid JSON: expected `,` or `]` after an item, found `:`"),
        ("".to_owned(), "1:1: invalid JSON: expected a value, found end of file"),
        // Numbers beyond f32.
        (broken("[0, 10]", "[0, 1e999]"), "5:39: bodies[1].position[1]: 1e999 is beyond the range of f32"),
        (broken(r#""time_step": 0.02"#, r#""time_step": -1e39"#), "1:28: time_step: -1e39 is beyond the range of f32"),
        // Unknown shape type, unknown body type.
        (
            broken(r#""circle""#, r#""circel""#),
            "6:24: bodies[1].shapes[0].type: unknown shape type \"circel\", did you mean `circle`?",
        ),
        (
            broken(r#""circle""#, r#""sphere""#),
            "6:24: bodies[1].shapes[0].type: unknown shape type \"sphere\"; expected circle, capsule, box, polygon, concave, segment or chain",
        ),
        (
            broken(r#""dynamic""#, r#""dynamc""#),
            "5:12: bodies[1].type: unknown body type \"dynamc\", did you mean `dynamic`?",
        ),
        (
            broken(r#""dynamic""#, r#""moving""#),
            "5:12: bodies[1].type: unknown body type \"moving\"; expected static, kinematic or dynamic",
        ),
        // Geometry the library refuses: its own messages, at the field.
        (
            broken(r#""type": "circle", "radius": 0.1"#, r#""type": "polygon", "points": [[0, 0], [1, 0]]"#),
            "6:45: bodies[1].shapes[0].points: polygon needs at least 3 distinct points, got 2",
        ),
        (
            broken(
                r#""type": "circle", "radius": 0.1"#,
                r#""type": "polygon", "points": [[0, 0], [2, 0], [1, 0.5], [2, 2], [0, 2]]"#,
            ),
            "6:45: bodies[1].shapes[0].points: polygon is not convex: point 2 lies 0.5 m inside the hull of the others (use a concave polygon, which is split into convex pieces)",
        ),
        (
            broken(
                r#""type": "circle", "radius": 0.1"#,
                r#""type": "concave", "points": [[0, 0], [1, 1], [1, 0], [0, 1]]"#,
            ),
            "6:45: bodies[1].shapes[0].points: polygon edges 0 and 2 cross or touch (a concave polygon must be simple)",
        ),
        (
            broken(r#""radius": 0.1"#, r#""radius": -0.1"#),
            "6:44: bodies[1].shapes[0].radius: circle radius must be positive, got -0.1",
        ),
        (
            broken(r#""half_width": 20"#, r#""half_width": 0"#),
            "4:45: bodies[0].shapes[0].half_width: box half_width must be positive, got 0",
        ),
        (
            broken(r#""half_height": 0.5"#, r#""half_height": -2"#),
            "4:64: bodies[0].shapes[0].half_height: box half_height must be positive, got -2",
        ),
        // Missing, unknown, duplicate fields; wrong types.
        (broken(r#", "radius": 0.1"#, ""), "6:15: bodies[1].shapes[0].radius: missing required field"),
        (broken(r#""position": [0, 10],"#, ""), "5:3: bodies[1].position: missing required field"),
        (
            broken(r#""radius": 0.1"#, r#""raduis": 0.1"#),
            "6:34: bodies[1].shapes[0].raduis: unknown field, did you mean `radius`?",
        ),
        (
            broken(r#""radius": 0.1"#, r#""radius": 0.1, "colour": "red""#),
            "6:49: bodies[1].shapes[0].colour: unknown field; a circle has type, density, friction, restitution, sensor, category_bits, mask_bits, group_index, tangent_speed, rolling_resistance, one_way, one_way_normal, center, radius",
        ),
        (broken(r#""steps": 10"#, r#""steps": 10, "steps": 20"#), "1:62: steps: duplicate field"),
        (
            broken(r#""radius": 0.1"#, r#""radius": "0.1""#),
            "6:44: bodies[1].shapes[0].radius: expected a number, got the string \"0.1\"",
        ),
        (broken("[0, 10]", "[0, 10, 0]"), "5:35: bodies[1].position: expected [x, y], got an array of 3 items"),
        (
            broken(r#""substeps": 4"#, r#""substeps": 2.5"#),
            "1:46: substeps: expected a whole number from 0 to 4294967295, got 2.5",
        ),
        (broken(r#""static""#, "true"), "3:12: bodies[0].type: expected a string, got true"),
        ("[]".to_owned(), "1:1: scene: expected an object, got an array of 0 items"),
        // Values out of range.
        (broken(r#""time_step": 0.02"#, r#""time_step": 0"#), "1:28: time_step: must be positive, got 0"),
        (broken(r#""substeps": 4"#, r#""substeps": 0"#), "1:46: substeps: must be at least 1, got 0"),
        (broken(r#""substeps": 4"#, r#""substeps": 257"#), "1:46: substeps: must be at most 256, got 257"),
        (
            broken(r#""position": [0, 10],"#, r#""position": [0, 10], "angle": 2e6,"#),
            "5:53: bodies[1].angle: 2000000 is beyond the supported 1e6 rad",
        ),
        (broken(r#""steps": 10"#, r#""steps": 0"#), "1:58: steps: must be at least 1, got 0"),
        (
            broken(r#""position": [0, 0],"#, r#""position": [0, 0], "angular_velocity": 1,"#),
            "3:62: bodies[0].angular_velocity: a static body cannot move (make it kinematic, or leave the velocity at 0)",
        ),
        (
            broken(r#""radius": 0.1"#, r#""radius": 0.1, "friction": -1"#),
            "6:61: bodies[1].shapes[0].friction: must be zero or positive, got -1",
        ),
        (broken("[0, 10]", "[0, 1e10]"), "5:39: bodies[1].position[1]: 1e10 is beyond the supported 1e9 m"),
        // Speed caps and safety factors out of range.
        (
            broken(r#""steps": 10,"#, r#""steps": 10, "max_linear_speed": 0,"#),
            "1:82: max_linear_speed: must be positive, got 0",
        ),
        (
            broken(r#""steps": 10,"#, r#""steps": 10, "max_angular_speed": -5,"#),
            "1:83: max_angular_speed: must be positive, got -5",
        ),
        (
            broken(r#""steps": 10,"#, r#""steps": 10, "max_linear_speed": 1e39,"#),
            "1:82: max_linear_speed: 1e39 is beyond the range of f32",
        ),
        (
            broken(r#""position": [0, 10],"#, r#""position": [0, 10], "safety_factor": 1.5,"#),
            "5:61: bodies[1].safety_factor: must be at most 1, got 1.5",
        ),
        (
            broken(r#""position": [0, 10],"#, r#""position": [0, 10], "safety_factor": 0,"#),
            "5:61: bodies[1].safety_factor: must be positive, got 0",
        ),
        (
            broken(r#""position": [0, 10],"#, r#""position": [0, 10], "safety_factor": "0.5","#),
            "5:61: bodies[1].safety_factor: expected a number, got the string \"0.5\"",
        ),
    ];
    let mut failures = Vec::new();
    for (text, expected) in &cases {
        let got = error_text(text);
        if got != *expected {
            failures.push(format!("expected {expected}\n     got {got}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn chains_and_capsules_name_their_points() {
    let chain = broken(r#""type": "circle", "radius": 0.1"#, r#""type": "chain", "points": [[0, 0], [0, 0.001]]"#);
    assert_eq!(
        error_text(&chain),
        "6:43: bodies[1].shapes[0].points: chain: points are closer than the linear slop (0.001 m)"
    );
    let short_loop =
        broken(r#""type": "circle", "radius": 0.1"#, r#""type": "chain", "points": [[0, 0], [1, 0]], "loop": true"#);
    assert_eq!(error_text(&short_loop), "6:43: bodies[1].shapes[0].points: chain needs at least 3 points, got 2");
    let capsule = broken(
        r#""type": "circle", "radius": 0.1"#,
        r#""type": "capsule", "center1": [0, 0], "center2": [0, 0], "radius": 1"#,
    );
    assert_eq!(
        error_text(&capsule),
        "6:65: bodies[1].shapes[0].center2: capsule: points are closer than the linear slop (0 m)"
    );
    let collinear =
        broken(r#""type": "circle", "radius": 0.1"#, r#""type": "polygon", "points": [[0, 0], [1, 1], [2, 2]]"#);
    assert_eq!(
        error_text(&collinear),
        "6:45: bodies[1].shapes[0].points: polygon points are collinear (their hull is thinner than the linear slop)"
    );
    let huge = broken(r#""radius": 0.1"#, r#""radius": 0.1, "center": [2e9, 0]"#);
    assert_eq!(
        error_text(&huge),
        "6:59: bodies[1].shapes[0].center: circle center has magnitude 2000000000, above the supported 1000000000 m"
    );
}

#[test]
fn utf8_errors_are_located() {
    let bytes: Vec<u8> = [b"{\"name\": \"a\n".as_slice(), &[0xff], b"\"}"].concat();
    let error = std::str::from_utf8(&bytes).unwrap_err();
    assert_eq!(utf8_error_pos(&bytes, &error), Pos { line: 2, column: 1 });
}

/// The speed caps and the safety factor: every bad value (what a file can hold, and the
/// non-finite ones code can set) is refused at its field; good ones round-trip through the
/// file and reach the world.
#[test]
fn speed_caps_and_safety_factors_are_checked_and_kept() {
    type Set = fn(&mut Scene, f32);
    let fields: [(&str, Set); 3] = [
        ("max_linear_speed", |s, x| s.max_linear_speed = x),
        ("max_angular_speed", |s, x| s.max_angular_speed = x),
        ("bodies[0].safety_factor", |s, x| s.bodies[0].safety_factor = x),
    ];
    let ball = BodyDef::new(BodyType::Dynamic, Vec2::ZERO).with(ShapeDef::new(Geometry::circle(0.1)));
    for (path, set) in fields {
        for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -1.0, 0.0, -0.0] {
            let mut scene = Scene::new("x", "");
            scene.bodies.push(ball.clone());
            set(&mut scene, bad);
            let error = scene.validate().unwrap_err();
            assert_eq!(error.path.to_string(), path, "{bad}: {error}");
        }
        let mut scene = Scene::new("x", "");
        scene.bodies.push(ball.clone());
        set(&mut scene, 0.25);
        let text = scene.to_json();
        assert!(text.contains(&format!("\"{}\": 0.25", path.rsplit('.').next().unwrap())), "{text}");
        let back = parse_scene(&text).unwrap();
        assert_eq!(back.scene(), &scene, "{path}");
        let built = crate::build::build_world(&back).unwrap();
        let (world, id) = (&built.world, built.bodies[0]);
        let got = [world.def().max_linear_speed, world.def().max_angular_speed, world.body_safety_factor(id).unwrap()];
        assert!(got.contains(&0.25), "{path}: {got:?}");
    }
    let mut scene = Scene::new("x", "");
    scene.bodies.push(ball);
    scene.bodies[0].safety_factor = 1.0 + f32::EPSILON;
    assert_eq!(scene.validate().unwrap_err().to_string(), "bodies[0].safety_factor: must be at most 1, got 1.0000001");
}

/// A scene that raises the speed cap to 1000 m/s lets a body fly at 600 m/s; the default cap
/// slows it to 400 m/s at its first step.
#[test]
fn a_raised_speed_cap_lets_a_body_fly_faster() {
    let text = r#"{"gravity": [0, 0], "max_linear_speed": 1000,
      "bodies": [{"type": "dynamic", "position": [0, 0], "linear_velocity": [600, 0],
                  "shapes": [{"type": "circle", "radius": 0.02}]}]}"#;
    for (text, speed) in [(text.to_owned(), 600.0), (text.replace(r#""max_linear_speed": 1000,"#, ""), 400.0)] {
        let mut run = crate::simulation::Simulation::new(&parse_scene(&text).unwrap()).unwrap();
        for _ in 0..3 {
            run.step().unwrap();
        }
        let world = &run.world().world;
        let body = run.world().bodies[0];
        assert_eq!(world.linear_velocity(body).unwrap(), Vec2::new(speed, 0.0));
        // Three steps of 1/60 s.
        let x = world.position(body).unwrap().x;
        assert!((x - speed * 3.0 / 60.0).abs() < 1e-3, "{speed} m/s: at {x}");
    }
}

#[test]
fn code_built_scenes_are_validated_too() {
    let mut scene = Scene::new("x", "");
    scene.time_step = f32::NAN;
    assert_eq!(scene.validate().unwrap_err().to_string(), "time_step: NaN is not a finite number");
    let mut scene = Scene::new("x", "");
    scene
        .bodies
        .push(BodyDef::new(BodyType::Dynamic, Vec2::ZERO).with(ShapeDef::new(Geometry::rect(1.0, f32::INFINITY))));
    assert_eq!(
        scene.validate().unwrap_err().to_string(),
        "bodies[0].shapes[0].half_height: box half_height is not a finite number"
    );
}

/// Export then read back gives the same scene, bit for bit, for every built-in.
#[test]
fn every_built_in_round_trips_through_its_file() {
    for built_in in scenes::ALL {
        let scene = built_in.scene();
        let text = scene.to_json();
        let back = parse_scene(&text).unwrap_or_else(|e| panic!("{}: {e}", built_in.name));
        assert!(back.scene() == &scene, "{} changed on the way", built_in.name);
        assert_eq!(back.scene().to_json(), text);
    }
}

/// `enable_continuous: false` reads, is written back (true, the default, is left out) and
/// reaches the world's definition.
#[test]
fn continuous_collision_can_be_switched_off() {
    let text = r#"{"name": "off", "enable_continuous": false, "bodies": []}"#;
    let scene = parse_scene(text).unwrap();
    assert!(!scene.scene().enable_continuous);
    let json = scene.scene().to_json();
    assert!(json.contains(r#""enable_continuous": false"#), "{json}");
    assert_eq!(parse_scene(&json).unwrap().scene(), scene.scene());
    assert!(!crate::build::build_world(&scene).unwrap().world.def().enable_continuous);
    assert!(!Scene::new("on", "").to_json().contains("enable_continuous"));
    let error = parse_scene(r#"{"enable_continuous": 1}"#).unwrap_err();
    assert_eq!(error.path, "enable_continuous", "{error}");
}

#[test]
fn exports_leave_defaults_out() {
    let text = scenes::find("thin_plane").unwrap().scene().to_json();
    let expected = r#"{
  "name": "thin_plane",
  "description": "a 0.25 m ball at 150 m/s onto a plane 2 cm thick",
  "gravity": [0, -10],
  "time_step": 0.016666668,
  "substeps": 4,
  "steps": 120,
  "bodies": [
    {
      "name": "plane",
      "type": "static",
      "position": [0, 0],
      "shapes": [
        {
          "type": "box",
          "half_width": 10,
          "half_height": 0.01
        }
      ]
    },
    {
      "name": "ball",
      "type": "dynamic",
      "position": [0, 5],
      "linear_velocity": [0, -150],
      "shapes": [
        {
          "type": "circle",
          "radius": 0.25
        }
      ]
    }
  ]
}
"#;
    assert_eq!(text, expected);
}
