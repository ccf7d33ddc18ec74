//! A pair of shapes drawn from bytes, with its scale tier, placed at a chosen gap.
//!
//! Sizes and places follow the tier: ordinary cases hold shapes of 1 mm to 100 m within
//! 10 km of the origin, large ones shapes up to 1e8 m anywhere within
//! `settings::MAX_COORDINATE`. Gaps are drawn where queries are hard: overlapping, touching to
//! within a micrometer, a few millimeters apart (the speculative band), and far.

use crate::reference::{D2, Pose, RefShape, d2, signed_distance};
use crate::source::Source;
use crate::tally::Tier;
use impact2d::settings::MAX_COORDINATE;
use impact2d::{
    Capsule, Circle, Polygon, Segment, Shape, ShapeProxy, Transform, Vec2, make_offset_box, make_rounded_box,
};

/// Two shapes and their poses.
pub struct Pair {
    /// The scale of the case.
    pub tier: Tier,
    /// Shape A in its body frame.
    pub a: Shape,
    /// Shape B in its body frame.
    pub b: Shape,
    /// A's proxy (its core points and radius).
    pub proxy_a: ShapeProxy,
    /// B's proxy.
    pub proxy_b: ShapeProxy,
    /// A's pose.
    pub xf_a: Transform,
    /// B's pose.
    pub xf_b: Transform,
}

impl Pair {
    /// Draws a pair: the tier first, then the shapes and their placement.
    pub fn draw(src: &mut Source) -> Pair {
        let tier = match src.below(8) {
            0..=4 => Tier::Ordinary,
            5 | 6 => Tier::Large,
            _ => Tier::Hostile,
        };
        let (max_size, max_offset) = match tier {
            Tier::Large => (1.0e8, 0.9 * MAX_COORDINATE as f64),
            _ => (100.0, 1.0e4),
        };
        let a = shape(src, max_size);
        let b = shape(src, max_size);
        let (proxy_a, proxy_b) = (ShapeProxy::from_shape(&a), ShapeProxy::from_shape(&b));
        // A within half the tier's positions, so that B lands within them too.
        let offset = if src.chance(1, 4) { 0.0 } else { src.log_uniform(1.0, 0.5 * max_offset) };
        let center = src.direction();
        let reach_a = extent(&proxy_a);
        let pos_a = d2(center.0, center.1) * offset;
        let xf_a = pose(pos_a, src.uniform(-std::f64::consts::PI, std::f64::consts::PI));
        let angle_b = src.uniform(-std::f64::consts::PI, std::f64::consts::PI);
        let dir = src.direction();
        let dir = d2(dir.0, dir.1);
        let reach = reach_a + extent(&proxy_b);
        let gap = match src.below(6) {
            0 => -src.uniform(0.0, 1.0) * reach,
            1 => src.uniform(-1.0e-6, 1.0e-6),
            2 | 3 => src.uniform(0.0, 0.05),
            4 => src.log_uniform(1.0e-3, 10.0),
            _ => src.log_uniform(1.0, max_offset.min(1.0e3 * max_size)),
        };
        let pos_b = place_at_gap((&a, xf_a), &b, angle_b, pos_a, dir, gap, reach);
        let limit = max_offset.min(MAX_COORDINATE as f64 - 2.0 * max_size);
        let pos_b = d2(pos_b.x.clamp(-limit, limit), pos_b.y.clamp(-limit, limit));
        let xf_b = pose(pos_b, angle_b);
        Pair { tier, a, b, proxy_a, proxy_b, xf_a, xf_b }
    }

    /// The f32 spacing (meters) of the largest coordinate a query on this pair meets: both
    /// positions, their difference and both shapes' extents (the scale of its round-off).
    pub fn spacing(&self) -> f64 {
        spacing(&self.proxy_a, self.xf_a, &self.proxy_b, self.xf_b)
    }

    /// The reference shapes.
    pub fn reference(&self) -> (RefShape, RefShape) {
        (RefShape::from_proxy(&self.proxy_a), RefShape::from_proxy(&self.proxy_b))
    }
}

/// The farthest a proxy's surface reaches from its body origin (meters).
pub fn extent(p: &ShapeProxy) -> f64 {
    p.points().iter().fold(0.0f64, |m, v| m.max(D2::from_f32(*v).len())) + p.radius() as f64
}

