//! The dynamic AABB tree: a binary bounding volume hierarchy over fat AABBs that is updated
//! one proxy at a time.
//!
//! Every internal node has two children, each a proxy (a leaf) or another internal node, and
//! the exact union of its children's boxes. A proxy's box is its tight box enlarged by a
//! margin (a *fat* AABB), so a small motion needs no update. A new leaf goes next to the
//! sibling that minimises the surface area heuristic (in 2D: perimeters), counting the growth
//! of every ancestor; on the way back up, local tree rotations swap a child with a grandchild
//! whenever that shrinks the child. A leaf that moves is reinserted below the lowest ancestor
//! that still contains its new box rather than from the root.
//!
//! Sources: Catto, "Dynamic Bounding Volume Hierarchies", GDC 2019, and Box2D's
//! `b2DynamicTree` for the design (fat AABBs, SAH insertion with inherited cost, rotations);
//! Bittner, Hapala and Havran, "Fast insertion-based optimization of bounding volume
//! hierarchies", 2013, for the insertion cost and its lower bound; Kopta et al., "Fast,
//! effective BVH updates for animated scenes", 2012, for tree rotations.
//!
//! Layout. Memory latency, not arithmetic, bounds a tree of 100,000 proxies: it outgrows the
//! L2 cache, and a miss costs about as much as testing a hundred boxes. So each internal node
//! stores the boxes, links and user data of *both children* in one 64-byte, cache-line
//! aligned record: a query tests both children with one memory access and never touches a
//! node it does not descend into, and leaves need no record of their own. A proxy handle
//! points into a small table (8 bytes per proxy) that records which node holds the proxy.

use super::{BroadPhaseError, ProxyId, check_aabb, check_margin, needs_refit};
use crate::geometry::Aabb;
use crate::math::Vec2;
use crate::settings::AABB_MARGIN;

/// The null link.
pub(crate) const NULL: u32 = u32::MAX;

/// A child reference with this bit set names a proxy slot; otherwise an internal node.
pub(crate) const LEAF: u32 = 1 << 31;

/// The parent of a free proxy slot.
const FREE: u32 = u32::MAX - 1;

/// The most proxies a tree holds: 2²⁹, so a proxy slot fits in 29 bits (the broad phase
/// keeps the proxy kind in 2 more bits of its keys).
pub(crate) const MAX_PROXIES: u32 = 1 << 29;

/// The place of a child record: `ROOT`, or `(node << 1) | k` for child `k` of `node`.
pub(crate) type Slot = u32;

/// The slot of the root.
pub(crate) const ROOT: Slot = u32::MAX;

/// True when a child reference names a proxy.
#[inline]
pub(crate) fn is_leaf(child: u32) -> bool {
    child & LEAF != 0
}

/// An internal node: the records of its two children (box, reference, user data of a leaf).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(64))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Node {
    pub(crate) boxes: [Aabb; 2],
    pub(crate) children: [u32; 2],
    pub(crate) user_data: [u64; 2],
    /// The parent node, `NULL` at the root; the next free node when free.
    pub(crate) parent: u32,
    pub(crate) free: bool,
}

const EMPTY_BOX: Aabb = Aabb { lower: Vec2::ZERO, upper: Vec2::ZERO };

/// The box of a free proxy slot in `DynamicTree::leaves`: inside out, so it overlaps no box.
const NO_BOX: Aabb = Aabb { lower: Vec2::INFINITY, upper: Vec2::NEG_INFINITY };

/// What a proxy's record holds, kept by slot as well (see `DynamicTree::leaves`).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Leaf {
    pub(crate) fat: Aabb,
    pub(crate) user_data: u64,
}

/// A proxy slot: the node whose child it is (`NULL` when it is the root, `FREE` when the
/// slot is unused) and the generation that makes stale handles detectable.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct Proxy {
    parent: u32,
    generation: u32,
}

