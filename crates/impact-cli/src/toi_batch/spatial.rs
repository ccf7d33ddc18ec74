//! The 3D shapes and sweeps of a query line, for [`impact3d::time_of_impact`]: points
//! `[x, y, z]`, an orientation `q1` and a turn `rotation`.

use impact3d::{GeometryError, Hull, Quat, Shape, ShapeProxy, Sweep, Triangle, Vec3};
use serde_json::Value;

use super::{Fields, LineError, Loc, Pair, Problem, coordinates, number, points};

/// The most points a 3D proxy takes.
const MAX_POINTS: usize = 32;

/// How far from 1 the length of `q1` may be; within it `q1` is normalized.
pub(super) const UNIT_TOLERANCE: f64 = 1e-3;

/// Whether the line is a 3D query: the first point of `proxy_a` has three coordinates.
pub(super) fn is_spatial(fields: &Fields) -> bool {
    let first = fields.map.get("proxy_a").and_then(|proxy| proxy.get("points")).and_then(|points| points.get(0));
    matches!(first, Some(Value::Array(xyz)) if xyz.len() == 3)
}

/// The proxies and sweeps of a 3D query, in the order their errors are reported.
pub(super) fn pair(fields: &Fields) -> Result<Pair<ShapeProxy, Sweep>, LineError> {
    Ok(Pair {
        proxy_a: fields.required("proxy_a", proxy)?,
        sweep_a: fields.required("sweep_a", sweep)?,
        proxy_b: fields.required("proxy_b", proxy)?,
        sweep_b: fields.required("sweep_b", sweep)?,
    })
}

/// A point or vector written `[x, y, z]`.
fn vec3(value: &Value, at: &Loc) -> Result<Vec3, LineError> {
    coordinates(value, at, "[x, y, z]").map(Vec3::from_array)
}

/// A quaternion this close to unit length (f32 rounding) is kept bit for bit.
const UNIT_ROUNDING: f64 = 1e-6;

/// An orientation written `[x, y, z, w]`: a quaternion whose length is within
/// [`UNIT_TOLERANCE`] of 1, normalized (so four decimals are enough to write one). One
/// already unit to f32 rounding is kept as written, so that the query is the one a program
/// would pass to `time_of_impact`.
fn unit_quat(value: &Value, at: &Loc) -> Result<Quat, LineError> {
    let q: [f32; 4] = coordinates(value, at, "[x, y, z, w]")?;
    // In f64, where no f32 squared overflows.
    let length = q.iter().map(|&x| f64::from(x) * f64::from(x)).sum::<f64>().sqrt();
    if (length - 1.0).abs() > UNIT_TOLERANCE {
        return Err(at.error(Problem::NotUnit { length: length as f32 }));
    }
    if (length - 1.0).abs() <= UNIT_ROUNDING {
        return Ok(Quat::from_array(q));
    }
    Ok(Quat::from_array(q.map(|x| (f64::from(x) / length) as f32)))
}

fn sweep(value: &Value, at: &Loc) -> Result<Sweep, LineError> {
    let fields = Fields::of(value, at)?;
    Ok(Sweep {
        local_center: fields.optional("local_center", Vec3::ZERO, vec3)?,
        c1: fields.required("c1", vec3)?,
        c2: fields.required("c2", vec3)?,
        q1: fields.optional("q1", Quat::IDENTITY, unit_quat)?,
        rotation: fields.optional("rotation", Vec3::ZERO, vec3)?,
    })
}

/// 1 to [`MAX_POINTS`] points `[x, y, z]`.
fn points3(value: &Value, at: &Loc) -> Result<Vec<Vec3>, LineError> {
    points(value, at, MAX_POINTS, "an array of [x, y, z] points", vec3)
}

