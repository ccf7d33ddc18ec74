//! Ray casts against every shape kind, in the shape's local (body) coordinates.
//!
//! The conventions shared by every cast are documented on [`RayCastInput`].

use crate::geometry::{Capsule, ChainSegment, Circle, Polygon, Segment};
use crate::math::Vec2;
use crate::settings::MAX_POLYGON_VERTICES;

/// A ray to cast: the points `origin + f * translation` for f ∈ [0, max_fraction], in the
/// frame of the shape cast against (meters).
///
/// Every ray cast reports the first point of the closed shape along the ray, with its
/// fraction, the outward unit surface normal there and the point itself, under these
/// conventions:
/// - A ray that starts inside a solid shape (circle, capsule, polygon), or on its boundary,
///   hits at fraction 0 with `point = origin` and a zero normal (as [`crate::Aabb::ray_cast`]).
/// - A zero translation hits only when the origin is inside.
/// - NaN or infinite input, or a negative `max_fraction`, never hits. Neither does a ray
///   whose origin lies more than 1e18 m (per coordinate) from the shape's reference point,
///   where f32 cannot place a hit anyway. Outputs are never NaN.
/// - [`CastOutput::iterations`] is 0: every ray cast is closed-form.
///
/// Precision: each cast works relative to the shape (the circle's center, the capsule's
/// first end, the polygon's first vertex) and along a unit direction, and solves the circle
/// quadratic through the ray's closest approach to the center rather than through
/// `|origin|² − r²`, so no term cancels catastrophically. What remains is the rounding of
/// the origin into the shape's frame and of the output point: a few f32 ulps of the origin's
/// distance to the shape and of the point's coordinates (about 1e-4 m at 1 km, 0.1 m at
/// 1,000 km). So hit and miss are decided to within about 1e-6 of the ray's extent
/// (`tests/ray_cast.rs` checks rays from 1 km to 2,000 km against an f64 reference), and a
/// reported point lies on the surface to that precision.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayCastInput {
    /// Start point (meters, in the frame of the shape being cast against).
    pub origin: Vec2,
    /// Displacement at fraction 1 (meters).
    pub translation: Vec2,
    /// The largest fraction of `translation` to search (dimensionless, ≥ 0).
    pub max_fraction: f32,
}

/// Where a ray (or, later, a moving shape) first touches a shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CastOutput {
    /// The contact point (meters, in the shape's frame); the ray origin when it starts
    /// inside.
    pub point: Vec2,
    /// The shape's outward unit surface normal at `point`; zero when the ray starts inside.
    pub normal: Vec2,
    /// The fraction of the translation at the contact, in [0, max_fraction].
    pub fraction: f32,
    /// Iterations spent by an iterative cast; 0 for the closed-form ray casts.
    pub iterations: u32,
}

/// Coordinates of a ray origin relative to the shape, and radii, above this (meters) are out
/// of range: squares and dot products of such numbers could overflow f32.
const MAX_EXTENT: f32 = 1.0e18;

/// A ray in the frame of a shape's reference point, with a unit direction: the point at
/// distance `s` (meters) along `dir` is `origin + s * dir`.
#[derive(Clone, Copy, Debug)]
struct LocalRay {
    /// The ray origin relative to the reference point (meters).
    origin: Vec2,
    /// Unit direction; zero for a zero translation.
    dir: Vec2,
    /// The translation's length (meters); +inf when it overflows f32.
    length: f32,
    /// The distance along `dir` that corresponds to `max_fraction` (may be +inf).
    max_distance: f32,
}

/// True when every number is finite: `x * 0` is 0 for finite `x` and NaN otherwise, so
/// one comparison tests them all without a branch per number.
#[inline]
fn all_finite(values: [f32; 5]) -> bool {
    values.iter().map(|v| v * 0.0).sum::<f32>() == 0.0
}

impl LocalRay {
    /// The ray of `input` relative to `reference`, or `None` for NaN, infinite or
    /// out-of-range input.
    fn new(input: &RayCastInput, reference: Vec2) -> Option<LocalRay> {
        let (o, t, max_fraction) = (input.origin, input.translation, input.max_fraction);
        if !all_finite([o.x, o.y, t.x, t.y, max_fraction]) || max_fraction < 0.0 {
            return None;
        }
        let origin = o - reference;
        if origin.abs().max_element() > MAX_EXTENT {
            return None;
        }
        let (dir, length) = unit_and_length(t);
        Some(LocalRay { origin, dir, length, max_distance: max_fraction * length })
    }

    /// True for a zero translation.
    #[inline]
    fn is_still(&self) -> bool {
        self.length == 0.0
    }