/// Size and quality figures of a [`DynamicTree`], from [`DynamicTree::stats`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TreeStats {
    /// The number of proxies (leaves).
    pub proxy_count: usize,
    /// The number of internal nodes: `proxy_count - 1`, or 0 when empty.
    pub node_count: usize,
    /// The number of internal node records allocated, in use or free.
    pub capacity: usize,
    /// The longest path from the root to a leaf, in edges (0 for a single leaf or none).
    pub height: u32,
    /// The largest difference between the heights of two siblings.
    pub max_balance: u32,
    /// The summed perimeters of the internal nodes divided by the root's perimeter: the
    /// surface-area-heuristic cost of the tree, the expected number of internal nodes a small
    /// random query visits. Lower is better; 0 for fewer than two proxies.
    pub area_ratio: f32,
}

/// A dynamic AABB tree (bounding volume hierarchy) of proxies, each a fat AABB (meters) with
/// 64 bits of user data.
///
/// Handles are [`ProxyId`]s: a removed or stale handle gives [`BroadPhaseError::InvalidProxy`].
/// Queries are in `tree_query.rs`, the full rebuild in `rebuild.rs`. Every operation leaves
/// the tree unchanged when it returns an error.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DynamicTree {
    pub(crate) nodes: Vec<Node>,
    free_nodes: Vec<u32>,
    proxies: Vec<Proxy>,
    /// By proxy slot: the fat box and user data its record holds (a free slot's box is
    /// [`NO_BOX`]), so a scan of every proxy reads 24 bytes each, front to back.
    pub(crate) leaves: Vec<Leaf>,
    free_proxies: Vec<u32>,
    /// The root's reference, `NULL` when empty.
    pub(crate) root: u32,
    pub(crate) root_aabb: Aabb,
    /// The user data of the root when it is a leaf.
    pub(crate) root_user_data: u64,
    proxy_count: u32,
    margin: f32,
}

impl Default for DynamicTree {
    fn default() -> Self {
        Self::new()
    }
}

impl DynamicTree {
    /// An empty tree whose fat AABBs extend [`AABB_MARGIN`] beyond the boxes given.
    pub fn new() -> DynamicTree {
        DynamicTree {
            nodes: Vec::new(),
            free_nodes: Vec::new(),
            proxies: Vec::new(),
            leaves: Vec::new(),
            free_proxies: Vec::new(),
            root: NULL,
            root_aabb: EMPTY_BOX,
            root_user_data: 0,
            proxy_count: 0,
            margin: AABB_MARGIN,
        }
    }

    /// An empty tree whose fat AABBs extend `margin` (meters) beyond the boxes given; 0 suits
    /// static geometry.
    ///
    /// Errors: [`BroadPhaseError::InvalidValue`] when `margin` is negative, NaN or infinite.
    pub fn with_margin(margin: f32) -> Result<DynamicTree, BroadPhaseError> {
        check_margin(margin)?;
        Ok(DynamicTree { margin, ..DynamicTree::new() })
    }

    /// The margin (meters) by which fat AABBs extend beyond the boxes given.
    pub fn margin(&self) -> f32 {
        self.margin
    }

    /// The number of proxies.
    pub fn proxy_count(&self) -> usize {
        self.proxy_count as usize
    }

    /// The box enclosing every proxy (meters), `None` when the tree is empty.
    pub fn root_aabb(&self) -> Option<Aabb> {
        (self.root != NULL).then_some(self.root_aabb)
    }

    /// Adds a proxy for the tight box `aabb` (meters); the tree stores it enlarged by the
    /// margin. Returns its handle.
    ///
    /// Errors: [`BroadPhaseError::InvalidAabb`] when `aabb` (or its enlargement) is not finite
    /// and ordered; [`BroadPhaseError::Full`] when the tree holds 2²⁹ proxies.
    pub fn create_proxy(&mut self, aabb: Aabb, user_data: u64) -> Result<ProxyId, BroadPhaseError> {
        let fat = self.fatten(&aabb)?;
        if self.proxy_count >= MAX_PROXIES {
            return Err(BroadPhaseError::Full);
        }
        let slot = match self.free_proxies.pop() {
            Some(slot) => slot,
            None => {
                self.proxies.push(Proxy { parent: FREE, generation: 0 });
                self.leaves.push(Leaf { fat: NO_BOX, user_data: 0 });
                (self.proxies.len() - 1) as u32
            }
        };
        self.insert_leaf(slot, fat, user_data, ROOT);
        self.proxy_count += 1;
        self.debug_validate();
        Ok(ProxyId::new(slot, self.proxies[slot as usize].generation))
    }

