//! Debug drawing: `World::draw` through a `DebugDraw` that records every call, on a small
//! scene with a body of each state, a sensor, a chain, a joint, a touching contact and the
//! impact of a fast ball into a thin wall.

use impact2d::{Aabb, make_offset_box};
use impact2d::{
    BodyDef, BodyId, Capsule, Circle, Color, DRAW_IMPACT_SIZE, DRAW_POINT_SIZE, DebugDraw, DrawOptions, DrawState,
    JointDef, JointKind, RevoluteDef, Shape, ShapeDef, ShapeDraw, ShapeId, Transform, Vec2, World, WorldDef, make_box,
};

/// One call of a primitive.
#[derive(Clone, Debug, PartialEq)]
enum Call {
    Polygon(Vec<Vec2>, Color),
    SolidPolygon(Vec<Vec2>, f32, Color),
    Circle(Vec2, f32, Color),
    SolidCircle(Transform, f32, Color),
    SolidCapsule(Vec2, Vec2, f32, Color),
    Segment(Vec2, Vec2, Color),
    Point(Vec2, f32, Color),
    Transform(Transform),
}

impl Call {
    fn color(&self) -> Option<Color> {
        match self {
            Call::Polygon(_, c)
            | Call::SolidPolygon(_, _, c)
            | Call::Circle(_, _, c)
            | Call::SolidCircle(_, _, c)
            | Call::SolidCapsule(_, _, _, c)
            | Call::Segment(_, _, c)
            | Call::Point(_, _, c) => Some(*c),
            Call::Transform(_) => None,
        }
    }
}

/// Records the primitives; the element methods keep their default implementations.
#[derive(Default)]
struct Primitives(Vec<Call>);

impl DebugDraw for Primitives {
    fn draw_polygon(&mut self, vertices: &[Vec2], color: Color) {
        self.0.push(Call::Polygon(vertices.to_vec(), color));
    }
    fn draw_solid_polygon(&mut self, vertices: &[Vec2], radius: f32, color: Color) {
        self.0.push(Call::SolidPolygon(vertices.to_vec(), radius, color));
    }
    fn draw_circle(&mut self, center: Vec2, radius: f32, color: Color) {
        self.0.push(Call::Circle(center, radius, color));
    }
    fn draw_solid_circle(&mut self, transform: Transform, radius: f32, color: Color) {
        self.0.push(Call::SolidCircle(transform, radius, color));
    }
    fn draw_solid_capsule(&mut self, p1: Vec2, p2: Vec2, radius: f32, color: Color) {
        self.0.push(Call::SolidCapsule(p1, p2, radius, color));
    }
    fn draw_segment(&mut self, p1: Vec2, p2: Vec2, color: Color) {
        self.0.push(Call::Segment(p1, p2, color));
    }
    fn draw_point(&mut self, point: Vec2, size: f32, color: Color) {
        self.0.push(Call::Point(point, size, color));
    }
    fn draw_transform(&mut self, transform: Transform) {
        self.0.push(Call::Transform(transform));
    }
}

/// Records the shapes it is handed (and the primitives of everything else).
#[derive(Default)]
struct Shapes {
    shapes: Vec<(BodyId, ShapeId, DrawState, bool, Color)>,
    rest: Primitives,
}

impl DebugDraw for Shapes {
    fn draw_polygon(&mut self, vertices: &[Vec2], color: Color) {
        self.rest.draw_polygon(vertices, color);
    }
    fn draw_solid_polygon(&mut self, vertices: &[Vec2], radius: f32, color: Color) {
        self.rest.draw_solid_polygon(vertices, radius, color);
    }
    fn draw_circle(&mut self, center: Vec2, radius: f32, color: Color) {
        self.rest.draw_circle(center, radius, color);
    }
    fn draw_solid_circle(&mut self, transform: Transform, radius: f32, color: Color) {
        self.rest.draw_solid_circle(transform, radius, color);
    }
    fn draw_solid_capsule(&mut self, p1: Vec2, p2: Vec2, radius: f32, color: Color) {
        self.rest.draw_solid_capsule(p1, p2, radius, color);
    }
    fn draw_segment(&mut self, p1: Vec2, p2: Vec2, color: Color) {
        self.rest.draw_segment(p1, p2, color);
    }
    fn draw_point(&mut self, point: Vec2, size: f32, color: Color) {
        self.rest.draw_point(point, size, color);
    }
    fn draw_transform(&mut self, transform: Transform) {
        self.rest.draw_transform(transform);
    }
    fn draw_shape(&mut self, shape: &ShapeDraw<'_>) {
        self.shapes.push((shape.body, shape.shape, shape.state, shape.sensor, shape.color));
    }
}

