//! Mass properties: mass, center of mass and rotational inertia.
//!
//! Every shape is split into pieces whose area, first moment and second moment have closed
//! forms; the pieces are summed in f64 relative to a point inside the shape and the sum is
//! moved to the center of mass (parallel axis theorem). Only the final values are rounded
//! to f32.

use std::f64::consts::PI;

use glam::DVec2;

use super::capsule::Capsule;
use super::circle::Circle;
use super::polygon::Polygon;
use crate::math::Vec2;

/// The mass properties of a shape at some density.
///
/// Units: density in kg/m² (shapes are plates of unit thickness), mass in kg, positions in
/// meters, rotational inertia in kg·m² about the center of mass.
///
/// The `*_mass` functions are exact to f32 rounding for shapes of any size and position:
/// they sum closed-form moments in f64 relative to a point inside the shape.
///
/// Density rule: a NaN, infinite, zero or negative density gives a massless shape (mass and
/// inertia 0) whose center is still its centroid; no result is ever NaN. A mass or inertia
/// beyond the f32 range (about 3.4e38) saturates to +infinity.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MassData {
    /// Mass (kilograms).
    pub mass: f32,
    /// Center of mass (meters, body coordinates).
    pub center: Vec2,
    /// Rotational inertia about the center of mass (kg·m²).
    pub rotational_inertia: f32,
}

/// Area, first moment and second moment of a plane region (unit density), about the origin
/// of the frame it is expressed in.
#[derive(Clone, Copy, Debug, Default)]
struct Moments {
    /// ∫ dA (m²).
    area: f64,
    /// ∫ x dA (m³).
    first: DVec2,
    /// ∫ |x|² dA (m⁴), the polar second moment about the frame origin.
    second: f64,
}

impl std::ops::AddAssign for Moments {
    fn add_assign(&mut self, other: Moments) {
        self.area += other.area;
        self.first += other.first;
        self.second += other.second;
    }
}

impl Moments {
    /// A region of `area` whose centroid is `centroid` and whose polar second moment about
    /// that centroid is `central_second`.
    fn from_central(area: f64, centroid: DVec2, central_second: f64) -> Moments {
        Moments { area, first: area * centroid, second: central_second + area * centroid.length_squared() }
    }

    /// The mass properties at `density`, with the frame origin at `origin` (body
    /// coordinates). A region without positive area is massless at `origin`.
    fn to_mass_data(self, density: f64, origin: DVec2) -> MassData {
        if !(self.area > 0.0 && self.area.is_finite()) {
            return MassData { mass: 0.0, center: origin.as_vec2(), rotational_inertia: 0.0 };
        }
        let center = self.first / self.area;
        // Parallel axis theorem, back from the frame origin to the center of mass.
        let central = (self.second - self.area * center.length_squared()).max(0.0);
        MassData {
            mass: (density * self.area) as f32,
            center: (origin + center).as_vec2(),
            rotational_inertia: (density * central) as f32,
        }
    }
}

/// The density to use: `density` when it is finite and positive, else 0.
fn usable_density(density: f32) -> f64 {
    if density.is_finite() && density > 0.0 { f64::from(density) } else { 0.0 }
}

/// A solid disc of `radius` centered on the frame origin: I = m r² / 2.
fn disc(radius: f64) -> Moments {
    let area = PI * radius * radius;
    Moments::from_central(area, DVec2::ZERO, 0.5 * area * radius * radius)
}

/// Mass properties of a circle at `density` (kg/m²): m = ρ π r², centered on the circle,
/// I = m r² / 2. See the [`MassData`] docs for the density rule.
pub fn circle_mass(circle: &Circle, density: f32) -> MassData {
    disc(f64::from(circle.radius())).to_mass_data(usable_density(density), DVec2::from(circle.center()))
}

/// Mass properties of a capsule at `density` (kg/m²), exactly: a rectangle of length
/// L = |center2 − center1| and width 2r plus two half discs whose centroids sit 4r/(3π)
/// beyond the segment's ends. Centered on the segment's midpoint. See the [`MassData`]
/// docs for the density rule.
pub fn capsule_mass(capsule: &Capsule, density: f32) -> MassData {
    let (c1, c2) = (DVec2::from(capsule.center1()), DVec2::from(capsule.center2()));
    let r = f64::from(capsule.radius());
    let length = (c2 - c1).length();
    // Rectangle L × 2r about its center: A (L² + (2r)²) / 12.
    let rect_area = 2.0 * r * length;
    let mut total = Moments::from_central(rect_area, DVec2::ZERO, rect_area * (length * length + 4.0 * r * r) / 12.0);
    // Each half disc: I about its flat edge's midpoint is A r² / 2; move it to its centroid
    // at k = 4r / (3π) from that point, then out to the capsule center at L/2 + k.
    let half_area = 0.5 * PI * r * r;
    let k = 4.0 * r / (3.0 * PI);
    let about_own_centroid = half_area * (0.5 * r * r - k * k);
    let offset = 0.5 * length + k;
    let halves = 2.0 * (about_own_centroid + half_area * offset * offset);
    total += Moments { area: 2.0 * half_area, first: DVec2::ZERO, second: halves };
    total.to_mass_data(usable_density(density), 0.5 * (c1 + c2))
}

