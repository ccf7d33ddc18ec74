//! Hostile input to joints: every bad value is refused with a clear error, nothing panics,
//! and a refused call changes nothing (the state checksum and the joint count stay).

mod joints_support;

use impact2d::*;
use joints_support::*;

/// A world with a ground, two dynamic boxes pinned together and stepped a little.
fn scene() -> (World, BodyId, BodyId, BodyId, JointId) {
    let mut world = world(Vec2::new(0.0, -10.0));
    let ground = anchor_body(&mut world, Vec2::ZERO);
    let a = body(&mut world, Vec2::new(0.0, 1.0), 0.0, &boxed(0.5, 0.5), 100.0);
    let b = body(&mut world, Vec2::new(1.0, 1.0), 0.0, &boxed(0.5, 0.5), 100.0);
    let pin = revolute(&mut world, a, b, Vec2::new(0.5, 1.0));
    revolute(&mut world, ground, a, Vec2::ZERO);
    for _ in 0..5 {
        world.step(DT, SUBSTEPS).unwrap();
    }
    (world, ground, a, b, pin)
}

fn invalid(result: Result<JointId, WorldError>) -> &'static str {
    match result {
        Err(WorldError::InvalidValue { what, .. }) => what,
        other => panic!("expected InvalidValue, got {other:?}"),
    }
}

