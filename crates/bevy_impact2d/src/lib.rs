//! # bevy_impact2d
//!
//! [Bevy](https://bevy.org) 0.19 physics with [`impact2d`], the 2D rigid-body library whose
//! promise is that nothing tunnels: bullets, thin walls and spinning blades meet at the right
//! time (continuous collision).
//!
//! Add [`ImpactPlugin`] to an app with Bevy's `TimePlugin` (in `MinimalPlugins` and
//! `DefaultPlugins`); spawn entities with a [`RigidBody`] and a [`Collider`]. The plugin owns
//! the engine world ([`ImpactWorld`]) and steps it in `FixedPostUpdate`, once per fixed
//! timestep of `Time<Fixed>`; it writes the bodies' poses into their `Transform` and delivers
//! what happened as messages ([`ContactBegin`], [`ContactEnd`], [`ContactHit`],
//! [`SensorBegin`], [`SensorEnd`], [`Impact`], [`JointBroke`]) naming entities. Systems query
//! the world with [`SpatialQuery`]; joints are [`PhysicsJoint`] components. With the
//! `debug-render` feature, `ImpactDebugRenderPlugin` draws the world with Bevy's gizmos.
//!
//! Units are meters, kilograms, seconds and radians; y is up. A body's pose is its entity's
//! `Transform`: translation x and y (meters) and the rotation about z (radians).
//!
//! Engine errors never panic in the plugin's systems: they are logged with the `log` crate
//! (Bevy's `LogPlugin` shows them) and kept in the [`PhysicsErrors`] resource.
//!
//! ```
//! use bevy_app::App;
//! use bevy_impact2d::prelude::*;
//! use bevy_time::{Fixed, Time, TimePlugin, TimeUpdateStrategy};
//! use bevy_transform::components::Transform;
//!
//! let mut app = App::new();
//! app.add_plugins((TimePlugin, ImpactPlugin::default()));
//! // Advance time by one fixed step (1/64 s) per update, instead of by the clock.
//! app.insert_resource(TimeUpdateStrategy::ManualDuration(Time::<Fixed>::default().timestep()));
//!
//! // A collider alone is static: a floor 40 m wide whose top is at y = 0.5.
//! app.world_mut().spawn(Collider::cuboid(20.0, 0.5));
//! // A 1 m crate dropped from 4 m.
//! let crate_ = app
//!     .world_mut()
//!     .spawn((RigidBody::Dynamic, Collider::cuboid(0.5, 0.5), Transform::from_xyz(0.0, 4.0, 0.0)))
//!     .id();
//!
//! for _ in 0..200 {
//!     app.update();
//! }
//! let y = app.world().get::<Transform>(crate_).unwrap().translation.y;
//! assert!((y - 1.0).abs() < 0.01, "the crate rests on the floor, its center at y = {y}");
//! ```
//!
//! | file | job |
//! |---|---|
//! | `plugin.rs` | [`ImpactPlugin`], [`ImpactSettings`], [`ImpactSystems`]: resources, schedule, step |
//! | `world.rs` | [`ImpactWorld`]: the engine world, and engine handles back to entities |
//! | `components.rs` | [`RigidBody`], [`Velocity`], [`Damping`], [`GravityScale`], [`Ccd`], [`LockRotation`], handles |
//! | `collider.rs` | [`Collider`] and its kinds, [`ColliderMaterial`], [`CollisionFilter`], [`Sensor`] |
//! | `joints.rs` | [`PhysicsJoint`], [`JointHandle`], making joints |
//! | `spawn.rs` | making bodies and attaching colliders for new entities |
//! | `sync.rs` | user changes to the engine before a step; poses and velocities back after it |
//! | `despawn.rs` | observers destroying engine objects with their entities or components |
//! | `events.rs` | the messages, written from the engine's events after each step |
//! | `spatial_query.rs` | [`SpatialQuery`]: ray casts, shape casts, overlaps, answering entities |
//! | `debug_render.rs` | `ImpactDebugRenderPlugin` (feature `debug-render`): the world drawn with gizmos |
//! | `error.rs` | [`ImpactError`], [`PhysicsErrors`] |
//! | `convert.rs` | Bevy and impact2d math types (two glam versions), `Transform` to pose |

#![warn(missing_docs)]

mod collider;
mod components;
mod convert;
#[cfg(feature = "debug-render")]
mod debug_render;
mod despawn;
mod error;
mod events;
mod joints;
mod plugin;
mod spatial_query;
mod spawn;
mod sync;
mod world;

/// The engine, for its types ([`impact2d::Filter`], [`impact2d::JointKind`] and the joint
/// definitions, [`impact2d::WorldDef`]) and direct calls through [`ImpactWorld`].
pub use impact2d;

pub use collider::{Collider, ColliderMaterial, ColliderShape, CollisionFilter, Sensor};
pub use components::{
    BodyHandle, Ccd, ColliderHandle, Damping, GravityScale, LockRotation, Rejected, RigidBody, Velocity,
};
#[cfg(feature = "debug-render")]
pub use debug_render::{DebugRenderOptions, ImpactDebugRenderPlugin};
pub use error::{ImpactError, KEPT_ERRORS, PhysicsErrorRecord, PhysicsErrors};
pub use events::{ContactBegin, ContactEnd, ContactHit, Impact, JointBroke, SensorBegin, SensorEnd};
pub use joints::{JointHandle, PhysicsJoint};
pub use plugin::{ImpactPlugin, ImpactSettings, ImpactSystems};
pub use spatial_query::{RayHit, SpatialQuery};
pub use world::ImpactWorld;

/// What an app needs in one `use`: the plugin, components, messages and queries.
pub mod prelude {
    pub use crate::{
        Ccd, Collider, ColliderMaterial, CollisionFilter, ContactBegin, ContactEnd, ContactHit, Damping, GravityScale,
        Impact, ImpactPlugin, ImpactSettings, ImpactSystems, ImpactWorld, JointBroke, LockRotation, PhysicsErrors,
        PhysicsJoint, RayHit, RigidBody, Sensor, SensorBegin, SensorEnd, SpatialQuery, Velocity,
    };
    #[cfg(feature = "debug-render")]
    pub use crate::{DebugRenderOptions, ImpactDebugRenderPlugin};
    pub use impact2d::{Filter, WorldDef};
}
