//! The world: bodies, shapes, contacts and the step that moves them.

use std::time::Instant;

use super::bit_set::BitSet;
use super::body::{Body, BodyDef, BodyType, check_angle, check_safety_factor};
use super::collider::{Collider, ShapeDef};
use super::contact::{
    Contact, MixingRule, PairMap, PointImpulse, TouchChange, mix_friction, mix_restitution, mix_rolling,
};
use super::continuous::{Continuous, ContinuousMode, shape_extents};
use super::error::{WorldError, check_angular_velocity, check_components, check_range, check_vector, check_velocity};
use super::events::{
    BodyMoveEvent, ContactBeginEvent, ContactEndEvent, ContactHitEvent, Events, SensorBeginEvent, SensorEndEvent,
};
use super::graph::ConstraintGraph;
use super::handles::{BodyId, NULL, ShapeId, Slots, next_world_id};
use super::hooks::Hooks;
use super::island::Islands;
use super::joint::Joint;
use super::solver::{Solver, cap_velocity, hold_angular, hold_linear};
use crate::broad_phase::{BroadPhase, Filter, ProxyKind};
use crate::geometry::{Aabb, Shape, decompose_polygon, make_chain};
use crate::math::{Sweep, Transform, Vec2};
use crate::narrow_phase::Manifold;
use crate::settings::{
    DEFAULT_CONTACT_DAMPING_RATIO, DEFAULT_CONTACT_HERTZ, DEFAULT_CONTACT_PUSH_MAX_SPEED, DEFAULT_HIT_EVENT_THRESHOLD,
    DEFAULT_MAX_ANGULAR_SPEED, DEFAULT_MAX_IMPACTS_PER_BODY, DEFAULT_MAX_LINEAR_SPEED, DEFAULT_RESTITUTION_THRESHOLD,
    LINEAR_SLOP, MAX_ANGULAR_IMPULSE, MAX_ANGULAR_SPEED, MAX_BODIES, MAX_BODY_MASS, MAX_CONTACT_DAMPING_RATIO,
    MAX_COORDINATE, MAX_FORCE, MAX_GRAVITY, MAX_IMPULSE, MAX_LINEAR_SPEED, MAX_SUBSTEPS, MAX_TIME_STEP, MAX_TORQUE,
    MIN_SPEED_CAP,
};

/// The settings of a world. Units: meters, kilograms, seconds.
///
/// Every number has a finite range (below, and in [`crate::settings`]); [`World::new`]
/// refuses a definition with a value outside it with [`WorldError::InvalidValue`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct WorldDef {
    /// Gravitational acceleration (m/s²): each component finite and at most
    /// [`MAX_GRAVITY`] (1e6 m/s²) in magnitude. Default (0, -10).
    pub gravity: Vec2,
    /// Contact stiffness (Hz; finite, not negative), capped at a quarter of the sub-step rate.
    /// Default [`DEFAULT_CONTACT_HERTZ`].
    pub contact_hertz: f32,
    /// Contact damping ratio (dimensionless; finite, from 0 to [`MAX_CONTACT_DAMPING_RATIO`],
    /// 1e6). Default [`DEFAULT_CONTACT_DAMPING_RATIO`].
    pub contact_damping_ratio: f32,
    /// The fastest an overlap is pushed out (m/s; finite, from 0 to [`MAX_LINEAR_SPEED`], 1e6).
    /// Default [`DEFAULT_CONTACT_PUSH_MAX_SPEED`].
    pub contact_push_max_speed: f32,
    /// Approach speed above which restitution applies (m/s; finite, not negative). Default
    /// [`DEFAULT_RESTITUTION_THRESHOLD`].
    pub restitution_threshold: f32,
    /// Approach speed above which hit events are reported (m/s; finite, not negative). Default
    /// [`DEFAULT_HIT_EVENT_THRESHOLD`].
    pub hit_event_threshold: f32,
    /// The fastest a dynamic body's center of mass moves (m/s; finite, from [`MIN_SPEED_CAP`]
    /// (1e-6) to [`MAX_LINEAR_SPEED`] (1e6 m/s)). Default [`DEFAULT_MAX_LINEAR_SPEED`] (400 m/s).
    ///
    /// A faster dynamic body is slowed to this speed, its direction kept, whenever its velocity
    /// changes in a step: at each solver sub-step after gravity, forces and damping and again
    /// after the contact impulses (so the motion of every sub-step is within the cap), after
    /// each impact continuous collision resolves, and at the end of the step (so a body carried
    /// by a fast kinematic body is held too). After a step, every awake dynamic body moves no
    /// faster than this (to f32 rounding: the speed may exceed it by a few parts in 10⁷). A body
    /// created, set or pushed faster between steps keeps that velocity until its next step: a
    /// scene whose bodies must fly faster (a 600 m/s bullet) raises the cap. Kinematic bodies
    /// are not capped (they move as they are told, within [`MAX_LINEAR_SPEED`]). The cap keeps
    /// each body's motion per step bounded, so continuous collision's swept boxes and times of
    /// impact stay bounded and positions finite.
    pub max_linear_speed: f32,
    /// The fastest a dynamic body turns (rad/s; finite, from [`MIN_SPEED_CAP`] (1e-6) to
    /// [`MAX_ANGULAR_SPEED`] (1e5 rad/s)). Default [`DEFAULT_MAX_ANGULAR_SPEED`] (10 000 rad/s,
    /// about 1600 turns per second).
    ///
    /// Applied where [`WorldDef::max_linear_speed`] is, the same way: a faster body's angular
    /// velocity is set to this speed, its sign kept. Not a rotation clamp for continuous
    /// collision (the time of impact is rotation-safe; see [`WorldDef::max_rotation`] for a
    /// clamp per step): a guard that keeps each body's turn per step bounded, so the swept
    /// boxes and the time of impact's work stay bounded and angles finite.
    pub max_angular_speed: f32,
    /// Whether resting islands fall asleep. Default true.
    pub enable_sleep: bool,
    /// Whether each step starts from the last step's impulses. Default true.
    pub enable_warm_starting: bool,
    /// Continuous collision: fast bodies and bullets are swept so they pass through nothing
    /// (see [`BodyDef::continuous`](super::BodyDef::continuous)). Default true.
    pub enable_continuous: bool,
    /// What continuous collision does with the rest of a step after an impact. Default
    /// [`ContinuousMode::NoTimeLoss`].
    pub continuous_mode: ContinuousMode,
    /// The most impacts continuous collision resolves for one body in one step (at least 1);
    /// a body reaching it stops at its last impact pose for the rest of the step. Default
    /// [`DEFAULT_MAX_IMPACTS_PER_BODY`].
    pub max_impacts_per_body: u32,
    /// The most a dynamic body may turn in a step (radians, finite and positive), by capping
    /// its angular speed at the start of each step; `None` (the default) for no cap. The
    /// time of impact is rotation-safe, so continuous collision does not need it.
    pub max_rotation: Option<f32>,
    /// Contact recycling (after Box2D v3.1+): a touching contact whose bodies have barely
    /// moved relative to each other since its manifold was computed (less than
    /// [`CONTACT_RECYCLE_LINEAR_TOLERANCE`](crate::settings::CONTACT_RECYCLE_LINEAR_TOLERANCE)
    /// meters and
    /// [`CONTACT_RECYCLE_ANGULAR_TOLERANCE`](crate::settings::CONTACT_RECYCLE_ANGULAR_TOLERANCE)
    /// radians) keeps its manifold and only has its separations and points updated from the
    /// current poses, instead of the full collision routine. Sensor contacts are never
    /// recycled. Any value is valid; false computes every manifold afresh every step (the
    /// results of earlier versions, bit for bit). Default true.
    pub enable_contact_recycling: bool,
    /// How contacts mix their shapes' friction coefficients. Default
    /// [`MixingRule::GeometricMean`].
    pub friction_mixing: MixingRule,
    /// How contacts mix their shapes' restitution. Default [`MixingRule::Max`].
    pub restitution_mixing: MixingRule,
    /// Whether each step times its stages for [`World::profile`] (reading the system clock
    /// seven times a step). Default true, but false on `wasm32` targets, whose standard
    /// library has no clock; with it false the step reads no clock and the profile is zero.
    /// Timings never change results.
    pub enable_profiling: bool,
}

impl Default for WorldDef {
    fn default() -> Self {
        WorldDef {
            gravity: Vec2::new(0.0, -10.0),
            contact_hertz: DEFAULT_CONTACT_HERTZ,
            contact_damping_ratio: DEFAULT_CONTACT_DAMPING_RATIO,
            contact_push_max_speed: DEFAULT_CONTACT_PUSH_MAX_SPEED,
            restitution_threshold: DEFAULT_RESTITUTION_THRESHOLD,
            hit_event_threshold: DEFAULT_HIT_EVENT_THRESHOLD,
            max_linear_speed: DEFAULT_MAX_LINEAR_SPEED,
            max_angular_speed: DEFAULT_MAX_ANGULAR_SPEED,
            enable_sleep: true,
            enable_warm_starting: true,
            enable_continuous: true,
            continuous_mode: ContinuousMode::NoTimeLoss,
            max_impacts_per_body: DEFAULT_MAX_IMPACTS_PER_BODY,
            max_rotation: None,
            enable_contact_recycling: true,
            friction_mixing: MixingRule::GeometricMean,
            restitution_mixing: MixingRule::Max,
            enable_profiling: cfg!(not(target_arch = "wasm32")),
        }
    }
}

