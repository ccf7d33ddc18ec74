//! Islands and sleep.
//!
//! An island is a set of dynamic bodies linked by touching solid contacts; static and
//! kinematic bodies link nothing (they would join the whole world into one island). Islands
//! are persistent: when a touch begins between two dynamic bodies of different islands, the
//! smaller island joins the larger at once (waking it if it slept); when a touch ends, the
//! island is only marked, and split into its connected parts when it next tries to sleep
//! (Box2D v3's lazy splitting), so the common case of contacts coming and going in an awake
//! pile costs nothing.
//!
//! An island sleeps when every body in it has rested (linear speed below
//! [`SLEEP_LINEAR_THRESHOLD`], angular below [`SLEEP_ANGULAR_THRESHOLD`]) for
//! [`TIME_TO_SLEEP`] seconds; a body that may not sleep, or that touches a moving kinematic
//! body, keeps its island awake. A sleeping body keeps its place and has zero velocity; it is
//! neither solved nor collided, and wakes with its whole island when an awake body begins to
//! touch it, when a moving body touches it, when the user moves it, pushes it or wakes it,
//! or when a shape or body touching it is destroyed.
//!
//! Kinematic bodies are not in islands: each sleeps on its own after resting for
//! [`TIME_TO_SLEEP`].

use super::body::BodyType;
use super::handles::NULL;
use super::world::World;
use crate::settings::{SLEEP_ANGULAR_THRESHOLD, SLEEP_LINEAR_THRESHOLD, TIME_TO_SLEEP};

/// One island: a doubly linked list of bodies through `Body::island_prev/next`.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Island {
    pub head: u32,
    pub tail: u32,
    pub count: u32,
    pub awake: bool,
    /// Touching contacts removed since the island was last known connected.
    pub removed: u32,
    /// The step whose sleep pass last looked at the island, and the least sleep time of its
    /// bodies then.
    pub stamp: u64,
    pub min_sleep_time: f32,
}

/// The islands, in generational-free slots (islands have no public handles).
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Islands {
    pub items: Vec<Island>,
    free: Vec<u32>,
    live: Vec<bool>,
}

impl Islands {
    fn create(&mut self, awake: bool) -> u32 {
        let island =
            Island { head: NULL, tail: NULL, count: 0, awake, removed: 0, stamp: u64::MAX, min_sleep_time: 0.0 };
        match self.free.pop() {
            Some(i) => {
                self.items[i as usize] = island;
                self.live[i as usize] = true;
                i
            }
            None => {
                self.items.push(island);
                self.live.push(true);
                (self.items.len() - 1) as u32
            }
        }
    }

    fn destroy(&mut self, index: u32) {
        self.live[index as usize] = false;
        self.free.push(index);
    }

    /// Marks an island whose touching contacts lost one: it may have come apart.
    #[inline]
    pub fn mark_split(&mut self, index: u32) {
        if index != NULL {
            self.items[index as usize].removed += 1;
        }
    }

    /// The number of live islands.
    pub fn count(&self) -> usize {
        self.live.iter().filter(|l| **l).count()
    }
}

impl World {
    /// Puts a new dynamic body into an island of its own, awake or asleep.
    pub(crate) fn add_body_island(&mut self, body: u32, awake: bool) {
        let island = self.islands.create(awake);
        self.append_to_island(island, body);
    }

    fn append_to_island(&mut self, island: u32, body: u32) {
        let tail = self.islands.items[island as usize].tail;
        {
            let b = &mut self.bodies[body];
            b.island = island;
            b.island_prev = tail;
            b.island_next = NULL;
        }
        if tail != NULL {
            self.bodies[tail].island_next = body;
        } else {
            self.islands.items[island as usize].head = body;
        }
        let isl = &mut self.islands.items[island as usize];
        isl.tail = body;
        isl.count += 1;
    }

    /// Takes a body out of its island (before destroying it); the island is marked for
    /// splitting, and freed when empty.
    pub(crate) fn remove_body_island(&mut self, body: u32) {
        let (island, prev, next) = {
            let b = &self.bodies[body];
            (b.island, b.island_prev, b.island_next)
        };
        if island == NULL {
            return;
        }
        if prev != NULL {
            self.bodies[prev].island_next = next;
        } else {
            self.islands.items[island as usize].head = next;
        }
        if next != NULL {
            self.bodies[next].island_prev = prev;
        } else {
            self.islands.items[island as usize].tail = prev;
        }
        let b = &mut self.bodies[body];
        b.island = NULL;
        b.island_prev = NULL;
        b.island_next = NULL;
        let isl = &mut self.islands.items[island as usize];
        isl.count -= 1;
        isl.removed += 1;
        if isl.count == 0 {
            self.islands.destroy(island);
        }
    }

