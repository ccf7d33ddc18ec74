//! Continuous collision in closed containers: 60 mixed shapes at 50 to 400 m/s inside walls
//! 1 cm and 1 mm thick (also 20 km from the origin), thin blades spinning at 40 to 90 rad/s
//! among balls, and fast bodies in a one-sided chain cave. Every body is checked inside after
//! every step.

mod continuous_support;

use continuous_support::*;
use impact2d::settings::LINEAR_SLOP;
use impact2d::*;

/// 60 circles, boxes and capsules (0.1 to 0.4 m, friction 0.3) on an 8 by 8 m grid around
/// `center`, each fired at 50 to 400 m/s in a random direction and spinning at up to
/// 20 rad/s; every fifth a bullet when `bullets`; restitution `restitution`, or random in
/// [0, 1] when `None`.
fn sixty_shapes(w: &mut World, center: Vec2, rng: &mut Lcg, restitution: Option<f32>, bullets: bool) -> Vec<BodyId> {
    let mut bodies = Vec::new();
    for i in 0..60 {
        let size = rng.range(0.1, 0.4);
        let shape = match i % 3 {
            0 => circle(size),
            1 => boxed(size, rng.range(0.5, 1.0) * size),
            _ => capsule(size, 0.5 * size),
        };
        let (angle, speed) = (rng.range(0.0, std::f32::consts::TAU), rng.range(50.0, 400.0));
        let def = BodyDef {
            position: center + Vec2::new(-4.0 + 8.0 * (i % 8) as f32 / 7.0, -4.0 + 8.0 * (i / 8) as f32 / 7.0),
            linear_velocity: speed * Vec2::new(angle.cos(), angle.sin()),
            angular_velocity: rng.range(-20.0, 20.0),
            bullet: bullets && i % 5 == 0,
            ..BodyDef::default()
        };
        let e = restitution.unwrap_or_else(|| rng.range(0.0, 1.0));
        bodies.push(body(w, def, &shape, e, 0.3));
    }
    bodies
}

/// 60 circles, boxes and capsules (0.1 to 0.4 m) with restitution 0.9 fired at 50 to
/// 400 m/s inside a closed 10 m box around `center` with walls `thickness` thick, run for
/// `steps` steps. Returns the busiest step's statistics.
fn mixed_shapes_in_a_box(center: Vec2, thickness: f32, steps: usize) -> ContinuousStats {
    let mut w = world(Vec2::new(0.0, -10.0), ContinuousMode::NoTimeLoss);
    let half = 5.0;
    closed_box(&mut w, center, half, thickness);
    let bodies = sixty_shapes(&mut w, center, &mut Lcg(7), Some(0.9), false);
    let inside = Vec2::splat(half);
    let mut busiest = ContinuousStats::default();
    run(&mut w, steps, |w, step| {
        assert_inside(w, &bodies, center - inside, center + inside, step);
        let s = w.continuous_stats();
        if s.toi_calls > busiest.toi_calls {
            busiest = s;
        }
    });
    assert_eq!(w.body_count(), 64);
    busiest
}

#[test]
fn sixty_fast_shapes_stay_in_a_box_with_1_cm_walls_for_10_seconds() {
    let stats = mixed_shapes_in_a_box(Vec2::ZERO, 0.01, 600);
    println!("1 cm walls, busiest step: {stats:?}");
    assert!(stats.impacts > 10, "{stats:?}");
}

#[test]
fn sixty_fast_shapes_stay_in_a_box_with_1_mm_walls() {
    let stats = mixed_shapes_in_a_box(Vec2::ZERO, 0.001, 300);
    println!("1 mm walls, busiest step: {stats:?}");
}

#[test]
fn sixty_fast_shapes_stay_in_a_box_with_1_cm_walls_20_km_from_the_origin() {
    let stats = mixed_shapes_in_a_box(Vec2::new(20_000.0, 20_000.0), 0.01, 300);
    println!("20 km, busiest step: {stats:?}");
}

#[test]
fn thin_blades_spinning_at_40_to_90_rad_per_s_keep_everything_in_the_box() {
    let mut w = world(Vec2::new(0.0, -10.0), ContinuousMode::NoTimeLoss);
    let half = 6.0;
    closed_box(&mut w, Vec2::ZERO, half, 0.02);
    let mut rng = Lcg(11);
    let mut bodies = Vec::new();
    for (i, spin) in [40.0f32, -60.0, 75.0, -90.0].into_iter().enumerate() {
        let def = BodyDef {
            position: Vec2::new(-3.0 + 2.0 * i as f32, 2.5 * (i % 2) as f32 - 1.0),
            angular_velocity: spin,
            ..BodyDef::default()
        };
        bodies.push(body(&mut w, def, &boxed(1.5, 0.01), 0.5, 0.3));
    }
    for i in 0..24 {
        let def = BodyDef {
            position: Vec2::new(-5.0 + 10.0 * (i % 6) as f32 / 5.0, -4.5 + 2.0 * (i / 6) as f32),
            linear_velocity: Vec2::new(rng.range(-20.0, 20.0), rng.range(-20.0, 20.0)),
            ..BodyDef::default()
        };
        bodies.push(body(&mut w, def, &circle(rng.range(0.1, 0.3)), 0.5, 0.3));
    }
    let mut most_impacts = 0;
    run(&mut w, 180, |w, step| {
        assert_inside(w, &bodies, Vec2::splat(-half), Vec2::splat(half), step);
        most_impacts = most_impacts.max(w.continuous_stats().impacts);
    });
    println!("blades: most impacts in a step {most_impacts}");
    assert!(most_impacts > 0);
}

