//! One-sided chain segments with ghost vertices, and chains built from point lists.

use super::error::{GeometryError, check_point};
use super::segment::Segment;
use crate::math::Vec2;
use crate::settings::LINEAR_SLOP;

/// One segment of a chain: collides only on its right side (walking from `point1` to
/// `point2`), and knows its neighbors' far ends (`ghost1` before `point1`, `ghost2` after
/// `point2`) so that a shape sliding across the joint between two segments does not catch
/// on the shared vertex (the ghost-collision problem).
///
/// A closed chain listed clockwise holds bodies inside it. Coordinates are meters, body
/// coordinates. A chain segment has no mass.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ChainSegment {
    ghost1: Vec2,
    segment: Segment,
    ghost2: Vec2,
}

impl ChainSegment {
    /// A chain segment from `point1` to `point2` between the ghost vertices.
    ///
    /// Errors: [`GeometryError::NonFinite`] for NaN or infinite input,
    /// [`GeometryError::TooLarge`] beyond [`crate::settings::MAX_COORDINATE`],
    /// [`GeometryError::DegenerateSegment`] when `point1` and `point2` are closer than
    /// the linear slop.
    pub fn new(ghost1: Vec2, point1: Vec2, point2: Vec2, ghost2: Vec2) -> Result<ChainSegment, GeometryError> {
        check_point(ghost1, "chain ghost1")?;
        check_point(ghost2, "chain ghost2")?;
        let segment = Segment::new(point1, point2)?;
        Ok(ChainSegment { ghost1, segment, ghost2 })
    }

    /// The vertex before `point1` (meters).
    #[inline]
    pub fn ghost1(&self) -> Vec2 {
        self.ghost1
    }

    /// The segment itself.
    #[inline]
    pub fn segment(&self) -> &Segment {
        &self.segment
    }

    /// The vertex after `point2` (meters).
    #[inline]
    pub fn ghost2(&self) -> Vec2 {
        self.ghost2
    }

    /// The unit normal of the colliding side: the right perpendicular of the direction.
    #[inline]
    pub fn normal(&self) -> Vec2 {
        let d = self.segment.point2() - self.segment.point1();
        Vec2::new(d.y, -d.x).normalize()
    }
}

/// Splits the polyline `points` into chain segments, one per pair of consecutive points
/// (and from the last back to the first when `is_loop`).
///
/// Each segment's ghost vertices are its neighbors' far ends. An open chain's first and
/// last segments get ghosts that continue them straight, so its ends act as if the chain
/// went on. Coordinates are meters.
///
/// Errors: [`GeometryError::ChainTooShort`] with fewer than 2 points (3 for a loop),
/// [`GeometryError::NonFinite`], [`GeometryError::TooLarge`], and
/// [`GeometryError::DegenerateSegment`] when two
/// consecutive points are closer than the linear slop.
pub fn make_chain(points: &[Vec2], is_loop: bool) -> Result<Vec<ChainSegment>, GeometryError> {
    let min = if is_loop { 3 } else { 2 };
    let n = points.len();
    if n < min {
        return Err(GeometryError::ChainTooShort { count: n, min });
    }
    for &p in points {
        check_point(p, "chain point")?;
    }
    for i in 0..(if is_loop { n } else { n - 1 }) {
        let distance = points[i].distance(points[(i + 1) % n]);
        if distance < LINEAR_SLOP {
            return Err(GeometryError::DegenerateSegment { what: "chain", distance });
        }
    }
    let at = |i: isize| points[i.rem_euclid(n as isize) as usize];
    let segment_count = if is_loop { n } else { n - 1 };
    (0..segment_count as isize)
        .map(|i| {
            let (p1, p2) = (at(i), at(i + 1));
            let ghost1 = if is_loop || i > 0 { at(i - 1) } else { 2.0 * p1 - p2 };
            let ghost2 = if is_loop || i + 2 < n as isize { at(i + 2) } else { 2.0 * p2 - p1 };
            ChainSegment::new(ghost1, p1, p2, ghost2)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loop_links_ghosts_to_neighbors() {
        let square = [Vec2::new(0.0, 0.0), Vec2::new(0.0, 1.0), Vec2::new(1.0, 1.0), Vec2::new(1.0, 0.0)];
        let chain = make_chain(&square, true).unwrap();
        assert_eq!(chain.len(), 4);
        assert_eq!(chain[0].ghost1(), square[3]);
        assert_eq!(chain[0].ghost2(), square[2]);
        assert_eq!(chain[3].segment().point2(), square[0]);
        // Clockwise loop: the right side of each segment faces the inside.
        let inward = chain[0].normal();
        assert!((inward - Vec2::new(1.0, 0.0)).length() < 1e-6);
    }

    #[test]
    fn open_chain_extends_its_ends() {
        let points = [Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.0), Vec2::new(2.0, 0.5)];
        let chain = make_chain(&points, false).unwrap();
        assert_eq!(chain.len(), 2);
        assert_eq!(chain[0].ghost1(), Vec2::new(-1.0, 0.0));
        assert_eq!(chain[1].ghost2(), Vec2::new(3.0, 1.0));
    }

    #[test]
    fn bad_chains_are_errors() {
        assert!(matches!(make_chain(&[Vec2::ZERO], false), Err(GeometryError::ChainTooShort { .. })));
        assert!(matches!(make_chain(&[Vec2::ZERO, Vec2::X, Vec2::Y], true).map(|c| c.len()), Ok(3)));
        assert!(matches!(
            make_chain(&[Vec2::ZERO, Vec2::new(0.001, 0.0)], false),
            Err(GeometryError::DegenerateSegment { .. })
        ));
        assert!(matches!(
            make_chain(&[Vec2::ZERO, Vec2::new(f32::NAN, 0.0)], false),
            Err(GeometryError::NonFinite { .. })
        ));
    }
}
