//! Mass properties of 3D shapes: mass, center of mass and inertia tensor.
//!
//! Every shape is split into pieces with closed-form volume, first moment and second moment
//! (`∫ x xᵀ dV`), summed in f64 relative to a point inside the shape and moved to the
//! center of mass at the end (parallel axis theorem); only the results are rounded to f32.
//!
//! Sources: polyhedra by the divergence theorem over tetrahedra from a reference point
//! (Mirtich, "Fast and Accurate Computation of Polyhedral Mass Properties", 1996, whose
//! face-by-face idea this follows; the tetrahedron's second moment as in Tonon, "Explicit
//! Exact Formulas for the 3-D Tetrahedron Inertia Tensor", 2004); rounded hulls by Steiner's
//! decomposition of a polyhedron grown by a ball (the polyhedron, a prism on each face, a
//! cylinder wedge on each edge, a ball sector at each vertex).

use glam::{DMat3, DVec3};

use super::capsule::Capsule;
use super::hull::Hull;
use super::sphere::Sphere;
use crate::math::{Mat3, Vec3};

/// The mass properties of a shape at some density.
///
/// Units: density in kg/m³, mass in kg, positions in meters, the inertia tensor in kg·m²
/// about the center of mass, in body axes.
///
/// Density rule: a NaN, infinite, zero or negative density gives a massless shape (mass and
/// inertia 0) whose center is still its centroid; no result is NaN.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MassData {
    /// Mass (kilograms).
    pub mass: f32,
    /// Center of mass (meters, body coordinates).
    pub center: Vec3,
    /// Inertia tensor about the center of mass (kg·m², body axes).
    pub inertia: Mat3,
}

/// Volume, first moment and second moment (`∫ x xᵀ dV`) of a solid at unit density, about
/// the origin of the frame they are expressed in.
#[derive(Clone, Copy, Debug)]
struct Moments {
    volume: f64,
    first: DVec3,
    second: DMat3,
}

impl Default for Moments {
    /// Nothing (glam's default matrix is the identity, not zero).
    fn default() -> Moments {
        Moments { volume: 0.0, first: DVec3::ZERO, second: DMat3::ZERO }
    }
}

impl std::ops::AddAssign for Moments {
    fn add_assign(&mut self, o: Moments) {
        self.volume += o.volume;
        self.first += o.first;
        self.second += o.second;
    }
}

impl Moments {
    /// A solid of `volume` with centroid `centroid` and second moment `central` about its
    /// centroid, expressed about the origin.
    fn placed(volume: f64, centroid: DVec3, central: DMat3) -> Moments {
        Moments { volume, first: centroid * volume, second: central + outer(centroid, centroid) * volume }
    }

    /// The tetrahedron (origin, a, b, c), signed by the orientation of (a, b, c).
    fn tetrahedron(a: DVec3, b: DVec3, c: DVec3) -> Moments {
        let det = a.dot(b.cross(c));
        let s = a + b + c;
        let second = (outer(a, a) + outer(b, b) + outer(c, c) + outer(s, s)) * (det / 120.0);
        Moments { volume: det / 6.0, first: s * (det / 24.0), second }
    }

    /// The mass data at `density` with the reference point `origin` added back.
    fn finish(self, density: f32, origin: DVec3) -> MassData {
        let centroid = if self.volume > 0.0 { self.first / self.volume } else { DVec3::ZERO };
        let center = (origin + centroid).as_vec3();
        let density = if density.is_finite() && density > 0.0 { density as f64 } else { 0.0 };
        if density == 0.0 || self.volume <= 0.0 {
            return MassData { mass: 0.0, center, inertia: Mat3::ZERO };
        }
        // Second moment about the centroid, then the inertia tensor tr(C) I - C.
        let central = self.second - outer(centroid, centroid) * self.volume;
        let trace = central.x_axis.x + central.y_axis.y + central.z_axis.z;
        let inertia = (DMat3::from_diagonal(DVec3::splat(trace)) - central) * density;
        MassData { mass: (self.volume * density) as f32, center, inertia: inertia.as_mat3() }
    }
}

fn outer(a: DVec3, b: DVec3) -> DMat3 {
    DMat3::from_cols(a * b.x, a * b.y, a * b.z)
}

/// The second moment about its center of a ball of radius `r` (isotropic).
fn ball_central(r: f64) -> DMat3 {
    let volume = 4.0 / 3.0 * std::f64::consts::PI * r.powi(3);
    DMat3::from_diagonal(DVec3::splat(volume * r * r / 5.0))
}

