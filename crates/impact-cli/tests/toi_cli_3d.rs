//! `impact toi` on 3D queries, end to end: a file mixing 2D and 3D lines is answered line by
//! line, each answer the one `impact2d::time_of_impact` or `impact3d::time_of_impact` gives
//! when called directly, and malformed 3D lines get located errors while the others are
//! still answered.

use std::f32::consts::FRAC_PI_2;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use common::assert_hit_in_band;
use impact3d::settings::{TOI_TARGET, TOI_TOLERANCE};
use impact3d::{Hull, Quat, Shape, ShapeProxy, Sweep, ToiState, Vec3};
use serde_json::{Value, json};

mod common;

/// Runs `impact` with `args`, feeding `stdin`.
fn impact(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_impact"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the impact binary runs");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn stdout_lines(output: &Output) -> Vec<Value> {
    let text = std::str::from_utf8(&output.stdout).unwrap();
    text.lines().map(|line| serde_json::from_str(line).expect("each output line is JSON")).collect()
}

/// `value` with every fractional number rounded to f32, as the output format means it: an
/// answer printed `0.1` and an f32 0.1 made into JSON (0.10000000149...) then compare equal.
fn as_f32s(value: &Value) -> Value {
    match value {
        Value::Number(n) if !n.is_u64() && !n.is_i64() => json!(n.as_f64().unwrap() as f32),
        Value::Array(items) => Value::Array(items.iter().map(as_f32s).collect()),
        Value::Object(map) => Value::Object(map.iter().map(|(k, v)| (k.clone(), as_f32s(v))).collect()),
        other => other.clone(),
    }
}

fn stderr(output: &Output) -> &str {
    std::str::from_utf8(&output.stderr).unwrap()
}

/// A 3D body of a query: its points, radius and sweep.
struct Body {
    points: Vec<Vec3>,
    radius: f32,
    sweep: Sweep,
}

impl Body {
    /// `points` rounded by `radius`, not moving, at the origin.
    fn still(points: &[Vec3], radius: f32) -> Body {
        Body { points: points.to_vec(), radius, sweep: Sweep::fixed(impact3d::Transform::IDENTITY) }
    }

    fn moving(mut self, c1: Vec3, c2: Vec3, q1: Quat, rotation: Vec3) -> Body {
        self.sweep = Sweep { c1, c2, q1, rotation, ..self.sweep };
        self
    }

    /// The proxy the format promises: 1 to 3 points as given, 4 or more their hull.
    fn proxy(&self) -> ShapeProxy {
        if self.points.len() < 4 {
            ShapeProxy::new(&self.points, self.radius).unwrap()
        } else {
            ShapeProxy::from_shape(&Shape::Hull(Hull::rounded(&self.points, self.radius).unwrap()))
        }
    }

    fn proxy_json(&self) -> Value {
        let points: Vec<_> = self.points.iter().map(|p| p.to_array()).collect();
        json!({"points": points, "radius": self.radius})
    }

    fn sweep_json(&self) -> Value {
        let s = &self.sweep;
        json!({
            "local_center": s.local_center.to_array(),
            "c1": s.c1.to_array(),
            "c2": s.c2.to_array(),
            "q1": s.q1.to_array(),
            "rotation": s.rotation.to_array(),
        })
    }
}

/// A 3D query with the default target and tolerance.
struct Query3 {
    id: &'static str,
    a: Body,
    b: Body,
}

impl Query3 {
    fn line(&self) -> String {
        let (a, b) = (&self.a, &self.b);
        json!({
            "id": self.id,
            "proxy_a": a.proxy_json(),
            "sweep_a": a.sweep_json(),
            "proxy_b": b.proxy_json(),
            "sweep_b": b.sweep_json(),
        })
        .to_string()
    }

    /// The answer `impact3d::time_of_impact` gives, as the output line prints it.
    fn direct_answer(&self) -> Value {
        let (a, b) = (&self.a, &self.b);
        let output =
            impact3d::time_of_impact(&a.proxy(), &a.sweep, &b.proxy(), &b.sweep, 1.0, TOI_TARGET, TOI_TOLERANCE)
                .unwrap();
        let mut expected = json!({
            "id": self.id,
            "state": state_name(output.state),
            "t": matches!(output.state, ToiState::Hit | ToiState::Failed).then_some(output.t),
            "iterations": output.iterations,
        });
        if output.state == ToiState::Hit {
            expected["root_iterations"] = json!(output.root_iterations);
            expected["point"] = json!((output.point + Vec3::ZERO).to_array());
            expected["normal"] = json!((output.normal + Vec3::ZERO).to_array());
        }
        expected
    }
}

