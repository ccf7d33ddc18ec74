//! Every query with hostile numbers: NaN, infinities, extremes, subnormals, non-unit
//! rotations, parameters out of range. Each must refuse with an error or answer finitely.

use super::case::Pair;
use super::finite;
use crate::source::Source;
use crate::tally::{Fault, Tier, Verdict};
use impact2d::{
    DistanceInput, RayCastInput, Rot, Shape, ShapeCastInput, ShapeProxy, SimplexCache, Sweep, Transform, Vec2, collide,
    conservative_advancement, penetration, ray_cast_capsule, ray_cast_circle, ray_cast_polygon, ray_cast_segment,
    segment_distance, shape_cast, shape_distance, time_of_impact,
};

/// Corrupts some numbers of the pair's queries and runs them all.
pub fn check_hostile(src: &mut Source, pair: &Pair) -> Verdict {
    let mut xf_a = corrupt_transform(src, pair.xf_a);
    let mut xf_b = corrupt_transform(src, pair.xf_b);
    if src.chance(1, 8) {
        std::mem::swap(&mut xf_a, &mut xf_b);
    }
    // A proxy of hostile points must be refused.
    let points = [Vec2::new(src.wild(), src.wild()), Vec2::new(src.or_wild(1.0, 2), src.or_wild(0.0, 2))];
    if let Ok(p) = ShapeProxy::new(&points, src.or_wild(0.1, 2))
        && (!p.points().iter().all(|v| v.is_finite()) || !p.radius().is_finite())
    {
        return Verdict::fault(Tier::Hostile, Fault::Wrong, format!("ShapeProxy::new accepted {points:?}"));
    }
    let (pa, pb) = (&pair.proxy_a, &pair.proxy_b);
    let distance = DistanceInput { proxy_a: pa, transform_a: xf_a, proxy_b: pb, transform_b: xf_b };
    let mut numbers: Vec<f32> = vec![];
    if let Ok(out) = shape_distance(&distance, &mut SimplexCache::default()) {
        numbers.extend([out.distance, out.normal.x, out.normal.y, out.point_a.x, out.point_a.y, out.point_b.x]);
    }
    if let Ok(Some(p)) = penetration(&distance) {
        numbers.extend([p.depth, p.normal.x, p.normal.y, p.point_a.x, p.point_b.y]);
    }
    if let Ok(out) = segment_distance(xf_a.p, xf_b.p, xf_a.p + xf_a.q.rotate(Vec2::X), xf_b.p + Vec2::new(1.0, 1.0)) {
        numbers.extend([out.distance_squared, out.fraction1, out.fraction2, out.closest1.x, out.closest2.y]);
    }
    let cast = ShapeCastInput {
        proxy_a: pa,
        transform_a: xf_a,
        proxy_b: pb,
        transform_b: xf_b,
        translation_b: Vec2::new(src.or_wild(3.0, 3), src.or_wild(-1.0, 3)),
        max_fraction: src.or_wild(1.0, 3),
        target: src.or_wild(0.01, 3),
        tolerance: src.or_wild(0.001, 3),
    };
    if let Ok(Some(hit)) = shape_cast(&cast) {
        numbers.extend([hit.fraction, hit.normal.x, hit.normal.y, hit.point.x, hit.point.y]);
    }
    let sweep = |src: &mut Source, xf: Transform| Sweep {
        local_center: Vec2::new(src.or_wild(0.0, 4), src.or_wild(0.0, 4)),
        c1: xf.p,
        c2: xf.p + Vec2::new(src.or_wild(5.0, 4), src.or_wild(0.0, 4)),
        a1: src.or_wild(0.0, 4),
        a2: src.or_wild(30.0, 4),
    };
    let (sa, sb) = (sweep(src, xf_a), sweep(src, xf_b));
    let (t_max, target, tolerance) = (src.or_wild(1.0, 3), src.or_wild(0.005, 3), src.or_wild(0.001, 3));
    for run in [time_of_impact, conservative_advancement] {
        if let Ok(out) = run(pa, &sa, pb, &sb, t_max, target, tolerance) {
            numbers.extend([out.t, out.normal.x, out.normal.y, out.point.x, out.point.y]);
        }
    }
    let m = collide(&pair.a, xf_a, &pair.b, xf_b, src.or_wild(0.02, 2));
    for p in m.points() {
        numbers.extend([p.separation, p.point.x, p.point.y, p.anchor_a.x, p.anchor_b.y, m.normal.x, m.normal.y]);
    }
    let ray = RayCastInput {
        origin: Vec2::new(src.or_wild(10.0, 3), src.or_wild(0.0, 3)),
        translation: Vec2::new(src.or_wild(-20.0, 3), src.or_wild(0.1, 3)),
        max_fraction: src.or_wild(1.0, 3),
    };
    let hit = match &pair.a {
        Shape::Circle(c) => ray_cast_circle(c, &ray),
        Shape::Capsule(c) => ray_cast_capsule(c, &ray),
        Shape::Polygon(p) => ray_cast_polygon(p, &ray),
        Shape::Segment(s) => ray_cast_segment(s, &ray),
        _ => None,
    };
    if let Some(hit) = hit {
        numbers.extend([hit.fraction, hit.normal.x, hit.normal.y, hit.point.x, hit.point.y]);
    }
    if !finite(&numbers) {
        return Verdict::fault(Tier::Hostile, Fault::NonFinite, format!("a query answered {numbers:?}"));
    }
    Verdict::clean(Tier::Hostile)
}

/// The transform with some of its numbers hostile, or its rotation not unit.
fn corrupt_transform(src: &mut Source, xf: Transform) -> Transform {
    let p = Vec2::new(src.or_wild(xf.p.x, 4), src.or_wild(xf.p.y, 4));
    let q = if src.chance(1, 6) { Rot { c: src.or_wild(xf.q.c * 1.5, 2), s: src.or_wild(xf.q.s, 2) } } else { xf.q };
    Transform { p, q }
}
