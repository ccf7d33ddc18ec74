//! Penetration depth of overlapping proxies by the expanding polytope algorithm (EPA).
//!
//! Source: van den Bergen, "Proximity Queries and Penetration Depth Computation on 3D Game
//! Objects", GDC 2001. In 2D the Minkowski difference of two proxies has at most 16
//! vertices, so the expansion ends, exactly, within 16 insertions.

use super::distance::{DistanceInput, SimplexCache, core_distance};
use super::error::{QueryError, check_transform};
use super::proxy::ShapeProxy;
use super::simplex::{Simplex, SimplexVertex};
use crate::math::Vec2;

/// How two overlapping shapes overlap: translating B by `depth * normal` makes them touch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Penetration {
    /// Overlap depth of the surfaces (meters, positive).
    pub depth: f32,
    /// Unit vector from A to B: the direction in which B leaves A fastest.
    pub normal: Vec2,
    /// The deepest point of A inside B (meters, world).
    pub point_a: Vec2,
    /// The deepest point of B inside A (meters, world); `point_a - point_b` is
    /// `depth * normal`.
    pub point_b: Vec2,
    /// GJK and EPA iterations (support point queries).
    pub iterations: u32,
}

/// The penetration of two shapes, `None` when they do not overlap (touching is not
/// overlapping).
///
/// Rounded shapes whose cores are apart are solved exactly from the GJK distance; cores
/// that overlap go to EPA, started from GJK's final simplex.
///
/// Errors: those of [`shape_distance`](super::shape_distance) for invalid transforms.
pub fn penetration(input: &DistanceInput) -> Result<Option<Penetration>, QueryError> {
    check_transform(&input.transform_a, "transform_a")?;
    check_transform(&input.transform_b, "transform_b")?;
    Ok(core_penetration(input))
}

/// [`penetration`] for valid transforms.
fn core_penetration(input: &DistanceInput) -> Option<Penetration> {
    let xf = input.transform_a;
    let local_b = input.proxy_b.transformed(xf.inv_mul(input.transform_b));
    let core = core_distance(input.proxy_a, &local_b, &mut SimplexCache::default());
    let (ra, rb) = (input.proxy_a.radius(), input.proxy_b.radius());
    let (core_depth, normal, a, b, iterations) = if core.distance > 0.0 {
        (-core.distance, core.normal, core.point_a, core.point_b, core.iterations)
    } else {
        let e = expand(input.proxy_a, &local_b, &core.simplex);
        (e.depth, e.normal, e.point_a, e.point_b, core.iterations + e.iterations)
    };
    let depth = core_depth + ra + rb;
    if depth <= 0.0 || depth.is_nan() {
        return None;
    }
    Some(Penetration {
        depth,
        normal: xf.q.rotate(normal),
        point_a: xf.apply(a + ra * normal),
        point_b: xf.apply(b - rb * normal),
        iterations,
    })
}

/// The contact of two shapes whose cores may touch or overlap: the unit normal from A to B
/// along which B leaves A fastest, and the points of A's and B's surfaces along it (world,
/// meters; for overlapping surfaces, each one's deepest point in the other). For cores apart,
/// GJK's closest points. Never a zero normal: EPA's for overlapping cores, and for cores
/// without area between them (parallel segments, points) a perpendicular of their line.
pub(crate) fn contact_normal(input: &DistanceInput) -> (Vec2, Vec2, Vec2) {
    let xf = input.transform_a;
    let local_b = input.proxy_b.transformed(xf.inv_mul(input.transform_b));
    let core = core_distance(input.proxy_a, &local_b, &mut SimplexCache::default());
    let (normal, a, b) = if core.distance > 0.0 {
        (core.normal, core.point_a, core.point_b)
    } else {
        let e = expand(input.proxy_a, &local_b, &core.simplex);
        (e.normal, e.point_a, e.point_b)
    };
    let (ra, rb) = (input.proxy_a.radius(), input.proxy_b.radius());
    (xf.q.rotate(normal), xf.apply(a + ra * normal), xf.apply(b - rb * normal))
}

