//! `spinners`: thin plates spinning among fast balls in a thin-walled closed box.

use impact2d::Vec2;

use super::{Build, Placer, dynamic, unit};
use crate::scene::Geometry;

/// Half the plates' thickness (m): plates are 1 cm thick.
const HALF_THICKNESS: f32 = 0.005;

/// A closed box 6 to 14 m wide and 4 to 10 m high of static walls 1 cm or 1 mm thick, with
/// gravity or without (even odds); 3 to 10 dynamic plates 1 cm thick and 0.5 to 3 m long
/// (density 1 to 50) spinning at up to 60 rad/s either way and drifting at up to 20 m/s;
/// 20 to 60 balls 4 to 30 cm across (density 1 to 10) flying at up to 300 m/s in any
/// direction, half of them flagged bullet. Rules: nothing passes a plate or a wall; every
/// center stays in the box.
pub(in crate::stress) fn spinners(b: &mut Build) {
    if b.rng.chance(0.5) {
        b.scene.gravity = Vec2::ZERO;
    }
    let thickness = if b.rng.chance(0.5) { 0.001 } else { 0.01 };
    let (half_width, height) = (b.rng.range(3.0, 7.0), b.rng.range(4.0, 10.0));
    let walls = b.closed_box("box", half_width, height, thickness);
    let (lo, hi) = (Vec2::new(-half_width, 0.0), Vec2::new(half_width, height));
    let mut placer = Placer::default();
    let mut plates = 0;
    for i in 0..b.rng.int(3, 10) {
        let half = 0.5 * b.rng.range(0.5, 3.0).min(height - 1.0);
        let inside = (lo + half + 0.05, hi - half - 0.05);
        let Some(p) = placer.place(&mut b.rng, inside.0, inside.1, half, 0.05) else { continue };
        plate(b, i, p, half);
        plates += 1;
    }
    let mut balls = 0;
    for k in 0..b.rng.int(20, 60) {
        let radius = 0.5 * b.rng.range(0.04, 0.3);
        let inside = (lo + radius + 0.02, hi - radius - 0.02);
        let Some(p) = placer.place(&mut b.rng, inside.0, inside.1, radius, 0.01) else { continue };
        ball(b, k, p, radius);
        balls += 1;
    }
    b.contain_dynamic(walls, half_width, height);
    b.scene.description = format!(
        "{plates} plates 1 cm thick spinning at up to 60 rad/s among {balls} balls at up to 300 m/s in a closed box of \
         {} mm walls",
        thickness * 1000.0
    );
}

/// Plate `i` at `p`, `half` its half length, spinning.
fn plate(b: &mut Build, i: u32, p: Vec2, half: f32) {
    let shape = b.solid(Geometry::rect(half, HALF_THICKNESS), (1.0, 50.0));
    let mut body = dynamic(&format!("plate {i}"), p).with(shape);
    body.angle = b.rng.angle();
    body.angular_velocity = b.rng.range(-60.0, 60.0);
    body.linear_velocity = unit(b.rng.angle()) * b.rng.range(0.0, 20.0);
    let plate = b.add(body);
    b.thin(plate, "", (Vec2::new(-half, 0.0), Vec2::new(half, 0.0)), HALF_THICKNESS, false);
}

/// Ball `k` at `p` of `radius`, flying.
fn ball(b: &mut Build, k: u32, p: Vec2, radius: f32) {
    let shape = b.solid(Geometry::circle(radius), (1.0, 10.0));
    let mut body = dynamic(&format!("ball {k}"), p).with(shape);
    body.linear_velocity = unit(b.rng.angle()) * b.rng.range(0.0, 300.0);
    body.bullet = b.rng.chance(0.5);
    b.add(body);
}
