//! Scene files: the bodies and shapes a simulation starts from, and the world settings it
//! runs with (`docs/scene-format.md`).
//!
//! A scene passes through three forms:
//!
//! 1. JSON text, read by [`parse_scene`]. Every problem is reported as a [`SceneError`] with
//!    the line and column of the offending value and its field path
//!    (`bodies[3].shapes[0].points`); unknown fields are errors, since a misspelled field
//!    silently ignored would run a different scene than the one written.
//! 2. A [`Scene`]: plain data with public fields, which the built-in scenes build in code and
//!    which serializes back to the file format ([`Scene::to_json`]).
//! 3. A [`ValidScene`], made by [`Scene::validate`]: every number checked and every shape built
//!    with the impact2d constructors (so geometry errors carry the library's own messages).
//!    This is what a world is built from: [`ValidScene::bodies`] gives each body's definition
//!    with its shapes ready to attach.
//!
//! Units: meters, kilograms, seconds, radians; y up.

pub(crate) mod joints;
pub(crate) mod movers;
mod read;

use std::fmt;

use impact2d::broad_phase::Filter;
use impact2d::settings::{
    MAX_ANGULAR_SPEED, MAX_CONTINUOUS_SAFETY_FACTOR, MAX_COORDINATE, MAX_DAMPING, MAX_DENSITY, MAX_FRICTION,
    MAX_GRAVITY, MAX_GRAVITY_SCALE, MAX_LINEAR_SPEED, MAX_RESTITUTION, MAX_ROLLING_RESISTANCE, MAX_SUBSTEPS,
    MAX_TANGENT_SPEED, MAX_TIME_STEP, MIN_SPEED_CAP,
};
use impact2d::{
    Capsule, Circle, GeometryError, Polygon, Segment, Shape, Vec2, decompose_polygon, make_chain,
    make_offset_rounded_box,
};
use serde::{Serialize, Serializer};
use thiserror::Error;

use crate::json;
pub use crate::json::Pos;
pub use joints::{JOINT_TYPES, JointDef};
pub use movers::{MoverCommand, MoverSpec};

/// The defaults of every optional field, in one place (the reader, the serializer and the
/// documentation agree on them).
pub mod defaults {
    use impact2d::Vec2;

    /// Gravity (m/s²).
    pub const GRAVITY: Vec2 = Vec2::new(0.0, -10.0);
    /// The time step (s): 60 steps per second.
    pub const TIME_STEP: f32 = 1.0 / 60.0;
    /// Solver sub-steps per step.
    pub const SUBSTEPS: u32 = 4;
    /// Steps a run takes: 10 seconds at the default time step.
    pub const STEPS: u32 = 600;
    /// The cap on a dynamic body's speed (m/s): the world's default.
    pub const MAX_LINEAR_SPEED: f32 = impact2d::settings::DEFAULT_MAX_LINEAR_SPEED;
    /// The cap on a dynamic body's angular speed (rad/s): the world's default.
    pub const MAX_ANGULAR_SPEED: f32 = impact2d::settings::DEFAULT_MAX_ANGULAR_SPEED;
    /// Shape density (kg/m²).
    pub const DENSITY: f32 = 1.0;
    /// Shape friction coefficient.
    pub const FRICTION: f32 = 0.6;
    /// Shape restitution (bounciness).
    pub const RESTITUTION: f32 = 0.0;
    /// Collision category bits: category 1.
    pub const CATEGORY_BITS: u64 = 1;
    /// Collision mask bits: collides with every category.
    pub const MASK_BITS: u64 = u64::MAX;
    /// The side a one-way platform holds bodies on: its body's up.
    pub const ONE_WAY_NORMAL: Vec2 = Vec2::new(0.0, 1.0);
    /// A body's gravity scale.
    pub const GRAVITY_SCALE: f32 = 1.0;
    /// A body's safety factor for continuous collision: the world's default.
    pub const SAFETY_FACTOR: f32 = impact2d::settings::CONTINUOUS_SAFETY_FACTOR;
}

/// A whole scene: world settings and bodies.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Scene {
    /// The scene's name (empty when the file gives none).
    pub name: String,
    /// One line saying what the scene shows (may be empty).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// Gravity (m/s²).
    #[serde(serialize_with = "xy")]
    pub gravity: Vec2,
    /// The duration of one step (s).
    pub time_step: f32,
    /// Solver sub-steps per step.
    pub substeps: u32,
    /// How many steps a run takes.
    pub steps: u32,
    /// The cap on a dynamic body's speed (m/s, positive): a faster body is slowed to it
    /// (`impact2d::WorldDef::max_linear_speed`).
    #[serde(skip_serializing_if = "is_default_max_linear_speed")]
    pub max_linear_speed: f32,
    /// The cap on a dynamic body's angular speed (rad/s, positive)
    /// (`impact2d::WorldDef::max_angular_speed`).
    #[serde(skip_serializing_if = "is_default_max_angular_speed")]
    pub max_angular_speed: f32,
    /// Continuous collision in the world ([`impact2d::WorldDef::enable_continuous`]): false
    /// checks for overlap only at the end of each step, so fast bodies may pass through thin
    /// ones (for comparison and for tests that must see that happen).
    #[serde(skip_serializing_if = "is_true")]
    pub enable_continuous: bool,
    /// The bodies, in order.
    pub bodies: Vec<BodyDef>,
    /// The joints between named bodies, in order (`docs/scene-format.md`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub joints: Vec<JointDef>,
    /// The character movers, each shown by a kinematic body (`docs/scene-format.md`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub movers: Vec<MoverSpec>,
}

