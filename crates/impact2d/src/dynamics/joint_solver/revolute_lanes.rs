//! Revolute joints four at a time: the velocity passes of [`super::revolute`] on the four
//! independent joints of a bundle (see [`super::plan`]), one joint per lane.
//!
//! Each lane computes what the scalar pass computes for its joint, operation for operation
//! and in the same order, with rows that a joint does not have (spring, motor, limits) and
//! impulses the scalar pass would drop (non-finite ones) masked out rather than skipped: a
//! lane's result is bit for bit the scalar pass's (a test steps worlds both ways). The still
//! state (index 0) is written back unchanged: its lanes have no mass.

use glam::{BVec4A, Vec4};

use super::{JointConstraint, JointStep, Softness};
use crate::dynamics::contact_solver::{BodyState, WideBody, rows, store_velocity_row, transpose};
use crate::dynamics::handles::NULL;
use crate::dynamics::joint::{JointImpulses, JointKind};
use crate::encoding::Encoding;

type Lanes = [f32; 4];

/// Four revolute joints that share no moving body, lane by lane (units as in
/// [`JointConstraint`]). An empty lane has the still state for both bodies and no mass.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(16))]
pub(crate) struct RevoluteLanes {
    state_a: [u32; 4],
    state_b: [u32; 4],
    ma: Lanes,
    mb: Lanes,
    ia: Lanes,
    ib: Lanes,
    frame_ax: Lanes,
    frame_ay: Lanes,
    frame_bx: Lanes,
    frame_by: Lanes,
    delta_x: Lanes,
    delta_y: Lanes,
    delta_angle: Lanes,
    /// Accumulated impulses: the point (N·s), spring, motor and limits (N·m·s).
    linear_x: Lanes,
    linear_y: Lanes,
    spring: Lanes,
    motor: Lanes,
    lower: Lanes,
    upper: Lanes,
    /// The spring's softness (zeros without a spring), the motor's speed (rad/s) and torque
    /// (N·m), the limits (radians).
    spring_bias_rate: Lanes,
    spring_mass_scale: Lanes,
    spring_impulse_scale: Lanes,
    motor_speed: Lanes,
    max_motor_torque: Lanes,
    lower_angle: Lanes,
    upper_angle: Lanes,
    /// 1 in the lanes whose joint has the row, else 0.
    spring_on: Lanes,
    motor_on: Lanes,
    limit_on: Lanes,
    /// Whether some lane has a spring, motor or limit (else the passes skip those rows).
    angular: bool,
}

impl RevoluteLanes {
    /// The lanes of the joints at `positions` in `joints` (`NULL`: an empty lane).
    pub(crate) fn fill(&mut self, joints: &[JointConstraint], positions: &[u32; 4]) {
        *self = RevoluteLanes::default();
        for (lane, &k) in positions.iter().enumerate() {
            if k == NULL {
                continue;
            }
            let c = &joints[k as usize];
            let JointKind::Revolute(d) = c.kind else { unreachable!("only revolute joints are colored") };
            self.state_a[lane] = c.a as u32;
            self.state_b[lane] = c.b as u32;
            (self.ma[lane], self.mb[lane], self.ia[lane], self.ib[lane]) = (c.ma, c.mb, c.ia, c.ib);
            (self.frame_ax[lane], self.frame_ay[lane]) = (c.frame_a.x, c.frame_a.y);
            (self.frame_bx[lane], self.frame_by[lane]) = (c.frame_b.x, c.frame_b.y);
            (self.delta_x[lane], self.delta_y[lane]) = (c.delta_center.x, c.delta_center.y);
            self.delta_angle[lane] = c.delta_angle;
            let i = &c.impulses;
            (self.linear_x[lane], self.linear_y[lane]) = (i.linear.x, i.linear.y);
            (self.spring[lane], self.motor[lane], self.lower[lane], self.upper[lane]) =
                (i.spring, i.motor, i.lower, i.upper);
            if let Some(s) = c.spring {
                self.spring_on[lane] = 1.0;
                (self.spring_bias_rate[lane], self.spring_mass_scale[lane], self.spring_impulse_scale[lane]) =
                    (s.bias_rate, s.mass_scale, s.impulse_scale);
            }
            if d.enable_motor {
                self.motor_on[lane] = 1.0;
                (self.motor_speed[lane], self.max_motor_torque[lane]) = (d.motor_speed, d.max_motor_torque);
            }
            if d.enable_limit {
                self.limit_on[lane] = 1.0;
                (self.lower_angle[lane], self.upper_angle[lane]) = (d.lower, d.upper);
            }
            self.angular |= c.spring.is_some() || d.enable_motor || d.enable_limit;
        }
    }

