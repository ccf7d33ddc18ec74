//! Benchmark scenes: whole-step workloads re-created from the public descriptions of Box2D
//! v3's benchmark suite (`shared/benchmarks.c` in the Box2D repository), for the criterion
//! bench `benches/world.rs`, the `world_steps` example and the command line.
//!
//! Every scene is stepped at [`STEP_DT`] (60 Hz) with [`SUBSTEPS`] sub-steps. Units: meters,
//! kilograms, seconds, radians.
//!
//! | scene | bodies | what it stresses |
//! |---|---|---|
//! | [`large_pyramid`] | 5050 boxes, one island | the contact solver (about 10,000 contacts) |
//! | [`many_pyramids`] | 400 × 55 boxes | many small islands, the broad phase |
//! | [`tumbler`] | 2025 small boxes in a turning box | contacts coming and going every step |
//! | [`smash`] | 9600 sleeping boxes hit at 40 m/s | waking, contact creation, no gravity |
//! | [`paddle`] | 40 small boxes, a kinematic bar at 25 rad/s | a fast kinematic body's sweeps (issue 17) |
//!
//! Box2D drives its tumbler with a revolute joint motor; this one is a kinematic body turning
//! at the same speed. `paddle` is not from Box2D's suite: it is the kinematic paddle of issue 17,
//! timed against rapier2d in `benches/peers`.

use crate::dynamics::{BodyDef, BodyType, ShapeDef, World, WorldDef, WorldError};
use crate::geometry::{Segment, Shape, make_box, make_offset_box};
use crate::math::Vec2;

/// The time step of every benchmark (seconds): 60 Hz.
pub const STEP_DT: f32 = 1.0 / 60.0;

/// The solver sub-steps of every benchmark.
pub const SUBSTEPS: u32 = 4;

/// A benchmark scene: its name, a builder, and how many steps a run takes.
#[derive(Clone, Copy, Debug)]
pub struct Benchmark {
    /// The scene's name, as in Box2D's suite.
    pub name: &'static str,
    /// Builds the scene's world.
    pub build: fn() -> Result<World, WorldError>,
    /// The steps of one run.
    pub steps: usize,
}

/// The five scenes, in the order above.
pub const BENCHMARKS: [Benchmark; 5] = [
    Benchmark { name: "large_pyramid", build: large_pyramid, steps: 500 },
    Benchmark { name: "many_pyramids", build: many_pyramids, steps: 200 },
    Benchmark { name: "tumbler", build: tumbler, steps: 750 },
    Benchmark { name: "smash", build: smash, steps: 300 },
    Benchmark { name: "paddle", build: paddle, steps: 600 },
];

/// A unit box (half size 0.5 m, density 1) that never sleeps.
fn pyramid_box(world: &mut World, position: Vec2) -> Result<(), WorldError> {
    let body = world.create_body(&BodyDef { sleep_allowed: false, ..BodyDef::dynamic(position) })?;
    world.create_shape(body, &ShapeDef::default(), &Shape::Polygon(make_box(0.5, 0.5)?))?;
    Ok(())
}

/// A pyramid of unit boxes, `base` on its lowest row, the row's left end at `left` and its
/// bottom at `bottom` (meters); rows bottom to top, boxes left to right.
fn pyramid(world: &mut World, base: usize, left: f32, bottom: f32) -> Result<(), WorldError> {
    for row in 0..base {
        let y = bottom + 0.5 + row as f32;
        for column in row..base {
            let x = left + 0.5 + 0.5 * row as f32 + (column - row) as f32;
            pyramid_box(world, Vec2::new(x, y))?;
        }
    }
    Ok(())
}

/// Large pyramid: 5050 unit boxes (half size 0.5 m) in a pyramid with 100 on its base,
/// standing on a static ground box 200 m wide whose top is at y = 0. No body sleeps. The
/// contact solver's benchmark: one island of about 10,000 contacts.
///
/// Errors: none in practice (the scene is fixed); [`WorldError`] as the world reports it.
pub fn large_pyramid() -> Result<World, WorldError> {
    let mut world = World::new(&WorldDef::default())?;
    let ground = world.create_body(&BodyDef::fixed(Vec2::new(0.0, -1.0)))?;
    world.create_shape(ground, &ShapeDef::default(), &Shape::Polygon(make_box(100.0, 1.0)?))?;
    pyramid(&mut world, 100, -50.0, 0.0)?;
    Ok(world)
}

