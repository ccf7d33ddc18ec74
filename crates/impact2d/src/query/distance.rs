//! Distance between proxies by GJK, with closest points, closest features and a simplex
//! cache for warm starting; closest points of two segments.
//!
//! Sources: Gilbert, Johnson and Keerthi, "A fast procedure for computing the distance
//! between complex objects in three-dimensional space", 1988; van den Bergen, "A Fast and
//! Robust GJK Implementation for Collision Detection of Convex Objects", 1999; Catto,
//! "Computing Distance", GDC 2010.

use super::error::{QueryError, check_transform, check_vector};
use super::proxy::ShapeProxy;
use super::simplex::{Simplex, SimplexVertex};
use crate::math::{Transform, Vec2};
use crate::settings::GJK_MAX_ITERATIONS;

/// The proxy points of the last simplex of a distance query, to start the next query on
/// the same pair from the same features (warm starting). Start with `SimplexCache::default()`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SimplexCache {
    /// Number of cached vertices, 0 to 3.
    pub count: u8,
    /// Point indices in proxy A.
    pub index_a: [u8; 3],
    /// Point indices in proxy B.
    pub index_b: [u8; 3],
}

/// Two proxies placed in the world.
#[derive(Clone, Copy, Debug)]
pub struct DistanceInput<'a> {
    /// The first shape.
    pub proxy_a: &'a ShapeProxy,
    /// Where the first shape is.
    pub transform_a: Transform,
    /// The second shape.
    pub proxy_b: &'a ShapeProxy,
    /// Where the second shape is.
    pub transform_b: Transform,
}

/// The result of [`shape_distance`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DistanceOutput {
    /// Closest point on A's surface (meters, world). When the cores overlap: a common
    /// point of the cores.
    pub point_a: Vec2,
    /// Closest point on B's surface (meters, world).
    pub point_b: Vec2,
    /// Unit vector from A to B along which the cores are closest; zero when the cores
    /// overlap.
    pub normal: Vec2,
    /// The gap between the surfaces (meters), zero when the shapes overlap.
    pub distance: f32,
    /// GJK iterations (support point queries).
    pub iterations: u32,
}

/// The distance between two shapes by GJK (the proxies' cores), minus their radii.
///
/// The cache starts the search from the features of the previous query on the same pair;
/// it is updated with the final features. For overlap depth use
/// [`penetration`](super::penetration). All work happens in A's frame, and every simplex
/// test is relative to a simplex vertex, so edges down to a fraction of a millimeter are
/// resolved to float precision (no false overlaps on short edges).
///
/// Precision: the distance (meters) is the exact distance between the f32 shapes as placed,
/// to within 16 f32 spacings of the largest coordinate the query meets (both positions,
/// their difference, both shapes' extents): 1.2e-5 m for shapes within 100 m of the origin,
/// 0.12 m at 1,000 km, 2 km near [`crate::settings::MAX_COORDINATE`] (1e9 m). The closest
/// points lie on the surfaces and `point_b - point_a` is `distance * normal`, to the same
/// tolerance. The worst error measured against an f64 reference (`tests/distance.rs`:
/// shapes of 1 mm to 10 cm against shapes of 1 m to 1,000 km, from 1 cm to 1,000 km apart,
/// up to 1e9 m from the origin, cold and warm caches) is 5 spacings. A shape smaller than
/// that round-off is seen as a point: f32 cannot place a 1 mm box 1,000 km away to better
/// than 0.1 m, and the answer is then the distance to within that, not the box's
/// orientation. Overlap (distance zero) is only reported for shapes within the tolerance of
/// touching.
///
/// Errors: [`QueryError::NonFinite`] or [`QueryError::OutOfRange`] for a transform that is
/// not finite, not within [`crate::settings::MAX_COORDINATE`], or not a unit rotation.
pub fn shape_distance(input: &DistanceInput, cache: &mut SimplexCache) -> Result<DistanceOutput, QueryError> {
    check_transform(&input.transform_a, "transform_a")?;
    check_transform(&input.transform_b, "transform_b")?;
    let core = world_core_distance(input, cache);
    let (ra, rb) = (input.proxy_a.radius(), input.proxy_b.radius());
    let (point_a, point_b) = if core.distance > 0.0 {
        (core.point_a + ra * core.normal, core.point_b - rb * core.normal)
    } else {
        (core.point_a, core.point_b)
    };
    Ok(DistanceOutput {
        point_a,
        point_b,
        normal: core.normal,
        distance: (core.distance - ra - rb).max(0.0),
        iterations: core.iterations,
    })
}

/// The closest points of two proxies' cores (radii ignored).
#[derive(Clone, Copy, Debug)]
pub(crate) struct CoreDistance {
    pub point_a: Vec2,
    pub point_b: Vec2,
    /// Unit, from A to B; zero when the cores overlap.
    pub normal: Vec2,
    /// Distance between the cores, zero when they overlap.
    pub distance: f32,
    pub iterations: u32,
    /// The final simplex: a triangle holding the origin when the cores overlap.
    pub simplex: Simplex,
}

