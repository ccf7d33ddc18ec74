//! `shape_distance` and `segment_distance` against the f64 brute-force reference.
//!
//! Tolerances (absolute, meters), fixed from f32 precision, not from measurements:
//! * GENERAL: shapes up to ~2 m placed up to ~7 m from the origin: f32 spacing at 8 m is
//!   9.5e-7, so 10 such ulps = 1e-5 covers the handful of roundings of a transform, a
//!   support point and a projection.
//! * SHORT: chamfered boxes and tiny polygons with edges from 0.05 mm to 3.5 mm, gaps from
//!   0.1 mm to 1 cm, coordinates below ~1.5 m: 1e-6 (about 8 ulps at 1 m). The library
//!   claims short edges are resolved to float precision.
//!
//! The measured worst errors are printed (`cargo test --release --test distance -- --nocapture`).

mod common;

use common::cases::*;
use common::reference::*;
use impact2d::*;
use std::f64::consts::PI;

const GENERAL: f64 = 1.0e-5;
const SHORT: f64 = 1.0e-6;
/// Core distance (m) up to which the normal is checked against the unique exact direction:
/// the offset (angle error × core distance) must be within the tolerance. Beyond it, the
/// angle error is measured and printed: the lateral position of a perpendicular foot seen
/// from meters away is ill-conditioned in f32 and does not matter for contacts.
const NEAR: f64 = 0.1;
/// Tolerance of pairs far apart or far from the origin, in f32 spacings of the largest
/// coordinate met (see `far_spacing`).
const FAR_SPACINGS: f64 = 16.0;

fn dist(pa: &ShapeProxy, xa: Transform, pb: &ShapeProxy, xb: Transform, cache: &mut SimplexCache) -> DistanceOutput {
    shape_distance(&DistanceInput { proxy_a: pa, transform_a: xa, proxy_b: pb, transform_b: xb }, cache).unwrap()
}

#[derive(Default, Debug)]
struct Worst {
    distance: f64,
    /// Normal angle error × core distance, at core distances up to NEAR (meters).
    normal: f64,
    /// Normal angle error beyond NEAR (radians), measured only.
    far_normal_angle: f64,
    surface: f64,
    witness: f64,
    cases: usize,
    apart: usize,
    overlapping: usize,
}

/// Checks one answer against the reference; returns a description of the first failure.
fn check(
    pa: &ShapeProxy,
    xa: Transform,
    pb: &ShapeProxy,
    xb: Transform,
    out: &DistanceOutput,
    eps: f64,
    worst: &mut Worst,
) -> Result<(), String> {
    let (ra, rb) = (RefShape::from_proxy(pa), RefShape::from_proxy(pb));
    let (posa, posb) = (Pose::from_f32(xa), Pose::from_f32(xb));
    let (ca, cb) = (ra.placed(&posa), rb.placed(&posb));
    let r = sd_placed(&ca, ra.radius, &cb, rb.radius);
    worst.cases += 1;
    let fields = [out.point_a.x, out.point_a.y, out.point_b.x, out.point_b.y, out.normal.x, out.normal.y, out.distance];
    if fields.iter().any(|v| !v.is_finite()) {
        return Err(format!("non-finite output {out:?}"));
    }
    let d = out.distance as f64;
    if r.sd > eps {
        worst.apart += 1;
        let e = (d - r.sd).abs();
        worst.distance = worst.distance.max(e);
        if d == 0.0 {
            return Err(format!("false overlap: reference gap {:e}, library {out:?}", r.sd));
        }
        if e > eps {
            return Err(format!("distance error {e:e}: reference {:e}, library {d:e}", r.sd));
        }
        // The closest-points vector is unique: compare it (core distance × normal).
        // Asserted where normals matter (core distances up to NEAR); far pairs are measured.
        let n = D2::from_f32(out.normal);
        let angle = (n - r.normal).len();
        let en = angle * r.core.sd;
        if r.core.sd <= NEAR {
            worst.normal = worst.normal.max(en);
        } else {
            worst.far_normal_angle = worst.far_normal_angle.max(angle);
        }
        if (en > eps && r.core.sd <= NEAR) || (n.len() - 1.0).abs() > 1e-6 {
            return Err(format!("normal {n:?} vs reference {:?} (offset {en:e})", r.normal));
        }
        // Both points on their surfaces, and joined by distance × normal.
        let (qa, qb) = (D2::from_f32(out.point_a), D2::from_f32(out.point_b));
        let sa = (point_core_distance(&ca, qa) - ra.radius).abs();
        let sb = (point_core_distance(&cb, qb) - rb.radius).abs();
        worst.surface = worst.surface.max(sa).max(sb);
        let w = ((qb - qa) - n * d).len();
        worst.witness = worst.witness.max(w);
        if sa > eps || sb > eps || w > eps {
            return Err(format!("witness points off: surface {sa:e} {sb:e}, b - a - d n = {w:e}"));
        }
    } else if r.sd < -eps {
        worst.overlapping += 1;
        if d != 0.0 {
            return Err(format!("missed overlap: reference depth {:e}, library distance {d:e}", -r.sd));
        }
    }
    Ok(())
}

