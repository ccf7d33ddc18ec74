//! Part 2: whole steps. impact's benchmark scenes (`impact2d::benchmarks`, and the joint
//! scenes `joint_grid` and `ragdoll_rain` of the command's built-in scenes, `impact_cli::scenes`)
//! timed as impact builds them, and the same scenes written as neutral data (mirroring their
//! builders body by body and joint by joint, in the same order) built in rapier2d. One thread,
//! 60 Hz, 4 sub-steps / solver iterations, the same warm-up; milliseconds per step, median over
//! the timed steps. Both engines step in lockstep, taking turns to go first, unless `engine`
//! names one: then only that one is built and timed (separate runs of each, for comparisons
//! with engines outside this process such as Box2D).
//!
//! Check of sameness: the neutral scene built in impact gives bit-for-bit the checksum of the
//! official builder after a few steps (printed as `same scene`).
//!
//! The kinematic paddle of issue 17 (`paddle`) is also run once more in each engine, untimed,
//! with a check after every step ([`paddle_check`]): a box whose center crosses the bar's
//! mid-line within its span between two steps went through the bar.

use crate::scene::{BodyDesc, JointDesc, Motion, SceneDesc, ShapeDesc, build_impact, build_rapier};
use impact2d::benchmarks::{STEP_DT, SUBSTEPS};
use impact2d::{Aabb, Filter, Vec2, World};
use std::time::Instant;

/// One line of the table.
#[derive(Debug)]
pub struct Row {
    /// The scene's name in `impact2d::benchmarks`.
    pub scene: &'static str,
    /// Bodies, static ones included.
    pub bodies: usize,
    /// Timed steps (after [`WARM_UP`]).
    pub steps: usize,
    /// Median step time of each engine (ms); `None` for an engine not run.
    pub impact_ms: Option<f64>,
    pub rapier_ms: Option<f64>,
    /// Mean height (m) of the dynamic bodies at the end, impact then rapier: a plausibility check.
    pub impact_mean_y: Option<f64>,
    pub rapier_mean_y: Option<f64>,
    /// The neutral scene built in impact matches the official builder bit for bit.
    pub same_scene: bool,
}

struct Bench {
    name: &'static str,
    official: fn() -> Result<World, impact2d::WorldError>,
    neutral: fn() -> SceneDesc,
    steps: usize,
}

const BENCHES: [Bench; 7] = [
    Bench { name: "large_pyramid", official: impact2d::benchmarks::large_pyramid, neutral: large_pyramid, steps: 500 },
    Bench { name: "many_pyramids", official: impact2d::benchmarks::many_pyramids, neutral: many_pyramids, steps: 200 },
    Bench { name: "tumbler", official: impact2d::benchmarks::tumbler, neutral: tumbler, steps: 750 },
    Bench { name: "smash", official: impact2d::benchmarks::smash, neutral: smash, steps: 300 },
    Bench { name: "paddle", official: impact2d::benchmarks::paddle, neutral: paddle, steps: 600 },
    // The step counts of the built-in scenes (`impact run` takes as many).
    Bench { name: "joint_grid", official: official_joint_grid, neutral: joint_grid, steps: 120 },
    Bench { name: "ragdoll_rain", official: official_ragdoll_rain, neutral: ragdoll_rain, steps: 300 },
];

/// Which engines a run builds and times.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Engine {
    /// Both, in lockstep.
    Both,
    /// impact alone.
    Impact,
    /// rapier2d alone.
    Rapier,
}

/// The names of the scenes, in the order they run.
pub fn names() -> impl Iterator<Item = &'static str> {
    BENCHES.iter().map(|b| b.name)
}

/// Warm-up steps before timing, the same for both engines.
pub const WARM_UP: usize = 10;

fn scene(gravity: [f32; 2], bodies: Vec<BodyDesc>) -> SceneDesc {
    SceneDesc { gravity, max_speed: impact2d::settings::DEFAULT_MAX_LINEAR_SPEED, bodies, joints: Vec::new() }
}

