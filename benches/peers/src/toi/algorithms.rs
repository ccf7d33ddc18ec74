//! The three time of impact algorithms, each fed the same f32 query in its own API's form,
//! and their answers in one vocabulary.

use super::cases::{Body, Hull, Query};
use super::models::{self, Model, Pair};
use impact2d::settings::{LINEAR_SLOP, TOI_TARGET, TOI_TOLERANCE};
use parry2d::math::{Pose, Rotation, Vector};
use parry2d::query::sweep_toi::{Sweep, SweepToiStatus, ToiProxy, sweep_time_of_impact};
use parry2d::query::{NonlinearRigidMotion, ShapeCastStatus, cast_shapes_nonlinear};
use parry2d::shape::{Ball, Capsule, ConvexPolygon, RoundShape, Segment, Shape};

/// The algorithms compared.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Algo {
    /// impact2d's `time_of_impact` (certified bilateral advancement).
    Impact,
    /// impact2d's `time_of_impact_uncertified`: the same without the rotation certificate,
    /// i.e. plain bilateral advancement as Box2D v3 runs it (for the cost of the certificate).
    ImpactUncertified,
    /// parry2d's `sweep_time_of_impact` (the Box2D v3 port rapier and avian use).
    ParrySweep,
    /// parry2d's `cast_shapes_nonlinear` (conservative advancement on constant velocities).
    ParryNonlinear,
}

/// Every algorithm, in table order.
pub const ALGOS: [Algo; 4] = [Algo::Impact, Algo::ImpactUncertified, Algo::ParrySweep, Algo::ParryNonlinear];

impl Algo {
    /// Its name in the table.
    pub fn name(self) -> &'static str {
        match self {
            Algo::Impact => "impact time_of_impact",
            Algo::ImpactUncertified => "impact uncertified (plain BA)",
            Algo::ParrySweep => "parry sweep_time_of_impact",
            Algo::ParryNonlinear => "parry cast_shapes_nonlinear",
        }
    }
}

/// How a query ended, in every algorithm's terms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// Reached its target gap at `t`.
    Hit,
    /// Never within the target over the step.
    Separated,
    /// Overlapping at the start (impact: surfaces; parry's sweep: cores, and it may report it
    /// at a later look-ahead too; nonlinear cast: within its target at t = 0).
    Overlapped,
    /// Gave up; `t` is the last time the algorithm believes safe.
    Failed,
}

/// An answer: how it ended and the normalized time.
#[derive(Clone, Copy, Debug)]
pub struct Answer {
    /// How it ended.
    pub kind: Kind,
    /// Normalized time in [0, 1].
    pub t: f64,
}

fn pv(p: [f32; 2]) -> Vector {
    Vector::new(p[0], p[1])
}

fn iv(p: [f32; 2]) -> impact2d::Vec2 {
    impact2d::Vec2::new(p[0], p[1])
}

/// A rotation from its (cos, sin) pair.
fn rotation(q: [f32; 2]) -> Rotation {
    Rotation { re: q[0], im: q[1] }
}

/// (cos, sin) of an f32 angle, rounded from f64.
fn cos_sin(angle: f32) -> [f32; 2] {
    let (s, c) = (angle as f64).sin_cos();
    [c as f32, s as f32]
}

/// parry's shape for a hull (circles are centered on the local origin by construction).
fn parry_shape(h: &Hull) -> Box<dyn Shape> {
    let pts: Vec<Vector> = h.points.iter().map(|&p| pv(p)).collect();
    match (pts.len(), h.radius > 0.0) {
        (1, _) => Box::new(Ball::new(h.radius)),
        (2, true) => Box::new(Capsule::new(pts[0], pts[1], h.radius)),
        (2, false) => Box::new(Segment::new(pts[0], pts[1])),
        (_, round) => {
            let polygon = ConvexPolygon::from_convex_polyline_unmodified(pts).expect("a strictly convex polygon");
            if round {
                Box::new(RoundShape { inner_shape: polygon, border_radius: h.radius })
            } else {
                Box::new(polygon)
            }
        }
    }
}

/// One body in every API's form.
struct Prepared {
    proxy: impact2d::ShapeProxy,
    sweep: impact2d::Sweep,
    points: Vec<Vector>,
    radius: f32,
    parry_sweep: Sweep,
    shape: Box<dyn Shape>,
    motion: NonlinearRigidMotion,
    models: [Model; 3],
}

fn prepare(b: &Body) -> Prepared {
    let pts: Vec<impact2d::Vec2> = b.hull.points.iter().map(|&p| iv(p)).collect();
    let proxy = impact2d::ShapeProxy::new(&pts, b.hull.radius).expect("a valid proxy");
    let sweep = impact2d::Sweep { local_center: iv(b.local_center), c1: iv(b.c1), c2: iv(b.c2), a1: b.a1, a2: b.a2 };
    let (q1, q2) = (cos_sin(b.a1), cos_sin(b.a2));
    let parry_sweep =
        Sweep { local_center: pv(b.local_center), c1: pv(b.c1), c2: pv(b.c2), q1: rotation(q1), q2: rotation(q2) };
    // The nonlinear cast's start pose places the shape frame so that the local center lands on c1.
    let start = Pose::from_parts(pv(b.c1) - rotation(q1).transform_vector(pv(b.local_center)), rotation(q1));
    let v = [b.c2[0] - b.c1[0], b.c2[1] - b.c1[1]];
    let angvel = b.a2 - b.a1;
    let motion = NonlinearRigidMotion::new(start, pv(b.local_center), pv(v), angvel);
    let p0 = [start.translation.x, start.translation.y];
    let models = [models::constant(b), models::nlerp(b, q1, q2), models::velocity(p0, q1, b.local_center, v, angvel)];
    let points = b.hull.points.iter().map(|&p| pv(p)).collect();
    Prepared { proxy, sweep, points, radius: b.hull.radius, parry_sweep, shape: parry_shape(&b.hull), motion, models }
}

