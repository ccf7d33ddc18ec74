//! GJK distance and ray casts in 3D: impact3d's `shape_distance` and `ray_cast` against
//! parry3d's `distance` and `cast_local_ray`, on the same f32 inputs, timed in interleaved
//! batches and checked against f64 references.
//!
//! * Distance: the posed pairs of the time of impact families (each query's poses at t = 0
//!   and t = ½, as impact's sweep gives them in f32; parry gets the same transforms), half of
//!   each family 5 km out. Reference: the exact distance of the f32 shapes at those f32 poses
//!   by enumeration in f64 (0 when the surfaces overlap).
//! * Ray casts (solid, in the shape's frame): boxes (parry's `Cuboid`), hulls of 4 to 12
//!   random points (parry's `ConvexPolyhedron` of the same points), spheres (`Ball`) and
//!   capsules (`Capsule`), rays from 1.5–4 m out aimed near the shape, one in eight starting
//!   inside it. Reference in f64: clipping by the hull's face planes (every triangle of its
//!   points with all points on one side), the sphere's quadratic, the capsule's two spheres
//!   and cylinder. A hit/miss disagreement counts only when it stands with the reference
//!   shape grown and shrunk by 10 µm (grazing rays are not judged).

use super::algorithms::{parry_shape, pose, pv};
use super::cases::{self, FAMILIES};
use super::support::core_distance;
use super::{summarize, time_interleaved};
use glam::DVec3;
use impact3d::{DistanceInput, ShapeProxy, SimplexCache, Transform, Vec3};
use parry3d::query::Ray;
use parry3d::shape::{Ball, Capsule, ConvexPolyhedron, Cuboid, Shape};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A distance error above this counts as wrong (meters).
pub const DISTANCE_TOLERANCE: f64 = 1e-4;
/// A ray's hit point off the reference's by more than this counts as wrong (meters).
pub const RAY_TOLERANCE: f64 = 1e-4;

/// One line of a comparison table: impact and parry on one set.
#[derive(Clone, Debug, Default)]
pub struct Row {
    pub set: String,
    pub count: usize,
    /// Mean and median time per query (µs) of each library: impact, parry.
    pub mean_us: [f64; 2],
    pub median_us: [f64; 2],
    /// Largest error against the reference (meters) and the answers off by more than the
    /// tolerance (or, for rays, hitting where the reference misses or the reverse).
    pub max_error: [f64; 2],
    pub wrong: [usize; 2],
    /// Distance only: the largest error on pairs less than [`NEAR`] apart (where contacts
    /// form), and how many such pairs there are.
    pub max_near_error: [f64; 2],
    pub near: usize,
    /// The timed batches of each library: time per query (µs) and size.
    pub samples: [Vec<(f64, usize)>; 2],
}

/// Pairs closer than this (meters) are the ones whose distance errors matter for contact.
pub const NEAR: f64 = 0.1;

impl Row {
    fn timed(set: String, samples: &[Vec<(f64, usize)>]) -> Row {
        let (a, b) = (summarize(&samples[0]), summarize(&samples[1]));
        Row {
            set,
            mean_us: [a.0, b.0],
            median_us: [a.1, b.1],
            samples: [samples[0].clone(), samples[1].clone()],
            ..Row::default()
        }
    }

    /// Every row added up, its times over all the batches.
    pub fn total(rows: &[Row]) -> Row {
        let samples: Vec<Vec<(f64, usize)>> =
            (0..2).map(|k| rows.iter().flat_map(|r| r.samples[k].iter().copied()).collect()).collect();
        let mut t = Row::timed("all".to_string(), &samples);
        for r in rows {
            t.count += r.count;
            t.near += r.near;
            for k in 0..2 {
                t.max_error[k] = t.max_error[k].max(r.max_error[k]);
                t.max_near_error[k] = t.max_near_error[k].max(r.max_near_error[k]);
                t.wrong[k] += r.wrong[k];
            }
        }
        t
    }
}

/// A posed pair for both libraries.
struct Posed {
    a: ShapeProxy,
    b: ShapeProxy,
    pa: Box<dyn Shape>,
    pb: Box<dyn Shape>,
    xa: Transform,
    xb: Transform,
}

