//! A bracketed scalar root finder: false position with the Illinois modification, and
//! bisection when the bracket stops shrinking.
//!
//! Sources: Catto, "Continuous Collision", GDC 2013 (a root finder that always keeps the
//! root bracketed, mixing false position for speed with bisection for guaranteed
//! progress); Dowell and Jarratt, "A modified regula falsi method", BIT 1971 (the Illinois
//! rule: when one end of the bracket is kept twice, halve its function value, which lifts
//! plain false position's one-sided crawl to superlinear convergence).

/// Where the root finder stopped.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Root<P> {
    /// The time found: within tolerance of the target, or, when the iterations ran out,
    /// the bracket end still above the target (the safe side).
    pub t: f32,
    /// What the function computed along with its value at `t`, when it was evaluated there
    /// (not at a bracket end given by the caller).
    pub payload: Option<P>,
    /// Iterations used.
    pub iterations: u32,
}

/// Finds t in [t1, t2] with `|f(t) - target| <= tolerance`, given `f(t1) > target` and
/// `f(t2) < target` (a bracket), in at most `max_iterations` evaluations of `f`. `f`
/// returns its value and a payload (what it computed on the way) that comes back with the
/// root, so the caller need not compute it again.
///
/// Units are the caller's: t is normalized time in the times of impact of `impact2d` and
/// `impact3d`, f a separation in meters. Never fails: out of iterations, it returns the end
/// of the bracket still above the target, which a time of impact can safely advance to.
pub fn find_root<P: Copy>(
    mut f: impl FnMut(f32) -> (f32, P),
    (mut t1, s1): (f32, f32),
    (mut t2, s2): (f32, f32),
    target: f32,
    tolerance: f32,
    max_iterations: u32,
) -> Root<P> {
    // Function values relative to the target: g1 > 0 > g2.
    let (mut g1, mut g2) = (s1 - target, s2 - target);
    let mut payload1 = None;
    // Which end moved last (+1: t1, -1: t2), and the bracket width two steps ago.
    let mut last_moved = 0;
    let mut width_before = [t2 - t1; 2];
    for i in 0..max_iterations {
        let width = t2 - t1;
        let stalled = width > 0.5 * width_before[0];
        width_before = [width_before[1], width];
        let t = if stalled && i >= 2 { 0.5 * (t1 + t2) } else { t1 + g1 * width / (g1 - g2) };
        // Guard against round-off pushing the sample out of the open bracket.
        let t = if t > t1 && t < t2 { t } else { 0.5 * (t1 + t2) };
        let (s, payload) = f(t);
        let g = s - target;
        if g.abs() <= tolerance {
            return Root { t, payload: Some(payload), iterations: i + 1 };
        }
        if g > 0.0 {
            (t1, g1, payload1) = (t, g, Some(payload));
            if last_moved == 1 {
                g2 *= 0.5;
            }
            last_moved = 1;
        } else {
            (t2, g2) = (t, g);
            if last_moved == -1 {
                g1 *= 0.5;
            }
            last_moved = -1;
        }
        if t2 - t1 <= f32::EPSILON * t2 {
            break;
        }
    }
    Root { t: t1, payload: payload1, iterations: max_iterations }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_root_of_a_line_in_one_step() {
        let r = find_root(|t| (1.0 - 2.0 * t, ()), (0.0, 1.0), (1.0, -1.0), 0.0, 1e-6, 50);
        assert_eq!(r.iterations, 1);
        assert!((r.t - 0.5).abs() < 1e-6);
    }

    #[test]
    fn keeps_the_bracket_on_a_kinked_function() {
        // Flat then steep: false position alone would crawl; the mix converges.
        let f = |t: f32| if t < 0.9 { 1.0 } else { 1.0 - 100.0 * (t - 0.9) };
        let r = find_root(|t| (f(t), ()), (0.0, 1.0), (1.0, -9.0), 0.0, 1e-4, 60);
        assert!((f(r.t)).abs() <= 1e-4, "{r:?}");
        assert!(r.iterations < 40);
    }

    #[test]
    fn out_of_iterations_returns_the_safe_end() {
        let f = |t: f32| (0.6 - t).powi(3);
        let r = find_root(|t| (f(t), ()), (0.0, f(0.0)), (1.0, f(1.0)), 0.0, 0.0, 3);
        assert_eq!(r.iterations, 3);
        assert!(r.t < 0.6 && f(r.t) > 0.0, "{r:?}");
    }
}
