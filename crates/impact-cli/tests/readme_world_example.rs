//! The world example of the README, compiled and run by the README's test command, and a
//! check that the README shows exactly this code.

// README world example begin
use impact2d::{BodyDef, Shape, ShapeDef, Vec2, World, WorldDef, make_box};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut world = World::new(&WorldDef::default())?; // gravity (0, -10) m/s²

    // A static floor 40 m wide whose top is at y = 0.5, and a 1 m crate dropped from 4 m.
    let floor = world.create_body(&BodyDef::fixed(Vec2::ZERO))?;
    world.create_shape(floor, &ShapeDef::default(), &Shape::Polygon(make_box(20.0, 0.5)?))?;
    let crate_ = world.create_body(&BodyDef::dynamic(Vec2::new(0.0, 4.0)))?;
    world.create_shape(crate_, &ShapeDef::default(), &Shape::Polygon(make_box(0.5, 0.5)?))?;

    // Two seconds at 60 steps per second, 4 solver sub-steps each.
    for _ in 0..120 {
        world.step(1.0 / 60.0, 4)?;
    }
    let y = world.position(crate_)?.y;
    assert!((y - 1.0).abs() < 0.01, "the crate rests on the floor, its center at y = {y}");
    println!("crate at y = {y}, awake: {}", world.is_awake(crate_)?);
    Ok(())
}
// README world example end

#[test]
fn readme_world_example_runs() {
    main().unwrap();
}

#[test]
fn readme_shows_this_example() {
    let source = include_str!("readme_world_example.rs");
    let begin = source.find("// README world example begin\n").unwrap() + "// README world example begin\n".len();
    let end = source.find("// README world example end").unwrap();
    let readme = include_str!("../../../README.md");
    let block = format!("```rust\n{}```", &source[begin..end]);
    assert!(readme.contains(&block), "README.md must show tests/readme_world_example.rs between its markers:\n{block}");
}
