//! The dynamic AABB tree against brute force: box, point, ray and swept queries on seeded
//! random sets under random motion, inserts and removes; rebuilds; handles; hostile input.

use impact2d::RayCastInput;
use impact2d::broad_phase::{BroadPhaseError, DynamicTree, ProxyId, RayControl};
use impact2d::query::{AabbToiState, aabb_time_of_impact};
use impact2d::{Aabb, Vec2};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A random box in a square world of side `world`, sizes from 0.05 to 2 m, a few degenerate.
fn random_box(rng: &mut ChaCha8Rng, world: f32) -> Aabb {
    let c = Vec2::new(rng.random_range(0.0..world), rng.random_range(0.0..world));
    let h = match rng.random_range(0..20) {
        0 => Vec2::ZERO, // a point
        1 => Vec2::new(rng.random_range(0.0..3.0), 0.0),
        _ => Vec2::new(rng.random_range(0.025..1.0), rng.random_range(0.025..1.0)),
    };
    Aabb::new(c - h, c + h)
}

/// The live proxies of a test, mirrored outside the tree.
struct Mirror {
    ids: Vec<ProxyId>,
    /// The tight box last given for each proxy of `ids`.
    tight: Vec<Aabb>,
    next_user: u64,
}

impl Mirror {
    fn create(&mut self, tree: &mut DynamicTree, aabb: Aabb) {
        let id = tree.create_proxy(aabb, self.next_user).unwrap();
        self.next_user += 1;
        self.ids.push(id);
        self.tight.push(aabb);
    }

    fn brute<F: Fn(&Aabb) -> bool>(&self, tree: &DynamicTree, hit: F) -> Vec<(ProxyId, u64)> {
        let mut out: Vec<_> = self
            .ids
            .iter()
            .filter(|&&id| hit(&tree.fat_aabb(id).unwrap()))
            .map(|&id| (id, tree.user_data(id).unwrap()))
            .collect();
        out.sort();
        out
    }
}

/// One step of random changes: moves (small and large), inserts and removes.
fn churn(rng: &mut ChaCha8Rng, tree: &mut DynamicTree, mirror: &mut Mirror, world: f32, target: usize) {
    for _ in 0..mirror.ids.len() / 10 + 1 {
        if mirror.ids.is_empty() {
            break;
        }
        let i = rng.random_range(0..mirror.ids.len());
        let aabb = if rng.random_range(0..4) == 0 {
            random_box(rng, world)
        } else {
            let d = Vec2::new(rng.random_range(-0.3..0.3), rng.random_range(-0.3..0.3));
            mirror.tight[i].translated(d)
        };
        tree.move_proxy(mirror.ids[i], aabb).unwrap();
        mirror.tight[i] = aabb;
    }
    let removes = rng.random_range(0..=mirror.ids.len() / 20 + 1).min(mirror.ids.len());
    for _ in 0..removes {
        let i = rng.random_range(0..mirror.ids.len());
        let id = mirror.ids.swap_remove(i);
        mirror.tight.swap_remove(i);
        tree.remove_proxy(id).unwrap();
    }
    while mirror.ids.len() < target {
        mirror.create(tree, random_box(rng, world));
    }
}

fn collect_query(tree: &DynamicTree, aabb: Aabb) -> Vec<(ProxyId, u64)> {
    let mut out = Vec::new();
    tree.query(aabb, |id, user| {
        out.push((id, user));
        true
    })
    .unwrap();
    out.sort();
    out
}

fn check_queries(rng: &mut ChaCha8Rng, tree: &DynamicTree, mirror: &Mirror, world: f32, count: usize) -> usize {
    let mut hits = 0;
    for _ in 0..count {
        // Box query.
        let q = random_box(rng, world).enlarged(rng.random_range(0.0..world * 0.05));
        let got = collect_query(tree, q);
        assert_eq!(got, mirror.brute(tree, |b| b.overlaps(&q)));
        hits += got.len();
        // Point query.
        let p = Vec2::new(rng.random_range(-1.0..world + 1.0), rng.random_range(-1.0..world + 1.0));
        let mut got = Vec::new();
        tree.query_point(p, |id, user| {
            got.push((id, user));
            true
        })
        .unwrap();
        got.sort();
        assert_eq!(got, mirror.brute(tree, |b| b.contains_point(p)));
        hits += got.len();
        hits += check_ray(rng, tree, mirror, world);
    }
    hits
}

