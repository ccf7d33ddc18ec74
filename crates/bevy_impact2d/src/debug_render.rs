//! Debug rendering (feature `debug-render`): impact2d's [`DebugDraw`] drawn with Bevy's gizmos.
//!
//! Shapes come out as outlines in the engine's state colors (static gray, kinematic teal,
//! awake blue, asleep purple, swept-fast orange, bullets red, sensors gold), with contact
//! points and normals, joints and the last step's impacts. Drawn on the z = 0 plane in world
//! meters; a 2D camera whose projection scale fits meters shows it.

use bevy_app::{App, Plugin, PostUpdate};
use bevy_color::Color as BevyColor;
use bevy_ecs::resource::Resource;
use bevy_ecs::schedule::IntoScheduleConfigs;
use bevy_ecs::schedule::common_conditions::resource_exists;
use bevy_ecs::system::Res;
use bevy_gizmos::config::GizmoConfigStore;
use bevy_gizmos::gizmos::Gizmos;
use bevy_math::{Isometry2d, Rot2};
use impact2d::{Color, DebugDraw, DrawOptions, Transform, Vec2};

use crate::convert::from_engine;
use crate::world::ImpactWorld;

/// Draws the physics world with gizmos every frame (in `PostUpdate`). Needs Bevy's
/// `GizmoPlugin` (in `DefaultPlugins`); without it nothing is drawn.
#[derive(Clone, Copy, Debug, Default)]
pub struct ImpactDebugRenderPlugin;

/// What the debug renderer draws: the engine's [`DrawOptions`] (shapes, AABBs, transforms,
/// contacts, joints, impacts), and how large a point is (m).
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct DebugRenderOptions {
    /// What to draw.
    pub draw: DrawOptions,
    /// The radius (m) of a contact point, joint anchor or impact mark: the engine sizes
    /// points in pixels, gizmos in meters.
    pub point_radius: f32,
}

impl Default for DebugRenderOptions {
    fn default() -> Self {
        DebugRenderOptions { draw: DrawOptions::default(), point_radius: 0.05 }
    }
}

impl Plugin for ImpactDebugRenderPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<DebugRenderOptions>()
            .add_systems(PostUpdate, draw_world.run_if(resource_exists::<GizmoConfigStore>));
    }
}

fn draw_world(world: Res<ImpactWorld>, options: Res<DebugRenderOptions>, mut gizmos: Gizmos) {
    let mut draw = GizmoDraw { gizmos: &mut gizmos, point_radius: options.point_radius };
    world.engine().draw(&mut draw, &options.draw);
}

/// impact2d's renderer interface over a gizmo buffer.
struct GizmoDraw<'a, 'w, 's> {
    gizmos: &'a mut Gizmos<'w, 's>,
    point_radius: f32,
}

fn color(c: Color) -> BevyColor {
    BevyColor::srgba_u8(c.r, c.g, c.b, c.a)
}

fn at(p: Vec2) -> Isometry2d {
    Isometry2d::from_translation(from_engine(p))
}

impl DebugDraw for GizmoDraw<'_, '_, '_> {
    fn draw_polygon(&mut self, vertices: &[Vec2], c: Color) {
        self.gizmos.lineloop_2d(vertices.iter().map(|&v| from_engine(v)), color(c));
    }

    /// Gizmos have no fill: the outline, and for a rounded polygon the outline of its core.
    fn draw_solid_polygon(&mut self, vertices: &[Vec2], radius: f32, c: Color) {
        self.draw_polygon(vertices, c);
        if radius > 0.0 {
            for &v in vertices {
                self.gizmos.circle_2d(at(v), radius, color(c));
            }
        }
    }

    fn draw_circle(&mut self, center: Vec2, radius: f32, c: Color) {
        self.gizmos.circle_2d(at(center), radius, color(c));
    }

    /// The circle and a radius along the body's x axis, so the turn shows.
    fn draw_solid_circle(&mut self, transform: Transform, radius: f32, c: Color) {
        let iso = Isometry2d::new(from_engine(transform.p), Rot2::from_sin_cos(transform.q.s, transform.q.c));
        self.gizmos.circle_2d(iso, radius, color(c));
        let axis = transform.p + radius * Vec2::new(transform.q.c, transform.q.s);
        self.gizmos.line_2d(from_engine(transform.p), from_engine(axis), color(c));
    }

    /// The two end circles and the two sides.
    fn draw_solid_capsule(&mut self, p1: Vec2, p2: Vec2, radius: f32, c: Color) {
        let side = (p2 - p1).normalize_or_zero().perp() * radius;
        self.gizmos.circle_2d(at(p1), radius, color(c));
        self.gizmos.circle_2d(at(p2), radius, color(c));
        self.gizmos.line_2d(from_engine(p1 + side), from_engine(p2 + side), color(c));
        self.gizmos.line_2d(from_engine(p1 - side), from_engine(p2 - side), color(c));
    }

    fn draw_segment(&mut self, p1: Vec2, p2: Vec2, c: Color) {
        self.gizmos.line_2d(from_engine(p1), from_engine(p2), color(c));
    }

    /// A cross of the configured radius (the engine's size in pixels has no meaning here).
    fn draw_point(&mut self, point: Vec2, _size: f32, c: Color) {
        self.gizmos.cross_2d(at(point), self.point_radius, color(c));
    }

    fn draw_transform(&mut self, transform: Transform) {
        let (p, x, y) =
            (transform.p, Vec2::new(transform.q.c, transform.q.s), Vec2::new(-transform.q.s, transform.q.c));
        let length = 4.0 * self.point_radius;
        self.gizmos.line_2d(from_engine(p), from_engine(p + length * x), color(Color::AXIS_X));
        self.gizmos.line_2d(from_engine(p), from_engine(p + length * y), color(Color::AXIS_Y));
    }
}
