//! Scenes as neutral data (bodies: shapes, pose, velocity, material, flags; revolute joints),
//! and one builder per engine, so that both engines simulate the same scene by construction.

use impact2d::{BodyDef, BodyId, BodyType, ShapeDef, World, WorldDef};
use rapier2d::prelude::{
    CoefficientCombineRule, ColliderBuilder, PhysicsWorld, Pose, RevoluteJointBuilder, RigidBodyBuilder,
    RigidBodyHandle, Vector,
};

/// A shape in its body's frame (meters).
#[derive(Clone, Copy, Debug)]
pub enum ShapeDesc {
    /// A circle of this radius about the body origin.
    Circle(f32),
    /// A box of half sizes (hx, hy) centered at `center`, turned by `angle` (radians).
    Box { hx: f32, hy: f32, center: [f32; 2], angle: f32 },
    /// A capsule along x: segment half length and radius.
    Capsule { half: f32, radius: f32 },
    /// A capsule along y, from (0, -half) to (0, half): segment half length and radius.
    CapsuleY { half: f32, radius: f32 },
    /// A segment between two points.
    Segment([f32; 2], [f32; 2]),
}

impl ShapeDesc {
    /// A box centered on the body origin.
    pub fn rect(hx: f32, hy: f32) -> ShapeDesc {
        ShapeDesc::Box { hx, hy, center: [0.0, 0.0], angle: 0.0 }
    }
}

/// How a body moves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Motion {
    /// Never moves.
    Static,
    /// Moves at its set velocity, pushed by nothing.
    Kinematic,
    /// Moved by gravity and contacts.
    Dynamic,
}

/// One body: its shapes (density 1 kg/m² unless said, friction, restitution), pose, velocity
/// and flags.
#[derive(Clone, Debug)]
pub struct BodyDesc {
    /// Static, kinematic or dynamic.
    pub motion: Motion,
    /// Its shapes, in its frame.
    pub shapes: Vec<ShapeDesc>,
    /// Origin (m) and angle (rad) of its frame.
    pub position: [f32; 2],
    pub angle: f32,
    /// Linear (m/s) and angular (rad/s) velocity at the start.
    pub velocity: [f32; 2],
    pub spin: f32,
    /// Material of every shape: density (kg/m²), friction, restitution.
    pub density: f32,
    pub friction: f32,
    pub restitution: f32,
    /// impact only: `bullet` (a fast body also swept against moving bodies; every fast
    /// dynamic body is swept against static ones by default).
    pub bullet: bool,
    /// rapier only: `ccd_enabled` (the same as impact's bullet: fast dynamic bodies sweep
    /// fixed colliders by default, these also sweep moving bodies, but never other bullets).
    pub rapier_ccd: bool,
    /// May fall asleep; starts awake.
    pub sleep_allowed: bool,
    pub awake: bool,
}

impl BodyDesc {
    /// A body with default material (density 1, friction 0.6, restitution 0), at rest.
    pub fn new(motion: Motion, position: [f32; 2], shape: ShapeDesc) -> BodyDesc {
        BodyDesc {
            motion,
            shapes: vec![shape],
            position,
            angle: 0.0,
            velocity: [0.0, 0.0],
            spin: 0.0,
            density: 1.0,
            friction: 0.6,
            restitution: 0.0,
            bullet: false,
            rapier_ccd: false,
            sleep_allowed: true,
            awake: true,
        }
    }
}

/// A revolute joint (a pin) between two bodies whose shapes do not collide with each other.
#[derive(Clone, Copy, Debug)]
pub struct JointDesc {
    /// Bodies A and B: their indices in [`SceneDesc::bodies`].
    pub a: usize,
    pub b: usize,
    /// The pivot in world coordinates as the bodies are placed (meters).
    pub anchor: [f32; 2],
    /// The limits of B's angle relative to A (radians, zero as placed), when limited.
    pub limits: Option<[f32; 2]>,
}

/// A whole scene: gravity (m/s²), the speed cap (m/s), the bodies and the joints.
#[derive(Clone, Debug)]
pub struct SceneDesc {
    /// Gravity (m/s²).
    pub gravity: [f32; 2],
    /// The largest linear speed either engine allows (m/s).
    pub max_speed: f32,
    /// The bodies, in creation order.
    pub bodies: Vec<BodyDesc>,
    /// The joints, created after every body, in this order.
    pub joints: Vec<JointDesc>,
}

fn iv(p: [f32; 2]) -> impact2d::Vec2 {
    impact2d::Vec2::new(p[0], p[1])
}

fn rv(p: [f32; 2]) -> Vector {
    Vector::new(p[0], p[1])
}

