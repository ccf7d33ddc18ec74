//! Continuous collision: bodies dropped and fired at thin things (Catto's first case), the
//! bounce height with and without time loss, and bullets against bullets and plates.
//! Every check runs after every step.

mod continuous_support;

use continuous_support::*;
use impact2d::*;

/// A body of `shape` fired down at `speed` onto a static plane 1 cm thick whose top is at
/// y = 0: it never gets below the plane, and comes to rest on it.
fn drop_onto_plane(shape: &Shape, speed: f32, continuous: bool) -> (f32, f32) {
    let mut w = world(Vec2::new(0.0, -10.0), ContinuousMode::NoTimeLoss);
    if !continuous {
        w = World::new(&WorldDef { enable_continuous: false, ..*w.def() }).unwrap();
    }
    fixed(&mut w, Vec2::new(0.0, -0.005), &boxed(20.0, 0.005));
    let def = BodyDef { position: Vec2::new(0.0, 10.0), linear_velocity: Vec2::new(0.0, -speed), ..BodyDef::default() };
    let b = body(&mut w, def, shape, 0.0, 0.6);
    let mut lowest = f32::MAX;
    run(&mut w, 90, |w, _| lowest = lowest.min(w.world_center(b).unwrap().y));
    (lowest, w.world_center(b).unwrap().y)
}

#[test]
fn circles_boxes_and_capsules_dropped_onto_a_thin_plane_up_to_500_m_per_s_stay_above_it() {
    for (name, shape, rest_y) in
        [("circle", circle(0.25), 0.25), ("box", boxed(0.25, 0.25), 0.25), ("capsule", capsule(0.3, 0.2), 0.2)]
    {
        for speed in [50.0, 100.0, 200.0, 350.0, 500.0] {
            let (lowest, last) = drop_onto_plane(&shape, speed, true);
            assert!(lowest > 0.0, "{name} at {speed} m/s went down to {lowest}");
            assert!((last - rest_y).abs() < 0.02, "{name} at {speed} m/s rests at {last}, want {rest_y}");
        }
        // The check can fail: without continuous collision the same drop tunnels.
        let (lowest, _) = drop_onto_plane(&shape, 200.0, false);
        assert!(lowest < -1.0, "{name} without continuous collision: {lowest}");
    }
}

/// The peaks of a restitution-1 ball dropped from 20 m onto a floor, and the times of the
/// bounces (seconds).
fn bounce(mode: ContinuousMode) -> (Vec<f32>, Vec<f32>, ContinuousStats) {
    let mut w = world(Vec2::new(0.0, -10.0), mode);
    fixed(&mut w, Vec2::new(0.0, -1.0), &boxed(20.0, 1.0));
    let def = BodyDef { position: Vec2::new(0.0, 20.25), ..BodyDef::default() };
    let b = body(&mut w, def, &circle(0.25), 1.0, 0.0);
    let (mut peaks, mut bounces, mut last_vy, mut peak) = (Vec::new(), Vec::new(), 0.0f32, 0.0f32);
    let mut most = ContinuousStats::default();
    let mut fastest_hit = 0.0f32;
    run(&mut w, 1000, |w, step| {
        let (y, vy) = (w.world_center(b).unwrap().y, w.linear_velocity(b).unwrap().y);
        assert!(y > 0.2, "step {step}: the ball is in the floor at {y}");
        peak = peak.max(y);
        if last_vy > 0.0 && vy <= 0.0 {
            peaks.push(peak);
        }
        if last_vy < 0.0 && vy > 0.0 {
            bounces.push((step + 1) as f32 * DT);
            peak = 0.0;
        }
        last_vy = vy;
        let s = w.continuous_stats();
        if s.toi_calls > most.toi_calls {
            most = s;
        }
        for hit in w.contact_hit_events() {
            fastest_hit = fastest_hit.max(hit.approach_speed);
        }
    });
    // Hit events come from continuous collision's impacts as from the contact solver's:
    // the ball hits the floor at 20 m/s (dropped 20 m).
    assert!((fastest_hit - 20.0).abs() < 0.5, "{mode:?}: fastest hit {fastest_hit} m/s");
    (peaks, bounces, most)
}

