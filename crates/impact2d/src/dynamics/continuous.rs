//! Continuous collision: fast bodies, bullets and spinning bodies do not pass through shapes.
//!
//! Runs after the solver has moved the bodies (each with its sweep from the pose at the start
//! of the step to the pose at its end) and before sleep. Source: Catto, "Continuous
//! Collision", GDC 2013 ("move to the time of impact and perform a sub-step"), with the
//! fast-body test, core shapes and chain early-outs of Box2D v3.
//!
//! 1. **Fast bodies**: a dynamic body whose motion in the step (center displacement plus
//!    rotation times its largest extent) exceeds its safety factor ([`super::BodyDef::safety_factor`],
//!    half by default) times its smallest extent, a bullet moving
//!    more than the linear slop, or a moving body that started the step deep in a static or
//!    kinematic shape (`CONTINUOUS_DEEP_FRACTION` of its smallest extent), which the contact
//!    solver may push through a thin wall. In [`ContinuousMode::NoTimeLoss`], kinematic
//!    bodies that pass the same fast-body test are swept too, against dynamic shapes, each
//!    pair only when the push exceeds what the dynamic body absorbs.
//! 2. **Candidates**: every shape of an awake body that moves gets its swept box over the
//!    step: its box at the end moved back to the start and grown by the turn times the body's
//!    largest extent (cut by the box of the circle about the center of mass that holds it in
//!    any rotation), grown by the TOI target, moving with the center. One pass over the
//!    dynamic tree (a walk, or a scan of every proxy when the fast sweeps cover much of it)
//!    adds the dynamic shapes that stand still near the fast sweeps, with their fat boxes.
//!    A banded sort and sweep of these boxes ([`MovingSet`]) gives the pairs with a fast shape; cheapest tests first, a pair is
//!    dropped when the relative motion of its bodies is too small for either to pass the
//!    other (a flying pile: the contact solver's job), by filter, or when the boxes never
//!    touch at the same time (swept-AABB time of impact, both moving). Static and kinematic
//!    shapes standing still come from one tree query per fast shape (and the still dynamic
//!    ones too when the walk would visit over [`STILL_GATHER_LIMIT`] proxies per fast shape).
//!    A pair whose centers never come within the sum of the bodies' largest extents skips the
//!    time of impact.
//! 3. **Time of impact**: [`time_of_impact`] with both sweeps (rotation-safe, so no rotation
//!    clamp is needed). A pair already touching at the start is tried again with one dynamic
//!    body's shape shrunk to its core (then its centroid) against the other's whole shape,
//!    the smaller body's when both are dynamic: it is an impact only when the core meets the
//!    other shape, that is when a body is about to pass through (no time of impact when the
//!    bounding circles never meet); a dynamic body touching a static or kinematic one and
//!    pushing into it beyond what the contact solver absorbs (or at all, after an impact
//!    earlier in the step) is an impact at once. Two polygons first get a separating axis
//!    test at the start, whole and again
//!    shrunk before the cores' time of impact: polygons that overlap, or whose separation is
//!    surely within the target band, touch (the time of impact would only say so), and a gap
//!    that the bodies' approach along the axis and their turning cannot close to the target
//!    (or that stays open along that axis at the end, less how far a turning vertex strays
//!    from its chord) is no impact. A body starting behind a one-sided chain segment ignores
//!    it.
//!    A pair's time of impact waits in the event heap at a lower bound on it (the start gap
//!    over the fastest the bodies can close it) and is computed when it comes up: by then an
//!    earlier impact has often sent one of the bodies elsewhere, and it is never needed.
//! 4. **Impacts in time order** (ties by pair key): both bodies are put at their poses at
//!    the time of impact. In [`ContinuousMode::NoTimeLoss`] (the default), a small impulse
//!    solve on the manifold there (restitution and friction) gives new velocities, the bodies
//!    move on for the rest of the step, and their new motion joins the moving set and is swept
//!    again (against the moving shapes' whole boxes over the step); a body that
//!    reaches [`WorldDef::max_impacts_per_body`] stops at its last impact pose and is swept
//!    again standing there (later impacts change its velocity, not its pose). A body hit by a
//!    moving kinematic body that would catch it again within the step (a turning paddle), or
//!    that reached the cap, is carried in the kinematic body's frame. In
//!    [`ContinuousMode::StopAtImpact`] (Box2D v3 and rapier), fast bodies stop at the time of
//!    impact and keep their velocity.
//! 5. The bodies take their final poses; their proxies move in the broad phase; the sensors
//!    that swept bodies crossed within the step get their events (`sensor_sweep.rs`).

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::body::Body;
use super::contact::{mix_friction, mix_restitution};
use super::events::ContactHitEvent;
use super::handles::ShapeId;
use super::handles::{NULL, Slots};
use super::moving_set::{Motion, MovingSet, SweptBox};
use super::world::{World, WorldDef};
use crate::broad_phase::{Filter, ProxyKind};
use crate::geometry::{Aabb, Shape};
use crate::math::{Rot, Sweep, Transform, Vec2, cos_sin_lanes, mean};
use crate::narrow_phase::{Manifold, collide};
use crate::query::{
    CoreSeparation, DistanceInput, ShapeProxy, SimplexCache, ToiOutput, ToiState, core_separation, shape_distance,
    time_of_impact,
};
use crate::settings::{
    BULLET_MIN_MOTION, CONTINUOUS_CORE_FRACTION, CONTINUOUS_DEEP_FRACTION, LINEAR_SLOP, SPECULATIVE_DISTANCE,
    STILL_GATHER_LIMIT, TOI_SOLVER_ITERATIONS, TOI_TARGET, TOI_TOLERANCE,
};
use glam::Vec4;

/// What continuous collision does with the rest of a step after an impact.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ContinuousMode {
    /// The impact is resolved at the time of impact (a small impulse solve with restitution
    /// and friction) and the bodies move on with their new velocities for the rest of the
    /// step, so no time is lost (Catto, GDC 2013: "move to the time of impact and perform a
    /// sub-step").
    #[default]
    NoTimeLoss,
    /// A fast body stops at the time of impact, keeps its velocity and loses the rest of the
    /// step; the contact solver resolves the impact at the next step (Box2D v3 and rapier).
    /// Cheaper, but a bouncing body visibly hitches. Kinematic bodies are not swept in this
    /// mode (a stop cannot hold a body in front of a pusher that goes on).
    StopAtImpact,
}

/// What continuous collision did in the last step ([`World::continuous_stats`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ContinuousStats {
    /// Bodies found fast (bullets that moved, and deep bodies), whose motion was swept.
    pub fast_bodies: u32,
    /// Of those, the bodies swept only because they started the step deep in a static or
    /// kinematic shape ([`CONTINUOUS_DEEP_FRACTION`] of their smallest extent).
    pub deep_bodies: u32,
    /// Kinematic bodies swept against the dynamic bodies in their way (they moved more than
    /// their safety factor times their smallest extent; a pair whose push the dynamic body
    /// absorbs is left to the contact solver). Not counted in `fast_bodies`.
    pub kinematic_bodies: u32,
    /// Candidate pairs that survived the swept-AABB culling (all sweeps, re-sweeps included).
    pub swept_pairs: u32,
    /// Time of impact queries run (core-shape retries included).
    pub toi_calls: u32,
    /// Outer iterations (closest-feature evaluations) of those queries, summed.
    pub toi_iterations: u32,
    /// Root-finder iterations of those queries, summed.
    pub toi_root_iterations: u32,
    /// Impacts resolved, in time order.
    pub impacts: u32,
    /// Impulse sub-steps solved at times of impact ([`ContinuousMode::NoTimeLoss`] only).
    pub substeps: u32,
    /// Impacts after which a body reached the impact cap and stopped for the rest of the step.
    pub capped: u32,
    /// Impacts after which a moving kinematic body carried the dynamic body it hit for the
    /// rest of the step (it would have caught the body again, or the body reached the cap).
    pub carried: u32,
}

/// An impact continuous collision resolved in the last step ([`World::impact_events`]), in
/// time order: where the time of impact found two shapes meeting.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ImpactEvent {
    /// The shape with the smaller handle.
    pub shape_a: ShapeId,
    /// The other shape.
    pub shape_b: ShapeId,
    /// The time of impact as a fraction of the step, in [0, 1].
    pub fraction: f32,
    /// The contact point (world, meters) at the time of impact; zero when the query ran out
    /// of iterations before finding one.
    pub point: Vec2,
    /// The contact normal from A to B (unit; zero with the point).
    pub normal: Vec2,
}

/// The motion of a body that continuous collision follows: from (`c0`, `a0`) at the
/// fraction `t0` of the step to (`c1`, `a1`) at its end.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct Track {
    body: u32,
    /// Where the body was at the start of the step (center, angle).
    start_c: Vec2,
    start_a: f32,
    t0: f32,
    c0: Vec2,
    a0: f32,
    c1: Vec2,
    a1: f32,
    /// Bumped whenever the motion changes, so older impact events go stale.
    version: u32,
    /// The version of the motion the body's newest box in the moving set holds (its older
    /// boxes hold motions it no longer follows).
    boxed: u32,
    impacts: u32,
    fast: bool,
    changed: bool,
    /// The kinematic body carrying this one for the rest of the step (`NULL` if none): the
    /// two move as one, so their pair needs no time of impact.
    carrier: u32,
}

impl Track {
    /// The track of a body's whole motion in the step.
    fn whole_step(body: u32, s: &Sweep, fast: bool) -> Track {
        Track {
            body,
            start_c: s.c1,
            start_a: s.a1,
            t0: 0.0,
            c0: s.c1,
            a0: s.a1,
            c1: s.c2,
            a1: s.a2,
            version: 0,
            boxed: 0,
            impacts: 0,
            fast,
            changed: false,
            carrier: NULL,
        }
    }

    /// Whether continuous collision stopped the body earlier in the step: it stands still
    /// for the rest of it.
    fn stopped(&self) -> bool {
        self.changed && self.c0 == self.c1 && self.a0 == self.a1
    }

    /// The sweep of the rest of the step from the fraction `t` (`t >= t0`).
    fn sweep_from(&self, local_center: Vec2, t: f32) -> Sweep {
        let f = if self.t0 < 1.0 { ((t - self.t0) / (1.0 - self.t0)).clamp(0.0, 1.0) } else { 0.0 };
        Sweep {
            local_center,
            c1: self.c0 + f * (self.c1 - self.c0),
            c2: self.c1,
            a1: self.a0 + f * (self.a1 - self.a0),
            a2: self.a1,
        }
    }
}

/// A possible impact: shapes `shape_a` < `shape_b` reach the target gap at fraction `t`; or,
/// when `pending`, a pair whose time of impact is still to compute, not before `t`.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct Event {
    t: f32,
    key: u64,
    shape_a: u32,
    shape_b: u32,
    /// The versions of the bodies' motions the time was computed with.
    versions: [u32; 2],
    /// Where the time of impact found the contact (world, meters) and its normal from A to
    /// B; zero when the query ran out of iterations.
    point: Vec2,
    normal: Vec2,
    /// The impact is between the cores or the centroids: the shapes overlap already.
    core: bool,
    /// For a pair whose time of impact waits: the level of the query. It is computed when
    /// the event comes up, as an impact earlier in the step often sends one of the bodies
    /// elsewhere first.
    pending: Option<Level>,
}

/// A level of a pair's time of impact: the whole shapes (depth 0), or one dynamic body's
/// shape shrunk to its core (depth 1, [`CONTINUOUS_CORE_FRACTION`]) or to its centroid (depth
/// 2) against the other's whole shape (see `World::advance`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct Level {
    depth: u8,
    /// Which shape is shrunk: 0 shape A, 1 shape B (unused at depth 0).
    side: u8,
}

impl Level {
    const WHOLE: Level = Level { depth: 0, side: 0 };

    /// The scales of shapes A and B at this level (1 keeps a shape whole).
    fn scales(self) -> [f32; 2] {
        let fraction = [1.0, CONTINUOUS_CORE_FRACTION, 0.0][self.depth as usize];
        if self.side == 0 { [fraction, 1.0] } else { [1.0, fraction] }
    }

    /// The level to try when this one touches at the start: from the whole shapes, the core
    /// of the body on `side` (0 A, 1 B); from a core, its centroid; none after that.
    fn deeper(self, side: u8) -> Option<Level> {
        match self.depth {
            0 => Some(Level { depth: 1, side }),
            1 => Some(Level { depth: 2, side: self.side }),
            _ => None,
        }
    }
}

impl PartialEq for Event {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Event {}

impl PartialOrd for Event {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Event {
    /// Reversed, so the max-heap pops the earliest event (ties by pair key, then shapes).
    fn cmp(&self, other: &Self) -> Ordering {
        let key = |e: &Event| (e.t.to_bits(), e.key, e.shape_a, e.shape_b);
        key(other).cmp(&key(self))
    }
}

/// The scratch state of continuous collision, kept between steps.
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Continuous {
    pub stats: ContinuousStats,
    /// The bodies the last step's continuous collision moved or gave new velocities (changed
    /// tracks) and the fast kinematic bodies, for `World::hold_bodies`.
    pub moved: Vec<u32>,
    /// The impacts of the last step, in the order they were resolved.
    pub impacts: Vec<ImpactEvent>,
    /// By body index: the body's track, or `NULL`.
    slot: Vec<u32>,
    tracks: Vec<Track>,
    events: BinaryHeap<Event>,
    /// The swept boxes of the moving shapes, and by the same index whose they are.
    moving: MovingSet,
    movers: Vec<Mover>,
    /// The awake bodies that move in the step, in the awake order.
    moving_bodies: Vec<u32>,
    /// By shape index: the shape's body moves from the start of the step, so the shape is
    /// in `moving` (the broad phase does not hold its motion). By shape, so a tree walk
    /// tells without reading the shape's record.
    is_mover: Vec<bool>,
    /// The box in which every dynamic shape standing still is in `moving` (gathered from
    /// the tree), if any: re-sweeps inside it need not query the dynamic tree.
    gathered: Option<Aabb>,
    /// Candidate pairs of a sweep: (key, shape, shape), the smaller shape first.
    pairs: Vec<(u64, u32, u32)>,
    /// The tracks to sweep next, all starting at one time.
    flagged: Vec<u32>,
    /// The kinematic bodies swept in the step (by body index).
    kinematic: Vec<u32>,
    /// Bodies that start the step deep in a static or kinematic shape (by body index, from
    /// the narrow phase; may repeat).
    pub deep: Vec<u32>,
    /// The pairs (shape pair keys, sorted) that pre-solve disabled in this step: their
    /// contacts in the narrow phase's pass, and impacts refused since. Continuous collision
    /// neither stops their bodies against each other nor asks about them again this step.
    pub disabled: Vec<u64>,
}

impl Continuous {
    /// The bodies swept in the step: those with a track, then the fast kinematic ones.
    pub(crate) fn swept_bodies(&self) -> impl Iterator<Item = u32> + '_ {
        self.tracks.iter().map(|t| t.body).chain(self.kinematic.iter().copied())
    }

    /// Whether continuous collision stopped `body` earlier in the step (see `Track::stopped`).
    fn is_stopped(&self, body: u32) -> bool {
        self.track_of(body).is_some_and(|i| self.tracks[i].stopped())
    }

