//! Ray cast cost per shape kind: the time of one cast, cycling through a fixed set of seeded
//! random rays of which about half hit. Criterion's time per iteration is the time per
//! cast; its report gives the median in `target/criterion/ray_cast/*/new/estimates.json`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use impact2d::{
    Capsule, ChainSegment, Circle, Polygon, RayCastInput, Segment, Shape, Vec2, make_box, make_rounded_box,
};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Distinct rays cycled through.
const RAYS: usize = 1024;

/// Rays from 2 to 6 m away, aimed within 1.2 m of the origin, so roughly half hit a shape
/// about 1 m across.
fn rays() -> Vec<RayCastInput> {
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    (0..RAYS)
        .map(|_| {
            let origin = Vec2::from_angle(rng.random_range(0.0..6.3)) * rng.random_range(2.0..6.0);
            let target = Vec2::from_angle(rng.random_range(0.0..6.3)) * rng.random_range(0.0..1.2);
            RayCastInput { origin, translation: (target - origin) * 1.5, max_fraction: 1.0 }
        })
        .collect()
}

fn shapes() -> Vec<(&'static str, Shape)> {
    let hexagon: Vec<Vec2> = (0..6).map(|i| Vec2::from_angle(i as f32 * std::f32::consts::FRAC_PI_3) * 0.5).collect();
    let octagon: Vec<Vec2> = (0..8).map(|i| Vec2::from_angle(i as f32 * std::f32::consts::FRAC_PI_4) * 0.5).collect();
    vec![
        ("circle", Shape::Circle(Circle::new(Vec2::ZERO, 0.5).unwrap())),
        ("capsule", Shape::Capsule(Capsule::new(Vec2::new(-0.4, 0.0), Vec2::new(0.4, 0.0), 0.3).unwrap())),
        ("box", Shape::Polygon(make_box(0.5, 0.3).unwrap())),
        ("rounded box", Shape::Polygon(make_rounded_box(0.4, 0.2, 0.1).unwrap())),
        ("hexagon", Shape::Polygon(Polygon::new(&hexagon, 0.0).unwrap())),
        ("rounded octagon", Shape::Polygon(Polygon::new(&octagon, 0.1).unwrap())),
        ("segment", Shape::Segment(Segment::new(Vec2::new(-0.5, -0.2), Vec2::new(0.5, 0.2)).unwrap())),
        (
            "chain segment",
            Shape::ChainSegment(
                ChainSegment::new(Vec2::new(-1.5, 0.0), Vec2::new(-0.5, 0.0), Vec2::new(0.5, 0.0), Vec2::new(1.5, 0.0))
                    .unwrap(),
            ),
        ),
    ]
}

fn bench_ray_casts(c: &mut Criterion) {
    let rays = rays();
    let mut group = c.benchmark_group("ray_cast");
    for (name, shape) in shapes() {
        // One cast per iteration, cycling through the rays, so criterion's time per
        // iteration is the time per cast.
        let mut next = 0;
        group.bench_function(name, |b| {
            b.iter(|| {
                next = (next + 1) % RAYS;
                black_box(&shape).ray_cast(black_box(&rays[next]))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_ray_casts);
criterion_main!(benches);
