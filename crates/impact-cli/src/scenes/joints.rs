//! Scenes built with joints (issue 19): a chain onto a peg, a wrecking ball, a plank bridge
//! under a load, an elevator, a car over bumps, ragdolls fired into thin walls, Box2D's joint
//! grid, and a rain of ragdolls onto a pile.

use super::{BodyBuild, ShapeBuild, circle, dynamic, fixed, offset_rect, rect};
use crate::scene::{JointDef, Scene, ShapeDef};
use impact2d::Vec2;

/// A joint of `joint_type` between the bodies named `a` and `b`.
fn joint(joint_type: &str, a: &str, b: &str) -> JointDef {
    JointDef::new(joint_type, a, b)
}

/// A pin at `anchor` between the bodies named `a` and `b`.
fn pin(a: &str, b: &str, anchor: [f32; 2]) -> JointDef {
    JointDef { anchor: Some(Vec2::from(anchor)), ..joint("revolute", a, b) }
}

fn capsule(half_length: f32, radius: f32) -> ShapeDef {
    ShapeDef::new(crate::scene::Geometry::Capsule {
        center1: Vec2::new(0.0, -half_length),
        center2: Vec2::new(0.0, half_length),
        radius,
    })
}

/// A 50-link chain pinned at one end, released horizontally, swinging down onto a peg.
pub(super) fn chain(mut scene: Scene) -> Scene {
    scene.steps = 300;
    scene.bodies.push(fixed(0.0, 0.0).named("ground").with(rect(30.0, 0.5)));
    scene.bodies.push(fixed(0.0, 20.0).named("hook").with(circle(0.1)));
    scene.bodies.push(fixed(6.0, 12.0).named("peg").with(circle(0.4)));
    let link = 0.25;
    for i in 0..50 {
        let x = link * (2 * i + 1) as f32;
        let mut body = dynamic(x, 20.0).named(&format!("link {i}")).with(rect(link, 0.05).density(20.0));
        body.enable_sleep = false;
        scene.bodies.push(body);
        let previous = if i == 0 { "hook".to_owned() } else { format!("link {}", i - 1) };
        scene.joints.push(pin(&previous, &format!("link {i}"), [2.0 * link * i as f32, 20.0]));
    }
    scene
}

/// A 500 kg ball on a 6 m rope (a distance joint with a maximum length) swung into a wall of
/// boxes.
pub(super) fn wrecking_ball(mut scene: Scene) -> Scene {
    scene.steps = 300;
    scene.bodies.push(fixed(0.0, 0.0).named("ground").with(rect(30.0, 0.5)));
    scene.bodies.push(fixed(0.0, 10.0).named("crane").with(circle(0.2)));
    scene.bodies.push(dynamic(-6.0, 10.0).named("ball").with(circle(0.6).density(450.0)));
    let rope = JointDef {
        anchor_a: Some(Vec2::new(0.0, 10.0)),
        anchor_b: Some(Vec2::new(-6.0, 10.0)),
        enable_limit: true,
        lower: 0.0,
        upper: 6.0,
        ..joint("distance", "crane", "ball")
    };
    scene.joints.push(rope);
    for column in 0..3 {
        for row in 0..8 {
            let name = format!("box {column}.{row}");
            scene.bodies.push(dynamic(1.5 + 0.52 * column as f32, 1.0 + row as f32).named(&name).with(rect(0.25, 0.5)));
        }
    }
    scene
}

