//! The world-script target: random sequences of world calls, the contract checked after each.
//!
//! A script starts from a ground and a few bodies and makes up to [`MAX_CALLS`] calls drawn
//! from the bytes: create and destroy bodies, shapes and joints (every kind, with limits,
//! motors, springs and break thresholds), set velocities, transforms, gravity, speed caps,
//! friction, restitution and joint options, apply forces, torques and impulses, and step
//! with odd time steps and sub-step counts. Numbers are drawn around each documented range: inside
//! it, at its ends, just beyond, or wild (NaN, infinities, extremes, subnormals). After every
//! call (issue 18's contract, `World`'s docs):
//! - a call is accepted exactly when its numbers are within their documented ranges (a shape
//!   may also be refused for its mass or its place; joint calls are left to the world's
//!   judgment), and a stale or foreign handle is refused;
//! - a refused call changes nothing (state checksum, counts and settings as before);
//! - every body's state is finite, its origin within `MAX_COORDINATE`, its velocities within
//!   the speed limits, and after a step every awake dynamic body within the world's caps.
//!
//! Tier: each script draws how far its numbers may go. Ordinary scripts keep every number
//! finite and within its magnitude limit (a negative density or time step is still drawn, and
//! must be refused), positions within 10 km and shapes within 100 m; large scripts go to the
//! coordinate limit and shapes of 1e8 m; hostile ones also draw numbers just beyond the
//! limits and wild ones (NaN, infinities, extremes, subnormals) and use stale and foreign
//! handles. A script is counted in the tier its numbers reached.

use crate::queries::case::circle_or_unit;
use crate::runner::note_tier;
use crate::source::Source;
use crate::tally::{Fault, Tier, Verdict};
use impact2d::settings::{
    MAX_ANGULAR_IMPULSE, MAX_ANGULAR_SPEED, MAX_COORDINATE, MAX_DAMPING, MAX_DENSITY, MAX_FORCE, MAX_FRICTION,
    MAX_GRAVITY, MAX_GRAVITY_SCALE, MAX_IMPULSE, MAX_LINEAR_SPEED, MAX_RESTITUTION, MAX_TIME_STEP, MAX_TORQUE,
    MIN_SPEED_CAP,
};
use impact2d::{
    BodyDef, BodyId, BodyType, Capsule, Circle, DistanceDef, JointDef, JointId, JointKind, MotorDef, PrismaticDef,
    RevoluteDef, Segment, Shape, ShapeDef, ShapeId, Vec2, WeldDef, WheelDef, World, WorldDef, WorldError, make_box,
    make_offset_box,
};

/// The most calls a script makes.
pub const MAX_CALLS: usize = 60;

/// A script's state: the world, the handles it made, and the tier its numbers reached.
struct Script {
    world: World,
    bodies: Vec<BodyId>,
    shapes: Vec<ShapeId>,
    /// The joints the script made (destroyed ones stay, as stale handles to try).
    joints: Vec<JointId>,
    /// A body of another world: its handle must be refused.
    stranger: BodyId,
    /// The tier the script's numbers reached so far.
    tier: Tier,
    /// The tier the script may reach: ordinary scripts draw every number within its range
    /// and near the scene, large ones go far and big, hostile ones anywhere.
    reach: Tier,
}

/// Runs one script from `bytes`.
pub fn check(bytes: &[u8]) -> Verdict {
    let mut src = Source::new(bytes);
    let Some(mut script) = Script::start(&mut src) else {
        return Verdict::fault(Tier::Ordinary, Fault::Wrong, "the starting scene was refused".to_owned());
    };
    for call in 0..MAX_CALLS {
        let before = fingerprint(&script.world);
        let (name, result, in_range) = script.call(&mut src);
        note_tier(script.tier);
        let what = format!("call {call}: {name}");
        let foreign = matches!(result, Err(WorldError::ForeignHandle { .. } | WorldError::StaleHandle { .. }));
        let fault = match &result {
            Ok(()) if !in_range => Some(format!("{what}: accepted a value outside its range")),
            Err(e) if in_range && !foreign && name != "create_shape" => Some(format!("{what}: refused in range: {e}")),
            Err(e) if fingerprint(&script.world) != before => {
                Some(format!("{what}: refused ({e}) yet changed the world"))
            }
            _ => None,
        };
        if let Some(f) = fault {
            return Verdict::fault(script.tier, Fault::Wrong, f);
        }
        if let Some((fault, f)) = script.unsound(name == "step" && result.is_ok()) {
            return Verdict::fault(script.tier, fault, format!("{what}: {f}"));
        }
    }
    Verdict::clean(script.tier)
}

