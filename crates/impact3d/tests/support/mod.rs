//! The f64 brute-force reference of the 3D query tests: no GJK, no hull, only enumeration.
//! The cores overlap exactly when no separating axis exists among the normals of every
//! triangle of three points of A or of B, the cross products of every pair of segments of A
//! and B, the directions between their points and the perpendiculars to their segments (a
//! superset of the axes the separating axis theorem needs); otherwise their distance is the
//! least distance between a triangle (or segment, or point) of one and a point of the other,
//! or between a segment of each: every triangle lies in its hull, and the closest features of
//! two disjoint polytopes are among these.

#![allow(dead_code)]

pub mod toi_cases;

use glam::DVec3;
use impact3d::Vec3;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// A random unit vector (roughly uniform over directions: a normalized point of the cube).
pub fn random_unit(rng: &mut ChaCha8Rng) -> Vec3 {
    Vec3::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0))
        .normalize_or(Vec3::X)
}

pub fn closest_on_segment(a: DVec3, b: DVec3, p: DVec3) -> DVec3 {
    let ab = b - a;
    let l = ab.length_squared();
    if l == 0.0 {
        return a;
    }
    a + ab * ((p - a).dot(ab) / l).clamp(0.0, 1.0)
}

/// The closest point of triangle (a, b, c) to p, by brute force: the foot on the plane if it
/// lies inside (barycentric test), else the best of the three edges.
pub fn closest_on_triangle(a: DVec3, b: DVec3, c: DVec3, p: DVec3) -> DVec3 {
    let n = (b - a).cross(c - a);
    let edges = [closest_on_segment(a, b, p), closest_on_segment(b, c, p), closest_on_segment(c, a, p)];
    let mut best = edges.into_iter().min_by(|x, y| x.distance(p).total_cmp(&y.distance(p))).unwrap_or(a);
    if n.length_squared() > 0.0 {
        let foot = p - n * (n.dot(p - a) / n.length_squared());
        let inside = [(a, b), (b, c), (c, a)].iter().all(|&(u, v)| (v - u).cross(foot - u).dot(n) >= 0.0);
        if inside && foot.distance(p) < best.distance(p) {
            best = foot;
        }
    }
    best
}

/// The distance between segments p1q1 and p2q2 (Ericson, Real-Time Collision Detection,
/// 5.1.9, in f64), each clamped parameter checked against the other's clamp.
pub fn segment_segment(p1: DVec3, q1: DVec3, p2: DVec3, q2: DVec3) -> f64 {
    let (d1, d2, r) = (q1 - p1, q2 - p2, p1 - p2);
    let (a, e, f) = (d1.length_squared(), d2.length_squared(), d2.dot(r));
    if a == 0.0 && e == 0.0 {
        return p1.distance(p2);
    }
    if a == 0.0 {
        return p1.distance(closest_on_segment(p2, q2, p1));
    }
    let c = d1.dot(r);
    if e == 0.0 {
        return p2.distance(closest_on_segment(p1, q1, p2));
    }
    let b = d1.dot(d2);
    let denom = a * e - b * b;
    let mut s = if denom > 0.0 { ((b * f - c * e) / denom).clamp(0.0, 1.0) } else { 0.0 };
    let mut t = (b * s + f) / e;
    if t < 0.0 {
        t = 0.0;
        s = (-c / a).clamp(0.0, 1.0);
    } else if t > 1.0 {
        t = 1.0;
        s = ((b - c) / a).clamp(0.0, 1.0);
    }
    let exact = (p1 + d1 * s).distance(p2 + d2 * t);
    // Guard the parallel case's choice with the four end-to-segment distances.
    exact
        .min(p1.distance(closest_on_segment(p2, q2, p1)))
        .min(q1.distance(closest_on_segment(p2, q2, q1)))
        .min(p2.distance(closest_on_segment(p1, q1, p2)))
        .min(q2.distance(closest_on_segment(p1, q1, q2)))
}