/// A bridge of 30 planks (1 m, 20 kg each) pinned to each other and to two banks 29.9 m apart,
/// hanging with the slack that 30 m of planks give; a 100 kg ball rolls across it at 14 m/s
/// onto the far bank.
pub(super) fn bridge(mut scene: Scene) -> Scene {
    scene.steps = 480;
    scene.bodies.push(fixed(-16.95, 4.5).named("left bank").with(rect(2.0, 0.5)));
    scene.bodies.push(fixed(22.95, 4.5).named("right bank").with(rect(8.0, 0.5)));
    let joints = hanging_links(Vec2::new(-14.95, 4.9), Vec2::new(14.95, 4.9), 30, 1.0);
    for (i, pair) in joints.windows(2).enumerate() {
        let (a, b) = (pair[0], pair[1]);
        let (center, d) = (0.5 * (a + b), b - a);
        // Planks rounded at their ends (capsules along their length), so that a wheel rolls
        // over the joints between them instead of catching on the corners of the next plank.
        let half = 0.5 * d.length();
        let shape = ShapeDef::new(crate::scene::Geometry::Capsule {
            center1: Vec2::new(-half, 0.0),
            center2: Vec2::new(half, 0.0),
            radius: 0.1,
        });
        let mut plank = dynamic(center.x, center.y).named(&format!("plank {i}")).with(shape.density(100.0));
        plank.angle = d.y.atan2(d.x);
        scene.bodies.push(plank);
        let previous = if i == 0 { "left bank".to_owned() } else { format!("plank {}", i - 1) };
        scene.joints.push(pin(&previous, &format!("plank {i}"), a.to_array()));
    }
    scene.joints.push(pin("plank 29", "right bank", [14.95, 4.9]));
    scene.bodies.push(dynamic(-17.7, 5.6).named("load").with(circle(0.6).density(90.0)).velocity(16.0, 0.0));
    scene
}

/// The `count + 1` joints of `count` links of length `link` (m) hanging between `from` and
/// `to` (at one height) on a parabola whose sag makes the links reach exactly: the sag by
/// bisection, each joint the point of the parabola one link from the previous.
fn hanging_links(from: Vec2, to: Vec2, count: usize, link: f32) -> Vec<Vec2> {
    let half = 0.5 * (to.x - from.x);
    let mid = 0.5 * (from.x + to.x);
    let on = |sag: f32, x: f32| Vec2::new(x, from.y - sag * (1.0 - ((x - mid) / half).powi(2)));
    let walk = |sag: f32| {
        let mut points = vec![from];
        for _ in 0..count {
            let p = *points.last().unwrap_or(&from);
            // The next point one link along the parabola, by bisection on x.
            let (mut lo, mut hi) = (p.x, p.x + link);
            for _ in 0..60 {
                let x = 0.5 * (lo + hi);
                if on(sag, x).distance(p) < link { lo = x } else { hi = x }
            }
            points.push(on(sag, 0.5 * (lo + hi)));
        }
        points
    };
    let (mut lo, mut hi) = (0.0f32, 2.0 * half);
    for _ in 0..60 {
        let sag = 0.5 * (lo + hi);
        if walk(sag).last().map_or(0.0, |p| p.x) > to.x { lo = sag } else { hi = sag }
    }
    let mut points = walk(0.5 * (lo + hi));
    // The last joint exactly at the far bank (the walk ends within round-off of it).
    if let Some(last) = points.last_mut() {
        *last = to;
    }
    points
}

/// A platform on a vertical prismatic joint driven up by its motor, limited to 8 m, with
/// three crates riding on it.
pub(super) fn elevator(mut scene: Scene) -> Scene {
    scene.steps = 360;
    scene.bodies.push(fixed(0.0, 0.0).named("ground").with(rect(10.0, 0.5)));
    scene.bodies.push(dynamic(0.0, 1.0).named("platform").with(rect(2.0, 0.15).density(100.0)));
    let lift = JointDef {
        anchor_a: Some(Vec2::new(0.0, 1.0)),
        anchor_b: Some(Vec2::new(0.0, 1.0)),
        axis: Some(Vec2::new(0.0, 1.0)),
        enable_limit: true,
        lower: 0.0,
        upper: 8.0,
        enable_motor: true,
        motor_speed: 2.0,
        max_motor_force: 50_000.0,
        ..joint("prismatic", "ground", "platform")
    };
    scene.joints.push(lift);
    for (i, x) in [-1.2f32, 0.0, 1.2].into_iter().enumerate() {
        scene.bodies.push(dynamic(x, 1.7).named(&format!("crate {i}")).with(rect(0.4, 0.4)));
    }
    scene
}