/// [`core_distance`] for proxies placed in the world; the output is in world coordinates.
pub(crate) fn world_core_distance(input: &DistanceInput, cache: &mut SimplexCache) -> CoreDistance {
    let relative = input.transform_a.inv_mul(input.transform_b);
    let local_b = input.proxy_b.transformed(relative);
    let mut out = core_distance(input.proxy_a, &local_b, cache);
    refine_normal(&mut out, cache, input.proxy_a, input.proxy_b, &local_b, relative);
    let xf = input.transform_a;
    out.point_a = xf.apply(out.point_a);
    out.point_b = xf.apply(out.point_b);
    out.normal = xf.q.rotate(out.normal);
    out
}

/// When the closest features include an edge, takes the normal from that edge in its own
/// proxy's coordinates, and rebuilds the distance and closest points on it. A short edge
/// rebuilt from Minkowski points (differences of coordinates much larger than the edge) has
/// a direction error of the coordinates' round-off over its length; its own proxy knows it
/// to float precision of its length. `proxy_b` is untransformed, `local_b` is it mapped by
/// `relative` into A's frame, where `out` is expressed.
///
/// A refined pair is kept only when it is certified: the gap along its normal between the
/// two proxies' supports (a lower bound on the distance, by separating axis) and the
/// distance between its points (an upper bound: both lie on the cores) agree to
/// [`certificate_tolerance`]. GJK decides its features by region tests on Minkowski points
/// whose round-off grows with the distance between the shapes, and stops on a simplex whose
/// distance is within 1e-6 of the best: from afar, a shape's short edge (a 1 mm box seen
/// from 70 m) passes for the closest feature when the closest point is the vertex beyond
/// it, and a proxy whose points are not in convex position can leave a chord inside its
/// hull. Such an edge's normal points up to tens of degrees off, and trusting it made
/// distances 10 % short or long, or below the radii, and shape casts step through thin
/// boxes. When GJK's features fail the certificate, the exact features are found over every
/// point–segment pair of the two proxies ([`exhaustive`]) and certified the same way; if
/// that fails too (shapes touching to the round-off), GJK's own witness points serve, whose
/// distance is an upper bound. Well-conditioned queries pass the first certificate and keep
/// their results bit for bit.
fn refine_normal(
    out: &mut CoreDistance,
    cache: &mut SimplexCache,
    proxy_a: &ShapeProxy,
    proxy_b: &ShapeProxy,
    local_b: &ShapeProxy,
    relative: Transform,
) {
    if out.distance <= 0.0 || out.simplex.count != 2 {
        return;
    }
    let tolerance = certificate_tolerance(proxy_a, local_b);
    let certified = |r: &Refined| {
        let lower = support_gap(proxy_a, local_b, r.normal);
        r.distance > 0.0 && r.upper > 0.0 && r.upper - lower <= tolerance && (r.distance - r.upper).abs() <= tolerance
    };
    let refined = from_simplex(out, proxy_a, proxy_b, local_b, relative)
        .filter(certified)
        .or_else(|| exhaustive(proxy_a, proxy_b, local_b, relative).filter(certified));
    if let Some(r) = refined {
        out.point_a = r.point_a;
        out.point_b = r.point_b;
        out.normal = r.normal;
        out.distance = r.distance;
        // The features the pair was found on, for the next warm start and for time of
        // impact's separation functions (which read them from the cache).
        if let Some(features) = r.features {
            *cache = features;
        }
        return;
    }
    // Not certified (GJK took shapes that touch to the round-off for apart): its own closest
    // points, whose distance is an upper bound.
    let gap = out.point_b - out.point_a;
    let length = gap.length();
    if length > 0.0 && length.is_finite() {
        out.normal = gap / length;
        out.distance = length;
    }
}

/// A closest pair of two cores proposed by [`refine_normal`] (A's frame): the points, the
/// unit normal from A to B, the distance along it, the distance between the points (an
/// upper bound on the core distance: both lie on the cores), and the features it lies on
/// when they are not GJK's final simplex (an edge and a vertex, or two vertices).
#[derive(Clone, Copy, Debug)]
struct Refined {
    point_a: Vec2,
    point_b: Vec2,
    normal: Vec2,
    distance: f32,
    upper: f32,
    features: Option<SimplexCache>,
}

