//! Convex hulls (polyhedra), sharp or rounded: vertices, faces with their planes, and edges
//! with the two faces they join (the Gauss map the separating axis test walks).

use glam::DVec3;

use super::error::{GeometryError, check_radius};
use super::quickhull::{Loops, quickhull};
use crate::math::{Quat, Vec3};
use crate::settings::{LINEAR_SLOP, MAX_HULL_VERTICES};

/// A hull thinner than this fraction of its largest coordinate is flat: f32 planes across it
/// would be off by a good part of its thickness (16 f32 spacings).
const FLAT_FRACTION: f32 = 16.0 * f32::EPSILON;

/// A face of a hull: a convex polygon of `count` vertices starting at `first` in
/// [`Hull::face_vertices`], counter-clockwise seen from outside, on the plane
/// `normal · x = offset` (unit normal pointing out; meters). The plane supports the hull:
/// every vertex has `normal · v <= offset`; the face's own vertices lie on it to within half
/// the linear slop (faces merged from nearly coplanar triangles).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HullFace {
    /// Index of the face's first vertex index in [`Hull::face_vertices`].
    pub first: usize,
    /// The number of vertices.
    pub count: usize,
    /// The outward unit normal.
    pub normal: Vec3,
    /// The plane offset (meters).
    pub offset: f32,
}

/// An edge of a hull: its two vertices and the two faces it joins (`faces[0]` runs from
/// `vertices[0]` to `vertices[1]` counter-clockwise, `faces[1]` the other way).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HullEdge {
    /// Indices into [`Hull::vertices`].
    pub vertices: [usize; 2],
    /// Indices into [`Hull::faces`].
    pub faces: [usize; 2],
}

/// A convex polyhedron, optionally rounded by a radius (the points within `radius` of it),
/// in body coordinates (meters).
#[derive(Clone, Debug, PartialEq)]
pub struct Hull {
    vertices: Vec<Vec3>,
    faces: Vec<HullFace>,
    face_vertices: Vec<usize>,
    edges: Vec<HullEdge>,
    radius: f32,
    /// The box this hull was made as by [`make_offset_box`] (none for other hulls): ray
    /// casts test its three slabs instead of its six face planes.
    box_frame: Option<BoxFrame>,
}

/// A box as [`make_offset_box`] was given it: the hull holds its corners, placed by these in
/// f32 (so within a few f32 spacings of this exact box).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct BoxFrame {
    /// Half extents along the box's own axes (meters).
    pub half_extents: Vec3,
    /// The center (meters, body coordinates).
    pub center: Vec3,
    /// The box's axes in the body: a unit quaternion.
    pub rotation: Quat,
}

impl Hull {
    /// The convex hull of `points` (meters, 4 to [`crate::settings::MAX_HULL_POINTS`], any
    /// order) by quickhull.
    ///
    /// Points closer than [`LINEAR_SLOP`] are welded (greedily, in input order); a point less
    /// than a quarter of the linear slop outside the hull of the others is left out, so every
    /// input point lies within half the linear slop of the hull's face planes; adjacent
    /// faces within [`crate::settings::HULL_COPLANAR_TOLERANCE`] of one plane are merged, so a
    /// box has six faces. The vertices are input points, bit for bit. Every predicate runs in
    /// f64 relative to the first point (a hull far from the origin is built as one at it).
    ///
    /// Errors, checked in this order: [`GeometryError::TooManyPoints`];
    /// [`GeometryError::NonFinite`] or [`GeometryError::TooLarge`] for a coordinate that is
    /// not finite or beyond [`crate::settings::MAX_COORDINATE`];
    /// [`GeometryError::TooFewPoints`] when fewer than 4 points remain after welding;
    /// [`GeometryError::Coplanar`] when the hull is thinner than the linear slop in some
    /// direction, or than 16 f32 spacings of its largest coordinate (f32 could not place its
    /// faces);
    /// [`GeometryError::TooManyVertices`] beyond [`MAX_HULL_VERTICES`].
    ///
    /// Source: quickhull (Barber, Dobkin and Huhdanpaa 1996; Gregorius, "Implementing
    /// Quickhull", GDC 2014). Never panics.
    pub fn new(points: &[Vec3]) -> Result<Hull, GeometryError> {
        Hull::rounded(points, 0.0)
    }

