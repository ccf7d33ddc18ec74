//! Generational handles: a slot index and the generation of the slot when the object was
//! made. Destroying an object bumps its slot's generation, so a stale handle is refused with
//! [`WorldError::StaleHandle`](super::WorldError::StaleHandle) even after the slot holds a
//! new object: a stale handle never reaches a wrong body.

use std::fmt;

/// The marker of "no index" in the world's intrusive lists and tables.
pub(crate) const NULL: u32 = u32::MAX;

macro_rules! handle {
    ($(#[$doc:meta])* $name:ident, $kind:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name {
            index: u32,
            generation: u32,
        }

        impl $name {
            pub(crate) const fn new(index: u32, generation: u32) -> $name {
                $name { index, generation }
            }

            /// The slot index: small, dense, and unique among the live objects of its kind.
            #[inline]
            pub fn index(self) -> u32 {
                self.index
            }

            /// The generation of the slot when the object was made.
            #[inline]
            pub fn generation(self) -> u32 {
                self.generation
            }

            /// The kind of object, for error messages.
            pub(crate) const KIND: &'static str = $kind;
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}#{}v{}", $kind, self.index, self.generation)
            }
        }
    };
}

handle!(
    /// A handle to a body of a [`World`](super::World). Handles order by index, then
    /// generation: the order in which events are reported.
    BodyId,
    "body"
);

handle!(
    /// A handle to a shape attached to a body of a [`World`](super::World). Handles order by
    /// index, then generation: the order in which events are reported.
    ShapeId,
    "shape"
);

/// A table of generational slots: objects live in a vector, freed slots are reused last in,
/// first out (so the same calls reuse the same slots, run after run), and each slot's
/// generation is bumped when its object is destroyed.
#[derive(Clone, Debug)]
pub(crate) struct Slots<T> {
    pub items: Vec<T>,
    pub generations: Vec<u32>,
    pub live: Vec<bool>,
    free: Vec<u32>,
    count: usize,
}

impl<T> Default for Slots<T> {
    fn default() -> Self {
        Slots { items: Vec::new(), generations: Vec::new(), live: Vec::new(), free: Vec::new(), count: 0 }
    }
}

impl<T> Slots<T> {
    /// Stores `item` and returns its slot and generation; `None` when 2³² − 1 slots are in use.
    pub fn insert(&mut self, item: T) -> Option<(u32, u32)> {
        let index = match self.free.pop() {
            Some(i) => {
                self.items[i as usize] = item;
                self.live[i as usize] = true;
                i
            }
            None => {
                let i = u32::try_from(self.items.len()).ok().filter(|&i| i != NULL)?;
                self.items.push(item);
                self.generations.push(0);
                self.live.push(true);
                i
            }
        };
        self.count += 1;
        Some((index, self.generations[index as usize]))
    }

    /// The slot the next `insert` will use; `None` when the table is full.
    pub fn next_index(&self) -> Option<u32> {
        match self.free.last() {
            Some(&i) => Some(i),
            None => u32::try_from(self.items.len()).ok().filter(|&i| i != NULL),
        }
    }

    /// Frees a live slot: its generation changes, so its handles go stale.
    pub fn remove(&mut self, index: u32) {
        let i = index as usize;
        debug_assert!(self.live[i]);
        self.live[i] = false;
        self.generations[i] = self.generations[i].wrapping_add(1);
        self.free.push(index);
        self.count -= 1;
    }

    /// True when `index` holds a live object of generation `generation`.
    #[inline]
    pub fn is_live(&self, index: u32, generation: u32) -> bool {
        let i = index as usize;
        i < self.items.len() && self.live[i] && self.generations[i] == generation
    }

    /// The number of live objects.
    #[inline]
    pub fn count(&self) -> usize {
        self.count
    }

    /// The indices of the live slots, in order.
    pub fn live_indices(&self) -> impl Iterator<Item = u32> + '_ {
        self.live.iter().enumerate().filter(|(_, l)| **l).map(|(i, _)| i as u32)
    }
}

impl<T> std::ops::Index<u32> for Slots<T> {
    type Output = T;
    #[inline]
    fn index(&self, index: u32) -> &T {
        &self.items[index as usize]
    }
}

impl<T> std::ops::IndexMut<u32> for Slots<T> {
    #[inline]
    fn index_mut(&mut self, index: u32) -> &mut T {
        &mut self.items[index as usize]
    }
}
