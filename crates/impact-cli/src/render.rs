//! PNG frames of a [`Replay`], drawn with tiny-skia the way the HTML player draws them: the
//! same colors ([`PALETTE`]), the same sizes in pixels ([`STYLE`]), the same view (the
//! replay's [`Replay::view_bounds`] fitted to the image), static bodies under moving ones,
//! contact points, normals and time-of-impact events over them.

use std::path::Path;

use impact2d::{Aabb, Shape, Transform as Pose, Vec2};
use thiserror::Error;
use tiny_skia::{Color, FillRule, LineCap, LineJoin, Paint, PathBuilder, Pixmap, Stroke, Transform};

use crate::replay::{BodyState, Frame, PALETTE, Replay, ReplayBody, STYLE, thickness};
use crate::scene::BodyType;

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

/// Draws frame `frame` of `replay` on a `width` by `height` pixel image, fitting the
/// replay's [`Replay::view_bounds`].
///
/// Errors: [`RenderError::NoFrame`], [`RenderError::Size`].
pub fn render_frame(
    replay: &Replay,
    frame: usize,
    width: u32,
    height: u32,
    layers: Layers,
) -> Result<Pixmap, RenderError> {
    let count = replay.frames().len();
    let f = replay.frames().get(frame).ok_or(RenderError::NoFrame { frame, count })?;
    render(replay.bodies(), f, replay.view_bounds(), width, height, layers)
}

/// Draws `frame` of `bodies` on a `width` by `height` pixel image, fitting `bounds` (m) to
/// it (centered, the same scale on both axes).
///
/// Errors: [`RenderError::Size`].
pub fn render(
    bodies: &[ReplayBody],
    f: &Frame,
    bounds: Aabb,
    width: u32,
    height: u32,
    layers: Layers,
) -> Result<Pixmap, RenderError> {
    let mut pixmap = Pixmap::new(width, height).ok_or(RenderError::Size { width, height })?;
    pixmap.fill(color(PALETTE.background, 1.0));
    let mut canvas = Canvas { pixmap: &mut pixmap, view: View::fit(bounds, width, height) };
    for statics in [true, false] {
        for (body, pose) in bodies.iter().zip(&f.poses) {
            if (body.body_type == BodyType::Static) != statics {
                continue;
            }
            let fill = match (body.body_type, pose.state) {
                (BodyType::Static, _) => PALETTE.static_body,
                (_, BodyState::Awake) => PALETTE.awake,
                (_, BodyState::Asleep) => PALETTE.asleep,
                (_, BodyState::Fast) => PALETTE.fast,
                (_, BodyState::Bullet) => PALETTE.bullet,
            };
            let xf = Pose::new(pose.position, pose.angle);
            for shape in &body.shapes {
                let alpha = if shape.sensor { STYLE.sensor_alpha } else { 1.0 };
                for part in &shape.parts {
                    canvas.shape(part, xf, fill, alpha);
                }
            }
        }
    }
    for (a, b) in &f.joints {
        let (a, b) = (canvas.view.to_screen(*a), canvas.view.to_screen(*b));
        canvas.line(&[a, b], false, STYLE.line, PALETTE.joint, 1.0);
        canvas.disc(a, STYLE.dot, PALETTE.joint, 1.0);
        canvas.disc(b, STYLE.dot, PALETTE.joint, 1.0);
    }
    if layers.contacts {
        for c in &f.contacts {
            let p = canvas.view.to_screen(c.point);
            canvas.disc(p, STYLE.dot, PALETTE.contact, 1.0);
            if layers.normals {
                canvas.normal(p, c.normal, PALETTE.contact);
            }
        }
    }
    if layers.tois {
        for e in &f.tois {
            let p = canvas.view.to_screen(e.point);
            canvas.ring(p, STYLE.toi_radius, PALETTE.toi);
            canvas.normal(p, e.normal, PALETTE.toi);
        }
    }
    Ok(pixmap)
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

struct Canvas<'a> {
    pixmap: &'a mut Pixmap,
    view: View,
}

