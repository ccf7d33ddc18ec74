//! What the checks read of the world after each step: each body's pose and velocities
//! ([`Pose`]), what does not change (names, radii: [`BodyInfo`]), and the step's sensor
//! events and impacts ([`StepEvents`]). Bodies and shapes are named by scene body index (the
//! scene builder puts it in each body's user data).

use glam::DVec2;
use impact2d::{BodyId, Shape, ShapeId, Vec2, World};

use super::geometry::{distance_to_segment, dvec, wrap};
use crate::scene::BodyType;

/// What the checker knows of a body besides its pose.
#[derive(Clone, Debug, PartialEq)]
pub struct BodyInfo {
    /// The body's name in the scene.
    pub name: String,
    /// Static, kinematic or dynamic.
    pub body_type: BodyType,
    /// Whether it has a shape that is not a sensor (only solid bodies collide).
    pub solid: bool,
    /// The center of mass in body coordinates (m).
    pub local_center: DVec2,
    /// The radius of the largest disc about the center of mass inside one of its solid
    /// shapes (m).
    pub inner_radius: f64,
    /// The radius of the smallest disc about the center of mass holding every shape (m).
    pub outer_radius: f64,
}

impl BodyInfo {
    /// A solid body of `body_type` whose center of mass is its origin, with these radii (m).
    pub fn new(name: &str, body_type: BodyType, inner_radius: f64, outer_radius: f64) -> BodyInfo {
        BodyInfo {
            name: name.to_owned(),
            body_type,
            solid: true,
            local_center: DVec2::ZERO,
            inner_radius,
            outer_radius,
        }
    }

    /// The body `id` of `world`, read from its shapes.
    pub fn of(world: &World, id: BodyId, name: &str, body_type: BodyType) -> BodyInfo {
        let center = world.local_center(id).map_or(DVec2::ZERO, dvec);
        let mut info = BodyInfo { solid: false, local_center: center, ..BodyInfo::new(name, body_type, 0.0, 0.0) };
        for shape in world.body_shapes(id).unwrap_or_default() {
            let Ok(geometry) = world.shape_geometry(shape) else { continue };
            let (inner, outer) = extents(geometry, center);
            info.outer_radius = info.outer_radius.max(outer);
            if !world.is_sensor(shape).unwrap_or(true) {
                info.solid = true;
                info.inner_radius = info.inner_radius.max(inner);
            }
        }
        info
    }
}

/// The inner and outer radii of a shape about `c` (body coordinates, m).
fn extents(shape: &Shape, c: DVec2) -> (f64, f64) {
    let farthest = |points: &[Vec2]| points.iter().map(|&p| (dvec(p) - c).length()).fold(0.0, f64::max);
    match shape {
        Shape::Circle(s) => {
            let d = (dvec(s.center()) - c).length();
            ((f64::from(s.radius()) - d).max(0.0), d + f64::from(s.radius()))
        }
        Shape::Capsule(s) => {
            let (a, b, r) = (dvec(s.center1()), dvec(s.center2()), f64::from(s.radius()));
            ((r - distance_to_segment(c, a, b)).max(0.0), farthest(&[s.center1(), s.center2()]) + r)
        }
        Shape::Polygon(s) => {
            let r = f64::from(s.radius());
            let faces = s.vertices().iter().zip(s.normals());
            let depth = faces.map(|(&v, &n)| dvec(n).dot(dvec(v) - c)).fold(f64::MAX, f64::min);
            ((depth + r).max(0.0), farthest(s.vertices()) + r)
        }
        Shape::Segment(s) => (0.0, farthest(&[s.point1(), s.point2()])),
        Shape::ChainSegment(s) => (0.0, farthest(&[s.segment().point1(), s.segment().point2()])),
    }
}

/// A body's state after a step: its center of mass, its angle counted without wrapping (so
/// the turn between two poses is the body's whole turn), its velocities, and whether all of
/// that is finite.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    /// The center of mass (m).
    pub center: DVec2,
    /// The angle (rad), not wrapped.
    pub angle: f64,
    /// The velocity of the center of mass (m/s).
    pub velocity: DVec2,
    /// The angular velocity (rad/s).
    pub spin: f64,
    /// Whether position, angle and velocities are all finite numbers.
    pub finite: bool,
}

impl Pose {
    /// A body at rest at `center`, turned by `angle`.
    pub fn new(center: DVec2, angle: f64) -> Pose {
        Pose::moving(center, angle, DVec2::ZERO, 0.0)
    }

