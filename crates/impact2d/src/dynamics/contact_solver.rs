//! The contact solver: soft contact constraints with accumulated-impulse clamping, solved
//! four at a time.
//!
//! Constraints live in flat arrays of *bundles*: four contacts side by side, every number
//! stored as four lanes (`[f32; 4]`), solved with `glam::Vec4` (SSE2 on x86-64, a scalar
//! fallback elsewhere; both compute every lane with the same IEEE operations in the same
//! order, without fused multiply-adds, so they agree bit for bit; on a machine with AVX every
//! stage runs a copy compiled with AVX's three-operand encodings of the same operations,
//! `encoding.rs`). The four contacts of a bundle must share no dynamic body: they come from
//! one color of the persistent constraint graph ([`ConstraintGraph`], `graph.rs`), cut into
//! bundles of four in the color's order. Colors are solved in order, so this is still
//! Gauss-Seidel, in a coloring order; the overflow's contacts (no free color among
//! [`GRAPH_COLOR_COUNT`]) get a bundle each, solved after the colors.
//!
//! Each bundle is prepared from four [`ConstraintInput`]s, records built from the contacts
//! and bodies on the stack; their numbers are rows of four floats, so a bundle's four inputs
//! transpose into its lanes and are prepared four at a time. Body states are gathered into
//! lanes with aligned row loads and 4×4 transposes (exact moves) and scattered back the same
//! way, without bounds checks: `prepare` checks every index once.
//!
//! The stages follow Box2D v3's soft step: `prepare` (lever arms about the normal and the
//! tangent, effective masses, the relative normal velocity before the step), then per sub-step
//! `warm_start`, `solve` (with bias), and after the body positions move, `relax` (without
//! bias); after the sub-steps `restitution` and `store`.
//!
//! Separation during sub-steps is not recomputed by the narrow phase: it is the manifold's
//! separation plus the motion along the normal of the shapes' *core* points, from the bodies'
//! position and rotation deltas since the start of the step (the normal is fixed for the
//! step). Box2D v3 moves the contact point itself with each body; for a rounded shape that
//! point is not a material point (a rolling ball's contact point stays below its center while
//! the ball turns), so after a large rotation it would report a gap that is not there. Here
//! the point of each body that moves rigidly is its core point, the contact point pulled in
//! by the shape's radius and half the separation along the normal: a circle's center, a
//! polygon's vertex. Jacobians keep the contact point as their fixed anchor.
//!
//! The passes read no anchors: every use of an anchor `r` is a lever arm, `r × n` or `r × t`,
//! so a point keeps its four arms, and the core point's motion along the normal under a
//! rotation `(c, s)` is `(c - 1) reach + s (r × n)` with `reach = n · r ∓ core` kept per
//! point (the position part folded into precomputed lanes, as Box2D v3 folds its anchors
//! into an adjusted separation). The positions a solve pass sees are those of the previous
//! sub-step's relax pass, so the relax pass keeps the separations it computed and the solve
//! pass reads them instead of gathering the bodies' motion.
//!
//! Sources: Catto, "Solver2D" (2024) and Box2D v3 (`contact_solver.c`, `constraint_graph.c`)
//! for the soft step and the colored SIMD layout; Catto, "Soft Constraints" (GDC 2011) for
//! the soft constraint coefficients; Firth, "Speculative Contacts" (2011) for the
//! speculative bias.

use glam::{BVec4A, Vec4};

use super::body::Body;
use super::contact::{Contact, PointImpulse, flags};
use super::events::ContactHitEvent;
use super::graph::ConstraintGraph;
use super::handles::{NULL, ShapeId, Slots};
use crate::encoding::Encoding;
use crate::math::{Rot, Vec2};
use crate::settings::{GRAPH_COLOR_COUNT, MAX_BODIES};

/// The velocity and the motion since the start of the step of one awake body, in the layout
/// the solver gathers from: 32 bytes, two halves of four floats. The angle turned since the
/// start of the step lives beside the states ([`Solver::angles`](super::solver::Solver)), so
/// that the contact solver, which only reads and writes the velocity half, carries no lane it
/// does not change.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(32))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct BodyState {
    /// Linear velocity of the center of mass (m/s).
    pub v: Vec2,
    /// Angular velocity (rad/s).
    pub w: f32,
    /// Padding that makes the velocity a whole row; always zero.
    pub pad: f32,
    /// Motion of the center of mass since the start of the step (meters).
    pub dp: Vec2,
    /// The rotation since the start of the step.
    pub dq: Rot,
}

/// The state of a body that does not move: what static bodies (and empty lanes) read.
pub(crate) const STILL_STATE: BodyState =
    BodyState { v: Vec2::ZERO, w: 0.0, pad: 0.0, dp: Vec2::ZERO, dq: Rot::IDENTITY };

/// The coefficients of a soft constraint of natural frequency `hertz` and damping ratio
/// `zeta` solved with time step `h` (Catto, "Soft Constraints"): the velocity bias per meter
/// of error (1/s), and the scales of the effective mass and of the accumulated impulse.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Softness {
    pub bias_rate: f32,
    pub mass_scale: f32,
    pub impulse_scale: f32,
}

impl Softness {
    pub fn new(hertz: f32, zeta: f32, h: f32) -> Softness {
        if hertz == 0.0 {
            return Softness { bias_rate: 0.0, mass_scale: 1.0, impulse_scale: 0.0 };
        }
        let omega = 2.0 * std::f32::consts::PI * hertz;
        let a1 = 2.0 * zeta + h * omega;
        let a2 = h * omega * a1;
        let a3 = 1.0 / (1.0 + a2);
        Softness { bias_rate: omega / a1, mass_scale: a2 * a3, impulse_scale: a3 }
    }
}

type Lanes = [f32; 4];

/// One manifold point of the four contacts of a bundle. The anchors are not kept: every use
/// of an anchor `r` is through its cross product with the normal or the tangent (its lever
/// arm, meters), so the passes read the four arms instead of the four anchor coordinates.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(16))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct PointLanes {
    /// `ra × n` and `rb × n`, the anchors relative to the centers of mass at the start of the
    /// step crossed with the normal (meters).
    normal_arm_a: Lanes,
    normal_arm_b: Lanes,
    /// `ra × t` and `rb × t`, with the tangent `t = (n.y, -n.x)` (meters).
    tangent_arm_a: Lanes,
    tangent_arm_b: Lanes,
    /// The manifold's separation (meters).
    separation: Lanes,
    /// The core points' offsets from the centers of mass along the normal, `n · ra - core_a`
    /// and `n · rb + core_b` (meters), where a core point lies behind the contact point by
    /// the shape's radius plus half the separation: a rotation with cosine `c` moves it
    /// along the normal by `(c - 1)` times this plus the sine times the normal arm.
    reach_a: Lanes,
    reach_b: Lanes,
    normal_mass: Lanes,
    tangent_mass: Lanes,
    normal_impulse: Lanes,
    tangent_impulse: Lanes,
    max_normal_impulse: Lanes,
}

impl PointLanes {
    /// The normal (`nx`, `ny`) with this point's arms about it.
    #[inline(always)]
    fn normal(&self, nx: Vec4, ny: Vec4) -> Axis {
        Axis { x: nx, y: ny, arm_a: ld(&self.normal_arm_a), arm_b: ld(&self.normal_arm_b) }
    }

    /// The tangent (`tx`, `ty`) with this point's arms about it.
    #[inline(always)]
    fn tangent(&self, tx: Vec4, ty: Vec4) -> Axis {
        Axis { x: tx, y: ty, arm_a: ld(&self.tangent_arm_a), arm_b: ld(&self.tangent_arm_b) }
    }
}

/// Four contacts that share no dynamic body. An empty lane points at the still state and has
/// zero masses, so it changes nothing; a one-point contact's second point has zero masses.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(16))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct Bundle {
    /// The bodies' states, as [`StateSlot`]s.
    body_a: [StateSlot; 4],
    body_b: [StateSlot; 4],
    inv_mass_a: Lanes,
    inv_inertia_a: Lanes,
    inv_mass_b: Lanes,
    inv_inertia_b: Lanes,
    normal_x: Lanes,
    normal_y: Lanes,
    friction: Lanes,
    /// The target relative speed along the tangent (m/s, conveyor belts; zero in most lanes).
    tangent_speed: Lanes,
    points: [PointLanes; 2],
}

