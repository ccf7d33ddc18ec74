//! Reading a [`Scene`] from the positioned JSON tree: every problem gets the line and column
//! of the value at fault and its field path.

use std::fmt;

use impact2d::Vec2;

use super::joints::{JOINT_FIELDS, JOINT_TYPES, JointDef};
use super::movers::{COMMAND_FIELDS, MOVER_FIELDS, MoverCommand, MoverSpec};
use super::{BodyDef, BodyType, FieldPath, Geometry, PathStep, Scene, SceneError, ShapeDef, defaults};
use crate::json::{Member, Node, Pos, Value};

/// The fields of the scene object.
const SCENE_FIELDS: &[&str] = &[
    "name",
    "description",
    "gravity",
    "time_step",
    "substeps",
    "steps",
    "max_linear_speed",
    "max_angular_speed",
    "enable_continuous",
    "bodies",
    "joints",
    "movers",
];

/// The fields of a body object.
const BODY_FIELDS: &[&str] = &[
    "name",
    "type",
    "position",
    "angle",
    "linear_velocity",
    "angular_velocity",
    "linear_damping",
    "angular_damping",
    "gravity_scale",
    "fixed_rotation",
    "bullet",
    "continuous",
    "safety_factor",
    "awake",
    "enable_sleep",
    "shapes",
];

/// The fields every shape has besides its geometry.
const MATERIAL_FIELDS: &[&str] = &[
    "type",
    "density",
    "friction",
    "restitution",
    "sensor",
    "category_bits",
    "mask_bits",
    "group_index",
    "tangent_speed",
    "rolling_resistance",
    "one_way",
    "one_way_normal",
];

/// The shape types and their geometry fields.
const SHAPE_KINDS: &[(&str, &[&str])] = &[
    ("circle", &["center", "radius"]),
    ("capsule", &["center1", "center2", "radius"]),
    ("box", &["half_width", "half_height", "center", "angle", "radius"]),
    ("polygon", &["points", "radius"]),
    ("concave", &["points", "radius"]),
    ("segment", &["point1", "point2"]),
    ("chain", &["points", "loop"]),
];

const BODY_TYPES: &[&str] = &["static", "kinematic", "dynamic"];

/// Reads the scene object at the root.
pub(super) fn scene(root: &Node) -> Result<Scene, SceneError> {
    let at = Loc::Root;
    let fields = Fields::of(root, &at)?;
    fields.reject_unknown(SCENE_FIELDS, "a scene")?;
    Ok(Scene {
        name: fields.optional("name", String::new(), string)?,
        description: fields.optional("description", String::new(), string)?,
        gravity: fields.optional("gravity", defaults::GRAVITY, vec2)?,
        time_step: fields.optional("time_step", defaults::TIME_STEP, number)?,
        substeps: fields.optional("substeps", defaults::SUBSTEPS, count)?,
        steps: fields.optional("steps", defaults::STEPS, count)?,
        max_linear_speed: fields.optional("max_linear_speed", defaults::MAX_LINEAR_SPEED, number)?,
        max_angular_speed: fields.optional("max_angular_speed", defaults::MAX_ANGULAR_SPEED, number)?,
        enable_continuous: fields.optional("enable_continuous", true, boolean)?,
        bodies: fields.optional("bodies", Vec::new(), |node, at| list(node, at, body))?,
        joints: fields.optional("joints", Vec::new(), |node, at| list(node, at, joint))?,
        movers: fields.optional("movers", Vec::new(), |node, at| list(node, at, mover))?,
    })
}

fn mover(node: &Node, at: &Loc) -> Result<MoverSpec, SceneError> {
    let fields = Fields::of(node, at)?;
    fields.reject_unknown(MOVER_FIELDS, "a mover")?;
    let d = MoverSpec::new(&fields.required("body", string)?);
    Ok(MoverSpec {
        skin: fields.optional("skin", d.skin, number)?,
        max_slope: fields.optional("max_slope", d.max_slope, number)?,
        step_height: fields.optional("step_height", d.step_height, number)?,
        snap_distance: fields.optional("snap_distance", d.snap_distance, number)?,
        push_force: fields.optional("push_force", d.push_force, number)?,
        script: fields.optional("script", Vec::new(), |node, at| list(node, at, command))?,
        ..d
    })
}