/// The bodies of the scene.
struct Scene {
    world: World,
    ground: BodyId,
    sensor: BodyId,
    chain: BodyId,
    crate_: BodyId,
    kinematic: BodyId,
    sleeper: BodyId,
    disabled: BodyId,
    bullet: BodyId,
    pendulum: BodyId,
    wall: BodyId,
    ball: BodyId,
}

fn near(a: Vec2, b: Vec2, tolerance: f32) -> bool {
    (a - b).length() <= tolerance
}

/// A ground with a crate resting on it, a kinematic wheel, a sleeping ball, a disabled
/// capsule, a bullet high up, a pendulum on a pivot at (-3, 6), a sensor, a chain, and a ball
/// at 300 m/s that hits a wall 1 cm thick in the last step.
fn scene() -> Scene {
    let mut world = World::new(&WorldDef::default()).unwrap();
    let solid = ShapeDef::default();
    let boxed = |hx, hy| Shape::Polygon(make_box(hx, hy).unwrap());
    let circle = |r| Shape::Circle(Circle::new(Vec2::ZERO, r).unwrap());

    let ground = world.create_body(&BodyDef::fixed(Vec2::ZERO)).unwrap();
    world.create_shape(ground, &solid, &boxed(10.0, 0.5)).unwrap();
    let sensor = world.create_body(&BodyDef::fixed(Vec2::new(0.0, 12.0))).unwrap();
    world.create_shape(sensor, &ShapeDef { sensor: true, ..ShapeDef::default() }, &circle(1.0)).unwrap();
    let chain = world.create_body(&BodyDef::fixed(Vec2::new(-15.0, 0.0))).unwrap();
    let points = [Vec2::new(-2.0, 2.0), Vec2::new(-2.0, 0.0), Vec2::new(2.0, 0.0)];
    world.create_chain(chain, &solid, &points, false).unwrap();
    let crate_ = world.create_body(&BodyDef::dynamic(Vec2::new(0.0, 1.0))).unwrap();
    world.create_shape(crate_, &solid, &boxed(0.5, 0.5)).unwrap();
    let kinematic =
        world.create_body(&BodyDef { angular_velocity: 1.0, ..BodyDef::kinematic(Vec2::new(5.0, 5.0)) }).unwrap();
    world.create_shape(kinematic, &solid, &circle(0.5)).unwrap();
    let sleeper = world.create_body(&BodyDef::dynamic(Vec2::new(-6.0, 5.0))).unwrap();
    world.create_shape(sleeper, &solid, &circle(0.25)).unwrap();
    let disabled = world.create_body(&BodyDef::dynamic(Vec2::new(-8.0, 8.0))).unwrap();
    let capsule = Capsule::new(Vec2::new(-0.5, 0.0), Vec2::new(0.5, 0.0), 0.2).unwrap();
    world.create_shape(disabled, &solid, &Shape::Capsule(capsule)).unwrap();
    let bullet = world.create_body(&BodyDef { bullet: true, ..BodyDef::dynamic(Vec2::new(8.0, 30.0)) }).unwrap();
    world.create_shape(bullet, &solid, &boxed(0.1, 0.1)).unwrap();
    let pendulum = world.create_body(&BodyDef::dynamic(Vec2::new(-3.0, 5.0))).unwrap();
    world.create_shape(pendulum, &solid, &circle(0.2)).unwrap();
    let pivot = Vec2::new(-3.0, 6.0);
    world.create_joint(&JointDef::new(ground, pendulum, JointKind::Revolute(RevoluteDef::new(pivot)))).unwrap();
    let wall = world.create_body(&BodyDef::fixed(Vec2::new(20.0, 3.0))).unwrap();
    world.create_shape(wall, &solid, &boxed(0.005, 2.0)).unwrap();

    for _ in 0..10 {
        world.step(1.0 / 60.0, 4).unwrap();
    }
    let ball = world.create_body(&BodyDef::dynamic(Vec2::new(17.0, 3.0))).unwrap();
    world.create_shape(ball, &solid, &circle(0.1)).unwrap();
    world.set_linear_velocity(ball, Vec2::new(300.0, 0.0)).unwrap();
    world.set_awake(sleeper, false).unwrap();
    world.set_body_enabled(disabled, false).unwrap();
    world.step(1.0 / 60.0, 4).unwrap();
    world.set_awake(sleeper, false).unwrap();
    Scene { world, ground, sensor, chain, crate_, kinematic, sleeper, disabled, bullet, pendulum, wall, ball }
}

