//! Continuous collision in a Bevy app, headless: bullets at 300 to 500 m/s into a wall 1 cm
//! thick, a blade 2 cm thick spinning at 60 rad/s dropped onto a thin shelf, and a kinematic
//! platform, moved by its `Transform`, carrying a crate. Runs 320 fixed steps (5 s of
//! simulated time, as fast as the machine goes) and prints what happened.
//!
//! ```sh
//! cargo run --release -p bevy_impact2d --example showcase
//! ```
//!
//! With `--features debug-render` it also adds `ImpactDebugRenderPlugin`, which draws with
//! gizmos in an app that has Bevy's `GizmoPlugin` (`DefaultPlugins` with a renderer); this
//! headless app has none, so nothing is drawn.

use std::time::Duration;

use bevy_app::ScheduleRunnerPlugin;
use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_impact2d::prelude::*;
use bevy_math::prelude::*;
use bevy_time::prelude::*;
use bevy_time::{TimePlugin, TimeUpdateStrategy};
use bevy_transform::prelude::*;

/// Fixed steps to run: 5 s at Bevy's default 64 Hz.
const STEPS: u32 = 320;
/// The wall's half thickness (m): 1 cm thick.
const WALL_HALF: f32 = 0.005;

#[derive(Component)]
struct Bullet;

#[derive(Component)]
struct Blade;

#[derive(Component)]
struct Platform;

#[derive(Component)]
struct Cargo;

/// What the run saw.
#[derive(Resource, Default)]
struct Report {
    steps: u32,
    bullet_max_x: f32,
    blade_min_y: f32,
    cargo_offset_error: f32,
    cargo_offset: Option<Vec2>,
    impacts: usize,
    bullet_impacts: usize,
}

fn main() -> AppExit {
    let mut app = App::new();
    // Each frame advances the clocks by one fixed step, so the run is the same on any machine.
    app.add_plugins((ScheduleRunnerPlugin::run_loop(Duration::ZERO), TimePlugin, physics()))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Time::<Fixed>::default().timestep()))
        .init_resource::<Report>()
        .add_systems(Startup, (spawn_wall_and_bullets, spawn_blade_and_shelf, spawn_platform))
        .add_systems(FixedUpdate, move_platform)
        .add_systems(FixedPostUpdate, watch.after(ImpactSystems::Writeback))
        .add_systems(Update, finish);
    #[cfg(feature = "debug-render")]
    app.add_plugins(ImpactDebugRenderPlugin);
    app.run()
}

/// The plugin with a speed cap that lets 500 m/s bullets fly (the default is 400 m/s).
fn physics() -> ImpactPlugin {
    ImpactPlugin::default().with_world_def(WorldDef { max_linear_speed: 1000.0, ..WorldDef::default() })
}

/// A wall 1 cm thick and 8 m tall at x = 10, and three bullets fired at it from x = 0.
fn spawn_wall_and_bullets(mut commands: Commands) {
    commands.spawn((Collider::cuboid(WALL_HALF, 4.0), Transform::from_xyz(10.0, 4.0, 0.0)));
    for (i, speed) in [300.0, 400.0, 500.0].into_iter().enumerate() {
        commands.spawn((
            Bullet,
            RigidBody::Dynamic,
            Collider::circle(0.02),
            Ccd::bullet(),
            Velocity::linear(Vec2::new(speed, 5.0)),
            Transform::from_xyz(0.0, 2.0 + 2.0 * i as f32, 0.0),
        ));
    }
}

/// A shelf 1 cm thick at y = -3, and a 2 m blade 2 cm thick spinning at 60 rad/s above it,
/// thrown down at 20 m/s.
fn spawn_blade_and_shelf(mut commands: Commands) {
    commands.spawn((Collider::cuboid(3.0, 0.005), Transform::from_xyz(-20.0, -3.0, 0.0)));
    commands.spawn((
        Blade,
        RigidBody::Dynamic,
        Collider::cuboid(1.0, 0.01),
        Velocity { linear: Vec2::new(0.0, -20.0), angular: 60.0 },
        Transform::from_xyz(-20.0, 0.0, 0.0),
    ));
}