    /// Removes a proxy and returns its user data. Its handle becomes stale.
    ///
    /// Errors: [`BroadPhaseError::InvalidProxy`] when `id` is not a live proxy of this tree.
    pub fn remove_proxy(&mut self, id: ProxyId) -> Result<u64, BroadPhaseError> {
        let slot = self.slot_of_id(id)?;
        let user_data = self.leaf_user_data(slot);
        self.remove_leaf(slot);
        let proxy = &mut self.proxies[slot as usize];
        proxy.parent = FREE;
        proxy.generation = proxy.generation.wrapping_add(1);
        self.leaves[slot as usize] = Leaf { fat: NO_BOX, user_data: 0 };
        self.free_proxies.push(slot);
        self.proxy_count -= 1;
        self.debug_validate();
        Ok(user_data)
    }

    /// Tells the tree that the proxy's tight box is now `aabb` (meters). When `aabb` still
    /// fits the fat AABB (and the fat AABB is not oversized, see
    /// [`crate::settings::AABB_SHRINK_FACTOR`]) nothing changes and this returns `false`;
    /// otherwise the proxy is reinserted with a new fat AABB and this returns `true`.
    ///
    /// Errors: [`BroadPhaseError::InvalidProxy`] for a stale handle,
    /// [`BroadPhaseError::InvalidAabb`] when `aabb` is not finite and ordered.
    pub fn move_proxy(&mut self, id: ProxyId, aabb: Aabb) -> Result<bool, BroadPhaseError> {
        let slot = self.slot_of_id(id)?;
        let fat = self.fatten(&aabb)?;
        if !needs_refit(&self.leaf_aabb(slot), &aabb, self.margin, Vec2::ZERO) {
            return Ok(false);
        }
        self.reinsert(slot, fat);
        self.debug_validate();
        Ok(true)
    }

    /// The fat AABB of a proxy (meters).
    ///
    /// Errors: [`BroadPhaseError::InvalidProxy`] for a stale handle.
    pub fn fat_aabb(&self, id: ProxyId) -> Result<Aabb, BroadPhaseError> {
        Ok(self.leaf_aabb(self.slot_of_id(id)?))
    }

    /// The user data of a proxy.
    ///
    /// Errors: [`BroadPhaseError::InvalidProxy`] for a stale handle.
    pub fn user_data(&self, id: ProxyId) -> Result<u64, BroadPhaseError> {
        Ok(self.leaf_user_data(self.slot_of_id(id)?))
    }

    /// Replaces the user data of a proxy.
    ///
    /// Errors: [`BroadPhaseError::InvalidProxy`] for a stale handle.
    pub fn set_user_data(&mut self, id: ProxyId, user_data: u64) -> Result<(), BroadPhaseError> {
        let slot = self.slot_of_id(id)?;
        match self.slot_of_child(LEAF | slot) {
            ROOT => self.root_user_data = user_data,
            s => self.nodes[(s >> 1) as usize].user_data[(s & 1) as usize] = user_data,
        }
        self.leaves[slot as usize].user_data = user_data;
        Ok(())
    }

    /// True when `id` is a live proxy of this tree.
    pub fn contains(&self, id: ProxyId) -> bool {
        self.slot_of_id(id).is_ok()
    }

    /// The height of the tree: the longest root-to-leaf path in edges (0 with fewer than two
    /// proxies). Walks the tree (O(n)), as [`DynamicTree::stats`] does.
    pub fn height(&self) -> u32 {
        self.stats().height
    }

