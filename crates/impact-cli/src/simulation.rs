//! A scene run step by step: the world built from it, what each step cost, and the reports a
//! run writes (the trace line of each step, the summary at the end, the poses and contacts of
//! replay frames).
//!
//! ```
//! use impact_cli::scene::parse_scene;
//! use impact_cli::simulation::Simulation;
//!
//! let scene = parse_scene(r#"{"name": "drop", "bodies": [
//!     {"type": "static", "position": [0, 0], "shapes": [{"type": "box", "half_width": 5, "half_height": 0.5}]},
//!     {"type": "dynamic", "position": [0, 3], "shapes": [{"type": "circle", "radius": 0.5}]}]}"#).unwrap();
//! let mut run = Simulation::new(&scene).unwrap();
//! for _ in 0..120 {
//!     run.step().unwrap();
//! }
//! let summary = run.summary();
//! assert_eq!(summary.steps, 120);
//! // The 0.5 m ball rests on the ground, whose top is at y = 0.5.
//! let ball = &summary.bodies[1];
//! assert!((ball.position[1] - 1.0).abs() < 0.01, "{:?}", ball.position);
//! //! ```

use impact2d::settings::LINEAR_SLOP;
use impact2d::{Aabb, BodyId, CharacterMover, DrawState, Shape, StepProfile, Vec2, WorldError};
use serde::Serialize;

use crate::build::{BuildError, SceneWorld, build_world};
use crate::replay::{BodyPose, ContactPoint, ToiEvent};
use crate::scene::{BodyType, MoverCommand, ValidScene};

/// A scene being run.
#[derive(Clone, Debug)]
pub struct Simulation {
    name: String,
    pub(crate) time_step: f32,
    pub(crate) substeps: u32,
    names: Vec<String>,
    types: Vec<BodyType>,
    /// Each joint's name and type, in the scene's order.
    joints: Vec<(String, String)>,
    pub(crate) built: SceneWorld,
    /// The steps taken before this run began: 0, or the step its snapshot was saved at.
    pub(crate) first_step: u32,
    profiles: Vec<StepProfile>,
    touching: Vec<u32>,
    /// The impacts continuous collision resolved, with the step (counted from 1) of each.
    tois: Vec<(u32, ToiEvent)>,
    /// Time-of-impact queries and impacts of continuous collision over all steps.
    pub(crate) toi_calls: u64,
    pub(crate) impacts: u64,
    /// The box around every shape as the scene starts (m).
    pub(crate) start_bounds: Option<Aabb>,
    /// The scene's gravity (m/s²), which the movers fall by.
    gravity: Vec2,
    /// The character movers and the bodies that show them.
    pub(crate) movers: Vec<MoverDriver>,
}

/// A character mover run by its script.
#[derive(Clone, Debug)]
pub(crate) struct MoverDriver {
    pub(crate) mover: CharacterMover,
    /// The kinematic body placed where the mover is.
    pub(crate) body: BodyId,
    script: Vec<MoverCommand>,
    /// The velocity kept from the last move (m/s) and the run speed commanded (m/s).
    pub(crate) velocity: Vec2,
    pub(crate) run: f32,
}

impl Simulation {
    /// Builds the world of `scene`; no step is taken yet.
    ///
    /// Errors: [`BuildError`] when the world refuses a body or shape.
    pub fn new(scene: &ValidScene) -> Result<Simulation, BuildError> {
        let built = build_world(scene)?;
        let movers = drivers(scene, &built)?;
        let s = scene.scene();
        let start_bounds = built
            .shapes
            .iter()
            .flatten()
            .flatten()
            .filter_map(|&id| built.world.shape_aabb(id).ok())
            .reduce(|a, b| a.union(&b));
        Ok(Simulation {
            name: s.name.clone(),
            time_step: s.time_step,
            substeps: s.substeps,
            names: s.bodies.iter().map(|b| b.name.clone()).collect(),
            types: s.bodies.iter().map(|b| b.body_type).collect(),
            joints: s.joints.iter().map(|j| (j.name.clone(), j.joint_type.clone())).collect(),
            built,
            first_step: 0,
            profiles: Vec::new(),
            touching: Vec::new(),
            tois: Vec::new(),
            toi_calls: 0,
            impacts: 0,
            start_bounds,
            gravity: s.gravity,
            movers,
        })
    }