    pub(crate) fn track_of(&self, body: u32) -> Option<usize> {
        match self.slot.get(body as usize) {
            Some(&i) if i != NULL => Some(i as usize),
            _ => None,
        }
    }
}

/// A body as the impulse solve at a time of impact sees it.
#[derive(Clone, Copy, Debug)]
struct ImpactBody {
    v: Vec2,
    w: f32,
    inv_mass: f32,
    inv_inertia: f32,
    center: Vec2,
}

impl ImpactBody {
    fn velocity_at(&self, r: Vec2) -> Vec2 {
        self.v + Vec2::new(-self.w * r.y, self.w * r.x)
    }
}

/// The smallest and largest extent (meters) of a shape about `center` (body coordinates):
/// the smallest distance from its centroid to its surface, and the radius of the circle about
/// `center` holding it. Segments have no inside: their smallest extent is the linear slop.
pub(crate) fn shape_extents(shape: &Shape, center: Vec2) -> (f32, f32) {
    let proxy = ShapeProxy::from_shape(shape);
    let max = proxy.max_distance_from(center) + proxy.radius();
    let min = match shape {
        Shape::Circle(c) => c.radius(),
        Shape::Capsule(c) => c.radius(),
        Shape::Polygon(p) => {
            let c = p.centroid();
            let inner = p.vertices().iter().zip(p.normals()).map(|(v, n)| n.dot(*v - c)).fold(f32::MAX, f32::min);
            inner + p.radius()
        }
        Shape::Segment(_) | Shape::ChainSegment(_) => LINEAR_SLOP,
    };
    (min.max(LINEAR_SLOP), max)
}

/// The dynamic body of a contact between bodies `a` and `b` (indices `ia` and `ib`) when
/// the other is static or kinematic and the manifold is deeper than
/// [`CONTINUOUS_DEEP_FRACTION`] of the dynamic body's smallest extent (see
/// [`Continuous::deep`]).
pub(crate) fn deep_in_fixed_shape(a: &Body, ia: u32, b: &Body, ib: u32, m: &Manifold) -> Option<u32> {
    // The smallest extent is at least the linear slop: most contacts stop here.
    let deepest = m.points().iter().map(|p| p.separation).fold(0.0, f32::min);
    if deepest >= -CONTINUOUS_DEEP_FRACTION * LINEAR_SLOP || a.is_dynamic() == b.is_dynamic() {
        return None;
    }
    let (body, index) = if a.is_dynamic() { (a, ia) } else { (b, ib) };
    (deepest < -CONTINUOUS_DEEP_FRACTION * body.min_extent).then_some(index)
}

/// Whether B's copy of `point` (world, meters) moves toward A's along `normal` (from A to B)
/// at the start of the sweeps, by more than the TOI tolerance over them: the motion of each
/// body's center plus its turn about it (a turning body's center may stand still while its
/// face sweeps into the other). The tolerance keeps an approach that an impact just stopped,
/// left at a rounding error, from counting as one.
fn approaching(sweep_a: &Sweep, sweep_b: &Sweep, point: Vec2, normal: Vec2) -> bool {
    let velocity = |s: &Sweep| {
        let arm = point - s.c1;
        (s.c2 - s.c1) + (s.a2 - s.a1) * Vec2::new(-arm.y, arm.x)
    };
    (velocity(sweep_b) - velocity(sweep_a)).dot(normal) < -TOI_TOLERANCE
}

/// Whether a centroid that touches the other (whole) shape at the start of the sweeps (`out`,
/// the centroid level of `level.side`'s body) goes on into it: its copies approach at the
/// start ([`approaching`]), or its gap closes when measured in the whole body's frame
/// ([`gap_closes`]). The second sees what the first misses: a centroid moving along a
/// spinning plate drifts across it in the plate's turning frame (a ball 1 cm from a plate
/// turning 0.43 rad in the step, sliding 12 cm outward along it, ended 3.5 cm on the
/// other side while its velocity at the start was leaving the plate: spinners seed 193).
fn centroid_closes(level: Level, s: &PairSweeps, out: &ToiOutput) -> bool {
    let (a, b) = (&s.sweep_a, &s.sweep_b);
    approaching(a, b, out.point, out.normal)
        || if level.side == 1 {
            gap_closes(a, b, out.point, out.normal)
        } else {
            gap_closes(b, a, out.point, -out.normal)
        }
}

/// The shape's proxy shrunk to `fraction` about the mean of its points ([`mean`]; 0 gives that
/// point).
fn core_proxy(proxy: &ShapeProxy, fraction: f32) -> ShapeProxy {
    let points = proxy.points();
    let centroid = mean(points);
    if fraction == 0.0 {
        return ShapeProxy::new(&[centroid], 0.0).unwrap_or(*proxy);
    }
    let mut core = [Vec2::ZERO; crate::settings::MAX_POLYGON_VERTICES];
    for (c, &p) in core.iter_mut().zip(points) {
        *c = centroid + fraction * (p - centroid);
    }
    ShapeProxy::new(&core[..points.len()], fraction * proxy.radius()).unwrap_or(*proxy)
}

/// The center distance (meters) below which two proxies moved by their sweeps may come
/// within the TOI target band: the radii of the circles about each center of rotation that
/// hold the proxy (points in body coordinates, inflated by the radius) whatever it turns.
fn core_reach(proxy_a: &ShapeProxy, sweep_a: &Sweep, proxy_b: &ShapeProxy, sweep_b: &Sweep) -> f32 {
    let extent = |p: &ShapeProxy, s: &Sweep| p.max_distance_from(s.local_center) + p.radius();
    extent(proxy_a, sweep_a) + extent(proxy_b, sweep_b) + TOI_TARGET + TOI_TOLERANCE
}

/// Whether a sweep moves at all.
fn sweep_moves(s: &Sweep) -> bool {
    s.c1 != s.c2 || s.a1 != s.a2
}

/// Whether a kinematic body is swept against the dynamic bodies in its way: awake, with shapes,
/// and moving (its center, or its farthest point by the turn) more than the safety factor
/// times its smallest extent in the step, the fast-body test of a dynamic body. A slower one
/// cannot carry a body's center past its middle in a step: what it sinks into, the contact
/// solver and the deep-body test push out on the side it came from. Which pairs a fast one
/// pushes faster than the dynamic body absorbs is decided per pair ([`kinematic_push_is_slow`]).
fn is_fast_kinematic(b: &Body) -> bool {
    let s = &b.sweep;
    let motion = (s.c2 - s.c1).length() + (s.a2 - s.a1).abs() * b.max_extent;
    b.is_kinematic() && b.shape_count > 0 && b.is_awake() && motion > b.safety_factor * b.min_extent
}

impl World {
    /// Continuous collision for the step of `dt` seconds just solved (see the module docs).
    pub(crate) fn solve_continuous(&mut self, dt: f32) {
        let mut cc = std::mem::take(&mut self.continuous);
        cc.stats = ContinuousStats::default();
        cc.impacts.clear();
        if self.def.enable_continuous && self.find_fast_bodies(&mut cc) {
            self.sweep_fast_bodies(&mut cc);
            while let Some(event) = cc.events.pop() {
                if !self.is_current(&cc, &event) || cc.disabled.binary_search(&event.key).is_ok() {
                    continue;
                }
                match event.pending {
                    Some(level) => self.expand(&mut cc, &event, level),
                    None => self.resolve(&mut cc, &event, dt),
                }
            }
            self.finish_tracks(&mut cc);
            if self.sensor_shapes > 0 {
                self.sweep_sensors(&cc);
            }
        }
        cc.moved.clear();
        cc.moved.extend(cc.tracks.iter().filter(|t| t.changed).map(|t| t.body).chain(cc.kinematic.iter().copied()));
        for track in &cc.tracks {
            cc.slot[track.body as usize] = NULL;
        }
        for m in &cc.movers {
            cc.is_mover[m.shape as usize] = false;
        }
        cc.tracks.clear();
        cc.kinematic.clear();
        cc.events.clear();
        cc.movers.clear();
        cc.moving.clear();
        self.continuous = cc;
    }

    /// Tracks the fast bodies and lists the awake bodies that move; true when some body is
    /// fast.
    fn find_fast_bodies(&mut self, cc: &mut Continuous) -> bool {
        cc.slot.resize(self.bodies.items.len(), NULL);
        cc.moving_bodies.clear();
        for k in 0..self.awake.len() {
            if let Some(&ahead) = self.awake.get(k + PREFETCH_AHEAD) {
                prefetch(&self.bodies[ahead]);
            }
            let index = self.awake[k];
            let b = &self.bodies[index];
            let s = &b.sweep;
            if sweep_moves(s) {
                cc.moving_bodies.push(index);
            }
            let motion = (s.c2 - s.c1).length() + (s.a2 - s.a1).abs() * b.max_extent;
            if self.def.continuous_mode == ContinuousMode::NoTimeLoss && is_fast_kinematic(b) {
                cc.stats.kinematic_bodies += 1;
                cc.kinematic.push(index);
                self.bodies[index].fast_step = self.step_count() + 1;
                continue;
            }
            let fast = b.is_dynamic()
                && b.shape_count > 0
                && if b.bullet {
                    motion > BULLET_MIN_MOTION
                } else {
                    b.continuous && motion > b.safety_factor * b.min_extent
                };
            if fast {
                cc.stats.fast_bodies += 1;
                cc.slot[index as usize] = cc.tracks.len() as u32;
                cc.tracks.push(Track::whole_step(index, s, true));
                self.bodies[index].fast_step = self.step_count() + 1;
            }
        }
        self.track_deep_bodies(cc);
        cc.stats.fast_bodies + cc.stats.kinematic_bodies > 0
    }

    /// Makes fast the moving bodies that started the step deep in a static or kinematic
    /// shape, however slowly they move: their centers must not pass the shape either.
    fn track_deep_bodies(&mut self, cc: &mut Continuous) {
        cc.deep.sort_unstable();
        cc.deep.dedup();
        for k in 0..cc.deep.len() {
            let index = cc.deep[k];
            let b = &self.bodies[index];
            if !(b.is_awake() && (b.bullet || b.continuous) && sweep_moves(&b.sweep)) {
                continue;
            }
            match cc.track_of(index) {
                Some(i) if cc.tracks[i].fast => continue,
                Some(i) => cc.tracks[i].fast = true,
                None => {
                    cc.slot[index as usize] = cc.tracks.len() as u32;
                    cc.tracks.push(Track::whole_step(index, &b.sweep, true));
                }
            }
            cc.stats.fast_bodies += 1;
            cc.stats.deep_bodies += 1;
            self.bodies[index].fast_step = self.step_count() + 1;
        }
    }

    /// Finds the candidate pairs of the fast bodies over the whole step and queues their
    /// impacts: moving shapes, and the still dynamic ones near the fast sweeps, from the sort
    /// and sweep of their swept boxes ([`MovingSet`]); static and kinematic shapes standing
    /// still (and the still dynamic ones, when gathering them would visit too much of the
    /// tree) from one broad-phase query per fast shape.
    fn sweep_fast_bodies(&mut self, cc: &mut Continuous) {
        self.collect_moving(cc);
        let still_gathered = self.collect_still_dynamic(cc);
        let movers = &cc.movers;
        cc.moving.sort(|i| movers[i].fast);
        cc.pairs.clear();
        let (pairs, movers, boxes, bodies) = (&mut cc.pairs, &cc.movers, &cc.moving.boxes, &self.bodies);
        // A fast kinematic body and a dynamic one that is not fast: the push may be the
        // contact solver's (a turning drum past the boxes inside).
        let held = |k: &Mover, d: &Mover| {
            // The movers' flags first: most pairs are of dynamic bodies, whose records stay unread.
            k.kinematic && !d.kinematic && !d.fast && {
                let (kb, db) = (&bodies[k.body], &bodies[d.body]);
                db.is_dynamic() && kinematic_push_is_slow(kb, &kb.sweep, db, &db.sweep)
            }
        };
        // The set has dropped the pairs that move together (most neighbors in a flying pile).
        cc.moving.overlapping_pairs(|i, j| {
            let (a, b) = (&movers[i as usize], &movers[j as usize]);
            let candidate = a.body != b.body
                && a.filter.should_pair(&b.filter)
                && !held(a, b)
                && !held(b, a)
                && boxes[i as usize].may_meet(&boxes[j as usize]);
            if candidate {
                pairs.push(pair_of(a.shape, b.shape));
            }
        });
        let (kinds, count) = self.still_kinds(if still_gathered { &ProxyKind::ALL[..2] } else { &ProxyKind::ALL });
        // A kinematic body meets only dynamic shapes: the still ones, when not gathered.
        let dynamic = if still_gathered { &[][..] } else { &ProxyKind::ALL[2..] };
        let (dynamic_kinds, dynamic_count) = self.still_kinds(dynamic);
        for i in 0..cc.movers.len() {
            if cc.movers[i].fast {
                let (shape, swept) = (cc.movers[i].shape, cc.moving.boxes[i]);
                let kinds = if self.bodies[cc.movers[i].body].is_dynamic() {
                    &kinds[..count]
                } else {
                    &dynamic_kinds[..dynamic_count]
                };
                if !kinds.is_empty() {
                    self.query_still(cc, shape, &swept, kinds);
                }
            }
        }
        self.queue_pairs(cc);
    }

    /// Puts the shapes of every body that moves in the step into the moving set, each
    /// with a box at the start that holds the shape all along the step once moved with the
    /// center (see below), grown by the target gap, and the motion of its center.
    fn collect_moving(&self, cc: &mut Continuous) {
        cc.moving.clear();
        cc.movers.clear();
        cc.is_mover.resize(self.colliders.items.len(), false);
        for k in 0..cc.moving_bodies.len() {
            // The records are read in the awake bodies' order, which is not theirs: ask for
            // those a few bodies ahead (a body's, then its first shape's) so they are in by then.
            if let Some(&ahead) = cc.moving_bodies.get(k + 2 * PREFETCH_AHEAD) {
                prefetch(&self.bodies[ahead]);
            }
            if let Some(&ahead) = cc.moving_bodies.get(k + PREFETCH_AHEAD) {
                let head = self.bodies[ahead].shape_head;
                if head != NULL {
                    prefetch(&self.colliders[head]);
                }
            }
            let index = cc.moving_bodies[k];
            let b = &self.bodies[index];
            let s = &b.sweep;
            let fast = cc.track_of(index).is_some() || b.fast_step == self.step_count() + 1 && b.is_kinematic();
            let (motion, displacement) = (motion_of(b, s), s.c2 - s.c1);
            let mut shape = b.shape_head;
            while shape != NULL {
                let c = &self.colliders[shape];
                if !c.sensor {
                    // Turning by at most |a2 - a1| moves a point at most that times the
                    // largest extent away from where the translation alone would take it, so
                    // the end box moved back and grown by that holds the shape all along; so
                    // does the circle about the center that holds it in any rotation.
                    let turn = motion.spin;
                    let start = c.aabb.translated(-displacement).enlarged(turn);
                    let circle = Aabb::new(s.c1 - Vec2::splat(b.max_extent), s.c1 + Vec2::splat(b.max_extent));
                    let start = if turn > 0.0 { intersection(&start, &circle) } else { start };
                    cc.moving.push(SweptBox::new(start.enlarged(TOI_TARGET), displacement), motion);
                    cc.is_mover[shape as usize] = true;
                    cc.movers.push(Mover {
                        shape,
                        body: index,
                        fast,
                        filter: c.filter,
                        kinematic: b.is_kinematic(),
                        version: 0,
                    });
                }
                shape = c.next;
            }
        }
    }

