//! An f64 geometry kit written from scratch, independent of the library's algorithms: no GJK,
//! no EPA, no separation functions, no root finder. Everything is brute-force enumeration.
//!
//! * Convex hull of a point set (Andrew's monotone chain), CCW, collinear points dropped.
//! * Core distance between two convex hulls: the cores overlap iff one holds a vertex of the
//!   other or two edges meet; otherwise the distance is the least segment–segment distance
//!   over all edge pairs (1-point cores are a zero-length edge, 2-point cores one edge).
//! * Penetration depth of overlapping cores: the least projection overlap
//!   `max_a m·a − min_b m·b` over ± every edge normal of both hulls (a segment core gives
//!   ± its perpendicular). The edges of the Minkowski difference are parallel to edges of
//!   the operands, so this is exact; extra directions could never make it smaller.
//! * Signed surface distance sd = (core distance or −core depth) − (ra + rb).
//! * Poses from sweeps in f64; a time of impact reference by conservative advancement with
//!   the Lipschitz bound |sd'| ≤ |Δc_b − Δc_a| + |Δa_a| r_a + |Δa_b| r_b (rigorous: it
//!   can never step over a dip below its threshold); the minimum of sd by sampling and
//!   golden-section refinement; the same for pure translation (shape casts).

#![allow(dead_code)]

use impact2d::{ShapeProxy, Sweep, Transform, Vec2};
use std::ops::{Add, Mul, Neg, Sub};

/// A 2D vector in f64.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct D2 {
    pub x: f64,
    pub y: f64,
}

pub const fn d2(x: f64, y: f64) -> D2 {
    D2 { x, y }
}

impl D2 {
    pub fn from_f32(v: Vec2) -> D2 {
        D2 { x: v.x as f64, y: v.y as f64 }
    }
    pub fn to_f32(self) -> Vec2 {
        Vec2::new(self.x as f32, self.y as f32)
    }
    pub fn dot(self, o: D2) -> f64 {
        self.x * o.x + self.y * o.y
    }
    /// z of the 3D cross product.
    pub fn cross(self, o: D2) -> f64 {
        self.x * o.y - self.y * o.x
    }
    pub fn len2(self) -> f64 {
        self.dot(self)
    }
    pub fn len(self) -> f64 {
        self.len2().sqrt()
    }
    /// Rotated +90°.
    pub fn perp(self) -> D2 {
        D2 { x: -self.y, y: self.x }
    }
    pub fn normalized(self) -> D2 {
        let l = self.len();
        if l > 0.0 { self * (1.0 / l) } else { D2::default() }
    }
    pub fn dist(self, o: D2) -> f64 {
        (self - o).len()
    }
    pub fn rotate(self, c: f64, s: f64) -> D2 {
        D2 { x: c * self.x - s * self.y, y: s * self.x + c * self.y }
    }
}

impl Add for D2 {
    type Output = D2;
    fn add(self, o: D2) -> D2 {
        D2 { x: self.x + o.x, y: self.y + o.y }
    }
}
impl Sub for D2 {
    type Output = D2;
    fn sub(self, o: D2) -> D2 {
        D2 { x: self.x - o.x, y: self.y - o.y }
    }
}
impl Mul<f64> for D2 {
    type Output = D2;
    fn mul(self, k: f64) -> D2 {
        D2 { x: self.x * k, y: self.y * k }
    }
}
impl Mul<D2> for f64 {
    type Output = D2;
    fn mul(self, v: D2) -> D2 {
        v * self
    }
}
impl Neg for D2 {
    type Output = D2;
    fn neg(self) -> D2 {
        D2 { x: -self.x, y: -self.y }
    }
}

// ---------------------------------------------------------------------------------------
// Convex hull
// ---------------------------------------------------------------------------------------