    /// Takes one step of the scene's time step and sub-steps.
    ///
    /// Errors: those of [`impact2d::World::step`] (none for a validated scene).
    pub fn step(&mut self) -> Result<(), WorldError> {
        self.drive_movers()?;
        self.built.world.step(self.time_step, self.substeps)?;
        self.profiles.push(self.built.world.profile());
        self.touching.push(self.built.world.touching_contact_count() as u32);
        let stats = self.built.world.continuous_stats();
        self.toi_calls += u64::from(stats.toi_calls);
        self.impacts += u64::from(stats.impacts);
        let step = self.steps();
        let found = self.built.world.impact_events().iter().filter(|e| e.normal != Vec2::ZERO);
        self.tois.extend(found.map(|e| (step, ToiEvent { point: e.point, normal: e.normal })));
        Ok(())
    }

    /// Moves each mover by its script (run speed, jumps) and the scene's gravity, and places
    /// its body where it is. Runs before the world's step, as a game's update would.
    fn drive_movers(&mut self) -> Result<(), WorldError> {
        let (step, dt, gravity) = (self.steps(), self.time_step, self.gravity);
        for d in &mut self.movers {
            let mut jump = 0.0;
            for command in d.script.iter().filter(|c| c.step == step) {
                d.run = command.run.unwrap_or(d.run);
                jump = command.jump;
            }
            // On the ground the mover stands (or jumps); in the air it falls.
            let v = if d.mover.is_grounded() {
                Vec2::new(d.run, jump)
            } else {
                Vec2::new(d.run, d.velocity.y) + gravity * dt
            };
            d.velocity = d.mover.move_and_slide(&mut self.built.world, v, dt)?.velocity;
            self.built.world.set_transform(d.body, d.mover.position(), 0.0)?;
        }
        Ok(())
    }

    /// The mover positions (m), in the scene's order.
    pub fn mover_positions(&self) -> Vec<Vec2> {
        self.movers.iter().map(|d| d.mover.position()).collect()
    }

    /// Whether each mover stands on walkable ground, in the scene's order.
    pub fn movers_grounded(&self) -> Vec<bool> {
        self.movers.iter().map(|d| d.mover.is_grounded()).collect()
    }

    /// The impacts continuous collision resolved in the steps after step `step` (steps
    /// count from 1), in the order they happened: where each one met and its normal.
    pub fn tois_since(&self, step: u32) -> Vec<ToiEvent> {
        let first = self.tois.partition_point(|&(s, _)| s <= step);
        self.tois[first..].iter().map(|&(_, e)| e).collect()
    }

    /// The first body (its index in the scene) whose position, angle or velocities are not
    /// finite, if any. The world's input contract keeps every state finite for a validated
    /// scene, so `impact run` stops with an error if this ever finds one rather than write a
    /// summary of `null`s.
    pub fn first_non_finite_body(&self) -> Option<usize> {
        let world = &self.built.world;
        self.built.bodies.iter().position(|&b| {
            let finite = |r: Result<bool, WorldError>| r.unwrap_or(true);
            !(finite(world.position(b).map(Vec2::is_finite))
                && finite(world.angle(b).map(f32::is_finite))
                && finite(world.linear_velocity(b).map(Vec2::is_finite))
                && finite(world.angular_velocity(b).map(f32::is_finite)))
        })
    }

    /// The steps taken (a resumed run counts on from the step its snapshot was saved at).
    pub fn steps(&self) -> u32 {
        self.first_step + self.profiles.len() as u32
    }

    /// The simulated time (s): steps times the time step.
    pub fn time(&self) -> f64 {
        f64::from(self.steps()) * f64::from(self.time_step)
    }

