//! A geometric character mover: a capsule moved through the world by casts, sliding along
//! what it touches, climbing slopes and steps, snapping to the ground, riding platforms and
//! pushing dynamic bodies, without ever passing through anything.
//!
//! Sources: Box2D v3.1's mover (cast the capsule, collect the planes it touches, solve the
//! planes for the position, clip the velocity against them) and rapier's kinematic character
//! controller (slopes, auto-step, snap to ground). The mover is not a body: it is a pose the
//! program owns, moved by [`CharacterMover::move_and_slide`] each step. Every change of its
//! position is the end of a shape cast that stops at the skin gap before the first shape in
//! the way, so at any speed it cannot pass a wall, however thin: the only motion that is not
//! cast is none.

use super::error::{WorldError, check_range, check_vector};
use super::handles::{BodyId, ShapeId};
use super::world::World;
use crate::broad_phase::Filter;
use crate::geometry::{Aabb, Capsule, Shape};
use crate::math::{Rot, Transform, Vec2};
use crate::query::{DistanceInput, ShapeCastInput, ShapeProxy, SimplexCache, penetration, shape_cast, shape_distance};
use crate::settings::{LINEAR_SLOP, MAX_COORDINATE, MAX_FORCE, MAX_LINEAR_SPEED, MAX_TIME_STEP};

/// How many rounds of collect planes, solve, cast one move makes at most.
const MAX_ROUNDS: usize = 5;
/// Gauss-Seidel passes over the planes in one solve.
const PLANE_PASSES: usize = 20;
/// Planes collected within this distance beyond the skin (meters).
const PLANE_MARGIN: f32 = 4.0 * LINEAR_SLOP;

/// The settings of a character mover. Units: meters, radians, newtons.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MoverDef {
    /// The capsule: its core segment's ends relative to the mover's position (meters) and its
    /// radius (meters, positive). Default a standing capsule 1.8 m tall and 0.6 m wide, its
    /// position at its middle.
    pub center1: Vec2,
    /// The other end of the core segment (meters, relative to the position).
    pub center2: Vec2,
    /// The capsule's radius (meters).
    pub radius: f32,
    /// The gap the mover keeps from everything it touches (meters, above 0 and at most the
    /// radius). Default 1 cm.
    pub skin: f32,
    /// The steepest ground it stands and walks on (radians from level, 0 to π/2); steeper
    /// slopes are walls when grounded. Default 45°.
    pub max_slope: f32,
    /// The highest step it climbs when walking into one (meters, not negative). Default 0.3 m.
    pub step_height: f32,
    /// How far down it looks for ground to stick to after a move that started grounded and
    /// was not going up (meters, not negative): it follows the ground down slopes and steps
    /// instead of flying off them. Default 0.2 m.
    pub snap_distance: f32,
    /// The largest force (N) it pushes dynamic bodies with, for the time of a move; 0 for
    /// none. Default 400 N.
    pub push_force: f32,
    /// Which shapes it collides with (sensors never). Default: everything.
    pub filter: Filter,
    /// The up direction (unit). Default +y.
    pub up: Vec2,
}

impl Default for MoverDef {
    fn default() -> Self {
        MoverDef {
            center1: Vec2::new(0.0, -0.6),
            center2: Vec2::new(0.0, 0.6),
            radius: 0.3,
            skin: 0.01,
            max_slope: std::f32::consts::FRAC_PI_4,
            step_height: 0.3,
            snap_distance: 0.2,
            push_force: 400.0,
            filter: Filter::default(),
            up: Vec2::Y,
        }
    }
}

/// A shape the mover touched during a move.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MoverHit {
    /// The shape.
    pub shape: ShapeId,
    /// Its body.
    pub body: BodyId,
    /// The unit normal from the shape to the mover.
    pub normal: Vec2,
    /// The contact point on the shape (meters, world).
    pub point: Vec2,
}

/// What a move did.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveOutput {
    /// The velocity asked for, with what pushes into the touched surfaces removed (m/s): the
    /// velocity to keep for the next step (a landing stops the fall, a wall stops the run).
    pub velocity: Vec2,
    /// The shapes touched, in the order met (each once).
    pub hits: Vec<MoverHit>,
    /// Whether the move climbed a step.
    pub stepped: bool,
}

/// A character mover: a capsule at a position, and what it stands on.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CharacterMover {
    def: MoverDef,
    position: Vec2,
    ground: Option<MoverHit>,
}