fn state_name(state: ToiState) -> &'static str {
    match state {
        ToiState::Hit => "hit",
        ToiState::Separated => "separated",
        ToiState::Overlapped => "overlapped",
        ToiState::Failed => "failed",
    }
}

/// The corners of a box from `min` to `max`.
fn box_corners(min: Vec3, max: Vec3) -> Vec<Vec3> {
    (0..8)
        .map(|i| {
            let pick = |bit: usize, lo: f32, hi: f32| if i & bit == 0 { lo } else { hi };
            Vec3::new(pick(1, min.x, max.x), pick(2, min.y, max.y), pick(4, min.z, max.z))
        })
        .collect()
}

/// The 3D showcase of rotation: a rod 3 m long and 2 cm thick spins 3 rad about its middle
/// (about z, the rod written along z in its body and laid along x by `q1`) past the corner
/// edge of a box at x = 0.1, y = 1.2. It turns into the box and would be out of it again by
/// the end of the step, clear of it at both ends.
fn rod_through_box_corner() -> Query3 {
    let box_ = Body::still(&box_corners(Vec3::new(-0.4, 1.2, -0.5), Vec3::new(0.1, 1.7, 0.5)), 0.0);
    let rod = Body::still(&[Vec3::new(0.0, 0.0, -1.5), Vec3::new(0.0, 0.0, 1.5)], 0.01).moving(
        Vec3::ZERO,
        Vec3::ZERO,
        Quat::from_rotation_y(FRAC_PI_2),
        Vec3::new(0.0, 0.0, 3.0),
    );
    Query3 { id: "rod", a: box_, b: rod }
}

/// A 0.25 m sphere falls 5 m in the step, spinning, onto a slab 2 cm thick whose top is at
/// y = 0.01: the gap is 3 - 5t - 0.25 - 0.01.
fn sphere_onto_thin_slab() -> Query3 {
    let slab = Body::still(&box_corners(Vec3::new(-2.0, -0.01, -2.0), Vec3::new(2.0, 0.01, 2.0)), 0.0);
    let sphere = Body::still(&[Vec3::ZERO], 0.25).moving(
        Vec3::new(0.0, 3.0, 0.0),
        Vec3::new(0.0, -2.0, 0.0),
        Quat::IDENTITY,
        Vec3::new(1.0, 2.0, 3.0),
    );
    Query3 { id: "sphere", a: slab, b: sphere }
}

/// More shapes and motions: a tumbling rounded tetrahedron with its own center, a capsule,
/// a triangle, a miss and an overlap.
fn other_queries() -> Vec<Query3> {
    let tetrahedron = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
    let turned = Quat::from_axis_angle(Vec3::new(1.0, 1.0, 0.0).normalize(), 0.7);
    let mut tumbling = Body::still(&tetrahedron, 0.05).moving(
        Vec3::new(-3.0, 0.2, 0.1),
        Vec3::new(2.0, 0.0, 0.0),
        turned,
        Vec3::new(4.0, -1.0, 2.5),
    );
    tumbling.sweep.local_center = Vec3::splat(0.25);
    let cube = Body::still(&box_corners(Vec3::splat(-0.5), Vec3::splat(0.5)), 0.0);
    let capsule = Body::still(&[Vec3::new(-0.5, 0.0, 0.0), Vec3::new(0.5, 0.0, 0.0)], 0.1).moving(
        Vec3::new(0.0, 0.0, 3.0),
        Vec3::new(0.0, 0.0, -1.0),
        Quat::IDENTITY,
        Vec3::new(0.0, 6.0, 0.0),
    );
    let triangle = Body::still(&[Vec3::new(-1.0, 0.0, -1.0), Vec3::new(1.0, 0.0, -1.0), Vec3::new(0.0, 0.0, 1.0)], 0.0);
    let ball = |c1: Vec3, c2: Vec3| Body::still(&[Vec3::ZERO], 0.3).moving(c1, c2, Quat::IDENTITY, Vec3::ZERO);
    vec![
        Query3 { id: "tumbling", a: Body::still(&box_corners(Vec3::splat(-0.5), Vec3::splat(0.5)), 0.0), b: tumbling },
        Query3 { id: "capsule", a: cube, b: capsule },
        Query3 { id: "triangle", a: triangle, b: ball(Vec3::new(0.2, 2.0, 0.0), Vec3::new(0.2, -1.0, 0.0)) },
        Query3 {
            id: "miss",
            a: Body::still(&[Vec3::ZERO], 0.5),
            b: ball(Vec3::new(-3.0, 1.0, 0.0), Vec3::new(3.0, 1.0, 0.0)),
        },
        Query3 { id: "overlap", a: Body::still(&[Vec3::ZERO], 0.5), b: ball(Vec3::X * 0.5, Vec3::X * 0.5) },
    ]
}

