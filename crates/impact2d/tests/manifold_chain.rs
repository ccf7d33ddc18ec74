//! Chain segments: one-sided, and smooth across their joints (ghost vertices).
//!
//! Every test collides a shape against every segment of a chain, as a broad phase would pair
//! them, and looks at all the manifolds together.

mod manifold_support;

use impact2d::settings::SPECULATIVE_DISTANCE;
use impact2d::*;
use manifold_support::*;

const SPEC: f32 = SPECULATIVE_DISTANCE;

/// A floor along y = 0 from x = `half` to x = -`half` (walking right to left, so the
/// colliding side is up), cut into `count` segments. `bump(i)` raises vertex i.
fn floor(count: usize, half: f32, bump: impl Fn(usize) -> f32) -> Vec<ChainSegment> {
    let points: Vec<Vec2> = (0..=count).map(|i| v(half - 2.0 * half * i as f32 / count as f32, bump(i))).collect();
    make_chain(&points, false).unwrap()
}

/// The non-empty manifolds of `shape` at `xf` against every segment of `chain`.
fn contacts(chain: &[ChainSegment], shape: &Shape, xf: Transform) -> Vec<(usize, Manifold)> {
    chain
        .iter()
        .enumerate()
        .map(|(i, s)| (i, collide(&Shape::ChainSegment(*s), Transform::IDENTITY, shape, xf, SPEC)))
        .filter(|(_, m)| !m.is_empty())
        .collect()
}

/// Slides `shape` (resting at height `rest` above the floor when the gap is zero) along a
/// floor of 80 one-meter segments, in steps that land everywhere relative to the joints,
/// and checks every manifold: normal straight up, least separation equal to the gap.
fn slide_on_flat_floor(shape: &Shape, rest: f32, angle: f32, bump: f32) -> (f32, usize) {
    let chain = floor(80, 40.0, |i| if i % 2 == 0 { bump } else { -bump });
    let mut worst_tilt = 0.0f32;
    let mut manifolds = 0;
    for gap in [-0.004, 0.0, 0.5 * SPEC] {
        for step in 0..3000 {
            let x = -30.0 + step as f32 * 0.0201;
            let found = contacts(&chain, shape, xf(x, rest + gap, angle));
            assert!(!found.is_empty(), "no support at x = {x}, gap {gap}");
            let mut least = f32::INFINITY;
            for (i, m) in &found {
                worst_tilt = worst_tilt.max(m.normal.x.abs());
                assert!(m.normal.y > 0.0, "segment {i} at x = {x}: {m:?}");
                least = least.min(m.min_separation().unwrap());
                manifolds += 1;
            }
            assert!(
                (least - gap).abs() < 2.0 * bump + angle.abs() + 1e-5,
                "x = {x}: least separation {least} vs gap {gap}"
            );
        }
    }
    (worst_tilt, manifolds)
}

#[test]
fn circle_slides_across_collinear_joints_on_the_segment_normal() {
    let (tilt, n) = slide_on_flat_floor(&circle(0.5), 0.5, 0.0, 0.0);
    println!("circle: {n} manifolds, worst |normal.x| {tilt:e}");
    assert!(tilt < 1e-6);
}

#[test]
fn box_slides_across_collinear_joints_on_the_segment_normal() {
    let (tilt, n) = slide_on_flat_floor(&boxed(0.5, 0.25), 0.25, 0.0, 0.0);
    println!("box: {n} manifolds, worst |normal.x| {tilt:e}");
    assert!(tilt < 1e-6);
    // A small box, shorter than a segment, and a rounded one.
    assert!(slide_on_flat_floor(&boxed(0.1, 0.1), 0.1, 0.0, 0.0).0 < 1e-6);
    assert!(slide_on_flat_floor(&rounded_box(0.3, 0.2, 0.05), 0.25, 0.0, 0.0).0 < 1e-6);
    // A box tilted by less than the chain tolerance keeps its own face normal: the tilt.
    let angle = 0.003;
    let (tilt, _) = slide_on_flat_floor(&boxed(0.5, 0.25), 0.25 + 0.5 * angle, angle, 0.0);
    assert!(tilt <= angle.sin() + 1e-6, "{tilt}");
}