/// A query prepared for the three algorithms.
pub struct Prepped {
    a: Prepared,
    b: Prepared,
}

impl Prepped {
    /// Converts the query for every API.
    pub fn new(q: &Query) -> Prepped {
        Prepped { a: prepare(&q.a), b: prepare(&q.b) }
    }

    /// Runs one algorithm on the query.
    pub fn run(&self, algo: Algo) -> Answer {
        let (a, b) = (&self.a, &self.b);
        match algo {
            Algo::Impact | Algo::ImpactUncertified => {
                let toi =
                    if algo == Algo::Impact { impact2d::time_of_impact } else { impact2d::time_of_impact_uncertified };
                match toi(&a.proxy, &a.sweep, &b.proxy, &b.sweep, 1.0, TOI_TARGET, TOI_TOLERANCE) {
                    Ok(out) => Answer {
                        kind: match out.state {
                            impact2d::ToiState::Hit => Kind::Hit,
                            impact2d::ToiState::Separated => Kind::Separated,
                            impact2d::ToiState::Overlapped => Kind::Overlapped,
                            impact2d::ToiState::Failed => Kind::Failed,
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
            Algo::ParryNonlinear => {
                match cast_shapes_nonlinear(&a.motion, &*a.shape, &b.motion, &*b.shape, 0.0, 1.0, true) {
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
    pub fn pair(&self, q: &Query, algo: Algo) -> Pair {
        let k = match algo {
            Algo::Impact | Algo::ImpactUncertified => 0,
            Algo::ParrySweep => 1,
            Algo::ParryNonlinear => 2,
        };
        Pair { a: q.a.hull.reference(), b: q.b.hull.reference(), ma: self.a.models[k], mb: self.b.models[k] }
    }

    /// The largest distance (meters) between a hull point placed by `algo`'s own f32 motion and
    /// by its f64 reference model, over t = 0, ¼, ½, ¾, 1: checks that the reference follows
    /// the motion the algorithm really uses (f32 rounding only: about 1e-7 m near the origin,
    /// 5e-4 m at 5 km).
    pub fn model_error(&self, q: &Query, algo: Algo) -> f64 {
        let pair = self.pair(q, algo);
        let mut worst = 0.0f64;
        for (body, model, hull) in [(&self.a, pair.ma, &q.a.hull), (&self.b, pair.mb, &q.b.hull)] {
            for k in 0..=4 {
                let t = 0.25 * k as f64;
                let place: Box<dyn Fn([f32; 2]) -> [f32; 2]> = match algo {
                    Algo::Impact | Algo::ImpactUncertified => {
                        let xf = body.sweep.transform_at(t as f32);
                        Box::new(move |p| {
                            let v = xf.apply(iv(p));
                            [v.x, v.y]
                        })
                    }
                    Algo::ParrySweep => {
                        let pose = body.parry_sweep.transform_at(t as f32);
                        Box::new(move |p| {
                            let v = pose.transform_point(pv(p));
                            [v.x, v.y]
                        })
                    }
                    Algo::ParryNonlinear => {
                        let pose = body.motion.position_at_time(t as f32);
                        Box::new(move |p| {
                            let v = pose.transform_point(pv(p));
                            [v.x, v.y]
                        })
                    }
                };
                let reference = model.pose_at(t);
                for &p in &hull.points {
                    let mine = place(p);
                    let exact = reference.apply(super::reference::d2(p[0] as f64, p[1] as f64));
                    worst = worst.max(exact.dist(super::reference::d2(mine[0] as f64, mine[1] as f64)));
                }
            }
        }
        worst
    }

    /// `algo`'s target band of the surface gap (meters), and whether its Overlapped means
    /// overlapping cores (parry's sweep) rather than surfaces.
    ///
    /// * impact: [slop − slop/4, slop + slop/4] whatever the radii (target and tolerance are
    ///   arguments; the defaults of impact's world are passed).
    /// * parry's sweep: its core gap aims at max(slop, R − slop) ± slop/4 with R the sum of the
    ///   radii: the surface gap aims at slop for polygons and at −slop (1 slop deep) once
    ///   R ≥ 2 slop. Not configurable beyond the slop.
    /// * parry's nonlinear cast: touching (its tolerance is about 1e-6 m); we grant it
    ///   ± slop/4 so that its band is as wide as the others'.
    pub fn band(&self, algo: Algo) -> (f64, f64, bool) {
        let tol = 0.25 * LINEAR_SLOP as f64;
        match algo {
            Algo::Impact | Algo::ImpactUncertified => {
                ((TOI_TARGET - TOI_TOLERANCE) as f64, (TOI_TARGET + TOI_TOLERANCE) as f64, false)
            }
            Algo::ParrySweep => {
                let r = self.a.radius + self.b.radius;
                let target = LINEAR_SLOP.max(r - LINEAR_SLOP) as f64 - r as f64;
                (target - tol, target + tol, true)
            }
            Algo::ParryNonlinear => (-tol, tol, false),
        }
    }
}
