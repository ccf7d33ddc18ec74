//! Quickhull in 3D against what a convex hull is, on seeded point clouds: a convex polytope
//! whose vertices are input points and which holds every input point (to the documented
//! quarter of the linear slop) is the hull. Checked for each: every input point below every
//! face plane (to half the linear slop); vertices are input points, bit for bit; faces planar, convex and outward;
//! every edge joins two faces whose dihedral angle is convex; Euler's V − E + F = 2. Also
//! boxes (six faces whatever extra points lie on them), far from the origin, and the errors.

use impact3d::settings::LINEAR_SLOP;
use impact3d::*;
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Half the linear slop: how far outside the hull a point may be left out (a quarter of the
/// slop outside the triangle it was tested against, and the plane of the merged face the
/// triangle became may lie another quarter inside).
const OUTSIDE: f64 = 0.5 * LINEAR_SLOP as f64 + 1e-6;
/// Half the linear slop: how far below its plane a vertex of a merged face may lie.
const PLANAR: f64 = 0.5 * LINEAR_SLOP as f64 + 1e-6;

fn d(v: Vec3) -> glam::DVec3 {
    v.as_dvec3()
}

/// Every property of a convex hull of `points`; a description of the first one broken. The
/// tolerances add the round-off of a plane stored in f32 (a few spacings of the largest
/// coordinate: 4 mm at 50 km).
fn check_hull(hull: &Hull, points: &[Vec3]) -> Result<(), String> {
    let largest = points.iter().fold(0.0f32, |m, p| m.max(p.abs().max_element())) as f64;
    let rounding = 4.0 * f32::EPSILON as f64 * largest;
    let (outside, planar) = (OUTSIDE + rounding, PLANAR + rounding);
    let vertices = hull.vertices();
    for v in vertices {
        if !points.iter().any(|p| p.to_array() == v.to_array()) {
            return Err(format!("vertex {v} is not an input point"));
        }
    }
    let centroid = vertices.iter().map(|v| d(*v)).sum::<glam::DVec3>() / vertices.len() as f64;
    for (i, f) in hull.faces().iter().enumerate() {
        let n = d(f.normal);
        if (n.length() - 1.0).abs() > 1e-5 {
            return Err(format!("face {i}: normal {n} not unit"));
        }
        let loop_ = hull.face_loop(i);
        if loop_.len() < 3 {
            return Err(format!("face {i} has {} vertices", loop_.len()));
        }
        let on_plane = |p: glam::DVec3| n.dot(p) - f.offset as f64;
        if on_plane(centroid) >= 0.0 {
            return Err(format!("face {i} faces inward"));
        }
        for &c in loop_ {
            if on_plane(d(vertices[c])).abs() > planar {
                return Err(format!("face {i} not planar: vertex {c} off by {:e}", on_plane(d(vertices[c]))));
            }
        }
        // Convex and counter-clockwise seen from outside: each corner turns left about n.
        for k in 0..loop_.len() {
            let (a, b, c) = (
                d(vertices[loop_[k]]),
                d(vertices[loop_[(k + 1) % loop_.len()]]),
                d(vertices[loop_[(k + 2) % loop_.len()]]),
            );
            if (b - a).cross(c - b).dot(n) < -1e-9 * (b - a).length() * (c - b).length() - 1e-12 {
                return Err(format!("face {i} not convex at its corner {}", loop_[(k + 1) % loop_.len()]));
            }
        }
        // Points welded to an earlier one (closer than the linear slop) may lie that much
        // farther out.
        for (k, p) in points.iter().enumerate() {
            let welded = points[..k].iter().any(|q| d(*q).distance(d(*p)) < LINEAR_SLOP as f64);
            let allowed = if welded { outside + LINEAR_SLOP as f64 } else { outside };
            if on_plane(d(*p)) > allowed {
                return Err(format!("input point {p} is {:e} outside face {i}", on_plane(d(*p))));
            }
        }
    }
    for e in hull.edges() {
        let [f0, f1] = e.faces;
        if f0 == f1 {
            return Err(format!("edge {e:?} joins a face to itself"));
        }
        // Convex dihedral: the far vertices of each face lie below the other's plane.
        let other = hull.faces()[f1];
        for &c in hull.face_loop(f0) {
            let s = d(other.normal).dot(d(vertices[c])) - other.offset as f64;
            if s > outside {
                return Err(format!("edge {e:?}: face {f0} rises {s:e} above face {f1}"));
            }
        }
    }
    let (v, e, f) = (vertices.len() as i64, hull.edges().len() as i64, hull.faces().len() as i64);
    if v - e + f != 2 {
        return Err(format!("V - E + F = {v} - {e} + {f} != 2"));
    }
    Ok(())
}

fn random_cloud(rng: &mut ChaCha8Rng, count: usize, size: f32, center: Vec3) -> Vec<Vec3> {
    let kind = rng.random_range(0..3);
    (0..count)
        .map(|_| {
            let p = Vec3::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0));
            let p = match kind {
                // On a sphere: every point a vertex.
                0 => p.normalize_or(Vec3::X),
                // In a flattened box: many points inside, thin shapes.
                1 => p * Vec3::new(1.0, 0.3, 0.05),
                _ => p,
            };
            center + p * size
        })
        .collect()
}

