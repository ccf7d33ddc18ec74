//! A certificate that no collision hides inside a time interval, in 3D.
//!
//! Bilateral advancement only looks at the deepest points at the end of an interval, so a
//! shape that turns into the other and out again within the interval goes unseen. This
//! module bounds, from the poses at both ends alone, how low the separation of the cores
//! along an axis can dip in between. The 2D crate's `motion_bound.rs` does the same; the
//! bounds carry over to 3D because a point turning at constant angular velocity ω about a
//! center accelerates by |ω|² times its distance from the axis, at most |ω|² r.
//!
//! Along a world-fixed axis u, relative to A's center of rotation (which moves linearly),
//! `u · (b(t) - a(t))` for a point b of B and a of A is the centers' line plus two turning
//! terms: its second derivative is at most `|ω_a|² r_a + |ω_b|² r_b`, so it lies above its
//! chord less that curvature's sag, and never below the centers' line less both radii. The
//! separation along u is the least such difference, which bounds it over the interval.
//!
//! Along an axis fixed in a turning body F (the contact that turns with a body), F's own
//! points stand still, and a point of the other body O, seen from F, accelerates by at most
//! `|ω_F|² D + 2 |ω_F| |v| + (|Δ|² + |Δ × ω_F|) r`: the frame's centripetal term on the
//! centers' distance D, the Coriolis term of the centers' relative speed v, and O's own turn
//! seen from F, with Δ = ω_O - ω_F. (In 2D the last term is Δ² r; in 3D the two rotations
//! need not share an axis, and the Jacobi identity leaves the extra |Δ × ω_F| r.)

use super::proxy::ShapeProxy;
use crate::math::{Quat, Sweep, Transform, Vec3};
use crate::settings::MAX_HULL_VERTICES;
use impact_core::toi::chord_min;
use std::cell::Cell;

/// What the certificate needs of two moving proxies, computed once per query.
pub(crate) struct MotionBound<'a> {
    proxy_a: &'a ShapeProxy,
    proxy_b: &'a ShapeProxy,
    sweep_a: &'a Sweep,
    sweep_b: &'a Sweep,
    /// Distance of each core point from its body's center of rotation (meters).
    radius_a: [f32; MAX_HULL_VERTICES],
    radius_b: [f32; MAX_HULL_VERTICES],
    /// The largest of each, summed: the radii of spheres about the centers holding the cores.
    max_radius: f32,
    /// The largest of A's.
    max_radius_a: f32,
    rotates: bool,
    /// Angular velocities over the whole sweep (radians per unit of normalized time, world).
    omega_a: Vec3,
    omega_b: Vec3,
    /// Speed of B's center relative to A's (meters per unit of normalized time).
    relative_speed: f32,
    /// Which world axis (0: GJK's normal at the start, 1: the separation axis at the end)
    /// certified the last piece: tried first on the next.
    first_world: Cell<usize>,
}

/// The axes a certificate tries, each fixed in one frame: the world, A's body, B's body.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CertAxes {
    world: [Vec3; 2],
    in_a: [Vec3; 2],
    in_b: [Vec3; 2],
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

/// Both bodies' poses at one time, relative to A's center of rotation: a core point p of
/// A sits at `rot_a * p + offset_a`, one of B at `rot_b * p + offset_b`.
///
/// The points are never placed: every bound needs only their projections on a few
/// directions, and `w · (R p + o) = (R⁻¹ w) · p + w · o` turns the direction into the body's
/// frame once instead of every point into the world (a pose set costs two subtractions, not
/// a rotation per core point and a copy of two arrays of [`MAX_HULL_VERTICES`] points).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PoseSet {
    t: f32,
    offset_a: Vec3,
    offset_b: Vec3,
    /// B's center of rotation relative to A's.
    center_b: Vec3,
    rot_a: Quat,
    rot_b: Quat,
}

/// A world direction w seen from both bodies at one pose set: the projection of a core
/// point p on w (relative to A's center of rotation) is `local · p + shift`.
#[derive(Clone, Copy, Debug)]
struct Projection {
    local_a: Vec3,
    shift_a: f32,
    local_b: Vec3,
    shift_b: f32,
}

impl PoseSet {
    /// The direction `w` (world) in both bodies' frames.
    fn project(&self, w: Vec3) -> Projection {
        Projection {
            local_a: self.rot_a.inverse() * w,
            shift_a: w.dot(self.offset_a),
            local_b: self.rot_b.inverse() * w,
            shift_b: w.dot(self.offset_b),
        }
    }
}