    /// Writes the accumulated impulses back into the joints at `positions`.
    pub(crate) fn store(&self, joints: &mut [JointConstraint], positions: &[u32; 4]) {
        for (lane, &k) in positions.iter().enumerate() {
            if k == NULL {
                continue;
            }
            let i = &mut joints[k as usize].impulses;
            *i = JointImpulses {
                linear: glam::Vec2::new(self.linear_x[lane], self.linear_y[lane]),
                spring: self.spring[lane],
                motor: self.motor[lane],
                lower: self.lower[lane],
                upper: self.upper[lane],
                ..*i
            };
        }
    }
}

/// The anchors relative to the centers of mass now (meters, world), lane by lane.
struct Arms {
    ax: Vec4,
    ay: Vec4,
    bx: Vec4,
    by: Vec4,
}

#[inline(always)]
fn ld(a: &Lanes) -> Vec4 {
    Vec4::from_array(*a)
}

#[inline(always)]
fn on(a: &Lanes) -> BVec4A {
    ld(a).cmpne(Vec4::ZERO)
}

/// `x` where finite, else 0 (the scalar `finite`).
#[inline(always)]
fn finite(x: Vec4) -> Vec4 {
    Vec4::select(x.is_finite_mask(), x, Vec4::ZERO)
}

/// The velocities of the states in `slots` (state indices, bounds-checked: the contact
/// solver's `gather` takes slots that its own preparation checked).
#[inline(always)]
fn gather(states: &[BodyState], slots: &[u32; 4]) -> WideBody {
    let [vx, vy, w, _] = transpose(slots.map(|s| rows(&states[s as usize]).0));
    WideBody { vx, vy, w }
}

/// Writes the velocities back (zero padding, as the states keep it).
#[inline(always)]
fn scatter(states: &mut [BodyState], slots: &[u32; 4], b: &WideBody) {
    let r = transpose([b.vx, b.vy, b.w, Vec4::ZERO]);
    for (lane, &s) in slots.iter().enumerate() {
        store_velocity_row(&mut states[s as usize], r[lane]);
    }
}

/// The anchors turned by each body's rotation since the start of the step, and B's anchor
/// minus A's (`Pose::of`).
#[inline(always)]
fn arms(c: &RevoluteLanes, states: &[BodyState]) -> (Arms, Vec4, Vec4) {
    let [dpax, dpay, qac, qas] = transpose(c.state_a.map(|s| rows(&states[s as usize]).1));
    let [dpbx, dpby, qbc, qbs] = transpose(c.state_b.map(|s| rows(&states[s as usize]).1));
    let (fax, fay, fbx, fby) = (ld(&c.frame_ax), ld(&c.frame_ay), ld(&c.frame_bx), ld(&c.frame_by));
    let r = Arms {
        ax: qac * fax - qas * fay,
        ay: qas * fax + qac * fay,
        bx: qbc * fbx - qbs * fby,
        by: qbs * fbx + qbc * fby,
    };
    let dx = ((dpbx - dpax) + ld(&c.delta_x)) + (r.bx - r.ax);
    let dy = ((dpby - dpay) + ld(&c.delta_y)) + (r.by - r.ay);
    (r, dx, dy)
}

