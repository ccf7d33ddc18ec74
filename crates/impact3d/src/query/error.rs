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
}
