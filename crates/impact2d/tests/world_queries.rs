//! World queries against brute force: on seeded random scenes of every shape kind (moved by a
//! few steps so that the broad phase's fat AABBs differ from the shapes), ray casts (closest
//! and all), shape casts, AABB overlap and point queries, each with a filter, give exactly
//! what testing every shape with the per-shape query functions gives.

mod world_common;

use impact2d::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use world_common::*;

const CATEGORIES: [u64; 3] = [1, 2, 4];

fn random_shape(rng: &mut ChaCha8Rng) -> Shape {
    let r = |rng: &mut ChaCha8Rng, lo: f32, hi: f32| rng.random_range(lo..hi);
    match rng.random_range(0..5) {
        0 => circle(r(rng, 0.1, 0.8)),
        1 => {
            let (a, b) = (Vec2::new(r(rng, -0.6, 0.0), r(rng, -0.3, 0.3)), Vec2::new(r(rng, 0.1, 0.6), 0.0));
            Shape::Capsule(Capsule::new(a, b, r(rng, 0.05, 0.3)).unwrap())
        }
        2 => boxed(r(rng, 0.1, 0.8), r(rng, 0.1, 0.8)),
        3 => {
            let points: Vec<Vec2> = (0..6).map(|_| Vec2::new(r(rng, -0.7, 0.7), r(rng, -0.7, 0.7))).collect();
            match Polygon::new(&points, r(rng, 0.0, 0.1)) {
                Ok(p) => Shape::Polygon(p),
                Err(_) => boxed(0.3, 0.4),
            }
        }
        _ => Shape::Segment(Segment::new(Vec2::new(r(rng, -1.0, 0.0), 0.0), Vec2::new(r(rng, 0.2, 1.0), 0.3)).unwrap()),
    }
}

fn random_filter(rng: &mut ChaCha8Rng) -> Filter {
    let category = CATEGORIES[rng.random_range(0..3)];
    let mask = if rng.random_range(0..4) == 0 { !category } else { u64::MAX };
    Filter::new(category, mask)
}

/// A scene of `n` random shapes on static and dynamic bodies in a 40 m square, without
/// gravity, stepped a few times; returns the world and its shapes.
fn random_scene(seed: u64, n: usize) -> (World, Vec<ShapeId>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut world = world_without_gravity();
    let mut shapes = Vec::new();
    for _ in 0..n {
        let position = Vec2::new(rng.random_range(-20.0..20.0), rng.random_range(-20.0..20.0));
        let angle = rng.random_range(-3.0..3.0);
        let def = match rng.random_range(0..4) {
            0 => BodyDef { angle, ..BodyDef::fixed(position) },
            _ => BodyDef {
                angle,
                linear_velocity: Vec2::new(rng.random_range(-3.0..3.0), rng.random_range(-3.0..3.0)),
                angular_velocity: rng.random_range(-2.0..2.0),
                ..BodyDef::dynamic(position)
            },
        };
        let body = world.create_body(&def).unwrap();
        let shape_def =
            ShapeDef { filter: random_filter(&mut rng), sensor: rng.random_range(0..10) == 0, ..ShapeDef::default() };
        shapes.push(world.create_shape(body, &shape_def, &random_shape(&mut rng)).unwrap());
    }
    run(&mut world, 10);
    (world, shapes)
}

/// A shape's geometry and where it is now.
fn placed(world: &World, shape: ShapeId) -> (Shape, Transform) {
    let body = world.shape_body(shape).unwrap();
    (*world.shape_geometry(shape).unwrap(), world.transform(body).unwrap())
}

fn sees(world: &World, filter: &Filter, shape: ShapeId) -> bool {
    filter.should_pair(&world.shape_filter(shape).unwrap())
}

/// Every hit of the ray, brute force, sorted by fraction then handle.
fn brute_ray(world: &World, shapes: &[ShapeId], origin: Vec2, translation: Vec2, filter: &Filter) -> Vec<CastHit> {
    let mut hits = Vec::new();
    for &s in shapes {
        if world.is_sensor(s).unwrap() || !sees(world, filter, s) {
            continue;
        }
        let (geometry, xf) = placed(world, s);
        let local =
            RayCastInput { origin: xf.inv_apply(origin), translation: xf.q.inv_rotate(translation), max_fraction: 1.0 };
        if let Some(out) = geometry.ray_cast(&local) {
            hits.push(CastHit {
                shape: s,
                point: xf.apply(out.point),
                normal: xf.q.rotate(out.normal),
                fraction: out.fraction,
            });
        }
    }
    hits.sort_by(|a, b| a.fraction.total_cmp(&b.fraction).then(a.shape.cmp(&b.shape)));
    hits
}

#[test]
fn ray_casts_equal_brute_force() {
    let mut total = 0;
    for seed in 0..4 {
        let (world, shapes) = random_scene(seed, 300);
        let mut rng = ChaCha8Rng::seed_from_u64(100 + seed);
        for _ in 0..200 {
            let origin = Vec2::new(rng.random_range(-25.0..25.0), rng.random_range(-25.0..25.0));
            let translation = Vec2::new(rng.random_range(-30.0..30.0), rng.random_range(-30.0..30.0));
            let filter = if rng.random_range(0..2) == 0 { Filter::default() } else { random_filter(&mut rng) };
            let want = brute_ray(&world, &shapes, origin, translation, &filter);
            let all = world.cast_ray_all(origin, translation, filter).unwrap();
            assert_eq!(all, want, "seed {seed}: ray {origin} by {translation}");
            let closest = world.cast_ray_closest(origin, translation, filter).unwrap();
            assert_eq!(closest, want.first().copied(), "seed {seed}: ray {origin} by {translation}");
            total += want.len();
        }
    }
    assert!(total > 1000, "the rays hit something: {total} hits");
}

