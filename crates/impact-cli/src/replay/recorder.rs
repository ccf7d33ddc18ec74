//! The recorder: any world, drawn through impact2d's debug drawing after each step, made into
//! a [`Replay`].

use std::collections::{HashMap, HashSet};
use std::io::{self, Write};
use std::path::Path;

use impact2d::{
    BodyId, Color, ContactDraw, DebugDraw, DrawOptions, DrawState, ImpactEvent, JointDraw, Shape, ShapeDraw, ShapeId,
    Transform, Vec2, World,
};

use super::{BodyPose, ContactPoint, Frame, Mark, Replay, ReplayBody, ReplayShape, ToiEvent};
use crate::build::SceneWorld;
use crate::scene::ValidScene;

/// Records a world stepped by any program into a [`Replay`], the self-contained HTML player
/// that `impact run --replay` writes.
///
/// Call [`Recorder::record`] after each step (and once before the first, to start from the
/// world as built): every `stride`-th step of the world ([`Recorder::set_stride`], 1 by
/// default) becomes a frame, drawn by [`World::draw`]; the other calls only keep their
/// step's time-of-impact events for the next frame, so none is lost. Bodies are told apart
/// by their [`BodyId`]: one created between two frames appears in the second, one destroyed
/// is gone from it, and one whose shapes changed is a new entry of [`Replay::bodies`] from
/// then on. [`Recorder::finish`] adds the last step if the stride skipped it; the HTML is
/// written by [`Recorder::write_html`], [`Recorder::write_to`] or [`Recorder::to_html`].
///
/// Bodies without shapes draw nothing and are not recorded. Frames hold what the recorder's
/// [`DrawOptions`] ask for ([`Recorder::set_options`]).
#[derive(Clone, Debug)]
pub struct Recorder {
    replay: Replay,
    options: DrawOptions,
    stride: u64,
    contact_budget: usize,
    /// The entry of [`Replay::bodies`] each body in the last frame is drawn as.
    live: HashMap<BodyId, usize>,
    names: HashMap<BodyId, String>,
    /// The impacts of the steps since the last frame.
    pending_tois: Vec<ToiEvent>,
    /// The world step whose impacts were last kept, and the step of the last frame.
    impacts_step: Option<u64>,
    frame_step: Option<u64>,
}

impl Recorder {
    /// A recorder of a replay named `name` (its page's title), whose world steps `time_step`
    /// seconds at a time: a frame of a world that took `n` steps shows the time
    /// `n × time_step` (s).
    pub fn new(name: &str, time_step: f32) -> Recorder {
        Recorder {
            replay: Replay {
                name: name.to_owned(),
                description: String::new(),
                time_step,
                bodies: Vec::new(),
                frames: Vec::new(),
            },
            options: DrawOptions::default(),
            stride: 1,
            contact_budget: usize::MAX,
            live: HashMap::new(),
            names: HashMap::new(),
            pending_tois: Vec::new(),
            impacts_step: None,
            frame_step: None,
        }
    }

    /// A recorder of the world built from `scene` ([`crate::build::build_world`]): the
    /// scene's name, description and time step, its bodies named as in the scene.
    pub fn for_scene(scene: &ValidScene, built: &SceneWorld) -> Recorder {
        let s = scene.scene();
        let mut recorder = Recorder::new(&s.name, s.time_step);
        recorder.replay.description = s.description.clone();
        for (body, &id) in s.bodies.iter().zip(&built.bodies) {
            recorder.set_body_name(id, &body.name);
        }
        recorder
    }

    /// Sets the description (the page shows it over the name).
    pub fn set_description(&mut self, description: &str) {
        self.replay.description = description.to_owned();
    }

    /// Names a body (the name goes with every entry of the body from its next frame on).
    pub fn set_body_name(&mut self, body: BodyId, name: &str) {
        self.names.insert(body, name.to_owned());
    }

    /// Records a frame every `steps` steps of the world (its step count a multiple of
    /// `steps`); 0 counts as 1.
    pub fn set_stride(&mut self, steps: u32) {
        self.stride = u64::from(steps.max(1));
    }

    /// Frames recorded from now on keep their contact points only when they have at most
    /// `points` of them (none otherwise, marked [`Frame::contacts_left_out`]): a pile of
    /// thousands of bodies would otherwise make a replay of hundreds of megabytes. No limit
    /// by default; [`super::CONTACT_BUDGET`] over the expected frames keeps a replay small.
    pub fn set_contact_budget(&mut self, points: usize) {
        self.contact_budget = points;
    }

    /// What frames hold, from the next one on: shapes always; AABBs and transforms (as
    /// [`Mark`]s), contacts, joints and impacts as `options` say. `bounds` is not used: a
    /// replay holds the whole world, and the player zooms.
    pub fn set_options(&mut self, options: DrawOptions) {
        self.options = DrawOptions { shapes: true, bounds: None, ..options };
    }

