//! The instruction encoding the hot lane code runs with, chosen once at run time.
//!
//! The lane code (`glam::Vec4`, SSE intrinsics) compiles for the x86-64 baseline, SSE2, whose
//! two-operand encodings overwrite one source of each operation: the compiler copies a
//! register (`movaps`) before every operation whose sources both stay live. On a machine
//! with AVX the same 128-bit operations have three-operand VEX encodings, which need no
//! such copies. The hot stages (the contact solver's preparation, passes and impulse store,
//! the position integration, the narrow phase's update loop down to the box clip) are
//! therefore compiled twice, once as they are and once with the `avx` target feature, and
//! call the second where [`Encoding::detected`] found AVX: chosen once per stage, never per
//! bundle or pair. The solver's `encoding` field holds the choice; the tests set it to
//! `Encoding::PLAIN` to compare the two.
//!
//! Both compile the same four-lane operations in the same order: a VEX encoding computes
//! the same IEEE result as the SSE one, and only `avx` is enabled (never `fma` or `avx2`),
//! so no multiply and add can be fused. The results are the same bit for bit.

/// Which encoding the hot lane code runs with. A value that says AVX is only made by
/// [`Encoding::detected`] on a machine that has it (the field is private to this module), so
/// the callers of the `avx` versions rely on it for their safety.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Encoding {
    avx: bool,
}

impl Encoding {
    /// The baseline encoding of the target (SSE2 on x86-64), on every machine: what the tests
    /// force to compare the two.
    #[cfg(test)]
    pub(crate) const PLAIN: Encoding = Encoding { avx: false };

    /// AVX's encodings where the running machine has AVX (x86-64 only), the baseline
    /// otherwise; detected once per process.
    pub(crate) fn detected() -> Encoding {
        #[cfg(target_arch = "x86_64")]
        {
            use std::sync::atomic::{AtomicU8, Ordering};
            // 0: not detected yet, 1: no AVX, 2: AVX.
            static DETECTED: AtomicU8 = AtomicU8::new(0);
            let avx = match DETECTED.load(Ordering::Relaxed) {
                0 => {
                    let avx = std::arch::is_x86_feature_detected!("avx");
                    DETECTED.store(if avx { 2 } else { 1 }, Ordering::Relaxed);
                    avx
                }
                known => known == 2,
            };
            Encoding { avx }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            Encoding { avx: false }
        }
    }

    /// Whether the `avx` versions may run: true only where AVX was detected.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    #[inline(always)]
    pub(crate) fn avx(self) -> bool {
        self.avx
    }
}

impl Default for Encoding {
    /// [`Encoding::detected`].
    fn default() -> Encoding {
        Encoding::detected()
    }
}