/// Penetration of two proxy cores given in the same frame.
struct CorePenetration {
    depth: f32,
    normal: Vec2,
    point_a: Vec2,
    point_b: Vec2,
    iterations: u32,
}

const MAX_VERTICES: usize = 32;

/// A convex polygon of Minkowski points (B − A), counter-clockwise, holding the origin.
struct Polytope {
    v: [SimplexVertex; MAX_VERTICES],
    count: usize,
}

/// Expands GJK's final simplex (which holds the origin) over the Minkowski difference until
/// the edge nearest the origin is an edge of the difference itself.
fn expand(proxy_a: &ShapeProxy, proxy_b: &ShapeProxy, simplex: &Simplex) -> CorePenetration {
    let mut poly = initial_polytope(proxy_a, proxy_b, simplex);
    let mut iterations = 0;
    if poly.count < 3 {
        return degenerate(&poly, simplex);
    }
    let scale = poly.v[..poly.count].iter().fold(0.0f32, |m, v| m.max(v.w.abs().max_element()));
    let tolerance = 1.0e-6 * scale.max(f32::MIN_POSITIVE);
    loop {
        let (edge, normal, distance) = poly.closest_edge();
        let index_a = proxy_a.support(-normal);
        let index_b = proxy_b.support(normal);
        iterations += 1;
        let vertex = SimplexVertex::new(proxy_a, index_a, proxy_b, index_b);
        let known = poly.v[..poly.count].iter().any(|v| v.index_a == vertex.index_a && v.index_b == vertex.index_b);
        if known || normal.dot(vertex.w) - distance <= tolerance || poly.count == MAX_VERTICES {
            return poly.result(edge, normal, distance, iterations);
        }
        poly.insert(edge + 1, vertex);
    }
}

/// The convex hull of the simplex and a few support points, so that the start is a proper
/// polygon around the origin even when GJK stopped on a segment or a point through it.
fn initial_polytope(proxy_a: &ShapeProxy, proxy_b: &ShapeProxy, simplex: &Simplex) -> Polytope {
    let mut points = [SimplexVertex::default(); 9];
    let mut n = 0;
    let mut add = |v: SimplexVertex| {
        if !points[..n].iter().any(|p| p.index_a == v.index_a && p.index_b == v.index_b) {
            points[n] = v;
            n += 1;
        }
    };
    for v in &simplex.v[..simplex.count] {
        add(*v);
    }
    let mut directions = [Vec2::X, Vec2::Y, Vec2::NEG_X, Vec2::NEG_Y, Vec2::ZERO, Vec2::ZERO];
    if simplex.count == 2 {
        let side = (simplex.v[1].w - simplex.v[0].w).perp();
        directions[4] = side;
        directions[5] = -side;
    }
    for d in directions.into_iter().filter(|d| *d != Vec2::ZERO) {
        add(SimplexVertex::new(proxy_a, proxy_a.support(-d), proxy_b, proxy_b.support(d)));
    }
    convex_hull(&mut points[..n])
}

/// Andrew's monotone chain on a handful of points; collinear points are dropped.
fn convex_hull(points: &mut [SimplexVertex]) -> Polytope {
    points.sort_unstable_by(|p, q| p.w.x.total_cmp(&q.w.x).then(p.w.y.total_cmp(&q.w.y)));
    let mut hull = Polytope { v: [SimplexVertex::default(); MAX_VERTICES], count: 0 };
    let turns_left = |h: &Polytope, p: Vec2| {
        let (o, a) = (h.v[h.count - 2].w, h.v[h.count - 1].w);
        (a - o).perp_dot(p - o) > 0.0
    };
    let push_chain = |h: &mut Polytope, p: &SimplexVertex, floor: usize| {
        while h.count >= floor + 2 && !turns_left(h, p.w) {
            h.count -= 1;
        }
        h.v[h.count] = *p;
        h.count += 1;
    };
    for p in points.iter() {
        push_chain(&mut hull, p, 0);
    }
    let lower = hull.count;
    for p in points.iter().rev().skip(1) {
        push_chain(&mut hull, p, lower - 1);
    }
    // The last point repeats the first.
    hull.count = hull.count.saturating_sub(1).max(1.min(points.len()));
    hull
}

