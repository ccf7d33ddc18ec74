//! The world's joint operations: creating and destroying joints, reading and setting their
//! options, the bodies' joint lists, the collision filter of jointed bodies, and islands.

use super::body::reduce_angle;
use super::error::{WorldError, check_vector};
use super::handles::{BodyId, JointId, NULL};
use super::joint::{
    Joint, JointDef, JointEvent, JointImpulses, JointKind, check_axis, check_damping, check_hertz, check_length_range,
    check_lengths, check_limits, check_motor, check_spring, check_threshold,
};
use super::world::World;
use crate::broad_phase::PairKey;
use crate::math::Vec2;
use crate::settings::MAX_JOINT_LENGTH;
use std::f32::consts::PI;

/// The anchors and axis of a new joint in its bodies' frames, and its zeros.
struct Frame {
    local_anchor_a: Vec2,
    local_anchor_b: Vec2,
    local_axis_a: Vec2,
    reference_angle: f32,
    length: f32,
}

impl World {
    /// Makes a joint between two bodies (see [`JointKind`] for the kinds). Anchors and axes
    /// are read in world coordinates at the bodies' current poses and kept in the bodies'
    /// frames. Both bodies wake; jointed dynamic bodies share an island from now on (they
    /// sleep and wake together). With `collide_connected` false, the contacts between the two
    /// bodies end now (with end events if they touched).
    ///
    /// Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`] for a body handle;
    /// [`WorldError::InvalidJoint`] for a body jointed to itself; [`WorldError::InvalidValue`]
    /// for a non-finite or out-of-range number (anchors within
    /// [`MAX_COORDINATE`](crate::settings::MAX_COORDINATE), an axis shorter than 1e-6, lower
    /// limit above upper, negative or non-finite hertz, damping ratio, motor force or torque,
    /// break threshold, a distance joint's length outside [`LINEAR_SLOP`](crate::settings::LINEAR_SLOP)
    /// to [`MAX_JOINT_LENGTH`], revolute limits outside [-π, π], a motor joint's correction
    /// factor outside 0 to 1); [`WorldError::Full`]. A refused call changes nothing.
    pub fn create_joint(&mut self, def: &JointDef) -> Result<JointId, WorldError> {
        let a = self.body_index(def.body_a)?;
        let b = self.body_index(def.body_b)?;
        if a == b {
            return Err(WorldError::InvalidJoint { reason: "body A and body B are the same body" });
        }
        check_threshold(def.break_force, "joint break force")?;
        check_threshold(def.break_torque, "joint break torque")?;
        validate_kind(&def.kind)?;
        let frame = self.frame(a, b, &def.kind)?;
        let joint = Joint {
            def: *def,
            body_a: a,
            body_b: b,
            next: [NULL; 2],
            local_anchor_a: frame.local_anchor_a,
            local_anchor_b: frame.local_anchor_b,
            local_axis_a: frame.local_axis_a,
            reference_angle: frame.reference_angle,
            length: frame.length,
            enabled: true,
            impulses: JointImpulses::default(),
            force: Vec2::ZERO,
            torque: 0.0,
        };
        let (index, generation) = self.joints.insert(joint).ok_or(WorldError::Full { what: "joints" })?;
        for end in 0..2u32 {
            let body = if end == 0 { a } else { b };
            self.joints[index].next[end as usize] = self.bodies[body].joint_head;
            self.bodies[body].joint_head = index << 1 | end;
        }
        if !def.collide_connected {
            self.destroy_contacts_between(a, b);
        }
        self.wake_body_index(a);
        self.wake_body_index(b);
        if self.joints[index].constrains() && self.bodies[a].is_dynamic() && self.bodies[b].is_dynamic() {
            self.link_islands(a, b);
        }
        Ok(JointId::new(index, generation, self.id()))
    }

    /// Destroys a joint. Its bodies wake; with `collide_connected` false, their shapes may
    /// collide again from the next step.
    ///
    /// Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`].
    pub fn destroy_joint(&mut self, id: JointId) -> Result<(), WorldError> {
        let index = self.joint_index(id)?;
        self.remove_joint(index, true);
        Ok(())
    }

