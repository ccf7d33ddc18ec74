//! Contacts: one record per pair of shapes whose fat AABBs overlap, made when the broad phase
//! reports the pair begun and removed when it reports it ended. Every step the narrow phase
//! brings the manifold of each contact with an awake body up to date; a contact is touching
//! while its manifold has points (speculative ones included, as the solver acts on them).
//! Accumulated impulses are carried from one step's points to the next by feature id, so the
//! solver can warm start.
//!
//! A contact with a sensor shape is a sensor contact: it never reaches the solver or the
//! islands, and it touches while the shapes overlap (distance ≤ 0).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::collider::Collider;
use super::continuous::deep_in_fixed_shape;
use super::events::{ContactBeginEvent, ContactEndEvent, SensorBeginEvent, SensorEndEvent};
use super::graph::NO_COLOR;
use super::handles::{NULL, ShapeId};
use super::joint_world::joined_without_collision;
use super::world::World;
use crate::broad_phase::PairKey;
use crate::math::{Transform, Vec2};
use crate::narrow_phase::{FeatureId, Manifold, collide, collide_into};
use crate::settings::{
    CONTACT_RECYCLE_ANGULAR_TOLERANCE, CONTACT_RECYCLE_LINEAR_TOLERANCE, MAX_FRICTION, MAX_RESTITUTION,
    SPECULATIVE_DISTANCE,
};

/// The solver's memory of one manifold point, carried over by feature id. Four floats in
/// order (`repr(C)`), so that the solver writes it as one row of its lanes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct PointImpulse {
    /// Accumulated normal impulse of the last step (N·s).
    pub normal: f32,
    /// Accumulated friction impulse of the last step (N·s).
    pub tangent: f32,
    /// The largest accumulated normal impulse during the last step (N·s): zero for a
    /// speculative point the solver never had to act on.
    pub max_normal: f32,
    /// The relative normal velocity before the last step (m/s, negative when approaching).
    pub approach: f32,
}

/// The contact flags.
pub(crate) mod flags {
    /// The manifold has points (or, for a sensor contact, the shapes overlap).
    pub const TOUCHING: u8 = 1;
    /// Shape A is a sensor.
    pub const SENSOR_A: u8 = 2;
    /// Shape B is a sensor.
    pub const SENSOR_B: u8 = 4;
    /// Begin and end events are reported.
    pub const CONTACT_EVENTS: u8 = 8;
    /// Hit events are reported.
    pub const HIT_EVENTS: u8 = 16;
    /// [`Contact::recycle`] holds the manifold's reference pose and local points (written
    /// whenever the manifold is computed with recycling on).
    pub const RECYCLABLE: u8 = 32;
    /// Either shape is a sensor.
    pub const SENSOR: u8 = SENSOR_A | SENSOR_B;
}

/// A link of a body's doubly linked contact list: the neighbors' contact keys.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Edge {
    pub prev: u32,
    pub next: u32,
}

/// The world's record of a contact. Shape A has the smaller shape index; the manifold's
/// normal goes from A to B.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Contact {
    pub shape_a: u32,
    pub shape_b: u32,
    pub body_a: u32,
    pub body_b: u32,
    /// The links in body A's (`edges[0]`) and body B's (`edges[1]`) contact lists.
    pub edges: [Edge; 2],
    pub manifold: Manifold,
    pub impulses: [PointImpulse; 2],
    /// Mixed friction and restitution (see [`ShapeDef`](super::ShapeDef)).
    pub friction: f32,
    pub restitution: f32,
    /// The target speed of B relative to A along the tangent `(n.y, -n.x)` (m/s): the sum
    /// of the shapes' tangent speeds (conveyor belts).
    pub tangent_speed: f32,
    /// The rolling resistance times the larger rounding radius (meters): the angular impulse
    /// resisting relative turning is at most this times the total normal impulse.
    pub rolling_resistance: f32,
    /// The accumulated rolling resistance impulse of the last step (N·m·s), for warm starting.
    pub rolling_impulse: f32,
    /// The rounding radii of the shapes (meters): the solver tracks separation at the cores.
    pub radius_a: f32,
    pub radius_b: f32,
    pub flags: u8,
    /// The solver color the contact holds in the constraint graph, or
    /// [`NO_COLOR`](super::graph::NO_COLOR) while it needs no solving.
    pub color: u8,
    /// The contact's place in its color's list (meaningless without a color).
    pub color_slot: u32,
    pub pair_key: PairKey,
    /// What contact recycling keeps of the last computed manifold (valid with
    /// [`flags::RECYCLABLE`]).
    pub recycle: RecycleRef,
}

