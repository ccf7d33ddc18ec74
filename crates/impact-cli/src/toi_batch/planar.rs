//! The 2D shapes and sweeps of a query line, for [`impact2d::time_of_impact`]: points
//! `[x, y]`, angles `a1` and `a2`.

use impact2d::settings::MAX_POLYGON_VERTICES;
use impact2d::{GeometryError, Polygon, Shape, ShapeProxy, Sweep, Vec2};
use serde_json::Value;

use super::{Fields, LineError, Loc, Pair, Problem, coordinates, number, points};

/// The proxies and sweeps of a 2D query, in the order their errors are reported.
pub(super) fn pair(fields: &Fields) -> Result<Pair<ShapeProxy, Sweep>, LineError> {
    Ok(Pair {
        proxy_a: fields.required("proxy_a", proxy)?,
        sweep_a: fields.required("sweep_a", sweep)?,
        proxy_b: fields.required("proxy_b", proxy)?,
        sweep_b: fields.required("sweep_b", sweep)?,
    })
}

/// A point or vector written `[x, y]`.
fn vec2(value: &Value, at: &Loc) -> Result<Vec2, LineError> {
    coordinates(value, at, "[x, y]").map(Vec2::from_array)
}

fn sweep(value: &Value, at: &Loc) -> Result<Sweep, LineError> {
    let fields = Fields::of(value, at)?;
    Ok(Sweep {
        local_center: fields.optional("local_center", Vec2::ZERO, vec2)?,
        c1: fields.required("c1", vec2)?,
        c2: fields.required("c2", vec2)?,
        a1: fields.required("a1", number)?,
        a2: fields.required("a2", number)?,
    })
}

/// A shape proxy: 1 point is a circle, 2 a capsule or segment, 3 to 8 the convex hull of
/// the points, all inflated by the radius.
fn proxy(value: &Value, at: &Loc) -> Result<ShapeProxy, LineError> {
    let fields = Fields::of(value, at)?;
    let points = fields
        .required("points", |value, at| points(value, at, MAX_POLYGON_VERTICES, "an array of [x, y] points", vec2))?;
    let radius = fields.optional("radius", 0.0, number)?;
    let built = match points.as_slice() {
        few @ ([_] | [_, _]) => ShapeProxy::new(few, radius),
        many => Polygon::new(many, radius).map(|polygon| ShapeProxy::from_shape(&Shape::Polygon(polygon))),
    };
    built.map_err(|error| {
        let key = if matches!(error, GeometryError::InvalidRadius { .. }) { "radius" } else { "points" };
        Loc::Key(at, key).error(Problem::Geometry(error))
    })
}

#[cfg(test)]
mod tests {
    use impact2d::settings::{TOI_TARGET, TOI_TOLERANCE};

    use super::super::{Bodies, Query, parse_query};
    use super::*;

    const CIRCLE: &str = r#"{"points": [[0, 0]], "radius": 0.5}"#;
    const STILL: &str = r#"{"c1": [0, 0], "c2": [0, 0], "a1": 0, "a2": 0}"#;

    /// A query of two circles with `extra` spliced into the top-level object.
    fn circles(extra: &str) -> String {
        format!(r#"{{{extra}"proxy_a": {CIRCLE}, "sweep_a": {STILL}, "proxy_b": {CIRCLE}, "sweep_b": {STILL}}}"#)
    }

    fn planar(query: &Query) -> &Pair<ShapeProxy, Sweep> {
        match &query.bodies {
            Bodies::Planar(pair) => pair,
            Bodies::Spatial(_) => panic!("a 3D query: {query:?}"),
        }
    }

    fn error_text(line: &str) -> String {
        match parse_query(line) {
            Ok(query) => panic!("expected an error, parsed {query:?}"),
            Err(error) => error.to_string(),
        }
    }

    #[test]
    fn parses_every_field() {
        let line = r#"{"id": 7,
            "proxy_a": {"points": [[1, 2], [3, 4]], "radius": 0.25},
            "sweep_a": {"local_center": [0.5, -0.5], "c1": [1, 0], "c2": [2, 0], "a1": 0.1, "a2": -3},
            "proxy_b": {"points": [[0, 0]], "radius": 1e-3},
            "sweep_b": {"c1": [0, 1], "c2": [0, -1.5], "a1": 0, "a2": 12.5},
            "t_max": 0.75, "target": 0.01, "tolerance": 0.002}"#;
        let query = parse_query(line).unwrap();
        let pair = planar(&query);
        assert_eq!(query.id, Value::from(7));
        assert_eq!(pair.proxy_a.points(), &[Vec2::new(1.0, 2.0), Vec2::new(3.0, 4.0)]);
        assert_eq!(pair.proxy_a.radius(), 0.25);
        let sweep_a = Sweep {
            local_center: Vec2::new(0.5, -0.5),
            c1: Vec2::new(1.0, 0.0),
            c2: Vec2::new(2.0, 0.0),
            a1: 0.1,
            a2: -3.0,
        };
        assert_eq!(pair.sweep_a, sweep_a);
        assert_eq!(pair.proxy_b.points(), &[Vec2::ZERO]);
        assert_eq!(pair.proxy_b.radius(), 1e-3);
        assert_eq!(pair.sweep_b.c2, Vec2::new(0.0, -1.5));
        assert_eq!(pair.sweep_b.a2, 12.5);
        assert_eq!((query.t_max, query.target, query.tolerance), (0.75, 0.01, 0.002));
    }