fn command(node: &Node, at: &Loc) -> Result<MoverCommand, SceneError> {
    let fields = Fields::of(node, at)?;
    fields.reject_unknown(COMMAND_FIELDS, "a mover command")?;
    Ok(MoverCommand {
        step: fields.required("step", count)?,
        run: fields.optional("run", None, |n, at| number(n, at).map(Some))?,
        jump: fields.optional("jump", 0.0, number)?,
    })
}

fn joint(node: &Node, at: &Loc) -> Result<JointDef, SceneError> {
    let fields = Fields::of(node, at)?;
    fields.reject_unknown(JOINT_FIELDS, "a joint")?;
    let joint_type = fields.required("type", |n, at| name_in(n, at, JOINT_TYPES, "joint type"))?;
    let d = JointDef::new(joint_type, &fields.required("body_a", string)?, &fields.required("body_b", string)?);
    let some_vec2 = |n: &Node, at: &Loc| vec2(n, at).map(Some);
    let some_number = |n: &Node, at: &Loc| number(n, at).map(Some);
    Ok(JointDef {
        name: fields.optional("name", d.name.clone(), string)?,
        anchor: fields.optional("anchor", None, some_vec2)?,
        anchor_a: fields.optional("anchor_a", None, some_vec2)?,
        anchor_b: fields.optional("anchor_b", None, some_vec2)?,
        axis: fields.optional("axis", None, some_vec2)?,
        length: fields.optional("length", None, some_number)?,
        lower: fields.optional("lower", 0.0, number)?,
        upper: fields.optional("upper", 0.0, number)?,
        enable_limit: fields.optional("enable_limit", false, boolean)?,
        enable_motor: fields.optional("enable_motor", false, boolean)?,
        motor_speed: fields.optional("motor_speed", 0.0, number)?,
        max_motor_torque: fields.optional("max_motor_torque", 0.0, number)?,
        max_motor_force: fields.optional("max_motor_force", 0.0, number)?,
        enable_spring: fields.optional("enable_spring", false, boolean)?,
        hertz: fields.optional("hertz", 0.0, number)?,
        damping_ratio: fields.optional("damping_ratio", 0.0, number)?,
        linear_offset: fields.optional("linear_offset", Vec2::ZERO, vec2)?,
        angular_offset: fields.optional("angular_offset", 0.0, number)?,
        collide_connected: fields.optional("collide_connected", false, boolean)?,
        break_force: fields.optional("break_force", None, some_number)?,
        break_torque: fields.optional("break_torque", None, some_number)?,
        ..d
    })
}

/// The position of the value at `path`, or of the deepest value on the way that exists
/// (a field left at its default is reported at its object).
pub(super) fn locate(root: &Node, path: &FieldPath) -> Pos {
    let mut node = root;
    for step in &path.0 {
        let next = match (step, &node.value) {
            (PathStep::Key(key), Value::Object(members)) => members.iter().find(|m| m.key == *key).map(|m| &m.value),
            (PathStep::Index(index), Value::Array(items)) => items.get(*index),
            _ => None,
        };
        match next {
            Some(next) => node = next,
            None => break,
        }
    }
    node.pos
}