impl Projection {
    fn a(&self, p: Vec3) -> f32 {
        self.local_a.dot(p) + self.shift_a
    }

    fn b(&self, p: Vec3) -> f32 {
        self.local_b.dot(p) + self.shift_b
    }
}

impl<'a> MotionBound<'a> {
    pub fn new(
        (proxy_a, sweep_a): (&'a ShapeProxy, &'a Sweep),
        (proxy_b, sweep_b): (&'a ShapeProxy, &'a Sweep),
    ) -> Self {
        // The radii and their largest in one pass over the points only, not the whole
        // arrays (64 entries each, most of them unused padding).
        let radii = |proxy: &ShapeProxy, center: Vec3| {
            let (mut r, mut largest) = ([0.0; MAX_HULL_VERTICES], 0.0f32);
            for (ri, p) in r.iter_mut().zip(proxy.points()) {
                *ri = p.distance(center);
                largest = largest.max(*ri);
            }
            (r, largest)
        };
        let ((radius_a, max_a), (radius_b, max_b)) =
            (radii(proxy_a, sweep_a.local_center), radii(proxy_b, sweep_b.local_center));
        let (omega_a, omega_b) = (sweep_a.rotation, sweep_b.rotation);
        MotionBound {
            proxy_a,
            proxy_b,
            sweep_a,
            sweep_b,
            radius_a,
            radius_b,
            max_radius: max_a + max_b,
            max_radius_a: max_a,
            rotates: (omega_a != Vec3::ZERO && max_a > 0.0) || (omega_b != Vec3::ZERO && max_b > 0.0),
            omega_a,
            omega_b,
            relative_speed: ((sweep_b.c2 - sweep_b.c1) - (sweep_a.c2 - sweep_a.c1)).length(),
            first_world: Cell::new(1),
        }
    }

    /// True when a rotation moves some core point. Without that the separation along a
    /// fixed axis is concave in time, and every interval whose ends are clear is clear.
    pub fn rotates(&self) -> bool {
        self.rotates
    }

    /// A lower bound on the core distance over [t1, t2] from bounding spheres alone: the
    /// closest approach of the two centers of rotation (straight lines) less the radii of
    /// spheres about them that hold the cores. Costs no transform.
    pub fn sphere_bound(&self, t1: f32, t2: f32) -> f32 {
        let center = |s: &Sweep, t: f32| s.c1 + (s.c2 - s.c1) * t;
        let offset = |t| center(self.sweep_b, t) - center(self.sweep_a, t);
        let (c1, c2) = (offset(t1), offset(t2));
        let path = c2 - c1;
        let s = if path == Vec3::ZERO { 0.0 } else { (-c1.dot(path) / path.length_squared()).clamp(0.0, 1.0) };
        (c1 + s * path).length() - self.max_radius
    }

    /// Both poses at time `t`, given both bodies' transforms there.
    pub fn pose_set(&self, t: f32, xa: Transform, xb: Transform) -> PoseSet {
        let ca = self.sweep_a.c1 + (self.sweep_a.c2 - self.sweep_a.c1) * t;
        let cb = self.sweep_b.c1 + (self.sweep_b.c2 - self.sweep_b.c1) * t;
        PoseSet { t, offset_a: xa.p - ca, offset_b: xb.p - ca, center_b: cb - ca, rot_a: xa.q, rot_b: xb.q }
    }

    /// The candidate axes for the interval between two pose sets, from GJK's normal at its
    /// start and the separation axis at its end (both world, from A to B).
    pub fn axes(&self, p0: &PoseSet, p1: &PoseSet, normal_at_start: Vec3, axis_at_end: Vec3) -> CertAxes {
        let local = |q0: Quat, q1: Quat| [q0.inverse() * normal_at_start, q1.inverse() * axis_at_end];
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
        let pm = self.pose_set(tm, self.sweep_a.transform_at(tm), self.sweep_b.transform_at(tm));
        if self.midpoint_below(&pm, axes, lo) {
            return failed;
        }
        let left = self.certify(p0, &pm, axes, lo, depth - 1);
        if left.floor < lo {
            return left;
        }
        let right = self.certify(&pm, p1, axes, lo, depth - 1);
        Certificate { floor: left.floor.min(right.floor), reached: right.reached }
    }