/// How a body moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BodyType {
    /// Never moves (zero velocity, infinite mass).
    Static,
    /// Moves with its velocity, unaffected by forces and contacts.
    Kinematic,
    /// Moved by gravity, forces and contacts.
    Dynamic,
}

impl BodyType {
    /// The name in scene files: `static`, `kinematic` or `dynamic`.
    pub fn name(self) -> &'static str {
        match self {
            BodyType::Static => "static",
            BodyType::Kinematic => "kinematic",
            BodyType::Dynamic => "dynamic",
        }
    }
}

/// One body: where it starts, how it moves, and its shapes (in body coordinates).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BodyDef {
    /// A name for reports and replays (may be empty).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// Static, kinematic or dynamic.
    #[serde(rename = "type")]
    pub body_type: BodyType,
    /// The body origin in the world (m).
    #[serde(serialize_with = "xy")]
    pub position: Vec2,
    /// The body's rotation (rad, counter-clockwise).
    #[serde(skip_serializing_if = "is_zero")]
    pub angle: f32,
    /// The velocity of the body origin (m/s).
    #[serde(serialize_with = "xy", skip_serializing_if = "is_zero_vec")]
    pub linear_velocity: Vec2,
    /// The angular velocity (rad/s, counter-clockwise).
    #[serde(skip_serializing_if = "is_zero")]
    pub angular_velocity: f32,
    /// Linear damping (1/s).
    #[serde(skip_serializing_if = "is_zero")]
    pub linear_damping: f32,
    /// Angular damping (1/s).
    #[serde(skip_serializing_if = "is_zero")]
    pub angular_damping: f32,
    /// How much gravity acts on the body (1 = fully).
    #[serde(skip_serializing_if = "is_default_gravity_scale")]
    pub gravity_scale: f32,
    /// Keeps the body from rotating.
    #[serde(skip_serializing_if = "is_false")]
    pub fixed_rotation: bool,
    /// Continuous collision against dynamic bodies as well as static ones.
    #[serde(skip_serializing_if = "is_false")]
    pub bullet: bool,
    /// Continuous collision against static bodies (false: only discrete collision).
    #[serde(skip_serializing_if = "is_true")]
    pub continuous: bool,
    /// How far the body may move in a step before continuous collision sweeps it, as a
    /// fraction of its smallest extent: above 0, at most 1 (`impact2d::BodyDef::safety_factor`).
    #[serde(skip_serializing_if = "is_default_safety_factor")]
    pub safety_factor: f32,
    /// Starts awake (false: asleep until touched).
    #[serde(skip_serializing_if = "is_true")]
    pub awake: bool,
    /// May fall asleep when at rest.
    #[serde(skip_serializing_if = "is_true")]
    pub enable_sleep: bool,
    /// The shapes, in body coordinates.
    pub shapes: Vec<ShapeDef>,
}

impl BodyDef {
    /// A body of `body_type` at `position` with every other field at its default.
    pub fn new(body_type: BodyType, position: Vec2) -> BodyDef {
        BodyDef {
            name: String::new(),
            body_type,
            position,
            angle: 0.0,
            linear_velocity: Vec2::ZERO,
            angular_velocity: 0.0,
            linear_damping: 0.0,
            angular_damping: 0.0,
            gravity_scale: defaults::GRAVITY_SCALE,
            fixed_rotation: false,
            bullet: false,
            continuous: true,
            safety_factor: defaults::SAFETY_FACTOR,
            awake: true,
            enable_sleep: true,
            shapes: Vec::new(),
        }
    }

    /// The body with `name`.
    pub fn named(self, name: &str) -> BodyDef {
        BodyDef { name: name.to_owned(), ..self }
    }

    /// The body with `shape` added.
    pub fn with(mut self, shape: ShapeDef) -> BodyDef {
        self.shapes.push(shape);
        self
    }
}

