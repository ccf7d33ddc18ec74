//! The distance between two convex shapes by GJK, in 3D.
//!
//! Source: Gilbert, Johnson and Keerthi, "A fast procedure for computing the distance between
//! complex objects in three-dimensional space", 1988; van den Bergen, "A Fast and Robust GJK
//! Implementation for Collision Detection of Convex Objects", 1999 (the termination tests);
//! the closest point of a simplex by its Voronoi regions, as Ericson, Real-Time Collision
//! Detection, 5.1.2, 5.1.5 and 5.1.6 (the regions Johnson's sub-algorithm enumerates, tested
//! directly, in f64).
//!
//! All work happens in A's frame (B placed relative to A), and the simplex is solved in f64
//! on differences of its vertices, so small features far from the origin are resolved as
//! near it.

use glam::{DVec3, Mat3A, Vec3A};

use super::error::QueryError;
use super::proxy::ShapeProxy;
use crate::math::{Transform, Vec3};
use crate::settings::MAX_COORDINATE;

/// GJK iterations after which the search stops where it is.
const MAX_ITERATIONS: u32 = 64;

/// Two shapes placed in the world.
#[derive(Clone, Copy, Debug)]
pub struct DistanceInput<'a> {
    /// Shape A.
    pub proxy_a: &'a ShapeProxy,
    /// A's pose.
    pub transform_a: Transform,
    /// Shape B.
    pub proxy_b: &'a ShapeProxy,
    /// B's pose.
    pub transform_b: Transform,
}

/// The features a query ended on (indices into the proxies' points), to start the next query
/// on the same pair from them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SimplexCache {
    /// How many vertices (0 for a cold start, up to 4).
    pub count: u8,
    /// The points of A.
    pub index_a: [u8; 4],
    /// The points of B.
    pub index_b: [u8; 4],
}

/// The answer of [`shape_distance`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DistanceOutput {
    /// The closest point of A's surface (meters, world).
    pub point_a: Vec3,
    /// The closest point of B's surface (meters, world).
    pub point_b: Vec3,
    /// The unit direction from A to B (zero when the shapes overlap).
    pub normal: Vec3,
    /// The distance between the surfaces (meters, 0 when they touch or overlap).
    pub distance: f32,
    /// GJK iterations.
    pub iterations: u32,
}

/// A vertex of the simplex: the difference of a point of B and a point of A (A's frame, f64)
/// with the points' indices. The points themselves are placed again from the indices only
/// for the closest points at the end: the search needs only their difference, and a small
/// vertex keeps the simplex cheap to copy and reduce.
#[derive(Clone, Copy, Debug, Default)]
struct Vertex {
    w: DVec3,
    index_a: u8,
    index_b: u8,
}

/// The distance between two shapes by GJK on their cores, minus their radii.
///
/// The cache starts the search from the features of the previous query on the same pair and
/// is updated with the final ones (a cache with indices beyond the proxies is ignored).
/// Overlapping cores give distance 0, a zero normal and the points where the search stopped.
///
/// Errors: [`QueryError::NonFinite`] for a transform that is not finite or whose rotation
/// is not a unit quaternion, or whose position is beyond
/// [`MAX_COORDINATE`](crate::settings::MAX_COORDINATE).
pub fn shape_distance(input: &DistanceInput, cache: &mut SimplexCache) -> Result<DistanceOutput, QueryError> {
    measure(input, cache, (input.proxy_a.radius() as f64, input.proxy_b.radius() as f64))
}

/// [`shape_distance`] of the cores, the radii left out: what casts, penetration and the time
/// of impact measure (their bands and depths add the radii themselves).
pub(crate) fn core_distance(input: &DistanceInput, cache: &mut SimplexCache) -> Result<DistanceOutput, QueryError> {
    measure(input, cache, (0.0, 0.0))
}

/// [`core_distance`] of poses known to be valid, unchecked: the time of impact's poses, taken
/// from sweeps it checked once per query (finite, unit rotations, centers within
/// [`MAX_COORDINATE`]), not twice on every GJK call.
pub(crate) fn core_distance_of_valid(input: &DistanceInput, cache: &mut SimplexCache) -> DistanceOutput {
    measure_valid(input, cache, (0.0, 0.0))
}