    /// Call after each step of `world`: takes a frame when the world's step count is a
    /// multiple of the stride (and at the first call), and otherwise keeps the step's
    /// time-of-impact events for the next frame. Calling it twice for the same step takes
    /// no second frame.
    pub fn record(&mut self, world: &World) {
        let step = world.step_count();
        self.keep_impacts(world);
        if self.frame_step.is_none() || (step.is_multiple_of(self.stride) && self.frame_step != Some(step)) {
            self.take_frame(world, self.time_of(step));
        }
    }

    /// Takes a frame of `world` now, at `time` (s), whatever the stride: for worlds stepped
    /// by varying time steps, or frames between steps.
    pub fn record_at(&mut self, world: &World, time: f32) {
        self.keep_impacts(world);
        self.take_frame(world, time);
    }

    /// Takes a frame of `world` unless the last frame is of its current step: the end of a
    /// run whose last step the stride skipped.
    pub fn finish(&mut self, world: &World) {
        let step = world.step_count();
        self.keep_impacts(world);
        if self.frame_step != Some(step) {
            self.take_frame(world, self.time_of(step));
        }
    }

    /// The replay so far.
    pub fn replay(&self) -> &Replay {
        &self.replay
    }

    /// The replay.
    pub fn into_replay(self) -> Replay {
        self.replay
    }

    /// The player page ([`Replay::to_html`]).
    pub fn to_html(&self) -> String {
        self.replay.to_html()
    }

    /// Writes the player page to `out`. Errors: those of writing.
    pub fn write_to(&self, out: &mut impl Write) -> io::Result<()> {
        self.replay.write_to(out)
    }

    /// Writes the player page to `path`. Errors: those of writing the file.
    pub fn write_html(&self, path: &Path) -> io::Result<()> {
        self.replay.write_html(path)
    }

    fn time_of(&self, step: u64) -> f32 {
        (step as f64 * f64::from(self.replay.time_step)) as f32
    }

    /// Keeps the impacts of the world's last step, once per step.
    fn keep_impacts(&mut self, world: &World) {
        let step = world.step_count();
        if self.impacts_step == Some(step) || !self.options.impacts {
            return;
        }
        self.impacts_step = Some(step);
        let mut capture = Capture::default();
        let only_impacts = DrawOptions {
            shapes: false,
            aabbs: false,
            transforms: false,
            contacts: false,
            joints: false,
            bounds: None,
            ..self.options
        };
        world.draw(&mut capture, &only_impacts);
        self.pending_tois.append(&mut capture.tois);
    }

    fn take_frame(&mut self, world: &World, time: f32) {
        let mut capture = Capture::default();
        world.draw(&mut capture, &DrawOptions { impacts: false, ..self.options });
        let frame = self.replay.frames.len();
        let mut drawn = HashSet::with_capacity(capture.bodies.len());
        let mut poses: Vec<(usize, BodyPose)> = Vec::with_capacity(capture.bodies.len());
        for body in &capture.bodies {
            drawn.insert(body.id);
            let entry = match self.live.get(&body.id) {
                Some(&entry) if self.replay.bodies[entry].drawn_as(&body.shapes) => entry,
                old => {
                    if let Some(&old) = old {
                        self.replay.bodies[old].end_frame = Some(frame);
                    }
                    self.replay.bodies.push(ReplayBody {
                        id: body.id,
                        name: self.names.get(&body.id).cloned().unwrap_or_default(),
                        shapes: group_chains(&body.shapes),
                        first_frame: frame,
                        end_frame: None,
                    });
                    self.live.insert(body.id, self.replay.bodies.len() - 1);
                    self.replay.bodies.len() - 1
                }
            };
            let xf = body.transform;
            poses.push((entry, BodyPose { position: xf.p, angle: xf.q.angle(), state: body.state }));
        }
        let bodies = &mut self.replay.bodies;
        self.live.retain(|id, entry| {
            let kept = drawn.contains(id);
            if !kept {
                bodies[*entry].end_frame = Some(frame);
            }
            kept
        });
        poses.sort_by_key(|&(entry, _)| entry);
        let contacts_left_out = capture.contacts.len() > self.contact_budget;
        if contacts_left_out {
            capture.contacts.clear();
        }
        self.replay.frames.push(Frame {
            time,
            bodies: poses.iter().map(|&(entry, _)| entry).collect(),
            poses: poses.into_iter().map(|(_, pose)| pose).collect(),
            contacts: capture.contacts,
            tois: std::mem::take(&mut self.pending_tois),
            contacts_left_out,
            joints: capture.joints,
            marks: capture.marks,
        });
        self.frame_step = Some(world.step_count());
    }
}

