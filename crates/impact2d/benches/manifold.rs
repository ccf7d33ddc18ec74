//! Contact manifold speed, per pair of shape kinds, in near-contact poses (the poses a narrow
//! phase sees after the broad phase): `cargo bench -p impact2d --bench manifold`.
//!
//! Each iteration collides one of 64 slightly different poses, so branch prediction does not
//! learn a single answer. "gjk distance box-box" (the query module's GJK on the resting box
//! poses) is a calibration: it tells how fast the machine ran.

use criterion::{Criterion, criterion_group, criterion_main};
use impact2d::settings::SPECULATIVE_DISTANCE;
use impact2d::*;
use std::hint::black_box;

fn poses(base: Transform, dx: f32, dy: f32, da: f32) -> Vec<Transform> {
    (0..64)
        .map(|i| {
            let t = i as f32 / 64.0 - 0.5;
            let angle = base.q.angle() + da * (t * 7.0).sin();
            Transform::new(base.p + Vec2::new(dx * t, dy * (t * 5.0).cos()), angle)
        })
        .collect()
}

fn bench_pair(c: &mut Criterion, name: &str, a: &Shape, xf_a: Transform, b: &Shape, poses: &[Transform]) {
    let mut i = 0;
    c.bench_function(name, |bencher| {
        bencher.iter(|| {
            i = (i + 1) & 63;
            black_box(collide(black_box(a), xf_a, black_box(b), poses[i], SPECULATIVE_DISTANCE))
        })
    });
}

/// A regular octagon of circumradius `radius` (meters).
fn octagon(radius: f32) -> Shape {
    let points: Vec<Vec2> = (0..8).map(|i| Vec2::from_angle(i as f32 * std::f32::consts::TAU / 8.0) * radius).collect();
    Shape::Polygon(Polygon::new(&points, 0.0).unwrap())
}

fn manifolds(c: &mut Criterion) {
    let ground = Shape::Polygon(make_box(5.0, 0.5).unwrap());
    let id = Transform::IDENTITY;
    let unit_box = Shape::Polygon(make_box(0.5, 0.5).unwrap());
    let resting = poses(Transform::new(Vec2::new(0.0, 0.995), 0.0), 2.0, 0.004, 0.002);
    bench_pair(c, "box-box resting", &ground, id, &unit_box, &resting);
    let (proxy_a, proxy_b) = (ShapeProxy::from_shape(&ground), ShapeProxy::from_shape(&unit_box));
    let mut i = 0;
    c.bench_function("gjk distance box-box", |bencher| {
        bencher.iter(|| {
            i = (i + 1) & 63;
            let input =
                DistanceInput { proxy_a: &proxy_a, transform_a: id, proxy_b: &proxy_b, transform_b: resting[i] };
            black_box(shape_distance(black_box(&input), &mut SimplexCache::default()))
        })
    });
    let rotated = poses(Transform::new(Vec2::new(0.3, 1.2), 0.6), 0.5, 0.05, 0.3);
    bench_pair(c, "box-box rotated", &unit_box, id, &unit_box, &rotated);
    let shape = octagon(0.6);
    let near = poses(Transform::new(Vec2::new(0.2, 1.19), 0.2), 0.4, 0.01, 0.4);
    bench_pair(c, "polygon-polygon 8", &shape, id, &shape, &near);
    let ball = Shape::Circle(Circle::new(Vec2::ZERO, 0.5).unwrap());
    let on_ground = poses(Transform::new(Vec2::new(0.0, 0.995), 0.0), 11.0, 0.004, 0.0);
    bench_pair(c, "circle-polygon", &ground, id, &ball, &on_ground);
    let capsule = Shape::Capsule(Capsule::new(Vec2::new(-0.5, 0.0), Vec2::new(0.5, 0.0), 0.25).unwrap());
    let lying = poses(Transform::new(Vec2::new(0.0, 0.745), 0.0), 4.0, 0.004, 0.05);
    bench_pair(c, "capsule-polygon", &ground, id, &capsule, &lying);
    let stacked = poses(Transform::new(Vec2::new(0.3, 0.495), 0.0), 1.0, 0.004, 0.3);
    bench_pair(c, "capsule-capsule", &capsule, id, &capsule, &stacked);
    let chain = make_chain(&[Vec2::new(2.0, 0.0), Vec2::new(0.0, 0.0), Vec2::new(-2.0, 0.0)], false).unwrap();
    let segment = Shape::ChainSegment(chain[0]);
    let rolling = poses(Transform::new(Vec2::new(1.0, 0.495), 0.0), 3.0, 0.004, 0.0);
    bench_pair(c, "circle-chain", &segment, id, &ball, &rolling);
    bench_pair(c, "box-chain", &segment, id, &unit_box, &rolling);
}

criterion_group!(benches, manifolds);
criterion_main!(benches);
