//! Debug drawing: the world through any renderer.
//!
//! [`World::draw`] walks the world (bodies and their shapes, AABBs, body transforms, joints,
//! touching contact points and their normals, the last step's time-of-impact events) and hands
//! each element to a [`DebugDraw`]: a handful of primitives in world coordinates (meters),
//! solid and outlined as in Box2D's `b2DebugDraw`, and four element methods (shape, contact,
//! joint, impact) whose default implementations draw with those primitives. A renderer
//! implements the primitives; one that wants more (sizes in pixels, the ids of what it draws,
//! a replay that keeps body poses rather than vertices) also overrides element methods.
//!
//! Colors tell a body's state ([`DrawState`], [`Color`]'s named colors). The order is
//! deterministic: static bodies first, then the others (so moving bodies are drawn over the
//! ground), each group in handle order with each body's shapes in the order they were
//! attached; then AABBs, body transforms, joints, contacts and impacts.
//!
//! ```
//! use impact2d::{BodyDef, Color, DebugDraw, DrawOptions, Shape, ShapeDef, Transform, Vec2, World, WorldDef, make_box};
//!
//! /// Counts what it is asked to draw.
//! #[derive(Default)]
//! struct Count { polygons: usize, points: usize }
//!
//! impl DebugDraw for Count {
//!     fn draw_polygon(&mut self, _: &[Vec2], _: Color) {}
//!     fn draw_solid_polygon(&mut self, _: &[Vec2], _: f32, _: Color) { self.polygons += 1 }
//!     fn draw_circle(&mut self, _: Vec2, _: f32, _: Color) {}
//!     fn draw_solid_circle(&mut self, _: Transform, _: f32, _: Color) {}
//!     fn draw_solid_capsule(&mut self, _: Vec2, _: Vec2, _: f32, _: Color) {}
//!     fn draw_segment(&mut self, _: Vec2, _: Vec2, _: Color) {}
//!     fn draw_point(&mut self, _: Vec2, _: f32, _: Color) { self.points += 1 }
//!     fn draw_transform(&mut self, _: Transform) {}
//! }
//!
//! let mut world = World::new(&WorldDef::default()).unwrap();
//! let ground = world.create_body(&BodyDef::fixed(Vec2::ZERO)).unwrap();
//! world.create_shape(ground, &ShapeDef::default(), &Shape::Polygon(make_box(5.0, 0.5).unwrap())).unwrap();
//! let crate_ = world.create_body(&BodyDef::dynamic(Vec2::new(0.0, 1.0))).unwrap();
//! world.create_shape(crate_, &ShapeDef::default(), &Shape::Polygon(make_box(0.5, 0.5).unwrap())).unwrap();
//! for _ in 0..30 {
//!     world.step(1.0 / 60.0, 4).unwrap();
//! }
//! let mut count = Count::default();
//! world.draw(&mut count, &DrawOptions::default());
//! // Two boxes, and the crate's two corner points on the ground.
//! assert_eq!((count.polygons, count.points), (2, 2));
//! ```

use std::fmt;

use crate::geometry::{Aabb, Shape};
use crate::math::{Transform, Vec2};
use crate::settings::{LINEAR_SLOP, MAX_POLYGON_VERTICES};

use super::body::{Body, BodyType};
use super::continuous::ImpactEvent;
use super::error::WorldError;
use super::handles::{BodyId, JointId, NULL, ShapeId};
use super::world::World;

/// An sRGB color with straight (not premultiplied) alpha, 8 bits a channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Color {
    /// Red.
    pub r: u8,
    /// Green.
    pub g: u8,
    /// Blue.
    pub b: u8,
    /// Opacity: 0 transparent, 255 opaque.
    pub a: u8,
}

impl Color {
    /// An opaque color from `0xRRGGBB`.
    pub const fn rgb(hex: u32) -> Color {
        Color { r: (hex >> 16) as u8, g: (hex >> 8) as u8, b: hex as u8, a: 255 }
    }