/// A shape proxy: 1 point is a sphere, 2 a capsule or segment, 3 a triangle, 4 to
/// [`MAX_POINTS`] the convex hull of the points, all rounded by the radius.
fn proxy(value: &Value, at: &Loc) -> Result<ShapeProxy, LineError> {
    let fields = Fields::of(value, at)?;
    let points = fields.required("points", points3)?;
    let radius = fields.optional("radius", 0.0, number)?;
    let built = match points.as_slice() {
        few @ ([_] | [_, _]) => ShapeProxy::new(few, radius),
        // The radius first, as a hull checks it first; then the corners must span an area.
        &[a, b, c] => ShapeProxy::new(&[a, b, c], radius).and_then(|proxy| Triangle::new(a, b, c).map(|_| proxy)),
        many => Hull::rounded(many, radius).map(|hull| ShapeProxy::from_shape(&Shape::Hull(hull))),
    };
    built.map_err(|error| {
        let about_radius = match &error {
            GeometryError::InvalidRadius { .. } => true,
            GeometryError::NonFinite { what } | GeometryError::TooLarge { what, .. } => what.contains("radius"),
            _ => false,
        };
        Loc::Key(at, if about_radius { "radius" } else { "points" }).error(Problem::Geometry3d(error))
    })
}

#[cfg(test)]
mod tests {
    use impact3d::settings::{TOI_TARGET, TOI_TOLERANCE};

    use super::super::{Bodies, Query, parse_query};
    use super::*;

    const SPHERE: &str = r#"{"points": [[0, 0, 0]], "radius": 0.5}"#;
    const STILL: &str = r#"{"c1": [0, 0, 0], "c2": [0, 0, 0]}"#;

    /// A 3D query of two spheres with `extra` spliced into the top-level object.
    fn spheres(extra: &str) -> String {
        format!(r#"{{{extra}"proxy_a": {SPHERE}, "sweep_a": {STILL}, "proxy_b": {SPHERE}, "sweep_b": {STILL}}}"#)
    }

    /// `spheres("")` with proxy A's points replaced by `points`.
    fn with_points_a(points: &str) -> String {
        spheres("").replacen("[[0, 0, 0]]", points, 1)
    }

    fn spatial(query: &Query) -> &Pair<ShapeProxy, Sweep> {
        match &query.bodies {
            Bodies::Spatial(pair) => pair,
            Bodies::Planar(_) => panic!("a 2D query: {query:?}"),
        }
    }

    fn parse(line: &str) -> Pair<ShapeProxy, Sweep> {
        spatial(&parse_query(line).unwrap_or_else(|error| panic!("{error}: {line}"))).clone()
    }

    fn error_text(line: &str) -> String {
        match parse_query(line) {
            Ok(query) => panic!("expected an error, parsed {query:?}"),
            Err(error) => error.to_string(),
        }
    }

    #[test]
    fn the_first_point_of_proxy_a_decides_the_dimension() {
        assert!(matches!(parse_query(&spheres("")).unwrap().bodies, Bodies::Spatial(_)));
        let still = r#"{"c1": [0, 0], "c2": [0, 0], "a1": 0, "a2": 0}"#;
        let planar = format!(
            r#"{{"proxy_a": {{"points": [[0, 0]]}}, "sweep_a": {still}, "proxy_b": {{"points": [[0, 0]]}}, "sweep_b": {still}}}"#
        );
        assert!(matches!(parse_query(&planar).unwrap().bodies, Bodies::Planar(_)));
        // A 2D query then wants [x, y] everywhere.
        let mixed = planar.replacen("[[0, 0]]}, \"sweep_b\"", "[[0, 0, 0]]}, \"sweep_b\"", 1);
        assert_eq!(error_text(&mixed), "proxy_b.points[0]: expected [x, y], got an array of 3 items");
    }

    #[test]
    fn parses_every_field() {
        let line = r#"{"id": "spin",
            "proxy_a": {"points": [[1, 2, 3], [4, 5, 6]], "radius": 0.25},
            "sweep_a": {"local_center": [0.5, -0.5, 1], "c1": [1, 0, 0], "c2": [2, 0, -1],
                        "q1": [0, 0.6, 0, 0.8], "rotation": [0, 0, 12.5]},
            "proxy_b": {"points": [[0, 0, 0]], "radius": 1e-3},
            "sweep_b": {"c1": [0, 1, 0], "c2": [0, -1.5, 0], "rotation": [-3, 0, 0]},
            "t_max": 0.75, "target": 0.01, "tolerance": 0.002}"#;
        let query = parse_query(line).unwrap();
        assert_eq!(query.id, Value::from("spin"));
        assert_eq!((query.t_max, query.target, query.tolerance), (0.75, 0.01, 0.002));
        let pair = spatial(&query);
        assert_eq!(pair.proxy_a.points(), &[Vec3::new(1.0, 2.0, 3.0), Vec3::new(4.0, 5.0, 6.0)]);
        assert_eq!(pair.proxy_a.radius(), 0.25);
        let sweep_a = Sweep {
            local_center: Vec3::new(0.5, -0.5, 1.0),
            c1: Vec3::X,
            c2: Vec3::new(2.0, 0.0, -1.0),
            q1: Quat::from_xyzw(0.0, 0.6, 0.0, 0.8),
            rotation: Vec3::new(0.0, 0.0, 12.5),
        };
        assert_eq!(pair.sweep_a, sweep_a);
        assert_eq!((pair.proxy_b.points(), pair.proxy_b.radius()), (&[Vec3::ZERO][..], 1e-3));
        assert_eq!(pair.sweep_b.c2, Vec3::new(0.0, -1.5, 0.0));
        assert_eq!(pair.sweep_b.rotation, Vec3::new(-3.0, 0.0, 0.0));
    }

