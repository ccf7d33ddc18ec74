//! Linear shape casts: the first fraction of a translation at which a moving shape reaches
//! a target gap to a still one.
//!
//! Source: conservative advancement along a translation (Mirtich 1996; Catto's b2ShapeCast
//! follows the same idea). Under pure translation the gap is a convex function of the
//! fraction, so the tangent line at the current fraction is a lower bound and each step
//! lands before the root: the cast never tunnels and converges from below, in one step on
//! a face.

use super::distance::{DistanceInput, SimplexCache, world_core_distance};
use super::epa::contact_normal;
use impact_core::toi::core_band;

use super::error::{QueryError, check_transform, check_vector};
use super::proxy::ShapeProxy;
use super::ray::CastOutput;
use crate::math::{Transform, Vec2};

/// Shape B cast along `translation_b` against still shape A.
#[derive(Clone, Copy, Debug)]
pub struct ShapeCastInput<'a> {
    /// The still shape.
    pub proxy_a: &'a ShapeProxy,
    /// Where A is.
    pub transform_a: Transform,
    /// The moving shape.
    pub proxy_b: &'a ShapeProxy,
    /// Where B starts.
    pub transform_b: Transform,
    /// B's full translation (meters, world).
    pub translation_b: Vec2,
    /// The largest fraction of the translation to consider, in [0, 1].
    pub max_fraction: f32,
    /// The surface gap at which to stop (meters): 0 to touch, a small positive skin to
    /// stop short, as character controllers do.
    pub target: f32,
    /// Half-width of the accepted band around `target` (meters, positive); see
    /// [`crate::settings::TOI_TOLERANCE`].
    pub tolerance: f32,
}

/// Iterations after which a cast stops where it is (still short of the target).
const MAX_ITERATIONS: u32 = 32;

