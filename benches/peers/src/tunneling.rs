//! Part 3: tunneling side by side. The continuous scenes of issue 5, re-created from
//! crates/impact2d/tests/continuous_box.rs, continuous_drop.rs and continuous_samples.rs (the
//! same generator and draw order, so seed N is the tests' seed N), written once as neutral
//! data and built in both engines. Every check runs after every step.
//!
//! * **escape**: a watched body's center leaves the container's inner region;
//! * **pass-through**: it leaves the region past the wall's outer face, or a body that must
//!   stay behind another is found past it while still approaching it.
//!
//! rapier gets `ccd_enabled` on every dynamic body (its strongest continuous setting: fast
//! bodies then sweep moving bodies too, where impact sweeps only its bullets against them;
//! no soft-CCD, which widens predictive contacts rather than sweeping) and
//! `allow_fast_rotation`. impact gets its defaults (every fast body swept against static
//! ones) and `bullet` where the tests set it.

use crate::scene::{BodyDesc, Motion, SceneDesc, ShapeDesc, build_impact, build_rapier};
use impact2d::benchmarks::{STEP_DT, SUBSTEPS};

/// What must hold after every step.
#[derive(Clone, Debug)]
pub enum Check {
    /// The bodies' centers stay within `inner` (escape) and within `outer` (pass-through):
    /// (lower, upper) corners in meters.
    Inside { bodies: Vec<usize>, inner: ([f32; 2], [f32; 2]), outer: ([f32; 2], [f32; 2]) },
    /// `left` stays left of `right` (by center x) unless it no longer approaches it.
    Behind { left: usize, right: usize },
}

/// A scene, its checks and its length.
pub struct Case {
    /// The scene's name; seeds of one scene share it.
    pub name: &'static str,
    /// The seed of the scene's generator, for seeded scenes.
    pub seed: Option<u64>,
    /// The bodies, the checks after every step, and how many steps.
    pub scene: SceneDesc,
    pub checks: Vec<Check>,
    pub steps: usize,
}

/// The tally of one engine on one case.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Distinct bodies that escaped / passed through at least once.
    pub escapes: usize,
    pub pass_throughs: usize,
    /// The first event: step, body index in the scene, center.
    pub first: Option<(usize, usize, [f32; 2])>,
}

/// One run: a case in both engines.
pub struct Row {
    /// The case's name and seed.
    pub case: &'static str,
    pub seed: Option<u64>,
    /// Steps run.
    pub steps: usize,
    /// What each engine did.
    pub impact: Tally,
    pub rapier: Tally,
}

/// The same generator as impact's tests/continuous_support (a 64-bit LCG), so that seeds
/// give the tests' scenes.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f32 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.next()
    }
}

fn dynamic(position: [f32; 2], shape: ShapeDesc, restitution: f32, friction: f32) -> BodyDesc {
    let mut b = BodyDesc::new(Motion::Dynamic, position, shape);
    b.restitution = restitution;
    b.friction = friction;
    b.rapier_ccd = true;
    b
}

/// Four static walls `thickness` thick around the square `center ± half` (the inside).
fn closed_box(bodies: &mut Vec<BodyDesc>, center: [f32; 2], half: f32, thickness: f32) {
    let h = 0.5 * thickness;
    let reach = half + thickness;
    for (offset, hx, hy) in [
        ([0.0, -half - h], reach, h),
        ([0.0, half + h], reach, h),
        ([-half - h, 0.0], h, reach),
        ([half + h, 0.0], h, reach),
    ] {
        let p = [center[0] + offset[0], center[1] + offset[1]];
        bodies.push(BodyDesc::new(Motion::Static, p, ShapeDesc::rect(hx, hy)));
    }
}

fn inside(bodies: Vec<usize>, center: [f32; 2], half: f32, thickness: f32) -> Check {
    let (i, o) = (half, half + thickness);
    Check::Inside {
        bodies,
        inner: ([center[0] - i, center[1] - i], [center[0] + i, center[1] + i]),
        outer: ([center[0] - o, center[1] - o], [center[0] + o, center[1] + o]),
    }
}

fn world(gravity: [f32; 2], bodies: Vec<BodyDesc>) -> SceneDesc {
    SceneDesc { gravity, max_speed: 1000.0, bodies, joints: Vec::new() }
}