impl WorldDef {
    pub(crate) fn validate(&self) -> Result<(), WorldError> {
        check_gravity(self.gravity)?;
        check_range(self.contact_hertz, (0.0, f32::MAX), "contact hertz", "finite and not negative")?;
        let requirement = "finite, from 0 to MAX_CONTACT_DAMPING_RATIO (1e6)";
        check_range(
            self.contact_damping_ratio,
            (0.0, MAX_CONTACT_DAMPING_RATIO),
            "contact damping ratio",
            requirement,
        )?;
        let requirement = "finite, from 0 to MAX_LINEAR_SPEED (1e6 m/s)";
        check_range(self.contact_push_max_speed, (0.0, MAX_LINEAR_SPEED), "contact push max speed", requirement)?;
        let requirement = "finite and not negative";
        check_range(self.restitution_threshold, (0.0, f32::MAX), "restitution threshold", requirement)?;
        check_range(self.hit_event_threshold, (0.0, f32::MAX), "hit event threshold", requirement)?;
        check_speed_caps(self.max_linear_speed, self.max_angular_speed)?;
        super::continuous::validate(self)
    }
}

/// Fails unless each component of `gravity` is finite and at most [`MAX_GRAVITY`] in magnitude.
fn check_gravity(gravity: Vec2) -> Result<(), WorldError> {
    check_components(gravity, MAX_GRAVITY, "gravity", "finite, each component at most MAX_GRAVITY (1e6 m/s²)")
}

/// Fails unless both speed caps are in range: from [`MIN_SPEED_CAP`] to [`MAX_LINEAR_SPEED`]
/// and [`MAX_ANGULAR_SPEED`].
fn check_speed_caps(linear: f32, angular: f32) -> Result<(), WorldError> {
    let requirement = "finite, from MIN_SPEED_CAP (1e-6) to MAX_LINEAR_SPEED (1e6 m/s)";
    check_range(linear, (MIN_SPEED_CAP, MAX_LINEAR_SPEED), "max linear speed", requirement)?;
    let requirement = "finite, from MIN_SPEED_CAP (1e-6) to MAX_ANGULAR_SPEED (1e5 rad/s)";
    check_range(angular, (MIN_SPEED_CAP, MAX_ANGULAR_SPEED), "max angular speed", requirement)
}

/// Where the time of the last step went (milliseconds, wall clock).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct StepProfile {
    /// The broad phase's pair update, with contacts made and destroyed.
    pub pairs: f64,
    /// The narrow phase: manifolds, touch changes, island links.
    pub collide: f64,
    /// Solver bodies, constraint preparation, sub-steps, restitution, impulse storage.
    pub solve: f64,
    /// New poses, sweeps, AABBs and broad-phase moves.
    pub finalize: f64,
    /// Continuous collision: fast bodies swept, impacts resolved.
    pub continuous: f64,
    /// Sleep timers, island splitting and sleeping.
    pub sleep: f64,
    /// The whole step.
    pub total: f64,
}

/// A contact of a body, as [`World::body_contacts`] reports it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactData {
    /// The shape with the smaller handle.
    pub shape_a: ShapeId,
    /// The other shape.
    pub shape_b: ShapeId,
    /// The manifold of the last step (normal from A to B; empty when not touching).
    pub manifold: Manifold,
    /// The accumulated normal impulse of each point in the last step (N·s).
    pub normal_impulses: [f32; 2],
    /// The accumulated friction impulse of each point in the last step (N·s).
    pub tangent_impulses: [f32; 2],
    /// The contact's friction coefficient, mixed from its shapes' by
    /// [`WorldDef::friction_mixing`].
    pub friction: f32,
    /// The contact's restitution, mixed from its shapes' by [`WorldDef::restitution_mixing`].
    pub restitution: f32,
    /// The target speed of B relative to A along the tangent `(n.y, -n.x)` of the normal `n`
    /// (m/s): the sum of the shapes' [`ShapeDef::tangent_speed`]s.
    pub tangent_speed: f32,
    /// The rolling resistance times the larger rounding radius (meters; see
    /// [`ShapeDef::rolling_resistance`]).
    pub rolling_resistance: f32,
    /// The accumulated rolling resistance impulse of the last step (N·m·s, on B; its opposite
    /// on A).
    pub rolling_impulse: f32,
}

/// A 2D rigid-body world: bodies with shapes, stepped by a sub-stepped soft contact solver
/// with speculative contacts, with sleeping islands and buffered events. Bodies may be tied by
/// joints ([`World::create_joint`]: revolute, prismatic, distance, weld, wheel, motor and filter
/// joints, solved in the same soft step).
///
/// Handles ([`BodyId`], [`ShapeId`]) are small and generational: every method taking one
/// fails with [`WorldError::StaleHandle`] once its object is destroyed, and with
/// [`WorldError::ForeignHandle`] when another world made it (each world has its own identity;
/// a clone shares its original's, so the original's handles name the same objects in the
/// clone). The same calls give bit-identical states and events, run after run, whatever other
/// worlds exist.
///
/// # The input contract
///
/// Nothing panics on user input, and a refused call leaves the world as it was. Every number
/// has a finite range, checked where it enters (the world's, body's and shape's definitions,
/// every setter, force, impulse and time step; the ranges are in [`crate::settings`] and in each
/// method's docs); a value outside it is refused with [`WorldError::InvalidValue`]. Every call
/// the world accepts leaves every body's state (position, angle, velocities) finite and its
/// origin within [`MAX_COORDINATE`] on each axis:
///
/// - velocities that forces, impulses or a change of mass give a body are held to
///   [`MAX_LINEAR_SPEED`] and [`MAX_ANGULAR_SPEED`] where they are applied, and a dynamic
///   body moves within the world's caps ([`WorldDef::max_linear_speed`]) in every step;
/// - the coordinate limit: a body whose origin ends a step beyond [`MAX_COORDINATE`] on an
///   axis is moved back along that axis to the limit, and the part of its velocity that points
///   out along that axis is removed (kinematic bodies too: a kinematic body at the edge of the
///   world slides along it or stops there);
/// - a body whose motion in a step overflowed f32 (which the ranges make impossible for
///   bodies up to 1e4 m across; see [`MAX_BODY_MASS`] for the budget and what larger shapes
///   can do) ends the step where it began it, at rest, and the impulses of its contacts start
///   again from zero; a velocity that overflowed in an impact of continuous collision is
///   dropped (the body stops there).
///
/// # Many bodies on one spot
///
/// Bodies created overlapping one another all touch: `n` boxes on one spot make
/// `n (n - 1) / 2` contacts, and the first steps cost accordingly while the contact solver
/// pushes them apart (at most [`WorldDef::contact_push_max_speed`]), the pile spreading over a
/// few seconds. Measured on a two-core machine (release build, 1 m boxes created at one point
/// above a ground): 500 boxes 0.28 s for the first step (124,750 contacts), 1,000 boxes 1.1 s
/// (499,500), 2,000 boxes 5.5 s (2.0 million), 3,000 boxes 18 s (4.5 million), each later step
/// cheaper as the pile spreads. Nothing is refused or lost: create bodies apart (a grid, or
/// the places of a scene) to start fast.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct World {
    /// The world's identity, carried by its handles (see [`WorldError::ForeignHandle`]); a
    /// loaded snapshot gets a new one.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) id: u32,
    pub(crate) def: WorldDef,
    pub(crate) bodies: Slots<Body>,
    pub(crate) colliders: Slots<Collider>,
    pub(crate) contacts: Slots<Contact>,
    pub(crate) joints: Slots<Joint>,
    /// The contacts with an awake body: the only ones the narrow phase visits (the solver
    /// visits those of them in the constraint graph).
    pub(crate) awake_contacts: BitSet,
    /// The solver colors of the contacts being solved, kept from step to step.
    pub(crate) graph: ConstraintGraph,
    /// In snapshots as its entries in key order: a hash table's order depends on its history,
    /// and nothing reads it in order.
    #[cfg_attr(feature = "serde", serde(with = "super::contact::pair_map_in_key_order"))]
    pub(crate) pair_map: PairMap,
    pub(crate) broad_phase: BroadPhase,
    /// The awake non-static bodies, in the solver's order.
    pub(crate) awake: Vec<u32>,
    pub(crate) islands: Islands,
    /// The events of the last step.
    pub(crate) events: Events,
    /// Events collected during a step, and by calls between steps, for the next step's lists.
    pub(crate) pending_events: Events,
    pub(crate) solver: Solver,
    pub(crate) continuous: Continuous,
    /// The user's contact hooks (shared by clones; not in snapshots: code is not data).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) hooks: Hooks,
    /// The bodies (index and generation) that fell asleep at the end of the last step: with
    /// the awake set, what the move events are built from when asked, so a step pays nothing
    /// for them.
    pub(crate) slept: Vec<(u32, u32)>,
    /// The contacts pre-solve disabled in this step, by index (a scratch list).
    pub(crate) scratch_disabled: Vec<u32>,
    /// Static proxies were added or removed: the static tree is rebuilt before the next step.
    static_dirty: bool,
    /// How many sensor shapes the world holds: continuous collision sweeps fast bodies
    /// against sensors only when there are some.
    pub(crate) sensor_shapes: u32,
    step_count: u64,
    /// Timings: not state, and not the same twice (left out of snapshots).
    #[cfg_attr(feature = "serde", serde(skip))]
    profile: StepProfile,
    pub(crate) touch_changes: Vec<TouchChange>,
    pub(crate) scratch_keys: Vec<u64>,
    pub(crate) scratch_pairs: Vec<(u64, u32, u32)>,
    pub(crate) scratch_islands: Vec<u32>,
    pub(crate) scratch_bodies: Vec<u32>,
    pub(crate) scratch_members: Vec<u32>,
    pub(crate) scratch_stack: Vec<u32>,
}

