//! The GJK simplex: up to three points of the Minkowski difference B − A, each with the
//! proxy points that made it, and the closest point of their hull to the origin.
//!
//! Every area and projection is computed relative to a simplex vertex (for example
//! `cross(w1, w2 - w1)` rather than `cross(w1, w2)`), so the round-off of a test scales with
//! the length of the edge it is about. That keeps short edges exact: the error of a region
//! test on a 1 mm edge is a thousand times smaller than on a 1 m edge, where the classic
//! formulas make both as large as the coordinates allow.

use super::proxy::ShapeProxy;
use crate::math::Vec2;

/// One simplex vertex: `w = b - a` with `a` from proxy A and `b` from proxy B.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SimplexVertex {
    pub a: Vec2,
    pub b: Vec2,
    pub w: Vec2,
    pub index_a: u8,
    pub index_b: u8,
}

impl SimplexVertex {
    pub fn new(proxy_a: &ShapeProxy, index_a: usize, proxy_b: &ShapeProxy, index_b: usize) -> SimplexVertex {
        let a = proxy_a.points()[index_a];
        let b = proxy_b.points()[index_b];
        SimplexVertex { a, b, w: b - a, index_a: index_a as u8, index_b: index_b as u8 }
    }
}

/// A simplex and the barycentric weights of its closest point to the origin.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Simplex {
    pub v: [SimplexVertex; 3],
    pub weight: [f32; 3],
    pub count: usize,
}

impl Simplex {
    /// Reduces the simplex to the smallest sub-simplex whose hull holds the point closest
    /// to the origin, and returns that point (`p_b - p_a`). With three vertices left, the
    /// origin is inside the triangle and the result is zero.
    pub fn solve(&mut self) -> Vec2 {
        match self.count {
            1 => {
                self.weight[0] = 1.0;
                self.v[0].w
            }
            2 => self.solve2(),
            _ => self.solve3(),
        }
    }

    fn keep(&mut self, i: usize) -> Vec2 {
        self.v[0] = self.v[i];
        self.weight[0] = 1.0;
        self.count = 1;
        self.v[0].w
    }

    fn keep_edge(&mut self, i: usize, j: usize) -> Vec2 {
        let (vi, vj) = (self.v[i], self.v[j]);
        self.v[0] = vi;
        self.v[1] = vj;
        self.count = 2;
        self.solve2()
    }

    /// The segment w1–w2: a vertex region or the edge interior.
    fn solve2(&mut self) -> Vec2 {
        let (w1, w2) = (self.v[0].w, self.v[1].w);
        let e = w2 - w1;
        // Projections of the origin onto the edge from either end (∝ the opposite weight).
        let toward_2 = -w1.dot(e);
        if toward_2 <= 0.0 {
            return self.keep(0);
        }
        let toward_1 = w2.dot(e);
        if toward_1 <= 0.0 {
            return self.keep(1);
        }
        let sum = toward_1 + toward_2;
        self.weight[0] = toward_1 / sum;
        self.weight[1] = toward_2 / sum;
        self.count = 2;
        // The closest point, as the perpendicular from the origin to the edge's line: its
        // direction is exactly normal to the edge and its error does not grow as e shrinks.
        let n = e.perp();
        n * (n.dot(w1) / e.length_squared())
    }

    /// The triangle w1 w2 w3: one of its vertex or edge regions, or its interior.
    fn solve3(&mut self) -> Vec2 {
        let (w1, w2, w3) = (self.v[0].w, self.v[1].w, self.v[2].w);
        let (e12, e13, e23) = (w2 - w1, w3 - w1, w3 - w2);

        // Edge projections (each ∝ a barycentric weight of the edge's closest point).
        let (e12_1, e12_2) = (w2.dot(e12), -w1.dot(e12));
        let (e13_1, e13_3) = (w3.dot(e13), -w1.dot(e13));
        let (e23_2, e23_3) = (w3.dot(e23), -w2.dot(e23));

        // Signed areas of the sub-triangles with the origin, times the orientation, each
        // computed from a vertex and an edge vector (∝ the barycentric weight of the
        // opposite vertex).
        let n = e12.perp_dot(e13);
        let area_1 = n * w2.perp_dot(e23);
        let area_2 = n * w3.perp_dot(-e13);
        let area_3 = n * w1.perp_dot(e12);

        if e12_2 <= 0.0 && e13_3 <= 0.0 {
            return self.keep(0);
        }
        if e12_1 > 0.0 && e12_2 > 0.0 && area_3 <= 0.0 {
            return self.keep_edge(0, 1);
        }
        if e13_1 > 0.0 && e13_3 > 0.0 && area_2 <= 0.0 {
            return self.keep_edge(0, 2);
        }
        if e12_1 <= 0.0 && e23_3 <= 0.0 {
            return self.keep(1);
        }
        if e13_1 <= 0.0 && e23_2 <= 0.0 {
            return self.keep(2);
        }
        if e23_2 > 0.0 && e23_3 > 0.0 && area_1 <= 0.0 {
            return self.keep_edge(1, 2);
        }
        let sum = area_1 + area_2 + area_3;
        self.weight = [area_1 / sum, area_2 / sum, area_3 / sum];
        self.count = 3;
        Vec2::ZERO
    }

