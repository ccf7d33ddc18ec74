//! The scene families, one file each, and what they share: a scene under construction with
//! its rules, a frame that places the layout in the world (an offset of up to 20 km and a
//! turn), random materials and shapes, and a placer that keeps new bodies off the others.
//!
//! Layouts are written in their own coordinates (meters, radians) and placed by the frame.

mod head_on;
mod kinematic;
mod pile;
mod plates;
mod rain;
mod sensors;
mod spinners;

pub(super) use head_on::head_on;
pub(super) use kinematic::kinematic;
pub(super) use pile::pile;
pub(super) use plates::plates;
pub(super) use rain::rain;
pub(super) use sensors::sensors;
pub(super) use spinners::spinners;

use std::f32::consts::TAU;

use impact2d::math::cos_sin;
use impact2d::{Rot, Vec2};

use super::check::{Contain, Rule, Thin};
use super::rng::Rng;
use crate::scene::{BodyDef, BodyType, Geometry, Scene, ShapeDef};

/// The farthest a layout is placed from the origin, in x and in y (m).
pub const MAX_OFFSET: f32 = 20_000.0;

/// A scene being generated: the draws, the scene, its rules and the frame of its layout.
pub(super) struct Build {
    pub rng: Rng,
    pub scene: Scene,
    pub rules: Vec<Rule>,
    pub frame: Frame,
}

impl Build {
    /// A scene named `name`, its layout at a random offset (a quarter of the seeds at the
    /// origin), not turned.
    pub fn new(name: &str, rng: Rng) -> Build {
        let mut build = Build { rng, scene: Scene::new(name, ""), rules: Vec::new(), frame: Frame::IDENTITY };
        build.frame.origin = build.offset();
        build
    }

    /// A random place for a layout: the origin for a quarter of the seeds, anywhere within
    /// [`MAX_OFFSET`] in x and y otherwise.
    fn offset(&mut self) -> Vec2 {
        if self.rng.chance(0.25) {
            return Vec2::ZERO;
        }
        Vec2::new(self.rng.range(-MAX_OFFSET, MAX_OFFSET), self.rng.range(-MAX_OFFSET, MAX_OFFSET))
    }

    /// Adds `body` (placed in layout coordinates) and returns its scene index.
    pub fn add(&mut self, body: BodyDef) -> usize {
        let mut body = body;
        body.position = self.frame.point(body.position);
        body.angle += self.frame.angle;
        body.linear_velocity = self.frame.rot().rotate(body.linear_velocity);
        self.scene.bodies.push(body);
        self.scene.bodies.len() - 1
    }

    /// A direction of the layout in the world.
    pub fn frame_direction(&self, v: Vec2) -> Vec2 {
        self.frame.rot().rotate(v)
    }

    /// Declares body `body` thin along the mid-line from `from` to `to` (body coordinates),
    /// with ends that bodies may go round.
    pub fn thin(&mut self, body: usize, label: &str, line: (Vec2, Vec2), half_thickness: f32, sensor: bool) {
        let (from, to) = line;
        let label = label.to_owned();
        self.rules.push(Rule::Thin(Thin { body, label, from, to, half_thickness, sensor, closed: false }));
    }

    /// A closed box of four static walls `thickness` thick on one body named `name`, around
    /// the inner box from (-`half_width`, 0) to (`half_width`, `height`) in layout
    /// coordinates; each wall is declared thin. Returns the body's index.
    pub fn closed_box(&mut self, name: &str, half_width: f32, height: f32, thickness: f32) -> usize {
        let (w, h, t) = (half_width, height, 0.5 * thickness);
        // Each wall runs past the corners by its thickness, so the corners are closed.
        let walls = [
            ("floor", Vec2::new(0.0, -t), Vec2::new(w + 2.0 * t, t), false),
            ("ceiling", Vec2::new(0.0, h + t), Vec2::new(w + 2.0 * t, t), false),
            ("left wall", Vec2::new(-w - t, 0.5 * h), Vec2::new(t, 0.5 * h + 2.0 * t), true),
            ("right wall", Vec2::new(w + t, 0.5 * h), Vec2::new(t, 0.5 * h + 2.0 * t), true),
        ];
        let mut body = BodyDef::new(BodyType::Static, Vec2::ZERO).named(name);
        for (_, center, half, _) in walls {
            let geometry = Geometry::offset_rect(half.x, half.y, center, 0.0);
            body = body.with(self.material(geometry));
        }
        let index = self.add(body);
        for (label, center, half, upright) in walls {
            let along = if upright { Vec2::new(0.0, half.y) } else { Vec2::new(half.x, 0.0) };
            let (from, to, label) = (center - along, center + along, label.to_owned());
            self.rules.push(Rule::Thin(Thin {
                body: index,
                label,
                from,
                to,
                half_thickness: t,
                sensor: false,
                closed: true,
            }));
        }
        index
    }

    /// Requires the centers of every dynamic body to stay in the inner box of the closed box
    /// `container` (made by [`Build::closed_box`] with these sizes).
    pub fn contain_dynamic(&mut self, container: usize, half_width: f32, height: f32) {
        let members =
            (0..self.scene.bodies.len()).filter(|&i| self.scene.bodies[i].body_type == BodyType::Dynamic).collect();
        let (center, half_extents) = (Vec2::new(0.0, 0.5 * height), Vec2::new(half_width, 0.5 * height));
        self.rules.push(Rule::Contain(Contain { body: container, center, half_extents, members }));
    }