impl World {
    /// An empty world, with an identity of its own (see [`WorldError::ForeignHandle`]).
    ///
    /// Errors: [`WorldError::InvalidValue`] for a setting outside its range (see
    /// [`WorldDef`]'s fields).
    pub fn new(def: &WorldDef) -> Result<World, WorldError> {
        def.validate()?;
        Ok(World {
            id: next_world_id(),
            def: *def,
            bodies: Slots::default(),
            colliders: Slots::default(),
            contacts: Slots::default(),
            joints: Slots::default(),
            awake_contacts: BitSet::default(),
            graph: ConstraintGraph::default(),
            pair_map: PairMap::default(),
            broad_phase: BroadPhase::new(),
            awake: Vec::new(),
            islands: Islands::default(),
            events: Events::default(),
            pending_events: Events::default(),
            solver: Solver::default(),
            continuous: Continuous::default(),
            hooks: Hooks::default(),
            slept: Vec::new(),
            scratch_disabled: Vec::new(),
            static_dirty: false,
            sensor_shapes: 0,
            step_count: 0,
            profile: StepProfile::default(),
            touch_changes: Vec::new(),
            scratch_keys: Vec::new(),
            scratch_pairs: Vec::new(),
            scratch_islands: Vec::new(),
            scratch_bodies: Vec::new(),
            scratch_members: Vec::new(),
            scratch_stack: Vec::new(),
        })
    }

    // ---- the step ----

    /// Advances the world by `dt` seconds in `substeps` solver sub-steps: contacts are
    /// updated, bodies move, islands that came to rest fall asleep, and the events of the
    /// step are ready to read. 60 Hz with 4 sub-steps is the usual choice. Every body's state
    /// is finite and its origin within [`MAX_COORDINATE`] after it (see "The input contract").
    ///
    /// Errors: [`WorldError::InvalidValue`] unless `dt` is finite, above 0 and at most
    /// [`MAX_TIME_STEP`] (1 s), and `1 <= substeps <= MAX_SUBSTEPS`; nothing changes then.
    pub fn step(&mut self, dt: f32, substeps: u32) -> Result<(), WorldError> {
        if !(dt > 0.0 && dt <= MAX_TIME_STEP) {
            let requirement = "finite, above 0 and at most MAX_TIME_STEP (1 s)";
            return Err(WorldError::InvalidValue { what: "time step", requirement });
        }
        if !(1..=MAX_SUBSTEPS).contains(&substeps) {
            return Err(WorldError::InvalidValue { what: "sub-step count", requirement: "from 1 to MAX_SUBSTEPS" });
        }
        let now = clock(self.def.enable_profiling);
        let start = now();
        self.events.clear();
        if self.static_dirty {
            self.broad_phase.rebuild(ProxyKind::Static);
            self.static_dirty = false;
        }
        self.update_pairs();
        let t_pairs = now();
        self.update_contacts();
        let t_collide = now();
        self.clamp_rotation(dt);
        self.solve(dt, substeps);
        let t_solve = now();
        self.solve_continuous(dt);
        self.correct_joints_after_impacts(dt / substeps as f32);
        self.hold_bodies();
        let t_continuous = now();
        self.slept.clear();
        self.update_sleep(dt, self.step_count);
        let t_sleep = now();
        self.events.append(&mut self.pending_events);
        self.events.contact_hit.append(&mut self.solver.hits);
        self.events.sort();
        self.step_count += 1;
        self.profile = StepProfile {
            pairs: ms(start, t_pairs),
            collide: ms(t_pairs, t_collide),
            solve: ms(t_collide, t_solve) - self.solver.finalize_ms,
            finalize: self.solver.finalize_ms,
            continuous: ms(t_solve, t_continuous),
            sleep: ms(t_continuous, t_sleep),
            total: ms(start, now()),
        };
        Ok(())
    }

    /// Where the time of the last step went.
    pub fn profile(&self) -> StepProfile {
        self.profile
    }

    /// The number of steps taken.
    pub fn step_count(&self) -> u64 {
        self.step_count
    }

    /// The world's settings.
    pub fn def(&self) -> &WorldDef {
        &self.def
    }

    /// Sets gravity (m/s²). Sleeping bodies stay asleep.
    ///
    /// Errors: [`WorldError::InvalidValue`] unless each component is finite and at most
    /// [`MAX_GRAVITY`] (1e6 m/s²) in magnitude; nothing changes then.
    pub fn set_gravity(&mut self, gravity: Vec2) -> Result<(), WorldError> {
        check_gravity(gravity)?;
        self.def.gravity = gravity;
        Ok(())
    }

    /// Sets the speed caps: [`WorldDef::max_linear_speed`] (m/s) and
    /// [`WorldDef::max_angular_speed`] (rad/s). They act from the next step on, when the
    /// velocities are integrated: a body faster than a new cap keeps its velocity until then.
    /// Sleeping bodies stay asleep.
    ///
    /// Errors: [`WorldError::InvalidValue`] unless both are finite and at least
    /// [`MIN_SPEED_CAP`] (1e-6), `linear` at most [`MAX_LINEAR_SPEED`] (1e6 m/s) and `angular`
    /// at most [`MAX_ANGULAR_SPEED`] (1e5 rad/s); nothing changes then.
    pub fn set_max_speeds(&mut self, linear: f32, angular: f32) -> Result<(), WorldError> {
        check_speed_caps(linear, angular)?;
        self.def.max_linear_speed = linear;
        self.def.max_angular_speed = angular;
        Ok(())
    }

    /// Turns contact recycling on or off (see [`WorldDef::enable_contact_recycling`]). Off, every
    /// manifold is computed afresh from the next step on; on, each touching contact recycles
    /// from the next manifold it computes.
    pub fn set_contact_recycling(&mut self, enabled: bool) {
        self.def.enable_contact_recycling = enabled;
    }

    /// Turns sleeping on or off; turning it off wakes every body.
    pub fn set_sleep_enabled(&mut self, enabled: bool) {
        self.def.enable_sleep = enabled;
        if !enabled {
            for index in self.bodies.live_indices().collect::<Vec<_>>() {
                self.wake_body_index(index);
            }
        }
    }

    // ---- events ----

    /// The bodies the last step moved, in body handle order: every awake kinematic and
    /// dynamic body of the step (resting ones that are still awake included) and those that
    /// fell asleep at its end, with its transform and whether it sleeps (see
    /// [`BodyMoveEvent`]). Built when asked from the world as it is: bodies the program
    /// destroyed, woke, put to sleep or moved since the step show as they are now. Empty
    /// before the first step.
    pub fn body_move_events(&self) -> Vec<BodyMoveEvent> {
        if self.step_count == 0 {
            return Vec::new();
        }
        let generations = &self.bodies.generations;
        let awake = self.awake.iter().map(|&i| (i, generations[i as usize]));
        let mut moved: Vec<(u32, u32)> = awake
            .chain(self.slept.iter().copied())
            .filter(|&(i, generation)| self.bodies.is_live(i, generation))
            .collect();
        moved.sort_unstable();
        moved.dedup();
        moved
            .into_iter()
            .map(|(index, generation)| {
                let b = &self.bodies[index];
                BodyMoveEvent {
                    body: BodyId::new(index, generation, self.id),
                    transform: b.transform,
                    fell_asleep: !b.is_awake(),
                    user_data: b.user_data,
                }
            })
            .collect()
    }

    /// Contacts that began touching in the last step, sorted by shape handles.
    pub fn contact_begin_events(&self) -> &[ContactBeginEvent] {
        &self.events.contact_begin
    }

    /// Contacts that stopped touching in the last step (or whose shape was destroyed since
    /// the step before), sorted by shape handles.
    pub fn contact_end_events(&self) -> &[ContactEndEvent] {
        &self.events.contact_end
    }

    /// Hits faster than [`WorldDef::hit_event_threshold`] in the last step, sorted by shape
    /// handles.
    pub fn contact_hit_events(&self) -> &[ContactHitEvent] {
        &self.events.contact_hit
    }

    /// Shapes that began overlapping a sensor in the last step, sorted.
    pub fn sensor_begin_events(&self) -> &[SensorBeginEvent] {
        &self.events.sensor_begin
    }

    /// Shapes that stopped overlapping a sensor in the last step, sorted.
    pub fn sensor_end_events(&self) -> &[SensorEndEvent] {
        &self.events.sensor_end
    }

    // ---- bodies ----

