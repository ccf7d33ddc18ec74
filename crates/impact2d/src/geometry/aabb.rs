//! Axis-aligned bounding boxes.

use crate::math::Vec2;

/// An axis-aligned bounding box, closed: points on the boundary are inside.
///
/// Invariant for a valid box: `lower.x <= upper.x` and `lower.y <= upper.y` (meters).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Aabb {
    /// The corner with the smallest coordinates (meters).
    pub lower: Vec2,
    /// The corner with the largest coordinates (meters).
    pub upper: Vec2,
}

/// Where a ray enters an AABB.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AabbRayHit {
    /// Fraction of the ray's translation at the entry point, in [0, max_fraction].
    pub fraction: f32,
    /// Outward normal of the face the ray enters through; zero when the origin is inside.
    pub normal: Vec2,
}

impl Aabb {
    /// A box from its two corners (meters).
    #[inline]
    pub fn new(lower: Vec2, upper: Vec2) -> Aabb {
        Aabb { lower, upper }
    }

    /// The smallest box holding every point of `points`; `None` when `points` is empty.
    pub fn from_points(points: &[Vec2]) -> Option<Aabb> {
        let first = *points.first()?;
        let mut aabb = Aabb::new(first, first);
        for &p in &points[1..] {
            aabb.lower = aabb.lower.min(p);
            aabb.upper = aabb.upper.max(p);
        }
        Some(aabb)
    }

    /// True when both corners are finite and ordered.
    pub fn is_valid(&self) -> bool {
        self.lower.is_finite() && self.upper.is_finite() && self.lower.x <= self.upper.x && self.lower.y <= self.upper.y
    }

    /// The center point (meters).
    #[inline]
    pub fn center(&self) -> Vec2 {
        0.5 * (self.lower + self.upper)
    }

    /// Half the width and half the height (meters).
    #[inline]
    pub fn extents(&self) -> Vec2 {
        0.5 * (self.upper - self.lower)
    }

    /// The perimeter (meters): the surface-area-heuristic cost of a box in 2D.
    #[inline]
    pub fn perimeter(&self) -> f32 {
        let d = self.upper - self.lower;
        2.0 * (d.x + d.y)
    }

    /// The smallest box holding both boxes.
    #[inline]
    pub fn union(&self, other: &Aabb) -> Aabb {
        Aabb { lower: self.lower.min(other.lower), upper: self.upper.max(other.upper) }
    }

    /// True when the boxes share at least one point (touching counts).
    #[inline]
    pub fn overlaps(&self, other: &Aabb) -> bool {
        !(other.lower.x > self.upper.x
            || other.lower.y > self.upper.y
            || self.lower.x > other.upper.x
            || self.lower.y > other.upper.y)
    }

    /// True when `other` lies inside this box (boundaries may touch).
    #[inline]
    pub fn contains(&self, other: &Aabb) -> bool {
        self.lower.x <= other.lower.x
            && self.lower.y <= other.lower.y
            && other.upper.x <= self.upper.x
            && other.upper.y <= self.upper.y
    }

    /// True when `point` lies inside the box or on its boundary.
    #[inline]
    pub fn contains_point(&self, point: Vec2) -> bool {
        self.lower.x <= point.x && point.x <= self.upper.x && self.lower.y <= point.y && point.y <= self.upper.y
    }

    /// This box grown by `margin` (meters) on every side.
    #[inline]
    pub fn enlarged(&self, margin: f32) -> Aabb {
        let m = Vec2::splat(margin);
        Aabb { lower: self.lower - m, upper: self.upper + m }
    }

    /// This box translated by `delta` (meters).
    #[inline]
    pub fn translated(&self, delta: Vec2) -> Aabb {
        Aabb { lower: self.lower + delta, upper: self.upper + delta }
    }

    /// Casts the ray `origin + f * translation`, f ∈ [0, max_fraction], against the box by
    /// the slab method (Ericson, Real-Time Collision Detection, 5.3.3).
    ///
    /// Returns the entry fraction and face normal, `None` on a miss. A ray starting inside
    /// the box hits at fraction 0 with a zero normal. A zero translation only hits when
    /// the origin is inside. Non-finite input and a negative `max_fraction` miss.
    pub fn ray_cast(&self, origin: Vec2, translation: Vec2, max_fraction: f32) -> Option<AabbRayHit> {
        if !(origin.is_finite() && translation.is_finite() && max_fraction.is_finite()) || max_fraction < 0.0 {
            return None;
        }
        let mut t_min = 0.0f32;
        let mut t_max = max_fraction;
        let mut normal = Vec2::ZERO;
        for axis in 0..2 {
            let (o, d, lo, hi) = (origin[axis], translation[axis], self.lower[axis], self.upper[axis]);
            if d == 0.0 {
                // Parallel to the slab: inside it or a miss. (NaN fails this too.)
                if !(lo <= o && o <= hi) {
                    return None;
                }
                continue;
            }
            let inv = 1.0 / d;
            let (mut t1, mut t2) = ((lo - o) * inv, (hi - o) * inv);
            let mut sign = -1.0;
            if t1 > t2 {
                std::mem::swap(&mut t1, &mut t2);
                sign = 1.0;
            }
            if t1 > t_min {
                t_min = t1;
                normal = Vec2::ZERO;
                normal[axis] = sign;
            }
            t_max = t_max.min(t2);
            if t_min > t_max {
                return None;
            }
        }
        Some(AabbRayHit { fraction: t_min, normal })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit() -> Aabb {
        Aabb::new(Vec2::ZERO, Vec2::ONE)
    }

    #[test]
    fn overlap_counts_touching() {
        let b = Aabb::new(Vec2::new(1.0, 0.5), Vec2::new(2.0, 2.0));
        assert!(unit().overlaps(&b));
        let c = Aabb::new(Vec2::new(1.0001, 0.5), Vec2::new(2.0, 2.0));
        assert!(!unit().overlaps(&c));
        assert!(unit().union(&c).contains(&c) && unit().union(&c).contains(&unit()));
    }

    #[test]
    fn ray_cast_hits_the_entry_face() {
        let hit = unit().ray_cast(Vec2::new(-1.0, 0.5), Vec2::new(4.0, 0.0), 1.0).unwrap();
        assert_eq!(hit.fraction, 0.25);
        assert_eq!(hit.normal, Vec2::new(-1.0, 0.0));
        let hit = unit().ray_cast(Vec2::new(0.5, 3.0), Vec2::new(0.0, -4.0), 1.0).unwrap();
        assert_eq!(hit.fraction, 0.5);
        assert_eq!(hit.normal, Vec2::new(0.0, 1.0));
        // Stops short of the box.
        assert!(unit().ray_cast(Vec2::new(-1.0, 0.5), Vec2::new(4.0, 0.0), 0.2).is_none());
        // Parallel outside the slab.
        assert!(unit().ray_cast(Vec2::new(-1.0, 2.0), Vec2::new(4.0, 0.0), 1.0).is_none());
        // Starts inside.
        let inside = unit().ray_cast(Vec2::splat(0.5), Vec2::new(1.0, 1.0), 1.0).unwrap();
        assert_eq!((inside.fraction, inside.normal), (0.0, Vec2::ZERO));
    }

    #[test]
    fn ray_cast_with_nan_misses() {
        assert!(unit().ray_cast(Vec2::new(f32::NAN, 0.5), Vec2::X, 1.0).is_none());
        assert!(unit().ray_cast(Vec2::new(-1.0, 0.5), Vec2::new(f32::NAN, 0.0), 1.0).is_none());
    }
}