fn report(what: &str, pa: &ShapeProxy, xa: Transform, pb: &ShapeProxy, xb: Transform, e: &str) -> String {
    format!(
        "{what}: {e}\nlet proxy_a = {};\nlet xf_a = {};\nlet proxy_b = {};\nlet xf_b = {};",
        proxy_src(pa),
        xf_src(&xa),
        proxy_src(pb),
        xf_src(&xb)
    )
}

#[test]
fn random_shapes_from_overlapping_to_5m_apart() {
    let mut rng = rng(0xd157_0001);
    let mut worst = Worst::default();
    let mut failures = vec![];
    let mut kinds = std::collections::BTreeMap::new();
    for _ in 0..20_000 {
        let size = uni(&mut rng, 0.05, 1.0);
        let (pa, ka) = random_shape(&mut rng, size);
        let size = uni(&mut rng, 0.05, 1.0);
        let (pb, kb) = random_shape(&mut rng, size);
        *kinds.entry((ka, kb)).or_insert(0) += 1;
        let a_pos = d2(uni(&mut rng, -1.0, 1.0), uni(&mut rng, -1.0, 1.0));
        let (xa, _) = pose_pair(a_pos, uni(&mut rng, -PI, PI));
        let (xb, _) = pose_pair(a_pos + unit_dir(&mut rng) * uni(&mut rng, 0.0, 6.0), uni(&mut rng, -PI, PI));
        let out = dist(&pa, xa, &pb, xb, &mut SimplexCache::default());
        if let Err(e) = check(&pa, xa, &pb, xb, &out, GENERAL, &mut worst) {
            failures.push(report("random", &pa, xa, &pb, xb, &e));
        }
    }
    println!("random shapes: {worst:?}\n  kinds: {kinds:?}");
    assert!(worst.apart > 5000 && worst.overlapping > 1000, "{worst:?}");
    assert!(failures.is_empty(), "{} failures; first:\n{}", failures.len(), failures[0]);
}

/// A box of half sizes (hw, hh) with some corners cut by an edge of length `cut` (m).
fn chamfered_box(rng: &mut Rng, hw: f64, hh: f64, cut: f64) -> Vec<D2> {
    let corners = [d2(-hw, -hh), d2(hw, -hh), d2(hw, hh), d2(-hw, hh)];
    let mut pts = vec![];
    let mut cut_any = false;
    for i in 0..4 {
        let (prev, c, next) = (corners[(i + 3) % 4], corners[i], corners[(i + 1) % 4]);
        if rng.random_bool(0.6) || (i == 3 && !cut_any) {
            cut_any = true;
            // A 45°-ish cut of length `cut`, asymmetric at random.
            let k = uni(rng, 0.3, 0.7);
            let l = cut / (k * k + (1.0 - k) * (1.0 - k)).sqrt();
            pts.push(c + (prev - c).normalized() * (k * l));
            pts.push(c + (next - c).normalized() * ((1.0 - k) * l));
        } else {
            pts.push(c);
        }
    }
    pts
}

use rand::RngExt;

/// The placement of B (at angle `angle_b`) along direction `dir` from `anchor` at which the
/// reference gap is `gap`, by bisection on the distance along dir (f64).
fn place_at_gap(a: &RefShape, xa: &Pose, b: &RefShape, angle_b: f64, anchor: D2, dir: D2, gap: f64) -> D2 {
    let at = |s: f64| signed_distance(a, xa, b, &Pose::new(anchor + dir * s, angle_b)).sd;
    // At s = 0, B's origin (inside B) sits on A's vertex: overlapping.
    let (mut lo, mut hi) = (0.0, 3.0);
    assert!(at(lo) < gap);
    while at(hi) < gap {
        hi *= 2.0;
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if at(mid) < gap { lo = mid } else { hi = mid }
    }
    anchor + dir * hi
}

