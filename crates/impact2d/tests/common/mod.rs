//! Shared test support: the f64 reference geometry and the seeded case generators.

#![allow(dead_code)]

pub mod cases;
pub mod reference;
