//! `impact toi` end to end: the built binary, its input files, stdin, stdout, stderr and
//! exit code.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use common::assert_hit_in_band;
use impact2d::settings::{TOI_TARGET, TOI_TOLERANCE};
use serde_json::Value;

mod common;

/// Runs `impact` with `args`, feeding `stdin`.
fn impact(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_impact"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the impact binary runs");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

/// Writes `content` to a file named `name` in the tests' scratch directory.
fn scratch_file(name: &str, content: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, content).unwrap();
    path
}

fn stdout_lines(output: &Output) -> Vec<Value> {
    let text = std::str::from_utf8(&output.stdout).unwrap();
    text.lines().map(|line| serde_json::from_str(line).expect("each output line is JSON")).collect()
}

fn stderr(output: &Output) -> &str {
    std::str::from_utf8(&output.stderr).unwrap()
}

/// Two unit-radius-0.5 circles: A fixed at the origin, B moving from `from` to `to`.
fn circles(id: &str, from: [f32; 2], to: [f32; 2]) -> String {
    let still = r#"{"c1": [0, 0], "c2": [0, 0], "a1": 0, "a2": 0}"#;
    let circle = r#"{"points": [[0, 0]], "radius": 0.5}"#;
    format!(
        r#"{{"id": {id}, "proxy_a": {circle}, "sweep_a": {still}, "proxy_b": {circle}, "sweep_b": {{"c1": {from:?}, "c2": {to:?}, "a1": 0, "a2": 0}}}}"#
    )
}

