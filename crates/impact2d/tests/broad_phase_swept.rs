//! Swept pairs for continuous collision against brute force, and hostile operation sequences.

use std::collections::BTreeMap;

use impact2d::broad_phase::{BroadPhase, Filter, PairKey, ProxyKey, ProxyKind, ProxyPair};
use impact2d::query::{AabbToiState, aabb_time_of_impact};
use impact2d::{Aabb, Vec2};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

struct Proxy {
    key: ProxyKey,
    kind: ProxyKind,
    filter: Filter,
    user: u64,
}

fn accept(pair: &ProxyPair) -> bool {
    !(pair.user_a + pair.user_b).is_multiple_of(5)
}

#[test]
fn swept_pairs_match_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(77);
    let world = 80.0;
    let mut bp = BroadPhase::new();
    let mut proxies = Vec::new();
    for user in 0..2500u64 {
        let c = Vec2::new(rng.random_range(0.0..world), rng.random_range(0.0..world));
        let h = Vec2::new(rng.random_range(0.05..0.6), rng.random_range(0.05..0.6));
        let kind = [ProxyKind::Static, ProxyKind::Kinematic, ProxyKind::Dynamic][rng.random_range(0..3)];
        let filter = if rng.random_range(0..5) == 0 { Filter::new(2, 2) } else { Filter::default() };
        let key = bp.create_proxy(Aabb::new(c - h, c + h), kind, filter, user).unwrap();
        proxies.push(Proxy { key, kind, filter, user });
    }
    let mut total = 0;
    for round in 0..20 {
        // Flag some proxies fast: (index, start box, displacement).
        let mut fast: BTreeMap<usize, (Aabb, Vec2)> = BTreeMap::new();
        for _ in 0..rng.random_range(1..60) {
            let i = rng.random_range(0..proxies.len());
            let start = bp.fat_aabb(proxies[i].key).unwrap();
            let d = Vec2::new(rng.random_range(-25.0..25.0), rng.random_range(-25.0..25.0));
            bp.flag_fast(proxies[i].key, start, d).unwrap();
            fast.insert(i, (start, d)); // flagging again replaces the sweep
        }
        let got: Vec<(PairKey, u32)> =
            bp.update_swept_pairs(accept).iter().map(|s| (s.pair.key(), s.t.to_bits())).collect();
        assert!(got.windows(2).all(|w| w[0].0 < w[1].0), "sorted by pair key, each once");
        // Brute force: every fast proxy against every other proxy.
        let mut expected = Vec::new();
        for (&i, &(start, d)) in &fast {
            let sweep = start.union(&start.translated(d));
            for (j, q) in proxies.iter().enumerate() {
                let p = &proxies[i];
                if i == j || !p.kind.pairs_with(q.kind) || !p.filter.should_pair(&q.filter) {
                    continue;
                }
                let toi = match fast.get(&j) {
                    Some(_) if j < i => continue, // the pair is taken from the other side
                    Some(&(start_q, d_q)) => {
                        if !sweep.overlaps(&start_q.union(&start_q.translated(d_q))) {
                            continue;
                        }
                        aabb_time_of_impact(&start, d, &start_q, d_q).unwrap()
                    }
                    None => {
                        let fat = bp.fat_aabb(q.key).unwrap();
                        if !sweep.overlaps(&fat) {
                            continue;
                        }
                        aabb_time_of_impact(&start, d, &fat, Vec2::ZERO).unwrap()
                    }
                };
                let key = PairKey::new(p.key.raw(), q.key.raw());
                let (a, b) = if p.key.raw() < q.key.raw() { (p, q) } else { (q, p) };
                let pair = ProxyPair { a: a.key, b: b.key, user_a: a.user, user_b: b.user };
                if toi.state != AabbToiState::Separated && accept(&pair) {
                    expected.push((key, toi.t.to_bits()));
                }
            }
        }
        expected.sort();
        assert_eq!(got, expected, "round {round}");
        total += got.len();
        // The flags are cleared: a second update finds nothing.
        assert!(bp.update_swept_pairs(|_| true).is_empty());
    }
    assert!(total > 500, "{total}");
}

#[test]
fn crossing_fast_proxies_find_each_other() {
    // Two bullets whose paths cross mid-step; their end boxes never overlap anything.
    let mut bp = BroadPhase::new();
    let bullet = Aabb::new(Vec2::splat(-0.05), Vec2::splat(0.05));
    let a = bp.create_proxy(bullet.translated(Vec2::new(10.0, 0.0)), ProxyKind::Dynamic, Filter::default(), 1).unwrap();
    let b = bp.create_proxy(bullet.translated(Vec2::new(0.0, 10.0)), ProxyKind::Dynamic, Filter::default(), 2).unwrap();
    bp.update_pairs(|_| true);
    bp.flag_fast(a, bullet.translated(Vec2::new(-10.0, 0.0)), Vec2::new(20.0, 0.0)).unwrap();
    bp.flag_fast(b, bullet.translated(Vec2::new(0.0, -10.0)), Vec2::new(0.0, 20.0)).unwrap();
    let swept = bp.update_swept_pairs(|_| true);
    assert_eq!(swept.len(), 1);
    assert!((swept[0].t - 0.495).abs() < 1e-4, "{}", swept[0].t);
    // A bullet that passes a wall between its start and end.
    let wall = bp
        .create_proxy(Aabb::new(Vec2::new(4.0, -5.0), Vec2::new(4.2, 5.0)), ProxyKind::Static, Filter::default(), 3)
        .unwrap();
    bp.flag_fast(a, bullet.translated(Vec2::new(-10.0, 0.0)), Vec2::new(20.0, 0.0)).unwrap();
    let swept = bp.update_swept_pairs(|_| true);
    assert_eq!(swept.len(), 1);
    assert_eq!((swept[0].pair.a, swept[0].pair.b), (wall, a));
    assert!((swept[0].t - 0.6975).abs() < 1e-4, "{}", swept[0].t);
}

