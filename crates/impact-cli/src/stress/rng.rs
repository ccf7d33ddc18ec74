//! A small deterministic random number generator (SplitMix64), so a family and a seed give
//! the same scene on every machine and with every version of the dependencies.

use std::f32::consts::TAU;

use impact2d::Vec2;

/// SplitMix64 (Steele, Lea and Flood, 2014): one 64-bit state, a Weyl sequence and a mixing
/// function; plenty for laying out scenes, and seeds next to each other give unrelated
/// streams.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// The stream of `seed` in `stream` (a family's own number, so families with the same
    /// seed do not share their draws).
    pub fn new(stream: u64, seed: u64) -> Rng {
        let mut rng = Rng(stream.wrapping_mul(0xA076_1D64_78BD_642F) ^ seed);
        rng.next_u64();
        rng
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in [0, 1), from the top 24 bits (every value exact in f32).
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// A number in [lo, hi).
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }

    /// A whole number in lo..=hi.
    pub fn int(&mut self, lo: u32, hi: u32) -> u32 {
        let span = u64::from(hi.saturating_sub(lo)) + 1;
        lo + (self.next_u64() % span) as u32
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f32) -> bool {
        self.unit() < p
    }

    /// An angle in [0, 2π) (rad).
    pub fn angle(&mut self) -> f32 {
        self.range(0.0, TAU)
    }

    /// A number in [lo, hi) or in (-hi, -lo], with even odds.
    pub fn signed(&mut self, lo: f32, hi: f32) -> f32 {
        let x = self.range(lo, hi);
        if self.chance(0.5) { -x } else { x }
    }

    /// A point in the box from `lo` to `hi`.
    pub fn point(&mut self, lo: Vec2, hi: Vec2) -> Vec2 {
        Vec2::new(self.range(lo.x, hi.x), self.range(lo.y, hi.y))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_stay_in_their_ranges_and_repeat() {
        let mut a = Rng::new(3, 17);
        let mut b = Rng::new(3, 17);
        for _ in 0..1000 {
            let x = a.range(-2.0, 5.0);
            assert!((-2.0..5.0).contains(&x));
            assert_eq!(x, b.range(-2.0, 5.0));
            let n = a.int(20, 60);
            assert!((20..=60).contains(&n));
            assert_eq!(n, b.int(20, 60));
        }
        assert_ne!(Rng::new(3, 17).next_u64(), Rng::new(4, 17).next_u64());
        assert_ne!(Rng::new(3, 17).next_u64(), Rng::new(3, 18).next_u64());
    }
}
