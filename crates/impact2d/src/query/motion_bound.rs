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
//! length), and never below the line minus r. The same holds for the difference of a B
//! point and an A point, with both curvatures added; the separation of the cores along u
//! is the least such difference, so the bounds give a floor for it over the whole interval.
//! The floor is exact without rotation and tightens with the square of the interval, so
//! halving an interval until it certifies ends quickly unless the shapes truly graze. A
//! cheaper first test bounds each shape by a circle about its center of rotation.
//!
//! A world-fixed axis cannot follow a contact that turns with a body (a rod sliding over a
//! corner while it spins), so the same floor is also taken in each turning body's own frame,
//! along the separation axis fixed in that body. There the body's own points stand still and
//! the other body's points curve by at most ω² D + 2 |ω| |v| + (Δω)² r: the frame's spin
//! times the distance between the centers, the Coriolis term of the relative speed, and the
//! relative spin times the point's radius.

use super::proxy::ShapeProxy;
use crate::math::{Rot, SweepEval, Transform, Vec2};
use crate::settings::MAX_POLYGON_VERTICES;
use impact_core::toi::chord_min;

/// What the certificate needs of two moving proxies, computed once per query.
pub(crate) struct MotionBound<'a> {
    proxy_a: &'a ShapeProxy,
    proxy_b: &'a ShapeProxy,
    sweep_a: &'a SweepEval,
    sweep_b: &'a SweepEval,
    /// Distance of each core point from its body's center of rotation (meters).
    radius_a: [f32; MAX_POLYGON_VERTICES],
    radius_b: [f32; MAX_POLYGON_VERTICES],
    /// The largest of each, summed: the radii of circles about the centers holding the cores.
    max_radius: f32,
    /// Whether a rotation moves some core point ([`Self::rotates`]).
    rotates: bool,
    /// Angular displacement over the whole sweep (rad) and its square.
    omega_a: f32,
    omega_b: f32,
    omega_a_sq: f32,
    omega_b_sq: f32,
    /// Speed of B's center relative to A's (meters per unit of normalized time).
    relative_speed: f32,
}

/// The axes a certificate tries, each fixed in one frame: the world, A's body, B's body.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CertAxes {
    world: [Vec2; 2],
    in_a: [Vec2; 2],
    in_b: [Vec2; 2],
}

/// The result of certifying an interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Certificate {
    /// A floor on the core separation (meters): over the whole interval when it is at
    /// least the level asked for, else over the piece that failed.
    pub floor: f32,
    /// The end of the certified prefix of the interval (normalized time).
    pub reached: f32,
}

/// The core points at one time, relative to A's center of rotation, and both rotations.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PoseSet {
    t: f32,
    a: [Vec2; MAX_POLYGON_VERTICES],
    b: [Vec2; MAX_POLYGON_VERTICES],
    /// B's center of rotation relative to A's.
    center_b: Vec2,
    rot_a: Rot,
    rot_b: Rot,
}

