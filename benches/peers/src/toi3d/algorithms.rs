//! The three time of impact algorithms in 3D, each fed the same f32 query in its own API's
//! form, and their answers in one vocabulary; and the conversions to parry3d's shapes and
//! poses that the distance and ray cast comparisons share.

use super::cases::Query;
use super::models::{Model, Pair, RefShape};
use impact3d::settings::{LINEAR_SLOP, TOI_TARGET, TOI_TOLERANCE};
use impact3d::{ShapeProxy, Sweep, ToiState, Transform};
use parry3d::math::{Pose, Rotation, Vector};
use parry3d::query::sweep_toi::{Sweep as ParrySweep, SweepToiStatus, ToiProxy, sweep_time_of_impact};
use parry3d::query::{NonlinearRigidMotion, ShapeCastStatus, cast_shapes_nonlinear};
use parry3d::shape::{Ball, Capsule, ConvexPolyhedron, RoundShape, Segment, Shape, Triangle};

/// The algorithms compared.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Algo {
    /// impact3d's `time_of_impact` (certified bilateral advancement).
    Impact,
    /// impact3d's `time_of_impact_uncertified`: plain bilateral advancement, for the cost of
    /// the certificate.
    ImpactUncertified,
    /// parry3d's `sweep_time_of_impact` (the Box2D v3 port that rapier's continuous
    /// collision runs first, falling back on the nonlinear cast for shapes it cannot proxy).
    ParrySweep,
    /// parry3d's `cast_shapes_nonlinear` stopping at the first contact (`stop_at_penetration`
    /// true, as rapier passes it for sensors).
    ParryNonlinear,
    /// The same cast in its directional mode (`stop_at_penetration` false, as rapier's
    /// continuous collision passes it for solid bodies): an overlap at the start that is not
    /// closing fast is let go.
    ParryDirectional,
}

/// Every algorithm, in table order.
pub const ALGOS: [Algo; 5] =
    [Algo::Impact, Algo::ImpactUncertified, Algo::ParrySweep, Algo::ParryNonlinear, Algo::ParryDirectional];

impl Algo {
    /// Its name in the table.
    pub fn name(self) -> &'static str {
        match self {
            Algo::Impact => "impact3d time_of_impact",
            Algo::ImpactUncertified => "impact3d uncertified (plain BA)",
            Algo::ParrySweep => "parry3d sweep_time_of_impact",
            Algo::ParryNonlinear => "parry3d cast_shapes_nonlinear",
            Algo::ParryDirectional => "parry3d cast_shapes_nonlinear, directional",
        }
    }

    /// Whether it is parry's nonlinear cast (its motion model and band).
    pub fn is_nonlinear(self) -> bool {
        matches!(self, Algo::ParryNonlinear | Algo::ParryDirectional)
    }

    /// Which motion model it follows: impact's sweep (0), parry's velocities (1) or parry's
    /// nlerp sweep (2).
    pub fn model(self) -> usize {
        match self {
            Algo::Impact | Algo::ImpactUncertified => 0,
            Algo::ParryNonlinear | Algo::ParryDirectional => 1,
            Algo::ParrySweep => 2,
        }
    }
}

/// How a query ended, in every algorithm's terms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// Reached its band at `t`.
    Hit,
    /// Never within its band over the step.
    Separated,
    /// Overlapping (impact) or within its target (parry) at t = 0.
    Overlapped,
    /// Gave up; `t` is the time the algorithm reports (impact: the last safe time; parry:
    /// the time where it found the shapes intersecting).
    Failed,
}

/// An answer: how it ended and the normalized time.
#[derive(Clone, Copy, Debug)]
pub struct Answer {
    pub kind: Kind,
    pub t: f64,
}

/// parry's vector of an impact vector (the two crates use different glam versions).
pub fn pv(v: impact3d::Vec3) -> Vector {
    Vector::new(v.x, v.y, v.z)
}

/// parry's rotation of an impact quaternion.
pub fn pq(q: impact3d::Quat) -> Rotation {
    Rotation::from_xyzw(q.x, q.y, q.z, q.w)
}

/// parry's pose of an impact transform.
pub fn pose(xf: Transform) -> Pose {
    Pose::from_parts(pv(xf.p), pq(xf.q))
}

