//! World snapshots (feature `serde`): a world written to bytes and read back, such that the
//! loaded world steps bit for bit as the original would have (the idea of Box2D v3's world
//! snapshot; the format is ours).
//!
//! A snapshot is a header and a payload:
//!
//! | bytes | field |
//! |---|---|
//! | 17 | the magic `impact2d-snapshot` |
//! | 4 | the format version, little-endian `u32` ([`SNAPSHOT_VERSION`]) |
//! | 8 | the payload's length in bytes, little-endian `u64` |
//! | 8 | the payload's FNV-1a 64 checksum, little-endian `u64` |
//! | rest | the payload: the whole world state in postcard's encoding (floats as their bits) |
//!
//! Everything a step reads is in the payload, caches and scratch included (the broad phase's
//! trees, the contacts with their warm-starting impulses, the constraint graph's colors,
//! islands and sleep timers, the solver's buffers): a step's results can depend on the
//! capacity and order of its buffers, and writing them all is what makes continuation exact.
//! The contact hooks are code, not data: a loaded world has none until
//! [`World::set_contact_hooks`] is called again.
//!
//! `World` also implements serde's traits with this feature, for embedding a world in a
//! format of your own; a world read that way (not through [`World::load_snapshot`]) has
//! identity 0, which no world made in the process has, and so do the handles in it.

use thiserror::Error;

use super::handles::{next_world_id, with_loading_world};
use super::{BodyId, JointId, ShapeId, World, WorldError};

/// The first bytes of every snapshot.
const MAGIC: &[u8; 17] = b"impact2d-snapshot";

/// The snapshot format this build writes and reads. Raised whenever the world's stored state
/// changes shape (the test `snapshot_layout_is_pinned` fails until it is).
pub const SNAPSHOT_VERSION: u32 = 2;

/// Bytes before the payload: magic, version, length, checksum.
const HEADER_LEN: usize = MAGIC.len() + 4 + 8 + 8;

/// Why a snapshot could not be loaded ([`World::load_snapshot`]).
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum SnapshotError {
    /// The bytes do not start with the snapshot magic: not an impact2d snapshot.
    #[error("not an impact2d snapshot (its first bytes are not \"impact2d-snapshot\")")]
    NotASnapshot,
    /// The snapshot was written by a build with another format version.
    #[error("snapshot format version {found}, but this build reads version {supported} only")]
    UnsupportedVersion {
        /// The version in the snapshot's header.
        found: u32,
        /// [`SNAPSHOT_VERSION`].
        supported: u32,
    },
    /// The snapshot is shorter or longer than its header says (cut off in a copy, or with
    /// bytes appended).
    #[error("snapshot is {found} bytes long, but its header says {expected}: truncated or extended")]
    WrongLength {
        /// The length the header implies (header plus payload), in bytes.
        expected: u64,
        /// The length given, in bytes.
        found: u64,
    },
    /// The payload's checksum does not match the header's: the snapshot was edited or damaged.
    #[error("snapshot is corrupted: its payload checksum is {computed:#018x}, the header says {stored:#018x}")]
    Corrupted {
        /// The checksum in the header.
        stored: u64,
        /// The checksum of the payload as given.
        computed: u64,
    },
    /// The payload passed its checksum but does not decode as a world of this version.
    #[error("snapshot payload does not decode as a world: {0}")]
    Decode(String),
    /// The payload decoded to a world that breaks the world's rules (a setting out of its
    /// range, a non-finite pose).
    #[error("snapshot holds an invalid world: {0}")]
    Invalid(String),
}

