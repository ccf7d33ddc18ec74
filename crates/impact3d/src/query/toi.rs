//! Time of impact by bilateral advancement in 3D, certified against rotation.
//!
//! Source: Catto, "Continuous Collision", GDC 2013, whose last slides adapt bilateral
//! advancement to 3D: find the closest features (GJK), build a separation function on a
//! suitable axis (`separation.rs`), look at the deepest points at the end of the look-ahead
//! interval, drive their separation to the target with a bracketed root finder
//! ([`impact_core::root`]) when they overlap, and advance when they sit in the band.
//!
//! As in 2D, every advance is certified by a floor on the separation over the whole interval
//! (`motion_bound.rs`), so a shape turning into the other and out again within an interval
//! is never missed: where the floor is too low the interval is halved and the step retried.
//! The loop is the 2D crate's `query/toi.rs`, step for step.

use super::distance::{DistanceInput, DistanceOutput, SimplexCache, core_distance_of_valid};
use super::epa::penetration;
use super::error::QueryError;
use super::motion_bound::{Certificate, MotionBound, PoseSet};
use super::proxy::ShapeProxy;
use super::separation::{MinSeparation, SeparationFunction};
use crate::geometry::Hull;
use crate::math::{Sweep, Transform, Vec3};
use crate::settings::{MAX_COORDINATE, TOI_MAX_ITERATIONS, TOI_MAX_PUSH_BACKS, TOI_MAX_ROOT_ITERATIONS};
use impact_core::root::find_root;
use impact_core::toi::{Band, CERTIFY_DEPTH, MAX_SUBDIVISIONS, MAX_TOTAL_ROOT_ITERATIONS, RELAX_AFTER_HALVINGS};

pub use impact_core::ToiState;

/// The answer of a time of impact query (by [`time_of_impact`] or
/// [`conservative_advancement`](super::conservative_advancement)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ToiOutput {
    /// How the query ended.
    pub state: ToiState,
    /// The normalized time: of impact for `Hit`, `t_max` for `Separated`, 0 for
    /// `Overlapped`, the last safe time for `Failed`.
    pub t: f32,
    /// Closest-feature (GJK) evaluations.
    pub iterations: u32,
    /// Iterations of the bracketed root finder, summed (0 for conservative advancement).
    pub root_iterations: u32,
    /// For `Hit`: the point midway between the surfaces at `t` (meters, world). Zero
    /// otherwise.
    pub point: Vec3,
    /// For `Hit`: the unit normal at `t`, from A to B. Zero otherwise.
    pub normal: Vec3,
    /// How many times a look-ahead interval was halved because rotation could hide a
    /// collision inside it (0 for conservative advancement).
    pub subdivisions: u32,
    /// True when the answer relied on a relaxed certificate: a contact shallower than a
    /// quarter of the thinner shape (a glancing contact) may have been missed.
    pub glancing: bool,
}

/// The first time in [0, `t_max`] at which the surface gap (meters) between two moving
/// shapes comes within `tolerance` of `target`, by certified bilateral advancement.
///
/// Shapes are proxies in body coordinates, moved by their sweeps over normalized time
/// (constant angular velocity, any number of turns per step). A `Hit` at t means the gap at
/// t is in `[target - tolerance, target + tolerance]` and was never below `target -
/// tolerance` before t; `Separated` means it stays above `target - tolerance` up to `t_max`.
/// A gap below zero at t = 0 is `Overlapped`; a gap within `target + tolerance` at t = 0 is
/// a `Hit` at 0. The only contacts that may be missed are glancing ones, shallower than a
/// quarter of the thinner shape, and only after many halvings (`glancing` is then set).
/// `Failed` (out of iterations) gives the last time known to be safe.
///
/// Typical values: `target` = [`crate::settings::TOI_TARGET`], `tolerance` =
/// [`crate::settings::TOI_TOLERANCE`]. `target` may be negative down to
/// `-(radius_a + radius_b)` (rounded shapes sinking into each other); a hit whose cores then
/// touch or overlap takes EPA's normal, so every `Hit` has a unit normal.
///
/// Precision: both sweeps are rebased on A's starting center, and each gap is measured by
/// [`shape_distance`](super::shape_distance)'s method (f64 relative coordinates), so the
/// band holds to 2e-5 m for shapes within 10 m of each other wherever they are (tested 5 km
/// out, `tests/toi.rs`).
///
/// Errors: [`QueryError::NonFinite`] for a sweep that is not finite, whose `q1` is not a
/// unit quaternion, or whose centers are beyond [`MAX_COORDINATE`];
/// [`QueryError::OutOfRange`] unless `0 <= t_max <= 1`, `tolerance > 0` and
/// `target + tolerance > -(radius_a + radius_b)`.
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

