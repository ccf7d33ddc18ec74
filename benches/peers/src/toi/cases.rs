//! The time of impact query sets as neutral data: convex hulls with a radius, moving from a
//! start pose to an end pose over one step. Every algorithm receives exactly these f32 values,
//! each in its own API's form (see `algorithms.rs`). Seeded; the shapes and motions follow the
//! families of crates/impact2d/tests/common/cases.rs, written again on the SplitMix generator.

use super::reference::{D2, Pose, RefShape, convex_hull, d2, signed_distance};
use crate::rng::Rng;

/// A convex shape: the hull of `points` (meters, local, counter-clockwise, 1 to 8 points)
/// inflated by `radius` (meters). One point is a circle, two a capsule or segment.
#[derive(Clone, Debug)]
pub struct Hull {
    /// Core points (m, local).
    pub points: Vec<[f32; 2]>,
    /// Inflation (m).
    pub radius: f32,
}

impl Hull {
    fn new(points: &[D2], radius: f64) -> Hull {
        Hull { points: points.iter().map(|p| [p.x as f32, p.y as f32]).collect(), radius: radius as f32 }
    }

    /// The f64 reference shape of exactly these f32 values.
    pub fn reference(&self) -> RefShape {
        let pts: Vec<D2> = self.points.iter().map(|p| d2(p[0] as f64, p[1] as f64)).collect();
        RefShape::new(&pts, self.radius as f64)
    }
}

/// One body's motion over the step, in f32 as every algorithm gets it: the center of mass
/// `local_center` (local, meters) goes from `c1` to `c2` (world, meters) while the angle goes
/// from `a1` to `a2` (radians). Each algorithm interpolates in between by its own model.
#[derive(Clone, Debug)]
pub struct Body {
    /// The shape.
    pub hull: Hull,
    /// Center of mass (m, local).
    pub local_center: [f32; 2],
    /// Center of mass at the start and the end (m, world).
    pub c1: [f32; 2],
    pub c2: [f32; 2],
    /// Angle at the start and the end (rad).
    pub a1: f32,
    pub a2: f32,
}

impl Body {
    fn new(hull: Hull, lc: D2, c1: D2, c2: D2, a1: f64, a2: f64) -> Body {
        let v = |p: D2| [p.x as f32, p.y as f32];
        Body { hull, local_center: v(lc), c1: v(c1), c2: v(c2), a1: a1 as f32, a2: a2 as f32 }
    }

    /// The start pose (shape frame) in f64.
    fn start_pose(&self) -> Pose {
        let w = |p: [f32; 2]| d2(p[0] as f64, p[1] as f64);
        let (s, c) = (self.a1 as f64).sin_cos();
        let lc = w(self.local_center).rotate(c, s);
        Pose { p: w(self.c1) - lc, c, s }
    }
}

/// One query: bodies A and B over one step (t from 0 to 1).
#[derive(Clone, Debug)]
pub struct Query {
    /// Body A.
    pub a: Body,
    /// Body B.
    pub b: Body,
}

/// A family of queries: its name and generator.
pub struct Family {
    /// Its name in the table.
    pub name: &'static str,
    /// Draws one query.
    pub make: fn(&mut Rng) -> Query,
}

/// The five families of the issue.
pub const FAMILIES: [Family; 5] = [
    Family { name: "(a) translation only", make: translation_only },
    Family { name: "(b) rotation to 2 rad/step", make: rotation_2 },
    Family { name: "(c) thin rods to 3 rad/step", make: thin_rod },
    Family { name: "(d) bullets vs thin walls", make: bullet },
    Family { name: "(e) 5 km from the origin", make: far },
];

