//! Time of impact by bilateral advancement, certified against rotation.
//!
//! Source: Catto, "Continuous Collision", GDC 2013. Bilateral advancement repeats: find the
//! closest features at t1 (GJK); build a separation function from them; look at the
//! deepest points at the end of the look-ahead interval; if they overlap, drive their
//! separation to the target with a bracketed root finder, and look again; when the
//! deepest points sit in the target band (or clear it), advance t1.
//!
//! Beyond the talk: the deepest points at the end of an interval say nothing about the
//! middle, so a shape that rotates into the other and out again within the interval would
//! be missed (Box2D v3 and parry clamp rotation to hide this). Here every advance is
//! certified by [`MotionBound`]: a floor on the separation over the whole interval, from
//! the poses at its ends. When the floor is too low, the look-ahead interval is halved and
//! the step retried, so cost only grows where rotation could really hide a collision.

use super::distance::{CoreDistance, DistanceInput, SimplexCache, world_core_distance};
use super::epa::contact_normal;
use super::error::{QueryError, check_vector};
use super::motion_bound::{Certificate, MotionBound, PoseSet};
use super::proxy::ShapeProxy;
use super::separation::{MinSeparation, SeparationFunction};
use crate::math::{Sweep, SweepEval, Transform, Vec2};
use crate::settings::{MAX_POLYGON_VERTICES, TOI_MAX_ITERATIONS, TOI_MAX_ROOT_ITERATIONS};
use impact_core::root::find_root;

pub use impact_core::ToiState;
use impact_core::toi::{Band, CERTIFY_DEPTH, MAX_SUBDIVISIONS, MAX_TOTAL_ROOT_ITERATIONS, RELAX_AFTER_HALVINGS};

/// The result of a time of impact query.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ToiOutput {
    /// How the query ended.
    pub state: ToiState,
    /// The normalized time: of impact for `Hit`, `t_max` for `Separated`, 0 for
    /// `Overlapped`, the last safe time for `Failed`.
    pub t: f32,
    /// Outer iterations: closest-feature (GJK) evaluations.
    pub iterations: u32,
    /// Iterations of the bracketed root finder, summed.
    pub root_iterations: u32,
    /// For `Hit`: the contact point at `t`, midway between the surfaces (meters, world).
    /// Zero otherwise.
    pub point: Vec2,
    /// For `Hit`: the unit normal at `t`, pointing from A to B. Zero otherwise.
    pub normal: Vec2,
    /// How many times a look-ahead interval was halved because rotation could hide a
    /// collision inside it.
    pub subdivisions: u32,
    /// True when the answer relied on a relaxed certificate: a contact shallower than a
    /// quarter of the thinner shape (a glancing contact) may have been missed.
    pub glancing: bool,
}

/// The first time in [0, `t_max`] at which the surface gap (meters) between two moving
/// shapes comes within `tolerance` of `target`, by certified bilateral advancement.
///
/// Shapes are proxies in body coordinates, moved by their sweeps over normalized time
/// (any rotation, including several turns per step). A `Hit` at t means the gap at t is in
/// `[target - tolerance, target + tolerance]` and was never below `target - tolerance`
/// before t; `Separated` means it stays above `target - tolerance` up to `t_max`. A gap
/// below zero at t = 0 is `Overlapped`; a gap within `target + tolerance` at t = 0 is a
/// `Hit` at 0. The only contacts that may be missed are glancing ones, shallower than a
/// quarter of the thinner shape, and only after many halvings (`glancing` is then set).
///
/// Typical values: `target` = [`crate::settings::TOI_TARGET`], `tolerance` =
/// [`crate::settings::TOI_TOLERANCE`].
///
/// `target` may be negative down to `-(radius_a + radius_b)` (rounded shapes sinking into
/// each other); a hit whose cores then touch or overlap takes the normal along which B
/// leaves A fastest (EPA's), so every `Hit` has a unit normal.
///
/// Precision: both sweeps are rebased on A's starting center, and each gap is measured by
/// [`shape_distance`](super::shape_distance)'s method, exact to 16 f32 spacings of the
/// largest coordinate met after rebasing (the shapes' extents and how far they move). The
/// band and the reference's checks hold to 2e-5 m for shapes within 10 m of each other
/// wherever they are (`tests/toi.rs`, also 5 km out); shapes farther apart than f32 can
/// resolve against their sizes (a 0.1 m polygon 408 km from a 1,000 km capsule) are still
/// told apart, as `Separated`, never `Overlapped`.
///
/// Errors: [`QueryError::NonFinite`] for a non-finite sweep or parameter;
/// [`QueryError::OutOfRange`] for a sweep position beyond [`crate::settings::MAX_COORDINATE`],
/// for a sweep whose turn `a2 - a1` overflows f32 (angles more than 3.4e38 rad apart), and
/// unless `0 <= t_max <= 1`, `tolerance > 0` and
/// `target + tolerance > -(radius_a + radius_b)` (the band must reach positive core
/// distances).
pub fn time_of_impact(
    proxy_a: &ShapeProxy,
    sweep_a: &Sweep,
    proxy_b: &ShapeProxy,
    sweep_b: &Sweep,
    t_max: f32,
    target: f32,
    tolerance: f32,
) -> Result<ToiOutput, QueryError> {
    Ok(ToiQuery::new((proxy_a, sweep_a), (proxy_b, sweep_b), t_max, target, tolerance)?.solve(true))
}

