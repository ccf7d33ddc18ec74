//! The built-in scenes, one file per family: the seeds' scenarios (`seeds.rs`), Box2D's
//! continuous samples re-created (`continuous.rs`), scenes built with joints (`joints.rs`), the
//! benchmark scenes (`benchmarks.rs`, and the joint grid and ragdoll rain of `joints.rs`), one-way
//! platforms with a conveyor belt (`platforms.rs`), a character mover's course (`movers.rs`) and
//! the showcase (`showcase.rs`). `impact list` prints them and `impact export` writes one as a
//! scene file.

mod benchmarks;
mod continuous;
mod joints;
mod movers;
pub mod platforms;
mod seeds;
mod showcase;

use impact2d::Vec2;

use crate::scene::{BodyDef, BodyType, Geometry, Scene, ShapeDef};

/// A built-in scene: its name, family and one-line description, and the code that builds it.
pub struct BuiltIn {
    /// The name `impact export` takes.
    pub name: &'static str,
    /// The family it belongs to: `seeds`, `continuous`, `joints`, `contacts`, `movers`,
    /// `benchmark` or `showcase`.
    pub family: &'static str,
    /// One line saying what it shows.
    pub description: &'static str,
    /// Fills in a scene that has the name, description and default settings.
    build: fn(Scene) -> Scene,
}

impl BuiltIn {
    /// Builds the scene.
    pub fn scene(&self) -> Scene {
        (self.build)(Scene::new(self.name, self.description))
    }
}

/// Every built-in scene, by family.
pub const ALL: &[BuiltIn] = &[
    BuiltIn {
        name: "thin_plane",
        family: "seeds",
        description: "a 0.25 m ball at 150 m/s onto a plane 2 cm thick",
        build: seeds::thin_plane,
    },
    BuiltIn {
        name: "bullet_paper",
        family: "seeds",
        description: "a 2 cm bullet at 600 m/s into a free-standing sheet 5 mm thick, a fixed one behind it",
        build: seeds::bullet_paper,
    },
    BuiltIn {
        name: "spinning_triangle",
        family: "seeds",
        description: "a triangle spinning at 40 rad/s drops onto the ground beside a 1 cm wall",
        build: seeds::spinning_triangle,
    },
    BuiltIn {
        name: "box_pile",
        family: "seeds",
        description: "forty 1 m boxes, staggered and turned, fall into a pile",
        build: seeds::box_pile,
    },
    BuiltIn {
        name: "concave_corner",
        family: "seeds",
        description: "a ball at (80, -40) m/s into the corner of a one-sided chain floor and wall",
        build: seeds::concave_corner,
    },
    BuiltIn {
        name: "one_way_platforms",
        family: "contacts",
        description: "twelve bodies launched at 30-80 m/s up through four one-way platforms 10 cm thick land on them; the top one is a conveyor belt",
        build: platforms::one_way_platforms,
    },
    BuiltIn {
        name: "bounce_house",
        family: "continuous",
        description: "a circle, a capsule and a box at (10, 20) m/s bouncing with restitution 1 in a 20 m box of segments",
        build: continuous::bounce_house,
    },
    BuiltIn {
        name: "segment_slide",
        family: "continuous",
        description: "a circle at 100 m/s along a segment floor into a segment wall",
        build: continuous::segment_slide,
    },
    BuiltIn {
        name: "chain_slide",
        family: "continuous",
        description: "a frictionless circle at 100 m/s along the floor of a chain loop of 80 points into its wall",
        build: continuous::chain_slide,
    },
    BuiltIn {
        name: "skinny_box",
        family: "continuous",
        description: "a 10 cm plank at 100 m/s spinning at 50 rad/s onto a thin post",
        build: continuous::skinny_box,
    },
    BuiltIn {
        name: "drop_ball",
        family: "continuous",
        description: "a 12.5 cm ball at 100 m/s onto a row of 41 small tiles",
        build: continuous::drop_ball,
    },
    BuiltIn {
        name: "drop_stack",
        family: "continuous",
        description: "a fast ball that is not a bullet and a bullet, at 200 m/s, into a stack of boxes before a wall",
        build: continuous::drop_stack,
    },
    BuiltIn {
        name: "wedge",
        family: "continuous",
        description: "a circle at 200 m/s down into a narrow wedge of two segments",
        build: continuous::wedge,
    },
    BuiltIn {
        name: "speculative_sliver",
        family: "continuous",
        description: "a thin triangle at 100 m/s onto the ground",
        build: continuous::speculative_sliver,
    },
    BuiltIn {
        name: "pinball",
        family: "continuous",
        description: "a bullet ball at 40 m/s in a closed chain table with bumpers, kinematic spinners and fixed flippers",
        build: continuous::pinball,
    },
    BuiltIn {
        name: "chain",
        family: "joints",
        description: "a 50-link chain of revolute joints, released level, swings down onto a peg",
        build: joints::chain,
    },
    BuiltIn {
        name: "wrecking_ball",
        family: "joints",
        description: "a 500 kg ball on a 6 m rope (a distance joint) swings into a wall of boxes",
        build: joints::wrecking_ball,
    },
    BuiltIn {
        name: "bridge",
        family: "joints",
        description: "a hanging bridge of 30 planks on revolute joints; a 100 kg ball rolls across it at 14 m/s",
        build: joints::bridge,
    },
    BuiltIn {
        name: "elevator",
        family: "joints",
        description: "a platform on a prismatic joint driven up 8 m by its motor, three crates riding on it",
        build: joints::elevator,
    },
    BuiltIn {
        name: "car",
        family: "joints",
        description: "a car on two sprung wheel joints, the rear one driven by its motor, over a road of bumps",
        build: joints::car,
    },
    BuiltIn {
        name: "ragdoll_cannon",
        family: "joints",
        description: "three ragdolls of capsules on limited revolute joints fired at 60, 100 and 150 m/s into walls 1 cm thick",
        build: joints::ragdoll_cannon,
    },
    BuiltIn {
        name: "mover_course",
        family: "movers",
        description: "a scripted character mover rides a platform, climbs stairs and slopes, pushes a crate and dashes at 50 m/s into a 1 cm wall",
        build: movers::mover_course,
    },
    BuiltIn {
        name: "large_pyramid",
        family: "benchmark",
        description: "a pyramid of 5050 unit boxes on a base of 100, sleep off",
        build: benchmarks::large_pyramid,
    },
    BuiltIn {
        name: "many_pyramids",
        family: "benchmark",
        description: "20 by 20 pyramids of 55 unit boxes (base 10) on 20 segment floors, sleep off",
        build: benchmarks::many_pyramids,
    },
    BuiltIn {
        name: "tumbler",
        family: "benchmark",
        description: "2025 boxes of 0.25 m in a 20 m hollow box turning at 25 degrees per second (kinematic)",
        build: benchmarks::tumbler,
    },
    BuiltIn {
        name: "smash",
        family: "benchmark",
        description: "an 8 m box at 40 m/s into 120 by 80 sleeping 0.4 m boxes, no gravity",
        build: benchmarks::smash,
    },
    BuiltIn {
        name: "joint_grid",
        family: "benchmark",
        description: "Box2D's joint grid: 30 x 30 bodies, each pinned to its upper and left neighbors, the top row to the world",
        build: joints::joint_grid,
    },
    BuiltIn {
        name: "ragdoll_rain",
        family: "benchmark",
        description: "200 ragdolls (capsules on limited revolute joints, 1600 bodies) rain into a 32 m box and pile, sleep off",
        build: joints::ragdoll_rain,
    },
    BuiltIn {
        name: "showcase",
        family: "showcase",
        description: "nothing tunnels: bullets into paper walls, spinning thin blades, a fast rotor, a ball in a box (10 s)",
        build: showcase::showcase,
    },
];