#[test]
fn short_edges_resolve_to_float_precision() {
    let mut rng = rng(0xd157_0002);
    let mut worst = Worst::default();
    let mut failures = vec![];
    let mut false_overlaps = 0;
    for i in 0..12_000 {
        let cut_a = uni(&mut rng, 5.0e-5, 3.5e-3);
        let cut_b = uni(&mut rng, 5.0e-5, 3.5e-3);
        // Chamfered boxes (0.1 to 1 m) with short edges, or tiny polygons made only of short
        // edges (an n-gon whose sides are 0.05 to 3.5 mm).
        let make = |rng: &mut Rng, cut: f64, tiny: bool| -> Vec<Vec2> {
            if tiny {
                let n = rng.random_range(3..=8usize);
                let r = cut / (2.0 * (PI / n as f64).sin());
                let phase = uni(rng, -PI, PI);
                let pts: Vec<D2> = (0..n)
                    .map(|k| {
                        let a = phase + 2.0 * PI * (k as f64 + uni(rng, -0.2, 0.2)) / n as f64;
                        d2(r * a.cos(), r * a.sin())
                    })
                    .collect();
                to_f32(&convex_hull(&pts))
            } else {
                let (hw, hh) = (uni(rng, 0.05, 0.5), uni(rng, 0.05, 0.5));
                to_f32(&chamfered_box(rng, hw, hh, cut))
            }
        };
        let tiny_a = i % 5 == 0;
        let tiny_b = i % 7 == 0;
        let pa = proxy(&make(&mut rng, cut_a, tiny_a), 0.0);
        let pb = proxy(&make(&mut rng, cut_b, tiny_b), 0.0);
        let (ra, rb) = (RefShape::from_proxy(&pa), RefShape::from_proxy(&pb));
        let (xa, posa) = pose_pair(d2(uni(&mut rng, -0.5, 0.5), uni(&mut rng, -0.5, 0.5)), uni(&mut rng, -PI, PI));
        // Aim B at one of A's vertices (a chamfer end or a corner), from outside.
        let ca = ra.placed(&posa);
        let k = rng.random_range(0..ca.n);
        let vertex = ca.v[k];
        let outward = (vertex - posa.p).normalized();
        let dir = (outward + unit_dir(&mut rng) * 0.3).normalized();
        let angle_b = uni(&mut rng, -PI, PI);
        let gap = uni(&mut rng, 1.0e-4, 1.0e-2);
        let pos_b = place_at_gap(&ra, &posa, &rb, angle_b, vertex, dir, gap);
        let (xb, _) = pose_pair(pos_b, angle_b);
        let out = dist(&pa, xa, &pb, xb, &mut SimplexCache::default());
        if out.distance == 0.0 {
            false_overlaps += 1;
        }
        if let Err(e) = check(&pa, xa, &pb, xb, &out, SHORT, &mut worst) {
            failures.push(report("short edges", &pa, xa, &pb, xb, &e));
        }
    }
    println!("short edges: {worst:?}, false overlaps {false_overlaps}");
    assert_eq!(worst.apart, 12_000);
    assert!(failures.is_empty(), "{} failures; first:\n{}", failures.len(), failures[0]);
}

/// The round-off (meters) of a query between shapes placed by `xa` and `xb`: the f32
/// spacing of the largest coordinate met, the positions' or the shapes' extent in A's frame.
fn far_spacing(pa: &ShapeProxy, xa: Transform, pb: &ShapeProxy, xb: Transform) -> f64 {
    let extent =
        |p: &ShapeProxy| p.points().iter().fold(0.0f64, |m, v| m.max(D2::from_f32(*v).len())) + p.radius() as f64;
    let position = D2::from_f32(xa.p).len().max(D2::from_f32(xb.p).len());
    let relative = D2::from_f32(xb.p).dist(D2::from_f32(xa.p));
    f32::EPSILON as f64 * (position + relative + extent(pa) + extent(pb))
}