/// Rolling resistance of a bundle's four contacts, beside the bundle, read only while some
/// contact of the step has rolling resistance.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(16))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct RollingLanes {
    /// The rolling resistance times the radius (meters); zero in lanes without.
    resistance: Lanes,
    /// `1 / (1/Ia + 1/Ib)` (kg·m²), zero where neither body turns.
    mass: Lanes,
    /// The accumulated angular impulse (N·m·s).
    impulse: Lanes,
}

/// What only the restitution pass and `store` read of a bundle, apart so that the passes
/// that run every sub-step stream fewer bytes.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(16))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct BundleCold {
    /// The contact index of each lane, `NULL` for an empty lane.
    contacts: [u32; 4],
    restitution: Lanes,
    /// Per point: the relative normal velocity before the step (m/s).
    relative_velocity: [Lanes; 2],
}

/// The per-step numbers the stages need.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StepConstants {
    /// Sub-step length (s) and its inverse.
    pub inv_h: f32,
    pub contact_softness: Softness,
    pub static_softness: Softness,
    pub push_max_speed: f32,
    pub restitution_threshold: f32,
    pub hit_event_threshold: f32,
    pub warm_starting: bool,
}

/// What the solver needs of one touching contact and its two bodies, built four at a time
/// (one bundle's contacts) while the bundles are prepared. The numbers are rows of four
/// floats, so that the records of a bundle's four contacts transpose into its lanes.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(16))]
pub(crate) struct ConstraintInput {
    /// Inverse mass of A, inverse inertia of A, inverse mass of B, inverse inertia of B
    /// (1/kg, 1/(kg m²)).
    pub masses: [f32; 4],
    /// Normal x, normal y, friction, restitution.
    pub surface: [f32; 4],
    /// The rounding radii of A and B (meters), the tangent speed (m/s) and the rolling
    /// resistance times the radius (meters).
    pub radii: [f32; 4],
    /// Per manifold point: the anchors relative to the centers of mass, `ra.x, ra.y, rb.x,
    /// rb.y` (meters, world axes); zeros past `count`.
    pub anchors: [[f32; 4]; 2],
    /// Per manifold point: the separation (meters), the normal and tangent impulses to warm
    /// start with (N·s), then (first point) the rolling impulse to warm start with (N·m·s) or
    /// (second point) a zero; zeros past `count`.
    pub values: [[f32; 4]; 2],
    pub contact: u32,
    /// State indices (0: the still state).
    pub state_a: u32,
    pub state_b: u32,
    /// The number of manifold points (1 or 2; 0 only in [`ConstraintInput::EMPTY`]).
    pub count: u32,
}

impl ConstraintInput {
    /// The input of an empty lane: no points, no masses, the still state.
    const EMPTY: ConstraintInput = ConstraintInput {
        masses: [0.0; 4],
        surface: [0.0; 4],
        radii: [0.0; 4],
        anchors: [[0.0; 4]; 2],
        values: [[0.0; 4]; 2],
        contact: NULL,
        state_a: 0,
        state_b: 0,
        count: 0,
    };

    /// The record of a touching solid contact; `warm` scales the carried impulses (1, or 0
    /// without warm starting). Inlined so that the record is written in place in its lane.
    #[inline]
    pub fn new(index: u32, contact: &Contact, a: &Body, b: &Body, warm: f32) -> ConstraintInput {
        let (state_a, state_b) = (state_index(a), state_index(b));
        let m = &contact.manifold;
        // Manifold anchors are relative to the body origins; the solver's to the centers of mass.
        let (offset_a, offset_b) = (a.center - a.transform.p, b.center - b.transform.p);
        let mut anchors = [[0.0; 4]; 2];
        let mut values = [[0.0; 4]; 2];
        for (j, mp) in m.points().iter().enumerate() {
            let (ra, rb) = (mp.anchor_a - offset_a, mp.anchor_b - offset_b);
            anchors[j] = [ra.x, ra.y, rb.x, rb.y];
            let impulse = &contact.impulses[j];
            values[j] = [mp.separation, warm * impulse.normal, warm * impulse.tangent, 0.0];
        }
        values[0][3] = warm * contact.rolling_impulse;
        ConstraintInput {
            masses: [a.inv_mass, a.inv_inertia, b.inv_mass, b.inv_inertia],
            surface: [m.normal.x, m.normal.y, contact.friction, contact.restitution],
            radii: [contact.radius_a, contact.radius_b, contact.tangent_speed, contact.rolling_resistance],
            anchors,
            values,
            contact: index,
            state_a,
            state_b,
            count: m.points().len() as u32,
        }
    }
}

/// The contact solver's arrays, kept from step to step so that nothing is allocated once they
/// have grown to their working size.
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct ContactSolver {
    bundles: Vec<Bundle>,
    /// Beside each bundle, its points' separations (meters) at the positions of the last relax
    /// pass (at the start of the step after `prepare`): the next solve pass sees the same
    /// positions, so it reads them instead of gathering the bodies' motion.
    separations: Vec<[Lanes; 2]>,
    /// Beside each bundle, its contacts and the numbers of the restitution pass.
    cold: Vec<BundleCold>,
    /// Beside each bundle, its rolling resistance; read only when `rolling` is true.
    rolling_lanes: Vec<RollingLanes>,
    /// Whether some contact of the step has rolling resistance.
    rolling: bool,
    /// Whether some contact of the step has rolling resistance or a tangent speed: the passes
    /// are compiled with and without that work, so that a step without pays nothing for it.
    extras: bool,
    /// The length of the state array the bundles were prepared with: every state slot in
    /// `bundles` is of a state below it (`prepare` read each), so the stages index without
    /// bounds checks.
    state_count: usize,
    /// Statistics of the last step: contacts per color, and alone.
    pub color_sizes: [u32; GRAPH_COLOR_COUNT],
    pub overflow_count: u32,
    /// The encoding the stages run with (AVX's where the machine has it; see `encoding.rs`).
    pub encoding: Encoding,
}

/// Where a body state is: its index times four, the state's byte offset in units of 8 bytes.
/// x86's scaled addressing multiplies by at most 8, so a 32-byte state's index would need a
/// shift before each of the 16 row loads and stores a bundle makes per pass; this slot is
/// used as it is. [`MAX_BODIES`] keeps it within 32 bits.
type StateSlot = u32;

/// The slot of the state at `index` (below `MAX_BODIES + 1`, so the product fits).
#[inline]
fn state_slot(index: u32) -> StateSlot {
    index * 4
}

/// The state in `slot`.
///
/// # Safety
/// `slot / 4` must be below `states.len()`, and `slot` a multiple of 4.
#[inline(always)]
unsafe fn state_at(states: &[BodyState], slot: StateSlot) -> &BodyState {
    // SAFETY: the caller keeps the slot on a state of the slice (8-byte units, 4 per state).
    unsafe { &*states.as_ptr().cast::<[f32; 2]>().add(slot as usize).cast::<BodyState>() }
}

/// [`state_at`] for writing.
///
/// # Safety
/// As for [`state_at`].
#[inline(always)]
unsafe fn state_at_mut(states: &mut [BodyState], slot: StateSlot) -> &mut BodyState {
    // SAFETY: as in `state_at`.
    unsafe { &mut *states.as_mut_ptr().cast::<[f32; 2]>().add(slot as usize).cast::<BodyState>() }
}

/// The four lanes of `a`.
#[inline(always)]
fn ld(a: &Lanes) -> Vec4 {
    Vec4::from_array(*a)
}

/// The state index of a body: its place in the awake set plus one, 0 (the still state) for
/// a body that is not awake (static bodies).
#[inline]
pub(crate) fn state_index(body: &Body) -> u32 {
    if body.awake_index == NULL { 0 } else { body.awake_index + 1 }
}

