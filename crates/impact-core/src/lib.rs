//! The dimension-free parts of impact, shared by `impact2d` and `impact3d`: nothing here
//! knows whether space has two dimensions or three (no `cfg(feature = "dim3")` anywhere).
//!
//! - [`trig`]: deterministic cosine and sine (bit-identical on every platform);
//! - [`interval`]: when two translating boxes first touch (swept-AABB time of impact);
//! - [`error`]: the error every query returns ([`QueryError`]);
//! - [`toi`]: what a time of impact query can find ([`ToiState`]), the band it stops in
//!   ([`toi::Band`]), its budgets, the certificate's chord bound and the closing time of two
//!   translating circles or spheres;
//! - [`root`]: the bracketed root finder that bilateral advancement drives separations with.

pub mod error;
pub mod interval;
pub mod root;
pub mod toi;
pub mod trig;

pub use error::QueryError;
pub use toi::ToiState;
pub use trig::cos_sin;