/// A plane the mover touches: its normal (from the shape to the mover) and how far the
/// mover's skin is beyond it (meters; negative inside).
#[derive(Clone, Copy, Debug)]
struct Plane {
    hit: MoverHit,
    separation: f32,
}

impl Plane {
    /// Whether the mover touches the plane: its gap within half the skin of the skin (casts
    /// stop at the skin, to a quarter of it).
    fn touches(&self, skin: f32) -> bool {
        self.separation < 0.5 * skin
    }
}

impl CharacterMover {
    /// A mover with `def` at `position` (meters, world).
    ///
    /// Errors: [`WorldError::InvalidValue`] for a value outside its range (see
    /// [`MoverDef`]) or a position not finite or beyond [`MAX_COORDINATE`];
    /// [`WorldError::Geometry`] for a capsule whose ends coincide.
    pub fn new(def: &MoverDef, position: Vec2) -> Result<CharacterMover, WorldError> {
        check_vector(position, "mover position")?;
        Capsule::new(def.center1, def.center2, def.radius)?;
        check_range(def.skin, (f32::MIN_POSITIVE, def.radius), "mover skin", "above 0 and at most the radius")?;
        let right_angle = std::f32::consts::FRAC_PI_2;
        check_range(def.max_slope, (0.0, right_angle), "mover max slope", "from 0 to pi/2 radians")?;
        check_range(def.step_height, (0.0, MAX_COORDINATE), "mover step height", "finite and not negative")?;
        check_range(def.snap_distance, (0.0, MAX_COORDINATE), "mover snap distance", "finite and not negative")?;
        check_range(def.push_force, (0.0, MAX_FORCE), "mover push force", "finite, from 0 to MAX_FORCE")?;
        if !(def.up.is_finite() && (def.up.length() - 1.0).abs() < 1e-3) {
            return Err(WorldError::InvalidValue { what: "mover up", requirement: "a unit vector" });
        }
        Ok(CharacterMover { def: *def, position, ground: None })
    }

    /// The position (meters, world).
    pub fn position(&self) -> Vec2 {
        self.position
    }

    /// Places the mover at `position` without casting (a teleport: it may then overlap
    /// something, which its next move pushes it out of). It is no longer grounded.
    ///
    /// Errors: [`WorldError::InvalidValue`] for a position not finite or beyond
    /// [`MAX_COORDINATE`].
    pub fn set_position(&mut self, position: Vec2) -> Result<(), WorldError> {
        check_vector(position, "mover position")?;
        self.position = position;
        self.ground = None;
        Ok(())
    }

    /// The settings.
    pub fn def(&self) -> &MoverDef {
        &self.def
    }

    /// The walkable ground the mover stands on after its last move, if any.
    pub fn ground(&self) -> Option<MoverHit> {
        self.ground
    }

    /// Whether the mover stands on walkable ground.
    pub fn is_grounded(&self) -> bool {
        self.ground.is_some()
    }

    /// The capsule as a shape at the origin.
    fn capsule(&self) -> Shape {
        Shape::Capsule(Capsule::new(self.def.center1, self.def.center2, self.def.radius).expect("checked by new"))
    }

    /// Moves the mover by `velocity` (m/s, gravity included by the caller) for `dt` seconds
    /// through `world`: riding the ground it stands on (its body's velocity at the mover's
    /// feet is added), sliding along what it meets, climbing steps up to
    /// [`MoverDef::step_height`] and slopes up to [`MoverDef::max_slope`], snapping down to
    /// the ground, and pushing the dynamic bodies in its way with at most
    /// [`MoverDef::push_force`] (impulses applied to them, for the world's next step). Every
    /// displacement is cast: the mover never passes through a shape.
    ///
    /// Errors: [`WorldError::InvalidValue`] for a velocity not finite or faster than
    /// [`MAX_LINEAR_SPEED`], or `dt` not above 0 and at most [`MAX_TIME_STEP`]; the errors of
    /// the world's queries.
    pub fn move_and_slide(&mut self, world: &mut World, velocity: Vec2, dt: f32) -> Result<MoveOutput, WorldError> {
        if !(velocity.is_finite() && velocity.length() <= MAX_LINEAR_SPEED) {
            let requirement = "finite, its length at most MAX_LINEAR_SPEED (1e6 m/s)";
            return Err(WorldError::InvalidValue { what: "mover velocity", requirement });
        }
        if !(dt > 0.0 && dt <= MAX_TIME_STEP) {
            return Err(WorldError::InvalidValue {
                what: "time step",
                requirement: "above 0 and at most MAX_TIME_STEP",
            });
        }
        let up = self.def.up;
        let was_grounded = self.ground.is_some();
        let carry = self.ground.map_or(Ok(Vec2::ZERO), |g| self.ground_velocity(world, g))?;
        let mut out = MoveOutput { velocity, hits: Vec::new(), stepped: false };
        let delta = (velocity + carry) * dt;
        let (moved, planes) = self.slide(world, delta, &mut out.hits)?;
        let blocked = delta - moved;
        if was_grounded && self.def.step_height > 0.0 && blocked.dot(blocked) > (0.25 * self.def.skin).powi(2) {
            out.stepped = self.try_step(world, blocked, &mut out.hits)?;
        }
        if was_grounded && velocity.dot(up) <= 0.0 && !out.stepped {
            self.snap_down(world)?;
        }
        let touching: Vec<Plane> = self.planes(world)?.into_iter().filter(|p| p.touches(self.def.skin)).collect();
        self.ground = touching.iter().filter(|p| self.walkable(p.hit.normal)).map(|p| p.hit).next();
        out.velocity = self.clip(velocity, planes.iter().chain(&touching).map(|p| p.hit.normal));
        self.push_bodies(world, &out.hits, delta, dt)?;
        Ok(out)
    }