    /// Size and quality figures; walks the whole tree (O(n)).
    pub fn stats(&self) -> TreeStats {
        let mut stats = TreeStats {
            proxy_count: self.proxy_count as usize,
            node_count: 0,
            capacity: self.nodes.len(),
            height: 0,
            max_balance: 0,
            area_ratio: 0.0,
        };
        if self.root == NULL || is_leaf(self.root) {
            return stats;
        }
        // Nodes in preorder; heights are then filled in reverse, children before parents.
        let mut order = vec![self.root];
        let mut next = 0;
        let mut internal_perimeter = self.root_aabb.perimeter() as f64;
        while next < order.len() {
            let node = &self.nodes[order[next] as usize];
            next += 1;
            for k in 0..2 {
                if !is_leaf(node.children[k]) {
                    order.push(node.children[k]);
                    internal_perimeter += node.boxes[k].perimeter() as f64;
                }
            }
        }
        let mut heights = vec![0u32; self.nodes.len()];
        for &index in order.iter().rev() {
            let node = &self.nodes[index as usize];
            let h = node.children.map(|c| if is_leaf(c) { 0 } else { heights[c as usize] });
            heights[index as usize] = 1 + h[0].max(h[1]);
            stats.max_balance = stats.max_balance.max(h[0].abs_diff(h[1]));
        }
        stats.node_count = order.len();
        stats.height = heights[self.root as usize];
        let root_perimeter = self.root_aabb.perimeter() as f64;
        stats.area_ratio = if root_perimeter > 0.0 { (internal_perimeter / root_perimeter) as f32 } else { 1.0 };
        stats
    }

    /// Checks every invariant: each stored box of an internal node equal to the union of
    /// its children's, valid leaf boxes, links between parents and children both ways, the
    /// proxy count, and that every node and proxy slot is either in the tree or free, once.
    /// O(n).
    ///
    /// Debug builds run it after every change to trees of up to 128 proxies.
    ///
    /// Errors: [`BroadPhaseError::Corrupt`] naming the first broken invariant.
    pub fn validate(&self) -> Result<(), BroadPhaseError> {
        let corrupt = |node: u32, what: &'static str| Err(BroadPhaseError::Corrupt { node, what });
        let (mut leaves, mut internal) = (0usize, 0usize);
        // (reference, its stored box and user data, the node holding it)
        let mut stack = Vec::new();
        if self.root != NULL {
            stack.push((self.root, self.root_aabb, self.root_user_data, NULL));
        }
        while let Some((child, aabb, user_data, parent)) = stack.pop() {
            if is_leaf(child) {
                let slot = child & !LEAF;
                match self.proxies.get(slot as usize) {
                    Some(p) if p.parent == parent => {}
                    _ => return corrupt(parent, "leaf not linked back to its node"),
                }
                if !aabb.is_valid() {
                    return corrupt(parent, "invalid leaf box");
                }
                if self.leaves.get(slot as usize) != Some(&Leaf { fat: aabb, user_data }) {
                    return corrupt(parent, "leaf record differs from its copy by slot");
                }
                leaves += 1;
                continue;
            }
            internal += 1;
            if internal > self.nodes.len() {
                return corrupt(child, "cycle");
            }
            let Some(node) = self.nodes.get(child as usize) else {
                return corrupt(parent, "child out of range");
            };
            if node.free || node.parent != parent {
                return corrupt(child, "free node in the tree, or parent link broken");
            }
            if aabb != node.boxes[0].union(&node.boxes[1]) {
                return corrupt(child, "stored box is not the union of the children's");
            }
            for k in 0..2 {
                stack.push((node.children[k], node.boxes[k], node.user_data[k], child));
            }
        }
        if leaves != self.proxy_count as usize || internal != (self.proxy_count as usize).saturating_sub(1) {
            return corrupt(self.root, "counts differ from the proxy count");
        }
        let free_nodes = self.nodes.iter().filter(|n| n.free).count();
        if free_nodes != self.free_nodes.len() || internal + free_nodes != self.nodes.len() {
            return corrupt(NULL, "node slots neither in the tree nor free");
        }
        let free_proxies = self.proxies.iter().filter(|p| p.parent == FREE).count();
        if free_proxies != self.free_proxies.len() || leaves + free_proxies != self.proxies.len() {
            return corrupt(NULL, "proxy slots neither in the tree nor free");
        }
        let freed = |(p, l): (&Proxy, &Leaf)| p.parent != FREE || l.fat == NO_BOX;
        if self.leaves.len() != self.proxies.len() || !self.proxies.iter().zip(&self.leaves).all(freed) {
            return corrupt(NULL, "a free proxy slot's copy keeps a box");
        }
        Ok(())
    }

    // ---- crate-internal access for the broad phase, the queries and the rebuild ----

    /// The proxy slot of a live handle.
    pub(crate) fn slot_of_id(&self, id: ProxyId) -> Result<u32, BroadPhaseError> {
        match self.proxies.get(id.index() as usize) {
            Some(p) if p.generation == id.generation() && p.parent != FREE => Ok(id.index()),
            _ => Err(BroadPhaseError::invalid_proxy(id)),
        }
    }