    /// The fraction of the translation at distance `s` along the ray, clamped to the range
    /// against rounding.
    #[inline]
    fn fraction(&self, s: f32, max_fraction: f32) -> f32 {
        (s / self.length).clamp(0.0, max_fraction)
    }

    /// The point at distance `s` along the ray (relative frame).
    #[inline]
    fn at(&self, s: f32) -> Vec2 {
        self.origin + s * self.dir
    }
}

/// The unit vector along finite `v` and its length (zero and 0 for a zero vector). Huge or
/// tiny vectors, whose squared length overflows or underflows, are scaled by their largest
/// component first, so the direction is always accurate.
#[inline]
fn unit_and_length(v: Vec2) -> (Vec2, f32) {
    let length_sq = v.length_squared();
    if (f32::MIN_POSITIVE..f32::INFINITY).contains(&length_sq) {
        let length = length_sq.sqrt();
        return (v / length, length);
    }
    let scale = v.abs().max_element();
    if scale == 0.0 {
        return (Vec2::ZERO, 0.0);
    }
    let unit = v / scale;
    let unit_length = unit.length();
    (unit / unit_length, scale * unit_length)
}

/// The output of a hit at distance `s` along `ray` at `point` (relative to `reference`),
/// or `None` if rounding produced anything non-finite.
fn hit(input: &RayCastInput, ray: &LocalRay, reference: Vec2, s: f32, point: Vec2, normal: Vec2) -> Option<CastOutput> {
    let point = reference + point;
    let fraction = ray.fraction(s, input.max_fraction);
    let finite = all_finite([point.x, point.y, normal.x, normal.y, fraction]);
    finite.then_some(CastOutput { point, normal, fraction, iterations: 0 })
}

/// The output for a ray that starts inside a solid shape.
fn starts_inside(input: &RayCastInput) -> Option<CastOutput> {
    Some(CastOutput { point: input.origin, normal: Vec2::ZERO, fraction: 0.0, iterations: 0 })
}

/// `v / |v|`, or `fallback` when `v` is zero or not finite. `v` must be of moderate size
/// (callers pass vectors of length near 1).
#[inline]
fn unit_or(v: Vec2, fallback: Vec2) -> Vec2 {
    let length = v.length();
    if length > 0.0 && length.is_finite() { v / length } else { fallback }
}

/// Where a ray from `s` (relative to a circle's center) along unit `dir` enters the circle
/// of `radius`: the distance along the ray and the entry point relative to the center. A
/// ray that starts inside enters at distance 0, at `s`. `None` when it misses or the circle
/// is behind.
///
/// With `tc = −s·dir` the distance to the closest approach and `c = s + tc dir` that
/// closest point, the entry is at `tc − h` with `h² = r² − |c|²`, and the entry point is
/// `c − h dir`. Both are sums of small, well-conditioned terms, unlike the textbook
/// `|s|² − r²` form, which cancels when the ray starts far away (Haines et al., "Precision
/// Improvements for Ray/Sphere Intersection", Ray Tracing Gems, 2019, chapter 7).
fn circle_entry(s: Vec2, dir: Vec2, radius: f32) -> Option<(f32, Vec2)> {
    let tc = -s.dot(dir);
    let c = s + tc * dir;
    let h_sq = radius * radius - c.length_squared();
    if h_sq.is_nan() || h_sq < 0.0 {
        return None;
    }
    let h = h_sq.sqrt();
    if tc + h < 0.0 {
        return None;
    }
    if tc - h >= 0.0 { Some((tc - h, c - h * dir)) } else { Some((0.0, s)) }
}

/// Casts a ray against a circle (in the circle's frame, meters).
///
/// Returns the first point of the disc along the ray, its outward normal and fraction.
/// Source: ray against sphere, Ericson, Real-Time Collision Detection, 5.3.2, solved through
/// the ray's closest approach to the center. See the [`RayCastInput`] docs for the
/// conventions (start inside, zero translation, invalid input) and the precision.
pub fn ray_cast_circle(circle: &Circle, input: &RayCastInput) -> Option<CastOutput> {
    let center = circle.center();
    let radius = circle.radius();
    let ray = LocalRay::new(input, center)?;
    if ray.origin.length_squared() <= radius * radius {
        return starts_inside(input);
    }
    if ray.is_still() {
        return None;
    }
    let (s, entry) = circle_entry(ray.origin, ray.dir, radius)?;
    if s > ray.max_distance {
        return None;
    }
    let normal = unit_or(entry / radius, -ray.dir);
    hit(input, &ray, center, s, radius * normal, normal)
}

