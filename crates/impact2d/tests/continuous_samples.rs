//! Box2D's continuous samples, re-created from their public descriptions (BounceHouse,
//! SegmentSlide, ChainSlide, SkinnyBox, Drop scenes 1 and 4, Wedge, SpeculativeSliver).
//! Every check runs after every step.

mod continuous_support;

use continuous_support::*;
use impact2d::*;

/// Kinetic energy (J) of a body.
fn energy(w: &World, b: BodyId) -> f32 {
    let (v, av) = (w.linear_velocity(b).unwrap(), w.angular_velocity(b).unwrap());
    let (m, i) = (w.mass(b).unwrap(), w.rotational_inertia(b).unwrap());
    0.5 * m * v.length_squared() + 0.5 * i * av * av
}

/// BounceHouse: a restitution-1 shape at (10, 20) m/s in a 20 m box of segments without
/// gravity or friction. Returns the speed and energy lost after 10 s (fractions).
fn bounce_house(shape: &Shape) -> (f32, f32, u32) {
    let mut w = world(Vec2::ZERO, ContinuousMode::NoTimeLoss);
    let house = w.create_body(&BodyDef::fixed(Vec2::ZERO)).unwrap();
    let corners = [Vec2::new(-10.0, -10.0), Vec2::new(10.0, -10.0), Vec2::new(10.0, 10.0), Vec2::new(-10.0, 10.0)];
    let def = ShapeDef { friction: 0.0, restitution: 1.0, ..ShapeDef::default() };
    for i in 0..4 {
        w.create_shape(house, &def, &segment(corners[i], corners[(i + 1) % 4])).unwrap();
    }
    let start = BodyDef { linear_velocity: Vec2::new(10.0, 20.0), ..BodyDef::default() };
    let b = body(&mut w, start, shape, 1.0, 0.0);
    let (speed0, energy0) = (w.linear_velocity(b).unwrap().length(), energy(&w, b));
    let mut impacts = 0;
    run(&mut w, 600, |w, step| {
        assert_inside(w, &[b], Vec2::splat(-10.0), Vec2::splat(10.0), step);
        assert!(energy(w, b) <= energy0 * 1.001, "step {step}: energy gained");
        impacts += w.continuous_stats().impacts;
    });
    (1.0 - w.linear_velocity(b).unwrap().length() / speed0, 1.0 - energy(&w, b) / energy0, impacts)
}

#[test]
fn bounce_house_keeps_the_speed_of_a_circle_a_capsule_and_a_box() {
    for (name, shape, max_energy_loss) in
        [("circle", circle(0.5), 0.001), ("capsule", capsule(0.5, 0.25), 0.15), ("box", boxed(0.5, 0.5), 0.001)]
    {
        let (speed_loss, energy_loss, impacts) = bounce_house(&shape);
        println!(
            "BounceHouse {name}: speed loss {:.3} %, energy loss {:.3} % after 10 s ({impacts} impacts)",
            100.0 * speed_loss,
            100.0 * energy_loss
        );
        assert!(energy_loss < max_energy_loss, "{name}: energy loss {energy_loss}");
    }
}

/// SegmentSlide and ChainSlide: a circle at 100 m/s sliding along a floor into a wall.
#[test]
fn a_circle_sliding_at_100_m_per_s_along_a_floor_stops_at_the_wall() {
    // Stop-at-impact too: it must not stop the ball at every joint of the chain.
    let cases =
        [false, true].into_iter().flat_map(|c| [(c, ContinuousMode::NoTimeLoss), (c, ContinuousMode::StopAtImpact)]);
    for (chain, mode) in cases {
        let mut w = world(Vec2::new(0.0, -10.0), mode);
        let ground = w.create_body(&BodyDef::fixed(Vec2::ZERO)).unwrap();
        if chain {
            // Clockwise: the solid side faces up and left, toward the ball.
            let mut floor_and_wall = vec![Vec2::new(20.0, 10.0), Vec2::new(20.0, 0.0)];
            floor_and_wall.extend((1..=30).map(|i| Vec2::new(20.0 - 2.0 * i as f32, 0.0)));
            w.create_chain(ground, &ShapeDef::default(), &floor_and_wall, false).unwrap();
        } else {
            w.create_shape(ground, &ShapeDef::default(), &segment(Vec2::new(-40.0, 0.0), Vec2::new(20.0, 0.0)))
                .unwrap();
            w.create_shape(ground, &ShapeDef::default(), &segment(Vec2::new(20.0, 0.0), Vec2::new(20.0, 10.0)))
                .unwrap();
        }
        let start =
            BodyDef { position: Vec2::new(-30.0, 0.5), linear_velocity: Vec2::new(100.0, 0.0), ..BodyDef::default() };
        let ball = body(&mut w, start, &circle(0.5), 0.0, 0.6);
        let mut arrival = None;
        run(&mut w, 120, |w, step| {
            let c = w.world_center(ball).unwrap();
            assert!(c.x < 20.0 - 0.45 && c.y > 0.45, "chain {chain}, step {step}: the ball got through at {c}");
            if c.x > 19.0 && arrival.is_none() {
                arrival = Some(step);
            }
        });
        // 49.5 m at 100 m/s (friction slows it a little): about 30 steps.
        let arrival = arrival.expect("the ball reached the wall");
        println!("chain {chain}, {mode:?}: at the wall at step {arrival}");
        assert!(arrival <= 32, "chain {chain}, {mode:?}: reached the wall at step {arrival}");
    }
}