/// Four bodies' velocities, lane by lane.
pub(crate) struct WideBody {
    pub vx: Vec4,
    pub vy: Vec4,
    pub w: Vec4,
}

/// Four bodies' motion since the start of the step, lane by lane: translation (meters) and
/// the cosine and sine of the rotation.
struct WideMotion {
    dpx: Vec4,
    dpy: Vec4,
    qc: Vec4,
    qs: Vec4,
}

/// Transposes four rows of four floats into four columns (exact moves: no rounding).
#[inline(always)]
pub(crate) fn transpose(r: [Vec4; 4]) -> [Vec4; 4] {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{__m128, _mm_movehl_ps, _mm_movelh_ps, _mm_unpackhi_ps, _mm_unpacklo_ps};
        let [r0, r1, r2, r3] = r.map(__m128::from);
        // SAFETY: SSE is part of every x86-64 target; these are register shuffles only.
        let columns = unsafe {
            let (t0, t1) = (_mm_unpacklo_ps(r0, r1), _mm_unpacklo_ps(r2, r3));
            let (t2, t3) = (_mm_unpackhi_ps(r0, r1), _mm_unpackhi_ps(r2, r3));
            [_mm_movelh_ps(t0, t1), _mm_movehl_ps(t1, t0), _mm_movelh_ps(t2, t3), _mm_movehl_ps(t3, t2)]
        };
        columns.map(Vec4::from)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let a = r.map(|s| s.to_array());
        [0, 1, 2, 3].map(|c| Vec4::new(a[0][c], a[1][c], a[2][c], a[3][c]))
    }
}

/// The two halves of a body state as rows: velocity (v, w, angle delta) and motion (dp, dq).
#[inline(always)]
pub(crate) fn rows(s: &BodyState) -> (Vec4, Vec4) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::_mm_load_ps;
        let p = (s as *const BodyState).cast::<f32>();
        // SAFETY: `BodyState` is `repr(C)`, 32-byte aligned, and made of eight f32 (its `Vec2`
        // and `Rot` fields are `repr(C)` pairs), so both aligned 16-byte loads stay inside it.
        unsafe { (Vec4::from(_mm_load_ps(p)), Vec4::from(_mm_load_ps(p.add(4)))) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        (Vec4::new(s.v.x, s.v.y, s.w, s.pad), Vec4::new(s.dp.x, s.dp.y, s.dq.c, s.dq.s))
    }
}

/// Writes a state's first half (v, w, padding) from a row.
#[inline(always)]
pub(crate) fn store_velocity_row(s: &mut BodyState, row: Vec4) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::_mm_store_ps;
        let p = (s as *mut BodyState).cast::<f32>();
        // SAFETY: as in `rows`: the first 16 aligned bytes of the state are v, w, padding.
        unsafe { _mm_store_ps(p, row.into()) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let [vx, vy, w, pad] = row.to_array();
        s.v = Vec2::new(vx, vy);
        s.w = w;
        s.pad = pad;
    }
}

/// Writes a state's second half (dp, dq) from a row (as [`rows`] reads it).
#[inline(always)]
pub(crate) fn store_motion_row(s: &mut BodyState, motion: Vec4) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::_mm_store_ps;
        let p = (s as *mut BodyState).cast::<f32>();
        // SAFETY: as in `rows`: the state is eight f32 in 32 aligned bytes.
        unsafe { _mm_store_ps(p.add(4), motion.into()) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let [dpx, dpy, c, sin] = motion.to_array();
        s.dp = Vec2::new(dpx, dpy);
        s.dq = Rot { c, s: sin };
    }
}

/// The inverse masses (1/kg) and inverse rotational inertias (1/(kg m²)) of a bundle's
/// bodies, in lanes.
struct Masses {
    a: Vec4,
    ia: Vec4,
    b: Vec4,
    ib: Vec4,
}

impl Masses {
    #[inline(always)]
    fn of(c: &Bundle) -> Masses {
        Masses { a: ld(&c.inv_mass_a), ia: ld(&c.inv_inertia_a), b: ld(&c.inv_mass_b), ib: ld(&c.inv_inertia_b) }
    }
}

/// The soft constraint coefficients of four contacts, in lanes: the velocity bias per meter of
/// error times the mass scale (1/s), the mass scale and the impulse scale. Not stored in the
/// bundles (48 bytes less each, so that a pass streams fewer bytes) but picked in each pass
/// by whether a lane's contact has a body of infinite mass (zero inverse mass, in the bundle).
#[derive(Clone, Copy)]
struct SoftLanes {
    bias_rate: Vec4,
    mass_scale: Vec4,
    impulse_scale: Vec4,
}

impl SoftLanes {
    #[inline(always)]
    fn of(s: &Softness) -> SoftLanes {
        SoftLanes {
            bias_rate: Vec4::splat(s.mass_scale * s.bias_rate),
            mass_scale: Vec4::splat(s.mass_scale),
            impulse_scale: Vec4::splat(s.impulse_scale),
        }
    }

    /// `stiff` lanes take `fixed`, the others `contact`.
    #[inline(always)]
    fn pick(stiff: BVec4A, fixed: &SoftLanes, contact: &SoftLanes) -> SoftLanes {
        SoftLanes {
            bias_rate: Vec4::select(stiff, fixed.bias_rate, contact.bias_rate),
            mass_scale: Vec4::select(stiff, fixed.mass_scale, contact.mass_scale),
            impulse_scale: Vec4::select(stiff, fixed.impulse_scale, contact.impulse_scale),
        }
    }
}

/// A direction in lanes with the lever arms about it of a point's anchors (`ra × d` and
/// `rb × d`, meters): all that a pass needs of the anchors.
struct Axis {
    x: Vec4,
    y: Vec4,
    arm_a: Vec4,
    arm_b: Vec4,
}

/// The velocity (m/s) of B's anchor point relative to A's along the axis.
#[inline(always)]
fn speed_along(a: &WideBody, b: &WideBody, d: &Axis) -> Vec4 {
    ((b.vx - a.vx) * d.x + (b.vy - a.vy) * d.y) + (b.w * d.arm_b - a.w * d.arm_a)
}

/// Applies the impulse (`px`, `py`) (N s) to B and its opposite to A, with its moments about
/// the centers of mass `la = ra × P` and `lb = rb × P` (N m s).
#[inline(always)]
fn apply(a: &mut WideBody, b: &mut WideBody, m: &Masses, (px, py): (Vec4, Vec4), (la, lb): (Vec4, Vec4)) {
    a.vx -= m.a * px;
    a.vy -= m.a * py;
    a.w -= m.ia * la;
    b.vx += m.b * px;
    b.vy += m.b * py;
    b.w += m.ib * lb;
}

/// Applies the impulse `impulse` (N s) along the axis at its anchors: to B, and its opposite
/// to A.
#[inline(always)]
fn apply_impulse(a: &mut WideBody, b: &mut WideBody, m: &Masses, impulse: Vec4, d: &Axis) {
    apply(a, b, m, (impulse * d.x, impulse * d.y), (impulse * d.arm_a, impulse * d.arm_b));
}

/// The velocities of four bodies, transposed into lanes.
///
/// # Safety
/// Every slot must be one of `states` (see [`state_at`]).
#[inline(always)]
unsafe fn gather(states: &[BodyState], slots: &[StateSlot; 4]) -> WideBody {
    // SAFETY: the caller keeps the slots in bounds.
    let s = slots.map(|i| rows(unsafe { state_at(states, i) }).0);
    let [vx, vy, w, _] = transpose(s);
    WideBody { vx, vy, w }
}

/// The motion of four bodies, transposed into lanes.
///
/// # Safety
/// Every slot must be one of `states` (see [`state_at`]).
#[inline(always)]
unsafe fn gather_motion(states: &[BodyState], slots: &[StateSlot; 4]) -> WideMotion {
    // SAFETY: the caller keeps the slots in bounds.
    let s = slots.map(|i| rows(unsafe { state_at(states, i) }).1);
    let [dpx, dpy, qc, qs] = transpose(s);
    WideMotion { dpx, dpy, qc, qs }
}

