//! The scene-file target: built-in scene files with hostile numbers and broken bytes, through
//! the command's validation and run.
//!
//! A case takes one of the small built-in scenes as exported (`impact scene export`), and
//! either writes hostile values in place of one to three of its numbers (huge, tiny, just
//! beyond a range, NaN-making exponents) or breaks its text (bytes deleted, inserted, swapped
//! or repeated). The file must then be refused with an error at a line and column (for a
//! number mutation: at the number changed or within the body or scene field it belongs to),
//! or be valid and run: `check` and `run` share the validation, so a valid file builds its
//! world, and eight steps leave every body finite and a summary without `null` (issue 18).

use crate::runner::note_tier;
use crate::source::Source;
use crate::tally::{Fault, Tier, Verdict};
use impact_cli::scene::parse_scene;
use impact_cli::scenes;
use impact_cli::simulation::Simulation;
use std::sync::OnceLock;

/// Steps a valid mutated scene runs.
const STEPS: usize = 8;

/// The small built-in scenes' files (the benchmark scenes hold thousands of bodies).
fn scene_texts() -> &'static [(&'static str, String)] {
    static TEXTS: OnceLock<Vec<(&'static str, String)>> = OnceLock::new();
    TEXTS.get_or_init(|| {
        scenes::ALL.iter().filter(|b| b.family != "benchmark").map(|b| (b.name, b.scene().to_json())).collect()
    })
}

/// Runs one mutated file from `bytes`.
pub fn check(bytes: &[u8]) -> Verdict {
    note_tier(Tier::Hostile);
    let mut src = Source::new(bytes);
    let texts = scene_texts();
    let (name, text) = &texts[src.below(texts.len())];
    let (mutated, changed) =
        if src.chance(2, 3) { mutate_numbers(&mut src, text) } else { (break_text(&mut src, text), vec![]) };
    let what = if changed.is_empty() {
        format!("{name} with broken bytes")
    } else {
        format!(
            "{name} with {}",
            changed.iter().map(|n| format!("{} = {}", n.path, n.value)).collect::<Vec<_>>().join(", ")
        )
    };
    let fault = match parse_scene(&mutated) {
        Err(error) => refusal_fault(&error, &changed, &mutated).map(|f| format!("{what}: refused at {error}: {f}")),
        Ok(valid) => run_fault(&valid).map(|f| format!("{what}: {f}")),
    };
    match fault {
        Some(f) if f.contains("non-finite") => Verdict::fault(Tier::Hostile, Fault::NonFinite, f),
        Some(f) => Verdict::fault(Tier::Hostile, Fault::Wrong, f),
        None => Verdict::clean(Tier::Hostile),
    }
}

/// A refusal must be located, named and (for a number mutation) near a changed number: in
/// the same body, joint or mover, or in a mover and the body that shows it (a mover's skin
/// and its capsule's radius limit each other).
fn refusal_fault(error: &impact_cli::scene::SceneError, changed: &[Changed], text: &str) -> Option<String> {
    if error.pos.line < 1 || error.pos.column < 1 || error.message.is_empty() {
        return Some("not located or not explained".to_owned());
    }
    if changed.is_empty() {
        return None;
    }
    let owners = related_owners(text, owner(&error.path));
    if error.path.is_empty() || !changed.iter().any(|n| owners.iter().any(|o| o == owner(&n.path))) {
        return Some("not at a changed number nor within its body".to_owned());
    }
    // The numbers after the first changed one moved; the first did not.
    let first = changed.iter().min_by_key(|n| n.start)?;
    let at_first = error.path == first.path && (error.pos.line, error.pos.column) != (first.line, first.column);
    at_first.then(|| format!("at the wrong place: the number was at {}:{}", first.line, first.column))
}

/// A valid file must build its world and run finitely.
fn run_fault(valid: &impact_cli::scene::ValidScene) -> Option<String> {
    let mut run = match Simulation::new(valid) {
        Ok(run) => run,
        Err(e) => return Some(format!("valid for check, refused by run: {e}")),
    };
    for step in 0..STEPS {
        if let Err(e) = run.step() {
            return Some(format!("step {step} refused: {e}"));
        }
        if let Some(body) = run.first_non_finite_body() {
            return Some(format!("step {step}: body {body} is non-finite"));
        }
    }
    let summary = serde_json::to_string(&run.summary()).unwrap_or_default();
    summary.contains("null").then(|| format!("non-finite summary: {summary}"))
}

/// A number of a file that a mutation changed: where it was and what it became.
struct Changed {
    start: usize,
    line: usize,
    column: usize,
    path: String,
    value: String,
}

/// One to three numbers of `text` replaced by hostile values.
fn mutate_numbers(src: &mut Source, text: &str) -> (String, Vec<Changed>) {
    let candidates = numbers(text);
    let mut picked: Vec<&NumberAt> = (0..1 + src.below(3)).map(|_| &candidates[src.below(candidates.len())]).collect();
    picked.sort_by_key(|n| std::cmp::Reverse(n.start));
    picked.dedup_by_key(|n| n.start);
    let mut mutated = text.to_owned();
    let mut changed = vec![];
    for n in picked {
        let value = hostile(src, text[n.start..n.end].parse().unwrap_or(1.0));
        mutated.replace_range(n.start..n.end, &value);
        changed.push(Changed { start: n.start, line: n.line, column: n.column, path: n.path.clone(), value });
    }
    (mutated, changed)
}

/// `text` with one to four byte-level breaks (ASCII only, so it stays UTF-8).
fn break_text(src: &mut Source, text: &str) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for _ in 0..1 + src.below(4) {
        let at = src.below(bytes.len().max(1)).min(bytes.len());
        let len = (1 + src.below(16)).min(bytes.len() - at);
        match src.below(4) {
            0 => {
                bytes.drain(at..at + len);
            }
            1 => {
                let b = b"{}[],:\"-0123456789.eE \nabcnullfalsetrue"[src.below(39)];
                bytes.insert(at, b);
            }
            2 if at + 2 * len <= bytes.len() => {
                let (a, b) = bytes[at..at + 2 * len].split_at_mut(len);
                a.swap_with_slice(b);
            }
            _ => {
                let copy = bytes[at..at + len].to_vec();
                bytes.splice(at..at, copy);
            }
        }
    }
    String::from_utf8(bytes).unwrap_or_default()
}

