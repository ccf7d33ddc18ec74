//! `cargo run --release -p peers [-- [toi] [toi3d] [steps] [tunneling] [--quick] [--explain]
//! [--scene NAME]...]`: impact side by side with rapier2d 0.36 and parry2d 0.31 (issue 7) and
//! impact3d with parry3d 0.31 (issue 20), on one thread. Prints one markdown report: time of
//! impact, 3D time of impact with distance and ray casts, whole steps, tunneling (the parts
//! named, or all). `--quick` runs small counts (a spot check in seconds); `--explain` prints the first
//! wrong time of impact answer of each algorithm and family; `--scene NAME` limits the whole
//! steps to the scenes named (`--scene paddle`: the kinematic paddle of issue 17 alone);
//! `--engine impact` or `--engine rapier` times the whole steps in that engine alone;
//! `--clock cpu` times them by the thread's CPU time instead of the wall clock.

mod rng;
mod scene;
mod steps;
mod toi;
mod toi3d;
mod tunneling;

use std::process::ExitCode;

/// The counts of one run.
struct Counts {
    explain: bool,
    toi_queries: usize,
    toi3d_queries: usize,
    steps_scale: f64,
    box_seeds: u64,
}

const FULL: Counts =
    Counts { explain: false, toi_queries: 16384, toi3d_queries: 1500, steps_scale: 1.0, box_seeds: 40 };
const QUICK: Counts = Counts { explain: false, toi_queries: 512, toi3d_queries: 96, steps_scale: 0.1, box_seeds: 2 };

/// The parts of the report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Part {
    /// Time of impact: the seeded query families against the f64 reference.
    Toi,
    /// 3D time of impact, GJK distance and ray casts against parry3d.
    Toi3d,
    /// Whole steps of the benchmark scenes in both engines.
    Steps,
    /// The continuous scenes in both engines, escapes checked every step.
    Tunneling,
}

/// impact side by side with rapier2d and parry2d, on one thread: prints one markdown report.
#[derive(Debug, clap::Parser)]
#[command(name = "peers")]
struct Args {
    /// The parts to run (all when none is named).
    #[arg(value_enum)]
    parts: Vec<Part>,
    /// Small counts: a spot check in seconds.
    #[arg(long)]
    quick: bool,
    /// Print the first wrong time of impact answer of each algorithm and family.
    #[arg(long)]
    explain: bool,
    /// Whole steps of these scenes only (repeat for several; every scene when none is named).
    #[arg(long = "scene", value_name = "NAME", value_parser = clap::builder::PossibleValuesParser::new(steps::names()))]
    scenes: Vec<String>,
    /// Whole steps in this engine alone, or both in lockstep (the paddle's pass-through check
    /// runs only with both).
    #[arg(long, value_enum, default_value = "both")]
    engine: steps::Engine,
    /// How whole steps are timed: the wall clock, or the thread's CPU time (what a loaded
    /// machine does not inflate with other jobs' turns).
    #[arg(long, value_enum, default_value = "wall")]
    clock: steps::Clock,
}