    /// Destroys the joints of a body that is being destroyed, reporting each with a
    /// [`JointEvent::DestroyedWithBody`] in the next step's events.
    pub(crate) fn destroy_body_joints(&mut self, body: u32, id: BodyId) {
        while self.bodies[body].joint_head != NULL {
            let index = self.bodies[body].joint_head >> 1;
            let joint = self.joint_id(index);
            let user_data = self.joints[index].def.user_data;
            self.pending_events.joint.push(JointEvent::DestroyedWithBody { joint, body: id, user_data });
            // The body's shapes go with it: nothing to pair again.
            self.remove_joint(index, false);
        }
    }

    /// Unlinks and frees a joint: its bodies wake, their island may split, and (with
    /// `pair_shapes`) their shapes are paired again if the joint kept them apart.
    fn remove_joint(&mut self, index: u32, pair_shapes: bool) {
        let (a, b) = (self.joints[index].body_a, self.joints[index].body_b);
        for (end, body) in [(0u32, a), (1, b)] {
            self.unlink_joint(body, index << 1 | end);
        }
        let linked = self.joints[index].constrains() && self.bodies[a].is_dynamic() && self.bodies[b].is_dynamic();
        if linked {
            self.islands.mark_split(self.bodies[a].island);
        }
        let apart = !self.joints[index].def.collide_connected;
        self.joints.remove(index);
        self.wake_body_index(a);
        self.wake_body_index(b);
        if apart && pair_shapes {
            self.pair_again(a, b);
        }
    }

    /// Links the island of a dynamic body that joined the simulation again (made dynamic or
    /// enabled) with the islands of its jointed dynamic partners.
    pub(crate) fn link_joint_islands(&mut self, body: u32) {
        let mut key = self.bodies[body].joint_head;
        while key != NULL {
            let j = &self.joints[key >> 1];
            let (other, next, constrains) = (j.other(key & 1), j.next[(key & 1) as usize], j.constrains());
            if constrains && self.bodies[other].is_dynamic() && self.bodies[other].enabled {
                self.link_islands(body, other);
            }
            key = next;
        }
    }

    /// Takes joint key `key` out of `body`'s joint list.
    fn unlink_joint(&mut self, body: u32, key: u32) {
        let mut link = self.bodies[body].joint_head;
        let mut prev = NULL;
        while link != NULL {
            let next = self.joints[link >> 1].next[(link & 1) as usize];
            if link == key {
                if prev == NULL {
                    self.bodies[body].joint_head = next;
                } else {
                    self.joints[prev >> 1].next[(prev & 1) as usize] = next;
                }
                return;
            }
            prev = link;
            link = next;
        }
    }

    /// Ends the contacts between two bodies (a joint that keeps them from colliding).
    fn destroy_contacts_between(&mut self, a: u32, b: u32) {
        let mut key = self.bodies[a].contact_head;
        while key != NULL {
            let c = &self.contacts[key >> 1];
            let next = c.edges[(key & 1) as usize].next;
            if (c.body_a, c.body_b) == (a, b) || (c.body_a, c.body_b) == (b, a) {
                self.destroy_contact(key >> 1, false);
            }
            key = next;
        }
    }

    /// After a joint that kept two bodies from colliding is gone: the pairs of their shapes
    /// that the broad phase still holds get their contacts back now, and the others are
    /// offered again at the next update (their proxies are queried again).
    fn pair_again(&mut self, a: u32, b: u32) {
        // A disabled body's shapes are paired when it is enabled.
        if self.joined_without_collision(a, b) || !self.bodies[a].enabled || !self.bodies[b].enabled {
            return;
        }
        let mut sa = self.bodies[a].shape_head;
        while sa != NULL {
            let proxy_a = self.colliders[sa].proxy;
            let touched = self.broad_phase.touch_proxy(proxy_a);
            debug_assert!(touched.is_ok());
            let mut sb = self.bodies[b].shape_head;
            while sb != NULL {
                let (ca, cb) = (&self.colliders[sa], &self.colliders[sb]);
                let key = PairKey::new(ca.proxy.raw(), cb.proxy.raw());
                let allowed = !(ca.sensor && cb.sensor) && ca.filter.should_pair(&cb.filter);
                let live = self.broad_phase.live_pairs().binary_search(&key).is_ok();
                if allowed && live && !self.pair_map.contains_key(&key.0) && self.allows_pair(sa, sb) {
                    self.create_contact(sa, sb, key);
                }
                sb = self.colliders[sb].next;
            }
            sa = self.colliders[sa].next;
        }
    }

