//! Penetration depth of overlapping shapes by the expanding polytope algorithm (EPA), in 3D.
//!
//! Source: van den Bergen, "Proximity Queries and Penetration Depth Computation on 3D Game
//! Objects", GDC 2001. The polytope grows inside the Minkowski difference B − A from a
//! tetrahedron around the origin: its face nearest the origin is pushed out to the support
//! point along its normal (the faces that point sees removed, its horizon joined to it, as in
//! quickhull) until the support adds less than the tolerance. All in A's frame, in f64.

use std::collections::HashMap;

use glam::DVec3;

use super::distance::{DistanceInput, SimplexCache, core_distance};
use super::error::QueryError;
use super::proxy::ShapeProxy;
use crate::math::{Transform, Vec3};

/// How many faces the polytope may reach before EPA stops with its best face.
const MAX_FACES: usize = 512;

/// How two overlapping shapes overlap: translating B by `depth * normal` makes them touch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Penetration {
    /// Overlap depth of the surfaces (meters, positive).
    pub depth: f32,
    /// Unit vector from A to B: the direction in which B leaves A fastest.
    pub normal: Vec3,
    /// The deepest point of A inside B (meters, world).
    pub point_a: Vec3,
    /// The deepest point of B inside A (meters, world); `point_a - point_b` is
    /// `depth * normal`.
    pub point_b: Vec3,
}

/// The penetration of two shapes; `None` when they do not overlap (touching is not
/// overlapping).
///
/// Rounded shapes whose cores are apart are solved from the GJK distance (the radii overlap
/// along the closest points' normal); cores that overlap go to EPA, started from a
/// tetrahedron of support points around the origin.
///
/// Errors: those of [`shape_distance`](super::shape_distance) for invalid transforms.
pub fn penetration(input: &DistanceInput) -> Result<Option<Penetration>, QueryError> {
    let d = core_distance(input, &mut SimplexCache::default())?;
    let (ra, rb) = (input.proxy_a.radius(), input.proxy_b.radius());
    if d.distance > 0.0 {
        let depth = ra + rb - d.distance;
        if depth <= 0.0 {
            return Ok(None);
        }
        let n = d.normal;
        return Ok(Some(Penetration { depth, normal: n, point_a: d.point_a + n * ra, point_b: d.point_b - n * rb }));
    }
    let relative = input.transform_a.inv_mul(input.transform_b);
    let (a, b) = (input.proxy_a, input.proxy_b);
    let mut polytope = Polytope { a, b, relative, vertices: Vec::new(), faces: Vec::new() };
    let Some(face) = polytope.expand() else {
        return Ok(None);
    };
    let depth = face.distance as f32 + ra + rb;
    if depth <= 0.0 {
        return Ok(None);
    }
    // B leaves A along minus the face normal of B − A (see `Polytope::expand`).
    let (pa, pb) = polytope.witnesses(&face);
    let n = -face.normal;
    let xf = input.transform_a;
    let normal = xf.q * n.as_vec3();
    Ok(Some(Penetration {
        depth,
        normal,
        point_a: xf.apply((pa + n * ra as f64).as_vec3()),
        point_b: xf.apply((pb - n * rb as f64).as_vec3()),
    }))
}

/// A vertex of B − A with the points it came from (A's frame).
#[derive(Clone, Copy, Debug)]
struct Vertex {
    a: DVec3,
    b: DVec3,
    w: DVec3,
}

/// A face of the polytope: its corners, outward unit normal and distance from the origin.
#[derive(Clone, Copy, Debug)]
struct Face {
    corners: [usize; 3],
    normal: DVec3,
    distance: f64,
    alive: bool,
}

struct Polytope<'a> {
    a: &'a ShapeProxy,
    b: &'a ShapeProxy,
    relative: Transform,
    vertices: Vec<Vertex>,
    faces: Vec<Face>,
}

