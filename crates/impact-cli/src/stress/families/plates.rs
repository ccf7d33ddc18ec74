//! `plates`: bullets fired at thin heavy plates held in slots, one plate behind another.

use impact2d::Vec2;

use super::{Build, Placer, dynamic, unit};
use crate::scene::{BodyDef, BodyType, Geometry};
use crate::stress::check::{Contain, Rule};

/// Half the plates' thickness (m): plates are 1 cm thick.
const HALF_THICKNESS: f32 = 0.005;

/// Half the width of a slot's posts (m).
const POST: f32 = 0.02;

/// 1 to 3 plates 1 cm thick and 1 to 4 m long, of density 50 to 500 kg/m², standing one
/// behind another 0.3 to 1 m apart, each held in two slots of static posts (2 to 5 mm of
/// play on each face, 5 to 20 mm at the ends, inserted 5 to 15 cm); 20 to 60 bullets (circles
/// or boxes 2 to 5 cm across, flagged bullet, density 1 to 10) fired at 120 to 400 m/s from
/// 0.3 to 25 m away, within 20° of square, at points along the plates' span. The whole layout
/// is turned at random (gravity stays down). Rules: no bullet passes a plate; each plate's
/// center stays in its slot.
pub(in crate::stress) fn plates(b: &mut Build) {
    b.frame.angle = b.rng.angle();
    let count = b.rng.int(1, 3);
    let spacing = b.rng.range(0.3, 1.0);
    let mut longest = 0.0f32;
    for i in 0..count {
        let length = b.rng.range(1.0, 4.0);
        longest = longest.max(length);
        plate(b, i, Vec2::new(i as f32 * spacing, 0.0), length);
    }
    let bullets = b.rng.int(20, 60);
    let mut placer = Placer::default();
    for k in 0..bullets {
        bullet(b, &mut placer, k, longest);
    }
    let plates = if count == 1 { "a plate".to_owned() } else { format!("{count} plates") };
    b.scene.description = format!(
        "{bullets} bullets (2-5 cm, 120-400 m/s) fired at {plates} 1 cm thick held in slots, one behind another"
    );
}

/// Plate `i` at `at` (layout coordinates), upright, `length` long, with its slots.
fn plate(b: &mut Build, i: u32, at: Vec2, length: f32) {
    let shape = b.solid(Geometry::rect(HALF_THICKNESS, 0.5 * length), (50.0, 500.0));
    let plate = b.add(dynamic(&format!("plate {i}"), at).with(shape));
    let half = Vec2::new(0.0, 0.5 * length);
    b.thin(plate, "", (-half, half), HALF_THICKNESS, false);

    let play = b.rng.range(0.002, 0.005);
    let end_play = b.rng.range(0.005, 0.02);
    let depth = b.rng.range(0.05, 0.15);
    // The slots are one static body at the plate's own origin, so their place relative to the
    // plate is exact in f32 however far from the origin the layout is.
    let mut slots = BodyDef::new(BodyType::Static, at).named(&format!("slots {i}"));
    for end in [-1.0f32, 1.0] {
        for post in slot(0.5 * length, play, end_play, depth) {
            let geometry = Geometry::offset_rect(post.1.x, post.1.y, post.0 * Vec2::new(1.0, end), 0.0);
            slots = slots.with(b.material(geometry));
        }
    }
    let slots = b.add(slots);
    let half_extents = Vec2::new(play + HALF_THICKNESS + POST, end_play + POST);
    b.rules.push(Rule::Contain(Contain { body: slots, center: Vec2::ZERO, half_extents, members: vec![plate] }));
}

/// The three posts (center, half extents) of the slot at the top end of a plate whose half
/// length is `half`: one on each face, inserted `depth` along the plate, and a stop beyond
/// its end.
fn slot(half: f32, play: f32, end_play: f32, depth: f32) -> [(Vec2, Vec2); 3] {
    let x = HALF_THICKNESS + play + POST;
    let (bottom, top) = (half - depth, half + end_play + 2.0 * POST);
    let side = Vec2::new(POST, 0.5 * (top - bottom));
    let y = 0.5 * (top + bottom);
    let stop = (Vec2::new(0.0, half + end_play + POST), Vec2::new(x + POST, POST));
    [(Vec2::new(-x, y), side), (Vec2::new(x, y), side), stop]
}

/// Bullet `k`, aimed at a point along the plates' span (`longest` m) and fired from the
/// left of the first plate, at least 4 cm from every other bullet's start.
fn bullet(b: &mut Build, placer: &mut Placer, k: u32, longest: f32) {
    let (geometry, half) = b.small_shape((0.02, 0.05));
    let shape = b.solid(geometry, (1.0, 10.0));
    let direction = unit(b.rng.range(-0.35, 0.35));
    let speed = b.rng.range(120.0, 400.0);
    let aim = Vec2::new(0.0, b.rng.range(-0.5, 0.5) * longest);
    let start = (0..50)
        .map(|_| aim - direction * b.rng.range(0.3, 25.0))
        .find(|&p| placer.fits(p, half, 0.04))
        .unwrap_or(aim - direction * (30.0 + 0.1 * k as f32));
    placer.disc(start, half);
    let mut body = dynamic(&format!("bullet {k}"), start).with(shape);
    body.bullet = true;
    body.linear_velocity = direction * speed;
    body.angular_velocity = b.rng.range(-20.0, 20.0);
    b.add(body);
}
