//! Box2D's continuous-collision samples (v3, `samples/sample_continuous.cpp`), re-created from
//! their descriptions as scenes. Where a sample picks a value at random or by a key press, the
//! scene fixes it.

use super::{BodyBuild, ShapeBuild, body, chain, circle, dynamic, fixed, offset_rect, polygon, rect, segment};
use crate::scene::{BodyType, Geometry, Scene, ShapeDef};
use impact2d::Vec2;

/// Bounce House: a circle, a capsule and a box at (10, 20) m/s, without gravity and with
/// restitution 1, in a 20 m box of four segments.
pub(super) fn bounce_house(mut scene: Scene) -> Scene {
    let walls = [[-10.0, -10.0], [10.0, -10.0], [10.0, 10.0], [-10.0, 10.0]];
    let mut ground = fixed(0.0, 0.0).named("house");
    for i in 0..4 {
        ground = ground.with(segment(walls[i], walls[(i + 1) % 4]));
    }
    let capsule = Geometry::Capsule { center1: Vec2::new(-0.5, 0.0), center2: Vec2::new(0.5, 0.0), radius: 0.25 };
    let shapes = [("circle", circle(0.5)), ("capsule", ShapeDef::new(capsule)), ("box", rect(2.0, 0.1))];
    scene.bodies.push(ground);
    for (i, (name, shape)) in shapes.into_iter().enumerate() {
        let mut bouncer = dynamic(-5.0 + 5.0 * i as f32, -5.0 + 5.0 * i as f32)
            .named(name)
            .with(shape.restitution(1.0).friction(0.3))
            .velocity(10.0, 20.0);
        bouncer.gravity_scale = 0.0;
        scene.bodies.push(bouncer);
    }
    scene
}

/// Segment Slide: a 0.5 m circle at 100 m/s along an 80 m segment floor into a segment wall.
pub(super) fn segment_slide(mut scene: Scene) -> Scene {
    scene.steps = 180;
    scene.bodies = vec![
        fixed(0.0, 0.0)
            .named("ground")
            .with(segment([-40.0, 0.0], [40.0, 0.0]))
            .with(segment([40.0, 0.0], [40.0, 10.0])),
        dynamic(-20.0, 0.7).named("ball").with(circle(0.5)).velocity(100.0, 0.0),
    ];
    scene
}

/// Chain Slide: a frictionless 0.5 m circle at 100 m/s along the floor of a 40 by 20 m chain
/// loop of 80 points (2 m apart along the floor and ceiling, 1 m up the walls), listed
/// clockwise so that it holds the circle inside.
pub(super) fn chain_slide(mut scene: Scene) -> Scene {
    scene.steps = 180;
    let mut points = Vec::with_capacity(80);
    let (mut x, mut y) = (20.0f32, 0.0f32);
    for (dx, dy) in [(-2.0, 0.0), (0.0, 1.0), (2.0, 0.0), (0.0, -1.0)] {
        for _ in 0..20 {
            points.push([x, y]);
            x += dx;
            y += dy;
        }
    }
    scene.bodies = vec![
        fixed(0.0, 0.0).named("loop").with(chain(&points, true)),
        dynamic(-19.5, 0.5).named("ball").with(circle(0.5).friction(0.0)).velocity(100.0, 0.0),
    ];
    scene
}

/// Skinny Box: a 4 m plank 10 cm thick falls at 100 m/s spinning at 50 rad/s (the top of the
/// sample's random range) onto a 20 cm post standing on a segment floor.
pub(super) fn skinny_box(mut scene: Scene) -> Scene {
    scene.steps = 120;
    scene.bodies = vec![
        fixed(0.0, 0.0)
            .named("ground")
            .with(segment([-10.0, 0.0], [10.0, 0.0]).friction(0.9))
            .with(offset_rect(0.1, 1.0, 0.0, 1.0, 0.0).friction(0.9)),
        dynamic(0.0, 8.0).named("plank").with(rect(2.0, 0.05).friction(0.9)).velocity(0.0, -100.0).spin(50.0),
    ];
    scene
}

/// Drop, scene 1: a 12.5 cm ball at 100 m/s onto a row of 41 separate tiles 25 cm wide and
/// 10 cm thick (one static body).
pub(super) fn drop_ball(mut scene: Scene) -> Scene {
    scene.steps = 120;
    let mut tiles = fixed(0.0, 0.0).named("tiles");
    for j in 0..=40 {
        tiles = tiles.with(offset_rect(0.125, 0.05, -5.0 + 0.25 * j as f32, 0.0, 0.0));
    }
    scene.bodies = vec![tiles, dynamic(0.0, 4.0).named("ball").with(circle(0.125)).velocity(0.0, -100.0)];
    scene
}