/// The Minkowski difference has no area (parallel segments, points): the depth is zero.
fn degenerate(poly: &Polytope, simplex: &Simplex) -> CorePenetration {
    let normal = if poly.count == 2 { (poly.v[1].w - poly.v[0].w).perp().normalize_or(Vec2::Y) } else { Vec2::Y };
    let (point_a, point_b) = simplex.witness_points();
    CorePenetration { depth: 0.0, normal, point_a, point_b, iterations: 0 }
}

impl Polytope {
    /// The edge nearest the origin: its index, outward unit normal and distance.
    fn closest_edge(&self) -> (usize, Vec2, f32) {
        let mut best = (0, Vec2::Y, f32::INFINITY);
        for i in 0..self.count {
            let (w1, w2) = (self.v[i].w, self.v[(i + 1) % self.count].w);
            let e = w2 - w1;
            let normal = Vec2::new(e.y, -e.x).normalize_or_zero();
            let distance = normal.dot(w1);
            if normal != Vec2::ZERO && distance < best.2 {
                best = (i, normal, distance);
            }
        }
        best
    }

    /// Inserts a support point after `at - 1` and keeps the polygon convex: the new point
    /// can lie beyond the neighboring edges too, and a vertex it leaves reflex would make
    /// its edges look closer to the origin than the boundary really is.
    fn insert(&mut self, at: usize, vertex: SimplexVertex) {
        self.v.copy_within(at..self.count, at + 1);
        self.v[at] = vertex;
        self.count += 1;
        // Drop reflex neighbors after the new point, then before it.
        let mut at = at;
        for before in [false, true] {
            while self.count > 3 {
                let n = self.count;
                let neighbor = if before { (at + n - 1) % n } else { (at + 1) % n };
                if !self.is_reflex(neighbor) {
                    break;
                }
                self.remove(neighbor);
                if neighbor < at {
                    at -= 1;
                }
            }
        }
    }

    /// True when vertex `i` does not turn left (counter-clockwise) from its neighbors.
    fn is_reflex(&self, i: usize) -> bool {
        let n = self.count;
        let (prev, here, next) = (self.v[(i + n - 1) % n].w, self.v[i].w, self.v[(i + 1) % n].w);
        (here - prev).perp_dot(next - here) <= 0.0
    }

    fn remove(&mut self, i: usize) {
        self.v.copy_within(i + 1..self.count, i);
        self.count -= 1;
    }

