//! The character mover (issue 21, item 2): walking, walls, slopes, stairs, snapping down,
//! riding a moving platform, pushing bodies, and never passing a wall or floor 1 cm thick at
//! any speed (seeded runs at 10 to 100 m/s, checked every step against an independent
//! distance query).

use impact2d::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

const DT: f32 = 1.0 / 60.0;
const G: f32 = 10.0;

fn boxed(w: &mut World, center: Vec2, half: Vec2, angle: f32) -> BodyId {
    let b = w.create_body(&BodyDef { angle, ..BodyDef::fixed(center) }).unwrap();
    w.create_shape(b, &ShapeDef::default(), &Shape::Polygon(make_box(half.x, half.y).unwrap())).unwrap();
    b
}

/// A world with a floor 1 cm thick whose top is y = 0, from x = -50 to 50.
fn flat() -> World {
    let mut w = World::new(&WorldDef::default()).unwrap();
    boxed(&mut w, Vec2::new(0.0, -0.005), Vec2::new(50.0, 0.005), 0.0);
    w
}

/// The mover's height above the floor when standing: half the capsule plus the skin.
const STAND: f32 = 0.9 + 0.01;

/// One game step: gravity unless grounded, the move, the world's step. Returns the velocity
/// to keep.
fn step(w: &mut World, m: &mut CharacterMover, run: f32, mut v: Vec2) -> Vec2 {
    v.x = run;
    v.y = if m.is_grounded() { v.y.max(0.0) } else { v.y - G * DT };
    let out = m.move_and_slide(w, v, DT).unwrap();
    w.step(DT, 4).unwrap();
    out.velocity
}

/// The gap between the mover's capsule and a shape of body `b` (meters), by the library's
/// distance query (an independent check of the casts).
fn gap(w: &World, m: &CharacterMover, b: BodyId) -> f32 {
    let d = m.def();
    let capsule = ShapeProxy::from_shape(&Shape::Capsule(Capsule::new(d.center1, d.center2, d.radius).unwrap()));
    let shape = w.body_shapes(b).unwrap()[0];
    let other = ShapeProxy::from_shape(w.shape_geometry(shape).unwrap());
    let input = DistanceInput {
        proxy_a: &other,
        transform_a: w.transform(b).unwrap(),
        proxy_b: &capsule,
        transform_b: Transform { p: m.position(), q: Rot::IDENTITY },
    };
    shape_distance(&input, &mut SimplexCache::default()).unwrap().distance
}

#[test]
fn walks_on_flat_ground_and_stops_at_a_wall() {
    let mut w = flat();
    let wall = boxed(&mut w, Vec2::new(5.0, 1.0), Vec2::new(0.05, 1.0), 0.0);
    let mut m = CharacterMover::new(&MoverDef::default(), Vec2::new(0.0, 2.0)).unwrap();
    let mut v = Vec2::ZERO;
    for _ in 0..60 {
        v = step(&mut w, &mut m, 0.0, v);
    }
    assert!(m.is_grounded() && (m.position().y - STAND).abs() < 0.004, "{}", m.position());
    for _ in 0..120 {
        v = step(&mut w, &mut m, 5.0, v);
        assert!(m.is_grounded() && (m.position().y - STAND).abs() < 0.004, "{}", m.position());
    }
    // Against the wall: a skin away, the run clipped.
    assert!((m.position().x - (4.95 - 0.3 - 0.01)).abs() < 0.004, "{}", m.position());
    assert!(v.x.abs() < 1e-4, "{v}");
    assert!((gap(&w, &m, wall) - 0.01).abs() < 0.003);
}

#[test]
fn never_passes_a_wall_or_floor_1_cm_thick_at_any_speed() {
    let mut rng = ChaCha8Rng::seed_from_u64(71);
    for case in 0..200 {
        let mut w = World::new(&WorldDef { gravity: Vec2::ZERO, ..WorldDef::default() }).unwrap();
        // A 1 cm plate across the path at any slant (walls, floors, ceilings), the mover fired
        // at it.
        let angle = rng.random_range(-std::f32::consts::PI..std::f32::consts::PI);
        let speed = rng.random_range(10.0f32..100.0);
        let normal = Vec2::from_angle(angle);
        let plate = boxed(&mut w, Vec2::ZERO, Vec2::new(0.005, 500.0), angle);
        let start = -normal * rng.random_range(1.5f32..6.0) + normal.perp() * rng.random_range(-3.0f32..3.0);
        let dir = Vec2::from_angle(angle + rng.random_range(-1.3f32..1.3));
        let mut m = CharacterMover::new(&MoverDef { push_force: 0.0, ..MoverDef::default() }, start).unwrap();
        for s in 0..25 {
            m.move_and_slide(&mut w, dir * speed, DT).unwrap();
            let side = (m.position()).dot(normal);
            assert!(side < 0.0, "case {case} step {s}: the mover crossed the plate ({side})");
            assert!(gap(&w, &m, plate) > 0.005, "case {case} step {s}: gap {}", gap(&w, &m, plate));
        }
    }
}