    /// Whether a joint between bodies `a` and `b` keeps their shapes from colliding (one with
    /// `collide_connected` false). Walks `a`'s joint list: nothing for a body without joints.
    #[inline]
    pub(crate) fn joined_without_collision(&self, a: u32, b: u32) -> bool {
        joined_without_collision(&self.bodies, &self.joints, a, b)
    }

    /// The index of a live joint of this world.
    pub(crate) fn joint_index(&self, id: JointId) -> Result<u32, WorldError> {
        let (kind, index, generation) = (JointId::KIND, id.index(), id.generation());
        if id.world() != self.id() {
            Err(WorldError::ForeignHandle { kind, index, generation })
        } else if self.joints.is_live(index, generation) {
            Ok(index)
        } else {
            Err(WorldError::StaleHandle { kind, index, generation })
        }
    }

    /// The handle of live joint `index`.
    pub(crate) fn joint_id(&self, index: u32) -> JointId {
        JointId::new(index, self.joints.generations[index as usize], self.id())
    }

    /// The handle of live body `index`.
    pub(crate) fn body_id(&self, index: u32) -> BodyId {
        BodyId::new(index, self.bodies.generations[index as usize], self.id())
    }

    /// Island splitting: pushes onto `stack` the dynamic bodies jointed to `body` (by joints
    /// that constrain) that no part has claimed yet, claiming them for `part`.
    pub(crate) fn claim_joint_partners(&mut self, body: u32, part: u32, stack: &mut Vec<u32>) {
        let mut link = self.bodies[body].joint_head;
        while link != NULL {
            let j = &self.joints[link >> 1];
            let (other, next, constrains) = (j.other(link & 1), j.next[(link & 1) as usize], j.constrains());
            let o = &mut self.bodies[other];
            if constrains && o.is_dynamic() && o.island == NULL {
                o.island = part;
                stack.push(other);
            }
            link = next;
        }
    }

    /// A moving kinematic body keeps the bodies jointed to it awake.
    pub(crate) fn keep_joint_partners_awake(&mut self, body: u32) {
        let mut link = self.bodies[body].joint_head;
        while link != NULL {
            let j = &self.joints[link >> 1];
            let (other, next) = (j.other(link & 1), j.next[(link & 1) as usize]);
            if j.constrains() {
                self.bodies[other].sleep_time = 0.0;
            }
            link = next;
        }
    }

    /// Drops the warm-start impulses of a body's joints (its mass changed: they were for the
    /// old one).
    pub(crate) fn reset_joint_impulses(&mut self, body: u32) {
        let mut link = self.bodies[body].joint_head;
        while link != NULL {
            let j = &mut self.joints[link >> 1];
            j.impulses = JointImpulses::default();
            link = j.next[(link & 1) as usize];
        }
    }

    fn joint(&self, id: JointId) -> Result<&Joint, WorldError> {
        Ok(&self.joints[self.joint_index(id)?])
    }

