//! Shapes as seen by the pair functions, in the local frame of a pair: a circle is a point
//! with a radius; polygons, capsules and segments are polygon cores with a radius (a capsule
//! or segment is a two-vertex polygon whose two edges are the segment walked both ways).

use crate::geometry::{Polygon, Shape};
use crate::math::{Transform, Vec2, columns};
use crate::settings::MAX_POLYGON_VERTICES;
use glam::Vec4;

/// A convex polygon core of 2 to 8 vertices, counter-clockwise, inflated by `radius`, in
/// the local frame of a pair. `normals[i]` is the outward unit normal of the edge from
/// `vertices[i]` to `vertices[i + 1]`. With two vertices the edges are `0 → 1` and `1 → 0`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Core {
    pub vertices: [Vec2; MAX_POLYGON_VERTICES],
    pub normals: [Vec2; MAX_POLYGON_VERTICES],
    pub count: usize,
    /// Rounding radius (meters).
    pub radius: f32,
    /// Area centroid of the core (a two-vertex core: its midpoint).
    pub centroid: Vec2,
    /// For a core of at most four vertices, the vertices and normals in four lanes (slots
    /// past `count` repeat slot 0), for the separating axis test; unused for larger cores.
    pub lanes: Lanes,
}

/// Up to four vertices and their edge normals as columns of x and y coordinates.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lanes {
    pub vx: Vec4,
    pub vy: Vec4,
    pub nx: Vec4,
    pub ny: Vec4,
}

impl Lanes {
    pub const ZERO: Lanes = Lanes { vx: Vec4::ZERO, vy: Vec4::ZERO, nx: Vec4::ZERO, ny: Vec4::ZERO };

    /// The first four of `vertices` and `normals` (`count` valid, slots past it repeat slot 0).
    fn gather(vertices: &[Vec2; MAX_POLYGON_VERTICES], normals: &[Vec2; MAX_POLYGON_VERTICES], count: usize) -> Lanes {
        let k = |i: usize| if i < count { i } else { 0 };
        let (v, n) = (|i: usize| vertices[k(i)], |i: usize| normals[k(i)]);
        Lanes {
            vx: Vec4::new(v(0).x, v(1).x, v(2).x, v(3).x),
            vy: Vec4::new(v(0).y, v(1).y, v(2).y, v(3).y),
            nx: Vec4::new(n(0).x, n(1).x, n(2).x, n(3).x),
            ny: Vec4::new(n(0).y, n(1).y, n(2).y, n(3).y),
        }
    }

    /// The four vertices and normals of polygon `p` (which has four) mapped by `xf`, with the
    /// scalar mapping's operations in the same order per lane.
    #[inline]
    pub fn quad(p: &Polygon, xf: Transform) -> Lanes {
        let ((vx, vy), (nx, ny)) = (columns(p.vertices()), columns(p.normals()));
        let (px, py) = (Vec4::splat(xf.p.x), Vec4::splat(xf.p.y));
        if xf.q.c == 1.0 && xf.q.s == 0.0 {
            // Shape A of a pair is only translated into the pair's frame: skip the rotation.
            Lanes { vx: vx + px, vy: vy + py, nx, ny }
        } else {
            let (c, s) = (Vec4::splat(xf.q.c), Vec4::splat(xf.q.s));
            Lanes { vx: (c * vx - s * vy) + px, vy: (s * vx + c * vy) + py, nx: c * nx - s * ny, ny: s * nx + c * ny }
        }
    }

    /// The lane of the normal most anti-parallel to `normal` (the first least `normal · n`):
    /// [`Core::incident_edge`] in lanes. Padding lanes repeat normal 0, so they never win.
    #[inline]
    pub fn incident_edge(&self, normal: Vec2) -> usize {
        first_least(Vec4::splat(normal.x) * self.nx + Vec4::splat(normal.y) * self.ny)
    }

