//! Hulls and mass properties against independent f64 references.
//!
//! - Hulls: a brute-force O(n³) hull (every pair of points as a candidate edge) in f64, on
//!   seeded random point sets of many kinds (uniform, on a circle, clustered, near-duplicate,
//!   near-collinear, bumpy polygons, and all of them 5 km from the origin).
//! - Mass: Green's theorem on the rounded boundary (offset edges and arcs, integrated by
//!   Gauss–Legendre quadrature in f64), a decomposition independent of the library's
//!   (core + edge rectangles + corner sectors); the reference itself is checked against
//!   grid sampling of the exact signed distance.
//!
//! Run with `--nocapture` to see the measured worst errors.

use glam::DVec2;
use impact2d::settings::{LINEAR_SLOP, MAX_POLYGON_VERTICES};
use impact2d::{
    Capsule, Circle, GeometryError, Polygon, Vec2, capsule_mass, circle_mass, compute_hull, make_offset_rounded_box,
    polygon_mass,
};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

const SLOP: f64 = LINEAR_SLOP as f64;

fn d(v: Vec2) -> DVec2 {
    DVec2::new(f64::from(v.x), f64::from(v.y))
}

fn cross(a: DVec2, b: DVec2) -> f64 {
    a.x * b.y - a.y * b.x
}

// ---------------------------------------------------------------------------------------
// Brute-force hull
// ---------------------------------------------------------------------------------------

/// The exact hull's vertices, counter-clockwise, by testing every ordered pair (i, j) as an
/// edge: all other points must be strictly left of i → j, or on it strictly between i and j.
/// Exact duplicates are merged first. Returns 1 or 2 points for degenerate sets.
fn brute_hull(points: &[Vec2]) -> Vec<DVec2> {
    let mut p: Vec<DVec2> = points.iter().map(|&v| d(v)).collect();
    p.sort_by(|a, b| (a.x, a.y).partial_cmp(&(b.x, b.y)).unwrap());
    p.dedup();
    let n = p.len();
    if n < 3 {
        return p;
    }
    let mut next = vec![usize::MAX; n];
    for i in 0..n {
        for j in 0..n {
            if i == j {
                continue;
            }
            let e = p[j] - p[i];
            let is_edge = (0..n).all(|k| {
                if k == i || k == j {
                    return true;
                }
                let c = cross(e, p[k] - p[i]);
                c > 0.0 || (c == 0.0 && (p[k] - p[i]).dot(e) > 0.0 && (p[k] - p[j]).dot(-e) > 0.0)
            });
            if is_edge {
                next[i] = j;
            }
        }
    }
    let Some(start) = (0..n).find(|&i| next[i] != usize::MAX) else {
        // All collinear: the two extreme points.
        return vec![p[0], p[n - 1]];
    };
    let mut ring = vec![p[start]];
    let mut k = next[start];
    while k != start && k != usize::MAX && ring.len() <= n {
        ring.push(p[k]);
        k = next[k];
    }
    ring
}

/// Distance of each vertex from the line through its two neighbors.
fn offsets(ring: &[DVec2]) -> Vec<f64> {
    let n = ring.len();
    (0..n)
        .map(|i| {
            let (u, v, w) = (ring[(i + n - 1) % n], ring[i], ring[(i + 1) % n]);
            cross(w - u, v - u).abs() / (w - u).length()
        })
        .collect()
}

/// Smallest width over all directions (attained across an edge for a convex polygon).
fn ring_thickness(ring: &[DVec2]) -> f64 {
    if ring.len() < 3 {
        return 0.0;
    }
    let n = ring.len();
    (0..n)
        .map(|i| {
            let (a, b) = (ring[i], ring[(i + 1) % n]);
            let e = (b - a).normalize();
            ring.iter().map(|&v| cross(e, v - a)).fold(0.0, f64::max)
        })
        .fold(f64::INFINITY, f64::min)
}