    /// The joint's local anchors, axis and zeros from its definition's world values at the
    /// bodies' current poses.
    fn frame(&self, a: u32, b: u32, kind: &JointKind) -> Result<Frame, WorldError> {
        let (xa, xb) = (self.bodies[a].transform, self.bodies[b].transform);
        let reference_angle = reduce_angle(self.bodies[b].angle - self.bodies[a].angle);
        let mut f = Frame {
            local_anchor_a: Vec2::ZERO,
            local_anchor_b: Vec2::ZERO,
            local_axis_a: Vec2::X,
            reference_angle,
            length: 0.0,
        };
        let (anchor_a, anchor_b) = match *kind {
            JointKind::Revolute(d) => (d.anchor, d.anchor),
            JointKind::Weld(d) => (d.anchor, d.anchor),
            JointKind::Prismatic(d) => {
                f.local_axis_a = xa.q.inv_rotate(check_axis(d.axis)?);
                (d.anchor_a, d.anchor_b)
            }
            JointKind::Wheel(d) => {
                f.local_axis_a = xa.q.inv_rotate(check_axis(d.axis)?);
                (d.anchor_a, d.anchor_b)
            }
            JointKind::Distance(d) => {
                check_vector(d.anchor_a, "joint anchor")?;
                check_vector(d.anchor_b, "joint anchor")?;
                f.length = d.length.unwrap_or_else(|| (d.anchor_b - d.anchor_a).length());
                check_lengths(f.length, d.min_length, d.max_length)?;
                (d.anchor_a, d.anchor_b)
            }
            JointKind::Motor(d) => {
                f.reference_angle = d.angular_offset;
                (xb.p, xb.p)
            }
            JointKind::Filter => (xb.p, xb.p),
        };
        check_vector(anchor_a, "joint anchor")?;
        check_vector(anchor_b, "joint anchor")?;
        f.local_anchor_a = xa.inv_apply(anchor_a);
        f.local_anchor_b = xb.inv_apply(anchor_b);
        Ok(f)
    }

    // ---- reading joints ----

    /// The number of joints.
    pub fn joint_count(&self) -> usize {
        self.joints.count()
    }

    /// The joint's definition as created, with the options set since (its anchors and axis
    /// are the world values given at creation). Errors: [`WorldError::StaleHandle`],
    /// [`WorldError::ForeignHandle`].
    pub fn joint_def(&self, id: JointId) -> Result<JointDef, WorldError> {
        Ok(self.joint(id)?.def)
    }

    /// The joint's bodies `(A, B)`. Errors: [`WorldError::StaleHandle`],
    /// [`WorldError::ForeignHandle`].
    pub fn joint_bodies(&self, id: JointId) -> Result<(BodyId, BodyId), WorldError> {
        let j = self.joint(id)?;
        Ok((self.body_id(j.body_a), self.body_id(j.body_b)))
    }

    /// The joint's anchors on A and B in world coordinates now (meters): equal for a rigid
    /// revolute or weld joint that holds. A motor or filter joint's anchors are B's origin at
    /// creation, carried by each body. Errors: [`WorldError::StaleHandle`],
    /// [`WorldError::ForeignHandle`].
    pub fn joint_world_anchors(&self, id: JointId) -> Result<(Vec2, Vec2), WorldError> {
        let j = self.joint(id)?;
        let (xa, xb) = (self.bodies[j.body_a].transform, self.bodies[j.body_b].transform);
        Ok((xa.apply(j.local_anchor_a), xb.apply(j.local_anchor_b)))
    }

    /// The force (N, world) the joint applied to body B in the last step (A took its
    /// opposite): every linear row (point, axis, limits, motor, spring) together. Errors:
    /// [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`].
    pub fn joint_reaction_force(&self, id: JointId) -> Result<Vec2, WorldError> {
        Ok(self.joint(id)?.force)
    }

    /// The torque (N·m) the joint's angular rows (angle, limits, motor, spring) applied to
    /// body B in the last step. Errors: [`WorldError::StaleHandle`],
    /// [`WorldError::ForeignHandle`].
    pub fn joint_reaction_torque(&self, id: JointId) -> Result<f32, WorldError> {
        Ok(self.joint(id)?.torque)
    }

    /// Whether the joint is enabled (false once broken or disabled). Errors:
    /// [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`].
    pub fn is_joint_enabled(&self, id: JointId) -> Result<bool, WorldError> {
        Ok(self.joint(id)?.enabled)
    }

    /// The joint's user data. Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`].
    pub fn joint_user_data(&self, id: JointId) -> Result<u64, WorldError> {
        Ok(self.joint(id)?.def.user_data)
    }

    /// The body's joints, in handle order. Errors: [`WorldError::StaleHandle`],
    /// [`WorldError::ForeignHandle`].
    pub fn body_joints(&self, id: BodyId) -> Result<Vec<JointId>, WorldError> {
        let mut link = self.bodies[self.body_index(id)?].joint_head;
        let mut out = Vec::new();
        while link != NULL {
            out.push(self.joint_id(link >> 1));
            link = self.joints[link >> 1].next[(link & 1) as usize];
        }
        out.sort();
        Ok(out)
    }