    /// The closest points on the two proxies' cores: the weighted sums of the vertices'
    /// proxy points.
    pub fn witness_points(&self) -> (Vec2, Vec2) {
        let mut a = Vec2::ZERO;
        let mut b = Vec2::ZERO;
        for i in 0..self.count {
            a += self.weight[i] * self.v[i].a;
            b += self.weight[i] * self.v[i].b;
        }
        (a, b)
    }

    /// True when the simplex already holds the vertex made of these proxy points.
    pub fn contains(&self, index_a: usize, index_b: usize) -> bool {
        self.v[..self.count].iter().any(|v| v.index_a as usize == index_a && v.index_b as usize == index_b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn simplex(ws: &[Vec2]) -> Simplex {
        let mut s = Simplex::default();
        for (i, &w) in ws.iter().enumerate() {
            s.v[i] = SimplexVertex { a: Vec2::ZERO, b: w, w, index_a: 0, index_b: i as u8 };
        }
        s.count = ws.len();
        s
    }

    #[test]
    fn segment_interior_and_ends() {
        let mut s = simplex(&[Vec2::new(-1.0, 2.0), Vec2::new(3.0, 2.0)]);
        assert_eq!(s.solve(), Vec2::new(0.0, 2.0));
        assert_eq!(s.count, 2);
        let mut s = simplex(&[Vec2::new(1.0, 2.0), Vec2::new(3.0, 2.0)]);
        assert_eq!(s.solve(), Vec2::new(1.0, 2.0));
        assert_eq!((s.count, s.v[0].index_b), (1, 0));
    }

    #[test]
    fn triangle_regions() {
        // Origin inside.
        let mut s = simplex(&[Vec2::new(-1.0, -1.0), Vec2::new(1.0, -1.0), Vec2::new(0.0, 1.0)]);
        assert_eq!(s.solve(), Vec2::ZERO);
        assert_eq!(s.count, 3);
        let total: f32 = s.weight.iter().sum();
        assert!((total - 1.0).abs() < 1e-6);
        // Origin beyond the edge w2-w3.
        let mut s = simplex(&[Vec2::new(-3.0, 0.0), Vec2::new(-1.0, -1.0), Vec2::new(-1.0, 1.0)]);
        assert_eq!(s.solve(), Vec2::new(-1.0, 0.0));
        assert_eq!(s.count, 2);
        // Origin in the region of vertex w3.
        let mut s = simplex(&[Vec2::new(2.0, 3.0), Vec2::new(3.0, 1.0), Vec2::new(1.0, 1.0)]);
        assert_eq!(s.solve(), Vec2::new(1.0, 1.0));
        assert_eq!(s.count, 1);
    }

    #[test]
    fn short_edge_far_from_origin_keeps_its_perpendicular_distance() {
        // A 0.1 mm edge 0.3 mm from the origin, whose vertices sit 1 m from the origin along
        // the edge direction: the closest point must still be 0.3 mm away.
        let base = Vec2::new(1.0, 3.0e-4);
        let mut s = simplex(&[base, base + Vec2::new(1.0e-4, 0.0)]);
        let v = s.solve();
        assert_eq!(s.count, 1);
        assert!((v - base).length() < 1e-9);
        let mut s = simplex(&[Vec2::new(-0.5e-4, 3.0e-4), Vec2::new(0.5e-4, 3.0e-4)]);
        let v = s.solve();
        assert!((v.y - 3.0e-4).abs() < 1e-10 && v.x.abs() < 1e-10);
    }
}