impl ReplayBody {
    /// Whether the body drawn with `shapes` is this entry: the same shapes, the same sensors.
    fn drawn_as(&self, shapes: &[(ShapeId, Shape, bool)]) -> bool {
        let mine = self.shapes.iter().flat_map(|s| s.ids.iter().map(move |&id| (id, s.sensor)));
        mine.eq(shapes.iter().map(|&(id, _, sensor)| (id, sensor)))
    }
}

/// The shapes of a body as a replay keeps them: chain segments attached one after the other,
/// each starting where the previous one ends (until one closes the loop), as one chain.
fn group_chains(shapes: &[(ShapeId, Shape, bool)]) -> Vec<ReplayShape> {
    let mut out: Vec<ReplayShape> = Vec::new();
    for &(id, shape, sensor) in shapes {
        if let (Shape::ChainSegment(link), Some(last)) = (&shape, out.last_mut())
            && last.sensor == sensor
            && continues(&last.parts, link.segment().point1())
        {
            last.ids.push(id);
            last.parts.push(shape);
            continue;
        }
        out.push(ReplayShape { ids: vec![id], parts: vec![shape], sensor });
    }
    out
}

/// Whether a chain link starting at `start` continues the chain `parts`: they are chain
/// links, the last one ends at `start`, and they do not close yet.
fn continues(parts: &[Shape], start: Vec2) -> bool {
    let (Some(Shape::ChainSegment(first)), Some(Shape::ChainSegment(last))) = (parts.first(), parts.last()) else {
        return false;
    };
    last.segment().point2() == start && last.segment().point2() != first.segment().point1()
}

/// A body as one frame draws it.
#[derive(Debug)]
struct DrawnBody {
    id: BodyId,
    transform: Transform,
    state: DrawState,
    shapes: Vec<(ShapeId, Shape, bool)>,
}

/// What [`World::draw`] drew in one call: a [`DebugDraw`] that keeps elements as data.
#[derive(Debug, Default)]
struct Capture {
    bodies: Vec<DrawnBody>,
    contacts: Vec<ContactPoint>,
    tois: Vec<ToiEvent>,
    joints: Vec<(Vec2, Vec2)>,
    marks: Vec<Mark>,
}

impl DebugDraw for Capture {
    fn draw_polygon(&mut self, vertices: &[Vec2], color: Color) {
        self.marks.push(Mark::Polygon { vertices: vertices.to_vec(), color });
    }

    fn draw_solid_polygon(&mut self, vertices: &[Vec2], radius: f32, color: Color) {
        self.marks.push(Mark::SolidPolygon { vertices: vertices.to_vec(), radius, color });
    }

    fn draw_circle(&mut self, center: Vec2, radius: f32, color: Color) {
        self.marks.push(Mark::Circle { center, radius, color });
    }

    fn draw_solid_circle(&mut self, transform: Transform, radius: f32, color: Color) {
        self.marks.push(Mark::SolidCircle { transform, radius, color });
    }

    fn draw_solid_capsule(&mut self, p1: Vec2, p2: Vec2, radius: f32, color: Color) {
        self.marks.push(Mark::SolidCapsule { p1, p2, radius, color });
    }

    fn draw_segment(&mut self, p1: Vec2, p2: Vec2, color: Color) {
        self.marks.push(Mark::Segment { p1, p2, color });
    }

    fn draw_point(&mut self, point: Vec2, size: f32, color: Color) {
        self.marks.push(Mark::Point { point, size, color });
    }

    fn draw_transform(&mut self, transform: Transform) {
        self.marks.push(Mark::Transform(transform));
    }

    /// A body's shapes come one after the other: the first starts the body.
    fn draw_shape(&mut self, shape: &ShapeDraw<'_>) {
        let entry = (shape.shape, *shape.geometry, shape.sensor);
        match self.bodies.last_mut() {
            Some(body) if body.id == shape.body => body.shapes.push(entry),
            _ => self.bodies.push(DrawnBody {
                id: shape.body,
                transform: shape.transform,
                state: shape.state,
                shapes: vec![entry],
            }),
        }
    }

    fn draw_contact(&mut self, contact: &ContactDraw, _normal_length: f32) {
        self.contacts.push(ContactPoint { point: contact.point, normal: contact.normal });
    }

    fn draw_joint(&mut self, joint: &JointDraw) {
        self.joints.push((joint.anchor_a, joint.anchor_b));
    }

    fn draw_impact(&mut self, impact: &ImpactEvent, _normal_length: f32) {
        self.tois.push(ToiEvent { point: impact.point, normal: impact.normal });
    }
}