    /// Whether a surface of normal `n` is ground the mover stands on.
    fn walkable(&self, n: Vec2) -> bool {
        n.dot(self.def.up) >= self.def.max_slope.cos() - 1e-6
    }

    /// The velocity (m/s) of the ground's body at the mover's feet: what carries it.
    fn ground_velocity(&self, world: &World, ground: MoverHit) -> Result<Vec2, WorldError> {
        let (v, w, c) = (
            world.linear_velocity(ground.body)?,
            world.angular_velocity(ground.body)?,
            world.world_center(ground.body)?,
        );
        Ok(v + (ground.point - c).perp() * w)
    }

    /// Moves by `delta` in rounds: collect the planes touched, solve them for the displacement
    /// closest to what is left to go, cast it, move as far as the cast allows. Returns the
    /// displacement made and the planes met.
    fn slide(
        &mut self,
        world: &World,
        delta: Vec2,
        hits: &mut Vec<MoverHit>,
    ) -> Result<(Vec2, Vec<Plane>), WorldError> {
        let start = self.position;
        let mut met = Vec::new();
        let mut left = delta;
        for _ in 0..MAX_ROUNDS {
            let planes = self.planes(world)?;
            let solved = self.solve_planes(&planes, left);
            let (fraction, hit) = self.cast(world, solved)?;
            self.position += solved * fraction;
            for p in planes.iter().filter(|p| p.touches(self.def.skin)) {
                note(hits, p.hit);
            }
            if let Some(h) = hit {
                note(hits, h);
            }
            // Without a hit the solved displacement was made whole: what the planes took away
            // is not tried again. After a hit, the rest slides along what stopped it.
            if hit.is_none() {
                met.extend(planes);
                break;
            }
            let touched = planes.iter().map(|p| p.hit.normal).chain(hit.map(|h| h.normal));
            left = self.clip(left - solved * fraction, touched);
            met.extend(planes);
            if left.length() < 0.1 * LINEAR_SLOP {
                break;
            }
        }
        Ok((self.position - start, met))
    }

    /// Whether `n` is the normal of a slope too steep to stand on (facing up, not walkable).
    fn steep(&self, n: Vec2) -> bool {
        n.dot(self.def.up) > 0.0 && !self.walkable(n)
    }

    /// The normal a plane is solved with: a slope too steep to walk on acts as a wall (its
    /// level part), so walking into it does not lift the mover up it.
    fn plane_normal(&self, n: Vec2) -> Vec2 {
        let up = self.def.up;
        if self.steep(n) { (n - up * n.dot(up)).normalize_or(n) } else { n }
    }

    /// `v` with what goes into each normal removed (twice over: the second pass settles a
    /// corner of two planes). Sliding along a steep slope never lifts `v` above what it asked
    /// for (or level): the mover slides down steep slopes but cannot climb them.
    fn clip(&self, mut v: Vec2, normals: impl Iterator<Item = Vec2> + Clone) -> Vec2 {
        let up = self.def.up;
        let ceiling = v.dot(up).max(0.0);
        for _ in 0..2 {
            for n in normals.clone() {
                let into = v.dot(n);
                if into < 0.0 {
                    v -= n * into;
                    let lift = v.dot(up) - ceiling;
                    if self.steep(n) && lift > 0.0 {
                        v -= up * lift;
                    }
                }
            }
        }
        v
    }