/// Bilateral advancement as the peers run it (parry's nonlinear cast, Box2D's time of
/// impact): [`time_of_impact`] without the rotation certificate, so a shape that turns into
/// the other and out again within a look-ahead interval is missed. For comparison in tests
/// and benchmarks; use [`time_of_impact`].
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

/// Checks a sweep: finite, `q1` unit, centers within [`MAX_COORDINATE`] of the origin.
pub(crate) fn check_sweep(s: &Sweep, what: &'static str) -> Result<(), QueryError> {
    let far = s.c1.abs().max_element().max(s.c2.abs().max_element()).max(s.local_center.abs().max_element());
    if !s.is_valid() || far > MAX_COORDINATE {
        return Err(QueryError::NonFinite { what });
    }
    Ok(())
}

/// A validated query: both sweeps rebased on A's starting center, the band in core terms.
struct ToiQuery<'a> {
    proxy_a: &'a ShapeProxy,
    proxy_b: &'a ShapeProxy,
    sweep_a: Sweep,
    sweep_b: Sweep,
    /// World position of the rebased origin.
    origin: Vec3,
    t_max: f32,
    band: Band,
    total_radius: f32,
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

/// The start of a step: its time and both poses.
type Start = (f32, Transform, Transform);

impl<'a> ToiQuery<'a> {
    fn new(
        (proxy_a, sweep_a): (&'a ShapeProxy, &Sweep),
        (proxy_b, sweep_b): (&'a ShapeProxy, &Sweep),
        t_max: f32,
        target: f32,
        tolerance: f32,
    ) -> Result<ToiQuery<'a>, QueryError> {
        check_sweep(sweep_a, "sweep_a")?;
        check_sweep(sweep_b, "sweep_b")?;
        let total_radius = proxy_a.radius() + proxy_b.radius();
        let band = Band::new(t_max, target, tolerance, total_radius)?;
        // Rebased on A's start: the offsets between the bodies keep their digits.
        let origin = sweep_a.c1;
        let rebase = |s: &Sweep| Sweep { c1: s.c1 - origin, c2: s.c2 - origin, ..*s };
        let (sweep_a, sweep_b) = (rebase(sweep_a), rebase(sweep_b));
        Ok(ToiQuery { proxy_a, proxy_b, sweep_a, sweep_b, origin, t_max, band, total_radius })
    }

    fn poses(&self, t: f32) -> (Transform, Transform) {
        (self.sweep_a.transform_at(t), self.sweep_b.transform_at(t))
    }

    /// Core distance at the poses, warm-started from `cache`. The poses come from the sweeps
    /// checked by [`ToiQuery::new`] (finite, unit rotations, centers within range).
    fn distance_at(&self, (xa, xb): (Transform, Transform), cache: &mut SimplexCache) -> DistanceOutput {
        let input = DistanceInput { proxy_a: self.proxy_a, transform_a: xa, proxy_b: self.proxy_b, transform_b: xb };
        core_distance_of_valid(&input, cache)
    }

    /// Runs bilateral advancement, with or without certifying each advance.
    fn solve(&self, certified: bool) -> ToiOutput {
        // Only a rotation that moves some core point needs the certificate.
        let turns = self.sweep_a.rotation != Vec3::ZERO || self.sweep_b.rotation != Vec3::ZERO;
        let bound = (certified && turns)
            .then(|| MotionBound::new((self.proxy_a, &self.sweep_a), (self.proxy_b, &self.sweep_b)));
        let motion = bound.as_ref().filter(|m| m.rotates());
        let mut out = ToiOutput::start();
        let mut cache = SimplexCache::default();
        let mut glance_depth = None;
        let (mut t1, mut horizon) = (0.0, self.t_max);
        let mut next_poses = None;
        loop {
            let (xa, xb) = next_poses.take().unwrap_or_else(|| self.poses(t1));
            let d = self.distance_at((xa, xb), &mut cache);
            out.iterations += 1;
            let cores_overlap = d.normal == Vec3::ZERO;
            if t1 == 0.0 && (cores_overlap || d.distance < self.total_radius) {
                return out.ended(ToiState::Overlapped, 0.0);
            }
            if cores_overlap || d.distance < self.band.hi {
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
                &d,
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
                    cache = f.warm_cache(&cache, &m);
                }
                None => out.subdivisions += 1,
            }
            t1 = t2;
        }
    }

