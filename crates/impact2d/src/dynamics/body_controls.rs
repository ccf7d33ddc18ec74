//! Body controls at run time: a body's type, its continuous-collision flags, gravity scale,
//! damping, fixed rotation, whether it takes part in the simulation at all, sleep, mass data,
//! user data, and a kinematic body's target pose.
//!
//! Changing what a body is (its type, or taking it out of the simulation) goes through two
//! halves: [`World::detach_body`] ends its contacts and takes it out of the broad phase, its
//! island and the awake set; [`World::attach_body`] puts it back as its type says. Between
//! them the body's record can change freely; after them its contacts are found again by the
//! next step's broad phase, as for a new shape.

use super::body::{BodyType, reduce_angle};
use super::error::{WorldError, check_range, check_vector};
use super::handles::{BodyId, NULL, ShapeId};
use super::world::World;
use crate::broad_phase::ProxyKind;
use crate::math::{Rot, Vec2};
use crate::settings::{
    MAX_ANGULAR_SPEED, MAX_BODY_MASS, MAX_DAMPING, MAX_GRAVITY_SCALE, MAX_LINEAR_SPEED, MAX_TIME_STEP, TIME_TO_SLEEP,
};

/// A dynamic body's mass properties: mass (kg), center of mass (meters, body coordinates) and
/// rotational inertia about the center of mass (kg·m²).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyMassData {
    /// Mass (kg).
    pub mass: f32,
    /// Center of mass in body coordinates (meters).
    pub local_center: Vec2,
    /// Rotational inertia about the center of mass (kg·m²).
    pub rotational_inertia: f32,
}

impl World {
    /// Changes a body's type (static, kinematic or dynamic), keeping its handle, shapes,
    /// joints, pose and user data. Its contacts end now (with end events if touching; the
    /// bodies they touched wake) and are found again at the next step as its new type pairs;
    /// a body that becomes static stops, a body that becomes dynamic gets its mass from its
    /// shapes and wakes, and its joints link its island again.
    ///
    /// Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`]; [`WorldError::BroadPhase`]
    /// should a shape's box no longer fit the broad phase (it did when it was made).
    pub fn set_body_type(&mut self, id: BodyId, body_type: BodyType) -> Result<(), WorldError> {
        let index = self.body_index(id)?;
        if self.bodies[index].body_type == body_type {
            return Ok(());
        }
        let enabled = self.bodies[index].enabled;
        if enabled {
            self.detach_body(index);
        }
        let b = &mut self.bodies[index];
        b.body_type = body_type;
        if body_type == BodyType::Static {
            (b.linear_velocity, b.angular_velocity) = (Vec2::ZERO, 0.0);
        }
        (b.force, b.torque, b.sleep_time) = (Vec2::ZERO, 0.0, 0.0);
        self.update_mass(index);
        if enabled {
            self.attach_body(index)?;
        }
        Ok(())
    }

    /// Takes a body out of the simulation (`false`) or puts it back (`true`). A disabled body
    /// keeps its handle, shapes, joints and state but has no contacts, is in no broad phase
    /// (queries and other bodies do not see it), does not move, and its joints are not
    /// solved; setters still work on it. Enabling puts it back awake, its contacts found at
    /// the next step.
    ///
    /// Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`];
    /// [`WorldError::BroadPhase`] when enabling a body whose shapes no longer fit the broad
    /// phase.
    pub fn set_body_enabled(&mut self, id: BodyId, enabled: bool) -> Result<(), WorldError> {
        let index = self.body_index(id)?;
        if self.bodies[index].enabled == enabled {
            return Ok(());
        }
        if enabled {
            self.bodies[index].enabled = true;
            self.attach_body(index)
        } else {
            self.detach_body(index);
            self.bodies[index].enabled = false;
            Ok(())
        }
    }

    /// Whether a body takes part in the simulation (see [`World::set_body_enabled`]).
    /// Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`].
    pub fn is_body_enabled(&self, id: BodyId) -> Result<bool, WorldError> {
        Ok(self.bodies[self.body_index(id)?].enabled)
    }

    /// Ends a body's contacts, removes its shapes' proxies, and takes it out of its island
    /// and the awake set.
    fn detach_body(&mut self, index: u32) {
        while self.bodies[index].contact_head != NULL {
            let key = self.bodies[index].contact_head;
            self.destroy_contact(key >> 1, true);
        }
        let mut shape = self.bodies[index].shape_head;
        while shape != NULL {
            let proxy = self.colliders[shape].proxy;
            if proxy.kind() == ProxyKind::Static {
                self.mark_static_dirty();
            }
            let removed = self.broad_phase.remove_proxy(proxy);
            debug_assert!(removed.is_ok());
            shape = self.colliders[shape].next;
        }
        self.remove_body_island(index);
        self.awake_remove(index);
    }

