//! Replays: what a world did, frame by frame, and the self-contained HTML player written from
//! it.
//!
//! A [`Recorder`] records any world: after each step it draws the world through impact2d's
//! debug drawing ([`impact2d::World::draw`]) into a frame, keeping each body (by its handle,
//! with its shapes in body coordinates) once, and per frame each body's pose and
//! [`DrawState`], the touching contact points with their normals, the time-of-impact events
//! since the previous frame, the joints' anchors and any other primitive drawn (AABBs and
//! transforms when its [`DrawOptions`] ask for them). Bodies created and destroyed along the
//! way appear and disappear; a body whose shapes change starts a new entry. The result is a
//! [`Replay`], written as one HTML page:
//!
//! ```
//! use impact2d::{BodyDef, Circle, Shape, ShapeDef, Vec2, World, WorldDef, make_box};
//! use impact_cli::Recorder;
//!
//! let mut world = World::new(&WorldDef::default()).unwrap();
//! let ground = world.create_body(&BodyDef::fixed(Vec2::ZERO)).unwrap();
//! world.create_shape(ground, &ShapeDef::default(), &Shape::Polygon(make_box(5.0, 0.5).unwrap())).unwrap();
//! let mut recorder = Recorder::new("drops", 1.0 / 60.0);
//! recorder.record(&world);
//! for step in 1..=60 {
//!     if step % 20 == 0 {
//!         let ball = world.create_body(&BodyDef::dynamic(Vec2::new(0.0, 3.0))).unwrap();
//!         let circle = Shape::Circle(Circle::new(Vec2::ZERO, 0.25).unwrap());
//!         world.create_shape(ball, &ShapeDef::default(), &circle).unwrap();
//!     }
//!     world.step(1.0 / 60.0, 4).unwrap();
//!     recorder.record(&world);
//! }
//! let replay = recorder.replay();
//! assert_eq!(replay.frames().len(), 61);
//! assert_eq!(replay.bodies().len(), 4); // the ground and three balls
//! assert_eq!(replay.frames()[60].bodies.len(), 4);
//! let html = recorder.to_html(); // or write_html(path), write_to(writer)
//! assert!(html.contains("drops"));
//! ```
//!
//! The command records its runs with [`Recorder::for_scene`], which names the bodies after
//! the scene's. The player ([`Replay::to_html`]) is one HTML file with the trace embedded as
//! JSON and one script drawing it on a canvas: no network, no external scripts or fonts. It
//! plays, pauses, steps, scrubs, changes speed (0.1× to 4×), zooms about the cursor (wheel),
//! pans (drag), fits the scene on load, and toggles contact points, contact normals and
//! time-of-impact events. `#frame=N` at the end of its URL opens it paused on frame N.
//! [`crate::render`] draws worlds to PNG with the same colors and sizes ([`PALETTE`],
//! impact2d's [`Color`]s, [`STYLE`]).

mod recorder;

use std::io::{self, Write};
use std::path::Path;

use impact2d::{Aabb, BodyId, Color, DrawState, Shape, ShapeId, Transform, Vec2};
use serde::Serialize;
use serde_json::{Value, json};

pub use recorder::Recorder;

#[cfg(doc)]
use impact2d::DrawOptions;

/// Where a body is in a frame, and how it is doing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyPose {
    /// The body origin in the world (m).
    pub position: Vec2,
    /// The body's rotation (rad).
    pub angle: f32,
    /// Its state, for its color.
    pub state: DrawState,
}

/// A contact point with its normal, in the world.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactPoint {
    /// Where (m).
    pub point: Vec2,
    /// The unit normal, from the first shape to the second.
    pub normal: Vec2,
}

/// A time-of-impact event: where continuous collision stopped a body, and the normal there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ToiEvent {
    /// Where (m).
    pub point: Vec2,
    /// The unit normal of the impact.
    pub normal: Vec2,
}