fn place(xf: Transform, points: &[Vec3]) -> Vec<DVec3> {
    let (p, q) = (xf.p.as_dvec3(), xf.q.as_dquat());
    points.iter().map(|v| p + q * v.as_dvec3()).collect()
}

impl Posed {
    fn reference(&self) -> f64 {
        let d = core_distance(&place(self.xa, self.a.points()), &place(self.xb, self.b.points()));
        (d - self.a.radius() as f64 - self.b.radius() as f64).max(0.0)
    }

    fn run(&self, parry: bool) -> f64 {
        if parry {
            parry3d::query::distance(&pose(self.xa), &*self.pa, &pose(self.xb), &*self.pb)
                .map_or(f64::NAN, |d| d.distance as f64)
        } else {
            let input =
                DistanceInput { proxy_a: &self.a, transform_a: self.xa, proxy_b: &self.b, transform_b: self.xb };
            impact3d::shape_distance(&input, &mut SimplexCache::default()).map_or(f64::NAN, |d| d.distance as f64)
        }
    }
}

/// GJK distance on the families' posed pairs: `n` queries per family, two poses each.
pub fn distance(n: usize) -> Vec<Row> {
    let mut rows = Vec::new();
    for (which, name) in FAMILIES.iter().enumerate() {
        let queries = cases::generate(which, n);
        for far in [false, true] {
            let posed: Vec<Posed> = queries
                .iter()
                .filter(|q| q.far == far)
                .flat_map(|q| {
                    let c = &q.case;
                    [0.0, 0.5].map(|t| Posed {
                        a: c.a.clone(),
                        b: c.b.clone(),
                        pa: parry_shape(&c.a),
                        pb: parry_shape(&c.b),
                        xa: c.sa.transform_at(t),
                        xb: c.sb.transform_at(t),
                    })
                })
                .collect();
            let (answers, samples) = time_interleaved(&posed, &[false, true], |p, parry| p.run(parry));
            let mut row = Row::timed(format!("{name}{}", if far { ", 5 km out" } else { "" }), &samples);
            row.count = posed.len();
            for (i, p) in posed.iter().enumerate() {
                let exact = p.reference();
                row.near += usize::from(exact < NEAR);
                for (k, answers) in answers.iter().enumerate() {
                    let err = (answers[i] - exact).abs();
                    let err = if err.is_nan() { f64::INFINITY } else { err };
                    row.max_error[k] = row.max_error[k].max(err);
                    if exact < NEAR {
                        row.max_near_error[k] = row.max_near_error[k].max(err);
                    }
                    row.wrong[k] += usize::from(err > DISTANCE_TOLERANCE);
                }
            }
            rows.push(row);
        }
    }
    rows
}

/// The kinds of shape the ray casts meet.
pub const RAY_SHAPES: [&str; 4] = ["box", "hull (4–12 points)", "sphere", "capsule"];

/// A shape in both libraries and in the reference's terms.
struct RayShape {
    impact: impact3d::Shape,
    parry: Box<dyn Shape>,
    reference: RefSolid,
}

/// The reference's solids (f64, shape frame).
enum RefSolid {
    /// Face planes (unit normal n, offset h: n·x ≤ h inside).
    Planes(Vec<(DVec3, f64)>),
    Sphere(f64),
    Capsule(DVec3, DVec3, f64),
}

/// The face planes of the hull of `points`: every triangle of them with all points on one
/// side (within a relative 1e-9).
fn face_planes(points: &[DVec3]) -> Vec<(DVec3, f64)> {
    let scale = points.iter().fold(0.0f64, |m, p| m.max(p.length())).max(1e-9);
    let mut planes = Vec::new();
    for i in 0..points.len() {
        for j in i + 1..points.len() {
            for k in j + 1..points.len() {
                let n = (points[j] - points[i]).cross(points[k] - points[i]);
                if n.length() < 1e-12 * scale * scale {
                    continue;
                }
                let n = n.normalize();
                let h = n.dot(points[i]);
                let (lo, hi) = points
                    .iter()
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, u), p| (l.min(n.dot(*p) - h), u.max(n.dot(*p) - h)));
                if hi <= 1e-9 * scale {
                    planes.push((n, h));
                } else if lo >= -1e-9 * scale {
                    planes.push((-n, -h));
                }
            }
        }
    }
    planes
}

