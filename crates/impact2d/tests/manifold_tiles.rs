//! Rows of separate tiles: plain polygon manifolds catch at the seams; `collide_tile` with the
//! tiles' internal edges does not, and keeps real corners and steps.

mod manifold_support;

use impact2d::narrow_phase::{collide_tile, internal_edges};
use impact2d::settings::SPECULATIVE_DISTANCE;
use impact2d::*;
use manifold_support::*;

const SPEC: f32 = SPECULATIVE_DISTANCE;

struct Row {
    tiles: Vec<(Polygon, Transform)>,
    internal: Vec<u8>,
}

/// `count` tiles 1 m wide and 0.5 m tall with their tops at y = `height(i)`, side by side
/// from x = 0.
fn row(count: usize, radius: f32, height: impl Fn(usize) -> f32) -> Row {
    let tiles: Vec<(Polygon, Transform)> = (0..count)
        .map(|i| {
            (make_rounded_box(0.5 - radius, 0.25 - radius, radius).unwrap(), xf(i as f32 + 0.5, height(i) - 0.25, 0.0))
        })
        .collect();
    let internal = (0..count)
        .map(|i| {
            let neighbors: Vec<(Polygon, Transform)> =
                [i.wrapping_sub(1), i + 1].iter().filter(|&&j| j < count).map(|&j| tiles[j]).collect();
            internal_edges(&tiles[i].0, tiles[i].1, &neighbors)
        })
        .collect();
    Row { tiles, internal }
}

/// Every non-empty manifold of `shape` at `at` against the row, plain and smoothed.
fn contacts(row: &Row, shape: &Shape, at: Transform, smooth: bool) -> Vec<Manifold> {
    row.tiles
        .iter()
        .zip(&row.internal)
        .map(|((tile, xf_tile), &internal)| {
            if smooth {
                collide_tile(tile, internal, *xf_tile, shape, at, SPEC)
            } else {
                collide(&Shape::Polygon(*tile), *xf_tile, shape, at, SPEC)
            }
        })
        .filter(|m| !m.is_empty())
        .collect()
}

/// Slides `shape` (its bottom `rest` below its origin) along the row 4 mm deep; returns the
/// worst horizontal normal component, checking the shape is held at every step.
fn slide(row: &Row, shape: &Shape, rest: f32, smooth: bool) -> f32 {
    let mut worst = 0.0f32;
    for step in 0..1500 {
        let x = 2.0 + step as f32 * 0.01003;
        let found = contacts(row, shape, xf(x, rest - 0.004, 0.0), smooth);
        assert!(!found.is_empty(), "no support at x = {x}: {shape:?}");
        let least = found.iter().map(|m| m.min_separation().unwrap()).fold(f32::INFINITY, f32::min);
        assert!((least + 0.004).abs() < 1e-5, "x = {x}: least separation {least}");
        for m in &found {
            worst = worst.max(m.normal.x.abs());
        }
    }
    worst
}

#[test]
fn internal_edges_of_a_row() {
    let r = row(5, 0.0, |_| 0.0);
    // Box edges: 0 bottom, 1 right, 2 top, 3 left.
    assert_eq!(r.internal, vec![0b0010, 0b1010, 0b1010, 0b1010, 0b1000]);
    let rounded = row(5, 0.05, |_| 0.0);
    assert_eq!(rounded.internal, r.internal);
    // A 1 mm mismatch is within the slop. A 0.3 m step: the taller tile's side is a wall, and
    // (the tiles being 0.5 m tall) the lower tile's side is bare below the taller one.
    let mismatch = row(3, 0.0, |i| if i == 1 { 0.001 } else { 0.0 });
    assert_eq!(mismatch.internal, vec![0b0010, 0b1010, 0b1000]);
    let step = row(3, 0.0, |i| if i == 2 { 0.3 } else { 0.0 });
    assert_eq!(step.internal, vec![0b0010, 0b1000, 0b0000]);
}

#[test]
fn plain_polygons_catch_at_the_seams() {
    // The problem being solved: the leading face of the box meets the next tile's corner.
    let r = row(20, 0.0, |_| 0.0);
    let worst = slide(&r, &boxed(0.3, 0.2), 0.2, false);
    assert!(worst > 0.99, "{worst}");
}

#[test]
fn smoothed_tiles_do_not_catch() {
    for radius in [0.0, 0.05] {
        let r = row(20, radius, |_| 0.0);
        for (shape, rest) in [
            (boxed(0.3, 0.2), 0.2),
            (boxed(0.05, 0.05), 0.05),
            (circle(0.25), 0.25),
            (capsule(v(-0.4, 0.0), v(0.4, 0.0), 0.1), 0.1),
            (rounded_box(0.3, 0.2, 0.05), 0.25),
        ] {
            let worst = slide(&r, &shape, rest, true);
            // Face normals to float precision (a vertex-vertex direction within 1e-5 of the
            // face normal counts as the face).
            assert!(worst < 1e-5, "radius {radius}, {shape:?}: {worst}");
        }
    }
}

#[test]
fn a_slop_sized_mismatch_does_not_catch() {
    let r = row(20, 0.0, |i| if i % 2 == 0 { 0.001 } else { 0.0 });
    for step in 0..1500 {
        let x = 2.0 + step as f32 * 0.01003;
        for m in contacts(&r, &boxed(0.3, 0.2), xf(x, 0.2 - 0.004, 0.0), true) {
            assert!(m.normal.x.abs() < 1e-6, "x = {x}: {m:?}");
        }
    }
}

#[test]
fn real_corners_and_steps_are_kept() {
    // The row's far end is a real corner: a circle rolling around it sees the corner's fan.
    let r = row(5, 0.0, |_| 0.0);
    let (radius, gap) = (0.25f32, 0.002f32);
    for k in 0..=90 {
        let theta = (k as f32).to_radians();
        let n = v(theta.sin(), theta.cos());
        let center = v(5.0, 0.0) + n * (radius + gap);
        let found = contacts(&r, &circle(radius), xf(center.x, center.y, 0.0), true);
        assert!(found.iter().any(|m| (m.normal - n).length() < 1e-4), "{theta}: {found:?}");
        let plain = contacts(&r, &circle(radius), xf(center.x, center.y, 0.0), false);
        assert_eq!(found, plain);
    }
    // A 0.3 m step: a box pushed against the taller tile's exposed side keeps the wall normal.
    let step = row(3, 0.0, |i| if i == 2 { 0.3 } else { 0.0 });
    let found = contacts(&step, &boxed(0.2, 0.1), xf(2.0 - 0.2 - 0.003, 0.1 + 0.001, 0.0), true);
    assert!(found.iter().any(|m| (m.normal - v(-1.0, 0.0)).length() < 1e-6), "{found:?}");
}