/// The convex hull of `points`, counter-clockwise, without duplicate or collinear points:
/// 1 point (all coincident), 2 points (all collinear: the extremes) or a proper polygon.
pub fn convex_hull(points: &[D2]) -> Vec<D2> {
    let mut p: Vec<D2> = points.to_vec();
    p.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    p.dedup();
    if p.len() <= 1 {
        return p;
    }
    let turn = |o: D2, a: D2, b: D2| (a - o).cross(b - o);
    let mut lower: Vec<D2> = Vec::new();
    for &q in &p {
        while lower.len() >= 2 && turn(lower[lower.len() - 2], lower[lower.len() - 1], q) <= 0.0 {
            lower.pop();
        }
        lower.push(q);
    }
    let mut upper: Vec<D2> = Vec::new();
    for &q in p.iter().rev() {
        while upper.len() >= 2 && turn(upper[upper.len() - 2], upper[upper.len() - 1], q) <= 0.0 {
            upper.pop();
        }
        upper.push(q);
    }
    lower.pop();
    upper.pop();
    lower.extend(upper);
    // All collinear: monotone chain gives [first, last] (2 points).
    lower
}

// ---------------------------------------------------------------------------------------
// Shapes and poses
// ---------------------------------------------------------------------------------------

/// A convex core (hull, local coordinates, CCW) inflated by a radius.
#[derive(Clone, Debug)]
pub struct RefShape {
    pub hull: Vec<D2>,
    pub radius: f64,
}

impl RefShape {
    pub fn new(points: &[D2], radius: f64) -> RefShape {
        RefShape { hull: convex_hull(points), radius }
    }

    /// The reference shape of a proxy: the hull of its points (widened exactly to f64).
    pub fn from_proxy(p: &ShapeProxy) -> RefShape {
        let pts: Vec<D2> = p.points().iter().map(|&v| D2::from_f32(v)).collect();
        RefShape::new(&pts, p.radius() as f64)
    }

    /// Greatest distance of a core point from `c` (meters).
    pub fn max_dist_from(&self, c: D2) -> f64 {
        self.hull.iter().map(|p| p.dist(c)).fold(0.0, f64::max)
    }

    /// Smallest width of the shape over all directions: core width + 2 radius.
    pub fn thickness(&self) -> f64 {
        let h = &self.hull;
        let core = if h.len() < 3 {
            0.0
        } else {
            let mut best = f64::INFINITY;
            for i in 0..h.len() {
                let (a, b) = (h[i], h[(i + 1) % h.len()]);
                let n = (b - a).perp().normalized();
                let w = h.iter().map(|&p| (p - a).dot(n).abs()).fold(0.0, f64::max);
                best = best.min(w);
            }
            best
        };
        core + 2.0 * self.radius
    }

    /// The hull placed by `pose` (world).
    pub fn placed(&self, pose: &Pose) -> Placed {
        let mut out = Placed { v: [D2::default(); 8], n: self.hull.len() };
        for (o, &p) in out.v.iter_mut().zip(&self.hull) {
            *o = pose.apply(p);
        }
        out
    }
}

/// A rigid pose in f64: rotate by (c, s), then translate by p.
#[derive(Clone, Copy, Debug)]
pub struct Pose {
    pub p: D2,
    pub c: f64,
    pub s: f64,
}

impl Pose {
    pub fn new(p: D2, angle: f64) -> Pose {
        Pose { p, c: angle.cos(), s: angle.sin() }
    }
    pub fn apply(&self, v: D2) -> D2 {
        v.rotate(self.c, self.s) + self.p
    }
    /// The f32 transform the library gets for this pose (cos and sin rounded from f64).
    pub fn to_f32(self) -> Transform {
        Transform { p: self.p.to_f32(), q: impact2d::Rot { c: self.c as f32, s: self.s as f32 } }
    }
    /// The pose of a library transform, widened exactly.
    pub fn from_f32(xf: Transform) -> Pose {
        Pose { p: D2::from_f32(xf.p), c: xf.q.c as f64, s: xf.q.s as f64 }
    }
}