impl<'a> MotionBound<'a> {
    pub fn new(
        (proxy_a, sweep_a): (&'a ShapeProxy, &'a SweepEval),
        (proxy_b, sweep_b): (&'a ShapeProxy, &'a SweepEval),
    ) -> MotionBound<'a> {
        let radii = |proxy: &ShapeProxy, center: Vec2| {
            let mut r = [0.0; MAX_POLYGON_VERTICES];
            for (ri, p) in r.iter_mut().zip(proxy.points()) {
                *ri = p.distance(center);
            }
            r
        };
        let (radius_a, radius_b) =
            (radii(proxy_a, sweep_a.sweep.local_center), radii(proxy_b, sweep_b.sweep.local_center));
        let max = |r: &[f32]| r.iter().copied().fold(0.0, f32::max);
        let (sa, sb) = (&sweep_a.sweep, &sweep_b.sweep);
        let (wa, wb) = (sa.a2 - sa.a1, sb.a2 - sb.a1);
        let (max_a, max_b) = (max(&radius_a), max(&radius_b));
        MotionBound {
            proxy_a,
            proxy_b,
            sweep_a,
            sweep_b,
            max_radius: max_a + max_b,
            rotates: (wa != 0.0 && max_a > 0.0) || (wb != 0.0 && max_b > 0.0),
            radius_a,
            radius_b,
            omega_a: wa,
            omega_b: wb,
            omega_a_sq: wa * wa,
            omega_b_sq: wb * wb,
            relative_speed: ((sb.c2 - sb.c1) - (sa.c2 - sa.c1)).length(),
        }
    }

    /// True when a rotation moves some core point: a shape turns and its core reaches beyond
    /// its center of rotation (a circle or a point turning about itself moves nothing).
    /// Without that every interval whose ends are separated is clear (the separation along
    /// a fixed axis is then concave in time).
    pub fn rotates(&self) -> bool {
        self.rotates
    }

    /// A lower bound on the core distance over [t1, t2] from bounding circles alone: the
    /// closest approach of the two centers of rotation, which move in straight lines, less
    /// the radii of circles about them that hold the cores. Costs no transform.
    pub fn circle_bound(&self, t1: f32, t2: f32) -> f32 {
        let offset = |t| self.sweep_b.sweep.center_at(t) - self.sweep_a.sweep.center_at(t);
        let (c1, c2) = (offset(t1), offset(t2));
        let path = c2 - c1;
        let s = if path == Vec2::ZERO { 0.0 } else { (-c1.dot(path) / path.length_squared()).clamp(0.0, 1.0) };
        (c1 + s * path).length() - self.max_radius
    }

    /// The core points at time `t`, given both bodies' transforms there.
    pub fn pose_set(&self, t: f32, xa: Transform, xb: Transform) -> PoseSet {
        let ca = self.sweep_a.sweep.center_at(t);
        // Over the whole padded arrays: no branch per point, and the padding is never read.
        let (pa, pb) = (self.proxy_a.padded_points(), self.proxy_b.padded_points());
        PoseSet {
            t,
            a: std::array::from_fn(|i| xa.apply(pa[i]) - ca),
            b: std::array::from_fn(|i| xb.apply(pb[i]) - ca),
            center_b: self.sweep_b.sweep.center_at(t) - ca,
            rot_a: xa.q,
            rot_b: xb.q,
        }
    }

    /// The candidate axes for the interval between two pose sets, from GJK's normal at its
    /// start and the separation axis at its end (both world, from A to B).
    pub fn axes(&self, p0: &PoseSet, p1: &PoseSet, normal_at_start: Vec2, axis_at_end: Vec2) -> CertAxes {
        let local = |q0: Rot, q1: Rot| [q0.inv_rotate(normal_at_start), q1.inv_rotate(axis_at_end)];
        CertAxes {
            world: [normal_at_start, axis_at_end],
            in_a: local(p0.rot_a, p1.rot_a),
            in_b: local(p0.rot_b, p1.rot_b),
        }
    }

    /// Certifies the interval between two pose sets: a floor on the core separation along
    /// the best of the axes on each piece, halving pieces up to `depth` times while their
    /// floor is below `lo`, left piece first. A piece whose midpoint is already below `lo`
    /// along every axis is not split: the axes, not the bound, are what fail there.
    pub fn certify(&self, p0: &PoseSet, p1: &PoseSet, axes: &CertAxes, lo: f32, depth: u32) -> Certificate {
        let floor = self.piece_floor(p0, p1, axes, lo);
        if floor >= lo {
            return Certificate { floor, reached: p1.t };
        }
        let failed = Certificate { floor, reached: p0.t };
        if depth == 0 {
            return failed;
        }
        let tm = 0.5 * (p0.t + p1.t);
        let (xa, xb) = SweepEval::pair_at(self.sweep_a, self.sweep_b, tm);
        let pm = self.pose_set(tm, xa, xb);
        if self.midpoint_below(&pm, axes, lo) {
            return failed;
        }
        let left = self.certify(p0, &pm, axes, lo, depth - 1);
        if left.floor < lo {
            return left;
        }
        let right = self.certify(&pm, p1, axes, lo, depth - 1);
        Certificate { floor: min(left.floor, right.floor), reached: right.reached }
    }

    /// The best floor over the piece among the axes of every frame, stopping at the first
    /// that reaches `lo`. A frame that does not turn is the world frame again: skipped.
    fn piece_floor(&self, p0: &PoseSet, p1: &PoseSet, axes: &CertAxes, lo: f32) -> f32 {
        let mut floor = f32::NEG_INFINITY;
        // Plain loops rather than chained iterators: this runs for every piece of every step.
        for (k, &u) in axes.world.iter().enumerate() {
            // The same axis at both ends (a world-fixed separation axis) gives the same floor.
            if k == 0 || u != axes.world[0] {
                floor = max(floor, self.lower_bound(p0, p1, u));
                if floor >= lo {
                    return floor;
                }
            }
        }
        for (in_a, turns, frame_axes) in
            [(true, self.omega_a != 0.0, &axes.in_a), (false, self.omega_b != 0.0, &axes.in_b)]
        {
            if !turns {
                continue;
            }
            for &u in frame_axes {
                floor = max(floor, self.body_frame_bound(p0, p1, u, in_a));
                if floor >= lo {
                    return floor;
                }
            }
        }
        floor
    }

    /// True when, at one pose set, the separation along every candidate axis is below `lo`.
    fn midpoint_below(&self, pm: &PoseSet, axes: &CertAxes, lo: f32) -> bool {
        let world = axes.world.iter().copied();
        let in_a = axes.in_a.iter().map(|&u| pm.rot_a.rotate(u));
        let in_b = axes.in_b.iter().map(|&u| pm.rot_b.rotate(u));
        world.chain(in_a).chain(in_b).all(|u| self.separation(pm, u) < lo)
    }

    /// A floor on the separation along `u`, fixed in A's frame (`in_a`) or in B's, between
    /// two pose sets. That body's points stand still in its frame; the other's curve by at
    /// most ω² D + 2 |ω| |v| + (Δω)² r.
    fn body_frame_bound(&self, p0: &PoseSet, p1: &PoseSet, u: Vec2, in_a: bool) -> f32 {
        let width = p1.t - p0.t;
        let half_w_sq = 0.5 * width * width;
        let (omega, spin_sq) = if in_a {
            (self.omega_a, (self.omega_b - self.omega_a) * (self.omega_b - self.omega_a))
        } else {
            (self.omega_b, (self.omega_a - self.omega_b) * (self.omega_a - self.omega_b))
        };
        let centers = max(p0.center_b.length(), p1.center_b.length());
        let sweep_curve = omega * omega * centers + 2.0 * omega.abs() * self.relative_speed;
        // Coordinates in the frame: about the frame body's center, unrotated by its turn.
        let in_frame = |p: &PoseSet, v: Vec2| {
            if in_a { p.rot_a.inv_rotate(v) } else { p.rot_b.inv_rotate(v - p.center_b) }
        };
        let (na, nb) = (self.proxy_a.count(), self.proxy_b.count());
        let (moving0, moving1, moving_radius, still0, still1) = if in_a {
            (&p0.b[..nb], &p1.b[..nb], &self.radius_b, &p0.a[..na], &p1.a[..na])
        } else {
            (&p0.a[..na], &p1.a[..na], &self.radius_a, &p0.b[..nb], &p1.b[..nb])
        };
        // The separation runs from A to B: B's side counts up, A's side down, so in A's frame
        // the moving (B) points are bounded below, in B's the moving (A) points above.
        let sign = if in_a { 1.0 } else { -1.0 };
        let mut lowest_moving = f32::INFINITY;
        for (k, (&v0, &v1)) in moving0.iter().zip(moving1).enumerate() {
            let bend = (sweep_curve + spin_sq * moving_radius[k]) * half_w_sq;
            let (y0, y1) = (sign * u.dot(in_frame(p0, v0)), sign * u.dot(in_frame(p1, v1)));
            lowest_moving = min(lowest_moving, chord_min(y0, y1, bend));
        }
        let mut highest_still = f32::NEG_INFINITY;
        for (&v0, &v1) in still0.iter().zip(still1) {
            let (z0, z1) = (sign * u.dot(in_frame(p0, v0)), sign * u.dot(in_frame(p1, v1)));
            highest_still = max(highest_still, max(z0, z1));
        }
        lowest_moving - highest_still
    }

    /// The exact separation of the cores along `u` at one pose set.
    fn separation(&self, set: &PoseSet, u: Vec2) -> f32 {
        let lowest_b = set.b[..self.proxy_b.count()].iter().fold(f32::INFINITY, |m, p| min(m, u.dot(*p)));
        let highest_a = set.a[..self.proxy_a.count()].iter().fold(f32::NEG_INFINITY, |m, p| max(m, u.dot(*p)));
        lowest_b - highest_a
    }

    /// A lower bound on the separation of the cores along the world-fixed unit axis `u`
    /// (pointing from A to B) at every time between two pose sets (meters).
    ///
    /// Each pair of points (one of A, one of B) is bounded as one function, chord minus
    /// curvature, or its centers' line minus both radii, whichever is higher. Pairing keeps
    /// the timing: bounding B's lowest point and A's highest point separately would let them
    /// occur at different times, which is far too pessimistic when both shapes turn.
    pub fn lower_bound(&self, p0: &PoseSet, p1: &PoseSet, u: Vec2) -> f32 {
        let width = p1.t - p0.t;
        let half_w_sq = 0.5 * width * width;
        let center_floor = min(u.dot(p0.center_b), u.dot(p1.center_b));
        let (kb, ka) = (self.omega_b_sq * half_w_sq, self.omega_a_sq * half_w_sq);
        let mut lowest = f32::INFINITY;
        for j in 0..self.proxy_b.count() {
            let (y0, y1, rb) = (u.dot(p0.b[j]), u.dot(p1.b[j]), self.radius_b[j]);
            for i in 0..self.proxy_a.count() {
                let ra = self.radius_a[i];
                let curved = chord_min(y0 - u.dot(p0.a[i]), y1 - u.dot(p1.a[i]), kb * rb + ka * ra);
                lowest = min(lowest, max(curved, center_floor - rb - ra));
            }
        }
        lowest
    }
}