/// Writes the velocities back (each state's first half as one row, with zero padding). Lanes
/// of static bodies and empty lanes write the still state's zero velocity back unchanged
/// (their masses are zero), and a kinematic body in several lanes writes its unchanged
/// velocity each time, so no lane needs a test.
///
/// # Safety
/// Every slot must be one of `states` (see [`state_at`]).
#[inline(always)]
unsafe fn scatter(states: &mut [BodyState], slots: &[StateSlot; 4], b: &WideBody) {
    let r = transpose([b.vx, b.vy, b.w, Vec4::ZERO]);
    for l in 0..4 {
        // SAFETY: the caller keeps the slots in bounds.
        store_velocity_row(unsafe { state_at_mut(states, slots[l]) }, r[l]);
    }
}

/// The velocities of a bundle's two bodies, transposed into lanes.
///
/// # Safety
/// Every slot of the bundle must be one of `states`.
#[inline(always)]
unsafe fn gather_bundle(states: &[BodyState], c: &Bundle) -> (WideBody, WideBody) {
    // SAFETY: the caller keeps the indices in bounds.
    unsafe { (gather(states, &c.body_a), gather(states, &c.body_b)) }
}

/// Writes the velocities of a bundle's two bodies back.
///
/// # Safety
/// Every slot of the bundle must be one of `states`.
#[inline(always)]
unsafe fn scatter_bundle(states: &mut [BodyState], c: &Bundle, a: &WideBody, b: &WideBody) {
    // SAFETY: the caller keeps the indices in bounds.
    unsafe {
        scatter(states, &c.body_a, a);
        scatter(states, &c.body_b, b);
    }
}

impl ContactSolver {
    /// Fills the bundles from the constraint graph, color by color and then the overflow one
    /// contact per bundle: the first stage of a step. `states` holds the velocities before
    /// the step.
    pub fn prepare(
        &mut self,
        graph: &ConstraintGraph,
        contacts: &Slots<Contact>,
        bodies: &Slots<Body>,
        states: &[BodyState],
        k: &StepConstants,
    ) {
        #[cfg(target_arch = "x86_64")]
        if self.encoding.avx() {
            // SAFETY: `avx()` is true only where AVX was detected on this machine.
            return unsafe { self.prepare_avx(graph, contacts, bodies, states, k) };
        }
        self.prepare_in(graph, contacts, bodies, states, k)
    }

    /// [`Self::prepare`] compiled with AVX's encodings.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx")]
    fn prepare_avx(
        &mut self,
        graph: &ConstraintGraph,
        contacts: &Slots<Contact>,
        bodies: &Slots<Body>,
        states: &[BodyState],
        k: &StepConstants,
    ) {
        self.prepare_in(graph, contacts, bodies, states, k)
    }

    /// The body of [`Self::prepare`], inlined into each encoding's version.
    #[inline(always)]
    fn prepare_in(
        &mut self,
        graph: &ConstraintGraph,
        contacts: &Slots<Contact>,
        bodies: &Slots<Body>,
        states: &[BodyState],
        k: &StepConstants,
    ) {
        // Every state has a 32-bit slot (`create_body` holds the bodies to MAX_BODIES).
        assert!(states.len() <= MAX_BODIES as usize + 1, "more body states than MAX_BODIES + 1");
        self.state_count = states.len();
        // The arrays take their new length first (only slots past last step's length are
        // filled), so that each bundle is written in its slot rather than built apart and
        // copied in by a push (about 90 instructions per bundle).
        let (colors, overflow) = graph.colors.split_at(GRAPH_COLOR_COUNT);
        let count = colors.iter().map(|list| list.len().div_ceil(4)).sum::<usize>()
            + overflow.iter().map(Vec::len).sum::<usize>();
        self.bundles.resize(count, Bundle::default());
        self.cold.resize(count, BundleCold::default());
        self.separations.resize(count, Default::default());
        self.rolling_lanes.resize(count, RollingLanes::default());
        let (mut rolling, mut tangent) = (false, false);
        let warm = if k.warm_starting { 1.0 } else { 0.0 };
        let input = |index: u32| {
            let c = &contacts.items[index as usize];
            ConstraintInput::new(index, c, &bodies[c.body_a], &bodies[c.body_b], warm)
        };
        // The four records are written in place, lane by lane; lanes past a short chunk empty.
        let mut inputs = [ConstraintInput::EMPTY; 4];
        let chunks = colors.iter().flat_map(|list| list.chunks(4));
        let chunks = chunks.chain(overflow.iter().flat_map(|list| list.chunks(1)));
        let slots = self.bundles.iter_mut().zip(&mut self.cold).zip(&mut self.separations).zip(&mut self.rolling_lanes);
        for (chunk, (((bundle, cold), separations), roll)) in chunks.zip(slots) {
            for (lane, &index) in chunk.iter().enumerate() {
                inputs[lane] = input(index);
            }
            for lane in &mut inputs[chunk.len()..] {
                *lane = ConstraintInput::EMPTY;
            }
            rolling |= prepare_bundle(inputs.each_ref(), states, bundle, cold, separations, roll);
            tangent |= bundle.tangent_speed.iter().any(|&t| t != 0.0);
        }
        self.rolling = rolling;
        self.extras = rolling || tangent;
        (self.color_sizes, self.overflow_count) = graph.sizes();
    }

    /// Applies the accumulated impulses of the last step (warm starting).
    pub fn warm_start(&self, states: &mut [BodyState]) {
        #[cfg(target_arch = "x86_64")]
        if self.encoding.avx() {
            // SAFETY: `avx()` is true only where AVX was detected on this machine.
            return unsafe {
                if self.extras { self.warm_start_avx::<true>(states) } else { self.warm_start_avx::<false>(states) }
            };
        }
        if self.extras { self.warm_start_in::<true>(states) } else { self.warm_start_in::<false>(states) }
    }

    /// [`Self::warm_start`] compiled with AVX's encodings.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx")]
    fn warm_start_avx<const EXTRAS: bool>(&self, states: &mut [BodyState]) {
        self.warm_start_in::<EXTRAS>(states)
    }

    /// The body of [`Self::warm_start`], inlined into each encoding's version.
    #[inline(always)]
    fn warm_start_in<const EXTRAS: bool>(&self, states: &mut [BodyState]) {
        assert!(states.len() >= self.state_count, "the states the bundles were prepared with");
        let rolling = self.rolling;
        for (i, c) in self.bundles.iter().enumerate() {
            // SAFETY: the bundles' slots are of the first `state_count` states (asserted above).
            let (mut a, mut b) = unsafe { gather_bundle(states, c) };
            let m = Masses::of(c);
            let (nx, ny) = (ld(&c.normal_x), ld(&c.normal_y));
            let (tx, ty) = (ny, -nx);
            for p in &c.points {
                let (pn, pt) = (ld(&p.normal_impulse), ld(&p.tangent_impulse));
                let impulse = (pn * nx + pt * tx, pn * ny + pt * ty);
                let moment = |arm_n: &Lanes, arm_t: &Lanes| pn * ld(arm_n) + pt * ld(arm_t);
                let moments = (moment(&p.normal_arm_a, &p.tangent_arm_a), moment(&p.normal_arm_b, &p.tangent_arm_b));
                apply(&mut a, &mut b, &m, impulse, moments);
            }
            if EXTRAS && rolling {
                warm_start_rolling(&mut a, &mut b, &m, &self.rolling_lanes[i]);
            }
            // SAFETY: as for the gather.
            unsafe { scatter_bundle(states, c, &a, &b) };
        }
    }