#[test]
fn a_restitution_1_ball_bounces_back_to_the_same_height_without_time_loss() {
    let (peaks, bounces, stats) = bounce(ContinuousMode::NoTimeLoss);
    let (stop_peaks, stop_bounces, _) = bounce(ContinuousMode::StopAtImpact);
    println!("no time loss: peaks {peaks:?} bounces at {bounces:?} s; busiest step {stats:?}");
    println!("stop at impact: peaks {stop_peaks:?} bounces at {stop_bounces:?} s");
    assert!(peaks.len() >= 3, "{peaks:?}");
    for &p in &peaks {
        assert!((p - 20.25).abs() < 0.01 * 20.0, "peak {p} of {peaks:?}");
    }
    // Stopping at the impact loses the rest of the step at every bounce: the bounces fall
    // behind by a step each, and the peaks are lower.
    assert!(stop_bounces.len() >= 3 && bounces.len() >= 3);
    assert!(stop_bounces[2] - bounces[2] > 2.0 * DT, "{stop_bounces:?} vs {bounces:?}");
    assert!(stop_peaks[0] < peaks[0] - 0.02, "{stop_peaks:?} vs {peaks:?}");
    // The ball was fast at every bounce: continuous collision handled it.
    assert!(stats.impacts >= 1 && stats.fast_bodies == 1, "{stats:?}");
}

/// Two bullets fired at each other: they never pass each other.
#[test]
fn two_bullets_fired_at_each_other_at_500_m_per_s_collide() {
    for mode in [ContinuousMode::NoTimeLoss, ContinuousMode::StopAtImpact] {
        let mut w = world(Vec2::ZERO, mode);
        let shot = |x: f32, v: f32| BodyDef {
            position: Vec2::new(x, 0.013),
            linear_velocity: Vec2::new(v, 0.0),
            bullet: true,
            ..BodyDef::default()
        };
        let a = body(&mut w, shot(-20.0, 500.0), &circle(0.05), 1.0, 0.0);
        let b = body(&mut w, BodyDef { position: Vec2::new(20.0, 0.0), ..shot(20.0, -500.0) }, &circle(0.05), 1.0, 0.0);
        run(&mut w, 30, |w, step| {
            let (xa, xb) = (w.world_center(a).unwrap().x, w.world_center(b).unwrap().x);
            let (va, vb) = (w.linear_velocity(a).unwrap().x, w.linear_velocity(b).unwrap().x);
            // Before the impact they approach from their sides; after it they fly apart.
            let bounced = va < 0.0 && vb > 0.0;
            assert!(xa < xb || bounced, "{mode:?} step {step}: the bullets passed each other ({xa}, {xb})");
        });
        let (va, vb) = (w.linear_velocity(a).unwrap().x, w.linear_velocity(b).unwrap().x);
        assert!(va < -400.0 && vb > 400.0, "{mode:?}: they bounced back: {va}, {vb}");
    }
}

/// A bullet (and a fast non-bullet) fired at a thin heavy dynamic plate never passes it.
#[test]
fn a_bullet_never_passes_a_thin_heavy_dynamic_plate() {
    for (bullet, speed) in [(true, 500.0), (false, 500.0), (true, 100.0)] {
        let mut w = world(Vec2::ZERO, ContinuousMode::NoTimeLoss);
        let plate = w.create_body(&BodyDef::dynamic(Vec2::ZERO)).unwrap();
        w.create_shape(plate, &ShapeDef { density: 100.0, ..ShapeDef::default() }, &boxed(0.01, 1.0)).unwrap();
        let def = BodyDef {
            position: Vec2::new(-30.0, 0.3),
            linear_velocity: Vec2::new(speed, 0.0),
            bullet,
            ..BodyDef::default()
        };
        let shot = body(&mut w, def, &circle(0.05), 0.0, 0.0);
        run(&mut w, 60, |w, step| {
            // The shot's center in the plate's frame stays on the near side of the plate.
            let local = w.transform(plate).unwrap().inv_apply(w.world_center(shot).unwrap());
            assert!(local.x < -0.01, "bullet {bullet} at {speed}: step {step}: passed the plate ({local})");
        });
        assert!(w.linear_velocity(plate).unwrap().x > 0.0, "the plate was pushed");
    }
}