/// Distance from `x` to the convex ccw polygon `ring` (0 inside).
fn outside_distance(ring: &[DVec2], x: DVec2) -> f64 {
    let n = ring.len();
    let outside = (0..n).any(|i| cross(ring[(i + 1) % n] - ring[i], x - ring[i]) < 0.0);
    if !outside {
        return 0.0;
    }
    (0..n)
        .map(|i| {
            let (a, b) = (ring[i], ring[(i + 1) % n]);
            let t = ((x - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
            (x - (a + t * (b - a))).length()
        })
        .fold(f64::INFINITY, f64::min)
}

/// Greedy welding in input order, as documented for `TooFewPoints`.
fn greedy_distinct(points: &[Vec2]) -> Vec<DVec2> {
    let mut kept: Vec<DVec2> = Vec::new();
    for &p in points {
        let p = d(p);
        if kept.iter().all(|&k| (p - k).length() >= SLOP) {
            kept.push(p);
        }
    }
    kept
}

/// The same cyclic sequence?
fn same_ring(a: &[DVec2], b: &[DVec2]) -> bool {
    a.len() == b.len() && (0..a.len()).any(|s| (0..a.len()).all(|i| a[(s + i) % a.len()] == b[i]))
}

/// Seeded random point sets of many kinds.
fn random_point_set(rng: &mut ChaCha8Rng) -> Vec<Vec2> {
    let kind = rng.random_range(0..7);
    let n = rng.random_range(0..=30usize);
    let scale = 10f32.powf(rng.random_range(-1.5..1.0));
    let mut pts: Vec<Vec2> = match kind {
        0 => (0..n).map(|_| Vec2::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0)) * scale).collect(),
        1 => {
            // On a circle, 3 to 10 corners, plus interior points.
            let k = rng.random_range(3..=10);
            let phase: f32 = rng.random_range(0.0..6.3);
            let mut v: Vec<Vec2> = (0..k)
                .map(|i| {
                    let a = phase + i as f32 * std::f32::consts::TAU / k as f32;
                    Vec2::new(a.cos(), a.sin()) * scale
                })
                .collect();
            v.extend((0..n).map(|_| Vec2::new(rng.random_range(-0.6..0.6), rng.random_range(-0.6..0.6)) * scale));
            v
        }
        2 => {
            // A few tight clusters: near-duplicates around up to 4 centers.
            let centers: Vec<Vec2> = (0..rng.random_range(1..=4))
                .map(|_| Vec2::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0)) * scale)
                .collect();
            let jitter = rng.random_range(0.0..0.01f32);
            (0..n.max(3))
                .map(|_| {
                    let c = centers[rng.random_range(0..centers.len())];
                    c + Vec2::new(rng.random_range(-1.0..=1.0), rng.random_range(-1.0..=1.0)) * jitter
                })
                .collect()
        }
        3 => {
            // Near a line, within a few slops.
            let dir = Vec2::from_angle(rng.random_range(0.0..6.3));
            let noise = rng.random_range(0.0..0.02f32);
            (0..n.max(3))
                .map(|_| dir * rng.random_range(-1.0..1.0) * scale + dir.perp() * rng.random_range(-1.0..=1.0) * noise)
                .collect()
        }
        4 => {
            // A box with slightly bumped edge midpoints (about a slop out or in).
            let (w, h) = (scale * rng.random_range(0.2..1.0), scale * rng.random_range(0.2..1.0));
            let bump = rng.random_range(-0.01..0.015f32);
            let mut v = vec![Vec2::new(-w, -h), Vec2::new(w, -h), Vec2::new(w, h), Vec2::new(-w, h)];
            v.extend([Vec2::new(0.0, -h - bump), Vec2::new(w + bump, 0.0), Vec2::new(0.0, h + bump)]);
            v
        }
        5 => {
            // Exact duplicates of a few points.
            let base: Vec<Vec2> = (0..rng.random_range(1..=5))
                .map(|_| Vec2::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0)) * scale)
                .collect();
            (0..n.max(1)).map(|i| base[i % base.len()]).collect()
        }
        _ => {
            // Tiny sets near the slop scale.
            let s = rng.random_range(0.002..0.03f32);
            (0..rng.random_range(2..6)).map(|_| Vec2::new(rng.random_range(-s..s), rng.random_range(-s..s))).collect()
        }
    };
    if rng.random_bool(0.3) {
        let offset = Vec2::from_angle(rng.random_range(0.0..6.3)) * 5000.0;
        for p in &mut pts {
            *p += offset;
        }
    }
    for i in (1..pts.len()).rev() {
        let j = rng.random_range(0..=i);
        pts.swap(i, j);
    }
    pts
}

/// Checks a successful hull's promised properties; returns the largest distance of an input
/// point outside it.
fn check_hull_properties(points: &[Vec2], hull: &[Vec2]) -> f64 {
    assert!((3..=MAX_POLYGON_VERTICES).contains(&hull.len()));
    for v in hull {
        assert!(points.iter().any(|p| p.x.to_bits() == v.x.to_bits() && p.y.to_bits() == v.y.to_bits()));
    }
    let ring: Vec<DVec2> = hull.iter().map(|&v| d(v)).collect();
    let n = ring.len();
    for i in 0..n {
        let (a, b, c) = (ring[i], ring[(i + 1) % n], ring[(i + 2) % n]);
        assert!(cross(b - a, c - b) > 0.0, "not strictly convex counter-clockwise: {hull:?}");
        for j in (i + 1)..n {
            assert!((ring[i] - ring[j]).length() >= SLOP, "two vertices closer than the slop");
        }
    }
    assert!(offsets(&ring).iter().all(|&o| o >= SLOP), "a vertex within the slop of its neighbors' line");
    assert!(ring_thickness(&ring) >= SLOP);
    points.iter().map(|&p| outside_distance(&ring, d(p))).fold(0.0, f64::max)
}

