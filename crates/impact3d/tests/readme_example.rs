//! The 3D example of the README, compiled and run by the README's test command, and a check
//! that the README shows exactly this code.

// README 3D example begin
use impact3d::{
    Quat, ShapeProxy, Sweep, ToiState, Transform, Vec3, make_box, time_of_impact, time_of_impact_uncertified,
};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // A 1 m box, and a rod 2 m long and 2 cm thick that flies past it while turning 3 rad in
    // the step: its end swings through the box's corner and out again.
    let cube = ShapeProxy::from_shape(&impact3d::Shape::Hull(make_box(Vec3::splat(0.5))?));
    let rod = ShapeProxy::new(&[Vec3::new(-1.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0)], 0.01)?;
    let still = Sweep::fixed(Transform::IDENTITY);
    let spinning = Sweep {
        local_center: Vec3::ZERO,
        c1: Vec3::new(-1.0, 1.2, 0.0),
        c2: Vec3::new(1.0, 1.2, 0.0),
        q1: Quat::IDENTITY,
        rotation: Vec3::new(0.0, 0.0, 3.0), // radians over the step, world axes
    };
    // The first time the surfaces come within 5 mm ± 1.25 mm: the rotation cannot hide it.
    let out = time_of_impact(&cube, &still, &rod, &spinning, 1.0, 0.005, 0.00125)?;
    assert_eq!(out.state, ToiState::Hit);
    println!("hit at t = {:.4}, normal {:?}, {} distance queries", out.t, out.normal, out.iterations);
    // Bilateral advancement without the rotation certificate, as the peers run it, sees the
    // rod clear at both ends of its look-ahead and misses the corner.
    let peers = time_of_impact_uncertified(&cube, &still, &rod, &spinning, 1.0, 0.005, 0.00125)?;
    assert_eq!(peers.state, ToiState::Separated);
    Ok(())
}
// README 3D example end

#[test]
fn readme_3d_example_runs() {
    main().unwrap();
}

#[test]
fn readme_shows_this_example() {
    let source = include_str!("readme_example.rs");
    let begin = source.find("// README 3D example begin\n").unwrap() + "// README 3D example begin\n".len();
    let end = source.find("// README 3D example end").unwrap();
    let readme = include_str!("../../../README.md");
    let block = format!("```rust\n{}```", &source[begin..end]);
    assert!(readme.contains(&block), "README.md must show tests/readme_example.rs between its markers:\n{block}");
}
