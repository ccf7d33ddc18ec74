//! Joints: their definitions ([`JointDef`] and one def per kind), their events, and the
//! world's record of a joint.
//!
//! A joint ties two bodies, A and B. Anchors and axes are given in world coordinates at
//! creation and kept in the bodies' frames (local anchors), so a joint holds the bodies as
//! they were placed. Angles of B relative to A are zero at creation. Units: meters,
//! kilograms, seconds, radians; forces in newtons, torques in newton-meters.
//!
//! The kinds and their options follow Box2D v3's joints (Catto): revolute, prismatic,
//! distance, weld, wheel, motor and filter joints, with limits, motors and springs
//! (a spring is a soft constraint of a natural frequency in hertz and a damping ratio).

use super::error::{WorldError, check_range, check_vector};
use super::handles::{BodyId, JointId};
use crate::math::Vec2;
use crate::settings::{
    LINEAR_SLOP, MAX_ANGULAR_SPEED, MAX_FORCE, MAX_JOINT_DAMPING_RATIO, MAX_JOINT_HERTZ, MAX_JOINT_LENGTH,
    MAX_LINEAR_SPEED, MAX_TORQUE,
};

/// A joint to create ([`World::create_joint`](super::World::create_joint)): the two bodies,
/// the kind with its options, and what every joint has.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct JointDef {
    /// Body A (the reference body of angles, axes and offsets).
    pub body_a: BodyId,
    /// Body B. Must differ from A.
    pub body_b: BodyId,
    /// The kind of joint and its options.
    pub kind: JointKind,
    /// Whether the shapes of the two bodies collide with each other. Default false: no contact
    /// between them is created or solved while the joint exists (continuous collision does not
    /// sweep them against each other either).
    pub collide_connected: bool,
    /// The reaction force (N) above which the joint breaks: after a step whose reaction force
    /// exceeds it, the joint is disabled and a [`JointEvent`] reports it. Finite and not
    /// negative; `None` (default) for a joint that never breaks.
    pub break_force: Option<f32>,
    /// The reaction torque (N·m) above which the joint breaks, as `break_force`.
    pub break_torque: Option<f32>,
    /// Anything the user wants to keep with the joint.
    pub user_data: u64,
}

impl JointDef {
    /// A joint of `kind` between `body_a` and `body_b` with the common options' defaults.
    pub fn new(body_a: BodyId, body_b: BodyId, kind: JointKind) -> JointDef {
        JointDef { body_a, body_b, kind, collide_connected: false, break_force: None, break_torque: None, user_data: 0 }
    }
}

/// The kinds of joint, each with its options.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum JointKind {
    /// A pin: B turns about a point shared with A.
    Revolute(RevoluteDef),
    /// A slider: B moves along an axis fixed in A, without turning relative to A.
    Prismatic(PrismaticDef),
    /// A rod, spring or rope between two anchors.
    Distance(DistanceDef),
    /// B glued to A, rigidly or through linear and angular springs.
    Weld(WeldDef),
    /// A wheel on a suspension: B's anchor moves along an axis of A (with a spring) and B
    /// turns freely (with a motor).
    Wheel(WheelDef),
    /// Drives B toward a pose relative to A with bounded force and torque (also a mouse
    /// joint, with A a static body).
    Motor(MotorDef),
    /// No constraint: the two bodies only stop colliding (with `collide_connected` false).
    Filter,
}

/// Options of a revolute joint. Angles are B's angle relative to A (radians), zero at creation.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RevoluteDef {
    /// The pivot, in world coordinates at creation (meters).
    pub anchor: Vec2,
    /// Whether the angle is held within `lower..=upper`.
    pub enable_limit: bool,
    /// The lower angle limit (radians; from -π to `upper`).
    pub lower: f32,
    /// The upper angle limit (radians; from `lower` to π).
    pub upper: f32,
    /// Whether the motor drives the relative angular velocity toward `motor_speed`.
    pub enable_motor: bool,
    /// The motor's target relative angular velocity (rad/s).
    pub motor_speed: f32,
    /// The most torque the motor applies (N·m; not negative).
    pub max_motor_torque: f32,
    /// Whether a rotational spring pulls the angle toward zero.
    pub enable_spring: bool,
    /// The spring's natural frequency (Hz; not negative; 0 is no spring force).
    pub hertz: f32,
    /// The spring's damping ratio (dimensionless; not negative).
    pub damping_ratio: f32,
}

