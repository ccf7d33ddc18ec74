//! Scene builders shared by the world tests.

#![allow(dead_code)]

use impact2d::*;

pub const DT: f32 = 1.0 / 60.0;
pub const SUBSTEPS: u32 = 4;

pub fn world() -> World {
    World::new(&WorldDef::default()).unwrap()
}

pub fn world_without_gravity() -> World {
    World::new(&WorldDef { gravity: Vec2::ZERO, ..WorldDef::default() }).unwrap()
}

pub fn boxed(hx: f32, hy: f32) -> Shape {
    Shape::Polygon(make_box(hx, hy).unwrap())
}

pub fn circle(radius: f32) -> Shape {
    Shape::Circle(Circle::new(Vec2::ZERO, radius).unwrap())
}

/// A static ground box whose top is at y = 0, 200 m wide.
pub fn ground(world: &mut World) -> BodyId {
    let body = world.create_body(&BodyDef::fixed(Vec2::new(0.0, -1.0))).unwrap();
    world.create_shape(body, &ShapeDef::default(), &boxed(100.0, 1.0)).unwrap();
    body
}

/// A dynamic body with one shape.
pub fn dynamic(world: &mut World, position: Vec2, shape: &Shape, def: &ShapeDef) -> BodyId {
    let body = world.create_body(&BodyDef::dynamic(position)).unwrap();
    world.create_shape(body, def, shape).unwrap();
    body
}

/// Steps `n` times at 60 Hz with 4 sub-steps.
pub fn run(world: &mut World, n: usize) {
    for _ in 0..n {
        world.step(DT, SUBSTEPS).unwrap();
    }
}

/// Steps `n` times at 60 Hz with 4 sub-steps and returns how far `body` ends from where it
/// started and the farthest it got from there (meters).
pub fn drift(world: &mut World, body: BodyId, n: usize) -> (f32, f32) {
    let start = world.position(body).unwrap();
    let mut worst = 0.0f32;
    for _ in 0..n {
        world.step(DT, SUBSTEPS).unwrap();
        worst = worst.max((world.position(body).unwrap() - start).length());
    }
    ((world.position(body).unwrap() - start).length(), worst)
}

/// A pyramid of unit boxes with `base` boxes at the bottom, standing on y = 0 around x = 0,
/// boxes side by side and touching; rows from the bottom, left to right.
pub fn pyramid(world: &mut World, base: usize) -> Vec<BodyId> {
    let shape = boxed(0.5, 0.5);
    let mut bodies = Vec::new();
    for row in 0..base {
        let y = 0.5 + row as f32;
        for j in row..base {
            let x = (j as f32 - row as f32) + 0.5 * row as f32 - 0.5 * (base - 1) as f32;
            bodies.push(dynamic(world, Vec2::new(x, y), &shape, &ShapeDef::default()));
        }
    }
    bodies
}