/// A sweep in f64 with the library's semantics: a local point p sits at
/// c(t) + R(a(t)) (p − local_center).
#[derive(Clone, Copy, Debug)]
pub struct RefSweep {
    pub lc: D2,
    pub c1: D2,
    pub c2: D2,
    pub a1: f64,
    pub a2: f64,
}

impl RefSweep {
    pub fn from_f32(s: &Sweep) -> RefSweep {
        RefSweep {
            lc: D2::from_f32(s.local_center),
            c1: D2::from_f32(s.c1),
            c2: D2::from_f32(s.c2),
            a1: s.a1 as f64,
            a2: s.a2 as f64,
        }
    }
    pub fn to_f32(self) -> Sweep {
        Sweep {
            local_center: self.lc.to_f32(),
            c1: self.c1.to_f32(),
            c2: self.c2.to_f32(),
            a1: self.a1 as f32,
            a2: self.a2 as f32,
        }
    }
    /// The same motion with positions relative to `origin` (f64).
    pub fn rebased(&self, origin: D2) -> RefSweep {
        RefSweep { c1: self.c1 - origin, c2: self.c2 - origin, ..*self }
    }
    pub fn fixed(p: D2, angle: f64) -> RefSweep {
        RefSweep { lc: D2::default(), c1: p, c2: p, a1: angle, a2: angle }
    }
    pub fn pose_at(&self, t: f64) -> Pose {
        let c = self.c1 + (self.c2 - self.c1) * t;
        let a = self.a1 + t * (self.a2 - self.a1);
        let (s, co) = a.sin_cos();
        Pose { p: c - self.lc.rotate(co, s), c: co, s }
    }
}

/// A hull placed in the world (at most 8 points, CCW).
#[derive(Clone, Copy, Debug)]
pub struct Placed {
    pub v: [D2; 8],
    pub n: usize,
}

impl Placed {
    pub fn pts(&self) -> &[D2] {
        &self.v[..self.n]
    }
    /// The edges: n for a polygon, one for a segment, one zero-length for a point.
    fn edge(&self, i: usize) -> (D2, D2) {
        match self.n {
            1 => (self.v[0], self.v[0]),
            2 => (self.v[0], self.v[1]),
            n => (self.v[i], self.v[(i + 1) % n]),
        }
    }
    fn edge_count(&self) -> usize {
        if self.n <= 2 { 1 } else { self.n }
    }
    /// True when `p` is inside or on the boundary of this polygon (n ≥ 3).
    fn holds(&self, p: D2) -> bool {
        self.n >= 3 && (0..self.n).all(|i| (self.v[(i + 1) % self.n] - self.v[i]).cross(p - self.v[i]) >= 0.0)
    }
}

// ---------------------------------------------------------------------------------------
// Distances
// ---------------------------------------------------------------------------------------

/// The point of segment a–b closest to p.
pub fn closest_on_segment(a: D2, b: D2, p: D2) -> D2 {
    let e = b - a;
    let l2 = e.len2();
    if l2 == 0.0 {
        return a;
    }
    let t = ((p - a).dot(e) / l2).clamp(0.0, 1.0);
    a + e * t
}

/// Distance between segments p1–q1 and p2–q2 and a closest pair (on 1, on 2).
pub fn segment_segment(p1: D2, q1: D2, p2: D2, q2: D2) -> (f64, D2, D2) {
    let (d1, d2) = (q1 - p1, q2 - p2);
    let (o1, o2) = (d1.cross(p2 - p1), d1.cross(q2 - p1));
    let (o3, o4) = (d2.cross(p1 - p2), d2.cross(q1 - p2));
    if ((o1 > 0.0 && o2 < 0.0) || (o1 < 0.0 && o2 > 0.0)) && ((o3 > 0.0 && o4 < 0.0) || (o3 < 0.0 && o4 > 0.0)) {
        let f = o3 / (o3 - o4);
        let x = p1 + d1 * f;
        return (0.0, x, x);
    }
    let cands = [
        (p1, closest_on_segment(p2, q2, p1)),
        (q1, closest_on_segment(p2, q2, q1)),
        (closest_on_segment(p1, q1, p2), p2),
        (closest_on_segment(p1, q1, q2), q2),
    ];
    let mut best = (f64::INFINITY, p1, p2);
    for (a, b) in cands {
        let d = a.dist(b);
        if d < best.0 {
            best = (d, a, b);
        }
    }
    best
}

