//! The three time of impact algorithms in 3D, each fed the same f32 query in its own API's
//! form, and their answers in one vocabulary; and the conversions to parry3d's shapes and
//! poses that the distance and ray cast comparisons share.

use super::cases::Query;
use super::models::{Model, Pair, RefShape};
use impact3d::settings::{TOI_TARGET, TOI_TOLERANCE};
use impact3d::{ShapeProxy, Sweep, ToiState, Transform};
use parry3d::math::{Pose, Rotation, Vector};
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
    /// parry3d's `cast_shapes_nonlinear` stopping at the first contact (`stop_at_penetration`
    /// true, as rapier passes it for sensors).
    ParryNonlinear,
    /// The same cast in its directional mode (`stop_at_penetration` false, as rapier's
    /// continuous collision passes it for solid bodies): an overlap at the start that is not
    /// closing fast is let go.
    ParryDirectional,
}

/// Every algorithm, in table order.
pub const ALGOS: [Algo; 4] = [Algo::Impact, Algo::ImpactUncertified, Algo::ParryNonlinear, Algo::ParryDirectional];

impl Algo {
    /// Its name in the table.
    pub fn name(self) -> &'static str {
        match self {
            Algo::Impact => "impact3d time_of_impact",
            Algo::ImpactUncertified => "impact3d uncertified (plain BA)",
            Algo::ParryNonlinear => "parry3d cast_shapes_nonlinear",
            Algo::ParryDirectional => "parry3d cast_shapes_nonlinear, directional",
        }
    }

    /// Whether it is parry's (its motion model and band).
    pub fn is_parry(self) -> bool {
        matches!(self, Algo::ParryNonlinear | Algo::ParryDirectional)
    }

    /// The gap band (meters) its hits aim at: impact's target ± tolerance as its world passes
    /// them; parry's cast stops where the shapes touch (to about 1e-6 m), granted ± a quarter
    /// of impact's target so that both bands are as wide.
    pub fn band(self) -> (f64, f64) {
        match self {
            Algo::Impact | Algo::ImpactUncertified => {
                ((TOI_TARGET - TOI_TOLERANCE) as f64, (TOI_TARGET + TOI_TOLERANCE) as f64)
            }
            Algo::ParryNonlinear | Algo::ParryDirectional => (-TOI_TOLERANCE as f64, TOI_TOLERANCE as f64),
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
    reference: RefShape,
    /// impact's model and parry's, from the values each receives.
    models: [Model; 2],
}

fn body(proxy: &ShapeProxy, sweep: &Sweep) -> Body {
    let motion = parry_motion(sweep);
    let start = sweep.transform_at(0.0);
    let lift = |v: Vector| impact3d::Vec3::new(v.x, v.y, v.z);
    let models = [
        Model::sweep(sweep),
        Model::velocity(start.p, start.q, lift(motion.local_center), lift(motion.linvel), lift(motion.angvel)),
    ];
    Body {
        proxy: proxy.clone(),
        sweep: *sweep,
        shape: parry_shape(proxy),
        motion,
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
        let k = usize::from(algo.is_parry());
        Pair { a: &self.a.reference, b: &self.b.reference, ma: self.a.models[k], mb: self.b.models[k] }
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
                    let mine = match algo {
                        Algo::ParryNonlinear | Algo::ParryDirectional => {
                            let p = body.motion.position_at_time(t as f32).transform_point(pv(*v));
                            glam::DVec3::new(p.x as f64, p.y as f64, p.z as f64)
                        }
                        _ => body.sweep.transform_at(t as f32).apply(*v).as_dvec3(),
                    };
                    let model = body.models[usize::from(algo.is_parry())];
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