/// The built-in scene named `name`.
pub fn find(name: &str) -> Option<&'static BuiltIn> {
    ALL.iter().find(|b| b.name == name)
}

/// Short builders for the scene code.
trait BodyBuild {
    /// The body with linear velocity (x, y) (m/s).
    fn velocity(self, x: f32, y: f32) -> Self;
    /// The body with angular velocity `w` (rad/s).
    fn spin(self, w: f32) -> Self;
}

impl BodyBuild for BodyDef {
    fn velocity(self, x: f32, y: f32) -> BodyDef {
        BodyDef { linear_velocity: Vec2::new(x, y), ..self }
    }

    fn spin(self, w: f32) -> BodyDef {
        BodyDef { angular_velocity: w, ..self }
    }
}

/// Short builders for shape materials.
trait ShapeBuild {
    /// The shape with `density` (kg/m²).
    fn density(self, density: f32) -> Self;
    /// The shape with `friction`.
    fn friction(self, friction: f32) -> Self;
    /// The shape with `restitution`.
    fn restitution(self, restitution: f32) -> Self;
}

impl ShapeBuild for ShapeDef {
    fn density(self, density: f32) -> ShapeDef {
        ShapeDef { density, ..self }
    }

    fn friction(self, friction: f32) -> ShapeDef {
        ShapeDef { friction, ..self }
    }

    fn restitution(self, restitution: f32) -> ShapeDef {
        ShapeDef { restitution, ..self }
    }
}

/// A body of `body_type` at (x, y).
fn body(body_type: BodyType, x: f32, y: f32) -> BodyDef {
    BodyDef::new(body_type, Vec2::new(x, y))
}

/// A static body at (x, y).
fn fixed(x: f32, y: f32) -> BodyDef {
    body(BodyType::Static, x, y)
}