/// One shape of a body: its geometry and its material.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShapeDef {
    /// What the shape is; serialized as the `type` field and the geometry's own fields.
    #[serde(flatten)]
    pub geometry: Geometry,
    /// Density (kg/m²); segments and chains have no area and no mass.
    #[serde(skip_serializing_if = "is_default_density")]
    pub density: f32,
    /// Coulomb friction coefficient.
    #[serde(skip_serializing_if = "is_default_friction")]
    pub friction: f32,
    /// Restitution: 0 stops, 1 bounces back at the same speed.
    #[serde(skip_serializing_if = "is_zero")]
    pub restitution: f32,
    /// Reports overlaps without colliding.
    #[serde(skip_serializing_if = "is_false")]
    pub sensor: bool,
    /// The categories the shape belongs to (bits).
    #[serde(skip_serializing_if = "is_default_category")]
    pub category_bits: u64,
    /// The categories the shape collides with (bits).
    #[serde(skip_serializing_if = "is_default_mask")]
    pub mask_bits: u64,
    /// The collision group: shapes sharing a positive group always collide, shapes sharing a
    /// negative group never do, 0 leaves it to the bits.
    #[serde(skip_serializing_if = "is_zero_group")]
    pub group_index: i32,
    /// The speed of the shape's surface along itself (m/s, a conveyor belt): positive carries
    /// what it touches clockwise around it (toward +x on a belt's top face).
    #[serde(skip_serializing_if = "is_zero")]
    pub tangent_speed: f32,
    /// Rolling resistance (dimensionless): circles and capsules rolling on the shape slow down.
    #[serde(skip_serializing_if = "is_zero")]
    pub rolling_resistance: f32,
    /// A one-way platform: bodies pass through it from the side opposite `one_way_normal` and
    /// land on it from the side the normal points to.
    #[serde(skip_serializing_if = "is_false")]
    pub one_way: bool,
    /// The side a one-way platform holds bodies on (a direction in body coordinates, turned
    /// with the body; not zero). Default (0, 1): the body's up.
    #[serde(serialize_with = "xy", skip_serializing_if = "is_default_one_way_normal")]
    pub one_way_normal: Vec2,
}

impl ShapeDef {
    /// A shape of `geometry` with the default material.
    pub fn new(geometry: Geometry) -> ShapeDef {
        ShapeDef {
            geometry,
            density: defaults::DENSITY,
            friction: defaults::FRICTION,
            restitution: defaults::RESTITUTION,
            sensor: false,
            category_bits: defaults::CATEGORY_BITS,
            mask_bits: defaults::MASK_BITS,
            group_index: 0,
            tangent_speed: 0.0,
            rolling_resistance: 0.0,
            one_way: false,
            one_way_normal: defaults::ONE_WAY_NORMAL,
        }
    }

    /// The broad-phase filter of the shape's category and mask bits.
    pub fn filter(&self) -> Filter {
        Filter { category_bits: self.category_bits, mask_bits: self.mask_bits, group_index: self.group_index }
    }
}

/// The geometry of a shape, in body coordinates (meters, radians).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Geometry {
    /// A solid circle.
    Circle {
        /// Center (m).
        #[serde(serialize_with = "xy", skip_serializing_if = "is_zero_vec")]
        center: Vec2,
        /// Radius (m), positive.
        radius: f32,
    },
    /// A solid capsule: the points within `radius` of the segment between the centers.
    Capsule {
        /// One end of the core segment (m).
        #[serde(serialize_with = "xy")]
        center1: Vec2,
        /// The other end (m).
        #[serde(serialize_with = "xy")]
        center2: Vec2,
        /// Radius (m), positive.
        radius: f32,
    },
    /// A solid box, optionally rotated, offset and rounded.
    Box {
        /// Half the width of the core box (m), positive.
        half_width: f32,
        /// Half the height of the core box (m), positive.
        half_height: f32,
        /// Center (m).
        #[serde(serialize_with = "xy", skip_serializing_if = "is_zero_vec")]
        center: Vec2,
        /// Rotation (rad).
        #[serde(skip_serializing_if = "is_zero")]
        angle: f32,
        /// Rounding radius (m), zero or positive: the box grows by it on every side.
        #[serde(skip_serializing_if = "is_zero")]
        radius: f32,
    },
    /// A solid rounded convex polygon: the points are its corners, in any order; a point
    /// deeper than the linear slop inside the others' hull is an error (see `Concave`).
    Polygon {
        /// At least 3 points not on one line; at most 8 on the hull (m).
        #[serde(serialize_with = "xy_list")]
        points: Vec<Vec2>,
        /// Rounding radius (m), zero or positive.
        #[serde(skip_serializing_if = "is_zero")]
        radius: f32,
    },
    /// A solid concave polygon: the simple polygon through the points in order, split into
    /// convex pieces of at most 8 vertices (one shape each).
    Concave {
        /// 3 to 256 points, no edge crossing another (m).
        #[serde(serialize_with = "xy_list")]
        points: Vec<Vec2>,
        /// Rounding radius of every piece (m), zero or positive.
        #[serde(skip_serializing_if = "is_zero")]
        radius: f32,
    },
    /// A two-sided segment, without mass.
    Segment {
        /// First end (m).
        #[serde(serialize_with = "xy")]
        point1: Vec2,
        /// Second end (m).
        #[serde(serialize_with = "xy")]
        point2: Vec2,
    },
    /// One-sided segments through the points, without mass: each collides on its right side,
    /// walking from one point to the next, so a loop listed clockwise holds bodies inside.
    Chain {
        /// At least 2 points (3 for a loop) (m).
        #[serde(serialize_with = "xy_list")]
        points: Vec<Vec2>,
        /// Whether the last point joins the first.
        #[serde(rename = "loop")]
        is_loop: bool,
    },
}