    /// Makes a body (without shapes: a dynamic body has mass 1 kg until shapes give it one).
    ///
    /// Errors: [`WorldError::InvalidValue`] for a non-finite or out-of-range number in `def`
    /// (see [`BodyDef`]); [`WorldError::Full`] when the world holds [`MAX_BODIES`] bodies.
    pub fn create_body(&mut self, def: &BodyDef) -> Result<BodyId, WorldError> {
        def.validate()?;
        let mut body = Body::new(def);
        if body.is_dynamic() && body.fixed_rotation {
            body.angular_velocity = 0.0;
        }
        if self.bodies.count() >= MAX_BODIES as usize {
            return Err(WorldError::Full { what: "bodies" });
        }
        let (index, generation) = self.bodies.insert(body).ok_or(WorldError::Full { what: "bodies" })?;
        match def.body_type {
            BodyType::Static => {}
            BodyType::Kinematic => {
                if def.awake {
                    self.awake_insert(index);
                }
            }
            BodyType::Dynamic => {
                self.add_body_island(index, def.awake);
                if def.awake {
                    self.awake_insert(index);
                }
            }
        }
        Ok(BodyId::new(index, generation, self.id))
    }

    /// Destroys a body, its shapes and its joints. Contacts it had end (with end events if
    /// touching), the bodies it touched or was jointed to wake up, and each of its joints is
    /// reported by a [`JointEvent::DestroyedWithBody`](super::JointEvent::DestroyedWithBody)
    /// in the next step's [`World::joint_events`].
    ///
    /// Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`].
    pub fn destroy_body(&mut self, id: BodyId) -> Result<(), WorldError> {
        let index = self.body_index(id)?;
        self.destroy_body_joints(index, id);
        while self.bodies[index].contact_head != NULL {
            let key = self.bodies[index].contact_head;
            self.destroy_contact(key >> 1, true);
        }
        let mut shape = self.bodies[index].shape_head;
        while shape != NULL {
            let next = self.colliders[shape].next;
            self.free_collider(shape);
            shape = next;
        }
        self.remove_body_island(index);
        self.awake_remove(index);
        self.bodies.remove(index);
        Ok(())
    }

    /// The index of a live body of this world.
    pub(crate) fn body_index(&self, id: BodyId) -> Result<u32, WorldError> {
        let (kind, index, generation) = (BodyId::KIND, id.index(), id.generation());
        if id.world() != self.id {
            Err(WorldError::ForeignHandle { kind, index, generation })
        } else if self.bodies.is_live(index, generation) {
            Ok(index)
        } else {
            Err(WorldError::StaleHandle { kind, index, generation })
        }
    }

    fn body(&self, id: BodyId) -> Result<&Body, WorldError> {
        Ok(&self.bodies[self.body_index(id)?])
    }

    /// The body's type. Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`].
    pub fn body_type(&self, id: BodyId) -> Result<BodyType, WorldError> {
        Ok(self.body(id)?.body_type)
    }

    /// The world position of the body origin (meters). Errors: [`WorldError::StaleHandle`],
    /// [`WorldError::ForeignHandle`].
    pub fn position(&self, id: BodyId) -> Result<Vec2, WorldError> {
        Ok(self.body(id)?.transform.p)
    }

    /// The body angle (radians; within [-π, π) at the start of each step, and after a step the
    /// start angle plus the step's rotation). Errors: [`WorldError::StaleHandle`],
    /// [`WorldError::ForeignHandle`].
    pub fn angle(&self, id: BodyId) -> Result<f32, WorldError> {
        Ok(self.body(id)?.angle)
    }

    /// The body transform (origin and rotation). Errors: [`WorldError::StaleHandle`],
    /// [`WorldError::ForeignHandle`].
    pub fn transform(&self, id: BodyId) -> Result<Transform, WorldError> {
        Ok(self.body(id)?.transform)
    }

    /// The world position of the center of mass (meters). Errors: [`WorldError::StaleHandle`],
    /// [`WorldError::ForeignHandle`].
    pub fn world_center(&self, id: BodyId) -> Result<Vec2, WorldError> {
        Ok(self.body(id)?.center)
    }

    /// The center of mass in body coordinates (meters). Errors: [`WorldError::StaleHandle`],
    /// [`WorldError::ForeignHandle`].
    pub fn local_center(&self, id: BodyId) -> Result<Vec2, WorldError> {
        Ok(self.body(id)?.local_center)
    }

    /// The velocity of the center of mass (m/s). Errors: [`WorldError::StaleHandle`],
    /// [`WorldError::ForeignHandle`].
    pub fn linear_velocity(&self, id: BodyId) -> Result<Vec2, WorldError> {
        Ok(self.body(id)?.linear_velocity)
    }

    /// The angular velocity (rad/s). Errors: [`WorldError::StaleHandle`],
    /// [`WorldError::ForeignHandle`].
    pub fn angular_velocity(&self, id: BodyId) -> Result<f32, WorldError> {
        Ok(self.body(id)?.angular_velocity)
    }

    /// The mass (kg); zero for static and kinematic bodies. Errors:
    /// [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`].
    pub fn mass(&self, id: BodyId) -> Result<f32, WorldError> {
        Ok(self.body(id)?.mass)
    }

    /// The rotational inertia about the center of mass (kg·m²). Errors:
    /// [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`].
    pub fn rotational_inertia(&self, id: BodyId) -> Result<f32, WorldError> {
        Ok(self.body(id)?.inertia)
    }

    /// Whether the body is awake (static bodies never are). Errors: [`WorldError::StaleHandle`],
    /// [`WorldError::ForeignHandle`].
    pub fn is_awake(&self, id: BodyId) -> Result<bool, WorldError> {
        Ok(self.body(id)?.is_awake())
    }

    /// The body's motion over the last step (center of mass and angle at its start and end;
    /// the angle is not reduced, so a fast spin shows its whole rotation). Errors:
    /// [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`].
    pub fn sweep(&self, id: BodyId) -> Result<Sweep, WorldError> {
        Ok(self.body(id)?.sweep)
    }

    /// The body's flags for continuous collision: `(bullet, continuous)`. Errors:
    /// [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`].
    pub fn continuous_flags(&self, id: BodyId) -> Result<(bool, bool), WorldError> {
        let b = self.body(id)?;
        Ok((b.bullet, b.continuous))
    }

    /// Whether continuous collision swept the body as fast in the last step: a dynamic body that
    /// moved (rotation included) more than its safety factor ([`World::body_safety_factor`]) times
    /// its smallest extent, or a moving bullet, or a body deep in a static shape (see
    /// [`ContinuousStats`](super::ContinuousStats)). Always false when continuous collision is off.
    /// Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`].
    pub fn is_fast(&self, id: BodyId) -> Result<bool, WorldError> {
        let b = self.body(id)?;
        Ok(self.step_count > 0 && b.fast_step == self.step_count)
    }

    /// The body's safety factor for continuous collision ([`BodyDef::safety_factor`]: how far
    /// it may move in a step before it is swept, as a fraction of its smallest extent).
    /// Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`].
    pub fn body_safety_factor(&self, id: BodyId) -> Result<f32, WorldError> {
        Ok(self.body(id)?.safety_factor)
    }

    /// Sets the body's safety factor for continuous collision (see [`BodyDef::safety_factor`] for
    /// what it trades); the fast-body test uses it from the next step on. Accepted for every body,
    /// used only for dynamic continuous bodies that are not bullets.
    ///
    /// Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`];
    /// [`WorldError::InvalidValue`] unless it is finite, above 0 and at most
    /// [`MAX_CONTINUOUS_SAFETY_FACTOR`](crate::settings::MAX_CONTINUOUS_SAFETY_FACTOR) (1); the
    /// body keeps its factor then.
    pub fn set_body_safety_factor(&mut self, id: BodyId, factor: f32) -> Result<(), WorldError> {
        let index = self.body_index(id)?;
        check_safety_factor(factor)?;
        self.bodies[index].safety_factor = factor;
        Ok(())
    }

    /// The body's user data. Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`].
    pub fn body_user_data(&self, id: BodyId) -> Result<u64, WorldError> {
        Ok(self.body(id)?.user_data)
    }

    /// The body's shapes, most recently attached first. Errors: [`WorldError::StaleHandle`],
    /// [`WorldError::ForeignHandle`].
    pub fn body_shapes(&self, id: BodyId) -> Result<Vec<ShapeId>, WorldError> {
        let mut out = Vec::new();
        let mut shape = self.body(id)?.shape_head;
        while shape != NULL {
            out.push(self.shape_id(shape));
            shape = self.colliders[shape].next;
        }
        Ok(out)
    }

    /// The body's contacts (touching or not), sorted by shape handles. Errors:
    /// [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`].
    pub fn body_contacts(&self, id: BodyId) -> Result<Vec<ContactData>, WorldError> {
        let mut out = Vec::new();
        let mut key = self.body(id)?.contact_head;
        while key != NULL {
            let c = &self.contacts[key >> 1];
            let imp: [PointImpulse; 2] = c.impulses;
            let n = c.manifold.count;
            out.push(ContactData {
                shape_a: self.shape_id(c.shape_a),
                shape_b: self.shape_id(c.shape_b),
                manifold: c.manifold,
                normal_impulses: [imp[0].normal, if n > 1 { imp[1].normal } else { 0.0 }],
                tangent_impulses: [imp[0].tangent, if n > 1 { imp[1].tangent } else { 0.0 }],
                friction: c.friction,
                restitution: c.restitution,
                tangent_speed: c.tangent_speed,
                rolling_resistance: c.rolling_resistance,
                rolling_impulse: c.rolling_impulse,
            });
            key = c.edges[(key & 1) as usize].next;
        }
        out.sort_by_key(|c| (c.shape_a, c.shape_b));
        Ok(out)
    }

