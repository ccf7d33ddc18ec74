//! Continuous collision under load (issue 17): many bullets into one thin dynamic plate held in
//! a slot, rows of plates at the origin and 10 km from it, thin kinematic pushers at 300 m/s
//! through fields of resting bodies, and kinematic paddles turning at up to 60 rad/s among
//! loose bodies. Every scene is seeded and checked after every step: no body center may cross
//! the mid-line of a thin body within its span (a pass-through), which a check of where bodies
//! end cannot see.

mod continuous_support;

use continuous_support::*;
use impact2d::*;

/// A thin body a check watches: its handle, half its length along its local y (or x when
/// `along_x`), and whether its span is along its local x axis.
#[derive(Clone, Copy)]
struct Thin {
    body: BodyId,
    half_length: f32,
    along_x: bool,
}

impl Thin {
    /// A point in the thin body's frame as (signed distance to the mid-line, place along it).
    fn local(&self, w: &World, p: Vec2) -> (f32, f32) {
        let l = w.transform(self.body).unwrap().inv_apply(p);
        if self.along_x { (l.y, l.x) } else { (l.x, l.y) }
    }
}

/// Counts the bodies of `movers` whose centers crossed the mid-line of one of `thin` between
/// the two states: the sign of the distance changed and the crossing lies within the span
/// (less `margin` at each end, for bodies that go around an end).
fn crossings(w: &World, before: &[Vec<(f32, f32)>], thin: &[Thin], movers: &[BodyId], margin: f32) -> Vec<String> {
    let mut found = Vec::new();
    for (t, plate) in thin.iter().enumerate() {
        for (k, &m) in movers.iter().enumerate() {
            let (d0, s0) = before[t][k];
            let (d1, s1) = plate.local(w, w.world_center(m).unwrap());
            if d0 * d1 < 0.0 {
                let at = s0 + d0 / (d0 - d1) * (s1 - s0);
                if at.abs() < plate.half_length - margin {
                    found.push(format!("body {k} crossed thin body {t}: ({d0}, {s0}) -> ({d1}, {s1})"));
                }
            }
        }
    }
    found
}

/// Steps `steps` times, checking `crossings` after every step; panics on the first.
fn run_checked(w: &mut World, steps: usize, thin: &[Thin], movers: &[BodyId], margin: f32, what: &str) -> u32 {
    let mut impacts = 0;
    for step in 0..steps {
        let before: Vec<Vec<(f32, f32)>> =
            thin.iter().map(|t| movers.iter().map(|&m| t.local(w, w.world_center(m).unwrap())).collect()).collect();
        w.step(DT, SUBSTEPS).unwrap();
        impacts += w.continuous_stats().impacts;
        let found = crossings(w, &before, thin, movers, margin);
        assert!(found.is_empty(), "{what}, step {step}: {} ({:?})", found.join("; "), w.continuous_stats());
        for &m in movers {
            assert!(w.world_center(m).unwrap().is_finite(), "{what}, step {step}: a body left the finite world");
        }
    }
    impacts
}

/// A thin heavy dynamic plate (1 cm by `2 half_length` m, density 50) at `center`, held in a
/// slot by four static posts above and below it: it can slide a few centimeters, not leave.
fn slotted_plate(w: &mut World, center: Vec2, half_length: f32) -> Thin {
    let plate = w.create_body(&BodyDef::dynamic(center)).unwrap();
    let def = ShapeDef { density: 50.0, ..ShapeDef::default() };
    w.create_shape(plate, &def, &boxed(0.005, half_length)).unwrap();
    for (x, y) in [(-0.03, 1.0), (0.03, 1.0), (-0.03, -1.0), (0.03, -1.0)] {
        fixed(w, center + Vec2::new(x, y * (half_length + 0.2)), &boxed(0.02, 0.3));
    }
    Thin { body: plate, half_length, along_x: false }
}

/// `count` small bullets (circles or boxes 2 to 5 cm) fired in +x from 2 to 8 m left of
/// `target` at `speed` m/s (a range), spread over `spread` m in y; `bullet_share` of them
/// flagged bullet, the others plain continuous bodies.
fn volley(
    w: &mut World,
    rng: &mut Lcg,
    target: Vec2,
    count: usize,
    speed: (f32, f32),
    spread: f32,
    bullet_share: f32,
) -> Vec<BodyId> {
    (0..count)
        .map(|k| {
            let position = target + Vec2::new(-rng.range(2.0, 8.0), rng.range(-spread, spread));
            let v = Vec2::new(rng.range(speed.0, speed.1), rng.range(-5.0, 5.0));
            let bullet = rng.next() < bullet_share;
            let def = BodyDef { linear_velocity: v, bullet, ..BodyDef::dynamic(position) };
            let size = rng.range(0.02, 0.05);
            let shape = if k % 3 == 0 { boxed(size, size) } else { circle(size) };
            body(w, def, &shape, rng.range(0.0, 1.0), rng.range(0.0, 0.8))
        })
        .collect()
}

