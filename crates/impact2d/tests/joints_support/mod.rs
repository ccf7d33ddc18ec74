//! Scene builders and measurements shared by the joint tests.

#![allow(dead_code)]

use impact2d::*;

pub const DT: f32 = 1.0 / 60.0;
pub const SUBSTEPS: u32 = 4;

/// A small deterministic generator (SplitMix64) for seeded cases.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..hi`.
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        let unit = (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        lo + (hi - lo) * unit
    }
}

pub fn world(gravity: Vec2) -> World {
    World::new(&WorldDef { gravity, ..WorldDef::default() }).unwrap()
}

pub fn boxed(hx: f32, hy: f32) -> Shape {
    Shape::Polygon(make_box(hx, hy).unwrap())
}

pub fn circle(radius: f32) -> Shape {
    Shape::Circle(Circle::new(Vec2::ZERO, radius).unwrap())
}

pub fn capsule(half_length: f32, radius: f32) -> Shape {
    Shape::Capsule(Capsule::new(Vec2::new(-half_length, 0.0), Vec2::new(half_length, 0.0), radius).unwrap())
}

/// A static body without shapes at `position`.
pub fn anchor_body(world: &mut World, position: Vec2) -> BodyId {
    world.create_body(&BodyDef::fixed(position)).unwrap()
}

/// A dynamic body with one shape of density `density`.
pub fn body(world: &mut World, position: Vec2, angle: f32, shape: &Shape, density: f32) -> BodyId {
    let b = world.create_body(&BodyDef { angle, ..BodyDef::dynamic(position) }).unwrap();
    world.create_shape(b, &ShapeDef { density, ..ShapeDef::default() }, shape).unwrap();
    b
}

pub fn revolute(world: &mut World, a: BodyId, b: BodyId, anchor: Vec2) -> JointId {
    world.create_joint(&JointDef::new(a, b, JointKind::Revolute(RevoluteDef::new(anchor)))).unwrap()
}

/// The distance between a joint's two world anchors (meters).
pub fn anchor_gap(world: &World, joint: JointId) -> f32 {
    let (a, b) = world.joint_world_anchors(joint).unwrap();
    (b - a).length()
}

/// The times (seconds) at which `signal` crossed zero upward, linearly interpolated between
/// the samples taken every `dt`.
pub fn upward_crossings(signal: &[f32], dt: f32) -> Vec<f64> {
    let mut out = Vec::new();
    for i in 1..signal.len() {
        let (a, b) = (signal[i - 1], signal[i]);
        if a < 0.0 && b >= 0.0 {
            let t = (i - 1) as f64 + f64::from(a) / f64::from(a - b);
            out.push(t * f64::from(dt));
        }
    }
    out
}

/// The mean period (seconds) of an oscillation from its upward zero crossings.
pub fn period(signal: &[f32], dt: f32) -> f64 {
    let c = upward_crossings(signal, dt);
    assert!(c.len() >= 3, "too few crossings: {}", c.len());
    (c[c.len() - 1] - c[0]) / (c.len() - 1) as f64
}

/// A ragdoll of ten capsules and a round head with limited revolute joints (neck, shoulders,
/// elbows, hips, knees), about 1.7 m tall, its pelvis at `at`, turned by `angle`, moving
/// with `velocity` and turning at `spin` (rad/s) as one rigid body. Returns its bodies and
/// joints.
pub fn ragdoll(world: &mut World, at: Vec2, angle: f32, velocity: Vec2, spin: f32) -> (Vec<BodyId>, Vec<JointId>) {
    let q = Rot::from_angle(angle);
    let place = |p: Vec2| at + q.rotate(p);
    // (center, half length, radius) of the vertical capsules; the head is a circle.
    let parts = [
        (Vec2::new(0.0, 0.25), 0.2, 0.12),    // 0 torso
        (Vec2::new(-0.19, 0.28), 0.09, 0.05), // 1 upper arms
        (Vec2::new(0.19, 0.28), 0.09, 0.05),
        (Vec2::new(-0.19, 0.0), 0.09, 0.045), // 3 lower arms
        (Vec2::new(0.19, 0.0), 0.09, 0.045),
        (Vec2::new(-0.08, -0.25), 0.14, 0.07), // 5 thighs
        (Vec2::new(0.08, -0.25), 0.14, 0.07),
        (Vec2::new(-0.08, -0.67), 0.14, 0.06), // 7 shins
        (Vec2::new(0.08, -0.67), 0.14, 0.06),
    ];
    let mut bodies = Vec::new();
    for &(center, half, radius) in &parts {
        bodies.push(body(world, place(center), angle + std::f32::consts::FRAC_PI_2, &capsule(half, radius), 1000.0));
    }
    bodies.push(body(world, place(Vec2::new(0.0, 0.66)), angle, &circle(0.1), 1000.0));
    // (body A, body B, anchor, lower, upper)
    let joints = [
        (0, 9, Vec2::new(0.0, 0.55), -0.5, 0.5),
        (0, 1, Vec2::new(-0.19, 0.4), -1.5, 1.5),
        (0, 2, Vec2::new(0.19, 0.4), -1.5, 1.5),
        (1, 3, Vec2::new(-0.19, 0.14), -2.5, 0.0),
        (2, 4, Vec2::new(0.19, 0.14), -2.5, 0.0),
        (0, 5, Vec2::new(-0.08, -0.04), -1.5, 0.5),
        (0, 6, Vec2::new(0.08, -0.04), -1.5, 0.5),
        (5, 7, Vec2::new(-0.08, -0.46), 0.0, 2.3),
        (6, 8, Vec2::new(0.08, -0.46), 0.0, 2.3),
    ];
    let mut ids = Vec::new();
    for &(a, b, anchor, lower, upper) in &joints {
        let def = RevoluteDef { enable_limit: true, lower, upper, ..RevoluteDef::new(place(anchor)) };
        ids.push(world.create_joint(&JointDef::new(bodies[a], bodies[b], JointKind::Revolute(def))).unwrap());
    }
    for &b in &bodies {
        let r = world.world_center(b).unwrap() - at;
        world.set_linear_velocity(b, velocity + spin * r.perp()).unwrap();
        world.set_angular_velocity(b, spin).unwrap();
    }
    (bodies, ids)
}
