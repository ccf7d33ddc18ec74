//! A validated scene made into an impact2d [`World`]: every body and every shape, in the
//! scene's order, with the handles that connect the two.

use impact2d::{BodyId, JointId, Shape, ShapeId, World, WorldDef, WorldError};
use thiserror::Error;

use crate::one_way::OneWayPlatforms;
use crate::scene::joints::{field_of, joint_path};
use crate::scene::{BodyType, FieldPath, PathStep, ValidScene, ValidationError};

/// A world built from a scene, with the handle of every body and shape the scene lists.
#[derive(Clone, Debug)]
pub struct SceneWorld {
    /// The world, not yet stepped.
    pub world: World,
    /// `bodies[i]`: the handle of the scene's body `i`.
    pub bodies: Vec<BodyId>,
    /// `shapes[i][j]`: the handles of shape `j` of body `i` (one, or one per chain link).
    pub shapes: Vec<Vec<Vec<ShapeId>>>,
    /// `joints[i]`: the handle of the scene's joint `i`.
    pub joints: Vec<JointId>,
}

/// A scene the world refused. [`crate::scene::Scene::validate`] checks every field against
/// the world's ranges first and then builds the world itself, turning this error into a
/// located one ([`BuildError::into_validation`]); so a valid scene never gets it.
#[derive(Clone, Debug, Error, PartialEq)]
#[error("{path}: {source}")]
pub struct BuildError {
    /// The body or shape at fault: `bodies[3]` or `bodies[3].shapes[0]` (`scene`, the empty
    /// path, for the world's settings).
    pub path: FieldPath,
    /// What the world said.
    pub source: WorldError,
}

impl BuildError {
    /// The error at the field it is about, when the world's message names one (a body's
    /// `linear_velocity`; a shape's `density` for its mass or its body's), else at the body
    /// or shape; the message is the world's.
    pub fn into_validation(self) -> ValidationError {
        let field = match &self.source {
            WorldError::InvalidValue { what, .. } => match *what {
                "gravity" => Some("gravity"),
                "max linear speed" => Some("max_linear_speed"),
                "max angular speed" => Some("max_angular_speed"),
                "body position" => Some("position"),
                "body angle" => Some("angle"),
                "body linear velocity" => Some("linear_velocity"),
                "body angular velocity" => Some("angular_velocity"),
                "body linear damping" => Some("linear_damping"),
                "body angular damping" => Some("angular_damping"),
                "body gravity scale" => Some("gravity_scale"),
                "body safety factor" => Some("safety_factor"),
                "shape density" | "shape mass" | "body mass" => Some("density"),
                "shape friction" => Some("friction"),
                "shape restitution" => Some("restitution"),
                "shape tangent speed" => Some("tangent_speed"),
                "shape rolling resistance" => Some("rolling_resistance"),
                _ => None,
            },
            _ => None,
        };
        let path = match field {
            Some(key) => self.path.key(key),
            None => self.path,
        };
        ValidationError { path, message: self.source.to_string() }
    }
}

