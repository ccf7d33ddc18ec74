//! Issue 22: world snapshots. A loaded snapshot steps bit for bit as the world it was saved
//! from (the state checksum at every step, and the whole state at the end); a damaged,
//! cut or foreign snapshot is an error that says what is wrong; handles carry over.
//!
//! Random worlds: bodies of every shape kind, bullets, sensors, joints, bodies created and
//! destroyed mid-run and islands asleep; saved at a random step and continued. The built-in
//! scenes are checked the same way through the command (`impact-cli/tests/snapshots.rs`).

use impact2d::*;
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

const DT: f32 = 1.0 / 60.0;

/// A random shape about `size` meters across.
fn random_shape(rng: &mut ChaCha8Rng, size: f32) -> Shape {
    match rng.random_range(0..4) {
        0 => Shape::Circle(Circle::new(Vec2::ZERO, 0.5 * size).unwrap()),
        1 => Shape::Polygon(make_box(0.5 * size, rng.random_range(0.1..0.5) * size).unwrap()),
        2 => Shape::Capsule(Capsule::new(Vec2::new(-0.3 * size, 0.0), Vec2::new(0.3 * size, 0.0), 0.2 * size).unwrap()),
        _ => {
            let points: Vec<Vec2> = (0..6)
                .map(|k| {
                    let a = k as f32 * std::f32::consts::TAU / 6.0 + rng.random_range(-0.2..0.2);
                    0.5 * size * rng.random_range(0.6..1.0) * Vec2::new(a.cos(), a.sin())
                })
                .collect();
            Shape::Polygon(Polygon::new(&points, rng.random_range(0.0..0.05)).unwrap())
        }
    }
}

/// A dynamic body with a random shape dropped somewhere above the floor.
fn drop_body(world: &mut World, rng: &mut ChaCha8Rng) -> BodyId {
    let mut def = BodyDef::dynamic(Vec2::new(rng.random_range(-8.0..8.0), rng.random_range(1.0..12.0)));
    def.angular_velocity = rng.random_range(-3.0..3.0);
    if rng.random_bool(0.15) {
        def.bullet = true;
        def.linear_velocity = Vec2::new(rng.random_range(-80.0..80.0), rng.random_range(-80.0..0.0));
    }
    let body = world.create_body(&def).unwrap();
    let size = rng.random_range(0.3..1.2);
    let shape = random_shape(rng, size);
    world.create_shape(body, &ShapeDef::default(), &shape).unwrap();
    body
}

/// A box of static walls with a thin shelf, a sensor, and `n` dynamic bodies, some jointed.
fn random_world(seed: u64, n: usize) -> (World, Vec<BodyId>, ChaCha8Rng) {
    random_world_with(&WorldDef::default(), seed, n)
}

fn random_world_with(def: &WorldDef, seed: u64, n: usize) -> (World, Vec<BodyId>, ChaCha8Rng) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut world = World::new(def).unwrap();
    let walls = world.create_body(&BodyDef::fixed(Vec2::ZERO)).unwrap();
    for (hx, hy, x, y) in
        [(10.0, 0.5, 0.0, -0.5), (0.5, 10.0, -10.5, 9.0), (0.5, 10.0, 10.5, 9.0), (3.0, 0.005, 2.0, 4.0)]
    {
        let part = make_offset_box(hx, hy, Vec2::new(x, y), 0.0).unwrap();
        world.create_shape(walls, &ShapeDef::default(), &Shape::Polygon(part)).unwrap();
    }
    let sensor = ShapeDef { sensor: true, ..ShapeDef::default() };
    world.create_shape(walls, &sensor, &Shape::Circle(Circle::new(Vec2::new(-4.0, 3.0), 1.5).unwrap())).unwrap();
    let bodies: Vec<BodyId> = (0..n).map(|_| drop_body(&mut world, &mut rng)).collect();
    for pair in bodies.chunks(2).take(n / 4) {
        let anchor = world.position(pair[0]).unwrap();
        let def = JointDef::new(pair[0], pair[1], JointKind::Revolute(RevoluteDef::new(anchor)));
        world.create_joint(&def).unwrap();
    }
    (world, bodies, rng)
}

