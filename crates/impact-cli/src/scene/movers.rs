//! Character movers in scene files: the `"movers"` array. Each mover is shown by a kinematic
//! body of the scene whose first shape is a sensor capsule (the mover's capsule); a run
//! moves it with [`impact2d::CharacterMover`] by a script of run speeds and jumps, with the
//! scene's gravity, and places the body where the mover is after each move.

use impact2d::{CharacterMover, MoverDef, Shape, Vec2};
use serde::Serialize;

use super::{BodyType, FieldPath, PathStep, ValidationError};

/// The fields of a mover object.
pub const MOVER_FIELDS: &[&str] =
    &["body", "script", "skin", "max_slope", "step_height", "snap_distance", "push_force"];

/// The fields of a script command.
pub const COMMAND_FIELDS: &[&str] = &["step", "run", "jump"];

/// One mover of a scene (units: meters, radians, newtons, m/s).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoverSpec {
    /// The name of the kinematic body that shows the mover: its first shape, a sensor
    /// capsule, is the mover's capsule, and its position the mover's start.
    pub body: String,
    /// The gap kept from what it touches (m).
    pub skin: f32,
    /// The steepest walkable slope (rad).
    pub max_slope: f32,
    /// The highest step climbed (m).
    pub step_height: f32,
    /// How far down it snaps to ground (m).
    pub snap_distance: f32,
    /// The largest force it pushes dynamic bodies with (N).
    pub push_force: f32,
    /// The commands, by step.
    pub script: Vec<MoverCommand>,
}

/// From step `step` on (counted from 0), run at `run` (m/s along x; the last run speed when
/// absent); a `jump` (m/s, up) leaves the ground at that step if the mover stands on some.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct MoverCommand {
    /// The step the command starts at.
    pub step: u32,
    /// The run speed (m/s, along x; negative runs left), or none to keep the last one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run: Option<f32>,
    /// The jump speed (m/s, up), 0 for none.
    pub jump: f32,
}

impl MoverSpec {
    /// A mover shown by body `body`, with the library's defaults and no script.
    pub fn new(body: &str) -> MoverSpec {
        let d = MoverDef::default();
        MoverSpec {
            body: body.to_owned(),
            skin: d.skin,
            max_slope: d.max_slope,
            step_height: d.step_height,
            snap_distance: d.snap_distance,
            push_force: d.push_force,
            script: Vec::new(),
        }
    }

    /// The mover's definition with the capsule `(center1, center2, radius)`.
    pub fn def(&self, capsule: (Vec2, Vec2, f32)) -> MoverDef {
        MoverDef {
            center1: capsule.0,
            center2: capsule.1,
            radius: capsule.2,
            skin: self.skin,
            max_slope: self.max_slope,
            step_height: self.step_height,
            snap_distance: self.snap_distance,
            push_force: self.push_force,
            ..MoverDef::default()
        }
    }
}

/// The path of mover `i`.
pub(crate) fn mover_path(i: usize) -> FieldPath {
    FieldPath::default().key("movers").then(PathStep::Index(i))
}

/// Checks mover `i` against the scene's bodies: its body exists once, is kinematic and
/// starts with a sensor capsule; its settings make a mover; its script's steps increase.
/// Returns the body's index.
pub(crate) fn resolve(
    spec: &MoverSpec,
    i: usize,
    bodies: &[super::BodyDef],
    built: &[Vec<Vec<Shape>>],
) -> Result<usize, ValidationError> {
    let at = mover_path(i);
    let err = |path: FieldPath, message: String| ValidationError { path, message };
    let found: Vec<usize> = bodies.iter().enumerate().filter(|(_, b)| b.name == spec.body).map(|(k, _)| k).collect();
    let index = match found[..] {
        [k] => k,
        [] => return Err(err(at.key("body"), format!("no body is named {:?}", spec.body))),
        _ => {
            return Err(err(
                at.key("body"),
                format!("{} bodies are named {:?}: a mover needs one", found.len(), spec.body),
            ));
        }
    };
    let body = &bodies[index];
    let capsule = match built[index].first().map(Vec::as_slice) {
        Some([Shape::Capsule(c)]) if body.shapes[0].sensor => (c.center1(), c.center2(), c.radius()),
        _ => {
            let message = format!("body {:?} must start with a sensor capsule (the mover's shape)", spec.body);
            return Err(err(at.key("body"), message));
        }
    };
    if body.body_type != BodyType::Kinematic {
        return Err(err(at.key("body"), format!("body {:?} must be kinematic (the mover places it)", spec.body)));
    }
    if capsule.2 < spec.skin {
        // The capsule is what is too small: the skin may be at most its radius.
        let radius = FieldPath::default().key("bodies").then(PathStep::Index(index)).key("shapes");
        let message = format!("the capsule of mover {i} must have a radius of at least its skin ({} m)", spec.skin);
        return Err(err(radius.then(PathStep::Index(0)).key("radius"), message));
    }
    CharacterMover::new(&spec.def(capsule), body.position).map_err(|e| {
        let field = match e {
            impact2d::WorldError::InvalidValue { what, .. } => what.rsplit(' ').next().unwrap_or(what),
            _ => "body",
        };
        let key = MOVER_FIELDS.iter().copied().find(|f| f.ends_with(field)).unwrap_or("body");
        err(at.key(key), e.to_string())
    })?;
    let script = at.key("script");
    for (k, command) in spec.script.iter().enumerate() {
        let here = script.then(PathStep::Index(k));
        if k > 0 && command.step <= spec.script[k - 1].step {
            return Err(err(here.key("step"), "steps must increase along the script".to_owned()));
        }
        for (x, key) in [(command.run.unwrap_or(0.0), "run"), (command.jump, "jump")] {
            if !x.is_finite() || x.abs() > 1.0e4 {
                return Err(err(here.key(key), format!("{x} is not a speed within 1e4 m/s")));
            }
        }
    }
    Ok(index)
}