    /// Puts a body back as its type says: its shapes in the broad phase, a dynamic body in an
    /// island of its own (linked to its jointed partners) and awake, a kinematic body awake.
    fn attach_body(&mut self, index: u32) -> Result<(), WorldError> {
        let kind = match self.bodies[index].body_type {
            BodyType::Static => ProxyKind::Static,
            BodyType::Kinematic => ProxyKind::Kinematic,
            BodyType::Dynamic => ProxyKind::Dynamic,
        };
        let xf = self.bodies[index].transform;
        let mut shape = self.bodies[index].shape_head;
        while shape != NULL {
            let c = &mut self.colliders[shape];
            c.aabb = c.geometry.aabb(xf);
            c.proxy = self.broad_phase.create_proxy(c.aabb, kind, c.filter, u64::from(shape))?;
            shape = c.next;
        }
        match kind {
            ProxyKind::Static => self.mark_static_dirty(),
            ProxyKind::Kinematic => self.awake_insert(index),
            ProxyKind::Dynamic => {
                self.add_body_island(index, true);
                self.awake_insert(index);
                self.link_joint_islands(index);
            }
        }
        // Its joint partners take up the joints again.
        let mut key = self.bodies[index].joint_head;
        while key != NULL {
            let j = &self.joints[key >> 1];
            let (other, next) = (j.other(key & 1), j.next[(key & 1) as usize]);
            self.wake_body_index(other);
            key = next;
        }
        Ok(())
    }

    /// Sets whether a body is a bullet (see [`BodyDef::bullet`](super::BodyDef::bullet)), from
    /// the next step on. Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`].
    pub fn set_bullet(&mut self, id: BodyId, bullet: bool) -> Result<(), WorldError> {
        let index = self.body_index(id)?;
        self.bodies[index].bullet = bullet;
        Ok(())
    }

    /// Sets whether continuous collision sweeps a fast body (see
    /// [`BodyDef::continuous`](super::BodyDef::continuous)), from the next step on. Errors:
    /// [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`].
    pub fn set_continuous(&mut self, id: BodyId, continuous: bool) -> Result<(), WorldError> {
        let index = self.body_index(id)?;
        self.bodies[index].continuous = continuous;
        Ok(())
    }

    /// The body's gravity scale. Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`].
    pub fn gravity_scale(&self, id: BodyId) -> Result<f32, WorldError> {
        Ok(self.bodies[self.body_index(id)?].gravity_scale)
    }

    /// Sets the factor of the world's gravity this body feels (1 normal, 0 floats, negative
    /// rises), and wakes it.
    ///
    /// Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`];
    /// [`WorldError::InvalidValue`] unless finite and at most [`MAX_GRAVITY_SCALE`] (1000) in
    /// magnitude.
    pub fn set_gravity_scale(&mut self, id: BodyId, scale: f32) -> Result<(), WorldError> {
        let index = self.body_index(id)?;
        let requirement = "finite, at most MAX_GRAVITY_SCALE (1000) in magnitude";
        check_range(scale, (-MAX_GRAVITY_SCALE, MAX_GRAVITY_SCALE), "body gravity scale", requirement)?;
        self.bodies[index].gravity_scale = scale;
        self.wake_body_index(index);
        Ok(())
    }

    /// The body's linear and angular damping (1/s). Errors: [`WorldError::StaleHandle`],
    /// [`WorldError::ForeignHandle`].
    pub fn damping(&self, id: BodyId) -> Result<(f32, f32), WorldError> {
        let b = &self.bodies[self.body_index(id)?];
        Ok((b.linear_damping, b.angular_damping))
    }

    /// Sets a body's linear and angular damping (1/s; see
    /// [`BodyDef::linear_damping`](super::BodyDef::linear_damping)).
    ///
    /// Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`];
    /// [`WorldError::InvalidValue`] unless each is finite, from 0 to [`MAX_DAMPING`] (1e6 1/s).
    pub fn set_damping(&mut self, id: BodyId, linear: f32, angular: f32) -> Result<(), WorldError> {
        let index = self.body_index(id)?;
        let requirement = "finite, from 0 to MAX_DAMPING (1e6 1/s)";
        check_range(linear, (0.0, MAX_DAMPING), "body linear damping", requirement)?;
        check_range(angular, (0.0, MAX_DAMPING), "body angular damping", requirement)?;
        let b = &mut self.bodies[index];
        (b.linear_damping, b.angular_damping) = (linear, angular);
        Ok(())
    }

