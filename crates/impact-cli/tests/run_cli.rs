//! `impact run`, `impact bench` and `impact` alone, end to end: the built binary, the files it
//! writes, its stdout, stderr and exit codes.

mod malformed;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use impact_cli::scene::parse_scene;
use impact_cli::scenes;
use impact_cli::simulation::Simulation;
use serde_json::Value;

/// Runs `impact` with `args` in `dir`.
fn impact_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_impact")).args(args).current_dir(dir).output().expect("the impact binary runs")
}

/// A fresh, empty scratch directory for one test.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("run_cli").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn text(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).unwrap()
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn f32_of(value: &Value) -> f32 {
    value.as_f64().unwrap() as f32
}

/// Every built-in scene runs a few steps and reports every body.
#[test]
fn every_built_in_scene_runs() {
    let dir = scratch_dir("built_ins");
    for built_in in scenes::ALL {
        let output = impact_in(&dir, &["run", built_in.name, "--steps", "2", "--summary", "s.json"]);
        assert_eq!(output.status.code(), Some(0), "{}: {}", built_in.name, text(&output.stderr));
        assert!(text(&output.stdout).starts_with(&format!("{}: 2 steps, ", built_in.name)), "{}", text(&output.stdout));
        let summary = read_json(&dir.join("s.json"));
        assert_eq!(summary["scene"], built_in.name);
        assert_eq!(summary["steps"], 2);
        let bodies = summary["bodies"].as_array().unwrap();
        assert_eq!(bodies.len(), built_in.scene().bodies.len(), "{}", built_in.name);
        for body in bodies {
            assert!(body["position"].as_array().unwrap().iter().all(|x| x.as_f64().unwrap().is_finite()));
        }
    }
}