impl Refined {
    /// This pair on the features: point `lone` of one proxy and the segment `ends` of the
    /// other (`lone_on_a`: the point is A's), where `along` is the foot's clamped fraction
    /// (0 or 1 beyond the segment: then the pair is two vertices).
    fn on(mut self, lone_on_a: bool, lone: usize, ends: (usize, usize), along: f32) -> Refined {
        let (j, k) = ends;
        let vertex = if along <= 0.0 {
            Some(j)
        } else if along >= 1.0 || j == k {
            Some(k)
        } else {
            None
        };
        let (lone, (e1, e2)) = (lone as u8, (j as u8, k as u8));
        self.features = Some(match (vertex, lone_on_a) {
            (Some(v), true) => SimplexCache { count: 1, index_a: [lone, 0, 0], index_b: [v as u8, 0, 0] },
            (Some(v), false) => SimplexCache { count: 1, index_a: [v as u8, 0, 0], index_b: [lone, 0, 0] },
            (None, true) => SimplexCache { count: 2, index_a: [lone, lone, 0], index_b: [e1, e2, 0] },
            (None, false) => SimplexCache { count: 2, index_a: [e1, e2, 0], index_b: [lone, lone, 0] },
        });
        self
    }
}

/// The pair of GJK's final features (an edge and a vertex, or two parallel edges) with the
/// edge's normal from its own proxy: the lone vertex (or A's witness point, for parallel
/// edges) and its foot on the edge's line. A foot beyond the edge (within the round-off, or
/// GJK's features taken from afar) leaves the vertex and the edge's end as the pair.
fn from_simplex(
    out: &CoreDistance,
    proxy_a: &ShapeProxy,
    proxy_b: &ShapeProxy,
    local_b: &ShapeProxy,
    relative: Transform,
) -> Option<Refined> {
    let (v1, v2) = (out.simplex.v[0], out.simplex.v[1]);
    let edge_on_b = v1.index_a == v2.index_a;
    let edge = if edge_on_b {
        let (b1, b2) = (proxy_b.points()[v1.index_b as usize], proxy_b.points()[v2.index_b as usize]);
        relative.q.rotate(b2 - b1)
    } else {
        // An edge of A (or two parallel edges, A's serving): already in its own frame.
        proxy_a.points()[v2.index_a as usize] - proxy_a.points()[v1.index_a as usize]
    };
    let n = edge.perp().normalize_or_zero();
    if n == Vec2::ZERO {
        return None;
    }
    let n = if n.dot(out.normal) < 0.0 { -n } else { n };
    let distance = n.dot(v1.w);
    let (ia, ib) = ((v1.index_a as usize, v2.index_a as usize), (v1.index_b as usize, v2.index_b as usize));
    // The pair, and the features it lies on should the foot fall beyond the edge: the lone
    // vertex (for parallel edges, A's edge) and the edge's end.
    let (point_a, point_b, upper, foot) = if edge_on_b {
        let (b1, b2) = (local_b.points()[ib.0], local_b.points()[ib.1]);
        let (point, upper, foot) = foot_on_segment(v1.a, b1, b2, v1.a + distance * n);
        (v1.a, point, upper, foot.map(|along| (true, ia.0, ib, along)))
    } else if v1.index_b == v2.index_b {
        let (point, upper, foot) = foot_on_segment(v1.b, v1.a, v2.a, v1.b - distance * n);
        (point, v1.b, upper, foot.map(|along| (false, ib.0, ia, along)))
    } else {
        let (point, upper, foot) = foot_on_segment(out.point_a, v1.b, v2.b, out.point_a + distance * n);
        (out.point_a, point, upper, foot.map(|along| (false, if along <= 0.0 { ib.0 } else { ib.1 }, ia, 0.5)))
    };
    let refined = Refined { point_a, point_b, normal: n, distance, upper, features: None };
    Some(match foot {
        Some((lone_on_a, lone, ends, along)) if upper > 0.0 => {
            let vertices = Refined { normal: (point_b - point_a) / upper, distance: upper, ..refined };
            vertices.on(lone_on_a, lone, ends, along)
        }
        _ => refined,
    })
}

/// The closest pair over every point of each core and every segment between two points of
/// the other (the hull's edges are among them, and for cores apart no chord inside a hull is
/// closer than its edges): exact features whatever GJK's simplex held, for the rare queries
/// whose simplex features fail the certificate (small shapes seen from far away). Each
/// segment's direction comes from its own proxy (B's rotated into A's frame), so a short
/// edge far away keeps its direction. At most 2 × 8 × 28 point–segment distances.
fn exhaustive(
    proxy_a: &ShapeProxy,
    proxy_b: &ShapeProxy,
    local_b: &ShapeProxy,
    relative: Transform,
) -> Option<Refined> {
    let (pa, pb, lb) = (proxy_a.points(), proxy_b.points(), local_b.points());
    let pairs = |count: usize| {
        let single = (count == 1).then_some((0, 0));
        (0..count).flat_map(move |j| ((j + 1)..count).map(move |k| (j, k))).chain(single)
    };
    let mut best: Option<Refined> = None;
    let mut consider = |r: Refined| {
        if best.is_none_or(|b| r.upper < b.upper) {
            best = Some(r);
        }
    };
    for (j, k) in pairs(lb.len()) {
        let edge = relative.q.rotate(pb[k] - pb[j]);
        for (i, &a) in pa.iter().enumerate() {
            // B's segment to A's point, then seen from A to B.
            let (r, along) = point_to_segment(a, lb[j], edge);
            let r = Refined { point_a: r.point_b, point_b: r.point_a, normal: -r.normal, ..r };
            consider(r.on(true, i, (j, k), along));
        }
    }
    for (j, k) in pairs(pa.len()) {
        for (i, &b) in lb.iter().enumerate() {
            let (r, along) = point_to_segment(b, pa[j], pa[k] - pa[j]);
            consider(r.on(false, i, (j, k), along));
        }
    }
    best
}

