//! `head_on`: pairs of fast bodies fired at each other, meeting inside a step.

use impact2d::Vec2;

use super::{Build, dynamic};
use crate::stress::check::{HeadOn, Rule};

/// 4 to 16 pairs on parallel lines 0.5 to 1.5 m apart, without gravity, the layout turned at
/// random. In each pair two circles or boxes 1 to 20 cm across (density 1 to 10) fly at each
/// other at 50 to 400 m/s each; both, one or neither is flagged bullet; a third of the pairs
/// are off center by up to 0.3 of their inner radii's sum. The pair's surfaces meet 1 to 6
/// steps in, at a random time within that step. Rule: the two of a pair never pass through
/// each other.
pub(in crate::stress) fn head_on(b: &mut Build) {
    b.scene.gravity = Vec2::ZERO;
    b.frame.angle = b.rng.angle();
    let pairs = b.rng.int(4, 16);
    let spacing = b.rng.range(0.5, 1.5);
    for j in 0..pairs {
        pair(b, j, j as f32 * spacing);
    }
    b.scene.description =
        format!("{pairs} pairs of bodies (1-20 cm, 50-400 m/s each, bullets or not) fired at each other");
}

/// Pair `j` on the line at height `y` (layout coordinates).
fn pair(b: &mut Build, j: u32, y: f32) {
    let (shape_a, half_a) = b.small_shape((0.01, 0.2));
    let (shape_b, half_b) = b.small_shape((0.01, 0.2));
    let (shape_a, shape_b) = (b.solid(shape_a, (1.0, 10.0)), b.solid(shape_b, (1.0, 10.0)));
    let (speed_a, speed_b) = (b.rng.range(50.0, 400.0), b.rng.range(50.0, 400.0));
    // The surfaces meet this long after the start (s): whole steps and a part of one.
    let meet = (b.rng.int(1, 6) as f32 + b.rng.range(0.01, 0.99)) * b.scene.time_step;
    let across = if b.rng.chance(1.0 / 3.0) { b.rng.range(-0.3, 0.3) * (half_a + half_b) } else { 0.0 };
    let x = b.rng.range(-1.0, 1.0);
    let flags = match b.rng.int(0, 3) {
        0 => (true, true),
        1 => (true, false),
        2 => (false, true),
        _ => (false, false),
    };
    let mut a = dynamic(&format!("pair {j} left"), Vec2::new(x - half_a - speed_a * meet, y)).with(shape_a);
    a.linear_velocity = Vec2::new(speed_a, 0.0);
    a.bullet = flags.0;
    let mut c = dynamic(&format!("pair {j} right"), Vec2::new(x + half_b + speed_b * meet, y + across)).with(shape_b);
    c.linear_velocity = Vec2::new(-speed_b, 0.0);
    c.bullet = flags.1;
    let (a, c) = (b.add(a), b.add(c));
    let direction = b.frame_direction(Vec2::X);
    b.rules.push(Rule::HeadOn(HeadOn { a, b: c, direction }));
}
