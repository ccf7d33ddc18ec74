//! The pair dispatch: the manifold of any two shapes.

use super::chains::collide_chain_segment;
use super::circles::{circles, core_and_circle};
use super::core::{Convex, Core};
use super::manifold::{Frame, LocalManifold, Manifold};
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
/// Precision: separations and points carry the round-off of the pair's coordinates (a few
/// f32 spacings of the largest, after the pair is moved to a local frame on A); whether two
/// segment cores (capsules, segments) cross is decided exactly, so the normal of crossing
/// cores does not depend on that round-off (`tests/manifold_random.rs` checks crossing
/// capsules and segments from 1 m to 10 km against an f64 reference). A rotation in `xf_a`
/// or `xf_b` must be unit (see [`Rot`](crate::Rot)).
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
    // Without points `out` is left empty or set to `Manifold::EMPTY`: empty either way.
    collide_into(&mut out, shape_a, xf_a, shape_b, xf_b, speculative_distance);
    out
}

/// [`collide`] written into `out`: the world writes each contact's manifold in its place
/// (returned by value, the manifold of a box pair was copied twice on its way there).
///
/// Returns true when the manifold has points. Without points `out` is either exactly
/// [`Manifold::EMPTY`] (every bit: a flipped empty manifold is not flipped, whose normal would
/// be −0) or, on the common ways out of a box pair (separating axis beyond reach, closest
/// features beyond reach), left as it was: so a contact whose manifold is already empty is not
/// written again, and a caller whose `out` may hold points writes `Manifold::EMPTY` itself
/// after a false.
pub(crate) fn collide_into(
    out: &mut Manifold,
    shape_a: &Shape,
    xf_a: Transform,
    shape_b: &Shape,
    xf_b: Transform,
    speculative_distance: f32,
) -> bool {
    collide_into_in::<false>(out, shape_a, xf_a, shape_b, xf_b, speculative_distance)
}

/// [`collide_into`] compiled with AVX's encodings (the same operations, bit for bit; see
/// `encoding.rs`), for the world's narrow phase where the machine has AVX.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
pub(crate) fn collide_into_avx(
    out: &mut Manifold,
    shape_a: &Shape,
    xf_a: Transform,
    shape_b: &Shape,
    xf_b: Transform,
    speculative_distance: f32,
) -> bool {
    collide_into_in::<true>(out, shape_a, xf_a, shape_b, xf_b, speculative_distance)
}

/// The body of [`collide_into`], inlined into each encoding's version; `AVX` is true only in
/// [`collide_into_avx`]'s.
#[inline(always)]
fn collide_into_in<const AVX: bool>(
    out: &mut Manifold,
    shape_a: &Shape,
    xf_a: Transform,
    shape_b: &Shape,
    xf_b: Transform,
    speculative_distance: f32,
) -> bool {
    if !(is_finite(xf_a) && is_finite(xf_b)) {
        *out = Manifold::EMPTY;
        return false;
    }
    // NaN and negative distances count as zero.
    let speculative = if speculative_distance > 0.0 { speculative_distance.min(f32::MAX) } else { 0.0 };
    match (shape_a, shape_b) {
        (Shape::ChainSegment(a), _) => *out = collide_chain_segment(a, xf_a, shape_b, xf_b, speculative),
        (_, Shape::ChainSegment(b)) => {
            *out = collide_chain_segment(b, xf_b, shape_a, xf_a, speculative);
            flip(out);
        }
        (_, Shape::Circle(_)) => return convex::<AVX>(out, shape_a, xf_a, shape_b, xf_b, speculative),
        (Shape::Circle(_), _) => {
            if convex::<AVX>(out, shape_b, xf_b, shape_a, xf_a, speculative) {
                flip(out);
            }
        }
        _ => return convex::<AVX>(out, shape_a, xf_a, shape_b, xf_b, speculative),
    }
    out.count > 0
}

/// `out` seen from the other shape; an empty manifold stays exactly [`Manifold::EMPTY`].
#[inline]
fn flip(out: &mut Manifold) {
    if out.count > 0 {
        *out = out.flipped();
    }
}

/// [`collide_convex`], or its AVX version when `AVX` (only in [`collide_into_avx`]'s body).
#[inline(always)]
fn convex<const AVX: bool>(
    out: &mut Manifold,
    shape_a: &Shape,
    xf_a: Transform,
    shape_b: &Shape,
    xf_b: Transform,
    speculative: f32,
) -> bool {
    #[cfg(target_arch = "x86_64")]
    if AVX {
        // SAFETY: `AVX` is true only inside `collide_into_avx`, which the world calls only
        // where AVX was detected on this machine.
        return unsafe { collide_convex_avx(out, shape_a, xf_a, shape_b, xf_b, speculative) };
    }
    collide_convex(out, shape_a, xf_a, shape_b, xf_b, speculative)
}