/// The pair of `p` and its closest point on the segment `origin + t edge`, t ∈ [0, 1], as a
/// [`Refined`] from the segment (as A) to the point (as B), and the closest point's fraction
/// t: within the segment's extent the normal is the segment's own perpendicular, beyond it
/// the direction from the segment's end.
fn point_to_segment(p: Vec2, origin: Vec2, edge: Vec2) -> (Refined, f32) {
    let d = p - origin;
    let length_sq = edge.length_squared();
    let t = if length_sq > 0.0 { d.dot(edge) / length_sq } else { 0.0 };
    let clamped = t.clamp(0.0, 1.0);
    let off = d - clamped * edge;
    let upper = off.length();
    let n = edge.perp().normalize_or_zero();
    if t == clamped && n != Vec2::ZERO {
        let side = n.dot(d);
        let normal = if side < 0.0 { -n } else { n };
        let distance = side.abs();
        return (Refined { point_a: p - distance * normal, point_b: p, normal, distance, upper, features: None }, t);
    }
    let normal = if upper > 0.0 { off / upper } else { Vec2::ZERO };
    (Refined { point_a: p - off, point_b: p, normal, distance: upper, upper, features: None }, clamped)
}

/// The gap along unit `n` between proxy A's support and proxy B's (same frame): the
/// least `n · b` minus the greatest `n · a`, a lower bound on the core distance.
fn support_gap(proxy_a: &ShapeProxy, proxy_b: &ShapeProxy, n: Vec2) -> f32 {
    let high_a = proxy_a.points().iter().fold(f32::NEG_INFINITY, |m, &p| m.max(n.dot(p)));
    let low_b = proxy_b.points().iter().fold(f32::INFINITY, |m, &p| m.min(n.dot(p)));
    low_b - high_a
}

/// How far apart (meters) the lower and upper bounds of a refined distance may be and the
/// distance still count as certified: the round-off of the dot products and differences
/// that compute them, a few ulps of the largest coordinate of the two proxies (A's frame).
fn certificate_tolerance(proxy_a: &ShapeProxy, local_b: &ShapeProxy) -> f32 {
    let largest = |p: &ShapeProxy| p.points().iter().fold(0.0f32, |m, v| m.max(v.abs().max_element()));
    16.0 * f32::EPSILON * (largest(proxy_a) + largest(local_b))
}

/// The point of the segment `a`–`b` closest to `p`, its distance from `p` (computed from `a`
/// and the segment's own edge vector), and, when the foot of `p` lies beyond the segment,
/// the fraction it is clamped to (0 or 1). Within the segment, the point is `on_line` (the
/// caller's foot on the segment's line).
fn foot_on_segment(p: Vec2, a: Vec2, b: Vec2, on_line: Vec2) -> (Vec2, f32, Option<f32>) {
    let e = b - a;
    let d = p - a;
    let length_sq = e.length_squared();
    let t = if length_sq > 0.0 { d.dot(e) / length_sq } else { 0.0 };
    let clamped = t.clamp(0.0, 1.0);
    let distance = (d - clamped * e).length();
    if t == clamped { (on_line, distance, None) } else { (a + clamped * e, distance, Some(clamped)) }
}

/// GJK on two proxies given in the same frame.
pub(crate) fn core_distance(proxy_a: &ShapeProxy, proxy_b: &ShapeProxy, cache: &mut SimplexCache) -> CoreDistance {
    let mut simplex = simplex_from_cache(cache, proxy_a, proxy_b);
    let mut iterations = 0;
    let mut closest;
    // Whether the cores touch or overlap: decided where the loop stops, since every later
    // exit leaves the simplex as it was tested.
    let overlap = loop {
        closest = simplex.solve();
        if simplex.count == 3 || is_degenerate(closest, &simplex) {
            break true;
        }
        if iterations == GJK_MAX_ITERATIONS {
            break false;
        }
        // Support point of B − A towards the origin.
        let index_a = proxy_a.support(closest);
        let index_b = proxy_b.support(-closest);
        iterations += 1;
        if simplex.contains(index_a, index_b) {
            break false;
        }
        let vertex = SimplexVertex::new(proxy_a, index_a, proxy_b, index_b);
        // No progress towards the origin: the closest point is optimal to float precision.
        let length_sq = closest.length_squared();
        if length_sq - closest.dot(vertex.w) <= 1.0e-6 * length_sq {
            break false;
        }
        simplex.v[simplex.count] = vertex;
        simplex.count += 1;
    };
    *cache = cache_from_simplex(&simplex);
    let (point_a, point_b) = simplex.witness_points();
    let distance = if overlap { 0.0 } else { closest.length() };
    let normal = if overlap { Vec2::ZERO } else { closest / distance };
    CoreDistance { point_a, point_b, normal, distance, iterations, simplex }
}