fn body(node: &Node, at: &Loc) -> Result<BodyDef, SceneError> {
    let fields = Fields::of(node, at)?;
    fields.reject_unknown(BODY_FIELDS, "a body")?;
    let body_type = fields.required("type", body_type)?;
    let d = BodyDef::new(body_type, fields.required("position", vec2)?);
    Ok(BodyDef {
        name: fields.optional("name", d.name, string)?,
        angle: fields.optional("angle", d.angle, number)?,
        linear_velocity: fields.optional("linear_velocity", d.linear_velocity, vec2)?,
        angular_velocity: fields.optional("angular_velocity", d.angular_velocity, number)?,
        linear_damping: fields.optional("linear_damping", d.linear_damping, number)?,
        angular_damping: fields.optional("angular_damping", d.angular_damping, number)?,
        gravity_scale: fields.optional("gravity_scale", d.gravity_scale, number)?,
        fixed_rotation: fields.optional("fixed_rotation", d.fixed_rotation, boolean)?,
        bullet: fields.optional("bullet", d.bullet, boolean)?,
        continuous: fields.optional("continuous", d.continuous, boolean)?,
        safety_factor: fields.optional("safety_factor", d.safety_factor, number)?,
        awake: fields.optional("awake", d.awake, boolean)?,
        enable_sleep: fields.optional("enable_sleep", d.enable_sleep, boolean)?,
        shapes: fields.optional("shapes", d.shapes, |node, at| list(node, at, shape))?,
        ..d
    })
}

fn shape(node: &Node, at: &Loc) -> Result<ShapeDef, SceneError> {
    let fields = Fields::of(node, at)?;
    let (kind, geometry_fields) = fields.required("type", shape_kind)?;
    let known: Vec<&str> = MATERIAL_FIELDS.iter().chain(geometry_fields).copied().collect();
    fields.reject_unknown(&known, &format!("a {kind}"))?;
    let geometry = match kind {
        "circle" => Geometry::Circle {
            center: fields.optional("center", Vec2::ZERO, vec2)?,
            radius: fields.required("radius", number)?,
        },
        "capsule" => Geometry::Capsule {
            center1: fields.required("center1", vec2)?,
            center2: fields.required("center2", vec2)?,
            radius: fields.required("radius", number)?,
        },
        "box" => Geometry::Box {
            half_width: fields.required("half_width", number)?,
            half_height: fields.required("half_height", number)?,
            center: fields.optional("center", Vec2::ZERO, vec2)?,
            angle: fields.optional("angle", 0.0, number)?,
            radius: fields.optional("radius", 0.0, number)?,
        },
        "polygon" => Geometry::Polygon {
            points: fields.required("points", |node, at| list(node, at, vec2))?,
            radius: fields.optional("radius", 0.0, number)?,
        },
        "concave" => Geometry::Concave {
            points: fields.required("points", |node, at| list(node, at, vec2))?,
            radius: fields.optional("radius", 0.0, number)?,
        },
        "segment" => {
            Geometry::Segment { point1: fields.required("point1", vec2)?, point2: fields.required("point2", vec2)? }
        }
        _ => Geometry::Chain {
            points: fields.required("points", |node, at| list(node, at, vec2))?,
            is_loop: fields.optional("loop", false, boolean)?,
        },
    };
    let d = ShapeDef::new(geometry);
    Ok(ShapeDef {
        density: fields.optional("density", d.density, number)?,
        friction: fields.optional("friction", d.friction, number)?,
        restitution: fields.optional("restitution", d.restitution, number)?,
        sensor: fields.optional("sensor", d.sensor, boolean)?,
        category_bits: fields.optional("category_bits", d.category_bits, bits)?,
        mask_bits: fields.optional("mask_bits", d.mask_bits, bits)?,
        group_index: fields.optional("group_index", d.group_index, group)?,
        tangent_speed: fields.optional("tangent_speed", d.tangent_speed, number)?,
        rolling_resistance: fields.optional("rolling_resistance", d.rolling_resistance, number)?,
        one_way: fields.optional("one_way", d.one_way, boolean)?,
        one_way_normal: fields.optional("one_way_normal", d.one_way_normal, direction)?,
        ..d
    })
}

/// Where a value sits while reading, as a list on the stack: `bodies[3].shapes[0].points`.
enum Loc<'a> {
    Root,
    Key(&'a Loc<'a>, &'a str),
    Index(&'a Loc<'a>, usize),
}

impl fmt::Display for Loc<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Loc::Root => f.write_str("scene"),
            Loc::Key(Loc::Root, key) => f.write_str(key),
            Loc::Key(parent, key) => write!(f, "{parent}.{key}"),
            Loc::Index(parent, index) => write!(f, "{parent}[{index}]"),
        }
    }
}

