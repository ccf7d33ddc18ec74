//! A proxy's points in lanes of four (x, y and z apart), for support searches that take four
//! points per step.
//!
//! GJK, the separation functions and EPA spend most of their time looking for the point of
//! a proxy farthest along a direction. One point at a time that is about 15 instructions per
//! point (a box's 8 corners: 120); four at a time, in SIMD lanes where glam has them, it is
//! a third of that. The answer is the same index, bit for bit: each lane computes the dot
//! product in the same order as `Vec3::dot`, keeps the first of equals within the lane, and
//! the lanes are merged by value, then by the smaller index.

use glam::Vec4;

use crate::math::Vec3;

/// Four points: their x, y and z coordinates (meters, body coordinates).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Lanes {
    x: Vec4,
    y: Vec4,
    z: Vec4,
}

/// A set of points in lanes of four, the last lane padded with copies of the first point
/// (which never win: the first point comes before them and wins ties).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PointLanes {
    lanes: Vec<Lanes>,
}

impl PointLanes {
    /// The lanes of `points` (at least one).
    pub fn new(points: &[Vec3]) -> PointLanes {
        let pad = points[0];
        let lanes = points
            .chunks(4)
            .map(|chunk| {
                let at = |k: usize| chunk.get(k).copied().unwrap_or(pad);
                let (p0, p1, p2, p3) = (at(0), at(1), at(2), at(3));
                Lanes {
                    x: Vec4::new(p0.x, p1.x, p2.x, p3.x),
                    y: Vec4::new(p0.y, p1.y, p2.y, p3.y),
                    z: Vec4::new(p0.z, p1.z, p2.z, p3.z),
                }
            })
            .collect();
        PointLanes { lanes }
    }

    /// The index of the point farthest along `direction` (the first of equals; 0 when no dot
    /// product beats −∞, as for a direction with a NaN), the same as a scan in order.
    pub fn support(&self, direction: Vec3) -> usize {
        let (dx, dy, dz) = (Vec4::splat(direction.x), Vec4::splat(direction.y), Vec4::splat(direction.z));
        let mut best = Vec4::NEG_INFINITY;
        // Indices as f32: exact far beyond MAX_HULL_VERTICES.
        let mut index = Vec4::ZERO;
        let mut lane_index = Vec4::new(0.0, 1.0, 2.0, 3.0);
        for l in &self.lanes {
            let dot = l.x * dx + l.y * dy + l.z * dz;
            let better = dot.cmpgt(best);
            best = Vec4::select(better, dot, best);
            index = Vec4::select(better, lane_index, index);
            lane_index += Vec4::splat(4.0);
        }
        // The largest value, then the smallest index among the lanes that hold it (no lane
        // holds a NaN: a NaN dot never wins; all −∞ leaves every lane at index 0).
        let top = best.max_element();
        let first = Vec4::select(best.cmpeq(Vec4::splat(top)), index, Vec4::splat(f32::MAX)).min_element();
        first as u32 as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The scan in order that the lanes stand in for.
    fn scan(points: &[Vec3], d: Vec3) -> usize {
        let mut best = (0, f32::NEG_INFINITY);
        for (i, p) in points.iter().enumerate() {
            let dot = p.dot(d);
            if dot > best.1 {
                best = (i, dot);
            }
        }
        best.0
    }

    #[test]
    fn lanes_find_the_same_point_as_a_scan() {
        let mut rng = ChaCha8Rng::seed_from_u64(0x1a9e5);
        let v = |rng: &mut ChaCha8Rng, s: f32| {
            Vec3::new(rng.random_range(-s..s), rng.random_range(-s..s), rng.random_range(-s..s))
        };
        for case in 0..20_000 {
            let n = 1 + case % 64;
            let far = if case % 3 == 0 { v(&mut rng, 5000.0) } else { Vec3::ZERO };
            let mut points: Vec<Vec3> = (0..n).map(|_| far + v(&mut rng, 2.0)).collect();
            // Ties: repeated points, and a box's corners (equal dots along the axes).
            if case % 5 == 0 && n > 3 {
                points[n - 1] = points[1];
                points[n / 2] = points[0];
            }
            let lanes = PointLanes::new(&points);
            let d = match case % 4 {
                0 => Vec3::X,
                1 => Vec3::new(0.0, -1.0, 0.0),
                _ => v(&mut rng, 1.0),
            };
            assert_eq!(lanes.support(d), scan(&points, d), "case {case}: {points:?} along {d:?}");
        }
    }

    #[test]
    fn ties_zero_and_nan_directions_give_the_first_point() {
        let corners: Vec<Vec3> = (0..8)
            .map(|i| Vec3::new((i & 1) as f32 - 0.5, ((i >> 1) & 1) as f32 - 0.5, ((i >> 2) & 1) as f32 - 0.5))
            .collect();
        let lanes = PointLanes::new(&corners);
        assert_eq!(lanes.support(Vec3::X), scan(&corners, Vec3::X));
        assert_eq!(lanes.support(Vec3::X), 1);
        assert_eq!(lanes.support(Vec3::ZERO), 0);
        assert_eq!(lanes.support(Vec3::new(f32::NAN, 1.0, 0.0)), 0);
        assert_eq!(
            lanes.support(Vec3::new(f32::INFINITY, 0.0, 0.0)),
            scan(&corners, Vec3::new(f32::INFINITY, 0.0, 0.0))
        );
        let one = PointLanes::new(&[Vec3::new(5000.0, 1.0, -2.0)]);
        assert_eq!(one.support(Vec3::Y), 0);
    }
}
