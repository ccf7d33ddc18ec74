//! `penetration` (EPA) and `polygon_sat` against the f64 brute-force reference depth.
//!
//! Tolerance EPS = 1e-5 m absolute (shapes up to ~2 m near the origin: 10 f32 ulps at 8 m),
//! fixed before measuring. The normal is checked by what it must do rather than by angle
//! (the deepest direction is not unique for symmetric overlaps): the exact overlap of the
//! shapes along the returned normal must equal the returned depth, and the depth must be
//! the least over all directions. The angle to the reference normal is printed where the
//! reference optimum is unique.

mod common;

use common::cases::*;
use common::reference::*;
use impact2d::*;
use std::f64::consts::PI;

const EPS: f64 = 1.0e-5;

/// Distance from p to the boundary of a placed core (its solid for n ≥ 3 is not counted).
fn boundary_distance(h: &Placed, p: D2) -> f64 {
    let n = h.n;
    if n == 1 {
        return h.v[0].dist(p);
    }
    (0..n).map(|i| closest_on_segment(h.v[i], h.v[(i + 1) % n], p).dist(p)).fold(f64::INFINITY, f64::min)
}

/// True when p lies on the surface of a core inflated by r, within EPS.
fn on_surface(h: &Placed, r: f64, p: D2) -> f64 {
    let solid = point_core_distance(h, p);
    if r > 0.0 { (solid - r).abs() } else { boundary_distance(h, p) }
}

#[derive(Default, Debug)]
struct Stats {
    cases: usize,
    overlapping: usize,
    separated: usize,
    worst_depth: f64,
    worst_normal_depth: f64,
    worst_points: f64,
    worst_angle_unique: f64,
    max_iterations: u32,
    worst_failed_depth: f64,
}

fn check_penetration(
    pa: &ShapeProxy,
    xa: Transform,
    pb: &ShapeProxy,
    xb: Transform,
    st: &mut Stats,
) -> Result<(), String> {
    let (ra, rb) = (RefShape::from_proxy(pa), RefShape::from_proxy(pb));
    let (ca, cb) = (ra.placed(&Pose::from_f32(xa)), rb.placed(&Pose::from_f32(xb)));
    let r = sd_placed(&ca, ra.radius, &cb, rb.radius);
    let out = penetration(&DistanceInput { proxy_a: pa, transform_a: xa, proxy_b: pb, transform_b: xb });
    st.cases += 1;
    match out {
        None => {
            if r.sd < -EPS {
                return Err(format!("missed overlap: reference depth {:e}", -r.sd));
            }
        }
        Some(p) => {
            let fields = [p.depth, p.normal.x, p.normal.y, p.point_a.x, p.point_a.y, p.point_b.x, p.point_b.y];
            if fields.iter().any(|v| !v.is_finite()) {
                return Err(format!("non-finite output {p:?}"));
            }
            st.max_iterations = st.max_iterations.max(p.iterations);
            if r.sd > EPS {
                return Err(format!("false overlap {p:?}: reference gap {:e}", r.sd));
            }
            if r.sd >= -EPS {
                return Ok(()); // touching within tolerance: either answer is right
            }
            st.overlapping += 1;
            let depth = p.depth as f64;
            let e = (depth + r.sd).abs();
            let n = D2::from_f32(p.normal);
            if (n.len() - 1.0).abs() > 1e-6 {
                return Err(format!("normal not unit {p:?}"));
            }
            // The exact overlap of the surfaces along the returned normal: how far B must
            // move along +n to leave A (support functions plus radii).
            let along = core_overlap_along(&ca, &cb, n) + ra.radius + rb.radius;
            let en = (along - depth).abs();
            // Unique optimum? Then compare angles too.
            let mut angle_unique = 0.0f64;
            if r.core.overlap {
                let mut vals: Vec<f64> = vec![];
                for h in [&ca, &cb] {
                    let m = h.n;
                    if m < 3 {
                        continue;
                    }
                    for i in 0..m {
                        let u = (h.v[(i + 1) % m] - h.v[i]).perp().normalized();
                        vals.push(core_overlap_along(&ca, &cb, u));
                        vals.push(core_overlap_along(&ca, &cb, -u));
                    }
                }
                vals.sort_by(|a, b| a.total_cmp(b));
                if vals.len() >= 2 && vals[1] - vals[0] > 1e-3 && (vals[0] + r.sd + ra.radius + rb.radius).abs() < 1e-12
                {
                    angle_unique = (n - r.normal).len();
                }
            }
            let (qa, qb) = (D2::from_f32(p.point_a), D2::from_f32(p.point_b));
            let ep =
                ((qa - qb) - n * depth).len().max(on_surface(&ca, ra.radius, qa)).max(on_surface(&cb, rb.radius, qb));
            if e <= EPS && en <= EPS && ep <= EPS {
                // Accuracy of the answers that pass (failures are listed separately).
                st.worst_depth = st.worst_depth.max(e);
                st.worst_normal_depth = st.worst_normal_depth.max(en);
                st.worst_points = st.worst_points.max(ep);
                st.worst_angle_unique = st.worst_angle_unique.max(angle_unique);
            } else {
                st.worst_failed_depth = st.worst_failed_depth.max(e);
                return Err(format!(
                    "{p:?}: reference depth {:e} normal {:?}; depth error {e:e}, overlap along the returned normal {along:e}, points error {ep:e}",
                    -r.sd, r.normal
                ));
            }
        }
    }
    if r.sd > EPS {
        st.separated += 1;
    }
    Ok(())
}