/// The distance from point `p` to the (solid) core `h`: 0 inside.
pub fn point_core_distance(h: &Placed, p: D2) -> f64 {
    if h.holds(p) {
        return 0.0;
    }
    (0..h.edge_count())
        .map(|i| {
            let (a, b) = h.edge(i);
            closest_on_segment(a, b, p).dist(p)
        })
        .fold(f64::INFINITY, f64::min)
}

/// Signed distance of two placed cores: distance when apart, minus the penetration depth
/// when they overlap.
#[derive(Clone, Copy, Debug)]
pub struct CoreSd {
    /// Core distance (> 0) or minus core depth (≤ 0).
    pub sd: f64,
    /// Unit, from A to B: the closest-points direction, or the least-overlap axis.
    pub normal: D2,
    /// Closest points on the cores when apart (undefined when overlapping).
    pub pa: D2,
    pub pb: D2,
    /// True when the cores overlap (or touch exactly).
    pub overlap: bool,
}

pub fn core_sd(a: &Placed, b: &Placed) -> CoreSd {
    // Containment: one core holds a vertex of the other.
    let contained = b.pts().iter().any(|&p| a.holds(p)) || a.pts().iter().any(|&p| b.holds(p));
    let mut best = (f64::INFINITY, D2::default(), D2::default());
    if !contained {
        for i in 0..a.edge_count() {
            let (p1, q1) = a.edge(i);
            for j in 0..b.edge_count() {
                let (p2, q2) = b.edge(j);
                let r = segment_segment(p1, q1, p2, q2);
                if r.0 < best.0 {
                    best = r;
                }
            }
        }
        if best.0 > 0.0 {
            return CoreSd {
                sd: best.0,
                normal: (best.2 - best.1).normalized(),
                pa: best.1,
                pb: best.2,
                overlap: false,
            };
        }
    }
    let (depth, m) = core_depth(a, b);
    CoreSd { sd: -depth, normal: m, pa: best.1, pb: best.2, overlap: true }
}

/// Penetration depth of overlapping cores: the least `max_a m·a − min_b m·b` over ± the edge
/// normals of both cores. Returns (depth, m) with m from A to B (B leaves along +m).
pub fn core_depth(a: &Placed, b: &Placed) -> (f64, D2) {
    let mut best = (f64::INFINITY, d2(1.0, 0.0));
    let mut any = false;
    for h in [a, b] {
        if h.n < 2 {
            continue;
        }
        for i in 0..h.edge_count() {
            let (p, q) = h.edge(i);
            let n = (q - p).perp().normalized();
            if n == D2::default() {
                continue;
            }
            for m in [n, -n] {
                any = true;
                let ha = a.pts().iter().map(|&p| p.dot(m)).fold(f64::NEG_INFINITY, f64::max);
                let lb = b.pts().iter().map(|&p| p.dot(m)).fold(f64::INFINITY, f64::min);
                let depth = ha - lb;
                if depth < best.0 {
                    best = (depth, m);
                }
            }
        }
    }
    if !any {
        // Two coincident points: no area, no depth.
        return (0.0, d2(1.0, 0.0));
    }
    (best.0.max(0.0), best.1)
}

