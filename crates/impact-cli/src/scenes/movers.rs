//! A character mover's course (issue 21): a scripted mover rides a moving platform across a
//! pit, steps up onto a ledge, climbs stairs, pushes a crate off a plateau, walks down one
//! slope and up another, drops off a cliff and dashes at 50 m/s into a wall 1 cm thick.

use super::{ShapeBuild, dynamic, fixed, polygon, rect};
use crate::scene::{BodyDef, BodyType, Geometry, MoverCommand, MoverSpec, Scene, ShapeDef};
use impact2d::Vec2;

/// The top of the ledge the course runs on (m).
const BASE: f32 = 0.25;

/// The course; the mover ("runner") is shown by a kinematic body with a sensor capsule.
pub(super) fn mover_course(mut scene: Scene) -> Scene {
    scene.steps = 1000;
    // The platform carries the runner over the pit and passes under the ledge's lip.
    let mut platform = BodyDef::new(BodyType::Kinematic, Vec2::new(0.0, -0.1)).named("platform").with(rect(1.5, 0.1));
    platform.linear_velocity = Vec2::new(1.5, 0.0);
    scene.bodies.push(platform);
    scene.bodies.push(fixed(41.0, BASE - 0.1).named("ledge").with(rect(29.0, 0.1)));
    for k in 0..5 {
        let top = BASE + 0.2 * (k + 1) as f32;
        let x = 16.0 + 0.6 * k as f32 + 0.3;
        scene
            .bodies
            .push(fixed(x, 0.5 * (top + BASE)).named(&format!("stair {k}")).with(rect(0.3, 0.5 * (top - BASE))));
    }
    let plateau = BASE + 1.0;
    scene.bodies.push(fixed(0.0, 0.0).named("plateau").with(polygon(&[
        [19.0, BASE],
        [22.0 + 1.0 / 25f32.to_radians().tan(), BASE],
        [22.0, plateau],
        [19.0, plateau],
    ])));
    scene.bodies.push(dynamic(21.0, plateau + 0.25).named("crate").with(rect(0.25, 0.25).density(0.5)));
    let rise = 2.0;
    let foot = 26.0;
    let top = foot + rise / 35f32.to_radians().tan();
    scene.bodies.push(fixed(0.0, 0.0).named("hill").with(polygon(&[
        [foot, BASE],
        [31.0, BASE],
        [31.0, BASE + rise],
        [top, BASE + rise],
    ])));
    scene.bodies.push(fixed(40.0, BASE + 3.0).named("thin wall").with(rect(0.005, 3.0)));
    let capsule = Geometry::Capsule { center1: Vec2::new(0.0, -0.6), center2: Vec2::new(0.0, 0.6), radius: 0.3 };
    let runner = ShapeDef { sensor: true, ..ShapeDef::new(capsule) };
    scene.bodies.push(BodyDef::new(BodyType::Kinematic, Vec2::new(0.0, 0.92)).named("runner").with(runner));
    let run = |step: u32, speed: f32| MoverCommand { step, run: Some(speed), jump: 0.0 };
    let mut mover = MoverSpec::new("runner");
    mover.script = vec![run(0, 0.0), run(400, 3.0), run(840, 50.0)];
    scene.movers.push(mover);
    scene
}
