//! The error of every 3D query.

use thiserror::Error;

/// Why a query refused its input.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum QueryError {
    /// An input number is NaN or infinite.
    #[error("{what} is not finite")]
    NonFinite {
        /// Which input.
        what: &'static str,
    },
    /// A parameter outside its range.
    #[error("{what} must be {requirement}, got {value}")]
    OutOfRange {
        /// Which parameter.
        what: &'static str,
        /// The range it must be in.
        requirement: &'static str,
        /// The value given.
        value: f32,
    },
}