/// A car: a body on two wheel joints with springs, the rear wheel driven by its motor, over a
/// road of bumps.
pub(super) fn car(mut scene: Scene) -> Scene {
    scene.steps = 480;
    let mut road = fixed(0.0, 0.0).named("road").with(rect(60.0, 0.5));
    for k in 0..12 {
        road = road.with(ShapeDef::new(crate::scene::Geometry::offset_rect(
            0.6,
            0.12,
            Vec2::new(8.0 + 4.0 * k as f32, 0.55),
            0.0,
        )));
    }
    scene.bodies.push(road);
    scene.bodies.push(dynamic(0.0, 1.6).named("car").with(rect(1.4, 0.3).density(150.0)));
    for (name, x) in [("rear wheel", -1.0f32), ("front wheel", 1.0)] {
        scene.bodies.push(dynamic(x, 1.0).named(name).with(circle(0.4).density(50.0).friction(1.5)));
        let drive = name == "rear wheel";
        scene.joints.push(JointDef {
            anchor_a: Some(Vec2::new(x, 1.0)),
            anchor_b: Some(Vec2::new(x, 1.0)),
            axis: Some(Vec2::new(0.0, 1.0)),
            enable_spring: true,
            hertz: 4.0,
            damping_ratio: 0.7,
            enable_motor: drive,
            motor_speed: if drive { -12.0 } else { 0.0 },
            max_motor_torque: if drive { 800.0 } else { 0.0 },
            ..joint("wheel", "car", name)
        });
    }
    scene
}

/// Ragdolls of capsules and a head with limited revolute joints, fired at 60 to 150 m/s into
/// two walls 1 cm thick.
pub(super) fn ragdoll_cannon(mut scene: Scene) -> Scene {
    scene.steps = 240;
    scene.bodies.push(fixed(0.0, -0.5).named("ground").with(rect(40.0, 0.5)));
    scene.bodies.push(fixed(12.0, 5.0).named("wall").with(rect(0.005, 5.0)));
    scene.bodies.push(fixed(16.0, 5.0).named("back wall").with(rect(0.005, 5.0)));
    for (k, speed) in [60.0f32, 100.0, 150.0].into_iter().enumerate() {
        let at = Vec2::new(-2.0 - 3.0 * k as f32, 3.0 + 2.0 * k as f32);
        ragdoll(&mut scene, &format!("doll {k}"), at, Vec2::new(speed, 4.0));
    }
    scene
}

/// One ragdoll named `name` standing at `at` and thrown at `velocity` (m/s).
fn ragdoll(scene: &mut Scene, name: &str, at: Vec2, velocity: Vec2) {
    // (part, center relative to the hips, half length, radius); the head is a circle.
    let parts = [
        ("torso", [0.0, 0.45], 0.25, 0.14),
        ("left thigh", [-0.1, -0.25], 0.18, 0.07),
        ("right thigh", [0.1, -0.25], 0.18, 0.07),
        ("left shin", [-0.1, -0.75], 0.18, 0.06),
        ("right shin", [0.1, -0.75], 0.18, 0.06),
        ("left arm", [-0.25, 0.45], 0.2, 0.05),
        ("right arm", [0.25, 0.45], 0.2, 0.05),
    ];
    let part = |p: &str| format!("{name} {p}");
    for (p, c, half, radius) in parts {
        let body = dynamic(at.x + c[0], at.y + c[1]).named(&part(p)).with(capsule(half, radius));
        scene.bodies.push(body.velocity(velocity.x, velocity.y));
    }
    scene
        .bodies
        .push(dynamic(at.x, at.y + 1.0).named(&part("head")).with(circle(0.13)).velocity(velocity.x, velocity.y));
    // (parent, child, anchor relative to the hips, lower, upper)
    let hinges = [
        ("torso", "head", [0.0, 0.85], -0.6, 0.6),
        ("torso", "left thigh", [-0.1, 0.0], -1.2, 0.6),
        ("torso", "right thigh", [0.1, 0.0], -1.2, 0.6),
        ("left thigh", "left shin", [-0.1, -0.5], -0.1, 2.0),
        ("right thigh", "right shin", [0.1, -0.5], -0.1, 2.0),
        ("torso", "left arm", [-0.2, 0.7], -2.5, 2.5),
        ("torso", "right arm", [0.2, 0.7], -2.5, 2.5),
    ];
    for (parent, child, anchor, lower, upper) in hinges {
        scene.joints.push(JointDef {
            enable_limit: true,
            lower,
            upper,
            ..pin(&part(parent), &part(child), [at.x + anchor[0], at.y + anchor[1]])
        });
    }
}