#[test]
fn random_clouds_give_convex_hulls_that_hold_every_point() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let (mut built, mut refused) = (0, 0);
    let mut faces = 0;
    for case in 0..4000 {
        let count = rng.random_range(4..=80);
        let size = 10f32.powf(rng.random_range(-1.5..1.5));
        let center = if case % 4 == 3 {
            Vec3::new(rng.random_range(-1e5..1e5), rng.random_range(-1e5..1e5), rng.random_range(-1e5..1e5))
        } else {
            Vec3::ZERO
        };
        let points = random_cloud(&mut rng, count, size, center);
        match Hull::new(&points) {
            Ok(hull) => {
                built += 1;
                faces += hull.faces().len();
                if let Err(e) = check_hull(&hull, &points) {
                    panic!("case {case}: {e}\npoints: {points:?}");
                }
            }
            Err(GeometryError::TooManyVertices { .. } | GeometryError::Coplanar) => refused += 1,
            Err(e) => panic!("case {case}: {e}"),
        }
    }
    println!("{built} hulls ({faces} faces), {refused} refused (too many vertices or too thin)");
    assert!(built > 3000, "{built}");
}

#[test]
fn boxes_have_six_faces_whatever_lies_on_them() {
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    for case in 0..500 {
        let h = Vec3::new(rng.random_range(0.05..3.0), rng.random_range(0.05..3.0), rng.random_range(0.05..3.0));
        let center = if case % 2 == 0 { Vec3::ZERO } else { Vec3::new(1e4, -2e4, 5e3) };
        let mut points: Vec<Vec3> = (0..8)
            .map(|i| {
                let s = |b: i32| if i & b == 0 { -1.0 } else { 1.0 };
                center + Vec3::new(s(1) * h.x, s(2) * h.y, s(4) * h.z)
            })
            .collect();
        // Extra points on the faces and inside.
        for _ in 0..rng.random_range(0..30) {
            let mut p =
                Vec3::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0));
            if rng.random_bool(0.5) {
                let axis = rng.random_range(0..3);
                p[axis] = p[axis].signum();
            }
            points.push(center + p * h);
        }
        let hull = Hull::new(&points).unwrap();
        check_hull(&hull, &points).unwrap();
        assert_eq!((hull.vertices().len(), hull.edges().len(), hull.faces().len()), (8, 12, 6), "case {case}");
        for f in hull.faces() {
            assert_eq!(f.count, 4);
        }
    }
    let b = make_box(Vec3::new(1.0, 2.0, 3.0)).unwrap();
    assert_eq!((b.vertices().len(), b.faces().len()), (8, 6));
    assert!((b.thickness() - 2.0).abs() < 1e-6);
}

#[test]
fn degenerate_input_is_refused_with_its_reason() {
    let square = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::new(1.0, 1.0, 0.0), Vec3::new(0.5, 0.5, 0.001)];
    assert_eq!(Hull::new(&square), Err(GeometryError::Coplanar));
    let line: Vec<Vec3> = (0..10).map(|i| Vec3::X * i as f32).collect();
    assert_eq!(Hull::new(&line), Err(GeometryError::Coplanar));
    assert_eq!(Hull::new(&[Vec3::ZERO, Vec3::X, Vec3::Y]), Err(GeometryError::TooFewPoints { count: 3 }));
    let welded = [Vec3::ZERO, Vec3::splat(0.001), Vec3::X, Vec3::Y, Vec3::new(0.0, 0.002, 0.0)];
    assert_eq!(Hull::new(&welded), Err(GeometryError::TooFewPoints { count: 3 }));
    assert!(matches!(Hull::new(&[Vec3::NAN, Vec3::X, Vec3::Y, Vec3::Z]), Err(GeometryError::NonFinite { .. })));
    assert!(matches!(Hull::new(&[Vec3::splat(2e9), Vec3::X, Vec3::Y, Vec3::Z]), Err(GeometryError::TooLarge { .. })));
    assert!(matches!(Hull::new(&vec![Vec3::X; 300]), Err(GeometryError::TooManyPoints { count: 300, .. })));
    let tetra = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
    assert!(matches!(Hull::rounded(&tetra, -1.0), Err(GeometryError::InvalidRadius { .. })));
    assert!(matches!(make_box(Vec3::new(1.0, 0.0, 1.0)), Err(GeometryError::InvalidSize { .. })));
}

fn hostile() -> impl Strategy<Value = f32> {
    prop_oneof![
        Just(f32::NAN),
        Just(f32::INFINITY),
        Just(f32::MAX),
        Just(0.0f32),
        Just(-0.0f32),
        Just(1e-45f32),
        -1e9f32..1e9f32,
        -2.0f32..2.0f32,
    ]
}

/// Found by the proptest below: four points, one 8e8 m out, whose near-coplanar triangles
/// grouped into a face whose boundary touched itself; merging it indexed a corner with no
/// edge out and panicked. Now the group keeps its triangles: a valid hull, or an error.
#[test]
fn a_group_whose_boundary_touches_itself_keeps_its_triangles() {
    let points = [
        Vec3::new(-0.0, 0.666_601_54, 0.0),
        Vec3::new(0.0, 0.0, -1.611_920_2),
        Vec3::new(671_878_000.0, 13_537_484.0, -440_094_100.0),
        Vec3::new(0.0, 0.0, 0.134_993_46),
    ];
    if let Ok(hull) = Hull::new(&points) {
        assert!(check_hull(&hull, &points).is_ok(), "{:?}", check_hull(&hull, &points));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    /// Any input: a hull that is a convex hull of its points, or an error; never a panic.
    #[test]
    fn any_points_give_a_hull_or_an_error(coords in proptest::collection::vec(hostile(), 0..90)) {
        let points: Vec<Vec3> = coords.chunks_exact(3).map(|c| Vec3::new(c[0], c[1], c[2])).collect();
        if let Ok(hull) = Hull::new(&points) {
            prop_assert!(check_hull(&hull, &points).is_ok(), "{:?}", check_hull(&hull, &points));
        }
    }
}