impl Loc<'_> {
    fn error(&self, pos: Pos, message: String) -> SceneError {
        SceneError { pos, path: self.to_string(), message }
    }

    fn wrong_type(&self, expected: &str, found: &Node) -> SceneError {
        self.error(found.pos, format!("expected {expected}, got {}", describe(&found.value)))
    }
}

/// A short description of a JSON value for error messages.
fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("the string {s:?}"),
        Value::Array(items) if items.len() == 1 => "an array of 1 item".into(),
        Value::Array(items) => format!("an array of {} items", items.len()),
        Value::Object(_) => "an object".into(),
    }
}

/// The members of a JSON object, with its location for errors.
struct Fields<'n, 'a> {
    node: &'n Node,
    members: &'n [Member],
    at: &'a Loc<'a>,
}

impl<'n, 'a> Fields<'n, 'a> {
    fn of(node: &'n Node, at: &'a Loc<'a>) -> Result<Self, SceneError> {
        match &node.value {
            Value::Object(members) => Ok(Fields { node, members, at }),
            _ => Err(at.wrong_type("an object", node)),
        }
    }

    /// Refuses the first member, in the order written, that is a duplicate or not one of
    /// `known` (the fields of `what`, for the message).
    fn reject_unknown(&self, known: &[&str], what: &str) -> Result<(), SceneError> {
        for (i, member) in self.members.iter().enumerate() {
            let at = Loc::Key(self.at, &member.key);
            if self.members[..i].iter().any(|earlier| earlier.key == member.key) {
                return Err(at.error(member.key_pos, "duplicate field".into()));
            }
            if !known.contains(&member.key.as_str()) {
                let message = match closest(&member.key, known) {
                    Some(near) => format!("unknown field, did you mean `{near}`?"),
                    None => format!("unknown field; {what} has {}", known.join(", ")),
                };
                return Err(at.error(member.key_pos, message));
            }
        }
        Ok(())
    }

    fn get(&self, key: &str) -> Option<&'n Node> {
        self.members.iter().find(|m| m.key == key).map(|m| &m.value)
    }

    /// The field `key` read by `read`; absent is an error (at the object).
    fn required<T>(
        &self,
        key: &'static str,
        read: impl Fn(&Node, &Loc) -> Result<T, SceneError>,
    ) -> Result<T, SceneError> {
        let at = Loc::Key(self.at, key);
        match self.get(key) {
            Some(node) => read(node, &at),
            None => Err(at.error(self.node.pos, "missing required field".into())),
        }
    }

    /// The field `key` read by `read`, or `default` when it is absent or null.
    fn optional<T>(
        &self,
        key: &'static str,
        default: T,
        read: impl Fn(&Node, &Loc) -> Result<T, SceneError>,
    ) -> Result<T, SceneError> {
        match self.get(key) {
            None | Some(Node { value: Value::Null, .. }) => Ok(default),
            Some(node) => read(node, &Loc::Key(self.at, key)),
        }
    }
}

/// The item of `known` closest to `key` by edit distance, if it is close (a typo).
fn closest<'k>(key: &str, known: &[&'k str]) -> Option<&'k str> {
    let key = key.to_lowercase();
    known
        .iter()
        .map(|k| (edit_distance(&key, k), *k))
        .filter(|(d, k)| *d <= 2.max(k.len() / 4))
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}

/// Levenshtein distance between `a` and `b`, by characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != *cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

fn list<T>(node: &Node, at: &Loc, read: impl Fn(&Node, &Loc) -> Result<T, SceneError>) -> Result<Vec<T>, SceneError> {
    let Value::Array(items) = &node.value else {
        return Err(at.wrong_type("an array", node));
    };
    items.iter().enumerate().map(|(i, item)| read(item, &Loc::Index(at, i))).collect()
}

fn string(node: &Node, at: &Loc) -> Result<String, SceneError> {
    match &node.value {
        Value::String(s) => Ok(s.clone()),
        _ => Err(at.wrong_type("a string", node)),
    }
}

