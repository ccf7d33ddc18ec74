//! Contact manifolds: the contact points of a pair of shapes, with their common normal.
//!
//! Every pair function works in a local frame attached to shape A (A's rotation, with its
//! origin on one of A's features so that f32 keeps its precision far from the world origin)
//! and builds a [`LocalManifold`]; [`Frame::finish`] turns it into a world [`Manifold`].

use crate::math::{Transform, Vec2};

/// A feature id: which features of A and B made a contact point, stable while those
/// features stay in contact, so the world can carry a point's impulses over to the next
/// step.
///
/// Encoding: `(feature_a << 8) | feature_b`, where a feature is a vertex index of a polygon
/// (0 to 7), an end of a capsule, segment or chain segment (0 for the first, 1 for the
/// second), or 0 for a circle. A clipped point pairs the vertices of A and B at its end of
/// the contact, so the id does not change when the reference face passes from one shape to
/// the other between two parallel faces.
pub type FeatureId = u16;

/// The feature id of a point made by feature `a` of shape A and feature `b` of shape B.
#[inline]
pub fn feature_id(a: usize, b: usize) -> FeatureId {
    ((a as u16 & 0xff) << 8) | (b as u16 & 0xff)
}

/// One contact point of a [`Manifold`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ManifoldPoint {
    /// The contact point (meters, world), midway between the two surfaces.
    pub point: Vec2,
    /// The contact point relative to A's body origin (meters, world orientation):
    /// `point - xf_a.p`. The solver re-bases it on A's center of mass.
    pub anchor_a: Vec2,
    /// The contact point relative to B's body origin (meters, world orientation):
    /// `point - xf_b.p`.
    pub anchor_b: Vec2,
    /// The gap between the surfaces along the normal (meters): negative when they overlap,
    /// positive up to the speculative distance for a speculative point.
    pub separation: f32,
    /// Which features of A and B made the point (see [`FeatureId`]).
    pub id: FeatureId,
}

/// The contact of two shapes: up to two points sharing one normal.
///
/// Manifolds are pure geometry. The world keeps the accumulated impulses of each point beside
/// the manifold and carries them over to the next step's manifold by feature id
/// ([`Manifold::find_id`]), as Box2D v3 does with its manifold point ids.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Manifold {
    /// Unit normal from A to B (world). Zero when the manifold is empty.
    pub normal: Vec2,
    /// The contact points; only the first `count` are valid.
    pub points: [ManifoldPoint; 2],
    /// Number of valid points: 0, 1 or 2.
    pub count: usize,
}

impl Manifold {
    /// The manifold without points: the shapes are farther apart than the speculative
    /// distance (or the input was not finite).
    pub const EMPTY: Manifold = Manifold {
        normal: Vec2::ZERO,
        points: [ManifoldPoint {
            point: Vec2::ZERO,
            anchor_a: Vec2::ZERO,
            anchor_b: Vec2::ZERO,
            separation: 0.0,
            id: 0,
        }; 2],
        count: 0,
    };

    /// The valid points.
    #[inline]
    pub fn points(&self) -> &[ManifoldPoint] {
        &self.points[..self.count.min(2)]
    }

    /// True when the manifold has no point.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The index of the point with feature id `id`, if any: how the world matches the
    /// points of consecutive steps to carry their impulses over.
    pub fn find_id(&self, id: FeatureId) -> Option<usize> {
        self.points().iter().position(|p| p.id == id)
    }

    /// The smallest separation of the points (meters); `None` when empty.
    pub fn min_separation(&self) -> Option<f32> {
        self.points().iter().map(|p| p.separation).reduce(f32::min)
    }

    /// The same contact seen from B: the normal reversed, the anchors swapped and the two
    /// halves of each feature id swapped.
    pub fn flipped(&self) -> Manifold {
        let mut out = *self;
        out.normal = -self.normal;
        for p in &mut out.points[..self.count.min(2)] {
            std::mem::swap(&mut p.anchor_a, &mut p.anchor_b);
            p.id = p.id.rotate_left(8);
        }
        out
    }
}

/// True when `value <= limit`; false when either is NaN, so NaN input falls on the side of
/// an empty manifold.
#[inline]
pub(crate) fn is_within(value: f32, limit: f32) -> bool {
    value <= limit
}

