//! The line format of `impact toi`: one JSON query in, one JSON answer out.
//!
//! [`parse_query`] turns a line into a [`Query`] and names the field of any problem,
//! [`answer`] runs the time of impact of its dimension on it and [`write_answer`] prints
//! the result as one compact line. The format is documented in `docs/toi-format.md`.
//!
//! This file holds what both dimensions share: the query and answer, the dispatch on the
//! dimension, the output line and the reading of fields with their location. The shapes
//! and sweeps of each dimension are read by [`planar`] (2D, impact2d) and [`spatial`] (3D,
//! impact3d).

mod planar;
mod spatial;

use std::fmt;
use std::io::{self, Write};

use impact2d::QueryError;
use impact2d::ToiState;
use serde::Serialize;
use serde_json::{Map, Value};
use thiserror::Error;

/// One time-of-impact query, ready to answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Query {
    /// Echoed in the answer: a JSON number, a string, or null when the line has none.
    pub id: Value,
    /// The two shapes and their motions, in 2D or in 3D.
    pub bodies: Bodies,
    /// The normalized time at which the search ends.
    pub t_max: f32,
    /// The surface gap (meters) at which to stop.
    pub target: f32,
    /// The accepted distance (meters) of the gap from `target`.
    pub tolerance: f32,
}

/// The shapes and motions of a query, in the dimension of its points.
#[derive(Clone, Debug, PartialEq)]
pub enum Bodies {
    /// Points `[x, y]`: answered by [`impact2d::time_of_impact`].
    Planar(Pair<impact2d::ShapeProxy, impact2d::Sweep>),
    /// Points `[x, y, z]`: answered by [`impact3d::time_of_impact`].
    Spatial(Pair<impact3d::ShapeProxy, impact3d::Sweep>),
}

/// Two shapes, each in its own body coordinates (meters), and how each moves over the step.
#[derive(Clone, Debug, PartialEq)]
pub struct Pair<P, S> {
    /// The first shape.
    pub proxy_a: P,
    /// The motion of the first shape.
    pub sweep_a: S,
    /// The second shape.
    pub proxy_b: P,
    /// The motion of the second shape.
    pub sweep_b: S,
}

/// The answer to a query, in either dimension: what an output line prints.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Answer {
    /// How the search ended.
    pub state: ToiState,
    /// The normalized time (see [`reported_t`] for the one printed).
    pub t: f32,
    /// Closest-feature evaluations.
    pub iterations: u32,
    /// Root-finder iterations, summed.
    pub root_iterations: u32,
    /// For a hit, the contact point (meters, world).
    pub point: Coords,
    /// For a hit, the unit contact normal, from A to B.
    pub normal: Coords,
}

/// A point or vector of the answer: two coordinates for a 2D query, three for a 3D one.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Coords {
    /// `[x, y]`.
    Planar([f32; 2]),
    /// `[x, y, z]`.
    Spatial([f32; 3]),
}

impl Coords {
    /// The coordinates with -0.0 written as 0.0 (adding +0.0 does that).
    fn plain_zero(self) -> Coords {
        match self {
            Coords::Planar(v) => Coords::Planar(v.map(|x| x + 0.0)),
            Coords::Spatial(v) => Coords::Spatial(v.map(|x| x + 0.0)),
        }
    }
}

impl From<impact2d::ToiOutput> for Answer {
    fn from(o: impact2d::ToiOutput) -> Answer {
        let (point, normal) = (Coords::Planar(o.point.to_array()), Coords::Planar(o.normal.to_array()));
        Answer { state: o.state, t: o.t, iterations: o.iterations, root_iterations: o.root_iterations, point, normal }
    }
}

impl From<impact3d::ToiOutput> for Answer {
    fn from(o: impact3d::ToiOutput) -> Answer {
        let (point, normal) = (Coords::Spatial(o.point.to_array()), Coords::Spatial(o.normal.to_array()));
        Answer { state: o.state, t: o.t, iterations: o.iterations, root_iterations: o.root_iterations, point, normal }
    }
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
    /// A proxy with no points or more than its dimension allows.
    #[error("expected 1 to {max} points, got {count}")]
    PointCount {
        /// The number of points given.
        count: usize,
        /// The most points a proxy of the query's dimension takes.
        max: usize,
    },
    /// A 3D orientation whose length is too far from 1 to be a rotation.
    #[error("expected a unit quaternion (length within {} of 1), got length {length}", spatial::UNIT_TOLERANCE)]
    NotUnit {
        /// The quaternion's length.
        length: f32,
    },
    /// The points or radius do not make a 2D shape.
    #[error(transparent)]
    Geometry(impact2d::GeometryError),
    /// The points or radius do not make a 3D shape.
    #[error(transparent)]
    Geometry3d(impact3d::GeometryError),
}

/// Parses one line of the input format into a query.
///
/// The first point of `proxy_a` decides the dimension: three coordinates make a 3D query,
/// anything else is read as 2D (and reported as such). Every other point and vector of the
/// line must then have as many coordinates.
///
/// Errors: [`LineError::Json`] when the line is not JSON, [`LineError::Field`] naming the
/// first field that is missing, of the wrong type or dimension, non-finite as an f32, or
/// whose points do not make a shape.
pub fn parse_query(line: &str) -> Result<Query, LineError> {
    let value: Value = serde_json::from_str(line).map_err(json_error)?;
    let fields = Fields::of(&value, &Loc::Query)?;
    let id = fields.optional("id", Value::Null, id)?;
    let (bodies, target, tolerance) = if spatial::is_spatial(&fields) {
        use impact3d::settings::{TOI_TARGET, TOI_TOLERANCE};
        (Bodies::Spatial(spatial::pair(&fields)?), TOI_TARGET, TOI_TOLERANCE)
    } else {
        use impact2d::settings::{TOI_TARGET, TOI_TOLERANCE};
        (Bodies::Planar(planar::pair(&fields)?), TOI_TARGET, TOI_TOLERANCE)
    };
    Ok(Query {
        id,
        bodies,
        t_max: fields.optional("t_max", 1.0, number)?,
        target: fields.optional("target", target, number)?,
        tolerance: fields.optional("tolerance", tolerance, number)?,
    })
}

