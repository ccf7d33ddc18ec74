//! `shape_cast` and the ray casts against the f64 reference.

use super::case::{Pair, extent, keep_within};
use super::{SPACINGS, finite, first_dip};
use crate::reference::{D2, Motion, Pose, RefShape, RefSweep, point_core_distance};
use crate::source::Source;
use crate::tally::{Fault, Verdict};
use impact2d::settings::LINEAR_SLOP;
use impact2d::{
    CastOutput, RayCastInput, Shape, ShapeCastInput, ShapeProxy, Vec2, ray_cast_capsule, ray_cast_circle,
    ray_cast_polygon, ray_cast_segment, shape_cast,
};

/// `shape_cast` of B translated toward A (or anywhere): a hit's gap lies in the band
/// `target ± tolerance` to the documented precision (`SPACINGS` f32 spacings of the largest
/// coordinate met, the translation included) unless the cast stopped short after its
/// iterations (the safe side), the gap never dips below the band before the hit, and a miss
/// never hides a dip below the band.
pub fn check_shape_cast(src: &mut Source, pair: &Pair) -> Verdict {
    let toward = D2::from_f32(pair.xf_a.p) - D2::from_f32(pair.xf_b.p);
    let translation = if src.chance(3, 4) {
        let (x, y) = src.direction();
        toward * src.uniform(0.0, 3.0) + D2 { x, y } * (toward.len() * src.uniform(0.0, 0.5))
    } else {
        let (x, y) = src.direction();
        D2 { x, y } * src.log_uniform(1.0e-3, 1.0e3)
    };
    let translation = keep_within(pair.xf_b.p, translation);
    let max_fraction = if src.chance(3, 4) { 1.0 } else { src.unit() as f32 };
    let target = [0.0, LINEAR_SLOP, src.uniform(0.0, 0.05) as f32][src.below(3)];
    let tolerance = [0.25 * LINEAR_SLOP, 1.0e-4, src.log_uniform(1.0e-5, 1.0e-2) as f32][src.below(3)];
    let input = ShapeCastInput {
        proxy_a: &pair.proxy_a,
        transform_a: pair.xf_a,
        proxy_b: &pair.proxy_b,
        transform_b: pair.xf_b,
        translation_b: translation.to_f32(),
        max_fraction,
        target,
        tolerance,
    };
    match shape_cast(&input) {
        Ok(out) => judge_shape_cast(pair, &input, out.as_ref()),
        Err(e) => Verdict::fault(pair.tier, Fault::Wrong, format!("shape_cast refused a valid cast: {e}")),
    }
}

/// The verdict on `out`, the answer of `shape_cast` to `input` (see [`check_shape_cast`]).
pub fn judge_shape_cast(pair: &Pair, input: &ShapeCastInput, out: Option<&CastOutput>) -> Verdict {
    let (ra, rb) = pair.reference();
    let pa = Pose::from_f32(pair.xf_a);
    let pb = Pose::from_f32(pair.xf_b);
    let angle = |p: Pose| p.s.atan2(p.c);
    let c_b = D2::from_f32(pair.xf_b.p);
    let moved = D2::from_f32(input.translation_b);
    let motion = Motion {
        a: ra,
        sa: RefSweep::fixed(pa.p, angle(pa)),
        b: rb,
        sb: RefSweep { lc: D2::default(), c1: c_b, c2: c_b + moved, a1: angle(pb), a2: angle(pb) },
    };
    let tol = SPACINGS * (pair.spacing() + f32::EPSILON as f64 * moved.len());
    let (lo, hi) = ((input.target - input.tolerance) as f64, (input.target + input.tolerance) as f64);
    let max_fraction = input.max_fraction as f64;
    let dip_before = |t_end: f64| first_dip(|t| motion.sd_at(t), motion.lipschitz(), lo - tol, t_end);
    let Some(hit) = out else {
        if let Some(tc) = dip_before(max_fraction) {
            let m = format!(
                "shape_cast missed: the gap is {:e} at fraction {tc} (band [{lo:e}, {hi:e}])",
                motion.sd_at(tc)
            );
            return Verdict::fault(pair.tier, Fault::Wrong, m);
        }
        return Verdict::clean(pair.tier);
    };
    if !finite(&[hit.fraction, hit.point.x, hit.point.y, hit.normal.x, hit.normal.y]) {
        return Verdict::fault(pair.tier, Fault::NonFinite, format!("shape_cast: {hit:?}"));
    }
    let f = hit.fraction as f64;
    let gap = motion.sd_at(f);
    let stopped_short = hit.iterations >= 32 && gap > hi;
    let fault = if !(0.0..=max_fraction).contains(&f) {
        Some(format!("fraction outside [0, {max_fraction}]"))
    } else if f == 0.0 && gap > hi + tol {
        Some(format!("hit at 0 with the gap {gap:e} above the band"))
    } else if f > 0.0 && (gap < lo - tol || (gap > hi + tol && !stopped_short)) {
        Some(format!("gap {gap:e} at the hit, band [{lo:e}, {hi:e}]"))
    } else if f > 0.0 && (D2::from_f32(hit.normal).len() - 1.0).abs() > 1e-5 {
        Some("normal not unit".to_owned())
    } else {
        dip_before(f).map(|tc| format!("late: the gap is already {:e} at fraction {tc}", motion.sd_at(tc)))
    };
    match fault {
        Some(m) => Verdict::fault(pair.tier, Fault::Wrong, format!("shape_cast {hit:?}: {m} (tolerance {tol:e})")),
        None => Verdict::clean(pair.tier),
    }
}