#[test]
fn capsule_slides_across_collinear_joints_on_the_segment_normal() {
    let cap = capsule(v(-0.6, 0.0), v(0.6, 0.0), 0.2);
    let (tilt, n) = slide_on_flat_floor(&cap, 0.2, 0.0, 0.0);
    println!("capsule: {n} manifolds, worst |normal.x| {tilt:e}");
    assert!(tilt < 1e-6);
}

#[test]
fn nearly_flat_joints_do_not_catch() {
    // Vertices alternately 0.1 mm up and down: every joint turns by 2e-4 rad, convex or
    // concave, far below the chain tolerance. No normal tilts more than the segments do.
    for shape in [circle(0.5), boxed(0.5, 0.25), capsule(v(-0.6, 0.0), v(0.6, 0.0), 0.2)] {
        let rest = match shape {
            Shape::Circle(_) => 0.5,
            Shape::Polygon(_) => 0.25,
            _ => 0.2,
        };
        let (tilt, _) = slide_on_flat_floor(&shape, rest, 0.0, 1e-4);
        assert!(tilt < 2.5e-4, "{shape:?}: {tilt}");
    }
}

#[test]
fn fast_circle_sees_only_the_floor_normal() {
    // At 100 m/s and 60 Hz a circle moves 1.67 m per step: it lands anywhere along the chain.
    let chain = floor(80, 40.0, |_| 0.0);
    let shape = circle(0.25);
    let mut x = -39.5;
    while x < 39.5 {
        for (_, m) in contacts(&chain, &shape, xf(x, 0.25 - 0.002, 0.0)) {
            assert!(m.normal.x.abs() < 1e-6 && m.normal.y > 0.0, "x = {x}: {m:?}");
        }
        x += 100.0 / 60.0;
    }
}

#[test]
fn shapes_behind_the_chain_get_nothing() {
    let chain = floor(10, 5.0, |_| 0.0);
    let shapes = [
        (circle(0.5), 0.5),
        (boxed(0.5, 0.25), 0.25),
        (capsule(v(-0.6, 0.0), v(0.6, 0.0), 0.2), 0.2),
        (rounded_box(0.3, 0.2, 0.05), 0.25),
    ];
    for (shape, half_height) in shapes {
        // Coming from below: within the speculative distance, touching, and overlapping by
        // up to just under half its height (the centroid still behind).
        for depth in [-0.5 * SPEC, 0.0, 0.1, half_height - 0.01] {
            for x in [-3.0, -2.0, 0.3, 1.0] {
                let found = contacts(&chain, &shape, xf(x, -half_height + depth, 0.0));
                assert!(found.is_empty(), "{shape:?} at x = {x}, depth {depth}: {found:?}");
            }
        }
        // The same shape above gets its contact.
        assert!(!contacts(&chain, &shape, xf(0.3, half_height, 0.0)).is_empty());
    }
}

#[test]
fn shape_first_order_flips_the_chain_manifold() {
    let chain = floor(4, 2.0, |_| 0.0);
    let seg = Shape::ChainSegment(chain[1]);
    let b = boxed(0.3, 0.3);
    let at = xf(0.5, 0.3 + 0.001, 0.0);
    let m = collide(&seg, Transform::IDENTITY, &b, at, SPEC);
    let f = collide(&b, at, &seg, Transform::IDENTITY, SPEC);
    assert_eq!(m.count, 2);
    assert_eq!(f.count, 2);
    assert!((f.normal + m.normal).length() < 1e-6 && (f.normal - v(0.0, -1.0)).length() < 1e-6);
}

/// A floor that turns down by `degrees` at the origin: flat for x > 0, sloping down to the
/// left for x < 0 (a convex corner seen from above).
fn hill(degrees: f32) -> (Vec<ChainSegment>, Vec2, Vec2) {
    let a = degrees.to_radians();
    let down = v(-a.cos(), -a.sin());
    let points = [v(3.0, 0.0), v(1.5, 0.0), v(0.0, 0.0), down * 1.5, down * 3.0];
    let n2 = v(-a.sin(), a.cos());
    (make_chain(&points, false).unwrap(), v(0.0, 1.0), n2)
}

