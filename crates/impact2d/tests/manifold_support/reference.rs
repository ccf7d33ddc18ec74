//! An independent f64 reference for contact manifolds: exact signed distance of two rounded
//! convex shapes (from the convex hull of their Minkowski difference), its direction, and
//! the gap between two shapes along a line.
//!
//! A shape is a core (1 to 8 points in convex position or not) plus a radius: one point is a
//! circle, two a capsule or segment, more a rounded polygon. Nothing here uses the library.

#![allow(dead_code)]

use std::ops::{Add, Mul, Neg, Sub};

/// A 2D vector in f64.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct D2 {
    pub x: f64,
    pub y: f64,
}

pub fn d2(x: f64, y: f64) -> D2 {
    D2 { x, y }
}

impl Add for D2 {
    type Output = D2;
    fn add(self, o: D2) -> D2 {
        d2(self.x + o.x, self.y + o.y)
    }
}
impl Sub for D2 {
    type Output = D2;
    fn sub(self, o: D2) -> D2 {
        d2(self.x - o.x, self.y - o.y)
    }
}
impl Mul<f64> for D2 {
    type Output = D2;
    fn mul(self, k: f64) -> D2 {
        d2(self.x * k, self.y * k)
    }
}
impl Neg for D2 {
    type Output = D2;
    fn neg(self) -> D2 {
        d2(-self.x, -self.y)
    }
}

impl D2 {
    pub fn dot(self, o: D2) -> f64 {
        self.x * o.x + self.y * o.y
    }
    pub fn cross(self, o: D2) -> f64 {
        self.x * o.y - self.y * o.x
    }
    pub fn length(self) -> f64 {
        self.dot(self).sqrt()
    }
    pub fn dist(self, o: D2) -> f64 {
        (self - o).length()
    }
    pub fn normalized(self) -> D2 {
        self * (1.0 / self.length())
    }
    /// Right perpendicular.
    pub fn right(self) -> D2 {
        d2(self.y, -self.x)
    }
}

/// A rounded convex shape in f64: the points within `radius` of the hull of `core`.
#[derive(Clone, Debug)]
pub struct RefShape {
    pub core: Vec<D2>,
    pub radius: f64,
}

/// Convex hull, counter-clockwise, collinear points dropped (Andrew's monotone chain).
pub fn hull(points: &[D2]) -> Vec<D2> {
    let mut p: Vec<D2> = points.to_vec();
    p.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    p.dedup();
    if p.len() < 3 {
        return p;
    }
    let mut h: Vec<D2> = Vec::with_capacity(2 * p.len());
    for pass in 0..2 {
        let start = h.len();
        let iter: Box<dyn Iterator<Item = &D2>> = if pass == 0 { Box::new(p.iter()) } else { Box::new(p.iter().rev()) };
        for &q in iter {
            while h.len() >= start + 2 && (h[h.len() - 1] - h[h.len() - 2]).cross(q - h[h.len() - 2]) <= 0.0 {
                h.pop();
            }
            h.push(q);
        }
        h.pop();
    }
    if h.len() < 2 {
        // All points collinear and the chain collapsed: keep the extremes.
        return vec![p[0], p[p.len() - 1]];
    }
    h
}

pub fn closest_on_segment(a: D2, b: D2, p: D2) -> D2 {
    let e = b - a;
    let l = e.dot(e);
    if l == 0.0 {
        return a;
    }
    let t = ((p - a).dot(e) / l).clamp(0.0, 1.0);
    a + e * t
}

