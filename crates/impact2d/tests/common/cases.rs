//! Seeded random shapes, poses and motions, and reproducible printing of cases.

#![allow(dead_code)]

use super::reference::*;
use impact2d::settings::{TOI_TARGET, TOI_TOLERANCE};
use impact2d::{ShapeProxy, Sweep, Transform, Vec2};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::f64::consts::PI;

pub type Rng = ChaCha8Rng;

pub fn rng(seed: u64) -> Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

pub fn uni(rng: &mut Rng, lo: f64, hi: f64) -> f64 {
    lo + (hi - lo) * rng.random::<f64>()
}

pub fn sign(rng: &mut Rng) -> f64 {
    if rng.random_bool(0.5) { 1.0 } else { -1.0 }
}

pub fn unit_dir(rng: &mut Rng) -> D2 {
    let a = uni(rng, -PI, PI);
    d2(a.cos(), a.sin())
}

pub fn to_f32(points: &[D2]) -> Vec<Vec2> {
    points.iter().map(|p| p.to_f32()).collect()
}

/// Counter-clockwise convex polygon points (3 to 8 after the hull), about `center`, of
/// size ~ `size` (meters).
pub fn random_convex(rng: &mut Rng, n: usize, size: f64, center: D2) -> Vec<Vec2> {
    loop {
        let aspect = uni(rng, 0.25, 1.0);
        let turn = uni(rng, -PI, PI);
        let pts: Vec<D2> = (0..n)
            .map(|_| {
                let a = uni(rng, -PI, PI);
                let r = size * uni(rng, 0.5, 1.0);
                center + d2(r * a.cos(), aspect * r * a.sin()).rotate(turn.cos(), turn.sin())
            })
            .collect();
        let f: Vec<Vec2> = to_f32(&convex_hull(&pts));
        let back: Vec<D2> = f.iter().map(|&v| D2::from_f32(v)).collect();
        // Keep only sets that stay strictly convex in f32 with every point a hull vertex.
        if f.len() >= 3 && convex_hull(&back).len() == f.len() {
            return f;
        }
    }
}

pub fn rect_points(hw: f64, hh: f64) -> Vec<Vec2> {
    to_f32(&[d2(-hw, -hh), d2(hw, -hh), d2(hw, hh), d2(-hw, hh)])
}

pub fn proxy(points: &[Vec2], radius: f64) -> ShapeProxy {
    ShapeProxy::new(points, radius as f32).expect("valid proxy")
}

/// A random shape of size ~ `size`: polygon (3–8), box, capsule, circle, segment or rounded
/// polygon, in local coordinates near the origin.
pub fn random_shape(rng: &mut Rng, size: f64) -> (ShapeProxy, &'static str) {
    let c = d2(uni(rng, -0.2, 0.2), uni(rng, -0.2, 0.2)) * size;
    match rng.random_range(0..6u32) {
        0 => {
            let n = rng.random_range(3..=8usize);
            (proxy(&random_convex(rng, n, size, c), 0.0), "polygon")
        }
        1 => {
            let (hw, hh) = (size * uni(rng, 0.1, 1.0), size * uni(rng, 0.1, 1.0));
            let pts: Vec<Vec2> = rect_points(hw, hh).iter().map(|&p| p + c.to_f32()).collect();
            (proxy(&pts, 0.0), "box")
        }
        2 => {
            let d = unit_dir(rng) * (size * uni(rng, 0.2, 1.0));
            (proxy(&to_f32(&[c - d, c + d]), size * uni(rng, 0.05, 0.5)), "capsule")
        }
        3 => (proxy(&to_f32(&[c]), size * uni(rng, 0.1, 1.0)), "circle"),
        4 => {
            let d = unit_dir(rng) * (size * uni(rng, 0.2, 1.0));
            (proxy(&to_f32(&[c - d, c + d]), 0.0), "segment")
        }
        _ => {
            let n = rng.random_range(3..=8usize);
            (proxy(&random_convex(rng, n, size, c), size * uni(rng, 0.01, 0.3)), "rounded")
        }
    }
}