#[test]
fn continuous_settings_are_checked_and_can_be_turned_off() {
    let bad = [
        WorldDef { max_impacts_per_body: 0, ..WorldDef::default() },
        WorldDef { max_rotation: Some(-1.0), ..WorldDef::default() },
        WorldDef { max_rotation: Some(f32::NAN), ..WorldDef::default() },
    ];
    for def in bad {
        assert!(matches!(World::new(&def), Err(WorldError::InvalidValue { .. })), "{def:?}");
    }
    // Off: no statistics, and the fast ball passes the plane (see the drop test).
    let mut w = World::new(&WorldDef { enable_continuous: false, ..WorldDef::default() }).unwrap();
    let def = BodyDef { linear_velocity: Vec2::new(0.0, -100.0), ..BodyDef::default() };
    body(&mut w, def, &circle(0.1), 0.0, 0.6);
    w.step(DT, SUBSTEPS).unwrap();
    assert_eq!(w.continuous_stats(), ContinuousStats::default());
}

#[test]
fn the_optional_rotation_cap_limits_the_turn_per_step() {
    let def = WorldDef { gravity: Vec2::ZERO, max_rotation: Some(0.25), ..WorldDef::default() };
    let mut w = World::new(&def).unwrap();
    let b = body(&mut w, BodyDef { angular_velocity: 100.0, ..BodyDef::default() }, &boxed(1.0, 0.1), 0.0, 0.6);
    let a0 = w.angle(b).unwrap();
    w.step(DT, SUBSTEPS).unwrap();
    let turned = w.angle(b).unwrap() - a0;
    assert!((turned - 0.25).abs() < 1e-4, "turned {turned} rad");
    assert!((w.angular_velocity(b).unwrap() - 0.25 / DT).abs() < 1e-2);
}

#[test]
fn continuous_collision_is_deterministic() {
    let run_once = || {
        let mut w = world(Vec2::new(0.0, -10.0), ContinuousMode::NoTimeLoss);
        closed_box(&mut w, Vec2::ZERO, 3.0, 0.01);
        let mut rng = Lcg(9);
        let bodies: Vec<BodyId> = (0..20)
            .map(|i| {
                let def = BodyDef {
                    position: Vec2::new(-2.0 + 0.2 * i as f32, rng.range(-2.0, 2.0)),
                    linear_velocity: Vec2::new(rng.range(-200.0, 200.0), rng.range(-200.0, 200.0)),
                    angular_velocity: rng.range(-50.0, 50.0),
                    ..BodyDef::default()
                };
                body(&mut w, def, &boxed(0.1, 0.05), 0.9, 0.3)
            })
            .collect();
        run(&mut w, 60, |_, _| {});
        bodies.iter().map(|&b| (w.world_center(b).unwrap().to_array(), w.angle(b).unwrap())).collect::<Vec<_>>()
    };
    let (first, second) = (run_once(), run_once());
    for (a, b) in first.iter().zip(&second) {
        assert_eq!(a.0[0].to_bits(), b.0[0].to_bits());
        assert_eq!(a.0[1].to_bits(), b.0[1].to_bits());
        assert_eq!(a.1.to_bits(), b.1.to_bits());
    }
}