    /// The handle of the proxy in a slot.
    #[inline]
    pub(crate) fn id_at(&self, slot: u32) -> ProxyId {
        ProxyId::new(slot, self.proxies[slot as usize].generation)
    }

    /// The fat AABB of the live proxy in a slot (from the copy by slot: one read).
    #[inline]
    pub(crate) fn leaf_aabb(&self, slot: u32) -> Aabb {
        self.leaves[slot as usize].fat
    }

    /// The user data of the live proxy in a slot (from the copy by slot: one read).
    #[inline]
    pub(crate) fn leaf_user_data(&self, slot: u32) -> u64 {
        self.leaves[slot as usize].user_data
    }

    /// Gives the live proxy in `slot` the fat box `fat` (checked by the caller): the broad
    /// phase decides itself when a proxy must move.
    pub(crate) fn move_slot(&mut self, slot: u32, fat: Aabb) {
        self.reinsert(slot, fat);
        self.debug_validate();
    }

    /// The number of proxy slots: every slot index is below it.
    pub(crate) fn proxy_capacity(&self) -> usize {
        self.proxies.len()
    }

    /// Sets the parent link of a child (a node or a proxy).
    #[inline]
    pub(crate) fn set_parent(&mut self, child: u32, parent: u32) {
        if is_leaf(child) {
            self.proxies[(child & !LEAF) as usize].parent = parent;
        } else {
            self.nodes[child as usize].parent = parent;
        }
    }

    /// Allocates an internal node record, reusing the most recently freed one.
    pub(crate) fn allocate_node(&mut self, node: Node) -> u32 {
        match self.free_nodes.pop() {
            Some(index) => {
                self.nodes[index as usize] = node;
                index
            }
            None => {
                self.nodes.push(node);
                (self.nodes.len() - 1) as u32
            }
        }
    }

    /// Drops every internal node (for a rebuild); proxies keep their slots.
    pub(crate) fn clear_nodes(&mut self) {
        self.nodes.clear();
        self.free_nodes.clear();
    }

    /// Validates the whole tree in debug builds when it is small enough to keep tests fast.
    #[inline]
    pub(crate) fn debug_validate(&self) {
        #[cfg(debug_assertions)]
        if self.proxy_count <= 128
            && let Err(e) = self.validate()
        {
            panic!("{e}");
        }
    }

    // ---- slots ----

    /// Where a child (node or proxy) is stored.
    #[inline]
    fn slot_of_child(&self, child: u32) -> Slot {
        let parent = if is_leaf(child) {
            self.proxies[(child & !LEAF) as usize].parent
        } else {
            self.nodes[child as usize].parent
        };
        if parent == NULL {
            return ROOT;
        }
        let k = (self.nodes[parent as usize].children[1] == child) as u32;
        (parent << 1) | k
    }

    /// The box stored in a slot.
    #[inline]
    fn slot_aabb(&self, slot: Slot) -> Aabb {
        if slot == ROOT { self.root_aabb } else { self.nodes[(slot >> 1) as usize].boxes[(slot & 1) as usize] }
    }

    /// The node holding a slot, `NULL` for the root.
    #[inline]
    fn slot_node(slot: Slot) -> u32 {
        if slot == ROOT { NULL } else { slot >> 1 }
    }

    /// The record in a slot: (child, box, user data).
    #[inline]
    fn record(&self, slot: Slot) -> (u32, Aabb, u64) {
        if slot == ROOT {
            (self.root, self.root_aabb, self.root_user_data)
        } else {
            let (node, k) = (&self.nodes[(slot >> 1) as usize], (slot & 1) as usize);
            (node.children[k], node.boxes[k], node.user_data[k])
        }
    }

    /// Writes a record into a slot and links the child back to the slot's node.
    #[inline]
    pub(crate) fn set_record(&mut self, slot: Slot, child: u32, aabb: Aabb, user_data: u64) {
        if slot == ROOT {
            (self.root, self.root_aabb, self.root_user_data) = (child, aabb, user_data);
        } else {
            let (node, k) = (&mut self.nodes[(slot >> 1) as usize], (slot & 1) as usize);
            (node.children[k], node.boxes[k], node.user_data[k]) = (child, aabb, user_data);
        }
        self.set_parent(child, Self::slot_node(slot));
    }