/// A pose in f64 whose f32 transform the library gets; the reference pose is the f32
/// transform widened (so both see the same query).
pub fn pose_pair(p: D2, angle: f64) -> (Transform, Pose) {
    let xf = Pose::new(p, angle).to_f32();
    (xf, Pose::from_f32(xf))
}

/// The center of a proxy's points (f64), for a plausible center of rotation.
pub fn mean_point(p: &ShapeProxy) -> D2 {
    let n = p.count() as f64;
    p.points().iter().fold(D2::default(), |s, &v| s + D2::from_f32(v)) * (1.0 / n)
}

// ---------------------------------------------------------------------------------------
// Time of impact cases
// ---------------------------------------------------------------------------------------

/// A time of impact query as the library gets it and the f64 motion the reference checks.
#[derive(Clone, Debug)]
pub struct ToiCase {
    pub proxy_a: ShapeProxy,
    pub sweep_a: Sweep,
    pub proxy_b: ShapeProxy,
    pub sweep_b: Sweep,
    pub t_max: f32,
    /// The target gap and tolerance of the query (meters).
    pub target: f32,
    pub tolerance: f32,
    /// World position (f64) of the library query's origin: the library's answers (points)
    /// are in the rebased frame; add this to compare with `motion` (zero unless `far`).
    pub origin: D2,
    pub motion: Motion,
}

impl ToiCase {
    /// Sweeps rounded to f32; the reference checks exactly the f32 query.
    pub fn direct(proxy_a: ShapeProxy, sa: RefSweep, proxy_b: ShapeProxy, sb: RefSweep) -> ToiCase {
        let (sweep_a, sweep_b) = (sa.to_f32(), sb.to_f32());
        let motion = Motion {
            a: RefShape::from_proxy(&proxy_a),
            sa: RefSweep::from_f32(&sweep_a),
            b: RefShape::from_proxy(&proxy_b),
            sb: RefSweep::from_f32(&sweep_b),
        };
        let origin = D2::default();
        ToiCase {
            proxy_a,
            sweep_a,
            proxy_b,
            sweep_b,
            t_max: 1.0,
            target: TOI_TARGET,
            tolerance: TOI_TOLERANCE,
            origin,
            motion,
        }
    }

    /// The case moved by `offset` in f64, then rebased on A's c1 in f64 and rounded to f32
    /// (how the world calls the query); the reference checks the f64 world motion.
    pub fn far(proxy_a: ShapeProxy, sa: RefSweep, proxy_b: ShapeProxy, sb: RefSweep, offset: D2) -> ToiCase {
        let shift = |s: RefSweep| RefSweep { c1: s.c1 + offset, c2: s.c2 + offset, ..s };
        let (wa, wb) = (shift(sa), shift(sb));
        let origin = wa.c1;
        let (sweep_a, sweep_b) = (wa.rebased(origin).to_f32(), wb.rebased(origin).to_f32());
        let motion = Motion { a: RefShape::from_proxy(&proxy_a), sa: wa, b: RefShape::from_proxy(&proxy_b), sb: wb };
        ToiCase {
            proxy_a,
            sweep_a,
            proxy_b,
            sweep_b,
            t_max: 1.0,
            target: TOI_TARGET,
            tolerance: TOI_TOLERANCE,
            origin,
            motion,
        }
    }

    /// The least thickness of the two shapes (meters).
    pub fn thickness(&self) -> f64 {
        self.motion.a.thickness().min(self.motion.b.thickness())
    }

    /// Rust source that rebuilds the library query exactly.
    pub fn repro(&self) -> String {
        format!(
            "let proxy_a = {};\nlet sweep_a = {};\nlet proxy_b = {};\nlet sweep_b = {};\n// t_max = {}, target = {}, tolerance = {}",
            proxy_src(&self.proxy_a),
            sweep_src(&self.sweep_a),
            proxy_src(&self.proxy_b),
            sweep_src(&self.sweep_b),
            fsrc(self.t_max),
            fsrc(self.target),
            fsrc(self.tolerance)
        )
    }
}

