//! A tiny seeded generator (SplitMix64, Steele, Lea and Flood, "Fast splittable pseudorandom
//! number generators", OOPSLA 2014): the same seed gives the same query sets and scenes on
//! every machine.

use std::f64::consts::PI;

/// SplitMix64 state.
pub struct Rng(u64);

impl Rng {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1), 53 bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in [lo, hi).
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }

    /// A whole number in [lo, hi].
    pub fn int(&mut self, lo: u32, hi: u32) -> u32 {
        lo + (self.next_u64() % u64::from(hi - lo + 1)) as u32
    }

    /// True with probability one half.
    pub fn coin(&mut self) -> bool {
        self.next_u64() & 1 == 1
    }

    /// ±1 with equal odds.
    pub fn sign(&mut self) -> f64 {
        if self.coin() { 1.0 } else { -1.0 }
    }

    /// A uniformly random angle in [−π, π) (radians).
    pub fn angle(&mut self) -> f64 {
        self.range(-PI, PI)
    }
}