/// SkinnyBox: a plank 2 m × 5 cm falling at 100 m/s, spinning up to 50 rad/s, onto a thin
/// post standing on the ground.
#[test]
fn a_skinny_spinning_plank_at_100_m_per_s_lands_on_the_post_or_the_ground() {
    for (k, spin) in [0.0f32, 10.0, 25.0, -50.0].into_iter().enumerate() {
        for bullet in [false, true] {
            let mut w = world(Vec2::new(0.0, -10.0), ContinuousMode::NoTimeLoss);
            fixed(&mut w, Vec2::new(0.0, -0.5), &boxed(200.0, 0.5));
            fixed(&mut w, Vec2::new(0.0, 1.0), &boxed(0.05, 1.0));
            let start = BodyDef {
                position: Vec2::new(0.2 * k as f32, 20.0),
                linear_velocity: Vec2::new(0.0, -100.0),
                angular_velocity: spin,
                bullet,
                ..BodyDef::default()
            };
            let plank = body(&mut w, start, &boxed(1.0, 0.025), 0.0, 0.6);
            run(&mut w, 120, |w, step| {
                let xf = w.transform(plank).unwrap();
                // No corner of the plank is below the ground, or inside the post.
                for corner in
                    [Vec2::new(-1.0, -0.025), Vec2::new(1.0, -0.025), Vec2::new(1.0, 0.025), Vec2::new(-1.0, 0.025)]
                {
                    let p = xf.apply(corner);
                    assert!(p.y > -0.02, "spin {spin} bullet {bullet} step {step}: corner {p} under the ground");
                }
                let c = xf.p;
                assert!(c.y > 0.0 && !(c.x.abs() < 0.05 && c.y < 1.95), "spin {spin}, step {step}: plank at {c}");
            });
        }
    }
}

/// Drop, scene 1: a ball at 100 m/s onto a row of small static tiles.
#[test]
fn a_ball_at_100_m_per_s_does_not_pass_a_row_of_small_tiles() {
    let mut w = world(Vec2::new(0.0, -10.0), ContinuousMode::NoTimeLoss);
    for i in 0..40 {
        fixed(&mut w, Vec2::new(-10.0 + 0.5 * i as f32 + 0.25, -0.25), &boxed(0.25, 0.25));
    }
    let mut rng = Lcg(5);
    let mut balls = Vec::new();
    for i in 0..8 {
        let start = BodyDef {
            position: Vec2::new(-8.0 + 2.0 * i as f32 + rng.range(0.0, 0.5), 10.0),
            linear_velocity: Vec2::new(rng.range(-5.0, 5.0), -100.0),
            ..BodyDef::default()
        };
        balls.push(body(&mut w, start, &circle(0.1), 0.5, 0.6));
    }
    run(&mut w, 120, |w, step| {
        for &b in &balls {
            let c = w.world_center(b).unwrap();
            assert!(c.y > 0.0 || c.x.abs() > 10.0, "step {step}: a ball is in the tiles at {c}");
        }
    });
}