    #[test]
    fn absent_or_null_optional_fields_take_their_defaults() {
        let bare = r#"{"proxy_a": {"points": [[0, 0]]}, "sweep_a": {"c1": [0, 0], "c2": [1, 0], "a1": 0, "a2": 0},
            "proxy_b": {"points": [[3, 0]], "radius": null}, "sweep_b": {"local_center": null, "c1": [0, 0], "c2": [0, 0], "a1": 0, "a2": 0},
            "t_max": null}"#;
        let query = parse_query(bare).unwrap();
        let pair = planar(&query);
        assert_eq!(query.id, Value::Null);
        assert_eq!((pair.proxy_a.radius(), pair.proxy_b.radius()), (0.0, 0.0));
        assert_eq!((pair.sweep_a.local_center, pair.sweep_b.local_center), (Vec2::ZERO, Vec2::ZERO));
        assert_eq!((query.t_max, query.target, query.tolerance), (1.0, TOI_TARGET, TOI_TOLERANCE));
        assert_eq!(parse_query(&circles(r#""id": null, "#)).unwrap().id, Value::Null);
    }

    #[test]
    fn unknown_fields_are_ignored() {
        let noisy = r#"{"id": "x", "comment": [1, {"a": 2}],
            "proxy_a": {"points": [[0, 0]], "radius": 0.5, "kind": "circle"}, "sweep_a": {"c1": [0, 0], "c2": [0, 0], "a1": 0, "a2": 0, "v": 3},
            "proxy_b": {"points": [[0, 0]], "radius": 0.5}, "sweep_b": {"c1": [0, 0], "c2": [0, 0], "a1": 0, "a2": 0}, "speed": "fast"}"#;
        let clean = circles(r#""id": "x", "#);
        assert_eq!(parse_query(noisy).unwrap(), parse_query(&clean).unwrap());
    }

    #[test]
    fn one_and_two_points_make_circles_and_capsules() {
        let line = circles("").replacen(r#"[[0, 0]], "radius": 0.5"#, r#"[[-1, 0], [1, 0]], "radius": 0"#, 1);
        let query = parse_query(&line).unwrap();
        let pair = planar(&query);
        assert_eq!(pair.proxy_a.count(), 2);
        assert_eq!(pair.proxy_a.radius(), 0.0);
        // Two coincident points are accepted: the proxy is a circle.
        let line = circles("").replacen("[[0, 0]]", "[[2, 2], [2, 2]]", 1);
        assert_eq!(planar(&parse_query(&line).unwrap()).proxy_a.points(), &[Vec2::splat(2.0); 2]);
    }

    #[test]
    fn negative_radius_names_the_radius_field() {
        let line = circles("").replacen("0.5", "-0.5", 1);
        assert_eq!(error_text(&line), "proxy_a.radius: proxy radius must be zero or positive, got -0.5");
        // A polygon checks its radius before building its hull.
        let line = circles("").replacen(r#"[[0, 0]], "radius": 0.5"#, r#"[[0, 0], [1, 0], [0, 1]], "radius": -1"#, 1);
        assert_eq!(error_text(&line), "proxy_a.radius: polygon radius must be zero or positive, got -1");
    }

    #[test]
    fn point_counts_outside_1_to_8_are_errors() {
        let none = circles("").replacen("[[0, 0]]", "[]", 1);
        assert_eq!(error_text(&none), "proxy_a.points: expected 1 to 8 points, got 0");
        let nine = (0..9).map(|i| format!("[{i}, {}]", i * i)).collect::<Vec<_>>().join(", ");
        let line = circles("").replace(r#"[[0, 0]], "radius": 0.5}, "sweep_b""#, &format!(r#"[{nine}]}}, "sweep_b""#));
        assert_eq!(error_text(&line), "proxy_b.points: expected 1 to 8 points, got 9");
    }

    #[test]
    fn wrong_types_name_the_field() {
        let cases = [
            (circles("").replacen(r#""a2": 0"#, r#""a2": "0""#, 1), "sweep_a.a2: expected a number, got a string"),
            (
                circles("").replacen("[[0, 0]]", r#"[[0, "1"]]"#, 1),
                "proxy_a.points[0][1]: expected a number, got a string",
            ),
            (
                circles("").replacen("[[0, 0]]", "[[0, 0, 0, 0]]", 1),
                "proxy_a.points[0]: expected [x, y], got an array of 4 items",
            ),
            (circles("").replacen("[[0, 0]]", "[0, 0]", 1), "proxy_a.points[0]: expected [x, y], got the number 0"),
            (circles("").replacen(r#""c1": [0, 0]"#, r#""c1": null"#, 1), "sweep_a.c1: expected [x, y], got null"),
            (circles("").replacen(STILL, "[]", 1), "sweep_a: expected an object, got an array of 0 items"),
            (circles(r#""t_max": "1", "#), "t_max: expected a number, got a string"),
            ("[1, 2]".to_owned(), "query: expected an object, got an array of 2 items"),
        ];
        for (line, expected) in cases {
            assert_eq!(error_text(&line), expected, "{line}");
        }
    }

    #[test]
    fn missing_fields_are_named() {
        let line = circles("").replacen(r#", "a2": 0"#, "", 2); // Both sweeps lose a2; A is reported.
        assert_eq!(error_text(&line), "sweep_a.a2: missing");
        let line = circles("").replace(r#""sweep_b": "#, r#""sweep_c": "#);
        assert_eq!(error_text(&line), "sweep_b: missing");
        let line = circles("").replacen(r#""points": [[0, 0]], "#, "", 1);
        assert_eq!(error_text(&line), "proxy_a.points: missing");
    }

    #[test]
    fn numbers_beyond_f32_are_errors() {
        // 1e39 is a finite f64 but an infinite f32.
        let line = circles("").replacen(r#""c1": [0, 0]"#, r#""c1": [1e39, 0]"#, 1);
        assert_eq!(error_text(&line), "sweep_a.c1[0]: 1e39 is beyond the range of f32");
        let line = circles(r#""target": -1e39, "#);
        assert_eq!(error_text(&line), "target: -1e39 is beyond the range of f32");
        // 1e999 is not even an f64: serde_json refuses it as invalid JSON.
        let line = circles("").replacen(r#""radius": 0.5"#, r#""radius": 1e999"#, 1);
        let text = error_text(&line);
        assert!(text.starts_with("invalid JSON at column ") && text.ends_with(": number out of range"), "{text}");
    }

    #[test]
    fn polygons_are_convex_hulls_of_points_in_any_order() {
        let line = circles("").replacen("[[0, 0]]", "[[1, 1], [0, 0], [0.5, 0.5], [1, 0], [0, 1]]", 1);
        let query = parse_query(&line).unwrap();
        let pair = planar(&query);
        let hull = pair.proxy_a.points();
        assert_eq!(hull.len(), 4, "the inner point is dropped: {hull:?}");
        for corner in [Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y] {
            assert!(hull.contains(&corner), "{corner} missing from {hull:?}");
        }
        let area2: f32 = (0..4).map(|i| hull[i].perp_dot(hull[(i + 1) % 4])).sum();
        assert!(area2 > 0.0, "counter-clockwise");
        assert_eq!(pair.proxy_a.radius(), 0.5);
    }

    #[test]
    fn degenerate_polygons_name_the_points_field() {
        let collinear = circles("").replacen("[[0, 0]]", "[[0, 0], [1, 1], [2, 2]]", 1);
        assert_eq!(
            error_text(&collinear),
            "proxy_a.points: polygon points are collinear (their hull is thinner than the linear slop)"
        );
        let welded = circles("").replacen("[[0, 0]]", "[[0, 0], [1, 0], [1, 0.001]]", 1);
        assert_eq!(error_text(&welded), "proxy_a.points: polygon needs at least 3 distinct points, got 2");
    }
}
