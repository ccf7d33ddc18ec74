//! Malformed scene files shared by the `check` and `run` tests: each with the exact located
//! report it must get after `FILE:`.

/// A valid scene: a ground box and a falling circle.
pub const GOOD: &str = r#"{"name": "t", "time_step": 0.02,
 "bodies": [
  {"type": "static", "position": [0, 0], "shapes": [{"type": "box", "half_width": 20, "half_height": 0.5}]},
  {"type": "dynamic", "position": [0, 10], "shapes": [{"type": "circle", "radius": 0.1}]}]}"#;

/// (name, file content, report after `FILE:`), one per malformed kind, each a small edit of
/// [`GOOD`].
pub fn malformed_scenes() -> Vec<(&'static str, String, &'static str)> {
    let good = GOOD;
    vec![
        (
            "bad_json",
            good.replacen("]}]}", "]}]", 1),
            "4:91: invalid JSON: expected `,` or `}` after a field, found end of file",
        ),
        (
            "unknown_shape_type",
            good.replacen(r#""circle""#, r#""ball""#, 1),
            "4:64: bodies[1].shapes[0].type: unknown shape type \"ball\"; expected circle, capsule, box, polygon, concave, segment or chain",
        ),
        (
            "two_point_polygon",
            good.replacen(r#""circle", "radius": 0.1"#, r#""polygon", "points": [[0, 0], [1, 1]]"#, 1),
            "4:85: bodies[1].shapes[0].points: polygon needs at least 3 distinct points, got 2",
        ),
        ("overflow", good.replacen("0.02", "1e999", 1), "1:28: time_step: 1e999 is beyond the range of f32"),
        (
            "negative_radius",
            good.replacen("0.1", "-0.1", 1),
            "4:84: bodies[1].shapes[0].radius: circle radius must be positive, got -0.1",
        ),
        (
            "missing_field",
            good.replacen(r#", "radius": 0.1"#, "", 1),
            "4:55: bodies[1].shapes[0].radius: missing required field",
        ),
        (
            "unknown_field",
            good.replacen(r#""radius""#, r#""radius ""#, 1),
            "4:74: bodies[1].shapes[0].radius : unknown field, did you mean `radius`?",
        ),
        (
            "wrong_type",
            good.replacen("[0, 10]", r#""high""#, 1),
            "4:35: bodies[1].position: expected [x, y], got the string \"high\"",
        ),
        (
            "bad_body_type",
            good.replacen(r#""static""#, r#""fixed""#, 1),
            "3:12: bodies[0].type: unknown body type \"fixed\"; expected static, kinematic or dynamic",
        ),
        ("zero_time_step", good.replacen("0.02", "0", 1), "1:28: time_step: must be positive, got 0"),
        (
            "nan",
            good.replacen("[0, 10]", "[0, NaN]", 1),
            "4:39: invalid JSON: expected a value, found `NaN` (JSON has no such number)",
        ),
        (
            "too_many_substeps",
            good.replacen("0.02", r#"0.02, "substeps": 1000"#, 1),
            "1:46: substeps: must be at most 256, got 1000",
        ),
        (
            "negative_speed_cap",
            good.replacen("0.02", r#"0.02, "max_linear_speed": -400"#, 1),
            "1:54: max_linear_speed: must be positive, got -400",
        ),
        (
            "safety_factor_above_one",
            good.replacen("[0, 10]", r#"[0, 10], "safety_factor": 2"#, 1),
            "4:61: bodies[1].safety_factor: must be at most 1, got 2",
        ),
        // Issue 18: values the world refuses (or that ran into NaN) are refused by the file's
        // checks, located, by `check` as by `run`.
        ("long_time_step", good.replacen("0.02", "1.4e38", 1), "1:28: time_step: must be at most 1 s, got 1.4e38"),
        (
            "huge_gravity",
            good.replacen(r#""time_step": 0.02"#, r#""time_step": 0.02, "gravity": [0, -1e30]"#, 1),
            "1:49: gravity[1]: -1e30 is beyond the supported 1e6 m/s²",
        ),
        (
            "fast_body",
            good.replacen("[0, 10]", r#"[0, 10], "linear_velocity": [1e10, 0]"#, 1),
            "4:63: bodies[1].linear_velocity: speed 1e10 is beyond the supported 1e6 m/s",
        ),
        (
            "fast_spin",
            good.replacen("[0, 10]", r#"[0, 10], "angular_velocity": 3e38"#, 1),
            "4:64: bodies[1].angular_velocity: must be at most 1e5 rad/s in magnitude, got 3e38",
        ),
        (
            "huge_gravity_scale",
            good.replacen("[0, 10]", r#"[0, 10], "gravity_scale": 3.4e38"#, 1),
            "4:61: bodies[1].gravity_scale: must be at most 1000 in magnitude, got 3.4e38",
        ),
        (
            "huge_damping",
            good.replacen("[0, 10]", r#"[0, 10], "linear_damping": 1e30"#, 1),
            "4:62: bodies[1].linear_damping: must be at most 1e6 1/s, got 1e30",
        ),
        (
            "huge_speed_cap",
            good.replacen("0.02", r#"0.02, "max_linear_speed": 3e38"#, 1),
            "1:54: max_linear_speed: must be at most 1e6 m/s, got 3e38",
        ),
        (
            "huge_friction",
            good.replacen(r#""radius": 0.1"#, r#""radius": 0.1, "friction": 1e30"#, 1),
            "4:101: bodies[1].shapes[0].friction: must be at most 1000, got 1e30",
        ),
        (
            "huge_restitution",
            good.replacen(r#""radius": 0.1"#, r#""radius": 0.1, "restitution": 100"#, 1),
            "4:104: bodies[1].shapes[0].restitution: must be at most 10, got 100",
        ),
        (
            "huge_density",
            good.replacen(r#""radius": 0.1"#, r#""radius": 0.1, "density": 3e38"#, 1),
            "4:100: bodies[1].shapes[0].density: must be at most 1e9 kg/m², got 3e38",
        ),
        // What only the world knows (the body's mass), found by building it, at the density.
        (
            "heavy_body",
            good.replacen(r#""radius": 0.1"#, r#""radius": 2e5, "density": 1e9"#, 1),
            "4:100: bodies[1].shapes[0].density: body mass must be at most MAX_BODY_MASS (1e18 kg), its rotational inertia finite (lower the density)",
        ),
    ]
}