/// True when the closest point is too near the origin to give a direction: the cores
/// touch or overlap to float precision.
fn is_degenerate(closest: Vec2, simplex: &Simplex) -> bool {
    let scale = simplex.v[..simplex.count].iter().fold(0.0f32, |m, v| m.max(v.w.abs().max_element()));
    let eps = 4.0 * f32::EPSILON * scale.max(f32::MIN_POSITIVE);
    closest.length_squared() <= eps * eps
}

fn simplex_from_cache(cache: &SimplexCache, proxy_a: &ShapeProxy, proxy_b: &ShapeProxy) -> Simplex {
    let mut simplex = Simplex::default();
    for i in 0..(cache.count as usize).min(3) {
        let (ia, ib) = (cache.index_a[i] as usize, cache.index_b[i] as usize);
        if ia >= proxy_a.count() || ib >= proxy_b.count() {
            simplex.count = 0;
            break;
        }
        simplex.v[i] = SimplexVertex::new(proxy_a, ia, proxy_b, ib);
        simplex.count = i + 1;
    }
    if simplex.count == 0 {
        simplex.v[0] = SimplexVertex::new(proxy_a, 0, proxy_b, 0);
        simplex.count = 1;
    }
    simplex
}

fn cache_from_simplex(simplex: &Simplex) -> SimplexCache {
    let mut cache = SimplexCache { count: simplex.count as u8, ..Default::default() };
    for i in 0..simplex.count {
        cache.index_a[i] = simplex.v[i].index_a;
        cache.index_b[i] = simplex.v[i].index_b;
    }
    cache
}

/// The closest points of two segments.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SegmentDistance {
    /// Closest point on the first segment (meters).
    pub closest1: Vec2,
    /// Closest point on the second segment (meters).
    pub closest2: Vec2,
    /// Where `closest1` sits on the first segment, from 0 (`p1`) to 1 (`q1`).
    pub fraction1: f32,
    /// Where `closest2` sits on the second segment, from 0 (`p2`) to 1 (`q2`).
    pub fraction2: f32,
    /// The squared distance between the closest points (m²).
    pub distance_squared: f32,
}

/// The closest points of the segments `p1`–`q1` and `p2`–`q2` (meters). Zero-length
/// segments are points.
///
/// In the plane, two segments that do not cross have their closest pair at an endpoint of
/// one of them; so the answer is the best of the four endpoint-to-segment projections and,
/// when the segments cross, the crossing. Each projection is computed from the segment's
/// own edge vector, which keeps it exact for short segments, and every answer's fractions
/// locate its closest points.
///
/// Whether the segments cross is decided in f64 (orientation products whose round-off is far
/// below the inputs' precision), and the crossing's second point is the first one's
/// projection onto the second segment: so two long, nearly parallel segments that cross
/// (900 m long, 1e-4 rad apart) are reported at a distance of the coordinates' round-off
/// (about 1e-4 m at 1 km), not at the centimeters by which two separately rounded
/// intersection points slide apart along such lines.
///
/// Errors: [`QueryError::NonFinite`] or [`QueryError::OutOfRange`] for a point that is not
/// finite or not within [`crate::settings::MAX_COORDINATE`].
pub fn segment_distance(p1: Vec2, q1: Vec2, p2: Vec2, q2: Vec2) -> Result<SegmentDistance, QueryError> {
    for (what, p) in [("p1", p1), ("q1", q1), ("p2", p2), ("q2", q2)] {
        check_vector(p, what)?;
    }
    Ok(closest_segment_points(p1, q1, p2, q2))
}

/// [`segment_distance`] for points known to be valid.
pub(crate) fn closest_segment_points(p1: Vec2, q1: Vec2, p2: Vec2, q2: Vec2) -> SegmentDistance {
    let (d1, d2) = (q1 - p1, q2 - p2);
    let mut candidates = [
        (0.0, project(p2, d2, p1)),
        (1.0, project(p2, d2, q1)),
        (project(p1, d1, p2), 0.0),
        (project(p1, d1, q2), 1.0),
        (0.0, 0.0),
    ];
    // A proper crossing is one more candidate.
    if let Some(fractions) = crossing(p1, q1, p2, q2) {
        candidates[4] = fractions;
    }
    let mut best =
        SegmentDistance { closest1: p1, closest2: p2, fraction1: 0.0, fraction2: 0.0, distance_squared: f32::INFINITY };
    for (f1, f2) in candidates {
        let (c1, c2) = (p1 + f1 * d1, p2 + f2 * d2);
        let distance_squared = c1.distance_squared(c2);
        if distance_squared < best.distance_squared {
            best = SegmentDistance { closest1: c1, closest2: c2, fraction1: f1, fraction2: f2, distance_squared };
        }
    }
    best
}