/// Small shapes (1 mm to 10 cm) against large ones (1 m to 1,000 km) from 1 cm to 1,000 km
/// apart, in both orders, with a cold cache, a cache of random valid indices and a cache
/// from the previous query; pairs up to 1e6 m from the origin, and a quarter of them near
/// x = ±1e9. Checked against the f64 reference with the tolerance `FAR_SPACINGS` f32
/// spacings of the largest coordinate met (`far_spacing`; 1.2e-5 m at 100 m, 0.12 m at
/// 1,000 km): the distance; no overlap reported for pairs apart by more than that, none
/// missed; a unit normal; the closest points on their surfaces and joined by distance ×
/// normal.
///
/// Before issue 18, the normal was refined from whatever edge GJK's last simplex held, and
/// from afar that edge is often not the closest feature (a 1 mm edge seen from 70 m, whose
/// Voronoi region GJK's Minkowski round-off cannot resolve, or a chord of the hull): the
/// distance came out 10 % short or long, or below the radii (reported zero, so
/// `time_of_impact` called 408 km-apart shapes overlapped); a warm-start cache from another
/// pose sent it to such edges far more often (x ≈ 1e9: 1.9e8 for 1.5e9).
#[test]
fn small_shapes_far_from_large_ones() {
    let mut rng = rng(0xd157_0006);
    let mut worst = 0.0f64;
    let mut failures = vec![];
    let (mut apart, mut overlapping) = (0, 0);
    for i in 0..40_000 {
        let small = 10f64.powf(uni(&mut rng, -3.0, -1.0));
        let (small, _) = random_shape(&mut rng, small);
        let large = 10f64.powf(uni(&mut rng, 0.0, 6.0));
        let (large, _) = random_shape(&mut rng, large);
        let (pa, pb) = if i % 2 == 0 { (small, large) } else { (large, small) };
        let range = if i % 4 == 3 { 0.0 } else { 10f64.powf(uni(&mut rng, 0.0, 6.0)) };
        let base = if i % 4 == 3 { d2(1.0e9 * sign(&mut rng), uni(&mut rng, -1e3, 1e3)) * 0.999 } else { d2(0.0, 0.0) };
        let pos_a = base + d2(uni(&mut rng, -range, range), uni(&mut rng, -range, range));
        // Origins apart by both extents plus the gap (one pair in ten: less, maybe
        // overlapping).
        let extent =
            |p: &ShapeProxy| p.points().iter().fold(0.0f64, |m, v| m.max(D2::from_f32(*v).len())) + p.radius() as f64;
        let reach = extent(&pa) + extent(&pb);
        let gap = 10f64.powf(uni(&mut rng, -2.0, 6.0));
        let apart_by = if i % 10 == 9 { uni(&mut rng, 0.0, reach) } else { reach + gap };
        let (xa, _) = pose_pair(pos_a, uni(&mut rng, -PI, PI));
        // Near x = ±1e9, B lies towards the origin.
        let dir = unit_dir(&mut rng);
        let dir = if base.x != 0.0 { d2(-dir.x.abs() * base.x.signum(), dir.y) } else { dir };
        let (xb, _) = pose_pair(pos_a + dir * apart_by, uni(&mut rng, -PI, PI));
        let input = DistanceInput { proxy_a: &pa, transform_a: xa, proxy_b: &pb, transform_b: xb };
        let mut random_cache = SimplexCache { count: rng.random_range(1..=3u8), ..Default::default() };
        for k in 0..3 {
            random_cache.index_a[k] = rng.random_range(0..pa.count()) as u8;
            random_cache.index_b[k] = rng.random_range(0..pb.count()) as u8;
        }
        // A cache left by the same pair 1 % of the gap away, turned a little.
        let mut previous = SimplexCache::default();
        let (xb_before, _) = pose_pair(D2::from_f32(xb.p) - dir * (0.01 * apart_by), uni(&mut rng, -PI, PI));
        shape_distance(&DistanceInput { transform_b: xb_before, ..input }, &mut previous).unwrap();
        let spacing = far_spacing(&pa, xa, &pb, xb);
        let tol = FAR_SPACINGS * spacing;
        let r = signed_distance(
            &RefShape::from_proxy(&pa),
            &Pose::from_f32(xa),
            &RefShape::from_proxy(&pb),
            &Pose::from_f32(xb),
        );
        if r.sd > tol {
            apart += 1;
        } else if r.sd < -tol {
            overlapping += 1;
        }
        for (what, mut cache) in [("cold", SimplexCache::default()), ("random cache", random_cache), ("warm", previous)]
        {
            let out = shape_distance(&input, &mut cache).unwrap();
            let d = out.distance as f64;
            let error = (d - r.sd.max(0.0)).abs();
            worst = worst.max(error / spacing);
            let mut fault = None;
            if error > tol {
                fault = Some(format!("distance {d:e} against {:e}", r.sd));
            } else if d > 0.0 {
                let (qa, qb, n) = (D2::from_f32(out.point_a), D2::from_f32(out.point_b), D2::from_f32(out.normal));
                let (ca, cb) = (
                    RefShape::from_proxy(&pa).placed(&Pose::from_f32(xa)),
                    RefShape::from_proxy(&pb).placed(&Pose::from_f32(xb)),
                );
                let on_a = (point_core_distance(&ca, qa) - pa.radius() as f64).abs();
                let on_b = (point_core_distance(&cb, qb) - pb.radius() as f64).abs();
                let joined = ((qb - qa) - n * d).len();
                if (n.len() - 1.0).abs() > 1e-6 || on_a.max(on_b).max(joined) > tol {
                    fault = Some(format!(
                        "normal {n:?}, points off their surfaces by {on_a:e} {on_b:e}, b - a - d n = {joined:e}"
                    ));
                }
            }
            if let Some(f) = fault {
                failures.push(report(what, &pa, xa, &pb, xb, &format!("{f} ({:.0} spacings)", error / spacing)));
            }
        }
    }
    println!(
        "small shapes far from large ones: {apart} apart, {overlapping} overlapping; worst distance error {worst:.1} f32 spacings of the largest coordinate"
    );
    assert!(apart > 30_000 && overlapping > 500, "{apart} {overlapping}");
    assert!(failures.is_empty(), "{} failures; first:\n{}", failures.len(), failures[0]);
}