    /// Whether the body has fixed rotation. Errors: [`WorldError::StaleHandle`],
    /// [`WorldError::ForeignHandle`].
    pub fn fixed_rotation(&self, id: BodyId) -> Result<bool, WorldError> {
        Ok(self.bodies[self.body_index(id)?].fixed_rotation)
    }

    /// Sets whether a body never turns. Fixing stops its turn; its mass data is recomputed from
    /// its shapes (as [`World::reset_mass_data`]), and it wakes.
    ///
    /// Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`].
    pub fn set_fixed_rotation(&mut self, id: BodyId, fixed: bool) -> Result<(), WorldError> {
        let index = self.body_index(id)?;
        let b = &mut self.bodies[index];
        b.fixed_rotation = fixed;
        if fixed {
            b.angular_velocity = 0.0;
        }
        self.update_mass(index);
        self.wake_body_index(index);
        Ok(())
    }

    /// Puts a body's island to sleep now (every body touching it or jointed to it, as islands
    /// go), or wakes it. A kinematic body sleeps alone and stops; a static body is unchanged.
    /// Sleeping bodies wake as usual (touched by an awake body, moved, pushed).
    ///
    /// Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`].
    pub fn set_awake(&mut self, id: BodyId, awake: bool) -> Result<(), WorldError> {
        let index = self.body_index(id)?;
        let b = &self.bodies[index];
        if awake {
            self.wake_body_index(index);
            return Ok(());
        }
        if !b.is_awake() || !b.enabled {
            return Ok(());
        }
        match b.body_type {
            BodyType::Static => {}
            BodyType::Kinematic => {
                let b = &mut self.bodies[index];
                (b.linear_velocity, b.angular_velocity) = (Vec2::ZERO, 0.0);
                self.awake_remove(index);
            }
            BodyType::Dynamic => {
                // As if every body of the island had rested long enough: the island splits if a
                // touch ended in it, and every part sleeps.
                let island = b.island;
                let mut body = self.islands.items[island as usize].head;
                while body != NULL {
                    self.bodies[body].sleep_time = TIME_TO_SLEEP;
                    body = self.bodies[body].island_next;
                }
                self.sleep_or_split(island);
            }
        }
        Ok(())
    }

    /// A dynamic body's mass data. Static and kinematic bodies have zero mass and inertia and
    /// their center at the origin. Errors: [`WorldError::StaleHandle`],
    /// [`WorldError::ForeignHandle`].
    pub fn mass_data(&self, id: BodyId) -> Result<BodyMassData, WorldError> {
        let b = &self.bodies[self.body_index(id)?];
        Ok(BodyMassData { mass: b.mass, local_center: b.local_center, rotational_inertia: b.inertia })
    }

    /// Overrides a dynamic body's mass data (for a crate whose shapes are hollow, or a
    /// character that must not tip over). Kept until a shape is added, destroyed or its
    /// density set, or [`World::reset_mass_data`] or [`World::set_fixed_rotation`] is called,
    /// which compute it from the shapes again. Ignored for static and kinematic bodies. The
    /// body wakes.
    ///
    /// Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`];
    /// [`WorldError::InvalidValue`] unless the mass is finite, above 0 and at most
    /// [`MAX_BODY_MASS`] (1e18 kg), the center within
    /// [`MAX_COORDINATE`](crate::settings::MAX_COORDINATE), and the inertia
    /// finite and not negative.
    pub fn set_mass_data(&mut self, id: BodyId, data: BodyMassData) -> Result<(), WorldError> {
        let index = self.body_index(id)?;
        if !(data.mass > 0.0 && data.mass <= MAX_BODY_MASS) {
            let requirement = "finite, above 0 and at most MAX_BODY_MASS (1e18 kg)";
            return Err(WorldError::InvalidValue { what: "body mass", requirement });
        }
        check_vector(data.local_center, "body center of mass")?;
        check_range(data.rotational_inertia, (0.0, f32::MAX), "body rotational inertia", "finite and not negative")?;
        if self.bodies[index].is_dynamic() {
            self.set_mass_properties(index, data.local_center, data.mass, data.rotational_inertia);
            self.wake_body_index(index);
        }
        Ok(())
    }

    /// Computes a body's mass data from its shapes again (undoing [`World::set_mass_data`]).
    /// Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`].
    pub fn reset_mass_data(&mut self, id: BodyId) -> Result<(), WorldError> {
        let index = self.body_index(id)?;
        self.update_mass(index);
        Ok(())
    }