fn boolean(node: &Node, at: &Loc) -> Result<bool, SceneError> {
    match node.value {
        Value::Bool(b) => Ok(b),
        _ => Err(at.wrong_type("true or false", node)),
    }
}

/// A number, rounded to the nearest f32 from its decimal form; it must stay finite.
fn number(node: &Node, at: &Loc) -> Result<f32, SceneError> {
    let Value::Number(text) = &node.value else {
        return Err(at.wrong_type("a number", node));
    };
    match text.parse::<f32>() {
        Ok(x) if x.is_finite() => Ok(x),
        _ => Err(at.error(node.pos, format!("{text} is beyond the range of f32"))),
    }
}

/// A whole number from 0 to `u32::MAX`.
fn count(node: &Node, at: &Loc) -> Result<u32, SceneError> {
    whole(node, at, u32::MAX as u64).map(|n| n as u32)
}

/// Collision bits: a whole number from 0 to `u64::MAX`.
fn bits(node: &Node, at: &Loc) -> Result<u64, SceneError> {
    whole(node, at, u64::MAX)
}

fn whole(node: &Node, at: &Loc, max: u64) -> Result<u64, SceneError> {
    let Value::Number(text) = &node.value else {
        return Err(at.wrong_type("a whole number", node));
    };
    match text.parse::<u64>() {
        Ok(n) if n <= max => Ok(n),
        _ => Err(at.error(node.pos, format!("expected a whole number from 0 to {max}, got {text}"))),
    }
}

/// A collision group: a whole number from -2147483648 to 2147483647.
fn group(node: &Node, at: &Loc) -> Result<i32, SceneError> {
    let Value::Number(text) = &node.value else {
        return Err(at.wrong_type("a whole number", node));
    };
    text.parse::<i32>()
        .map_err(|_| at.error(node.pos, format!("expected a whole number from -2147483648 to 2147483647, got {text}")))
}

/// A direction: a point `[x, y]` that is not (nearly) zero.
fn direction(node: &Node, at: &Loc) -> Result<Vec2, SceneError> {
    let v = vec2(node, at)?;
    if v.length() > 1e-6 { Ok(v) } else { Err(at.error(node.pos, "expected a direction, not [0, 0]".into())) }
}

/// A point or vector written `[x, y]`.
fn vec2(node: &Node, at: &Loc) -> Result<Vec2, SceneError> {
    match &node.value {
        Value::Array(xy) if xy.len() == 2 => {
            Ok(Vec2::new(number(&xy[0], &Loc::Index(at, 0))?, number(&xy[1], &Loc::Index(at, 1))?))
        }
        _ => Err(at.wrong_type("[x, y]", node)),
    }
}

fn body_type(node: &Node, at: &Loc) -> Result<BodyType, SceneError> {
    match name_in(node, at, BODY_TYPES, "body type")? {
        "static" => Ok(BodyType::Static),
        "kinematic" => Ok(BodyType::Kinematic),
        _ => Ok(BodyType::Dynamic),
    }
}

/// A shape type and its geometry fields.
fn shape_kind(node: &Node, at: &Loc) -> Result<(&'static str, &'static [&'static str]), SceneError> {
    let names: Vec<&str> = SHAPE_KINDS.iter().map(|(name, _)| *name).collect();
    let name = name_in(node, at, &names, "shape type")?;
    Ok(*SHAPE_KINDS.iter().find(|(n, _)| *n == name).expect("one of the names"))
}

/// A string that must be one of `names`.
fn name_in<'k>(node: &Node, at: &Loc, names: &[&'k str], what: &str) -> Result<&'k str, SceneError> {
    let Value::String(s) = &node.value else {
        return Err(at.wrong_type("a string", node));
    };
    if let Some(name) = names.iter().find(|n| **n == s) {
        return Ok(name);
    }
    let hint = match closest(s, names) {
        Some(near) => format!(", did you mean `{near}`?"),
        None => {
            let (last, first) = names.split_last().expect("names");
            format!("; expected {} or {last}", first.join(", "))
        }
    };
    Err(at.error(node.pos, format!("unknown {what} {s:?}{hint}")))
}
