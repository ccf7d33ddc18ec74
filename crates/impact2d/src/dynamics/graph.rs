//! The constraint graph: the solver's colors, kept from step to step.
//!
//! A contact constraint is solved four at a time with three others that share no dynamic body
//! with it, so the constraints are split into *colors*: sets in which no dynamic body appears
//! twice. Instead of coloring every constraint every step, a contact takes a color when it
//! starts to need solving and keeps it until it stops (Box2D v3's constraint graph): when its
//! touch begins or ends, when its bodies wake or fall asleep, when it is destroyed. A contact
//! needs solving when it is a touching solid contact with a dynamic body and all its dynamic
//! bodies are awake ([`World::refresh_graph`] applies that rule after each such change).
//!
//! A contact takes the lowest color that neither of its dynamic bodies uses yet (a bitmask of
//! used colors per body); a contact with one dynamic body skips color 0, so that contacts with
//! the ground are solved after the first color of contacts between bodies. Static and
//! kinematic bodies take no place in a color (the solver never changes their velocity). A
//! contact that finds no free color among [`GRAPH_COLOR_COUNT`] goes to the *overflow*,
//! solved one at a time after the colors. Removal swaps the last contact of the color into the
//! freed place. The assignment therefore depends only on the sequence of world operations.
//!
//! Source: Catto, Box2D v3 (`constraint_graph.c`) and "Solver2D" (2024), for the idea of
//! persistent colors with an overflow.

use super::contact::Contact;
use super::world::World;
use crate::settings::GRAPH_COLOR_COUNT;

/// The color of a contact that is not in the graph.
pub(crate) const NO_COLOR: u8 = u8::MAX;

/// The color index of the overflow (after the real colors).
pub(crate) const OVERFLOW: u8 = GRAPH_COLOR_COUNT as u8;

const _: () = assert!(GRAPH_COLOR_COUNT <= 32, "a body's used colors are one u32 bitmask");

/// Every color that a contact between two dynamic bodies may take.
const ALL_COLORS: u32 = if GRAPH_COLOR_COUNT == 32 { u32::MAX } else { (1u32 << GRAPH_COLOR_COUNT) - 1 };

/// The colors of the contacts being solved.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct ConstraintGraph {
    /// Per color, then the overflow: the contact indices it holds, in the order they came
    /// (up to the swaps of removal).
    pub colors: Vec<Vec<u32>>,
    /// Per body index: the colors its contacts in the graph hold, one bit each.
    body_colors: Vec<u32>,
}

impl Default for ConstraintGraph {
    fn default() -> Self {
        ConstraintGraph { colors: vec![Vec::new(); GRAPH_COLOR_COUNT + 1], body_colors: Vec::new() }
    }
}

impl ConstraintGraph {
    /// The colors a body's contacts hold.
    #[inline]
    fn used(&self, body: Option<u32>) -> u32 {
        body.and_then(|b| self.body_colors.get(b as usize)).copied().unwrap_or(0)
    }

    /// Marks or clears `bit` in a body's used colors.
    #[inline]
    fn mark(&mut self, body: Option<u32>, bit: u32, set: bool) {
        let Some(b) = body else { return };
        if b as usize >= self.body_colors.len() {
            self.body_colors.resize(b as usize + 1, 0);
        }
        let mask = &mut self.body_colors[b as usize];
        *mask = if set { *mask | bit } else { *mask & !bit };
    }

    /// Adds a contact whose dynamic bodies are `body_a` and `body_b` (`None` for a static or
    /// kinematic one; at least one is dynamic): it takes the lowest free color, or the
    /// overflow. Returns the color and the contact's place in it.
    pub fn add(&mut self, contact: u32, body_a: Option<u32>, body_b: Option<u32>) -> (u8, u32) {
        let allowed = if body_a.is_some() && body_b.is_some() { ALL_COLORS } else { ALL_COLORS & !1 };
        let free = allowed & !(self.used(body_a) | self.used(body_b));
        let color = if free == 0 { OVERFLOW } else { free.trailing_zeros() as u8 };
        if color != OVERFLOW {
            self.mark(body_a, 1 << color, true);
            self.mark(body_b, 1 << color, true);
        }
        let list = &mut self.colors[color as usize];
        list.push(contact);
        (color, (list.len() - 1) as u32)
    }