/// Counter-clockwise convex polygon points (3 to 8 after the hull) about `center`, of size
/// about `size` (meters), strictly convex once rounded to f32.
fn random_convex(rng: &mut Rng, n: u32, size: f64, center: D2) -> Vec<D2> {
    loop {
        let aspect = rng.range(0.25, 1.0);
        let turn = rng.angle();
        let pts: Vec<D2> = (0..n)
            .map(|_| {
                let a = rng.angle();
                let r = size * rng.range(0.5, 1.0);
                center + d2(r * a.cos(), aspect * r * a.sin()).rotate(turn.cos(), turn.sin())
            })
            .collect();
        let rounded: Vec<D2> = convex_hull(&pts).iter().map(|p| d2(p.x as f32 as f64, p.y as f32 as f64)).collect();
        if rounded.len() >= 3 && convex_hull(&rounded).len() == rounded.len() {
            return rounded;
        }
    }
}

fn unit(rng: &mut Rng) -> D2 {
    let a = rng.angle();
    d2(a.cos(), a.sin())
}

fn rect(hw: f64, hh: f64, c: D2) -> Vec<D2> {
    vec![c + d2(-hw, -hh), c + d2(hw, -hh), c + d2(hw, hh), c + d2(-hw, hh)]
}

/// A random shape of size about `size`: polygon, box, capsule, circle (centered on the
/// local origin, the form every API accepts), segment or rounded polygon.
fn random_shape(rng: &mut Rng, size: f64) -> Hull {
    let c = d2(rng.range(-0.2, 0.2), rng.range(-0.2, 0.2)) * size;
    match rng.int(0, 5) {
        0 => {
            let n = rng.int(3, 8);
            Hull::new(&random_convex(rng, n, size, c), 0.0)
        }
        1 => Hull::new(&rect(size * rng.range(0.1, 1.0), size * rng.range(0.1, 1.0), c), 0.0),
        2 => {
            let d = unit(rng) * (size * rng.range(0.2, 1.0));
            Hull::new(&[c - d, c + d], size * rng.range(0.05, 0.5))
        }
        3 => Hull::new(&[d2(0.0, 0.0)], size * rng.range(0.1, 1.0)),
        4 => {
            let d = unit(rng) * (size * rng.range(0.2, 1.0));
            Hull::new(&[c - d, c + d], 0.0)
        }
        _ => {
            let n = rng.int(3, 8);
            Hull::new(&random_convex(rng, n, size, c), size * rng.range(0.01, 0.3))
        }
    }
}

/// The mean of a hull's points: a plausible center of mass.
fn mean_point(h: &Hull) -> D2 {
    let n = h.points.len() as f64;
    h.points.iter().fold(D2::default(), |s, p| s + d2(p[0] as f64, p[1] as f64)) * (1.0 / n)
}

/// Random convex shapes 0.1 to 1 m, B aimed near A's path, each turning up to ±`turn` rad.
fn random_pair(rng: &mut Rng, turn: f64) -> Query {
    let size = rng.range(0.1, 1.0);
    let ha = random_shape(rng, size);
    let size = rng.range(0.1, 1.0);
    let hb = random_shape(rng, size);
    let ca = d2(rng.range(-0.5, 0.5), rng.range(-0.5, 0.5));
    let da = unit(rng) * rng.range(0.0, 1.0);
    let aa = rng.angle();
    let lca = mean_point(&ha) + unit(rng) * rng.range(0.0, 0.1);
    let a = Body::new(ha, lca, ca, ca + da, aa, aa + rng.range(-turn, turn));
    let start = ca + unit(rng) * rng.range(0.5, 4.0);
    let aim = ca + da * rng.unit() + unit(rng) * rng.range(0.0, 1.5);
    let db = (aim - start) * rng.range(0.3, 2.0);
    let ab = rng.angle();
    let lcb = mean_point(&hb) + unit(rng) * rng.range(0.0, 0.1);
    let b = Body::new(hb, lcb, start, start + db, ab, ab + rng.range(-turn, turn));
    Query { a, b }
}

/// (a) Random convex shapes translating only.
fn translation_only(rng: &mut Rng) -> Query {
    random_pair(rng, 0.0)
}

/// (b) Random convex shapes translating and turning up to ±2 rad per step.
fn rotation_2(rng: &mut Rng) -> Query {
    random_pair(rng, 2.0)
}

