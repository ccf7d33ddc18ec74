//! PNG frames of a world, drawn with tiny-skia through impact2d's debug drawing: a
//! [`Painter`] is a [`DebugDraw`] on a pixmap, and [`render`] hands it to
//! [`World::draw`]. It draws the way the HTML player draws a replay: the same colors
//! (impact2d's [`Color`]s and [`PALETTE`]), the same sizes in pixels ([`STYLE`]), static
//! bodies under moving ones, joints, contact points, normals and time-of-impact events over
//! them.

use std::path::Path;

use impact2d::{
    Aabb, Color, ContactDraw, DebugDraw, DrawOptions, ImpactEvent, JointDraw, Shape, ShapeDraw, Transform, Vec2, World,
};
use thiserror::Error;
use tiny_skia::{FillRule, LineCap, LineJoin, Paint, PathBuilder, Pixmap, Stroke};

use crate::replay::{PALETTE, STYLE, fit_bounds, hull_thickness};

/// What to draw over the bodies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layers {
    /// Contact points.
    pub contacts: bool,
    /// Contact normals (with the points).
    pub normals: bool,
    /// Time-of-impact events.
    pub tois: bool,
}

impl Default for Layers {
    /// Everything, as the player starts.
    fn default() -> Self {
        Layers { contacts: true, normals: true, tois: true }
    }
}

impl Layers {
    /// The debug drawing options that draw these layers over the shapes and joints.
    pub fn options(self) -> DrawOptions {
        DrawOptions {
            contacts: self.contacts,
            contact_normals: self.normals,
            impacts: self.tois,
            ..DrawOptions::default()
        }
    }
}

/// Why a frame could not be drawn or written.
#[derive(Debug, Error)]
pub enum RenderError {
    /// The replay has no frame with this index.
    #[error("frame {frame} does not exist (the replay has {count})")]
    NoFrame {
        /// The frame asked for.
        frame: usize,
        /// The frames there are.
        count: usize,
    },
    /// The image size is zero or too large for tiny-skia.
    #[error("cannot make a {width} by {height} pixel image")]
    Size {
        /// Width (pixels).
        width: u32,
        /// Height (pixels).
        height: u32,
    },
    /// The PNG could not be encoded or written.
    #[error("cannot write {path}: {message}")]
    Write {
        /// The file.
        path: String,
        /// Why.
        message: String,
    },
}

/// Draws `world` on a `width` by `height` pixel image through [`World::draw`], fitting
/// `bounds` (m) to it (centered, the same scale on both axes): its shapes, joints, and the
/// layers asked for (the impacts are those of the world's last step).
///
/// Errors: [`RenderError::Size`].
pub fn render(world: &World, bounds: Aabb, width: u32, height: u32, layers: Layers) -> Result<Pixmap, RenderError> {
    let mut painter = Painter::new(bounds, width, height)?;
    world.draw(&mut painter, &layers.options());
    Ok(painter.into_pixmap())
}

/// The shapes of `world` where they are now, fitted as a view fits them
/// ([`crate::replay::fit_bounds`]: a 5 % margin on each side, at least 1 m across).
pub fn world_bounds(world: &World) -> Aabb {
    /// Grows a box around the shapes it is handed; draws nothing.
    struct Bounds(Option<Aabb>);
    impl DebugDraw for Bounds {
        fn draw_polygon(&mut self, _: &[Vec2], _: Color) {}
        fn draw_solid_polygon(&mut self, _: &[Vec2], _: f32, _: Color) {}
        fn draw_circle(&mut self, _: Vec2, _: f32, _: Color) {}
        fn draw_solid_circle(&mut self, _: Transform, _: f32, _: Color) {}
        fn draw_solid_capsule(&mut self, _: Vec2, _: Vec2, _: f32, _: Color) {}
        fn draw_segment(&mut self, _: Vec2, _: Vec2, _: Color) {}
        fn draw_point(&mut self, _: Vec2, _: f32, _: Color) {}
        fn draw_transform(&mut self, _: Transform) {}
        fn draw_shape(&mut self, shape: &ShapeDraw<'_>) {
            let aabb = shape.geometry.aabb(shape.transform);
            self.0 = Some(self.0.map_or(aabb, |b| b.union(&aabb)));
        }
    }
    let mut bounds = Bounds(None);
    let shapes_only = DrawOptions { contacts: false, joints: false, impacts: false, ..DrawOptions::default() };
    world.draw(&mut bounds, &shapes_only);
    fit_bounds(bounds.0)
}

