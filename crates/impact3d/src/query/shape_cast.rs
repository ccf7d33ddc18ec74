//! Linear shape casts and ray casts in 3D.
//!
//! Source: conservative advancement on the GJK distance (Mirtich 1996; as Catto's
//! "Continuous Collision", GDC 2013, describes it for translation), van den Bergen's ray
//! cast by the same idea, and closed forms where they are short: ray against sphere
//! (Ericson, Real-Time Collision Detection, 5.3.2, through the closest approach) and against
//! a sharp polyhedron by clipping against its face planes (Cyrus–Beck, Ericson 5.3.8); boxes
//! and capsules in their own files (`ray_box.rs`, `ray_capsule.rs`).

use super::distance::{DistanceInput, SimplexCache, core_distance};
use super::error::QueryError;
use super::proxy::ShapeProxy;
use super::ray_box::ray_box;
use super::ray_capsule::ray_capsule;
use crate::geometry::{Hull, Shape, Sphere};
use crate::math::{Transform, Vec3};
use crate::settings::MAX_COORDINATE;
use impact_core::toi::core_band;

/// Advances after which a cast stops where it is (short of the band: the safe side).
const MAX_ITERATIONS: u32 = 32;

/// A linear cast: B translated by `translation_b` over fractions [0, `max_fraction`].
#[derive(Clone, Copy, Debug)]
pub struct ShapeCastInput<'a> {
    /// Shape A (still).
    pub proxy_a: &'a ShapeProxy,
    /// A's pose.
    pub transform_a: Transform,
    /// Shape B (moving).
    pub proxy_b: &'a ShapeProxy,
    /// B's pose at fraction 0.
    pub transform_b: Transform,
    /// B's displacement at fraction 1 (meters, world).
    pub translation_b: Vec3,
    /// The largest fraction searched, in [0, 1].
    pub max_fraction: f32,
    /// The gap to stop at (meters; may be negative down to minus the radii).
    pub target: f32,
    /// The half width of the band around the target (meters, positive).
    pub tolerance: f32,
}

/// Where a cast first reaches its target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CastOutput {
    /// The contact point (meters, world): midway between the surfaces for shape casts, on the
    /// surface for ray casts; the origin for a ray that starts inside.
    pub point: Vec3,
    /// The unit normal from A to B (shape casts) or the outward surface normal (ray casts);
    /// zero for a start inside.
    pub normal: Vec3,
    /// The fraction of the translation at the contact.
    pub fraction: f32,
    /// Advances taken (0 for closed forms).
    pub iterations: u32,
}

/// The first fraction at which the gap between A and the translating B comes within
/// `tolerance` of `target`, by conservative advancement on the GJK distance: each advance is
/// the gap to the middle of the band over the closing speed along the closest points' normal,
/// which cannot pass the first contact. A pair already within the band at 0 hits at 0. After
/// 32 advances the cast stops short of the band, as a hit (the safe side). When the cores
/// touch at the stop (a band reaching below the radii), the normal is the opposite of B's
/// motion (3D EPA is not there yet).
///
/// Errors: [`QueryError::NonFinite`] for non-finite input or a transform that is not a unit
/// rotation or beyond [`MAX_COORDINATE`]; [`QueryError::OutOfRange`] unless
/// `0 <= max_fraction <= 1`, `tolerance > 0` and `target + tolerance > -(radius_a + radius_b)`.
pub fn shape_cast(input: &ShapeCastInput) -> Result<Option<CastOutput>, QueryError> {
    let (lo, hi) = validate(input)?;
    let aim = 0.5 * (lo + hi);
    let (ra, rb) = (input.proxy_a.radius(), input.proxy_b.radius());
    let mut cache = SimplexCache::default();
    let mut fraction = 0.0f32;
    for iteration in 1..=MAX_ITERATIONS {
        let placed = DistanceInput {
            proxy_a: input.proxy_a,
            transform_a: input.transform_a,
            proxy_b: input.proxy_b,
            transform_b: Transform::new(input.transform_b.p + input.translation_b * fraction, input.transform_b.q),
        };
        // The cores' distance: the band `hi` counts the radii.
        let d = core_distance(&placed, &mut cache)?;
        if d.distance < hi || iteration == MAX_ITERATIONS {
            let normal = if d.normal == Vec3::ZERO && fraction > 0.0 {
                -input.translation_b.normalize_or_zero()
            } else {
                d.normal
            };
            let point = 0.5 * ((d.point_a + normal * ra) + (d.point_b - normal * rb));
            return Ok(Some(CastOutput { point, normal, fraction, iterations: iteration }));
        }
        let closing = -d.normal.dot(input.translation_b);
        if closing <= 0.0 {
            return Ok(None);
        }
        fraction += (d.distance - aim) / closing;
        if fraction > input.max_fraction {
            return Ok(None);
        }
    }
    Ok(None)
}

/// Checks the input; returns the band [lo, hi] of core distances to stop in (meters).
fn validate(input: &ShapeCastInput) -> Result<(f32, f32), QueryError> {
    for (xf, what) in [(input.transform_a, "transform_a"), (input.transform_b, "transform_b")] {
        if !xf.is_valid() || xf.p.abs().max_element() > MAX_COORDINATE {
            return Err(QueryError::NonFinite { what });
        }
    }
    let end = input.transform_b.p + input.translation_b;
    if !input.translation_b.is_finite() || end.abs().max_element() > MAX_COORDINATE {
        return Err(QueryError::NonFinite { what: "translation_b" });
    }
    let radii = input.proxy_a.radius() + input.proxy_b.radius();
    let (lo, hi) = core_band(("max_fraction", input.max_fraction), input.target, input.tolerance, radii)?;
    Ok((lo.max(0.0), hi))
}