    /// A shape's density (kg/m²). Errors: [`WorldError::StaleHandle`],
    /// [`WorldError::ForeignHandle`].
    pub fn shape_density(&self, id: ShapeId) -> Result<f32, WorldError> {
        Ok(self.colliders[self.shape_index(id)?].density)
    }

    /// Sets a shape's density (kg/m²); its body's mass data is computed from its shapes again
    /// and it wakes.
    ///
    /// Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`];
    /// [`WorldError::InvalidValue`] for a density outside 0 to
    /// [`MAX_DENSITY`](crate::settings::MAX_DENSITY), or one that would make a dynamic body
    /// heavier than [`MAX_BODY_MASS`] or its inertia overflow (`"body mass"`); the shape keeps
    /// its density then.
    pub fn set_shape_density(&mut self, id: ShapeId, density: f32) -> Result<(), WorldError> {
        let index = self.shape_index(id)?;
        super::collider::check_density(density)?;
        let body = self.colliders[index].body;
        let old = self.colliders[index].density;
        self.colliders[index].density = density;
        if self.bodies[body].is_dynamic() && !self.mass_fits(body, None) {
            self.colliders[index].density = old;
            let requirement = "at most MAX_BODY_MASS (1e18 kg), its rotational inertia finite (lower the density)";
            return Err(WorldError::InvalidValue { what: "body mass", requirement });
        }
        self.update_mass(body);
        self.wake_body_index(body);
        Ok(())
    }

    /// Sets a body's user data. Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`].
    pub fn set_body_user_data(&mut self, id: BodyId, user_data: u64) -> Result<(), WorldError> {
        let index = self.body_index(id)?;
        self.bodies[index].user_data = user_data;
        Ok(())
    }

    /// Sets a shape's user data. Errors: [`WorldError::StaleHandle`],
    /// [`WorldError::ForeignHandle`].
    pub fn set_shape_user_data(&mut self, id: ShapeId, user_data: u64) -> Result<(), WorldError> {
        let index = self.shape_index(id)?;
        self.colliders[index].user_data = user_data;
        Ok(())
    }

    /// Moves a kinematic (or dynamic) body so that it reaches the pose `position` (its origin,
    /// meters) and `angle` (radians) at the end of the next step of `dt` seconds: its velocities
    /// are set to get there (the shorter way round), and it wakes. Unlike
    /// [`World::set_transform`], the body moves through the step, so what stands on a moving
    /// platform is carried along and continuous collision sweeps it (after Box2D v3.1's
    /// `b2Body_SetTargetTransform`). A dynamic body is then also moved by gravity and
    /// contacts, so it arrives only roughly; a static body is unchanged.
    ///
    /// Errors: [`WorldError::StaleHandle`], [`WorldError::ForeignHandle`];
    /// [`WorldError::InvalidValue`] for a non-finite or out-of-range position or angle, a `dt`
    /// not above 0 and at most [`MAX_TIME_STEP`], or a pose too far to reach in `dt` within
    /// [`MAX_LINEAR_SPEED`] and [`MAX_ANGULAR_SPEED`].
    pub fn set_target_transform(&mut self, id: BodyId, position: Vec2, angle: f32, dt: f32) -> Result<(), WorldError> {
        let index = self.body_index(id)?;
        check_vector(position, "target position")?;
        super::body::check_angle(angle)?;
        if !(dt > 0.0 && dt <= MAX_TIME_STEP) {
            return Err(WorldError::InvalidValue {
                what: "time step",
                requirement: "above 0 and at most MAX_TIME_STEP",
            });
        }
        let b = &self.bodies[index];
        if b.body_type == BodyType::Static {
            return Ok(());
        }
        let center = position + Rot::from_angle(angle).rotate(b.local_center);
        let v = (center - b.center) / dt;
        let turn = reduce_angle(reduce_angle(angle) - b.angle);
        let w = if b.fixed_rotation && b.is_dynamic() { 0.0 } else { turn / dt };
        if !(v.is_finite() && v.length() <= MAX_LINEAR_SPEED && w.abs() <= MAX_ANGULAR_SPEED) {
            let requirement = "reachable in dt within MAX_LINEAR_SPEED (1e6 m/s) and MAX_ANGULAR_SPEED (1e5 rad/s)";
            return Err(WorldError::InvalidValue { what: "target transform", requirement });
        }
        let b = &mut self.bodies[index];
        (b.linear_velocity, b.angular_velocity) = (v, w);
        self.wake_body_index(index);
        Ok(())
    }
}
