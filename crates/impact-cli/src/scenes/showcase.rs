//! The showcase: ten seconds of the cases where simulations that only check for overlap at
//! the end of each step let bodies pass through each other.

use super::{BodyBuild, ShapeBuild, body, chain, circle, dynamic, fixed, rect, segment};
use crate::scene::{BodyType, Scene};

/// A 60 by 20 m arena (a chain loop listed clockwise) holding, from left to right:
///
/// - a kinematic rotor blade 6 m long and 4 cm thick turning at 20 rad/s (60 m/s at its
///   tips), with a column of balls dropping onto it;
/// - three bullets at 400 m/s (6.7 m per step) and a small box at 250 m/s fired at three
///   static walls 5 mm thick, 2 m apart;
/// - two blades 3 m long and 2 cm thick, spinning at 60 and -45 rad/s, thrown down at 60 m/s
///   onto a static shelf 2 cm thick;
/// - a 4 m box of two-sided segments with a ball bouncing inside at 80 m/s without gravity
///   and without losing speed.
pub(super) fn showcase(mut scene: Scene) -> Scene {
    let bodies = &mut scene.bodies;
    bodies.push(
        fixed(0.0, 0.0).named("arena").with(chain(&[[-30.0, 0.0], [-30.0, 20.0], [30.0, 20.0], [30.0, 0.0]], true)),
    );

    // The rotor and the balls that fall onto it.
    bodies.push(body(BodyType::Kinematic, -20.0, 6.0).named("rotor").with(rect(3.0, 0.02)).spin(20.0));
    for i in 0..8 {
        let x = -21.5 + 0.45 * i as f32;
        bodies.push(dynamic(x, 12.0 + 1.1 * i as f32).named(&format!("ball {i}")).with(circle(0.2)));
    }

    // Paper walls and what is fired at them.
    for (i, x) in [-6.0, -4.0, -2.0].into_iter().enumerate() {
        bodies.push(fixed(x, 3.0).named(&format!("paper {i}")).with(rect(0.0025, 3.0)));
    }
    for (i, y) in [1.0, 2.5, 4.0].into_iter().enumerate() {
        let mut bullet =
            dynamic(-14.0, y).named(&format!("bullet {i}")).with(circle(0.03).density(8.0)).velocity(400.0, 0.0);
        bullet.bullet = true;
        bodies.push(bullet);
    }
    bodies.push(dynamic(-14.0, 5.5).named("fast box").with(rect(0.1, 0.1)).velocity(250.0, 0.0));

    // Spinning blades onto a thin shelf.
    bodies.push(fixed(6.0, 4.0).named("shelf").with(rect(4.0, 0.01)));
    bodies.push(dynamic(5.0, 16.0).named("blade 1").with(rect(1.5, 0.01)).velocity(0.0, -60.0).spin(60.0));
    bodies.push(dynamic(7.5, 18.0).named("blade 2").with(rect(1.5, 0.01)).velocity(0.0, -60.0).spin(-45.0));

    // A ball bouncing in a box of segments.
    let corners = [[-2.0, -2.0], [2.0, -2.0], [2.0, 2.0], [-2.0, 2.0]];
    let mut walls = fixed(22.0, 10.0).named("bounce box");
    for i in 0..4 {
        walls = walls.with(segment(corners[i], corners[(i + 1) % 4]).friction(0.0));
    }
    bodies.push(walls);
    let mut bouncer =
        dynamic(22.0, 10.0).named("bouncer").with(circle(0.15).restitution(1.0).friction(0.0)).velocity(64.0, 48.0);
    bouncer.gravity_scale = 0.0;
    bodies.push(bouncer);
    scene
}