/// Issue 18's warm start far from the origin (reported at 4.9e7 m for 9.99e8): shapes of 1 cm
/// to 1e8 m, one near x = ±1e9 and the other anywhere within 1e9 of the origin, with a cold
/// cache and a cache of random valid indices, 10,000 pairs. Tolerance as in
/// `small_shapes_far_from_large_ones`.
#[test]
fn warm_starts_1e9_m_out() {
    let mut rng = rng(0xd157_0008);
    let (mut worst, mut failures) = (0.0f64, vec![]);
    for i in 0..10_000 {
        let size = 10f64.powf(uni(&mut rng, -2.0, 8.0));
        let (pa, _) = random_shape(&mut rng, size);
        let size = 10f64.powf(uni(&mut rng, -2.0, 8.0));
        let (pb, _) = random_shape(&mut rng, size);
        let far = d2(1.0e9 * sign(&mut rng) * uni(&mut rng, 0.9, 1.0), uni(&mut rng, -1e3, 1e3));
        let other = d2(uni(&mut rng, -1e9, 1e9), uni(&mut rng, -1e3, 1e3));
        let (pos_a, pos_b) = if i % 2 == 0 { (far, other) } else { (other, far) };
        let (xa, _) = pose_pair(pos_a, uni(&mut rng, -PI, PI));
        let (xb, _) = pose_pair(pos_b, uni(&mut rng, -PI, PI));
        let mut random_cache = SimplexCache { count: rng.random_range(1..=3u8), ..Default::default() };
        for k in 0..3 {
            random_cache.index_a[k] = rng.random_range(0..pa.count()) as u8;
            random_cache.index_b[k] = rng.random_range(0..pb.count()) as u8;
        }
        let r = signed_distance(
            &RefShape::from_proxy(&pa),
            &Pose::from_f32(xa),
            &RefShape::from_proxy(&pb),
            &Pose::from_f32(xb),
        );
        let spacing = far_spacing(&pa, xa, &pb, xb);
        for (what, mut cache) in [("cold", SimplexCache::default()), ("random cache", random_cache)] {
            let out = dist(&pa, xa, &pb, xb, &mut cache);
            let error = (out.distance as f64 - r.sd.max(0.0)).abs();
            worst = worst.max(error / spacing);
            if error > FAR_SPACINGS * spacing {
                failures.push(report(what, &pa, xa, &pb, xb, &format!("distance {} against {:e}", out.distance, r.sd)));
            }
        }
    }
    println!("warm starts 1e9 m out: worst distance error {worst:.1} f32 spacings");
    assert!(failures.is_empty(), "{} failures; first:\n{}", failures.len(), failures[0]);
}

/// Issue 18's three examples, each with 3,000 seeded poses around it, in both orders: a box
/// of half-size 1 mm against a 20 to 200 m segment 70 m away (reported at 77.09 m for 70.00);
/// a 2 mm rounded box against a 125 m chain segment about 200 m away (198.28 for 201.03);
/// a 0.1 m polygon against a 1,000 km capsule 408 km away (reported 0). Tolerance as in
/// `small_shapes_far_from_large_ones`.
#[test]
fn issue_18_small_against_large_examples() {
    let mut rng = rng(0xd157_0007);
    let segment = |length: f64| proxy(&to_f32(&[d2(-0.5 * length, 0.0), d2(0.5 * length, 0.0)]), 0.0);
    let mut failures = vec![];
    for example in 0..3 {
        let mut worst = 0.0f64;
        for i in 0..3_000 {
            let (small, large, gap) = match example {
                0 => (proxy(&rect_points(0.001, 0.001), 0.0), segment(uni(&mut rng, 20.0, 200.0)), 70.0),
                1 => (proxy(&rect_points(0.002, 0.001), 0.0005), segment(125.0), uni(&mut rng, 190.0, 210.0)),
                _ => {
                    let polygon = proxy(&random_convex(&mut rng, 6, 0.05, d2(0.0, 0.0)), 0.0);
                    let capsule = proxy(&to_f32(&[d2(-5.0e5, 0.0), d2(5.0e5, 0.0)]), uni(&mut rng, 0.0, 10.0));
                    (polygon, capsule, 408.0e3)
                }
            };
            let pos_small = d2(uni(&mut rng, -100.0, 100.0), uni(&mut rng, -100.0, 100.0));
            let angle_large = uni(&mut rng, -PI, PI);
            // The large shape's nearest point `gap` away: along its normal from its middle
            // part, or beyond an end.
            let (along, normal) = (d2(angle_large.cos(), angle_large.sin()), d2(-angle_large.sin(), angle_large.cos()));
            let length = D2::from_f32(large.points()[1]).dist(D2::from_f32(large.points()[0]));
            let side = sign(&mut rng);
            let offset = along * (length * uni(&mut rng, -0.7, 0.7));
            let pos_large = pos_small + normal * (side * (gap + large.radius() as f64)) - offset;
            let (xs, _) = pose_pair(pos_small, uni(&mut rng, -PI, PI));
            let (xl, _) = pose_pair(pos_large, angle_large);
            let (pa, xa, pb, xb) = if i % 2 == 0 { (&small, xs, &large, xl) } else { (&large, xl, &small, xs) };
            let out = dist(pa, xa, pb, xb, &mut SimplexCache::default());
            let r = signed_distance(
                &RefShape::from_proxy(pa),
                &Pose::from_f32(xa),
                &RefShape::from_proxy(pb),
                &Pose::from_f32(xb),
            );
            let spacing = far_spacing(pa, xa, pb, xb);
            let error = (out.distance as f64 - r.sd).abs();
            worst = worst.max(error / spacing);
            if error > FAR_SPACINGS * spacing {
                failures.push(report(
                    &format!("example {example}"),
                    pa,
                    xa,
                    pb,
                    xb,
                    &format!("distance {} against {}", out.distance, r.sd),
                ));
            }
        }
        println!("issue 18 example {example}: worst distance error {worst:.1} f32 spacings");
    }
    assert!(failures.is_empty(), "{} failures; first:\n{}", failures.len(), failures[0]);
}

