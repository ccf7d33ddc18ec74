//! Issue 22: runs saved and resumed. Every built-in scene, saved at several steps, resumes bit
//! for bit: the world's state checksum and the trace line agree with the uninterrupted run at
//! every one of 300 steps, and the whole world state at the end. Damaged run snapshots are
//! refused with the part at fault named; `impact run --save-at` and `impact resume` end to end.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use impact_cli::run_snapshot::ResumeError;
use impact_cli::scene::ValidScene;
use impact_cli::scenes;
use impact_cli::simulation::Simulation;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Steps each resumed run is checked for.
const CONTINUE: u32 = 300;

/// The steps a scene is saved at: before the first step and two seeded ones for the small
/// scenes; one seeded step for the benchmark scenes (thousands of bodies).
fn save_points(built_in: &scenes::BuiltIn, rng: &mut ChaCha8Rng) -> Vec<u32> {
    if built_in.family == "benchmark" {
        vec![rng.random_range(5..60)]
    } else {
        vec![0, rng.random_range(1..90), rng.random_range(90..400)]
    }
}

/// One step of the uninterrupted run: the world's checksum, the trace line, and (at the
/// steps a resumed run ends) the world's whole state.
struct Reference {
    checksum: u64,
    trace: String,
    world: Option<Vec<u8>>,
}

/// Runs `scene` to `last`, saving at each save point; returns the run snapshots by step and
/// each step's reference (index 0 is step 1).
fn reference_run(scene: &ValidScene, saves: &[u32], last: u32) -> (Vec<(u32, Vec<u8>)>, Vec<Reference>) {
    let mut sim = Simulation::new(scene).unwrap();
    let (mut snapshots, mut steps) = (Vec::new(), Vec::new());
    for step in 0..=last {
        if step > 0 {
            sim.step().unwrap();
            let end = saves.iter().any(|&s| s + CONTINUE == step);
            let world = end.then(|| sim.world().world.save_snapshot());
            steps.push(Reference { checksum: sim.world().world.state_checksum(), trace: sim.trace_line(), world });
        }
        if saves.contains(&step) {
            snapshots.push((step, sim.save(scene)));
        }
    }
    (snapshots, steps)
}

#[test]
fn every_built_in_scene_resumes_bit_for_bit_from_several_steps() {
    let mut rng = ChaCha8Rng::seed_from_u64(22);
    for built_in in scenes::ALL {
        let scene = built_in.scene().validate().unwrap();
        let saves = save_points(built_in, &mut rng);
        let last = saves.iter().max().unwrap() + CONTINUE;
        let (snapshots, reference) = reference_run(&scene, &saves, last);
        for (saved_at, bytes) in snapshots {
            let (_, mut sim) = Simulation::resume(&bytes).unwrap();
            assert_eq!(sim.steps(), saved_at);
            for step in saved_at + 1..=saved_at + CONTINUE {
                sim.step().unwrap();
                let expected = &reference[step as usize - 1];
                let at = format!("{}: saved at step {saved_at}, step {step}", built_in.name);
                assert_eq!(sim.world().world.state_checksum(), expected.checksum, "{at}: checksum");
                assert_eq!(sim.trace_line(), expected.trace, "{at}: trace line");
            }
            let end = reference[(saved_at + CONTINUE) as usize - 1].world.as_ref().unwrap();
            let same = sim.world().world.save_snapshot() == *end;
            assert!(same, "{}: saved at step {saved_at}, the whole world differs at the end", built_in.name);
        }
    }
}

/// A small scene's run snapshot after 40 steps.
fn small_run_snapshot() -> Vec<u8> {
    let scene = scenes::find("ragdoll_cannon").unwrap().scene().validate().unwrap();
    let mut sim = Simulation::new(&scene).unwrap();
    for _ in 0..40 {
        sim.step().unwrap();
    }
    sim.save(&scene)
}

#[test]
fn every_cut_of_a_run_snapshot_is_refused() {
    let bytes = small_run_snapshot();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut cuts: Vec<usize> = (0..200).collect();
    cuts.extend((0..2000).map(|_| rng.random_range(0..bytes.len())));
    for len in cuts {
        match Simulation::resume(&bytes[..len]) {
            Err(ResumeError::NotARunSnapshot) => assert!(len < 20, "cut at {len}"),
            Err(ResumeError::Truncated(_) | ResumeError::World(_) | ResumeError::Scene(_)) => {}
            Err(other) => panic!("cut at {len}: unexpected {other}"),
            Ok(_) => panic!("cut at {len} of {}: resumed", bytes.len()),
        }
    }
}