/// An f32 as exact source: bits plus the shortest decimal that round-trips.
pub fn fsrc(x: f32) -> String {
    format!("f32::from_bits({:#010x}) /*{:?}*/", x.to_bits(), x)
}

pub fn vsrc(v: Vec2) -> String {
    format!("Vec2::new({}, {})", fsrc(v.x), fsrc(v.y))
}

pub fn proxy_src(p: &ShapeProxy) -> String {
    let pts: Vec<String> = p.points().iter().map(|&v| vsrc(v)).collect();
    format!("ShapeProxy::new(&[{}], {}).unwrap()", pts.join(", "), fsrc(p.radius()))
}

pub fn sweep_src(s: &Sweep) -> String {
    format!(
        "Sweep {{ local_center: {}, c1: {}, c2: {}, a1: {}, a2: {} }}",
        vsrc(s.local_center),
        vsrc(s.c1),
        vsrc(s.c2),
        fsrc(s.a1),
        fsrc(s.a2)
    )
}

pub fn xf_src(x: &Transform) -> String {
    format!("Transform {{ p: {}, q: Rot {{ c: {}, s: {} }} }}", vsrc(x.p), fsrc(x.q.c), fsrc(x.q.s))
}

// ---------------------------------------------------------------------------------------
// The TOI families (in local coordinates near the origin; family (v) moves them far away)
// ---------------------------------------------------------------------------------------

/// (proxy_a, sweep_a, proxy_b, sweep_b) in f64.
pub type Raw = (ShapeProxy, RefSweep, ShapeProxy, RefSweep);

/// Family (i): random convex shapes, translating and rotating up to ±3 rad per step.
pub fn family_random(rng: &mut Rng) -> Raw {
    let size = uni(rng, 0.1, 1.0);
    let (pa, _) = random_shape(rng, size);
    let size = uni(rng, 0.1, 1.0);
    let (pb, _) = random_shape(rng, size);
    let ca = d2(uni(rng, -0.5, 0.5), uni(rng, -0.5, 0.5));
    let da = unit_dir(rng) * uni(rng, 0.0, 1.0);
    let aa = uni(rng, -PI, PI);
    let sa = RefSweep {
        lc: mean_point(&pa) + unit_dir(rng) * uni(rng, 0.0, 0.1),
        c1: ca,
        c2: ca + da,
        a1: aa,
        a2: aa + uni(rng, -3.0, 3.0),
    };
    let start = ca + unit_dir(rng) * uni(rng, 0.5, 4.0);
    let aim = ca + da * uni(rng, 0.0, 1.0) + unit_dir(rng) * uni(rng, 0.0, 1.5);
    let db = (aim - start) * uni(rng, 0.3, 2.0);
    let ab = uni(rng, -PI, PI);
    let sb = RefSweep {
        lc: mean_point(&pb) + unit_dir(rng) * uni(rng, 0.0, 0.1),
        c1: start,
        c2: start + db,
        a1: ab,
        a2: ab + uni(rng, -3.0, 3.0),
    };
    (pa, sa, pb, sb)
}

/// Family (ii): a thin rod (1–3 m long, 1–3 cm thick) spinning 1–3 rad per step near a box,
/// not overlapping it at t = 0 (placements that do are drawn again, up to 50 times).
pub fn family_rod(rng: &mut Rng) -> Raw {
    for _ in 0..50 {
        let raw = rod_once(rng);
        let (pa, sa, pb, sb) = &raw;
        let m = Motion { a: RefShape::from_proxy(pa), sa: *sa, b: RefShape::from_proxy(pb), sb: *sb };
        if m.sd_at(0.0) > 0.0 {
            return raw;
        }
    }
    rod_once(rng)
}