    /// Adds to the moving set the dynamic shapes that stand still all step (asleep, or awake
    /// and not moving) in the box holding every fast sweep, with their fat boxes, from one
    /// pass over the dynamic tree: in a flying pile this replaces a tree query per fast shape
    /// that visits mostly moving shapes. The pass walks the tree, or, when the box covers
    /// [`SCAN_COVER`] of the tree's, reads every proxy's box in slot order (the walk would
    /// visit most of the tree, each node a cache miss). Gives up (false, the set unchanged)
    /// when the pass meets more proxies than [`STILL_GATHER_LIMIT`] per fast shape, where
    /// those queries are cheaper (a few fast bodies far apart in a large world).
    fn collect_still_dynamic(&self, cc: &mut Continuous) -> bool {
        let (mut reach, mut fast) = (None::<Aabb>, 0usize);
        for (m, b) in cc.movers.iter().zip(&cc.moving.boxes) {
            if m.fast {
                reach = Some(reach.map_or(b.sweep, |r| r.union(&b.sweep)));
                fast += 1;
            }
        }
        cc.gathered = None;
        let Some(reach) = reach else { return true };
        let (first, budget) = (cc.moving.boxes.len(), fast.saturating_mul(STILL_GATHER_LIMIT));
        let (mut visited, colliders, bodies, is_mover) = (0usize, &self.colliders, &self.bodies, &cc.is_mover);
        let (moving, movers) = (&mut cc.moving, &mut cc.movers);
        let tree = self.broad_phase.tree(ProxyKind::Dynamic);
        let gather = |_: u32, fat: &Aabb, user: u64| {
            visited += 1;
            let shape = user as u32;
            // Most shapes near fast sweeps move: known without reading their records.
            if is_mover[shape as usize] {
                return visited <= budget;
            }
            let c = &colliders[shape];
            if !c.sensor {
                let b = &bodies[c.body];
                moving.push(SweptBox::new(*fat, Vec2::ZERO), motion_of(b, &b.still_sweep()));
                movers.push(Mover {
                    shape,
                    body: c.body,
                    fast: false,
                    filter: c.filter,
                    kinematic: b.is_kinematic(),
                    version: 0,
                });
            }
            visited <= budget
        };
        // A reach over much of the tree (a flying pile) is read front to back, else walked.
        let root = tree.root_aabb().unwrap_or(reach);
        if area(&intersection(&reach, &root)) >= SCAN_COVER * area(&root) {
            tree.scan_leaves(&reach, gather);
        } else {
            tree.query_leaves(&reach, gather);
        }
        if visited > budget {
            cc.moving.truncate(first);
            cc.movers.truncate(first);
            return false;
        }
        cc.gathered = Some(reach);
        true
    }

    /// The kinds of `kinds` whose trees hold proxies (the first `count` of the array).
    fn still_kinds(&self, kinds: &[ProxyKind]) -> ([ProxyKind; 3], usize) {
        let (mut found, mut count) = ([ProxyKind::Static; 3], 0);
        for &kind in kinds {
            if self.broad_phase.tree(kind).proxy_count() > 0 {
                (found[count], count) = (kind, count + 1);
            }
        }
        (found, count)
    }

    /// Adds the candidate pairs of shape `shape` moving as `swept` with the shapes that stand
    /// still all step (static, sleeping, or not moving), from one broad-phase query: their
    /// fat boxes hold them. Candidates are culled by the swept-AABB time of impact.
    fn query_still(&self, cc: &mut Continuous, shape: u32, swept: &SweptBox, kinds: &[ProxyKind]) {
        let c = &self.colliders[shape];
        let (colliders, bodies, pairs) = (&self.colliders, &self.bodies, &mut cc.pairs);
        let (slot, tracks, is_mover) = (&cc.slot, &cc.tracks, &cc.is_mover);
        for &kind in kinds {
            let mut visit = |_, fat: &Aabb, user| {
                let other = user as u32;
                let o = &colliders[other];
                let pairs_with = !is_mover[other as usize]
                    && o.body != c.body
                    && !o.sensor
                    && c.filter.should_pair(&o.filter)
                    && (bodies[o.body].is_dynamic() || bodies[c.body].is_dynamic())
                    && swept.may_meet(&SweptBox::new(*fat, Vec2::ZERO))
                    && !step_motion_is_slow(bodies, slot, tracks, c.body, o.body);
                if pairs_with {
                    pairs.push(pair_of(shape, other));
                }
                true
            };
            // The sweep is finite (a body's motion), so the unchecked walk serves. A tree of a
            // few slots (the walls of a room) is read front to back instead: the same proxies,
            // without the walk's stack.
            let tree = self.broad_phase.tree(kind);
            if tree.leaves.len() <= SCAN_MAX_SLOTS {
                tree.scan_leaves(&swept.sweep, &mut visit);
            } else {
                tree.query_leaves(&swept.sweep, &mut visit);
            }
        }
    }

    /// Re-sweeps the flagged tracks (all restarted at one time after an impact) and queues
    /// their impacts. Their new motions join the moving set first, so later re-sweeps find
    /// them, and so do two flagged tracks each other. Moving shapes are candidates when their
    /// whole boxes over the step (standing still) meet the flagged shape's swept box.
    fn sweep_flagged(&mut self, cc: &mut Continuous) {
        let first = cc.moving.boxes.len();
        for k in 0..cc.flagged.len() {
            let i = cc.flagged[k] as usize;
            cc.tracks[i].boxed = cc.tracks[i].version;
            let track = cc.tracks[i];
            let b = &self.bodies[track.body];
            let sweep = track.sweep_from(b.local_center, track.t0);
            let xf0 = sweep.transform_at(0.0);
            let mut shape = b.shape_head;
            while shape != NULL {
                let c = &self.colliders[shape];
                if !c.sensor {
                    let start = start_box(&c.geometry, xf0, &sweep, b.max_extent).enlarged(TOI_TARGET);
                    cc.moving.push(SweptBox::new(start, track.c1 - track.c0), motion_of(b, &sweep));
                    cc.movers.push(Mover {
                        shape,
                        body: track.body,
                        fast: true,
                        filter: c.filter,
                        kinematic: false,
                        version: track.version,
                    });
                }
                shape = c.next;
            }
        }
        cc.pairs.clear();
        for i in first..cc.moving.boxes.len() {
            let (shape, swept) = (cc.movers[i].shape, cc.moving.boxes[i]);
            let inside = cc.gathered.is_some_and(|g| g.contains(&swept.sweep));
            let (kinds, count) = self.still_kinds(if inside { &ProxyKind::ALL[..2] } else { &ProxyKind::ALL });
            self.query_still(cc, shape, &swept, &kinds[..count]);
            let c = &self.colliders[shape];
            let (pairs, movers, boxes) = (&mut cc.pairs, &cc.movers, &cc.moving.boxes);
            let (set, mine, now) = (&cc.moving, cc.moving.motion(i), cc.tracks[cc.flagged[0] as usize].t0);
            // A body's newest box in the moving set, and, when the body still follows the
            // motion of that box, the motion it makes from now on.
            let newest = |body: u32, j: usize| match cc.slot.get(body as usize) {
                Some(&k) if k != NULL => {
                    let track = &cc.tracks[k as usize];
                    let rest =
                        (track.version == track.boxed).then(|| set.motion(j).last((1.0 - now) / (1.0 - track.t0)));
                    (track.boxed, rest)
                }
                _ => (0, Some(set.motion(j).last(1.0 - now))),
            };
            // Only a body's newest box counts: events come in time order, so the rest of its
            // step is in it (a body stopped at an impact stands in it too). Bodies that move
            // together for the rest of the step are left to the contact solver (the relative
            // motion test, here from the boxes' motions; the pair's sweeps test it again when
            // the pair is queued).
            cc.moving.overlapping(&swept.sweep, |j| {
                let o = &movers[j as usize];
                let still = SweptBox { displacement: Vec2::ZERO, start: boxes[j as usize].sweep, ..boxes[j as usize] };
                let (boxed, rest) = newest(o.body, j as usize);
                let pairs_with = o.body != c.body
                    && o.version == boxed
                    && !rest.is_some_and(|rest| mine.is_slow_against(&rest))
                    && c.filter.should_pair(&o.filter)
                    && swept.may_meet(&still);
                if pairs_with {
                    pairs.push(pair_of(shape, o.shape));
                }
            });
        }
        self.queue_pairs(cc);
    }

    /// Queues the impacts of the candidate pairs, each pair once, in key order.
    fn queue_pairs(&self, cc: &mut Continuous) {
        cc.pairs.sort_unstable();
        cc.pairs.dedup();
        cc.stats.swept_pairs += cc.pairs.len() as u32;
        for k in 0..cc.pairs.len() {
            let (key, x, y) = cc.pairs[k];
            self.queue_impact(cc, key, x, y);
        }
    }

    /// The sweep of a body over the rest of the step from the fraction `t`.
    fn sweep_of(&self, cc: &Continuous, body: u32, t: f32) -> Sweep {
        let b = &self.bodies[body];
        match cc.track_of(body) {
            Some(i) => cc.tracks[i].sweep_from(b.local_center, t),
            None if b.is_awake() => {
                let s = &b.sweep;
                Sweep { c1: s.center_at(t), a1: s.a1 + t * (s.a2 - s.a1), ..*s }
            }
            None => b.still_sweep(),
        }
    }

    fn version_of(&self, cc: &Continuous, body: u32) -> u32 {
        cc.track_of(body).map_or(0, |i| cc.tracks[i].version)
    }

    /// Whether an event was computed with the bodies' current motions.
    fn is_current(&self, cc: &Continuous, e: &Event) -> bool {
        let (a, b) = (self.colliders[e.shape_a].body, self.colliders[e.shape_b].body);
        e.versions == [self.version_of(cc, a), self.version_of(cc, b)]
    }

    /// Queues the time of impact of two shapes over the rest of the step, unless cheaper tests
    /// rule an impact out (see [`World::advance`]).
    fn queue_impact(&self, cc: &mut Continuous, key: u64, shape_a: u32, shape_b: u32) {
        let (ca, cb) = (&self.colliders[shape_a], &self.colliders[shape_b]);
        let (a, b) = (&self.bodies[ca.body], &self.bodies[cb.body]);
        if !(a.is_dynamic() || b.is_dynamic())
            || self.joined_without_collision(ca.body, cb.body)
            || cc.disabled.binary_search(&key).is_ok()
            || !self.allows_pair(shape_a, shape_b)
        {
            return;
        }
        let carried = |body: u32, by: u32| cc.track_of(body).is_some_and(|i| cc.tracks[i].carrier == by);
        if carried(ca.body, cb.body) || carried(cb.body, ca.body) {
            return;
        }
        let Some(pair) = self.pair_sweeps(cc, ca.body, cb.body) else { return };
        let (sweep_a, sweep_b) = (&pair.sweep_a, &pair.sweep_b);
        let reach = a.max_extent + b.max_extent + TOI_TARGET + TOI_TOLERANCE;
        if !(pair.moves_a || pair.moves_b)
            || self.slow_relative_motion(ca.body, sweep_a, cb.body, sweep_b)
            || self.kinematic_push_is_slow(cc, (ca.body, sweep_a), (cb.body, sweep_b))
            || closest_approach(sweep_a, sweep_b) > reach
            || behind_chain(&ca.geometry, sweep_a, sweep_b)
            || behind_chain(&cb.geometry, sweep_b, sweep_a)
        {
            return;
        }
        self.advance(cc, (key, shape_a, shape_b), &pair, Level::WHOLE, None);
    }

    /// Computes the time of impact a pending event waits for, and goes on from there.
    fn expand(&self, cc: &mut Continuous, e: &Event, level: Level) {
        let (body_a, body_b) = (self.colliders[e.shape_a].body, self.colliders[e.shape_b].body);
        if let Some(pair) = self.pair_sweeps(cc, body_a, body_b) {
            self.advance(cc, (e.key, e.shape_a, e.shape_b), &pair, level, Some(e.t));
        }
    }

    /// The sweeps of two bodies over the rest of the step from the later of their starts,
    /// `None` when that is the step's end.
    #[inline(always)]
    fn pair_sweeps(&self, cc: &Continuous, body_a: u32, body_b: u32) -> Option<PairSweeps> {
        let t0 = |body| cc.track_of(body).map_or(0.0, |i| cc.tracks[i].t0);
        let base = t0(body_a).max(t0(body_b));
        if base >= 1.0 {
            return None;
        }
        let (sweep_a, sweep_b) = (self.sweep_of(cc, body_a, base), self.sweep_of(cc, body_b, base));
        Some(PairSweeps { base, moves_a: sweep_moves(&sweep_a), moves_b: sweep_moves(&sweep_b), sweep_a, sweep_b })
    }

    /// Goes through the levels of a pair's time of impact from `from` and queues the impacts
    /// found, if any. Shapes touching at the start are tried again with one dynamic body's
    /// shape shrunk to its core against the other's whole shape, then shrunk to its centroid:
    /// an impact only when that core (or centroid) meets the other shape, that is when the
    /// bodies are about to pass through each other. The body shrunk is the dynamic one (static
    /// and kinematic bodies pass through nothing), the smaller by its largest extent when both
    /// are; never two cores against each other: a small body pressed through a thin plate
    /// meets the whole plate, not the plate's shorter core. The
    /// time of impact of a level waits in the heap, at a lower bound on it, and is computed
    /// when it comes up: `resumed` is then that time, where the first level's query runs at
    /// once, and no event is queued before it (impacts go in time order).
    #[inline(always)]
    fn advance(&self, cc: &mut Continuous, pair: (u64, u32, u32), s: &PairSweeps, from: Level, resumed: Option<f32>) {
        let (ca, cb) = (&self.colliders[pair.1], &self.colliders[pair.2]);
        let (a, b) = (&self.bodies[ca.body], &self.bodies[cb.body]);
        // The body shrunk: a dynamic one, the smaller when both are (its core meets the other's
        // whole shape whenever either passes through the other's middle).
        let side = u8::from(!(a.is_dynamic() && (!b.is_dynamic() || a.max_extent <= b.max_extent)));
        let mut level = from;
        loop {
            let first = resumed.filter(|_| level == from);
            if !self.advance_level(cc, pair, s, level, first, resumed) {
                return;
            }
            // Two dynamic bodies after an impact, one of which turns more than a quarter turn in
            // the rest of the step: the push is sampled in A's frame, which means nothing when
            // a body spins that much (a light wall flung to 660 rad/s by a heavy one was an
            // impact at once again and again, each changing nothing, until the cap, and was
            // then driven through the other). The time of impact of the whole shapes below
            // their gap decides first, when they are still apart.
            let spin = |x: &Sweep| (x.a2 - x.a1).abs();
            let apart_first = level.depth == 0
                && s.base > 0.0
                && a.is_dynamic()
                && b.is_dynamic()
                && spin(&s.sweep_a).max(spin(&s.sweep_b)) > SAMPLED_TURN_LIMIT;
            if apart_first && self.advance_apart(cc, pair, s, resumed) {
                return;
            }
            let push = if level.depth == 0 { self.touching_push(cc, pair, s) } else { None };
            if let Some((point, normal)) = push {
                // The shapes touch and push into each other: an impact now.
                let (t, versions) = (resumed.unwrap_or(s.base), self.versions(cc, ca.body, cb.body));
                let (key, shape_a, shape_b) = pair;
                let (core, pending) = (false, None);
                cc.events.push(Event { t, key, shape_a, shape_b, versions, point, normal, core, pending });
                return;
            }
            // Whole shapes still apart (just after an impact): their next contact, found below
            // the gap they start with, is the answer, and no core can meet sooner.
            if level.depth == 0 && !apart_first && self.advance_apart(cc, pair, s, resumed) {
                return;
            }
            // The level touches at the start: on to the next one.
            let Some(next) = level.deeper(side) else { return };
            level = next;
        }
    }