    /// Sets the velocity of the center of mass (m/s) of a kinematic or dynamic body and wakes
    /// it; ignored for a static body. A dynamic body faster than the world's cap
    /// ([`WorldDef::max_linear_speed`]) keeps this velocity until its next step.
    ///
    /// Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`];
    /// [`WorldError::InvalidValue`] unless `v` is finite and its length at most
    /// [`MAX_LINEAR_SPEED`] (1e6 m/s).
    pub fn set_linear_velocity(&mut self, id: BodyId, v: Vec2) -> Result<(), WorldError> {
        let index = self.body_index(id)?;
        check_velocity(v, "linear velocity")?;
        if self.bodies[index].body_type != BodyType::Static {
            self.bodies[index].linear_velocity = v;
            self.wake_body_index(index);
        }
        Ok(())
    }

    /// Sets the angular velocity (rad/s) of a kinematic or dynamic body and wakes it; ignored
    /// for a static body and a dynamic body with fixed rotation. A dynamic body faster than
    /// the world's cap ([`WorldDef::max_angular_speed`]) keeps it until its next step.
    ///
    /// Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`];
    /// [`WorldError::InvalidValue`] unless `w` is finite and at most [`MAX_ANGULAR_SPEED`]
    /// (1e5 rad/s) in magnitude.
    pub fn set_angular_velocity(&mut self, id: BodyId, w: f32) -> Result<(), WorldError> {
        let index = self.body_index(id)?;
        check_angular_velocity(w, "angular velocity")?;
        let b = &self.bodies[index];
        if b.body_type == BodyType::Kinematic || (b.is_dynamic() && !b.fixed_rotation) {
            self.bodies[index].angular_velocity = w;
            self.wake_body_index(index);
        }
        Ok(())
    }

    /// Moves a body to `position` (its origin, meters) and `angle` (radians) at once, without
    /// sweeping through what lies between. The body and everything touching it wake; its shapes'
    /// AABBs move now.
    ///
    /// Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`];
    /// [`WorldError::InvalidValue`] for a non-finite or out-of-range position or angle.
    pub fn set_transform(&mut self, id: BodyId, position: Vec2, angle: f32) -> Result<(), WorldError> {
        let index = self.body_index(id)?;
        check_vector(position, "body position")?;
        check_angle(angle)?;
        let angle = super::body::reduce_angle(angle);
        let b = &mut self.bodies[index];
        let q = crate::math::Rot::from_angle(angle);
        let center = position + q.rotate(b.local_center);
        b.set_center_and_angle(center, angle);
        // The origin as given, within the limit, whatever the rounding of the center.
        b.transform.p = b.transform.p.clamp(Vec2::splat(-MAX_COORDINATE), Vec2::splat(MAX_COORDINATE));
        b.sweep = b.still_sweep();
        let (xf, enabled) = (b.transform, b.enabled);
        let mut shape = b.shape_head;
        while shape != NULL {
            let c = &mut self.colliders[shape];
            c.aabb = c.geometry.aabb(xf);
            if enabled {
                self.broad_phase.move_proxy(c.proxy, c.aabb)?;
            }
            shape = c.next;
        }
        if self.bodies[index].body_type == BodyType::Static {
            self.static_dirty = true;
        }
        self.wake_body_index(index);
        let mut key = self.bodies[index].contact_head;
        while key != NULL {
            let (other, next) = {
                let c = &self.contacts[key >> 1];
                (if key & 1 == 0 { c.body_b } else { c.body_a }, c.edges[(key & 1) as usize].next)
            };
            self.wake_body_index(other);
            key = next;
        }
        Ok(())
    }

    /// Adds a force (N) acting at the world point `point` (meters) for the next step, and
    /// wakes the body. Ignored for static and kinematic bodies. The forces and torques
    /// accumulated for a step are held within [`MAX_TORQUE`] (and the force components within
    /// the same bound); the velocity they give in a step is held to the world's caps.
    ///
    /// Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`];
    /// [`WorldError::InvalidValue`] unless each component of `force` is finite and at most
    /// [`MAX_FORCE`] (1e20 N) in magnitude, and `point` is finite and within
    /// [`MAX_COORDINATE`].
    pub fn apply_force(&mut self, id: BodyId, force: Vec2, point: Vec2) -> Result<(), WorldError> {
        let index = self.body_index(id)?;
        check_components(force, MAX_FORCE, "force", "finite, each component at most MAX_FORCE (1e20 N)")?;
        check_vector(point, "force point")?;
        let b = &mut self.bodies[index];
        if b.is_dynamic() {
            // Within the ranges, the moment (arm up to a few 1e9 m) stays below MAX_TORQUE, and
            // the sums are held there however many forces are added.
            let held = |x: f32| x.clamp(-MAX_TORQUE, MAX_TORQUE);
            b.force = (b.force + force).clamp(Vec2::splat(-MAX_TORQUE), Vec2::splat(MAX_TORQUE));
            b.torque = held(b.torque + held((point - b.center).perp_dot(force)));
            self.wake_body_index(index);
        }
        Ok(())
    }

    /// Adds a force (N) at the center of mass for the next step, and wakes the body. Ignored
    /// for static and kinematic bodies.
    ///
    /// Errors: as [`World::apply_force`].
    pub fn apply_force_to_center(&mut self, id: BodyId, force: Vec2) -> Result<(), WorldError> {
        let index = self.body_index(id)?;
        let center = self.bodies[index].center;
        self.apply_force(id, force, center)
    }

    /// Adds a torque (N·m) for the next step, and wakes the body. Ignored for static and
    /// kinematic bodies. The accumulated torque is held within [`MAX_TORQUE`]; the angular
    /// velocity it gives in a step is held to the world's cap.
    ///
    /// Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`];
    /// [`WorldError::InvalidValue`] unless `torque` is finite and at most [`MAX_TORQUE`] (1e30
    /// N·m) in magnitude.
    pub fn apply_torque(&mut self, id: BodyId, torque: f32) -> Result<(), WorldError> {
        let index = self.body_index(id)?;
        check_range(torque, (-MAX_TORQUE, MAX_TORQUE), "torque", "finite, at most MAX_TORQUE (1e30 N·m) in magnitude")?;
        if self.bodies[index].is_dynamic() {
            let b = &mut self.bodies[index];
            b.torque = (b.torque + torque).clamp(-MAX_TORQUE, MAX_TORQUE);
            self.wake_body_index(index);
        }
        Ok(())
    }

    /// Applies an impulse (N·s) at the world point `point` (meters): the velocities change at
    /// once, and the body wakes. Ignored for static and kinematic bodies. The new velocities
    /// are held to [`MAX_LINEAR_SPEED`] (the direction kept) and [`MAX_ANGULAR_SPEED`] (the
    /// sign kept); the world's caps apply from the next step.
    ///
    /// Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`];
    /// [`WorldError::InvalidValue`] unless each component of `impulse` is finite and at most
    /// [`MAX_IMPULSE`] (1e20 N·s) in magnitude, and `point` is finite and within
    /// [`MAX_COORDINATE`].
    pub fn apply_linear_impulse(&mut self, id: BodyId, impulse: Vec2, point: Vec2) -> Result<(), WorldError> {
        let index = self.body_index(id)?;
        check_components(impulse, MAX_IMPULSE, "impulse", "finite, each component at most MAX_IMPULSE (1e20 N·s)")?;
        check_vector(point, "impulse point")?;
        let b = &mut self.bodies[index];
        if b.is_dynamic() {
            let (v, w, inv_mass, inv_inertia, arm) =
                (b.linear_velocity, b.angular_velocity, b.inv_mass, b.inv_inertia, point - b.center);
            b.linear_velocity =
                hold_linear(v + inv_mass * impulse, || v.as_dvec2() + f64::from(inv_mass) * impulse.as_dvec2());
            b.angular_velocity = hold_angular(w + inv_inertia * arm.perp_dot(impulse), || {
                f64::from(w) + f64::from(inv_inertia) * arm.as_dvec2().perp_dot(impulse.as_dvec2())
            });
            self.wake_body_index(index);
        }
        Ok(())
    }

    /// Applies an impulse (N·s) at the center of mass, and wakes the body. Ignored for static
    /// and kinematic bodies.
    ///
    /// Errors: as [`World::apply_linear_impulse`].
    pub fn apply_linear_impulse_to_center(&mut self, id: BodyId, impulse: Vec2) -> Result<(), WorldError> {
        let index = self.body_index(id)?;
        let center = self.bodies[index].center;
        self.apply_linear_impulse(id, impulse, center)
    }

    /// Applies an angular impulse (N·m·s), and wakes the body. Ignored for static and
    /// kinematic bodies. The new angular velocity is held to [`MAX_ANGULAR_SPEED`] (the sign
    /// kept); the world's cap applies from the next step.
    ///
    /// Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`];
    /// [`WorldError::InvalidValue`] unless `impulse` is finite and at most
    /// [`MAX_ANGULAR_IMPULSE`] (1e30 N·m·s) in magnitude.
    pub fn apply_angular_impulse(&mut self, id: BodyId, impulse: f32) -> Result<(), WorldError> {
        let index = self.body_index(id)?;
        let requirement = "finite, at most MAX_ANGULAR_IMPULSE (1e30 N·m·s) in magnitude";
        check_range(impulse, (-MAX_ANGULAR_IMPULSE, MAX_ANGULAR_IMPULSE), "angular impulse", requirement)?;
        let b = &mut self.bodies[index];
        if b.is_dynamic() {
            let (w, inv_inertia) = (b.angular_velocity, b.inv_inertia);
            b.angular_velocity =
                hold_angular(w + inv_inertia * impulse, || f64::from(w) + f64::from(inv_inertia) * f64::from(impulse));
            self.wake_body_index(index);
        }
        Ok(())
    }

