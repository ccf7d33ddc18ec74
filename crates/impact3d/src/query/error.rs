//! The error of every 3D query: the one shared with 2D.

pub use impact_core::QueryError;