    /// The whole shapes of a touching pair that start apart by a gap of at least
    /// [`APART_MIN_GAP`] (a pair just resolved at its time of impact, [`TOI_TARGET`] apart)
    /// and turn enough for another part of a shape to come round
    /// (`World::turns_past_thickness`): their time of impact with the target lowered to half
    /// that gap, which finds the next contact of any part of the shapes (the other tip of a
    /// spinning plate whose first tip just bounced off a wall), where a core would let that
    /// part sink half the shape deep first. Returns true when this decides the pair (an impact
    /// queued, or none in the rest of the step); false when the pair does not qualify or the
    /// gap closes at once (the core levels decide).
    fn advance_apart(&self, cc: &mut Continuous, pair: (u64, u32, u32), s: &PairSweeps, resumed: Option<f32>) -> bool {
        let (ca, cb) = (&self.colliders[pair.1], &self.colliders[pair.2]);
        if !self.turns_past_thickness(ca.body, &s.sweep_a, cb.body, &s.sweep_b) {
            return false;
        }
        let (pa, pb) = (ShapeProxy::from_shape(&ca.geometry), ShapeProxy::from_shape(&cb.geometry));
        let origin = s.sweep_a.c1;
        let (transform_a, transform_b) =
            (s.sweep_a.rebased(origin).transform_at(0.0), s.sweep_b.rebased(origin).transform_at(0.0));
        let input = DistanceInput { proxy_a: &pa, transform_a, proxy_b: &pb, transform_b };
        let Ok(start) = shape_distance(&input, &mut SimplexCache::default()) else { return false };
        if start.distance < APART_MIN_GAP {
            return false;
        }
        let (target, tolerance) = (0.5 * start.distance, 0.125 * start.distance);
        let Some(out) = toi_at(cc, (&pa, &s.sweep_a), (&pb, &s.sweep_b), target, tolerance) else { return false };
        match out.state {
            ToiState::Separated => true,
            ToiState::Hit | ToiState::Failed if out.t > 0.0 => {
                self.queue_found(cc, pair, s, &out, false, resumed);
                true
            }
            _ => false,
        }
    }

    /// Whether a dynamic body of the pair turns enough over its sweep for a part of its shape
    /// other than the one touching to come round into the other shape: the turn times how far
    /// the shape is from round (its largest extent less its smallest; a circle's turn moves no
    /// surface) beyond [`APART_TURN_FRACTION`] of the thinner dynamic body's smallest extent.
    /// A pair that turns less touches where it touched: the contact solver's job, and the core
    /// levels see a push through. Static and kinematic bodies do not count: a turning drum
    /// would send every body resting on it here (a kinematic body's push is its own rule).
    fn turns_past_thickness(&self, a: u32, sweep_a: &Sweep, b: u32, sweep_b: &Sweep) -> bool {
        let (ba, bb) = (&self.bodies[a], &self.bodies[b]);
        let bulge = |x: &Body, s: &Sweep| match x.is_dynamic() {
            true => (s.a2 - s.a1).abs() * (x.max_extent - x.min_extent),
            false => 0.0,
        };
        let thickness = |x: &Body| if x.is_dynamic() { x.min_extent } else { f32::MAX };
        bulge(ba, sweep_a) + bulge(bb, sweep_b) > APART_TURN_FRACTION * thickness(ba).min(thickness(bb))
    }

    /// Queues the impact a time of impact query found (`core`: between a core and a whole
    /// shape), unless a chain segment hands the contact over to its neighbor.
    fn queue_found(
        &self,
        cc: &mut Continuous,
        (key, shape_a, shape_b): (u64, u32, u32),
        s: &PairSweeps,
        out: &ToiOutput,
        core: bool,
        resumed: Option<f32>,
    ) {
        let (ca, cb) = (&self.colliders[shape_a], &self.colliders[shape_b]);
        let is_chain = |shape: &Shape| matches!(shape, Shape::ChainSegment(_));
        if !core && (is_chain(&ca.geometry) || is_chain(&cb.geometry)) {
            // A chain segment may hand the contact over to its neighbor (its ghost vertices
            // say so): then this is no impact.
            let (xf_a, xf_b) = (s.sweep_a.transform_at(out.t), s.sweep_b.transform_at(out.t));
            if collide(&ca.geometry, xf_a, &cb.geometry, xf_b, SPECULATIVE_DISTANCE).is_empty() {
                return;
            }
        }
        let t = s.base + out.t * (1.0 - s.base);
        let t = resumed.map_or(t, |now| t.max(now));
        let (point, normal, pending, versions) = (out.point, out.normal, None, self.versions(cc, ca.body, cb.body));
        cc.events.push(Event { t, key, shape_a, shape_b, versions, point, normal, core, pending });
    }

    /// The versions of two bodies' motions (see `Track::version`).
    fn versions(&self, cc: &Continuous, a: u32, b: u32) -> [u32; 2] {
        [self.version_of(cc, a), self.version_of(cc, b)]
    }

    /// The contact point (world, meters) and normal (from A to B) where two shapes that touch
    /// at the start of their sweeps push into each other: at the deepest point of their
    /// manifold over a whole step, at any point after an impact, the gap closes by more than
    /// the TOI tolerance over the sweeps (in A's frame, so a turning face counts). Such a pair is an impact at once, where the core levels
    /// would let one shape sink half the other's size deep first (a plate's end into the
    /// post of its slot: its core is shorter than the plate), unless the contact solver has
    /// absorbed the push:
    /// - after an impact earlier in the step (the sweeps start later than the step) no contact
    ///   solver saw the new motion, so nothing is absorbed;
    /// - over the whole step, the contact solver saw the contact: a push within the dynamic
    ///   body's fast-body limit, into a body not deeper than [`CONTINUOUS_DEEP_FRACTION`] of
    ///   its smallest extent, is its (a fast spinner's tip on a wall, a turning paddle are
    ///   not), and so is any push of a body that is not elongated ([`is_elongated`]) into a
    ///   static one (its core catches it).
    ///
    /// A dynamic body against a static or kinematic one; a dynamic body against one that
    /// continuous collision stopped earlier in the step (it stands still for the rest of the
    /// step, a wall like a static body: a ball that the core levels let sink into a stopped
    /// plate then had its centroid 6 mm from the plate's face); or two elongated dynamic
    /// bodies (a pile pressing one plate's end into another over a whole step, or a ball
    /// driving one plate into another after an impact: the core of a plate is half the plate,
    /// and the core levels let a plate's end pass through the other). Other dynamic pairs are
    /// left to the core levels and the contact solver (in a packed block that a heavy body
    /// hits, every box pushes into its neighbors, and impacts at once would cascade through
    /// the block and stop it at the impact cap). The gap is measured in A's frame, or in the
    /// frame of B when B is the stopped body (a spinning ball's frame turns its normal away).
    fn touching_push(
        &self,
        cc: &Continuous,
        (_, shape_a, shape_b): (u64, u32, u32),
        s: &PairSweeps,
    ) -> Option<(Vec2, Vec2)> {
        let (ca, cb) = (&self.colliders[shape_a], &self.colliders[shape_b]);
        let (a, b) = (&self.bodies[ca.body], &self.bodies[cb.body]);
        let both_dynamic = a.is_dynamic() && b.is_dynamic();
        let plates = both_dynamic && is_elongated(a) && is_elongated(b);
        // Only after an impact can a body have stopped (`s.base` is then past the start).
        let stopped = |body: u32| s.base > 0.0 && cc.is_stopped(body);
        let (still_a, still_b) = match both_dynamic && s.base > 0.0 {
            true => (stopped(ca.body), stopped(cb.body)),
            false => (false, false),
        };
        if a.is_dynamic() == b.is_dynamic() && !plates && still_a == still_b {
            return None;
        }
        let origin = s.sweep_a.c1;
        let (sa, sb) = (s.sweep_a.rebased(origin), s.sweep_b.rebased(origin));
        let m = collide(&ca.geometry, sa.transform_at(0.0), &cb.geometry, sb.transform_at(0.0), SPECULATIVE_DISTANCE);
        let deepest = m.points().iter().map(|p| p.separation).fold(f32::INFINITY, f32::min);
        if deepest == f32::INFINITY {
            return None;
        }
        let (frame, other, normal) = if still_b { (&sb, &sa, -m.normal) } else { (&sa, &sb, m.normal) };
        // Over a whole step the contact solver saw every point, and the push is measured at the
        // deepest (a plate wedged in its slot, measured at every point, rattled between the
        // posts by impacts at once until it slid out). After an impact nothing saw the new
        // motion: every point counts (a plate lying on a floor, its end hit from above, turns
        // that end into the floor while the other, deeper by a rounding, lifts). A fast turn
        // may carry a point in and out again before the end: the gap early on too.
        let points = [m.points[0].point, m.points[1].point];
        let (first, last) = match s.base > 0.0 {
            true => (0, m.count),
            false => {
                let k = usize::from(m.count == 2 && m.points[1].separation < m.points[0].separation);
                (k, k + 1)
            }
        };
        let (closing, i) = most_closing(frame, other, &points[first..last], normal);
        let i = first + i;
        let limits = |x: &Body| match x.is_dynamic() {
            true => (x.safety_factor * x.min_extent, CONTINUOUS_DEEP_FRACTION * x.min_extent),
            false => (f32::MAX, f32::MAX),
        };
        let ((push_a, deep_a), (push_b, deep_b)) = (limits(a), limits(b));
        let within = closing <= push_a.min(push_b) && -deepest <= deep_a.min(deep_b);
        // Against a static body, only an elongated body's push counts over a whole step: a
        // round one's core stops it before it is half through, and a box spinning along a
        // wall would be an impact at every corner, up to its cap, for nothing.
        let dynamic = if a.is_dynamic() { a } else { b };
        let fixed = !(a.is_kinematic() || b.is_kinematic());
        let absorbed = s.base == 0.0 && (within || (fixed && !is_elongated(dynamic)));
        (closing > TOI_TOLERANCE && !absorbed).then_some((points[i] + origin, m.normal))
    }

    /// One level of [`World::advance`]: queues its impact or its pending time of impact, and
    /// returns true when the shapes of the level touch at the start (the next level decides).
    /// `first` is the time a pending query of this level waits for (its start tests are
    /// then done); `resumed` the time a resumed pair's query waits for.
    #[inline(always)]
    fn advance_level(
        &self,
        cc: &mut Continuous,
        (key, shape_a, shape_b): (u64, u32, u32),
        s: &PairSweeps,
        level: Level,
        first: Option<f32>,
        resumed: Option<f32>,
    ) -> bool {
        let (ca, cb) = (&self.colliders[shape_a], &self.colliders[shape_b]);
        let (sweep_a, sweep_b) = (&s.sweep_a, &s.sweep_b);
        let (reach_a, reach_b) = (self.bodies[ca.body].max_extent, self.bodies[cb.body].max_extent);
        let versions = |cc: &Continuous| [self.version_of(cc, ca.body), self.version_of(cc, cb.body)];
        let at = |t: f32| {
            let t = s.base + t * (1.0 - s.base);
            resumed.map_or(t, |now| t.max(now))
        };
        let [scale_a, scale_b] = level.scales();
        let shrink = |p: &ShapeProxy, scale: f32| if scale < 1.0 { core_proxy(p, scale) } else { *p };
        // The proxies are made when a test needs them: most pairs end at the separating axis
        // test, which reads the polygons.
        let cores = || {
            let (pa, pb) = (ShapeProxy::from_shape(&ca.geometry), ShapeProxy::from_shape(&cb.geometry));
            (shrink(&pa, scale_a), shrink(&pb, scale_b))
        };
        let mut made = None;
        if first.is_none() {
            // Cores whose bounding circles never meet are separated: no time of impact needed.
            if level.depth > 0 {
                let (core_a, core_b) = *made.insert(cores());
                if closest_approach(sweep_a, sweep_b) > core_reach(&core_a, sweep_a, &core_b, sweep_b) {
                    return false;
                }
            }
            // Polygons overlapping at the start, or apart all along: the time of impact
            // would only say so; a separating axis test is cheaper.
            let start = match level.depth {
                0 | 1 => polygon_start_shrunk(
                    (&ca.geometry, sweep_a, reach_a, scale_a),
                    (&cb.geometry, sweep_b, reach_b, scale_b),
                ),
                _ => PolygonStart::Open(0.0),
            };
            match start {
                PolygonStart::Touching => return true,
                PolygonStart::ApartAllStep => return false,
                // A time of impact that cannot come before some later time waits for it:
                // by then an earlier impact may have sent one of the bodies elsewhere.
                PolygonStart::Open(earliest) if earliest > 0.0 => {
                    let (point, normal, core, pending) = (Vec2::ZERO, Vec2::ZERO, false, Some(level));
                    let (t, versions) = (at(earliest), versions(cc));
                    cc.events.push(Event { t, key, shape_a, shape_b, versions, point, normal, core, pending });
                    return false;
                }
                PolygonStart::Open(_) => {}
            }
        }
        let impact = |out: &ToiOutput| out.t > 0.0 && matches!(out.state, ToiState::Hit | ToiState::Failed);
        let (core_a, core_b) = made.unwrap_or_else(cores);
        let out = match toi(cc, &core_a, sweep_a, &core_b, sweep_b) {
            Some(out) if impact(&out) => out,
            // The centroid touches the other shape and approaches it (a body pressed through
            // another by a third): an impact now, which stops the approach.
            Some(out) if level.depth == 2 && out.state == ToiState::Hit && centroid_closes(level, s, &out) => out,
            Some(out) => return out.state != ToiState::Separated,
            None => return false,
        };
        self.queue_found(cc, (key, shape_a, shape_b), s, &out, level.depth > 0, resumed);
        false
    }

    /// True when two bodies move so little relative to each other over the rest of the step
    /// that neither can pass through the other (the fast-body test applied to their relative
    /// motion): bodies moving together, as in a flying pile, are left to the contact solver.
    fn slow_relative_motion(&self, body_a: u32, sweep_a: &Sweep, body_b: u32, sweep_b: &Sweep) -> bool {
        relative_motion_is_slow(&self.bodies[body_a], sweep_a, &self.bodies[body_b], sweep_b)
    }

    /// True when a kinematic body moves so little where a dynamic body is, which continuous
    /// collision does not follow, that the contact solver holds it ([`kinematic_push_is_slow`]).
    /// A dynamic body that continuous collision follows (fast, deep, or already hit) is always
    /// swept against a kinematic one, as against a static one.
    fn kinematic_push_is_slow(
        &self,
        cc: &Continuous,
        (a, sweep_a): (u32, &Sweep),
        (b, sweep_b): (u32, &Sweep),
    ) -> bool {
        let (ba, bb) = (&self.bodies[a], &self.bodies[b]);
        match (ba.is_kinematic() && bb.is_dynamic(), bb.is_kinematic() && ba.is_dynamic()) {
            (true, _) => cc.track_of(b).is_none() && kinematic_push_is_slow(ba, sweep_a, bb, sweep_b),
            (_, true) => cc.track_of(a).is_none() && kinematic_push_is_slow(bb, sweep_b, ba, sweep_a),
            _ => false,
        }
    }