fn report(pa: &ShapeProxy, xa: Transform, pb: &ShapeProxy, xb: Transform, e: &str) -> String {
    format!(
        "{e}\nlet proxy_a = {};\nlet xf_a = {};\nlet proxy_b = {};\nlet xf_b = {};",
        proxy_src(pa),
        xf_src(&xa),
        proxy_src(pb),
        xf_src(&xb)
    )
}

#[test]
fn penetration_matches_reference_depth_and_normal() {
    let mut rng = rng(0xe9a_0001);
    let mut st = Stats::default();
    let mut failures = vec![];
    let mut by_kind = std::collections::BTreeMap::new();
    for _ in 0..24_000 {
        let size = uni(&mut rng, 0.05, 1.0);
        let (pa, ka) = random_shape(&mut rng, size);
        let size = uni(&mut rng, 0.05, 1.0);
        let (pb, kb) = random_shape(&mut rng, size);
        let a_pos = d2(uni(&mut rng, -1.0, 1.0), uni(&mut rng, -1.0, 1.0));
        let (xa, _) = pose_pair(a_pos, uni(&mut rng, -PI, PI));
        let (xb, _) = pose_pair(a_pos + unit_dir(&mut rng) * uni(&mut rng, 0.0, 1.0), uni(&mut rng, -PI, PI));
        if let Err(e) = check_penetration(&pa, xa, &pb, xb, &mut st) {
            *by_kind
                .entry((ka, kb, e.split(':').next().unwrap_or("").chars().take(40).collect::<String>()))
                .or_insert(0) += 1;
            if failures.is_empty() {
                println!("first failure: {}", report(&pa, xa, &pb, xb, &e));
            }
            failures.push(report(&pa, xa, &pb, xb, &e));
        }
    }
    println!("penetration: {st:?}, {} failures", failures.len());
    println!("failures by shape kinds: {by_kind:?}");
    assert!(st.overlapping >= 10_000 && st.separated > 1000, "{st:?}");
    assert!(failures.is_empty(), "{} failures; first:\n{}", failures.len(), failures[0]);
}