/// A ray without clipping reports exactly the boxes the ray reaches; with clipping the final
/// fraction is the nearest box entry.
fn check_ray(rng: &mut ChaCha8Rng, tree: &DynamicTree, mirror: &Mirror, world: f32) -> usize {
    let origin = Vec2::new(rng.random_range(-2.0..world + 2.0), rng.random_range(-2.0..world + 2.0));
    let mut translation = Vec2::new(rng.random_range(-world..world), rng.random_range(-world..world)) * 0.5;
    if rng.random_range(0..8) == 0 {
        translation.y = 0.0; // axis-parallel rays exercise the slab special case
    }
    let input = RayCastInput { origin, translation, max_fraction: rng.random_range(0.0..1.5) };
    let reaches = |b: &Aabb| b.ray_cast(origin, translation, input.max_fraction).is_some();
    let mut got = Vec::new();
    let end = tree
        .ray_cast(&input, |ray, id, user| {
            assert_eq!(ray, &input);
            got.push((id, user));
            RayControl::Continue
        })
        .unwrap();
    assert_eq!(end, input.max_fraction);
    got.sort();
    let expected = mirror.brute(tree, reaches);
    assert_eq!(got, expected);

    let nearest = expected
        .iter()
        .map(|&(id, _)| tree.fat_aabb(id).unwrap().ray_cast(origin, translation, input.max_fraction).unwrap().fraction)
        .fold(input.max_fraction, f32::min);
    let end = tree
        .ray_cast(&input, |ray, id, _| {
            let hit = tree.fat_aabb(id).unwrap().ray_cast(ray.origin, ray.translation, ray.max_fraction);
            RayControl::Clip(hit.expect("reported box is reached by the clipped ray").fraction)
        })
        .unwrap();
    assert_eq!(end, nearest);
    got.len()
}

#[test]
fn queries_match_brute_force_under_motion() {
    // (proxies, steps, queries per step)
    for (case, &(n, steps, queries)) in
        [(10, 200, 20), (100, 100, 20), (1000, 40, 20), (10_000, 6, 20)].iter().enumerate()
    {
        let mut rng = ChaCha8Rng::seed_from_u64(1000 + case as u64);
        let world = (n as f32).sqrt() * 3.0;
        let mut tree = DynamicTree::new();
        let mut mirror = Mirror { ids: Vec::new(), tight: Vec::new(), next_user: 0 };
        let mut hits = 0;
        for step in 0..steps {
            let target = if step % 10 == 5 { n / 2 } else { n };
            churn(&mut rng, &mut tree, &mut mirror, world, target);
            tree.validate().unwrap();
            assert_eq!(tree.proxy_count(), mirror.ids.len());
            hits += check_queries(&mut rng, &tree, &mirror, world, queries);
        }
        assert!(hits > steps * queries, "queries must find something: {hits}");
    }
}

#[test]
fn swept_query_matches_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let (n, world) = (2000, 120.0);
    let mut tree = DynamicTree::new();
    let mut mirror = Mirror { ids: Vec::new(), tight: Vec::new(), next_user: 0 };
    let mut found = 0;
    for _ in 0..10 {
        churn(&mut rng, &mut tree, &mut mirror, world, n);
        for _ in 0..100 {
            let start = random_box(&mut rng, world);
            let d = Vec2::new(rng.random_range(-40.0..40.0), rng.random_range(-40.0..40.0));
            let sweep = start.union(&start.translated(d));
            let mut got = Vec::new();
            tree.query_swept(start, d, |id, user, toi| {
                got.push((id, user, toi.t.to_bits()));
                true
            })
            .unwrap();
            got.sort();
            let mut expected: Vec<_> = mirror
                .ids
                .iter()
                .filter_map(|&id| {
                    let fat = tree.fat_aabb(id).unwrap();
                    let toi = aabb_time_of_impact(&start, d, &fat, Vec2::ZERO).unwrap();
                    (fat.overlaps(&sweep) && toi.state != AabbToiState::Separated).then(|| {
                        assert!((0.0..=1.0).contains(&toi.t));
                        (id, tree.user_data(id).unwrap(), toi.t.to_bits())
                    })
                })
                .collect();
            expected.sort();
            assert_eq!(got, expected);
            found += got.len();
        }
    }
    assert!(found > 1000, "{found}");
}