/// Applies the impulse `(px, py)` to B and its opposite to A with angular impulses `la`
/// taken from A and `lb` given to B, in the lanes of `keep` whose sum is finite (the scalar
/// `apply`).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn apply(c: &RevoluteLanes, a: &mut WideBody, b: &mut WideBody, keep: BVec4A, p: (Vec4, Vec4), la: Vec4, lb: Vec4) {
    let keep = keep & (((p.0 + p.1) + la) + lb).is_finite_mask();
    let (ma, mb, ia, ib) = (ld(&c.ma), ld(&c.mb), ld(&c.ia), ld(&c.ib));
    a.vx = Vec4::select(keep, a.vx - ma * p.0, a.vx);
    a.vy = Vec4::select(keep, a.vy - ma * p.1, a.vy);
    a.w = Vec4::select(keep, a.w - ia * la, a.w);
    b.vx = Vec4::select(keep, b.vx + mb * p.0, b.vx);
    b.vy = Vec4::select(keep, b.vy + mb * p.1, b.vy);
    b.w = Vec4::select(keep, b.w + ib * lb, b.w);
}

/// Applies an angular impulse `l` (N·m·s) taken from A and given to B, in the lanes of
/// `keep` where `l + l` is finite (the scalar `apply` with no linear impulse).
#[inline(always)]
fn apply_angular(c: &RevoluteLanes, a: &mut WideBody, b: &mut WideBody, keep: BVec4A, l: Vec4) {
    let keep = keep & ((Vec4::ZERO + l) + l).is_finite_mask();
    a.w = Vec4::select(keep, a.w - ld(&c.ia) * l, a.w);
    b.w = Vec4::select(keep, b.w + ld(&c.ib) * l, b.w);
}

/// The warm start of four joints (`revolute::warm_start`).
#[inline(always)]
fn warm_start_four(c: &RevoluteLanes, states: &mut [BodyState]) {
    let (mut a, mut b) = (gather(states, &c.state_a), gather(states, &c.state_b));
    let (r, _, _) = arms(c, states);
    let (px, py) = (ld(&c.linear_x), ld(&c.linear_y));
    let axial = ((ld(&c.spring) + ld(&c.motor)) + ld(&c.lower)) - ld(&c.upper);
    let la = (r.ax * py - r.ay * px) + axial;
    let lb = (r.bx * py - r.by * px) + axial;
    apply(c, &mut a, &mut b, BVec4A::splat(true), (px, py), la, lb);
    scatter(states, &c.state_a, &a);
    scatter(states, &c.state_b, &b);
}

/// The spring, motor and limit rows of four joints (`revolute::solve` before the point).
#[inline(always)]
fn solve_angular(
    c: &mut RevoluteLanes,
    (a, b): (&mut WideBody, &mut WideBody),
    angle: Vec4,
    step: JointStep,
    rigid: Softness,
    use_bias: bool,
) {
    let k = ld(&c.ia) + ld(&c.ib);
    let mass = finite(Vec4::select(k.cmpgt(Vec4::ZERO), Vec4::ONE / k, Vec4::ZERO));
    // The spring row (`spring_row`).
    let spring = on(&c.spring_on);
    let (acc, rate) = (ld(&c.spring), b.w - a.w);
    let bias = ld(&c.spring_bias_rate) * angle;
    let impulse = (-mass * ld(&c.spring_mass_scale)) * (rate + bias) - ld(&c.spring_impulse_scale) * acc;
    let total = finite(acc + impulse);
    c.spring = Vec4::select(spring, total, acc).to_array();
    apply_angular(c, a, b, spring, total - acc);
    // The motor row (`motor_row`), bounded by the torque times the sub-step.
    let motor = on(&c.motor_on);
    let (acc, rate) = (ld(&c.motor), b.w - a.w);
    let max = ld(&c.max_motor_torque) * Vec4::splat(step.h);
    let impulse = -mass * (rate - ld(&c.motor_speed));
    let sum = acc + impulse;
    let total = finite(Vec4::select(sum.is_nan_mask(), Vec4::ZERO, sum.max(-max).min(max)));
    c.motor = Vec4::select(motor, total, acc).to_array();
    apply_angular(c, a, b, motor, total - acc);
    // The limits (`limit_row`): the lower one, then the upper one on the opposite rate.
    let limit = on(&c.limit_on);
    let acc = ld(&c.lower);
    let (applied, total) = limit_row(angle - ld(&c.lower_angle), b.w - a.w, mass, acc, rigid, step, use_bias);
    c.lower = Vec4::select(limit, total, acc).to_array();
    apply_angular(c, a, b, limit, applied);
    let acc = ld(&c.upper);
    let (applied, total) = limit_row(ld(&c.upper_angle) - angle, -(b.w - a.w), mass, acc, rigid, step, use_bias);
    c.upper = Vec4::select(limit, total, acc).to_array();
    apply_angular(c, a, b, limit, -applied);
}