/// The smaller of two numbers as one instruction (`f32::min` also orders NaN, which the
/// finite inputs here never are).
#[inline]
fn min(a: f32, b: f32) -> f32 {
    if a < b { a } else { b }
}

/// The larger of two numbers as one instruction.
#[inline]
fn max(a: f32, b: f32) -> f32 {
    if a > b { a } else { b }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Sweep;

    #[test]
    fn a_point_spinning_about_itself_does_not_rotate_anything() {
        let point = ShapeProxy::new(&[Vec2::ZERO], 0.05).unwrap();
        let still = SweepEval::new(Sweep::fixed(Transform::IDENTITY));
        let spin = |local_center| {
            SweepEval::new(Sweep { local_center, c1: Vec2::ZERO, c2: Vec2::new(3.0, 0.0), a1: 0.0, a2: 40.0 })
        };
        let centered = spin(Vec2::ZERO);
        assert!(!MotionBound::new((&point, &still), (&point, &centered)).rotates());
        // Off its center of rotation the same point swings: the certificate is needed.
        let offset = spin(Vec2::new(0.1, 0.0));
        assert!(MotionBound::new((&point, &still), (&point, &offset)).rotates());
        assert!(!MotionBound::new((&point, &still), (&point, &still)).rotates());
    }

    #[test]
    fn bounds_a_spinning_rod_passing_a_point_from_below() {
        // A 2 m rod spinning a half turn about its center, 0.5 m above a point: its tip
        // sweeps the point, so no positive floor may be claimed over the whole interval.
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
        let (still, spin) = (SweepEval::new(still), SweepEval::new(spin));
        let bound = MotionBound::new((&point, &still), (&rod, &spin));
        let at = |t: f32| bound.pose_set(t, still.transform_at(t), spin.transform_at(t));
        let (p0, p1) = (at(0.0), at(1.0));
        // At both ends the rod is horizontal 0.5 m above the point.
        assert!(bound.lower_bound(&p0, &p1, Vec2::Y) < 0.0);
        assert!(bound.certify(&p0, &p1, &bound.axes(&p0, &p1, Vec2::Y, Vec2::Y), 0.0, 6).floor < 0.0);
        assert!(bound.circle_bound(0.0, 1.0) < 0.0);
        // Over a short slice near the start the rod has barely turned: a positive floor.
        let floor = bound.lower_bound(&p0, &at(0.01), Vec2::Y);
        assert!(floor > 0.4 && floor <= 0.5, "{floor}");
    }

    #[test]
    fn refinement_tightens_the_floor_towards_the_true_minimum() {
        // A 2 m rod whose center drops from 2 m to 1 m above a point while its right tip
        // swings through straight down: the tip's height is 2 - t - cos(0.8 - 1.6 t),
        // lowest (0.2995 m) near t = 0.9. One interval's floor is too low; halving tightens it.
        let rod = ShapeProxy::new(&[Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0)], 0.0).unwrap();
        let point = ShapeProxy::new(&[Vec2::ZERO], 0.0).unwrap();
        let still = Sweep::fixed(Transform::IDENTITY);
        let down = -std::f32::consts::FRAC_PI_2;
        let spin = Sweep {
            local_center: Vec2::ZERO,
            c1: Vec2::new(0.0, 2.0),
            c2: Vec2::new(0.0, 1.0),
            a1: down - 0.8,
            a2: down + 0.8,
        };
        let (still, spin) = (SweepEval::new(still), SweepEval::new(spin));
        let bound = MotionBound::new((&point, &still), (&rod, &spin));
        let at = |t: f32| bound.pose_set(t, still.transform_at(t), spin.transform_at(t));
        let (p0, p1) = (at(0.0), at(1.0));
        let axes = bound.axes(&p0, &p1, Vec2::Y, Vec2::Y);
        let coarse = bound.certify(&p0, &p1, &axes, 0.29, 0);
        assert!(coarse.floor < 0.29 && coarse.reached == 0.0, "{coarse:?}");
        let fine = bound.certify(&p0, &p1, &axes, 0.29, 4);
        assert!((0.29..=0.2995).contains(&fine.floor) && fine.reached == 1.0, "{fine:?}");
        // Asking for more than the true minimum certifies only a prefix.
        let part = bound.certify(&p0, &p1, &axes, 0.31, 4);
        assert!(part.floor < 0.31 && part.reached > 0.5 && part.reached < 1.0, "{part:?}");
    }
}