    /// The best floor over the piece among the axes of every frame, stopping at the first
    /// that reaches `lo`. A frame that does not turn is the world frame again: skipped.
    fn piece_floor(&self, p0: &PoseSet, p1: &PoseSet, axes: &CertAxes, lo: f32) -> f32 {
        let mut floor = f32::NEG_INFINITY;
        // The world axis that certified the last piece first: the pieces of one query tend to
        // be certified by the same one (on random shapes the axis at the end 97 % of the
        // time, on spinning rods mostly GJK's normal at the start), and a paired bound that
        // fails first costs as much as the one that then succeeds.
        let first = self.first_world.get();
        for k in [first, 1 - first] {
            let u = axes.world[k];
            // The same axis at both ends gives the same floor.
            if k == first || u != axes.world[first] {
                floor = floor.max(self.lower_bound_to(p0, p1, u, lo));
                if floor >= lo {
                    self.first_world.set(k);
                    return floor;
                }
            }
        }
        for (in_a, omega, frame_axes) in [(true, self.omega_a, &axes.in_a), (false, self.omega_b, &axes.in_b)] {
            if omega == Vec3::ZERO {
                continue;
            }
            for &u in frame_axes {
                floor = floor.max(self.body_frame_bound(p0, p1, u, in_a));
                if floor >= lo {
                    return floor;
                }
            }
        }
        floor
    }

    /// True when, at one pose set, the separation along every candidate axis is below `lo`.
    /// As in [`Self::piece_floor`], a frame that does not turn holds the world axes again
    /// (turned there and back): skipped.
    fn midpoint_below(&self, pm: &PoseSet, axes: &CertAxes, lo: f32) -> bool {
        let below = |u: Vec3| self.separation(pm, u) < lo;
        let turned = |omega: Vec3, q: Quat, body: &[Vec3; 2]| omega == Vec3::ZERO || body.iter().all(|&u| below(q * u));
        axes.world.iter().all(|&u| below(u))
            && turned(self.omega_a, pm.rot_a, &axes.in_a)
            && turned(self.omega_b, pm.rot_b, &axes.in_b)
    }

    /// A floor on the separation along `u`, fixed in A's frame (`in_a`) or in B's, between
    /// two pose sets: that body's points stand still in its frame, the other's bend by at
    /// most the curvature of the module's header.
    fn body_frame_bound(&self, p0: &PoseSet, p1: &PoseSet, u: Vec3, in_a: bool) -> f32 {
        let width = p1.t - p0.t;
        let half_w_sq = 0.5 * width * width;
        let (frame, other) = if in_a { (self.omega_a, self.omega_b) } else { (self.omega_b, self.omega_a) };
        let spin = other - frame;
        let spin_curve = spin.length_squared() + spin.cross(frame).length();
        let w = frame.length();
        let centers = p0.center_b.length().max(p1.center_b.length());
        let sweep_curve = w * w * centers + 2.0 * w * self.relative_speed;
        // Coordinates in the frame (about the frame body's center, unturned) along u: the
        // projection on u turned with the frame, less the frame's center (A's is the origin).
        // The frame body's own points project on u itself (not on u turned into the world
        // and back): only the other body's frame needs the turned axis.
        let along = |p: &PoseSet| {
            let (turn, center) = if in_a { (p.rot_a, Vec3::ZERO) } else { (p.rot_b, p.center_b) };
            let w = turn * u;
            let shift = w.dot(center);
            let (local_a, local_b) = if in_a { (u, p.rot_b.inverse() * w) } else { (p.rot_a.inverse() * w, u) };
            Projection { local_a, shift_a: w.dot(p.offset_a) - shift, local_b, shift_b: w.dot(p.offset_b) - shift }
        };
        let (j0, j1) = (along(p0), along(p1));
        let (a, b) = (self.proxy_a.points(), self.proxy_b.points());
        // The separation runs from A to B: in A's frame the moving (B) points are bounded
        // below, in B's frame the moving (A) points above.
        let sign = if in_a { 1.0 } else { -1.0 };
        let (moving, moving_radius, still) = if in_a { (b, &self.radius_b, a) } else { (a, &self.radius_a, b) };
        let place = |j: &Projection, p: Vec3, moving_side: bool| {
            let of_b = in_a == moving_side;
            sign * if of_b { j.b(p) } else { j.a(p) }
        };
        let mut lowest_moving = f32::INFINITY;
        for (k, &v) in moving.iter().enumerate() {
            let bend = (sweep_curve + spin_curve * moving_radius[k]) * half_w_sq;
            let (y0, y1) = (place(&j0, v, true), place(&j1, v, true));
            lowest_moving = lowest_moving.min(chord_min(y0, y1, bend));
        }
        let mut highest_still = f32::NEG_INFINITY;
        for &v in still {
            let (z0, z1) = (place(&j0, v, false), place(&j1, v, false));
            highest_still = highest_still.max(z0.max(z1));
        }
        lowest_moving - highest_still
    }