#[test]
fn bad_joint_definitions_are_refused_and_change_nothing() {
    let (mut world, ground, a, b, _) = scene();
    let (sum, count) = (world.state_checksum(), world.joint_count());
    let p = Vec2::new(0.5, 1.0);
    let revolute = |def: RevoluteDef| JointDef::new(a, b, JointKind::Revolute(def));
    let cases: Vec<(JointDef, &str)> = vec![
        (revolute(RevoluteDef::new(Vec2::new(f32::NAN, 0.0))), "joint anchor"),
        (revolute(RevoluteDef::new(Vec2::new(0.0, f32::INFINITY))), "joint anchor"),
        (revolute(RevoluteDef::new(Vec2::new(2.0e9, 0.0))), "joint anchor"),
        (revolute(RevoluteDef { enable_limit: true, lower: 0.5, upper: -0.5, ..RevoluteDef::new(p) }), "joint limits"),
        (revolute(RevoluteDef { lower: -4.0, upper: 0.0, ..RevoluteDef::new(p) }), "joint lower limit"),
        (revolute(RevoluteDef { lower: 0.0, upper: f32::NAN, ..RevoluteDef::new(p) }), "joint upper limit"),
        (revolute(RevoluteDef { hertz: -1.0, ..RevoluteDef::new(p) }), "joint hertz"),
        (revolute(RevoluteDef { hertz: f32::INFINITY, ..RevoluteDef::new(p) }), "joint hertz"),
        (revolute(RevoluteDef { damping_ratio: -0.1, ..RevoluteDef::new(p) }), "joint damping ratio"),
        (revolute(RevoluteDef { max_motor_torque: -1.0, ..RevoluteDef::new(p) }), "joint max motor torque"),
        (revolute(RevoluteDef { motor_speed: f32::NAN, ..RevoluteDef::new(p) }), "joint motor speed"),
        (revolute(RevoluteDef { motor_speed: 1.0e6, ..RevoluteDef::new(p) }), "joint motor speed"),
        (JointDef::new(a, b, JointKind::Prismatic(PrismaticDef::new(p, p, Vec2::ZERO))), "joint axis"),
        (JointDef::new(a, b, JointKind::Prismatic(PrismaticDef::new(p, p, Vec2::new(1e-9, 0.0)))), "joint axis"),
        (JointDef::new(a, b, JointKind::Wheel(WheelDef::new(p, p, Vec2::new(f32::NAN, 1.0)))), "joint axis"),
        (
            JointDef::new(a, b, JointKind::Wheel(WheelDef { lower: 1.0, upper: 0.0, ..WheelDef::new(p, p, Vec2::Y) })),
            "joint limits",
        ),
        (JointDef::new(a, b, JointKind::Distance(DistanceDef::new(p, p))), "distance joint length"),
        (
            JointDef::new(
                a,
                b,
                JointKind::Distance(DistanceDef { length: Some(-1.0), ..DistanceDef::new(p, Vec2::ZERO) }),
            ),
            "distance joint length",
        ),
        (
            JointDef::new(
                a,
                b,
                JointKind::Distance(DistanceDef {
                    min_length: 2.0,
                    max_length: 1.0,
                    ..DistanceDef::new(p, Vec2::ZERO)
                }),
            ),
            "distance joint lengths",
        ),
        (
            JointDef::new(
                a,
                b,
                JointKind::Distance(DistanceDef { max_length: f32::INFINITY, ..DistanceDef::new(p, Vec2::ZERO) }),
            ),
            "distance joint max length",
        ),
        (
            JointDef::new(a, b, JointKind::Weld(WeldDef { linear_hertz: -2.0, ..WeldDef::new(p) })),
            "weld joint linear hertz",
        ),
        (
            JointDef::new(a, b, JointKind::Weld(WeldDef { angular_damping_ratio: f32::NAN, ..WeldDef::new(p) })),
            "weld joint angular damping ratio",
        ),
        (
            JointDef::new(a, b, JointKind::Motor(MotorDef::new(Vec2::new(f32::NAN, 0.0), 0.0, 1.0, 1.0))),
            "motor joint linear offset",
        ),
        (
            JointDef::new(a, b, JointKind::Motor(MotorDef::new(Vec2::ZERO, f32::INFINITY, 1.0, 1.0))),
            "motor joint angular offset",
        ),
        (JointDef::new(a, b, JointKind::Motor(MotorDef::new(Vec2::ZERO, 0.0, -1.0, 1.0))), "motor joint max force"),
        (
            JointDef::new(
                a,
                b,
                JointKind::Motor(MotorDef { correction_factor: 1.5, ..MotorDef::new(Vec2::ZERO, 0.0, 1.0, 1.0) }),
            ),
            "motor joint correction factor",
        ),
        (JointDef { break_force: Some(f32::NAN), ..JointDef::new(a, ground, JointKind::Filter) }, "joint break force"),
        (JointDef { break_torque: Some(-1.0), ..JointDef::new(a, ground, JointKind::Filter) }, "joint break torque"),
    ];
    for (def, what) in cases {
        assert_eq!(invalid(world.create_joint(&def)), what, "{def:?}");
        assert_eq!((world.state_checksum(), world.joint_count()), (sum, count), "{def:?} changed the world");
    }
    // A body jointed to itself.
    let result = world.create_joint(&JointDef::new(a, a, JointKind::Revolute(RevoluteDef::new(p))));
    assert!(matches!(result, Err(WorldError::InvalidJoint { .. })), "{result:?}");
    assert_eq!((world.state_checksum(), world.joint_count()), (sum, count));
}