/// What contact recycling (after Box2D v3.1+) keeps of a manifold computed by `collide`: the
/// pose it was computed at and its normal and points fixed in the bodies' frames. While B's
/// pose in A's frame stays within [`CONTACT_RECYCLE_LINEAR_TOLERANCE`] and
/// [`CONTACT_RECYCLE_ANGULAR_TOLERANCE`] of `pose`, [`RecycleRef::recycle`] rebuilds the
/// manifold from these instead of colliding the shapes again.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct RecycleRef {
    /// B's body frame in A's (meters) when the manifold was computed.
    pub pose: Transform,
    /// The manifold's normal in A's frame.
    pub normal: Vec2,
    /// Each point's spot on A's surface (`point - separation / 2 · normal`), in A's frame
    /// (meters).
    pub local_a: [Vec2; 2],
    /// Each point's spot on B's surface (`point + separation / 2 · normal`), in B's frame
    /// (meters).
    pub local_b: [Vec2; 2],
    /// The farthest of `local_b` from B's origin (meters): how far a turn of B relative to A
    /// moves the points at most, per radian.
    pub reach: f32,
}

impl RecycleRef {
    /// No reference (a contact that has not touched).
    pub const NONE: RecycleRef = RecycleRef {
        pose: Transform::IDENTITY,
        normal: Vec2::ZERO,
        local_a: [Vec2::ZERO; 2],
        local_b: [Vec2::ZERO; 2],
        reach: 0.0,
    };

    /// The reference of manifold `m`, computed at the body transforms `xf_a` and `xf_b`.
    #[inline]
    pub fn record(m: &Manifold, xf_a: Transform, xf_b: Transform) -> RecycleRef {
        let mut r = RecycleRef {
            pose: xf_a.inv_mul(xf_b),
            normal: xf_a.q.inv_rotate(m.normal),
            local_a: [Vec2::ZERO; 2],
            local_b: [Vec2::ZERO; 2],
            reach: 0.0,
        };
        for (i, p) in m.points().iter().enumerate() {
            let half = (0.5 * p.separation) * m.normal;
            r.local_a[i] = xf_a.inv_apply(p.point - half);
            r.local_b[i] = xf_b.inv_apply(p.point + half);
            r.reach = r.reach.max(r.local_b[i].length());
        }
        r
    }

    /// Whether the bodies at `xf_a` and `xf_b` are close enough to the reference pose for the
    /// manifold to be recycled.
    #[inline]
    pub fn within(&self, xf_a: Transform, xf_b: Transform) -> bool {
        let pose = xf_a.inv_mul(xf_b);
        let turn = self.pose.q.inv_mul(pose.q);
        let sin = turn.s.abs();
        turn.c > 0.0
            && sin < CONTACT_RECYCLE_ANGULAR_TOLERANCE
            && (pose.p - self.pose.p).length() + self.reach * sin < CONTACT_RECYCLE_LINEAR_TOLERANCE
    }

    /// Rebuilds manifold `m` (whose normal, ids and count stay those recorded) at the bodies'
    /// transforms `xf_a` and `xf_b`: the normal turned with A, each point's surface spots
    /// moved with their bodies, the separation their gap along the normal (exact for a pure
    /// translation along the normal), the point midway between them.
    #[inline]
    pub fn recycle(&self, m: &mut Manifold, xf_a: Transform, xf_b: Transform) {
        let n = xf_a.q.rotate(self.normal);
        m.normal = n;
        let count = m.count.min(2);
        for i in 0..count {
            let pa = xf_a.apply(self.local_a[i]);
            let pb = xf_b.apply(self.local_b[i]);
            let p = &mut m.points[i];
            p.separation = (pb - pa).dot(n);
            p.point = 0.5 * (pa + pb);
            p.anchor_a = p.point - xf_a.p;
            p.anchor_b = p.point - xf_b.p;
        }
    }
}

impl Contact {
    #[inline]
    pub fn is_touching(&self) -> bool {
        self.flags & flags::TOUCHING != 0
    }

    #[inline]
    pub fn is_sensor(&self) -> bool {
        self.flags & flags::SENSOR != 0
    }
}

/// A contact key names one end of a contact: `index * 2 + end`, end 0 for body A.
#[inline]
pub(crate) fn contact_key(index: u32, end: u32) -> u32 {
    (index << 1) | end
}

/// A change of a contact's touching state found by the narrow phase, applied after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) enum TouchChange {
    Began(u32),
    Ended(u32),
    /// A touching contact of an awake body with a sleeping one: the sleeper must wake.
    Wake(u32),
}

/// A hasher for pair keys (64-bit integers): one multiply, no random seed. The map it serves
/// is only ever looked up, never iterated, so its order cannot leak into results.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PairHasher(u64);

impl Hasher for PairHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (n ^ (n >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        self.0 ^= self.0 >> 32;
    }
}

/// Contacts by pair key.
pub(crate) type PairMap = HashMap<u64, u32, BuildHasherDefault<PairHasher>>;

/// The pair map in snapshots: its entries sorted by key, so that equal maps write equal bytes
/// whatever order their tables hold them in.
#[cfg(feature = "serde")]
pub(crate) mod pair_map_in_key_order {
    use super::PairMap;

