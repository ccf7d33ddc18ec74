//! One-sided chain segments with ghost vertices: contacts that do not catch on the joints
//! between segments.
//!
//! A chain segment collides on its right side (walking from `point1` to `point2`). Its
//! ghost vertices tell it the shape of its neighbors, and with them which contact normals it
//! may report (Catto, "Ghost Collisions", box2d.org 2020, and `b2CollideChainSegmentAndPolygon`
//! in Box2D v3, whose Gauss-map rules this follows with an exclusive vertex ownership):
//!
//! 1. A shape whose centroid is behind the segment's line (and behind the lines of its
//!    convex neighbors) gets no contact: chains are one-sided.
//! 2. The shape is collided with the segment as an ordinary two-sided segment.
//! 3. The normal of that contact is classified against the segment's normal `n1`:
//!    * `n1` itself (to float precision): a face contact, kept;
//!    * tilted towards an end whose vertex is flat or concave: the joint is not a corner, so
//!      the contact is recomputed with the normal snapped to `n1`, clipped to the segment
//!      (a shape crossing a flat joint sees one straight surface; the neighbor reports the
//!      part of the shape beyond the joint);
//!    * tilted towards a convex vertex: the normals between `n1` and the neighbor's normal
//!      (the vertex's fan) are a real corner. The segment ending at the vertex (`point2`)
//!      reports it, the segment starting there skips it, so a corner gives one contact, not
//!      two; normals beyond the fan belong to the neighbor's face and are skipped.
//!
//! Joints turning by less than [`CHAIN_ANGLE_TOLERANCE`] count as flat. The result: sliding
//! along collinear segments (or segments meeting at angles below the tolerance), every normal
//! is a segment normal; across a convex corner the normal turns
//! continuously through the corner's fan.

use super::circles::core_and_circle;
use super::clip::clip_faces;
use super::core::{Convex, Core};
use super::manifold::{Frame, LocalManifold, LocalPoint, Manifold};
use super::polygons::collide_cores;
use crate::geometry::{ChainSegment, Shape};
use crate::math::{Transform, Vec2};
use crate::settings::CHAIN_ANGLE_TOLERANCE;

/// The sine of the angle within which a contact normal is the segment normal itself: float
/// noise only. Anything more tilted is a contact at one of the segment's ends, and goes
/// through the vertex rules (a tilt of a few thousandths at a flat joint is exactly the
/// catch this module removes).
const FACE_NORMAL_TOLERANCE: f32 = 1.0e-5;

/// What to do with a contact normal found against a chain segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// A normal of this segment's surface: keep the contact.
    Admit,
    /// A normal owned by a neighbor (its face, or a corner the neighbor reports): no contact.
    Skip,
    /// A normal at a flat or concave joint: recompute with the segment normal.
    Snap,
}

/// A chain segment and its neighbors in the local frame (`point1` at the origin).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ChainFrame {
    pub p1: Vec2,
    pub p2: Vec2,
    /// Unit direction from `p1` to `p2`.
    pub e1: Vec2,
    /// The segment's colliding normal (right perpendicular of `e1`).
    pub n1: Vec2,
    /// The previous segment's normal.
    pub n0: Vec2,
    /// The next segment's normal.
    pub n2: Vec2,
    /// The previous segment's unit direction (towards `p1`).
    pub e0: Vec2,
    /// The next segment's unit direction (from `p2`).
    pub e2: Vec2,
    /// True when the chain turns towards the colliding side at `p1` by more than the
    /// tolerance (a corner, seen from the free side).
    pub convex1: bool,
    /// Same at `p2`.
    pub convex2: bool,
}

/// The right perpendicular of a direction.
#[inline]
fn right(v: Vec2) -> Vec2 {
    Vec2::new(v.y, -v.x)
}

impl ChainFrame {
    /// The frame of `ghost1 → p1 → p2 → ghost2`, all in the same coordinates. A ghost on top
    /// of its vertex continues the segment straight.
    pub fn new(ghost1: Vec2, p1: Vec2, p2: Vec2, ghost2: Vec2) -> ChainFrame {
        let e1 = (p2 - p1).normalize();
        let e0 = (p1 - ghost1).try_normalize().unwrap_or(e1);
        let e2 = (ghost2 - p2).try_normalize().unwrap_or(e1);
        ChainFrame {
            p1,
            p2,
            e1,
            n1: right(e1),
            n0: right(e0),
            n2: right(e2),
            e0,
            e2,
            convex1: e0.perp_dot(e1) >= CHAIN_ANGLE_TOLERANCE,
            convex2: e1.perp_dot(e2) >= CHAIN_ANGLE_TOLERANCE,
        }
    }

    /// True when `point` is behind the segment, on the solid side: behind its line, and
    /// behind the line of each convex neighbor.
    pub fn is_behind(&self, point: Vec2) -> bool {
        let behind1 = self.n1.dot(point - self.p1) < 0.0;
        let behind0 = !self.convex1 || self.n0.dot(point - self.p1) < 0.0;
        let behind2 = !self.convex2 || self.n2.dot(point - self.p2) < 0.0;
        behind1 && behind0 && behind2
    }