#[test]
fn hull_matches_brute_force_on_random_sets() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x4855_4c4c);
    let (mut ok, mut exact, mut too_few, mut collinear, mut too_many) = (0, 0, 0, 0, 0);
    let mut worst_outside = 0.0f64;
    let mut thickest_rejected = 0.0f64;
    for case in 0..12_000 {
        let points = random_point_set(&mut rng);
        let truth = brute_hull(&points);
        let truth_good = truth.len() >= 3
            && truth.len() <= MAX_POLYGON_VERTICES
            && offsets(&truth).iter().all(|&o| o >= 2.0 * SLOP)
            && ring_thickness(&truth) >= 2.0 * SLOP;
        match compute_hull(&points) {
            Ok(hull) => {
                ok += 1;
                worst_outside = worst_outside.max(check_hull_properties(&points, hull.points()));
                let mine: Vec<DVec2> = hull.points().iter().map(|&v| d(v)).collect();
                if truth_good {
                    assert!(same_ring(&mine, &truth), "case {case}: {mine:?} vs exact {truth:?}");
                    exact += 1;
                }
            }
            Err(GeometryError::TooFewPoints { count }) => {
                too_few += 1;
                assert!(!truth_good, "case {case}: clear hull rejected");
                let kept = greedy_distinct(&points);
                assert_eq!(count, kept.len().min(3));
                assert!(count < 3);
            }
            Err(GeometryError::Collinear) => {
                collinear += 1;
                assert!(!truth_good, "case {case}: clear hull rejected as collinear: {truth:?}");
                thickest_rejected = thickest_rejected.max(ring_thickness(&truth));
            }
            Err(GeometryError::TooManyVertices { count, max }) => {
                too_many += 1;
                assert!(count > max && truth.len() >= count, "case {case}");
            }
            Err(e) => panic!("case {case}: unexpected {e}"),
        }
    }
    println!(
        "hull: {ok} ok ({exact} equal to a clear exact hull), {too_few} too few, {collinear} collinear, \
         {too_many} too many; worst input point outside the hull {worst_outside:.3e} m; \
         thickest exact hull rejected as collinear {thickest_rejected:.3e} m"
    );
    assert!(ok > 3000 && exact > 2000 && too_few > 300 && collinear > 300 && too_many > 100);
    // Removing nearly collinear vertices moves the boundary by less than about the slop.
    // Removal is greedy, so its displacements can add up a little beyond one slop.
    assert!(worst_outside <= 2.0 * SLOP, "{worst_outside}");
    assert!(thickest_rejected <= 2.5 * SLOP, "{thickest_rejected}");
}

#[test]
fn hull_of_many_points_on_a_circle_is_too_many_or_simplified() {
    // 1000 points on a 1 m circle: neighbors are 6 mm apart and nearly collinear. The
    // clean-up keeps the polygon within the slop of the circle, which needs more than 8
    // vertices.
    let pts: Vec<Vec2> = (0..1000).map(|i| Vec2::from_angle(i as f32 * std::f32::consts::TAU / 1000.0)).collect();
    assert!(matches!(compute_hull(&pts), Err(GeometryError::TooManyVertices { .. })));
    // At 1.2 cm radius, 5 km away, the same sampling simplifies to at most 8 vertices.
    let small: Vec<Vec2> = pts.iter().map(|&p| p * 0.012 + Vec2::new(5000.0, 5000.0)).collect();
    let hull = compute_hull(&small).unwrap();
    let worst = check_hull_properties(&small, hull.points());
    assert!(worst <= 2.0 * SLOP);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Hostile input: NaN, infinities, huge and tiny values, duplicates, 0 to 1000 points.
    /// Never panics; a success always satisfies the promised properties.
    #[test]
    fn hull_never_panics(points in prop::collection::vec(hostile_point(), 0..1000)) {
        if let Ok(hull) = compute_hull(&points) {
            check_hull_properties(&points, hull.points());
        }
    }
}