/// Unit boxes that never sleep, in a pyramid as benchmarks.rs stacks them.
fn pyramid(bodies: &mut Vec<BodyDesc>, base: usize, left: f32, bottom: f32) {
    for row in 0..base {
        let y = bottom + 0.5 + row as f32;
        for column in row..base {
            let x = left + 0.5 + 0.5 * row as f32 + (column - row) as f32;
            let mut b = BodyDesc::new(Motion::Dynamic, [x, y], ShapeDesc::rect(0.5, 0.5));
            b.sleep_allowed = false;
            bodies.push(b);
        }
    }
}

fn large_pyramid() -> SceneDesc {
    let mut bodies = vec![BodyDesc::new(Motion::Static, [0.0, -1.0], ShapeDesc::rect(100.0, 1.0))];
    pyramid(&mut bodies, 100, -50.0, 0.0);
    scene([0.0, -10.0], bodies)
}

fn many_pyramids() -> SceneDesc {
    let (rows, columns, base) = (20, 20, 10);
    let spacing = base as f32 + 1.0;
    let width = columns as f32 * spacing;
    let mut ground = BodyDesc::new(Motion::Static, [0.0, 0.0], ShapeDesc::Circle(1.0));
    ground.shapes = (0..rows)
        .map(|row| {
            let y = row as f32 * spacing;
            ShapeDesc::Segment([-0.5 * width, y], [0.5 * width, y])
        })
        .collect();
    let mut bodies = vec![ground];
    for row in 0..rows {
        for column in 0..columns {
            let left = -0.5 * width + column as f32 * spacing + 0.5;
            pyramid(&mut bodies, base, left, row as f32 * spacing);
        }
    }
    scene([0.0, -10.0], bodies)
}

fn tumbler() -> SceneDesc {
    let mut drum = BodyDesc::new(Motion::Kinematic, [0.0, 10.0], ShapeDesc::Circle(1.0));
    drum.spin = 25f32.to_radians();
    drum.sleep_allowed = false;
    drum.shapes =
        [(0.5, 10.0, [10.0, 0.0]), (0.5, 10.0, [-10.0, 0.0]), (10.0, 0.5, [0.0, 10.0]), (10.0, 0.5, [0.0, -10.0])]
            .into_iter()
            .map(|(hx, hy, center)| ShapeDesc::Box { hx, hy, center, angle: 0.0 })
            .collect();
    let mut bodies = vec![drum];
    for i in 0..45 {
        for j in 0..45 {
            let p = [-9.0 + 0.4 * j as f32, 1.0 + 0.4 * i as f32];
            bodies.push(BodyDesc::new(Motion::Dynamic, p, ShapeDesc::rect(0.125, 0.125)));
        }
    }
    scene([0.0, -10.0], bodies)
}

fn smash() -> SceneDesc {
    let mut smasher = BodyDesc::new(Motion::Dynamic, [-20.0, 0.0], ShapeDesc::rect(4.0, 4.0));
    smasher.velocity = [40.0, 0.0];
    smasher.density = 8.0;
    let mut bodies = vec![smasher];
    let (columns, rows, size) = (120, 80, 0.4f32);
    for i in 0..columns {
        for j in 0..rows {
            let p = [30.0 + size * i as f32, (j as f32 - 0.5 * rows as f32) * size];
            let mut b = BodyDesc::new(Motion::Dynamic, p, ShapeDesc::rect(0.5 * size, 0.5 * size));
            b.awake = false;
            bodies.push(b);
        }
    }
    scene([0.0, 0.0], bodies)
}

/// The world of the command's built-in scene `name`, as `impact run` builds it (its time step
/// and sub-steps are those of every scene here, which `built_in_settings` checks).
fn built_in(name: &str) -> Result<World, impact2d::WorldError> {
    let scene = impact_cli::scenes::find(name).map(|b| b.scene());
    let valid = scene.map(|s| s.validate().map_err(|e| e.to_string()));
    match valid {
        Some(Ok(valid)) => impact_cli::build::build_world(&valid).map(|b| b.world).map_err(|e| e.source),
        Some(Err(e)) => panic!("the built-in scene {name} does not validate: {e}"),
        None => panic!("no built-in scene {name}"),
    }
}

