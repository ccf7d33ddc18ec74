//! The 3D query sets: the seeded time of impact families of impact3d's tests
//! (crates/impact3d/tests/support/toi_cases.rs, included as is), drawn here from their own
//! seeds, every other query 5 km from the origin.

use super::support::random_unit;
use super::support::toi_cases::{Case, family};
use impact3d::Vec3;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

pub use super::support::toi_cases::FAMILIES;

/// How far from the origin the far half of each family sits (meters).
pub const FAR: f32 = 5000.0;

/// One query: a case of family `family`, near the origin or [`FAR`] from it.
pub struct Query {
    /// Its family, by the index of [`FAMILIES`].
    pub family: usize,
    /// True for the half 5 km out.
    pub far: bool,
    /// The shapes and sweeps.
    pub case: Case,
}

/// `n` seeded queries of family `which`, alternately near the origin and 5 km out.
pub fn generate(which: usize, n: usize) -> Vec<Query> {
    let mut rng = ChaCha8Rng::seed_from_u64(0x3d_0000 + which as u64);
    (0..n)
        .map(|k| {
            let far = k % 2 == 1;
            let base = if far { random_unit(&mut rng) * FAR } else { Vec3::ZERO };
            Query { family: which, far, case: family(&mut rng, which, base) }
        })
        .collect()
}

/// The query's shapes and sweeps, printable (for `--explain`).
pub fn describe(q: &Query) -> String {
    let c = &q.case;
    let place = if q.far { ", 5 km out" } else { "" };
    format!("{}{place}: A {:?} {:?}\n  B {:?} {:?}", FAMILIES[q.family], c.a, c.sa, c.b, c.sb)
}