/// Builds the world of `scene`: its gravity, speed caps and continuous collision setting
/// and, in order, each body with its shapes (a body's user data is its index in the scene),
/// then each joint (its user data its index).
/// Contacts start at the first step.
///
/// Errors: [`BuildError`] naming the body or shape the world refused (`scene` for the world's
/// settings, which validation has checked already).
pub fn build_world(scene: &ValidScene) -> Result<SceneWorld, BuildError> {
    let at = |path: FieldPath| move |source| BuildError { path, source };
    let bodies_path = FieldPath::default().key("bodies");
    let s = scene.scene();
    let def = WorldDef {
        gravity: s.gravity,
        max_linear_speed: s.max_linear_speed,
        max_angular_speed: s.max_angular_speed,
        enable_continuous: s.enable_continuous,
        ..WorldDef::default()
    };
    let mut world = World::new(&def).map_err(at(FieldPath::default()))?;
    let mut bodies = Vec::with_capacity(scene.scene().bodies.len());
    let mut shapes = Vec::with_capacity(bodies.capacity());
    for (i, body) in scene.bodies().enumerate() {
        let body_path = bodies_path.then(PathStep::Index(i));
        let id = world.create_body(&body_def(body.def, i)).map_err(at(body_path.clone()))?;
        let mut ids = Vec::with_capacity(body.def.shapes.len());
        for (j, shape) in body.shapes().enumerate() {
            let def = shape_def(shape.def);
            let made: Result<Vec<ShapeId>, WorldError> =
                shape.parts.iter().map(|part: &Shape| world.create_shape(id, &def, part)).collect();
            ids.push(made.map_err(at(body_path.key("shapes").then(PathStep::Index(j))))?);
        }
        bodies.push(id);
        shapes.push(ids);
    }
    // One-way platforms: the pre-solve hook of `one_way.rs`.
    let mut platforms = Vec::new();
    for (body, ids) in scene.bodies().zip(&shapes) {
        for (shape, parts) in body.def.shapes.iter().zip(ids) {
            if shape.one_way {
                platforms.extend(parts.iter().map(|&part| (part, shape.one_way_normal.normalize())));
            }
        }
    }
    if !platforms.is_empty() {
        world.set_contact_hooks(Some(std::sync::Arc::new(OneWayPlatforms::new(platforms))));
    }
    let mut joints = Vec::with_capacity(s.joints.len());
    for (i, joint) in s.joints.iter().enumerate() {
        let (a, b) = scene.joint_bodies(i);
        let def = impact2d::JointDef {
            collide_connected: joint.collide_connected,
            break_force: joint.break_force,
            break_torque: joint.break_torque,
            user_data: i as u64,
            ..impact2d::JointDef::new(bodies[a], bodies[b], joint.kind())
        };
        let made = world.create_joint(&def).map_err(|source| {
            // At the field the world's message names, when it names one.
            let path = joint_path(i);
            let path = match &source {
                WorldError::InvalidValue { what, .. } => match field_of(what, joint) {
                    Some(key) => path.key(key),
                    None => path,
                },
                _ => path,
            };
            BuildError { path, source }
        })?;
        joints.push(made);
    }
    Ok(SceneWorld { world, bodies, shapes, joints })
}

/// The world's definition of a scene body (its shapes are attached separately).
fn body_def(body: &crate::scene::BodyDef, index: usize) -> impact2d::BodyDef {
    impact2d::BodyDef {
        body_type: match body.body_type {
            BodyType::Static => impact2d::BodyType::Static,
            BodyType::Kinematic => impact2d::BodyType::Kinematic,
            BodyType::Dynamic => impact2d::BodyType::Dynamic,
        },
        position: body.position,
        angle: body.angle,
        // The body's center of mass starts at its origin; attaching shapes moves it, and the
        // world then adds the rotation's share, so this stays the velocity of the origin.
        linear_velocity: body.linear_velocity,
        angular_velocity: body.angular_velocity,
        linear_damping: body.linear_damping,
        angular_damping: body.angular_damping,
        gravity_scale: body.gravity_scale,
        fixed_rotation: body.fixed_rotation,
        bullet: body.bullet,
        continuous: body.continuous,
        safety_factor: body.safety_factor,
        awake: body.awake,
        sleep_allowed: body.enable_sleep,
        user_data: index as u64,
    }
}

/// The world's definition of a scene shape's material and filter.
fn shape_def(shape: &crate::scene::ShapeDef) -> impact2d::ShapeDef {
    impact2d::ShapeDef {
        density: shape.density,
        friction: shape.friction,
        restitution: shape.restitution,
        tangent_speed: shape.tangent_speed,
        rolling_resistance: shape.rolling_resistance,
        filter: shape.filter(),
        sensor: shape.sensor,
        ..impact2d::ShapeDef::default()
    }
}

#[cfg(test)]
mod tests {
    use impact2d::Vec2;

    use super::*;
    use crate::scene::parse_scene;
    use crate::scenes;