/// A contact point in the local frame of a pair computation.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct LocalPoint {
    /// Midway between the surfaces (meters, local frame).
    pub point: Vec2,
    /// Gap between the surfaces (meters).
    pub separation: f32,
    pub id: FeatureId,
}

/// A manifold in the local frame of a pair computation; the normal goes from A to B.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct LocalManifold {
    pub normal: Vec2,
    pub points: [LocalPoint; 2],
    pub count: usize,
}

impl LocalManifold {
    pub const EMPTY: LocalManifold = LocalManifold {
        normal: Vec2::ZERO,
        points: [LocalPoint { point: Vec2::ZERO, separation: 0.0, id: 0 }; 2],
        count: 0,
    };

    /// A manifold of one point.
    pub fn single(normal: Vec2, point: LocalPoint) -> LocalManifold {
        LocalManifold { normal, points: [point, LocalPoint::default()], count: 1 }
    }

    /// Appends a point (at most two are kept).
    pub fn push(&mut self, point: LocalPoint) {
        if self.count < 2 {
            self.points[self.count] = point;
            self.count += 1;
        }
    }

    /// The same contact with A and B exchanged: the normal reversed, id halves swapped.
    pub fn flipped(mut self) -> LocalManifold {
        self.normal = -self.normal;
        for p in &mut self.points[..self.count] {
            p.id = p.id.rotate_left(8);
        }
        self
    }
}

/// The local frame of a pair computation: A's rotation, with its origin at `origin` in A's
/// body coordinates. Both shapes are expressed in it, and the result is mapped back.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame {
    /// Maps local coordinates to the world.
    to_world: Transform,
    /// The local origin in A's body coordinates.
    origin: Vec2,
    /// `xf_a.p - xf_b.p`, the offset from B's body origin to A's.
    a_minus_b: Vec2,
    /// A's body origin (world).
    pa: Vec2,
}

impl Frame {
    /// The frame of A placed by `xf_a`, with its origin at `origin` (A's body coordinates).
    pub fn new(xf_a: Transform, origin: Vec2, xf_b: Transform) -> Frame {
        let to_world = Transform { p: xf_a.p + xf_a.q.rotate(origin), q: xf_a.q };
        Frame { to_world, origin, a_minus_b: xf_a.p - xf_b.p, pa: xf_a.p }
    }

    /// The transform taking body coordinates of a shape placed by `xf` into this frame.
    pub fn local(&self, xf: Transform) -> Transform {
        self.to_world.inv_mul(xf)
    }

    /// The transform taking A's body coordinates into this frame (a pure translation).
    pub fn local_a(&self) -> Transform {
        Transform { p: -self.origin, q: crate::math::Rot::IDENTITY }
    }

    /// The world manifold of `local`, or [`Manifold::EMPTY`] if any of its numbers is not
    /// finite (non-finite transforms never leak NaN out).
    pub fn finish(&self, local: &LocalManifold) -> Manifold {
        if local.count == 0 {
            return Manifold::EMPTY;
        }
        let q = self.to_world.q;
        let mut out = Manifold { normal: q.rotate(local.normal), count: local.count.min(2), ..Manifold::EMPTY };
        let mut finite = out.normal.is_finite();
        for (o, l) in out.points.iter_mut().zip(&local.points[..local.count.min(2)]) {
            *o = self.world_point(l);
            finite &= o.point.is_finite() && o.anchor_b.is_finite() && o.separation.is_finite();
        }
        if finite { out } else { Manifold::EMPTY }
    }

    /// The world point of local point `l`, with its anchors.
    #[inline]
    pub fn world_point(&self, l: &LocalPoint) -> ManifoldPoint {
        let anchor_a = self.to_world.q.rotate(l.point + self.origin);
        ManifoldPoint {
            point: self.pa + anchor_a,
            anchor_a,
            anchor_b: anchor_a + self.a_minus_b,
            separation: l.separation,
            id: l.id,
        }
    }

    /// The world direction of local direction `v`.
    #[inline]
    pub fn world_vector(&self, v: Vec2) -> Vec2 {
        self.to_world.q.rotate(v)
    }
}