    /// Resolves an impact at its time: see [`ContinuousMode`].
    fn resolve(&mut self, cc: &mut Continuous, e: &Event, dt: f32) {
        if self.hooks.0.is_some() && !self.impact_allowed(cc, e) {
            // Pre-solve refused the contact at the time of impact: the pair passes through
            // each other for the rest of the step (a one-way platform from below).
            if let Err(at) = cc.disabled.binary_search(&e.key) {
                cc.disabled.insert(at, e.key);
            }
            return;
        }
        cc.stats.impacts += 1;
        let id = |i: u32| self.shape_id(i);
        cc.impacts.push(ImpactEvent {
            shape_a: id(e.shape_a),
            shape_b: id(e.shape_b),
            fraction: e.t,
            point: e.point,
            normal: e.normal,
        });
        let (ba, bb) = (self.colliders[e.shape_a].body, self.colliders[e.shape_b].body);
        let (sweep_a, sweep_b) = (self.sweep_of(cc, ba, e.t), self.sweep_of(cc, bb, e.t));
        cc.flagged.clear();
        if self.def.continuous_mode == ContinuousMode::StopAtImpact {
            for (body, sweep) in [(ba, sweep_a), (bb, sweep_b)] {
                if let Some(i) = cc.track_of(body).filter(|&i| cc.tracks[i].fast && !cc.tracks[i].stopped()) {
                    restart(&mut cc.tracks[i], e.t, &sweep, Vec2::ZERO, 0.0);
                    cc.flagged.push(i as u32);
                }
            }
            // The stopped bodies stand where they are for the rest of the step: the bodies
            // still flying at them must find them there.
            self.sweep_flagged(cc);
            return;
        }
        let (xf_a, xf_b) = (sweep_a.transform_at(0.0), sweep_b.transform_at(0.0));
        let (ca, cb) = (&self.colliders[e.shape_a], &self.colliders[e.shape_b]);
        let (friction, restitution) = (
            mix_friction(self.def.friction_mixing, ca.friction, cb.friction),
            mix_restitution(self.def.restitution_mixing, ca.restitution, cb.restitution),
        );
        let mut a = self.impact_body(cc, ba, sweep_a.c1, dt);
        let mut b = self.impact_body(cc, bb, sweep_b.c1, dt);
        let mut manifold = if e.core {
            Manifold::EMPTY
        } else {
            collide(&ca.geometry, xf_a, &cb.geometry, xf_b, SPECULATIVE_DISTANCE)
        };
        if manifold.is_empty() && e.normal != Vec2::ZERO {
            // The cores meet (the shapes overlap, and the manifold's deepest points need not
            // be where the approach is), or the shapes are beyond the speculative distance:
            // the contact the time of impact found.
            manifold = single_point(e.point, e.normal, xf_a, xf_b);
        }
        // A kinematic pusher cannot give way: the dynamic body leaves its overlap with it
        // over the rest of the step (a quarter step at least), or the push sinks it deeper.
        let pushed = !(self.bodies[ba].is_dynamic() && self.bodies[bb].is_dynamic())
            && (self.bodies[ba].is_kinematic() || self.bodies[bb].is_kinematic());
        let push_time = pushed.then_some(((1.0 - e.t) * dt).max(0.25 * dt));
        let materials = (friction, restitution, self.def.restitution_threshold);
        let remaining = (1.0 - e.t) * dt;
        let times = (remaining.max(f32::EPSILON * dt), dt);
        let stopped = |body: u32| cc.is_stopped(body);
        let (held_a, held_b) = (stopped(ba) && !stopped(bb), stopped(bb) && !stopped(ba));
        let (mut fixed_a, mut fixed_b) = (a, b);
        let hit = solve_impact(&mut a, &mut b, &manifold, materials, times, push_time);
        if held_a || held_b {
            // A stopped body stands where it is for the rest of the step, whatever velocity it
            // keeps for the next: the body hitting it bounces off it as off a still wall (or
            // it would come back at once, and again, closer each time). The stopped body keeps
            // the velocity change of the real exchange.
            let fix = |body: &mut ImpactBody| {
                (body.inv_mass, body.inv_inertia, body.v, body.w) = (0.0, 0.0, Vec2::ZERO, 0.0);
            };
            if held_a {
                fix(&mut fixed_a)
            } else {
                fix(&mut fixed_b)
            }
            solve_impact(&mut fixed_a, &mut fixed_b, &manifold, materials, times, push_time);
            if held_a { b = fixed_b } else { a = fixed_a }
        }
        cc.stats.substeps += 1;
        self.report_hit(e, &manifold, hit);
        let (sweep_a, sweep_b) = self.reopen_gap(cc, (ba, sweep_a, &a), (bb, sweep_b, &b), &manifold);
        for (body, sweep, mut state, other) in [(ba, sweep_a, a, (bb, sweep_b)), (bb, sweep_b, b, (ba, sweep_a))] {
            if !self.bodies[body].is_dynamic() {
                continue;
            }
            // The impulse solve can speed a body up (restitution, a heavy partner): the world's
            // speed caps hold here as in the solver, so the rest of the step stays bounded.
            let caps = (self.def.max_linear_speed, self.def.max_angular_speed);
            (state.v, state.w) = super::solver::cap_velocity(state.v, state.w, caps);
            let i = self.track(cc, body);
            let (stopped, carried) = (cc.tracks[i].stopped(), cc.tracks[i].carrier != NULL);
            if carried && self.bodies[other.0].is_dynamic() {
                // It moves with its carrier (see `impact_body`): the other body bounced off it,
                // and its motion and the events queued with it hold.
                continue;
            }
            if !carried {
                let body_ref = &mut self.bodies[body];
                (body_ref.linear_velocity, body_ref.angular_velocity) = (state.v, state.w);
            }
            if stopped && self.bodies[other.0].is_dynamic() {
                // It stands where it stopped, its new velocity kept for the next step: its
                // motion and the events queued with it hold, and the impact does not count
                // toward its cap (a kinematic body that comes later must still carry it).
                continue;
            }
            cc.tracks[i].impacts += 1;
            let motion = self.motion_after(cc, i, e, &manifold, (&sweep, state, remaining), other);
            let track = &mut cc.tracks[i];
            match motion {
                // It stands where it stopped, or moves on with its carrier: its motion, and the
                // events queued with it, hold.
                After::Stop | After::Fly if stopped => continue,
                After::Fly if carried => continue,
                After::Stop => {
                    cc.stats.capped += u32::from(!manifold.is_empty());
                    restart(track, e.t, &sweep, Vec2::ZERO, 0.0);
                }
                After::Fly => restart(track, e.t, &sweep, remaining * state.v, remaining * state.w),
                After::Carried { dp, da, v, w, carrier } => {
                    restart(track, e.t, &sweep, dp, da);
                    track.carrier = carrier;
                    cc.stats.carried += 1;
                    let body_ref = &mut self.bodies[body];
                    (body_ref.linear_velocity, body_ref.angular_velocity) = (v, w);
                }
            }
            // A stopped body is swept again too: the events queued against its old motion
            // went stale with it, and the bodies still flying at it must find it where it stands.
            cc.flagged.push(i as u32);
        }
        self.sweep_flagged(cc);
    }

    /// Whether pre-solve lets an impact be resolved: asked with the manifold at the time of
    /// impact (as `resolve` computes it).
    fn impact_allowed(&self, cc: &Continuous, e: &Event) -> bool {
        let (ba, bb) = (self.colliders[e.shape_a].body, self.colliders[e.shape_b].body);
        let (xf_a, xf_b) = (self.sweep_of(cc, ba, e.t).transform_at(0.0), self.sweep_of(cc, bb, e.t).transform_at(0.0));
        let (ca, cb) = (&self.colliders[e.shape_a], &self.colliders[e.shape_b]);
        let mut manifold = if e.core {
            Manifold::EMPTY
        } else {
            collide(&ca.geometry, xf_a, &cb.geometry, xf_b, SPECULATIVE_DISTANCE)
        };
        if manifold.is_empty() && e.normal != Vec2::ZERO {
            manifold = single_point(e.point, e.normal, xf_a, xf_b);
        }
        self.allows_contact(e.shape_a, e.shape_b, &manifold)
    }

    /// The sweeps of an impact's two bodies from the impact on, moved apart along the
    /// manifold's normal when its shapes are closer than the target band but not touching (an
    /// impact found below the band, see `World::advance_apart`): back to the target gap,
    /// shared by inverse mass between the bodies that move on (not a stopped, carried, static
    /// or kinematic one). The pair's next time of impact then starts from the target gap
    /// again, where repeated impacts would each start closer, down to where only the cores
    /// are tried (a plate that sinks half its length into another). At most [`TOI_TARGET`]:
    /// the position correction of Box2D v2's time of impact solver, without its loss of time.
    fn reopen_gap(
        &self,
        cc: &Continuous,
        (a, sweep_a, state_a): (u32, Sweep, &ImpactBody),
        (b, sweep_b, state_b): (u32, Sweep, &ImpactBody),
        manifold: &Manifold,
    ) -> (Sweep, Sweep) {
        let gap = manifold.points().iter().map(|p| p.separation).fold(f32::MAX, f32::min);
        if !(gap > 0.0 && gap < TOI_TARGET - TOI_TOLERANCE) {
            return (sweep_a, sweep_b);
        }
        let n = manifold.normal;
        let stopped = |body: u32| cc.is_stopped(body);
        let weight = |body: u32, state: &ImpactBody, dir: Vec2, other: u32| match stopped(body)
            || self.pressed_toward(body, dir, other)
        {
            true => 0.0,
            false => state.inv_mass,
        };
        let (wa, wb) = (weight(a, state_a, -n, b), weight(b, state_b, n, a));
        if wa + wb <= 0.0 {
            return (sweep_a, sweep_b);
        }
        let push = (TOI_TARGET - gap) / (wa + wb) * n;
        let moved = |s: Sweep, d: Vec2| Sweep { c1: s.c1 + d, c2: s.c2 + d, ..s };
        (moved(sweep_a, -wa * push), moved(sweep_b, wb * push))
    }

    /// Whether a body has a contact (from the step's start) with a body other than `other`
    /// whose normal points along `dir`: moving it that way would push it into that body (a
    /// bullet between a box and a 1 mm wall must not be moved into the wall).
    fn pressed_toward(&self, body: u32, dir: Vec2, other: u32) -> bool {
        let mut key = self.bodies[body].contact_head;
        while key != NULL {
            let c = &self.contacts[key >> 1];
            let (end, partner) = if c.body_a == body { (0, c.body_b) } else { (1, c.body_a) };
            let outward = if end == 0 { c.manifold.normal } else { -c.manifold.normal };
            if partner != other && c.manifold.count > 0 && outward.dot(dir) > 0.0 {
                return true;
            }
            key = c.edges[(key & 1) as usize].next;
        }
        false
    }

    /// What a dynamic body (track `i`) does for the rest of the step after impact `e`, given
    /// its sweep from the impact, its new velocities and the rest of the step (seconds), and
    /// the other body and its sweep: flies on with its new velocities; stops at the impact
    /// pose when the manifold is empty or it reached [`WorldDef::max_impacts_per_body`]; or,
    /// pushed by a moving kinematic body that would catch it again within the step (a turning
    /// paddle: its face curves into a body flying off along the tangent) or that it can no
    /// longer fly from (capped), is carried by it: its pose fixed in the kinematic body's frame
    /// for the rest of the step, which nothing can pass. A body pinned against a wall by a
    /// kinematic body stops after twice the cap, and the kinematic body passes it (it cannot
    /// be stopped).
    fn motion_after(
        &self,
        cc: &Continuous,
        i: usize,
        e: &Event,
        manifold: &Manifold,
        (sweep, state, remaining): (&Sweep, ImpactBody, f32),
        (other, other_sweep): (u32, Sweep),
    ) -> After {
        let (impacts, cap) = (cc.tracks[i].impacts, self.def.max_impacts_per_body);
        let capped = manifold.is_empty() || impacts >= cap;
        // A dynamic body that a kinematic one carries is part of it for the rest of the step
        // (its sweep turns with the carrier's): it pushes as its carrier does. A plate carried
        // by a turning pusher, hitting another plate, was otherwise an impact at once again
        // and again (the turning face curves back into the plate) until the plate's cap.
        let carrier = match cc.track_of(other) {
            Some(k) if self.bodies[other].is_dynamic() => cc.tracks[k].carrier,
            _ => NULL,
        };
        let kinematic = &self.bodies[other];
        let pushes = kinematic.is_kinematic() || carrier != NULL;
        let pushed = pushes && sweep_moves(&other_sweep) && impacts < cap.saturating_mul(2);
        if cc.tracks[i].carrier != NULL && !pushed {
            // A carried body goes on with its carrier past dynamic bodies (they bounce off it);
            // a static or kinematic body in its way pins it there.
            return if kinematic.is_dynamic() { After::Fly } else { After::Stop };
        }
        if !pushed {
            return if capped { After::Stop } else { After::Fly };
        }
        let flight = Sweep { c2: sweep.c1 + remaining * state.v, a2: sweep.a1 + remaining * state.w, ..*sweep };
        let normal = if self.colliders[e.shape_a].body == other { manifold.normal } else { -manifold.normal };
        let point = manifold.points().first().map_or(e.point, |p| p.point);
        if !capped && !gap_closes(&other_sweep, &flight, point, normal) {
            return After::Fly;
        }
        // The pose relative to the kinematic body at the impact, kept to the end of the step.
        let origin = other_sweep.c1;
        let (k0, k1) = (other_sweep.rebased(origin).transform_at(0.0), other_sweep.rebased(origin).transform_at(1.0));
        // Out of the overlap along the normal, turned with the kinematic body.
        let overlap = manifold.points().iter().map(|p| (-p.separation - LINEAR_SLOP).max(0.0)).fold(0.0, f32::max);
        let out = k1.q.rotate(k0.q.inv_rotate(normal)) * overlap;
        let center = k1.apply(k0.inv_apply(sweep.c1 - origin)) + origin + out;
        let w = kinematic.angular_velocity;
        let arm = center - other_sweep.c2;
        let v = kinematic.linear_velocity + Vec2::new(-w * arm.y, w * arm.x);
        let carrier = if carrier == NULL { other } else { carrier };
        After::Carried { dp: center - sweep.c1, da: other_sweep.a2 - other_sweep.a1, v, w, carrier }
    }

    /// A hit event for an impact faster than the hit event threshold, as the contact solver
    /// reports them; `hit` is the fastest point and its approach speed (m/s).
    fn report_hit(&mut self, e: &Event, manifold: &Manifold, hit: Option<(usize, f32)>) {
        let (ca, cb) = (&self.colliders[e.shape_a], &self.colliders[e.shape_b]);
        let Some((point, approach_speed)) = hit else { return };
        if approach_speed <= self.def.hit_event_threshold || !(ca.enable_hit_events || cb.enable_hit_events) {
            return;
        }
        let id = |i: u32| self.shape_id(i);
        self.solver.hits.push(ContactHitEvent {
            shape_a: id(e.shape_a),
            shape_b: id(e.shape_b),
            point: manifold.points[point].point,
            normal: manifold.normal,
            approach_speed,
        });
    }

    /// The track of a body, made from its sweep if it has none.
    fn track(&self, cc: &mut Continuous, body: u32) -> usize {
        if let Some(i) = cc.track_of(body) {
            return i;
        }
        let s = self.sweep_of(cc, body, 0.0);
        cc.slot[body as usize] = cc.tracks.len() as u32;
        cc.tracks.push(Track::whole_step(body, &s, false));
        cc.tracks.len() - 1
    }

