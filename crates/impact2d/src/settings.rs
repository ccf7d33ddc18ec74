//! The engine's tunables, in one place, with their meaning.
//!
//! Lengths are in meters and tuned for objects between 0.1 m and 10 m.

/// The collision and constraint tolerance (meters): contacts may overlap by this much
/// without being pushed apart, points closer than this are welded in hulls, and time of
/// impact aims to leave gaps of this size.
pub const LINEAR_SLOP: f32 = 0.005;

/// Contact recycling's linear tolerance (meters): a touching contact keeps its manifold
/// (normal, feature ids, points fixed in the bodies' frames) while B's pose in A's frame has
/// moved less than this since the manifold was computed, counting a turn as the arc it sweeps
/// at the farthest point of the manifold on B. Only the separations, world points and anchors
/// are then recomputed from the current poses. A tenth of [`LINEAR_SLOP`]: the kept points are
/// off the freshly clipped ones by at most about this much. Box2D v3.1+ recycles with a far
/// looser 10 × its linear slop; see docs/performance.md, "Contact recycling".
pub const CONTACT_RECYCLE_LINEAR_TOLERANCE: f32 = 0.1 * LINEAR_SLOP;

/// Contact recycling's angular tolerance (radians, compared with the sine of the turn of B
/// relative to A since the manifold was computed): beyond it the kept normal would be off
/// the fresh one by more than this angle, so the manifold is computed afresh.
pub const CONTACT_RECYCLE_ANGULAR_TOLERANCE: f32 = 0.001;

/// The gap (meters) under which a separated pair of shapes gets speculative contact points,
/// so the solver stops an approach before it becomes a penetration.
pub const SPECULATIVE_DISTANCE: f32 = 4.0 * LINEAR_SLOP;

/// How far (meters) a fat AABB extends beyond the tight AABB of a shape, so that small
/// motions need no broad-phase update.
pub const AABB_MARGIN: f32 = 0.1;

/// The largest coordinate or size magnitude (meters) a shape accepts. Beyond it the squared
/// lengths, areas and moments that shapes compute in f32 could overflow, and f32 spacing
/// (64 m at 1e9 m) is far coarser than the linear slop anyway.
pub const MAX_COORDINATE: f32 = 1.0e9;

/// The most vertices a polygon or a shape proxy can have.
pub const MAX_POLYGON_VERTICES: usize = 8;

/// The most points a concave polygon may have: its decomposition (ear clipping, then merging)
/// takes time quadratic to cubic in the count.
pub const MAX_CONCAVE_POINTS: usize = 256;

/// The default half-width (meters) of the band around the target gap in which a time of
/// impact is accepted.
pub const TOI_TOLERANCE: f32 = 0.25 * LINEAR_SLOP;

/// The default surface gap (meters) at which the time of impact stops: a little more than
/// the tolerance, so the shapes are never found overlapping at the time of impact.
pub const TOI_TARGET: f32 = LINEAR_SLOP;

/// The most outer iterations (closest-feature updates and horizon changes) of one time
/// of impact query before it reports `Failed` with the last safe time.
pub const TOI_MAX_ITERATIONS: u32 = 64;

/// The most iterations of the bracketed root finder inside one time of impact step.
pub const TOI_MAX_ROOT_ITERATIONS: u32 = 50;

/// The most iterations of the GJK distance loop (each one is a support point query).
pub const GJK_MAX_ITERATIONS: u32 = 30;

/// The most steps of conservative advancement before it reports `Failed`. Its worst case
/// (a shape pivoting just above another) takes hundreds of steps.
pub const CA_MAX_ITERATIONS: u32 = 1000;

/// The gap (meters) between two cores under which the narrow phase treats them as touching:
/// the contact normal then comes from the separating axis test (whose face normal is exact
/// for overlap) instead of the closest features, whose direction is not well defined at such
/// small gaps. Within this band, a vertex-vertex contact's separation is the SAT lower bound.
pub const MANIFOLD_TOUCHING_GAP: f32 = 0.01 * LINEAR_SLOP;