/// A dynamic body at (x, y).
fn dynamic(x: f32, y: f32) -> BodyDef {
    body(BodyType::Dynamic, x, y)
}

/// A circle of `radius` on the body origin.
fn circle(radius: f32) -> ShapeDef {
    ShapeDef::new(Geometry::circle(radius))
}

/// A box of half sizes `hw` by `hh` on the body origin.
fn rect(hw: f32, hh: f32) -> ShapeDef {
    ShapeDef::new(Geometry::rect(hw, hh))
}

/// A box of half sizes `hw` by `hh` centered at (x, y) and turned by `angle`.
fn offset_rect(hw: f32, hh: f32, x: f32, y: f32, angle: f32) -> ShapeDef {
    ShapeDef::new(Geometry::offset_rect(hw, hh, Vec2::new(x, y), angle))
}

/// A two-sided segment from `a` to `b`.
fn segment(a: [f32; 2], b: [f32; 2]) -> ShapeDef {
    ShapeDef::new(Geometry::segment(Vec2::from(a), Vec2::from(b)))
}

/// A chain through `points`, closed when `is_loop`.
fn chain(points: &[[f32; 2]], is_loop: bool) -> ShapeDef {
    ShapeDef::new(Geometry::Chain { points: points.iter().copied().map(Vec2::from).collect(), is_loop })
}

/// The convex polygon of `points`.
fn polygon(points: &[[f32; 2]]) -> ShapeDef {
    ShapeDef::new(Geometry::Polygon { points: points.iter().copied().map(Vec2::from).collect(), radius: 0.0 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_descriptions_one_line() {
        for (i, built_in) in ALL.iter().enumerate() {
            assert!(ALL[..i].iter().all(|other| other.name != built_in.name), "{} twice", built_in.name);
            assert!(!built_in.description.is_empty() && !built_in.description.contains('\n'));
            assert!(built_in.name.chars().all(|c| c.is_ascii_lowercase() || c == '_'), "{}", built_in.name);
        }
    }

    #[test]
    fn every_built_in_validates() {
        for built_in in ALL {
            let scene = built_in.scene();
            assert_eq!((scene.name.as_str(), scene.description.as_str()), (built_in.name, built_in.description));
            if let Err(error) = scene.validate() {
                panic!("{}: {error}", built_in.name);
            }
        }
    }

    /// The speeds the descriptions promise are the speeds the bodies fly at: no dynamic body
    /// of a built-in scene starts faster than the scene's speed caps, which would slow it at
    /// its first step (kinematic bodies are never capped). Checked on the built world, whose
    /// velocities are those of the centers of mass.
    #[test]
    fn no_body_starts_beyond_the_speed_caps() {
        for built_in in ALL {
            let scene = built_in.scene();
            let built = crate::build::build_world(&scene.validate().unwrap()).unwrap();
            let w = &built.world;
            for (body, &id) in scene.bodies.iter().zip(&built.bodies) {
                if body.body_type != BodyType::Dynamic {
                    continue;
                }
                let (v, spin) = (w.linear_velocity(id).unwrap().length(), w.angular_velocity(id).unwrap().abs());
                let what = format!("{}: body {:?}", built_in.name, body.name);
                assert!(v <= scene.max_linear_speed, "{what} starts at {v} m/s, capped at {}", scene.max_linear_speed);
                assert!(spin <= scene.max_angular_speed, "{what} turns at {spin} rad/s");
            }
        }
    }

    /// The bullet of `bullet_paper` flies at the 600 m/s its description says.
    #[test]
    fn the_paper_bullet_flies_at_600_meters_per_second() {
        let scene = find("bullet_paper").unwrap().scene().validate().unwrap();
        let mut run = crate::simulation::Simulation::new(&scene).unwrap();
        run.step().unwrap();
        let bullet = run.world().bodies[3];
        let v = run.world().world.linear_velocity(bullet).unwrap();
        assert!((v.x - 600.0).abs() < 1e-3 && v.y < 0.0, "{v}");
    }

    /// The counts the descriptions promise.
    #[test]
    fn benchmark_counts() {
        let dynamic_count =
            |name: &str| find(name).unwrap().scene().bodies.iter().filter(|b| b.body_type == BodyType::Dynamic).count();
        assert_eq!(dynamic_count("large_pyramid"), 5050);
        assert_eq!(dynamic_count("many_pyramids"), 20 * 20 * 55);
        assert_eq!(dynamic_count("tumbler"), 2025);
        assert_eq!(dynamic_count("smash"), 120 * 80 + 1);
        assert_eq!(dynamic_count("joint_grid"), 30 * 30);
        assert_eq!(dynamic_count("ragdoll_rain"), 200 * 8);
        assert_eq!(find("ragdoll_rain").unwrap().scene().joints.len(), 200 * 7);
    }
}
