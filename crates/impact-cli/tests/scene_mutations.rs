//! Issue 18: mutated scene files passed `impact check` and were then refused by `impact run`
//! (gravity 1e30, velocities 1e10, a mass overflow), or ran to a summary of `null`s, or made it
//! panic (friction 1e30 on every shape). Now a scene file is valid exactly when the world takes
//! it whole: validation checks every field against the world's ranges and then builds the
//! world, `check` and `run` share it, and every refusal is located.
//!
//! Seeded mutations of the built-in scenes (every number of their exported files is a
//! candidate; each mutation writes one hostile value in place of one number): a mutated file
//! is either refused at a line and column, at the field mutated or within the same body, or
//! it builds and runs with every body finite and a summary without `null`.

use impact_cli::scene::parse_scene;
use impact_cli::scenes;
use impact_cli::simulation::Simulation;
use impact2d::settings::MAX_FRICTION;

/// A number of a scene file: where its text is, its line and column (from 1), and the field
/// path of the value, as the scene errors write it (`bodies[3].shapes[0].points[2][1]`).
struct NumberAt {
    start: usize,
    end: usize,
    line: usize,
    column: usize,
    path: String,
}

/// Every number of a valid JSON text with its position and field path.
fn numbers(text: &str) -> Vec<NumberAt> {
    // The containers open at each point: an object with its current key, or an array with
    // the index of its current item.
    enum Open {
        Object(String),
        Array(usize),
    }
    let path_of = |stack: &[Open]| {
        let mut path = String::new();
        for open in stack {
            match open {
                Open::Object(key) if path.is_empty() => path += key,
                Open::Object(key) => path += &format!(".{key}"),
                Open::Array(i) => path += &format!("[{i}]"),
            }
        }
        path
    };
    let bytes = text.as_bytes();
    let (mut out, mut stack, mut i, mut line, mut line_start) = (Vec::new(), Vec::new(), 0, 1, 0);
    let mut expecting_key = false;
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'\n' => {
                line += 1;
                line_start = i + 1;
            }
            b'{' => {
                stack.push(Open::Object(String::new()));
                expecting_key = true;
            }
            b'[' => stack.push(Open::Array(0)),
            b'}' | b']' => {
                stack.pop();
            }
            b',' => match stack.last_mut() {
                Some(Open::Array(n)) => *n += 1,
                Some(Open::Object(_)) => expecting_key = true,
                None => {}
            },
            b'"' => {
                let end = i + 1 + text[i + 1..].find('"').unwrap();
                if expecting_key {
                    if let Some(Open::Object(key)) = stack.last_mut() {
                        *key = text[i + 1..end].to_owned();
                    }
                    expecting_key = false;
                }
                i = end;
            }
            b'-' | b'0'..=b'9' => {
                let end = i + text[i..].find(|c: char| !"+-.eE0123456789".contains(c)).unwrap_or(text.len() - i);
                let column = text[line_start..i].chars().count() + 1;
                out.push(NumberAt { start: i, end, line, column, path: path_of(&stack) });
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// A tiny seeded generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A hostile value to write in place of `original` (JSON text).
fn hostile(rng: &mut Rng, original: f64) -> String {
    const FIXED: [&str; 26] = [
        "1e30", "-1e30", "3.4e38", "-3.4e38", "1.4e38", "1e10", "-1e10", "1e9", "2e9", "1e6", "1000001", "1e5",
        "100001", "1000", "1000.001", "10", "10.01", "1", "0", "-0", "-1", "1e-30", "1e-45", "1e-6", "0.999e-6",
        "1e20",
    ];
    match rng.below(4) {
        0 => format!("{:e}", original * [1e3, 1e6, 1e9, 1e20, -1.0, 1e-20][rng.below(6)]),
        _ => FIXED[rng.below(FIXED.len())].to_owned(),
    }
}

/// The body or scene field a path is in: `bodies[3]` for `bodies[3].shapes[0].radius`,
/// `gravity` for `gravity[1]`.
fn owner(path: &str) -> &str {
    if path.starts_with("bodies[") {
        &path[..path.find(']').map_or(path.len(), |i| i + 1)]
    } else {
        path.split(['.', '[']).next().unwrap_or(path)
    }
}

/// The small built-in scenes (the benchmark scenes hold thousands of bodies).
fn small_scenes() -> impl Iterator<Item = &'static scenes::BuiltIn> {
    scenes::ALL.iter().filter(|b| b.family != "benchmark")
}

#[test]
fn mutated_scene_files_are_refused_located_or_run_finitely() {
    let mut rng = Rng(18);
    let (mut refused, mut ran) = (0, 0);
    let built_ins: Vec<_> = small_scenes().collect();
    for case in 0..15_000 {
        let built_in = built_ins[case % built_ins.len()];
        let text = built_in.scene().to_json();
        let candidates = numbers(&text);
        // One to three numbers of the file, each replaced by a hostile value.
        let mut mutated = text.clone();
        let mut picked: Vec<&NumberAt> =
            (0..1 + rng.below(3)).map(|_| &candidates[rng.below(candidates.len())]).collect();
        picked.sort_by_key(|n| std::cmp::Reverse(n.start));
        picked.dedup_by_key(|n| n.start);
        let mut changes = Vec::new();
        for n in &picked {
            let value = hostile(&mut rng, text[n.start..n.end].parse().unwrap());
            mutated.replace_range(n.start..n.end, &value);
            changes.push(format!("{} = {value}", n.path));
        }
        let what = format!("case {case}: {} with {}", built_in.name, changes.join(", "));
        match parse_scene(&mutated) {
            Err(error) => {
                refused += 1;
                assert!(error.pos.line >= 1 && error.pos.column >= 1, "{what}: {error}");
                assert!(!error.message.is_empty() && !error.path.is_empty(), "{what}: {error}");
                // At the value changed, or within the body (or scene field) it belongs to:
                // a radius that makes a body too heavy is reported at the shape's density.
                let near = picked.iter().any(|n| owner(&error.path) == owner(&n.path));
                assert!(near, "{what}: refused at {error}");
                for n in &picked {
                    if error.path == n.path {
                        // The numbers after the changed one moved; the first changed one did not.
                        let earliest = picked.iter().map(|m| m.start).min().unwrap();
                        if n.start == earliest {
                            assert_eq!((error.pos.line, error.pos.column), (n.line, n.column), "{what}: {error}");
                        }
                    }
                }
            }
            Ok(valid) => {
                ran += 1;
                let mut run = Simulation::new(&valid).unwrap_or_else(|e| panic!("{what}: valid, yet run refuses: {e}"));
                for step in 0..8 {
                    run.step().unwrap_or_else(|e| panic!("{what}: step {step}: {e}"));
                    assert_eq!(run.first_non_finite_body(), None, "{what}: step {step}");
                }
                let summary = serde_json::to_string(&run.summary()).unwrap();
                assert!(!summary.contains("null"), "{what}: {summary}");
            }
        }
    }
    println!("{refused} mutated files refused, {ran} run");
    assert!(refused > 3000 && ran > 3000, "{refused} refused, {ran} run");
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