impl RevoluteDef {
    /// A free pin at `anchor` (world, meters).
    pub fn new(anchor: Vec2) -> RevoluteDef {
        RevoluteDef {
            anchor,
            enable_limit: false,
            lower: 0.0,
            upper: 0.0,
            enable_motor: false,
            motor_speed: 0.0,
            max_motor_torque: 0.0,
            enable_spring: false,
            hertz: 0.0,
            damping_ratio: 0.0,
        }
    }
}

/// Options of a prismatic joint. Translations are along the axis (meters), the distance from
/// anchor A to anchor B projected on it (zero when the anchors coincide).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PrismaticDef {
    /// The anchor on A, in world coordinates at creation (meters).
    pub anchor_a: Vec2,
    /// The anchor on B, world coordinates (meters); on the line through `anchor_a` along
    /// `axis` (an offset across the axis is pulled in by the joint).
    pub anchor_b: Vec2,
    /// The axis of motion in world coordinates at creation (any length above zero; kept as
    /// a unit vector fixed in A).
    pub axis: Vec2,
    /// Whether the translation is held within `lower..=upper`.
    pub enable_limit: bool,
    /// The lower translation limit (meters).
    pub lower: f32,
    /// The upper translation limit (meters; at least `lower`).
    pub upper: f32,
    /// Whether the motor drives the relative speed along the axis toward `motor_speed`.
    pub enable_motor: bool,
    /// The motor's target speed along the axis (m/s).
    pub motor_speed: f32,
    /// The most force the motor applies (N; not negative).
    pub max_motor_force: f32,
    /// Whether a spring pulls the translation toward zero.
    pub enable_spring: bool,
    /// The spring's natural frequency (Hz; not negative).
    pub hertz: f32,
    /// The spring's damping ratio (dimensionless; not negative).
    pub damping_ratio: f32,
}

impl PrismaticDef {
    /// A free slider between `anchor_a` and `anchor_b` (world, meters) along `axis` (world).
    pub fn new(anchor_a: Vec2, anchor_b: Vec2, axis: Vec2) -> PrismaticDef {
        PrismaticDef {
            anchor_a,
            anchor_b,
            axis,
            enable_limit: false,
            lower: 0.0,
            upper: 0.0,
            enable_motor: false,
            motor_speed: 0.0,
            max_motor_force: 0.0,
            enable_spring: false,
            hertz: 0.0,
            damping_ratio: 0.0,
        }
    }
}

/// Options of a distance joint: a rigid rod of `length` when the spring is off; a spring of
/// rest length `length` when it is on (hertz 0: no spring force, a rope when the limit is on).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DistanceDef {
    /// The anchor on A, in world coordinates at creation (meters).
    pub anchor_a: Vec2,
    /// The anchor on B, in world coordinates at creation (meters).
    pub anchor_b: Vec2,
    /// The rest length (meters; from [`LINEAR_SLOP`] to [`MAX_JOINT_LENGTH`]); `None` for the
    /// anchors' distance at creation.
    pub length: Option<f32>,
    /// Whether the length is held within `min_length..=max_length`.
    pub enable_limit: bool,
    /// The least length (meters; not negative).
    pub min_length: f32,
    /// The greatest length (meters; at least `min_length`, at most [`MAX_JOINT_LENGTH`]).
    pub max_length: f32,
    /// Whether the length is soft (a spring) rather than rigid.
    pub enable_spring: bool,
    /// The spring's natural frequency (Hz; not negative; 0 is no spring force).
    pub hertz: f32,
    /// The spring's damping ratio (dimensionless; not negative).
    pub damping_ratio: f32,
    /// Whether the motor drives the rate of change of the length toward `motor_speed`.
    pub enable_motor: bool,
    /// The motor's target rate of lengthening (m/s).
    pub motor_speed: f32,
    /// The most force the motor applies (N; not negative).
    pub max_motor_force: f32,
}

