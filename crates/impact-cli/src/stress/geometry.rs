//! The geometry of the checks, in f64: where a point moving relative to a turning thin body
//! crosses its mid-line, when two points moving along a line swap their order, the shortest
//! way round a disc, and whether two segments cross like an X. Units: meters, radians.

use glam::DVec2;
use impact2d::Vec2;

use super::observe::Pose;

/// Where a point crossed a thin body's mid-line, in the thin body's frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Crossing {
    /// When, as a fraction of the motion.
    pub t: f64,
    /// Where, along the mid-line from its first end (m).
    pub along: f64,
    /// The mid-line's length (m).
    pub length: f64,
    /// The signed distances of the point from the mid-line at the start and at the end (m).
    pub sides: (f64, f64),
    /// The shortest way from the start to the end round an end of the mid-line (m).
    pub detour: f64,
}

/// Whether the point moving from `path.0` to `path.1` crosses the mid-line `line` (its ends
/// relative to the thin body's center of mass, in the body's axes) of a thin body moving from
/// `thin.0` to `thin.1`, at a place at least `margin` inside both ends of the mid-line. Both
/// move linearly, the thin body turning at a steady rate, as the world's sweeps do.
pub fn crossing(line: (DVec2, DVec2), thin: (&Pose, &Pose), path: (DVec2, DVec2), margin: f64) -> Option<Crossing> {
    let ((from, to), (thin0, thin1)) = (line, thin);
    let length = (to - from).length();
    if length <= 2.0 * margin {
        return None;
    }
    let (u, turn) = ((to - from) / length, thin1.angle - thin0.angle);
    let (d0, d1) = (path.0 - thin0.center, path.1 - thin1.center);
    let local = |t: f64| rotate(d0 + (d1 - d0) * t, -(thin0.angle + turn * t)) - from;
    let side = |t: f64| local(t).perp_dot(u);
    let sides = (side(0.0), side(1.0));
    if (sides.0 < 0.0) == (sides.1 < 0.0) {
        return None;
    }
    let (q0, q1, end) = (local(0.0), local(1.0), to - from);
    let detour = (q0.length() + q1.length()).min((q0 - end).length() + (q1 - end).length());
    // Without a turn the side is linear in t; a turning frame makes it a sum of sinusoids,
    // so the motion is cut into pieces of at most 1/8 rad, each with one root at most.
    let pieces = if turn == 0.0 { 1 } else { (turn.abs() * 8.0).ceil().clamp(1.0, 256.0) as usize };
    (0..pieces).find_map(|k| {
        let t = root(&side, k as f64 / pieces as f64, (k + 1) as f64 / pieces as f64)?;
        let along = local(t).dot(u);
        (margin..=length - margin).contains(&along).then_some(Crossing { t, along, length, sides, detour })
    })
}

/// The root of `f` in [t0, t1] when its sign changes there (bisection to 1e-12).
fn root(f: &impl Fn(f64) -> f64, mut t0: f64, mut t1: f64) -> Option<f64> {
    let below = f(t0) < 0.0;
    if below == (f(t1) < 0.0) {
        return None;
    }
    while t1 - t0 > 1e-12 {
        let mid = 0.5 * (t0 + t1);
        if (f(mid) < 0.0) == below { t0 = mid } else { t1 = mid }
    }
    Some(0.5 * (t0 + t1))
}

/// When the order along the unit vector `u` of two points moving linearly (`a` and `b`, from
/// their start to their end) flips: the fraction of the motion, and their distance across the
/// line then (m, signed).
pub fn order_flip(u: DVec2, a: (DVec2, DVec2), b: (DVec2, DVec2)) -> Option<(f64, f64)> {
    let (r0, r1) = (b.0 - a.0, b.1 - a.1);
    let (s0, s1) = (r0.dot(u), r1.dot(u));
    if (s0 < 0.0) == (s1 < 0.0) {
        return None;
    }
    let t = s0 / (s0 - s1);
    Some((t, (r0 + (r1 - r0) * t).dot(u.perp())))
}

/// The shortest path from `q0` to `q1` that keeps out of the disc of `radius` about the
/// origin (m): the chord when it misses the disc (or an end is in it), else the two tangents
/// and the arc between them.
pub fn round_disc(q0: DVec2, q1: DVec2, radius: f64) -> f64 {
    let chord = (q1 - q0).length();
    let (d0, d1) = (q0.length(), q1.length());
    if d0 <= radius || d1 <= radius || distance_to_segment(DVec2::ZERO, q0, q1) >= radius {
        return chord;
    }
    let arc = q0.angle_to(q1).abs() - (radius / d0).acos() - (radius / d1).acos();
    (d0 * d0 - radius * radius).sqrt() + (d1 * d1 - radius * radius).sqrt() + radius * arc.max(0.0)
}

