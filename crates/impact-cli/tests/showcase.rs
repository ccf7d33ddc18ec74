//! The built-in showcase of `impact toi`, answered by the binary and checked against the
//! times of impact worked out by hand from each case's geometry.
//!
//! Every case waits on `time_of_impact`; those with 3 or more points also on `compute_hull`.

use std::process::{Command, Output};
use std::sync::OnceLock;

use common::{assert_hit_in_band, first_crossing};
use impact2d::settings::TOI_TARGET;
use serde_json::{Value, json};

mod common;

const CASES: [&str; 7] = [
    "ball_onto_thin_plane",
    "bullet_through_thin_wall",
    "triangle_rotating_about_vertex",
    "oblong_box_falling_rotating",
    "rod_spinning_past_box_corner",
    "circles_head_on",
    "circles_passing_by",
];

/// `impact toi` without a file, run once for all tests.
fn showcase() -> &'static Output {
    static OUTPUT: OnceLock<Output> = OnceLock::new();
    OUTPUT.get_or_init(|| Command::new(env!("CARGO_BIN_EXE_impact")).arg("toi").output().unwrap())
}

/// The answer to the case named `id`.
fn answer(id: &str) -> Value {
    let stdout = std::str::from_utf8(&showcase().stdout).unwrap();
    let answers: Vec<Value> = stdout.lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    answers.into_iter().find(|a| a["id"] == id).unwrap_or_else(|| panic!("no answer for {id}: {stdout}"))
}

/// Checks a case's hand-worked gap function against its closed-form time of impact
/// `exact_t` (where the gap equals the target), then checks the answer against the gap.
/// Returns the answer's t.
fn assert_hit(id: &str, gap: impl Fn(f64) -> f64, exact_t: f64) -> f64 {
    let found = first_crossing(&gap, TOI_TARGET as f64);
    assert!((found - exact_t).abs() < 1e-7, "{id}: the gap reaches the target at {found}, not {exact_t}");
    assert_hit_in_band(&answer(id), gap)
}

/// Asserts that the answer's `key` is the vector `expected` within `tolerance`.
fn assert_vector(id: &str, key: &str, expected: [f64; 2], tolerance: f64) {
    let answer = answer(id);
    let v = &answer[key];
    let (x, y) = (v[0].as_f64().unwrap(), v[1].as_f64().unwrap());
    let off = (x - expected[0]).hypot(y - expected[1]);
    assert!(off <= tolerance, "{id}: {key} {v} is {off} from {expected:?}");
}

#[test]
fn every_case_is_answered_in_order_and_tabled() {
    let output = showcase();
    assert_eq!(output.status.code(), Some(0));
    let stdout = std::str::from_utf8(&output.stdout).unwrap();
    let ids: Vec<Value> =
        stdout.lines().map(|line| serde_json::from_str::<Value>(line).unwrap()["id"].clone()).collect();
    assert_eq!(ids, CASES.map(Value::from));
    let table: Vec<&str> = std::str::from_utf8(&output.stderr).unwrap().lines().collect();
    assert_eq!(table.len(), 1 + CASES.len(), "{table:?}");
    assert!(table[0].starts_with("case") && table[0].ends_with("iterations"));
    for (row, case) in table[1..].iter().zip(CASES) {
        assert!(row.starts_with(case), "{row}");
    }
}

/// A 0.25 m ball falls 5 m in the step onto a plane 2 cm thick whose top is at y = 0.01.
/// Gap: (2 - 5t) - 0.25 - 0.01; t = (1.74 - 0.005) / 5 = 0.347.
#[test]
fn ball_lands_on_the_thin_plane() {
    let id = "ball_onto_thin_plane";
    let t = assert_hit(id, |t| 1.74 - 5.0 * t, 0.347);
    assert_vector(id, "normal", [0.0, 1.0], 1e-3);
    // Midway between the plane's top and the ball's bottom.
    let gap = 1.74 - 5.0 * t;
    assert_vector(id, "point", [0.0, 0.01 + 0.5 * gap], 1e-3);
}

