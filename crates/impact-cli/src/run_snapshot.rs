//! A scene run saved mid-way and resumed (`impact run --save-at STEP FILE`, `impact resume
//! FILE`): the resumed run steps bit for bit as the saved one would have gone on.
//!
//! The file holds what a run is made of, in four parts:
//!
//! | bytes | part |
//! |---|---|
//! | 20 | the magic `impact-run-snapshot\n` |
//! | 4 | the format version, little-endian `u32` ([`RUN_SNAPSHOT_VERSION`]) |
//! | 8 + n | the scene file (JSON text, [`crate::scene::Scene::to_json`]), its length first: names, scripts and what replays draw |
//! | 8 + m | the run's own state (postcard): step, time step, counters, the movers, the handles of the scene's bodies, shapes and joints |
//! | rest | the world: an [`impact2d::World::save_snapshot`], with its own version and checksum |
//!
//! The state is written rather than rebuilt from the scene so that nothing in it goes
//! through decimal text: a time step or a mover's velocity read back from JSON could differ
//! from the saved one in its last bit.

use impact2d::{Aabb, BodyId, CharacterMover, JointId, ShapeId, SnapshotError, Vec2, World};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::scene::{SceneError, ValidScene, parse_scene};
use crate::simulation::Simulation;

/// The first bytes of every run snapshot.
const MAGIC: &[u8; 20] = b"impact-run-snapshot\n";

/// The run snapshot format this build writes and reads.
pub const RUN_SNAPSHOT_VERSION: u32 = 1;

