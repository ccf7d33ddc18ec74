//! Pair finding against brute force: the live pairs after every update equal an all-pairs
//! test exactly, on seeded random sets of 10 to 10,000 proxies under random motion, inserts,
//! removes and filter changes; the reported changes are the difference between consecutive
//! live sets, in a deterministic order; the tree broad phase and sort and sweep agree.

use std::collections::{BTreeMap, BTreeSet};

use impact2d::broad_phase::{
    BroadPhase, BroadPhaseError, Filter, PairKey, ProxyKey, ProxyKind, ProxyPair, SortAndSweep,
};
use impact2d::{Aabb, Vec2};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn random_box(rng: &mut ChaCha8Rng, world: f32) -> Aabb {
    let c = Vec2::new(rng.random_range(0.0..world), rng.random_range(0.0..world));
    let h = Vec2::new(rng.random_range(0.05..0.8), rng.random_range(0.05..0.8));
    Aabb::new(c - h, c + h)
}

fn random_kind(rng: &mut ChaCha8Rng) -> ProxyKind {
    match rng.random_range(0..20) {
        0..=4 => ProxyKind::Static,
        5..=7 => ProxyKind::Kinematic,
        _ => ProxyKind::Dynamic,
    }
}

fn random_filter(rng: &mut ChaCha8Rng) -> Filter {
    if rng.random_range(0..4) != 0 {
        return Filter::default();
    }
    Filter::new(1 << rng.random_range(0..3), rng.random_range(0..8u64) | 8)
}

/// The user callback of these tests: refuses a fixed, arbitrary set of pairs.
fn accept(pair: &ProxyPair) -> bool {
    !(pair.user_a * 7 + pair.user_b * 13).is_multiple_of(11)
}

/// A proxy as the test remembers it.
#[derive(Clone, Copy)]
struct Mirror {
    key: ProxyKey,
    tight: Aabb,
    kind: ProxyKind,
    filter: Filter,
    user: u64,
}

/// The expected live pairs: every allowed pair of overlapping fat AABBs, by brute force.
fn brute_force(bp: &BroadPhase, proxies: &[Mirror]) -> BTreeSet<PairKey> {
    let fat: Vec<Aabb> = proxies.iter().map(|p| bp.fat_aabb(p.key).unwrap()).collect();
    let mut out = BTreeSet::new();
    for i in 0..proxies.len() {
        for j in i + 1..proxies.len() {
            let (p, q) = (&proxies[i], &proxies[j]);
            if !p.kind.pairs_with(q.kind) || !p.filter.should_pair(&q.filter) || !fat[i].overlaps(&fat[j]) {
                continue;
            }
            let (a, b) = if p.key.raw() < q.key.raw() { (p, q) } else { (q, p) };
            let pair = ProxyPair { a: a.key, b: b.key, user_a: a.user, user_b: b.user };
            if accept(&pair) {
                out.insert(pair.key());
            }
        }
    }
    out
}

/// One step of random changes; returns the raw keys whose pairs may legitimately end and
/// begin again in the same update (created, removed or refiltered proxies).
fn churn(
    rng: &mut ChaCha8Rng,
    bp: &mut BroadPhase,
    proxies: &mut Vec<Mirror>,
    next_user: &mut u64,
    world: f32,
    target: usize,
) -> BTreeSet<u32> {
    let mut reset = BTreeSet::new();
    for _ in 0..proxies.len() / 8 + 1 {
        if proxies.is_empty() {
            break;
        }
        let i = rng.random_range(0..proxies.len());
        let p = &mut proxies[i];
        let d = Vec2::new(rng.random_range(-0.3..0.3), rng.random_range(-0.3..0.3));
        p.tight = match rng.random_range(0..10) {
            0 => random_box(rng, world),
            1 => p.tight.union(&p.tight.translated(Vec2::new(3.0, -2.0))), // a fast proxy's sweep box
            _ => p.tight.translated(d),
        };
        if rng.random_range(0..2) == 0 {
            bp.move_proxy(p.key, p.tight).unwrap();
        } else {
            bp.move_proxy_predicted(p.key, p.tight, d).unwrap();
        }
    }
    for _ in 0..rng.random_range(0..=proxies.len() / 30 + 1).min(proxies.len()) {
        let p = proxies.swap_remove(rng.random_range(0..proxies.len()));
        assert_eq!(bp.remove_proxy(p.key), Ok(p.user));
        reset.insert(p.key.raw());
    }
    if !proxies.is_empty() && rng.random_range(0..3) == 0 {
        let i = rng.random_range(0..proxies.len());
        proxies[i].filter = random_filter(rng);
        bp.set_filter(proxies[i].key, proxies[i].filter).unwrap();
        reset.insert(proxies[i].key.raw());
    }
    if !proxies.is_empty() && rng.random_range(0..3) == 0 {
        bp.touch_proxy(proxies[rng.random_range(0..proxies.len())].key).unwrap();
    }
    while proxies.len() < target {
        let (tight, kind, filter) = (random_box(rng, world), random_kind(rng), random_filter(rng));
        let key = bp.create_proxy(tight, kind, filter, *next_user).unwrap();
        proxies.push(Mirror { key, tight, kind, filter, user: *next_user });
        reset.insert(key.raw());
        *next_user += 1;
    }
    reset
}