/// Box2D's joint grid benchmark: a grid of small bodies, each pinned to its left and upper
/// neighbors, the top row pinned to the world.
pub(super) fn joint_grid(mut scene: Scene) -> Scene {
    const N: usize = 30;
    scene.steps = 120;
    scene.bodies.push(fixed(0.0, 0.0).named("world").with(circle(0.05)));
    let spacing = 1.0;
    let name = |i: usize, j: usize| format!("node {i}.{j}");
    for i in 0..N {
        for j in 0..N {
            let (x, y) = (spacing * j as f32, -spacing * i as f32);
            let mut body = dynamic(x, y).named(&name(i, j)).with(circle(0.4).density(1.0));
            body.enable_sleep = false;
            scene.bodies.push(body);
            if i == 0 {
                scene.joints.push(pin("world", &name(i, j), [x, y]));
            } else {
                scene.joints.push(pin(&name(i - 1, j), &name(i, j), [x, y + 0.5 * spacing]));
            }
            if j > 0 {
                scene.joints.push(pin(&name(i, j - 1), &name(i, j), [x - 0.5 * spacing, y]));
            }
        }
    }
    scene
}

/// Ragdolls in the rain benchmark: columns and rows of the grid they fall from.
const RAIN_COLUMNS: usize = 20;
const RAIN_ROWS: usize = 10;

/// A rain of ragdolls: 20 columns by 10 rows of the ragdolls of `ragdoll_cannon` (8 bodies and
/// 7 limited revolute joints each; 1600 bodies, 1400 joints), at rest, 1.5 m apart across and
/// 2.5 m apart up, every other row shifted 0.75 m, dropped into a box 32 m wide (a floor and two
/// walls 20 m high, one static body) where they land on each other and pile. Sleep is off, so
/// the work does not depend on an engine's sleep rule (the scene is built the same in Box2D
/// and rapier2d for `docs/performance.md`).
pub(super) fn ragdoll_rain(mut scene: Scene) -> Scene {
    scene.steps = 300;
    let ground = fixed(0.0, 0.0)
        .named("ground")
        .with(offset_rect(16.0, 0.5, 0.0, -0.5, 0.0))
        .with(offset_rect(0.5, 10.0, -16.5, 10.0, 0.0))
        .with(offset_rect(0.5, 10.0, 16.5, 10.0, 0.0));
    scene.bodies.push(ground);
    for row in 0..RAIN_ROWS {
        for column in 0..RAIN_COLUMNS {
            let shift = if row % 2 == 1 { 0.75 } else { 0.0 };
            let at = Vec2::new(-14.625 + 1.5 * column as f32 + shift, 1.5 + 2.5 * row as f32);
            let first = scene.bodies.len();
            ragdoll(&mut scene, &format!("doll {row}.{column}"), at, Vec2::ZERO);
            for body in &mut scene.bodies[first..] {
                body.enable_sleep = false;
            }
        }
    }
    scene
}
