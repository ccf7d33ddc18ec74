//! The error of every query, in 2D and in 3D.

use thiserror::Error;

/// Why a query could not run. Queries check their numeric parameters and never return NaN.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum QueryError {
    /// An input number is NaN or infinite.
    #[error("{what} is not a finite number")]
    NonFinite {
        /// Which input.
        what: &'static str,
    },
    /// A parameter is out of its range.
    #[error("{what} must be {requirement}, got {value}")]
    OutOfRange {
        /// Which parameter.
        what: &'static str,
        /// The accepted range, in words.
        requirement: &'static str,
        /// The value given.
        value: f32,
    },
}