impl Canvas<'_> {
    /// One shape part at the body pose `xf`, filled with `fill`.
    fn shape(&mut self, part: &Shape, xf: Pose, fill: &str, alpha: f32) {
        let s = self.view.scale;
        let view = self.view;
        // Shapes too thin to show their fill are outlined in their own color.
        let edge = if thickness(part) * s < STYLE.thin { fill } else { PALETTE.outline };
        let screen = |p: Vec2| view.to_screen(xf.apply(p));
        match part {
            Shape::Circle(c) => {
                let center = screen(c.center());
                self.disc(center, c.radius() * s + STYLE.outline, edge, alpha);
                self.disc(center, c.radius() * s, fill, alpha);
                // The radius along the body's x axis shows how the circle turned.
                if edge == PALETTE.outline {
                    let rim = screen(c.center() + Vec2::new(c.radius(), 0.0));
                    self.line(&[center, rim], false, STYLE.line, PALETTE.outline, alpha);
                }
            }
            Shape::Capsule(c) => {
                self.solid(&[screen(c.center1()), screen(c.center2())], c.radius() * s, fill, edge, alpha)
            }
            Shape::Polygon(p) => {
                let points: Vec<Vec2> = p.vertices().iter().map(|&v| screen(v)).collect();
                self.solid(&points, p.radius() * s, fill, edge, alpha);
            }
            Shape::Segment(g) => self.line(&[screen(g.point1()), screen(g.point2())], false, STYLE.line, fill, alpha),
            Shape::ChainSegment(c) => {
                let (a, b) = (screen(c.segment().point1()), screen(c.segment().point2()));
                self.line(&[a, b], false, STYLE.line, fill, alpha);
                self.ticks(a, b, fill, alpha);
            }
        }
    }

    /// Ticks on the solid side of a chain link from `a` to `b` (its right, in the world; the
    /// screen's y points down, so the right in the world is the left on screen).
    fn ticks(&mut self, a: Vec2, b: Vec2, color: &str, alpha: f32) {
        let length = (b - a).length();
        if length <= 0.0 {
            return;
        }
        let n = ((length / STYLE.tick_spacing).floor() as usize).max(1);
        let d = (b - a) / length;
        let tick = Vec2::new(-d.y, d.x) * STYLE.tick_length;
        for j in 0..n {
            let p = a + (b - a) * ((j as f32 + 0.5) / n as f32);
            self.line(&[p, p + tick], false, STYLE.line, color, alpha);
        }
    }

    /// The hull of `points` (a polygon, or a capsule's segment) grown by `radius` pixels,
    /// with an outline [`STYLE`]`.outline` pixels wide: a round stroke 2 (r + outline) wide
    /// in the `edge` color under a stroke 2 r wide and the filled core.
    fn solid(&mut self, points: &[Vec2], radius: f32, fill: &str, edge: &str, alpha: f32) {
        let closed = points.len() > 2;
        self.line(points, closed, 2.0 * (radius + STYLE.outline), edge, alpha);
        if radius > 0.0 {
            self.line(points, closed, 2.0 * radius, fill, alpha);
        }
        if closed {
            self.fill_core(points, fill, alpha);
        }
    }

    fn fill_core(&mut self, points: &[Vec2], color_hex: &str, alpha: f32) {
        if let Some(path) = polyline(points, true) {
            let paint = paint(color_hex, alpha);
            self.pixmap.fill_path(&path, &paint, FillRule::Winding, Transform::identity(), None);
        }
    }

    fn line(&mut self, points: &[Vec2], closed: bool, width: f32, color_hex: &str, alpha: f32) {
        if let Some(path) = polyline(points, closed) {
            let stroke = Stroke { width, line_cap: LineCap::Round, line_join: LineJoin::Round, ..Stroke::default() };
            self.pixmap.stroke_path(&path, &paint(color_hex, alpha), &stroke, Transform::identity(), None);
        }
    }

    fn disc(&mut self, center: Vec2, radius: f32, color_hex: &str, alpha: f32) {
        if let Some(path) = PathBuilder::from_circle(center.x, center.y, radius.max(0.5)) {
            self.pixmap.fill_path(&path, &paint(color_hex, alpha), FillRule::Winding, Transform::identity(), None);
        }
    }

    fn ring(&mut self, center: Vec2, radius: f32, color_hex: &str) {
        if let Some(path) = PathBuilder::from_circle(center.x, center.y, radius) {
            let stroke = Stroke { width: STYLE.line, ..Stroke::default() };
            self.pixmap.stroke_path(&path, &paint(color_hex, 1.0), &stroke, Transform::identity(), None);
        }
    }

    /// A normal of [`STYLE`]`.normal_length` pixels from `p` (screen) along `n` (world).
    fn normal(&mut self, p: Vec2, n: Vec2, color_hex: &str) {
        let tip = p + Vec2::new(n.x, -n.y) * STYLE.normal_length;
        self.line(&[p, tip], false, STYLE.line, color_hex, 1.0);
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

fn paint(hex: &str, alpha: f32) -> Paint<'static> {
    let mut paint = Paint { anti_alias: true, ..Paint::default() };
    paint.set_color(color(hex, alpha));
    paint
}