    #[test]
    fn absent_or_null_optional_fields_take_their_defaults() {
        let bare = spheres("").replacen(r#", "radius": 0.5"#, "", 1);
        let null = spheres(r#""id": null, "t_max": null, "target": null, "tolerance": null, "#)
            .replacen(r#""radius": 0.5"#, r#""radius": null"#, 1)
            .replacen(
                STILL,
                r#"{"local_center": null, "c1": [0, 0, 0], "c2": [0, 0, 0], "q1": null, "rotation": null}"#,
                1,
            );
        for line in [bare, null] {
            let query = parse_query(&line).unwrap();
            assert_eq!(query.id, Value::Null);
            assert_eq!((query.t_max, query.target, query.tolerance), (1.0, TOI_TARGET, TOI_TOLERANCE));
            let pair = spatial(&query);
            assert_eq!(pair.proxy_a.radius(), 0.0);
            assert_eq!(pair.sweep_a, Sweep::fixed(impact3d::Transform::IDENTITY), "{line}");
        }
    }

    #[test]
    fn unknown_fields_are_ignored() {
        let noisy = spheres(r#""note": {"a": [1]}, "#)
            .replacen(r#""radius": 0.5"#, r#""radius": 0.5, "kind": "ball""#, 1)
            .replacen(STILL, r#"{"c1": [0, 0, 0], "c2": [0, 0, 0], "omega": [1, 2, 3]}"#, 1);
        assert_eq!(parse_query(&noisy).unwrap(), parse_query(&spheres("")).unwrap());
    }

    #[test]
    fn nearly_unit_orientations_are_normalized() {
        // Four decimals of a quarter turn about y: length 0.99995.
        let line =
            spheres("").replacen(STILL, r#"{"c1": [0, 0, 0], "c2": [0, 0, 0], "q1": [0, 0.7071, 0, 0.7071]}"#, 1);
        let q1 = parse(&line).sweep_a.q1;
        assert!((q1.length() - 1.0).abs() < 1e-6, "{q1}");
        assert!(q1.abs_diff_eq(Quat::from_rotation_y(std::f32::consts::FRAC_PI_2), 1e-6), "{q1}");
        // A quaternion unit to f32 rounding is kept bit for bit.
        let exact = Quat::from_rotation_y(1.0);
        let line = spheres("").replacen(
            STILL,
            &format!(r#"{{"c1": [0, 0, 0], "c2": [0, 0, 0], "q1": {:?}}}"#, exact.to_array()),
            1,
        );
        assert_eq!(parse(&line).sweep_a.q1.to_array().map(f32::to_bits), exact.to_array().map(f32::to_bits));
    }

    #[test]
    fn orientations_far_from_unit_are_errors() {
        for (q1, length) in [("[0, 0, 0, 0]", "0"), ("[0, 0, 0, 2]", "2"), ("[0, 0, 0.6, 0.7]", "0.92195445")] {
            let line = spheres("").replacen(STILL, &format!(r#"{{"c1": [0, 0, 0], "c2": [0, 0, 0], "q1": {q1}}}"#), 1);
            let expected = "sweep_a.q1: expected a unit quaternion (length within 0.001 of 1), got length";
            assert_eq!(error_text(&line), format!("{expected} {length}"));
        }
        let line = spheres("").replacen(STILL, r#"{"c1": [0, 0, 0], "c2": [0, 0, 0], "q1": [0, 0, 1]}"#, 2);
        assert_eq!(error_text(&line), "sweep_a.q1: expected [x, y, z, w], got an array of 3 items");
    }

    #[test]
    fn every_vector_must_have_three_coordinates() {
        let cases = [
            (
                spheres("").replacen("[[0, 0, 0]]", "[[0, 0]]", 2).replacen("[[0, 0]]", "[[0, 0, 0]]", 1),
                "proxy_b.points[0]",
            ),
            (with_points_a("[[0, 0, 0], [1, 0]]"), "proxy_a.points[1]"),
            (spheres("").replacen(r#""c1": [0, 0, 0]"#, r#""c1": [0, 0]"#, 1), "sweep_a.c1"),
            (spheres("").replacen(r#""c2": [0, 0, 0]"#, r#""c2": [0, 0]"#, 2), "sweep_a.c2"),
            (
                spheres("").replacen(STILL, r#"{"c1": [0, 0, 0], "c2": [0, 0, 0], "local_center": [1, 1]}"#, 1),
                "sweep_a.local_center",
            ),
            (
                spheres("").replace(
                    &format!(r#""sweep_b": {STILL}"#),
                    r#""sweep_b": {"c1": [0, 0, 0], "c2": [0, 0, 0], "rotation": [0, 3]}"#,
                ),
                "sweep_b.rotation",
            ),
        ];
        for (line, field) in cases {
            assert_eq!(error_text(&line), format!("{field}: expected [x, y, z], got an array of 2 items"), "{line}");
        }
        let line = with_points_a("[[0, 0, 0], [1, 0, 0, 0]]");
        assert_eq!(error_text(&line), "proxy_a.points[1]: expected [x, y, z], got an array of 4 items");
        let line = spheres("").replacen(r#""c1": [0, 0, 0]"#, r#""c1": [0, 0, "0"]"#, 1);
        assert_eq!(error_text(&line), "sweep_a.c1[2]: expected a number, got a string");
        let line = spheres("").replacen(r#""c1": [0, 0, 0]"#, r#""c1": [0, 0, 1e39]"#, 1);
        assert_eq!(error_text(&line), "sweep_a.c1[2]: 1e39 is beyond the range of f32");
        let line = spheres("").replacen(r#"[[0, 0, 0]], "radius": 0.5}, "sweep_b""#, r#"7}, "sweep_b""#, 1);
        assert_eq!(error_text(&line), "proxy_b.points: expected an array of [x, y, z] points, got the number 7");
    }

    #[test]
    fn sweeps_need_both_centers() {
        let line = spheres("").replacen(r#", "c2": [0, 0, 0]"#, "", 1);
        assert_eq!(error_text(&line), "sweep_a.c2: missing");
        let line = spheres("").replace(r#""sweep_b": "#, r#""sweep": "#);
        assert_eq!(error_text(&line), "sweep_b: missing");
        // Angles belong to 2D: in a 3D query they are unknown fields, ignored.
        let line = spheres("").replacen(STILL, r#"{"c1": [0, 0, 0], "c2": [0, 0, 0], "a1": 0, "a2": 1}"#, 1);
        assert_eq!(parse(&line).sweep_a.rotation, Vec3::ZERO);
    }

    #[test]
    fn point_counts_outside_1_to_32_are_errors() {
        let line = spheres("").replacen(r#"[[0, 0, 0]], "radius": 0.5}, "sweep_b""#, r#"[]}, "sweep_b""#, 1);
        assert_eq!(error_text(&line), "proxy_b.points: expected 1 to 32 points, got 0");
        let many = |n: usize| (0..n).map(|i| format!("[{}, {}, {}]", i % 2, (i / 2) % 4, i / 8)).collect::<Vec<_>>();
        let line = with_points_a(&format!("[{}]", many(33).join(", ")));
        assert_eq!(error_text(&line), "proxy_a.points: expected 1 to 32 points, got 33");
        // 32 points on a 2 x 4 x 4 grid: a box of 8 corners.
        let pair = parse(&with_points_a(&format!("[{}]", many(32).join(", "))));
        assert_eq!(pair.proxy_a.points().len(), 8);
    }

    #[test]
    fn one_two_and_three_points_make_spheres_capsules_and_triangles() {
        let pair = parse(&spheres(""));
        assert_eq!((pair.proxy_a.points(), pair.proxy_a.radius()), (&[Vec3::ZERO][..], 0.5));
        let pair = parse(&with_points_a("[[-1, 0, 0], [1, 0, 0]]").replacen("0.5", "0", 1));
        assert_eq!((pair.proxy_a.points().len(), pair.proxy_a.radius()), (2, 0.0));
        // Two coincident points are accepted: the proxy is a sphere.
        assert_eq!(parse(&with_points_a("[[2, 2, 2], [2, 2, 2]]")).proxy_a.points(), &[Vec3::splat(2.0); 2]);
        let corners = [Vec3::ZERO, Vec3::X, Vec3::Z];
        assert_eq!(parse(&with_points_a("[[0, 0, 0], [1, 0, 0], [0, 0, 1]]")).proxy_a.points(), &corners);
    }

    #[test]
    fn four_points_or_more_make_convex_hulls() {
        let cube =
            "[[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0], [0.5, 0.5, 0.5], [0, 0, 1], [1, 0, 1], [0, 1, 1], [1, 1, 1]]";
        let pair = parse(&with_points_a(cube));
        let vertices = pair.proxy_a.points();
        assert_eq!(vertices.len(), 8, "the inner point is dropped: {vertices:?}");
        assert!(!vertices.contains(&Vec3::splat(0.5)));
        assert_eq!(pair.proxy_a.radius(), 0.5);
        let tetrahedron = parse(&with_points_a("[[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]"));
        assert_eq!(tetrahedron.proxy_a.points().len(), 4);
    }

    #[test]
    fn degenerate_shapes_name_the_points_field() {
        let flat = with_points_a("[[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]]");
        assert_eq!(
            error_text(&flat),
            "proxy_a.points: hull points are coplanar (their hull is thinner than the linear slop)"
        );
        let welded = with_points_a("[[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 0, 0.001]]");
        assert_eq!(error_text(&welded), "proxy_a.points: a convex hull needs at least 4 distinct points, got 3");
        let line = with_points_a("[[0, 0, 0], [1, 1, 1], [2, 2, 2]]");
        assert_eq!(error_text(&line), "proxy_a.points: triangle corners are collinear (area 0 m²)");
    }

    #[test]
    fn negative_radius_names_the_radius_field() {
        for (points, what) in [
            ("[[0, 0, 0]]", "proxy radius"),
            ("[[0, 0, 0], [1, 1, 1], [2, 2, 2]]", "proxy radius"),
            ("[[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 0.001]]", "hull radius"),
        ] {
            let line = with_points_a(points).replacen("0.5", "-0.5", 1);
            assert_eq!(error_text(&line), format!("proxy_a.radius: {what} must be zero or positive, got -0.5"));
        }
        let line = spheres("").replacen("0.5", "2e9", 1);
        assert_eq!(error_text(&line), "proxy_a.radius: proxy radius is not a finite number");
    }
}
