//! Joints in scene files: the `"joints"` array, its checks that need no world (body names,
//! the fields each type requires), and the world's joint definition of each.

use impact2d::{DistanceDef, JointKind, MotorDef, PrismaticDef, RevoluteDef, Vec2, WeldDef, WheelDef};
use serde::{Serialize, Serializer};

use super::{FieldPath, PathStep, ValidationError, is_false, is_zero, is_zero_vec, xy};

/// The joint types of scene files.
pub const JOINT_TYPES: &[&str] = &["revolute", "prismatic", "distance", "weld", "wheel", "motor", "filter"];

/// The fields of a joint object.
pub const JOINT_FIELDS: &[&str] = &[
    "name",
    "type",
    "body_a",
    "body_b",
    "anchor",
    "anchor_a",
    "anchor_b",
    "axis",
    "length",
    "lower",
    "upper",
    "enable_limit",
    "enable_motor",
    "motor_speed",
    "max_motor_torque",
    "max_motor_force",
    "enable_spring",
    "hertz",
    "damping_ratio",
    "linear_offset",
    "angular_offset",
    "collide_connected",
    "break_force",
    "break_torque",
];

/// One joint of a scene, between two bodies named in it. Anchors and axes are in world
/// coordinates at creation (meters); angles in radians. Which fields a type reads:
/// - `revolute`: `anchor`; limits `lower`/`upper` (angles of B relative to A, zero at
///   creation), motor (`motor_speed` rad/s, `max_motor_torque` N·m), spring;
/// - `prismatic`: `anchor_a`, `anchor_b`, `axis`; limits (translations along the axis, m),
///   motor (`motor_speed` m/s, `max_motor_force` N), spring;
/// - `distance`: `anchor_a`, `anchor_b`, `length` (rest length, default the anchors'
///   distance); `lower`/`upper` as the minimum and maximum length (a rope), spring, motor
///   (`max_motor_force`);
/// - `weld`: `anchor`; with `enable_spring`, soft at `hertz` and `damping_ratio` (linear and
///   angular alike);
/// - `wheel`: `anchor_a`, `anchor_b`, `axis` (the suspension); spring, limits along the axis,
///   motor on the rotation (`max_motor_torque`);
/// - `motor`: drives B toward `linear_offset` (m) and `angular_offset` (rad) from A with
///   `max_motor_force` and `max_motor_torque`;
/// - `filter`: nothing but that the two bodies do not collide.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct JointDef {
    /// A name for reports (may be empty).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// One of [`JOINT_TYPES`].
    #[serde(rename = "type")]
    pub joint_type: String,
    /// The name of body A.
    pub body_a: String,
    /// The name of body B.
    pub body_b: String,
    /// The shared anchor (revolute, weld).
    #[serde(serialize_with = "opt_xy", skip_serializing_if = "Option::is_none")]
    pub anchor: Option<Vec2>,
    /// The anchor on A (distance, prismatic, wheel).
    #[serde(serialize_with = "opt_xy", skip_serializing_if = "Option::is_none")]
    pub anchor_a: Option<Vec2>,
    /// The anchor on B (distance, prismatic, wheel).
    #[serde(serialize_with = "opt_xy", skip_serializing_if = "Option::is_none")]
    pub anchor_b: Option<Vec2>,
    /// The axis (prismatic, wheel), fixed in A.
    #[serde(serialize_with = "opt_xy", skip_serializing_if = "Option::is_none")]
    pub axis: Option<Vec2>,
    /// The rest length (distance, m); none for the anchors' distance at creation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub length: Option<f32>,
    /// The lower limit (rad or m).
    #[serde(skip_serializing_if = "is_zero")]
    pub lower: f32,
    /// The upper limit (rad or m).
    #[serde(skip_serializing_if = "is_zero")]
    pub upper: f32,
    /// Whether the limits act.
    #[serde(skip_serializing_if = "is_false")]
    pub enable_limit: bool,
    /// Whether the motor acts.
    #[serde(skip_serializing_if = "is_false")]
    pub enable_motor: bool,
    /// The motor's target speed (rad/s or m/s).
    #[serde(skip_serializing_if = "is_zero")]
    pub motor_speed: f32,
    /// The motor's largest torque (N·m).
    #[serde(skip_serializing_if = "is_zero")]
    pub max_motor_torque: f32,
    /// The motor's largest force (N).
    #[serde(skip_serializing_if = "is_zero")]
    pub max_motor_force: f32,
    /// Whether the spring acts.
    #[serde(skip_serializing_if = "is_false")]
    pub enable_spring: bool,
    /// The spring's frequency (Hz).
    #[serde(skip_serializing_if = "is_zero")]
    pub hertz: f32,
    /// The spring's damping ratio.
    #[serde(skip_serializing_if = "is_zero")]
    pub damping_ratio: f32,
    /// The motor joint's target offset of B from A (m, in A's frame).
    #[serde(serialize_with = "xy", skip_serializing_if = "is_zero_vec")]
    pub linear_offset: Vec2,
    /// The motor joint's target angle of B relative to A (rad).
    #[serde(skip_serializing_if = "is_zero")]
    pub angular_offset: f32,
    /// Whether the two bodies still collide with each other.
    #[serde(skip_serializing_if = "is_false")]
    pub collide_connected: bool,
    /// The reaction force (N) above which the joint breaks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub break_force: Option<f32>,
    /// The reaction torque (N·m) above which the joint breaks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub break_torque: Option<f32>,
}

