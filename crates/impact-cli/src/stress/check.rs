//! The checks of a stress run, made after every step: geometric rules that catch a body
//! passing through another, not only bodies that end up somewhere they should not be.
//!
//! A generator declares its rules with its scene ([`Rule`]); the checker compares each
//! step's poses with the last step's ([`StepView`]):
//!
//! - [`Thin`]: no body center crosses the mid-line of a plate, wall or sensor within its span.
//!   The center is taken into the thin body's frame over the step (both moving linearly, the
//!   thin body turning at a steady rate, as the world's sweeps do); a crossing is a change of
//!   side whose point on the mid-line lies within the span, less [`END_MARGIN`] at both ends.
//!   A body that continuous collision redirected in the step did not move along the chord:
//!   its path is taken through the points of its impacts (its center within its outer radius
//!   of each). A body that was not redirected may still have gone round an end (of a thin
//!   body that is not a wall of a closed box) if that way is no longer than the most it can
//!   have moved (see [`Checker::check`]). A dynamic thin body hit twice or more in the step
//!   (by one body or several) follows no path the checker can bound, and is not checked in
//!   that step; static and kinematic ones always are. For a sensor a crossing is expected and must instead give a
//!   sensor begin event and a sensor end event (`sensors.rs`).
//! - Two solid thin bodies that collide never cross each other like an X: the ends of each
//!   are never both past the other's faces, one on each side, by [`CROSS_DEPTH`] (crossed
//!   plates need not have their centers pass each other's mid-lines, yet one went through
//!   the other).
//! - [`HeadOn`]: two bodies fired at each other keep their order along their line while they
//!   overlap across it; not checked in a step where a third body hit one of them.
//! - [`Contain`]: listed bodies keep their centers inside an inner box (a closed container, or
//!   the slot a plate is held in).
//! - Every body's position, angle and velocities stay finite.
//!
//! Units: meters, radians; the arithmetic is in f64 on the world's f32 values, so scenes 20 km
//! from the origin are checked as exactly as scenes at it.

use std::fmt;

use glam::DVec2;
use impact2d::Vec2;

use super::geometry::{Crossing, crossing, dvec, order_flip, rotate, round_disc, straddle};
use super::observe::{BodyInfo, Pose, StepEvents};
use super::sensors::SensorBook;
use crate::scene::BodyType;

/// The room left at each end of a thin body's span (m): a crossing this close to an end is
/// not counted (a body that goes round an end has its center beyond the end by about its own
/// size when it crosses the line).
pub const END_MARGIN: f64 = 0.01;

/// How far past another thin body's faces both ends of a thin body must be, one on each
/// side, for the two to count as crossed (m): a plate pressed end first into another may
/// sink into it a little.
pub const CROSS_DEPTH: f64 = 0.02;

/// The slack on the longest path a body can have taken in a step, relative (the share of
/// the bound) and absolute (m), for rounding: see [`Checker::check`].
pub const PATH_SLACK: (f64, f64) = (0.001, 0.001);

/// The share of the two bodies' inner radii within which a head-on pair may not pass: their
/// order along the line may flip only with their centers farther apart across it than this
/// share of the sum (half: deeper than either body's own half, the pair went through).
pub const HEAD_ON_SHARE: f64 = 0.5;

/// A rule a generator declares with its scene. Bodies are scene body indices.
#[derive(Clone, Debug, PartialEq)]
pub enum Rule {
    /// No body center crosses this thin body (or, for a sensor, every crossing is reported).
    Thin(Thin),
    /// Two bodies fired at each other do not pass through each other.
    HeadOn(HeadOn),
    /// Bodies stay inside a box.
    Contain(Contain),
}

/// A thin body: a plate, a wall or a sensor, by its mid-line.
#[derive(Clone, Debug, PartialEq)]
pub struct Thin {
    /// The body.
    pub body: usize,
    /// Which part of the body, for a body of several walls (`floor`); empty otherwise.
    pub label: String,
    /// One end of the mid-line, in body coordinates (m).
    pub from: Vec2,
    /// The other end (m).
    pub to: Vec2,
    /// Half the thickness (m).
    pub half_thickness: f32,
    /// A sensor: crossings must be reported by sensor events instead of not happening.
    pub sensor: bool,
    /// Both ends join other walls (a closed box): nothing can go round them.
    pub closed: bool,
}