impl Geometry {
    /// The name in scene files: `circle`, `capsule`, `box`, `polygon`, `concave`, `segment`,
    /// `chain`.
    pub fn kind(&self) -> &'static str {
        match self {
            Geometry::Circle { .. } => "circle",
            Geometry::Capsule { .. } => "capsule",
            Geometry::Box { .. } => "box",
            Geometry::Polygon { .. } => "polygon",
            Geometry::Concave { .. } => "concave",
            Geometry::Segment { .. } => "segment",
            Geometry::Chain { .. } => "chain",
        }
    }

    /// A circle of `radius` centered on the body origin.
    pub fn circle(radius: f32) -> Geometry {
        Geometry::Circle { center: Vec2::ZERO, radius }
    }

    /// A box of half sizes `half_width` by `half_height` centered on the body origin.
    pub fn rect(half_width: f32, half_height: f32) -> Geometry {
        Geometry::Box { half_width, half_height, center: Vec2::ZERO, angle: 0.0, radius: 0.0 }
    }

    /// A box as [`Geometry::rect`], centered at `center` and turned by `angle`.
    pub fn offset_rect(half_width: f32, half_height: f32, center: Vec2, angle: f32) -> Geometry {
        Geometry::Box { half_width, half_height, center, angle, radius: 0.0 }
    }

    /// A segment from `point1` to `point2`.
    pub fn segment(point1: Vec2, point2: Vec2) -> Geometry {
        Geometry::Segment { point1, point2 }
    }

    /// Builds the shape with the impact2d constructors: one shape, or one chain segment per
    /// pair of consecutive chain points.
    ///
    /// Errors: the constructor's [`GeometryError`].
    pub fn build(&self) -> Result<Vec<Shape>, GeometryError> {
        Ok(match self {
            Geometry::Circle { center, radius } => vec![Shape::Circle(Circle::new(*center, *radius)?)],
            Geometry::Capsule { center1, center2, radius } => {
                vec![Shape::Capsule(Capsule::new(*center1, *center2, *radius)?)]
            }
            Geometry::Box { half_width, half_height, center, angle, radius } => {
                let polygon = make_offset_rounded_box(*half_width, *half_height, *center, *angle, *radius)?;
                vec![Shape::Polygon(polygon)]
            }
            Geometry::Polygon { points, radius } => vec![Shape::Polygon(Polygon::from_outline(points, *radius)?)],
            Geometry::Concave { points, radius } => {
                decompose_polygon(points, *radius)?.into_iter().map(Shape::Polygon).collect()
            }
            Geometry::Segment { point1, point2 } => vec![Shape::Segment(Segment::new(*point1, *point2)?)],
            Geometry::Chain { points, is_loop } => {
                make_chain(points, *is_loop)?.into_iter().map(Shape::ChainSegment).collect()
            }
        })
    }

    /// The field of this geometry that a constructor error is about, when one is.
    fn field_of(&self, error: &GeometryError) -> Option<&'static str> {
        let what = match error {
            GeometryError::InvalidRadius { .. } => return Some("radius"),
            GeometryError::NonFinite { what }
            | GeometryError::InvalidSize { what, .. }
            | GeometryError::TooLarge { what, .. } => *what,
            GeometryError::DegenerateSegment { .. } => match self {
                Geometry::Capsule { .. } => return Some("center2"),
                Geometry::Segment { .. } => return Some("point2"),
                _ => return Some("points"),
            },
            GeometryError::TooFewPoints { .. }
            | GeometryError::Collinear
            | GeometryError::TooManyVertices { .. }
            | GeometryError::InvalidPointCount { .. }
            | GeometryError::ChainTooShort { .. }
            | GeometryError::TooManyPoints { .. }
            | GeometryError::SelfIntersecting { .. }
            | GeometryError::NotConvex { .. } => {
                // A box too thin to have area in f32 is the whole box's problem.
                return (!matches!(self, Geometry::Box { .. })).then_some("points");
            }
        };
        // The constructors name inputs "<kind> <field>" ("box half_width", "chain point").
        let field = what.rsplit(' ').next().unwrap_or(what);
        let fields: &[&'static str] = match self {
            Geometry::Circle { .. } => &["center", "radius"],
            Geometry::Capsule { .. } => &["center1", "center2", "radius"],
            Geometry::Box { .. } => &["half_width", "half_height", "center", "angle", "radius"],
            Geometry::Polygon { .. } | Geometry::Concave { .. } | Geometry::Chain { .. } => &["points", "radius"],
            Geometry::Segment { .. } => &["point1", "point2"],
        };
        fields.iter().copied().find(|f| *f == field || (*f == "points" && field == "point"))
    }
}