/// A circle, capsule, segment or polygon A against a circle or any core B, into `out`, as
/// [`collide_into`] (true when it has points). A is a circle only when B is one too.
fn collide_convex(
    out: &mut Manifold,
    shape_a: &Shape,
    xf_a: Transform,
    shape_b: &Shape,
    xf_b: Transform,
    speculative: f32,
) -> bool {
    collide_convex_in::<false>(out, shape_a, xf_a, shape_b, xf_b, speculative)
}

/// [`collide_convex`] compiled with AVX's encodings.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
fn collide_convex_avx(
    out: &mut Manifold,
    shape_a: &Shape,
    xf_a: Transform,
    shape_b: &Shape,
    xf_b: Transform,
    speculative: f32,
) -> bool {
    collide_convex_in::<true>(out, shape_a, xf_a, shape_b, xf_b, speculative)
}

/// The body of [`collide_convex`], inlined into each encoding's version; `AVX` is true only in
/// [`collide_convex_avx`]'s.
#[inline(always)]
fn collide_convex_in<const AVX: bool>(
    out: &mut Manifold,
    shape_a: &Shape,
    xf_a: Transform,
    shape_b: &Shape,
    xf_b: Transform,
    speculative: f32,
) -> bool {
    if let (Shape::Polygon(pa), Shape::Polygon(pb)) = (shape_a, shape_b) {
        // A polygon's `local_origin` is its first vertex.
        let frame = Frame::new(xf_a, pa.vertices()[0], xf_b);
        if pa.vertices().len() == 4 && pb.vertices().len() == 4 {
            // The common pair (boxes on boxes): cores in lanes.
            return collide_quads::<AVX>(out, pa, &frame, pb, xf_b, speculative);
        }
        // Other polygon pairs: the cores are built in place, not moved through `Convex`.
        let (a, b) = (Core::polygon(pa, frame.local_a()), Core::polygon(pb, frame.local(xf_b)));
        *out = frame.finish(&collide_cores(&a, &b, speculative));
        return out.count > 0;
    }
    let frame = Frame::new(xf_a, local_origin(shape_a), xf_b);
    let a = Convex::of(shape_a, frame.local_a());
    let b = Convex::of(shape_b, frame.local(xf_b));
    let local = match (&a, &b) {
        (Convex::Circle(ca, ra), Convex::Circle(cb, rb)) => circles(*ca, *ra, *cb, *rb, speculative),
        (Convex::Core(core), Convex::Circle(center, radius)) => core_and_circle(core, *center, *radius, speculative),
        (Convex::Core(core_a), Convex::Core(core_b)) => collide_cores(core_a, core_b, speculative),
        // Not reached: the dispatch puts a circle in A only against a circle.
        (Convex::Circle(..), Convex::Core(_)) => LocalManifold::EMPTY,
    };
    *out = frame.finish(&local);
    out.count > 0
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Capsule, ChainSegment, Circle, Polygon, Segment};
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Every number of `m` as bits, to compare manifolds exactly (−0 is not 0, NaN is itself).
    fn bits(m: &Manifold) -> Vec<u32> {
        let mut out = vec![m.normal.x.to_bits(), m.normal.y.to_bits(), m.count as u32];
        for p in &m.points {
            let v = [p.point, p.anchor_a, p.anchor_b];
            out.extend(v.iter().flat_map(|v| [v.x.to_bits(), v.y.to_bits()]));
            out.extend([p.separation.to_bits(), u32::from(p.id)]);
        }
        out
    }

    /// One shape of every kind (each kind in both places of a pair covers the flipped paths).
    fn shapes() -> Vec<Shape> {
        let v = Vec2::new;
        vec![
            Shape::Circle(Circle::new(v(0.1, 0.0), 0.4).unwrap()),
            Shape::Capsule(Capsule::new(v(-0.3, 0.0), v(0.3, 0.1), 0.2).unwrap()),
            Shape::Polygon(Polygon::new(&[v(-0.5, -0.5), v(0.5, -0.5), v(0.5, 0.5), v(-0.5, 0.5)], 0.0).unwrap()),
            Shape::Polygon(Polygon::new(&[v(-0.4, -0.2), v(0.4, -0.3), v(0.5, 0.3), v(-0.3, 0.4)], 0.05).unwrap()),
            Shape::Polygon(
                Polygon::new(&[v(-0.5, 0.0), v(0.0, -0.4), v(0.5, 0.0), v(0.2, 0.4), v(-0.2, 0.4)], 0.0).unwrap(),
            ),
            Shape::Segment(Segment::new(v(-0.5, 0.0), v(0.5, 0.0)).unwrap()),
            Shape::ChainSegment(ChainSegment::new(v(-1.5, 0.0), v(-0.5, 0.0), v(0.5, 0.0), v(1.5, 0.0)).unwrap()),
        ]
    }

    /// Every pair without points, whatever the shape kinds and the path (far apart, apart by
    /// less than the bounding boxes' early out, one-sided misses, flipped pairs, non-finite
    /// transforms), returns false and leaves `out` exactly `Manifold::EMPTY` when it was, and
    /// either as it was or exactly `Manifold::EMPTY` when it held points: the world relies on
    /// it to leave the manifold of a contact that stays apart unwritten. With points, it
    /// returns true and writes `collide`'s manifold whatever `out` held.
    #[test]
    fn empty_results_are_exactly_empty() {
        let mut rng = ChaCha8Rng::seed_from_u64(0x5eed_e111);
        let shapes = shapes();
        let full = collide(&shapes[2], Transform::IDENTITY, &shapes[3], Transform::new(Vec2::new(0.9, 0.1), 0.3), 0.1);
        assert!(full.count > 0);
        let mut empty_count = [0usize; 2];
        for round in 0..20_000 {
            let (a, b) = (&shapes[rng.random_range(0..shapes.len())], &shapes[rng.random_range(0..shapes.len())]);
            let far = rng.random_range(0.0f32..1.0) < 0.3;
            let reach = if far { 5.0 } else { 1.6 };
            let origin = Vec2::new(rng.random_range(-1e3f32..1e3), rng.random_range(-1e3f32..1e3));
            let xf_a = Transform::new(origin, rng.random_range(-4.0f32..4.0));
            let offset = Vec2::new(rng.random_range(-reach..reach), rng.random_range(-reach..reach));
            let mut xf_b = Transform::new(origin + offset, rng.random_range(-4.0f32..4.0));
            if round % 97 == 0 {
                xf_b.p.x = f32::NAN;
            }
            let expected = collide(a, xf_a, b, xf_b, 0.1);
            let (mut from_empty, mut from_full) = (Manifold::EMPTY, full);
            let touching = collide_into(&mut from_empty, a, xf_a, b, xf_b, 0.1);
            assert_eq!(collide_into(&mut from_full, a, xf_a, b, xf_b, 0.1), touching);
            assert_eq!(touching, expected.count > 0);
            let context = format!("pair {a:?} / {b:?} at {xf_a:?} / {xf_b:?}");
            if touching {
                assert_eq!(bits(&from_empty), bits(&expected), "{context}");
                assert_eq!(bits(&from_full), bits(&expected), "{context}");
            } else {
                assert_eq!(bits(&from_empty), bits(&Manifold::EMPTY), "{context}");
                assert!(bits(&from_full) == bits(&full) || bits(&from_full) == bits(&Manifold::EMPTY), "{context}");
                assert_eq!(bits(&expected), bits(&Manifold::EMPTY), "{context}");
                empty_count[usize::from(far)] += 1;
            }
        }
        // Both kinds of empty pairs were met in numbers.
        assert!(empty_count[0] > 3_000 && empty_count[1] > 3_000, "{empty_count:?}");
    }

    /// `collide_into_avx` writes the same bits and returns the same answer as `collide_into`,
    /// into an empty and into a full manifold: 40,000 seeded pairs of every shape kind, most
    /// of them close (boxes touching, overlapping and apart within reach), 1 m to 1 km from
    /// the origin. Skipped on a machine without AVX.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_avx_version_is_collide_into_bit_for_bit() {
        if !crate::encoding::Encoding::detected().avx() {
            eprintln!("skipped: this machine has no AVX, so there is no AVX version to compare");
            return;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(0xa5c0_de11);
        let shapes = shapes();
        let full = collide(&shapes[2], Transform::IDENTITY, &shapes[3], Transform::new(Vec2::new(0.9, 0.1), 0.3), 0.1);
        let mut with_points = 0;
        for round in 0..40_000 {
            let (a, b) = (&shapes[rng.random_range(0..shapes.len())], &shapes[rng.random_range(0..shapes.len())]);
            let reach = if rng.random_range(0.0f32..1.0) < 0.1 { 3.0 } else { 1.1 };
            let scale = [1.0, 30.0, 1e3][round % 3];
            let origin = Vec2::new(rng.random_range(-scale..scale), rng.random_range(-scale..scale));
            // Boxes face on face now and then: angles near a multiple of a right angle.
            let square = rng.random_range(0.0f32..1.0) < 0.4;
            let angle = |rng: &mut ChaCha8Rng| {
                let turn = rng.random_range(-4i32..4) as f32 * std::f32::consts::FRAC_PI_2;
                if square { turn + rng.random_range(-1e-3f32..1e-3) } else { rng.random_range(-4.0f32..4.0) }
            };
            let xf_a = Transform::new(origin, angle(&mut rng));
            let offset = Vec2::new(rng.random_range(-reach..reach), rng.random_range(-reach..reach));
            let xf_b = Transform::new(origin + offset, angle(&mut rng));
            let context = format!("pair {a:?} / {b:?} at {xf_a:?} / {xf_b:?}");
            for start in [Manifold::EMPTY, full] {
                let (mut plain, mut avx) = (start, start);
                let touching = collide_into(&mut plain, a, xf_a, b, xf_b, 0.1);
                // SAFETY: AVX was detected on this machine (above).
                let avx_touching = unsafe { collide_into_avx(&mut avx, a, xf_a, b, xf_b, 0.1) };
                assert_eq!(avx_touching, touching, "{context}");
                assert_eq!(bits(&avx), bits(&plain), "{context}");
                with_points += usize::from(touching);
            }
        }
        assert!(with_points > 30_000, "{with_points} results with points");
    }
}