/// parry's shape of a proxy: a ball (one point at the origin), a capsule or segment (two),
/// a triangle (three), else the convex polyhedron of the points by parry's own hull; rounded
/// by the proxy's radius.
pub fn parry_shape(p: &ShapeProxy) -> Box<dyn Shape> {
    let pts: Vec<Vector> = p.points().iter().map(|v| pv(*v)).collect();
    let r = p.radius();
    match pts.len() {
        1 if pts[0] == Vector::ZERO => Box::new(Ball::new(r)),
        1 => Box::new(Capsule::new(pts[0], pts[0], r)),
        2 if r > 0.0 => Box::new(Capsule::new(pts[0], pts[1], r)),
        2 => Box::new(Segment::new(pts[0], pts[1])),
        _ => {
            let round = |inner| RoundShape { inner_shape: inner, border_radius: r };
            if pts.len() == 3 {
                let tri = Triangle::new(pts[0], pts[1], pts[2]);
                if r > 0.0 { Box::new(round(tri)) } else { Box::new(tri) }
            } else {
                let poly = ConvexPolyhedron::from_convex_hull(&pts).expect("a polyhedron of the proxy's points");
                if r > 0.0 { Box::new(RoundShape { inner_shape: poly, border_radius: r }) } else { Box::new(poly) }
            }
        }
    }
}

/// parry's motion of a sweep: the start pose puts the local center on c1, the linear
/// velocity is c2 − c1 and the angular velocity the rotation over the step (unit time).
pub fn parry_motion(s: &Sweep) -> NonlinearRigidMotion {
    let start = s.transform_at(0.0);
    NonlinearRigidMotion::new(pose(start), pv(s.local_center), pv(s.c2 - s.c1), pv(s.rotation))
}

/// One body in every API's form.
struct Body {
    proxy: ShapeProxy,
    sweep: Sweep,
    shape: Box<dyn Shape>,
    motion: NonlinearRigidMotion,
    /// parry's sweep and its proxy's points and radius.
    parry_sweep: ParrySweep,
    points: Vec<Vector>,
    radius: f32,
    reference: RefShape,
    /// The models of [`Algo::model`], from the values each algorithm receives.
    models: [Model; 3],
}

fn body(proxy: &ShapeProxy, sweep: &Sweep) -> Body {
    let motion = parry_motion(sweep);
    let start = sweep.transform_at(0.0);
    // parry's sweep gets the end orientations; impact's exponential map gives the last one.
    let q2 = sweep.rotation_at(1.0);
    let parry_sweep = ParrySweep {
        local_center: pv(sweep.local_center),
        c1: pv(sweep.c1),
        c2: pv(sweep.c2),
        q1: pq(start.q),
        q2: pq(q2),
    };
    let lift = |v: Vector| impact3d::Vec3::new(v.x, v.y, v.z);
    let models = [
        Model::sweep(sweep),
        Model::velocity(start.p, start.q, lift(motion.local_center), lift(motion.linvel), lift(motion.angvel)),
        Model::nlerp(sweep.local_center, sweep.c1, sweep.c2, start.q, q2),
    ];
    Body {
        proxy: proxy.clone(),
        sweep: *sweep,
        shape: parry_shape(proxy),
        motion,
        parry_sweep,
        points: proxy.points().iter().map(|v| pv(*v)).collect(),
        radius: proxy.radius(),
        reference: RefShape::new(proxy),
        models,
    }
}

/// A query prepared for every algorithm.
pub struct Prepped {
    a: Body,
    b: Body,
}

impl Prepped {
    pub fn new(q: &Query) -> Prepped {
        let c = &q.case;
        Prepped { a: body(&c.a, &c.sa), b: body(&c.b, &c.sb) }
    }

    /// Runs one algorithm on the query.
    pub fn run(&self, algo: Algo) -> Answer {
        let (a, b) = (&self.a, &self.b);
        match algo {
            Algo::Impact | Algo::ImpactUncertified => {
                let toi =
                    if algo == Algo::Impact { impact3d::time_of_impact } else { impact3d::time_of_impact_uncertified };
                match toi(&a.proxy, &a.sweep, &b.proxy, &b.sweep, 1.0, TOI_TARGET, TOI_TOLERANCE) {
                    Ok(out) => Answer {
                        kind: match out.state {
                            ToiState::Hit => Kind::Hit,
                            ToiState::Separated => Kind::Separated,
                            ToiState::Overlapped => Kind::Overlapped,
                            ToiState::Failed => Kind::Failed,
                        },
                        t: out.t as f64,
                    },
                    Err(_) => Answer { kind: Kind::Failed, t: 0.0 },
                }
            }
            Algo::ParrySweep => {
                let (pa, pb) = (ToiProxy::from_points(&a.points, a.radius), ToiProxy::from_points(&b.points, b.radius));
                let out = sweep_time_of_impact(&pa, &a.parry_sweep, &pb, &b.parry_sweep, 1.0, LINEAR_SLOP);
                let kind = match out.status {
                    SweepToiStatus::Hit => Kind::Hit,
                    SweepToiStatus::Separated => Kind::Separated,
                    SweepToiStatus::Overlapped => Kind::Overlapped,
                    SweepToiStatus::Failed => Kind::Failed,
                };
                Answer { kind, t: out.fraction as f64 }
            }
            Algo::ParryNonlinear | Algo::ParryDirectional => {
                let stop_at_penetration = algo == Algo::ParryNonlinear;
                match cast_shapes_nonlinear(&a.motion, &*a.shape, &b.motion, &*b.shape, 0.0, 1.0, stop_at_penetration) {
                    Ok(None) => Answer { kind: Kind::Separated, t: 1.0 },
                    Ok(Some(hit)) => {
                        let kind = match hit.status {
                            ShapeCastStatus::Converged | ShapeCastStatus::OutOfIterations => Kind::Hit,
                            ShapeCastStatus::PenetratingOrWithinTargetDist => Kind::Overlapped,
                            ShapeCastStatus::Failed => Kind::Failed,
                        };
                        Answer { kind, t: hit.time_of_impact as f64 }
                    }
                    Err(_) => Answer { kind: Kind::Failed, t: 0.0 },
                }
            }
        }
    }