    /// Replaces the box stored in a slot.
    #[inline]
    fn set_slot_aabb(&mut self, slot: Slot, aabb: Aabb) {
        if slot == ROOT {
            self.root_aabb = aabb;
        } else {
            self.nodes[(slot >> 1) as usize].boxes[(slot & 1) as usize] = aabb;
        }
    }

    // ---- insertion and removal ----

    /// The fat AABB for a tight box, or an error when either is not finite and ordered.
    pub(crate) fn fatten(&self, aabb: &Aabb) -> Result<Aabb, BroadPhaseError> {
        check_aabb(aabb, "proxy AABB")?;
        let fat = aabb.enlarged(self.margin);
        check_aabb(&fat, "fat AABB")?;
        Ok(fat)
    }

    /// Links proxy `slot` with box `fat` into the subtree in slot `top` (the root, or a slot
    /// whose box contains `fat`) next to the best sibling, then refits and rotates upward.
    fn insert_leaf(&mut self, slot: u32, fat: Aabb, user_data: u64, top: Slot) {
        self.leaves[slot as usize] = Leaf { fat, user_data };
        if self.root == NULL {
            self.set_record(ROOT, LEAF | slot, fat, user_data);
            return;
        }
        let sibling = self.find_best_sibling(top, &fat);
        let (child, aabb, sibling_user_data) = self.record(sibling);
        let parent = self.allocate_node(Node {
            boxes: [aabb, fat],
            children: [child, LEAF | slot],
            user_data: [sibling_user_data, user_data],
            parent: NULL,
            free: false,
        });
        self.set_parent(child, parent);
        self.set_parent(LEAF | slot, parent);
        self.set_record(sibling, parent, aabb.union(&fat), 0);
        self.rotate(parent);
        self.refit_upward(Self::slot_node(sibling), true);
    }

    /// The slot next to which a leaf with box `leaf` costs least, searching the subtree in
    /// slot `top`: the cost is the perimeter of the new parent plus the growth in perimeter of
    /// every ancestor below `top`. Descends greedily, pruning when the lower bound of a
    /// subtree's cost (the leaf's perimeter plus the growth already inherited) cannot beat
    /// the best so far.
    fn find_best_sibling(&self, top: Slot, leaf: &Aabb) -> Slot {
        let leaf_perimeter = leaf.perimeter();
        let (mut child, mut aabb, _) = self.record(top);
        let mut best = top;
        let mut best_cost = aabb.union(leaf).perimeter();
        let mut inherited = 0.0f32; // growth of the ancestors of `child` below `top`
        while !is_leaf(child) {
            let node = &self.nodes[child as usize];
            let inherited_below = inherited + aabb.union(leaf).perimeter() - aabb.perimeter();
            let mut descend = (NULL, f32::INFINITY, aabb);
            for k in 0..2 {
                let direct = node.boxes[k].union(leaf).perimeter();
                let cost = direct + inherited_below;
                if cost < best_cost {
                    (best, best_cost) = ((child << 1) | k as u32, cost);
                }
                if !is_leaf(node.children[k]) {
                    let bound = inherited_below + (direct - node.boxes[k].perimeter()) + leaf_perimeter;
                    if bound < descend.1 {
                        descend = (node.children[k], bound, node.boxes[k]);
                    }
                }
            }
            if descend.1 >= best_cost {
                break;
            }
            (child, inherited, aabb) = (descend.0, inherited_below, descend.2);
        }
        best
    }

    /// From node `index` up: stores each node's box (the union of its children's) in its
    /// slot, rotating first when `rotate` is set; stops at the first node whose box comes out
    /// unchanged, since nothing above it changes then.
    fn refit_upward(&mut self, mut index: u32, rotate: bool) {
        while index != NULL {
            if rotate {
                self.rotate(index);
            }
            let node = &self.nodes[index as usize];
            let aabb = node.boxes[0].union(&node.boxes[1]);
            let slot = self.slot_of_child(index);
            if self.slot_aabb(slot) == aabb {
                return;
            }
            self.set_slot_aabb(slot, aabb);
            index = Self::slot_node(slot);
        }
    }

