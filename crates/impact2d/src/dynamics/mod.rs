//! Dynamics: the [`World`] that steps rigid bodies and resolves their contacts.
//!
//! A step runs through the pipeline: the broad phase's pairs become contacts
//! (`contact.rs`), the narrow phase brings their manifolds up to date, the solver
//! (`solver.rs`, `contact_solver.rs`, `joint_solver/`) moves the awake bodies in sub-steps with
//! soft joint and contact constraints, speculative contacts and restitution, continuous
//! collision sweeps the fast bodies (`continuous.rs`, then `joint_ccd.rs` for their jointed
//! neighbors), islands that came to rest fall asleep
//! (`island.rs`), and the step's events are ready to read (`events.rs`). World queries are in
//! `queries.rs`; [`World::draw`] draws the world through any renderer (`draw.rs`).
//!
//! | file | job |
//! |---|---|
//! | `world.rs` | [`World`], [`WorldDef`], creating and destroying bodies and shapes, body and shape access, the step |
//! | `bit_set.rs` | a bit set of contact indices (the contacts with an awake body), visited in order |
//! | `handles.rs` | generational [`BodyId`], [`ShapeId`] and [`JointId`]; the slot tables behind them |
//! | `body.rs` | [`BodyType`], [`BodyDef`], the world's body record |
//! | `body_controls.rs` | body controls at run time: type, enabled, sleep, flags, damping, mass data, target pose ([`BodyMassData`]) |
//! | `collider.rs` | [`ShapeDef`], the world's shape record (geometry, material, filter, proxy, AABB) |
//! | `contact.rs` | contacts: made and destroyed with broad-phase pairs, the narrow-phase update, touch changes |
//! | `solver.rs` | the step's solver stages and body integration |
//! | `continuous.rs` | continuous collision: fast bodies swept, impacts in time order, no time lost ([`ContinuousMode`], [`ContinuousStats`]) |
//! | `draw.rs` | debug drawing: [`DebugDraw`], [`World::draw`], [`DrawOptions`], [`Color`] and [`DrawState`] |
//! | `sensor_sweep.rs` | sensor begin and end events for the fast bodies that cross a sensor within a step |
//! | `contact_solver.rs` | contact constraints in colored bundles of four: prepare, warm start, solve, relax, restitution, store |
//! | `island.rs` | persistent islands, sleeping and waking |
//! | `joint.rs` | [`JointDef`], the joint kinds' defs ([`RevoluteDef`], ...), [`JointEvent`], the joint record |
//! | `joint_world.rs` | creating, destroying, reading and setting joints; jointed bodies' collision filter |
//! | `joint_solver/` | joints in the soft step: prepare, warm start, solve, relax, store and break; one file per kind |
//! | `joint_ccd.rs` | after continuous collision: jointed neighbors of the bodies it moved pulled back to them |
//! | `hooks.rs` | [`ContactHooks`]: the custom pair filter and pre-solve, called by the step |
//! | `events.rs` | event types and buffers, body move events |
//! | `queries.rs` | ray casts, shape casts, AABB and point overlap |
//! | `mover.rs` | [`CharacterMover`]: a capsule moved by casts (slide, slopes, steps, snap, platforms, pushes) |
//! | `snapshot.rs` | (feature `serde`) world snapshots: `World::save_snapshot`, `World::load_snapshot`, `World::adopt` |
//! | `error.rs` | [`WorldError`] |
//!
//! Units: meters, kilograms, seconds, radians.
//!
//! ```
//! use impact2d::{BodyDef, Shape, ShapeDef, Vec2, World, WorldDef, make_box};
//!
//! let mut world = World::new(&WorldDef::default()).unwrap();
//! let ground = world.create_body(&BodyDef::fixed(Vec2::new(0.0, -1.0))).unwrap();
//! world.create_shape(ground, &ShapeDef::default(), &Shape::Polygon(make_box(20.0, 1.0).unwrap())).unwrap();
//! let crate_ = world.create_body(&BodyDef::dynamic(Vec2::new(0.0, 4.0))).unwrap();
//! world.create_shape(crate_, &ShapeDef::default(), &Shape::Polygon(make_box(0.5, 0.5).unwrap())).unwrap();
//! for _ in 0..120 {
//!     world.step(1.0 / 60.0, 4).unwrap();
//! }
//! let y = world.position(crate_).unwrap().y;
//! assert!((y - 0.5).abs() < 0.01, "the crate rests on the ground: {y}");
//! ```

mod bit_set;
mod body;
mod body_controls;
mod collider;
mod contact;
mod contact_solver;
mod continuous;
mod draw;
mod error;
mod events;
mod graph;
mod handles;
mod hooks;
mod island;
mod joint;
mod joint_ccd;
mod joint_solver;
mod joint_world;
mod mover;
mod moving_set;
mod queries;
mod sensor_sweep;
#[cfg(feature = "serde")]
mod snapshot;
mod solver;
mod world;

pub use body::{BodyDef, BodyType};
pub use body_controls::BodyMassData;
pub use collider::ShapeDef;
pub use contact::MixingRule;
pub use continuous::{ContinuousMode, ContinuousStats, ImpactEvent};
pub use draw::{
    Color, ContactDraw, DRAW_IMPACT_SIZE, DRAW_POINT_SIZE, DebugDraw, DrawOptions, DrawState, JointDraw, ShapeDraw,
};
pub use error::WorldError;
pub use events::{
    BodyMoveEvent, ContactBeginEvent, ContactEndEvent, ContactHitEvent, SensorBeginEvent, SensorEndEvent,
};
pub use handles::{BodyId, JointId, ShapeId};
pub use hooks::ContactHooks;
pub use joint::{DistanceDef, JointDef, JointEvent, JointKind, MotorDef, PrismaticDef, RevoluteDef, WeldDef, WheelDef};
pub use mover::{CharacterMover, MoveOutput, MoverDef, MoverHit};
pub use queries::CastHit;
#[cfg(feature = "serde")]
pub use snapshot::{Handle, SNAPSHOT_VERSION, SnapshotError};
pub use world::{ContactData, StepProfile, World, WorldDef};
