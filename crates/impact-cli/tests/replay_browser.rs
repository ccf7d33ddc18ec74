//! The replay player in a real browser: Debian's chromium, headless, loads a replay written by
//! the library's recorder, and its screenshot must show the scene as the PNG renderer draws
//! the world at the same step (both through impact2d's debug drawing).
//!
//! This test fails, rather than skips, when chromium is missing: `.ci/run` installs it
//! (`apt-get install chromium`).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use impact_cli::render::{Layers, render};
use impact_cli::replay::{PALETTE, Replay, hex};
use impact_cli::simulation::Simulation;
use impact_cli::{Recorder, scenes};
use impact2d::Color;
use tiny_skia::Pixmap;

/// The browser window; the player's canvas is the window less its 40 px control bar.
const WINDOW: (u32, u32) = (1000, 540);
const BAR: u32 = 40;

/// Debian's chromium: `/usr/bin/chromium`, or `chromium` or `chromium-browser` on the PATH.
fn chromium() -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let dirs = std::iter::once(PathBuf::from("/usr/bin")).chain(std::env::split_paths(&path));
    for dir in dirs {
        for name in ["chromium", "chromium-browser"] {
            if dir.join(name).is_file() {
                return dir.join(name);
            }
        }
    }
    panic!("chromium is needed for the replay browser test: apt-get install -y chromium (.ci/run installs it)");
}

/// A screenshot of `html` opened at `#frame=N`, or without a fragment (playing from the start)
/// after `play_ms` of the browser's virtual time.
fn screenshot(html: &Path, frame: Option<usize>, play_ms: u32, name: &str) -> Pixmap {
    let dir = html.parent().unwrap();
    let shot = dir.join(format!("{name}.png"));
    let _ = std::fs::remove_file(&shot);
    let mut command = Command::new(chromium());
    if play_ms > 0 {
        command.arg(format!("--virtual-time-budget={play_ms}"));
    }
    let mut child = command
        .args(["--headless", "--disable-gpu", "--no-sandbox", "--hide-scrollbars", "--force-device-scale-factor=1"])
        .arg(format!("--user-data-dir={}", dir.join(format!("profile-{name}")).display()))
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!("--window-size={},{}", WINDOW.0, WINDOW.1))
        .arg(match frame {
            Some(frame) => format!("file://{}#frame={frame}", html.display()),
            None => format!("file://{}", html.display()),
        })
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromium starts");
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(90) {
            let _ = child.kill();
            panic!("chromium took more than 90 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Pixmap::load_png(&shot).unwrap_or_else(|e| panic!("no screenshot from chromium at {}: {e}", shot.display()))
}

/// The pixels within a few levels of `hex` (`#rrggbb`) in rows `top..`.
fn count(image: &Pixmap, hex: &str, top: u32) -> usize {
    let c = |i: usize| i32::from(u8::from_str_radix(&hex[i..i + 2], 16).unwrap());
    let (r, g, b) = (c(1), c(3), c(5));
    let width = image.width() as usize;
    image.pixels()[top as usize * width..]
        .iter()
        .filter(|p| {
            (i32::from(p.red()) - r).abs() <= 3
                && (i32::from(p.green()) - g).abs() <= 3
                && (i32::from(p.blue()) - b).abs() <= 3
        })
        .count()
}

/// The box pile: forty 1 m boxes in the air at frame 0, in a pile on the ground at the end;
/// the replay, and the run at its first and last frames.
fn box_pile_replay(dir: &Path) -> (PathBuf, Replay, [Simulation; 2]) {
    let scene = scenes::find("box_pile").unwrap().scene().validate().unwrap();
    let mut sim = Simulation::new(&scene).unwrap();
    let start = sim.clone();
    let mut recorder = Recorder::for_scene(&scene, sim.world());
    recorder.record(&sim.world().world);
    for _ in 0..90 {
        sim.step().unwrap();
        recorder.record(&sim.world().world);
    }
    let path = dir.join("box_pile.html");
    recorder.write_html(&path).unwrap();
    (path, recorder.into_replay(), [start, sim])
}

#[test]
fn chromium_draws_the_replay_as_the_png_renderer_does() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("replay_browser");
    std::fs::create_dir_all(&dir).unwrap();
    let (html, replay, runs) = box_pile_replay(&dir);
    let last = replay.frames().len() - 1;
    let canvas = (WINDOW.0, WINDOW.1 - BAR);

    let start = screenshot(&html, Some(0), 0, "start");
    let end = screenshot(&html, Some(last), 0, "end");
    assert_eq!((start.width(), start.height()), WINDOW);

    for ((frame, shot), run) in [(0, &start), (last, &end)].into_iter().zip(&runs) {
        let world = &run.world().world;
        let reference = render(world, replay.view_bounds(), canvas.0, canvas.1, Layers::default()).unwrap();
        let background = count(shot, &hex(PALETTE.background), BAR);
        // The canvas is drawn: mostly background, as in the PNG.
        assert!(background > (canvas.0 * canvas.1) as usize / 2, "frame {frame}: {background} background pixels");
        for (what, color) in [("static", Color::STATIC), ("awake", Color::AWAKE)] {
            let (browser, png) = (count(shot, &hex(color), BAR), count(&reference, &hex(color), 0));
            // A meaningful number of pixels, and the browser's count within 15 % of the
            // renderer's (anti-aliasing differs at the edges).
            assert!(png > 2000, "frame {frame}: only {png} {what} pixels in the PNG");
            let ratio = browser as f64 / png as f64;
            assert!(
                (0.85..1.15).contains(&ratio),
                "frame {frame}: {what} pixels {browser} in chromium, {png} in the PNG"
            );
        }
    }
    // The fragment picks the frame: the boxes have fallen between the two.
    let top_half = |image: &Pixmap| {
        let width = image.width() as usize;
        let rows = (BAR + (image.height() - BAR) / 2) as usize;
        let head = Pixmap::from_vec(
            image.data()[..rows * width * 4].to_vec(),
            tiny_skia::IntSize::from_wh(width as u32, rows as u32).unwrap(),
        )
        .unwrap();
        count(&head, &hex(Color::AWAKE), BAR)
    };
    assert!(top_half(&start) > 2 * top_half(&end).max(1), "{} vs {}", top_half(&start), top_half(&end));

    // Without a fragment the player plays: after some virtual time the boxes have moved.
    let playing = screenshot(&html, None, 3000, "playing");
    let canvas_bytes = |image: &Pixmap| image.data()[(BAR * image.width() * 4) as usize..].to_vec();
    let (a, b) = (canvas_bytes(&start), canvas_bytes(&playing));
    let moved = a.chunks(4).zip(b.chunks(4)).filter(|(p, q)| p != q).count();
    assert!(moved > 1000, "only {moved} pixels changed while playing");
}