/// Writes `pixmap` to `path` as a PNG.
///
/// Errors: [`RenderError::Write`].
pub fn write_png(pixmap: &Pixmap, path: &Path) -> Result<(), RenderError> {
    pixmap.save_png(path).map_err(|e| RenderError::Write { path: path.display().to_string(), message: e.to_string() })
}

/// World to pixels: the center of the view, pixels per meter, and the image center; y up.
#[derive(Clone, Copy, Debug)]
struct View {
    center: Vec2,
    scale: f32,
    half_size: Vec2,
}

impl View {
    /// `bounds` fitted to the image, as the player fits them.
    fn fit(bounds: Aabb, width: u32, height: u32) -> View {
        let size = bounds.upper - bounds.lower;
        let scale = (width as f32 / size.x).min(height as f32 / size.y);
        View { center: bounds.center(), scale, half_size: Vec2::new(width as f32, height as f32) / 2.0 }
    }

    fn to_screen(self, p: Vec2) -> Vec2 {
        let d = (p - self.center) * self.scale;
        Vec2::new(self.half_size.x + d.x, self.half_size.y - d.y)
    }
}

/// A [`DebugDraw`] on a tiny-skia pixmap: world coordinates fitted to the image as the
/// player fits them. Solids are filled and outlined [`STYLE`]`.outline` pixels beyond their
/// surface ([`PALETTE`]`.outline`, or their own color when thinner than [`STYLE`]`.thin`
/// pixels); colors keep their opacity (sensors are translucent).
pub struct Painter {
    pixmap: Pixmap,
    view: View,
}

impl Painter {
    /// A `width` by `height` pixel image filled with the background color, showing `bounds`
    /// (m) centered at the same scale on both axes.
    ///
    /// Errors: [`RenderError::Size`].
    pub fn new(bounds: Aabb, width: u32, height: u32) -> Result<Painter, RenderError> {
        let mut pixmap = Pixmap::new(width, height).ok_or(RenderError::Size { width, height })?;
        pixmap.fill(skia(PALETTE.background));
        Ok(Painter { pixmap, view: View::fit(bounds, width, height) })
    }

    /// Where the world point `p` (m) is on the image (pixels, y down).
    pub fn to_screen(&self, p: Vec2) -> Vec2 {
        self.view.to_screen(p)
    }

    /// Pixels per meter.
    pub fn scale(&self) -> f32 {
        self.view.scale
    }

    /// The image.
    pub fn into_pixmap(self) -> Pixmap {
        self.pixmap
    }

    /// The edge color of a solid `thickness` meters thick at its thinnest.
    fn edge(&self, thickness: f32, fill: Color) -> Color {
        let edge = if thickness * self.view.scale < STYLE.thin { fill } else { PALETTE.outline };
        edge.with_alpha(fill.a)
    }

    /// Ticks on the solid side of a chain link from `a` to `b` (screen; its right in the
    /// world, which is its left on screen, whose y points down).
    fn ticks(&mut self, a: Vec2, b: Vec2, color: Color) {
        let length = (b - a).length();
        if length <= 0.0 {
            return;
        }
        let n = ((length / STYLE.tick_spacing).floor() as usize).max(1);
        let d = (b - a) / length;
        let tick = Vec2::new(-d.y, d.x) * STYLE.tick_length;
        for j in 0..n {
            let p = a + (b - a) * ((j as f32 + 0.5) / n as f32);
            self.line(&[p, p + tick], false, STYLE.line, color);
        }
    }

    /// The hull of `points` (screen: a polygon, or a capsule's segment) grown by `radius`
    /// pixels, with an outline [`STYLE`]`.outline` pixels wide: a round stroke 2 (r +
    /// outline) wide in the `edge` color under a stroke 2 r wide and the filled core.
    fn solid(&mut self, points: &[Vec2], radius: f32, fill: Color, edge: Color) {
        let closed = points.len() > 2;
        self.line(points, closed, 2.0 * (radius + STYLE.outline), edge);
        if radius > 0.0 {
            self.line(points, closed, 2.0 * radius, fill);
        }
        if closed && let Some(path) = polyline(points, true) {
            self.pixmap.fill_path(&path, &paint(fill), FillRule::Winding, tiny_skia::Transform::identity(), None);
        }
    }