/// The first root in [0, 1] of |o + f d − c|² = r² from outside, or 0 inside.
fn sphere_entry(o: DVec3, d: DVec3, c: DVec3, r: f64) -> Option<f64> {
    let m = o - c;
    if m.length_squared() <= r * r {
        return Some(0.0);
    }
    let (a, b, cc) = (d.length_squared(), m.dot(d), m.length_squared() - r * r);
    let disc = b * b - a * cc;
    if a == 0.0 || disc < 0.0 {
        return None;
    }
    let f = (-b - disc.sqrt()) / a;
    (0.0..=1.0).contains(&f).then_some(f)
}

impl RefSolid {
    /// The reference's entry fraction of the ray o + f d, f in [0, 1], into the solid grown
    /// by `grow` meters (negative: shrunk).
    fn cast(&self, o: DVec3, d: DVec3, grow: f64) -> Option<f64> {
        match self {
            RefSolid::Planes(planes) => {
                let (mut enter, mut exit) = (0.0f64, 1.0f64);
                for &(n, h) in planes {
                    let (num, den) = (h + grow - n.dot(o), n.dot(d));
                    if den == 0.0 {
                        if num < 0.0 {
                            return None;
                        }
                    } else if den < 0.0 {
                        enter = enter.max(num / den);
                    } else {
                        exit = exit.min(num / den);
                    }
                }
                (enter <= exit).then_some(enter)
            }
            RefSolid::Sphere(r) => sphere_entry(o, d, DVec3::ZERO, r + grow),
            RefSolid::Capsule(a, b, r) => {
                let r = r + grow;
                let axis = *b - *a;
                let len = axis.length();
                let u = axis / len;
                let m = o - *a;
                let inside = (m - u * m.dot(u).clamp(0.0, len)).length() <= r;
                if inside {
                    return Some(0.0);
                }
                let mut best = [sphere_entry(o, d, *a, r), sphere_entry(o, d, *b, r)]
                    .into_iter()
                    .flatten()
                    .fold(f64::INFINITY, f64::min);
                // The cylinder: |m⊥ + f d⊥|² = r², the axial coordinate within the segment.
                let (mp, dp) = (m - u * m.dot(u), d - u * d.dot(u));
                let (qa, qb, qc) = (dp.length_squared(), mp.dot(dp), mp.length_squared() - r * r);
                let disc = qb * qb - qa * qc;
                if qa > 0.0 && disc >= 0.0 {
                    let f = (-qb - disc.sqrt()) / qa;
                    let axial = (m + d * f).dot(u);
                    if (0.0..=1.0).contains(&f) && (0.0..=len).contains(&axial) {
                        best = best.min(f);
                    }
                }
                best.is_finite().then_some(best)
            }
        }
    }
}

fn ray_shape(rng: &mut ChaCha8Rng, kind: usize) -> RayShape {
    let unit = |rng: &mut ChaCha8Rng| {
        DVec3::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0))
            .normalize_or(DVec3::X)
            .as_vec3()
    };
    match kind {
        0 => {
            let h = Vec3::new(rng.random_range(0.05..1.0), rng.random_range(0.05..1.0), rng.random_range(0.05..1.0));
            let hull = impact3d::make_box(h).expect("a box");
            let corners: Vec<DVec3> = hull.vertices().iter().map(|v| v.as_dvec3()).collect();
            RayShape {
                impact: impact3d::Shape::Hull(hull),
                parry: Box::new(Cuboid::new(pv(h))),
                reference: RefSolid::Planes(face_planes(&corners)),
            }
        }
        1 => loop {
            let count = rng.random_range(4..=12);
            let points: Vec<Vec3> = (0..count).map(|_| unit(rng) * rng.random_range(0.1..1.0)).collect();
            let (Ok(hull), Some(poly)) = (
                impact3d::Hull::new(&points),
                ConvexPolyhedron::from_convex_hull(&points.iter().map(|p| pv(*p)).collect::<Vec<_>>()),
            ) else {
                continue;
            };
            let exact: Vec<DVec3> = points.iter().map(|v| v.as_dvec3()).collect();
            break RayShape {
                impact: impact3d::Shape::Hull(hull),
                parry: Box::new(poly),
                reference: RefSolid::Planes(face_planes(&exact)),
            };
        },
        2 => {
            let r = rng.random_range(0.05..1.0);
            RayShape {
                impact: impact3d::Shape::Sphere(impact3d::Sphere::new(Vec3::ZERO, r).expect("a sphere")),
                parry: Box::new(Ball::new(r)),
                reference: RefSolid::Sphere(r as f64),
            }
        }
        _ => {
            let (axis, r) = (unit(rng) * rng.random_range(0.1..1.0), rng.random_range(0.02..0.5));
            RayShape {
                impact: impact3d::Shape::Capsule(impact3d::Capsule::new(-axis, axis, r).expect("a capsule")),
                parry: Box::new(Capsule::new(pv(-axis), pv(axis), r)),
                reference: RefSolid::Capsule(-axis.as_dvec3(), axis.as_dvec3(), r as f64),
            }
        }
    }
}