/// The scalar `limit_row` in lanes: returns the impulse to apply and the new accumulated
/// impulse.
#[inline(always)]
fn limit_row(
    position: Vec4,
    cdot: Vec4,
    mass: Vec4,
    acc: Vec4,
    rigid: Softness,
    step: JointStep,
    use_bias: bool,
) -> (Vec4, Vec4) {
    let within = position.cmpgt(Vec4::ZERO);
    let (mut bias, mut mass_scale, mut impulse_scale) = (Vec4::ZERO, Vec4::ONE, Vec4::ZERO);
    if use_bias {
        bias = Vec4::splat(rigid.bias_rate) * position;
        mass_scale = Vec4::splat(rigid.mass_scale);
        impulse_scale = Vec4::splat(rigid.impulse_scale);
    }
    bias = Vec4::select(within, position * Vec4::splat(step.inv_h), bias);
    mass_scale = Vec4::select(within, Vec4::ONE, mass_scale);
    impulse_scale = Vec4::select(within, Vec4::ZERO, impulse_scale);
    let impulse = (-mass * mass_scale) * (cdot + bias) - impulse_scale * acc;
    let total = finite((acc + impulse).max(Vec4::ZERO));
    (total - acc, total)
}

/// The point row of four joints (`solve_point`): with the rigid softness when `use_bias`.
#[inline(always)]
fn solve_point(
    c: &mut RevoluteLanes,
    (a, b): (&mut WideBody, &mut WideBody),
    r: &Arms,
    d: (Vec4, Vec4),
    soft: Option<Softness>,
) {
    let cdot_x = (b.vx + b.w * -r.by) - (a.vx + a.w * -r.ay);
    let cdot_y = (b.vy + b.w * r.bx) - (a.vy + a.w * r.ax);
    let (bias_x, bias_y, mass_scale, impulse_scale) = match soft {
        Some(s) => (Vec4::splat(s.bias_rate) * d.0, Vec4::splat(s.bias_rate) * d.1, s.mass_scale, s.impulse_scale),
        None => (Vec4::ZERO, Vec4::ZERO, 1.0, 0.0),
    };
    let (ma, mb, ia, ib) = (ld(&c.ma), ld(&c.mb), ld(&c.ia), ld(&c.ib));
    let m = ma + mb;
    let k11 = (m + ia * r.ay * r.ay) + ib * r.by * r.by;
    let k12 = -ia * r.ay * r.ax - ib * r.by * r.bx;
    let k22 = (m + ia * r.ax * r.ax) + ib * r.bx * r.bx;
    let (bx, by) = (cdot_x + bias_x, cdot_y + bias_y);
    let det = k11 * k22 - k12 * k12;
    let inv = Vec4::select(det.cmpne(Vec4::ZERO), Vec4::ONE / det, Vec4::ZERO);
    let (sx, sy) = (inv * (k22 * bx - k12 * by), inv * (k11 * by - k12 * bx));
    let solved = sx.is_finite_mask() & sy.is_finite_mask();
    let (sx, sy) = (Vec4::select(solved, sx, Vec4::ZERO), Vec4::select(solved, sy, Vec4::ZERO));
    let (acc_x, acc_y) = (ld(&c.linear_x), ld(&c.linear_y));
    let (ms, is) = (Vec4::splat(-mass_scale), Vec4::splat(impulse_scale));
    let (px, py) = (ms * sx - is * acc_x, ms * sy - is * acc_y);
    let (tx, ty) = (acc_x + px, acc_y + py);
    let keep = tx.is_finite_mask() & ty.is_finite_mask();
    c.linear_x = Vec4::select(keep, tx, acc_x).to_array();
    c.linear_y = Vec4::select(keep, ty, acc_y).to_array();
    let la = r.ax * py - r.ay * px;
    let lb = r.bx * py - r.by * px;
    apply(c, a, b, keep, (px, py), la, lb);
}