impl Polytope<'_> {
    fn support(&self, d: DVec3) -> Vertex {
        let d32 = d.as_vec3();
        let a = self.a.points()[self.a.support(-d32)].as_dvec3();
        let b = self.relative.apply(self.b.points()[self.b.support(self.relative.q.inverse() * d32)]).as_dvec3();
        Vertex { a, b, w: b - a }
    }

    /// Grows the polytope; returns its face nearest the origin (whose normal points out of
    /// B − A). `None` when no tetrahedron around the origin can be built (the cores only
    /// touch).
    fn expand(&mut self) -> Option<Face> {
        if let Err(touching) = self.start()? {
            return Some(touching);
        }
        let scale = self.vertices.iter().fold(0.0f64, |m, v| m.max(v.w.length()));
        let tolerance = 1.0e-9 * scale.max(1e-30);
        loop {
            let best = (0..self.faces.len())
                .filter(|&f| self.faces[f].alive)
                .min_by(|&x, &y| self.faces[x].distance.total_cmp(&self.faces[y].distance).then(x.cmp(&y)))?;
            let face = self.faces[best];
            let w = self.support(face.normal);
            if w.w.dot(face.normal) - face.distance <= tolerance || self.faces.len() >= MAX_FACES {
                return Some(face);
            }
            if !self.add(w) {
                return Some(face);
            }
        }
    }

    /// A tetrahedron of support points holding the origin, along ±x, ±y, ±z and the
    /// tetrahedron's own face normals until one holds it (see [`Self::grow_around_origin`]);
    /// `None` when the supports span no volume.
    fn start(&mut self) -> Option<Result<(), Face>> {
        let mut points: Vec<Vertex> = Vec::new();
        let add = |points: &mut Vec<Vertex>, v: Vertex| {
            if points.iter().all(|p| p.w.distance(v.w) > 0.0) {
                points.push(v);
            }
        };
        for d in [DVec3::X, DVec3::Y, DVec3::Z, -DVec3::X, -DVec3::Y, -DVec3::Z, DVec3::ONE, -DVec3::ONE] {
            add(&mut points, self.support(d));
        }
        // Few distinct supports (a difference with few vertices): along the normal of the
        // first three, both ways, so that a volume is spanned when there is one.
        if points.len() >= 3 {
            let n = (points[1].w - points[0].w).cross(points[2].w - points[0].w);
            for d in [n, -n] {
                add(&mut points, self.support(d));
            }
        }
        // The first four points that span a volume.
        let n = points.len();
        for i in 0..n {
            for j in i + 1..n {
                for k in j + 1..n {
                    for l in k + 1..n {
                        let (a, b, c, d) = (points[i].w, points[j].w, points[k].w, points[l].w);
                        let volume = (b - a).cross(c - a).dot(d - a);
                        if volume.abs() > 1e-12 * (b - a).length() * (c - a).length() * (d - a).length() + 0.0 {
                            self.vertices = vec![points[i], points[j], points[k], points[l]];
                            let centroid = (a + b + c + d) / 4.0;
                            for corners in [[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]] {
                                self.push(corners, centroid);
                            }
                            return Some(self.grow_around_origin());
                        }
                    }
                }
            }
        }
        None
    }

    /// Grows the first tetrahedron toward the origin until it holds it: while the origin is
    /// beyond a face, the support point along that face's normal is added (B − A holds the
    /// origin, so that point lies beyond the face too). `None` without progress.
    ///
    /// When no support point gets beyond a face the origin is beyond, the cores only touch
    /// (GJK's zero distance was round-off): that face is returned, its distance the small
    /// negative gap, as the contact.
    fn grow_around_origin(&mut self) -> Result<(), Face> {
        for _ in 0..64 {
            let Some(beyond) = (0..self.faces.len())
                .filter(|&f| self.faces[f].alive)
                .min_by(|&x, &y| self.faces[x].distance.total_cmp(&self.faces[y].distance).then(x.cmp(&y)))
            else {
                break;
            };
            let face = self.faces[beyond];
            if face.distance >= 0.0 {
                return Ok(());
            }
            let w = self.support(face.normal);
            if w.w.dot(face.normal) <= face.distance || !self.add(w) {
                return Err(face);
            }
        }
        let nearest = self.faces.iter().filter(|f| f.alive).min_by(|x, y| x.distance.total_cmp(&y.distance));
        Err(nearest.copied().unwrap_or(Face { corners: [0, 0, 0], normal: DVec3::X, distance: 0.0, alive: false }))
    }

    /// Adds the face `corners` turned so that its normal points away from `interior`.
    fn push(&mut self, [a, b, c]: [usize; 3], interior: DVec3) {
        let w = |i: usize| self.vertices[i].w;
        let n = (w(b) - w(a)).cross(w(c) - w(a));
        let corners = if n.dot(interior - w(a)) > 0.0 { [a, c, b] } else { [a, b, c] };
        self.push_oriented(corners);
    }

    fn push_oriented(&mut self, corners: [usize; 3]) {
        let w = |i: usize| self.vertices[i].w;
        let normal = (w(corners[1]) - w(corners[0])).cross(w(corners[2]) - w(corners[0])).normalize_or_zero();
        let distance = normal.dot(w(corners[0]));
        self.faces.push(Face { corners, normal, distance, alive: true });
    }

    /// Adds `v`: removes the faces it sees and joins their horizon to it. False when it sees
    /// none (no progress).
    fn add(&mut self, v: Vertex) -> bool {
        let index = self.vertices.len();
        self.vertices.push(v);
        let mut edges: HashMap<(usize, usize), usize> = HashMap::new();
        let mut seen = false;
        for f in 0..self.faces.len() {
            let face = self.faces[f];
            if !face.alive || face.normal.dot(v.w - self.vertices[face.corners[0]].w) <= 0.0 {
                continue;
            }
            seen = true;
            self.faces[f].alive = false;
            for k in 0..3 {
                let (a, b) = (face.corners[k], face.corners[(k + 1) % 3]);
                // An edge seen from both sides is inside the removed region.
                if edges.remove(&(b, a)).is_none() {
                    edges.insert((a, b), f);
                }
            }
        }
        if !seen {
            return false;
        }
        let mut horizon: Vec<(usize, usize)> = edges.into_keys().collect();
        horizon.sort_unstable();
        for (a, b) in horizon {
            self.push_oriented([a, b, index]);
        }
        true
    }

    /// The points of A and B at the face's point nearest the origin (barycentric weights of
    /// the projection of the origin on the face).
    fn witnesses(&self, face: &Face) -> (DVec3, DVec3) {
        let [i, j, k] = face.corners.map(|c| self.vertices[c]);
        let p = face.normal * face.distance;
        let (v0, v1, v2) = (j.w - i.w, k.w - i.w, p - i.w);
        let (d00, d01, d11, d20, d21) = (v0.dot(v0), v0.dot(v1), v1.dot(v1), v2.dot(v0), v2.dot(v1));
        let denom = d00 * d11 - d01 * d01;
        let (v, w) =
            if denom > 0.0 { ((d11 * d20 - d01 * d21) / denom, (d00 * d21 - d01 * d20) / denom) } else { (0.0, 0.0) };
        let u = 1.0 - v - w;
        (i.a * u + j.a * v + k.a * w, i.b * u + j.b * v + k.b * w)
    }
}