/// Mass properties of a rounded polygon at `density` (kg/m²), exactly.
///
/// The rounded polygon (the points within `radius` of the core polygon) is split into the
/// core polygon, one rectangle of width `radius` outward along each edge, and one circular
/// sector of `radius` at each vertex, spanning the turn between the normals of its two edges
/// (the sectors add up to a full disc). Each piece's moments have a closed form; they are
/// summed in f64 about the first vertex (differences of f32 vertices are exact there, and
/// the polygon's stored f32 centroid is not needed). This is exact, unlike the common
/// approximation that grows the polygon's vertices outward. See the [`MassData`] docs for
/// the density rule.
///
/// A core with no area (only reachable through boxes whose f32 corners collapse, such as a
/// half size near the f32 underflow limit or one 1e20 times the other) is treated as a disc
/// of `radius` at the first vertex, massless for radius 0.
pub fn polygon_mass(polygon: &Polygon, density: f32) -> MassData {
    let origin = DVec2::from(polygon.vertices()[0]);
    let mut p = [DVec2::ZERO; crate::settings::MAX_POLYGON_VERTICES];
    let n = polygon.vertices().len();
    for (q, &v) in p.iter_mut().zip(polygon.vertices()) {
        *q = DVec2::from(v) - origin;
    }
    let p = &p[..n];
    let r = f64::from(polygon.radius());
    let density = usable_density(density);
    let mut total = core_moments(p);
    if !(total.area > 0.0 && total.area.is_finite()) {
        return disc(r).to_mass_data(density, origin);
    }
    if r > 0.0 {
        for i in 0..n {
            let (a, b, c) = (p[(i + n - 1) % n], p[i], p[(i + 1) % n]);
            total += edge_band(b, c, r);
            total += corner_sector(b, outward_normal(a, b), outward_normal(b, c), r);
        }
    }
    total.to_mass_data(density, origin)
}

/// The core polygon as a fan of triangles (0, a, b) from the frame origin. For one triangle:
/// A = (a × b) / 2, ∫x dA = A (a + b) / 3, ∫|x|² dA = A (a·a + a·b + b·b) / 6.
fn core_moments(p: &[DVec2]) -> Moments {
    let n = p.len();
    let mut m = Moments::default();
    for i in 0..n {
        let (a, b) = (p[i], p[(i + 1) % n]);
        let area = 0.5 * a.perp_dot(b);
        m += Moments { area, first: area * (a + b) / 3.0, second: area * (a.dot(a) + a.dot(b) + b.dot(b)) / 6.0 };
    }
    m
}

/// The outward unit normal of the counter-clockwise edge a → b (its right perpendicular).
fn outward_normal(a: DVec2, b: DVec2) -> DVec2 {
    let e = b - a;
    DVec2::new(e.y, -e.x) / e.length()
}

/// The rectangle over edge a → b extending `r` outward: side lengths l and r, centered at
/// the edge's midpoint pushed out by r/2, I about its center = A (l² + r²) / 12.
fn edge_band(a: DVec2, b: DVec2, r: f64) -> Moments {
    let l = (b - a).length();
    let area = l * r;
    let center = 0.5 * (a + b) + 0.5 * r * outward_normal(a, b);
    Moments::from_central(area, center, area * (l * l + r * r) / 12.0)
}

