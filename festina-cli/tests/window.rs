//! The window (§17.1, §17.2, §17.4) under a private Xvfb server with real
//! input injected by xdotool: the window's size and pixels against the
//! canvas, every event handler with its positions, buttons and key
//! names, key auto-repeat, resizing from the program, the user and
//! fullscreen, closing (`on close`, then `on exit`), the `no display`
//! failure, a window redrawn continuously beside a listening port that
//! answers real HTTP requests over 127.0.0.1 (§19.7), and the examples (examples/snake.f, examples/drums.f). See
//! tests/window/xvfb.rs for the bench. The tests skip (with a message)
//! only where Xvfb or the tools are missing and FESTINA_REQUIRE_XVFB is
//! unset; scripts/test.sh and CI set it.

#[path = "support/listener.rs"]
mod listener;
#[path = "window/xvfb.rs"]
mod xvfb;

use festina_stdlib::canvas::codec::decode;
use festina_stdlib::window::composite_over_white;
use xvfb::{Program, Xvfb};

/// Handlers that log every window event.
const LOG_EVENTS: &str = r#"
on mouseDown(x:int, y:int, button:int) { log(`down ${x} ${y} ${button}`) }
on mouseUp(x:int, y:int, button:int) { log(`up ${x} ${y} ${button}`) }
on mouse(x:int, y:int) { log(`move ${x} ${y}`) }
on mouseWheelUp(x:int, y:int) { log(`wheel up ${x} ${y}`) }
on mouseWheelDown(x:int, y:int) { log(`wheel down ${x} ${y}`) }
on keyDown(key:text) { log(`keydown ${key}`) }
on keyUp(key:text) { log(`keyup ${key}`) }
on resize() { log(`resize ${clientWidth}x${clientHeight}`) }
on close() { log('close') }
on exit(code:int) { log(`exit ${code}`) }
"#;