#[test]
fn climbs_gentle_slopes_not_steep_ones() {
    for (deg, climbs) in [(25.0f32, true), (40.0, true), (55.0, false), (70.0, false)] {
        let mut w = flat();
        let a = deg.to_radians();
        // A ramp rising to the right from x = 2: a long thin box turned by the slope.
        let half = 6.0;
        let center = Vec2::new(2.0, 0.0) + Vec2::from_angle(a) * half - Vec2::from_angle(a).perp() * 0.05;
        boxed(&mut w, center, Vec2::new(half, 0.05), a);
        let mut m = CharacterMover::new(&MoverDef::default(), Vec2::new(0.0, STAND)).unwrap();
        let mut v = Vec2::ZERO;
        for _ in 0..150 {
            v = step(&mut w, &mut m, 3.0, v);
        }
        let high = m.position().y > 2.0;
        assert_eq!(high, climbs, "{deg}°: ended at {}", m.position());
    }
}

#[test]
fn climbs_low_stairs_and_not_high_ones_and_walks_down_without_flying() {
    for (rise, climbs) in [(0.15f32, true), (0.25, true), (0.5, false)] {
        let mut w = flat();
        for k in 0..6 {
            let x = 2.0 + 0.6 * k as f32;
            let top = rise * (k + 1) as f32;
            boxed(&mut w, Vec2::new(x + 0.3, top * 0.5), Vec2::new(0.3, top * 0.5), 0.0);
        }
        let mut m = CharacterMover::new(&MoverDef::default(), Vec2::new(0.0, STAND)).unwrap();
        let mut v = Vec2::ZERO;
        let (mut stepped, mut highest) = (0, 0.0f32);
        for _ in 0..180 {
            v.x = 2.0;
            v.y = if m.is_grounded() { v.y.max(0.0) } else { v.y - G * DT };
            let out = m.move_and_slide(&mut w, v, DT).unwrap();
            stepped += out.stepped as usize;
            v = out.velocity;
            highest = highest.max(m.position().y - STAND);
        }
        let top = highest;
        assert_eq!(
            top > 5.0 * rise,
            climbs,
            "rise {rise}: ended {top} m up at {} after {stepped} steps climbed",
            m.position()
        );
    }
    // Down a 30° slope at 3 m/s: grounded every step (snapped, not flying off).
    let mut w = flat();
    let a = (-30.0f32).to_radians();
    let center = Vec2::new(8.0, 6.0);
    boxed(&mut w, center, Vec2::new(8.0, 0.05), a);
    let on_slope = center + Vec2::from_angle(a) * -6.0 + Vec2::from_angle(a).perp() * (0.05 + STAND);
    let mut m = CharacterMover::new(&MoverDef::default(), on_slope).unwrap();
    let mut v = Vec2::ZERO;
    for _ in 0..40 {
        v = step(&mut w, &mut m, 0.0, v);
    }
    assert!(m.is_grounded(), "settled on the slope at {}", m.position());
    for s in 0..60 {
        v = step(&mut w, &mut m, 3.0, v);
        assert!(m.is_grounded(), "step {s}: airborne at {}", m.position());
    }
}

#[test]
fn rides_a_moving_platform() {
    let mut w = flat();
    let platform = w.create_body(&BodyDef::kinematic(Vec2::new(0.0, 2.0))).unwrap();
    w.create_shape(platform, &ShapeDef::default(), &Shape::Polygon(make_box(2.0, 0.1).unwrap())).unwrap();
    let mut m = CharacterMover::new(&MoverDef::default(), Vec2::new(0.5, 2.1 + STAND + 0.05)).unwrap();
    let mut v = Vec2::ZERO;
    for _ in 0..20 {
        v = step(&mut w, &mut m, 0.0, v);
    }
    assert!(m.is_grounded());
    let offset = m.position() - w.position(platform).unwrap();
    for k in 0..120 {
        let t = k as f32 * DT;
        w.set_linear_velocity(platform, Vec2::new(3.0 * (2.0 * t).cos(), 0.5)).unwrap();
        v = step(&mut w, &mut m, 0.0, v);
        assert!(m.is_grounded(), "step {k}");
    }
    let drift = (m.position() - w.position(platform).unwrap()) - offset;
    assert!(drift.length() < 0.05, "the rider drifted {drift} on the platform");
}

#[test]
fn pushes_light_bodies_and_barely_moves_heavy_ones() {
    for (density, far) in [(1.0f32, true), (2000.0, false)] {
        let mut w = flat();
        let crate_ = w.create_body(&BodyDef::dynamic(Vec2::new(2.0, 0.5))).unwrap();
        let def = ShapeDef { density, ..ShapeDef::default() };
        w.create_shape(crate_, &def, &Shape::Polygon(make_box(0.5, 0.5).unwrap())).unwrap();
        let mut m = CharacterMover::new(&MoverDef::default(), Vec2::new(0.0, STAND)).unwrap();
        let mut v = Vec2::ZERO;
        for _ in 0..120 {
            v = step(&mut w, &mut m, 3.0, v);
        }
        let moved = w.position(crate_).unwrap().x - 2.0;
        assert_eq!(moved > 1.0, far, "density {density}: the crate moved {moved}");
        assert!(gap(&w, &m, crate_) > 0.0);
    }
}