#[test]
fn warm_start_equals_cold_across_small_motions() {
    let mut rng = rng(0xd157_0003);
    let mut worst_cold = Worst::default();
    let mut worst_warm = Worst::default();
    let mut diff = 0.0f64;
    let mut iterations = (0u64, 0u64);
    let mut failures = vec![];
    for _ in 0..700 {
        let size = uni(&mut rng, 0.1, 1.0);
        let (pa, _) = random_shape(&mut rng, size);
        let size = uni(&mut rng, 0.1, 1.0);
        let (pb, _) = random_shape(&mut rng, size);
        let mut pos_a = d2(uni(&mut rng, -1.0, 1.0), uni(&mut rng, -1.0, 1.0));
        let mut ang_a = uni(&mut rng, -PI, PI);
        let mut pos_b = pos_a + unit_dir(&mut rng) * uni(&mut rng, 0.0, 3.0);
        let mut ang_b = uni(&mut rng, -PI, PI);
        let mut cache = SimplexCache::default();
        for _ in 0..16 {
            pos_a = pos_a + unit_dir(&mut rng) * uni(&mut rng, 0.0, 0.01);
            pos_b = pos_b + unit_dir(&mut rng) * uni(&mut rng, 0.0, 0.01);
            ang_a += uni(&mut rng, -0.02, 0.02);
            ang_b += uni(&mut rng, -0.02, 0.02);
            let (xa, _) = pose_pair(pos_a, ang_a);
            let (xb, _) = pose_pair(pos_b, ang_b);
            let warm = dist(&pa, xa, &pb, xb, &mut cache);
            let cold = dist(&pa, xa, &pb, xb, &mut SimplexCache::default());
            iterations.0 += warm.iterations as u64;
            iterations.1 += cold.iterations as u64;
            diff = diff.max((warm.distance as f64 - cold.distance as f64).abs());
            if let Err(e) = check(&pa, xa, &pb, xb, &warm, GENERAL, &mut worst_warm) {
                failures.push(report("warm", &pa, xa, &pb, xb, &e));
            }
            if let Err(e) = check(&pa, xa, &pb, xb, &cold, GENERAL, &mut worst_cold) {
                failures.push(report("cold", &pa, xa, &pb, xb, &e));
            }
            if (warm.distance as f64 - cold.distance as f64).abs() > GENERAL {
                failures.push(report("warm != cold", &pa, xa, &pb, xb, &format!("{warm:?} vs {cold:?}")));
            }
        }
    }
    println!(
        "warm start: warm {worst_warm:?}\n  cold {worst_cold:?}\n  max |warm - cold| = {diff:e}, GJK iterations warm {} cold {}",
        iterations.0, iterations.1
    );
    assert!(worst_warm.cases >= 10_000);
    assert!(failures.is_empty(), "{} failures; first:\n{}", failures.len(), failures[0]);
}

/// The spacing of f32 numbers near the largest coordinate of `points` (meters): the
/// round-off every answer at those coordinates carries.
fn spacing(points: &[D2]) -> f64 {
    let largest = points.iter().fold(1.0f64, |m, p| m.max(p.x.abs()).max(p.y.abs()));
    f32::EPSILON as f64 * largest
}