/// Everything a refused call must leave as it was.
fn fingerprint(world: &World) -> (u64, usize, usize, WorldDef) {
    (world.state_checksum(), world.body_count(), world.shape_count(), *world.def())
}

impl Script {
    /// A ground box and two to nine ordinary bodies above it, plus a body of another world.
    fn start(src: &mut Source) -> Option<Script> {
        let mut world = World::new(&WorldDef::default()).ok()?;
        let mut other = World::new(&WorldDef::default()).ok()?;
        let stranger = other.create_body(&BodyDef::dynamic(Vec2::ZERO)).ok()?;
        let ground = world.create_body(&BodyDef::fixed(Vec2::new(0.0, -1.0))).ok()?;
        world.create_shape(ground, &ShapeDef::default(), &Shape::Polygon(make_box(20.0, 1.0).ok()?)).ok()?;
        let reach = [Tier::Ordinary, Tier::Ordinary, Tier::Large, Tier::Hostile][src.below(4)];
        let shapes = world.body_shapes(ground).ok()?;
        let mut script =
            Script { shapes, world, bodies: vec![ground], joints: vec![], stranger, tier: Tier::Ordinary, reach };
        for k in 0..2 + src.below(8) {
            let kind = if k % 4 == 3 { BodyDef::kinematic } else { BodyDef::dynamic };
            let at = Vec2::new(src.uniform(-3.0, 3.0) as f32, 0.5 + 0.8 * k as f32);
            let body = script.world.create_body(&kind(at)).ok()?;
            let shape = script.shape(src);
            if let Ok(shape) = script.world.create_shape(body, &ShapeDef::default(), &shape) {
                script.shapes.push(shape);
            }
            script.bodies.push(body);
        }
        Some(script)
    }

    /// A number around `limit` (positive), of either sign: within 10 of 0 half the time,
    /// else within the limit (often at its ends), or, in a hostile script, just beyond it or
    /// wild (which marks the script hostile).
    fn around(&mut self, src: &mut Source, limit: f32) -> f32 {
        let sign = src.sign() as f32;
        let hostile = self.reach == Tier::Hostile;
        let x = match src.below(16) {
            2..=4 if !hostile => sign * limit,
            0 | 1 => sign * limit,
            2 => sign * f32::from_bits(limit.to_bits() + 1),
            3 => sign * 10f32.powf(src.uniform(-40.0, 38.5) as f32),
            4 => src.wild(),
            5..=7 => sign * (src.unit() as f32 * limit).min(limit),
            _ => sign * (src.unit() as f32 * limit.min(10.0)),
        };
        let in_range = x.abs() <= limit; // false for NaN
        if !in_range {
            self.tier = Tier::Hostile;
        }
        x
    }

    fn vector_around(&mut self, src: &mut Source, limit: f32) -> Vec2 {
        if src.chance(1, 10) {
            let v = self.around(src, limit);
            return Vec2::splat(v);
        }
        Vec2::new(self.around(src, limit), self.around(src, limit))
    }

    /// A position: near the scene mostly, anywhere within (or beyond) the coordinate limit now
    /// and then.
    fn position(&mut self, src: &mut Source) -> Vec2 {
        let far = if self.reach == Tier::Ordinary { 1.0e4 } else { MAX_COORDINATE };
        let p = if src.chance(7, 10) { self.vector_around(src, 20.0) } else { self.vector_around(src, far) };
        if p.x.abs().max(p.y.abs()) > 1.0e4 && self.tier == Tier::Ordinary {
            self.tier = Tier::Large;
        }
        p
    }