/// See [`Pair::spacing`].
pub fn spacing(pa: &ShapeProxy, xa: Transform, pb: &ShapeProxy, xb: Transform) -> f64 {
    let (a, b) = (D2::from_f32(xa.p), D2::from_f32(xb.p));
    f32::EPSILON as f64 * (a.len() + b.len() + a.dist(b) + extent(pa) + extent(pb))
}

/// `push`, shortened if needed so that `start + push` (and `push` itself) stay within
/// 0.99 × `settings::MAX_COORDINATE` in each coordinate: the queries refuse motions beyond
/// the coordinate limit, and a case must be valid to be checked.
pub fn keep_within(start: Vec2, push: D2) -> D2 {
    let limit = 0.99 * MAX_COORDINATE as f64;
    let s = D2::from_f32(start);
    let mut scale: f64 = 1.0;
    for (from, by) in [(s.x, push.x), (s.y, push.y)] {
        let room = if by > 0.0 { limit - from } else { limit + from };
        if by.abs() > 0.0 {
            scale = scale.min((room / by.abs()).max(0.0)).min(limit / by.abs());
        }
    }
    push * scale
}

/// A pose at `p` turned by `angle` (radians), as the library makes it.
pub fn pose(p: D2, angle: f64) -> Transform {
    Transform::new(p.to_f32(), angle as f32)
}

/// A shape of any kind whose extent is drawn up to `max_size` (meters); a draw that the
/// constructors refuse (too thin, too short) becomes a circle.
pub fn shape(src: &mut Source, max_size: f64) -> Shape {
    let size = src.log_uniform(1.0e-3, max_size) as f32;
    let aspect = src.log_uniform(1.0e-3, 1.0) as f32;
    let offset = if src.chance(1, 3) {
        Vec2::new(src.uniform(-1.0, 1.0) as f32, src.uniform(-1.0, 1.0) as f32) * size
    } else {
        Vec2::ZERO
    };
    let (left, right) = (offset - Vec2::new(size, 0.0), offset + Vec2::new(size, 0.0));
    let made = match src.below(7) {
        0 => Circle::new(offset, size).map(Shape::Circle),
        1 => Capsule::new(left, right, size * aspect).map(Shape::Capsule),
        2 => Segment::new(left, right).map(Shape::Segment),
        3 => make_offset_box(size, size * aspect, offset, src.uniform(-3.2, 3.2) as f32).map(Shape::Polygon),
        4 => make_rounded_box(size, size * aspect, size * aspect * src.unit() as f32).map(Shape::Polygon),
        _ => {
            let count = 3 + src.below(6);
            let points: Vec<Vec2> = (0..count)
                .map(|_| offset + Vec2::new(src.uniform(-1.0, 1.0) as f32, src.uniform(-1.0, 1.0) as f32) * size)
                .collect();
            let radius = if src.chance(1, 3) { size * aspect * src.unit() as f32 } else { 0.0 };
            Polygon::new(&points, radius).map(Shape::Polygon)
        }
    };
    made.unwrap_or_else(|_| circle_or_unit(offset, size))
}

/// A circle, or a unit circle at the origin where the constructor refuses the numbers.
pub fn circle_or_unit(center: Vec2, radius: f32) -> Shape {
    let unit = || match Circle::new(Vec2::ZERO, 1.0) {
        Ok(c) => c,
        Err(e) => unreachable!("a unit circle is valid: {e}"),
    };
    Shape::Circle(Circle::new(center, radius).unwrap_or_else(|_| unit()))
}

/// Where B (turned by `angle_b`) sits along `dir` from `from` so that the exact signed
/// distance to A is `gap` (bisection on the f64 reference; the distance along a line of
/// translation is continuous). `reach` bounds both shapes' extents.
fn place_at_gap(
    (a, xf_a): (&Shape, Transform),
    b: &Shape,
    angle_b: f64,
    from: D2,
    dir: D2,
    gap: f64,
    reach: f64,
) -> D2 {
    let ra = RefShape::from_proxy(&ShapeProxy::from_shape(a));
    let rb = RefShape::from_proxy(&ShapeProxy::from_shape(b));
    let pa = Pose::from_f32(xf_a);
    let sd = |s: f64| {
        let pb = Pose::from_f32(pose(from + dir * s, angle_b));
        signed_distance(&ra, &pa, &rb, &pb).sd
    };
    let (mut lo, mut hi) = (0.0, 2.0 * reach + gap.max(0.0));
    if sd(lo) >= gap {
        return from;
    }
    for _ in 0..80 {
        let mid = 0.5 * (lo + hi);
        if sd(mid) < gap {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    from + dir * hi
}
