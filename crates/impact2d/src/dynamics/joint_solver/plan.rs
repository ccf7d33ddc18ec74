//! The joints' own graph coloring: which joints the velocity passes solve four at a time,
//! and the passes over them.
//!
//! Revolute joints go into colors in which no two joints share a moving body (Box2D v3's
//! constraint graph coloring, applied to the joints alone), and each color into bundles of
//! four: the lanes of [`super::revolute_lanes`]. Four joints of a bundle are independent, so
//! their rows are computed side by side instead of each waiting on the velocity the one
//! before it wrote, and consecutive bundles differ in color. The other joint kinds, and the
//! revolute joints that find no free color, are solved one at a time after the bundles, in
//! joint index order.
//!
//! Joints are colored apart from the contacts: they are solved before the contacts in each
//! pass, so sharing the contacts' colors would not make either independent of the other.
//! The plan depends only on which joints are prepared and their bodies' solver states, so it
//! is found again only when those change (`World::order_joints`).

use super::revolute_lanes::{Pass, RevoluteLanes, solve_lanes, warm_start_lanes};
use super::{JointConstraint, JointStep, Softness, solve_one, warm_start_one};
use crate::dynamics::contact_solver::BodyState;
use crate::dynamics::handles::NULL;
use crate::dynamics::joint::JointKind;
use crate::encoding::Encoding;

/// The number of joint colors. A body in `n` revolute joints needs `n` colors at least; the
/// greedy coloring below needs at most `2 n - 1`, so the joints of bodies in up to six
/// revolute joints always find one (a grid's node has four, a ragdoll's torso three or four).
pub(crate) const JOINT_COLOR_COUNT: usize = 11;

/// Which joints are solved in lanes and which one at a time, and the lanes of the step.
/// Derived state: not in snapshots, found again after a load (the same plan: it is a
/// function of the prepared joints).
#[derive(Clone, Debug, Default)]
pub(crate) struct JointPlan {
    /// Whether the plan fits the prepared joints (false after a load).
    pub valid: bool,
    /// Four joints at a time, color by color: positions in the prepared joints, `NULL` for an
    /// empty lane.
    pub bundles: Vec<[u32; 4]>,
    /// The joints solved one at a time after the bundles (positions, ascending).
    pub serial: Vec<u32>,
    /// The bundles' lanes for the current step, filled from the prepared joints.
    pub lanes: Vec<RevoluteLanes>,
    /// The rigid rows' softness of the current step (every joint's `rigid`).
    pub rigid: Softness,
    /// Scratch: each color's moving states (a bit set), each joint's color.
    used: Vec<u64>,
    color: Vec<u8>,
    /// Solve the bundles' joints one at a time in the same order (tests compare the two).
    #[cfg(test)]
    pub serial_only: bool,
}

/// A joint that found no color.
const NO_COLOR: u8 = u8::MAX;

impl JointPlan {
    /// Finds the plan for `joints` (prepared, over `state_count` solver states): each revolute
    /// joint takes the first color in which neither of its moving bodies (solver state other
    /// than 0, the still state) is taken yet, in joint order, so the plan is deterministic.
    pub(crate) fn find(&mut self, joints: &[JointConstraint], state_count: usize) {
        let words = state_count.div_ceil(64);
        self.used.clear();
        self.used.resize(JOINT_COLOR_COUNT * words, 0);
        self.color.clear();
        for c in joints {
            let color = if matches!(c.kind, JointKind::Revolute(_)) { self.free_color(c, words) } else { NO_COLOR };
            self.color.push(color);
        }
        self.bundles.clear();
        for color in 0..JOINT_COLOR_COUNT as u8 {
            let mut members = self.color.iter().enumerate().filter(|&(_, &k)| k == color).map(|(i, _)| i as u32);
            loop {
                let mut bundle = [NULL; 4];
                for (lane, member) in bundle.iter_mut().zip(members.by_ref()) {
                    *lane = member;
                }
                if bundle[0] == NULL {
                    break;
                }
                self.bundles.push(bundle);
            }
        }
        self.serial.clear();
        self.serial.extend(self.color.iter().enumerate().filter(|&(_, &k)| k == NO_COLOR).map(|(i, _)| i as u32));
        self.valid = true;
    }

    /// The first color free for both moving bodies of `c`, taken for them; [`NO_COLOR`] when
    /// every color has one of them.
    fn free_color(&mut self, c: &JointConstraint, words: usize) -> u8 {
        let bit = |s: usize| (s / 64, 1u64 << (s % 64));
        for color in 0..JOINT_COLOR_COUNT {
            let set = &mut self.used[color * words..(color + 1) * words];
            let taken = |s: usize| s != 0 && set[bit(s).0] & bit(s).1 != 0;
            if taken(c.a) || taken(c.b) {
                continue;
            }
            for s in [c.a, c.b] {
                if s != 0 {
                    set[bit(s).0] |= bit(s).1;
                }
            }
            return color as u8;
        }
        NO_COLOR
    }