/// The distance of the pair less the radii `(ra, rb)` (meters).
fn measure(input: &DistanceInput, cache: &mut SimplexCache, radii: (f64, f64)) -> Result<DistanceOutput, QueryError> {
    for (xf, what) in [(input.transform_a, "transform_a"), (input.transform_b, "transform_b")] {
        if !xf.is_valid() || xf.p.abs().max_element() > MAX_COORDINATE {
            return Err(QueryError::NonFinite { what });
        }
    }
    Ok(measure_valid(input, cache, radii))
}

/// [`measure`] of poses already checked.
fn measure_valid(input: &DistanceInput, cache: &mut SimplexCache, (ra, rb): (f64, f64)) -> DistanceOutput {
    let pair = Pair::new(input.proxy_a, input.proxy_b, input.transform_a.inv_mul(input.transform_b));
    let (simplex, iterations) = pair.search(cache);
    *cache = simplex.cache();
    let (pa, pb) = simplex.closest_points(&pair);
    let gap = pb - pa;
    let core = gap.length();
    let to_world = |p: DVec3| input.transform_a.apply(p.as_vec3());
    if simplex.overlap || core == 0.0 {
        return DistanceOutput {
            point_a: to_world(pa),
            point_b: to_world(pb),
            normal: Vec3::ZERO,
            distance: 0.0,
            iterations,
        };
    }
    let n = gap / core;
    let distance = (core - ra - rb).max(0.0);
    // On the surfaces; for touching rounded shapes both at the middle of the core gap.
    let (sa, sb) = if distance > 0.0 {
        (pa + n * ra, pb - n * rb)
    } else {
        let m = (pa + pb) * 0.5;
        (m, m)
    };
    DistanceOutput {
        point_a: to_world(sa),
        point_b: to_world(sb),
        normal: input.transform_a.q * n.as_vec3(),
        distance: distance as f32,
        iterations,
    }
}

/// The two proxies, B placed in A's frame.
///
/// The relative rotation is held as a matrix and its transpose: a search rotates a point of B
/// into A's frame and a direction into B's frame on every step (ten to twenty rotations a
/// call), and a matrix does each in about a third of a quaternion's instructions; building
/// it costs about one rotation.
struct Pair<'a> {
    a: &'a ShapeProxy,
    b: &'a ShapeProxy,
    /// B's frame to A's.
    rotation: Mat3A,
    /// A's frame to B's (the transpose).
    inverse: Mat3A,
    /// B's origin in A's frame (meters).
    offset: Vec3A,
}

impl<'a> Pair<'a> {
    /// The pair with B at `relative` in A's frame.
    fn new(a: &'a ShapeProxy, b: &'a ShapeProxy, relative: Transform) -> Pair<'a> {
        let rotation = Mat3A::from_quat(relative.q);
        Pair { a, b, rotation, inverse: rotation.transpose(), offset: relative.p.into() }
    }

    /// Point `index` of A (A's frame).
    fn point_a(&self, index: usize) -> DVec3 {
        self.a.points()[index].as_dvec3()
    }

    /// Point `index` of B, placed in A's frame.
    fn point_b(&self, index: usize) -> DVec3 {
        (self.rotation * Vec3A::from(self.b.points()[index]) + self.offset).as_dvec3()
    }

    fn vertex(&self, index_a: usize, index_b: usize) -> Vertex {
        let w = self.point_b(index_b) - self.point_a(index_a);
        Vertex { w, index_a: index_a as u8, index_b: index_b as u8 }
    }

    /// The support vertex of B − A along `d` (A's frame).
    // Inlined (GJK's inner step): the call and its returned vertex cost a fifth of it.
    #[inline(always)]
    fn support(&self, d: DVec3) -> Vertex {
        let d32 = d.as_vec3();
        let index_a = self.a.support(-d32);
        let index_b = self.b.support((self.inverse * Vec3A::from(d32)).into());
        self.vertex(index_a, index_b)
    }

    /// The first vertex of a search without a cache: the support of B − A towards A's origin
    /// from B's, the points of each body facing the other. Most pairs are then a step or two
    /// from their closest features, where an arbitrary pair of points (B's first minus A's
    /// first) takes four to six.
    fn cold_start(&self) -> Vertex {
        let d = self.offset.as_dvec3();
        if d == DVec3::ZERO { self.vertex(0, 0) } else { self.support(-d) }
    }

    /// GJK from the cache (or from [`Self::cold_start`]).
    fn search(&self, cache: &SimplexCache) -> (Simplex, u32) {
        let mut simplex = Simplex::default();
        let valid = |i: u8, n: usize| (i as usize) < n;
        for k in 0..cache.count.min(4) as usize {
            let (ia, ib) = (cache.index_a[k], cache.index_b[k]);
            if valid(ia, self.a.points().len()) && valid(ib, self.b.points().len()) {
                simplex.push(self.vertex(ia as usize, ib as usize));
            }
        }
        if simplex.count == 0 {
            simplex.push(self.cold_start());
        }
        let mut iterations = 0;
        while iterations < MAX_ITERATIONS {
            iterations += 1;
            let v = simplex.solve();
            if simplex.overlap {
                break;
            }
            let vv = v.length_squared();
            if vv == 0.0 {
                simplex.overlap = true;
                break;
            }
            let w = self.support(-v);
            // The same features again, or no progress toward the origin beyond round-off:
            // v is the closest point.
            if simplex.holds(&w) || vv - v.dot(w.w) <= 1.0e-12 * vv.max(w.w.length_squared()) {
                break;
            }
            simplex.push(w);
        }
        (simplex, iterations)
    }
}

