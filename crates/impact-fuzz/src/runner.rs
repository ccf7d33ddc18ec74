//! The stable runner: seeded bytes through a target, panics caught and counted.
//!
//! Case `seed` of a target reads [`seeded_bytes`] of the seed mixed with the target's name,
//! so the same seed gives the same case on every machine and run. A panic is caught
//! (`catch_unwind`) and counted in the tier the case had drawn before it panicked
//! ([`note_tier`]).

use crate::Target;
use crate::source::seeded_bytes;
use crate::tally::{Fault, Tally, Tier, Verdict};
use std::cell::Cell;
use std::panic::{self, AssertUnwindSafe};

thread_local! {
    static CURRENT_TIER: Cell<Tier> = const { Cell::new(Tier::Ordinary) };
}

/// Records the tier of the case being run, so that a panic is counted in it.
pub fn note_tier(tier: Tier) {
    CURRENT_TIER.with(|t| t.set(tier));
}

/// The bytes of case `seed` of `target`.
pub fn case_bytes(target: &Target, seed: u64) -> Vec<u8> {
    let salt = target.name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3));
    seeded_bytes(seed ^ salt, target.case_bytes)
}

/// Runs one case, turning a panic into a [`Fault::Panic`] verdict.
pub fn run_case(target: &Target, bytes: &[u8]) -> Verdict {
    note_tier(Tier::Ordinary);
    match panic::catch_unwind(AssertUnwindSafe(|| (target.check)(bytes))) {
        Ok(verdict) => verdict,
        Err(payload) => {
            let message = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_else(|| "a panic without a message".to_owned());
            Verdict::fault(CURRENT_TIER.with(Cell::get), Fault::Panic, message)
        }
    }
}

/// Runs cases `first..first + cases` of `target`; `on_defect` sees each case that shows a
/// defect ([`Verdict::is_defect`]) with its seed. Panics are silenced while it runs (they
/// are counted and reported instead).
pub fn run(target: &Target, first: u64, cases: u64, mut on_defect: impl FnMut(u64, &Verdict)) -> Tally {
    let hook = panic::take_hook();
    panic::set_hook(Box::new(|_| {}));
    let mut tally = Tally::default();
    for seed in first..first + cases {
        let verdict = run_case(target, &case_bytes(target, seed));
        if verdict.is_defect() {
            on_defect(seed, &verdict);
        }
        tally.add(target.name, seed, &verdict);
    }
    panic::set_hook(hook);
    tally
}