#[test]
fn rebuild_keeps_handles_and_queries_and_improves_quality() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for n in [2, 3, 17, 1000, 20_000] {
        let world = (n as f32).sqrt() * 3.0;
        let mut tree = DynamicTree::new();
        let mut mirror = Mirror { ids: Vec::new(), tight: Vec::new(), next_user: 0 };
        for _ in 0..3 {
            churn(&mut rng, &mut tree, &mut mirror, world, n);
        }
        let before = tree.stats();
        let boxes: Vec<_> = mirror.ids.iter().map(|&id| tree.fat_aabb(id).unwrap()).collect();
        tree.rebuild();
        tree.validate().unwrap();
        let after = tree.stats();
        assert_eq!((after.proxy_count, after.node_count), (before.proxy_count, before.node_count));
        for (&id, b) in mirror.ids.iter().zip(&boxes) {
            assert_eq!(tree.fat_aabb(id).unwrap(), *b);
        }
        if n >= 1000 {
            assert!(after.area_ratio < before.area_ratio, "rebuild {after:?} vs incremental {before:?}");
        }
        check_queries(&mut rng, &tree, &mirror, world, 50);
        // The tree keeps working incrementally after a rebuild.
        churn(&mut rng, &mut tree, &mut mirror, world, n);
        tree.validate().unwrap();
        check_queries(&mut rng, &tree, &mirror, world, 20);
    }
}

#[test]
fn rebuild_of_coincident_boxes_is_balanced() {
    let mut tree = DynamicTree::with_margin(0.0).unwrap();
    let b = Aabb::new(Vec2::splat(1.0), Vec2::splat(2.0));
    let ids: Vec<_> = (0..1024).map(|i| tree.create_proxy(b, i).unwrap()).collect();
    tree.rebuild();
    tree.validate().unwrap();
    assert_eq!(tree.height(), 10);
    assert_eq!(collect_query(&tree, b).len(), ids.len());
}

#[test]
fn height_stays_logarithmic() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut tree = DynamicTree::new();
    let n = 50_000;
    for i in 0..n {
        tree.create_proxy(random_box(&mut rng, 700.0), i).unwrap();
    }
    let stats = tree.stats();
    // A perfectly balanced tree of 50k leaves has height 16.
    assert!(stats.height <= 40, "{stats:?}");
    // Boxes inserted in sorted order along a line, the classic worst case for naive trees.
    let mut line = DynamicTree::new();
    for i in 0..n {
        let x = i as f32 * 0.5;
        line.create_proxy(Aabb::new(Vec2::new(x, 0.0), Vec2::new(x + 0.4, 0.4)), i).unwrap();
    }
    assert!(line.height() <= 40, "{:?}", line.stats());
    line.validate().unwrap();
}

#[test]
fn stale_handles_are_refused() {
    let mut tree = DynamicTree::new();
    let b = Aabb::new(Vec2::ZERO, Vec2::ONE);
    let a = tree.create_proxy(b, 1).unwrap();
    let c = tree.create_proxy(b, 2).unwrap();
    assert_eq!(tree.remove_proxy(a), Ok(1));
    let stale = BroadPhaseError::InvalidProxy { index: a.index(), generation: a.generation() };
    assert_eq!(tree.remove_proxy(a), Err(stale.clone()));
    assert_eq!(tree.fat_aabb(a), Err(stale.clone()));
    assert_eq!(tree.move_proxy(a, b), Err(stale.clone()));
    // A new proxy takes the old slot; the old handle still misses.
    let d = tree.create_proxy(b, 3).unwrap();
    let e = tree.create_proxy(b, 4).unwrap();
    assert!([d, e].iter().any(|x| x.index() == a.index()));
    assert_eq!(tree.user_data(a), Err(stale));
    assert!(!tree.contains(a) && tree.contains(c) && tree.contains(d));
    tree.validate().unwrap();
}

