//! Time of impact by conservative advancement: the reference bilateral advancement beats.
//!
//! Sources: Mirtich, "Impulse-based Dynamic Simulation of Rigid Body Systems", 1996, 2.3.2;
//! Catto, "Continuous Collision", GDC 2013 (the motion bound below). Each step advances time
//! by the current gap divided by the fastest the gap can shrink, so it never overshoots,
//! but near-misses (a shape pivoting on a point that hovers just above the other) take
//! many steps: the gap stays small while the far points could approach fast.

use super::error::QueryError;
use super::proxy::ShapeProxy;
use super::toi::{ToiOutput, ToiQuery, ToiState};
use crate::math::Sweep;
use crate::settings::CA_MAX_ITERATIONS;

/// The time of impact by conservative advancement, with the semantics and errors of
/// [`time_of_impact`](super::time_of_impact).
///
/// The rate at which the gap can close is bounded by the relative linear displacement
/// along the closest-points normal plus each body's angular displacement (radians) times
/// the distance of its farthest core point from its center of rotation (meters). Gives up
/// with `Failed` (and the last safe time) after [`CA_MAX_ITERATIONS`] steps.
pub fn conservative_advancement(
    proxy_a: &ShapeProxy,
    sweep_a: &Sweep,
    proxy_b: &ShapeProxy,
    sweep_b: &Sweep,
    t_max: f32,
    target: f32,
    tolerance: f32,
) -> Result<ToiOutput, QueryError> {
    let q = ToiQuery::new((proxy_a, sweep_a), (proxy_b, sweep_b), t_max, target, tolerance)?;
    let (sa, sb) = (&q.sweep_a.sweep, &q.sweep_b.sweep);
    let spin = (sa.a2 - sa.a1).abs() * proxy_a.max_distance_from(sa.local_center)
        + (sb.a2 - sb.a1).abs() * proxy_b.max_distance_from(sb.local_center);
    let relative_motion = (sb.c2 - sb.c1) - (sa.c2 - sa.c1);
    let mut out = ToiOutput::start();
    let mut cache = Default::default();
    let mut t = 0.0;
    loop {
        let d = q.distance_at(q.poses(t), &mut cache);
        out.iterations += 1;
        if t == 0.0 && q.overlapped(&d) {
            return Ok(out.ended(ToiState::Overlapped, 0.0));
        }
        if d.distance < q.band.hi {
            return Ok(q.hit(out, t, &d));
        }
        let closing_speed = spin - d.normal.dot(relative_motion);
        if closing_speed <= 0.0 {
            return Ok(out.ended(ToiState::Separated, q.t_max));
        }
        // The gap cannot fall below the aim before this time.
        t += (d.distance - q.band.aim) / closing_speed;
        if t >= q.t_max {
            return Ok(out.ended(ToiState::Separated, q.t_max));
        }
        if out.iterations >= CA_MAX_ITERATIONS {
            return Ok(out.ended(ToiState::Failed, t));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Transform, Vec2};
    use crate::query::time_of_impact;
    use crate::settings::{TOI_TARGET, TOI_TOLERANCE};

    /// Catto's worst case: a triangle turning about a vertex that hovers just above the
    /// ground, while its far vertex swings down into it.
    #[test]
    fn pivoting_triangle_costs_ca_many_iterations_and_ba_few() {
        let ground = ShapeProxy::new(
            &[Vec2::new(-5.0, -0.5), Vec2::new(5.0, -0.5), Vec2::new(5.0, 0.0), Vec2::new(-5.0, 0.0)],
            0.0,
        )
        .unwrap();
        let pivot = Vec2::new(0.0, 0.0);
        let triangle = ShapeProxy::new(&[pivot, Vec2::new(1.0, 0.6), Vec2::new(0.2, 1.0)], 0.0).unwrap();
        let still = Sweep::fixed(Transform::IDENTITY);
        let hover = 0.007; // 2 mm above the target gap
        let turn =
            Sweep { local_center: pivot, c1: Vec2::new(0.0, hover), c2: Vec2::new(0.0, hover), a1: 0.0, a2: -1.2 };
        let ca = conservative_advancement(&ground, &still, &triangle, &turn, 1.0, TOI_TARGET, TOI_TOLERANCE).unwrap();
        let ba = time_of_impact(&ground, &still, &triangle, &turn, 1.0, TOI_TARGET, TOI_TOLERANCE).unwrap();
        assert_eq!((ca.state, ba.state), (ToiState::Hit, ToiState::Hit));
        // The far vertex (1, 0.6) reaches the ground when it has turned atan(0.6) = 0.54 rad.
        assert!((ca.t - ba.t).abs() < 0.002, "{ca:?} {ba:?}");
        assert!(ca.iterations > 20 && ba.iterations <= 4, "CA {} BA {}", ca.iterations, ba.iterations);
    }
}
