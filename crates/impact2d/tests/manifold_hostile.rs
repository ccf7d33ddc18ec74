//! Hostile transforms and speculative distances: `collide` never panics and never returns a
//! non-finite number, for every pair of shape kinds.

mod manifold_support;

use impact2d::*;
use manifold_support::*;
use proptest::prelude::*;

fn shapes() -> Vec<Shape> {
    let chain = make_chain(&[v(2.0, 0.0), v(1.0, 0.0), v(0.0, 0.5), v(-1.0, 0.0)], false).unwrap();
    vec![
        circle(0.5),
        capsule(v(-0.5, 0.0), v(0.5, 0.1), 0.2),
        boxed(0.5, 0.3),
        rounded_box(0.4, 0.2, 0.1),
        Shape::Polygon(make_offset_box(0.2, 0.7, v(3.0, -1.0), 0.4).unwrap()),
        segment(v(-1.0, 0.0), v(1.0, 0.2)),
        Shape::ChainSegment(chain[1]),
        Shape::ChainSegment(ChainSegment::new(v(0.0, 0.0), v(0.0, 0.0), v(1.0, 0.0), v(1.0, 0.0)).unwrap()),
    ]
}

fn number() -> impl Strategy<Value = f32> {
    prop_oneof![
        3 => -10.0f32..10.0,
        1 => -1.0e30f32..1.0e30,
        1 => Just(f32::NAN),
        1 => Just(f32::INFINITY),
        1 => Just(f32::NEG_INFINITY),
        1 => Just(f32::MAX),
        1 => Just(-f32::MAX),
        1 => Just(f32::MIN_POSITIVE),
        1 => Just(0.0f32),
    ]
}

fn transform() -> impl Strategy<Value = Transform> {
    prop_oneof![
        // A proper rotation at a hostile position, or from a hostile angle.
        (number(), number(), number()).prop_map(|(x, y, a)| Transform::new(Vec2::new(x, y), a)),
        // A raw rotation that need not be unit (or finite).
        (number(), number(), number(), number())
            .prop_map(|(x, y, c, s)| Transform { p: Vec2::new(x, y), q: Rot { c, s } }),
        // Near the other shape, so that the manifold is often not empty.
        (-1.0f32..1.0, -1.0f32..1.0, -3.2f32..3.2).prop_map(|(x, y, a)| Transform::new(Vec2::new(x, y), a)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    #[test]
    fn no_panic_no_nan(i in 0usize..8, j in 0usize..8, xa in transform(), xb in transform(), spec in number()) {
        let s = shapes();
        let m = collide(&s[i], xa, &s[j], xb, spec);
        prop_assert!(m.count <= 2);
        if m.count > 0 {
            prop_assert!(m.normal.is_finite(), "{:?}", m);
            for p in m.points() {
                prop_assert!(p.point.is_finite() && p.anchor_a.is_finite() && p.anchor_b.is_finite() && p.separation.is_finite(), "{:?}", m);
            }
        }
    }
}

#[test]
fn huge_but_finite_positions_still_collide() {
    // 1e6 m from the origin, f32 spacing is 0.06 m: contacts still come out, finite.
    let far = v(1.0e6, -1.0e6);
    let m = collide(&boxed(1.0, 1.0), xf(far.x, far.y, 0.0), &boxed(1.0, 1.0), xf(far.x, far.y + 1.9, 0.0), 0.02);
    assert!(m.count >= 1 && m.points().iter().all(|p| p.separation.is_finite()));
}