/// A primitive of impact2d's debug drawing that is not part of a body, a contact, a joint or
/// an impact (AABBs and transforms, when the recorder's options ask for them), in world
/// coordinates (m).
#[derive(Clone, Debug, PartialEq)]
pub enum Mark {
    /// A closed outline.
    Polygon {
        /// Its vertices (m), counter-clockwise.
        vertices: Vec<Vec2>,
        /// Its color.
        color: Color,
    },
    /// A filled convex polygon grown by `radius`.
    SolidPolygon {
        /// Its vertices (m), counter-clockwise.
        vertices: Vec<Vec2>,
        /// How far its surface is outside them (m).
        radius: f32,
        /// Its color.
        color: Color,
    },
    /// A circle outline.
    Circle {
        /// Its center (m).
        center: Vec2,
        /// Its radius (m).
        radius: f32,
        /// Its color.
        color: Color,
    },
    /// A filled circle whose axis turns with `transform`.
    SolidCircle {
        /// Its center and rotation.
        transform: Transform,
        /// Its radius (m).
        radius: f32,
        /// Its color.
        color: Color,
    },
    /// A filled capsule.
    SolidCapsule {
        /// One end of its segment (m).
        p1: Vec2,
        /// The other end (m).
        p2: Vec2,
        /// Its radius (m).
        radius: f32,
        /// Its color.
        color: Color,
    },
    /// A segment.
    Segment {
        /// One end (m).
        p1: Vec2,
        /// The other end (m).
        p2: Vec2,
        /// Its color.
        color: Color,
    },
    /// A point of a size in pixels.
    Point {
        /// Where (m).
        point: Vec2,
        /// How wide (pixels).
        size: f32,
        /// Its color.
        color: Color,
    },
    /// A transform: its origin and axes, [`Style::axis_length`] pixels long.
    Transform(Transform),
}

/// One frame of a replay.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    /// The simulated time (s).
    pub time: f32,
    /// The bodies in the frame: indices into [`Replay::bodies`], ascending.
    pub bodies: Vec<usize>,
    /// One pose per body of `bodies`, in the same order.
    pub poses: Vec<BodyPose>,
    /// The touching contact points, unless left out.
    pub contacts: Vec<ContactPoint>,
    /// The time-of-impact events of the steps since the previous frame.
    pub tois: Vec<ToiEvent>,
    /// The frame had more contact points than the recorder's budget
    /// ([`Recorder::set_contact_budget`]) and records none.
    pub contacts_left_out: bool,
    /// Each enabled joint's world anchors on A and B (m).
    pub joints: Vec<(Vec2, Vec2)>,
    /// Other primitives drawn (AABBs, transforms), in the order they were drawn.
    pub marks: Vec<Mark>,
}

/// A body as a replay draws it: one body of the world with one set of shapes, over the
/// frames from `first_frame` to before `end_frame`.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayBody {
    /// The body's handle in the recorded world.
    pub id: BodyId,
    /// Its name (may be empty; [`Recorder::set_body_name`]).
    pub name: String,
    /// Its shapes, in body coordinates, in the order they were attached.
    pub shapes: Vec<ReplayShape>,
    /// The first frame it is in.
    pub first_frame: usize,
    /// The frame after its last one; `None` while it is in the last frame.
    pub end_frame: Option<usize>,
}

/// A shape as a replay draws it.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayShape {
    /// The world's handles of its parts.
    pub ids: Vec<ShapeId>,
    /// The shapes: one, or the links of a chain (chain segments attached one after the
    /// other, each starting where the previous one ends).
    pub parts: Vec<Shape>,
    /// Sensors are drawn in the sensor color, translucent.
    pub sensor: bool,
}

/// The colors of the player and of PNG frames that are not impact2d's debug drawing colors
/// (those are [`Color`]'s named colors: body states, sensors, contacts, impacts, joints).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Palette {
    /// The canvas.
    pub background: Color,
    /// Outlines of solid shapes and the radius line of circles.
    pub outline: Color,
}

/// The colors.
pub const PALETTE: Palette = Palette { background: Color::rgb(0xf4f3ee), outline: Color::rgb(0x2c2f36) };

/// Sizes on screen, in pixels, whatever the zoom.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Style {
    /// How far the outline of a solid shape reaches beyond its surface.
    pub outline: f32,
    /// The width of segments, chains, normals and circles' radius lines.
    pub line: f32,
    /// The distance between the ticks on a chain's solid side.
    pub tick_spacing: f32,
    /// The length of those ticks.
    pub tick_length: f32,
    /// The radius of a contact point and of a joint's anchors.
    pub dot: f32,
    /// The length of a drawn normal.
    pub normal_length: f32,
    /// The radius of the ring around a time-of-impact event.
    pub toi_radius: f32,
    /// The opacity of sensors: [`Color::SENSOR`]'s.
    pub sensor_alpha: f32,
    /// Solids thinner than this on screen are outlined in their own color rather than the
    /// outline color, so that a thin blade or a small bullet still shows its state.
    pub thin: f32,
    /// The length of a drawn transform's axes.
    pub axis_length: f32,
}