/// Casts a ray against a capsule (in the capsule's frame, meters), exactly: the capsule is
/// the union of the band between the core segment's two offset lines and the two end
/// circles, cast as [`ray_cast_polygon`] casts a rounded polygon (the segment being a
/// two-vertex polygon whose edges face opposite ways), with the same checks. See the
/// [`RayCastInput`] docs for the conventions and the precision.
pub fn ray_cast_capsule(capsule: &Capsule, input: &RayCastInput) -> Option<CastOutput> {
    let reference = capsule.center1();
    let ray = LocalRay::new(input, reference)?;
    let axis = capsule.center2() - reference;
    // A two-sided "polygon": the edge there and the edge back, with opposite normals.
    let normal = unit_or(Vec2::new(axis.y, -axis.x), Vec2::Y);
    let core = RoundedCore { points: &[Vec2::ZERO, axis], normals: &[normal, -normal], radius: capsule.radius() };
    finish_rounded(input, &ray, reference, core.cast(&ray))
}

/// Casts a ray against a rounded convex polygon (in the polygon's frame, meters).
///
/// With radius 0 this is Cyrus–Beck clipping against the edges' half-planes (Ericson,
/// Real-Time Collision Detection, 5.3.8). With a radius the cast is exact: the rounded
/// polygon is the union of each edge pushed out by the radius (clipped to the edge's extent)
/// and a circle at each vertex. The ray is first clipped against the pushed-out half-planes;
/// if it enters through the clipped part of an edge, that is the hit, otherwise it enters
/// through a corner, and the first vertex circle it enters is the hit. Clipping is checked:
/// a face nearly parallel to a ray from far away (hundreds of kilometers) has a crossing that
/// f32 cannot place, so an answer whose point is not on the ray and the surface to the
/// coordinates' round-off, or a miss whose line passes through the shape, is recomputed by
/// crossing each face and corner, placed from the lateral offsets of their ends (always on
/// the surface). See the [`RayCastInput`] docs for the conventions and the precision.
pub fn ray_cast_polygon(polygon: &Polygon, input: &RayCastInput) -> Option<CastOutput> {
    // The first vertex rather than the stored centroid: it is exact, and the f32 centroid of
    // an extreme sliver can degenerate.
    let reference = polygon.vertices()[0];
    let ray = LocalRay::new(input, reference)?;
    let mut points = [Vec2::ZERO; MAX_POLYGON_VERTICES];
    let count = polygon.vertices().len();
    for (p, &v) in points.iter_mut().zip(polygon.vertices()) {
        *p = v - reference;
    }
    let core = RoundedCore { points: &points[..count], normals: polygon.normals(), radius: polygon.radius() };
    finish_rounded(input, &ray, reference, core.cast(&ray))
}

/// Turns the result of [`RoundedCore::cast`] into the output.
fn finish_rounded(input: &RayCastInput, ray: &LocalRay, reference: Vec2, cast: CoreCast) -> Option<CastOutput> {
    match cast {
        CoreCast::Miss => None,
        CoreCast::Inside => starts_inside(input),
        CoreCast::Hit { distance, point, normal } => hit(input, ray, reference, distance, point, normal),
    }
}

/// The outcome of clipping a ray against a rounded core's pushed-out half-planes.
enum Clip {
    /// The entry distance and face (`None`: the origin is inside every half-plane).
    Enter(f32, Option<usize>),
    /// No entry within the range; `sure` when the round-off cannot have made it so.
    Miss { sure: bool },
}

/// The outcome of casting against a rounded core.
enum CoreCast {
    Miss,
    Inside,
    /// Distance along the ray, hit point (relative frame) and outward normal.
    Hit {
        distance: f32,
        point: Vec2,
        normal: Vec2,
    },
}

/// A convex core of at least 2 points, counter-clockwise, with the outward unit normal of
/// each edge `points[i] → points[i + 1]`, inflated by `radius`. Two points with opposite
/// normals make a capsule.
struct RoundedCore<'a> {
    points: &'a [Vec2],
    normals: &'a [Vec2],
    radius: f32,
}