    /// [`max_separation`] of these edges against `other`'s four vertices (padding repeats
    /// vertex 0): each lane keeps the least `n · (v - origin)` over the vertices, with the scalar
    /// loop's operations; the edge is then picked in the scalar loop's order (the first
    /// greatest). Padding lanes repeat edge 0 and are never picked.
    #[inline]
    pub fn max_separation(&self, other: &Lanes) -> (usize, f32) {
        let (xs, ys) = (other.vx.to_array(), other.vy.to_array());
        let mut least = Vec4::INFINITY;
        for j in 0..4 {
            least = least.min(self.distances(xs[j], ys[j]));
        }
        first_greatest(least)
    }

    /// The signed distances `n · (v - origin)` of the point (`x`, `y`) to the four edge lines.
    #[inline]
    fn distances(&self, x: f32, y: f32) -> Vec4 {
        self.nx * (Vec4::splat(x) - self.vx) + self.ny * (Vec4::splat(y) - self.vy)
    }
}

/// The first lane holding the greatest value, and that value: the scalar scan from
/// `(0, -inf)` keeping a lane only when it is greater (NaN lanes never win; all NaN or -inf
/// gives `(0, -inf)`; of equal values, -0 and +0 included, the first wins), bit for bit,
/// without its four compares and branches. NaN lanes become -inf, the greatest is found in
/// lanes and its first lane by a mask of the lanes equal to it.
#[inline]
pub(crate) fn first_greatest(lanes: Vec4) -> (usize, f32) {
    let clean = lanes.max(Vec4::NEG_INFINITY);
    let i = first_equal(clean, clean.max_element());
    (i, clean.as_ref()[i])
}

/// The first lane holding the least value, as the scalar scan from `(0, +inf)` keeping a
/// lane only when it is less (NaN lanes never win; all NaN or +inf gives lane 0); see
/// [`first_greatest`].
#[inline]
pub(crate) fn first_least(lanes: Vec4) -> usize {
    let clean = lanes.min(Vec4::INFINITY);
    first_equal(clean, clean.min_element())
}

/// The first lane of `lanes` equal to `value`, which is one of them (not NaN).
#[inline]
fn first_equal(lanes: Vec4, value: f32) -> usize {
    // The extra bit keeps the count in range should no lane match.
    (lanes.cmpeq(Vec4::splat(value)).bitmask() | 0b1_0000).trailing_zeros() as usize & 3
}

/// What clipping and the touching and apart paths read of a core: its vertices, edge normals
/// and radius. Implemented by [`Core`] and by the four-vertex cores of box pairs, so one
/// routine serves both with the same operations.
pub(crate) trait Corners {
    /// Vertex `i` (local frame).
    fn vertex(&self, i: usize) -> Vec2;
    /// The outward unit normal of the edge from vertex `i` to the next.
    fn normal(&self, i: usize) -> Vec2;
    /// The index of the vertex after `i`.
    fn next(&self, i: usize) -> usize;
    /// Rounding radius (meters).
    fn radius(&self) -> f32;
    /// The edge whose normal is most anti-parallel to `normal` (see [`Core::incident_edge`]).
    fn incident_edge(&self, normal: Vec2) -> usize;
    /// The vertex deepest along `-normal` relative to `origin` (see [`Core::deepest`]).
    fn deepest(&self, normal: Vec2, origin: Vec2) -> (usize, f32);
    /// Of the two edges of a segment core, the one facing `direction`; any other core keeps
    /// `edge` (see [`Core::edge_facing`]).
    fn edge_facing(&self, edge: usize, direction: Vec2) -> usize;
}

impl Corners for Core {
    #[inline]
    fn vertex(&self, i: usize) -> Vec2 {
        self.vertices[i]
    }

    #[inline]
    fn normal(&self, i: usize) -> Vec2 {
        self.normals[i]
    }

    #[inline]
    fn next(&self, i: usize) -> usize {
        Core::next(self, i)
    }