fn official_joint_grid() -> Result<World, impact2d::WorldError> {
    built_in("joint_grid")
}

fn official_ragdoll_rain() -> Result<World, impact2d::WorldError> {
    built_in("ragdoll_rain")
}

/// A free pin between bodies `a` and `b` at `anchor`.
fn pin(a: usize, b: usize, anchor: [f32; 2]) -> JointDesc {
    JointDesc { a, b, anchor, limits: None }
}

/// The joint grid of `impact_cli::scenes` (`joints.rs`): a static body with a small circle at
/// the origin, 30 × 30 circles of radius 0.4 (sleep off) 1 m apart, each pinned to the one above
/// it (the top row to the static body) and to the one on its left.
fn joint_grid() -> SceneDesc {
    const N: usize = 30;
    let spacing = 1.0f32;
    let mut bodies = vec![BodyDesc::new(Motion::Static, [0.0, 0.0], ShapeDesc::Circle(0.05))];
    let mut joints = Vec::new();
    let node = |i: usize, j: usize| 1 + N * i + j;
    for i in 0..N {
        for j in 0..N {
            let (x, y) = (spacing * j as f32, -spacing * i as f32);
            let mut b = BodyDesc::new(Motion::Dynamic, [x, y], ShapeDesc::Circle(0.4));
            b.sleep_allowed = false;
            bodies.push(b);
            if i == 0 {
                joints.push(pin(0, node(i, j), [x, y]));
            } else {
                joints.push(pin(node(i - 1, j), node(i, j), [x, y + 0.5 * spacing]));
            }
            if j > 0 {
                joints.push(pin(node(i, j - 1), node(i, j), [x - 0.5 * spacing, y]));
            }
        }
    }
    SceneDesc { joints, ..scene([0.0, -10.0], bodies) }
}

/// The ragdoll rain of `impact_cli::scenes` (`joints.rs`): one static body (a floor box and two
/// walls), then 10 rows of 20 ragdolls of 8 bodies (seven capsules along y and a circle head,
/// sleep off) with 7 limited pins each, in the builder's order.
fn ragdoll_rain() -> SceneDesc {
    let mut ground = BodyDesc::new(Motion::Static, [0.0, 0.0], ShapeDesc::Circle(1.0));
    ground.shapes = [(16.0, 0.5, [0.0, -0.5]), (0.5, 10.0, [-16.5, 10.0]), (0.5, 10.0, [16.5, 10.0])]
        .into_iter()
        .map(|(hx, hy, center)| ShapeDesc::Box { hx, hy, center, angle: 0.0 })
        .collect();
    let mut bodies = vec![ground];
    let mut joints = Vec::new();
    // (center relative to the hips, half length, radius): torso, left and right thighs, shins,
    // arms; then the head, a circle of radius 0.13 one meter above the hips.
    let parts = [
        ([0.0, 0.45], 0.25, 0.14),
        ([-0.1, -0.25], 0.18, 0.07),
        ([0.1, -0.25], 0.18, 0.07),
        ([-0.1, -0.75], 0.18, 0.06),
        ([0.1, -0.75], 0.18, 0.06),
        ([-0.25, 0.45], 0.2, 0.05),
        ([0.25, 0.45], 0.2, 0.05),
    ];
    // (parent, child as indices into the ragdoll's bodies, pivot relative to the hips, limits)
    let hinges = [
        (0, 7, [0.0, 0.85], [-0.6, 0.6]),
        (0, 1, [-0.1, 0.0], [-1.2, 0.6]),
        (0, 2, [0.1, 0.0], [-1.2, 0.6]),
        (1, 3, [-0.1, -0.5], [-0.1, 2.0]),
        (2, 4, [0.1, -0.5], [-0.1, 2.0]),
        (0, 5, [-0.2, 0.7], [-2.5, 2.5]),
        (0, 6, [0.2, 0.7], [-2.5, 2.5]),
    ];
    for row in 0..10 {
        for column in 0..20 {
            let shift = if row % 2 == 1 { 0.75 } else { 0.0 };
            let at = [-14.625 + 1.5 * column as f32 + shift, 1.5 + 2.5 * row as f32];
            let first = bodies.len();
            for (c, half, radius) in parts {
                let mut b =
                    BodyDesc::new(Motion::Dynamic, [at[0] + c[0], at[1] + c[1]], ShapeDesc::CapsuleY { half, radius });
                b.sleep_allowed = false;
                bodies.push(b);
            }
            let mut head = BodyDesc::new(Motion::Dynamic, [at[0], at[1] + 1.0], ShapeDesc::Circle(0.13));
            head.sleep_allowed = false;
            bodies.push(head);
            for (a, b, p, limits) in hinges {
                let anchor = [at[0] + p[0], at[1] + p[1]];
                joints.push(JointDesc { a: first + a, b: first + b, anchor, limits: Some(limits) });
            }
        }
    }
    SceneDesc { joints, ..scene([0.0, -10.0], bodies) }
}

