//! The convex hull of a point set in 3D by quickhull, with welding and merging of coplanar
//! faces.
//!
//! Source: Barber, Dobkin and Huhdanpaa, "The Quickhull Algorithm for Convex Hulls", ACM TOMS
//! 1996; Dirk Gregorius, "Implementing Quickhull", GDC 2014 (the horizon, the conflict lists,
//! and merging faces that are nearly coplanar so that a box has six faces, not twelve
//! triangles); welding as in Ericson, Real-Time Collision Detection, 12.1.
//!
//! Every predicate runs in f64 on coordinates taken relative to the first point, so the
//! differences of f32 inputs are exact and a hull far from the origin is built as one at it.
//! The hull's vertices are input points, bit for bit.

use std::collections::HashMap;

use glam::DVec3;

use super::error::{GeometryError, check_point};
use crate::math::Vec3;
use crate::settings::{HULL_COPLANAR_TOLERANCE, LINEAR_SLOP, MAX_HULL_POINTS};

/// How far (meters) adjacent triangles may stray from one plane to be merged into one face:
/// a quarter of the linear slop.
const COPLANAR_DISTANCE: f64 = 0.25 * LINEAR_SLOP as f64;

/// How far outside a triangle (as a fraction of the point set's extent) a point must be to
/// count as outside it: round-off of the f64 predicates, nothing more. A larger tolerance
/// would let points go that later lie well outside the hull, whose faces turn as it grows
/// (a point dropped 1 mm above a face of a flat first tetrahedron ended 5 mm outside).
const OUTSIDE_FRACTION: f64 = 1.0e-10;

/// A triangle of the hull under construction: corners (indices into the welded points),
/// outward unit normal, plane offset, and the points outside it not yet on the hull.
struct Triangle {
    corners: [usize; 3],
    normal: DVec3,
    offset: f64,
    outside: Vec<usize>,
    alive: bool,
}

/// The faces of a convex hull as loops of point indices (counter-clockwise seen from
/// outside), before the hull is packed.
pub(crate) struct Loops {
    /// The welded points (input points, bit for bit).
    pub points: Vec<Vec3>,
    /// Each face's corners, indices into `points`.
    pub faces: Vec<Vec<usize>>,
}

/// Builds the hull's face loops (see `Hull::new` for the contract and errors).
pub(crate) fn quickhull(points: &[Vec3]) -> Result<Loops, GeometryError> {
    if points.len() > MAX_HULL_POINTS {
        return Err(GeometryError::TooManyPoints { count: points.len(), max: MAX_HULL_POINTS });
    }
    for &p in points {
        check_point(p, "hull point")?;
    }
    let points = weld(points);
    if points.len() < 4 {
        return Err(GeometryError::TooFewPoints { count: points.len() });
    }
    let base = points[0].as_dvec3();
    let local: Vec<DVec3> = points.iter().map(|p| p.as_dvec3() - base).collect();
    let mut hull = Builder::start(&local)?;
    while let Some((face, eye)) = hull.next_eye() {
        hull.add(face, eye);
    }
    let faces = hull.merged_faces();
    Ok(Loops { points, faces })
}

/// The points with those closer than the linear slop to an earlier kept point dropped
/// (greedily, in input order).
fn weld(points: &[Vec3]) -> Vec<Vec3> {
    let mut kept: Vec<Vec3> = Vec::with_capacity(points.len());
    for &p in points {
        let pd = p.as_dvec3();
        if kept.iter().all(|k| k.as_dvec3().distance(pd) >= LINEAR_SLOP as f64) {
            kept.push(p);
        }
    }
    kept
}

/// The hull under construction.
struct Builder<'a> {
    points: &'a [DVec3],
    triangles: Vec<Triangle>,
    /// The triangle holding each directed edge (a, b) in its counter-clockwise loop.
    edges: HashMap<(usize, usize), usize>,
    /// How far outside a triangle a point must be to see it (meters).
    outside: f64,
}

