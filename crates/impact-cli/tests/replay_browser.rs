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

/// Headless chromium without anything that reaches for the network (on a closed network its
/// refused connections, many at a time at start-up, slowed runs on a loaded machine).
const CHROMIUM_FLAGS: [&str; 10] = [
    "--headless",
    "--disable-gpu",
    "--no-sandbox",
    "--hide-scrollbars",
    "--force-device-scale-factor=1",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
];

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
        .args(CHROMIUM_FLAGS)
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

/// The page `html` in chromium after `play_ms` of virtual time: its DOM as chromium dumps it.
fn dump_dom(html: &Path, play_ms: u32, name: &str) -> String {
    let dir = html.parent().unwrap();
    let out = Command::new(chromium())
        .arg(format!("--virtual-time-budget={play_ms}"))
        .args(CHROMIUM_FLAGS)
        .arg(format!("--user-data-dir={}", dir.join(format!("profile-{name}")).display()))
        .arg(format!("--window-size={},{}", WINDOW.0, WINDOW.1))
        .arg("--dump-dom")
        .arg(format!("file://{}", html.display()))
        .stderr(Stdio::null())
        .output()
        .expect("chromium runs");
    String::from_utf8(out.stdout).unwrap()
}

/// A program's own world, recorded: a ground, a kinematic paddle turning from the start and
/// destroyed before step `PADDLE_GONE`, three boxes from the start, a fourth box created
/// before step `LATE_BOX` and destroyed before step `LATE_BOX_GONE`; `STEPS` steps.
const STEPS: usize = 120;
const LATE_BOX: usize = 30;
const PADDLE_GONE: usize = 60;
const LATE_BOX_GONE: usize = 90;

fn program_replay(path: &Path) -> Recorder {
    use impact2d::{BodyDef, Shape, ShapeDef, Vec2, World, WorldDef, make_box};
    let mut world = World::new(&WorldDef::default()).unwrap();
    let boxed = |half: f32| Shape::Polygon(make_box(half, half).unwrap());
    let ground = world.create_body(&BodyDef::fixed(Vec2::new(0.0, -0.5))).unwrap();
    world.create_shape(ground, &ShapeDef::default(), &Shape::Polygon(make_box(8.0, 0.5).unwrap())).unwrap();
    let paddle =
        world.create_body(&BodyDef { angular_velocity: 1.0, ..BodyDef::kinematic(Vec2::new(-4.0, 4.0)) }).unwrap();
    world.create_shape(paddle, &ShapeDef::default(), &Shape::Polygon(make_box(1.5, 0.4).unwrap())).unwrap();
    for x in [0.0f32, 2.0, 4.0] {
        let b = world.create_body(&BodyDef::dynamic(Vec2::new(x, 2.0 + x))).unwrap();
        world.create_shape(b, &ShapeDef::default(), &boxed(0.5)).unwrap();
    }
    let mut recorder = Recorder::new("program", 1.0 / 60.0);
    recorder.record(&world);
    let mut late = None;
    for step in 1..=STEPS {
        if step == LATE_BOX {
            let b = world.create_body(&BodyDef::dynamic(Vec2::new(6.0, 6.0))).unwrap();
            world.create_shape(b, &ShapeDef::default(), &boxed(0.6)).unwrap();
            late = Some(b);
        }
        if step == PADDLE_GONE {
            world.destroy_body(paddle).unwrap();
        }
        if step == LATE_BOX_GONE {
            world.destroy_body(late.unwrap()).unwrap();
        }
        world.step(1.0 / 60.0, 4).unwrap();
        recorder.record(&world);
    }
    recorder.write_html(path).unwrap();
    recorder
}

/// Before the player's script: JavaScript errors and `console.error` calls are kept in
/// `window.errors`.
const CATCH_ERRORS: &str = "<script>window.errors = [];\
    addEventListener('error', (e) => errors.push(String(e.message)));\
    const consoleError = console.error; console.error = (...a) => { errors.push(a.join(' ')); consoleError(...a); };\
    </script>";

/// After it: the replay played at 1000 times its speed until it stops (at most `WAIT_MS` of
/// virtual time), the frames it drew while playing, where it stopped and the readout,
/// then for each of `PROBED` frames the bodies the player draws when showing it, written into
/// `<pre id="probe">` as JSON.
const WAIT_MS: u32 = 20000;
const PROBED: [usize; 6] = [0, LATE_BOX - 1, LATE_BOX, PADDLE_GONE - 1, PADDLE_GONE, LATE_BOX_GONE];
fn probe_script() -> String {
    let frames = PROBED.map(|k| k.to_string()).join(",");
    format!(
        "<script>(() => {{
  const out = document.createElement('pre'); out.id = 'probe'; document.body.append(out);
  const result = {{ visited: [] }};
  try {{
    const originalDraw = draw, originalBody = drawBody;
    let drawn = null;
    draw = function () {{ if (drawn === null) result.visited.push(frame); return originalDraw(); }};
    drawBody = function (index, j, f) {{ if (drawn) drawn.push([index, f.s[j]]); return originalBody(index, j, f); }};
    // Headless chromium's virtual time gives few animation frames: play fast.
    result.initial = frame;
    result.playingAtStart = playing;
    speed = 1000;
    const started = Date.now();
    const finish = () => {{
      if (playing && Date.now() - started < {WAIT_MS}) {{ setTimeout(finish, 100); return; }}
      try {{
        result.readout = document.getElementById('readout').textContent;
        result.button = document.getElementById('play').textContent;
        result.last = frame;
        result.frames = {{}};
        for (const k of [{frames}]) {{ drawn = []; show(k); result.frames[k] = drawn; }}
        drawn = null;
      }} catch (e) {{ errors.push('probe: ' + e.message); }}
      result.errors = errors;
      out.textContent = JSON.stringify(result);
    }};
    setTimeout(finish, 100);
  }} catch (e) {{ errors.push('probe: ' + e.message); result.errors = errors; out.textContent = JSON.stringify(result); }}
}})();</script>"
    )
}