    /// The displacement closest to `delta` that keeps the mover outside every plane (and
    /// pushes it out of any it is inside), by Gauss-Seidel passes over the planes.
    fn solve_planes(&self, planes: &[Plane], delta: Vec2) -> Vec2 {
        let mut d = delta;
        for _ in 0..PLANE_PASSES {
            let mut worst = 0.0f32;
            for p in planes {
                let n = self.plane_normal(p.hit.normal);
                let separation = p.separation + n.dot(d);
                if separation < 0.0 {
                    d -= n * separation;
                    worst = worst.max(-separation);
                }
            }
            if worst < 1e-6 {
                break;
            }
        }
        d
    }

    /// The shapes within the skin and a margin of the capsule, as planes, in shape order.
    fn planes(&self, world: &World) -> Result<Vec<Plane>, WorldError> {
        let capsule = self.capsule();
        let xf = Transform { p: self.position, q: Rot::IDENTITY };
        let reach = self.def.skin + PLANE_MARGIN;
        let aabb = capsule.aabb(xf);
        let aabb = Aabb::new(aabb.lower - Vec2::splat(reach), aabb.upper + Vec2::splat(reach));
        let proxy = ShapeProxy::from_shape(&capsule);
        let mut planes = Vec::new();
        for shape in world.overlap_aabb(aabb, self.def.filter)? {
            if world.is_sensor(shape)? {
                continue;
            }
            let body = world.shape_body(shape)?;
            let other = ShapeProxy::from_shape(world.shape_geometry(shape)?);
            let input = DistanceInput {
                proxy_a: &other,
                transform_a: world.transform(body)?,
                proxy_b: &proxy,
                transform_b: xf,
            };
            let d = shape_distance(&input, &mut SimplexCache::default())?;
            let (normal, point, gap) = if d.normal != Vec2::ZERO && d.distance > 0.0 {
                (d.normal, d.point_a, d.distance)
            } else {
                // Inside (a teleport, a platform that moved into it): out the shortest way.
                match penetration(&input)? {
                    Some(p) => (p.normal, p.point_a, -p.depth),
                    None => (d.normal.normalize_or(self.def.up), d.point_a, 0.0),
                }
            };
            if gap < reach {
                let hit = MoverHit { shape, body, normal, point };
                planes.push(Plane { hit, separation: gap - self.def.skin });
            }
        }
        Ok(planes)
    }

    /// The fraction of `d` the capsule can move before coming within the skin of a shape,
    /// and the shape that stops it. A shape already within the skin stops it only if `d`
    /// closes on it (moving along or away from a convex shape never closes later).
    fn cast(&self, world: &World, d: Vec2) -> Result<(f32, Option<MoverHit>), WorldError> {
        if d == Vec2::ZERO {
            return Ok((1.0, None));
        }
        let capsule = self.capsule();
        let xf = Transform { p: self.position, q: Rot::IDENTITY };
        let proxy = ShapeProxy::from_shape(&capsule);
        let swept = capsule.aabb(xf);
        let reach = Vec2::splat(self.def.skin + LINEAR_SLOP);
        let aabb = Aabb::new(swept.lower.min(swept.lower + d) - reach, swept.upper.max(swept.upper + d) + reach);
        let mut best: (f32, Option<MoverHit>) = (1.0, None);
        for shape in world.overlap_aabb(aabb, self.def.filter)? {
            if world.is_sensor(shape)? {
                continue;
            }
            let body = world.shape_body(shape)?;
            let other = ShapeProxy::from_shape(world.shape_geometry(shape)?);
            let input = ShapeCastInput {
                proxy_a: &other,
                transform_a: world.transform(body)?,
                proxy_b: &proxy,
                transform_b: xf,
                translation_b: d,
                max_fraction: best.0,
                target: self.def.skin,
                tolerance: 0.25 * self.def.skin,
            };
            let Some(hit) = shape_cast(&input)? else { continue };
            let normal = if hit.normal == Vec2::ZERO { -d.normalize_or(self.def.up) } else { hit.normal };
            if hit.fraction == 0.0 && normal.dot(d) >= 0.0 {
                continue;
            }
            if hit.fraction < best.0 || best.1.is_none() {
                best = (hit.fraction, Some(MoverHit { shape, body, normal, point: hit.point }));
            }
        }
        Ok(best)
    }