    /// Fills the lanes from the prepared `joints` for a step whose rigid rows have softness
    /// `rigid`.
    pub(crate) fn begin(&mut self, joints: &[JointConstraint], rigid: Softness) {
        self.rigid = rigid;
        self.lanes.resize(self.bundles.len(), RevoluteLanes::default());
        for (lanes, positions) in self.lanes.iter_mut().zip(&self.bundles) {
            lanes.fill(joints, positions);
        }
    }

    /// Applies every joint's accumulated impulses: the bundles, then the other joints.
    pub(crate) fn warm_start(&self, joints: &mut [JointConstraint], states: &mut [BodyState], encoding: Encoding) {
        if self.lanes_off() {
            self.bundles
                .iter()
                .flatten()
                .filter(|&&k| k != NULL)
                .for_each(|&k| warm_start_one(&mut joints[k as usize], states));
        } else {
            warm_start_lanes(&self.lanes, states, encoding);
        }
        for &k in &self.serial {
            warm_start_one(&mut joints[k as usize], states);
        }
    }

    /// Solves every joint once, with the rigid rows' bias (`use_bias`) or without (the relax
    /// pass): the bundles, then the other joints. `angles` are the states' angles turned
    /// since the start of the step.
    pub(crate) fn solve(
        &mut self,
        joints: &mut [JointConstraint],
        (states, angles): (&mut [BodyState], &[f32]),
        step: JointStep,
        use_bias: bool,
        encoding: Encoding,
    ) {
        if self.lanes_off() {
            for &k in self.bundles.iter().flatten().filter(|&&k| k != NULL) {
                solve_one(&mut joints[k as usize], states, angles, step, use_bias);
            }
        } else {
            solve_lanes(&mut self.lanes, states, angles, Pass { step, rigid: self.rigid, use_bias }, encoding);
        }
        for &k in &self.serial {
            solve_one(&mut joints[k as usize], states, angles, step, use_bias);
        }
    }

    /// Writes the lanes' accumulated impulses back into `joints`, after the last pass.
    pub(crate) fn end(&self, joints: &mut [JointConstraint]) {
        if self.lanes_off() {
            return;
        }
        for (lanes, positions) in self.lanes.iter().zip(&self.bundles) {
            lanes.store(joints, positions);
        }
    }

    /// Whether the bundles' joints are solved one at a time (only in tests).
    fn lanes_off(&self) -> bool {
        #[cfg(test)]
        return self.serial_only;
        #[cfg(not(test))]
        false
    }

    /// Forgets the plan (the world has no joints left).
    pub(crate) fn clear(&mut self) {
        self.valid = false;
        self.bundles.clear();
        self.serial.clear();
        self.lanes.clear();
    }
}

#[cfg(test)]
mod tests {
    use crate::dynamics::{
        BodyDef, BodyId, DistanceDef, JointDef, JointId, JointKind, PrismaticDef, RevoluteDef, ShapeDef, World,
        WorldDef,
    };
    use crate::encoding::Encoding;
    use crate::geometry::{Circle, Shape, make_box};
    use crate::math::Vec2;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Seeded draws: uniform in `lo..hi`, and an index below `n`.
    struct Rng(ChaCha8Rng);

    impl Rng {
        fn range(&mut self, lo: f32, hi: f32) -> f32 {
            self.0.random_range(lo..hi)
        }

        fn unit(&mut self) -> f32 {
            self.range(0.0, 1.0)
        }

        fn below(&mut self, n: usize) -> usize {
            self.0.random_range(0..n)
        }
    }