    /// B's angle relative to A now (radians, in [-π, π), zero at creation) for a revolute,
    /// prismatic, weld or wheel joint. Errors: [`WorldError::StaleHandle`],
    /// [`WorldError::ForeignHandle`]; [`WorldError::WrongJointKind`] for another kind.
    pub fn joint_angle(&self, id: JointId) -> Result<f32, WorldError> {
        let j = self.joint(id)?;
        match j.def.kind {
            JointKind::Revolute(_) | JointKind::Prismatic(_) | JointKind::Weld(_) | JointKind::Wheel(_) => {
                Ok(reduce_angle(self.bodies[j.body_b].angle - self.bodies[j.body_a].angle - j.reference_angle))
            }
            _ => Err(WorldError::WrongJointKind {
                operation: "joint angle",
                requirement: "revolute, prismatic, weld or wheel",
            }),
        }
    }

    /// The translation of a prismatic or wheel joint now (meters along the axis: anchor B
    /// minus anchor A, projected), or a distance joint's length now (meters). Errors:
    /// [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`];
    /// [`WorldError::WrongJointKind`] for another kind.
    pub fn joint_translation(&self, id: JointId) -> Result<f32, WorldError> {
        let j = self.joint(id)?;
        let (pa, pb) = self.joint_world_anchors(id)?;
        match j.def.kind {
            JointKind::Prismatic(_) | JointKind::Wheel(_) => {
                Ok(self.bodies[j.body_a].transform.q.rotate(j.local_axis_a).dot(pb - pa))
            }
            JointKind::Distance(_) => Ok((pb - pa).length()),
            _ => Err(WorldError::WrongJointKind {
                operation: "joint translation",
                requirement: "prismatic, wheel or distance",
            }),
        }
    }

    /// The joint events of the last step (joints broken, joints destroyed with their body),
    /// in the order they happened: breaks by joint handle, then destructions.
    pub fn joint_events(&self) -> &[JointEvent] {
        &self.events.joint
    }

    // ---- setting joints ----

    /// Enables or disables a joint: a disabled joint is not solved and does not link its
    /// bodies' islands (its collision filter stays). Enabling a broken joint mends it. The
    /// bodies wake. Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`].
    pub fn set_joint_enabled(&mut self, id: JointId, enabled: bool) -> Result<(), WorldError> {
        let index = self.joint_index(id)?;
        let j = &self.joints[index];
        let (a, b, was) = (j.body_a, j.body_b, j.constrains());
        self.joints[index].enabled = enabled;
        self.joints[index].impulses = JointImpulses::default();
        let dynamic = self.bodies[a].is_dynamic() && self.bodies[b].is_dynamic();
        self.wake_body_index(a);
        self.wake_body_index(b);
        let now = self.joints[index].constrains();
        if dynamic && was && !now {
            self.islands.mark_split(self.bodies[a].island);
        } else if dynamic && !was && now {
            self.link_islands(a, b);
        }
        Ok(())
    }

    /// Sets the break thresholds (force in N, torque in N·m; `None` never breaks). Errors:
    /// [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`];
    /// [`WorldError::InvalidValue`] unless each is finite and not negative.
    pub fn set_joint_break_thresholds(
        &mut self,
        id: JointId,
        force: Option<f32>,
        torque: Option<f32>,
    ) -> Result<(), WorldError> {
        let index = self.joint_index(id)?;
        check_threshold(force, "joint break force")?;
        check_threshold(torque, "joint break torque")?;
        let def = &mut self.joints[index].def;
        (def.break_force, def.break_torque) = (force, torque);
        Ok(())
    }

    /// Sets the joint's user data. Errors: [`WorldError::StaleHandle`],
    /// [`WorldError::ForeignHandle`].
    pub fn set_joint_user_data(&mut self, id: JointId, user_data: u64) -> Result<(), WorldError> {
        let index = self.joint_index(id)?;
        self.joints[index].def.user_data = user_data;
        Ok(())
    }