fn hostile_f32() -> impl Strategy<Value = f32> {
    prop_oneof![
        4 => -2.0f32..2.0,
        1 => Just(0.0f32),
        1 => Just(f32::NAN),
        1 => Just(f32::INFINITY),
        1 => Just(f32::NEG_INFINITY),
        1 => prop_oneof![Just(1e30f32), Just(-1e30f32), Just(f32::MAX), Just(1e9f32), Just(-1e9f32)],
        1 => prop_oneof![Just(1e-30f32), Just(f32::MIN_POSITIVE), Just(1e-45f32)],
        1 => any::<f32>(),
    ]
}

fn hostile_point() -> impl Strategy<Value = Vec2> {
    prop_oneof![
        8 => (-3.0f32..3.0, -3.0f32..3.0).prop_map(|(x, y)| Vec2::new(x, y)),
        1 => (hostile_f32(), hostile_f32()).prop_map(|(x, y)| Vec2::new(x, y)),
        1 => Just(Vec2::new(0.5, 0.5)),
    ]
}

// ---------------------------------------------------------------------------------------
// Mass reference: Green's theorem on the rounded boundary
// ---------------------------------------------------------------------------------------

/// Area, first moment and polar second moment about the frame origin.
#[derive(Default, Debug, Clone, Copy)]
struct Ref {
    area: f64,
    first: DVec2,
    second: f64,
}

/// 5-point Gauss–Legendre nodes and weights on [-1, 1].
const GL5: [(f64, f64); 5] = [
    (0.0, 0.568_888_888_888_888_9),
    (-0.538_469_310_105_683_1, 0.478_628_670_499_366_5),
    (0.538_469_310_105_683_1, 0.478_628_670_499_366_5),
    (-0.906_179_845_938_664, 0.236_926_885_056_189_1),
    (0.906_179_845_938_664, 0.236_926_885_056_189_1),
];

/// Adds ∮ over the curve `x(s)`, s ∈ [0, 1], with velocity `dx(s)`, of the Green integrands:
/// A = ½∮(x dy − y dx), ∫x = ½∮x² dy, ∫y = −½∮y² dx, ∫x² = ⅓∮x³ dy, ∫y² = −⅓∮y³ dx.
fn green(acc: &mut Ref, pieces: usize, x: impl Fn(f64) -> DVec2, dx: impl Fn(f64) -> DVec2) {
    for k in 0..pieces {
        let (s0, s1) = (k as f64 / pieces as f64, (k + 1) as f64 / pieces as f64);
        for (node, weight) in GL5 {
            let s = 0.5 * (s0 + s1) + 0.5 * (s1 - s0) * node;
            let w = 0.5 * (s1 - s0) * weight;
            let (p, v) = (x(s), dx(s));
            acc.area += w * 0.5 * (p.x * v.y - p.y * v.x);
            acc.first += w * DVec2::new(0.5 * p.x * p.x * v.y, -0.5 * p.y * p.y * v.x);
            acc.second += w * (p.x.powi(3) * v.y - p.y.powi(3) * v.x) / 3.0;
        }
    }
}

/// Moments of the points within `r` of the convex hull of `core` (1 point: disc, 2: capsule,
/// 3+: counter-clockwise polygon), about `origin`, by walking its boundary: an arc around
/// each core point from the previous edge's normal to the next one's, then the offset edge.
fn rounded_reference(core: &[DVec2], r: f64, origin: DVec2) -> Ref {
    let p: Vec<DVec2> = core.iter().map(|&c| c - origin).collect();
    let n = p.len();
    let mut acc = Ref::default();
    if n == 1 {
        let c = p[0];
        let t = std::f64::consts::TAU;
        green(&mut acc, 32, |s| c + r * DVec2::from_angle(t * s), |s| r * t * DVec2::from_angle(t * s).perp());
        return acc;
    }
    let normal = |i: usize| {
        let e = p[(i + 1) % n] - p[i];
        DVec2::new(e.y, -e.x).normalize()
    };
    for i in 0..n {
        let (n0, n1) = (normal((i + n - 1) % n), normal(i));
        if r > 0.0 {
            let a0 = n0.y.atan2(n0.x);
            let mut sweep = cross(n0, n1).atan2(n0.dot(n1));
            if sweep <= 0.0 {
                sweep += std::f64::consts::TAU;
            }
            let c = p[i];
            green(
                &mut acc,
                16,
                |s| c + r * DVec2::from_angle(a0 + sweep * s),
                |s| r * sweep * DVec2::from_angle(a0 + sweep * s).perp(),
            );
        }
        let (a, b) = (p[i] + r * n1, p[(i + 1) % n] + r * n1);
        green(&mut acc, 1, |s| a + s * (b - a), |_| b - a);
    }
    acc
}

