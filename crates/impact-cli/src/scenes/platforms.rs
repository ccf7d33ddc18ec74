//! One-way platforms and a conveyor belt (issue 21, item 3): bodies launched up through
//! thin platforms, some fast enough to cross every one in a step or two, landing on them.

use super::{BodyBuild, ShapeBuild, circle, dynamic, fixed, rect};
use crate::scene::{Scene, ShapeDef};
use impact2d::Vec2;

/// Gravity of the scene (m/s²): strong, so bodies launched at 30 to 80 m/s turn back within
/// 5 to 33 m and the run stays short.
pub const GRAVITY: f32 = -100.0;
/// The platforms' centers (m); each is 20 m wide and [`PLATFORM_HALF_THICKNESS`] × 2 thick.
pub const PLATFORM_HEIGHTS: [f32; 4] = [3.0, 6.0, 9.0, 12.0];
/// Half the platforms' thickness (m): 10 cm platforms.
pub const PLATFORM_HALF_THICKNESS: f32 = 0.05;
/// The top platform is a conveyor belt at this speed (m/s, toward +x), with a post at its
/// right end that stops what it carries.
pub const BELT_SPEED: f32 = 2.0;
/// How many bodies are launched.
pub const LAUNCHED: usize = 12;

/// A small deterministic generator (splitmix64) for the scene's variants.
struct Draw(u64);

impl Draw {
    fn unit(&mut self) -> f32 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) >> 40) as f32 / (1u64 << 24) as f32
    }

    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }
}

/// The built-in scene: variant 1 of [`one_way_platforms_variant`].
pub(super) fn one_way_platforms(scene: Scene) -> Scene {
    one_way_platforms_variant(scene, 1)
}

/// Twelve bodies (circles and boxes, 0.2 to 0.4 m) resting on the ground in their own
/// columns, launched straight up at 30 to 80 m/s (every fourth at 65 to 80 m/s) through four
/// one-way platforms 10 cm thick, 3 m apart; each turns back above some platform and lands
/// on it, the fastest falling back at up to 60 m/s. The top platform is a conveyor belt that
/// carries what lands on it to a post at its end. Speeds whose highest point would come
/// within 1 m of a platform's top are drawn again, so each body's platform is clear. The
/// `seed` picks sizes and speeds.
pub fn one_way_platforms_variant(mut scene: Scene, seed: u64) -> Scene {
    let mut draw = Draw(seed);
    scene.gravity = Vec2::new(0.0, GRAVITY);
    scene.steps = 720;
    let platform = |y: f32, name: &str| {
        let mut shape: ShapeDef = rect(10.0, PLATFORM_HALF_THICKNESS).friction(0.8);
        shape.one_way = true;
        fixed(0.0, y).named(name).with(shape)
    };
    let mut bodies = vec![fixed(0.0, -0.5).named("ground").with(rect(20.0, 0.5))];
    for (k, &y) in PLATFORM_HEIGHTS.iter().enumerate() {
        let mut body = platform(y, &format!("platform {}", k + 1));
        if k + 1 == PLATFORM_HEIGHTS.len() {
            body.name = "conveyor".into();
            body.shapes[0].tangent_speed = BELT_SPEED;
        }
        bodies.push(body);
    }
    let top = PLATFORM_HEIGHTS[3] + PLATFORM_HALF_THICKNESS;
    bodies.push(fixed(9.8, top + 0.6).named("post").with(rect(0.1, 0.6)));
    for i in 0..LAUNCHED {
        let half = draw.range(0.2, 0.4);
        let x = -8.0 + 1.2 * i as f32;
        let speed = loop {
            let speed = if i % 4 == 0 { draw.range(65.0, 80.0) } else { draw.range(30.0, 80.0) };
            let apex = half + speed * speed / (-2.0 * GRAVITY);
            let clear = PLATFORM_HEIGHTS.iter().all(|&y| (apex - (y + PLATFORM_HALF_THICKNESS)).abs() >= 1.0);
            if clear {
                break speed;
            }
        };
        let shape = if i % 2 == 0 {
            // Balls roll: a little rolling resistance lets them settle on the belt.
            let mut ball = circle(half);
            ball.rolling_resistance = 0.2;
            ball
        } else {
            rect(half, half)
        };
        bodies.push(dynamic(x, half).named(&format!("body {i}")).with(shape).velocity(0.0, speed));
    }
    scene.bodies = bodies;
    scene
}