/// Long segments (100 m to 1 km, up to 3 km from the origin) that cross at angles from 1e-7
/// to 1e-2 rad: the distance is zero, and the reported closest points are where they cross,
/// to within 2 f32 spacings of the largest coordinate (5e-4 m at 2 km). Before issue 18 the
/// two intersection points were rounded separately and slid apart along the nearly parallel
/// lines: 900 m segments crossing at 3e-4 rad were reported 13 cm apart.
#[test]
fn long_nearly_parallel_segments_that_cross_touch() {
    let mut rng = rng(0xd157_0005);
    let (mut worst, mut failures) = (0.0f64, vec![]);
    for _ in 0..20_000 {
        let length = uni(&mut rng, 100.0, 1000.0);
        let center = d2(uni(&mut rng, -2000.0, 2000.0), uni(&mut rng, -2000.0, 2000.0));
        let dir = unit_dir(&mut rng);
        let angle = 10f64.powf(uni(&mut rng, -7.0, -2.0)) * sign(&mut rng);
        let dir2 = dir.rotate(angle.cos(), angle.sin());
        let (k1, k2) = (uni(&mut rng, 0.05, 0.95), uni(&mut rng, 0.05, 0.95));
        let (p1, q1) = (center - dir * (length * k1), center + dir * (length * (1.0 - k1)));
        let (p2, q2) = (center - dir2 * (length * k2), center + dir2 * (length * (1.0 - k2)));
        let (f1, f2, f3, f4) = (p1.to_f32(), q1.to_f32(), p2.to_f32(), q2.to_f32());
        let r = segment_distance(f1, f2, f3, f4).unwrap();
        let w = [D2::from_f32(f1), D2::from_f32(f2), D2::from_f32(f3), D2::from_f32(f4)];
        let (exact, _, _) = segment_segment(w[0], w[1], w[2], w[3]);
        let (c1, c2) = (D2::from_f32(r.closest1), D2::from_f32(r.closest2));
        let on = closest_on_segment(w[0], w[1], c1).dist(c1).max(closest_on_segment(w[2], w[3], c2).dist(c2));
        let err = ((r.distance_squared as f64).sqrt() - exact).abs().max(c1.dist(c2) - exact).max(on);
        let ulp = spacing(&w);
        worst = worst.max(err / ulp);
        if err > 2.0 * ulp {
            failures.push(format!(
                "error {err:e} (exact {exact:e}, {:.1} spacings): segment_distance({}, {}, {}, {}) = {r:?}",
                err / ulp,
                vsrc(f1),
                vsrc(f2),
                vsrc(f3),
                vsrc(f4)
            ));
        }
    }
    println!("crossing long segments: worst error {worst:.2} f32 spacings of the largest coordinate");
    assert!(failures.is_empty(), "{} failures; first:\n{}", failures.len(), failures[0]);
    // Issue 18's kind of example: two 900 m segments crossing at 3.1e-4 rad, reported
    // 13 cm apart before.
    let bits = |x: u32, y: u32| Vec2::new(f32::from_bits(x), f32::from_bits(y));
    let (a, b) = (bits(0x4405987d, 0x434c901e), bits(0xc2f43e50, 0xc3cd88c4));
    let (c, d) = (bits(0x4409213d, 0x435a0352), bits(0xc2d797ce, 0xc3c6e8e2));
    let r = segment_distance(a, b, c, d).unwrap();
    assert!(r.distance_squared.sqrt() < 1.0e-4, "{r:?}");
    assert!(r.closest1.distance(r.closest2) < 1.0e-4, "{r:?}");
}

#[test]
fn segment_distance_matches_reference() {
    let mut rng = rng(0xd157_0004);
    let mut worst = (0.0f64, 0.0f64, 0.0f64);
    let mut failures = vec![];
    let mut kinds = std::collections::BTreeMap::new();
    for i in 0..20_000 {
        let p1 = d2(uni(&mut rng, -2.0, 2.0), uni(&mut rng, -2.0, 2.0));
        let q1 = match i % 10 {
            0 => p1, // zero length
            1 => p1 + unit_dir(&mut rng) * uni(&mut rng, 1e-5, 1e-3),
            _ => p1 + unit_dir(&mut rng) * uni(&mut rng, 0.0, 3.0),
        };
        let (p2, q2) = match i % 7 {
            // Parallel to the first.
            0 => {
                let off = d2(uni(&mut rng, -1.0, 1.0), uni(&mut rng, -1.0, 1.0));
                (p1 + off, q1 + off + (q1 - p1) * uni(&mut rng, -0.5, 0.5))
            }
            1 => (p1 + (q1 - p1) * uni(&mut rng, 0.0, 1.0), p1 + (q1 - p1) * uni(&mut rng, 0.0, 1.0)),
            2 => {
                let p = p1 + unit_dir(&mut rng) * uni(&mut rng, 0.0, 2.0);
                (p, p)
            }
            _ => {
                let p = d2(uni(&mut rng, -2.0, 2.0), uni(&mut rng, -2.0, 2.0));
                (p, p + unit_dir(&mut rng) * uni(&mut rng, 0.0, 3.0))
            }
        };
        let (f1, f2, f3, f4) = (p1.to_f32(), q1.to_f32(), p2.to_f32(), q2.to_f32());
        let r = segment_distance(f1, f2, f3, f4).unwrap();
        let (w1, w2, w3, w4) = (D2::from_f32(f1), D2::from_f32(f2), D2::from_f32(f3), D2::from_f32(f4));
        let (exact, _, _) = segment_segment(w1, w2, w3, w4);
        let d = (r.distance_squared as f64).sqrt();
        let (c1, c2) = (D2::from_f32(r.closest1), D2::from_f32(r.closest2));
        // The closest points lie on their segments, at their fractions, and are closest.
        let on1 = closest_on_segment(w1, w2, c1).dist(c1);
        let on2 = closest_on_segment(w3, w4, c2).dist(c2);
        let at1 = (w1 + (w2 - w1) * r.fraction1 as f64).dist(c1);
        let at2 = (w3 + (w4 - w3) * r.fraction2 as f64).dist(c2);
        let err = (d - exact).abs().max((c1.dist(c2) - exact).abs());
        worst.0 = worst.0.max(err);
        worst.1 = worst.1.max(on1).max(on2);
        worst.2 = worst.2.max(at1).max(at2);
        let fractions_ok = (0.0..=1.0).contains(&r.fraction1) && (0.0..=1.0).contains(&r.fraction2);
        let mut what = vec![];
        if err > GENERAL || !r.distance_squared.is_finite() {
            what.push("distance");
        }
        if on1.max(on2) > GENERAL {
            what.push("closest point off its segment");
        }
        if at1.max(at2) > GENERAL || !fractions_ok {
            what.push("fraction does not locate its closest point");
        }
        let first_of_kind = what.iter().any(|w| !kinds.contains_key(w));
        for w in &what {
            *kinds.entry(*w).or_insert(0) += 1;
        }
        if !what.is_empty() {
            let message = format!(
                "{what:?}: segment_distance({}, {}, {}, {}) = {r:?}; exact distance {exact:e}; point at fraction1 off by {at1:e}, at fraction2 off by {at2:e}; closest points off their segments by {on1:e}, {on2:e}",
                vsrc(f1),
                vsrc(f2),
                vsrc(f3),
                vsrc(f4)
            );
            if first_of_kind {
                println!("first failure of its kind: {message}");
            }
            failures.push(message);
        }
    }
    println!(
        "segment_distance: worst distance error {:e}, closest point off segment {:e}, point vs fraction {:e}; failures by kind {kinds:?}",
        worst.0, worst.1, worst.2
    );
    assert!(failures.is_empty(), "{} failures; first:\n{}", failures.len(), failures[0]);
}