    fn line(&mut self, points: &[Vec2], closed: bool, width: f32, color: Color) {
        if let Some(path) = polyline(points, closed) {
            let stroke = Stroke { width, line_cap: LineCap::Round, line_join: LineJoin::Round, ..Stroke::default() };
            self.pixmap.stroke_path(&path, &paint(color), &stroke, tiny_skia::Transform::identity(), None);
        }
    }

    fn disc(&mut self, center: Vec2, radius: f32, color: Color) {
        if let Some(path) = PathBuilder::from_circle(center.x, center.y, radius.max(0.5)) {
            self.pixmap.fill_path(&path, &paint(color), FillRule::Winding, tiny_skia::Transform::identity(), None);
        }
    }

    fn ring(&mut self, center: Vec2, radius: f32, color: Color) {
        if let Some(path) = PathBuilder::from_circle(center.x, center.y, radius.max(0.5)) {
            let stroke = Stroke { width: STYLE.line, ..Stroke::default() };
            self.pixmap.stroke_path(&path, &paint(color), &stroke, tiny_skia::Transform::identity(), None);
        }
    }

    /// A normal of [`STYLE`]`.normal_length` pixels from `p` (screen) along `n` (world).
    fn normal(&mut self, p: Vec2, n: Vec2, color: Color) {
        let tip = p + Vec2::new(n.x, -n.y) * STYLE.normal_length;
        self.line(&[p, tip], false, STYLE.line, color);
    }
}

impl DebugDraw for Painter {
    fn draw_polygon(&mut self, vertices: &[Vec2], color: Color) {
        let points: Vec<Vec2> = vertices.iter().map(|&v| self.to_screen(v)).collect();
        self.line(&points, true, STYLE.line, color);
    }

    fn draw_solid_polygon(&mut self, vertices: &[Vec2], radius: f32, color: Color) {
        let points: Vec<Vec2> = vertices.iter().map(|&v| self.to_screen(v)).collect();
        let edge = self.edge(hull_thickness(vertices, radius), color);
        self.solid(&points, radius * self.view.scale, color, edge);
    }

    fn draw_circle(&mut self, center: Vec2, radius: f32, color: Color) {
        self.ring(self.to_screen(center), radius * self.view.scale, color);
    }

    /// A disc with its outline and, when the outline shows, its radius along the body's x
    /// axis (how the circle turned).
    fn draw_solid_circle(&mut self, transform: Transform, radius: f32, color: Color) {
        let center = self.to_screen(transform.p);
        let edge = self.edge(2.0 * radius, color);
        let r = radius * self.view.scale;
        self.disc(center, r + STYLE.outline, edge);
        self.disc(center, r, color);
        if edge.hex() == PALETTE.outline.hex() {
            let rim = self.to_screen(transform.p + transform.q.rotate(Vec2::new(radius, 0.0)));
            self.line(&[center, rim], false, STYLE.line, edge);
        }
    }

    fn draw_solid_capsule(&mut self, p1: Vec2, p2: Vec2, radius: f32, color: Color) {
        let points = [self.to_screen(p1), self.to_screen(p2)];
        let edge = self.edge(2.0 * radius, color);
        self.solid(&points, radius * self.view.scale, color, edge);
    }

    fn draw_segment(&mut self, p1: Vec2, p2: Vec2, color: Color) {
        let points = [self.to_screen(p1), self.to_screen(p2)];
        self.line(&points, false, STYLE.line, color);
    }

    fn draw_point(&mut self, point: Vec2, size: f32, color: Color) {
        self.disc(self.to_screen(point), 0.5 * size, color);
    }

    fn draw_transform(&mut self, transform: Transform) {
        let origin = self.to_screen(transform.p);
        for (axis, color) in [(Vec2::X, Color::AXIS_X), (Vec2::Y, Color::AXIS_Y)] {
            let d = transform.q.rotate(axis);
            let tip = origin + Vec2::new(d.x, -d.y) * STYLE.axis_length;
            self.line(&[origin, tip], false, STYLE.line, color);
        }
    }