/// 60 circles, boxes and capsules (0.1 to 0.4 m, friction 0.3, restitution 0 to 1, every
/// fifth a bullet) at 50 to 400 m/s and up to 20 rad/s in a closed 10 m box around `center`
/// with walls `thickness` thick, 300 steps (continuous_box.rs `thin_walled_box`).
pub fn thin_walled_box(name: &'static str, seed: u64, center: [f32; 2], thickness: f32) -> Case {
    let mut rng = Lcg(seed);
    let half = 5.0;
    // Walls first, as the tests create them: the same bodies in the same order.
    let mut bodies = Vec::new();
    closed_box(&mut bodies, center, half, thickness);
    for i in 0..60 {
        let size = rng.range(0.1, 0.4);
        let shape = match i % 3 {
            0 => ShapeDesc::Circle(size),
            1 => ShapeDesc::rect(size, rng.range(0.5, 1.0) * size),
            _ => ShapeDesc::Capsule { half: size, radius: 0.5 * size },
        };
        let (angle, speed) = (rng.range(0.0, std::f32::consts::TAU), rng.range(50.0, 400.0));
        let p = [center[0] - 4.0 + 8.0 * (i % 8) as f32 / 7.0, center[1] - 4.0 + 8.0 * (i / 8) as f32 / 7.0];
        let mut b = dynamic(p, shape, 0.0, 0.3);
        b.velocity = [speed * angle.cos(), speed * angle.sin()];
        b.spin = rng.range(-20.0, 20.0);
        b.bullet = i % 5 == 0;
        b.restitution = rng.range(0.0, 1.0);
        bodies.push(b);
    }
    let checks = vec![inside((4..64).collect(), center, half, thickness)];
    Case { name, seed: Some(seed), scene: world([0.0, -10.0], bodies), checks, steps: 300 }
}

/// Four blades 3 m × 2 cm spinning at 40 to 90 rad/s among 24 balls in a closed 12 m box with
/// 2 cm walls, 180 steps (continuous_box.rs).
pub fn blades() -> Case {
    let mut rng = Lcg(11);
    let (half, thickness) = (6.0, 0.02);
    let mut bodies = Vec::new();
    closed_box(&mut bodies, [0.0, 0.0], half, thickness);
    for (i, spin) in [40.0f32, -60.0, 75.0, -90.0].into_iter().enumerate() {
        let mut b = dynamic([-3.0 + 2.0 * i as f32, 2.5 * (i % 2) as f32 - 1.0], ShapeDesc::rect(1.5, 0.01), 0.5, 0.3);
        b.spin = spin;
        bodies.push(b);
    }
    for i in 0..24 {
        let p = [-5.0 + 10.0 * (i % 6) as f32 / 5.0, -4.5 + 2.0 * (i / 6) as f32];
        let velocity = [rng.range(-20.0, 20.0), rng.range(-20.0, 20.0)];
        let mut b = dynamic(p, ShapeDesc::Circle(rng.range(0.1, 0.3)), 0.5, 0.3);
        b.velocity = velocity;
        bodies.push(b);
    }
    let checks = vec![inside((4..32).collect(), [0.0, 0.0], half, thickness)];
    let name = "spinning blades among balls";
    Case { name, seed: None, scene: world([0.0, -10.0], bodies), checks, steps: 180 }
}

/// Two bullets (circles 5 cm, restitution 1, no gravity) fired at each other at 500 m/s,
/// 1.3 cm off axis, 30 steps (continuous_drop.rs). rapier never sweeps a bullet against
/// another, so a second variant leaves its `ccd_enabled` on the first bullet only.
pub fn head_on(rapier_ccd_on_both: bool) -> Case {
    let shot = |x: f32, y: f32, v: f32| {
        let mut b = dynamic([x, y], ShapeDesc::Circle(0.05), 1.0, 0.0);
        b.velocity = [v, 0.0];
        b.bullet = true;
        b
    };
    let mut bodies = vec![shot(-20.0, 0.013, 500.0), shot(20.0, 0.0, -500.0)];
    bodies[1].rapier_ccd = rapier_ccd_on_both;
    let checks = vec![Check::Behind { left: 0, right: 1 }];
    let name = if rapier_ccd_on_both {
        "two bullets head on at 500 m/s"
    } else {
        "two bullets head on, rapier ccd on one only"
    };
    Case { name, seed: None, scene: world([0.0, 0.0], bodies), checks, steps: 30 }
}

/// Box2D's Drop scene 4: a 10 cm ball at 200 m/s (a bullet or not) into a column of six
/// 0.5 m boxes standing before a wall, 120 steps (continuous_samples.rs).
pub fn drop_four(bullet: bool) -> Case {
    let mut bodies = vec![
        BodyDesc::new(Motion::Static, [0.0, -0.5], ShapeDesc::rect(40.0, 0.5)),
        BodyDesc::new(Motion::Static, [10.25, 5.0], ShapeDesc::rect(0.25, 5.0)),
    ];
    for i in 0..6 {
        bodies.push(dynamic([9.0, 0.25 + 0.5 * i as f32], ShapeDesc::rect(0.25, 0.25), 0.0, 0.6));
    }
    let mut shot = dynamic([-20.0, 0.9], ShapeDesc::Circle(0.1), 0.0, 0.6);
    shot.velocity = [200.0, 0.0];
    shot.bullet = bullet;
    bodies.push(shot);
    let far = 1.0e4;
    let checks = vec![
        Check::Behind { left: 8, right: 3 },
        // The boxes stay before the wall's face (x = 10) and above the ground (y = 0).
        Check::Inside {
            bodies: (2..9).collect(),
            inner: ([-far, 0.0], [10.0, far]),
            outer: ([-far, -1.0], [10.5, far]),
        },
    ];
    let name = if bullet {
        "Drop 4: bullet into a stack before a wall"
    } else {
        "Drop 4: fast ball into a stack before a wall"
    };
    Case { name, seed: None, scene: world([0.0, -10.0], bodies), checks, steps: 120 }
}