/// A ray: the points `origin + f · translation` for f in [0, `max_fraction`] (meters, in the
/// frame of the shape cast against).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayCastInput {
    /// Start point (meters).
    pub origin: Vec3,
    /// Displacement at fraction 1 (meters).
    pub translation: Vec3,
    /// The largest fraction searched (at least 0).
    pub max_fraction: f32,
}

/// Casts a ray against `shape` (in the shape's frame). A ray that starts inside (or on the
/// surface) hits at fraction 0 with the origin as the point and a zero normal. NaN or
/// infinite input, or a negative `max_fraction`, never hits; outputs are never NaN.
///
/// Spheres, capsules, sharp boxes (by their slabs) and other sharp hulls are cast in closed
/// form; rounded hulls, segments and triangles by conservative advancement of a point on the
/// GJK distance, to within a millionth of the ray's extent (a ray passing a segment or an
/// edge within that counts as touching it).
pub fn ray_cast(shape: &Shape, input: &RayCastInput) -> Option<CastOutput> {
    let valid = input.origin.is_finite() && input.translation.is_finite() && input.max_fraction >= 0.0;
    if !valid
        || input.origin.abs().max_element() > MAX_COORDINATE
        || input.translation.abs().max_element() > MAX_COORDINATE
    {
        return None;
    }
    match shape {
        Shape::Sphere(s) => ray_sphere(s, input),
        Shape::Capsule(c) => ray_capsule(c, input),
        Shape::Hull(h) if h.radius() == 0.0 => match h.box_frame() {
            Some(frame) => ray_box(frame, input),
            None => ray_hull(h, input),
        },
        _ => ray_by_advancement(&ShapeProxy::from_shape(shape), input),
    }
}

fn ray_sphere(sphere: &Sphere, input: &RayCastInput) -> Option<CastOutput> {
    let s = input.origin - sphere.center();
    let r = sphere.radius();
    if s.length_squared() <= r * r {
        return Some(CastOutput { point: input.origin, normal: Vec3::ZERO, fraction: 0.0, iterations: 0 });
    }
    let length = input.translation.length();
    if length == 0.0 {
        return None;
    }
    let dir = input.translation / length;
    // The closest approach of the line to the center, then back along the ray by the half
    // chord: no |s|² − r² cancellation from afar.
    let tc = -s.dot(dir);
    let closest = s + dir * tc;
    let h2 = r * r - closest.length_squared();
    if tc < 0.0 || h2 < 0.0 {
        return None;
    }
    let t = tc - h2.sqrt();
    let fraction = t / length;
    if fraction > input.max_fraction {
        return None;
    }
    let local = closest - dir * h2.sqrt();
    Some(CastOutput { point: sphere.center() + local, normal: local / r, fraction, iterations: 0 })
}

fn ray_hull(hull: &Hull, input: &RayCastInput) -> Option<CastOutput> {
    let (mut lo, mut hi) = (0.0f32, input.max_fraction);
    let mut entered = None;
    for f in hull.faces() {
        // Relative to a vertex of the face: planes far from the origin keep their digits.
        let v = hull.vertices()[hull.face_vertices()[f.first]];
        let numerator = f.normal.dot(v - input.origin);
        let denominator = f.normal.dot(input.translation);
        if denominator == 0.0 {
            if numerator < 0.0 {
                return None;
            }
            continue;
        }
        let t = numerator / denominator;
        if denominator < 0.0 {
            if t > lo {
                lo = t;
                entered = Some(f.normal);
            }
        } else if t < hi {
            hi = t;
        }
        if lo > hi {
            return None;
        }
    }
    match entered {
        None => Some(CastOutput { point: input.origin, normal: Vec3::ZERO, fraction: 0.0, iterations: 0 }),
        Some(normal) => {
            Some(CastOutput { point: input.origin + input.translation * lo, normal, fraction: lo, iterations: 0 })
        }
    }
}

fn ray_by_advancement(proxy: &ShapeProxy, input: &RayCastInput) -> Option<CastOutput> {
    let point = ShapeProxy::point(Vec3::ZERO);
    // The whole searched ray as one translation, so that any `max_fraction` is cast.
    let reach = input.translation * input.max_fraction;
    if !reach.is_finite() || (input.origin + reach).abs().max_element() > MAX_COORDINATE {
        return None;
    }
    let scale = input.origin.abs().max_element() + reach.abs().max_element() + 1.0;
    let cast = ShapeCastInput {
        proxy_a: proxy,
        transform_a: Transform::IDENTITY,
        proxy_b: &point,
        transform_b: Transform::new(input.origin, crate::math::Quat::IDENTITY),
        translation_b: reach,
        max_fraction: 1.0,
        target: 0.0,
        tolerance: 1.0e-6 * scale,
    };
    let hit = shape_cast(&cast).ok()??;
    if hit.fraction == 0.0 {
        return Some(CastOutput { point: input.origin, normal: Vec3::ZERO, fraction: 0.0, iterations: hit.iterations });
    }
    // The cast's normal points from the shape to the ray's point: the outward normal.
    let point = input.origin + reach * hit.fraction;
    Some(CastOutput {
        point,
        normal: hit.normal,
        fraction: hit.fraction * input.max_fraction,
        iterations: hit.iterations,
    })
}