/// Checks one update against brute force and returns its changes as plain data.
fn check_update(bp: &mut BroadPhase, proxies: &[Mirror], reset: &BTreeSet<u32>) -> (Vec<ProxyPair>, Vec<PairKey>) {
    let old: BTreeSet<PairKey> = bp.live_pairs().iter().copied().collect();
    let changes = bp.update_pairs(accept);
    let (begun, ended) = (changes.begun.to_vec(), changes.ended.to_vec());
    let new: BTreeSet<PairKey> = bp.live_pairs().iter().copied().collect();
    assert_eq!(new, brute_force(bp, proxies), "live pairs differ from brute force");
    assert!(bp.live_pairs().windows(2).all(|w| w[0] < w[1]), "live pairs sorted and distinct");
    assert!(begun.windows(2).all(|w| w[0].key() < w[1].key()) && ended.windows(2).all(|w| w[0] < w[1]));
    let begun_keys: BTreeSet<PairKey> = begun.iter().map(ProxyPair::key).collect();
    let ended_keys: BTreeSet<PairKey> = ended.iter().copied().collect();
    assert!(ended_keys.is_subset(&old) && begun_keys.is_subset(&new));
    let kept: BTreeSet<PairKey> = old.difference(&ended_keys).copied().collect();
    assert!(kept.is_disjoint(&begun_keys));
    assert_eq!(kept.union(&begun_keys).copied().collect::<BTreeSet<_>>(), new);
    // A pair only ends and begins in one update when one of its proxies was reset.
    for key in begun_keys.intersection(&ended_keys) {
        let (a, b) = key.raws();
        assert!(reset.contains(&a) || reset.contains(&b), "{key:?} ended and began without a reset");
    }
    for pair in &begun {
        assert!(pair.a.raw() < pair.b.raw());
        assert_eq!((bp.user_data(pair.a), bp.user_data(pair.b)), (Ok(pair.user_a), Ok(pair.user_b)));
    }
    (begun, ended)
}

#[test]
fn live_pairs_match_brute_force_under_motion() {
    for (case, &(n, steps)) in [(10, 300), (100, 150), (1000, 40), (10_000, 5)].iter().enumerate() {
        let mut rng = ChaCha8Rng::seed_from_u64(31 + case as u64);
        let world = (n as f32).sqrt() * 1.5;
        let mut bp = BroadPhase::new();
        let (mut proxies, mut next_user) = (Vec::new(), 0);
        let (mut begun, mut ended, mut max_live) = (0, 0, 0);
        for step in 0..steps {
            let target = if step % 7 == 3 { n * 3 / 4 } else { n };
            let reset = churn(&mut rng, &mut bp, &mut proxies, &mut next_user, world, target);
            let (b, e) = check_update(&mut bp, &proxies, &reset);
            (begun, ended) = (begun + b.len(), ended + e.len());
            max_live = max_live.max(bp.live_pairs().len());
            if step % 10 == 0 {
                for kind in ProxyKind::ALL {
                    bp.tree(kind).validate().unwrap();
                }
            }
        }
        assert!(begun > 0 && ended > 0 && max_live > n / 4, "n {n}: begun {begun} ended {ended} live {max_live}");
    }
}