/// The signed distance between two rounded convex shapes (negative: overlap depth) and the
/// unit direction from A to B along which B leaves A fastest (for separated shapes: from A's
/// closest point to B's). `None` for the direction when it is not unique (touching cores of
/// zero area Minkowski difference).
pub fn signed_distance(a: &RefShape, b: &RefShape) -> (f64, Option<D2>) {
    let mut diff = Vec::with_capacity(a.core.len() * b.core.len());
    for &pb in &b.core {
        for &pa in &a.core {
            diff.push(pb - pa);
        }
    }
    let m = hull(&diff);
    let radius = a.radius + b.radius;
    let origin = D2::default();
    if m.len() < 3 {
        let closest = if m.len() == 1 { m[0] } else { closest_on_segment(m[0], m[1], origin) };
        let d = closest.length();
        return (d - radius, if d > 0.0 { Some(closest * (1.0 / d)) } else { None });
    }
    // Inside test and nearest face.
    let mut inside = true;
    let mut best_face = (f64::INFINITY, D2::default());
    let mut best_point = (f64::INFINITY, D2::default());
    for i in 0..m.len() {
        let (p, q) = (m[i], m[(i + 1) % m.len()]);
        let n = (q - p).right().normalized();
        let s = n.dot(origin - p);
        if s > 0.0 {
            inside = false;
        }
        if -s < best_face.0 {
            best_face = (-s, n);
        }
        let c = closest_on_segment(p, q, origin);
        let d = c.length();
        if d < best_point.0 {
            best_point = (d, c);
        }
    }
    if inside {
        // Depth = distance from the origin to the nearest face; B moves along that face's
        // outward normal of B - A.
        (-best_face.0 - radius, Some(best_face.1))
    } else {
        let (d, c) = best_point;
        (d - radius, if d > 0.0 { Some(c * (1.0 / d)) } else { None })
    }
}

/// The interval of λ for which `p + λ n` lies in the shape, `None` if the line misses it.
pub fn line_interval(shape: &RefShape, p: D2, n: D2) -> Option<(f64, f64)> {
    let core = hull(&shape.core);
    let r = shape.radius;
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    let mut include = |iv: Option<(f64, f64)>| {
        if let Some((a, b)) = iv {
            lo = lo.min(a);
            hi = hi.max(b);
        }
    };
    if core.len() >= 3 {
        let planes: Vec<(D2, D2)> =
            (0..core.len()).map(|i| ((core[(i + 1) % core.len()] - core[i]).right().normalized(), core[i])).collect();
        include(clip_line(p, n, &planes));
    }
    if r > 0.0 {
        for &c in &core {
            include(line_circle(p, n, c, r));
        }
    } else if core.len() == 1 {
        include(line_circle(p, n, core[0], 0.0));
    }
    let edges = if core.len() == 2 {
        1
    } else if core.len() >= 3 {
        core.len()
    } else {
        0
    };
    for i in 0..edges {
        let (a, b) = (core[i], core[(i + 1) % core.len()]);
        let t = (b - a).normalized();
        let nn = t.right();
        // The rectangle swept by the edge offset by ±r (a zero-width one for a segment).
        let planes = vec![(nn, a + nn * r), (-nn, a - nn * r), (-t, a), (t, b)];
        include(clip_line(p, n, &planes));
    }
    if lo <= hi { Some((lo, hi)) } else { None }
}

/// Clips the line `p + λ n` by half-planes `{x : normal · (x - point) <= 0}`.
fn clip_line(p: D2, n: D2, planes: &[(D2, D2)]) -> Option<(f64, f64)> {
    let (mut lo, mut hi) = (f64::NEG_INFINITY, f64::INFINITY);
    for &(normal, point) in planes {
        let s = normal.dot(p - point);
        let d = normal.dot(n);
        if d.abs() < 1e-300 {
            if s > 1e-12 {
                return None;
            }
            continue;
        }
        let t = -s / d;
        if d > 0.0 {
            hi = hi.min(t);
        } else {
            lo = lo.max(t);
        }
    }
    if lo <= hi { Some((lo, hi)) } else { None }
}

fn line_circle(p: D2, n: D2, c: D2, r: f64) -> Option<(f64, f64)> {
    let m = p - c;
    let b = m.dot(n);
    let cc = m.dot(m) - r * r;
    let disc = b * b - cc;
    if disc < 0.0 {
        return None;
    }
    let s = disc.sqrt();
    Some((-b - s, -b + s))
}

/// The gap between A and B along the line through `p` in direction `n` (from A to B):
/// where the line enters B minus where it leaves A. `None` if the line misses either.
pub fn gap_along(a: &RefShape, b: &RefShape, p: D2, n: D2) -> Option<f64> {
    let (_, a_exit) = line_interval(a, p, n)?;
    let (b_entry, _) = line_interval(b, p, n)?;
    Some(b_entry - a_exit)
}

/// The signed distance from point `p` to the boundary of the shape (negative inside).
pub fn point_distance(shape: &RefShape, p: D2) -> f64 {
    signed_distance(&RefShape { core: vec![p], radius: 0.0 }, shape).0
}
