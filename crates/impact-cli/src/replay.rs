//! Replays: what a run did, frame by frame, and the self-contained HTML player written from it.
//!
//! A [`Replay`] holds a scene's static description (each body's name, type, flags and shapes
//! in body coordinates, built from a [`ValidScene`]) and, per frame, the time, each body's pose
//! and [`BodyState`], and optionally contact points and time-of-impact events. Whatever steps
//! the bodies fills it frame by frame:
//!
//! ```
//! use impact_cli::replay::Replay;
//! use impact_cli::scenes;
//! use impact_cli::simulation::Simulation;
//!
//! let scene = scenes::find("box_pile").unwrap().scene().validate().unwrap();
//! let mut run = Simulation::new(&scene).unwrap();
//! let mut replay = Replay::new(&scene);
//! replay.push_frame(0.0, &run.poses(), &[], &[]).unwrap();
//! for _ in 0..10 {
//!     run.step().unwrap();
//!     replay.push_frame(run.time() as f32, &run.poses(), &run.contacts(), &[]).unwrap();
//! }
//! assert_eq!(replay.frames().len(), 11);
//! let html = replay.to_html(); // or write_html(path); render::render_frame draws PNG frames
//! assert!(html.contains("box_pile"));
//! ```
//!
//! The player ([`Replay::to_html`]) is one HTML file with the trace embedded as JSON and one
//! script drawing it on a canvas: no network, no external scripts or fonts. It plays, pauses,
//! steps, scrubs, changes speed (0.1× to 4×), zooms about the cursor (wheel), pans (drag), fits
//! the scene on load, and toggles contact points, contact normals and time-of-impact events.
//! `#frame=N` at the end of its URL opens it paused on frame N. [`crate::render`] draws the
//! same frames to PNG with the same colors and sizes ([`PALETTE`], [`STYLE`]).

use std::fmt;
use std::io;
use std::path::Path;

use impact2d::{Aabb, Shape, Transform, Vec2};
use serde::Serialize;
use thiserror::Error;

use crate::scene::{BodyType, ValidScene};

/// How a body was doing in a frame; it picks the body's color (static bodies are always gray).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyState {
    /// Awake, moving less than its own extent in the step.
    Awake,
    /// Asleep.
    Asleep,
    /// Moved more than its own extent in the step: the case continuous collision is for.
    Fast,
    /// A bullet: continuous collision against dynamic bodies too.
    Bullet,
}

impl BodyState {
    /// The one-letter code of the state in the embedded trace.
    fn code(self) -> char {
        match self {
            BodyState::Awake => 'a',
            BodyState::Asleep => 's',
            BodyState::Fast => 'f',
            BodyState::Bullet => 'b',
        }
    }
}

/// Where a body is in a frame, and how it is doing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyPose {
    /// The body origin in the world (m).
    pub position: Vec2,
    /// The body's rotation (rad).
    pub angle: f32,
    /// Its state, for its color.
    pub state: BodyState,
}

impl BodyPose {
    /// The poses the bodies of `scene` start in: their positions and angles, asleep when they
    /// are static or start asleep (as the world reports them), bullets when they are bullets,
    /// awake otherwise.
    pub fn initial(scene: &ValidScene) -> Vec<BodyPose> {
        scene
            .scene()
            .bodies
            .iter()
            .map(|body| {
                let state = match (body.body_type == BodyType::Static || !body.awake, body.bullet) {
                    (true, _) => BodyState::Asleep,
                    (false, true) => BodyState::Bullet,
                    (false, false) => BodyState::Awake,
                };
                BodyPose { position: body.position, angle: body.angle, state }
            })
            .collect()
    }
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

/// One frame of a replay.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    /// The simulated time (s).
    pub time: f32,
    /// One pose per body, in the scene's order.
    pub poses: Vec<BodyPose>,
    /// Contact points, if recorded.
    pub contacts: Vec<ContactPoint>,
    /// Time-of-impact events of the step that ended at this frame, if recorded.
    pub tois: Vec<ToiEvent>,
    /// The frame had more contact points than the replay's budget
    /// ([`Replay::set_contact_budget`]) and records none.
    pub contacts_left_out: bool,
    /// Each joint's world anchors on A and B (m), in the scene's order; broken joints are
    /// left out.
    pub joints: Vec<(Vec2, Vec2)>,
}

