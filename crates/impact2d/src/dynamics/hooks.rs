//! Contact hooks: the user's say in which shapes collide ([`ContactHooks::should_collide`],
//! a custom pair filter) and in which touching contacts are solved this step
//! ([`ContactHooks::pre_solve`]: one-way platforms), after Box2D v3's `b2CustomFilterFcn` and
//! `b2PreSolveFcn`.
//!
//! The hooks are an `Arc<dyn ContactHooks>` the world keeps ([`World::set_contact_hooks`]):
//! they take `&self` and are `Send + Sync`, so a world with hooks stays `Clone` (a clone
//! shares its original's hooks), `Send` and `Sync`. A hook with state of its own keeps it
//! behind a `Mutex` or atomics. Both hooks are called with the world itself, read only, so
//! they may look at bodies, shapes and user data; and in a deterministic order (below), so the
//! same calls to the world with the same hooks give the same states, bit for bit.

use std::fmt;
use std::sync::Arc;

use super::handles::ShapeId;
use super::world::World;
use crate::narrow_phase::Manifold;

/// The user's hooks into contact handling. Both methods have defaults that change nothing
/// (every pair collides, every contact is solved), so an implementation writes only what it
/// needs. Install them with [`World::set_contact_hooks`].
///
/// The hooks should answer from the arguments and from what they read of `world`: the world
/// asks again whenever it needs an answer (continuous collision may ask about a pair the
/// narrow phase asked about in the same step), and the number of calls is not part of the
/// contract. Calls come in a deterministic order for the same sequence of world calls.
pub trait ContactHooks: Send + Sync {
    /// Whether two shapes may collide (a custom pair filter, after the category, mask and
    /// group of [`Filter`](crate::Filter) and the other built-in rules let them). `shape_a`
    /// has the smaller handle. Returning false makes the pair inert: no contact, no contact or
    /// sensor events, no impulses, and continuous collision neither stops nor reports them.
    ///
    /// Called when the pair begins (its shapes' fat boxes begin to overlap), in the broad
    /// phase's pair order (sorted by pair key); the answer holds until the pair ends. Also
    /// called by continuous collision for each pair it would sweep (fast bodies against
    /// shapes they have no contact with yet), by the sensor sweep and by the joint correction
    /// after impacts, in their deterministic orders. To have a pair asked again, reset a
    /// shape's pairs with [`World::set_shape_filter`] (the same filter will do).
    fn should_collide(&self, world: &World, shape_a: ShapeId, shape_b: ShapeId) -> bool {
        let _ = (world, shape_a, shape_b);
        true
    }

    /// Whether a touching solid contact is solved in this step. `shape_a` has the smaller
    /// handle and `manifold`'s normal goes from A to B (its points, separations and normal in
    /// world coordinates, meters). Returning false disables the contact for this step only:
    /// it counts as not touching (no impulses, no island link; a touch that began ends, with
    /// the end event when contact events are on), and continuous collision does not stop its
    /// bodies against each other for the rest of the step. The next step asks again.
    ///
    /// Called once per step for every touching solid contact with an awake body, after the
    /// narrow phase, in contact order; and by continuous collision for an impact it is about
    /// to resolve, with the manifold at the time of impact (the bodies' states read from
    /// `world` are then those the solver left, before continuous collision's changes), in
    /// time-of-impact order. Sensor contacts are not asked.
    fn pre_solve(&self, world: &World, shape_a: ShapeId, shape_b: ShapeId, manifold: &Manifold) -> bool {
        let _ = (world, shape_a, shape_b, manifold);
        true
    }
}

/// The world's hooks, if any: shared by clones of the world.
#[derive(Clone, Default)]
pub(crate) struct Hooks(pub Option<Arc<dyn ContactHooks>>);

impl fmt::Debug for Hooks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_some() { "Hooks(Some(..))" } else { "Hooks(None)" })
    }
}

impl World {
    /// Installs the contact hooks (see [`ContactHooks`]), replacing any before; `None`
    /// removes them. The custom filter applies to pairs that begin from the next step on
    /// (pairs already made stay until they end: reset a shape's pairs with
    /// [`World::set_shape_filter`] to have them asked), pre-solve from the next step on.
    /// Without hooks, nothing is called and nothing is added to the step.
    pub fn set_contact_hooks(&mut self, hooks: Option<Arc<dyn ContactHooks>>) {
        self.hooks = Hooks(hooks);
    }

    /// The contact hooks installed, if any.
    pub fn contact_hooks(&self) -> Option<&Arc<dyn ContactHooks>> {
        self.hooks.0.as_ref()
    }

    /// Whether the custom filter lets shapes `a` and `b` (indices) collide: true without hooks.
    #[inline]
    pub(crate) fn allows_pair(&self, a: u32, b: u32) -> bool {
        match &self.hooks.0 {
            None => true,
            Some(hooks) => {
                let (x, y) = (a.min(b), a.max(b));
                hooks.should_collide(self, self.shape_id(x), self.shape_id(y))
            }
        }
    }

    /// Whether pre-solve lets the contact of shapes `a` and `b` (indices, `a < b`) with
    /// `manifold` be solved: true without hooks.
    #[inline]
    pub(crate) fn allows_contact(&self, a: u32, b: u32, manifold: &Manifold) -> bool {
        match &self.hooks.0 {
            None => true,
            Some(hooks) => hooks.pre_solve(self, self.shape_id(a), self.shape_id(b), manifold),
        }
    }
}