    /// The reference pair under `algo`'s motion model.
    pub fn pair(&self, algo: Algo) -> Pair<'_> {
        let k = algo.model();
        Pair { a: &self.a.reference, b: &self.b.reference, ma: self.a.models[k], mb: self.b.models[k] }
    }

    /// `algo`'s band of the surface gap (meters) at a hit, and whether its Overlapped means
    /// overlapping cores (parry's sweep) rather than surfaces.
    ///
    /// * impact: the target ± tolerance its world passes, 5 mm ± 1.25 mm;
    /// * parry's sweep: its core gap aims at max(slop, R − slop) ± slop/4 with R the summed
    ///   radii: 5 mm ± 1.25 mm between polyhedra, 5 mm deep once R ≥ 1 cm;
    /// * parry's nonlinear cast stops where the shapes touch (to about 1e-6 m): granted
    ///   ± 1.25 mm so that its band is as wide as the others'.
    pub fn band(&self, algo: Algo) -> (f64, f64, bool) {
        let tol = TOI_TOLERANCE as f64;
        match algo {
            Algo::Impact | Algo::ImpactUncertified => ((TOI_TARGET as f64) - tol, TOI_TARGET as f64 + tol, false),
            Algo::ParrySweep => {
                let r = self.a.radius + self.b.radius;
                let target = LINEAR_SLOP.max(r - LINEAR_SLOP) as f64 - r as f64;
                (target - tol, target + tol, true)
            }
            Algo::ParryNonlinear | Algo::ParryDirectional => (-tol, tol, false),
        }
    }

    /// The largest distance (meters) between a core point placed by `algo`'s library in f32
    /// and by the f64 model of that algorithm, over t = 0, ¼, ½, ¾, 1: checks that the
    /// reference follows the motion the algorithm really uses (f32 rounding only: about
    /// 1e-7 m near the origin, a few 1e-4 m 5 km out).
    pub fn model_error(&self, algo: Algo) -> f64 {
        let mut worst = 0.0f64;
        for body in [&self.a, &self.b] {
            for k in 0..=4 {
                let t = 0.25 * k as f64;
                for v in body.proxy.points() {
                    let parry = |pose: Pose| {
                        let p = pose.transform_point(pv(*v));
                        glam::DVec3::new(p.x as f64, p.y as f64, p.z as f64)
                    };
                    let mine = match algo {
                        Algo::ParryNonlinear | Algo::ParryDirectional => parry(body.motion.position_at_time(t as f32)),
                        Algo::ParrySweep => parry(body.parry_sweep.transform_at(t as f32)),
                        Algo::Impact | Algo::ImpactUncertified => {
                            body.sweep.transform_at(t as f32).apply(*v).as_dvec3()
                        }
                    };
                    let model = body.models[algo.model()];
                    worst = worst.max(mine.distance(model.place(t, v.as_dvec3())));
                }
            }
        }
        worst
    }

    /// The largest distance (meters) between a core point as impact poses it and as parry
    /// poses it, over t = 0, ¼, ½, ¾, 1 (both in f32).
    #[cfg(test)]
    pub fn library_disagreement(&self) -> f64 {
        let mut worst = 0.0f64;
        for body in [&self.a, &self.b] {
            for k in 0..=4 {
                let t = 0.25 * k as f32;
                for v in body.proxy.points() {
                    let i = body.sweep.transform_at(t).apply(*v);
                    let p = body.motion.position_at_time(t).transform_point(pv(*v));
                    let d = impact3d::Vec3::new(p.x, p.y, p.z) - i;
                    worst = worst.max(d.length() as f64);
                }
            }
        }
        worst
    }

    /// A rough size of the rebased problem (meters): how far B starts from A plus B's travel,
    /// plus the shapes; the reference's tolerance grows with it as impact's tests grant.
    pub fn extent(&self) -> f64 {
        let (sa, sb) = (&self.a.sweep, &self.b.sweep);
        ((sb.c1 - sa.c1).length() + (sb.c2 - sb.c1).length() + (sa.c2 - sa.c1).length()) as f64 + 4.0
    }
}