/// The mass properties of `sphere` at `density` (kg/m³). Exact.
pub fn sphere_mass(sphere: &Sphere, density: f32) -> MassData {
    let r = sphere.radius() as f64;
    let volume = 4.0 / 3.0 * std::f64::consts::PI * r.powi(3);
    Moments::placed(volume, DVec3::ZERO, ball_central(r)).finish(density, sphere.center().as_dvec3())
}

/// The mass properties of `capsule` at `density` (kg/m³): a cylinder and two half balls.
/// Exact.
pub fn capsule_mass(capsule: &Capsule, density: f32) -> MassData {
    let (p1, p2) = (capsule.center1().as_dvec3(), capsule.center2().as_dvec3());
    let r = capsule.radius() as f64;
    let axis = p2 - p1;
    let length = axis.length();
    let u = axis / length;
    let pi = std::f64::consts::PI;
    // Cylinder: second moment about its center, r²/4 across the axis and length²/12 along it
    // per unit volume.
    let cylinder = pi * r * r * length;
    let across = DMat3::IDENTITY - outer(u, u);
    let mut m = Moments::placed(
        cylinder,
        DVec3::ZERO,
        across * (cylinder * r * r / 4.0) + outer(u, u) * (cylinder * length * length / 12.0),
    );
    // Two half balls, their flat faces on the cylinder's ends: a whole ball's second moment
    // about the center, split, plus the offset of each half along the axis: ∫ (x·u)² over a
    // half ball about its flat face is r²/5 per unit volume, and ∫ x·u is 3r/8 per unit volume.
    let half = 2.0 / 3.0 * pi * r.powi(3);
    for sign in [-1.0, 1.0] {
        let face = u * (sign * 0.5 * length);
        let about_face = ball_central(r) * 0.5;
        let first_along = sign * 3.0 / 8.0 * r * half;
        // About the capsule's center: shift from the face by `face` (exact: use the first
        // moment about the face).
        let first_about_face = u * first_along;
        let second =
            about_face + outer(face, first_about_face) + outer(first_about_face, face) + outer(face, face) * half;
        m += Moments { volume: half, first: face * half + first_about_face, second };
    }
    m.finish(density, (p1 + p2) * 0.5)
}

/// The mass properties of `hull` at `density` (kg/m³).
///
/// A sharp hull is exact (tetrahedra from an inner point to each face's fan). A rounded hull
/// (`radius` r > 0) sums the polyhedron, a prism of height r on each face and a wedge of a
/// cylinder of radius r on each edge (both exact), and a sector of a ball of radius r at
/// each vertex: the sectors' volumes are exact (each the vertex's share of the exterior
/// solid angle, together one ball), so the mass is exact; each sector's center and second
/// moment are taken as those of its share of a ball centered on the vertex (isotropic), an
/// approximation whose error is below the sectors' own second moment, `(4/15) π ρ r⁵` in
/// all, and below `ρ π r⁴ / 4 × (largest vertex offset)` in the center's first moment.
pub fn hull_mass(hull: &Hull, density: f32) -> MassData {
    let vertices = hull.vertices();
    let origin = vertices.iter().map(|v| v.as_dvec3()).sum::<DVec3>() / vertices.len() as f64;
    let local: Vec<DVec3> = vertices.iter().map(|v| v.as_dvec3() - origin).collect();
    let mut m = Moments::default();
    for face in 0..hull.faces().len() {
        let corners = hull.face_loop(face);
        for k in 1..corners.len() - 1 {
            m += Moments::tetrahedron(local[corners[0]], local[corners[k]], local[corners[k + 1]]);
        }
    }
    let r = hull.radius() as f64;
    if r > 0.0 {
        m += face_prisms(hull, &local, r);
        m += edge_wedges(hull, &local, r);
        m += vertex_sectors(hull, &local, r);
    }
    m.finish(density, origin)
}

/// A prism of height `r` on each face, along its normal: the face's area × r, its centroid
/// lifted by r/2; second moment from the face's own (by triangles) spread over the height.
fn face_prisms(hull: &Hull, local: &[DVec3], r: f64) -> Moments {
    let mut m = Moments::default();
    for (face, f) in hull.faces().iter().enumerate() {
        let n = f.normal.as_dvec3();
        let corners = hull.face_loop(face);
        for k in 1..corners.len() - 1 {
            let (a, b, c) = (local[corners[0]], local[corners[k]], local[corners[k + 1]]);
            // The triangular prism on (a, b, c) of height r: three tetrahedra.
            let (a2, b2, c2) = (a + n * r, b + n * r, c + n * r);
            m += tetra(a, b, c, a2);
            m += tetra(b, c, a2, b2);
            m += tetra(c, a2, b2, c2);
        }
    }
    m
}