/// A `#rrggbb` color of the palette with `alpha` (0 to 1).
fn color(hex: &str, alpha: f32) -> Color {
    let channel = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).expect("the palette holds #rrggbb colors");
    let mut c = Color::from_rgba8(channel(1), channel(3), channel(5), 255);
    c.apply_opacity(alpha);
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::BodyPose;
    use crate::scene::parse_scene;

    /// The pixel at (x, y) as `#rrggbb` (the image is opaque).
    fn pixel(pixmap: &Pixmap, x: u32, y: u32) -> String {
        let p = pixmap.pixel(x, y).unwrap();
        format!("#{:02x}{:02x}{:02x}", p.red(), p.green(), p.blue())
    }

    /// A static 20 m floor and a dynamic 1 m box above it: the view fits them, and the
    /// pixels inside each shape have its color.
    #[test]
    fn shapes_land_where_the_view_puts_them() {
        let text = r#"{"bodies": [
            {"type": "static", "position": [0, 0], "shapes": [{"type": "box", "half_width": 10, "half_height": 0.5}]},
            {"type": "dynamic", "position": [0, 5], "shapes": [{"type": "box", "half_width": 0.5, "half_height": 0.5}]}]}"#;
        let scene = parse_scene(text).unwrap();
        let mut replay = Replay::new(&scene);
        replay.push_frame(0.0, &BodyPose::initial(&scene), &[], &[]).unwrap();
        let image = render_frame(&replay, 0, 400, 300, Layers::default()).unwrap();
        let view = View::fit(replay.view_bounds(), 400, 300);
        let at = |x: f32, y: f32| {
            let p = view.to_screen(Vec2::new(x, y));
            pixel(&image, p.x as u32, p.y as u32)
        };
        assert_eq!(at(0.0, 5.0), PALETTE.awake);
        assert_eq!(at(-8.0, 0.0), PALETTE.static_body);
        assert_eq!(at(0.0, 2.5), PALETTE.background);
        assert_eq!(pixel(&image, 0, 0), PALETTE.background);
        // The floor spans the width less the 5 % margins: 20 m over 22 m of view.
        assert!((view.scale - 400.0 / 22.0).abs() < 1e-3, "{}", view.scale);
    }

    #[test]
    fn a_missing_frame_and_an_empty_image_are_errors() {
        let scene = parse_scene(r#"{"bodies": []}"#).unwrap();
        let mut replay = Replay::new(&scene);
        assert!(matches!(render_frame(&replay, 0, 10, 10, Layers::default()), Err(RenderError::NoFrame { .. })));
        replay.push_frame(0.0, &[], &[], &[]).unwrap();
        assert!(matches!(render_frame(&replay, 0, 0, 10, Layers::default()), Err(RenderError::Size { .. })));
        assert!(render_frame(&replay, 0, 10, 10, Layers::default()).is_ok());
    }
}