#[test]
fn hostile_boxes_are_refused_and_leave_the_tree_intact() {
    let mut tree = DynamicTree::new();
    let good = Aabb::new(Vec2::ZERO, Vec2::ONE);
    let id = tree.create_proxy(good, 9).unwrap();
    let bad = [
        Aabb::new(Vec2::new(f32::NAN, 0.0), Vec2::ONE),
        Aabb::new(Vec2::ZERO, Vec2::new(1.0, f32::NAN)),
        Aabb::new(Vec2::ZERO, Vec2::new(f32::INFINITY, 1.0)),
        Aabb::new(Vec2::ONE, Vec2::ZERO),
        Aabb::new(Vec2::splat(-f32::MAX), Vec2::splat(f32::MAX)), // its enlargement is still finite
    ];
    for (i, b) in bad.iter().enumerate() {
        let create = tree.create_proxy(*b, 0);
        let moved = tree.move_proxy(id, *b);
        let query = tree.query(*b, |_, _| true);
        let swept = tree.query_swept(*b, Vec2::ONE, |_, _, _| true);
        if i < 4 {
            assert!(matches!(create, Err(BroadPhaseError::InvalidAabb { .. })), "{i}");
            assert!(matches!(moved, Err(BroadPhaseError::InvalidAabb { .. })), "{i}");
            assert!(matches!(query, Err(BroadPhaseError::InvalidAabb { .. })), "{i}");
            assert!(matches!(swept, Err(BroadPhaseError::InvalidAabb { .. })), "{i}");
        } else {
            tree.remove_proxy(create.unwrap()).unwrap();
            assert_eq!(moved, Ok(true));
            tree.move_proxy(id, good).unwrap();
        }
    }
    assert!(tree.query_point(Vec2::new(f32::NAN, 0.0), |_, _| true).is_err());
    let swept = tree.query_swept(
        Aabb::new(Vec2::splat(f32::MAX / 2.0), Vec2::splat(f32::MAX)),
        Vec2::splat(f32::MAX),
        |_, _, _| true,
    );
    assert!(swept.is_err(), "the swept box overflows");
    for input in [
        RayCastInput { origin: Vec2::new(f32::NAN, 0.0), translation: Vec2::X, max_fraction: 1.0 },
        RayCastInput { origin: Vec2::ZERO, translation: Vec2::new(0.0, f32::INFINITY), max_fraction: 1.0 },
        RayCastInput { origin: Vec2::ZERO, translation: Vec2::X, max_fraction: -1.0 },
        RayCastInput { origin: Vec2::ZERO, translation: Vec2::X, max_fraction: f32::NAN },
    ] {
        assert!(tree.ray_cast(&input, |_, _, _| RayControl::Continue).is_err());
    }
    assert!(DynamicTree::with_margin(-1.0).is_err() && DynamicTree::with_margin(f32::NAN).is_err());
    tree.validate().unwrap();
    assert_eq!((tree.proxy_count(), tree.fat_aabb(id).unwrap()), (1, good.enlarged(tree.margin())));
}

#[test]
fn ray_controls_clip_stop_and_ignore_bad_fractions() {
    let mut tree = DynamicTree::with_margin(0.0).unwrap();
    // A row of unit boxes at x = 2, 4, 6, ..., 20 along y = 0.
    for i in 1..=10u64 {
        let x = 2.0 * i as f32;
        tree.create_proxy(Aabb::new(Vec2::new(x, -0.5), Vec2::new(x + 1.0, 0.5)), i).unwrap();
    }
    let input = RayCastInput { origin: Vec2::ZERO, translation: Vec2::new(30.0, 0.0), max_fraction: 1.0 };
    // Stop after the first report.
    let mut seen = 0;
    tree.ray_cast(&input, |_, _, _| {
        seen += 1;
        RayControl::Stop
    })
    .unwrap();
    assert_eq!(seen, 1);
    // Clipping at each box's entry leaves the nearest box's entry.
    let end = tree
        .ray_cast(&input, |ray, id, _| {
            RayControl::Clip(
                tree.fat_aabb(id).unwrap().ray_cast(ray.origin, ray.translation, ray.max_fraction).unwrap().fraction,
            )
        })
        .unwrap();
    assert_eq!(end, 2.0 / 30.0);
    // NaN, negative and growing clips are ignored.
    for bad in [f32::NAN, -0.5, 2.0] {
        let end = tree.ray_cast(&input, |_, _, _| RayControl::Clip(bad)).unwrap();
        assert_eq!(end, 1.0);
    }
    // An empty tree: nothing reported, the ray unchanged.
    let empty = DynamicTree::new();
    assert_eq!(empty.ray_cast(&input, |_, _, _| panic!("empty")).unwrap(), 1.0);
    assert_eq!(empty.height(), 0);
    assert_eq!(empty.stats().area_ratio, 0.0);
}

#[test]
fn small_motions_stay_in_the_fat_box_and_big_ones_shrink_it() {
    let mut tree = DynamicTree::new();
    let m = tree.margin();
    let b = Aabb::new(Vec2::ZERO, Vec2::ONE);
    let id = tree.create_proxy(b, 0).unwrap();
    assert_eq!(tree.move_proxy(id, b.translated(Vec2::splat(0.5 * m))), Ok(false));
    assert_eq!(tree.fat_aabb(id).unwrap(), b.enlarged(m));
    assert_eq!(tree.move_proxy(id, b.translated(Vec2::new(2.0 * m, 0.0))), Ok(true));
    // A fast proxy moved with the box enclosing its sweep, then it slows down: the oversized
    // fat box is replaced.
    let sweep = b.union(&b.translated(Vec2::new(10.0, 0.0)));
    assert_eq!(tree.move_proxy(id, sweep), Ok(true));
    let end = b.translated(Vec2::new(10.0, 0.0));
    assert_eq!(tree.move_proxy(id, end), Ok(true));
    assert_eq!(tree.fat_aabb(id).unwrap(), end.enlarged(m));
}