/// The tetrahedron (p, q, s, t), its volume taken positive.
fn tetra(p: DVec3, q: DVec3, s: DVec3, t: DVec3) -> Moments {
    let m = Moments::tetrahedron(q - p, s - p, t - p);
    let sign = m.volume.signum();
    let volume = m.volume * sign;
    let centroid = p + (q - p + s - p + t - p) / 4.0;
    let local_second = m.second * sign;
    // Second moment about p, moved to the origin: ∫ (x + p)(x + p)ᵀ.
    let first_about_p = (centroid - p) * volume;
    Moments {
        volume,
        first: centroid * volume,
        second: local_second + outer(p, first_about_p) + outer(first_about_p, p) + outer(p, p) * volume,
    }
}

/// A wedge of a cylinder of radius `r` along each edge, spanning the angle between the
/// normals of the two faces it joins (the exterior dihedral angle).
fn edge_wedges(hull: &Hull, local: &[DVec3], r: f64) -> Moments {
    let mut m = Moments::default();
    for edge in hull.edges() {
        let (p, q) = (local[edge.vertices[0]], local[edge.vertices[1]]);
        let (n1, n2) = (hull.faces()[edge.faces[0]].normal.as_dvec3(), hull.faces()[edge.faces[1]].normal.as_dvec3());
        let angle = n1.dot(n2).clamp(-1.0, 1.0).acos();
        if angle <= 0.0 {
            continue;
        }
        let length = p.distance(q);
        let u = (q - p) / length;
        // The wedge's bisector and its cross direction in the section plane.
        let x = (n1 + n2).normalize_or_zero();
        let y = u.cross(x);
        let area = 0.5 * angle * r * r;
        let volume = area * length;
        // Section moments about the edge line (Ericson-free closed forms): ∫x dA, ∫x² dA,
        // ∫y² dA for a circular sector of half angle φ/2 about its bisector.
        let along_x = 2.0 / 3.0 * r.powi(3) * (0.5 * angle).sin();
        let xx = r.powi(4) / 8.0 * (angle + angle.sin());
        let yy = r.powi(4) / 8.0 * (angle - angle.sin());
        let mid = (p + q) * 0.5;
        let centroid = mid + x * (along_x / area);
        // Second moment about `mid` (the section's moments times the length, and the
        // length's own spread along u), then moved to the origin.
        let about_mid =
            outer(x, x) * (xx * length) + outer(y, y) * (yy * length) + outer(u, u) * (area * length.powi(3) / 12.0);
        let first_about_mid = x * (along_x * length);
        m += Moments {
            volume,
            first: centroid * volume,
            second: about_mid + outer(mid, first_about_mid) + outer(first_about_mid, mid) + outer(mid, mid) * volume,
        };
    }
    m
}

/// A sector of a ball of radius `r` at each vertex: its share of the ball is the vertex's
/// angular defect over 4π (the defects of a convex polyhedron sum to 4π, Descartes), lumped
/// at the vertex with the ball's isotropic spread (see [`hull_mass`]).
fn vertex_sectors(hull: &Hull, local: &[DVec3], r: f64) -> Moments {
    let mut defect = vec![2.0 * std::f64::consts::PI; local.len()];
    for face in 0..hull.faces().len() {
        let corners = hull.face_loop(face);
        let n = corners.len();
        for k in 0..n {
            let (prev, at, next) = (local[corners[(k + n - 1) % n]], local[corners[k]], local[corners[(k + 1) % n]]);
            let (a, b) = ((prev - at).normalize_or_zero(), (next - at).normalize_or_zero());
            defect[corners[k]] -= a.dot(b).clamp(-1.0, 1.0).acos();
        }
    }
    let ball = 4.0 / 3.0 * std::f64::consts::PI * r.powi(3);
    let mut m = Moments::default();
    for (v, d) in local.iter().zip(&defect) {
        let share = d.max(0.0) / (4.0 * std::f64::consts::PI);
        m += Moments::placed(ball * share, *v, ball_central(r) * share);
    }
    m
}