/// A body as a replay draws it.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayBody {
    /// Its name (may be empty).
    pub name: String,
    /// Static, kinematic or dynamic.
    pub body_type: BodyType,
    /// Whether it is a bullet.
    pub bullet: bool,
    /// Whether it has continuous collision.
    pub continuous: bool,
    /// Its shapes, in body coordinates.
    pub shapes: Vec<ReplayShape>,
}

/// A shape as a replay draws it.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayShape {
    /// The built shapes: one, or one segment per chain link.
    pub parts: Vec<Shape>,
    /// Sensors are drawn translucent.
    pub sensor: bool,
}

/// Why a frame was refused.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum ReplayError {
    /// The frame does not have one pose per body.
    #[error("frame {frame}: {poses} poses for {bodies} bodies")]
    PoseCount {
        /// The frame's index.
        frame: usize,
        /// The poses given.
        poses: usize,
        /// The bodies of the scene.
        bodies: usize,
    },
    /// A time, pose, point or normal is NaN or infinite.
    #[error("frame {frame}: {what} is not finite")]
    NonFinite {
        /// The frame's index.
        frame: usize,
        /// Which value.
        what: String,
    },
}

/// The colors of the player and of PNG frames, as `#rrggbb`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Palette {
    /// The canvas.
    pub background: &'static str,
    /// Static bodies, whatever their state.
    pub static_body: &'static str,
    /// [`BodyState::Awake`].
    pub awake: &'static str,
    /// [`BodyState::Asleep`].
    pub asleep: &'static str,
    /// [`BodyState::Fast`].
    pub fast: &'static str,
    /// [`BodyState::Bullet`].
    pub bullet: &'static str,
    /// Outlines of solid shapes and the radius line of circles.
    pub outline: &'static str,
    /// Contact points and normals.
    pub contact: &'static str,
    /// Time-of-impact events.
    pub toi: &'static str,
    /// Joints: the line between their anchors.
    pub joint: &'static str,
}

/// The colors.
pub const PALETTE: Palette = Palette {
    background: "#f4f3ee",
    static_body: "#8f959e",
    awake: "#4a8fe0",
    asleep: "#a58ad8",
    fast: "#f29a2e",
    bullet: "#e0443a",
    outline: "#2c2f36",
    contact: "#1a9e50",
    toi: "#d62ad6",
    joint: "#7a5c2e",
};

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
    /// The radius of a contact point.
    pub dot: f32,
    /// The length of a drawn normal.
    pub normal_length: f32,
    /// The radius of the ring around a time-of-impact event.
    pub toi_radius: f32,
    /// The opacity of sensors.
    pub sensor_alpha: f32,
    /// Solids thinner than this on screen are outlined in their own color rather than the
    /// outline color, so that a thin blade or a small bullet still shows its state.
    pub thin: f32,
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
    sensor_alpha: 0.35,
    thin: 4.0,
};

/// The most body poses (bodies times frames) a replay embeds: some 3 MB of trace. Longer
/// runs of many bodies record every few steps instead ([`frame_stride`]).
pub const POSE_BUDGET: usize = 120_000;

/// The most contact points a replay embeds over all its frames: some 2 MB of trace.
/// Spread over the frames by [`Replay::set_contact_budget`].
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

/// A scene's description and its frames.
#[derive(Clone, Debug, PartialEq)]
pub struct Replay {
    name: String,
    description: String,
    time_step: f32,
    bodies: Vec<ReplayBody>,
    frames: Vec<Frame>,
    contact_budget: usize,
}

impl Replay {
    /// An empty replay of `scene`'s bodies.
    pub fn new(scene: &ValidScene) -> Replay {
        let bodies = scene
            .bodies()
            .map(|body| ReplayBody {
                name: body.def.name.clone(),
                body_type: body.def.body_type,
                bullet: body.def.bullet,
                continuous: body.def.continuous,
                shapes: body.shapes().map(|s| ReplayShape { parts: s.parts.to_vec(), sensor: s.def.sensor }).collect(),
            })
            .collect();
        let s = scene.scene();
        Replay {
            name: s.name.clone(),
            description: s.description.clone(),
            time_step: s.time_step,
            bodies,
            frames: Vec::new(),
            contact_budget: usize::MAX,
        }
    }

    /// Frames pushed from now on record their contact points only when they have at most
    /// `points` of them (none otherwise, marked [`Frame::contacts_left_out`]): a pile of
    /// thousands of bodies would otherwise make a replay of hundreds of megabytes. No limit
    /// by default; [`CONTACT_BUDGET`] over the expected frames keeps a replay small.
    pub fn set_contact_budget(&mut self, points: usize) {
        self.contact_budget = points;
    }