/// Steps the world once, after destroying or creating a body now and then (drawn from `rng`).
fn churn_step(world: &mut World, bodies: &mut Vec<BodyId>, rng: &mut ChaCha8Rng) {
    if rng.random_bool(0.03) && !bodies.is_empty() {
        let gone = bodies.swap_remove(rng.random_range(0..bodies.len()));
        world.destroy_body(gone).unwrap();
    }
    if rng.random_bool(0.03) {
        bodies.push(drop_body(world, rng));
    }
    world.step(DT, 4).unwrap();
}

/// Saves the random world `seed` after `save_at` steps, loads it, and runs both on for
/// `steps` steps with the same churn: the checksums agree at every step, and the whole
/// states at the end.
fn check_continuation(seed: u64, n: usize, save_at: usize, steps: usize) {
    let (mut world, mut bodies, mut rng) = random_world(seed, n);
    for _ in 0..save_at {
        churn_step(&mut world, &mut bodies, &mut rng);
    }
    let snapshot = world.save_snapshot();
    let mut loaded = World::load_snapshot(&snapshot).unwrap();
    assert!(loaded.save_snapshot() == snapshot, "seed {seed}: a loaded world saves the same bytes");
    let mut loaded_bodies: Vec<BodyId> = bodies.iter().map(|&b| loaded.adopt(b).unwrap()).collect();
    let mut loaded_rng = rng.clone();
    for step in 0..steps {
        churn_step(&mut world, &mut bodies, &mut rng);
        churn_step(&mut loaded, &mut loaded_bodies, &mut loaded_rng);
        assert_eq!(
            world.state_checksum(),
            loaded.state_checksum(),
            "seed {seed}: saved at step {save_at}, differs {} steps later",
            step + 1
        );
    }
    assert!(
        world.save_snapshot() == loaded.save_snapshot(),
        "seed {seed}: the whole states differ after {steps} steps"
    );
}

#[test]
fn a_loaded_world_continues_bit_for_bit_on_named_cases() {
    // Before the first step, mid-fall with bullets flying, and at rest with islands asleep.
    for (seed, save_at) in [(1, 0), (2, 17), (3, 240)] {
        check_continuation(seed, 24, save_at, 300);
    }
}