    /// Wakes a body and its island. Errors: [`WorldError::StaleHandle`],
    /// [`WorldError::ForeignHandle`].
    pub fn wake_body(&mut self, id: BodyId) -> Result<(), WorldError> {
        let index = self.body_index(id)?;
        self.wake_body_index(index);
        Ok(())
    }

    /// Allows or forbids a body to sleep; forbidding wakes it. Errors:
    /// [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`].
    pub fn set_sleep_allowed(&mut self, id: BodyId, allowed: bool) -> Result<(), WorldError> {
        let index = self.body_index(id)?;
        self.bodies[index].sleep_allowed = allowed;
        if !allowed {
            self.wake_body_index(index);
        }
        Ok(())
    }

    // ---- shapes ----

    /// Attaches a shape (in body coordinates) to a body. A dynamic body's mass, center of mass
    /// and rotational inertia are recomputed from all its shapes. The shape starts colliding
    /// at the next step; a sleeping body stays asleep until something wakes it.
    ///
    /// Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`];
    /// [`WorldError::InvalidValue`] for a density, friction or restitution outside its range
    /// (see [`ShapeDef`]), a shape whose mass or rotational inertia overflows f32 (`"shape
    /// mass"`), or, on a dynamic body, a shape that would make the body heavier than
    /// [`MAX_BODY_MASS`] (1e18 kg) or its rotational inertia overflow f32 (`"body mass"`);
    /// [`WorldError::BroadPhase`] for a shape placed beyond the supported coordinates;
    /// [`WorldError::Full`].
    pub fn create_shape(&mut self, body: BodyId, def: &ShapeDef, shape: &Shape) -> Result<ShapeId, WorldError> {
        let body_index = self.body_index(body)?;
        def.validate()?;
        let b = &self.bodies[body_index];
        let mass = shape.mass(def.density);
        if !(mass.mass.is_finite() && mass.rotational_inertia.is_finite()) {
            return Err(WorldError::InvalidValue { what: "shape mass", requirement: "finite (lower the density)" });
        }
        if b.is_dynamic() && !self.mass_fits(body_index, Some((shape, def.density))) {
            let requirement = "at most MAX_BODY_MASS (1e18 kg), its rotational inertia finite (lower the density)";
            return Err(WorldError::InvalidValue { what: "body mass", requirement });
        }
        let aabb = shape.aabb(b.transform);
        let kind = match b.body_type {
            BodyType::Static => ProxyKind::Static,
            BodyType::Kinematic => ProxyKind::Kinematic,
            BodyType::Dynamic => ProxyKind::Dynamic,
        };
        let index = self.colliders.next_index().ok_or(WorldError::Full { what: "shapes" })?;
        let proxy = self.broad_phase.create_proxy(aabb, kind, def.filter, u64::from(index))?;
        if !b.enabled {
            // A disabled body's shapes join the broad phase when it is enabled.
            let removed = self.broad_phase.remove_proxy(proxy);
            debug_assert!(removed.is_ok());
        }
        let collider = Collider {
            body: body_index,
            geometry: *shape,
            density: def.density,
            friction: def.friction,
            restitution: def.restitution,
            tangent_speed: def.tangent_speed,
            rolling_resistance: def.rolling_resistance,
            filter: def.filter,
            sensor: def.sensor,
            enable_contact_events: def.enable_contact_events,
            enable_hit_events: def.enable_hit_events,
            proxy,
            aabb,
            next: b.shape_head,
            user_data: def.user_data,
        };
        let (index, generation) = self.colliders.insert(collider).ok_or(WorldError::Full { what: "shapes" })?;
        self.sensor_shapes += u32::from(def.sensor);
        let b = &mut self.bodies[body_index];
        b.shape_head = index;
        b.shape_count += 1;
        if kind == ProxyKind::Static {
            self.static_dirty = true;
        }
        self.update_mass(body_index);
        // A sleeping body stays asleep (so that scenes can be made asleep, as
        // `BodyDef::awake` says): an awake body that reaches the new shape wakes it.
        Ok(ShapeId::new(index, generation, self.id))
    }

    /// Attaches a chain (one-sided segments through `points`, closed when `is_loop`; see
    /// [`make_chain`]) to a body, one shape per segment, in order.
    ///
    /// Errors: as [`World::create_shape`], and [`WorldError::Geometry`] for an invalid chain.
    pub fn create_chain(
        &mut self,
        body: BodyId,
        def: &ShapeDef,
        points: &[Vec2],
        is_loop: bool,
    ) -> Result<Vec<ShapeId>, WorldError> {
        self.body_index(body)?;
        def.validate()?;
        let segments = make_chain(points, is_loop)?;
        self.create_shapes(body, def, segments.into_iter().map(Shape::ChainSegment))
    }

    /// Attaches every shape of `shapes` to a body with `def`, in order; on the first error
    /// destroys those already made, so that none is left.
    fn create_shapes(
        &mut self,
        body: BodyId,
        def: &ShapeDef,
        shapes: impl ExactSizeIterator<Item = Shape>,
    ) -> Result<Vec<ShapeId>, WorldError> {
        let mut ids = Vec::with_capacity(shapes.len());
        for shape in shapes {
            match self.create_shape(body, def, &shape) {
                Ok(id) => ids.push(id),
                Err(e) => {
                    for id in ids {
                        let _ = self.destroy_shape(id);
                    }
                    return Err(e);
                }
            }
        }
        Ok(ids)
    }

    /// Attaches a concave polygon to a body as convex pieces: the simple polygon through
    /// `points` (meters, body coordinates, either winding) split by [`decompose_polygon`]
    /// into polygons of at most 8 vertices rounded by `radius` (meters), one shape per piece,
    /// all with `def`. The pieces together have the polygon's area and mass (to the linear
    /// slop along its edges).
    ///
    /// Errors: as [`World::create_shape`], and [`WorldError::Geometry`] for a polygon that
    /// is not simple, has too few or too many points, or bad numbers (see
    /// [`decompose_polygon`]). On an error no piece is left on the body.
    pub fn create_concave(
        &mut self,
        body: BodyId,
        def: &ShapeDef,
        points: &[Vec2],
        radius: f32,
    ) -> Result<Vec<ShapeId>, WorldError> {
        self.body_index(body)?;
        def.validate()?;
        let pieces = decompose_polygon(points, radius)?;
        self.create_shapes(body, def, pieces.into_iter().map(Shape::Polygon))
    }

    /// Detaches and destroys a shape. Its contacts end (with end events if touching), the
    /// bodies they touched wake, and a dynamic body's mass is recomputed.
    ///
    /// Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`].
    pub fn destroy_shape(&mut self, id: ShapeId) -> Result<(), WorldError> {
        let index = self.shape_index(id)?;
        let body = self.colliders[index].body;
        let mut key = self.bodies[body].contact_head;
        while key != NULL {
            let c = &self.contacts[key >> 1];
            let next = c.edges[(key & 1) as usize].next;
            if c.shape_a == index || c.shape_b == index {
                self.destroy_contact(key >> 1, true);
            }
            key = next;
        }
        // Unlink from the body's list.
        let next = self.colliders[index].next;
        let mut link = self.bodies[body].shape_head;
        if link == index {
            self.bodies[body].shape_head = next;
        } else {
            while link != NULL {
                let after = self.colliders[link].next;
                if after == index {
                    self.colliders[link].next = next;
                    break;
                }
                link = after;
            }
        }
        self.bodies[body].shape_count -= 1;
        self.free_collider(index);
        self.update_mass(body);
        self.wake_body_index(body);
        Ok(())
    }

    /// Removes a collider's proxy and frees its slot (its contacts are gone already). A
    /// disabled body's shapes have no proxy.
    fn free_collider(&mut self, index: u32) {
        let proxy = self.colliders[index].proxy;
        if self.bodies[self.colliders[index].body].enabled {
            if proxy.kind() == ProxyKind::Static {
                self.static_dirty = true;
            }
            let removed = self.broad_phase.remove_proxy(proxy);
            debug_assert!(removed.is_ok());
        }
        self.sensor_shapes -= u32::from(self.colliders[index].sensor);
        self.colliders.remove(index);
    }

    /// The index of a live shape of this world.
    pub(crate) fn shape_index(&self, id: ShapeId) -> Result<u32, WorldError> {
        let (kind, index, generation) = (ShapeId::KIND, id.index(), id.generation());
        if id.world() != self.id {
            Err(WorldError::ForeignHandle { kind, index, generation })
        } else if self.colliders.is_live(index, generation) {
            Ok(index)
        } else {
            Err(WorldError::StaleHandle { kind, index, generation })
        }
    }

    /// The world's identity, which its handles carry.
    #[inline]
    pub(crate) fn id(&self) -> u32 {
        self.id
    }

    fn collider(&self, id: ShapeId) -> Result<&Collider, WorldError> {
        Ok(&self.colliders[self.shape_index(id)?])
    }