/// [`segment_distance`] with the same checks (`None` for its errors) and bit for bit the same
/// result, with the four endpoint projections and their candidates' distances computed in
/// SIMD lanes, each lane with the scalar code's operations in its order (the candidates are
/// then picked in the scalar order: the first strictly closest). The narrow phase measures
/// the closest edges of every pair of cores that are apart with it (about 280 instructions
/// per call in scalar).
pub(crate) fn segment_distance_lanes(p1: Vec2, q1: Vec2, p2: Vec2, q2: Vec2) -> Option<SegmentDistance> {
    use glam::Vec4;
    // `check_vector` on all four points: finite and within MAX_COORDINATE (NaN fails `<=`).
    let limit = Vec4::splat(crate::settings::MAX_COORDINATE);
    let (first, second) = (Vec4::new(p1.x, p1.y, q1.x, q1.y), Vec4::new(p2.x, p2.y, q2.x, q2.y));
    if !(first.abs().cmple(limit) & second.abs().cmple(limit)).all() {
        return None;
    }
    let (d1, d2) = (q1 - p1, q2 - p2);
    // `project` for candidates 0 to 3: p1 and q1 onto segment 2, p2 and q2 onto segment 1.
    let (ox, oy) = (Vec4::new(p2.x, p2.x, p1.x, p1.x), Vec4::new(p2.y, p2.y, p1.y, p1.y));
    let (ex, ey) = (Vec4::new(d2.x, d2.x, d1.x, d1.x), Vec4::new(d2.y, d2.y, d1.y, d1.y));
    let (px, py) = (Vec4::new(p1.x, q1.x, p2.x, q2.x), Vec4::new(p1.y, q1.y, p2.y, q2.y));
    let length_sq = ex * ex + ey * ey;
    let f = ((px - ox) * ex + (py - oy) * ey) / length_sq;
    // `f32::clamp(0, 1)` (NaN stays NaN), then 0 for a zero-length edge.
    let f = Vec4::select(f.cmplt(Vec4::ZERO), Vec4::ZERO, f);
    let f = Vec4::select(f.cmpgt(Vec4::ONE), Vec4::ONE, f);
    let projected = Vec4::select(length_sq.cmple(Vec4::ZERO), Vec4::ZERO, f);
    let [f0, f1, f2, f3] = projected.to_array();
    let (along1, along2) = (Vec4::new(0.0, 1.0, f2, f3), Vec4::new(f0, f1, 0.0, 1.0));
    let (c1x, c1y) = (Vec4::splat(p1.x) + along1 * d1.x, Vec4::splat(p1.y) + along1 * d1.y);
    let (c2x, c2y) = (Vec4::splat(p2.x) + along2 * d2.x, Vec4::splat(p2.y) + along2 * d2.y);
    let (dx, dy) = (c1x - c2x, c1y - c2y);
    let squared = (dx * dx + dy * dy).to_array();
    let (along1, along2) = (along1.to_array(), along2.to_array());
    let (c1x, c1y, c2x, c2y) = (c1x.to_array(), c1y.to_array(), c2x.to_array(), c2y.to_array());
    let mut best =
        SegmentDistance { closest1: p1, closest2: p2, fraction1: 0.0, fraction2: 0.0, distance_squared: f32::INFINITY };
    for k in 0..4 {
        if squared[k] < best.distance_squared {
            best = SegmentDistance {
                closest1: Vec2::new(c1x[k], c1y[k]),
                closest2: Vec2::new(c2x[k], c2y[k]),
                fraction1: along1[k],
                fraction2: along2[k],
                distance_squared: squared[k],
            };
        }
    }
    // Candidate 4: a proper crossing, or both first endpoints.
    let (g1, g2) = crossing(p1, q1, p2, q2).unwrap_or((0.0, 0.0));
    let (c1, c2) = (p1 + g1 * d1, p2 + g2 * d2);
    let distance_squared = c1.distance_squared(c2);
    if distance_squared < best.distance_squared {
        best = SegmentDistance { closest1: c1, closest2: c2, fraction1: g1, fraction2: g2, distance_squared };
    }
    Some(best)
}