/// The first fraction at which the gap between A and the translating B comes within
/// `tolerance` of `target`, or `None` when it does not within `max_fraction`.
///
/// The output point lies midway between the surfaces (world) and the unit normal points from
/// A to B. A pair already within `target + tolerance` at fraction 0 hits at 0 (with a zero
/// normal when the cores overlap there; a hit after an advance always has a unit normal).
///
/// Precision: each advance is the gap over the closing speed along the closest points'
/// normal, which cannot pass the first contact when the gap and normal are exact; they are
/// [`shape_distance`](super::shape_distance)'s, exact to 16 f32 spacings of the largest
/// coordinate met. So a hit's gap is in the band to within that (2e-5 m for shapes within
/// 10 m of the origin; `tests/shape_cast.rs` measures small shapes cast at large ones up to
/// 100 km out against an f64 reference with 32 spacings), and a miss never hides a gap
/// below the band by more than that. After 32 advances a cast stops short of the band,
/// where it is, as a hit (the safe side).
///
/// Errors: [`QueryError::NonFinite`] for non-finite input; [`QueryError::OutOfRange`] for
/// a transform that is not a unit rotation or not within
/// [`crate::settings::MAX_COORDINATE`], and unless `0 <= max_fraction <= 1`,
/// `tolerance > 0` and `target + tolerance > -(radius_a + radius_b)`.
pub fn shape_cast(input: &ShapeCastInput) -> Result<Option<CastOutput>, QueryError> {
    let (lo, hi) = validate(input)?;
    let aim = 0.5 * (lo + hi);
    let mut cache = SimplexCache::default();
    let mut fraction = 0.0;
    let mut placed = DistanceInput {
        proxy_a: input.proxy_a,
        transform_a: input.transform_a,
        proxy_b: input.proxy_b,
        transform_b: input.transform_b,
    };
    for iteration in 1..=MAX_ITERATIONS {
        placed.transform_b.p = input.transform_b.p + fraction * input.translation_b;
        let d = world_core_distance(&placed, &mut cache);
        let done = d.distance < hi || iteration == MAX_ITERATIONS;
        if done {
            if d.normal == Vec2::ZERO && fraction > 0.0 {
                // Cores that touch to the round-off after an advance (a band reaching below
                // the radii): EPA's normal, so that only a start overlapping has none.
                let (normal, on_a, on_b) = contact_normal(&placed);
                let point = 0.5 * (on_a + on_b);
                return Ok(Some(CastOutput { point, normal, fraction, iterations: iteration }));
            }
            let (ra, rb) = (input.proxy_a.radius(), input.proxy_b.radius());
            let point = 0.5 * ((d.point_a + ra * d.normal) + (d.point_b - rb * d.normal));
            return Ok(Some(CastOutput { point, normal: d.normal, fraction, iterations: iteration }));
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
    unreachable!("the loop returns on its last iteration")
}

/// Checks the input; returns the band [lo, hi] of core distances to stop in.
fn validate(input: &ShapeCastInput) -> Result<(f32, f32), QueryError> {
    check_transform(&input.transform_a, "transform_a")?;
    check_transform(&input.transform_b, "transform_b")?;
    check_vector(input.translation_b, "translation_b")?;
    let radii = input.proxy_a.radius() + input.proxy_b.radius();
    let (lo, hi) = core_band(("max_fraction", input.max_fraction), input.target, input.tolerance, radii)?;
    Ok((lo.max(0.0), hi))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::TOI_TOLERANCE;

    fn rect(hw: f32, hh: f32) -> ShapeProxy {
        ShapeProxy::new(&[Vec2::new(-hw, -hh), Vec2::new(hw, -hh), Vec2::new(hw, hh), Vec2::new(-hw, hh)], 0.0).unwrap()
    }

    fn cast(b: &ShapeProxy, start: Vec2, translation: Vec2, target: f32) -> Option<CastOutput> {
        let ground = rect(5.0, 0.5);
        let input = ShapeCastInput {
            proxy_a: &ground,
            transform_a: Transform::IDENTITY,
            proxy_b: b,
            transform_b: Transform::new(start, 0.3),
            translation_b: translation,
            max_fraction: 1.0,
            target,
            tolerance: TOI_TOLERANCE,
        };
        shape_cast(&input).unwrap()
    }

    #[test]
    fn ball_cast_down_onto_ground() {
        let ball = ShapeProxy::new(&[Vec2::ZERO], 0.5).unwrap();
        let hit = cast(&ball, Vec2::new(1.0, 3.0), Vec2::new(0.0, -4.0), 0.0).unwrap();
        // Surfaces meet when the center is at y = 1.0: fraction 0.5.
        assert!((hit.fraction - 0.5).abs() < TOI_TOLERANCE / 4.0, "{hit:?}");
        assert!((hit.normal - Vec2::Y).length() < 1e-5);
        assert!((hit.point - Vec2::new(1.0, 0.5)).length() < 2.0 * TOI_TOLERANCE);
        // With a 0.1 m skin it stops 0.1 m higher.
        let skin = cast(&ball, Vec2::new(1.0, 3.0), Vec2::new(0.0, -4.0), 0.1).unwrap();
        assert!((skin.fraction - 0.475).abs() < TOI_TOLERANCE / 4.0, "{skin:?}");
    }

    #[test]
    fn misses_and_starts_touching() {
        let ball = ShapeProxy::new(&[Vec2::ZERO], 0.5).unwrap();
        assert!(cast(&ball, Vec2::new(1.0, 3.0), Vec2::new(0.0, 4.0), 0.0).is_none());
        assert!(cast(&ball, Vec2::new(1.0, 3.0), Vec2::new(0.0, -1.5), 0.0).is_none());
        let start = cast(&ball, Vec2::new(1.0, 1.0005), Vec2::new(0.0, -4.0), 0.0).unwrap();
        assert_eq!(start.fraction, 0.0);
    }

    #[test]
    fn box_cast_sideways_into_a_wall_corner() {
        let b = rect(0.25, 0.25);
        // Slides along above the ground and misses it, then a cast into it hits.
        assert!(cast(&b, Vec2::new(-8.0, 1.5), Vec2::new(16.0, 0.0), 0.0).is_none());
        let hit = cast(&b, Vec2::new(-8.0, 0.6), Vec2::new(16.0, 0.0), 0.0).unwrap();
        assert!(hit.fraction > 0.15 && hit.fraction < 0.2, "{hit:?}");
    }
}