#[test]
fn joints_on_destroyed_or_foreign_bodies_and_stale_joint_handles_are_refused() {
    let (mut world, ground, a, b, pin) = scene();
    let (mut other, other_ground, ..) = scene();
    let def = |x, y| JointDef::new(x, y, JointKind::Revolute(RevoluteDef::new(Vec2::ZERO)));
    // A foreign body, and a foreign joint handle.
    assert!(matches!(world.create_joint(&def(a, other_ground)), Err(WorldError::ForeignHandle { kind: "body", .. })));
    // A body jointed to itself, in the other world.
    let itself = other.create_joint(&def(other_ground, other_ground));
    assert!(matches!(itself, Err(WorldError::InvalidJoint { .. })), "{itself:?}");
    let other_pin = other.body_joints(other_ground).unwrap()[0];
    assert!(matches!(world.destroy_joint(other_pin), Err(WorldError::ForeignHandle { kind: "joint", .. })));
    assert!(matches!(world.joint_reaction_force(other_pin), Err(WorldError::ForeignHandle { .. })));
    // A destroyed body.
    world.destroy_body(b).unwrap();
    let sum = world.state_checksum();
    assert!(matches!(world.create_joint(&def(a, b)), Err(WorldError::StaleHandle { kind: "body", .. })));
    assert!(matches!(world.create_joint(&def(b, ground)), Err(WorldError::StaleHandle { kind: "body", .. })));
    // Its joint is gone: every call with the stale handle is refused.
    assert!(matches!(world.destroy_joint(pin), Err(WorldError::StaleHandle { kind: "joint", .. })));
    assert!(matches!(world.set_joint_motor(pin, 1.0, 1.0), Err(WorldError::StaleHandle { .. })));
    assert!(matches!(world.joint_world_anchors(pin), Err(WorldError::StaleHandle { .. })));
    assert_eq!(world.state_checksum(), sum);
    for _ in 0..10 {
        world.step(DT, SUBSTEPS).unwrap();
    }
}

#[test]
fn bad_setter_values_are_refused_and_change_nothing() {
    let (mut world, ground, a, b, pin) = scene();
    let weld = world.create_joint(&JointDef::new(ground, a, JointKind::Weld(WeldDef::new(Vec2::ZERO)))).unwrap();
    let before = world.joint_def(pin).unwrap();
    let refused = [
        world.set_joint_limits(pin, 1.0, -1.0),
        world.set_joint_limits(pin, f32::NAN, 1.0),
        world.set_joint_limits(pin, -7.0, 0.0),
        world.set_joint_motor(pin, f32::INFINITY, 1.0),
        world.set_joint_motor(pin, 1.0, -5.0),
        world.set_joint_spring(pin, -1.0, 0.5),
        world.set_joint_spring(pin, 1.0, f32::NAN),
        world.set_joint_break_thresholds(pin, Some(-1.0), None),
        world.set_motor_joint_target(pin, Vec2::ZERO, 0.0),
        world.set_joint_motor(weld, 1.0, 1.0),
        world.set_joint_limit_enabled(weld, true),
    ];
    for (k, r) in refused.iter().enumerate() {
        assert!(r.is_err(), "call {k} was accepted");
    }
    assert!(matches!(refused[8], Err(WorldError::WrongJointKind { .. })));
    assert!(matches!(refused[9], Err(WorldError::WrongJointKind { .. })));
    assert_eq!(world.joint_def(pin).unwrap(), before, "refused calls changed the joint");
    // Accepted values keep the state finite, stepping on.
    world.set_joint_limits(pin, -0.1, 0.1).unwrap();
    world.set_joint_limit_enabled(pin, true).unwrap();
    world.set_joint_motor(pin, 1.0e5, 1.0e30).unwrap();
    world.set_joint_motor_enabled(pin, true).unwrap();
    world.set_joint_spring(weld, 1.0e6, 1.0e6).unwrap();
    for _ in 0..120 {
        world.step(DT, SUBSTEPS).unwrap();
        for body in [a, b] {
            let (p, v, w) = (
                world.position(body).unwrap(),
                world.linear_velocity(body).unwrap(),
                world.angular_velocity(body).unwrap(),
            );
            assert!(p.is_finite() && v.is_finite() && w.is_finite(), "{p:?} {v:?} {w}");
        }
    }
}