    /// A shape of any kind, 1 mm to 1e8 m across (a refused draw becomes a circle).
    fn shape(&mut self, src: &mut Source) -> Shape {
        let size = match src.below(6) {
            0 | 1 if self.reach == Tier::Ordinary => 10f32.powf(src.uniform(-3.0, 2.0) as f32),
            0 => 10f32.powf(src.uniform(-3.0, 4.0) as f32),
            1 => 10f32.powf(src.uniform(4.0, 8.0) as f32),
            _ => src.uniform(0.05, 2.0) as f32,
        };
        if size > 100.0 && self.tier == Tier::Ordinary {
            self.tier = Tier::Large;
        }
        let (left, right) = (Vec2::new(-size, 0.0), Vec2::new(size, 0.0));
        let made = match src.below(5) {
            0 => Circle::new(Vec2::ZERO, size).map(Shape::Circle),
            1 => make_box(size, size * src.uniform(0.01, 1.0) as f32).map(Shape::Polygon),
            2 => Capsule::new(left, right, 0.1 * size).map(Shape::Capsule),
            3 => Segment::new(left, right).map(Shape::Segment),
            _ => {
                let offset = Vec2::new(src.uniform(-10.0, 10.0) as f32, src.uniform(-10.0, 10.0) as f32) * size;
                let offset = offset.clamp(Vec2::splat(-4e8), Vec2::splat(4e8));
                make_offset_box(size, 0.3 * size, offset, 1.0).map(Shape::Polygon)
            }
        };
        made.unwrap_or_else(|_| circle_or_unit(Vec2::ZERO, size))
    }

    /// A body of the script (now and then a destroyed one's handle or a foreign one).
    fn pick_body(&self, src: &mut Source) -> BodyId {
        if self.bodies.is_empty() || (self.reach == Tier::Hostile && src.chance(1, 33)) {
            self.stranger
        } else {
            self.bodies[src.below(self.bodies.len())]
        }
    }

    /// Makes one call: its name, its result, and whether its numbers were all in range.
    fn call(&mut self, src: &mut Source) -> (&'static str, Result<(), WorldError>, bool) {
        match src.below(23) {
            20 => self.create_joint(src),
            21 | 22 if !self.joints.is_empty() => self.change_joint(src),
            0 | 1 => self.create_body(src),
            2 | 3 => self.create_shape(src),
            4 => {
                let (body, v) = (self.pick_body(src), self.vector_around(src, MAX_LINEAR_SPEED / 2f32.sqrt()));
                ("set_linear_velocity", self.world.set_linear_velocity(body, v), v.length() <= MAX_LINEAR_SPEED)
            }
            5 => {
                let (body, w) = (self.pick_body(src), self.around(src, MAX_ANGULAR_SPEED));
                ("set_angular_velocity", self.world.set_angular_velocity(body, w), within(w, MAX_ANGULAR_SPEED))
            }
            6 | 8 => {
                let body = self.pick_body(src);
                let (f, p) = (self.vector_around(src, MAX_FORCE), self.position(src));
                let ok = within_vector(f, MAX_FORCE.min(MAX_IMPULSE)) && within_vector(p, MAX_COORDINATE);
                match src.below(2) {
                    0 => ("apply_force", self.world.apply_force(body, f, p), ok),
                    _ => ("apply_linear_impulse", self.world.apply_linear_impulse(body, f, p), ok),
                }
            }
            7 | 9 => {
                let (body, t) = (self.pick_body(src), self.around(src, MAX_TORQUE.min(MAX_ANGULAR_IMPULSE)));
                let ok = within(t, MAX_TORQUE.min(MAX_ANGULAR_IMPULSE));
                match src.below(2) {
                    0 => ("apply_torque", self.world.apply_torque(body, t), ok),
                    _ => ("apply_angular_impulse", self.world.apply_angular_impulse(body, t), ok),
                }
            }
            10 => {
                let g = self.vector_around(src, MAX_GRAVITY);
                ("set_gravity", self.world.set_gravity(g), within_vector(g, MAX_GRAVITY))
            }
            11 => {
                let (l, a) = (self.around(src, MAX_LINEAR_SPEED), self.around(src, MAX_ANGULAR_SPEED));
                let ok =
                    (MIN_SPEED_CAP..=MAX_LINEAR_SPEED).contains(&l) && (MIN_SPEED_CAP..=MAX_ANGULAR_SPEED).contains(&a);
                ("set_max_speeds", self.world.set_max_speeds(l, a), ok)
            }
            12 if !self.shapes.is_empty() => {
                let shape = self.shapes[src.below(self.shapes.len())];
                if src.chance(1, 2) {
                    let f = self.around(src, MAX_FRICTION);
                    ("set_shape_friction", self.world.set_shape_friction(shape, f), (0.0..=MAX_FRICTION).contains(&f))
                } else {
                    let e = self.around(src, MAX_RESTITUTION);
                    let ok = (0.0..=MAX_RESTITUTION).contains(&e);
                    ("set_shape_restitution", self.world.set_shape_restitution(shape, e), ok)
                }
            }
            13 if !self.bodies.is_empty() && src.chance(3, 10) => {
                let body = self.bodies.swap_remove(src.below(self.bodies.len()));
                ("destroy_body", self.world.destroy_body(body), true)
            }
            13 => {
                let (body, p, a) = (self.pick_body(src), self.position(src), self.around(src, 10.0));
                (
                    "set_transform",
                    self.world.set_transform(body, p, a),
                    within_vector(p, MAX_COORDINATE) && within(a, 1e6),
                )
            }
            _ => self.step(src),
        }
    }

