//! Continuous collision among many bodies: sleeping piles (the still shapes gathered near the
//! fast sweeps in one tree walk, or queried per fast shape when the walk would visit too much
//! of the tree) and a flying pile (moving shapes paired by their swept boxes, neighbors flying
//! together left to the contact solver). Every check runs after every step.

mod continuous_support;

use continuous_support::*;
use impact2d::*;

/// A thin heavy plate (2 cm by 2 m, density 100) asleep at `position`.
fn sleeping_plate(w: &mut World, position: Vec2) -> BodyId {
    let plate = w.create_body(&BodyDef { awake: false, ..BodyDef::dynamic(position) }).unwrap();
    w.create_shape(plate, &ShapeDef { density: 100.0, ..ShapeDef::default() }, &boxed(0.01, 1.0)).unwrap();
    plate
}

/// Two bullets (300 m/s, 5 m per step) fired from 4 m at thin sleeping plates at opposite
/// corners of a 100 m by 40 m box, with `rows × rows` sleeping 0.5 m boxes between them. Returns the deepest a bullet's center
/// got past the near face of its plate (meters, in the plate's frame; negative: never reached
/// it) and the impacts.
fn bullets_at_sleeping_plates(rows: usize, continuous: bool) -> (f32, usize) {
    let mut w = world(Vec2::ZERO, ContinuousMode::NoTimeLoss);
    if !continuous {
        w = World::new(&WorldDef { enable_continuous: false, ..*w.def() }).unwrap();
    }
    for i in 0..rows {
        for j in 0..rows {
            let position = Vec2::new(-30.0 + 2.0 * i as f32, -30.0 + 2.0 * j as f32);
            body(&mut w, BodyDef { awake: false, ..BodyDef::dynamic(position) }, &boxed(0.25, 0.25), 0.0, 0.6);
        }
    }
    let mut shots = Vec::new();
    for side in [-1.0f32, 1.0] {
        let plate = sleeping_plate(&mut w, Vec2::new(50.0 * side, 20.0 * side));
        let def = BodyDef {
            position: Vec2::new(54.0 * side, 20.0 * side + 0.3),
            linear_velocity: Vec2::new(-300.0 * side, 0.0),
            bullet: true,
            ..BodyDef::default()
        };
        shots.push((plate, body(&mut w, def, &circle(0.05), 0.0, 0.0), side));
    }
    let (mut deepest, mut impacts) = (f32::MIN, 0);
    run(&mut w, 20, |w, _| {
        impacts += w.impact_events().len();
        for &(plate, shot, side) in &shots {
            // How far the shot's center is past the plate's near face (its face toward the shot).
            let local = w.transform(plate).unwrap().inv_apply(w.world_center(shot).unwrap());
            deepest = deepest.max(0.01 - local.x * side);
        }
    });
    (deepest, impacts)
}

#[test]
fn bullets_stop_at_sleeping_plates_whether_still_shapes_are_gathered_or_queried() {
    // No boxes: the tree walk over both sweeps visits a few proxies and gathers the plates.
    // 900 boxes between the bullets, about 600 of them in the box holding both sweeps: the
    // walk would visit far more than 32 proxies per fast shape, so each bullet queries the
    // tree instead.
    for rows in [0, 30] {
        let (deepest, impacts) = bullets_at_sleeping_plates(rows, true);
        assert!(deepest < 0.0, "{rows} rows: a bullet's center got {deepest} m past its plate's face");
        assert!(impacts >= 2, "{rows} rows: {impacts} impacts");
    }
    // The check can fail: without continuous collision the bullets pass the plates.
    let (deepest, _) = bullets_at_sleeping_plates(30, false);
    assert!(deepest > 1.0, "without continuous collision: {deepest}");
}

/// A flying pile of 10 × 10 touching 0.4 m boxes at 20 m/s (each fast: 0.33 m per step), a
/// thin heavy plate flying with it on its front, and a bullet at 300 m/s coming the other way.
#[test]
fn a_flying_pile_costs_no_time_of_impact_and_a_bullet_still_stops_at_its_plate() {
    let mut w = world(Vec2::ZERO, ContinuousMode::NoTimeLoss);
    let velocity = Vec2::new(20.0, 0.0);
    let mut pile = Vec::new();
    for i in 0..10 {
        for j in 0..10 {
            let def =
                BodyDef { linear_velocity: velocity, ..BodyDef::dynamic(Vec2::new(0.4 * i as f32, 0.4 * j as f32)) };
            pile.push(body(&mut w, def, &boxed(0.2, 0.2), 0.0, 0.6));
        }
    }
    let plate = w.create_body(&BodyDef { linear_velocity: velocity, ..BodyDef::dynamic(Vec2::new(3.8, 1.8)) }).unwrap();
    w.create_shape(plate, &ShapeDef { density: 100.0, ..ShapeDef::default() }, &boxed(0.01, 1.0)).unwrap();
    let def = BodyDef {
        position: Vec2::new(40.0, 1.9),
        linear_velocity: Vec2::new(-300.0, 0.0),
        bullet: true,
        ..BodyDef::default()
    };
    let shot = body(&mut w, def, &circle(0.05), 0.0, 0.0);
    w.step(DT, SUBSTEPS).unwrap();
    let stats = w.continuous_stats();
    assert_eq!(stats.fast_bodies, 102, "the pile, the plate and the bullet are fast");
    assert_eq!(stats.toi_calls, 0, "the pile flies together and the bullet is 36 m away: {stats:?}");
    let mut impacts = 0;
    run(&mut w, 20, |w, step| {
        impacts += w.impact_events().len();
        let local = w.transform(plate).unwrap().inv_apply(w.world_center(shot).unwrap());
        assert!(local.x > 0.01, "step {step}: the bullet passed the plate ({local})");
    });
    assert!(impacts >= 1, "{impacts} impacts");
    assert!(w.linear_velocity(plate).unwrap().x < 20.0, "the bullet slowed the plate");
}
