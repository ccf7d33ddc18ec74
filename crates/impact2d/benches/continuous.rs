//! Criterion benchmarks of continuous collision: one world step with continuous collision on
//! and off on Box2D's large_pyramid and smash benchmark scenes and on 1000 bullets in a box.
//! Before the timings, each scene also reports the share of the step spent in continuous
//! collision (from `World::profile`, summed over 120 steps) and its statistics. What the
//! numbers mean: docs/performance.md.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use impact2d::*;

const DT: f32 = 1.0 / 60.0;
const SUBSTEPS: u32 = 4;

fn boxed(h: f32) -> Shape {
    Shape::Polygon(make_box(h, h).unwrap())
}

fn new_world(gravity: Vec2, continuous: bool) -> World {
    World::new(&WorldDef { gravity, enable_continuous: continuous, max_linear_speed: 1000.0, ..WorldDef::default() })
        .unwrap()
}

/// Large Pyramid: 5050 unit boxes, 100 on the base, on a 200 m ground box; no body sleeps.
fn large_pyramid(continuous: bool) -> World {
    let mut w = new_world(Vec2::new(0.0, -10.0), continuous);
    let ground = w.create_body(&BodyDef::fixed(Vec2::new(0.0, -1.0))).unwrap();
    w.create_shape(ground, &ShapeDef::default(), &Shape::Polygon(make_box(100.0, 1.0).unwrap())).unwrap();
    let base = 100;
    for row in 0..base {
        for column in row..base {
            let x = -50.0 + 0.5 + 0.5 * row as f32 + (column - row) as f32;
            let def = BodyDef { sleep_allowed: false, ..BodyDef::dynamic(Vec2::new(x, 0.5 + row as f32)) };
            let b = w.create_body(&def).unwrap();
            w.create_shape(b, &ShapeDef::default(), &boxed(0.5)).unwrap();
        }
    }
    w
}

/// Smash: no gravity; an 8 m box of density 8 at 40 m/s into a block of 120 by 80 sleeping
/// 0.4 m boxes touching each other.
fn smash(continuous: bool) -> World {
    let mut w = new_world(Vec2::ZERO, continuous);
    let smasher = w
        .create_body(&BodyDef { linear_velocity: Vec2::new(40.0, 0.0), ..BodyDef::dynamic(Vec2::new(-20.0, 0.0)) })
        .unwrap();
    w.create_shape(smasher, &ShapeDef { density: 8.0, ..ShapeDef::default() }, &boxed(4.0)).unwrap();
    let (columns, rows, size) = (120, 80, 0.4);
    for i in 0..columns {
        for j in 0..rows {
            let position = Vec2::new(30.0 + size * i as f32, (j as f32 - 0.5 * rows as f32) * size);
            let b = w.create_body(&BodyDef { awake: false, ..BodyDef::dynamic(position) }).unwrap();
            w.create_shape(b, &ShapeDef::default(), &boxed(0.5 * size)).unwrap();
        }
    }
    w
}

/// 1000 bullets (0.05 m circles, restitution 0.8) at 50 to 300 m/s in a closed 40 m box with
/// walls 10 cm thick, without gravity.
fn bullets(continuous: bool) -> World {
    let mut w = new_world(Vec2::ZERO, continuous);
    let walls = w.create_body(&BodyDef::fixed(Vec2::ZERO)).unwrap();
    for (center, hx, hy) in [
        (Vec2::new(0.0, -20.05), 20.1, 0.05),
        (Vec2::new(0.0, 20.05), 20.1, 0.05),
        (Vec2::new(-20.05, 0.0), 0.05, 20.1),
        (Vec2::new(20.05, 0.0), 0.05, 20.1),
    ] {
        let wall = Shape::Polygon(make_offset_box(hx, hy, center, 0.0).unwrap());
        w.create_shape(walls, &ShapeDef::default(), &wall).unwrap();
    }
    let mut seed = 1u64;
    let mut next = move || {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 40) as f32 / (1u64 << 24) as f32
    };
    let circle = Shape::Circle(Circle::new(Vec2::ZERO, 0.05).unwrap());
    for i in 0..1000 {
        let position = Vec2::new(-19.0 + 38.0 * (i % 40) as f32 / 39.0, -19.0 + 38.0 * (i / 40) as f32 / 24.0);
        let (angle, speed) = (std::f32::consts::TAU * next(), 50.0 + 250.0 * next());
        let def = BodyDef {
            linear_velocity: speed * Vec2::new(angle.cos(), angle.sin()),
            bullet: true,
            ..BodyDef::dynamic(position)
        };
        let b = w.create_body(&def).unwrap();
        w.create_shape(b, &ShapeDef { restitution: 0.8, ..ShapeDef::default() }, &circle).unwrap();
    }
    w
}

/// Steps a scene `warmup` steps, then reports the share of 120 more steps spent in
/// continuous collision and the mean statistics per step.
fn report(name: &str, build: fn(bool) -> World, warmup: usize) {
    let mut w = build(true);
    for _ in 0..warmup {
        w.step(DT, SUBSTEPS).unwrap();
    }
    let (mut continuous, mut total, mut toi_calls, mut impacts, mut fast) = (0.0, 0.0, 0u64, 0u64, 0u64);
    let steps = 120;
    for _ in 0..steps {
        w.step(DT, SUBSTEPS).unwrap();
        let (p, s) = (w.profile(), w.continuous_stats());
        continuous += p.continuous;
        total += p.total;
        toi_calls += u64::from(s.toi_calls);
        impacts += u64::from(s.impacts);
        fast += u64::from(s.fast_bodies);
    }
    let per = |x: u64| x as f64 / steps as f64;
    println!(
        "{name}: continuous collision {:.2} % of the step ({:.3} of {:.3} ms per step); per step: {:.1} fast bodies, {:.1} TOI calls, {:.1} impacts",
        100.0 * continuous / total,
        continuous / steps as f64,
        total / steps as f64,
        per(fast),
        per(toi_calls),
        per(impacts)
    );
}

/// A scene: its name, its builder (continuous collision on or off) and its warm-up steps.
type Scene = (&'static str, fn(bool) -> World, usize);

fn bench(c: &mut Criterion) {
    let scenes: [Scene; 3] =
        [("large_pyramid", large_pyramid, 60), ("smash", smash, 60), ("bullets_1000", bullets, 10)];
    for (name, build, warmup) in scenes {
        report(name, build, warmup);
        let mut group = c.benchmark_group(format!("continuous/{name}"));
        group.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3));
        for continuous in [false, true] {
            let mut w = build(continuous);
            for _ in 0..warmup {
                w.step(DT, SUBSTEPS).unwrap();
            }
            let label = if continuous { "on" } else { "off" };
            group.bench_function(label, |b| b.iter(|| black_box(&mut w).step(DT, SUBSTEPS).unwrap()));
        }
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
