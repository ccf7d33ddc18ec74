//! The plugin run headless: Bevy's `TimePlugin` and `ImpactPlugin`, time advanced by hand so that
//! each `app.update()` runs exactly one fixed step (checked in `stepping.rs`). One test binary
//! for every file here, so the workspace's test build links bevy once for them.

mod bullets;
mod despawn;
mod events;
mod joints;
mod kinematic;
mod sensors;
mod spatial_query;
mod stepping;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_impact2d::prelude::*;
use bevy_math::prelude::*;
use bevy_time::prelude::*;
use bevy_time::{TimePlugin, TimeUpdateStrategy};
use bevy_transform::prelude::*;

/// The fixed timestep (s): Bevy's default, 1/64 s, exact in binary.
pub const DT: f32 = 1.0 / 64.0;

/// A headless app with the plugin and `def`, whose clocks are started: from now on each
/// `app.update()` advances time by one fixed timestep.
pub fn app_with(def: WorldDef) -> App {
    let mut app = App::new();
    app.add_plugins((TimePlugin, ImpactPlugin::default().with_world_def(def)));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Time::<Fixed>::default().timestep()));
    // The first update starts the clocks (a zero delta): no fixed step runs in it.
    app.update();
    app
}

/// A headless app with the plugin and the default world (gravity (0, -10) m/s²).
pub fn app() -> App {
    app_with(WorldDef::default())
}

/// Every message of type `M` delivered since the last call.
pub fn drain<M: Message>(app: &mut App) -> Vec<M> {
    app.world_mut().resource_mut::<Messages<M>>().drain().collect()
}

/// An entity's position (m) and angle (rad) from its `Transform`.
pub fn pose(app: &App, entity: Entity) -> (Vec2, f32) {
    let t = app.world().get::<Transform>(entity).expect("entity has a Transform");
    (t.translation.truncate(), 2.0 * t.rotation.z.atan2(t.rotation.w))
}

/// The engine body of an entity.
pub fn body(app: &App, entity: Entity) -> bevy_impact2d::impact2d::BodyId {
    app.world().get::<bevy_impact2d::BodyHandle>(entity).expect("entity has a body").id()
}

/// Fails with the errors the plugin met, if any.
pub fn assert_no_errors(app: &App) {
    let errors = app.world().resource::<PhysicsErrors>();
    let list: Vec<_> = errors.recent().collect();
    assert_eq!(errors.total(), 0, "the plugin met errors: {list:?}");
}

/// A static floor 40 m wide whose top is at y = 0.
pub fn spawn_floor(app: &mut App) -> Entity {
    app.world_mut().spawn((Collider::cuboid(20.0, 0.5), Transform::from_xyz(0.0, -0.5, 0.0))).id()
}

/// A dynamic box of half size `half` (m) at `position`.
pub fn spawn_crate(app: &mut App, half: f32, position: Vec2) -> Entity {
    let transform = Transform::from_translation(position.extend(0.0));
    app.world_mut().spawn((RigidBody::Dynamic, Collider::cuboid(half, half), transform)).id()
}