    pub fn serialize<S: serde::Serializer>(map: &PairMap, serializer: S) -> Result<S::Ok, S::Error> {
        let mut entries: Vec<(u64, u32)> = map.iter().map(|(&k, &v)| (k, v)).collect();
        entries.sort_unstable();
        serde::Serialize::serialize(&entries, serializer)
    }

    pub fn deserialize<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<PairMap, D::Error> {
        let entries: Vec<(u64, u32)> = serde::Deserialize::deserialize(deserializer)?;
        Ok(entries.into_iter().collect())
    }
}

/// How a contact combines the friction or the restitution of its two shapes
/// ([`WorldDef::friction_mixing`](super::WorldDef::friction_mixing),
/// [`WorldDef::restitution_mixing`](super::WorldDef::restitution_mixing)). Every rule is
/// symmetric, so the order of the shapes does not matter. The result is held to the shape
/// range ([`MAX_FRICTION`], [`MAX_RESTITUTION`]): only [`MixingRule::Multiply`] of two large
/// coefficients can reach it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum MixingRule {
    /// `(a + b) / 2`.
    Average,
    /// `sqrt(a b)`: zero when either is zero (the default for friction: a frictionless
    /// shape slides on anything).
    GeometricMean,
    /// `a b`.
    Multiply,
    /// The smaller of the two.
    Min,
    /// The larger of the two (the default for restitution: a bouncy ball bounces on
    /// anything).
    Max,
}

impl MixingRule {
    /// The coefficient of a contact between shapes with coefficients `a` and `b` (both
    /// finite and not negative), before the range is applied.
    #[inline]
    pub fn mix(self, a: f32, b: f32) -> f32 {
        match self {
            MixingRule::Average => 0.5 * (a + b),
            MixingRule::GeometricMean => (a * b).sqrt(),
            MixingRule::Multiply => a * b,
            MixingRule::Min => a.min(b),
            MixingRule::Max => a.max(b),
        }
    }
}

/// Friction of a contact from its shapes' by `rule`, within [`MAX_FRICTION`].
#[inline]
pub(crate) fn mix_friction(rule: MixingRule, a: f32, b: f32) -> f32 {
    rule.mix(a, b).min(MAX_FRICTION)
}

/// Restitution of a contact from its shapes' by `rule`, within [`MAX_RESTITUTION`].
#[inline]
pub(crate) fn mix_restitution(rule: MixingRule, a: f32, b: f32) -> f32 {
    rule.mix(a, b).min(MAX_RESTITUTION)
}

/// The rolling resistance of a contact (meters: the coefficient times a radius) from its
/// shapes': the larger coefficient times the larger rounding radius.
#[inline]
pub(crate) fn mix_rolling(a: &Collider, b: &Collider) -> f32 {
    let coefficient = a.rolling_resistance.max(b.rolling_resistance);
    if coefficient > 0.0 { coefficient * a.geometry.radius().max(b.geometry.radius()) } else { 0.0 }
}

impl World {
    /// Brings the broad phase's pairs up to date: contacts of ended pairs are destroyed, then
    /// contacts of begun pairs are made. Pairs of shapes on one body, and of two sensors, are
    /// refused.
    pub(crate) fn update_pairs(&mut self) {
        let (colliders, bodies, joints) = (&self.colliders, &self.bodies, &self.joints);
        let changes = self.broad_phase.update_pairs(|pair| {
            let (a, b) = (&colliders[pair.user_a as u32], &colliders[pair.user_b as u32]);
            a.body != b.body && !(a.sensor && b.sensor) && !joined_without_collision(bodies, joints, a.body, b.body)
        });
        // Ended first: a removed proxy's key may already name a new proxy in `begun`.
        let mut ended = std::mem::take(&mut self.scratch_keys);
        ended.clear();
        ended.extend(changes.ended.iter().map(|k| k.0));
        let mut begun = std::mem::take(&mut self.scratch_pairs);
        begun.clear();
        begun.extend(changes.begun.iter().map(|p| (p.key().0, p.user_a as u32, p.user_b as u32)));
        for &key in &ended {
            if let Some(&index) = self.pair_map.get(&key) {
                self.destroy_contact(index, false);
            }
        }
        for &(key, a, b) in &begun {
            // The custom filter (contact hooks): a refused pair stays live in the broad
            // phase, without a contact, until it ends.
            if self.allows_pair(a, b) {
                self.create_contact(a, b, PairKey(key));
            }
        }
        self.scratch_keys = ended;
        self.scratch_pairs = begun;
    }

