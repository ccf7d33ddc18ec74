//! The one-way platforms scene: every launched body passes up through the platforms (never
//! stopped below one on the way up) and lands on the highest platform below its highest
//! point, never sinking through it, checked at every step over seeded variants; the conveyor
//! belt carries what lands on it to the post at its end.

use impact_cli::scene::{BodyType, Scene};
use impact_cli::scenes::platforms::{
    BELT_SPEED, GRAVITY, LAUNCHED, PLATFORM_HALF_THICKNESS, PLATFORM_HEIGHTS, one_way_platforms_variant,
};
use impact_cli::simulation::Simulation;

#[test]
fn bodies_pass_up_through_one_way_platforms_and_land_on_them() {
    let mut fast_landings = 0;
    for seed in 1..=24u64 {
        let scene = one_way_platforms_variant(Scene::new("one_way_platforms", "test"), seed);
        let launched: Vec<usize> =
            (0..scene.bodies.len()).filter(|&i| scene.bodies[i].body_type == BodyType::Dynamic).collect();
        assert_eq!(launched.len(), LAUNCHED);
        // Half the smallest extent of each body: its lowest point is at least this far below
        // its center, whatever it turns.
        let halves: Vec<f32> = launched
            .iter()
            .map(|&i| {
                let s = &scene.bodies[i].shapes[0];
                match s.geometry {
                    impact_cli::scene::Geometry::Circle { radius, .. } => radius,
                    impact_cli::scene::Geometry::Box { half_height, .. } => half_height,
                    _ => unreachable!(),
                }
            })
            .collect();
        let speeds: Vec<f32> = launched.iter().map(|&i| scene.bodies[i].linear_velocity.y).collect();
        let steps = scene.steps;
        let mut sim = Simulation::new(&scene.validate().unwrap()).unwrap();
        let dt = scene.time_step;
        let n = launched.len();
        let mut apex = vec![f32::MIN; n];
        let mut prev_vy = speeds.clone();
        let mut falling = vec![false; n];
        let mut fastest_fall = vec![0.0f32; n];
        let tops: Vec<f32> = PLATFORM_HEIGHTS.iter().map(|y| y + PLATFORM_HALF_THICKNESS).collect();
        for step in 0..steps {
            sim.step().unwrap();
            let built = sim.world();
            for (k, &i) in launched.iter().enumerate() {
                let body = built.bodies[i];
                let (p, v) = (built.world.position(body).unwrap(), built.world.linear_velocity(body).unwrap());
                assert!(p.is_finite() && v.is_finite());
                apex[k] = apex[k].max(p.y);
                if !falling[k] {
                    if v.y <= 0.0 {
                        falling[k] = true;
                    } else {
                        // Rising: gravity alone slows it (nothing stops it below a platform).
                        let slowed = prev_vy[k] - v.y;
                        assert!(
                            slowed <= -GRAVITY * dt * 1.05 + 1e-3,
                            "seed {seed} body {k} step {step}: slowed by {slowed} m/s at y = {}",
                            p.y
                        );
                    }
                }
                if falling[k] {
                    fastest_fall[k] = fastest_fall[k].max(-v.y);
                    // Its center never goes below the top of the highest platform under its
                    // highest point. (A body that is not fast, moving less than half its
                    // size per step, may end a step partly in a platform before the contact
                    // pushes it out, as on any shape: the center stays above.)
                    let below = tops.iter().copied().filter(|&t| t < apex[k] - halves[k]).fold(0.0f32, f32::max);
                    assert!(
                        p.y >= below,
                        "seed {seed} body {k} step {step}: fell through the platform at {below}: y = {}",
                        p.y
                    );
                }
                prev_vy[k] = v.y;
            }
        }
        let built = sim.world();
        for (k, &i) in launched.iter().enumerate() {
            let body = built.bodies[i];
            let (p, v) = (built.world.position(body).unwrap(), built.world.linear_velocity(body).unwrap());
            // It rose as high as a free flight would (within the integration's error).
            let free = halves[k] + speeds[k] * speeds[k] / (-2.0 * GRAVITY);
            assert!(apex[k] >= 0.97 * free, "seed {seed} body {k}: rose to {} of {free}", apex[k]);
            // It rests on a platform (on it, or on bodies on it), the highest below its apex.
            let landing = tops.iter().copied().filter(|&t| t < apex[k] - halves[k]).fold(f32::MIN, f32::max);
            assert!(landing > 0.0, "seed {seed} body {k}: rose above a platform");
            assert!(
                p.y >= landing + halves[k] - 0.05 && p.y <= landing + 3.0,
                "seed {seed} body {k}: ends at y = {}, its platform's top at {landing}",
                p.y
            );
            if landing == tops[3] {
                // The belt carried it right, toward the post at its end (boxes ride at the
                // belt's speed, balls slower as they spin), and it rides on the belt.
                let start = scene.bodies[i].position.x;
                assert!(p.x > start + 3.0, "seed {seed} body {k}: only from {start} to {} on the belt", p.x);
                assert!(v.x.abs() <= 1.05 * BELT_SPEED && v.y.abs() < 0.1, "seed {seed} body {k}: moving at {v}");
            } else {
                assert!(v.length() < 0.1, "seed {seed} body {k}: still moving at {v}");
            }
            if fastest_fall[k] >= 30.0 {
                fast_landings += 1;
            }
        }
    }
    // Fast bodies crossed the platforms on the way up (30 to 80 m/s) and some landed fast.
    assert!(fast_landings >= 24, "{fast_landings} landings at 30 m/s or more");
}