fn rod_once(rng: &mut Rng) -> Raw {
    let (hl, ht) = (uni(rng, 0.5, 1.5), uni(rng, 0.005, 0.015));
    let rod = proxy(&rect_points(hl, ht), 0.0);
    let (bw, bh) = (uni(rng, 0.2, 1.0), uni(rng, 0.2, 1.0));
    let block = proxy(&rect_points(bw, bh), 0.0);
    let box_angle = uni(rng, -PI, PI);
    let box_sweep = RefSweep::fixed(d2(0.0, 0.0), box_angle);
    // The rod's center of rotation: its middle or a point along it.
    let lc = d2(uni(rng, -0.5, 0.5) * hl * if rng.random_bool(0.5) { 1.0 } else { 0.0 }, 0.0);
    // Place the center so that the rod's reach just covers the box (or just misses).
    let reach = (bw * bw + bh * bh).sqrt() + hl + lc.x.abs();
    let c1 = unit_dir(rng) * uni(rng, 0.3 * reach, 1.1 * reach);
    let c2 = c1 + unit_dir(rng) * uni(rng, 0.0, 0.3);
    let a1 = uni(rng, -PI, PI);
    let rod_sweep = RefSweep { lc, c1, c2, a1, a2: a1 + sign(rng) * uni(rng, 1.0, 3.0) };
    if rng.random_bool(0.5) { (block, box_sweep, rod, rod_sweep) } else { (rod, rod_sweep, block, box_sweep) }
}

/// Family (iii): a bullet (circle, radius 1–5 cm, 5–40 m per step) against a wall 5 mm
/// thick at a random angle.
pub fn family_bullet(rng: &mut Rng) -> Raw {
    let hl = uni(rng, 0.5, 3.0);
    let wall = proxy(&rect_points(hl, 0.0025), 0.0);
    let theta = uni(rng, -PI, PI);
    let wall_pos = d2(uni(rng, -1.0, 1.0), uni(rng, -1.0, 1.0));
    let wall_sweep = RefSweep::fixed(wall_pos, theta);
    let (along, normal) = (d2(theta.cos(), theta.sin()), d2(-theta.sin(), theta.cos()));
    let r = uni(rng, 0.01, 0.05);
    let bullet = proxy(&to_f32(&[d2(0.0, 0.0)]), r);
    let speed = uni(rng, 5.0, 40.0);
    // Cross the wall's line at s along it (sometimes beyond its ends), at up to 85° incidence.
    let s = uni(rng, -hl - 0.2, hl + 0.2);
    let incidence = uni(rng, -1.48, 1.48);
    let side = sign(rng);
    let dir = (normal * (-side * incidence.cos())) + along * incidence.sin();
    let cross = wall_pos + along * s;
    let c1 = cross - dir * (speed * uni(rng, 0.02, 0.98));
    let spin = uni(rng, -3.0, 3.0);
    let bullet_sweep = RefSweep { lc: d2(0.0, 0.0), c1, c2: c1 + dir * speed, a1: 0.0, a2: spin };
    if rng.random_bool(0.5) {
        (wall, wall_sweep, bullet, bullet_sweep)
    } else {
        (bullet, bullet_sweep, wall, wall_sweep)
    }
}

/// Family (iv): Catto's worst case: a triangle turning about one vertex that hovers 0–3 mm
/// above the target gap band (target + tolerance) over the ground, while another vertex
/// swings down. One case in ten hovers inside the band instead (a hit at t = 0).
pub fn family_pivot(rng: &mut Rng, target: f64, tolerance: f64) -> Raw {
    let ground = proxy(&to_f32(&[d2(-5.0, -0.5), d2(5.0, -0.5), d2(5.0, 0.0), d2(-5.0, 0.0)]), 0.0);
    let ground_sweep = RefSweep::fixed(d2(0.0, 0.0), 0.0);
    // Pivot at the local origin; two more vertices above it (between 8° and 172°).
    let (a1, a2) = (uni(rng, 0.15, 3.0), uni(rng, 0.15, 3.0));
    let (l1, l2) = (uni(rng, 0.3, 1.5), uni(rng, 0.3, 1.5));
    let mut pts = vec![d2(0.0, 0.0), d2(l1 * a1.cos(), l1 * a1.sin()), d2(l2 * a2.cos(), l2 * a2.sin())];
    if (pts[1] - pts[0]).cross(pts[2] - pts[0]) < 0.0 {
        pts.swap(1, 2);
    }
    let pts32 = to_f32(&pts);
    let tri = proxy(&pts32, 0.0);
    let hover = if rng.random_bool(0.1) {
        target + uni(rng, 0.0, tolerance)
    } else {
        target + tolerance + uni(rng, 0.0, 0.003)
    };
    let x = uni(rng, -3.0, 3.0);
    let turn = sign(rng) * uni(rng, 0.3, 3.0);
    let sweep = RefSweep { lc: d2(0.0, 0.0), c1: d2(x, hover), c2: d2(x, hover), a1: 0.0, a2: turn };
    (ground, ground_sweep, tri, sweep)
}