/// Two bodies fired at each other along a line.
#[derive(Clone, Debug, PartialEq)]
pub struct HeadOn {
    /// The body that starts behind along `direction`.
    pub a: usize,
    /// The body that starts ahead.
    pub b: usize,
    /// The line's direction in the world (a unit vector).
    pub direction: Vec2,
}

/// An inner box that bodies' centers must not leave.
#[derive(Clone, Debug, PartialEq)]
pub struct Contain {
    /// The static body whose frame the box is in (and whose name reports use).
    pub body: usize,
    /// The box center, in that body's coordinates (m).
    pub center: Vec2,
    /// Half the box's width and height (m).
    pub half_extents: Vec2,
    /// The bodies that must stay inside.
    pub members: Vec<usize>,
}

/// Which check a violation broke.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// A center crossed a thin body.
    Crossed,
    /// Two thin bodies cross each other like an X.
    Tangled,
    /// A head-on pair passed through each other.
    HeadOn,
    /// A center left its container.
    Escaped,
    /// A state is not finite.
    NotFinite,
    /// A sensor crossing without a begin event.
    NoSensorBegin,
    /// A sensor crossing without an end event.
    NoSensorEnd,
}

impl Check {
    /// A short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            Check::Crossed => "pass-through",
            Check::Tangled => "crossed plates",
            Check::HeadOn => "head-on",
            Check::Escaped => "escape",
            Check::NotFinite => "finite",
            Check::NoSensorBegin => "sensor begin",
            Check::NoSensorEnd => "sensor end",
        }
    }
}

/// A broken rule: the step after which it was seen, the check, the bodies by name and what
/// was seen.
#[derive(Clone, Debug, PartialEq)]
pub struct Violation {
    /// The step (counted from 1).
    pub step: u32,
    /// The check.
    pub check: Check,
    /// The bodies involved, by scene name: the one that moved first, then what it met.
    pub bodies: Vec<String>,
    /// What was seen.
    pub message: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "step {}: {} check: {}", self.step, self.check.name(), self.message)
    }
}

/// One step as the checks see it.
#[derive(Clone, Copy, Debug)]
pub struct StepView<'a> {
    /// The step (counted from 1).
    pub step: u32,
    /// Every body's pose before the step, in scene order.
    pub before: &'a [Pose],
    /// Every body's pose after it.
    pub after: &'a [Pose],
    /// The step's sensor events and impacts.
    pub events: &'a StepEvents,
}

/// How far a thin body may have strayed inside the step from the steady motion between its
/// two poses (m, at `radius` m from its center of mass): a quarter of the step times the
/// change of its velocity and spin, the most a single kick can make it stray.
#[derive(Clone, Copy, Debug)]
struct Stray {
    linear: f64,
    angular: f64,
}

impl Stray {
    fn at(self, radius: f64) -> f64 {
        self.linear + self.angular * radius
    }
}

/// The checks of one scene, with what they carry from step to step.
#[derive(Clone, Debug)]
pub struct Checker {
    bodies: Vec<BodyInfo>,
    /// The duration of a step (s).
    time_step: f64,
    rules: Vec<Rule>,
    /// For each rule, the bodies it watches.
    watched: Vec<Vec<usize>>,
    /// The pairs of thin solid rules (by rule index) whose bodies collide.
    tangles: Vec<(usize, usize)>,
    sensors: SensorBook,
}

impl Checker {
    /// The checker of `rules` over `bodies` (in scene order), stepped by `time_step` seconds.
    /// A thin solid body is watched by every other solid body that collides with it (one of
    /// the two dynamic); a sensor by every solid dynamic body.
    pub fn new(bodies: Vec<BodyInfo>, rules: Vec<Rule>, time_step: f32) -> Checker {
        let watched = rules.iter().map(|rule| watched(&bodies, rule)).collect();
        let tangles = tangles(&bodies, &rules);
        Checker { bodies, time_step: f64::from(time_step), rules, watched, tangles, sensors: SensorBook::default() }
    }