#[test]
fn bad_input_is_refused() {
    let mut w = flat();
    assert!(CharacterMover::new(&MoverDef::default(), Vec2::NAN).is_err());
    for def in [
        MoverDef { radius: -1.0, ..MoverDef::default() },
        MoverDef { center2: MoverDef::default().center1, ..MoverDef::default() },
        MoverDef { skin: 0.0, ..MoverDef::default() },
        MoverDef { max_slope: 2.0, ..MoverDef::default() },
        MoverDef { step_height: f32::NAN, ..MoverDef::default() },
        MoverDef { up: Vec2::new(0.0, 2.0), ..MoverDef::default() },
    ] {
        assert!(CharacterMover::new(&def, Vec2::ZERO).is_err(), "{def:?}");
    }
    let mut m = CharacterMover::new(&MoverDef::default(), Vec2::new(0.0, 2.0)).unwrap();
    assert!(m.move_and_slide(&mut w, Vec2::NAN, DT).is_err());
    assert!(m.move_and_slide(&mut w, Vec2::X, 0.0).is_err());
    assert!(m.move_and_slide(&mut w, Vec2::splat(1e7), DT).is_err());
    assert_eq!(m.position(), Vec2::new(0.0, 2.0));
}

/// Six stairs of `rise` and 0.6 m tread from x = 2, walked at 2 m/s for 3 s by a mover whose
/// auto-step is `step_height`: whether it reached the top (5 rises up at least), and how high
/// it got.
fn climbs_stairs(rise: f32, step_height: f32) -> (bool, f32) {
    let mut w = flat();
    for k in 0..6 {
        let x = 2.0 + 0.6 * k as f32;
        let top = rise * (k + 1) as f32;
        boxed(&mut w, Vec2::new(x + 0.3, top * 0.5), Vec2::new(0.3, top * 0.5), 0.0);
    }
    let mut m = CharacterMover::new(&MoverDef { step_height, ..MoverDef::default() }, Vec2::new(0.0, STAND)).unwrap();
    let mut v = Vec2::ZERO;
    let mut highest = 0.0f32;
    for _ in 0..180 {
        v = step(&mut w, &mut m, 2.0, v);
        highest = highest.max(m.position().y - STAND);
    }
    (highest > 5.0 * rise, highest)
}

#[test]
fn climbs_stairs_of_30_cm_with_auto_step_35_cm_and_not_40_cm_ones() {
    for (rise, step_height, climbs) in
        [(0.3f32, 0.35f32, true), (0.4, 0.35, false), (0.3, 0.25, false), (0.34, 0.35, true), (0.36, 0.35, false)]
    {
        let (top, highest) = climbs_stairs(rise, step_height);
        assert_eq!(top, climbs, "rise {rise} with auto-step {step_height}: got {highest} m up");
        if !climbs {
            // Not even the first stair.
            assert!(highest < 0.05, "rise {rise} with auto-step {step_height}: got {highest} m up");
        }
    }
}

#[test]
fn at_50_m_s_never_passes_a_1_cm_wall() {
    let mut rng = ChaCha8Rng::seed_from_u64(5050);
    for case in 0..100 {
        let mut w = flat();
        let dir = if rng.random_bool(0.5) { 1.0f32 } else { -1.0 };
        let distance = rng.random_range(1.0f32..20.0);
        // Taller than the auto-step (or it would be a stair), up to well over the mover.
        let height = rng.random_range(0.4f32..3.0);
        let start_x = rng.random_range(-5.0f32..5.0);
        // The wall's near face `distance` ahead of the capsule's front.
        let face = start_x + dir * (0.3 + distance);
        let wall = boxed(&mut w, Vec2::new(face + dir * 0.005, height * 0.5), Vec2::new(0.005, height * 0.5), 0.0);
        let mut m = CharacterMover::new(&MoverDef::default(), Vec2::new(start_x, STAND)).unwrap();
        let mut v = Vec2::ZERO;
        let steps = (distance / (50.0 * DT)) as usize + 30;
        for s in 0..steps {
            v = step(&mut w, &mut m, 50.0 * dir, v);
            let p = m.position();
            assert!(p.is_finite(), "case {case} step {s}");
            // On its own side: the capsule's front short of the wall's near face.
            let front = (p.x - face) * dir + 0.3;
            assert!(front < 0.0, "case {case} step {s}: the mover crossed the wall ({front} m past its face)");
            let g = gap(&w, &m, wall);
            assert!(g > 0.005, "case {case} step {s}: gap {g} to the wall at {face} ({height} m tall), mover at {p}");
            assert!(p.y < STAND + 0.01 && p.y > STAND - 0.01, "case {case} step {s}: at {p} (over or under)");
        }
        // It ended against the wall, a skin away, stopped.
        let g = gap(&w, &m, wall);
        assert!((g - 0.01).abs() < 0.003, "case {case}: gap {g}");
        assert!(v.x.abs() < 1e-3, "case {case}: still running at {v}");
    }
}
