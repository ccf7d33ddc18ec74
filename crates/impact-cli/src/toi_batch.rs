//! The line format of `impact toi`: one JSON query in, one JSON answer out.
//!
//! [`parse_query`] turns a line into a [`Query`] and names the field of any problem,
//! [`answer`] runs [`time_of_impact`] on it and [`write_answer`] prints the result as one
//! compact line. The format is documented in `docs/toi-format.md`.

use std::fmt;
use std::io::{self, Write};

use impact2d::settings::{MAX_POLYGON_VERTICES, TOI_TARGET, TOI_TOLERANCE};
use impact2d::{
    GeometryError, Polygon, QueryError, Shape, ShapeProxy, Sweep, ToiOutput, ToiState, Vec2, time_of_impact,
};
use serde::Serialize;
use serde_json::{Map, Value};
use thiserror::Error;

/// One time-of-impact query, ready to answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Query {
    /// Echoed in the answer: a JSON number, a string, or null when the line has none.
    pub id: Value,
    /// The first shape, in its body coordinates (meters).
    pub proxy_a: ShapeProxy,
    /// The motion of the first shape over the step.
    pub sweep_a: Sweep,
    /// The second shape, in its body coordinates (meters).
    pub proxy_b: ShapeProxy,
    /// The motion of the second shape over the step.
    pub sweep_b: Sweep,
    /// The normalized time at which the search ends.
    pub t_max: f32,
    /// The surface gap (meters) at which to stop.
    pub target: f32,
    /// The accepted distance (meters) of the gap from `target`.
    pub tolerance: f32,
}

/// Why a line gets no answer. The caller prefixes the file name and line number.
#[derive(Debug, Error)]
pub enum LineError {
    /// The line is not JSON.
    #[error("invalid JSON at column {column}: {message}")]
    Json {
        /// The column (1-based, in bytes) where parsing stopped.
        column: usize,
        /// serde_json's description of the problem.
        message: String,
    },
    /// The line is not UTF-8 text.
    #[error("not valid UTF-8")]
    NotUtf8,
    /// A field is missing, of the wrong type or out of range.
    #[error("{field}: {problem}")]
    Field {
        /// Where the field sits, e.g. `sweep_a.c1` or `proxy_b.points[3][0]`.
        field: String,
        /// What is wrong with it.
        problem: Problem,
    },
    /// `time_of_impact` refused the parameters.
    #[error("query rejected: {0}")]
    Rejected(#[from] QueryError),
}

/// What is wrong with one field of a query.
#[derive(Debug, Error)]
pub enum Problem {
    /// A required field is absent.
    #[error("missing")]
    Missing,
    /// The value has the wrong JSON type or shape.
    #[error("expected {expected}, got {found}")]
    WrongType {
        /// What the format asks for.
        expected: &'static str,
        /// What the line holds.
        found: String,
    },
    /// A number that is infinite once rounded to f32.
    #[error("{0:e} is beyond the range of f32")]
    OutOfRange(f64),
    /// A proxy with no points or more than [`MAX_POLYGON_VERTICES`].
    #[error("expected 1 to {MAX_POLYGON_VERTICES} points, got {0}")]
    PointCount(usize),
    /// The points or radius do not make a shape.
    #[error(transparent)]
    Geometry(GeometryError),
}

/// Parses one line of the input format into a query.
///
/// Errors: [`LineError::Json`] when the line is not JSON, [`LineError::Field`] naming the
/// first field that is missing, of the wrong type, non-finite as an f32, or whose points do
/// not make a shape.
pub fn parse_query(line: &str) -> Result<Query, LineError> {
    let value: Value = serde_json::from_str(line).map_err(json_error)?;
    let fields = Fields::of(&value, &Loc::Query)?;
    Ok(Query {
        id: fields.optional("id", Value::Null, id)?,
        proxy_a: fields.required("proxy_a", proxy)?,
        sweep_a: fields.required("sweep_a", sweep)?,
        proxy_b: fields.required("proxy_b", proxy)?,
        sweep_b: fields.required("sweep_b", sweep)?,
        t_max: fields.optional("t_max", 1.0, number)?,
        target: fields.optional("target", TOI_TARGET, number)?,
        tolerance: fields.optional("tolerance", TOI_TOLERANCE, number)?,
    })
}

/// Answers a query with [`time_of_impact`].
///
/// Errors: the [`QueryError`] of `time_of_impact` for parameters it refuses.
pub fn answer(query: &Query) -> Result<ToiOutput, QueryError> {
    let q = query;
    time_of_impact(&q.proxy_a, &q.sweep_a, &q.proxy_b, &q.sweep_b, q.t_max, q.target, q.tolerance)
}

/// The name of a state in the output format.
pub fn state_name(state: ToiState) -> &'static str {
    match state {
        ToiState::Hit => "hit",
        ToiState::Separated => "separated",
        ToiState::Overlapped => "overlapped",
        ToiState::Failed => "failed",
    }
}