/// Exact signed distance to the rounded convex hull of `core` (f64).
fn rounded_signed_distance(core: &[DVec2], r: f64, x: DVec2) -> f64 {
    let n = core.len();
    let seg = |a: DVec2, b: DVec2| {
        let t = ((x - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
        (x - (a + t * (b - a))).length()
    };
    let core_distance = match n {
        1 => (x - core[0]).length(),
        2 => seg(core[0], core[1]),
        _ => {
            let inside = (0..n).all(|i| cross(core[(i + 1) % n] - core[i], x - core[i]) >= 0.0);
            let nearest = (0..n).map(|i| seg(core[i], core[(i + 1) % n])).fold(f64::INFINITY, f64::min);
            if inside { -nearest } else { nearest }
        }
    };
    core_distance - r
}

/// Relative error of `got` against `want`.
fn rel(got: f32, want: f64) -> f64 {
    (f64::from(got) - want).abs() / want.abs()
}

/// A random convex core of 3 to 8 points, `size` across, or a box.
fn random_polygon(rng: &mut ChaCha8Rng, center: Vec2, size: f32, radius: f32) -> Polygon {
    loop {
        if rng.random_bool(0.2) {
            let (hw, hh) = (size * rng.random_range(0.05..0.5), size * rng.random_range(0.05..0.5));
            let angle = rng.random_range(-3.2..3.2);
            return make_offset_rounded_box(hw, hh, center, angle, radius).unwrap();
        }
        let k = rng.random_range(3..=8);
        let pts: Vec<Vec2> = (0..k)
            .map(|_| center + Vec2::new(rng.random_range(-0.5..0.5), rng.random_range(-0.5..0.5)) * size)
            .collect();
        if let Ok(p) = Polygon::new(&pts, radius) {
            return p;
        }
    }
}

/// Worst errors over a family of shapes: mass relative, center relative to (size + distance
/// from the origin), inertia relative.
#[derive(Default)]
struct Worst {
    mass: f64,
    center: f64,
    inertia: f64,
}

impl Worst {
    fn record(&mut self, got: impact2d::MassData, density: f64, want: &Ref, origin: DVec2, size: f64) {
        let center = want.first / want.area;
        let inertia = want.second - want.area * center.length_squared();
        self.mass = self.mass.max(rel(got.mass, density * want.area));
        // The center is an f32 position: an error of half an ulp of its magnitude is
        // unavoidable, so it is measured relative to size plus distance from the origin.
        let want_center = origin + center;
        self.center = self.center.max((d(got.center) - want_center).length() / (size + want_center.length()));
        self.inertia = self.inertia.max(rel(got.rotational_inertia, density * inertia));
    }
}

#[test]
fn mass_matches_boundary_integral_reference() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x4d41_5353);
    let (mut circles, mut capsules, mut polygons) = (Worst::default(), Worst::default(), Worst::default());
    for case in 0..6000 {
        let far = rng.random_bool(0.3);
        let center = if far {
            Vec2::from_angle(rng.random_range(0.0..6.3)) * 5000.0
        } else {
            Vec2::new(rng.random_range(-3.0..3.0), rng.random_range(-3.0..3.0))
        };
        let size = 10f32.powf(rng.random_range(-1.5..1.0));
        let density: f32 = rng.random_range(0.1..2000.0);
        let rho = f64::from(density);
        match case % 6 {
            0 => {
                let c = Circle::new(center, size * rng.random_range(0.1..1.0)).unwrap();
                let origin = d(c.center());
                let want = rounded_reference(&[origin], f64::from(c.radius()), origin);
                circles.record(circle_mass(&c, density), rho, &want, origin, f64::from(size));
            }
            1 => {
                let length = (size * rng.random_range(0.05..1.0)).max(0.01);
                let axis = Vec2::from_angle(rng.random_range(0.0..6.3)) * length;
                let c = Capsule::new(center, center + axis, size * rng.random_range(0.02..0.5)).unwrap();
                let core = [d(c.center1()), d(c.center2())];
                let want = rounded_reference(&core, f64::from(c.radius()), core[0]);
                capsules.record(capsule_mass(&c, density), rho, &want, core[0], f64::from(size));
            }
            _ => {
                let radius = if rng.random_bool(0.25) { 0.0 } else { size * rng.random_range(0.0..0.6) };
                let p = random_polygon(&mut rng, center, size, radius);
                let core: Vec<DVec2> = p.vertices().iter().map(|&v| d(v)).collect();
                let want = rounded_reference(&core, f64::from(p.radius()), core[0]);
                polygons.record(polygon_mass(&p, density), rho, &want, core[0], f64::from(size));
            }
        }
    }
    for (name, w) in [("circle", &circles), ("capsule", &capsules), ("rounded polygon", &polygons)] {
        println!(
            "mass {name}: worst mass rel {:.2e}, center / (size + |center|) {:.2e}, inertia rel {:.2e}",
            w.mass, w.center, w.inertia
        );
        assert!(w.mass < 1e-6, "{name} mass {}", w.mass);
        assert!(w.center < 1e-6, "{name} center {}", w.center);
        assert!(w.inertia < 1e-5, "{name} inertia {}", w.inertia);
    }
}