    /// The world and the handles of the scene's bodies and shapes.
    pub fn world(&self) -> &SceneWorld {
        &self.built
    }

    /// Where the time of each step went, in order.
    pub fn profiles(&self) -> &[StepProfile] {
        &self.profiles
    }

    /// Each body's pose and state now, in the scene's order: the state is
    /// [`impact2d::World::draw_state`], the one debug drawing colors it by.
    pub fn poses(&self) -> Vec<BodyPose> {
        let w = &self.built.world;
        self.built
            .bodies
            .iter()
            .map(|&id| BodyPose {
                position: w.position(id).unwrap_or(Vec2::ZERO),
                angle: w.angle(id).unwrap_or(0.0),
                state: w.draw_state(id).unwrap_or(DrawState::Disabled),
            })
            .collect()
    }

    /// The touching points of every solid contact (sensors left out), each once, in the
    /// order of the scene's bodies and then of the world's contacts: the points of the last
    /// step's manifolds whose separation is within the linear slop.
    pub fn contacts(&self) -> Vec<ContactPoint> {
        let w = &self.built.world;
        let mut out = Vec::new();
        for &id in &self.built.bodies {
            for c in w.body_contacts(id).unwrap_or_default() {
                let owned = w.shape_body(c.shape_a).is_ok_and(|a| a == id);
                let sensor = w.is_sensor(c.shape_a).unwrap_or(true) || w.is_sensor(c.shape_b).unwrap_or(true);
                if !owned || sensor {
                    continue;
                }
                out.extend(
                    c.manifold
                        .points()
                        .iter()
                        .filter(|p| p.separation <= LINEAR_SLOP)
                        .map(|p| ContactPoint { point: p.point, normal: c.manifold.normal }),
                );
            }
        }
        out
    }

    /// The trace line of the current step: `{"step": k, "time": t, "positions": [[x, y,
    /// angle], ...]}`, every body in the scene's order, its position being the body origin
    /// (m) and its angle in radians; in a scene with joints also `"joints": [[ax, ay, bx,
    /// by, broken], ...]`, each joint's world anchors on A and B (m) and 1 when it broke.
    pub fn trace_line(&self) -> String {
        let w = &self.built.world;
        let positions: Vec<[f32; 3]> = self
            .built
            .bodies
            .iter()
            .map(|&id| {
                let p = w.position(id).unwrap_or(Vec2::ZERO);
                [p.x, p.y, w.angle(id).unwrap_or(0.0)]
            })
            .collect();
        let joints = self
            .joint_states()
            .into_iter()
            .map(|j| [j.anchor_a[0], j.anchor_a[1], j.anchor_b[0], j.anchor_b[1], f32::from(u8::from(j.broken))])
            .collect();
        let line = TraceLine { step: self.steps(), time: self.time(), positions, joints };
        serde_json::to_string(&line).expect("trace lines always serialize")
    }

    /// The state of every body now, and the statistics of the steps so far.
    pub fn summary(&self) -> Summary {
        let w = &self.built.world;
        let bodies = self
            .built
            .bodies
            .iter()
            .enumerate()
            .map(|(i, &id)| {
                let (p, v) = (w.position(id).unwrap_or(Vec2::ZERO), w.linear_velocity(id).unwrap_or(Vec2::ZERO));
                BodySummary {
                    name: self.names[i].clone(),
                    body_type: self.types[i].name(),
                    position: [p.x, p.y],
                    angle: w.angle(id).unwrap_or(0.0),
                    linear_velocity: [v.x, v.y],
                    angular_velocity: w.angular_velocity(id).unwrap_or(0.0),
                    awake: w.is_awake(id).unwrap_or(false),
                }
            })
            .collect();
        Summary {
            scene: self.name.clone(),
            steps: self.steps(),
            time_step: self.time_step,
            substeps: self.substeps,
            simulated_time: self.time(),
            bodies,
            joints: self.joint_states(),
            statistics: self.statistics(),
        }
    }