    /// Checks one step. Returns what it broke, in rule order.
    ///
    /// The most a body that no impact redirected can have moved relative to a thin body in
    /// the step is taken as the step times the larger of its speeds before and after, plus
    /// the larger of the thin body's, plus its larger spin times the body's distance from it
    /// (in free flight under gravity a speed is highest at an end of the step), plus how far
    /// the thin body may have strayed, grown by [`PATH_SLACK`].
    pub fn check(&mut self, s: &StepView) -> Vec<Violation> {
        let mut out = self.finite(s);
        if !out.is_empty() {
            return out;
        }
        let mut crossed = Vec::new();
        for (r, rule) in self.rules.iter().enumerate() {
            match rule {
                Rule::Thin(thin) => self.thin(s, r, thin, &mut crossed, &mut out),
                Rule::HeadOn(pair) => out.extend(self.head_on(s, pair)),
                Rule::Contain(container) => self.contain(s, container, &mut out),
            }
        }
        self.tangled(s, &mut out);
        out.extend(self.sensors.step(s, crossed, &self.rules, &self.bodies));
        out
    }

    fn finite(&self, s: &StepView) -> Vec<Violation> {
        let bad =
            s.after.iter().enumerate().filter(|(_, p)| !p.finite || !p.center.is_finite() || !p.angle.is_finite());
        bad.map(|(i, _)| Violation {
            step: s.step,
            check: Check::NotFinite,
            bodies: vec![self.bodies[i].name.clone()],
            message: format!("`{}` has a position, angle or velocity that is not a finite number", self.bodies[i].name),
        })
        .collect()
    }

    /// The centers that crossed `thin` (rule `r`) in the step: violations, or sensor
    /// crossings for the sensor book.
    fn thin(&self, s: &StepView, r: usize, thin: &Thin, crossed: &mut Vec<(usize, usize)>, out: &mut Vec<Violation>) {
        let center = self.bodies[thin.body].local_center;
        let line = (dvec(thin.from) - center, dvec(thin.to) - center);
        for &m in &self.watched[r] {
            let Some((c, reach)) = self.crossing_of(s, m, thin, line) else { continue };
            if thin.sensor {
                crossed.push((r, m));
                continue;
            }
            let (mover, wall) = (&self.bodies[m].name, self.thin_name(thin));
            let bound = reach.map_or(String::new(), |reach| {
                format!(" (going round an end is {:.3} m, it can have moved {reach:.3} m)", c.detour)
            });
            out.push(Violation {
                step: s.step,
                check: Check::Crossed,
                bodies: vec![mover.clone(), self.bodies[thin.body].name.clone()],
                message: format!(
                    "`{mover}` passed through {wall}: its center crossed the mid-line {:.3} m along the {:.3} m span{bound}",
                    c.along, c.length
                ),
            });
        }
    }

    /// Where body `m` crossed the mid-line `line` of `thin` in the step, with the most it can
    /// have moved when it may have gone round an end; none when it did not cross, or when the
    /// checker cannot tell.
    fn crossing_of(
        &self,
        s: &StepView,
        m: usize,
        thin: &Thin,
        line: (DVec2, DVec2),
    ) -> Option<(Crossing, Option<f64>)> {
        let t = thin.body;
        let (thin0, thin1) = (&s.before[t], &s.after[t]);
        let stray = self.stray(s, t)?;
        let outer = self.bodies[m].outer_radius;
        // The path: the centers at both ends, and the points of its impacts between, its
        // center within its outer radius of each.
        let mut path = vec![(0.0, s.before[m].center, 0.0)];
        for impact in s.events.impacts.iter().filter(|i| i.a == m || i.b == m) {
            path.push((impact.fraction, impact.point?, outer));
        }
        path.push((1.0, s.after[m].center, 0.0));
        let straight = path.len() == 2;
        path.windows(2).find_map(|leg| {
            let ((fa, pa, ea), (fb, pb, eb)) = (leg[0], leg[1]);
            let (ta, tb) = (thin0.lerp(thin1, fa), thin0.lerp(thin1, fb));
            let wobble = stray.at((pa - ta.center).length().max((pb - tb.center).length()));
            let (ea, eb) = (ea + wobble, eb + wobble);
            let c = crossing(line, (&ta, &tb), (pa, pb), END_MARGIN + ea.max(eb))?;
            if c.sides.0.abs() <= ea || c.sides.1.abs() <= eb {
                return None;
            }
            if !straight || thin.closed {
                return Some((c, None));
            }
            let reach = self.reach(&s.before[m], &s.after[m], thin0, thin1) + wobble;
            (c.detour > reach).then_some((c, Some(reach)))
        })
    }