    /// Removes the contact at `slot` of `color` (added with these bodies). The last contact of
    /// the color takes its place: that contact is returned, to be told its new slot.
    pub fn remove(&mut self, color: u8, slot: u32, body_a: Option<u32>, body_b: Option<u32>) -> Option<u32> {
        if color != OVERFLOW {
            self.mark(body_a, 1 << color, false);
            self.mark(body_b, 1 << color, false);
        }
        let list = &mut self.colors[color as usize];
        list.swap_remove(slot as usize);
        list.get(slot as usize).copied()
    }

    /// The number of contacts per color, and in the overflow.
    pub fn sizes(&self) -> ([u32; GRAPH_COLOR_COUNT], u32) {
        let sizes = std::array::from_fn(|i| self.colors[i].len() as u32);
        (sizes, self.colors[GRAPH_COLOR_COUNT].len() as u32)
    }
}

impl World {
    /// The contact's dynamic bodies (`None` for a static or kinematic one), as the graph
    /// tracks them.
    fn graph_bodies(&self, c: &Contact) -> (Option<u32>, Option<u32>) {
        let dynamic = |b: u32| self.bodies[b].is_dynamic().then_some(b);
        (dynamic(c.body_a), dynamic(c.body_b))
    }

    /// Whether a contact must be solved: a touching solid contact with a dynamic body, whose
    /// dynamic bodies are all awake.
    fn needs_solving(&self, c: &Contact) -> bool {
        if !c.is_touching() || c.is_sensor() {
            return false;
        }
        match self.graph_bodies(c) {
            (None, None) => false,
            (a, b) => [a, b].into_iter().flatten().all(|body| self.bodies[body].is_awake()),
        }
    }

    /// Puts a contact into the graph or takes it out, as [`World::needs_solving`] says: called
    /// after every change that can change the answer (touch, sleep, wake, destruction).
    pub(crate) fn refresh_graph(&mut self, index: u32) {
        let c = &self.contacts[index];
        let (want, has) = (self.needs_solving(c), c.color != NO_COLOR);
        if want && !has {
            let (a, b) = self.graph_bodies(c);
            let (color, slot) = self.graph.add(index, a, b);
            let c = &mut self.contacts[index];
            (c.color, c.color_slot) = (color, slot);
        } else if has && !want {
            self.leave_graph(index);
        }
    }

    /// Takes a contact out of the graph (if it is in).
    pub(crate) fn leave_graph(&mut self, index: u32) {
        let c = &self.contacts[index];
        if c.color == NO_COLOR {
            return;
        }
        let (a, b) = self.graph_bodies(c);
        let (color, slot) = (c.color, c.color_slot);
        if let Some(moved) = self.graph.remove(color, slot, a, b) {
            self.contacts[moved].color_slot = slot;
        }
        self.contacts[index].color = NO_COLOR;
    }