    /// Every joint now: its world anchors and whether it broke.
    pub fn joint_states(&self) -> Vec<JointSummary> {
        let w = &self.built.world;
        self.built
            .joints
            .iter()
            .zip(&self.joints)
            .map(|(&id, (name, joint_type))| {
                let (a, b) = w.joint_world_anchors(id).unwrap_or((Vec2::ZERO, Vec2::ZERO));
                JointSummary {
                    name: name.clone(),
                    joint_type: joint_type.clone(),
                    anchor_a: [a.x, a.y],
                    anchor_b: [b.x, b.y],
                    broken: !w.is_joint_enabled(id).unwrap_or(true),
                }
            })
            .collect()
    }

    fn statistics(&self) -> Statistics {
        let totals: Vec<f64> = self.profiles.iter().map(|p| p.total).collect();
        let n = totals.len().max(1) as f64;
        let mean = totals.iter().sum::<f64>() / n;
        let worst = totals.iter().copied().fold(0.0, f64::max);
        let touching_sum: u64 = self.touching.iter().map(|&c| u64::from(c)).sum();
        Statistics {
            steps_per_second: if mean > 0.0 { 1000.0 / mean } else { 0.0 },
            mean_step_ms: mean,
            worst_step_ms: worst,
            mean_touching_contacts: touching_sum as f64 / n,
            max_touching_contacts: self.touching.iter().copied().max().unwrap_or(0),
            contact_pairs: self.built.world.contact_count() as u64,
            awake_bodies: self.built.world.awake_body_count() as u64,
            outside_start_bounds: self.outside_start_bounds(),
            toi_calls: self.toi_calls,
            impacts: self.impacts,
        }
    }
}

impl Simulation {
    /// The dynamic bodies whose origin is outside the box around every shape at the start.
    fn outside_start_bounds(&self) -> u64 {
        let Some(bounds) = self.start_bounds else { return 0 };
        let w = &self.built.world;
        let outside = |(i, &id): (usize, &impact2d::BodyId)| {
            self.types[i] == BodyType::Dynamic && w.position(id).is_ok_and(|p| !bounds.contains_point(p))
        };
        self.built.bodies.iter().enumerate().filter(|&b| outside(b)).count() as u64
    }
}

/// Seconds to at most 3 decimals, without trailing zeros: `10`, `0.017`.
pub fn round_seconds(seconds: f64) -> String {
    let text = format!("{seconds:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

#[derive(Serialize)]
struct TraceLine {
    step: u32,
    time: f64,
    positions: Vec<[f32; 3]>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    joints: Vec<[f32; 5]>,
}

/// The end of a run: what `impact run --summary` writes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// The scene's name.
    pub scene: String,
    /// The steps taken.
    pub steps: u32,
    /// The duration of one step (s).
    pub time_step: f32,
    /// Solver sub-steps per step.
    pub substeps: u32,
    /// Steps times the time step (s).
    pub simulated_time: f64,
    /// Every body at the end, in the scene's order.
    pub bodies: Vec<BodySummary>,
    /// Every joint at the end, in the scene's order (left out without joints).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub joints: Vec<JointSummary>,
    /// What the steps cost and found.
    pub statistics: Statistics,
}

/// A joint at the end of a run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct JointSummary {
    /// Its name in the scene (may be empty).
    pub name: String,
    /// Its type (`revolute`, ...).
    #[serde(rename = "type")]
    pub joint_type: String,
    /// Its anchor on A in the world (m).
    pub anchor_a: [f32; 2],
    /// Its anchor on B in the world (m).
    pub anchor_b: [f32; 2],
    /// Whether it broke (its reaction passed a break threshold).
    pub broken: bool,
}

/// A body at the end of a run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BodySummary {
    /// Its name in the scene (may be empty).
    pub name: String,
    /// `static`, `kinematic` or `dynamic`.
    #[serde(rename = "type")]
    pub body_type: &'static str,
    /// The body origin (m).
    pub position: [f32; 2],
    /// The angle (rad).
    pub angle: f32,
    /// The velocity of the center of mass (m/s).
    pub linear_velocity: [f32; 2],
    /// The angular velocity (rad/s).
    pub angular_velocity: f32,
    /// Whether it is awake (static bodies never are).
    pub awake: bool,
}

