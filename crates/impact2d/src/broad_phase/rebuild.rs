//! Full rebuild of a dynamic tree by the binned surface area heuristic, for static geometry
//! or whenever incremental updates have let the tree's quality slip.
//!
//! Top down: the leaves of a node are split in two by binning their box centers into
//! [`BINS`] equal slots along each axis and taking the boundary between slots that minimises
//! `count_left * perimeter_left + count_right * perimeter_right` (the SAH cost in 2D).
//!
//! Source: Wald, "On fast construction of SAH-based bounding volume hierarchies", 2007
//! (binning); Box2D v3's `b2DynamicTree_Rebuild` uses the same idea for its static tree.
//!
//! Leaves keep their slots, so proxy handles survive a rebuild. The internal nodes reuse the
//! old internal slots in ascending order, handed out in depth-first order, so a parent sits
//! before its children in memory and nearby subtrees sit close together.

use super::dynamic_tree::{DynamicTree, LEAF, NULL, Node, ROOT, Slot};
use crate::geometry::Aabb;
use crate::math::Vec2;

/// Bins per axis of each split. Wald finds 16 to 32 within a few percent of a full SAH sweep.
const BINS: usize = 16;

/// One proxy to place: its box, slot and user data.
#[derive(Clone, Copy)]
struct Item {
    aabb: Aabb,
    slot: u32,
    user_data: u64,
}

impl Item {
    /// Twice the box center: comparisons need no halving.
    #[inline]
    fn center2(&self) -> Vec2 {
        self.aabb.lower + self.aabb.upper
    }
}

/// A range of items still to split, with the bounds of their (doubled) centers.
#[derive(Clone, Copy)]
struct Range {
    start: usize,
    end: usize,
    centers: Aabb,
    /// Where the node or leaf built from the range goes.
    slot: Slot,
}

/// The result of splitting a range: the size of the first half, the boxes of both halves and
/// the bounds of their centers.
struct Split {
    mid: usize,
    boxes: [Aabb; 2],
    centers: [Aabb; 2],
}

/// The box and count of the items that fall in one bin.
#[derive(Clone, Copy)]
struct Bin {
    aabb: Aabb,
    count: u32,
}

const EMPTY_BOX: Aabb = Aabb { lower: Vec2::splat(f32::INFINITY), upper: Vec2::splat(f32::NEG_INFINITY) };

impl DynamicTree {
    /// Rebuilds the tree from scratch by the binned surface area heuristic. Proxy handles,
    /// boxes and user data are unchanged; queries give the same proxies as before. The result
    /// depends only on the proxies and their boxes, not on the tree's history. O(n log n);
    /// allocates scratch memory proportional to the proxy count.
    ///
    /// The nodes are laid out in depth-first order, so that nearby proxies sit in nearby
    /// memory: worth doing for a large tree after a level is loaded, even a dynamic one.
    pub fn rebuild(&mut self) {
        let mut items = Vec::with_capacity(self.proxy_count());
        self.walk(|aabb, leaf| {
            if let Some((slot, user_data)) = leaf {
                items.push(Item { aabb: *aabb, slot, user_data });
            }
            super::tree_query::Step::Descend
        });
        items.sort_unstable_by_key(|item| item.slot);
        self.clear_nodes();
        self.root = NULL;
        if !items.is_empty() {
            self.build(&mut items);
        }
        self.debug_validate();
    }

    /// Links the items into a tree, allocating nodes in depth-first order.
    fn build(&mut self, items: &mut [Item]) {
        let centers = items.iter().fold(EMPTY_BOX, |b, item| b.union(&Aabb::new(item.center2(), item.center2())));
        let mut work = vec![Range { start: 0, end: items.len(), centers, slot: ROOT }];
        while let Some(range) = work.pop() {
            if range.end - range.start == 1 {
                let item = &items[range.start];
                self.set_record(range.slot, LEAF | item.slot, item.aabb, item.user_data);
                continue;
            }
            let split = split(&mut items[range.start..range.end], &range.centers);
            let mid = range.start + split.mid;
            let boxes = split.boxes;
            let node =
                self.allocate_node(Node { boxes, children: [NULL; 2], user_data: [0; 2], parent: NULL, free: false });
            self.set_record(range.slot, node, boxes[0].union(&boxes[1]), 0);
            // Second half pushed first so the first half is built first (depth-first order).
            work.push(Range { start: mid, end: range.end, centers: split.centers[1], slot: (node << 1) | 1 });
            work.push(Range { start: range.start, end: mid, centers: split.centers[0], slot: node << 1 });
        }
    }
}

/// Ranges up to this size are split by an exact SAH sweep instead of binning: cheaper for so
/// few items, and better.
const SMALL: usize = 8;