#[test]
fn same_input_gives_the_same_output() {
    let run = || {
        let mut rng = ChaCha8Rng::seed_from_u64(99);
        let mut bp = BroadPhase::new();
        let (mut proxies, mut next_user) = (Vec::new(), 0);
        let mut log = Vec::new();
        for _ in 0..30 {
            churn(&mut rng, &mut bp, &mut proxies, &mut next_user, 40.0, 600);
            let changes = bp.update_pairs(accept);
            log.push((changes.begun.to_vec(), changes.ended.to_vec()));
        }
        log
    };
    let (first, second) = (run(), run());
    assert!(first.iter().map(|(b, e)| b.len() + e.len()).sum::<usize>() > 1000);
    assert_eq!(first, second);
}

#[test]
fn threads_do_not_change_the_output() {
    let run = |threads: usize| {
        let mut rng = ChaCha8Rng::seed_from_u64(12);
        let mut bp = BroadPhase::new();
        bp.set_threads(threads);
        let (mut proxies, mut next_user) = (Vec::new(), 0);
        let mut log = Vec::new();
        for step in 0..8 {
            churn(&mut rng, &mut bp, &mut proxies, &mut next_user, 120.0, 8000);
            if step % 2 == 0 {
                // Move most proxies, so that the update has thousands of queries to share.
                for p in proxies.iter_mut() {
                    p.tight = p.tight.translated(Vec2::new(rng.random_range(-0.3..0.3), 0.2));
                    bp.move_proxy(p.key, p.tight).unwrap();
                }
            }
            let changes = bp.update_pairs(accept);
            log.push((changes.begun.to_vec(), changes.ended.to_vec()));
        }
        assert_eq!(bp.live_pairs().iter().copied().collect::<BTreeSet<_>>(), brute_force(&bp, &proxies));
        log
    };
    let single = run(1);
    assert!(single.iter().map(|(b, e)| b.len() + e.len()).sum::<usize>() > 10_000);
    assert_eq!(run(2), single);
    assert_eq!(run(3), single);
}

#[test]
fn the_order_does_not_depend_on_the_tree() {
    // The same proxies, inserted in two different orders into trees of different shapes
    // (one rebuilt), give the same pairs in the same order.
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let boxes: Vec<Aabb> = (0..2000).map(|_| random_box(&mut rng, 60.0)).collect();
    let mut outputs = Vec::new();
    for shuffled in [false, true] {
        let mut bp = BroadPhase::new();
        let mut order: Vec<usize> = (0..boxes.len()).collect();
        if shuffled {
            order.reverse();
        }
        // Slots are handed out in creation order, so create in index order for equal keys,
        // and shape the tree by first inserting and removing placeholders in another order.
        let placeholders: Vec<_> = order
            .iter()
            .map(|&i| {
                bp.create_proxy(boxes[i].translated(Vec2::splat(500.0)), ProxyKind::Dynamic, Filter::default(), 0)
                    .unwrap()
            })
            .collect();
        let keys: Vec<_> = (0..boxes.len())
            .map(|i| bp.create_proxy(boxes[i], ProxyKind::Dynamic, Filter::default(), i as u64).unwrap())
            .collect();
        for key in placeholders.into_iter().rev() {
            bp.remove_proxy(key).unwrap();
        }
        if shuffled {
            bp.rebuild(ProxyKind::Dynamic);
        }
        let pairs: Vec<(u64, u64)> = bp.update_pairs(|_| true).begun.iter().map(|p| (p.user_a, p.user_b)).collect();
        outputs.push((keys.len(), pairs));
    }
    assert!(outputs[0].1.len() > 500);
    assert_eq!(outputs[0], outputs[1]);
}