    /// Chain links with ticks on their solid side; other shapes as impact2d draws them.
    fn draw_shape(&mut self, shape: &ShapeDraw<'_>) {
        if let Shape::ChainSegment(link) = shape.geometry {
            let s = link.segment();
            let (a, b) = (shape.transform.apply(s.point1()), shape.transform.apply(s.point2()));
            let (a, b) = (self.to_screen(a), self.to_screen(b));
            self.line(&[a, b], false, STYLE.line, shape.color);
            self.ticks(a, b, shape.color);
        } else {
            shape.draw_primitives(self);
        }
    }

    /// A dot of [`STYLE`]`.dot` pixels, and the normal [`STYLE`]`.normal_length` pixels long.
    fn draw_contact(&mut self, contact: &ContactDraw, normal_length: f32) {
        let p = self.to_screen(contact.point);
        self.disc(p, STYLE.dot, Color::CONTACT);
        if normal_length > 0.0 {
            self.normal(p, contact.normal, Color::CONTACT);
        }
    }

    /// A line between the anchors, and a dot of [`STYLE`]`.dot` pixels at each.
    fn draw_joint(&mut self, joint: &JointDraw) {
        let (a, b) = (self.to_screen(joint.anchor_a), self.to_screen(joint.anchor_b));
        self.line(&[a, b], false, STYLE.line, Color::JOINT);
        self.disc(a, STYLE.dot, Color::JOINT);
        self.disc(b, STYLE.dot, Color::JOINT);
    }

    /// A ring of [`STYLE`]`.toi_radius` pixels, and the normal.
    fn draw_impact(&mut self, impact: &ImpactEvent, normal_length: f32) {
        let p = self.to_screen(impact.point);
        self.ring(p, STYLE.toi_radius, Color::IMPACT);
        if normal_length > 0.0 {
            self.normal(p, impact.normal, Color::IMPACT);
        }
    }
}

/// A path through `points` (pixels); `None` for fewer than two points.
fn polyline(points: &[Vec2], closed: bool) -> Option<tiny_skia::Path> {
    let (first, rest) = points.split_first()?;
    let mut builder = PathBuilder::new();
    builder.move_to(first.x, first.y);
    if rest.is_empty() {
        // A capsule with coincident ends cannot exist, but a one-point path would draw nothing.
        builder.line_to(first.x + 1e-3, first.y);
    }
    for p in rest {
        builder.line_to(p.x, p.y);
    }
    if closed {
        builder.close();
    }
    builder.finish()
}

fn paint(color: Color) -> Paint<'static> {
    let mut paint = Paint { anti_alias: true, ..Paint::default() };
    paint.set_color(skia(color));
    paint
}

/// A color in tiny-skia's terms.
fn skia(c: Color) -> tiny_skia::Color {
    tiny_skia::Color::from_rgba8(c.r, c.g, c.b, c.a)
}

#[cfg(test)]
mod tests {
    use impact2d::{BodyDef, Circle, ShapeDef, WorldDef, make_box};

    use super::*;
    use crate::replay::hex;

    /// The pixel at (x, y) as `#rrggbb` (the image is opaque).
    fn pixel(pixmap: &Pixmap, x: u32, y: u32) -> String {
        let p = pixmap.pixel(x, y).unwrap();
        format!("#{:02x}{:02x}{:02x}", p.red(), p.green(), p.blue())
    }