/// Splits `items` (at least 2) in two non-empty halves, in place: one pass bins them along
/// both axes, one pass partitions them at the cheapest boundary.
fn split(items: &mut [Item], centers: &Aabb) -> Split {
    if items.len() <= SMALL {
        return split_small(items);
    }
    let extent = centers.upper - centers.lower;
    // Items per bin along each axis (zero extent: every item in bin 0).
    let scale = Vec2::new(
        if extent.x > 0.0 { BINS as f32 / extent.x } else { 0.0 },
        if extent.y > 0.0 { BINS as f32 / extent.y } else { 0.0 },
    );
    let mut bins = [[Bin { aabb: EMPTY_BOX, count: 0 }; BINS]; 2];
    for item in items.iter() {
        let c = item.center2();
        for axis in 0..2 {
            let bin = &mut bins[axis][bin_of(c[axis], centers.lower[axis], scale[axis])];
            bin.aabb = bin.aabb.union(&item.aabb);
            bin.count += 1;
        }
    }
    let mut best: Option<(f32, usize, usize, [Aabb; 2])> = None; // (cost, axis, last bin of the first half, boxes)
    for (axis, bins) in bins.iter().enumerate() {
        if scale[axis] > 0.0
            && let Some((cost, bin, boxes)) = best_split_on_axis(bins)
            && best.is_none_or(|b| cost < b.0)
        {
            best = Some((cost, axis, bin, boxes));
        }
    }
    let Some((_, axis, bin, boxes)) = best else {
        return halve(items);
    };
    let (lo, s) = (centers.lower[axis], scale[axis]);
    let (mut i, mut j) = (0, items.len());
    let mut halves = [EMPTY_BOX; 2];
    while i < j {
        let c = items[i].center2();
        if bin_of(c[axis], lo, s) <= bin {
            halves[0] = halves[0].union(&Aabb::new(c, c));
            i += 1;
        } else {
            halves[1] = halves[1].union(&Aabb::new(c, c));
            j -= 1;
            items.swap(i, j);
        }
    }
    Split { mid: i, boxes, centers: halves }
}

/// Splits a few items at the cheapest position of their order along the better axis.
fn split_small(items: &mut [Item]) -> Split {
    let n = items.len();
    let mut best: (f32, usize, usize) = (f32::INFINITY, 0, 1); // (cost, axis, size of the first half)
    for axis in 0..2 {
        items.sort_unstable_by(|a, b| a.center2()[axis].total_cmp(&b.center2()[axis]).then(a.slot.cmp(&b.slot)));
        let mut suffix = [EMPTY_BOX; SMALL + 1];
        for i in (0..n).rev() {
            suffix[i] = suffix[i + 1].union(&items[i].aabb);
        }
        let mut prefix = EMPTY_BOX;
        for mid in 1..n {
            prefix = prefix.union(&items[mid - 1].aabb);
            let cost = mid as f32 * prefix.perimeter() + (n - mid) as f32 * suffix[mid].perimeter();
            // Among equal costs (coincident boxes), the most even split.
            let even = (2 * mid).abs_diff(n) < (2 * best.2).abs_diff(n);
            if cost < best.0 || (cost == best.0 && even) {
                best = (cost, axis, mid);
            }
        }
    }
    let (_, axis, mid) = best;
    if axis == 0 {
        items.sort_unstable_by(|a, b| a.center2().x.total_cmp(&b.center2().x).then(a.slot.cmp(&b.slot)));
    }
    let (first, second) = items.split_at(mid);
    let boxes = |half: &[Item]| half.iter().fold(EMPTY_BOX, |b, item| b.union(&item.aabb));
    let centers =
        |half: &[Item]| half.iter().fold(EMPTY_BOX, |b, item| b.union(&Aabb::new(item.center2(), item.center2())));
    Split { mid, boxes: [boxes(first), boxes(second)], centers: [centers(first), centers(second)] }
}

/// Splits items whose centers all coincide in two equal halves.
fn halve(items: &mut [Item]) -> Split {
    let mid = items.len() / 2;
    let (first, second) = items.split_at(mid);
    let bounds = |half: &[Item]| half.iter().fold(EMPTY_BOX, |b, item| b.union(&item.aabb));
    let center = items[0].center2();
    let centers = Aabb::new(center, center);
    Split { mid, boxes: [bounds(first), bounds(second)], centers: [centers, centers] }
}

/// The bin of a center coordinate; the same arithmetic for binning and partitioning.
#[inline]
fn bin_of(c: f32, lo: f32, scale: f32) -> usize {
    (((c - lo) * scale) as usize).min(BINS - 1)
}

/// The cheapest boundary between bins on one axis: (cost, last bin of the first half, boxes
/// of both halves), or `None` when no boundary has items on both sides.
fn best_split_on_axis(bins: &[Bin; BINS]) -> Option<(f32, usize, [Aabb; 2])> {
    // Boxes and costs of bins i.. as the second half, accumulated from the right.
    let mut right = [(EMPTY_BOX, 0u32); BINS];
    let (mut aabb, mut count) = (EMPTY_BOX, 0u32);
    for i in (1..BINS).rev() {
        aabb = aabb.union(&bins[i].aabb);
        count += bins[i].count;
        right[i] = (aabb, count);
    }
    let mut best: Option<(f32, usize, [Aabb; 2])> = None;
    let (mut aabb, mut count) = (EMPTY_BOX, 0u32);
    for i in 0..BINS - 1 {
        aabb = aabb.union(&bins[i].aabb);
        count += bins[i].count;
        let (right_box, right_count) = right[i + 1];
        if count == 0 || right_count == 0 {
            continue;
        }
        let cost = count as f32 * aabb.perimeter() + right_count as f32 * right_box.perimeter();
        if best.is_none_or(|b| cost < b.0) {
            best = Some((cost, i, [aabb, right_box]));
        }
    }
    best
}