    /// A color from `0xRRGGBBAA`.
    pub const fn rgba(hex: u32) -> Color {
        Color { r: (hex >> 24) as u8, g: (hex >> 16) as u8, b: (hex >> 8) as u8, a: hex as u8 }
    }

    /// The same color with opacity `a` (0 to 255).
    pub const fn with_alpha(self, a: u8) -> Color {
        Color { a, ..self }
    }

    /// `0xRRGGBB`, without the opacity.
    pub const fn hex(self) -> u32 {
        ((self.r as u32) << 16) | ((self.g as u32) << 8) | self.b as u32
    }

    /// The opacity from 0 (transparent) to 1 (opaque).
    pub fn alpha(self) -> f32 {
        f32::from(self.a) / 255.0
    }

    /// Static bodies: gray.
    pub const STATIC: Color = Color::rgb(0x8f959e);
    /// Kinematic bodies: teal.
    pub const KINEMATIC: Color = Color::rgb(0x2a9d8f);
    /// Awake dynamic bodies: blue.
    pub const AWAKE: Color = Color::rgb(0x4a8fe0);
    /// Sleeping dynamic bodies: purple.
    pub const ASLEEP: Color = Color::rgb(0xa58ad8);
    /// Dynamic bodies continuous collision swept as fast in the last step: orange.
    pub const FAST: Color = Color::rgb(0xf29a2e);
    /// Bullets: red.
    pub const BULLET: Color = Color::rgb(0xe0443a);
    /// Disabled bodies (out of the simulation): pale gray.
    pub const DISABLED: Color = Color::rgb(0xcfccc4);
    /// Sensor shapes, whatever their body: gold, translucent (35 % opaque).
    pub const SENSOR: Color = Color::rgba(0xe0b02059);
    /// Shapes' AABBs: a dark goldenrod outline.
    pub const AABB: Color = Color::rgb(0xb8860b);
    /// Contact points and normals: green.
    pub const CONTACT: Color = Color::rgb(0x1a9e50);
    /// Time-of-impact events: magenta.
    pub const IMPACT: Color = Color::rgb(0xd62ad6);
    /// Joints: the line between their anchors, and the anchors: brown.
    pub const JOINT: Color = Color::rgb(0x7a5c2e);
    /// The x axis of a drawn transform: red.
    pub const AXIS_X: Color = Color::rgb(0xd0312d);
    /// The y axis of a drawn transform: green.
    pub const AXIS_Y: Color = Color::rgb(0x2d9d4f);
}

impl fmt::Display for Color {
    /// `#rrggbb`, or `#rrggbbaa` when not opaque.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{:06x}", self.hex())?;
        if self.a != 255 { write!(f, "{:02x}", self.a) } else { Ok(()) }
    }
}

/// How a body is doing, as debug drawing colors it ([`DrawState::color`];
/// [`World::draw_state`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DrawState {
    /// A static body.
    Static,
    /// A kinematic body.
    Kinematic,
    /// An awake dynamic body.
    Awake,
    /// A sleeping dynamic body.
    Asleep,
    /// An awake dynamic body that continuous collision swept as fast in the last step
    /// ([`World::is_fast`]).
    Fast,
    /// An awake dynamic bullet.
    Bullet,
    /// A body out of the simulation ([`World::set_body_enabled`]), whatever its type.
    Disabled,
}

impl DrawState {
    /// Every state, in declaration order.
    pub const ALL: [DrawState; 7] = [
        DrawState::Static,
        DrawState::Kinematic,
        DrawState::Awake,
        DrawState::Asleep,
        DrawState::Fast,
        DrawState::Bullet,
        DrawState::Disabled,
    ];

    /// The state's named color ([`Color::STATIC`], [`Color::KINEMATIC`], ...).
    pub const fn color(self) -> Color {
        match self {
            DrawState::Static => Color::STATIC,
            DrawState::Kinematic => Color::KINEMATIC,
            DrawState::Awake => Color::AWAKE,
            DrawState::Asleep => Color::ASLEEP,
            DrawState::Fast => Color::FAST,
            DrawState::Bullet => Color::BULLET,
            DrawState::Disabled => Color::DISABLED,
        }
    }