    #[inline]
    fn radius(&self) -> f32 {
        self.radius
    }

    #[inline]
    fn incident_edge(&self, normal: Vec2) -> usize {
        Core::incident_edge(self, normal)
    }

    #[inline]
    fn deepest(&self, normal: Vec2, origin: Vec2) -> (usize, f32) {
        Core::deepest(self, normal, origin)
    }

    #[inline]
    fn edge_facing(&self, edge: usize, direction: Vec2) -> usize {
        Core::edge_facing(self, edge, direction)
    }
}

/// A shape in the local frame of a pair.
// A boxed core would allocate per pair; the enum lives on the stack of one pair computation.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug)]
pub(crate) enum Convex {
    /// A circle: center (local frame) and radius (meters).
    Circle(Vec2, f32),
    /// Anything with corners or a core segment.
    Core(Core),
}

impl Convex {
    /// `shape` placed in the local frame by `xf` (its body coordinates → local).
    pub fn of(shape: &Shape, xf: Transform) -> Convex {
        match shape {
            Shape::Circle(c) => Convex::Circle(xf.apply(c.center()), c.radius()),
            Shape::Capsule(c) => Convex::Core(Core::segment(c.center1(), c.center2(), c.radius(), xf)),
            Shape::Polygon(p) => Convex::Core(Core::polygon(p, xf)),
            Shape::Segment(s) => Convex::Core(Core::segment(s.point1(), s.point2(), 0.0, xf)),
            Shape::ChainSegment(c) => Convex::Core(Core::segment(c.segment().point1(), c.segment().point2(), 0.0, xf)),
        }
    }

    /// The center of mass of the shape's area (local frame), used by one-sided tests.
    pub fn centroid(&self) -> Vec2 {
        match self {
            Convex::Circle(center, _) => *center,
            Convex::Core(core) => core.centroid,
        }
    }
}

impl Core {
    /// The core of polygon `p` mapped by `xf`.
    #[inline]
    pub fn polygon(p: &Polygon, xf: Transform) -> Core {
        let count = p.vertices().len();
        if count == 4 {
            return Core::quad(p, xf);
        }
        let mut core = Core {
            vertices: [Vec2::ZERO; MAX_POLYGON_VERTICES],
            normals: [Vec2::ZERO; MAX_POLYGON_VERTICES],
            count,
            radius: p.radius(),
            centroid: xf.apply(p.centroid()),
            lanes: Lanes::ZERO,
        };
        if xf.q.c == 1.0 && xf.q.s == 0.0 {
            // Shape A of a pair is only translated into the pair's frame: skip the rotation.
            for (i, (&v, &n)) in p.vertices().iter().zip(p.normals()).enumerate() {
                core.vertices[i] = v + xf.p;
                core.normals[i] = n;
            }
        } else {
            for (i, (&v, &n)) in p.vertices().iter().zip(p.normals()).enumerate() {
                core.vertices[i] = xf.apply(v);
                core.normals[i] = xf.q.rotate(n);
            }
        }
        core.with_lanes()
    }

    /// The core with its [`Lanes`] filled from its vertices and normals (at most four of them).
    pub fn with_lanes(mut self) -> Core {
        if self.count <= 4 {
            self.lanes = Lanes::gather(&self.vertices, &self.normals, self.count);
        }
        self
    }

    /// [`Core::polygon`] for four vertices (boxes): mapped in lanes ([`Lanes::quad`]), then
    /// written out as vertices and normals.
    #[inline]
    fn quad(p: &Polygon, xf: Transform) -> Core {
        Core::from_lanes(Lanes::quad(p, xf), p.radius(), xf.apply(p.centroid()))
    }