    /// Bilateral advancement from t1 towards `horizon`: push the end of the interval back
    /// to the root of each deepest point pair until the deepest points at the end are in
    /// the band or clear of it.
    fn propose(&self, f: &SeparationFunction, (t1, xa1, xb1): Start, horizon: f32, root_iterations: &mut u32) -> Step {
        let band = &self.band;
        let (mut t2, mut poses) = (horizon, f.poses(horizon));
        for _ in 0..TOI_MAX_PUSH_BACKS {
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
    /// bound (uncertified, or no rotation that moves a core point); else from bounding
    /// spheres when they suffice; else from the motion bound along GJK's normal at t1 or the
    /// separation axis at t2, refined on halves of the interval.
    fn certify(
        &self,
        motion: Option<&MotionBound>,
        start_poses: &mut Option<PoseSet>,
        (t1, xa1, xb1): Start,
        (t2, xa2, xb2): Start,
        axes: &[Vec3; 2],
    ) -> Certificate {
        let clear = Certificate { floor: f32::INFINITY, reached: t2 };
        let Some(motion) = motion else {
            return clear;
        };
        let spheres = motion.sphere_bound(t1, t2);
        if spheres >= self.band.lo {
            return Certificate { floor: spheres, ..clear };
        }
        let p0 = &*start_poses.get_or_insert_with(|| motion.pose_set(t1, xa1, xb1));
        let p1 = motion.pose_set(t2, xa2, xb2);
        let axes = motion.axes(p0, &p1, axes[0], axes[1]);
        motion.certify(p0, &p1, &axes, self.band.lo, CERTIFY_DEPTH)
    }

    /// The depth of a glancing contact: a quarter of the thinner shape (meters).
    fn glance_depth(&self) -> f32 {
        0.25 * thickness(self.proxy_a).min(thickness(self.proxy_b))
    }

    /// A hit at `t` with the closest points found there. Cores that touch or overlap there
    /// (a band reaching below the radii: a negative target) have no GJK normal: the hit
    /// takes EPA's, along which B leaves A fastest.
    fn hit(&self, mut out: ToiOutput, t: f32, d: &DistanceOutput) -> ToiOutput {
        let (ra, rb) = (self.proxy_a.radius(), self.proxy_b.radius());
        let (n, on_a, on_b) = if d.normal == Vec3::ZERO {
            let (xa, xb) = self.poses(t);
            let input =
                DistanceInput { proxy_a: self.proxy_a, transform_a: xa, proxy_b: self.proxy_b, transform_b: xb };
            match penetration(&input) {
                Ok(Some(p)) => (p.normal, p.point_a, p.point_b),
                // Cores touching at one point: along the centers, the only direction left.
                _ => ((xb.p - xa.p).normalize_or(Vec3::Y), d.point_a, d.point_b),
            }
        } else {
            (d.normal, d.point_a + d.normal * ra, d.point_b - d.normal * rb)
        };
        out.state = ToiState::Hit;
        out.t = t;
        out.point = self.origin + 0.5 * (on_a + on_b);
        out.normal = n;
        out
    }
}

/// The least width of a proxy's surface (meters): its core's least face width (a hull of
/// its points; none for points, segments and flat sets) plus twice its radius.
fn thickness(proxy: &ShapeProxy) -> f32 {
    let core = if proxy.points().len() >= 4 { Hull::new(proxy.points()).map_or(0.0, |h| h.thickness()) } else { 0.0 };
    core + 2.0 * proxy.radius()
}

impl ToiOutput {
    /// An output with nothing found yet.
    pub(crate) fn start() -> ToiOutput {
        ToiOutput {
            state: ToiState::Failed,
            t: 0.0,
            iterations: 0,
            root_iterations: 0,
            point: Vec3::ZERO,
            normal: Vec3::ZERO,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::{TOI_TARGET, TOI_TOLERANCE};
    use crate::{Quat, make_box};
    use std::f32::consts::PI;

    fn toi(a: &ShapeProxy, sa: &Sweep, b: &ShapeProxy, sb: &Sweep) -> ToiOutput {
        time_of_impact(a, sa, b, sb, 1.0, TOI_TARGET, TOI_TOLERANCE).unwrap()
    }

    fn cuboid(h: Vec3) -> ShapeProxy {
        ShapeProxy::new(make_box(h).unwrap().vertices(), 0.0).unwrap()
    }

    fn moving(c1: Vec3, c2: Vec3, rotation: Vec3) -> Sweep {
        Sweep { local_center: Vec3::ZERO, c1, c2, q1: Quat::IDENTITY, rotation }
    }

    #[test]
    fn ball_falls_onto_a_thin_slab_at_the_analytic_time() {
        let slab = cuboid(Vec3::new(10.0, 0.005, 10.0));
        let ball = ShapeProxy::new(&[Vec3::ZERO], 0.25).unwrap();
        let fall = moving(Vec3::new(0.3, 2.0, -0.2), Vec3::new(0.3, -2.0, -0.2), Vec3::ZERO);
        let out = toi(&slab, &Sweep::fixed(Transform::IDENTITY), &ball, &fall);
        assert_eq!(out.state, ToiState::Hit);
        // Gap = 2 - 4t - 0.25 - 0.005 reaches the target at t = (1.745 - 0.005) / 4.
        assert!((out.t - 0.435).abs() < 0.0004, "{out:?}");
        assert!((out.normal - Vec3::Y).length() < 1e-5, "{out:?}");
        assert!((out.point - Vec3::new(0.3, 0.0075, -0.2)).length() < 2e-3, "{out:?}");
    }

    #[test]
    fn rod_spinning_through_a_box_and_out_again_is_a_hit_that_the_peers_miss() {
        // A 3 m rod turning half a turn about z above a box's top edge: its tip sweeps
        // through the box at mid-step and is clear at both ends.
        let rod = ShapeProxy::new(&[Vec3::new(-1.5, 0.0, 0.0), Vec3::new(1.5, 0.0, 0.0)], 0.01).unwrap();
        let block = cuboid(Vec3::splat(0.5));
        let still = Sweep::fixed(Transform::IDENTITY);
        let spin = moving(Vec3::new(0.0, 1.2, 0.0), Vec3::new(0.0, 1.2, 0.0), Vec3::new(0.0, 0.0, PI));
        let out = toi(&block, &still, &rod, &spin);
        assert_eq!(out.state, ToiState::Hit, "{out:?}");
        assert!(out.t > 0.0 && out.t < 0.5 && out.subdivisions > 0, "{out:?}");
        let peers = time_of_impact_uncertified(&block, &still, &rod, &spin, 1.0, TOI_TARGET, TOI_TOLERANCE).unwrap();
        assert_eq!(peers.state, ToiState::Separated, "{peers:?}");
    }

    #[test]
    fn edges_crossing_while_both_turn_meet_at_the_band() {
        // Two long bars crossed at right angles, closing along y while each turns about y:
        // an edge-edge contact whose common normal turns with both bodies.
        let bar = cuboid(Vec3::new(2.0, 0.1, 0.1));
        let a = moving(Vec3::ZERO, Vec3::ZERO, Vec3::new(0.0, 0.3, 0.0));
        let b = Sweep {
            q1: Quat::from_rotation_y(PI / 2.0),
            ..moving(Vec3::new(0.0, 1.0, 0.0), Vec3::new(0.0, 0.0, 0.0), Vec3::new(0.0, -0.2, 0.0))
        };
        let out = toi(&bar, &a, &bar, &b);
        assert_eq!(out.state, ToiState::Hit, "{out:?}");
        // The bars' gap is 0.8 - y: the target at t = 0.795, whatever the turns.
        assert!((out.t - 0.795).abs() < 0.0015, "{out:?}");
        assert!((out.normal - Vec3::Y).length() < 1e-3, "{out:?}");
    }

    #[test]
    fn a_negative_target_inside_rounded_cores_gets_epa_s_normal() {
        // Two spheres of radius 0.5 closing head on: a target of -0.9 asks for cores 0.1
        // apart; a target of -1.0 + tolerance for cores touching, where GJK has no normal.
        let ball = ShapeProxy::new(&[Vec3::ZERO], 0.5).unwrap();
        let still = Sweep::fixed(Transform::IDENTITY);
        let come = moving(Vec3::new(3.0, 0.0, 0.0), Vec3::new(0.0, 0.0, 0.0), Vec3::ZERO);
        let out = time_of_impact(&ball, &still, &ball, &come, 1.0, -0.9, 0.01).unwrap();
        assert_eq!(out.state, ToiState::Hit);
        assert!((out.t - (2.9 / 3.0)).abs() < 0.005, "{out:?}");
        let deep = time_of_impact(&ball, &still, &ball, &come, 1.0, -0.995, 0.01).unwrap();
        assert_eq!(deep.state, ToiState::Hit);
        assert!((deep.normal.length() - 1.0).abs() < 1e-5, "{deep:?}");
    }

    #[test]
    fn a_hopeless_spin_costs_a_bounded_amount_and_stays_safe() {
        let block = cuboid(Vec3::splat(0.5));
        let rod = ShapeProxy::new(&[Vec3::new(-1.0, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0)], 0.0).unwrap();
        let still = Sweep::fixed(Transform::IDENTITY);
        // Ten thousand turns per step, grazing the box's top edge.
        let spin = moving(Vec3::new(0.0, 1.49, 0.0), Vec3::new(0.0, 1.49, 0.0), Vec3::new(0.0, 0.0, 6.0e4));
        let out = toi(&block, &still, &rod, &spin);
        assert!(out.root_iterations <= MAX_TOTAL_ROOT_ITERATIONS + TOI_MAX_PUSH_BACKS as u32 * TOI_MAX_ROOT_ITERATIONS);
        assert!(out.iterations <= TOI_MAX_ITERATIONS && out.subdivisions <= MAX_SUBDIVISIONS + 2, "{out:?}");
        assert!(out.t.is_finite() && out.point.is_finite() && out.normal.is_finite());
        assert_ne!(out.state, ToiState::Separated, "{out:?}");
    }
}
