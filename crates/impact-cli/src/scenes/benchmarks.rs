//! The benchmark scenes, after Box2D v3's benchmarks (`shared/benchmarks.c`): many boxes
//! resting on each other, tumbling, or struck.

use super::{BodyBuild, ShapeBuild, body, dynamic, fixed, offset_rect, rect, segment};
use crate::scene::{BodyDef, BodyType, Scene};
use impact2d::Vec2;

/// A dynamic unit box (half size 0.5) at (x, y) that never sleeps.
fn awake_box(x: f32, y: f32) -> BodyDef {
    let mut block = dynamic(x, y).with(rect(0.5, 0.5));
    block.enable_sleep = false;
    block
}

/// Pushes a pyramid of unit boxes with `base` boxes on its lowest row, the row's left end at
/// `left` and its bottom at `bottom`: base + (base - 1) + ... + 1 boxes.
fn pyramid(bodies: &mut Vec<BodyDef>, base: usize, left: f32, bottom: f32) {
    for row in 0..base {
        let y = bottom + 0.5 + row as f32;
        for column in row..base {
            let x = left + 0.5 + 0.5 * row as f32 + (column - row) as f32;
            bodies.push(awake_box(x, y));
        }
    }
}

/// Large Pyramid: 5050 unit boxes, 100 on the base, on a 200 m ground box; no body sleeps.
pub(super) fn large_pyramid(mut scene: Scene) -> Scene {
    scene.bodies.push(fixed(0.0, -1.0).named("ground").with(rect(100.0, 1.0)));
    pyramid(&mut scene.bodies, 100, -50.0, 0.0);
    scene
}

/// Many Pyramids: 20 rows of 20 pyramids of 55 unit boxes (base 10), each row on its own
/// 220 m segment floor, 11 m above the one below; no body sleeps.
pub(super) fn many_pyramids(mut scene: Scene) -> Scene {
    let (rows, columns, base) = (20, 20, 10);
    let spacing = base as f32 + 1.0;
    let width = columns as f32 * spacing;
    let mut ground = fixed(0.0, 0.0).named("floors");
    for row in 0..rows {
        let y = row as f32 * spacing;
        ground = ground.with(segment([-0.5 * width, y], [0.5 * width, y]));
    }
    scene.bodies.push(ground);
    for row in 0..rows {
        for column in 0..columns {
            let left = -0.5 * width + column as f32 * spacing + 0.5;
            pyramid(&mut scene.bodies, base, left, row as f32 * spacing);
        }
    }
    scene
}

/// Tumbler: a kinematic hollow box 20 m across (four walls 1 m thick) turning at 25 degrees
/// per second about its center, 10 m up, with a 45 by 45 grid of 0.25 m boxes inside.
pub(super) fn tumbler(mut scene: Scene) -> Scene {
    let walls = body(BodyType::Kinematic, 0.0, 10.0)
        .named("tumbler")
        .with(offset_rect(0.5, 10.0, 10.0, 0.0, 0.0))
        .with(offset_rect(0.5, 10.0, -10.0, 0.0, 0.0))
        .with(offset_rect(10.0, 0.5, 0.0, 10.0, 0.0))
        .with(offset_rect(10.0, 0.5, 0.0, -10.0, 0.0))
        .spin(25f32.to_radians());
    scene.bodies.push(walls);
    let count = 45;
    for i in 0..count {
        for j in 0..count {
            let (x, y) = (-9.0 + 0.4 * j as f32, 1.0 + 0.4 * i as f32);
            scene.bodies.push(dynamic(x, y).with(rect(0.125, 0.125)));
        }
    }
    scene
}

/// Smash: no gravity; an 8 m box of density 8 at 40 m/s into a block of 120 by 80 sleeping
/// 0.4 m boxes touching each other.
pub(super) fn smash(mut scene: Scene) -> Scene {
    scene.gravity = Vec2::ZERO;
    scene.bodies.push(dynamic(-20.0, 0.0).named("smasher").with(rect(4.0, 4.0).density(8.0)).velocity(40.0, 0.0));
    let (columns, rows, size) = (120, 80, 0.4);
    for i in 0..columns {
        for j in 0..rows {
            let (x, y) = (30.0 + size * i as f32, (j as f32 - 0.5 * rows as f32) * size);
            let mut block = dynamic(x, y).with(rect(0.5 * size, 0.5 * size));
            block.awake = false;
            scene.bodies.push(block);
        }
    }
    scene
}
