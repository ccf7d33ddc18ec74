//! `sensors`: bullets crossing thin sensor plates.

use impact2d::Vec2;

use super::{Build, dynamic, unit};
use crate::scene::{BodyDef, BodyType, Geometry, ShapeDef};

/// The largest bullet (m across).
const BULLET: f32 = 0.05;

/// 3 to 10 sensor plates 1 to 10 mm thick and 0.5 to 3 m long standing in a row 0.5 to 2 m
/// apart, tilted up to 0.5 rad: static, kinematic (drifting at up to 5 m/s and turning at up
/// to 5 rad/s) or dynamic (a body of the sensor alone, drifting the same way); 10 to 40
/// bullets (circles or boxes 1 to 5 cm across) fired along parallel lines through the row at
/// 100 to 400 m/s from 1 to 20 m before it. No gravity, the layout turned at random. Rule:
/// each crossing of a sensor gives a sensor begin event and a sensor end event.
pub(in crate::stress) fn sensors(b: &mut Build) {
    b.scene.gravity = Vec2::ZERO;
    b.frame.angle = b.rng.angle();
    let count = b.rng.int(3, 10);
    let spacing = b.rng.range(0.5, 2.0);
    let mut longest = 0.0f32;
    for i in 0..count {
        let length = b.rng.range(0.5, 3.0);
        longest = longest.max(length);
        sensor(b, i, Vec2::new(i as f32 * spacing, 0.0), length);
    }
    // Parallel lines far enough apart that no two bullets meet.
    let lanes = ((longest / (BULLET + 0.01)) as u32).clamp(1, 40);
    let bullets = b.rng.int(10, 40).min(lanes);
    let lane = longest / bullets as f32;
    for k in 0..bullets {
        let y = -0.5 * longest + (k as f32 + 0.5) * lane;
        bullet(b, k, y);
    }
    b.scene.description = format!(
        "{bullets} bullets (100-400 m/s) through {count} sensor plates 1-10 mm thick (static, kinematic, dynamic)"
    );
}

/// Sensor `i` at `at`, upright but for its tilt, `length` long.
fn sensor(b: &mut Build, i: u32, at: Vec2, length: f32) {
    let half_thickness = 0.5 * b.rng.range(0.001, 0.01);
    let body_type = [BodyType::Static, BodyType::Kinematic, BodyType::Dynamic][b.rng.int(0, 2) as usize];
    let name = format!("sensor {i} ({})", body_type.name());
    let mut body = BodyDef::new(body_type, at).named(&name);
    body.angle = b.rng.range(-0.5, 0.5);
    if body_type != BodyType::Static {
        body.linear_velocity = unit(b.rng.angle()) * b.rng.range(0.0, 5.0);
        body.angular_velocity = b.rng.range(-5.0, 5.0);
    }
    let shape = ShapeDef { sensor: true, ..ShapeDef::new(Geometry::rect(half_thickness, 0.5 * length)) };
    let index = b.add(body.with(shape));
    let half = Vec2::new(0.0, 0.5 * length);
    b.thin(index, "", (-half, half), half_thickness, true);
}

/// Bullet `k`, on the line at height `y`, fired along the row.
fn bullet(b: &mut Build, k: u32, y: f32) {
    let (geometry, _) = b.small_shape((0.01, BULLET));
    let shape = b.solid(geometry, (1.0, 10.0));
    let mut body = dynamic(&format!("bullet {k}"), Vec2::new(-b.rng.range(1.0, 20.0), y)).with(shape);
    body.bullet = true;
    body.linear_velocity = Vec2::new(b.rng.range(100.0, 400.0), 0.0);
    b.add(body);
}