fn main() -> ExitCode {
    let args = <Args as clap::Parser>::parse();
    let counts = Counts { explain: args.explain, ..if args.quick { QUICK } else { FULL } };
    let parts = args.parts;
    let wanted = |part: Part| parts.is_empty() || parts.contains(&part);
    if wanted(Part::Toi) {
        print_toi(&counts);
    }
    if wanted(Part::Toi3d) {
        print_toi3d(&counts);
    }
    if wanted(Part::Steps) {
        match steps::run(counts.steps_scale, &args.scenes, args.engine, args.clock) {
            Ok(rows) => print_steps(&rows, args.clock),
            Err(e) => {
                eprintln!("peers: building or stepping a benchmark scene failed: {e}");
                return ExitCode::FAILURE;
            }
        }
        let paddle = args.scenes.is_empty() || args.scenes.iter().any(|n| n == "paddle");
        if paddle && args.engine == steps::Engine::Both {
            match steps::paddle_check(counts.steps_scale) {
                Ok(check) => print_paddle(&check),
                Err(e) => {
                    eprintln!("peers: stepping the paddle failed: {e}");
                    return ExitCode::FAILURE;
                }
            }
        }
    }
    if wanted(Part::Tunneling) {
        match tunneling::run(counts.box_seeds) {
            Ok(rows) => print_tunneling(&rows),
            Err(e) => {
                eprintln!("peers: building or stepping a tunneling scene failed: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}

fn print_toi(counts: &Counts) {
    println!("### Time of impact ({} seeded queries per family, batches of 64)\n", counts.toi_queries);
    println!(
        "| family | algorithm | mean µs | median µs | p99 µs | hits | solid misses | glancing misses | late | false hits | failed | unknown | model check m |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    let rows = toi::run(counts.toi_queries);
    for r in &rows {
        println!(
            "| {} | {} | {:.2} | {:.2} | {:.2} | {} | {} | {} | {} | {} | {} | {} | {:.0e} |",
            r.family,
            r.algo,
            r.mean_us,
            r.median_us,
            r.p99_us,
            r.hits,
            r.solid_misses,
            r.glancing_misses,
            r.late,
            r.false_hits,
            r.failed,
            r.unknown,
            r.model_error
        );
    }
    println!();
    for r in rows.iter().filter(|_| counts.explain) {
        for problem in &r.problems {
            println!("{} / {}: {problem}\n", r.family, r.algo);
        }
    }
}

/// The machine's logical cores and load averages (1, 5 and 15 minutes), for the record.
fn machine() -> String {
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .map_or("unknown".to_string(), |l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "));
    format!("{cores} logical cores, load average {load}")
}

fn print_toi3d(counts: &Counts) {
    let n = counts.toi3d_queries;
    println!("Machine at the start of the 3D part: {}.\n", machine());
    println!("### 3D time of impact ({n} seeded queries per family, every other one 5 km out; batches of 64)\n");
    println!(
        "| family | algorithm | queries | mean µs | median µs | p99 µs | parry nonlinear / this (mean) | hits | solid misses | glancing misses | late | false hits | failed | unknown | model check m |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    let rows = toi3d::run(n);
    let parry = toi3d::Algo::ParryNonlinear.name();
    let mut lines: Vec<(String, &toi3d::Row)> =
        rows.iter().map(|r| (format!("{}{}", r.family, if r.far { ", 5 km out" } else { "" }), r)).collect();
    let totals = toi3d::totals(&rows);
    lines.extend(totals.iter().map(|r| ("all".to_string(), r)));
    for (name, r) in &lines {
        let peer = lines.iter().find(|(m, p)| m == name && p.algo == parry).map_or(f64::NAN, |(_, p)| p.mean_us);
        println!(
            "| {name} | {} | {} | {:.2} | {:.2} | {:.2} | {:.1} | {} | {} | {} | {} | {} | {} | {} | {:.0e} |",
            r.algo,
            r.queries,
            r.mean_us,
            r.median_us,
            r.p99_us,
            peer / r.mean_us,
            r.hits,
            r.solid_misses,
            r.glancing_misses,
            r.late,
            r.false_hits,
            r.failed,
            r.unknown,
            r.model_error
        );
    }
    println!();
    for (name, r) in lines.iter().filter(|_| counts.explain) {
        for problem in &r.problems {
            println!("{name} / {}: {problem}\n", r.algo);
        }
    }
    let mut distance = toi3d::queries::distance(n);
    distance.push(toi3d::queries::Row::total(&distance));
    println!(
        "### 3D GJK distance (the families' pairs posed at t = 0 and ½; error against the f64 reference; near: pairs less than {} m apart; wrong: off by more than {} m)\n",
        toi3d::queries::NEAR,
        toi3d::queries::DISTANCE_TOLERANCE
    );
    println!(
        "| set | pairs | impact3d mean µs | parry3d mean µs | parry / impact | impact3d median µs | parry3d median µs | near | impact3d max error m (near) | parry3d max error m (near) | impact3d wrong | parry3d wrong |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for r in &distance {
        println!(
            "| {} | {} | {:.3} | {:.3} | {:.2} | {:.3} | {:.3} | {} | {:.1e} ({:.1e}) | {:.1e} ({:.1e}) | {} | {} |",
            r.set,
            r.count,
            r.mean_us[0],
            r.mean_us[1],
            r.mean_us[1] / r.mean_us[0],
            r.median_us[0],
            r.median_us[1],
            r.near,
            r.max_error[0],
            r.max_near_error[0],
            r.max_error[1],
            r.max_near_error[1],
            r.wrong[0],
            r.wrong[1]
        );
    }
    println!();
    let mut rays = toi3d::queries::rays(n);
    rays.push(toi3d::queries::Row::total(&rays));
    println!(
        "### 3D ray casts (solid, shape frame; error: distance between the hit points; wrong: a hit/miss disagreement or off by more than {} m)\n",
        toi3d::queries::RAY_TOLERANCE
    );
    println!(
        "| shape | rays | impact3d mean µs | parry3d mean µs | parry / impact | impact3d median µs | parry3d median µs | impact3d max error m | parry3d max error m | impact3d wrong | parry3d wrong |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for r in &rays {
        println!(
            "| {} | {} | {:.3} | {:.3} | {:.2} | {:.3} | {:.3} | {:.1e} | {:.1e} | {} | {} |",
            r.set,
            r.count,
            r.mean_us[0],
            r.mean_us[1],
            r.mean_us[1] / r.mean_us[0],
            r.median_us[0],
            r.median_us[1],
            r.max_error[0],
            r.max_error[1],
            r.wrong[0],
            r.wrong[1]
        );
    }
    println!();
    println!("Machine at the end of the 3D part: {}.\n", machine());
}

fn print_steps(rows: &[steps::Row], clock: steps::Clock) {
    let cpu = if clock == steps::Clock::Cpu { ", thread CPU time" } else { "" };
    println!(
        "### Whole steps (one thread, 60 Hz, 4 sub-steps; median ms per step after {} warm-up steps{cpu})\n",
        steps::WARM_UP
    );
    println!(
        "| scene | bodies | steps | impact ms | rapier2d ms | rapier / impact | mean y impact | mean y rapier | same scene |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---|");
    // Steps under a millisecond (the paddle's) get a fourth decimal; "-" for an engine not run.
    let ms = |t: Option<f64>| match t {
        Some(t) if t < 1.0 => format!("{t:.4}"),
        Some(t) => format!("{t:.3}"),
        None => "-".into(),
    };
    let fixed = |x: Option<f64>| x.map_or("-".into(), |x| format!("{x:.2}"));
    for r in rows {
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.scene,
            r.bodies,
            r.steps,
            ms(r.impact_ms),
            ms(r.rapier_ms),
            fixed(r.rapier_ms.zip(r.impact_ms).map(|(r, i)| r / i)),
            fixed(r.impact_mean_y),
            fixed(r.rapier_mean_y),
            if r.same_scene { "yes" } else { "NO" }
        );
    }
    println!();
}

fn print_paddle(c: &steps::PaddleCheck) {
    println!("### Kinematic paddle: pass-throughs ({} steps from the start, checked after every step)\n", c.steps);
    println!("A pass-through: a box center crosses the bar's mid-line within its span, less 0.4 m at each tip.\n");
    println!("| engine | pass-throughs | boxes | first (step, box) | TOI calls | impacts | carried |");
    println!("|---|---:|---:|---|---:|---:|---:|");
    let first = |x: &steps::Crossings| x.first.map_or("-".into(), |(s, b)| format!("step {s}, box {b}"));
    let i = &c.impact;
    println!(
        "| impact | {} | {} | {} | {} | {} | {} |",
        i.events,
        i.bodies,
        first(i),
        c.toi_calls,
        c.impacts,
        c.carried
    );
    let r = &c.rapier;
    println!("| rapier2d | {} | {} | {} | - | - | - |", r.events, r.bodies, first(r));
    println!();
}

/// The first event of an engine in each run of one scene: the first three in full, then the
/// seeds of the others.
fn events(runs: &[&tunneling::Row], tally: impl Fn(&tunneling::Row) -> &tunneling::Tally) -> String {
    let hit: Vec<&&tunneling::Row> = runs.iter().filter(|r| tally(r).first.is_some()).collect();
    let full: Vec<String> = hit
        .iter()
        .take(3)
        .filter_map(|r| {
            let (step, body, c) = tally(r).first?;
            let seed = r.seed.map(|s| format!("seed {s}: ")).unwrap_or_default();
            Some(format!("{seed}step {step}, body {body} at ({:.3}, {:.3})", c[0], c[1]))
        })
        .collect();
    let rest: Vec<String> = hit.iter().skip(3).filter_map(|r| r.seed.map(|s| s.to_string())).collect();
    match (full.is_empty(), rest.is_empty()) {
        (true, _) => "-".into(),
        (false, true) => full.join("; "),
        (false, false) => format!("{}; also seeds {}", full.join("; "), rest.join(", ")),
    }
}

fn print_tunneling(rows: &[tunneling::Row]) {
    println!("### Tunneling (bodies checked after every step)\n");
    println!(
        "| scene | runs × steps | impact escapes | impact pass-throughs | rapier2d escapes | rapier2d pass-throughs | first impact events | first rapier2d events |"
    );
    println!("|---|---:|---:|---:|---:|---:|---|---|");
    let mut names: Vec<&str> = rows.iter().map(|r| r.case).collect();
    names.dedup();
    for name in names {
        let runs: Vec<&tunneling::Row> = rows.iter().filter(|r| r.case == name).collect();
        let sum = |f: &dyn Fn(&tunneling::Row) -> usize| runs.iter().map(|r| f(r)).sum::<usize>();
        let seeds = match (runs.first().and_then(|r| r.seed), runs.last().and_then(|r| r.seed)) {
            (Some(a), Some(b)) => format!(", seeds {a}–{b}"),
            _ => String::new(),
        };
        println!(
            "| {name}{seeds} | {} × {} | {} | {} | {} | {} | {} | {} |",
            runs.len(),
            runs[0].steps,
            sum(&|r| r.impact.escapes),
            sum(&|r| r.impact.pass_throughs),
            sum(&|r| r.rapier.escapes),
            sum(&|r| r.rapier.pass_throughs),
            events(&runs, |r| &r.impact),
            events(&runs, |r| &r.rapier)
        );
    }
    println!();
}