    /// One pass over every constraint: normal impulses (soft, with bias, when `use_bias`;
    /// rigid without bias for the relax pass; speculative for separated points), then
    /// friction. The pass with bias uses the separations kept by the last relax pass (or by
    /// `prepare`), so the bodies must not have moved since: the sub-step order
    /// `warm_start, solve, integrate positions, relax` keeps that.
    pub fn solve(&mut self, states: &mut [BodyState], k: &StepConstants, use_bias: bool) {
        #[cfg(target_arch = "x86_64")]
        if self.encoding.avx() {
            // SAFETY: `avx()` is true only where AVX was detected on this machine.
            return unsafe {
                match (use_bias, self.extras) {
                    (true, true) => self.pass_avx::<true, true>(states, k),
                    (true, false) => self.pass_avx::<true, false>(states, k),
                    (false, true) => self.pass_avx::<false, true>(states, k),
                    (false, false) => self.pass_avx::<false, false>(states, k),
                }
            };
        }
        match (use_bias, self.extras) {
            (true, true) => self.pass::<true, true>(states, k),
            (true, false) => self.pass::<true, false>(states, k),
            (false, true) => self.pass::<false, true>(states, k),
            (false, false) => self.pass::<false, false>(states, k),
        }
    }

    /// [`Self::pass`] compiled with AVX's encodings.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx")]
    fn pass_avx<const BIAS: bool, const EXTRAS: bool>(&mut self, states: &mut [BodyState], k: &StepConstants) {
        self.pass_in::<BIAS, EXTRAS>(states, k)
    }

    /// [`Self::solve`] in the baseline encoding, compiled with and without bias and softness,
    /// and with and without rolling resistance and tangent speeds (`EXTRAS`).
    fn pass<const BIAS: bool, const EXTRAS: bool>(&mut self, states: &mut [BodyState], k: &StepConstants) {
        self.pass_in::<BIAS, EXTRAS>(states, k)
    }

    /// The body of [`Self::pass`], inlined into each encoding's version.
    #[inline(always)]
    fn pass_in<const BIAS: bool, const EXTRAS: bool>(&mut self, states: &mut [BodyState], k: &StepConstants) {
        assert!(states.len() >= self.state_count, "the states the bundles were prepared with");
        let inv_h = Vec4::splat(k.inv_h);
        let min_bias = Vec4::splat(-k.push_max_speed);
        let (fixed, contact) = (SoftLanes::of(&k.static_softness), SoftLanes::of(&k.contact_softness));
        let rolling = self.rolling;
        for (i, (c, kept)) in self.bundles.iter_mut().zip(&mut self.separations).enumerate() {
            let (nx, ny) = (ld(&c.normal_x), ld(&c.normal_y));
            // The solve pass sees the positions of the last relax pass (or of the start of the
            // step), so it reads the separations that pass kept; the relax pass computes them
            // from the positions, before the velocities are gathered.
            let separations = if BIAS {
                kept.map(|s| ld(&s))
            } else {
                // SAFETY: the bundles' slots are of the first `state_count` states (asserted above).
                let (a, b) = unsafe { (gather_motion(states, &c.body_a), gather_motion(states, &c.body_b)) };
                current_separations(c, &a, &b)
            };
            // SAFETY: the bundles' slots are of the first `state_count` states (asserted above).
            let (mut a, mut b) = unsafe { gather_bundle(states, c) };
            if !BIAS {
                // Kept after the gathers: before them, the store would make the compiler
                // load the state indices again (it cannot tell that `kept` is not in `c`).
                *kept = separations.map(|s| s.to_array());
            }
            let m = Masses::of(c);
            // Against a body of infinite mass the contact is stiffer.
            let stiff = m.a.cmpeq(Vec4::ZERO) | m.b.cmpeq(Vec4::ZERO);
            let soft = if stiff.any() { SoftLanes::pick(stiff, &fixed, &contact) } else { contact };
            let friction = ld(&c.friction);
            let mut limits = [Vec4::ZERO; 2];
            for ((p, s), limit) in c.points.iter_mut().zip(separations).zip(&mut limits) {
                let normal = p.normal(nx, ny);
                // A separated point only removes the speed that would close its gap within
                // the sub-step; an overlap is pushed out softly, no faster than the cap.
                let speculative = s.cmpgt(Vec4::ZERO);
                let vn = speed_along(&a, &b, &normal);
                let old = ld(&p.normal_impulse);
                // The impulse removes `mass * speed` (written `old - x` rather than `old + -x`:
                // the same bits without the negation).
                let removed = if BIAS {
                    // Speculative lanes are rigid: a mass scale of one, no impulse scale.
                    let soft_speed = soft.mass_scale * vn + (soft.bias_rate * s).max(min_bias);
                    let speed = Vec4::select(speculative, vn + s * inv_h, soft_speed);
                    let impulse_scale = Vec4::select(speculative, Vec4::ZERO, soft.impulse_scale);
                    ld(&p.normal_mass) * speed + impulse_scale * old
                } else {
                    // The formula above with a zero bias rate, a mass scale of one and an
                    // impulse scale of zero: the same impulses (up to the sign of a zero,
                    // which the clamp below removes).
                    ld(&p.normal_mass) * Vec4::select(speculative, vn + s * inv_h, vn)
                };
                let new = (old - removed).max(Vec4::ZERO);
                let delta = new - old;
                p.normal_impulse = new.to_array();
                p.max_normal_impulse = ld(&p.max_normal_impulse).max(new).to_array();
                // Friction's bound, kept rather than read back from the bundle.
                *limit = friction * new;
                apply_impulse(&mut a, &mut b, &m, delta, &normal);
            }
            let (tx, ty) = (ny, -nx);
            // Friction drives the tangent speed toward the contact's (zero but on conveyor
            // belts: `x - 0` is `x`, bit for bit).
            let target = if EXTRAS { ld(&c.tangent_speed) } else { Vec4::ZERO };
            for (p, limit) in c.points.iter_mut().zip(limits) {
                let tangent = p.tangent(tx, ty);
                let vt = if EXTRAS { speed_along(&a, &b, &tangent) - target } else { speed_along(&a, &b, &tangent) };
                let old = ld(&p.tangent_impulse);
                let new = (old - ld(&p.tangent_mass) * vt).min(limit).max(-limit);
                let delta = new - old;
                p.tangent_impulse = new.to_array();
                apply_impulse(&mut a, &mut b, &m, delta, &tangent);
            }
            if EXTRAS && rolling {
                let total = ld(&c.points[0].normal_impulse) + ld(&c.points[1].normal_impulse);
                solve_rolling(&mut a, &mut b, &m, &mut self.rolling_lanes[i], total);
            }
            // SAFETY: as for the gather.
            unsafe { scatter_bundle(states, c, &a, &b) };
        }
    }

    /// Restitution after the sub-steps: a point that took an impulse and approached faster
    /// than the threshold before the step gets the normal velocity `-e` times that approach
    /// speed. Using the approach speed from before the step (not the speed left after the
    /// sub-steps) is what keeps speculative contacts from eating the bounce.
    pub fn restitution(&mut self, states: &mut [BodyState], k: &StepConstants) {
        #[cfg(target_arch = "x86_64")]
        if self.encoding.avx() {
            // SAFETY: `avx()` is true only where AVX was detected on this machine.
            return unsafe { self.restitution_avx(states, k) };
        }
        self.restitution_in(states, k)
    }

    /// [`Self::restitution`] compiled with AVX's encodings.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx")]
    fn restitution_avx(&mut self, states: &mut [BodyState], k: &StepConstants) {
        self.restitution_in(states, k)
    }

