//! Convex decomposition of concave polygons against a brute-force f64 reference: on seeded
//! random simple polygons (star-shaped with random radii, combs, spirals; both windings,
//! 5 km out for some; 10,000 of them), every piece is convex with at most 8 vertices, the
//! pieces' areas add up to the polygon's within 1e-4 relative (measured 4e-8), and dense point
//! sampling finds every point inside the polygon in exactly one piece (to 1e-5 m: on a shared
//! edge in two) and every point outside in none.

use impact2d::settings::{MAX_CONCAVE_POINTS, MAX_POLYGON_VERTICES};
use impact2d::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::f64::consts::TAU;

/// Twice the signed area of a ring (f64).
fn area2(ring: &[glam::DVec2]) -> f64 {
    (0..ring.len()).map(|i| ring[i].perp_dot(ring[(i + 1) % ring.len()])).sum()
}

/// Distance from `p` to segment `a b`.
fn to_segment(p: glam::DVec2, a: glam::DVec2, b: glam::DVec2) -> f64 {
    let ab = b - a;
    let s = ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0);
    p.distance(a + ab * s)
}

/// Whether `p` is inside the ring, by the crossing number.
fn inside(ring: &[glam::DVec2], p: glam::DVec2) -> bool {
    let mut odd = false;
    for i in 0..ring.len() {
        let (a, b) = (ring[i], ring[(i + 1) % ring.len()]);
        if (a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x) {
            odd = !odd;
        }
    }
    odd
}

/// The signed distance of `p` from a convex counter-clockwise piece's boundary (positive
/// inside).
fn depth_in(piece: &[glam::DVec2], p: glam::DVec2) -> f64 {
    let n = piece.len();
    let inner = (0..n)
        .map(|i| {
            let (a, b) = (piece[i], piece[(i + 1) % n]);
            (b - a).perp_dot(p - a) / a.distance(b)
        })
        .fold(f64::INFINITY, f64::min);
    if inner >= 0.0 {
        inner
    } else {
        -(0..n).map(|i| to_segment(p, piece[i], piece[(i + 1) % n])).fold(f64::INFINITY, f64::min)
    }
}

/// A random simple polygon around `center`: star-shaped (sorted angles, random radii), a
/// comb, or a spiral; in either winding.
fn random_polygon(rng: &mut ChaCha8Rng, center: Vec2) -> Vec<Vec2> {
    let kind = rng.random_range(0..4);
    let mut points: Vec<glam::DVec2> = match kind {
        0 | 1 => {
            // One angle in each of n slots: gaps under half a turn keep the star simple.
            let n = rng.random_range(3..60);
            let slot = TAU / n as f64;
            (0..n)
                .map(|k| {
                    let angle = slot * (k as f64 + rng.random_range(-0.4..0.4));
                    glam::DVec2::from_angle(angle) * rng.random_range(0.3..3.0)
                })
                .collect()
        }
        2 => {
            // A comb: a base bar with teeth up.
            let teeth = rng.random_range(2..12);
            let (w, gap, h) = (rng.random_range(0.05..0.4), rng.random_range(0.05..0.4), rng.random_range(0.3..2.0));
            let end = teeth as f64 * (w + gap) - gap;
            let mut ring = vec![glam::DVec2::new(0.0, -0.3), glam::DVec2::new(end, -0.3)];
            for t in (0..teeth).rev() {
                let x = t as f64 * (w + gap);
                ring.extend([glam::DVec2::new(x + w, h), glam::DVec2::new(x, h)]);
                if t > 0 {
                    ring.extend([glam::DVec2::new(x, 0.0), glam::DVec2::new(x - gap, 0.0)]);
                }
            }
            ring
        }
        _ => {
            // A spiral band: out along one arm, back along a parallel one.
            let turns = rng.random_range(0.5..2.0);
            let n = (turns * 24.0) as usize + 3;
            let width = rng.random_range(0.1..0.3);
            let arm = |k: usize, offset: f64| {
                let a = turns * TAU * k as f64 / n as f64;
                glam::DVec2::from_angle(a) * (0.5 + 0.25 * a + offset)
            };
            let mut ring: Vec<_> = (0..=n).map(|k| arm(k, 0.0)).collect();
            ring.extend((0..=n).rev().map(|k| arm(k, width)));
            ring
        }
    };
    if rng.random_bool(0.5) {
        points.reverse();
    }
    points.iter().map(|p| p.as_vec2() + center).collect()
}