    /// A static 20 m floor, a dynamic 1 m box above it, a kinematic ball and a sensor disc:
    /// the view fits them, and the pixels inside each shape have its color.
    #[test]
    fn shapes_land_where_the_view_puts_them() {
        let mut world = World::new(&WorldDef::default()).unwrap();
        let floor = world.create_body(&BodyDef::fixed(Vec2::ZERO)).unwrap();
        world.create_shape(floor, &ShapeDef::default(), &Shape::Polygon(make_box(10.0, 0.5).unwrap())).unwrap();
        let crate_ = world.create_body(&BodyDef::dynamic(Vec2::new(0.0, 5.0))).unwrap();
        world.create_shape(crate_, &ShapeDef::default(), &Shape::Polygon(make_box(0.5, 0.5).unwrap())).unwrap();
        let wheel = world.create_body(&BodyDef::kinematic(Vec2::new(5.0, 5.0))).unwrap();
        let disc = Shape::Circle(Circle::new(Vec2::ZERO, 0.8).unwrap());
        world.create_shape(wheel, &ShapeDef::default(), &disc).unwrap();
        let sensor = world.create_body(&BodyDef::fixed(Vec2::new(-5.0, 5.0))).unwrap();
        world.create_shape(sensor, &ShapeDef { sensor: true, ..ShapeDef::default() }, &disc).unwrap();

        let bounds = world_bounds(&world);
        let image = render(&world, bounds, 400, 300, Layers::default()).unwrap();
        let view = View::fit(bounds, 400, 300);
        let at = |x: f32, y: f32| {
            let p = view.to_screen(Vec2::new(x, y));
            pixel(&image, p.x as u32, p.y as u32)
        };
        assert_eq!(at(0.0, 5.0), hex(Color::AWAKE));
        assert_eq!(at(-8.0, 0.0), hex(Color::STATIC));
        assert_eq!(at(5.0, 5.3), hex(Color::KINEMATIC));
        assert_eq!(at(0.0, 2.5), hex(PALETTE.background));
        assert_eq!(pixel(&image, 0, 0), hex(PALETTE.background));
        // The sensor: translucent, its color over its outline (under its disc) over the
        // background.
        let mix = |c: u8, under: f32| {
            let a = Color::SENSOR.alpha();
            f32::from(c) * a + under * (1.0 - a)
        };
        let p = view.to_screen(Vec2::new(-5.0, 5.3));
        let got = image.pixel(p.x as u32, p.y as u32).unwrap();
        let (s, o, b) = (Color::SENSOR, PALETTE.outline, PALETTE.background);
        let want = |s: u8, o: u8, b: u8| mix(s, mix(o, f32::from(b))).round() as i32;
        let expected = [want(s.r, o.r, b.r), want(s.g, o.g, b.g), want(s.b, o.b, b.b)];
        for (got, want) in [got.red(), got.green(), got.blue()].into_iter().zip(expected) {
            assert!((i32::from(got) - want).abs() <= 2, "{got} vs {want}");
        }
        // The floor spans the width less the 5 % margins: 20 m over 22 m of view.
        assert!((view.scale - 400.0 / 22.0).abs() < 1e-3, "{}", view.scale);
    }

    #[test]
    fn an_empty_image_is_an_error_and_an_empty_world_is_background() {
        let world = World::new(&WorldDef::default()).unwrap();
        let bounds = world_bounds(&world);
        assert_eq!((bounds.lower, bounds.upper), (Vec2::splat(-10.0), Vec2::splat(10.0)));
        assert!(matches!(render(&world, bounds, 0, 10, Layers::default()), Err(RenderError::Size { .. })));
        let image = render(&world, bounds, 10, 10, Layers::default()).unwrap();
        assert!(image.pixels().iter().all(|p| *p == image.pixels()[0]));
        assert_eq!(pixel(&image, 5, 5), hex(PALETTE.background));
    }

    /// AABBs and transforms drawn by the painter's primitives land on the image.
    #[test]
    fn outlines_and_axes_are_drawn() {
        let mut world = World::new(&WorldDef::default()).unwrap();
        let body = world.create_body(&BodyDef::fixed(Vec2::ZERO)).unwrap();
        world.create_shape(body, &ShapeDef::default(), &Shape::Polygon(make_box(2.0, 1.0).unwrap())).unwrap();
        let bounds = Aabb::new(Vec2::new(-4.0, -4.0), Vec2::new(4.0, 4.0));
        let mut painter = Painter::new(bounds, 200, 200).unwrap();
        let options = DrawOptions { shapes: false, aabbs: true, transforms: true, ..DrawOptions::default() };
        world.draw(&mut painter, &options);
        let corner = painter.to_screen(Vec2::new(2.0, 0.0));
        let origin = painter.to_screen(Vec2::new(0.3, 0.0));
        let image = painter.into_pixmap();
        assert_eq!(pixel(&image, corner.x as u32, corner.y as u32), hex(Color::AABB));
        assert_eq!(pixel(&image, origin.x as u32, origin.y as u32), hex(Color::AXIS_X));
    }
}