    /// The body a shape is attached to. Errors: [`WorldError::StaleHandle`],
    /// [`WorldError::ForeignHandle`].
    pub fn shape_body(&self, id: ShapeId) -> Result<BodyId, WorldError> {
        let b = self.collider(id)?.body;
        Ok(BodyId::new(b, self.bodies.generations[b as usize], self.id))
    }

    /// A shape's geometry (body coordinates). Errors: [`WorldError::StaleHandle`],
    /// [`WorldError::ForeignHandle`].
    pub fn shape_geometry(&self, id: ShapeId) -> Result<&Shape, WorldError> {
        Ok(&self.collider(id)?.geometry)
    }

    /// A shape's tight AABB where its body is now (meters). Errors: [`WorldError::StaleHandle`],
    /// [`WorldError::ForeignHandle`].
    pub fn shape_aabb(&self, id: ShapeId) -> Result<Aabb, WorldError> {
        Ok(self.collider(id)?.aabb)
    }

    /// A shape's filter. Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`].
    pub fn shape_filter(&self, id: ShapeId) -> Result<Filter, WorldError> {
        Ok(self.collider(id)?.filter)
    }

    /// Whether a shape is a sensor. Errors: [`WorldError::StaleHandle`],
    /// [`WorldError::ForeignHandle`].
    pub fn is_sensor(&self, id: ShapeId) -> Result<bool, WorldError> {
        Ok(self.collider(id)?.sensor)
    }

    /// A shape's friction coefficient. Errors: [`WorldError::StaleHandle`],
    /// [`WorldError::ForeignHandle`].
    pub fn shape_friction(&self, id: ShapeId) -> Result<f32, WorldError> {
        Ok(self.collider(id)?.friction)
    }

    /// A shape's restitution. Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`].
    pub fn shape_restitution(&self, id: ShapeId) -> Result<f32, WorldError> {
        Ok(self.collider(id)?.restitution)
    }

    /// A shape's user data. Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`].
    pub fn shape_user_data(&self, id: ShapeId) -> Result<u64, WorldError> {
        Ok(self.collider(id)?.user_data)
    }

    /// Sets a shape's friction (and its contacts'). Errors: [`WorldError::StaleHandle`],
    /// [`WorldError::ForeignHandle`]; [`WorldError::InvalidValue`] unless finite and from 0 to
    /// [`MAX_FRICTION`](crate::settings::MAX_FRICTION) (1000).
    pub fn set_shape_friction(&mut self, id: ShapeId, friction: f32) -> Result<(), WorldError> {
        let index = self.shape_index(id)?;
        super::collider::check_friction(friction)?;
        self.colliders[index].friction = friction;
        self.refresh_materials(index);
        Ok(())
    }

    /// Sets a shape's restitution (and its contacts'). Errors: [`WorldError::StaleHandle`],
    /// [`WorldError::ForeignHandle`]; [`WorldError::InvalidValue`] unless finite and from 0 to
    /// [`MAX_RESTITUTION`](crate::settings::MAX_RESTITUTION) (10).
    pub fn set_shape_restitution(&mut self, id: ShapeId, restitution: f32) -> Result<(), WorldError> {
        let index = self.shape_index(id)?;
        super::collider::check_restitution(restitution)?;
        self.colliders[index].restitution = restitution;
        self.refresh_materials(index);
        Ok(())
    }

    /// Sets a shape's filter: its pairs are found again at the next step. Errors:
    /// [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`].
    pub fn set_shape_filter(&mut self, id: ShapeId, filter: Filter) -> Result<(), WorldError> {
        let index = self.shape_index(id)?;
        self.colliders[index].filter = filter;
        if self.bodies[self.colliders[index].body].enabled {
            self.broad_phase.set_filter(self.colliders[index].proxy, filter)?;
        }
        let body = self.colliders[index].body;
        self.wake_body_index(body);
        Ok(())
    }

    /// Mixes the materials of a shape's contacts again.
    fn refresh_materials(&mut self, shape: u32) {
        let mut key = self.bodies[self.colliders[shape].body].contact_head;
        while key != NULL {
            let c = &self.contacts[key >> 1];
            let next = c.edges[(key & 1) as usize].next;
            if c.shape_a == shape || c.shape_b == shape {
                self.remix_contact(key >> 1);
            }
            key = next;
        }
    }

    /// Mixes a contact's materials from its shapes' by the world's rules.
    fn remix_contact(&mut self, index: u32) {
        let c = &self.contacts[index];
        let (a, b) = (&self.colliders[c.shape_a], &self.colliders[c.shape_b]);
        let (friction, restitution) = (
            mix_friction(self.def.friction_mixing, a.friction, b.friction),
            mix_restitution(self.def.restitution_mixing, a.restitution, b.restitution),
        );
        let (tangent_speed, rolling) = (a.tangent_speed + b.tangent_speed, mix_rolling(a, b));
        let c = &mut self.contacts[index];
        c.friction = friction;
        c.restitution = restitution;
        c.tangent_speed = tangent_speed;
        c.rolling_resistance = rolling;
        if rolling == 0.0 {
            c.rolling_impulse = 0.0;
        }
    }

    /// Sets the rules contacts mix their shapes' friction and restitution by
    /// ([`WorldDef::friction_mixing`], [`WorldDef::restitution_mixing`]); every contact is
    /// mixed again at once. Any rules are valid.
    pub fn set_mixing_rules(&mut self, friction: MixingRule, restitution: MixingRule) {
        self.def.friction_mixing = friction;
        self.def.restitution_mixing = restitution;
        for index in self.contacts.live_indices().collect::<Vec<_>>() {
            self.remix_contact(index);
        }
    }

    /// A shape's tangent speed (m/s, [`ShapeDef::tangent_speed`]). Errors:
    /// [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`].
    pub fn shape_tangent_speed(&self, id: ShapeId) -> Result<f32, WorldError> {
        Ok(self.collider(id)?.tangent_speed)
    }

    /// Sets a shape's tangent speed (m/s, [`ShapeDef::tangent_speed`]; its contacts' too) and
    /// wakes its body. Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`];
    /// [`WorldError::InvalidValue`] unless finite and at most
    /// [`MAX_TANGENT_SPEED`](crate::settings::MAX_TANGENT_SPEED) in magnitude.
    pub fn set_shape_tangent_speed(&mut self, id: ShapeId, speed: f32) -> Result<(), WorldError> {
        let index = self.shape_index(id)?;
        super::collider::check_tangent_speed(speed)?;
        self.colliders[index].tangent_speed = speed;
        self.refresh_materials(index);
        self.wake_body_index(self.colliders[index].body);
        Ok(())
    }

    /// A shape's rolling resistance ([`ShapeDef::rolling_resistance`]). Errors:
    /// [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`].
    pub fn shape_rolling_resistance(&self, id: ShapeId) -> Result<f32, WorldError> {
        Ok(self.collider(id)?.rolling_resistance)
    }

    /// Sets a shape's rolling resistance ([`ShapeDef::rolling_resistance`]; its contacts'
    /// too). Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`];
    /// [`WorldError::InvalidValue`] unless finite and from 0 to
    /// [`MAX_ROLLING_RESISTANCE`](crate::settings::MAX_ROLLING_RESISTANCE).
    pub fn set_shape_rolling_resistance(&mut self, id: ShapeId, resistance: f32) -> Result<(), WorldError> {
        let index = self.shape_index(id)?;
        super::collider::check_rolling_resistance(resistance)?;
        self.colliders[index].rolling_resistance = resistance;
        self.refresh_materials(index);
        Ok(())
    }

    /// Recomputes a body's mass, center of mass and rotational inertia from its shapes. A
    /// dynamic body without mass gets 1 kg and does not turn; static and kinematic bodies have
    /// none. The origin stays put; the center of mass moves with the new local center, and
    /// the velocity of the new center follows from the angular velocity.
    pub(super) fn update_mass(&mut self, index: u32) {
        self.update_extents(index);
        let (mut mass, mut first, mut inertia_at_origin) = (0.0f64, glam::DVec2::ZERO, 0.0f64);
        let mut shape = self.bodies[index].shape_head;
        while shape != NULL {
            let c = &self.colliders[shape];
            add_mass(&mut mass, &mut first, &mut inertia_at_origin, &c.geometry, c.density);
            shape = c.next;
        }
        if !self.bodies[index].is_dynamic() {
            // No mass, the center at the origin (as a body made static or kinematic has); but
            // continuous collision sweeps a kinematic body by its extents.
            let b = &mut self.bodies[index];
            (b.mass, b.inv_mass, b.inertia, b.inv_inertia) = (0.0, 0.0, 0.0, 0.0);
            b.local_center = Vec2::ZERO;
            b.center = b.transform.p;
            b.sweep = b.still_sweep();
            self.update_extents(index);
            return;
        }
        let (local_center, mass, inertia) = if mass > 0.0 && (mass as f32).is_finite() {
            let center = first / mass;
            ((center).as_vec2(), mass as f32, (inertia_at_origin - mass * center.length_squared()).max(0.0) as f32)
        } else {
            (Vec2::ZERO, 1.0, 0.0)
        };
        self.set_mass_properties(index, local_center, mass, inertia);
    }

