//! The seeds' scenarios: the hard cases of continuous collision the project started from
//! (Erin Catto, "Continuous Collision", GDC 2013), as whole scenes.

use super::{BodyBuild, ShapeBuild, chain, circle, dynamic, fixed, polygon, rect};
use crate::scene::Scene;

/// A 0.25 m ball at 150 m/s (2.5 m per step) onto a static plane 2 cm thick.
pub(super) fn thin_plane(mut scene: Scene) -> Scene {
    scene.steps = 120;
    scene.bodies = vec![
        fixed(0.0, 0.0).named("plane").with(rect(10.0, 0.01)),
        dynamic(0.0, 5.0).named("ball").with(circle(0.25)).velocity(0.0, -150.0),
    ];
    scene
}

/// A 2 cm bullet at 600 m/s (10 m per step) into a free-standing dynamic sheet 5 mm thick and
/// 1 m tall; a static sheet of the same thickness stands 5 m behind it. The speed cap is
/// raised from the default 400 m/s so the bullet flies at the speed it is fired.
pub(super) fn bullet_paper(mut scene: Scene) -> Scene {
    scene.steps = 120;
    scene.max_linear_speed = 1000.0;
    let mut bullet = dynamic(-20.0, 0.8).named("bullet").with(circle(0.02).density(8.0)).velocity(600.0, 0.0);
    bullet.bullet = true;
    scene.bodies = vec![
        fixed(0.0, -0.5).named("ground").with(rect(25.0, 0.5)),
        dynamic(10.0, 0.5).named("paper").with(rect(0.0025, 0.5).density(0.5)),
        fixed(15.0, 1.0).named("wall").with(rect(0.0025, 1.0)),
        bullet,
    ];
    scene
}

/// A right triangle spinning at 40 rad/s drops from 1.5 m onto the ground, next to a static
/// wall 1 cm thick that its corners sweep past.
pub(super) fn spinning_triangle(mut scene: Scene) -> Scene {
    scene.steps = 180;
    let mut triangle = dynamic(0.0, 1.5).named("triangle").with(polygon(&[[-0.5, -0.5], [0.5, -0.5], [-0.5, 0.5]]));
    triangle.angular_velocity = 40.0;
    scene.bodies = vec![
        fixed(0.0, -0.5).named("ground").with(rect(10.0, 0.5)),
        fixed(1.3, 1.0).named("wall").with(rect(0.005, 1.0)),
        triangle,
    ];
    scene
}

/// Forty 1 m boxes in 8 columns of 5, each column shifted and each box turned a little, fall
/// onto the ground into a pile.
pub(super) fn box_pile(mut scene: Scene) -> Scene {
    scene.steps = 300;
    scene.bodies.push(fixed(0.0, -0.5).named("ground").with(rect(20.0, 0.5)));
    for column in 0..8 {
        for row in 0..5 {
            let x = -6.0 + 1.5 * column as f32 + 0.25 * (row % 2) as f32;
            let y = 1.0 + 1.3 * row as f32 + 0.2 * column as f32;
            let mut block = dynamic(x, y).named(&format!("box {column}.{row}")).with(rect(0.5, 0.5));
            block.angle = 0.1 * ((column * 5 + row) % 7) as f32 - 0.3;
            scene.bodies.push(block);
        }
    }
    scene
}

/// A ball at (80, -40) m/s into the concave corner of a one-sided chain: a wall walked
/// downward then a floor walked leftward, so the solid side of both faces the ball.
pub(super) fn concave_corner(mut scene: Scene) -> Scene {
    scene.steps = 180;
    scene.bodies = vec![
        fixed(0.0, 0.0).named("corner").with(chain(&[[10.0, 10.0], [10.0, 0.0], [-10.0, 0.0]], false)),
        dynamic(0.0, 5.0).named("ball").with(circle(0.25)).velocity(80.0, -40.0),
    ];
    scene
}