/// The sizes.
pub const STYLE: Style = Style {
    outline: 1.5,
    line: 2.0,
    tick_spacing: 12.0,
    tick_length: 6.0,
    dot: 3.0,
    normal_length: 16.0,
    toi_radius: 6.0,
    sensor_alpha: Color::SENSOR.a as f32 / 255.0,
    thin: 4.0,
    axis_length: 20.0,
};

/// The one-letter code of a body state in the embedded trace.
pub fn state_code(state: DrawState) -> char {
    match state {
        DrawState::Static => 'g',
        DrawState::Kinematic => 'k',
        DrawState::Awake => 'a',
        DrawState::Asleep => 's',
        DrawState::Fast => 'f',
        DrawState::Bullet => 'b',
        DrawState::Disabled => 'd',
    }
}

/// The most body poses (bodies times frames) a replay embeds: some 3 MB of trace. Longer
/// runs of many bodies record every few steps instead ([`frame_stride`]).
pub const POSE_BUDGET: usize = 120_000;

/// The most contact points a replay embeds over all its frames: some 2 MB of trace.
/// Spread over the frames by [`Recorder::set_contact_budget`].
pub const CONTACT_BUDGET: usize = 60_000;

/// Which steps a replay of `steps` steps of `bodies` bodies records: every `stride`-th (and
/// the first and last), the smallest stride that keeps the poses within [`POSE_BUDGET`].
pub fn frame_stride(steps: u32, bodies: usize) -> u32 {
    let frames = POSE_BUDGET / bodies.max(1);
    if frames < 2 { steps.max(1) } else { (steps as usize).div_ceil(frames - 1).max(1) as u32 }
}

/// The fraction of the scene's extent added on each side when fitting it to the view.
const FIT_MARGIN: f32 = 0.05;

/// The player page; the trace replaces `__REPLAY__`, the escaped scene name `__TITLE__`.
const PLAYER: &str = include_str!("replay/player.html");

/// A recorded world: its bodies and its frames ([`Recorder`] makes them).
#[derive(Clone, Debug, PartialEq)]
pub struct Replay {
    name: String,
    description: String,
    time_step: f32,
    bodies: Vec<ReplayBody>,
    frames: Vec<Frame>,
}

impl Replay {
    /// The replay's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Every body that was in a frame, in the order they first appeared (a body whose shapes
    /// changed appears again, as a new entry).
    pub fn bodies(&self) -> &[ReplayBody] {
        &self.bodies
    }

    /// The frames so far.
    pub fn frames(&self) -> &[Frame] {
        &self.frames
    }

    /// The region a view fits to: the scene as its first frame shows it ([`frame_bounds`]).
    /// Bodies that fly far away later do not shrink the scene to a dot; the player zooms out
    /// to follow them. A replay without frames gives a 20 m square about the origin.
    pub fn view_bounds(&self) -> Aabb {
        self.frames.first().map_or(fit_bounds(None), |f| frame_bounds(&self.bodies, f))
    }

    /// The player: one self-contained HTML page with the trace embedded.
    pub fn to_html(&self) -> String {
        let trace = serde_json::to_string(&self.trace()).expect("traces always serialize");
        // JSON has `<` only inside strings, where \u003c means the same; the script element
        // then cannot be closed by the data.
        let trace = trace.replace('<', "\\u003c");
        PLAYER.replacen("__TITLE__", &html_escape(&self.name), 1).replacen("__REPLAY__", &trace, 1)
    }

    /// Writes the player to `out`.
    ///
    /// Errors: those of writing.
    pub fn write_to(&self, out: &mut impl Write) -> io::Result<()> {
        out.write_all(self.to_html().as_bytes())
    }

    /// Writes the player to `path`.
    ///
    /// Errors: those of writing the file.
    pub fn write_html(&self, path: &Path) -> io::Result<()> {
        std::fs::write(path, self.to_html())
    }

