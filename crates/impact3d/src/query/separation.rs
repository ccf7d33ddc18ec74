//! Separation functions in 3D: the signed distance of the deepest point pair along an axis
//! that moves with the shapes, as a function of time.
//!
//! Source: Catto, "Continuous Collision", GDC 2013, which closes on the 3D case: find the
//! closest features with GJK and pick a separation axis that suits them. Here:
//! - two points (vertex against vertex): the world-fixed axis through them;
//! - an edge against an edge, not parallel: their common normal `e_a × e_b`, turning with
//!   both bodies;
//! - any other pair (a face or an edge against a point, a face against anything): GJK's
//!   normal fixed in the body holding more of the features, through its closest point. That
//!   plane supports its body at every time (the body turns with it), so the separation is
//!   exact along the axis.
//!
//! The separation along any unit axis is at most the distance between convex shapes, so
//! wherever a function is at or above the band the shapes are too.

use super::distance::{DistanceOutput, SimplexCache};
use super::proxy::ShapeProxy;
use crate::math::{Sweep, Transform, Vec3};

/// The sine below which two edges count as parallel: their cross product no longer gives a
/// well-defined normal.
const PARALLEL_SINE: f32 = 0.05;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    /// A world-fixed axis from A's closest point to B's.
    Points,
    /// A normal fixed in A's frame through a point of A (`local_point`).
    FaceA,
    /// A normal fixed in B's frame through a point of B (`local_point`).
    FaceB,
    /// The cross product of an edge of A (`axis`, A's frame) and an edge of B (`edge_b`, B's
    /// frame), times `sign`, so that it points from A to B at the start.
    Edges { edge_b: Vec3, sign: f32 },
}

/// A separation function built from the closest features at some time.
pub(crate) struct SeparationFunction<'a> {
    proxy_a: &'a ShapeProxy,
    proxy_b: &'a ShapeProxy,
    sweep_a: &'a Sweep,
    sweep_b: &'a Sweep,
    kind: Kind,
    /// For faces: the point of the plane in its body's frame.
    local_point: Vec3,
    /// Points: the world axis (A to B). Faces: the normal in its body's frame, pointing
    /// towards the other shape. Edges: A's edge in A's frame.
    axis: Vec3,
    /// GJK's normal where the function was built: the axis when edges turn parallel.
    start_normal: Vec3,
}

/// The deepest point pair along the axis at one time.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MinSeparation {
    /// Signed separation of the cores along the axis (meters).
    pub separation: f32,
    pub index_a: usize,
    pub index_b: usize,
    /// The axis at that time, world, unit, from A to B.
    pub axis: Vec3,
    pub xf_a: Transform,
    pub xf_b: Transform,
}

