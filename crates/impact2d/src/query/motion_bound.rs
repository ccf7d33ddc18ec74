//! A certificate that no collision hides inside a time interval.
//!
//! Bilateral advancement only looks at the deepest points at the end of an interval, so a
//! shape that rotates into the other and out again within the interval goes unseen. This
//! module bounds, from the poses at both ends alone, how low the separation along a
//! world-fixed axis u can dip in between.
//!
//! Relative to A's center of rotation c_a(t), which moves linearly, a point of B projects as
//! `y(t) = u · (c_b(t) - c_a(t)) + r cos(θ_b(t) + φ)`: a line plus a sinusoid of amplitude
//! r, its distance from B's center of rotation. With θ_b linear in t, |y''| ≤ ω_b² r, so
//! y lies above its chord minus ω_b² r s (w − s) / 2 (s the time into the interval, w its
//! length), and never below the line minus r. A's points are bounded from above the same
//! way. The separation of the cores along u is the least B projection minus the greatest A
//! projection, so the bounds give a floor for it over the whole interval. The bound is exact
//! without rotation and tightens with the square of the interval, so halving an interval
//! until it certifies terminates quickly unless the shapes truly graze.

use super::proxy::ShapeProxy;
use crate::math::{Sweep, Transform, Vec2};
use crate::settings::MAX_POLYGON_VERTICES;

/// What the certificate needs of two moving proxies, computed once per query.
pub(crate) struct MotionBound<'a> {
    proxy_a: &'a ShapeProxy,
    proxy_b: &'a ShapeProxy,
    sweep_a: &'a Sweep,
    sweep_b: &'a Sweep,
    /// Distance of each core point from its body's center of rotation (meters).
    radius_a: [f32; MAX_POLYGON_VERTICES],
    radius_b: [f32; MAX_POLYGON_VERTICES],
    /// Squared angular displacement over the whole sweep (rad²).
    omega_a_sq: f32,
    omega_b_sq: f32,
}

/// The point positions at both ends of an interval, relative to A's center of rotation.
pub(crate) struct IntervalPoses {
    a: [[Vec2; MAX_POLYGON_VERTICES]; 2],
    b: [[Vec2; MAX_POLYGON_VERTICES]; 2],
    /// B's center of rotation relative to A's, at both ends.
    centers: [Vec2; 2],
    /// Interval length in normalized time.
    width: f32,
}

impl<'a> MotionBound<'a> {
    pub fn new(
        (proxy_a, sweep_a): (&'a ShapeProxy, &'a Sweep),
        (proxy_b, sweep_b): (&'a ShapeProxy, &'a Sweep),
    ) -> MotionBound<'a> {
        let radii = |proxy: &ShapeProxy, center: Vec2| {
            let mut r = [0.0; MAX_POLYGON_VERTICES];
            for (ri, p) in r.iter_mut().zip(proxy.points()) {
                *ri = p.distance(center);
            }
            r
        };
        let (wa, wb) = (sweep_a.a2 - sweep_a.a1, sweep_b.a2 - sweep_b.a1);
        MotionBound {
            proxy_a,
            proxy_b,
            sweep_a,
            sweep_b,
            radius_a: radii(proxy_a, sweep_a.local_center),
            radius_b: radii(proxy_b, sweep_b.local_center),
            omega_a_sq: wa * wa,
            omega_b_sq: wb * wb,
        }
    }

    /// True when either shape rotates; without rotation every interval whose ends are
    /// separated is clear (the separation along a fixed axis is then concave in time).
    pub fn rotates(&self) -> bool {
        self.omega_a_sq > 0.0 || self.omega_b_sq > 0.0
    }

    /// The positions needed to bound the interval [t1, t2], from the poses at its ends.
    pub fn poses(
        &self,
        (t1, xa1, xb1): (f32, Transform, Transform),
        (t2, xa2, xb2): (f32, Transform, Transform),
    ) -> IntervalPoses {
        let mut poses = IntervalPoses {
            a: [[Vec2::ZERO; MAX_POLYGON_VERTICES]; 2],
            b: [[Vec2::ZERO; MAX_POLYGON_VERTICES]; 2],
            centers: [Vec2::ZERO; 2],
            width: t2 - t1,
        };
        for (k, (t, xa, xb)) in [(t1, xa1, xb1), (t2, xa2, xb2)].into_iter().enumerate() {
            let ca = self.sweep_a.center_at(t);
            for (slot, &p) in poses.a[k].iter_mut().zip(self.proxy_a.points()) {
                *slot = xa.apply(p) - ca;
            }
            for (slot, &p) in poses.b[k].iter_mut().zip(self.proxy_b.points()) {
                *slot = xb.apply(p) - ca;
            }
            poses.centers[k] = self.sweep_b.center_at(t) - ca;
        }
        poses
    }

    /// A lower bound on the separation of the cores along the world-fixed unit axis `u`
    /// (pointing from A to B) at every time of the interval (meters).
    pub fn lower_bound(&self, poses: &IntervalPoses, u: Vec2) -> f32 {
        let half_w_sq = 0.5 * poses.width * poses.width;
        let center_floor = u.dot(poses.centers[0]).min(u.dot(poses.centers[1]));
        let mut lowest_b = f32::INFINITY;
        for j in 0..self.proxy_b.count() {
            let r = self.radius_b[j];
            let curved = chord_min(u.dot(poses.b[0][j]), u.dot(poses.b[1][j]), self.omega_b_sq * r * half_w_sq);
            lowest_b = lowest_b.min(curved.max(center_floor - r));
        }
        let mut highest_a = f32::NEG_INFINITY;
        for i in 0..self.proxy_a.count() {
            let r = self.radius_a[i];
            let curved = -chord_min(-u.dot(poses.a[0][i]), -u.dot(poses.a[1][i]), self.omega_a_sq * r * half_w_sq);
            highest_a = highest_a.max(curved.min(r));
        }
        lowest_b - highest_a
    }
}

