//! Sensor crossings matched with sensor events, step by step.
//!
//! A body whose center crosses a thin sensor in step k must get a sensor begin event in step
//! k or k + 1 (the world finds overlaps at the start of a step, from the poses the last step
//! left), unless it already overlapped the sensor by the events so far, and a sensor end
//! event by the step after the first one that ends with it clear of the sensor.

use std::collections::BTreeMap;

use super::check::{Check, Rule, StepView, Thin, Violation, thin_name};
use super::geometry::{distance_to_segment, dvec, rotate};
use super::observe::{BodyInfo, Pose};

/// How far a visitor's surface must be from a sensor's (m) before a missing end event counts.
pub const SENSOR_CLEARANCE: f64 = 0.01;

/// A crossing of a sensor still to be matched by events.
#[derive(Clone, Debug)]
struct Pending {
    /// The rule of the sensor.
    rule: usize,
    visitor: usize,
    /// The step of the crossing.
    step: u32,
    begun: bool,
    ended: bool,
}

/// What the sensor checks carry from step to step.
#[derive(Clone, Debug, Default)]
pub struct SensorBook {
    /// Whether each (sensor body, visitor body) pair overlaps by the events so far.
    inside: BTreeMap<(usize, usize), bool>,
    pending: Vec<Pending>,
}

enum Judgement {
    Wait,
    Done,
    Broken(Violation),
}

impl SensorBook {
    /// Takes the step's events and its new crossings (`(rule, visitor)`); returns the
    /// crossings that now miss an event.
    pub fn step(
        &mut self,
        s: &StepView,
        crossed: Vec<(usize, usize)>,
        rules: &[Rule],
        bodies: &[BodyInfo],
    ) -> Vec<Violation> {
        let sensor_of = |r: usize| match &rules[r] {
            Rule::Thin(t) => t.body,
            _ => usize::MAX,
        };
        let (begins, ends) = (&s.events.begins, &s.events.ends);
        for p in &mut self.pending {
            let pair = (sensor_of(p.rule), p.visitor);
            p.begun |= begins.contains(&pair);
            p.ended |= ends.contains(&pair);
        }
        for (rule, visitor) in crossed {
            let pair = (sensor_of(rule), visitor);
            let inside = self.inside.get(&pair).copied().unwrap_or(false);
            let (begun, ended) = (inside || begins.contains(&pair), ends.contains(&pair));
            self.pending.push(Pending { rule, visitor, step: s.step, begun, ended });
        }
        for &pair in begins {
            self.inside.insert(pair, true);
        }
        for &pair in ends {
            self.inside.insert(pair, false);
        }
        let mut out = Vec::new();
        for p in std::mem::take(&mut self.pending) {
            match judge(s, &p, rules, bodies) {
                Judgement::Wait => self.pending.push(p),
                Judgement::Done => {}
                Judgement::Broken(v) => out.push(v),
            }
        }
        out
    }
}

fn judge(s: &StepView, p: &Pending, rules: &[Rule], bodies: &[BodyInfo]) -> Judgement {
    let Rule::Thin(thin) = &rules[p.rule] else { return Judgement::Done };
    if p.begun && p.ended {
        return Judgement::Done;
    }
    if s.step <= p.step {
        return Judgement::Wait;
    }
    let (visitor, sensor) = (&bodies[p.visitor].name, thin_name(bodies, thin));
    let names = vec![visitor.clone(), bodies[thin.body].name.clone()];
    let (step, crossed) = (s.step, p.step);
    if !p.begun {
        let message = format!(
            "`{visitor}` crossed the sensor {sensor} in step {crossed} and no sensor begin event came in steps \
             {crossed}-{step}"
        );
        return Judgement::Broken(Violation { step, check: Check::NoSensorBegin, bodies: names, message });
    }
    if clear_of(thin, p.visitor, s.before, bodies) {
        let message = format!(
            "`{visitor}` crossed the sensor {sensor} in step {crossed} and was clear of it after step {}, but no \
             sensor end event came in steps {crossed}-{step}",
            step - 1
        );
        return Judgement::Broken(Violation { step, check: Check::NoSensorEnd, bodies: names, message });
    }
    Judgement::Wait
}

/// Whether `visitor`'s surface is clearly off the sensor `thin` at `poses`.
fn clear_of(thin: &Thin, visitor: usize, poses: &[Pose], bodies: &[BodyInfo]) -> bool {
    let frame = &poses[thin.body];
    let center = bodies[thin.body].local_center;
    let p = rotate(poses[visitor].center - frame.center, -frame.angle);
    let gap = distance_to_segment(p, dvec(thin.from) - center, dvec(thin.to) - center);
    gap > bodies[visitor].outer_radius + f64::from(thin.half_thickness) + SENSOR_CLEARANCE
}
