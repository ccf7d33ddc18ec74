//! `impact list`, `impact export` and `impact check` end to end: the built binary, its files,
//! stdout, stderr and exit codes.

mod malformed;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use impact_cli::scene::parse_scene;
use impact_cli::scenes;

/// Runs `impact` with `args`, feeding `stdin`.
fn impact(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_impact"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the impact binary runs");
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

/// A path in the tests' scratch directory.
fn scratch(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name)
}

fn stdout(output: &Output) -> &str {
    std::str::from_utf8(&output.stdout).unwrap()
}

fn stderr(output: &Output) -> &str {
    std::str::from_utf8(&output.stderr).unwrap()
}

#[test]
fn list_names_every_built_in_with_its_description() {
    let output = impact(&["list"], b"");
    assert_eq!(output.status.code(), Some(0));
    let lines: Vec<&str> = stdout(&output).lines().collect();
    assert_eq!(lines.len(), scenes::ALL.len());
    for (line, built_in) in lines.iter().zip(scenes::ALL) {
        assert!(line.starts_with(built_in.name) && line.ends_with(built_in.description), "{line}");
        assert!(line.contains(built_in.family), "{line}");
    }
}

/// Every built-in, exported to a file, passes `impact check` and reads back as the same scene;
/// exporting to stdout writes the same text.
#[test]
fn every_export_checks_and_reads_back_the_same() {
    for built_in in scenes::ALL {
        let path = scratch(&format!("{}.json", built_in.name));
        let path_text = path.to_str().unwrap();
        let exported = impact(&["export", built_in.name, path_text], b"");
        assert_eq!(exported.status.code(), Some(0), "{}", stderr(&exported));
        assert!(exported.stdout.is_empty());

        let checked = impact(&["check", path_text], b"");
        assert_eq!(checked.status.code(), Some(0), "{}: {}", built_in.name, stderr(&checked));
        let summary = stdout(&checked);
        assert!(summary.starts_with(&format!("{path_text}: scene \"{}\", ", built_in.name)), "{summary}");

        let text = std::fs::read_to_string(&path).unwrap();
        let read_back = parse_scene(&text).unwrap();
        assert!(read_back.scene() == &built_in.scene(), "{} changed on the way", built_in.name);
        if built_in.name == "thin_plane" {
            assert_eq!(stdout(&impact(&["export", "thin_plane"], b"")), text);
            assert_eq!(stdout(&impact(&["export", "thin_plane", "-"], b"")), text);
        }
    }
}

#[test]
fn check_summarizes_a_valid_scene() {
    let scene = r#"{"name": "two", "steps": 90, "substeps": 1, "bodies": [
        {"type": "static", "position": [0, 0], "shapes": [{"type": "segment", "point1": [-5, 0], "point2": [5, 0]},
                                                        {"type": "chain", "points": [[-5, 5], [-5, 0], [5, 0], [5, 5]]}]},
        {"type": "kinematic", "position": [0, 3]},
        {"type": "dynamic", "position": [0, 1], "shapes": [{"type": "circle", "radius": 0.5}]}]}"#;
    let output = impact(&["check", "-"], scene.as_bytes());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        "<stdin>: scene \"two\", 3 bodies (1 static, 1 kinematic, 1 dynamic), 3 shapes; 90 steps of 0.016666668 s (1.5 s), 1 substep per step\n"
    );
    assert!(output.stderr.is_empty());
}

/// One file of each malformed kind, each with the exact report it must get after `FILE:`.
#[test]
fn check_reports_the_first_problem_with_file_line_column_and_field() {
    let good = malformed::GOOD;
    assert_eq!(impact(&["check", "-"], good.as_bytes()).status.code(), Some(0));
    for (name, content, report) in malformed::malformed_scenes() {
        let path = scratch(&format!("malformed_{name}.json"));
        std::fs::write(&path, content).unwrap();
        let output = impact(&["check", path.to_str().unwrap()], b"");
        assert_eq!(stderr(&output), format!("{}:{report}\n", path.display()), "{name}");
        assert!(output.stdout.is_empty(), "{name}: nothing is reported as checked");
        assert_eq!(output.status.code(), Some(2), "{name}");
    }
}

#[test]
fn check_refuses_files_that_are_not_text() {
    let output = impact(&["check", "-"], b"{\"name\": \"x\",\n \"description\": \"\xff\"}");
    assert_eq!(stderr(&output), "<stdin>:2:18: not UTF-8 text\n");
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn missing_files_and_unknown_names_are_errors() {
    let output = impact(&["check", "no/such/scene.json"], b"");
    assert!(stderr(&output).starts_with("impact: cannot read no/such/scene.json: "), "{}", stderr(&output));
    assert_eq!(output.status.code(), Some(1));
    let output = impact(&["export", "no_such_scene"], b"");
    assert_eq!(stderr(&output), "impact: no built-in scene named `no_such_scene` (`impact list` shows them)\n");
    assert!(output.stdout.is_empty());
    assert_eq!(output.status.code(), Some(2));
    let output = impact(&["export", "thin_plane", "no/such/dir/out.json"], b"");
    assert!(stderr(&output).starts_with("impact: cannot write no/such/dir/out.json: "), "{}", stderr(&output));
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn help_lists_the_scene_commands() {
    let output = impact(&["--help"], b"");
    let help = stdout(&output);
    for command in ["toi", "list", "export", "check"] {
        assert!(help.lines().any(|line| line.trim_start().starts_with(command)), "{command}: {help}");
    }
}