    /// The trace as the player reads it.
    fn trace(&self) -> Trace<'_> {
        let bounds = self.view_bounds();
        let states: serde_json::Map<String, Value> =
            DrawState::ALL.iter().map(|&s| (state_code(s).to_string(), json!(hex(s.color())))).collect();
        let colors = json!({
            "background": hex(PALETTE.background),
            "outline": hex(PALETTE.outline),
            "sensor": hex(Color::SENSOR),
            "contact": hex(Color::CONTACT),
            "toi": hex(Color::IMPACT),
            "joint": hex(Color::JOINT),
            "aabb": hex(Color::AABB),
            "axis_x": hex(Color::AXIS_X),
            "axis_y": hex(Color::AXIS_Y),
            "states": states,
        });
        Trace {
            name: &self.name,
            description: &self.description,
            time_step: self.time_step,
            colors,
            style: &STYLE,
            bounds: [bounds.lower.x, bounds.lower.y, bounds.upper.x, bounds.upper.y],
            bodies: self.bodies.iter().map(TraceBody::of).collect(),
            frames: self.frames.iter().map(TraceFrame::of).collect(),
        }
    }
}

/// A color as `#rrggbb`, without its opacity.
pub fn hex(color: Color) -> String {
    format!("#{:06x}", color.hex())
}

/// Every shape of `bodies` at the poses of `frame`, with a 5 % margin on each side (at least
/// 1 m across): what a view of the frame fits to.
pub fn frame_bounds(bodies: &[ReplayBody], frame: &Frame) -> Aabb {
    let mut bounds: Option<Aabb> = None;
    for (&body, pose) in frame.bodies.iter().zip(&frame.poses) {
        let xf = Transform::new(pose.position, pose.angle);
        for part in bodies[body].shapes.iter().flat_map(|s| &s.parts) {
            let aabb = part.aabb(xf);
            bounds = Some(bounds.map_or(aabb, |b| b.union(&aabb)));
        }
    }
    fit_bounds(bounds)
}

/// `bounds` (m) with a 5 % margin of its larger extent on each side, at least 1 m across; a
/// 20 m square about the origin for `None`.
pub fn fit_bounds(bounds: Option<Aabb>) -> Aabb {
    let Some(bounds) = bounds else {
        return Aabb::new(Vec2::splat(-10.0), Vec2::splat(10.0));
    };
    let extents = bounds.extents().max(Vec2::splat(0.5));
    let half = extents + FIT_MARGIN * 2.0 * extents.max_element();
    Aabb::new(bounds.center() - half, bounds.center() + half)
}

/// `text` safe inside HTML elements.
fn html_escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// The embedded trace (numbers as f32, so they print short).
#[derive(Serialize)]
struct Trace<'a> {
    name: &'a str,
    description: &'a str,
    time_step: f32,
    colors: Value,
    style: &'static Style,
    bounds: [f32; 4],
    bodies: Vec<TraceBody<'a>>,
    frames: Vec<TraceFrame>,
}

/// A body for the player: its name, shapes, and the frames it is in (`from`, left out when
/// 0; `to`, the frame after its last, left out while it is in the last frame).
#[derive(Serialize)]
struct TraceBody<'a> {
    name: &'a str,
    shapes: Vec<TraceShape>,
    #[serde(skip_serializing_if = "is_zero_frame")]
    from: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    to: Option<usize>,
}

impl TraceBody<'_> {
    fn of(body: &ReplayBody) -> TraceBody<'_> {
        TraceBody {
            name: &body.name,
            shapes: body.shapes.iter().map(TraceShape::of).collect(),
            from: body.first_frame,
            to: body.end_frame,
        }
    }
}

/// A shape for the player: `kind` and its geometry in body coordinates.
#[derive(Serialize)]
struct TraceShape {
    kind: &'static str,
    /// circle: the center; capsule, segment: the two ends; polygon: the vertices
    /// (counter-clockwise); chain: its points in order.
    points: Vec<[f32; 2]>,
    /// circle, capsule, polygon: the radius.
    #[serde(skip_serializing_if = "is_zero")]
    radius: f32,
    /// chain: whether it closes.
    #[serde(rename = "loop", skip_serializing_if = "is_false")]
    is_loop: bool,
    /// circle, capsule, polygon: [`thickness`].
    #[serde(skip_serializing_if = "is_zero")]
    thickness: f32,
    #[serde(skip_serializing_if = "is_false")]
    sensor: bool,
}