impl<'a> SeparationFunction<'a> {
    /// The separation function of the features in `cache` (what GJK left at the poses
    /// `(xf_a, xf_b)`, with its distance `d`: a unit normal from A to B and closest points).
    pub fn new(
        cache: &SimplexCache,
        (proxy_a, sweep_a): (&'a ShapeProxy, &'a Sweep),
        (proxy_b, sweep_b): (&'a ShapeProxy, &'a Sweep),
        (xf_a, xf_b): (Transform, Transform),
        d: &DistanceOutput,
    ) -> SeparationFunction<'a> {
        let n = d.normal;
        let mut f = SeparationFunction {
            proxy_a,
            proxy_b,
            sweep_a,
            sweep_b,
            kind: Kind::Points,
            local_point: Vec3::ZERO,
            axis: n,
            start_normal: n,
        };
        let count = cache.count.min(4) as usize;
        let (ia, ib) = (&cache.index_a[..count], &cache.index_b[..count]);
        let (da, db) = (distinct(ia), distinct(ib));
        if da == 1 && db == 1 {
            return f;
        }
        if da == 2 && db == 2 {
            let edge = |proxy: &ShapeProxy, i: &[u8]| {
                let (p, q) = two_distinct(i);
                proxy.points()[q as usize] - proxy.points()[p as usize]
            };
            let (ea, eb) = (edge(proxy_a, ia), edge(proxy_b, ib));
            let cross = (xf_a.q * ea).cross(xf_b.q * eb);
            if cross.length_squared() > (PARALLEL_SINE * ea.length() * eb.length()).powi(2) {
                let sign = if cross.dot(n) < 0.0 { -1.0 } else { 1.0 };
                f.kind = Kind::Edges { edge_b: eb, sign };
                f.axis = ea;
                return f;
            }
        }
        // The plane through the closest point of the body holding more features (A on a tie).
        if da >= db {
            f.kind = Kind::FaceA;
            f.local_point = xf_a.inv_apply(d.point_a);
            f.axis = xf_a.q.inverse() * n;
        } else {
            f.kind = Kind::FaceB;
            f.local_point = xf_b.inv_apply(d.point_b);
            f.axis = xf_b.q.inverse() * -n;
        }
        f
    }

    /// The poses of both shapes at time `t`.
    #[inline]
    pub fn poses(&self, t: f32) -> (Transform, Transform) {
        (self.sweep_a.transform_at(t), self.sweep_b.transform_at(t))
    }

    /// The world axis (unit, from A to B) at the poses `(xf_a, xf_b)`.
    // Inlined, as `evaluate_along`: both run at every root-finder step.
    #[inline(always)]
    fn world_axis(&self, (xf_a, xf_b): (Transform, Transform)) -> Vec3 {
        match self.kind {
            Kind::Points => self.axis,
            Kind::FaceA => xf_a.q * self.axis,
            Kind::FaceB => -(xf_b.q * self.axis),
            Kind::Edges { edge_b, sign } => {
                let cross = (xf_a.q * self.axis).cross(xf_b.q * edge_b);
                let length = cross.length();
                // Edges that turned parallel have no common normal: fall back on GJK's.
                if length > PARALLEL_SINE * self.axis.length() * edge_b.length() {
                    cross * (sign / length)
                } else {
                    self.start_normal
                }
            }
        }
    }

    /// The deepest point pair at the time of the poses `(xf_a, xf_b)` and its separation.
    pub fn find_min_separation(&self, (xf_a, xf_b): (Transform, Transform)) -> MinSeparation {
        let u = self.world_axis((xf_a, xf_b));
        let index_a = if matches!(self.kind, Kind::FaceA) { 0 } else { self.proxy_a.support(xf_a.q.inverse() * u) };
        let index_b = if matches!(self.kind, Kind::FaceB) { 0 } else { self.proxy_b.support(xf_b.q.inverse() * -u) };
        let separation = self.evaluate_along(u, index_a, index_b, (xf_a, xf_b));
        MinSeparation { separation, index_a, index_b, axis: u, xf_a, xf_b }
    }

    /// The separation of one point pair (as found by [`Self::find_min_separation`]) at the
    /// time of the poses `(xf_a, xf_b)`.
    pub fn evaluate(&self, index_a: usize, index_b: usize, poses: (Transform, Transform)) -> f32 {
        self.evaluate_along(self.world_axis(poses), index_a, index_b, poses)
    }

    /// The separation along `u` of the pair: a face's own point stands in for its body's.
    #[inline(always)]
    fn evaluate_along(&self, u: Vec3, index_a: usize, index_b: usize, (xf_a, xf_b): (Transform, Transform)) -> f32 {
        let point_a = match self.kind {
            Kind::FaceA => self.local_point,
            _ => self.proxy_a.points()[index_a],
        };
        let point_b = match self.kind {
            Kind::FaceB => self.local_point,
            _ => self.proxy_b.points()[index_b],
        };
        u.dot(xf_b.apply(point_b) - xf_a.apply(point_a))
    }
}

impl SeparationFunction<'_> {
    /// A cache to start GJK from at the poses of `m`, given the one the function was built
    /// from. When the plane's body holds a feature and the other body a single point, that
    /// point gives way to the other body's deepest point along the axis at `m`, where its
    /// closest point has most likely moved (a tetrahedron turning its next corner down onto
    /// a box's face: GJK confirms the face against that corner in one or two steps, where
    /// the old corner costs it four or five); the old pair stays as a fourth vertex, for
    /// when the old point is still the closest. Any other cache is kept as it is.
    pub fn warm_cache(&self, cache: &SimplexCache, m: &MinSeparation) -> SimplexCache {
        let count = cache.count.min(4) as usize;
        let single = |indices: &[u8]| indices.iter().all(|&i| i == indices[0]);
        let mut next = *cache;
        // One point on the moving side: its pairs with the plane's points are all distinct,
        // and stay so with the new point.
        let (moving, deepest) = match self.kind {
            Kind::FaceA if single(&cache.index_b[..count]) => (&mut next.index_b, m.index_b as u8),
            Kind::FaceB if single(&cache.index_a[..count]) => (&mut next.index_a, m.index_a as u8),
            _ => return *cache,
        };
        if count == 0 || moving[0] == deepest {
            return *cache;
        }
        moving[..count].fill(deepest);
        if count < 4 {
            next.index_a[count] = cache.index_a[0];
            next.index_b[count] = cache.index_b[0];
            next.count += 1;
        }
        next
    }
}

/// How many different indices `indices` holds (1 to 4).
fn distinct(indices: &[u8]) -> usize {
    (0..indices.len()).filter(|&k| !indices[..k].contains(&indices[k])).count()
}

/// The first two different indices of `indices` (which holds exactly two).
fn two_distinct(indices: &[u8]) -> (u8, u8) {
    let first = indices[0];
    let second = indices.iter().copied().find(|&i| i != first).unwrap_or(first);
    (first, second)
}