/// Drop, scene 4: a stack of five 0.5 m boxes before a segment wall; two heavy 12.5 cm balls
/// at 200 m/s come at it, one continuous but not a bullet (it may pass the dynamic boxes but
/// must stop at the wall), one a bullet (it must hit the boxes).
pub(super) fn drop_stack(mut scene: Scene) -> Scene {
    scene.steps = 180;
    scene.bodies.push(
        fixed(0.0, 0.0).named("ground").with(segment([-5.0, 0.0], [5.0, 0.0])).with(segment([3.0, 0.0], [3.0, 8.0])),
    );
    for i in 0..5 {
        let shift = if i % 2 == 0 { -0.01 } else { 0.01 };
        scene
            .bodies
            .push(dynamic(2.5 + shift, 0.25 + 0.5 * i as f32).named(&format!("box {i}")).with(rect(0.25, 0.25)));
    }
    let ball = |name: &str, y: f32| dynamic(-7.7, y).named(name).with(circle(0.125).density(4.0)).velocity(200.0, 0.0);
    let mut bullet = ball("bullet", 1.9);
    bullet.bullet = true;
    scene.bodies.push(ball("fast ball", 1.4));
    scene.bodies.push(bullet);
    scene
}

/// Wedge: a 0.3 m circle at 200 m/s straight down into the narrow wedge between a vertical
/// segment and one leaning at 26.6 degrees from it.
pub(super) fn wedge(mut scene: Scene) -> Scene {
    scene.steps = 120;
    scene.bodies = vec![
        fixed(0.0, 0.0).named("wedge").with(segment([-4.0, 8.0], [0.0, 0.0])).with(segment([0.0, 0.0], [0.0, 8.0])),
        dynamic(-0.45, 10.75).named("ball").with(circle(0.3).friction(0.2)).velocity(0.0, -200.0),
    ];
    scene
}

/// Speculative Sliver: a thin triangle (4 m long, 0.5 m at its widest) at 100 m/s onto a
/// segment floor.
pub(super) fn speculative_sliver(mut scene: Scene) -> Scene {
    scene.steps = 120;
    scene.bodies = vec![
        fixed(0.0, 0.0).named("ground").with(segment([-10.0, 0.0], [10.0, 0.0])),
        dynamic(0.0, 12.0).named("sliver").with(polygon(&[[-2.0, 0.0], [-1.0, 0.0], [2.0, 0.5]])).velocity(0.0, -100.0),
    ];
    scene
}

/// Pinball without joints: a closed chain table listed clockwise, two bumpers with
/// restitution 1.5, two kinematic spinners (crosses of thin boxes) in place of the jointed
/// ones, flippers fixed at rest, and a 0.2 m bullet ball launched at 40 m/s, up and to the left.
pub(super) fn pinball(mut scene: Scene) -> Scene {
    let table = [[-8.0, 6.0], [-8.0, 20.0], [8.0, 20.0], [8.0, 6.0], [0.0, -2.0]];
    scene.bodies.push(fixed(0.0, 0.0).named("table").with(chain(&table, true)));
    scene.bodies.push(fixed(-2.0, 1.8).named("left flipper").with(offset_rect(1.75, 0.2, 0.0, 0.0, -0.3)));
    scene.bodies.push(fixed(2.0, 1.8).named("right flipper").with(offset_rect(1.75, 0.2, 0.0, 0.0, 0.3)));
    for (name, x, y) in [("bumper 1", -4.0, 8.0), ("bumper 2", 4.0, 17.0)] {
        scene.bodies.push(fixed(x, y).named(name).with(circle(1.0).restitution(1.5)));
    }
    for (name, x, y, w) in [("spinner 1", -4.0, 17.0, 5.0), ("spinner 2", 4.0, 8.0, -5.0)] {
        let cross = body(BodyType::Kinematic, x, y).named(name).with(rect(1.5, 0.125)).with(rect(0.125, 1.5));
        scene.bodies.push(cross.spin(w));
    }
    let mut ball = dynamic(1.0, 15.0).named("ball").with(circle(0.2)).velocity(-24.0, 32.0);
    ball.bullet = true;
    scene.bodies.push(ball);
    scene
}