/// How much better (meters) a face of B must separate than A's best face for B's face to
/// become the reference face of touching or overlapping polygons. Favoring A keeps the
/// normal from flipping between two nearly equal faces from one step to the next; the
/// reported overlap may then be deeper than the exact one by up to this much.
pub const MANIFOLD_REFERENCE_TOLERANCE: f32 = 0.1 * LINEAR_SLOP;

/// Two contact points of a manifold closer than this (meters) along the reference face merge
/// into the deeper one: a sliver of face overlap makes one point, not two coincident ones.
pub const MANIFOLD_MERGE_DISTANCE: f32 = 0.1 * LINEAR_SLOP;

/// The angular tolerance of chain segments (the sine of the angle, about 0.57°): a joint
/// turning less than this is straight (shapes slide across it on the segment normal), and a
/// contact normal this close to the segment normal is a face contact.
pub const CHAIN_ANGLE_TOLERANCE: f32 = 0.01;

/// A fat AABB that has grown beyond its shape's tight AABB enlarged by this many
/// [`AABB_MARGIN`]s (after the shape moved fast, then slowed down) is shrunk back to the tight
/// AABB plus one margin, so that slow proxies do not keep oversized boxes in the broad phase.
pub const AABB_SHRINK_FACTOR: f32 = 4.0;

/// How many steps of motion a fat AABB looks ahead when the broad phase is told a proxy's
/// displacement (`BroadPhase::move_proxy_predicted`): the box is stretched by this many
/// displacements in the direction of motion, so a steadily moving shape keeps its fat AABB
/// for several steps instead of leaving it every step. Source: Box2D 2.4's `b2_aabbMultiplier`.
pub const AABB_PREDICTION: f32 = 4.0;

// ---- Dynamics: the world's defaults (see `WorldDef`) and fixed constants ----

/// Default stiffness of contacts (hertz): how fast an overlap is pushed out, as the natural
/// frequency of a spring. Capped at a quarter of the sub-step rate, where a soft constraint
/// stops being stable. Source: Box2D v3's soft step.
pub const DEFAULT_CONTACT_HERTZ: f32 = 30.0;

/// Default damping ratio of contacts (dimensionless): well above 1, so pushing out an
/// overlap never overshoots into a bounce.
pub const DEFAULT_CONTACT_DAMPING_RATIO: f32 = 10.0;

/// How much stiffer (as a factor on the hertz) a contact against a body of infinite mass
/// (static or kinematic) is than one between two dynamic bodies, so that stacks are not
/// pressed into the ground.
pub const STATIC_CONTACT_STIFFNESS: f32 = 2.0;

/// Default cap (m/s) on the speed at which an overlap is pushed out, so that deep overlaps
/// (after a teleport or a shape created inside another) separate calmly instead of exploding.
pub const DEFAULT_CONTACT_PUSH_MAX_SPEED: f32 = 3.0;

/// Default approach speed (m/s) above which restitution applies: slower impacts do not
/// bounce, so resting contacts stay at rest.
pub const DEFAULT_RESTITUTION_THRESHOLD: f32 = 1.0;

/// Default approach speed (m/s) above which a contact reports a hit event.
pub const DEFAULT_HIT_EVENT_THRESHOLD: f32 = 1.0;

/// Default cap (m/s) on the linear speed of a dynamic body (`WorldDef::max_linear_speed`): a
/// guard against runaway numbers, far above any speed a game needs (400 m/s is faster than
/// sound). A cap exists so that a body's motion in a step is bounded: the swept boxes and times
/// of impact of continuous collision stay bounded, and positions stay finite however large an
/// impulse or force is applied. Source: Box2D v3's default.
pub const DEFAULT_MAX_LINEAR_SPEED: f32 = 400.0;