impl RoundedCore<'_> {
    /// The cast by clipping ([`Self::clip_cast`]), checked; when the check fails, the cast
    /// by crossing every boundary piece ([`Self::cast_pieces`]).
    ///
    /// Clipping divides each face's gap by the rate at which the ray approaches it: for a
    /// face nearly parallel to the ray, seen from far away (1e6 m), the origin's round-off
    /// over that tiny rate moves the face's crossing by meters to kilometers, and the clip can
    /// pick a wrong face or none. So a clipped hit stands only if its point lies within its
    /// face's extent (to the round-off), a corner hit only if the entry is beyond the face's
    /// end by more than the clip's error or its point is on the boundary (not inside the
    /// shape), and a miss only if the clip's crossings miss each other by more than their
    /// error, or the ray's line passes beyond the rounded core, or the core lies out of the
    /// ray's range. Any other answer is recomputed from the lateral offsets of the boundary
    /// pieces' ends to the ray's line, which place a crossing on its piece whatever the
    /// angle. Well-conditioned casts pass the checks and keep the clipped answer bit for bit;
    /// the checks cost about 4 ns a cast (polygons of 6 vertices, 31 ns instead of 27 for a
    /// hit).
    fn cast(&self, ray: &LocalRay) -> CoreCast {
        match self.clip_cast(ray) {
            Some(cast) => cast,
            None => self.cast_pieces(ray),
        }
    }

    /// The absolute round-off (meters) of positions relative to the core along this ray, up
    /// to a point of magnitude `reach` (relative to the core's reference point): a few ulps
    /// of the largest coordinate met (the origin, that point, the radius).
    #[inline]
    fn round_off(&self, ray: &LocalRay, reach: f32) -> f32 {
        8.0 * f32::EPSILON * (ray.origin.abs().max_element() + reach + self.radius)
    }

    /// The largest coordinate of the core's points (meters, relative to the reference point).
    fn extent(&self) -> f32 {
        self.points.iter().fold(0.0f32, |m, p| m.max(p.abs().max_element()))
    }

    /// Cyrus–Beck clipping and the corner circles; `None` when its answer fails the checks
    /// of [`Self::cast`].
    fn clip_cast(&self, ray: &LocalRay) -> Option<CoreCast> {
        let (entry, face) = match self.clip(ray) {
            Clip::Enter(entry, face) => (entry, face),
            Clip::Miss { sure } => return (sure || self.confirms_miss(ray)).then_some(CoreCast::Miss),
        };
        let Some(i) = face else {
            // The origin is inside every pushed-out half-plane.
            if self.radius == 0.0 || self.contains(ray.origin) {
                return Some(CoreCast::Inside);
            }
            return self.checked_corners(ray);
        };
        let normal = self.normals[i];
        let p = self.points[i];
        // Put the point exactly on the face: removes the rounding of `origin + s dir`
        // across the face.
        let q = ray.at(entry);
        let q = q - (normal.dot(q - p) - self.radius) * normal;
        let next = if i + 1 == self.points.len() { 0 } else { i + 1 };
        let edge = self.points[next] - p;
        let along = edge.dot(q - p);
        let length_sq = edge.length_squared();
        if (0.0..=length_sq).contains(&along) {
            return Some(CoreCast::Hit { distance: entry, point: q, normal });
        }
        if self.radius == 0.0 {
            // Beyond the face's ends by at most the round-off: a corner hit. Farther, the
            // clip took a face the ray does not cross (nearly parallel, from afar).
            let slack = self.round_off(ray, q.abs().max_element()) * length_sq.sqrt();
            let hit = CoreCast::Hit { distance: entry, point: q, normal };
            return (-slack..=length_sq + slack).contains(&along).then_some(hit);
        }
        // Entered the pushed-out polygon beyond the edge's extent: through a corner. The
        // rounded shape's boundary inside that polygon is made of arcs only. When the entry
        // lies beyond the edge's end by more than the clip can be off along the face (its
        // crossing's round-off over the rate at which the ray approaches the face), the clip
        // surely took the right face and the corners answer as they are.
        let beyond = if along < 0.0 { -along } else { along - length_sq };
        let rate = normal.dot(ray.dir).abs();
        let error = self.round_off(ray, q.abs().max_element()) + 2.0 * f32::EPSILON * entry;
        if beyond * rate > error * length_sq.sqrt() {
            return Some(self.cast_corners(ray));
        }
        self.checked_corners(ray)
    }

    /// [`Self::cast_corners`], if its answer is a point on the boundary (a corner circle's
    /// entry inside the shape is not its first point: the ray entered through a face).
    fn checked_corners(&self, ray: &LocalRay) -> Option<CoreCast> {
        match self.cast_corners(ray) {
            CoreCast::Hit { distance, point, normal } => {
                let depth = self.radius - self.core_distance(point);
                let tolerance = self.round_off(ray, point.abs().max_element());
                (depth <= tolerance).then_some(CoreCast::Hit { distance, point, normal })
            }
            CoreCast::Miss => self.confirms_miss(ray).then_some(CoreCast::Miss),
            CoreCast::Inside => Some(CoreCast::Inside),
        }
    }

    /// True when the ray surely misses: its line passes farther than the radius from the
    /// core (every core point beyond it on one side), or every core point is behind the
    /// origin or beyond the ray's range by more than the radius, each by more than the
    /// round-off.
    fn confirms_miss(&self, ray: &LocalRay) -> bool {
        if ray.is_still() {
            return true;
        }
        let side = ray.dir.perp();
        let (mut lateral_range, mut along_range) =
            ((f32::INFINITY, f32::NEG_INFINITY), (f32::INFINITY, f32::NEG_INFINITY));
        let mut extent = 0.0f32;
        for &p in self.points {
            let d = p - ray.origin;
            let (lateral, along) = (side.dot(d), ray.dir.dot(d));
            lateral_range = (lateral_range.0.min(lateral), lateral_range.1.max(lateral));
            along_range = (along_range.0.min(along), along_range.1.max(along));
            extent = extent.max(p.abs().max_element());
        }
        let reach = self.radius + self.round_off(ray, extent);
        lateral_range.0 > reach
            || lateral_range.1 < -reach
            || along_range.1 < -reach
            || along_range.0 > ray.max_distance + reach
    }

    /// The distance from `x` to the core (zero inside a core of three or more points).
    fn core_distance(&self, x: Vec2) -> f32 {
        let has_area = self.points.len() >= 3;
        if has_area && self.normals.iter().zip(self.points).all(|(&n, &p)| n.dot(x - p) <= 0.0) {
            return 0.0;
        }
        self.edges().map(|(a, b)| segment_distance_squared(x, a, b)).fold(f32::INFINITY, f32::min).sqrt()
    }

    /// The cast by crossing the boundary's pieces: each face pushed out by the radius (a
    /// segment) and each corner circle. The rounded core is convex, so the ray's line meets
    /// its boundary twice and the first crossing along the ray is the entry. A face's
    /// crossing is placed on it from the lateral offsets of its ends to the ray's line (no
    /// division by the rate at which the ray approaches the face), so it lies on the face
    /// whatever the angle; its distance along the ray carries only the round-off of the
    /// coordinates.
    fn cast_pieces(&self, ray: &LocalRay) -> CoreCast {
        let tolerance = self.round_off(ray, self.extent());
        if self.contains(ray.origin) {
            return CoreCast::Inside;
        }
        if ray.is_still() {
            return CoreCast::Miss;
        }
        let side = ray.dir.perp();
        let mut best: Option<(f32, Vec2, Vec2)> = None;
        let mut keep = |s: f32, point: Vec2, normal: Vec2| {
            if s.is_finite() && best.is_none_or(|(b, _, _)| s < b) {
                best = Some((s, point, normal));
            }
        };
        for (i, (a, b)) in self.edges().enumerate() {
            let normal = self.normals[i];
            let (a, b) = (a + self.radius * normal, b + self.radius * normal);
            let (ha, hb) = (side.dot(a - ray.origin), side.dot(b - ray.origin));
            if (ha > 0.0 && hb > 0.0) || (ha < 0.0 && hb < 0.0) || ha == hb {
                continue;
            }
            let q = a + (ha / (ha - hb)) * (b - a);
            keep(ray.dir.dot(q - ray.origin), q, normal);
        }
        if self.radius > 0.0 {
            for &p in self.points {
                if let Some((s, entry)) = circle_entry(ray.origin - p, ray.dir, self.radius) {
                    let normal = unit_or(entry / self.radius, -ray.dir);
                    keep(s, p + self.radius * normal, normal);
                }
            }
        }
        match best {
            // The entry within the round-off behind the origin: the origin is on the boundary.
            Some((s, point, normal)) if (-tolerance..=ray.max_distance).contains(&s) => {
                CoreCast::Hit { distance: s.max(0.0), point, normal }
            }
            _ => CoreCast::Miss,
        }
    }

    /// Clips the ray against the half-planes `normal_i · (x − p_i) ≤ radius` (Cyrus–Beck).
    /// Returns the entry distance and the entry face (`None` when the origin is inside
    /// them all), or a miss when the ray misses them within its range: `sure` when the
    /// half-planes' crossings miss each other by more than their round-off (a face's gap is
    /// rounded to a few ulps of the coordinates, and dividing by its rate carries that, and
    /// the direction's rounding, into the crossing's distance).
    fn clip(&self, ray: &LocalRay) -> Clip {
        let (mut lower, mut upper) = (0.0f32, ray.max_distance);
        // The faces that set each bound (none: the start and the range's end, exact).
        let (mut face, mut exit) = (None, None);
        for (i, (&n, &p)) in self.normals.iter().zip(self.points).enumerate() {
            // How far the origin is beyond the face (> 0: outside) and how fast that
            // changes along the ray.
            let gap = n.dot(ray.origin - p) - self.radius;
            let rate = n.dot(ray.dir);
            if rate == 0.0 {
                if gap > 0.0 {
                    return Clip::Miss { sure: gap > self.round_off(ray, p.abs().max_element()) };
                }
                continue;
            }
            let s = -gap / rate;
            if rate < 0.0 && s > lower {
                lower = s;
                face = Some(i);
            } else if rate > 0.0 && s < upper {
                upper = s;
                exit = Some(i);
            }
            if lower > upper {
                return Clip::Miss { sure: self.clearly_apart(ray, (face, lower), (exit, upper)) };
            }
        }
        Clip::Enter(lower, face)
    }

    /// True when the entry crossing `(face, s)` lies beyond the exit crossing `(face, s)` by
    /// more than their round-off: each face's gap is rounded to a few ulps of the coordinates,
    /// which its crossing carries divided by the rate at which the ray approaches it, plus the
    /// direction's rounding carried along the distance. Bounds without a face (the start, the
    /// range's end) are exact. Compared without dividing: `(lower - upper) r_l r_u >
    /// e_l r_u + e_u r_l`.
    fn clearly_apart(&self, ray: &LocalRay, entry: (Option<usize>, f32), exit: (Option<usize>, f32)) -> bool {
        let error = |(face, s): (Option<usize>, f32)| match face {
            Some(i) => {
                let rate = self.normals[i].dot(ray.dir).abs();
                (self.round_off(ray, self.points[i].abs().max_element()) + 2.0 * f32::EPSILON * s.abs(), rate)
            }
            None => (0.0, 1.0),
        };
        let ((e_l, r_l), (e_u, r_u)) = (error(entry), error(exit));
        (entry.1 - exit.1) * r_l * r_u > e_l * r_u + e_u * r_l
    }

    /// True when `x` is within `radius` of the core (closed).
    fn contains(&self, x: Vec2) -> bool {
        // Two points bound no area: their half-planes only say that `x` is on the line.
        let has_area = self.points.len() >= 3;
        let inside_core = has_area && self.normals.iter().zip(self.points).all(|(&n, &p)| n.dot(x - p) <= 0.0);
        inside_core || self.edges().any(|(a, b)| segment_distance_squared(x, a, b) <= self.radius * self.radius)
    }

    /// The earliest entry into a vertex circle within the ray's range.
    fn cast_corners(&self, ray: &LocalRay) -> CoreCast {
        let mut best: Option<(f32, Vec2, Vec2)> = None;
        for &p in self.points {
            let Some((s, entry)) = circle_entry(ray.origin - p, ray.dir, self.radius) else { continue };
            if s <= ray.max_distance && best.is_none_or(|(b, _, _)| s < b) {
                let normal = unit_or(entry / self.radius, -ray.dir);
                best = Some((s, p + self.radius * normal, normal));
            }
        }
        match best {
            Some((distance, point, normal)) => CoreCast::Hit { distance, point, normal },
            None => CoreCast::Miss,
        }
    }

    fn edges(&self) -> impl Iterator<Item = (Vec2, Vec2)> + '_ {
        let n = self.points.len();
        (0..n).map(move |i| (self.points[i], self.points[(i + 1) % n]))
    }
}

