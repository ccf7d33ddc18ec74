//! Hostile input into every public query: NaN, ±inf, huge (1e15, 1e30, f32::MAX), tiny and
//! subnormal numbers, duplicate points, zero-length segments, 1-point proxies of radius 0,
//! coincident shapes, and t_max / target / tolerance out of range.
//!
//! The contract checked (from the library's docs: "Queries check their numeric parameters
//! and never return NaN"): no panic, and no NaN or infinity in any output field. Queries
//! with a `Result` must return `Err` for invalid input (NaN, infinite, out of range);
//! queries without one (`shape_distance`, `segment_distance`, `penetration`, `polygon_sat`,
//! `Aabb::ray_cast`) cannot report it, so for them non-finite input is fed separately and
//! the outcome is printed by `behavior_table` (the `..._non_finite_...` properties assert
//! the same contract and are expected to expose those APIs).

mod common;

use impact2d::*;
use proptest::prelude::*;
use proptest::sample::select;

const SPECIAL_FINITE: [f32; 16] = [
    0.0,
    -0.0,
    1.0e15,
    -1.0e15,
    1.0e30,
    -1.0e30,
    f32::MAX,
    f32::MIN,
    1.0e-30,
    -1.0e-30,
    1.0e-45,
    f32::MIN_POSITIVE,
    f32::EPSILON,
    1.0e-7,
    5000.0,
    -5000.0,
];
const SPECIAL_MODERATE: [f32; 12] =
    [0.0, -0.0, 1.0e-30, -1.0e-30, 1.0e-45, f32::MIN_POSITIVE, f32::EPSILON, 1.0e-7, 5000.0, -5000.0, 1.0e4, 1.0e6];
const NON_FINITE: [f32; 3] = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY];

/// Finite but hostile: ordinary values, huge, tiny, subnormal, zero.
fn finite() -> BoxedStrategy<f32> {
    prop_oneof![3 => -10.0f32..10.0, 2 => select(SPECIAL_FINITE.to_vec())].boxed()
}

/// Anything, including NaN and infinities.
fn any_f32() -> BoxedStrategy<f32> {
    prop_oneof![3 => -10.0f32..10.0, 2 => select(SPECIAL_FINITE.to_vec()), 1 => select(NON_FINITE.to_vec())].boxed()
}

type F = fn() -> BoxedStrategy<f32>;

fn vec2(s: F) -> impl Strategy<Value = Vec2> {
    (s(), s()).prop_map(|(x, y)| Vec2::new(x, y))
}

/// 1 to 8 points drawn from a pool of 3, so duplicates, coincident and zero-length
/// segments are common.
fn point_list(s: F) -> impl Strategy<Value = Vec<Vec2>> {
    (prop::collection::vec(vec2(s), 3), prop::collection::vec(0..3usize, 1..=8))
        .prop_map(|(pool, picks)| picks.into_iter().map(|i| pool[i]).collect())
}

fn radius() -> impl Strategy<Value = f32> {
    prop_oneof![2 => 0.0f32..2.0, 1 => Just(0.0f32), 1 => select(vec![1.0e15f32, 1.0e30, f32::MAX, 1.0e-45, 1.0e-30])]
}

/// Proxies the constructor accepts (finite points, finite radius ≥ 0).
fn proxy() -> impl Strategy<Value = ShapeProxy> {
    (point_list(finite), radius()).prop_filter_map("rejected by ShapeProxy::new", |(p, r)| ShapeProxy::new(&p, r).ok())
}

/// A transform built by `Transform::new` (a rotation from an angle, which may be huge).
fn transform(s: F) -> impl Strategy<Value = Transform> {
    prop_oneof![
        (vec2(s), -10.0f32..10.0).prop_map(|(p, a)| Transform::new(p, a)),
        (vec2(s), s()).prop_map(|(p, a)| Transform::new(p, a)),
    ]
}

/// Whatever a caller can put in the public fields, including a non-unit `Rot`.
fn raw_transform(s: F) -> impl Strategy<Value = Transform> {
    prop_oneof![transform(s), (vec2(s), s(), s()).prop_map(|(p, c, s)| Transform { p, q: Rot { c, s } })]
}

fn sweep(s: F) -> impl Strategy<Value = Sweep> {
    (vec2(s), vec2(s), vec2(s), s(), s()).prop_map(|(local_center, c1, c2, a1, a2)| Sweep {
        local_center,
        c1,
        c2,
        a1,
        a2,
    })
}