impl<'a> Builder<'a> {
    /// The first tetrahedron, from extreme points, with every other point in the conflict
    /// list of a face it lies outside of.
    fn start(points: &'a [DVec3]) -> Result<Builder<'a>, GeometryError> {
        let [a, b, c, d] = initial_simplex(points)?;
        let extent = points.iter().fold(0.0f64, |m, p| m.max(p.abs().max_element()));
        let outside = OUTSIDE_FRACTION * extent;
        let mut hull = Builder { points, triangles: Vec::new(), edges: HashMap::new(), outside };
        let interior = (points[a] + points[b] + points[c] + points[d]) / 4.0;
        for corners in [[a, b, c], [a, b, d], [a, c, d], [b, c, d]] {
            hull.push_outward(corners, interior);
        }
        let all: Vec<usize> = (0..points.len()).filter(|i| ![a, b, c, d].contains(i)).collect();
        let first = hull.triangles.len() - 4;
        hull.assign(&all, first);
        Ok(hull)
    }

    /// Adds the triangle `corners`, turned so that its normal points away from `interior`.
    fn push_outward(&mut self, [a, b, c]: [usize; 3], interior: DVec3) {
        let p = self.points;
        let normal = (p[b] - p[a]).cross(p[c] - p[a]);
        let corners = if normal.dot(interior - p[a]) > 0.0 { [a, c, b] } else { [a, b, c] };
        self.push(corners);
    }

    /// Adds the triangle `corners` (counter-clockwise seen from outside).
    fn push(&mut self, corners: [usize; 3]) {
        let p = self.points;
        let [a, b, c] = corners;
        let normal = (p[b] - p[a]).cross(p[c] - p[a]).normalize_or_zero();
        let index = self.triangles.len();
        for k in 0..3 {
            self.edges.insert((corners[k], corners[(k + 1) % 3]), index);
        }
        self.triangles.push(Triangle { corners, normal, offset: normal.dot(p[a]), outside: vec![], alive: true });
    }

    /// Puts each of `candidates` in the conflict list of a triangle it is outside of (see
    /// [`OUTSIDE_FRACTION`]), the new ones (from `first` on) tried first; the others are inside
    /// the hull. The older triangles are tried too: with a tolerance, a point far enough
    /// outside a removed triangle and an old one may be too little outside every new one
    /// (exact quickhull's lemma that it must be outside a new one does not survive the
    /// tolerance), and was lost.
    fn assign(&mut self, candidates: &[usize], first: usize) {
        for &i in candidates {
            let p = self.points[i];
            if let Some(t) = (first..self.triangles.len())
                .chain(0..first)
                .find(|&t| self.triangles[t].alive && self.distance(t, p) > self.outside)
            {
                self.triangles[t].outside.push(i);
            }
        }
    }

    fn distance(&self, t: usize, p: DVec3) -> f64 {
        self.triangles[t].normal.dot(p) - self.triangles[t].offset
    }

    /// The next point to add: the farthest conflict point of the first triangle that has one.
    fn next_eye(&self) -> Option<(usize, usize)> {
        let (t, tri) = self.triangles.iter().enumerate().find(|(_, t)| t.alive && !t.outside.is_empty())?;
        let eye = tri.outside.iter().copied().max_by(|&i, &j| {
            self.distance(t, self.points[i]).total_cmp(&self.distance(t, self.points[j])).then(j.cmp(&i))
        })?;
        Some((t, eye))
    }

    /// Adds `eye` (outside triangle `face`): removes every triangle it sees, joins it to the
    /// horizon, and hands the orphaned conflict points to the new triangles.
    fn add(&mut self, face: usize, eye: usize) {
        let visible = self.visible_from(face, eye);
        let mut horizon = Vec::new();
        let mut orphans = Vec::new();
        for &t in &visible {
            let corners = self.triangles[t].corners;
            for k in 0..3 {
                let (a, b) = (corners[k], corners[(k + 1) % 3]);
                let across = self.edges.get(&(b, a)).copied();
                if across.is_none_or(|n| !visible.contains(&n)) {
                    horizon.push((a, b));
                }
            }
        }
        for &t in &visible {
            let corners = self.triangles[t].corners;
            for k in 0..3 {
                self.edges.remove(&(corners[k], corners[(k + 1) % 3]));
            }
            self.triangles[t].alive = false;
            orphans.append(&mut self.triangles[t].outside);
        }
        let first = self.triangles.len();
        for (a, b) in horizon {
            self.push([a, b, eye]);
        }
        orphans.retain(|&i| i != eye);
        self.assign(&orphans, first);
    }

    /// The triangles that `eye` is outside of, found by walking across edges from `face`
    /// (the visible region is connected).
    fn visible_from(&self, face: usize, eye: usize) -> Vec<usize> {
        let p = self.points[eye];
        let mut visible = vec![face];
        let mut next = 0;
        while next < visible.len() {
            let corners = self.triangles[visible[next]].corners;
            next += 1;
            for k in 0..3 {
                let twin = (corners[(k + 1) % 3], corners[k]);
                if let Some(&n) = self.edges.get(&twin)
                    && !visible.contains(&n)
                    && self.distance(n, p) > 0.0
                {
                    visible.push(n);
                }
            }
        }
        visible
    }

    /// The faces of the finished hull: adjacent triangles within the coplanar tolerance of a
    /// seed triangle grown into one face, each face a loop of its boundary edges.
    fn merged_faces(&self) -> Vec<Vec<usize>> {
        let alive: Vec<usize> = (0..self.triangles.len()).filter(|&t| self.triangles[t].alive).collect();
        let mut group: HashMap<usize, usize> = HashMap::new();
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for &seed in &alive {
            if group.contains_key(&seed) {
                continue;
            }
            let id = groups.len();
            group.insert(seed, id);
            let mut members = vec![seed];
            let mut next = 0;
            while next < members.len() {
                let corners = self.triangles[members[next]].corners;
                next += 1;
                for k in 0..3 {
                    let twin = (corners[(k + 1) % 3], corners[k]);
                    if let Some(&n) = self.edges.get(&twin)
                        && !group.contains_key(&n)
                        && self.coplanar(seed, n)
                    {
                        group.insert(n, id);
                        members.push(n);
                    }
                }
            }
            groups.push(members);
        }
        let mut faces = Vec::with_capacity(groups.len());
        for members in &groups {
            match self.boundary_loop(members, &group) {
                Some(face) if members.len() == 1 || self.holds_flat(members, &face) => faces.push(face),
                // The merged polygon would tilt away from its triangles (a vertex left inside
                // the face, or a loop of a few far corners), or the group's boundary is not one
                // simple loop (it touches itself at a corner): keep the triangles.
                _ => {
                    for &t in members {
                        faces.push(self.triangles[t].corners.to_vec());
                    }
                }
            }
        }
        faces
    }

    /// Whether the polygon `face` is a convex face: its plane (Newell's normal through its
    /// corners) holds every corner of `members` to within [`COPLANAR_DISTANCE`], each facing
    /// the same way, and every corner turns left about the normal.
    fn holds_flat(&self, members: &[usize], face: &[usize]) -> bool {
        let p = self.points;
        let mut normal = DVec3::ZERO;
        for k in 0..face.len() {
            normal += p[face[k]].cross(p[face[(k + 1) % face.len()]]);
        }
        let normal = normal.normalize_or_zero();
        let offset = face.iter().map(|&c| normal.dot(p[c])).sum::<f64>() / face.len() as f64;
        let flat = members.iter().all(|&t| {
            let tri = &self.triangles[t];
            tri.normal.dot(normal) > 0.0
                && tri.corners.iter().all(|&c| (normal.dot(p[c]) - offset).abs() <= COPLANAR_DISTANCE)
        });
        // Convex: every corner turns left about the normal.
        let n = face.len();
        flat && (0..n).all(|k| {
            let (a, b, c) = (p[face[k]], p[face[(k + 1) % n]], p[face[(k + 2) % n]]);
            (b - a).cross(c - b).dot(normal) > 0.0
        })
    }

    /// Whether triangle `t` lies in the plane of triangle `seed`: normals within
    /// [`HULL_COPLANAR_TOLERANCE`] and every corner within [`COPLANAR_DISTANCE`].
    fn coplanar(&self, seed: usize, t: usize) -> bool {
        let (s, n) = (&self.triangles[seed], &self.triangles[t]);
        let parallel = 1.0 - s.normal.dot(n.normal) < HULL_COPLANAR_TOLERANCE as f64;
        parallel && n.corners.iter().all(|&c| (s.normal.dot(self.points[c]) - s.offset).abs() <= COPLANAR_DISTANCE)
    }

    /// The counter-clockwise loop of the edges of `members` whose other side is in another
    /// group; `None` when those edges are not one simple loop (two leave one corner, or the
    /// walk from the first corner does not come back through all of them). Found by proptest
    /// on near-degenerate points 7e8 m across: the walk indexed a corner with no edge out.
    fn boundary_loop(&self, members: &[usize], group: &HashMap<usize, usize>) -> Option<Vec<usize>> {
        let id = group[&members[0]];
        let mut next: HashMap<usize, usize> = HashMap::new();
        let mut start = usize::MAX;
        for &t in members {
            let corners = self.triangles[t].corners;
            for k in 0..3 {
                let (a, b) = (corners[k], corners[(k + 1) % 3]);
                let across = self.edges.get(&(b, a)).map(|n| group[n]);
                if across != Some(id) {
                    if next.insert(a, b).is_some() {
                        return None;
                    }
                    start = start.min(a);
                }
            }
        }
        let mut face = vec![start];
        let mut at = *next.get(&start)?;
        while at != start && face.len() <= next.len() {
            face.push(at);
            at = *next.get(&at)?;
        }
        (at == start && face.len() == next.len()).then_some(face)
    }
}

/// Four points spanning the most volume among extreme points: the farthest pair of the six
/// axis extremes, the point farthest from their line, the point farthest from that plane.
/// [`GeometryError::Coplanar`] when the points do not span a volume at least the linear slop
/// thick.
fn initial_simplex(points: &[DVec3]) -> Result<[usize; 4], GeometryError> {
    let mut extremes = Vec::with_capacity(6);
    for axis in 0..3 {
        let key = |i: &usize| points[*i][axis];
        let order = |i: &usize, j: &usize| key(i).total_cmp(&key(j)).then(i.cmp(j));
        extremes.push((0..points.len()).min_by(order).unwrap_or(0));
        extremes.push((0..points.len()).max_by(order).unwrap_or(0));
    }
    let (mut a, mut b, mut best) = (0, 0, -1.0);
    for &i in &extremes {
        for &j in &extremes {
            let d = points[i].distance_squared(points[j]);
            if d > best {
                (a, b, best) = (i, j, d);
            }
        }
    }
    let axis = (points[b] - points[a]).normalize_or_zero();
    let off_line = |i: usize| {
        let v = points[i] - points[a];
        (v - axis * v.dot(axis)).length()
    };
    let c = (0..points.len()).max_by(|&i, &j| off_line(i).total_cmp(&off_line(j)).then(j.cmp(&i))).unwrap_or(0);
    if off_line(c) < LINEAR_SLOP as f64 {
        return Err(GeometryError::Coplanar);
    }
    let normal = (points[b] - points[a]).cross(points[c] - points[a]).normalize_or_zero();
    let off_plane = |i: usize| normal.dot(points[i] - points[a]).abs();
    let d = (0..points.len()).max_by(|&i, &j| off_plane(i).total_cmp(&off_plane(j)).then(j.cmp(&i))).unwrap_or(0);
    if off_plane(d) < LINEAR_SLOP as f64 {
        return Err(GeometryError::Coplanar);
    }
    Ok([a, b, c, d])
}
