//! Axis-aligned bounding boxes in 3D.

use crate::math::Vec3;

/// An axis-aligned box from `min` to `max` (meters, world or body coordinates).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    /// The lowest corner (meters).
    pub min: Vec3,
    /// The highest corner (meters).
    pub max: Vec3,
}

impl Aabb {
    /// The box from `min` to `max`.
    #[inline]
    pub fn new(min: Vec3, max: Vec3) -> Aabb {
        Aabb { min, max }
    }

    /// The smallest box holding every one of `points` (at least one).
    pub fn of_points(points: impl IntoIterator<Item = Vec3>) -> Aabb {
        let mut it = points.into_iter();
        let first = it.next().unwrap_or(Vec3::ZERO);
        it.fold(Aabb::new(first, first), |b, p| Aabb::new(b.min.min(p), b.max.max(p)))
    }

    /// The smallest box holding both.
    #[inline]
    pub fn union(self, o: Aabb) -> Aabb {
        Aabb::new(self.min.min(o.min), self.max.max(o.max))
    }

    /// This box grown by `margin` (meters) on every side.
    #[inline]
    pub fn expanded(self, margin: f32) -> Aabb {
        Aabb::new(self.min - Vec3::splat(margin), self.max + Vec3::splat(margin))
    }

    /// Whether the two boxes overlap (touching counts).
    #[inline]
    pub fn overlaps(&self, o: &Aabb) -> bool {
        self.min.cmple(o.max).all() && o.min.cmple(self.max).all()
    }

    /// Whether `o` lies inside this box.
    #[inline]
    pub fn contains(&self, o: &Aabb) -> bool {
        self.min.cmple(o.min).all() && o.max.cmple(self.max).all()
    }

    /// The surface area (m²): the cost measure of a bounding volume hierarchy.
    #[inline]
    pub fn surface_area(&self) -> f32 {
        let d = self.max - self.min;
        2.0 * (d.x * d.y + d.y * d.z + d.z * d.x)
    }

    /// The first fraction in [0, `max_fraction`] at which the ray `origin + f · translation`
    /// is in the box, by slabs (Ericson, Real-Time Collision Detection, 5.3.3); 0 when the
    /// origin is inside. `None` when it misses or for non-finite input.
    pub fn ray_cast(&self, origin: Vec3, translation: Vec3, max_fraction: f32) -> Option<f32> {
        if !(origin.is_finite() && translation.is_finite() && max_fraction >= 0.0) {
            return None;
        }
        let (mut lo, mut hi) = (0.0f32, max_fraction);
        for axis in 0..3 {
            let (o, d) = (origin[axis], translation[axis]);
            let (min, max) = (self.min[axis], self.max[axis]);
            if d == 0.0 {
                if o < min || o > max {
                    return None;
                }
                continue;
            }
            let (t1, t2) = ((min - o) / d, (max - o) / d);
            lo = lo.max(t1.min(t2));
            hi = hi.min(t1.max(t2));
            if lo > hi {
                return None;
            }
        }
        Some(lo)
    }
}