/// A scene whose values are all checked and whose shapes are built: what a world is made
/// from. Made by [`Scene::validate`] or [`parse_scene`].
#[derive(Clone, Debug)]
pub struct ValidScene {
    scene: Scene,
    /// `built[body][shape]`: the impact2d shapes of each shape definition.
    built: Vec<Vec<Vec<Shape>>>,
    /// `joint_bodies[joint]`: the scene indices of each joint's bodies A and B.
    joint_bodies: Vec<(usize, usize)>,
    /// `mover_bodies[mover]`: the scene index of the body that shows each mover.
    mover_bodies: Vec<usize>,
}

impl ValidScene {
    /// The scene indices of joint `i`'s bodies A and B.
    pub fn joint_bodies(&self, i: usize) -> (usize, usize) {
        self.joint_bodies[i]
    }

    /// The scene index of the body that shows mover `i`.
    pub fn mover_body(&self, i: usize) -> usize {
        self.mover_bodies[i]
    }

    /// The scene as given.
    pub fn scene(&self) -> &Scene {
        &self.scene
    }

    /// The bodies in order, each with its definition and built shapes.
    pub fn bodies(&self) -> impl ExactSizeIterator<Item = ValidBody<'_>> {
        self.scene.bodies.iter().zip(&self.built).map(|(def, built)| ValidBody { def, built })
    }

    /// The number of shape definitions over all bodies (a chain counts once).
    pub fn shape_count(&self) -> usize {
        self.built.iter().map(Vec::len).sum()
    }
}

/// A body of a [`ValidScene`].
#[derive(Clone, Copy, Debug)]
pub struct ValidBody<'a> {
    /// The body's definition (type, pose, velocities, flags).
    pub def: &'a BodyDef,
    built: &'a [Vec<Shape>],
}

impl<'a> ValidBody<'a> {
    /// The body's shapes in order, each with its definition (material, filter) and the
    /// impact2d shapes built from it.
    pub fn shapes(&self) -> impl ExactSizeIterator<Item = ValidShape<'a>> + use<'a> {
        self.def.shapes.iter().zip(self.built).map(|(def, parts)| ValidShape { def, parts })
    }
}

/// A shape of a [`ValidBody`].
#[derive(Clone, Copy, Debug)]
pub struct ValidShape<'a> {
    /// The shape's definition (geometry as written, material, filter).
    pub def: &'a ShapeDef,
    /// The built shapes in body coordinates: one, or one chain segment per chain link.
    pub parts: &'a [Shape],
}

/// The largest body angle a world takes (rad): beyond it, f32 angles are too coarse.
const MAX_ANGLE: f32 = 1.0e6;

/// A step of a field path: an object key or an array index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathStep {
    /// A field of an object.
    Key(&'static str),
    /// An item of an array.
    Index(usize),
}

/// Where a value sits in a scene: `bodies[3].shapes[0].points`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FieldPath(pub Vec<PathStep>);

impl FieldPath {
    pub(crate) fn then(&self, step: PathStep) -> FieldPath {
        let mut steps = self.0.clone();
        steps.push(step);
        FieldPath(steps)
    }

    pub(crate) fn key(&self, key: &'static str) -> FieldPath {
        self.then(PathStep::Key(key))
    }
}

impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("scene");
        }
        for (i, step) in self.0.iter().enumerate() {
            match step {
                PathStep::Key(key) if i == 0 => f.write_str(key)?,
                PathStep::Key(key) => write!(f, ".{key}")?,
                PathStep::Index(index) => write!(f, "[{index}]")?,
            }
        }
        Ok(())
    }
}

/// A value of a [`Scene`] that is out of range, or a shape that cannot be built.
#[derive(Clone, Debug, Error, PartialEq)]
#[error("{path}: {message}")]
pub struct ValidationError {
    /// The field at fault.
    pub path: FieldPath,
    /// What is wrong with it.
    pub message: String,
}

impl Scene {
    /// A scene named `name` with the default settings and no bodies.
    pub fn new(name: &str, description: &str) -> Scene {
        Scene {
            name: name.to_owned(),
            description: description.to_owned(),
            gravity: defaults::GRAVITY,
            time_step: defaults::TIME_STEP,
            substeps: defaults::SUBSTEPS,
            steps: defaults::STEPS,
            max_linear_speed: defaults::MAX_LINEAR_SPEED,
            max_angular_speed: defaults::MAX_ANGULAR_SPEED,
            enable_continuous: true,
            bodies: Vec::new(),
            joints: Vec::new(),
            movers: Vec::new(),
        }
    }