/// The Green's-theorem reference agrees with brute-force grid sampling of the exact signed
/// distance (midpoint rule), so it is not wrong in the same way as the library.
#[test]
fn boundary_reference_agrees_with_grid_sampling() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut worst = (0.0f64, 0.0f64, 0.0f64);
    for _ in 0..12 {
        let radius = rng.random_range(0.0..0.4);
        let p = random_polygon(&mut rng, Vec2::new(0.3, -0.2), 1.0, radius);
        let core: Vec<DVec2> = p.vertices().iter().map(|&v| d(v)).collect();
        let r = f64::from(p.radius());
        let want = rounded_reference(&core, r, DVec2::ZERO);
        let (lo, hi) = (DVec2::splat(-1.5), DVec2::splat(1.5));
        let cells = 700;
        let h = (hi - lo) / cells as f64;
        let mut got = Ref::default();
        for i in 0..cells {
            for j in 0..cells {
                let x = lo + DVec2::new((i as f64 + 0.5) * h.x, (j as f64 + 0.5) * h.y);
                if rounded_signed_distance(&core, r, x) <= 0.0 {
                    let a = h.x * h.y;
                    got.area += a;
                    got.first += a * x;
                    got.second += a * x.length_squared();
                }
            }
        }
        worst.0 = worst.0.max((got.area - want.area).abs() / want.area);
        worst.1 = worst.1.max((got.first / got.area - want.first / want.area).length());
        worst.2 = worst.2.max((got.second - want.second).abs() / want.second);
    }
    println!(
        "grid vs boundary reference: area rel {:.2e}, center {:.2e} m, second rel {:.2e}",
        worst.0, worst.1, worst.2
    );
    assert!(worst.0 < 2e-3 && worst.1 < 2e-3 && worst.2 < 2e-3);
}

#[test]
fn named_mass_cases() {
    // Unit square rounded by 0.1: area 1 + 4 * 0.1 + π 0.01.
    let p = make_offset_rounded_box(0.5, 0.5, Vec2::ZERO, 0.0, 0.1).unwrap();
    let m = polygon_mass(&p, 1.0);
    assert!(rel(m.mass, 1.4 + std::f64::consts::PI * 0.01) < 1e-6);
    // Far from the origin: the corners round to f32 (0.5 mm spacing at 5 km), but the mass
    // properties of those corners stay exact.
    let q = make_offset_rounded_box(0.5, 0.25, Vec2::new(5000.0, -5000.0), 0.7, 0.1).unwrap();
    let mq = polygon_mass(&q, 1.0);
    assert!((mq.center - Vec2::new(5000.0, -5000.0)).length() < 1e-3);
    let core: Vec<DVec2> = q.vertices().iter().map(|&v| d(v)).collect();
    let want = rounded_reference(&core, 0.1f32.into(), core[0]);
    let center = want.first / want.area;
    assert!(rel(mq.rotational_inertia, want.second - want.area * center.length_squared()) < 1e-6);
}