/// Whether the segments `p1`–`q1` and `p2`–`q2` properly cross (each one's ends strictly on
/// both sides of the other's line), and if so the fractions (along the first segment, along
/// the second) of a closest pair: the crossing on the first segment, and its projection onto
/// the second. Rounding each intersection point separately would slide them apart along
/// nearly parallel lines, by the fractions' round-off times the segments' length.
///
/// The orientation products are computed in f64 from the f32 inputs (their differences are
/// exact or nearly so there, and the products round 2^29 times finer than in f32): a sign
/// can only be wrong for a point within about 1e-16 of the segments' lengths of the other's
/// line, far below the inputs' own precision, where either answer is as close.
fn crossing(p1: Vec2, q1: Vec2, p2: Vec2, q2: Vec2) -> Option<(f32, f32)> {
    let wide = |v: Vec2| (v.x as f64, v.y as f64);
    let ((p1x, p1y), (q1x, q1y), (p2x, p2y), (q2x, q2y)) = (wide(p1), wide(q1), wide(p2), wide(q2));
    let cross = |ax: f64, ay: f64, bx: f64, by: f64| ax * by - ay * bx;
    let (d1x, d1y, d2x, d2y) = (q1x - p1x, q1y - p1y, q2x - p2x, q2y - p2y);
    let (o1, o2) = (cross(d1x, d1y, p2x - p1x, p2y - p1y), cross(d1x, d1y, q2x - p1x, q2y - p1y));
    let (o3, o4) = (cross(d2x, d2y, p1x - p2x, p1y - p2y), cross(d2x, d2y, q1x - p2x, q1y - p2y));
    let opposite = |a: f64, b: f64| (a < 0.0 && b > 0.0) || (a > 0.0 && b < 0.0);
    if !(opposite(o1, o2) && opposite(o3, o4)) {
        return None;
    }
    let f1 = ((o3 / (o3 - o4)) as f32).clamp(0.0, 1.0);
    let f2 = project(p2, q2 - p2, p1 + f1 * (q1 - p1));
    Some((f1, f2))
}

/// Whether the segments `p1`–`q1` and `p2`–`q2` properly cross (see [`crossing`]).
pub(crate) fn segments_cross(p1: Vec2, q1: Vec2, p2: Vec2, q2: Vec2) -> bool {
    crossing(p1, q1, p2, q2).is_some()
}