    /// The exact separation of the cores along `u` at one pose set.
    fn separation(&self, set: &PoseSet, u: Vec3) -> f32 {
        let j = set.project(u);
        let lowest_b = self.proxy_b.points().iter().fold(f32::INFINITY, |m, &p| m.min(j.b(p)));
        let highest_a = self.proxy_a.points().iter().fold(f32::NEG_INFINITY, |m, &p| m.max(j.a(p)));
        lowest_b - highest_a
    }

    /// [`Self::lower_bound`], or a lower floor when that already reaches `lo`
    /// ([`Self::unpaired_bound`], in na + nb steps where the paired bound takes na × nb).
    /// Tried only where pairs outnumber twice the points (a box against a hull, not a rod or
    /// a sphere): it fails often enough that a cheap paired bound should not wait for it.
    fn lower_bound_to(&self, p0: &PoseSet, p1: &PoseSet, u: Vec3, lo: f32) -> f32 {
        let (na, nb) = (self.proxy_a.points().len(), self.proxy_b.points().len());
        if na * nb > 2 * (na + nb) {
            let quick = self.unpaired_bound(p0, p1, u);
            if quick >= lo {
                return quick;
            }
        }
        self.lower_bound(p0, p1, u)
    }

    /// A floor below [`Self::lower_bound`]'s: each point of B paired with A's highest points
    /// at either end and A's largest radius. The chord minimum only falls as either end falls
    /// or the curvature grows, so every true pair's bound is at least this one; it loses only
    /// the timing that pairing keeps, which most intervals do not need.
    fn unpaired_bound(&self, p0: &PoseSet, p1: &PoseSet, u: Vec3) -> f32 {
        let width = p1.t - p0.t;
        let half_w_sq = 0.5 * width * width;
        let (kb, ka) = (self.omega_b.length_squared() * half_w_sq, self.omega_a.length_squared() * half_w_sq);
        let (j0, j1) = (p0.project(u), p1.project(u));
        let highest = |j: &Projection| self.proxy_a.points().iter().fold(f32::NEG_INFINITY, |m, &a| m.max(j.a(a)));
        let (h0, h1) = (highest(&j0), highest(&j1));
        let bend_a = ka * self.max_radius_a;
        let mut lowest = f32::INFINITY;
        for (&b, &rb) in self.proxy_b.points().iter().zip(&self.radius_b) {
            lowest = lowest.min(chord_min(j0.b(b) - h0, j1.b(b) - h1, kb * rb + bend_a));
        }
        lowest
    }

    /// A lower bound on the separation of the cores along the world-fixed unit axis `u`
    /// (from A to B) at every time between two pose sets (meters).
    ///
    /// Each pair of points (one of A, one of B) is bounded as one function, chord minus
    /// curvature, or its centers' line minus both radii, whichever is higher: pairing keeps
    /// the timing, where bounding B's lowest point and A's highest apart would let them
    /// occur at different times.
    pub fn lower_bound(&self, p0: &PoseSet, p1: &PoseSet, u: Vec3) -> f32 {
        let width = p1.t - p0.t;
        let half_w_sq = 0.5 * width * width;
        let center_floor = u.dot(p0.center_b).min(u.dot(p1.center_b));
        let (kb, ka) = (self.omega_b.length_squared() * half_w_sq, self.omega_a.length_squared() * half_w_sq);
        let (j0, j1) = (p0.project(u), p1.project(u));
        let mut lowest = f32::INFINITY;
        for (&b, &rb) in self.proxy_b.points().iter().zip(&self.radius_b) {
            let (y0, y1) = (j0.b(b), j1.b(b));
            for (&a, &ra) in self.proxy_a.points().iter().zip(&self.radius_a) {
                let curved = chord_min(y0 - j0.a(a), y1 - j1.a(a), kb * rb + ka * ra);
                lowest = lowest.min(curved.max(center_floor - rb - ra));
            }
        }
        lowest
    }
}