    /// Joins the islands of two dynamic bodies that began to touch: the smaller list is
    /// relabeled and spliced onto the larger.
    pub(crate) fn link_islands(&mut self, a: u32, b: u32) {
        let (ia, ib) = (self.bodies[a].island, self.bodies[b].island);
        if ia == ib || ia == NULL || ib == NULL {
            return;
        }
        let (big, small) = if self.islands.items[ia as usize].count >= self.islands.items[ib as usize].count {
            (ia, ib)
        } else {
            (ib, ia)
        };
        let s = self.islands.items[small as usize];
        let mut body = s.head;
        while body != NULL {
            self.bodies[body].island = big;
            body = self.bodies[body].island_next;
        }
        let big_tail = self.islands.items[big as usize].tail;
        self.bodies[big_tail].island_next = s.head;
        self.bodies[s.head].island_prev = big_tail;
        let isl = &mut self.islands.items[big as usize];
        isl.tail = s.tail;
        isl.count += s.count;
        isl.removed += s.removed;
        self.islands.destroy(small);
    }

    /// Wakes a body: a dynamic body's whole island, a kinematic body alone.
    pub(crate) fn wake_body_index(&mut self, body: u32) {
        let b = &self.bodies[body];
        if !b.enabled {
            return;
        }
        match b.body_type {
            BodyType::Static => {}
            BodyType::Kinematic => {
                if !b.is_awake() {
                    self.awake_insert(body);
                }
                self.bodies[body].sleep_time = 0.0;
            }
            BodyType::Dynamic => {
                let island = b.island;
                if !self.islands.items[island as usize].awake {
                    self.islands.items[island as usize].awake = true;
                    let mut next = self.islands.items[island as usize].head;
                    while next != NULL {
                        self.awake_insert(next);
                        self.bodies[next].sleep_time = 0.0;
                        next = self.bodies[next].island_next;
                    }
                }
                self.bodies[body].sleep_time = 0.0;
            }
        }
    }

    /// Adds a body to the awake set, its contacts to the awake contacts, and those that now need
    /// solving to the constraint graph.
    pub(crate) fn awake_insert(&mut self, body: u32) {
        debug_assert_eq!(self.bodies[body].awake_index, NULL);
        self.bodies[body].awake_index = self.awake.len() as u32;
        self.awake.push(body);
        let mut key = self.bodies[body].contact_head;
        while key != NULL {
            self.awake_contacts.insert(key >> 1);
            self.refresh_graph(key >> 1);
            key = self.contacts[key >> 1].edges[(key & 1) as usize].next;
        }
    }

    /// Takes a body out of the awake set (the last awake body takes its place), its contacts
    /// whose other body sleeps out of the awake contacts, and its contacts out of the
    /// constraint graph unless they are still solved (a kinematic body falling asleep).
    pub(crate) fn awake_remove(&mut self, body: u32) {
        let i = self.bodies[body].awake_index;
        if i == NULL {
            return;
        }
        self.awake.swap_remove(i as usize);
        if let Some(&moved) = self.awake.get(i as usize) {
            self.bodies[moved].awake_index = i;
        }
        self.bodies[body].awake_index = NULL;
        // Its contacts stay in the awake set while their other body is awake.
        let mut key = self.bodies[body].contact_head;
        while key != NULL {
            let c = &self.contacts[key >> 1];
            let other = if key & 1 == 0 { c.body_b } else { c.body_a };
            let next = c.edges[(key & 1) as usize].next;
            if !self.bodies[other].is_awake() {
                self.awake_contacts.remove(key >> 1);
            }
            self.refresh_graph(key >> 1);
            key = next;
        }
    }