impl TraceShape {
    fn of(shape: &ReplayShape) -> TraceShape {
        let xy = |v: Vec2| [v.x, v.y];
        let (kind, points, radius, is_loop) = match shape.parts.as_slice() {
            [Shape::Circle(c)] => ("circle", vec![xy(c.center())], c.radius(), false),
            [Shape::Capsule(c)] => ("capsule", vec![xy(c.center1()), xy(c.center2())], c.radius(), false),
            [Shape::Polygon(p)] => ("polygon", p.vertices().iter().map(|&v| xy(v)).collect(), p.radius(), false),
            [Shape::Segment(s)] => ("segment", vec![xy(s.point1()), xy(s.point2())], 0.0, false),
            links => {
                let (points, is_loop) = chain_points(links);
                ("chain", points.into_iter().map(xy).collect(), 0.0, is_loop)
            }
        };
        let thickness = shape.parts.first().map_or(0.0, thickness);
        TraceShape { kind, points, radius, is_loop, thickness, sensor: shape.sensor }
    }
}

/// How thick a solid shape is at its thinnest (m): twice the distance from the average of its
/// vertices (a circle's center, a capsule's segment) to its nearest side, plus twice its
/// radius. Zero for segments and chain links. The player and the PNG renderer use it to tell
/// shapes too thin to show their fill ([`Style::thin`]).
pub fn thickness(shape: &Shape) -> f32 {
    match shape {
        Shape::Circle(c) => 2.0 * c.radius(),
        Shape::Capsule(c) => 2.0 * c.radius(),
        Shape::Polygon(p) => hull_thickness(p.vertices(), p.radius()),
        Shape::Segment(_) | Shape::ChainSegment(_) => 0.0,
    }
}

/// [`thickness`] of the convex polygon through `vertices` (counter-clockwise, m) grown by
/// `radius` (m): two vertices make a capsule, one a circle.
pub fn hull_thickness(vertices: &[Vec2], radius: f32) -> f32 {
    if vertices.len() < 3 {
        return 2.0 * radius;
    }
    let center = vertices.iter().copied().sum::<Vec2>() / vertices.len() as f32;
    let inner = (0..vertices.len())
        .map(|i| {
            let (a, b) = (vertices[i], vertices[(i + 1) % vertices.len()]);
            let edge = (b - a).normalize_or_zero();
            Vec2::new(edge.y, -edge.x).dot(a - center)
        })
        .fold(f32::MAX, f32::min);
    2.0 * (inner.max(0.0) + radius)
}

/// The points of a chain from its links, and whether it closes (its last link ends where
/// its first begins).
pub(crate) fn chain_points(links: &[Shape]) -> (Vec<Vec2>, bool) {
    let segments: Vec<_> = links
        .iter()
        .filter_map(|s| match s {
            Shape::ChainSegment(c) => Some(*c.segment()),
            _ => None,
        })
        .collect();
    let mut points: Vec<Vec2> = segments.iter().map(|s| s.point1()).collect();
    let (Some(first), Some(last)) = (segments.first(), segments.last()) else {
        return (points, false);
    };
    let closes = last.point2() == first.point1();
    if !closes {
        points.push(last.point2());
    }
    (points, closes)
}

// 0.1 mm and 10 µrad are far below a pixel at any useful zoom, and short to print.
fn meters(x: f32) -> f32 {
    round_to(x, 1e4)
}

fn radians(x: f32) -> f32 {
    round_to(x, 1e5)
}

fn unit(x: f32) -> f32 {
    round_to(x, 1e4)
}

/// A frame for the player: time `t`; poses `p` (x, y, angle of each body in the frame, in
/// the order of `bodies`) and states `s` (one letter each, [`state_code`]); contacts `c` and
/// time-of-impact events `i` (x, y, nx, ny each); `x` when the contacts were left out; joints
/// `j` (the anchors on A and B: x, y, x, y each); marks `m` ([`TraceMark`]). The compact forms
/// keep long replays small.
#[derive(Serialize)]
struct TraceFrame {
    t: f32,
    p: Vec<f32>,
    s: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    c: Vec<f32>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    i: Vec<f32>,
    #[serde(skip_serializing_if = "is_false")]
    x: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    j: Vec<f32>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    m: Vec<TraceMark>,
}