/// One line of each malformed kind, each with the error it must get (after `FILE:LINE: `).
fn malformed_lines() -> Vec<(String, &'static str)> {
    let good = circles("0", [3.0, 0.0], [-3.0, 0.0]);
    let nine_points = (0..9).map(|i| format!("[{i}, {}]", i * i)).collect::<Vec<_>>().join(", ");
    vec![
        (r#"{"id": 1, "proxy_a": "#.to_owned(), "invalid JSON at column 21: EOF while parsing a value"),
        (good.replacen(r#", "a2": 0}"#, "}", 1), "sweep_a.a2: missing"),
        (good.replacen("[[0, 0]]", "[]", 1), "proxy_a.points: expected 1 to 8 points, got 0"),
        (good.replacen("[[0, 0]]", &format!("[{nine_points}]"), 1), "proxy_a.points: expected 1 to 8 points, got 9"),
        (
            good.replacen(r#""radius": 0.5"#, r#""radius": -0.5"#, 2),
            "proxy_a.radius: proxy radius must be zero or positive, got -0.5",
        ),
        (
            good.replacen(r#""c1": [3.0, 0.0]"#, r#""c1": [3.0, 1e39]"#, 1),
            "sweep_b.c1[1]: 1e39 is beyond the range of f32",
        ),
        (
            good.replacen(r#""c1": [3.0, 0.0]"#, r#""c1": [3.0, 1e999]"#, 1),
            "invalid JSON at column 194: number out of range",
        ),
        (good.replacen(r#""a1": 0"#, r#""a1": "zero""#, 1), "sweep_a.a1: expected a number, got a string"),
        (good.replacen(r#""id": 0"#, r#""id": [0]"#, 1), "id: expected a number or a string, got an array of 1 item"),
    ]
}

/// `--help` names every command (without a command, `impact` runs the showcase: see
/// tests/run_cli.rs).
#[test]
fn help_lists_the_commands() {
    let output = impact(&["--help"], "");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("Usage: impact [COMMAND]"), "{text}");
    for command in ["run", "bench", "list", "export", "check", "toi"] {
        assert!(text.contains(&format!("\n  {command} ")), "{command}: {text}");
    }
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn repeat_needs_time() {
    let output = impact(&["toi", "--repeat", "3", "-"], "");
    assert!(stderr(&output).contains("--time"), "{}", stderr(&output));
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn a_missing_file_is_an_error_naming_it() {
    let output = impact(&["toi", "no/such/queries.jsonl"], "");
    assert!(stderr(&output).starts_with("impact: cannot read no/such/queries.jsonl: "), "{}", stderr(&output));
    assert!(output.stdout.is_empty());
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn every_malformed_line_is_reported_with_file_line_and_field() {
    let cases = malformed_lines();
    // A blank line first: skipped, but counted.
    let content =
        std::iter::once("  ".to_owned()).chain(cases.iter().map(|(line, _)| line.clone())).collect::<Vec<_>>();
    let path = scratch_file("malformed.jsonl", &(content.join("\n") + "\n"));
    let output = impact(&["toi", path.to_str().unwrap()], "");
    let expected: Vec<String> =
        cases.iter().enumerate().map(|(i, (_, error))| format!("{}:{}: {error}", path.display(), i + 2)).collect();
    assert_eq!(stderr(&output).lines().collect::<Vec<_>>(), expected);
    assert!(output.stdout.is_empty());
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn stdin_lines_are_named_stdin() {
    let output = impact(&["toi", "-"], "\n\r\n[1, 2]\r\n\u{ff}\n");
    let lines: Vec<_> = stderr(&output).lines().collect();
    assert_eq!(
        lines,
        [
            "<stdin>:3: query: expected an object, got an array of 2 items",
            "<stdin>:4: invalid JSON at column 1: expected value"
        ]
    );
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn invalid_utf8_is_a_malformed_line() {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("latin1.jsonl");
    std::fs::write(&path, b"{\"id\": \"caf\xe9\"}\n").unwrap();
    let output = impact(&["toi", path.to_str().unwrap()], "");
    assert_eq!(stderr(&output), format!("{}:1: not valid UTF-8\n", path.display()));
    assert_eq!(output.status.code(), Some(2));
}

/// Three collinear points make no polygon.
#[test]
fn degenerate_polygons_are_reported() {
    let line = circles("1", [3.0, 0.0], [-3.0, 0.0]).replacen("[[0, 0]]", "[[0, 0], [1, 1], [2, 2]]", 1);
    let output = impact(&["toi", "-"], &line);
    assert_eq!(
        stderr(&output),
        "<stdin>:1: proxy_a.points: polygon points are collinear (their hull is thinner than the linear slop)\n"
    );
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn the_lines_around_malformed_ones_are_answered() {
    let mut content = vec![circles("\"first\"", [3.0, 0.0], [-3.0, 0.0])];
    content.extend(malformed_lines().into_iter().map(|(line, _)| line));
    content.push(circles("42", [3.0, 0.0], [3.0, 5.0]));
    let path = scratch_file("mixed.jsonl", &content.join("\n"));
    let output = impact(&["toi", path.to_str().unwrap()], "");
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stderr(&output).lines().count(), malformed_lines().len());
    let answers = stdout_lines(&output);
    assert_eq!(answers.len(), 2, "{answers:?}");
    // B's center approaches from x = 3 to -3: the gap is 3 - 6t - 1, so t = 1.995 / 6 = 0.3325.
    assert_eq!(answers[0]["id"], "first");
    assert_hit_in_band(&answers[0], |t| 2.0 - 6.0 * t);
    assert_eq!(answers[0]["normal"], serde_json::json!([1.0, 0.0]));
    // B moves away.
    assert_eq!(
        answers[1],
        serde_json::json!({"id": 42, "state": "separated", "t": null, "iterations": answers[1]["iterations"]})
    );
}

#[test]
fn stdin_queries_are_answered_in_order_with_their_ids() {
    let input = [
        circles("3", [0.5, 0.0], [0.5, 0.0]),      // overlapping from the start
        circles("1", [1.0, 0.0], [1.0, 3.0]),      // touching and moving away: a hit at 0
        circles("2.5", [1.1, 0.0], [1.1, 0.0]),    // still, 10 cm apart
        circles("\"x\"", [0.0, 2.0], [0.0, -2.0]), // gap 2 - 4t - 1: t = 0.995 / 4
    ];
    let output = impact(&["toi", "-"], &input.join("\n"));
    assert_eq!(stderr(&output), "");
    assert_eq!(output.status.code(), Some(0));
    let answers = stdout_lines(&output);
    let ids: Vec<_> = answers.iter().map(|a| a["id"].to_string()).collect();
    assert_eq!(ids, ["3", "1", "2.5", "\"x\""]);
    let states: Vec<_> = answers.iter().map(|a| a["state"].as_str().unwrap()).collect();
    assert_eq!(states, ["overlapped", "hit", "separated", "hit"]);
    assert_eq!((&answers[0]["t"], &answers[2]["t"]), (&Value::Null, &Value::Null));
    assert_eq!(answers[1]["t"], 0.0);
    assert_hit_in_band(&answers[3], |t| 1.0 - 4.0 * t);
    assert_eq!(answers[3]["normal"], serde_json::json!([0.0, 1.0]));
}

#[test]
fn defaults_are_the_engine_settings() {
    let bare = circles("1", [3.0, 0.0], [-3.0, 0.0]);
    let explicit = bare.replacen(
        r#""id": 1, "#,
        &format!(r#""id": 1, "t_max": 1, "target": {TOI_TARGET}, "tolerance": {TOI_TOLERANCE}, "#),
        1,
    );
    let answers = stdout_lines(&impact(&["toi", "-"], &format!("{bare}\n{explicit}\n")));
    assert_eq!(answers.len(), 2);
    assert_eq!(answers[0], answers[1]);
    // A smaller t_max ends the search before the impact at 0.3325.
    let short = bare.replacen(r#""id": 1, "#, r#""id": 1, "t_max": 0.25, "#, 1);
    let answers = stdout_lines(&impact(&["toi", "-"], &short));
    assert_eq!(answers[0]["state"], "separated");
}

#[test]
fn time_answers_once_and_reports_the_mean() {
    let input = [circles("1", [3.0, 0.0], [-3.0, 0.0]), "{".to_owned(), circles("2", [3.0, 0.0], [3.0, 5.0])];
    let output = impact(&["toi", "--time", "--repeat", "3", "-"], &input.join("\n"));
    assert_eq!(stdout_lines(&output).len(), 2);
    let lines: Vec<_> = stderr(&output).lines().collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[0], "<stdin>:2: invalid JSON at column 1: EOF while parsing an object");
    let mean =
        lines[1].strip_prefix("mean ").and_then(|rest| rest.strip_suffix(" us per query over 2 queries x 3 rounds"));
    let micros: f64 = mean.unwrap_or_else(|| panic!("{}", lines[1])).parse().unwrap();
    assert!(micros > 0.0);
    assert_eq!(output.status.code(), Some(2));
}