    /// Checks every value against the ranges the world accepts (the limits of
    /// `impact2d::settings`), builds every shape, and then builds the world, so that a valid
    /// scene is one the world takes whole: `impact check` refuses what `impact run` would.
    ///
    /// Errors: the first [`ValidationError`], in the order of the fields: non-finite numbers,
    /// a time step that is not positive or is beyond `settings::MAX_TIME_STEP`, zero sub-steps
    /// or steps, more than `settings::MAX_SUBSTEPS` sub-steps, a gravity component beyond
    /// `settings::MAX_GRAVITY`, speed caps outside `settings::MIN_SPEED_CAP` to
    /// `settings::MAX_LINEAR_SPEED` (`MAX_ANGULAR_SPEED`), positions beyond
    /// `settings::MAX_COORDINATE`, angles beyond 10⁶ rad, velocities beyond the speed limits,
    /// damping outside 0 to `settings::MAX_DAMPING`, gravity scales beyond
    /// `settings::MAX_GRAVITY_SCALE`, a safety factor not above 0 and at most 1, a static body
    /// with a velocity, shapes the impact2d constructors refuse, density, friction or
    /// restitution outside 0 to `settings::MAX_DENSITY`, `MAX_FRICTION`, `MAX_RESTITUTION`;
    /// a joint naming no body or an ambiguous one, a body jointed to itself, or a joint
    /// without the anchors or axis its type needs; then what only the world refuses (a body
    /// heavier than `settings::MAX_BODY_MASS`, a joint's anchor, axis, limits, motor or spring
    /// out of range), at the field of the body, shape or joint it names.
    pub fn validate(&self) -> Result<ValidScene, ValidationError> {
        let valid = self.validate_fields()?;
        crate::build::build_world(&valid).map_err(|error| error.into_validation())?;
        Ok(valid)
    }

    /// The checks of [`Scene::validate`] that need no world.
    fn validate_fields(&self) -> Result<ValidScene, ValidationError> {
        let root = FieldPath::default();
        check_vec(self.gravity, &root.key("gravity"), MAX_GRAVITY, "m/s²")?;
        check_positive(self.time_step, &root.key("time_step"))?;
        check_at_most(self.time_step, MAX_TIME_STEP, "s", &root.key("time_step"))?;
        check_at_least_one(self.substeps, &root.key("substeps"))?;
        if self.substeps > MAX_SUBSTEPS {
            let message = format!("must be at most {MAX_SUBSTEPS}, got {}", self.substeps);
            return Err(ValidationError { path: root.key("substeps"), message });
        }
        check_at_least_one(self.steps, &root.key("steps"))?;
        for (cap, max, unit, key) in [
            (self.max_linear_speed, MAX_LINEAR_SPEED, "m/s", "max_linear_speed"),
            (self.max_angular_speed, MAX_ANGULAR_SPEED, "rad/s", "max_angular_speed"),
        ] {
            check_positive(cap, &root.key(key))?;
            check_at_least(cap, MIN_SPEED_CAP, unit, &root.key(key))?;
            check_at_most(cap, max, unit, &root.key(key))?;
        }
        let bodies = root.key("bodies");
        let built: Vec<Vec<Vec<Shape>>> = self
            .bodies
            .iter()
            .enumerate()
            .map(|(i, body)| validate_body(body, &bodies.then(PathStep::Index(i))))
            .collect::<Result<_, _>>()?;
        let names: Vec<&str> = self.bodies.iter().map(|b| b.name.as_str()).collect();
        let joint_bodies = self
            .joints
            .iter()
            .enumerate()
            .map(|(i, joint)| joint.resolve(&names, &joints::joint_path(i)))
            .collect::<Result<_, _>>()?;
        let mover_bodies = self
            .movers
            .iter()
            .enumerate()
            .map(|(i, mover)| movers::resolve(mover, i, &self.bodies, &built))
            .collect::<Result<_, _>>()?;
        Ok(ValidScene { scene: self.clone(), built, joint_bodies, mover_bodies })
    }

    /// The scene in the file format: indented JSON that [`parse_scene`] reads back to an
    /// equal scene. Fields at their defaults are left out.
    pub fn to_json(&self) -> String {
        let compact = serde_json::to_string(self).expect("scenes always serialize");
        json::pretty(&json::parse(&compact).expect("serde_json writes JSON"))
    }
}