    /// Makes the contact of two shapes (not yet touching) and links it into both bodies'
    /// contact lists.
    pub(crate) fn create_contact(&mut self, shape_x: u32, shape_y: u32, pair_key: PairKey) {
        let (shape_a, shape_b) = if shape_x < shape_y { (shape_x, shape_y) } else { (shape_y, shape_x) };
        let (ca, cb) = (&self.colliders[shape_a], &self.colliders[shape_b]);
        let mut f = 0;
        if ca.sensor {
            f |= flags::SENSOR_A;
        }
        if cb.sensor {
            f |= flags::SENSOR_B;
        }
        if ca.enable_contact_events || cb.enable_contact_events {
            f |= flags::CONTACT_EVENTS;
        }
        if ca.enable_hit_events || cb.enable_hit_events {
            f |= flags::HIT_EVENTS;
        }
        let contact = Contact {
            shape_a,
            shape_b,
            body_a: ca.body,
            body_b: cb.body,
            edges: [Edge { prev: NULL, next: NULL }; 2],
            manifold: Manifold::EMPTY,
            impulses: [PointImpulse::default(); 2],
            friction: mix_friction(self.def.friction_mixing, ca.friction, cb.friction),
            restitution: mix_restitution(self.def.restitution_mixing, ca.restitution, cb.restitution),
            tangent_speed: ca.tangent_speed + cb.tangent_speed,
            rolling_resistance: mix_rolling(ca, cb),
            rolling_impulse: 0.0,
            radius_a: ca.geometry.radius(),
            radius_b: cb.geometry.radius(),
            flags: f,
            color: NO_COLOR,
            color_slot: 0,
            pair_key,
            recycle: RecycleRef::NONE,
        };
        // The broad phase addresses fewer pairs than u32::MAX; a full table drops the pair.
        let Some((index, _)) = self.contacts.insert(contact) else { return };
        self.pair_map.insert(pair_key.0, index);
        for end in 0..2 {
            let body = if end == 0 { self.contacts[index].body_a } else { self.contacts[index].body_b };
            let key = contact_key(index, end);
            let head = self.bodies[body].contact_head;
            self.contacts[index].edges[end as usize] = Edge { prev: NULL, next: head };
            if head != NULL {
                self.contacts[head >> 1].edges[(head & 1) as usize].prev = key;
            }
            let b = &mut self.bodies[body];
            b.contact_head = key;
            b.contact_count += 1;
        }
        let c = &self.contacts[index];
        if self.bodies[c.body_a].is_awake() || self.bodies[c.body_b].is_awake() {
            self.awake_contacts.insert(index);
        }
    }

    /// Destroys a contact: reports the end of its touch, marks its island for splitting,
    /// wakes its bodies when `wake` (a shape or body destroyed under it), unlinks it.
    pub(crate) fn destroy_contact(&mut self, index: u32, wake: bool) {
        let c = &self.contacts[index];
        let (body_a, body_b, touching, sensor) = (c.body_a, c.body_b, c.is_touching(), c.is_sensor());
        if touching {
            self.report_end(index);
            if !sensor {
                let island = self.bodies[body_a].island;
                if island != NULL && self.bodies[body_b].is_dynamic() && self.bodies[body_a].is_dynamic() {
                    self.islands.mark_split(island);
                }
            }
        }
        if wake {
            self.wake_body_index(body_a);
            self.wake_body_index(body_b);
        }
        for end in 0..2u32 {
            let c = &self.contacts[index];
            let body = if end == 0 { c.body_a } else { c.body_b };
            let Edge { prev, next } = c.edges[end as usize];
            if prev != NULL {
                self.contacts[prev >> 1].edges[(prev & 1) as usize].next = next;
            } else {
                self.bodies[body].contact_head = next;
            }
            if next != NULL {
                self.contacts[next >> 1].edges[(next & 1) as usize].prev = prev;
            }
            self.bodies[body].contact_count -= 1;
        }
        self.leave_graph(index);
        self.pair_map.remove(&self.contacts[index].pair_key.0);
        self.awake_contacts.remove(index);
        self.contacts.remove(index);
    }

    /// The narrow phase: the manifold of every contact with an awake body (the
    /// `awake_contacts` set, visited in contact order), from the bodies' current transforms; then the touches that began and ended are applied in contact order
    /// (events, island links, waking).
    pub(crate) fn update_contacts(&mut self) {
        let mut changes = std::mem::take(&mut self.touch_changes);
        changes.clear();
        self.update_manifolds(&mut changes);
        self.continuous.disabled.clear();
        if self.hooks.0.is_some() {
            self.pre_solve(&mut changes);
        }
        for &change in &changes {
            match change {
                TouchChange::Began(index) => {
                    self.begin_touch(index);
                    self.refresh_graph(index);
                }
                TouchChange::Ended(index) => {
                    self.report_end(index);
                    self.leave_graph(index);
                    let c = &self.contacts[index];
                    if !c.is_sensor() && self.bodies[c.body_a].is_dynamic() && self.bodies[c.body_b].is_dynamic() {
                        let island = self.bodies[c.body_a].island;
                        self.islands.mark_split(island);
                    }
                }
                TouchChange::Wake(index) => {
                    let (a, b) = (self.contacts[index].body_a, self.contacts[index].body_b);
                    self.wake_body_index(a);
                    self.wake_body_index(b);
                }
            }
        }
        self.touch_changes = changes;
    }

