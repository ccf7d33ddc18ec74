//! The character mover's built-in course (issue 21, item 2), run to its end and checked at
//! every step; and the `"movers"` array of scene files with its located errors.

use impact_cli::scene::parse_scene;
use impact_cli::scenes;
use impact_cli::simulation::Simulation;

fn position(run: &Simulation, body: &str) -> [f32; 2] {
    run.summary().bodies.iter().find(|b| b.name == body).unwrap().position
}

#[test]
fn the_mover_rides_climbs_pushes_and_stops_at_the_thin_wall() {
    let scene = scenes::find("mover_course").unwrap().scene();
    let mut run = Simulation::new(&scene.validate().unwrap()).unwrap();
    let (mut highest, mut offset, mut drift) = (0.0f32, None, 0.0f32);
    for step in 1..=scene.steps {
        run.step().unwrap();
        let p = run.mover_positions()[0];
        let grounded = run.movers_grounded()[0];
        // The wall's near face is at x = 39.995; the capsule's radius is 0.3 m.
        assert!(p.x + 0.3 < 39.995, "step {step}: the mover is in or past the thin wall at {p}");
        // Riding: standing still on the platform until step 400, it keeps its place on it.
        if (60..400).contains(&step) {
            assert!(grounded, "step {step}: fell off the platform");
            let on = p.x - position(&run, "platform")[0];
            drift = drift.max((on - *offset.get_or_insert(on)).abs());
        }
        // From the ledge on, never below its top (0.25 m) by more than the skin.
        if p.x > 12.5 {
            assert!(p.y - 0.9 > 0.24, "step {step}: below the ledge at {p}");
        }
        if p.x < 22.0 {
            highest = highest.max(p.y - 0.9);
        }
        let body = position(&run, "runner");
        assert!((body[0] - p.x).abs() < 1e-4 && (body[1] - p.y).abs() < 1e-4, "the body shows the mover");
    }
    assert!(drift < 0.01, "the rider drifted {drift} m on the platform");
    assert!((highest - 1.25).abs() < 0.03, "up the stairs onto the plateau at 1.25 m: {highest}");
    assert!(position(&run, "crate")[0] > 22.5, "the crate was pushed off the plateau");
    let end = run.mover_positions()[0];
    assert!((end.x - (39.995 - 0.3 - 0.01)).abs() < 0.01 && run.movers_grounded()[0], "stopped a skin short: {end}");
}

/// A scene with a kinematic body "hero" (a sensor capsule) and `movers` spliced in.
fn with_movers(movers: &str, body: &str) -> String {
    format!(
        r#"{{"bodies": [
  {{"type": "static", "position": [0, -0.5], "shapes": [{{"type": "box", "half_width": 20, "half_height": 0.5}}]}},
  {{"name": "hero", {body}, "position": [0, 1], "shapes": [{{"type": "capsule", "center1": [0, -0.5], "center2": [0, 0.5], "radius": 0.3, "sensor": true}}]}}],
 "movers": {movers}}}"#
    )
}

#[test]
fn movers_in_scene_files_run_and_bad_ones_are_located() {
    let text = with_movers(
        r#"[{"body": "hero", "script": [{"step": 0, "run": 2}, {"step": 30, "jump": 5}]}]"#,
        r#""type": "kinematic""#,
    );
    let scene = parse_scene(&text).unwrap();
    let mut run = Simulation::new(&scene).unwrap();
    let mut peak = 0.0f32;
    for _ in 0..120 {
        run.step().unwrap();
        peak = peak.max(run.mover_positions()[0].y);
    }
    let p = run.mover_positions()[0];
    assert!(
        (p.x - 4.0).abs() < 0.1 && peak > 1.9 && (p.y - 0.81).abs() < 0.005,
        "ran 4 m, jumped and landed: {p}, peak {peak}"
    );
    for (movers, body, expected) in [
        (r#"[{"body": "villain"}]"#, r#""type": "kinematic""#, "movers[0].body: no body is named \"villain\""),
        (
            r#"[{"body": "hero"}]"#,
            r#""type": "dynamic""#,
            "movers[0].body: body \"hero\" must be kinematic (the mover places it)",
        ),
        (r#"[{"body": "hero", "skin": 0}]"#, r#""type": "kinematic""#, "movers[0].skin:"),
        (r#"[{"body": "hero", "max_slope": 3}]"#, r#""type": "kinematic""#, "movers[0].max_slope:"),
        (
            r#"[{"body": "hero", "script": [{"step": 5}, {"step": 5}]}]"#,
            r#""type": "kinematic""#,
            "movers[0].script[1].step: steps must increase along the script",
        ),
        (r#"[{"body": "hero", "speed": 3}]"#, r#""type": "kinematic""#, "movers[0].speed: unknown field"),
    ] {
        let text = with_movers(movers, body);
        let error = parse_scene(&text).unwrap_err().to_string();
        assert!(error.contains(expected), "{movers} {body}: {error}");
    }
    let not_sensor = with_movers(r#"[{"body": "hero"}]"#, r#""type": "kinematic""#).replace(r#", "sensor": true"#, "");
    let error = parse_scene(&not_sensor).unwrap_err().to_string();
    assert!(error.contains("must start with a sensor capsule"), "{error}");
}
