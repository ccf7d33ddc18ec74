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