#[test]
fn kinds_and_filters_decide_who_pairs() {
    let mut bp = BroadPhase::new();
    let b = Aabb::new(Vec2::ZERO, Vec2::ONE);
    let make = |bp: &mut BroadPhase, kind, filter, user| bp.create_proxy(b, kind, filter, user).unwrap();
    let s1 = make(&mut bp, ProxyKind::Static, Filter::default(), 1);
    let s2 = make(&mut bp, ProxyKind::Static, Filter::default(), 2);
    let k1 = make(&mut bp, ProxyKind::Kinematic, Filter::default(), 3);
    let d1 = make(&mut bp, ProxyKind::Dynamic, Filter::default(), 4);
    let only_2 = Filter::new(2, 2);
    let d2 = make(&mut bp, ProxyKind::Dynamic, only_2, 5);
    let users = |pairs: &[ProxyPair]| {
        pairs.iter().map(|p| (p.user_a.min(p.user_b), p.user_a.max(p.user_b))).collect::<BTreeSet<_>>()
    };
    let begun = users(bp.update_pairs(|_| true).begun);
    // Static-static, static-kinematic and the filtered-out pairs are absent.
    assert_eq!(begun, BTreeSet::from([(1, 4), (2, 4), (3, 4)]));
    let _ = (s1, s2, k1);
    // Refiltering d2 to pair with everything: its pairs begin.
    bp.set_filter(d2, Filter::default()).unwrap();
    let begun = users(bp.update_pairs(|_| true).begun);
    assert_eq!(begun, BTreeSet::from([(1, 5), (2, 5), (3, 5), (4, 5)]));
    // And back: they end, and nothing else does.
    bp.set_filter(d2, only_2).unwrap();
    let changes = bp.update_pairs(|_| true);
    assert!(changes.begun.is_empty());
    assert_eq!(changes.ended.len(), 4);
    // A pair the callback refuses is offered again each time one of its proxies moves.
    let mut offered = 0;
    bp.move_proxy(d1, b.translated(Vec2::splat(0.5))).unwrap();
    bp.update_pairs(|p| {
        offered += 1;
        p.user_a != 1 && p.user_b != 1
    });
    assert_eq!(offered, 0, "d1's pairs are live: nothing to offer");
    bp.remove_proxy(d1).unwrap();
    let d1 = make(&mut bp, ProxyKind::Dynamic, Filter::default(), 6);
    let changes = bp.update_pairs(|p| p.user_a != 1 && p.user_b != 1);
    assert_eq!(changes.ended.len(), 3);
    assert_eq!(users(changes.begun), BTreeSet::from([(2, 6), (3, 6)]));
    bp.move_proxy(d1, b.translated(Vec2::splat(0.5))).unwrap();
    let mut offered = BTreeSet::new();
    bp.update_pairs(|p| {
        offered.insert((p.user_a, p.user_b));
        false
    });
    assert_eq!(offered, BTreeSet::from([(1, 6)]));
}

#[test]
fn predicted_fat_boxes_last_several_steps() {
    let mut bp = BroadPhase::new();
    let mut b = Aabb::new(Vec2::ZERO, Vec2::ONE);
    let key = bp.create_proxy(b, ProxyKind::Dynamic, Filter::default(), 0).unwrap();
    let d = Vec2::new(0.2, -0.05);
    let (mut plain, mut predicted) = (0, 0);
    let mut bp2 = BroadPhase::new();
    let key2 = bp2.create_proxy(b, ProxyKind::Dynamic, Filter::default(), 0).unwrap();
    for _ in 0..40 {
        b = b.translated(d);
        plain += bp2.move_proxy(key2, b).unwrap() as u32;
        predicted += bp.move_proxy_predicted(key, b, d).unwrap() as u32;
        assert!(bp.fat_aabb(key).unwrap().contains(&b));
    }
    // Without prediction the proxy leaves its fat box (0.1 m margin) every step; with it,
    // about every fifth step (0.1 m plus 4 displacements of 0.2 m ahead).
    assert_eq!(plain, 40);
    assert!((7..=10).contains(&predicted), "{predicted}");
    // It stops: the stretched box is oversized and shrinks back.
    assert!(bp.move_proxy_predicted(key, b, Vec2::ZERO).unwrap() || bp.move_proxy(key, b).unwrap());
    assert!(bp.fat_aabb(key).unwrap().contains(&b));
    assert!(bp.move_proxy_predicted(key, b, Vec2::new(f32::NAN, 0.0)).is_err());
}