#[test]
fn each_state_has_its_color_and_shapes_are_in_world_coordinates() {
    let s = scene();
    let w = &s.world;
    let expected = [
        (s.ground, DrawState::Static),
        (s.sensor, DrawState::Static),
        (s.chain, DrawState::Static),
        (s.crate_, DrawState::Awake),
        (s.kinematic, DrawState::Kinematic),
        (s.sleeper, DrawState::Asleep),
        (s.disabled, DrawState::Disabled),
        (s.bullet, DrawState::Bullet),
        (s.pendulum, DrawState::Awake),
        (s.wall, DrawState::Static),
        (s.ball, DrawState::Fast),
    ];
    for (body, state) in expected {
        assert_eq!(w.draw_state(body).unwrap(), state, "body {body}");
    }

    let mut draw = Primitives::default();
    w.draw(&mut draw, &DrawOptions { contacts: false, joints: false, impacts: false, ..DrawOptions::default() });
    let calls = &draw.0;
    // Static bodies first: the ground, the sensor, the chain's two links, the wall.
    assert!(matches!(&calls[0], Call::SolidPolygon(v, r, c) if v.len() == 4 && *r == 0.0 && *c == Color::STATIC));
    assert!(matches!(&calls[1], Call::SolidCircle(xf, r, c)
        if near(xf.p, Vec2::new(0.0, 12.0), 1e-6) && *r == 1.0 && *c == Color::SENSOR));
    assert_eq!(Color::SENSOR.a, 0x59, "sensors are translucent");
    assert_eq!(calls[2], Call::Segment(Vec2::new(-17.0, 2.0), Vec2::new(-17.0, 0.0), Color::STATIC));
    assert_eq!(calls[3], Call::Segment(Vec2::new(-17.0, 0.0), Vec2::new(-13.0, 0.0), Color::STATIC));
    assert!(matches!(&calls[4], Call::SolidPolygon(v, _, c) if v[0].x > 19.99 && *c == Color::STATIC));
    // Then the others in handle order, at their poses.
    let crate_xf = w.transform(s.crate_).unwrap();
    let Call::SolidPolygon(vertices, _, color) = &calls[5] else { panic!("{:?}", calls[5]) };
    assert_eq!(*color, Color::AWAKE);
    let corners = [Vec2::new(-0.5, -0.5), Vec2::new(0.5, -0.5), Vec2::new(0.5, 0.5), Vec2::new(-0.5, 0.5)];
    for (v, corner) in vertices.iter().zip(corners) {
        assert!(near(*v, crate_xf.apply(corner), 1e-6), "{v} vs {corner}");
    }
    assert!(near(crate_xf.p, Vec2::new(0.0, 1.0), 0.02), "the crate rests on the ground: {}", crate_xf.p);
    let Call::SolidCircle(xf, r, c) = calls[6] else { panic!("{:?}", calls[6]) };
    assert_eq!((r, c), (0.5, Color::KINEMATIC));
    // The circle's transform turns with the body: its axis shows the rotation.
    assert!((xf.q.angle() - w.angle(s.kinematic).unwrap()).abs() < 1e-6 && w.angle(s.kinematic).unwrap() > 0.1);
    assert!(matches!(calls[7], Call::SolidCircle(_, r, c) if r == 0.25 && c == Color::ASLEEP));
    let Call::SolidCapsule(p1, p2, r, c) = calls[8] else { panic!("{:?}", calls[8]) };
    assert_eq!((r, c), (0.2, Color::DISABLED));
    // It fell for ten steps before it was disabled; it is drawn where it stopped.
    let xf = w.transform(s.disabled).unwrap();
    assert!(xf.p.y < 8.0 && xf.p.y > 7.5, "{}", xf.p);
    assert!(near(p1, xf.apply(Vec2::new(-0.5, 0.0)), 1e-5) && near(p2, xf.apply(Vec2::new(0.5, 0.0)), 1e-5));
    assert!(matches!(&calls[9], Call::SolidPolygon(_, _, c) if *c == Color::BULLET));
    assert!(matches!(calls[10], Call::SolidCircle(_, r, c) if r == 0.2 && c == Color::AWAKE));
    let Call::SolidCircle(xf, r, c) = calls[11] else { panic!("{:?}", calls[11]) };
    assert_eq!((r, c), (0.1, Color::FAST));
    // The ball was stopped at the wall's face (x = 19.995), not let through.
    assert!(xf.p.x < 19.995 && xf.p.x > 19.5, "ball at {}", xf.p);
    assert_eq!(calls.len(), 12);
}

