//! `pile`: bullets fired down into a pile of small boxes in a thin-walled closed box.

use impact2d::Vec2;

use super::{Build, Placer, dynamic, unit};

/// The boxes in the pile.
const BOXES: u32 = 200;

/// A closed box of static walls 1 cm thick (1 mm for a third of the seeds) holding 200 boxes
/// 5 to 12 cm across (density 1 to 10), either settled (stacked in columns, at rest) or
/// dropped (scattered above the floor, turned, falling); 5 to 20 bullets (circles or boxes 2
/// to 5 cm across, density 1 to 10) fired down from under the lid at 100 to 400 m/s within
/// 30° of straight down. Rules: nothing passes a wall; every center stays in the box.
pub(in crate::stress) fn pile(b: &mut Build) {
    let thickness = if b.rng.chance(1.0 / 3.0) { 0.001 } else { 0.01 };
    let half = b.rng.range(0.025, 0.06);
    let columns = b.rng.int(10, 25);
    let settled = b.rng.chance(0.5);
    let cell = if settled { 2.0 * half + 0.002 } else { 2.6 * half };
    let half_width = 0.5 * columns as f32 * cell + 0.01;
    let rows = BOXES.div_ceil(columns);
    let top = if settled { rows as f32 * 2.0 * half } else { 0.2 + rows as f32 * cell };
    let height = top + b.rng.range(1.5, 4.0);
    let walls = b.closed_box("box", half_width, height, thickness);
    for k in 0..BOXES {
        let (column, row) = ((k % columns) as f32, (k / columns) as f32);
        let x = -half_width + 0.01 + (column + 0.5) * cell;
        if settled {
            pile_box(b, k, Vec2::new(x, half + row * 2.0 * half), half, false);
        } else {
            let jitter = 0.15 * half;
            let p = Vec2::new(x + b.rng.range(-jitter, jitter), 0.2 + (row + 0.5) * cell);
            let size = half * b.rng.range(0.8, 1.0);
            pile_box(b, k, p, size, true);
        }
    }
    let bullets = b.rng.int(5, 20);
    let mut placer = Placer::default();
    for k in 0..bullets {
        bullet(b, &mut placer, k, half_width, height);
    }
    b.contain_dynamic(walls, half_width, height);
    let (mm, how) = (thickness * 1000.0, if settled { "settled" } else { "dropped" });
    b.scene.description = format!(
        "{bullets} bullets (100-400 m/s) fired down into a {how} pile of {BOXES} boxes in a closed box of {mm} mm walls"
    );
}

/// Box `k` of the pile at `p`, `half` its half size; a dropped box is turned and moving.
fn pile_box(b: &mut Build, k: u32, p: Vec2, half: f32, dropped: bool) {
    let geometry = crate::scene::Geometry::rect(half, half);
    let shape = b.solid(geometry, (1.0, 10.0));
    let mut body = dynamic(&format!("box {k}"), p).with(shape);
    if dropped {
        body.angle = b.rng.angle();
        body.linear_velocity = Vec2::new(b.rng.range(-2.0, 2.0), b.rng.range(-5.0, 0.0));
        body.angular_velocity = b.rng.range(-5.0, 5.0);
    }
    b.add(body);
}

/// Bullet `k`, under the lid of a box `half_width` wide on each side and `height` high.
fn bullet(b: &mut Build, placer: &mut Placer, k: u32, half_width: f32, height: f32) {
    let (geometry, half) = b.small_shape((0.02, 0.05));
    let shape = b.solid(geometry, (1.0, 10.0));
    let lo = Vec2::new(-half_width + 0.05, height - 1.0);
    let hi = Vec2::new(half_width - 0.05, height - 0.05);
    let start = placer.place(&mut b.rng, lo, hi, half, 0.02).unwrap_or(Vec2::new(0.0, height - 0.05 - 0.06 * k as f32));
    let mut body = dynamic(&format!("bullet {k}"), start).with(shape);
    body.bullet = true;
    body.linear_velocity = unit(-std::f32::consts::FRAC_PI_2 + b.rng.range(-0.5, 0.5)) * b.rng.range(100.0, 400.0);
    b.add(body);
}