/// A valid hull 1e9 m long and 1.5 m thick: its f32 centroid (`Polygon::centroid`)
/// degenerates, but the mass is computed in f64 from the vertices and stays exact.
#[test]
fn mass_of_extreme_sliver() {
    let pts = [Vec2::new(-1e9, 1e9), Vec2::ZERO, Vec2::new(0.0, 2.109_786_5)];
    let p = Polygon::new(&pts, 0.0).unwrap();
    let m = polygon_mass(&p, 1.0);
    let core: Vec<DVec2> = p.vertices().iter().map(|&v| d(v)).collect();
    let want = rounded_reference(&core, 0.0, core[0]);
    assert!(rel(m.mass, want.area) < 1e-6);
    assert!((d(m.center) - (core[0] + want.first / want.area)).length() < 1e-7 * 1e9);
    assert!(m.rotational_inertia.is_finite() && m.rotational_inertia > 0.0);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Any shape the constructors accept, at any density: no NaN, no panic.
    #[test]
    fn mass_never_nan(
        a in hostile_point(), b in hostile_point(), c in hostile_point(),
        radius in hostile_f32(), density in hostile_f32(),
    ) {
        let mut results = Vec::new();
        if let Ok(circle) = Circle::new(a, radius) {
            results.push(circle_mass(&circle, density));
        }
        if let Ok(capsule) = Capsule::new(a, b, radius) {
            results.push(capsule_mass(&capsule, density));
        }
        if let Ok(polygon) = Polygon::new(&[a, b, c], radius.abs()) {
            results.push(polygon_mass(&polygon, density));
        }
        // The box constructors accept half sizes whose rotated corners overflow to
        // infinity (a known gap in their validation); such boxes are not shapes.
        if let Ok(polygon) = make_offset_rounded_box(a.x.abs(), a.y.abs(), b, c.x, radius.abs())
            && polygon.vertices().iter().all(|v| v.is_finite())
        {
            results.push(polygon_mass(&polygon, density));
        }
        for m in results {
            prop_assert!(!m.mass.is_nan() && !m.rotational_inertia.is_nan() && !m.center.is_nan());
            prop_assert!(m.mass >= 0.0 && m.rotational_inertia >= 0.0);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Rotations that are not unit, and bounding circles about far centers (issue 18)
// ---------------------------------------------------------------------------------------

/// A random shape of each kind, about 1 cm to 100 m, up to its size from the body origin.
fn random_any_shape(rng: &mut ChaCha8Rng) -> impact2d::Shape {
    use impact2d::{ChainSegment, Segment, Shape};
    let size = 10f32.powf(rng.random_range(-2.0..2.0));
    let center = Vec2::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0)) * size;
    let axis = Vec2::from_angle(rng.random_range(0.0..6.3)) * size;
    match rng.random_range(0..5) {
        0 => Shape::Circle(Circle::new(center, size * rng.random_range(0.1..1.0)).unwrap()),
        1 => Shape::Capsule(Capsule::new(center - axis, center + axis, size * rng.random_range(0.1..1.0)).unwrap()),
        2 => {
            let radius = if rng.random_bool(0.5) { 0.0 } else { 0.1 * size };
            Shape::Polygon(random_polygon(rng, center, size, radius))
        }
        3 => Shape::Segment(Segment::new(center - axis, center + axis).unwrap()),
        _ => Shape::ChainSegment(
            ChainSegment::new(center - 2.0 * axis, center - axis, center + axis, center + 2.0 * axis).unwrap(),
        ),
    }
}

/// The shape's core points and radius in body coordinates (f64).
fn core_of(shape: &impact2d::Shape) -> (Vec<DVec2>, f64) {
    let proxy = impact2d::ShapeProxy::from_shape(shape);
    (proxy.points().iter().map(|&p| d(p)).collect(), f64::from(proxy.radius()))
}

/// `Shape::aabb` with rotations written field by field: their direction scaled by 1e-38 to
/// 1e38 (normalizable), and zero, NaN and infinite pairs (not), for every shape kind up to
/// 1e6 m from the origin. The box is finite; for a normalizable rotation it holds the shape
/// placed by the exact unit rotation of that direction (f64) and is tight, both to 4 f32
/// spacings of the largest coordinate (the rounding of a unit rotation moves a point by a
/// few); otherwise it holds the shape at every rotation. Before issue
/// 18, a pair such as (3e38, 3e38) made the box NaN. `Rot::new` and `Rot::normalized` give
/// unit rotations of the same direction, or `None` for pairs without one.
#[test]
fn aabb_of_rotations_that_are_not_unit() {
    use impact2d::{Rot, Transform};
    let mut rng = ChaCha8Rng::seed_from_u64(0x1551_0018);
    let mut worst = 0.0f64;
    for i in 0..20_000 {
        let shape = random_any_shape(&mut rng);
        let (core, radius) = core_of(&shape);
        let position = Vec2::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0))
            * 10f32.powf(rng.random_range(0.0..6.0));
        let angle = rng.random_range(-3.2f64..3.2);
        let scale = 10f64.powf(rng.random_range(-38.0..38.0));
        let (c, s) = match i % 10 {
            0 => (0.0, 0.0),
            1 => (f32::NAN, 0.5),
            2 => (f32::INFINITY, f32::INFINITY),
            _ => ((scale * angle.cos()) as f32, (scale * angle.sin()) as f32),
        };
        let q = Rot { c, s };
        let aabb = shape.aabb(Transform { p: position, q });
        let (lower, upper) = (d(aabb.lower), d(aabb.upper));
        assert!(aabb.lower.is_finite() && aabb.upper.is_finite(), "{shape:?} {q:?}: {aabb:?}");
        let spacing = f64::from(f32::EPSILON)
            * (d(position).abs().max_element() + core.iter().fold(0.0f64, |m, p| m.max(p.length())) + radius);
        // Holds to 4 spacings: the rounding of the unit rotation (from its angle, or
        // normalized) moves a point by a few.
        let slack = 4.0 * spacing;
        let holds = |points: &[DVec2]| {
            points.iter().all(|p| {
                p.x - radius >= lower.x - slack
                    && p.y - radius >= lower.y - slack
                    && p.x + radius <= upper.x + slack
                    && p.y + radius <= upper.y + slack
            })
        };
        match Rot::new(c, s) {
            Some(unit) => {
                assert!(((unit.c * unit.c + unit.s * unit.s) - 1.0).abs() < 1e-6, "{q:?} -> {unit:?}");
                assert_eq!(q.normalized(), Some(unit));
                // The exact unit rotation of the pair's direction (f64).
                let (cx, sx) = (f64::from(c), f64::from(s));
                let length = cx.hypot(sx);
                let (cu, su) = (cx / length, sx / length);
                let placed: Vec<DVec2> =
                    core.iter().map(|p| DVec2::new(cu * p.x - su * p.y, su * p.x + cu * p.y) + d(position)).collect();
                assert!(holds(&placed), "{shape:?} {q:?} at {position:?}: {aabb:?}");
                let want_lower =
                    placed.iter().fold(DVec2::splat(f64::INFINITY), |m, &p| m.min(p)) - DVec2::splat(radius);
                let want_upper =
                    placed.iter().fold(DVec2::splat(f64::NEG_INFINITY), |m, &p| m.max(p)) + DVec2::splat(radius);
                let error = (lower - want_lower).abs().max_element().max((upper - want_upper).abs().max_element());
                worst = worst.max(error / spacing);
                assert!(error <= slack, "{shape:?} {q:?}: {aabb:?}, off by {error:e}");
            }
            None => {
                assert!(q.normalized().is_none());
                for k in 0..16 {
                    let a = f64::from(k) * std::f64::consts::TAU / 16.0;
                    let placed: Vec<DVec2> = core
                        .iter()
                        .map(|p| DVec2::new(a.cos() * p.x - a.sin() * p.y, a.sin() * p.x + a.cos() * p.y) + d(position))
                        .collect();
                    assert!(holds(&placed), "{shape:?} {q:?}: {aabb:?}");
                }
            }
        }
    }
    println!("aabb of rotations that are not unit: worst {worst:.2} f32 spacings from the exact box");
}

