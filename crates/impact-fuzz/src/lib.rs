//! Fuzzing targets for impact, and a stable runner for them.
//!
//! Three targets read a case from a byte string and check it (issue 18's contract):
//! - [`queries`]: every pairwise query (distance, penetration, segment distance, shape cast,
//!   ray casts, time of impact by bilateral and conservative advancement, contact manifolds)
//!   against an independent f64 reference, by scale tier ([`Tier`]);
//! - [`world_script`]: random scripts of world calls (create and destroy, setters, forces and
//!   impulses, steps with odd time steps and sub-steps), checking after every call that a
//!   refused call changed nothing and that every body stays finite, within the coordinate
//!   limit and within the speed caps;
//! - [`scene_file`]: built-in scene files with mutated numbers and bytes, through the
//!   command's validation and run: refused with a located error, or run finitely.
//!
//! The same functions run under libFuzzer (`fuzz/`, `cargo +nightly fuzz run TARGET`) and
//! under the stable runner ([`runner`]), which feeds them seeded bytes: the test suite runs a
//! bounded number of cases per target, `impact-fuzz --cases N` a long run. The reference is
//! the brute-force f64 geometry of `crates/impact2d/tests/common/reference.rs` (no GJK, no
//! EPA, no root finder: enumeration and Lipschitz-bounded conservative advancement).

pub mod queries;
pub mod runner;
pub mod scene_file;
pub mod source;
pub mod tally;
pub mod world_script;

/// The f64 brute-force reference shared with impact2d's tests.
#[path = "../../impact2d/tests/common/reference.rs"]
#[allow(missing_docs, clippy::all)]
pub mod reference;

pub use tally::{Fault, Tally, Tier, Verdict};

/// A fuzzing target: a name and the check of one case.
#[derive(Clone, Copy)]
pub struct Target {
    /// The target's name (`queries`, `world_script`, `scene_file`).
    pub name: &'static str,
    /// Checks the case read from the bytes.
    pub check: fn(&[u8]) -> Verdict,
    /// How many bytes the stable runner gives a case.
    pub case_bytes: usize,
}

/// Every target.
pub const TARGETS: [Target; 3] = [
    Target { name: "queries", check: queries::check, case_bytes: 512 },
    Target { name: "world_script", check: world_script::check, case_bytes: 4096 },
    Target { name: "scene_file", check: scene_file::check, case_bytes: 256 },
];

/// The target named `name`.
pub fn target(name: &str) -> Option<Target> {
    TARGETS.iter().copied().find(|t| t.name == name)
}
