//! The API example of the README, compiled and run by the README's test command, and a
//! check that the README shows exactly this code.

// README example begin
use impact2d::settings::{TOI_TARGET, TOI_TOLERANCE};
use impact2d::{Shape, ShapeProxy, Sweep, ToiState, Transform, Vec2, make_offset_box, time_of_impact};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // A rod 3 m long and 2 cm thick (a capsule), spinning 3 rad about its middle in one step.
    let rod = ShapeProxy::new(&[Vec2::new(-1.5, 0.0), Vec2::new(1.5, 0.0)], 0.01)?;
    let spin = Sweep { local_center: Vec2::ZERO, c1: Vec2::ZERO, c2: Vec2::ZERO, a1: 0.0, a2: 3.0 };

    // A fixed 0.5 m box whose lower-right corner, at (0.1, 1.2), is in the rod's path.
    let block = make_offset_box(0.25, 0.25, Vec2::new(-0.15, 1.45), 0.0)?;
    let block = ShapeProxy::from_shape(&Shape::Polygon(block));
    let fixed = Sweep::fixed(Transform::IDENTITY);

    // The rod is clear of the box at both ends of the step, yet hits its corner on the way.
    let toi = time_of_impact(&block, &fixed, &rod, &spin, 1.0, TOI_TARGET, TOI_TOLERANCE)?;
    assert_eq!(toi.state, ToiState::Hit);
    assert!((toi.t - 0.4917).abs() < 5e-4);
    println!("hit at t = {}, normal {}", toi.t, toi.normal);
    Ok(())
}
// README example end

#[test]
fn readme_example_runs() {
    main().unwrap();
}

#[test]
fn readme_shows_this_example() {
    let source = include_str!("readme_example.rs");
    let begin = source.find("// README example begin\n").unwrap() + "// README example begin\n".len();
    let end = source.find("// README example end").unwrap();
    let readme = include_str!("../../../README.md");
    let block = format!("```rust\n{}```", &source[begin..end]);
    assert!(readme.contains(&block), "README.md must show tests/readme_example.rs between its markers:\n{block}");
}