    /// Gives a dynamic body its mass (kg, positive), center of mass (body coordinates) and
    /// rotational inertia about it (kg·m², not negative). The origin stays put; the center of
    /// mass moves with the new local center, and the velocity of the new center follows from
    /// the angular velocity.
    pub(super) fn set_mass_properties(&mut self, index: u32, local_center: Vec2, mass: f32, inertia: f32) {
        let b = &mut self.bodies[index];
        let old_inverses = (b.inv_mass, b.inv_inertia);
        // A mass or inertia so small that its inverse overflows (below 3e-39) is taken as no
        // mass (1 kg) or no rotation, so that no inverse is infinite.
        (b.mass, b.inv_mass) = if (1.0 / mass).is_finite() { (mass, 1.0 / mass) } else { (1.0, 1.0) };
        b.inertia = inertia;
        let inv_inertia = if inertia > 0.0 && !b.fixed_rotation { 1.0 / inertia } else { 0.0 };
        b.inv_inertia = if inv_inertia.is_finite() { inv_inertia } else { 0.0 };
        if (b.inv_mass, b.inv_inertia) != old_inverses {
            // The impulses the contacts kept for warm starting were for the old mass: applied
            // to a much lighter body they would throw it (a kilogram's impulse on a body of
            // 1e-27 kg), so they start again from zero.
            let mut key = b.contact_head;
            while key != NULL {
                let c = &mut self.contacts[key >> 1];
                for impulse in &mut c.impulses {
                    (impulse.normal, impulse.tangent) = (0.0, 0.0);
                }
                key = c.edges[(key & 1) as usize].next;
            }
            self.reset_joint_impulses(index);
        }
        let b = &mut self.bodies[index];
        let old_center = b.center;
        b.local_center = local_center;
        b.center = b.transform.apply(local_center);
        let shift = b.center - old_center;
        // The new center moves with the rotation's share of the velocity, held to the speed limit.
        let (v, w) = (b.linear_velocity, b.angular_velocity);
        b.linear_velocity = hold_linear(v + Vec2::new(-w * shift.y, w * shift.x), || {
            v.as_dvec2() + f64::from(w) * glam::DVec2::new(-f64::from(shift.y), f64::from(shift.x))
        });
        b.sweep = b.still_sweep();
        self.update_extents(index);
    }

    /// Marks the static tree for rebuilding before the next step's pairs.
    pub(super) fn mark_static_dirty(&mut self) {
        self.static_dirty = true;
    }

    /// Whether a dynamic body keeps its mass within [`MAX_BODY_MASS`] and its rotational
    /// inertia finite with its shapes and, when given, `extra` (a shape and its density)
    /// attached.
    pub(super) fn mass_fits(&self, index: u32, extra: Option<(&Shape, f32)>) -> bool {
        let (mut mass, mut first, mut inertia_at_origin) = (0.0f64, glam::DVec2::ZERO, 0.0f64);
        if let Some((shape, density)) = extra {
            add_mass(&mut mass, &mut first, &mut inertia_at_origin, shape, density);
        }
        let mut link = self.bodies[index].shape_head;
        while link != NULL {
            let c = &self.colliders[link];
            add_mass(&mut mass, &mut first, &mut inertia_at_origin, &c.geometry, c.density);
            link = c.next;
        }
        if mass <= 0.0 {
            return true;
        }
        let center = first / mass;
        let inertia = (inertia_at_origin - mass * center.length_squared()).max(0.0);
        mass <= f64::from(MAX_BODY_MASS) && (inertia as f32).is_finite()
    }

    /// Holds every awake body to the contract at the end of a step (see "The input contract"
    /// in [`World`]): a dynamic body within the world's speed caps (continuous collision may
    /// have given a carried body its carrier's velocity), and every body's origin within
    /// [`MAX_COORDINATE`]. A body within both is left as it is, bit for bit.
    fn hold_bodies(&mut self) {
        let caps = (self.def.max_linear_speed, self.def.max_angular_speed);
        // The solve left every other awake body within the caps and, unless it says otherwise,
        // within the coordinate limit: only the bodies continuous collision moved need a look.
        let bodies = match self.solver.beyond_limit {
            true => self.awake.clone(),
            false => std::mem::take(&mut self.continuous.moved),
        };
        for &index in &bodies {
            let b = &mut self.bodies[index];
            let (v, w) = (b.linear_velocity, b.angular_velocity);
            if b.is_dynamic() && !(v.length_squared() <= caps.0 * caps.0 && w.abs() <= caps.1) {
                (b.linear_velocity, b.angular_velocity) = cap_velocity(v, w, caps);
            }
            let p = b.transform.p;
            if !(p.x.abs() <= MAX_COORDINATE && p.y.abs() <= MAX_COORDINATE) {
                // Back to the limit along each axis it crossed, without the velocity out.
                let inside = p.clamp(Vec2::splat(-MAX_COORDINATE), Vec2::splat(MAX_COORDINATE));
                let v = &mut b.linear_velocity;
                if p.x != inside.x && v.x * p.x > 0.0 {
                    v.x = 0.0;
                }
                if p.y != inside.y && v.y * p.y > 0.0 {
                    v.y = 0.0;
                }
                let center = b.center + (inside - p);
                b.set_center_and_angle(center, b.angle);
                // Exactly at the limit, whatever the rounding of the center's move.
                b.transform.p = inside;
                b.sweep.c2 = b.center;
                let xf = b.transform;
                let mut shape = b.shape_head;
                while shape != NULL {
                    let c = &mut self.colliders[shape];
                    c.aabb = c.geometry.aabb(xf);
                    let moved = self.broad_phase.move_proxy(c.proxy, c.aabb);
                    debug_assert!(moved.is_ok(), "{moved:?}");
                    shape = c.next;
                }
            }
        }
        if !self.solver.beyond_limit {
            // Its allocation serves the next step.
            self.continuous.moved = bodies;
        }
    }

    /// The smallest and largest extents of a body's shapes about its center of mass.
    fn update_extents(&mut self, index: u32) {
        let (mut min, mut max) = (f32::MAX, 0.0f32);
        let center = self.bodies[index].local_center;
        let mut shape = self.bodies[index].shape_head;
        while shape != NULL {
            let c = &self.colliders[shape];
            let (lo, hi) = shape_extents(&c.geometry, center);
            (min, max) = (min.min(lo), max.max(hi));
            shape = c.next;
        }
        let b = &mut self.bodies[index];
        (b.min_extent, b.max_extent) = (if min == f32::MAX { LINEAR_SLOP } else { min }, max);
    }

    // ---- statistics ----

    /// The number of bodies.
    pub fn body_count(&self) -> usize {
        self.bodies.count()
    }

    /// The number of shapes.
    pub fn shape_count(&self) -> usize {
        self.colliders.count()
    }

    /// The number of contacts (pairs of shapes whose fat AABBs overlap).
    pub fn contact_count(&self) -> usize {
        self.contacts.count()
    }

    /// The number of touching solid contacts (sensor contacts excluded).
    pub fn touching_contact_count(&self) -> usize {
        self.contacts
            .live_indices()
            .filter(|&i| self.contacts[i].is_touching() && !self.contacts[i].is_sensor())
            .count()
    }

    /// The number of awake kinematic and dynamic bodies.
    pub fn awake_body_count(&self) -> usize {
        self.awake.len()
    }

    /// The number of islands (sets of touching dynamic bodies; split lazily, so an awake
    /// island may hold parts that no longer touch).
    pub fn island_count(&self) -> usize {
        self.islands.count()
    }

    /// A hash of the simulation state: FNV-1a over the bits of every body's position, angle,
    /// linear and angular velocity, bodies in storage order. Two worlds built and stepped the
    /// same way give the same value (the determinism the engine promises); a change meant to
    /// be exact can be checked with it. Not stable across versions of the library.
    pub fn state_checksum(&self) -> u64 {
        let mut hash = 0xcbf2_9ce4_8422_2325u64;
        for i in self.bodies.live_indices() {
            let b = &self.bodies[i];
            let (p, v) = (b.transform.p, b.linear_velocity);
            for x in [p.x, p.y, b.angle, v.x, v.y, b.angular_velocity] {
                hash = (hash ^ u64::from(x.to_bits())).wrapping_mul(0x0100_0000_01b3);
            }
        }
        hash
    }

    /// Solver statistics of the last step: contact constraints per graph color, and the
    /// number solved alone (no free color).
    pub fn solver_colors(&self) -> (Vec<u32>, u32) {
        let c = &self.solver.contacts;
        let used = c.color_sizes.iter().rposition(|&n| n > 0).map_or(0, |i| i + 1);
        (c.color_sizes[..used].to_vec(), c.overflow_count)
    }
}

/// A clock for the step profile: the time now when `enabled`, else `None` (no clock read).
fn clock(enabled: bool) -> impl Fn() -> Option<Instant> {
    move || enabled.then(Instant::now)
}

/// Milliseconds from `a` to `b`; zero when either was not read.
fn ms(a: Option<Instant>, b: Option<Instant>) -> f64 {
    match (a, b) {
        (Some(a), Some(b)) => (b - a).as_secs_f64() * 1e3,
        _ => 0.0,
    }
}

/// Adds a shape's mass at `density` to a body's sums (f64): its mass (kg), its first moment
/// about the body origin (kg·m) and its rotational inertia about the body origin (kg·m²).
fn add_mass(mass: &mut f64, first: &mut glam::DVec2, inertia_at_origin: &mut f64, shape: &Shape, density: f32) {
    let m = shape.mass(density);
    let (mm, center) = (f64::from(m.mass), m.center.as_dvec2());
    *mass += mm;
    *first += mm * center;
    *inertia_at_origin += f64::from(m.rotational_inertia) + mm * center.length_squared();
}