/// True when `p` is inside the polygon `points`.
fn inside_polygon(points: &[Vec2], p: Vec2) -> bool {
    let mut inside = false;
    for i in 0..points.len() {
        let (a, b) = (points[i], points[(i + 1) % points.len()]);
        if (a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x) {
            inside = !inside;
        }
    }
    inside
}

#[test]
fn fast_bodies_never_leave_a_closed_one_sided_chain_cave() {
    let mut w = world(Vec2::new(0.0, -10.0), ContinuousMode::NoTimeLoss);
    // An irregular cave, clockwise so that the chain's solid side faces inward.
    let mut cave: Vec<Vec2> = (0..16)
        .map(|i| {
            let a = -(i as f32) * std::f32::consts::TAU / 16.0;
            let r = 8.0 + 1.5 * (3.0 * a).sin();
            Vec2::new(r * a.cos(), 0.7 * r * a.sin())
        })
        .collect();
    cave.dedup();
    let ground = w.create_body(&BodyDef::fixed(Vec2::ZERO)).unwrap();
    w.create_chain(ground, &ShapeDef::default(), &cave, true).unwrap();
    let mut rng = Lcg(3);
    let mut bodies = Vec::new();
    for i in 0..30 {
        let shape = match i % 3 {
            0 => circle(0.2),
            1 => boxed(0.3, 0.1),
            _ => capsule(0.3, 0.1),
        };
        let (angle, speed) = (rng.range(0.0, std::f32::consts::TAU), rng.range(50.0, 200.0));
        let def = BodyDef {
            position: Vec2::new(-3.0 + (i % 6) as f32 * 1.2, -2.0 + (i / 6) as f32),
            linear_velocity: speed * Vec2::new(angle.cos(), angle.sin()),
            angular_velocity: rng.range(-30.0, 30.0),
            ..BodyDef::default()
        };
        bodies.push(body(&mut w, def, &shape, 0.8, 0.2));
    }
    run(&mut w, 300, |w, step| {
        for (i, &b) in bodies.iter().enumerate() {
            let c = w.world_center(b).unwrap();
            assert!(inside_polygon(&cave, c), "step {step}: body {i} left the cave at {c}");
        }
    });
}

/// 60 shapes (every fifth a bullet, restitution 0 to 1) at 50 to 400 m/s in a closed 10 m
/// box around `center` with walls 1 cm thick (1 mm for every third seed), run for `steps`
/// steps. These piles press small bodies into the walls with heavier ones, the hardest case
/// for the core-shape fallback. No center may pass a wall's inner face by more than the
/// linear slop. Returns the most bodies swept for being deep in a wall in one step.
fn thin_walled_box(seed: u64, center: Vec2, mode: ContinuousMode, steps: usize) -> u32 {
    let mut w = world(Vec2::new(0.0, -10.0), mode);
    let half = 5.0;
    let thickness = if seed.is_multiple_of(3) { 0.001 } else { 0.01 };
    closed_box(&mut w, center, half, thickness);
    let bodies = sixty_shapes(&mut w, center, &mut Lcg(seed), None, true);
    let inside = Vec2::splat(half + LINEAR_SLOP);
    let mut most_deep = 0;
    run(&mut w, steps, |w, step| {
        assert_inside(w, &bodies, center - inside, center + inside, step);
        most_deep = most_deep.max(w.continuous_stats().deep_bodies);
    });
    most_deep
}

/// Regression: in seed 7 a capsule (0.19 m half length, 0.09 m radius) is pressed into the
/// bottom right corner by the pile, lying across both 1 cm walls. The right wall's contact
/// normal is the capsule's side normal, pointing down into the bottom wall, and the contact
/// solver walked the slow capsule's center 1.2 cm down into the bottom wall over steps 28 to
/// 35, unswept. Bodies starting a step deep in a wall are now swept whatever their speed.
/// At 20 km the scenes evolve differently; there seed 29 did the same with a box pressed into
/// the top right corner (10 cm past the top wall's inner face by step 15). Since impacts reopen
/// a gap closed below the time of impact's target (issue 17), neither scene presses a body deep
/// into a wall any more; their centers are still checked at every step, and the deep-body
/// sweep has its own tests in `continuous_drop.rs`.
#[test]
fn seed_7_a_capsule_pressed_into_a_corner_keeps_its_center_inside() {
    let most_deep = thin_walled_box(7, Vec2::ZERO, ContinuousMode::NoTimeLoss, 300);
    println!("seed 7: at most {most_deep} deep bodies swept in a step");
    let most_deep = thin_walled_box(29, Vec2::new(20_000.0, 20_000.0), ContinuousMode::NoTimeLoss, 300);
    println!("seed 29 at 20 km: at most {most_deep} deep bodies swept in a step");
}

/// Measured over 40 seeds and 300 steps, at the origin and at 20 km, in both modes: no center
/// passes a wall's inner face. Here 20 seeds at the origin in `NoTimeLoss`.
#[test]
fn no_body_escapes_a_thin_walled_box_over_many_seeds() {
    for seed in 1..=20 {
        thin_walled_box(seed, Vec2::ZERO, ContinuousMode::NoTimeLoss, 300);
    }
}

#[test]
fn no_body_escapes_a_thin_walled_box_20_km_from_the_origin_over_many_seeds() {
    for seed in 1..=10 {
        thin_walled_box(seed, Vec2::new(20_000.0, 20_000.0), ContinuousMode::NoTimeLoss, 300);
    }
}

#[test]
fn no_body_escapes_a_thin_walled_box_over_many_seeds_stopping_at_impacts() {
    for seed in 1..=10 {
        thin_walled_box(seed, Vec2::ZERO, ContinuousMode::StopAtImpact, 300);
    }
}