#[test]
fn the_window_shows_the_canvas_at_its_size() {
    let Some(x) = Xvfb::start() else { return };
    let src = r#"
color teal = 'teal'
color orange = 'orange'
setClientWidth(320)
setClientHeight(200)
drawRect(0, 0, 160, 100, teal)
drawCircle(240, 150, 40, orange)
fillAlpha(0.5)
drawRect(100, 120, 60, 60, teal)
log(saveCanvas('canvas.png'))
render()
log('ready')
on close() { log('close') }
"#;
    let mut p = Program::start(Some(&x), "shows", src, &[], &[]);
    p.expect("true");
    p.expect("ready");
    let win = x.window("shows");
    assert_eq!(x.size(&win), (320, 200));
    let png = std::fs::read(p.dir().join("canvas.png")).unwrap();
    let canvas = decode(&png).unwrap();
    let (w, h) = (canvas.width, canvas.height);
    let mut want = Vec::new();
    composite_over_white(
        &canvas.pixels,
        w as usize,
        h as usize,
        w as usize,
        &mut want,
    );
    // Exact where the canvas is opaque or empty; the half-transparent
    // square went through a PNG round trip (straight alpha), so 2 levels.
    let differs = |shot: &[u32]| {
        shot.iter()
            .zip(&want)
            .enumerate()
            .find_map(|(i, (&got, &exp))| {
                let near =
                    (0..3).all(|c| ((got >> (8 * c)) & 255).abs_diff((exp >> (8 * c)) & 255) <= 2);
                (!near).then(|| {
                    format!(
                        "pixel ({}, {}): window {got:06x}, canvas {exp:06x}",
                        i as u32 % w,
                        i as u32 / w
                    )
                })
            })
    };
    // The server shows the frame once it has read the program's
    // requests: look again until it does (the deadline is generous).
    let end = std::time::Instant::now() + xvfb::DEADLINE;
    let shot = loop {
        let (sw, sh, shot) = x.screenshot(&win);
        assert_eq!((sw, sh), (w, h));
        match differs(&shot) {
            None => break shot,
            Some(m) if std::time::Instant::now() > end => panic!("{m}"),
            Some(_) => std::thread::sleep(std::time::Duration::from_millis(20)),
        }
    };
    assert_eq!(shot[0], 0x008080, "teal in the corner");
    assert_eq!(
        shot[(199 * w + 319) as usize],
        0xffffff,
        "transparent shows white"
    );
    assert_eq!(shot[(150 * w + 240) as usize], 0xffa500, "orange circle");
    x.request_close(&win);
    p.expect("close");
    let (code, _, err) = p.finish();
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn injected_input_reaches_the_handlers_in_order() {
    let Some(x) = Xvfb::start() else { return };
    let src =
        format!("setClientWidth(300)\nsetClientHeight(200)\nrender()\nlog('ready')\n{LOG_EVENTS}");
    let mut p = Program::start(Some(&x), "input", &src, &[], &[]);
    p.expect("ready");
    let win = x.window("input");
    x.xdo(&["mousemove", "--window", &win, "30", "40"]);
    p.expect("move 30 40");
    x.xdo(&["click", "1"]);
    p.expect("up 30 40 1");
    x.xdo(&["click", "3"]);
    p.expect("up 30 40 3");
    x.xdo(&["click", "2"]);
    p.expect("up 30 40 2");
    x.xdo(&["click", "8"]);
    p.expect("up 30 40 8");
    x.xdo(&["click", "9"]);
    p.expect("up 30 40 9");
    x.xdo(&["click", "--repeat", "3", "4"]);
    x.xdo(&["click", "5"]);
    p.expect("wheel down 30 40");
    // a drag: press at one place, release at another
    x.xdo(&["mousedown", "1"]);
    p.expect("down 30 40 1");
    x.xdo(&["mousemove", "--window", &win, "120", "90"]);
    p.expect("move 120 90");
    x.xdo(&["mouseup", "1"]);
    p.expect("up 120 90 1");
    for key in ["a", "5", "space", "Left", "Escape", "Return"] {
        x.xdo(&["key", key]);
    }
    p.expect("keyup Return");
    x.request_close(&win);
    p.expect("exit 0");
    let (code, lines, err) = p.finish();
    assert_eq!(code, Some(0), "{err}");
    let mut events: Vec<&str> = lines
        .iter()
        .map(String::as_str)
        .filter(|l| !l.starts_with("move") && *l != "ready")
        .collect();
    // A press held past the server's auto-repeat delay (a starved
    // xdotool on a loaded machine) repeats its keyDown: that is right,
    // and tested on its own below; count each press once here.
    events.dedup_by(|a, b| a == b && a.starts_with("keydown"));
    assert_eq!(
        events,
        [
            "down 30 40 1",
            "up 30 40 1",
            "down 30 40 3",
            "up 30 40 3",
            "down 30 40 2",
            "up 30 40 2",
            "down 30 40 8",
            "up 30 40 8",
            "down 30 40 9",
            "up 30 40 9",
            "wheel up 30 40",
            "wheel up 30 40",
            "wheel up 30 40",
            "wheel down 30 40",
            "down 30 40 1",
            "up 120 90 1",
            "keydown a",
            "keyup a",
            "keydown 5",
            "keyup 5",
            "keydown  ",
            "keyup  ",
            "keydown Left",
            "keyup Left",
            "keydown Escape",
            "keyup Escape",
            "keydown Return",
            "keyup Return",
            "close",
            "exit 0",
        ]
    );
    // every reported move is a real position change
    let moves: Vec<&String> = lines.iter().filter(|l| l.starts_with("move")).collect();
    assert!(moves.windows(2).all(|m| m[0] != m[1]), "{moves:?}");
}

#[test]
fn key_down_repeats_while_held_and_key_up_fires_once() {
    let Some(x) = Xvfb::start() else { return };
    let src = format!("render()\nlog('ready')\n{LOG_EVENTS}");
    let mut p = Program::start(Some(&x), "repeat", &src, &[], &[]);
    p.expect("ready");
    let win = x.window("repeat");
    x.xdo(&["mousemove", "--window", &win, "10", "10"]);
    p.expect("move 10 10");
    x.xdo(&["keydown", "Left"]);
    p.expect("keydown Left");
    p.expect("keydown Left");
    p.expect("keydown Left");
    assert_eq!(
        p.count("keyup Left"),
        0,
        "no release while held: {:?}",
        p.seen
    );
    x.xdo(&["keyup", "Left"]);
    p.expect("keyup Left");
    // one more key: everything about Left has arrived before it
    x.xdo(&["key", "x"]);
    p.expect("keyup x");
    assert_eq!(p.count("keyup Left"), 1, "{:?}", p.seen);
    assert!(p.count("keydown Left") >= 3);
    x.request_close(&win);
    let (code, _, err) = p.finish();
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn resizing_from_the_program_the_user_and_fullscreen() {
    let Some(x) = Xvfb::start() else { return };
    let src = r#"
color red = 'red'
setClientWidth(200)
setClientHeight(100)
render()
log('ready')
on keyUp(key:text) {
    if key == 'w' {
        drawRect(0, 0, 10, 10, red)
        setClientWidth(300)
        log(`after ${clientWidth}x${clientHeight} ${getPixelColor(0, 0) == null}`)
    }
    if key == 'f' { enterFullscreen() enterFullscreen() }
    if key == 'g' { exitFullscreen() }
    if key == 'c' { close(7) }
}
on resize() { log(`resize ${clientWidth}x${clientHeight}`) }
on exit(code:int) { log(`exit ${code}`) }
"#;
    let mut p = Program::start(Some(&x), "resizing", src, &[], &[]);
    p.expect("ready");
    let win = x.window("resizing");
    x.xdo(&["mousemove", "--window", &win, "5", "5"]);
    x.xdo(&["key", "w"]);
    // synchronous: on resize before setClientWidth returns
    p.expect("resize 300x100");
    p.expect("after 300x100 true");
    x.wait_size(&win, (300, 100));
    // the user (here xdotool) resizes the window: the canvas follows
    x.xdo(&["windowsize", &win, "400", "250"]);
    p.expect("resize 400x250");
    x.xdo(&["mousemove", "--window", &win, "5", "5"]);
    x.xdo(&["key", "f"]);
    p.expect("resize 1024x768");
    x.wait_size(&win, (1024, 768));
    x.xdo(&["mousemove", "--window", &win, "5", "5"]);
    x.xdo(&["key", "g"]);
    p.expect("resize 400x250");
    x.xdo(&["mousemove", "--window", &win, "5", "5"]);
    x.xdo(&["key", "c"]);
    let (code, lines, err) = p.finish();
    assert_eq!(code, Some(7), "{err}");
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("resize")).count(),
        4,
        "{lines:?}"
    );
    assert_eq!(lines.last().map(String::as_str), Some("exit 7"));
}