/// (c) A thin rod (1 to 3 m long, 1 to 3 cm thick) spinning 1 to 3 rad per step near a box,
/// apart from it at t = 0 (placements that overlap are drawn again).
fn thin_rod(rng: &mut Rng) -> Query {
    loop {
        let q = rod_once(rng);
        let (ra, rb) = (q.a.hull.reference(), q.b.hull.reference());
        if signed_distance(&ra, &q.a.start_pose(), &rb, &q.b.start_pose()).sd > 0.0 {
            return q;
        }
    }
}

fn rod_once(rng: &mut Rng) -> Query {
    let (hl, ht) = (rng.range(0.5, 1.5), rng.range(0.005, 0.015));
    let (bw, bh) = (rng.range(0.2, 1.0), rng.range(0.2, 1.0));
    let block_angle = rng.angle();
    let block = Body::new(
        Hull::new(&rect(bw, bh, D2::default()), 0.0),
        D2::default(),
        D2::default(),
        D2::default(),
        block_angle,
        block_angle,
    );
    // The rod turns about its middle or about a point along it.
    let lc = d2(if rng.coin() { rng.range(-0.5, 0.5) * hl } else { 0.0 }, 0.0);
    // Its center so that its reach just covers the block, or just misses it.
    let reach = (bw * bw + bh * bh).sqrt() + hl + lc.x.abs();
    let c1 = unit(rng) * rng.range(0.3 * reach, 1.1 * reach);
    let c2 = c1 + unit(rng) * rng.range(0.0, 0.3);
    let a1 = rng.angle();
    let a2 = a1 + rng.sign() * rng.range(1.0, 3.0);
    let rod = Body::new(Hull::new(&rect(hl, ht, D2::default()), 0.0), lc, c1, c2, a1, a2);
    if rng.coin() { Query { a: block, b: rod } } else { Query { a: rod, b: block } }
}

/// (d) A bullet (circle, radius 1 to 5 cm, 5 to 40 m per step, spinning up to ±3 rad) against
/// a wall 5 mm thick at a random angle, crossing its line at up to 85° incidence.
fn bullet(rng: &mut Rng) -> Query {
    let hl = rng.range(0.5, 3.0);
    let theta = rng.angle();
    let wall_pos = d2(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
    let wall =
        Body::new(Hull::new(&rect(hl, 0.0025, D2::default()), 0.0), D2::default(), wall_pos, wall_pos, theta, theta);
    let (along, normal) = (d2(theta.cos(), theta.sin()), d2(-theta.sin(), theta.cos()));
    let r = rng.range(0.01, 0.05);
    let speed = rng.range(5.0, 40.0);
    let s = rng.range(-hl - 0.2, hl + 0.2);
    let incidence = rng.range(-1.48, 1.48);
    let side = rng.sign();
    let dir = normal * (-side * incidence.cos()) + along * incidence.sin();
    let c1 = wall_pos + along * s - dir * (speed * rng.range(0.02, 0.98));
    let spin = rng.range(-3.0, 3.0);
    let shot = Body::new(Hull::new(&[D2::default()], r), D2::default(), c1, c1 + dir * speed, 0.0, spin);
    if rng.coin() { Query { a: wall, b: shot } } else { Query { a: shot, b: wall } }
}

/// (e) Families (b), (c) and (d) in turn, moved 5 km (± 100 m) from the origin: the f32
/// world coordinates every algorithm gets have a resolution of 0.5 mm there.
fn far(rng: &mut Rng) -> Query {
    let mut q = match rng.int(0, 2) {
        0 => rotation_2(rng),
        1 => thin_rod(rng),
        _ => bullet(rng),
    };
    let offset = d2(5000.0 + rng.range(-100.0, 100.0), -5000.0 + rng.range(-100.0, 100.0));
    for body in [&mut q.a, &mut q.b] {
        for c in [&mut body.c1, &mut body.c2] {
            *c = [(c[0] as f64 + offset.x) as f32, (c[1] as f64 + offset.y) as f32];
        }
    }
    q
}