/// A 2 cm bullet crosses 40 m in the step; the wall is a capsule 5 mm thick at x = 0.
/// Gap: -0.0025 - (-20 + 40t + 0.02) = 19.9775 - 40t; t = 19.9725 / 40 = 0.4993125.
#[test]
fn bullet_stops_at_the_thin_wall() {
    let id = "bullet_through_thin_wall";
    assert_hit(id, |t| 19.9775 - 40.0 * t, 0.4993125);
    assert_vector(id, "normal", [-1.0, 0.0], 1e-3);
    assert_vector(id, "point", [-0.0025 - 0.0025, 0.0], 1e-3);
}

/// The unit right triangle turns from 0.5 to -1 rad about its corner P1, held 5 cm above the
/// ground: P1 never gets closer, P2 (1 m from P1) swings down. Gap: 0.05 + min(0, sin a,
/// cos a) with a = 0.5 - 1.5t; t = (0.5 + asin(0.045)) / 1.5.
#[test]
fn triangle_turning_about_a_vertex_lands_on_its_other_vertex() {
    let id = "triangle_rotating_about_vertex";
    let angle = |t: f64| 0.5 - 1.5 * t;
    let gap = |t: f64| 0.05 + 0.0f64.min(angle(t).sin()).min(angle(t).cos());
    let t = assert_hit(id, gap, (0.5 + 0.045f64.asin()) / 1.5);
    assert_vector(id, "normal", [0.0, 1.0], 1e-3);
    // The contact is under P2.
    assert_vector(id, "point", [angle(t).cos(), 0.0025], 2e-3);
}

/// A 2 m x 0.2 m box falls from y = 3 to y = -1 while turning 1.2 rad onto the ground
/// (top at y = 0). Gap: 3 - 4t - (sin 1.2t + 0.1 cos 1.2t), which reaches 0.005 at
/// t = 0.5711530697 (the root of that equation).
#[test]
fn oblong_box_lands_on_a_corner() {
    let id = "oblong_box_falling_rotating";
    let gap = |t: f64| 3.0 - 4.0 * t - ((1.2 * t).sin() + 0.1 * (1.2 * t).cos());
    let t = assert_hit(id, gap, 0.5711530697);
    assert_vector(id, "normal", [0.0, 1.0], 1e-3);
    // Under the corner at (-1, -0.1) in the box's frame.
    let a = 1.2 * t;
    assert_vector(id, "point", [-a.cos() + 0.1 * a.sin(), 0.0025], 2e-3);
}

/// A 3 m rod, 2 cm thick, spins 3 rad about its middle; a box's corner at (0.1, 1.2) sits
/// in its path, 1.2042 m from the pivot at angle 1.4877 rad. The rod is clear of the box
/// at both ends of the step. Gap: r sin(θ - 3t) - 0.01; t = (θ - asin(0.015 / r)) / 3.
#[test]
fn spinning_rod_hits_the_box_corner() {
    let id = "rod_spinning_past_box_corner";
    let (r, theta) = (0.1f64.hypot(1.2), 1.2f64.atan2(0.1));
    let gap = |t: f64| r * (theta - 3.0 * t).sin() - 0.01;
    let t = assert_hit(id, gap, (theta - (0.015 / r).asin()) / 3.0);
    // From the box (A) to the rod (B): the rod's clockwise side.
    let a = 3.0 * t;
    assert_vector(id, "normal", [a.sin(), -a.cos()], 1e-3);
    assert_vector(id, "point", [0.1 + 0.0025 * a.sin(), 1.2 - 0.0025 * a.cos()], 2e-3);
}

/// Two 0.5 m circles meet at the origin from x = -2 and x = 2.
/// Gap: (4 - 4t) - 1; t = 2.995 / 4 = 0.74875.
#[test]
fn circles_meet_head_on() {
    let id = "circles_head_on";
    assert_hit(id, |t| 3.0 - 4.0 * t, 0.74875);
    assert_vector(id, "normal", [1.0, 0.0], 1e-3);
    assert_vector(id, "point", [0.0, 0.0], 1e-3);
}

/// Two 0.5 m circles pass each other 1.2 m apart: the gap never falls below 0.2 m.
#[test]
fn circles_passing_by_are_separated() {
    let answer = answer("circles_passing_by");
    assert_eq!(
        answer,
        json!({"id": "circles_passing_by", "state": "separated", "t": null, "iterations": answer["iterations"]})
    );
}