    /// Adds a frame: the time (s), one pose per body in the scene's order, and the contact
    /// points and time-of-impact events to show with it (either may be empty; contacts are
    /// left out beyond the budget of [`Replay::set_contact_budget`]).
    ///
    /// Errors: [`ReplayError::PoseCount`] unless there is one pose per body,
    /// [`ReplayError::NonFinite`] for a NaN or infinite value.
    pub fn push_frame(
        &mut self,
        time: f32,
        poses: &[BodyPose],
        contacts: &[ContactPoint],
        tois: &[ToiEvent],
    ) -> Result<(), ReplayError> {
        let frame = self.frames.len();
        if poses.len() != self.bodies.len() {
            return Err(ReplayError::PoseCount { frame, poses: poses.len(), bodies: self.bodies.len() });
        }
        let non_finite = |what: String| Err(ReplayError::NonFinite { frame, what });
        if !time.is_finite() {
            return non_finite("the time".into());
        }
        for (i, pose) in poses.iter().enumerate() {
            if !pose.position.is_finite() || !pose.angle.is_finite() {
                return non_finite(format!("the pose of body {i}"));
            }
        }
        for (i, c) in contacts.iter().enumerate() {
            if !c.point.is_finite() || !c.normal.is_finite() {
                return non_finite(format!("contact {i}"));
            }
        }
        for (i, e) in tois.iter().enumerate() {
            if !e.point.is_finite() || !e.normal.is_finite() {
                return non_finite(format!("time-of-impact event {i}"));
            }
        }
        let left_out = contacts.len() > self.contact_budget;
        let contacts = if left_out { Vec::new() } else { contacts.to_vec() };
        self.frames.push(Frame {
            time,
            poses: poses.to_vec(),
            contacts,
            tois: tois.to_vec(),
            contacts_left_out: left_out,
            joints: Vec::new(),
        });
        Ok(())
    }

    /// Adds the joints of the last frame: each joint's world anchors on A and B (meters),
    /// drawn as a line between them.
    ///
    /// Errors: [`ReplayError::NonFinite`] for a NaN or infinite anchor;
    /// [`ReplayError::PoseCount`] before any frame.
    pub fn push_joints(&mut self, joints: &[(Vec2, Vec2)]) -> Result<(), ReplayError> {
        let frame = self.frames.len();
        let Some(last) = self.frames.last_mut() else {
            return Err(ReplayError::PoseCount { frame, poses: 0, bodies: self.bodies.len() });
        };
        if let Some(i) = joints.iter().position(|(a, b)| !a.is_finite() || !b.is_finite()) {
            return Err(ReplayError::NonFinite { frame: frame - 1, what: format!("joint {i}") });
        }
        last.joints = joints.to_vec();
        Ok(())
    }

    /// The scene's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The bodies, in the scene's order.
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
        self.frames.first().map_or(Aabb::new(Vec2::splat(-10.0), Vec2::splat(10.0)), |f| frame_bounds(&self.bodies, f))
    }

    /// The player: one self-contained HTML page with the trace embedded.
    pub fn to_html(&self) -> String {
        let trace = serde_json::to_string(&self.trace()).expect("traces always serialize");
        // JSON has `<` only inside strings, where \u003c means the same; the script element
        // then cannot be closed by the data.
        let trace = trace.replace('<', "\\u003c");
        PLAYER.replacen("__TITLE__", &html_escape(&self.name), 1).replacen("__REPLAY__", &trace, 1)
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
        Trace {
            name: &self.name,
            description: &self.description,
            time_step: self.time_step,
            colors: &PALETTE,
            style: &STYLE,
            bounds: [bounds.lower.x, bounds.lower.y, bounds.upper.x, bounds.upper.y],
            bodies: self.bodies.iter().map(TraceBody::of).collect(),
            frames: self.frames.iter().map(TraceFrame::of).collect(),
        }
    }
}

/// Every shape of `bodies` at the poses of `frame`, with a 5 % margin on each side (at least
/// 1 m across): what a view of the frame fits to.
pub fn frame_bounds(bodies: &[ReplayBody], frame: &Frame) -> Aabb {
    let mut bounds: Option<Aabb> = None;
    for (body, pose) in bodies.iter().zip(&frame.poses) {
        let xf = Transform::new(pose.position, pose.angle);
        for part in body.shapes.iter().flat_map(|s| &s.parts) {
            let aabb = part.aabb(xf);
            bounds = Some(bounds.map_or(aabb, |b| b.union(&aabb)));
        }
    }
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

/// The embedded trace. Poses are flat arrays, three numbers per body (x, y, angle), states a
/// string of one letter per body, contacts and events flat arrays of four numbers (point,
/// normal): the compact forms keep long replays small.
#[derive(Serialize)]
struct Trace<'a> {
    name: &'a str,
    description: &'a str,
    time_step: f32,
    colors: &'static Palette,
    style: &'static Style,
    bounds: [f32; 4],
    bodies: Vec<TraceBody<'a>>,
    frames: Vec<TraceFrame>,
}