fn opt_xy<S: Serializer>(v: &Option<Vec2>, serializer: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(v) => xy(v, serializer),
        None => serializer.serialize_none(),
    }
}

impl JointDef {
    /// A joint of `joint_type` between the bodies named `body_a` and `body_b`, every option at
    /// its default.
    pub fn new(joint_type: &str, body_a: &str, body_b: &str) -> JointDef {
        JointDef {
            name: String::new(),
            joint_type: joint_type.to_owned(),
            body_a: body_a.to_owned(),
            body_b: body_b.to_owned(),
            anchor: None,
            anchor_a: None,
            anchor_b: None,
            axis: None,
            length: None,
            lower: 0.0,
            upper: 0.0,
            enable_limit: false,
            enable_motor: false,
            motor_speed: 0.0,
            max_motor_torque: 0.0,
            max_motor_force: 0.0,
            enable_spring: false,
            hertz: 0.0,
            damping_ratio: 0.0,
            linear_offset: Vec2::ZERO,
            angular_offset: 0.0,
            collide_connected: false,
            break_force: None,
            break_torque: None,
        }
    }

    /// The indices of its two bodies in `names` (the scene's body names), and the fields its
    /// type requires; errors at the field at fault: a name no body has or more than one has, a
    /// body jointed to itself, a missing anchor or axis.
    pub(crate) fn resolve(&self, names: &[&str], at: &FieldPath) -> Result<(usize, usize), ValidationError> {
        let find = |name: &str, key: &'static str| {
            let found: Vec<usize> = names.iter().enumerate().filter(|(_, n)| **n == name).map(|(i, _)| i).collect();
            match found[..] {
                [i] => Ok(i),
                [] => Err(ValidationError { path: at.key(key), message: format!("no body is named {name:?}") }),
                _ => Err(ValidationError {
                    path: at.key(key),
                    message: format!("{} bodies are named {name:?}: a joint needs one", found.len()),
                }),
            }
        };
        let (a, b) = (find(&self.body_a, "body_a")?, find(&self.body_b, "body_b")?);
        if a == b {
            return Err(ValidationError {
                path: at.key("body_b"),
                message: "a body cannot be jointed to itself".into(),
            });
        }
        let needs: &[&'static str] = match self.joint_type.as_str() {
            "revolute" | "weld" => &["anchor"],
            "distance" => &["anchor_a", "anchor_b"],
            "prismatic" | "wheel" => &["anchor_a", "anchor_b", "axis"],
            _ => &[],
        };
        for &key in needs {
            let given = match key {
                "anchor" => self.anchor.is_some(),
                "anchor_a" => self.anchor_a.is_some(),
                "anchor_b" => self.anchor_b.is_some(),
                _ => self.axis.is_some(),
            };
            if !given {
                let message = format!("a {} joint needs `{key}`", self.joint_type);
                return Err(ValidationError { path: at.clone(), message });
            }
        }
        Ok((a, b))
    }

    /// The world's joint kind (after [`JointDef::resolve`] checked the required fields).
    pub(crate) fn kind(&self) -> JointKind {
        let (anchor, a, b, axis) = (
            self.anchor.unwrap_or_default(),
            self.anchor_a.unwrap_or_default(),
            self.anchor_b.unwrap_or_default(),
            self.axis.unwrap_or(Vec2::X),
        );
        let (limit, motor, spring) = (self.enable_limit, self.enable_motor, self.enable_spring);
        let (lower, upper, speed, hertz, zeta) =
            (self.lower, self.upper, self.motor_speed, self.hertz, self.damping_ratio);
        match self.joint_type.as_str() {
            "revolute" => JointKind::Revolute(RevoluteDef {
                enable_limit: limit,
                lower,
                upper,
                enable_motor: motor,
                motor_speed: speed,
                max_motor_torque: self.max_motor_torque,
                enable_spring: spring,
                hertz,
                damping_ratio: zeta,
                ..RevoluteDef::new(anchor)
            }),
            "prismatic" => JointKind::Prismatic(PrismaticDef {
                enable_limit: limit,
                lower,
                upper,
                enable_motor: motor,
                motor_speed: speed,
                max_motor_force: self.max_motor_force,
                enable_spring: spring,
                hertz,
                damping_ratio: zeta,
                ..PrismaticDef::new(a, b, axis)
            }),
            "distance" => JointKind::Distance(DistanceDef {
                length: self.length,
                enable_limit: limit,
                min_length: lower,
                max_length: upper,
                enable_spring: spring,
                hertz,
                damping_ratio: zeta,
                enable_motor: motor,
                motor_speed: speed,
                max_motor_force: self.max_motor_force,
                ..DistanceDef::new(a, b)
            }),
            "weld" if spring => JointKind::Weld(WeldDef {
                linear_hertz: hertz,
                linear_damping_ratio: zeta,
                angular_hertz: hertz,
                angular_damping_ratio: zeta,
                ..WeldDef::new(anchor)
            }),
            "weld" => JointKind::Weld(WeldDef::new(anchor)),
            "wheel" => JointKind::Wheel(WheelDef {
                enable_spring: spring,
                hertz,
                damping_ratio: zeta,
                enable_limit: limit,
                lower,
                upper,
                enable_motor: motor,
                motor_speed: speed,
                max_motor_torque: self.max_motor_torque,
                ..WheelDef::new(a, b, axis)
            }),
            "motor" => JointKind::Motor(MotorDef::new(
                self.linear_offset,
                self.angular_offset,
                self.max_motor_force,
                self.max_motor_torque,
            )),
            _ => JointKind::Filter,
        }
    }
}

/// The scene field a joint error of the world names (`joint anchor` → `anchor`, ...), for
/// located messages.
pub(crate) fn field_of(what: &str, joint: &JointDef) -> Option<&'static str> {
    Some(match what {
        "joint anchor" if joint.anchor.is_some() => "anchor",
        "joint anchor" => "anchor_a",
        "joint axis" => "axis",
        "joint limits" | "joint lower limit" => "lower",
        "joint upper limit" => "upper",
        "joint hertz" => "hertz",
        "joint damping ratio" => "damping_ratio",
        "joint motor speed" => "motor_speed",
        "joint max motor force" => "max_motor_force",
        "joint max motor torque" => "max_motor_torque",
        "joint break force" => "break_force",
        "joint break torque" => "break_torque",
        _ => return None,
    })
}

/// The path of joint `i` of the scene.
pub(crate) fn joint_path(i: usize) -> FieldPath {
    FieldPath::default().key("joints").then(PathStep::Index(i))
}
