//! Criterion benchmarks of the broad phase: building, one step of updates plus pair finding
//! with 10 percent of the proxies moving, and ray casts; the dynamic tree against sort and
//! sweep and against brute force. What the numbers mean: docs/performance.md.
//!
//! The scene: `n` boxes with half-extents from 0.1 to 0.5 m, centered uniformly at random in
//! a square of side sqrt(n) m (one box per square meter: each fat box overlaps about 2.6
//! others). Every tenth box moves with its own constant velocity, bouncing off the sides.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, BenchmarkId, Criterion, criterion_group, criterion_main};
use impact2d::broad_phase::{BroadPhase, DynamicTree, Filter, ProxyKey, ProxyKind, RayControl, SortAndSweep};
use impact2d::{Aabb, RayCastInput, Vec2};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The boxes of a scene of `n` proxies.
fn scene(n: usize, seed: u64) -> Vec<Aabb> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let side = (n as f32).sqrt();
    (0..n)
        .map(|_| {
            let c = Vec2::new(rng.random_range(0.0..side), rng.random_range(0.0..side));
            let h = Vec2::new(rng.random_range(0.1..0.5), rng.random_range(0.1..0.5));
            Aabb::new(c - h, c + h)
        })
        .collect()
}

/// How the moving tenth moves per step.
#[derive(Clone, Copy)]
enum Motion {
    /// Speeds uniform in [0, 0.1] m per step (up to 6 m/s at 60 Hz): a mover leaves its fat
    /// box (0.1 m margin) about every third step.
    Typical,
    /// 0.2 m every step: every mover leaves its fat box every step, the worst case.
    Fast,
}

impl Motion {
    fn name(self) -> &'static str {
        match self {
            Motion::Typical => "typical",
            Motion::Fast => "fast",
        }
    }
}

/// The moving proxies of a scene: (index, current box, velocity per step).
fn movers(boxes: &[Aabb], motion: Motion, rng: &mut ChaCha8Rng) -> Vec<(usize, Aabb, Vec2)> {
    (0..boxes.len())
        .step_by(10)
        .map(|i| {
            let angle: f32 = rng.random_range(0.0..std::f32::consts::TAU);
            let speed = match motion {
                Motion::Typical => rng.random_range(0.0..0.1),
                Motion::Fast => 0.2,
            };
            (i, boxes[i], Vec2::new(angle.cos(), angle.sin()) * speed)
        })
        .collect()
}

/// Advances one mover by its velocity, bouncing off the sides of the square.
fn advance(aabb: &mut Aabb, velocity: &mut Vec2, side: f32) {
    *aabb = aabb.translated(*velocity);
    if aabb.lower.x < 0.0 || aabb.upper.x > side {
        velocity.x = -velocity.x;
    }
    if aabb.lower.y < 0.0 || aabb.upper.y > side {
        velocity.y = -velocity.y;
    }
}

/// Something that can take a step of moves and pair finding.
trait Stepper {
    /// Moves proxy `index` to `aabb`, which moved by `displacement` over the step.
    fn move_proxy(&mut self, index: usize, aabb: Aabb, displacement: Vec2);
    fn update(&mut self) -> usize;
}

struct TreeStepper {
    bp: BroadPhase,
    keys: Vec<ProxyKey>,
    /// Tell the broad phase the displacements, for fat AABBs stretched along the motion.
    predict: bool,
}

impl Stepper for TreeStepper {
    fn move_proxy(&mut self, index: usize, aabb: Aabb, displacement: Vec2) {
        if self.predict {
            self.bp.move_proxy_predicted(self.keys[index], aabb, displacement).unwrap();
        } else {
            self.bp.move_proxy(self.keys[index], aabb).unwrap();
        }
    }
    fn update(&mut self) -> usize {
        let changes = self.bp.update_pairs(|_| true);
        changes.begun.len() + changes.ended.len()
    }
}

struct SapStepper {
    sap: SortAndSweep,
    ids: Vec<impact2d::broad_phase::ProxyId>,
}

impl Stepper for SapStepper {
    fn move_proxy(&mut self, index: usize, aabb: Aabb, _: Vec2) {
        self.sap.move_proxy(self.ids[index], aabb).unwrap();
    }
    fn update(&mut self) -> usize {
        let changes = self.sap.update_pairs(|_| true);
        changes.begun.len() + changes.ended.len()
    }
}

/// Brute force: every pair of fat boxes tested from scratch each step.
struct BruteStepper {
    fat: Vec<Aabb>,
    margin: f32,
    pairs: Vec<(u32, u32)>,
}

