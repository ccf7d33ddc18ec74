//! `cargo run --release -p peers [-- [toi] [steps] [tunneling] [--quick] [--explain]]`: impact
//! side by side with rapier2d 0.36 and parry2d 0.31 (issue 7), on one thread. Prints one
//! markdown report: time of impact, whole steps, tunneling (the parts named, or all).
//! `--quick` runs small counts (a spot check in seconds); `--explain` prints the first wrong
//! time of impact answer of each algorithm and family.

mod rng;
mod scene;
mod steps;
mod toi;
mod tunneling;

use std::process::ExitCode;

/// The counts of one run.
struct Counts {
    explain: bool,
    toi_queries: usize,
    steps_scale: f64,
    box_seeds: u64,
}

const FULL: Counts = Counts { explain: false, toi_queries: 16384, steps_scale: 1.0, box_seeds: 40 };
const QUICK: Counts = Counts { explain: false, toi_queries: 512, steps_scale: 0.1, box_seeds: 2 };

fn main() -> ExitCode {
    let mut counts = FULL;
    let mut parts = Vec::new();
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "toi" | "steps" | "tunneling" => parts.push(arg),
            "--quick" => counts = Counts { explain: counts.explain, ..QUICK },
            "--explain" => counts.explain = true,
            "-h" | "--help" => {
                println!("usage: peers [toi] [steps] [tunneling] [--quick] [--explain]");
                return ExitCode::SUCCESS;
            }
            other => {
                eprintln!("peers: unknown argument {other:?} (expected toi, steps, tunneling, --quick or --explain)");
                return ExitCode::from(2);
            }
        }
    }
    let wanted = |part: &str| parts.is_empty() || parts.iter().any(|p| p == part);
    if wanted("toi") {
        print_toi(&counts);
    }
    if wanted("steps") {
        match steps::run(counts.steps_scale) {
            Ok(rows) => print_steps(&rows),
            Err(e) => {
                eprintln!("peers: building or stepping a benchmark scene failed: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    if wanted("tunneling") {
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

fn print_steps(rows: &[steps::Row]) {
    println!(
        "### Whole steps (one thread, 60 Hz, 4 sub-steps; median ms per step after {} warm-up steps)\n",
        steps::WARM_UP
    );
    println!(
        "| scene | bodies | steps | impact ms | rapier2d ms | rapier / impact | mean y impact | mean y rapier | same scene |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---|");
    for r in rows {
        println!(
            "| {} | {} | {} | {:.3} | {:.3} | {:.2} | {:.2} | {:.2} | {} |",
            r.scene,
            r.bodies,
            r.steps,
            r.impact_ms,
            r.rapier_ms,
            r.rapier_ms / r.impact_ms,
            r.impact_mean_y,
            r.rapier_mean_y,
            if r.same_scene { "yes" } else { "NO" }
        );
    }
    println!();
}

fn first(t: &tunneling::Tally) -> String {
    match t.first {
        Some((step, body, c)) => format!("step {step}, body {body} at ({:.3}, {:.3})", c[0], c[1]),
        None => "-".into(),
    }
}

fn print_tunneling(rows: &[tunneling::Row]) {
    println!("### Tunneling (bodies checked after every step)\n");
    println!(
        "| scene | steps | impact escapes | impact pass-throughs | rapier2d escapes | rapier2d pass-throughs | first impact event | first rapier2d event |"
    );
    println!("|---|---:|---:|---:|---:|---:|---|---|");
    for r in rows {
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            r.case,
            r.steps,
            r.impact.escapes,
            r.impact.pass_throughs,
            r.rapier.escapes,
            r.rapier.pass_throughs,
            first(&r.impact),
            first(&r.rapier)
        );
    }
    println!();
}