    /// The state's name in lower case (`static`, `kinematic`, `awake`, `asleep`, `fast`,
    /// `bullet`, `disabled`).
    pub const fn name(self) -> &'static str {
        match self {
            DrawState::Static => "static",
            DrawState::Kinematic => "kinematic",
            DrawState::Awake => "awake",
            DrawState::Asleep => "asleep",
            DrawState::Fast => "fast",
            DrawState::Bullet => "bullet",
            DrawState::Disabled => "disabled",
        }
    }
}

impl fmt::Display for DrawState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What [`World::draw`] draws. The default draws shapes, joints, contact points with their
/// normals and impacts; not AABBs or transforms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawOptions {
    /// Every shape of every body ([`DebugDraw::draw_shape`]).
    pub shapes: bool,
    /// Every shape's tight AABB, as an outlined rectangle in [`Color::AABB`].
    pub aabbs: bool,
    /// Every body's transform (its origin and axes, [`DebugDraw::draw_transform`]).
    pub transforms: bool,
    /// Touching contact points of solid shapes ([`DebugDraw::draw_contact`]): the points of
    /// touching manifolds within [`LINEAR_SLOP`] of touching (speculative points left out).
    pub contacts: bool,
    /// The contact normals with the points (from shape A to shape B).
    pub contact_normals: bool,
    /// Enabled joints: their world anchors ([`DebugDraw::draw_joint`]).
    pub joints: bool,
    /// The time-of-impact events of the last step ([`World::impact_events`],
    /// [`DebugDraw::draw_impact`]), with their normals.
    pub impacts: bool,
    /// The length of drawn normals (m) for the default [`DebugDraw::draw_contact`] and
    /// [`DebugDraw::draw_impact`]; renderers that size normals in pixels ignore it.
    pub normal_length: f32,
    /// Only what lies in this region (m): shapes and AABBs whose AABB overlaps it, transforms
    /// whose origin is in it, contacts and impacts whose point is in it, joints with an
    /// anchor in it. `None` draws everything.
    pub bounds: Option<Aabb>,
}

impl Default for DrawOptions {
    fn default() -> Self {
        DrawOptions {
            shapes: true,
            aabbs: false,
            transforms: false,
            contacts: true,
            contact_normals: true,
            joints: true,
            impacts: true,
            normal_length: 0.3,
            bounds: None,
        }
    }
}

/// A shape as [`World::draw`] hands it to [`DebugDraw::draw_shape`]: its geometry in body
/// coordinates and its body's transform, so a renderer may place it (world = `transform`
/// applied to the geometry) or keep the two apart.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeDraw<'a> {
    /// The body.
    pub body: BodyId,
    /// The shape.
    pub shape: ShapeId,
    /// The geometry, in body coordinates (m).
    pub geometry: &'a Shape,
    /// The body's transform: origin (m) and rotation.
    pub transform: Transform,
    /// The body's state.
    pub state: DrawState,
    /// Whether the shape is a sensor.
    pub sensor: bool,
    /// The color to draw it in: [`Color::SENSOR`] for a sensor, the state's color otherwise.
    pub color: Color,
}