impl Stepper for BruteStepper {
    fn move_proxy(&mut self, index: usize, aabb: Aabb, _: Vec2) {
        if !self.fat[index].contains(&aabb) {
            self.fat[index] = aabb.enlarged(self.margin);
        }
    }
    fn update(&mut self) -> usize {
        self.pairs.clear();
        for i in 0..self.fat.len() {
            for j in i + 1..self.fat.len() {
                if self.fat[i].overlaps(&self.fat[j]) {
                    self.pairs.push((i as u32, j as u32));
                }
            }
        }
        self.pairs.len()
    }
}

/// A scene ready to step: the structure, its movers, the square's side.
struct World<S> {
    stepper: S,
    movers: Vec<(usize, Aabb, Vec2)>,
    side: f32,
}

impl<S: Stepper> World<S> {
    fn new(mut stepper: S, boxes: &[Aabb], motion: Motion, warm_up: usize) -> World<S> {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let movers = movers(boxes, motion, &mut rng);
        stepper.update();
        let mut world = World { stepper, movers, side: (boxes.len() as f32).sqrt() };
        // Movers skip random steps for a while, so they do not leave their fat boxes in step.
        for _ in 0..warm_up {
            for (i, aabb, v) in world.movers.iter_mut() {
                if rng.random_range(0..2) == 0 {
                    advance(aabb, v, world.side);
                    world.stepper.move_proxy(*i, *aabb, *v);
                }
            }
            world.stepper.update();
        }
        world
    }

    /// One step: every mover moves, then the pairs are brought up to date.
    fn step(&mut self) -> usize {
        for (i, aabb, v) in self.movers.iter_mut() {
            let before = aabb.lower;
            advance(aabb, v, self.side);
            self.stepper.move_proxy(*i, *aabb, aabb.lower - before);
        }
        self.stepper.update()
    }
}

fn tree_world(boxes: &[Aabb], motion: Motion, rebuild: bool, threads: usize, predict: bool) -> World<TreeStepper> {
    let mut bp = BroadPhase::new();
    bp.set_threads(threads);
    let keys = boxes
        .iter()
        .enumerate()
        .map(|(i, b)| bp.create_proxy(*b, ProxyKind::Dynamic, Filter::default(), i as u64).unwrap())
        .collect();
    if rebuild {
        bp.rebuild(ProxyKind::Dynamic);
    }
    World::new(TreeStepper { bp, keys, predict }, boxes, motion, 30)
}

fn sap_world(boxes: &[Aabb], motion: Motion) -> World<SapStepper> {
    let mut sap = SortAndSweep::new();
    let ids = boxes.iter().enumerate().map(|(i, b)| sap.create_proxy(*b, i as u64).unwrap()).collect();
    World::new(SapStepper { sap, ids }, boxes, motion, 30)
}

fn brute_world(boxes: &[Aabb], motion: Motion) -> World<BruteStepper> {
    let margin = impact2d::settings::AABB_MARGIN;
    let fat = boxes.iter().map(|b| b.enlarged(margin)).collect();
    // Brute force costs the same whatever the phases of the movers: a short warm-up will do.
    World::new(BruteStepper { fat, margin, pairs: Vec::new() }, boxes, motion, 2)
}

/// Benchmarks steps of a world built inside the benchmark, so that a filtered run builds only
/// the worlds it measures.
fn bench_world<S: Stepper>(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    n: usize,
    build: impl Fn() -> World<S>,
) {
    group.bench_function(BenchmarkId::new(name, n), |b| {
        let mut world = build();
        b.iter(|| black_box(world.step()))
    });
}

fn bench_step(c: &mut Criterion) {
    let mut group = c.benchmark_group("broad_phase_step");
    group.sample_size(20).warm_up_time(Duration::from_secs(2)).measurement_time(Duration::from_secs(6));
    for n in [10_000usize, 100_000] {
        let boxes = scene(n, 1);
        for motion in [Motion::Typical, Motion::Fast] {
            let m = motion.name();
            // (rebuild after loading, threads, fat AABBs stretched along the motion)
            let mut variants = vec![("tree", false, 1, false), ("tree_predicted", false, 1, true)];
            if n == 100_000 {
                variants.extend([
                    ("tree_rebuilt", true, 1, false),
                    ("tree_rebuilt_2_threads", true, 2, false),
                    ("tree_rebuilt_predicted", true, 1, true),
                    ("tree_rebuilt_predicted_2_threads", true, 2, true),
                ]);
            }
            for (name, rebuild, threads, predict) in variants {
                bench_world(&mut group, &format!("{name}/{m}"), n, || {
                    tree_world(&boxes, motion, rebuild, threads, predict)
                });
            }
        }
        bench_world(&mut group, "sort_and_sweep/typical", n, || sap_world(&boxes, Motion::Typical));
        if n == 10_000 {
            group.sample_size(10);
            bench_world(&mut group, "brute_force/typical", n, || brute_world(&boxes, Motion::Typical));
            group.sample_size(20);
        }
    }
    group.finish();
}