    fn create_body(&mut self, src: &mut Source) -> (&'static str, Result<(), WorldError>, bool) {
        let body_type = [BodyType::Static, BodyType::Kinematic, BodyType::Dynamic, BodyType::Dynamic][src.below(4)];
        let def = BodyDef {
            body_type,
            position: self.position(src),
            linear_velocity: self.vector_around(src, MAX_LINEAR_SPEED / 2f32.sqrt()),
            angular_velocity: self.around(src, MAX_ANGULAR_SPEED),
            linear_damping: self.around(src, MAX_DAMPING),
            angular_damping: self.around(src, MAX_DAMPING),
            gravity_scale: self.around(src, MAX_GRAVITY_SCALE),
            bullet: src.chance(1, 5),
            ..BodyDef::default()
        };
        let ok = within_vector(def.position, MAX_COORDINATE)
            && def.linear_velocity.length() <= MAX_LINEAR_SPEED
            && within(def.angular_velocity, MAX_ANGULAR_SPEED)
            && (0.0..=MAX_DAMPING).contains(&def.linear_damping)
            && (0.0..=MAX_DAMPING).contains(&def.angular_damping)
            && within(def.gravity_scale, MAX_GRAVITY_SCALE);
        let result = self.world.create_body(&def).map(|b| self.bodies.push(b));
        ("create_body", result, ok)
    }

    fn create_shape(&mut self, src: &mut Source) -> (&'static str, Result<(), WorldError>, bool) {
        let body = self.pick_body(src);
        let def = ShapeDef {
            density: self.around(src, MAX_DENSITY),
            friction: self.around(src, MAX_FRICTION),
            restitution: self.around(src, MAX_RESTITUTION),
            sensor: src.chance(1, 10),
            ..ShapeDef::default()
        };
        let ok = (0.0..=MAX_DENSITY).contains(&def.density)
            && (0.0..=MAX_FRICTION).contains(&def.friction)
            && (0.0..=MAX_RESTITUTION).contains(&def.restitution);
        let shape = self.shape(src);
        let result = self.world.create_shape(body, &def, &shape).map(|s| self.shapes.push(s));
        // A shape may also be refused for its mass or its place: not a range error.
        let refused_for_mass_or_place = matches!(
            result,
            Err(WorldError::InvalidValue { what: "body mass" | "shape mass", .. } | WorldError::BroadPhase(_))
        );
        ("create_shape", result, ok && !refused_for_mass_or_place)
    }

    /// A joint of any kind between two of the script's bodies, its numbers drawn around the
    /// scene (or hostile). Joint ranges are the world's to judge: the call is only checked for
    /// changing nothing when refused and keeping every body sound when accepted.
    fn create_joint(&mut self, src: &mut Source) -> (&'static str, Result<(), WorldError>, bool) {
        let (a, b) = (self.pick_body(src), self.pick_body(src));
        let (p, q) = (self.position(src), self.position(src));
        let axis = self.vector_around(src, 1.0);
        let (lower, upper) = (self.around(src, 10.0), self.around(src, 10.0));
        let (speed, max) = (self.around(src, 100.0), self.around(src, 1.0e4));
        let (hertz, damping) = (self.around(src, 60.0), self.around(src, 10.0));
        let kind = match src.below(7) {
            0 => JointKind::Revolute(RevoluteDef {
                enable_limit: src.chance(1, 2),
                lower,
                upper,
                enable_motor: src.chance(1, 2),
                motor_speed: speed,
                max_motor_torque: max,
                enable_spring: src.chance(1, 3),
                hertz,
                damping_ratio: damping,
                ..RevoluteDef::new(p)
            }),
            1 => JointKind::Prismatic(PrismaticDef {
                enable_limit: src.chance(1, 2),
                lower,
                upper,
                ..PrismaticDef::new(p, q, axis)
            }),
            2 => JointKind::Distance(DistanceDef { enable_spring: src.chance(1, 2), hertz, ..DistanceDef::new(p, q) }),
            3 => JointKind::Weld(WeldDef::new(p)),
            4 => JointKind::Wheel(WheelDef::new(p, q, axis)),
            5 => JointKind::Motor(MotorDef::new(q - p, lower, max, max)),
            _ => JointKind::Filter,
        };
        let mut def = JointDef::new(a, b, kind);
        def.collide_connected = src.chance(1, 4);
        if src.chance(1, 4) {
            def.break_force = Some(self.around(src, 1.0e3));
        }
        let result = self.world.create_joint(&def).map(|j| self.joints.push(j));
        let accepted = result.is_ok();
        ("create_joint", result, accepted)
    }