impl TraceFrame {
    fn of(frame: &Frame) -> TraceFrame {
        let flat = |items: &mut dyn Iterator<Item = (Vec2, Vec2)>| -> Vec<f32> {
            items.flat_map(|(p, n)| [meters(p.x), meters(p.y), unit(n.x), unit(n.y)]).collect()
        };
        TraceFrame {
            t: round_to(frame.time, 1e6),
            p: frame
                .poses
                .iter()
                .flat_map(|p| [meters(p.position.x), meters(p.position.y), radians(p.angle)])
                .collect(),
            s: frame.poses.iter().map(|p| state_code(p.state)).collect(),
            c: flat(&mut frame.contacts.iter().map(|c| (c.point, c.normal))),
            i: flat(&mut frame.tois.iter().map(|e| (e.point, e.normal))),
            x: frame.contacts_left_out,
            j: frame.joints.iter().flat_map(|(a, b)| [meters(a.x), meters(a.y), meters(b.x), meters(b.y)]).collect(),
            m: frame.marks.iter().map(TraceMark::of).collect(),
        }
    }
}

/// A mark for the player: `[kind, color, numbers...]`, the color as `#rrggbb` or `#rrggbbaa`
/// (`null` for axes). polygon: x, y of each vertex; solid: the radius, then x, y of each
/// vertex; circle: x, y, radius; disc: x, y, radius, angle; capsule: x1, y1, x2, y2, radius;
/// segment: x1, y1, x2, y2; point: x, y, size (pixels); axes: x, y, angle.
struct TraceMark {
    kind: &'static str,
    color: Option<String>,
    numbers: Vec<f32>,
}

impl TraceMark {
    fn of(mark: &Mark) -> TraceMark {
        let xy = |v: &[Vec2]| v.iter().flat_map(|p| [meters(p.x), meters(p.y)]).collect::<Vec<f32>>();
        let (kind, color, numbers) = match mark {
            Mark::Polygon { vertices, color } => ("polygon", Some(*color), xy(vertices)),
            Mark::SolidPolygon { vertices, radius, color } => {
                ("solid", Some(*color), [vec![meters(*radius)], xy(vertices)].concat())
            }
            Mark::Circle { center, radius, color } => {
                ("circle", Some(*color), [xy(&[*center]), vec![meters(*radius)]].concat())
            }
            Mark::SolidCircle { transform, radius, color } => (
                "disc",
                Some(*color),
                [xy(&[transform.p]), vec![meters(*radius), radians(transform.q.angle())]].concat(),
            ),
            Mark::SolidCapsule { p1, p2, radius, color } => {
                ("capsule", Some(*color), [xy(&[*p1, *p2]), vec![meters(*radius)]].concat())
            }
            Mark::Segment { p1, p2, color } => ("segment", Some(*color), xy(&[*p1, *p2])),
            Mark::Point { point, size, color } => ("point", Some(*color), [xy(&[*point]), vec![*size]].concat()),
            Mark::Transform(xf) => ("axes", None, [xy(&[xf.p]), vec![radians(xf.q.angle())]].concat()),
        };
        TraceMark { kind, color: color.map(|c| c.to_string()), numbers }
    }
}

impl Serialize for TraceMark {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = serializer.serialize_seq(Some(2 + self.numbers.len()))?;
        seq.serialize_element(self.kind)?;
        seq.serialize_element(&self.color)?;
        for x in &self.numbers {
            seq.serialize_element(x)?;
        }
        seq.end()
    }
}

/// `x` rounded to a multiple of `1 / scale`, computed in f64 (+ 0.0 turns -0 into 0).
fn round_to(x: f32, scale: f64) -> f32 {
    ((x as f64 * scale).round() / scale) as f32 + 0.0
}

fn is_zero(x: &f32) -> bool {
    *x == 0.0
}

fn is_zero_frame(x: &usize) -> bool {
    *x == 0
}

fn is_false(b: &bool) -> bool {
    !b
}

#[cfg(test)]
mod tests;
