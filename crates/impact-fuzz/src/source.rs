//! Numbers drawn from a fuzzer's bytes.
//!
//! Every target reads its case from a byte string through a [`Source`], so the same case
//! comes from the stable runner's seeded bytes ([`seeded_bytes`]) and from libFuzzer's
//! mutated ones (`fuzz/`). Bytes run out gracefully: an exhausted source gives the lowest
//! choice, as `arbitrary` does, so every byte string is a case.

use arbitrary::Unstructured;

/// A reader of choices and numbers from bytes.
pub struct Source<'a> {
    bytes: Unstructured<'a>,
}

/// Values that break naive float code: NaN, infinities, the extremes, zero of both signs,
/// subnormals, and numbers just around 1.
const WILD: [f32; 14] = [
    f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::MAX,
    f32::MIN,
    0.0,
    -0.0,
    1.0e-45,
    -1.0e-45,
    f32::MIN_POSITIVE,
    1.0e-30,
    1.0e30,
    -1.0e30,
    f32::EPSILON,
];

impl<'a> Source<'a> {
    /// A source reading `bytes` from the start.
    pub fn new(bytes: &'a [u8]) -> Source<'a> {
        Source { bytes: Unstructured::new(bytes) }
    }

    /// A choice in `0..n` (`n` at least 1).
    pub fn below(&mut self, n: usize) -> usize {
        self.bytes.choose_index(n).unwrap_or(0)
    }

    /// True with probability about `numerator / denominator`.
    pub fn chance(&mut self, numerator: u32, denominator: u32) -> bool {
        self.bytes.ratio(numerator, denominator).unwrap_or(false)
    }

    /// A number in [0, 1] with 32 bits of resolution.
    pub fn unit(&mut self) -> f64 {
        let bits: u32 = self.bytes.arbitrary().unwrap_or(0);
        bits as f64 / u32::MAX as f64
    }

    /// A number in [lo, hi].
    pub fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }

    /// A number in [lo, hi] (both positive) spread evenly over the orders of magnitude.
    pub fn log_uniform(&mut self, lo: f64, hi: f64) -> f64 {
        (lo.ln() + (hi.ln() - lo.ln()) * self.unit()).exp()
    }

    /// +1 or -1.
    pub fn sign(&mut self) -> f64 {
        if self.chance(1, 2) { 1.0 } else { -1.0 }
    }

    /// A unit direction (f64).
    pub fn direction(&mut self) -> (f64, f64) {
        let a = self.uniform(-std::f64::consts::PI, std::f64::consts::PI);
        (a.cos(), a.sin())
    }

    /// A hostile f32: one of the special values, or any bit pattern.
    pub fn wild(&mut self) -> f32 {
        if self.chance(1, 2) {
            WILD[self.below(WILD.len())]
        } else {
            f32::from_bits(self.bytes.arbitrary().unwrap_or(0))
        }
    }

    /// `value`, or now and then (one time in `one_in`) a hostile f32 instead.
    pub fn or_wild(&mut self, value: f32, one_in: u32) -> f32 {
        if self.chance(1, one_in) { self.wild() } else { value }
    }
}

/// `len` bytes from a seed (SplitMix64): the stable runner's input for case `seed`.
pub fn seeded_bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut state = seed;
    let mut out = Vec::with_capacity(len + 8);
    while out.len() < len {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        out.extend_from_slice(&(z ^ (z >> 31)).to_le_bytes());
    }
    out.truncate(len);
    out
}