/// The projection overlap of the cores along unit `m` (A to B): how far B must move along m
/// to separate the cores (negative when already apart along m).
pub fn core_overlap_along(a: &Placed, b: &Placed, m: D2) -> f64 {
    let ha = a.pts().iter().map(|&p| p.dot(m)).fold(f64::NEG_INFINITY, f64::max);
    let lb = b.pts().iter().map(|&p| p.dot(m)).fold(f64::INFINITY, f64::min);
    ha - lb
}

/// Signed surface distance of two placed shapes.
#[derive(Clone, Copy, Debug)]
pub struct Sd {
    /// Surface gap (> 0 apart, < 0 overlapping: minus the depth).
    pub sd: f64,
    /// Unit, A to B.
    pub normal: D2,
    pub core: CoreSd,
    /// Closest surface points when apart.
    pub point_a: D2,
    pub point_b: D2,
}

pub fn signed_distance(sa: &RefShape, pa: &Pose, sb: &RefShape, pb: &Pose) -> Sd {
    let (a, b) = (sa.placed(pa), sb.placed(pb));
    sd_placed(&a, sa.radius, &b, sb.radius)
}

pub fn sd_placed(a: &Placed, ra: f64, b: &Placed, rb: f64) -> Sd {
    let core = core_sd(a, b);
    let n = core.normal;
    Sd { sd: core.sd - ra - rb, normal: n, core, point_a: core.pa + n * ra, point_b: core.pb - n * rb }
}

// ---------------------------------------------------------------------------------------
// Time of impact reference
// ---------------------------------------------------------------------------------------

/// A moving pair.
#[derive(Clone, Debug)]
pub struct Motion {
    pub a: RefShape,
    pub sa: RefSweep,
    pub b: RefShape,
    pub sb: RefSweep,
}

impl Motion {
    pub fn sd_at(&self, t: f64) -> f64 {
        self.sd_full(t).sd
    }
    pub fn sd_full(&self, t: f64) -> Sd {
        signed_distance(&self.a, &self.sa.pose_at(t), &self.b, &self.sb.pose_at(t))
    }
    /// |sd'(t)| ≤ this, for all t (per unit of normalized time).
    pub fn lipschitz(&self) -> f64 {
        let dca = self.sa.c2 - self.sa.c1;
        let dcb = self.sb.c2 - self.sb.c1;
        (dcb - dca).len()
            + (self.sa.a2 - self.sa.a1).abs() * self.a.max_dist_from(self.sa.lc)
            + (self.sb.a2 - self.sb.a1).abs() * self.b.max_dist_from(self.sb.lc)
    }
    /// The first time in [0, t_end] at which sd ≤ threshold (+ eta), rigorously.
    pub fn first_below(&self, threshold: f64, t_end: f64) -> Crossing {
        first_below(|t| self.sd_at(t), self.lipschitz(), threshold, t_end)
    }
    /// The (approximate) minimum of sd over [0, t_end].
    pub fn min_sd(&self, t_end: f64) -> (f64, f64) {
        min_sampled(|t| self.sd_at(t), t_end, 400)
    }
}

/// Result of the conservative-advancement search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Crossing {
    /// The first time at which sd ≤ threshold + ETA; sd > threshold before it. None when
    /// sd > threshold over the whole interval.
    pub t: Option<f64>,
    pub steps: u32,
    /// The step cap was hit: the answer is unknown past `t_reached`.
    pub capped: bool,
    pub t_reached: f64,
}

/// How close to the threshold the search must come to call it a crossing (meters).
pub const ETA: f64 = 1.0e-8;
/// Step cap of the search.
pub const MAX_STEPS: u32 = 2_000_000;

/// Conservative advancement in f64 with a Lipschitz bound: never steps over a crossing.
pub fn first_below(f: impl Fn(f64) -> f64, lipschitz: f64, threshold: f64, t_end: f64) -> Crossing {
    first_below_within(f, lipschitz, threshold, t_end, MAX_STEPS)
}

