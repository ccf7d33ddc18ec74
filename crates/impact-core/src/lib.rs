//! The dimension-free parts of impact, shared by `impact2d` and `impact3d`: nothing here
//! knows whether space has two dimensions or three (no `cfg(feature = "dim3")` anywhere).
//!
//! - [`trig`]: deterministic cosine and sine (bit-identical on every platform);
//! - [`interval`]: when two translating boxes first touch (swept-AABB time of impact).

pub mod interval;
pub mod trig;

pub use trig::cos_sin;