/// Default cap (rad/s) on the angular speed of a dynamic body (`WorldDef::max_angular_speed`),
/// for the same reason as [`DEFAULT_MAX_LINEAR_SPEED`]: a bounded turn per step keeps the swept
/// boxes and the time of impact's work bounded and the angles finite. It is not a rotation
/// clamp for the time of impact, which is rotation-safe. At 10 000 rad/s (about 1600 turns per
/// second), a point 4 cm from the center (a body at the small end of the sizes the engine is
/// tuned for) moves at [`DEFAULT_MAX_LINEAR_SPEED`]; that is ten times the fastest spin in any
/// built-in or benchmark scene of the command (about 920 rad/s: the 5 mm sheet of
/// `bullet_paper`, struck by a bullet at 600 m/s). Box2D v3, whose time of impact is not
/// rotation-safe, caps the turn at π/4 per sub-step instead (188 rad/s at 60 Hz with 4
/// sub-steps).
pub const DEFAULT_MAX_ANGULAR_SPEED: f32 = 10_000.0;

/// Linear speed (m/s) below which a body counts as resting for sleep.
pub const SLEEP_LINEAR_THRESHOLD: f32 = 0.05;

/// Angular speed (rad/s) below which a body counts as resting for sleep: 2 degrees per second.
pub const SLEEP_ANGULAR_THRESHOLD: f32 = 2.0 * std::f32::consts::PI / 180.0;

/// How long (seconds) every body of an island must have rested before the island sleeps.
pub const TIME_TO_SLEEP: f32 = 0.5;

/// The most sub-steps a step accepts.
pub const MAX_SUBSTEPS: u32 = 256;

// ---- The ranges the world accepts (see `World`, "The input contract") ----
//
// Every number that enters a world (the settings of `WorldDef`, `BodyDef` and `ShapeDef`,
// every setter, force, impulse and time step) has a finite range, checked where it enters: a
// value outside it is refused with `WorldError::InvalidValue` and changes nothing. Within the
// ranges every body's state stays finite and its origin within `MAX_COORDINATE` after every
// call. The ranges are far beyond what a simulation needs; they exist so that f32 does not
// overflow. The budget behind them is in `MAX_BODY_MASS`.

/// The longest time step (seconds) `World::step` accepts: a step is a frame, and at 1 s with
/// up to `MAX_SUBSTEPS` sub-steps a sub-step is still 4 ms, where the soft contact solver is
/// stable. Longer steps are refused, not split: `step(1e38, 4)` would otherwise turn a
/// kinematic body by 1e38 radians.
pub const MAX_TIME_STEP: f32 = 1.0;

/// The largest linear speed (m/s) anything may be given: a body's velocity (`BodyDef`,
/// `World::set_linear_velocity`), `WorldDef::max_linear_speed` and the contact push-out
/// speed. A million m/s is 30 times the fastest artificial object; at `MAX_TIME_STEP` a body
/// moves at most 1e6 m in a step, a thousandth of `MAX_COORDINATE`. The velocity an impulse,
/// a change of mass or a force gives a body is held to it where it is applied.
pub const MAX_LINEAR_SPEED: f32 = 1.0e6;

/// The largest angular speed (rad/s) anything may be given: a body's angular velocity and
/// `WorldDef::max_angular_speed`. 1e5 rad/s is ten times the default cap
/// ([`DEFAULT_MAX_ANGULAR_SPEED`]); at `MAX_TIME_STEP` a body turns at most 1e5 rad in a step,
/// within the 1e6 rad where f32 angles are still a fraction of a degree apart.
pub const MAX_ANGULAR_SPEED: f32 = 1.0e5;

/// The smallest speed caps a world accepts (`WorldDef::max_linear_speed` in m/s and
/// `WorldDef::max_angular_speed` in rad/s). A cap is compared with f32 squares of speeds: far
/// below this (under about 1e-19) the squares lose their precision and the cap no longer holds
/// to f32 rounding. A micrometer per second is still far below anything a cap is for.
pub const MIN_SPEED_CAP: f32 = 1.0e-6;