    /// How far thin body `t` may have strayed in the step from its steady motion: nothing for
    /// a static or kinematic body (impacts do not move it); none when a dynamic one was hit
    /// twice or more, by anything (its path is then unknown: between two impacts its velocity
    /// may have gone anywhere and back, which the change over the step does not bound).
    fn stray(&self, s: &StepView, t: usize) -> Option<Stray> {
        if self.bodies[t].body_type != BodyType::Dynamic {
            return Some(Stray { linear: 0.0, angular: 0.0 });
        }
        if s.events.turns(t, usize::MAX).nth(1).is_some() {
            return None;
        }
        let (t0, t1) = (&s.before[t], &s.after[t]);
        let quarter = 0.25 * self.time_step;
        Some(Stray {
            linear: quarter * (t1.velocity - t0.velocity).length(),
            angular: quarter * (t1.spin - t0.spin).abs(),
        })
    }

    /// The longest path (m) a body moving from `body0` to `body1` can have taken in a step
    /// relative to a thin body moving from `thin0` to `thin1` (see [`Checker::check`]).
    fn reach(&self, body0: &Pose, body1: &Pose, thin0: &Pose, thin1: &Pose) -> f64 {
        let dt = self.time_step;
        let speed = body0.velocity.length().max(body1.velocity.length());
        let carrier = thin0.velocity.length().max(thin1.velocity.length());
        let spin = thin0.spin.abs().max(thin1.spin.abs());
        let apart = (body0.center - thin0.center).length().max((body1.center - thin1.center).length());
        let bound = (speed + carrier + spin * (apart + (speed + carrier) * dt)) * dt;
        bound * (1.0 + PATH_SLACK.0) + PATH_SLACK.1
    }

    fn head_on(&self, s: &StepView, pair: &HeadOn) -> Option<Violation> {
        let (a, b) = (pair.a, pair.b);
        // A third body redirected one of them: their paths are not the chords.
        if s.events.turns(a, b).next().is_some() || s.events.turns(b, a).next().is_some() {
            return None;
        }
        let u = dvec(pair.direction).normalize_or_zero();
        let (before, after) = (s.before, s.after);
        let (t, across) = order_flip(u, (before[a].center, after[a].center), (before[b].center, after[b].center))?;
        let limit = HEAD_ON_SHARE * (self.bodies[a].inner_radius + self.bodies[b].inner_radius);
        if across.abs() >= limit || self.may_have_gone_round(s, pair, limit) {
            return None;
        }
        let (na, nb) = (&self.bodies[a].name, &self.bodies[b].name);
        Some(Violation {
            step: s.step,
            check: Check::HeadOn,
            bodies: vec![na.clone(), nb.clone()],
            message: format!(
                "`{na}` and `{nb}` passed through each other: their order along their line flipped at {t:.2} of the \
                 step with their centers {:.4} m apart across it (limit {limit:.4} m)",
                across.abs()
            ),
        })
    }

    /// Whether the two of a head-on pair may have passed each other more than `limit` apart:
    /// their relative velocity changed in the step (they hit each other, so their relative
    /// path is not the chord) and the relative path round the disc of radius `limit` is
    /// within the most they can have moved relative to each other. In free flight the
    /// relative velocity does not change (gravity moves both alike) and the chord is the path.
    fn may_have_gone_round(&self, s: &StepView, pair: &HeadOn, limit: f64) -> bool {
        let (a, b, before, after) = (pair.a, pair.b, s.before, s.after);
        let (v0, v1) = (before[b].velocity - before[a].velocity, after[b].velocity - after[a].velocity);
        let fastest = v0.length().max(v1.length());
        if (v1 - v0).length() <= 0.01 * fastest + 0.1 {
            return false;
        }
        let (q0, q1) = (before[b].center - before[a].center, after[b].center - after[a].center);
        let reach = fastest * self.time_step * (1.0 + PATH_SLACK.0) + PATH_SLACK.1;
        round_disc(q0, q1, limit) <= reach
    }

    fn contain(&self, s: &StepView, container: &Contain, out: &mut Vec<Violation>) {
        let frame = &s.after[container.body];
        let center = dvec(container.center) - self.bodies[container.body].local_center;
        let half = dvec(container.half_extents);
        // The world's f32 positions are this coarse around the container.
        let tolerance = 2.0 * f64::from(f32::EPSILON) * frame.center.abs().max_element().max(1.0);
        for &m in &container.members {
            let p = s.after[m].center;
            let outside = (rotate(p - frame.center, -frame.angle) - center).abs() - half;
            let outside = outside.max_element();
            if outside <= tolerance {
                continue;
            }
            let (name, box_name) = (&self.bodies[m].name, &self.bodies[container.body].name);
            out.push(Violation {
                step: s.step,
                check: Check::Escaped,
                bodies: vec![name.clone(), box_name.clone()],
                message: format!(
                    "`{name}` left the inner box of `{box_name}`: its center is {outside:.4} m outside, at ({:.4}, \
                     {:.4}) m",
                    p.x, p.y
                ),
            });
        }
    }