    /// After a move blocked by `blocked` (meters): up by the step height, on along what was
    /// blocked, and down onto ground; kept when it lands on walkable ground, undone otherwise.
    /// A capsule's round bottom lands on a step's edge, not its top, when it has only moved
    /// on a little: then it goes on by up to its radius more (cast) and down again, so a
    /// step climbed can carry the mover up to its radius farther than asked.
    fn try_step(&mut self, world: &World, blocked: Vec2, hits: &mut Vec<MoverHit>) -> Result<bool, WorldError> {
        let up = self.def.up;
        let level = blocked - up * blocked.dot(up);
        if level.length() < 0.25 * self.def.skin {
            return Ok(false);
        }
        let start = self.position;
        let rise = up * self.def.step_height;
        let (f_up, _) = self.cast(world, rise)?;
        self.position += rise * f_up;
        let (f_on, _) = self.cast(world, level)?;
        self.position += level * f_on;
        let fall = -up * (self.def.step_height * f_up + self.def.snap_distance);
        let mut landing = self.land(world, fall)?;
        if landing.is_some_and(|h| !self.walkable(h.normal)) {
            let nudge = level.normalize_or_zero() * self.def.radius;
            let (f_nudge, _) = self.cast(world, nudge)?;
            self.position += nudge * f_nudge;
            landing = self.land(world, fall)?;
        }
        let climbed = (self.position - start).dot(up) > self.def.skin;
        // The ground it lands on is at most the step height above the ground it stood on (a
        // skin below its lowest point): its round bottom could otherwise sit on the edge of a
        // step up to `radius * (1 - cos max_slope)` higher, a walkable corner it would then
        // walk up.
        let lowest = start.dot(up) + self.def.center1.dot(up).min(self.def.center2.dot(up)) - self.def.radius;
        let floor = lowest - self.def.skin;
        let landing = landing.filter(|h| h.point.dot(up) - floor <= self.def.step_height + 1e-3);
        match landing.filter(|h| self.walkable(h.normal)) {
            Some(h) if climbed && f_on * level.length() > self.def.skin => {
                self.position += fall * self.cast(world, fall)?.0;
                note(hits, h);
                Ok(true)
            }
            _ => {
                self.position = start;
                Ok(false)
            }
        }
    }

    /// What the mover would land on falling by `fall` (meters) from where it is, without
    /// moving it.
    fn land(&self, world: &World, fall: Vec2) -> Result<Option<MoverHit>, WorldError> {
        Ok(self.cast(world, fall)?.1)
    }

    /// Down onto walkable ground within the snap distance, if there is some.
    fn snap_down(&mut self, world: &World) -> Result<(), WorldError> {
        if self.def.snap_distance == 0.0 {
            return Ok(());
        }
        let fall = -self.def.up * self.def.snap_distance;
        let (fraction, hit) = self.cast(world, fall)?;
        if hit.is_some_and(|h| self.walkable(h.normal)) {
            self.position += fall * fraction;
        }
        Ok(())
    }

    /// Pushes each dynamic body met whose surface the move closed on: an impulse along the
    /// hit normal (into the body) of at most the push force for `dt`, and no more than gives
    /// the body the mover's speed into it (a light crate is moved out of the way, not thrown).
    fn push_bodies(&self, world: &mut World, hits: &[MoverHit], delta: Vec2, dt: f32) -> Result<(), WorldError> {
        if self.def.push_force == 0.0 {
            return Ok(());
        }
        for h in hits {
            let into = -h.normal;
            let closing = into.dot(delta) / dt;
            if closing <= 0.0 || world.body_type(h.body)? != super::body::BodyType::Dynamic {
                continue;
            }
            let (v, w, c) =
                (world.linear_velocity(h.body)?, world.angular_velocity(h.body)?, world.world_center(h.body)?);
            let body_speed = into.dot(v + (h.point - c).perp() * w);
            let needed = world.mass(h.body)? * (closing - body_speed).max(0.0);
            let impulse = needed.min(self.def.push_force * dt);
            if impulse > 0.0 {
                world.apply_linear_impulse(h.body, into * impulse, h.point)?;
            }
        }
        Ok(())
    }
}

/// Adds a hit to the list unless its shape is there already.
fn note(hits: &mut Vec<MoverHit>, hit: MoverHit) {
    if !hits.iter().any(|h| h.shape == hit.shape) {
        hits.push(hit);
    }
}