impl World {
    /// The world's whole state as a snapshot (see the module's table for the format): load it
    /// with [`World::load_snapshot`], in this process or another, and step the loaded world to
    /// get bit-identical results (the same [`World::state_checksum`] at every step).
    ///
    /// Contact hooks are not written (see [`World::set_contact_hooks`]).
    pub fn save_snapshot(&self) -> Vec<u8> {
        let payload = postcard::to_stdvec(self).expect("a world always encodes: no maps, no unsized sequences");
        let mut bytes = Vec::with_capacity(HEADER_LEN + payload.len());
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&SNAPSHOT_VERSION.to_le_bytes());
        bytes.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        bytes.extend_from_slice(&fnv1a(&payload).to_le_bytes());
        bytes.extend_from_slice(&payload);
        bytes
    }

    /// A world loaded from a snapshot of [`World::save_snapshot`]. The world gets a new
    /// identity; its handles (in its events, and those [`World::adopt`] binds) are its own.
    ///
    /// Errors, checked in this order: [`SnapshotError::NotASnapshot`],
    /// [`SnapshotError::UnsupportedVersion`], [`SnapshotError::WrongLength`],
    /// [`SnapshotError::Corrupted`], [`SnapshotError::Decode`], [`SnapshotError::Invalid`].
    /// The checksum guards against damage, not against a snapshot crafted to pass it: load
    /// snapshots you trust, as you would any save file.
    pub fn load_snapshot(bytes: &[u8]) -> Result<World, SnapshotError> {
        let payload = check_header(bytes)?;
        let id = next_world_id();
        let mut world: World = with_loading_world(id, || postcard::from_bytes(payload))
            .map_err(|e| SnapshotError::Decode(e.to_string()))?;
        world.id = id;
        world.validate_loaded().map_err(SnapshotError::Invalid)?;
        Ok(world)
    }

    /// The world's rules a loaded world must keep for its step to be safe: settings within
    /// range and finite body states.
    fn validate_loaded(&self) -> Result<(), String> {
        self.def.validate().map_err(|e| e.to_string())?;
        for i in self.bodies.live_indices() {
            let b = &self.bodies[i];
            let values = [
                b.transform.p.x,
                b.transform.p.y,
                b.angle,
                b.linear_velocity.x,
                b.linear_velocity.y,
                b.angular_velocity,
            ];
            if !values.iter().all(|x| x.is_finite()) {
                return Err(format!("body {i} has a non-finite position, angle or velocity"));
            }
        }
        Ok(())
    }
}

/// A handle bound to a world: [`World::adopt`] accepts the handle kinds.
pub trait Handle: Copy + private::Sealed {
    #[doc(hidden)]
    fn rebind(self, world: &World) -> Result<Self, WorldError>;
}

mod private {
    pub trait Sealed {}
    impl Sealed for super::BodyId {}
    impl Sealed for super::ShapeId {}
    impl Sealed for super::JointId {}
}

impl Handle for BodyId {
    fn rebind(self, world: &World) -> Result<BodyId, WorldError> {
        let id = BodyId::new(self.index(), self.generation(), world.id);
        world.body_index(id).map(|_| id)
    }
}

impl Handle for ShapeId {
    fn rebind(self, world: &World) -> Result<ShapeId, WorldError> {
        let id = ShapeId::new(self.index(), self.generation(), world.id);
        world.shape_index(id).map(|_| id)
    }
}

impl Handle for JointId {
    fn rebind(self, world: &World) -> Result<JointId, WorldError> {
        let id = JointId::new(self.index(), self.generation(), world.id);
        world.joint_index(id).map(|_| id)
    }
}

impl World {
    /// The handle of the same object (same index and generation) bound to this world: how a
    /// handle kept from before a snapshot was saved, or read with serde, is used with the
    /// loaded world.
    ///
    /// Errors: [`WorldError::StaleHandle`] (or the kind's missing-object error) when this
    /// world has no live object at that index and generation.
    pub fn adopt<H: Handle>(&self, handle: H) -> Result<H, WorldError> {
        handle.rebind(self)
    }

    /// Runs `read` with every handle deserialized during it (on this thread) bound to this
    /// world, and returns what it returns: how state of your own that holds handles (a game's
    /// save, a character mover) is read back beside a loaded snapshot. Handles read outside
    /// it belong to no world until [`World::adopt`] binds them.
    pub fn bind_handles<T>(&self, read: impl FnOnce() -> T) -> T {
        with_loading_world(self.id, read)
    }
}

/// The payload of a snapshot whose header checks out.
fn check_header(bytes: &[u8]) -> Result<&[u8], SnapshotError> {
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(SnapshotError::NotASnapshot);
    }
    let header = bytes
        .get(..HEADER_LEN)
        .ok_or(SnapshotError::WrongLength { expected: HEADER_LEN as u64, found: bytes.len() as u64 })?;
    let field = |at: usize, n: usize| &header[MAGIC.len() + at..MAGIC.len() + at + n];
    let version = u32::from_le_bytes(field(0, 4).try_into().expect("4 bytes"));
    if version != SNAPSHOT_VERSION {
        return Err(SnapshotError::UnsupportedVersion { found: version, supported: SNAPSHOT_VERSION });
    }
    let length = u64::from_le_bytes(field(4, 8).try_into().expect("8 bytes"));
    let stored = u64::from_le_bytes(field(12, 8).try_into().expect("8 bytes"));
    let expected = (HEADER_LEN as u64).saturating_add(length);
    if expected != bytes.len() as u64 {
        return Err(SnapshotError::WrongLength { expected, found: bytes.len() as u64 });
    }
    let payload = &bytes[HEADER_LEN..];
    let computed = fnv1a(payload);
    if computed != stored {
        return Err(SnapshotError::Corrupted { stored, computed });
    }
    Ok(payload)
}

/// FNV-1a, 64 bits: any changed byte changes it, and it needs no table.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}