#[test]
fn a_world_asleep_at_the_save_wakes_the_same_way() {
    let (mut world, _, _) = random_world(7, 12);
    for _ in 0..400 {
        world.step(DT, 4).unwrap();
    }
    let asleep = world.awake_body_count();
    let mut loaded = World::load_snapshot(&world.save_snapshot()).unwrap();
    assert_eq!(loaded.awake_body_count(), asleep);
    // A ball dropped into both wakes what it lands on, the same in both.
    for w in [&mut world, &mut loaded] {
        let ball = w.create_body(&BodyDef::dynamic(Vec2::new(0.0, 15.0))).unwrap();
        w.create_shape(ball, &ShapeDef::default(), &Shape::Circle(Circle::new(Vec2::ZERO, 0.4).unwrap())).unwrap();
    }
    for _ in 0..200 {
        world.step(DT, 4).unwrap();
        loaded.step(DT, 4).unwrap();
        assert_eq!(world.state_checksum(), loaded.state_checksum());
        assert_eq!(world.awake_body_count(), loaded.awake_body_count());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Random worlds saved at a random step continue bit for bit for 300 steps.
    #[test]
    fn random_worlds_continue_bit_for_bit(seed in 0u64..1_000_000, n in 4usize..30, save_at in 0usize..150) {
        check_continuation(seed, n, save_at, 300);
    }
}

/// A small world's snapshot, after some steps (contacts, warm starts and events in it).
fn small_snapshot() -> Vec<u8> {
    snapshot_of(11, 6, 30)
}

/// The snapshot of random world `seed` of `n` bodies after `steps` steps.
fn snapshot_of(seed: u64, n: usize, steps: usize) -> Vec<u8> {
    let (mut world, _, _) = random_world(seed, n);
    for _ in 0..steps {
        world.step(DT, 4).unwrap();
    }
    world.save_snapshot()
}

#[test]
fn every_cut_of_a_snapshot_is_refused() {
    let bytes = small_snapshot();
    for len in 0..bytes.len() {
        let error = World::load_snapshot(&bytes[..len]).err().unwrap_or_else(|| panic!("cut at {len} loaded"));
        let expected = if len < 17 { "not an impact2d snapshot" } else { "truncated or extended" };
        assert!(error.to_string().contains(expected), "cut at {len}: {error}");
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(World::load_snapshot(&longer), Err(SnapshotError::WrongLength { .. })));
}

#[test]
fn every_changed_byte_of_a_snapshot_is_refused() {
    // Worlds of 6, 12 and 24 bodies, before the first step and after 30 and 120.
    for (seed, n, steps) in [(11, 6, 30), (12, 12, 0), (13, 24, 120)] {
        every_changed_byte_is_refused(&snapshot_of(seed, n, steps));
    }
}

fn every_changed_byte_is_refused(bytes: &[u8]) {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for at in 0..bytes.len() {
        let mut edited = bytes.to_vec();
        edited[at] ^= 1 << rng.random_range(0..8);
        match World::load_snapshot(&edited) {
            Err(SnapshotError::Corrupted { .. }) => {
                assert!(at >= 29, "byte {at}: the header's checksum or the payload")
            }
            Err(SnapshotError::NotASnapshot) => assert!(at < 17),
            Err(SnapshotError::UnsupportedVersion { .. }) => assert!((17..21).contains(&at)),
            Err(SnapshotError::WrongLength { .. }) => assert!((21..29).contains(&at)),
            Err(other) => panic!("byte {at}: unexpected error {other}"),
            Ok(_) => panic!("byte {at} changed, and the snapshot still loaded"),
        }
    }
}

#[test]
fn a_snapshot_of_another_version_names_both_versions() {
    let mut bytes = small_snapshot();
    bytes[17..21].copy_from_slice(&(SNAPSHOT_VERSION + 1).to_le_bytes());
    let error = World::load_snapshot(&bytes).unwrap_err();
    assert_eq!(error, SnapshotError::UnsupportedVersion { found: SNAPSHOT_VERSION + 1, supported: SNAPSHOT_VERSION });
    assert_eq!(
        error.to_string(),
        format!(
            "snapshot format version {}, but this build reads version {SNAPSHOT_VERSION} only",
            SNAPSHOT_VERSION + 1
        )
    );
}

#[test]
fn a_payload_that_passes_its_checksum_but_not_the_decoder_is_refused() {
    // A payload cut short, with its header's length and checksum made to match.
    let bytes = small_snapshot();
    let payload = &bytes[37..bytes.len() / 2];
    let mut forged = bytes[..37].to_vec();
    forged[21..29].copy_from_slice(&(payload.len() as u64).to_le_bytes());
    let checksum =
        payload.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    forged[29..37].copy_from_slice(&checksum.to_le_bytes());
    forged.extend_from_slice(payload);
    assert!(matches!(World::load_snapshot(&forged), Err(SnapshotError::Decode(_))));
}

#[test]
fn handles_carry_over_to_the_loaded_world() {
    let (mut world, bodies, _) = random_world(3, 8);
    // Step until a contact begins, so the loaded world holds events with handles.
    while world.contact_begin_events().is_empty() {
        world.step(DT, 4).unwrap();
    }
    let loaded = World::load_snapshot(&world.save_snapshot()).unwrap();
    // The events are the loaded world's own: their handles work on it.
    for event in loaded.contact_begin_events() {
        assert!(loaded.shape_body(event.shape_a).is_ok() && loaded.shape_body(event.shape_b).is_ok());
    }
    assert_eq!(loaded.contact_begin_events(), world.contact_begin_events());
    // A handle of the saved world is foreign to the loaded one until adopted.
    let old = bodies[0];
    assert!(matches!(loaded.position(old), Err(WorldError::ForeignHandle { .. })));
    let adopted = loaded.adopt(old).unwrap();
    assert_eq!(adopted, old);
    assert_eq!(loaded.position(adopted).unwrap().to_array(), world.position(old).unwrap().to_array());
    // A destroyed body's handle is stale in both.
    let mut world = world;
    world.destroy_body(old).unwrap();
    let loaded = World::load_snapshot(&world.save_snapshot()).unwrap();
    assert!(matches!(loaded.adopt(old), Err(WorldError::StaleHandle { .. })));
}

#[test]
fn handles_read_beside_a_snapshot_bind_to_the_loaded_world() {
    let (world, bodies, _) = random_world(4, 5);
    let mover = CharacterMover::new(&MoverDef::default(), Vec2::new(0.0, 2.0)).unwrap();
    let saved = to_json(&(bodies.clone(), mover.clone()));
    let loaded = World::load_snapshot(&world.save_snapshot()).unwrap();
    let (read, _mover): (Vec<BodyId>, CharacterMover) = loaded.bind_handles(|| from_json(&saved));
    for (&id, &old) in read.iter().zip(&bodies) {
        assert_eq!(loaded.position(id).unwrap(), world.position(old).unwrap());
    }
    // Outside `bind_handles` they belong to no world.
    let (unbound, _): (Vec<BodyId>, CharacterMover) = from_json(&saved);
    assert!(matches!(loaded.position(unbound[0]), Err(WorldError::ForeignHandle { .. })));
}

/// Handles through serde: JSON stands in for the user's own format.
fn to_json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap()
}