fn bench_build(c: &mut Criterion) {
    let mut group = c.benchmark_group("broad_phase_build");
    group.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(5));
    for n in [10_000usize, 100_000] {
        let boxes = scene(n, 2);
        group.bench_function(BenchmarkId::new("tree_insert", n), |b| {
            b.iter(|| {
                let mut tree = DynamicTree::new();
                for (i, aabb) in boxes.iter().enumerate() {
                    tree.create_proxy(*aabb, i as u64).unwrap();
                }
                black_box(tree.proxy_count())
            })
        });
        let mut built = DynamicTree::new();
        for (i, aabb) in boxes.iter().enumerate() {
            built.create_proxy(*aabb, i as u64).unwrap();
        }
        group.bench_function(BenchmarkId::new("tree_rebuild", n), |b| {
            b.iter_batched_ref(|| built.clone(), |tree| tree.rebuild(), BatchSize::LargeInput)
        });
        group.bench_function(BenchmarkId::new("broad_phase_insert_and_first_update", n), |b| {
            b.iter(|| {
                let mut bp = BroadPhase::new();
                for (i, aabb) in boxes.iter().enumerate() {
                    bp.create_proxy(*aabb, ProxyKind::Dynamic, Filter::default(), i as u64).unwrap();
                }
                black_box(bp.update_pairs(|_| true).begun.len())
            })
        });
        group.bench_function(BenchmarkId::new("sort_and_sweep_insert_and_first_update", n), |b| {
            b.iter(|| {
                let mut sap = SortAndSweep::new();
                for (i, aabb) in boxes.iter().enumerate() {
                    sap.create_proxy(*aabb, i as u64).unwrap();
                }
                black_box(sap.update_pairs(|_| true).begun.len())
            })
        });
    }
    group.finish();
}

fn bench_ray(c: &mut Criterion) {
    let mut group = c.benchmark_group("broad_phase_ray");
    group.sample_size(20).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(4));
    for n in [10_000usize, 100_000] {
        let boxes = scene(n, 3);
        let side = (n as f32).sqrt();
        let mut tree = DynamicTree::new();
        for (i, aabb) in boxes.iter().enumerate() {
            tree.create_proxy(*aabb, i as u64).unwrap();
        }
        let fat: Vec<Aabb> = boxes.iter().map(|b| b.enlarged(tree.margin())).collect();
        // 1000 rays of 20 m from random points in random directions.
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let rays: Vec<RayCastInput> = (0..1000)
            .map(|_| {
                let angle: f32 = rng.random_range(0.0..std::f32::consts::TAU);
                RayCastInput {
                    origin: Vec2::new(rng.random_range(0.0..side), rng.random_range(0.0..side)),
                    translation: Vec2::new(angle.cos(), angle.sin()) * 20.0,
                    max_fraction: 1.0,
                }
            })
            .collect();
        let closest = |tree: &DynamicTree, ray: &RayCastInput| {
            tree.ray_cast(ray, |r, id, _| {
                match tree.fat_aabb(id).ok().and_then(|b| b.ray_cast(r.origin, r.translation, r.max_fraction)) {
                    Some(hit) => RayControl::Clip(hit.fraction),
                    None => RayControl::Continue,
                }
            })
            .unwrap()
        };
        group.bench_function(BenchmarkId::new("tree_closest_hit_1000_rays", n), |b| {
            b.iter(|| rays.iter().map(|ray| closest(&tree, ray)).sum::<f32>())
        });
        group.bench_function(BenchmarkId::new("tree_all_hits_1000_rays", n), |b| {
            b.iter(|| {
                let mut hits = 0usize;
                for ray in &rays {
                    tree.ray_cast(ray, |_, _, _| {
                        hits += 1;
                        RayControl::Continue
                    })
                    .unwrap();
                }
                hits
            })
        });
        if n == 10_000 {
            group.bench_function(BenchmarkId::new("brute_force_closest_hit_1000_rays", n), |b| {
                b.iter(|| {
                    rays.iter()
                        .map(|ray| {
                            fat.iter()
                                .filter_map(|b| b.ray_cast(ray.origin, ray.translation, ray.max_fraction))
                                .fold(1.0f32, |m, hit| m.min(hit.fraction))
                        })
                        .sum::<f32>()
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench_step, bench_build, bench_ray);
criterion_main!(benches);