    /// The four-vertex core whose vertices and normals are `lanes`, with `radius` (meters) and
    /// area `centroid` (local frame).
    #[inline]
    pub fn from_lanes(lanes: Lanes, radius: f32, centroid: Vec2) -> Core {
        let mut core = Core {
            vertices: [Vec2::ZERO; MAX_POLYGON_VERTICES],
            normals: [Vec2::ZERO; MAX_POLYGON_VERTICES],
            count: 4,
            radius,
            centroid,
            lanes,
        };
        let (lvx, lvy, lnx, lny) = (lanes.vx.to_array(), lanes.vy.to_array(), lanes.nx.to_array(), lanes.ny.to_array());
        for i in 0..4 {
            core.vertices[i] = Vec2::new(lvx[i], lvy[i]);
            core.normals[i] = Vec2::new(lnx[i], lny[i]);
        }
        core
    }

    /// The two-vertex core of the segment `p1`–`p2` (body coordinates, mapped by `xf`)
    /// with `radius`. Edge 0 runs from `p1` to `p2`; its normal is the right perpendicular
    /// of that direction (a chain segment's colliding side).
    pub fn segment(p1: Vec2, p2: Vec2, radius: f32, xf: Transform) -> Core {
        let (a, b) = (xf.apply(p1), xf.apply(p2));
        let d = b - a;
        let normal = Vec2::new(d.y, -d.x).normalize();
        let mut core = Core {
            vertices: [Vec2::ZERO; MAX_POLYGON_VERTICES],
            normals: [Vec2::ZERO; MAX_POLYGON_VERTICES],
            count: 2,
            radius,
            centroid: 0.5 * (a + b),
            lanes: Lanes::ZERO,
        };
        core.vertices[0] = a;
        core.vertices[1] = b;
        core.normals[0] = normal;
        core.normals[1] = -normal;
        core.with_lanes()
    }

    /// The index of the vertex after `i`.
    #[inline]
    pub fn next(&self, i: usize) -> usize {
        if i + 1 < self.count { i + 1 } else { 0 }
    }

    /// True for a capsule or segment core.
    #[inline]
    pub fn is_segment(&self) -> bool {
        self.count == 2
    }

    /// The vertex of the core deepest along `-normal` relative to `origin`: its index and
    /// signed distance `normal · (v - origin)`.
    pub fn deepest(&self, normal: Vec2, origin: Vec2) -> (usize, f32) {
        let mut best = (0, f32::INFINITY);
        for (i, &v) in self.vertices[..self.count].iter().enumerate() {
            let s = normal.dot(v - origin);
            if s < best.1 {
                best = (i, s);
            }
        }
        best
    }

    /// The edge whose normal is most anti-parallel to `normal`: the incident edge for a
    /// reference face with that normal. It holds the vertex deepest along `-normal`.
    pub fn incident_edge(&self, normal: Vec2) -> usize {
        if self.count <= 4 {
            return self.lanes.incident_edge(normal);
        }
        let mut best = (0, f32::INFINITY);
        for (i, &n) in self.normals[..self.count].iter().enumerate() {
            let d = normal.dot(n);
            if d < best.1 {
                best = (i, d);
            }
        }
        best.0
    }

    /// Of the two edges of a segment core, the one whose normal faces `direction`; any
    /// other core keeps `edge`.
    #[inline]
    pub fn edge_facing(&self, edge: usize, direction: Vec2) -> usize {
        if self.is_segment() && self.normals[edge].dot(direction) < 0.0 { 1 - edge } else { edge }
    }
}

/// The edge of `reference` whose line is farthest from `other`'s core: for each edge, the
/// least signed distance of a vertex of `other` to the edge's line; the greatest of these
/// (the separating axis test restricted to `reference`'s edge normals).
pub(crate) fn max_separation(reference: &Core, other: &Core) -> (usize, f32) {
    if reference.count <= 4 {
        return max_separation_edge_lanes(reference, other);
    }
    if other.count <= 4 {
        return max_separation_wide(reference, other);
    }
    let mut best = (0, f32::NEG_INFINITY);
    for i in 0..reference.count {
        let (_, s) = other.deepest(reference.normals[i], reference.vertices[i]);
        if s > best.1 {
            best = (i, s);
        }
    }
    best
}

