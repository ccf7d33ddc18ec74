//! Issue 18: mutated scene files passed `impact check` and were then refused by `impact run`
//! (gravity 1e30, velocities 1e10, a mass overflow), or ran to a summary of `null`s, or made it
//! panic (friction 1e30 on every shape). Now a scene file is valid exactly when the world takes
//! it whole: validation checks every field against the world's ranges and then builds the
//! world, `check` and `run` share it, and every refusal is located.
//!
//! Seeded mutations of the built-in scenes (hostile numbers and broken bytes) are the
//! `scene_file` fuzzing target (`crates/impact-fuzz`): a mutated file is either refused at a
//! line and column, at the field mutated or within the same body, or it builds and runs with
//! every body finite and a summary without `null`. Here: the named case of the issue.

use impact_cli::scene::parse_scene;
use impact_cli::scenes;
use impact_cli::simulation::Simulation;
use impact2d::settings::MAX_FRICTION;

/// The small built-in scenes (the benchmark scenes hold thousands of bodies).
fn small_scenes() -> impl Iterator<Item = &'static scenes::BuiltIn> {
    scenes::ALL.iter().filter(|b| b.family != "benchmark")
}

/// Issue 18: with friction 1e30 on every shape, 12 of the 15 small built-in scenes panicked.
/// Such a file is refused at the first friction; at the largest friction accepted, every small
/// built-in scene runs a second without a panic and stays finite.
#[test]
fn the_small_scenes_with_the_largest_friction_everywhere_run_finitely() {
    for built_in in small_scenes() {
        let with_friction = |friction: f32| {
            let mut scene = built_in.scene();
            scene.bodies.iter_mut().flat_map(|b| b.shapes.iter_mut()).for_each(|s| s.friction = friction);
            scene
        };
        let error = parse_scene(&with_friction(1e30).to_json()).unwrap_err();
        assert!(error.path.ends_with(".friction"), "{}: {error}", built_in.name);
        assert!(error.message.contains("must be at most 1000"), "{}: {error}", built_in.name);
        let scene = with_friction(MAX_FRICTION);
        let valid = parse_scene(&scene.to_json()).unwrap();
        let mut run = Simulation::new(&valid).unwrap();
        for step in 0..60 {
            run.step().unwrap();
            assert_eq!(run.first_non_finite_body(), None, "{}: step {step}", built_in.name);
        }
    }
}