impl DistanceDef {
    /// A rigid rod between `anchor_a` and `anchor_b` (world, meters), of their distance.
    pub fn new(anchor_a: Vec2, anchor_b: Vec2) -> DistanceDef {
        DistanceDef {
            anchor_a,
            anchor_b,
            length: None,
            enable_limit: false,
            min_length: 0.0,
            max_length: MAX_JOINT_LENGTH,
            enable_spring: false,
            hertz: 0.0,
            damping_ratio: 0.0,
            enable_motor: false,
            motor_speed: 0.0,
            max_motor_force: 0.0,
        }
    }
}

/// Options of a weld joint: rigid when a frequency is 0, else soft (a spring) on that part.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct WeldDef {
    /// The weld point, in world coordinates at creation (meters).
    pub anchor: Vec2,
    /// The linear spring's natural frequency (Hz; not negative; 0 is rigid).
    pub linear_hertz: f32,
    /// The linear spring's damping ratio (dimensionless; not negative).
    pub linear_damping_ratio: f32,
    /// The angular spring's natural frequency (Hz; not negative; 0 is rigid).
    pub angular_hertz: f32,
    /// The angular spring's damping ratio (dimensionless; not negative).
    pub angular_damping_ratio: f32,
}

impl WeldDef {
    /// A rigid weld at `anchor` (world, meters).
    pub fn new(anchor: Vec2) -> WeldDef {
        WeldDef { anchor, linear_hertz: 0.0, linear_damping_ratio: 0.0, angular_hertz: 0.0, angular_damping_ratio: 0.0 }
    }
}

/// Options of a wheel joint. Translations are along the suspension axis (meters), as for a
/// prismatic joint; the motor drives B's rotation relative to A.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct WheelDef {
    /// The suspension's anchor on A (the chassis), world coordinates at creation (meters).
    pub anchor_a: Vec2,
    /// The anchor on B (usually the wheel's center), world coordinates (meters).
    pub anchor_b: Vec2,
    /// The suspension axis in world coordinates at creation (any length above zero).
    pub axis: Vec2,
    /// Whether the suspension spring acts (toward translation zero). Default true.
    pub enable_spring: bool,
    /// The suspension's natural frequency (Hz; not negative). Default 1 Hz.
    pub hertz: f32,
    /// The suspension's damping ratio (dimensionless; not negative). Default 0.7.
    pub damping_ratio: f32,
    /// Whether the translation is held within `lower..=upper`.
    pub enable_limit: bool,
    /// The lower translation limit (meters).
    pub lower: f32,
    /// The upper translation limit (meters; at least `lower`).
    pub upper: f32,
    /// Whether the motor drives the wheel's relative angular velocity toward `motor_speed`.
    pub enable_motor: bool,
    /// The motor's target relative angular velocity (rad/s).
    pub motor_speed: f32,
    /// The most torque the motor applies (N·m; not negative).
    pub max_motor_torque: f32,
}

impl WheelDef {
    /// A wheel at `anchor_b` on a suspension from `anchor_a` along `axis` (world), with a
    /// 1 Hz spring damped at 0.7.
    pub fn new(anchor_a: Vec2, anchor_b: Vec2, axis: Vec2) -> WheelDef {
        WheelDef {
            anchor_a,
            anchor_b,
            axis,
            enable_spring: true,
            hertz: 1.0,
            damping_ratio: 0.7,
            enable_limit: false,
            lower: 0.0,
            upper: 0.0,
            enable_motor: false,
            motor_speed: 0.0,
            max_motor_torque: 0.0,
        }
    }
}

/// Options of a motor joint: B's center of mass is driven toward A's transform applied to
/// `linear_offset`, and B's angle toward A's plus `angular_offset`, with at most `max_force`
/// and `max_torque` (Box2D v3's motor joint). With A static, it drags B toward a point: the
/// mouse joint's job.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MotorDef {
    /// B's target center of mass in A's frame (meters; within
    /// [`MAX_COORDINATE`](crate::settings::MAX_COORDINATE)).
    pub linear_offset: Vec2,
    /// B's target angle relative to A (radians; finite, within 1e6).
    pub angular_offset: f32,
    /// The most force applied (N; not negative).
    pub max_force: f32,
    /// The most torque applied (N·m; not negative).
    pub max_torque: f32,
    /// The fraction of the pose error corrected per second per sub-step rate (from 0 to 1):
    /// the velocity asked for is `correction_factor * error / h`. Default 0.3.
    pub correction_factor: f32,
}