/// Many pyramids: 20 rows of 20 pyramids of 55 unit boxes (base 10), 22,000 boxes; each row
/// of pyramids stands on its own static segment 220 m long, the rows 11 m apart. No body
/// sleeps.
///
/// Errors: none in practice; [`WorldError`] as the world reports it.
pub fn many_pyramids() -> Result<World, WorldError> {
    let mut world = World::new(&WorldDef::default())?;
    let (rows, columns, base) = (20, 20, 10);
    let spacing = base as f32 + 1.0;
    let width = columns as f32 * spacing;
    let ground = world.create_body(&BodyDef::fixed(Vec2::ZERO))?;
    for row in 0..rows {
        let y = row as f32 * spacing;
        let floor = Segment::new(Vec2::new(-0.5 * width, y), Vec2::new(0.5 * width, y))?;
        world.create_shape(ground, &ShapeDef::default(), &Shape::Segment(floor))?;
    }
    for row in 0..rows {
        for column in 0..columns {
            let left = -0.5 * width + column as f32 * spacing + 0.5;
            pyramid(&mut world, base, left, row as f32 * spacing)?;
        }
    }
    Ok(world)
}

/// Tumbler: a kinematic hollow box 20 m across (four walls 1 m thick) centered 10 m up,
/// turning at 25 degrees per second, with 2025 boxes of 0.25 m (half size 0.125 m) in a 45
/// by 45 grid 0.4 m apart inside. The boxes tumble forever: contacts begin and end every step.
///
/// Errors: none in practice; [`WorldError`] as the world reports it.
pub fn tumbler() -> Result<World, WorldError> {
    let mut world = World::new(&WorldDef::default())?;
    let drum = world.create_body(&BodyDef {
        body_type: BodyType::Kinematic,
        angular_velocity: 25f32.to_radians(),
        sleep_allowed: false,
        ..BodyDef::kinematic(Vec2::new(0.0, 10.0))
    })?;
    for (hx, hy, center) in [
        (0.5, 10.0, Vec2::new(10.0, 0.0)),
        (0.5, 10.0, Vec2::new(-10.0, 0.0)),
        (10.0, 0.5, Vec2::new(0.0, 10.0)),
        (10.0, 0.5, Vec2::new(0.0, -10.0)),
    ] {
        world.create_shape(drum, &ShapeDef::default(), &Shape::Polygon(make_offset_box(hx, hy, center, 0.0)?))?;
    }
    let block = Shape::Polygon(make_box(0.125, 0.125)?);
    for i in 0..45 {
        for j in 0..45 {
            let body = world.create_body(&BodyDef::dynamic(Vec2::new(-9.0 + 0.4 * j as f32, 1.0 + 0.4 * i as f32)))?;
            world.create_shape(body, &ShapeDef::default(), &block)?;
        }
    }
    Ok(world)
}

/// Smash: no gravity; a box 8 m across (density 8) at 40 m/s along x into a block of 120 by 80
/// sleeping boxes 0.4 m across, side by side, starting 50 m ahead of it.
///
/// Errors: none in practice; [`WorldError`] as the world reports it.
pub fn smash() -> Result<World, WorldError> {
    let mut world = World::new(&WorldDef { gravity: Vec2::ZERO, ..WorldDef::default() })?;
    let smasher = world
        .create_body(&BodyDef { linear_velocity: Vec2::new(40.0, 0.0), ..BodyDef::dynamic(Vec2::new(-20.0, 0.0)) })?;
    let def = ShapeDef { density: 8.0, ..ShapeDef::default() };
    world.create_shape(smasher, &def, &Shape::Polygon(make_box(4.0, 4.0)?))?;
    let (columns, rows, size) = (120, 80, 0.4f32);
    let block = Shape::Polygon(make_box(0.5 * size, 0.5 * size)?);
    for i in 0..columns {
        for j in 0..rows {
            let position = Vec2::new(30.0 + size * i as f32, (j as f32 - 0.5 * rows as f32) * size);
            let body = world.create_body(&BodyDef { awake: false, ..BodyDef::dynamic(position) })?;
            world.create_shape(body, &ShapeDef::default(), &block)?;
        }
    }
    Ok(world)
}

/// The paddle's hub, the center of its box (meters): the floor's top is at y = 0.
pub const PADDLE_HUB: Vec2 = Vec2::new(0.0, 5.0);