    /// Turns a revolute, prismatic, wheel or distance joint's limit on or off and wakes its
    /// bodies. Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`];
    /// [`WorldError::WrongJointKind`] for another kind.
    pub fn set_joint_limit_enabled(&mut self, id: JointId, enabled: bool) -> Result<(), WorldError> {
        self.edit_joint(id, |kind| {
            *match kind {
                JointKind::Revolute(d) => &mut d.enable_limit,
                JointKind::Prismatic(d) => &mut d.enable_limit,
                JointKind::Wheel(d) => &mut d.enable_limit,
                JointKind::Distance(d) => &mut d.enable_limit,
                _ => return Err(wrong("joint limit", "revolute, prismatic, wheel or distance")),
            } = enabled;
            Ok(())
        })
    }

    /// Sets a joint's limits: radians for a revolute joint (within [-π, π]), meters along
    /// the axis for prismatic and wheel joints (within [`MAX_JOINT_LENGTH`]), the least and
    /// greatest length for a distance joint (from 0 to [`MAX_JOINT_LENGTH`]). Wakes its
    /// bodies.
    ///
    /// Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`];
    /// [`WorldError::WrongJointKind`] for another kind; [`WorldError::InvalidValue`] for a
    /// non-finite or out-of-range limit or `lower > upper`; the joint keeps its limits then.
    pub fn set_joint_limits(&mut self, id: JointId, lower: f32, upper: f32) -> Result<(), WorldError> {
        self.edit_joint(id, |kind| {
            match kind {
                JointKind::Revolute(d) => {
                    check_limits(lower, upper, PI, "finite, within [-π, π] radians")?;
                    (d.lower, d.upper) = (lower, upper);
                }
                JointKind::Prismatic(d) => {
                    check_limits(lower, upper, MAX_JOINT_LENGTH, LIMIT_REQUIREMENT)?;
                    (d.lower, d.upper) = (lower, upper);
                }
                JointKind::Wheel(d) => {
                    check_limits(lower, upper, MAX_JOINT_LENGTH, LIMIT_REQUIREMENT)?;
                    (d.lower, d.upper) = (lower, upper);
                }
                JointKind::Distance(d) => {
                    check_length_range(lower, upper)?;
                    (d.min_length, d.max_length) = (lower, upper);
                }
                _ => return Err(wrong("joint limits", "revolute, prismatic, wheel or distance")),
            }
            Ok(())
        })
    }

    /// Turns a revolute, prismatic, wheel or distance joint's motor on or off and wakes its
    /// bodies. Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`];
    /// [`WorldError::WrongJointKind`] for another kind.
    pub fn set_joint_motor_enabled(&mut self, id: JointId, enabled: bool) -> Result<(), WorldError> {
        self.edit_joint(id, |kind| {
            *match kind {
                JointKind::Revolute(d) => &mut d.enable_motor,
                JointKind::Prismatic(d) => &mut d.enable_motor,
                JointKind::Wheel(d) => &mut d.enable_motor,
                JointKind::Distance(d) => &mut d.enable_motor,
                _ => return Err(wrong("joint motor", "revolute, prismatic, wheel or distance")),
            } = enabled;
            Ok(())
        })
    }

    /// Sets a joint motor's target speed (rad/s for revolute and wheel joints, m/s for
    /// prismatic and distance joints) and its greatest torque (N·m) or force (N). Wakes its
    /// bodies.
    ///
    /// Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`];
    /// [`WorldError::WrongJointKind`] for another kind; [`WorldError::InvalidValue`] for a
    /// speed beyond [`MAX_ANGULAR_SPEED`](crate::settings::MAX_ANGULAR_SPEED) or
    /// [`MAX_LINEAR_SPEED`](crate::settings::MAX_LINEAR_SPEED), or a negative or non-finite
    /// maximum; the joint keeps its motor then.
    pub fn set_joint_motor(&mut self, id: JointId, speed: f32, max: f32) -> Result<(), WorldError> {
        self.edit_joint(id, |kind| {
            let (s, m, linear) = match kind {
                JointKind::Revolute(d) => (&mut d.motor_speed, &mut d.max_motor_torque, false),
                JointKind::Wheel(d) => (&mut d.motor_speed, &mut d.max_motor_torque, false),
                JointKind::Prismatic(d) => (&mut d.motor_speed, &mut d.max_motor_force, true),
                JointKind::Distance(d) => (&mut d.motor_speed, &mut d.max_motor_force, true),
                _ => return Err(wrong("joint motor", "revolute, prismatic, wheel or distance")),
            };
            check_motor(speed, max, linear)?;
            (*s, *m) = (speed, max);
            Ok(())
        })
    }