#[test]
fn forty_bullets_into_one_thin_plate_in_a_slot_never_pass_it() {
    // The case (40 bullets at 300-1500 m/s, capped at 400: 18 passed) and seeded
    // variations: 20 to 60 bullets, at the origin and 10 km from it.
    for seed in 0..12u64 {
        let mut rng = Lcg(seed * 7919 + 1);
        let origin = if seed % 2 == 0 { Vec2::ZERO } else { Vec2::new(10_000.0, -7_000.0) };
        let mut w = World::new(&WorldDef { gravity: Vec2::ZERO, ..WorldDef::default() }).unwrap();
        let plate = slotted_plate(&mut w, origin, rng.range(1.0, 2.0));
        let count = [40, 20, 60][seed as usize % 3];
        let shots = volley(&mut w, &mut rng, origin, count, (300.0, 1500.0), plate.half_length - 0.1, 1.0);
        let impacts = run_checked(&mut w, 90, &[plate], &shots, 0.0, &format!("seed {seed}"));
        assert!(impacts >= count as u32, "seed {seed}: {impacts} impacts for {count} bullets");
    }
}

#[test]
fn sixty_bodies_into_three_plates_in_slots_pass_none_near_or_far_from_the_origin() {
    // Three parallel plates 0.5 m apart; 60 small bodies at 120-400 m/s, two thirds bullets
    // (the issue: 24 of 60 passed the first plate, 30 of 60 at 10 km).
    for seed in 0..8u64 {
        let mut rng = Lcg(seed * 104_729 + 3);
        let origin = if seed % 2 == 0 { Vec2::ZERO } else { Vec2::new(-10_000.0, 10_000.0) };
        let mut w = World::new(&WorldDef { gravity: Vec2::ZERO, ..WorldDef::default() }).unwrap();
        let plates: Vec<Thin> =
            (0..3).map(|i| slotted_plate(&mut w, origin + Vec2::new(0.5 * i as f32, 0.0), 1.5)).collect();
        let shots = volley(&mut w, &mut rng, origin, 60, (120.0, 400.0), 1.3, 2.0 / 3.0);
        run_checked(&mut w, 90, &plates, &shots, 0.0, &format!("seed {seed}"));
    }
}

/// A closed box of static walls 0.5 m thick around the inside `±half` about `center`.
fn arena(w: &mut World, center: Vec2, half: Vec2) {
    let t = 0.25;
    for (offset, hx, hy) in [
        (Vec2::new(0.0, -half.y - t), half.x + 2.0 * t, t),
        (Vec2::new(0.0, half.y + t), half.x + 2.0 * t, t),
        (Vec2::new(-half.x - t, 0.0), t, half.y + 2.0 * t),
        (Vec2::new(half.x + t, 0.0), t, half.y + 2.0 * t),
    ] {
        fixed(w, center + offset, &boxed(hx, hy));
    }
}

/// `count` loose balls and boxes (10 to 15 cm) at places `place` picks.
fn field(w: &mut World, rng: &mut Lcg, count: usize, mut place: impl FnMut(&mut Lcg) -> Vec2) -> Vec<BodyId> {
    (0..count)
        .map(|k| {
            let position = place(rng);
            let size = rng.range(0.1, 0.15);
            let shape = if k % 2 == 0 { circle(size) } else { boxed(size, size) };
            body(w, BodyDef::dynamic(position), &shape, rng.range(0.0, 0.5), rng.range(0.2, 0.8))
        })
        .collect()
}

#[test]
fn a_kinematic_plate_at_300_m_per_s_pushes_a_field_of_resting_bodies_instead_of_passing_them() {
    // Before kinematic bodies were swept, such a plate passed through most of the field.
    for seed in 0..8u64 {
        let mut rng = Lcg(seed * 31 + 5);
        let origin = if seed % 2 == 0 { Vec2::ZERO } else { Vec2::new(12_000.0, 3_000.0) };
        let mut w = World::new(&WorldDef::default()).unwrap();
        // A long arena: the bodies the plate sends flying ahead of it must not be pinned
        // against the far wall within the test (a kinematic body crushes what it pins).
        arena(&mut w, origin + Vec2::new(50.0, 5.0), Vec2::new(60.0, 5.0));
        let bodies = field(&mut w, &mut rng, 40, |r| origin + Vec2::new(r.range(-6.0, 6.0), r.range(0.2, 1.6)));
        let speed = rng.range(100.0, 300.0);
        let def = BodyDef {
            body_type: BodyType::Kinematic,
            linear_velocity: Vec2::new(speed, 0.0),
            ..BodyDef::dynamic(origin + Vec2::new(-9.0, 1.5))
        };
        let pusher = w.create_body(&def).unwrap();
        w.create_shape(pusher, &ShapeDef::default(), &boxed(0.005, 1.5)).unwrap();
        // Until the plate has swept 40 m, through the field and past it.
        let steps = (40.0 / (speed * DT)) as usize;
        let thin = Thin { body: pusher, half_length: 1.5, along_x: false };
        let impacts = run_checked(&mut w, steps, &[thin], &bodies, 0.0, &format!("seed {seed}"));
        assert!(impacts > 20, "seed {seed}: {impacts} impacts");
    }
}