    /// A body as the impulse solve of an impact in a step of `dt` seconds sees it. One that a
    /// kinematic body carries moves with it: the solve sees it as part of the kinematic body,
    /// of infinite mass, moving as its track does (it keeps its velocity and motion; the other
    /// body bounces off). A body that continuous collision stopped takes its share of the
    /// impulse into its velocity, which it keeps for the next step (momentum is kept: a heavy
    /// body stopped at the cap is no wall for the next one).
    fn impact_body(&self, cc: &Continuous, body: u32, center: Vec2, dt: f32) -> ImpactBody {
        let b = &self.bodies[body];
        let held = cc.track_of(body).map(|i| &cc.tracks[i]).filter(|t| t.carrier != NULL);
        match (b.is_dynamic(), held) {
            (true, None) => ImpactBody {
                v: b.linear_velocity,
                w: b.angular_velocity,
                inv_mass: b.inv_mass,
                inv_inertia: b.inv_inertia,
                center,
            },
            (true, Some(track)) => {
                let time = (1.0 - track.t0) * dt;
                let (v, w) = if time > 0.0 {
                    ((track.c1 - track.c0) / time, (track.a1 - track.a0) / time)
                } else {
                    (Vec2::ZERO, 0.0)
                };
                ImpactBody { v, w, inv_mass: 0.0, inv_inertia: 0.0, center }
            }
            (false, _) => {
                ImpactBody { v: b.linear_velocity, w: b.angular_velocity, inv_mass: 0.0, inv_inertia: 0.0, center }
            }
        }
    }

    /// The tracked bodies take their final poses and sweeps; their proxies move.
    fn finish_tracks(&mut self, cc: &mut Continuous) {
        for k in 0..cc.tracks.len() {
            let track = cc.tracks[k];
            if !track.changed {
                continue;
            }
            let b = &mut self.bodies[track.body];
            b.set_center_and_angle(track.c1, track.a1);
            b.sweep = Sweep {
                local_center: b.local_center,
                c1: track.start_c,
                c2: track.c1,
                a1: track.start_a,
                a2: track.a1,
            };
            let (xf, displacement) = (b.transform, b.sweep.c2 - b.sweep.c1);
            let mut shape = b.shape_head;
            while shape != NULL {
                let c = &mut self.colliders[shape];
                c.aabb = c.geometry.unit_aabb(xf);
                let moved = self.broad_phase.move_proxy_predicted(c.proxy, c.aabb, displacement);
                debug_assert!(moved.is_ok(), "{moved:?}");
                shape = c.next;
            }
            if !self.bodies[track.body].is_awake() {
                self.wake_body_index(track.body);
            }
        }
    }

    /// Caps the angular speed of awake dynamic bodies at `max_rotation / dt` when the world
    /// has a maximum rotation per step ([`WorldDef::max_rotation`]).
    pub(crate) fn clamp_rotation(&mut self, dt: f32) {
        let Some(max_rotation) = self.def.max_rotation else { return };
        let max_speed = max_rotation / dt;
        for &index in &self.awake {
            let b = &mut self.bodies[index];
            if b.is_dynamic() && b.angular_velocity.abs() > max_speed {
                b.angular_velocity = max_speed.copysign(b.angular_velocity);
            }
        }
    }

    /// What continuous collision did in the last step: fast bodies, time of impact queries
    /// and their iterations, impacts and impulse sub-steps. All zero when continuous collision
    /// is off ([`WorldDef::enable_continuous`]).
    pub fn continuous_stats(&self) -> ContinuousStats {
        self.continuous.stats
    }

