//! `kinematic`: fast kinematic pushers and rotors through fields of resting bodies.

use impact2d::Vec2;

use super::{Build, Placer, dynamic, unit};
use crate::scene::{BodyDef, BodyType, Geometry};

/// Half the thickness of pushers and dynamic walls (m): they are 1 cm thick.
const HALF_THICKNESS: f32 = 0.005;

/// The longest dynamic wall (m).
const LONGEST_WALL: f32 = 2.0;

/// The largest field body (m across).
const LARGEST_BODY: f32 = 0.3;

/// The room kept between the discs the kinematic bodies sweep, and between them and the
/// walls of the box (m): more than a dynamic wall and two field bodies end to end, so nothing
/// is ever caught between two things that nothing can push back.
const CLEARANCE: f32 = LONGEST_WALL + 2.0 * LARGEST_BODY + 0.3;

/// A closed static box 40 to 50 m wide and 24 to 30 m high (walls 1 to 10 cm thick), without
/// gravity, holding:
///
/// - 1 to 3 rotors: kinematic bars 1 to 4 m long and 2 to 10 cm thick turning about their
///   middle at 10 to 60 rad/s either way;
/// - 1 or 2 pushers: kinematic plates 1 cm thick and 0.5 to 1.5 m long carried face first
///   round a pivot (a kinematic body turning, the plate along its radius out to 2 to 5 m), so
///   their outer ends move at up to 300 m/s and stay in the box;
/// - 2 to 5 dynamic walls 1 cm thick and 0.5 to 2 m long (density 1 to 50), at rest;
/// - 20 to 80 balls and boxes 5 to 30 cm across (density 1 to 10, a third of them bullets),
///   at rest, in the sweeps of the kinematic bodies and around them.
///
/// The kinematic bodies' discs keep [`CLEARANCE`] from each other and from the walls. Rules:
/// nothing passes a rotor, a pusher, a dynamic wall or a wall of the box; every center stays
/// in the box.
pub(in crate::stress) fn kinematic(b: &mut Build) {
    b.scene.gravity = Vec2::ZERO;
    let (half_width, height) = (b.rng.range(20.0, 25.0), b.rng.range(24.0, 30.0));
    let thickness = b.rng.range(0.01, 0.1);
    let walls = b.closed_box("box", half_width, height, thickness);
    let (lo, hi) = (Vec2::new(-half_width, 0.0), Vec2::new(half_width, height));
    let mut room = Room { lo, hi, discs: Placer::default(), shapes: Placer::default() };
    let rotors = (0..b.rng.int(1, 3)).filter(|&i| rotor(b, &mut room, i)).count();
    let pushers = (0..b.rng.int(1, 2)).filter(|&i| pusher(b, &mut room, i)).count();
    let thin = (0..b.rng.int(2, 5)).filter(|&i| wall(b, &mut room, i)).count();
    let bodies = (0..b.rng.int(20, 80)).filter(|&k| field_body(b, &mut room, k)).count();
    b.contain_dynamic(walls, half_width, height);
    b.scene.description = format!(
        "{rotors} kinematic rotors (up to 60 rad/s) and {pushers} pushers (up to 300 m/s) through {bodies} resting \
         bodies and {thin} thin dynamic walls in a closed box"
    );
}

/// The inside of the box (layout coordinates) and what is placed in it: the discs the
/// kinematic bodies sweep, and every shape as it starts.
struct Room {
    lo: Vec2,
    hi: Vec2,
    discs: Placer,
    shapes: Placer,
}

impl Room {
    /// A place for a kinematic body sweeping a disc of `reach` (m), [`CLEARANCE`] from the
    /// walls and the other discs.
    fn disc(&mut self, b: &mut Build, reach: f32) -> Option<Vec2> {
        let margin = reach + CLEARANCE;
        self.discs.place(&mut b.rng, self.lo + margin, self.hi - margin, reach, CLEARANCE)
    }