/// One velocity pass over four joints (`revolute::solve`); `angles` are the states' angles
/// turned since the start of the step.
#[inline(always)]
fn solve_four(c: &mut RevoluteLanes, states: &mut [BodyState], angles: &[f32], pass: Pass) {
    let (mut a, mut b) = (gather(states, &c.state_a), gather(states, &c.state_b));
    let (r, dx, dy) = arms(c, states);
    if c.angular {
        let turned = |slots: &[u32; 4]| Vec4::from_array(slots.map(|s| angles.get(s as usize).copied().unwrap_or(0.0)));
        let angle = (ld(&c.delta_angle) + turned(&c.state_b)) - turned(&c.state_a);
        solve_angular(c, (&mut a, &mut b), angle, pass.step, pass.rigid, pass.use_bias);
    }
    let soft = pass.use_bias.then_some(pass.rigid);
    solve_point(c, (&mut a, &mut b), &r, (dx, dy), soft);
    scatter(states, &c.state_a, &a);
    scatter(states, &c.state_b, &b);
}

/// What a velocity pass needs besides the joints and states.
#[derive(Clone, Copy)]
pub(crate) struct Pass {
    pub step: JointStep,
    pub rigid: Softness,
    pub use_bias: bool,
}

/// Warm starts every bundle, in order; in AVX's encodings when `encoding` says so.
pub(crate) fn warm_start_lanes(lanes: &[RevoluteLanes], states: &mut [BodyState], encoding: Encoding) {
    #[cfg(target_arch = "x86_64")]
    if encoding.avx() {
        // SAFETY: `avx()` is true only where AVX was detected on this machine.
        return unsafe { warm_start_avx(lanes, states) };
    }
    let _ = encoding;
    lanes.iter().for_each(|c| warm_start_four(c, states));
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
fn warm_start_avx(lanes: &[RevoluteLanes], states: &mut [BodyState]) {
    lanes.iter().for_each(|c| warm_start_four(c, states));
}

/// Solves every bundle once, in order; in AVX's encodings when `encoding` says so.
pub(crate) fn solve_lanes(
    lanes: &mut [RevoluteLanes],
    states: &mut [BodyState],
    angles: &[f32],
    pass: Pass,
    encoding: Encoding,
) {
    #[cfg(target_arch = "x86_64")]
    if encoding.avx() {
        // SAFETY: `avx()` is true only where AVX was detected on this machine.
        return unsafe { solve_avx(lanes, states, angles, pass) };
    }
    let _ = encoding;
    lanes.iter_mut().for_each(|c| solve_four(c, states, angles, pass));
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
fn solve_avx(lanes: &mut [RevoluteLanes], states: &mut [BodyState], angles: &[f32], pass: Pass) {
    lanes.iter_mut().for_each(|c| solve_four(c, states, angles, pass));
}