/// The largest friction coefficient a shape accepts (dimensionless). Contacts mix friction as
/// the geometric mean, so a contact's friction is at most this too. Real materials stay below
/// about 4 (silicone rubber); beyond a few units a contact already holds any sliding that its
/// normal impulse allows, so 1000 loses nothing, while 1e30 on two shapes made the impulse
/// bound `friction × normal impulse` infinite (0 × ∞ = NaN).
pub const MAX_FRICTION: f32 = 1000.0;

/// The largest restitution a shape accepts (dimensionless). Above 1 a bounce gains speed (a
/// pinball bumper); 10 bounds the speed a bounce asks for to ten times the approach speed,
/// which the speed caps then hold.
pub const MAX_RESTITUTION: f32 = 10.0;

/// The fastest a shape's surface may move along itself (m/s, [`ShapeDef::tangent_speed`](crate::ShapeDef::tangent_speed)):
/// a conveyor belt's speed, within [`MAX_LINEAR_SPEED`] like any body's.
pub const MAX_TANGENT_SPEED: f32 = MAX_LINEAR_SPEED;

/// The largest rolling resistance a shape accepts (dimensionless,
/// [`ShapeDef::rolling_resistance`](crate::ShapeDef::rolling_resistance)). Real rolling
/// resistance coefficients are far below 1 (a car tire on asphalt about 0.01); above a few
/// units a contact already holds any rolling its normal impulse allows.
pub const MAX_ROLLING_RESISTANCE: f32 = 1000.0;

/// The largest density (kg/m²) a shape accepts. The densest solid (osmium, 22 600 kg/m³)
/// as a plate 1 m thick is 2.3e4 kg/m²; 1e9 leaves four orders of magnitude for scenes in
/// other units. It is not the only limit: the body's mass must stay within
/// [`MAX_BODY_MASS`], so at this density a body may be up to about 3e4 m across (a 1 m box
/// of density 1e9 weighs 4e9 kg).
pub const MAX_DENSITY: f32 = 1.0e9;

/// The largest mass (kg) of a dynamic body: `World::create_shape` refuses a shape that would
/// make its body heavier (or its rotational inertia overflow f32). Computed, not guessed, from
/// the largest product the contact solver forms: an impulse is at most the lighter body's mass
/// times the relative speed at the contact, and it turns a body through its moment about the
/// center of mass. For bodies up to 1e4 m across, the relative speed is at most
/// 2 × ([`MAX_LINEAR_SPEED`] + [`MAX_ANGULAR_SPEED`] × 1e4 m) = 2e9 m/s, times
/// (1 + [`MAX_RESTITUTION`]) for a bounce: 2.2e10 m/s; the moment's arm is at most 1e4 m. So
/// 1e18 kg × 2.2e10 m/s × 1e4 m = 2.2e32, a millionth of f32's largest number (3.4e38); for
/// bodies that do not spin, the arm may reach the 6e9 m shapes allow (1.3e35). Only bodies
/// with shapes far larger than 1e4 m can overflow a step (a 1e8 m circle spinning at 1e4
/// rad/s, its rim at 1e12 m/s; a 1e8 m box pushed out of a kinematic body it overlaps by
/// millions of meters): such a body ends the step where it began it, at rest, or with its
/// velocity dropped (see `World`, "The input contract"), never with a non-finite state. (The Moon is 7e22 kg; a steel plate 1 km
/// square and 1 m thick is 8e9 kg.)
pub const MAX_BODY_MASS: f32 = 1.0e18;

/// The largest magnitude of a body's gravity scale (dimensionless; negative scales pull the
/// other way). With gravity within [`MAX_GRAVITY`] a body accelerates at most 1e9 m/s².
pub const MAX_GRAVITY_SCALE: f32 = 1000.0;

/// The largest gravity component (m/s²) a world accepts: 1e6 m/s², 100 000 times the
/// Earth's, for scenes in other units.
pub const MAX_GRAVITY: f32 = 1.0e6;

/// The largest linear or angular damping (1/s) a body accepts: at 1e6 a velocity is gone
/// within a microsecond. (Damping scales velocities by `1 / (1 + h c)`, which stays finite for
/// any damping; the bound only keeps the range documented.)
pub const MAX_DAMPING: f32 = 1.0e6;