impl MotorDef {
    /// A motor joint driving B's center of mass toward `linear_offset` (meters, in A's frame)
    /// and its angle toward A's plus `angular_offset` (radians), with at most `max_force` (N)
    /// and `max_torque` (N·m); correction factor 0.3.
    pub fn new(linear_offset: Vec2, angular_offset: f32, max_force: f32, max_torque: f32) -> MotorDef {
        MotorDef { linear_offset, angular_offset, max_force, max_torque, correction_factor: 0.3 }
    }
}

/// A joint broke or was destroyed with its body.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum JointEvent {
    /// The joint's reaction force or torque exceeded its break threshold in the step: it was
    /// disabled (it stays in the world; [`World::set_joint_enabled`](super::World::set_joint_enabled)
    /// mends it, [`World::destroy_joint`](super::World::destroy_joint) removes it).
    Broke {
        /// The joint.
        joint: JointId,
        /// Its reaction force in the step (N).
        force: f32,
        /// Its reaction torque in the step (N·m).
        torque: f32,
    },
    /// The joint was destroyed because one of its bodies was (its handle is stale now).
    DestroyedWithBody {
        /// The joint's handle.
        joint: JointId,
        /// The destroyed body.
        body: BodyId,
        /// The joint's user data.
        user_data: u64,
    },
}

/// The accumulated impulses of a joint (N·s and N·m·s per sub-step), kept from step to step
/// for warm starting.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct JointImpulses {
    /// The point constraint (revolute, weld, motor joint) or, for prismatic and wheel joints,
    /// the impulse across the axis in `x` (and the prismatic angular one in `y`).
    pub linear: Vec2,
    /// The angular constraint (weld, motor joint).
    pub angular: f32,
    /// The rigid length (distance) or spring along the axis or angle.
    pub spring: f32,
    pub motor: f32,
    pub lower: f32,
    pub upper: f32,
}

/// A link of a body's singly linked joint list: the next joint key (index × 2 + end).
pub(crate) type JointKey = u32;

/// The world's record of a joint.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Joint {
    /// The definition as given (its world anchors are those at creation).
    pub def: JointDef,
    pub body_a: u32,
    pub body_b: u32,
    /// The next joint key in each body's list.
    pub next: [JointKey; 2],
    /// The anchors in the bodies' frames (meters, relative to each body's origin).
    pub local_anchor_a: Vec2,
    pub local_anchor_b: Vec2,
    /// The unit axis in A's frame (prismatic, wheel).
    pub local_axis_a: Vec2,
    /// B's angle minus A's at creation (radians), the zero of angles; for the motor joint,
    /// its angular offset.
    pub reference_angle: f32,
    /// The distance joint's rest length (meters).
    pub length: f32,
    /// Solved, linking islands; false once broken or disabled.
    pub enabled: bool,
    pub impulses: JointImpulses,
    /// The reaction force (N) and torque (N·m) of the last step.
    pub force: Vec2,
    pub torque: f32,
}

impl Joint {
    /// Whether the joint constrains the bodies (links islands, is solved).
    pub fn constrains(&self) -> bool {
        self.enabled && !matches!(self.def.kind, JointKind::Filter)
    }

    /// The body at the other end from `end` (0 for A, 1 for B).
    pub fn other(&self, end: u32) -> u32 {
        if end == 0 { self.body_b } else { self.body_a }
    }
}

/// Fails unless a frequency (Hz) is finite and from 0 to [`MAX_JOINT_HERTZ`].
pub(crate) fn check_hertz(hertz: f32, what: &'static str) -> Result<(), WorldError> {
    check_range(hertz, (0.0, MAX_JOINT_HERTZ), what, "finite, from 0 to MAX_JOINT_HERTZ (1e6 Hz)")
}

/// Fails unless a damping ratio is finite and from 0 to [`MAX_JOINT_DAMPING_RATIO`].
pub(crate) fn check_damping(ratio: f32, what: &'static str) -> Result<(), WorldError> {
    check_range(ratio, (0.0, MAX_JOINT_DAMPING_RATIO), what, "finite, from 0 to MAX_JOINT_DAMPING_RATIO (1e6)")
}