    /// A place for a body within `radius` of its center (m), off every shape placed.
    fn spot(&mut self, b: &mut Build, radius: f32, gap: f32) -> Option<Vec2> {
        let margin = radius + 0.1;
        self.shapes.place(&mut b.rng, self.lo + margin, self.hi - margin, radius, gap)
    }
}

/// Rotor `i`: a bar 1 to 4 m long and 2 to 10 cm thick turning about its middle. False when
/// there was no room for it.
fn rotor(b: &mut Build, room: &mut Room, i: u32) -> bool {
    let (length, thickness) = (b.rng.range(1.0, 4.0), b.rng.range(0.02, 0.1));
    let Some(p) = room.disc(b, 0.5 * (length + thickness)) else { return false };
    let mut body = BodyDef::new(BodyType::Kinematic, p).named(&format!("rotor {i}"));
    body.angle = b.rng.angle();
    body.angular_velocity = b.rng.signed(10.0, 60.0);
    let body = body.with(b.material(Geometry::rect(0.5 * length, 0.5 * thickness)));
    let along = unit(body.angle) * 0.5 * length;
    room.shapes.segment(p - along, p + along, 0.5 * thickness);
    let index = b.add(body);
    let half = Vec2::new(0.5 * length, 0.0);
    b.thin(index, "", (-half, half), 0.5 * thickness, false);
    true
}

/// Pusher `i`: a plate 0.5 to 1.5 m long along the radius out to 2 to 5 m from a pivot,
/// turning so that its outer end moves at up to 300 m/s. False when there was no room.
fn pusher(b: &mut Build, room: &mut Room, i: u32) -> bool {
    let (outer, length) = (b.rng.range(2.0, 5.0), b.rng.range(0.5, 1.5));
    let Some(p) = room.disc(b, outer + HALF_THICKNESS) else { return false };
    let mut body = BodyDef::new(BodyType::Kinematic, p).named(&format!("pusher {i}"));
    body.angle = b.rng.angle();
    let fastest = (300.0 / outer).min(60.0);
    body.angular_velocity = b.rng.signed(0.3 * fastest, fastest);
    let (from, to) = (Vec2::new(outer - length, 0.0), Vec2::new(outer, 0.0));
    let plate = Geometry::offset_rect(0.5 * length, HALF_THICKNESS, 0.5 * (from + to), 0.0);
    let body = body.with(b.material(plate));
    let radial = unit(body.angle);
    room.shapes.segment(p + radial * from.x, p + radial * to.x, HALF_THICKNESS);
    let index = b.add(body);
    b.thin(index, "", (from, to), HALF_THICKNESS, false);
    true
}

/// Field body `k`: a ball or box anywhere off the other shapes (in the sweep of a kinematic
/// body or beside it), at rest, a bullet for a third of them. False when there was no room.
fn field_body(b: &mut Build, room: &mut Room, k: u32) -> bool {
    let (geometry, half) = b.small_shape((0.05, LARGEST_BODY));
    let Some(p) = room.spot(b, half * std::f32::consts::SQRT_2, 0.02) else { return false };
    let shape = b.solid(geometry, (1.0, 10.0));
    let mut body = dynamic(&format!("{} {k}", shape.geometry.kind()), p).with(shape);
    body.angle = b.rng.angle();
    body.bullet = b.rng.chance(1.0 / 3.0);
    b.add(body);
    true
}

/// Dynamic wall `i`: a plate 1 cm thick and 0.5 to 2 m long, at rest. False when there was
/// no room for it.
fn wall(b: &mut Build, room: &mut Room, i: u32) -> bool {
    let half = 0.5 * b.rng.range(0.5, LONGEST_WALL);
    let Some(p) = room.spot(b, half, 0.05) else { return false };
    let shape = b.solid(Geometry::rect(half, HALF_THICKNESS), (1.0, 50.0));
    let mut body = dynamic(&format!("wall {i}"), p).with(shape);
    body.angle = b.rng.angle();
    let index = b.add(body);
    b.thin(index, "", (Vec2::new(-half, 0.0), Vec2::new(half, 0.0)), HALF_THICKNESS, false);
    true
}