/// A kinematic platform at y = 10 with a crate resting on it.
fn spawn_platform(mut commands: Commands) {
    commands.spawn((Platform, RigidBody::Kinematic, Collider::cuboid(2.0, 0.25), Transform::from_xyz(30.0, 10.0, 0.0)));
    commands.spawn((Cargo, RigidBody::Dynamic, Collider::cuboid(0.5, 0.5), Transform::from_xyz(30.0, 10.75, 0.0)));
}

/// After a second of rest, the platform moves by its `Transform`: right and back, `2 (1 - cos)`
/// meters, and up and down; the plugin drives it there through each step.
fn move_platform(time: Res<Time>, mut platform: Single<&mut Transform, With<Platform>>) {
    let t = (time.elapsed_secs() - 1.0).max(0.0);
    platform.translation.x = 30.0 + 2.0 * (1.0 - t.cos());
    platform.translation.y = 10.0 + 0.3 * (std::f32::consts::PI * t).sin();
}

/// After each step: how far the bullets got, how low the blade got, how far the crate slid
/// on the platform, and the impacts of continuous collision.
fn watch(
    mut report: ResMut<Report>,
    mut impacts: MessageReader<Impact>,
    bullets: Query<(Entity, &Transform), With<Bullet>>,
    blade: Single<&Transform, With<Blade>>,
    platform: Single<&Transform, (With<Platform>, Without<Cargo>)>,
    cargo: Single<&Transform, (With<Cargo>, Without<Platform>)>,
) {
    report.steps += 1;
    let first = report.steps == 1;
    let bullet_max = bullets.iter().map(|(_, t)| t.translation.x).fold(f32::MIN, f32::max);
    report.bullet_max_x = if first { bullet_max } else { report.bullet_max_x.max(bullet_max) };
    report.blade_min_y = if first { blade.translation.y } else { report.blade_min_y.min(blade.translation.y) };
    let offset = (cargo.translation - platform.translation).truncate();
    // The crate's offset once it settled (after half a second), and its largest drift since.
    if report.steps == 32 {
        report.cargo_offset = Some(offset);
    } else if let Some(rest) = report.cargo_offset {
        report.cargo_offset_error = report.cargo_offset_error.max((offset - rest).length());
    }
    for impact in impacts.read() {
        report.impacts += 1;
        report.bullet_impacts += usize::from(bullets.contains(impact.a) || bullets.contains(impact.b));
    }
}

/// Prints the report and exits after the last step.
fn finish(report: Res<Report>, errors: Res<PhysicsErrors>, mut exit: MessageWriter<AppExit>) {
    if report.steps < STEPS {
        return;
    }
    let wall_face = 10.0 - WALL_HALF;
    println!(
        "{} fixed steps ({} s), {} impacts of continuous collision",
        report.steps,
        report.steps as f32 / 64.0,
        report.impacts
    );
    println!(
        "bullets (300, 400, 500 m/s): {} impacts; the farthest center reached x = {:.4} m, the wall's face is at {wall_face} m",
        report.bullet_impacts, report.bullet_max_x
    );
    println!("spinning blade: lowest center y = {:.4} m, the shelf's top is at -2.995 m", report.blade_min_y);
    println!(
        "crate on the moving platform: slid at most {:.2} mm from where it rested",
        1e3 * report.cargo_offset_error
    );
    let passed = report.bullet_max_x + 0.02 < 10.0 && report.blade_min_y > -3.0 && report.cargo_offset_error < 0.005;
    println!("{}", if passed { "nothing tunneled" } else { "SOMETHING TUNNELED OR SLID" });
    if errors.total() > 0 {
        println!("{} engine errors: {:?}", errors.total(), errors.recent().collect::<Vec<_>>());
    }
    exit.write(if passed && errors.total() == 0 { AppExit::Success } else { AppExit::error() });
}
