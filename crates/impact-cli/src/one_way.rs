//! One-way platforms: the [`ContactHooks::pre_solve`] hook a scene's `one_way` shapes get.
//!
//! A platform holds bodies on the side its normal points to (a direction fixed in its body,
//! `one_way_normal`, by default the body's up) and lets them through from the other side. A
//! contact with a platform is solved only when its normal, turned to point from the platform
//! to the other shape, is within 60° of the platform's normal: the other shape is on the
//! holding side. A shape partly through the platform on its way up has the normal of least
//! penetration, down, until most of it is through; a contact only pushes, so one enabled
//! while the shape still rises takes no impulse, and a shape that stops inside is pushed out
//! on top. No depth limit: a body landing hard sinks into the platform for a step or two,
//! and a limit would let it through.
//!
//! Otherwise it is disabled for the step. Continuous collision asks the same hook with the
//! manifold at the time of impact, so a fast body coming from below (its impact normal
//! points away from the holding side) flies on through the platform, and a fast body coming
//! from above is stopped on it as on any shape.

use impact2d::{ContactHooks, Manifold, ShapeId, Vec2, World};

/// The least cosine between a contact's normal and the platform's (60°).
const ONE_WAY_COSINE: f32 = 0.5;

/// The one-way platforms of a world: shapes with their holding side.
#[derive(Clone, Debug, Default)]
pub struct OneWayPlatforms {
    /// (shape, unit normal in the shape's body coordinates), sorted by shape.
    platforms: Vec<(ShapeId, Vec2)>,
}

impl OneWayPlatforms {
    /// The platforms `platforms`: each shape with the side it holds bodies on (a unit vector in
    /// its body's coordinates).
    pub fn new(mut platforms: Vec<(ShapeId, Vec2)>) -> OneWayPlatforms {
        platforms.sort_by_key(|p| p.0);
        OneWayPlatforms { platforms }
    }

    /// The holding side of `shape` in its body's coordinates, if it is a platform.
    pub fn normal(&self, shape: ShapeId) -> Option<Vec2> {
        self.platforms.binary_search_by_key(&shape, |p| p.0).ok().map(|i| self.platforms[i].1)
    }

    /// Whether a contact of `platform` (holding side `local` in its body's coordinates) with
    /// another shape is solved: `normal` goes from the platform to the other shape (world).
    pub fn holds(world: &World, platform: ShapeId, local: Vec2, normal: Vec2) -> bool {
        let Ok(body) = world.shape_body(platform) else { return true };
        let Ok(xf) = world.transform(body) else { return true };
        normal.dot(xf.q.rotate(local)) >= ONE_WAY_COSINE
    }
}

impl ContactHooks for OneWayPlatforms {
    fn pre_solve(&self, world: &World, a: ShapeId, b: ShapeId, manifold: &Manifold) -> bool {
        let (platform, local, sign) = match (self.normal(a), self.normal(b)) {
            (Some(local), _) => (a, local, 1.0),
            (None, Some(local)) => (b, local, -1.0),
            (None, None) => return true,
        };
        OneWayPlatforms::holds(world, platform, local, sign * manifold.normal)
    }
}