/// Why a run snapshot could not be resumed.
#[derive(Debug, Error)]
pub enum ResumeError {
    /// The bytes do not start with the run snapshot magic.
    #[error("not an impact run snapshot (it does not start with \"impact-run-snapshot\")")]
    NotARunSnapshot,
    /// Written by a build with another format version.
    #[error("run snapshot format version {found}, but this build reads version {supported} only")]
    UnsupportedVersion {
        /// The version in the file.
        found: u32,
        /// [`RUN_SNAPSHOT_VERSION`].
        supported: u32,
    },
    /// The file ends inside one of its parts.
    #[error("run snapshot is truncated: it ends inside its {0}")]
    Truncated(&'static str),
    /// The scene part is not a valid scene file.
    #[error("run snapshot's scene: {0}")]
    Scene(String),
    /// The run's state does not decode (or does not fit the scene).
    #[error("run snapshot's run state: {0}")]
    State(String),
    /// The world part is not a loadable world snapshot.
    #[error("run snapshot's world: {0}")]
    World(#[from] SnapshotError),
}

/// What a run is beyond its scene and world.
#[derive(Serialize, Deserialize)]
struct RunState {
    steps: u32,
    time_step: f32,
    substeps: u32,
    toi_calls: u64,
    impacts: u64,
    start_bounds: Option<Aabb>,
    bodies: Vec<BodyId>,
    shapes: Vec<Vec<Vec<ShapeId>>>,
    joints: Vec<JointId>,
    /// Each mover: its state, its velocity kept from the last move (m/s), its run speed (m/s).
    movers: Vec<(CharacterMover, Vec2, f32)>,
}

impl Simulation {
    /// The run as it stands, as a run snapshot of `scene` (the scene it was built from):
    /// [`Simulation::resume`] goes on from here.
    pub fn save(&self, scene: &ValidScene) -> Vec<u8> {
        let state = RunState {
            steps: self.steps(),
            time_step: self.time_step,
            substeps: self.substeps,
            toi_calls: self.toi_calls,
            impacts: self.impacts,
            start_bounds: self.start_bounds,
            bodies: self.built.bodies.clone(),
            shapes: self.built.shapes.clone(),
            joints: self.built.joints.clone(),
            movers: self.movers.iter().map(|d| (d.mover.clone(), d.velocity, d.run)).collect(),
        };
        let scene_json = scene.scene().to_json();
        let state = postcard::to_stdvec(&state).expect("a run state always encodes");
        let mut bytes = Vec::new();
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&RUN_SNAPSHOT_VERSION.to_le_bytes());
        for part in [scene_json.as_bytes(), &state] {
            bytes.extend_from_slice(&(part.len() as u64).to_le_bytes());
            bytes.extend_from_slice(part);
        }
        bytes.extend_from_slice(&self.built.world.save_snapshot());
        bytes
    }

    /// The run saved in `bytes` by [`Simulation::save`], ready to take its next step, and its
    /// scene. Its step count goes on from the saved one; its statistics (step times, touching
    /// contacts) cover the steps taken after resuming, its counters of time-of-impact queries
    /// and impacts the whole run.
    ///
    /// Errors: [`ResumeError`], naming the part at fault.
    pub fn resume(bytes: &[u8]) -> Result<(ValidScene, Simulation), ResumeError> {
        let rest = bytes.strip_prefix(MAGIC.as_slice()).ok_or(ResumeError::NotARunSnapshot)?;
        let (version, rest) = rest.split_first_chunk::<4>().ok_or(ResumeError::Truncated("version"))?;
        let found = u32::from_le_bytes(*version);
        if found != RUN_SNAPSHOT_VERSION {
            return Err(ResumeError::UnsupportedVersion { found, supported: RUN_SNAPSHOT_VERSION });
        }
        let (scene_text, rest) = take_part(rest, "scene")?;
        let (state, world) = take_part(rest, "run state")?;
        let scene = std::str::from_utf8(scene_text)
            .map_err(|_| ResumeError::Scene("not UTF-8 text".into()))
            .and_then(|text| parse_scene(text).map_err(|e: SceneError| ResumeError::Scene(e.to_string())))?;
        let world = World::load_snapshot(world)?;
        let state: RunState =
            world.bind_handles(|| postcard::from_bytes(state)).map_err(|e| ResumeError::State(e.to_string()))?;
        let mut sim = Simulation::new(&scene).map_err(|e| ResumeError::Scene(e.to_string()))?;
        sim.restore(state, world)?;
        Ok((scene, sim))
    }

    /// Puts the saved state and world in place of the freshly built ones.
    fn restore(&mut self, state: RunState, world: World) -> Result<(), ResumeError> {
        let fits = state.bodies.len() == self.built.bodies.len()
            && state.joints.len() == self.built.joints.len()
            && state.movers.len() == self.movers.len();
        if !fits {
            return Err(ResumeError::State("its bodies, joints or movers do not match the scene's".into()));
        }
        self.first_step = state.steps;
        self.time_step = state.time_step;
        self.substeps = state.substeps;
        self.toi_calls = state.toi_calls;
        self.impacts = state.impacts;
        self.start_bounds = state.start_bounds;
        // Hooks are code, not in the snapshot: the scene's (one-way platforms) come from the
        // world just built, whose handles equal the loaded world's.
        let hooks = self.built.world.contact_hooks().cloned();
        self.built.world = world;
        self.built.world.set_contact_hooks(hooks);
        self.built.bodies = state.bodies;
        self.built.shapes = state.shapes;
        self.built.joints = state.joints;
        for (driver, (mover, velocity, run)) in self.movers.iter_mut().zip(state.movers) {
            driver.mover = mover;
            driver.velocity = velocity;
            driver.run = run;
        }
        // The movers' bodies were made in the world just built: the same objects in the loaded one.
        for driver in &mut self.movers {
            driver.body = self.built.world.adopt(driver.body).map_err(|e| ResumeError::State(e.to_string()))?;
        }
        Ok(())
    }
}

/// A part given with its length first, and what follows it.
fn take_part<'a>(bytes: &'a [u8], name: &'static str) -> Result<(&'a [u8], &'a [u8]), ResumeError> {
    let (length, rest) = bytes.split_first_chunk::<8>().ok_or(ResumeError::Truncated(name))?;
    let length = usize::try_from(u64::from_le_bytes(*length)).map_err(|_| ResumeError::Truncated(name))?;
    if rest.len() < length {
        return Err(ResumeError::Truncated(name));
    }
    Ok(rest.split_at(length))
}