/// The largest contact damping ratio (dimensionless; `WorldDef::contact_damping_ratio`). The
/// soft contact's coefficients multiply the ratio by the sub-step's angular frequency (at most
/// π): beyond about 1e37 they overflow. The default is 10.
pub const MAX_CONTACT_DAMPING_RATIO: f32 = 1.0e6;

/// The largest force component (N) `World::apply_force` accepts, and the largest linear
/// impulse component (N·s) `World::apply_linear_impulse` accepts ([`MAX_IMPULSE`]). A force
/// of 1e20 N at an arm of up to 6e9 m makes a torque below [`MAX_TORQUE`].
pub const MAX_FORCE: f32 = 1.0e20;

/// The largest linear impulse component (N·s) `World::apply_linear_impulse` accepts; the
/// velocity it gives is held to [`MAX_LINEAR_SPEED`] (and [`MAX_ANGULAR_SPEED`] for its turn).
pub const MAX_IMPULSE: f32 = 1.0e20;

/// The largest torque (N·m) `World::apply_torque` accepts, and the largest an accumulation of
/// forces and torques reaches before a step (it is held there).
pub const MAX_TORQUE: f32 = 1.0e30;

/// The largest angular impulse (N·m·s) `World::apply_angular_impulse` accepts; the angular
/// velocity it gives is held to [`MAX_ANGULAR_SPEED`].
pub const MAX_ANGULAR_IMPULSE: f32 = 1.0e30;

/// The most bodies a world holds (`World::create_body` returns `WorldError::Full` beyond):
/// the contact solver addresses a body's 32-byte state by its index times four in 32 bits.
/// 2^30 - 1 bodies would take far more memory than any machine has.
pub const MAX_BODIES: u32 = (1 << 30) - 1;

/// The number of graph colors the contact solver packs constraints into. Constraints of one
/// color share no dynamic body, so they are solved four at a time in SIMD lanes; a
/// constraint that finds no free color (a body with very many contacts) is solved alone.
pub const GRAPH_COLOR_COUNT: usize = 24;

// ---- Continuous collision (see `dynamics/continuous.rs`) ----

/// The default of `BodyDef::safety_factor`: a body is fast, and swept by continuous
/// collision, when its motion in a step (the distance its center moves plus its rotation times
/// its largest extent) exceeds its smallest extent (about half its thickness) times its safety
/// factor. Slower bodies cannot pass a wall: their middle stays on the near side, and the
/// speculative contacts and push-out handle them. Half keeps the middle of a body that is not
/// swept at least half its half thickness short of a wall's face. Source: Box2D v3's fast-body
/// test.
pub const CONTINUOUS_SAFETY_FACTOR: f32 = 0.5;

/// The largest `BodyDef::safety_factor` a body accepts. A body's smallest extent is the least
/// distance from one of its shapes' centroids to that shape's surface (half its thickness),
/// and a body that is not swept moves no point farther in a step than its safety factor times
/// that. Up to 1, a body starting clear of a wall, however thin, cannot carry its middle past
/// the wall's near face unswept, so the contact solver pushes it back out the way it came.
/// Above 1 it could pass a wall as thin as itself, or a segment, between two steps.
pub const MAX_CONTINUOUS_SAFETY_FACTOR: f32 = 1.0;

/// A bullet is swept whenever it moves more than this (meters) in a step, whatever its size.
pub const BULLET_MIN_MOTION: f32 = LINEAR_SLOP;

/// Default cap on the impacts continuous collision resolves for one body in one step. A body
/// that reaches it keeps its new velocity but stops at its last impact pose for the rest of
/// the step, so the cost of a step stays bounded (a body wedged in a corner).
pub const DEFAULT_MAX_IMPACTS_PER_BODY: u32 = 8;

/// The core of a shape, for shapes that already touch at the start of a sweep: the shape
/// shrunk about its centroid to this fraction. Such a pair is left to the contact solver
/// unless the cores meet during the step, which only a body about to pass through can do.
/// Source: the core-shape idea of Box2D v3's continuous collision.
pub const CONTINUOUS_CORE_FRACTION: f32 = 0.5;