/// `ShapeProxy::max_distance_from` for centers from 1 m to `f32::MAX` away, in every
/// direction: finite, within 4 f32 steps of the exact (f64) distance to the farthest core
/// point (f32 rounds the difference, its square and the root), or `f32::MAX` where the
/// exact distance exceeds it. Before
/// issue 18 it was infinite for centers beyond about 1.8e19 m (the squared difference
/// overflowed).
#[test]
fn max_distance_from_is_finite_for_finite_centers() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x1551_0019);
    for i in 0..20_000 {
        let shape = random_any_shape(&mut rng);
        let proxy = impact2d::ShapeProxy::from_shape(&shape);
        let offset = Vec2::new(rng.random_range(-1e6..1e6), rng.random_range(-1e6..1e6));
        let proxy =
            impact2d::ShapeProxy::new(&proxy.points().iter().map(|&p| p + offset).collect::<Vec<_>>(), 0.0).unwrap();
        let magnitude = 10f64.powf(rng.random_range(0.0..38.54)).min(f64::from(f32::MAX)) as f32;
        let center = match i % 20 {
            0 => Vec2::splat(f32::MAX) * if rng.random_bool(0.5) { 1.0 } else { -1.0 },
            _ => Vec2::from_angle(rng.random_range(0.0..6.3)) * magnitude,
        };
        let got = proxy.max_distance_from(center);
        let exact = proxy.points().iter().map(|&p| (d(p) - d(center)).length()).fold(0.0, f64::max);
        assert!(got.is_finite(), "{proxy:?} from {center:?}: {got}");
        if exact >= f64::from(f32::MAX) {
            assert_eq!(got, f32::MAX, "{proxy:?} from {center:?}");
        } else {
            let (got, step) = (f64::from(got), f64::from(f32::EPSILON));
            assert!((got - exact).abs() <= 4.0 * step * exact, "{proxy:?} from {center:?}: {got} for {exact}");
        }
    }
    assert_eq!(impact2d::ShapeProxy::new(&[Vec2::ZERO], 0.0).unwrap().max_distance_from(Vec2::NAN), f32::INFINITY);
}