/// Bilateral advancement as the peers run it (Box2D v3, and parry's port used by rapier and
/// avian): the same algorithm as [`time_of_impact`] without the rotation certificate, so a
/// shape that turns into the other and out again within a look-ahead interval is missed.
/// For comparison in tests and benchmarks; use [`time_of_impact`].
///
/// Errors: those of [`time_of_impact`].
pub fn time_of_impact_uncertified(
    proxy_a: &ShapeProxy,
    sweep_a: &Sweep,
    proxy_b: &ShapeProxy,
    sweep_b: &Sweep,
    t_max: f32,
    target: f32,
    tolerance: f32,
) -> Result<ToiOutput, QueryError> {
    Ok(ToiQuery::new((proxy_a, sweep_a), (proxy_b, sweep_b), t_max, target, tolerance)?.solve(false))
}

/// A validated query: both sweeps rebased on A's starting center, the band in core terms.
pub(crate) struct ToiQuery<'a> {
    pub proxy_a: &'a ShapeProxy,
    pub proxy_b: &'a ShapeProxy,
    pub sweep_a: SweepEval,
    pub sweep_b: SweepEval,
    /// World position of the rebased origin.
    pub origin: Vec2,
    pub t_max: f32,
    pub band: Band,
    pub total_radius: f32,
}

/// What one proposal of bilateral advancement found.
enum Step {
    /// The separation function is within the band already at t1.
    HitNow,
    /// The deepest points cannot be resolved from t1 (round-off): give up at t1.
    Stuck,
    /// The deepest points at t2 are in the band or above it: a candidate advance.
    Reach(f32, MinSeparation),
    /// Too many deepest points changed places; the interval up to t2 needs a shorter look.
    Unresolved(f32),
}

