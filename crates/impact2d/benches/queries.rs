//! Pairwise query benchmarks: GJK distance (cold and warm-started), shape cast, and time of
//! impact by bilateral advancement (BA) versus conservative advancement (CA) on the same
//! fixed query sets.
//!
//! Every benchmark runs a whole pre-generated set per iteration (seeded, so every run
//! measures the same work); criterion reports the time per set and the throughput in
//! queries per second. Iteration statistics of the TOI sets are printed once at start-up.
//!
//! Run: `cargo bench -p impact2d --bench queries`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use impact2d::settings::{TOI_TARGET, TOI_TOLERANCE};
use impact2d::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::f32::consts::PI;
use std::hint::black_box;

const SET: usize = 1000;

fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

fn uni(rng: &mut ChaCha8Rng, lo: f32, hi: f32) -> f32 {
    rng.random_range(lo..hi)
}

fn rect(hw: f32, hh: f32) -> ShapeProxy {
    ShapeProxy::new(&[Vec2::new(-hw, -hh), Vec2::new(hw, -hh), Vec2::new(hw, hh), Vec2::new(-hw, hh)], 0.0).unwrap()
}

/// A convex 8-gon with jittered vertex angles, radius ~ `size`.
fn octagon(rng: &mut ChaCha8Rng, size: f32) -> ShapeProxy {
    let pts: Vec<Vec2> = (0..8)
        .map(|k| {
            let a = 2.0 * PI * (k as f32 + uni(rng, -0.3, 0.3)) / 8.0;
            size * uni(rng, 0.85, 1.0) * Vec2::new(a.cos(), a.sin())
        })
        .collect();
    ShapeProxy::new(&pts, 0.0).unwrap()
}

fn dir(rng: &mut ChaCha8Rng) -> Vec2 {
    let a = uni(rng, -PI, PI);
    Vec2::new(a.cos(), a.sin())
}

struct Pair {
    a: ShapeProxy,
    xa: Transform,
    b: ShapeProxy,
    xb: Transform,
    /// The cache left by a query on the same pair one small motion earlier.
    warm: SimplexCache,
}

fn distance_set(seed: u64, make: impl Fn(&mut ChaCha8Rng) -> (ShapeProxy, ShapeProxy)) -> Vec<Pair> {
    let mut rng = rng(seed);
    (0..SET)
        .map(|_| {
            let (a, b) = make(&mut rng);
            let xa = Transform::new(Vec2::ZERO, uni(&mut rng, -PI, PI));
            let pb = dir(&mut rng) * uni(&mut rng, 0.5, 3.0);
            let ab = uni(&mut rng, -PI, PI);
            // Previous frame: 1 cm and 0.02 rad away.
            let before = Transform::new(pb - 0.01 * dir(&mut rng), ab - 0.02);
            let mut warm = SimplexCache::default();
            shape_distance(
                &DistanceInput { proxy_a: &a, transform_a: xa, proxy_b: &b, transform_b: before },
                &mut warm,
            )
            .unwrap();
            Pair { a, xa, b, xb: Transform::new(pb, ab), warm }
        })
        .collect()
}

fn bench_distance(c: &mut Criterion) {
    let sets = [
        (
            "box-box",
            distance_set(1, |r| (rect(uni(r, 0.2, 1.0), uni(r, 0.2, 1.0)), rect(uni(r, 0.2, 1.0), uni(r, 0.2, 1.0)))),
        ),
        ("polygon8-polygon8", distance_set(2, |r| (octagon(r, 0.7), octagon(r, 0.7)))),
        (
            "circle-polygon8",
            distance_set(3, |r| (ShapeProxy::new(&[Vec2::ZERO], uni(r, 0.2, 0.8)).unwrap(), octagon(r, 0.7))),
        ),
    ];
    let mut g = c.benchmark_group("gjk_distance");
    g.throughput(Throughput::Elements(SET as u64));
    for (name, set) in &sets {
        g.bench_function(format!("{name}/cold"), |bench| {
            bench.iter(|| {
                let mut sum = 0.0;
                for p in set {
                    let input = DistanceInput { proxy_a: &p.a, transform_a: p.xa, proxy_b: &p.b, transform_b: p.xb };
                    sum += shape_distance(black_box(&input), &mut SimplexCache::default()).unwrap().distance;
                }
                sum
            })
        });
        g.bench_function(format!("{name}/warm"), |bench| {
            bench.iter(|| {
                let mut sum = 0.0;
                for p in set {
                    let input = DistanceInput { proxy_a: &p.a, transform_a: p.xa, proxy_b: &p.b, transform_b: p.xb };
                    let mut cache = p.warm;
                    sum += shape_distance(black_box(&input), &mut cache).unwrap().distance;
                }
                sum
            })
        });
        let (cold, warm): (u32, u32) = set.iter().fold((0, 0), |(c, w), p| {
            let input = DistanceInput { proxy_a: &p.a, transform_a: p.xa, proxy_b: &p.b, transform_b: p.xb };
            let mut cache = p.warm;
            (
                c + shape_distance(&input, &mut SimplexCache::default()).unwrap().iterations,
                w + shape_distance(&input, &mut cache).unwrap().iterations,
            )
        });
        eprintln!(
            "gjk_distance/{name}: mean GJK iterations cold {:.2}, warm {:.2}",
            cold as f32 / SET as f32,
            warm as f32 / SET as f32
        );
    }
    g.finish();
}