#[test]
fn shape_casts_equal_brute_force() {
    let mut hits = 0;
    for seed in 0..3 {
        let (world, shapes) = random_scene(10 + seed, 200);
        let mut rng = ChaCha8Rng::seed_from_u64(200 + seed);
        for _ in 0..100 {
            let cast = random_shape(&mut rng);
            let transform = Transform {
                p: Vec2::new(rng.random_range(-25.0..25.0), rng.random_range(-25.0..25.0)),
                q: Rot::from_angle(rng.random_range(-3.0..3.0)),
            };
            let translation = Vec2::new(rng.random_range(-20.0..20.0), rng.random_range(-20.0..20.0));
            let filter = if rng.random_range(0..2) == 0 { Filter::default() } else { random_filter(&mut rng) };
            let proxy = ShapeProxy::from_shape(&cast);
            let mut want: Option<CastHit> = None;
            for &s in &shapes {
                if world.is_sensor(s).unwrap() || !sees(&world, &filter, s) {
                    continue;
                }
                let (geometry, xf) = placed(&world, s);
                let target = ShapeProxy::from_shape(&geometry);
                let input = ShapeCastInput {
                    proxy_a: &target,
                    transform_a: xf,
                    proxy_b: &proxy,
                    transform_b: transform,
                    translation_b: translation,
                    max_fraction: 1.0,
                    target: 0.0,
                    tolerance: impact2d::settings::TOI_TOLERANCE,
                };
                if let Some(out) = shape_cast(&input).unwrap() {
                    let hit = CastHit { shape: s, point: out.point, normal: out.normal, fraction: out.fraction };
                    if want.is_none_or(|w| (hit.fraction, hit.shape) < (w.fraction, w.shape)) {
                        want = Some(hit);
                    }
                }
            }
            let got = world.cast_shape(&cast, transform, translation, filter).unwrap();
            match (got, want) {
                (Some(g), Some(w)) => {
                    assert_eq!(g.shape, w.shape, "seed {seed}: cast from {} by {translation}", transform.p);
                    assert!((g.fraction - w.fraction).abs() < 1e-5, "{g:?} vs {w:?}");
                    assert!((g.point - w.point).length() < 1e-3 && (g.normal - w.normal).length() < 1e-3);
                    hits += 1;
                }
                (g, w) => assert_eq!(g, w, "seed {seed}: cast from {} by {translation}", transform.p),
            }
        }
    }
    assert!(hits > 100, "the casts hit something: {hits}");
}

#[test]
fn aabb_and_point_queries_equal_brute_force() {
    let (mut boxes, mut points) = (0, 0);
    for seed in 0..4 {
        let (world, shapes) = random_scene(20 + seed, 400);
        let mut rng = ChaCha8Rng::seed_from_u64(300 + seed);
        for _ in 0..200 {
            let filter = if rng.random_range(0..2) == 0 { Filter::default() } else { random_filter(&mut rng) };
            let lower = Vec2::new(rng.random_range(-25.0..25.0), rng.random_range(-25.0..25.0));
            let query = Aabb::new(lower, lower + Vec2::new(rng.random_range(0.0..6.0), rng.random_range(0.0..6.0)));
            let mut want: Vec<ShapeId> = shapes
                .iter()
                .copied()
                .filter(|&s| {
                    sees(&world, &filter, s) && {
                        let (geometry, xf) = placed(&world, s);
                        geometry.aabb(xf).overlaps(&query)
                    }
                })
                .collect();
            want.sort();
            assert_eq!(world.overlap_aabb(query, filter).unwrap(), want, "seed {seed}: {query:?}");
            boxes += want.len();

            let point = Vec2::new(rng.random_range(-22.0..22.0), rng.random_range(-22.0..22.0));
            let probe = ShapeProxy::new(&[point], 0.0).unwrap();
            let mut want: Vec<ShapeId> = shapes
                .iter()
                .copied()
                .filter(|&s| {
                    sees(&world, &filter, s) && {
                        let (geometry, xf) = placed(&world, s);
                        let input = DistanceInput {
                            proxy_a: &ShapeProxy::from_shape(&geometry),
                            transform_a: xf,
                            proxy_b: &probe,
                            transform_b: Transform::IDENTITY,
                        };
                        shape_distance(&input, &mut SimplexCache::default()).unwrap().distance <= 0.0
                    }
                })
                .collect();
            want.sort();
            assert_eq!(world.overlap_point(point, filter).unwrap(), want, "seed {seed}: {point}");
            points += want.len();
        }
    }
    assert!(boxes > 1000 && points > 50, "the queries found something: {boxes} in boxes, {points} at points");
}

#[test]
fn queries_refuse_bad_input() {
    let (world, _) = random_scene(1, 10);
    let f = Filter::default();
    assert!(matches!(
        world.cast_ray_closest(Vec2::new(f32::NAN, 0.0), Vec2::X, f),
        Err(WorldError::InvalidValue { .. })
    ));
    assert!(matches!(
        world.cast_ray_all(Vec2::ZERO, Vec2::new(0.0, f32::INFINITY), f),
        Err(WorldError::InvalidValue { .. })
    ));
    assert!(matches!(world.overlap_point(Vec2::new(f32::NAN, 1.0), f), Err(WorldError::InvalidValue { .. })));
    let inverted = Aabb { lower: Vec2::ONE, upper: Vec2::ZERO };
    assert!(matches!(world.overlap_aabb(inverted, f), Err(WorldError::BroadPhase(_))));
    assert!(matches!(
        world.cast_shape(&circle(1.0), Transform::IDENTITY, Vec2::new(f32::NAN, 0.0), f),
        Err(WorldError::InvalidValue { .. })
    ));
}
