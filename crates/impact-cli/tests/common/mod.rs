//! Checks shared by the end-to-end tests.

use impact2d::settings::{TOI_TARGET, TOI_TOLERANCE};
use serde_json::Value;

/// The first t in [0, 1] at which `gap` (meters) falls to `level`, to 1e-12.
pub fn first_crossing(gap: impl Fn(f64) -> f64, level: f64) -> f64 {
    const STEP: f64 = 1e-4;
    let mut t = 0.0;
    while gap(t + STEP) > level {
        t += STEP;
        assert!(t < 1.0, "the gap never falls to {level}");
    }
    let (mut lo, mut hi) = (t, t + STEP);
    for _ in 0..50 {
        let mid = 0.5 * (lo + hi);
        if gap(mid) > level { lo = mid } else { hi = mid }
    }
    hi
}

/// Asserts that `answer` is a hit at a time when the exact `gap` (meters, a function of t)
/// is within the default tolerance of the default target, having never been below that band
/// before (with 1e-5 m of slack for f32 rounding). Returns the answer's t.
pub fn assert_hit_in_band(answer: &Value, gap: impl Fn(f64) -> f64) -> f64 {
    assert_eq!(answer["state"], "hit", "{answer}");
    assert!(answer["iterations"].as_u64().unwrap() >= 1, "{answer}");
    let t = answer["t"].as_f64().unwrap();
    let (target, tolerance) = (TOI_TARGET as f64, TOI_TOLERANCE as f64);
    let earliest = first_crossing(&gap, target + tolerance + 1e-5);
    let latest = first_crossing(&gap, target - tolerance - 1e-5);
    assert!((earliest..=latest).contains(&t), "t = {t} outside [{earliest}, {latest}]: {answer}");
    t
}