    /// Unlinks proxy `slot`: its sibling takes its parent's place and the parent is freed; the
    /// ancestors are refitted (they only shrink, so no rotation is needed). Returns the slot
    /// that now holds the sibling (`ROOT` also when the tree became empty).
    fn remove_leaf(&mut self, slot: u32) -> Slot {
        let parent = self.proxies[slot as usize].parent;
        if parent == NULL {
            self.root = NULL;
            return ROOT;
        }
        let node = self.nodes[parent as usize];
        let k = (node.children[0] == (LEAF | slot)) as usize; // the sibling's side
        let place = self.slot_of_child(parent);
        self.set_record(place, node.children[k], node.boxes[k], node.user_data[k]);
        self.nodes[parent as usize] = Node { parent: NULL, free: true, ..node };
        self.free_nodes.push(parent);
        self.refit_upward(Self::slot_node(place), false);
        place
    }

    /// Gives proxy `slot` the box `fat`: unlinks it, then inserts it below the lowest
    /// ancestor of its old sibling whose box contains `fat`. That node and everything above it
    /// keep their boxes, so the search can start there instead of at the root: a few levels
    /// for the usual small motion instead of the whole height.
    fn reinsert(&mut self, slot: u32, fat: Aabb) {
        let user_data = self.leaf_user_data(slot);
        let mut top = self.remove_leaf(slot);
        while top != ROOT && !self.slot_aabb(top).contains(&fat) {
            top = self.slot_of_child(top >> 1);
        }
        self.insert_leaf(slot, fat, user_data, top);
    }

    /// Tree rotation at node `a`: swaps one of its children with a grandchild on the other
    /// side when that shrinks the perimeter of the child that receives the swap. `a`'s own
    /// box holds the same leaves and does not change.
    fn rotate(&mut self, a: u32) {
        let node = self.nodes[a as usize];
        let mut best_gain = 0.0f32;
        let mut best = None;
        for inner in 0..2 {
            if is_leaf(node.children[inner]) {
                continue;
            }
            let grandchildren = &self.nodes[node.children[inner] as usize];
            let perimeter = node.boxes[inner].perimeter();
            for out in 0..2 {
                let kept = grandchildren.boxes[1 - out].union(&node.boxes[1 - inner]).perimeter();
                if perimeter - kept > best_gain {
                    (best_gain, best) = (perimeter - kept, Some((inner, out)));
                }
            }
        }
        let Some((inner, out)) = best else {
            return;
        };
        // The other child of `a` and grandchild `out` trade places.
        let b = node.children[inner];
        let uncle = (node.children[1 - inner], node.boxes[1 - inner], node.user_data[1 - inner]);
        let g = &self.nodes[b as usize];
        let nephew = (g.children[out], g.boxes[out], g.user_data[out]);
        self.set_record((a << 1) | (1 - inner) as u32, nephew.0, nephew.1, nephew.2);
        self.set_record((b << 1) | out as u32, uncle.0, uncle.1, uncle.2);
        let g = &self.nodes[b as usize];
        let b_box = g.boxes[0].union(&g.boxes[1]);
        self.nodes[a as usize].boxes[inner] = b_box;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_live_handles_are_accepted() {
        let mut tree = DynamicTree::new();
        let b = Aabb::new(Vec2::ZERO, Vec2::ONE);
        let ids: Vec<_> = (0..8).map(|i| tree.create_proxy(b.translated(Vec2::splat(i as f32)), i).unwrap()).collect();
        tree.remove_proxy(ids[3]).unwrap();
        tree.remove_proxy(ids[5]).unwrap();
        let live: Vec<_> = ids.iter().copied().filter(|&id| id != ids[3] && id != ids[5]).collect();
        // Every forged handle: free slots, wrong generations, out of range.
        for index in 0..12 {
            for generation in 0..4 {
                let id = ProxyId::new(index, generation);
                assert_eq!(tree.contains(id), live.contains(&id), "{id:?}");
            }
        }
        tree.validate().unwrap();
    }

    #[test]
    fn nodes_fill_one_cache_line() {
        assert_eq!(std::mem::size_of::<Node>(), 64);
        assert_eq!(std::mem::align_of::<Node>(), 64);
    }
}