/// Fails unless a spring's hertz and damping ratio are in range.
pub(crate) fn check_spring(hertz: f32, damping_ratio: f32) -> Result<(), WorldError> {
    check_hertz(hertz, "joint hertz")?;
    check_damping(damping_ratio, "joint damping ratio")
}

/// Fails unless a motor's speed (m/s when `linear`, else rad/s) and greatest force (N) or
/// torque (N·m) are in range.
pub(crate) fn check_motor(speed: f32, max: f32, linear: bool) -> Result<(), WorldError> {
    if linear {
        let requirement = "finite, at most MAX_LINEAR_SPEED (1e6 m/s) in magnitude";
        check_range(speed, (-MAX_LINEAR_SPEED, MAX_LINEAR_SPEED), "joint motor speed", requirement)?;
        check_range(max, (0.0, MAX_FORCE), "joint max motor force", "finite, from 0 to MAX_FORCE (1e20 N)")
    } else {
        let requirement = "finite, at most MAX_ANGULAR_SPEED (1e5 rad/s) in magnitude";
        check_range(speed, (-MAX_ANGULAR_SPEED, MAX_ANGULAR_SPEED), "joint motor speed", requirement)?;
        check_range(max, (0.0, MAX_TORQUE), "joint max motor torque", "finite, from 0 to MAX_TORQUE (1e30 N·m)")
    }
}

/// Fails unless `lower <= upper`, both finite and within `bound` in magnitude.
pub(crate) fn check_limits(lower: f32, upper: f32, bound: f32, requirement: &'static str) -> Result<(), WorldError> {
    check_range(lower, (-bound, bound), "joint lower limit", requirement)?;
    check_range(upper, (-bound, bound), "joint upper limit", requirement)?;
    if lower <= upper {
        Ok(())
    } else {
        Err(WorldError::InvalidValue { what: "joint limits", requirement: "lower at most upper" })
    }
}

/// Fails unless an axis is finite, within range and not too short to have a direction.
pub(crate) fn check_axis(axis: Vec2) -> Result<Vec2, WorldError> {
    check_vector(axis, "joint axis")?;
    let length = axis.length();
    // Shorter than this, the unit axis would not be accurate to f32 precision.
    if length >= 1.0e-6 && length.is_finite() {
        Ok(axis / length)
    } else {
        Err(WorldError::InvalidValue { what: "joint axis", requirement: "at least 1e-6 long" })
    }
}

/// Fails unless a distance joint's lengths are in range: `length` from [`LINEAR_SLOP`] to
/// [`MAX_JOINT_LENGTH`], `0 <= min_length <= max_length <= MAX_JOINT_LENGTH`.
pub(crate) fn check_lengths(length: f32, min_length: f32, max_length: f32) -> Result<(), WorldError> {
    let requirement = "finite, from LINEAR_SLOP (5 mm) to MAX_JOINT_LENGTH (1e9 m)";
    check_range(length, (LINEAR_SLOP, MAX_JOINT_LENGTH), "distance joint length", requirement)?;
    check_length_range(min_length, max_length)
}

/// Fails unless `0 <= min_length <= max_length <= MAX_JOINT_LENGTH`.
pub(crate) fn check_length_range(min_length: f32, max_length: f32) -> Result<(), WorldError> {
    let requirement = "finite, from 0 to MAX_JOINT_LENGTH (1e9 m)";
    check_range(min_length, (0.0, MAX_JOINT_LENGTH), "distance joint min length", requirement)?;
    check_range(max_length, (0.0, MAX_JOINT_LENGTH), "distance joint max length", requirement)?;
    if min_length <= max_length {
        Ok(())
    } else {
        Err(WorldError::InvalidValue { what: "distance joint lengths", requirement: "min length at most max length" })
    }
}

/// Fails unless a break threshold is `None` or finite and not negative.
pub(crate) fn check_threshold(threshold: Option<f32>, what: &'static str) -> Result<(), WorldError> {
    match threshold {
        Some(t) => check_range(t, (0.0, f32::MAX), what, "finite and not negative"),
        None => Ok(()),
    }
}