    /// The body of [`Self::restitution`], inlined into each encoding's version.
    #[inline(always)]
    fn restitution_in(&mut self, states: &mut [BodyState], k: &StepConstants) {
        assert!(states.len() >= self.state_count, "the states the bundles were prepared with");
        let threshold = Vec4::splat(-k.restitution_threshold);
        for (c, cold) in self.bundles.iter_mut().zip(&self.cold) {
            let e = ld(&cold.restitution);
            if e.cmpeq(Vec4::ZERO).all() {
                continue;
            }
            // SAFETY: the bundles' slots are of the first `state_count` states (asserted above).
            let (mut a, mut b) = unsafe { gather_bundle(states, c) };
            let m = Masses::of(c);
            let (nx, ny) = (ld(&c.normal_x), ld(&c.normal_y));
            for (p, rv) in c.points.iter_mut().zip(&cold.relative_velocity) {
                let rv = ld(rv);
                let apply = rv.cmplt(threshold) & ld(&p.max_normal_impulse).cmpgt(Vec4::ZERO);
                if !apply.any() {
                    continue;
                }
                let normal = p.normal(nx, ny);
                let vn = speed_along(&a, &b, &normal);
                let old = ld(&p.normal_impulse);
                let new = Vec4::select(apply, (old - ld(&p.normal_mass) * (vn + e * rv)).max(Vec4::ZERO), old);
                let delta = new - old;
                p.normal_impulse = new.to_array();
                p.max_normal_impulse = ld(&p.max_normal_impulse).max(new).to_array();
                apply_impulse(&mut a, &mut b, &m, delta, &normal);
            }
            // SAFETY: as for the gather.
            unsafe { scatter_bundle(states, c, &a, &b) };
        }
    }

    /// Copies the impulses back into the contacts (for the next step's warm start, the
    /// restitution and hit tests, and the user), and reports a hit event for each contact
    /// whose fastest point that took an impulse approached faster than `hit_threshold`.
    /// `shape_generations` (the world's identity and its shapes' generations) names the shapes.
    ///
    /// A point's four numbers (normal, friction and largest normal impulse, approach speed)
    /// are a [`PointImpulse`] row of the bundle's lanes, so each point of a bundle is one 4×4
    /// transpose and a row store per contact; a bundle with a lane that may report a hit takes
    /// the scalar path.
    pub fn store(
        &self,
        contacts: &mut Slots<Contact>,
        shape_generations: (u32, &[u32]),
        hits: &mut Vec<ContactHitEvent>,
        hit_threshold: f32,
    ) {
        #[cfg(target_arch = "x86_64")]
        if self.encoding.avx() {
            // SAFETY: `avx()` is true only where AVX was detected on this machine.
            return unsafe { self.store_avx(contacts, shape_generations, hits, hit_threshold) };
        }
        self.store_in(contacts, shape_generations, hits, hit_threshold)
    }

    /// [`Self::store`] compiled with AVX's encodings.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx")]
    fn store_avx(
        &self,
        contacts: &mut Slots<Contact>,
        shape_generations: (u32, &[u32]),
        hits: &mut Vec<ContactHitEvent>,
        hit_threshold: f32,
    ) {
        self.store_in(contacts, shape_generations, hits, hit_threshold)
    }

    /// The body of [`Self::store`], inlined into each encoding's version.
    #[inline(always)]
    fn store_in(
        &self,
        contacts: &mut Slots<Contact>,
        shape_generations: (u32, &[u32]),
        hits: &mut Vec<ContactHitEvent>,
        hit_threshold: f32,
    ) {
        let threshold = Vec4::splat(hit_threshold);
        if self.rolling {
            for (roll, cold) in self.rolling_lanes.iter().zip(&self.cold) {
                for (l, &ci) in cold.contacts.iter().enumerate() {
                    if ci != NULL {
                        contacts[ci].rolling_impulse = roll.impulse[l];
                    }
                }
            }
        }
        for (c, cold) in self.bundles.iter().zip(&self.cold) {
            let (first, hit_first) = impulse_rows(&c.points[0], &cold.relative_velocity[0], threshold);
            let (second, hit_second) = impulse_rows(&c.points[1], &cold.relative_velocity[1], threshold);
            if (hit_first | hit_second).any() {
                store_with_hits(c, cold, contacts, shape_generations, hits, hit_threshold);
                continue;
            }
            for (l, &ci) in cold.contacts.iter().enumerate() {
                if ci == NULL {
                    continue;
                }
                let contact = &mut contacts[ci];
                let count = contact.manifold.count;
                if count > 0 {
                    store_impulse(&mut contact.impulses[0], first[l]);
                }
                if count > 1 {
                    store_impulse(&mut contact.impulses[1], second[l]);
                }
            }
        }
    }
}

/// A point's impulses in the four lanes as rows, one [`PointImpulse`] per contact (a
/// transpose: exact moves), and the lanes that took an impulse and approached faster than
/// `threshold` (m/s), which may report a hit.
#[inline(always)]
fn impulse_rows(p: &PointLanes, approach: &Lanes, threshold: Vec4) -> ([Vec4; 4], BVec4A) {
    let approach = ld(approach);
    let max_normal = ld(&p.max_normal_impulse);
    let hit = max_normal.cmpgt(Vec4::ZERO) & (-approach).cmpgt(threshold);
    (transpose([ld(&p.normal_impulse), ld(&p.tangent_impulse), max_normal, approach]), hit)
}

/// Writes an impulse record from a row (normal, friction, largest normal impulse, approach
/// speed) with one store.
#[inline(always)]
fn store_impulse(out: &mut PointImpulse, row: Vec4) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::_mm_storeu_ps;
        // SAFETY: `PointImpulse` is `repr(C)` and four f32 (16 bytes); the store is unaligned.
        unsafe { _mm_storeu_ps((out as *mut PointImpulse).cast::<f32>(), row.into()) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let [normal, tangent, max_normal, approach] = row.to_array();
        *out = PointImpulse { normal, tangent, max_normal, approach };
    }
}

/// [`ContactSolver::store`] of one bundle, lane by lane, with its hit events.
fn store_with_hits(
    c: &Bundle,
    cold: &BundleCold,
    contacts: &mut Slots<Contact>,
    shape_generations: (u32, &[u32]),
    hits: &mut Vec<ContactHitEvent>,
    hit_threshold: f32,
) {
    for (l, &ci) in cold.contacts.iter().enumerate() {
        if ci == NULL {
            continue;
        }
        let contact = &mut contacts[ci];
        let mut fastest = (NULL as usize, hit_threshold);
        for j in 0..contact.manifold.count {
            let p = &c.points[j];
            let imp = PointImpulse {
                normal: p.normal_impulse[l],
                tangent: p.tangent_impulse[l],
                max_normal: p.max_normal_impulse[l],
                approach: cold.relative_velocity[j][l],
            };
            contact.impulses[j] = imp;
            if imp.max_normal > 0.0 && -imp.approach > fastest.1 {
                fastest = (j, -imp.approach);
            }
        }
        if fastest.0 != NULL as usize && contact.flags & flags::HIT_EVENTS != 0 {
            let id = |i: u32| ShapeId::new(i, shape_generations.1[i as usize], shape_generations.0);
            hits.push(ContactHitEvent {
                shape_a: id(contact.shape_a),
                shape_b: id(contact.shape_b),
                point: contact.manifold.points[fastest.0].point,
                normal: contact.manifold.normal,
                approach_speed: fastest.1,
            });
        }
    }
}

/// The current separations (meters) of a bundle's two points from its bodies' motion since
/// the start of the step: the manifold's plus the core points' motion along the normal,
/// `n · dp` for both points, and for each body `(c - 1) reach + s arm` from its rotation's
/// cosine `c` and sine `s`.
#[inline(always)]
fn current_separations(c: &Bundle, a: &WideMotion, b: &WideMotion) -> [Vec4; 2] {
    let (nx, ny) = (ld(&c.normal_x), ld(&c.normal_y));
    let moved = (b.dpx - a.dpx) * nx + (b.dpy - a.dpy) * ny;
    let (turn_a, turn_b) = (a.qc - Vec4::ONE, b.qc - Vec4::ONE);
    c.points.each_ref().map(|p| {
        let along_b = turn_b * ld(&p.reach_b) + b.qs * ld(&p.normal_arm_b);
        let along_a = turn_a * ld(&p.reach_a) + a.qs * ld(&p.normal_arm_a);
        (ld(&p.separation) + moved) + (along_b - along_a)
    })
}