fn validate_body(body: &BodyDef, at: &FieldPath) -> Result<Vec<Vec<Shape>>, ValidationError> {
    check_vec(body.position, &at.key("position"), MAX_COORDINATE, "m")?;
    check_finite(body.angle, &at.key("angle"))?;
    if body.angle.abs() > MAX_ANGLE {
        let message = format!("{} is beyond the supported {MAX_ANGLE:e} rad", body.angle);
        return Err(ValidationError { path: at.key("angle"), message });
    }
    check_vec(body.linear_velocity, &at.key("linear_velocity"), f32::MAX, "m/s")?;
    let speed = body.linear_velocity.length();
    if speed > MAX_LINEAR_SPEED {
        let message = format!("speed {} is beyond the supported {} m/s", number(speed), number(MAX_LINEAR_SPEED));
        return Err(ValidationError { path: at.key("linear_velocity"), message });
    }
    check_magnitude(body.angular_velocity, MAX_ANGULAR_SPEED, "rad/s", &at.key("angular_velocity"))?;
    for (damping, key) in [(body.linear_damping, "linear_damping"), (body.angular_damping, "angular_damping")] {
        check_non_negative(damping, &at.key(key))?;
        check_at_most(damping, MAX_DAMPING, "1/s", &at.key(key))?;
    }
    check_magnitude(body.gravity_scale, MAX_GRAVITY_SCALE, "", &at.key("gravity_scale"))?;
    check_safety_factor(body.safety_factor, &at.key("safety_factor"))?;
    if body.body_type == BodyType::Static {
        let moving = if body.linear_velocity != Vec2::ZERO {
            Some("linear_velocity")
        } else if body.angular_velocity != 0.0 {
            Some("angular_velocity")
        } else {
            None
        };
        if let Some(field) = moving {
            let message = "a static body cannot move (make it kinematic, or leave the velocity at 0)".to_owned();
            return Err(ValidationError { path: at.key(field), message });
        }
    }
    let shapes = at.key("shapes");
    body.shapes.iter().enumerate().map(|(i, shape)| validate_shape(shape, &shapes.then(PathStep::Index(i)))).collect()
}

fn validate_shape(shape: &ShapeDef, at: &FieldPath) -> Result<Vec<Shape>, ValidationError> {
    let parts = shape.geometry.build().map_err(|error| {
        let path = shape.geometry.field_of(&error).map_or_else(|| at.clone(), |field| at.key(field));
        ValidationError { path, message: error.to_string() }
    })?;
    for (x, max, unit, key) in [
        (shape.density, MAX_DENSITY, "kg/m²", "density"),
        (shape.friction, MAX_FRICTION, "", "friction"),
        (shape.restitution, MAX_RESTITUTION, "", "restitution"),
    ] {
        check_non_negative(x, &at.key(key))?;
        check_at_most(x, max, unit, &at.key(key))?;
    }
    check_non_negative(shape.rolling_resistance, &at.key("rolling_resistance"))?;
    check_at_most(shape.rolling_resistance, MAX_ROLLING_RESISTANCE, "", &at.key("rolling_resistance"))?;
    check_at_most(shape.tangent_speed.abs(), MAX_TANGENT_SPEED, "m/s", &at.key("tangent_speed"))?;
    Ok(parts)
}

/// `x` for messages: plain below 10⁴ (`0.5`, `1000`), in exponent form above (`1e6`).
fn number(x: f32) -> String {
    if x.abs() < 1.0e4 { format!("{x}") } else { format!("{x:e}") }
}

/// `unit` after a number, with its space (none for dimensionless values).
fn with_unit(unit: &str) -> String {
    if unit.is_empty() { String::new() } else { format!(" {unit}") }
}

/// Checks that a finite `x` is at most `max` (in `unit`).
fn check_at_most(x: f32, max: f32, unit: &str, at: &FieldPath) -> Result<(), ValidationError> {
    if x <= max {
        Ok(())
    } else {
        let message = format!("must be at most {}{}, got {}", number(max), with_unit(unit), number(x));
        Err(ValidationError { path: at.clone(), message })
    }
}

/// Checks that a finite `x` is at least `min` (in `unit`).
fn check_at_least(x: f32, min: f32, unit: &str, at: &FieldPath) -> Result<(), ValidationError> {
    if x >= min {
        Ok(())
    } else {
        let message = format!("must be at least {min:e}{}, got {x:e}", with_unit(unit));
        Err(ValidationError { path: at.clone(), message })
    }
}

/// Checks that `x` is finite and at most `max` (in `unit`) in magnitude.
fn check_magnitude(x: f32, max: f32, unit: &str, at: &FieldPath) -> Result<(), ValidationError> {
    check_finite(x, at)?;
    if x.abs() <= max {
        Ok(())
    } else {
        let message = format!("must be at most {}{} in magnitude, got {}", number(max), with_unit(unit), number(x));
        Err(ValidationError { path: at.clone(), message })
    }
}

fn check_finite(x: f32, at: &FieldPath) -> Result<(), ValidationError> {
    if x.is_finite() {
        Ok(())
    } else {
        Err(ValidationError { path: at.clone(), message: format!("{x} is not a finite number") })
    }
}

/// Checks that both components are finite and at most `max` (in `unit`) in magnitude.
fn check_vec(v: Vec2, at: &FieldPath, max: f32, unit: &str) -> Result<(), ValidationError> {
    for (i, x) in [v.x, v.y].into_iter().enumerate() {
        let at = at.then(PathStep::Index(i));
        check_finite(x, &at)?;
        if x.abs() > max {
            let message = format!("{} is beyond the supported {max:e} {unit}", number(x));
            return Err(ValidationError { path: at, message });
        }
    }
    Ok(())
}