#[test]
fn kinematic_paddles_turning_up_to_60_rad_per_s_pass_no_loose_body() {
    // A 5.5 m bar (10 cm thick) turning about its middle among 40 loose bodies in a closed box
    // without gravity: the paddle, and faster ones.
    for seed in 0..6u64 {
        let mut rng = Lcg(seed * 17 + 11);
        let origin = if seed % 3 == 2 { Vec2::new(-9_000.0, 15_000.0) } else { Vec2::ZERO };
        let mut w = World::new(&WorldDef { gravity: Vec2::ZERO, ..WorldDef::default() }).unwrap();
        arena(&mut w, origin + Vec2::new(0.0, 5.0), Vec2::new(10.0, 5.0));
        let hub = origin + Vec2::new(0.0, 5.0);
        let bodies = field(&mut w, &mut rng, 40, |r| {
            loop {
                let p = hub + Vec2::new(r.range(-4.0, 4.0), r.range(-3.0, 3.0));
                if (p.y - hub.y).abs() > 0.3 {
                    break p;
                }
            }
        });
        let spin = [25.0, 40.0, 60.0][seed as usize % 3] * if seed % 2 == 0 { 1.0 } else { -1.0 };
        let def = BodyDef { body_type: BodyType::Kinematic, angular_velocity: spin, ..BodyDef::dynamic(hub) };
        let paddle = w.create_body(&def).unwrap();
        w.create_shape(paddle, &ShapeDef::default(), &boxed(2.75, 0.05)).unwrap();
        let thin = Thin { body: paddle, half_length: 2.75, along_x: true };
        // Between two steps the bar turns up to 1 rad: a body near a tip may go around it, and
        // the straight line between its two places in the bar's frame is no guide there.
        let margin = 0.4;
        let impacts = run_checked(&mut w, 300, &[thin], &bodies, margin, &format!("seed {seed}, {spin} rad/s"));
        assert!(impacts > 50, "seed {seed}: {impacts} impacts");
    }
}

/// The largest x (relative to `origin`) of a box body's corners, for a box of half-sizes `half`.
fn corner_reach(w: &World, b: BodyId, half: Vec2, origin: Vec2) -> f32 {
    let xf = w.transform(b).unwrap();
    [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
        .iter()
        .map(|&(sx, sy)| (xf.apply(Vec2::new(sx * half.x, sy * half.y)) - origin).x)
        .fold(f32::MIN, f32::max)
}

#[test]
fn spinning_plates_thrown_at_a_thin_wall_never_swing_a_tip_through_it() {
    // A plate that hits a wall with one tip bounces off it spinning: the rest of its step must
    // still find the other tip (or the same one coming round), which turns toward the wall.
    // Before the fix a touching pair was only tried with the plate's core (half its length),
    // and the other tip swung through the wall. Every corner is checked after every step: none
    // may be past the wall's far face.
    let mut hit_seeds = 0;
    for seed in 0..160u64 {
        let mut rng = Lcg(seed * 2_654_435_761 + 17);
        let origin = if seed % 3 == 2 { Vec2::new(12_000.0, -7_000.0) } else { Vec2::ZERO };
        let mut w = World::new(&WorldDef { gravity: Vec2::ZERO, ..WorldDef::default() }).unwrap();
        let wall = ShapeDef { restitution: rng.range(0.0, 1.0), friction: rng.range(0.0, 1.0), ..ShapeDef::default() };
        let wall_body = w.create_body(&BodyDef::fixed(origin)).unwrap();
        w.create_shape(wall_body, &wall, &boxed(0.005, 20.0)).unwrap();
        let half = Vec2::new(rng.range(0.25, 1.5), 0.005);
        let def = BodyDef {
            angle: rng.range(-3.0, 3.0),
            linear_velocity: Vec2::new(rng.range(5.0, 30.0), rng.range(-5.0, 5.0)),
            angular_velocity: rng.range(30.0, 200.0) * if rng.next() < 0.5 { -1.0 } else { 1.0 },
            ..BodyDef::dynamic(origin + Vec2::new(-half.x - rng.range(0.05, 1.0), rng.range(-3.0, 3.0)))
        };
        let plate = w.create_body(&def).unwrap();
        let shape = ShapeDef {
            density: rng.range(1.0, 50.0),
            restitution: rng.range(0.0, 1.0),
            friction: rng.range(0.0, 1.0),
            ..ShapeDef::default()
        };
        w.create_shape(plate, &shape, &boxed(half.x, half.y)).unwrap();
        let mut hits = 0;
        run(&mut w, 45, |w, step| {
            hits += w.continuous_stats().impacts;
            let reach = corner_reach(w, plate, half, origin);
            assert!(reach < 0.005, "seed {seed}, step {step}: a corner is {reach} m past the wall's middle");
        });
        hit_seeds += u32::from(hits > 0);
    }
    // Every plate reaches the wall fast enough for continuous collision to see it.
    assert_eq!(hit_seeds, 160);
}