/// One operation of a hostile sequence.
#[derive(Clone, Debug)]
enum Op {
    Create([f32; 4], u8),
    Move(usize, [f32; 4]),
    Remove(usize),
    Fast(usize, [f32; 4], [f32; 2]),
    Query([f32; 4]),
    Ray([f32; 4], f32),
    Update,
}

fn hostile_f32() -> impl Strategy<Value = f32> {
    prop_oneof![
        8 => -50.0f32..50.0,
        1 => Just(f32::NAN),
        1 => Just(f32::INFINITY),
        1 => Just(f32::NEG_INFINITY),
        1 => Just(f32::MAX),
        1 => Just(-f32::MAX),
        1 => Just(0.0f32),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    let four = || prop::array::uniform4(hostile_f32());
    prop_oneof![
        3 => (four(), 0u8..3).prop_map(|(b, k)| Op::Create(b, k)),
        3 => (0usize..64, four()).prop_map(|(i, b)| Op::Move(i, b)),
        1 => (0usize..64).prop_map(Op::Remove),
        1 => (0usize..64, four(), prop::array::uniform2(hostile_f32())).prop_map(|(i, b, d)| Op::Fast(i, b, d)),
        1 => four().prop_map(Op::Query),
        1 => (four(), hostile_f32()).prop_map(|(r, f)| Op::Ray(r, f)),
        2 => Just(Op::Update),
    ]
}

fn aabb(b: [f32; 4]) -> Aabb {
    Aabb::new(Vec2::new(b[0], b[1]), Vec2::new(b[2], b[3]))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Any sequence of operations with any numbers: no panic, errors exactly for invalid
    /// input, valid trees, and live pairs equal to brute force after each update.
    #[test]
    fn hostile_sequences_never_corrupt(ops in prop::collection::vec(op(), 1..120)) {
        let mut bp = BroadPhase::new();
        let mut keys: Vec<ProxyKey> = Vec::new();
        for op in ops {
            match op {
                Op::Create(b, k) => {
                    let r = bp.create_proxy(aabb(b), ProxyKind::ALL[k as usize], Filter::default(), keys.len() as u64);
                    prop_assert_eq!(r.is_ok(), aabb(b).is_valid() && aabb(b).enlarged(0.1).is_valid());
                    if let Ok(key) = r { keys.push(key); }
                }
                Op::Move(i, b) if !keys.is_empty() => {
                    let key = keys[i % keys.len()];
                    let r = bp.move_proxy(key, aabb(b));
                    prop_assert_eq!(r.is_ok(), bp.contains(key) && aabb(b).is_valid() && aabb(b).enlarged(0.1).is_valid());
                }
                Op::Remove(i) if !keys.is_empty() => {
                    let key = keys[i % keys.len()];
                    let live = bp.contains(key);
                    prop_assert_eq!(bp.remove_proxy(key).is_ok(), live);
                }
                Op::Fast(i, b, d) if !keys.is_empty() => {
                    let _ = bp.flag_fast(keys[i % keys.len()], aabb(b), Vec2::new(d[0], d[1]));
                }
                Op::Query(b) => {
                    prop_assert_eq!(bp.query(aabb(b), |_, _| true).is_ok(), aabb(b).is_valid());
                }
                Op::Ray(r, f) => {
                    let input = impact2d::RayCastInput {
                        origin: Vec2::new(r[0], r[1]),
                        translation: Vec2::new(r[2], r[3]),
                        max_fraction: f,
                    };
                    if let Ok(end) = bp.ray_cast(&input, |_, _, _| impact2d::broad_phase::RayControl::Continue) {
                        prop_assert!(end.is_finite());
                    }
                }
                Op::Update => {
                    bp.update_pairs(|_| true);
                    for s in bp.update_swept_pairs(|_| true) {
                        prop_assert!((0.0..=1.0).contains(&s.t));
                    }
                    // Brute force over the live proxies.
                    let live: Vec<ProxyKey> = keys.iter().copied().filter(|k| bp.contains(*k)).collect();
                    let mut expected = Vec::new();
                    for (n, &p) in live.iter().enumerate() {
                        for &q in &live[n + 1..] {
                            if p.kind().pairs_with(q.kind()) && bp.test_overlap(p, q).unwrap() {
                                expected.push(PairKey::new(p.raw(), q.raw()));
                            }
                        }
                    }
                    expected.sort();
                    prop_assert_eq!(bp.live_pairs(), &expected[..]);
                }
                _ => {}
            }
        }
        for kind in ProxyKind::ALL {
            prop_assert!(bp.tree(kind).validate().is_ok());
        }
    }
}