    /// Whether this segment reports a contact with unit `normal` (from the chain outwards).
    pub fn classify(&self, normal: Vec2) -> Verdict {
        if normal.dot(self.n1) > 0.0 && normal.perp_dot(self.n1).abs() <= FACE_NORMAL_TOLERANCE {
            return Verdict::Admit;
        }
        if normal.dot(self.e1) > 0.0 {
            // Towards p2: this segment owns the corner at p2, up to the next normal.
            if !self.convex2 {
                Verdict::Snap
            } else if normal.perp_dot(self.n2) >= -FACE_NORMAL_TOLERANCE {
                Verdict::Admit
            } else {
                Verdict::Skip
            }
        } else if self.convex1 {
            // Towards a corner at p1: the previous segment reports it.
            Verdict::Skip
        } else {
            Verdict::Snap
        }
    }
}

/// The manifold of chain segment `chain` (A, placed by `xf_a`) and any shape B.
///
/// Against another chain segment, B acts as a two-sided segment and the contact is kept
/// only when B's colliding side faces A.
pub(crate) fn collide_chain_segment(
    chain: &ChainSegment,
    xf_a: Transform,
    shape_b: &Shape,
    xf_b: Transform,
    speculative: f32,
) -> Manifold {
    let segment = chain.segment();
    let frame = Frame::new(xf_a, segment.point1(), xf_b);
    let to_local = frame.local_a();
    let chain_frame = ChainFrame::new(
        to_local.apply(chain.ghost1()),
        to_local.apply(segment.point1()),
        to_local.apply(segment.point2()),
        to_local.apply(chain.ghost2()),
    );
    let xf_b_local = frame.local(xf_b);
    let other = Convex::of(shape_b, xf_b_local);
    let mut manifold = collide_one_sided(&chain_frame, &other, speculative);
    if let Shape::ChainSegment(b) = shape_b {
        let facing = manifold.normal.dot(xf_b_local.q.rotate(b.normal())) <= 0.0;
        if !facing {
            manifold = LocalManifold::EMPTY;
        }
    }
    frame.finish(&manifold)
}

/// The one-sided, ghost-aware manifold of a chain segment (as `chain`) and `other`, both
/// in the same local frame.
pub(crate) fn collide_one_sided(chain: &ChainFrame, other: &Convex, speculative: f32) -> LocalManifold {
    if chain.is_behind(other.centroid()) {
        return LocalManifold::EMPTY;
    }
    let segment = Core::segment(chain.p1, chain.p2, 0.0, Transform::IDENTITY);
    let two_sided = match other {
        Convex::Circle(center, radius) => core_and_circle(&segment, *center, *radius, speculative),
        Convex::Core(core) => collide_cores(&segment, core, speculative),
    };
    if two_sided.count == 0 {
        return two_sided;
    }
    match chain.classify(two_sided.normal) {
        Verdict::Admit => two_sided,
        Verdict::Skip => LocalManifold::EMPTY,
        Verdict::Snap => snap_to_face(chain, &segment, other, speculative),
    }
}

/// The contact of `other` with the face of `segment` (edge 0, its colliding side, rounded by
/// the segment's radius) alone:
/// the normal is the segment normal and only the part of `other` facing the segment's
/// extent counts. Empty when `other` does not face the segment.
///
/// A circle's center may also lie in the thin wedge between this segment's extent and a
/// neighbor's at a joint that turns slightly towards the free side (flatter than a corner):
/// both segments hold it there, so no gap opens on the crest of a nearly flat bump.
pub(crate) fn snap_to_face(chain: &ChainFrame, segment: &Core, other: &Convex, speculative: f32) -> LocalManifold {
    let normal = segment.normals[0];
    match other {
        Convex::Circle(center, radius) => {
            let c = *center;
            let before = (c - chain.p1).dot(chain.e1) < 0.0;
            let after = (c - chain.p2).dot(chain.e1) > 0.0;
            let in_wedge1 = chain.e0.perp_dot(chain.e1) > 0.0 && (c - chain.p1).dot(chain.e0) > 0.0;
            let in_wedge2 = chain.e1.perp_dot(chain.e2) > 0.0 && (c - chain.p2).dot(chain.e2) < 0.0;
            let s = normal.dot(c - chain.p1);
            let separation = s - segment.radius - radius;
            if !((!before || in_wedge1) && (!after || in_wedge2) && separation <= speculative) {
                return LocalManifold::EMPTY;
            }
            // Midway between the (rounded) face and the circle.
            let point = c - normal * (0.5 * (s - segment.radius + radius));
            LocalManifold::single(normal, LocalPoint { point, separation, id: 0 })
        }
        Convex::Core(core) => clip_faces(segment, 0, core, core.incident_edge(normal), false, speculative),
    }
}