struct Cast {
    a: ShapeProxy,
    xa: Transform,
    b: ShapeProxy,
    xb: Transform,
    translation: Vec2,
}

fn bench_shape_cast(c: &mut Criterion) {
    let mut r = rng(4);
    let set: Vec<Cast> = (0..SET)
        .map(|_| {
            let a = rect(uni(&mut r, 0.2, 1.0), uni(&mut r, 0.2, 1.0));
            let b = octagon(&mut r, 0.4);
            let start = dir(&mut r) * uni(&mut r, 1.0, 4.0);
            let aim = dir(&mut r) * uni(&mut r, 0.0, 1.0);
            Cast {
                a,
                xa: Transform::new(Vec2::ZERO, uni(&mut r, -PI, PI)),
                b,
                xb: Transform::new(start, uni(&mut r, -PI, PI)),
                translation: (aim - start) * uni(&mut r, 0.8, 2.0),
            }
        })
        .collect();
    let run = |q: &Cast| {
        shape_cast(&ShapeCastInput {
            proxy_a: &q.a,
            transform_a: q.xa,
            proxy_b: &q.b,
            transform_b: q.xb,
            translation_b: q.translation,
            max_fraction: 1.0,
            target: 0.0,
            tolerance: TOI_TOLERANCE,
        })
        .unwrap()
    };
    let (hits, iterations) = set.iter().filter_map(run).fold((0, 0), |(h, i), o| (h + 1, i + o.iterations));
    eprintln!(
        "shape_cast box-polygon8: {hits} hits of {SET}, mean iterations of a hit {:.2}",
        iterations as f32 / hits as f32
    );
    let mut g = c.benchmark_group("shape_cast");
    g.throughput(Throughput::Elements(SET as u64));
    g.bench_function("box-polygon8", |bench| bench.iter(|| set.iter().filter(|q| run(black_box(q)).is_some()).count()));
    g.finish();
}

struct Toi {
    a: ShapeProxy,
    sa: Sweep,
    b: ShapeProxy,
    sb: Sweep,
}

/// The AABB of everything a body can cover over the step: its core stays within
/// `reach` of its center of rotation, which moves in a straight line.
fn swept_aabb(p: &ShapeProxy, s: &Sweep) -> Aabb {
    let reach = p.max_distance_from(s.local_center) + p.radius();
    Aabb::new(s.c1.min(s.c2) - Vec2::splat(reach), s.c1.max(s.c2) + Vec2::splat(reach))
}

/// Box–box pairs, B (and A unless `still_a`) moving up to 2 m and rotating up to ±2 rad per
/// step, kept only when their swept AABBs overlap and they start apart by more than the
/// linear slop (the pairs a broad phase would hand to the TOI; touching pairs are the
/// discrete solver's work). A still A is the engine's common case: a fast body against
/// static geometry.
fn box_pairs(still_a: bool) -> Vec<Toi> {
    let mut r = rng(5);
    let mut set = vec![];
    while set.len() < SET {
        let a = rect(uni(&mut r, 0.1, 1.0), uni(&mut r, 0.1, 1.0));
        let b = rect(uni(&mut r, 0.1, 1.0), uni(&mut r, 0.1, 1.0));
        let ca = dir(&mut r) * uni(&mut r, 0.0, 1.0);
        let cb = dir(&mut r) * uni(&mut r, 0.0, 4.0);
        let (aa, ab) = (uni(&mut r, -PI, PI), uni(&mut r, -PI, PI));
        let sa = Sweep {
            local_center: Vec2::ZERO,
            c1: ca,
            c2: ca + dir(&mut r) * uni(&mut r, 0.0, 2.0),
            a1: aa,
            a2: aa + uni(&mut r, -2.0, 2.0),
        };
        let sa = if still_a { Sweep { c2: sa.c1, a2: sa.a1, ..sa } } else { sa };
        let sb = Sweep {
            local_center: Vec2::ZERO,
            c1: cb,
            c2: cb + dir(&mut r) * uni(&mut r, 0.0, 2.0),
            a1: ab,
            a2: ab + uni(&mut r, -2.0, 2.0),
        };
        let start = DistanceInput {
            proxy_a: &a,
            transform_a: sa.transform_at(0.0),
            proxy_b: &b,
            transform_b: sb.transform_at(0.0),
        };
        let apart =
            shape_distance(&start, &mut SimplexCache::default()).unwrap().distance > impact2d::settings::LINEAR_SLOP;
        if apart && swept_aabb(&a, &sa).overlaps(&swept_aabb(&b, &sb)) {
            set.push(Toi { a, sa, b, sb });
        }
    }
    set
}