    /// Depth, normal (A to B) and the deepest points from the converged edge.
    fn result(&self, edge: usize, normal: Vec2, distance: f32, iterations: u32) -> CorePenetration {
        let (v1, v2) = (self.v[edge], self.v[(edge + 1) % self.count]);
        let e = v2.w - v1.w;
        let t = ((normal * distance - v1.w).dot(e) / e.length_squared()).clamp(0.0, 1.0);
        CorePenetration {
            depth: distance.max(0.0),
            normal: -normal,
            point_a: v1.a + t * (v2.a - v1.a),
            point_b: v1.b + t * (v2.b - v1.b),
            iterations,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Transform;

    fn boxed(hw: f32, hh: f32) -> ShapeProxy {
        ShapeProxy::new(&[Vec2::new(-hw, -hh), Vec2::new(hw, -hh), Vec2::new(hw, hh), Vec2::new(-hw, hh)], 0.0).unwrap()
    }

    fn pen(a: &ShapeProxy, xa: Transform, b: &ShapeProxy, xb: Transform) -> Option<Penetration> {
        penetration(&DistanceInput { proxy_a: a, transform_a: xa, proxy_b: b, transform_b: xb }).unwrap()
    }

    #[test]
    fn stacked_boxes_overlap_by_their_intersection() {
        let a = boxed(1.0, 1.0);
        let p = pen(&a, Transform::IDENTITY, &a, Transform::new(Vec2::new(0.2, 1.9), 0.0)).unwrap();
        assert!((p.depth - 0.1).abs() < 1e-5, "{p:?}");
        assert!((p.normal - Vec2::Y).length() < 1e-5);
        assert!(((p.point_a - p.point_b) - p.depth * p.normal).length() < 1e-5);
    }

    #[test]
    fn concentric_boxes_start_from_a_degenerate_simplex() {
        let a = boxed(1.0, 1.0);
        let b = boxed(2.0, 0.5);
        let p = pen(&a, Transform::IDENTITY, &b, Transform::IDENTITY).unwrap();
        // Smallest push: B up or down by 1.5.
        assert!((p.depth - 1.5).abs() < 1e-5, "{p:?}");
        assert!(p.normal.x.abs() < 1e-5);
    }

    #[test]
    fn rounded_cores_apart_and_separated_shapes() {
        let c = ShapeProxy::new(&[Vec2::ZERO], 1.0).unwrap();
        let p = pen(&c, Transform::IDENTITY, &c, Transform::new(Vec2::new(1.5, 0.0), 0.0)).unwrap();
        assert!((p.depth - 0.5).abs() < 1e-6 && (p.normal - Vec2::X).length() < 1e-6);
        assert!((p.point_a - Vec2::new(1.0, 0.0)).length() < 1e-6);
        assert!(pen(&c, Transform::IDENTITY, &c, Transform::new(Vec2::new(2.5, 0.0), 0.0)).is_none());
    }

    /// Found by the f64 reference: a support point beyond the neighboring edges left a
    /// reflex vertex whose edge passed for the closest, giving 0.226 instead of 0.366.
    #[test]
    fn insertion_keeps_the_polytope_convex() {
        let bits = |x: u32| f32::from_bits(x);
        let a = ShapeProxy::new(
            &[
                Vec2::new(bits(0xbeeaa263), bits(0xbeb3653e)),
                Vec2::new(bits(0x3f0fb50f), bits(0xbeb3653e)),
                Vec2::new(bits(0x3f0fb50f), bits(0x3ef10880)),
                Vec2::new(bits(0xbeeaa263), bits(0x3ef10880)),
            ],
            0.0,
        )
        .unwrap();
        let xa = Transform {
            p: Vec2::new(bits(0xbe2c0a7c), bits(0x3f45fbb7)),
            q: crate::math::Rot { c: bits(0xbedc22fc), s: bits(0xbf672137) },
        };
        let b = ShapeProxy::new(
            &[Vec2::new(bits(0x3da7b45c), bits(0x3e85e225)), Vec2::new(bits(0x3e240b4a), bits(0xbdebe0ed))],
            0.0,
        )
        .unwrap();
        let xb = Transform {
            p: Vec2::new(bits(0xbe2f753a), bits(0x3f460c47)),
            q: crate::math::Rot { c: bits(0x3f4874bd), s: bits(0x3f1f3a3c) },
        };
        let p = pen(&a, xa, &b, xb).unwrap();
        assert!((p.depth - 0.3662053).abs() < 1e-5, "{p:?}");
        assert!((p.normal - Vec2::new(0.429_954_4, 0.902_850_6)).length() < 1e-4, "{p:?}");
    }

    #[test]
    fn crossing_segments_and_collinear_segments() {
        // Two unit-half-length segments crossing at their centers at 1 rad: the Minkowski
        // difference is a parallelogram sin(1) from the origin on every side.
        let s = ShapeProxy::new(&[Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0)], 0.0).unwrap();
        let p = pen(&s, Transform::IDENTITY, &s, Transform::new(Vec2::ZERO, 1.0)).unwrap();
        assert!((p.depth - 1.0f32.sin()).abs() < 1e-5, "{p:?}");
        let capsule = ShapeProxy::new(&[Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0)], 0.1).unwrap();
        let p = pen(&capsule, Transform::IDENTITY, &capsule, Transform::new(Vec2::ZERO, 1.0)).unwrap();
        assert!((p.depth - (1.0f32.sin() + 0.2)).abs() < 1e-5, "{p:?}");
        // Overlapping collinear segments: no area, no depth.
        assert!(pen(&s, Transform::IDENTITY, &s, Transform::new(Vec2::new(0.5, 0.0), 0.0)).is_none());
    }
}