type ToiFn = fn(&ShapeProxy, &Sweep, &ShapeProxy, &Sweep, f32, f32, f32) -> Result<ToiOutput, QueryError>;

/// Deterministic runs (fixed seed), no regression files written.
fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 3000,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x4057_11e),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// The contract: no NaN in any output field. (Infinities are reported by `behavior_table`;
/// times, fractions and distances are range-checked separately.)
fn all_finite(xs: &[f32]) -> bool {
    xs.iter().all(|x| !x.is_nan())
}

fn xf_finite(x: &Transform) -> bool {
    [x.p.x, x.p.y, x.q.c, x.q.s].iter().all(|v| v.is_finite())
}

fn sweep_finite(s: &Sweep) -> bool {
    s.is_finite()
}

fn check_distance(pa: &ShapeProxy, xa: Transform, pb: &ShapeProxy, xb: Transform) -> Result<(), TestCaseError> {
    let input = DistanceInput { proxy_a: pa, transform_a: xa, proxy_b: pb, transform_b: xb };
    let mut cache = SimplexCache::default();
    let o = shape_distance(&input, &mut cache);
    prop_assert!(
        all_finite(&[o.point_a.x, o.point_a.y, o.point_b.x, o.point_b.y, o.normal.x, o.normal.y, o.distance]),
        "shape_distance: {o:?}"
    );
    prop_assert!(o.distance >= 0.0);
    // Warm start from the cache it left.
    let o = shape_distance(&input, &mut cache);
    prop_assert!(
        all_finite(&[o.point_a.x, o.point_a.y, o.point_b.x, o.point_b.y, o.normal.x, o.normal.y, o.distance]),
        "warm: {o:?}"
    );
    if let Some(p) = penetration(&input) {
        prop_assert!(
            all_finite(&[p.depth, p.normal.x, p.normal.y, p.point_a.x, p.point_a.y, p.point_b.x, p.point_b.y]),
            "penetration: {p:?}"
        );
        prop_assert!(p.depth > 0.0);
    }
    Ok(())
}

fn toi_ok(o: &ToiOutput, t_max: f32) -> bool {
    all_finite(&[o.point.x, o.point.y, o.normal.x, o.normal.y]) && o.t >= 0.0 && o.t <= t_max.max(0.0)
}

fn toi_valid_params(t_max: f32, target: f32, tolerance: f32, pa: &ShapeProxy, pb: &ShapeProxy) -> bool {
    t_max.is_finite()
        && target.is_finite()
        && tolerance.is_finite()
        && (0.0..=1.0).contains(&t_max)
        && tolerance > 0.0
        && target + tolerance + pa.radius() + pb.radius() > 0.0
}

// Each check below is run twice: with *moderate* hostile numbers (|x| ≤ 1e6, tiny,
// subnormal, zero, duplicates, coincident shapes, angles up to 1e4 rad), which a robust
// library must survive cleanly, and with *extreme* ones (1e15, 1e30, f32::MAX, angles to
// f32::MAX), which the constructors and validators accept today.

fn check_proxy(points: Vec<Vec2>, r: f32) -> Result<(), TestCaseError> {
    let ok_input = points.iter().all(|p| p.is_finite()) && r.is_finite() && r >= 0.0;
    match ShapeProxy::new(&points, r) {
        Ok(p) => {
            prop_assert!(ok_input, "accepted {points:?} {r}");
            prop_assert!(p.points().iter().all(|v| v.is_finite()) && p.radius().is_finite());
            prop_assert!(p.thickness() >= 0.0, "thickness {} of {p:?}", p.thickness());
        }
        Err(_) => prop_assert!(!ok_input, "rejected valid {points:?} {r}"),
    }
    Ok(())
}

fn check_segments(p1: Vec2, q1: Vec2, p2: Vec2, q2: Vec2, dup: u8) -> Result<(), TestCaseError> {
    let (q1, p2) = match dup {
        0 => (p1, p2),
        1 => (q1, p1),
        2 => (p1, p1),
        _ => (q1, p2),
    };
    let r = segment_distance(p1, q1, p2, q2);
    prop_assert!(
        all_finite(&[
            r.closest1.x,
            r.closest1.y,
            r.closest2.x,
            r.closest2.y,
            r.fraction1,
            r.fraction2,
            r.distance_squared
        ]),
        "{r:?}"
    );
    prop_assert!((0.0..=1.0).contains(&r.fraction1) && (0.0..=1.0).contains(&r.fraction2), "{r:?}");
    prop_assert!(r.distance_squared >= 0.0, "{r:?}");
    Ok(())
}