/// A 2D line: two 0.5 m circles meeting head on (gap 3 - 4t).
const CIRCLES_2D: &str = r#"{"id": "2d", "proxy_a": {"points": [[0, 0]], "radius": 0.5}, "sweep_a": {"c1": [-2, 0], "c2": [0, 0], "a1": 0, "a2": 0}, "proxy_b": {"points": [[0, 0]], "radius": 0.5}, "sweep_b": {"c1": [2, 0], "c2": [0, 0], "a1": 0, "a2": 0}}"#;

/// Malformed 3D lines, each a small edit of `good`, with the error it must get.
fn malformed_3d_lines(good: &str) -> Vec<(String, &'static str)> {
    let sphere_points = r#"[[0.0,0.0,0.0]]"#;
    assert!(good.contains(sphere_points), "{good}");
    let far_q1 = r#""q1":[0.0,0.0,0.0,2.0]"#;
    vec![
        (
            good.replacen(sphere_points, "[[0.0,0.0]]", 1),
            "proxy_b.points[0]: expected [x, y, z], got an array of 2 items",
        ),
        (
            good.replacen(r#""c1":[0.0,3.0,0.0]"#, r#""c1":[0.0,3.0]"#, 1),
            "sweep_b.c1: expected [x, y, z], got an array of 2 items",
        ),
        (
            good.replacen(r#""q1":[0.0,0.0,0.0,1.0]"#, far_q1, 1),
            "sweep_a.q1: expected a unit quaternion (length within 0.001 of 1), got length 2",
        ),
        (
            good.replacen(r#""rotation":[0.0,0.0,0.0]"#, r#""rotation":"spin""#, 1),
            "sweep_a.rotation: expected [x, y, z], got a string",
        ),
        (good.replacen(r#","c2":[0.0,0.0,0.0]"#, "", 1), "sweep_a.c2: missing"),
        (
            good.replacen(r#","radius":0.0"#, r#","radius":-0.5"#, 1),
            "proxy_a.radius: hull radius must be zero or positive, got -0.5",
        ),
        (
            good.replacen(sphere_points, "[[0,0,0],[1,0,0],[0,1,0],[1,1,0]]", 1),
            "proxy_b.points: hull points are coplanar (their hull is thinner than the linear slop)",
        ),
        (
            good.replacen(sphere_points, "[[0,0,0],[1,0,0],[0,1,0],[0,1,0.001]]", 1),
            "proxy_b.points: a convex hull needs at least 4 distinct points, got 3",
        ),
        (
            good.replacen(sphere_points, "[[0,0,0],[1,1,1],[2,2,2]]", 1),
            "proxy_b.points: triangle corners are collinear (area 0 m²)",
        ),
        (
            good.replacen(sphere_points, &format!("[{}]", vec!["[0,0,0]"; 33].join(",")), 1),
            "proxy_b.points: expected 1 to 32 points, got 33",
        ),
    ]
}

#[test]
fn a_mixed_file_gets_the_answers_of_both_libraries() {
    let (rod, sphere) = (rod_through_box_corner(), sphere_onto_thin_slab());
    let others = other_queries();
    let mut lines = vec![CIRCLES_2D.to_owned(), rod.line(), sphere.line()];
    lines.extend(others.iter().map(Query3::line));
    let good = sphere.line();
    let malformed = malformed_3d_lines(&good);
    lines.extend(malformed.iter().map(|(line, _)| line.clone()));
    lines.push(CIRCLES_2D.replace(r#""id": "2d""#, r#""id": "2d again""#));

    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("mixed_3d.jsonl");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let output = impact(&["toi", path.to_str().unwrap()], "");

    // Every malformed line is reported, located, and only those.
    let first_bad = 3 + others.len() + 1;
    let expected_errors: Vec<_> = malformed
        .iter()
        .enumerate()
        .map(|(i, (_, error))| format!("{}:{}: {error}", path.display(), first_bad + i))
        .collect();
    assert_eq!(stderr(&output).lines().collect::<Vec<_>>(), expected_errors);
    assert_eq!(output.status.code(), Some(2));

    let answers = stdout_lines(&output);
    assert_eq!(answers.len(), 3 + others.len() + 1, "{answers:?}");
    // The 2D lines: as impact2d answers them, before and after the 3D ones.
    let circle = impact2d::ShapeProxy::new(&[impact2d::Vec2::ZERO], 0.5).unwrap();
    let sweep = |c1: f32| impact2d::Sweep {
        local_center: impact2d::Vec2::ZERO,
        c1: impact2d::Vec2::new(c1, 0.0),
        c2: impact2d::Vec2::ZERO,
        a1: 0.0,
        a2: 0.0,
    };
    let planar =
        impact2d::time_of_impact(&circle, &sweep(-2.0), &circle, &sweep(2.0), 1.0, TOI_TARGET, TOI_TOLERANCE).unwrap();
    for (answer, id) in [(&answers[0], "2d"), (answers.last().unwrap(), "2d again")] {
        assert_eq!(answer["id"], id);
        let expected = json!({
            "id": id,
            "state": "hit",
            "t": planar.t,
            "iterations": planar.iterations,
            "root_iterations": planar.root_iterations,
            "point": planar.point.to_array(),
            "normal": [1.0, 0.0],
        });
        assert_eq!(as_f32s(answer), as_f32s(&expected));
        assert_hit_in_band(answer, |t| 3.0 - 4.0 * t);
    }
    // The 3D lines: exactly what impact3d::time_of_impact answers.
    let queries = [&rod, &sphere].into_iter().chain(&others);
    for (answer, query) in answers[1..].iter().zip(queries) {
        assert_eq!(as_f32s(answer), as_f32s(&query.direct_answer()), "{}", query.line());
    }

    // The rod: its distance to the corner edge is r sin(θ − 3t) − 0.01 until it touches.
    let (r, theta) = (0.1f64.hypot(1.2), 1.2f64.atan2(0.1));
    assert_hit_in_band(&answers[1], |t| r * (theta - 3.0 * t).sin() - 0.01);
    let normal: Vec<f64> = answers[1]["normal"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
    assert!(normal[2].abs() < 1e-6 && normal[0] > 0.0 && normal[1] < 0.0, "from the box down to the rod: {normal:?}");
    // Clear of the box at both ends of the step: uncertified bilateral advancement misses it.
    let (a, b) = (&rod.a, &rod.b);
    let uncertified = impact3d::time_of_impact_uncertified(
        &a.proxy(),
        &a.sweep,
        &b.proxy(),
        &b.sweep,
        1.0,
        TOI_TARGET,
        TOI_TOLERANCE,
    );
    assert_eq!(uncertified.unwrap().state, ToiState::Separated);
    // The sphere: t = (2.74 - 0.005) / 5 = 0.547, normal straight up.
    assert_hit_in_band(&answers[2], |t| 2.74 - 5.0 * t);
    assert_eq!(answers[2]["normal"], json!([0.0, 1.0, 0.0]));
    let states: Vec<_> = answers[3..8].iter().map(|a| a["state"].as_str().unwrap()).collect();
    assert_eq!(states, ["hit", "hit", "hit", "separated", "overlapped"]);
}

#[test]
fn time_times_3d_queries_too() {
    let input =
        [rod_through_box_corner().line(), "{".to_owned(), sphere_onto_thin_slab().line(), CIRCLES_2D.to_owned()];
    let output = impact(&["toi", "--time", "--repeat", "2", "-"], &input.join("\n"));
    assert_eq!(stdout_lines(&output).len(), 3);
    let lines: Vec<_> = stderr(&output).lines().collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[0], "<stdin>:2: invalid JSON at column 1: EOF while parsing an object");
    let mean =
        lines[1].strip_prefix("mean ").and_then(|rest| rest.strip_suffix(" us per query over 3 queries x 2 rounds"));
    let micros: f64 = mean.unwrap_or_else(|| panic!("{}", lines[1])).parse().unwrap();
    assert!(micros > 0.0);
    assert_eq!(output.status.code(), Some(2));
}