    /// A body at `center`, turned by `angle`, moving at `velocity` and turning at `spin`.
    pub fn moving(center: DVec2, angle: f64, velocity: DVec2, spin: f64) -> Pose {
        Pose { center, angle, velocity, spin, finite: true }
    }

    /// The pose the fraction `t` of the way from `self` to `to`, center and angle linear.
    pub fn lerp(&self, to: &Pose, t: f64) -> Pose {
        Pose {
            center: self.center.lerp(to.center, t),
            angle: self.angle + (to.angle - self.angle) * t,
            velocity: self.velocity.lerp(to.velocity, t),
            spin: self.spin + (to.spin - self.spin) * t,
            finite: self.finite && to.finite,
        }
    }
}

/// The poses of `bodies` in `world` now. `previous` (the poses after the last step) carries
/// the angles on without wrapping: an awake body's turn is its sweep's (which may exceed a
/// half turn), any other's the wrapped difference.
pub fn take_poses(world: &World, bodies: &[BodyId], previous: Option<&[Pose]>) -> Vec<Pose> {
    let pose = |(i, &id): (usize, &BodyId)| {
        let center = world.world_center(id).unwrap_or(Vec2::NAN);
        let angle = world.angle(id).unwrap_or(f32::NAN);
        let velocity = world.linear_velocity(id).unwrap_or(Vec2::NAN);
        let spin = world.angular_velocity(id).unwrap_or(f32::NAN);
        let finite = center.is_finite() && angle.is_finite() && velocity.is_finite() && spin.is_finite();
        let angle = match previous.and_then(|p| p.get(i)) {
            Some(last) => last.angle + turn(world, id, last.angle, angle),
            None => f64::from(angle),
        };
        Pose { center: dvec(center), angle, velocity: dvec(velocity), spin: f64::from(spin), finite }
    };
    bodies.iter().enumerate().map(pose).collect()
}

/// The turn of body `id` from the unwrapped angle `last` to its angle `now` (rad).
fn turn(world: &World, id: BodyId, last: f64, now: f32) -> f64 {
    let awake = world.is_awake(id).unwrap_or(false);
    if let (true, Ok(s)) = (awake, world.sweep(id)) {
        // The sweep starts from the last angle wrapped, and ends at the angle now.
        if s.a2 == now && wrap(f64::from(s.a1) - last).abs() < 1e-3 {
            return f64::from(s.a2) - f64::from(s.a1);
        }
    }
    wrap(f64::from(now) - last)
}

/// An impact continuous collision resolved in a step, between scene bodies.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Impact {
    /// One body.
    pub a: usize,
    /// The other.
    pub b: usize,
    /// When, as a fraction of the step.
    pub fraction: f64,
    /// Where the two touched (m); none when the world could not say.
    pub point: Option<DVec2>,
}

/// The events of a step the checks read: sensor overlaps that began and ended, as (sensor
/// body, visitor body), and the impacts of continuous collision.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StepEvents {
    /// Visitors that began to overlap a sensor.
    pub begins: Vec<(usize, usize)>,
    /// Visitors that stopped overlapping a sensor.
    pub ends: Vec<(usize, usize)>,
    /// Impacts, in time order.
    pub impacts: Vec<Impact>,
}

impl StepEvents {
    /// The events of `world`'s last step.
    pub fn of(world: &World) -> StepEvents {
        let body = |shape: ShapeId| world.shape_body(shape).and_then(|b| world.body_user_data(b)).ok();
        let pair = |a, b| Some((body(a)? as usize, body(b)? as usize));
        let impact = |e: &impact2d::ImpactEvent| {
            let (a, b) = pair(e.shape_a, e.shape_b)?;
            let point = (e.normal != Vec2::ZERO).then(|| dvec(e.point));
            Some(Impact { a, b, fraction: f64::from(e.fraction), point })
        };
        StepEvents {
            begins: world.sensor_begin_events().iter().filter_map(|e| pair(e.sensor, e.visitor)).collect(),
            ends: world.sensor_end_events().iter().filter_map(|e| pair(e.sensor, e.visitor)).collect(),
            impacts: world.impact_events().iter().filter_map(impact).collect(),
        }
    }

    /// The impacts of `body` with anything but `except`, in time order: where its path
    /// turned in the step.
    pub fn turns(&self, body: usize, except: usize) -> impl Iterator<Item = &Impact> {
        self.impacts.iter().filter(move |i| (i.a == body) != (i.b == body) && i.a != except && i.b != except)
    }
}