/// The bar's index among the paddle scene's bodies (after the four walls); the boxes follow it.
const PADDLE_BAR: usize = 4;

/// The paddle of issue 17 as benchmarks.rs builds it: four static walls, the kinematic bar,
/// 40 boxes. rapier gets `ccd_enabled` on every box (its strongest continuous setting); it
/// does not sweep kinematic bodies, so the bar's motion is not swept in rapier.
fn paddle() -> SceneDesc {
    use impact2d::benchmarks::{
        PADDLE_HALF_LENGTH, PADDLE_HALF_THICKNESS, PADDLE_HUB, PADDLE_SPIN, paddle_box_centers,
    };
    let (half, t) = (Vec2::new(10.0, 5.0), 0.25f32);
    let mut bodies: Vec<BodyDesc> = [
        (Vec2::new(0.0, -half.y - t), half.x + 2.0 * t, t),
        (Vec2::new(0.0, half.y + t), half.x + 2.0 * t, t),
        (Vec2::new(-half.x - t, 0.0), t, half.y + 2.0 * t),
        (Vec2::new(half.x + t, 0.0), t, half.y + 2.0 * t),
    ]
    .into_iter()
    .map(|(offset, hx, hy)| {
        let p = PADDLE_HUB + offset;
        BodyDesc::new(Motion::Static, [p.x, p.y], ShapeDesc::rect(hx, hy))
    })
    .collect();
    let shape = ShapeDesc::rect(PADDLE_HALF_LENGTH, PADDLE_HALF_THICKNESS);
    let mut bar = BodyDesc::new(Motion::Kinematic, [PADDLE_HUB.x, PADDLE_HUB.y], shape);
    bar.spin = PADDLE_SPIN;
    bar.sleep_allowed = false;
    bodies.push(bar);
    for c in paddle_box_centers() {
        let mut b = BodyDesc::new(Motion::Dynamic, [c.x, c.y], ShapeDesc::rect(0.1, 0.1));
        b.restitution = 0.8;
        b.rapier_ccd = true;
        bodies.push(b);
    }
    debug_assert_eq!(bodies[PADDLE_BAR].motion, Motion::Kinematic);
    scene([0.0, 0.0], bodies)
}

/// Box centers that went through the paddle in one engine's run.
#[derive(Clone, Debug, Default)]
pub struct Crossings {
    /// Crossings of the bar's mid-line within its span, over the run.
    pub events: usize,
    /// Distinct boxes that crossed at least once.
    pub bodies: usize,
    /// The first: step and box index (0 to 39).
    pub first: Option<(usize, usize)>,
}

/// The paddle checked in both engines, and impact's continuous collision over the run.
#[derive(Clone, Debug)]
pub struct PaddleCheck {
    /// Steps run (from the start, no warm-up).
    pub steps: usize,
    pub impact: Crossings,
    pub rapier: Crossings,
    /// impact's `ContinuousStats` summed over the run: time of impact queries, impacts, and
    /// bodies carried by the bar.
    pub toi_calls: u64,
    pub impacts: u64,
    pub carried: u64,
}

/// The ends of the span a crossing is not counted in (meters, off each tip; as in impact's
/// tests/continuous_load.rs): the bar turns 0.42 rad between two steps (25 rad/s at 60 Hz), so
/// a box near a tip may go around it, and the straight line between its two places in the
/// bar's frame is no guide there.
const TIP_MARGIN: f32 = 0.4;