#[test]
fn random_simple_polygons_split_into_convex_pieces_that_tile_them() {
    let mut rng = ChaCha8Rng::seed_from_u64(61);
    let (mut pieces_total, mut most_pieces, mut samples, mut worst_area) = (0, 0, 0, 0.0f64);
    for case in 0..10_000 {
        let center = if case % 4 == 3 { Vec2::new(5000.0, -3000.0) } else { Vec2::ZERO };
        let points = random_polygon(&mut rng, center);
        let pieces = decompose_polygon(&points, 0.0).unwrap_or_else(|e| panic!("case {case}: {e}: {points:?}"));
        pieces_total += pieces.len();
        most_pieces = most_pieces.max(pieces.len());
        // Relative to the center, in f64, as the reference measures.
        let rel = |p: Vec2| (p - center).as_dvec2();
        let ring: Vec<glam::DVec2> = points.iter().map(|&p| rel(p)).collect();
        let parts: Vec<Vec<glam::DVec2>> =
            pieces.iter().map(|q| q.vertices().iter().map(|&p| rel(p)).collect()).collect();
        for part in &parts {
            assert!(part.len() <= MAX_POLYGON_VERTICES && area2(part) > 0.0, "case {case}");
        }
        // The pieces keep the polygon's vertices: they cover its area to round-off (the
        // issue asks 1e-4 relative).
        let total: f64 = parts.iter().map(|q| area2(q)).sum::<f64>() * 0.5;
        let whole = area2(&ring).abs() * 0.5;
        let slop = settings::LINEAR_SLOP as f64;
        worst_area = worst_area.max((total - whole).abs() / whole);
        assert!((total - whole).abs() <= 1e-4 * whole, "case {case}: pieces {total} against {whole}");
        // Dense sampling over the bounding box.
        let (lo, hi) = ring.iter().fold((glam::DVec2::MAX, glam::DVec2::MIN), |(l, h), &p| (l.min(p), h.max(p)));
        let margin = slop;
        for _ in 0..60 {
            let p = glam::DVec2::new(rng.random_range(lo.x..hi.x), rng.random_range(lo.y..hi.y));
            let edge = (0..ring.len())
                .map(|i| to_segment(p, ring[i], ring[(i + 1) % ring.len()]))
                .fold(f64::INFINITY, f64::min);
            if edge < margin {
                continue;
            }
            samples += 1;
            let depths: Vec<f64> = parts.iter().map(|q| depth_in(q, p)).collect();
            // The pieces share their edges exactly: no gap, no overlap beyond round-off.
            let deep = depths.iter().filter(|&&d| d > 1e-5).count();
            let touching = depths.iter().filter(|&&d| d > -1e-5).count();
            if inside(&ring, p) {
                assert!(touching >= 1 && deep <= 1, "case {case}: {p} in {deep} pieces, touching {touching}");
            } else {
                assert_eq!(touching, 0, "case {case}: {p} outside the polygon is in a piece");
            }
        }
    }
    println!(
        "{pieces_total} pieces in all, at most {most_pieces} for one polygon, {samples} points sampled, area off by at most {worst_area:.1e} relative"
    );
}

#[test]
fn named_polygons_give_few_pieces() {
    // Hertel and Mehlhorn's bound: at most four times the fewest pieces (2 for an L, 3 for a
    // U); these take one more than the fewest.
    let l = [(0.0, 0.0), (2.0, 0.0), (2.0, 1.0), (1.0, 1.0), (1.0, 2.0), (0.0, 2.0)].map(|(x, y)| Vec2::new(x, y));
    assert!(decompose_polygon(&l, 0.0).unwrap().len() <= 3);
    let u = [(0.0, 0.0), (3.0, 0.0), (3.0, 2.0), (2.0, 2.0), (2.0, 1.0), (1.0, 1.0), (1.0, 2.0), (0.0, 2.0)]
        .map(|(x, y)| Vec2::new(x, y));
    assert!(decompose_polygon(&u, 0.0).unwrap().len() <= 4);
    // A convex polygon stays whole; a 12-gon needs two pieces of at most 8.
    let square = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)].map(|(x, y)| Vec2::new(x, y));
    assert_eq!(decompose_polygon(&square, 0.1).unwrap().len(), 1);
    let dodecagon: Vec<Vec2> = (0..12).map(|k| Vec2::from_angle(k as f32 * TAU as f32 / 12.0)).collect();
    assert!((2..=3).contains(&decompose_polygon(&dodecagon, 0.0).unwrap().len()));
    // Clockwise input gives the same pieces' area.
    let mut clockwise = u;
    clockwise.reverse();
    let area = |ps: &[Polygon]| ps.iter().map(|p| polygon_mass(p, 1.0).mass).sum::<f32>();
    assert!((area(&decompose_polygon(&clockwise, 0.0).unwrap()) - 5.0).abs() < 1e-4);
}