/// The time printed for an answer: the time of impact for a hit, the last safe time for a
/// failure, none for separated or overlapped shapes.
pub fn reported_t(output: &ToiOutput) -> Option<f32> {
    matches!(output.state, ToiState::Hit | ToiState::Failed).then_some(output.t)
}

/// Writes the answer to the query `id` as one line of compact JSON.
///
/// Errors: those of `out`.
pub fn write_answer(out: &mut impl Write, id: &Value, output: &ToiOutput) -> io::Result<()> {
    let hit = output.state == ToiState::Hit;
    let line = AnswerLine {
        id,
        state: state_name(output.state),
        t: reported_t(output),
        iterations: output.iterations,
        root_iterations: hit.then_some(output.root_iterations),
        point: hit.then(|| plain_zero(output.point)),
        normal: hit.then(|| plain_zero(output.normal)),
    };
    serde_json::to_writer(&mut *out, &line)?;
    out.write_all(b"\n")
}

/// One output line; the optional fields only appear for hits.
#[derive(Serialize)]
struct AnswerLine<'a> {
    id: &'a Value,
    state: &'static str,
    t: Option<f32>,
    iterations: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    root_iterations: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    point: Option<[f32; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    normal: Option<[f32; 2]>,
}

/// A JSON syntax error without serde_json's "line 1" (the caller knows the line).
fn json_error(error: serde_json::Error) -> LineError {
    let text = error.to_string();
    let location = format!(" at line {} column {}", error.line(), error.column());
    let message = text.strip_suffix(&location).unwrap_or(&text).to_owned();
    LineError::Json { column: error.column(), message }
}

/// The vector as an array, with -0.0 written as 0.0 (adding +0.0 does that).
fn plain_zero(v: Vec2) -> [f32; 2] {
    [v.x + 0.0, v.y + 0.0]
}

/// Where a value sits in a query line; printed as `sweep_a.c1` or `proxy_b.points[3][0]`.
enum Loc<'a> {
    /// The whole line.
    Query,
    /// A field of an object.
    Key(&'a Loc<'a>, &'static str),
    /// An item of an array.
    Index(&'a Loc<'a>, usize),
}

impl fmt::Display for Loc<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Loc::Query => f.write_str("query"),
            Loc::Key(Loc::Query, key) => f.write_str(key),
            Loc::Key(parent, key) => write!(f, "{parent}.{key}"),
            Loc::Index(parent, index) => write!(f, "{parent}[{index}]"),
        }
    }
}

impl Loc<'_> {
    fn error(&self, problem: Problem) -> LineError {
        LineError::Field { field: self.to_string(), problem }
    }

    fn wrong_type(&self, expected: &'static str, found: &Value) -> LineError {
        self.error(Problem::WrongType { expected, found: describe(found) })
    }
}

/// A short description of a JSON value for error messages.
fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => format!("the number {n}"),
        Value::String(_) => "a string".into(),
        Value::Array(items) if items.len() == 1 => "an array of 1 item".into(),
        Value::Array(items) => format!("an array of {} items", items.len()),
        Value::Object(_) => "an object".into(),
    }
}

/// The fields of a JSON object, with their location for errors.
struct Fields<'v, 'a> {
    map: &'v Map<String, Value>,
    at: &'a Loc<'a>,
}

impl<'v, 'a> Fields<'v, 'a> {
    fn of(value: &'v Value, at: &'a Loc<'a>) -> Result<Self, LineError> {
        match value {
            Value::Object(map) => Ok(Fields { map, at }),
            other => Err(at.wrong_type("an object", other)),
        }
    }

    /// The field `key` read by `read`; missing is an error.
    fn required<T>(&self, key: &'static str, read: fn(&Value, &Loc) -> Result<T, LineError>) -> Result<T, LineError> {
        let at = Loc::Key(self.at, key);
        match self.map.get(key) {
            Some(value) => read(value, &at),
            None => Err(at.error(Problem::Missing)),
        }
    }

    /// The field `key` read by `read`, or `default` when it is missing or null.
    fn optional<T>(
        &self,
        key: &'static str,
        default: T,
        read: fn(&Value, &Loc) -> Result<T, LineError>,
    ) -> Result<T, LineError> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(default),
            Some(value) => read(value, &Loc::Key(self.at, key)),
        }
    }
}