#[test]
fn circle_rolls_over_a_convex_corner_smoothly() {
    let (chain, n1, n2) = hill(30.0);
    let (r, gap) = (0.4f32, 0.002f32);
    let end = 30f32.to_radians();
    let mut previous: Option<Vec2> = None;
    let mut worst_jump = 0.0f32;
    // Along the offset curve: flat part, around the corner, down the slope.
    for k in 0..=600 {
        let t = k as f32 / 600.0;
        let (center, expected) = if t < 0.25 {
            (v(1.0 * (1.0 - 4.0 * t), r + gap), n1)
        } else if t < 0.75 {
            let theta = end * (t - 0.25) / 0.5;
            let n = v(-theta.sin(), theta.cos());
            (n * (r + gap), n)
        } else {
            let along = (t - 0.75) * 4.0;
            let dir = v(-end.cos(), -end.sin());
            (dir * along + n2 * (r + gap), n2)
        };
        let found = contacts(&chain, &circle(r), xf(center.x, center.y, 0.0));
        // One contact: the corner belongs to one segment, not two (both hold the circle only
        // exactly on the boundary between the corner's fan and a face, with the same normal).
        let same = found.windows(2).all(|w| (w[0].1.normal - w[1].1.normal).length() < 1e-5);
        assert!(found.len() == 1 || (found.len() == 2 && same), "t = {t}: {found:?}");
        let m = found[0].1;
        assert!((m.normal - expected).length() < 1e-4, "t = {t}: {:?} vs {expected:?}", m.normal);
        assert!((m.points[0].separation - gap).abs() < 1e-5, "t = {t}: {m:?}");
        if let Some(p) = previous {
            worst_jump = worst_jump.max(p.angle_to(m.normal).abs());
        }
        previous = Some(m.normal);
    }
    // Steps of the corner's sweep are 30° / 300 = 0.1°: the normal never jumps more.
    assert!(worst_jump < 0.11f32.to_radians(), "{worst_jump}");
}

#[test]
fn box_tilted_on_a_convex_corner_gets_its_face_normal_once() {
    let (chain, _, _) = hill(30.0);
    let b = boxed(0.5, 0.25);
    for degrees in [2.0f32, 10.0, 15.0, 28.0] {
        let a = degrees.to_radians();
        let n = v(-a.sin(), a.cos());
        // The box's bottom face rests on the corner, 1 mm above it, its middle over it.
        let center = n * (0.25 + 0.001) + v(-a.cos(), -a.sin()) * 0.1;
        let found = contacts(&chain, &b, xf(center.x, center.y, a));
        assert_eq!(found.len(), 1, "{degrees}°: {found:?}");
        let m = found[0].1;
        assert!((m.normal - n).length() < 1e-5, "{degrees}°: {m:?}");
        // The corner point; at small tilts also a speculative point farther along the flat
        // part, which rises towards the face by 0.4 m × tan(tilt).
        let corner = m.points().iter().find(|p| p.point.length() < 1e-3).expect("corner point");
        assert!((corner.separation - 0.001).abs() < 1e-5, "{m:?}");
        assert_eq!(m.count, if 0.4 * a.tan() < SPEC { 2 } else { 1 }, "{degrees}°: {m:?}");
    }
}

#[test]
fn box_slides_over_a_convex_corner_without_catching() {
    // A flat box sliding left off the flat part over the corner: every normal lies in the
    // corner's fan, between the two segment normals, and the box stays supported.
    let (chain, n1, n2) = hill(20.0);
    let b = boxed(0.5, 0.25);
    // Until the box's right end leaves the corner (the flat box then floats above the slope).
    for k in 0..148 {
        let x = 1.0 - k as f32 * 0.01;
        let found = contacts(&chain, &b, xf(x, 0.25 - 0.002, 0.0));
        assert!(!found.is_empty(), "x = {x}");
        for (_, m) in &found {
            let in_fan = n1.perp_dot(m.normal) >= -1e-6 && m.normal.perp_dot(n2) >= -1e-6;
            assert!(in_fan, "x = {x}: {m:?}");
        }
    }
}