impl ShapeDraw<'_> {
    /// Draws the shape with `draw`'s primitives in world coordinates, what
    /// [`DebugDraw::draw_shape`] does by default: a circle with
    /// [`DebugDraw::draw_solid_circle`] (its transform at the circle's center, turned with
    /// the body, so its axis shows the rotation), a capsule with
    /// [`DebugDraw::draw_solid_capsule`], a polygon with [`DebugDraw::draw_solid_polygon`],
    /// segments and chain segments with [`DebugDraw::draw_segment`].
    pub fn draw_primitives<D: DebugDraw + ?Sized>(&self, draw: &mut D) {
        let xf = self.transform;
        match self.geometry {
            Shape::Circle(c) => {
                draw.draw_solid_circle(Transform { p: xf.apply(c.center()), q: xf.q }, c.radius(), self.color)
            }
            Shape::Capsule(c) => {
                draw.draw_solid_capsule(xf.apply(c.center1()), xf.apply(c.center2()), c.radius(), self.color)
            }
            Shape::Polygon(p) => {
                let mut vertices = [Vec2::ZERO; MAX_POLYGON_VERTICES];
                let n = p.vertices().len();
                for (w, &v) in vertices.iter_mut().zip(p.vertices()) {
                    *w = xf.apply(v);
                }
                draw.draw_solid_polygon(&vertices[..n], p.radius(), self.color);
            }
            Shape::Segment(s) => draw.draw_segment(xf.apply(s.point1()), xf.apply(s.point2()), self.color),
            Shape::ChainSegment(c) => {
                let s = c.segment();
                draw.draw_segment(xf.apply(s.point1()), xf.apply(s.point2()), self.color)
            }
        }
    }
}

/// A touching contact point as [`World::draw`] hands it to [`DebugDraw::draw_contact`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactDraw {
    /// The shape with the smaller handle.
    pub shape_a: ShapeId,
    /// The other shape.
    pub shape_b: ShapeId,
    /// The point (world, m): midway between the two surfaces.
    pub point: Vec2,
    /// The unit normal from A to B.
    pub normal: Vec2,
    /// The separation of the surfaces (m; negative when they overlap).
    pub separation: f32,
}

/// A joint as [`World::draw`] hands it to [`DebugDraw::draw_joint`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointDraw {
    /// The joint.
    pub joint: JointId,
    /// Its body A.
    pub body_a: BodyId,
    /// Its body B.
    pub body_b: BodyId,
    /// The anchor on A (world, m).
    pub anchor_a: Vec2,
    /// The anchor on B (world, m): equal to A's while a rigid revolute or weld joint holds.
    pub anchor_b: Vec2,
}

/// The size (pixels) of the points the default element methods draw: contact points and
/// joint anchors.
pub const DRAW_POINT_SIZE: f32 = 5.0;

/// The size (pixels) of the point the default [`DebugDraw::draw_impact`] draws.
pub const DRAW_IMPACT_SIZE: f32 = 9.0;

/// A renderer of the world: what [`World::draw`] draws with.
///
/// Every position and length is in world coordinates (meters; y up) except point sizes,
/// which are in pixels, as in Box2D's `b2DebugDraw`. "Solid" primitives are filled (with an
/// outline if the renderer likes), the others outlined. The element methods (`draw_shape`,
/// `draw_contact`, `draw_joint`, `draw_impact`) have default implementations in terms of the
/// primitives; override them to draw an element some other way or to know what it is.
pub trait DebugDraw {
    /// A closed polygon outline through `vertices` (counter-clockwise).
    fn draw_polygon(&mut self, vertices: &[Vec2], color: Color);

    /// A filled convex polygon (counter-clockwise `vertices`) grown by `radius` (m; 0 for a
    /// sharp polygon): a rounded polygon's surface is `radius` outside its vertices' hull.
    fn draw_solid_polygon(&mut self, vertices: &[Vec2], radius: f32, color: Color);

    /// A circle outline about `center` of `radius` (m).
    fn draw_circle(&mut self, center: Vec2, radius: f32, color: Color);

    /// A filled circle of `radius` (m) centered at `transform.p`; `transform.q` is the body's
    /// rotation (draw its x axis to show how the circle turned).
    fn draw_solid_circle(&mut self, transform: Transform, radius: f32, color: Color);

    /// A filled capsule: the segment from `p1` to `p2` grown by `radius` (m).
    fn draw_solid_capsule(&mut self, p1: Vec2, p2: Vec2, radius: f32, color: Color);

    /// A line segment from `p1` to `p2`.
    fn draw_segment(&mut self, p1: Vec2, p2: Vec2, color: Color);