fn id(value: &Value, at: &Loc) -> Result<Value, LineError> {
    match value {
        Value::Number(_) | Value::String(_) => Ok(value.clone()),
        other => Err(at.wrong_type("a number or a string", other)),
    }
}

/// A number, rounded to f32; it must stay finite.
fn number(value: &Value, at: &Loc) -> Result<f32, LineError> {
    let x = value.as_f64().ok_or_else(|| at.wrong_type("a number", value))?;
    let rounded = x as f32;
    if rounded.is_finite() { Ok(rounded) } else { Err(at.error(Problem::OutOfRange(x))) }
}

/// A point or vector written `[x, y]`.
fn vec2(value: &Value, at: &Loc) -> Result<Vec2, LineError> {
    match value {
        Value::Array(xy) if xy.len() == 2 => {
            Ok(Vec2::new(number(&xy[0], &Loc::Index(at, 0))?, number(&xy[1], &Loc::Index(at, 1))?))
        }
        other => Err(at.wrong_type("[x, y]", other)),
    }
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
    let points = fields.required("points", points)?;
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

/// 1 to [`MAX_POLYGON_VERTICES`] points.
fn points(value: &Value, at: &Loc) -> Result<PointList, LineError> {
    let Value::Array(items) = value else {
        return Err(at.wrong_type("an array of [x, y] points", value));
    };
    if items.is_empty() || items.len() > MAX_POLYGON_VERTICES {
        return Err(at.error(Problem::PointCount(items.len())));
    }
    let mut list = PointList { points: [Vec2::ZERO; MAX_POLYGON_VERTICES], count: items.len() };
    for (index, (slot, item)) in list.points.iter_mut().zip(items).enumerate() {
        *slot = vec2(item, &Loc::Index(at, index))?;
    }
    Ok(list)
}

/// The points of a proxy before it is built.
struct PointList {
    points: [Vec2; MAX_POLYGON_VERTICES],
    count: usize,
}

impl PointList {
    fn as_slice(&self) -> &[Vec2] {
        &self.points[..self.count]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CIRCLE: &str = r#"{"points": [[0, 0]], "radius": 0.5}"#;
    const STILL: &str = r#"{"c1": [0, 0], "c2": [0, 0], "a1": 0, "a2": 0}"#;

    /// A query of two circles with `extra` spliced into the top-level object.
    fn circles(extra: &str) -> String {
        format!(r#"{{{extra}"proxy_a": {CIRCLE}, "sweep_a": {STILL}, "proxy_b": {CIRCLE}, "sweep_b": {STILL}}}"#)
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
        assert_eq!(query.id, Value::from(7));
        assert_eq!(query.proxy_a.points(), &[Vec2::new(1.0, 2.0), Vec2::new(3.0, 4.0)]);
        assert_eq!(query.proxy_a.radius(), 0.25);
        let sweep_a = Sweep {
            local_center: Vec2::new(0.5, -0.5),
            c1: Vec2::new(1.0, 0.0),
            c2: Vec2::new(2.0, 0.0),
            a1: 0.1,
            a2: -3.0,
        };
        assert_eq!(query.sweep_a, sweep_a);
        assert_eq!(query.proxy_b.points(), &[Vec2::ZERO]);
        assert_eq!(query.proxy_b.radius(), 1e-3);
        assert_eq!(query.sweep_b.c2, Vec2::new(0.0, -1.5));
        assert_eq!(query.sweep_b.a2, 12.5);
        assert_eq!((query.t_max, query.target, query.tolerance), (0.75, 0.01, 0.002));
    }

    #[test]
    fn absent_or_null_optional_fields_take_their_defaults() {
        let bare = r#"{"proxy_a": {"points": [[0, 0]]}, "sweep_a": {"c1": [0, 0], "c2": [1, 0], "a1": 0, "a2": 0},
            "proxy_b": {"points": [[3, 0]], "radius": null}, "sweep_b": {"local_center": null, "c1": [0, 0], "c2": [0, 0], "a1": 0, "a2": 0},
            "t_max": null}"#;
        let query = parse_query(bare).unwrap();
        assert_eq!(query.id, Value::Null);
        assert_eq!((query.proxy_a.radius(), query.proxy_b.radius()), (0.0, 0.0));
        assert_eq!((query.sweep_a.local_center, query.sweep_b.local_center), (Vec2::ZERO, Vec2::ZERO));
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
    fn ids_are_numbers_or_strings_echoed_as_given() {
        for (id, expected) in [
            ("7", Value::from(7)),
            ("-3", Value::from(-3)),
            ("2.5", Value::from(2.5)),
            ("18446744073709551615", Value::from(u64::MAX)),
            (r#""bullet""#, Value::from("bullet")),
        ] {
            assert_eq!(parse_query(&circles(&format!(r#""id": {id}, "#))).unwrap().id, expected);
        }
        for (id, found) in [("true", "true"), ("[7]", "an array of 1 item"), (r#"{"n": 7}"#, "an object")] {
            let text = error_text(&circles(&format!(r#""id": {id}, "#)));
            assert_eq!(text, format!("id: expected a number or a string, got {found}"));
        }
    }

    #[test]
    fn one_and_two_points_make_circles_and_capsules() {
        let line = circles("").replacen(r#"[[0, 0]], "radius": 0.5"#, r#"[[-1, 0], [1, 0]], "radius": 0"#, 1);
        let query = parse_query(&line).unwrap();
        assert_eq!(query.proxy_a.count(), 2);
        assert_eq!(query.proxy_a.radius(), 0.0);
        // Two coincident points are accepted: the proxy is a circle.
        let line = circles("").replacen("[[0, 0]]", "[[2, 2], [2, 2]]", 1);
        assert_eq!(parse_query(&line).unwrap().proxy_a.points(), &[Vec2::splat(2.0); 2]);
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
                circles("").replacen("[[0, 0]]", "[[0, 0, 0]]", 1),
                "proxy_a.points[0]: expected [x, y], got an array of 3 items",
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
    fn bad_json_gives_the_column() {
        assert_eq!(error_text(r#"{"id": 1,"#), "invalid JSON at column 9: EOF while parsing a value");
        assert_eq!(error_text("{'id': 1}"), "invalid JSON at column 2: key must be a string");
    }

    #[test]
    fn polygons_are_convex_hulls_of_points_in_any_order() {
        let line = circles("").replacen("[[0, 0]]", "[[1, 1], [0, 0], [0.5, 0.5], [1, 0], [0, 1]]", 1);
        let query = parse_query(&line).unwrap();
        let hull = query.proxy_a.points();
        assert_eq!(hull.len(), 4, "the inner point is dropped: {hull:?}");
        for corner in [Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y] {
            assert!(hull.contains(&corner), "{corner} missing from {hull:?}");
        }
        let area2: f32 = (0..4).map(|i| hull[i].perp_dot(hull[(i + 1) % 4])).sum();
        assert!(area2 > 0.0, "counter-clockwise");
        assert_eq!(query.proxy_a.radius(), 0.5);
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

    fn output(state: ToiState, t: f32) -> ToiOutput {
        ToiOutput {
            state,
            t,
            iterations: 3,
            root_iterations: 9,
            point: Vec2::new(0.0, 0.0125),
            normal: Vec2::new(0.0, 1.0),
            subdivisions: 0,
            glancing: false,
        }
    }

    fn answer_line(id: Value, output: &ToiOutput) -> String {
        let mut out = Vec::new();
        write_answer(&mut out, &id, output).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn answers_are_compact_lines() {
        let hit = answer_line(Value::from(7), &output(ToiState::Hit, 0.347));
        let expected = r#"{"id":7,"state":"hit","t":0.347,"iterations":3,"root_iterations":9,"point":[0.0,0.0125],"normal":[0.0,1.0]}"#;
        assert_eq!(hit, format!("{expected}\n"));
        let failed = answer_line(Value::from("spin"), &output(ToiState::Failed, 0.25));
        assert_eq!(failed, "{\"id\":\"spin\",\"state\":\"failed\",\"t\":0.25,\"iterations\":3}\n");
        let separated = answer_line(Value::Null, &output(ToiState::Separated, 1.0));
        assert_eq!(separated, "{\"id\":null,\"state\":\"separated\",\"t\":null,\"iterations\":3}\n");
        let overlapped = answer_line(Value::from(2.5), &output(ToiState::Overlapped, 0.0));
        assert_eq!(overlapped, "{\"id\":2.5,\"state\":\"overlapped\",\"t\":null,\"iterations\":3}\n");
    }

    #[test]
    fn times_print_as_the_shortest_f32() {
        // 1/3 as an f32 is 0.3333333432674408 exactly; its shortest round-trip form is 0.33333334.
        let line = answer_line(Value::Null, &output(ToiState::Failed, 1.0 / 3.0));
        assert!(line.contains(r#""t":0.33333334,"#), "{line}");
    }
}