/// A small seeded generator (splitmix64): this crate's tests have no `rand`.
struct Seeded(u64);

impl Seeded {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [lo, hi).
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
}

/// How a body at 100 m/s met a one-way platform: the deepest its lowest point went below the
/// platform's top while held (meters, negative when above), its apex, and where it ended.
#[derive(Debug)]
struct Crossing {
    deepest: f32,
    apex: f32,
    end: impact2d::Vec2,
    end_speed: f32,
}

/// One seeded body fired at 100 m/s at a one-way platform (a static box 6 m wide whose top is
/// y = 0, holding from above): `up` fired from below (it must fly through unslowed, rise
/// some 500 m, come back down at about 100 m/s and be held), otherwise fired down from above
/// (held). Checked at every step.
fn fire(seed: u64, up: bool) -> Crossing {
    use impact_cli::one_way::OneWayPlatforms;
    use impact2d::{BodyDef, Circle, Shape, ShapeDef, Vec2, World, WorldDef, make_box};
    use std::sync::Arc;

    let mut rng = Seeded(seed * 7919 + u64::from(up));
    let dt = 1.0f32 / 60.0;
    let gravity = 10.0f32;
    let mut world = World::new(&WorldDef { gravity: Vec2::new(0.0, -gravity), ..WorldDef::default() }).unwrap();
    let thickness = rng.range(0.01, 0.3);
    let platform = world.create_body(&BodyDef::fixed(Vec2::new(0.0, -0.5 * thickness))).unwrap();
    let shape = world
        .create_shape(platform, &ShapeDef::default(), &Shape::Polygon(make_box(3.0, 0.5 * thickness).unwrap()))
        .unwrap();
    world.set_contact_hooks(Some(Arc::new(OneWayPlatforms::new(vec![(shape, Vec2::Y)]))));
    // A floor far below, for what would fall through.
    let floor = world.create_body(&BodyDef::fixed(Vec2::new(0.0, -60.0))).unwrap();
    world.create_shape(floor, &ShapeDef::default(), &Shape::Polygon(make_box(50.0, 0.5).unwrap())).unwrap();

    // A ball or a square (its lowest point `half` below its center when flat).
    let half = rng.range(0.05, 0.5);
    let ball = rng.next().is_multiple_of(2);
    let geometry = if ball {
        Shape::Circle(Circle::new(Vec2::ZERO, half).unwrap())
    } else {
        Shape::Polygon(make_box(half, half).unwrap())
    };
    let distance = rng.range(1.0, 10.0);
    let start = Vec2::new(rng.range(-1.5, 1.5), if up { -distance - half } else { distance + half });
    let speed = 100.0;
    let def = BodyDef { linear_velocity: Vec2::new(0.0, if up { speed } else { -speed }), ..BodyDef::dynamic(start) };
    let body = world.create_body(&def).unwrap();
    world.create_shape(body, &ShapeDef::default(), &geometry).unwrap();

    let (mut apex, mut deepest, mut prev_vy) = (start.y, f32::MIN, def.linear_velocity.y);
    // Fired up: whether it has come out above the platform (from then on it must be held).
    let mut above = !up;
    let flight = if up { 2.0 * speed / gravity + 3.0 } else { 3.0 };
    for step in 0..(flight / dt) as usize {
        world.step(dt, 4).unwrap();
        let (p, v) = (world.position(body).unwrap(), world.linear_velocity(body).unwrap());
        assert!(p.is_finite() && v.is_finite());
        apex = apex.max(p.y);
        if up && !above {
            // On the way up, gravity alone slows it: the platform never stops it.
            let slowed = prev_vy - v.y;
            assert!(
                slowed <= gravity * dt * 1.05 + 1e-3,
                "seed {seed} ({} {half}, platform {thickness} thick): slowed by {slowed} m/s at y = {} on the way up",
                if ball { "ball" } else { "box" },
                p.y
            );
            above = p.y - half > 0.0;
        }
        if above {
            // Held: never below the platform's top (its center), its lowest point at most a
            // little into the platform.
            let lowest = p.y - half;
            deepest = deepest.max(-lowest);
            assert!(
                p.y > 0.0 && lowest > -0.5 * half.min(0.05),
                "seed {seed} ({} {half}, platform {thickness} thick, fired {}) step {step}: at y = {} moving {v}",
                if ball { "ball" } else { "box" },
                if up { "up" } else { "down" },
                p.y
            );
        }
        prev_vy = v.y;
    }
    assert!(above, "seed {seed}: fired up, it never came out above the platform");
    let end = world.position(body).unwrap();
    Crossing { deepest, apex, end, end_speed: world.linear_velocity(body).unwrap().length() }
}

#[test]
fn one_way_platforms_let_bodies_through_from_below_and_hold_them_from_above_at_100_m_s() {
    let mut deepest = f32::MIN;
    for seed in 0..40u64 {
        for up in [true, false] {
            let c = fire(seed, up);
            if up {
                // It flew on through: as high as free flight takes it (v² / 2g = 500 m, less
                // the start below).
                assert!(c.apex > 0.97 * 500.0 - 12.0, "seed {seed}: rose only to {}", c.apex);
            }
            // It came to rest on the platform, not below it, not bounced away.
            assert!(c.end.y > 0.0 && c.end.y < 0.75 && c.end.x.abs() < 3.5, "seed {seed} up {up}: ends at {:?}", c);
            assert!(c.end_speed < 0.1, "seed {seed} up {up}: still moving: {c:?}");
            deepest = deepest.max(c.deepest);
        }
    }
    eprintln!("deepest sink of a held body's lowest point into the platform: {:.4} m", deepest);
}