/// Counts the crossings of the bar's mid-line (local y = 0) within its span, less
/// [`TIP_MARGIN`] at each end, between `before` and `after` (the boxes' centers in the bar's
/// frame: x along the bar, y across it).
fn count_crossings(before: &[[f32; 2]], after: &[[f32; 2]], step: usize, crossed: &mut [bool], tally: &mut Crossings) {
    for (k, (b, a)) in before.iter().zip(after).enumerate() {
        let (d0, d1) = (b[1], a[1]);
        if d0 * d1 < 0.0 {
            let at = b[0] + d0 / (d0 - d1) * (a[0] - b[0]);
            if at.abs() < impact2d::benchmarks::PADDLE_HALF_LENGTH - TIP_MARGIN {
                tally.events += 1;
                tally.bodies += usize::from(!crossed[k]);
                crossed[k] = true;
                tally.first = tally.first.or(Some((step, k)));
            }
        }
    }
}

/// Runs `steps` steps of one engine: `step` steps it and gives the boxes' centers in the bar's
/// frame after the step, `start` gives them before the first.
fn crossings(
    steps: usize,
    mut step: impl FnMut() -> Result<Vec<[f32; 2]>, impact2d::WorldError>,
    start: Vec<[f32; 2]>,
) -> Result<Crossings, impact2d::WorldError> {
    let (mut tally, mut crossed, mut before) = (Crossings::default(), vec![false; start.len()], start);
    for k in 0..steps {
        let after = step()?;
        count_crossings(&before, &after, k, &mut crossed, &mut tally);
        before = after;
    }
    Ok(tally)
}

/// The paddle run in each engine from the neutral scene for `steps_scale` × its step count (at
/// least 20 steps, as in [`run`]), checked after every step.
pub fn paddle_check(steps_scale: f64) -> Result<PaddleCheck, impact2d::WorldError> {
    let own = BENCHES.iter().find(|b| b.name == "paddle").map_or(600, |b| b.steps);
    let steps = ((own as f64 * steps_scale) as usize).max(20);
    let desc = paddle();
    let (mut world, ids) = build_impact(&desc)?;
    let (bar, boxes) = (ids[PADDLE_BAR], ids[PADDLE_BAR + 1..].to_vec());
    let local = |w: &World| -> Vec<[f32; 2]> {
        let frame = w.transform(bar).unwrap_or(impact2d::Transform::IDENTITY);
        boxes.iter().map(|&b| frame.inv_apply(w.world_center(b).unwrap_or(Vec2::NAN)).to_array()).collect()
    };
    let (mut toi_calls, mut impacts, mut carried) = (0u64, 0u64, 0u64);
    let start = local(&world);
    let impact = crossings(
        steps,
        || {
            world.step(STEP_DT, SUBSTEPS)?;
            let s = world.continuous_stats();
            (toi_calls, impacts, carried) =
                (toi_calls + u64::from(s.toi_calls), impacts + u64::from(s.impacts), carried + u64::from(s.carried));
            Ok(local(&world))
        },
        start,
    )?;
    let (mut rapier, handles) = build_rapier(&desc);
    let (bar, boxes) = (handles[PADDLE_BAR], handles[PADDLE_BAR + 1..].to_vec());
    let local = |r: &rapier2d::prelude::PhysicsWorld| -> Vec<[f32; 2]> {
        let frame = *r.bodies[bar].position();
        boxes
            .iter()
            .map(|&b| {
                r.bodies.get(b).map_or([f32::NAN; 2], |b| frame.inverse_transform_point(b.center_of_mass()).into())
            })
            .collect()
    };
    let start = local(&rapier);
    let rapier = crossings(
        steps,
        || {
            rapier.step();
            Ok(local(&rapier))
        },
        start,
    )?;
    Ok(PaddleCheck { steps, impact, rapier, toi_calls, impacts, carried })
}