/// [`first_below`] with its own step cap (the fuzzer's cases must stay cheap).
pub fn first_below_within(
    f: impl Fn(f64) -> f64,
    lipschitz: f64,
    threshold: f64,
    t_end: f64,
    max_steps: u32,
) -> Crossing {
    let mut t = 0.0;
    let mut steps = 0;
    loop {
        let s = f(t);
        if s <= threshold + ETA {
            return Crossing { t: Some(t), steps, capped: false, t_reached: t };
        }
        if lipschitz <= 0.0 {
            return Crossing { t: None, steps, capped: false, t_reached: t_end };
        }
        t += (s - threshold) / lipschitz;
        if t > t_end {
            return Crossing { t: None, steps, capped: false, t_reached: t_end };
        }
        steps += 1;
        if steps >= max_steps {
            return Crossing { t: None, steps, capped: true, t_reached: t };
        }
    }
}

/// The minimum of f over [0, t_end]: dense sampling, then golden-section search around the
/// best few samples. Returns (min value, argmin).
pub fn min_sampled(f: impl Fn(f64) -> f64, t_end: f64, samples: usize) -> (f64, f64) {
    let h = t_end / samples as f64;
    let vals: Vec<(f64, f64)> = (0..=samples).map(|i| (f(i as f64 * h), i as f64 * h)).collect();
    let mut order: Vec<usize> = (0..vals.len()).collect();
    order.sort_by(|&i, &j| vals[i].0.total_cmp(&vals[j].0));
    let mut best = vals[order[0]];
    for &i in order.iter().take(4) {
        let (mut lo, mut hi) = (((i as f64) - 1.0) * h, ((i as f64) + 1.0) * h);
        lo = lo.max(0.0);
        hi = hi.min(t_end);
        let g = 0.5 * (5f64.sqrt() - 1.0);
        let (mut x1, mut x2) = (hi - g * (hi - lo), lo + g * (hi - lo));
        let (mut f1, mut f2) = (f(x1), f(x2));
        for _ in 0..60 {
            if f1 < f2 {
                hi = x2;
                x2 = x1;
                f2 = f1;
                x1 = hi - g * (hi - lo);
                f1 = f(x1);
            } else {
                lo = x1;
                x1 = x2;
                f1 = f2;
                x2 = lo + g * (hi - lo);
                f2 = f(x2);
            }
        }
        for (v, x) in [(f1, x1), (f2, x2)] {
            if v < best.0 {
                best = (v, x);
            }
        }
    }
    best
}

/// A shape cast in f64: B at `pose_b` translated by `f * translation`.
#[derive(Clone, Debug)]
pub struct Cast {
    pub a: RefShape,
    pub pose_a: Pose,
    pub b: RefShape,
    pub pose_b: Pose,
    pub translation: D2,
}

impl Cast {
    pub fn sd_at(&self, f: f64) -> f64 {
        let pb = Pose { p: self.pose_b.p + self.translation * f, ..self.pose_b };
        signed_distance(&self.a, &self.pose_a, &self.b, &pb).sd
    }
    pub fn first_below(&self, threshold: f64, f_end: f64) -> Crossing {
        first_below(|f| self.sd_at(f), self.translation.len(), threshold, f_end)
    }
    pub fn min_sd(&self, f_end: f64) -> (f64, f64) {
        min_sampled(|f| self.sd_at(f), f_end, 200)
    }
}

/// Smallest t ≥ 0 with |p0 + t v| = contact (two translating circles), exact in f64; None
/// when it never happens for t ≥ 0 (or the start is already within contact).
pub fn circle_root(p0: D2, v: D2, contact: f64) -> Option<f64> {
    let a = v.len2();
    let hb = p0.dot(v);
    let c = p0.len2() - contact * contact;
    if c <= 0.0 {
        return Some(0.0);
    }
    if a == 0.0 || hb >= 0.0 {
        return None;
    }
    let disc = hb * hb - a * c;
    if disc < 0.0 {
        return None;
    }
    Some(c / (-hb + disc.sqrt()))
}