    /// Pairs of thin bodies crossed like an X (see [`CROSS_DEPTH`]).
    fn tangled(&self, s: &StepView, out: &mut Vec<Violation>) {
        for &(i, j) in &self.tangles {
            let (Rule::Thin(a), Rule::Thin(b)) = (&self.rules[i], &self.rules[j]) else { continue };
            let (la, lb) = (self.mid_line(a, s.after), self.mid_line(b, s.after));
            let half = |t: &Thin| f64::from(t.half_thickness);
            let (Some(da), Some(db)) = (straddle(la, lb, half(b)), straddle(lb, la, half(a))) else { continue };
            if da.min(db) <= CROSS_DEPTH {
                continue;
            }
            let (na, nb) = (self.thin_name(a), self.thin_name(b));
            out.push(Violation {
                step: s.step,
                check: Check::Tangled,
                bodies: vec![self.bodies[a.body].name.clone(), self.bodies[b.body].name.clone()],
                message: format!(
                    "{na} and {nb} cross each other like an X (one went through the other): each has its ends on \
                     both sides of the other, past its faces by {da:.4} m and {db:.4} m at least"
                ),
            });
        }
    }

    /// The mid-line of `thin` in the world at `poses`.
    fn mid_line(&self, thin: &Thin, poses: &[Pose]) -> (DVec2, DVec2) {
        let (pose, center) = (&poses[thin.body], self.bodies[thin.body].local_center);
        let place = |p: Vec2| pose.center + rotate(dvec(p) - center, pose.angle);
        (place(thin.from), place(thin.to))
    }

    /// "`plate 2`", or "`box` (floor)" for a part of a body.
    fn thin_name(&self, thin: &Thin) -> String {
        thin_name(&self.bodies, thin)
    }
}

/// "`plate 2`", or "`box` (floor)" for a part of a body.
pub(super) fn thin_name(bodies: &[BodyInfo], thin: &Thin) -> String {
    let name = &bodies[thin.body].name;
    if thin.label.is_empty() { format!("`{name}`") } else { format!("`{name}` ({})", thin.label) }
}

/// The bodies a rule watches: for a thin body, those that could pass through it. A body
/// whose center of mass lies in none of its solid shapes (a kinematic arm about its pivot)
/// has no center to pass through anything: it is not watched (its own thin rule and the
/// crossed plates check see it).
fn watched(bodies: &[BodyInfo], rule: &Rule) -> Vec<usize> {
    let Rule::Thin(thin) = rule else { return Vec::new() };
    let wall = &bodies[thin.body];
    let watches = |(i, b): &(usize, &BodyInfo)| {
        let (dynamic, wall_dynamic) = (b.body_type == BodyType::Dynamic, wall.body_type == BodyType::Dynamic);
        let collides = if thin.sensor {
            dynamic
        } else {
            wall.solid && b.body_type != BodyType::Static && (dynamic || wall_dynamic)
        };
        *i != thin.body && b.solid && collides && (thin.sensor || b.inner_radius > 0.0)
    };
    bodies.iter().enumerate().filter(watches).map(|(i, _)| i).collect()
}

/// The pairs of solid thin rules (by index) on different bodies that collide (one of them
/// dynamic).
fn tangles(bodies: &[BodyInfo], rules: &[Rule]) -> Vec<(usize, usize)> {
    let solid = |r: &Rule| match r {
        Rule::Thin(t) if !t.sensor && bodies[t.body].solid => Some(t.body),
        _ => None,
    };
    let dynamic = |k: usize| bodies[k].body_type == BodyType::Dynamic;
    let mut pairs = Vec::new();
    for (i, a) in rules.iter().enumerate() {
        for (j, b) in rules.iter().enumerate().skip(i + 1) {
            let (Some(a), Some(b)) = (solid(a), solid(b)) else { continue };
            if a != b && (dynamic(a) || dynamic(b)) {
                pairs.push((i, j));
            }
        }
    }
    pairs
}