/// A ball in free fall, without anything to hit: the trace follows the sub-stepped
/// semi-implicit Euler integration exactly (to f32 rounding), the summary agrees with the
/// trace's last line, and both agree with the library run the same way.
#[test]
fn summary_and_trace_agree_with_each_other_and_with_the_world() {
    let dir = scratch_dir("agree");
    let scene = r#"{"name": "fall", "gravity": [0, -10], "time_step": 0.02, "substeps": 4, "steps": 50,
      "bodies": [
        {"name": "ground", "type": "static", "position": [0, -1000], "shapes": [{"type": "segment", "point1": [-1, 0], "point2": [1, 0]}]},
        {"name": "ball", "type": "dynamic", "position": [1, 2], "linear_velocity": [3, 4], "angular_velocity": 0.5,
         "shapes": [{"type": "circle", "radius": 0.25}]}]}"#;
    std::fs::write(dir.join("fall.json"), scene).unwrap();
    let output = impact_in(&dir, &["run", "fall.json", "--summary", "s.json", "--trace", "t.jsonl"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));

    let lines: Vec<Value> = std::fs::read_to_string(dir.join("t.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 50);
    let (dt, h, g) = (0.02f64, 0.005f64, -10.0f64);
    for (k, line) in lines.iter().enumerate() {
        let step = k + 1;
        assert_eq!(line["step"], step);
        assert!((line["time"].as_f64().unwrap() - step as f64 * f64::from(0.02f32)).abs() < 1e-12);
        let positions = line["positions"].as_array().unwrap();
        assert_eq!(positions.len(), 2);
        assert_eq!(positions[0], serde_json::json!([0.0, -1000.0, 0.0]));
        // n sub-steps of v += g h, then x += v h.
        let n = 4.0 * step as f64;
        let x = 1.0 + 3.0 * n * h;
        let y = 2.0 + 4.0 * n * h + g * h * h * n * (n + 1.0) / 2.0;
        let angle = 0.5 * step as f64 * dt;
        let ball: Vec<f64> = positions[1].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
        assert!((ball[0] - x).abs() < 1e-4 && (ball[1] - y).abs() < 1e-4, "step {step}: {ball:?} vs ({x}, {y})");
        assert!((ball[2] - angle).abs() < 1e-5, "step {step}: {ball:?}");
    }

    let summary = read_json(&dir.join("s.json"));
    assert_eq!(summary["steps"], 50);
    assert!((summary["simulated_time"].as_f64().unwrap() - 50.0 * f64::from(0.02f32)).abs() < 1e-9);
    let last = &lines[49]["positions"];
    for (i, body) in summary["bodies"].as_array().unwrap().iter().enumerate() {
        assert_eq!(body["position"][0], last[i][0]);
        assert_eq!(body["position"][1], last[i][1]);
        assert_eq!(body["angle"], last[i][2]);
    }
    let ball = &summary["bodies"][1];
    assert_eq!(
        (ball["name"].as_str(), ball["type"].as_str(), ball["awake"].as_bool()),
        (Some("ball"), Some("dynamic"), Some(true))
    );
    // v = v0 + g t at the end, exactly as the integration adds it.
    assert!((ball["linear_velocity"][1].as_f64().unwrap() - (4.0 - 10.0 * 1.0)).abs() < 1e-4, "{ball}");
    assert_eq!(f32_of(&ball["angular_velocity"]), 0.5);
    let stats = &summary["statistics"];
    assert!(stats["mean_step_ms"].as_f64().unwrap() > 0.0);
    assert!(stats["worst_step_ms"].as_f64().unwrap() >= stats["mean_step_ms"].as_f64().unwrap());
    assert_eq!(stats["max_touching_contacts"], 0);
    // The ball started inside the box of the scene's shapes (x up to 1.25 m) and ended at x = 4.
    assert_eq!(stats["outside_start_bounds"], 1);

    // The library, run the same way, lands on the same bits and counts the same continuous
    // collision work.
    let mut run = Simulation::new(&parse_scene(scene).unwrap()).unwrap();
    let (mut toi_calls, mut impacts) = (0u64, 0u64);
    for _ in 0..50 {
        run.step().unwrap();
        let s = run.world().world.continuous_stats();
        (toi_calls, impacts) = (toi_calls + u64::from(s.toi_calls), impacts + u64::from(s.impacts));
    }
    assert_eq!((stats["toi_calls"].as_u64(), stats["impacts"].as_u64()), (Some(toi_calls), Some(impacts)));
    let world = &run.world().world;
    let p = world.position(run.world().bodies[1]).unwrap();
    assert_eq!([f32_of(&ball["position"][0]), f32_of(&ball["position"][1])], [p.x, p.y]);
}

/// The scene's steps without `--steps`; the same run twice gives the same trace, bit for bit.
#[test]
fn runs_are_deterministic() {
    let dir = scratch_dir("determinism");
    for name in ["a.jsonl", "b.jsonl"] {
        let output = impact_in(&dir, &["run", "box_pile", "--steps", "120", "--trace", name]);
        assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    }
    let a = std::fs::read_to_string(dir.join("a.jsonl")).unwrap();
    assert_eq!(a.lines().count(), 120);
    assert_eq!(a, std::fs::read_to_string(dir.join("b.jsonl")).unwrap());

    let output = impact_in(&dir, &["run", "thin_plane", "--trace", "c.jsonl"]);
    assert_eq!(output.status.code(), Some(0));
    let steps = scenes::find("thin_plane").unwrap().scene().steps as usize;
    assert_eq!(std::fs::read_to_string(dir.join("c.jsonl")).unwrap().lines().count(), steps);
}

/// A malformed scene gets the same located report from `run` as from `check`, exit code 2,
/// and nothing is run: no output file appears.
#[test]
fn malformed_scenes_are_refused_before_any_step() {
    let dir = scratch_dir("malformed");
    for (name, content, report) in malformed::malformed_scenes() {
        let file = format!("{name}.json");
        std::fs::write(dir.join(&file), content).unwrap();
        let output =
            impact_in(&dir, &["run", &file, "--summary", "s.json", "--trace", "t.jsonl", "--replay", "r.html"]);
        assert_eq!(text(&output.stderr), format!("{file}:{report}\n"), "{name}");
        assert_eq!(output.status.code(), Some(2), "{name}");
        assert!(output.stdout.is_empty(), "{name}");
        for out in ["s.json", "t.jsonl", "r.html"] {
            assert!(!dir.join(out).exists(), "{name}: {out} was written");
        }
    }
    let output = impact_in(&dir, &["run", "no_such_scene"]);
    assert_eq!(
        text(&output.stderr),
        "impact: no scene file or built-in scene named `no_such_scene` (`impact list` shows them)\n"
    );
    assert_eq!(output.status.code(), Some(2));
    let output = impact_in(&dir, &["run", "missing.json"]);
    assert!(text(&output.stderr).starts_with("impact: cannot read missing.json: "), "{}", text(&output.stderr));
    assert_eq!(output.status.code(), Some(1));
}

/// An output that cannot be written fails the run before its first step.
#[test]
fn unwritable_outputs_fail_before_running() {
    let dir = scratch_dir("unwritable");
    let output = impact_in(&dir, &["run", "thin_plane", "--trace", "t.jsonl", "--summary", "no/such/dir/s.json"]);
    assert!(text(&output.stderr).starts_with("impact: cannot write no/such/dir/s.json: "), "{}", text(&output.stderr));
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    assert_eq!(std::fs::read_to_string(dir.join("t.jsonl")).unwrap_or_default(), "");
    let output = impact_in(&dir, &["run", "thin_plane", "--png-every", "0", "frames"]);
    assert!(text(&output.stderr).contains("--png-every: K must be"), "{}", text(&output.stderr));
}

/// `impact` alone runs the showcase and writes its replay in the current directory.
#[test]
fn impact_alone_runs_the_showcase_and_writes_a_replay() {
    let dir = scratch_dir("alone");
    let output = impact_in(&dir, &[]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let out = text(&output.stdout);
    let steps = scenes::find("showcase").unwrap().scene().steps;
    assert!(out.starts_with(&format!("showcase: {steps} steps, 10 s simulated")), "{out}");
    assert!(out.contains("replay: showcase.html ("), "{out}");
    let html = std::fs::read_to_string(dir.join("showcase.html")).unwrap();
    // A replay of every step, at most a few MB.
    assert!(html.len() < 3 << 20, "{} bytes", html.len());
    assert_eq!(html.matches(r#""t":"#).count(), steps as usize + 1);
}

/// PNG frames: the last one, and one every K steps, named by step.
#[test]
fn png_frames_are_written() {
    let dir = scratch_dir("png");
    let output =
        impact_in(&dir, &["run", "box_pile", "--steps", "30", "--png", "last.png", "--png-every", "10", "frames"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let mut names: Vec<String> =
        std::fs::read_dir(dir.join("frames")).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    assert_eq!(names, ["step-000000.png", "step-000010.png", "step-000020.png", "step-000030.png"]);
    let last = tiny_skia::Pixmap::load_png(dir.join("last.png")).unwrap();
    assert_eq!(last.width(), 1600);
    // The last frame and the frame of step 30 are the same picture.
    assert_eq!(last.data(), tiny_skia::Pixmap::load_png(dir.join("frames/step-000030.png")).unwrap().data());
}

/// `impact bench` prints one line per scene with its step times and shares.
#[test]
fn bench_prints_a_line_per_scene() {
    let dir = scratch_dir("bench");
    let output = impact_in(&dir, &["bench", "box_pile", "thin_plane", "--steps", "20"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let out = text(&output.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[0].starts_with("scene") && lines[0].contains("median ms") && lines[0].contains("p95 ms"), "{out}");
    let fields: Vec<&str> = lines[1].split_whitespace().collect();
    assert_eq!(&fields[..3], ["box_pile", "41", "20"], "{out}");
    // Broad, narrow, solver, other and continuous add up to the whole step.
    let share = |line: &str| -> Vec<f64> {
        let fields: Vec<&str> = line.split_whitespace().collect();
        fields[5..10].iter().map(|f| f.trim_end_matches('%').parse::<f64>().unwrap()).collect()
    };
    for line in &lines[1..] {
        assert!((share(line).iter().sum::<f64>() - 100.0).abs() < 0.5, "{out}");
    }
    // The 150 m/s ball of thin_plane needs continuous collision; it has a share of the step.
    assert!(share(lines[2])[4] > 0.0, "{out}");
    let output = impact_in(&dir, &["bench", "nope"]);
    assert_eq!(output.status.code(), Some(2));
}

/// The JSON examples of docs/scene-format.md.
fn documented_scenes() -> Vec<String> {
    let doc = include_str!("../../../docs/scene-format.md");
    doc.split("```json\n").skip(1).map(|block| block[..block.find("```").unwrap()].to_owned()).collect()
}

/// The examples of docs/scene-format.md read as documented: the full and the short form of
/// the first are the same scene, the tumbling shapes stay inside their chain box, and the
/// jointed arm keeps its pin and its rope.
#[test]
fn documented_examples_read_and_run() {
    let examples = documented_scenes();
    assert_eq!(examples.len(), 5);
    // The mover example: 200 steps at 3 m/s (10 m) and the up-to-a-radius nudge that puts its
    // round bottom on the step (0.3 m), a jump, then standing.
    let mut runner = impact_cli::simulation::Simulation::new(&parse_scene(&examples[4]).unwrap()).unwrap();
    let mut peak = 0.0f32;
    for _ in 0..300 {
        runner.step().unwrap();
        peak = peak.max(runner.mover_positions()[0].y);
    }
    let end = runner.mover_positions()[0];
    assert!(peak > 2.5 && (end.x - 10.3).abs() < 0.05 && (end.y - 0.91).abs() < 0.005, "{end} {peak}");
    let jointed = parse_scene(&examples[3]).unwrap();
    let mut run = impact_cli::simulation::Simulation::new(&jointed).unwrap();
    for _ in 0..120 {
        run.step().unwrap();
    }
    let summary = run.summary();
    let pin = &summary.joints[0];
    let gap = ((pin.anchor_a[0] - pin.anchor_b[0]).powi(2) + (pin.anchor_a[1] - pin.anchor_b[1]).powi(2)).sqrt();
    assert!(gap < 1e-3 && !pin.broken, "{summary:?}");
    let rope = &summary.joints[1];
    let length = ((rope.anchor_a[0] - rope.anchor_b[0]).powi(2) + (rope.anchor_a[1] - rope.anchor_b[1]).powi(2)).sqrt();
    assert!((0.5 - 1e-3..=2.5 + 1e-3).contains(&length), "rope {length}");
    let scenes: Vec<_> = examples.iter().map(|text| parse_scene(text).unwrap()).collect();
    assert!(scenes[0].scene() == scenes[1].scene(), "{:?}\n{:?}", scenes[0].scene(), scenes[1].scene());

    let dir = scratch_dir("documented");
    std::fs::write(dir.join("tumble.json"), &examples[2]).unwrap();
    let output = impact_in(&dir, &["run", "tumble.json", "--summary", "s.json"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let summary = read_json(&dir.join("s.json"));
    assert_eq!(summary["steps"], 300);
    for body in summary["bodies"].as_array().unwrap().iter().filter(|b| b["type"] == "dynamic") {
        let (x, y) = (body["position"][0].as_f64().unwrap(), body["position"][1].as_f64().unwrap());
        assert!(x.abs() < 5.0 && (0.0..10.0).contains(&y), "{body}");
    }
}
