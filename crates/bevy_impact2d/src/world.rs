//! The engine world as a Bevy resource, with the way back from engine handles to entities.

use std::collections::HashMap;

use bevy_ecs::entity::Entity;
use bevy_ecs::resource::Resource;
use impact2d::{BodyId, JointId, ShapeId, World, WorldDef, WorldError};

/// The impact2d [`World`] the plugin steps, and which entity each engine object belongs to.
///
/// Read it for anything the plugin does not wrap ([`ImpactWorld::engine`]: contacts, joint
/// angles, counts, profiles); change the engine through [`ImpactWorld::engine_mut`] with
/// care: bodies, shapes and joints made or destroyed there are not the plugin's (it does not
/// know their entities).
#[derive(Resource, Debug)]
pub struct ImpactWorld {
    world: World,
    /// The entity of every shape the plugin attached. A destroyed shape's entry stays until
    /// the events of the next step are delivered: the engine reports the end of its contacts
    /// then.
    shape_entities: HashMap<ShapeId, Entity>,
    /// Shapes destroyed since the last step, whose entries go once its events are delivered.
    retired_shapes: Vec<ShapeId>,
    /// The entity of every joint the plugin made.
    joint_entities: HashMap<JointId, Entity>,
    /// The step whose poses and events the plugin delivered last.
    pub(crate) delivered_step: u64,
}

impl ImpactWorld {
    /// An empty world of `def`.
    ///
    /// Errors: [`WorldError::InvalidValue`] for a setting outside its range (see
    /// [`WorldDef`]'s fields).
    pub fn new(def: &WorldDef) -> Result<ImpactWorld, WorldError> {
        Ok(ImpactWorld {
            world: World::new(def)?,
            shape_entities: HashMap::new(),
            retired_shapes: Vec::new(),
            joint_entities: HashMap::new(),
            delivered_step: 0,
        })
    }

    /// The engine world.
    pub fn engine(&self) -> &World {
        &self.world
    }

    /// The engine world, to change. Objects made or destroyed here are unknown to the plugin.
    pub fn engine_mut(&mut self) -> &mut World {
        &mut self.world
    }

    /// The entity of a body the plugin made (its user data holds the entity); `None` for a
    /// stale handle or a body made through [`ImpactWorld::engine_mut`].
    pub fn body_entity(&self, body: BodyId) -> Option<Entity> {
        self.world.body_user_data(body).ok().and_then(Entity::try_from_bits)
    }

    /// The entity of a shape the plugin attached, also for a shape destroyed since the last
    /// step (whose contact end events the next step reports).
    pub fn shape_entity(&self, shape: ShapeId) -> Option<Entity> {
        self.shape_entities.get(&shape).copied()
    }

    /// The entity of a joint the plugin made.
    pub fn joint_entity(&self, joint: JointId) -> Option<Entity> {
        self.joint_entities.get(&joint).copied()
    }

    pub(crate) fn add_shapes(&mut self, shapes: &[ShapeId], entity: Entity) {
        for &shape in shapes {
            self.shape_entities.insert(shape, entity);
        }
    }

    /// Marks shapes destroyed: their entities are kept until the next step's events are out.
    pub(crate) fn retire_shapes(&mut self, shapes: impl IntoIterator<Item = ShapeId>) {
        self.retired_shapes.extend(shapes);
    }

    /// Forgets the shapes destroyed before the last step (its events are out).
    pub(crate) fn forget_retired_shapes(&mut self) {
        for shape in self.retired_shapes.drain(..) {
            self.shape_entities.remove(&shape);
        }
    }

    pub(crate) fn add_joint(&mut self, joint: JointId, entity: Entity) {
        self.joint_entities.insert(joint, entity);
    }

    pub(crate) fn forget_joint(&mut self, joint: JointId) {
        self.joint_entities.remove(&joint);
    }
}