#[test]
fn bad_polygons_are_errors_that_say_why() {
    let v = |pts: &[(f32, f32)]| pts.iter().map(|&(x, y)| Vec2::new(x, y)).collect::<Vec<_>>();
    let bowtie = v(&[(0.0, 0.0), (1.0, 1.0), (1.0, 0.0), (0.0, 1.0)]);
    assert!(matches!(decompose_polygon(&bowtie, 0.0), Err(GeometryError::SelfIntersecting { .. })));
    // A vertex touching another edge (a pinched polygon) is not simple either.
    let pinched = v(&[(0.0, 0.0), (2.0, 0.0), (1.0, 1.0), (2.0, 2.0), (0.0, 2.0), (1.0, 1.0)]);
    assert!(matches!(decompose_polygon(&pinched, 0.0), Err(GeometryError::SelfIntersecting { .. })));
    let line = v(&[(0.0, 0.0), (1.0, 0.0), (2.0, 0.0)]);
    assert!(decompose_polygon(&line, 0.0).is_err());
    assert!(matches!(
        decompose_polygon(&v(&[(0.0, 0.0), (0.001, 0.0), (0.0, 0.002)]), 0.0),
        Err(GeometryError::TooFewPoints { .. })
    ));
    assert!(matches!(
        decompose_polygon(&v(&[(0.0, 0.0), (f32::NAN, 0.0), (0.0, 1.0)]), 0.0),
        Err(GeometryError::NonFinite { .. })
    ));
    assert!(matches!(
        decompose_polygon(&v(&[(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)]), -1.0),
        Err(GeometryError::InvalidRadius { .. })
    ));
    let many: Vec<Vec2> = (0..=MAX_CONCAVE_POINTS).map(|k| Vec2::from_angle(k as f32 * 0.01)).collect();
    assert!(matches!(decompose_polygon(&many, 0.0), Err(GeometryError::TooManyPoints { .. })));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(3000))]
    /// Any points: an error, or convex pieces of finite vertices.
    #[test]
    fn any_points_give_an_error_or_finite_pieces(v in proptest::collection::vec(-4.0f32..4.0, 6..40)) {
        let points: Vec<Vec2> = v.chunks_exact(2).map(|c| Vec2::new(c[0], c[1])).collect();
        if let Ok(pieces) = decompose_polygon(&points, 0.0) {
            for piece in pieces {
                proptest::prop_assert!(piece.vertices().iter().all(|p| p.is_finite()));
            }
        }
    }
}

/// A cup: a U of 1 cm walls and floor, 2 m wide inside and 1.5 m deep, its inside floor at
/// y = 0 (counter-clockwise from the outer bottom left).
fn cup() -> Vec<Vec2> {
    let t = 0.01;
    [(-1.0 - t, -t), (1.0 + t, -t), (1.0 + t, 1.5), (1.0, 1.5), (1.0, 0.0), (-1.0, 0.0), (-1.0, 1.5), (-1.0 - t, 1.5)]
        .map(|(x, y)| Vec2::new(x, y))
        .to_vec()
}

#[test]
fn balls_fired_into_a_concave_cup_stay_in_it() {
    // Continuous collision against the pieces of a concave shape: balls at 50 to 150 m/s
    // into a cup of 1 cm walls (no restitution: nothing bounces over the rim), checked after
    // every step.
    let mut rng = ChaCha8Rng::seed_from_u64(62);
    for case in 0..40 {
        let mut w = World::new(&WorldDef { max_linear_speed: 1000.0, ..WorldDef::default() }).unwrap();
        let ground = w.create_body(&BodyDef::fixed(Vec2::ZERO)).unwrap();
        let pieces = w.create_concave(ground, &ShapeDef::default(), &cup(), 0.0).unwrap();
        assert!((3..=4).contains(&pieces.len()), "{} pieces", pieces.len());
        let (x, speed) = (rng.random_range(-0.6f32..0.6), rng.random_range(50.0f32..150.0));
        let aim = Vec2::new(rng.random_range(-0.9f32..0.9), 0.0);
        let start = Vec2::new(x, 1.4);
        let def = BodyDef {
            body_type: BodyType::Dynamic,
            position: start,
            linear_velocity: (aim - start).normalize() * speed,
            ..BodyDef::default()
        };
        let ball = w.create_body(&def).unwrap();
        let shape = Shape::Circle(Circle::new(Vec2::ZERO, 0.1).unwrap());
        w.create_shape(ball, &ShapeDef::default(), &shape).unwrap();
        for step in 0..120 {
            w.step(1.0 / 60.0, 4).unwrap();
            let c = w.world_center(ball).unwrap();
            assert!(c.y > 0.0 && c.x.abs() < 1.0, "case {case} step {step}: the ball left the cup at {c}");
        }
    }
}

#[test]
fn a_concave_body_has_the_polygon_s_mass_and_bad_polygons_leave_no_piece() {
    let mut w = World::new(&WorldDef::default()).unwrap();
    let body = w.create_body(&BodyDef { body_type: BodyType::Dynamic, ..BodyDef::default() }).unwrap();
    w.create_concave(body, &ShapeDef { density: 2.0, ..ShapeDef::default() }, &cup(), 0.0).unwrap();
    let area = 2.02 * 1.51 - 2.0 * 1.5;
    assert!((w.mass(body).unwrap() - 2.0 * area).abs() < 1e-4, "{}", w.mass(body).unwrap());
    let other = w.create_body(&BodyDef { body_type: BodyType::Dynamic, ..BodyDef::default() }).unwrap();
    let bowtie = [(0.0, 0.0), (1.0, 1.0), (1.0, 0.0), (0.0, 1.0)].map(|(x, y)| Vec2::new(x, y));
    let err = w.create_concave(other, &ShapeDef::default(), &bowtie, 0.0).unwrap_err();
    assert!(matches!(err, WorldError::Geometry(GeometryError::SelfIntersecting { .. })), "{err:?}");
    assert_eq!(w.body_shapes(other).unwrap().len(), 0);
}