/// A dynamic body whose contact with a static or kinematic shape is deeper than this fraction
/// of its smallest extent at the start of a step is swept by continuous collision in that
/// step however slowly it moves. A body pressed that deep (by a pile, or let in by the core
/// shapes above) may lie across a thin wall, where the contact normal need not point out of
/// the wall; the contact solver may then walk its center through in small steps. A quarter
/// leaves a margin under the half extent a slow body can move.
pub const CONTINUOUS_DEEP_FRACTION: f32 = 0.25;

/// Iterations of the small impulse solve at a time of impact (one pair, at most two points).
pub const TOI_SOLVER_ITERATIONS: u32 = 8;

/// Continuous collision gathers the still dynamic shapes near the fast bodies in one walk of
/// the dynamic tree unless the walk visits more than this many proxies per fast shape; then
/// each fast shape queries the tree instead (about this many nodes each in a large tree).
pub const STILL_GATHER_LIMIT: usize = 32;

// ---- joints ----

/// The stiffest a joint spring may be (Hz). Springs stiffer than a quarter of the sub-step
/// rate act as rigid rows would (the soft step's coefficients stay finite for any frequency).
pub const MAX_JOINT_HERTZ: f32 = 1.0e6;

/// The largest damping ratio of a joint spring (dimensionless).
pub const MAX_JOINT_DAMPING_RATIO: f32 = 1.0e6;

/// The longest distance joint, and the largest prismatic and wheel limit (meters).
pub const MAX_JOINT_LENGTH: f32 = 1.0e9;

/// The stiffness of the rigid rows of joints (points, axes, limits; Hz), capped like the
/// contacts' at a quarter of the sub-step rate: a rigid joint is a soft constraint of this
/// frequency in the soft step (Box2D v3's joint softness: twice the contact hertz, 60 Hz).
/// Stiffer rows made hanging 50-link chains unstable; the sag they leave under load is taken
/// back by the joint position projection ([`JOINT_POSITION_ITERATIONS`]).
pub const JOINT_HERTZ: f32 = 60.0;

/// The damping ratio of the rigid rows of joints (Box2D v3's joint damping ratio).
pub const JOINT_DAMPING_RATIO: f32 = 2.0;

/// Passes of joint position projection after the sub-steps of each step (Box2D v2's
/// position iterations, ordered outward from the bodies that hold the joints up): the rigid
/// parts of joints (anchors, axes, limits, rigid lengths) have their remaining error removed
/// from the bodies' positions.
pub const JOINT_POSITION_ITERATIONS: u32 = 8;

/// Gauss-Seidel passes of the joint correction after continuous collision
/// (`dynamics/joint_ccd.rs`): each projects the joints and keeps the bodies out of the static
/// and kinematic shapes near them (and as many relax passes of its velocities). A ragdoll
/// pressed against a wall is a chain of ten bodies held by one-sided rows, which Gauss-Seidel
/// converges on slowly: with 32 passes a round could end uncut with a shoulder still 30 mm
/// open, and 8 of 200 seeds of `tests/joints_continuous.rs` left a joint over 2 cm open (up
/// to 112 mm); with 128, none of 1,000 (at most 15 mm).
pub const JOINT_CCD_ITERATIONS: u32 = 128;

/// Rounds of the joint correction after continuous collision: a round whose motion a shape
/// cut short is followed by another from the poses reached.
pub const JOINT_CCD_ROUNDS: u32 = 4;

/// The joint correction after continuous collision stops before it starts when no joint's
/// linear error exceeds this (meters).
pub const JOINT_CCD_TOLERANCE: f32 = 0.1 * LINEAR_SLOP;

/// How near a static or kinematic shape a point of a corrected body must be to take part in
/// the correction's one-sided rows (meters).
pub const JOINT_CCD_WALL_DISTANCE: f32 = 0.25;
