//! The recording example of the README (a game dumps what its world did into the replay the
//! command writes), compiled and run by the README's test command, and a check that the
//! README shows exactly this code.

// README recorder example begin
use impact_cli::Recorder;
use impact2d::{BodyDef, Circle, Shape, ShapeDef, Vec2, World, WorldDef, make_box};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut world = World::new(&WorldDef::default())?;
    let floor = world.create_body(&BodyDef::fixed(Vec2::ZERO))?;
    world.create_shape(floor, &ShapeDef::default(), &Shape::Polygon(make_box(10.0, 0.5)?))?;

    // The game's loop: a ball every half second, each removed two seconds after it came.
    let mut recorder = Recorder::new("rain of balls", 1.0 / 60.0);
    recorder.record(&world); // the world as it starts
    let mut balls = std::collections::VecDeque::new();
    for step in 1..=300 {
        if step % 30 == 0 {
            let ball = world.create_body(&BodyDef::dynamic(Vec2::new(0.1 * (step % 7) as f32, 5.0)))?;
            world.create_shape(ball, &ShapeDef::default(), &Shape::Circle(Circle::new(Vec2::ZERO, 0.3)?))?;
            recorder.set_body_name(ball, &format!("ball {}", step / 30));
            balls.push_back((step, ball));
        }
        if let Some(&(born, oldest)) = balls.front()
            && step - born == 120
        {
            world.destroy_body(oldest)?;
            balls.pop_front();
        }
        world.step(1.0 / 60.0, 4)?;
        recorder.record(&world); // after each step
    }
    let path = std::env::temp_dir().join("rain_of_balls.html");
    recorder.write_html(&path)?; // open it in a browser
    let replay = recorder.replay();
    assert_eq!(replay.frames().len(), 301);
    assert_eq!(replay.bodies().len(), 11); // the floor and ten balls, each in its own frames
    println!("{} frames in {}", replay.frames().len(), path.display());
    Ok(())
}
// README recorder example end

#[test]
fn readme_recorder_example_runs() {
    main().unwrap();
}

#[test]
fn readme_shows_this_example() {
    let source = include_str!("readme_recorder_example.rs");
    let begin = source.find("// README recorder example begin\n").unwrap() + "// README recorder example begin\n".len();
    let end = source.find("// README recorder example end").unwrap();
    let readme = include_str!("../../../README.md");
    let block = format!("```rust\n{}```", &source[begin..end]);
    assert!(
        readme.contains(&block),
        "README.md must show tests/readme_recorder_example.rs between its markers:\n{block}"
    );
}
