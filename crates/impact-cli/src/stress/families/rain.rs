//! `rain`: hundreds of mixed bodies raining onto a thin static plate.

use impact2d::Vec2;

use super::{Build, dynamic, unit};
use crate::scene::{BodyDef, BodyType, Geometry};

/// Half the plate's thickness (m): the plate is 1 cm thick.
const HALF_THICKNESS: f32 = 0.005;

/// The side of the grid cell each body starts in (m): the largest body is 30 cm across.
const CELL: f32 = 0.6;

/// A static plate 1 cm thick and 4 to 16 m long, tilted up to 0.15 rad; 100 to 300 bodies
/// (circles, boxes, capsules and polygons of 3 to 8 vertices, 6 to 30 cm across, density 1 to
/// 10, turned and spinning) starting on a grid above it: three in four falling at up to 20 m/s,
/// one in four at 50 to 300 m/s within 35° of straight down; 15 % flagged bullet. They land
/// on the plate and on the pile the earlier ones made, and may roll off its ends. Rule:
/// nothing passes through the plate.
pub(in crate::stress) fn rain(b: &mut Build) {
    let half = b.rng.range(2.0, 8.0);
    let mut plate = BodyDef::new(BodyType::Static, Vec2::ZERO).named("plate");
    plate.angle = b.rng.range(-0.15, 0.15);
    let shape = b.material(Geometry::rect(half, HALF_THICKNESS));
    let plate = b.add(plate.with(shape));
    b.thin(plate, "", (Vec2::new(-half, 0.0), Vec2::new(half, 0.0)), HALF_THICKNESS, false);

    let count = b.rng.int(100, 300);
    let columns = ((1.8 * half / CELL) as u32).max(1);
    for k in 0..count {
        let (column, row) = ((k % columns) as f32, (k / columns) as f32);
        let x = -0.9 * half + (column + 0.5) * CELL + b.rng.range(-0.05, 0.05);
        let y = 1.0 + (row + 0.5) * CELL + b.rng.range(-0.05, 0.05);
        raindrop(b, k, Vec2::new(x, y));
    }
    b.scene.description =
        format!("{count} mixed bodies (some at up to 300 m/s, some bullets) raining onto a static plate 1 cm thick");
}

/// Body `k`, starting at `p`.
fn raindrop(b: &mut Build, k: u32, p: Vec2) {
    let geometry = b.mixed_shape((0.06, 0.3));
    let kind = geometry.kind();
    let shape = b.solid(geometry, (1.0, 10.0));
    let mut body = dynamic(&format!("{kind} {k}"), p).with(shape);
    body.angle = b.rng.angle();
    body.angular_velocity = b.rng.range(-10.0, 10.0);
    body.linear_velocity = if b.rng.chance(0.25) {
        unit(-std::f32::consts::FRAC_PI_2 + b.rng.range(-0.6, 0.6)) * b.rng.range(50.0, 300.0)
    } else {
        Vec2::new(b.rng.range(-2.0, 2.0), b.rng.range(-20.0, 0.0))
    };
    body.bullet = b.rng.chance(0.15);
    b.add(body);
}