    /// After a step of `dt` seconds: every awake body's rest time, then the islands whose
    /// bodies all rested long enough go to sleep (split first if a touch ended in them).
    pub(crate) fn update_sleep(&mut self, dt: f32, step: u64) {
        // Rest times.
        for &body in &self.awake {
            let b = &mut self.bodies[body];
            let resting = b.linear_velocity.length_squared() <= SLEEP_LINEAR_THRESHOLD * SLEEP_LINEAR_THRESHOLD
                && b.angular_velocity.abs() <= SLEEP_ANGULAR_THRESHOLD;
            b.sleep_time = if b.sleep_allowed && resting && self.def.enable_sleep { b.sleep_time + dt } else { 0.0 };
        }
        // A moving kinematic body keeps what it touches awake.
        for i in 0..self.awake.len() {
            let body = self.awake[i];
            if self.bodies[body].body_type != BodyType::Kinematic || self.bodies[body].sleep_time > 0.0 {
                continue;
            }
            let mut key = self.bodies[body].contact_head;
            while key != NULL {
                let c = &self.contacts[key >> 1];
                let other = if key & 1 == 0 { c.body_b } else { c.body_a };
                let next = c.edges[(key & 1) as usize].next;
                if c.is_touching() && !c.is_sensor() {
                    self.bodies[other].sleep_time = 0.0;
                }
                key = next;
            }
            self.keep_joint_partners_awake(body);
        }
        if !self.def.enable_sleep {
            return;
        }
        // The least rest time of each awake island, in the order of the awake set.
        let mut candidates = std::mem::take(&mut self.scratch_islands);
        candidates.clear();
        let mut kinematic_sleepers = std::mem::take(&mut self.scratch_bodies);
        kinematic_sleepers.clear();
        for &body in &self.awake {
            let b = &self.bodies[body];
            if b.body_type == BodyType::Kinematic {
                if b.sleep_time >= TIME_TO_SLEEP {
                    kinematic_sleepers.push(body);
                }
                continue;
            }
            let isl = &mut self.islands.items[b.island as usize];
            if isl.stamp != step {
                isl.stamp = step;
                isl.min_sleep_time = b.sleep_time;
                candidates.push(b.island);
            } else {
                isl.min_sleep_time = isl.min_sleep_time.min(b.sleep_time);
            }
        }
        for &body in &kinematic_sleepers {
            self.bodies[body].linear_velocity = crate::math::Vec2::ZERO;
            self.bodies[body].angular_velocity = 0.0;
            self.awake_remove(body);
            self.slept.push((body, self.bodies.generations[body as usize]));
        }
        for &island in &candidates {
            if self.islands.items[island as usize].min_sleep_time < TIME_TO_SLEEP {
                continue;
            }
            self.sleep_or_split(island);
        }
        self.scratch_islands = candidates;
        self.scratch_bodies = kinematic_sleepers;
    }

    /// Puts an island whose bodies all rested long enough to sleep, split first if a touch
    /// ended in it (each part then sleeps).
    pub(crate) fn sleep_or_split(&mut self, island: u32) {
        if self.islands.items[island as usize].removed > 0 {
            self.split_island(island);
        } else {
            self.sleep_island(island);
        }
    }

    /// Puts an island to sleep: its bodies leave the awake set with zero velocity.
    fn sleep_island(&mut self, island: u32) {
        self.islands.items[island as usize].awake = false;
        let mut body = self.islands.items[island as usize].head;
        while body != NULL {
            let b = &mut self.bodies[body];
            b.linear_velocity = crate::math::Vec2::ZERO;
            b.angular_velocity = 0.0;
            b.sleep_time = 0.0;
            let next = b.island_next;
            self.awake_remove(body);
            self.slept.push((body, self.bodies.generations[body as usize]));
            body = next;
        }
    }

    /// Splits an island into its connected parts (depth first over touching solid contacts
    /// between dynamic bodies, from the bodies in list order); the first part keeps the
    /// island, the others get new ones. Parts whose bodies all rested long enough sleep.
    fn split_island(&mut self, island: u32) {
        let mut members = std::mem::take(&mut self.scratch_members);
        members.clear();
        let mut body = self.islands.items[island as usize].head;
        while body != NULL {
            members.push(body);
            self.bodies[body].island = NULL;
            body = self.bodies[body].island_next;
        }
        self.islands.destroy(island);
        let mut stack = std::mem::take(&mut self.scratch_stack);
        for &seed in &members {
            if self.bodies[seed].island != NULL {
                continue;
            }
            let part = self.islands.create(true);
            let mut min_sleep = f32::INFINITY;
            stack.clear();
            stack.push(seed);
            self.bodies[seed].island = part;
            while let Some(body) = stack.pop() {
                self.bodies[body].island = NULL;
                self.append_to_island(part, body);
                min_sleep = min_sleep.min(self.bodies[body].sleep_time);
                let mut key = self.bodies[body].contact_head;
                while key != NULL {
                    let c = &self.contacts[key >> 1];
                    let next = c.edges[(key & 1) as usize].next;
                    let other = if key & 1 == 0 { c.body_b } else { c.body_a };
                    if c.is_touching() && !c.is_sensor() {
                        let o = &mut self.bodies.items[other as usize];
                        if o.body_type == BodyType::Dynamic && o.island == NULL {
                            // Claimed now, appended when popped.
                            o.island = part;
                            stack.push(other);
                        }
                    }
                    key = next;
                }
                self.claim_joint_partners(body, part, &mut stack);
            }
            if min_sleep >= TIME_TO_SLEEP {
                self.sleep_island(part);
            }
        }
        self.scratch_stack = stack;
        self.scratch_members = members;
    }
}
