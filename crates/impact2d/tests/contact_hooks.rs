//! Contact hooks and filters: the custom pair filter, pre-solve, the filter's group index,
//! and body move events.

use std::sync::Arc;

use impact2d::{
    BodyDef, BodyId, Circle, ContactHooks, Filter, Manifold, Shape, ShapeDef, ShapeId, Vec2, World, WorldDef, make_box,
};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

const DT: f32 = 1.0 / 60.0;
const GROUND: u64 = 1000;

fn ground(world: &mut World, y: f32, half_width: f32, half_height: f32, user_data: u64) -> ShapeId {
    let body = world.create_body(&BodyDef::fixed(Vec2::new(0.0, y))).unwrap();
    let def = ShapeDef { user_data, ..ShapeDef::default() };
    world.create_shape(body, &def, &Shape::Polygon(make_box(half_width, half_height).unwrap())).unwrap()
}

fn falling_box(world: &mut World, p: Vec2, v: Vec2, half: f32, user_data: u64, filter: Filter) -> (BodyId, ShapeId) {
    let body = world.create_body(&BodyDef { linear_velocity: v, user_data, ..BodyDef::dynamic(p) }).unwrap();
    let def = ShapeDef { user_data, filter, ..ShapeDef::default() };
    let shape = world.create_shape(body, &def, &Shape::Polygon(make_box(half, half).unwrap())).unwrap();
    (body, shape)
}

/// Refuses the ground with odd boxes and odd boxes with each other.
struct OddFilter;

impl OddFilter {
    fn allows(world: &World, a: ShapeId, b: ShapeId) -> bool {
        let (ua, ub) = (world.shape_user_data(a).unwrap(), world.shape_user_data(b).unwrap());
        let odd = |u: u64| u != GROUND && u % 2 == 1;
        !((ua == GROUND && odd(ub)) || (ub == GROUND && odd(ua)) || (odd(ua) && odd(ub)))
    }
}

impl ContactHooks for OddFilter {
    fn should_collide(&self, world: &World, a: ShapeId, b: ShapeId) -> bool {
        assert!(a < b, "the smaller handle first");
        OddFilter::allows(world, a, b)
    }
}

#[test]
fn a_refused_pair_has_no_contact_and_no_events() {
    for seed in 0..24u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut world = World::new(&WorldDef::default()).unwrap();
        world.set_contact_hooks(Some(Arc::new(OddFilter)));
        ground(&mut world, 0.0, 40.0, 0.5, GROUND);
        let mut boxes = Vec::new();
        for i in 1..=8u64 {
            let x = -16.0 + 4.0 * i as f32;
            // Some fast (continuous collision must not stop the refused ones either).
            let speed = if rng.random_range(0.0f32..1.0) < 0.4 { rng.random_range(30.0f32..80.0) } else { 0.0 };
            let p = Vec2::new(x, rng.random_range(2.0f32..6.0));
            // Two boxes in each column: an odd one above an even one, the pairs refused or not.
            boxes.push((falling_box(&mut world, p, Vec2::new(0.0, -speed), 0.4, i, Filter::default()), i));
        }
        for step in 0..180 {
            world.step(DT, 4).unwrap();
            for e in world.contact_begin_events() {
                assert!(OddFilter::allows(&world, e.shape_a, e.shape_b), "seed {seed} step {step}: {e:?}");
            }
            for e in world.contact_hit_events() {
                assert!(OddFilter::allows(&world, e.shape_a, e.shape_b), "seed {seed} step {step}: {e:?}");
            }
            for e in world.impact_events() {
                assert!(OddFilter::allows(&world, e.shape_a, e.shape_b), "seed {seed} step {step}: {e:?}");
            }
            for &((body, _), _) in &boxes {
                for c in world.body_contacts(body).unwrap() {
                    assert!(OddFilter::allows(&world, c.shape_a, c.shape_b), "seed {seed}: a refused contact");
                }
            }
        }
        for &((body, _), i) in &boxes {
            let y = world.position(body).unwrap().y;
            if i % 2 == 1 {
                assert!(y < -5.0, "seed {seed}: box {i} went through the ground: {y}");
            } else {
                assert!((y - 0.9).abs() < 0.05, "seed {seed}: box {i} rests on the ground: {y}");
            }
        }
    }
}