    /// A shape of `geometry` with a random friction and restitution (0 to 1).
    pub fn material(&mut self, geometry: Geometry) -> ShapeDef {
        ShapeDef {
            friction: self.rng.range(0.0, 1.0),
            restitution: self.rng.range(0.0, 1.0),
            ..ShapeDef::new(geometry)
        }
    }

    /// As [`Build::material`], with a random density in `densities` (kg/m²).
    pub fn solid(&mut self, geometry: Geometry, densities: (f32, f32)) -> ShapeDef {
        let density = self.rng.range(densities.0, densities.1);
        ShapeDef { density, ..self.material(geometry) }
    }

    /// A small circle or box whose size across is drawn from `sizes` (m), and its half
    /// extent along x.
    pub fn small_shape(&mut self, sizes: (f32, f32)) -> (Geometry, f32) {
        let half = 0.5 * self.rng.range(sizes.0, sizes.1);
        if self.rng.chance(0.5) { (Geometry::circle(half), half) } else { (Geometry::rect(half, half), half) }
    }

    /// A circle, box, capsule or polygon whose size across is drawn from `sizes` (m).
    pub fn mixed_shape(&mut self, sizes: (f32, f32)) -> Geometry {
        let half = 0.5 * self.rng.range(sizes.0, sizes.1);
        match self.rng.int(0, 3) {
            0 => Geometry::circle(half),
            1 => Geometry::rect(half * self.rng.range(0.4, 1.0), half * self.rng.range(0.4, 1.0)),
            2 => {
                let r = half * self.rng.range(0.3, 0.6);
                let c = Vec2::new(half - r, 0.0);
                Geometry::Capsule { center1: -c, center2: c, radius: r }
            }
            _ => self.polygon(half),
        }
    }

    /// A convex polygon of 3 to 8 vertices within `radius` of its origin (m): the hull of
    /// points at evenly spread angles, each moved a little, so no three are on one line.
    fn polygon(&mut self, radius: f32) -> Geometry {
        let n = self.rng.int(3, 8);
        let start = self.rng.angle();
        let points: Vec<Vec2> = (0..n)
            .map(|k| {
                let a = start + TAU * (k as f32 + self.rng.range(-0.2, 0.2)) / n as f32;
                radius * self.rng.range(0.7, 1.0) * unit(a)
            })
            .collect();
        // Scene polygons list their corners: points the hull leaves inside are dropped.
        let corners = impact2d::compute_hull(&points).map_or(points, |hull| hull.points().to_vec());
        Geometry::Polygon { points: corners, radius: 0.0 }
    }
}

/// Where a layout sits in the world: its origin and its turn (rad).
#[derive(Clone, Copy, Debug)]
pub(super) struct Frame {
    pub origin: Vec2,
    pub angle: f32,
}

impl Frame {
    const IDENTITY: Frame = Frame { origin: Vec2::ZERO, angle: 0.0 };

    fn rot(&self) -> Rot {
        Rot::from_angle(self.angle)
    }

    /// A point of the layout in the world.
    pub fn point(&self, p: Vec2) -> Vec2 {
        self.origin + self.rot().rotate(p)
    }
}

/// Keeps generated bodies apart: discs and thick segments already placed, in layout
/// coordinates (m).
#[derive(Clone, Debug, Default)]
pub(super) struct Placer {
    /// (from, to, radius): a disc when the ends are the same point.
    taken: Vec<(Vec2, Vec2, f32)>,
}

impl Placer {
    /// Whether a disc of `radius` at `p` keeps `gap` from everything placed.
    pub fn fits(&self, p: Vec2, radius: f32, gap: f32) -> bool {
        self.taken.iter().all(|&(a, b, r)| distance_to_segment(p, a, b) >= r + radius + gap)
    }

    /// Marks a disc taken.
    pub fn disc(&mut self, p: Vec2, radius: f32) {
        self.taken.push((p, p, radius));
    }

    /// Marks the points within `radius` of the segment from `a` to `b` taken.
    pub fn segment(&mut self, a: Vec2, b: Vec2, radius: f32) {
        self.taken.push((a, b, radius));
    }

    /// A random place for a disc of `radius` in the box from `lo` to `hi` that keeps `gap`
    /// from everything placed (up to 200 tries), marked taken.
    pub fn place(&mut self, rng: &mut Rng, lo: Vec2, hi: Vec2, radius: f32, gap: f32) -> Option<Vec2> {
        let spot = (0..200).map(|_| rng.point(lo, hi)).find(|&p| self.fits(p, radius, gap))?;
        self.disc(spot, radius);
        Some(spot)
    }
}

fn distance_to_segment(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    let ab = b - a;
    let t = if ab.length_squared() > 0.0 { ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0) } else { 0.0 };
    (p - (a + ab * t)).length()
}

/// A dynamic body at `p` (layout coordinates) named `name`.
pub(super) fn dynamic(name: &str, p: Vec2) -> BodyDef {
    BodyDef::new(BodyType::Dynamic, p).named(name)
}

/// The unit vector at `angle` (rad), by the library's own cosine and sine, so a seed gives
/// the same scene on every platform.
pub(super) fn unit(angle: f32) -> Vec2 {
    let (c, s) = cos_sin(angle);
    Vec2::new(c, s)
}