/// A ray cast at shape A in its own frame, from up to the tier's distances: a hit lies on the
/// surface and on the ray, after no point of the ray inside the shape; a miss leaves no point
/// of the ray inside by more than the tolerance (for a segment: no crossing clear of its ends).
pub fn check_ray_cast(src: &mut Source, pair: &Pair) -> Verdict {
    let shape = &pair.a;
    let proxy = ShapeProxy::from_shape(shape);
    let reach = extent(&proxy);
    let distance = if src.chance(1, 4) { src.uniform(0.0, 2.0 * reach) } else { src.log_uniform(reach, 1.0e4) };
    let (x, y) = src.direction();
    let origin = D2 { x, y } * distance;
    let (x, y) = src.direction();
    let aim = D2 { x, y } * (reach * src.uniform(0.0, 1.5));
    let translation = (aim - origin) * src.uniform(0.5, 2.0);
    let input = RayCastInput {
        origin: origin.to_f32(),
        translation: translation.to_f32(),
        max_fraction: if src.chance(3, 4) { 1.0 } else { src.unit() as f32 },
    };
    let out = match shape {
        Shape::Circle(c) => ray_cast_circle(c, &input),
        Shape::Capsule(c) => ray_cast_capsule(c, &input),
        Shape::Polygon(p) => ray_cast_polygon(p, &input),
        Shape::Segment(s) => ray_cast_segment(s, &input),
        _ => return Verdict::clean(pair.tier),
    };
    let (o, d) = (D2::from_f32(input.origin), D2::from_f32(input.translation));
    let tol = SPACINGS * f32::EPSILON as f64 * (o.len() + d.len() + reach);
    let reference = RefShape::from_proxy(&proxy);
    let placed = reference.placed(&Pose::new(D2::default(), 0.0));
    let sd = |p: D2| point_core_distance(&placed, p) - reference.radius;
    let thin = matches!(shape, Shape::Segment(_));
    let end = input.max_fraction as f64;
    let inside_before = |t_end: f64| first_dip(|t| sd(o + d * t), d.len(), -tol, t_end);
    let fault = match out {
        None if thin => {
            clear_crossing(o, o + d * end, &reference.hull, tol).map(|p| format!("missed the crossing at {p:?}"))
        }
        None => inside_before(end).map(|tc| format!("missed: the ray is inside at fraction {tc}")),
        Some(hit) => check_ray_hit(&hit, o, d, end, tol, sd, thin, inside_before),
    };
    match fault {
        Some(m) => {
            let m = format!("ray cast {input:?} at {shape:?}: {m} (tolerance {tol:e}), output {out:?}");
            Verdict::fault(pair.tier, Fault::Wrong, m)
        }
        None => Verdict::clean(pair.tier),
    }
}

#[allow(clippy::too_many_arguments)]
fn check_ray_hit(
    hit: &CastOutput,
    o: D2,
    d: D2,
    end: f64,
    tol: f64,
    sd: impl Fn(D2) -> f64,
    thin: bool,
    inside_before: impl Fn(f64) -> Option<f64>,
) -> Option<String> {
    if !finite(&[hit.fraction, hit.point.x, hit.point.y, hit.normal.x, hit.normal.y]) {
        return Some("non-finite output".to_owned());
    }
    let f = hit.fraction as f64;
    let p = D2::from_f32(hit.point);
    if !(0.0..=end).contains(&f) {
        return Some("fraction out of range".to_owned());
    }
    if f == 0.0 && hit.normal == Vec2::ZERO {
        // Starting inside: the origin must be in the shape (or on it).
        return (sd(o) > tol || p.dist(o) > tol).then(|| format!("started inside, but the origin is {:e} out", sd(o)));
    }
    if sd(p).abs() > tol || p.dist(o + d * f) > tol || (D2::from_f32(hit.normal).len() - 1.0).abs() > 1e-5 {
        return Some(format!("point {:e} off the surface, {:e} off the ray", sd(p), p.dist(o + d * f)));
    }
    if thin {
        return None;
    }
    inside_before(f).map(|tc| format!("late: the ray is inside at fraction {tc}"))
}

/// Where the ray from `p` to `q` crosses the segment `hull` (two points) with all four ends
/// clear of the other's line by more than `tol`: a crossing no rounding can undo.
fn clear_crossing(p: D2, q: D2, hull: &[D2], tol: f64) -> Option<D2> {
    let [a, b] = hull else { return None };
    let side = |s: D2, e: D2, x: D2| {
        let dir = (e - s).normalized();
        dir.cross(x - s)
    };
    let (sa, sb) = (side(p, q, *a), side(p, q, *b));
    let (sp, sq) = (side(*a, *b, p), side(*a, *b, q));
    let clear = |u: f64, v: f64| (u > tol && v < -tol) || (u < -tol && v > tol);
    (clear(sa, sb) && clear(sp, sq)).then(|| p + (q - p) * (sp / (sp - sq)))
}