    /// The manifolds of the contacts with an awake body, in contact order, and the touches
    /// that began or ended (into `changes`), in AVX's encodings where the machine has them.
    #[inline]
    fn update_manifolds(&mut self, changes: &mut Vec<TouchChange>) {
        #[cfg(target_arch = "x86_64")]
        if self.solver.contacts.encoding.avx() {
            // SAFETY: `avx()` is true only where AVX was detected on this machine.
            return unsafe { self.update_manifolds_avx(changes) };
        }
        self.update_manifolds_in::<false>(changes)
    }

    /// [`Self::update_manifolds`] compiled with AVX's encodings, calling the narrow phase's
    /// AVX version.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx")]
    fn update_manifolds_avx(&mut self, changes: &mut Vec<TouchChange>) {
        self.update_manifolds_in::<true>(changes)
    }

    /// The body of [`Self::update_manifolds`], inlined into each encoding's version; `AVX` is
    /// true only in [`Self::update_manifolds_avx`]'s.
    #[inline(always)]
    fn update_manifolds_in<const AVX: bool>(&mut self, changes: &mut Vec<TouchChange>) {
        let (bodies, colliders) = (&self.bodies, &self.colliders);
        let deep = &mut self.continuous.deep;
        deep.clear();
        let recycling = self.def.enable_contact_recycling;
        for index in self.awake_contacts.ones() {
            let c = &mut self.contacts.items[index as usize];
            let (body_a, body_b) = (&bodies[c.body_a], &bodies[c.body_b]);
            let (awake_a, awake_b) = (body_a.is_awake(), body_b.is_awake());
            debug_assert!(self.contacts.live[index as usize] && (awake_a || awake_b));
            let (ca, cb) = (&colliders[c.shape_a], &colliders[c.shape_b]);
            let was_touching = c.is_touching();
            let touching = if c.is_sensor() {
                // Overlap: points at separation 0 or less.
                ca.aabb.overlaps(&cb.aabb)
                    && collide(&ca.geometry, body_a.transform, &cb.geometry, body_b.transform, 0.0).count > 0
            } else {
                // The new manifold is written in place; the old one's feature ids are kept for
                // the impulses. A contact that did not touch has none, and its old manifold is
                // not read: most contacts of a flying pile are apart, their manifolds cold. Nor
                // is it written while the pair stays apart: it is already exactly
                // `Manifold::EMPTY` (every empty result of `collide_into` is, or leaves `out` as
                // it was), so only a contact that touched has its manifold emptied.
                let old_ids = if was_touching { FeatureIds::of(&c.manifold) } else { FeatureIds::NONE };
                if aabb_gap(&ca.aabb, &cb.aabb) > SPECULATIVE_DISTANCE {
                    if was_touching {
                        c.manifold = Manifold::EMPTY;
                    }
                    false
                } else {
                    let (a, b) = (&ca.geometry, &cb.geometry);
                    let (xf_a, xf_b) = (body_a.transform, body_b.transform);
                    // Contact recycling: a contact that touched, whose bodies have barely
                    // moved relative to each other since its manifold was computed, keeps it
                    // (ids included, so its impulses carry over as they are).
                    let touching = if recycling
                        && was_touching
                        && c.flags & flags::RECYCLABLE != 0
                        && c.recycle.within(xf_a, xf_b)
                    {
                        c.recycle.recycle(&mut c.manifold, xf_a, xf_b);
                        true
                    } else {
                        let touching = collide_in::<AVX>(&mut c.manifold, a, xf_a, b, xf_b);
                        if recycling && touching {
                            c.recycle = RecycleRef::record(&c.manifold, xf_a, xf_b);
                            c.flags |= flags::RECYCLABLE;
                        } else {
                            c.flags &= !flags::RECYCLABLE;
                        }
                        touching
                    };
                    if touching {
                        if let Some(body) = deep_in_fixed_shape(body_a, c.body_a, body_b, c.body_b, &c.manifold) {
                            deep.push(body);
                        }
                        carry_impulses(&old_ids, &mut c.impulses, &c.manifold);
                    } else if was_touching {
                        // Without points nothing is deep and no impulse is carried over.
                        c.manifold = Manifold::EMPTY;
                    }
                    touching
                }
            };
            if touching != was_touching {
                c.flags ^= flags::TOUCHING;
                changes.push(if touching { TouchChange::Began(index) } else { TouchChange::Ended(index) });
            } else if touching && !c.is_sensor() && awake_a != awake_b {
                let sleeper = if awake_a { body_b } else { body_a };
                if sleeper.is_dynamic() {
                    changes.push(TouchChange::Wake(index));
                }
            }
        }
    }

