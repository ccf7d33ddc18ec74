//! World queries: ray casts (closest hit and every hit), shape casts, and the shapes
//! overlapping a box or containing a point. Each takes a [`Filter`]: a shape is seen when
//! `filter.should_pair(&shape_filter)` (its category is in the query's mask and the query's
//! category in its mask; the default filter sees every shape with a default filter). Casts
//! do not see sensors; overlap queries do.
//!
//! Queries walk the broad phase's trees (fat AABBs), then test the shapes exactly. Results
//! are in a deterministic order: sorted by fraction then shape handle for hits, by shape
//! handle for overlaps.

use super::error::{WorldError, check_vector};
use super::handles::ShapeId;
use super::world::World;
use crate::broad_phase::{Filter, RayControl};
use crate::geometry::{Aabb, Shape};
use crate::math::{Transform, Vec2};
use crate::query::error::check_transform;
use crate::query::{DistanceInput, RayCastInput, ShapeCastInput, ShapeProxy, SimplexCache, shape_cast, shape_distance};
use crate::settings::TOI_TOLERANCE;

/// Where a ray or a cast shape meets a shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CastHit {
    /// The shape hit.
    pub shape: ShapeId,
    /// The contact point (meters, world). For a shape cast, midway between the surfaces.
    pub point: Vec2,
    /// The hit shape's outward surface normal there (zero when the ray or shape starts
    /// inside it).
    pub normal: Vec2,
    /// The fraction of the translation at the hit, in [0, 1].
    pub fraction: f32,
}

impl World {
    /// The first shape along the ray from `origin` by `translation` (meters), if any.
    ///
    /// Errors: [`WorldError::InvalidValue`] for a non-finite or out-of-range ray.
    pub fn cast_ray_closest(
        &self,
        origin: Vec2,
        translation: Vec2,
        filter: Filter,
    ) -> Result<Option<CastHit>, WorldError> {
        let mut best: Option<CastHit> = None;
        self.cast_ray(origin, translation, filter, |hit| {
            if best.is_none_or(|b| (hit.fraction, hit.shape) < (b.fraction, b.shape)) {
                best = Some(hit);
            }
            RayControl::Clip(hit.fraction)
        })?;
        Ok(best)
    }

    /// Every shape along the ray from `origin` by `translation` (meters), each with its first
    /// hit, sorted by fraction (then shape handle).
    ///
    /// Errors: [`WorldError::InvalidValue`] for a non-finite or out-of-range ray.
    pub fn cast_ray_all(&self, origin: Vec2, translation: Vec2, filter: Filter) -> Result<Vec<CastHit>, WorldError> {
        let mut hits = Vec::new();
        self.cast_ray(origin, translation, filter, |hit| {
            hits.push(hit);
            RayControl::Continue
        })?;
        hits.sort_by(|a, b| a.fraction.total_cmp(&b.fraction).then(a.shape.cmp(&b.shape)));
        Ok(hits)
    }

    /// Walks the ray through the broad phase and tests the shapes it reaches in their body
    /// frames; `on_hit` decides how the ray goes on.
    fn cast_ray(
        &self,
        origin: Vec2,
        translation: Vec2,
        filter: Filter,
        mut on_hit: impl FnMut(CastHit) -> RayControl,
    ) -> Result<(), WorldError> {
        check_vector(origin, "ray origin")?;
        check_vector(translation, "ray translation")?;
        let input = RayCastInput { origin, translation, max_fraction: 1.0 };
        self.broad_phase.ray_cast(&input, |sub, _, user| {
            let c = &self.colliders[user as u32];
            if c.sensor || !filter.should_pair(&c.filter) {
                return RayControl::Continue;
            }
            let xf = self.bodies[c.body].transform;
            let local = RayCastInput {
                origin: xf.inv_apply(sub.origin),
                translation: xf.q.inv_rotate(sub.translation),
                max_fraction: sub.max_fraction,
            };
            match c.geometry.ray_cast(&local) {
                Some(out) => on_hit(CastHit {
                    shape: self.shape_id(user as u32),
                    point: xf.apply(out.point),
                    normal: xf.q.rotate(out.normal),
                    fraction: out.fraction,
                }),
                None => RayControl::Continue,
            }
        })?;
        Ok(())
    }