/// The squared distance from `x` to the segment a–b.
fn segment_distance_squared(x: Vec2, a: Vec2, b: Vec2) -> f32 {
    let e = b - a;
    let ee = e.length_squared();
    let t = if ee > 0.0 { (e.dot(x - a) / ee).clamp(0.0, 1.0) } else { 0.0 };
    (x - (a + t * e)).length_squared()
}

/// Crosses the ray with the segment a–b whose unit normal is `normal`; `None` when the ray
/// is parallel, misses, or (with `one_sided`) comes from behind the normal or moves along it.
fn cast_segment(input: &RayCastInput, a: Vec2, b: Vec2, normal: Vec2, one_sided: bool) -> Option<CastOutput> {
    let ray = LocalRay::new(input, a)?;
    let edge = b - a;
    let gap = normal.dot(ray.origin);
    let rate = normal.dot(ray.dir);
    if rate == 0.0 || (one_sided && (gap < 0.0 || rate > 0.0)) {
        return None;
    }
    let s = -gap / rate;
    if !(0.0..=ray.max_distance).contains(&s) {
        return None;
    }
    let q = ray.at(s);
    let q = q - normal.dot(q) * normal;
    if !(0.0..=edge.length_squared()).contains(&edge.dot(q)) {
        return None;
    }
    // The normal faces the ray: against its direction.
    let facing = if rate < 0.0 { normal } else { -normal };
    hit(input, &ray, a, s, q, facing)
}