#[test]
fn chromium_plays_a_recorded_program_with_bodies_created_and_destroyed() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("replay_browser_program");
    std::fs::create_dir_all(&dir).unwrap();
    let html = dir.join("program.html");
    let recorder = program_replay(&html);
    let replay = recorder.replay();
    assert_eq!(replay.frames().len(), STEPS + 1);
    // The entries: ground, paddle, three boxes, the late box.
    assert_eq!(replay.bodies().len(), 6);
    let expected = |k: usize| {
        let mut alive = vec![0];
        if k < PADDLE_GONE {
            alive.push(1);
        }
        alive.extend([2, 3, 4]);
        if (LATE_BOX..LATE_BOX_GONE).contains(&k) {
            alive.push(5);
        }
        alive
    };
    for k in 0..=STEPS {
        assert_eq!(replay.frames()[k].bodies, expected(k), "frame {k} of the recording");
    }

    // The page as written, with the probe around the player's script.
    let page = std::fs::read_to_string(&html).unwrap();
    let player = page.find("<script type=\"application/json\" id=\"replay\">").unwrap();
    let end = page.rfind("</body>").unwrap();
    let probed = format!("{}{CATCH_ERRORS}{}{}{}", &page[..player], &page[player..end], probe_script(), &page[end..]);
    let probed_path = dir.join("program_probed.html");
    std::fs::write(&probed_path, probed).unwrap();
    let dom = dump_dom(&probed_path, WAIT_MS + 2000, "program_dom");
    let open = dom.find("<pre id=\"probe\">").unwrap_or_else(|| panic!("no probe output in the DOM:\n{dom}")) + 16;
    let json = &dom[open..open + dom[open..].find("</pre>").unwrap()];
    let result: serde_json::Value =
        serde_json::from_str(&json.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">"))
            .unwrap_or_else(|e| panic!("{e}: {json}"));
    assert_eq!(result["errors"], serde_json::json!([]), "JavaScript errors: {result}");
    // It played from the first frame to the last, in order, and stopped there.
    let visited: Vec<u64> = result["visited"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
    assert_eq!((&result["initial"], &result["playingAtStart"]), (&serde_json::json!(0), &serde_json::json!(true)));
    assert!(
        visited.windows(2).all(|w| w[0] <= w[1]) && visited.last() == Some(&(STEPS as u64)),
        "{visited:?} {result}"
    );
    assert_eq!(result["last"], STEPS as u64, "{result}");
    assert_eq!(result["button"], "play", "stopped at the end: {result}");
    let readout = result["readout"].as_str().unwrap();
    assert!(readout.starts_with(&format!("frame {STEPS} / {STEPS} ")), "{readout}");
    // At each probed frame it draws the bodies alive in it, static ones gray (`g`), the paddle
    // teal (`k`), the boxes awake or asleep.
    for k in PROBED {
        let drawn = result["frames"][k.to_string()].as_array().unwrap();
        let mut entries: Vec<usize> = drawn.iter().map(|d| d[0].as_u64().unwrap() as usize).collect();
        entries.sort();
        assert_eq!(entries, expected(k), "frame {k}: {drawn:?}");
        for d in drawn {
            let state = d[1].as_str().unwrap();
            let want: &[&str] = match d[0].as_u64().unwrap() {
                0 => &["g"],
                1 => &["k"],
                _ => &["a", "s"],
            };
            assert!(want.contains(&state), "frame {k}: {d:?}");
        }
    }

    // And on screen: the teal paddle is there a frame before its destruction and gone at it
    // (the legend's key, 10 by 10 pixels, stays), the late box's pixels come and go.
    let teal = hex(Color::KINEMATIC);
    let shots: Vec<(usize, Pixmap)> =
        [LATE_BOX - 1, LATE_BOX, PADDLE_GONE - 1, PADDLE_GONE, LATE_BOX_GONE - 1, LATE_BOX_GONE]
            .into_iter()
            .map(|k| (k, screenshot(&html, Some(k), 0, &format!("program_{k}"))))
            .collect();
    let pixels = |k: usize, color: &str| count(&shots.iter().find(|s| s.0 == k).unwrap().1, color, BAR);
    assert!(pixels(PADDLE_GONE - 1, &teal) > 2000, "{} teal pixels", pixels(PADDLE_GONE - 1, &teal));
    assert!(
        pixels(PADDLE_GONE, &teal) < 200,
        "{} teal pixels after the paddle's destruction",
        pixels(PADDLE_GONE, &teal)
    );
    let boxes = |k: usize| pixels(k, &hex(Color::AWAKE)) + pixels(k, &hex(Color::ASLEEP));
    assert!(boxes(LATE_BOX) > boxes(LATE_BOX - 1) + 1000, "{} then {}", boxes(LATE_BOX - 1), boxes(LATE_BOX));
    assert!(
        boxes(LATE_BOX_GONE - 1) > boxes(LATE_BOX_GONE) + 1000,
        "{} then {}",
        boxes(LATE_BOX_GONE - 1),
        boxes(LATE_BOX_GONE)
    );
}
