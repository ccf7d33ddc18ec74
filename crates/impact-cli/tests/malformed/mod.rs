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
            "4:64: bodies[1].shapes[0].type: unknown shape type \"ball\"; expected circle, capsule, box, polygon, segment or chain",
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
    ]
}