/// The scene in impact (defaults of `WorldDef` otherwise: continuous collision on; joints'
/// defaults: no collision between the two bodies).
pub fn build_impact(scene: &SceneDesc) -> Result<(World, Vec<BodyId>), impact2d::WorldError> {
    use impact2d::{Capsule, Circle, JointDef, JointKind, RevoluteDef, Segment, Shape, make_offset_box};
    let def = WorldDef { gravity: iv(scene.gravity), max_linear_speed: scene.max_speed, ..WorldDef::default() };
    let mut world = World::new(&def)?;
    let mut ids = Vec::with_capacity(scene.bodies.len());
    for b in &scene.bodies {
        let body_type = match b.motion {
            Motion::Static => BodyType::Static,
            Motion::Kinematic => BodyType::Kinematic,
            Motion::Dynamic => BodyType::Dynamic,
        };
        let id = world.create_body(&BodyDef {
            body_type,
            position: iv(b.position),
            angle: b.angle,
            linear_velocity: iv(b.velocity),
            angular_velocity: b.spin,
            bullet: b.bullet,
            sleep_allowed: b.sleep_allowed,
            awake: b.awake,
            ..BodyDef::default()
        })?;
        let material =
            ShapeDef { density: b.density, friction: b.friction, restitution: b.restitution, ..ShapeDef::default() };
        for s in &b.shapes {
            let shape = match *s {
                ShapeDesc::Circle(r) => Shape::Circle(Circle::new(impact2d::Vec2::ZERO, r)?),
                ShapeDesc::Box { hx, hy, center, angle } => Shape::Polygon(make_offset_box(hx, hy, iv(center), angle)?),
                ShapeDesc::Capsule { half, radius } => Shape::Capsule(Capsule::new(
                    impact2d::Vec2::new(-half, 0.0),
                    impact2d::Vec2::new(half, 0.0),
                    radius,
                )?),
                ShapeDesc::CapsuleY { half, radius } => Shape::Capsule(Capsule::new(
                    impact2d::Vec2::new(0.0, -half),
                    impact2d::Vec2::new(0.0, half),
                    radius,
                )?),
                ShapeDesc::Segment(a, c) => Shape::Segment(Segment::new(iv(a), iv(c))?),
            };
            world.create_shape(id, &material, &shape)?;
        }
        ids.push(id);
    }
    for j in &scene.joints {
        let [lower, upper] = j.limits.unwrap_or([0.0, 0.0]);
        let pin = RevoluteDef { enable_limit: j.limits.is_some(), lower, upper, ..RevoluteDef::new(iv(j.anchor)) };
        world.create_joint(&JointDef::new(ids[j.a], ids[j.b], JointKind::Revolute(pin)))?;
    }
    Ok((world, ids))
}

/// The scene in rapier2d: 60 Hz and 4 solver iterations (its soft sub-steps: the defaults),
/// friction mixed by geometric mean and restitution by maximum as impact mixes them, the speed
/// cap raised to the scene's. Every dynamic body may spin fast (`allow_fast_rotation`: rapier
/// otherwise caps angular speed at about 45° per step, which would change the scene). Joints
/// are impulse joints (rapier's default joint solver settings), contacts between their bodies
/// off; a limit is the revolute joint's limits on B's angle relative to A, as in impact.
pub fn build_rapier(scene: &SceneDesc) -> (PhysicsWorld, Vec<RigidBodyHandle>) {
    let mut world = PhysicsWorld::new();
    world.gravity = rv(scene.gravity);
    world.integration_parameters.dt = 1.0 / 60.0;
    world.integration_parameters.num_solver_iterations = 4;
    world.integration_parameters.normalized_max_linear_velocity = scene.max_speed;
    let mut handles = Vec::with_capacity(scene.bodies.len());
    for b in &scene.bodies {
        let builder = match b.motion {
            Motion::Static => RigidBodyBuilder::fixed(),
            Motion::Kinematic => RigidBodyBuilder::kinematic_velocity_based(),
            Motion::Dynamic => RigidBodyBuilder::dynamic()
                .ccd_enabled(b.rapier_ccd)
                .allow_fast_rotation(true)
                .can_sleep(b.sleep_allowed)
                .sleeping(!b.awake),
        };
        let body = builder.translation(rv(b.position)).rotation(b.angle).linvel(rv(b.velocity)).angvel(b.spin);
        let handle = world.insert_body(body);
        for s in &b.shapes {
            let collider = match *s {
                ShapeDesc::Circle(r) => ColliderBuilder::ball(r),
                ShapeDesc::Box { hx, hy, center, angle } => {
                    ColliderBuilder::cuboid(hx, hy).position(Pose::new(rv(center), angle))
                }
                ShapeDesc::Capsule { half, radius } => ColliderBuilder::capsule_x(half, radius),
                ShapeDesc::CapsuleY { half, radius } => ColliderBuilder::capsule_y(half, radius),
                ShapeDesc::Segment(a, c) => ColliderBuilder::segment(rv(a), rv(c)),
            }
            .density(b.density)
            .friction(b.friction)
            .restitution(b.restitution)
            .friction_combine_rule(CoefficientCombineRule::GeometricMean)
            .restitution_combine_rule(CoefficientCombineRule::Max);
            world.insert_collider(collider, Some(handle));
        }
        handles.push(handle);
    }
    for j in &scene.joints {
        // The pivot in each body's frame as placed.
        let local = |b: &BodyDesc| {
            let d = [j.anchor[0] - b.position[0], j.anchor[1] - b.position[1]];
            let (s, c) = b.angle.sin_cos();
            Vector::new(c * d[0] + s * d[1], c * d[1] - s * d[0])
        };
        let mut pin = RevoluteJointBuilder::new()
            .local_anchor1(local(&scene.bodies[j.a]))
            .local_anchor2(local(&scene.bodies[j.b]))
            .contacts_enabled(false);
        if let Some(limits) = j.limits {
            pin = pin.limits(limits);
        }
        world.insert_impulse_joint(handles[j.a], handles[j.b], pin);
    }
    (world, handles)
}