/// Half the paddle's length (meters): a bar 5.5 m long.
pub const PADDLE_HALF_LENGTH: f32 = 2.75;

/// Half the paddle's thickness (meters): a bar 10 cm thick.
pub const PADDLE_HALF_THICKNESS: f32 = 0.05;

/// The paddle's angular velocity (rad/s): its tips move at about 69 m/s, 1.15 m per step.
pub const PADDLE_SPIN: f32 = 25.0;

/// The centers (meters) of the paddle scene's 40 boxes, in creation order: 5 rows of 8, 2.25 m
/// apart, every other row shifted by half that. No row is within 0.3 m of the bar's line at
/// the start, so no box overlaps the bar; the rows nearest the hub are inside the bar's circle.
pub fn paddle_box_centers() -> impl Iterator<Item = Vec2> {
    const ROWS: [f32; 5] = [1.5, 3.0, 4.0, 6.5, 8.5];
    ROWS.into_iter().enumerate().flat_map(|(row, y)| {
        let shift = if row % 2 == 1 { 1.125 } else { 0.0 };
        (0..8).map(move |column| Vec2::new(-7.875 + 2.25 * column as f32 + shift, y))
    })
}

/// Paddle (issue 17): no gravity; a closed static box 20 m by 10 m inside (four walls 0.5 m
/// thick, the floor's top at y = 0), a kinematic bar 5.5 m long and 10 cm thick turning at
/// 25 rad/s about its middle at the box's center ([`PADDLE_HUB`]), and 40 dynamic boxes of
/// 0.2 m (restitution 0.8) at [`paddle_box_centers`]. The bar's tips move 1.15 m per step, ten
/// times its thickness: continuous collision sweeps it against the boxes in its circle, and
/// the boxes it strikes fly at tens of m/s. Without gravity, and bouncing off the walls, the
/// boxes keep coming back into the bar's circle all run long (about 4 impacts a step; 1.7
/// with restitution 0.5, and with none the boxes stay at the walls and the scene goes quiet);
/// with gravity they would settle on the floor, 2.25 m below the bar's reach, within a second.
///
/// Errors: none in practice; [`WorldError`] as the world reports it.
pub fn paddle() -> Result<World, WorldError> {
    let mut world = World::new(&WorldDef { gravity: Vec2::ZERO, ..WorldDef::default() })?;
    let (half, t) = (Vec2::new(10.0, 5.0), 0.25);
    // Floor and ceiling reach over the corners, the side walls between them.
    for (offset, hx, hy) in [
        (Vec2::new(0.0, -half.y - t), half.x + 2.0 * t, t),
        (Vec2::new(0.0, half.y + t), half.x + 2.0 * t, t),
        (Vec2::new(-half.x - t, 0.0), t, half.y + 2.0 * t),
        (Vec2::new(half.x + t, 0.0), t, half.y + 2.0 * t),
    ] {
        let wall = world.create_body(&BodyDef::fixed(PADDLE_HUB + offset))?;
        world.create_shape(wall, &ShapeDef::default(), &Shape::Polygon(make_box(hx, hy)?))?;
    }
    let bar = world.create_body(&BodyDef {
        angular_velocity: PADDLE_SPIN,
        sleep_allowed: false,
        ..BodyDef::kinematic(PADDLE_HUB)
    })?;
    let bar_shape = make_box(PADDLE_HALF_LENGTH, PADDLE_HALF_THICKNESS)?;
    world.create_shape(bar, &ShapeDef::default(), &Shape::Polygon(bar_shape))?;
    let block = Shape::Polygon(make_box(0.1, 0.1)?);
    let material = ShapeDef { restitution: 0.8, ..ShapeDef::default() };
    for center in paddle_box_centers() {
        let body = world.create_body(&BodyDef::dynamic(center))?;
        world.create_shape(body, &material, &block)?;
    }
    Ok(world)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scenes_have_the_described_sizes() {
        let counts: Vec<(usize, usize)> = BENCHMARKS
            .iter()
            .map(|b| {
                let world = (b.build)().unwrap();
                (world.body_count(), world.awake_body_count())
            })
            .collect();
        assert_eq!(counts, [(5051, 5050), (22_001, 22_000), (2026, 2026), (9601, 1), (45, 41)]);
    }
}