/// The world's state checksum with the dynamic bodies' mean height (meters).
fn checksum(world: &World) -> (u64, f64) {
    let everything = Aabb::new(Vec2::splat(-1.0e6), Vec2::splat(1.0e6));
    let (mut sum_y, mut n) = (0.0, 0usize);
    for shape in world.overlap_aabb(everything, Filter::default()).unwrap_or_default() {
        let Ok(body) = world.shape_body(shape) else { continue };
        if world.body_type(body).ok() == Some(impact2d::BodyType::Dynamic) {
            sum_y += world.world_center(body).unwrap_or_default().y as f64;
            n += 1;
        }
    }
    (world.state_checksum(), sum_y / n.max(1) as f64)
}

fn median_ms(mut times: Vec<f64>) -> f64 {
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

/// How a step is timed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Clock {
    /// Wall-clock time (`Instant`).
    Wall,
    /// The stepping thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`): the time the thread waited
    /// for a processor is left out. On a machine loaded by other jobs a step of a few
    /// milliseconds is often preempted, and its wall-clock time then counts the other jobs'
    /// turn too (the median with it), however long the timed stretch.
    Cpu,
}

/// The calling thread's CPU time (ms).
#[cfg(unix)]
fn thread_cpu_ms() -> f64 {
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes the timespec it is given, which outlives the call.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    assert_eq!(status, 0, "the thread CPU clock failed");
    now.tv_sec as f64 * 1e3 + now.tv_nsec as f64 * 1e-6
}

#[cfg(not(unix))]
fn thread_cpu_ms() -> f64 {
    panic!("the thread CPU clock is read on Unix only")
}

fn timed(clock: Clock, step: &mut impl FnMut()) -> f64 {
    match clock {
        Clock::Wall => {
            let start = Instant::now();
            step();
            start.elapsed().as_secs_f64() * 1e3
        }
        Clock::Cpu => {
            let start = thread_cpu_ms();
            step();
            thread_cpu_ms() - start
        }
    }
}

/// Steps both engines `warm_up` times, then `steps` times alternating which goes first, so
/// that they share the machine's noise; returns the median step time of each (ms).
fn time_both(
    clock: Clock,
    warm_up: usize,
    steps: usize,
    mut first: impl FnMut(),
    mut second: impl FnMut(),
) -> (f64, f64) {
    for _ in 0..warm_up {
        first();
        second();
    }
    let (mut a, mut b) = (Vec::with_capacity(steps), Vec::with_capacity(steps));
    for i in 0..steps {
        if i % 2 == 0 {
            a.push(timed(clock, &mut first));
            b.push(timed(clock, &mut second));
        } else {
            b.push(timed(clock, &mut second));
            a.push(timed(clock, &mut first));
        }
    }
    (median_ms(a), median_ms(b))
}

/// Steps `step` `warm_up` times, then `steps` times timed; returns the median step time (ms).
fn time_one(clock: Clock, warm_up: usize, steps: usize, mut step: impl FnMut()) -> f64 {
    for _ in 0..warm_up {
        step();
    }
    median_ms((0..steps).map(|_| timed(clock, &mut step)).collect())
}

/// The mean height (m) of the dynamic bodies of a rapier world among `handles`.
fn rapier_mean_y(rapier: &rapier2d::prelude::PhysicsWorld, handles: &[rapier2d::prelude::RigidBodyHandle]) -> f64 {
    let dynamic: Vec<f64> = handles
        .iter()
        .filter_map(|&h| rapier.bodies.get(h))
        .filter(|b| b.is_dynamic())
        .map(|b| b.center_of_mass().y as f64)
        .collect();
    dynamic.iter().sum::<f64>() / dynamic.len().max(1) as f64
}