#[test]
fn penetration_hand_cases() {
    let b = proxy(&rect_points(1.0, 1.0), 0.0);
    let id = Transform::IDENTITY;
    let mut st = Stats::default();
    let cases: Vec<(&str, ShapeProxy, Transform, ShapeProxy, Transform, f64)> = vec![
        ("stacked boxes", b, id, b, Transform::new(Vec2::new(0.2, 1.9), 0.0), 0.1),
        ("wide box through a square", b, id, proxy(&rect_points(2.0, 0.5), 0.0), id, 1.5),
        ("point in box", b, id, proxy(&[Vec2::ZERO], 0.0), Transform::new(Vec2::new(0.2, 0.3), 0.0), 0.7),
        (
            "crossing segments",
            proxy(&[Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0)], 0.0),
            id,
            proxy(&[Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0)], 0.0),
            Transform::new(Vec2::ZERO, 1.0),
            1f64.sin(),
        ),
        (
            "circles with cores apart",
            proxy(&[Vec2::ZERO], 1.0),
            id,
            proxy(&[Vec2::ZERO], 1.0),
            Transform::new(Vec2::new(1.5, 0.0), 0.0),
            0.5,
        ),
        (
            "box inside box, off center",
            b,
            id,
            proxy(&rect_points(0.25, 0.25), 0.0),
            Transform::new(Vec2::new(0.6, -0.1), 0.3),
            0.0,
        ),
    ];
    for (name, pa, xa, pb, xb, depth) in cases {
        check_penetration(&pa, xa, &pb, xb, &mut st).unwrap_or_else(|e| panic!("{name}: {e}"));
        let p = penetration(&DistanceInput { proxy_a: &pa, transform_a: xa, proxy_b: &pb, transform_b: xb }).unwrap();
        if depth > 0.0 {
            assert!((p.depth as f64 - depth).abs() < 1e-5, "{name}: {p:?}");
        }
    }
    // Touching is not overlapping; collinear overlapping segments have no depth.
    let s = proxy(&[Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0)], 0.0);
    assert!(
        penetration(&DistanceInput {
            proxy_a: &b,
            transform_a: id,
            proxy_b: &b,
            transform_b: Transform::new(Vec2::new(2.0, 0.5), 0.0)
        })
        .is_none()
    );
    assert!(
        penetration(&DistanceInput {
            proxy_a: &s,
            transform_a: id,
            proxy_b: &s,
            transform_b: Transform::new(Vec2::new(0.5, 0.0), 0.0)
        })
        .is_none()
    );
}

// ---------------------------------------------------------------------------------------
// SAT
// ---------------------------------------------------------------------------------------

fn random_box(rng: &mut Rng) -> Polygon {
    let (hw, hh) = (uni(rng, 0.02, 1.0), uni(rng, 0.02, 1.0));
    let center = Vec2::new(uni(rng, -0.3, 0.3) as f32, uni(rng, -0.3, 0.3) as f32);
    let angle = uni(rng, -PI, PI) as f32;
    let radius = if rng_bool(rng) { 0.0 } else { uni(rng, 0.0, 0.2) as f32 };
    match rand::RngExt::random_range(rng, 0..4u32) {
        0 => make_box(hw as f32, hh as f32).unwrap(),
        1 => make_offset_box(hw as f32, hh as f32, center, angle).unwrap(),
        2 => make_rounded_box(hw as f32, hh as f32, radius).unwrap(),
        _ => make_offset_rounded_box(hw as f32, hh as f32, center, angle, radius).unwrap(),
    }
}

fn rng_bool(rng: &mut Rng) -> bool {
    rand::RngExt::random_bool(rng, 0.5)
}

fn ref_polygon(p: &Polygon) -> RefShape {
    let pts: Vec<D2> = p.vertices().iter().map(|&v| D2::from_f32(v)).collect();
    RefShape::new(&pts, p.radius() as f64)
}

#[test]
fn polygon_sat_matches_reference() {
    let mut rng = rng(0xe9a_0002);
    let mut failures = vec![];
    let (mut n_core_overlap, mut n_apart) = (0, 0);
    let (mut worst_exact, mut worst_bound_excess, mut worst_axis) = (0.0f64, f64::NEG_INFINITY, 0.0f64);
    for _ in 0..20_000 {
        let (a, b) = (random_box(&mut rng), random_box(&mut rng));
        let pos_a = d2(uni(&mut rng, -1.0, 1.0), uni(&mut rng, -1.0, 1.0));
        let (xa, posa) = pose_pair(pos_a, uni(&mut rng, -PI, PI));
        let (xb, posb) = pose_pair(pos_a + unit_dir(&mut rng) * uni(&mut rng, 0.0, 3.0), uni(&mut rng, -PI, PI));
        let q = polygon_sat(&a, xa, &b, xb);
        let (ra, rb) = (ref_polygon(&a), ref_polygon(&b));
        let (ca, cb) = (ra.placed(&posa), rb.placed(&posb));
        let r = sd_placed(&ca, ra.radius, &cb, rb.radius);
        let radius = ra.radius + rb.radius;
        let sep = q.separation as f64;
        let n = D2::from_f32(q.normal);
        let mut errors = vec![];
        if !(sep.is_finite() && n.x.is_finite() && n.y.is_finite()) || (n.len() - 1.0).abs() > 1e-6 {
            errors.push("non-finite or non-unit".to_string());
        }
        // The separation along the returned axis must be what is reported.
        let along = -core_overlap_along(&ca, &cb, n) - radius;
        worst_axis = worst_axis.max((along - sep).abs());
        if (along - sep).abs() > EPS {
            errors.push(format!("separation along the returned axis is {along:e}"));
        }
        if r.core.overlap {
            n_core_overlap += 1;
            worst_exact = worst_exact.max((sep - r.sd).abs());
            if (sep - r.sd).abs() > EPS {
                errors.push(format!("overlapping cores: separation must be -depth = {:e}", r.sd));
            }
        } else {
            n_apart += 1;
            worst_bound_excess = worst_bound_excess.max(sep - r.sd);
            if sep > r.sd + EPS {
                errors.push(format!("separation exceeds the distance {:e}", r.sd));
            }
        }
        if !errors.is_empty() {
            let e = format!(
                "{errors:?}: {q:?}\nlet a = {a:?};\nlet xf_a = {};\nlet b = {b:?};\nlet xf_b = {};",
                xf_src(&xa),
                xf_src(&xb)
            );
            if failures.is_empty() {
                println!("first failure: {e}");
            }
            failures.push(e);
        }
    }
    println!(
        "polygon_sat: {n_core_overlap} overlapping cores (worst |separation + depth| {worst_exact:e}), {n_apart} apart (worst separation - distance {worst_bound_excess:e}), worst axis consistency {worst_axis:e}"
    );
    assert!(n_core_overlap > 5000 && n_apart > 5000);
    assert!(failures.is_empty(), "{} failures; first:\n{}", failures.len(), failures[0]);
}