/// Casts a ray against a two-sided segment (in the segment's frame, meters). The normal
/// faces the ray. A ray parallel to the segment misses (even along it: a segment has no
/// area), and so does a zero translation. A ray starting on the segment hits at fraction 0.
/// See the [`RayCastInput`] docs for invalid input and the precision.
pub fn ray_cast_segment(segment: &Segment, input: &RayCastInput) -> Option<CastOutput> {
    let (a, b) = (segment.point1(), segment.point2());
    let e = b - a;
    let normal = unit_or(Vec2::new(e.y, -e.x), Vec2::Y);
    cast_segment(input, a, b, normal, false)
}

/// Casts a ray against a one-sided chain segment (in its frame, meters): it hits only a ray
/// that starts on the colliding side (the side of [`ChainSegment::normal`], the right of
/// `point1 → point2`; on the line counts) and moves against the normal. The reported normal
/// is the segment's normal. Ghost vertices play no part. See [`ray_cast_segment`] for the
/// rest.
pub fn ray_cast_chain_segment(chain: &ChainSegment, input: &RayCastInput) -> Option<CastOutput> {
    let segment = chain.segment();
    let (a, b) = (segment.point1(), segment.point2());
    let e = b - a;
    let normal = unit_or(Vec2::new(e.y, -e.x), Vec2::Y);
    cast_segment(input, a, b, normal, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{make_box, make_rounded_box};

    fn ray(origin: Vec2, translation: Vec2) -> RayCastInput {
        RayCastInput { origin, translation, max_fraction: 1.0 }
    }

    fn near(a: Vec2, b: Vec2, tol: f32) -> bool {
        (a - b).length() <= tol
    }

    #[test]
    fn circle_front_hit_and_miss() {
        let c = Circle::new(Vec2::new(2.0, 0.0), 0.5).unwrap();
        let out = ray_cast_circle(&c, &ray(Vec2::ZERO, Vec2::new(3.0, 0.0))).unwrap();
        assert!((out.fraction - 0.5).abs() < 1e-6);
        assert!(near(out.point, Vec2::new(1.5, 0.0), 1e-6) && near(out.normal, Vec2::NEG_X, 1e-6));
        assert!(ray_cast_circle(&c, &ray(Vec2::ZERO, Vec2::new(1.4, 0.0))).is_none());
        assert!(ray_cast_circle(&c, &ray(Vec2::ZERO, Vec2::new(-3.0, 0.0))).is_none());
        assert!(ray_cast_circle(&c, &ray(Vec2::new(0.0, 0.6), Vec2::new(3.0, 0.0))).is_none());
    }

    #[test]
    fn circle_from_one_kilometer() {
        let c = Circle::new(Vec2::new(0.3, 0.2), 0.1).unwrap();
        let origin = Vec2::new(1000.3, 0.2);
        let out = ray_cast_circle(&c, &ray(origin, Vec2::new(-2000.0, 0.0))).unwrap();
        assert!(near(out.point, Vec2::new(0.4, 0.2), 1e-4), "{:?}", out.point);
        assert!(near(out.normal, Vec2::X, 1e-5));
    }

    #[test]
    fn starts_inside_and_still() {
        let c = Circle::new(Vec2::ZERO, 1.0).unwrap();
        let inside = ray_cast_circle(&c, &ray(Vec2::new(0.5, 0.0), Vec2::ZERO)).unwrap();
        assert_eq!((inside.fraction, inside.normal, inside.point), (0.0, Vec2::ZERO, Vec2::new(0.5, 0.0)));
        assert!(ray_cast_circle(&c, &ray(Vec2::new(2.0, 0.0), Vec2::ZERO)).is_none());
        let b = make_rounded_box(1.0, 1.0, 0.5).unwrap();
        let inside = ray_cast_polygon(&b, &ray(Vec2::new(1.2, 1.2), Vec2::X)).unwrap();
        assert_eq!((inside.fraction, inside.normal), (0.0, Vec2::ZERO));
        // In the pushed-out square's corner but outside the rounded corner: not inside.
        let out = ray_cast_polygon(&b, &ray(Vec2::new(1.45, 1.45), Vec2::new(-1.0, -1.0))).unwrap();
        assert!(out.fraction > 0.0);
        let s = std::f32::consts::FRAC_1_SQRT_2;
        assert!(near(out.normal, Vec2::new(s, s), 1e-5));
        assert!(near(out.point, Vec2::splat(1.0 + 0.5 * s), 1e-5));
    }

    #[test]
    fn box_face_hit() {
        let b = make_box(1.0, 0.5).unwrap();
        let out = ray_cast_polygon(&b, &ray(Vec2::new(-3.0, 0.2), Vec2::new(4.0, 0.0))).unwrap();
        assert!((out.fraction - 0.5).abs() < 1e-6);
        assert!(near(out.point, Vec2::new(-1.0, 0.2), 1e-6) && near(out.normal, Vec2::NEG_X, 1e-6));
        assert!(ray_cast_polygon(&b, &ray(Vec2::new(-3.0, 0.6), Vec2::new(4.0, 0.0))).is_none());
    }

    #[test]
    fn capsule_side_and_cap() {
        let cap = Capsule::new(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), 0.5).unwrap();
        let side = ray_cast_capsule(&cap, &ray(Vec2::new(0.3, 2.0), Vec2::new(0.0, -2.0))).unwrap();
        assert!((side.fraction - 0.75).abs() < 1e-6 && near(side.normal, Vec2::Y, 1e-6));
        let end = ray_cast_capsule(&cap, &ray(Vec2::new(3.0, 0.0), Vec2::new(-2.0, 0.0))).unwrap();
        assert!((end.fraction - 0.75).abs() < 1e-6 && near(end.normal, Vec2::X, 1e-6), "{end:?}");
        let under = ray_cast_capsule(&cap, &ray(Vec2::new(0.3, -2.0), Vec2::new(0.0, 2.0))).unwrap();
        assert!(near(under.normal, Vec2::NEG_Y, 1e-6));
        assert!(ray_cast_capsule(&cap, &ray(Vec2::new(1.4, 0.4), Vec2::new(0.0, 1.0))).is_none());
    }

    #[test]
    fn segments_two_and_one_sided() {
        let seg = Segment::new(Vec2::new(0.0, 0.0), Vec2::new(2.0, 0.0)).unwrap();
        let down = ray_cast_segment(&seg, &ray(Vec2::new(1.0, 1.0), Vec2::new(0.0, -2.0))).unwrap();
        assert!((down.fraction - 0.5).abs() < 1e-6 && near(down.normal, Vec2::Y, 1e-6));
        let up = ray_cast_segment(&seg, &ray(Vec2::new(1.0, -1.0), Vec2::new(0.0, 2.0))).unwrap();
        assert!(near(up.normal, Vec2::NEG_Y, 1e-6));
        assert!(ray_cast_segment(&seg, &ray(Vec2::new(-1.0, 0.0), Vec2::new(4.0, 0.0))).is_none());
        // The chain's colliding side is the right of point1 → point2: below.
        let chain = ChainSegment::new(Vec2::new(-1.0, 0.0), seg.point1(), seg.point2(), Vec2::new(3.0, 0.0)).unwrap();
        let hit = ray_cast_chain_segment(&chain, &ray(Vec2::new(1.0, -1.0), Vec2::new(0.0, 2.0))).unwrap();
        assert!(near(hit.normal, Vec2::NEG_Y, 1e-6));
        assert!(ray_cast_chain_segment(&chain, &ray(Vec2::new(1.0, 1.0), Vec2::new(0.0, -2.0))).is_none());
    }

    #[test]
    fn hostile_input_misses() {
        let c = Circle::new(Vec2::ZERO, 1.0).unwrap();
        for (o, t, m) in [
            (Vec2::new(f32::NAN, 0.0), Vec2::X, 1.0),
            (Vec2::new(-5.0, 0.0), Vec2::new(f32::INFINITY, 0.0), 1.0),
            (Vec2::new(-5.0, 0.0), Vec2::X * 10.0, f32::NAN),
            (Vec2::new(-5.0, 0.0), Vec2::X * 10.0, -1.0),
            (Vec2::new(-1e30, 0.0), Vec2::X * 3e30, 1.0),
        ] {
            assert!(ray_cast_circle(&c, &RayCastInput { origin: o, translation: t, max_fraction: m }).is_none());
        }
        let huge = ray_cast_circle(&c, &ray(Vec2::new(-5.0, 0.0), Vec2::new(3e38, 3e38))).is_none();
        assert!(huge);
        let out = ray_cast_circle(&c, &ray(Vec2::new(-5.0, 0.0), Vec2::new(3e38, 0.0))).unwrap();
        assert!(out.fraction > 0.0 && out.fraction < 1e-37 && near(out.normal, Vec2::NEG_X, 1e-6));
    }
}