    /// Pre-solve (contact hooks): every touching solid contact with an awake body is offered
    /// to [`ContactHooks::pre_solve`](super::ContactHooks::pre_solve), in contact order; a
    /// refused one counts as not touching for this step (its manifold emptied, its impulses
    /// dropped; a touch that began is not reported, one that was touching ends) and its pair
    /// is listed for continuous collision to leave alone.
    fn pre_solve(&mut self, changes: &mut Vec<TouchChange>) {
        let mut disabled = std::mem::take(&mut self.scratch_disabled);
        disabled.clear();
        for index in self.awake_contacts.ones() {
            let c = &self.contacts[index];
            if c.is_touching() && !c.is_sensor() && !self.allows_contact(c.shape_a, c.shape_b, &c.manifold) {
                disabled.push(index);
            }
        }
        if disabled.is_empty() {
            self.scratch_disabled = disabled;
            return;
        }
        let change_index = |change: &TouchChange| match *change {
            TouchChange::Began(i) | TouchChange::Ended(i) | TouchChange::Wake(i) => i,
        };
        for &index in &disabled {
            let c = &mut self.contacts[index];
            c.flags &= !(flags::TOUCHING | flags::RECYCLABLE);
            c.manifold = Manifold::EMPTY;
            c.impulses = [PointImpulse::default(); 2];
            c.rolling_impulse = 0.0;
            self.continuous.disabled.push(super::continuous::shape_pair_key(c.shape_a, c.shape_b));
        }
        // Changes are in contact order, at most one per contact; `disabled` too.
        let began_now: Vec<u32> = changes
            .iter()
            .filter(|ch| matches!(ch, TouchChange::Began(_)))
            .map(change_index)
            .filter(|i| disabled.binary_search(i).is_ok())
            .collect();
        changes.retain(|ch| disabled.binary_search(&change_index(ch)).is_err());
        // A contact that was touching before the step (no `Began`) ends now.
        changes.extend(disabled.iter().filter(|i| began_now.binary_search(i).is_err()).map(|&i| TouchChange::Ended(i)));
        changes.sort_by_key(change_index);
        self.continuous.disabled.sort_unstable();
        self.scratch_disabled = disabled;
    }

    /// A touch began: the begin event, and for a solid contact between dynamic bodies the
    /// union of their islands (waking a sleeping one).
    fn begin_touch(&mut self, index: u32) {
        let c = &self.contacts[index];
        let (shape_a, shape_b) = (self.shape_id(c.shape_a), self.shape_id(c.shape_b));
        if c.is_sensor() {
            let (sensor, visitor) =
                if c.flags & flags::SENSOR_A != 0 { (shape_a, shape_b) } else { (shape_b, shape_a) };
            self.pending_events.sensor_begin.push(SensorBeginEvent { sensor, visitor });
            return;
        }
        if c.flags & flags::CONTACT_EVENTS != 0 {
            self.pending_events.contact_begin.push(ContactBeginEvent { shape_a, shape_b, manifold: c.manifold });
        }
        let (a, b) = (c.body_a, c.body_b);
        self.wake_body_index(a);
        self.wake_body_index(b);
        if self.bodies[a].is_dynamic() && self.bodies[b].is_dynamic() {
            self.link_islands(a, b);
        }
    }

    /// The end event of a touching contact (contact or sensor).
    fn report_end(&mut self, index: u32) {
        let c = &self.contacts[index];
        let (shape_a, shape_b) = (self.shape_id(c.shape_a), self.shape_id(c.shape_b));
        if c.is_sensor() {
            let (sensor, visitor) =
                if c.flags & flags::SENSOR_A != 0 { (shape_a, shape_b) } else { (shape_b, shape_a) };
            self.pending_events.sensor_end.push(SensorEndEvent { sensor, visitor });
        } else if c.flags & flags::CONTACT_EVENTS != 0 {
            self.pending_events.contact_end.push(ContactEndEvent { shape_a, shape_b });
        }
    }

    /// The handle of the live shape at `index`.
    #[inline]
    pub(crate) fn shape_id(&self, index: u32) -> ShapeId {
        ShapeId::new(index, self.colliders.generations[index as usize], self.id())
    }
}

/// [`collide_into`] at the world's speculative distance, or its AVX version when `AVX` (only
/// inside [`World::update_manifolds_avx`]).
#[inline(always)]
fn collide_in<const AVX: bool>(
    out: &mut Manifold,
    a: &crate::geometry::Shape,
    xf_a: crate::math::Transform,
    b: &crate::geometry::Shape,
    xf_b: crate::math::Transform,
) -> bool {
    #[cfg(target_arch = "x86_64")]
    if AVX {
        // SAFETY: `AVX` is true only inside `update_manifolds_avx`, which runs only where AVX
        // was detected on this machine.
        return unsafe { crate::narrow_phase::collide_into_avx(out, a, xf_a, b, xf_b, SPECULATIVE_DISTANCE) };
    }
    collide_into(out, a, xf_a, b, xf_b, SPECULATIVE_DISTANCE)
}

