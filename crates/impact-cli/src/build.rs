//! A validated scene made into an impact2d [`World`]: every body and every shape, in the
//! scene's order, with the handles that connect the two.

use impact2d::{BodyId, Shape, ShapeId, World, WorldDef, WorldError};
use thiserror::Error;

use crate::scene::{BodyType, ValidScene};

/// A world built from a scene, with the handle of every body and shape the scene lists.
#[derive(Clone, Debug)]
pub struct SceneWorld {
    /// The world, not yet stepped.
    pub world: World,
    /// `bodies[i]`: the handle of the scene's body `i`.
    pub bodies: Vec<BodyId>,
    /// `shapes[i][j]`: the handles of shape `j` of body `i` (one, or one per chain link).
    pub shapes: Vec<Vec<Vec<ShapeId>>>,
}

/// A scene the world refused. Validation ([`crate::scene::Scene::validate`]) catches what it
/// can name in the file, so this happens only for limits only the world knows (a density so
/// high the mass overflows f32, a world full of handles).
#[derive(Clone, Debug, Error, PartialEq)]
#[error("{path}: {source}")]
pub struct BuildError {
    /// The body or shape at fault: `bodies[3]` or `bodies[3].shapes[0]` (`scene` for the
    /// world's settings).
    pub path: String,
    /// What the world said.
    pub source: WorldError,
}

/// Builds the world of `scene`: its gravity, speed caps and continuous collision setting
/// and, in order, each body with its shapes (a body's user data is its index in the scene).
/// Contacts start at the first step.
///
/// Errors: [`BuildError`] naming the body or shape the world refused (`scene` for the world's
/// settings, which validation has checked already).
pub fn build_world(scene: &ValidScene) -> Result<SceneWorld, BuildError> {
    let at = |path: String| move |source| BuildError { path, source };
    let s = scene.scene();
    let def = WorldDef {
        gravity: s.gravity,
        max_linear_speed: s.max_linear_speed,
        max_angular_speed: s.max_angular_speed,
        enable_continuous: s.enable_continuous,
        ..WorldDef::default()
    };
    let mut world = World::new(&def).map_err(at("scene".into()))?;
    let mut bodies = Vec::with_capacity(scene.scene().bodies.len());
    let mut shapes = Vec::with_capacity(bodies.capacity());
    for (i, body) in scene.bodies().enumerate() {
        let id = world.create_body(&body_def(body.def, i)).map_err(at(format!("bodies[{i}]")))?;
        let mut ids = Vec::with_capacity(body.def.shapes.len());
        for (j, shape) in body.shapes().enumerate() {
            let def = shape_def(shape.def);
            let made: Result<Vec<ShapeId>, WorldError> =
                shape.parts.iter().map(|part: &Shape| world.create_shape(id, &def, part)).collect();
            ids.push(made.map_err(at(format!("bodies[{i}].shapes[{j}]")))?);
        }
        bodies.push(id);
        shapes.push(ids);
    }
    Ok(SceneWorld { world, bodies, shapes })
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
        assert_eq!(w.shape_filter(capsule).unwrap(), impact2d::Filter { category_bits: 2, mask_bits: 5 });
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
    fn a_mass_the_world_refuses_names_the_shape() {
        // A 2 m disc of density 3e38 kg/m²: 3.8e39 kg, beyond f32.
        let text = SCENE.replace(r#""radius": 0.5, "density": 2"#, r#""radius": 2, "density": 3e38"#);
        let error = build_world(&parse_scene(&text).unwrap()).unwrap_err();
        assert_eq!(error.path, "bodies[1].shapes[0]");
        assert!(error.to_string().starts_with("bodies[1].shapes[0]: shape mass must be finite"), "{error}");
    }
}