    /// [`Hull::new`] rounded by `radius` (meters, zero or positive): the points within
    /// `radius` of the polyhedron. Errors: those of [`Hull::new`], and
    /// [`GeometryError::InvalidRadius`] for a negative or non-finite radius.
    pub fn rounded(points: &[Vec3], radius: f32) -> Result<Hull, GeometryError> {
        check_radius(radius, "hull radius", true)?;
        let loops = quickhull(points)?;
        let hull = pack(&loops, radius);
        if hull.vertices.len() > MAX_HULL_VERTICES {
            return Err(GeometryError::TooManyVertices { count: hull.vertices.len(), max: MAX_HULL_VERTICES });
        }
        // Thinner than the slop, or than f32 can place its planes across its extent (the
        // spacing of its largest coordinate, with a margin): flat for all purposes.
        let extent = hull.vertices.iter().fold(0.0f32, |m, v| m.max(v.abs().max_element()));
        if hull.thickness() < LINEAR_SLOP.max(FLAT_FRACTION * extent) {
            return Err(GeometryError::Coplanar);
        }
        Ok(hull)
    }

    /// The box this hull was made as, if it was made by [`make_offset_box`].
    #[inline]
    pub(crate) fn box_frame(&self) -> Option<&BoxFrame> {
        self.box_frame.as_ref()
    }

    /// The vertices (meters, body coordinates).
    #[inline]
    pub fn vertices(&self) -> &[Vec3] {
        &self.vertices
    }

    /// The faces.
    #[inline]
    pub fn faces(&self) -> &[HullFace] {
        &self.faces
    }

    /// The vertex indices of every face, face after face (see [`HullFace::first`]).
    #[inline]
    pub fn face_vertices(&self) -> &[usize] {
        &self.face_vertices
    }

    /// The vertex indices of face `face`, counter-clockwise seen from outside.
    pub fn face_loop(&self, face: usize) -> &[usize] {
        let f = &self.faces[face];
        &self.face_vertices[f.first..f.first + f.count]
    }

    /// The edges, each once.
    #[inline]
    pub fn edges(&self) -> &[HullEdge] {
        &self.edges
    }

    /// The rounding radius (meters; 0 for a sharp hull).
    #[inline]
    pub fn radius(&self) -> f32 {
        self.radius
    }

    /// The index of the vertex farthest along `direction` (the first of equals).
    pub fn support(&self, direction: Vec3) -> usize {
        let mut best = (0, f32::NEG_INFINITY);
        for (i, v) in self.vertices.iter().enumerate() {
            let d = v.dot(direction);
            if d > best.1 {
                best = (i, d);
            }
        }
        best.0
    }

    /// The smallest width of the core over its face normals (meters): for a convex
    /// polyhedron the least width is across a face (or between two edges, which is never
    /// less than the least face width by more than the polyhedron's round-off in practice;
    /// the face widths bound it from above).
    pub fn thickness(&self) -> f32 {
        self.faces
            .iter()
            .map(|f| {
                let low = self.vertices.iter().map(|v| f.normal.dot(*v)).fold(f32::INFINITY, f32::min);
                f.offset - low
            })
            .fold(f32::INFINITY, f32::min)
    }
}