    /// Turns a revolute, prismatic, wheel or distance joint's spring on or off and wakes its
    /// bodies. Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`];
    /// [`WorldError::WrongJointKind`] for another kind.
    pub fn set_joint_spring_enabled(&mut self, id: JointId, enabled: bool) -> Result<(), WorldError> {
        self.edit_joint(id, |kind| {
            *match kind {
                JointKind::Revolute(d) => &mut d.enable_spring,
                JointKind::Prismatic(d) => &mut d.enable_spring,
                JointKind::Wheel(d) => &mut d.enable_spring,
                JointKind::Distance(d) => &mut d.enable_spring,
                _ => return Err(wrong("joint spring", "revolute, prismatic, wheel or distance")),
            } = enabled;
            Ok(())
        })
    }

    /// Sets a joint spring's natural frequency (Hz) and damping ratio: the spring of a
    /// revolute, prismatic, wheel or distance joint, or a weld joint's linear and angular
    /// springs both. Wakes its bodies.
    ///
    /// Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`];
    /// [`WorldError::WrongJointKind`] for another kind; [`WorldError::InvalidValue`] unless
    /// both are finite, from 0 to [`MAX_JOINT_HERTZ`](crate::settings::MAX_JOINT_HERTZ) and
    /// [`MAX_JOINT_DAMPING_RATIO`](crate::settings::MAX_JOINT_DAMPING_RATIO).
    pub fn set_joint_spring(&mut self, id: JointId, hertz: f32, damping_ratio: f32) -> Result<(), WorldError> {
        check_spring(hertz, damping_ratio)?;
        self.edit_joint(id, |kind| {
            match kind {
                JointKind::Revolute(d) => (d.hertz, d.damping_ratio) = (hertz, damping_ratio),
                JointKind::Prismatic(d) => (d.hertz, d.damping_ratio) = (hertz, damping_ratio),
                JointKind::Wheel(d) => (d.hertz, d.damping_ratio) = (hertz, damping_ratio),
                JointKind::Distance(d) => (d.hertz, d.damping_ratio) = (hertz, damping_ratio),
                JointKind::Weld(d) => {
                    (d.linear_hertz, d.linear_damping_ratio) = (hertz, damping_ratio);
                    (d.angular_hertz, d.angular_damping_ratio) = (hertz, damping_ratio);
                }
                _ => return Err(wrong("joint spring", "revolute, prismatic, wheel, distance or weld")),
            }
            Ok(())
        })
    }

    /// Sets a motor joint's target: B's center of mass at `linear_offset` (meters, in A's
    /// frame) and B's angle at A's plus `angular_offset` (radians). Wakes its bodies. For a
    /// mouse joint (A static at the origin with no rotation), `linear_offset` is the world
    /// point to drag B's center of mass to.
    ///
    /// Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`];
    /// [`WorldError::WrongJointKind`] for another kind; [`WorldError::InvalidValue`] for an
    /// offset beyond [`MAX_COORDINATE`](crate::settings::MAX_COORDINATE) or an angle beyond 1e6 radians.
    pub fn set_motor_joint_target(
        &mut self,
        id: JointId,
        linear_offset: Vec2,
        angular_offset: f32,
    ) -> Result<(), WorldError> {
        check_vector(linear_offset, "motor joint linear offset")?;
        check_offset_angle(angular_offset)?;
        let index = self.joint_index(id)?;
        let JointKind::Motor(d) = &mut self.joints[index].def.kind else {
            return Err(wrong("motor joint target", "motor"));
        };
        (d.linear_offset, d.angular_offset) = (linear_offset, angular_offset);
        self.joints[index].reference_angle = angular_offset;
        let (a, b) = (self.joints[index].body_a, self.joints[index].body_b);
        self.wake_body_index(a);
        self.wake_body_index(b);
        Ok(())
    }