/// A hostile value to write in place of `original`.
fn hostile(src: &mut Source, original: f64) -> String {
    const FIXED: [&str; 26] = [
        "1e30", "-1e30", "3.4e38", "-3.4e38", "1.4e38", "1e10", "-1e10", "1e9", "2e9", "1e6", "1000001", "1e5",
        "100001", "1000", "1000.001", "10", "10.01", "1", "0", "-0", "-1", "1e-30", "1e-45", "1e-6", "0.999e-6",
        "1e20",
    ];
    match src.below(5) {
        0 => format!("{:e}", original * [1e3, 1e6, 1e9, 1e20, -1.0, 1e-20][src.below(6)]),
        1 => format!("{:e}", f64::from(src.wild())).replace("NaN", "1e400").replace("inf", "1e400"),
        _ => FIXED[src.below(FIXED.len())].to_owned(),
    }
}

/// `owner` and the owners tied to it: a mover's body, or the movers a body shows.
fn related_owners(text: &str, owner: &str) -> Vec<String> {
    let mut owners = vec![owner.to_owned()];
    let Ok(scene) = serde_json::from_str::<serde_json::Value>(text) else { return owners };
    let names: Vec<&str> =
        scene["bodies"].as_array().map_or(vec![], |b| b.iter().map(|b| b["name"].as_str().unwrap_or("")).collect());
    for (k, mover) in scene["movers"].as_array().into_iter().flatten().enumerate() {
        let Some(j) = names.iter().position(|n| Some(*n) == mover["body"].as_str()) else { continue };
        let (m, b) = (format!("movers[{k}]"), format!("bodies[{j}]"));
        if owner == m {
            owners.push(b);
        } else if owner == b {
            owners.push(m);
        }
    }
    owners
}

/// The body, mover or scene field a path is in: `bodies[3]` for
/// `bodies[3].shapes[0].radius`, `movers[0]` for `movers[0].skin`, `gravity` for `gravity[1]`.
fn owner(path: &str) -> &str {
    if path.starts_with("bodies[") || path.starts_with("movers[") {
        &path[..path.find(']').map_or(path.len(), |i| i + 1)]
    } else {
        path.split(['.', '[']).next().unwrap_or(path)
    }
}

/// A number of a valid JSON text: where its text is, its line and column (from 1), and the
/// field path of the value as the scene errors write it (`bodies[3].shapes[0].points[2][1]`).
struct NumberAt {
    start: usize,
    end: usize,
    line: usize,
    column: usize,
    path: String,
}

/// Every number of a valid JSON text with its position and field path.
fn numbers(text: &str) -> Vec<NumberAt> {
    // The containers open at each point: an object with its current key, or an array with
    // the index of its current item.
    enum Open {
        Object(String),
        Array(usize),
    }
    let path_of = |stack: &[Open]| {
        let mut path = String::new();
        for open in stack {
            match open {
                Open::Object(key) if path.is_empty() => path += key,
                Open::Object(key) => path += &format!(".{key}"),
                Open::Array(i) => path += &format!("[{i}]"),
            }
        }
        path
    };
    let bytes = text.as_bytes();
    let (mut out, mut stack, mut i, mut line, mut line_start) = (Vec::new(), Vec::new(), 0, 1, 0);
    let mut expecting_key = false;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                line += 1;
                line_start = i + 1;
            }
            b'{' => {
                stack.push(Open::Object(String::new()));
                expecting_key = true;
            }
            b'[' => stack.push(Open::Array(0)),
            b'}' | b']' => {
                stack.pop();
            }
            b',' => match stack.last_mut() {
                Some(Open::Array(n)) => *n += 1,
                Some(Open::Object(_)) => expecting_key = true,
                None => {}
            },
            b'"' => {
                let end = i + 1 + text[i + 1..].find('"').unwrap_or(text.len() - i - 1);
                if expecting_key {
                    if let Some(Open::Object(key)) = stack.last_mut() {
                        *key = text[i + 1..end].to_owned();
                    }
                    expecting_key = false;
                }
                i = end;
            }
            b'-' | b'0'..=b'9' => {
                let end = i + text[i..].find(|c: char| !"+-.eE0123456789".contains(c)).unwrap_or(text.len() - i);
                let column = text[line_start..i].chars().count() + 1;
                out.push(NumberAt { start: i, end, line, column, path: path_of(&stack) });
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}