/// Drop, scene 4: a fast body (not a bullet, then a bullet) fired into a column of boxes
/// standing before a wall: it never passes the boxes, and no box passes the wall.
#[test]
fn a_fast_body_and_a_bullet_do_not_pass_a_stack_of_boxes_before_a_wall() {
    for bullet in [false, true] {
        let mut w = world(Vec2::new(0.0, -10.0), ContinuousMode::NoTimeLoss);
        fixed(&mut w, Vec2::new(0.0, -0.5), &boxed(40.0, 0.5));
        fixed(&mut w, Vec2::new(10.25, 5.0), &boxed(0.25, 5.0));
        let boxes: Vec<BodyId> = (0..6)
            .map(|i| {
                body(
                    &mut w,
                    BodyDef { position: Vec2::new(9.0, 0.25 + 0.5 * i as f32), ..BodyDef::default() },
                    &boxed(0.25, 0.25),
                    0.0,
                    0.6,
                )
            })
            .collect();
        let start = BodyDef {
            position: Vec2::new(-20.0, 0.9),
            linear_velocity: Vec2::new(200.0, 0.0),
            bullet,
            ..BodyDef::default()
        };
        let shot = body(&mut w, start, &circle(0.1), 0.0, 0.6);
        let mut hit = false;
        run(&mut w, 120, |w, step| {
            let c = w.world_center(shot).unwrap();
            // The shot flies at the height of the second box: it stays left of it.
            let target = w.world_center(boxes[1]).unwrap();
            assert!(c.x < target.x, "bullet {bullet}, step {step}: the shot at {c} passed the box at {target}");
            for &b in &boxes {
                assert!(w.world_center(b).unwrap().x < 10.0, "bullet {bullet}, step {step}: a box passed the wall");
            }
            hit |= w.continuous_stats().impacts > 0;
        });
        assert!(hit);
    }
}

/// Wedge: a circle at 200 m/s into the narrow wedge between two segments.
#[test]
fn a_circle_at_200_m_per_s_stays_inside_a_narrow_wedge() {
    let mut w = world(Vec2::new(0.0, -10.0), ContinuousMode::NoTimeLoss);
    let (tip, left, right) = (Vec2::new(0.0, 0.0), Vec2::new(-1.0, 20.0), Vec2::new(1.0, 20.0));
    let ground = w.create_body(&BodyDef::fixed(Vec2::ZERO)).unwrap();
    w.create_shape(ground, &ShapeDef::default(), &segment(tip, left)).unwrap();
    w.create_shape(ground, &ShapeDef::default(), &segment(tip, right)).unwrap();
    let start =
        BodyDef { position: Vec2::new(0.0, 18.0), linear_velocity: Vec2::new(0.0, -200.0), ..BodyDef::default() };
    let ball = body(&mut w, start, &circle(0.1), 0.0, 0.6);
    run(&mut w, 120, |w, step| {
        let c = w.world_center(ball).unwrap();
        // Inside both sides of the wedge (or above it).
        let inside_left = (left - tip).perp_dot(c - tip) < 0.0;
        let inside_right = (right - tip).perp_dot(c - tip) > 0.0;
        assert!(c.y > 0.0 && inside_left && inside_right || c.y > 20.0, "step {step}: the ball left the wedge at {c}");
    });
}

/// SpeculativeSliver: a thin triangle at 100 m/s onto the ground.
#[test]
fn a_thin_sliver_at_100_m_per_s_lands_on_the_ground() {
    let mut w = world(Vec2::new(0.0, -10.0), ContinuousMode::NoTimeLoss);
    fixed(&mut w, Vec2::new(0.0, -0.005), &boxed(20.0, 0.005));
    let sliver = Polygon::new(&[Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), Vec2::new(1.0, 0.03)], 0.0).unwrap();
    let start =
        BodyDef { position: Vec2::new(0.0, 12.0), linear_velocity: Vec2::new(0.0, -100.0), ..BodyDef::default() };
    let b = body(&mut w, start, &Shape::Polygon(sliver), 0.0, 0.6);
    run(&mut w, 120, |w, step| {
        let xf = w.transform(b).unwrap();
        for v in [Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), Vec2::new(1.0, 0.03)] {
            let p = xf.apply(v);
            assert!(p.y > -0.01, "step {step}: vertex {p} under the ground");
        }
    });
    assert!(w.world_center(b).unwrap().y < 0.1, "it came to rest on the ground");
}