#[test]
fn removed_and_recreated_slots_end_their_old_pairs() {
    let mut bp = BroadPhase::new();
    let b = Aabb::new(Vec2::ZERO, Vec2::ONE);
    let a = bp.create_proxy(b, ProxyKind::Dynamic, Filter::default(), 1).unwrap();
    let c = bp.create_proxy(b, ProxyKind::Dynamic, Filter::default(), 2).unwrap();
    let first = bp.update_pairs(|_| true).begun.to_vec();
    assert_eq!(first.len(), 1);
    // Remove `a` and create a new proxy, which takes the same slot (and raw key).
    bp.remove_proxy(a).unwrap();
    let a2 = bp.create_proxy(b, ProxyKind::Dynamic, Filter::default(), 3).unwrap();
    assert_eq!(a2.raw(), a.raw());
    assert_ne!(a2, a);
    let changes = bp.update_pairs(|_| true);
    assert_eq!(changes.ended, &[first[0].key()]);
    assert_eq!(changes.begun.len(), 1);
    assert_eq!((changes.begun[0].user_a, changes.begun[0].user_b), (3, 2));
    let stale = BroadPhaseError::InvalidProxy { index: a.id().index(), generation: a.id().generation() };
    assert_eq!(bp.move_proxy(a, b), Err(stale.clone()));
    assert_eq!(bp.remove_proxy(a), Err(stale.clone()));
    assert_eq!(bp.fat_aabb(a), Err(stale));
    assert!(bp.contains(c) && bp.contains(a2) && !bp.contains(a));
}

#[test]
fn hostile_input_is_refused_and_changes_nothing() {
    let mut bp = BroadPhase::new();
    let good = Aabb::new(Vec2::ZERO, Vec2::ONE);
    let key = bp.create_proxy(good, ProxyKind::Dynamic, Filter::default(), 7).unwrap();
    bp.update_pairs(|_| true);
    for bad in [
        Aabb::new(Vec2::new(f32::NAN, 0.0), Vec2::ONE),
        Aabb::new(Vec2::ZERO, Vec2::new(f32::INFINITY, 1.0)),
        Aabb::new(Vec2::ONE, Vec2::ZERO),
    ] {
        assert!(matches!(
            bp.create_proxy(bad, ProxyKind::Static, Filter::default(), 0),
            Err(BroadPhaseError::InvalidAabb { .. })
        ));
        assert!(matches!(bp.move_proxy(key, bad), Err(BroadPhaseError::InvalidAabb { .. })));
        assert!(bp.query(bad, |_, _| true).is_err());
        assert!(bp.flag_fast(key, bad, Vec2::X).is_err());
    }
    assert!(bp.flag_fast(key, good, Vec2::new(0.0, f32::NAN)).is_err());
    assert!(BroadPhase::with_margin(f32::NAN).is_err() && BroadPhase::with_margin(-0.1).is_err());
    assert_eq!(bp.proxy_count(), 1);
    assert_eq!(bp.fat_aabb(key), Ok(good.enlarged(impact2d::settings::AABB_MARGIN)));
    assert_eq!(bp.move_count(), 0);
    for kind in ProxyKind::ALL {
        bp.tree(kind).validate().unwrap();
    }
}

/// Maps raw keys of one structure to user data, to compare two structures.
fn user_pairs(keys: &[PairKey], users: &BTreeMap<u32, u64>) -> BTreeSet<(u64, u64)> {
    keys.iter()
        .map(|k| {
            let (a, b) = (users[&k.raws().0], users[&k.raws().1]);
            (a.min(b), a.max(b))
        })
        .collect()
}