/// The gap between two boxes (meters): the larger of the gaps along x and y, negative when
/// they overlap. A lower bound on the distance between anything inside them.
#[inline]
fn aabb_gap(a: &crate::geometry::Aabb, b: &crate::geometry::Aabb) -> f32 {
    let d1 = b.lower - a.upper;
    let d2 = a.lower - b.upper;
    d1.max(d2).max_element()
}

/// The feature ids of a manifold's points (what carrying impulses over needs of the old
/// manifold).
struct FeatureIds {
    ids: [FeatureId; 2],
    count: usize,
}

impl FeatureIds {
    /// The ids of a manifold without points.
    const NONE: FeatureIds = FeatureIds { ids: [0; 2], count: 0 };

    #[inline]
    fn of(m: &Manifold) -> FeatureIds {
        FeatureIds { ids: [m.points[0].id, m.points[1].id], count: m.count.min(2) }
    }

    /// The index of the point with feature id `id` ([`Manifold::find_id`] of the manifold).
    #[inline]
    fn find(&self, id: FeatureId) -> Option<usize> {
        self.ids[..self.count].iter().position(|&i| i == id)
    }
}

/// The impulses of the new manifold's points: those of the old points with the same feature
/// id, zero for new points.
#[inline]
fn carry_impulses(old: &FeatureIds, impulses: &mut [PointImpulse; 2], new: &Manifold) {
    let previous = *impulses;
    for (j, point) in new.points().iter().enumerate() {
        impulses[j] = match old.find(point.id) {
            Some(k) => {
                PointImpulse { normal: previous[k].normal, tangent: previous[k].tangent, ..PointImpulse::default() }
            }
            None => PointImpulse::default(),
        };
    }
}

#[cfg(test)]
mod recycle_tests {
    use super::RecycleRef;
    use crate::geometry::{Shape, make_box, make_rounded_box};
    use crate::math::{Rot, Transform, Vec2};
    use crate::narrow_phase::collide;
    use crate::settings::{CONTACT_RECYCLE_ANGULAR_TOLERANCE, CONTACT_RECYCLE_LINEAR_TOLERANCE, SPECULATIVE_DISTANCE};
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Box B resting on box A's top face (slightly overlapping, slightly tilted), kept away
    /// from the configurations where a fresh manifold changes its features under a tiny
    /// motion (a vertex of B at the end of A's face).
    fn resting_pair(rng: &mut ChaCha8Rng, rounded: bool) -> Option<(Shape, Transform, Shape, Transform)> {
        let (wa, ha) = (rng.random_range(0.2f32..2.0), rng.random_range(0.2f32..1.0));
        let (wb, hb) = (rng.random_range(0.2f32..1.0), rng.random_range(0.2f32..1.0));
        let tilt = rng.random_range(-0.002f32..0.002);
        let reach = wa + wb - 0.05;
        let offset = rng.random_range(-reach..reach);
        for x in [offset - wb, offset + wb] {
            if (x.abs() - wa).abs() < 0.02 {
                return None;
            }
        }
        let gap = rng.random_range(-0.01f32..0.004);
        let (a, b) = if rounded {
            let r = 0.05;
            (
                Shape::Polygon(make_rounded_box(wa - r, ha - r, r).unwrap()),
                Shape::Polygon(make_rounded_box(wb - r, hb - r, r).unwrap()),
            )
        } else {
            (Shape::Polygon(make_box(wa, ha).unwrap()), Shape::Polygon(make_box(wb, hb).unwrap()))
        };
        let xf_a = Transform::new(Vec2::new(0.0, 0.0), 0.0);
        let xf_b = Transform::new(Vec2::new(offset, ha + hb + gap), tilt);
        let common = Transform::new(
            Vec2::new(rng.random_range(-50.0f32..50.0), rng.random_range(-50.0f32..50.0)),
            rng.random_range(-3.0f32..3.0),
        );
        // The pair placed anywhere in the world: recycling works in A's frame.
        Some((a, common * xf_a, b, common * xf_b))
    }

    /// B moved by `d` (meters, in A's frame) and turned by `angle` about its origin, relative
    /// to A.
    fn moved(xf_a: Transform, xf_b: Transform, d: Vec2, angle: f32) -> Transform {
        Transform { p: xf_b.p + xf_a.q.rotate(d), q: Rot::from_angle(angle) * xf_b.q }
    }