fn check_positive(x: f32, at: &FieldPath) -> Result<(), ValidationError> {
    check_finite(x, at)?;
    if x > 0.0 {
        Ok(())
    } else {
        Err(ValidationError { path: at.clone(), message: format!("must be positive, got {x}") })
    }
}

/// Checks a body's safety factor: above 0 and at most `MAX_CONTINUOUS_SAFETY_FACTOR`, as the
/// world requires.
fn check_safety_factor(x: f32, at: &FieldPath) -> Result<(), ValidationError> {
    check_positive(x, at)?;
    if x <= MAX_CONTINUOUS_SAFETY_FACTOR {
        Ok(())
    } else {
        let message = format!("must be at most {MAX_CONTINUOUS_SAFETY_FACTOR}, got {x}");
        Err(ValidationError { path: at.clone(), message })
    }
}

fn check_non_negative(x: f32, at: &FieldPath) -> Result<(), ValidationError> {
    check_finite(x, at)?;
    if x >= 0.0 {
        Ok(())
    } else {
        Err(ValidationError { path: at.clone(), message: format!("must be zero or positive, got {x}") })
    }
}

fn check_at_least_one(n: u32, at: &FieldPath) -> Result<(), ValidationError> {
    if n >= 1 { Ok(()) } else { Err(ValidationError { path: at.clone(), message: "must be at least 1, got 0".into() }) }
}

/// Why a scene file was refused: where (line and column of the offending value, and its
/// field path) and what. Printed as `LINE:COLUMN: path: message`; the command puts the file
/// name in front.
#[derive(Clone, Debug, Error, PartialEq)]
#[error("{pos}: {}{message}", if path.is_empty() { String::new() } else { format!("{path}: ") })]
pub struct SceneError {
    /// The line and column of the value at fault (of the enclosing object when the value is
    /// missing).
    pub pos: Pos,
    /// The field path, such as `bodies[3].shapes[0].points`; empty for syntax errors.
    pub path: String,
    /// What is wrong.
    pub message: String,
}

/// Reads a scene file's text, checks it, and builds its shapes.
///
/// Errors: the first [`SceneError`]: JSON syntax, then the fields in document order of
/// objects (unknown or duplicate fields first, then missing fields and wrong types and
/// values out of the f32 range), then the checks of [`Scene::validate`].
pub fn parse_scene(text: &str) -> Result<ValidScene, SceneError> {
    let root = json::parse(text).map_err(|e| SceneError {
        pos: e.pos,
        path: String::new(),
        message: format!("invalid JSON: {}", e.message),
    })?;
    let scene = read::scene(&root)?;
    scene.validate().map_err(|error| SceneError {
        pos: read::locate(&root, &error.path),
        path: error.path.to_string(),
        message: error.message,
    })
}

/// The position of the first character of the first invalid UTF-8 sequence in `bytes`,
/// for files that are not text.
pub fn utf8_error_pos(bytes: &[u8], error: &std::str::Utf8Error) -> Pos {
    let valid = std::str::from_utf8(&bytes[..error.valid_up_to()]).expect("valid up to here");
    let line = valid.matches('\n').count() + 1;
    let column = valid.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    Pos { line, column }
}

fn xy<S: Serializer>(v: &Vec2, serializer: S) -> Result<S::Ok, S::Error> {
    [v.x, v.y].serialize(serializer)
}

fn xy_list<S: Serializer>(points: &[Vec2], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(points.iter().map(|p| [p.x, p.y]))
}

fn is_zero(x: &f32) -> bool {
    *x == 0.0
}

fn is_zero_vec(v: &Vec2) -> bool {
    *v == Vec2::ZERO
}

fn is_false(b: &bool) -> bool {
    !b
}

fn is_true(b: &bool) -> bool {
    *b
}

fn is_default_gravity_scale(x: &f32) -> bool {
    *x == defaults::GRAVITY_SCALE
}

fn is_default_max_linear_speed(x: &f32) -> bool {
    *x == defaults::MAX_LINEAR_SPEED
}

fn is_default_max_angular_speed(x: &f32) -> bool {
    *x == defaults::MAX_ANGULAR_SPEED
}

fn is_default_safety_factor(x: &f32) -> bool {
    *x == defaults::SAFETY_FACTOR
}

fn is_default_density(x: &f32) -> bool {
    *x == defaults::DENSITY
}

fn is_default_friction(x: &f32) -> bool {
    *x == defaults::FRICTION
}

fn is_default_category(bits: &u64) -> bool {
    *bits == defaults::CATEGORY_BITS
}

fn is_zero_group(group: &i32) -> bool {
    *group == 0
}

fn is_default_one_way_normal(normal: &Vec2) -> bool {
    *normal == defaults::ONE_WAY_NORMAL
}

fn is_default_mask(bits: &u64) -> bool {
    *bits == defaults::MASK_BITS
}

#[cfg(test)]
mod tests;