#[test]
fn extreme_accepted_joints_keep_every_state_finite() {
    // Heavy and light bodies, huge motors, stiff springs, far anchors: accepted, and finite.
    let mut rng = Rng(99);
    for case in 0..20 {
        let mut world = world(Vec2::new(0.0, -10.0));
        let ground = anchor_body(&mut world, Vec2::ZERO);
        let heavy = body(&mut world, Vec2::new(0.0, 1.0), 0.0, &boxed(0.5, 0.5), 1.0e9);
        let light = body(&mut world, Vec2::new(1.0, 1.0), 0.0, &circle(0.01), 1.0e-3);
        let far = Vec2::new(rng.range(-1.0e6, 1.0e6), rng.range(-1.0e6, 1.0e6));
        let kinds = [
            JointKind::Revolute(RevoluteDef {
                enable_motor: true,
                motor_speed: 1.0e5,
                max_motor_torque: 1.0e30,
                ..RevoluteDef::new(far)
            }),
            JointKind::Distance(DistanceDef {
                enable_spring: true,
                hertz: 1.0e6,
                damping_ratio: 0.0,
                ..DistanceDef::new(far, Vec2::new(1.0, 1.0))
            }),
            JointKind::Prismatic(PrismaticDef {
                enable_motor: true,
                motor_speed: 1.0e6,
                max_motor_force: 1.0e20,
                ..PrismaticDef::new(far, far, Vec2::new(1.0, 1.0))
            }),
            JointKind::Weld(WeldDef { linear_hertz: 1.0e-30, angular_hertz: 1.0e6, ..WeldDef::new(far) }),
            JointKind::Motor(MotorDef::new(far, 1.0e6, 1.0e20, 1.0e30)),
        ];
        let kind = kinds[case % kinds.len()];
        world.create_joint(&JointDef::new(heavy, light, kind)).unwrap();
        world.create_joint(&JointDef::new(ground, heavy, kind)).unwrap();
        for _ in 0..60 {
            world.step(DT, SUBSTEPS).unwrap();
        }
        for body in [heavy, light] {
            let (p, v, w) = (
                world.position(body).unwrap(),
                world.linear_velocity(body).unwrap(),
                world.angular_velocity(body).unwrap(),
            );
            assert!(p.is_finite() && v.is_finite() && w.is_finite(), "case {case}: {p:?} {v:?} {w}");
        }
    }
}

/// Found by fuzzing (issue 18's world-script target): with every joint destroyed, the next
/// step's position projection read the previous step's joint order and indexed an empty list
/// (a panic). Chains of 1 to 6 joints, destroyed one by one in seeded orders with steps in
/// between (and some recreated), step without a panic and keep every body finite.
#[test]
fn stepping_after_the_last_joint_is_destroyed() {
    let (mut first, ground, a, _, pin) = scene();
    first.destroy_joint(pin).unwrap();
    for j in first.body_joints(ground).unwrap().into_iter().chain(first.body_joints(a).unwrap()) {
        let _ = first.destroy_joint(j);
    }
    assert_eq!(first.joint_count(), 0);
    first.step(DT, SUBSTEPS).unwrap();
    let mut seed = 0x5eedu64;
    let mut next = |n: usize| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((seed >> 33) as usize) % n
    };
    for case in 0..200 {
        let mut world = world(Vec2::new(0.0, -10.0));
        let ground = anchor_body(&mut world, Vec2::ZERO);
        let mut bodies = vec![ground];
        let mut joints = vec![];
        for k in 0..1 + next(6) {
            let b = body(&mut world, Vec2::new(k as f32 + 1.0, 0.0), 0.0, &boxed(0.4, 0.1), 100.0);
            joints.push(revolute(&mut world, *bodies.last().unwrap(), b, Vec2::new(k as f32 + 0.5, 0.0)));
            bodies.push(b);
        }
        while !joints.is_empty() {
            world.destroy_joint(joints.swap_remove(next(joints.len()))).unwrap();
            for _ in 0..1 + next(3) {
                world.step(DT, SUBSTEPS).unwrap();
            }
            if next(5) == 0 && joints.len() < 3 {
                joints.push(revolute(&mut world, bodies[0], bodies[1], Vec2::new(0.5, 0.0)));
            }
        }
        world.step(DT, SUBSTEPS).unwrap();
        for &b in &bodies {
            assert!(world.position(b).unwrap().is_finite(), "case {case}");
        }
    }
}