/// The case with B's whole motion shifted along the line from A's start to B's start so
/// that the least gap over the step is about `desired` (meters): bisection on the shift,
/// the least gap estimated by sampling (a narrow dip can be missed, which only makes the
/// case deeper than asked; the checks use the rigorous reference).
pub fn graze(raw: Raw, desired: f64) -> Raw {
    let (pa, sa, pb, sb) = raw;
    let (a, b) = (RefShape::from_proxy(&pa), RefShape::from_proxy(&pb));
    let mut u = (sb.c1 - sa.c1).normalized();
    if u == D2::default() {
        u = d2(1.0, 0.0);
    }
    let reach = sa.c1.dist(sb.c1);
    let shifted = |s: f64| RefSweep { c1: sb.c1 + u * s, c2: sb.c2 + u * s, ..sb };
    let least = |s: f64| {
        let m = Motion { a: a.clone(), sa, b: b.clone(), sb: shifted(s) };
        // Cheap estimate: 64 samples, then a short local search around the best one.
        let f = |t: f64| m.sd_at(t);
        let (mut best, mut at) = (f64::INFINITY, 0.0);
        for i in 0..=64 {
            let t = i as f64 / 64.0;
            let v = f(t);
            if v < best {
                (best, at) = (v, t);
            }
        }
        let mut h = 1.0 / 64.0;
        for _ in 0..12 {
            h *= 0.5;
            for t in [at - h, at + h] {
                if (0.0..=1.0).contains(&t) {
                    let v = f(t);
                    if v < best {
                        (best, at) = (v, t);
                    }
                }
            }
        }
        best
    };
    let (mut lo, mut hi) = (-reach, 1.0);
    while least(hi) < desired {
        hi *= 2.0;
    }
    if least(lo) > desired {
        return (pa, sa, pb, sb);
    }
    for _ in 0..30 {
        let mid = 0.5 * (lo + hi);
        if least(mid) < desired { lo = mid } else { hi = mid }
    }
    (pa, sa, pb, shifted(hi))
}

/// Family (vi), beyond the brief: several turns per step (up to ±12 rad), rods and random
/// shapes; the sweep documentation allows any rotation.
pub fn family_multi_turn(rng: &mut Rng) -> Raw {
    let (pa, sa, pb, mut sb) = if rng.random_bool(0.5) { family_rod(rng) } else { family_random(rng) };
    let spin = sign(rng) * uni(rng, 3.0, 12.0);
    if rng.random_bool(0.5) {
        sb.a2 = sb.a1 + spin;
    } else {
        return (pa, RefSweep { a2: sa.a1 + spin, ..sa }, pb, sb);
    }
    (pa, sa, pb, sb)
}

/// Family (vii), beyond the brief: shapes of compound bodies, far from their body's center of
/// rotation (up to 3 m), random shapes including rounded ones with large radii.
pub fn family_off_center(rng: &mut Rng) -> Raw {
    let (pa, mut sa, pb, mut sb) = family_random(rng);
    for s in [&mut sa, &mut sb] {
        if rng.random_bool(0.7) {
            s.lc = s.lc + unit_dir(rng) * uni(rng, 0.5, 3.0);
        }
    }
    (pa, sa, pb, sb)
}