/// [`max_separation`] against a core of at most four vertices (boxes, capsules, segments),
/// with the vertices in four lanes: each lane computes `n · (v - origin)` with the same
/// operations in the same order as the scalar loop; unused lanes repeat vertex 0, which leaves
/// the minimum unchanged.
fn max_separation_wide(reference: &Core, other: &Core) -> (usize, f32) {
    let (xs, ys) = (other.lanes.vx, other.lanes.vy);
    let mut best = (0, f32::NEG_INFINITY);
    for i in 0..reference.count {
        let (n, origin) = (reference.normals[i], reference.vertices[i]);
        let d = Vec4::splat(n.x) * (xs - Vec4::splat(origin.x)) + Vec4::splat(n.y) * (ys - Vec4::splat(origin.y));
        let s = d.min_element();
        if s > best.1 {
            best = (i, s);
        }
    }
    best
}

/// [`max_separation`] for a reference core of at most four edges (boxes, capsules, segments),
/// with its edges in four lanes ([`Lanes::max_separation`] when `other` has lanes too).
fn max_separation_edge_lanes(reference: &Core, other: &Core) -> (usize, f32) {
    if other.count <= 4 {
        return reference.lanes.max_separation(&other.lanes);
    }
    let mut least = Vec4::INFINITY;
    for v in &other.vertices[..other.count] {
        least = least.min(reference.lanes.distances(v.x, v.y));
    }
    first_greatest(least)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The scalar scans the lane versions replace.
    fn scan_greatest(lanes: [f32; 4]) -> (usize, f32) {
        let mut best = (0, f32::NEG_INFINITY);
        for (i, &s) in lanes.iter().enumerate() {
            if s > best.1 {
                best = (i, s);
            }
        }
        best
    }

    fn scan_least(lanes: [f32; 4]) -> usize {
        let mut best = (0, f32::INFINITY);
        for (i, &s) in lanes.iter().enumerate() {
            if s < best.1 {
                best = (i, s);
            }
        }
        best.0
    }

    /// Lanes drawn from special values (NaN, both zeros, both infinities, the extremes, ties)
    /// and random ones: the lane picks agree with the scalar scans, the value bit for bit.
    #[test]
    fn first_greatest_and_least_match_the_scalar_scans() {
        let specials =
            [f32::NAN, 0.0, -0.0, f32::INFINITY, f32::NEG_INFINITY, f32::MAX, f32::MIN, f32::MIN_POSITIVE, 1.0, -1.0];
        let mut rng = ChaCha8Rng::seed_from_u64(0x1a_4e5);
        let mut ties = 0;
        for _ in 0..200_000 {
            let shared = rng.random_range(-2.0f32..2.0);
            let lanes: [f32; 4] = std::array::from_fn(|_| match rng.random_range(0..4) {
                0 => specials[rng.random_range(0..specials.len())],
                1 => shared,
                _ => rng.random_range(-2.0f32..2.0),
            });
            let (i, value) = first_greatest(Vec4::from_array(lanes));
            let (j, expected) = scan_greatest(lanes);
            assert_eq!((i, value.to_bits()), (j, expected.to_bits()), "{lanes:?}");
            assert_eq!(first_least(Vec4::from_array(lanes)), scan_least(lanes), "{lanes:?}");
            ties += usize::from(lanes.iter().filter(|&&x| x == lanes[j]).count() > 1);
        }
        assert!(ties > 20_000, "{ties}");
        // All lanes NaN: lane 0, and -inf for the greatest.
        let nan = Vec4::splat(f32::NAN);
        assert_eq!(first_greatest(nan).0, 0);
        assert_eq!(first_greatest(nan).1, f32::NEG_INFINITY);
        assert_eq!(first_least(nan), 0);
    }
}