    #[test]
    fn recycled_manifolds_match_fresh_ones_within_tolerance() {
        for rounded in [false, true] {
            let mut rng = ChaCha8Rng::seed_from_u64(if rounded { 41 } else { 40 });
            let (mut cases, mut recycled) = (0, 0);
            let (mut max_point, mut max_sep, mut max_normal) = (0.0f32, 0.0f32, 0.0f32);
            while cases < 5000 {
                let Some((a, xf_a, b, xf_b)) = resting_pair(&mut rng, rounded) else { continue };
                let m0 = collide(&a, xf_a, &b, xf_b, SPECULATIVE_DISTANCE);
                if m0.count == 0 {
                    continue;
                }
                cases += 1;
                let r = RecycleRef::record(&m0, xf_a, xf_b);
                // At the reference pose the rebuilt manifold is the computed one, up to
                // rounding.
                assert!(r.within(xf_a, xf_b));
                let mut same = m0;
                r.recycle(&mut same, xf_a, xf_b);
                for (p, q) in same.points().iter().zip(m0.points()) {
                    assert!((p.point - q.point).length() < 1e-4 && (p.separation - q.separation).abs() < 1e-5);
                }
                // A small relative motion, half of it within the tolerances.
                let len = rng.random_range(0.0f32..1.0) * CONTACT_RECYCLE_LINEAR_TOLERANCE;
                let dir = rng.random_range(0.0f32..std::f32::consts::TAU);
                let angle = rng.random_range(-1.0f32..1.0) * CONTACT_RECYCLE_ANGULAR_TOLERANCE * 0.2;
                let xf_b1 = moved(xf_a, xf_b, len * Vec2::new(dir.cos(), dir.sin()), angle);
                // A also moves in the world (the pair as one rigid body): only the relative
                // pose counts.
                let common = Transform::new(Vec2::new(0.01, -0.02), 0.003);
                let (xf_a1, xf_b1) = (common * xf_a, common * xf_b1);
                if !r.within(xf_a1, xf_b1) {
                    continue;
                }
                recycled += 1;
                let fresh = collide(&a, xf_a1, &b, xf_b1, SPECULATIVE_DISTANCE);
                let mut m = m0;
                r.recycle(&mut m, xf_a1, xf_b1);
                assert_eq!(m.count, fresh.count, "case {cases}: {m:?} against {fresh:?}");
                max_normal = max_normal.max(m.normal.perp_dot(fresh.normal).abs());
                for p in m.points() {
                    let q = fresh.points().iter().find(|q| q.id == p.id).expect("same feature ids");
                    max_point = max_point.max((p.point - q.point).length());
                    max_sep = max_sep.max((p.separation - q.separation).abs());
                }
            }
            assert!(recycled > cases / 4, "{recycled} of {cases} recycled");
            // Points within the linear tolerance (twice: a clipped point stays on A's face
            // end while the kept one moves with B), separations and normals far tighter.
            assert!(max_point <= 2.0 * CONTACT_RECYCLE_LINEAR_TOLERANCE, "points off by {max_point}");
            assert!(max_sep <= 0.2 * CONTACT_RECYCLE_LINEAR_TOLERANCE, "separations off by {max_sep}");
            assert!(max_normal <= 0.005, "normals off by {max_normal}");
            println!(
                "rounded {rounded}: {recycled} of {cases} recycled; max point {max_point:e} m, separation {max_sep:e} m, normal sine {max_normal:e}"
            );
        }
    }

    #[test]
    fn motions_beyond_the_tolerances_are_not_recycled() {
        let mut rng = ChaCha8Rng::seed_from_u64(42);
        let mut cases = 0;
        while cases < 3000 {
            let Some((a, xf_a, b, xf_b)) = resting_pair(&mut rng, false) else { continue };
            let m0 = collide(&a, xf_a, &b, xf_b, SPECULATIVE_DISTANCE);
            if m0.count == 0 {
                continue;
            }
            cases += 1;
            let r = RecycleRef::record(&m0, xf_a, xf_b);
            let dir = rng.random_range(0.0f32..std::f32::consts::TAU);
            let far = rng.random_range(1.01f32..100.0) * CONTACT_RECYCLE_LINEAR_TOLERANCE;
            assert!(!r.within(xf_a, moved(xf_a, xf_b, far * Vec2::new(dir.cos(), dir.sin()), 0.0)));
            let turn = rng.random_range(1.01f32..100.0) * CONTACT_RECYCLE_ANGULAR_TOLERANCE;
            let sign = if rng.random_range(0.0f32..1.0) < 0.5 { -1.0 } else { 1.0 };
            assert!(!r.within(xf_a, moved(xf_a, xf_b, Vec2::ZERO, sign * turn)));
            // Within both tolerances on their own, but not together.
            let near = 0.99 * CONTACT_RECYCLE_LINEAR_TOLERANCE;
            let small = CONTACT_RECYCLE_LINEAR_TOLERANCE / r.reach.max(1e-3);
            if small < CONTACT_RECYCLE_ANGULAR_TOLERANCE {
                assert!(!r.within(xf_a, moved(xf_a, xf_b, near * Vec2::new(dir.cos(), dir.sin()), 0.5 * small)));
            }
        }
    }
}