#[test]
fn a_refused_pair_is_asked_again_after_its_filter_is_reset() {
    struct Refuse(std::sync::atomic::AtomicBool);
    impl ContactHooks for Refuse {
        fn should_collide(&self, _: &World, _: ShapeId, _: ShapeId) -> bool {
            !self.0.load(std::sync::atomic::Ordering::Relaxed)
        }
    }
    let hooks = Arc::new(Refuse(true.into()));
    let mut world = World::new(&WorldDef::default()).unwrap();
    world.set_contact_hooks(Some(hooks.clone()));
    let g = ground(&mut world, 0.0, 20.0, 0.5, GROUND);
    let (body, _) = falling_box(&mut world, Vec2::new(0.0, 0.95), Vec2::ZERO, 0.5, 1, Filter::default());
    world.step(DT, 4).unwrap();
    assert!(world.body_contacts(body).unwrap().is_empty());
    // A new answer takes effect once the pair is found again.
    hooks.0.store(false, std::sync::atomic::Ordering::Relaxed);
    world.set_shape_filter(g, Filter::default()).unwrap();
    world.step(DT, 4).unwrap();
    assert_eq!(world.contact_begin_events().len(), 1);
    for _ in 0..60 {
        world.step(DT, 4).unwrap();
    }
    assert!((world.position(body).unwrap().y - 1.0).abs() < 0.02);
    world.set_contact_hooks(None);
    assert!(world.contact_hooks().is_none());
}

/// Disables every contact with the platform (user data 7).
struct NoPlatform;

impl ContactHooks for NoPlatform {
    fn pre_solve(&self, world: &World, a: ShapeId, b: ShapeId, manifold: &Manifold) -> bool {
        assert!(a < b && manifold.count > 0);
        world.shape_user_data(a).unwrap() != 7 && world.shape_user_data(b).unwrap() != 7
    }
}

#[test]
fn a_box_falls_through_a_platform_whose_contacts_are_disabled() {
    for seed in 0..30u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(100 + seed);
        let speed = match seed % 3 {
            0 => 0.0,
            1 => rng.random_range(5.0f32..20.0),
            _ => rng.random_range(30.0f32..80.0),
        };
        let mut run = |hooked: bool| {
            let mut world = World::new(&WorldDef::default()).unwrap();
            if hooked {
                world.set_contact_hooks(Some(Arc::new(NoPlatform)));
            }
            let platform = ground(&mut world, 0.0, 3.0, rng.random_range(0.02f32..0.2), 7);
            ground(&mut world, -20.0, 20.0, 0.5, GROUND);
            let x = rng.random_range(-2.0f32..2.0);
            let (body, shape) =
                falling_box(&mut world, Vec2::new(x, 3.0), Vec2::new(0.0, -speed), 0.3, 1, Filter::default());
            let mut begun = false;
            for _ in 0..240 {
                world.step(DT, 4).unwrap();
                let touches = |a: ShapeId, b: ShapeId| (a, b) == (platform.min(shape), platform.max(shape));
                begun |= world.contact_begin_events().iter().any(|e| touches(e.shape_a, e.shape_b));
                begun |= world.impact_events().iter().any(|e| touches(e.shape_a, e.shape_b));
            }
            (world.position(body).unwrap().y, begun)
        };
        let (y, begun) = run(true);
        assert!(!begun, "seed {seed} ({speed} m/s): a disabled contact was reported or stopped the box");
        assert!((y - (-19.2)).abs() < 0.05, "seed {seed} ({speed} m/s): the box rests on the ground below: {y}");
        let (y, begun) = run(false);
        assert!(begun && y > 0.0, "seed {seed} ({speed} m/s): without the hook the platform holds it: {y}");
    }
}

#[test]
fn group_index_rules() {
    let f = |category: u64, mask: u64, group: i32| Filter::new(category, mask).with_group(group);
    // Same positive group: always, even when the bits refuse.
    assert!(f(1, 0, 3).should_pair(&f(2, 0, 3)));
    assert!(f(1, u64::MAX, 3).should_pair(&f(1, u64::MAX, 3)));
    // Same negative group: never, even when the bits allow.
    assert!(!f(1, u64::MAX, -3).should_pair(&f(1, u64::MAX, -3)));
    assert!(!f(1, 0, -3).should_pair(&f(2, 0, -3)));
    // Different groups, or a zero group: the bits decide.
    for (ga, gb) in [(0, 0), (0, 3), (3, 0), (0, -3), (-3, 0), (3, 4), (-3, -4), (3, -3), (-3, 3)] {
        assert!(f(1, u64::MAX, ga).should_pair(&f(1, u64::MAX, gb)), "{ga} {gb}");
        assert!(!f(1, 2, ga).should_pair(&f(1, u64::MAX, gb)), "{ga} {gb}");
        assert!(!f(1, u64::MAX, ga).should_pair(&f(4, 2, gb)), "{ga} {gb}");
    }
    // Symmetric, on random filters.
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for _ in 0..10_000 {
        let mut draw = || f(1 << rng.random_range(0..3), rng.random_range(0..8u64), rng.random_range(-2..3));
        let (a, b) = (draw(), draw());
        assert_eq!(a.should_pair(&b), b.should_pair(&a));
        let expected = if a.group_index == b.group_index && a.group_index != 0 {
            a.group_index > 0
        } else {
            a.category_bits & b.mask_bits != 0 && b.category_bits & a.mask_bits != 0
        };
        assert_eq!(a.should_pair(&b), expected, "{a:?} {b:?}");
    }
    assert_eq!(Filter::default().group_index, 0);
}

