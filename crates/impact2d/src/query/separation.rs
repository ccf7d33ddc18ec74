//! Separation functions: the signed distance of the deepest point pair along an axis that
//! moves with the shapes, as a function of time.
//!
//! Source: Catto, "Continuous Collision", GDC 2013. From the closest features at t1: two
//! points give a world-fixed axis through them; an edge on A (or B) gives a face whose
//! normal turns with its body. Either way the separation s(t) = n(t) · (p_b(t) - p_a(t))
//! can go negative, so a bracketed root finder can drive it to the target.

use super::distance::SimplexCache;
use super::proxy::ShapeProxy;
use crate::math::{SweepEval, Transform, Vec2};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// A world-fixed axis from A's closest point to B's.
    Points,
    /// The normal of an edge of A, turning with A.
    FaceA,
    /// The normal of an edge of B, turning with B.
    FaceB,
}

/// A separation function built from the closest features at some time.
pub(crate) struct SeparationFunction<'a> {
    proxy_a: &'a ShapeProxy,
    proxy_b: &'a ShapeProxy,
    sweep_a: &'a SweepEval,
    sweep_b: &'a SweepEval,
    kind: Kind,
    /// For faces: a point of the face in its body's frame.
    local_point: Vec2,
    /// Points: the world axis (A to B). Faces: the face normal in its body's frame,
    /// pointing towards the other shape.
    axis: Vec2,
}

/// The deepest point pair along the axis at one time.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MinSeparation {
    /// Signed separation of the cores along the axis (meters).
    pub separation: f32,
    pub index_a: usize,
    pub index_b: usize,
    /// The axis at that time, world, pointing from A to B.
    pub axis: Vec2,
    pub xf_a: Transform,
    pub xf_b: Transform,
}

impl<'a> SeparationFunction<'a> {
    /// The separation function of the features in `cache` (one or two simplex vertices)
    /// at the poses `xf_a`, `xf_b`, where `normal` is GJK's unit normal from A to B.
    pub fn new(
        cache: &SimplexCache,
        (proxy_a, sweep_a): (&'a ShapeProxy, &'a SweepEval),
        (proxy_b, sweep_b): (&'a ShapeProxy, &'a SweepEval),
        (xf_a, xf_b): (Transform, Transform),
        normal: Vec2,
    ) -> SeparationFunction<'a> {
        let mut f = SeparationFunction {
            proxy_a,
            proxy_b,
            sweep_a,
            sweep_b,
            kind: Kind::Points,
            local_point: Vec2::ZERO,
            axis: normal,
        };
        if cache.count != 2 {
            return f;
        }
        let (ia, ib) = (cache.index_a.map(usize::from), cache.index_b.map(usize::from));
        // Two points on one proxy and one on the other: that proxy's edge is the face.
        // (Two distinct points on both: parallel edges; A's serves.)
        let (kind, face, face_xf, other_point) = if ia[0] == ia[1] {
            (Kind::FaceB, [proxy_b.points()[ib[0]], proxy_b.points()[ib[1]]], xf_b, xf_a.apply(proxy_a.points()[ia[0]]))
        } else {
            (Kind::FaceA, [proxy_a.points()[ia[0]], proxy_a.points()[ia[1]]], xf_a, xf_b.apply(proxy_b.points()[ib[0]]))
        };
        let local_normal = (face[1] - face[0]).perp().normalize_or_zero();
        if local_normal == Vec2::ZERO {
            return f;
        }
        let local_point = 0.5 * (face[0] + face[1]);
        // Orient the normal towards the other shape.
        let facing = face_xf.q.rotate(local_normal).dot(other_point - face_xf.apply(local_point));
        f.kind = kind;
        f.local_point = local_point;
        f.axis = if facing < 0.0 { -local_normal } else { local_normal };
        f
    }

    /// The poses of both shapes at time `t`.
    #[inline]
    pub fn poses(&self, t: f32) -> (Transform, Transform) {
        SweepEval::pair_at(self.sweep_a, self.sweep_b, t)
    }

    /// The deepest point pair at the time of the poses `(xf_a, xf_b)` and its separation.
    pub fn find_min_separation(&self, (xf_a, xf_b): (Transform, Transform)) -> MinSeparation {
        let (pa, pb) = (self.proxy_a.points(), self.proxy_b.points());
        match self.kind {
            Kind::Points => {
                let u = self.axis;
                let index_a = self.proxy_a.support(xf_a.q.inv_rotate(u));
                let index_b = self.proxy_b.support(xf_b.q.inv_rotate(-u));
                let separation = u.dot(xf_b.apply(pb[index_b]) - xf_a.apply(pa[index_a]));
                MinSeparation { separation, index_a, index_b, axis: u, xf_a, xf_b }
            }
            Kind::FaceA => {
                let n = xf_a.q.rotate(self.axis);
                let index_b = self.proxy_b.support(xf_b.q.inv_rotate(-n));
                let separation = n.dot(xf_b.apply(pb[index_b]) - xf_a.apply(self.local_point));
                MinSeparation { separation, index_a: 0, index_b, axis: n, xf_a, xf_b }
            }
            Kind::FaceB => {
                let n = xf_b.q.rotate(self.axis);
                let index_a = self.proxy_a.support(xf_a.q.inv_rotate(-n));
                let separation = n.dot(xf_a.apply(pa[index_a]) - xf_b.apply(self.local_point));
                MinSeparation { separation, index_a, index_b: 0, axis: -n, xf_a, xf_b }
            }
        }
    }

    /// The separation of one point pair (as found by [`Self::find_min_separation`]) at the
    /// time of the poses `(xf_a, xf_b)`.
    pub fn evaluate(&self, index_a: usize, index_b: usize, (xf_a, xf_b): (Transform, Transform)) -> f32 {
        let (pa, pb) = (self.proxy_a.points(), self.proxy_b.points());
        match self.kind {
            Kind::Points => self.axis.dot(xf_b.apply(pb[index_b]) - xf_a.apply(pa[index_a])),
            Kind::FaceA => xf_a.q.rotate(self.axis).dot(xf_b.apply(pb[index_b]) - xf_a.apply(self.local_point)),
            Kind::FaceB => xf_b.q.rotate(self.axis).dot(xf_a.apply(pa[index_a]) - xf_b.apply(self.local_point)),
        }
    }
}