#[test]
fn changed_bytes_of_a_run_snapshot_are_refused_or_harmless() {
    // The world part has a checksum: any change there is refused. The scene part is text that
    // must still parse; the run state has no checksum of its own, so a change there either
    // fails to decode or gives other numbers (a resumed run still runs, finitely).
    let bytes = small_run_snapshot();
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let world_start = world_part_start(&bytes);
    for _ in 0..3000 {
        let at = rng.random_range(0..bytes.len());
        let mut edited = bytes.clone();
        edited[at] ^= 1 << rng.random_range(0..8);
        match Simulation::resume(&edited) {
            Ok((_, mut sim)) => {
                assert!(at < world_start, "byte {at} of the world part changed, and it resumed");
                for _ in 0..5 {
                    if sim.step().is_err() {
                        break;
                    }
                }
            }
            Err(ResumeError::World(_)) => {}
            Err(error) => assert!(at < world_start, "byte {at}: {error}"),
        }
    }
}

/// Where the world part starts: after the magic, the version, the scene and the run state.
fn world_part_start(bytes: &[u8]) -> usize {
    let mut at = 24;
    for _ in 0..2 {
        let len = u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()) as usize;
        at += 8 + len;
    }
    at
}

#[test]
fn a_run_snapshot_of_another_version_says_so() {
    let mut bytes = small_run_snapshot();
    bytes[20..24].copy_from_slice(&7u32.to_le_bytes());
    let error = Simulation::resume(&bytes).err().unwrap();
    assert_eq!(error.to_string(), "run snapshot format version 7, but this build reads version 1 only");
}

fn impact_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_impact")).args(args).current_dir(dir).output().expect("the impact binary runs")
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("snapshots").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn run_save_at_and_resume_end_to_end() {
    let dir = scratch_dir("end_to_end");
    for scene in ["mover_course", "one_way_platforms", "car"] {
        let whole = impact_in(&dir, &["run", scene, "--steps", "150", "--trace", "whole.jsonl"]);
        assert_eq!(whole.status.code(), Some(0), "{}", text(&whole.stderr));
        let first = impact_in(&dir, &["run", scene, "--steps", "60", "--save-at", "60", "run.snap"]);
        assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
        assert!(text(&first.stdout).contains("run snapshot: run.snap (after step 60)"), "{}", text(&first.stdout));
        let rest =
            impact_in(&dir, &["resume", "run.snap", "--steps", "90", "--trace", "rest.jsonl", "--summary", "s.json"]);
        assert_eq!(rest.status.code(), Some(0), "{}", text(&rest.stderr));
        let whole = std::fs::read_to_string(dir.join("whole.jsonl")).unwrap();
        let rest = std::fs::read_to_string(dir.join("rest.jsonl")).unwrap();
        let tail: Vec<&str> = whole.lines().skip(60).collect();
        assert_eq!(rest.lines().collect::<Vec<_>>(), tail, "{scene}: the resumed trace is the run's last 90 steps");
        let summary: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("s.json")).unwrap()).unwrap();
        assert_eq!(summary["steps"], 150, "{scene}: steps count on from the save");
    }
    // PNG frames of a resumed run are named by the run's own steps: 90 and 135 of 61..=150.
    let frames = dir.join("frames");
    let output = impact_in(&dir, &["resume", "run.snap", "--steps", "90", "--png-every", "45", "frames"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let mut names: Vec<String> =
        std::fs::read_dir(&frames).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    assert_eq!(names, ["step-000090.png", "step-000135.png"]);
}

#[test]
fn resume_refuses_what_it_cannot_resume() {
    let dir = scratch_dir("refusals");
    std::fs::write(dir.join("scene.json"), "{}").unwrap();
    let output = impact_in(&dir, &["resume", "scene.json"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        text(&output.stderr).trim(),
        "impact: scene.json: not an impact run snapshot (it does not start with \"impact-run-snapshot\")"
    );
    let bytes = small_run_snapshot();
    std::fs::write(dir.join("cut.snap"), &bytes[..bytes.len() - 10]).unwrap();
    let output = impact_in(&dir, &["resume", "cut.snap"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("cut.snap: run snapshot's world: snapshot is"), "{}", text(&output.stderr));
    // A save point the run does not reach.
    let output = impact_in(&dir, &["run", "car", "--steps", "10", "--save-at", "11", "x.snap"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(text(&output.stderr).contains("--save-at: STEP must be a whole number of steps from 0 to 10"));
    assert!(!dir.join("x.snap").exists());
    // A run saved after its scene's last step needs --steps.
    let steps = scenes::find("drop_ball").unwrap().scene().steps.to_string();
    let output = impact_in(&dir, &["run", "drop_ball", "--save-at", &steps, "end.snap"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let output = impact_in(&dir, &["resume", "end.snap"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(text(&output.stderr).contains("give --steps N to go on"), "{}", text(&output.stderr));
    let output = impact_in(&dir, &["resume", "end.snap", "--steps", "5"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
}
