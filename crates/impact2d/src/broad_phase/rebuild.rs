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

/// One proxy to place: its box, twice its center (no halving needed to compare), its slot
/// and user data.
#[derive(Clone, Copy)]
struct Item {
    aabb: Aabb,
    center2: Vec2,
    slot: u32,
    user_data: u64,
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
                items.push(Item { aabb: *aabb, center2: aabb.lower + aabb.upper, slot, user_data });
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
        let mut work: Vec<(usize, usize, Slot)> = vec![(0, items.len(), ROOT)];
        while let Some((start, end, slot)) = work.pop() {
            if end - start == 1 {
                let item = &items[start];
                self.set_record(slot, LEAF | item.slot, item.aabb, item.user_data);
                continue;
            }
            let mid = start + split(&mut items[start..end]);
            let boxes = [bounds(&items[start..mid]), bounds(&items[mid..end])];
            let node =
                self.allocate_node(Node { boxes, children: [NULL; 2], user_data: [0; 2], parent: NULL, free: false });
            self.set_record(slot, node, boxes[0].union(&boxes[1]), 0);
            // Second half pushed first so the first half is built first (depth-first order).
            work.push((mid, end, (node << 1) | 1));
            work.push((start, mid, node << 1));
        }
    }
}

/// The box enclosing the items.
fn bounds(items: &[Item]) -> Aabb {
    items.iter().fold(EMPTY_BOX, |acc, item| acc.union(&item.aabb))
}

/// Reorders `items` (at least 2) into two non-empty halves and returns the size of the first.
fn split(items: &mut [Item]) -> usize {
    let n = items.len();
    if n == 2 {
        return 1;
    }
    let (mut lo, mut hi) = (items[0].center2, items[0].center2);
    for item in items.iter() {
        lo = lo.min(item.center2);
        hi = hi.max(item.center2);
    }
    let mut best: Option<(f32, usize, usize)> = None; // (cost, axis, last bin of the first half)
    for axis in 0..2 {
        let extent = hi[axis] - lo[axis];
        // Zero extent: every center is on one line across this axis. (NaN cannot occur: the
        // boxes are finite.)
        if extent <= 0.0 {
            continue;
        }
        let scale = BINS as f32 / extent;
        if let Some((cost, bin)) = best_split_on_axis(items, axis, lo[axis], scale)
            && best.is_none_or(|b| cost < b.0)
        {
            best = Some((cost, axis, bin));
        }
    }
    let Some((_, axis, bin)) = best else {
        return n / 2; // every center coincides: any split is as good
    };
    let scale = BINS as f32 / (hi[axis] - lo[axis]);
    let mid = partition(items, |item| bin_of(item.center2[axis], lo[axis], scale) <= bin);
    if mid == 0 || mid == n { n / 2 } else { mid }
}

/// The bin of a center coordinate; the same arithmetic for binning and partitioning.
#[inline]
fn bin_of(c: f32, lo: f32, scale: f32) -> usize {
    (((c - lo) * scale) as usize).min(BINS - 1)
}

/// The cheapest boundary between bins on one axis: (cost, last bin of the first half), or
/// `None` when no boundary has items on both sides.
fn best_split_on_axis(items: &[Item], axis: usize, lo: f32, scale: f32) -> Option<(f32, usize)> {
    let mut bins = [Bin { aabb: EMPTY_BOX, count: 0 }; BINS];
    for item in items {
        let bin = &mut bins[bin_of(item.center2[axis], lo, scale)];
        bin.aabb = bin.aabb.union(&item.aabb);
        bin.count += 1;
    }
    // Cost of bins i.. as the second half, accumulated from the right.
    let mut right_cost = [f32::INFINITY; BINS];
    let (mut aabb, mut count) = (EMPTY_BOX, 0u32);
    for i in (1..BINS).rev() {
        aabb = aabb.union(&bins[i].aabb);
        count += bins[i].count;
        if count > 0 {
            right_cost[i] = count as f32 * aabb.perimeter();
        }
    }
    let mut best: Option<(f32, usize)> = None;
    let (mut aabb, mut count) = (EMPTY_BOX, 0u32);
    for i in 0..BINS - 1 {
        aabb = aabb.union(&bins[i].aabb);
        count += bins[i].count;
        if count == 0 || right_cost[i + 1] == f32::INFINITY {
            continue;
        }
        let cost = count as f32 * aabb.perimeter() + right_cost[i + 1];
        if best.is_none_or(|b| cost < b.0) {
            best = Some((cost, i));
        }
    }
    best
}

/// Moves the items for which `first` holds to the front; returns how many there are.
fn partition(items: &mut [Item], first: impl Fn(&Item) -> bool) -> usize {
    let (mut i, mut j) = (0, items.len());
    while i < j {
        if first(&items[i]) {
            i += 1;
        } else {
            j -= 1;
            items.swap(i, j);
        }
    }
    i
}