    /// Checks the graph against the contacts (for tests): every contact that needs solving is
    /// in exactly one color or the overflow at the place it records, no other contact is, no
    /// color holds two contacts sharing a dynamic body, and the bodies' used colors are
    /// exactly those of their contacts. Returns the first inconsistency found.
    #[cfg(test)]
    pub(crate) fn check_graph(&self) -> Result<(), String> {
        let mut seen = std::collections::BTreeSet::new();
        let mut used = vec![0u32; self.graph.body_colors.len().max(self.bodies.items.len())];
        for (color, list) in self.graph.colors.iter().enumerate() {
            let mut bodies = std::collections::BTreeSet::new();
            for (slot, &index) in list.iter().enumerate() {
                if !self.contacts.live[index as usize] {
                    return Err(format!("color {color} holds dead contact {index}"));
                }
                let c = &self.contacts[index];
                if (c.color as usize, c.color_slot as usize) != (color, slot) {
                    return Err(format!("contact {index} at {color}/{slot} records {}/{}", c.color, c.color_slot));
                }
                if !seen.insert(index) {
                    return Err(format!("contact {index} is in the graph twice"));
                }
                if !self.needs_solving(c) {
                    return Err(format!("contact {index} is in color {color} but needs no solving"));
                }
                if color == OVERFLOW as usize {
                    continue;
                }
                let (a, b) = self.graph_bodies(c);
                for body in [a, b].into_iter().flatten() {
                    if !bodies.insert(body) {
                        return Err(format!("color {color} holds two contacts of body {body}"));
                    }
                    used[body as usize] |= 1 << color;
                }
            }
        }
        for index in self.contacts.live_indices() {
            let c = &self.contacts[index];
            if self.needs_solving(c) != seen.contains(&index) {
                return Err(format!("contact {index} needs solving but is not in the graph"));
            }
            if !seen.contains(&index) && c.color != NO_COLOR {
                return Err(format!("contact {index} records color {} outside the graph", c.color));
            }
        }
        let recorded = self.graph.body_colors.iter().copied().chain(std::iter::repeat(0));
        match used.iter().zip(recorded).position(|(u, r)| *u != r) {
            Some(body) => Err(format!("body {body}'s used colors are out of date")),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Random adds and removes on a small set of bodies (body 0 stands for "static"), checked
    /// after each against the rule: no color holds a body twice, the places recorded are
    /// right, and the used-color masks match the colors' contents.
    #[test]
    fn random_adds_and_removes_keep_colors_disjoint() {
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let mut graph = ConstraintGraph::default();
        /// A contact in the graph: its bodies, color, slot and index.
        type Member = (Option<u32>, Option<u32>, u8, u32, u32);
        let mut members: Vec<Member> = Vec::new();
        let mut next_contact = 0u32;
        let mut overflowed = 0;
        for _ in 0..6_000 {
            if members.is_empty() || rng.random_range(0..100) < 55 {
                let body = |rng: &mut ChaCha8Rng| {
                    let b = rng.random_range(0..12u32);
                    (b != 0).then_some(b)
                };
                let (a, b) = (body(&mut rng), body(&mut rng));
                if a.is_none() && b.is_none() || a == b {
                    continue;
                }
                let (color, slot) = graph.add(next_contact, a, b);
                overflowed += usize::from(color == OVERFLOW);
                if a.is_none() || b.is_none() {
                    assert_ne!(color, 0, "a contact with one dynamic body skips color 0");
                }
                members.push((a, b, color, slot, next_contact));
                next_contact += 1;
            } else {
                let i = rng.random_range(0..members.len());
                let (a, b, color, slot, _) = members.swap_remove(i);
                if let Some(moved) = graph.remove(color, slot, a, b) {
                    let m = members.iter_mut().find(|m| m.4 == moved).expect("the moved contact is a member");
                    assert_eq!((m.2, m.3), (color, graph.colors[color as usize].len() as u32));
                    m.3 = slot;
                }
            }
            let mut used = [0u32; 12];
            for &(a, b, color, slot, contact) in &members {
                assert_eq!(graph.colors[color as usize][slot as usize], contact);
                if color == OVERFLOW {
                    continue;
                }
                for body in [a, b].into_iter().flatten() {
                    assert_eq!(used[body as usize] & (1 << color), 0, "body {body} twice in color {color}");
                    used[body as usize] |= 1 << color;
                }
            }
            let total: usize = graph.colors.iter().map(Vec::len).sum();
            assert_eq!(total, members.len());
            for (body, &mask) in used.iter().enumerate() {
                assert_eq!(graph.used(Some(body as u32)), mask);
            }
        }
        // Eleven bodies with many contacts each: the colors run out now and then.
        assert!(overflowed > 0);
    }

    /// What [`churn`] saw.
    struct Churn {
        world: World,
        slept: bool,
        overflowed: bool,
        most_solved: usize,
    }

    /// A pile that falls asleep, is woken, pushed, cut and refilled by random operations from
    /// `seed`, with a sensor and a kinematic body; the graph is checked after every step and
    /// every operation.
    fn churn(seed: u64) -> Churn {
        use crate::dynamics::{BodyDef, BodyId, ShapeDef};
        use crate::geometry::{Circle, Shape, make_box};
        use crate::math::Vec2;

        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut world = World::new(&crate::dynamics::WorldDef::default()).unwrap();
        let square = Shape::Polygon(make_box(0.5, 0.5).unwrap());
        let ball = Shape::Circle(Circle::new(Vec2::ZERO, 0.4).unwrap());
        let ground = world.create_body(&BodyDef::fixed(Vec2::new(0.0, -1.0))).unwrap();
        world.create_shape(ground, &ShapeDef::default(), &Shape::Polygon(make_box(20.0, 1.0).unwrap())).unwrap();
        let sensor = ShapeDef { sensor: true, ..ShapeDef::default() };
        world.create_shape(ground, &sensor, &Shape::Polygon(make_box(3.0, 3.0).unwrap())).unwrap();
        // A kinematic block that rests (and so falls asleep) where the pile lands.
        let block = world.create_body(&BodyDef::kinematic(Vec2::new(4.0, 0.5))).unwrap();
        world.create_shape(block, &ShapeDef::default(), &square).unwrap();
        let mut bodies: Vec<BodyId> = Vec::new();
        let drop = |world: &mut World, rng: &mut ChaCha8Rng| {
            let position = Vec2::new(rng.random_range(-15.0..15.0), rng.random_range(0.5..6.0));
            // Damped, so that rolling balls come to rest too.
            let def = BodyDef { linear_damping: 0.5, angular_damping: 2.0, ..BodyDef::dynamic(position) };
            let body = world.create_body(&def).unwrap();
            let shape = if rng.random_range(0..3) == 0 { &ball } else { &square };
            world.create_shape(body, &ShapeDef::default(), shape).unwrap();
            body
        };
        for _ in 0..40 {
            bodies.push(drop(&mut world, &mut rng));
        }
        let (mut slept, mut overflowed, mut most_solved) = (false, false, 0);
        for step in 0..750 {
            world.step(1.0 / 60.0, 4).unwrap();
            world.check_graph().unwrap_or_else(|e| panic!("after step {step}: {e}"));
            slept |= world.awake_body_count() < bodies.len();
            overflowed |= world.graph.sizes().1 > 0;
            most_solved = most_solved.max(world.graph.colors.iter().map(Vec::len).sum::<usize>());
            // Quiet spells of 200 steps, the block stopped, let the piles sleep before the
            // operations resume.
            if step % 250 == 51 {
                world.set_linear_velocity(block, Vec2::ZERO).unwrap();
            }
            if step % 250 > 50 || rng.random_range(0..4) != 0 {
                continue;
            }
            let pick = rng.random_range(0..bodies.len());
            match rng.random_range(0..6) {
                0 => {
                    world.destroy_body(bodies.swap_remove(pick)).unwrap();
                    bodies.push(drop(&mut world, &mut rng));
                }
                1 => {
                    let shape = world.body_shapes(bodies[pick]).unwrap()[0];
                    world.destroy_shape(shape).unwrap();
                    world.create_shape(bodies[pick], &ShapeDef::default(), &ball).unwrap();
                }
                2 => world.wake_body(bodies[pick]).unwrap(),
                3 => world.apply_linear_impulse_to_center(bodies[pick], Vec2::new(0.0, 8.0)).unwrap(),
                4 => world.set_transform(bodies[pick], Vec2::new(rng.random_range(-15.0..15.0), 5.0), 0.3).unwrap(),
                _ => world.set_linear_velocity(block, Vec2::new(rng.random_range(-1.0..1.0), 0.0)).unwrap(),
            }
            world.check_graph().unwrap_or_else(|e| panic!("after an operation at step {step}: {e}"));
        }
        Churn { world, slept, overflowed, most_solved }
    }

    /// Through touches, sleep, waking and destruction the graph holds exactly the contacts that
    /// need solving, and no color holds a dynamic body twice.
    #[test]
    fn the_world_keeps_its_graph_through_touches_sleep_and_destruction() {
        let c = churn(7);
        assert!(c.slept, "the pile fell asleep at some point");
        assert!(c.most_solved > 40, "the pile touched: {} contacts solved at most", c.most_solved);
        assert!(!c.overflowed, "no body of the pile has 23 contacts");
    }

    /// The colors depend only on the sequence of world operations: the same run twice ends
    /// with the same contacts in the same places of the same colors, and the same bodies.
    #[test]
    fn the_colors_depend_only_on_the_operations() {
        let (a, b) = (churn(11), churn(11));
        assert_eq!(a.world.graph.colors, b.world.graph.colors);
        assert_eq!(a.world.state_checksum(), b.world.state_checksum());
        assert!(a.world.graph.colors.iter().any(|list| !list.is_empty()), "the last step solved contacts");
    }

    /// Forty boxes on one dynamic plank: the plank's contacts take every color and the rest
    /// go to the overflow, and the stack still comes to rest, boxes on the plank on the ground,
    /// and falls asleep.
    #[test]
    fn a_body_with_more_contacts_than_colors_overflows_and_rests() {
        use crate::dynamics::{BodyDef, ShapeDef};
        use crate::geometry::{Shape, make_box};
        use crate::math::Vec2;

        let mut world = World::new(&crate::dynamics::WorldDef::default()).unwrap();
        let ground = world.create_body(&BodyDef::fixed(Vec2::new(0.0, -1.0))).unwrap();
        world.create_shape(ground, &ShapeDef::default(), &Shape::Polygon(make_box(50.0, 1.0).unwrap())).unwrap();
        // A plank 40 m long and 0.2 m thick with its bottom on y = 0.
        let plank = world.create_body(&BodyDef::dynamic(Vec2::new(0.0, 0.1))).unwrap();
        world.create_shape(plank, &ShapeDef::default(), &Shape::Polygon(make_box(20.0, 0.1).unwrap())).unwrap();
        // Boxes of 0.5 m, 1 m apart, their bottoms on the plank's top (y = 0.2).
        let square = Shape::Polygon(make_box(0.25, 0.25).unwrap());
        let boxes: Vec<_> = (0..40)
            .map(|i| {
                let body = world.create_body(&BodyDef::dynamic(Vec2::new(i as f32 - 19.5, 0.45))).unwrap();
                world.create_shape(body, &ShapeDef::default(), &square).unwrap();
                body
            })
            .collect();
        for step in 0..120 {
            world.step(1.0 / 60.0, 4).unwrap();
            world.check_graph().unwrap();
            if step == 10 {
                // 41 contacts of the plank: one per color (the ground's from color 1), the
                // others in the overflow, where they are solved one at a time.
                let (sizes, overflow) = world.solver_colors();
                assert_eq!((sizes.len(), overflow), (GRAPH_COLOR_COUNT, 41 - GRAPH_COLOR_COUNT as u32), "{sizes:?}");
                assert_eq!(sizes.iter().sum::<u32>() + overflow, 41);
            }
        }
        // At rest the whole stack sleeps and leaves the graph.
        assert_eq!(world.awake_body_count(), 0);
        assert!(world.graph.colors.iter().all(Vec::is_empty));
        let plank_y = world.position(plank).unwrap().y;
        assert!((plank_y - 0.1).abs() < 0.01, "the plank rests on the ground: y = {plank_y}");
        for body in boxes {
            let (p, v) = (world.position(body).unwrap(), world.linear_velocity(body).unwrap());
            assert!((p.y - 0.45).abs() < 0.01, "a box rests on the plank: y = {}", p.y);
            assert!(v.length() < 0.01, "a box is at rest: {v:?}");
        }
    }
}