/// The bundle of four contacts' inputs (`ConstraintInput::EMPTY` in empty lanes), computed in
/// lanes: each lane takes the operations of a scalar preparation in the same order, so the
/// numbers do not depend on the lane. `states` holds the velocities before the step. Lanes
/// and points without a contact point get zeros throughout. Also writes the points'
/// separations for the first solve pass: the manifolds', as nothing has moved yet. Inlined
/// into each encoding's version of `prepare`.
#[inline(always)]
fn prepare_bundle(
    c: [&ConstraintInput; 4],
    states: &[BodyState],
    bundle: &mut Bundle,
    cold: &mut BundleCold,
    separations: &mut [Lanes; 2],
    roll: &mut RollingLanes,
) -> bool {
    let columns = |row: fn(&ConstraintInput) -> &Lanes| transpose(c.map(|c| ld(row(c))));
    let [ma, ia, mb, ib] = columns(|c| &c.masses);
    let [nx, ny, friction, restitution] = columns(|c| &c.surface);
    let [radius_a, radius_b, tangent_speed, rolling] = columns(|c| &c.radii);
    let (body_a, body_b) = (c.map(|c| c.state_a), c.map(|c| c.state_b));
    let velocities = |index: [u32; 4]| transpose(index.map(|i| rows(&states[i as usize]).0));
    let ([vax, vay, wa, _], [vbx, vby, wb, _]) = (velocities(body_a), velocities(body_b));
    let counts = Vec4::from_array(c.map(|c| c.count as f32));
    let zero = Vec4::ZERO;
    let (tx, ty) = (ny, -nx);
    // Every field is written in place (built apart, the bundle would be copied in).
    bundle.body_a = body_a.map(state_slot);
    bundle.body_b = body_b.map(state_slot);
    bundle.inv_mass_a = ma.to_array();
    bundle.inv_inertia_a = ia.to_array();
    bundle.inv_mass_b = mb.to_array();
    bundle.inv_inertia_b = ib.to_array();
    bundle.normal_x = nx.to_array();
    bundle.normal_y = ny.to_array();
    bundle.friction = friction.to_array();
    bundle.tangent_speed = tangent_speed.to_array();
    let rolls = rolling.cmpgt(zero);
    let turns = ia + ib;
    roll.resistance = rolling.to_array();
    roll.mass = Vec4::select(rolls & turns.cmpgt(zero), Vec4::ONE / turns, zero).to_array();
    roll.impulse = Vec4::select(rolls, transpose(c.map(|c| ld(&c.values[0])))[3], zero).to_array();
    cold.contacts = c.map(|c| c.contact);
    cold.restitution = restitution.to_array();
    let slots = bundle.points.iter_mut().zip(&mut cold.relative_velocity).zip(separations);
    for (j, ((point, approach), kept)) in slots.enumerate() {
        let valid = counts.cmpgt(Vec4::splat(j as f32));
        let [rax, ray, rbx, rby] = transpose(c.map(|c| ld(&c.anchors[j])));
        let [separation, normal_impulse, tangent_impulse, _] = transpose(c.map(|c| ld(&c.values[j])));
        let half = Vec4::splat(0.5) * separation;
        let (rna, rnb) = (rax * ny - ray * nx, rbx * ny - rby * nx);
        let kn = ma + mb + ia * rna * rna + ib * rnb * rnb;
        let (rta, rtb) = (rax * ty - ray * tx, rbx * ty - rby * tx);
        let kt = ma + mb + ia * rta * rta + ib * rtb * rtb;
        let inverse = |k: Vec4| Vec4::select(valid & k.cmpgt(zero), Vec4::ONE / k, zero).to_array();
        let (dvx, dvy) = ((vbx - wb * rby) - (vax - wa * ray), (vby + wb * rbx) - (vay + wa * rax));
        let only_valid = |v: Vec4| Vec4::select(valid, v, zero);
        let (core_a, core_b) = (only_valid(radius_a + half), only_valid(radius_b + half));
        *approach = only_valid(dvx * nx + dvy * ny).to_array();
        *kept = separation.to_array();
        // With t = (n.y, -n.x), `r × t = -(n · r)` exactly.
        *point = PointLanes {
            normal_arm_a: rna.to_array(),
            normal_arm_b: rnb.to_array(),
            tangent_arm_a: rta.to_array(),
            tangent_arm_b: rtb.to_array(),
            separation: separation.to_array(),
            reach_a: (-rta - core_a).to_array(),
            reach_b: (core_b - rtb).to_array(),
            normal_mass: inverse(kn),
            tangent_mass: inverse(kt),
            normal_impulse: normal_impulse.to_array(),
            tangent_impulse: tangent_impulse.to_array(),
            max_normal_impulse: [0.0; 4],
        };
    }
    rolls.any()
}

/// Warm starts the rolling resistance of a bundle: the accumulated angular impulse, to B and
/// its opposite to A. Lanes without rolling resistance are left as they are, bit for bit.
#[inline(always)]
fn warm_start_rolling(a: &mut WideBody, b: &mut WideBody, m: &Masses, roll: &RollingLanes) {
    let impulse = ld(&roll.impulse);
    let rolls = ld(&roll.resistance).cmpgt(Vec4::ZERO);
    a.w = Vec4::select(rolls, a.w - m.ia * impulse, a.w);
    b.w = Vec4::select(rolls, b.w + m.ib * impulse, b.w);
}

