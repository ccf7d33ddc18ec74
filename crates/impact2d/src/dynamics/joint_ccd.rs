//! Joints after continuous collision (placeholder).

use super::world::World;

impl World {
    /// After continuous collision.
    pub(crate) fn correct_joints_after_impacts(&mut self) {}
}
