//! The Bevy example of the README, compiled and run by the README's test command, and a
//! check that the README shows exactly this code.

// README example begin
// Bevy's sub-crates, as the plugin uses them; with the `bevy` crate, `use bevy::prelude::*;`
// stands for their preludes, and `MinimalPlugins` for the runner and the time plugin.
use bevy_app::ScheduleRunnerPlugin;
use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_impact2d::prelude::*;
use bevy_time::TimePlugin;
use bevy_time::prelude::*;
use bevy_transform::prelude::*;

fn main() -> AppExit {
    App::new()
        .add_plugins((ScheduleRunnerPlugin::default(), TimePlugin, ImpactPlugin::default()))
        .add_systems(Startup, setup)
        .add_systems(Update, report)
        .run()
}

#[derive(Component)]
struct Crate;

fn setup(mut commands: Commands) {
    // A collider alone is static: a floor 40 m wide whose top is at y = 0.5 (meters).
    commands.spawn(Collider::cuboid(20.0, 0.5));
    // A 1 m crate dropped from 4 m; the plugin writes its Transform after every fixed step.
    commands.spawn((Crate, RigidBody::Dynamic, Collider::cuboid(0.5, 0.5), Transform::from_xyz(0.0, 4.0, 0.0)));
}

fn report(
    mut contacts: MessageReader<ContactBegin>,
    crate_: Single<(&Transform, &Velocity), With<Crate>>,
    time: Res<Time>,
    mut exit: MessageWriter<AppExit>,
) {
    for contact in contacts.read() {
        println!("{} touched {} at {:.2} s", contact.a, contact.b, time.elapsed_secs());
    }
    let (transform, velocity) = *crate_;
    if transform.translation.y < 1.01 && velocity.linear.length() < 0.01 {
        println!("the crate rests on the floor, its center at y = {:.3} m", transform.translation.y);
        exit.write(AppExit::Success);
    } else if time.elapsed_secs() > 10.0 {
        exit.write(AppExit::error());
    }
}
// README example end

#[test]
fn readme_example_runs() {
    assert_eq!(main(), AppExit::Success);
}

#[test]
fn readme_shows_this_example() {
    let source = include_str!("readme_bevy.rs");
    let begin = source.find("// README example begin\n").unwrap() + "// README example begin\n".len();
    let end = source.find("// README example end").unwrap();
    let readme = include_str!("../../../README.md");
    let block = format!("```rust\n{}```", &source[begin..end]);
    assert!(readme.contains(&block), "README.md must show tests/readme_bevy.rs between its markers:\n{block}");
}