/// The hull of `loops` with unused points dropped, each face's plane (Newell's normal in f64
/// relative to the first vertex, offset from the farthest vertex along it) and the edges.
fn pack(loops: &Loops, radius: f32) -> Hull {
    let mut used: Vec<usize> = loops.faces.iter().flatten().copied().collect();
    used.sort_unstable();
    used.dedup();
    let index_of = |p: usize| used.binary_search(&p).unwrap_or(0);
    let vertices: Vec<Vec3> = used.iter().map(|&i| loops.points[i]).collect();
    let base = vertices[0].as_dvec3();
    let local: Vec<DVec3> = vertices.iter().map(|v| v.as_dvec3() - base).collect();
    let mut faces = Vec::with_capacity(loops.faces.len());
    let mut face_vertices = Vec::new();
    for face in &loops.faces {
        let corners: Vec<usize> = face.iter().map(|&p| index_of(p)).collect();
        let mut normal = DVec3::ZERO;
        for k in 0..corners.len() {
            let (a, b) = (local[corners[k]], local[corners[(k + 1) % corners.len()]]);
            normal += DVec3::new((a.y - b.y) * (a.z + b.z), (a.z - b.z) * (a.x + b.x), (a.x - b.x) * (a.y + b.y));
        }
        let normal = normal.normalize_or_zero();
        // The supporting plane along the face's normal: every vertex of the hull on or below
        // it (a merged face's own vertices lie within half the linear slop under it).
        let offset = local.iter().map(|&v| normal.dot(v)).fold(f64::NEG_INFINITY, f64::max);
        let normal32 = normal.as_vec3();
        faces.push(HullFace {
            first: face_vertices.len(),
            count: corners.len(),
            normal: normal32,
            offset: (offset + normal.dot(base)) as f32,
        });
        face_vertices.extend(corners);
    }
    let mut hull = Hull { vertices, faces, face_vertices, edges: Vec::new(), radius, box_frame: None };
    hull.edges = edges_of(&hull);
    hull
}

/// Each edge once, with the face that runs along it forward and the one that runs back.
fn edges_of(hull: &Hull) -> Vec<HullEdge> {
    let mut directed = std::collections::HashMap::new();
    for face in 0..hull.faces.len() {
        let corners = hull.face_loop(face);
        for k in 0..corners.len() {
            directed.insert((corners[k], corners[(k + 1) % corners.len()]), face);
        }
    }
    let mut edges = Vec::new();
    for face in 0..hull.faces.len() {
        let corners = hull.face_loop(face);
        for k in 0..corners.len() {
            let (a, b) = (corners[k], corners[(k + 1) % corners.len()]);
            if a < b
                && let Some(&other) = directed.get(&(b, a))
            {
                edges.push(HullEdge { vertices: [a, b], faces: [face, other] });
            }
        }
    }
    edges
}

/// A box of half extents `half_extents` (meters) centered on the origin, axis-aligned.
///
/// Errors: [`GeometryError::NonFinite`], [`GeometryError::TooLarge`], and
/// [`GeometryError::InvalidSize`] unless every half extent is at least half the linear slop.
pub fn make_box(half_extents: Vec3) -> Result<Hull, GeometryError> {
    make_offset_box(half_extents, Vec3::ZERO, Quat::IDENTITY, 0.0)
}

/// A box of half extents `half_extents` (meters) rounded by `radius` (meters, zero or
/// positive), centered on `center` and turned by `rotation` (body coordinates).
///
/// Errors: as [`make_box`], and [`GeometryError::InvalidRadius`] for a negative radius.
pub fn make_offset_box(half_extents: Vec3, center: Vec3, rotation: Quat, radius: f32) -> Result<Hull, GeometryError> {
    for (value, what) in [
        (half_extents.x, "box half extent x"),
        (half_extents.y, "box half extent y"),
        (half_extents.z, "box half extent z"),
    ] {
        super::error::check_number(value, what)?;
        if value < 0.5 * LINEAR_SLOP {
            return Err(GeometryError::InvalidSize { what, value });
        }
    }
    super::error::check_point(center, "box center")?;
    if !rotation.is_finite() || (rotation.length_squared() - 1.0).abs() > 1.0e-5 {
        return Err(GeometryError::NonFinite { what: "box rotation (a unit quaternion)" });
    }
    let h = half_extents;
    let corners: Vec<Vec3> = (0..8)
        .map(|i| {
            let sign = |bit: i32| if i & bit == 0 { -1.0 } else { 1.0 };
            center + rotation * Vec3::new(sign(1) * h.x, sign(2) * h.y, sign(4) * h.z)
        })
        .collect();
    let mut hull = Hull::rounded(&corners, radius)?;
    hull.box_frame = Some(BoxFrame { half_extents: h, center, rotation });
    Ok(hull)
}