/// The simplex: up to four vertices with the barycentric weights of its closest point.
///
/// The differences and the indices are kept apart: the sub-algorithm reads the differences
/// in place (no copy into an array of its own on every step), and a reduction that keeps
/// the vertices where they are (the whole simplex, its first vertex or first edge, the most
/// common outcomes) moves nothing.
#[derive(Clone, Copy, Debug, Default)]
struct Simplex {
    /// The vertices' differences (B − A, A's frame, f64); zero beyond `count` at first.
    w: [DVec3; 4],
    /// The vertices' point indices (A's, B's).
    index: [(u8, u8); 4],
    weights: [f64; 4],
    count: usize,
    overlap: bool,
}

impl Simplex {
    fn push(&mut self, v: Vertex) {
        if self.count < 4 {
            self.w[self.count] = v.w;
            self.index[self.count] = (v.index_a, v.index_b);
            self.count += 1;
        }
    }

    fn holds(&self, v: &Vertex) -> bool {
        self.index[..self.count].contains(&(v.index_a, v.index_b))
    }

    fn cache(&self) -> SimplexCache {
        let mut c = SimplexCache { count: self.count as u8, ..Default::default() };
        for (i, &(ia, ib)) in self.index[..self.count].iter().enumerate() {
            c.index_a[i] = ia;
            c.index_b[i] = ib;
        }
        c
    }

    /// The closest points of A and B (A's frame): the weighted vertices' points.
    fn closest_points(&self, pair: &Pair) -> (DVec3, DVec3) {
        let (mut a, mut b) = (DVec3::ZERO, DVec3::ZERO);
        for (&(ia, ib), &weight) in self.index[..self.count].iter().zip(&self.weights) {
            a += pair.point_a(ia as usize) * weight;
            b += pair.point_b(ib as usize) * weight;
        }
        (a, b)
    }

    /// Reduces the simplex to the vertices of the feature holding its point closest to the
    /// origin, sets their weights and returns that point. A tetrahedron holding the origin
    /// sets `overlap`.
    fn solve(&mut self) -> DVec3 {
        let w = &self.w;
        let feature = match self.count {
            1 => Feature::vertex(0),
            2 => segment(w, [0, 1]),
            3 => triangle(w, [0, 1, 2]),
            _ => match tetrahedron(w) {
                Some(found) => found,
                None => {
                    self.overlap = true;
                    // Any point inside: the centroid, for closest points that mean little.
                    self.weights = [0.25; 4];
                    return DVec3::ZERO;
                }
            },
        };
        let point = feature.point(w);
        let kept = &feature.ids[..feature.count];
        if kept.iter().enumerate().any(|(k, &id)| id != k) {
            let (w, index) = (self.w, self.index);
            for (k, &id) in kept.iter().enumerate() {
                self.w[k] = w[id];
                self.index[k] = index[id];
            }
        }
        self.weights = feature.weights;
        self.count = feature.count;
        point
    }
}

/// The feature of a simplex holding its point closest to the origin: up to four of its
/// vertices (their positions in the simplex) and their barycentric weights (zero beyond
/// `count`).
#[derive(Clone, Copy, Debug)]
struct Feature {
    ids: [usize; 4],
    weights: [f64; 4],
    count: usize,
}