/// When the ends of segment `a` are on both sides of the line through segment `b`: how far
/// the nearer end is past the faces of a body `half_thickness` thick about that line (m).
pub fn straddle(a: (DVec2, DVec2), b: (DVec2, DVec2), half_thickness: f64) -> Option<f64> {
    let n = (b.1 - b.0).try_normalize()?.perp();
    let (d0, d1) = ((a.0 - b.0).dot(n), (a.1 - b.0).dot(n));
    (d0 * d1 < 0.0).then(|| d0.abs().min(d1.abs()) - half_thickness)
}

/// `v` turned by `angle` (rad).
pub fn rotate(v: DVec2, angle: f64) -> DVec2 {
    DVec2::from_angle(angle).rotate(v)
}

/// The distance from `p` to the segment from `a` to `b` (m).
pub fn distance_to_segment(p: DVec2, a: DVec2, b: DVec2) -> f64 {
    let ab = b - a;
    let t = if ab.length_squared() > 0.0 { ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0) } else { 0.0 };
    (p - (a + ab * t)).length()
}

/// An angle brought into [-π, π) (rad).
pub fn wrap(a: f64) -> f64 {
    use std::f64::consts::{PI, TAU};
    (a + PI).rem_euclid(TAU) - PI
}

/// An f32 vector in f64.
pub fn dvec(v: Vec2) -> DVec2 {
    DVec2::new(f64::from(v.x), f64::from(v.y))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A point crossing a still plate square in its middle, or beyond its end.
    #[test]
    fn crossings_of_a_still_plate() {
        let plate = Pose::new(DVec2::ZERO, 0.0);
        let line = (DVec2::new(-1.0, 0.0), DVec2::new(1.0, 0.0));
        let c = crossing(line, (&plate, &plate), (DVec2::new(0.5, 1.0), DVec2::new(0.5, -3.0)), 0.01).unwrap();
        assert!((c.t - 0.25).abs() < 1e-9 && (c.along - 1.5).abs() < 1e-9 && c.length == 2.0, "{c:?}");
        assert_eq!(c.sides, (-1.0, 3.0));
        let round = (0.5f64.powi(2) + 1.0).sqrt() + (0.5f64.powi(2) + 9.0).sqrt();
        assert!((c.detour - round).abs() < 1e-9, "{c:?}");
        assert!(crossing(line, (&plate, &plate), (DVec2::new(1.5, 1.0), DVec2::new(1.5, -1.0)), 0.01).is_none());
        assert!(crossing(line, (&plate, &plate), (DVec2::new(0.0, 1.0), DVec2::new(0.0, 0.5)), 0.01).is_none());
    }

    /// A point just beyond the tip of a plate turning by a radian in a step: the chord in the
    /// plate's frame would cut inside the tip, the turning frame does not.
    #[test]
    fn a_turning_plate_passes_a_point_beyond_its_tip() {
        let line = (DVec2::new(-1.0, 0.0), DVec2::new(1.0, 0.0));
        let (start, end) = (Pose::new(DVec2::ZERO, -0.5), Pose::new(DVec2::ZERO, 0.5));
        let point = DVec2::new(1.05, 0.0);
        assert!(crossing(line, (&start, &end), (point, point), 0.01).is_none());
        // Within the span, the same turn sweeps the point.
        let point = DVec2::new(0.8, 0.0);
        let c = crossing(line, (&start, &end), (point, point), 0.01).unwrap();
        assert!((c.t - 0.5).abs() < 1e-9 && (c.along - 1.8).abs() < 1e-9, "{c:?}");
    }

    #[test]
    fn orders_discs_and_crosses() {
        let (t, across) =
            order_flip(DVec2::X, (DVec2::ZERO, DVec2::new(4.0, 0.0)), (DVec2::new(2.0, 0.1), DVec2::new(0.0, 0.1)))
                .unwrap();
        assert!((t - 1.0 / 3.0).abs() < 1e-12 && (across - 0.1).abs() < 1e-12);
        assert!(order_flip(DVec2::X, (DVec2::ZERO, DVec2::X), (DVec2::new(2.0, 0.0), DVec2::new(3.0, 0.0))).is_none());
        // Straight through a disc of radius 1 from 2 m on either side: tangents and a half arc.
        let way = round_disc(DVec2::new(-2.0, 0.0), DVec2::new(2.0, 0.0), 1.0);
        assert!((way - (2.0 * 3f64.sqrt() + std::f64::consts::PI / 3.0)).abs() < 1e-9, "{way}");
        assert_eq!(round_disc(DVec2::new(-2.0, 2.0), DVec2::new(2.0, 2.0), 1.0), 4.0);
        let x = (DVec2::new(-1.0, -1.0), DVec2::new(1.0, 1.0));
        let plus = (DVec2::new(-1.0, 1.0), DVec2::new(1.0, -1.0));
        assert!((straddle(x, plus, 0.1).unwrap() - (2f64.sqrt() - 0.1)).abs() < 1e-12);
        assert!(straddle(x, (DVec2::new(-1.0, 3.0), DVec2::new(1.0, 1.0)), 0.1).is_none());
        assert!((wrap(7.0) - (7.0 - std::f64::consts::TAU)).abs() < 1e-12);
    }
}