/// Runs every scene named in `only` (every scene when it is empty) for `steps_scale` × its
/// step count (at least 20 steps), in the engines `engine` names, each step timed by `clock`.
pub fn run(steps_scale: f64, only: &[String], engine: Engine, clock: Clock) -> Result<Vec<Row>, impact2d::WorldError> {
    let mut rows = Vec::new();
    for bench in BENCHES.iter().filter(|b| only.is_empty() || only.iter().any(|n| n == b.name)) {
        let steps = ((bench.steps as f64 * steps_scale) as usize).max(20);
        let desc = (bench.neutral)();
        // Sameness: both impact builds, three steps, identical bits.
        let (mut neutral, _) = build_impact(&desc)?;
        let mut official = (bench.official)()?;
        for _ in 0..3 {
            neutral.step(STEP_DT, SUBSTEPS)?;
            official.step(STEP_DT, SUBSTEPS)?;
        }
        let same_scene = checksum(&neutral).0 == checksum(&official).0 && neutral.body_count() == official.body_count();
        let bodies = official.body_count();
        drop((neutral, official));
        let mut failure = None;
        let mut impact_step = |world: &mut World| {
            if let Err(e) = world.step(STEP_DT, SUBSTEPS) {
                failure = Some(e);
            }
        };
        let row = match engine {
            Engine::Both => {
                let mut world = (bench.official)()?;
                let (mut rapier, handles) = build_rapier(&desc);
                let (impact_ms, rapier_ms) =
                    time_both(clock, WARM_UP, steps, || impact_step(&mut world), || rapier.step());
                Row {
                    impact_ms: Some(impact_ms),
                    rapier_ms: Some(rapier_ms),
                    impact_mean_y: Some(checksum(&world).1),
                    rapier_mean_y: Some(rapier_mean_y(&rapier, &handles)),
                    ..Row::of(bench.name, bodies, steps, same_scene)
                }
            }
            Engine::Impact => {
                let mut world = (bench.official)()?;
                let impact_ms = time_one(clock, WARM_UP, steps, || impact_step(&mut world));
                let impact_mean_y = Some(checksum(&world).1);
                Row { impact_ms: Some(impact_ms), impact_mean_y, ..Row::of(bench.name, bodies, steps, same_scene) }
            }
            Engine::Rapier => {
                let (mut rapier, handles) = build_rapier(&desc);
                let rapier_ms = time_one(clock, WARM_UP, steps, || rapier.step());
                let rapier_mean_y = Some(rapier_mean_y(&rapier, &handles));
                Row { rapier_ms: Some(rapier_ms), rapier_mean_y, ..Row::of(bench.name, bodies, steps, same_scene) }
            }
        };
        if let Some(e) = failure {
            return Err(e);
        }
        rows.push(row);
    }
    Ok(rows)
}

impl Row {
    /// A row without times or heights.
    fn of(scene: &'static str, bodies: usize, steps: usize, same_scene: bool) -> Row {
        Row {
            scene,
            bodies,
            steps,
            impact_ms: None,
            rapier_ms: None,
            impact_mean_y: None,
            rapier_mean_y: None,
            same_scene,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The built-in joint scenes step as every scene here does (60 Hz, 4 sub-steps).
    #[test]
    fn built_in_settings() {
        for name in ["joint_grid", "ragdoll_rain"] {
            let scene = impact_cli::scenes::find(name).unwrap().scene();
            assert_eq!((scene.time_step, scene.substeps), (STEP_DT, SUBSTEPS), "{name}");
            assert_eq!(BENCHES.iter().find(|b| b.name == name).unwrap().steps, scene.steps as usize, "{name}");
        }
    }

    /// The neutral joint scenes are the built-in ones, bit for bit after three steps, and both
    /// engines build them whole (every body and joint).
    #[test]
    fn joint_scenes_are_the_built_in_ones() {
        for bench in BENCHES.iter().filter(|b| b.name == "joint_grid" || b.name == "ragdoll_rain") {
            let desc = (bench.neutral)();
            let (mut neutral, _) = build_impact(&desc).unwrap();
            let mut official = (bench.official)().unwrap();
            assert_eq!(neutral.joint_count(), official.joint_count(), "{}", bench.name);
            for _ in 0..3 {
                neutral.step(STEP_DT, SUBSTEPS).unwrap();
                official.step(STEP_DT, SUBSTEPS).unwrap();
            }
            assert_eq!(neutral.state_checksum(), official.state_checksum(), "{}", bench.name);
            let (rapier, _) = build_rapier(&desc);
            assert_eq!(rapier.bodies.len(), desc.bodies.len(), "{}", bench.name);
            assert_eq!(rapier.impulse_joints.len(), desc.joints.len(), "{}", bench.name);
        }
    }
}