#[test]
fn polygon_sat_hand_cases() {
    let a = make_box(1.0, 1.0).unwrap();
    let id = Transform::IDENTITY;
    let q = polygon_sat(&a, id, &a, Transform::new(Vec2::new(0.2, 1.9), 0.0));
    assert!((q.separation + 0.1).abs() < 1e-6 && (q.normal - Vec2::Y).length() < 1e-6, "{q:?}");
    let q = polygon_sat(&a, id, &a, Transform::new(Vec2::new(3.0, 0.0), 0.0));
    assert!((q.separation - 1.0).abs() < 1e-6 && (q.normal - Vec2::X).length() < 1e-6, "{q:?}");
    // Corner to corner: the SAT separation is a lower bound (1), the distance is √2.
    let q = polygon_sat(&a, id, &a, Transform::new(Vec2::new(3.0, 3.0), 0.0));
    assert!((q.separation - 1.0).abs() < 1e-6, "{q:?}");
    // Rounded: radii subtract.
    let r = make_rounded_box(1.0, 1.0, 0.1).unwrap();
    let q = polygon_sat(&r, id, &r, Transform::new(Vec2::new(0.0, 2.1), 0.0));
    assert!((q.separation + 0.1).abs() < 1e-6, "{q:?}");
}

/// Minimal cases found by the random test: EPA misses or underestimates the overlap of a
/// small box (or a segment) around a corner of a big box. Reference answers by hand:
/// * a 0.2 m box centered on the corner (-1, -1) of a 2 m box, turned 1 rad: the
///   least push is 0.1 m along one of the small box's own face normals;
/// * a 0.2 m box at (-0.9, -0.9) turned 1 rad: 0.238 m;
/// * a segment (-0.72, -0.9)–(-0.3716466, -0.54132193) inside the 2 m box: out through
///   the bottom face, 1 - 0.54132193 = 0.45867807 m.
#[test]
fn penetration_near_a_box_corner() {
    let big = proxy(&rect_points(1.0, 1.0), 0.0);
    let small = proxy(&rect_points(0.1, 0.1), 0.0);
    let id = Transform::IDENTITY;
    let mut st = Stats::default();
    let mut failures = vec![];
    let segment = proxy(&[Vec2::new(-0.72, -0.9), Vec2::new(-0.3716466, -0.54132193)], 0.0);
    let cases = [
        ("small box on the corner", small, Transform::new(Vec2::new(-1.0, -1.0), 1.0), 0.1),
        ("small box near the corner", small, Transform::new(Vec2::new(-0.9, -0.9), 1.0), 0.238177),
        ("segment inside", segment, id, 0.458678),
    ];
    for (name, pb, xb, depth) in cases {
        let p = penetration(&DistanceInput { proxy_a: &big, transform_a: id, proxy_b: &pb, transform_b: xb });
        println!("{name}: {p:?}, expected depth {depth}");
        if let Err(e) = check_penetration(&big, id, &pb, xb, &mut st) {
            failures.push(format!("{name}: {e}"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
