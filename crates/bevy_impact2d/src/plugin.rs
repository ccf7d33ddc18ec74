//! The plugin: the world resource, the physics systems in a fixed-timestep schedule, the
//! messages and the observers.

use bevy_app::{App, FixedPostUpdate, Plugin};
use bevy_ecs::intern::Interned;
use bevy_ecs::resource::Resource;
use bevy_ecs::schedule::{IntoScheduleConfigs, ScheduleLabel, SystemSet};
use bevy_ecs::system::{Res, ResMut};
use bevy_time::Time;
use impact2d::WorldDef;

use crate::despawn::{destroy_body, destroy_joint, destroy_shapes, unlink_body, unlink_collider, unlink_joint};
use crate::error::PhysicsErrors;
use crate::events::{ContactBegin, ContactEnd, ContactHit, Impact, JointBroke, SensorBegin, SensorEnd, deliver_events};
use crate::joints::create_joints;
use crate::spawn::{attach_colliders, create_bodies};
use crate::sync::{pull_poses, push_body_options, push_collider_options, push_user_changes};
use crate::world::ImpactWorld;

/// Physics for Bevy with impact2d: add it to an app that has Bevy's `TimePlugin` (in
/// `MinimalPlugins` and `DefaultPlugins`).
///
/// It puts the engine world in the [`ImpactWorld`] resource and steps it once per run of
/// its schedule, by that run's `Time` delta: in `FixedPostUpdate` (the default) one step per
/// fixed timestep of `Time<Fixed>` (64 Hz unless set), after the user's `FixedUpdate`
/// systems. See [`ImpactSystems`] for what runs when.
#[derive(Clone, Debug)]
pub struct ImpactPlugin {
    /// The world's settings (gravity in m/s², speed caps, continuous collision...). An
    /// invalid definition is reported in [`PhysicsErrors`] and the defaults are used.
    pub world_def: WorldDef,
    /// Solver sub-steps per step (1 to the engine's `MAX_SUBSTEPS`). Default 4.
    pub substeps: u32,
    schedule: Interned<dyn ScheduleLabel>,
}

impl Default for ImpactPlugin {
    fn default() -> Self {
        ImpactPlugin { world_def: WorldDef::default(), substeps: 4, schedule: FixedPostUpdate.intern() }
    }
}

impl ImpactPlugin {
    /// The plugin stepping the world in `schedule` instead of `FixedPostUpdate` (each run
    /// steps by that run's `Time` delta, in seconds; runs with a zero delta do not step).
    pub fn in_schedule(schedule: impl ScheduleLabel) -> ImpactPlugin {
        ImpactPlugin { schedule: schedule.intern(), ..ImpactPlugin::default() }
    }

    /// The plugin with the world settings `def`.
    pub fn with_world_def(self, def: WorldDef) -> ImpactPlugin {
        ImpactPlugin { world_def: def, ..self }
    }

    /// The plugin with `substeps` solver sub-steps per step.
    pub fn with_substeps(self, substeps: u32) -> ImpactPlugin {
        ImpactPlugin { substeps, ..self }
    }
}

/// Run-time settings of the simulation.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImpactSettings {
    /// Solver sub-steps per step (1 to the engine's `MAX_SUBSTEPS`; the step is refused
    /// otherwise, see [`PhysicsErrors`]).
    pub substeps: u32,
    /// While true, the physics systems do not run: no step, no sync (despawns still destroy
    /// their bodies).
    pub paused: bool,
}

/// The plugin's systems, in this order in its schedule.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImpactSystems {
    /// New entities get their bodies, colliders and joints; what the user changed
    /// (`Transform`, `Velocity`, kinds, options, materials) goes to the engine.
    Prepare,
    /// The world steps.
    Step,
    /// Poses and velocities come back to the entities, and the step's events go out as
    /// messages.
    Writeback,
}

impl Plugin for ImpactPlugin {
    fn build(&self, app: &mut App) {
        let mut errors = PhysicsErrors::default();
        let world = ImpactWorld::new(&self.world_def).unwrap_or_else(|e| {
            errors.record(None, "create world", e);
            ImpactWorld::new(&WorldDef::default()).expect("the default world definition is valid")
        });
        app.insert_resource(world)
            .insert_resource(errors)
            .insert_resource(ImpactSettings { substeps: self.substeps, paused: false });
        add_messages(app);
        add_systems(app, self.schedule);
        add_observers(app);
    }
}

fn add_messages(app: &mut App) {
    app.add_message::<ContactBegin>()
        .add_message::<ContactEnd>()
        .add_message::<ContactHit>()
        .add_message::<SensorBegin>()
        .add_message::<SensorEnd>()
        .add_message::<Impact>()
        .add_message::<JointBroke>();
}

fn add_systems(app: &mut App, schedule: Interned<dyn ScheduleLabel>) {
    use ImpactSystems::{Prepare, Step, Writeback};
    app.configure_sets(schedule, (Prepare, Step, Writeback).chain().run_if(not_paused));
    // Chained systems with commands get a sync point between them, so a body made by
    // `create_bodies` is there for `attach_colliders` and `create_joints` in the same run.
    let prepare =
        (create_bodies, attach_colliders, create_joints, push_body_options, push_collider_options, push_user_changes);
    app.add_systems(schedule, prepare.chain().in_set(Prepare))
        .add_systems(schedule, step_world.in_set(Step))
        .add_systems(schedule, (pull_poses, deliver_events).chain().in_set(Writeback).run_if(stepped));
}

fn add_observers(app: &mut App) {
    app.add_observer(destroy_body)
        .add_observer(destroy_shapes)
        .add_observer(destroy_joint)
        .add_observer(unlink_body)
        .add_observer(unlink_collider)
        .add_observer(unlink_joint);
}

fn not_paused(settings: Res<ImpactSettings>) -> bool {
    !settings.paused
}

/// Whether the world stepped since its results were last written back (a run with a zero
/// delta does not step, and must not write the old poses over the user's changes).
fn stepped(world: Res<ImpactWorld>) -> bool {
    world.engine().step_count() > world.delivered_step
}

/// Steps the world by the schedule's `Time` delta (seconds) in the configured sub-steps.
fn step_world(
    time: Res<Time>,
    settings: Res<ImpactSettings>,
    mut world: ResMut<ImpactWorld>,
    mut errors: ResMut<PhysicsErrors>,
) {
    let dt = time.delta_secs();
    if dt <= 0.0 {
        return;
    }
    if let Err(e) = world.engine_mut().step(dt, settings.substeps) {
        errors.record(None, "step", e);
    }
}