#[derive(Serialize)]
struct TraceBody<'a> {
    name: &'a str,
    #[serde(rename = "type")]
    body_type: &'static str,
    bullet: bool,
    continuous: bool,
    shapes: Vec<TraceShape>,
}

impl TraceBody<'_> {
    fn of(body: &ReplayBody) -> TraceBody<'_> {
        TraceBody {
            name: &body.name,
            body_type: body.body_type.name(),
            bullet: body.bullet,
            continuous: body.continuous,
            shapes: body.shapes.iter().map(TraceShape::of).collect(),
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
        Shape::Polygon(p) => {
            let vertices = p.vertices();
            let center = vertices.iter().copied().sum::<Vec2>() / vertices.len() as f32;
            let inner = (0..vertices.len())
                .map(|i| {
                    let (a, b) = (vertices[i], vertices[(i + 1) % vertices.len()]);
                    let edge = (b - a).normalize_or_zero();
                    Vec2::new(edge.y, -edge.x).dot(a - center)
                })
                .fold(f32::MAX, f32::min);
            2.0 * (inner.max(0.0) + p.radius())
        }
        Shape::Segment(_) | Shape::ChainSegment(_) => 0.0,
    }
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

#[derive(Serialize)]
struct TraceFrame {
    #[serde(rename = "t")]
    time: f32,
    #[serde(rename = "p")]
    poses: Vec<f32>,
    #[serde(rename = "s")]
    states: String,
    #[serde(rename = "c", skip_serializing_if = "Vec::is_empty")]
    contacts: Vec<f32>,
    #[serde(rename = "i", skip_serializing_if = "Vec::is_empty")]
    tois: Vec<f32>,
    /// 1 when the contacts were left out.
    #[serde(rename = "x", skip_serializing_if = "is_false")]
    contacts_left_out: bool,
    /// Joints: the anchors on A and B (x, y, x, y each).
    #[serde(rename = "j", skip_serializing_if = "Vec::is_empty")]
    joints: Vec<f32>,
}

impl TraceFrame {
    fn of(frame: &Frame) -> TraceFrame {
        // 0.1 mm and 10 µrad are far below a pixel at any useful zoom, and short to print.
        let meters = |x: f32| round_to(x, 1e4);
        let radians = |x: f32| round_to(x, 1e5);
        let unit = |x: f32| round_to(x, 1e4);
        let flat = |items: &mut dyn Iterator<Item = (Vec2, Vec2)>| {
            items.flat_map(|(p, n)| [meters(p.x), meters(p.y), unit(n.x), unit(n.y)]).collect()
        };
        TraceFrame {
            time: round_to(frame.time, 1e6),
            poses: frame
                .poses
                .iter()
                .flat_map(|p| [meters(p.position.x), meters(p.position.y), radians(p.angle)])
                .collect(),
            states: frame.poses.iter().map(|p| p.state.code()).collect(),
            contacts: flat(&mut frame.contacts.iter().map(|c| (c.point, c.normal))),
            tois: flat(&mut frame.tois.iter().map(|e| (e.point, e.normal))),
            contacts_left_out: frame.contacts_left_out,
            joints: frame
                .joints
                .iter()
                .flat_map(|(a, b)| [meters(a.x), meters(a.y), meters(b.x), meters(b.y)])
                .collect(),
        }
    }
}

/// `x` rounded to a multiple of `1 / scale`, computed in f64 (+ 0.0 turns -0 into 0).
fn round_to(x: f32, scale: f64) -> f32 {
    ((x as f64 * scale).round() / scale) as f32 + 0.0
}

fn is_zero(x: &f32) -> bool {
    *x == 0.0
}

fn is_false(b: &bool) -> bool {
    !b
}

impl fmt::Display for BodyState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BodyState::Awake => "awake",
            BodyState::Asleep => "asleep",
            BodyState::Fast => "fast",
            BodyState::Bullet => "bullet",
        })
    }
}

#[cfg(test)]
mod tests;