/// Overlap of the convex hulls of `a` and `b`, exactly, by separating axes.
pub fn cores_overlap(a: &[DVec3], b: &[DVec3]) -> bool {
    let mut axes = Vec::new();
    for set in [a, b] {
        for i in 0..set.len() {
            for j in i + 1..set.len() {
                for k in j + 1..set.len() {
                    axes.push((set[j] - set[i]).cross(set[k] - set[i]));
                }
            }
        }
    }
    let dirs = |set: &[DVec3]| {
        let mut d = Vec::new();
        for i in 0..set.len() {
            for j in i + 1..set.len() {
                d.push(set[j] - set[i]);
            }
        }
        d
    };
    let (da, db) = (dirs(a), dirs(b));
    for x in &da {
        for y in &db {
            axes.push(x.cross(*y));
        }
    }
    // Lower-dimensional sets (a point, a segment against a point) need more axes: the
    // direction between the sets' points and the perpendiculars to a segment.
    for p in a {
        for q in b {
            axes.push(*q - *p);
        }
    }
    for x in da.iter().chain(&db) {
        let perp = if x.x.abs() < 0.9 { x.cross(DVec3::X) } else { x.cross(DVec3::Y) };
        axes.push(perp);
        axes.push(perp.cross(*x));
    }
    !axes.iter().filter(|n| n.length_squared() > 0.0).any(|n| {
        let (amin, amax) =
            a.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| (l.min(n.dot(*p)), h.max(n.dot(*p))));
        let (bmin, bmax) =
            b.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| (l.min(n.dot(*p)), h.max(n.dot(*p))));
        amax < bmin || bmax < amin
    })
}

/// The distance between the convex hulls of `a` and `b` (0 when they overlap).
pub fn core_distance(a: &[DVec3], b: &[DVec3]) -> f64 {
    if cores_overlap(a, b) {
        return 0.0;
    }
    let mut best = f64::INFINITY;
    let triangles = |set: &[DVec3]| {
        let mut t = Vec::new();
        for i in 0..set.len() {
            for j in i..set.len() {
                for k in j..set.len() {
                    t.push((set[i], set[j], set[k]));
                }
            }
        }
        t
    };
    for (x, y) in [(a, b), (b, a)] {
        for (p, q, r) in triangles(x) {
            for s in y {
                best = best.min(closest_on_triangle(p, q, r, *s).distance(*s));
            }
        }
    }
    for i in 0..a.len() {
        for j in i + 1..a.len() {
            for k in 0..b.len() {
                for l in k + 1..b.len() {
                    best = best.min(segment_segment(a[i], a[j], b[k], b[l]));
                }
            }
        }
    }
    best
}

/// The penetration depth of the convex hulls of `a` and `b` (0 when apart): the least
/// overlap of their projections over the axes `cores_overlap` tries, both ways. The least
/// translation that separates two polytopes is along a face normal of their Minkowski
/// difference (a face normal of one or the cross product of an edge of each), all among
/// these, and no direction can give less than it.
pub fn core_depth(a: &[DVec3], b: &[DVec3]) -> f64 {
    if !cores_overlap(a, b) {
        return 0.0;
    }
    let mut axes = Vec::new();
    let triples = |set: &[DVec3], axes: &mut Vec<DVec3>| {
        for i in 0..set.len() {
            for j in i + 1..set.len() {
                for k in j + 1..set.len() {
                    axes.push((set[j] - set[i]).cross(set[k] - set[i]));
                }
            }
        }
    };
    triples(a, &mut axes);
    triples(b, &mut axes);
    let dirs = |set: &[DVec3]| {
        let mut d = Vec::new();
        for i in 0..set.len() {
            for j in i + 1..set.len() {
                d.push(set[j] - set[i]);
            }
        }
        d
    };
    let (da, db) = (dirs(a), dirs(b));
    for x in &da {
        for y in &db {
            axes.push(x.cross(*y));
        }
    }
    for x in da.iter().chain(&db) {
        let perp = if x.x.abs() < 0.9 { x.cross(DVec3::X) } else { x.cross(DVec3::Y) };
        axes.push(perp);
        axes.push(perp.cross(*x));
    }
    axes.extend([DVec3::X, DVec3::Y, DVec3::Z]);
    let mut best = f64::INFINITY;
    for n in axes.iter().filter(|n| n.length_squared() > 0.0) {
        let n = n.normalize();
        for m in [n, -n] {
            let high_a = a.iter().map(|p| m.dot(*p)).fold(f64::NEG_INFINITY, f64::max);
            let low_b = b.iter().map(|p| m.dot(*p)).fold(f64::INFINITY, f64::min);
            best = best.min(high_a - low_b);
        }
    }
    best.max(0.0)
}
