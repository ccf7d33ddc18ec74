//! What a case found, and the counts of a run by target and scale tier.

use std::fmt;

/// The scale of a case's numbers: the contract holds in every tier, the precision claims are
/// checked against the reference in the first two.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Tier {
    /// Shapes up to 100 m, positions up to 10 km: every answer must match the f64 reference
    /// to the documented tolerance.
    Ordinary,
    /// Shapes up to 1e8 m or positions up to `settings::MAX_COORDINATE` (1e9 m): answers are
    /// checked against the reference with the documented tolerance, in f32 spacings of the
    /// largest coordinate; a miss is counted, not a defect of the first tier.
    Large,
    /// Numbers outside the documented ranges (NaN, infinities, beyond the limits): the call
    /// must return an error or a finite answer, never panic.
    Hostile,
}

impl Tier {
    /// Every tier, in table order.
    pub const ALL: [Tier; 3] = [Tier::Ordinary, Tier::Large, Tier::Hostile];

    /// The tier's name in tables.
    pub fn name(self) -> &'static str {
        match self {
            Tier::Ordinary => "ordinary",
            Tier::Large => "large",
            Tier::Hostile => "hostile",
        }
    }
}

/// A defect a case showed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The call panicked (counted by the runner, which catches the unwind).
    Panic,
    /// An answer or a state holds NaN or an infinity.
    NonFinite,
    /// An answer disagrees with the reference beyond the documented tolerance, or a call
    /// broke the contract (accepted a value out of range, refused one in range, changed the
    /// world although it was refused).
    Wrong,
}

/// What one case found: its tier, and a defect with a description if there is one.
#[derive(Clone, Debug)]
pub struct Verdict {
    /// The scale of the case.
    pub tier: Tier,
    /// The first defect found, with what was expected and what came.
    pub fault: Option<(Fault, String)>,
}

impl Verdict {
    /// A case without a defect.
    pub fn clean(tier: Tier) -> Verdict {
        Verdict { tier, fault: None }
    }

    /// A case with a defect.
    pub fn fault(tier: Tier, fault: Fault, message: String) -> Verdict {
        Verdict { tier, fault: Some((fault, message)) }
    }

    /// Whether the case shows a defect that must never happen: any panic or non-finite
    /// answer, a wrong answer in the ordinary tier, or a broken contract on hostile input.
    /// (Wrong answers of the large tier are counted and reported, and documented where f32
    /// cannot do better.)
    pub fn is_defect(&self) -> bool {
        match &self.fault {
            None => false,
            Some((Fault::Wrong, _)) => self.tier != Tier::Large,
            Some(_) => true,
        }
    }
}

/// Counts of one target in one tier.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Cases run.
    pub cases: u64,
    /// Cases that panicked.
    pub panics: u64,
    /// Cases with NaN or an infinity in an answer or a state.
    pub non_finite: u64,
    /// Cases with a wrong answer or a broken contract.
    pub wrong: u64,
}

/// The counts of a run for every target and tier, and the first cases of each defect.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    rows: Vec<(&'static str, Tier, Counts)>,
    /// The first few defects: target, seed and description.
    pub examples: Vec<(String, u64, String)>,
}

/// How many defect examples a tally keeps.
const MAX_EXAMPLES: usize = 20;

impl Tally {
    /// Adds the verdict of case `seed` of `target`.
    pub fn add(&mut self, target: &'static str, seed: u64, verdict: &Verdict) {
        let counts = self.counts_mut(target, verdict.tier);
        counts.cases += 1;
        if let Some((fault, message)) = &verdict.fault {
            match fault {
                Fault::Panic => counts.panics += 1,
                Fault::NonFinite => counts.non_finite += 1,
                Fault::Wrong => counts.wrong += 1,
            }
            if self.examples.len() < MAX_EXAMPLES {
                let tier = verdict.tier.name();
                self.examples.push((target.to_owned(), seed, format!("[{tier}] {fault:?}: {message}")));
            }
        }
    }

    /// The counts of `target` in `tier` (zero when none ran).
    pub fn counts(&self, target: &str, tier: Tier) -> Counts {
        self.rows.iter().find(|(t, k, _)| *t == target && *k == tier).map(|r| r.2).unwrap_or_default()
    }

    /// Adds every count of `other` to this tally.
    pub fn merge(&mut self, other: &Tally) {
        for &(target, tier, c) in &other.rows {
            let counts = self.counts_mut(target, tier);
            counts.cases += c.cases;
            counts.panics += c.panics;
            counts.non_finite += c.non_finite;
            counts.wrong += c.wrong;
        }
        let room = MAX_EXAMPLES.saturating_sub(self.examples.len());
        self.examples.extend(other.examples.iter().take(room).cloned());
    }

    fn counts_mut(&mut self, target: &'static str, tier: Tier) -> &mut Counts {
        let at = match self.rows.iter().position(|(t, k, _)| *t == target && *k == tier) {
            Some(i) => i,
            None => {
                self.rows.push((target, tier, Counts::default()));
                self.rows.sort_by_key(|r| (r.0, r.1));
                self.rows.iter().position(|(t, k, _)| *t == target && *k == tier).unwrap_or(0)
            }
        };
        &mut self.rows[at].2
    }
}

impl fmt::Display for Tally {
    /// A Markdown table: target, tier, cases, panics, non-finite, wrong.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "| target | tier | cases | panics | NaN or infinite | wrong |")?;
        writeln!(f, "|---|---|---:|---:|---:|---:|")?;
        for (target, tier, c) in &self.rows {
            writeln!(
                f,
                "| {target} | {} | {} | {} | {} | {} |",
                tier.name(),
                c.cases,
                c.panics,
                c.non_finite,
                c.wrong
            )?;
        }
        Ok(())
    }
}
