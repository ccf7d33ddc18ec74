//! The joint example of the README, compiled and run by the README's test command, and a
//! check that the README shows exactly this code.

// README joint example begin
use impact2d::{BodyDef, Circle, JointDef, JointKind, RevoluteDef, Shape, ShapeDef, Vec2, World, WorldDef};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut world = World::new(&WorldDef::default())?; // gravity (0, -10) m/s²

    // A pendulum: a small ball hung 1 m below a fixed pivot, released 0.05 rad from vertical.
    let pivot = Vec2::new(0.0, 2.0);
    let ground = world.create_body(&BodyDef::fixed(pivot))?;
    let start = pivot + Vec2::new(0.05f32.sin(), -0.05f32.cos());
    let ball = world.create_body(&BodyDef::dynamic(start))?;
    world.create_shape(ball, &ShapeDef::default(), &Shape::Circle(Circle::new(Vec2::ZERO, 0.02)?))?;
    // The anchor is given in world coordinates; angle limits, a motor and a spring are options.
    let pin = world.create_joint(&JointDef::new(ground, ball, JointKind::Revolute(RevoluteDef::new(pivot))))?;

    // Count the swings through the vertical over 10 s: the period is 2π √(L / g) = 1.987 s.
    let (mut crossings, mut last_x) = (Vec::new(), start.x);
    for step in 1..=600 {
        world.step(1.0 / 60.0, 4)?;
        let x = world.position(ball)?.x;
        if last_x > 0.0 && x <= 0.0 {
            crossings.push(step as f32 / 60.0);
        }
        last_x = x;
    }
    let period = (crossings[crossings.len() - 1] - crossings[0]) / (crossings.len() - 1) as f32;
    assert!((period - 1.987).abs() < 0.02, "period {period} s");
    let (a, b) = world.joint_world_anchors(pin)?;
    println!("period {period} s, anchors {} mm apart", 1e3 * (b - a).length());
    Ok(())
}
// README joint example end

#[test]
fn readme_joint_example_runs() {
    main().unwrap();
}

#[test]
fn readme_shows_this_example() {
    let source = include_str!("readme_joint_example.rs");
    let begin = source.find("// README joint example begin\n").unwrap() + "// README joint example begin\n".len();
    let end = source.find("// README joint example end").unwrap();
    let readme = include_str!("../../../README.md");
    let block = format!("```rust\n{}```", &source[begin..end]);
    assert!(readme.contains(&block), "README.md must show tests/readme_joint_example.rs between its markers:\n{block}");
}