/// The least value over s ∈ [0, 1] of `y0 + (y1 - y0) s - k s (1 - s)` (k ≥ 0): the floor
/// of a function through y0 and y1 whose curvature is bounded by 2k.
#[inline]
fn chord_min(y0: f32, y1: f32, k: f32) -> f32 {
    let rise = y1 - y0;
    if rise.abs() < k {
        let lack = k - rise;
        y0 - lack * lack / (4.0 * k)
    } else {
        y0.min(y1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chord_min_is_the_parabola_minimum() {
        assert_eq!(chord_min(1.0, 2.0, 0.0), 1.0);
        // Symmetric: minimum at s = 1/2, k/4 below the chord.
        assert!((chord_min(1.0, 1.0, 2.0) - 0.5).abs() < 1e-6);
        // Steep chord: the end is the minimum.
        assert_eq!(chord_min(3.0, 0.0, 1.0), 0.0);
    }

    #[test]
    fn bounds_a_spinning_rod_passing_a_point_from_below() {
        // A 2 m rod spinning a half turn about its center, 0.5 m from a point at the origin:
        // its tip sweeps the point, so no positive bound may be claimed over the interval.
        let rod = ShapeProxy::new(&[Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0)], 0.0).unwrap();
        let point = ShapeProxy::new(&[Vec2::ZERO], 0.0).unwrap();
        let still = Sweep::fixed(Transform::IDENTITY);
        let spin = Sweep {
            local_center: Vec2::ZERO,
            c1: Vec2::new(0.0, 0.5),
            c2: Vec2::new(0.0, 0.5),
            a1: 0.0,
            a2: std::f32::consts::PI,
        };
        let bound = MotionBound::new((&point, &still), (&rod, &spin));
        let (xa1, xb1, xa2, xb2) =
            (still.transform_at(0.0), spin.transform_at(0.0), still.transform_at(1.0), spin.transform_at(1.0));
        let poses = bound.poses((0.0, xa1, xb1), (1.0, xa2, xb2));
        // At both ends the rod is horizontal 0.5 m above the point.
        assert!(bound.lower_bound(&poses, Vec2::Y) < 0.0);
        // Over a short slice near the start the rod has barely turned: a positive bound.
        let (xb_small, t_small) = (spin.transform_at(0.01), 0.01);
        let poses = bound.poses((0.0, xa1, xb1), (t_small, xa1, xb_small));
        let floor = bound.lower_bound(&poses, Vec2::Y);
        assert!(floor > 0.4 && floor <= 0.5, "{floor}");
    }
}
