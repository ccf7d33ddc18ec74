//! Generational handles: a slot index, the generation of the slot when the object was made,
//! and the identity of the world that made it. Destroying an object bumps its slot's
//! generation, so a stale handle is refused with
//! [`WorldError::StaleHandle`](super::WorldError::StaleHandle) even after the slot holds a
//! new object, and a handle of another world is refused with
//! [`WorldError::ForeignHandle`](super::WorldError::ForeignHandle): a handle never reaches a
//! wrong body.

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU32, Ordering as AtomicOrdering};

/// The marker of "no index" in the world's intrusive lists and tables.
pub(crate) const NULL: u32 = u32::MAX;

/// The identity of the next world made in this process (see [`next_world_id`]).
static NEXT_WORLD_ID: AtomicU32 = AtomicU32::new(1);

/// A new world identity: unique among the first 2³² − 1 worlds a process makes (then the
/// counter wraps, skipping 0). It only tells worlds apart; nothing a world computes depends on
/// it, so results stay the same whatever other worlds exist.
pub(crate) fn next_world_id() -> u32 {
    loop {
        let id = NEXT_WORLD_ID.fetch_add(1, AtomicOrdering::Relaxed);
        if id != 0 {
            return id;
        }
    }
}

#[cfg(feature = "serde")]
std::thread_local! {
    /// The identity of the world a snapshot is loading into on this thread, 0 otherwise:
    /// what a handle read from the snapshot is bound to.
    static LOADING_WORLD_ID: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// The identity handles read now are bound to (see [`LOADING_WORLD_ID`]).
#[cfg(feature = "serde")]
fn loading_world_id() -> u32 {
    LOADING_WORLD_ID.with(|id| id.get())
}

/// Runs `load` with handles read during it bound to world `id`, then unbinds them (also when
/// `load` fails).
#[cfg(feature = "serde")]
pub(crate) fn with_loading_world<T>(id: u32, load: impl FnOnce() -> T) -> T {
    struct Reset(u32);
    impl Drop for Reset {
        fn drop(&mut self) {
            LOADING_WORLD_ID.with(|id| id.set(self.0));
        }
    }
    let _reset = Reset(LOADING_WORLD_ID.with(|cell| cell.replace(id)));
    load()
}

macro_rules! handle {
    ($(#[$doc:meta])* $name:ident, $kind:literal) => {
        $(#[$doc])*
        ///
        /// Twelve bytes: the slot index, the slot's generation and the identity of the world
        /// that made it. Equality, order, hashing, `Debug` and `Display` look at the index and
        /// generation only, so two worlds built by the same calls report equal handles and
        /// events (determinism does not depend on which worlds exist); the world's identity is
        /// checked when the handle is used, and a handle of another world is refused with
        /// [`WorldError::ForeignHandle`](super::WorldError::ForeignHandle).
        #[derive(Clone, Copy)]
        pub struct $name {
            index: u32,
            generation: u32,
            world: u32,
        }

        impl $name {
            pub(crate) const fn new(index: u32, generation: u32, world: u32) -> $name {
                $name { index, generation, world }
            }

            /// The identity of the world that made the handle.
            #[inline]
            pub(crate) fn world(self) -> u32 {
                self.world
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

        impl PartialEq for $name {
            #[inline]
            fn eq(&self, other: &Self) -> bool {
                (self.index, self.generation) == (other.index, other.generation)
            }
        }

        impl Eq for $name {}

        impl Hash for $name {
            fn hash<H: Hasher>(&self, state: &mut H) {
                (self.index, self.generation).hash(state)
            }
        }

        impl PartialOrd for $name {
            #[inline]
            fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
                Some(self.cmp(other))
            }
        }

        impl Ord for $name {
            #[inline]
            fn cmp(&self, other: &Self) -> Ordering {
                (self.index, self.generation).cmp(&(other.index, other.generation))
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct(stringify!($name)).field("index", &self.index).field("generation", &self.generation).finish()
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}#{}v{}", $kind, self.index, self.generation)
            }
        }

        /// Written as its index and generation: a world's identity belongs to the process
        /// that made it. A handle read while a snapshot loads belongs to the loaded world;
        /// one read elsewhere belongs to no world until [`World::adopt`](super::World::adopt)
        /// binds it.
        #[cfg(feature = "serde")]
        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serde::Serialize::serialize(&(self.index, self.generation), serializer)
            }
        }

        #[cfg(feature = "serde")]
        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let (index, generation) = <(u32, u32) as serde::Deserialize>::deserialize(deserializer)?;
                Ok($name::new(index, generation, loading_world_id()))
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

handle!(
    /// A handle to a joint of a [`World`](super::World). Handles order by index, then
    /// generation: the order in which joint events are reported.
    JointId,
    "joint"
);

/// A table of generational slots: objects live in a vector, freed slots are reused last in,
/// first out (so the same calls reuse the same slots, run after run), and each slot's
/// generation is bumped when its object is destroyed.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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