#[test]
fn contacts_joints_and_impacts_are_drawn_with_their_normals() {
    let s = scene();
    let mut draw = Primitives::default();
    let options = DrawOptions { shapes: false, ..DrawOptions::default() };
    s.world.draw(&mut draw, &options);
    let calls = &draw.0;

    // The joint: a segment between the anchors, both at the pivot, and a point at each.
    let pivot = Vec2::new(-3.0, 6.0);
    let Call::Segment(a, b, Color::JOINT) = calls[0] else { panic!("{:?}", calls[0]) };
    assert!(near(a, pivot, 1e-6) && near(b, pivot, 0.01), "{a} {b}");
    assert_eq!(calls[1], Call::Point(a, DRAW_POINT_SIZE, Color::JOINT));
    assert_eq!(calls[2], Call::Point(b, DRAW_POINT_SIZE, Color::JOINT));

    // The crate's two corner points on the ground, each with a normal 0.3 m long, upward
    // (from the ground, shape A, to the crate).
    let crate_points: Vec<(Vec2, Vec2)> = calls
        .windows(2)
        .filter_map(|pair| match (&pair[0], &pair[1]) {
            (Call::Point(p, size, Color::CONTACT), Call::Segment(q, tip, Color::CONTACT)) if p == q => {
                assert_eq!(*size, DRAW_POINT_SIZE);
                Some((*p, *tip - *q))
            }
            _ => None,
        })
        .filter(|(p, _)| p.x.abs() < 0.6 && (p.y - 0.5).abs() < 0.01)
        .collect();
    assert_eq!(crate_points.len(), 2, "{calls:?}");
    for (_, normal) in &crate_points {
        assert!(near(*normal, Vec2::new(0.0, 0.3), 1e-4), "{normal}");
    }
    assert!((crate_points[0].0.x - crate_points[1].0.x).abs() > 0.9);

    // The impact: where the ball met the wall's face at x = 19.995, its normal along x.
    let impacts: Vec<&Call> = calls.iter().filter(|c| c.color() == Some(Color::IMPACT)).collect();
    assert_eq!(s.world.impact_events().len(), 1);
    assert_eq!(impacts.len(), 2, "{impacts:?}");
    let Call::Point(p, DRAW_IMPACT_SIZE, _) = *impacts[0] else { panic!("{:?}", impacts[0]) };
    assert!((p.x - 19.995).abs() < 0.01 && (p.y - 3.0).abs() < 0.01, "impact at {p}");
    let Call::Segment(q, tip, _) = *impacts[1] else { panic!("{:?}", impacts[1]) };
    assert_eq!(q, p);
    assert!(near((tip - q).abs(), Vec2::new(0.3, 0.0), 1e-4), "{}", tip - q);

    // Without normals: the same points, no segments.
    let mut plain = Primitives::default();
    s.world.draw(&mut plain, &DrawOptions { contact_normals: false, joints: false, impacts: false, ..options });
    assert!(plain.0.iter().all(|c| matches!(c, Call::Point(_, _, Color::CONTACT))));
    let points = calls.iter().filter(|c| matches!(c, Call::Point(_, _, Color::CONTACT))).count();
    assert_eq!(plain.0.len(), points);
}