/// A ball fired at 300 m/s onto the thin plane: the step it crosses reports one impact event,
/// at the fraction of the step where its surface reaches the plane's top, with the point on
/// the plane and the normal along y.
#[test]
fn an_impact_event_reports_the_time_point_and_normal_of_the_hit() {
    let mut w = world(Vec2::ZERO, ContinuousMode::NoTimeLoss);
    let plane = fixed(&mut w, Vec2::new(0.0, -0.005), &boxed(20.0, 0.005));
    // The surface starts 2.75 m above the plane's top: 0.55 of a 300 m/s step of 1/60 s.
    let def = BodyDef { position: Vec2::new(1.0, 3.0), linear_velocity: Vec2::new(0.0, -300.0), ..BodyDef::default() };
    let ball = body(&mut w, def, &circle(0.25), 0.0, 0.6);
    w.step(DT, SUBSTEPS).unwrap();
    let events = w.impact_events().to_vec();
    assert_eq!(events.len(), 1, "{events:?}");
    let e = events[0];
    let shapes = [w.body_shapes(plane).unwrap()[0], w.body_shapes(ball).unwrap()[0]];
    assert_eq!([e.shape_a, e.shape_b], shapes);
    let expected = 2.75 / (300.0 * DT);
    assert!((e.fraction - expected).abs() < 2e-3, "fraction {} want {expected}", e.fraction);
    assert!((e.point - Vec2::new(1.0, 0.0)).length() < 0.02, "point {}", e.point);
    assert!((e.normal - Vec2::Y).length() < 1e-3, "normal {}", e.normal);
    assert_eq!(w.continuous_stats().impacts, 1);
    assert_eq!((w.is_fast(ball), w.is_fast(plane)), (Ok(true), Ok(false)));
    // It stays on the plane's side (restitution 0: it comes to rest on it), no longer fast.
    w.step(DT, SUBSTEPS).unwrap();
    let y = w.world_center(ball).unwrap().y;
    assert!(y > 0.24 && y < 0.3, "the ball is at {y}");
    assert_eq!(w.is_fast(ball), Ok(false));
}

/// Bodies resting on a floor (a stack of boxes, a capsule, a ball) are never deep in it: no
/// body is swept for its depth, and nothing is fast once they settle.
#[test]
fn bodies_resting_on_a_floor_are_not_swept_as_deep() {
    let mut w = world(Vec2::new(0.0, -10.0), ContinuousMode::NoTimeLoss);
    fixed(&mut w, Vec2::new(0.0, -0.005), &boxed(20.0, 0.005));
    for i in 0..5 {
        let def = BodyDef { position: Vec2::new(0.0, 0.1 + 0.2 * i as f32), ..BodyDef::default() };
        body(&mut w, def, &boxed(0.1, 0.1), 0.0, 0.6);
    }
    body(&mut w, BodyDef { position: Vec2::new(1.0, 0.05), ..BodyDef::default() }, &capsule(0.3, 0.05), 0.0, 0.6);
    body(&mut w, BodyDef { position: Vec2::new(-1.0, 0.02), ..BodyDef::default() }, &circle(0.02), 0.0, 0.6);
    let mut deep = 0;
    run(&mut w, 120, |w, _| deep += w.continuous_stats().deep_bodies);
    assert_eq!(deep, 0);
}

/// A 0.5 m box starting half sunk in a floor 1 cm thick (0.15 m deep, more than a quarter of
/// its 0.25 m smallest extent) is swept while it moves, however slowly, and its center never
/// gets below the floor's top.
#[test]
fn a_body_starting_deep_in_a_floor_is_swept_and_its_center_stays_above() {
    let mut w = world(Vec2::new(0.0, -10.0), ContinuousMode::NoTimeLoss);
    fixed(&mut w, Vec2::new(0.0, -0.005), &boxed(20.0, 0.005));
    let b = body(&mut w, BodyDef { position: Vec2::new(0.0, 0.1), ..BodyDef::default() }, &boxed(0.25, 0.25), 0.0, 0.6);
    w.step(DT, SUBSTEPS).unwrap();
    let stats = w.continuous_stats();
    assert_eq!((stats.fast_bodies, stats.deep_bodies), (1, 1), "{stats:?}");
    run(&mut w, 60, |w, step| {
        let c = w.world_center(b).unwrap();
        assert!(c.y > 0.0, "step {step}: center at {c}");
    });
}