    /// The impacts continuous collision resolved in the last step, in time order (ties by
    /// shape pair): the same world stepped the same way reports the same list.
    pub fn impact_events(&self) -> &[ImpactEvent] {
        &self.continuous.impacts
    }
}

/// How many records ahead a loop asks for with [`prefetch`].
const PREFETCH_AHEAD: usize = 8;

/// Asks the processor to bring the cache lines of record `x` in (a hint: no effect on
/// results). Every line, whatever the compiler's order of the fields.
#[inline(always)]
fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    for offset in (0..size_of::<T>()).step_by(64) {
        // SAFETY: a prefetch reads nothing and faults on no address; the offset stays
        // inside the record.
        unsafe {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            _mm_prefetch::<_MM_HINT_T0>((x as *const T).cast::<i8>().add(offset));
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

/// True when two bodies that continuous collision has not redirected in this step moved so
/// little relative to each other over the whole step that neither can pass through the other
/// (see `World::slow_relative_motion`): the cheap early-out of the candidate search.
fn step_motion_is_slow(bodies: &Slots<Body>, slot: &[u32], tracks: &[Track], a: u32, b: u32) -> bool {
    let sweep = |body: u32| {
        let redirected = matches!(slot.get(body as usize), Some(&i) if i != NULL && tracks[i as usize].changed);
        let x = &bodies[body];
        match (redirected, x.is_awake()) {
            (true, _) => None,
            (false, true) => Some(x.sweep),
            (false, false) => Some(x.still_sweep()),
        }
    };
    match (sweep(a), sweep(b)) {
        (Some(sa), Some(sb)) => relative_motion_is_slow(&bodies[a], &sa, &bodies[b], &sb),
        _ => false,
    }
}

/// True when kinematic body `k` moving over `ks` moves so little where dynamic body `d` (over
/// `ds`) is that the contact solver holds `d`: the kinematic body's motion there (its center's,
/// and its turn times the distance to the dynamic body's far side) is within the dynamic
/// body's smallest extent (a pusher must travel that far to reach its center; the body's own
/// motion is within its fast-body limit, or continuous collision would follow it) and within
/// the kinematic body's own fast-body limit (a thin pusher is easy to pass). A turning drum
/// whose walls move a few centimeters a step past the boxes inside stays the contact solver's.
fn kinematic_push_is_slow(k: &Body, ks: &Sweep, d: &Body, ds: &Sweep) -> bool {
    let reach = k.max_extent.min((ds.c1 - ks.c1).length() + d.max_extent);
    let push = (ks.c2 - ks.c1).length() + (ks.a2 - ks.a1).abs() * reach;
    push <= d.min_extent.min(k.safety_factor * k.min_extent)
}

/// The fast-body test applied to the relative motion of two bodies over their sweeps.
/// Only for two dynamic bodies: against static and kinematic shapes every tracked motion is
/// swept, since a body pressed deep into a wall by others may pass it with a small motion.
fn relative_motion_is_slow(a: &Body, sweep_a: &Sweep, b: &Body, sweep_b: &Sweep) -> bool {
    motion_of(a, sweep_a).is_slow_against(&motion_of(b, sweep_b))
}

/// What the relative-motion test needs of a body moving over a sweep (see
/// [`Motion::is_slow_against`]): its limit is the fast-body test's (a bullet's, or the safety
/// factor times its smallest extent), and none (negative) when it is not dynamic.
fn motion_of(b: &Body, s: &Sweep) -> Motion {
    let limit = match (b.is_dynamic(), b.bullet) {
        (false, _) => -1.0,
        (true, true) => BULLET_MIN_MOTION,
        (true, false) => b.safety_factor * b.min_extent,
    };
    Motion { translation: s.c2 - s.c1, spin: (s.a2 - s.a1).abs() * b.max_extent, limit }
}

/// What a dynamic body does for the rest of a step after an impact (`World::motion_after`).
#[derive(Clone, Copy, Debug)]
enum After {
    /// It moves on with its new velocities.
    Fly,
    /// It stands at its pose at the impact.
    Stop,
    /// A kinematic body carries it: it moves by `dp` (meters) and turns by `da` (radians) to
    /// the end of the step, and ends with the velocities `v` (m/s) and `w` (rad/s) of the
    /// kinematic body's motion where it is. `carrier` is the kinematic body (the one hit, or
    /// the one carrying the dynamic body hit).
    Carried { dp: Vec2, da: f32, v: Vec2, w: f32, carrier: u32 },
}

/// Whether the gap at `point` (world, meters) between a body moving over `frame` and a body
/// moving over `body` that touch there with `normal` (unit, from the first toward the
/// second) closes by more than the TOI tolerance, measured in the first body's turning frame
/// as `World::touching_push` measures it (at the end of the sweeps and at
/// [`CLOSING_SAMPLES`]). A turning pusher's face curves into a body that flies off along the
/// tangent (so a body hit by it would be pushed into again at once), and a point sliding
/// along a spinning plate drifts across it.
fn gap_closes(frame: &Sweep, body: &Sweep, point: Vec2, normal: Vec2) -> bool {
    most_closing(frame, body, &[point], normal).0 > TOI_TOLERANCE
}

/// The most the gap at any of `points` (world, meters) between a body moving over `frame` and
/// one moving over `body` closes (meters, negative when it only opens), along the first body's
/// `normal` (unit, toward the second) turned with it, at the end of the sweeps and at
/// [`CLOSING_SAMPLES`], with the index of that point: for each point and time, bit for bit
/// `-gap_change(&frame.part(t), &body.part(t), point, normal)` (`frame` and `body` whole at
/// the end), with the transforms computed once for every point (four rotations a
/// [`cos_sin_lanes`] call).
fn most_closing(frame: &Sweep, body: &Sweep, points: &[Vec2], normal: Vec2) -> (f32, usize) {
    let origin = frame.c1;
    // The sweeps as `gap_change` sees them at each time: the part up to it, rebased.
    let parts = |s: &Sweep| {
        let part = |t: f32| if t == 1.0 { s.rebased(origin) } else { s.part(t).rebased(origin) };
        [part(1.0), part(CLOSING_SAMPLES[0]), part(CLOSING_SAMPLES[1]), part(CLOSING_SAMPLES[2])]
    };
    let (k, f) = (parts(frame), parts(body));
    let (k0, f0) = (k[0].transform_at(0.0), f[0].transform_at(0.0));
    let ends = |s: &[Sweep; 4]| {
        let angles = Vec4::new(s[0].angle_at(1.0), s[1].angle_at(1.0), s[2].angle_at(1.0), s[3].angle_at(1.0));
        match cos_sin_lanes(angles) {
            Some((c, sn)) => [
                s[0].placed(1.0, Rot { c: c.x, s: sn.x }),
                s[1].placed(1.0, Rot { c: c.y, s: sn.y }),
                s[2].placed(1.0, Rot { c: c.z, s: sn.z }),
                s[3].placed(1.0, Rot { c: c.w, s: sn.w }),
            ],
            None => [s[0].transform_at(1.0), s[1].transform_at(1.0), s[2].transform_at(1.0), s[3].transform_at(1.0)],
        }
    };
    let (k1, f1) = (ends(&k), ends(&f));
    let mut most = (f32::NEG_INFINITY, 0);
    for (i, &point) in points.iter().enumerate() {
        let p = point - origin;
        let (on_frame, on_body) = (k0.inv_apply(p), f0.inv_apply(p));
        for j in 0..4 {
            let n = k1[j].q.rotate(k0.q.inv_rotate(normal));
            let closing = -(f1[j].apply(on_body) - k1[j].apply(on_frame)).dot(n);
            if closing > most.0 {
                most = (closing, i);
            }
        }
    }
    most
}

/// How much the gap (meters) at `point` (world, meters) between a body moving over `kinematic`
/// (a kinematic body, or any body whose frame the gap is measured in) and a body moving over
/// `body` grows over the sweeps, along the first body's `normal` (unit, toward the other
/// body) turned with it: the other body's copy of the point less the first body's, at the
/// end. Measured in the first body's frame, so a face that turns into a body keeping pace
/// with it along the start normal counts as closing. The reference [`most_closing`] is tested
/// against.
#[cfg(test)]
fn gap_change(kinematic: &Sweep, body: &Sweep, point: Vec2, normal: Vec2) -> f32 {
    let origin = kinematic.c1;
    let (k, f) = (kinematic.rebased(origin), body.rebased(origin));
    let (k0, k1, f0, f1) = (k.transform_at(0.0), k.transform_at(1.0), f.transform_at(0.0), f.transform_at(1.0));
    let p = point - origin;
    let (on_kinematic, on_body) = (k1.apply(k0.inv_apply(p)), f1.apply(f0.inv_apply(p)));
    (on_body - on_kinematic).dot(k1.q.rotate(k0.q.inv_rotate(normal)))
}

/// The turn (radians) over the rest of the step beyond which a dynamic body's touching push
/// is not sampled first after an impact (`World::advance`): a quarter turn, where the samples
/// of [`CLOSING_SAMPLES`] in a frame that turns with it no longer follow the contact.
const SAMPLED_TURN_LIMIT: f32 = std::f32::consts::FRAC_PI_2;

/// The fractions of a pair's sweeps at which `World::touching_push` also measures how the gap
/// at their contact changed: a body turning a radian or more in the rest of the step may
/// carry the contact point into the other shape and out again before the end.
const CLOSING_SAMPLES: [f32; 3] = [0.125, 0.25, 0.5];

/// The least start gap (meters) at which a touching pair's whole shapes are swept with a
/// lowered target (`World::advance_apart`) instead of going to the core levels: any gap the
/// time of impact still resolves (a few micrometers), so a pair left at or below the target
/// gap by impacts qualifies and one left touching or overlapping by the contact solver does
/// not.
const APART_MIN_GAP: f32 = 0.001 * LINEAR_SLOP;

/// Whether a body is elongated: its largest extent more than [`ELONGATION`] times its
/// smallest (a box of sides 4 to 1 or longer, a plate, a long capsule). The core of such a
/// body is much shorter than the body, so the core levels let its ends sink deep.
fn is_elongated(b: &Body) -> bool {
    b.max_extent > ELONGATION * b.min_extent
}

/// See [`is_elongated`].
const ELONGATION: f32 = 4.0;

/// How much of the thinner dynamic body's smallest extent the turn of a touching pair must
/// move its shapes' surfaces before the whole shapes are swept below their gap
/// (`World::turns_past_thickness`). Measured on the stress runs: at 1 the `spinners` family
/// fails 75 seeds of 1000, at 0.25 47; the benchmark scenes' bodies (boxes tumbling in a
/// drum) stay below it.
const APART_TURN_FRACTION: f32 = 0.25;

/// Two bodies' sweeps over the rest of the step from the later of their starts, the
/// fraction `base` of the step.
#[derive(Clone, Copy, Debug)]
struct PairSweeps {
    base: f32,
    sweep_a: Sweep,
    sweep_b: Sweep,
    moves_a: bool,
    moves_b: bool,
}

/// A shape in the moving set: whose it is.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct Mover {
    shape: u32,
    body: u32,
    /// The body is fast (tracked at the start of the step, or re-swept after an impact).
    fast: bool,
    /// The shape's filter, here so pairs are filtered without reading the shapes' records.
    filter: Filter,
    /// The body is kinematic.
    kinematic: bool,
    /// The version of the body's motion the box holds (see `Track::version`).
    version: u32,
}

/// The key of the pair of shapes `a` and `b` (indices): the smaller in the high half.
#[inline]
pub(crate) fn shape_pair_key(a: u32, b: u32) -> u64 {
    pair_of(a, b).0
}

/// A candidate pair: (key, shape, shape), the smaller shape first.
fn pair_of(a: u32, b: u32) -> (u64, u32, u32) {
    let (x, y) = (a.min(b), a.max(b));
    ((u64::from(x) << 32) | u64::from(y), x, y)
}

/// The smallest distance (meters) between the centers of two sweeps over the step. Each body
/// stays inside the circle of its largest extent about its center, whatever it turns, so two
/// bodies whose centers never come closer than the sum of their largest extents (and the TOI
/// target) never meet: a cull cheaper than the time of impact.
fn closest_approach(a: &Sweep, b: &Sweep) -> f32 {
    let (r0, dr) = (b.c1 - a.c1, (b.c2 - b.c1) - (a.c2 - a.c1));
    let dd = dr.length_squared();
    let t = if dd > 0.0 { (-r0.dot(dr) / dd).clamp(0.0, 1.0) } else { 0.0 };
    (r0 + t * dr).length()
}

/// Restarts a track at fraction `t` from the pose of `sweep` at `t`, moving by `dp` (meters)
/// and `da` (radians) over the rest of the step.
fn restart(track: &mut Track, t: f32, sweep: &Sweep, dp: Vec2, da: f32) {
    track.t0 = t;
    track.c0 = sweep.c1;
    track.a0 = sweep.a1;
    track.c1 = sweep.c1 + dp;
    track.a1 = sweep.a1 + da;
    track.version += 1;
    track.changed = true;
    track.carrier = NULL;
}

/// A manifold of one point (world, meters) with a normal from A to B.
fn single_point(point: Vec2, normal: Vec2, xf_a: Transform, xf_b: Transform) -> Manifold {
    let mut m = Manifold { normal, count: 1, ..Manifold::EMPTY };
    m.points[0].point = point;
    m.points[0].anchor_a = point - xf_a.p;
    m.points[0].anchor_b = point - xf_b.p;
    m
}

/// A time of impact query at the target gap, counted in the stats; `None` on bad input.
fn toi(cc: &mut Continuous, pa: &ShapeProxy, sa: &Sweep, pb: &ShapeProxy, sb: &Sweep) -> Option<ToiOutput> {
    toi_at(cc, (pa, sa), (pb, sb), TOI_TARGET, TOI_TOLERANCE)
}

/// A time of impact query at a target gap and tolerance (meters), counted in the stats;
/// `None` on bad input.
fn toi_at(
    cc: &mut Continuous,
    (pa, sa): (&ShapeProxy, &Sweep),
    (pb, sb): (&ShapeProxy, &Sweep),
    target: f32,
    tolerance: f32,
) -> Option<ToiOutput> {
    cc.stats.toi_calls += 1;
    let out = time_of_impact(pa, sa, pb, sb, 1.0, target, tolerance).ok()?;
    cc.stats.toi_iterations += out.iterations;
    cc.stats.toi_root_iterations += out.root_iterations;
    Some(out)
}

/// The box of a shape at the start of a sweep (placed by `xf0`): its tight box when the body
/// does not turn, else the box of the circle of radius `reach` (meters, the body's largest
/// extent) about the center of mass, which holds the shape in any rotation.
fn start_box(shape: &Shape, xf0: Transform, sweep: &Sweep, reach: f32) -> Aabb {
    if sweep.a1 == sweep.a2 {
        return shape.aabb(xf0);
    }
    Aabb::new(sweep.c1 - Vec2::splat(reach), sweep.c1 + Vec2::splat(reach))
}

/// What a separating axis test at the start of two sweeps tells about two polygons.
#[derive(Clone, Copy, Debug, PartialEq)]
enum PolygonStart {
    /// They touch at the start (their cores overlap, or are surely closer than the top of
    /// the target band): the time of impact could only say so.
    Touching,
    /// They stay farther apart than the target gap all along the sweeps: no impact.
    ApartAllStep,
    /// Neither: the time of impact decides; it is not before this fraction of the sweeps.
    Open(f32),
}

/// The separating axis test of two polygons at the start of their sweeps (`reach_a`,
/// `reach_b`: the bodies' largest extents, meters), when both are polygons, each shrunk by
/// its scale about the mean of its vertices (the cores of the retry, see [`core_proxy`]; 1
/// keeps it whole). Along the world axis that separates them most, no point of a body moves
/// closer to the other than its center's approach along the axis plus its turn times its
/// distance from its center of mass (a chord is shorter than its arc), so a start separation
/// beyond those and the target gap stays a gap all along (conservative advancement's bound,
/// Mirtich 1996; Catto, GDC 2013). Each side is (shape, sweep, reach, scale).
fn polygon_start_shrunk(
    (a, sweep_a, reach_a, scale_a): (&Shape, &Sweep, f32, f32),
    (b, sweep_b, reach_b, scale_b): (&Shape, &Sweep, f32, f32),
) -> PolygonStart {
    let (Shape::Polygon(pa), Shape::Polygon(pb)) = (a, b) else { return PolygonStart::Open(0.0) };
    let origin = sweep_a.c1;
    let (rebased_a, rebased_b) = (sweep_a.rebased(origin), sweep_b.rebased(origin));
    let [xf_a, xf_b, end_a, end_b] = start_and_end(&rebased_a, &rebased_b);
    let CoreSeparation { separation, axis, upper } = core_separation(pa, xf_a, scale_a, pb, xf_b, scale_b);
    let radii = scale_a * pa.radius() + scale_b * pb.radius();
    if separation < 0.0 || upper < radii + TOI_TARGET + TOI_TOLERANCE {
        return PolygonStart::Touching;
    }
    let (reach_a, reach_b) = (shrunk_reach(pa, sweep_a, reach_a, scale_a), shrunk_reach(pb, sweep_b, reach_b, scale_b));
    let closing = axis.dot((sweep_a.c2 - sweep_a.c1) - (sweep_b.c2 - sweep_b.c1)).max(0.0);
    let (turn_a, turn_b) = ((sweep_a.a2 - sweep_a.a1).abs() * reach_a, (sweep_b.a2 - sweep_b.a1).abs() * reach_b);
    let turning = turn_a + turn_b;
    if separation - radii - closing - turning > TOI_TARGET + TOI_TOLERANCE {
        return PolygonStart::ApartAllStep;
    }
    // The same along the axis fixed in the frame of the body that turns more (its shape does
    // not move there), when that is less: a box sliding along the wall of a turning drum
    // 20 m across closes the gap by millimeters, where the drum's turn times its reach is 10 cm.
    let mut approach = closing + turning;
    if turning > 0.0 {
        let framed = match turn_a >= turn_b {
            true => closing_in_frame(sweep_a, sweep_b, reach_b, axis),
            false => closing_in_frame(sweep_b, sweep_a, reach_a, -axis),
        };
        if separation - radii - framed > TOI_TARGET + TOI_TOLERANCE {
            return PolygonStart::ApartAllStep;
        }
        approach = approach.min(framed);
    }
    // Along the same axis at the end: a vertex strays from the chord between its two ends by
    // at most its distance from the center of mass times the turn squared over 8, and on the
    // chords the separation is least at an end (the least of linear functions less the most).
    let ends = (end_a, end_b);
    let end = extent(pb, ends.1, scale_b, -axis) + extent(pa, ends.0, scale_a, axis);
    let bowing = |turn: f32, reach: f32| 0.125 * turn * turn * reach;
    let bowing = bowing(sweep_a.a2 - sweep_a.a1, reach_a) + bowing(sweep_b.a2 - sweep_b.a1, reach_b);
    if separation.min(-end) - radii - bowing > TOI_TARGET + TOI_TOLERANCE {
        return PolygonStart::ApartAllStep;
    }
    // When the gap may first reach the top of the target band (a hair earlier, for rounding):
    // it closes no faster than the approach and the turning together, nor (on the chords, a
    // concave gap lies above the line between its ends; a vertex strays 4 t (1 - t) times
    // its bound at time t) than its change over the step plus four times the bowing.
    let (gap, rate) = (separation - radii - TOI_TARGET - TOI_TOLERANCE, approach.min(separation + end + 4.0 * bowing));
    match gap > 0.0 {
        false => PolygonStart::Open(0.0),
        true if rate <= 0.0 => PolygonStart::ApartAllStep,
        true => PolygonStart::Open((EARLIEST_MARGIN * gap / rate).min(1.0)),
    }
}

/// The most the gap between a body moving over `frame` and one moving over `other` can close
/// over the sweeps (meters, and no faster than evenly over them) along an axis fixed in the
/// first body's frame, `axis` (unit, world, from the first toward the second) at the start;
/// `reach` is the second body's largest distance from its center of mass. In the first
/// body's frame its shape stands still, and a point `r` from the other's center moves at
/// `U0 - t Δf J (dO - dF) + (Δo - Δf) J R r` (the centers' displacements `dF`, `dO`, turns
/// `Δf`, `Δo`, `J` a quarter turn, `U0 = dO - dF - Δf J (cO - cF)` the other center's motion
/// relative to the first body's material point there), against an axis that turns by at most
/// `Δf`: no faster than `max(0, -U0 · axis) + |U0| |Δf| + |Δf| |dO - dF| + |Δo - Δf| reach`.
fn closing_in_frame(frame: &Sweep, other: &Sweep, reach: f32, axis: Vec2) -> f32 {
    let (turn_f, turn_o) = (frame.a2 - frame.a1, other.a2 - other.a1);
    let relative = (other.c2 - other.c1) - (frame.c2 - frame.c1);
    let apart = other.c1 - frame.c1;
    let u0 = relative - turn_f * Vec2::new(-apart.y, apart.x);
    (-u0.dot(axis)).max(0.0) + (u0.length() + relative.length()) * turn_f.abs() + (turn_o - turn_f).abs() * reach
}

/// The transforms of two sweeps at their start and end, bit for bit [`Sweep::transform_at`],
/// the four rotations from one [`cos_sin_lanes`] call: the separating axis test above needs
/// all four for most pairs.
fn start_and_end(a: &Sweep, b: &Sweep) -> [Transform; 4] {
    let angles = Vec4::new(a.angle_at(0.0), b.angle_at(0.0), a.angle_at(1.0), b.angle_at(1.0));
    match cos_sin_lanes(angles) {
        Some((c, s)) => [
            a.placed(0.0, Rot { c: c.x, s: s.x }),
            b.placed(0.0, Rot { c: c.y, s: s.y }),
            a.placed(1.0, Rot { c: c.z, s: s.z }),
            b.placed(1.0, Rot { c: c.w, s: s.w }),
        ],
        None => [a.transform_at(0.0), b.transform_at(0.0), a.transform_at(1.0), b.transform_at(1.0)],
    }
}

/// The share of the bound from [`polygon_start_shrunk`] on the time a gap may close that an event
/// waits for: a hair less than all of it, for rounding.
const EARLIEST_MARGIN: f32 = 0.999;

/// The greatest extent along `axis` (world, unit) of polygon `p` (its core) placed by `xf` and
/// shrunk by `scale` about the mean of its vertices (meters).
fn extent(p: &crate::geometry::Polygon, xf: Transform, scale: f32, axis: Vec2) -> f32 {
    let local = xf.q.inv_rotate(axis);
    let whole = p.vertices().iter().map(|v| v.dot(local)).fold(f32::NEG_INFINITY, f32::max);
    let center = mean(p.vertices()).dot(local);
    axis.dot(xf.p) + center + scale * (whole - center)
}

/// The largest distance (meters) from the center of mass of a polygon (its core, without the
/// radius) shrunk by `scale` about the mean of its vertices: at most the body's largest
/// extent `reach`, and at most the mean's distance plus the shrunk vertices'.
fn shrunk_reach(p: &crate::geometry::Polygon, sweep: &Sweep, reach: f32, scale: f32) -> f32 {
    if scale == 1.0 {
        return reach;
    }
    let center = mean(p.vertices());
    let farthest = p.vertices().iter().map(|&v| v.distance_squared(center)).fold(0.0, f32::max).sqrt();
    reach.min((center - sweep.local_center).length() + scale * farthest)
}

/// The most proxy slots of a tree that [`World::query_still`] reads one by one rather than
/// walking the tree (a fast body in a room queries the room's few walls every step).
const SCAN_MAX_SLOTS: usize = 8;

/// The share of the dynamic tree's box that the fast sweeps' reach must cover for the still
/// shapes to be gathered by reading every node rather than walking the tree.
const SCAN_COVER: f32 = 0.25;

/// The area of a box (square meters; zero for an empty intersection).
fn area(b: &Aabb) -> f32 {
    let e = b.upper - b.lower;
    e.x.max(0.0) * e.y.max(0.0)
}

/// The box common to two overlapping boxes (inside out when they do not overlap).
fn intersection(a: &Aabb, b: &Aabb) -> Aabb {
    Aabb::new(a.lower.max(b.lower), a.upper.min(b.upper))
}

/// True when `shape` is a one-sided chain segment and the other body's center starts behind
/// it: a body coming from behind a chain passes through it.
fn behind_chain(shape: &Shape, sweep: &Sweep, other: &Sweep) -> bool {
    let Shape::ChainSegment(chain) = shape else { return false };
    let xf = sweep.transform_at(0.0);
    let (p1, normal) = (xf.apply(chain.segment().point1()), xf.q.rotate(chain.normal()));
    (other.c1 - p1).dot(normal) < 0.0
}

/// The impulse solve of one impact (sequential impulses on the manifold points, friction
/// and restitution): approaching points bounce back at `restitution` times their approach
/// speed when faster than `threshold` (m/s); every other point may close its gap to the
/// time of impact's target over the `remaining` time of the step (seconds), no faster
/// (a speculative contact); a point closer than the target band opens toward it over the
/// rest of the step, a quarter of the `step` (seconds) at least; with a `push_time` (seconds), points overlapping by more than the linear slop also separate fast
/// enough to leave the overlap in that time (a kinematic pusher's impact). Returns the
/// fastest approaching point and its approach speed (m/s), if any point approached.
fn solve_impact(
    a: &mut ImpactBody,
    b: &mut ImpactBody,
    m: &Manifold,
    (friction, restitution, threshold): (f32, f32, f32),
    (remaining, step): (f32, f32),
    push_time: Option<f32>,
) -> Option<(usize, f32)> {
    let mut fastest: Option<(usize, f32)> = None;
    let (n, tangent) = (m.normal, Vec2::new(-m.normal.y, m.normal.x));
    let mut points = [(Vec2::ZERO, Vec2::ZERO, 0.0f32, 0.0f32, 0.0f32, 0.0f32, 0.0f32); 2];
    for (i, (slot, p)) in points.iter_mut().zip(m.points()).enumerate() {
        let (ra, rb) = (p.point - a.center, p.point - b.center);
        let mass = |dir: Vec2| {
            let (rna, rnb) = (ra.perp_dot(dir), rb.perp_dot(dir));
            let k = a.inv_mass + b.inv_mass + a.inv_inertia * rna * rna + b.inv_inertia * rnb * rnb;
            if k > 0.0 { 1.0 / k } else { 0.0 }
        };
        let vn = (b.velocity_at(rb) - a.velocity_at(ra)).dot(n);
        // A bouncing point leaves at its restitution speed; any other point may close its gap
        // (to the time of impact's target) over the rest of the step, no faster: a bounce
        // that turns the body into a second point must not drive that point through.
        let closing = (p.separation - TOI_TARGET).max(0.0) / remaining;
        let target = if restitution > 0.0 && vn < -threshold { -restitution * vn } else { -closing };
        // A point closer than the target band (an impact found below it, see
        // `World::advance_apart`, or shapes that overlap) opens toward the band over the rest of
        // the step (a quarter step at least): repeated impacts must not close the gap further.
        let below = (TOI_TARGET - TOI_TOLERANCE - p.separation).clamp(0.0, TOI_TARGET);
        let target = target.max(below / remaining.max(0.25 * step));
        let overlap = (-p.separation - LINEAR_SLOP).max(0.0);
        let target = push_time.map_or(target, |time| target.max(overlap / time));
        if vn < 0.0 && fastest.is_none_or(|(_, speed)| -vn > speed) {
            fastest = Some((i, -vn));
        }
        *slot = (ra, rb, mass(n), mass(tangent), target, 0.0, 0.0);
    }
    let points = &mut points[..m.count.min(2)];
    let apply = |a: &mut ImpactBody, b: &mut ImpactBody, ra: Vec2, rb: Vec2, impulse: Vec2| {
        a.v -= a.inv_mass * impulse;
        a.w -= a.inv_inertia * ra.perp_dot(impulse);
        b.v += b.inv_mass * impulse;
        b.w += b.inv_inertia * rb.perp_dot(impulse);
    };
    for _ in 0..TOI_SOLVER_ITERATIONS {
        for (ra, rb, _, tangent_mass, _, normal_impulse, tangent_impulse) in points.iter_mut() {
            let vt = (b.velocity_at(*rb) - a.velocity_at(*ra)).dot(tangent);
            let max = friction * *normal_impulse;
            let max = if max.is_nan() { 0.0 } else { max }; // `clamp` panics on NaN bounds
            let new = (*tangent_impulse - *tangent_mass * vt).clamp(-max, max);
            apply(a, b, *ra, *rb, (new - *tangent_impulse) * tangent);
            *tangent_impulse = new;
        }
        for (ra, rb, normal_mass, _, target, normal_impulse, _) in points.iter_mut() {
            let vn = (b.velocity_at(*rb) - a.velocity_at(*ra)).dot(n);
            let new = (*normal_impulse - *normal_mass * (vn - *target)).max(0.0);
            apply(a, b, *ra, *rb, (new - *normal_impulse) * n);
            *normal_impulse = new;
        }
    }
    fastest
}

/// Checks the continuous collision settings of a [`WorldDef`].
pub(crate) fn validate(def: &WorldDef) -> Result<(), super::error::WorldError> {
    use super::error::WorldError;
    if def.max_impacts_per_body == 0 {
        return Err(WorldError::InvalidValue { what: "max impacts per body", requirement: "at least 1" });
    }
    match def.max_rotation {
        Some(r) if !(r.is_finite() && r > 0.0) => {
            Err(WorldError::InvalidValue { what: "max rotation", requirement: "finite and positive" })
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Polygon, make_box};
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The world vertices (f64) of a polygon's vertices (body coordinates) placed by a sweep
    /// at time `t`, its center of mass and angle moving linearly.
    fn placed(vertices: &[Vec2], s: &Sweep, t: f64) -> Vec<[f64; 2]> {
        let c =
            [f64::from(s.c1.x) + t * f64::from(s.c2.x - s.c1.x), f64::from(s.c1.y) + t * f64::from(s.c2.y - s.c1.y)];
        let a = f64::from(s.a1) + t * (f64::from(s.a2) - f64::from(s.a1));
        let (sin, cos) = a.sin_cos();
        let local = |v: Vec2| [f64::from(v.x - s.local_center.x), f64::from(v.y - s.local_center.y)];
        vertices.iter().map(|&v| local(v)).map(|[x, y]| [c[0] + cos * x - sin * y, c[1] + sin * x + cos * y]).collect()
    }

    /// The distance between two convex polygons (world vertices, counter-clockwise) by brute
    /// force: zero when a vertex of one is inside the other or two edges cross, else the
    /// least distance of a vertex of either to an edge of the other.
    fn polygon_distance(a: &[[f64; 2]], b: &[[f64; 2]]) -> f64 {
        let cross =
            |u: [f64; 2], v: [f64; 2], p: [f64; 2]| (v[0] - u[0]) * (p[1] - u[1]) - (v[1] - u[1]) * (p[0] - u[0]);
        let edges =
            |poly: &[[f64; 2]]| (0..poly.len()).map(|i| (poly[i], poly[(i + 1) % poly.len()])).collect::<Vec<_>>();
        let inside = |p: [f64; 2], poly: &[[f64; 2]]| edges(poly).iter().all(|&(u, v)| cross(u, v, p) >= 0.0);
        let crossing = |(u, v): ([f64; 2], [f64; 2]), (p, q): ([f64; 2], [f64; 2])| {
            cross(u, v, p) * cross(u, v, q) <= 0.0 && cross(p, q, u) * cross(p, q, v) <= 0.0
        };
        let edges_cross = edges(a).iter().any(|&e| edges(b).iter().any(|&f| crossing(e, f)));
        if edges_cross || a.iter().any(|&p| inside(p, b)) || b.iter().any(|&p| inside(p, a)) {
            return 0.0;
        }
        let to_segment = |p: [f64; 2], u: [f64; 2], v: [f64; 2]| {
            let (dx, dy) = (v[0] - u[0], v[1] - u[1]);
            let t = (((p[0] - u[0]) * dx + (p[1] - u[1]) * dy) / (dx * dx + dy * dy)).clamp(0.0, 1.0);
            ((p[0] - u[0] - t * dx).powi(2) + (p[1] - u[1] - t * dy).powi(2)).sqrt()
        };
        let one_way = |a: &[[f64; 2]], b: &[[f64; 2]]| {
            let edges = (0..b.len()).map(|i| (b[i], b[(i + 1) % b.len()]));
            edges.flat_map(|(u, v)| a.iter().map(move |&p| to_segment(p, u, v))).fold(f64::INFINITY, f64::min)
        };
        one_way(a, b).min(one_way(b, a))
    }

    /// The bound on the closing in the frame of the body that turns more
    /// (`closing_in_frame`): boxes 0.1 to 0.3 m sliding and spinning (up to 1 rad) along the
    /// wall of a drum 20 m across that turns 0.005 to 0.3 rad, moving with the wall there plus
    /// up to 0.3 m either way. A pair said to stay apart stays farther apart than the target
    /// gap at 400 times along the sweeps, and one said open is no closer than the top of the
    /// band before its earliest time. 1,558 of the 4,000 are said apart (769 with the bound
    /// in the world's frame alone, where the drum's turn times its reach is 7 cm to 4 m).
    #[test]
    fn polygon_start_in_a_turning_frame_is_conservative() {
        let mut rng = ChaCha8Rng::seed_from_u64(23);
        let mut next = move || rng.random_range(0.0f32..1.0);
        let wall = crate::geometry::make_offset_box(0.5, 10.0, Vec2::new(10.0, 0.0), 0.0).unwrap();
        let (mut apart, mut open) = (0, 0);
        for k in 0..4000 {
            let drum = Vec2::new(0.0, 10.0) + if k % 4 == 0 { Vec2::new(2.0e4, 1.0e4) } else { Vec2::ZERO };
            let (a1, turn) = (6.0 * next(), (0.005 + 0.3 * next() * next()) * if k % 2 == 0 { 1.0 } else { -1.0 });
            let drum_sweep = Sweep { local_center: Vec2::ZERO, c1: drum, c2: drum, a1, a2: a1 + turn };
            let half = 0.05 + 0.1 * next();
            let block = make_box(half, half).unwrap();
            // Inside the drum, near its wall, 0.5 m to 8 m from its center along it.
            let along = -8.0 + 16.0 * next();
            let local = Vec2::new(9.5 - half * 1.5 - 0.3 * next(), along);
            let c1 = drum + Rot::from_angle(a1).rotate(local);
            let carried = drum + Rot::from_angle(a1 + turn).rotate(local);
            let c2 = carried + 0.3 * Vec2::new(2.0 * next() - 1.0, 2.0 * next() - 1.0);
            let b1 = 6.0 * next();
            let block_sweep = Sweep { local_center: Vec2::ZERO, c1, c2, a1: b1, a2: b1 + 2.0 * next() - 1.0 };
            let reach_wall = wall.vertices().iter().map(|v| v.length()).fold(0.0, f32::max);
            let reach_block = block.vertices().iter().map(|v| v.length()).fold(0.0, f32::max);
            let (a, b) = (Shape::Polygon(wall), Shape::Polygon(block));
            let start = polygon_start_shrunk((&a, &drum_sweep, reach_wall, 1.0), (&b, &block_sweep, reach_block, 1.0));
            let distance = |t: f64| {
                polygon_distance(&placed(wall.vertices(), &drum_sweep, t), &placed(block.vertices(), &block_sweep, t))
            };
            match start {
                PolygonStart::Touching => {}
                PolygonStart::ApartAllStep => {
                    apart += 1;
                    let least = (0..=400).map(|i| distance(f64::from(i) / 400.0)).fold(f64::INFINITY, f64::min);
                    assert!(least > f64::from(TOI_TARGET), "case {k}: {least} m apart at the closest");
                }
                PolygonStart::Open(earliest) => {
                    open += 1;
                    let steps = (400.0 * earliest) as u32;
                    let least = (0..steps).map(|i| distance(f64::from(i) / 400.0)).fold(f64::INFINITY, f64::min);
                    let top = f64::from(TOI_TARGET + TOI_TOLERANCE);
                    assert!(least > top - 1e-5, "case {k}: {least} m apart before {earliest}");
                }
            }
        }
        assert!(apart > 1400 && open > 1000, "{apart} apart, {open} open");
    }

    /// `most_closing` computes the transforms once for every point and time (four rotations a
    /// lane call), and must give, bit for bit, what `gap_change` gives for each point and time:
    /// 20,000 seeded pairs of sweeps (moving up to 4 m, turning up to 3 rad, 20 km out for a
    /// quarter of them) and one or two points.
    #[test]
    fn most_closing_is_gap_change_at_every_point_and_time() {
        let mut rng = ChaCha8Rng::seed_from_u64(17);
        let mut next = move || rng.random_range(-1.0f32..1.0);
        let mut closing_cases = 0;
        for k in 0..20_000 {
            let far = if k % 4 == 0 { Vec2::new(2.0e4, -1.5e4) } else { Vec2::ZERO };
            let sweep = |next: &mut dyn FnMut() -> f32| {
                let c1 = far + Vec2::new(next(), next());
                let a1 = 3.0 * next();
                let turn = if k % 5 == 0 { 0.0 } else { 3.0 * next() };
                let local_center = 0.1 * Vec2::new(next(), next());
                Sweep { local_center, c1, c2: c1 + 4.0 * Vec2::new(next(), next()), a1, a2: a1 + turn }
            };
            let (frame, body) = (sweep(&mut next), sweep(&mut next));
            let points = [far + Vec2::new(next(), next()), far + Vec2::new(next(), next())];
            let normal = Vec2::new(next(), next()).normalize_or(Vec2::X);
            let count = 1 + k % 2;
            let reference = |p: Vec2| {
                let at = |t: f32| -gap_change(&frame.part(t), &body.part(t), p, normal);
                CLOSING_SAMPLES.iter().map(|&t| at(t)).fold(-gap_change(&frame, &body, p, normal), f32::max)
            };
            let (most, i) = most_closing(&frame, &body, &points[..count], normal);
            let expected = points[..count].iter().map(|&p| reference(p)).fold(f32::NEG_INFINITY, f32::max);
            assert_eq!(most.to_bits(), expected.to_bits(), "case {k}: {most} against {expected}");
            assert_eq!(reference(points[i]).to_bits(), most.to_bits(), "case {k}: point {i}");
            closing_cases += usize::from(most > TOI_TOLERANCE);
        }
        assert!(closing_cases > 5_000, "{closing_cases} of 20,000 close");
    }

    /// The separating axis test before the time of impact, for the whole shapes and for the
    /// shapes shrunk as the core retry shrinks them: cores that overlap at the start are said
    /// to overlap, and a pair said to stay apart stays farther apart than the target gap all
    /// along its sweeps, by brute force at 400 times, on seeded boxes and hulls that move up to
    /// 3 m and turn up to 2 radians, one or both of them shrunk.
    #[test]
    fn polygon_start_is_exact_at_the_start_and_conservative_over_the_step() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut next = move || rng.random_range(0.0f32..1.0);
        let (mut touching, mut apart, mut open, mut waiting) = (0, 0, 0, 0);
        for k in 0..3000 {
            let shape = |next: &mut dyn FnMut() -> f32| {
                let p = if k % 2 == 0 {
                    make_box(0.05 + 0.5 * next(), 0.05 + 0.5 * next()).unwrap()
                } else {
                    let points: Vec<Vec2> = (0..3 + k % 6).map(|_| Vec2::new(next() - 0.5, next() - 0.5)).collect();
                    Polygon::new(&points, 0.0).unwrap_or_else(|_| make_box(0.3, 0.1).unwrap())
                };
                // A body of several shapes has its center of mass away from this one's.
                let offset = if k % 4 == 3 { Vec2::new(next() - 0.5, next() - 0.5) } else { Vec2::ZERO };
                let center = p.centroid() + offset;
                let reach = p.vertices().iter().map(|&v| (v - center).length()).fold(0.0, f32::max);
                let c1 = Vec2::new(2.0 * next() - 1.0, 2.0 * next() - 1.0);
                let (d, a1) = (Vec2::new(6.0 * next() - 3.0, 6.0 * next() - 3.0) * next(), 6.0 * next());
                let turn = if k % 3 == 0 { 0.0 } else { 4.0 * next() - 2.0 };
                (p, Sweep { local_center: center, c1, c2: c1 + d, a1, a2: a1 + turn }, reach)
            };
            let ((pa, sa, ra), (pb, sb, rb)) = (shape(&mut next), shape(&mut next));
            let (a, b) = (Shape::Polygon(pa), Shape::Polygon(pb));
            let scales = [[1.0, CONTINUOUS_CORE_FRACTION], [CONTINUOUS_CORE_FRACTION, 1.0]][k % 2];
            let scales = if k % 5 == 0 { [CONTINUOUS_CORE_FRACTION; 2] } else { scales };
            // The shrunk shapes as `core_proxy` makes them: about the mean of the vertices.
            let shrunk = |p: &Polygon, scale: f32| {
                let center = p.vertices().iter().copied().sum::<Vec2>() / p.vertices().len() as f32;
                p.vertices().iter().map(|&v| center + scale * (v - center)).collect::<Vec<_>>()
            };
            for level in 0..2 {
                let (va, vb, start) = if level == 0 {
                    (
                        pa.vertices().to_vec(),
                        pb.vertices().to_vec(),
                        polygon_start_shrunk((&a, &sa, ra, 1.0), (&b, &sb, rb, 1.0)),
                    )
                } else {
                    let start = polygon_start_shrunk((&a, &sa, ra, scales[0]), (&b, &sb, rb, scales[1]));
                    (shrunk(&pa, scales[0]), shrunk(&pb, scales[1]), start)
                };
                let distance = |t: f64| polygon_distance(&placed(&va, &sa, t), &placed(&vb, &sb, t));
                match start {
                    PolygonStart::Touching => {
                        touching += 1;
                        assert!(
                            distance(0.0) < f64::from(TOI_TARGET + TOI_TOLERANCE) + 1e-5,
                            "case {k} level {level}: apart by {} at the start",
                            distance(0.0)
                        );
                    }
                    PolygonStart::ApartAllStep => {
                        apart += 1;
                        let least = (0..=400).map(|i| distance(f64::from(i) / 400.0)).fold(f64::INFINITY, f64::min);
                        assert!(
                            least > f64::from(TOI_TARGET),
                            "case {k} level {level}: {least} m apart at the closest"
                        );
                    }
                    PolygonStart::Open(earliest) => {
                        open += 1;
                        assert!(distance(0.0) > -1e-5, "case {k}");
                        // No closer than the top of the target band before the earliest time.
                        let steps = (400.0 * earliest) as u32;
                        let least = (0..steps).map(|i| distance(f64::from(i) / 400.0)).fold(f64::INFINITY, f64::min);
                        let top = f64::from(TOI_TARGET + TOI_TOLERANCE);
                        assert!(least > top - 1e-5, "case {k} level {level}: {least} m apart before {earliest}");
                        waiting += usize::from(earliest > 0.1);
                    }
                }
            }
        }
        assert!(touching > 300 && apart > 300 && open > 300, "{touching} touching, {apart} apart, {open} open");
        assert!(waiting > 100, "{waiting} of {open} open pairs wait past a tenth of the step");
    }
}