    /// A point `size` pixels across, whatever the zoom.
    fn draw_point(&mut self, point: Vec2, size: f32, color: Color);

    /// A transform: its origin, and its x axis ([`Color::AXIS_X`]) and y axis
    /// ([`Color::AXIS_Y`]) at a length of the renderer's choosing.
    fn draw_transform(&mut self, transform: Transform);

    /// A body's shape. By default [`ShapeDraw::draw_primitives`]: the shape in world
    /// coordinates, in `shape.color`.
    fn draw_shape(&mut self, shape: &ShapeDraw<'_>) {
        shape.draw_primitives(self);
    }

    /// A touching contact point, with its normal drawn `normal_length` meters long (0 when
    /// [`DrawOptions::contact_normals`] is off). By default a point of [`DRAW_POINT_SIZE`]
    /// pixels and a segment along the normal, in [`Color::CONTACT`].
    fn draw_contact(&mut self, contact: &ContactDraw, normal_length: f32) {
        self.draw_point(contact.point, DRAW_POINT_SIZE, Color::CONTACT);
        if normal_length > 0.0 {
            self.draw_segment(contact.point, contact.point + normal_length * contact.normal, Color::CONTACT);
        }
    }

    /// An enabled joint. By default a segment between its anchors and a point of
    /// [`DRAW_POINT_SIZE`] pixels at each, in [`Color::JOINT`].
    fn draw_joint(&mut self, joint: &JointDraw) {
        self.draw_segment(joint.anchor_a, joint.anchor_b, Color::JOINT);
        self.draw_point(joint.anchor_a, DRAW_POINT_SIZE, Color::JOINT);
        self.draw_point(joint.anchor_b, DRAW_POINT_SIZE, Color::JOINT);
    }

    /// A time-of-impact event of the last step, with its normal drawn `normal_length` meters
    /// long. By default a point of [`DRAW_IMPACT_SIZE`] pixels and a segment along the
    /// normal, in [`Color::IMPACT`].
    fn draw_impact(&mut self, impact: &ImpactEvent, normal_length: f32) {
        self.draw_point(impact.point, DRAW_IMPACT_SIZE, Color::IMPACT);
        if normal_length > 0.0 {
            self.draw_segment(impact.point, impact.point + normal_length * impact.normal, Color::IMPACT);
        }
    }
}