/// What the steps of a run cost and found. Times are the world's own measure of its steps
/// ([`impact2d::World::profile`], wall clock), without the cost of writing reports.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Statistics {
    /// 1000 over the mean step time.
    pub steps_per_second: f64,
    /// The mean time of a step (ms).
    pub mean_step_ms: f64,
    /// The longest step (ms).
    pub worst_step_ms: f64,
    /// Touching solid contacts, averaged over the steps.
    pub mean_touching_contacts: f64,
    /// The most touching solid contacts after any step.
    pub max_touching_contacts: u32,
    /// Contacts (pairs of shapes whose fat AABBs overlap) at the end.
    pub contact_pairs: u64,
    /// Awake kinematic and dynamic bodies at the end.
    pub awake_bodies: u64,
    /// Dynamic bodies whose origin ended outside the box around every shape at the start: in
    /// a closed scene such as the showcase, the bodies that passed through its walls.
    pub outside_start_bounds: u64,
    /// Time-of-impact queries continuous collision ran, over all steps
    /// ([`impact2d::ContinuousStats::toi_calls`]).
    pub toi_calls: u64,
    /// Impacts continuous collision resolved, over all steps
    /// ([`impact2d::ContinuousStats::impacts`]).
    pub impacts: u64,
}

/// The drivers of a scene's movers: each mover's capsule is the first shape of its body
/// (checked by validation), its start the body's position.
fn drivers(scene: &ValidScene, built: &SceneWorld) -> Result<Vec<MoverDriver>, BuildError> {
    let mut out = Vec::new();
    for (i, spec) in scene.scene().movers.iter().enumerate() {
        let index = scene.mover_body(i);
        let body = scene.bodies().nth(index).expect("validated mover body");
        let capsule = match body.shapes().next().map(|shape| shape.parts) {
            Some([Shape::Capsule(c)]) => (c.center1(), c.center2(), c.radius()),
            _ => {
                let source = WorldError::InvalidValue { what: "mover shape", requirement: "a sensor capsule first" };
                return Err(BuildError { path: crate::scene::movers::mover_path(i), source });
            }
        };
        let mover = CharacterMover::new(&spec.def(capsule), body.def.position)
            .map_err(|source| BuildError { path: crate::scene::movers::mover_path(i), source })?;
        let script = spec.script.clone();
        out.push(MoverDriver { mover, body: built.bodies[index], script, velocity: Vec2::ZERO, run: 0.0 });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::parse_scene;
    use crate::scenes;

    /// A box dropped onto the ground comes to rest on it and falls asleep.
    #[test]
    fn a_dropped_box_rests_on_the_ground_and_sleeps() {
        let text = r#"{"name": "drop", "steps": 180, "bodies": [
            {"name": "ground", "type": "static", "position": [0, 0], "shapes": [{"type": "box", "half_width": 10, "half_height": 0.5}]},
            {"name": "box", "type": "dynamic", "position": [0, 3], "shapes": [{"type": "box", "half_width": 0.5, "half_height": 0.5}]}]}"#;
        let scene = parse_scene(text).unwrap();
        let mut run = Simulation::new(&scene).unwrap();
        for _ in 0..180 {
            run.step().unwrap();
        }
        let summary = run.summary();
        assert_eq!((summary.steps, summary.simulated_time), (180, 180.0 * f64::from(1.0f32 / 60.0)));
        let block = &summary.bodies[1];
        // Its center 1 m above the ground's top at y = 0.5, within the linear slop.
        assert!((block.position[1] - 1.0).abs() < LINEAR_SLOP, "{block:?}");
        assert!(block.position[0].abs() < 1e-3 && block.angle.abs() < 1e-3, "{block:?}");
        assert!(!block.awake, "{block:?}");
        assert_eq!(run.poses()[1].state, DrawState::Asleep);
        assert_eq!(summary.statistics.max_touching_contacts, 1);
        assert_eq!(summary.statistics.outside_start_bounds, 0);
        // A box falling 2 m is never fast for its size: no time of impact is needed.
        assert_eq!((summary.statistics.toi_calls, summary.statistics.impacts), (0, 0));
    }

    /// The trace line and the summary say the same thing as the world.
    #[test]
    fn trace_and_summary_agree_with_the_world() {
        let scene = scenes::find("spinning_triangle").unwrap().scene().validate().unwrap();
        let mut run = Simulation::new(&scene).unwrap();
        for _ in 0..20 {
            run.step().unwrap();
        }
        let line: serde_json::Value = serde_json::from_str(&run.trace_line()).unwrap();
        assert_eq!(line["step"], 20);
        let summary = run.summary();
        let w = &run.world().world;
        for (i, &id) in run.world().bodies.iter().enumerate() {
            let traced: Vec<f32> =
                line["positions"][i].as_array().unwrap().iter().map(|x| x.as_f64().unwrap() as f32).collect();
            let p = w.position(id).unwrap();
            assert_eq!(traced, [p.x, p.y, w.angle(id).unwrap()]);
            assert_eq!(summary.bodies[i].position, [p.x, p.y]);
        }
    }

    /// Bullets are bullets, a 150 m/s ball is fast, the ground is static.
    #[test]
    fn states_tell_fast_bodies_and_bullets() {
        let scene = scenes::find("thin_plane").unwrap().scene().validate().unwrap();
        let mut run = Simulation::new(&scene).unwrap();
        run.step().unwrap();
        let states: Vec<DrawState> = run.poses().iter().map(|p| p.state).collect();
        assert_eq!(states, [DrawState::Static, DrawState::Fast]);

        let scene = scenes::find("bullet_paper").unwrap().scene().validate().unwrap();
        let mut run = Simulation::new(&scene).unwrap();
        run.step().unwrap();
        assert_eq!(run.poses()[3].state, DrawState::Bullet);
    }

    /// The ball at 150 m/s onto the 2 cm plane: continuous collision stops it on the plane,
    /// and the run keeps the impact with its step.
    #[test]
    fn the_thin_plane_ball_stays_above_and_its_impact_is_recorded() {
        let scene = scenes::find("thin_plane").unwrap().scene().validate().unwrap();
        let mut run = Simulation::new(&scene).unwrap();
        let mut impact_step = None;
        for step in 1..=120 {
            run.step().unwrap();
            let y = run.poses()[1].position.y;
            assert!(y > 0.0, "step {step}: the ball is at {y}, below the plane's middle");
            if impact_step.is_none() && !run.tois_since(step - 1).is_empty() {
                impact_step = Some(step);
            }
        }
        // 5 m at 150 m/s (2.5 m per step) and a little gravity: the surface meets the plane
        // during the second step.
        let first = impact_step.expect("an impact");
        assert_eq!(first, 2);
        let toi = run.tois_since(first - 1)[0];
        assert!(toi.point.y.abs() < 0.03 && toi.point.x.abs() < 1e-3, "{toi:?}");
        assert!((toi.normal.y.abs() - 1.0).abs() < 1e-3, "{toi:?}");
        let summary = run.summary();
        assert!(summary.statistics.impacts >= 1 && summary.statistics.toi_calls >= summary.statistics.impacts);
        assert_eq!(summary.statistics.outside_start_bounds, 0);
    }

    #[test]
    fn contacts_are_touching_points_with_unit_normals() {
        let scene = scenes::find("box_pile").unwrap().scene().validate().unwrap();
        let mut run = Simulation::new(&scene).unwrap();
        for _ in 0..240 {
            run.step().unwrap();
        }
        let contacts = run.contacts();
        // Forty boxes at rest touch at two points per contact, at least one contact each.
        assert!(contacts.len() >= 80, "{}", contacts.len());
        for c in &contacts {
            assert!((c.normal.length() - 1.0).abs() < 1e-4, "{c:?}");
        }
    }
}
