//! Hostile numbers for the property tests (apart from `mod.rs`, which the benchmarks and the
//! peers comparison include without proptest).

/// Hostile f32 values for property tests: NaN, infinity, the largest f32, zero, the smallest
/// subnormal, huge and ordinary numbers.
pub fn hostile() -> impl proptest::strategy::Strategy<Value = f32> {
    use proptest::prelude::*;
    prop_oneof![
        Just(f32::NAN),
        Just(f32::INFINITY),
        Just(f32::MAX),
        Just(0.0f32),
        Just(1e-45f32),
        -1e9f32..1e9f32,
        -2.0f32..2.0f32
    ]
}