impl World {
    /// Draws the world with `draw` (see [`DebugDraw`]), what `options` asks for: shapes in
    /// their body's state color, then AABBs, transforms, joints, touching contact points and
    /// the last step's impacts. The order is deterministic: static bodies first, then the
    /// others, each in handle order with their shapes in the order they were attached.
    /// Disabled bodies are drawn in [`Color::DISABLED`]; sensors in [`Color::SENSOR`];
    /// joints that broke or were disabled are left out, and so are impact events without a
    /// point (a query that ran out of iterations).
    pub fn draw<D: DebugDraw + ?Sized>(&self, draw: &mut D, options: &DrawOptions) {
        let within = |aabb: &Aabb| options.bounds.is_none_or(|b| b.overlaps(aabb));
        let inside = |p: Vec2| options.bounds.is_none_or(|b| b.contains_point(p));
        let mut shapes = Vec::new();
        if options.shapes {
            for statics in [true, false] {
                for index in self.bodies.live_indices() {
                    let body = &self.bodies[index];
                    if (body.body_type == BodyType::Static) != statics {
                        continue;
                    }
                    let state = self.draw_state_of(body);
                    self.shapes_in_order(body, &mut shapes);
                    for &s in &shapes {
                        let collider = &self.colliders[s];
                        if !within(&collider.aabb) {
                            continue;
                        }
                        draw.draw_shape(&ShapeDraw {
                            body: self.body_id(index),
                            shape: self.shape_id(s),
                            geometry: &collider.geometry,
                            transform: body.transform,
                            state,
                            sensor: collider.sensor,
                            color: if collider.sensor { Color::SENSOR } else { state.color() },
                        });
                    }
                }
            }
        }
        if options.aabbs {
            for index in self.bodies.live_indices() {
                self.shapes_in_order(&self.bodies[index], &mut shapes);
                for &s in &shapes {
                    let a = self.colliders[s].aabb;
                    if within(&a) {
                        let corners =
                            [a.lower, Vec2::new(a.upper.x, a.lower.y), a.upper, Vec2::new(a.lower.x, a.upper.y)];
                        draw.draw_polygon(&corners, Color::AABB);
                    }
                }
            }
        }
        if options.transforms {
            for index in self.bodies.live_indices() {
                let xf = self.bodies[index].transform;
                if inside(xf.p) {
                    draw.draw_transform(xf);
                }
            }
        }
        if options.joints {
            for index in self.joints.live_indices() {
                let j = &self.joints[index];
                if !j.enabled {
                    continue;
                }
                let (xa, xb) = (self.bodies[j.body_a].transform, self.bodies[j.body_b].transform);
                let (anchor_a, anchor_b) = (xa.apply(j.local_anchor_a), xb.apply(j.local_anchor_b));
                if inside(anchor_a) || inside(anchor_b) {
                    draw.draw_joint(&JointDraw {
                        joint: self.joint_id(index),
                        body_a: self.body_id(j.body_a),
                        body_b: self.body_id(j.body_b),
                        anchor_a,
                        anchor_b,
                    });
                }
            }
        }
        if options.contacts {
            let normal_length = if options.contact_normals { options.normal_length } else { 0.0 };
            for index in self.contacts.live_indices() {
                let c = &self.contacts[index];
                if !c.is_touching() || c.is_sensor() {
                    continue;
                }
                for p in c.manifold.points().iter().filter(|p| p.separation <= LINEAR_SLOP && inside(p.point)) {
                    let contact = ContactDraw {
                        shape_a: self.shape_id(c.shape_a),
                        shape_b: self.shape_id(c.shape_b),
                        point: p.point,
                        normal: c.manifold.normal,
                        separation: p.separation,
                    };
                    draw.draw_contact(&contact, normal_length);
                }
            }
        }
        if options.impacts {
            for e in self.impact_events().iter().filter(|e| e.normal != Vec2::ZERO && inside(e.point)) {
                draw.draw_impact(e, options.normal_length);
            }
        }
    }

    /// How the body is doing, as [`World::draw`] colors it: [`DrawState::Disabled`] for a
    /// disabled body, else [`DrawState::Static`] or [`DrawState::Kinematic`] by its type;
    /// a dynamic body is [`DrawState::Asleep`] while it sleeps, else [`DrawState::Bullet`]
    /// if it is a bullet, else [`DrawState::Fast`] if continuous collision swept it as fast
    /// in the last step, else [`DrawState::Awake`].
    ///
    /// Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`].
    pub fn draw_state(&self, id: BodyId) -> Result<DrawState, WorldError> {
        Ok(self.draw_state_of(&self.bodies[self.body_index(id)?]))
    }

    fn draw_state_of(&self, b: &Body) -> DrawState {
        if !b.enabled {
            return DrawState::Disabled;
        }
        match b.body_type {
            BodyType::Static => DrawState::Static,
            BodyType::Kinematic => DrawState::Kinematic,
            BodyType::Dynamic if !b.is_awake() => DrawState::Asleep,
            BodyType::Dynamic if b.bullet => DrawState::Bullet,
            BodyType::Dynamic if self.step_count() > 0 && b.fast_step == self.step_count() => DrawState::Fast,
            BodyType::Dynamic => DrawState::Awake,
        }
    }

    /// The body's shape slots in the order they were attached (its list holds the newest
    /// first).
    fn shapes_in_order(&self, body: &Body, out: &mut Vec<u32>) {
        out.clear();
        let mut shape = body.shape_head;
        while shape != NULL {
            out.push(shape);
            shape = self.colliders[shape].next;
        }
        out.reverse();
    }
}
