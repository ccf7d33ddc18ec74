//! Deterministic trigonometry: the same bits on every platform, unlike the C library's.

/// The cosine and sine of `angle` (radians), by a deterministic polynomial.
///
/// The angle is reduced to [-pi/4, pi/4] in three parts (Cody and Waite) and both functions
/// are evaluated by short minimax polynomials (the coefficients of Moshier's Cephes `sinf` and
/// `cosf`). Plain multiplies and adds only, so the result is bit-identical on every platform,
/// unlike the C library's `sinf`. Angles beyond 1e4 rad are first reduced in f64, so the
/// error stays below 2e-7 up to 1e9 rad; beyond that, where f32 angles are 64 rad apart,
/// the result is still a unit (cos, sin). NaN and infinities give NaN.
#[inline]
pub fn cos_sin(angle: f32) -> (f32, f32) {
    // Beyond a few thousand turns the three-part reduction loses digits: reduce in f64 first
    // (exact to f32 precision for any finite angle, and still deterministic).
    let angle = if angle.abs() > 1.0e4 { (angle as f64).rem_euclid(std::f64::consts::TAU) as f32 } else { angle };
    let quadrant = nearest_quadrant(angle);
    let k = quadrant as f32;
    let r = ((angle - k * PIO2_1) - k * PIO2_2) - k * PIO2_3;
    let z = r * r;
    let sin_r = ((-1.951_529_6e-4 * z + 8.332_161e-3) * z - 1.666_665_5e-1) * z * r + r;
    let cos_r = ((2.443_315_7e-5 * z - 1.388_731_6e-3) * z + 4.166_664_6e-2) * z * z - 0.5 * z + 1.0;
    in_quadrant(quadrant, cos_r, sin_r)
}

/// The first part of pi/2 split in three so that `k * PIO2_1` and `k * PIO2_2` are exact for
/// |k| < 2^12 (Cody and Waite); SIMD versions of [`cos_sin`] reduce with the same parts.
pub const PIO2_1: f32 = 1.570_312_5;
/// The second part of pi/2 (see [`PIO2_1`]).
pub const PIO2_2: f32 = 4.837_513e-4;
/// The third part of pi/2 (see [`PIO2_1`]).
pub const PIO2_3: f32 = 7.549_79e-8;

/// The nearest multiple of pi/2 to `angle` (|angle| at most 1e4 rad), rounded by truncation
/// since f32::round is a libm call on x86-64. The cast maps NaN to 0, so it never panics.
#[inline]
fn nearest_quadrant(angle: f32) -> i32 {
    let x = angle * std::f32::consts::FRAC_2_PI;
    (x + 0.5f32.copysign(x)) as i32
}

/// The cosine and sine of `k * pi/2 + r` from those of `r`: an odd quadrant swaps the
/// functions; quadrants 2 and 3 negate both.
#[inline]
fn in_quadrant(quadrant: i32, cos_r: f32, sin_r: f32) -> (f32, f32) {
    let (c, s) = if quadrant & 1 == 0 { (cos_r, sin_r) } else { (-sin_r, cos_r) };
    if quadrant & 2 == 0 { (c, s) } else { (-c, -s) }
}