    /// Applies `edit` to a copy of the joint's kind and, when it succeeds, keeps the copy and
    /// wakes the joint's bodies: a refused edit changes nothing.
    fn edit_joint(
        &mut self,
        id: JointId,
        edit: impl FnOnce(&mut JointKind) -> Result<(), WorldError>,
    ) -> Result<(), WorldError> {
        let index = self.joint_index(id)?;
        let mut kind = self.joints[index].def.kind;
        edit(&mut kind)?;
        self.joints[index].def.kind = kind;
        let (a, b) = (self.joints[index].body_a, self.joints[index].body_b);
        self.wake_body_index(a);
        self.wake_body_index(b);
        Ok(())
    }
}

const LIMIT_REQUIREMENT: &str = "finite, within MAX_JOINT_LENGTH (1e9 m)";

fn wrong(operation: &'static str, requirement: &'static str) -> WorldError {
    WorldError::WrongJointKind { operation, requirement }
}

/// Fails unless an angular offset is finite and within 1e6 radians.
fn check_offset_angle(angle: f32) -> Result<(), WorldError> {
    super::error::check_range(angle, (-1.0e6, 1.0e6), "motor joint angular offset", "finite and within 1e6 radians")
}

/// Fails unless every option of a joint kind is in its range (anchors and axes are checked
/// with the frame).
fn validate_kind(kind: &JointKind) -> Result<(), WorldError> {
    match *kind {
        JointKind::Revolute(d) => {
            check_limits(d.lower, d.upper, PI, "finite, within [-π, π] radians")?;
            check_motor(d.motor_speed, d.max_motor_torque, false)?;
            check_spring(d.hertz, d.damping_ratio)
        }
        JointKind::Prismatic(d) => {
            check_limits(d.lower, d.upper, MAX_JOINT_LENGTH, LIMIT_REQUIREMENT)?;
            check_motor(d.motor_speed, d.max_motor_force, true)?;
            check_spring(d.hertz, d.damping_ratio)
        }
        JointKind::Wheel(d) => {
            check_limits(d.lower, d.upper, MAX_JOINT_LENGTH, LIMIT_REQUIREMENT)?;
            check_motor(d.motor_speed, d.max_motor_torque, false)?;
            check_spring(d.hertz, d.damping_ratio)
        }
        JointKind::Distance(d) => {
            check_motor(d.motor_speed, d.max_motor_force, true)?;
            check_spring(d.hertz, d.damping_ratio)
        }
        JointKind::Weld(d) => {
            check_hertz(d.linear_hertz, "weld joint linear hertz")?;
            check_hertz(d.angular_hertz, "weld joint angular hertz")?;
            check_damping(d.linear_damping_ratio, "weld joint linear damping ratio")?;
            check_damping(d.angular_damping_ratio, "weld joint angular damping ratio")
        }
        JointKind::Motor(d) => {
            check_vector(d.linear_offset, "motor joint linear offset")?;
            check_offset_angle(d.angular_offset)?;
            let what = ("motor joint max force", "finite, from 0 to MAX_FORCE (1e20 N)");
            super::error::check_range(d.max_force, (0.0, crate::settings::MAX_FORCE), what.0, what.1)?;
            let what = ("motor joint max torque", "finite, from 0 to MAX_TORQUE (1e30 N·m)");
            super::error::check_range(d.max_torque, (0.0, crate::settings::MAX_TORQUE), what.0, what.1)?;
            let what = ("motor joint correction factor", "finite, from 0 to 1");
            super::error::check_range(d.correction_factor, (0.0, 1.0), what.0, what.1)
        }
        JointKind::Filter => Ok(()),
    }
}

/// Whether a joint between bodies `a` and `b` keeps their shapes from colliding.
#[inline]
pub(crate) fn joined_without_collision(
    bodies: &super::handles::Slots<super::body::Body>,
    joints: &super::handles::Slots<Joint>,
    a: u32,
    b: u32,
) -> bool {
    let mut link = bodies[a].joint_head;
    while link != NULL {
        let j = &joints[link >> 1];
        if j.other(link & 1) == b && !j.def.collide_connected {
            return true;
        }
        link = j.next[(link & 1) as usize];
    }
    false
}