#[test]
fn groups_decide_which_boxes_stack() {
    // A box dropped onto another resting one: (filter of the lower, filter of the upper,
    // whether it lands on it).
    let cases = [
        (Filter::default(), Filter::default(), true),
        (Filter::default().with_group(-1), Filter::default().with_group(-1), false),
        (Filter::new(2, 1).with_group(5), Filter::new(4, 1).with_group(5), true),
        (Filter::new(2, 1), Filter::new(4, 1), false),
        (Filter::new(2, 1 | 4).with_group(-1), Filter::new(4, 1 | 2).with_group(-2), true),
        (Filter::new(2, 1).with_group(1), Filter::new(4, 1).with_group(2), false),
    ];
    for (i, (lower, upper, lands)) in cases.into_iter().enumerate() {
        let mut world = World::new(&WorldDef::default()).unwrap();
        ground(&mut world, 0.0, 20.0, 0.5, GROUND);
        let (a, _) = falling_box(&mut world, Vec2::new(0.0, 1.0), Vec2::ZERO, 0.5, 1, lower);
        let (b, _) = falling_box(&mut world, Vec2::new(0.0, 4.0), Vec2::new(0.0, -5.0), 0.5, 2, upper);
        for _ in 0..180 {
            world.step(DT, 4).unwrap();
        }
        let (ya, yb) = (world.position(a).unwrap().y, world.position(b).unwrap().y);
        assert!((ya - 1.0).abs() < 0.03, "case {i}: the lower box rests on the ground: {ya}");
        let expected = if lands { 2.0 } else { 1.0 };
        assert!((yb - expected).abs() < 0.05, "case {i}: the upper box at {yb}, expected {expected}");
    }
}

#[test]
fn move_events_list_the_moved_bodies() {
    for seed in 0..12u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(300 + seed);
        let build = |rng: &mut ChaCha8Rng| {
            let mut world = World::new(&WorldDef::default()).unwrap();
            ground(&mut world, 0.0, 40.0, 0.5, GROUND);
            let mut bodies = Vec::new();
            for i in 0..10u64 {
                let p = Vec2::new(-18.0 + 4.0 * i as f32, rng.random_range(1.0f32..5.0));
                let awake = rng.random_range(0.0f32..1.0) < 0.7;
                let def = BodyDef { awake, user_data: 10 + i, ..BodyDef::dynamic(p) };
                let body = world.create_body(&def).unwrap();
                let shape = Shape::Circle(Circle::new(Vec2::ZERO, 0.3).unwrap());
                world.create_shape(body, &ShapeDef::default(), &shape).unwrap();
                bodies.push(body);
            }
            let k = BodyDef {
                linear_velocity: Vec2::new(1.0, 0.0),
                user_data: 99,
                ..BodyDef::kinematic(Vec2::new(0.0, 20.0))
            };
            let kinematic = world.create_body(&k).unwrap();
            bodies.push(kinematic);
            (world, bodies)
        };
        let (mut world, bodies) = build(&mut rng.clone());
        let (mut twin, _) = build(&mut rng);
        assert!(world.body_move_events().is_empty());
        let mut fell_asleep = 0;
        for step in 0..300 {
            let awake_before: Vec<BodyId> = bodies.iter().copied().filter(|&b| world.is_awake(b).unwrap()).collect();
            world.step(DT, 4).unwrap();
            twin.step(DT, 4).unwrap();
            let events = world.body_move_events();
            assert_eq!(events, twin.body_move_events(), "seed {seed} step {step}: deterministic");
            // Exactly the bodies awake in the step, in handle order.
            let listed: Vec<BodyId> = events.iter().map(|e| e.body).collect();
            let mut expected = awake_before.clone();
            expected.sort();
            assert_eq!(listed, expected, "seed {seed} step {step}");
            for e in events {
                assert_eq!(e.transform, world.transform(e.body).unwrap());
                assert_eq!(e.user_data, world.body_user_data(e.body).unwrap());
                assert_eq!(e.fell_asleep, !world.is_awake(e.body).unwrap());
                fell_asleep += usize::from(e.fell_asleep);
            }
        }
        assert!(fell_asleep > 0, "seed {seed}: the balls came to rest and fell asleep");
    }
}