// ---------------------------------------------------------------------------------------
// Named hand cases
// ---------------------------------------------------------------------------------------

fn hand(pa: &ShapeProxy, xa: Transform, pb: &ShapeProxy, xb: Transform) -> DistanceOutput {
    let out = dist(pa, xa, pb, xb, &mut SimplexCache::default());
    let mut w = Worst::default();
    check(pa, xa, pb, xb, &out, SHORT, &mut w).unwrap_or_else(|e| panic!("{e}"));
    out
}

#[test]
fn hand_cases() {
    let b = proxy(&rect_points(1.0, 1.0), 0.0);
    let id = Transform::IDENTITY;
    // Face to face.
    let o = hand(&b, id, &b, Transform::new(Vec2::new(0.3, 2.5), 0.0));
    assert!((o.distance - 0.5).abs() < 1e-6);
    // Corner to corner, diagonal.
    let o = hand(&b, id, &b, Transform::new(Vec2::new(3.0, 3.0), 0.0));
    assert!((o.distance as f64 - 2f64.sqrt()).abs() < 1e-6);
    // Box on its corner 0.25 above a box.
    let o =
        hand(&b, id, &b, Transform::new(Vec2::new(0.0, 1.25 + std::f32::consts::SQRT_2), std::f32::consts::FRAC_PI_4));
    assert!((o.distance - 0.25).abs() < 1e-6, "{o:?}");
    // Concentric: overlap.
    assert_eq!(hand(&b, id, &b, id).distance, 0.0);
    // Circle and capsule.
    let c = proxy(&[Vec2::ZERO], 0.5);
    let cap = proxy(&[Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0)], 0.25);
    let o = hand(&c, id, &cap, Transform::new(Vec2::new(0.5, 2.0), 0.0));
    assert!((o.distance - 1.25).abs() < 1e-6);
    // Parallel segments 1 mm apart, long and offset.
    let s = proxy(&[Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0)], 0.0);
    let o = hand(&s, id, &s, Transform::new(Vec2::new(1.5, 0.001), 0.0));
    assert!((o.distance - 0.001).abs() < 1e-7, "{o:?}");
    // A point 0.1 mm off the middle of a 0.05 mm edge of a chamfered 1 m box.
    let cut = 5.0e-5f32;
    let chamfer = proxy(
        &[
            Vec2::new(-0.5, -0.5),
            Vec2::new(0.5, -0.5),
            Vec2::new(0.5, 0.5 - cut / std::f32::consts::SQRT_2),
            Vec2::new(0.5 - cut / std::f32::consts::SQRT_2, 0.5),
            Vec2::new(-0.5, 0.5),
        ],
        0.0,
    );
    let p = proxy(&[Vec2::ZERO], 0.0);
    let mid = 0.5 - cut / (2.0 * std::f32::consts::SQRT_2);
    let gap = 1.0e-4 / std::f32::consts::SQRT_2;
    let o = hand(&chamfer, id, &p, Transform::new(Vec2::new(mid + gap, mid + gap), 0.0));
    assert!((o.distance - 1.0e-4).abs() < 2e-7, "{o:?}");
}
