//! Scene builders and checks shared by the continuous collision tests.

#![allow(dead_code)]

use impact2d::*;

pub const DT: f32 = 1.0 / 60.0;
pub const SUBSTEPS: u32 = 4;

/// A world allowing 1000 m/s, with the given gravity and continuous mode.
pub fn world(gravity: Vec2, mode: ContinuousMode) -> World {
    let def = WorldDef { gravity, continuous_mode: mode, max_linear_speed: 1000.0, ..WorldDef::default() };
    World::new(&def).unwrap()
}

pub fn circle(radius: f32) -> Shape {
    Shape::Circle(Circle::new(Vec2::ZERO, radius).unwrap())
}

pub fn boxed(hx: f32, hy: f32) -> Shape {
    Shape::Polygon(make_box(hx, hy).unwrap())
}

pub fn capsule(half_length: f32, radius: f32) -> Shape {
    Shape::Capsule(Capsule::new(Vec2::new(-half_length, 0.0), Vec2::new(half_length, 0.0), radius).unwrap())
}

pub fn segment(a: Vec2, b: Vec2) -> Shape {
    Shape::Segment(Segment::new(a, b).unwrap())
}

/// A static body at `position` with `shape`.
pub fn fixed(world: &mut World, position: Vec2, shape: &Shape) -> BodyId {
    let body = world.create_body(&BodyDef::fixed(position)).unwrap();
    world.create_shape(body, &ShapeDef::default(), shape).unwrap();
    body
}

/// A dynamic body with one shape, velocity and material.
pub fn body(world: &mut World, def: BodyDef, shape: &Shape, restitution: f32, friction: f32) -> BodyId {
    let body = world.create_body(&BodyDef { body_type: BodyType::Dynamic, ..def }).unwrap();
    let shape_def = ShapeDef { restitution, friction, ..ShapeDef::default() };
    world.create_shape(body, &shape_def, shape).unwrap();
    body
}

/// A closed box of four static walls `thickness` thick around the square
/// `center ± half_size` (the inside).
pub fn closed_box(world: &mut World, center: Vec2, half_size: f32, thickness: f32) {
    let h = 0.5 * thickness;
    let reach = half_size + thickness;
    for (offset, hx, hy) in [
        (Vec2::new(0.0, -half_size - h), reach, h),
        (Vec2::new(0.0, half_size + h), reach, h),
        (Vec2::new(-half_size - h, 0.0), h, reach),
        (Vec2::new(half_size + h, 0.0), h, reach),
    ] {
        fixed(world, center + offset, &boxed(hx, hy));
    }
}

/// A small deterministic generator (64-bit LCG) of numbers in [0, 1).
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next(&mut self) -> f32 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }

    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.next()
    }
}

/// Steps `steps` times, calling `check(world, step)` after every step.
pub fn run(world: &mut World, steps: usize, mut check: impl FnMut(&World, usize)) {
    for step in 0..steps {
        world.step(DT, SUBSTEPS).unwrap();
        check(world, step);
    }
}

/// Panics unless every body's center of mass is finite and strictly inside `lower..upper`.
pub fn assert_inside(world: &World, bodies: &[BodyId], lower: Vec2, upper: Vec2, step: usize) {
    for (i, &b) in bodies.iter().enumerate() {
        let c = world.world_center(b).unwrap();
        assert!(
            c.is_finite() && c.x > lower.x && c.x < upper.x && c.y > lower.y && c.y < upper.y,
            "step {step}: body {i} at {c} left {lower}..{upper} (velocity {})",
            world.linear_velocity(b).unwrap()
        );
    }
}