#[test]
fn draw_shape_gets_ids_states_and_the_attach_order() {
    let mut s = scene();
    // A second and third shape on the crate: drawn in the order they were attached.
    let solid = ShapeDef::default();
    let second = make_offset_box(0.1, 0.1, Vec2::new(0.0, 0.6), 0.0).unwrap();
    let a = s.world.create_shape(s.crate_, &solid, &Shape::Polygon(second)).unwrap();
    let b = s.world.create_shape(s.crate_, &solid, &Shape::Circle(Circle::new(Vec2::ZERO, 0.1).unwrap())).unwrap();
    let mut draw = Shapes::default();
    s.world.draw(&mut draw, &DrawOptions::default());
    let bodies: Vec<BodyId> = draw.shapes.iter().map(|s| s.0).collect();
    let mut expected = vec![s.ground, s.sensor, s.chain, s.chain, s.wall];
    expected.extend([s.crate_, s.crate_, s.crate_, s.kinematic, s.sleeper, s.disabled, s.bullet, s.pendulum, s.ball]);
    assert_eq!(bodies, expected);
    let crate_shapes: Vec<ShapeId> = draw.shapes.iter().filter(|x| x.0 == s.crate_).map(|x| x.1).collect();
    let mut attached = s.world.body_shapes(s.crate_).unwrap();
    attached.reverse();
    assert_eq!(crate_shapes, attached);
    assert_eq!(&crate_shapes[1..], &[a, b]);
    for (body, _, state, sensor, color) in &draw.shapes {
        assert_eq!(*state, s.world.draw_state(*body).unwrap());
        assert_eq!(*color, if *sensor { Color::SENSOR } else { state.color() });
        assert_eq!(*sensor, *body == s.sensor);
    }
    // The element methods that were not overridden still draw with the primitives.
    assert!(draw.rest.0.iter().any(|c| matches!(c, Call::Point(_, _, Color::CONTACT))));
}

#[test]
fn aabbs_transforms_bounds_and_nothing() {
    let s = scene();
    let w = &s.world;
    let nothing = DrawOptions {
        shapes: false,
        aabbs: false,
        transforms: false,
        contacts: false,
        contact_normals: false,
        joints: false,
        impacts: false,
        ..DrawOptions::default()
    };
    let mut draw = Primitives::default();
    w.draw(&mut draw, &nothing);
    assert!(draw.0.is_empty());

    w.draw(&mut draw, &DrawOptions { aabbs: true, transforms: true, ..nothing });
    let boxes: Vec<&Call> = draw.0.iter().filter(|c| matches!(c, Call::Polygon(..))).collect();
    assert_eq!(boxes.len(), w.shape_count());
    let transforms = draw.0.iter().filter(|c| matches!(c, Call::Transform(_))).count();
    assert_eq!(transforms, w.body_count());
    // The crate's box: its tight AABB, counter-clockwise from the lower corner.
    let aabb = w.shape_aabb(w.body_shapes(s.crate_).unwrap()[0]).unwrap();
    let corners =
        vec![aabb.lower, Vec2::new(aabb.upper.x, aabb.lower.y), aabb.upper, Vec2::new(aabb.lower.x, aabb.upper.y)];
    assert!(boxes.contains(&&Call::Polygon(corners, Color::AABB)));
    assert!(draw.0.contains(&Call::Transform(w.transform(s.kinematic).unwrap())));

    // Bounds about the crate: the ground and the crate, the crate's contacts, nothing else.
    let mut near_crate = Shapes::default();
    let bounds = Some(Aabb::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 2.0)));
    w.draw(&mut near_crate, &DrawOptions { bounds, ..DrawOptions::default() });
    let bodies: Vec<BodyId> = near_crate.shapes.iter().map(|s| s.0).collect();
    assert_eq!(bodies, [s.ground, s.crate_]);
    let points: Vec<&Call> = near_crate.rest.0.iter().filter(|c| matches!(c, Call::Point(..))).collect();
    assert_eq!(points.len(), 2, "{points:?}");
}

#[test]
fn colors_print_as_hex() {
    assert_eq!(Color::rgb(0x4a8fe0).to_string(), "#4a8fe0");
    assert_eq!(Color::SENSOR.to_string(), "#e0b02059");
    assert_eq!(Color::rgba(0x11223344), Color { r: 0x11, g: 0x22, b: 0x33, a: 0x44 });
    assert_eq!(Color::AWAKE.with_alpha(0).hex(), 0x4a8fe0);
    assert_eq!(Color::STATIC.alpha(), 1.0);
    for state in DrawState::ALL {
        assert_eq!(state.color().a, 255, "{state}");
    }
    let distinct: std::collections::HashSet<Color> = DrawState::ALL.iter().map(|s| s.color()).collect();
    assert_eq!(distinct.len(), DrawState::ALL.len());
}