    const SCENE: &str = r#"{"name": "t", "gravity": [1, -5],
     "bodies": [
      {"name": "ground", "type": "static", "position": [0, -1],
       "shapes": [{"type": "box", "half_width": 20, "half_height": 0.5, "friction": 0.25},
                  {"type": "chain", "points": [[-5, 5], [-5, 0], [5, 0], [5, 5]], "loop": false}]},
      {"name": "ball", "type": "dynamic", "position": [2, 3], "angle": 0.5, "linear_velocity": [4, 0],
       "angular_velocity": 2, "bullet": true,
       "shapes": [{"type": "circle", "radius": 0.5, "density": 2, "restitution": 0.75, "sensor": false}]},
      {"type": "kinematic", "position": [-3, 1], "angular_velocity": -1, "awake": false,
       "shapes": [{"type": "capsule", "center1": [-1, 0], "center2": [1, 0], "radius": 0.1,
                   "category_bits": 2, "mask_bits": 5}]}]}"#;

    #[test]
    fn bodies_shapes_and_materials_arrive_in_scene_order() {
        let scene = parse_scene(SCENE).unwrap();
        let built = build_world(&scene).unwrap();
        let w = &built.world;
        assert_eq!(w.def().gravity, Vec2::new(1.0, -5.0));
        assert_eq!((built.bodies.len(), w.body_count()), (3, 3));
        // One box and a chain of three links on the ground, a circle, a capsule.
        assert_eq!(
            built.shapes.iter().map(|s| s.iter().map(Vec::len).collect::<Vec<_>>()).collect::<Vec<_>>(),
            [vec![1, 3], vec![1], vec![1]]
        );
        assert_eq!(w.shape_count(), 6);

        let [ground, ball, rotor] = built.bodies[..] else { panic!() };
        assert_eq!(w.body_type(ground).unwrap(), impact2d::BodyType::Static);
        assert_eq!(w.position(ground).unwrap(), Vec2::new(0.0, -1.0));
        assert_eq!((w.position(ball).unwrap(), w.angle(ball).unwrap()), (Vec2::new(2.0, 3.0), 0.5));
        assert_eq!((w.linear_velocity(ball).unwrap(), w.angular_velocity(ball).unwrap()), (Vec2::new(4.0, 0.0), 2.0));
        assert_eq!(w.continuous_flags(ball).unwrap(), (true, true));
        assert_eq!(w.body_user_data(rotor).unwrap(), 2);
        assert_eq!(w.body_type(rotor).unwrap(), impact2d::BodyType::Kinematic);

        // A 0.5 m disc of density 2: mass 2 π r² = π/2 kg.
        assert!((w.mass(ball).unwrap() - std::f32::consts::FRAC_PI_2).abs() < 1e-5);
        let ball_shape = built.shapes[1][0][0];
        assert_eq!((w.shape_friction(ball_shape).unwrap(), w.shape_restitution(ball_shape).unwrap()), (0.6, 0.75));
        assert!(matches!(w.shape_geometry(ball_shape).unwrap(), Shape::Circle(c) if c.radius() == 0.5));
        assert_eq!(w.shape_friction(built.shapes[0][0][0]).unwrap(), 0.25);
        let capsule = built.shapes[2][0][0];
        assert_eq!(w.shape_filter(capsule).unwrap(), impact2d::Filter::new(2, 5));
        assert!(matches!(w.shape_geometry(capsule).unwrap(), Shape::Capsule(_)));
        for (k, link) in built.shapes[0][1].iter().enumerate() {
            let Shape::ChainSegment(c) = w.shape_geometry(*link).unwrap() else { panic!("link {k}") };
            assert_eq!(c.segment().point1(), [Vec2::new(-5.0, 5.0), Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0)][k]);
        }
    }

    #[test]
    fn every_built_in_scene_builds_whole() {
        for built_in in scenes::ALL {
            let scene = built_in.scene().validate().unwrap();
            let built = build_world(&scene).unwrap();
            let parts: usize = scene.bodies().flat_map(|b| b.shapes().map(|s| s.parts.len())).sum();
            assert_eq!(built.world.body_count(), scene.scene().bodies.len(), "{}", built_in.name);
            assert_eq!(built.world.shape_count(), parts, "{}", built_in.name);
        }
    }

    #[test]
    fn a_mass_the_world_refuses_names_the_shape_s_density() {
        // A 2e5 m disc of density 1e9 kg/m² (the largest density): 1.3e20 kg, beyond the
        // body mass limit (1e18 kg). Only the world knows: validation builds it.
        let text = SCENE.replace(r#""radius": 0.5, "density": 2"#, r#""radius": 2e5, "density": 1e9"#);
        let error = parse_scene(&text).unwrap_err();
        assert_eq!(error.path, "bodies[1].shapes[0].density");
        assert!(error.message.starts_with("body mass must be at most MAX_BODY_MASS (1e18 kg)"), "{error}");
        let valid = parse_scene(SCENE).unwrap();
        let mut scene = valid.scene().clone();
        scene.bodies[1].shapes[0].density = 1e9;
        scene.bodies[1].shapes[0].geometry = crate::scene::Geometry::circle(2e5);
        let error = scene.validate().unwrap_err();
        assert_eq!(error.to_string().split(':').next(), Some("bodies[1].shapes[0].density"));
    }
}