    /// A joint's limits, motor, spring or enabled flag changed, or the joint destroyed.
    fn change_joint(&mut self, src: &mut Source) -> (&'static str, Result<(), WorldError>, bool) {
        let joint = self.joints[src.below(self.joints.len())];
        let (x, y) = (self.around(src, 10.0), self.around(src, 100.0));
        let result = match src.below(5) {
            0 => ("set_joint_limits", self.world.set_joint_limits(joint, x, y)),
            1 => ("set_joint_motor", self.world.set_joint_motor(joint, x, y)),
            2 => ("set_joint_spring", self.world.set_joint_spring(joint, x, y)),
            3 => ("set_joint_enabled", self.world.set_joint_enabled(joint, src.chance(1, 2))),
            _ => ("destroy_joint", self.world.destroy_joint(joint)),
        };
        let accepted = result.1.is_ok();
        (result.0, result.1, accepted)
    }

    fn step(&mut self, src: &mut Source) -> (&'static str, Result<(), WorldError>, bool) {
        let dt = match src.below(6) {
            0 => self.around(src, MAX_TIME_STEP),
            1 => MAX_TIME_STEP,
            _ => 1.0 / 60.0,
        };
        let substeps = if src.chance(1, 5) { 1 + src.below(256) as u32 } else { 4 };
        ("step", self.world.step(dt, substeps), dt > 0.0 && dt <= MAX_TIME_STEP)
    }

    /// The first body whose state breaks the contract, if any.
    fn unsound(&self, after_step: bool) -> Option<(Fault, String)> {
        let (max_linear, max_angular) = (self.world.def().max_linear_speed, self.world.def().max_angular_speed);
        for &b in &self.bodies {
            let Ok(p) = self.world.position(b) else { continue };
            let (a, xf) = (self.world.angle(b).ok()?, self.world.transform(b).ok()?);
            let (v, w) = (self.world.linear_velocity(b).ok()?, self.world.angular_velocity(b).ok()?);
            let c = self.world.world_center(b).ok()?;
            let state = format!("{b}: position {p}, angle {a}, center {c}, velocity {v}, angular velocity {w}");
            let finite = p.is_finite() && a.is_finite() && c.is_finite() && v.is_finite() && w.is_finite();
            if !finite || !xf.q.c.is_finite() || !xf.q.s.is_finite() {
                return Some((Fault::NonFinite, state));
            }
            if !within_vector(p, MAX_COORDINATE) {
                return Some((Fault::Wrong, format!("{state}: beyond the coordinate limit")));
            }
            if v.length() > MAX_LINEAR_SPEED * (1.0 + 1e-6) || w.abs() > MAX_ANGULAR_SPEED {
                return Some((Fault::Wrong, format!("{state}: beyond the speed limits")));
            }
            let capped = self.world.body_type(b) != Ok(BodyType::Dynamic) || !self.world.is_awake(b).unwrap_or(false);
            if after_step && !capped && (v.length() > max_linear * (1.0 + 1e-6) || w.abs() > max_angular) {
                return Some((Fault::Wrong, format!("{state}: beyond the caps {max_linear} m/s, {max_angular} rad/s")));
            }
        }
        None
    }
}

/// Whether `x` is within `-max..=max`.
fn within(x: f32, max: f32) -> bool {
    x.abs() <= max
}

fn within_vector(v: Vec2, max: f32) -> bool {
    within(v.x, max) && within(v.y, max)
}
