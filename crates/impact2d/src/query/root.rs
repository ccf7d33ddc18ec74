//! A bracketed scalar root finder: false position alternating with bisection.
//!
//! Source: Catto, "Continuous Collision", GDC 2013 (the mixed method): false position is
//! fast where the function is nearly linear, bisection guarantees progress, and the root
//! never leaves the bracket.

/// Where the root finder stopped.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Root {
    /// The time found: within tolerance of the target, or, when the iterations ran out,
    /// the bracket end still above the target (the safe side).
    pub t: f32,
    /// Iterations used.
    pub iterations: u32,
}

/// Finds t in [t1, t2] with `|f(t) - target| <= tolerance`, given `f(t1) > target` and
/// `f(t2) < target` (a bracket), in at most `max_iterations` evaluations of `f`.
pub(crate) fn find_root(
    mut f: impl FnMut(f32) -> f32,
    (mut t1, mut s1): (f32, f32),
    (mut t2, mut s2): (f32, f32),
    target: f32,
    tolerance: f32,
    max_iterations: u32,
) -> Root {
    for i in 0..max_iterations {
        let t = if i & 1 == 0 {
            // False position: the line through the bracket ends crosses the target.
            t1 + (target - s1) * (t2 - t1) / (s2 - s1)
        } else {
            0.5 * (t1 + t2)
        };
        // Guard against round-off pushing the sample out of the open bracket.
        let t = if t > t1 && t < t2 { t } else { 0.5 * (t1 + t2) };
        let s = f(t);
        if (s - target).abs() <= tolerance {
            return Root { t, iterations: i + 1 };
        }
        if s > target {
            (t1, s1) = (t, s);
        } else {
            (t2, s2) = (t, s);
        }
        if t2 - t1 <= f32::EPSILON * t2 {
            break;
        }
    }
    Root { t: t1, iterations: max_iterations }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_root_of_a_line_in_one_step() {
        let r = find_root(|t| 1.0 - 2.0 * t, (0.0, 1.0), (1.0, -1.0), 0.0, 1e-6, 50);
        assert_eq!(r.iterations, 1);
        assert!((r.t - 0.5).abs() < 1e-6);
    }

    #[test]
    fn keeps_the_bracket_on_a_kinked_function() {
        // Flat then steep: false position alone would crawl; the mix converges.
        let f = |t: f32| if t < 0.9 { 1.0 } else { 1.0 - 100.0 * (t - 0.9) };
        let r = find_root(f, (0.0, 1.0), (1.0, -9.0), 0.0, 1e-4, 60);
        assert!((f(r.t)).abs() <= 1e-4, "{r:?}");
        assert!(r.iterations < 40);
    }

    #[test]
    fn out_of_iterations_returns_the_safe_end() {
        let f = |t: f32| (0.6 - t).powi(3);
        let r = find_root(f, (0.0, f(0.0)), (1.0, f(1.0)), 0.0, 0.0, 3);
        assert_eq!(r.iterations, 3);
        assert!(r.t < 0.6 && f(r.t) > 0.0, "{r:?}");
    }
}
