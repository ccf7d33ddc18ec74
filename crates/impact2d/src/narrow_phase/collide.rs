//! The pair dispatch: the manifold of any two shapes.

use super::chains::collide_chain_segment;
use super::circles::{circles, core_and_circle};
use super::core::{Convex, Core};
use super::manifold::{Frame, Manifold};
use super::polygons::collide_cores;
use super::quads::collide_quads;
use crate::geometry::Shape;
use crate::math::{Transform, Vec2};

/// The contact manifold of `shape_a` placed by `xf_a` and `shape_b` placed by `xf_b`, for
/// every pair of shape kinds.
///
/// Points whose separation (meters) is at most `speculative_distance` are kept, overlapping
/// ones (negative separation) and speculative ones (positive) alike; a pair farther apart
/// gives an empty manifold. The world passes
/// [`SPECULATIVE_DISTANCE`](crate::settings::SPECULATIVE_DISTANCE); a negative or NaN
/// distance counts as zero. The normal goes from A to B; a manifold has at most two points.
///
/// * Circles meet anything at one point, the closest points of the cores.
/// * Polygons, capsules and segments are rounded convex polygons (a capsule or segment has
///   two vertices): separating axes, exact closest features when the cores are apart, and
///   reference/incident face clipping, so a face lying on a face gives two points and a
///   corner one.
/// * A chain segment is one-sided and uses its ghost vertices so that shapes do not catch
///   on the joints of a chain (see [`narrow_phase`](crate::narrow_phase)). Two chain
///   segments collide as a chain segment against a plain segment that must face it.
///
/// Never panics and never returns NaN: non-finite transforms give an empty manifold. The
/// early out on bounding boxes farther apart than the speculative distance is the caller's.
///
/// Source: the manifold functions per pair of Catto's Box2D v3 (`manifold.c`); Ericson,
/// Real-Time Collision Detection, chapters 4 and 5.
pub fn collide(
    shape_a: &Shape,
    xf_a: Transform,
    shape_b: &Shape,
    xf_b: Transform,
    speculative_distance: f32,
) -> Manifold {
    let mut out = Manifold::EMPTY;
    collide_into(&mut out, shape_a, xf_a, shape_b, xf_b, speculative_distance);
    out
}

/// [`collide`] written into `out`: the world writes each contact's manifold in its place
/// (returned by value, the manifold of a box pair was copied twice on its way there).
pub(crate) fn collide_into(
    out: &mut Manifold,
    shape_a: &Shape,
    xf_a: Transform,
    shape_b: &Shape,
    xf_b: Transform,
    speculative_distance: f32,
) {
    if !(is_finite(xf_a) && is_finite(xf_b)) {
        *out = Manifold::EMPTY;
        return;
    }
    // NaN and negative distances count as zero.
    let speculative = if speculative_distance > 0.0 { speculative_distance.min(f32::MAX) } else { 0.0 };
    match (shape_a, shape_b) {
        (Shape::ChainSegment(a), _) => *out = collide_chain_segment(a, xf_a, shape_b, xf_b, speculative),
        (_, Shape::ChainSegment(b)) => {
            *out = collide_chain_segment(b, xf_b, shape_a, xf_a, speculative).flipped();
        }
        (_, Shape::Circle(_)) => collide_convex(out, shape_a, xf_a, shape_b, xf_b, speculative),
        (Shape::Circle(_), _) => {
            collide_convex(out, shape_b, xf_b, shape_a, xf_a, speculative);
            *out = out.flipped();
        }
        _ => collide_convex(out, shape_a, xf_a, shape_b, xf_b, speculative),
    }
}

/// A circle, capsule, segment or polygon A against a circle or any core B, into `out`. A is
/// a circle only when B is one too.
fn collide_convex(
    out: &mut Manifold,
    shape_a: &Shape,
    xf_a: Transform,
    shape_b: &Shape,
    xf_b: Transform,
    speculative: f32,
) {
    if let (Shape::Polygon(pa), Shape::Polygon(pb)) = (shape_a, shape_b) {
        // A polygon's `local_origin` is its first vertex.
        let frame = Frame::new(xf_a, pa.vertices()[0], xf_b);
        if pa.vertices().len() == 4 && pb.vertices().len() == 4 {
            // The common pair (boxes on boxes): cores in lanes.
            return collide_quads(out, pa, &frame, pb, xf_b, speculative);
        }
        // Other polygon pairs: the cores are built in place, not moved through `Convex`.
        let (a, b) = (Core::polygon(pa, frame.local_a()), Core::polygon(pb, frame.local(xf_b)));
        *out = frame.finish(&collide_cores(&a, &b, speculative));
        return;
    }
    let frame = Frame::new(xf_a, local_origin(shape_a), xf_b);
    let a = Convex::of(shape_a, frame.local_a());
    let b = Convex::of(shape_b, frame.local(xf_b));
    let local = match (&a, &b) {
        (Convex::Circle(ca, ra), Convex::Circle(cb, rb)) => circles(*ca, *ra, *cb, *rb, speculative),
        (Convex::Core(core), Convex::Circle(center, radius)) => core_and_circle(core, *center, *radius, speculative),
        (Convex::Core(core_a), Convex::Core(core_b)) => collide_cores(core_a, core_b, speculative),
        // Not reached: the dispatch puts a circle in A only against a circle.
        (Convex::Circle(..), Convex::Core(_)) => {
            *out = Manifold::EMPTY;
            return;
        }
    };
    *out = frame.finish(&local);
}

/// A point of the shape (body coordinates) to center the pair's local frame on, so that
/// f32 keeps its precision far from the origin.
fn local_origin(shape: &Shape) -> Vec2 {
    match shape {
        Shape::Circle(c) => c.center(),
        Shape::Capsule(c) => c.center1(),
        Shape::Polygon(p) => p.vertices()[0],
        Shape::Segment(s) => s.point1(),
        Shape::ChainSegment(c) => c.segment().point1(),
    }
}

/// True when every number of `xf` is finite (tested in four lanes at once).
#[inline]
fn is_finite(xf: Transform) -> bool {
    glam::Vec4::new(xf.p.x, xf.p.y, xf.q.c, xf.q.s).is_finite()
}
