//! Part 2: whole steps. impact's benchmark scenes (`impact2d::benchmarks`) timed as impact
//! builds them, and the same scenes written as neutral data (mirroring benchmarks.rs body by
//! body, in the same order) built in rapier2d. One thread, 60 Hz, 4 sub-steps / solver
//! iterations, the same warm-up; milliseconds per step, median over the timed steps.
//!
//! Check of sameness: the neutral scene built in impact gives bit-for-bit the checksum of the
//! official builder after a few steps (printed as `same scene`).
//!
//! The kinematic paddle of issue 17 (`paddle`) is also run once more in each engine, untimed,
//! with a check after every step ([`paddle_check`]): a box whose center crosses the bar's
//! mid-line within its span between two steps went through the bar.

use crate::scene::{BodyDesc, Motion, SceneDesc, ShapeDesc, build_impact, build_rapier};
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
    /// Median step time of each engine (ms).
    pub impact_ms: f64,
    pub rapier_ms: f64,
    /// Mean height (m) of the dynamic bodies at the end, impact then rapier: a plausibility check.
    pub impact_mean_y: f64,
    pub rapier_mean_y: f64,
    /// The neutral scene built in impact matches the official builder bit for bit.
    pub same_scene: bool,
}

struct Bench {
    name: &'static str,
    official: fn() -> Result<World, impact2d::WorldError>,
    neutral: fn() -> SceneDesc,
    steps: usize,
}

const BENCHES: [Bench; 5] = [
    Bench { name: "large_pyramid", official: impact2d::benchmarks::large_pyramid, neutral: large_pyramid, steps: 500 },
    Bench { name: "many_pyramids", official: impact2d::benchmarks::many_pyramids, neutral: many_pyramids, steps: 200 },
    Bench { name: "tumbler", official: impact2d::benchmarks::tumbler, neutral: tumbler, steps: 750 },
    Bench { name: "smash", official: impact2d::benchmarks::smash, neutral: smash, steps: 300 },
    Bench { name: "paddle", official: impact2d::benchmarks::paddle, neutral: paddle, steps: 600 },
];

/// The names of the scenes, in the order they run.
pub fn names() -> impl Iterator<Item = &'static str> {
    BENCHES.iter().map(|b| b.name)
}

/// Warm-up steps before timing, the same for both engines.
pub const WARM_UP: usize = 10;

fn scene(gravity: [f32; 2], bodies: Vec<BodyDesc>) -> SceneDesc {
    SceneDesc { gravity, max_speed: impact2d::settings::DEFAULT_MAX_LINEAR_SPEED, bodies }
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

fn timed(step: &mut impl FnMut()) -> f64 {
    let start = Instant::now();
    step();
    start.elapsed().as_secs_f64() * 1e3
}

/// Steps both engines `warm_up` times, then `steps` times alternating which goes first, so
/// that they share the machine's noise; returns the median step time of each (ms).
fn time_both(warm_up: usize, steps: usize, mut first: impl FnMut(), mut second: impl FnMut()) -> (f64, f64) {
    for _ in 0..warm_up {
        first();
        second();
    }
    let (mut a, mut b) = (Vec::with_capacity(steps), Vec::with_capacity(steps));
    for i in 0..steps {
        if i % 2 == 0 {
            a.push(timed(&mut first));
            b.push(timed(&mut second));
        } else {
            b.push(timed(&mut second));
            a.push(timed(&mut first));
        }
    }
    (median_ms(a), median_ms(b))
}

/// Runs every scene named in `only` (every scene when it is empty) for `steps_scale` × its
/// step count (at least 20 steps).
pub fn run(steps_scale: f64, only: &[String]) -> Result<Vec<Row>, impact2d::WorldError> {
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
        drop(neutral);
        let mut world = (bench.official)()?;
        let (mut rapier, handles) = build_rapier(&desc);
        let mut failure = None;
        let (impact_ms, rapier_ms) = time_both(
            WARM_UP,
            steps,
            || {
                if let Err(e) = world.step(STEP_DT, SUBSTEPS) {
                    failure = Some(e);
                }
            },
            || rapier.step(),
        );
        if let Some(e) = failure {
            return Err(e);
        }
        let impact_mean_y = checksum(&world).1;
        let bodies = world.body_count();
        let dynamic: Vec<f64> = handles
            .iter()
            .filter_map(|&h| rapier.bodies.get(h))
            .filter(|b| b.is_dynamic())
            .map(|b| b.center_of_mass().y as f64)
            .collect();
        let rapier_mean_y = dynamic.iter().sum::<f64>() / dynamic.len().max(1) as f64;
        rows.push(Row {
            scene: bench.name,
            bodies,
            steps,
            impact_ms,
            rapier_ms,
            impact_mean_y,
            rapier_mean_y,
            same_scene,
        });
    }
    Ok(rows)
}
