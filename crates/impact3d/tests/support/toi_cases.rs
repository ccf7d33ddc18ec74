//! Seeded time of impact cases in 3D, shared by `tests/toi.rs` and `benches/queries.rs`:
//! random shapes on random sweeps, thin rods spinning 1 to 3 rad per step near boxes, small
//! spheres at 5 to 40 m per step against slabs 5 mm thick, and Catto's worst case in 3D (a
//! tetrahedron turning about a vertex that hovers just above a box).

use super::random_unit;
use impact3d::{Quat, ShapeProxy, Sweep, Transform, Vec3};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// The names of the families, by the index [`family`] takes.
pub const FAMILIES: [&str; 4] = ["random", "spinning rods", "fast spheres at slabs", "Catto's hovering tetrahedron"];

/// Two shapes and their sweeps over one step.
pub struct Case {
    pub a: ShapeProxy,
    pub sa: Sweep,
    pub b: ShapeProxy,
    pub sb: Sweep,
}

/// A sweep starting at `at` turned by `q`, moving by `push` and turning by `rotation`.
pub fn sweep(at: Vec3, q: Quat, push: Vec3, rotation: Vec3, local_center: Vec3) -> Sweep {
    let c1 = at + q * local_center;
    Sweep { local_center, c1, c2: c1 + push, q1: q, rotation }
}

/// A box of half extents `h` as a proxy of its 8 corners.
pub fn box_proxy(h: Vec3) -> ShapeProxy {
    let corners: Vec<Vec3> = (0..8)
        .map(|i| {
            Vec3::new(
                if i & 1 == 0 { -h.x } else { h.x },
                if i & 2 == 0 { -h.y } else { h.y },
                if i & 4 == 0 { -h.z } else { h.z },
            )
        })
        .collect();
    ShapeProxy::new(&corners, 0.0).unwrap()
}

/// Case `which` of [`FAMILIES`] around `base` (meters, world).
pub fn family(rng: &mut ChaCha8Rng, which: usize, base: Vec3) -> Case {
    let q = |rng: &mut ChaCha8Rng| Quat::from_axis_angle(random_unit(rng), rng.random_range(-3.2..3.2));
    match which {
        // Random shapes: a box or hull against anything, B thrown at A and turning.
        0 => {
            let a = box_proxy(Vec3::new(
                rng.random_range(0.1..1.0),
                rng.random_range(0.1..1.0),
                rng.random_range(0.1..1.0),
            ));
            let count = rng.random_range(1..=6);
            let points: Vec<Vec3> = (0..count).map(|_| random_unit(rng) * rng.random_range(0.05..0.6)).collect();
            let b = ShapeProxy::new(&points, if count <= 2 { 0.05 } else { 0.0 }).unwrap();
            let start = base + random_unit(rng) * rng.random_range(1.5..4.0);
            let push = (base - start) * rng.random_range(0.5..2.0) + random_unit(rng) * rng.random_range(0.0..0.5);
            let sa = sweep(base, q(rng), Vec3::ZERO, random_unit(rng) * rng.random_range(0.0..1.0), Vec3::ZERO);
            let sb = sweep(start, q(rng), push, random_unit(rng) * rng.random_range(0.0..3.0), Vec3::ZERO);
            Case { a, sa, b, sb }
        }
        // Thin rods spinning 1 to 3 rad per step near a box.
        1 => {
            let a = box_proxy(Vec3::new(0.5, 0.5, 0.5));
            let half = rng.random_range(0.5..1.5);
            let b = ShapeProxy::new(
                &[Vec3::new(-half, 0.0, 0.0), Vec3::new(half, 0.0, 0.0)],
                rng.random_range(0.005..0.02),
            )
            .unwrap();
            let start = base + random_unit(rng) * rng.random_range(0.6..2.0);
            let sa = Sweep::fixed(Transform::new(base, Quat::IDENTITY));
            let sb = sweep(
                start,
                q(rng),
                random_unit(rng) * rng.random_range(0.0..0.5),
                random_unit(rng) * rng.random_range(1.0..3.0),
                Vec3::ZERO,
            );
            Case { a, sa, b, sb }
        }
        // Small spheres at 5 to 40 m per step against a slab 5 mm thick.
        2 => {
            let a = box_proxy(Vec3::new(1.0, 0.0025, 1.0));
            let b = ShapeProxy::new(&[Vec3::ZERO], rng.random_range(0.005..0.05)).unwrap();
            let start =
                base + Vec3::new(rng.random_range(-0.8..0.8), rng.random_range(0.1..2.0), rng.random_range(-0.8..0.8));
            let speed = rng.random_range(5.0..40.0);
            let aim = base + Vec3::new(rng.random_range(-1.2..1.2), 0.0, rng.random_range(-1.2..1.2));
            let push = (aim - start).normalize() * speed;
            let sa = Sweep::fixed(Transform::new(base, Quat::IDENTITY));
            let sb = sweep(start, Quat::IDENTITY, push, Vec3::ZERO, Vec3::ZERO);
            Case { a, sa, b, sb }
        }
        // Catto's worst case: a tetrahedron turning about a vertex that hovers just above a
        // box, its far corners swinging down through the box's top and up again.
        _ => {
            let a = box_proxy(Vec3::new(2.0, 0.5, 2.0));
            let s = rng.random_range(0.3..1.0);
            let tetra = [
                Vec3::ZERO,
                Vec3::new(s, 0.1 * s, 0.0),
                Vec3::new(0.0, 0.1 * s, s),
                Vec3::new(0.3 * s, 0.6 * s, 0.3 * s),
            ];
            let b = ShapeProxy::new(&tetra, 0.0).unwrap();
            let hover = rng.random_range(0.001..0.05);
            let pivot = base + Vec3::new(rng.random_range(-1.0..1.0), 0.5 + hover, rng.random_range(-1.0..1.0));
            let sa = Sweep::fixed(Transform::new(base, Quat::IDENTITY));
            let axis = Vec3::new(rng.random_range(-1.0..1.0), rng.random_range(-0.3..0.3), rng.random_range(-1.0..1.0))
                .normalize_or(Vec3::X);
            let sb = Sweep {
                local_center: Vec3::ZERO,
                c1: pivot,
                c2: pivot,
                q1: Quat::IDENTITY,
                rotation: axis * rng.random_range(0.05..6.0),
            };
            Case { a, sa, b, sb }
        }
    }
}