/// One ray against one shape.
struct RayQuery {
    shape: RayShape,
    origin: Vec3,
    translation: Vec3,
}

impl RayQuery {
    fn run(&self, parry: bool) -> Option<f32> {
        if parry {
            let ray = Ray::new(pv(self.origin), pv(self.translation));
            self.shape.parry.cast_local_ray(&ray, 1.0, true)
        } else {
            let input =
                impact3d::RayCastInput { origin: self.origin, translation: self.translation, max_fraction: 1.0 };
            impact3d::ray_cast(&self.shape.impact, &input).map(|c| c.fraction)
        }
    }

    /// How wrong an answer is: infinite for a robust hit/miss disagreement, else the distance
    /// (meters) between the answer's point and the reference's (0 for agreeing misses).
    fn error(&self, answer: Option<f32>) -> f64 {
        let (o, d) = (self.origin.as_dvec3(), self.translation.as_dvec3());
        let exact = self.shape.reference.cast(o, d, 0.0);
        match (answer, exact) {
            (Some(f), Some(e)) => (f as f64 - e).abs() * d.length(),
            (None, None) => 0.0,
            (Some(_), None) if self.shape.reference.cast(o, d, 1e-5).is_none() => f64::INFINITY,
            (None, Some(_)) if self.shape.reference.cast(o, d, -1e-5).is_some() => f64::INFINITY,
            _ => 0.0,
        }
    }
}

/// Ray casts: `n` rays against fresh random shapes of each kind.
pub fn rays(n: usize) -> Vec<Row> {
    let mut rows = Vec::new();
    for (kind, name) in RAY_SHAPES.iter().enumerate() {
        let mut rng = ChaCha8Rng::seed_from_u64(0x3d_7a00 + kind as u64);
        let set: Vec<RayQuery> = (0..n)
            .map(|k| {
                let shape = ray_shape(&mut rng, kind);
                let dir = |rng: &mut ChaCha8Rng| {
                    Vec3::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0))
                };
                let origin = if k % 8 == 7 {
                    dir(&mut rng) * 0.05
                } else {
                    dir(&mut rng).normalize_or(Vec3::X) * rng.random_range(1.5..4.0)
                };
                let aim = dir(&mut rng) * 0.8;
                let translation = (aim - origin) * rng.random_range(0.6..2.0);
                RayQuery { shape, origin, translation }
            })
            .collect();
        let (answers, samples) = time_interleaved(&set, &[false, true], |r, parry| r.run(parry));
        let mut row = Row::timed(name.to_string(), &samples);
        row.count = set.len();
        for (i, r) in set.iter().enumerate() {
            for (k, answers) in answers.iter().enumerate() {
                let err = r.error(answers[i]);
                row.max_error[k] = row.max_error[k].max(err);
                row.wrong[k] += usize::from(err > RAY_TOLERANCE);
            }
        }
        rows.push(row);
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On small sets, impact's distances and ray casts match the f64 references.
    #[test]
    fn impact_distance_and_rays_match_the_reference() {
        for r in distance(32) {
            assert_eq!(r.wrong[0], 0, "{r:?}");
        }
        for r in rays(256) {
            assert_eq!(r.wrong[0], 0, "{r:?}");
        }
    }
}