/// Every case: `seeds` seeds of the thin-walled box with 1 cm walls, a quarter as many with
/// 1 mm walls and 20 km from the origin.
pub fn cases(seeds: u64) -> Vec<Case> {
    let mut all: Vec<Case> =
        (1..=seeds).map(|s| thin_walled_box("60 fast shapes, 1 cm walls", s, [0.0, 0.0], 0.01)).collect();
    let few = (seeds / 4).max(1);
    all.extend((1..=few).map(|s| thin_walled_box("60 fast shapes, 1 mm walls", s, [0.0, 0.0], 0.001)));
    let far = [20_000.0, 20_000.0];
    all.extend((1..=few).map(|s| thin_walled_box("60 fast shapes, 1 cm walls, 20 km out", s, far, 0.01)));
    all.extend([blades(), head_on(true), head_on(false), drop_four(false), drop_four(true)]);
    all
}

/// Where every body is and how it moves, after a step.
trait Sim {
    fn step(&mut self) -> Result<(), impact2d::WorldError>;
    fn center(&self, i: usize) -> [f32; 2];
    fn velocity(&self, i: usize) -> [f32; 2];
}

struct ImpactSim(impact2d::World, Vec<impact2d::BodyId>);

impl Sim for ImpactSim {
    fn step(&mut self) -> Result<(), impact2d::WorldError> {
        self.0.step(STEP_DT, SUBSTEPS)
    }
    fn center(&self, i: usize) -> [f32; 2] {
        let c = self.0.world_center(self.1[i]).unwrap_or(impact2d::Vec2::NAN);
        [c.x, c.y]
    }
    fn velocity(&self, i: usize) -> [f32; 2] {
        let v = self.0.linear_velocity(self.1[i]).unwrap_or(impact2d::Vec2::NAN);
        [v.x, v.y]
    }
}

struct RapierSim(rapier2d::prelude::PhysicsWorld, Vec<rapier2d::prelude::RigidBodyHandle>);

impl Sim for RapierSim {
    fn step(&mut self) -> Result<(), impact2d::WorldError> {
        self.0.step();
        Ok(())
    }
    fn center(&self, i: usize) -> [f32; 2] {
        self.0.bodies.get(self.1[i]).map_or([f32::NAN; 2], |b| {
            let c = b.center_of_mass();
            [c.x, c.y]
        })
    }
    fn velocity(&self, i: usize) -> [f32; 2] {
        self.0.bodies.get(self.1[i]).map_or([f32::NAN; 2], |b| {
            let v = b.linvel();
            [v.x, v.y]
        })
    }
}

fn within(c: [f32; 2], (lo, hi): ([f32; 2], [f32; 2])) -> bool {
    c[0] > lo[0] && c[0] < hi[0] && c[1] > lo[1] && c[1] < hi[1]
}

/// Runs a case in one engine, checking after every step.
fn tally(case: &Case, sim: &mut dyn Sim) -> Result<Tally, impact2d::WorldError> {
    let n = case.scene.bodies.len();
    let (mut escaped, mut passed) = (vec![false; n], vec![false; n]);
    let mut t = Tally::default();
    for step in 0..case.steps {
        sim.step()?;
        for check in &case.checks {
            match check {
                Check::Inside { bodies, inner, outer } => {
                    for &i in bodies {
                        let c = sim.center(i);
                        if !within(c, *inner) && !escaped[i] {
                            escaped[i] = true;
                            t.escapes += 1;
                            t.first = t.first.or(Some((step, i, c)));
                        }
                        if !within(c, *outer) && !passed[i] {
                            passed[i] = true;
                            t.pass_throughs += 1;
                        }
                    }
                }
                &Check::Behind { left, right } => {
                    let (cl, cr) = (sim.center(left), sim.center(right));
                    let approaching = sim.velocity(left)[0] > sim.velocity(right)[0];
                    // A NaN center counts as passed.
                    let behind = cl[0] < cr[0];
                    if !behind && approaching && !passed[left] {
                        passed[left] = true;
                        t.pass_throughs += 1;
                        t.first = t.first.or(Some((step, left, cl)));
                    }
                }
            }
        }
    }
    Ok(t)
}

/// Runs every case in both engines.
pub fn run(seeds: u64) -> Result<Vec<Row>, impact2d::WorldError> {
    let mut rows = Vec::new();
    for case in cases(seeds) {
        let (w, ids) = build_impact(&case.scene)?;
        let impact = tally(&case, &mut ImpactSim(w, ids))?;
        let (w, handles) = build_rapier(&case.scene);
        let rapier = tally(&case, &mut RapierSim(w, handles))?;
        rows.push(Row { case: case.name, seed: case.seed, steps: case.steps, impact, rapier });
    }
    Ok(rows)
}