/// Rolling resistance (Box2D v3.1's): an angular impulse against the relative turning
/// `wb - wa`, its accumulated value held within `resistance × total normal impulse`.
/// Lanes without rolling resistance are left as they are, bit for bit.
#[inline(always)]
fn solve_rolling(a: &mut WideBody, b: &mut WideBody, m: &Masses, roll: &mut RollingLanes, total_normal: Vec4) {
    let resistance = ld(&roll.resistance);
    let rolls = resistance.cmpgt(Vec4::ZERO);
    if !rolls.any() {
        return;
    }
    let limit = resistance * total_normal;
    let old = ld(&roll.impulse);
    let new = (old - ld(&roll.mass) * (b.w - a.w)).min(limit).max(-limit);
    let new = Vec4::select(rolls, new, old);
    let delta = new - old;
    roll.impulse = new.to_array();
    a.w = Vec4::select(rolls, a.w - m.ia * delta, a.w);
    b.w = Vec4::select(rolls, b.w + m.ib * delta, b.w);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dynamics::contact::RecycleRef;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn softness_matches_the_closed_form() {
        let s = Softness::new(30.0, 10.0, 1.0 / 240.0);
        let omega = 2.0 * std::f32::consts::PI * 30.0;
        let h = 1.0f32 / 240.0;
        let a1 = 2.0 * 10.0 + h * omega;
        assert!((s.bias_rate - omega / a1).abs() < 1e-3);
        assert!((s.mass_scale + s.impulse_scale - 1.0).abs() < 1e-6);
        let rigid = Softness::new(0.0, 10.0, h);
        assert_eq!((rigid.bias_rate, rigid.mass_scale, rigid.impulse_scale), (0.0, 1.0, 0.0));
    }

    #[test]
    fn body_state_is_32_bytes() {
        assert_eq!(std::mem::size_of::<BodyState>(), 32);
    }

    /// Uniform numbers in `[lo, hi)` from a seeded generator.
    struct Seeded(ChaCha8Rng);

    impl Seeded {
        fn new(seed: u64) -> Seeded {
            Seeded(ChaCha8Rng::seed_from_u64(seed))
        }

        fn next(&mut self, lo: f32, hi: f32) -> f32 {
            self.0.random_range(lo..hi)
        }
    }

    /// The separation of one point after the bodies moved, in f64 from the f32 inputs: the
    /// core points (the contact point pulled into each shape by its radius plus half the
    /// separation) carried rigidly by explicit rotations of their offsets from the centers.
    fn moved_separation(input: &ConstraintInput, j: usize, a: &BodyState, b: &BodyState) -> f64 {
        let f = |x: f32| x as f64;
        let (nx, ny) = (f(input.surface[0]), f(input.surface[1]));
        let [rax, ray, rbx, rby] = input.anchors[j].map(f);
        let separation = f(input.values[j][0]);
        let (core_a, core_b) = (f(input.radii[0]) + 0.5 * separation, f(input.radii[1]) + 0.5 * separation);
        // The offset of each core point from its center and its motion along the normal.
        let along = |s: &BodyState, (x, y): (f64, f64)| {
            let (c, sin) = (f(s.dq.c), f(s.dq.s));
            let (dx, dy) = (c * x - sin * y - x, sin * x + c * y - y);
            (f(s.dp.x) + dx) * nx + (f(s.dp.y) + dy) * ny
        };
        let moved_b = along(b, (rbx + core_b * nx, rby + core_b * ny));
        let moved_a = along(a, (rax - core_a * nx, ray - core_a * ny));
        separation + moved_b - moved_a
    }

    #[test]
    fn relax_keeps_the_separations_of_the_moved_core_points() {
        let h = 1.0 / 240.0;
        let k = StepConstants {
            inv_h: 1.0 / h,
            contact_softness: Softness::new(30.0, 10.0, h),
            static_softness: Softness::new(60.0, 10.0, h),
            push_max_speed: 3.0,
            restitution_threshold: 1.0,
            hit_event_threshold: 1.0,
            warm_starting: true,
        };
        let mut g = Seeded::new(0x9e37_79b9_7f4a_7c15);
        let (mut worst, mut checked) = (0.0f64, 0);
        for _ in 0..500 {
            // Lane l joins state 1 + l (A) and state 5 + l (B); state 0 is the still state.
            let mut states = [STILL_STATE; 9];
            let inputs: [ConstraintInput; 4] = std::array::from_fn(|l| {
                let angle = g.next(-3.2, 3.2);
                let count = if g.next(0.0, 1.0) < 0.5 { 1 } else { 2 };
                let mut input = ConstraintInput {
                    masses: [g.next(0.1, 2.0), g.next(0.1, 5.0), g.next(0.1, 2.0), g.next(0.1, 5.0)],
                    surface: [angle.cos(), angle.sin(), 0.6, 0.0],
                    radii: [g.next(0.0, 0.1), g.next(0.0, 0.1), 0.0, 0.0],
                    contact: l as u32,
                    state_a: 1 + l as u32,
                    state_b: 5 + l as u32,
                    count,
                    ..ConstraintInput::EMPTY
                };
                for j in 0..count as usize {
                    input.anchors[j] = [(); 4].map(|_| g.next(-1.0, 1.0));
                    input.values[j] = [g.next(-0.05, 0.05), g.next(0.0, 1.0), g.next(-0.3, 0.3), 0.0];
                }
                input
            });
            let mut solver = ContactSolver { state_count: states.len(), ..ContactSolver::default() };
            solver.bundles.push(Bundle::default());
            solver.cold.push(BundleCold::default());
            solver.separations.push([[0.0; 4]; 2]);
            let (bundle, cold, kept) = (&mut solver.bundles[0], &mut solver.cold[0], &mut solver.separations[0]);
            let mut roll = RollingLanes::default();
            prepare_bundle(inputs.each_ref(), &states, bundle, cold, kept, &mut roll);
            // Before anything moves, the first solve pass reads the manifolds' separations.
            for (l, input) in inputs.iter().enumerate() {
                for j in 0..input.count as usize {
                    assert_eq!(solver.separations[0][j][l], input.values[j][0]);
                }
            }
            for s in &mut states[1..] {
                s.dp = Vec2::new(g.next(-0.5, 0.5), g.next(-0.5, 0.5));
                s.dq = Rot::from_angle(g.next(-0.5, 0.5));
            }
            solver.solve(&mut states, &k, false);
            let kept = solver.separations[0];
            // The solve pass with bias reads them and leaves them as they are.
            solver.solve(&mut states, &k, true);
            assert_eq!(solver.separations[0], kept);
            for (l, input) in inputs.iter().enumerate() {
                for (j, point) in kept.iter().enumerate().take(input.count as usize) {
                    let expected = moved_separation(input, j, &states[1 + l], &states[5 + l]);
                    worst = worst.max((point[l] as f64 - expected).abs());
                    checked += 1;
                }
            }
        }
        assert!(checked > 2500, "{checked} points checked");
        // Inputs of about a meter in f32: a few ulps.
        assert!(worst < 1e-6, "worst separation error {worst} m");
    }

    #[test]
    fn store_in_rows_is_the_lane_by_lane_store() {
        use super::super::contact::Edge;
        use crate::broad_phase::PairKey;
        use crate::narrow_phase::Manifold;
        let mut g = Seeded::new(0x2545_f491_4f6c_dd1d);
        // 400 contacts of one or two points, a third with hit events, in bundles of four
        // with some empty lanes; impulses and approach speeds such that some bundles hold a
        // point fast enough for a hit (1 m/s) and most do not.
        let mut contacts = Slots::default();
        for i in 0..400u32 {
            let mut manifold = Manifold::EMPTY;
            manifold.count = 1 + usize::from(i.is_multiple_of(5));
            manifold.normal = Vec2::new(0.6, 0.8);
            manifold.points[0].point = Vec2::new(g.next(-5.0, 5.0), g.next(-5.0, 5.0));
            manifold.points[1].point = Vec2::new(g.next(-5.0, 5.0), g.next(-5.0, 5.0));
            let contact = Contact {
                shape_a: i,
                shape_b: i + 1,
                body_a: 0,
                body_b: 0,
                edges: [Edge { prev: NULL, next: NULL }; 2],
                manifold,
                impulses: [PointImpulse { normal: -9.0, tangent: -9.0, max_normal: -9.0, approach: -9.0 }; 2],
                friction: 0.5,
                restitution: 0.0,
                tangent_speed: 0.0,
                rolling_resistance: 0.0,
                rolling_impulse: 0.0,
                radius_a: 0.0,
                radius_b: 0.0,
                flags: if i.is_multiple_of(3) { flags::HIT_EVENTS } else { 0 },
                color: 0,
                color_slot: 0,
                pair_key: PairKey(u64::from(i)),
                recycle: RecycleRef::NONE,
            };
            contacts.insert(contact).unwrap();
        }
        let mut solver = ContactSolver::default();
        let mut next = 0u32;
        while next < 400 {
            let mut bundle = Bundle::default();
            let mut cold = BundleCold::default();
            for l in 0..4 {
                let empty = g.next(0.0, 1.0) < 0.1 || next >= 400;
                cold.contacts[l] = if empty { NULL } else { next };
                next += u32::from(!empty);
                for j in 0..2 {
                    let p = &mut bundle.points[j];
                    p.normal_impulse[l] = g.next(0.0, 2.0);
                    p.tangent_impulse[l] = g.next(-1.0, 1.0);
                    // Some points took no impulse.
                    p.max_normal_impulse[l] = if g.next(0.0, 1.0) < 0.2 { 0.0 } else { g.next(0.0, 3.0) };
                    // Approach speeds up to 1.05 m/s: now and then past the 1 m/s threshold.
                    cold.relative_velocity[j][l] = g.next(-1.05, 0.2);
                }
            }
            solver.bundles.push(bundle);
            solver.cold.push(cold);
        }
        let generations = vec![0; 401];
        let (mut rows, mut lanes) = (contacts.clone(), contacts);
        let (mut row_hits, mut lane_hits) = (Vec::new(), Vec::new());
        solver.store(&mut rows, (0, &generations), &mut row_hits, 1.0);
        for (c, cold) in solver.bundles.iter().zip(&solver.cold) {
            store_with_hits(c, cold, &mut lanes, (0, &generations), &mut lane_hits, 1.0);
        }
        let bits = |c: &Contact| c.impulses.map(|i| [i.normal, i.tangent, i.max_normal, i.approach].map(f32::to_bits));
        for (a, b) in rows.items.iter().zip(&lanes.items) {
            assert_eq!(bits(a), bits(b));
        }
        assert_eq!(row_hits, lane_hits);
        // Both paths ran: some bundles reported hits, and most stored without.
        let hit_bundles =
            solver.cold.iter().filter(|c| c.relative_velocity.iter().flatten().any(|&v| v < -1.0)).count();
        assert!(!row_hits.is_empty() && hit_bundles < solver.bundles.len() / 2, "{} hits", row_hits.len());
    }
}