    /// A seeded tangle of bodies on a ground: revolute joints between random neighbors and to
    /// the ground or a kinematic body, each with a random mix of limits, motor and spring, some
    /// with a break force; a few prismatic and distance joints (solved one at a time).
    fn tangle(seed: u64) -> (World, Vec<BodyId>, Vec<JointId>) {
        let mut rng = Rng(ChaCha8Rng::seed_from_u64(seed));
        // Every fourth tangle is extreme: densities over twelve orders of magnitude, motors
        // of up to 1e30 N·m, stiff springs (impulses that overflow are masked in the lanes as
        // the scalar passes drop them).
        let extreme = seed % 4 == 3;
        let scale = |rng: &mut Rng, lo: f32, hi: f32| if extreme { 10f32.powf(rng.range(lo, hi)) } else { 1.0 };
        let mut world = World::new(&WorldDef::default()).unwrap();
        let ground = world.create_body(&BodyDef::fixed(Vec2::new(0.0, -1.0))).unwrap();
        world.create_shape(ground, &ShapeDef::default(), &Shape::Polygon(make_box(30.0, 1.0).unwrap())).unwrap();
        let kinematic = BodyDef { angular_velocity: 0.7, ..BodyDef::kinematic(Vec2::new(3.0, 9.0)) };
        let kinematic = world.create_body(&kinematic).unwrap();
        let (mut bodies, mut joints) = (Vec::new(), Vec::new());
        let count = 12 + rng.below(40);
        for i in 0..count {
            let p = Vec2::new(-8.0 + 0.9 * (i % 16) as f32, 2.0 + 1.1 * (i / 16) as f32);
            let def = BodyDef { angle: rng.range(-1.0, 1.0), ..BodyDef::dynamic(p) };
            let b = world.create_body(&def).unwrap();
            let shape = if rng.unit() < 0.5 {
                Shape::Circle(Circle::new(Vec2::ZERO, rng.range(0.15, 0.4)).unwrap())
            } else {
                Shape::Polygon(make_box(rng.range(0.1, 0.4), rng.range(0.1, 0.4)).unwrap())
            };
            let density = rng.range(0.5, 3.0) * scale(&mut rng, -6.0, 6.0);
            world.create_shape(b, &ShapeDef { density, ..ShapeDef::default() }, &shape).unwrap();
            bodies.push(b);
        }
        for i in 0..count {
            let a = bodies[i];
            let other = match rng.below(6) {
                0 => ground,
                1 => kinematic,
                _ => bodies[(i + 1 + rng.below(4)) % count],
            };
            if other == a {
                continue;
            }
            let (pa, pb) = (world.position(a).unwrap(), world.position(other).unwrap());
            let anchor = pa.lerp(pb, rng.unit());
            let kind = match rng.below(8) {
                0 => JointKind::Prismatic(PrismaticDef::new(pa, pb, Vec2::new(1.0, rng.range(-1.0, 1.0)))),
                1 => JointKind::Distance(DistanceDef::new(pa, pb)),
                _ => {
                    let mut d = RevoluteDef::new(anchor);
                    if rng.unit() < 0.4 {
                        (d.enable_limit, d.lower, d.upper) = (true, rng.range(-1.2, 0.0), rng.range(0.0, 1.2));
                    }
                    if rng.unit() < 0.3 {
                        (d.enable_motor, d.motor_speed, d.max_motor_torque) =
                            (true, rng.range(-4.0, 4.0), rng.range(0.0, 9.0) * scale(&mut rng, 0.0, 29.0));
                    }
                    if rng.unit() < 0.3 {
                        (d.enable_spring, d.hertz, d.damping_ratio) =
                            (true, rng.range(0.0, 6.0) * scale(&mut rng, 0.0, 4.0), rng.range(0.0, 1.0));
                    }
                    JointKind::Revolute(d)
                }
            };
            let mut def = JointDef::new(other, a, kind);
            if rng.unit() < 0.1 {
                def.break_force = Some(rng.range(5.0, 200.0));
            }
            joints.push(world.create_joint(&def).unwrap());
        }
        (world, bodies, joints)
    }

    /// The lanes step every seeded tangle bit for bit as the scalar passes solving the same
    /// joints one at a time in the plan's order: in both encodings, with joints breaking,
    /// destroyed and created mid-run (the plan found again).
    #[test]
    fn revolute_lanes_step_the_bits_of_the_scalar_passes() {
        let mut lanes_used = 0;
        for seed in 0..40 {
            let mut worlds: Vec<_> = (0..3).map(|_| tangle(seed)).collect();
            worlds[1].0.solver.joint_plan.serial_only = true;
            worlds[2].0.solver.contacts.encoding = Encoding::PLAIN;
            for step in 1..=90 {
                for (w, bodies, joints) in &mut worlds {
                    if step == 45 {
                        w.destroy_joint(joints.swap_remove(joints.len() / 2)).unwrap();
                        let (a, b) = (bodies[3], bodies[bodies.len() - 1]);
                        let anchor = w.position(a).unwrap();
                        joints.push(
                            w.create_joint(&JointDef::new(a, b, JointKind::Revolute(RevoluteDef::new(anchor))))
                                .unwrap(),
                        );
                    }
                    w.step(1.0 / 60.0, 4).unwrap();
                }
                let [(first, bodies, ids), (serial, _, serial_ids), (plain, _, _)] = &worlds[..] else {
                    unreachable!()
                };
                for &b in bodies {
                    let (p, v) = (first.position(b).unwrap(), first.linear_velocity(b).unwrap());
                    assert!(p.is_finite() && v.is_finite(), "seed {seed}, step {step}: a body left the finite numbers");
                }
                lanes_used += first.solver.joint_plan.bundles.len();
                let sum = first.state_checksum();
                assert_eq!(sum, serial.state_checksum(), "seed {seed}, step {step}: lanes against scalar");
                assert_eq!(sum, plain.state_checksum(), "seed {seed}, step {step}: AVX against plain encodings");
                for (&id, &other) in ids.iter().zip(serial_ids) {
                    let force = first.joint_reaction_force(id).unwrap();
                    let torque = first.joint_reaction_torque(id).unwrap();
                    assert_eq!(force, serial.joint_reaction_force(other).unwrap(), "seed {seed}, step {step}");
                    assert_eq!(torque.to_bits(), serial.joint_reaction_torque(other).unwrap().to_bits());
                }
            }
        }
        assert!(lanes_used > 1000, "the tangles have bundles ({lanes_used})");
    }
}