#[test]
fn a_destroyed_window_closes_the_program_too() {
    let Some(x) = Xvfb::start() else { return };
    let src = format!("render()\nlog('ready')\n{LOG_EVENTS}");
    let mut p = Program::start(Some(&x), "destroyed", &src, &[], &[]);
    p.expect("ready");
    let win = x.window("destroyed");
    x.xdo(&["windowclose", &win]);
    p.expect("close");
    p.expect("exit 0");
    let (code, _, err) = p.finish();
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn handlers_alone_open_the_window_and_share_the_loop_with_timers() {
    let Some(x) = Xvfb::start() else { return };
    // No render(): declaring a window event opens the window when the
    // entry function ends (§17.2); a timer ticks beside the events.
    let src = r#"
int ticks = 0
setInterval(tick, 5)
void func tick() {
    ticks++
    if ticks == 20 { log('ticked') }
}
on keyDown(key:text) { log(`key ${key} after ${ticks >= 20}`) }
on close() { log(`closed ${screenWidth}x${screenHeight} ${devicePixelRatio}`) }
"#;
    let mut p = Program::start(Some(&x), "handlers", src, &[], &[]);
    let win = x.window("handlers");
    assert_eq!(x.size(&win), (800, 600));
    p.expect("ticked");
    x.xdo(&["mousemove", "--window", &win, "5", "5"]);
    x.xdo(&["key", "k"]);
    p.expect("key k after true");
    x.request_close(&win);
    p.expect("closed 1024x768 1");
    let (code, _, err) = p.finish();
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn render_in_a_loop_and_cursor_calls() {
    let Some(x) = Xvfb::start() else { return };
    // A top-level frame loop: every render() presents; the cursor calls
    // never open a window by themselves.
    let src = r#"
color blue = 'blue'
hideCursor()
showCursor()
hideCursor()
log(`before ${screenWidth > 0}`)
for int i = 0, i < 50, i++ {
    clearCanvas()
    drawRect(i, 0, 10, 10, blue)
    render()
}
log('done')
close(0)
"#;
    let mut p = Program::start(Some(&x), "frames", src, &[], &[]);
    p.expect("before true");
    p.expect("done");
    let (code, _, err) = p.finish();
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn no_display_is_a_clear_failure_and_drawing_needs_none() {
    // No Xvfb needed: DISPLAY is unset, then names nothing.
    let src = "color red = 'red'\ndrawRect(0, 0, 5, 5, red)\nlog(saveCanvas('x.png'))\nrender()\nlog('unreachable')\n";
    let p = Program::start(None, "nodisplay", src, &[], &[]);
    let (code, lines, err) = p.finish();
    assert_eq!(code, Some(1));
    assert_eq!(lines, ["true"]);
    assert!(err.starts_with("fail: no display: set DISPLAY"), "{err}");
    let p = Program::start(None, "baddisplay", src, &[], &[("DISPLAY", ":31999")]);
    let (code, _, err) = p.finish();
    assert_eq!(code, Some(1));
    assert!(
        err.starts_with("fail: no display: cannot reach the X server DISPLAY=:31999"),
        "{err}"
    );
    let p = Program::start(None, "screen", "log(screenWidth)\n", &[], &[]);
    let (code, _, err) = p.finish();
    assert_eq!(code, Some(1));
    assert!(err.starts_with("fail: no display"), "{err}");
}

fn examples() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples")
}

#[test]
fn snake_is_played_with_the_arrow_keys() {
    let Some(x) = Xvfb::start() else { return };
    let dir = examples();
    let mut p = Program::start_file(Some(&x), &dir.join("snake.f"), &dir, &[], &[]);
    p.expect("started");
    let win = x.window("snake");
    assert_eq!(x.size(&win), (400, 300));
    x.xdo(&["mousemove", "--window", &win, "5", "5"]);
    // heading right along row 7; turn down: the snake hits the bottom wall
    x.xdo(&["key", "Down"]);
    p.expect_where("game over", |l| l.starts_with("game over at "));
    let over = p.seen.last().unwrap().clone();
    let (cell, score) = over["game over at ".len()..].split_once(" score ").unwrap();
    let (cx, cy) = cell.split_once(',').unwrap();
    let (cx, cy): (u32, u32) = (cx.parse().unwrap(), cy.parse().unwrap());
    assert_eq!(cy, 14, "{over}");
    assert!(cx >= 5, "{over}");
    assert_eq!(score, "0");
    // the head is drawn where the game says it stopped
    let (w, _, shot) = x.screenshot(&win);
    assert_eq!(
        shot[((cy * 20 + 10) * w + cx * 20 + 10) as usize],
        0xffeb3b,
        "{over}"
    );
    // R plays again, Up runs into the top wall
    x.xdo(&["key", "r"]);
    p.expect("started");
    x.xdo(&["key", "Up"]);
    p.expect_where("game over at the top", |l| {
        l.starts_with("game over at ") && l.contains(",0 ")
    });
    x.xdo(&["key", "Escape"]);
    let (code, lines, err) = p.finish();
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(lines.last().map(String::as_str), Some("bye, score 0"));
}

#[test]
fn drum_pads_play_from_the_keyboard() {
    let Some(x) = Xvfb::start() else { return };
    let dir = examples();
    let env = [("FESTINA_AUDIO_SINK", "null")];
    let mut p = Program::start_file(Some(&x), &dir.join("drum_pads.f"), &dir, &[], &env);
    p.expect("ready");
    let win = x.window("drum_pads");
    x.xdo(&["mousemove", "--window", &win, "5", "5"]);
    x.xdo(&["key", "k", "s", "h", "Up"]);
    // (channels 0, 1, 2 unless a starved xdotool let a key auto-repeat)
    p.expect_where("a kick", |l| l.starts_with("kick on channel "));
    p.expect_where("a snare", |l| l.starts_with("snare on channel "));
    p.expect_where("a hat", |l| l.starts_with("hat on channel "));
    p.expect("130 bpm");
    x.xdo(&["key", "Down"]);
    // 120, or 10 below wherever a starved xdotool let Up auto-repeat to
    p.expect_where("the tempo after Down", |l| {
        l.ends_with(" bpm") && l != "130 bpm"
    });
    x.xdo(&["key", "space"]);
    p.expect("playing");
    let bpm: Vec<i32> = p
        .seen
        .iter()
        .filter_map(|l| l.strip_suffix(" bpm")?.parse().ok())
        .collect();
    assert_eq!(
        bpm[bpm.len() - 1],
        bpm[bpm.len() - 2] - 10,
        "Down slows down: {bpm:?}"
    );
    // the pattern steps on its timer while the keys still answer
    x.xdo(&["key", "k"]);
    p.expect_where("a kick", |l| l.starts_with("kick on channel"));
    x.xdo(&["key", "space"]);
    p.expect_where("stopped", |l| l.starts_with("stopped after "));
    x.xdo(&["key", "Escape"]);
    let (code, _, err) = p.finish();
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn an_exposed_window_shows_the_last_presented_frame() {
    let Some(x) = Xvfb::start() else { return };
    let src = r#"
color green = 'lime'
color red = 'red'
setClientWidth(100)
setClientHeight(80)
drawRect(0, 0, 100, 80, green)
render()
log('ready')
on keyUp(key:text) {
    // drawn, never presented
    drawRect(0, 0, 100, 80, red)
    log('drawn')
}
"#;
    let mut p = Program::start(Some(&x), "exposed", src, &[], &[]);
    p.expect("ready");
    let win = x.window("exposed");
    x.xdo(&["mousemove", "--window", &win, "5", "5"]);
    x.xdo(&["key", "a"]);
    p.expect("drawn");
    x.xdo(&["windowunmap", "--sync", &win]);
    x.xdo(&["windowmap", "--sync", &win]);
    // the Expose arrives within a tick or two; wait for the picture
    let end = std::time::Instant::now() + xvfb::DEADLINE;
    loop {
        let (_, _, shot) = x.screenshot(&win);
        if shot.iter().all(|&p| p == 0x00ff00) {
            break;
        }
        assert!(!shot.contains(&0xff0000), "an unpresented frame appeared");
        assert!(
            std::time::Instant::now() < end,
            "the window was not drawn again"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    x.request_close(&win);
    let (code, _, err) = p.finish();
    assert_eq!(code, Some(0), "{err}");
}

/// One HTTP/1.1 `GET path` on `s` (keep-alive unless `close`): the
/// status and the body (Content-Length framing, as the server answers).
fn http_get(s: &mut std::net::TcpStream, path: &str, close: bool) -> (u16, String) {
    use std::io::{BufRead, BufReader, Read, Write};
    let conn = if close { "Connection: close\r\n" } else { "" };
    write!(s, "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{conn}\r\n").expect("send the request");
    let mut r = BufReader::new(s);
    let mut line = String::new();
    r.read_line(&mut line).expect("read the status line");
    let status = line
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("bad status line {line:?}"));
    let mut len = 0;
    loop {
        line.clear();
        r.read_line(&mut line).expect("read a header");
        let h = line.trim_end();
        if h.is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            if k.eq_ignore_ascii_case("content-length") {
                len = v.trim().parse().expect("a length");
            }
        }
    }
    let mut body = vec![0; len];
    r.read_exact(&mut body).expect("read the body");
    (status, String::from_utf8(body).expect("a text body"))
}

/// A connection to the program's port with bounded reads and writes.
fn connect(port: u16) -> std::io::Result<std::net::TcpStream> {
    let s = std::net::TcpStream::connect(("127.0.0.1", port))?;
    s.set_read_timeout(Some(xvfb::DEADLINE))?;
    s.set_write_timeout(Some(xvfb::DEADLINE))?;
    Ok(s)
}

#[test]
fn a_window_rendering_continuously_answers_http_requests() {
    let Some(x) = Xvfb::start() else { return };
    // §19.7: a window, a timer chain redrawing it as fast as it can and a
    // listening port in one program; the port is answered between frames
    // and the window keeps presenting meanwhile.
    let src = r#"
color white = 'white'
color blue = 'blue'
int frames = 0
void func frame() {
    drawRect(0, 0, 200, 100, white)
    drawCircle(frames % 200, 50, 20, blue)
    render()
    frames++
    setTimeout(frame, 0)
}
on request(req: http) {
    text path = parseURL(req.url).pathname
    if path == '/frames' {
        req.send({'body': `${frames}`})
    } else {
        req.send({'body': `hello ${path}`})
    }
}
on close() { log('close') }
on exit(code:int) { log(`exit ${code}`) }
setClientWidth(200)
setClientHeight(100)
frame()
openPort(argv[1].toInt())
log('serving')
"#;
    // openPort is a silent no-op on a port taken meanwhile (§2.3), and
    // the taker may answer a connection: then try another port
    for attempt in 0.. {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let arg = port.to_string();
        let mut p = Program::start(Some(&x), "serve", src, &[&arg], &[]);
        p.expect("serving");
        let ours = listener::owns_listener(p.pid(), port) != Some(false);
        let mut s = match connect(port) {
            Ok(s) if ours => s,
            Ok(_) if attempt < 3 => {
                eprintln!("port {port} is another process's; again");
                continue;
            }
            Err(e) if attempt < 3 => {
                eprintln!("port {port} not ours ({e}); again");
                continue;
            }
            Ok(_) => panic!("port {port} went to another process, {attempt} times"),
            Err(e) => panic!("cannot connect to the program's port {port}: {e}"),
        };
        let win = x.window("serve");
        assert_eq!(x.size(&win), (200, 100));
        let frames = |s: &mut std::net::TcpStream| -> u64 {
            let (code, body) = http_get(s, "/frames", false);
            assert_eq!(code, 200);
            body.parse().expect("a frame count")
        };
        let before = frames(&mut s);
        // keep-alive requests on one connection, then fresh connections
        for i in 0..20 {
            let path = format!("/k{i}");
            assert_eq!(
                http_get(&mut s, &path, false),
                (200, format!("hello {path}"))
            );
        }
        for i in 0..5 {
            let mut f = connect(port).expect("a fresh connection");
            let path = format!("/f{i}");
            assert_eq!(
                http_get(&mut f, &path, true),
                (200, format!("hello {path}"))
            );
        }
        // the window kept presenting frames while the port was served
        let end = std::time::Instant::now() + xvfb::DEADLINE;
        while frames(&mut s) <= before {
            assert!(
                std::time::Instant::now() < end,
                "no frame presented while serving"
            );
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        x.request_close(&win);
        p.expect("close");
        p.expect("exit 0");
        let (code, _, err) = p.finish();
        assert_eq!(code, Some(0), "{err}");
        return;
    }
}