#[test]
fn ball_in_a_concave_corner_has_two_steady_contacts() {
    // A V valley with 90° between its walls; the ball touches both.
    let s = std::f32::consts::FRAC_1_SQRT_2;
    let points = [v(-2.0 * s, 2.0 * s), v(0.0, 0.0), v(2.0 * s, 2.0 * s)];
    // Walking left to right along a valley puts the free side... on the right: reverse.
    let points: Vec<Vec2> = points.iter().rev().copied().collect();
    let chain = make_chain(&points, false).unwrap();
    let r = 0.3;
    for k in 0..100 {
        let wobble = 0.001 * ((k % 7) as f32 - 3.0);
        let lift = 0.003 * ((k % 5) as f32 - 2.0) / 2.0;
        let center = v(wobble, r * std::f32::consts::SQRT_2 + lift);
        let found = contacts(&chain, &circle(r), xf(center.x, center.y, 0.0));
        assert_eq!(found.len(), 2, "k = {k}: {found:?}");
        for (i, m) in &found {
            let wall = chain[*i].normal();
            assert!((m.normal - wall).length() < 1e-5, "{m:?} vs {wall:?}");
        }
    }
}

#[test]
fn ghost_on_its_vertex_acts_straight() {
    // A lone chain segment whose ghosts sit on its ends: flat joints, so a circle beyond an
    // end gets no corner contact, and a box overhanging the end keeps the face normal.
    let seg = ChainSegment::new(v(1.0, 0.0), v(1.0, 0.0), v(-1.0, 0.0), v(-1.0, 0.0)).unwrap();
    let shape = Shape::ChainSegment(seg);
    let m = collide(&shape, Transform::IDENTITY, &circle(0.3), xf(-1.1, 0.3, 0.0), SPEC);
    assert!(m.is_empty(), "{m:?}");
    // The box spans x from -1.8 to -0.8: two points, at the segment's end and the box's.
    let m = collide(&shape, Transform::IDENTITY, &boxed(0.5, 0.25), xf(-1.3, 0.25 - 0.003, 0.0), SPEC);
    assert_eq!(m.count, 2, "{m:?}");
    assert!((m.normal - Vec2::Y).length() < 1e-6);
    for p in m.points() {
        assert!((p.separation + 0.003).abs() < 1e-6 && p.point.x >= -1.0 - 1e-6, "{m:?}");
    }
}

#[test]
fn segment_and_chain_segment() {
    let chain = floor(4, 2.0, |_| 0.0);
    let seg = Shape::ChainSegment(chain[1]);
    // A plain segment lying on the chain: two points, normal up; from below: nothing.
    let plank = segment(v(-0.4, 0.0), v(0.4, 0.0));
    let m = collide(&seg, Transform::IDENTITY, &plank, xf(0.5, 0.003, 0.0), SPEC);
    assert_eq!(m.count, 2, "{m:?}");
    assert!((m.normal - Vec2::Y).length() < 1e-6 && (m.points[0].separation - 0.003).abs() < 1e-6);
    assert!(collide(&seg, Transform::IDENTITY, &plank, xf(0.5, -0.003, 0.0), SPEC).is_empty());
    // The segment first: the same contact, flipped.
    let f = collide(&plank, xf(0.5, 0.003, 0.0), &seg, Transform::IDENTITY, SPEC);
    assert!(f.count == 2 && (f.normal + Vec2::Y).length() < 1e-6);
}

#[test]
fn chain_against_chain_needs_both_sides_facing() {
    let ground = floor(4, 2.0, |_| 0.0);
    // A chain segment above the ground, 3 mm up: walking left to right its colliding side
    // is down, facing the ground, so they collide; walking right to left it faces away.
    let facing = ChainSegment::new(v(-1.0, 0.0), v(-0.5, 0.0), v(0.5, 0.0), v(1.0, 0.0)).unwrap();
    let away = ChainSegment::new(v(1.0, 0.0), v(0.5, 0.0), v(-0.5, 0.0), v(-1.0, 0.0)).unwrap();
    let at = xf(0.3, 0.003, 0.0);
    let m = collide(&Shape::ChainSegment(ground[1]), Transform::IDENTITY, &Shape::ChainSegment(facing), at, SPEC);
    assert!(m.count >= 1 && (m.normal - Vec2::Y).length() < 1e-6, "{m:?}");
    let m = collide(&Shape::ChainSegment(ground[1]), Transform::IDENTITY, &Shape::ChainSegment(away), at, SPEC);
    assert!(m.is_empty(), "{m:?}");
}