impl<'a> ToiQuery<'a> {
    pub fn new(
        (proxy_a, sweep_a): (&'a ShapeProxy, &Sweep),
        (proxy_b, sweep_b): (&'a ShapeProxy, &Sweep),
        t_max: f32,
        target: f32,
        tolerance: f32,
    ) -> Result<ToiQuery<'a>, QueryError> {
        if !plainly_valid(sweep_a, sweep_b, [t_max, target, tolerance]) {
            check_sweep(sweep_a, "sweep_a")?;
            check_sweep(sweep_b, "sweep_b")?;
            for (what, value) in [("t_max", t_max), ("target", target), ("tolerance", tolerance)] {
                if !value.is_finite() {
                    return Err(QueryError::NonFinite { what });
                }
            }
        }
        for (what, sweep) in [("sweep_a", sweep_a), ("sweep_b", sweep_b)] {
            let turn = sweep.a2 - sweep.a1;
            if !turn.is_finite() {
                let requirement = "a turn a2 - a1 within f32's range";
                return Err(QueryError::OutOfRange { what, requirement, value: turn });
            }
        }
        let total_radius = proxy_a.radius() + proxy_b.radius();
        let band = Band::new(t_max, target, tolerance, total_radius)?;
        let origin = sweep_a.c1;
        let (sweep_a, sweep_b) = SweepEval::pair(rebase(sweep_a, origin), rebase(sweep_b, origin));
        Ok(ToiQuery { proxy_a, proxy_b, sweep_a, sweep_b, origin, t_max, band, total_radius })
    }

    /// The poses of both shapes at time `t` (world, rebased).
    pub fn poses(&self, t: f32) -> (Transform, Transform) {
        SweepEval::pair_at(&self.sweep_a, &self.sweep_b, t)
    }

    /// Core distance at the poses `(xa, xb)`, warm-started from `cache` (world, rebased).
    pub fn distance_at(&self, (xa, xb): (Transform, Transform), cache: &mut SimplexCache) -> CoreDistance {
        let input = DistanceInput { proxy_a: self.proxy_a, transform_a: xa, proxy_b: self.proxy_b, transform_b: xb };
        world_core_distance(&input, cache)
    }

    /// True when the core distance found at t = 0 means the surfaces overlap.
    pub fn overlapped(&self, d: &CoreDistance) -> bool {
        d.distance == 0.0 || d.distance < self.total_radius
    }

    /// Runs bilateral advancement, with or without certifying each advance.
    fn solve(&self, certified: bool) -> ToiOutput {
        // Only a rotation that moves some core point needs the certificate.
        let bound;
        let motion = if certified && (self.sweep_a.turns() || self.sweep_b.turns()) {
            bound = MotionBound::new((self.proxy_a, &self.sweep_a), (self.proxy_b, &self.sweep_b));
            Some(&bound).filter(|m| m.rotates())
        } else {
            None
        };
        let mut out = ToiOutput::start();
        let mut cache = SimplexCache::default();
        let mut glance_depth = None;
        let (mut t1, mut horizon) = (0.0, self.t_max);
        // The poses at the next t1, when the last step already computed them.
        let mut next_poses = None;
        loop {
            let (xa, xb) = next_poses.take().unwrap_or_else(|| self.poses(t1));
            let d = self.distance_at((xa, xb), &mut cache);
            out.iterations += 1;
            if t1 == 0.0 && self.overlapped(&d) {
                return out.ended(ToiState::Overlapped, 0.0);
            }
            if d.distance < self.band.hi {
                return self.hit(out, t1, &d);
            }
            if t1 >= self.t_max {
                return out.ended(ToiState::Separated, self.t_max);
            }
            if out.iterations >= TOI_MAX_ITERATIONS || out.root_iterations > MAX_TOTAL_ROOT_ITERATIONS {
                return out.ended(ToiState::Failed, t1);
            }
            let f = SeparationFunction::new(
                &cache,
                (self.proxy_a, &self.sweep_a),
                (self.proxy_b, &self.sweep_b),
                (xa, xb),
                d.normal,
            );
            let mut start_poses = None;
            let mut halvings = 0;
            let (t2, m) = loop {
                let (t2, failed) = match self.propose(&f, (t1, xa, xb), horizon, &mut out.root_iterations) {
                    Step::HitNow => return self.hit(out, t1, &d),
                    Step::Stuck => return out.ended(ToiState::Failed, t1),
                    Step::Unresolved(t2) => (t2, None),
                    Step::Reach(t2, m) => {
                        let axes = [d.normal, m.axis];
                        let cert = self.certify(motion, &mut start_poses, (t1, xa, xb), (t2, m.xf_a, m.xf_b), &axes);
                        if cert.floor >= self.band.lo {
                            break (t2, Some(m));
                        }
                        (t2, Some((cert, m)))
                    }
                };
                if let Some((cert, m)) = failed {
                    if halvings >= RELAX_AFTER_HALVINGS {
                        let glance = *glance_depth.get_or_insert_with(|| self.glance_depth());
                        if cert.floor >= self.band.lo - glance {
                            out.glancing = true;
                            break (t2, Some(m));
                        }
                    }
                    // Keep what was certified: restart from there, aiming at the same end.
                    if cert.reached > t1 {
                        break (cert.reached, None);
                    }
                }
                halvings += 1;
                out.subdivisions += 1;
                if out.subdivisions > MAX_SUBDIVISIONS || out.root_iterations > MAX_TOTAL_ROOT_ITERATIONS {
                    return out.ended(ToiState::Failed, t1);
                }
                horizon = t1 + 0.5 * (t2 - t1);
            };
            match m {
                Some(m) if m.separation > self.band.hi && t2 >= self.t_max => {
                    return out.ended(ToiState::Separated, self.t_max);
                }
                // After a certified step, look as far again as the step that worked.
                Some(m) => {
                    horizon = if halvings > 0 { (t2 + 2.0 * (t2 - t1)).min(self.t_max) } else { self.t_max };
                    next_poses = Some((m.xf_a, m.xf_b));
                }
                None => out.subdivisions += 1,
            }
            t1 = t2;
        }
    }

    /// Bilateral advancement from t1 towards `horizon`: push the end of the interval back
    /// to the root of each deepest point pair until the deepest points at the end are in
    /// the band or clear of it.
    fn propose(
        &self,
        f: &SeparationFunction,
        (t1, xa1, xb1): (f32, Transform, Transform),
        horizon: f32,
        root_iterations: &mut u32,
    ) -> Step {
        let band = &self.band;
        let (mut t2, mut poses) = (horizon, f.poses(horizon));
        for _ in 0..MAX_POLYGON_VERTICES {
            let m = f.find_min_separation(poses);
            if m.separation >= band.floor {
                return Step::Reach(t2, m);
            }
            let s1 = f.evaluate(m.index_a, m.index_b, (xa1, xb1));
            if s1 < band.floor {
                return Step::Stuck;
            }
            if s1 <= band.hi {
                return Step::HitNow;
            }
            let separation = |t| {
                let at_t = f.poses(t);
                (f.evaluate(m.index_a, m.index_b, at_t), at_t)
            };
            let root = find_root(
                separation,
                (t1, s1),
                (t2, m.separation),
                band.aim,
                band.aim_tolerance,
                TOI_MAX_ROOT_ITERATIONS,
            );
            *root_iterations += root.iterations;
            t2 = root.t;
            poses = root.payload.unwrap_or_else(|| f.poses(t2));
        }
        Step::Unresolved(t2)
    }

    /// A floor on the core separation over [t1, t2] (meters): infinite without a motion
    /// bound (uncertified, or no rotation that moves a core point);
    /// else from bounding circles when they suffice; else from the motion bound along GJK's
    /// normal at t1 or the separation axis at t2, refined on halves of the interval.
    fn certify(
        &self,
        motion: Option<&MotionBound>,
        start_poses: &mut Option<PoseSet>,
        (t1, xa1, xb1): (f32, Transform, Transform),
        (t2, xa2, xb2): (f32, Transform, Transform),
        axes: &[Vec2; 2],
    ) -> Certificate {
        let clear = Certificate { floor: f32::INFINITY, reached: t2 };
        let Some(motion) = motion else {
            return clear;
        };
        let circles = motion.circle_bound(t1, t2);
        if circles >= self.band.lo {
            return Certificate { floor: circles, ..clear };
        }
        let p0 = &*start_poses.get_or_insert_with(|| motion.pose_set(t1, xa1, xb1));
        let p1 = motion.pose_set(t2, xa2, xb2);
        let axes = motion.axes(p0, &p1, axes[0], axes[1]);
        motion.certify(p0, &p1, &axes, self.band.lo, CERTIFY_DEPTH)
    }

    /// The depth of a glancing contact: a quarter of the thinner shape (meters).
    fn glance_depth(&self) -> f32 {
        0.25 * self.proxy_a.thickness().min(self.proxy_b.thickness())
    }

    /// A hit at `t` with the closest points found there. Cores that touch or overlap there
    /// (a band reaching below the radii: a negative target) have no GJK normal: the hit
    /// takes EPA's, along which B leaves A fastest, and the deepest points.
    pub fn hit(&self, mut out: ToiOutput, t: f32, d: &CoreDistance) -> ToiOutput {
        let (n, on_a, on_b) = if d.normal == Vec2::ZERO {
            let (xa, xb) = self.poses(t);
            let input =
                DistanceInput { proxy_a: self.proxy_a, transform_a: xa, proxy_b: self.proxy_b, transform_b: xb };
            contact_normal(&input)
        } else {
            let n = d.normal;
            (n, d.point_a + self.proxy_a.radius() * n, d.point_b - self.proxy_b.radius() * n)
        };
        out.state = ToiState::Hit;
        out.t = t;
        out.point = self.origin + 0.5 * (on_a + on_b);
        out.normal = n;
        out
    }
}

impl ToiOutput {
    /// An output with nothing found yet.
    pub(crate) fn start() -> ToiOutput {
        ToiOutput {
            state: ToiState::Failed,
            t: 0.0,
            iterations: 0,
            root_iterations: 0,
            point: Vec2::ZERO,
            normal: Vec2::ZERO,
            subdivisions: 0,
            glancing: false,
        }
    }