fn from_json<T: serde::de::DeserializeOwned>(text: &str) -> T {
    serde_json::from_str(text).unwrap()
}

#[test]
fn the_snapshot_layout_is_pinned() {
    // A world made by a few calls and never stepped: its bytes change when the world's stored
    // state changes shape (or what creation computes). If this fails, raise SNAPSHOT_VERSION
    // when the shape changed (old snapshots must be refused, not misread), and pin anew.
    let mut world = World::new(&WorldDef::default()).unwrap();
    let ground = world.create_body(&BodyDef::fixed(Vec2::ZERO)).unwrap();
    world.create_shape(ground, &ShapeDef::default(), &Shape::Polygon(make_box(5.0, 0.5).unwrap())).unwrap();
    let ball = world.create_body(&BodyDef::dynamic(Vec2::new(0.0, 2.0))).unwrap();
    world.create_shape(ball, &ShapeDef::default(), &Shape::Circle(Circle::new(Vec2::ZERO, 0.5).unwrap())).unwrap();
    world
        .create_joint(&JointDef::new(ground, ball, JointKind::Revolute(RevoluteDef::new(Vec2::new(0.0, 3.0)))))
        .unwrap();
    let bytes = world.save_snapshot();
    let hash = bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    assert_eq!((SNAPSHOT_VERSION, bytes.len(), hash), (2, 1317, 10130410407507574664));
}

#[test]
fn a_step_without_profiling_reads_no_clock_and_gives_the_same_results() {
    let run = |profiling: bool| {
        let def = WorldDef { enable_profiling: profiling, ..WorldDef::default() };
        let (mut world, _, _) = random_world_with(&def, 9, 20);
        let mut totals = 0.0;
        for _ in 0..30 {
            world.step(DT, 4).unwrap();
            totals += world.profile().total;
        }
        (world.state_checksum(), totals)
    };
    let ((timed, total), (untimed, zero)) = (run(true), run(false));
    assert!(total > 0.0, "profiled steps take time: {total} ms");
    assert_eq!(zero, 0.0, "a step without profiling reports no time");
    assert_eq!(timed, untimed, "timings never change results");
}