fn check_sat(hw: f32, hh: f32, r: f32, c: Vec2, a: f32, xa: Transform, xb: Transform) -> Result<(), TestCaseError> {
    let Ok(p) = make_offset_rounded_box(hw, hh, c, a, r) else {
        prop_assert!(
            !(hw.is_finite()
                && hh.is_finite()
                && hw > 0.0
                && hh > 0.0
                && r.is_finite()
                && r >= 0.0
                && c.is_finite()
                && a.is_finite()),
            "valid box rejected"
        );
        return Ok(());
    };
    prop_assert!(p.vertices().iter().chain(p.normals()).all(|v| !v.is_nan()), "box constructor made NaN: {p:?}");
    let b = make_box(1.0, 0.5).unwrap();
    for q in [polygon_sat(&p, xa, &b, xb), polygon_sat(&b, xb, &p, xa), polygon_sat(&p, xa, &p, xa)] {
        prop_assert!(all_finite(&[q.separation, q.normal.x, q.normal.y]), "{q:?} for {p:?}");
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn check_cast(
    pa: &ShapeProxy,
    pb: &ShapeProxy,
    xa: Transform,
    xb: Transform,
    tr: Vec2,
    max_fraction: f32,
    target: f32,
    tolerance: f32,
) -> Result<(), TestCaseError> {
    let input = ShapeCastInput {
        proxy_a: pa,
        transform_a: xa,
        proxy_b: pb,
        transform_b: xb,
        translation_b: tr,
        max_fraction,
        target,
        tolerance,
    };
    let valid =
        xf_finite(&xa) && xf_finite(&xb) && tr.is_finite() && toi_valid_params(max_fraction, target, tolerance, pa, pb);
    match shape_cast(&input) {
        Err(_) => prop_assert!(!valid, "valid input rejected"),
        Ok(out) => {
            prop_assert!(valid, "invalid input accepted: {out:?}");
            if let Some(h) = out {
                prop_assert!(all_finite(&[h.fraction, h.point.x, h.point.y, h.normal.x, h.normal.y]), "{h:?}");
                prop_assert!(h.fraction >= 0.0 && h.fraction <= max_fraction, "{h:?}");
            }
        }
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn check_toi(
    pa: &ShapeProxy,
    pb: &ShapeProxy,
    sa: Sweep,
    sb: Sweep,
    t_max: f32,
    target: f32,
    tolerance: f32,
) -> Result<(), TestCaseError> {
    let valid = sweep_finite(&sa) && sweep_finite(&sb) && toi_valid_params(t_max, target, tolerance, pa, pb);
    for (name, f) in
        [("time_of_impact", time_of_impact as ToiFn), ("conservative_advancement", conservative_advancement as ToiFn)]
    {
        match f(pa, &sa, pb, &sb, t_max, target, tolerance) {
            Err(_) => prop_assert!(!valid, "{name}: valid input rejected"),
            Ok(o) => {
                prop_assert!(valid, "{name}: invalid input accepted: {o:?}");
                prop_assert!(toi_ok(&o, t_max), "{name}: {o:?}");
            }
        }
    }
    Ok(())
}

fn check_circles(c: Vec<Vec2>, r: Vec<f32>, t_max: f32, target: f32) -> Result<(), TestCaseError> {
    let a = MovingCircle { center1: c[0], center2: c[1], radius: r[0] };
    let b = MovingCircle { center1: c[2], center2: c[3], radius: r[1] };
    let valid = c.iter().all(|v| v.is_finite())
        && r.iter().all(|x| x.is_finite() && *x >= 0.0)
        && t_max.is_finite()
        && (0.0..=1.0).contains(&t_max)
        && target.is_finite()
        && target > -(r[0] + r[1]);
    match circle_time_of_impact(&a, &b, t_max, target) {
        Err(_) => prop_assert!(!valid, "valid input rejected"),
        Ok(o) => {
            prop_assert!(valid, "invalid accepted {o:?}");
            prop_assert!(toi_ok(&o, t_max), "{o:?}");
        }
    }
    Ok(())
}

fn moderate() -> BoxedStrategy<f32> {
    prop_oneof![3 => -10.0f32..10.0, 2 => select(SPECIAL_MODERATE.to_vec())].boxed()
}

fn moderate_or_bad() -> BoxedStrategy<f32> {
    prop_oneof![3 => -10.0f32..10.0, 2 => select(SPECIAL_MODERATE.to_vec()), 1 => select(NON_FINITE.to_vec())].boxed()
}

fn moderate_radius() -> impl Strategy<Value = f32> {
    prop_oneof![2 => 0.0f32..2.0, 1 => Just(0.0f32), 1 => select(vec![1.0e-45f32, 1.0e-30, 1.0e3])]
}

fn moderate_proxy() -> impl Strategy<Value = ShapeProxy> {
    (point_list(moderate), moderate_radius()).prop_filter_map("rejected", |(p, r)| ShapeProxy::new(&p, r).ok())
}

proptest! {
    #![proptest_config(config())]

    // ---------------- moderate ----------------

    #[test]
    fn moderate_proxy_constructor(points in point_list(moderate_or_bad), r in moderate_or_bad()) {
        check_proxy(points, r)?;
    }

    #[test]
    fn moderate_distance_and_penetration(pa in moderate_proxy(), pb in moderate_proxy(), xa in transform(moderate), xb in transform(moderate)) {
        check_distance(&pa, xa, &pb, xb)?;
        check_distance(&pa, xa, &pa, xa)?; // coincident
    }

    #[test]
    fn moderate_segment_distance(p1 in vec2(moderate), q1 in vec2(moderate), p2 in vec2(moderate), q2 in vec2(moderate), dup in 0..4u8) {
        check_segments(p1, q1, p2, q2, dup)?;
    }

    #[test]
    fn moderate_polygon_sat(hw in moderate_or_bad(), hh in moderate_or_bad(), r in moderate_or_bad(), c in vec2(moderate_or_bad), a in moderate_or_bad(), xa in transform(moderate), xb in transform(moderate)) {
        check_sat(hw, hh, r, c, a, xa, xb)?;
    }

    #[test]
    fn moderate_shape_cast(pa in moderate_proxy(), pb in moderate_proxy(), xa in transform(moderate_or_bad), xb in transform(moderate_or_bad), tr in vec2(moderate_or_bad), max_fraction in moderate_or_bad(), target in moderate_or_bad(), tolerance in moderate_or_bad()) {
        check_cast(&pa, &pb, xa, xb, tr, max_fraction, target, tolerance)?;
    }

    #[test]
    fn moderate_time_of_impact(pa in moderate_proxy(), pb in moderate_proxy(), sa in sweep(moderate_or_bad), sb in sweep(moderate_or_bad), t_max in moderate_or_bad(), target in moderate_or_bad(), tolerance in moderate_or_bad(), coincident in any::<bool>()) {
        let (pb, sb) = if coincident { (pa, sa) } else { (pb, sb) };
        check_toi(&pa, &pb, sa, sb, t_max, target, tolerance)?;
    }

    #[test]
    fn moderate_time_of_impact_sane_parameters(pa in moderate_proxy(), pb in moderate_proxy(), sa in sweep(moderate), sb in sweep(moderate)) {
        check_toi(&pa, &pb, sa, sb, 1.0, settings::TOI_TARGET, settings::TOI_TOLERANCE)?;
    }

    #[test]
    fn moderate_circle_toi(c in prop::collection::vec(vec2(moderate_or_bad), 4), r in prop::collection::vec(moderate_or_bad(), 2), t_max in moderate_or_bad(), target in moderate_or_bad()) {
        check_circles(c, r, t_max, target)?;
    }

    // ---------------- extreme ----------------

    #[test]
    fn extreme_proxy_constructor(points in point_list(any_f32), r in any_f32()) {
        check_proxy(points, r)?;
    }

    #[test]
    fn extreme_distance_and_penetration(pa in proxy(), pb in proxy(), xa in transform(finite), xb in transform(finite)) {
        check_distance(&pa, xa, &pb, xb)?;
        check_distance(&pa, xa, &pa, xa)?;
    }

    #[test]
    fn extreme_distance_with_non_finite_or_non_unit_transforms(pa in proxy(), pb in proxy(), xa in raw_transform(any_f32), xb in raw_transform(any_f32)) {
        prop_assume!(!(xf_finite(&xa) && xf_finite(&xb)) || (xa.q.c * xa.q.c + xa.q.s * xa.q.s - 1.0).abs() > 1e-3);
        check_distance(&pa, xa, &pb, xb)?;
    }

    #[test]
    fn extreme_segment_distance(p1 in vec2(finite), q1 in vec2(finite), p2 in vec2(finite), q2 in vec2(finite), dup in 0..4u8) {
        check_segments(p1, q1, p2, q2, dup)?;
    }

    #[test]
    fn extreme_segment_distance_non_finite(p1 in vec2(any_f32), q1 in vec2(any_f32), p2 in vec2(any_f32), q2 in vec2(any_f32)) {
        check_segments(p1, q1, p2, q2, 0)?;
    }

    #[test]
    fn extreme_polygon_sat(hw in any_f32(), hh in any_f32(), r in any_f32(), c in vec2(any_f32), a in any_f32(), xa in transform(finite), xb in transform(finite)) {
        check_sat(hw, hh, r, c, a, xa, xb)?;
    }

    #[test]
    fn extreme_shape_cast(pa in proxy(), pb in proxy(), xa in raw_transform(any_f32), xb in raw_transform(any_f32), tr in vec2(any_f32), max_fraction in any_f32(), target in any_f32(), tolerance in any_f32()) {
        check_cast(&pa, &pb, xa, xb, tr, max_fraction, target, tolerance)?;
    }

    #[test]
    fn extreme_time_of_impact(pa in proxy(), pb in proxy(), sa in sweep(any_f32), sb in sweep(any_f32), t_max in any_f32(), target in any_f32(), tolerance in any_f32(), coincident in any::<bool>()) {
        let (pb, sb) = if coincident { (pa, sa) } else { (pb, sb) };
        check_toi(&pa, &pb, sa, sb, t_max, target, tolerance)?;
    }

    #[test]
    fn extreme_circle_toi(c in prop::collection::vec(vec2(any_f32), 4), r in prop::collection::vec(any_f32(), 2), t_max in any_f32(), target in any_f32()) {
        check_circles(c, r, t_max, target)?;
    }

    #[test]
    fn aabb_toi_with_hostile_input(v in prop::collection::vec(vec2(any_f32), 6)) {
        // Corners as given (NaN stays NaN; a box may be inverted).
        let (a, b) = (Aabb::new(v[0], v[1]), Aabb::new(v[2], v[3]));
        let finite = v.iter().all(|p| p.is_finite());
        match aabb_time_of_impact(&a, v[4], &b, v[5]) {
            Err(_) => prop_assert!(!finite),
            Ok(r) => {
                prop_assert!(finite, "non-finite accepted: {r:?}");
                prop_assert!(!r.t.is_nan() && (0.0..=1.0).contains(&r.t), "{r:?}");
            }
        }
    }

    #[test]
    fn aabb_ray_cast_with_hostile_input(v in prop::collection::vec(vec2(any_f32), 4), max_fraction in any_f32()) {
        let b = Aabb::new(v[0].min(v[1]), v[0].max(v[1]));
        if let Some(h) = b.ray_cast(v[2], v[3], max_fraction) {
            prop_assert!(all_finite(&[h.fraction, h.normal.x, h.normal.y]), "{h:?}");
            prop_assert!(h.fraction >= 0.0 && h.fraction <= max_fraction, "{h:?}");
        }
    }
}

/// What each API does with each kind of bad input (printed, for the report; the properties
/// above assert).
#[test]
fn behavior_table() {
    let square =
        ShapeProxy::new(&[Vec2::new(-1.0, -1.0), Vec2::new(1.0, -1.0), Vec2::new(1.0, 1.0), Vec2::new(-1.0, 1.0)], 0.0)
            .unwrap();
    let huge = ShapeProxy::new(&[Vec2::new(-1.0e30, -1.0e30), Vec2::new(1.0e30, -1.0e30), Vec2::new(0.0, 1.0e30)], 0.0);
    let point = ShapeProxy::new(&[Vec2::ZERO], 0.0).unwrap();
    let seg0 = ShapeProxy::new(&[Vec2::ONE, Vec2::ONE], 0.0).unwrap();
    for a in [1.0e3f32, 1.0e4, 1.0e5, 1.0e6, 1.0e7, 1.0e8, 1.0e10, 1.0e15, 1.0e20, 1.0e30, f32::MAX] {
        let q = Rot::from_angle(a);
        println!("Rot::from_angle({a:e}) -> c {:e} s {:e}, c² + s² = {:e}", q.c, q.s, q.c * q.c + q.s * q.s);
    }
    println!("ShapeProxy::new(1e30 triangle) -> {:?}", huge.as_ref().map(|_| "Ok"));
    println!("ShapeProxy::new(NaN) -> {:?}", ShapeProxy::new(&[Vec2::NAN], 0.0).map(|_| "Ok"));
    println!("ShapeProxy::new(radius 1e30) -> {:?}", ShapeProxy::new(&[Vec2::ZERO], 1.0e30).map(|_| "Ok"));
    let show_d = |name: &str, pa: &ShapeProxy, xa: Transform, pb: &ShapeProxy, xb: Transform| {
        let i = DistanceInput { proxy_a: pa, transform_a: xa, proxy_b: pb, transform_b: xb };
        let d = shape_distance(&i, &mut SimplexCache::default());
        let p = penetration(&i);
        println!(
            "{name}: shape_distance -> distance {} normal {:?} points {:?} {:?}; penetration -> {p:?}",
            d.distance, d.normal, d.point_a, d.point_b
        );
    };
    let id = Transform::IDENTITY;
    let nan = Transform { p: Vec2::new(f32::NAN, 0.0), q: Rot::IDENTITY };
    let inf = Transform { p: Vec2::new(f32::INFINITY, 0.0), q: Rot::IDENTITY };
    let far = Transform { p: Vec2::new(1.0e30, 0.0), q: Rot::IDENTITY };
    let bad_rot = Transform { p: Vec2::new(3.0, 0.0), q: Rot { c: 1.0e30, s: 0.0 } };
    show_d("NaN transform", &square, id, &square, nan);
    show_d("inf transform", &square, id, &square, inf);
    show_d("1e30 translation", &square, id, &square, far);
    show_d("Rot{c:1e30}", &square, id, &square, bad_rot);
    if let Ok(h) = &huge {
        show_d("1e30 triangle vs square", h, id, &square, id);
        show_d("1e30 triangle vs 1e30 triangle", h, id, h, Transform::new(Vec2::new(1.0, 0.0), 0.5));
    }
    show_d("point on point", &point, id, &point, id);
    show_d("zero-length segment vs point", &seg0, id, &point, Transform::new(Vec2::new(1.0, 1.0), 0.0));
    println!("segment_distance(NaN) -> {:?}", segment_distance(Vec2::NAN, Vec2::ONE, Vec2::ZERO, Vec2::X));
    println!(
        "segment_distance(1e30) -> {:?}",
        segment_distance(
            Vec2::splat(-1.0e30),
            Vec2::splat(1.0e30),
            Vec2::new(1.0e30, -1.0e30),
            Vec2::new(-1.0e30, 1.0e30)
        )
    );
    let b = make_box(1.0, 1.0).unwrap();
    println!("polygon_sat(NaN transform) -> {:?}", polygon_sat(&b, id, &b, nan));
    println!(
        "make_box(NaN) -> {:?}, make_box(0) -> {:?}, make_box(1e30) -> {:?}",
        make_box(f32::NAN, 1.0).map(|_| "Ok"),
        make_box(0.0, 1.0).map(|_| "Ok"),
        make_box(1.0e30, 1.0).map(|_| "Ok")
    );
    if let Ok(p) = make_box(1.0e30, 1.0e30) {
        println!("polygon_sat(1e30 boxes) -> {:?}", polygon_sat(&p, id, &p, Transform::new(Vec2::new(1.0, 0.0), 0.5)));
    }
    let s = Sweep::fixed(id);
    let t = |name: &str, r: Result<ToiOutput, QueryError>| println!("{name} -> {r:?}");
    let mut nan_sweep = s;
    nan_sweep.a2 = f32::NAN;
    t("time_of_impact(NaN sweep)", time_of_impact(&square, &s, &square, &nan_sweep, 1.0, 0.005, 0.00125));
    t("time_of_impact(t_max 2)", time_of_impact(&square, &s, &square, &s, 2.0, 0.005, 0.00125));
    t("time_of_impact(tolerance 0)", time_of_impact(&square, &s, &square, &s, 1.0, 0.005, 0.0));
    let far_sweep = Sweep {
        local_center: Vec2::ZERO,
        c1: Vec2::new(1.0e30, 0.0),
        c2: Vec2::new(-1.0e30, 0.0),
        a1: 0.0,
        a2: 1.0e30,
    };
    t("time_of_impact(1e30 sweep)", time_of_impact(&square, &s, &square, &far_sweep, 1.0, 0.005, 0.00125));
    t(
        "conservative_advancement(1e30 sweep)",
        conservative_advancement(&square, &s, &square, &far_sweep, 1.0, 0.005, 0.00125),
    );
    if let Ok(h) = &huge {
        t(
            "time_of_impact(1e30 triangles)",
            time_of_impact(h, &s, h, &Sweep { c1: Vec2::new(5.0, 0.0), ..s }, 1.0, 0.005, 0.00125),
        );
    }
    let c = MovingCircle { center1: Vec2::ZERO, center2: Vec2::ZERO, radius: 1.0 };
    let cf = MovingCircle { center1: Vec2::new(1.0e30, 0.0), center2: Vec2::new(-1.0e30, 0.0), radius: 1.0 };
    t("circle_time_of_impact(1e30 motion)", circle_time_of_impact(&c, &cf, 1.0, 0.0));
    t(
        "circle_time_of_impact(f32::MAX radius)",
        circle_time_of_impact(&MovingCircle { radius: f32::MAX, ..c }, &cf, 1.0, 0.0),
    );
    let a = Aabb::new(Vec2::ZERO, Vec2::ONE);
    println!("aabb_time_of_impact(NaN) -> {:?}", aabb_time_of_impact(&a, Vec2::NAN, &a, Vec2::ZERO));
    println!(
        "aabb_time_of_impact(1e30 vs f32::MAX) -> {:?}",
        aabb_time_of_impact(
            &a,
            Vec2::new(f32::MAX, 0.0),
            &Aabb::new(Vec2::new(1.0e30, 0.0), Vec2::new(f32::MAX, 1.0)),
            Vec2::new(-f32::MAX, 0.0)
        )
    );
    println!("Aabb::ray_cast(NaN) -> {:?}", a.ray_cast(Vec2::NAN, Vec2::X, 1.0));
    println!("Aabb::ray_cast(max_fraction -1) -> {:?}", a.ray_cast(Vec2::new(0.5, 0.5), Vec2::X, -1.0));
    println!("Aabb::ray_cast(huge) -> {:?}", a.ray_cast(Vec2::new(-f32::MAX, 0.5), Vec2::new(f32::MAX, 0.0), 1.0));
    println!("Aabb::ray_cast(inside, max_fraction -1) -> {:?}", a.ray_cast(Vec2::new(0.5, 0.5), Vec2::X, -1.0));
    println!(
        "make_offset_box(angle 1e15) -> {:?}",
        make_offset_box(1.0, 1.0, Vec2::ZERO, 1.0e15).map(|p| p.vertices().to_vec())
    );
    println!("Transform::new(angle 1e15) -> {:?}", Transform::new(Vec2::ZERO, 1.0e15));
    let spin =
        Sweep { local_center: Vec2::ZERO, c1: Vec2::new(3.0, 0.0), c2: Vec2::new(3.0, 0.0), a1: 1.0e30, a2: 0.0 };
    t("time_of_impact(sweep a1 = 1e30)", time_of_impact(&square, &s, &square, &spin, 1.0, 0.005, 0.00125));
    t(
        "conservative_advancement(sweep a1 = 1e30)",
        conservative_advancement(&square, &s, &square, &spin, 1.0, 0.005, 0.00125),
    );
}

/// Documented: a ray cast's fraction lies in [0, max_fraction]; a ray starting inside hits
/// at 0. With a negative max_fraction there is no admissible fraction. (Found by the
/// property test with a zero translation, whose slab test skips both axes.)
#[test]
fn aabb_ray_cast_from_inside_with_negative_max_fraction() {
    let a = Aabb::new(Vec2::ZERO, Vec2::ONE);
    for translation in [Vec2::X, Vec2::ZERO] {
        let hit = a.ray_cast(Vec2::new(0.5, 0.5), translation, -1.0);
        assert!(hit.is_none_or(|h| h.fraction <= -1.0), "translation {translation}: {hit:?}");
    }
}