#[test]
fn tree_and_sort_and_sweep_agree() {
    for (seed, n, steps, aspect) in [(1u64, 50, 200, 1.0f32), (2, 2000, 40, 6.0), (3, 8000, 12, 0.2)] {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let side = (n as f32).sqrt() * 1.5;
        let world = Vec2::new(side * aspect.sqrt(), side / aspect.sqrt());
        let (mut bp, mut sap) = (BroadPhase::new(), SortAndSweep::new());
        // (tree key, sap id, tight box, user)
        let mut proxies = Vec::new();
        let (mut bp_users, mut sap_users) = (BTreeMap::new(), BTreeMap::new());
        let mut axes = BTreeSet::new();
        for step in 0..steps {
            if step % 20 == 10 {
                // Stretch the world the other way, so the axis of greatest variance changes.
                for p in proxies.iter_mut() {
                    let (_, _, tight, _): &mut (ProxyKey, _, Aabb, u64) = p;
                    let c = tight.center();
                    *tight = tight.translated(Vec2::new(c.y - c.x, c.x - c.y));
                }
            }
            for p in proxies.iter_mut() {
                let (key, id, tight, _): &mut (ProxyKey, _, Aabb, u64) = p;
                if rng.random_range(0..5) == 0 || step % 20 == 10 {
                    *tight = tight.translated(Vec2::new(rng.random_range(-0.4..0.4), rng.random_range(-0.4..0.4)));
                    assert_eq!(bp.move_proxy(*key, *tight), sap.move_proxy(*id, *tight));
                }
            }
            for _ in 0..rng.random_range(0..=proxies.len() / 25 + 1).min(proxies.len()) {
                let (key, id, _, user) = proxies.swap_remove(rng.random_range(0..proxies.len()));
                assert_eq!((bp.remove_proxy(key), sap.remove_proxy(id)), (Ok(user), Ok(user)));
            }
            while proxies.len() < n {
                let c = Vec2::new(rng.random_range(0.0..world.x), rng.random_range(0.0..world.y));
                let h = Vec2::new(rng.random_range(0.05..0.8), rng.random_range(0.05..0.8));
                let tight = Aabb::new(c - h, c + h);
                let user = rng.random::<u64>() >> 1;
                let key = bp.create_proxy(tight, ProxyKind::Dynamic, Filter::default(), user).unwrap();
                let id = sap.create_proxy(tight, user).unwrap();
                bp_users.insert(key.raw(), user);
                sap_users.insert(id.index(), user);
                proxies.push((key, id, tight, user));
            }
            let bp_begun: BTreeSet<(u64, u64)> = bp
                .update_pairs(|_| true)
                .begun
                .iter()
                .map(|p| (p.user_a.min(p.user_b), p.user_a.max(p.user_b)))
                .collect();
            let sap_begun: BTreeSet<(u64, u64)> = sap
                .update_pairs(|_| true)
                .begun
                .iter()
                .map(|p| (p.user_a.min(p.user_b), p.user_a.max(p.user_b)))
                .collect();
            assert_eq!(bp_begun, sap_begun, "step {step}");
            let live = user_pairs(bp.live_pairs(), &bp_users);
            assert_eq!(live, user_pairs(sap.live_pairs(), &sap_users), "step {step}");
            let sap_live = sap.live_pairs().to_vec();
            assert_eq!(sap.all_pairs(), &sap_live[..], "the full sweep finds the live pairs");
            axes.insert(sap.axis());
        }
        if aspect != 1.0 {
            assert_eq!(axes.len(), 2, "the sweep axis changed with the world shape");
        }
    }
}

/// `query_kinds` finds exactly the proxies of the kinds asked that `query` finds, in `query`'s
/// order within each tree, over seeded sets of proxies of every kind and every kind subset.
#[test]
fn query_kinds_is_query_filtered_by_kind() {
    let subsets: [&[ProxyKind]; 4] =
        [&[ProxyKind::Static, ProxyKind::Kinematic], &[ProxyKind::Dynamic], &[ProxyKind::Kinematic], &ProxyKind::ALL];
    let mut checked = 0;
    for seed in 0..40u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(0x9e1d + seed);
        let mut bp = BroadPhase::new();
        let world = 10.0 + 2.0 * seed as f32;
        let mut kinds = BTreeMap::new();
        for user in 0..(50 + 20 * seed) {
            let kind = random_kind(&mut rng);
            bp.create_proxy(random_box(&mut rng, world), kind, random_filter(&mut rng), user).unwrap();
            kinds.insert(user, kind);
        }
        for _ in 0..50 {
            let mut area = random_box(&mut rng, world);
            area = Aabb::new(area.lower - Vec2::splat(3.0), area.upper + Vec2::splat(3.0));
            let mut all = Vec::new();
            bp.query(area, |_, user| {
                all.push(user);
                true
            })
            .unwrap();
            for subset in subsets {
                let mut some = Vec::new();
                bp.query_kinds(area, subset, |_, user| {
                    some.push(user);
                    true
                })
                .unwrap();
                let mut expected: Vec<u64> = Vec::new();
                for kind in subset {
                    expected.extend(all.iter().filter(|u| kinds[*u] == *kind));
                }
                assert_eq!(some, expected, "seed {seed}, {area:?}, {subset:?}");
                checked += some.len();
            }
        }
    }
    assert!(checked > 10_000, "the areas overlap proxies ({checked})");
}