/// Answers a query with the time of impact of its dimension: [`impact2d::time_of_impact`]
/// or [`impact3d::time_of_impact`].
///
/// Errors: the [`QueryError`] of `time_of_impact` for parameters it refuses.
pub fn answer(query: &Query) -> Result<Answer, QueryError> {
    let (t_max, target, tolerance) = (query.t_max, query.target, query.tolerance);
    Ok(match &query.bodies {
        Bodies::Planar(p) => {
            impact2d::time_of_impact(&p.proxy_a, &p.sweep_a, &p.proxy_b, &p.sweep_b, t_max, target, tolerance)?.into()
        }
        Bodies::Spatial(p) => {
            impact3d::time_of_impact(&p.proxy_a, &p.sweep_a, &p.proxy_b, &p.sweep_b, t_max, target, tolerance)?.into()
        }
    })
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
pub fn reported_t(answer: &Answer) -> Option<f32> {
    matches!(answer.state, ToiState::Hit | ToiState::Failed).then_some(answer.t)
}

/// Writes the answer to the query `id` as one line of compact JSON.
///
/// Errors: those of `out`.
pub fn write_answer(out: &mut impl Write, id: &Value, answer: &Answer) -> io::Result<()> {
    let hit = answer.state == ToiState::Hit;
    let line = AnswerLine {
        id,
        state: state_name(answer.state),
        t: reported_t(answer),
        iterations: answer.iterations,
        root_iterations: hit.then_some(answer.root_iterations),
        point: hit.then(|| answer.point.plain_zero()),
        normal: hit.then(|| answer.normal.plain_zero()),
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
    point: Option<Coords>,
    #[serde(skip_serializing_if = "Option::is_none")]
    normal: Option<Coords>,
}

/// A JSON syntax error without serde_json's "line 1" (the caller knows the line).
fn json_error(error: serde_json::Error) -> LineError {
    let text = error.to_string();
    let location = format!(" at line {} column {}", error.line(), error.column());
    let message = text.strip_suffix(&location).unwrap_or(&text).to_owned();
    LineError::Json { column: error.column(), message }
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

/// `N` numbers written as one array, such as `[x, y]`, `[x, y, z]` or `[x, y, z, w]`
/// (`written`, for errors).
fn coordinates<const N: usize>(value: &Value, at: &Loc, written: &'static str) -> Result<[f32; N], LineError> {
    match value {
        Value::Array(items) if items.len() == N => {
            let mut coordinates = [0.0; N];
            for (index, (slot, item)) in coordinates.iter_mut().zip(items).enumerate() {
                *slot = number(item, &Loc::Index(at, index))?;
            }
            Ok(coordinates)
        }
        other => Err(at.wrong_type(written, other)),
    }
}

/// 1 to `max` points, each read by `point`; `written` names the array for errors.
fn points<T>(
    value: &Value,
    at: &Loc,
    max: usize,
    written: &'static str,
    point: fn(&Value, &Loc) -> Result<T, LineError>,
) -> Result<Vec<T>, LineError> {
    let Value::Array(items) = value else {
        return Err(at.wrong_type(written, value));
    };
    if items.is_empty() || items.len() > max {
        return Err(at.error(Problem::PointCount { count: items.len(), max }));
    }
    items.iter().enumerate().map(|(index, item)| point(item, &Loc::Index(at, index))).collect()
}

#[cfg(test)]
mod tests {
    use impact2d::{ToiOutput, Vec2};

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
    fn bad_json_gives_the_column() {
        assert_eq!(error_text(r#"{"id": 1,"#), "invalid JSON at column 9: EOF while parsing a value");
        assert_eq!(error_text("{'id': 1}"), "invalid JSON at column 2: key must be a string");
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
        write_answer(&mut out, &id, &Answer::from(*output)).unwrap();
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
    fn answers_to_3d_queries_have_three_coordinates() {
        let output = impact3d::ToiOutput {
            state: ToiState::Hit,
            t: 0.5,
            iterations: 4,
            root_iterations: 7,
            point: impact3d::Vec3::new(-0.0, 1.5, 0.25),
            normal: impact3d::Vec3::new(0.0, -0.0, -1.0),
            subdivisions: 2,
            glancing: false,
        };
        let mut out = Vec::new();
        write_answer(&mut out, &Value::from(1), &Answer::from(output)).unwrap();
        let expected = r#"{"id":1,"state":"hit","t":0.5,"iterations":4,"root_iterations":7,"point":[0.0,1.5,0.25],"normal":[0.0,0.0,-1.0]}"#;
        assert_eq!(String::from_utf8(out).unwrap(), format!("{expected}\n"));
    }

    #[test]
    fn times_print_as_the_shortest_f32() {
        // 1/3 as an f32 is 0.3333333432674408 exactly; its shortest round-trip form is 0.33333334.
        let line = answer_line(Value::Null, &output(ToiState::Failed, 1.0 / 3.0));
        assert!(line.contains(r#""t":0.33333334,"#), "{line}");
    }
}