/// The sector of radius `r` with apex `apex` spanning the directions from `n0` to `n1`
/// (unit vectors, counter-clockwise, angle θ in (0, π]).
///
/// About the apex, with φ the direction angle: A = r² θ / 2, ∫x dA = (r³/3) ∫(cos φ, sin φ)
/// dφ = (r³/3) (n1.y − n0.y, n0.x − n1.x), ∫|x|² dA = r⁴ θ / 4. Then moved to the frame
/// origin: ∫|apex + x|² = ∫|x|² + 2 apex·∫x + A |apex|².
fn corner_sector(apex: DVec2, n0: DVec2, n1: DVec2, r: f64) -> Moments {
    let theta = n0.perp_dot(n1).atan2(n0.dot(n1));
    let area = 0.5 * r * r * theta;
    let first_about_apex = (r * r * r / 3.0) * DVec2::new(n1.y - n0.y, n0.x - n1.x);
    let second_about_apex = 0.25 * r * r * r * r * theta;
    Moments {
        area,
        first: area * apex + first_about_apex,
        second: second_about_apex + 2.0 * apex.dot(first_about_apex) + area * apex.length_squared(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{make_box, make_offset_box, make_rounded_box};

    fn close(a: f32, b: f64, rel: f64) -> bool {
        (f64::from(a) - b).abs() <= rel * b.abs().max(1e-12)
    }

    #[test]
    fn circle_is_half_m_r_squared() {
        let c = Circle::new(Vec2::new(1.0, -2.0), 0.5).unwrap();
        let m = circle_mass(&c, 2.0);
        let mass = 2.0 * PI * 0.25;
        assert!(close(m.mass, mass, 1e-7));
        assert_eq!(m.center, Vec2::new(1.0, -2.0));
        assert!(close(m.rotational_inertia, 0.5 * mass * 0.25, 1e-7));
    }

    #[test]
    fn box_matches_the_textbook() {
        let m = polygon_mass(&make_box(1.0, 0.5).unwrap(), 3.0);
        // 2 m × 1 m: mass 6 kg, I = m (w² + h²) / 12.
        assert!(close(m.mass, 6.0, 1e-7));
        assert!(m.center.length() < 1e-7);
        assert!(close(m.rotational_inertia, 6.0 * 5.0 / 12.0, 1e-6));
        let moved = polygon_mass(&make_offset_box(1.0, 0.5, Vec2::new(3.0, 4.0), 0.3).unwrap(), 3.0);
        assert!((moved.center - Vec2::new(3.0, 4.0)).length() < 1e-6);
        assert!(close(moved.rotational_inertia, 2.5, 1e-6));
    }

    #[test]
    fn rounded_box_is_box_plus_bands_plus_disc() {
        let (hw, hh, r) = (1.0f64, 0.5f64, 0.25f64);
        let m = polygon_mass(&make_rounded_box(hw as f32, hh as f32, r as f32).unwrap(), 1.0);
        let area = 4.0 * hw * hh + 2.0 * r * (2.0 * hw + 2.0 * hh) + PI * r * r;
        assert!(close(m.mass, area, 1e-6));
        // Independent: a cross of two rectangles plus four quarter discs at the corners.
        let rect = |w: f64, h: f64| w * h * (w * w + h * h) / 12.0;
        let quarter = PI * r * r / 4.0;
        let k = 4.0 * r / (3.0 * PI);
        let quarter_own = quarter * r * r / 2.0 - quarter * 2.0 * k * k;
        let corner_dist_sq = (hw + k).powi(2) + (hh + k).powi(2);
        let inertia = rect(2.0 * (hw + r), 2.0 * hh)
            + 2.0 * rect(2.0 * hw, r)
            + 2.0 * (2.0 * hw * r) * (hh + r / 2.0).powi(2)
            + 4.0 * (quarter_own + quarter * corner_dist_sq);
        assert!(close(m.rotational_inertia, inertia, 1e-6), "{} vs {inertia}", m.rotational_inertia);
    }

    #[test]
    fn capsule_equals_rounded_segment_limit() {
        let cap = Capsule::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), 0.5).unwrap();
        let m = capsule_mass(&cap, 1.0);
        // A rounded box of half-height ~0 approaches the capsule.
        let thin = polygon_mass(&make_rounded_box(1.0, 1e-4, 0.5).unwrap(), 1.0);
        assert!(close(m.mass, f64::from(thin.mass), 1e-3));
        assert!(close(m.rotational_inertia, f64::from(thin.rotational_inertia), 1e-3));
        assert_eq!(m.center, Vec2::ZERO);
    }

    #[test]
    fn bad_density_is_massless_not_nan() {
        let c = Circle::new(Vec2::new(1.0, 2.0), 1.0).unwrap();
        for density in [0.0, -1.0, f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            let m = circle_mass(&c, density);
            assert_eq!((m.mass, m.rotational_inertia, m.center), (0.0, 0.0, Vec2::new(1.0, 2.0)));
        }
        let huge = Circle::new(Vec2::ZERO, crate::settings::MAX_COORDINATE).unwrap();
        let m = circle_mass(&huge, 1e30);
        assert!(m.mass == f32::INFINITY && m.rotational_inertia == f32::INFINITY);
    }
}