/// The fraction along `origin + f * edge`, f ∈ [0, 1], of the point closest to `point`.
fn project(origin: Vec2, edge: Vec2, point: Vec2) -> f32 {
    let length_sq = edge.length_squared();
    if length_sq <= 0.0 { 0.0 } else { ((point - origin).dot(edge) / length_sq).clamp(0.0, 1.0) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boxed(hw: f32, hh: f32) -> ShapeProxy {
        ShapeProxy::new(&[Vec2::new(-hw, -hh), Vec2::new(hw, -hh), Vec2::new(hw, hh), Vec2::new(-hw, hh)], 0.0).unwrap()
    }

    fn distance(a: &ShapeProxy, xa: Transform, b: &ShapeProxy, xb: Transform) -> DistanceOutput {
        let input = DistanceInput { proxy_a: a, transform_a: xa, proxy_b: b, transform_b: xb };
        shape_distance(&input, &mut SimplexCache::default()).unwrap()
    }

    #[test]
    fn box_above_box() {
        let a = boxed(1.0, 1.0);
        let out = distance(&a, Transform::IDENTITY, &a, Transform::new(Vec2::new(0.3, 2.5), 0.0));
        assert!((out.distance - 0.5).abs() < 1e-6);
        assert!((out.normal - Vec2::Y).length() < 1e-6);
        assert!((out.point_b.y - out.point_a.y - 0.5).abs() < 1e-6);
    }

    #[test]
    fn rounded_shapes_subtract_radii_and_overlap_clamps_to_zero() {
        let circle = ShapeProxy::new(&[Vec2::ZERO], 0.5).unwrap();
        let out = distance(&circle, Transform::IDENTITY, &circle, Transform::new(Vec2::new(3.0, 4.0), 0.0));
        assert!((out.distance - 4.0).abs() < 1e-6);
        assert!((out.point_a - Vec2::new(0.3, 0.4)).length() < 1e-6);
        let a = boxed(1.0, 1.0);
        let out = distance(&a, Transform::IDENTITY, &a, Transform::new(Vec2::new(0.5, 0.5), 0.3));
        assert_eq!((out.distance, out.normal), (0.0, Vec2::ZERO));
    }

    #[test]
    fn warm_start_reuses_features() {
        let a = boxed(1.0, 1.0);
        let mut cache = SimplexCache::default();
        let mut input = DistanceInput {
            proxy_a: &a,
            transform_a: Transform::IDENTITY,
            proxy_b: &a,
            transform_b: Transform::new(Vec2::new(0.2, 3.0), 0.1),
        };
        let cold = shape_distance(&input, &mut cache).unwrap();
        input.transform_b = Transform::new(Vec2::new(0.21, 3.0), 0.1);
        let warm = shape_distance(&input, &mut cache).unwrap();
        assert!(warm.iterations <= cold.iterations);
        assert!((warm.distance - cold.distance).abs() < 1e-3);
    }

    #[test]
    fn invalid_transforms_and_points_are_errors() {
        let a = boxed(1.0, 1.0);
        let mut bad = Transform::IDENTITY;
        bad.q.c = 2.0;
        let input = DistanceInput { proxy_a: &a, transform_a: Transform::IDENTITY, proxy_b: &a, transform_b: bad };
        assert!(shape_distance(&input, &mut SimplexCache::default()).is_err());
        bad = Transform::new(Vec2::new(f32::NAN, 0.0), 0.0);
        let input = DistanceInput { transform_b: bad, ..input };
        assert!(shape_distance(&input, &mut SimplexCache::default()).is_err());
        assert!(segment_distance(Vec2::ZERO, Vec2::new(1e30, 0.0), Vec2::ONE, Vec2::Y).is_err());
    }

    #[test]
    fn segment_distance_in_lanes_is_the_scalar_one_bit_for_bit() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let point = |rng: &mut rand_chacha::ChaCha8Rng, scale: f32| {
            Vec2::new(rng.random_range(-scale..scale), rng.random_range(-scale..scale))
        };
        let bits = |r: &SegmentDistance| {
            [r.closest1.x, r.closest1.y, r.closest2.x, r.closest2.y, r.fraction1, r.fraction2, r.distance_squared]
                .map(f32::to_bits)
        };
        let mut kinds = [0; 4];
        for i in 0..200_000 {
            let scale = [1.0, 3.0, 1000.0][i % 3];
            let (p1, mut q1, mut p2, mut q2) =
                (point(&mut rng, scale), point(&mut rng, scale), point(&mut rng, scale), point(&mut rng, scale));
            match i % 8 {
                // Parallel and offset (box faces side by side), sometimes overlapping.
                0 | 1 => {
                    let offset = Vec2::new(rng.random_range(-0.1f32..0.1), rng.random_range(-0.1f32..0.1));
                    (p2, q2) = (q1 + offset, p1 + offset);
                }
                // A zero-length segment.
                2 => q1 = p1,
                3 => q2 = p2,
                // Sharing an endpoint.
                4 => p2 = q1,
                _ => {}
            }
            let scalar = segment_distance(p1, q1, p2, q2).ok();
            let lanes = segment_distance_lanes(p1, q1, p2, q2);
            assert_eq!(scalar.map(|r| bits(&r)), lanes.map(|r| bits(&r)), "{p1} {q1} {p2} {q2}");
            let r = lanes.unwrap();
            let at_end = |f: f32| f == 0.0 || f == 1.0;
            kinds[usize::from(at_end(r.fraction1)) * 2 + usize::from(at_end(r.fraction2))] += 1;
        }
        // Every kind of closest pair was met: interior-interior (crossings), edge-vertex both
        // ways, vertex-vertex.
        assert!(kinds.iter().all(|&k| k > 1000), "{kinds:?}");
        // Refused like the scalar one: non-finite or out of range.
        for bad in [f32::NAN, f32::INFINITY, 2.0 * crate::settings::MAX_COORDINATE] {
            let p = Vec2::new(bad, 0.0);
            assert!(segment_distance(Vec2::ZERO, p, Vec2::ONE, Vec2::Y).is_err());
            assert!(segment_distance_lanes(Vec2::ZERO, p, Vec2::ONE, Vec2::Y).is_none());
            assert!(segment_distance_lanes(Vec2::ZERO, Vec2::X, Vec2::ONE, -p).is_none());
        }
    }

    #[test]
    fn segments_crossing_parallel_and_apart() {
        let r = segment_distance(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), Vec2::new(0.5, -1.0), Vec2::new(0.5, 1.0))
            .unwrap();
        assert_eq!(r.distance_squared, 0.0);
        assert!((r.closest1 - Vec2::new(0.5, 0.0)).length() < 1e-6);
        assert!((r.fraction1 - 0.75).abs() < 1e-6 && (r.fraction2 - 0.5).abs() < 1e-6);
        // Nearly parallel and touching (found by the f64 reference): fractions agree with
        // the points.
        let bits = |x: u32| f32::from_bits(x);
        let (p1, q1) = (Vec2::new(bits(0xbf316775), bits(0x3f63a9ad)), Vec2::new(bits(0xbfab3eb3), bits(0x3fb042e7)));
        let (p2, q2) = (Vec2::new(bits(0xbf8cbefc), bits(0x3f9931aa)), Vec2::new(bits(0xbf99768c), bits(0x3fa2cff5)));
        let r = segment_distance(p1, q1, p2, q2).unwrap();
        assert!(r.distance_squared < 1e-12, "{r:?}");
        assert!((p1 + r.fraction1 * (q1 - p1) - r.closest1).length() < 1e-6);
        assert!((p2 + r.fraction2 * (q2 - p2) - r.closest2).length() < 1e-6, "{r:?}");
        let r = segment_distance(Vec2::ZERO, Vec2::new(2.0, 0.0), Vec2::new(1.0, 0.5), Vec2::new(3.0, 0.5)).unwrap();
        assert!((r.distance_squared - 0.25).abs() < 1e-6);
        let r = segment_distance(Vec2::ZERO, Vec2::ZERO, Vec2::new(-1.0, 1.0), Vec2::new(1.0, 1.0)).unwrap();
        assert!((r.closest2 - Vec2::new(0.0, 1.0)).length() < 1e-6);
    }
}