impl Feature {
    fn vertex(i: usize) -> Feature {
        Feature { ids: [i, 0, 0, 0], weights: [1.0, 0.0, 0.0, 0.0], count: 1 }
    }

    fn edge(i: usize, j: usize, t: f64) -> Feature {
        Feature { ids: [i, j, 0, 0], weights: [1.0 - t, t, 0.0, 0.0], count: 2 }
    }

    /// The point: the weighted vertices of `w` (the simplex's, by position).
    // Inlined into every caller: a call costs as much as its dozen flops.
    #[inline(always)]
    fn point(&self, w: &[DVec3; 4]) -> DVec3 {
        let mut p = DVec3::ZERO;
        for k in 0..self.count {
            p += w[self.ids[k]] * self.weights[k];
        }
        p
    }
}

/// The closest point to the origin of the segment `w[i]`–`w[j]`.
fn segment(w: &[DVec3; 4], [i, j]: [usize; 2]) -> Feature {
    let (a, b) = (w[i], w[j]);
    let ab = b - a;
    let t = -a.dot(ab);
    if t <= 0.0 {
        return Feature::vertex(i);
    }
    let denom = ab.length_squared();
    if t >= denom {
        return Feature::vertex(j);
    }
    Feature::edge(i, j, t / denom)
}

/// The closest point to the origin of the triangle `w[i]`, `w[j]`, `w[k]` by its Voronoi
/// regions.
// Inlined into its two callers (a triangle simplex, a tetrahedron's faces): its result
// is read field by field right away.
#[inline(always)]
fn triangle(w: &[DVec3; 4], [i, j, k]: [usize; 3]) -> Feature {
    let (a, b, c) = (w[i], w[j], w[k]);
    let (ab, ac, ap) = (b - a, c - a, -a);
    let (d1, d2) = (ab.dot(ap), ac.dot(ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return Feature::vertex(i);
    }
    let bp = -b;
    let (d3, d4) = (ab.dot(bp), ac.dot(bp));
    if d3 >= 0.0 && d4 <= d3 {
        return Feature::vertex(j);
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return Feature::edge(i, j, d1 / (d1 - d3));
    }
    let cp = -c;
    let (d5, d6) = (ab.dot(cp), ac.dot(cp));
    if d6 >= 0.0 && d5 <= d6 {
        return Feature::vertex(k);
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return Feature::edge(i, k, d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        return Feature::edge(j, k, (d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    let denom = va + vb + vc;
    if denom <= 0.0 {
        // Degenerate (collinear) triangle: its best edge.
        return closest(w, [segment(w, [i, j]), segment(w, [i, k]), segment(w, [j, k])]);
    }
    let (v, t) = (vb / denom, vc / denom);
    Feature { ids: [i, j, k, 0], weights: [1.0 - v - t, v, t, 0.0], count: 3 }
}

/// The closest point to the origin of the tetrahedron `w`: `None` when the origin is inside.
/// Only the faces with the origin beyond them (on the side away from the opposite vertex),
/// or every face of a flat tetrahedron, can hold it; the closest of their points wins (the
/// first of equals).
fn tetrahedron(w: &[DVec3; 4]) -> Option<Feature> {
    const FACES: [[usize; 4]; 4] = [[0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2], [1, 3, 2, 0]];
    let mut best: Option<(f64, Feature)> = None;
    for [i, j, k, opposite] in FACES {
        let n = (w[j] - w[i]).cross(w[k] - w[i]);
        let side_opposite = n.dot(w[opposite] - w[i]);
        if side_opposite == 0.0 || n.dot(-w[i]) * side_opposite < 0.0 {
            let f = triangle(w, [i, j, k]);
            let d = f.point(w).length_squared();
            if best.is_none_or(|(b, _)| d < b) {
                best = Some((d, f));
            }
        }
    }
    best.map(|(_, f)| f)
}

/// The candidate whose point is closest to the origin (the first of equals).
fn closest<const N: usize>(w: &[DVec3; 4], candidates: [Feature; N]) -> Feature {
    let mut best: Option<(f64, Feature)> = None;
    for f in candidates {
        let d = f.point(w).length_squared();
        if best.is_none_or(|(b, _)| d < b) {
            best = Some((d, f));
        }
    }
    best.map_or(Feature::vertex(0), |(_, f)| f)
}