    /// This output ended in `state` at time `t`.
    pub(crate) fn ended(mut self, state: ToiState, t: f32) -> ToiOutput {
        self.state = state;
        self.t = t;
        self
    }
}

/// True when both sweeps and the parameters are finite and every sweep position is within
/// [`MAX_COORDINATE`](crate::settings::MAX_COORDINATE): the common case, in one pass with no
/// branch per value (a NaN fails every comparison). Otherwise [`check_sweep`] names the fault.
#[inline]
fn plainly_valid(a: &Sweep, b: &Sweep, params: [f32; 3]) -> bool {
    let limit = Vec2::splat(crate::settings::MAX_COORDINATE);
    let within = |v: Vec2| v.abs().cmple(limit);
    let positions = [a.local_center, a.c1, a.c2, b.local_center, b.c1, b.c2].map(within);
    let finite = [a.a1, a.a2, b.a1, b.a2, params[0], params[1], params[2]].map(f32::is_finite);
    positions.iter().all(|m| m.all()) && finite.iter().all(|&f| f)
}

/// Checks a sweep: finite angles, and positions finite and within
/// [`MAX_COORDINATE`](crate::settings::MAX_COORDINATE) of the origin.
fn check_sweep(sweep: &Sweep, what: &'static str) -> Result<(), QueryError> {
    if !sweep.is_finite() {
        return Err(QueryError::NonFinite { what });
    }
    for p in [sweep.local_center, sweep.c1, sweep.c2] {
        check_vector(p, what)?;
    }
    Ok(())
}

/// The sweep with positions relative to `origin` and its angles shifted by whole turns to
/// start in [-pi, pi], so that f32 keeps its precision far from the world origin and after
/// many turns.
fn rebase(sweep: &Sweep, origin: Vec2) -> Sweep {
    use std::f32::consts::PI;
    if (-PI..=PI).contains(&sweep.a1) {
        return sweep.rebased(origin);
    }
    // In f64 so that even huge angles reduce exactly and keep their difference.
    let (a1, a2) = (sweep.a1 as f64, sweep.a2 as f64);
    let start = a1.rem_euclid(std::f64::consts::TAU);
    let start = if start > std::f64::consts::PI { start - std::f64::consts::TAU } else { start };
    Sweep { a1: start as f32, a2: (start + (a2 - a1)) as f32, ..sweep.rebased(origin) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::{TOI_TARGET, TOI_TOLERANCE};
    use std::f32::consts::PI;

    fn toi(a: &ShapeProxy, sa: &Sweep, b: &ShapeProxy, sb: &Sweep) -> ToiOutput {
        time_of_impact(a, sa, b, sb, 1.0, TOI_TARGET, TOI_TOLERANCE).unwrap()
    }

    fn rect(hw: f32, hh: f32) -> ShapeProxy {
        ShapeProxy::new(&[Vec2::new(-hw, -hh), Vec2::new(hw, -hh), Vec2::new(hw, hh), Vec2::new(-hw, hh)], 0.0).unwrap()
    }

    fn moving(c1: Vec2, c2: Vec2, a1: f32, a2: f32) -> Sweep {
        Sweep { local_center: Vec2::ZERO, c1, c2, a1, a2 }
    }

    #[test]
    fn ball_falls_onto_a_thin_plane() {
        // Catto's first case: a ball that would step over a 1 cm plane.
        let ground = rect(10.0, 0.005);
        let ball = ShapeProxy::new(&[Vec2::ZERO], 0.25).unwrap();
        let still = Sweep::fixed(Transform::IDENTITY);
        let fall = moving(Vec2::new(0.0, 2.0), Vec2::new(0.0, -2.0), 0.0, 0.0);
        let out = toi(&ground, &still, &ball, &fall);
        assert_eq!(out.state, ToiState::Hit);
        // Gap = 2 - 4t - 0.25 - 0.005 = target at t = (1.745 - 0.005) / 4.
        assert!((out.t - 0.435).abs() < 0.0004, "{out:?}");
        assert!((out.normal - Vec2::Y).length() < 1e-5);
    }

    #[test]
    fn rod_spinning_through_a_box_and_out_again_is_a_hit_that_the_peers_miss() {
        // A 3 m rod, 2 cm thick, turning a half turn in one step about its center above a
        // box's corner: its tip sweeps through the box at mid-step and is clear at both
        // ends. Checking only the end pose would call this separated.
        let rod = rect(1.5, 0.01);
        let block = rect(0.5, 0.5);
        let still = Sweep::fixed(Transform::IDENTITY);
        let spin = moving(Vec2::new(0.0, 1.2), Vec2::new(0.0, 1.2), 0.0, PI);
        let out = toi(&block, &still, &rod, &spin);
        assert_eq!(out.state, ToiState::Hit, "{out:?}");
        assert!(out.t > 0.0 && out.t < 0.5);
        assert!(out.subdivisions > 0);
        let peers = time_of_impact_uncertified(&block, &still, &rod, &spin, 1.0, TOI_TARGET, TOI_TOLERANCE).unwrap();
        assert_eq!(peers.state, ToiState::Separated, "{peers:?}");
    }

    #[test]
    fn overlapped_and_separated() {
        let a = rect(1.0, 1.0);
        let still = Sweep::fixed(Transform::IDENTITY);
        let inside = moving(Vec2::new(0.5, 0.0), Vec2::new(5.0, 0.0), 0.0, 0.0);
        assert_eq!(toi(&a, &still, &a, &inside).state, ToiState::Overlapped);
        let away = moving(Vec2::new(3.0, 0.0), Vec2::new(6.0, 0.0), 0.0, 1.0);
        let out = toi(&a, &still, &a, &away);
        assert_eq!((out.state, out.t), (ToiState::Separated, 1.0));
    }

    #[test]
    fn huge_angles_are_reduced_exactly_and_cost_a_bounded_amount() {
        let a = rect(1.0, 1.0);
        let still = Sweep::fixed(Transform::IDENTITY);
        // A million radians of absolute angle: the same motion as from its remainder.
        let (big, turn) = (1.0e6f32, 0.25f32);
        let rest = (big as f64).rem_euclid(std::f64::consts::TAU) as f32;
        let near = moving(Vec2::new(0.0, 5.0), Vec2::new(0.0, 1.0), rest, rest + turn);
        let far = Sweep { a1: big, a2: big + turn, ..near };
        let (o1, o2) = (toi(&a, &still, &a, &near), toi(&a, &still, &a, &far));
        assert_eq!(o1.state, ToiState::Hit);
        assert!((o1.t - o2.t).abs() < 1e-4, "{o1:?} {o2:?}");
        // An absurd spin gives up within the budget, at a safe time.
        let absurd = Sweep { a1: 1.0e30, a2: -1.0e30, ..near };
        let out = toi(&a, &still, &a, &absurd);
        let one_proposal = MAX_POLYGON_VERTICES as u32 * TOI_MAX_ROOT_ITERATIONS;
        assert!(out.root_iterations <= MAX_TOTAL_ROOT_ITERATIONS + one_proposal, "{out:?}");
        assert!(out.t.is_finite() && out.point.is_finite());
    }

    #[test]
    fn invalid_parameters_are_errors() {
        let a = rect(1.0, 1.0);
        let s = Sweep::fixed(Transform::IDENTITY);
        let mut bad = s;
        bad.a2 = f32::NAN;
        assert!(time_of_impact(&a, &s, &a, &bad, 1.0, 0.005, 0.001).is_err());
        assert!(time_of_impact(&a, &s, &a, &s, 1.5, 0.005, 0.001).is_err());
        assert!(time_of_impact(&a, &s, &a, &s, 1.0, 0.005, 0.0).is_err());
        assert!(time_of_impact(&a, &s, &a, &s, 1.0, -1.0, 0.001).is_err());
        // The fast check defers to the detailed one, which names the faulty input.
        let far = Sweep { c2: Vec2::new(0.0, 2.0e9), ..s };
        let err = time_of_impact(&a, &s, &a, &far, 1.0, 0.005, 0.001).unwrap_err();
        assert!(matches!(err, QueryError::OutOfRange { what: "sweep_b", .. }), "{err:?}");
        let err = time_of_impact(&a, &s, &a, &s, 1.0, f32::NAN, 0.001).unwrap_err();
        assert!(matches!(err, QueryError::NonFinite { what: "target" }), "{err:?}");
        let err = time_of_impact(&a, &bad, &a, &s, 1.0, 0.005, 0.001).unwrap_err();
        assert!(matches!(err, QueryError::NonFinite { what: "sweep_a" }), "{err:?}");
    }
}