    /// The first shape that `shape`, placed by `transform`, touches when it moves by
    /// `translation` (meters), if any: the fraction at which the gap closes (within
    /// [`TOI_TOLERANCE`]), the contact point and the hit shape's normal.
    ///
    /// Errors: [`WorldError::InvalidValue`] for a non-finite or out-of-range translation,
    /// [`WorldError::Query`] for an invalid transform.
    pub fn cast_shape(
        &self,
        shape: &Shape,
        transform: Transform,
        translation: Vec2,
        filter: Filter,
    ) -> Result<Option<CastHit>, WorldError> {
        check_vector(translation, "cast translation")?;
        check_transform(&transform, "cast transform")?;
        let proxy = ShapeProxy::from_shape(shape);
        let mut best: Option<CastHit> = None;
        let mut error = None;
        self.broad_phase.query_swept(shape.aabb(transform), translation, |_, user, _| {
            let c = &self.colliders[user as u32];
            if c.sensor || !filter.should_pair(&c.filter) {
                return true;
            }
            let target = ShapeProxy::from_shape(&c.geometry);
            let input = ShapeCastInput {
                proxy_a: &target,
                transform_a: self.bodies[c.body].transform,
                proxy_b: &proxy,
                transform_b: transform,
                translation_b: translation,
                max_fraction: best.map_or(1.0, |b| b.fraction),
                target: 0.0,
                tolerance: TOI_TOLERANCE,
            };
            match shape_cast(&input) {
                Ok(Some(out)) => {
                    let hit = CastHit {
                        shape: self.shape_id(user as u32),
                        point: out.point,
                        normal: out.normal,
                        fraction: out.fraction,
                    };
                    if best.is_none_or(|b| (hit.fraction, hit.shape) < (b.fraction, b.shape)) {
                        best = Some(hit);
                    }
                    true
                }
                Ok(None) => true,
                Err(e) => {
                    error = Some(e);
                    false
                }
            }
        })?;
        match error {
            Some(e) => Err(e.into()),
            None => Ok(best),
        }
    }

    /// The shapes whose tight AABB overlaps `aabb` (touching counts), sorted.
    ///
    /// Errors: [`WorldError::BroadPhase`] when `aabb` is not finite and ordered.
    pub fn overlap_aabb(&self, aabb: Aabb, filter: Filter) -> Result<Vec<ShapeId>, WorldError> {
        let mut out = Vec::new();
        self.broad_phase.query(aabb, |_, user| {
            let c = &self.colliders[user as u32];
            if filter.should_pair(&c.filter) && c.aabb.overlaps(&aabb) {
                out.push(self.shape_id(user as u32));
            }
            true
        })?;
        out.sort();
        Ok(out)
    }

    /// The shapes containing `point` (meters; the boundary counts), sorted.
    ///
    /// Errors: [`WorldError::InvalidValue`] for a non-finite or out-of-range point.
    pub fn overlap_point(&self, point: Vec2, filter: Filter) -> Result<Vec<ShapeId>, WorldError> {
        check_vector(point, "query point")?;
        let probe = ShapeProxy::new(&[point], 0.0)?;
        let mut out = Vec::new();
        self.broad_phase.query_point(point, |_, user| {
            let c = &self.colliders[user as u32];
            if !filter.should_pair(&c.filter) || !c.aabb.contains_point(point) {
                return true;
            }
            let input = DistanceInput {
                proxy_a: &ShapeProxy::from_shape(&c.geometry),
                transform_a: self.bodies[c.body].transform,
                proxy_b: &probe,
                transform_b: Transform::IDENTITY,
            };
            if shape_distance(&input, &mut SimplexCache::default()).is_ok_and(|d| d.distance <= 0.0) {
                out.push(self.shape_id(user as u32));
            }
            true
        })?;
        out.sort();
        Ok(out)
    }
}