/// Catto's worst case for CA: a triangle pivoting about a vertex 2 mm above the target band.
fn pivot_cases() -> Vec<Toi> {
    let ground =
        ShapeProxy::new(&[Vec2::new(-5.0, -0.5), Vec2::new(5.0, -0.5), Vec2::new(5.0, 0.0), Vec2::new(-5.0, 0.0)], 0.0)
            .unwrap();
    let tri = ShapeProxy::new(&[Vec2::ZERO, Vec2::new(1.0, 0.6), Vec2::new(0.2, 1.0)], 0.0).unwrap();
    let h = TOI_TARGET + TOI_TOLERANCE + 0.002;
    vec![Toi {
        a: ground,
        sa: Sweep::fixed(Transform::IDENTITY),
        b: tri,
        sb: Sweep { local_center: Vec2::ZERO, c1: Vec2::new(0.0, h), c2: Vec2::new(0.0, h), a1: 0.0, a2: -1.2 },
    }]
}

type ToiFn = fn(&ShapeProxy, &Sweep, &ShapeProxy, &Sweep, f32, f32, f32) -> Result<ToiOutput, QueryError>;

fn toi_stats(name: &str, set: &[Toi], f: ToiFn) {
    let mut states = [0usize; 4];
    let (mut sum, mut max, mut subdivisions, mut sub_max) = (0u64, 0u32, 0u64, 0u32);
    for q in set {
        let o = f(&q.a, &q.sa, &q.b, &q.sb, 1.0, TOI_TARGET, TOI_TOLERANCE).unwrap();
        states[o.state as usize] += 1;
        sum += o.iterations as u64;
        max = max.max(o.iterations);
        subdivisions += o.subdivisions as u64;
        sub_max = sub_max.max(o.subdivisions);
    }
    eprintln!(
        "{name}: {} queries; hit {}, separated {}, overlapped {}, failed {}; iterations mean {:.2} max {max}; subdivisions mean {:.2} max {sub_max}",
        set.len(),
        states[ToiState::Hit as usize],
        states[ToiState::Separated as usize],
        states[ToiState::Overlapped as usize],
        states[ToiState::Failed as usize],
        sum as f64 / set.len() as f64,
        subdivisions as f64 / set.len() as f64
    );
}

fn bench_toi(c: &mut Criterion) {
    let boxes = box_pairs(false);
    let static_boxes = box_pairs(true);
    let pivot = pivot_cases();
    let sets = [("box-box-2rad", &boxes), ("box-static-box-2rad", &static_boxes), ("pivot", &pivot)];
    // The peers' algorithm (no rotation certificate) shows what the certificate costs and,
    // from the hit counts, what it catches.
    let algos: [(&str, ToiFn); 3] = [
        ("bilateral", time_of_impact),
        ("bilateral-uncertified", time_of_impact_uncertified),
        ("conservative", conservative_advancement),
    ];
    for (set_name, set) in sets {
        for (algo, f) in algos {
            toi_stats(&format!("toi/{set_name}/{algo}"), set, f);
        }
    }
    let mut g = c.benchmark_group("toi");
    for (set_name, set) in sets {
        g.throughput(Throughput::Elements(set.len() as u64));
        for (algo, f) in algos {
            g.bench_function(format!("{set_name}/{algo}"), |bench| {
                bench.iter(|| {
                    let mut sum = 0.0;
                    for q in set.iter() {
                        sum += f(black_box(&q.a), &q.sa, &q.b, &q.sb, 1.0, TOI_TARGET, TOI_TOLERANCE).unwrap().t;
                    }
                    sum
                })
            });
        }
    }
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(30)
        .warm_up_time(std::time::Duration::from_secs(1))
        .measurement_time(std::time::Duration::from_secs(4))
}

criterion_group! { name = queries; config = config(); targets = bench_distance, bench_shape_cast, bench_toi }
criterion_main!(queries);
